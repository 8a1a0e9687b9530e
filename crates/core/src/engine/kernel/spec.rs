//! The compiled rule decisions ([`Spec`], one kernel per shape of rule
//! set), the lap records and the lane arithmetic.

/// Lanes a side may have (a power of two so an index masked by it needs no
/// bounds check).
pub(super) const LANES: usize = 32;

/// Seeds in hand a lap may carry, plus one: above any lane width.
pub(super) const HANDS: usize = 256;

/// Rows a side a kernel plays, at most.
pub(super) const DEPTHS: usize = 3;

/// Laps after which a move is handed to the current engine, which detects
/// endless moves exactly and applies the lap limit (docs/RULES.md §8).
/// Almost every move ends sooner; the engine itself starts its cycle
/// search at lap 64.
pub const FALLBACK_LAPS: u64 = 64;

/// Where the lap loop's packed count keeps the laps, above four times the
/// seeds sown (`Kernel::sow`): a move of at most [`FALLBACK_LAPS`] laps
/// sows fewer than `HANDS` seeds a lap, so these bits never carry into the
/// laps. The captures' packed count has 16 bits for each of seeds
/// captured (at most `HANDS` a lap) and captures (at most one a lap).
pub(super) const LAP_SHIFT: u32 = 20;
const _: () = assert!(FALLBACK_LAPS * 4 * (HANDS as u64) < 1 << LAP_SHIFT);
const _: () = assert!(FALLBACK_LAPS * (HANDS as u64) < 1 << 16);

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
pub(super) struct Rec {
    /// The lap's add mask, low and high halves: added without a carry
    /// between them (no lane straddles the halves or overflows), so
    /// neither half waits for the other.
    pub(super) add_lo: u64,
    pub(super) add_hi: u64,
    /// Lanes the lap drops a seed into, one bit a lane.
    pub(super) occ: u32,
    /// Word index (in [`Kernel::words`]) of the record block of the
    /// landing lane in this direction: the next lap's record starts at
    /// word `next4 + 4 * seeds in hand`, and [`lane4`] gives 4 times the
    /// seeds directly, so no shift sits between one lap's load and the
    /// next (the address scales by 8 for free).
    pub(super) next4: u32,
    /// The landing lane's half (bit 6) and the rotation that brings it
    /// to bits 2.. of that half (bits 0..6).
    pub(super) rot: u8,
    pub(super) land: u8,
    /// The landing lane's bit when the lap drops one seed there (at most
    /// a circuit of seeds), else 0: the landing is then on an empty hole
    /// exactly when that bit was clear before the lap, which is known
    /// from the record alone, before the add (the loop's exit branch
    /// resolves sooner).
    pub(super) once: u32,
}

/// 4 times the seeds of a lane, by one rotation of its half: `rot` is
/// [`Rec::rot`].
#[inline(always)]
pub(super) fn lane4<S: Spec>(lo: u64, hi: u64, rot: u8) -> u32 {
    let half = if rot & 64 != 0 { hi } else { lo };
    (half.rotate_right(rot as u32 & 63) & (((1u64 << S::W) - 1) << 2)) as u32
}

impl Rec {
    /// The mover's holes, as their low and high halves, and occupancy
    /// after this lap.
    #[inline(always)]
    pub(super) fn sown(&self, lo: u64, hi: u64, occ: u32) -> (u64, u64, u32) {
        (
            lo.wrapping_add(self.add_lo),
            hi.wrapping_add(self.add_hi),
            occ | self.occ,
        )
    }

    #[inline(always)]
    pub(super) fn unpack(w: &[u64; 4]) -> Rec {
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
pub(super) struct LaneInfo {
    /// Every bit but the lane's: lifting it.
    pub(super) clear: u128,
    /// The lane's occupancy bit.
    pub(super) bit: u32,
    /// The mover's rows deeper than this lane's (canonical capturing
    /// row), as occupancy bits.
    pub(super) deeper: u32,
    /// The facing column on the opponent's side, as their occupancy bits.
    pub(super) facing: u32,
    pub(super) inner: bool,
}

impl LaneInfo {
    /// The mover's holes, as their low and high halves, and occupancy
    /// with this lane lifted.
    #[inline(always)]
    pub(super) fn lifted(&self, lo: u64, hi: u64, occ: u32) -> (u64, u64, u32) {
        (
            lo & self.clear as u64,
            hi & (self.clear >> 64) as u64,
            occ & !self.bit,
        )
    }
}

pub(super) fn lane_off(l: usize, w: u32, lpw: u32) -> u32 {
    (l as u32 / lpw) * 64 + (l as u32 % lpw) * w
}

/// The seeds of the lane at bit offset `shift`.
#[inline(always)]
pub(super) fn val<S: Spec>(x: u128, shift: u8) -> u32 {
    let half = if shift >= 64 {
        (x >> 64) as u64
    } else {
        x as u64
    };
    ((half >> (shift & 63)) & ((1u64 << S::W) - 1)) as u32
}
