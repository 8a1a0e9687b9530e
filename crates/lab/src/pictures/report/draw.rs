//! What every chart shares: sizes, colours, text layout, keys and row panels.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{BoldPoints, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::*;

// ---------------------------------------------------------------------------
// Charts

pub(super) fn drawing<E: std::fmt::Debug>(e: E) -> ReportError {
    ReportError::Drawing(format!("{e:?}"))
}

pub(super) const FONT: &str = "sans-serif";
/// Sizes in SVG pixels. A chart is about 1,100 wide: printed across a
/// page's text width (about 16 cm) a 17 px text is about 7 pt, the size
/// of a figure's labels in a journal.
pub(super) const TITLE_SIZE: u32 = 21;
pub(super) const TEXT_SIZE: u32 = 17;
/// The distance between two lines of TEXT_SIZE text.
pub(super) const LINE: u32 = 21;

/// A text's width at `size` px, a little over what Chromium's sans-serif
/// (DejaVu Sans) takes: plotters' own guess (0.46 em a character) is too
/// small to size a label area by.
pub(super) fn text_width(text: &str, size: u32) -> u32 {
    (text.chars().count() as f64 * size as f64 * 0.62).ceil() as u32
}

/// `text` in lines no wider than `width` px at `size`, broken after a
/// space, `+` or `,` (a sweep's variant names break between their
/// settings), after a `-` or `_` only in a part that alone is wider, and
/// inside a word only when one word alone is wider.
pub(super) fn wrap(text: &str, width: u32, size: u32) -> Vec<String> {
    let max = ((width as f64 / (size as f64 * 0.62)).floor() as usize).max(4);
    // Between settings first; inside a setting's name only when it alone
    // is too wide.
    let tokens: Vec<String> = split_after(text, &[' ', '+', ','])
        .into_iter()
        .flat_map(|t| {
            if t.chars().count() > max {
                split_after(&t, &['-', '_'])
            } else {
                vec![t]
            }
        })
        .collect();
    fill_lines(tokens, max)
}

/// `text` in pieces, each ending after one of the characters `at` (the
/// last one perhaps not).
fn split_after(text: &str, at: &[char]) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    let mut cur = String::new();
    for ch in text.chars() {
        cur.push(ch);
        if at.contains(&ch) {
            tokens.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    tokens
}

/// `tokens` in lines of at most `max` characters, a token cut only when
/// it alone is longer.
fn fill_lines(tokens: Vec<String>, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for t in tokens {
        let t = if line.is_empty() { t.trim_start() } else { &t };
        if !line.is_empty() && line.chars().count() + t.trim_end().chars().count() > max {
            // A line broken at a space keeps it at its end (drawn, it
            // takes no room): a reader of the SVG, like the browser
            // test, can tell a break between words from a cut word.
            lines.push(std::mem::take(&mut line));
        }
        line.push_str(if line.is_empty() { t.trim_start() } else { t });
        // A space past the width is no reason to cut: it ends the line.
        while line.trim_end().chars().count() > max {
            lines.push(line.chars().take(max).collect());
            line = line.chars().skip(max).collect();
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

pub(super) fn style(size: u32) -> TextStyle<'static> {
    (FONT, size).into_font().color(&BLACK)
}

/// `lines` drawn with their block centred on `y` (or starting at `y`,
/// `top`), aligned as `h` at `x`.
pub(super) fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lines: &[String],
    (x, y): (i32, i32),
    h: HPos,
    top: bool,
) -> Result<(), ReportError> {
    let k = lines.len() as i32;
    let first = if top {
        y + LINE as i32 / 2
    } else {
        y - (k - 1) * LINE as i32 / 2
    };
    for (i, l) in lines.iter().enumerate() {
        area.draw(&Text::new(
            l.clone(),
            (x, first + i as i32 * LINE as i32),
            style(TEXT_SIZE).pos(Pos::new(h, VPos::Center)),
        ))
        .map_err(drawing)?;
    }
    Ok(())
}

/// A legend entry's mark.
#[derive(Clone, Copy)]
pub(super) enum Swatch {
    Line(RGBColor, u32),
    Grey,
    Dot(RGBColor),
    /// An open circle: an exact value, where a dot is a sampled one.
    Ring(RGBColor),
    Bar(RGBColor),
    Cross,
    /// No mark: a key's entry that is text only.
    Blank,
}

/// A legend: entries side by side, wrapping to new rows, each a mark and
/// its text (itself wrapped). Drawn outside the plotting area, so it
/// hides no mark.
pub(super) struct Key {
    /// (x, y, swatch, lines) of each entry, from the key's top left.
    pub(super) at: Vec<(i32, i32, Swatch, Vec<String>)>,
    pub(super) height: u32,
}

pub(super) const SWATCH: i32 = 30;

pub(super) fn layout_key(items: &[(Swatch, String)], width: u32) -> Key {
    let (mut x, mut y, mut row_h) = (0i32, 0i32, 0u32);
    let mut at = Vec::new();
    for (sw, text) in items {
        let lines = wrap(text, width.saturating_sub(SWATCH as u32 + 10), TEXT_SIZE);
        let w = SWATCH + widest(&lines) as i32 + 24;
        if x > 0 && x + w > width as i32 {
            x = 0;
            y += row_h as i32;
            row_h = 0;
        }
        row_h = row_h.max(lines.len() as u32 * LINE + 6);
        at.push((x, y, *sw, lines));
        x += w;
    }
    Key {
        at,
        height: y as u32 + row_h,
    }
}

/// The width of the widest of `lines`.
fn widest(lines: &[String]) -> u32 {
    lines
        .iter()
        .map(|l| text_width(l, TEXT_SIZE))
        .max()
        .unwrap_or(0)
}

pub(super) fn draw_swatch<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    sw: Swatch,
    (x, y): (i32, i32),
) -> Result<(), ReportError> {
    match sw {
        Swatch::Line(c, w) => {
            area.draw(&PathElement::new([(x, y), (x + 22, y)], c.stroke_width(w)))
        }
        Swatch::Grey => area.draw(&PathElement::new([(x, y), (x + 22, y)], BLACK.mix(0.6))),
        Swatch::Dot(c) => area.draw(&Circle::new((x + 11, y), 5, c.filled())),
        Swatch::Ring(c) => area.draw(&Circle::new((x + 11, y), 6, c.stroke_width(2))),
        // Outlined, so that a scale's lightest colour is not lost on the
        // white page.
        Swatch::Bar(c) => {
            let corners = [(x + 3, y - 7), (x + 19, y + 7)];
            area.draw(&Rectangle::new(corners, c.filled()))
                .and_then(|_| area.draw(&Rectangle::new(corners, BLACK.mix(0.35).stroke_width(1))))
        }
        Swatch::Cross => area.draw(&Cross::new((x + 11, y), 6, BLACK.stroke_width(2))),
        Swatch::Blank => Ok(()),
    }
    .map_err(drawing)
}

pub(super) fn draw_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    k: &Key,
    (x0, y0): (i32, i32),
) -> Result<(), ReportError> {
    for (x, y, sw, lines) in &k.at {
        let (x, y) = (x0 + x, y0 + y);
        draw_swatch(area, *sw, (x, y + LINE as i32 / 2))?;
        draw_lines(area, lines, (x + SWATCH, y), HPos::Left, true)?;
    }
    Ok(())
}

/// A numeric field that must be there for a mark to be drawn.
pub(super) fn mark(t: &CsvTable, r: usize, cols: &[&str]) -> Result<Option<Vec<f64>>, ReportError> {
    let mut v = Vec::new();
    for c in cols {
        match t.num(r, c)? {
            Some(x) => v.push(x),
            None => return Ok(None),
        }
    }
    Ok(Some(v))
}

/// How a numeric axis over `range` labels the ticks plotters puts at
/// about `hint` places (`x_labels(hint)`): with as many decimals as the
/// step between two ticks needs, so that no two labels read alike (ticks
/// 0.005 apart read 0.005, 0.010, not 0.01, 0.01), in percent when
/// `percent`.
pub(super) struct Ticks {
    decimals: usize,
    percent: bool,
}

impl Ticks {
    pub(super) fn new(range: std::ops::Range<f64>, hint: usize, percent: bool) -> Ticks {
        let keys = RangedCoordf64::from(range).key_points(BoldPoints(hint));
        let step = keys
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(f64::INFINITY, f64::min);
        let scale = if percent { 100.0 } else { 1.0 };
        let decimals = if step.is_finite() && step > 0.0 {
            Self::decimals(step * scale)
        } else {
            0
        };
        Ticks { decimals, percent }
    }

    /// The fewest decimals that write `step` exactly (to a millionth of
    /// it), at most 12.
    fn decimals(step: f64) -> usize {
        let mut decimals = 0;
        while decimals < 12 {
            let k = step * 10f64.powi(decimals as i32);
            if (k - k.round()).abs() <= 1e-6 * k.max(1.0) {
                break;
            }
            decimals += 1;
        }
        decimals
    }

    pub(super) fn label(&self, v: f64) -> String {
        let x = if self.percent { v * 100.0 } else { v };
        let mut s = format!("{:.*}", self.decimals, x);
        // No "-0" for a tick at zero that arithmetic left a hair below.
        if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
            s.remove(0);
        }
        if self.percent {
            s.push('%');
        }
        s
    }
}

/// The rows of a dot-and-whisker chart: each label wrapped to the label
/// column, every row as tall as the tallest label.
pub(super) struct Rows {
    pub(super) lines: Vec<Vec<String>>,
    pub(super) label_w: u32,
    pub(super) row_h: u32,
}

pub(super) fn rows(labels: &[String], max_w: u32) -> Rows {
    let label_w = widest(labels).clamp(40, max_w);
    let lines: Vec<Vec<String>> = labels.iter().map(|l| wrap(l, label_w, TEXT_SIZE)).collect();
    let most = lines.iter().map(Vec::len).max().unwrap_or(1) as u32;
    Rows {
        lines,
        label_w,
        row_h: most * LINE + 10,
    }
}

/// Above and below the rows of a row chart: margins, the title, the x
/// axis's ticks and description.
pub(super) const ROW_CHART_FRAME: u32 = 20 + 40 + 58;

/// A row chart's panel: rows from the top, a shade on every other row so
/// a reader's eye keeps to a row across the page.
pub(super) fn row_panel<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    title: &str,
    n: usize,
    label_area: u32,
    x: std::ops::Range<f64>,
    x_desc: &str,
    x_percent: bool,
) -> Result<
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    ReportError,
> {
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, TITLE_SIZE))
        .margin(10)
        .margin_right(30)
        .x_label_area_size(58)
        .y_label_area_size(label_area)
        .build_cartesian_2d(x.clone(), 0f64..n.max(1) as f64)
        .map_err(drawing)?;
    draw_row_mesh(&mut chart, x.clone(), x_desc, x_percent)?;
    chart
        .draw_series((0..n).filter(|r| r % 2 == 1).map(|r| {
            let y = (n - r) as f64;
            Rectangle::new([(x.start, y - 1.0), (x.end, y)], BLACK.mix(0.04).filled())
        }))
        .map_err(drawing)?;
    Ok(chart)
}

/// A row panel's x axis: its ticks (as percentages when `x_percent`),
/// light vertical lines and description; no y axis.
fn draw_row_mesh(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    x: std::ops::Range<f64>,
    x_desc: &str,
    x_percent: bool,
) -> Result<(), ReportError> {
    let ticks = Ticks::new(x, 6, x_percent);
    let fmt = |v: &f64| ticks.label(*v);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(6)
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.15))
        .x_label_formatter(&fmt)
        .label_style(style(TEXT_SIZE))
        .axis_desc_style(style(TEXT_SIZE))
        .x_desc(x_desc)
        .draw()
        .map_err(drawing)
}

/// Row `r`'s centre in a row panel's coordinates (row 0 on top).
pub(super) fn row_y(n: usize, r: usize) -> f64 {
    (n - r) as f64 - 0.5
}

/// The wrapped labels left of a row panel, right-aligned to its axis.
pub(super) fn draw_row_labels(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    rows: &Rows,
    x0: f64,
) -> Result<(), ReportError> {
    let n = rows.lines.len();
    for (r, lines) in rows.lines.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(x0, row_y(n, r)));
        draw_lines(root, lines, (px - 10, py), HPos::Right, false)?;
    }
    Ok(())
}

/// `items` split into the fewest groups of at most `most`, their sizes
/// differing by at most one (larger first): 9 by 8 gives 5 and 4, not 8
/// and a lone 1.
pub(super) fn balanced_chunks<T>(items: &[T], most: usize) -> Vec<&[T]> {
    let groups = items.len().div_ceil(most.max(1)).max(1);
    let (size, extra) = (items.len() / groups, items.len() % groups);
    let mut out = Vec::with_capacity(groups);
    let mut rest = items;
    for g in 0..groups {
        let (head, tail) = rest.split_at(size + usize::from(g < extra));
        out.push(head);
        rest = tail;
    }
    out.retain(|c| !c.is_empty());
    out
}

/// The axis of a share with 50% as its reference over `marks` (row,
/// estimate, low, high): [`crate::pictures::share_span`] of every mark
/// and its interval; 0–100% when there is no mark.
pub(super) fn share_axis(marks: &[(usize, f64, f64, f64)]) -> std::ops::Range<f64> {
    if marks.is_empty() {
        return 0.0..1.0;
    }
    let lo = marks.iter().map(|m| m.2.min(m.1)).fold(0.5, f64::min);
    let hi = marks.iter().map(|m| m.3.max(m.1)).fold(0.5, f64::max);
    crate::pictures::share_span(lo, hi)
}

/// Each mark's estimate as a percentage to a tenth, in a column just
/// right of the panel on its row: beside the dot, yet clear of the grid
/// lines, the 50% line and the intervals a text inside the panel would
/// cross. The panel's area needs [`MARK_VALUES_W`] to spare on its right.
pub(super) fn draw_mark_values(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    n: usize,
    x: &std::ops::Range<f64>,
    marks: &[(usize, f64, f64, f64)],
) -> Result<(), ReportError> {
    for &(r, v, _, _) in marks {
        let (px, py) = chart.backend_coord(&(x.end, row_y(n, r)));
        let line = [format!("{:.1}%", v * 100.0)];
        draw_lines(root, &line, (px + 8, py), HPos::Left, false)?;
    }
    Ok(())
}

/// The room [`draw_mark_values`] needs right of a panel, beyond its own
/// right margin: "100.0%" and a gap.
pub(super) const MARK_VALUES_W: u32 = 64;

/// Dots at `marks` (row, estimate, low, high) with their intervals, and a
/// grey reference line at `at`.
pub(super) fn draw_intervals(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    n: usize,
    at: f64,
    marks: &[(usize, f64, f64, f64)],
    c: RGBColor,
) -> Result<(), ReportError> {
    chart
        .draw_series(LineSeries::new(
            [(at, 0.0), (at, n as f64)],
            ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1),
        ))
        .map_err(drawing)?;
    chart
        // plotters rings the middle value: that must be the estimate (a
        // Wilson interval is not centred on it), hidden under the dot.
        .draw_series(marks.iter().map(|&(r, v, lo, hi)| {
            ErrorBar::new_horizontal(row_y(n, r), lo, v, hi, c.stroke_width(2), 10)
        }))
        .map_err(drawing)?;
    chart
        .draw_series(
            marks
                .iter()
                .map(|&(r, v, _, _)| Circle::new((v, row_y(n, r)), 5, c.filled())),
        )
        .map_err(drawing)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_split_into_groups_of_near_equal_size() {
        let sizes = |n: usize, most: usize| -> Vec<usize> {
            let v: Vec<usize> = (0..n).collect();
            balanced_chunks(&v, most).iter().map(|c| c.len()).collect()
        };
        assert_eq!(sizes(9, 8), [5, 4]);
        assert_eq!(sizes(8, 8), [8]);
        assert_eq!(sizes(17, 8), [6, 6, 5]);
        assert_eq!(sizes(48, 8), [8; 6]);
        assert_eq!(sizes(1, 8), [1]);
        assert!(sizes(0, 8).is_empty());
        // Every item once, in order.
        let v: Vec<usize> = (0..25).collect();
        let joined: Vec<usize> = balanced_chunks(&v, 8).concat();
        assert_eq!(joined, v);
    }

    #[test]
    fn a_share_axis_spans_the_intervals_and_one_half_and_no_more_than_it_needs() {
        // Two near-even cells: a narrow axis around 50%, not 0–100%.
        let x = share_axis(&[(0, 0.489, 0.486, 0.492), (1, 0.517, 0.51, 0.524)]);
        assert!(x.start <= 0.486 && x.end >= 0.524, "{x:?}");
        assert!(x.end - x.start <= 0.15, "{x:?}");
        // 50% is always on the axis, even when every interval is far from it.
        let x = share_axis(&[(0, 0.7, 0.68, 0.72)]);
        assert!(x.start <= 0.5 && x.end >= 0.72, "{x:?}");
        // Data from 2% to 98% need the whole axis.
        assert_eq!(
            share_axis(&[(0, 0.02, 0.01, 0.03), (1, 0.98, 0.97, 0.99)]),
            0.0..1.0
        );
        assert_eq!(share_axis(&[]), 0.0..1.0);
        // Never beyond 0 and 1.
        let x = share_axis(&[(0, 0.96, 0.93, 0.99)]);
        assert!(x.start >= 0.0 && x.end <= 1.0, "{x:?}");
    }
}
