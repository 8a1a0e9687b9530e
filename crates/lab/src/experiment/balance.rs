//! Player 1's share of the decided games tested against one half:
//! summary.csv's `p1_vs_half_p` and, where an experiment declares
//! `balance_margin = m`, the two one-sided tests of equivalence (TOST)
//! and their verdict (docs/OUTPUTS.md, summary.csv).
//!
//! Every test here is the exact binomial test of the w₁ wins of player 1
//! among the d decided games, not the normal approximation of
//! comparison.csv: a verdict of "balanced" is a claim, and an
//! approximation makes it too readily on the few dozen decided games a
//! small cell can have, where the exact test keeps its level at any d.

use crate::engine::Status;
use crate::rules::Rules;

/// The level of every test here: the one-sided tests of the TOST each at
/// 5%, the two sides of "unbalanced" each at 2.5%.
pub const ALPHA: f64 = 0.05;

/// P(X ≥ k) for X ~ Binomial(n, p).
pub fn at_least(k: u64, n: u64, p: f64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    beta_regularized(k as f64, (n - k + 1) as f64, p)
}

/// P(X ≤ k) for X ~ Binomial(n, p).
pub fn at_most(k: u64, n: u64, p: f64) -> f64 {
    if k >= n {
        return 1.0;
    }
    beta_regularized((n - k) as f64, (k + 1) as f64, 1.0 - p)
}

/// The two-sided exact binomial p-value of `wins` of `decided` against a
/// share of one half: twice the smaller tail, at most 1 (the distribution
/// is symmetric, so this is also the sum of the outcomes no likelier than
/// the one seen). `None` with no decided game.
pub fn vs_half(wins: u64, decided: u64) -> Option<f64> {
    (decided > 0).then(|| {
        let lower = at_most(wins.min(decided - wins), decided, 0.5);
        (2.0 * lower).min(1.0)
    })
}

/// What the TOST says of a cell's share against a margin m.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both one-sided tests reject at 5%: the share is within (½ − m,
    /// ½ + m).
    Balanced,
    /// The share is shown beyond the margin: the one-sided test of
    /// "share ≤ ½ + m" (or of "share ≥ ½ − m") rejects at 2.5%.
    Unbalanced,
    /// Neither: too few decided games to tell, or a share near the edge.
    Undetermined,
}

impl Verdict {
    /// As summary.csv's `balance_verdict` writes it against the margin
    /// `m`: `balanced within 0.02`, `unbalanced`, `undetermined`. The
    /// margin is in the words of the one verdict that claims balance, so
    /// that "balanced" is never quoted without the margin that makes it
    /// true; it is Rust's shortest text that reads back as `m`, the same
    /// on every platform.
    pub fn text(self, m: f64) -> String {
        match self {
            Verdict::Balanced => format!("balanced within {m}"),
            Verdict::Unbalanced => "unbalanced".into(),
            Verdict::Undetermined => "undetermined".into(),
        }
    }
}

/// A cell's share judged against a margin: the TOST's two one-sided
/// p-values (`None` with no decided game) and the verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Equivalence {
    /// P(X ≥ w₁) at share ½ − m: the p-value of "share ≤ ½ − m".
    pub low_p: Option<f64>,
    /// P(X ≤ w₁) at share ½ + m: the p-value of "share ≥ ½ + m".
    pub high_p: Option<f64>,
    pub verdict: Verdict,
}

/// `wins` of `decided` judged against the margin `m` (in (0, ½), as the
/// experiment file is checked).
pub fn equivalence(wins: u64, decided: u64, m: f64) -> Equivalence {
    if decided == 0 {
        return Equivalence {
            low_p: None,
            high_p: None,
            verdict: Verdict::Undetermined,
        };
    }
    let (low, high) = (0.5 - m, 0.5 + m);
    let low_p = at_least(wins, decided, low);
    let high_p = at_most(wins, decided, high);
    // The two sides of "beyond the margin" share the 5%, so a share
    // inside the margin is called unbalanced at most 5% of the time.
    let below = at_most(wins, decided, low) < ALPHA / 2.0;
    let above = at_least(wins, decided, high) < ALPHA / 2.0;
    let verdict = if low_p < ALPHA && high_p < ALPHA {
        Verdict::Balanced
    } else if below || above {
        Verdict::Unbalanced
    } else {
        Verdict::Undetermined
    };
    Equivalence {
        low_p: Some(low_p),
        high_p: Some(high_p),
        verdict,
    }
}

/// The regularized incomplete beta function I_x(a, b), a and b above 0,
/// by its continued fraction (Lentz's method) on the side of x where the
/// fraction converges fast; the other side as 1 − I_{1−x}(b, a), which
/// only happens where the value is at least about one half, so a small
/// tail is never the difference of two numbers near 1.
fn beta_regularized(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    // libm rather than std, as everywhere a CSV's bytes depend on it: the
    // same bits on every platform.
    let ln_beta = libm::lgamma(a) + libm::lgamma(b) - libm::lgamma(a + b);
    let front = libm::exp(a * libm::log(x) + b * libm::log1p(-x) - ln_beta);
    if x < (a + 1.0) / (a + b + 2.0) {
        front * continued_fraction(a, b, x) / a
    } else {
        1.0 - front * continued_fraction(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of I_x(a, b) (Numerical Recipes' `betacf`),
/// evaluated by the modified Lentz method. It takes about √(max(a, b))
/// terms, so even a cell of 10¹² decided games takes a few million.
fn continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const MAX_TERMS: u32 = 100_000_000;
    let nudge = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / nudge(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..MAX_TERMS {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let even = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / nudge(1.0 + even * d);
        c = nudge(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / nudge(1.0 + odd * d);
        c = nudge(1.0 + odd / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

/// The positions a search for a decided game may hold before it gives up
/// (a few milliseconds).
const SEARCH_POSITIONS: usize = 1 << 16;

/// Random games tried before the search: most variants end one of them
/// with a winner at once.
const PLAYOUTS: u64 = 16;

/// Whether a game of `rules` can end with a winner before its ply limit:
/// `Some(true)` when one was found (a random game, else a line found by
/// search), `Some(false)` when every line of play up to the ply limit was
/// searched and none has a winner, `None` when the search gave up first
/// (a long ply limit: then it may well be possible).
pub fn can_be_decided(rules: &Rules) -> Option<bool> {
    let random = crate::agents::AgentSpec::Random;
    for seed in 0..PLAYOUTS {
        let game = crate::game::play_game(rules, &random, &random, 0, seed, None);
        if matches!(game.status, Status::Won(_)) {
            return Some(true);
        }
    }
    let start = rules.start();
    match rules.status(&start) {
        Status::Won(_) => return Some(true),
        Status::Ongoing => {}
        _ => return Some(false),
    }
    // Breadth first, one ply at a time: positions count their plies, so a
    // set per ply merges transpositions without mixing depths. The layer
    // keeps its order of discovery, so the search is the same every time.
    let mut layer = vec![start];
    let mut seen = 0;
    while !layer.is_empty() {
        let mut known = std::collections::HashSet::new();
        let mut next = Vec::new();
        for pos in &layer {
            for &m in rules.legal_moves(pos).iter() {
                let mut after = *pos;
                if rules.play(&mut after, m).is_err() {
                    continue;
                }
                match rules.status(&after) {
                    Status::Won(_) => return Some(true),
                    Status::Ongoing if known.insert(after) => next.push(after),
                    _ => {}
                }
            }
            if seen + next.len() > SEARCH_POSITIONS {
                return None;
            }
        }
        seen += next.len();
        layer = next;
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, rel: f64) {
        assert!(
            (got - want).abs() <= rel * want.abs(),
            "{got} is not {want} within {rel:e} of it"
        );
    }

    // The values below are exact sums of binomial terms, computed apart
    // with Python's integers and fractions (Σ comb(n, j) pʲ (1 − p)ⁿ⁻ʲ
    // with p a Fraction), rounded to doubles.

    #[test]
    fn the_test_against_one_half_is_the_exact_binomial_test() {
        // 7 of 10 by hand: 2 · (120 + 45 + 10 + 1) / 1024 = 0.34375.
        close(vs_half(7, 10).unwrap(), 0.34375, 1e-12);
        close(vs_half(3, 10).unwrap(), 0.34375, 1e-12);
        // 0 of 5: 2 / 32; 3 of 6: twice a tail above one half, capped.
        close(vs_half(0, 5).unwrap(), 0.0625, 1e-12);
        assert_eq!(vs_half(3, 6), Some(1.0));
        assert_eq!(vs_half(0, 0), None);
        // katro-6x6's strong self-play, 2,144 of 4,400 (the review of
        // issue 45 quotes p = 0.094); its five strong cells pooled,
        // 7,765 of 15,840 (p = 0.014); the diagonal's, 3,645 of 7,700.
        close(vs_half(2144, 4400).unwrap(), 0.094_239_720_997_934_64, 1e-9);
        close(
            vs_half(7765, 15840).unwrap(),
            0.014_079_403_635_170_278,
            1e-9,
        );
        close(
            vs_half(3645, 7700).unwrap(),
            3.130_993_292_887_649_4e-6,
            1e-8,
        );
        close(vs_half(60, 100).unwrap(), 0.056_887_933_640_980_79, 1e-10);
    }

    #[test]
    fn the_two_one_sided_tests_match_exact_sums() {
        // (wins, decided, margin, low_p, high_p, verdict)
        let cases = [
            (
                2144,
                4400,
                0.02,
                0.170_919_175_445_807_1,
                7.522_092_493_540_6e-6,
                Verdict::Undetermined,
            ),
            (
                5,
                10,
                0.1,
                0.366_896_742_4,
                0.366_896_742_4,
                Verdict::Undetermined,
            ),
            (
                2200,
                4400,
                0.02,
                0.004_152_209_872_463_178,
                0.004_152_209_872_463_178,
                Verdict::Balanced,
            ),
            (
                520,
                1000,
                0.01,
                0.031_022_108_853_554_713,
                0.746_674_756_173_806_9,
                Verdict::Undetermined,
            ),
            (
                600,
                1000,
                0.05,
                1.281_071_342_997_764_1e-21,
                0.999_364_596_144_280_1,
                Verdict::Unbalanced,
            ),
        ];
        for (w, d, m, low, high, verdict) in cases {
            let e = equivalence(w, d, m);
            close(e.low_p.unwrap(), low, 1e-8);
            close(e.high_p.unwrap(), high, 1e-8);
            assert_eq!(e.verdict, verdict, "{w} of {d} within {m}");
        }
        // 600 of 1,000 is beyond 0.55 because P(X ≥ 600) at 0.55 is
        // 0.000793 < 0.025 (exact sum: 0.0007933693696643445).
        close(at_least(600, 1000, 0.55), 7.933_693_696_643_445e-4, 1e-8);
        // The one verdict that claims balance carries its margin.
        assert_eq!(Verdict::Balanced.text(0.02), "balanced within 0.02");
        assert_eq!(Verdict::Unbalanced.text(0.02), "unbalanced");
        assert_eq!(Verdict::Undetermined.text(0.1), "undetermined");
        let none = equivalence(0, 0, 0.02);
        assert_eq!((none.low_p, none.high_p), (None, None));
        assert_eq!(none.verdict, Verdict::Undetermined);
    }

    #[test]
    fn tails_are_whole_at_the_ends_and_add_up_in_between() {
        assert_eq!(at_least(0, 7, 0.3), 1.0);
        assert_eq!(at_least(8, 7, 0.3), 0.0);
        assert_eq!(at_most(7, 7, 0.3), 1.0);
        // P(X = 7) at 0.3 by hand: 0.3⁷ = 0.0002187.
        close(at_least(7, 7, 0.3), 2.187e-4, 1e-12);
        close(at_most(0, 7, 0.3), 0.7f64.powi(7), 1e-12);
        for n in [1u64, 2, 9, 40, 333] {
            for k in 0..=n {
                for p in [0.02, 0.31, 0.5, 0.77] {
                    // P(X ≤ k) + P(X ≥ k + 1) = 1.
                    let sum = at_most(k, n, p) + at_least(k + 1, n, p);
                    assert!((sum - 1.0).abs() < 1e-12, "n {n}, k {k}, p {p}: {sum}");
                }
            }
        }
    }

    #[test]
    fn a_share_is_never_both_balanced_and_unbalanced() {
        // Every count of up to 120 decided games at several margins: the
        // verdicts are exclusive by construction (the tails at one share
        // add up to more than 1); here they are, and "balanced" needs
        // the share inside the margin.
        for d in 1..=120u64 {
            for w in 0..=d {
                for m in [0.01, 0.05, 0.1, 0.2, 0.49] {
                    let e = equivalence(w, d, m);
                    let share = w as f64 / d as f64;
                    match e.verdict {
                        Verdict::Balanced => assert!((share - 0.5).abs() < m),
                        Verdict::Unbalanced => assert!((share - 0.5).abs() > m),
                        Verdict::Undetermined => {}
                    }
                }
            }
        }
        // Enough games make it balanced or unbalanced.
        assert_eq!(equivalence(5000, 10000, 0.02).verdict, Verdict::Balanced);
        assert_eq!(equivalence(5600, 10000, 0.02).verdict, Verdict::Unbalanced);
        assert_eq!(equivalence(4400, 10000, 0.02).verdict, Verdict::Unbalanced);
    }

    #[test]
    fn a_variant_decides_games_unless_its_ply_limit_forbids_it() {
        let rules = crate::rules::preset("katro-4x4").unwrap();
        assert_eq!(can_be_decided(&rules), Some(true));
        // Two plies cannot take 16 seeds: every line ends at the limit.
        let short = rules.with_limits(Some(2), None).unwrap();
        assert_eq!(can_be_decided(&short), Some(false));
    }
}
