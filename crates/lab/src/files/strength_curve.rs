//! strength-curve.csv (docs/OUTPUTS.md): the first player's share against
//! the node budget of self-play, with each level's rating and the exact
//! share under perfect play where the board is solved.

use super::csv::{csv_bytes, float, opt, p_value};
use crate::experiment::interval::Interval;

/// The file's name: `katro curve` writes it into the run's folder.
pub const STRENGTH_CURVE: &str = "strength-curve.csv";

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
    "step_share_diff_p",
    "step_share_diff_holm",
    "step_power80_decided",
    "trend_slope",
    "trend_slope_low",
    "trend_slope_high",
    "trend_p",
    "trend_holm",
    "trend_margin",
    "pooled_share",
    "pooled_share_low",
    "pooled_share_high",
    "pooled_decided",
    "homogeneity_chi_square",
    "homogeneity_df",
    "homogeneity_p",
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
    /// On a family's largest budget: the trend over all its budgets.
    pub trend: Option<Trend>,
    /// On a family's largest budget: what its trend says of the curve.
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
    /// The share difference's two-sided p-value, and the same
    /// Holm-adjusted over every test of the file (set by `katro curve`
    /// once the file's tests are all known).
    pub p_value: f64,
    pub holm: Option<f64>,
}

/// A family's trend over its budgets at one opening (docs/OUTPUTS.md,
/// "strength-curve.csv"): the slope of player 1's share against the
/// budget's logarithm, and the share pooled over the budgets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// Change of the share per tenfold budget, with its 95% interval.
    pub slope: Interval,
    /// Two-sided p-value of slope 0, and the same Holm-adjusted over
    /// every test of the file.
    pub p_value: f64,
    pub holm: Option<f64>,
    /// The equivalence margin m the verdict was read with.
    pub margin: f64,
    /// The budgets' cells pooled, where they share one estimand: set only
    /// where the trend is not moving.
    pub pooled: Option<Pooled>,
}

/// Self-play cells of one family pooled into one share, with Pearson's
/// test that they share it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pooled {
    /// Σ player 1's wins / Σ decided, with its Wilson interval.
    pub share: Interval,
    pub decided: u64,
    /// Σ (wᵢ − dᵢ p̄)² / (dᵢ p̄ (1 − p̄)) over the k cells, on k − 1 df.
    pub chi_square: f64,
    pub df: u64,
    pub p_value: f64,
}

/// What a family's trend over its budgets says (issue 45's rule,
/// docs/OUTPUTS.md): read on its largest budget's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The slope's interval lies inside ±m and the largest budget is
    /// measurably stronger than the smallest (its rating's interval above
    /// 0): more strength no longer moves the share by m a tenfold budget.
    Converged,
    /// The slope is above 0, its Holm-adjusted p-value below 0.05.
    MovingUp,
    /// The slope is below 0, its Holm-adjusted p-value below 0.05.
    MovingDown,
    /// Not moving, and the largest budget's share interval holds the
    /// exact perfect-play limit (`limit`): the curve is where perfect play
    /// puts it, so no more strength can move it.
    AtLimit,
    /// Neither moving nor shown flat within ±m with a measured gain in
    /// strength, and no known limit settles it.
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
    let trend = r.trend.as_ref();
    let pooled = trend.and_then(|t| t.pooled);
    let mut fields = vec![
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
    ];
    fields.extend([
        p_value(step.map(|s| s.p_value)),
        p_value(step.and_then(|s| s.holm)),
        opt(score.and_then(|s| power80_decided(s.estimate))),
        float(trend.map(|t| t.slope.estimate)),
        float(trend.map(|t| t.slope.low)),
        float(trend.map(|t| t.slope.high)),
        p_value(trend.map(|t| t.p_value)),
        p_value(trend.and_then(|t| t.holm)),
        float(trend.map(|t| t.margin)),
        float(pooled.map(|p| p.share.estimate)),
        float(pooled.map(|p| p.share.low)),
        float(pooled.map(|p| p.share.high)),
        opt(pooled.map(|p| p.decided)),
        float(pooled.map(|p| p.chi_square)),
        opt(pooled.map(|p| p.df)),
        p_value(pooled.map(|p| p.p_value)),
    ]);
    fields
}

/// The decided games two budgets must play each other for a two-sided
/// test at 5% to find the larger one's score `p` different from 1/2 with
/// 80% power: (z₀.₉₇₅ + z₀.₈₀)² p (1 − p) / (p − 1/2)², rounded up; none
/// at p = 1/2, where no number of games would.
pub fn power80_decided(p: f64) -> Option<u64> {
    const Z: f64 = 1.959_963_984_540_054 + 0.841_621_233_572_914_3;
    let d = p - 0.5;
    (d != 0.0).then(|| (Z * Z * p * (1.0 - p) / (d * d)).ceil() as u64)
}
