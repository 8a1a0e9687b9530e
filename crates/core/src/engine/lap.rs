//! The vocabulary the lap loop, the rule decisions and the cycle search
//! share: what a landing leads to (RULES.md §4), a capture's victims
//! (§5), a move's running totals, the hand being sown, and when the
//! cycle search (§8) starts. Kept apart so that `decisions`, `sowing`
//! and `endless` each import it and none imports another in a circle.

use super::{MoveEnd, MoveReport, Player};
use crate::rules::{MAX_ROWS, MAX_SIDE, Rules};

/// Laps of a move before the cycle search starts; almost every move ends
/// sooner, so the common path never sets it up. Cycles that start earlier
/// are still found, and their first repeat located exactly, by replay.
pub(super) const CYCLE_CHECK_AFTER: u64 = 64;

/// Victims of one capture: at most one hole per opponent row.
pub(super) struct Victims {
    pub holes: [u8; MAX_ROWS / 2],
    pub len: usize,
    pub total: u64,
}

/// What a lap's last seed leads to (RULES.md §4).
pub(super) enum Landing {
    End(MoveEnd),
    Capture(usize, Victims),
    Relay(usize),
}

/// A move's running totals.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LapTotals {
    pub laps: u64,
    pub relays: u64,
    pub captures: u32,
    pub seeds_captured: u64,
    pub seeds_sown: u64,
}

impl LapTotals {
    pub fn finish(self, end: MoveEnd) -> MoveReport {
        MoveReport {
            laps: self.laps,
            relays: self.relays,
            captures: self.captures,
            seeds_captured: self.seeds_captured,
            seeds_sown: self.seeds_sown,
            end,
        }
    }
}

/// One move's sowing: where the hand is on the mover's circuit, the seeds
/// in it, and the totals so far. Cloned to replay laps when checking a
/// cycle.
#[derive(Clone)]
pub(super) struct Lapper<'a> {
    pub rules: &'a Rules,
    pub p: Player,
    pub(super) circuit: &'a [u8; 2 * MAX_SIDE],
    pub(super) zp: &'a [u64; 2 * MAX_SIDE + 1],
    pub(super) op: &'a [u128; 2 * MAX_SIDE + 1],
    /// Circuit position of the hole the next lap starts after.
    pub(super) at: usize,
    /// Seeds in hand for the next lap.
    pub(super) n: u64,
    /// Fingerprint of the board relative to the move's start: the sum over
    /// holes of seeds times a random key, kept in O(1) per lap for the
    /// cycle search (`endless`).
    pub fp: u64,
    pub r: LapTotals,
}
