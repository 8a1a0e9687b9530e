//! The lane kernel: a second, faster way to play whole games of the rule
//! sets it supports, move for move as the engine plays them (the same
//! legal moves in the same order, the same random draws).
//!
//! Each side is one `u128` of seed counts ("lanes"), seen from its owner
//! (the mover's side and the opponent's side swap every ply), and a lap is
//! one table record per (direction, lifted lane, seeds in hand) holding the
//! whole lap's add mask with full rounds folded in and the landing lane.
//! Rule decisions are compiled per rule set ([`Spec`]), so no setting is
//! read in the lap loop. A move still going after [`FALLBACK_LAPS`] laps is
//! handed to the engine, which settles endless moves and the lap limit
//! (docs/RULES.md §8). docs/PERFORMANCE.md has the design, the settings
//! supported and the figures.

use std::fmt;

use super::{
    Dir, MAX_HOLES, Move, NO_HOLE, Player, Position, Silent, Status, chain_hash, occupancy,
};
use crate::rng::{GameRng, below, rng_from_seed, unit};
use crate::rules::{
    CaptureTrigger, CapturingRow, DirectionRule, EmptyLandingRefusal, GameEnd, LoneSeed,
    LoneSeedStep, Relay, Rules, Singletons, StartRule, StepSowing, VictimRule,
};

/// Lanes a side may have (a power of two so an index masked by it needs no
/// bounds check).
const LANES: usize = 32;
/// Seeds in hand a lap may carry, plus one: above any lane width.
const HANDS: usize = 256;
/// Rows a side a kernel plays, at most.
const DEPTHS: usize = 3;

/// Laps after which a move is handed to the current engine, which detects
/// endless moves exactly and applies the lap limit (docs/RULES.md §8).
/// Almost every move ends sooner; the engine itself starts its cycle
/// search at lap 64.
pub const FALLBACK_LAPS: u64 = 64;

/// How a direction is chosen (docs/RULES.md §3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DirKind {
    Forward,
    EachMove,
    OncePerGame,
}

/// The capture rules a kernel is compiled for (docs/RULES.md §5): trigger,
/// capturing row and victim rule together, because together they decide
/// what the lap loop tests.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CapKind {
    /// Occupied trigger, innermost non-empty capturing row, victim in the
    /// opponent's innermost non-empty row.
    Canonical,
    /// The same with the empty trigger (Wikipedia's reading): the
    /// victims and the landing seed are sown on.
    CanonicalEmpty,
    /// Occupied trigger, inner capturing row, first occupied hole of the
    /// facing column (Ludii).
    InnerColumn,
    /// Either trigger, inner capturing row, the whole facing column
    /// (Katra Boaoaka).
    InnerWholeColumn,
}

/// A rule set's shape as constants, so each kernel is compiled with its
/// tests decided and no setting is read inside the lap loop.
pub trait Spec {
    const NAME: &'static str;
    /// Bits per lane: it must hold the whole seed total.
    const W: u32;
    /// Lanes per 64-bit half: no lane straddles the halves, so a lane is
    /// read with one shift of one half.
    const LPW: u32;
    /// Rows a side: loops over rows unroll.
    const DEPTHS: usize;
    const START_ANY: bool;
    const DIR: DirKind;
    const CAP: CapKind;
    /// Ludii's lone seed: a straight step, offered into the inner row only
    /// when it captures, the onward direction chosen as a second decision.
    const LONE_STRAIGHT: bool;
}

/// A kernel: a type whose [`Spec`] constants are the given values.
macro_rules! spec {
    ($(#[$doc:meta])* $ty:ident: $name:literal, lanes $w:literal bits, $lpw:literal a half,
     $depths:literal rows, start any $any:literal, $dir:ident, $cap:ident, lone straight $lone:literal) => {
        $(#[$doc])*
        pub struct $ty;
        impl Spec for $ty {
            const NAME: &'static str = $name;
            const W: u32 = $w;
            const LPW: u32 = $lpw;
            const DEPTHS: usize = $depths;
            const START_ANY: bool = $any;
            const DIR: DirKind = DirKind::$dir;
            const CAP: CapKind = CapKind::$cap;
            const LONE_STRAIGHT: bool = $lone;
        }
    };
}

spec!(
    /// katro-6x6, and the canonical rules on any board of three rows a side.
    Canonical6x6: "canonical, 3 rows a side", lanes 7 bits, 9 a half, 3 rows,
    start any false, Forward, Canonical, lone straight false
);
spec!(
    /// The canonical rules on boards of two rows a side (katro-4x4, 4x6).
    Canonical4xN: "canonical, 2 rows a side", lanes 7 bits, 9 a half, 2 rows,
    start any false, Forward, Canonical, lone straight false
);
spec!(
    /// The canonical rules on boards of one row a side (Katrayo's shape).
    Canonical2xN: "canonical, 1 row a side", lanes 7 bits, 9 a half, 1 rows,
    start any false, Forward, Canonical, lone straight false
);
spec!(
    /// katro-wikipedia: the canonical victims, the empty trigger, a
    /// direction each move.
    Wikipedia6x6: "Wikipedia, 3 rows a side", lanes 7 bits, 9 a half, 3 rows,
    start any false, EachMove, CanonicalEmpty, lone straight false
);
spec!(
    /// katro-ludii.
    Ludii6x6: "Ludii, 3 rows a side", lanes 7 bits, 9 a half, 3 rows,
    start any false, EachMove, InnerColumn, lone straight true
);
spec!(
    /// katra-boaoaka-4x8.
    Boaoaka4x8: "Katra Boaoaka, 2 rows a side", lanes 8 bits, 8 a half, 2 rows,
    start any true, OncePerGame, InnerWholeColumn, lone straight false
);

/// One lap: what it adds to the mover's side and where it lands.
#[derive(Clone, Copy, Default)]
struct Rec {
    /// The lap's add mask, low and high halves: added without a carry
    /// between them (no lane straddles the halves or overflows), so
    /// neither half waits for the other.
    add_lo: u64,
    add_hi: u64,
    /// Lanes the lap drops a seed into, one bit a lane.
    occ: u32,
    /// Word index (in [`Kernel::words`]) of the record block of the
    /// landing lane in this direction: the next lap's record starts at
    /// word `next4 + 4 * seeds in hand`, and [`lane4`] gives 4 times the
    /// seeds directly, so no shift sits between one lap's load and the
    /// next (the address scales by 8 for free).
    next4: u32,
    /// The landing lane's half (bit 6) and the rotation that brings it
    /// to bits 2.. of that half (bits 0..6).
    rot: u8,
    land: u8,
    /// The landing lane's bit when the lap drops one seed there (at most
    /// a circuit of seeds), else 0: the landing is then on an empty hole
    /// exactly when that bit was clear before the lap, which is known
    /// from the record alone, before the add (the loop's exit branch
    /// resolves sooner).
    once: u32,
}

/// 4 times the seeds of a lane, by one rotation of its half: `rot` is
/// [`Rec::rot`].
#[inline(always)]
fn lane4<S: Spec>(lo: u64, hi: u64, rot: u8) -> u32 {
    let half = if rot & 64 != 0 { hi } else { lo };
    (half.rotate_right(rot as u32 & 63) & (((1u64 << S::W) - 1) << 2)) as u32
}

impl Rec {
    #[inline(always)]
    fn unpack(w: &[u64; 4]) -> Rec {
        Rec {
            add_lo: w[0],
            add_hi: w[1],
            occ: w[2] as u32,
            next4: (w[2] >> 32) as u32,
            rot: w[3] as u8,
            land: (w[3] >> 8) as u8,
            once: (w[3] >> 32) as u32,
        }
    }
}

/// What a landing lane needs for its tests.
#[derive(Clone, Copy, Default)]
struct LaneInfo {
    /// Every bit but the lane's: lifting it.
    clear: u128,
    /// The lane's occupancy bit.
    bit: u32,
    /// The mover's rows deeper than this lane's (canonical capturing
    /// row), as occupancy bits.
    deeper: u32,
    /// The facing column on the opponent's side, as their occupancy bits.
    facing: u32,
    inner: bool,
}

pub(crate) struct Kernel {
    which: Which,
    /// One lane's bits.
    wmask: u64,
    cols: usize,
    side: usize,
    /// The records, four words each: add low, add high, occ | next4 <<
    /// 32, rot | land << 8; for each direction and lane, one per seed
    /// count from 0 to the seed total (sized to the rules, not to the
    /// largest board: a sweep may hold thousands of rule sets).
    words: Box<[u64]>,
    /// `start4[dir][lane]`: word index of the records of a lap from that
    /// lane in that direction.
    start4: [[u32; LANES]; 2],
    lane: [LaneInfo; LANES],
    /// `shift[l]`: bit offset of lane `l`.
    shift: [u8; LANES],
    /// `clear[l]`: every bit but lane `l`'s.
    clear: [u128; LANES],
    unit: [u128; LANES],
    /// `row_of[l]`: the depth of lane `l`.
    row_of: [u8; LANES],
    /// Occupied holes of one row (a pattern of `cols` bits): how many, and
    /// the k-th of them.
    count: [u8; 256],
    /// `pick[row][pattern][k]`: the k-th occupied hole of the row at
    /// depth `row` with that pattern: its lane, and above bit 8 the
    /// rotation [`lane4`] reads it with; one load from the choice to the
    /// first record. One row more than a side has, so `row & DEPTHS`
    /// indexes it with no bounds check (DEPTHS + 1 is a power of two).
    pick: Box<[[[u16; 8]; 256]; DEPTHS + 1]>,
    /// `row_base[l]`: the first lane of lane `l`'s row.
    row_base: [u8; LANES],
    /// `vic[d][l]`: the lane of the canonical victim of a landing in lane
    /// `l` when the opponent's innermost non-empty row is depth `d`.
    /// As its occupancy bit: the lap loop tests it with one AND, and the
    /// capture clears it (the lane is its trailing zeros).
    vic: [[u32; LANES]; 4],
    /// `hole[player][lane]`: board hole of a lane.
    hole: [[u8; LANES]; 2],
    /// `code[player][lane][d]`: [`Move::code`] of the sowing move from
    /// that lane with no direction (`d` 0), forward (1) or backward (2),
    /// so the game hash takes a move with one load.
    code: [[[u64; 3]; LANES]; 2],
    lane_of: [u8; 128],
    min_occupied: u32,
    min_empty: u32,
    ply_limit: u32,
    /// `game_end = "opponent-empty"`: a capture of the opponent's last
    /// seed ends the move; under `play-out` the move goes on.
    empty_ends: bool,
    /// `empty_landing_refusal = "all-ones"`: no capture after an empty
    /// landing when every facing hole holds one seed (docs/RULES.md §5).
    all_ones: bool,
    /// Laps after which a move goes to the engine: [`FALLBACK_LAPS`], or
    /// the lap limit if lower, so the limit is always the engine's to
    /// apply.
    fallback_laps: u64,
    /// The lap limit, which the engine applies (tests lower the hand-over
    /// point, never past it).
    #[cfg_attr(not(test), allow(dead_code))]
    lap_limit: u64,
    /// The starting position, South's side first.
    start: Side2,
}

/// A sowing move chosen, its hole not yet lifted.
#[derive(Clone, Copy)]
struct Pick {
    lane: usize,
    /// The rotation [`lane4`] reads the lane with.
    rot: u8,
    /// The direction drawn (0 forward, 1 backward) when `two`.
    d: usize,
}

/// Who is to move in a turn and what the engine needs to rebuild its
/// start.
#[derive(Clone, Copy)]
struct Turn {
    mover: usize,
    fixed: [u8; 2],
    plies: u32,
}

/// The greedy agent's reservoir (`agents::greedy`): the best move so far,
/// its seeds and how many tie with it.
#[derive(Default)]
struct Best {
    k: u32,
    seeds: Option<u64>,
    ties: usize,
}

impl Best {
    #[inline(always)]
    fn offer(&mut self, k: u32, seeds: u64, rng: &mut GameRng) {
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
struct Side2 {
    me: u128,
    opp: u128,
    occ: u32,
    oocc: u32,
}

impl Side2 {
    fn swap(&mut self) {
        std::mem::swap(&mut self.me, &mut self.opp);
        std::mem::swap(&mut self.occ, &mut self.oocc);
    }
}

fn lane_off(l: usize, w: u32, lpw: u32) -> u32 {
    (l as u32 / lpw) * 64 + (l as u32 % lpw) * w
}

/// The seeds of the lane at bit offset `shift`.
#[inline(always)]
fn val<S: Spec>(x: u128, shift: u8) -> u32 {
    let half = if shift >= 64 {
        (x >> 64) as u64
    } else {
        x as u64
    };
    ((half >> (shift & 63)) & ((1u64 << S::W) - 1)) as u32
}

/// Who chooses the moves of a side, among the agents the kernel plays
/// itself (`agents::AgentSpec`'s random, greedy and epsilon-greedy).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Agent {
    Random,
    Greedy,
    /// Greedy, but the random agent's choice with this probability.
    EpsilonGreedy(f64),
}

impl Agent {
    /// Whether this turn's choice is greedy's: `epsilon-greedy` first
    /// draws `unit` and plays at random below epsilon (`AgentSpec::choose`).
    #[inline(always)]
    fn greedy_now(self, rng: &mut GameRng) -> bool {
        match self {
            Agent::Random => false,
            Agent::Greedy => true,
            Agent::EpsilonGreedy(e) => unit(rng) >= e,
        }
    }
}

/// What one game did, as the runner's `GameRecord` counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Outcome {
    pub status: Option<Status>,
    pub plies: u32,
    pub laps: u64,
    pub max_laps_in_move: u64,
    pub captures: [u64; 2],
    pub seeds_captured: [u64; 2],
    pub sown: u64,
    pub legal_moves: u64,
    pub choice_turns: u64,
    /// Turns handed to the engine after [`FALLBACK_LAPS`] laps (tests
    /// check that the hand-over is exercised).
    pub fallbacks: u32,
    /// The game's identity hash (`runner::game_hash_step` over its moves).
    pub hash: u64,
}

/// One move's sowing, as the kernel counts it.
#[derive(Clone, Copy, Default)]
struct Sown {
    laps: u64,
    sown: u64,
    captures: u64,
    seeds: u64,
}

impl Outcome {
    #[inline(always)]
    fn add(&mut self, mover: usize, r: Sown) {
        self.laps += r.laps;
        self.max_laps_in_move = self.max_laps_in_move.max(r.laps);
        self.sown += r.sown;
        self.captures[mover] += r.captures;
        self.seeds_captured[mover] += r.seeds;
    }
}

/// The kernels compiled here, one per supported shape of rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Canonical3,
    Canonical2,
    Canonical1,
    Wikipedia,
    Ludii,
    Boaoaka,
}

impl fmt::Debug for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Kernel({:?})", self.which)
    }
}

impl Kernel {
    /// The kernel for `rules`, or why none can play them (the engine then
    /// plays every game).
    pub(crate) fn for_rules(rules: &Rules) -> Result<Kernel, String> {
        let mut why = Vec::new();
        for which in [
            Which::Canonical3,
            Which::Canonical2,
            Which::Canonical1,
            Which::Wikipedia,
            Which::Ludii,
            Which::Boaoaka,
        ] {
            let k = match which {
                Which::Canonical3 => Kernel::new::<Canonical6x6>(rules, which),
                Which::Canonical2 => Kernel::new::<Canonical4xN>(rules, which),
                Which::Canonical1 => Kernel::new::<Canonical2xN>(rules, which),
                Which::Wikipedia => Kernel::new::<Wikipedia6x6>(rules, which),
                Which::Ludii => Kernel::new::<Ludii6x6>(rules, which),
                Which::Boaoaka => Kernel::new::<Boaoaka4x8>(rules, which),
            };
            match k {
                Ok(k) => return Ok(k),
                Err(e) => why.push(e),
            }
        }
        Err(why.join("; "))
    }

    /// Plays one game from the start as `runner::play_game` plays it on
    /// the engine: `opening` random plies, then `agents` (South's first).
    /// `rec` is told every decision, in order (for the game's move list:
    /// the outcome carries its hash).
    pub(crate) fn play(
        &self,
        rules: &Rules,
        agents: [Agent; 2],
        opening: u32,
        seed: u64,
        rec: &mut impl FnMut(Move),
    ) -> Outcome {
        // Random games get a kernel of their own, with no agent test in
        // the ply loop and no greedy code beside it.
        if agents == [Agent::Random; 2] {
            self.play_with::<false>(rules, agents, opening, seed, rec)
        } else {
            self.play_with::<true>(rules, agents, opening, seed, rec)
        }
    }

    fn play_with<const G: bool>(
        &self,
        rules: &Rules,
        agents: [Agent; 2],
        opening: u32,
        seed: u64,
        rec: &mut impl FnMut(Move),
    ) -> Outcome {
        let a = (agents, opening, seed);
        match self.which {
            Which::Canonical3 => self.play_as::<Canonical6x6, G>(rules, a, rec),
            Which::Canonical2 => self.play_as::<Canonical4xN, G>(rules, a, rec),
            Which::Canonical1 => self.play_as::<Canonical2xN, G>(rules, a, rec),
            Which::Wikipedia => self.play_as::<Wikipedia6x6, G>(rules, a, rec),
            Which::Ludii => self.play_as::<Ludii6x6, G>(rules, a, rec),
            Which::Boaoaka => self.play_as::<Boaoaka4x8, G>(rules, a, rec),
        }
    }
}

impl Kernel {
    /// Builds the tables for `rules`, if `S` is the kernel for its
    /// settings; otherwise says which setting differs.
    fn new<S: Spec>(rules: &Rules, which: Which) -> Result<Kernel, String> {
        let s = &rules.settings();
        let need = |ok: bool, what: &str| {
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "kernel {} cannot play {}: {what}",
                    S::NAME,
                    rules.name()
                ))
            }
        };
        need(
            s.start
                == if S::START_ANY {
                    StartRule::Any
                } else {
                    StartRule::OutermostNonEmpty
                },
            "start",
        )?;
        need(s.singletons == Singletons::Allowed, "singletons")?;
        need(
            s.direction
                == match S::DIR {
                    DirKind::Forward => DirectionRule::Forward,
                    DirKind::EachMove => DirectionRule::EachMove,
                    DirKind::OncePerGame => DirectionRule::OncePerGame,
                },
            "direction",
        )?;
        need(s.relay == Relay::Occupied, "relay")?;
        let (trigger, row, victim) = match S::CAP {
            CapKind::Canonical => (
                CaptureTrigger::Occupied,
                CapturingRow::InnermostNonEmpty,
                VictimRule::InnermostRow,
            ),
            CapKind::CanonicalEmpty => (
                CaptureTrigger::Empty,
                CapturingRow::InnermostNonEmpty,
                VictimRule::InnermostRow,
            ),
            CapKind::InnerColumn => (
                CaptureTrigger::Occupied,
                CapturingRow::Inner,
                VictimRule::Column,
            ),
            CapKind::InnerWholeColumn => (
                CaptureTrigger::Either,
                CapturingRow::Inner,
                VictimRule::WholeColumn,
            ),
        };
        need(s.capture_trigger == trigger, "capture_trigger")?;
        need(s.capturing_row == row, "capturing_row")?;
        need(s.victim == victim, "victim")?;
        if S::LONE_STRAIGHT {
            need(s.lone_seed == LoneSeed::Straight, "lone_seed")?;
            need(
                s.lone_seed_step == LoneSeedStep::NoFailedCapture,
                "lone_seed_step",
            )?;
            need(s.step_sowing == StepSowing::Chosen, "step_sowing")?;
        } else {
            need(s.lone_seed == LoneSeed::None, "lone_seed")?;
        }
        need(rules.rows() / 2 == S::DEPTHS, "rows")?;
        // backward_circuit needs no check: any circuit is in the tables.
        let (rows, cols) = (rules.rows(), rules.cols());
        let depths = rows / 2;
        let side = depths * cols;
        let total = rules.total_seeds() as usize;
        need(
            total < (1 << S::W) && total < HANDS && S::DEPTHS <= DEPTHS,
            "seed total too big for a lane",
        )?;
        need(
            side <= LANES && side.div_ceil(S::LPW as usize) <= 2 && S::LPW * S::W <= 64,
            "side too big for one u128",
        )?;
        need(cols <= 8, "more than 8 holes a row (row pattern tables)")?;
        let holes = rules.hole_count();
        let (w, lpw) = (S::W, S::LPW);
        let off = |l: usize| lane_off(l, w, lpw);
        let lanebits = |l: usize| ((1u128 << w) - 1) << off(l);
        let mut k = Kernel {
            wmask: (1 << w) - 1,
            cols,
            side,
            words: vec![0; 4 * 2 * side * (total + 1)].into_boxed_slice(),
            start4: [[0; LANES]; 2],
            lane: [LaneInfo::default(); LANES],
            shift: [0; LANES],
            clear: [!0; LANES],
            unit: [0; LANES],
            row_of: [0; LANES],
            count: [0; 256],
            pick: vec![[[0; 8]; 256]; DEPTHS + 1]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!()),
            row_base: [0; LANES],
            vic: [[0; LANES]; 4],
            hole: [[0; LANES]; 2],
            code: [[[0; 3]; LANES]; 2],
            lane_of: [0; 128],
            min_occupied: s.min_victim_seeds as u32,
            min_empty: s.min_victim_seeds_after_empty as u32,
            ply_limit: s.ply_limit,
            empty_ends: s.game_end == GameEnd::OpponentEmpty,
            all_ones: s.empty_landing_refusal == EmptyLandingRefusal::AllOnes,
            fallback_laps: FALLBACK_LAPS.min(s.lap_limit),
            lap_limit: s.lap_limit,
            start: Side2::default(),
            which,
        };
        let rot4 = |l: usize| {
            let o = off(l) as usize;
            (o & 64) | ((o + 64 - 2) & 63)
        };
        for p in 0..1usize << cols {
            let mut c = 0;
            for b in 0..cols {
                if p >> b & 1 == 1 {
                    for (row, base) in (0..side).step_by(cols).enumerate() {
                        k.pick[row][p][c] = ((base + b) | rot4(base + b) << 8) as u16;
                    }
                    c += 1;
                }
            }
            k.count[p] = c as u8;
        }
        // A side's lanes in its owner's reading order: depth (outer row
        // first), then column from the owner's left, so North's lane i is
        // hole `holes - 1 - i`, South's turned through 180 degrees.
        for l in 0..side {
            k.hole[0][l] = l as u8;
            k.hole[1][l] = (holes - 1 - l) as u8;
            for p in 0..2 {
                let from = k.hole[p][l] as usize;
                k.code[p][l] = [None, Some(Dir::Forward), Some(Dir::Backward)]
                    .map(|d| Move::sow(from, d).code());
            }
            k.lane_of[l] = l as u8;
            k.lane_of[holes - 1 - l] = l as u8;
            need(rules.owner(l) == Player::South, "board layout")?;
            need(rules.depth(l) == l / cols, "board layout")?;
            k.unit[l] = 1u128 << off(l);
            k.shift[l] = off(l) as u8;
            k.clear[l] = !lanebits(l);
            k.row_of[l] = (l / cols) as u8;
            k.row_base[l] = (l / cols * cols) as u8;
        }
        // Circuits in lanes: the same for both players, which the tables
        // rely on; checked here rather than assumed.
        let mut circ = [[0usize; LANES]; 2];
        for (d, dir) in [Dir::Forward, Dir::Backward].into_iter().enumerate() {
            let south: Vec<usize> = rules
                .circuit_in(Player::South, dir)
                .iter()
                .map(|&h| h as usize)
                .collect();
            let north: Vec<usize> = rules
                .circuit_in(Player::North, dir)
                .iter()
                .map(|&h| k.lane_of[h as usize] as usize)
                .collect();
            need(south == north, "North's circuit is not South's turned")?;
            circ[d][..side].copy_from_slice(&south);
        }
        for d in 0..2 {
            for l in 0..side {
                k.start4[d][l] = (4 * (d * side + l) * (total + 1)) as u32;
            }
        }
        for (d, circ) in circ.iter().enumerate() {
            let mut pos = [0usize; LANES];
            for (i, &l) in circ[..side].iter().enumerate() {
                pos[l] = i;
            }
            for from in 0..side {
                for n in 0..=total {
                    let (mut add, mut occ) = (0u128, 0u32);
                    for j in 1..=n {
                        let l = circ[(pos[from] + j) % side];
                        add += k.unit[l];
                        occ |= 1 << l;
                    }
                    let land = circ[(pos[from] + n) % side];
                    let o = off(land);
                    let i = k.start4[d][from] as usize + 4 * n;
                    k.words[i] = add as u64;
                    k.words[i + 1] = (add >> 64) as u64;
                    k.words[i + 2] = occ as u64 | (k.start4[d][land] as u64) << 32;
                    // A lap of at most a circuit drops one seed in the
                    // landing hole: it lands in an empty hole exactly
                    // when that hole's bit was clear before the lap.
                    let once = if (1..=side).contains(&n) {
                        1u64 << land
                    } else {
                        0
                    };
                    k.words[i + 3] =
                        ((o & 64) | ((o + 64 - 2) & 63)) as u64 | (land as u64) << 8 | once << 32;
                }
            }
        }
        k.start = k.sides_of(&rules.start(), 0);
        for l in 0..side {
            let (dep, col) = (l / cols, l % cols);
            let mut info = LaneInfo {
                clear: !lanebits(l),
                bit: 1 << l,
                inner: dep + 1 == depths,
                ..LaneInfo::default()
            };
            for dd in dep + 1..depths {
                info.deeper |= ((1u32 << cols) - 1) << (dd * cols);
            }
            // The facing hole on the opponent's side has their column
            // `cols - 1 - col` (the board turned through 180 degrees).
            for od in 0..depths {
                let ol = od * cols + (cols - 1 - col);
                info.facing |= 1 << ol;
                k.vic[od][l] = 1 << ol;
            }
            k.lane[l] = info;
        }
        Ok(k)
    }

    /// Hands moves to the engine after `laps` laps instead (at most the
    /// lap limit): for testing the hand-over itself.
    #[cfg(test)]
    fn set_fallback_laps(&mut self, laps: u64) {
        self.fallback_laps = laps.clamp(1, self.lap_limit);
    }

    /// The depth of the highest occupied lane of a non-empty side: the
    /// innermost non-empty row.
    #[inline(always)]
    fn inner_row(&self, occ: u32) -> usize {
        // 31 ^ lz is 31 - lz without overflow for an empty side (play-out).
        self.row_of[(31 ^ occ.leading_zeros()) as usize & (LANES - 1)] as usize
    }

    fn hole_of(&self, p: usize, l: usize) -> usize {
        self.hole[p][l & (LANES - 1)] as usize
    }

    /// The occupied holes of the row from lane `base` as a pattern of
    /// `cols` bits.
    #[inline(always)]
    fn row_bits(&self, occ: u32, base: usize) -> usize {
        (occ >> (base & 31)) as usize & 255
    }

    /// The sowing moves of a side: the first lane of the candidate row
    /// (row 1's under `start = "any"`) and how many holes may start.
    #[inline(always)]
    fn sowing_holes<S: Spec>(&self, occ: u32) -> (usize, u32) {
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
    fn pick<S: Spec>(
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
    fn two_dirs<S: Spec>(fixed: u8) -> bool {
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
    fn agent_at<const G: bool>(
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
    fn sowing_dir<S: Spec>(fixed: &mut u8, d: usize) -> usize {
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

    fn play_as<S: Spec, const G: bool>(
        &self,
        rules: &Rules,
        (agents, opening, seed): ([Agent; 2], u32, u64),
        rec: &mut impl FnMut(Move),
    ) -> Outcome {
        let mut rng = rng_from_seed(seed);
        let from = (self.start, 0, [0; 2], 0);
        self.play_from::<S, G, false>(rules, (agents, opening, &mut rng), from, rec)
    }

    /// Plays from `pos` to the end of the game, every decision by `agent`:
    /// a random agent draws from `rng` exactly as repeated
    /// [`Rules::random_move`] calls do (a forced move draws too); greedy
    /// and epsilon-greedy ones as a game plays them
    /// (`runner::play_game_on_engine`: a forced move draws nothing).
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
        let o = if agent == Agent::Random {
            self.rollout_as::<false, true>(rules, ([Agent::Random; 2], 0, rng), from)
        } else {
            // The game kernels' instance: no new copy of the loop.
            self.rollout_as::<true, false>(rules, ([agent; 2], 0, rng), from)
        };
        (o.status.unwrap_or(Status::Ongoing), o.plies - pos.plies())
    }

    fn rollout_as<const G: bool, const F: bool>(
        &self,
        rules: &Rules,
        a: ([Agent; 2], u32, &mut GameRng),
        from: (Side2, usize, [u8; 2], u32),
    ) -> Outcome {
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
    /// plies). `F`: a forced move draws from the generator as
    /// `Rules::random_move` does (rollouts); games, like the engine's
    /// runner, draw nothing for one.
    fn play_from<S: Spec, const G: bool, const F: bool>(
        &self,
        rules: &Rules,
        (agents, opening, rng_out): ([Agent; 2], u32, &mut GameRng),
        (start, first, fixed0, plies0): (Side2, usize, [u8; 2], u32),
        rec: &mut impl FnMut(Move),
    ) -> Outcome {
        // A local copy, written back at the end: the loop's code stays as
        // it was with a generator of its own.
        let mut rng = rng_out.clone();
        let mut s = start;
        let mut o = Outcome {
            plies: plies0,
            ..Outcome::default()
        };
        let mut mover = first;
        // 0: not fixed; 1 forward; 2 backward (once-per-game).
        let mut fixed = fixed0;
        // The next mover's choice and their number of legal moves, drawn
        // while the current move was sown (see below), if no capture
        // changed their side meanwhile.
        let mut ahead: Option<(Pick, u32)> = None;
        loop {
            if o.plies >= self.ply_limit {
                o.status = Some(if s.occ == 0 {
                    Status::Won(player(1 - mover))
                } else {
                    Status::PlyLimit
                });
                break;
            }
            if s.occ == 0 {
                // No seed: singletons are allowed, so no move at all.
                o.status = Some(Status::Won(player(1 - mover)));
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
            let mut step_caps = Sown::default();
            let mut sowing = true;
            let chosen = match ahead.take() {
                Some((p, n)) => {
                    o.legal_moves += n as u64;
                    o.choice_turns += (n > 1) as u64;
                    Some(p)
                }
                None => {
                    let (base0, nholes) = self.sowing_holes::<S>(s.occ);
                    let nsow = nholes << two as u32;
                    let mut step = None;
                    if S::LONE_STRAIGHT && s.occ.is_power_of_two() {
                        let l = s.occ.trailing_zeros() as usize;
                        if val::<S>(s.me, self.shift[l & (LANES - 1)]) == 1
                            && (self.row_of[l & (LANES - 1)] as usize) + 1 < S::DEPTHS
                        {
                            let to = l + self.cols;
                            // no-failed-capture: into the inner row only to
                            // capture (docs/RULES.md §7).
                            if !self.lane[to & (LANES - 1)].inner
                                || self.step_victim::<S>(&s, to).is_some()
                            {
                                step = Some((l, to));
                            }
                        }
                    }
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
                        step_caps = Sown {
                            captures: 1,
                            seeds: x as u64,
                            ..Sown::default()
                        };
                        o.add(mover, step_caps);
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
                        o.choice_turns += 1;
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
            // Draw the next mover's choice now, from their side as it is:
            // it does not depend on this move's laps, which change only
            // the mover's side unless they capture. So the choice's chain
            // of loads runs beside the laps' chain instead of after it; a
            // capture (or a long move) takes the draw back. Only for a
            // random choice, and not when the next turn might draw nothing
            // (the ply limit) or might offer a lone seed's step (which
            // depends on this side).
            let them = 1 - mover;
            let spec = (Self::agent_at::<G>(agents, opening, o.plies + 1, them) == Agent::Random
                && o.plies + 1 < self.ply_limit
                && s.oocc != 0
                && !(S::LONE_STRAIGHT && s.oocc.is_power_of_two()))
            .then(|| {
                let saved = rng.clone();
                let two = Self::two_dirs::<S>(fixed[them]);
                let (base0, nholes) = self.sowing_holes::<S>(s.oocc);
                let count = nholes << two as u32;
                let k = if count == 1 && !F {
                    0
                } else {
                    below(&mut rng, count as usize) as u32
                };
                (
                    saved,
                    self.pick::<S>(s.oocc, them, two, k, base0, nholes),
                    count,
                )
            });
            let oocc_before = s.oocc;
            let Some(r) = self.sow::<S>(&mut s, dir, from, seeds4) else {
                // A long move: the engine replays the whole turn from its
                // start, with the decisions already drawn, and settles
                // endless moves and the lap limit exactly.
                if let Some((saved, _, _)) = spec {
                    rng = saved;
                }
                o.captures[mover] -= step_caps.captures;
                o.seeds_captured[mover] -= step_caps.seeds;
                o.fallbacks += 1;
                let start = step_start.unwrap_or_else(|| {
                    let mut st = s;
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
                match self.fallback(rules, &mut o, turn, &start, &moves) {
                    Some(next) => (s, fixed) = next,
                    None => break,
                }
                mover = 1 - mover;
                continue;
            };
            o.add(mover, r);
            if let Some((saved, p, n)) = spec {
                // A capture empties a hole of theirs: their side changed.
                if s.oocc == oocc_before {
                    ahead = Some((p, n));
                } else {
                    rng = saved;
                }
            }
            o.plies += 1;
            s.swap();
            mover = 1 - mover;
        }
        *rng_out = rng;
        o
    }

    /// The greedy agent's choice (`agents::greedy`): the move capturing
    /// most seeds this turn, ties broken by reservoir sampling, the moves
    /// tried in the listing order. Returns its index in that order.
    #[allow(clippy::too_many_arguments)]
    fn greedy<S: Spec>(
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
            let seeds = if k < nsow {
                let p = self.pick::<S>(s.occ, turn.mover, two, k, base0, nholes);
                let mut f = turn.fixed[turn.mover];
                let dir = Self::sowing_dir::<S>(&mut f, p.d);
                let mut t = *s;
                let li = p.lane & (LANES - 1);
                let n4 = lane4::<S>(t.me as u64, (t.me >> 64) as u64, p.rot);
                t.me &= self.clear[li];
                t.occ &= !(1 << li);
                match self.sow::<S>(&mut t, dir, p.lane, n4) {
                    Some(r) => r.seeds,
                    None => {
                        let moves = self.decisions(turn.mover, p.lane, two, p.d, usize::MAX, true);
                        self.engine_seeds(rules, turn, s, &moves)
                    }
                }
            } else {
                // The step's own capture (its continuation is a decision
                // of its own).
                let (a, b) = step.unwrap_or((0, 0));
                let mut t = *s;
                t.me = t.me - self.unit[a & (LANES - 1)] + self.unit[b & (LANES - 1)];
                self.step_victim::<S>(&t, b).map_or(0, |(x, _)| x as u64)
            };
            best.offer(k, seeds, rng);
        }
        best.k
    }

    /// Greedy's choice of the direction a capturing step sows on in: `s`
    /// is the position after the step's capture, `start` the turn's
    /// start, `(a, b)` the step.
    fn greedy_continuation<S: Spec>(
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

    /// Seeds captured by the last of `moves`, played by the engine from
    /// the turn's start `s`.
    fn engine_seeds(&self, rules: &Rules, turn: Turn, s: &Side2, moves: &[Move]) -> u64 {
        let mut pos = self.engine_position(s, turn);
        let mut seeds = 0;
        for &mv in moves {
            seeds = rules
                .play_unchecked(&mut pos, mv, &mut Silent)
                .seeds_captured;
        }
        seeds
    }

    /// The engine moves of a turn: a sowing move from `lane` (with its
    /// direction when the player chose one), or a step from `lane` and
    /// the continuation from `cont` in direction `d`.
    fn decisions(
        &self,
        p: usize,
        lane: usize,
        two: bool,
        d: usize,
        cont: usize,
        sowing: bool,
    ) -> Vec<Move> {
        if sowing {
            vec![Move::sow(self.hole_of(p, lane), two.then_some(dir_of(d)))]
        } else {
            let to = lane + self.cols;
            let mut v = vec![Move::step(self.hole_of(p, lane), self.hole_of(p, to))];
            if cont != usize::MAX {
                v.push(Move::sow(self.hole_of(p, cont), Some(dir_of(d))));
            }
            v
        }
    }

    /// Has the current engine play a turn from its start; returns the
    /// next mover's sides and the fixed directions, or `None` (status
    /// set) if the game ended.
    fn fallback(
        &self,
        rules: &Rules,
        o: &mut Outcome,
        turn: Turn,
        s: &Side2,
        moves: &[Move],
    ) -> Option<(Side2, [u8; 2])> {
        let mover = turn.mover;
        let mut pos = self.engine_position(s, turn);
        for &mv in moves {
            let r = rules.play_unchecked(&mut pos, mv, &mut Silent);
            o.add(
                mover,
                Sown {
                    laps: r.laps,
                    sown: r.seeds_sown,
                    captures: r.captures as u64,
                    seeds: r.seeds_captured,
                },
            );
        }
        o.plies = pos.plies();
        if pos.ended().is_some() {
            o.status = Some(rules.status(&pos));
            return None;
        }
        Some((
            self.sides_of(&pos, 1 - mover),
            [
                dir_code(pos.fixed_dir(Player::South)),
                dir_code(pos.fixed_dir(Player::North)),
            ],
        ))
    }

    /// Whether `all-ones` refuses a capture after an empty landing facing
    /// `info`'s column: every hole of it holds exactly one seed.
    #[inline(always)]
    fn refused<S: Spec>(&self, op: u128, oocc: u32, info: &LaneInfo) -> bool {
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
    fn step_victim<S: Spec>(&self, s: &Side2, to: usize) -> Option<(u32, usize)> {
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
    fn sow<S: Spec>(&self, s: &mut Side2, dir: usize, from: usize, n4: u32) -> Option<Sown> {
        let mut idx = self.start4[dir & 1][from & (LANES - 1)] as usize + n4 as usize;
        // Counted locally and added to `o` only when the move ends here;
        // seeds sown times 32.
        let (mut laps, mut sown32, mut caps, mut seeds) = (0u64, 0u64, 0u64, 0u64);
        let canonical = matches!(S::CAP, CapKind::Canonical | CapKind::CanonicalEmpty);
        let mut vic = &self.vic[if canonical {
            self.inner_row(s.oocc) & 3
        } else {
            0
        }];
        let (mut op, mut oocc) = (s.opp, s.oocc);
        let (mut lo, mut hi, mut occ) = (s.me as u64, (s.me >> 64) as u64, s.occ);
        let limit = self.fallback_laps;
        // 4 times the seeds in hand.
        let mut n32 = n4;
        loop {
            // Indexed with a bounds check, not a mask: the check is a
            // predicted branch beside the chain, a mask would lengthen it.
            let w: &[u64; 4] = self.words[idx..idx + 4].try_into().unwrap_or(&[0; 4]);
            let r = Rec::unpack(w);
            let empty = !occ & r.once != 0;
            lo = lo.wrapping_add(r.add_lo);
            hi = hi.wrapping_add(r.add_hi);
            occ |= r.occ;
            laps += 1;
            sown32 += n32 as u64;
            let l = r.land as usize & (LANES - 1);
            let v32 = lane4::<S>(lo, hi, r.rot);
            let info = &self.lane[l];
            // Whether this landing may capture, in straight-line code; the
            // exact test (minimum seeds) is made on the rare path.
            let maybe = match S::CAP {
                CapKind::Canonical => !empty & (occ & info.deeper == 0) & (oocc & vic[l] != 0),
                CapKind::CanonicalEmpty => empty & (occ & info.deeper == 0) & (oocc & vic[l] != 0),
                CapKind::InnerColumn => !empty & info.inner & (oocc & info.facing != 0),
                CapKind::InnerWholeColumn => info.inner & (oocc & info.facing != 0),
            };
            if empty | maybe {
                if maybe && let Some(x) = self.capture::<S>(&mut op, &mut oocc, info, vic[l], empty)
                {
                    caps += 1;
                    seeds += x as u64;
                    if oocc == 0 && self.empty_ends {
                        // The capture took the opponent's last seed: the
                        // move and the game end (docs/RULES.md §9).
                        break;
                    }
                    if canonical {
                        vic = &self.vic[self.inner_row(oocc) & 3];
                    }
                    n32 = v32 + 4 * x;
                    lo &= info.clear as u64;
                    hi &= (info.clear >> 64) as u64;
                    occ &= !info.bit;
                    idx = (r.next4 + n32) as usize;
                    if laps >= limit {
                        return None;
                    }
                    continue;
                }
                if empty {
                    break;
                }
            }
            if laps >= limit {
                return None;
            }
            lo &= info.clear as u64;
            hi &= (info.clear >> 64) as u64;
            occ &= !info.bit;
            n32 = v32;
            idx = (r.next4 + v32) as usize;
        }
        *s = Side2 {
            me: (hi as u128) << 64 | lo as u128,
            opp: op,
            occ,
            oocc,
        };
        Some(Sown {
            laps,
            sown: sown32 / 4,
            captures: caps,
            seeds,
        })
    }

    /// The exact capture test of a landing that may capture; lifts the
    /// victims and returns their seeds if it does. `vbit` is the canonical
    /// victim's occupancy bit.
    #[inline(always)]
    fn capture<S: Spec>(
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

    /// The engine's position of a turn's start.
    fn engine_position(&self, s: &Side2, turn: Turn) -> Position {
        let mut holes = [0u16; MAX_HOLES];
        for l in 0..self.side {
            let get = |x: u128| ((x >> self.shift[l]) as u64 & self.wmask) as u16;
            holes[self.hole[turn.mover][l] as usize] = get(s.me);
            holes[self.hole[1 - turn.mover][l] as usize] = get(s.opp);
        }
        // Built directly, not through `Rules::position`: these are the
        // rules' own seeds, so none of its checks can fail.
        Position {
            holes,
            occ: occupancy(&holes),
            to_move: player(turn.mover),
            fixed_dir: [dir_from_code(turn.fixed[0]), dir_from_code(turn.fixed[1])],
            plies: turn.plies,
            ended: None,
            pending: NO_HOLE,
        }
    }

    /// The sides of an engine position, `mover`'s first.
    fn sides_of(&self, pos: &Position, mover: usize) -> Side2 {
        let mut lanes = [0u128; 2];
        let mut occ = [0u32; 2];
        for l in 0..self.side {
            for p in 0..2 {
                let v = pos.seeds(self.hole[p][l] as usize);
                lanes[p] += self.unit[l] * v as u128;
                if v > 0 {
                    occ[p] |= 1 << l;
                }
            }
        }
        Side2 {
            me: lanes[mover],
            opp: lanes[1 - mover],
            occ: occ[mover],
            oocc: occ[1 - mover],
        }
    }
}

#[inline(always)]
fn player(i: usize) -> Player {
    if i == 0 { Player::South } else { Player::North }
}

fn dir_of(d: usize) -> Dir {
    if d == 0 { Dir::Forward } else { Dir::Backward }
}

fn dir_code(d: Option<Dir>) -> u8 {
    match d {
        None => 0,
        Some(Dir::Forward) => 1,
        Some(Dir::Backward) => 2,
    }
}

fn dir_from_code(c: u8) -> Option<Dir> {
    match c {
        0 => None,
        1 => Some(Dir::Forward),
        _ => Some(Dir::Backward),
    }
}

impl Rules {
    /// The lane kernel, if it can play these rules: built on first use and
    /// kept with the rules (`Rules::derived`).
    pub(crate) fn kernel(&self) -> Option<&Kernel> {
        self.derived(|r| Kernel::for_rules(r).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::experiment::runner::{play_game, play_game_on_engine};
    use crate::rules::{BackwardCircuit, EndlessMove, preset};
    use rand_xoshiro::rand_core::Rng;
    use std::collections::BTreeMap;

    const RANDOM: AgentSpec = AgentSpec::Random;
    const GREEDY: AgentSpec = AgentSpec::Greedy;
    const EPSILON: AgentSpec = AgentSpec::EpsilonGreedy { epsilon: 0.3 };

    /// Plays games `0..games` on the kernel (through `play_game`) and on
    /// the engine, comparing every decision and every counted figure;
    /// returns the statuses seen and the turns the kernel handed over.
    fn same_games(
        rules: &Rules,
        agents: (&AgentSpec, &AgentSpec),
        opening: u32,
        games: u64,
    ) -> (BTreeMap<&'static str, u64>, u64) {
        let k = rules.kernel().unwrap_or_else(|| {
            panic!(
                "{}: no kernel: {:?}",
                rules.name(),
                Kernel::for_rules(rules)
            )
        });
        let mut statuses = BTreeMap::new();
        let mut fallbacks = 0;
        for seed in 0..games {
            let (mut want, mut got) = (Vec::new(), Vec::new());
            let g = play_game_on_engine(rules, agents.0, agents.1, opening, seed, Some(&mut want));
            let f = play_game(rules, agents.0, agents.1, opening, seed, Some(&mut got));
            assert_eq!(
                (&f, &got),
                (&g, &want),
                "{} ({} vs {}, opening {opening}), game {seed}: kernel, then engine",
                rules.name(),
                agents.0,
                agents.1
            );
            let a = [kernel_agent(agents.0), kernel_agent(agents.1)];
            fallbacks += k.play(rules, a, opening, seed, &mut |_| {}).fallbacks as u64;
            *statuses.entry(g.status.name()).or_insert(0) += 1;
        }
        (statuses, fallbacks)
    }

    fn kernel_agent(a: &AgentSpec) -> Agent {
        crate::experiment::runner::kernel_agent(a).expect("an agent the kernel plays")
    }

    fn custom(base: &str, name: &str, f: impl FnOnce(&mut crate::rules::Settings)) -> Rules {
        let mut s = preset(base).expect("a preset").settings().clone();
        f(&mut s);
        Rules::new(name.into(), String::new(), String::new(), s).expect("valid settings")
    }

    #[test]
    fn presets_play_the_same_games() {
        for v in [
            "katro-6x6",
            "katro-ludii",
            "katra-boaoaka-4x8",
            "katra-boaoaka-ludii",
            "katro-4x4",
            "katro-4x6",
            "katro-6x3",
        ] {
            let r = preset(v).expect("a preset");
            same_games(&r, (&RANDOM, &RANDOM), 0, 3_000);
            same_games(&r, (&GREEDY, &GREEDY), 0, 300);
            same_games(&r, (&GREEDY, &RANDOM), 3, 300);
            same_games(&r, (&RANDOM, &GREEDY), 0, 300);
            same_games(&r, (&EPSILON, &GREEDY), 2, 300);
        }
        // Its endless moves and moves to the lap limit are the engine's
        // either way, and slow at the shipped limit of 10 million laps.
        let wikipedia = custom("katro-wikipedia", "katro-wikipedia, lap limit 10000", |s| {
            s.lap_limit = 10_000
        });
        let (statuses, fallbacks) = same_games(&wikipedia, (&RANDOM, &RANDOM), 0, 1_000);
        assert!(
            fallbacks > 0 && statuses.contains_key("endless-move"),
            "{statuses:?}"
        );
        same_games(&wikipedia, (&GREEDY, &GREEDY), 0, 200);
        same_games(&wikipedia, (&EPSILON, &RANDOM), 4, 200);
    }

    #[test]
    fn unsupported_rules_fall_back_to_the_engine() {
        // The diagonal lone seed is not written in any kernel.
        let r = preset("katro-6x6-diagonal").expect("a preset");
        assert!(Kernel::for_rules(&r).is_err());
        // Agents the kernel does not play take the engine too: the same
        // record as the engine's.
        let r = preset("katro-6x6").expect("a preset");
        let ab = AgentSpec::Alphabeta {
            depth: 1,
            nodes: None,
            tt: None,
            eval: None,
        };
        let a = play_game(&r, &ab, &RANDOM, 0, 3, None);
        for (rows, cols) in [(6, 7), (6, 8), (8, 2)] {
            let big = custom("katro-6x6", "big", |s| {
                s.rows = rows;
                s.holes = cols;
            });
            assert!(Kernel::for_rules(&big).is_err(), "{rows}x{cols}");
        }
        assert_eq!(a, play_game_on_engine(&r, &ab, &RANDOM, 0, 3, None));
    }

    /// Endless moves, the lap limit, the ply limit, play-out, other
    /// boards and seed counts: the paths preset games rarely take.
    #[test]
    fn rare_paths_play_the_same_games() {
        let mut seen = BTreeMap::new();
        let mut fallbacks = 0;
        let mut run = |r: Rules, games: u64| {
            for agents in [(&RANDOM, &RANDOM), (&GREEDY, &GREEDY), (&EPSILON, &EPSILON)] {
                let (st, fb) = same_games(&r, agents, 0, games);
                for (k, v) in st {
                    *seen.entry(k).or_insert(0) += v;
                }
                fallbacks += fb;
            }
        };
        for v in [
            "katro-6x6",
            "katro-ludii",
            "katra-boaoaka-4x8",
            "katro-4x4",
            "katro-6x3",
        ] {
            for mover_loses in [false, true] {
                run(
                    custom(v, "play-out", |s| {
                        s.game_end = GameEnd::PlayOut;
                        s.lap_limit = 100_000;
                        if mover_loses {
                            s.endless_move = EndlessMove::MoverLoses;
                        }
                    }),
                    300,
                );
            }
            run(custom(v, "lap limit 12", |s| s.lap_limit = 12), 200);
            run(custom(v, "ply limit 40", |s| s.ply_limit = 40), 200);
        }
        for (rows, cols, seeds) in [(6, 6, 3u16), (2, 4, 2), (2, 6, 3), (2, 8, 3), (4, 3, 5)] {
            run(
                custom("katro-6x6", "board", |s| {
                    s.rows = rows;
                    s.holes = cols;
                    s.seeds = Some(seeds);
                }),
                300,
            );
        }
        for (cols, seeds) in [(3, 3u16), (4, 1), (5, 3)] {
            run(
                custom("katro-ludii", "ludii board", |s| {
                    s.holes = cols;
                    s.seeds = Some(seeds);
                }),
                300,
            );
        }
        for layout in [
            vec![vec![1u16, 2], vec![1, 0]],
            vec![vec![1, 3], vec![0, 1]],
            vec![vec![1, 3, 0], vec![1, 0, 1]],
            vec![vec![2, 3, 1], vec![0, 1, 2]],
        ] {
            run(
                custom("katro-6x6", "layout", |s| {
                    s.rows = 2;
                    s.holes = layout[0].len();
                    s.seeds = None;
                    s.layout = Some(layout.clone());
                    s.lap_limit = 1_000;
                    s.game_end = GameEnd::PlayOut;
                }),
                100,
            );
        }
        // The paths must have been taken, or this test proves nothing.
        for status in ["endless-move", "lap-limit", "ply-limit"] {
            assert!(
                seen.get(status).copied().unwrap_or(0) > 0,
                "no {status} game: {seen:?}"
            );
        }
        assert!(fallbacks > 0);
    }

    /// Every move past its first lap handed to the engine: the hand-over
    /// itself (turn start rebuilt, decisions replayed), steps and their
    /// continuations included.
    #[test]
    fn hand_over_after_one_lap_plays_the_same_games() {
        for v in ["katro-6x6", "katro-ludii", "katra-boaoaka-4x8"] {
            let r = preset(v).expect("a preset");
            let mut k = Kernel::for_rules(&r).expect("a kernel");
            k.set_fallback_laps(1);
            let mut handed = 0;
            for seed in 0..500 {
                for agents in [[RANDOM, RANDOM], [GREEDY, GREEDY], [EPSILON, EPSILON]] {
                    let mut want = Vec::new();
                    let g =
                        play_game_on_engine(&r, &agents[0], &agents[1], 0, seed, Some(&mut want));
                    let mut got = Vec::new();
                    let a = [kernel_agent(&agents[0]), kernel_agent(&agents[1])];
                    let o = k.play(&r, a, 0, seed, &mut |m| got.push(m));
                    assert_eq!(got, want, "{v} game {seed}");
                    assert_eq!(
                        (o.status, o.plies, o.laps, o.max_laps_in_move, o.captures),
                        (
                            Some(g.status),
                            g.plies,
                            g.laps,
                            g.max_laps_in_move,
                            g.captures
                        ),
                        "{v} game {seed}"
                    );
                    assert_eq!(
                        (o.seeds_captured, o.sown, o.legal_moves, o.choice_turns),
                        (
                            g.seeds_captured,
                            g.seeds_sown,
                            g.legal_moves,
                            g.choice_turns
                        ),
                        "{v} game {seed}"
                    );
                    handed += o.fallbacks;
                }
            }
            assert!(handed > 1_000, "{v}: {handed}");
        }
    }

    /// Any valid settings (the fuzzers' generator, which rarely draws a
    /// shape a kernel plays): building a kernel never panics, a refusal
    /// says why, and a kernel built plays the engine's games.
    #[test]
    fn any_settings_build_a_kernel_or_say_why_not() {
        struct Rng(GameRng);
        impl crate::checks::Draw for Rng {
            fn below(&mut self, n: u64) -> u64 {
                self.0.next_u64() % n
            }
            fn exhausted(&self) -> bool {
                false
            }
        }
        let mut d = Rng(rng_from_seed(9));
        for _ in 0..2_000 {
            let s = crate::checks::draw_settings(&mut d);
            let r = Rules::new("drawn".into(), String::new(), String::new(), s)
                .expect("the generator draws valid settings");
            match Kernel::for_rules(&r) {
                Ok(_) => {
                    same_games(&r, (&RANDOM, &GREEDY), 1, 3);
                }
                Err(why) => assert!(why.contains("cannot play"), "{why}"),
            }
        }
    }

    /// Random settings among those the kernels support, every value of
    /// each setting they read: board, seeds or layout, circuits, minimum
    /// victims, game end, endless moves, limits.
    #[test]
    fn random_supported_settings_play_the_same_games() {
        let mut rng = rng_from_seed(2026);
        let mut played = BTreeMap::new();
        for case in 0..400 {
            let base = [
                "katro-6x6",
                "katro-ludii",
                "katra-boaoaka-4x8",
                "katro-wikipedia",
            ][case % 4];
            let mut pick = |n: u64| rng.next_u64() % n;
            let r = custom(base, "random", |s| {
                if base == "katro-6x6" {
                    s.rows = [2, 4, 6][pick(3) as usize];
                }
                // Three rows a side of 7 or 8 holes do not fit the
                // lanes (the unsupported test checks they fall back).
                s.holes = 2 + pick(if s.rows == 6 { 5 } else { 7 }) as usize;
                s.seeds = Some(1 + pick(3) as u16);
                s.backward_circuit =
                    [BackwardCircuit::Reversed, BackwardCircuit::Mirrored][pick(2) as usize];
                s.min_victim_seeds = 1 + pick(3) as u16;
                s.min_victim_seeds_after_empty = 1 + pick(3) as u16;
                s.game_end = [GameEnd::OpponentEmpty, GameEnd::PlayOut][pick(2) as usize];
                s.empty_landing_refusal = [
                    EmptyLandingRefusal::BelowMinimum,
                    EmptyLandingRefusal::AllOnes,
                ][pick(2) as usize];
                s.endless_move =
                    [EndlessMove::Undecided, EndlessMove::MoverLoses][pick(2) as usize];
                s.ply_limit = [20, 300, 5_000][pick(3) as usize];
                s.lap_limit = [1, 70, 2_000][pick(3) as usize];
            });
            let agents = [
                (&RANDOM, &RANDOM),
                (&GREEDY, &GREEDY),
                (&GREEDY, &RANDOM),
                (&EPSILON, &RANDOM),
            ][pick(4) as usize];
            same_games(&r, agents, pick(3) as u32, 20);
            *played.entry(base).or_insert(0) += 1;
        }
        assert_eq!(played.len(), 4);
    }
}
