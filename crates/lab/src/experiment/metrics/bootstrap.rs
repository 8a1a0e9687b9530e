//! The 95% intervals of metrics.csv: a percentile bootstrap of the mean
//! over a cell's per-game values (issue 24, item 3).
//!
//! Several metrics are skewed or pile up at a bound (decisiveness_moves
//! near 1, repetition at 0, lead_change in short games), where mean ± t·se
//! is right only asymptotically. A bootstrap follows the statistic's own
//! sampling distribution, but needs the values, which do not merge. So each
//! cell keeps, per metric, a histogram of its per-game values rounded to
//! [`BIN`]: counts merge exactly (shards, resume, threads give the same
//! histogram), and the bootstrap resamples from it with a generator seeded
//! from the experiment's seed, the cell and the metric, so the interval is
//! the same bytes for any split of the run.
//!
//! Rounding moves each value by at most BIN/2, so the resampled means are
//! those of the rounded sample; the interval is shifted by the exact mean
//! minus the rounded sample's mean, which puts it around the exact mean
//! (the one metrics.csv reports) and leaves an error of at most BIN/2 in
//! its width's position, far under any interval's width at the games a
//! cell plays.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rng::{below, game_seed, name_hash, rng_from_seed};

/// The bin of the histograms, in the metric's unit.
pub const BIN: f64 = 1e-3;

/// Bootstrap resamples per interval: the 2.5% and 97.5% points are the
/// 25th and 976th smallest resampled means.
pub const RESAMPLES: usize = 1000;

/// Per-game values rounded to [`BIN`]: bin (value / BIN rounded half away
/// from zero) to games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Histogram(pub BTreeMap<i64, u64>);

impl Histogram {
    pub fn add(&mut self, v: f64) {
        *self.0.entry((v / BIN).round() as i64).or_insert(0) += 1;
    }

    pub fn merge(&mut self, o: &Histogram) {
        for (&k, &n) in &o.0 {
            *self.0.entry(k).or_insert(0) += n;
        }
    }

    pub fn games(&self) -> u64 {
        self.0.values().sum()
    }

    /// The 95% percentile-bootstrap interval of the mean, around
    /// `exact_mean` (module doc), clamped to `range`; `None` under 2
    /// values. `seed` names the cell and metric.
    pub fn interval(&self, exact_mean: f64, range: (f64, f64), seed: u64) -> Option<(f64, f64)> {
        let n = self.games();
        if n < 2 {
            return None;
        }
        let bins: Vec<i64> = self.0.keys().copied().collect();
        let mut upto = Vec::with_capacity(bins.len());
        let mut c = 0u64;
        for &k in self.0.values() {
            c += k;
            upto.push(c);
        }
        let total: i128 = self
            .0
            .iter()
            .map(|(&b, &k)| i128::from(b) * k as i128)
            .sum();
        let sample_mean = total as f64 / n as f64 * BIN;
        let mut rng = rng_from_seed(seed);
        let mut means: Vec<i128> = (0..RESAMPLES)
            .map(|_| {
                (0..n)
                    .map(|_| {
                        let r = below(&mut rng, n as usize) as u64;
                        i128::from(bins[upto.partition_point(|&u| u <= r)])
                    })
                    .sum()
            })
            .collect();
        // Integer sums: the order statistics are exact, whatever the
        // platform's float rounding.
        means.sort_unstable();
        let at = |i: usize| means[i] as f64 / n as f64 * BIN - sample_mean + exact_mean;
        let lo = at(RESAMPLES * 25 / 1000 - 1);
        let hi = at(RESAMPLES * 975 / 1000);
        Some((lo.max(range.0), hi.min(range.1)))
    }
}

/// The bootstrap seed of one metric of one cell: the experiment's seed,
/// the variant's name, the matchup's label and the metric's column name,
/// mixed as a game's seed is ([`game_seed`]), with the master seed
/// salted and the metric in the game index's place.
pub fn seed(master: u64, variant: &str, matchup: &str, metric: &str) -> u64 {
    game_seed(
        master ^ name_hash("metrics.csv bootstrap"),
        variant,
        matchup,
        name_hash(metric),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_one_sample_follows_the_binomial() {
        // 95 zeros and 5 ones: a resample's mean is Binomial(100, 0.05)/100,
        // whose 2.5% point is 1 (P(X <= 0) = 0.006, P(X <= 1) = 0.037,
        // P(X <= 2) = 0.118) and whose 97.5% point is 10 (P(X <= 9) =
        // 0.972, P(X <= 10) = 0.989). Of 1000 resamples about 37 (sd 6)
        // are <= 1 and 972 (sd 5) <= 9, so the 25th is 1 or 2 and the
        // 976th 9 or 10; never 0 or 11. The normal guess is 0.05 ± 0.043.
        let mut h = Histogram::default();
        (0..95).for_each(|_| h.add(0.0));
        (0..5).for_each(|_| h.add(1.0));
        for seed in 1..=5 {
            let (lo, hi) = h.interval(0.05, (0.0, 1.0), seed).unwrap();
            assert!(
                (lo - 0.01).abs() < 1e-12 || (lo - 0.02).abs() < 1e-12,
                "{lo} {hi}"
            );
            assert!(
                (hi - 0.09).abs() < 1e-12 || (hi - 0.10).abs() < 1e-12,
                "{lo} {hi}"
            );
        }
    }

    #[test]
    fn the_interval_depends_on_the_counts_alone() {
        let (mut a, mut b, mut c) = (
            Histogram::default(),
            Histogram::default(),
            Histogram::default(),
        );
        for i in 0..50 {
            let v = f64::from(i % 7) / 7.0;
            a.add(v);
            if i < 20 { b.add(v) } else { c.add(v) }
        }
        b.merge(&c);
        assert_eq!(a, b);
        assert_eq!(
            a.interval(0.4, (0.0, 1.0), 3),
            b.interval(0.4, (0.0, 1.0), 3)
        );
        // Every value equal: no spread, the interval is the mean.
        let mut d = Histogram::default();
        (0..10).for_each(|_| d.add(0.25));
        assert_eq!(d.interval(0.25, (0.0, 1.0), 1), Some((0.25, 0.25)));
        assert_eq!(Histogram::default().interval(0.0, (0.0, 1.0), 1), None);
    }
}
