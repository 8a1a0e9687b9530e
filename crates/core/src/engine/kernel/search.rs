//! Alpha-beta on the kernel's sides: a node plays its sowing moves here,
//! its children are searched from their sides (their moves listed, their
//! table hash taken, their own children played here) and its leaves are
//! scored here, so no node the kernel played is an engine position (each
//! was a ~290-byte copy, an engine move and, at the leaf, a conversion
//! back to sides).

use super::*;

/// A node whose children the kernel plays, as the kernel sees it: its
/// sides and turn, and its sowing moves.
pub(crate) struct Frontier {
    s: Side2,
    turn: Turn,
    two: bool,
    base0: usize,
    nholes: u32,
    step: Option<(usize, usize)>,
    /// Its legal moves, the lone seed's step included, in the listing
    /// order (the engine's).
    count: u32,
}

impl Frontier {
    pub(crate) fn moves(&self) -> usize {
        self.count as usize
    }
}

/// A position one sowing move after a [`Frontier`]: ongoing, not at the
/// ply limit, its mover with a seed (so with a move), nothing pending.
#[derive(Clone, Copy)]
pub(crate) struct Sown {
    s: Side2,
    turn: Turn,
}

impl Sown {
    pub(crate) fn to_move(self) -> Player {
        player(self.turn.mover)
    }
    pub(crate) fn plies(self) -> u32 {
        self.turn.plies
    }
    pub(crate) fn fixed_dir(self, p: Player) -> Option<Dir> {
        dir_from_code(self.turn.fixed[p.index()])
    }
}

/// The four 16-bit fields of a word, the lowest first.
#[inline(always)]
fn fields(w: u64) -> [u16; 4] {
    [
        w as u16,
        (w >> 16) as u16,
        (w >> 32) as u16,
        (w >> 48) as u16,
    ]
}

/// What the fitted evaluation reads of a leaf, from its mover's side:
/// seeds, seeds of the innermost row, holes of two seeds or more and
/// occupied holes, each the mover's less the opponent's; and the most
/// seeds one of its moves captures.
pub(crate) struct LeafCounts {
    pub(crate) counts: [i64; 4],
    pub(crate) capture: u64,
}

macro_rules! dispatch {
    ($self:ident, $f:ident, $($arg:expr),*) => {
        match $self.which {
            Which::Canonical3 => $self.$f::<Canonical6x6>($($arg),*),
            Which::Canonical2 => $self.$f::<Canonical4xN>($($arg),*),
            Which::Canonical1 => $self.$f::<Canonical2xN>($($arg),*),
            Which::Wikipedia => $self.$f::<Wikipedia6x6>($($arg),*),
            Which::Ludii => $self.$f::<Ludii6x6>($($arg),*),
            Which::Boaoaka => $self.$f::<Boaoaka4x8>($($arg),*),
        }
    };
}

impl Kernel {
    /// `pos` as a frontier, or `None` where the kernel does not represent
    /// it (a continuation pending, the game over, the ply limit reached,
    /// no seed to move).
    pub(crate) fn frontier(&self, pos: &Position) -> Option<Frontier> {
        if pos.pending().is_some() || pos.ended().is_some() || pos.plies() >= self.ply_limit {
            return None;
        }
        dispatch!(self, frontier_as, pos)
    }

    fn frontier_as<S: Spec>(&self, pos: &Position) -> Option<Frontier> {
        let mover = pos.to_move().index();
        let turn = Turn {
            mover,
            fixed: [
                dir_code(pos.fixed_dir(Player::South)),
                dir_code(pos.fixed_dir(Player::North)),
            ],
            plies: pos.plies(),
        };
        self.frontier_of::<S>(self.sides_of(pos, mover), turn)
    }

    /// `c` as a frontier: `None` only if its mover has no legal move
    /// after all (the caller then asks the engine).
    pub(crate) fn sown_frontier(&self, c: &Sown) -> Option<Frontier> {
        dispatch!(self, sown_frontier_as, c)
    }

    fn sown_frontier_as<S: Spec>(&self, c: &Sown) -> Option<Frontier> {
        self.frontier_of::<S>(c.s, c.turn)
    }

    #[inline(always)]
    fn frontier_of<S: Spec>(&self, s: Side2, turn: Turn) -> Option<Frontier> {
        if s.occ == 0 {
            return None;
        }
        let two = Self::two_dirs::<S>(turn.fixed[turn.mover]);
        let (base0, nholes) = self.sowing_holes::<S>(s.occ);
        let step = self.lone_step::<S>(&s);
        let count = (nholes << two as u32) + step.is_some() as u32;
        (count > 0).then_some(Frontier {
            s,
            turn,
            two,
            base0,
            nholes,
            step,
            count,
        })
    }

    /// The legal moves of `f` into `out`, in the engine's listing order
    /// (board order, `+` before `-`, the lone seed's step last), which is
    /// the order [`Kernel::frontier_child`] numbers them in.
    pub(crate) fn frontier_moves(&self, f: &Frontier, out: &mut MoveList) {
        dispatch!(self, frontier_moves_as, f, out)
    }

    fn frontier_moves_as<S: Spec>(&self, f: &Frontier, out: &mut MoveList) {
        out.len = 0;
        let mover = f.turn.mover;
        let mut lanes = f.s.occ & self.sowing_lanes::<S>(f.base0);
        // The set bits one at a time, from the board's first hole: the
        // lowest lane for South, the highest for North (`Kernel::pick`).
        while lanes != 0 {
            let l = if mover == 0 {
                lanes.trailing_zeros()
            } else {
                31 - lanes.leading_zeros()
            } as usize;
            lanes &= !(1 << l);
            let from = self.hole_of(mover, l);
            if f.two {
                out.push(Move::sow(from, Some(Dir::Forward)));
                out.push(Move::sow(from, Some(Dir::Backward)));
            } else {
                out.push(Move::sow(from, None));
            }
        }
        if let Some((a, b)) = f.step {
            out.push(Move::step(self.hole_of(mover, a), self.hole_of(mover, b)));
        }
        debug_assert_eq!(out.len(), f.moves());
    }

    /// The holes of `c`'s engine position, for the table's hash, into
    /// `holes`: its first `2 side` holes, the board's; the others are left
    /// as they are (a buffer of zeros, kept by the caller, so that no
    /// node clears or copies 128 holes).
    pub(crate) fn sown_holes(&self, c: &Sown, holes: &mut [u16; MAX_HOLES]) {
        dispatch!(self, sown_holes_as, c, holes)
    }

    fn sown_holes_as<S: Spec>(&self, c: &Sown, holes: &mut [u16; MAX_HOLES]) {
        // Every node the kernel searches is hashed, so four lanes at a time
        // are spread from a 64-bit half into four holes (one store), and
        // North's are turned round by a byte swap: `engine_position`'s
        // loop, a `u128` shift by a loaded amount and two loaded hole
        // numbers a lane, was 575 instructions a node on katro-6x6.
        let (south, north) = if c.turn.mover == 0 {
            (c.s.me, c.s.opp)
        } else {
            (c.s.opp, c.s.me)
        };
        let side = self.side;
        // South's lane `l` is hole `l`, North's hole `2 side - 1 - l`
        // (`Kernel::lane_holes`).
        let (south_holes, rest) = holes.split_at_mut(side);
        let north_holes = &mut rest[..side];
        let wmask = (1u64 << S::W) - 1;
        // Four lanes of `W` bits from the low bits of `x` into the four
        // 16-bit fields of a word, the first lowest.
        let spread = |x: u64| {
            let f = |n: u32| (1u64 << n) - 1;
            let t = x & f(4 * S::W);
            let t = (t | t << (32 - 2 * S::W)) & (f(2 * S::W) | f(2 * S::W) << 32);
            (t | t << (16 - S::W)) & (f(S::W) * 0x0001_0001_0001_0001)
        };
        let halves = [
            (south as u64, north as u64),
            ((south >> 64) as u64, (north >> 64) as u64),
        ];
        let lpw = S::LPW as usize;
        for (j, (sh, nh)) in halves.into_iter().enumerate() {
            let first = j * lpw;
            let mut done = 0;
            for g in 0..lpw / 4 {
                let l = first + 4 * g;
                if l + 4 > side {
                    break;
                }
                let shift = 4 * g as u32 * S::W;
                // A lane holds fewer than 256 seeds (`W` ≤ 8), so the swap
                // leaves each in the high byte of the mirrored field.
                let (sw, nw) = (spread(sh >> shift), spread(nh >> shift).swap_bytes() >> 8);
                south_holes[l..l + 4].copy_from_slice(&fields(sw));
                north_holes[side - 4 - l..side - l].copy_from_slice(&fields(nw));
                done = 4 * g + 4;
            }
            for i in done..lpw {
                let l = first + i;
                if l >= side {
                    break;
                }
                let shift = i as u32 * S::W;
                south_holes[l] = ((sh >> shift) & wmask) as u16;
                north_holes[side - 1 - l] = ((nh >> shift) & wmask) as u16;
            }
        }
    }

    /// The `k`-th legal move of `f` played, and the seeds it captured:
    /// `None` where the engine must play it (the lone seed's step, a long
    /// move) or where the kernel's leaf could not score the result (the
    /// game over, the ply limit reached).
    pub(crate) fn frontier_child(&self, f: &Frontier, k: u32) -> Option<(Sown, u64)> {
        dispatch!(self, frontier_child_as, f, k)
    }

    fn frontier_child_as<S: Spec>(&self, f: &Frontier, k: u32) -> Option<(Sown, u64)> {
        if k >= f.nholes << f.two as u32 {
            return None;
        }
        let mover = f.turn.mover;
        let p = self.pick::<S>(f.s.occ, mover, f.two, k, f.base0, f.nholes);
        let mut fixed = f.turn.fixed;
        let dir = Self::sowing_dir::<S>(&mut fixed[mover], p.d);
        let mut t = f.s;
        let li = p.lane & (LANES - 1);
        let n4 = lane4::<S>(t.me as u64, (t.me >> 64) as u64, p.rot);
        t.me &= self.clear[li];
        t.occ &= !(1 << li);
        let r = self.sow::<S>(&mut t, dir, p.lane, n4)?;
        t.swap();
        let turn = Turn {
            mover: 1 - mover,
            fixed,
            plies: f.turn.plies + 1,
        };
        (t.occ != 0 && turn.plies < self.ply_limit).then_some((Sown { s: t, turn }, r.seeds))
    }

    /// The fitted evaluation's counts of `leaf`; `None` if it has no
    /// legal move after all (the caller then asks the engine).
    pub(crate) fn leaf_counts(&self, rules: &Rules, leaf: &Sown) -> Option<LeafCounts> {
        dispatch!(self, leaf_counts_as, rules, leaf)
    }

    fn leaf_counts_as<S: Spec>(&self, rules: &Rules, leaf: &Sown) -> Option<LeafCounts> {
        let capture = self.max_capture_sides::<S>(rules, &leaf.s, leaf.turn)?;
        let me = self.side_counts::<S>(leaf.s.me, leaf.s.occ);
        let opp = self.side_counts::<S>(leaf.s.opp, leaf.s.oocc);
        Some(LeafCounts {
            counts: [0, 1, 2, 3].map(|i| me[i] - opp[i]),
            capture,
        })
    }

    /// One side's seeds, seeds of its innermost row, holes of two seeds
    /// or more and occupied holes, by word arithmetic on its lanes: a
    /// side holds fewer seeds than a lane can count, so the lanes of a
    /// half summed by one multiply carry into no other lane.
    #[inline(always)]
    fn side_counts<S: Spec>(&self, x: u128, occ: u32) -> [i64; 4] {
        let ones: u64 = (0..S::LPW).fold(0, |m, i| m | 1 << (i * S::W));
        let wmask = (1u64 << S::W) - 1;
        let top = (S::LPW - 1) * S::W;
        let sum = |h: u64| (h.wrapping_mul(ones) >> top) & wmask;
        let halves = |x: u128| sum(x as u64) + sum((x >> 64) as u64);
        // A lane holds two or more when a bit above its lowest is set:
        // the bits below its top bit, plus all ones below it, carry into
        // the top bit exactly when one of them is set (never further).
        let low = ones * ((1 << (S::W - 1)) - 1);
        let high = ones << (S::W - 1);
        let two_or_more = |h: u64| {
            let t = h & !ones;
            ((((t & low) + low) | t) & high).count_ones()
        };
        [
            halves(x) as i64,
            halves(x & self.inner_lanes) as i64,
            i64::from(two_or_more(x as u64) + two_or_more((x >> 64) as u64)),
            i64::from(occ.count_ones()),
        ]
    }

    /// `leaf` as an engine position.
    pub(crate) fn leaf_position(&self, leaf: &Sown) -> Position {
        self.engine_position(&leaf.s, leaf.turn)
    }
}
