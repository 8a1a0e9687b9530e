//! Game lengths: lengths.csv's histograms and the length chart.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::*;

// ---------------------------------------------------------------------------
// lengths.csv

/// Games by length, per cell.
pub(super) struct Histograms {
    pub(super) cells: BTreeMap<CellKey, BTreeMap<u32, u64>>,
    /// A lengths.csv written before it had an `opening_plies` column: its
    /// cells are keyed with an empty `opening_plies`, and a summary cell
    /// that shares its variant and agents with another (so the two were
    /// pooled) gets no curve.
    pub(super) pooled: bool,
}

impl Histograms {
    /// Summary row `r`'s histogram, if lengths.csv keeps it apart.
    pub(super) fn get(&self, s: &CsvTable, r: usize) -> Option<&BTreeMap<u32, u64>> {
        let mut key = cell_key(s, r);
        if self.pooled {
            let shared = (0..s.len()).any(|q| {
                q != r
                    && s.text(q, "variant") == key.variant
                    && s.text(q, "p1") == key.p1
                    && s.text(q, "p2") == key.p2
            });
            if shared {
                return None;
            }
            key.opening_plies.clear();
        }
        self.cells.get(&key)
    }
}

pub(super) fn read_lengths(bytes: &[u8]) -> Result<Histograms, ReportError> {
    let t = CsvTable::parse("lengths.csv", bytes)?;
    t.require(&["variant", "p1", "p2", "length", "games"])?;
    let pooled = !t.has("opening_plies");
    let mut h = Histograms {
        cells: BTreeMap::new(),
        pooled,
    };
    for r in 0..t.len() {
        let (key, len, games) = length_row(&t, r, pooled)?;
        *h.cells.entry(key).or_default().entry(len).or_insert(0) += games;
    }
    Ok(h)
}

/// Row `r` of lengths.csv: its cell (keyed with an empty
/// `opening_plies` when `pooled`), length and games.
fn length_row(t: &CsvTable, r: usize, pooled: bool) -> Result<(CellKey, u32, u64), ReportError> {
    let int = |col: &str| t.whole(r, col);
    let len = u32::try_from(int("length")?).map_err(|_| ReportError::LengthTooLarge {
        file: "lengths.csv".into(),
        line: r + 2,
    })?;
    let mut key = cell_key(t, r);
    if pooled {
        key.opening_plies.clear();
    } else {
        int("opening_plies")?;
    }
    Ok((key, len, int("games")?))
}
/// Games at or past `limit` plies (the ply limit) and the largest length
/// the axis must show: the 99th percentile of the other games.
pub(super) fn body_and_spike(cell: &BTreeMap<u32, u64>, limit: Option<f64>) -> (f64, u64, u64) {
    let at_limit = |len: u32| limit.is_some_and(|l| len as f64 >= l);
    let total: u64 = cell.values().sum();
    let spike: u64 = cell
        .iter()
        .filter(|(l, _)| at_limit(**l))
        .map(|(_, k)| k)
        .sum();
    let body = total - spike;
    let mut seen = 0;
    let mut p99 = 0.0;
    for (&len, &k) in cell.iter().filter(|(l, _)| !at_limit(**l)) {
        seen += k;
        p99 = len as f64;
        if seen as f64 >= 0.99 * body as f64 {
            break;
        }
    }
    (p99, spike, total)
}

/// The length chart's panels, each a title and its summary rows: one per
/// matchup (agents and opening) in order of first appearance, split into
/// balanced panels of at most one colour per variant.
pub(super) fn length_panels(s: &CsvTable) -> Vec<(String, Vec<usize>)> {
    let mut panels: Vec<(String, Vec<usize>)> = Vec::new();
    for rows in matchup_rows(s) {
        let chunks = balanced_chunks(&rows, PALETTE.len());
        let mut first = 1;
        for chunk in &chunks {
            let mut title = format!("Game length, {}", matchup_text(s, chunk[0]));
            if chunks.len() > 1 {
                title.push_str(&format!(
                    " (variants {first} to {} of {})",
                    first + chunk.len() - 1,
                    rows.len()
                ));
            }
            first += chunk.len();
            panels.push((title, chunk.to_vec()));
        }
    }
    panels
}

/// Summary's rows by matchup (agents and opening), matchups in order of
/// first appearance.
fn matchup_rows(s: &CsvTable) -> Vec<Vec<usize>> {
    let mut matchups: Vec<((String, String, String), Vec<usize>)> = Vec::new();
    for r in 0..s.len() {
        let k = cell_key(s, r);
        let m = (k.p1, k.p2, k.opening_plies);
        match matchups.iter_mut().find(|(x, _)| *x == m) {
            Some((_, rows)) => rows.push(r),
            None => matchups.push((m, vec![r])),
        }
    }
    matchups.into_iter().map(|(_, rows)| rows).collect()
}

/// Length distributions: one panel per matchup (agents and random
/// opening), at most eight variants overlaid in a panel, each in its own
/// colour.
pub(super) fn length_chart(s: &CsvTable, hist: Option<&Histograms>) -> Result<Chart, ReportError> {
    let width = 1100u32;
    let legend_w = 360u32;
    let layouts = length_layouts(s, hist, (width, legend_w))?;
    let k = layout_key(&length_marks(), width - 40);
    let total: u32 = layouts.iter().map(|(_, _, l)| l.height).sum::<u32>() + k.height + 20;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, total)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let mut rest = root.clone();
        for (title, rows, l) in &layouts {
            let (area, below) = rest.split_vertically(l.height);
            draw_lengths(&area, s, rows, title, l, legend_w)?;
            rest = below;
        }
        draw_key(&rest, &k, (20, 5))?;
        root.present().map_err(drawing)?;
    }
    Ok(Chart {
        file: "lengths.svg".into(),
        title: "Game length".into(),
        svg,
        caption: length_caption(hist.is_some()),
        table: numbers_table(s, "summary.csv", &LENGTH_TABLE),
        notes: Vec::new(),
    })
}

/// Each panel's title, rows and layout, its height taking in a wrapped
/// title, on a chart `width` wide with a legend `legend_w` wide.
fn length_layouts(
    s: &CsvTable,
    hist: Option<&Histograms>,
    (width, legend_w): (u32, u32),
) -> Result<Vec<(String, Vec<usize>, LengthPanel)>, ReportError> {
    let mut layouts = Vec::new();
    for (title, rows) in length_panels(s) {
        let mut l = lengths_panel(s, &rows, hist, legend_w)?;
        l.height +=
            (title_lines(&title, width - legend_w).len() as u32).saturating_sub(1) * TITLE_SIZE;
        layouts.push((title, rows, l));
    }
    Ok(layouts)
}

/// The key under the length chart: the marks of the quantile strip.
fn length_marks() -> [(Swatch, String); 3] {
    [
        (
            Swatch::Line(BLACK, 3),
            "below the axis: length_p10 to length_p90".to_string(),
        ),
        (Swatch::Dot(BLACK), "median (length_p50)".into()),
        (Swatch::Cross, "mean (length_mean)".into()),
    ]
}

/// The columns of summary.csv under the length chart.
pub(super) const LENGTH_TABLE: [&str; 12] = [
    "variant",
    "p1",
    "p2",
    "opening_plies",
    "games",
    "undecided_ply_limit",
    "length_mean",
    "length_min",
    "length_p10",
    "length_p50",
    "length_p90",
    "length_max",
];

/// The length chart's caption: where its curves come from (`curves`:
/// lengths.csv was read), and what the strip below the axis shows.
pub(super) fn length_caption(curves: bool) -> String {
    let source = if curves {
        "Curves: each cell's exact length histogram (lengths.csv) as the share of its games \
         per ply, summed over bins of equal width (the bin width is in the axis label). The \
         axis ends at the largest 99th percentile of a panel's cells, games stopped at the \
         ply limit left out: the legend gives each cell's share stopped at the ply limit, \
         and a mean off the axis. "
    } else {
        "No curves: this folder has no lengths.csv (written by katro run and katro merge \
         since the report exists), so only summary.csv's length statistics are drawn. "
    };
    format!(
        "{source}Below the axis, one line per variant: from length_p10 to length_p90, \
         a dot at the median (length_p50) and a cross at the mean (length_mean). One \
         panel per matchup (agents and random opening plies), at most eight variants \
         to a panel, each in its own colour."
    )
}

/// What a length panel draws, worked out before its height is known.
pub(super) struct LengthPanel {
    pub(super) xmax: f64,
    pub(super) bin: u32,
    /// Per row of the panel: its curve (empty without a histogram).
    pub(super) curves: Vec<Vec<(f64, f64)>>,
    pub(super) ymax: f64,
    /// Per row: the legend's lines.
    pub(super) legend: Vec<Vec<String>>,
    pub(super) height: u32,
    pub(super) drawn: bool,
}

pub(super) fn lengths_panel(
    s: &CsvTable,
    rows: &[usize],
    hist: Option<&Histograms>,
    legend_w: u32,
) -> Result<LengthPanel, ReportError> {
    let (xmax, notes, cells) = panel_cells(s, rows, hist)?;
    // About 60 bins over the axis: fine enough to show the shape, coarse
    // enough that a few thousand games make a smooth curve.
    let bin = ((xmax / 60.0).ceil() as u32).max(1);
    let curves: Vec<Vec<(f64, f64)>> = cells
        .iter()
        .map(|cell| cell.map_or_else(Vec::new, |c| binned_curve(c, xmax, bin)))
        .collect();
    let ymax = curves.iter().flatten().fold(0f64, |m, &(_, y)| m.max(y));
    let mut legend = Vec::new();
    for (&r, note) in rows.iter().zip(&notes) {
        legend.push(length_legend(s, r, note, xmax, legend_w)?);
    }
    let legend_h: u32 = legend.iter().map(|l| l.len() as u32 * LINE + 8).sum();
    let height = (legend_h + 80).max(360);
    Ok(LengthPanel {
        xmax,
        bin,
        drawn: curves.iter().any(|c| !c.is_empty()),
        curves,
        ymax,
        legend,
        height,
    })
}

/// A cell's games by length, when lengths.csv keeps it apart.
type Histogram<'h> = Option<&'h BTreeMap<u32, u64>>;

/// A panel's rows: the end of the x axis, each row's games at the ply
/// limit and its histogram when lengths.csv has one.
fn panel_cells<'h>(
    s: &CsvTable,
    rows: &[usize],
    hist: Option<&'h Histograms>,
) -> Result<(f64, Vec<LimitNote>, Vec<Histogram<'h>>), ReportError> {
    let mut xmax = 1f64;
    let mut notes = Vec::new();
    let mut cells = Vec::new();
    for &r in rows {
        let limit = s.num(r, "ply_limit")?;
        let cell = hist.and_then(|h| h.get(s, r));
        let (body, spike, total) = match cell {
            Some(c) => body_and_spike(c, limit),
            None => summary_body(s, r, limit)?,
        };
        if limit.is_none_or(|l| body < l) {
            xmax = xmax.max(body);
        }
        notes.push(LimitNote {
            limit,
            spike,
            total,
        });
        cells.push(cell);
    }
    Ok(((xmax * 1.04).ceil().max(2.0), notes, cells))
}

/// A cell's games stopped at the ply limit, of `total`.
pub(super) struct LimitNote {
    pub(super) limit: Option<f64>,
    pub(super) spike: u64,
    pub(super) total: u64,
}

/// (body, spike, total) from summary.csv alone, where lengths.csv has no
/// histogram of row `r`: the body is the 90th percentile unless that game
/// too was stopped at the limit.
pub(super) fn summary_body(
    s: &CsvTable,
    r: usize,
    limit: Option<f64>,
) -> Result<(f64, u64, u64), ReportError> {
    let p90 = s.num(r, "length_p90")?.unwrap_or(0.0);
    let p50 = s.num(r, "length_p50")?.unwrap_or(0.0);
    let body = if limit.is_some_and(|l| p90 >= l) {
        p50
    } else {
        p90
    };
    let spike = s.num(r, "undecided_ply_limit")?.unwrap_or(0.0) as u64;
    let total = s.num(r, "games")?.unwrap_or(0.0) as u64;
    Ok((body, spike, total))
}

/// A histogram as the share of its games per ply, summed over bins of
/// `bin` plies, up to `xmax`: a step line, two points a bin.
pub(super) fn binned_curve(cell: &BTreeMap<u32, u64>, xmax: f64, bin: u32) -> Vec<(f64, f64)> {
    let games: u64 = cell.values().sum();
    let mut bins: BTreeMap<u32, u64> = BTreeMap::new();
    for (&len, &k) in cell.iter() {
        if (len as f64) < xmax {
            *bins.entry(len / bin).or_insert(0) += k;
        }
    }
    let last = (xmax as u32).div_ceil(bin);
    let mut pts = Vec::new();
    for b in 0..last {
        let y = *bins.get(&b).unwrap_or(&0) as f64 / games.max(1) as f64 / bin as f64;
        let x0 = (b * bin) as f64;
        pts.push((x0, y));
        pts.push(((x0 + bin as f64).min(xmax), y));
    }
    pts
}

/// Row `r`'s legend entry: the variant, wrapped, its share of games at
/// the ply limit, and its mean when the axis stops short of it.
pub(super) fn length_legend(
    s: &CsvTable,
    r: usize,
    note: &LimitNote,
    xmax: f64,
    legend_w: u32,
) -> Result<Vec<String>, ReportError> {
    let mut lines = wrap(
        s.text(r, "variant"),
        legend_w - SWATCH as u32 - 10,
        TEXT_SIZE,
    );
    if note.spike > 0 && note.total > 0 {
        let pct = 100.0 * note.spike as f64 / note.total as f64;
        let limit = note.limit.map_or(String::new(), |l| format!(" {l:.0}"));
        // Notes in brackets: read apart from the name above them.
        lines.push(format!("({pct:.1}% at ply limit{limit})"));
    }
    if let Some(m) = s.num(r, "length_mean")?
        && m > xmax
    {
        lines.push(format!("(mean {m:.0}: off the axis)"));
    }
    Ok(lines)
}

/// A length panel's title as the lines it is drawn in: one when it fits
/// the plot's width, else wrapped.
pub(super) fn title_lines(title: &str, plot_w: u32) -> Vec<String> {
    // Drawn, a title averages about 8.5 px a character (measured in
    // Chromium: titles of 92 characters ran off the 740 px plot, and one
    // of 68 reached over the y axis's label column into its top tick
    // label). Centred, one line is kept clear of that column (100 px and
    // the margin, on both sides). `text_width`'s estimate is wider on
    // purpose, so the wrapped lines fit with room to spare.
    if title.chars().count() as f64 * 8.5 <= plot_w.saturating_sub(220) as f64 {
        vec![title.to_string()]
    } else {
        wrap(title, plot_w.saturating_sub(220), TITLE_SIZE)
    }
}

pub(super) fn draw_lengths(
    area: &DrawingArea<SVGBackend, Shift>,
    s: &CsvTable,
    rows: &[usize],
    title: &str,
    p: &LengthPanel,
    legend_w: u32,
) -> Result<(), ReportError> {
    let (plot, side) = area.split_horizontally(area.dim_in_pixel().0 - legend_w);
    let (ymax, step) = if p.drawn {
        (p.ymax * 1.08, p.ymax * 1.08 / 14.0)
    } else {
        (0.5, 1.0)
    };
    let ymin = -step * (rows.len() as f64 + 1.0);
    let lines = title_lines(title, plot.dim_in_pixel().0);
    let mut builder = ChartBuilder::on(&plot);
    if lines.len() > 1 {
        // A title too long for one line (long agent names) is wrapped and
        // drawn here, above a chart moved down to make room for it.
        draw_title_lines(&plot, &lines)?;
        builder.margin_top(10 + lines.len() as u32 * TITLE_SIZE + 10);
    } else {
        builder.margin_top(10).caption(title, (FONT, TITLE_SIZE));
    }
    let mut chart = builder
        .margin_left(10)
        .margin_bottom(10)
        .margin_right(30)
        .x_label_area_size(58)
        .y_label_area_size(if p.drawn { 100 } else { 20 })
        .build_cartesian_2d(0f64..p.xmax, ymin..ymax)
        .map_err(drawing)?;
    draw_length_mesh(&mut chart, p)?;
    draw_curves(&mut chart, &p.curves)?;
    draw_quantile_strip(&mut chart, s, rows, step, p.xmax)?;
    draw_length_legend(&side, &p.legend)
}

/// Each row's curve in its colour.
fn draw_curves(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    curves: &[Vec<(f64, f64)>],
) -> Result<(), ReportError> {
    for (i, pts) in curves.iter().enumerate() {
        chart
            .draw_series(LineSeries::new(
                pts.iter().copied(),
                colour(i).stroke_width(2),
            ))
            .map_err(drawing)?;
    }
    Ok(())
}

/// A wrapped panel title, centred at the top of `plot`.
pub(super) fn draw_title_lines(
    plot: &DrawingArea<SVGBackend, Shift>,
    lines: &[String],
) -> Result<(), ReportError> {
    let centre = plot.dim_in_pixel().0 as i32 / 2;
    for (i, l) in lines.iter().enumerate() {
        plot.draw(&Text::new(
            l.clone(),
            (centre, 10 + (i as i32 * 2 + 1) * TITLE_SIZE as i32 / 2),
            (FONT, TITLE_SIZE)
                .into_text_style(plot)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .map_err(drawing)?;
    }
    Ok(())
}

/// A length panel's axes: lengths along x, the bin width in its
/// description; the share of games up the y axis only where curves are
/// drawn, none below 0 (the quantile strip).
pub(super) fn draw_length_mesh(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    p: &LengthPanel,
) -> Result<(), ReportError> {
    let drawn = p.drawn;
    let x_ticks = Ticks::new(chart.x_range(), 8, false);
    let y_ticks = Ticks::new(chart.y_range(), 6, true);
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.15))
        .x_labels(8)
        .y_labels(6)
        .label_style(style(TEXT_SIZE))
        .axis_desc_style(style(TEXT_SIZE))
        .x_desc(length_axis_desc(p))
        .x_label_formatter(&|x| x_ticks.label(*x))
        .y_desc(if drawn { "% of games per ply" } else { "" })
        .y_label_formatter(&|y| {
            if *y < 0.0 || !drawn {
                String::new()
            } else {
                y_ticks.label(*y)
            }
        })
        .draw()
        .map_err(drawing)
}

/// The x axis's description, with the bin width when curves are drawn.
fn length_axis_desc(p: &LengthPanel) -> String {
    if p.drawn {
        format!(
            "game length (plies; bins of {} {})",
            p.bin,
            if p.bin == 1 { "ply" } else { "plies" }
        )
    } else {
        "game length (plies)".to_string()
    }
}

/// Below the axis, one line per row from `length_p10` to `length_p90`, a
/// dot at the median and a cross at the mean, `step` apart.
pub(super) fn draw_quantile_strip(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    s: &CsvTable,
    rows: &[usize],
    step: f64,
    xmax: f64,
) -> Result<(), ReportError> {
    for (i, &r) in rows.iter().enumerate() {
        draw_quantile_line(chart, s, r, (colour(i), -step * (i as f64 + 1.0)), xmax)?;
    }
    Ok(())
}

/// Row `r`'s line of the strip at height `y`, in colour `c`; a mark past
/// the axis is not drawn (the legend says so for the mean).
fn draw_quantile_line(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    s: &CsvTable,
    r: usize,
    (c, y): (RGBColor, f64),
    xmax: f64,
) -> Result<(), ReportError> {
    if let Some(v) = mark(s, r, &["length_p10", "length_p90"])?
        && v[0] < xmax
    {
        chart
            .draw_series(LineSeries::new(
                [(v[0], y), (v[1].min(xmax), y)],
                c.stroke_width(3),
            ))
            .map_err(drawing)?;
    }
    if let Some(v) = mark(s, r, &["length_p50"])?
        && v[0] <= xmax
    {
        chart
            .draw_series([Circle::new((v[0], y), 5, c.filled())])
            .map_err(drawing)?;
    }
    if let Some(v) = mark(s, r, &["length_mean"])?
        && v[0] <= xmax
    {
        chart
            .draw_series([Cross::new((v[0], y), 6, BLACK.stroke_width(2))])
            .map_err(drawing)?;
    }
    Ok(())
}

/// The length chart's legend beside the plot: each row's lines.
pub(super) fn draw_length_legend(
    side: &DrawingArea<SVGBackend, Shift>,
    legend: &[Vec<String>],
) -> Result<(), ReportError> {
    // The legend beside the plot, one entry per variant.
    let mut y = 50i32;
    for (i, lines) in legend.iter().enumerate() {
        draw_swatch(side, Swatch::Line(colour(i), 3), (0, y + LINE as i32 / 2))?;
        draw_lines(side, lines, (SWATCH, y), HPos::Left, true)?;
        y += (lines.len() as u32 * LINE + 8) as i32;
    }
    Ok(())
}
