//! Each level's step from its family's next smaller budget, and the
//! verdict on the family's largest (docs/OUTPUTS.md, "strength-curve.csv";
//! issue 30's rule): did the share move, and did the larger budget play
//! measurably better where the two met.

use crate::agents::AgentSpec;
use crate::experiment::interval::{Interval, wilson};
use crate::experiment::stats::win_rate_difference;
use crate::files::strength_curve::{CurveRow, Step, Verdict};

use super::SummaryRow;

/// For each level (sorted by family, then budget, as `curve_rows` sorts
/// them): its step from the family's next smaller budget at its opening,
/// and on the largest budget of a family and opening, the verdict its
/// step gives.
pub(super) fn steps(
    mine: &[&SummaryRow],
    levels: &[(&SummaryRow, AgentSpec, u64)],
) -> Vec<(Option<Step>, Option<Verdict>)> {
    // Levels of one family at one opening; a family played at two
    // openings has them interleaved by budget, so neighbours need not be.
    let same = |i: usize, j: usize| {
        levels[i].1 == levels[j].1 && levels[i].0.opening_plies == levels[j].0.opening_plies
    };
    (0..levels.len())
        .map(|i| {
            let step = (0..i)
                .rev()
                .find(|&j| same(j, i))
                .and_then(|j| step(mine, levels[j].0, levels[i].0));
            let largest = !(i + 1..levels.len()).any(|k| same(i, k));
            let verdict = step.as_ref().filter(|_| largest).map(verdict);
            (step, verdict)
        })
        .collect()
}

/// `upper`'s step from `lower`, two self-play cells of one opening: the
/// difference of their player 1 shares (comparison.csv's
/// `win_rate_diff`), and `upper`'s share of the decided games of the
/// variant's cells where the two agents met, in either seat. `None` when
/// either cell has no decided game.
fn step(mine: &[&SummaryRow], lower: &SummaryRow, upper: &SummaryRow) -> Option<Step> {
    let d = win_rate_difference(
        (upper.p1_wins, upper.decided),
        (lower.p1_wins, lower.decided),
    )?;
    let (mut wins, mut decided) = (0, 0);
    for r in mine
        .iter()
        .filter(|r| r.opening_plies == upper.opening_plies)
    {
        let upper_wins = if r.p1 == upper.p1 && r.p2 == lower.p1 {
            r.p1_wins
        } else if r.p1 == lower.p1 && r.p2 == upper.p1 {
            r.p2_wins
        } else {
            continue;
        };
        wins += upper_wins;
        decided += r.decided;
    }
    Some(Step {
        share_diff: Interval {
            estimate: d.diff,
            low: d.low,
            high: d.high,
        },
        met_decided: decided,
        score: wilson(wins, decided),
    })
}

/// Reads a step: a share that moved is moving; one that did not is
/// converged only if the step bought strength.
fn verdict(step: &Step) -> Verdict {
    if step.share_diff.low > 0.0 {
        Verdict::MovingUp
    } else if step.share_diff.high < 0.0 {
        Verdict::MovingDown
    } else if step.score.is_some_and(|s| s.low > 0.5) {
        Verdict::Converged
    } else {
        Verdict::Open
    }
}

/// Where a family's shares did not move (`converged` or `open`) and its
/// largest budget's share interval holds the perfect-play limit (with
/// unproven openings, the whole interval the limit may be in), the
/// verdict becomes `at-limit`: the limit, not the step's strength, says
/// the curve has stopped. Every row with a limit gets its distance from
/// it, `limit_gap`. Run once the limits are filled.
pub(super) fn settle_at_limits(out: &mut [CurveRow]) {
    for r in out.iter_mut() {
        let bounds = r.limit.as_ref().and_then(|l| l.bounds);
        r.limit_gap = bounds.and_then(|(lo, hi)| {
            let low = r.p1_win_rate_low.parse::<f64>().ok()?;
            let high = r.p1_win_rate_high.parse::<f64>().ok()?;
            Some((low - hi, high - lo))
        });
        let flat = matches!(r.verdict, Some(Verdict::Converged | Verdict::Open));
        if flat
            && let Some((lo, hi)) = bounds
            && holds(&r.p1_win_rate_low, &r.p1_win_rate_high, lo)
            && holds(&r.p1_win_rate_low, &r.p1_win_rate_high, hi)
        {
            r.verdict = Some(Verdict::AtLimit);
        }
    }
}

/// Whether the interval written as `low` and `high` (summary.csv's text)
/// holds `x`; an empty or unreadable end holds nothing.
fn holds(low: &str, high: &str, x: f64) -> bool {
    match (low.parse::<f64>(), high.parse::<f64>()) {
        (Ok(l), Ok(h)) => l <= x && x <= h,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(diff: (f64, f64), score: Option<(f64, f64)>) -> Step {
        let interval = |(low, high): (f64, f64)| Interval {
            estimate: (low + high) / 2.0,
            low,
            high,
        };
        Step {
            share_diff: interval(diff),
            met_decided: 400,
            score: score.map(interval),
        }
    }

    /// A largest budget with `verdict`, share interval [0.60, 0.64], and
    /// a perfect-play limit of `limit` when given.
    fn top(verdict: Verdict, limit: Option<f64>) -> CurveRow {
        between(verdict, limit.map(|x| (x, x)))
    }

    /// The same with a limit known to lie in `bounds`.
    fn between(verdict: Verdict, bounds: Option<(f64, f64)>) -> CurveRow {
        CurveRow {
            variant: "v".into(),
            rules: String::new(),
            agent: "alphabeta:depth=64,nodes=200000".into(),
            nodes: Some(200_000),
            opening_plies: 4,
            games: 2200,
            decided: 2200,
            p1_win_rate: "0.620000".into(),
            p1_win_rate_low: "0.600000".into(),
            p1_win_rate_high: "0.640000".into(),
            length_mean: String::new(),
            distinct_games: String::new(),
            rating: None,
            limit: bounds.map(|(lo, hi)| crate::files::strength_curve::Limit {
                share: (lo == hi).then_some(lo),
                bounds: Some((lo, hi)),
                draws: 0.0,
                unknown: hi - lo,
                openings: 1,
                exact: String::new(),
                source: crate::files::strength_curve::LimitSource::Proved,
            }),
            limit_gap: None,
            step: None,
            verdict: Some(verdict),
        }
    }

    #[test]
    fn a_flat_curve_whose_interval_holds_the_limit_is_at_it() {
        let mut rows = vec![
            top(Verdict::Open, Some(0.61)),
            top(Verdict::Converged, Some(0.64)),
            top(Verdict::Open, Some(0.65)),
            top(Verdict::Open, None),
            // A share still moving stays moving, even at the limit.
            top(Verdict::MovingUp, Some(0.62)),
        ];
        settle_at_limits(&mut rows);
        let got: Vec<Option<Verdict>> = rows.iter().map(|r| r.verdict).collect();
        assert_eq!(
            got,
            [
                Verdict::AtLimit,
                Verdict::AtLimit,
                Verdict::Open,
                Verdict::Open,
                Verdict::MovingUp
            ]
            .map(Some)
        );
    }

    /// A limit known only to an interval settles the curve when the
    /// share's interval holds all of it; its distance is the two
    /// intervals apart.
    #[test]
    fn an_interval_limit_is_at_it_only_when_held_whole() {
        let mut rows = vec![
            between(Verdict::Open, Some((0.61, 0.63))),
            between(Verdict::Open, Some((0.63, 0.65))),
            between(Verdict::MovingUp, Some((0.70, 0.72))),
        ];
        settle_at_limits(&mut rows);
        let got: Vec<Option<Verdict>> = rows.iter().map(|r| r.verdict).collect();
        assert_eq!(
            got,
            [Verdict::AtLimit, Verdict::Open, Verdict::MovingUp].map(Some)
        );
        let gap = rows[2].limit_gap.unwrap();
        assert!((gap.0 - (0.60 - 0.72)).abs() < 1e-12 && (gap.1 - (0.64 - 0.70)).abs() < 1e-12);
        let mut none = vec![top(Verdict::Open, None)];
        settle_at_limits(&mut none);
        assert_eq!(none[0].limit_gap, None);
    }

    #[test]
    fn a_verdict_reads_the_share_first_then_the_strength() {
        let stronger = Some((0.53, 0.63));
        let level = Some((0.45, 0.55));
        assert_eq!(verdict(&step((0.01, 0.06), level)), Verdict::MovingUp);
        assert_eq!(
            verdict(&step((-0.06, -0.01), stronger)),
            Verdict::MovingDown
        );
        assert_eq!(verdict(&step((-0.03, 0.03), stronger)), Verdict::Converged);
        assert_eq!(verdict(&step((-0.03, 0.03), level)), Verdict::Open);
        // Never met: strength unknown, so not converged.
        assert_eq!(verdict(&step((-0.03, 0.03), None)), Verdict::Open);
        // A score interval touching 1/2 is not measurably stronger.
        assert_eq!(
            verdict(&step((-0.03, 0.03), Some((0.5, 0.6)))),
            Verdict::Open
        );
    }
}
