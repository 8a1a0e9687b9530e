//! Charts against a swept setting (docs/EXPERIMENTS.md, sweeps).

use plotters::coord::Shift;
use plotters::coord::ranged1d::SegmentedCoord;
use plotters::coord::types::{RangedCoordf64, RangedCoordusize};
use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use super::*;

// ---------------------------------------------------------------------------
// Sweeps

/// The board keys and rule settings, in the order of `Settings`: the tidy
/// columns of summary.csv (docs/OUTPUTS.md) that a sweep varies.
pub(super) fn setting_columns() -> Vec<String> {
    match serde_json::to_value(crate::rules::Settings::canonical()) {
        Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// The settings a `[[sweep]]` varied: named in the sweep variants' names
/// (`base+holes=4+seeds=3`, docs/EXPERIMENTS.md) and taking two or more
/// values in their tidy column. Presets that merely differ in a setting
/// are not a sweep and get no chart.
pub(super) fn swept_keys(s: &CsvTable) -> Vec<String> {
    let named = named_keys(s);
    setting_columns()
        .into_iter()
        .filter(|k| s.has(k) && named.contains(k))
        .filter(|k| {
            let mut seen: Vec<&str> = Vec::new();
            for r in 0..s.len() {
                let v = s.text(r, k);
                if !seen.contains(&v) {
                    seen.push(v);
                }
            }
            seen.len() > 1
        })
        .collect()
}

/// The keys the variants' names set (`base+holes=4`), in order of first
/// appearance.
fn named_keys(s: &CsvTable) -> Vec<String> {
    let mut named: Vec<String> = Vec::new();
    for r in 0..s.len() {
        for part in s.text(r, "variant").split('+').skip(1) {
            if let Some((k, _)) = part.split_once('=')
                && !named.iter().any(|n| n == k)
            {
                named.push(k.to_string());
            }
        }
    }
    named
}

/// A swept key's values on `rows` in plotting order: numerically when
/// every value is a number, else in the order the rows give them.
pub(super) fn sweep_values(s: &CsvTable, key: &str, rows: &[usize]) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    for &r in rows {
        let v = s.text(r, key).to_string();
        if !values.contains(&v) {
            values.push(v);
        }
    }
    if values.iter().all(|v| v.parse::<f64>().is_ok()) {
        values.sort_by(|a, b| {
            a.parse::<f64>()
                .unwrap()
                .total_cmp(&b.parse::<f64>().unwrap())
        });
    }
    values
}

/// A mark of a sweep chart: series, value index, the metric, its interval.
pub(super) type SweepPoint = (usize, usize, f64, Option<(f64, f64)>);

/// A line of a sweep chart: its label and its rows of summary.csv.
pub(super) type Series = (String, Vec<usize>);

/// A panel of a sweep chart: the column it plots, its title and the
/// columns of the metric's interval, if it has one.
pub(super) type SweepMetric = (&'static str, String, Option<[&'static str; 2]>);

/// The x axis of a sweep panel: one segment per value of the setting.
pub(super) type SweepCoord = Cartesian2d<SegmentedCoord<RangedCoordusize>, RangedCoordf64>;

/// One chart per swept setting: the first-player win rate among decided
/// games with its 95% interval, the share of games decided and the mean
/// length, against the setting's value; one line per matchup (agents and
/// random opening plies) and values of the other swept settings, at most
/// eight lines to a row of panels.
pub(super) fn sweep_charts(s: &CsvTable) -> Result<Vec<Chart>, ReportError> {
    let keys = swept_keys(s);
    keys.iter().map(|key| sweep_chart(s, &keys, key)).collect()
}

pub(super) fn sweep_chart(s: &CsvTable, keys: &[String], key: &str) -> Result<Chart, ReportError> {
    let others: Vec<&str> = keys
        .iter()
        .map(String::as_str)
        .filter(|k| *k != key)
        .collect();
    let series = sweep_series(s, keys, key, &others);
    let axis = SweepAxis::new(s, key, &series);
    let svg = axis.svg(&series)?;
    let mut caption = sweep_caption(key, &others);
    if axis.repeats_a_value(&series) {
        caption.push_str(REPEATED_VALUE);
    }
    caption.push_str(&estimand_sentence(s, "row"));
    Ok(Chart {
        file: format!("sweep-{key}.svg"),
        title: format!("Against the swept setting `{key}`"),
        svg,
        caption,
        table: sweep_table(s, key),
        notes: Vec::new(),
    })
}

/// Whether row `r`'s variant name sets `k` (`base+k=v`, docs/EXPERIMENTS.md).
pub(super) fn names_key(s: &CsvTable, r: usize, k: &str) -> bool {
    s.text(r, "variant")
        .split('+')
        .skip(1)
        .any(|p| p.split_once('=').is_some_and(|(n, _)| n == k))
}

/// Said under a chart where a line has two cells at one value: one rule
/// set under two names, from an experiment older than the merge of such
/// variants (docs/EXPERIMENTS.md, Sweeps).
pub(super) const REPEATED_VALUE: &str = " Where a line has two cells at one value (one rule set \
     under two names), both are marked and the line runs through the first.";

/// The variant a sweep's variant was made from: its name before the
/// first `+` (docs/EXPERIMENTS.md).
fn base_of(name: &str) -> &str {
    name.split('+').next().unwrap_or(name)
}

/// The lines of `key`'s chart: the matchup, then the other swept values,
/// in row order. A row is on the chart when its name sets `key`, or sets
/// no swept key and is the base of such a row: by its name, or by having
/// that sweep's settings in every column not swept (a preset that is one
/// of the sweep's points, as katro-6x3 is katro-6x6 with 3 holes). So
/// sweeps of one setting each, side by side in one experiment, each get a
/// chart of their own rows, and the other variants an experiment lists
/// beside a sweep stay off it. When sweeps from several bases vary `key`,
/// each line names its base.
pub(super) fn sweep_series(
    s: &CsvTable,
    keys: &[String],
    key: &str,
    others: &[&str],
) -> Vec<Series> {
    let bases = sweep_bases(s, key);
    let fixed: Vec<String> = setting_columns()
        .into_iter()
        .filter(|c| s.has(c) && !keys.contains(c))
        .collect();
    let base_of_row = |r: usize| -> Option<&str> {
        let name = s.text(r, "variant");
        if names_key(s, r, key) {
            return Some(base_of(name));
        }
        if keys.iter().any(|k| names_key(s, r, k)) {
            return None;
        }
        let same = |&&(_, r0): &&(&str, usize)| fixed.iter().all(|c| s.text(r, c) == s.text(r0, c));
        let by_name = bases.iter().find(|(b, _)| *b == name);
        by_name.or_else(|| bases.iter().find(same)).map(|(b, _)| *b)
    };
    let mut series: Vec<Series> = Vec::new();
    for r in 0..s.len() {
        let Some(base) = base_of_row(r) else {
            continue;
        };
        let label = series_label(s, r, (base, bases.len() > 1), others);
        match series.iter_mut().find(|(l, _)| *l == label) {
            Some((_, rows)) => rows.push(r),
            None => series.push((label, vec![r])),
        }
    }
    series
}

/// Each base of a sweep of `key` with one row of its sweep, whose
/// unswept settings are the base's.
fn sweep_bases<'s>(s: &'s CsvTable, key: &str) -> Vec<(&'s str, usize)> {
    let mut bases: Vec<(&str, usize)> = Vec::new();
    for r in (0..s.len()).filter(|&r| names_key(s, r, key)) {
        let b = base_of(s.text(r, "variant"));
        if !bases.iter().any(|(n, _)| *n == b) {
            bases.push((b, r));
        }
    }
    bases
}

/// Row `r`'s line: its base when `named` (sweeps from several bases),
/// its matchup and the values of the other swept keys its name sets.
fn series_label(s: &CsvTable, r: usize, (base, named): (&str, bool), others: &[&str]) -> String {
    let mut label = if named {
        format!("{base}: {}", matchup_text(s, r))
    } else {
        matchup_text(s, r)
    };
    for o in others.iter().filter(|o| names_key(s, r, o)) {
        label.push_str(&format!(", {o}={}", s.text(r, o)));
    }
    label
}

/// What every panel of `key`'s chart shares: the setting's values along
/// the x axis, their wrapped tick labels and the heights they take.
pub(super) struct SweepAxis<'a> {
    pub(super) s: &'a CsvTable,
    pub(super) key: &'a str,
    pub(super) values: Vec<String>,
    pub(super) ticks: Vec<Vec<String>>,
    pub(super) x_area: u32,
    pub(super) plot_h: u32,
    /// How much lower every other value's tick label is drawn (0: none).
    pub(super) drop: u32,
}

impl<'a> SweepAxis<'a> {
    const WIDTH: u32 = 1100;

    /// The axis of the values `series` take.
    pub(super) fn new(s: &'a CsvTable, key: &'a str, series: &[Series]) -> SweepAxis<'a> {
        let rows: Vec<usize> = series
            .iter()
            .flat_map(|(_, rows)| rows.iter().copied())
            .collect();
        let values = sweep_values(s, key, &rows);
        let (ticks, stagger) = Self::wrap_ticks(&values);
        let lines_at = |odd: usize| {
            ticks
                .iter()
                .skip(odd)
                .step_by(2)
                .map(Vec::len)
                .max()
                .unwrap_or(0) as u32
        };
        let drop = if stagger { lines_at(0) * LINE + 4 } else { 0 };
        let tick_lines = if stagger {
            lines_at(0) + lines_at(1)
        } else {
            ticks.iter().map(Vec::len).max().unwrap_or(1) as u32
        };
        let x_area = 14 + tick_lines * LINE + 4 + 32;
        SweepAxis {
            s,
            key,
            values,
            ticks,
            x_area,
            plot_h: 300 + x_area,
            drop,
        }
    }

    /// The values under each panel's axis, wrapped to their share of it,
    /// and whether every other one is drawn lower.
    fn wrap_ticks(values: &[String]) -> (Vec<Vec<String>>, bool) {
        let panel_w = (Self::WIDTH - 20) / 3;
        let slot = (panel_w - 90) / values.len().max(1) as u32;
        // A word wider than its slot would be cut: then every other value
        // is drawn lower, each with its neighbours' room too.
        let widest_word = values
            .iter()
            .flat_map(|v| v.split([' ', '+', ',', '-', '_']))
            .map(|w| text_width(w, TEXT_SIZE))
            .max()
            .unwrap_or(0);
        let stagger = values.len() > 1 && widest_word + 6 > slot;
        let room = if stagger { 2 * slot } else { slot };
        let ticks = values
            .iter()
            .map(|v| wrap(v, room.saturating_sub(6), TEXT_SIZE))
            .collect();
        (ticks, stagger)
    }

    /// Whether a line of `series` has two cells at one value.
    fn repeats_a_value(&self, series: &[Series]) -> bool {
        series.iter().any(|(_, rows)| {
            let mut xs: Vec<usize> = rows.iter().map(|&r| self.x_of(r)).collect();
            xs.sort_unstable();
            xs.windows(2).any(|w| w[0] == w[1])
        })
    }

    /// Row `r`'s place on the x axis: the index of its value.
    pub(super) fn x_of(&self, r: usize) -> usize {
        self.values
            .iter()
            .position(|v| v == self.s.text(r, self.key))
            .unwrap_or(0)
    }

    /// The chart: for each group of at most eight series, a row of three
    /// panels and the group's key under it.
    pub(super) fn svg(&self, series: &[Series]) -> Result<String, ReportError> {
        let groups = balanced_chunks(series, PALETTE.len());
        let keys_of: Vec<Key> = groups
            .iter()
            .map(|g| series_key(g, Self::WIDTH - 40))
            .collect();
        let height: u32 = keys_of.iter().map(|k| self.plot_h + k.height + 16).sum();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (Self::WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).map_err(drawing)?;
            let mut rest = root.clone();
            for (g, (group, k)) in groups.iter().zip(&keys_of).enumerate() {
                let (area, below) = rest.split_vertically(self.plot_h + k.height + 16);
                rest = below;
                let (plots, key_area) = area.split_vertically(self.plot_h);
                let panels = plots.margin(0, 0, 10, 10).split_evenly((1, 3));
                for (panel, metric) in panels.iter().zip(sweep_metrics(g, groups.len())) {
                    self.draw_panel(&root, panel, group, metric)?;
                }
                draw_key(&key_area, k, (20, 4))?;
            }
            root.present().map_err(drawing)?;
        }
        Ok(svg)
    }

    /// One metric against the setting for one group of series, the
    /// values' ticks under the axis (drawn on `root`, as they may be
    /// wider than a segment's plotters label).
    pub(super) fn draw_panel(
        &self,
        root: &DrawingArea<SVGBackend, Shift>,
        panel: &DrawingArea<SVGBackend, Shift>,
        group: &[Series],
        (col, title, whiskers): SweepMetric,
    ) -> Result<(), ReportError> {
        let (points, top) = self.points(group, col, whiskers)?;
        let share = col != "length_mean";
        // The win rate's axis spans its intervals and 50% (as the win-rate
        // chart's); the share of decided games keeps 0–100%, headroom
        // above it so the top tick's label keeps clear of the panel's title.
        let y = if col == "p1_win_rate" {
            let marks: Vec<(usize, f64, f64, f64)> = points
                .iter()
                .map(|&(_, _, v, w)| {
                    let (lo, hi) = w.unwrap_or((v, v));
                    (0, v, lo, hi)
                })
                .collect();
            // Headroom above the axis's end, as for the other shares.
            let y = share_axis(&marks);
            y.start..y.end + 0.06 * (y.end - y.start)
        } else if share {
            0.0..1.06
        } else {
            0.0..(top * 1.1).max(1.0)
        };
        let ticks = Ticks::new(y.clone(), 6, share);
        let mut chart = ChartBuilder::on(panel)
            .caption(title, (FONT, TEXT_SIZE + 1))
            .margin(8)
            .margin_right(24)
            .x_label_area_size(self.x_area)
            .y_label_area_size(62)
            .build_cartesian_2d((0..self.values.len().saturating_sub(1)).into_segmented(), y)
            .map_err(drawing)?;
        self.draw_axes(root, &mut chart, &ticks)?;
        if col == "p1_win_rate" {
            draw_even_line(&mut chart)?;
        }
        for i in 0..group.len() {
            draw_sweep_line(&mut chart, &points, i)?;
        }
        Ok(())
    }

    /// A panel's mesh and y labels (`ticks`), and the values' ticks under
    /// the axis, every other one lower when they are staggered.
    fn draw_axes(
        &self,
        root: &DrawingArea<SVGBackend, Shift>,
        chart: &mut ChartContext<SVGBackend, SweepCoord>,
        ticks: &Ticks,
    ) -> Result<(), ReportError> {
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(BLACK.mix(0.15))
            .x_labels(self.values.len())
            .y_labels(6)
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&|v: &f64| ticks.label(*v))
            .label_style(style(TEXT_SIZE))
            .axis_desc_style(style(TEXT_SIZE))
            .x_desc(self.key)
            .draw()
            .map_err(drawing)?;
        for (i, lines) in self.ticks.iter().enumerate() {
            // The axis's bottom, which a share's axis no longer puts at 0.
            let bottom = chart.y_range().start;
            let (px, py) = chart.backend_coord(&(SegmentValue::CenterOf(i), bottom));
            let lower = if i % 2 == 1 { self.drop as i32 } else { 0 };
            draw_lines(root, lines, (px, py + 8 + lower), HPos::Center, true)?;
        }
        Ok(())
    }

    /// The marks of `col` for each series of `group`, and the highest of
    /// them and their intervals' ends (the top of a length axis).
    pub(super) fn points(
        &self,
        group: &[Series],
        col: &str,
        whiskers: Option<[&str; 2]>,
    ) -> Result<(Vec<SweepPoint>, f64), ReportError> {
        let s = self.s;
        let mut points: Vec<SweepPoint> = Vec::new();
        let mut top: f64 = 0.0;
        for (i, (_, rows)) in group.iter().enumerate() {
            for &r in rows {
                let Some(v) = s.num(r, col)? else { continue };
                let w = interval(s, r, whiskers)?;
                top = top.max(w.map_or(v, |(_, b)| b.max(v)));
                points.push((i, self.x_of(r), v, w));
            }
        }
        Ok((points, top))
    }
}

/// The grey line at 50%: no advantage.
fn draw_even_line(chart: &mut ChartContext<SVGBackend, SweepCoord>) -> Result<(), ReportError> {
    chart
        .draw_series(LineSeries::new(
            [(SegmentValue::Exact(0), 0.5), (SegmentValue::Last, 0.5)],
            ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1),
        ))
        .map_err(drawing)?;
    Ok(())
}

/// Row `r`'s interval between the two `whiskers` columns, when it has
/// both ends.
fn interval(
    s: &CsvTable,
    r: usize,
    whiskers: Option<[&str; 2]>,
) -> Result<Option<(f64, f64)>, ReportError> {
    Ok(match whiskers {
        Some([lo, hi]) => match (s.num(r, lo)?, s.num(r, hi)?) {
            (Some(a), Some(b)) => Some((a, b)),
            _ => None,
        },
        None => None,
    })
}

/// A group's key: each series' colour and label.
pub(super) fn series_key(group: &[Series], width: u32) -> Key {
    let items: Vec<(Swatch, String)> = group
        .iter()
        .enumerate()
        .map(|(i, (l, _))| (Swatch::Line(colour(i), 2), l.clone()))
        .collect();
    layout_key(&items, width)
}

/// The three panels of group `g`; when the series take more than one
/// group, each title says which (`(2/3)`).
pub(super) fn sweep_metrics(g: usize, groups: usize) -> [SweepMetric; 3] {
    let mut metrics: [SweepMetric; 3] = [
        (
            "p1_win_rate",
            "Player 1's win rate, decided games".into(),
            Some(["p1_win_rate_low", "p1_win_rate_high"]),
        ),
        ("completion", "Games decided".into(), None),
        ("length_mean", "Mean length (plies)".into(), None),
    ];
    if groups > 1 {
        for m in metrics.iter_mut() {
            m.1 = format!(
                "{} ({}/{})",
                m.1.split(" (").next().unwrap_or(""),
                g + 1,
                groups
            );
        }
    }
    metrics
}

/// Series `i`'s line through its marks, left to right, its dots and their
/// intervals. A line meets each value once: a second cell at one value is
/// marked off the line ([`REPEATED_VALUE`]), where joining the two would
/// draw a vertical segment that reads as a jump in the setting.
pub(super) fn draw_sweep_line(
    chart: &mut ChartContext<SVGBackend, SweepCoord>,
    points: &[SweepPoint],
    i: usize,
) -> Result<(), ReportError> {
    let c = colour(i);
    let mut marks: Vec<(usize, f64)> = points
        .iter()
        .filter(|p| p.0 == i)
        .map(|p| (p.1, p.2))
        .collect();
    marks.sort_by_key(|p| p.0);
    let mut line = marks.clone();
    line.dedup_by_key(|p| p.0);
    let at = |(x, v): (usize, f64)| (SegmentValue::CenterOf(x), v);
    chart
        .draw_series(LineSeries::new(
            line.iter().map(|&p| at(p)),
            c.stroke_width(2),
        ))
        .map_err(drawing)?;
    chart
        .draw_series(marks.iter().map(|&p| Circle::new(at(p), 4, c.filled())))
        .map_err(drawing)?;
    draw_sweep_whiskers(chart, points, i)
}

/// Series `i`'s intervals.
fn draw_sweep_whiskers(
    chart: &mut ChartContext<SVGBackend, SweepCoord>,
    points: &[SweepPoint],
    i: usize,
) -> Result<(), ReportError> {
    let c = colour(i);
    chart
        .draw_series(points.iter().filter(|p| p.0 == i).filter_map(|p| {
            p.3.map(|(lo, hi)| {
                ErrorBar::new_vertical(
                    SegmentValue::CenterOf(p.1),
                    lo,
                    p.2,
                    hi,
                    c.stroke_width(1),
                    8,
                )
            })
        }))
        .map_err(drawing)?;
    Ok(())
}

/// The numbers behind `key`'s chart: the cell, the setting's value and
/// each metric drawn, as summary.csv has them.
pub(super) fn sweep_table(s: &CsvTable, key: &str) -> String {
    let mut cols: Vec<&str> = vec!["variant", "p1", "p2", "opening_plies", key];
    cols.extend([
        "games",
        "decided",
        "p1_win_rate",
        "p1_win_rate_low",
        "p1_win_rate_high",
        "completion",
        "length_mean",
    ]);
    numbers_table(s, "summary.csv", &cols)
}

pub(super) fn sweep_caption(key: &str, others: &[&str]) -> String {
    format!(
        "Each metric of summary.csv against `{key}` (its tidy column), one line per \
         matchup{}: left, player 1's share of the decided games (p1_win_rate) with its \
         95% Wilson interval, the grey line at 0.5; middle, the share of games decided \
         (completion); right, the mean length in plies (length_mean). A value with no \
         decided game has no win-rate mark.",
        if others.is_empty() {
            String::new()
        } else {
            format!(
                " and value of the other swept setting(s) ({})",
                others.join(", ")
            )
        }
    )
}
