//! strength-curve.csv (docs/OUTPUTS.md): the first player's share against
//! the node budget of self-play, with each level's rating and the exact
//! share under perfect play where the board is solved.

use super::csv::{csv_bytes, float, opt};
use crate::experiment::interval::Interval;

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
    "limit_low",
    "limit_high",
    "limit_unknown",
    "limit_source",
    "limit_gap_low",
    "limit_gap_high",
    "step_share_diff",
    "step_share_diff_low",
    "step_share_diff_high",
    "step_decided",
    "step_score",
    "step_score_low",
    "step_score_high",
    "verdict",
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
    /// The level's share interval minus the limit's interval:
    /// `p1_win_rate_low` − the limit's high end to `p1_win_rate_high` −
    /// its low end; `None` without a limit or a share interval.
    pub limit_gap: Option<(f64, f64)>,
    /// The level against its family's next smaller budget; `None` for
    /// random play and a family's smallest budget.
    pub step: Option<Step>,
    /// On a family's largest budget: what its step says of the curve.
    pub verdict: Option<Verdict>,
}

/// What one step up in budget changed: the first player's share, and how
/// often the larger budget won where the two met (docs/OUTPUTS.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// This level's player 1 share minus the smaller budget's, with the
    /// 95% interval of comparison.csv's `win_rate_diff`.
    pub share_diff: Interval,
    /// Decided games where the two budgets met, either in either seat.
    pub met_decided: u64,
    /// This level's share of those games, with its Wilson interval;
    /// `None` when they never met or every meeting was undecided.
    pub score: Option<Interval>,
}

/// Issue 30's reading of a family's two largest budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The shares agree (the difference's interval holds 0) and the larger
    /// budget is measurably stronger (its score's interval is above 1/2):
    /// more strength no longer moves the share.
    Converged,
    /// The larger budget's share is higher, the interval above 0.
    MovingUp,
    /// The larger budget's share is lower, the interval below 0.
    MovingDown,
    /// The shares agree and the larger budget's share interval holds the
    /// exact perfect-play limit (`limit`): the curve is where perfect play
    /// puts it, so no more strength can move it, whatever the step bought.
    AtLimit,
    /// The shares agree but the larger budget is not measurably stronger,
    /// and no known limit settles it: the curve cannot tell convergence
    /// from a search that stopped gaining strength.
    Open,
}

impl Verdict {
    /// The `verdict` column's word.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Converged => "converged",
            Verdict::MovingUp => "moving-up",
            Verdict::MovingDown => "moving-down",
            Verdict::AtLimit => "at-limit",
            Verdict::Open => "open",
        }
    }
}

/// The share under perfect play over the row's openings: exact from a
/// solved table, or from proof search (openings.csv) exact or bounded.
#[derive(Clone, Debug, PartialEq)]
pub struct Limit {
    /// Player 1's share of the decided games; `None` when all are drawn,
    /// or when some openings are unproven.
    pub share: Option<f64>,
    /// The interval that holds it: the share itself when exact; with
    /// unproven openings, every one lost to every one won.
    pub bounds: Option<(f64, f64)>,
    /// The probability that an opening is a draw under perfect play (with
    /// unproven openings, of the proven ones).
    pub draws: f64,
    /// The probability of the unproven openings.
    pub unknown: f64,
    pub openings: usize,
    /// Player 1's wins, draws and player 2's wins as exact fractions,
    /// `a/b;c/d;e/f`, and the unproven openings' after them when some
    /// are.
    pub exact: String,
    pub source: LimitSource,
}

/// Where a limit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitSource {
    /// The board solved by `katro curve` (retrograde analysis).
    Solved,
    /// Proof search over the openings: a row of `katro prove-openings`'
    /// openings.csv, given by `katro curve --openings`.
    Proved,
}

impl LimitSource {
    /// The `limit_source` column's word.
    pub fn as_str(self) -> &'static str {
        match self {
            LimitSource::Solved => "solved",
            LimitSource::Proved => "proved",
        }
    }
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
    let step = r.step.as_ref();
    let score = step.and_then(|s| s.score);
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
        float(limit.and_then(|l| l.bounds).map(|b| b.0)),
        float(limit.and_then(|l| l.bounds).map(|b| b.1)),
        float(limit.map(|l| l.unknown)),
        limit.map_or("", |l| l.source.as_str()).to_string(),
        float(r.limit_gap.map(|g| g.0)),
        float(r.limit_gap.map(|g| g.1)),
        float(step.map(|s| s.share_diff.estimate)),
        float(step.map(|s| s.share_diff.low)),
        float(step.map(|s| s.share_diff.high)),
        opt(step.map(|s| s.met_decided)),
        float(score.map(|s| s.estimate)),
        float(score.map(|s| s.low)),
        float(score.map(|s| s.high)),
        r.verdict
            .map(|v| v.as_str())
            .unwrap_or_default()
            .to_string(),
    ]
}
