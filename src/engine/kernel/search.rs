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
        let rows = if S::START_ANY {
            u32::MAX >> (32 - self.side)
        } else {
            ((1u32 << self.cols) - 1) << f.base0
        };
        let mut lanes = f.s.occ & rows;
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

    /// The holes of `c`'s engine position, for the table's hash.
    pub(crate) fn sown_holes(&self, c: &Sown) -> [u16; MAX_HOLES] {
        dispatch!(self, sown_holes_as, c)
    }

    fn sown_holes_as<S: Spec>(&self, c: &Sown) -> [u16; MAX_HOLES] {
        // Every node the kernel searches is hashed: lanes read by constant
        // shifts of 64-bit halves, holes written in runs whose lengths the
        // compiler knows (`engine_position`'s loop, a `u128` shift by a
        // loaded amount and two loaded hole numbers a lane, was 575
        // instructions a node on katro-6x6).
        let (south, north) = if c.turn.mover == 0 {
            (c.s.me, c.s.opp)
        } else {
            (c.s.opp, c.s.me)
        };
        let mut holes = [0u16; MAX_HOLES];
        let side = self.side;
        // South's lane `l` is hole `l`, North's hole `2 side - 1 - l`
        // (`Kernel::lane_holes`).
        let (south_holes, rest) = holes.split_at_mut(side);
        let north_holes = &mut rest[..side];
        let wmask = (1u64 << S::W) - 1;
        let halves = [
            (south as u64, north as u64),
            ((south >> 64) as u64, (north >> 64) as u64),
        ];
        for (j, (sh, nh)) in halves.into_iter().enumerate() {
            for i in 0..S::LPW as usize {
                let l = j * S::LPW as usize + i;
                if l >= side {
                    break;
                }
                let shift = i as u32 * S::W;
                south_holes[l] = ((sh >> shift) & wmask) as u16;
                north_holes[side - 1 - l] = ((nh >> shift) & wmask) as u16;
            }
        }
        holes
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
