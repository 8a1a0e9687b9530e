//! Each level's step from its family's next smaller budget, the trend
//! over a family's budgets and the verdict it gives (docs/OUTPUTS.md,
//! "strength-curve.csv"; issue 45's rule): does the share move with the
//! budget, is it flat within a margin while strength was measurably
//! gained, and what do the budgets say pooled.

use crate::agents::AgentSpec;
use crate::experiment::interval::{Interval, Z95, wilson};
use crate::experiment::stats::{chi_square_sf, holm, two_sided_p, win_rate_difference};
use crate::files::strength_curve::{CurveRow, Pooled, Step, Trend, Verdict};

use super::SummaryRow;

/// The level below which a Holm-adjusted p-value is a finding.
const LEVEL: f64 = 0.05;

/// For each level (sorted by family, then budget, as `curve_rows` sorts
/// them): its step from the family's next smaller budget at its opening,
/// and on the largest budget of a family and opening, the trend over all
/// of them. Verdicts come later, from [`settle`], once every test of the
/// file is known.
pub(super) fn steps(
    mine: &[&SummaryRow],
    levels: &[(&SummaryRow, AgentSpec, u64)],
) -> Vec<(Option<Step>, Option<Trend>)> {
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
            let trend = largest
                .then(|| {
                    let family: Vec<(u64, u64, u64)> = (0..=i)
                        .filter(|&j| same(j, i))
                        .map(|j| (levels[j].2, levels[j].0.p1_wins, levels[j].0.decided))
                        .collect();
                    trend(&family)
                })
                .flatten();
            (step, trend)
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
        p_value: d.p_value,
        holm: None,
    })
}

/// The trend of a family's levels, each (nodes, player 1's wins,
/// decided games): the weighted least-squares slope of the share wᵢ/dᵢ
/// on x = log₁₀ nodes, each level weighted by the inverse of its
/// binomial variance p̃(1 − p̃)/dᵢ, p̃ = (wᵢ + ½)/(dᵢ + 1) so that a share
/// of 0 or 1 keeps a finite weight. Slope b = Σwₓ(x − x̄)(y − ȳ) /
/// Σwₓ(x − x̄)², standard error 1/√Σwₓ(x − x̄)² (the variances taken as
/// known, as the binomial model gives them), interval b ± 1.96 se. With
/// the pooled share and Pearson's homogeneity test beside it. `None`
/// with fewer than two levels that decided a game.
pub(crate) fn trend(family: &[(u64, u64, u64)]) -> Option<Trend> {
    let points: Vec<(f64, f64, f64)> = family
        .iter()
        .filter(|(_, _, d)| *d > 0)
        .map(|&(n, w, d)| {
            let y = w as f64 / d as f64;
            let q = (w as f64 + 0.5) / (d as f64 + 1.0);
            ((n as f64).log10(), y, d as f64 / (q * (1.0 - q)))
        })
        .collect();
    if points.len() < 2 {
        return None;
    }
    let sw: f64 = points.iter().map(|p| p.2).sum();
    let xbar = points.iter().map(|p| p.2 * p.0).sum::<f64>() / sw;
    let ybar = points.iter().map(|p| p.2 * p.1).sum::<f64>() / sw;
    let sxx: f64 = points.iter().map(|p| p.2 * (p.0 - xbar).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = points
        .iter()
        .map(|p| p.2 * (p.0 - xbar) * (p.1 - ybar))
        .sum();
    let b = sxy / sxx;
    let se = 1.0 / sxx.sqrt();
    Some(Trend {
        slope: Interval {
            estimate: b,
            low: b - Z95 * se,
            high: b + Z95 * se,
        },
        p_value: two_sided_p(b / se),
        holm: None,
        margin: 0.0,
        pooled: pooled(family),
    })
}

/// The cells pooled, (nodes, wins, decided) each: Σw / Σd with its
/// Wilson interval, and Pearson's χ² that every cell has that share, on
/// k − 1 df (k the cells with decided games). `None` without one.
pub(crate) fn pooled(family: &[(u64, u64, u64)]) -> Option<Pooled> {
    let cells: Vec<(u64, u64)> = family
        .iter()
        .filter(|c| c.2 > 0)
        .map(|c| (c.1, c.2))
        .collect();
    let wins: u64 = cells.iter().map(|c| c.0).sum();
    let decided: u64 = cells.iter().map(|c| c.1).sum();
    let share = wilson(wins, decided)?;
    let p = wins as f64 / decided as f64;
    let chi_square = if p > 0.0 && p < 1.0 {
        (cells.iter())
            .map(|&(w, d)| {
                let e = d as f64 * p;
                (w as f64 - e).powi(2) / (e * (1.0 - p))
            })
            .sum()
    } else {
        0.0
    };
    let df = cells.len() as u64 - 1;
    Some(Pooled {
        share,
        decided,
        chi_square,
        df,
        p_value: if df > 0 {
            chi_square_sf(chi_square, df)
        } else {
            1.0
        },
    })
}

/// Reads the file's curves once every row has its step and trend: the
/// step and trend tests Holm-adjusted as one family (every test the file
/// reports), then each trend's verdict with margin `margin`, the pooled
/// share kept only where the trend is not moving, and the limits read
/// ([`settle_at_limits`]).
pub(super) fn settle(out: &mut [CurveRow], margin: f64) {
    let mut ps: Vec<Option<f64>> = Vec::new();
    for r in out.iter() {
        ps.push(r.step.as_ref().map(|s| s.p_value));
        ps.push(r.trend.as_ref().map(|t| t.p_value));
    }
    let adjusted = holm(&ps);
    for (r, pair) in out.iter_mut().zip(adjusted.chunks(2)) {
        if let Some(s) = r.step.as_mut() {
            s.holm = pair[0];
        }
        let gained = r.rating.and_then(|e| e.low).is_some_and(|low| low > 0.0);
        if let Some(t) = r.trend.as_mut() {
            t.holm = pair[1];
            t.margin = margin;
            let v = verdict(t, gained);
            if matches!(v, Verdict::MovingUp | Verdict::MovingDown) {
                t.pooled = None;
            }
            r.verdict = Some(v);
        }
    }
    settle_at_limits(out);
}

/// Reads a trend: a slope whose Holm-adjusted p-value is below 5% is
/// moving; one whose interval lies inside ±`margin` is converged only if
/// the largest budget `gained` measurable strength over the smallest.
fn verdict(t: &Trend, gained: bool) -> Verdict {
    if t.holm.is_some_and(|p| p < LEVEL) {
        if t.slope.estimate > 0.0 {
            Verdict::MovingUp
        } else {
            Verdict::MovingDown
        }
    } else if gained && -t.margin < t.slope.low && t.slope.high < t.margin {
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
    use crate::experiment::ratings::Estimate;
    use crate::rng::{rng_from_seed, unit};

    fn interval((low, high): (f64, f64)) -> Interval {
        Interval {
            estimate: (low + high) / 2.0,
            low,
            high,
        }
    }

    fn trend_of(slope: (f64, f64), holm: f64) -> Trend {
        Trend {
            slope: interval(slope),
            p_value: holm,
            holm: Some(holm),
            margin: 0.02,
            pooled: None,
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
            trend: None,
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

    /// Moving needs the Holm-adjusted p below 5%; converged needs the
    /// slope's interval inside ±m and a measured gain in strength; the
    /// rest is open.
    #[test]
    fn a_verdict_reads_the_trend_then_the_strength() {
        assert_eq!(
            verdict(&trend_of((0.01, 0.05), 0.01), false),
            Verdict::MovingUp
        );
        assert_eq!(
            verdict(&trend_of((-0.05, -0.01), 0.01), true),
            Verdict::MovingDown
        );
        // Its raw interval excludes 0, but not after Holm: not moving.
        assert_eq!(
            verdict(&trend_of((0.001, 0.015), 0.2), true),
            Verdict::Converged
        );
        assert_eq!(
            verdict(&trend_of((-0.015, 0.015), 0.9), true),
            Verdict::Converged
        );
        assert_eq!(
            verdict(&trend_of((-0.015, 0.015), 0.9), false),
            Verdict::Open
        );
        // An interval reaching the margin is not inside it.
        assert_eq!(verdict(&trend_of((-0.01, 0.02), 0.9), true), Verdict::Open);
        assert_eq!(verdict(&trend_of((-0.03, 0.01), 0.9), true), Verdict::Open);
    }

    /// Two levels: the slope is their difference over the budgets' log
    /// distance, its standard error √(v₁ + v₂) over the same; three:
    /// against a Python transcript of the formula.
    #[test]
    fn the_trend_by_hand() {
        let t = trend(&[(2_000, 500, 1000), (200_000, 560, 1000)]).unwrap();
        let v = |w: f64| {
            let q = (w + 0.5) / 1001.0;
            q * (1.0 - q) / 1000.0
        };
        let se = (v(500.0) + v(560.0)).sqrt() / 2.0;
        assert!((t.slope.estimate - 0.03).abs() < 1e-12, "{t:?}");
        assert!((t.slope.high - t.slope.estimate - Z95 * se).abs() < 1e-12);
        let t = trend(&[
            (2_000, 600, 1000),
            (20_000, 630, 1000),
            (200_000, 655, 1000),
        ])
        .unwrap();
        assert!((t.slope.estimate - 0.027_474_979_957_206_384).abs() < 1e-12);
        let se = (t.slope.high - t.slope.low) / (2.0 * Z95);
        assert!((se - 0.010_792_391_601_554_442).abs() < 1e-12);
        assert!((t.p_value - 0.010_903_604_387_361_751).abs() < 1e-12);
        assert_eq!(trend(&[(2_000, 600, 1000)]), None, "one level has no slope");
        assert_eq!(trend(&[(2_000, 6, 10), (20_000, 0, 0)]), None);
    }

    /// Pearson's χ² by hand: 30 of 100 and 50 of 100 pool to 0.4, χ² =
    /// 2 × 10² / (40 × 0.6) = 8.33 on 1 df, p = erfc(√(χ²/2)).
    #[test]
    fn the_pooled_share_and_its_homogeneity_by_hand() {
        let p = pooled(&[(2_000, 30, 100), (20_000, 50, 100), (200_000, 0, 0)]).unwrap();
        assert_eq!((p.decided, p.df), (200, 1));
        assert!((p.share.estimate - 0.4).abs() < 1e-12);
        assert!((p.chi_square - 25.0 / 3.0).abs() < 1e-12);
        assert!((p.p_value - 0.003_892_417_122_778_627).abs() < 1e-12);
        let all = pooled(&[(1, 10, 10), (2, 20, 20)]).unwrap();
        assert_eq!((all.chi_square, all.p_value), (0.0, 1.0));
        assert_eq!(pooled(&[(1, 0, 0)]), None);
    }

    /// The slope's 95% interval covers the true slope in 93–97% of 2,000
    /// synthetic curves: three budgets a decade apart, 1,000 decided games
    /// each, the true share 0.55 + 0.02 a decade (and a flat one at 0.7).
    #[test]
    fn the_slopes_interval_covers_the_true_slope() {
        let mut rng = rng_from_seed(0x51_0e);
        for (base, slope) in [(0.55, 0.02), (0.7, 0.0)] {
            let redraws = 2000;
            let mut covered = 0;
            for _ in 0..redraws {
                let family: Vec<(u64, u64, u64)> = (0..3)
                    .map(|k| {
                        let p = base + slope * k as f64;
                        let wins = (0..1000).filter(|_| unit(&mut rng) < p).count();
                        (2_000 * 10u64.pow(k), wins as u64, 1000)
                    })
                    .collect();
                let t = trend(&family).unwrap();
                covered += u32::from(t.slope.low <= slope && slope <= t.slope.high);
            }
            let rate = f64::from(covered) / f64::from(redraws);
            assert!((0.93..=0.97).contains(&rate), "{base} + {slope}: {rate}");
        }
    }

    /// settle adjusts the step and trend tests as one family, reads each
    /// trend, and keeps the pooled share only where it is not moving.
    #[test]
    fn settle_adjusts_the_files_tests_together() {
        let step = |p: f64| Step {
            share_diff: interval((-0.01, 0.01)),
            met_decided: 400,
            score: None,
            p_value: p,
            holm: None,
        };
        let moving = trend(&[(2_000, 500, 1000), (200_000, 600, 1000)]).unwrap();
        let flat = trend(&[(2_000, 500, 4000), (200_000, 501, 4000)]).unwrap();
        assert!(moving.pooled.is_some() && flat.pooled.is_some());
        let mut rows = vec![top(Verdict::Open, None), top(Verdict::Open, None)];
        rows[0].step = Some(step(0.04));
        rows[0].trend = Some(moving);
        rows[1].step = Some(step(0.5));
        rows[1].trend = Some(flat);
        rows[1].rating = Some(Estimate {
            value: Some(60.0),
            low: Some(20.0),
            high: Some(100.0),
        });
        settle(&mut rows, 0.02);
        // Four tests: the moving trend's p is the smallest, the step's
        // 0.04 second, so it is multiplied by 3.
        let adjusted = rows[0].step.unwrap().holm.unwrap();
        assert!((adjusted - 0.12).abs() < 1e-12, "{adjusted}");
        assert_eq!(rows[1].step.unwrap().holm, Some(1.0));
        assert_eq!(rows[0].verdict, Some(Verdict::MovingUp));
        assert_eq!(rows[0].trend.unwrap().pooled, None);
        assert_eq!(rows[1].verdict, Some(Verdict::Converged));
        assert!(rows[1].trend.unwrap().pooled.is_some());
        assert_eq!(rows[1].trend.unwrap().margin, 0.02);
    }
}
