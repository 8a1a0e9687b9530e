//! One game's record: what the lane kernel and the engine's game loop
//! (`runner::play_game_on_engine`) both fill move by move, and what the
//! statistics add up. A new per-game figure is a field here, a field of
//! [`MoveTotals`] if it is counted per move, and a line in
//! [`GameRecord::add_move`]; both ways of playing then carry it.

use super::{MoveReport, Status};

/// What one game did: the unit the runner adds to an `Aggregate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// How the game ended; never [`Status::Ongoing`] once it is played.
    pub status: Status,
    pub plies: u32,
    /// Sowing laps of every move, added up.
    pub laps: u64,
    /// Laps of the game's longest move.
    pub max_laps_in_move: u64,
    /// Captures made by player 1 (index 0) and player 2 (index 1).
    pub captures: [u64; 2],
    pub seeds_captured: [u64; 2],
    pub seeds_sown: u64,
    /// Legal moves of every turn, added up.
    pub legal_moves: u64,
    /// Turns on which the mover had more than one legal move.
    pub choice_turns: u64,
    /// The game's identity: a hash of its whole move sequence (see
    /// `runner::game_hash_step`), equal for two games with the same moves
    /// whatever their seeds.
    pub hash: u64,
}

/// What one move adds to its game's record, as the kernel counts it and
/// as the engine reports it ([`MoveReport`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTotals {
    /// Sowing laps: the first, then one per relay or capture.
    pub laps: u64,
    /// Seeds sown.
    pub sown: u64,
    pub captures: u64,
    /// Seeds captured.
    pub seeds: u64,
}

impl From<&MoveReport> for MoveTotals {
    #[inline(always)]
    fn from(r: &MoveReport) -> MoveTotals {
        MoveTotals {
            laps: r.laps,
            sown: r.seeds_sown,
            captures: r.captures as u64,
            seeds: r.seeds_captured,
        }
    }
}

impl GameRecord {
    /// A game before its first move: ongoing, every count zero.
    pub const START: GameRecord = GameRecord {
        status: Status::Ongoing,
        plies: 0,
        laps: 0,
        max_laps_in_move: 0,
        captures: [0; 2],
        seeds_captured: [0; 2],
        seeds_sown: 0,
        legal_moves: 0,
        choice_turns: 0,
        hash: 0,
    };

    /// Adds a move of player `mover` (0: South, 1: North).
    #[inline(always)]
    pub fn add_move(&mut self, mover: usize, m: MoveTotals) {
        self.laps += m.laps;
        self.max_laps_in_move = self.max_laps_in_move.max(m.laps);
        self.seeds_sown += m.sown;
        self.captures[mover] += m.captures;
        self.seeds_captured[mover] += m.seeds;
    }
}
