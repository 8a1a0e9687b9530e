//! Cell by cell: the first player's win rate and the comparison with the baseline.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::*;

/// Player 1's win rate with its interval, and beside it how the games
/// ended; one row per cell.
pub(super) fn win_rate_chart(s: &CsvTable) -> Result<Chart, ReportError> {
    let n = s.len();
    let labels: Vec<String> = (0..n).map(|r| cell_label(s, r)).collect();
    let rs = rows(&labels, 440);
    let left_w = rs.label_w + 30 + 430 + MARK_VALUES_W;
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
        caption: format!("{WIN_RATE_CAPTION}{}", estimand_sentence(s, "row")),
        table: numbers_table(s, "summary.csv", &win_rate_table(s)),
        notes: Vec::new(),
    })
}

/// The win-rate chart's key: the marks of the left panel, then the
/// endings' colours.
pub(super) fn win_rate_key() -> Vec<(Swatch, String)> {
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
pub(super) fn draw_win_rates(
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
    let x = share_axis(&marks);
    // The values' column right of the panel, outside its plotting area.
    let (w, _) = area.dim_in_pixel();
    let (area, _) = area.split_horizontally(w.saturating_sub(MARK_VALUES_W));
    let mut chart = row_panel(
        &area,
        "Player 1's win rate among decided games",
        n,
        rs.label_w + 20,
        x.clone(),
        "player 1's wins / decided games",
        true,
    )?;
    draw_intervals(&mut chart, n, 0.5, &marks, colour(0))?;
    draw_mark_values(root, &chart, n, &x, &marks)?;
    draw_row_labels(root, &chart, rs, x.start)
}

/// The columns of summary.csv under the win-rate chart.
pub(super) const WIN_RATE_TABLE: [&str; 12] = [
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

/// The tests of the win rate against one half shown beside it, those of
/// the margin only where the experiment declares one.
const HALF_TESTS: [&str; 5] = [
    "p1_vs_half_p",
    "balance_margin",
    "balance_verdict",
    "balance_low_p",
    "balance_high_p",
];

/// [`WIN_RATE_TABLE`] with the estimand after the opening and the tests
/// against one half after the interval, each where `s` has it (a file
/// written before them has not): so a report of older results still
/// reads, and one of a run without a margin shows no empty columns.
pub(super) fn win_rate_table(s: &CsvTable) -> Vec<&'static str> {
    let margin = (0..s.len()).any(|r| !s.text(r, "balance_margin").is_empty());
    let mut cols = Vec::new();
    for c in WIN_RATE_TABLE {
        cols.push(c);
        let after: &[&str] = match c {
            "opening_plies" => &["estimand"],
            "p1_win_rate_high" if margin => &HALF_TESTS,
            "p1_win_rate_high" => &HALF_TESTS[..1],
            _ => &[],
        };
        cols.extend(after.iter().filter(|a| s.has(a)));
    }
    cols
}

pub(super) const WIN_RATE_CAPTION: &str = "Left: player 1's share of the decided games (p1_win_rate) \
    with its 95% Wilson interval (p1_win_rate_low to p1_win_rate_high), written beside \
    it to a tenth of a point, one row per cell: variant, matchup (player 1's agent vs player \
    2's) and random opening plies; the grey vertical line is 50%, no advantage, and the axis \
    spans the intervals and 50% (the whole 0–100% only when they cover most of it). A row without a dot had no decided game. Right: the \
    share of all games that were decided, stopped at the ply limit, ended by an endless move \
    (undecided) or stopped at the lap limit.";

pub(super) const ENDINGS: [(&str, &str); 4] = [
    ("decided", "decided"),
    ("undecided_ply_limit", "ply limit"),
    ("undecided_endless_move", "endless move"),
    ("undecided_lap_limit", "lap limit"),
];

/// Decided games grey, the three kinds of undecided game in colour.
pub(super) fn ending_colour(k: usize) -> RGBColor {
    match k {
        0 => RGBColor(170, 170, 170),
        1 => colour(1),
        2 => colour(4),
        _ => colour(7),
    }
}

pub(super) fn draw_endings(
    area: &DrawingArea<SVGBackend, Shift>,
    s: &CsvTable,
) -> Result<(), ReportError> {
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
        let bars = ending_bars(s, col, &mut start)?;
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

/// Each row's bar of the games that ended as `col` says, from `start`,
/// which it moves on to the bar's end.
fn ending_bars(
    s: &CsvTable,
    col: &str,
    start: &mut [f64],
) -> Result<Vec<(usize, f64, f64)>, ReportError> {
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
    Ok(bars)
}

/// comparison.csv: each variant against the baseline, with intervals.
pub(super) fn comparison_chart(c: &CsvTable) -> Result<Chart, ReportError> {
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
        caption: format!("{COMPARISON_CAPTION}{}", estimand_sentence(c, "row")),
        table: numbers_table(c, "comparison.csv", &COMPARISON_TABLE),
        notes: Vec::new(),
    })
}

/// A comparison row's label: the two variants and the matchup.
pub(super) fn comparison_labels(c: &CsvTable) -> Vec<String> {
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
pub(super) struct DifferencePanel {
    pub(super) col: &'static str,
    pub(super) title: &'static str,
    pub(super) x_desc: &'static str,
    pub(super) labels: bool,
}

pub(super) const DIFFERENCE_PANELS: [DifferencePanel; 2] = [
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
pub(super) fn draw_difference(
    root: &DrawingArea<SVGBackend, Shift>,
    area: &DrawingArea<SVGBackend, Shift>,
    c: &CsvTable,
    rs: &Rows,
    p: &DifferencePanel,
) -> Result<(), ReportError> {
    let n = c.len();
    let marks = difference_marks(c, p.col)?;
    let (mut lo_all, mut hi_all) = (0f64, 0f64);
    for &(_, _, lo, hi) in &marks {
        lo_all = lo_all.min(lo);
        hi_all = hi_all.max(hi);
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

/// Each row's difference `col` with its interval, where it has all three.
fn difference_marks(c: &CsvTable, col: &str) -> Result<Vec<(usize, f64, f64, f64)>, ReportError> {
    let (low, high) = (format!("{col}_low"), format!("{col}_high"));
    let mut marks = Vec::new();
    for r in 0..c.len() {
        if let Some(v) = mark(c, r, &[col, &low, &high])? {
            marks.push((r, v[0], v[1], v[2]));
        }
    }
    Ok(marks)
}

/// The columns of comparison.csv under its chart.
pub(super) const COMPARISON_TABLE: [&str; 13] = [
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

pub(super) const COMPARISON_CAPTION: &str = "Each variant minus its baseline (the row's `baseline`: the \
    experiment's `baseline` variant, by default its first, or with `compare = \"all-pairs\"` \
    the earlier variant of each pair), cell by cell (matchup and random opening plies), with \
    the 95% interval of the difference (normal approximation with Welch's standard error, \
    docs/OUTPUTS.md). The p-values beside the raw ones in comparison.csv are Holm-adjusted. \
    The grey vertical line is no difference.";
