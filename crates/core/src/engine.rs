//! Positions and moves for every rule set [`Rules`] can describe. No I/O,
//! no global state, no heap allocation on the move path.
//!
//! A map of the engine:
//!
//! - this file: the public types ([`Position`], [`Move`], [`MoveList`],
//!   [`Status`], [`MoveReport`], [`MoveEnd`], the [`Observer`] a trace
//!   listens with) and the board's symmetry ([`Rules::mirror`]);
//! - `engine/decisions.rs`: every rule decision, in docs/RULES.md's
//!   section order (the start position §1; the legal moves: start rule,
//!   singletons, direction §3; what a landing leads to §4–6; captures §5;
//!   lone-seed steps and their sowing on §7; endless moves §8; game end
//!   and status §9), each citing its section and calling into the
//!   machinery below. Read it beside docs/RULES.md and `crates/reference/src/`,
//!   the same rules written plainly;
//! - `engine/moves.rs`: move generation from bit masks: listing, counting
//!   and drawing the moves the decisions allow, and checking a move;
//! - `engine/sowing.rs`: the lap loop: a lap as prefix sums over the
//!   doubled circuit, lifting the hand for relays and captures, a move's
//!   running totals;
//! - `engine/endless.rs`: fingerprints, Nivasch's cycle search and the
//!   exact replay that tell an endless move from a long one (RULES.md §8).
//! - `engine/lap.rs`: what those three share (a landing, a capture's
//!   victims, a move's totals, the hand being sown), so none of them
//!   imports another in a circle.
//!
//! The engine sits on `crate::rules`, which owns the checked settings, the
//! board's tables and the vocabulary both use ([`Player`], [`Dir`]); the
//! rules module never imports the engine.

use crate::rules::Rules;
pub use crate::rules::{Dir, MAX_HOLES, MAX_SIDE, Player};

mod decisions;
pub use decisions::PositionError;
mod endless;
/// The lane kernel: whole games of the rule sets it supports, faster.
pub(crate) mod kernel;
/// The types `decisions`, `sowing` and `endless` share.
mod lap;
mod moves;
pub mod notation;
/// One game's record, filled by the kernel and by the engine's game loop.
pub mod record;
mod sowing;
pub mod trace;

/// Every own hole in both directions, plus lone-seed steps (at most two).
pub const MAX_MOVES: usize = 2 * MAX_SIDE + 2;
/// Marks a move that sows from its start hole rather than stepping.
pub const NO_HOLE: u8 = u8::MAX;

/// A move: a start hole, with the direction when the player chooses one on
/// this move; or a lone-seed step `from>to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: u8,
    /// The hole a lone seed steps into, or [`NO_HOLE`] for a sowing move.
    pub to: u8,
    /// `Some` exactly when the move's notation carries `+` or `-`.
    pub dir: Option<Dir>,
}

impl Move {
    pub fn sow(from: usize, dir: Option<Dir>) -> Move {
        Move {
            from: from as u8,
            to: NO_HOLE,
            dir,
        }
    }
    pub fn step(from: usize, to: usize) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            dir: None,
        }
    }
    pub fn is_step(self) -> bool {
        self.to != NO_HOLE
    }
    /// The move packed into an integer, as a game's identity hash takes
    /// it (`game::game_hash_step`): origin hole in bits 0-7, target hole
    /// in bits 8-15, direction in bits 16-17 (0 none, 1 forward, 2
    /// backward).
    pub fn code(self) -> u64 {
        let dir = match self.dir {
            None => 0,
            Some(Dir::Forward) => 1,
            Some(Dir::Backward) => 2,
        };
        self.from as u64 | (self.to as u64) << 8 | dir << 16
    }
}

/// One step of a game's identity hash: the hash so far chained with the
/// next move's [`Move::code`] through the SplitMix64 finaliser. The one
/// definition behind `game::game_hash_step` and the lane kernel's hash.
pub fn chain_hash(h: u64, code: u64) -> u64 {
    crate::rng::mix64(h ^ code)
}

/// Legal moves in a fixed-size buffer: generating them never allocates.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::sow(0, None); MAX_MOVES],
            len: 0,
        }
    }
    fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// How a game ended other than by a player running out of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ended {
    /// An endless move under `endless_move = "undecided"`.
    EndlessMove,
    /// A move hit the lap limit before it ended or repeated.
    LapLimit,
    /// An endless move under `endless_move = "mover-loses"`: the winner.
    EndlessMoveLost(Player),
}

/// The state of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Won(Player),
    PlyLimit,
    EndlessMove,
    LapLimit,
}

impl Status {
    /// The name used in JSON and CSV output.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Won(_) => "won",
            Status::PlyLimit => "ply-limit",
            Status::EndlessMove => "endless-move",
            Status::LapLimit => "lap-limit",
        }
    }
    pub fn winner(self) -> Option<Player> {
        match self {
            Status::Won(p) => Some(p),
            _ => None,
        }
    }
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }
}

/// A game position: the board, whose turn it is, directions fixed so far,
/// plies played, and whether a move ended the game early. Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    holes: [u16; MAX_HOLES],
    /// Bit `h` set when hole `h` holds seeds: row emptiness in one AND.
    occ: u128,
    to_move: Player,
    /// Directions fixed by `direction = "once-per-game"`.
    fixed_dir: [Option<Dir>; 2],
    plies: u32,
    ended: Option<Ended>,
    /// The hole a capturing lone-seed step entered, while its player has
    /// still to choose the direction of the sowing on (`step_sowing =
    /// "chosen"`); [`NO_HOLE`] otherwise.
    pending: u8,
}

impl Position {
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    pub fn plies(&self) -> u32 {
        self.plies
    }
    pub fn seeds(&self, hole: usize) -> u16 {
        self.holes[hole]
    }
    pub fn holes(&self) -> &[u16; MAX_HOLES] {
        &self.holes
    }
    pub fn fixed_dir(&self, player: Player) -> Option<Dir> {
        self.fixed_dir[player.index()]
    }
    pub fn ended(&self) -> Option<Ended> {
        self.ended
    }
    /// The hole whose seeds the player to move must sow on, in a direction
    /// of their choice, to finish a turn begun by a capturing lone-seed
    /// step (RULES.md §7); `None` at the start of a turn.
    pub fn pending(&self) -> Option<usize> {
        (self.pending != NO_HOLE).then_some(self.pending as usize)
    }
}

fn occupancy(holes: &[u16; MAX_HOLES]) -> u128 {
    holes
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v > 0)
        .fold(0, |m, (h, _)| m | 1u128 << h)
}

/// How a move's last lap ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveEnd {
    /// The last seed fell into an empty hole and did not capture.
    EmptyHole,
    /// The last seed fell into an occupied hole that does not relay.
    NoRelay,
    /// A lone-seed step that did not capture.
    Step,
    /// A capturing lone-seed step under `step_sowing = "chosen"`: the same
    /// player now chooses the direction of the sowing on (RULES.md §7).
    Continues,
    /// A capture left the opponent without a seed under `game_end =
    /// "opponent-empty"`: the move and the game are over (RULES.md §9).
    OpponentEmpty,
    /// The mover's side repeated a state: the relays would cycle for ever.
    Endless,
    /// The lap limit stopped the move.
    LapLimit,
}

impl MoveEnd {
    pub fn name(self) -> &'static str {
        match self {
            MoveEnd::EmptyHole => "empty-hole",
            MoveEnd::NoRelay => "no-relay",
            MoveEnd::Step => "step",
            MoveEnd::Continues => "continues",
            MoveEnd::OpponentEmpty => "opponent-empty",
            MoveEnd::Endless => "endless",
            MoveEnd::LapLimit => "lap-limit",
        }
    }
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveReport {
    /// Sowing laps: the first, then one per relay or capture.
    pub laps: u64,
    /// Laps begun by a relay (RULES.md §4): `laps` less the first lap and
    /// the laps that sow a capture's seeds.
    pub relays: u64,
    pub captures: u32,
    pub seeds_captured: u64,
    pub seeds_sown: u64,
    pub end: MoveEnd,
}

/// The move was not legal in the position: hands the move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

/// Why a lap starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LapKind {
    /// The move's own start hole (or a lone seed's step).
    Start,
    Relay,
    Capture,
}

/// Receives a lap-by-lap account of a move; the default methods do nothing
/// and compile away, so the fast path pays nothing for tracing.
pub trait Observer {
    /// A lap of `seeds` seeds begins, sown after circuit position `from`.
    fn lap(&mut self, _kind: LapKind, _lifted_from: usize, _seeds: u64) {}
    /// A lap ended with its last seed in `hole`, which was empty before.
    fn landed(&mut self, _hole: usize, _was_empty: bool) {}
    /// A capture: the landing hole's seeds and the victims' are lifted.
    fn capture(&mut self, _landing: usize, _landing_seeds: u64, _victims: &[(usize, u16)]) {}
    /// A lone seed stepped from one hole to another.
    fn step(&mut self, _from: usize, _to: usize) {}
    /// The board as the engine holds it just after `landed`, `capture` or
    /// `step` (a capture's seeds lifted, or left in the landing hole when
    /// the move ends there, RULES.md §9), by hole index: an observer
    /// that shows every lap (the viewer) takes its boards from here
    /// rather than sowing a copy of its own.
    fn board(&mut self, _holes: &[u16; MAX_HOLES]) {}
    fn end(&mut self, _end: MoveEnd) {}
}

/// The observer that observes nothing.
pub struct Silent;
impl Observer for Silent {}

/// Indices of the set bits, lowest first.
fn bits(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(h)
        }
    })
}

impl Rules {
    /// Seeds on a player's side.
    pub fn side_seeds(&self, pos: &Position, player: Player) -> u32 {
        self.circuit(player)
            .iter()
            .map(|&h| pos.holes[h as usize] as u32)
            .sum()
    }

    /// The position turned through 180 degrees with the players swapped.
    pub fn mirror(&self, pos: &Position) -> Position {
        let mut m = *pos;
        let n = self.t.holes;
        for h in 0..n {
            m.holes[h] = pos.holes[n - 1 - h];
        }
        m.occ = occupancy(&m.holes);
        m.to_move = pos.to_move.other();
        m.fixed_dir = [pos.fixed_dir[1], pos.fixed_dir[0]];
        if pos.pending != NO_HOLE {
            m.pending = (n - 1 - pos.pending as usize) as u8;
        }
        m.ended = pos.ended.map(|e| match e {
            Ended::EndlessMoveLost(w) => Ended::EndlessMoveLost(w.other()),
            other => other,
        });
        m
    }

    /// A move turned through 180 degrees.
    pub fn mirror_move(&self, mv: Move) -> Move {
        let n = self.t.holes;
        Move {
            from: (n - 1 - mv.from as usize) as u8,
            to: if mv.is_step() {
                (n - 1 - mv.to as usize) as u8
            } else {
                NO_HOLE
            },
            dir: mv.dir,
        }
    }
}
