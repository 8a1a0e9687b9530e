//! The transposition table of the `alphabeta` agent's deep search
//! ([`super::alphabeta::analyse_deep`]): a fixed number of slots, each
//! holding one searched position's value, keyed by a 64-bit hash of the
//! whole position.
//!
//! Determinism: the table is made afresh for every search, the slot of a
//! position is the hash's top bits, and a store always replaces the slot's
//! entry (no ageing, no choice depending on anything but the order of the
//! stores), so the same search always leaves the same table.

use crate::engine::kernel::{Kernel, Sown};
use crate::engine::{Dir, MAX_HOLES, Move, Player, Position};
use crate::rng::mix64;

/// How a stored value bounds the position's true value at its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// At least the value (the search failed high).
    Lower,
    /// At most the value (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The full hash, so a slot shared by two positions is told apart.
    pub key: u64,
    /// Plies searched below the position.
    pub depth: u32,
    /// Relative to the position (a win `n` plies below it is `WIN - n`).
    pub value: i32,
    pub bound: Bound,
    /// The best move found, tried first the next time.
    pub best: Option<Move>,
}

/// A fixed-size table of `2^bits` slots.
pub struct Table {
    slots: Vec<Option<Entry>>,
    bits: u32,
}

/// The most slots allowed: 2^24 slots of 24 bytes are 400 MB.
pub const MAX_BITS: u32 = 24;

impl Table {
    /// A table of `2^bits` empty slots (`bits` from 1 to [`MAX_BITS`]).
    pub fn new(bits: u32) -> Table {
        assert!((1..=MAX_BITS).contains(&bits), "table bits {bits}");
        Table {
            slots: vec![None; 1 << bits],
            bits,
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - self.bits)) as usize
    }

    /// The entry stored for `key`, if its slot still holds it.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores `entry`, replacing whatever its slot held.
    pub fn store(&mut self, entry: Entry) {
        let i = self.slot(entry.key);
        self.slots[i] = Some(entry);
    }
}

/// A 64-bit hash of everything a position's future depends on: every
/// hole's seeds, the player to move, the fixed directions, a pending
/// continuation and the plies played (the ply limit ends games by count).
pub fn hash(pos: &Position) -> u64 {
    hash_holes(header(pos), pos.holes())
}

/// [`hash`] of the position the lane kernel played into `c`: the same
/// value as of its engine position (nothing pending, not ended), so the
/// search's slots and keys do not depend on which of the two holds a node.
/// `holes` is a buffer of the caller's, zero past the board's holes.
pub(crate) fn hash_sown(kernel: &Kernel, c: &Sown, holes: &mut [u16; MAX_HOLES]) -> u64 {
    let fixed = [c.fixed_dir(Player::South), c.fixed_dir(Player::North)];
    let h = header_of(c.plies(), c.to_move(), fixed, None, false);
    kernel.sown_holes(c, holes);
    hash_holes(h, holes)
}

fn hash_holes(mut h: u64, holes: &[u16; MAX_HOLES]) -> u64 {
    // Four holes a word, the first in the low bits; fixed-size chunks so
    // the word is four loads and shifts (the iterator fold was a fifth of
    // the hash's instructions), the same words as before.
    let (words, rest) = holes.as_chunks::<4>();
    debug_assert!(rest.is_empty());
    for c in words {
        let word =
            u64::from(c[0]) | u64::from(c[1]) << 16 | u64::from(c[2]) << 32 | u64::from(c[3]) << 48;
        h = mix64(h ^ word);
    }
    h
}

/// The hash's start: everything but the holes.
fn header(pos: &Position) -> u64 {
    let fixed = [pos.fixed_dir(Player::South), pos.fixed_dir(Player::North)];
    header_of(
        pos.plies(),
        pos.to_move(),
        fixed,
        pos.pending(),
        pos.ended().is_some(),
    )
}

fn header_of(
    plies: u32,
    to_move: Player,
    fixed: [Option<Dir>; 2],
    pending: Option<usize>,
    ended: bool,
) -> u64 {
    let dir = |d| match d {
        None => 0u64,
        Some(Dir::Forward) => 1,
        Some(Dir::Backward) => 2,
    };
    mix64(
        u64::from(plies)
            | (u64::from(to_move == Player::North) << 32)
            | (dir(fixed[0]) << 33)
            | (dir(fixed[1]) << 35)
            | (pending.map_or(0, |p| p as u64 + 1) << 37)
            | (u64::from(ended) << 45),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::testing::{random_positions, variant};

    fn entry(key: u64, value: i32) -> Entry {
        Entry {
            key,
            depth: 3,
            value,
            bound: Bound::Exact,
            best: Some(Move::sow(2, None)),
        }
    }

    #[test]
    fn a_stored_entry_is_found_and_replaced() {
        let mut t = Table::new(4);
        assert_eq!(t.probe(7), None);
        t.store(entry(7, 11));
        assert_eq!(t.probe(7), Some(entry(7, 11)));
        // Another key of the same slot (the top four bits) evicts it...
        let other = 7 | 1 << 40;
        assert_eq!(t.slot(other), t.slot(7));
        t.store(entry(other, -5));
        assert_eq!(t.probe(7), None);
        assert_eq!(t.probe(other), Some(entry(other, -5)));
        // ...and a key of another slot leaves it alone.
        let far = 7 | 1 << 63;
        assert_ne!(t.slot(far), t.slot(other));
        t.store(entry(far, 1));
        assert_eq!(t.probe(other), Some(entry(other, -5)));
        assert_eq!(t.probe(far), Some(entry(far, 1)));
    }

    /// The hash as first written (a fold over variable chunks): the table's
    /// slots and keys, hence the search's node counts, depend on its exact
    /// values.
    fn hash_as_first_written(pos: &Position) -> u64 {
        let mut h = header(pos);
        for chunk in pos.holes().chunks(4) {
            let word = chunk
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, &s)| w | u64::from(s) << (16 * i));
            h = mix64(h ^ word);
        }
        h
    }

    #[test]
    fn the_hash_keeps_its_values() {
        for name in ["katro-6x6", "katro-ludii", "katra-boaoaka-4x8"] {
            for p in random_positions(&variant(name), 200, 6) {
                assert_eq!(hash(&p), hash_as_first_written(&p), "{name}");
            }
        }
    }

    #[test]
    fn distinct_positions_hash_apart() {
        let rules = variant("katro-ludii");
        let positions = random_positions(&rules, 600, 5);
        let mut seen = std::collections::HashMap::new();
        for p in &positions {
            if let Some(q) = seen.insert(hash(p), *p) {
                assert_eq!(&q, p, "two positions share a hash");
            }
        }
        // Positions equal but for the player to move, or the plies, differ.
        let start = rules.start();
        let mut after = start;
        let mv = rules.legal_moves(&start)[0];
        rules.play(&mut after, mv).unwrap();
        assert_ne!(hash(&start), hash(&after));
        assert!(seen.len() > 500, "{} distinct", seen.len());
    }
}
