//! The lap loop (RULES.md §4): a lap sown as prefix sums over the doubled
//! circuit, the hand lifted for each relay and capture, and a move's
//! running totals. What a landing leads to is `decisions`' call; a move
//! that goes on past 64 laps is handed to `endless`.

use super::endless::Snapshot;
use super::lap::{CYCLE_CHECK_AFTER, Landing, LapTotals, Lapper, Victims};
use super::{Dir, LapKind, MoveEnd, MoveReport, Observer, Player, Position};
use crate::rules::{MAX_ROWS, Rules};

impl<'a> Lapper<'a> {
    fn new(rules: &'a Rules, p: Player, dir: Dir, from: usize, n: u64) -> Lapper<'a> {
        let t = &rules.t;
        let (pi, di) = (p.index(), dir.index());
        Lapper {
            rules,
            p,
            circuit: &t.circuit[pi][di],
            zp: &t.zprefix[pi][di],
            op: &t.occ_prefix[pi][di],
            at: t.circuit_index[di][from] as usize,
            n,
            fp: 0,
            r: LapTotals::default(),
        }
    }

    /// Sows the seeds in hand and judges where the last one fell.
    #[inline(always)]
    pub fn sow<O: Observer>(&mut self, pos: &mut Position, obs: &mut O) -> Landing {
        let rules = self.rules;
        let t = &rules.t;
        let m = t.side;
        let (at, n) = (self.at, self.n);
        self.r.laps += 1;
        self.r.seeds_sown += n;
        // The circuit is stored twice over, so the `rest` seeds after
        // position `at` are one slice with no wrap test per seed; a lap of
        // n >= m seeds first adds n / m to every hole.
        let rest = if n < m as u64 {
            n as usize
        } else {
            self.sow_rounds(pos, n)
        };
        for &h in &self.circuit[at + 1..=at + rest] {
            pos.holes[h as usize] += 1;
        }
        pos.occ |= self.op[at + rest + 1] ^ self.op[at + 1];
        self.fp = self
            .fp
            .wrapping_add(self.zp[at + rest + 1].wrapping_sub(self.zp[at + 1]));
        // With rest == 0 the last seed fell where the lap began.
        let last = if at + rest >= m {
            at + rest - m
        } else {
            at + rest
        };
        self.at = last;
        let landing = self.circuit[last] as usize;
        let was_empty = pos.holes[landing] == 1;
        obs.landed(landing, was_empty);
        obs.board(&pos.holes);
        rules.land(pos, self.p, landing, was_empty)
    }

    /// The whole rounds of a lap of `n` seeds, at least a circuit's: one
    /// seed in every hole of the circuit a round; the seeds left over.
    #[inline(always)]
    fn sow_rounds(&mut self, pos: &mut Position, n: u64) -> usize {
        let m = self.rules.t.side;
        let whole = (n / m as u64) as u16;
        for &h in &self.circuit[..m] {
            pos.holes[h as usize] += whole;
        }
        self.fp = self
            .fp
            .wrapping_add((whole as u64).wrapping_mul(self.zp[m]));
        pos.occ |= self.rules.t.side_mask[self.p.index()];
        (n % m as u64) as usize
    }

    /// Lifts a relaying landing hole into the hand.
    #[inline(always)]
    pub fn lift_relay<O: Observer>(&mut self, pos: &mut Position, landing: usize, obs: &mut O) {
        let n = pos.holes[landing] as u64;
        pos.holes[landing] = 0;
        pos.occ &= !self.rules.t.bit[landing];
        self.fp = self
            .fp
            .wrapping_sub(n.wrapping_mul(self.rules.t.zobrist[landing]));
        self.n = n;
        self.r.relays += 1;
        obs.lap(LapKind::Relay, landing, n);
    }

    fn lift_capture<O: Observer>(
        &mut self,
        pos: &mut Position,
        landing: usize,
        v: &Victims,
        obs: &mut O,
    ) {
        self.n = self.rules.lift_capture(pos, landing, v, obs);
        self.r.captures += 1;
        self.r.seeds_captured += v.total;
    }
}

impl Rules {
    /// Lifts every seed of `from` and sows them, and every lap after,
    /// until the move ends.
    pub(super) fn sow_move<O: Observer>(
        &self,
        pos: &mut Position,
        p: Player,
        dir: Dir,
        from: usize,
        obs: &mut O,
    ) -> MoveReport {
        let n = pos.holes[from] as u64;
        pos.holes[from] = 0;
        pos.occ &= !self.t.bit[from];
        obs.lap(LapKind::Start, from, n);
        self.sow_laps(pos, p, dir, from, n, obs)
    }

    /// Lifts the victims and the landing hole; returns the seeds in hand.
    pub(super) fn lift_capture<O: Observer>(
        &self,
        pos: &mut Position,
        landing: usize,
        v: &Victims,
        obs: &mut O,
    ) -> u64 {
        let list = self.take_victims(pos, v);
        let own = pos.holes[landing] as u64;
        pos.holes[landing] = 0;
        pos.occ &= !self.t.bit[landing];
        obs.capture(landing, own, &list[..v.len]);
        obs.board(&pos.holes);
        let n = own + v.total;
        obs.lap(LapKind::Capture, landing, n);
        n
    }

    /// Empties the victims' holes; returns each with the seeds it held,
    /// for the observer. Inlined as the two copies it replaced were:
    /// without, callgrind counts 2–3% more instructions a game on
    /// katro-ludii and katra-boaoaka-4x8.
    #[inline(always)]
    fn take_victims(&self, pos: &mut Position, v: &Victims) -> [(usize, u16); MAX_ROWS / 2] {
        let mut list = [(0usize, 0u16); MAX_ROWS / 2];
        for (i, &h) in v.holes[..v.len].iter().enumerate() {
            list[i] = (h as usize, pos.holes[h as usize]);
            pos.holes[h as usize] = 0;
            pos.occ &= !self.t.bit[h as usize];
        }
        list
    }

    /// A capture whose seeds are not sown on: the victims' seeds join the
    /// landing hole's (at the game's end, or before the player chooses the
    /// direction of a step's sowing on).
    pub(super) fn capture_in_place<O: Observer>(
        &self,
        pos: &mut Position,
        landing: usize,
        v: &Victims,
        obs: &mut O,
    ) {
        let list = self.take_victims(pos, v);
        obs.capture(landing, pos.holes[landing] as u64, &list[..v.len]);
        pos.holes[landing] += v.total as u16;
        obs.board(&pos.holes);
    }

    /// Sows `n` seeds lifted from `from` and every relay and capture lap
    /// after it, until the move ends; a move still relaying after
    /// [`CYCLE_CHECK_AFTER`] laps (or at the lap limit) goes on in
    /// `endless`, with the cycle search on (RULES.md §8).
    pub(super) fn sow_laps<O: Observer>(
        &self,
        pos: &mut Position,
        p: Player,
        dir: Dir,
        from: usize,
        n: u64,
        obs: &mut O,
    ) -> MoveReport {
        let mut lap = Lapper::new(self, p, dir, from, n);
        // Where a cycle search restarts: the move's start, then after each
        // capture (no state before a capture can recur after it: the
        // opponent's side only loses seeds).
        let mut snap = Snapshot::take(self, pos, &lap);
        loop {
            let landing = match self.sow_to_relay(pos, &mut lap, &mut snap, obs) {
                Ok((h, _)) => h,
                Err(report) => return report,
            };
            if lap.r.laps >= CYCLE_CHECK_AFTER || lap.r.laps >= self.settings().lap_limit {
                return self.sow_long(pos, snap, lap, landing, obs);
            }
            lap.lift_relay(pos, landing, obs);
        }
    }

    /// Sows laps until one ends in a relay: returns its landing hole and
    /// whether a capture came first (which retakes the snapshot), or the
    /// move's report if the move ended.
    #[inline(always)]
    pub(super) fn sow_to_relay<'a, O: Observer>(
        &'a self,
        pos: &mut Position,
        lap: &mut Lapper<'a>,
        snap: &mut Snapshot<'a>,
        obs: &mut O,
    ) -> Result<(usize, bool), MoveReport> {
        let mut captured = false;
        loop {
            match lap.sow(pos, obs) {
                Landing::End(end) => {
                    obs.end(end);
                    return Err(lap.r.finish(end));
                }
                Landing::Capture(h, v) => {
                    match self.capture_ends_move(pos, lap.p, &v, lap.r.laps) {
                        Some(MoveEnd::OpponentEmpty) => {
                            // The captured seeds stay in the landing hole.
                            self.capture_in_place(pos, h, &v, obs);
                            lap.r.captures += 1;
                            lap.r.seeds_captured += v.total;
                            obs.end(MoveEnd::OpponentEmpty);
                            return Err(lap.r.finish(MoveEnd::OpponentEmpty));
                        }
                        Some(end) => {
                            obs.end(end);
                            return Err(lap.r.finish(end));
                        }
                        None => {
                            lap.lift_capture(pos, h, &v, obs);
                            *snap = Snapshot::take(self, pos, lap);
                            captured = true;
                        }
                    }
                }
                Landing::Relay(h) => return Ok((h, captured)),
            }
        }
    }
}
