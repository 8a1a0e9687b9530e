//! One game's record: what the lane kernel and the engine's game loop
//! (`game::play_game_on_engine`) both fill move by move, and what the
//! statistics add up. A new per-game figure is a field here, a field of
//! [`MoveTotals`](crate::engine::record::MoveTotals) if it is counted per
//! move, and a line in
//! [`GameRecord::add_move`](crate::engine::record::GameRecord::add_move);
//! both ways of playing then carry it.

use serde::{Deserialize, Serialize};

use super::{MoveReport, Status};

/// What one game did: the unit the runner adds to an `Aggregate`.
/// Stored (shards, checkpoints) as flat JSON fields in this order, the
/// status as the pair `status`, `winner` ([`status_pair`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// How the game ended; never [`Status::Ongoing`] once it is played.
    #[serde(flatten, with = "status_pair")]
    pub status: Status,
    pub plies: u32,
    /// Sowing laps of every move, added up.
    pub laps: u64,
    /// Laps of the game's longest move.
    pub max_laps_in_move: u64,
    /// The most relay laps of any one move of the game.
    pub max_relays_in_move: u64,
    /// Captures made by player 1 (index 0) and player 2 (index 1).
    pub captures: [u64; 2],
    pub seeds_captured: [u64; 2],
    pub seeds_sown: u64,
    /// Legal moves of every turn, added up.
    pub legal_moves: u64,
    /// Turns on which the mover had more than one legal move at some
    /// decision: a turn of two decisions (docs/RULES.md §7) counts once.
    pub choice_turns: u64,
    /// The game's identity: a hash of its whole move sequence (see
    /// `game::game_hash_step`), equal for two games with the same moves
    /// whatever their seeds.
    pub hash: u64,
}

/// What one move adds to its game's record, as the kernel counts it and
/// as the engine reports it ([`MoveReport`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTotals {
    /// Sowing laps: the first, then one per relay or capture.
    pub laps: u64,
    /// Laps begun by a relay.
    pub relays: u64,
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
            relays: r.relays,
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
        max_relays_in_move: 0,
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
        self.max_relays_in_move = self.max_relays_in_move.max(m.relays);
        self.seeds_sown += m.sown;
        self.captures[mover] += m.captures;
        self.seeds_captured[mover] += m.seeds;
    }
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::START
    }
}

/// A finished game's [`Status`] as two stored fields: `status`, the
/// engine's name for it ([`Status::name`]), and `winner`, the winner's
/// number (1 or 2) for a won game, `null` otherwise. Any other pair
/// (`ongoing`, a won game without a winner, a winner of a drawn one) is
/// refused when read, as a damaged row.
pub mod status_pair {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::engine::{Player, Status};

    #[derive(Serialize, Deserialize)]
    struct Pair<S> {
        status: S,
        winner: Option<u8>,
    }

    pub fn serialize<Z: Serializer>(status: &Status, z: Z) -> Result<Z::Ok, Z::Error> {
        Pair {
            status: status.name(),
            winner: status.winner().map(Player::number),
        }
        .serialize(z)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Status, D::Error> {
        let p = Pair::<String>::deserialize(d)?;
        of_pair(&p.status, p.winner).map_err(serde::de::Error::custom)
    }

    /// A stored pair naming no finished game.
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[error("status {status:?} with winner {winner:?} is no finished game")]
    pub struct NotFinished {
        pub status: String,
        pub winner: Option<u8>,
    }

    /// The status a stored pair names, or why it names no finished game.
    pub fn of_pair(status: &str, winner: Option<u8>) -> Result<Status, NotFinished> {
        let finished = match (status, winner) {
            ("won", Some(1)) => Some(Status::Won(Player::South)),
            ("won", Some(2)) => Some(Status::Won(Player::North)),
            (_, None) => [Status::PlyLimit, Status::EndlessMove, Status::LapLimit]
                .into_iter()
                .find(|s| s.name() == status),
            _ => None,
        };
        finished.ok_or_else(|| NotFinished {
            status: status.to_string(),
            winner,
        })
    }
}
