//! The strength curve in the report: strength-curve.csv (written by
//! `katro curve DIR`, docs/OUTPUTS.md) drawn as `katro curve` draws it,
//! the first player's share against the node budget on a log axis, one
//! panel per variant, random play's share and the perfect-play limit as
//! its references, with the file's numbers behind it.

use super::*;
use crate::pictures::strength_curve::{CurvePoint, strength_curve_svg};

/// The file a report draws its curve from.
pub use crate::files::strength_curve::STRENGTH_CURVE as STRENGTH_CURVE_CSV;

/// The columns the chart reads.
const CURVE_NEEDS: [&str; 7] = [
    "variant",
    "agent",
    "nodes",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "limit",
];

/// The columns shown under the chart.
const CURVE_TABLE: [&str; 21] = [
    "variant",
    "agent",
    "nodes",
    "opening_plies",
    "games",
    "decided",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "rating",
    "rating_low",
    "rating_high",
    "distinct_games",
    "limit",
    "step_share_diff",
    "step_score",
    "trend_slope",
    "trend_slope_low",
    "trend_slope_high",
    "pooled_share",
    "verdict",
];

const CURVE_CAPTION: &str = "Self-play of one search agent at rising node budgets \
    (strength-curve.csv, written by `katro curve`): one panel per variant, its points the first \
    player's share of the decided games at each budget (nodes a move, on a log scale the same in \
    every panel and ending at the largest budget) with 95% Wilson intervals; each panel's share \
    axis spans its own marks and 50% (grey). Dashed: the variant's random-play share. Dotted: the \
    exact share under perfect play over the same random openings (`limit`), where the board is \
    solved or the prover valued them. `rating` \
    is each budget's Elo against its family's smallest budget (rated 0), from the variant's cells \
    where two budgets meet. `step_share_diff` is the share's change from the family's next \
    smaller budget and `step_score` the larger budget's share of the decided games the two played \
    each other. `trend_slope` is the share's change a tenfold budget over all of a family's \
    budgets, with its 95% interval; `verdict`, on each family's largest budget, reads it \
    (docs/OUTPUTS.md): moving-up or moving-down (the slope's Holm-adjusted p below 0.05), \
    converged (the slope's interval inside ±`trend_margin` and the largest budget measurably \
    stronger than the smallest), at-limit (not moving, and the share's interval holds the exact \
    perfect-play share) or open (anything else). `pooled_share` pools the budgets of a curve \
    that is not moving.";

/// The chart, `None` when the file has no budget to draw.
pub(super) fn strength_curve_chart(bytes: &[u8]) -> Result<Option<Chart>, ReportError> {
    let t = CsvTable::parse(STRENGTH_CURVE_CSV, bytes)?;
    t.require(&CURVE_NEEDS)?;
    let mut rows = Vec::with_capacity(t.len());
    for r in 0..t.len() {
        rows.push(CurvePoint {
            variant: t.text(r, "variant"),
            nodes: t.num(r, "nodes")?.map(|n| n as u64),
            p1_win_rate: t.text(r, "p1_win_rate"),
            p1_win_rate_low: t.text(r, "p1_win_rate_low"),
            p1_win_rate_high: t.text(r, "p1_win_rate_high"),
            limit: t.num(r, "limit")?,
        });
    }
    Ok(strength_curve_svg(&rows).map(|svg| Chart {
        file: "strength-curve.svg".into(),
        title: "Strength curve: the first player's share against search nodes".into(),
        svg,
        caption: format!("{CURVE_CAPTION}{}", estimand_sentence(&t, "row")),
        table: numbers_table(&t, STRENGTH_CURVE_CSV, &CURVE_TABLE),
        notes: Vec::new(),
    }))
}
