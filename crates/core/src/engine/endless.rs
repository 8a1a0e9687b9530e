//! Endless-move detection (RULES.md §8): board fingerprints, Nivasch's
//! cycle search on them, and the exact replay that confirms a cycle and
//! finds its first repeated state, so that whether a move is endless is a
//! property of the rules, not of how cycles are looked for.

use super::lap::{CYCLE_CHECK_AFTER, Landing, LapTotals, Lapper};
use super::{MoveEnd, MoveReport, Observer, Player, Position, Silent, occupancy};
use crate::rules::{MAX_SIDE, Rules};

impl Lapper<'_> {
    /// The cycle-search key of the current state: fingerprint and landing.
    fn key(&self, landing: usize) -> u64 {
        self.fp ^ self.rules.t.zobrist[landing].rotate_left(17)
    }
}

/// The mover's side and the hand at the point a cycle search starts, so
/// laps can be replayed from there. Between a snapshot and any later state
/// of the same search no capture happens, so the opponent's side is the
/// same as now and only the mover's side is kept.
pub(super) struct Snapshot<'a> {
    side: [u16; MAX_SIDE],
    lap: Lapper<'a>,
}

impl<'a> Snapshot<'a> {
    /// The first hole of a player's side: the side is one run of holes.
    fn offset(rules: &Rules, p: Player) -> usize {
        match p {
            Player::South => 0,
            Player::North => rules.t.holes - rules.t.side,
        }
    }

    pub fn take(rules: &Rules, pos: &Position, lap: &Lapper<'a>) -> Snapshot<'a> {
        // A fixed-size copy (the side fits in MAX_SIDE holes from its
        // offset) is cheaper than a variable-length one on every move.
        let off = Snapshot::offset(rules, lap.p);
        let mut side = [0; MAX_SIDE];
        side.copy_from_slice(&pos.holes[off..off + MAX_SIDE]);
        Snapshot {
            side,
            lap: lap.clone(),
        }
    }

    /// `now` with the mover's side as it was at the snapshot.
    fn restore(&self, rules: &Rules, now: &Position) -> Position {
        let mut pos = *now;
        let off = Snapshot::offset(rules, self.lap.p);
        let len = rules.t.side;
        pos.holes[off..off + len].copy_from_slice(&self.side[..len]);
        pos.occ = occupancy(&pos.holes);
        pos
    }
}

/// Nivasch's stack algorithm for cycle detection on state keys: the
/// stack holds increasing keys; a key equal to the top's means the state
/// may have repeated. It catches a cycle at the second occurrence of the
/// cycle's smallest key, so within `start + 2λ` laps, in O(log laps)
/// memory and a few comparisons per lap.
struct CycleSearch {
    stack: [(u64, u64); CYCLE_STACK],
    len: usize,
}

/// Stack depth: it grows like the log of the laps (about 17 at 10 million
/// laps with random keys). Should it ever fill, its oldest entry is
/// dropped; cycles are still confirmed exactly, only possibly later.
const CYCLE_STACK: usize = 128;

impl CycleSearch {
    fn new() -> CycleSearch {
        CycleSearch {
            stack: [(0, 0); CYCLE_STACK],
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// Records `key` seen at `lap`; returns the lap it was seen before.
    fn check(&mut self, key: u64, lap: u64) -> Option<u64> {
        while self.len > 0 && self.stack[self.len - 1].0 > key {
            self.len -= 1;
        }
        if self.len > 0 && self.stack[self.len - 1].0 == key {
            return Some(self.stack[self.len - 1].1);
        }
        if self.len == CYCLE_STACK {
            self.stack.copy_within(1.., 0);
            self.len -= 1;
        }
        self.stack[self.len] = (key, lap);
        self.len += 1;
        None
    }
}

impl Rules {
    /// The rest of a long move, with the cycle search on. Kept out of line
    /// so short moves, nearly all of them, never set it up.
    ///
    /// A move is endless when a relay-lap state (the board after a lap's
    /// last seed, and the hole it fell in) repeats. It ends at the first
    /// repeat: the report counts the laps up to it and the board is the one
    /// it repeats. It is endless only if that first repeat comes within the
    /// lap limit; otherwise it stops at the limit with status lap-limit.
    #[cold]
    #[inline(never)]
    pub(super) fn sow_long<'a, O: Observer>(
        &'a self,
        pos: &mut Position,
        mut snap: Snapshot<'a>,
        mut lap: Lapper<'a>,
        mut landing: usize,
        obs: &mut O,
    ) -> MoveReport {
        let mut cycles = CycleSearch::new();
        loop {
            if let Some(earlier) = cycles.check(lap.key(landing), lap.r.laps)
                && let Some(end) = self.first_repeat(pos, &snap, lap.r.laps - earlier, lap.r.laps)
            {
                return endless(pos, end, obs);
            }
            if lap.r.laps >= self.settings().lap_limit {
                if let Some(end) = self.repeat_after_limit(pos, &snap, &lap, landing, &mut cycles) {
                    return endless(pos, end, obs);
                }
                obs.end(MoveEnd::LapLimit);
                return lap.r.finish(MoveEnd::LapLimit);
            }
            lap.lift_relay(pos, landing, obs);
            let captured;
            (landing, captured) = match self.sow_to_relay(pos, &mut lap, &mut snap, obs) {
                Ok(next) => next,
                Err(report) => return report,
            };
            if captured {
                cycles.clear();
            }
        }
    }

    /// At the lap limit with the move going on: did a state repeat within
    /// the limit, though the search has not caught it yet? The search
    /// catches a cycle by `start + 2λ` laps, so going on to twice the limit
    /// (on a copy) settles it exactly.
    fn repeat_after_limit(
        &self,
        pos: &Position,
        snap: &Snapshot,
        lap: &Lapper,
        landing: usize,
        cycles: &mut CycleSearch,
    ) -> Option<(Position, LapTotals)> {
        let limit = self.settings().lap_limit;
        let bound = limit
            .saturating_mul(2)
            .saturating_add(2 * CYCLE_CHECK_AFTER);
        let mut scratch = *pos;
        let mut lap = lap.clone();
        let mut h = landing;
        while lap.r.laps < bound {
            // A move that ends or captures never cycled.
            h = relay_on(&mut lap, &mut scratch, h)?;
            if let Some(earlier) = cycles.check(lap.key(h), lap.r.laps) {
                return self
                    .first_repeat(pos, snap, lap.r.laps - earlier, lap.r.laps)
                    .filter(|(_, r)| r.laps <= limit);
            }
        }
        None
    }

    /// Confirms a cycle of `period` laps found by fingerprints and finds the
    /// first repeated state: replays from the snapshot a tortoise and a hare
    /// `period` laps ahead until their boards agree. Returns the position
    /// and report at the first repeat, or `None` if the fingerprints
    /// collided without the boards repeating.
    fn first_repeat(
        &self,
        pos: &Position,
        snap: &Snapshot,
        period: u64,
        upto: u64,
    ) -> Option<(Position, LapTotals)> {
        let mut tortoise = snap.restore(self, pos);
        let mut t = snap.lap.clone();
        let mut hare = tortoise;
        let mut h = snap.lap.clone();
        let mut hx = relay(&mut h, &mut hare)?;
        for _ in 0..period {
            hx = relay_on(&mut h, &mut hare, hx)?;
        }
        let mut tx = relay(&mut t, &mut tortoise)?;
        while h.r.laps <= upto {
            if tx == hx && tortoise.holes == hare.holes {
                return Some((hare, h.r));
            }
            tx = relay_on(&mut t, &mut tortoise, tx)?;
            hx = relay_on(&mut h, &mut hare, hx)?;
        }
        None
    }
}

/// Ends a move at its first repeated state `end` (the board and the
/// report there): endless.
fn endless<O: Observer>(pos: &mut Position, end: (Position, LapTotals), obs: &mut O) -> MoveReport {
    *pos = end.0;
    obs.end(MoveEnd::Endless);
    end.1.finish(MoveEnd::Endless)
}

/// Sows `lap`'s seeds in hand on `board`: the hole it relays from, or
/// `None` if the move ends or captures there.
fn relay(lap: &mut Lapper, board: &mut Position) -> Option<usize> {
    match lap.sow(board, &mut Silent) {
        Landing::Relay(x) => Some(x),
        _ => None,
    }
}

/// Lifts the relay hole `x` and sows its seeds, as [`relay`].
fn relay_on(lap: &mut Lapper, board: &mut Position, x: usize) -> Option<usize> {
    lap.lift_relay(board, x, &mut Silent);
    relay(lap, board)
}
