//! Ludii's design metrics (issue 24): per-game values computed from one
//! game's trajectory, and a per-cell aggregate that merges exactly.
//!
//! Pure: no I/O, no global state. An experiment opts in with `metrics`
//! ([`plan`]); its cells play on the engine watched by a [`Recorder`]
//! (a `game::GameObserver`; the runner's `play_measured`), each unit's
//! [`MetricsAggregate`] rides in the cell's `stats::Aggregate` (run state,
//! checkpoints, shards), and
//! metrics.csv (crates/lab/src/files/metrics_csv.rs, docs/OUTPUTS.md) writes each
//! metric's mean with a bootstrap interval ([`bootstrap`]). The state
//! evaluation is chosen by `metrics_eval` ([`StateEval`]).
//!
//! # Two kinds of metric
//! katro's own columns (`drama_mean`, `lead_change`, `clarity_variance`,
//! …) measure what each Ludii metric's description intends, on katro's
//! states: the position before each *decision* (a ply) and the final one,
//! held by [`Trajectory`]. Ludii's own game has other states: every
//! sowing lap and every lone-seed step is a Ludii move (docs/RULES.md
//! §7), about three a ply on katro-6x6. The `ludii_*` columns are Ludii's
//! code on *those* states, quirks included ([`ludii`], which cites each
//! Ludii file under `Evaluation/src/metrics/` of Ludeme/Ludii). So a katro
//! column and its `ludii_*` twin differ wherever the states or the code
//! differ; docs/OUTPUTS.md's table gives each pair and says which.
//!
//! # Where katro's own metric departs from Ludii's code
//! Where Ludii's code computes something other than its description, the
//! katro column computes the intended quantity (the `ludii_*` column keeps
//! Ludii's):
//! - **DecisivenessMoves**: Ludii divides the int move index by the int
//!   number of moves, so a game scores 0 unless the winner never passed
//!   the threshold (then 1). katro: `ply / plies` as a fraction.
//! - **PositionalRepetition / SituationalRepetition**: Ludii computes
//!   `1.0 - (unique / total)` in int arithmetic, so a game scores 1 as soon
//!   as one state repeats, else 0. katro: `(total - unique) / total`.
//! - **ClarityNarrowness**: Ludii's per-state `above / n` is an int
//!   division, and its `Stats` updates the maximum only in an `else if`
//!   after the minimum, so a state of one legal move (a forced lap) or of
//!   strictly falling values counts 1. katro: the fraction of moves above
//!   the threshold, with the true maximum.
//! - **Clarity Variance, Outcome Uniformity**: Ludii's `Stats.varn` is the
//!   sample variance (n − 1); katro's columns use the population variance.
//! - **LeadChange**: Ludii's "previous leaders" start as the empty set, so
//!   the first state always counts as a change, and it divides by the
//!   number of moves. katro counts changes between consecutive evaluated
//!   states only, over the `plies - 1` such transitions.
//! - **Multi-metric Min/Max** (MultiMetricFramework.java): the reductions
//!   start at 0, so the Min of non-negative values (Drama, State
//!   Evaluation Difference) is always 0 and the Max of negative values is 0.
//!   katro's min/max are the true ones.
//! - **Winners** (Utils.java, `highestRankedPlayers`): Drama and the
//!   Decisiveness metrics read the ranking of a freshly set-up context, in
//!   which both players tie, so Ludii takes both players as the winners of
//!   every game: its Drama is |e₁ − e₂| / 2 per state, its Decisiveness
//!   Threshold −1 and its Decisiveness Moves 0. katro's columns use the
//!   game's real winner and leave Decisiveness undefined (`None`) for an
//!   undecided game.
//!
//! # The state evaluation
//! Ludii's `Utils.evaluateState`: a finished game gives each player its
//! utility (+1 win, −1 loss, 0 draw); otherwise tanh(H(p) − H(opponent))
//! of the game's heuristic, which for Katro is `ownRegionsCount`, the
//! seeds on the player's side. [`ludii_evaluation`] is that: tanh of the
//! seed difference between the two sides. The `ludii_*` columns always
//! use it; katro's own columns use it by default and `metrics_eval` may
//! choose a search or the solver instead ([`StateEval`]). `tanh` rounds to
//! ±1.0 from a difference of about 19 seeds on, as in Ludii.
//!
//! # Aggregates and intervals
//! A [`MetricsAggregate`] holds only integers: exact counts for the metrics
//! that are ratios of counts (so the ratio of sums is exact) and, for every
//! per-game value, its sum and sum of squares quantised to 1e-9 units
//! ([`QUANTUM`]). Merging adds fields, so it is associative and
//! commutative bit for bit. The interval of a metric is mean ± t·se of the
//! per-game values (Student's t, n - 1 degrees of freedom), clamped to the
//! metric's range ([`MetricsAggregate`]). metrics.csv does not
//! use it: skewed metrics need the percentile bootstrap of [`bootstrap`],
//! made from per-metric histograms that merge exactly.
//! `f64::tanh` comes from the platform's libm, so evaluations could differ
//! in the last bit between platforms; quantising to 1e-9 hides almost all
//! such differences but cannot promise to.

use std::collections::HashSet;

pub mod bootstrap;
mod eval;
pub mod ludii;
pub mod plan;
pub use eval::StateEval;

use crate::engine::{Move, MoveList, MoveReport, Observer, Position, Status};
use crate::experiment::interval::{Interval, Z95};
use crate::game::GameObserver;
use crate::rules::{Player, Rules};
use serde::{Deserialize, Serialize};

/// One evaluated position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct StateObs {
    /// The state evaluation for each player, indexed by [`Player::index`].
    pub eval: [f64; 2],
    /// Seeds per hole, every hole of the board.
    pub board: Vec<u16>,
    /// The player to move: with the board, the situation.
    pub to_move: Player,
}

/// One ply: who moved from the state before it, what they could do, and
/// what the move did (the engine's `MoveReport`).
#[derive(Clone, Debug, PartialEq)]
pub struct PlyObs {
    pub mover: Player,
    /// Legal moves in the state before the ply.
    pub legal: u32,
    /// The mover's evaluation of the position after each legal move (the
    /// Clarity metrics); empty when not collected.
    pub move_evals: Vec<f64>,
    /// Sowing laps of the move: the first, then one per relay or capture
    /// (RULES.md §5-6).
    pub laps: u64,
    pub captures: u32,
    /// Seeds that moved from the opponent's side to the mover's during the
    /// move, net: the mover's side after minus before.
    pub seeds_to_mover: i64,
}

/// A whole game: `states[i]` is the position before ply `i`, and the last
/// state is the final position, so `states.len() == plies.len() + 1`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    pub states: Vec<StateObs>,
    pub plies: Vec<PlyObs>,
    pub winner: Option<Player>,
    /// The game at Ludii's granularity, when recorded (the `ludii_*`
    /// columns, [`ludii`]).
    pub ludii: Option<ludii::LudiiTrajectory>,
}

impl Trajectory {
    /// The states before each ply: the ones Ludii's metrics evaluate.
    fn before_moves(&self) -> &[StateObs] {
        &self.states[..self.plies.len()]
    }
    /// Players whose evaluation is the highest (ties give both), as in
    /// LeadChange.java.
    fn leaders(e: &[f64; 2]) -> u8 {
        let m = e[0].max(e[1]);
        u8::from(e[0] == m) | (u8::from(e[1] == m) << 1)
    }
}

/// Ludii's state evaluation of a position for both players (module doc).
pub fn ludii_evaluation(rules: &Rules, pos: &Position) -> [f64; 2] {
    match rules.status(pos) {
        Status::Ongoing => ludii::heuristic(
            i64::from(rules.side_seeds(pos, Player::South))
                - i64::from(rules.side_seeds(pos, Player::North)),
        ),
        Status::Won(p) => {
            let mut u = [-1.0; 2];
            u[p.index()] = 1.0;
            u
        }
        _ => [0.0; 2],
    }
}

/// Collects a [`Trajectory`] as the [`GameObserver`] of the engine's game
/// loop (`game::play_game_observed`), or of any caller that tells it
/// [`before_move`](GameObserver::before_move) each position that has a
/// legal move, [`after_move`](GameObserver::after_move) the position the
/// move made and its report, and [`end`](GameObserver::end) (or
/// [`finish`](Recorder::finish)) the final position.
pub struct Recorder {
    move_evals: bool,
    eval: StateEval,
    /// Whether to record the game at Ludii's granularity too, and the
    /// recorder doing it (made on the first position it is told).
    ludii_states: bool,
    ludii: Option<ludii::LudiiRecorder>,
    /// The mover's side before the move in flight.
    side_before: u32,
    t: Trajectory,
}

impl Recorder {
    /// `move_evals`: also evaluate every legal move (the Clarity metrics);
    /// this plays each legal move once more, so it costs most. Evaluates
    /// states as Ludii does ([`ludii_evaluation`]).
    pub fn new(move_evals: bool) -> Recorder {
        Recorder::with_eval(move_evals, StateEval::Ludii)
    }

    /// A recorder that evaluates states with `eval`.
    pub fn with_eval(move_evals: bool, eval: StateEval) -> Recorder {
        Recorder {
            move_evals,
            eval,
            ludii_states: true,
            ludii: None,
            side_before: 0,
            t: Trajectory {
                states: Vec::new(),
                plies: Vec::new(),
                winner: None,
                ludii: None,
            },
        }
    }

    /// Whether to record Ludii's states too (the `ludii_*` metrics; on
    /// unless turned off): they cost a state per lap.
    pub fn with_ludii_states(mut self, on: bool) -> Recorder {
        self.ludii_states = on;
        self
    }

    fn ludii(&mut self, rules: &Rules) -> Option<&mut ludii::LudiiRecorder> {
        if self.ludii_states && self.ludii.is_none() {
            self.ludii = Some(ludii::LudiiRecorder::new(rules, self.move_evals));
        }
        self.ludii.as_mut()
    }

    fn state(&self, rules: &Rules, pos: &Position) -> StateObs {
        StateObs {
            eval: self.eval.evaluate(rules, pos),
            board: pos.holes()[..rules.hole_count()].to_vec(),
            to_move: pos.to_move(),
        }
    }

    /// [`end`](GameObserver::end), and the trajectory.
    pub fn finish(mut self, rules: &Rules, pos: &Position) -> Trajectory {
        self.end(rules, pos);
        self.into_trajectory()
    }

    pub fn into_trajectory(mut self) -> Trajectory {
        self.t.ludii = self.ludii.take().map(ludii::LudiiRecorder::finish);
        self.t
    }
}

impl GameObserver for Recorder {
    fn before_move(&mut self, rules: &Rules, pos: &Position, legal: &MoveList) {
        let mover = pos.to_move();
        // Each legal move played once: katro's Clarity values the whole
        // move, Ludii's the state after its first lap (or step).
        let (move_evals, first_laps): (Vec<f64>, Vec<f64>) = if self.move_evals {
            legal
                .as_slice()
                .iter()
                .map(|&mv| {
                    let (after, first) = ludii::play_for_clarity(rules, pos, mv);
                    (self.eval.evaluate(rules, &after)[mover.index()], first)
                })
                .unzip()
        } else {
            (Vec::new(), Vec::new())
        };
        if let Some(l) = self.ludii(rules) {
            l.before_move(rules, pos, legal.as_slice(), &first_laps);
        }
        let state = self.state(rules, pos);
        self.t.states.push(state);
        self.side_before = rules.side_seeds(pos, mover);
        self.t.plies.push(PlyObs {
            mover,
            legal: legal.len() as u32,
            move_evals,
            laps: 0,
            captures: 0,
            seeds_to_mover: 0,
        });
    }

    fn laps(&mut self) -> Option<&mut dyn Observer> {
        self.ludii.as_mut().map(|l| l.laps() as &mut dyn Observer)
    }

    /// The move just played from the state of the last `before_move`.
    fn after_move(&mut self, rules: &Rules, mv: Move, after: &Position, r: &MoveReport) {
        if let Some(l) = self.ludii.as_mut() {
            l.after_move(rules, mv, after, r);
        }
        if let Some(p) = self.t.plies.last_mut() {
            p.laps = r.laps;
            p.captures = r.captures;
            p.seeds_to_mover =
                i64::from(rules.side_seeds(after, p.mover)) - i64::from(self.side_before);
        }
    }

    /// The game is over at `pos`.
    fn end(&mut self, rules: &Rules, pos: &Position) {
        if let Some(l) = self.ludii(rules) {
            l.end(rules, pos);
        }
        let last = self.state(rules, pos);
        self.t.states.push(last);
        self.t.winner = rules.status(pos).winner();
    }
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Population variance (katro's Stability and Clarity Variance), 0 for
/// one value. Ludii's `Stats.varn` is the sample variance
/// ([`ludii::stats`]).
fn varn(v: &[f64]) -> Option<f64> {
    let m = mean(v)?;
    Some(v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64)
}

fn max_of(v: &[f64]) -> Option<f64> {
    v.iter().copied().reduce(f64::max)
}

fn min_of(v: &[f64]) -> Option<f64> {
    v.iter().copied().reduce(f64::min)
}

/// Drama per state before each decision: the highest evaluation of any
/// player minus the winners' mean evaluation; both players count as
/// winners of an undecided game (katro's reading of
/// multiple/metrics/Drama.java, with the game's real winner). Unit:
/// evaluation.
pub fn drama_values(t: &Trajectory) -> Vec<f64> {
    t.before_moves()
        .iter()
        .map(|s| {
            let top = s.eval[0].max(s.eval[1]);
            match t.winner {
                Some(w) => top - s.eval[w.index()],
                None => ((top - s.eval[0]) + (top - s.eval[1])) / 2.0,
            }
        })
        .collect()
}

/// Lead changes between consecutive states before each decision, and the
/// number of such transitions (`plies - 1`, 0 for a game of under 2
/// plies) (katro's reading of single/stateEvaluation/LeadChange.java,
/// which also counts the first state and divides by its moves).
pub fn lead_changes(t: &Trajectory) -> (u32, u32) {
    let s = t.before_moves();
    let changes = s
        .windows(2)
        .filter(|w| Trajectory::leaders(&w[0].eval) != Trajectory::leaders(&w[1].eval))
        .count() as u32;
    (changes, s.len().saturating_sub(1) as u32)
}

/// Stability: the sum over both players of the population variance of
/// their evaluations over the states before each decision
/// (single/stateEvaluation/Stability.java's formula: a sum, though
/// described as an average). Unit: evaluation squared; higher is less
/// stable.
pub fn stability(t: &Trajectory) -> Option<f64> {
    let s = t.before_moves();
    let p0: Vec<f64> = s.iter().map(|s| s.eval[0]).collect();
    let p1: Vec<f64> = s.iter().map(|s| s.eval[1]).collect();
    Some(varn(&p0)? + varn(&p1)?)
}

/// The highest evaluation the real loser reached in a state before a
/// decision, from -1.
fn loser_threshold(t: &Trajectory) -> f64 {
    let Some(w) = t.winner else {
        return -1.0;
    };
    t.before_moves()
        .iter()
        .fold(-1.0, |a, s| a.max(s.eval[w.other().index()]))
}

/// DecisivenessThreshold with the game's real loser: the highest
/// evaluation the loser reached in a state before a decision, starting at
/// -1 (katro's reading of
/// single/stateEvaluation/decisiveness/DecisivenessThreshold.java).
/// `None` for an undecided game, which has no loser.
pub fn decisiveness_threshold(t: &Trajectory) -> Option<f64> {
    t.winner.map(|_| loser_threshold(t))
}

/// DecisivenessMoves as a count: (the first decision before which the
/// real winner's evaluation exceeds the threshold, plies if never;
/// plies), so the share is a ratio of counts (katro's reading of
/// DecisivenessMoves.java, as a fraction). `None` for an undecided game
/// or one of no ply.
pub fn decisiveness_moves(t: &Trajectory) -> Option<(u32, u32)> {
    let w = t.winner?;
    let thr = loser_threshold(t);
    let k = t
        .before_moves()
        .iter()
        .position(|s| s.eval[w.index()] > thr)
        .unwrap_or(t.plies.len()) as u32;
    (!t.plies.is_empty()).then_some((k, t.plies.len() as u32))
}

/// ClarityVariance per decision: the mean over plies of the population
/// variance of the mover's evaluations after each whole legal move.
/// Unit: evaluation squared. `None` without move evaluations.
pub fn clarity_variance(t: &Trajectory) -> Option<f64> {
    let v: Option<Vec<f64>> = t.plies.iter().map(|p| varn(&p.move_evals)).collect();
    mean(&v?)
}

/// The moves above `mean + 0.75 (max - mean)` of one ply, and all moves.
/// Moves all valued alike stand out from none: none is above, though
/// their floating-point mean may round below the value (issue 31).
fn narrow(evals: &[f64]) -> (u32, u32) {
    let (Some(m), Some(top), Some(low)) = (mean(evals), max_of(evals), min_of(evals)) else {
        return (0, 0);
    };
    if top == low {
        return (0, evals.len() as u32);
    }
    let thr = m + 0.75 * (top - m);
    (
        evals.iter().filter(|&&e| e > thr).count() as u32,
        evals.len() as u32,
    )
}

/// ClarityNarrowness per decision: the mean over plies of the share of
/// legal moves evaluated above `mean + 0.75 (max - mean)` (katro's reading
/// of single/stateEvaluation/clarity/ClarityNarrowness.java, as a
/// fraction). `None` without move evaluations.
pub fn clarity_narrowness(t: &Trajectory) -> Option<f64> {
    let v: Option<Vec<f64>> = t
        .plies
        .iter()
        .map(|p| {
            let (k, n) = narrow(&p.move_evals);
            (n > 0).then(|| f64::from(k) / f64::from(n))
        })
        .collect();
    mean(&v?)
}

/// Repeated states of the whole game (decisions), the start and the
/// final position included: (positional repeats, situational repeats,
/// states). A positional state is the board; a situational one adds the
/// player to move. A repeat is a state minus the distinct ones:
/// `total - unique`.
pub fn repetition(t: &Trajectory) -> (u32, u32, u32) {
    let boards: HashSet<&[u16]> = t.states.iter().map(|s| s.board.as_slice()).collect();
    let sits: HashSet<(&[u16], Player)> = t
        .states
        .iter()
        .map(|s| (s.board.as_slice(), s.to_move))
        .collect();
    let n = t.states.len() as u32;
    (n - boards.len() as u32, n - sits.len() as u32, n)
}

/// BoardCoverage over the decision states: holes that held a seed in
/// some state of the game, and the board's holes.
pub fn board_coverage(t: &Trajectory) -> (u32, u32) {
    let holes = t.states.first().map_or(0, |s| s.board.len());
    let covered = (0..holes)
        .filter(|&h| t.states.iter().any(|s| s.board[h] > 0))
        .count();
    (covered as u32, holes as u32)
}

/// StateEvaluationDifference per decision state, the start and the final
/// position included: |e₁ - e₂|. Unit: evaluation.
pub fn state_evaluation_difference(t: &Trajectory) -> Vec<f64> {
    t.states
        .iter()
        .map(|s| (s.eval[0] - s.eval[1]).abs())
        .collect()
}

/// Branching and decision factor per decision, as counts: (Σ legal
/// moves, plies, Σ legal moves over plies with a choice, plies with a
/// choice). summary.csv's `branching` is the ratio of the cell's sums.
pub fn branching(t: &Trajectory) -> (u64, u32, u64, u32) {
    let legal: u64 = t.plies.iter().map(|p| u64::from(p.legal)).sum();
    let choice = t.plies.iter().filter(|p| p.legal > 1);
    let dl: u64 = choice.clone().map(|p| u64::from(p.legal)).sum();
    (legal, t.plies.len() as u32, dl, choice.count() as u32)
}

/// OutcomeUniformity of a cell from its counts: 1 minus the mean over the
/// two players of the population variance of their utilities (+1 win, -1
/// loss, 0 undecided) (single/outcome/OutcomeUniformity.java). Both
/// players' variances are equal, so it is 1 - ((w₁+w₂)/n - ((w₁-w₂)/n)²).
pub fn outcome_uniformity(w1: u64, w2: u64, games: u64) -> Option<f64> {
    (games > 0).then(|| {
        let n = games as f64;
        let (a, b) = (w1 as f64 / n, w2 as f64 / n);
        1.0 - ((a + b) - (a - b) * (a - b))
    })
}

/// OutcomeUniformity's 95% interval by the delta method on the
/// multinomial shares (a cell-level statistic has no per-game values):
/// gradient g = (-1 + 2(a-b), -1 - 2(a-b)), variance
/// (g₁²a(1-a) + g₂²b(1-b) - 2g₁g₂ab) / n, clamped to [0, 1]. It is 0 wide
/// when every game ends alike, where the normal guess fails.
pub fn outcome_uniformity_interval(w1: u64, w2: u64, games: u64) -> Option<Interval> {
    let mean = outcome_uniformity(w1, w2, games)?;
    let n = games as f64;
    let (a, b) = (w1 as f64 / n, w2 as f64 / n);
    let (g1, g2) = (-1.0 + 2.0 * (a - b), -1.0 - 2.0 * (a - b));
    let var = (g1 * g1 * a * (1.0 - a) + g2 * g2 * b * (1.0 - b) - 2.0 * g1 * g2 * a * b) / n;
    let h = Z95 * var.max(0.0).sqrt();
    Some(Interval {
        estimate: mean,
        low: (mean - h).max(0.0),
        high: (mean + h).min(1.0),
    })
}

/// One game's metrics: katro's, per decision, and Ludii's, on Ludii's
/// states ([`ludii::LudiiValues`], when recorded).
#[derive(Clone, Debug, PartialEq)]
pub struct GameMetrics {
    pub winner: Option<Player>,
    pub plies: u32,
    pub drama_mean: Option<f64>,
    pub drama_max: Option<f64>,
    pub lead_changes: u32,
    pub lead_transitions: u32,
    pub stability: Option<f64>,
    pub decisiveness_threshold: Option<f64>,
    pub decisive_ply: Option<u32>,
    pub clarity_variance: Option<f64>,
    pub clarity_narrowness: Option<f64>,
    pub positional_repeats: u32,
    pub situational_repeats: u32,
    pub states: u32,
    pub holes_covered: u32,
    pub holes: u32,
    pub sed_mean: Option<f64>,
    pub sed_max: Option<f64>,
    pub sed_min: Option<f64>,
    pub legal: u64,
    pub choice_legal: u64,
    pub choice_plies: u32,
    /// Sowing laps, captures, and seeds moved to the mover's side, summed
    /// over the plies, and the plies with a capture: the mancala measures.
    pub laps: u64,
    pub captures: u64,
    pub seeds_to_mover: i64,
    pub capture_plies: u32,
    pub ludii: Option<ludii::LudiiValues>,
}

impl GameMetrics {
    pub fn of(t: &Trajectory) -> GameMetrics {
        let drama = drama_values(t);
        let sed = state_evaluation_difference(t);
        let (lead_changes, lead_transitions) = lead_changes(t);
        let (positional_repeats, situational_repeats, states) = repetition(t);
        let (holes_covered, holes) = board_coverage(t);
        let (legal, plies, choice_legal, choice_plies) = branching(t);
        GameMetrics {
            winner: t.winner,
            plies,
            drama_mean: mean(&drama),
            drama_max: max_of(&drama),
            lead_changes,
            lead_transitions,
            stability: stability(t),
            decisiveness_threshold: decisiveness_threshold(t),
            decisive_ply: decisiveness_moves(t).map(|(k, _)| k),
            clarity_variance: clarity_variance(t),
            clarity_narrowness: clarity_narrowness(t),
            positional_repeats,
            situational_repeats,
            states,
            holes_covered,
            holes,
            sed_mean: mean(&sed),
            sed_max: max_of(&sed),
            sed_min: min_of(&sed),
            legal,
            choice_legal,
            choice_plies,
            laps: t.plies.iter().map(|p| p.laps).sum(),
            captures: t.plies.iter().map(|p| u64::from(p.captures)).sum(),
            seeds_to_mover: t.plies.iter().map(|p| p.seeds_to_mover).sum(),
            capture_plies: t.plies.iter().filter(|p| p.captures > 0).count() as u32,
            ludii: t.ludii.as_ref().map(ludii::LudiiValues::of),
        }
    }
}

fn ratio(k: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| k as f64 / n as f64)
}

macro_rules! metrics {
    ($($variant:ident => $name:literal,)*) => {
        /// The per-game values a cell aggregates, in metrics.csv's column
        /// order: katro's per-decision metrics, then Ludii's on Ludii's
        /// states (`ludii_` + the name Ludii prints, in snake case).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Metric {
            $($variant,)*
        }

        impl Metric {
            pub const ALL: &'static [Metric] = &[$(Metric::$variant,)*];

            /// The column name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Metric::$variant => $name,)*
                }
            }
        }
    };
}

metrics! {
    DramaMean => "drama_mean",
    DramaMax => "drama_max",
    LeadChange => "lead_change",
    Stability => "stability",
    DecisivenessThreshold => "decisiveness_threshold",
    DecisivenessMoves => "decisiveness_moves",
    ClarityVariance => "clarity_variance",
    ClarityNarrowness => "clarity_narrowness",
    PositionalRepetition => "positional_repetition",
    SituationalRepetition => "situational_repetition",
    BoardCoverage => "board_coverage",
    SedMean => "state_evaluation_difference_mean",
    SedMax => "state_evaluation_difference_max",
    SedMin => "state_evaluation_difference_min",
    BranchingFactorAvg => "branching_factor_avg",
    DecisionFactorAvg => "decision_factor_avg",
    RelayLength => "relay_length",
    CapturesPerTurn => "captures_per_turn",
    SeedsChangingSidesPerTurn => "seeds_changing_sides_per_turn",
    CaptureTurnShare => "capture_turn_share",
    LudiiDurationMoves => "ludii_duration_moves",
    LudiiDurationTurns => "ludii_duration_turns",
    LudiiDurationTurnsNotTimeouts => "ludii_duration_turns_not_timeouts",
    LudiiDecisionMoves => "ludii_decision_moves",
    LudiiGameTreeComplexity => "ludii_game_tree_complexity",
    LudiiLeadChange => "ludii_lead_change",
    LudiiStability => "ludii_stability",
    LudiiDramaAverage => "ludii_drama_average",
    LudiiDramaMax => "ludii_drama_max",
    LudiiDecisivenessThreshold => "ludii_decisiveness_threshold",
    LudiiDecisivenessMoves => "ludii_decisiveness_moves",
    LudiiClarityVariance => "ludii_clarity_variance",
    LudiiClarityNarrowness => "ludii_clarity_narrowness",
    LudiiBranchingFactorAverage => "ludii_branching_factor_average",
    LudiiDecisionFactorAverage => "ludii_decision_factor_average",
    LudiiSedAverage => "ludii_state_evaluation_difference_average",
    LudiiSedMax => "ludii_state_evaluation_difference_max",
    LudiiSedMin => "ludii_state_evaluation_difference_min",
    LudiiMoveEvaluationAverage => "ludii_move_evaluation_average",
    LudiiPositionalRepetition => "ludii_positional_repetition",
    LudiiSituationalRepetition => "ludii_situational_repetition",
    LudiiBoardCoverageDefault => "ludii_board_coverage_default",
    LudiiBoardSitesOccupiedAverage => "ludii_board_sites_occupied_average",
    LudiiAdvantageP1 => "ludii_advantage_p1",
    LudiiCompletion => "ludii_completion",
    LudiiDrawishness => "ludii_drawishness",
    LudiiTimeouts => "ludii_timeouts",
}

impl Metric {
    /// Whether the metric needs every legal move evaluated (the Clarity
    /// metrics), which costs most.
    pub fn needs_move_evals(self) -> bool {
        matches!(
            self,
            Metric::ClarityVariance
                | Metric::ClarityNarrowness
                | Metric::LudiiClarityVariance
                | Metric::LudiiClarityNarrowness
        )
    }

    /// Whether the metric is Ludii's, computed on Ludii's states
    /// ([`ludii`]), which costs a state per lap.
    pub fn is_ludii(self) -> bool {
        self.name().starts_with("ludii_")
    }

    /// The metric of a column name.
    pub fn by_name(name: &str) -> Option<Metric> {
        Metric::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// The range a per-game value lies in: intervals are clamped to it.
    pub fn range(self) -> (f64, f64) {
        use Metric::*;
        match self {
            DecisivenessThreshold | LudiiDecisivenessThreshold | LudiiMoveEvaluationAverage => {
                (-1.0, 1.0)
            }
            DramaMean | DramaMax | Stability | LudiiStability => (0.0, 2.0),
            LudiiDramaAverage | LudiiDramaMax => (0.0, 2.0),
            SedMean | SedMax | SedMin => (0.0, 2.0),
            LudiiSedAverage | LudiiSedMax | LudiiSedMin => (0.0, 2.0),
            ClarityVariance | LudiiClarityVariance => (0.0, 2.0),
            BranchingFactorAvg
            | DecisionFactorAvg
            | RelayLength
            | CapturesPerTurn
            | LudiiDurationMoves
            | LudiiDurationTurns
            | LudiiDurationTurnsNotTimeouts
            | LudiiGameTreeComplexity
            | LudiiBranchingFactorAverage
            | LudiiDecisionFactorAverage => (0.0, f64::INFINITY),
            SeedsChangingSidesPerTurn => (f64::NEG_INFINITY, f64::INFINITY),
            _ => (0.0, 1.0),
        }
    }

    /// The game's value, `None` where the metric is undefined for it.
    pub fn value(self, g: &GameMetrics) -> Option<f64> {
        let plies = u64::from(g.plies);
        if self.is_ludii() {
            return self.ludii_value(g.ludii.as_ref()?);
        }
        match self {
            Metric::DramaMean => g.drama_mean,
            Metric::DramaMax => g.drama_max,
            Metric::LeadChange => ratio(g.lead_changes.into(), g.lead_transitions.into()),
            Metric::Stability => g.stability,
            Metric::DecisivenessThreshold => g.decisiveness_threshold,
            Metric::DecisivenessMoves => ratio(g.decisive_ply?.into(), plies),
            Metric::ClarityVariance => g.clarity_variance,
            Metric::ClarityNarrowness => g.clarity_narrowness,
            Metric::PositionalRepetition => ratio(g.positional_repeats.into(), g.states.into()),
            Metric::SituationalRepetition => ratio(g.situational_repeats.into(), g.states.into()),
            Metric::BoardCoverage => ratio(g.holes_covered.into(), g.holes.into()),
            Metric::SedMean => g.sed_mean,
            Metric::SedMax => g.sed_max,
            Metric::SedMin => g.sed_min,
            Metric::BranchingFactorAvg => ratio(g.legal, plies),
            Metric::DecisionFactorAvg => ratio(g.choice_legal, g.choice_plies.into()),
            Metric::RelayLength => ratio(g.laps, plies),
            Metric::CapturesPerTurn => ratio(g.captures, plies),
            Metric::SeedsChangingSidesPerTurn => {
                (plies > 0).then(|| g.seeds_to_mover as f64 / plies as f64)
            }
            Metric::CaptureTurnShare => ratio(g.capture_plies.into(), plies),
            _ => None,
        }
    }

    fn ludii_value(self, l: &ludii::LudiiValues) -> Option<f64> {
        use Metric::*;
        match self {
            LudiiDurationMoves => Some(l.duration_moves),
            LudiiDurationTurns => Some(l.duration_turns),
            LudiiDurationTurnsNotTimeouts => l.duration_turns_not_timeouts,
            LudiiDecisionMoves => l.decision_moves,
            LudiiGameTreeComplexity => l.game_tree_complexity,
            LudiiLeadChange => l.lead_change,
            LudiiStability => Some(l.stability),
            LudiiDramaAverage => Some(l.drama_average),
            LudiiDramaMax => Some(l.drama_max),
            LudiiDecisivenessThreshold => Some(l.decisiveness_threshold),
            LudiiDecisivenessMoves => l.decisiveness_moves,
            LudiiClarityVariance => l.clarity_variance,
            LudiiClarityNarrowness => l.clarity_narrowness,
            LudiiBranchingFactorAverage => Some(l.branching_factor_average),
            LudiiDecisionFactorAverage => Some(l.decision_factor_average),
            LudiiSedAverage => Some(l.sed_average),
            LudiiSedMax => Some(l.sed_max),
            LudiiSedMin => Some(l.sed_min),
            LudiiMoveEvaluationAverage => Some(l.move_evaluation_average),
            LudiiPositionalRepetition => Some(l.positional_repetition),
            LudiiSituationalRepetition => Some(l.situational_repetition),
            LudiiBoardCoverageDefault => Some(l.board_coverage_default),
            LudiiBoardSitesOccupiedAverage => Some(l.board_sites_occupied_average),
            LudiiAdvantageP1 => Some(l.advantage_p1),
            LudiiCompletion => Some(l.completion),
            LudiiDrawishness => Some(l.drawishness),
            LudiiTimeouts => Some(l.timeouts),
            _ => None,
        }
    }
}

/// Per-game values are summed in units of 1e-9.
pub const QUANTUM: f64 = 1e-9;

/// The sum and sum of squares of quantised per-game values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct QSum {
    pub n: u64,
    pub sum: i128,
    pub sum_sq: u128,
}

/// A value in units of [`QUANTUM`], rounded half away from zero.
pub fn quantise(v: f64) -> i64 {
    (v / QUANTUM).round() as i64
}

impl QSum {
    pub fn add(&mut self, v: f64) {
        debug_assert!(v.is_finite(), "a metric value is finite: {v}");
        let q = quantise(v);
        self.n += 1;
        self.sum += i128::from(q);
        self.sum_sq += u128::from(q.unsigned_abs()).pow(2);
    }
    pub fn merge(&mut self, o: &QSum) {
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum as f64 / self.n as f64 * QUANTUM)
    }
    /// The sample variance in value units, from the exact integer
    /// n·Σq² - (Σq)² where it fits in 128 bits.
    pub fn variance(&self) -> Option<f64> {
        if self.n < 2 {
            return None;
        }
        let n = u128::from(self.n);
        let s2 = self.sum.unsigned_abs().checked_pow(2);
        let num = n
            .checked_mul(self.sum_sq)
            .zip(s2)
            .map(|(a, b)| a.saturating_sub(b) as f64)
            .unwrap_or_else(|| {
                let (nf, s) = (self.n as f64, self.sum as f64);
                (nf * self.sum_sq as f64 - s * s).max(0.0)
            });
        Some(num / (n as f64 * (n - 1) as f64) * QUANTUM * QUANTUM)
    }
}

/// A cell's metrics: integers only, merged by adding fields. Stored in
/// run-state.json, checkpoints and shards inside the cell's aggregate.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MetricsAggregate {
    pub games: u64,
    pub wins: [u64; 2],
    pub plies: u64,
    pub lead_changes: u64,
    pub lead_transitions: u64,
    pub decisive_plies: u64,
    /// Plies of the games DecisivenessMoves is defined for.
    pub decided_plies: u64,
    pub positional_repeats: u64,
    pub situational_repeats: u64,
    pub states: u64,
    pub holes_covered: u64,
    pub holes: u64,
    pub legal: u64,
    pub choice_legal: u64,
    pub choice_plies: u64,
    /// Games recorded at Ludii's granularity, and the sums of the 1st to
    /// 4th powers of their Ludii turns (Duration Turns Std Dev and its
    /// interval).
    #[serde(default)]
    pub ludii_games: u64,
    #[serde(default)]
    pub ludii_turns: [u128; 4],
    /// One per [`Metric::ALL`], in its order.
    pub values: Vec<QSum>,
    /// Per metric, in the same order, the per-game values binned to
    /// [`bootstrap::BIN`]: the bootstrap's sample ([`bootstrap`]).
    pub histograms: Vec<bootstrap::Histogram>,
}

impl MetricsAggregate {
    pub fn new() -> MetricsAggregate {
        MetricsAggregate {
            values: vec![QSum::default(); Metric::ALL.len()],
            histograms: vec![bootstrap::Histogram::default(); Metric::ALL.len()],
            ..MetricsAggregate::default()
        }
    }

    /// A default aggregate has no per-metric lists yet.
    fn sized(&mut self) {
        if self.values.is_empty() {
            self.values = vec![QSum::default(); Metric::ALL.len()];
            self.histograms = vec![bootstrap::Histogram::default(); Metric::ALL.len()];
        }
    }

    pub fn add(&mut self, g: &GameMetrics) {
        self.sized();
        self.games += 1;
        if let Some(w) = g.winner {
            self.wins[w.index()] += 1;
        }
        self.plies += u64::from(g.plies);
        self.lead_changes += u64::from(g.lead_changes);
        self.lead_transitions += u64::from(g.lead_transitions);
        if let Some(k) = g.decisive_ply {
            self.decisive_plies += u64::from(k);
            self.decided_plies += u64::from(g.plies);
        }
        self.positional_repeats += u64::from(g.positional_repeats);
        self.situational_repeats += u64::from(g.situational_repeats);
        self.states += u64::from(g.states);
        self.holes_covered += u64::from(g.holes_covered);
        self.holes += u64::from(g.holes);
        self.legal += g.legal;
        self.choice_legal += g.choice_legal;
        self.choice_plies += u64::from(g.choice_plies);
        if let Some(l) = &g.ludii {
            self.ludii_games += 1;
            let t = u128::from(l.turns);
            let mut p = 1u128;
            for s in &mut self.ludii_turns {
                p *= t;
                *s += p;
            }
        }
        for ((q, h), m) in self
            .values
            .iter_mut()
            .zip(self.histograms.iter_mut())
            .zip(Metric::ALL.iter().copied())
        {
            if let Some(v) = m.value(g) {
                q.add(v);
                h.add(v);
            }
        }
    }

    pub fn merge(&mut self, o: &MetricsAggregate) {
        self.sized();
        self.games += o.games;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.plies += o.plies;
        self.lead_changes += o.lead_changes;
        self.lead_transitions += o.lead_transitions;
        self.decisive_plies += o.decisive_plies;
        self.decided_plies += o.decided_plies;
        self.positional_repeats += o.positional_repeats;
        self.situational_repeats += o.situational_repeats;
        self.states += o.states;
        self.holes_covered += o.holes_covered;
        self.holes += o.holes;
        self.legal += o.legal;
        self.choice_legal += o.choice_legal;
        self.choice_plies += o.choice_plies;
        self.ludii_games += o.ludii_games;
        for (a, b) in self.ludii_turns.iter_mut().zip(&o.ludii_turns) {
            *a += b;
        }
        for (a, b) in self.values.iter_mut().zip(&o.values) {
            a.merge(b);
        }
        for (a, b) in self.histograms.iter_mut().zip(&o.histograms) {
            a.merge(b);
        }
    }

    /// Lead changes over all transitions of the cell: the ratio of sums.
    pub fn lead_change_pooled(&self) -> Option<f64> {
        ratio(self.lead_changes, self.lead_transitions)
    }
    pub fn positional_repetition_pooled(&self) -> Option<f64> {
        ratio(self.positional_repeats, self.states)
    }
    pub fn board_coverage_pooled(&self) -> Option<f64> {
        ratio(self.holes_covered, self.holes)
    }
    pub fn decisiveness_moves_pooled(&self) -> Option<f64> {
        ratio(self.decisive_plies, self.decided_plies)
    }
    pub fn outcome_uniformity(&self) -> Option<Interval> {
        outcome_uniformity_interval(self.wins[0], self.wins[1], self.games)
    }

    /// Ludii's OutcomeUniformity (sample variances), with katro's
    /// delta-method interval scaled as the estimate is; `None` without
    /// Ludii's states.
    pub fn ludii_outcome_uniformity(&self) -> Option<Interval> {
        let n = self.ludii_games;
        let [w1, w2] = self.wins;
        let estimate = ludii::outcome_uniformity(w1, w2, n)?;
        let i = outcome_uniformity_interval(w1, w2, n)?;
        let k = if n > 1 {
            n as f64 / (n as f64 - 1.0)
        } else {
            0.0
        };
        let h = |x: f64| 1.0 - k * (1.0 - x);
        Some(Interval {
            estimate,
            low: h(i.low).max(0.0),
            high: h(i.high).clamp(0.0, 1.0),
        })
    }

    /// Ludii's Balance, 1 − |w₁ − w₂| / n, with a delta-method interval:
    /// Var(w₁/n − w₂/n) = (a(1−a) + b(1−b) + 2ab) / n, clamped to [0, 1].
    pub fn ludii_balance(&self) -> Option<Interval> {
        let n = self.ludii_games;
        let [w1, w2] = self.wins;
        let estimate = ludii::balance(w1, w2, n)?;
        let nf = n as f64;
        let (a, b) = (w1 as f64 / nf, w2 as f64 / nf);
        let h = Z95 * ((a * (1.0 - a) + b * (1.0 - b) + 2.0 * a * b) / nf).sqrt();
        Some(Interval {
            estimate,
            low: (estimate - h).max(0.0),
            high: (estimate + h).min(1.0),
        })
    }

    /// Ludii's Duration Turns Std Dev (the population SD of the games'
    /// turns), with a delta-method interval from the fourth central
    /// moment: Var(s²) ≈ (μ₄ − σ⁴)/n, se(s) = se(s²)/(2s).
    pub fn ludii_duration_turns_std_dev(&self) -> Option<Interval> {
        let n = self.ludii_games;
        let [s1, s2, s3, s4] = self.ludii_turns;
        let sd = ludii::turns_std_dev(n, s1, s2)?;
        let nf = n as f64;
        let (m1, m2, m3, m4) = (
            s1 as f64 / nf,
            s2 as f64 / nf,
            s3 as f64 / nf,
            s4 as f64 / nf,
        );
        let mu4 = m4 - 4.0 * m1 * m3 + 6.0 * m1 * m1 * m2 - 3.0 * m1.powi(4);
        let var = sd * sd;
        let h = if sd > 0.0 {
            Z95 * ((mu4 - var * var).max(0.0) / nf).sqrt() / (2.0 * sd)
        } else {
            0.0
        };
        Some(Interval {
            estimate: sd,
            low: (sd - h).max(0.0),
            high: sd + h,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::rules::preset;
    use proptest::prelude::*;

    fn st(e: f64, board: &[u16], to_move: Player) -> StateObs {
        StateObs {
            eval: [e, -e],
            board: board.to_vec(),
            to_move,
        }
    }

    fn ply(mover: Player, move_evals: &[f64]) -> PlyObs {
        PlyObs {
            mover,
            legal: move_evals.len() as u32,
            move_evals: move_evals.to_vec(),
            laps: 1,
            captures: 0,
            seeds_to_mover: 0,
        }
    }

    const A: [u16; 5] = [1, 1, 0, 2, 0];
    const B: [u16; 5] = [0, 2, 1, 1, 0];
    const C: [u16; 5] = [0, 0, 3, 1, 0];
    use Player::{North as N, South as S};

    /// Four plies, South wins. South's evaluation of s0..s4 (North's is
    /// its negation): 0, -0.5, -0.25, 0.875, then 1 (won). Boards
    /// A, B, A, B, C (hole 5 always empty); to move S, N, S, S, N.
    /// Move evaluations: [-0.5, 0.5], [-0.25, 0, 0.25], [-0.75],
    /// [-1, 0, 0, 0].
    fn game() -> Trajectory {
        Trajectory {
            states: vec![
                st(0.0, &A, S),
                st(-0.5, &B, N),
                st(-0.25, &A, S),
                st(0.875, &B, S),
                st(1.0, &C, N),
            ],
            plies: vec![
                ply(S, &[-0.5, 0.5]),
                ply(N, &[-0.25, 0.0, 0.25]),
                ply(S, &[-0.75]),
                ply(N, &[-1.0, 0.0, 0.0, 0.0]),
            ],
            winner: Some(S),
            ludii: None,
        }
    }

    #[test]
    fn drama_of_the_hand_game() {
        // Per state s0..s3, max(e) - e_S: 0, 0.5-(-0.5)=1, 0.25-(-0.25)=0.5,
        // 0.875-0.875=0. Mean 1.5/4 = 0.375, max 1.
        let g = GameMetrics::of(&game());
        assert_eq!(drama_values(&game()), vec![0.0, 1.0, 0.5, 0.0]);
        assert_eq!(g.drama_mean, Some(0.375));
        assert_eq!(g.drama_max, Some(1.0));
    }

    #[test]
    fn drama_of_an_undecided_game_averages_both_players() {
        // Both count as winners: (max-e1 + max-e2)/2 = |e1-e2|/2 per state:
        // s0 0, s1 0.5, s2 0.25, s3 0.875.
        let mut t = game();
        t.winner = None;
        assert_eq!(drama_values(&t), vec![0.0, 0.5, 0.25, 0.875]);
    }

    #[test]
    fn lead_change_of_the_hand_game() {
        // Leaders s0..s3: {S,N} (tie at 0), {N}, {N}, {S}: changes at
        // s0→s1 and s2→s3, 2 of 3 transitions.
        assert_eq!(lead_changes(&game()), (2, 3));
        let g = GameMetrics::of(&game());
        assert_eq!(Metric::LeadChange.value(&g), Some(2.0 / 3.0));
    }

    #[test]
    fn stability_of_the_hand_game() {
        // South's 0, -0.5, -0.25, 0.875: mean 0.03125, E[x²] =
        // (0 + 0.25 + 0.0625 + 0.765625)/4 = 0.26953125, variance
        // 0.26953125 - 0.0009765625 = 0.2685546875; North's the same; sum
        // 0.537109375.
        assert_eq!(stability(&game()), Some(0.537_109_375));
    }

    #[test]
    fn decisiveness_of_the_hand_game() {
        // North (the loser) reached 0, 0.5, 0.25, -0.875: threshold 0.5.
        // South first exceeds 0.5 before ply 3 (0.875): 3/4 = 0.75.
        let t = game();
        assert_eq!(decisiveness_threshold(&t), Some(0.5));
        assert_eq!(decisiveness_moves(&t), Some((3, 4)));
        let g = GameMetrics::of(&t);
        assert_eq!(Metric::DecisivenessMoves.value(&g), Some(0.75));
    }

    #[test]
    fn decisiveness_never_reached_is_one_for_both() {
        // s3 at -0.875 for South too: South never exceeds North's 0.875,
        // so the decisive ply is 4 = plies: 1.
        let mut t = game();
        t.states[3] = st(-0.875, &B, S);
        assert_eq!(decisiveness_moves(&t), Some((4, 4)));
    }

    #[test]
    fn decisiveness_of_an_undecided_game() {
        // No loser: katro leaves it undefined.
        let mut t = game();
        t.winner = None;
        assert_eq!(decisiveness_threshold(&t), None);
        assert_eq!(decisiveness_moves(&t), None);
    }

    #[test]
    fn clarity_of_the_hand_game() {
        // Variances: [-0.5,0.5] 0.25; [-0.25,0,0.25] 0.125/3 = 1/24;
        // [-0.75] 0; [-1,0,0,0] mean -0.25, (0.5625 + 3·0.0625)/4 = 0.1875.
        // Mean (48 + 8 + 0 + 36)/192/4 = 23/192.
        let t = game();
        let cv = clarity_variance(&t).unwrap();
        assert!((cv - 23.0 / 192.0).abs() < 1e-15, "{cv}");
        // Narrowness thresholds mean + 0.75(max-mean): 0.375 → 1 of 2;
        // 0.1875 → 1 of 3; -0.75 → 0 of 1 (not above); -0.0625 → 3 of 4.
        // Mean (1/2 + 1/3 + 0 + 3/4)/4 = 19/48.
        let cn = clarity_narrowness(&t).unwrap();
        assert!((cn - 19.0 / 48.0).abs() < 1e-15, "{cn}");
        // Moves valued alike: none stands out, though 11 × tanh 2 has a
        // floating-point mean one ulp below tanh 2 (issue 31).
        let same = vec![2f64.tanh(); 11];
        assert!(same.iter().sum::<f64>() / 11.0 < 2f64.tanh());
        assert_eq!(narrow(&same), (0, 11));
    }

    #[test]
    fn clarity_needs_move_evaluations() {
        let mut t = game();
        t.plies[1].move_evals.clear();
        assert_eq!(clarity_variance(&t), None);
        assert_eq!(clarity_narrowness(&t), None);
    }

    #[test]
    fn repetition_and_coverage_of_the_hand_game() {
        // Boards A B A B C: 3 distinct of 5, 2 repeats: 0.4. Situations
        // (A,S) (B,N) (A,S) (B,S) (C,N): 4 distinct, 1 repeat: 0.2.
        let t = game();
        assert_eq!(repetition(&t), (2, 1, 5));
        let g = GameMetrics::of(&t);
        assert_eq!(Metric::PositionalRepetition.value(&g), Some(0.4));
        assert_eq!(Metric::SituationalRepetition.value(&g), Some(0.2));
        // Holes 1-4 held seeds at some point, hole 5 never: 4/5.
        assert_eq!(board_coverage(&t), (4, 5));
        assert_eq!(Metric::BoardCoverage.value(&g), Some(0.8));
    }

    #[test]
    fn state_evaluation_difference_of_the_hand_game() {
        // |e_S - e_N| = 2|e_S| over s0..s4: 0, 1, 0.5, 1.75, 2: mean
        // 5.25/5 = 1.05, max 2, min 0.
        let t = game();
        assert_eq!(
            state_evaluation_difference(&t),
            vec![0.0, 1.0, 0.5, 1.75, 2.0]
        );
        let g = GameMetrics::of(&t);
        assert_eq!(g.sed_mean, Some(1.05));
        assert_eq!(g.sed_max, Some(2.0));
    }

    #[test]
    fn mancala_measures_of_the_hand_game() {
        // Laps 1, 3, 2, 1; captures 0, 1, 1, 0; seeds won 0, 2, 3, 0:
        // relay length 7/4, captures 2/4, seeds 5/4, capturing plies 2/4.
        let mut t = game();
        for (p, (l, c, s)) in t
            .plies
            .iter_mut()
            .zip([(1, 0, 0), (3, 1, 2), (2, 1, 3), (1, 0, 0)])
        {
            (p.laps, p.captures, p.seeds_to_mover) = (l, c, s);
        }
        let g = GameMetrics::of(&t);
        assert_eq!(Metric::RelayLength.value(&g), Some(1.75));
        assert_eq!(Metric::CapturesPerTurn.value(&g), Some(0.5));
        assert_eq!(Metric::SeedsChangingSidesPerTurn.value(&g), Some(1.25));
        assert_eq!(Metric::CaptureTurnShare.value(&g), Some(0.5));
    }

    #[test]
    fn ludii_reductions_start_at_zero() {
        // Min of [0.5, 1] is 0.5, Ludii's 0; max of [-0.5, -1] is -0.5,
        // Ludii's 0.
        assert_eq!(ludii::min0(&[0.5, 1.0]), 0.0);
        assert_eq!(min_of(&[0.5, 1.0]), Some(0.5));
        assert_eq!(ludii::max0(&[-0.5, -1.0]), 0.0);
        assert_eq!(max_of(&[-0.5, -1.0]), Some(-0.5));
    }

    #[test]
    fn branching_and_decision_factor_of_the_hand_game() {
        // Legal 2, 3, 1, 4: 10/4 = 2.5; plies with a choice 2, 3, 4: 9/3.
        let g = GameMetrics::of(&game());
        assert_eq!(branching(&game()), (10, 4, 9, 3));
        assert_eq!(Metric::BranchingFactorAvg.value(&g), Some(2.5));
        assert_eq!(Metric::DecisionFactorAvg.value(&g), Some(3.0));
    }

    #[test]
    fn outcome_uniformity_from_counts() {
        // 3 wins, 1 loss for player 1: utilities 1,1,1,-1, mean 0.5,
        // E[x²] 1, variance 0.75, OU 0.25. 1 win each, 2 undecided: mean 0,
        // E[x²] 0.5, OU 0.5.
        assert_eq!(outcome_uniformity(3, 1, 4), Some(0.25));
        assert_eq!(outcome_uniformity(1, 1, 4), Some(0.5));
        assert_eq!(outcome_uniformity(0, 0, 0), None);
        let i = outcome_uniformity_interval(30, 10, 40).unwrap();
        assert!(i.low < 0.25 && 0.25 < i.high && i.low >= 0.0, "{i:?}");
    }

    #[test]
    fn variance_is_the_sample_variance() {
        // 1, 2, 3: mean 2, squared deviations 1 + 0 + 1 over n - 1 = 2.
        let mut q = QSum::default();
        [1.0, 2.0, 3.0].iter().for_each(|&v| q.add(v));
        assert_eq!(q.mean(), Some(2.0));
        assert!((q.variance().unwrap() - 1.0).abs() < 1e-12);
        let mut one = QSum::default();
        one.add(5.0);
        assert_eq!(one.variance(), None);
    }

    fn metrics_strategy() -> impl Strategy<Value = GameMetrics> {
        (
            (0u8..3, 1u32..300, 0.0f64..2.0, -1.0f64..1.0, 0.0f64..1.0),
            (0u32..300, 0u32..50, 0.0f64..1.0, 1u32..40),
        )
            .prop_map(|((w, plies, d, thr, c), (lc, rep, s, holes))| {
                let t = Trajectory {
                    states: Vec::new(),
                    plies: Vec::new(),
                    winner: None,
                    ludii: None,
                };
                let mut g = GameMetrics::of(&t);
                g.winner = [None, Some(S), Some(N)][w as usize];
                g.plies = plies;
                g.drama_mean = Some(d / 3.0);
                g.drama_max = Some(d);
                g.lead_changes = lc.min(plies - 1);
                g.lead_transitions = plies - 1;
                g.stability = Some(s * 0.7);
                g.decisiveness_threshold = g.winner.map(|_| thr);
                g.decisive_ply = g.winner.map(|_| lc.min(plies));
                g.clarity_variance = Some(c / 7.0);
                g.clarity_narrowness = Some(c);
                g.positional_repeats = rep.min(plies);
                g.states = plies + 1;
                g.holes_covered = holes / 2;
                g.holes = holes;
                g.sed_mean = Some(d.tanh());
                g.legal = u64::from(plies) * 3;
                g
            })
    }

    proptest! {
        /// Any split of a list of games, merged in any grouping and order,
        /// gives the aggregate of the whole, field for field.
        #[test]
        fn merging_is_exact_for_any_split(
            games in proptest::collection::vec(metrics_strategy(), 0..50),
            cut1 in 0usize..50,
            cut2 in 0usize..50,
        ) {
            let (c1, c2) = (cut1.min(games.len()), cut2.min(games.len()));
            let (c1, c2) = (c1.min(c2), c1.max(c2));
            let part = |r: &[GameMetrics]| {
                let mut a = MetricsAggregate::new();
                r.iter().for_each(|g| a.add(g));
                a
            };
            let (a, b, c) = (part(&games[..c1]), part(&games[c1..c2]), part(&games[c2..]));
            let whole = part(&games);
            let mut left = a.clone();
            left.merge(&b);
            left.merge(&c);
            let mut right = b.clone();
            right.merge(&c);
            let mut right_first = a.clone();
            right_first.merge(&right);
            let mut reversed = c.clone();
            reversed.merge(&b);
            reversed.merge(&a);
            let mut backwards = MetricsAggregate::new();
            games.iter().rev().for_each(|g| backwards.add(g));
            for m in [left, right_first, reversed, backwards] {
                prop_assert_eq!(&m, &whole);
            }
        }
    }

    #[test]
    fn float_sums_would_depend_on_order() {
        // Why values are quantised: 0.1 + 0.2 + 0.3 differs from
        // 0.3 + 0.2 + 0.1 in f64, but not in quantised units.
        assert_ne!(0.1 + 0.2 + 0.3, 0.3 + 0.2 + 0.1);
        let (mut a, mut b) = (QSum::default(), QSum::default());
        [0.1, 0.2, 0.3].iter().for_each(|&v| a.add(v));
        [0.3, 0.2, 0.1].iter().for_each(|&v| b.add(v));
        assert_eq!(a, b);
    }

    /// A katro-4x4 position made by hand: one seed in every hole but
    /// those `set`, `to_move` to move after `plies` plies.
    fn hand_position(rules: &Rules, set: &[(usize, u16)], to_move: Player, plies: u32) -> Position {
        let mut holes = vec![1; rules.hole_count()];
        for &(h, v) in set {
            holes[h] = v;
        }
        rules
            .position(&holes, to_move, [None, None], plies)
            .unwrap()
    }

    fn report(laps: u64, captures: u32) -> MoveReport {
        MoveReport {
            laps,
            relays: laps - 1 - u64::from(captures),
            captures,
            seeds_captured: 2 * u64::from(captures),
            seeds_sown: 7,
            end: crate::engine::MoveEnd::NoRelay,
        }
    }

    /// The recorder alone, told a game of two plies made by hand (no game
    /// loop, no agent): South's move wins two seeds, North's empties its
    /// side and South has won. What it writes down is exactly what it was
    /// told, evaluated as Ludii does.
    #[test]
    fn the_recorder_writes_down_what_it_is_told() {
        let rules = preset("katro-4x4").unwrap();
        let n = rules.hole_count();
        let south = (0..n).find(|&h| rules.owner(h) == S).unwrap();
        let north: Vec<usize> = (0..n).filter(|&h| rules.owner(h) == N).collect();
        let side = north.len() as i64;
        let p0 = hand_position(&rules, &[], S, 0);
        let p1 = hand_position(&rules, &[(south, 3), (north[0], 0)], N, 1);
        let emptied: Vec<(usize, u16)> = north.iter().map(|&h| (h, 0)).collect();
        let p2 = hand_position(&rules, &emptied, N, 2);
        let (l0, l1) = (rules.legal_moves(&p0), rules.legal_moves(&p1));
        // The reports are made by hand, with no laps observed: Ludii's
        // states, which need the laps, are not recorded.
        let mut rec = Recorder::new(false).with_ludii_states(false);
        rec.before_move(&rules, &p0, &l0);
        rec.after_move(&rules, l0[0], &p1, &report(3, 1));
        rec.before_move(&rules, &p1, &l1);
        rec.after_move(&rules, l1[0], &p2, &report(1, 0));
        let t = rec.finish(&rules, &p2);
        let board = |p: &Position| p.holes()[..n].to_vec();
        let d = 3.0f64; // South's side less North's at p1: +2 and -1
        assert_eq!(
            t.states,
            vec![
                StateObs {
                    eval: [0.0, 0.0],
                    board: board(&p0),
                    to_move: S
                },
                StateObs {
                    eval: [d.tanh(), (-d).tanh()],
                    board: board(&p1),
                    to_move: N
                },
                // Over: the utilities, +1 for the winner.
                StateObs {
                    eval: [1.0, -1.0],
                    board: board(&p2),
                    to_move: N
                },
            ]
        );
        let ply = |mover, legal: &MoveList, laps, captures, seeds_to_mover| PlyObs {
            mover,
            legal: legal.len() as u32,
            move_evals: Vec::new(),
            laps,
            captures,
            seeds_to_mover,
        };
        // North ends with none of the side - 1 seeds it had before its move.
        assert_eq!(
            t.plies,
            vec![ply(S, &l0, 3, 1, 2), ply(N, &l1, 1, 0, 1 - side)]
        );
        assert_eq!(t.winner, Some(S));
    }

    /// Told to evaluate moves, the recorder gives each legal move the
    /// mover's evaluation of the position it leads to.
    #[test]
    fn the_recorder_evaluates_every_legal_move_when_asked() {
        let rules = preset("katro-4x4").unwrap();
        let pos = hand_position(&rules, &[(0, 4), (5, 0)], S, 0);
        let legal = rules.legal_moves(&pos);
        assert!(legal.len() > 1);
        let mut rec = Recorder::new(true);
        rec.before_move(&rules, &pos, &legal);
        let t = rec.into_trajectory();
        let want: Vec<f64> = legal
            .iter()
            .map(|&mv| {
                let mut after = pos;
                rules.play(&mut after, mv).unwrap();
                ludii_evaluation(&rules, &after)[S.index()]
            })
            .collect();
        assert_eq!(t.plies.len(), 1);
        assert_eq!(t.plies[0].move_evals, want);
        assert_eq!(t.states.len(), 1, "no end told, no final state");
    }

    /// Beside the recorder, the seeds each move captured.
    struct WithCaptures {
        rec: Recorder,
        captured: Vec<u64>,
    }

    impl GameObserver for WithCaptures {
        fn before_move(&mut self, rules: &Rules, pos: &Position, legal: &MoveList) {
            self.rec.before_move(rules, pos, legal);
        }
        // The recorder's lap observer, as the runner passes it: without
        // it Ludii's states of each lap would be missing.
        fn laps(&mut self) -> Option<&mut dyn crate::engine::Observer> {
            self.rec.laps()
        }
        fn after_move(&mut self, rules: &Rules, mv: Move, after: &Position, r: &MoveReport) {
            self.rec.after_move(rules, mv, after, r);
            self.captured.push(r.seeds_captured);
        }
        fn end(&mut self, rules: &Rules, pos: &Position) {
            self.rec.end(rules, pos);
        }
    }

    /// A random katro-4x4 game through the engine's game loop
    /// (`game::play_game_observed`), recorded with move evaluations.
    fn engine_game(seed: u64) -> (Trajectory, u32, Vec<u64>) {
        let rules = preset("katro-4x4").unwrap();
        let tables = crate::agents::perfect::Tables::new();
        let random = AgentSpec::Random;
        let mut watch = WithCaptures {
            rec: Recorder::new(true),
            captured: Vec::new(),
        };
        let seats = [random.start_game(&tables), random.start_game(&tables)];
        let g = crate::game::play_game_observed(&rules, seats, 0, seed, None, &mut watch);
        (watch.rec.into_trajectory(), g.plies, watch.captured)
    }

    #[test]
    fn a_real_katro_game_keeps_the_invariants() {
        let rules = preset("katro-4x4").unwrap();
        let mut agg = MetricsAggregate::new();
        for seed in 1..=20 {
            let (t, plies, captured) = engine_game(seed);
            assert_eq!(t.plies.len() as u32, plies);
            assert_eq!(t.states.len(), t.plies.len() + 1);
            // The start is symmetric: tanh(0) for both.
            assert_eq!(t.states[0].eval, [0.0, 0.0]);
            // The final state carries the utilities.
            let last = t.states.last().unwrap().eval;
            match t.winner {
                Some(w) => assert_eq!((last[w.index()], last[w.other().index()]), (1.0, -1.0)),
                None => assert_eq!(last, [0.0, 0.0]),
            }
            // Seeds are conserved, so every board sums to the total; before
            // each move the evaluation is tanh of South's seeds minus North's.
            for s in &t.states {
                let sum: u32 = s.board.iter().map(|&v| u32::from(v)).sum();
                assert_eq!(sum, rules.total_seeds());
            }
            for s in &t.states[..t.plies.len()] {
                let d: f64 = (0..s.board.len())
                    .map(|h| match rules.owner(h) {
                        S => f64::from(s.board[h]),
                        N => -f64::from(s.board[h]),
                    })
                    .sum();
                assert_eq!(s.eval, [d.tanh(), (-d).tanh()]);
            }
            for (p, &c) in t.plies.iter().zip(&captured) {
                // The first lap, then one per relay or capture (none after
                // a capture that ends the game); captured seeds are sown on
                // the capturer's side (RULES.md §5), so the seeds changing
                // sides are the seeds captured.
                assert!(p.laps >= u64::from(p.captures).max(1), "{p:?}");
                assert_eq!(p.seeds_to_mover, c as i64, "{p:?}");
                assert_eq!(p.move_evals.len(), p.legal as usize);
                assert!(p.move_evals.iter().all(|e| (-1.0..=1.0).contains(e)));
            }
            let g = GameMetrics::of(&t);
            assert!(g.lead_changes <= g.lead_transitions && g.lead_transitions < plies.max(1));
            // A situation is a board and a mover: never more repeats.
            assert!(
                g.situational_repeats <= g.positional_repeats && g.positional_repeats < g.states
            );
            for m in Metric::ALL {
                if let Some(v) = m.value(&g) {
                    let (lo, hi) = m.range();
                    assert!(
                        lo <= v && v <= hi,
                        "{} = {v} outside [{lo}, {hi}]",
                        m.name()
                    );
                }
            }
            let l = g.ludii.as_ref().unwrap();
            assert_eq!(l.sed_min, 0.0);
            assert_eq!(l.decisiveness_threshold, -1.0);
            assert_eq!(l.decisiveness_moves, Some(0.0));
            agg.add(&g);
        }
        assert_eq!(agg.games, 20);
        for share in [
            agg.lead_change_pooled(),
            agg.positional_repetition_pooled(),
            agg.board_coverage_pooled(),
        ] {
            let v = share.unwrap();
            assert!((0.0..=1.0).contains(&v), "{v}");
        }
        let ou = agg.outcome_uniformity().unwrap();
        assert!(0.0 <= ou.low && ou.low <= ou.estimate && ou.estimate <= ou.high && ou.high <= 1.0);
    }
}
