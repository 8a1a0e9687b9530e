//! One 95% interval type for every statistic katro reports with one: the
//! Wilson intervals of win rates (`stats`, `judge`) and the design
//! metrics' intervals (`metrics`), and the normal quantile [`Z95`] the
//! ratings use too. It sits below the statistics modules, so that
//! `metrics` need not import `stats` (which holds the metrics' aggregate).

/// The 0.975 quantile of the standard normal distribution: the multiplier
/// of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn width(&self) -> f64 {
        self.high - self.low
    }
}

/// The 95% Wilson score interval of a proportion of `k` successes in `n`
/// trials; `None` when `n` is 0.
pub fn wilson(k: u64, n: u64) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    Some(wilson_at(k as f64 / n, n))
}

/// The 95% Wilson score interval of a proportion `p` at a sample size
/// `n` that need not be whole (an effective size, as `katro judge`'s
/// design-effect correction gives); `n` must be above 0.
pub fn wilson_at(p: f64, n: f64) -> Interval {
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        estimate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computation() {
        // 7 of 10, z = 1.959964, z² = 3.841459:
        // centre = (0.7 + 0.1920730) / 1.3841459 = 0.6444934,
        // half = 1.959964 / 1.3841459 × √(0.021 + 0.0096036) = 0.2477153,
        // giving [0.396778, 0.892209] (textbook value 0.3968–0.8922).
        let w = wilson(7, 10).unwrap();
        assert!((w.low - 0.396_778).abs() < 1e-6, "{w:?}");
        assert!((w.high - 0.892_209).abs() < 1e-6, "{w:?}");
        // 0 of 5: centre and half-width are both z²/(2n) / (1 + z²/n), so
        // low is 0 and high = 0.768292 / 1.768292 = 0.434482.
        let w = wilson(0, 5).unwrap();
        assert_eq!(w.low, 0.0);
        assert!((w.high - 0.434_482).abs() < 1e-6, "{w:?}");
        assert!(wilson(0, 0).is_none());
    }
}
