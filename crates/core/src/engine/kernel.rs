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

use super::record::{GameRecord, MoveTotals};
use super::{
    Dir, MAX_HOLES, Move, MoveList, NO_HOLE, Player, Position, Silent, Status, chain_hash,
    occupancy,
};
use crate::rng::{GameRng, below, rng_from_seed, unit};
use crate::rules::{
    CaptureTrigger, CapturingRow, DirectionRule, EmptyLandingRefusal, GameEnd, LoneSeed,
    LoneSeedStep, Relay, Rules, Singletons, StartRule, StepSowing, VictimRule,
};

mod fallback;
mod game_loop;
mod search;
mod spec;
mod tables;
#[cfg(test)]
mod tests;

use fallback::*;
use game_loop::*;
pub(crate) use search::{Frontier, Sown};
use spec::*;

/// Why no kernel can play a rule set: each kernel's first setting that
/// differs from what it compiles in. Internal (the engine then plays every
/// game), so one message rather than a variant per setting.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Unsupported(pub(crate) String);

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
    /// The bits of the lanes of a side's innermost row (lanes `side -
    /// cols` on).
    inner_lanes: u128,
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
    pub(crate) fn for_rules(rules: &Rules) -> Result<Kernel, Unsupported> {
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
                Err(e) => why.push(e.0),
            }
        }
        Err(Unsupported(why.join("; ")))
    }

    /// Plays one game from the start as `game::play_game` plays it on
    /// the engine: `opening` random plies, then `agents` (South's first).
    /// `rec` is told every decision, in order (for the game's move list:
    /// the record carries its hash).
    pub(crate) fn play(
        &self,
        rules: &Rules,
        agents: [Agent; 2],
        opening: u32,
        seed: u64,
        rec: &mut impl FnMut(Move),
    ) -> GameRecord {
        self.play_counting(rules, agents, opening, seed, rec).0
    }

    /// [`Kernel::play`], and the turns handed to the engine: `Kernel` is
    /// shared by threads, so it cannot count them itself.
    pub(crate) fn play_counting(
        &self,
        rules: &Rules,
        agents: [Agent; 2],
        opening: u32,
        seed: u64,
        rec: &mut impl FnMut(Move),
    ) -> (GameRecord, u32) {
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
    ) -> (GameRecord, u32) {
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

impl Rules {
    /// The lane kernel, if it can play these rules: built on first use and
    /// kept with the rules (`Rules::derived`).
    pub(crate) fn kernel(&self) -> Option<&Kernel> {
        self.derived(|r| Kernel::for_rules(r).ok())
    }
}
