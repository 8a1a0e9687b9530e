//! Per-cell aggregates that merge exactly, and the statistics computed from
//! them: Wilson intervals, advantage and length comparisons.
//!
//! An [`Aggregate`] holds only integers, so merging block aggregates in any
//! order, on any number of threads or machines, gives the same bits; every
//! float in the outputs is computed once, at the end, from those integers.
//! The one part that is not a sum, the sketch of distinct games
//! ([`DistinctSketch`]), is a set of integers whose merge is a union, so it
//! too is the same whatever the order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::Status;
use crate::experiment::balance;
// One interval for every statistic; its callers have found it here.
pub use crate::experiment::interval::{Interval, Z95, wilson, wilson_at};

pub use crate::engine::record::{GameRecord, status_pair};

/// How many hashes a [`DistinctSketch`] keeps to estimate from: below this
/// many distinct games a cell's count is exact.
pub const SKETCH_K: usize = 4096;

/// The distinct game hashes of a cell, as a KMV ("k minimum values")
/// sketch: the `SKETCH_K + 1` smallest distinct hashes, sorted. Its size
/// is bounded whatever the number of games, so a cell of billions of games
/// takes no more memory than one of thousands.
///
/// While the cell has at most `SKETCH_K` distinct games the sketch holds
/// them all and the count is exact. Beyond, with h the `SKETCH_K`-th
/// smallest hash as a fraction of 2⁶⁴, the estimate is (k - 1) / h, with a
/// relative standard error of about 1 / √(k - 2) (1.56% for k = 4096).
/// The one extra value kept says "there are more than k", so exact and
/// estimated counts are told apart without a flag. Merging is a union
/// keeping the smallest values: exact, associative and commutative.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DistinctSketch(Vec<u64>);

/// A cell's number of distinct games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Distinct {
    /// Counted exactly (up to 64-bit hash collisions, about n²/2⁶⁵:
    /// 3·10⁻⁸ for a million distinct games).
    Exact(u64),
    /// Estimated by the sketch: the estimate (k - 1) / h and its standard
    /// error, estimate / √(k - 2).
    Estimate { value: f64, se: f64 },
}

impl DistinctSketch {
    const CAP: usize = SKETCH_K + 1;

    pub fn insert(&mut self, h: u64) {
        let v = &mut self.0;
        if v.len() == Self::CAP && v.last().is_some_and(|&m| h >= m) {
            return;
        }
        if let Err(i) = v.binary_search(&h) {
            v.insert(i, h);
            v.truncate(Self::CAP);
        }
    }

    pub fn merge(&mut self, o: &DistinctSketch) {
        let (a, b) = (&self.0, &o.0);
        let mut out = Vec::with_capacity((a.len() + b.len()).min(Self::CAP));
        let (mut i, mut j) = (0, 0);
        while out.len() < Self::CAP {
            let next = match (a.get(i).copied(), b.get(j).copied()) {
                (Some(x), Some(y)) => {
                    i += usize::from(x <= y);
                    j += usize::from(y <= x);
                    x.min(y)
                }
                (Some(x), None) => {
                    i += 1;
                    x
                }
                (None, Some(y)) => {
                    j += 1;
                    y
                }
                (None, None) => break,
            };
            out.push(next);
        }
        self.0 = out;
    }

    /// The number of distinct hashes inserted: exact up to `SKETCH_K`,
    /// estimated beyond.
    pub fn count(&self) -> Distinct {
        if self.0.len() <= SKETCH_K {
            return Distinct::Exact(self.0.len() as u64);
        }
        let k = SKETCH_K as f64;
        // The k-th smallest hash as a point of (0, 1]; +1 keeps it above 0.
        let h = (self.0[SKETCH_K - 1] as f64 + 1.0) / 2f64.powi(64);
        let value = (k - 1.0) / h;
        Distinct::Estimate {
            value,
            se: value / (k - 2.0).sqrt(),
        }
    }

    /// Whether the sketch holds a well-formed set: sorted, no repeats, at
    /// most `SKETCH_K + 1` values. A damaged checkpoint fails this.
    pub fn is_well_formed(&self) -> bool {
        self.0.len() <= Self::CAP && self.0.windows(2).all(|w| w[0] < w[1])
    }
}

/// Everything the outputs need about the games of one cell, as exact
/// integers. `merge` is associative and commutative, so block aggregates
/// can be combined in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aggregate {
    pub games: u64,
    /// Games won by player 1 (index 0) and player 2 (index 1).
    pub wins: [u64; 2],
    pub ply_limit: u64,
    pub endless_move: u64,
    pub lap_limit: u64,
    /// Game length in plies: sum and sum of squares.
    pub plies: u128,
    pub plies_squared: u128,
    pub plies_min: Option<u32>,
    pub plies_max: Option<u32>,
    /// Games by length in plies, for exact percentiles.
    pub length_histogram: BTreeMap<u32, u64>,
    pub laps: u128,
    pub max_laps_in_move: u64,
    pub max_relays_in_move: u64,
    pub captures: [u128; 2],
    pub seeds_captured: [u128; 2],
    pub seeds_sown: u128,
    pub legal_moves: u128,
    pub choice_turns: u128,
    /// The games' distinct move sequences.
    pub distinct: DistinctSketch,
    /// The design metrics of a cell that records them (metrics.csv); left
    /// out of stored states otherwise, so they read as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Box<crate::experiment::metrics::MetricsAggregate>>,
}

/// Something a reader of a cell's numbers must know: `kind` is
/// `repeats` (the cell holds fewer distinct games than games),
/// `few-decided` (some games had no winner, and fewer than half, or fewer
/// than 100, had one) or `few-games` (every game had a winner, but there
/// are fewer than 100): one of [`WARNING_KINDS`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellWarning {
    pub kind: &'static str,
    pub message: String,
}

/// Below this many decided games a cell is warned about whatever its share.
pub const MIN_DECIDED: u64 = 100;

/// How much wider a cell's interval would be, computed from its distinct
/// games alone (√(games / distinct_games) − 1), before its `repeats`
/// warning is given: 10%, i.e. games more than 1.21 times the distinct
/// games. 1,998 distinct games of 2,000 widen it by 0.05%.
pub const REPEATS_WIDER: f64 = 0.10;

/// Every warning kind, in the order a cell lists them, with what it says
/// of any cell that has it: the words a console line uses for many cells
/// at once, when each cell's own numbers are left to the table.
pub const WARNING_KINDS: [(&str, &str); 3] = [
    (
        "repeats",
        "far fewer distinct games than games (the distinct column, docs/OUTPUTS.md's \
         `distinct_games`): repeated games sample fewer lines of play than the count \
         suggests; counted once each, they would widen the interval by more than 10%",
    ),
    (
        "few-decided",
        "fewer than half, or fewer than 100, of the games were decided: p1_win_rate and its \
         interval rest on the decided games, and advantage_p1 and balance count the \
         undecided ones as draws; read completion beside them",
    ),
    (
        "few-games",
        "fewer than 100 games, all decided: p1_win_rate and its interval rest on fewer than \
         100 games",
    ),
];

/// The warning of a cell with too few decided games, of `n` games with
/// `d` decided, if it has one.
fn decided_warning(n: u64, d: u64) -> Option<CellWarning> {
    if d == n && d > 0 && d < MIN_DECIDED {
        // Every game decided, but too few of them to lean on: not "few
        // decided", which would say some were not.
        Some(CellWarning {
            kind: "few-games",
            message: format!(
                "only {d} games, all decided: p1_win_rate and its interval rest on fewer \
                 than {MIN_DECIDED} games"
            ),
        })
    } else if 2 * d < n || d < MIN_DECIDED {
        let message = if d == 0 {
            format!(
                "no game of {n} was decided: p1_win_rate, its interval, advantage_p1 and \
                 balance are left empty"
            )
        } else {
            format!(
                "only {d} of {n} games were decided: p1_win_rate and its interval rest on \
                 {d} games, and advantage_p1 and balance count the {} undecided ones as \
                 draws; read completion beside them",
                n - d
            )
        };
        Some(CellWarning {
            kind: "few-decided",
            message,
        })
    } else {
        None
    }
}

impl Aggregate {
    pub fn new() -> Aggregate {
        Aggregate::default()
    }

    pub fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        match g.status {
            Status::Won(p) => self.wins[p.index()] += 1,
            Status::PlyLimit => self.ply_limit += 1,
            Status::EndlessMove => self.endless_move += 1,
            Status::LapLimit => self.lap_limit += 1,
            Status::Ongoing => debug_assert!(false, "an ongoing game was recorded"),
        }
        let p = g.plies as u128;
        self.plies += p;
        self.plies_squared += p * p;
        self.plies_min = Some(self.plies_min.map_or(g.plies, |m| m.min(g.plies)));
        self.plies_max = Some(self.plies_max.map_or(g.plies, |m| m.max(g.plies)));
        *self.length_histogram.entry(g.plies).or_insert(0) += 1;
        self.laps += g.laps as u128;
        self.max_laps_in_move = self.max_laps_in_move.max(g.max_laps_in_move);
        self.max_relays_in_move = self.max_relays_in_move.max(g.max_relays_in_move);
        for i in 0..2 {
            self.captures[i] += g.captures[i] as u128;
            self.seeds_captured[i] += g.seeds_captured[i] as u128;
        }
        self.seeds_sown += g.seeds_sown as u128;
        self.legal_moves += g.legal_moves as u128;
        self.choice_turns += g.choice_turns as u128;
        self.distinct.insert(g.hash);
    }

    pub fn merge(&mut self, o: &Aggregate) {
        self.games += o.games;
        for i in 0..2 {
            self.wins[i] += o.wins[i];
            self.captures[i] += o.captures[i];
            self.seeds_captured[i] += o.seeds_captured[i];
        }
        self.ply_limit += o.ply_limit;
        self.endless_move += o.endless_move;
        self.lap_limit += o.lap_limit;
        self.plies += o.plies;
        self.plies_squared += o.plies_squared;
        self.plies_min = min_opt(self.plies_min, o.plies_min, u32::min);
        self.plies_max = min_opt(self.plies_max, o.plies_max, u32::max);
        for (&len, &n) in &o.length_histogram {
            *self.length_histogram.entry(len).or_insert(0) += n;
        }
        self.laps += o.laps;
        self.max_laps_in_move = self.max_laps_in_move.max(o.max_laps_in_move);
        self.max_relays_in_move = self.max_relays_in_move.max(o.max_relays_in_move);
        self.seeds_sown += o.seeds_sown;
        self.legal_moves += o.legal_moves;
        self.choice_turns += o.choice_turns;
        self.distinct.merge(&o.distinct);
        if let Some(b) = &o.metrics {
            self.metrics.get_or_insert_default().merge(b);
        }
    }

    /// One game's design metrics (a cell that records them).
    pub fn add_metrics(&mut self, g: &crate::experiment::metrics::GameMetrics) {
        self.metrics.get_or_insert_default().add(g);
    }

    /// The number of distinct games, as the outputs print it: exact, or
    /// the sketch's estimate rounded and kept between the distinct hashes
    /// the sketch holds (more than `SKETCH_K`) and the games played.
    pub fn distinct_games(&self) -> (u64, bool) {
        match self.distinct.count() {
            Distinct::Exact(n) => (n, true),
            Distinct::Estimate { value, .. } => {
                let lo = (SKETCH_K + 1) as u64;
                ((value.round() as u64).clamp(lo, self.games.max(lo)), false)
            }
        }
    }

    /// Whether the cell's games repeat enough to change its intervals
    /// materially: an interval computed as if only its distinct games had
    /// been played would be more than [`REPEATS_WIDER`] wider, its width
    /// going as 1/√n (docs/OUTPUTS.md, "Reading a cell whose games
    /// repeat"). Counted exactly, or the estimate more than 3 standard
    /// errors below that bound. A few repeats among thousands of games
    /// (short games on a small board) are not told.
    pub fn repeats(&self) -> bool {
        let factor = (1.0 + REPEATS_WIDER).powi(2);
        let bound = self.games as f64 / factor;
        match self.distinct.count() {
            Distinct::Exact(n) => (n as f64) < bound,
            Distinct::Estimate { value, se } => (bound - value) > 3.0 * se,
        }
    }

    /// What a reader must know before trusting the cell's numbers.
    pub fn warnings(&self) -> Vec<CellWarning> {
        let mut out = Vec::new();
        if self.repeats() {
            out.push(self.repeats_warning());
        }
        out.extend(decided_warning(self.games, self.decided()));
        out
    }

    /// How much wider the cell's interval would be from its distinct
    /// games alone: √(games / distinct games) − 1.
    pub fn interval_widening(&self) -> f64 {
        let distinct = match self.distinct.count() {
            Distinct::Exact(n) => n as f64,
            Distinct::Estimate { value, .. } => value,
        };
        (self.games as f64 / distinct.max(1.0)).sqrt() - 1.0
    }

    /// The warning of a cell whose games repeat.
    fn repeats_warning(&self) -> CellWarning {
        let n = self.games;
        let what = match self.distinct.count() {
            Distinct::Exact(k) => format!(
                "only {k} distinct {} in {n} ({})",
                if k == 1 { "game" } else { "games" },
                percent_floor(k, n)
            ),
            Distinct::Estimate { value, se } => {
                format!("about {value:.0} distinct games (± {se:.0}, one standard error) in {n}")
            }
        };
        let message = format!(
            "{what}: repeated games sample fewer lines of play than the count suggests; \
             counted once each, they would widen the interval by {:.0}% (docs/OUTPUTS.md, \
             `distinct_games`)",
            self.interval_widening() * 100.0
        );
        CellWarning {
            kind: "repeats",
            message,
        }
    }

    pub fn decided(&self) -> u64 {
        self.wins[0] + self.wins[1]
    }
    pub fn undecided(&self) -> u64 {
        self.games - self.decided()
    }

    /// Player 1's share of the decided games, with its 95% Wilson interval.
    pub fn p1_win_rate(&self) -> Option<Interval> {
        wilson(self.wins[0], self.decided())
    }

    /// (wins of player 1 + half the undecided games) / games: the Ludii
    /// project's definition, the mean of per-game scores 1, 1/2, 0. `None`
    /// when no game was decided: 0.5 would then read as "no advantage"
    /// when nothing was measured.
    pub fn advantage_p1(&self) -> Option<f64> {
        (self.decided() > 0).then(|| self.score_sum_doubled() as f64 / (2 * self.games) as f64)
    }

    /// Twice the sum of player 1's per-game scores (1, 1/2, 0), an integer.
    fn score_sum_doubled(&self) -> u64 {
        2 * self.wins[0] + self.undecided()
    }

    /// Sample variance of player 1's per-game score; `None` below 2 games.
    /// With w wins and u undecided in n games, the sum of scores is
    /// S = w + u/2 and of squared scores Q = w + u/4; the variance is
    /// (Q - S²/n) / (n - 1), here computed as (4nQ - (2S)²) / (4n(n - 1))
    /// so every step before the division is an exact integer.
    pub fn advantage_variance(&self) -> Option<f64> {
        let n = self.games as u128;
        if n < 2 || self.decided() == 0 {
            return None;
        }
        let four_q = 4 * self.wins[0] as u128 + self.undecided() as u128;
        let two_s = self.score_sum_doubled() as u128;
        let num = n * four_q - two_s * two_s;
        Some(num as f64 / (4 * n * (n - 1)) as f64)
    }

    /// 1 - |wins of 1 - wins of 2| / games; `None` when no game was
    /// decided (it would be a perfect 1 for no reason).
    pub fn balance(&self) -> Option<f64> {
        (self.decided() > 0)
            .then(|| 1.0 - self.wins[0].abs_diff(self.wins[1]) as f64 / self.games as f64)
    }

    /// decided / games.
    pub fn completion(&self) -> Option<f64> {
        ratio(self.decided() as u128, self.games as u128)
    }

    pub fn length_mean(&self) -> Option<f64> {
        ratio(self.plies, self.games as u128)
    }

    /// Sample variance of game length, from exact integer sums:
    /// (n·Σx² - (Σx)²) / (n(n - 1)).
    pub fn length_variance(&self) -> Option<f64> {
        let n = self.games as u128;
        if n < 2 {
            return None;
        }
        let num = n * self.plies_squared - self.plies * self.plies;
        Some(num as f64 / (n * (n - 1)) as f64)
    }

    pub fn length_sd(&self) -> Option<f64> {
        self.length_variance().map(f64::sqrt)
    }

    /// The mean game length with its 95% interval by the normal
    /// approximation, mean ± z·sd/√n with the sample sd; `None` below 2
    /// games. The games of a cell are independent draws, so for the tens
    /// of games and more a cell has the mean is near normal whatever the
    /// lengths' own shape.
    pub fn length_mean_interval(&self) -> Option<Interval> {
        let (mean, sd) = (self.length_mean()?, self.length_sd()?);
        let half = Z95 * sd / (self.games as f64).sqrt();
        Some(Interval {
            estimate: mean,
            low: mean - half,
            high: mean + half,
        })
    }

    /// The exact two-sided binomial p-value of player 1's wins among the
    /// decided games against a share of one half ([`balance::vs_half`]).
    pub fn p1_vs_half_p(&self) -> Option<f64> {
        balance::vs_half(self.wins[0], self.decided())
    }

    /// Player 1's share judged against the margin `m` by the TOST
    /// ([`balance::equivalence`]).
    pub fn equivalence(&self, m: f64) -> balance::Equivalence {
        balance::equivalence(self.wins[0], self.decided(), m)
    }

    /// The nearest-rank percentile of game length: the shortest length L
    /// such that at least ⌈q·n/100⌉ games last L plies or fewer (q in
    /// 1..=100). Always a length some game really had.
    pub fn length_percentile(&self, q: u32) -> Option<u32> {
        debug_assert!((1..=100).contains(&q));
        if self.games == 0 {
            return None;
        }
        let rank = (q as u128 * self.games as u128).div_ceil(100);
        let mut seen: u128 = 0;
        for (&len, &n) in &self.length_histogram {
            seen += n as u128;
            if seen >= rank {
                return Some(len);
            }
        }
        self.plies_max
    }

    /// Sowing laps per move played.
    pub fn laps_per_move(&self) -> Option<f64> {
        ratio(self.laps, self.plies)
    }

    pub fn per_game(&self, total: u128) -> Option<f64> {
        ratio(total, self.games as u128)
    }

    /// Mean number of legal moves on a turn: the branching factor.
    pub fn branching(&self) -> Option<f64> {
        ratio(self.legal_moves, self.plies)
    }

    /// Share of turns on which the mover had more than one legal move.
    pub fn choice_share(&self) -> Option<f64> {
        ratio(self.choice_turns, self.plies)
    }
}

fn min_opt(a: Option<u32>, b: Option<u32>, f: fn(u32, u32) -> u32) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(f(x, y)),
        (x, None) => x,
        (None, y) => y,
    }
}

fn ratio(num: u128, den: u128) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

/// A difference of two means with its 95% interval and two-sided p-value,
/// by the normal approximation (large samples).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    pub diff: f64,
    pub low: f64,
    pub high: f64,
    pub p_value: f64,
}

/// The difference `mean_a - mean_b` of two independent samples given each
/// sample's mean, sample variance and size: standard error
/// √(var_a/n_a + var_b/n_b) (Welch's), interval diff ± 1.96·se, p-value
/// 2·(1 - Φ(|diff| / se)). With se = 0 the p-value is 1 if the means are
/// equal and 0 otherwise.
pub fn difference(
    (mean_a, var_a, n_a): (f64, f64, u64),
    (mean_b, var_b, n_b): (f64, f64, u64),
) -> Difference {
    let diff = mean_a - mean_b;
    let se = (var_a / n_a as f64 + var_b / n_b as f64).sqrt();
    let p_value = if se > 0.0 {
        two_sided_p(diff / se)
    } else if diff == 0.0 {
        1.0
    } else {
        0.0
    };
    Difference {
        diff,
        low: diff - Z95 * se,
        high: diff + Z95 * se,
        p_value,
    }
}

/// k of n as a percentage with one decimal, rounded down, so a share
/// short of all never prints as 100.0% (1999 of 2000 is 99.9%).
pub fn percent_floor(k: u64, n: u64) -> String {
    let tenths = (1000 * u128::from(k))
        .checked_div(u128::from(n))
        .unwrap_or(0);
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// Two-sided p-value of a standard normal statistic: erfc(|z| / √2).
pub fn two_sided_p(z: f64) -> f64 {
    libm::erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// P(X ≥ `x`) for X χ²-distributed with `df` degrees of freedom: the
/// regularized upper incomplete gamma function Q(df/2, x/2). `df` must be
/// at least 1.
pub fn chi_square_sf(x: f64, df: u64) -> f64 {
    assert!(
        df > 0,
        "a χ² distribution needs at least one degree of freedom"
    );
    if x <= 0.0 {
        return 1.0;
    }
    gamma_q(df as f64 / 2.0, x / 2.0)
}

/// The regularized upper incomplete gamma function Q(a, x), a > 0, x > 0,
/// as Numerical Recipes (§6.2) computes it: below x = a + 1 the series of
/// P = 1 − Q converges fast and Q is not small, so 1 − P loses nothing;
/// above it Q itself comes from its continued fraction (modified Lentz),
/// which keeps full relative precision far into the tail, where the
/// p-values of a badly fitting model lie (1e-20 and below).
fn gamma_q(a: f64, x: f64) -> f64 {
    // x^a e^(−x) / Γ(a), in logs: the factor both expansions share.
    let prefactor = libm::exp(a * libm::log(x) - x - libm::lgamma(a));
    if x < a + 1.0 {
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        while term.abs() > sum.abs() * f64::EPSILON {
            n += 1.0;
            term *= x / n;
            sum += term;
        }
        return (1.0 - sum * prefactor).max(0.0);
    }
    let tiny = f64::MIN_POSITIVE / f64::EPSILON;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / tiny;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..1000 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < tiny {
            d = tiny;
        }
        c = b + an / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < f64::EPSILON {
            break;
        }
    }
    prefactor * h
}

/// Comparison of two cells' `advantage_p1` from per-game scores.
pub fn compare_advantage(a: &Aggregate, b: &Aggregate) -> Option<Difference> {
    Some(difference(
        (a.advantage_p1()?, a.advantage_variance()?, a.games),
        (b.advantage_p1()?, b.advantage_variance()?, b.games),
    ))
}

/// Comparison of two cells' player-1 win rate among decided games
/// (`p1_win_rate`), through [`win_rate_difference`].
pub fn compare_win_rate(a: &Aggregate, b: &Aggregate) -> Option<Difference> {
    win_rate_difference((a.wins[0], a.decided()), (b.wins[0], b.decided()))
}

/// The difference of two player-1 win rates among decided games, each
/// given as (player 1's wins, decided games): a difference of two
/// proportions w₁/d, each with the Bernoulli variance p(1 - p), through
/// [`difference`] (unpooled standard error, so the test rejects exactly
/// when the interval leaves out 0). `None` when either has no decided game.
pub fn win_rate_difference(a: (u64, u64), b: (u64, u64)) -> Option<Difference> {
    let side = |(wins, decided): (u64, u64)| {
        let p = wilson(wins, decided)?.estimate;
        Some((p, p * (1.0 - p), decided))
    };
    Some(difference(side(a)?, side(b)?))
}

/// Holm's step-down adjustment of a family of p-values: with the m
/// p-values sorted, p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted p₍ᵢ₎ is
/// max over j ≤ i of min(1, (m - j + 1)·p₍ⱼ₎). `None`s (undefined
/// comparisons) are not members of the family and stay `None`. Controls
/// the chance of any false rejection in the family at the level used.
pub fn holm(p_values: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<usize> = (0..p_values.len())
        .filter(|&i| p_values[i].is_some())
        .collect();
    // Ties keep their row order; the adjusted values do not depend on it.
    order.sort_by(|&i, &j| {
        p_values[i]
            .partial_cmp(&p_values[j])
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let m = order.len();
    let mut out = vec![None; p_values.len()];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let p = p_values[i].unwrap_or(1.0);
        running = running.max(((m - rank) as f64 * p).min(1.0));
        out[i] = Some(running);
    }
    out
}

/// Comparison of two cells' mean game length.
pub fn compare_length(a: &Aggregate, b: &Aggregate) -> Option<Difference> {
    Some(difference(
        (a.length_mean()?, a.length_variance()?, a.games),
        (b.length_mean()?, b.length_variance()?, b.games),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Player;
    use proptest::prelude::*;

    #[test]
    fn holm_matches_a_hand_computation() {
        // p = 0.01, 0.04, 0.03, 0.005, undefined; m = 4.
        // Sorted: 0.005 ×4 = 0.02; 0.01 ×3 = 0.03; 0.03 ×2 = 0.06;
        // 0.04 ×1 = 0.04, raised to 0.06 (the running maximum).
        let got = holm(&[Some(0.01), Some(0.04), Some(0.03), Some(0.005), None]);
        let want = [Some(0.03), Some(0.06), Some(0.06), Some(0.02), None];
        for (g, w) in got.iter().zip(want) {
            match (g, w) {
                (Some(g), Some(w)) => assert!((g - w).abs() < 1e-12, "{got:?}"),
                (None, None) => {}
                _ => panic!("{got:?}"),
            }
        }
        // Capped at 1.
        assert_eq!(holm(&[Some(0.6), Some(0.7)]), [Some(1.0), Some(1.0)]);
        assert_eq!(holm(&[]), []);
    }

    #[test]
    fn win_rate_difference_by_hand() {
        // a: 30 of 40 decided (0.75), b: 20 of 40 (0.5); 10 undecided in a.
        let mut a = Aggregate::new();
        let mut b = Aggregate::new();
        for i in 0..40 {
            a.add(&record(
                Status::Won(if i < 30 { Player::South } else { Player::North }),
                10,
            ));
            b.add(&record(
                Status::Won(if i < 20 { Player::South } else { Player::North }),
                10,
            ));
        }
        for _ in 0..10 {
            a.add(&record(Status::PlyLimit, 10));
        }
        // se = √(0.1875/40 + 0.25/40) = 0.104583; z = 0.25/se = 2.390457;
        // p = erfc(z/√2) = 0.016827; interval 0.25 ± 0.204978.
        let d = compare_win_rate(&a, &b).unwrap();
        assert!((d.diff - 0.25).abs() < 1e-12);
        assert!((d.low - 0.045022).abs() < 1e-6, "{d:?}");
        assert!((d.high - 0.454978).abs() < 1e-6, "{d:?}");
        assert!((d.p_value - 0.016827).abs() < 1e-6, "{d:?}");
        assert!(compare_win_rate(&a, &Aggregate::new()).is_none());
    }

    fn record(status: Status, plies: u32) -> GameRecord {
        GameRecord {
            status,
            plies,
            laps: plies as u64 * 3,
            max_laps_in_move: plies as u64 % 7,
            max_relays_in_move: plies as u64 % 6,
            captures: [plies as u64 % 5, plies as u64 % 3],
            seeds_captured: [plies as u64 % 11, plies as u64 % 13],
            seeds_sown: plies as u64 * 9,
            legal_moves: plies as u64 * 4,
            choice_turns: plies as u64 / 2,
            hash: crate::rng::mix64(plies as u64),
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    #[test]
    fn p_values_match_the_normal_table() {
        // Φ(1.96) = 0.975 → two-sided 0.05; Φ(1) = 0.841345 → 0.317311.
        assert!((two_sided_p(Z95) - 0.05).abs() < 1e-12);
        assert!((two_sided_p(-1.0) - 0.317_310_507_862_914).abs() < 1e-12);
        assert_eq!(two_sided_p(0.0), 1.0);
    }

    /// Against values from outside this code: the χ² table's 95% point
    /// of 1 df (3.841459), the closed forms Q = e^(−x/2) for 2 df and
    /// erfc(√(x/2)) for 1 df, and for the rest the finite sums the survival
    /// function has at whole df (even k: e^(−x/2) Σ_{i<k/2} (x/2)^i / i!;
    /// odd k: erfc(√(x/2)) + e^(−x/2) Σ_{i<(k−1)/2} (x/2)^(i+½) / Γ(i+3/2)),
    /// evaluated in Python's math module, deep tail included.
    #[test]
    fn chi_square_tail_matches_closed_forms() {
        let rel = |got: f64, want: f64| (got - want).abs() <= 1e-10 * want;
        assert!(rel(chi_square_sf(3.841_458_820_694_124, 1), 0.05));
        for x in [1e-3, 0.5, 2.0, 7.3, 30.0, 300.0] {
            assert!(rel(chi_square_sf(x, 2), libm::exp(-x / 2.0)), "{x}");
            let erfc = libm::erfc(libm::sqrt(x / 2.0));
            assert!(rel(chi_square_sf(x, 1), erfc), "{x}");
        }
        for (x, df, want) in [
            (0.5, 3, 0.918_891_411_654_675_8),
            (10.0, 4, 0.040_427_681_994_512_8),
            (21.041_137, 35, 0.969_926_713_620_677_2),
            (58.649_781, 35, 0.007_372_628_535_648_95),
            (61.874_109, 35, 0.003_378_054_661_925_903),
            (90.911_221, 35, 7.321_132_083_568_606e-7),
            (40.0, 48, 0.787_492_816_788_427_9),
            (156.848_033, 48, 1.771_657_306_459_706_2e-13),
            (200.0, 35, 5.190_577_769_735_962e-25),
            (500.0, 10, 4.414_736_099_913_731e-101),
        ] {
            let got = chi_square_sf(x, df);
            assert!(rel(got, want), "χ²({df}) ≥ {x}: {got:e}, not {want:e}");
        }
        assert_eq!(chi_square_sf(0.0, 5), 1.0);
        assert!(chi_square_sf(1.0, 35) > 1.0 - 1e-15);
    }

    #[test]
    fn advantage_and_its_variance_by_hand() {
        // 3 wins, 1 loss, 2 undecided: scores 1,1,1,0,½,½.
        // mean = 4/6 = 0.666667; squares sum to 3.5, so the sample variance
        // is (3.5 - 6·(2/3)²) / 5 = (3.5 - 2.666667) / 5 = 0.166667.
        let mut a = Aggregate::new();
        for s in [
            Status::Won(Player::South),
            Status::Won(Player::South),
            Status::Won(Player::South),
            Status::Won(Player::North),
            Status::PlyLimit,
            Status::EndlessMove,
        ] {
            a.add(&record(s, 10));
        }
        close(a.advantage_p1().unwrap(), 4.0 / 6.0);
        close(a.advantage_variance().unwrap(), 1.0 / 6.0);
        // balance = 1 - |3 - 1| / 6; completion = 4 / 6.
        close(a.balance().unwrap(), 1.0 - 2.0 / 6.0);
        close(a.completion().unwrap(), 4.0 / 6.0);
        let w = a.p1_win_rate().unwrap();
        close(w.estimate, 0.75);
    }

    #[test]
    fn length_statistics_by_hand() {
        // Lengths 10, 20, 20, 30, 70: mean 30, squares 100+400+400+900+4900
        // = 6700, variance (6700 - 5·900) / 4 = 550, sd 23.452079.
        // Nearest rank: p10 → rank ⌈0.5⌉ = 1 → 10; p50 → rank 3 → 20;
        // p90 → rank ⌈4.5⌉ = 5 → 70.
        let mut a = Aggregate::new();
        for len in [30, 10, 70, 20, 20] {
            a.add(&record(Status::Won(Player::North), len));
        }
        close(a.length_mean().unwrap(), 30.0);
        close(a.length_variance().unwrap(), 550.0);
        assert_eq!(a.length_percentile(10), Some(10));
        assert_eq!(a.length_percentile(50), Some(20));
        assert_eq!(a.length_percentile(90), Some(70));
        assert_eq!(a.length_percentile(100), Some(70));
        assert_eq!((a.plies_min, a.plies_max), (Some(10), Some(70)));
        // 95% interval: 30 ± 1.959964 · 23.452079 / √5 = 30 ± 20.556276.
        let m = a.length_mean_interval().unwrap();
        close(m.estimate, 30.0);
        assert!((m.low - 9.443_724).abs() < 1e-6, "{m:?}");
        assert!((m.high - 50.556_276).abs() < 1e-6, "{m:?}");
        let mut one = Aggregate::new();
        one.add(&record(Status::Won(Player::North), 10));
        assert!(one.length_mean_interval().is_none());
    }

    #[test]
    fn difference_by_hand() {
        // Means 0.6 and 0.5, variances 0.24 and 0.25, 100 games each:
        // se = √(0.0024 + 0.0025) = 0.07; z = 1.428571; p = 0.153127
        // (normal table: Φ(1.428571) = 0.923436).
        let d = difference((0.6, 0.24, 100), (0.5, 0.25, 100));
        close(d.diff, 0.1);
        close(d.low, 0.1 - Z95 * 0.07);
        close(d.high, 0.1 + Z95 * 0.07);
        assert!((d.p_value - 0.153_127).abs() < 1e-6, "{}", d.p_value);
        let same = difference((0.5, 0.0, 10), (0.5, 0.0, 10));
        assert_eq!(same.p_value, 1.0);
        let apart = difference((1.0, 0.0, 10), (0.0, 0.0, 10));
        assert_eq!(apart.p_value, 0.0);
    }

    #[test]
    fn an_empty_aggregate_has_no_statistics() {
        let a = Aggregate::new();
        assert!(a.p1_win_rate().is_none());
        assert!(a.advantage_p1().is_none());
        assert!(a.length_mean().is_none());
        assert!(a.length_percentile(50).is_none());
        assert!(compare_advantage(&a, &a).is_none());
    }

    fn status_of(k: u8) -> Status {
        match k % 5 {
            0 => Status::Won(Player::South),
            1 => Status::Won(Player::North),
            2 => Status::PlyLimit,
            3 => Status::EndlessMove,
            _ => Status::LapLimit,
        }
    }

    /// a, b and c merged as (a + b) + c, a + (b + c) and (c + b) + a.
    fn three_ways<T: Clone>(a: &T, b: &T, c: &T, merge: fn(&mut T, &T)) -> [T; 3] {
        let mut left = a.clone();
        merge(&mut left, b);
        merge(&mut left, c);
        let mut bc = b.clone();
        merge(&mut bc, c);
        let mut right = a.clone();
        merge(&mut right, &bc);
        let mut reversed = c.clone();
        merge(&mut reversed, b);
        merge(&mut reversed, a);
        [left, right, reversed]
    }

    proptest! {
        #[test]
        fn merging_is_exact_in_any_order(
            games in proptest::collection::vec((0u8..5, 0u32..400), 0..60),
            cut1 in 0usize..60,
            cut2 in 0usize..60,
        ) {
            let recs: Vec<GameRecord> =
                games.iter().map(|&(s, p)| record(status_of(s), p)).collect();
            let (c1, c2) = (cut1.min(recs.len()), cut2.min(recs.len()));
            let (c1, c2) = (c1.min(c2), c1.max(c2));
            let part = |r: &[GameRecord]| {
                let mut a = Aggregate::new();
                r.iter().for_each(|g| a.add(g));
                a
            };
            let (a, b, c) = (part(&recs[..c1]), part(&recs[c1..c2]), part(&recs[c2..]));
            let whole = part(&recs);
            for merged in three_ways(&a, &b, &c, Aggregate::merge) {
                prop_assert_eq!(&merged, &whole);
            }
        }
    }

    fn sketch_of(hashes: &[u64]) -> DistinctSketch {
        let mut s = DistinctSketch::default();
        hashes.iter().for_each(|&h| s.insert(h));
        s
    }

    proptest! {
        /// The sketch past its exact range: three parts merged in any
        /// order, or inserted one by one, keep the same values.
        #[test]
        fn sketch_merging_is_exact_in_any_order(
            seeds in proptest::collection::vec(0u64..20_000, 0..12_000),
            cut1 in 0usize..12_000,
            cut2 in 0usize..12_000,
        ) {
            // Few distinct seeds for many values: repeats across parts.
            let hashes: Vec<u64> = seeds.iter().map(|&x| crate::rng::mix64(x)).collect();
            let (c1, c2) = (cut1.min(hashes.len()), cut2.min(hashes.len()));
            let (c1, c2) = (c1.min(c2), c1.max(c2));
            let (a, b, c) = (
                sketch_of(&hashes[..c1]),
                sketch_of(&hashes[c1..c2]),
                sketch_of(&hashes[c2..]),
            );
            let whole = sketch_of(&hashes);
            prop_assert!(whole.is_well_formed());
            for merged in three_ways(&a, &b, &c, DistinctSketch::merge) {
                prop_assert_eq!(&merged, &whole);
            }
        }

        /// Up to `SKETCH_K` distinct games the count is a set's count.
        #[test]
        fn below_k_the_count_is_exact(
            seeds in proptest::collection::vec(0u64..6_000, 0..5_000),
        ) {
            let hashes: Vec<u64> = seeds.iter().map(|&x| crate::rng::mix64(x)).collect();
            let set: std::collections::HashSet<u64> = hashes.iter().copied().collect();
            let s = sketch_of(&hashes);
            if set.len() <= SKETCH_K {
                prop_assert_eq!(s.count(), Distinct::Exact(set.len() as u64));
            } else {
                let estimated = matches!(s.count(), Distinct::Estimate { .. });
                prop_assert!(estimated);
            }
        }
    }

    #[test]
    fn the_count_turns_to_an_estimate_just_past_k() {
        let k = SKETCH_K as u64;
        let hashes: Vec<u64> = (0..=k).map(crate::rng::mix64).collect();
        assert_eq!(sketch_of(&hashes[..SKETCH_K]).count(), Distinct::Exact(k));
        assert!(matches!(
            sketch_of(&hashes).count(),
            Distinct::Estimate { .. }
        ));
    }

    /// On synthetic hashes (SplitMix64 of distinct integers, each inserted
    /// twice), the estimate's error is what the docs state: a relative
    /// standard error of about 1/√(k - 2) = 1.56%.
    #[test]
    fn the_estimate_has_its_stated_error() {
        let n = 20_000u64;
        let trials = 24u64;
        let mut sq = 0.0;
        for t in 0..trials {
            let mut s = DistinctSketch::default();
            for i in 0..n {
                let h = crate::rng::mix64(t << 40 | i);
                s.insert(h);
                s.insert(h);
            }
            let Distinct::Estimate { value, se } = s.count() else {
                panic!("{n} distinct hashes counted exactly");
            };
            let err = (value - n as f64) / n as f64;
            assert!(
                (value - n as f64).abs() < 4.0 * se,
                "trial {t}: {value} for {n}, se {se}"
            );
            assert!((se / value - 1.0 / ((SKETCH_K - 2) as f64).sqrt()).abs() < 1e-12);
            sq += err * err;
        }
        let rms = (sq / trials as f64).sqrt();
        assert!(rms > 0.007 && rms < 0.025, "rms relative error {rms}");
    }

    #[test]
    fn a_share_short_of_all_is_not_printed_as_all() {
        assert_eq!(percent_floor(1999, 2000), "99.9%");
        assert_eq!(percent_floor(2000, 2000), "100.0%");
        assert_eq!(percent_floor(1, 2), "50.0%");
        assert_eq!(percent_floor(2, 3), "66.6%");
        let mut a = Aggregate::new();
        for i in 0..2000u64 {
            let mut r = record(Status::Won(Player::South), 5);
            r.hash = crate::rng::mix64(i.max(1));
            a.add(&r);
        }
        assert_eq!(a.distinct_games(), (1999, true));
        let message = a.repeats_warning().message;
        assert!(
            message.starts_with("only 1999 distinct games in 2000 (99.9%):"),
            "{message}"
        );
    }

    /// `games` games, the first `distinct` of them different and the rest
    /// repeats of the first.
    fn with_distinct(games: u64, distinct: u64) -> Aggregate {
        let mut a = Aggregate::new();
        for i in 0..games {
            let mut r = record(Status::Won(Player::South), 5);
            r.hash = crate::rng::mix64(if i < distinct { i } else { 0 });
            a.add(&r);
        }
        a
    }

    /// The `repeats` warning is told only where counting each distinct
    /// game once would widen the interval by more than 10%: not for 1,998
    /// distinct random games of 2,000 (0.05%), but for 1,652 of 2,000
    /// (10.03%), as for the quick experiment's greedy cells on 4x4 (903
    /// and 602 of 2,000).
    #[test]
    fn repeats_are_told_only_where_they_widen_the_interval_materially() {
        for (distinct, told) in [
            (2000, false),
            (1998, false),
            (1840, false),
            (1653, false),
            (1652, true),
            (903, true),
            (602, true),
        ] {
            let a = with_distinct(2000, distinct);
            assert_eq!(a.distinct_games(), (distinct, true));
            assert_eq!(a.repeats(), told, "{distinct} distinct of 2000");
            let kinds: Vec<&str> = a.warnings().iter().map(|w| w.kind).collect();
            assert_eq!(kinds.contains(&"repeats"), told, "{distinct}: {kinds:?}");
        }
        let widening = with_distinct(2000, 1998).interval_widening();
        assert!((widening - 0.0005).abs() < 1e-4, "{widening}");
        let message = with_distinct(2000, 602).repeats_warning().message;
        assert!(
            message.starts_with("only 602 distinct games in 2000 (30.1%):")
                && message.contains("they would widen the interval by 82%"),
            "{message}"
        );
    }

    #[test]
    fn distinct_games_is_clamped_and_repeats_are_flagged() {
        let mut a = Aggregate::new();
        for i in 0..10u32 {
            let mut r = record(Status::Won(Player::South), 5);
            r.hash = u64::from(i % 3);
            a.add(&r);
        }
        assert_eq!(a.distinct_games(), (3, true));
        assert!(a.repeats());
        let kinds: Vec<&str> = a.warnings().iter().map(|w| w.kind).collect();
        assert_eq!(kinds, ["repeats", "few-games"]);
        // 20,000 distinct games: an estimate no larger than the games
        // played, and no flag.
        let mut b = Aggregate::new();
        for i in 0..20_000u64 {
            let mut r = record(Status::Won(Player::North), 5);
            r.hash = crate::rng::mix64(i);
            b.add(&r);
        }
        let (d, exact) = b.distinct_games();
        assert!(!exact && d <= 20_000 && d > 19_000, "{d}");
        assert!(!b.repeats());
        // 6,667 games played three times each: flagged.
        let mut c = Aggregate::new();
        for i in 0..20_000u64 {
            let mut r = record(Status::Won(Player::North), 5);
            r.hash = crate::rng::mix64(i / 3);
            c.add(&r);
        }
        let (d, exact) = c.distinct_games();
        assert!(!exact && d > 6_300 && d < 7_000, "{d}");
        assert!(c.repeats());
        assert!(
            c.warnings()[0].message.contains("about"),
            "{:?}",
            c.warnings()
        );
    }

    #[test]
    fn nothing_decided_leaves_the_decided_metrics_empty() {
        let mut a = Aggregate::new();
        for i in 0..500 {
            let mut r = record(Status::PlyLimit, 300);
            r.hash = i;
            a.add(&r);
        }
        assert!(a.p1_win_rate().is_none());
        assert!(a.advantage_p1().is_none());
        assert!(a.advantage_variance().is_none());
        assert!(a.balance().is_none());
        assert_eq!(a.completion(), Some(0.0));
        assert!(a.length_mean().is_some());
        assert!(compare_advantage(&a, &a).is_none());
        assert!(compare_length(&a, &a).is_some());
        let w = a.warnings();
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].kind, "few-decided");
        assert!(w[0].message.contains("no game of 500"), "{}", w[0].message);
    }

    #[test]
    fn few_decided_games_are_warned_about() {
        // (decided, undecided) → warned?
        for (d, u, warned) in [
            (100, 100, false),
            (100, 101, true),
            (99, 0, true),
            (150, 10, false),
            (1, 0, true),
        ] {
            let mut a = Aggregate::new();
            for i in 0..d + u {
                let status = if i < d {
                    Status::Won(Player::South)
                } else {
                    Status::LapLimit
                };
                let mut r = record(status, 10);
                r.hash = i;
                a.add(&r);
            }
            let w = a.warnings();
            // A cell whose every game was decided is never told that few were.
            let kind = if u == 0 { "few-games" } else { "few-decided" };
            let got = w.iter().find(|w| w.kind.starts_with("few-"));
            assert_eq!(got.is_some(), warned, "{d} decided, {u} undecided");
            assert!(got.is_none_or(|w| w.kind == kind), "{w:?}");
            assert!(
                w.iter()
                    .all(|w| WARNING_KINDS.iter().any(|k| k.0 == w.kind))
            );
            // The message never calls all of the games "only" some of them.
            if let Some(w) = got
                && u == 0
            {
                assert_eq!(
                    w.message,
                    format!(
                        "only {d} games, all decided: p1_win_rate and its interval rest on \
                         fewer than 100 games"
                    )
                );
            }
        }
    }

    #[test]
    fn aggregates_survive_a_json_round_trip() {
        let mut a = Aggregate::new();
        a.add(&record(Status::Won(Player::South), 12));
        a.add(&record(Status::LapLimit, 40));
        assert_eq!(a.distinct_games(), (2, true));
        let json = serde_json::to_string(&a).unwrap();
        let back: Aggregate = serde_json::from_str(&json).unwrap();
        assert_eq!(a, back);
    }
}
