//! `report.html` and its charts, made from the CSV files of a results
//! folder: what a balance study looks like when read as plots.
//!
//! Everything here is bytes in, bytes out (the binary reads and writes the
//! files). The CSV files are read by column name, so columns added later
//! and empty fields (an undefined value) do not break a report. Every
//! number printed on the page is copied from the CSV text, never
//! recomputed, so the page says exactly what the CSV says; the charts
//! only place marks at those values.
//!
//! The charts are drawn with plotters' SVG backend. A chart is a
//! [`Chart`]: a file name under `plots/`, a title and the SVG; each
//! setting a sweep varies (docs/EXPERIMENTS.md) gets one more.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::coord::ranged1d::SegmentedCoord;
use plotters::coord::types::{RangedCoordf64, RangedCoordusize};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

mod metrics_chart;

/// A CSV file read by column name.
pub struct CsvTable {
    name: String,
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// Why a report cannot be made. Every message but [`ReportError::Drawing`]
/// names the CSV file, and where it can the line and column, at fault.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{file}: cannot read the header row: {source}")]
    Header { file: String, source: csv::Error },
    /// A record the csv reader refuses; `line` counts the header as 1.
    #[error("{file}: line {line}: {source}")]
    Record {
        file: String,
        line: usize,
        source: csv::Error,
    },
    #[error(
        "{file}: missing column(s) {}: a report needs {}",
        .missing.join(", "),
        .needed.join(", ")
    )]
    MissingColumns {
        file: String,
        missing: Vec<String>,
        needed: Vec<String>,
    },
    #[error("{file}: line {line}, column {column}: `{text}` is not a number")]
    NotANumber {
        file: String,
        line: usize,
        column: String,
        text: String,
    },
    #[error("{file}: line {line}, column {column}: `{text}` is not a whole number")]
    NotAWholeNumber {
        file: String,
        line: usize,
        column: String,
        text: String,
    },
    /// A game length in lengths.csv over `u32::MAX` plies.
    #[error("{file}: line {line}: length too large")]
    LengthTooLarge { file: String, line: usize },
    #[error("{file}: no rows: nothing to draw")]
    NoRows { file: String },
    /// plotters failed: katro's fault, not the input's.
    #[error("cannot draw a chart: {0}")]
    Drawing(String),
}

impl ReportError {
    /// Whether katro failed rather than the CSV it was given: a chart that
    /// cannot be drawn (exit 1, not the exit 2 of input the user can fix).
    pub fn is_katros_fault(&self) -> bool {
        matches!(self, ReportError::Drawing(_))
    }
}

impl CsvTable {
    /// Parses `bytes`; `name` is the file name used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<CsvTable, ReportError> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .from_reader(bytes);
        let headers = r
            .headers()
            .map_err(|source| ReportError::Header {
                file: name.to_string(),
                source,
            })?
            .iter()
            .map(str::to_string)
            .collect();
        let mut rows = Vec::new();
        for (i, rec) in r.records().enumerate() {
            let rec = rec.map_err(|source| ReportError::Record {
                file: name.to_string(),
                line: i + 2,
                source,
            })?;
            rows.push(rec.iter().map(str::to_string).collect());
        }
        Ok(CsvTable {
            name: name.to_string(),
            headers,
            rows,
        })
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn has(&self, column: &str) -> bool {
        self.headers.iter().any(|h| h == column)
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Fails, naming the file, when a column the report needs is missing.
    fn require(&self, columns: &[&str]) -> Result<(), ReportError> {
        let missing: Vec<String> = columns
            .iter()
            .filter(|c| !self.has(c))
            .map(|c| c.to_string())
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(ReportError::MissingColumns {
                file: self.name.clone(),
                missing,
                needed: columns.iter().map(|c| c.to_string()).collect(),
            })
        }
    }

    /// The text of a field; "" when the column is absent.
    pub fn text(&self, row: usize, column: &str) -> &str {
        match self.headers.iter().position(|h| h == column) {
            Some(c) => self.rows[row].get(c).map_or("", String::as_str),
            None => "",
        }
    }

    /// A field as a number; `None` when empty (undefined).
    fn num(&self, row: usize, column: &str) -> Result<Option<f64>, ReportError> {
        let t = self.text(row, column);
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<f64>()
            .map(Some)
            .map_err(|_| ReportError::NotANumber {
                file: self.name.clone(),
                line: row + 2,
                column: column.to_string(),
                text: t.to_string(),
            })
    }
}

/// The files a report is made from.
pub struct Inputs<'a> {
    /// summary.csv, required.
    pub summary: &'a [u8],
    /// comparison.csv, if the run wrote one.
    pub comparison: Option<&'a [u8]>,
    /// lengths.csv (the exact length histograms), if the run wrote one.
    pub lengths: Option<&'a [u8]>,
    /// ratings.csv and skill-trace.csv, if the experiment had a tournament.
    pub ratings: Option<&'a [u8]>,
    pub skill_trace: Option<&'a [u8]>,
    /// metrics.csv, if some cell recorded design metrics.
    pub metrics: Option<&'a [u8]>,
    /// The experiment's name, for the page title.
    pub title: &'a str,
}

/// What marks a file as written by `katro report` (a `generator` meta tag
/// in the page, a comment at the top of each chart), so that a later
/// report overwrites its own files and refuses anyone else's.
pub const GENERATOR: &str = "katro report";

/// Every chart file a report may write under `plots/`, besides one
/// `sweep-KEY.svg` per swept setting ([`is_chart_file`]).
pub const CHART_FILES: [&str; 5] = [
    "win-rate.svg",
    "lengths.svg",
    "comparison.svg",
    "ratings.svg",
    "skill-trace.svg",
];

/// Whether `name` (a file under `plots/`) is one a report writes.
pub fn is_chart_file(name: &str) -> bool {
    CHART_FILES.contains(&name)
        || metrics_chart::is_metrics_chart(name)
        || name.strip_prefix("sweep-").is_some_and(|k| {
            k.strip_suffix(".svg").is_some_and(|k| {
                !k.is_empty() && k.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
            })
        })
}

/// One chart: `plots/FILE` and the same SVG inline in the page.
pub struct Chart {
    pub file: String,
    pub title: String,
    pub svg: String,
    /// What the chart shows, the rules and agents it is about.
    pub caption: String,
    /// The numbers behind it, as an HTML table of CSV text.
    pub table: String,
}

/// The page and its charts.
pub struct Page {
    pub html: String,
    pub charts: Vec<Chart>,
}

const SUMMARY_COLUMNS: [&str; 18] = [
    "variant",
    "rules",
    "p1",
    "p2",
    "games",
    "p1_wins",
    "p2_wins",
    "decided",
    "undecided_ply_limit",
    "undecided_endless_move",
    "undecided_lap_limit",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "length_mean",
    "length_p10",
    "length_p50",
    "length_p90",
];

const COMPARISON_COLUMNS: [&str; 10] = [
    "p1",
    "p2",
    "variant",
    "baseline",
    "advantage_diff",
    "advantage_diff_low",
    "advantage_diff_high",
    "length_diff",
    "length_diff_low",
    "length_diff_high",
];

/// Colour-blind-safe (Okabe and Ito), dark enough on white. No panel
/// draws more than these eight series: a chart with more splits them
/// into panels of eight (faceting), so no two series of a panel share a
/// colour.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(117, 80, 160),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// What tells two cells apart (docs/OUTPUTS.md): every chart keys,
/// labels, colours and groups its marks by all four fields, so two
/// matchups that differ only in their random opening are never pooled.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct CellKey {
    variant: String,
    p1: String,
    p2: String,
    /// As written in the CSV; "0" when the file has no such column.
    opening_plies: String,
}

fn cell_key(t: &CsvTable, r: usize) -> CellKey {
    let op = t.text(r, "opening_plies");
    CellKey {
        variant: t.text(r, "variant").to_string(),
        p1: t.text(r, "p1").to_string(),
        p2: t.text(r, "p2").to_string(),
        opening_plies: if op.is_empty() { "0" } else { op }.to_string(),
    }
}

/// A row's matchup as the charts write it. Self-play is written once and
/// the `mcts` agent's default exploration constant is left out (it reads
/// back as the same agent), so a skill ladder's labels stay short; the
/// table under the chart gives every agent in full. A random opening is
/// always named, so cells that differ only in it read apart.
fn matchup_text(t: &CsvTable, r: usize) -> String {
    let default = format!(",exploration={}", std::f64::consts::SQRT_2);
    let short = |agent: &str| {
        let a = t.text(r, agent);
        a.strip_suffix(default.as_str()).unwrap_or(a).to_string()
    };
    let (p1, p2) = (short("p1"), short("p2"));
    let mut m = if p1 == p2 {
        format!("{p1} both sides")
    } else {
        format!("{p1} vs {p2}")
    };
    match cell_key(t, r).opening_plies.as_str() {
        "0" => {}
        "1" => m.push_str(", 1 opening ply"),
        n => m.push_str(&format!(", {n} opening plies")),
    }
    m
}

/// A row label: the variant and the matchup.
fn cell_label(t: &CsvTable, r: usize) -> String {
    format!("{}  {}", t.text(r, "variant"), matchup_text(t, r))
}

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Builds the page and the charts.
pub fn build(inputs: &Inputs) -> Result<Page, ReportError> {
    let summary = CsvTable::parse("summary.csv", inputs.summary)?;
    summary.require(&SUMMARY_COLUMNS)?;
    if summary.is_empty() {
        return Err(ReportError::NoRows {
            file: "summary.csv".into(),
        });
    }
    let comparison = match inputs.comparison {
        Some(b) => {
            let t = CsvTable::parse("comparison.csv", b)?;
            t.require(&COMPARISON_COLUMNS)?;
            Some(t)
        }
        None => None,
    };
    let lengths = match inputs.lengths {
        Some(b) => Some(read_lengths(b)?),
        None => None,
    };
    let mut charts = vec![
        win_rate_chart(&summary)?,
        length_chart(&summary, lengths.as_ref())?,
    ];
    if let Some(c) = comparison.as_ref().filter(|c| !c.is_empty()) {
        charts.push(comparison_chart(c)?);
    }
    if let Some(b) = inputs.ratings {
        let t = CsvTable::parse("ratings.csv", b)?;
        t.require(&RATINGS_COLUMNS)?;
        if !t.is_empty() {
            charts.push(ratings_chart(&t)?);
        }
    }
    if let Some(b) = inputs.skill_trace {
        let t = CsvTable::parse("skill-trace.csv", b)?;
        t.require(&SKILL_TRACE_COLUMNS)?;
        if !t.is_empty() {
            charts.push(skill_trace_chart(&t)?);
        }
    }
    charts.extend(sweep_charts(&summary)?);
    if let Some(b) = inputs.metrics {
        charts.extend(metrics_chart::metrics_charts(b)?);
    }
    let html = page(inputs.title, &summary, &charts);
    Ok(Page { html, charts })
}

// ---------------------------------------------------------------------------
// Sweeps

/// The board keys and rule settings, in the order of `Settings`: the tidy
/// columns of summary.csv (docs/OUTPUTS.md) that a sweep varies.
fn setting_columns() -> Vec<String> {
    match serde_json::to_value(crate::rules::Settings::canonical()) {
        Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// The settings a `[[sweep]]` varied: named in the sweep variants' names
/// (`base+holes=4+seeds=3`, docs/EXPERIMENTS.md) and taking two or more
/// values in their tidy column. Presets that merely differ in a setting
/// are not a sweep and get no chart.
fn swept_keys(s: &CsvTable) -> Vec<String> {
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

/// A swept key's values in plotting order: numerically when every value is
/// a number, else in the order the rows give them.
fn sweep_values(s: &CsvTable, key: &str) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    for r in 0..s.len() {
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
type SweepPoint = (usize, usize, f64, Option<(f64, f64)>);

/// A line of a sweep chart: its label and its rows of summary.csv.
type Series = (String, Vec<usize>);

/// A panel of a sweep chart: the column it plots, its title and the
/// columns of the metric's interval, if it has one.
type SweepMetric = (&'static str, String, Option<[&'static str; 2]>);

/// The x axis of a sweep panel: one segment per value of the setting.
type SweepCoord = Cartesian2d<SegmentedCoord<RangedCoordusize>, RangedCoordf64>;

/// One chart per swept setting: the first-player win rate among decided
/// games with its 95% interval, the share of games decided and the mean
/// length, against the setting's value; one line per matchup (agents and
/// random opening plies) and values of the other swept settings, at most
/// eight lines to a row of panels.
fn sweep_charts(s: &CsvTable) -> Result<Vec<Chart>, ReportError> {
    let keys = swept_keys(s);
    keys.iter().map(|key| sweep_chart(s, &keys, key)).collect()
}

fn sweep_chart(s: &CsvTable, keys: &[String], key: &str) -> Result<Chart, ReportError> {
    let others: Vec<&str> = keys
        .iter()
        .map(String::as_str)
        .filter(|k| *k != key)
        .collect();
    let series = sweep_series(s, keys, key, &others);
    let svg = SweepAxis::new(s, key).svg(&series)?;
    Ok(Chart {
        file: format!("sweep-{key}.svg"),
        title: format!("Against the swept setting `{key}`"),
        svg,
        caption: sweep_caption(key, &others),
        table: sweep_table(s, key),
    })
}

/// Whether row `r`'s variant name sets `k` (`base+k=v`, docs/EXPERIMENTS.md).
fn names_key(s: &CsvTable, r: usize, k: &str) -> bool {
    s.text(r, "variant")
        .split('+')
        .skip(1)
        .any(|p| p.split_once('=').is_some_and(|(n, _)| n == k))
}

/// The lines of `key`'s chart: the matchup, then the other swept values,
/// in row order. A row is on the chart when its name sets `key`, or sets
/// no swept key (the base): so sweeps of one setting each, side by side
/// in one experiment, each get a chart of their own rows.
fn sweep_series(s: &CsvTable, keys: &[String], key: &str, others: &[&str]) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    for r in 0..s.len() {
        if !names_key(s, r, key) && keys.iter().any(|k| names_key(s, r, k)) {
            continue;
        }
        let mut label = matchup_text(s, r);
        for o in others.iter().filter(|o| names_key(s, r, o)) {
            label.push_str(&format!(", {o}={}", s.text(r, o)));
        }
        match series.iter_mut().find(|(l, _)| *l == label) {
            Some((_, rows)) => rows.push(r),
            None => series.push((label, vec![r])),
        }
    }
    series
}

/// What every panel of `key`'s chart shares: the setting's values along
/// the x axis, their wrapped tick labels and the heights they take.
struct SweepAxis<'a> {
    s: &'a CsvTable,
    key: &'a str,
    values: Vec<String>,
    ticks: Vec<Vec<String>>,
    x_area: u32,
    plot_h: u32,
}

impl<'a> SweepAxis<'a> {
    const WIDTH: u32 = 1100;

    fn new(s: &'a CsvTable, key: &'a str) -> SweepAxis<'a> {
        let values = sweep_values(s, key);
        let panel_w = (Self::WIDTH - 20) / 3;
        // The values under each panel's axis, wrapped to their share of it.
        let slot = (panel_w - 90) / values.len().max(1) as u32;
        let ticks: Vec<Vec<String>> = values
            .iter()
            .map(|v| wrap(v, slot.saturating_sub(6), TEXT_SIZE))
            .collect();
        let tick_lines = ticks.iter().map(Vec::len).max().unwrap_or(1) as u32;
        let x_area = 14 + tick_lines * LINE + 32;
        SweepAxis {
            s,
            key,
            values,
            ticks,
            x_area,
            plot_h: 300 + x_area,
        }
    }

    /// Row `r`'s place on the x axis: the index of its value.
    fn x_of(&self, r: usize) -> usize {
        self.values
            .iter()
            .position(|v| v == self.s.text(r, self.key))
            .unwrap_or(0)
    }

    /// The chart: for each group of at most eight series, a row of three
    /// panels and the group's key under it.
    fn svg(&self, series: &[Series]) -> Result<String, ReportError> {
        let groups: Vec<&[Series]> = series.chunks(PALETTE.len()).collect();
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
    fn draw_panel(
        &self,
        root: &DrawingArea<SVGBackend, Shift>,
        panel: &DrawingArea<SVGBackend, Shift>,
        group: &[Series],
        (col, title, whiskers): SweepMetric,
    ) -> Result<(), ReportError> {
        let (points, top) = self.points(group, col, whiskers)?;
        let share = col != "length_mean";
        // Headroom above 100%, so the top tick's label keeps
        // clear of the panel's title.
        let y = if share {
            0.0..1.06
        } else {
            0.0..(top * 1.1).max(1.0)
        };
        let mut chart = ChartBuilder::on(panel)
            .caption(title, (FONT, TEXT_SIZE + 1))
            .margin(8)
            .margin_right(24)
            .x_label_area_size(self.x_area)
            .y_label_area_size(62)
            .build_cartesian_2d((0..self.values.len().saturating_sub(1)).into_segmented(), y)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(BLACK.mix(0.15))
            .x_labels(self.values.len())
            .y_labels(6)
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&|v: &f64| if share { percent(v) } else { format!("{v:.0}") })
            .label_style(style(TEXT_SIZE))
            .axis_desc_style(style(TEXT_SIZE))
            .x_desc(self.key)
            .draw()
            .map_err(drawing)?;
        for (i, lines) in self.ticks.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(SegmentValue::CenterOf(i), 0.0));
            draw_lines(root, lines, (px, py + 8), HPos::Center, true)?;
        }
        if col == "p1_win_rate" {
            chart
                .draw_series(LineSeries::new(
                    [(SegmentValue::Exact(0), 0.5), (SegmentValue::Last, 0.5)],
                    ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1),
                ))
                .map_err(drawing)?;
        }
        for i in 0..group.len() {
            draw_sweep_line(&mut chart, &points, i)?;
        }
        Ok(())
    }

    /// The marks of `col` for each series of `group`, and the highest of
    /// them and their intervals' ends (the top of a length axis).
    fn points(
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
                let w = match whiskers {
                    Some([lo, hi]) => match (s.num(r, lo)?, s.num(r, hi)?) {
                        (Some(a), Some(b)) => Some((a, b)),
                        _ => None,
                    },
                    None => None,
                };
                top = top.max(w.map_or(v, |(_, b)| b.max(v)));
                points.push((i, self.x_of(r), v, w));
            }
        }
        Ok((points, top))
    }
}

/// A group's key: each series' colour and label.
fn series_key(group: &[Series], width: u32) -> Key {
    let items: Vec<(Swatch, String)> = group
        .iter()
        .enumerate()
        .map(|(i, (l, _))| (Swatch::Line(colour(i), 2), l.clone()))
        .collect();
    layout_key(&items, width)
}

/// The three panels of group `g`; when the series take more than one
/// group, each title says which (`(2/3)`).
fn sweep_metrics(g: usize, groups: usize) -> [SweepMetric; 3] {
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
/// intervals.
fn draw_sweep_line(
    chart: &mut ChartContext<SVGBackend, SweepCoord>,
    points: &[SweepPoint],
    i: usize,
) -> Result<(), ReportError> {
    let c = colour(i);
    let mut line: Vec<(usize, f64)> = points
        .iter()
        .filter(|p| p.0 == i)
        .map(|p| (p.1, p.2))
        .collect();
    line.sort_by_key(|p| p.0);
    let at = |(x, v): (usize, f64)| (SegmentValue::CenterOf(x), v);
    chart
        .draw_series(LineSeries::new(
            line.iter().map(|&p| at(p)),
            c.stroke_width(2),
        ))
        .map_err(drawing)?;
    chart
        .draw_series(line.iter().map(|&p| Circle::new(at(p), 4, c.filled())))
        .map_err(drawing)?;
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
fn sweep_table(s: &CsvTable, key: &str) -> String {
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

fn sweep_caption(key: &str, others: &[&str]) -> String {
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

// ---------------------------------------------------------------------------
// lengths.csv

/// Games by length, per cell.
struct Histograms {
    cells: BTreeMap<CellKey, BTreeMap<u32, u64>>,
    /// A lengths.csv written before it had an `opening_plies` column: its
    /// cells are keyed with an empty `opening_plies`, and a summary cell
    /// that shares its variant and agents with another (so the two were
    /// pooled) gets no curve.
    pooled: bool,
}

impl Histograms {
    /// Summary row `r`'s histogram, if lengths.csv keeps it apart.
    fn get(&self, s: &CsvTable, r: usize) -> Option<&BTreeMap<u32, u64>> {
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

fn read_lengths(bytes: &[u8]) -> Result<Histograms, ReportError> {
    let t = CsvTable::parse("lengths.csv", bytes)?;
    t.require(&["variant", "p1", "p2", "length", "games"])?;
    let pooled = !t.has("opening_plies");
    let mut h = Histograms {
        cells: BTreeMap::new(),
        pooled,
    };
    for r in 0..t.len() {
        let int = |col: &str| {
            t.text(r, col)
                .parse::<u64>()
                .map_err(|_| ReportError::NotAWholeNumber {
                    file: "lengths.csv".into(),
                    line: r + 2,
                    column: col.to_string(),
                    text: t.text(r, col).to_string(),
                })
        };
        let len = u32::try_from(int("length")?).map_err(|_| ReportError::LengthTooLarge {
            file: "lengths.csv".into(),
            line: r + 2,
        })?;
        let mut key = cell_key(&t, r);
        if pooled {
            key.opening_plies.clear();
        } else {
            int("opening_plies")?;
        }
        *h.cells.entry(key).or_default().entry(len).or_insert(0) += int("games")?;
    }
    Ok(h)
}

// ---------------------------------------------------------------------------
// Charts

fn drawing<E: std::fmt::Debug>(e: E) -> ReportError {
    ReportError::Drawing(format!("{e:?}"))
}

const FONT: &str = "sans-serif";
/// Sizes in SVG pixels. A chart is about 1,100 wide: printed across a
/// page's text width (about 16 cm) a 17 px text is about 7 pt, the size
/// of a figure's labels in a journal.
const TITLE_SIZE: u32 = 21;
const TEXT_SIZE: u32 = 17;
/// The distance between two lines of TEXT_SIZE text.
const LINE: u32 = 21;

/// A text's width at `size` px, a little over what Chromium's sans-serif
/// (DejaVu Sans) takes: plotters' own guess (0.46 em a character) is too
/// small to size a label area by.
fn text_width(text: &str, size: u32) -> u32 {
    (text.chars().count() as f64 * size as f64 * 0.62).ceil() as u32
}

/// `text` in lines no wider than `width` px at `size`, broken after a
/// space, `+` or `,` (a sweep's variant names break between their
/// settings), after a `-` or `_` only in a part that alone is wider, and
/// inside a word only when one word alone is wider.
fn wrap(text: &str, width: u32, size: u32) -> Vec<String> {
    let max = ((width as f64 / (size as f64 * 0.62)).floor() as usize).max(4);
    let split = |text: &str, at: &[char]| {
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
    };
    // Between settings first; inside a setting's name only when it alone
    // is too wide.
    let tokens: Vec<String> = split(text, &[' ', '+', ','])
        .into_iter()
        .flat_map(|t| {
            if t.chars().count() > max {
                split(&t, &['-', '_'])
            } else {
                vec![t]
            }
        })
        .collect();
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for t in tokens {
        let t = if line.is_empty() { t.trim_start() } else { &t };
        if !line.is_empty() && line.chars().count() + t.trim_end().chars().count() > max {
            lines.push(line.trim_end().to_string());
            line.clear();
        }
        line.push_str(if line.is_empty() { t.trim_start() } else { t });
        while line.chars().count() > max {
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

fn style(size: u32) -> TextStyle<'static> {
    (FONT, size).into_font().color(&BLACK)
}

/// `lines` drawn with their block centred on `y` (or starting at `y`,
/// `top`), aligned as `h` at `x`.
fn draw_lines<DB: DrawingBackend>(
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
enum Swatch {
    Line(RGBColor, u32),
    Grey,
    Dot(RGBColor),
    Bar(RGBColor),
    Cross,
}

/// A legend: entries side by side, wrapping to new rows, each a mark and
/// its text (itself wrapped). Drawn outside the plotting area, so it
/// hides no mark.
struct Key {
    /// (x, y, swatch, lines) of each entry, from the key's top left.
    at: Vec<(i32, i32, Swatch, Vec<String>)>,
    height: u32,
}

const SWATCH: i32 = 30;

fn layout_key(items: &[(Swatch, String)], width: u32) -> Key {
    let (mut x, mut y, mut row_h) = (0i32, 0i32, 0u32);
    let mut at = Vec::new();
    for (sw, text) in items {
        let lines = wrap(text, width.saturating_sub(SWATCH as u32 + 10), TEXT_SIZE);
        let w = SWATCH
            + lines
                .iter()
                .map(|l| text_width(l, TEXT_SIZE))
                .max()
                .unwrap_or(0) as i32
            + 24;
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

fn draw_swatch<DB: DrawingBackend>(
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
        Swatch::Bar(c) => area.draw(&Rectangle::new(
            [(x + 3, y - 7), (x + 19, y + 7)],
            c.filled(),
        )),
        Swatch::Cross => area.draw(&Cross::new((x + 11, y), 6, BLACK.stroke_width(2))),
    }
    .map_err(drawing)
}

fn draw_key<DB: DrawingBackend>(
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
fn mark(t: &CsvTable, r: usize, cols: &[&str]) -> Result<Option<Vec<f64>>, ReportError> {
    let mut v = Vec::new();
    for c in cols {
        match t.num(r, c)? {
            Some(x) => v.push(x),
            None => return Ok(None),
        }
    }
    Ok(Some(v))
}

fn percent(x: &f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The rows of a dot-and-whisker chart: each label wrapped to the label
/// column, every row as tall as the tallest label.
struct Rows {
    lines: Vec<Vec<String>>,
    label_w: u32,
    row_h: u32,
}

fn rows(labels: &[String], max_w: u32) -> Rows {
    let widest = labels
        .iter()
        .map(|l| text_width(l, TEXT_SIZE))
        .max()
        .unwrap_or(0);
    let label_w = widest.clamp(40, max_w);
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
const ROW_CHART_FRAME: u32 = 20 + 40 + 58;

/// A row chart's panel: rows from the top, a shade on every other row so
/// a reader's eye keeps to a row across the page.
fn row_panel<'a, 'b>(
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
    let fmt = |v: &f64| {
        if x_percent {
            percent(v)
        } else {
            let s = format!("{v:.2}");
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    };
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
        .map_err(drawing)?;
    chart
        .draw_series((0..n).filter(|r| r % 2 == 1).map(|r| {
            let y = (n - r) as f64;
            Rectangle::new([(x.start, y - 1.0), (x.end, y)], BLACK.mix(0.04).filled())
        }))
        .map_err(drawing)?;
    Ok(chart)
}

/// Row `r`'s centre in a row panel's coordinates (row 0 on top).
fn row_y(n: usize, r: usize) -> f64 {
    (n - r) as f64 - 0.5
}

/// The wrapped labels left of a row panel, right-aligned to its axis.
fn draw_row_labels(
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

/// Dots at `marks` (row, estimate, low, high) with their intervals, and a
/// grey reference line at `at`.
fn draw_intervals(
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

/// Player 1's win rate with its interval, and beside it how the games
/// ended; one row per cell.
fn win_rate_chart(s: &CsvTable) -> Result<Chart, ReportError> {
    let n = s.len();
    let labels: Vec<String> = (0..n).map(|r| cell_label(s, r)).collect();
    let rs = rows(&labels, 440);
    let left_w = rs.label_w + 30 + 430;
    let width = left_w + 380;
    let k = layout_key(&win_rate_key(), width - 40);
    let plots_h = ROW_CHART_FRAME + n as u32 * rs.row_h;
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (width, plots_h + k.height + 20)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (top, bottom) = root.split_vertically(plots_h);
        let (left, right) = top.split_horizontally(left_w);
        draw_win_rates(&root, &left, s, &rs)?;
        draw_endings(&right, s)?;
        draw_key(&bottom, &k, (20, 5))?;
        root.present().map_err(drawing)?;
    }
    Ok(Chart {
        file: "win-rate.svg".into(),
        title: "First-player win rate among decided games".into(),
        svg,
        caption: WIN_RATE_CAPTION.into(),
        table: numbers_table(s, "summary.csv", &WIN_RATE_TABLE),
    })
}

/// The win-rate chart's key: the marks of the left panel, then the
/// endings' colours.
fn win_rate_key() -> Vec<(Swatch, String)> {
    [
        (Swatch::Grey, "50%: no advantage".to_string()),
        (Swatch::Line(colour(0), 2), "95% Wilson interval".into()),
        (Swatch::Dot(colour(0)), "win rate (p1_win_rate)".into()),
    ]
    .into_iter()
    .chain(
        ENDINGS
            .iter()
            .enumerate()
            .map(|(k, (_, name))| (Swatch::Bar(ending_colour(k)), format!("games: {name}"))),
    )
    .collect()
}

/// The left panel: each cell's win rate with its interval, the row
/// labels left of it (on `root`).
fn draw_win_rates(
    root: &DrawingArea<SVGBackend, Shift>,
    area: &DrawingArea<SVGBackend, Shift>,
    s: &CsvTable,
    rs: &Rows,
) -> Result<(), ReportError> {
    let n = s.len();
    let mut marks = Vec::new();
    for r in 0..n {
        let cols = ["p1_win_rate", "p1_win_rate_low", "p1_win_rate_high"];
        if let Some(v) = mark(s, r, &cols)? {
            marks.push((r, v[0], v[1], v[2]));
        }
    }
    let mut chart = row_panel(
        area,
        "Player 1's win rate among decided games",
        n,
        rs.label_w + 20,
        0.0..1.0,
        "player 1's wins / decided games",
        true,
    )?;
    draw_intervals(&mut chart, n, 0.5, &marks, colour(0))?;
    draw_row_labels(root, &chart, rs, 0.0)
}

/// The columns of summary.csv under the win-rate chart.
const WIN_RATE_TABLE: [&str; 12] = [
    "variant",
    "p1",
    "p2",
    "opening_plies",
    "games",
    "decided",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "undecided_ply_limit",
    "undecided_endless_move",
    "undecided_lap_limit",
];

const WIN_RATE_CAPTION: &str = "Left: player 1's share of the decided games (p1_win_rate) \
    with its 95% Wilson interval (p1_win_rate_low to p1_win_rate_high), one row per cell: \
    variant, matchup (player 1's agent vs player 2's) and random opening plies; the grey \
    vertical line is 50%, no advantage. A row without a dot had no decided game. Right: the \
    share of all games that were decided, stopped at the ply limit, ended by an endless move \
    (undecided) or stopped at the lap limit.";

const ENDINGS: [(&str, &str); 4] = [
    ("decided", "decided"),
    ("undecided_ply_limit", "ply limit"),
    ("undecided_endless_move", "endless move"),
    ("undecided_lap_limit", "lap limit"),
];

/// Decided games grey, the three kinds of undecided game in colour.
fn ending_colour(k: usize) -> RGBColor {
    match k {
        0 => RGBColor(170, 170, 170),
        1 => colour(1),
        2 => colour(4),
        _ => colour(7),
    }
}

fn draw_endings(area: &DrawingArea<SVGBackend, Shift>, s: &CsvTable) -> Result<(), ReportError> {
    let n = s.len();
    let mut chart = row_panel(
        area,
        "How the games ended",
        n,
        10,
        0.0..1.0,
        "share of all games",
        true,
    )?;
    // Each row's bars start where the previous kind ended.
    let mut start = vec![0f64; n];
    for (k, (col, _)) in ENDINGS.iter().enumerate() {
        let mut bars = Vec::new();
        for (r, st) in start.iter_mut().enumerate() {
            let games = s.num(r, "games")?.unwrap_or(0.0);
            let count = s.num(r, col)?.unwrap_or(0.0);
            if games > 0.0 && count > 0.0 {
                let share = count / games;
                bars.push((r, *st, *st + share));
                *st += share;
            }
        }
        let c = ending_colour(k);
        chart
            .draw_series(bars.iter().map(|&(r, a, b)| {
                let y = row_y(n, r);
                Rectangle::new([(a, y - 0.3), (b, y + 0.3)], c.filled())
            }))
            .map_err(drawing)?;
    }
    Ok(())
}

/// Games at or past `limit` plies (the ply limit) and the largest length
/// the axis must show: the 99th percentile of the other games.
fn body_and_spike(cell: &BTreeMap<u32, u64>, limit: Option<f64>) -> (f64, u64, u64) {
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
/// panels of at most one colour per variant.
fn length_panels(s: &CsvTable) -> Vec<(String, Vec<usize>)> {
    // Matchups in order of first appearance, each with its rows.
    let mut matchups: Vec<((String, String, String), Vec<usize>)> = Vec::new();
    for r in 0..s.len() {
        let k = cell_key(s, r);
        let m = (k.p1, k.p2, k.opening_plies);
        match matchups.iter_mut().find(|(x, _)| *x == m) {
            Some((_, rows)) => rows.push(r),
            None => matchups.push((m, vec![r])),
        }
    }
    let mut panels: Vec<(String, Vec<usize>)> = Vec::new();
    for (_, rows) in &matchups {
        let chunks: Vec<&[usize]> = rows.chunks(PALETTE.len()).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let mut title = format!("Game length, {}", matchup_text(s, chunk[0]));
            if chunks.len() > 1 {
                let first = i * PALETTE.len() + 1;
                title.push_str(&format!(
                    " (variants {first} to {} of {})",
                    first + chunk.len() - 1,
                    rows.len()
                ));
            }
            panels.push((title, chunk.to_vec()));
        }
    }
    panels
}

/// Length distributions: one panel per matchup (agents and random
/// opening), at most eight variants overlaid in a panel, each in its own
/// colour.
fn length_chart(s: &CsvTable, hist: Option<&Histograms>) -> Result<Chart, ReportError> {
    let width = 1100u32;
    let legend_w = 360u32;
    let mut layouts = Vec::new();
    for (title, rows) in length_panels(s) {
        let mut l = lengths_panel(s, &rows, hist, legend_w)?;
        l.height +=
            (title_lines(&title, width - legend_w).len() as u32).saturating_sub(1) * TITLE_SIZE;
        layouts.push((title, rows, l));
    }
    let marks = [
        (
            Swatch::Line(BLACK, 3),
            "below the axis: length_p10 to length_p90".to_string(),
        ),
        (Swatch::Dot(BLACK), "median (length_p50)".into()),
        (Swatch::Cross, "mean (length_mean)".into()),
    ];
    let k = layout_key(&marks, width - 40);
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
    })
}

/// The columns of summary.csv under the length chart.
const LENGTH_TABLE: [&str; 12] = [
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
fn length_caption(curves: bool) -> String {
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
struct LengthPanel {
    xmax: f64,
    bin: u32,
    /// Per row of the panel: its curve (empty without a histogram).
    curves: Vec<Vec<(f64, f64)>>,
    ymax: f64,
    /// Per row: the legend's lines.
    legend: Vec<Vec<String>>,
    height: u32,
    drawn: bool,
}

fn lengths_panel(
    s: &CsvTable,
    rows: &[usize],
    hist: Option<&Histograms>,
    legend_w: u32,
) -> Result<LengthPanel, ReportError> {
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
    let xmax = (xmax * 1.04).ceil().max(2.0);
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

/// A cell's games stopped at the ply limit, of `total`.
struct LimitNote {
    limit: Option<f64>,
    spike: u64,
    total: u64,
}

/// (body, spike, total) from summary.csv alone, where lengths.csv has no
/// histogram of row `r`: the body is the 90th percentile unless that game
/// too was stopped at the limit.
fn summary_body(
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
fn binned_curve(cell: &BTreeMap<u32, u64>, xmax: f64, bin: u32) -> Vec<(f64, f64)> {
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
fn length_legend(
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
        lines.push(format!("{pct:.1}% at ply limit{limit}"));
    }
    if let Some(m) = s.num(r, "length_mean")?
        && m > xmax
    {
        lines.push(format!("mean {m:.0}: off the axis"));
    }
    Ok(lines)
}

/// A length panel's title as the lines it is drawn in: one when it fits
/// the plot's width, else wrapped.
fn title_lines(title: &str, plot_w: u32) -> Vec<String> {
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

fn draw_lengths(
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
        builder.caption(title, (FONT, TITLE_SIZE));
    }
    let mut chart = builder
        .margin(10)
        .margin_right(30)
        .x_label_area_size(58)
        .y_label_area_size(if p.drawn { 100 } else { 20 })
        .build_cartesian_2d(0f64..p.xmax, ymin..ymax)
        .map_err(drawing)?;
    draw_length_mesh(&mut chart, p)?;
    for (i, pts) in p.curves.iter().enumerate() {
        chart
            .draw_series(LineSeries::new(
                pts.iter().copied(),
                colour(i).stroke_width(2),
            ))
            .map_err(drawing)?;
    }
    draw_quantile_strip(&mut chart, s, rows, step, p.xmax)?;
    draw_length_legend(&side, &p.legend)
}

/// A wrapped panel title, centred at the top of `plot`.
fn draw_title_lines(
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
fn draw_length_mesh(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    p: &LengthPanel,
) -> Result<(), ReportError> {
    let drawn = p.drawn;
    let xdesc = if drawn {
        format!(
            "game length (plies; bins of {} {})",
            p.bin,
            if p.bin == 1 { "ply" } else { "plies" }
        )
    } else {
        "game length (plies)".to_string()
    };
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.15))
        .x_labels(8)
        .y_labels(6)
        .label_style(style(TEXT_SIZE))
        .axis_desc_style(style(TEXT_SIZE))
        .x_desc(xdesc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc(if drawn { "% of games per ply" } else { "" })
        .y_label_formatter(&|y| {
            if *y < 0.0 || !drawn {
                String::new()
            } else {
                format!("{:.1}%", y * 100.0)
            }
        })
        .draw()
        .map_err(drawing)
}

/// Below the axis, one line per row from `length_p10` to `length_p90`, a
/// dot at the median and a cross at the mean, `step` apart.
fn draw_quantile_strip(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    s: &CsvTable,
    rows: &[usize],
    step: f64,
    xmax: f64,
) -> Result<(), ReportError> {
    // The strip below the axis; a mark past the axis is not drawn (the
    // legend says so for the mean).
    let clamp = |x: f64| x.min(xmax);
    for (i, &r) in rows.iter().enumerate() {
        let c = colour(i);
        let y = -step * (i as f64 + 1.0);
        if let Some(v) = mark(s, r, &["length_p10", "length_p90"])?
            && v[0] < xmax
        {
            chart
                .draw_series(LineSeries::new(
                    [(v[0], y), (clamp(v[1]), y)],
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
    }
    Ok(())
}

/// The length chart's legend beside the plot: each row's lines.
fn draw_length_legend(
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

/// comparison.csv: each variant against the baseline, with intervals.
fn comparison_chart(c: &CsvTable) -> Result<Chart, ReportError> {
    let n = c.len();
    let rs = rows(&comparison_labels(c), 420);
    let left_w = rs.label_w + 30 + 380;
    let width = left_w + 400;
    let items = [
        (Swatch::Grey, "0: no difference".to_string()),
        (Swatch::Line(colour(1), 2), "95% interval".into()),
        (Swatch::Dot(colour(1)), "difference".into()),
    ];
    let k = layout_key(&items, width - 40);
    let plots_h = ROW_CHART_FRAME + n as u32 * rs.row_h;
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (width, plots_h + k.height + 20)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (top, bottom) = root.split_vertically(plots_h);
        let (left, right) = top.split_horizontally(left_w);
        for (area, panel) in [&left, &right].into_iter().zip(&DIFFERENCE_PANELS) {
            draw_difference(&root, area, c, &rs, panel)?;
        }
        draw_key(&bottom, &k, (20, 5))?;
        root.present().map_err(drawing)?;
    }
    Ok(Chart {
        file: "comparison.svg".into(),
        title: "Differences from the baseline variant".into(),
        svg,
        caption: COMPARISON_CAPTION.into(),
        table: numbers_table(c, "comparison.csv", &COMPARISON_TABLE),
    })
}

/// A comparison row's label: the two variants and the matchup.
fn comparison_labels(c: &CsvTable) -> Vec<String> {
    (0..c.len())
        .map(|r| {
            format!(
                "{} − {}  {}",
                c.text(r, "variant"),
                c.text(r, "baseline"),
                matchup_text(c, r)
            )
        })
        .collect()
}

/// A panel of the comparison chart: the column of the difference (its
/// interval in `COL_low`, `COL_high`), the title, the x axis's
/// description, and whether the row labels are drawn left of it.
struct DifferencePanel {
    col: &'static str,
    title: &'static str,
    x_desc: &'static str,
    labels: bool,
}

const DIFFERENCE_PANELS: [DifferencePanel; 2] = [
    DifferencePanel {
        col: "advantage_diff",
        title: "Difference in advantage_p1",
        x_desc: "advantage_p1 minus the baseline's (score)",
        labels: true,
    },
    DifferencePanel {
        col: "length_diff",
        title: "Difference in mean length",
        x_desc: "length_mean minus the baseline's (plies)",
        labels: false,
    },
];

/// One difference's dots and intervals, the x axis reaching over every
/// interval and 0.
fn draw_difference(
    root: &DrawingArea<SVGBackend, Shift>,
    area: &DrawingArea<SVGBackend, Shift>,
    c: &CsvTable,
    rs: &Rows,
    p: &DifferencePanel,
) -> Result<(), ReportError> {
    let n = c.len();
    let (low, high) = (format!("{}_low", p.col), format!("{}_high", p.col));
    let mut marks = Vec::new();
    let (mut lo_all, mut hi_all) = (0f64, 0f64);
    for r in 0..n {
        if let Some(v) = mark(c, r, &[p.col, &low, &high])? {
            lo_all = lo_all.min(v[1]);
            hi_all = hi_all.max(v[2]);
            marks.push((r, v[0], v[1], v[2]));
        }
    }
    let pad = ((hi_all - lo_all) * 0.08).max(1e-3);
    let x = lo_all - pad..hi_all + pad;
    let label_area = if p.labels { rs.label_w + 20 } else { 10 };
    let mut chart = row_panel(area, p.title, n, label_area, x.clone(), p.x_desc, false)?;
    draw_intervals(&mut chart, n, 0.0, &marks, colour(1))?;
    if p.labels {
        draw_row_labels(root, &chart, rs, x.start)?;
    }
    Ok(())
}

/// The columns of comparison.csv under its chart.
const COMPARISON_TABLE: [&str; 13] = [
    "variant",
    "baseline",
    "p1",
    "p2",
    "opening_plies",
    "advantage_diff",
    "advantage_diff_low",
    "advantage_diff_high",
    "advantage_p_value",
    "length_diff",
    "length_diff_low",
    "length_diff_high",
    "length_p_value",
];

const COMPARISON_CAPTION: &str = "Each variant minus its baseline (the row's `baseline`: the \
    experiment's `baseline` variant, by default its first, or with `compare = \"all-pairs\"` \
    the earlier variant of each pair), cell by cell (matchup and random opening plies), with \
    the 95% interval of the difference (normal approximation with Welch's standard error, \
    docs/OUTPUTS.md). The p-values beside the raw ones in comparison.csv are Holm-adjusted. \
    The grey vertical line is no difference.";

// ---------------------------------------------------------------------------
// Tournaments

const RATINGS_COLUMNS: [&str; 11] = [
    "variant",
    "opening_plies",
    "level",
    "agent",
    "rating",
    "rating_low",
    "rating_high",
    "games",
    "first_move_advantage",
    "first_move_advantage_low",
    "first_move_advantage_high",
];

const SKILL_TRACE_COLUMNS: [&str; 9] = [
    "variant",
    "opening_plies",
    "level",
    "agent",
    "opponent",
    "games",
    "win_rate",
    "win_rate_low",
    "win_rate_high",
];

/// A one-panel dot-and-whisker chart: one row per row of `t`, labelled
/// `labels`, the estimate `col` with its `col_low`..`col_high` interval
/// and a grey line at `at`. Rows without a number are labelled and left
/// empty.
struct RowChart<'a> {
    labels: Vec<String>,
    col: &'a str,
    x_desc: &'a str,
    title: &'a str,
    at: f64,
    x_percent: bool,
    /// Force the axis to take in this range (0–1 for shares).
    x_min: Option<std::ops::Range<f64>>,
    key: [&'a str; 3],
}

fn row_chart_svg(t: &CsvTable, c: &RowChart) -> Result<String, ReportError> {
    let n = t.len();
    let rs = rows(&c.labels, 520);
    let width = rs.label_w + 30 + 560;
    let (low, high) = (format!("{}_low", c.col), format!("{}_high", c.col));
    let mut marks = Vec::new();
    let (mut lo_all, mut hi_all) = (c.at, c.at);
    for r in 0..n {
        if let Some(v) = mark(t, r, &[c.col, &low, &high])? {
            lo_all = lo_all.min(v[1]);
            hi_all = hi_all.max(v[2]);
            marks.push((r, v[0], v[1], v[2]));
        }
    }
    let x = match &c.x_min {
        Some(x) => x.start.min(lo_all)..x.end.max(hi_all),
        None => {
            let pad = ((hi_all - lo_all) * 0.08).max(1.0);
            lo_all - pad..hi_all + pad
        }
    };
    let items = [
        (Swatch::Grey, c.key[0].to_string()),
        (Swatch::Line(colour(0), 2), c.key[1].to_string()),
        (Swatch::Dot(colour(0)), c.key[2].to_string()),
    ];
    let k = layout_key(&items, width - 40);
    let plots_h = ROW_CHART_FRAME + n as u32 * rs.row_h;
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (width, plots_h + k.height + 20)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (top, bottom) = root.split_vertically(plots_h);
        let mut chart = row_panel(
            &top,
            c.title,
            n,
            rs.label_w + 20,
            x.clone(),
            c.x_desc,
            c.x_percent,
        )?;
        draw_intervals(&mut chart, n, c.at, &marks, colour(0))?;
        draw_row_labels(&root, &chart, &rs, x.start)?;
        draw_key(&bottom, &k, (20, 5))?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// The tournament's ratings, variant by variant, each agent with its 95%
/// interval.
fn ratings_chart(t: &CsvTable) -> Result<Chart, ReportError> {
    let labels: Vec<String> = (0..t.len())
        .map(|r| {
            format!(
                "{}  {}. {}",
                t.text(r, "variant"),
                t.text(r, "level"),
                t.text(r, "agent")
            )
        })
        .collect();
    let svg = row_chart_svg(
        t,
        &RowChart {
            labels,
            col: "rating",
            x_desc: "rating (Elo; the anchor, usually random, at 0)",
            title: "Ratings from the tournament",
            at: 0.0,
            x_percent: false,
            x_min: None,
            key: ["0: the anchor", "95% interval", "rating"],
        },
    )?;
    let cols = [
        "variant",
        "level",
        "agent",
        "rating",
        "rating_low",
        "rating_high",
        "games",
        "first_move_advantage",
        "first_move_advantage_low",
        "first_move_advantage_high",
    ];
    Ok(Chart {
        file: "ratings.svg".into(),
        title: "Ratings".into(),
        svg,
        caption: "Each agent's Elo rating on each variant, fitted to every game of the \
                  tournament (every pair of agents, both seats, each game opened with random \
                  plies) by a BayesElo model with a first-move advantage and a draw term for \
                  undecided games; 95% intervals from the fit's observed information \
                  (docs/OUTPUTS.md, ratings.csv). The anchor is rated 0 exactly, so its \
                  interval is a point and the others' are relative to it. The first-move \
                  advantage, in Elo, is in the table."
            .into(),
        table: numbers_table(t, "ratings.csv", &cols),
    })
}

/// Each agent's win rate against the agent listed before it.
fn skill_trace_chart(t: &CsvTable) -> Result<Chart, ReportError> {
    let labels: Vec<String> = (0..t.len())
        .map(|r| {
            format!(
                "{}  {}. {} vs {}",
                t.text(r, "variant"),
                t.text(r, "level"),
                t.text(r, "agent"),
                t.text(r, "opponent")
            )
        })
        .collect();
    let svg = row_chart_svg(
        t,
        &RowChart {
            labels,
            col: "win_rate",
            x_desc: "win rate against the level below (both seats)",
            title: "Skill trace",
            at: 0.5,
            x_percent: true,
            x_min: Some(0.0..1.0),
            key: ["50%", "95% interval", "win rate"],
        },
    )?;
    let cols = [
        "variant",
        "level",
        "agent",
        "opponent",
        "games",
        "win_rate",
        "win_rate_low",
        "win_rate_high",
    ];
    Ok(Chart {
        file: "skill-trace.svg".into(),
        title: "Skill trace".into(),
        svg,
        caption: "Each level of the tournament's list against the level just below it: the \
                  share of their games (half in each seat, every game opened with random \
                  plies) the higher level won, with its 95% Wilson interval; undecided games \
                  count as not won (docs/OUTPUTS.md, skill-trace.csv). Ludii's SkillTrace \
                  asks the same question of UCT at doubling budgets."
            .into(),
        table: numbers_table(t, "skill-trace.csv", &cols),
    })
}

// ---------------------------------------------------------------------------
// The page

/// The columns `cols` of every row of `t`, as an HTML table of CSV text.
fn numbers_table(t: &CsvTable, file: &str, cols: &[&str]) -> String {
    let mut s = String::from("<table>\n<tr>");
    for c in cols {
        s.push_str(&format!("<th>{}</th>", escape(c)));
    }
    s.push_str("</tr>\n");
    for r in 0..t.len() {
        s.push_str(&table_row(t, file, r, cols));
    }
    s.push_str("</table>\n");
    s
}

/// A row of CSV text, each cell tagged with its file, row and column so a
/// test (and a reader's script) can find the number it came from.
fn table_row(t: &CsvTable, file: &str, r: usize, cols: &[&str]) -> String {
    let mut s = String::from("<tr>");
    for c in cols {
        s.push_str(&format!(
            "<td data-file=\"{file}\" data-row=\"{r}\" data-col=\"{c}\">{}</td>",
            escape(t.text(r, c))
        ));
    }
    s.push_str("</tr>\n");
    s
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1140px;margin:1em auto;padding:0 1em;color:#111}\
figure{margin:1.5em 0}figure svg{max-width:100%;height:auto;border:1px solid #ddd}\
figcaption{font-size:0.9em;margin:0.4em 0}table{border-collapse:collapse;font-size:0.8em;margin:0.5em 0}\
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#f3f3f3}\
code{font-size:0.85em;word-break:break-all}details{margin:0.3em 0}";

fn page(title: &str, s: &CsvTable, charts: &[Chart]) -> String {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!(
        "<meta name=\"generator\" content=\"{GENERATOR}\">\n"
    ));
    h.push_str(&format!(
        "<title>katro report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(title)
    ));
    h.push_str(&format!("<h1>katro report: {}</h1>\n", escape(title)));
    h.push_str(
        "<p>Made by <code>katro report</code> from this folder's CSV files; every number in \
         the tables is the CSV's text. docs/OUTPUTS.md defines each column.</p>\n",
    );
    // The exact rules and agents every chart is about.
    h.push_str("<h2>Rules and agents</h2>\n<ul>\n");
    let mut seen: Vec<&str> = Vec::new();
    for r in 0..s.len() {
        let v = s.text(r, "variant");
        if seen.contains(&v) {
            continue;
        }
        seen.push(v);
        let matchups: Vec<String> = (0..s.len())
            .filter(|&q| s.text(q, "variant") == v)
            .map(|q| {
                let op = cell_key(s, q).opening_plies;
                let open = if op == "0" {
                    String::new()
                } else {
                    format!(" ({op} opening plies)")
                };
                format!("{} vs {}{open}", s.text(q, "p1"), s.text(q, "p2"))
            })
            .collect();
        h.push_str(&format!(
            "<li><b>{}</b>: <code>{}</code><br>matchups (player 1 vs player 2): {}</li>\n",
            escape(v),
            escape(s.text(r, "rules")),
            escape(&matchups.join("; "))
        ));
    }
    h.push_str("</ul>\n");
    for c in charts {
        h.push_str(&format!(
            "<figure id=\"{}\">\n<h2>{}</h2>\n{}\n<figcaption>{} Rules and agents: as listed \
             above. Also in <code>plots/{}</code>.</figcaption>\n<details><summary>The \
             numbers</summary>\n{}</details>\n</figure>\n",
            escape(c.file.trim_end_matches(".svg")),
            escape(&c.title),
            c.svg,
            escape(&c.caption),
            escape(&c.file),
            c.table
        ));
    }
    h.push_str("</body>\n</html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMMARY: &str = "variant,rules,p1,p2,games,p1_wins,p2_wins,undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,p1_win_rate,p1_win_rate_low,p1_win_rate_high,length_mean,length_min,length_p10,length_p50,length_p90,length_max,extra_new_column\n\
a,\"katro(rows=4)\",random,random,10,6,4,0,0,0,10,0.600000,0.312680,0.831820,12.500000,3,5,12,20,31,x\n\
b,\"katro(rows=6)\",random,random,10,0,0,10,0,0,0,,,,99.000000,99,99,99,99,99,\n";

    #[test]
    fn reads_columns_by_name_and_tolerates_extra_and_empty_fields() {
        let r = build(&Inputs {
            summary: SUMMARY.as_bytes(),
            comparison: None,
            lengths: Some(
                b"variant,p1,p2,length,games\na,random,random,3,4\na,random,random,31,6\n",
            ),
            ratings: None,
            skill_trace: None,
            metrics: None,
            title: "t",
        })
        .unwrap();
        assert_eq!(r.charts.len(), 2);
        assert!(r.html.contains(
            "<td data-file=\"summary.csv\" data-row=\"0\" data-col=\"p1_win_rate\">0.600000</td>"
        ));
        // No decided game: the field stays empty, no number is invented.
        assert!(r.html.contains(
            "<td data-file=\"summary.csv\" data-row=\"1\" data-col=\"p1_win_rate\"></td>"
        ));
        assert!(r.html.contains("katro(rows=6)"));
        assert!(r.charts.iter().all(|c| c.svg.starts_with("<svg")));
    }

    #[test]
    fn row_labels_write_self_play_once_and_drop_the_default_exploration() {
        let mcts = "mcts:iterations=30,exploration=1.4142135623730951";
        let other = "mcts:iterations=30,exploration=1.41421356237309515";
        let csv = format!(
            "variant,p1,p2\na,\"{mcts}\",\"{mcts}\"\na,\"{other}\",greedy\nb,greedy,random\n"
        );
        let t = CsvTable::parse("summary.csv", csv.as_bytes()).unwrap();
        assert_eq!(cell_label(&t, 0), "a  mcts:iterations=30 both sides");
        // Another constant, even one whose digits begin like the default's,
        // is kept.
        assert_eq!(
            cell_label(&t, 1),
            "a  mcts:iterations=30,exploration=1.41421356237309515 vs greedy"
        );
        assert_eq!(cell_label(&t, 2), "b  greedy vs random");
    }

    #[test]
    fn a_swept_setting_gets_a_chart_against_its_values() {
        // Tidy columns: holes swept 3, 8, 4 (drawn in numeric order), seeds
        // swept too, start the same in every row (not swept).
        let mut text = String::from(
            "variant,rules,p1,p2,opening_plies,rows,holes,seeds,start,games,p1_wins,p2_wins,\
             undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,p1_win_rate,\
             p1_win_rate_low,p1_win_rate_high,completion,length_mean,length_min,length_p10,\
             length_p50,length_p90,length_max\n",
        );
        for (holes, seeds) in [(3, 1), (8, 1), (4, 1), (3, 2), (8, 2), (4, 2)] {
            for p2 in ["random", "greedy"] {
                text.push_str(&format!(
                    "katro-4x4+holes={holes}+seeds={seeds},\"katro(holes={holes})\",random,{p2},0,4,{holes},{seeds},\
                     outermost-non-empty,10,5,5,0,0,0,10,0.500000,0.237,0.763,1.000000,\
                     {holes}.500000,1,2,3,4,5\n"
                ));
            }
        }
        let r = build(&Inputs {
            summary: text.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            metrics: None,
            title: "t",
        })
        .unwrap();
        let files: Vec<&str> = r.charts.iter().map(|c| c.file.as_str()).collect();
        assert_eq!(
            files,
            [
                "win-rate.svg",
                "lengths.svg",
                "sweep-holes.svg",
                "sweep-seeds.svg"
            ]
        );
        let holes = &r.charts[2];
        // The SVG's texts, in drawing order.
        let texts: Vec<&str> = holes
            .svg
            .split("</text>")
            .filter_map(|t| t.rsplit_once('>').map(|(_, x)| x.trim()))
            .collect();
        // Values in numeric order on the axis, a line per matchup and seeds.
        let at = |v: &str| texts.iter().position(|t| *t == v).unwrap();
        assert!(
            at("3") < at("4") && at("4") < at("8"),
            "axis order: {texts:?}"
        );
        assert!(texts.contains(&"random vs greedy, seeds=2"), "{texts:?}");
        assert!(holes.caption.contains("other swept setting(s) (seeds)"));
        assert!(holes.table.contains("data-col=\"holes\">8</td>"));
        assert!(is_chart_file("sweep-holes.svg") && !is_chart_file("sweep-../x.svg"));
        // Variants that differ in a setting without being a sweep's: no chart.
        let plain = text
            .replace("katro-4x4+holes=", "v")
            .replace("+seeds=", "s");
        let r = build(&Inputs {
            summary: plain.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            metrics: None,
            title: "t",
        })
        .unwrap();
        assert!(r.charts.iter().all(|c| !c.file.starts_with("sweep-")));
        // Nothing swept: no sweep chart.
        let r = build(&Inputs {
            summary: SUMMARY.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            metrics: None,
            title: "t",
        })
        .unwrap();
        assert!(r.charts.iter().all(|c| !c.file.starts_with("sweep-")));
    }

    /// The texts of an SVG, in drawing order.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("</text>")
            .filter_map(|t| t.rsplit_once('>').map(|(_, x)| x.trim()))
            .collect()
    }

    #[test]
    fn cells_that_differ_only_in_their_opening_plies_stay_apart() {
        let head = "variant,rules,p1,p2,opening_plies,games,p1_wins,p2_wins,\
                    undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,\
                    p1_win_rate,p1_win_rate_low,p1_win_rate_high,length_mean,length_min,\
                    length_p10,length_p50,length_p90,length_max,ply_limit\n";
        let summary = format!(
            "{head}a,\"katro()\",greedy,greedy,0,10,8,2,0,0,0,10,0.8,0.5,0.9,12,12,12,12,12,12,50\n\
             a,\"katro()\",greedy,greedy,4,10,5,5,0,0,0,10,0.5,0.2,0.8,30,30,30,30,30,30,50\n"
        );
        let lengths = "variant,p1,p2,opening_plies,length,games\n\
                       a,greedy,greedy,0,12,10\na,greedy,greedy,4,30,10\n";
        let r = build(&Inputs {
            summary: summary.as_bytes(),
            comparison: None,
            lengths: Some(lengths.as_bytes()),
            ratings: None,
            skill_trace: None,
            metrics: None,
            title: "t",
        })
        .unwrap();
        // Two rows of the win-rate chart, two labels.
        let win = texts(&r.charts[0].svg);
        assert!(win.contains(&"a  greedy both sides"), "{win:?}");
        assert!(
            win.contains(&"a  greedy both sides, 4 opening plies"),
            "{win:?}"
        );
        // Two panels of the length chart, each with its own cell's curve.
        let len = texts(&r.charts[1].svg);
        assert!(len.contains(&"Game length, greedy both sides"), "{len:?}");
        assert!(
            len.contains(&"Game length, greedy both sides, 4 opening plies"),
            "{len:?}"
        );
        let s = CsvTable::parse("summary.csv", summary.as_bytes()).unwrap();
        let h = read_lengths(lengths.as_bytes()).unwrap();
        assert_eq!(h.get(&s, 0).unwrap().keys().collect::<Vec<_>>(), [&12]);
        assert_eq!(h.get(&s, 1).unwrap().keys().collect::<Vec<_>>(), [&30]);
        // A lengths.csv without the column pooled the two: no curve is
        // drawn from the pool.
        let old = "variant,p1,p2,length,games\na,greedy,greedy,12,10\na,greedy,greedy,30,10\n";
        let h = read_lengths(old.as_bytes()).unwrap();
        assert!(h.get(&s, 0).is_none() && h.get(&s, 1).is_none());
        // A sweep: the two matchups are two lines, in two colours.
        let sweep = summary
            .replace("opening_plies,", "opening_plies,holes,")
            .replacen("a,", "k+holes=3,", 1)
            .replacen("a,", "k+holes=4,", 1)
            .replace(",greedy,0,", ",greedy,0,3,")
            .replace(",greedy,4,", ",greedy,4,4,");
        let r = build(&Inputs {
            summary: sweep.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            metrics: None,
            title: "t",
        })
        .unwrap();
        let chart = r
            .charts
            .iter()
            .find(|c| c.file == "sweep-holes.svg")
            .unwrap();
        let t = texts(&chart.svg);
        assert!(t.contains(&"greedy both sides"), "{t:?}");
        assert!(t.contains(&"greedy both sides, 4 opening plies"), "{t:?}");
        let rgb = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        assert!(chart.svg.contains(&rgb(colour(0))) && chart.svg.contains(&rgb(colour(1))));
    }

    #[test]
    fn long_labels_wrap_between_settings_and_fit_their_width() {
        let name = "katro-6x6+min_victim_seeds_after_empty=2+empty_landing_refusal=all-ones";
        let lines = wrap(name, 400, TEXT_SIZE);
        assert!(lines.len() > 1, "{lines:?}");
        assert_eq!(lines.concat(), name);
        assert_eq!(lines[1], "min_victim_seeds_after_empty=2+");
        assert!(
            lines.iter().all(|l| text_width(l, TEXT_SIZE) <= 400),
            "{lines:?}"
        );
        assert_eq!(wrap("short", 300, TEXT_SIZE), ["short"]);
    }

    #[test]
    fn a_missing_column_is_named() {
        let e = build(&Inputs {
            summary: b"variant,p1\na,random\n",
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            metrics: None,
            title: "t",
        })
        .err()
        .unwrap();
        assert!(matches!(e, ReportError::MissingColumns { .. }), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("summary.csv: missing column(s) rules"), "{e}");
    }

    #[test]
    fn a_bad_number_is_named_with_its_line() {
        let bad = SUMMARY.replace("0.600000", "six");
        let e = build(&Inputs {
            summary: bad.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            metrics: None,
            title: "t",
        })
        .err()
        .unwrap();
        assert!(matches!(e, ReportError::NotANumber { .. }), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("line 2, column p1_win_rate: `six`"), "{e}");
    }
}
