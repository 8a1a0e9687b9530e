//! The game loop: choosing, sowing, capturing, and the greedy agents'
//! choices.

use super::*;
use rand_xoshiro::rand_core::Rng;

/// A sowing move chosen, its hole not yet lifted.
#[derive(Clone, Copy)]
pub(super) struct Pick {
    pub(super) lane: usize,
    /// The rotation [`lane4`] reads the lane with.
    pub(super) rot: u8,
    /// The direction drawn (0 forward, 1 backward) when `two`.
    pub(super) d: usize,
}

/// Who is to move in a turn and what the engine needs to rebuild its
/// start.
#[derive(Clone, Copy)]
pub(super) struct Turn {
    pub(super) mover: usize,
    pub(super) fixed: [u8; 2],
    pub(super) plies: u32,
}

/// The greedy agent's reservoir (`agents::greedy`): the best move so far,
/// its seeds and how many tie with it.
#[derive(Default)]
pub(super) struct Best {
    pub(super) k: u32,
    pub(super) seeds: Option<u64>,
    pub(super) ties: usize,
}

impl Best {
    #[inline(always)]
    pub(super) fn offer(&mut self, k: u32, seeds: u64, rng: &mut GameRng) {
        match self.seeds {
            Some(b) if seeds < b => {}
            Some(b) if seeds == b => {
                self.ties += 1;
                if below(rng, self.ties) == 0 {
                    self.k = k;
                }
            }
            _ => {
                self.k = k;
                self.seeds = Some(seeds);
                self.ties = 1;
            }
        }
    }
}

/// Both sides: lanes and occupancy bits, the mover's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) struct Side2 {
    pub(super) me: u128,
    pub(super) opp: u128,
    pub(super) occ: u32,
    pub(super) oocc: u32,
}

impl Side2 {
    /// The sides from the lap loop's registers: the mover's holes as
    /// their low and high halves, the opponent's holes, and both
    /// occupancies.
    #[inline(always)]
    fn from_halves((lo, hi): (u64, u64), opp: u128, occ: u32, oocc: u32) -> Side2 {
        Side2 {
            me: (hi as u128) << 64 | lo as u128,
            opp,
            occ,
            oocc,
        }
    }

    pub(super) fn swap(&mut self) {
        std::mem::swap(&mut self.me, &mut self.opp);
        std::mem::swap(&mut self.occ, &mut self.oocc);
    }
}

/// The choice `below(rng, count)` would draw, read without advancing the
/// generator (its state is copied and the copy dropped, which costs only
/// the output), so that a choice drawn ahead and then taken back needs no
/// saved generator. `None` when that draw is not one step of the generator:
/// no draw (a forced move outside rollouts) or a rejected first value (see
/// [`below`]); the next turn then draws as usual.
#[inline(always)]
fn first_draw(rng: &GameRng, count: u32, forced_draws: bool) -> Option<u32> {
    if count == 1 && !forced_draws {
        return None;
    }
    let m = rng.clone().next_u64() as u128 * count as u128;
    // `below` accepts a first value whose low product is at least `count`.
    (m as u64 >= count as u64).then_some((m >> 64) as u32)
}

impl Kernel {
    /// The sowing moves of a side: the first lane of the candidate row
    /// (row 1's under `start = "any"`) and how many holes may start.
    #[inline(always)]
    pub(super) fn sowing_holes<S: Spec>(&self, occ: u32) -> (usize, u32) {
        let mask = (1usize << self.cols) - 1;
        // The first lane of the outermost non-empty row.
        let base0 = if S::START_ANY {
            0
        } else {
            self.row_base[occ.trailing_zeros() as usize & (LANES - 1)] as usize
        };
        let mut nholes = 0;
        for i in 0..if S::START_ANY { S::DEPTHS } else { 1 } {
            nholes += self.count[self.row_bits(occ, base0 + i * self.cols) & mask] as u32;
        }
        (base0, nholes)
    }

    /// The `k`-th sowing move in the listing order (board order: the lane
    /// order for South, reversed for North; `+` before `-`).
    #[inline(always)]
    pub(super) fn pick<S: Spec>(
        &self,
        occ: u32,
        mover: usize,
        two: bool,
        k: u32,
        base0: usize,
        nholes: u32,
    ) -> Pick {
        let mask = (1usize << self.cols) - 1;
        let idx = k >> two as u32;
        let mut idx = if mover == 0 { idx } else { nholes - 1 - idx };
        let mut base = base0;
        if S::START_ANY {
            for _ in 0..S::DEPTHS - 1 {
                let c = self.count[self.row_bits(occ, base) & mask] as u32;
                if idx >= c {
                    idx -= c;
                    base += self.cols;
                }
            }
        }
        let pat = self.row_bits(occ, base) & mask;
        let row = self.row_of[base & (LANES - 1)] as usize;
        let pick = self.pick[row & DEPTHS][pat][idx as usize & 7];
        Pick {
            lane: (pick & 255) as usize,
            rot: (pick >> 8) as u8,
            d: if two { k & 1 } else { 0 } as usize,
        }
    }

    /// Whether the mover chooses a direction this turn.
    #[inline(always)]
    pub(super) fn two_dirs<S: Spec>(fixed: u8) -> bool {
        match S::DIR {
            DirKind::Forward => false,
            DirKind::EachMove => true,
            DirKind::OncePerGame => fixed == 0,
        }
    }

    /// The agent choosing at ply `plies`: the opening plies are random
    /// (as `Rules::random_move` draws them: `below(n)` over the legal
    /// moves, the random agent's draw). `G`: some agent is not random.
    #[inline(always)]
    pub(super) fn agent_at<const G: bool>(
        agents: [Agent; 2],
        opening: u32,
        plies: u32,
        mover: usize,
    ) -> Agent {
        if !G || plies < opening {
            Agent::Random
        } else {
            agents[mover]
        }
    }

    /// The direction a move sows in: forward, the one chosen, or the
    /// player's fixed one (docs/RULES.md §3); `fixed` is updated when this
    /// move fixes it.
    #[inline(always)]
    pub(super) fn sowing_dir<S: Spec>(fixed: &mut u8, d: usize) -> usize {
        match S::DIR {
            DirKind::Forward => 0,
            DirKind::EachMove => d,
            DirKind::OncePerGame => {
                if *fixed == 0 {
                    *fixed = d as u8 + 1;
                }
                (*fixed - 1) as usize
            }
        }
    }

    pub(super) fn play_as<S: Spec, const G: bool>(
        &self,
        rules: &Rules,
        (agents, opening, seed): ([Agent; 2], u32, u64),
        rec: &mut impl FnMut(Move),
    ) -> (GameRecord, u32) {
        let mut rng = rng_from_seed(seed);
        let from = (self.start, 0, [0; 2], 0);
        self.play_from::<S, G, false>(rules, (agents, opening, &mut rng), from, rec)
    }

    /// Plays from `pos` to the end of the game, every decision by `agent`:
    /// a random agent draws from `rng` exactly as repeated
    /// [`Rules::random_move`] calls do (a forced move draws too); greedy
    /// and epsilon-greedy ones as a game plays them
    /// (`game::play_game_on_engine`: a forced move draws nothing).
    /// Returns how the game ended and the plies played. For MCTS
    /// rollouts. `pos` must be ongoing with no continuation pending (the
    /// engine plays that decision first).
    pub(crate) fn rollout(
        &self,
        rules: &Rules,
        pos: &Position,
        agent: Agent,
        rng: &mut GameRng,
    ) -> (Status, u32) {
        debug_assert!(pos.pending().is_none() && pos.ended().is_none());
        let mover = pos.to_move().index();
        let fixed = [
            dir_code(pos.fixed_dir(Player::South)),
            dir_code(pos.fixed_dir(Player::North)),
        ];
        let from = (self.sides_of(pos, mover), mover, fixed, pos.plies());
        let (o, _) = if agent == Agent::Random {
            self.rollout_as::<false, true>(rules, ([Agent::Random; 2], 0, rng), from)
        } else {
            // The game kernels' instance: no new copy of the loop.
            self.rollout_as::<true, false>(rules, ([agent; 2], 0, rng), from)
        };
        (o.status, o.plies - pos.plies())
    }

    pub(super) fn rollout_as<const G: bool, const F: bool>(
        &self,
        rules: &Rules,
        a: ([Agent; 2], u32, &mut GameRng),
        from: (Side2, usize, [u8; 2], u32),
    ) -> (GameRecord, u32) {
        let rec = &mut |_| {};
        match self.which {
            Which::Canonical3 => self.play_from::<Canonical6x6, G, F>(rules, a, from, rec),
            Which::Canonical2 => self.play_from::<Canonical4xN, G, F>(rules, a, from, rec),
            Which::Canonical1 => self.play_from::<Canonical2xN, G, F>(rules, a, from, rec),
            Which::Wikipedia => self.play_from::<Wikipedia6x6, G, F>(rules, a, from, rec),
            Which::Ludii => self.play_from::<Ludii6x6, G, F>(rules, a, from, rec),
            Which::Boaoaka => self.play_from::<Boaoaka4x8, G, F>(rules, a, from, rec),
        }
    }

    /// The game loop from `from` (both sides, mover, fixed directions,
    /// plies), returning the game's record and the turns handed to the
    /// engine (tests check the hand-over is exercised). `F`: a forced move draws from the generator as
    /// `Rules::random_move` does (rollouts); games, like the engine's
    /// runner, draw nothing for one.
    pub(super) fn play_from<S: Spec, const G: bool, const F: bool>(
        &self,
        rules: &Rules,
        (agents, opening, rng_out): ([Agent; 2], u32, &mut GameRng),
        (start, first, fixed0, plies0): (Side2, usize, [u8; 2], u32),
        rec: &mut impl FnMut(Move),
    ) -> (GameRecord, u32) {
        // A local copy, written back at the end: the loop's code stays as
        // it was with a generator of its own.
        let mut rng = rng_out.clone();
        let mut s = start;
        let mut o = GameRecord {
            plies: plies0,
            ..GameRecord::START
        };
        let mut fallbacks = 0;
        let mut mover = first;
        // 0: not fixed; 1 forward; 2 backward (once-per-game).
        let mut fixed = fixed0;
        // The next mover's choice and their number of legal moves, drawn
        // while the current move was sown (see below), if no capture
        // changed their side meanwhile.
        let mut ahead: Option<(Pick, u32)> = None;
        loop {
            if let Some(status) = self.game_over(&s, o.plies, mover) {
                o.status = status;
                break;
            }
            let agent = Self::agent_at::<G>(agents, opening, o.plies, mover);
            let two = Self::two_dirs::<S>(fixed[mover]);
            // The turn's start, for the engine should the move be long;
            // a sowing move's is rebuilt from the lifted hole instead.
            let mut step_start = None;
            // Four times the seeds lifted, the hole sown from, the
            // direction sown, the hole chosen, the direction drawn.
            let (mut seeds4, mut from, mut dir, mut lane, mut d) = (0, 0, 0, 0, 0);
            let mut cont = usize::MAX;
            // The lone seed's step's capture, counted by the engine too
            // should the turn be handed over.
            let mut step_caps = MoveTotals::default();
            let mut sowing = true;
            let chosen = match ahead.take() {
                Some((p, n)) => {
                    // The draw `first_draw` read.
                    rng.next_u64();
                    o.legal_moves += n as u64;
                    o.choice_turns += (n > 1) as u64;
                    Some(p)
                }
                None => {
                    let (base0, nholes) = self.sowing_holes::<S>(s.occ);
                    let nsow = nholes << two as u32;
                    let step = self.lone_step::<S>(&s);
                    let count = nsow + step.is_some() as u32;
                    o.legal_moves += count as u64;
                    let k = if count == 1 && !F {
                        0
                    } else {
                        o.choice_turns += 1;
                        match agent.greedy_now(&mut rng) {
                            false => below(&mut rng, count as usize) as u32,
                            true => {
                                let turn = Turn {
                                    mover,
                                    fixed,
                                    plies: o.plies,
                                };
                                self.greedy::<S>(
                                    rules,
                                    &s,
                                    turn,
                                    two,
                                    (base0, nholes),
                                    step,
                                    &mut rng,
                                )
                            }
                        }
                    };
                    // Without lone-seed steps every move sows: saying so
                    // lets the compiler drop the step's state from the
                    // other kernels' ply loop.
                    if !S::LONE_STRAIGHT || k < nsow {
                        Some(self.pick::<S>(s.occ, mover, two, k, base0, nholes))
                    } else {
                        // The lone seed's step (Ludii): the entered hole
                        // was empty.
                        sowing = false;
                        step_start = Some(s);
                        let (a, b) = step.unwrap_or((0, 0));
                        let mv = Move::step(self.hole_of(mover, a), self.hole_of(mover, b));
                        o.hash = chain_hash(o.hash, mv.code());
                        rec(mv);
                        s.me = s.me - self.unit[a & (LANES - 1)] + self.unit[b & (LANES - 1)];
                        s.occ = 1 << b;
                        let Some((x, vl)) = self.step_victim::<S>(&s, b) else {
                            o.plies += 1;
                            s.swap();
                            mover = 1 - mover;
                            continue;
                        };
                        s.opp &= self.clear[vl & (LANES - 1)];
                        s.oocc &= !(1 << vl);
                        step_caps = MoveTotals {
                            captures: 1,
                            seeds: x as u64,
                            ..MoveTotals::default()
                        };
                        o.add_move(mover, step_caps);
                        s.me += self.unit[b & (LANES - 1)] * x as u128;
                        if s.oocc == 0 && self.empty_ends {
                            o.plies += 1;
                            s.swap();
                            mover = 1 - mover;
                            continue;
                        }
                        // The second decision: the direction of the sowing
                        // on, a turn of two legal moves.
                        cont = b;
                        o.legal_moves += 2;
                        // A turn counts once in `choice_turns`: here only
                        // if the step itself was forced (counted above
                        // otherwise).
                        o.choice_turns += (count == 1 && !F) as u64;
                        let dd = match agent.greedy_now(&mut rng) {
                            false => below(&mut rng, 2),
                            true => {
                                let turn = Turn {
                                    mover,
                                    fixed,
                                    plies: o.plies,
                                };
                                let start = step_start.unwrap_or(s);
                                self.greedy_continuation::<S>(
                                    rules,
                                    &s,
                                    &start,
                                    turn,
                                    (a, b),
                                    &mut rng,
                                )
                            }
                        };
                        o.hash = chain_hash(o.hash, self.code[mover][b & (LANES - 1)][1 + dd]);
                        rec(Move::sow(self.hole_of(mover, b), Some(dir_of(dd))));
                        seeds4 = 4 * val::<S>(s.me, self.shift[b & (LANES - 1)]);
                        s.me &= self.clear[b & (LANES - 1)];
                        s.occ = 0;
                        from = b;
                        dir = dd;
                        lane = a;
                        d = dd;
                        None
                    }
                }
            };
            if let Some(p) = chosen {
                lane = p.lane;
                d = p.d;
                dir = Self::sowing_dir::<S>(&mut fixed[mover], d);
                let li = lane & (LANES - 1);
                o.hash = chain_hash(o.hash, self.code[mover][li][two as usize * (1 + d)]);
                rec(Move::sow(
                    self.hole_of(mover, lane),
                    two.then_some(dir_of(d)),
                ));
                seeds4 = lane4::<S>(s.me as u64, (s.me >> 64) as u64, p.rot);
                s.me &= self.clear[li];
                s.occ &= !(1 << li);
                from = lane;
            }
            // The next mover's choice, drawn beside this move's laps.
            let them = 1 - mover;
            let spec =
                self.draw_ahead::<S, G, F>((agents, opening), &s, o.plies + 1, them, fixed, &rng);
            let oocc_before = s.oocc;
            let Some(r) = self.sow::<S>(&mut s, dir, from, seeds4) else {
                let lifted = (lane, seeds4, two, d, cont, sowing);
                let turn = (mover, fixed, &mut o, &mut fallbacks);
                match self.hand_over::<S>(rules, turn, &s, step_start, step_caps, lifted) {
                    Some(next) => (s, fixed) = next,
                    None => break,
                }
                mover = 1 - mover;
                continue;
            };
            o.add_move(mover, r);
            // A capture empties a hole of theirs: their side changed.
            if s.oocc == oocc_before {
                ahead = spec;
            }
            o.plies += 1;
            s.swap();
            mover = 1 - mover;
        }
        *rng_out = rng;
        (o, fallbacks)
    }

    /// How the game ends before the mover's turn, if it does: at the ply
    /// limit, or with no seed to move (singletons are allowed, so no move
    /// at all).
    #[inline(always)]
    fn game_over(&self, s: &Side2, plies: u32, mover: usize) -> Option<Status> {
        if plies >= self.ply_limit {
            Some(if s.occ == 0 {
                Status::Won(player(1 - mover))
            } else {
                Status::PlyLimit
            })
        } else if s.occ == 0 {
            Some(Status::Won(player(1 - mover)))
        } else {
            None
        }
    }

    /// Ludii's lone seed's straight step, if the mover has one: from its
    /// lane to the lane ahead (no-failed-capture: into the inner row only
    /// to capture, docs/RULES.md §7).
    #[inline(always)]
    pub(super) fn lone_step<S: Spec>(&self, s: &Side2) -> Option<(usize, usize)> {
        if !(S::LONE_STRAIGHT && s.occ.is_power_of_two()) {
            return None;
        }
        let l = s.occ.trailing_zeros() as usize;
        if val::<S>(s.me, self.shift[l & (LANES - 1)]) != 1
            || (self.row_of[l & (LANES - 1)] as usize) + 1 >= S::DEPTHS
        {
            return None;
        }
        let to = l + self.cols;
        (!self.lane[to & (LANES - 1)].inner || self.step_victim::<S>(s, to).is_some())
            .then_some((l, to))
    }

    /// The next mover's choice and legal move count, drawn now from their
    /// side as it is: it does not depend on this move's laps, which change
    /// only the mover's side unless they capture. So the choice's chain of
    /// loads runs beside the laps' chain instead of after it; a capture
    /// (or a long move) drops it. Only for a random choice, and not when
    /// the next turn might draw nothing (the ply limit) or might offer a
    /// lone seed's step (which depends on this side).
    #[inline(always)]
    fn draw_ahead<S: Spec, const G: bool, const F: bool>(
        &self,
        (agents, opening): ([Agent; 2], u32),
        s: &Side2,
        plies: u32,
        them: usize,
        fixed: [u8; 2],
        rng: &GameRng,
    ) -> Option<(Pick, u32)> {
        if Self::agent_at::<G>(agents, opening, plies, them) != Agent::Random
            || plies >= self.ply_limit
            || s.oocc == 0
            || (S::LONE_STRAIGHT && s.oocc.is_power_of_two())
        {
            return None;
        }
        let two = Self::two_dirs::<S>(fixed[them]);
        let (base0, nholes) = self.sowing_holes::<S>(s.oocc);
        let count = nholes << two as u32;
        let k = first_draw(rng, count, F)?;
        Some((self.pick::<S>(s.oocc, them, two, k, base0, nholes), count))
    }

    /// A long move: the engine replays the whole turn from its start, with
    /// the decisions already drawn (`lifted`: the lane chosen, four times
    /// its seeds, whether a direction was chosen and which, the step's
    /// continuation, whether the turn sowed from its start), and settles
    /// endless moves and the lap limit exactly. The step's capture, counted
    /// already, is taken back: the engine counts it too. Returns the sides
    /// and fixed directions after the turn, or `None` if the game ended.
    #[inline(always)]
    fn hand_over<S: Spec>(
        &self,
        rules: &Rules,
        (mover, fixed, o, fallbacks): (usize, [u8; 2], &mut GameRecord, &mut u32),
        s: &Side2,
        step_start: Option<Side2>,
        step_caps: MoveTotals,
        (lane, seeds4, two, d, cont, sowing): (usize, u32, bool, usize, usize, bool),
    ) -> Option<(Side2, [u8; 2])> {
        o.captures[mover] -= step_caps.captures;
        o.seeds_captured[mover] -= step_caps.seeds;
        let start = step_start.unwrap_or_else(|| {
            let mut st = *s;
            st.me += self.unit[lane & (LANES - 1)] * (seeds4 / 4) as u128;
            st.occ |= 1 << (lane & (LANES - 1));
            st
        });
        let mut before = fixed;
        if S::DIR == DirKind::OncePerGame && two && sowing {
            before[mover] = 0;
        }
        let moves = self.decisions(mover, lane, two, d, cont, sowing);
        let turn = Turn {
            mover,
            fixed: before,
            plies: o.plies,
        };
        self.fallback(rules, (o, fallbacks), turn, &start, &moves)
    }

    /// The greedy agent's choice (`agents::greedy`): the move capturing
    /// most seeds this turn, ties broken by reservoir sampling, the moves
    /// tried in the listing order. Returns its index in that order.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn greedy<S: Spec>(
        &self,
        rules: &Rules,
        s: &Side2,
        turn: Turn,
        two: bool,
        (base0, nholes): (usize, u32),
        step: Option<(usize, usize)>,
        rng: &mut GameRng,
    ) -> u32 {
        let nsow = nholes << two as u32;
        let count = nsow + step.is_some() as u32;
        let mut best = Best::default();
        for k in 0..count {
            let seeds = self.move_seeds::<S>(rules, s, turn, two, (base0, nholes), step, k);
            best.offer(k, seeds, rng);
        }
        best.k
    }

    /// The seeds the `k`-th legal move captures this turn (the engine's
    /// `seeds_captured`; a long move is the engine's to play).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn move_seeds<S: Spec>(
        &self,
        rules: &Rules,
        s: &Side2,
        turn: Turn,
        two: bool,
        (base0, nholes): (usize, u32),
        step: Option<(usize, usize)>,
        k: u32,
    ) -> u64 {
        if k < nholes << two as u32 {
            let p = self.pick::<S>(s.occ, turn.mover, two, k, base0, nholes);
            let n4 = lane4::<S>(s.me as u64, (s.me >> 64) as u64, p.rot);
            self.sowing_seeds::<S>(rules, s, turn, two, (p.lane, n4, p.d))
        } else {
            self.step_seeds::<S>(s, step.unwrap_or((0, 0)))
        }
    }

    /// The seeds the sowing move from `lane` (holding a quarter of `n4`
    /// seeds) in drawn direction `d` captures this turn.
    #[inline(always)]
    fn sowing_seeds<S: Spec>(
        &self,
        rules: &Rules,
        s: &Side2,
        turn: Turn,
        two: bool,
        (lane, n4, d): (usize, u32, usize),
    ) -> u64 {
        let mut f = turn.fixed[turn.mover];
        let dir = Self::sowing_dir::<S>(&mut f, d);
        let mut t = *s;
        let li = lane & (LANES - 1);
        t.me &= self.clear[li];
        t.occ &= !(1 << li);
        match self.sow::<S>(&mut t, dir, lane, n4) {
            Some(r) => r.seeds,
            None => {
                let moves = self.decisions(turn.mover, lane, two, d, usize::MAX, true);
                self.engine_seeds(rules, turn, s, &moves)
            }
        }
    }

    /// The step's own capture (its continuation is a decision of its
    /// own).
    #[inline(always)]
    fn step_seeds<S: Spec>(&self, s: &Side2, (a, b): (usize, usize)) -> u64 {
        let mut t = *s;
        t.me = t.me - self.unit[a & (LANES - 1)] + self.unit[b & (LANES - 1)];
        self.step_victim::<S>(&t, b).map_or(0, |(x, _)| x as u64)
    }

    /// The lanes the sowing moves start from: the row from lane `base0`
    /// ([`Kernel::sowing_holes`]), every row under `start = "any"`; the
    /// mover's occupied ones among them are the moves.
    #[inline(always)]
    pub(super) fn sowing_lanes<S: Spec>(&self, base0: usize) -> u32 {
        let rows = if S::START_ANY { S::DEPTHS } else { 1 };
        (((1u64 << (rows * self.cols)) - 1) << base0) as u32
    }

    /// The most seeds one legal move of the player to move in `pos`
    /// captures this turn, each move's `seeds_captured` as the engine
    /// plays it (alpha-beta's fitted evaluation reads it at every leaf);
    /// `None` when `pos` is mid-turn (a continuation pending, which the
    /// kernel does not represent) or has no legal move.
    pub(crate) fn max_capture(&self, rules: &Rules, pos: &Position) -> Option<u64> {
        if pos.pending().is_some() || pos.ended().is_some() || pos.plies() >= self.ply_limit {
            return None;
        }
        match self.which {
            Which::Canonical3 => self.max_capture_as::<Canonical6x6>(rules, pos),
            Which::Canonical2 => self.max_capture_as::<Canonical4xN>(rules, pos),
            Which::Canonical1 => self.max_capture_as::<Canonical2xN>(rules, pos),
            Which::Wikipedia => self.max_capture_as::<Wikipedia6x6>(rules, pos),
            Which::Ludii => self.max_capture_as::<Ludii6x6>(rules, pos),
            Which::Boaoaka => self.max_capture_as::<Boaoaka4x8>(rules, pos),
        }
    }

    fn max_capture_as<S: Spec>(&self, rules: &Rules, pos: &Position) -> Option<u64> {
        let mover = pos.to_move().index();
        let turn = Turn {
            mover,
            fixed: [
                dir_code(pos.fixed_dir(Player::South)),
                dir_code(pos.fixed_dir(Player::North)),
            ],
            plies: pos.plies(),
        };
        self.max_capture_sides::<S>(rules, &self.sides_of(pos, mover), turn)
    }

    /// [`Kernel::max_capture`] of the position of sides `s` in `turn`
    /// (nothing pending).
    #[inline(always)]
    pub(super) fn max_capture_sides<S: Spec>(
        &self,
        rules: &Rules,
        s: &Side2,
        turn: Turn,
    ) -> Option<u64> {
        if s.occ == 0 {
            return None;
        }
        let two = Self::two_dirs::<S>(turn.fixed[turn.mover]);
        let (base0, nholes) = self.sowing_holes::<S>(s.occ);
        let step = self.lone_step::<S>(s);
        if nholes == 0 && step.is_none() {
            return None;
        }
        // The most is the same in any order, so the holes are taken
        // lowest lane first, each read directly, instead of each move
        // found by its place in the listing order (`Kernel::pick`): every
        // leaf of alpha-beta's fitted evaluation asks this.
        let mut lanes = s.occ & self.sowing_lanes::<S>(base0);
        debug_assert_eq!(lanes.count_ones(), nholes);
        let mut most = step.map_or(0, |st| self.step_seeds::<S>(s, st));
        while lanes != 0 {
            let lane = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let n4 = 4 * val::<S>(s.me, self.shift[lane & (LANES - 1)]);
            for d in 0..1 + two as usize {
                most = most.max(self.sowing_seeds::<S>(rules, s, turn, two, (lane, n4, d)));
            }
        }
        Some(most)
    }

    /// Greedy's choice of the direction a capturing step sows on in: `s`
    /// is the position after the step's capture, `start` the turn's
    /// start, `(a, b)` the step.
    pub(super) fn greedy_continuation<S: Spec>(
        &self,
        rules: &Rules,
        s: &Side2,
        start: &Side2,
        turn: Turn,
        (a, b): (usize, usize),
        rng: &mut GameRng,
    ) -> usize {
        let mut best = Best::default();
        for dd in 0..2 {
            let mut t = *s;
            let bl = b & (LANES - 1);
            let n4 = 4 * val::<S>(t.me, self.shift[bl]);
            t.me &= self.clear[bl];
            t.occ = 0;
            let seeds = match self.sow::<S>(&mut t, dd, b, n4) {
                Some(r) => r.seeds,
                None => {
                    let moves = self.decisions(turn.mover, a, true, dd, b, false);
                    self.engine_seeds(rules, turn, start, &moves)
                }
            };
            best.offer(dd as u32, seeds, rng);
        }
        best.k as usize
    }

    /// Whether `all-ones` refuses a capture after an empty landing facing
    /// `info`'s column: every hole of it holds exactly one seed.
    #[inline(always)]
    pub(super) fn refused<S: Spec>(&self, op: u128, oocc: u32, info: &LaneInfo) -> bool {
        if !self.all_ones || oocc & info.facing != info.facing {
            return false;
        }
        let mut col = info.facing;
        while col != 0 {
            if val::<S>(op, self.shift[col.trailing_zeros() as usize & (LANES - 1)]) != 1 {
                return false;
            }
            col &= col - 1;
        }
        true
    }

    /// The victim of a lone seed's step into lane `to` (an empty hole, so
    /// `min_victim_seeds_after_empty` applies): its seeds and lane.
    #[inline(always)]
    pub(super) fn step_victim<S: Spec>(&self, s: &Side2, to: usize) -> Option<(u32, usize)> {
        let info = &self.lane[to & (LANES - 1)];
        let col = s.oocc & info.facing;
        if !info.inner || col == 0 {
            return None;
        }
        // The first occupied hole going outward: the highest lane.
        let vl = (31 - col.leading_zeros()) as usize;
        let x = val::<S>(s.opp, self.shift[vl & (LANES - 1)]);
        (x >= self.min_empty && !self.refused::<S>(s.opp, s.oocc, info)).then_some((x, vl))
    }

    /// Sows `n` seeds lifted from lane `from` and every lap after it.
    /// Returns false if the move reached the fallback lap count: the
    /// caller then has the current engine replay the turn.
    #[inline(always)]
    pub(super) fn sow<S: Spec>(
        &self,
        s: &mut Side2,
        dir: usize,
        from: usize,
        n4: u32,
    ) -> Option<MoveTotals> {
        let mut idx = self.start4[dir & 1][from & (LANES - 1)] as usize + n4 as usize;
        // Counted locally and added to `o` only when the move ends here,
        // packed so that the lap loop carries fewer registers (as
        // [`packed_totals`] reads them): one add a lap, one a capture.
        let (mut sown, mut took) = (0u64, 0u64);
        let mut vic = self.victim_row::<S>(s.oocc);
        let (mut op, mut oocc) = (s.opp, s.oocc);
        let (mut lo, mut hi, mut occ) = (s.me as u64, (s.me >> 64) as u64, s.occ);
        let limit = self.fallback_laps << LAP_SHIFT;
        // 4 times the seeds in hand.
        let mut n32 = n4;
        loop {
            let r = self.record(idx);
            let empty = !occ & r.once != 0;
            (lo, hi, occ) = r.sown(lo, hi, occ);
            sown += (1 << LAP_SHIFT) + n32 as u64;
            let l = r.land as usize & (LANES - 1);
            let v32 = lane4::<S>(lo, hi, r.rot);
            let info = &self.lane[l];
            let maybe = may_capture::<S>(empty, occ, oocc, info, vic[l]);
            if empty | maybe {
                if maybe && let Some(x) = self.capture::<S>(&mut op, &mut oocc, info, vic[l], empty)
                {
                    took += (1 << 16) + x as u64;
                    if oocc == 0 && self.empty_ends {
                        // The capture took the opponent's last seed: the
                        // move and the game end (docs/RULES.md §9).
                        break;
                    }
                    vic = self.victim_row::<S>(oocc);
                    took += 1 << 32;
                    n32 = v32 + 4 * x;
                    (lo, hi, occ) = info.lifted(lo, hi, occ);
                    idx = (r.next4 + n32) as usize;
                    if sown >= limit {
                        return None;
                    }
                    continue;
                }
                if empty {
                    break;
                }
            }
            if sown >= limit {
                return None;
            }
            (lo, hi, occ) = info.lifted(lo, hi, occ);
            n32 = v32;
            idx = (r.next4 + v32) as usize;
        }
        *s = Side2::from_halves((lo, hi), op, occ, oocc);
        Some(packed_totals(sown, took))
    }

    /// The lap record at word `idx`.
    #[inline(always)]
    fn record(&self, idx: usize) -> Rec {
        // Indexed with a bounds check, not a mask: the check is a
        // predicted branch beside the chain, a mask would lengthen it.
        let w: &[u64; 4] = self.words[idx..idx + 4].try_into().unwrap_or(&[0; 4]);
        Rec::unpack(w)
    }

    /// The canonical victims' occupancy bits by landing lane, for the
    /// opponent's occupancy `oocc` (their innermost non-empty row); one
    /// fixed row for the other capture kinds, which do not use it.
    #[inline(always)]
    fn victim_row<S: Spec>(&self, oocc: u32) -> &[u32; LANES] {
        let canonical = matches!(S::CAP, CapKind::Canonical | CapKind::CanonicalEmpty);
        &self.vic[if canonical {
            self.inner_row(oocc) & 3
        } else {
            0
        }]
    }

    /// The exact capture test of a landing that may capture; lifts the
    /// victims and returns their seeds if it does. `vbit` is the canonical
    /// victim's occupancy bit.
    #[inline(always)]
    pub(super) fn capture<S: Spec>(
        &self,
        op: &mut u128,
        oocc: &mut u32,
        info: &LaneInfo,
        vbit: u32,
        empty: bool,
    ) -> Option<u32> {
        let min = if empty {
            self.min_empty
        } else {
            self.min_occupied
        };
        let vl = match S::CAP {
            CapKind::Canonical | CapKind::CanonicalEmpty => vbit.trailing_zeros() as usize,
            // The first occupied hole of the column going outward.
            CapKind::InnerColumn => (31 - (*oocc & info.facing).leading_zeros()) as usize,
            CapKind::InnerWholeColumn => {
                let mut x = 0;
                let mut col = *oocc & info.facing;
                while col != 0 {
                    x += val::<S>(*op, self.shift[col.trailing_zeros() as usize & (LANES - 1)]);
                    col &= col - 1;
                }
                if x >= min && !(empty && self.refused::<S>(*op, *oocc, info)) {
                    let mut col = *oocc & info.facing;
                    while col != 0 {
                        *op &= self.clear[col.trailing_zeros() as usize & (LANES - 1)];
                        col &= col - 1;
                    }
                    *oocc &= !info.facing;
                    return Some(x);
                }
                return None;
            }
        } & (LANES - 1);
        let x = val::<S>(*op, self.shift[vl]);
        if x > 0 && x >= min && !(empty && self.refused::<S>(*op, *oocc, info)) {
            *op &= self.clear[vl];
            *oocc &= !(1 << vl);
            return Some(x);
        }
        None
    }
}

/// Whether a landing on `info`'s lane may capture, in straight-line code
/// (the exact test, minimum seeds, is made on the rare path): `empty`
/// whether the hole was empty, `occ` and `oocc` both sides' occupancy
/// after the lap, `vbit` the canonical victim's bit.
#[inline(always)]
fn may_capture<S: Spec>(empty: bool, occ: u32, oocc: u32, info: &LaneInfo, vbit: u32) -> bool {
    match S::CAP {
        CapKind::Canonical => !empty & (occ & info.deeper == 0) & (oocc & vbit != 0),
        CapKind::CanonicalEmpty => empty & (occ & info.deeper == 0) & (oocc & vbit != 0),
        CapKind::InnerColumn => !empty & info.inner & (oocc & info.facing != 0),
        CapKind::InnerWholeColumn => info.inner & (oocc & info.facing != 0),
    }
}

/// A move's totals from the lap loop's packed counts: `sown` holds the
/// laps from bit LAP_SHIFT and four times the seeds sown below it (so
/// the lap limit compares the whole word); `took` holds the seeds
/// captured, the captures from bit 16 and the laps begun by a capture
/// from bit 32.
#[inline(always)]
fn packed_totals(sown: u64, took: u64) -> MoveTotals {
    let laps = sown >> LAP_SHIFT;
    MoveTotals {
        laps,
        // Every lap but the first and those a capture begins.
        relays: laps - 1 - (took >> 32),
        sown: (sown & ((1 << LAP_SHIFT) - 1)) / 4,
        captures: (took >> 16) & 0xffff,
        seeds: took & 0xffff,
    }
}
