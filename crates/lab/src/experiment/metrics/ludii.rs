//! Ludii's design metrics as Ludii's own code computes them, on the states
//! Ludii's own game has (issue 31): the `ludii_*` columns of metrics.csv.
//!
//! # Ludii's states
//! In Ludii's Katro every sowing lap and every lone-seed step is a move of
//! its own (docs/RULES.md §7, §9, §11: "each lap is a Ludii move"), and
//! Ludii's metrics replay a trial move by move, measuring the state before
//! (or after) each. So a game here is the sequence s₀ … s_N of the states
//! before each Ludii move and the final one: the start, the board after
//! each lap but a move's last (a mid-turn state, where the one legal Ludii
//! move is the forced next lap), and the position after each katro
//! decision. After a capture lap, Ludii's board has the victims' seeds in
//! the landing hole, to be sown on by the next lap (the state katro's
//! engine also leaves when a capture ends the game or pauses a turn,
//! RULES.md §7, §9). A move katro ends as endless (RULES.md §8) counts its
//! laps up to its first repeated state, as its report does. [`LapStates`]
//! (the engine's lap observer, fed through `game::GameObserver::laps`)
//! builds the mid-turn states; `super::Recorder` the rest.
//!
//! # Ludii's evaluation
//! Ludii's heuristic for Katro is `ownRegionsCount`, the seeds on a
//! player's side, so a state's value for player p is tanh(p's seeds − the
//! other's) (`Utils.evaluateState`), and a finished game's is the utility
//! (+1 won, −1 lost, 0 undecided). The `ludii_*` columns always use it,
//! whatever `metrics_eval` says: a mid-turn state is not a position a
//! search or the solver can value, and Ludii has no other.
//!
//! # Ludii's code
//! Each function cites its Ludii file (Ludeme/Ludii,
//! `Evaluation/src/metrics/…`) and follows it, quirks included:
//! - `Stats.measure` (Common's `main/math/statistics/Stats.java`) updates
//!   the maximum only in an `else if` after the minimum ([`stats`]), and its
//!   `varn` is the sample variance (n − 1), 0 for one value;
//! - Drama and both Decisiveness metrics read the winners from a freshly
//!   set-up context, so both players are "winners" of every game
//!   ([`WINNERS`]);
//! - integer divisions where Ludii divides ints (Decisiveness Moves, both
//!   Repetitions, Clarity Narrowness, Balance's `int[]` of wins);
//! - Clarity Narrowness's threshold in Ludii's double arithmetic, whose
//!   rounding counts some states of equal values narrow ([`clarity`]);
//! - the multi-metric reductions (`multiple/MultiMetricFramework.java`):
//!   Average sums v/n term by term (0 for no value), Max and Min fold from 0.
//!
//! Clarity Narrowness also depends on the order of the legal moves, through
//! `Stats`' maximum: they are taken in the order Katro.lud lists them
//! ([`in_ludii_order`]).

use std::collections::HashSet;

use crate::engine::{Dir, LapKind, MAX_HOLES, Move, MoveReport, Observer, Position, Status};
use crate::rules::{Player, Rules};

/// The players Ludii's Drama and Decisiveness metrics take for the
/// winners: `Utils.highestRankedPlayers` reads the ranking of a context
/// fresh from `setupNewContext`, where every player ties (both utilities
/// 0), so both players are "highest ranked" in every game, decided or not.
pub const WINNERS: [Player; 2] = [Player::South, Player::North];

/// What a board is, for Ludii's metrics: its holes and which are South's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sides {
    holes: usize,
    south: u128,
}

impl Sides {
    pub fn of(rules: &Rules) -> Sides {
        let holes = rules.hole_count();
        let south = (0..holes)
            .filter(|&h| rules.owner(h) == Player::South)
            .fold(0u128, |m, h| m | 1u128 << h);
        Sides { holes, south }
    }

    /// South's seeds minus North's.
    fn difference(&self, b: &[u16; MAX_HOLES]) -> i64 {
        b[..self.holes]
            .iter()
            .enumerate()
            .map(|(h, &s)| {
                if self.south >> h & 1 == 1 {
                    i64::from(s)
                } else {
                    -i64::from(s)
                }
            })
            .sum()
    }

    fn occupied(&self, b: &[u16; MAX_HOLES]) -> u128 {
        b[..self.holes]
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s > 0)
            .fold(0u128, |m, (h, _)| m | 1u128 << h)
    }

    /// Ludii's positional key (`State.stateHash`): the board.
    fn board_key(&self, b: &[u16; MAX_HOLES]) -> u64 {
        b[..self.holes]
            .iter()
            .fold(0, |k, &s| crate::engine::chain_hash(k, u64::from(s)))
    }
}

/// Ludii's evaluation of a state that is not the end of a game, for
/// South and North: tanh of the seed difference (module doc), whole
/// katro positions and mid-move boards alike.
pub(super) fn heuristic(d: i64) -> [f64; 2] {
    let d = d as f64;
    [d.tanh(), (-d).tanh()]
}

/// "No hole": the next Ludii move is a decision, not a forced lap.
const NO_HOLE: u64 = u64::MAX;

/// One state of Ludii's game: one before each Ludii move, and the final one.
#[derive(Clone, Debug, PartialEq)]
pub struct LudiiState {
    /// Ludii's evaluation for South and North.
    pub e: [f64; 2],
    /// Ludii's positional key: a 64-bit hash of the board.
    pub board_key: u64,
    /// Ludii's situational key (`State.fullHash`): the board, the player
    /// to move, how many Ludii moves of the turn they have made (Ludii's
    /// `numTurnSamePlayer`) and the hole a forced lap sows from (or a
    /// paused turn's entered hole), hashed.
    pub situation_key: u64,
    /// The holes holding seeds.
    pub occupied: u128,
    /// Legal Ludii moves here: 1 mid-turn, 0 at the final state.
    pub legal: u32,
    /// The player making the Ludii move from here (at the final state, the
    /// player who would move next).
    pub mover: Player,
    /// Ludii's Clarity of this state (sample variance, narrow), from the
    /// mover's evaluation after each legal Ludii move; `None` when the
    /// legal moves were not evaluated, and at the final state.
    pub clarity: Option<(f64, bool)>,
}

impl LudiiState {
    fn new(sides: &Sides, b: &[u16; MAX_HOLES], e: [f64; 2], at: Turn, next: u64) -> LudiiState {
        let board_key = sides.board_key(b);
        let situation_key = [at.mover.index() as u64, u64::from(at.in_turn), next]
            .iter()
            .fold(board_key, |k, &x| crate::engine::chain_hash(k, x));
        LudiiState {
            e,
            board_key,
            situation_key,
            occupied: sides.occupied(b),
            legal: 1,
            mover: at.mover,
            clarity: None,
        }
    }
}

/// Who makes the next Ludii move, and how many they made this turn.
#[derive(Clone, Copy, Debug)]
struct Turn {
    mover: Player,
    in_turn: u32,
}

/// The engine's lap observer of one katro move: the mid-turn state after
/// each Ludii move of it but the last (module doc).
pub struct LapStates {
    sides: Sides,
    turn: Turn,
    clarity: bool,
    board: [u16; MAX_HOLES],
    /// Whether a Ludii move of this katro move is under way.
    started: bool,
    pub states: Vec<LudiiState>,
}

impl LapStates {
    fn new() -> LapStates {
        LapStates {
            sides: Sides::default(),
            turn: Turn {
                mover: Player::South,
                in_turn: 0,
            },
            clarity: false,
            board: [0; MAX_HOLES],
            started: false,
            states: Vec::new(),
        }
    }

    /// A Ludii move ended on `self.board`, and the next sows from `next`
    /// (holding `seeds` after a capture: the victims joined the landing).
    fn emit(&mut self, kind: LapKind, next: usize, seeds: u64) {
        let mut b = self.board;
        if kind == LapKind::Capture {
            b[next] = seeds as u16;
        }
        self.turn.in_turn += 1;
        let d = self.sides.difference(&b);
        let mut s = LudiiState::new(&self.sides, &b, heuristic(d), self.turn, next as u64);
        // One legal move, the forced lap: a sample variance of one value
        // is 0, and Stats' maximum of one value stays -∞, so it is narrow.
        s.clarity = self.clarity.then_some((0.0, true));
        self.states.push(s);
    }
}

impl Observer for LapStates {
    fn lap(&mut self, kind: LapKind, lifted_from: usize, seeds: u64) {
        if self.started {
            self.emit(kind, lifted_from, seeds);
        }
        self.started = true;
    }
    fn step(&mut self, _from: usize, _to: usize) {
        self.started = true;
    }
    fn board(&mut self, holes: &[u16; MAX_HOLES]) {
        self.board = *holes;
    }
}

/// The engine's observer of a legal move played on a copy for Clarity:
/// the board after its first Ludii move, if that is not the move's last.
struct FirstLap {
    board: [u16; MAX_HOLES],
    started: bool,
    first: Option<[u16; MAX_HOLES]>,
}

impl Observer for FirstLap {
    fn lap(&mut self, kind: LapKind, lifted_from: usize, seeds: u64) {
        if self.started && self.first.is_none() {
            let mut b = self.board;
            if kind == LapKind::Capture {
                b[lifted_from] = seeds as u16;
            }
            self.first = Some(b);
        }
        self.started = true;
    }
    fn step(&mut self, _from: usize, _to: usize) {
        self.started = true;
    }
    fn board(&mut self, holes: &[u16; MAX_HOLES]) {
        if self.first.is_none() {
            self.board = *holes;
        }
    }
}

/// Plays `mv` from `pos` on a copy: the position after the whole move and
/// the mover's Ludii evaluation of the state after its first Ludii move
/// (`Utils.evaluateMove` applies one Ludii move: one lap, or the step).
pub fn play_for_clarity(rules: &Rules, pos: &Position, mv: Move) -> (Position, f64) {
    let mover = pos.to_move();
    let mut after = *pos;
    let mut obs = FirstLap {
        board: [0; MAX_HOLES],
        started: false,
        first: None,
    };
    rules.play_unchecked(&mut after, mv, &mut obs);
    let e = match obs.first {
        Some(b) => heuristic(Sides::of(rules).difference(&b)),
        None => super::ludii_evaluation(rules, &after),
    };
    (after, e[mover.index()])
}

/// Ludii's `Stats` after `measure()` (Stats.java): the sequential mean;
/// the sample variance `varn` (n − 1; 0 for one value); the true minimum;
/// and a maximum updated only by a value that does not set a new minimum
/// (`if (val < min) … else if (val > max) …`), so it stays −∞ for one value
/// or a strictly decreasing list. Everything is 0 for no value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub n: usize,
    pub mean: f64,
    pub varn: f64,
    pub min: f64,
    pub max: f64,
}

pub fn stats(v: &[f64]) -> Stats {
    let n = v.len();
    if n == 0 {
        return Stats {
            n,
            mean: 0.0,
            varn: 0.0,
            min: 0.0,
            max: 0.0,
        };
    }
    let (mut sum, mut min, mut max) = (0.0, f64::INFINITY, f64::NEG_INFINITY);
    for &x in v {
        sum += x;
        if x < min {
            min = x;
        } else if x > max {
            max = x;
        }
    }
    let mean = sum / n as f64;
    let varn = if n > 1 {
        v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    Stats {
        n,
        mean,
        varn,
        min,
        max,
    }
}

/// Ludii's Clarity of one state from the mover's values after each legal
/// move, in Ludii's order ([`in_ludii_order`])
/// (single/stateEvaluation/clarity/ClarityVariance.java,
/// ClarityNarrowness.java): the sample variance, and whether Ludii counts
/// the state narrow. ClarityNarrowness.java (lines 73–84 at Ludii commit
/// ac29f5ff) measures `Stats`, takes `threshold = mean + 0.75 * (max -
/// mean)` and adds `above / n`, int by int, so 1 exactly when every value
/// is above the threshold. This follows Ludii's double arithmetic,
/// rounding and all, because the rounding decides states that Ludii
/// counts (issue 45, item 9). The mean of 11 or more equal values, summed
/// one by one, can fall two or three ulps below them; the threshold,
/// three quarters of the way back, then rounds below them too, and Ludii
/// counts the state narrow. On katro-ludii's random games that adds about
/// 0.003, which is what katro lacked against Ludii's own figure. Apart
/// from that the outcome is the exact one: one value, or values strictly
/// decreasing, count 1 ([`Stats`]' maximum stays −∞, and so does the
/// threshold); any other list has its maximum among its values, and its
/// smallest value is not above the threshold.
pub fn clarity(values: &[f64]) -> (f64, bool) {
    let s = stats(values);
    let threshold = s.mean + 0.75 * (s.max - s.mean);
    let above = values.iter().filter(|&&v| v > threshold).count();
    (s.varn, s.n > 0 && above / s.n == 1)
}

/// The values of a state's legal moves (`values[i]` is `moves[i]`'s) in
/// the order Ludii lists the moves, which Clarity Narrowness's maximum
/// depends on. Katro.lud's `play` is an `(or { … })` of a CCW sowing from
/// each start hole, then a CW one from each, then the lone-seed steps, and
/// `Or` lists the moves of each part in turn (Katra Boaoaka.lud has the
/// same two parts); CCW is katro's `+` for both players, and the start
/// holes of one row come in Ludii's site order, column a first, as in
/// katro's. katro lists `c1+ c1- d1+ d1- …` (RULES.md §3), so this
/// regroups them: every `+`, then every `-`, then the rest, each group in
/// katro's order.
pub fn in_ludii_order(moves: &[Move], values: &[f64]) -> Vec<f64> {
    let rank = |m: &Move| match m.dir {
        Some(Dir::Forward) => 0,
        Some(Dir::Backward) => 1,
        None => 2,
    };
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&i| rank(&moves[i]));
    order.into_iter().map(|i| values[i]).collect()
}

/// A game as Ludii's metrics see it: s₀ … s_N (module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct LudiiTrajectory {
    pub states: Vec<LudiiState>,
    /// The game's result (`None` undecided) and whether it ended at a
    /// limit (the ply limit, an endless move or the lap limit), which
    /// Ludii's would reach as its move limit: a timeout.
    pub winner: Option<Player>,
    pub timeout: bool,
    pub holes: u32,
}

/// Builds the [`LudiiTrajectory`] of a game as `super::Recorder` is told it.
pub struct LudiiRecorder {
    sides: Sides,
    laps: LapStates,
    /// Who makes the Ludii move from the last state, and their moves so
    /// far in the turn.
    turn: Turn,
    states: Vec<LudiiState>,
    ended: Option<(Option<Player>, bool)>,
}

impl LudiiRecorder {
    /// `clarity`: the legal moves of every state are evaluated.
    pub fn new(rules: &Rules, clarity: bool) -> LudiiRecorder {
        let mut laps = LapStates::new();
        laps.sides = Sides::of(rules);
        laps.clarity = clarity;
        LudiiRecorder {
            sides: laps.sides,
            turn: laps.turn,
            laps,
            states: Vec::new(),
            ended: None,
        }
    }

    fn push_position(&mut self, rules: &Rules, pos: &Position) {
        let next = pos.pending().map_or(NO_HOLE, |h| h as u64);
        let e = super::ludii_evaluation(rules, pos);
        let mut s = LudiiState::new(&self.sides, pos.holes(), e, self.turn, next);
        s.legal = 0;
        self.states.push(s);
    }

    fn start(&mut self, rules: &Rules, pos: &Position) {
        if self.states.is_empty() {
            self.turn = Turn {
                mover: pos.to_move(),
                in_turn: 0,
            };
            self.push_position(rules, pos);
        }
    }

    /// The game is at `pos` with the legal decisions `legal`; `values`:
    /// the mover's value after the first Ludii move of each
    /// ([`play_for_clarity`]), when the recorder evaluates them.
    pub fn before_move(&mut self, rules: &Rules, pos: &Position, legal: &[Move], values: &[f64]) {
        self.start(rules, pos);
        let evaluated = self.laps.clarity;
        let s = self.states.last_mut().expect("a state was pushed");
        s.legal = legal.len() as u32;
        s.clarity = evaluated.then(|| clarity(&in_ludii_order(legal, values)));
        self.laps.turn = self.turn;
        self.laps.started = false;
        self.laps.states.clear();
    }

    /// The lap observer of the move about to be played.
    pub fn laps(&mut self) -> &mut LapStates {
        &mut self.laps
    }

    /// The move `mv` made `after` and reported `r`.
    pub fn after_move(&mut self, rules: &Rules, mv: Move, after: &Position, r: &MoveReport) {
        // Ludii moves in this katro move: its laps, and the step if it is
        // one (RULES.md §7); an endless move's laps past its first repeat
        // are dropped (§8).
        let moves = r.laps + u64::from(mv.is_step());
        let keep = moves.max(1) as usize - 1;
        debug_assert!(self.laps.states.len() >= keep);
        self.laps.states.truncate(keep);
        self.states.append(&mut self.laps.states);
        self.turn = if after.to_move() == self.turn.mover {
            // A turn paused by a capturing step goes on (RULES.md §7).
            Turn {
                mover: self.turn.mover,
                in_turn: self.turn.in_turn + moves as u32,
            }
        } else {
            Turn {
                mover: after.to_move(),
                in_turn: 0,
            }
        };
        self.push_position(rules, after);
    }

    /// The game is over at `pos`.
    pub fn end(&mut self, rules: &Rules, pos: &Position) {
        self.start(rules, pos);
        let status = rules.status(pos);
        self.ended = Some((status.winner(), !matches!(status, Status::Won(_))));
    }

    pub fn finish(self) -> LudiiTrajectory {
        let (winner, timeout) = self.ended.unwrap_or((None, false));
        LudiiTrajectory {
            states: self.states,
            winner,
            timeout,
            holes: self.sides.holes as u32,
        }
    }
}

/// Ludii's multi-metric Average: Σ (v / n) term by term, 0 for no value
/// (MultiMetricFramework.java).
pub fn average(v: &[f64]) -> f64 {
    let n = v.len() as f64;
    v.iter().fold(0.0, |a, &x| a + x / n)
}

/// Ludii's multi-metric Max, folded from 0.
pub fn max0(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |a, &x| f64::max(a, x))
}

/// Ludii's multi-metric Min, folded from 0.
pub fn min0(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |a, &x| f64::min(a, x))
}

/// `Utils.allPlayerStateEvaluations`' maximum: the list starts with a
/// placeholder −1.
fn highest(e: &[f64; 2]) -> f64 {
    [-1.0, e[0], e[1]]
        .into_iter()
        .fold(f64::NEG_INFINITY, f64::max)
}

/// One game's Ludii metrics, each as Ludii's code computes it for one
/// trial (`None` where Ludii's is NaN or throws: a game of no Ludii move).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LudiiValues {
    pub duration_moves: f64,
    pub duration_turns: f64,
    pub duration_turns_not_timeouts: Option<f64>,
    pub decision_moves: Option<f64>,
    pub game_tree_complexity: Option<f64>,
    pub lead_change: Option<f64>,
    pub stability: f64,
    pub drama_average: f64,
    pub drama_max: f64,
    pub decisiveness_threshold: f64,
    pub decisiveness_moves: Option<f64>,
    pub clarity_variance: Option<f64>,
    pub clarity_narrowness: Option<f64>,
    pub branching_factor_average: f64,
    pub decision_factor_average: f64,
    pub sed_average: f64,
    pub sed_max: f64,
    pub sed_min: f64,
    pub move_evaluation_average: f64,
    pub positional_repetition: f64,
    pub situational_repetition: f64,
    pub board_coverage_default: f64,
    pub board_sites_occupied_average: f64,
    pub advantage_p1: f64,
    pub completion: f64,
    pub drawishness: f64,
    pub timeouts: f64,
    /// Ludii's turns (Duration Turns), for the cell's standard deviation.
    pub turns: u32,
}

impl LudiiValues {
    pub fn of(t: &LudiiTrajectory) -> LudiiValues {
        let n = t.states.len().saturating_sub(1);
        let before = &t.states[..n];
        let nf = n as f64;
        let holes = f64::from(t.holes.max(1));
        let turns = turns(before);
        let legal: Vec<f64> = before.iter().map(|s| f64::from(s.legal)).collect();
        let decisions = before.iter().filter(|s| s.legal > 1).count();
        let choice: Vec<f64> = legal.iter().copied().filter(|&l| l > 1.0).collect();
        let drama: Vec<f64> = before.iter().map(drama).collect();
        let threshold = decisiveness_threshold(before);
        let decisive = first_decisive(before, threshold);
        let clarity: Option<Vec<(f64, bool)>> = before.iter().map(|s| s.clarity).collect();
        let sed = evaluation_differences(&t.states);
        // MoveEvaluation.java: each move valued after it, for its mover.
        let move_eval: Vec<f64> = (0..n)
            .map(|k| t.states[k + 1].e[t.states[k].mover.index()])
            .collect();
        let covered = t.states.iter().fold(0u128, |m, s| m | s.occupied);
        let sites = sites_occupied(&t.states, holes);
        let utility = |p: Player| utility(t.winner, p);
        LudiiValues {
            duration_moves: nf,
            duration_turns: f64::from(turns),
            duration_turns_not_timeouts: (!t.timeout).then_some(f64::from(turns)),
            decision_moves: (n > 0).then(|| decisions as f64 / nf),
            game_tree_complexity: (n > 0).then(|| {
                let b = legal.iter().fold(0.0, |a, &l| a + l / nf);
                nf * b.log10()
            }),
            lead_change: (n > 0).then(|| f64::from(lead_changes(before)) / nf),
            stability: stability(before),
            drama_average: average(&drama),
            drama_max: max0(&drama),
            decisiveness_threshold: threshold,
            // int / int, as the Java divides.
            decisiveness_moves: (n > 0).then(|| (decisive / n) as f64),
            clarity_variance: clarity.as_ref().map(|c| mean_of(c, |&(v, _)| v)),
            clarity_narrowness: clarity
                .as_ref()
                .map(|c| mean_of(c, |&(_, k)| f64::from(u8::from(k)))),
            branching_factor_average: average(&legal),
            decision_factor_average: average(&choice),
            sed_average: average(&sed),
            sed_max: max0(&sed),
            sed_min: min0(&sed),
            move_evaluation_average: average(&move_eval),
            positional_repetition: repetition(&t.states, |s| s.board_key),
            situational_repetition: repetition(&t.states, |s| s.situation_key),
            board_coverage_default: f64::from(covered.count_ones()) / holes,
            board_sites_occupied_average: average(&sites),
            advantage_p1: (utility(Player::South) + 1.0) / 2.0,
            completion: f64::from(u8::from(t.winner.is_some())),
            drawishness: f64::from(u8::from(
                utility(Player::South) == 0.0 && utility(Player::North) == 0.0,
            )),
            timeouts: f64::from(u8::from(t.timeout)),
            turns,
        }
    }
}

/// DecisivenessMoves.java: the first move index before which a winner
/// is above the threshold (N if none).
fn first_decisive(before: &[LudiiState], threshold: f64) -> usize {
    before
        .iter()
        .position(|s| WINNERS.iter().any(|w| s.e[w.index()] > threshold))
        .unwrap_or(before.len())
}

/// StateEvaluationDifference.java: every state, the largest gap between
/// two players' evaluations, from 0.
fn evaluation_differences(states: &[LudiiState]) -> Vec<f64> {
    states
        .iter()
        .map(|s| f64::max(0.0, (s.e[0] - s.e[1]).abs()))
        .collect()
}

/// Every state's share of the `holes` holding a seed.
fn sites_occupied(states: &[LudiiState], holes: f64) -> Vec<f64> {
    states
        .iter()
        .map(|s| f64::from(s.occupied.count_ones()) / holes)
        .collect()
}

/// Trial.numTurns: the first move and every change of mover.
fn turns(before: &[LudiiState]) -> u32 {
    let mut turns = 0u32;
    let mut current: Option<Player> = None;
    for s in before {
        if current != Some(s.mover) {
            current = Some(s.mover);
            turns += 1;
        }
    }
    turns
}

/// LeadChange.java: changes of the set of leaders, which starts empty.
fn lead_changes(before: &[LudiiState]) -> u32 {
    let mut past: u8 = 0;
    let mut changes = 0u32;
    for s in before {
        let hi = highest(&s.e);
        let now = u8::from(s.e[0] == hi) | u8::from(s.e[1] == hi) << 1;
        if now != past {
            changes += 1;
        }
        past = now;
    }
    changes
}

/// Stability.java: per player, the population variance of its
/// evaluations (sums of v/n), summed over players.
fn stability(before: &[LudiiState]) -> f64 {
    let nf = before.len() as f64;
    (0..2)
        .map(|p| {
            let avg = before.iter().fold(0.0, |a, s| a + s.e[p] / nf);
            before
                .iter()
                .fold(0.0, |a, s| a + (s.e[p] - avg).powi(2) / nf)
        })
        .sum()
}

/// Drama.java at one state, with every player a winner ([`WINNERS`]).
fn drama(s: &LudiiState) -> f64 {
    let hi = highest(&s.e);
    WINNERS
        .iter()
        .fold(0.0, |a, w| a + (hi - s.e[w.index()]) / WINNERS.len() as f64)
}

/// DecisivenessThreshold.java: the highest evaluation of a player not
/// among the winners, from -1.
fn decisiveness_threshold(before: &[LudiiState]) -> f64 {
    before.iter().fold(-1.0, |a: f64, s| {
        [Player::South, Player::North]
            .iter()
            .filter(|p| !WINNERS.contains(p))
            .fold(a, |a, p| {
                if s.e[p.index()] > a {
                    s.e[p.index()]
                } else {
                    a
                }
            })
    })
}

/// Stats' mean of one value taken from each item (ClarityVariance.java,
/// ClarityNarrowness.java average their per-state values this way).
fn mean_of<T>(items: &[T], value: impl Fn(&T) -> f64) -> f64 {
    stats(&items.iter().map(value).collect::<Vec<_>>()).mean
}

/// PositionalRepetition.java / SituationalRepetition.java:
/// `1.0 - (numUniqueStates / numTotalStates)`, int / int.
fn repetition(states: &[LudiiState], key: fn(&LudiiState) -> u64) -> f64 {
    let unique = states.iter().map(key).collect::<HashSet<u64>>().len();
    1.0 - (unique / states.len()) as f64
}

/// A player's utility: +1 won, -1 lost, 0 undecided.
fn utility(winner: Option<Player>, p: Player) -> f64 {
    match winner {
        Some(w) if w == p => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// Ludii's Balance of a cell (single/outcome/Balance.java): each player's
/// wins in an `int[]`, `(u + 1) / 2` narrowed, so a draw adds 0, not ½;
/// 1 − |w₁ − w₂| / n.
pub fn balance(w1: u64, w2: u64, games: u64) -> Option<f64> {
    (games > 0).then(|| 1.0 - (w1 as f64 / games as f64 - w2 as f64 / games as f64).abs())
}

/// Ludii's OutcomeUniformity of a cell (single/outcome/OutcomeUniformity.java):
/// 1 minus the mean over players of `Stats.varn`, the sample variance of
/// their utilities: 1 − n/(n−1) · ((w₁+w₂)/n − ((w₁−w₂)/n)²), 1 for one game.
pub fn outcome_uniformity(w1: u64, w2: u64, games: u64) -> Option<f64> {
    match games {
        0 => None,
        1 => Some(1.0),
        n => {
            let nf = n as f64;
            let (a, b) = (w1 as f64 / nf, w2 as f64 / nf);
            Some(1.0 - nf / (nf - 1.0) * ((a + b) - (a - b) * (a - b)))
        }
    }
}

/// Ludii's Duration Turns Std Dev of a cell
/// (single/duration/DurationTurnsStdDev.java): the population standard
/// deviation of the games' turns, from Σ T and Σ T².
pub fn turns_std_dev(games: u64, sum: u128, sum_sq: u128) -> Option<f64> {
    (games > 0).then(|| {
        let n = games as f64;
        let m = sum as f64 / n;
        (sum_sq as f64 / n - m * m).max(0.0).sqrt()
    })
}

#[cfg(test)]
#[path = "ludii_tests.rs"]
mod ludii_tests;
