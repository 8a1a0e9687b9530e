//! Elo ratings from a tournament's results, with the first-move advantage
//! and undecided games modelled as BayesElo models them (Coulom's
//! BayesElo: an advantage term for the first player and a "drawelo" term
//! for draws), fitted by maximum likelihood with no prior, and 95%
//! profile-likelihood intervals. docs/OUTPUTS.md (ratings.csv) gives the
//! model and the coverage this module's tests measure.
//!
//! For one game where agent i moves first against agent j, with
//! f(x) = 1 / (1 + 10^(−x/400)), Δ = rᵢ − rⱼ + a (a the first-move
//! advantage) and d ≥ 0 the draw term:
//! P(first wins) = f(Δ − d), P(second wins) = f(−Δ − d), and the rest,
//! 1 − f(Δ − d) − f(−Δ − d), is P(undecided). It is an ordered logit
//! (second wins < undecided < first wins, cut points ±d), so the
//! log-likelihood is concave in (r, a, d).
//!
//! A rating the results do not bound is reported as such, never made
//! finite by a prior: when every game between a set of agents and the
//! rest went one way, the likelihood keeps rising as the set moves away,
//! and the rating has no estimate and an open bound on that side.
//!
//! The fit works on integer tallies only, so it gives the same bits for
//! the same tallies however the games were split over threads, shards or
//! resumed runs.

use crate::experiment::Tournament;
use crate::experiment::runner::Cell;
use crate::experiment::stats::{Aggregate, Z95, chi_square_sf};

/// The results of one seat order: `first` moved first against `second`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatTally {
    pub first: usize,
    pub second: usize,
    pub first_wins: u64,
    pub second_wins: u64,
    pub undecided: u64,
}

impl SeatTally {
    pub fn games(&self) -> u64 {
        self.first_wins + self.second_wins + self.undecided
    }
}

/// An estimate with its 95% interval, on the Elo scale. `None` is an
/// open end: the results do not bound the parameter on that side (and
/// then it has no estimate either, the likelihood being highest at
/// infinity).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Estimate {
    /// Whether the results identify the parameter: an estimate and both
    /// ends of its interval.
    pub fn identified(&self) -> bool {
        self.value.is_some() && self.low.is_some() && self.high.is_some()
    }
    const ZERO: Estimate = Estimate {
        value: Some(0.0),
        low: Some(0.0),
        high: Some(0.0),
    };
}

/// The fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Every agent's rating relative to the anchor, whose own is exactly
    /// 0 to 0.
    pub ratings: Vec<Estimate>,
    /// The first player's advantage a, in Elo.
    pub advantage: Estimate,
    /// The draw term d ≥ 0, in Elo: 0 when no game was undecided, with an
    /// interval from 0 up.
    pub draw: Estimate,
    /// Games each agent played.
    pub games: Vec<u64>,
    /// The parameters where the fit stopped, for expected scores.
    pub point: Point,
    /// How well the model fits the seat-ordered cells; `None` when there
    /// are none, or the model that gives each its own result did not
    /// converge.
    pub test: Option<FitTest>,
}

/// The likelihood-ratio (deviance) test of the fitted model against the
/// model that gives every seat-ordered cell its own Δ, and so its own
/// split of wins, the draw term shared as in the fit: the one test that
/// asks whether one rating per agent and one first-move term explain
/// every pairing in both seats (docs/OUTPUTS.md, ratings.csv).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitTest {
    /// 2 × (the cells' own model's log-likelihood − the fit's).
    pub deviance: f64,
    /// Cells with games less the ratings-and-advantage combinations they
    /// identify (agents − 1 + 1 in a whole tournament).
    pub df: u64,
    /// P(χ²(df) ≥ deviance); `None` at 0 df, where the model is the cells'
    /// own and nothing is left to test.
    pub p_value: Option<f64>,
}

/// The model's parameters at the fit, in Elo. Where the results do not
/// identify one, it is where the likelihood was still climbing when the
/// fit stopped (thousands of Elo out), so expected scores are the
/// limit's 0 or 1 to six decimals.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub ratings: Vec<f64>,
    pub advantage: f64,
    pub draw: f64,
}

/// Why a tournament's results cannot be rated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    #[error("agent {0} of {1} is out of range")]
    NoSuchAgent(usize, usize),
    #[error("agent {0} played itself")]
    SelfPlay(usize),
    #[error("the fit did not converge in {0} steps")]
    NoConvergence(usize),
}

/// Natural-log units per Elo point: f(x) = σ(C·x). The fit works in
/// natural units (C·Elo), where a step of 1 is a factor e in the odds.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Half the 95% point of χ² with one degree of freedom: the profile
/// log-likelihood's drop at the ends of a 95% interval.
const HALF_CHI2_95: f64 = Z95 * Z95 / 2.0;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + libm::exp(-x))
}

/// log σ(x) without overflow or loss for large |x|.
fn log_sigmoid(x: f64) -> f64 {
    if x > 0.0 {
        -libm::log1p(libm::exp(-x))
    } else {
        x - libm::log1p(libm::exp(x))
    }
}

/// One seat order's log-likelihood and its gradient and Hessian in
/// (Δ, d), natural units.
fn seat_terms(t: &SeatTally, delta: f64, d: f64) -> (f64, [f64; 2], [f64; 3]) {
    let (w, l, u) = (
        t.first_wins as f64,
        t.second_wins as f64,
        t.undecided as f64,
    );
    let mut terms = Terms {
        ll: 0.0,
        g: [0.0; 2],
        h: [0.0; 3],
    };
    if w > 0.0 {
        // log σ(Δ − d)
        terms.add_decided(w, delta - d, 1.0);
    }
    if l > 0.0 {
        // log σ(−Δ − d)
        terms.add_decided(l, -delta - d, -1.0);
    }
    if u > 0.0 {
        terms.add_undecided(u, delta, d);
    }
    (terms.ll, terms.g, terms.h)
}

/// A log-likelihood and its gradient and Hessian in (Δ, d), summed term
/// by term.
struct Terms {
    ll: f64,
    g: [f64; 2],
    h: [f64; 3],
}

impl Terms {
    /// `n` games decided with probability σ(`x`) each, x = `sign`·Δ − d:
    /// `sign` 1 for the first player's wins, −1 for the second's.
    fn add_decided(&mut self, n: f64, x: f64, sign: f64) {
        let p = sigmoid(x);
        let (q, s) = (1.0 - p, p * (1.0 - p));
        self.ll += n * log_sigmoid(x);
        self.g[0] += sign * (n * q);
        self.g[1] -= n * q;
        self.h[0] -= n * s;
        self.h[1] += sign * (n * s);
        self.h[2] -= n * s;
    }

    /// `u` undecided games: log(σ(d − Δ) − σ(−d − Δ)) each, d > 0.
    fn add_undecided(&mut self, u: f64, delta: f64, d: f64) {
        let (su, sv) = (sigmoid(d - delta), sigmoid(-d - delta));
        let p = su - sv;
        let (du, dv) = (su * (1.0 - su), sv * (1.0 - sv));
        let (tu, tv) = (du * (1.0 - 2.0 * su), dv * (1.0 - 2.0 * sv));
        let gp = [dv - du, du + dv];
        let hp = [tu - tv, -tu - tv, tu - tv];
        self.ll += u * libm::log(p);
        let gl = [gp[0] / p, gp[1] / p];
        self.g[0] += u * gl[0];
        self.g[1] += u * gl[1];
        self.h[0] += u * (hp[0] / p - gl[0] * gl[0]);
        self.h[1] += u * (hp[1] / p - gl[0] * gl[1]);
        self.h[2] += u * (hp[2] / p - gl[1] * gl[1]);
    }
}

/// The parameter vector: every agent's rating, then a, then d (natural
/// units); some held fixed (the anchor, d with no undecided game, the
/// parameter a profile holds).
struct Problem<'a> {
    agents: usize,
    tallies: &'a [SeatTally],
}

impl Problem<'_> {
    fn advantage(&self) -> usize {
        self.agents
    }
    fn draw(&self) -> usize {
        self.agents + 1
    }
    fn len(&self) -> usize {
        self.agents + 2
    }

    /// The log-likelihood, its gradient and its Hessian at x.
    fn evaluate(&self, x: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
        let n = self.len();
        let (ka, kd) = (self.advantage(), self.draw());
        let mut ll = 0.0;
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for t in self.tallies {
            let delta = x[t.first] - x[t.second] + x[ka];
            let (l, g, h) = seat_terms(t, delta, x[kd]);
            ll += l;
            // Δ = r_first − r_second + a: its coefficient on each parameter.
            let on_delta = [(t.first, 1.0), (t.second, -1.0), (ka, 1.0)];
            for &(i, ci) in &on_delta {
                grad[i] += ci * g[0];
                for &(j, cj) in &on_delta {
                    hess[i][j] += ci * cj * h[0];
                }
                hess[i][kd] += ci * h[1];
                hess[kd][i] += ci * h[1];
            }
            grad[kd] += g[1];
            hess[kd][kd] += h[2];
        }
        (ll, grad, hess)
    }

    fn log_likelihood(&self, x: &[f64]) -> f64 {
        let (ka, kd) = (self.advantage(), self.draw());
        self.tallies
            .iter()
            .map(|t| seat_terms(t, x[t.first] - x[t.second] + x[ka], x[kd]).0)
            .sum()
    }

    /// The maximum over the parameters not `fixed`, from `x` (changed in
    /// place), d kept ≥ 0; its log-likelihood. Where the maximum is at
    /// infinity (a set of agents that won every game against the rest)
    /// the parameters run off until the gradient vanishes, which Newton's
    /// method does at about one natural unit a step.
    fn maximise(&self, x: &mut [f64], fixed: &[bool]) -> Result<f64, FitError> {
        let free: Vec<usize> = (0..self.len()).filter(|&i| !fixed[i]).collect();
        let (mut ll, mut grad, mut hess) = self.evaluate(x);
        for _ in 0..MAX_STEPS {
            let g: Vec<f64> = free.iter().map(|&i| grad[i]).collect();
            if g.iter().all(|v| v.abs() < GRADIENT_TOL) {
                return Ok(ll);
            }
            let Some(step) = newton_step(&free, g, &hess) else {
                return Err(FitError::NoConvergence(MAX_STEPS));
            };
            if !self.line_search(x, fixed, &free, &step, ll) {
                // No step raises the likelihood any more: at the maximum
                // to the precision of f64.
                return Ok(ll);
            }
            let before = ll;
            (ll, grad, hess) = self.evaluate(x);
            if ll - before < 1e-12 * (1.0 + ll.abs()) {
                // Converged in the likelihood: what remains of the
                // gradient points where the results leave a rating open.
                return Ok(ll);
            }
        }
        let g = free.iter().map(|&i| grad[i].abs()).fold(0.0, f64::max);
        if g < 1e-6 {
            return Ok(ll);
        }
        Err(FitError::NoConvergence(MAX_STEPS))
    }

    /// Moves `x` along `step` (over the `free` parameters), halving it
    /// until the log-likelihood is no lower than `ll`; false when no
    /// step of 60 halvings is.
    fn line_search(
        &self,
        x: &mut [f64],
        fixed: &[bool],
        free: &[usize],
        step: &[f64],
        ll: f64,
    ) -> bool {
        let kd = self.draw();
        let mut t = 1.0;
        for _ in 0..60 {
            let mut cand = x.to_vec();
            for (&i, s) in free.iter().zip(step) {
                cand[i] += t * s;
            }
            // With undecided games the likelihood is 0 at d = 0; without,
            // d is held at 0 (where it is highest whatever Δ).
            if fixed[kd] || cand[kd] > 0.0 {
                let l = self.log_likelihood(&cand);
                if l >= ll {
                    x.copy_from_slice(&cand);
                    return true;
                }
            }
            t /= 2.0;
        }
        false
    }

    fn has_undecided(&self) -> bool {
        self.tallies.iter().any(|t| t.undecided > 0)
    }

    /// Where the maximisation starts, and the parameters it holds: the
    /// anchor, agents with no game, and d when no game was undecided.
    fn start(&self, anchor: usize, games: &[u64]) -> (Vec<f64>, Vec<bool>) {
        let kd = self.draw();
        let mut fixed = vec![false; self.len()];
        fixed[anchor] = true;
        for (f, &g) in fixed.iter_mut().zip(games) {
            *f |= g == 0;
        }
        let mut x = vec![0.0; self.len()];
        if self.has_undecided() {
            // A start inside d > 0, where P(undecided) is positive.
            x[kd] = 100.0 * C;
        } else {
            // With no undecided game the likelihood is highest at d = 0.
            fixed[kd] = true;
        }
        (x, fixed)
    }
}

const MAX_STEPS: usize = 500;
const MAX_STEP: f64 = 10.0;
const GRADIENT_TOL: f64 = 1e-9;
/// Farthest a profile looks for an interval's end, in natural units
/// (~7,000 Elo): beyond it the end is open.
const PROFILE_REACH: f64 = 40.0;

/// Newton's step over the `free` parameters, from their gradient `g` and
/// the Hessian; `None` where the system is singular.
fn newton_step(free: &[usize], g: Vec<f64>, hess: &[Vec<f64>]) -> Option<Vec<f64>> {
    // A vanishing ridge keeps the system solvable where the
    // results leave a direction flat (agents with no games between
    // their group and the rest); it does not move the maximum.
    let scale = free.iter().map(|&i| hess[i][i].abs()).fold(1.0, f64::max);
    let a: Vec<Vec<f64>> = free
        .iter()
        .map(|&i| {
            free.iter()
                .map(|&j| -hess[i][j] + if i == j { 1e-12 * scale } else { 0.0 })
                .collect()
        })
        .collect();
    let mut step = solve(a, g)?;
    // No step longer than MAX_STEP natural units: a near-flat
    // direction would otherwise jump to where exp() underflows.
    let longest = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
    if longest > MAX_STEP {
        step.iter_mut().for_each(|s| *s *= MAX_STEP / longest);
    }
    Some(step)
}

/// Solves A·y = b by Gaussian elimination with partial pivoting; `None`
/// if A is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (above, below) = a.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (i, r) in below.iter_mut().enumerate() {
            let f = r[col] / pivot_row[col];
            for (x, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + i] -= f * b[col];
        }
    }
    let mut y = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * y[k]).sum();
        y[row] = (b[row] - s) / a[row][row];
    }
    Some(y)
}

/// Checks the tallies' agents.
fn check(agents: usize, anchor: usize, tallies: &[SeatTally]) -> Result<(), FitError> {
    for &i in std::iter::once(&anchor).chain(tallies.iter().flat_map(|t| [&t.first, &t.second])) {
        if i >= agents {
            return Err(FitError::NoSuchAgent(i, agents));
        }
    }
    if let Some(t) = tallies.iter().find(|t| t.first == t.second) {
        return Err(FitError::SelfPlay(t.first));
    }
    Ok(())
}

/// Which agents' ratings the results bound above and below. Agent k is
/// bounded above when a chain of results runs from the anchor down to it
/// (the anchor beat or drew someone who beat or drew … k): raising k
/// alone would then make a game it lost or drew ever less likely, and
/// without such a chain the agents above k in no chain can all rise
/// together at no cost. Below is the mirror. (A draw holds both ways.)
fn bounded(agents: usize, anchor: usize, tallies: &[SeatTally]) -> (Vec<bool>, Vec<bool>) {
    // beat[i][j]: i won or drew at least one game against j.
    let mut beat = vec![vec![false; agents]; agents];
    for t in tallies {
        let (i, j) = (t.first, t.second);
        beat[i][j] |= t.first_wins > 0 || t.undecided > 0;
        beat[j][i] |= t.second_wins > 0 || t.undecided > 0;
    }
    let reach = |forward: bool| {
        let mut seen = vec![false; agents];
        seen[anchor] = true;
        let mut stack = vec![anchor];
        while let Some(i) = stack.pop() {
            for j in 0..agents {
                let edge = if forward { beat[i][j] } else { beat[j][i] };
                if edge && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen
    };
    (reach(true), reach(false))
}

/// Fits ratings to `tallies` with `anchor`'s rating fixed at 0 (katro
/// anchors `random`), by maximum likelihood with no prior, and finds each
/// parameter's 95% profile-likelihood interval: the values where the
/// log-likelihood, maximised over the other parameters, is within
/// χ²₁(0.95)/2 = 1.92 of its maximum. Seat orders with no games are
/// ignored; agents the results do not tie to the anchor get open bounds
/// and no estimate.
pub fn fit(agents: usize, anchor: usize, tallies: &[SeatTally]) -> Result<Fit, FitError> {
    check(agents, anchor, tallies)?;
    let tallies: Vec<SeatTally> = tallies.iter().copied().filter(|t| t.games() > 0).collect();
    let p = Problem {
        agents,
        tallies: &tallies,
    };
    let mut games = vec![0; agents];
    for t in &tallies {
        games[t.first] += t.games();
        games[t.second] += t.games();
    }
    let (ka, kd) = (p.advantage(), p.draw());
    let (mut x, fixed) = p.start(anchor, &games);
    let top = p.maximise(&mut x, &fixed)?;
    let m = Maximum {
        p: &p,
        x: &x,
        fixed: &fixed,
        top,
    };
    let (above, below) = bounded(agents, anchor, &tallies);
    let mut ratings = Vec::with_capacity(agents);
    for k in 0..agents {
        if k == anchor {
            ratings.push(Estimate::ZERO);
            continue;
        }
        let low = m.profile(k, -1.0, below[k] && games[k] > 0)?;
        let high = m.profile(k, 1.0, above[k] && games[k] > 0)?;
        ratings.push(m.estimate(k, above[k] && below[k], low, high));
    }
    let advantage = m.interval(ka)?;
    let draw = m.interval(kd)?;
    Ok(Fit {
        ratings,
        advantage,
        draw,
        games,
        test: fit_test(&p, top),
        point: Point {
            ratings: x[..agents].iter().map(|v| v / C).collect(),
            advantage: x[ka] / C,
            draw: x[kd] / C,
        },
    })
}

/// The deviance test of the fit, of maximum log-likelihood `top`, to
/// `p`'s tallies. The cells' own model is the rating model itself with an
/// agent per cell: cell c's first player is agent c, its second a shared
/// agent fixed at 0, and the advantage held at 0, so each cell's Δ is its
/// own free parameter while d stays one for all, as in the fit. It is
/// found by the same maximisation, a cell that went all one way running
/// off as an unbounded rating does. Where the fit leaves a rating open the
/// same happens to its cells there, they add nothing to the deviance, and
/// the df counted for them makes the test conservative.
fn fit_test(p: &Problem, top: f64) -> Option<FitTest> {
    let cells = p.tallies.len();
    if cells == 0 {
        return None;
    }
    let own: Vec<SeatTally> = (p.tallies.iter().enumerate())
        .map(|(c, t)| SeatTally {
            first: c,
            second: cells,
            ..*t
        })
        .collect();
    let q = Problem {
        agents: cells + 1,
        tallies: &own,
    };
    let mut games = vec![1; cells + 1];
    games[cells] = 0;
    let (mut x, mut fixed) = q.start(cells, &games);
    fixed[q.advantage()] = true;
    let saturated = q.maximise(&mut x, &fixed).ok()?;
    // Both maxima stop within about 1e-12 of the likelihood: a difference
    // below 0 is that rounding, the cells' own model containing the fit.
    let deviance = (2.0 * (saturated - top)).max(0.0);
    let df = (cells - design_rank(p)) as u64;
    Some(FitTest {
        deviance,
        df,
        p_value: (df > 0).then(|| chi_square_sf(deviance, df)),
    })
}

/// How many independent combinations of the ratings and the advantage the
/// tallies' cells measure: the rank of the rows e_first − e_second + e_a.
/// A whole tournament of n agents measures n (n − 1 differences and a);
/// agents in separate groups, or a pair seen in one seat only, fewer.
fn design_rank(p: &Problem) -> usize {
    let width = p.agents + 1;
    let mut rows: Vec<Vec<f64>> = (p.tallies.iter())
        .map(|t| {
            let mut r = vec![0.0; width];
            r[t.first] += 1.0;
            r[t.second] -= 1.0;
            r[p.agents] += 1.0;
            r
        })
        .collect();
    let mut rank = 0;
    for col in 0..width {
        let Some(pivot) = (rank..rows.len()).find(|&i| rows[i][col].abs() > 1e-9) else {
            continue;
        };
        rows.swap(rank, pivot);
        let top = rows[rank].clone();
        for r in rows.iter_mut().skip(rank + 1) {
            let f = r[col] / top[col];
            for (x, y) in r.iter_mut().zip(&top) {
                *x -= f * y;
            }
        }
        rank += 1;
    }
    rank
}

/// The fit's maximum `x`, of log-likelihood `top`, over the parameters
/// not `fixed`: where the profiles start.
struct Maximum<'a> {
    p: &'a Problem<'a>,
    x: &'a [f64],
    fixed: &'a [bool],
    top: f64,
}

impl Maximum<'_> {
    /// [`profile_end`], or `None` without looking where the results do
    /// not bound the parameter (`reach` false).
    fn profile(&self, k: usize, side: f64, reach: bool) -> Result<Option<f64>, FitError> {
        if !reach {
            return Ok(None);
        }
        profile_end(self.p, self.x, self.fixed, self.top, k, side)
    }

    /// Parameter k's estimate in Elo: its value only when it is bounded
    /// both ways and both ends were found.
    fn estimate(&self, k: usize, bounded: bool, low: Option<f64>, high: Option<f64>) -> Estimate {
        Estimate {
            value: (bounded && low.is_some() && high.is_some()).then_some(self.x[k] / C),
            low: low.map(|v| v / C),
            high: high.map(|v| v / C),
        }
    }

    /// The interval of a model parameter (a or d), which the results
    /// always bound.
    fn interval(&self, k: usize) -> Result<Estimate, FitError> {
        let low = self.profile(k, -1.0, true)?;
        let high = self.profile(k, 1.0, true)?;
        Ok(self.estimate(k, true, low, high))
    }
}

/// The end of parameter k's interval on `side` (−1 below, +1 above), in
/// natural units, or `None` when the profile stays within 1.92 of the
/// maximum for PROFILE_REACH. The profile is concave, so the end is the
/// one crossing, found by doubling steps and then regula falsi
/// (Illinois), each point a maximisation over the others warm-started
/// from the last.
fn profile_end(
    p: &Problem,
    best: &[f64],
    fixed: &[bool],
    top: f64,
    k: usize,
    side: f64,
) -> Result<Option<f64>, FitError> {
    let target = top - HALF_CHI2_95;
    let mut held = fixed.to_vec();
    held[k] = true;
    let profile = Profile { p, held, k, target };
    let mut warm = best.to_vec();
    match profile.bracket(best[k], side, &mut warm)? {
        Bracket::End(end) => Ok(end),
        Bracket::Across(inside, outside) => profile.crossing(inside, outside, &mut warm).map(Some),
    }
}

/// Parameter k's profile: the log-likelihood maximised over the other
/// parameters not `held`, less `target`, positive inside the interval.
struct Profile<'a> {
    p: &'a Problem<'a>,
    held: Vec<bool>,
    k: usize,
    target: f64,
}

/// Where the doubling steps out of the maximum stopped: at the end
/// itself (`None`: open), or across it, a point (θ, profile) inside and
/// one outside.
enum Bracket {
    End(Option<f64>),
    Across((f64, f64), (f64, f64)),
}

impl Profile<'_> {
    /// The profile at k = `theta`, maximised from `warm` (left at the
    /// maximum, the next point's start).
    fn at(&self, theta: f64, warm: &mut [f64]) -> Result<f64, FitError> {
        warm[self.k] = theta;
        Ok(self.p.maximise(warm, &self.held)? - self.target)
    }

    /// Inside at the maximum `from` (h = 1.92), then steps doubling out
    /// on `side`.
    fn bracket(&self, from: f64, side: f64, warm: &mut [f64]) -> Result<Bracket, FitError> {
        let (mut t_in, mut h_in) = (from, HALF_CHI2_95);
        let mut step = 0.25;
        loop {
            let t = from + side * step;
            if self.k == self.p.draw() && t <= 0.0 {
                // d's bound. With no undecided game d's maximum is 0 itself;
                // with some, the likelihood falls to 0 at d = 0, so the end
                // lies above it, found by halving towards 0.
                if !self.p.has_undecided() {
                    return Ok(Bracket::End(Some(0.0)));
                }
                let t = t_in / 2.0;
                if t < 1e-12 {
                    // Within 1e-10 Elo of 0: the end is 0 to any precision
                    // the files print.
                    return Ok(Bracket::End(Some(0.0)));
                }
                let h = self.at(t, warm)?;
                if h < 0.0 {
                    return Ok(Bracket::Across((t_in, h_in), (t, h)));
                }
                (t_in, h_in) = (t, h);
                continue;
            }
            let h = self.at(t, warm)?;
            if h < 0.0 {
                return Ok(Bracket::Across((t_in, h_in), (t, h)));
            }
            (t_in, h_in) = (t, h);
            if step > PROFILE_REACH {
                return Ok(Bracket::End(None));
            }
            step *= 2.0;
        }
    }

    /// The crossing between a point inside and one outside, by regula
    /// falsi (Illinois).
    fn crossing(
        &self,
        (mut a, mut fa): (f64, f64),
        (mut b, mut fb): (f64, f64),
        warm: &mut [f64],
    ) -> Result<f64, FitError> {
        let mut last = 0;
        for _ in 0..100 {
            let t = b - fb * (b - a) / (fb - fa);
            let h = self.at(t, warm)?;
            if h.abs() < 1e-9 || (b - a).abs() < 1e-10 {
                return Ok(t);
            }
            if (h > 0.0) == (fa > 0.0) {
                (a, fa) = (t, h);
                if last == -1 {
                    fb /= 2.0;
                }
                last = -1;
            } else {
                (b, fb) = (t, h);
                if last == 1 {
                    fa /= 2.0;
                }
                last = 1;
            }
        }
        Ok(b - fb * (b - a) / (fb - fa))
    }
}

/// The model's probabilities (first wins, second wins, undecided) for a
/// game where an agent rated `first` moves first against one rated
/// `second`, under advantage `a` and draw term `d`.
pub fn outcome_probabilities(first: f64, second: f64, a: f64, d: f64) -> [f64; 3] {
    let delta = first - second + a;
    let pw = sigmoid(C * (delta - d));
    let pl = sigmoid(C * (-delta - d));
    [pw, pl, 1.0 - pw - pl]
}

/// One agent's record against another on one variant, from the two cells
/// of their pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairRecord {
    /// The later of the two in the tournament's list.
    pub agent: usize,
    pub opponent: usize,
    /// `agent` moving first.
    pub as_first: SeatTally,
    /// `opponent` moving first.
    pub as_second: SeatTally,
}

impl PairRecord {
    pub fn games(&self) -> u64 {
        self.as_first.games() + self.as_second.games()
    }
    /// Games `agent` won, either seat.
    pub fn wins(&self) -> u64 {
        self.as_first.first_wins + self.as_second.second_wins
    }
    pub fn losses(&self) -> u64 {
        self.as_first.second_wins + self.as_second.first_wins
    }
    pub fn undecided(&self) -> u64 {
        self.as_first.undecided + self.as_second.undecided
    }
}

/// A tournament's results on one variant and the ratings fitted to them.
#[derive(Clone, Debug)]
pub struct VariantRatings {
    /// The variant's name and rules string, as summary.csv writes them
    /// (either may be empty for results from elsewhere).
    pub variant: String,
    pub rules: String,
    /// The games' random opening plies, as written ("" when unknown).
    pub opening_plies: String,
    /// The agents in order: the tournament's list, else as they first
    /// appear in the results.
    pub agents: Vec<String>,
    pub anchor: usize,
    /// Every pair of agents that met, once, in the order of their first
    /// result (`agent` the later-listed).
    pub pairs: Vec<PairRecord>,
    pub fit: Result<Fit, FitError>,
    /// Each agent's games against itself in the tournament's opening,
    /// where the results hold them (`first` = `second` = the agent): not
    /// fitted, but beside the first-move term, which they measure
    /// directly at one strength.
    pub self_play: Vec<Option<SeatTally>>,
}

impl VariantRatings {
    /// How many of the anchor's games bound it against the rest: its
    /// rarer result, min(wins, losses) over all its games, plus its
    /// undecided games (which bound it both ways, as in the fit). Every
    /// rating is relative to the anchor, so however many games the others
    /// played, how far they sit from it rests on these.
    pub fn anchor_decisive(&self) -> u64 {
        let (w, l, u) = self.record(self.anchor);
        w.min(l) + u
    }

    /// An agent's (wins, losses, undecided) over all its games.
    pub fn record(&self, agent: usize) -> (u64, u64, u64) {
        self.pairs.iter().fold((0, 0, 0), |(w, l, u), p| {
            if p.agent == agent {
                (w + p.wins(), l + p.losses(), u + p.undecided())
            } else if p.opponent == agent {
                (w + p.losses(), l + p.wins(), u + p.undecided())
            } else {
                (w, l, u)
            }
        })
    }
}

/// One seat order's results by name: `p1` moved first against `p2`.
/// What summary.csv's rows say, and what `katro rate` reads from any CSV.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLine {
    pub variant: String,
    pub rules: String,
    pub opening_plies: String,
    pub p1: String,
    pub p2: String,
    pub p1_wins: u64,
    pub p2_wins: u64,
    pub undecided: u64,
}

/// Who is rated and against whom: the tournament's agents in its order
/// and its anchor. Without one, agents are taken in the order they first
/// appear and the anchor is `random` when it played, else the first
/// agent (docs/OUTPUTS.md, ratings.csv).
#[derive(Clone, Copy, Debug)]
pub struct Roster<'a> {
    pub agents: &'a [String],
    pub anchor: usize,
}

/// Rates `lines` variant by variant (variants in the order they first
/// appear): the one path from results to ratings, for `katro run`'s
/// tournaments and for `katro rate`. With a roster, lines between agents
/// it does not list are left out. Self-play lines are never fitted: one
/// of an agent rated on its variant, in the variant's opening, is kept
/// as its self-play.
pub fn rate_lines(lines: &[ResultLine], roster: Option<Roster>) -> Vec<VariantRatings> {
    let mut out: Vec<(VariantRatings, Vec<SeatTally>)> = Vec::new();
    for line in lines.iter().filter(|l| l.p1 != l.p2) {
        let known = |name: &str| roster.is_none_or(|r| r.agents.iter().any(|a| a == name));
        if !known(&line.p1) || !known(&line.p2) {
            continue;
        }
        let k = variant_of(&mut out, line, roster);
        let (v, tallies) = &mut out[k];
        tallies.push(v.add_line(line));
    }
    out.into_iter()
        .map(|(mut v, tallies)| {
            if roster.is_none() {
                v.anchor = v.agents.iter().position(|a| a == "random").unwrap_or(0);
            }
            v.fit = fit(v.agents.len(), v.anchor, &tallies);
            v.self_play = self_play_of(&v, lines);
            v
        })
        .collect()
}

/// The self-play tallies of `v`'s agents among `lines`: only of a variant
/// the pairings made, so self-play alone adds no variant to the ratings.
fn self_play_of(v: &VariantRatings, lines: &[ResultLine]) -> Vec<Option<SeatTally>> {
    let mut out = vec![None; v.agents.len()];
    for l in lines.iter().filter(|l| l.p1 == l.p2) {
        let same =
            l.variant == v.variant && l.rules == v.rules && l.opening_plies == v.opening_plies;
        if let Some(i) = v.agents.iter().position(|a| *a == l.p1).filter(|_| same) {
            out[i] = Some(SeatTally {
                first: i,
                second: i,
                first_wins: l.p1_wins,
                second_wins: l.p2_wins,
                undecided: l.undecided,
            });
        }
    }
    out
}

/// The index in `out` of `line`'s variant, added with no results (and
/// no fit yet) if missing.
fn variant_of(
    out: &mut Vec<(VariantRatings, Vec<SeatTally>)>,
    line: &ResultLine,
    roster: Option<Roster>,
) -> usize {
    if let Some(k) =
        (out.iter()).position(|(v, _)| v.variant == line.variant && v.rules == line.rules)
    {
        return k;
    }
    out.push((
        VariantRatings {
            variant: line.variant.clone(),
            rules: line.rules.clone(),
            opening_plies: line.opening_plies.clone(),
            agents: roster.map_or_else(Vec::new, |r| r.agents.to_vec()),
            anchor: roster.map_or(0, |r| r.anchor),
            pairs: Vec::new(),
            fit: Err(FitError::NoConvergence(0)),
            self_play: Vec::new(),
        },
        Vec::new(),
    ));
    out.len() - 1
}

impl VariantRatings {
    /// Adds `line` to its pair's record (its agents added if new) and
    /// returns its seat order's tally.
    fn add_line(&mut self, line: &ResultLine) -> SeatTally {
        let mut index = |name: &str| match self.agents.iter().position(|a| a == name) {
            Some(i) => i,
            None => {
                self.agents.push(name.to_string());
                self.agents.len() - 1
            }
        };
        let (first, second) = (index(&line.p1), index(&line.p2));
        let tally = SeatTally {
            first,
            second,
            first_wins: line.p1_wins,
            second_wins: line.p2_wins,
            undecided: line.undecided,
        };
        let (agent, opponent) = (first.max(second), first.min(second));
        let record = PairRecord::find_or_add(&mut self.pairs, agent, opponent);
        if first == agent {
            record.as_first = tally;
        } else {
            record.as_second = tally;
        }
        tally
    }
}

/// The tournament's pairings' results as result lines, in the cells'
/// order, and any self-play of its agents in its opening: what
/// summary.csv says of them, so `katro run` and `katro rate` read the
/// same. Other cells (the file's own `[[matchups]]`) are left out.
pub fn tournament_lines(
    t: &Tournament,
    cells: &[Cell],
    aggregates: &[Aggregate],
) -> Vec<ResultLine> {
    cells
        .iter()
        .zip(aggregates)
        .filter(|(c, _)| {
            let listed = t.agents.contains(c.p1) && c.opening_plies == t.opening_plies;
            t.pairing(c.p1, c.p2, c.opening_plies).is_some() || (listed && c.p1 == c.p2)
        })
        .map(|(c, a)| ResultLine {
            variant: c.rules.name().to_string(),
            rules: c.rules.canonical_string(),
            opening_plies: c.opening_plies.to_string(),
            p1: c.p1.to_string(),
            p2: c.p2.to_string(),
            p1_wins: a.wins[0],
            p2_wins: a.wins[1],
            undecided: a.games - a.wins[0] - a.wins[1],
        })
        .collect()
}

/// The tournament's results and ratings, variant by variant in the cells'
/// order, from the finished cells' integer tallies: the same bits however
/// the games were played, split or resumed, and the same as `katro rate`
/// gives from the summary.csv those cells make.
pub fn rate(t: &Tournament, cells: &[Cell], aggregates: &[Aggregate]) -> Vec<VariantRatings> {
    let agents: Vec<String> = t.agents.iter().map(|a| a.to_string()).collect();
    rate_lines(
        &tournament_lines(t, cells, aggregates),
        Some(Roster {
            agents: &agents,
            anchor: t.anchor,
        }),
    )
}

impl PairRecord {
    /// The record of `agent` against `opponent` in `pairs`, added with no
    /// games if missing.
    fn find_or_add(pairs: &mut Vec<PairRecord>, agent: usize, opponent: usize) -> &mut PairRecord {
        let i = match (pairs.iter()).position(|p| p.agent == agent && p.opponent == opponent) {
            Some(i) => i,
            None => {
                let none = SeatTally {
                    first: 0,
                    second: 0,
                    first_wins: 0,
                    second_wins: 0,
                    undecided: 0,
                };
                pairs.push(PairRecord {
                    agent,
                    opponent,
                    as_first: SeatTally {
                        first: agent,
                        second: opponent,
                        ..none
                    },
                    as_second: SeatTally {
                        first: opponent,
                        second: agent,
                        ..none
                    },
                });
                pairs.len() - 1
            }
        };
        &mut pairs[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{GameRng, rng_from_seed, unit};

    fn tally(first: usize, second: usize, w: u64, l: u64, u: u64) -> SeatTally {
        SeatTally {
            first,
            second,
            first_wins: w,
            second_wins: l,
            undecided: u,
        }
    }

    fn close(a: Option<f64>, b: f64, tol: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < tol)
    }

    #[test]
    fn outcome_probabilities_match_the_model() {
        let [w, l, u] = outcome_probabilities(0.0, 0.0, 0.0, 0.0);
        assert!((w - 0.5).abs() < 1e-15 && (l - 0.5).abs() < 1e-15 && u.abs() < 1e-15);
        // 400 Elo ahead, no advantage or draws: 10 to 1.
        let [w, _, _] = outcome_probabilities(400.0, 0.0, 0.0, 0.0);
        assert!((w - 10.0 / 11.0).abs() < 1e-12, "{w}");
    }

    /// Two agents whose results are exactly the model's expectations, so
    /// the fit must give the parameters they were made from, worked out by
    /// hand. With A (the anchor) first, 220 games: A wins 110, B wins 55,
    /// 55 undecided: f(Δ₁ − d) = 1/2 and f(−Δ₁ − d) = 1/4, so Δ₁ = d and
    /// −Δ₁ − d = −400·log₁₀3, hence d = 200·log₁₀3 = 95.424 and Δ₁ = rA −
    /// rB + a = 95.424. With B first, 220 games: B wins 132, A wins 40, 48
    /// undecided: f(Δ₂ − d) = 0.6 gives Δ₂ − d = 400·log₁₀1.5, and
    /// f(−Δ₂ − d) = 2/11 holds with the same d (−Δ₂ − d = −400·log₁₀4.5).
    /// So Δ₂ = rB − rA + a = 95.424 + 70.437; with rA = 0:
    /// rB = 200·log₁₀1.5 = 35.218 and a = 95.424 + 35.218 = 130.643.
    #[test]
    fn two_agents_match_a_hand_computation() {
        let f = fit(2, 0, &[tally(0, 1, 110, 55, 55), tally(1, 0, 132, 40, 48)]).unwrap();
        let d = 200.0 * 3f64.log10();
        let rb = 200.0 * 1.5f64.log10();
        assert!(close(f.ratings[1].value, rb, 1e-6), "{f:?}");
        assert!(close(f.advantage.value, d + rb, 1e-6), "{f:?}");
        assert!(close(f.draw.value, d, 1e-6), "{f:?}");
        assert_eq!(f.ratings[0], Estimate::ZERO);
        assert_eq!(f.games, [440, 440]);
        // A profile interval holds the estimate and is about ±1.96 se
        // wide for this many games (se ≈ 20 Elo).
        let r = f.ratings[1];
        let (low, high) = (r.low.unwrap(), r.high.unwrap());
        assert!(
            low < rb && rb < high && high - low > 40.0 && high - low < 120.0,
            "{r:?}"
        );
    }

    /// The profile interval's ends are where the log-likelihood, maximised
    /// over the other parameters, is 1.92 below its maximum.
    #[test]
    fn interval_ends_are_where_the_profile_drops_by_1_92() {
        let t = [tally(0, 1, 30, 50, 5), tally(1, 0, 60, 20, 4)];
        let f = fit(2, 0, &t).unwrap();
        let p = Problem {
            agents: 2,
            tallies: &t,
        };
        let mut x = vec![0.0, 0.0, 0.0, 0.5];
        let top = p.maximise(&mut x, &[true, false, false, false]).unwrap();
        for end in [f.ratings[1].low, f.ratings[1].high] {
            let mut y = x.clone();
            y[1] = end.unwrap() * C;
            let l = p.maximise(&mut y, &[true, true, false, false]).unwrap();
            assert!((top - l - HALF_CHI2_95).abs() < 1e-6, "{top} {l}");
        }
    }

    #[test]
    fn swapping_the_agents_mirrors_the_ratings() {
        let t = [tally(0, 1, 30, 50, 5), tally(1, 0, 60, 20, 4)];
        let f = fit(2, 0, &t).unwrap();
        let g = fit(2, 1, &t).unwrap();
        let (r, s) = (f.ratings[1], g.ratings[0]);
        assert!(close(r.value, -s.value.unwrap(), 1e-7));
        assert!(close(r.low, -s.high.unwrap(), 1e-6));
        assert!(close(r.high, -s.low.unwrap(), 1e-6));
        assert!(close(f.advantage.value, g.advantage.value.unwrap(), 1e-7));
    }

    /// An agent that won every game has no estimate and no upper bound,
    /// but the results still bound it below. With no undecided game the
    /// draw term's interval starts at 0; here nothing bounds it above (the
    /// gap can grow with it), so it too has no estimate.
    #[test]
    fn an_agent_that_won_every_game_is_bounded_only_below() {
        let f = fit(2, 0, &[tally(0, 1, 0, 50, 0), tally(1, 0, 50, 0, 0)]).unwrap();
        let r = f.ratings[1];
        assert_eq!((r.value, r.high), (None, None), "{r:?}");
        assert!(r.low.is_some_and(|l| l > 200.0 && l < 1000.0), "{r:?}");
        assert!(!r.identified());
        assert_eq!((f.draw.value, f.draw.low), (None, Some(0.0)));
    }

    /// Random never won on katro-6x6-diagonal: with it as the anchor no
    /// rating is identified, though the others' differences are.
    #[test]
    fn an_anchor_that_never_won_leaves_every_rating_open_above() {
        let t = [
            tally(0, 1, 0, 10, 0),
            tally(1, 0, 10, 0, 0),
            tally(0, 2, 0, 10, 0),
            tally(2, 0, 10, 0, 0),
            tally(1, 2, 3, 7, 0),
            tally(2, 1, 6, 4, 0),
        ];
        let f = fit(3, 0, &t).unwrap();
        for r in &f.ratings[1..] {
            assert_eq!((r.value, r.high), (None, None), "{r:?}");
            assert!(r.low.is_some(), "{r:?}");
        }
        assert!(f.advantage.identified(), "{:?}", f.advantage);
        let g = fit(3, 1, &t).unwrap();
        assert!(g.ratings[2].identified(), "{g:?}");
        assert_eq!((g.ratings[0].value, g.ratings[0].low), (None, None));
    }

    #[test]
    fn agents_the_results_do_not_connect_are_open_both_ways() {
        let t = [
            tally(0, 1, 5, 5, 0),
            tally(1, 0, 5, 5, 0),
            tally(2, 3, 5, 5, 0),
            tally(3, 2, 5, 5, 0),
        ];
        let f = fit(5, 0, &t).unwrap();
        assert!(f.ratings[1].identified());
        for r in &f.ratings[2..] {
            assert_eq!((r.value, r.low, r.high), (None, None, None), "{r:?}");
        }
    }

    #[test]
    fn bad_tallies_are_refused() {
        assert_eq!(
            fit(2, 0, &[tally(0, 2, 1, 1, 0)]),
            Err(FitError::NoSuchAgent(2, 2))
        );
        assert_eq!(
            fit(2, 0, &[tally(1, 1, 1, 1, 0)]),
            Err(FitError::SelfPlay(1))
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Any tallies of three agents, separated or not, fit without an
        /// error; every interval holds its estimate, the draw term's
        /// stays at or above 0, the anchor is 0 to 0, and an estimate is
        /// given exactly when both ends are.
        #[test]
        fn every_fit_is_ordered_and_in_bounds(
            counts in proptest::collection::vec((0u64..6, 0u64..6, 0u64..3), 6),
        ) {
            let pairs = [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)];
            let t: Vec<SeatTally> = pairs
                .iter()
                .zip(&counts)
                .map(|(&(i, j), &(w, l, u))| tally(i, j, w, l, u))
                .collect();
            let f = fit(3, 0, &t).unwrap();
            proptest::prop_assert_eq!(f.ratings[0], Estimate::ZERO);
            for e in f.ratings.iter().chain([&f.advantage, &f.draw]) {
                proptest::prop_assert_eq!(e.value.is_some(), e.identified(), "{:?}", e);
                if let (Some(v), Some(l), Some(h)) = (e.value, e.low, e.high) {
                    proptest::prop_assert!(l <= v + 1e-6 && v <= h + 1e-6, "{:?}", e);
                }
            }
            proptest::prop_assert!(f.draw.low.is_some_and(|l| l >= 0.0), "{:?}", f.draw);
        }
    }

    /// The results of `games` games of `first` (rated `ri`) against
    /// `second` (rated `rj`) under the model.
    fn draw_tally(
        rng: &mut GameRng,
        (first, second): (usize, usize),
        (ri, rj): (f64, f64),
        (a, d): (f64, f64),
        games: u64,
    ) -> SeatTally {
        let [pw, pl, _] = outcome_probabilities(ri, rj, a, d);
        let mut t = tally(first, second, 0, 0, 0);
        for _ in 0..games {
            let x = unit(rng);
            if x < pw {
                t.first_wins += 1;
            } else if x < pw + pl {
                t.second_wins += 1;
            } else {
                t.undecided += 1;
            }
        }
        t
    }

    /// katro-ludii's tournament rows in results/strong-play/summary.csv
    /// (p1 ≠ p2, 4 opening plies): 4 undecided games in 2,100.
    const LUDII_UNDECIDED: f64 = 4.0 / 2100.0;

    /// The draw term that gives `rate` undecided games on average over
    /// every seat order of `truth` with advantage `a`.
    fn draw_term_for(truth: &[f64], a: f64, rate: f64) -> f64 {
        let mean = |d: f64| {
            let mut s = 0.0;
            for (i, &ri) in truth.iter().enumerate() {
                for (j, &rj) in truth.iter().enumerate() {
                    if i != j {
                        s += outcome_probabilities(ri, rj, a, d)[2];
                    }
                }
            }
            s / (truth.len() * (truth.len() - 1)) as f64
        };
        let (mut lo, mut hi) = (0.0, 400.0);
        for _ in 0..100 {
            let mid = (lo + hi) / 2.0;
            if mean(mid) < rate {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// One parameter's record over the redraws.
    #[derive(Default, Debug)]
    struct Tracked {
        covered: u32,
        redraws: u32,
        /// Over the redraws with an estimate: Σ(estimate − truth), Σ half
        /// the interval's width / 1.96 (a standard error), and how many.
        error: f64,
        se: f64,
        estimated: u32,
    }

    impl Tracked {
        fn add(&mut self, e: &Estimate, truth: f64) {
            self.redraws += 1;
            let inside = e.low.is_none_or(|l| l <= truth) && e.high.is_none_or(|h| truth <= h);
            self.covered += u32::from(inside);
            if let (Some(v), Some(l), Some(h)) = (e.value, e.low, e.high) {
                self.error += v - truth;
                self.se += (h - l) / (2.0 * Z95);
                self.estimated += 1;
            }
        }
        fn coverage(&self) -> f64 {
            f64::from(self.covered) / f64::from(self.redraws)
        }
        /// Mean bias in mean standard errors.
        fn bias(&self) -> f64 {
            self.error / self.se
        }
    }

    /// Redraws `redraws` tournaments shaped like the committed ones (seven
    /// agents, 50 games a seat a pair) from `truth` (agent 0, the anchor,
    /// at 0), advantage `a` and undecided games at katro-ludii's rate,
    /// refits each, and tracks every agent's rating, a and d.
    fn coverage(seed: u64, truth: &[f64], a: f64, redraws: u32) -> Vec<Tracked> {
        let d = draw_term_for(truth, a, LUDII_UNDECIDED);
        let n = truth.len();
        let mut rng = rng_from_seed(seed);
        let mut tracked: Vec<Tracked> = (0..n + 2).map(|_| Tracked::default()).collect();
        for _ in 0..redraws {
            let mut tallies = Vec::new();
            for i in 0..n {
                for j in 0..n {
                    if i != j {
                        let t = draw_tally(&mut rng, (i, j), (truth[i], truth[j]), (a, d), 50);
                        tallies.push(t);
                    }
                }
            }
            let f = fit(n, 0, &tallies).unwrap();
            for k in 1..n {
                tracked[k].add(&f.ratings[k], truth[k]);
            }
            tracked[n].add(&f.advantage, a);
            tracked[n + 1].add(&f.draw, d);
        }
        tracked
    }

    /// katro-6x6's ladder as the fit without a prior puts it (random,
    /// greedy, depth 2, depth 4, MCTS, 1,000 and 20,000 nodes), rounded:
    /// random loses nearly every game, and the top pairs end 100–0.
    const LADDER: [f64; 7] = [0.0, 400.0, 550.0, 900.0, 630.0, 1150.0, 1600.0];
    /// Evenly spread over 0–1,600.
    const EVEN: [f64; 7] = [0.0, 267.0, 533.0, 800.0, 1067.0, 1333.0, 1600.0];

    fn assert_calibrated(name: &str, tracked: &[Tracked]) {
        for (k, t) in tracked.iter().enumerate().skip(1) {
            let c = t.coverage();
            assert!(
                (0.93..=0.97).contains(&c) && t.bias().abs() < 0.25,
                "{name}: parameter {k} covered {} of {}, bias {:.3} se: {t:?}",
                t.covered,
                t.redraws,
                t.bias()
            );
        }
    }

    /// A quick version of the coverage study below, run with every test:
    /// a few hundred redraws of the ladder. Its bands are wider (the
    /// redraws are fewer): 90–99% and a third of a standard error.
    #[test]
    fn intervals_cover_a_ladder_like_katro_6x6() {
        let tracked = coverage(0x5eed_2026, &LADDER, 150.0, 300);
        for (k, t) in tracked.iter().enumerate().skip(1) {
            let c = t.coverage();
            assert!(
                (0.90..=0.99).contains(&c) && t.bias().abs() < 1.0 / 3.0,
                "parameter {k}: {t:?}"
            );
        }
    }

    /// The coverage study docs/OUTPUTS.md quotes: 2,000 redraws each of
    /// two tournaments shaped like the committed ones, the first-move
    /// term +150 and −150 Elo. Every agent's rating, a and d must be
    /// covered by their 95% intervals in 93–97% of redraws, with a mean
    /// bias under a quarter of a standard error. `.ci/run` runs it
    /// (`cargo test --release --lib ratings -- --ignored --nocapture`).
    #[test]
    #[ignore = "about a minute in release; .ci/run runs it"]
    fn intervals_cover_the_true_values_at_95_percent() {
        for (name, truth, a, seed) in [
            ("ladder, a = +150", &LADDER, 150.0, 1),
            ("even, a = -150", &EVEN, -150.0, 2),
        ] {
            let tracked = coverage(seed, truth, a, 2000);
            for (k, t) in tracked.iter().enumerate().skip(1) {
                println!(
                    "{name}: parameter {k}: covered {} of {} ({:.1}%), bias {:+.3} se",
                    t.covered,
                    t.redraws,
                    100.0 * t.coverage(),
                    t.bias()
                );
            }
            assert_calibrated(name, &tracked);
        }
    }

    /// `rate` takes each pairing's two cells, leaves other cells out, keeps
    /// variants apart and fits exactly the tallies it reports.
    #[test]
    fn a_tournament_is_rated_from_its_own_cells_variant_by_variant() {
        use crate::agents::AgentSpec;
        use crate::experiment::runner::Stop;
        let (r4, r6) = (
            crate::rules::preset("katro-4x4").unwrap(),
            crate::rules::preset("katro-6x3").unwrap(),
        );
        let agents = [AgentSpec::Random, AgentSpec::Greedy];
        let t = Tournament {
            agents: agents.to_vec(),
            anchor: 0,
            opening_plies: 2,
        };
        let cell = |rules, p1: usize, p2: usize, opening_plies| Cell {
            rules,
            p1: &agents[p1],
            p2: &agents[p2],
            opening_plies,
            stop: Stop::Games(10),
            metrics: None,
            balance_margin: None,
        };
        let agg = |w1, w2, games| Aggregate {
            games,
            wins: [w1, w2],
            ..Aggregate::new()
        };
        let cells = [
            cell(&r4, 0, 1, 2),
            cell(&r4, 1, 1, 2), // self-play: not a pairing
            cell(&r4, 1, 0, 2),
            cell(&r4, 1, 0, 0), // another opening: not a pairing
            cell(&r6, 1, 0, 2),
            cell(&r6, 0, 1, 2),
        ];
        let aggs = [
            agg(3, 6, 10),
            agg(5, 5, 10),
            agg(7, 2, 10),
            agg(0, 10, 10),
            agg(8, 1, 10),
            agg(1, 9, 10),
        ];
        let rated = rate(&t, &cells, &aggs);
        assert_eq!(rated.len(), 2);
        assert_eq!(rated[0].variant, "katro-4x4");
        assert_eq!(rated[0].agents, ["random", "greedy"]);
        let p = rated[0].pairs[0];
        assert_eq!((p.agent, p.opponent), (1, 0));
        assert_eq!(p.as_second, tally(0, 1, 3, 6, 1));
        assert_eq!(p.as_first, tally(1, 0, 7, 2, 1));
        assert_eq!(
            (p.wins(), p.losses(), p.undecided(), p.games()),
            (13, 5, 2, 20)
        );
        assert_eq!(rated[0].record(0), (5, 13, 2));
        assert_eq!(rated[0].record(1), (13, 5, 2));
        let fitted = rated[0].fit.as_ref().unwrap();
        let direct = fit(2, 0, &[tally(0, 1, 3, 6, 1), tally(1, 0, 7, 2, 1)]).unwrap();
        assert_eq!(*fitted, direct);
        assert!(fitted.ratings[1].value.unwrap() > 0.0);
        assert_eq!(rated[1].record(1), (17, 2, 1));
    }

    /// The deviance test against values from an independent computation:
    /// a Python script (no katro code) fitting the same model by Newton's
    /// method on finite differences, maximising each cell's own Δ by
    /// golden-section search with d shared (golden-section again), and
    /// taking χ² tails from their closed forms at whole df. First three
    /// agents with no undecided game, then the same with some.
    #[test]
    fn the_fit_test_matches_an_independent_computation() {
        let decided = [
            tally(0, 1, 30, 20, 0),
            tally(1, 0, 25, 25, 0),
            tally(0, 2, 10, 40, 0),
            tally(2, 0, 35, 15, 0),
            tally(1, 2, 22, 28, 0),
            tally(2, 1, 33, 17, 0),
        ];
        let with_undecided = [
            tally(0, 1, 30, 15, 5),
            tally(1, 0, 20, 25, 5),
            tally(0, 2, 10, 36, 4),
            tally(2, 0, 35, 12, 3),
            tally(1, 2, 22, 25, 3),
            tally(2, 1, 33, 15, 2),
        ];
        for (t, deviance, p) in [
            (&decided, 8.461_538_889, 0.037_376_659_57),
            (&with_undecided, 10.454_026_51, 0.015_076_026_91),
        ] {
            let test = fit(3, 0, t).unwrap().test.unwrap();
            assert!((test.deviance - deviance).abs() < 1e-6, "{test:?}");
            assert_eq!(test.df, 3);
            assert!(close(test.p_value, p, 1e-8), "{test:?}");
        }
    }

    /// katro-6x3 and katro-ludii in results/strong-play (their tournament
    /// cells as summary.csv has them): the fit test the reviewer
    /// ran, against the same Python computation. katro-6x3 has no
    /// undecided game, and its deviance is the reviewer's to the digit (p
    /// = 0.0074); katro-ludii's 4 undecided games make the reviewer's
    /// deviance larger by the part that tests where they fell (16.04,
    /// against every cell's own three-way split) and its df one fewer:
    /// docs/OUTPUTS.md says why this test leaves that part out.
    #[test]
    fn the_fit_test_rejects_katro_6x3_and_katro_ludii() {
        #[rustfmt::skip]
        let k6x3 = [
            (0, 1, 5, 45, 0), (1, 0, 44, 6, 0), (0, 2, 7, 43, 0), (2, 0, 47, 3, 0),
            (0, 3, 3, 47, 0), (3, 0, 48, 2, 0), (0, 4, 1, 49, 0), (4, 0, 46, 4, 0),
            (0, 5, 3, 47, 0), (5, 0, 47, 3, 0), (0, 6, 3, 47, 0), (6, 0, 50, 0, 0),
            (1, 2, 19, 31, 0), (2, 1, 29, 21, 0), (1, 3, 6, 44, 0), (3, 1, 44, 6, 0),
            (1, 4, 9, 41, 0), (4, 1, 43, 7, 0), (1, 5, 8, 42, 0), (5, 1, 45, 5, 0),
            (1, 6, 6, 44, 0), (6, 1, 47, 3, 0), (2, 3, 18, 32, 0), (3, 2, 43, 7, 0),
            (2, 4, 11, 39, 0), (4, 2, 42, 8, 0), (2, 5, 11, 39, 0), (5, 2, 39, 11, 0),
            (2, 6, 12, 38, 0), (6, 2, 45, 5, 0), (3, 4, 21, 29, 0), (4, 3, 34, 16, 0),
            (3, 5, 24, 26, 0), (5, 3, 38, 12, 0), (3, 6, 18, 32, 0), (6, 3, 34, 16, 0),
            (4, 5, 24, 26, 0), (5, 4, 34, 16, 0), (4, 6, 16, 34, 0), (6, 4, 44, 6, 0),
            (5, 6, 35, 15, 0), (6, 5, 23, 27, 0),
        ];
        #[rustfmt::skip]
        let ludii = [
            (0, 1, 1, 49, 0), (1, 0, 50, 0, 0), (0, 2, 1, 49, 0), (2, 0, 48, 2, 0),
            (0, 3, 0, 50, 0), (3, 0, 50, 0, 0), (0, 4, 0, 50, 0), (4, 0, 50, 0, 0),
            (0, 5, 0, 50, 0), (5, 0, 50, 0, 0), (0, 6, 0, 50, 0), (6, 0, 50, 0, 0),
            (1, 2, 11, 39, 0), (2, 1, 34, 16, 0), (1, 3, 4, 46, 0), (3, 1, 48, 2, 0),
            (1, 4, 28, 22, 0), (4, 1, 30, 20, 0), (1, 5, 7, 43, 0), (5, 1, 48, 2, 0),
            (1, 6, 4, 46, 0), (6, 1, 50, 0, 0), (2, 3, 12, 38, 0), (3, 2, 48, 2, 0),
            (2, 4, 28, 22, 0), (4, 2, 18, 32, 0), (2, 5, 6, 44, 0), (5, 2, 49, 1, 0),
            (2, 6, 10, 40, 0), (6, 2, 50, 0, 0), (3, 4, 47, 3, 0), (4, 3, 14, 36, 0),
            (3, 5, 25, 25, 0), (5, 3, 42, 7, 1), (3, 6, 20, 30, 0), (6, 3, 39, 11, 0),
            (4, 5, 4, 46, 0), (5, 4, 48, 2, 0), (4, 6, 5, 45, 0), (6, 4, 48, 2, 0),
            (5, 6, 31, 17, 2), (6, 5, 35, 14, 1),
        ];
        for (cells, deviance, p) in [
            (&k6x3, 58.649_781, 0.007_372_628_5),
            (&ludii, 61.874_109, 0.003_378_054_7),
        ] {
            let t: Vec<SeatTally> = cells
                .iter()
                .map(|&(i, j, w, l, u)| tally(i, j, w, l, u))
                .collect();
            let test = fit(7, 0, &t).unwrap().test.unwrap();
            assert!((test.deviance - deviance).abs() < 1e-5, "{test:?}");
            assert_eq!(test.df, 35);
            assert!(close(test.p_value, p, 1e-8), "{test:?}");
        }
    }

    /// Results exactly as the model expects have no deviance; the model
    /// with as many parameters as cells leaves no df and no p-value; a
    /// tournament in two groups that never met measures one difference
    /// fewer; a pair seen in one seat only cannot tell the advantage from
    /// the difference.
    #[test]
    fn the_fit_tests_degrees_of_freedom_count_what_the_cells_measure() {
        let f = fit(2, 0, &[tally(0, 1, 110, 55, 55), tally(1, 0, 132, 40, 48)]).unwrap();
        let t = f.test.unwrap();
        assert!(t.deviance < 1e-8, "{t:?}");
        assert_eq!((t.df, t.p_value), (0, None));
        let groups = [
            tally(0, 1, 5, 5, 0),
            tally(1, 0, 6, 4, 0),
            tally(2, 3, 5, 5, 0),
            tally(3, 2, 7, 3, 0),
        ];
        assert_eq!(fit(4, 0, &groups).unwrap().test.unwrap().df, 1);
        let one_seat = [
            tally(0, 1, 5, 5, 0),
            tally(1, 2, 6, 4, 0),
            tally(2, 0, 7, 3, 0),
        ];
        // Three cells, a cycle: two differences and a, all three measured.
        assert_eq!(fit(3, 0, &one_seat).unwrap().test.unwrap().df, 0);
        assert_eq!(
            fit(2, 0, &[tally(0, 1, 5, 5, 0)]).unwrap().test.unwrap().df,
            0
        );
        assert_eq!(fit(2, 0, &[]).unwrap().test, None);
    }

    /// The share of `redraws` tournaments drawn from the model itself, with
    /// ratings `truth`, advantage `a` and 50 games a seat order, whose fit
    /// test rejects at 5%.
    fn rejection_rate(truth: &[f64], a: f64, seed: u64, redraws: u32) -> f64 {
        let mut rng = rng_from_seed(seed);
        let d = draw_term_for(truth, a, LUDII_UNDECIDED);
        let mut rejected = 0;
        for _ in 0..redraws {
            let mut tallies = Vec::new();
            for i in 0..truth.len() {
                for j in (0..truth.len()).filter(|&j| j != i) {
                    let r = (truth[i], truth[j]);
                    tallies.push(draw_tally(&mut rng, (i, j), r, (a, d), 50));
                }
            }
            let test = fit(truth.len(), 0, &tallies).unwrap().test.unwrap();
            rejected += u32::from(test.p_value.unwrap() < 0.05);
        }
        f64::from(rejected) / f64::from(redraws)
    }

    /// Under the model itself the test rejects at 5% about 5% of the time
    /// where the cells are not lopsided: agents 60 Elo apart, so every
    /// seat order has results both ways and the deviance is χ²-distributed.
    #[test]
    fn the_fit_test_rejects_a_true_model_about_one_time_in_twenty() {
        let close = [0.0, 60.0, 120.0, 180.0, 240.0, 300.0, 360.0];
        let rate = rejection_rate(&close, 50.0, 0x0f17, 400);
        assert!((0.025..=0.085).contains(&rate), "rejected {rate}");
    }

    /// On a ladder shaped like the committed ones, whose far-apart pairs end
    /// 50–0 a seat, those cells add df but no deviance, so the test is
    /// conservative (1.5% here): it rejects a true model less often than
    /// 5%, never more, so a rejection of the committed tournaments is not
    /// an artefact of their lopsided cells.
    #[test]
    fn on_lopsided_ladders_the_fit_test_is_conservative() {
        let rate = rejection_rate(&LADDER, 150.0, 0x0f17, 400);
        assert!(rate <= 0.05, "rejected {rate}");
    }

    /// Self-play is kept beside the ratings, never fitted: only of an agent
    /// rated on the variant, in the variant's opening; self-play alone
    /// adds no variant. The anchor's decisive games are its rarer result
    /// plus its undecided games.
    #[test]
    fn self_play_is_kept_beside_the_fit_and_the_anchors_games_counted() {
        let line = |v: &str, plies: &str, p1: &str, p2: &str, (w, l, u)| ResultLine {
            variant: v.into(),
            rules: String::new(),
            opening_plies: plies.into(),
            p1: p1.into(),
            p2: p2.into(),
            p1_wins: w,
            p2_wins: l,
            undecided: u,
        };
        let lines = [
            line("a", "4", "random", "x", (3, 45, 2)),
            line("a", "4", "x", "random", (44, 5, 1)),
            line("a", "4", "x", "x", (60, 40, 5)),
            line("a", "0", "random", "random", (50, 50, 0)),
            line("a", "4", "y", "y", (70, 30, 0)),
            line("b", "4", "x", "x", (1, 1, 0)),
        ];
        let rated = rate_lines(&lines, None);
        assert_eq!(rated.len(), 1, "self-play alone adds no variant");
        let v = &rated[0];
        assert_eq!(v.agents, ["random", "x"]);
        assert_eq!(
            v.self_play[0], None,
            "random's self-play is in another opening"
        );
        assert_eq!(v.self_play[1], Some(tally(1, 1, 60, 40, 5)));
        // random: 3 + 5 wins, 45 + 44 losses, 2 + 1 undecided.
        assert_eq!(v.record(0), (8, 89, 3));
        assert_eq!(v.anchor_decisive(), 11);
        // The fit is the pairings' alone.
        let direct = fit(2, 0, &[tally(0, 1, 3, 45, 2), tally(1, 0, 44, 5, 1)]);
        assert_eq!(v.fit, direct);
    }

    /// Without a roster agents come in the order they first appear and
    /// `random` is the anchor wherever it is listed.
    #[test]
    fn results_from_elsewhere_are_anchored_on_random() {
        let line = |p1: &str, p2: &str, w, l| ResultLine {
            variant: String::new(),
            rules: String::new(),
            opening_plies: String::new(),
            p1: p1.into(),
            p2: p2.into(),
            p1_wins: w,
            p2_wins: l,
            undecided: 0,
        };
        let lines = [
            line("x", "random", 8, 2),
            line("random", "x", 3, 7),
            line("x", "x", 5, 5),
        ];
        let rated = rate_lines(&lines, None);
        assert_eq!(rated[0].agents, ["x", "random"]);
        assert_eq!(rated[0].anchor, 1);
        let f = rated[0].fit.as_ref().unwrap();
        assert_eq!(f.ratings[1], Estimate::ZERO);
        assert!(f.ratings[0].value.unwrap() > 0.0);
    }
}
