//! Tests that would catch a wrong `ludii_*` metric (issue 31, item 5): the
//! states Ludii's game has, rebuilt from the engine's lap-by-lap account
//! of each move without [`LapStates`], and one short game worked by hand.

use std::collections::HashSet;

use super::*;
use crate::agents::AgentSpec;
use crate::engine::MoveEnd;
use crate::engine::trace::TraceWriter;
use crate::experiment::metrics::Recorder;
use crate::rules::{preset, preset_names};

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

/// The Ludii states of the game `moves`, played from the start, from the
/// engine's observer alone ([`BoardsAfterLaps`]): s₀, then for each katro
/// move the board after each of its Ludii moves but the last (a forced
/// lap comes next) and the position after it. An endless move keeps its
/// laps up to its first repeated state (RULES.md §8: the board after a
/// lap's last seed and the hole it fell in), found here by looking.
fn replayed_states(what: &str, rules: &Rules, moves: &[Move], seen: &mut Seen) -> Vec<LudiiState> {
    let n = rules.hole_count();
    let mut pos = rules.start();
    let legal = |pos: &Position| rules.legal_moves(pos).len() as u32;
    let here = |pos: &Position| pos.holes()[..n].to_vec();
    let mut out = vec![state(
        &here(&pos),
        value(rules, &here(&pos), rules.status(&pos)),
        pos.to_move(),
        0,
        None,
        legal(&pos),
    )];
    let mut in_turn = 0u32;
    for &mv in moves {
        let mover = pos.to_move();
        let mut boards = BoardsAfterLaps::new(rules);
        let mut trace = TraceWriter::new(rules);
        let r = rules.play_unchecked(&mut pos, mv, &mut Both(&mut boards, &mut trace));
        // `katro replay --trace` tells each Ludii move as one sentence.
        let told = trace
            .events
            .iter()
            .filter(|e| e.starts_with("last seed in") || e.starts_with("lone seed steps"))
            .count();
        assert_eq!(told, boards.moves.len(), "{:?}", trace.events);
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
        let laps = &boards.moves[..kept];
        assert_eq!(laps[kept - 1].board, here(&pos), "{what}: {r:?}");
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
        let status = rules.status(&pos);
        out.push(state(
            &here(&pos),
            value(rules, &here(&pos), status),
            pos.to_move(),
            in_turn,
            pos.pending(),
            legal(&pos),
        ));
        seen.relays += r.relays;
        seen.captures += u64::from(r.captures);
        seen.steps += u64::from(mv.is_step());
        seen.paused += u64::from(r.end == MoveEnd::Continues);
        seen.emptied += u64::from(r.end == MoveEnd::OpponentEmpty);
        seen.endless += u64::from(r.end == MoveEnd::Endless);
        seen.lap_limit += u64::from(r.end == MoveEnd::LapLimit);
    }
    out
}

/// A random game as the metrics record it (`Recorder` through the engine's
/// game loop), and its moves.
fn recorded(rules: &Rules, seed: u64) -> (LudiiTrajectory, Vec<Move>, Status) {
    let mut rec = Recorder::new(false);
    let mut moves = Vec::new();
    let r = AgentSpec::Random;
    let g = crate::game::play_game_observed(rules, &r, &r, 0, seed, Some(&mut moves), &mut rec);
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
