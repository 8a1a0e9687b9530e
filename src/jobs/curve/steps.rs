//! Each level's step from its family's next smaller budget, and the
//! verdict on the family's largest (docs/OUTPUTS.md, "strength-curve.csv";
//! issue 30's rule): did the share move, and did the larger budget play
//! measurably better where the two met.

use crate::agents::AgentSpec;
use crate::experiment::interval::{Interval, wilson};
use crate::experiment::stats::difference;
use crate::files::strength_curve::{Step, Verdict};

use super::SummaryRow;

/// For each level (sorted by family, budget and opening, as
/// `curve_rows` sorts them): its step from the level before it when that
/// one is of the same family and opening, and on the last of such a run,
/// the verdict its step gives.
pub(super) fn steps(
    mine: &[&SummaryRow],
    levels: &[(&SummaryRow, AgentSpec, u64)],
) -> Vec<(Option<Step>, Option<Verdict>)> {
    let same = |i: usize, j: usize| {
        levels[i].1 == levels[j].1 && levels[i].0.opening_plies == levels[j].0.opening_plies
    };
    (0..levels.len())
        .map(|i| {
            let step = (i > 0 && same(i - 1, i))
                .then(|| step(mine, levels[i - 1].0, levels[i].0))
                .flatten();
            let last = i + 1 == levels.len() || !same(i, i + 1);
            let verdict = step.as_ref().filter(|_| last).map(Verdict::of);
            (step, verdict)
        })
        .collect()
}

/// `upper`'s step from `lower`, two self-play cells of one opening: the
/// difference of their player 1 shares (as comparison.csv's
/// `win_rate_diff`), and `upper`'s share of the decided games of the
/// variant's cells where the two agents met, in either seat. `None` when
/// either cell has no decided game.
fn step(mine: &[&SummaryRow], lower: &SummaryRow, upper: &SummaryRow) -> Option<Step> {
    if lower.decided == 0 || upper.decided == 0 {
        return None;
    }
    let share = |r: &SummaryRow| r.p1_wins as f64 / r.decided as f64;
    let (a, b) = (share(upper), share(lower));
    let d = difference(
        (a, a * (1.0 - a), upper.decided),
        (b, b * (1.0 - b), lower.decided),
    );
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
        decided += r.p1_wins + r.p2_wins;
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
