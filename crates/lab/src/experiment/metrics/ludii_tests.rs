//! Tests that would catch a wrong `ludii_*` metric (issue 31, item 5): the
//! states Ludii's game has, rebuilt from the engine's lap-by-lap account
//! of each move without [`LapStates`], and one short game worked by hand.

use std::collections::HashSet;

use super::*;
use crate::agents::AgentSpec;
use crate::engine::trace::TraceWriter;
use crate::engine::{MoveEnd, MoveReport};
use crate::experiment::metrics::Recorder;
use crate::rules::{parse_variant, preset, preset_names};

/// What ended one Ludii move, as the engine's observer tells it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum EndKind {
    /// A lap whose last seed fell in this hole.
    Lap(usize),
    /// A lone seed's step.
    Step,
}

/// One Ludii move: the board after it, what ended it, and the hole the
/// next Ludii move of the same katro move lifts and why (none if it is
/// the last).
#[derive(Clone, Debug)]
struct LudiiMove {
    board: Vec<u16>,
    kind: EndKind,
    next: Option<(usize, LapKind)>,
}

/// The engine's observer of one katro move, writing down the board after
/// each lap and each step as `katro replay --trace` tells them: the board
/// the engine reports just after the last seed fell (or the seed stepped),
/// then, if that landing captures, the victims' seeds moved into the
/// landing hole (ludii.rs's module doc: Ludii's board after a capture lap).
/// It reads the victims from the `capture` callback, not from the board
/// the engine shows after lifting them, which is what [`LapStates`] reads.
struct BoardsAfterLaps {
    holes: usize,
    moves: Vec<LudiiMove>,
    /// The next `board` callback is the board after a landing or a step.
    awaiting: Option<EndKind>,
}

impl BoardsAfterLaps {
    fn new(rules: &Rules) -> BoardsAfterLaps {
        BoardsAfterLaps {
            holes: rules.hole_count(),
            moves: Vec::new(),
            awaiting: None,
        }
    }
}

impl Observer for BoardsAfterLaps {
    fn lap(&mut self, kind: LapKind, lifted_from: usize, seeds: u64) {
        if let Some(m) = self.moves.last_mut() {
            assert_eq!(m.next, None, "two laps after one Ludii move");
            // The seeds lifted for the next lap are the ones the board
            // after this Ludii move holds there: nothing happens between.
            assert_eq!(u64::from(m.board[lifted_from]), seeds, "{kind:?}");
            if kind == LapKind::Relay {
                assert_eq!(m.kind, EndKind::Lap(lifted_from));
            }
            m.next = Some((lifted_from, kind));
        } else {
            assert_eq!(kind, LapKind::Start);
        }
    }
    fn landed(&mut self, hole: usize, _was_empty: bool) {
        self.awaiting = Some(EndKind::Lap(hole));
    }
    fn step(&mut self, _from: usize, _to: usize) {
        self.awaiting = Some(EndKind::Step);
    }
    fn capture(&mut self, landing: usize, landing_seeds: u64, victims: &[(usize, u16)]) {
        let m = self.moves.last_mut().expect("a capture follows a landing");
        assert_eq!(u64::from(m.board[landing]), landing_seeds);
        for &(h, s) in victims {
            assert_eq!(m.board[h], s, "victim {h}");
            m.board[h] = 0;
            m.board[landing] += s;
        }
    }
    fn board(&mut self, holes: &[u16; MAX_HOLES]) {
        if let Some(kind) = self.awaiting.take() {
            self.moves.push(LudiiMove {
                board: holes[..self.holes].to_vec(),
                kind,
                next: None,
            });
        }
    }
}

/// Both observers, told the same move.
struct Both<'a, 'r>(&'a mut BoardsAfterLaps, &'a mut TraceWriter<'r>);

impl Observer for Both<'_, '_> {
    fn lap(&mut self, kind: LapKind, lifted_from: usize, seeds: u64) {
        self.0.lap(kind, lifted_from, seeds);
        self.1.lap(kind, lifted_from, seeds);
    }
    fn landed(&mut self, hole: usize, was_empty: bool) {
        self.0.landed(hole, was_empty);
        self.1.landed(hole, was_empty);
    }
    fn capture(&mut self, landing: usize, landing_seeds: u64, victims: &[(usize, u16)]) {
        self.0.capture(landing, landing_seeds, victims);
        self.1.capture(landing, landing_seeds, victims);
    }
    fn step(&mut self, from: usize, to: usize) {
        self.0.step(from, to);
        self.1.step(from, to);
    }
    fn board(&mut self, holes: &[u16; MAX_HOLES]) {
        self.0.board(holes);
        self.1.board(holes);
    }
    fn end(&mut self, end: MoveEnd) {
        self.0.end(end);
        self.1.end(end);
    }
}

/// South's seeds less North's.
fn south_less_north(rules: &Rules, board: &[u16]) -> i64 {
    board
        .iter()
        .enumerate()
        .map(|(h, &s)| match rules.owner(h) {
            Player::South => i64::from(s),
            Player::North => -i64::from(s),
        })
        .sum()
}

/// Ludii's evaluation of a state (ludii.rs's module doc): tanh of the seed
/// difference, or the utilities once the game is over.
fn value(rules: &Rules, board: &[u16], status: Status) -> [f64; 2] {
    match status {
        Status::Won(Player::South) => [1.0, -1.0],
        Status::Won(Player::North) => [-1.0, 1.0],
        Status::Ongoing => {
            let d = south_less_north(rules, board) as f64;
            [d.tanh(), (-d).tanh()]
        }
        _ => [0.0, 0.0],
    }
}

/// The state as [`LudiiState`] keeps it: the board's and the situation's
/// hashes as its field docs define them (`State.stateHash`: the board;
/// `State.fullHash`: the board, the mover, the Ludii moves they made this
/// turn, the hole a forced lap sows from), no Clarity.
fn state(
    board: &[u16],
    e: [f64; 2],
    mover: Player,
    in_turn: u32,
    next: Option<usize>,
    legal: u32,
) -> LudiiState {
    let board_key = board
        .iter()
        .fold(0, |k, &s| crate::engine::chain_hash(k, u64::from(s)));
    let next = next.map_or(u64::MAX, |h| h as u64);
    let situation_key = [mover.index() as u64, u64::from(in_turn), next]
        .iter()
        .fold(board_key, |k, &x| crate::engine::chain_hash(k, x));
    let occupied = (0..board.len())
        .filter(|&h| board[h] > 0)
        .fold(0u128, |m, h| m | 1 << h);
    LudiiState {
        e,
        board_key,
        situation_key,
        occupied,
        legal,
        mover,
        clarity: None,
    }
}

/// What the replay of one game saw, to show the test is not vacuous.
#[derive(Default, Debug)]
struct Seen {
    relays: u64,
    captures: u64,
    steps: u64,
    paused: u64,
    emptied: u64,
    endless: u64,
    lap_limit: u64,
}

impl Seen {
    fn add(&mut self, r: &MoveReport, mv: Move) {
        self.relays += r.relays;
        self.captures += u64::from(r.captures);
        self.steps += u64::from(mv.is_step());
        self.paused += u64::from(r.end == MoveEnd::Continues);
        self.emptied += u64::from(r.end == MoveEnd::OpponentEmpty);
        self.endless += u64::from(r.end == MoveEnd::Endless);
        self.lap_limit += u64::from(r.end == MoveEnd::LapLimit);
    }
}

/// The Ludii states of the game `moves`, played from the start, from the
/// engine's observer alone ([`BoardsAfterLaps`]): s₀, then for each katro
/// move the board after each of its Ludii moves but the last (a forced
/// lap comes next) and the position after it. An endless move keeps its
/// laps up to its first repeated state (RULES.md §8: the board after a
/// lap's last seed and the hole it fell in), found here by looking.
fn replayed_states(what: &str, rules: &Rules, moves: &[Move], seen: &mut Seen) -> Vec<LudiiState> {
    let n = rules.hole_count();
    let mut pos = rules.start();
    let mut out = vec![position_state(rules, &pos, 0)];
    let mut in_turn = 0u32;
    for &mv in moves {
        let mover = pos.to_move();
        let mut boards = BoardsAfterLaps::new(rules);
        let r = play_told(rules, &mut pos, mv, &mut boards);
        let kept = kept_laps(what, &boards, &r, mv);
        let laps = &boards.moves[..kept];
        assert_eq!(laps[kept - 1].board, pos.holes()[..n], "{what}: {r:?}");
        for m in &laps[..kept - 1] {
            in_turn += 1;
            let e = value(rules, &m.board, Status::Ongoing);
            out.push(state(&m.board, e, mover, in_turn, m.next.map(|n| n.0), 1));
        }
        in_turn = if pos.to_move() == mover {
            in_turn + 1
        } else {
            0
        };
        out.push(position_state(rules, &pos, in_turn));
        seen.add(&r, mv);
    }
    out
}

/// The Ludii state of `pos`, `in_turn` Ludii moves into its mover's turn.
fn position_state(rules: &Rules, pos: &Position, in_turn: u32) -> LudiiState {
    let here = &pos.holes()[..rules.hole_count()];
    state(
        here,
        value(rules, here, rules.status(pos)),
        pos.to_move(),
        in_turn,
        pos.pending(),
        rules.legal_moves(pos).len() as u32,
    )
}

/// Plays `mv` at `pos` with `boards` watching, and checks that `katro
/// replay --trace` tells each Ludii move as one sentence.
fn play_told(
    rules: &Rules,
    pos: &mut Position,
    mv: Move,
    boards: &mut BoardsAfterLaps,
) -> MoveReport {
    let mut trace = TraceWriter::new(rules);
    let r = rules.play_unchecked(pos, mv, &mut Both(boards, &mut trace));
    let told = trace
        .events
        .iter()
        .filter(|e| e.starts_with("last seed in") || e.starts_with("lone seed steps"))
        .count();
    assert_eq!(told, boards.moves.len(), "{:?}", trace.events);
    r
}

/// How many of the move's Ludii moves are states: all, or for an endless
/// move those up to its first repeated state.
fn kept_laps(what: &str, boards: &BoardsAfterLaps, r: &MoveReport, mv: Move) -> usize {
    // RULES.md §8's states are those after a relay lap: a capture lap's
    // board, victims joined, may recur as a later relay lap's, but the
    // engine's state after it is the board before the capture, which
    // cannot (the opponent's side has lost seeds since).
    let mut met = HashSet::new();
    let repeat = boards.moves.iter().position(|m| match (m.kind, m.next) {
        (EndKind::Lap(_), Some((_, LapKind::Capture))) | (EndKind::Step, _) => false,
        (EndKind::Lap(h), _) => !met.insert((m.board.clone(), h)),
    });
    let kept = repeat.map_or(boards.moves.len(), |i| i + 1);
    assert_eq!(repeat.is_some(), r.end == MoveEnd::Endless, "{what}: {r:?}");
    // The report counts the same Ludii moves, and the move leaves the
    // board of its last one.
    assert_eq!(
        kept as u64,
        r.laps + u64::from(mv.is_step()),
        "{what}: {r:?}"
    );
    kept
}

/// A random game as the metrics record it (`Recorder` through the engine's
/// game loop), and its moves.
fn recorded(rules: &Rules, seed: u64) -> (LudiiTrajectory, Vec<Move>, Status) {
    let mut rec = Recorder::new(false);
    let mut moves = Vec::new();
    let tables = crate::agents::perfect::Tables::new();
    let r = AgentSpec::Random;
    let seats = [r.start_game(&tables), r.start_game(&tables)];
    let g = crate::game::play_game_observed(rules, seats, 0, seed, Some(&mut moves), &mut rec);
    let t = rec
        .into_trajectory()
        .ludii
        .expect("Ludii's states recorded");
    (t, moves, g.status)
}

/// Laps a move may sow in this test: low enough that a relay cycle's
/// states fit in memory, high enough that endless moves are found within
/// it and others reach it.
const LAP_LIMIT: u64 = 3_000;

/// The per-lap sequence of states in a `LudiiTrajectory` is the one the
/// engine's own lap-by-lap account gives, on every preset, over 200
/// random games each: boards (victims joined to the landing after a
/// capture lap), evaluations, movers, legal-move counts, situations.
#[test]
fn ludii_states_are_the_engines_boards_after_every_lap() {
    let mut seen = Seen::default();
    for name in preset_names() {
        let rules = preset(name)
            .unwrap()
            .with_limits(None, Some(LAP_LIMIT))
            .unwrap();
        for seed in 0..200 {
            let (t, moves, status) = recorded(&rules, seed);
            let want = replayed_states(&format!("{name} seed {seed}"), &rules, &moves, &mut seen);
            assert_eq!(t.states.len(), want.len(), "{name} seed {seed}");
            for (i, (got, want)) in t.states.iter().zip(&want).enumerate() {
                assert_eq!(got, want, "{name} seed {seed}, state {i}");
            }
            assert_eq!(t.winner, status.winner(), "{name} seed {seed}");
            assert_eq!(t.timeout, !matches!(status, Status::Won(_)));
            assert_eq!(t.holes as usize, rules.hole_count());
        }
    }
    // Every way a Ludii move ends, and an endless move cut at its first
    // repeat, came up.
    for (what, k) in [
        ("relays", seen.relays),
        ("captures", seen.captures),
        ("steps", seen.steps),
        ("paused turns", seen.paused),
        ("emptying captures", seen.emptied),
        ("endless moves", seen.endless),
        ("lap-limit moves", seen.lap_limit),
    ] {
        assert!(k > 0, "no {what}: {seen:?}");
    }
}

/// katro-ludii's settings on a 4×3 board of one seed a hole: the short
/// game below has every kind of Ludii move.
const SMALL_LUDII: &str = r#"
name = "katro-ludii-4x3"
[board]
rows = 4
holes = 3
seeds = 1
[rules]
direction = "each-move"
backward_circuit = "mirrored"
capture_trigger = "occupied"
capturing_row = "inner"
victim = "column"
lone_seed = "straight"
lone_seed_step = "no-failed-capture"
step_sowing = "chosen"
game_end = "opponent-empty"
"#;

/// `moves` played from the start through the metrics' `Recorder` (with
/// Clarity), as the engine's game loop tells it, to the end of the game.
fn record_moves(rules: &Rules, moves: &[&str]) -> LudiiTrajectory {
    use crate::game::{DynLaps, GameObserver};
    let mut rec = Recorder::new(true);
    let mut pos = rules.start();
    for text in moves {
        let mv = crate::engine::notation::parse_move(rules, text).unwrap();
        let legal = rules.legal_moves(&pos);
        assert!(legal.contains(&mv), "{text} is not legal");
        rec.before_move(rules, &pos, &legal);
        let laps = rec.laps().expect("Ludii's states are recorded");
        let r = rules.play_unchecked(&mut pos, mv, &mut DynLaps(laps));
        rec.after_move(rules, mv, &pos, &r);
    }
    assert!(rules.legal_moves(&pos).is_empty(), "the game is over");
    rec.finish(rules, &pos).ludii.unwrap()
}

/// One katro-ludii game on 4×3, worked by hand: its Ludii states, and
/// every `LudiiValues` field from them as Ludii's code computes it.
///
/// Holes by index, row 1 first: a1 b1 c1 | a2 b2 c2 | a3 b3 c3 | a4 b4 c4.
/// South owns rows 1 (outer) and 2 (inner), North rows 4 (outer) and 3
/// (inner). Circuits (RULES.md §2; with two rows a side, `mirrored` is
/// the reverse): South forward a1 b1 c1 c2 b2 a2, backward a1 a2 b2 c2 c1
/// b1; North forward c4 b4 a4 a3 b3 c3, backward c4 c3 b3 a3 a4 b4. A state
/// is written as its board, d = South's seeds − North's, its mover and its
/// legal Ludii moves. e_S = tanh d, e_N = −tanh d (Ludii's heuristic);
/// t2 = tanh 2 and so on.
///
/// s0  start 1 1 1|1 1 1|1 1 1|1 1 1, d 0, S, legal a1± b1± c1± = 6.
/// Move 1, South b1-:
///  lap 1: 1 from b1 to a1 (now 2, occupied, outer row): relay.
/// s1  2 0 1|1 1 1|1 1 1|1 1 1, d 0, S, 1.
///  lap 2: 2 from a1 to a2, b2; b2 (now 2) is inner, b3 holds 1: capture,
///  b2 holds 2 + 1.
/// s2  0 0 1|2 3 1|1 0 1|1 1 1, d 7−5 = 2, S, 1.
///  lap 3: 3 from b2 to c2, c1, b1; b1 was empty: the move ends.
/// s3  0 1 2|2 0 2|1 0 1|1 1 1, d 2, N, legal a4± b4± c4± = 6.
/// Move 2, North b4+:
///  lap 1: 1 from b4 to a4 (now 2, outer): relay.
/// s4  0 1 2|2 0 2|1 0 1|2 0 1, d 2, N, 1.
///  lap 2: 2 from a4 to a3, b3; b3 was empty (no capture: the trigger
///  is an occupied landing): the move ends.
/// s5  0 1 2|2 0 2|2 1 1|0 0 1, d 2, S, legal b1± c1± = 4.
/// Move 3, South b1+:
///  lap 1: 1 from b1 to c1 (now 3): relay.
/// s6  0 0 3|2 0 2|2 1 1|0 0 1, d 2, S, 1.
///  lap 2: 3 from c1 to c2, b2, a2; a2 (now 3) inner, a3 holds 2:
///  capture, a2 holds 5.
/// s7  0 0 0|5 1 3|0 1 1|0 0 1, d 9−3 = 6, S, 1.
///  lap 3: 5 from a2 to a1, b1, c1, c2, b2; b2 (now 2) inner, b3 holds 1:
///  capture, b2 holds 3.
/// s8  1 1 1|0 3 4|0 0 1|0 0 1, d 10−2 = 8, S, 1.
///  lap 4: 3 from b2 to a2, a1, b1; b1 (now 2) outer: relay.
/// s9  2 2 1|1 0 4|0 0 1|0 0 1, d 8, S, 1.
///  lap 5: 2 from b1 to c1, c2; c2 (now 5) inner, c3 holds 1: capture
///  (North keeps c4), c2 holds 6.
/// s10 2 0 2|1 0 6|0 0 0|0 0 1, d 11−1 = 10, S, 1.
///  lap 6: 6 seeds round the 6-hole circuit, b2 a2 a1 b1 c1 c2; the
///  last falls in c2, empty since it was lifted (RULES.md §12.2): ends.
/// s11 3 1 3|2 1 1|0 0 0|0 0 1, d 10, N, legal c4+ c4- c4>c3 = 3 (North's
///  lone seed may step into c3: it captures c2).
/// Move 4, North c4>c3: the seed steps to c3 and takes c2's 1; the turn
///  pauses (`step_sowing = "chosen"`), c3 holding 2.
/// s12 3 1 3|2 1 0|0 0 2|0 0 0, d 10−2 = 8, N, legal c3+ c3- = 2.
/// Move 5, North c3-: 2 from c3 to b3, a3; a3 was empty: the turn ends.
/// s13 3 1 3|2 1 0|1 1 0|0 0 0, d 8, S, legal a1± b1± c1± = 6.
/// Move 6, South c1-:
///  lap 1: 3 from c1 to b1, a1, a2; a2 (now 3) inner, a3 holds 1:
///  capture (North keeps b3), a2 holds 4.
/// s14 4 2 0|4 1 0|0 1 0|0 0 0, d 11−1 = 10, S, 1.
///  lap 2: 4 from a2 to b2, c2, c1, b1; b1 (now 3) outer: relay.
/// s15 4 3 1|0 2 1|0 1 0|0 0 0, d 10, S, 1.
///  lap 3: 3 from b1 to a1, a2, b2; b2 (now 3) inner, b3 holds North's
///  last seed: capture, and the game ends (`opponent-empty`), b2 holding 4.
/// s16 5 0 1|1 4 1|0 0 0|0 0 0, South has won: e = (1, −1), no legal move.
///
/// N = 16 Ludii moves; the states before them, s0 … s15, have d = 0 0 2 2
/// 2 2 2 6 8 8 10 10 8 8 10 10 (0 twice, 2 five times, 6 once, 8 and 10
/// four times each) and movers S S S N N S S S S S S N N S S S.
fn worked_game() -> (Rules, LudiiTrajectory) {
    let rules = parse_variant("katro-ludii-4x3.toml", SMALL_LUDII, "katro-ludii-4x3").unwrap();
    let t = record_moves(&rules, &["b1-", "b4+", "b1+", "c4>c3", "c3-", "c1-"]);
    (rules, t)
}

/// The worked game's states s0 … s15 as above: board, d, mover, legal.
#[rustfmt::skip]
const HAND: [([u16; 12], i64, Player, u32); 16] = {
    use Player::{North as N, South as S};
    [
        ([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 0, S, 6),
        ([2, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 0, S, 1),
        ([0, 0, 1, 2, 3, 1, 1, 0, 1, 1, 1, 1], 2, S, 1),
        ([0, 1, 2, 2, 0, 2, 1, 0, 1, 1, 1, 1], 2, N, 6),
        ([0, 1, 2, 2, 0, 2, 1, 0, 1, 2, 0, 1], 2, N, 1),
        ([0, 1, 2, 2, 0, 2, 2, 1, 1, 0, 0, 1], 2, S, 4),
        ([0, 0, 3, 2, 0, 2, 2, 1, 1, 0, 0, 1], 2, S, 1),
        ([0, 0, 0, 5, 1, 3, 0, 1, 1, 0, 0, 1], 6, S, 1),
        ([1, 1, 1, 0, 3, 4, 0, 0, 1, 0, 0, 1], 8, S, 1),
        ([2, 2, 1, 1, 0, 4, 0, 0, 1, 0, 0, 1], 8, S, 1),
        ([2, 0, 2, 1, 0, 6, 0, 0, 0, 0, 0, 1], 10, S, 1),
        ([3, 1, 3, 2, 1, 1, 0, 0, 0, 0, 0, 1], 10, N, 3),
        ([3, 1, 3, 2, 1, 0, 0, 0, 2, 0, 0, 0], 8, N, 2),
        ([3, 1, 3, 2, 1, 0, 1, 1, 0, 0, 0, 0], 8, S, 6),
        ([4, 2, 0, 4, 1, 0, 0, 1, 0, 0, 0, 0], 10, S, 1),
        ([4, 3, 1, 0, 2, 1, 0, 1, 0, 0, 0, 0], 10, S, 1),
    ]
};

/// The `LudiiValues` of the worked game, and tanh of the leads it sees:
/// t2, t6, t8, t10.
fn worked_values() -> (LudiiValues, [f64; 4]) {
    let v = LudiiValues::of(&worked_game().1);
    (v, [2f64, 6.0, 8.0, 10.0].map(f64::tanh))
}

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() < 1e-12,
        "{what}: {got} against {want} by hand"
    );
}

#[test]
fn a_short_katro_ludii_game_worked_by_hand_has_the_hand_states() {
    let (rules, t) = worked_game();
    let last = [5, 0, 1, 1, 4, 1, 0, 0, 0, 0, 0, 0];
    assert_eq!(t.states.len(), 17);
    let sides = Sides::of(&rules);
    let mut b = [0u16; MAX_HOLES];
    for (i, (s, &(board, d, mover, legal))) in t.states.iter().zip(&HAND).enumerate() {
        b[..12].copy_from_slice(&board);
        assert_eq!(s.board_key, sides.board_key(&b), "s{i}");
        let d = d as f64;
        assert_eq!(s.e, [d.tanh(), (-d).tanh()], "s{i}");
        assert_eq!((s.mover, s.legal), (mover, legal), "s{i}");
    }
    b[..12].copy_from_slice(&last);
    assert_eq!(t.states[16].board_key, sides.board_key(&b));
    assert_eq!((t.states[16].e, t.states[16].legal), ([1.0, -1.0], 0));
    assert_eq!((t.winner, t.timeout), (Some(Player::South), false));
}

#[test]
fn a_short_katro_ludii_game_worked_by_hand_durations_and_choices() {
    let (v, _) = worked_values();
    // Duration: 16 Ludii moves; the mover changes S→N→S→N→S: 5 turns.
    close("duration_moves", v.duration_moves, 16.0);
    close("duration_turns", v.duration_turns, 5.0);
    assert_eq!(v.turns, 5);
    close(
        "duration_turns_not_timeouts",
        v.duration_turns_not_timeouts.unwrap(),
        5.0,
    );
    // Decision moves: more than one legal move at s0 s3 s5 s11 s12 s13:
    // 6 / 16.
    close("decision_moves", v.decision_moves.unwrap(), 6.0 / 16.0);
    // Legal moves 6 1 1 6 1 4 1 1 1 1 1 3 2 6 1 1 sum to 37: branching
    // factor 37/16 = 2.3125; those above one, 6 6 4 3 2 6, average 27/6;
    // game-tree complexity 16 · log10(2.3125).
    close(
        "branching_factor_average",
        v.branching_factor_average,
        37.0 / 16.0,
    );
    close("decision_factor_average", v.decision_factor_average, 4.5);
    close(
        "game_tree_complexity",
        v.game_tree_complexity.unwrap(),
        16.0 * (37.0f64 / 16.0).log10(),
    );
}

#[test]
fn a_short_katro_ludii_game_worked_by_hand_leads_and_evaluations() {
    let (v, [t2, t6, t8, t10]) = worked_values();
    // Lead change: the leaders start as {}; s0 and s1 tie at 0, {S, N}
    // (a change); from s2 on South leads, {S} (a change): 2 / 16.
    close("lead_change", v.lead_change.unwrap(), 2.0 / 16.0);
    // Stability: South's mean evaluation μ = (5 t2 + t6 + 4 t8 + 4 t10) / 16
    // over s0 … s15, its population variance over those 16 values, and
    // North's the same (its values are South's negated): twice it.
    let mu = (5.0 * t2 + t6 + 4.0 * t8 + 4.0 * t10) / 16.0;
    let var = (2.0 * mu * mu
        + 5.0 * (t2 - mu).powi(2)
        + (t6 - mu).powi(2)
        + 4.0 * (t8 - mu).powi(2)
        + 4.0 * (t10 - mu).powi(2))
        / 16.0;
    close("stability", v.stability, 2.0 * var);
    // Drama, both players "winners": per state ((h − e_S) + (h − e_N)) / 2
    // with h = max(−1, e_S, e_N) = tanh d (d ≥ 0 throughout): tanh d. Its
    // average is μ, its maximum t10.
    close("drama_average", v.drama_average, mu);
    close("drama_max", v.drama_max, t10);
    // Decisiveness: no player is outside the winners, so the threshold
    // stays −1; a winner is above it at s0 already (0 > −1): 0 / 16.
    close("decisiveness_threshold", v.decisiveness_threshold, -1.0);
    close("decisiveness_moves", v.decisiveness_moves.unwrap(), 0.0);
}

#[test]
fn a_short_katro_ludii_game_worked_by_hand_differences_and_repetition() {
    let (v, [t2, t6, t8, t10]) = worked_values();
    // State evaluation difference over all 17 states: |e_S − e_N| =
    // 2 tanh d for s0 … s15, and 2 at s16: average
    // (2 (5 t2 + t6 + 4 t8 + 4 t10) + 2) / 17, max 2, min 0 (s0, and the
    // fold starts at 0).
    close(
        "sed_average",
        v.sed_average,
        (2.0 * (5.0 * t2 + t6 + 4.0 * t8 + 4.0 * t10) + 2.0) / 17.0,
    );
    close("sed_max", v.sed_max, 2.0);
    close("sed_min", v.sed_min, 0.0);
    // Move evaluation: each Ludii move valued for its mover at the state
    // after it: s1..s16 for movers S S S N N S S S S S S N N S S S:
    // 0, t2, t2, −t2, −t2, t2, t6, t8, t8, t10, t10, −t8, −t8, t10, t10, 1;
    // sum t2 + t6 + 4 t10 + 1, over 16.
    close(
        "move_evaluation_average",
        v.move_evaluation_average,
        (t2 + t6 + 4.0 * t10 + 1.0) / 16.0,
    );
    // Repetition: the 17 boards above are all different (so are the
    // situations, which add to the board): 1 − (17 / 17, integer) = 0.
    close("positional_repetition", v.positional_repetition, 0.0);
    close("situational_repetition", v.situational_repetition, 0.0);
}

#[test]
fn a_short_katro_ludii_game_worked_by_hand_board_and_outcome() {
    let (v, _) = worked_values();
    // Board coverage: every hole holds a seed at the start: 12 / 12.
    close("board_coverage_default", v.board_coverage_default, 1.0);
    // Sites occupied, s0 … s16: 12 11 9 9 8 8 7 6 7 7 5 7 6 7 5 6 5,
    // summing to 125, each over 12 holes, averaged over 17 states.
    close(
        "board_sites_occupied_average",
        v.board_sites_occupied_average,
        125.0 / (12.0 * 17.0),
    );
    // Outcome: South won, within the limits.
    close("advantage_p1", v.advantage_p1, 1.0);
    close("completion", v.completion, 1.0);
    close("drawishness", v.drawishness, 0.0);
    close("timeouts", v.timeouts, 0.0);
}

#[test]
fn a_short_katro_ludii_game_worked_by_hand_clarity() {
    let (v, [t2, _, t8, t10]) = worked_values();
    // Clarity: a mid-turn state has one legal move, the forced lap:
    // variance 0, narrow (Stats' maximum of one value stays −∞); there are
    // 10 (s1 s2 s4 s6-s10 s14 s15). At a decision, the mover's value after
    // the first Ludii move of each legal move, in legal order:
    // - s0, South: a1+ relays at b1 (d 0): 0; a1- lands on a2, captures
    //   a3: t2; b1+ relays at c1: 0; b1- relays at a1: 0; c1+ lands on
    //   c2, captures c3: t2; c1- relays at b1: 0. Mean t2/3, squared
    //   deviations 4 (t2/3)² + 2 (2 t2/3)² = 4 t2²/3, variance 4 t2²/15.
    // - s3, North (value tanh(N − S), N 5, S 7): a4+ lands on a3,
    //   captures a2's 2: t2; a4- relays at b4: −t2; b4+ at a4: −t2; b4-
    //   at c4: −t2; c4+ at b4: −t2; c4- lands on c3, captures c2's 2: t2.
    //   Mean −t2/3, deviations 4 t2/3 (×2) and −2 t2/3 (×4): 16 t2²/3,
    //   variance 16 t2²/15.
    // - s5, South: b1+ relays at c1 (d 2); b1-, c1+, c1- each end their
    //   move on an empty hole at d 2: t2 four times, variance 0.
    // - s11, North: c4+ and c4- end on an empty hole, d 10: −t10 twice;
    //   c4>c3 captures and pauses, d 8: −t8. Mean −(2 t10 + t8)/3,
    //   deviations (t8 − t10)/3 (×2) and 2 (t10 − t8)/3: 2 (t10 − t8)²/3,
    //   variance (t10 − t8)²/3.
    // - s12, North: c3+ ends at b4, c3- at a3, both at d 8: variance 0.
    // - s13, South: a1+ and a1- end on c2 at d 8, b1+ and b1- relay at
    //   d 8: t8 four times; c1+ lands on a2 and c1- on a2, each capturing
    //   a3's 1: t10 twice. Mean (2 t8 + t10)/3, deviations (t8 − t10)/3
    //   (×4) and 2 (t10 − t8)/3 (×2): 4 (t10 − t8)²/3, variance
    //   4 (t10 − t8)²/15.
    // None of the six is narrow: each has a second value not below the
    // first, so Stats' maximum is a value and not every one is above
    // mean + 0.75 (max − mean). Variance: the mean over the 16 states,
    // (20 t2²/15 + 9 (t10 − t8)²/15) / 16; narrowness 10 / 16.
    close(
        "clarity_variance",
        v.clarity_variance.unwrap(),
        (20.0 * t2 * t2 / 15.0 + 9.0 * (t10 - t8).powi(2) / 15.0) / 16.0,
    );
    close(
        "clarity_narrowness",
        v.clarity_narrowness.unwrap(),
        10.0 / 16.0,
    );
}

/// Issue 45, item 9: Ludii's ClarityNarrowness decides a state in its own
/// double arithmetic, so moves valued alike can count as narrow. Twelve
/// values 0.17 (the double nearest it), summed one by one as
/// `Stats.measure` does, make 2.0399999999999996, not the double nearest
/// 2.04; over 12 that is 0.16999999999999996, two ulps below 0.17. The
/// threshold `mean + 0.75 (max − mean)` rounds to 0.16999999999999998,
/// one ulp below, so all 12 are above it and Ludii adds 12 / 12 = 1.
/// Twelve equal values are what a katro-ludii decision with six start
/// holes gives when no first lap changes the seed difference.
#[test]
fn clarity_narrowness_rounds_as_ludii_does() {
    let twelve = [0.17; 12];
    let s = stats(&twelve);
    assert_eq!(s.max, 0.17, "Stats' maximum of equal values is the value");
    assert_eq!(s.mean, 0.169_999_999_999_999_96);
    let threshold = s.mean + 0.75 * (s.max - s.mean);
    assert!(threshold < 0.17, "{threshold}");
    assert_eq!(clarity(&twelve), (s.varn, true));
    // Three of them sum to 0.51 and average to 0.17 itself: the threshold
    // is 0.17, no value is above it, and the state adds 0.
    assert!(!clarity(&[0.17; 3]).1);
    // One value, or values strictly decreasing: the maximum stays −∞ and
    // every value is above; any other list has its smallest value at or
    // below the threshold.
    assert!(clarity(&[0.3]).1);
    assert!(clarity(&[0.5, 0.25, -0.5]).1);
    assert!(!clarity(&[0.5, 0.25, 0.5]).1);
    assert!(!clarity(&[0.25, 0.5]).1);
    assert!(!clarity(&[]).1, "no legal move: Ludii adds 0");
}

/// Katro.lud lists every CCW sowing (katro's `+`), then every CW one,
/// then the lone-seed step; katro lists each hole's two together
/// (RULES.md §3). The order decides narrowness through `Stats`' maximum:
/// c1+ 0.5, c1- 0.1, d1+ 0.3, d1- 0 are not decreasing in katro's order,
/// but in Ludii's, 0.5 0.3 0.1 0, they are strictly decreasing, so Ludii
/// counts the state narrow. A lone seed's moves keep their order: b2+,
/// b2-, then the step b2>b3.
#[test]
fn clarity_takes_the_moves_in_katro_luds_order() {
    let rules = preset("katro-ludii").expect("a preset");
    let mv = |text: &str| crate::engine::notation::parse_move(&rules, text).expect("a move");
    let moves = [mv("c1+"), mv("c1-"), mv("d1+"), mv("d1-")];
    let values = [0.5, 0.1, 0.3, 0.0];
    let ludii = in_ludii_order(&moves, &values);
    assert_eq!(ludii, vec![0.5, 0.3, 0.1, 0.0]);
    assert!(clarity(&ludii).1);
    assert!(!clarity(&values).1, "katro's own order is not decreasing");
    let lone = [mv("b2+"), mv("b2-"), mv("b2>b3")];
    assert_eq!(in_ludii_order(&lone, &[0.1, 0.2, 0.3]), vec![0.1, 0.2, 0.3]);
}
