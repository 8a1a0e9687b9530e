//! The board's vocabulary that rules and engine share: the two players,
//! the two sowing directions and the size bounds (docs/RULES.md §1–2).
//! They live here, below the engine, so that `rules` never imports the
//! engine; `crate::engine` re-exports them.

use super::settings::{MAX_HOLES_PER_ROW, MAX_ROWS};

/// Largest board: 8 rows of 16 holes.
pub const MAX_HOLES: usize = MAX_ROWS * MAX_HOLES_PER_ROW;
/// Largest side: 4 rows of 16 holes.
pub const MAX_SIDE: usize = MAX_HOLES / 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player 1, owner of rows 1 up to the middle.
    South,
    /// Player 2.
    North,
}

impl Player {
    pub fn index(self) -> usize {
        self as usize
    }
    /// 1 for South, 2 for North, as in every output.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }
    pub fn other(self) -> Player {
        match self {
            Player::South => Player::North,
            Player::North => Player::South,
        }
    }
}

/// Sowing direction along the mover's circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    Forward,
    Backward,
}

impl Dir {
    /// The index of this direction's circuit in the engine's tables.
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}
