//! strength-curve.csv (docs/OUTPUTS.md): the first player's share against
//! the node budget of self-play, with each level's rating and the exact
//! share under perfect play where the board is solved.

use super::csv::{csv_bytes, float, opt};

/// strength-curve.csv's columns (docs/OUTPUTS.md).
pub const CURVE_COLUMNS: &[&str] = &[
    "variant",
    "rules",
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
    "length_mean",
    "distinct_games",
    "limit",
    "limit_draws",
    "limit_openings",
    "limit_exact",
];

/// One row: a self-play cell of the run (a budget of the curve, or random
/// play), with what `katro curve` adds to summary.csv's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveRow {
    pub variant: String,
    pub rules: String,
    pub agent: String,
    /// The agent's `nodes`; `None` for random play.
    pub nodes: Option<u64>,
    pub opening_plies: u32,
    pub games: u64,
    pub decided: u64,
    /// summary.csv's fields, as written there.
    pub p1_win_rate: String,
    pub p1_win_rate_low: String,
    pub p1_win_rate_high: String,
    pub length_mean: String,
    pub distinct_games: String,
    /// Rating and its 95% interval, in Elo, against the variant's smallest
    /// budget; `None` where no fit rates the level, and an open end (the
    /// results do not bound it, as in ratings.csv) left empty.
    pub rating: Option<crate::experiment::ratings::Estimate>,
    pub limit: Option<Limit>,
}

/// The exact share under perfect play over the row's openings.
#[derive(Clone, Debug, PartialEq)]
pub struct Limit {
    /// Player 1's share of the decided games; `None` when all are drawn.
    pub share: Option<f64>,
    /// The probability that an opening is a draw under perfect play.
    pub draws: f64,
    pub openings: usize,
    /// Player 1's wins, draws and player 2's wins as exact fractions,
    /// `a/b;c/d;e/f`.
    pub exact: String,
}

/// The file's bytes, rows in the order given.
pub fn strength_curve_csv(rows: &[CurveRow]) -> Vec<u8> {
    csv_bytes(CURVE_COLUMNS, rows.iter().map(curve_fields))
}

/// Row `r`'s fields, in [`CURVE_COLUMNS`]' order.
fn curve_fields(r: &CurveRow) -> Vec<String> {
    let (rating, low, high) = match r.rating {
        Some(e) => (e.value, e.low, e.high),
        None => (None, None, None),
    };
    let limit = r.limit.as_ref();
    vec![
        r.variant.clone(),
        r.rules.clone(),
        r.agent.clone(),
        opt(r.nodes),
        r.opening_plies.to_string(),
        r.games.to_string(),
        r.decided.to_string(),
        r.p1_win_rate.clone(),
        r.p1_win_rate_low.clone(),
        r.p1_win_rate_high.clone(),
        float(rating),
        float(low),
        float(high),
        r.length_mean.clone(),
        r.distinct_games.clone(),
        float(limit.and_then(|l| l.share)),
        float(limit.map(|l| l.draws)),
        opt(limit.map(|l| l.openings)),
        limit.map(|l| l.exact.clone()).unwrap_or_default(),
    ]
}
