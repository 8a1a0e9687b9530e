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
//! [`Chart`]: a file name under `plots/`, a title and the SVG; a chart
//! against a swept setting (docs/EXPERIMENTS.md, once sweeps exist) is one
//! more entry in [`build`]'s list.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::prelude::*;

/// A CSV file read by column name.
pub struct Table {
    name: String,
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// Parses `bytes`; `name` is the file name used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<Table, String> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .from_reader(bytes);
        let headers = r
            .headers()
            .map_err(|e| format!("{name}: cannot read the header row: {e}"))?
            .iter()
            .map(str::to_string)
            .collect();
        let mut rows = Vec::new();
        for (i, rec) in r.records().enumerate() {
            let rec = rec.map_err(|e| format!("{name}: line {}: {e}", i + 2))?;
            rows.push(rec.iter().map(str::to_string).collect());
        }
        Ok(Table {
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
    fn require(&self, columns: &[&str]) -> Result<(), String> {
        let missing: Vec<&str> = columns.iter().copied().filter(|c| !self.has(c)).collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{}: missing column(s) {}: a report needs {}",
                self.name,
                missing.join(", "),
                columns.join(", ")
            ))
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
    fn num(&self, row: usize, column: &str) -> Result<Option<f64>, String> {
        let t = self.text(row, column);
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<f64>().map(Some).map_err(|_| {
            format!(
                "{}: line {}, column {column}: `{t}` is not a number",
                self.name,
                row + 2
            )
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
    /// The experiment's name, for the page title.
    pub title: &'a str,
}

/// What marks a file as written by `katro report` (a `generator` meta tag
/// in the page, a comment at the top of each chart), so that a later
/// report overwrites its own files and refuses anyone else's.
pub const GENERATOR: &str = "katro report";

/// Every chart file a report may write under `plots/`, besides one
/// `sweep-KEY.svg` per swept setting ([`is_chart_file`]).
pub const CHART_FILES: [&str; 3] = ["win-rate.svg", "lengths.svg", "comparison.svg"];

/// Whether `name` (a file under `plots/`) is one a report writes.
pub fn is_chart_file(name: &str) -> bool {
    CHART_FILES.contains(&name)
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
pub struct Report {
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

/// Colour-blind-safe (Okabe and Ito), dark enough on white.
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

/// Minus sign and the ASCII hyphen look alike at chart sizes; a row label
/// is a variant and a matchup. Self-play is written once and the `mcts`
/// agent's default exploration constant is left out (it reads back as
/// the same agent), so a skill ladder's labels fit the chart's margin; the
/// table under the chart gives every agent in full.
fn cell_label(t: &Table, r: usize) -> String {
    let default = format!(",exploration={}", std::f64::consts::SQRT_2);
    let short = |agent: &str| {
        let a = t.text(r, agent);
        a.strip_suffix(default.as_str()).unwrap_or(a).to_string()
    };
    let (p1, p2) = (short("p1"), short("p2"));
    let variant = t.text(r, "variant");
    if p1 == p2 {
        format!("{variant}  {p1} both sides")
    } else {
        format!("{variant}  {p1} vs {p2}")
    }
}

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Builds the page and the charts.
pub fn build(inputs: &Inputs) -> Result<Report, String> {
    let summary = Table::parse("summary.csv", inputs.summary)?;
    summary.require(&SUMMARY_COLUMNS)?;
    if summary.is_empty() {
        return Err("summary.csv: no rows: nothing to draw".into());
    }
    let comparison = match inputs.comparison {
        Some(b) => {
            let t = Table::parse("comparison.csv", b)?;
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
    charts.extend(sweep_charts(&summary)?);
    let html = page(inputs.title, &summary, &charts);
    Ok(Report { html, charts })
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
fn swept_keys(s: &Table) -> Vec<String> {
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
fn sweep_values(s: &Table, key: &str) -> Vec<String> {
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

/// Series `i`'s point shape: the palette's colours repeat every eight
/// series, so the shape changes with each round (circle, triangle, cross)
/// and no two of the first 24 series look alike.
fn shape_of(i: usize) -> usize {
    (i / PALETTE.len()) % 3
}

/// A mark of a sweep chart: series, value index, the metric, its interval.
type SweepPoint = (usize, usize, f64, Option<(f64, f64)>);

/// One chart per swept setting: the first-player win rate among decided
/// games with its 95% interval, the share of games decided and the mean
/// length, against the setting's value; one line per matchup and values
/// of the other swept settings.
fn sweep_charts(s: &Table) -> Result<Vec<Chart>, String> {
    let keys = swept_keys(s);
    let mut charts = Vec::new();
    for key in &keys {
        let values = sweep_values(s, key);
        let others: Vec<&String> = keys.iter().filter(|k| *k != key).collect();
        // Series: the matchup, then the other swept values, in row order.
        let mut series: Vec<(String, Vec<usize>)> = Vec::new();
        for r in 0..s.len() {
            let mut label = format!("{} vs {}", s.text(r, "p1"), s.text(r, "p2"));
            if s.has("opening_plies") && !matches!(s.text(r, "opening_plies"), "" | "0") {
                label.push_str(&format!(" +open{}", s.text(r, "opening_plies")));
            }
            for o in &others {
                label.push_str(&format!(", {o}={}", s.text(r, o)));
            }
            match series.iter_mut().find(|(l, _)| *l == label) {
                Some((_, rows)) => rows.push(r),
                None => series.push((label, vec![r])),
            }
        }
        let x_of = |r: usize| values.iter().position(|v| v == s.text(r, key)).unwrap_or(0);
        let legend_height = 20 * series.len() as u32;
        let mut svg = String::new();
        {
            let root =
                SVGBackend::with_string(&mut svg, (1100, 420 + legend_height)).into_drawing_area();
            root.fill(&WHITE).map_err(drawing)?;
            let (plots, key_area) = root.split_vertically(400);
            let panels = plots.split_evenly((1, 3));
            let metrics: [(&str, &str, Option<[&str; 2]>); 3] = [
                (
                    "p1_win_rate",
                    "player 1's wins / decided games (fraction)",
                    Some(["p1_win_rate_low", "p1_win_rate_high"]),
                ),
                ("completion", "decided games / games (fraction)", None),
                ("length_mean", "mean game length (plies)", None),
            ];
            for (panel, (col, desc, whiskers)) in panels.iter().zip(metrics) {
                let mut points: Vec<SweepPoint> = Vec::new();
                let mut top: f64 = 0.0;
                for (i, (_, rows)) in series.iter().enumerate() {
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
                        points.push((i, x_of(r), v, w));
                    }
                }
                let y = if col == "length_mean" {
                    0.0..(top * 1.1).max(1.0)
                } else {
                    0.0..1.0
                };
                let mut chart = ChartBuilder::on(panel)
                    .caption(col, ("sans-serif", 16))
                    .margin(10)
                    .x_label_area_size(40)
                    .y_label_area_size(50)
                    .build_cartesian_2d((0..values.len().saturating_sub(1)).into_segmented(), y)
                    .map_err(drawing)?;
                chart
                    .configure_mesh()
                    .x_labels(values.len())
                    .x_label_formatter(&|v: &SegmentValue<usize>| match v {
                        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                            values.get(*i).cloned().unwrap_or_default()
                        }
                        SegmentValue::Last => String::new(),
                    })
                    .x_desc(key.as_str())
                    .y_desc(desc)
                    .draw()
                    .map_err(drawing)?;
                if col == "p1_win_rate" {
                    chart
                        .draw_series(LineSeries::new(
                            [(SegmentValue::Exact(0), 0.5), (SegmentValue::Last, 0.5)],
                            ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1),
                        ))
                        .map_err(drawing)?;
                }
                for (i, _) in series.iter().enumerate() {
                    let c = colour(i);
                    let mut line: Vec<(SegmentValue<usize>, f64)> = points
                        .iter()
                        .filter(|p| p.0 == i)
                        .map(|p| (SegmentValue::CenterOf(p.1), p.2))
                        .collect();
                    line.sort_by_key(|p| match p.0 {
                        SegmentValue::CenterOf(x) => x,
                        _ => 0,
                    });
                    chart
                        .draw_series(LineSeries::new(line.iter().cloned(), c.stroke_width(2)))
                        .map_err(drawing)?;
                    let at = line.iter().map(|(x, v)| (x.clone(), *v));
                    match shape_of(i) {
                        0 => chart.draw_series(at.map(|p| Circle::new(p, 4, c.filled()))),
                        1 => chart.draw_series(at.map(|p| TriangleMarker::new(p, 6, c.filled()))),
                        _ => chart.draw_series(at.map(|p| Cross::new(p, 5, c.stroke_width(2)))),
                    }
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
                }
            }
            for (i, (label, _)) in series.iter().enumerate() {
                let y = 5 + 20 * i as i32;
                key_area
                    .draw(&PathElement::new(
                        [(60, y + 7), (90, y + 7)],
                        colour(i).stroke_width(2),
                    ))
                    .map_err(drawing)?;
                let (at, c) = ((75, y + 7), colour(i));
                match shape_of(i) {
                    0 => key_area.draw(&Circle::new(at, 4, c.filled())),
                    1 => key_area.draw(&TriangleMarker::new(at, 6, c.filled())),
                    _ => key_area.draw(&Cross::new(at, 5, c.stroke_width(2))),
                }
                .map_err(drawing)?;
                key_area
                    .draw(&Text::new(label.clone(), (100, y), ("sans-serif", 14)))
                    .map_err(drawing)?;
            }
            root.present().map_err(drawing)?;
        }
        let mut cols: Vec<&str> = vec!["variant", "p1", "p2"];
        cols.push(key.as_str());
        cols.extend([
            "games",
            "decided",
            "p1_win_rate",
            "p1_win_rate_low",
            "p1_win_rate_high",
            "completion",
            "length_mean",
        ]);
        let table = numbers_table(s, "summary.csv", &cols);
        charts.push(Chart {
            file: format!("sweep-{key}.svg"),
            title: format!("Against the swept setting `{key}`"),
            svg,
            caption: format!(
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
                        others
                            .iter()
                            .map(|o| o.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            ),
            table,
        });
    }
    Ok(charts)
}

// ---------------------------------------------------------------------------
// lengths.csv

/// Games by length, per cell (variant, p1, p2).
type Histograms = BTreeMap<(String, String, String), BTreeMap<u32, u64>>;

/// The CSV of every cell's exact length histogram: one row per cell and
/// length that some game had, in cell order then by length.
pub fn lengths_csv(
    cells: &[crate::runner::Cell],
    aggregates: &[crate::stats::Aggregate],
) -> Vec<u8> {
    let mut out = String::from("variant,p1,p2,length,games\n");
    for (c, a) in cells.iter().zip(aggregates) {
        for (len, n) in &a.length_histogram {
            out.push_str(&format!(
                "{},{},{},{len},{n}\n",
                csv_field(c.rules.name()),
                csv_field(&c.p1.to_string()),
                csv_field(&c.p2.to_string())
            ));
        }
    }
    out.into_bytes()
}

/// Quoted only when it holds a comma or a quote, as docs/OUTPUTS.md says.
fn csv_field(text: &str) -> String {
    if text.contains(',') || text.contains('"') {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn read_lengths(bytes: &[u8]) -> Result<Histograms, String> {
    let t = Table::parse("lengths.csv", bytes)?;
    t.require(&["variant", "p1", "p2", "length", "games"])?;
    let mut h = Histograms::new();
    for r in 0..t.len() {
        let int = |col: &str| {
            t.text(r, col).parse::<u64>().map_err(|_| {
                format!(
                    "lengths.csv: line {}, column {col}: `{}` is not a whole number",
                    r + 2,
                    t.text(r, col)
                )
            })
        };
        let len = u32::try_from(int("length")?)
            .map_err(|_| format!("lengths.csv: line {}: length too large", r + 2))?;
        let key = (
            t.text(r, "variant").to_string(),
            t.text(r, "p1").to_string(),
            t.text(r, "p2").to_string(),
        );
        *h.entry(key).or_default().entry(len).or_insert(0) += int("games")?;
    }
    Ok(h)
}

// ---------------------------------------------------------------------------
// Charts

fn drawing<E: std::fmt::Debug>(e: E) -> String {
    format!("cannot draw a chart: {e:?}")
}

/// The legend, boxed on a faint white so grid lines do not cross it.
fn legend<'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
    at: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(drawing)
}

/// A numeric field that must be there for a mark to be drawn.
fn mark(t: &Table, r: usize, cols: &[&str]) -> Result<Option<Vec<f64>>, String> {
    let mut v = Vec::new();
    for c in cols {
        match t.num(r, c)? {
            Some(x) => v.push(x),
            None => return Ok(None),
        }
    }
    Ok(Some(v))
}

/// Rows top to bottom in file order: plotters counts segments from the
/// bottom, so row r sits in segment n - 1 - r.
fn seg(n: usize, r: usize) -> SegmentValue<usize> {
    SegmentValue::CenterOf(n - 1 - r)
}

/// Empty rows above the data, where the legend goes so it hides no mark.
const LEGEND_ROWS: usize = 3;

fn row_labels(labels: &[String]) -> impl Fn(&SegmentValue<usize>) -> String + '_ {
    move |v| match v {
        SegmentValue::CenterOf(i) if *i < labels.len() => labels[labels.len() - 1 - *i].clone(),
        _ => String::new(),
    }
}

/// Player 1's win rate with its interval, and beside it how the games
/// ended.
fn win_rate_chart(s: &Table) -> Result<Chart, String> {
    let n = s.len();
    let labels: Vec<String> = (0..n).map(|r| cell_label(s, r)).collect();
    let height = 130 + 30 * (n + LEGEND_ROWS) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (left, right) = root.split_horizontally(700);
        draw_win_rates(&left, s, &labels)?;
        draw_endings(&right, s)?;
        root.present().map_err(drawing)?;
    }
    let table = numbers_table(
        s,
        "summary.csv",
        &[
            "variant",
            "p1",
            "p2",
            "games",
            "decided",
            "p1_win_rate",
            "p1_win_rate_low",
            "p1_win_rate_high",
            "undecided_ply_limit",
            "undecided_endless_move",
            "undecided_lap_limit",
        ],
    );
    Ok(Chart {
        file: "win-rate.svg".into(),
        title: "First-player win rate among decided games".into(),
        svg,
        caption: "Left: player 1's share of the decided games (p1_win_rate) with its 95% \
                  Wilson interval (p1_win_rate_low to p1_win_rate_high), one row per variant \
                  and matchup (player 1's agent vs player 2's); the grey vertical line is 0.5, no \
                  advantage. A row without a dot had no decided game. Right: the share of \
                  all games that were decided, stopped at the ply limit, ended by an endless \
                  move (undecided) or stopped at the lap limit."
            .into(),
        table,
    })
}

fn draw_win_rates(
    area: &DrawingArea<SVGBackend, Shift>,
    s: &Table,
    labels: &[String],
) -> Result<(), String> {
    let mut marks = Vec::new();
    for r in 0..s.len() {
        let cols = ["p1_win_rate", "p1_win_rate_low", "p1_win_rate_high"];
        if let Some(v) = mark(s, r, &cols)? {
            marks.push((r, v[0], v[1], v[2]));
        }
    }
    draw_intervals(
        area,
        &Intervals {
            title: "Player 1's win rate, decided games",
            labels,
            label_area: 260,
            y_desc: "variant, player 1 vs player 2",
            x: 0.0..1.0,
            x_desc: "player 1's wins / decided games (fraction)",
            reference: (0.5, "0.5: no advantage"),
            marks,
            colour: colour(0),
            interval: "95% Wilson interval",
            dot: "win rate (p1_win_rate)",
        },
    )
}

/// A dot-and-whisker chart: one row per mark, a reference line.
struct Intervals<'a> {
    title: &'a str,
    /// One per row, top to bottom (empty strings for none).
    labels: &'a [String],
    label_area: u32,
    y_desc: &'a str,
    x: std::ops::Range<f64>,
    x_desc: &'a str,
    reference: (f64, &'a str),
    /// (row, estimate, low, high).
    marks: Vec<(usize, f64, f64, f64)>,
    colour: RGBColor,
    interval: &'a str,
    dot: &'a str,
}

fn draw_intervals(area: &DrawingArea<SVGBackend, Shift>, p: &Intervals) -> Result<(), String> {
    let n = p.labels.len();
    let mut chart = ChartBuilder::on(area)
        .caption(p.title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(p.label_area)
        .build_cartesian_2d(p.x.clone(), (0..n + LEGEND_ROWS).into_segmented())
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .y_labels(n + LEGEND_ROWS)
        .y_label_formatter(&row_labels(p.labels))
        .x_desc(p.x_desc)
        .y_desc(p.y_desc)
        .disable_y_mesh()
        .draw()
        .map_err(drawing)?;
    let (at, what) = p.reference;
    chart
        .draw_series(LineSeries::new(
            [(at, SegmentValue::Exact(0)), (at, SegmentValue::Exact(n))],
            ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1),
        ))
        .map_err(drawing)?
        .label(what)
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.6)));
    let c = p.colour;
    chart
        // plotters rings the middle value: that must be the estimate (a
        // Wilson interval is not centred on it), hidden under the dot.
        .draw_series(p.marks.iter().map(|&(r, v, lo, hi)| {
            ErrorBar::new_horizontal(seg(n, r), lo, v, hi, c.stroke_width(2), 10)
        }))
        .map_err(drawing)?
        .label(p.interval)
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c.stroke_width(2)));
    chart
        .draw_series(
            p.marks
                .iter()
                .map(|&(r, v, _, _)| Circle::new((v, seg(n, r)), 5, c.filled())),
        )
        .map_err(drawing)?
        .label(p.dot)
        .legend(move |(x, y)| Circle::new((x + 8, y), 5, c.filled()));
    legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    Ok(())
}

const ENDINGS: [(&str, &str); 4] = [
    ("decided", "decided"),
    ("undecided_ply_limit", "ply limit"),
    ("undecided_endless_move", "endless move"),
    ("undecided_lap_limit", "lap limit"),
];

fn draw_endings(area: &DrawingArea<SVGBackend, Shift>, s: &Table) -> Result<(), String> {
    let n = s.len();
    let mut chart = ChartBuilder::on(area)
        .caption("How the games ended", ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(10)
        .build_cartesian_2d(0f64..1f64, (0..n + LEGEND_ROWS).into_segmented())
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .y_labels(n + LEGEND_ROWS)
        .y_label_formatter(&|_| String::new())
        .x_desc("share of all games (fraction)")
        .disable_y_mesh()
        .draw()
        .map_err(drawing)?;
    // Each row's bars start where the previous kind ended.
    let mut start = vec![0f64; n];
    for (k, (col, name)) in ENDINGS.iter().enumerate() {
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
        let c = colour(k);
        chart
            .draw_series(bars.iter().map(|&(r, a, b)| {
                let mut rect = Rectangle::new(
                    [
                        (a, SegmentValue::Exact(n - 1 - r)),
                        (b, SegmentValue::Exact(n - r)),
                    ],
                    c.filled(),
                );
                rect.set_margin(5, 5, 0, 0);
                rect
            }))
            .map_err(drawing)?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
    Ok(())
}

/// Length distributions, one panel per matchup, the variants overlaid.
fn length_chart(s: &Table, hist: Option<&Histograms>) -> Result<Chart, String> {
    // Matchups in order of first appearance.
    let mut matchups: Vec<(String, String)> = Vec::new();
    for r in 0..s.len() {
        let m = (s.text(r, "p1").to_string(), s.text(r, "p2").to_string());
        if !matchups.contains(&m) {
            matchups.push(m);
        }
    }
    let mut variants: Vec<String> = Vec::new();
    for r in 0..s.len() {
        let v = s.text(r, "variant").to_string();
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    let panel = 330u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, panel * matchups.len() as u32))
            .into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let areas = root.split_evenly((matchups.len(), 1));
        for (area, m) in areas.iter().zip(&matchups) {
            let rows: Vec<usize> = (0..s.len())
                .filter(|&r| s.text(r, "p1") == m.0 && s.text(r, "p2") == m.1)
                .collect();
            draw_lengths(area, s, &rows, &variants, m, hist)?;
        }
        root.present().map_err(drawing)?;
    }
    let cols = [
        "variant",
        "p1",
        "p2",
        "games",
        "length_mean",
        "length_min",
        "length_p10",
        "length_p50",
        "length_p90",
        "length_max",
    ];
    let table = numbers_table(s, "summary.csv", &cols);
    let source = if hist.is_some() {
        "Curves: each cell's exact length histogram (lengths.csv) as the share of its games \
         per ply, summed over bins of equal width (the bin width is in the axis label). "
    } else {
        "No curves: this folder has no lengths.csv (written by katro run and katro merge \
         since the report exists), so only summary.csv's length statistics are drawn. "
    };
    Ok(Chart {
        file: "lengths.svg".into(),
        title: "Game length".into(),
        svg,
        caption: format!(
            "{source}Below the axis, one line per variant: from length_p10 to length_p90, \
             a dot at the median (length_p50) and a cross at the mean (length_mean). One \
             panel per matchup, variants in the same colour in every panel."
        ),
        table,
    })
}

fn draw_lengths(
    area: &DrawingArea<SVGBackend, Shift>,
    s: &Table,
    rows: &[usize],
    variants: &[String],
    matchup: &(String, String),
    hist: Option<&Histograms>,
) -> Result<(), String> {
    let mut xmax = 1f64;
    for &r in rows {
        for c in ["length_max", "length_p90"] {
            if let Some(x) = s.num(r, c)? {
                xmax = xmax.max(x);
            }
        }
    }
    // About 60 bins over the widest cell: fine enough to show the shape,
    // coarse enough that a few thousand games make a smooth curve.
    let bin = ((xmax / 60.0).ceil() as u32).max(1);
    let mut curves = Vec::new();
    let mut ymax = 0f64;
    if let Some(h) = hist {
        for &r in rows {
            let key = (
                s.text(r, "variant").to_string(),
                matchup.0.clone(),
                matchup.1.clone(),
            );
            let Some(cell) = h.get(&key) else { continue };
            let games: u64 = cell.values().sum();
            if games == 0 {
                continue;
            }
            let mut bins: BTreeMap<u32, u64> = BTreeMap::new();
            for (&len, &k) in cell {
                *bins.entry(len / bin).or_insert(0) += k;
            }
            let last = *bins.keys().last().unwrap_or(&0);
            let mut pts = Vec::new();
            for b in 0..=last + 1 {
                let y = *bins.get(&b).unwrap_or(&0) as f64 / games as f64 / bin as f64;
                ymax = ymax.max(y);
                let x0 = (b * bin) as f64;
                pts.push((x0, y));
                pts.push((x0 + bin as f64, y));
            }
            curves.push((r, pts));
        }
    }
    // Without curves only the strip of quantile lines is drawn.
    let drawn = !curves.is_empty();
    let (ymax, step) = if drawn {
        (ymax * 1.08, ymax * 1.08 / 14.0)
    } else {
        (0.5, 1.0)
    };
    let ymin = -step * (rows.len() as f64 + 1.0);
    let xdesc = if hist.is_some() {
        format!(
            "game length (plies; bins of {bin} {})",
            if bin == 1 { "ply" } else { "plies" }
        )
    } else {
        "game length (plies)".to_string()
    };
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("Game length, {} vs {}", matchup.0, matchup.1),
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..xmax * 1.02 + 1.0, ymin..ymax)
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .x_desc(xdesc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc(if hist.is_some() {
            "share of games per ply"
        } else {
            ""
        })
        .y_label_formatter(&|y| {
            if *y < 0.0 || !drawn {
                String::new()
            } else {
                format!("{y:.3}")
            }
        })
        .draw()
        .map_err(drawing)?;
    for (r, pts) in &curves {
        let k = variants
            .iter()
            .position(|v| v == s.text(*r, "variant"))
            .unwrap_or(0);
        chart
            .draw_series(LineSeries::new(
                pts.iter().copied(),
                colour(k).stroke_width(2),
            ))
            .map_err(drawing)?;
    }
    for (i, &r) in rows.iter().enumerate() {
        let k = variants
            .iter()
            .position(|v| v == s.text(r, "variant"))
            .unwrap_or(0);
        let c = colour(k);
        let y = -step * (i as f64 + 1.0);
        let name = s.text(r, "variant").to_string();
        if let Some(v) = mark(s, r, &["length_p10", "length_p90"])? {
            chart
                .draw_series(LineSeries::new([(v[0], y), (v[1], y)], c.stroke_width(3)))
                .map_err(drawing)?
                .label(name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c.stroke_width(3)));
        }
        if let Some(v) = mark(s, r, &["length_p50"])? {
            chart
                .draw_series([Circle::new((v[0], y), 5, c.filled())])
                .map_err(drawing)?;
        }
        if let Some(v) = mark(s, r, &["length_mean"])? {
            chart
                .draw_series([Cross::new((v[0], y), 6, BLACK.stroke_width(2))])
                .map_err(drawing)?;
        }
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    Ok(())
}

/// comparison.csv: each variant against the baseline, with intervals.
fn comparison_chart(c: &Table) -> Result<Chart, String> {
    let n = c.len();
    let labels: Vec<String> = (0..n)
        .map(|r| {
            format!(
                "{} - {}  {} vs {}",
                c.text(r, "variant"),
                c.text(r, "baseline"),
                c.text(r, "p1"),
                c.text(r, "p2")
            )
        })
        .collect();
    let height = 110 + 30 * (n + LEGEND_ROWS) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (left, right) = root.split_horizontally(660);
        draw_differences(
            &left,
            c,
            &labels,
            "advantage_diff",
            "Difference in advantage_p1",
            "advantage_p1 minus the baseline's (score)",
            340,
        )?;
        draw_differences(
            &right,
            c,
            &[],
            "length_diff",
            "Difference in mean length",
            "length_mean minus the baseline's (plies)",
            10,
        )?;
        root.present().map_err(drawing)?;
    }
    let cols = [
        "variant",
        "baseline",
        "p1",
        "p2",
        "advantage_diff",
        "advantage_diff_low",
        "advantage_diff_high",
        "advantage_p_value",
        "length_diff",
        "length_diff_low",
        "length_diff_high",
        "length_p_value",
    ];
    let table = numbers_table(c, "comparison.csv", &cols);
    Ok(Chart {
        file: "comparison.svg".into(),
        title: "Differences from the baseline variant".into(),
        svg,
        caption: "Each variant minus its baseline (the row's `baseline`: the experiment's \
                  `baseline` variant, by default its first, or with `compare = \"all-pairs\"` \
                  the earlier variant of each pair), matchup by matchup, with the 95% interval \
                  of the difference (normal approximation with Welch's standard error, \
                  docs/OUTPUTS.md). The p-values beside the raw ones in comparison.csv are \
                  Holm-adjusted. The grey vertical line is no difference."
            .into(),
        table,
    })
}

fn draw_differences(
    area: &DrawingArea<SVGBackend, Shift>,
    c: &Table,
    labels: &[String],
    col: &str,
    title: &str,
    xdesc: &str,
    label_area: u32,
) -> Result<(), String> {
    let n = c.len();
    let low = format!("{col}_low");
    let high = format!("{col}_high");
    let mut marks = Vec::new();
    let (mut lo_all, mut hi_all) = (0f64, 0f64);
    for r in 0..n {
        if let Some(v) = mark(c, r, &[col, &low, &high])? {
            lo_all = lo_all.min(v[1]);
            hi_all = hi_all.max(v[2]);
            marks.push((r, v[0], v[1], v[2]));
        }
    }
    let pad = ((hi_all - lo_all) * 0.08).max(1e-3);
    let empty: Vec<String> = vec![String::new(); n];
    draw_intervals(
        area,
        &Intervals {
            title,
            labels: if labels.is_empty() { &empty } else { labels },
            label_area,
            y_desc: "",
            x: lo_all - pad..hi_all + pad,
            x_desc: xdesc,
            reference: (0.0, "0: no difference"),
            marks,
            colour: colour(1),
            interval: "95% interval",
            dot: "difference",
        },
    )
}

// ---------------------------------------------------------------------------
// The page

/// The columns `cols` of every row of `t`, as an HTML table of CSV text.
fn numbers_table(t: &Table, file: &str, cols: &[&str]) -> String {
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
fn table_row(t: &Table, file: &str, r: usize, cols: &[&str]) -> String {
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

fn page(title: &str, s: &Table, charts: &[Chart]) -> String {
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
            .map(|q| format!("{} vs {}", s.text(q, "p1"), s.text(q, "p2")))
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
        let t = Table::parse("summary.csv", csv.as_bytes()).unwrap();
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
            title: "t",
        })
        .unwrap();
        assert!(r.charts.iter().all(|c| !c.file.starts_with("sweep-")));
        // Nothing swept: no sweep chart.
        let r = build(&Inputs {
            summary: SUMMARY.as_bytes(),
            comparison: None,
            lengths: None,
            title: "t",
        })
        .unwrap();
        assert!(r.charts.iter().all(|c| !c.file.starts_with("sweep-")));
    }

    #[test]
    fn a_missing_column_is_named() {
        let e = build(&Inputs {
            summary: b"variant,p1\na,random\n",
            comparison: None,
            lengths: None,
            title: "t",
        })
        .err()
        .unwrap();
        assert!(e.contains("summary.csv: missing column(s) rules"), "{e}");
    }

    #[test]
    fn a_bad_number_is_named_with_its_line() {
        let bad = SUMMARY.replace("0.600000", "six");
        let e = build(&Inputs {
            summary: bad.as_bytes(),
            comparison: None,
            lengths: None,
            title: "t",
        })
        .err()
        .unwrap();
        assert!(e.contains("line 2, column p1_win_rate: `six`"), "{e}");
    }
}
