//! What an experiment's run is made of, before a game is played: its
//! cells (variant × matchup) and when each stops, which per-game rows
//! are kept, how each cell's games are cut into segments and work units
//! (fixed by the stop rule alone, so checkpoints and shards written on
//! one machine are understood on another), the part of the games a run
//! plays, what comparison.csv compares, and the fingerprint that names
//! it all.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::agents::AgentSpec;
use crate::experiment::stats::Aggregate;
use crate::rng::name_hash;
use crate::rules::Rules;

/// When a cell stops playing. Stored in run-state.json as
/// `{"games": N}` or `{"precision": {"width": .., "max_games": ..,
/// "checkpoint": ..}}` (docs/OUTPUTS.md).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// Exactly this many games.
    Games(u64),
    /// At the first checkpoint (every `checkpoint` games, and `max_games`)
    /// where the 95% Wilson interval on player 1's win rate among decided
    /// games is narrower than `width`; at `max_games` at the latest.
    Precision {
        width: f64,
        max_games: u64,
        checkpoint: u64,
    },
}

impl std::fmt::Display for Stop {
    /// As the manifest and the fingerprint write it.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match *self {
            Stop::Games(n) => write!(f, "games={n}"),
            Stop::Precision {
                width,
                max_games,
                checkpoint,
            } => write!(
                f,
                "precision:width={width},max_games={max_games},checkpoint={checkpoint}"
            ),
        }
    }
}

impl Stop {
    /// The most games the cell can play.
    pub fn max_games(&self) -> u64 {
        match *self {
            Stop::Games(n) => n,
            Stop::Precision { max_games, .. } => max_games,
        }
    }

    /// Whether a cell that has played `played` games, aggregated in `agg`,
    /// stops there.
    pub fn is_met(&self, played: u64, agg: &Aggregate) -> bool {
        match *self {
            Stop::Games(n) => played >= n,
            Stop::Precision {
                width, max_games, ..
            } => played >= max_games || agg.p1_win_rate().is_some_and(|w| w.width() < width),
        }
    }
}

/// One cell: a variant, the agents in each seat, how many random plies
/// open each game, and when to stop.
#[derive(Clone, Debug)]
pub struct Cell<'a> {
    pub rules: &'a Rules,
    pub p1: &'a AgentSpec,
    pub p2: &'a AgentSpec,
    /// The first this many plies of every game are uniformly random legal
    /// moves; the agents play from there.
    pub opening_plies: u32,
    pub stop: Stop,
    /// The design metrics its games record (metrics.csv), if any: such a
    /// cell plays on the engine, with a recorder.
    pub metrics: Option<&'a crate::experiment::metrics::plan::MetricsPlan>,
    /// The margin summary.csv judges its share against (the experiment's
    /// `balance_margin`): it changes what is written, not a game.
    pub balance_margin: Option<f64>,
}

impl Cell<'_> {
    pub fn matchup_label(&self) -> String {
        matchup_label(self.p1, self.p2, self.opening_plies)
    }
}

/// The name of a pairing, which also seeds its games: `greedy vs random`,
/// or `greedy vs greedy +open4` with 4 random opening plies. Without
/// opening plies the label is the agents alone, so such cells keep the
/// games they had before opening plies existed.
pub fn matchup_label(p1: &AgentSpec, p2: &AgentSpec, opening_plies: u32) -> String {
    if opening_plies == 0 {
        format!("{p1} vs {p2}")
    } else {
        format!("{p1} vs {p2} +open{opening_plies}")
    }
}

/// Which per-game rows to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    None,
    Games,
    GamesWithMoves,
}

// ---------------------------------------------------------------------------
// Work units

/// Games per unit: about 64 units to a segment, so a round keeps every
/// thread busy, but at least 8 games (a unit's bookkeeping is small next to
/// 8 games) and at most 1024 (a unit's rows stay small).
const UNITS_PER_SEGMENT: u64 = 64;
const MIN_UNIT: u64 = 8;
const MAX_UNIT: u64 = 1024;

/// How one cell's games are cut into work units. Fixed by the cell's stop
/// rule alone, never by threads or machines, so a checkpoint or a shard
/// written by one run is understood by another.
///
/// The games are first cut into **segments** of `segment` games, the
/// stretches between two stopping tests (`checkpoint` games for a
/// `[precision]` cell; the whole cell otherwise), and each segment into
/// **units** of `unit` games (its last unit may be shorter). A unit never
/// straddles a stopping test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellLayout {
    pub max_games: u64,
    pub segment: u64,
    pub unit: u64,
}

impl CellLayout {
    pub fn new(stop: &Stop) -> CellLayout {
        let max_games = stop.max_games();
        let segment = match *stop {
            Stop::Games(n) => n,
            Stop::Precision {
                max_games,
                checkpoint,
                ..
            } => checkpoint.min(max_games),
        }
        .max(1);
        CellLayout {
            max_games,
            segment,
            unit: segment
                .div_ceil(UNITS_PER_SEGMENT)
                .clamp(MIN_UNIT, MAX_UNIT),
        }
    }

    fn units_per_segment(&self) -> u64 {
        self.segment.div_ceil(self.unit)
    }

    pub fn segments(&self) -> u64 {
        self.max_games.div_ceil(self.segment)
    }

    /// Games `start..end` of segment `k`.
    pub fn segment_games(&self, k: u64) -> (u64, u64) {
        let start = k * self.segment;
        (start, (start + self.segment).min(self.max_games))
    }

    pub fn units(&self) -> u64 {
        let full = self.max_games / self.segment;
        let rest = self.max_games % self.segment;
        full * self.units_per_segment() + rest.div_ceil(self.unit)
    }

    /// Unit `i`: its segment and its games `start..end`.
    pub fn unit_games(&self, i: u64) -> (u64, u64, u64) {
        let per = self.units_per_segment();
        let (k, j) = (i / per, i % per);
        let (seg_start, seg_end) = self.segment_games(k);
        let start = seg_start + j * self.unit;
        (k, start, (start + self.unit).min(seg_end))
    }

    /// The units of segment `k`.
    pub(crate) fn segment_units(&self, k: u64) -> Range<u64> {
        let per = self.units_per_segment();
        k * per..((k + 1) * per).min(self.units())
    }
}

/// Every cell's layout, and the numbering of all units of a run: cell by
/// cell, each cell's units in game order (the "global" unit number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub cells: Vec<CellLayout>,
    /// Global number of each cell's first unit.
    pub(crate) first: Vec<u64>,
    total: u64,
}

impl Layout {
    pub fn new(cells: &[Cell]) -> Layout {
        let cells: Vec<CellLayout> = cells.iter().map(|c| CellLayout::new(&c.stop)).collect();
        let mut first = Vec::with_capacity(cells.len());
        let mut total = 0;
        for c in &cells {
            first.push(total);
            total += c.units();
        }
        Layout {
            cells,
            first,
            total,
        }
    }

    /// All units of the run.
    pub fn units(&self) -> u64 {
        self.total
    }

    /// The cell and the cell's unit number of global unit `g`.
    pub(crate) fn locate(&self, g: u64) -> (usize, u64) {
        let c = self.first.partition_point(|&f| f <= g) - 1;
        (c, g - self.first[c])
    }
}

/// Which part of the work a run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Every cell to its stopping point: a `[precision]` cell is tested at
    /// each checkpoint and stops there once its interval is narrow enough.
    Whole,
    /// Shard `index` of `count` (1-based): every `count`-th unit, starting
    /// with unit `index - 1`, of every cell up to its `max_games`. No
    /// stopping test is made: a shard cannot see the others' games, so
    /// `runner::merge_parts` makes the tests over the merged units, in game order,
    /// and drops the units after a cell's stop.
    Shard { index: u64, count: u64 },
}

impl Part {
    /// The global unit of the part's `j`-th work item.
    pub fn unit_of(&self, j: u64) -> u64 {
        match *self {
            Part::Whole => j,
            Part::Shard { index, count } => (index - 1) + j * count,
        }
    }

    /// How many work items the part has out of `units`.
    pub fn items(&self, units: u64) -> u64 {
        match *self {
            Part::Whole => units,
            Part::Shard { index, count } => units.saturating_sub(index - 1).div_ceil(count),
        }
    }
}

/// A set of numbers as sorted, disjoint, non-adjacent half-open ranges:
/// the work items done, compact however many there are when they finish
/// roughly in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranges(pub(crate) Vec<[u64; 2]>);

impl Ranges {
    pub fn contains(&self, x: u64) -> bool {
        let i = self.0.partition_point(|r| r[1] <= x);
        self.0.get(i).is_some_and(|r| r[0] <= x)
    }

    pub fn insert(&mut self, x: u64) {
        let i = self.0.partition_point(|r| r[1] < x);
        match self.0.get(i).copied() {
            Some([a, b]) if a <= x && x < b => {}
            Some([a, _]) if x + 1 == a => {
                self.0[i][0] = x;
                self.join(i);
            }
            Some([_, b]) if b == x => {
                self.0[i][1] = x + 1;
                self.join(i);
            }
            _ => self.0.insert(i, [x, x + 1]),
        }
    }

    /// Joins range `i` with its successor when they touch.
    fn join(&mut self, i: usize) {
        if i + 1 < self.0.len() && self.0[i][1] >= self.0[i + 1][0] {
            self.0[i][1] = self.0[i + 1][1];
            self.0.remove(i + 1);
        }
    }

    pub fn len(&self) -> u64 {
        self.0.iter().map(|r| r[1] - r[0]).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().flat_map(|r| r[0]..r[1])
    }

    /// Whether the set is exactly `0..n`.
    pub fn is_all_below(&self, n: u64) -> bool {
        match self.0.as_slice() {
            [] => n == 0,
            [[0, b]] => *b == n,
            _ => false,
        }
    }

    pub(crate) fn is_well_formed(&self) -> bool {
        self.0.iter().all(|r| r[0] < r[1]) && self.0.windows(2).all(|w| w[0][1] < w[1][0])
    }

    pub(crate) fn max(&self) -> Option<u64> {
        self.0.last().map(|r| r[1] - 1)
    }
}

/// Which pairs of cells comparison.csv compares; only cells of the same
/// matchup (agents and opening) are ever compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Every other variant against this one (by name); `None`: the
    /// experiment's first variant.
    Baseline(Option<String>),
    /// Every pair of variants, the later one in file order against the
    /// earlier one.
    AllPairs,
}

impl Default for Compare {
    fn default() -> Self {
        Compare::Baseline(None)
    }
}

/// The fingerprint of everything that decides a run's games and outputs:
/// the name, the master seed, which rows are kept, and every cell's
/// variant (name and complete rules), agents, random opening plies and
/// stopping rule. Comments
/// and key order in the experiment file do not change it. FNV-1a, 64
/// bits, 16 hex digits.
pub fn fingerprint(name: &str, seed: u64, rows: Rows, cells: &[Cell]) -> String {
    let mut text = format!("katro experiment\nname={name}\nseed={seed}\nrows={rows:?}\n");
    for c in cells {
        // Written only when there is an opening, so the fingerprints of
        // experiments without one are unchanged.
        let open = match c.opening_plies {
            0 => String::new(),
            n => format!("|open={n}"),
        };
        text.push_str(&format!(
            "cell {}|{}|{}|{}|{}{open}\n",
            c.rules.name(),
            c.rules.canonical_string(),
            c.p1,
            c.p2,
            c.stop
        ));
    }
    format!("{:016x}", name_hash(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// run-state.json stores a cell's stop in the shape docs/OUTPUTS.md
    /// gives (the shape the files written before Stop had serde carry).
    #[test]
    fn a_stop_is_stored_as_run_state_json_writes_it() {
        let stops = [
            (Stop::Games(5), r#"{"games":5}"#),
            (
                Stop::Precision {
                    width: 0.1,
                    max_games: 100,
                    checkpoint: 10,
                },
                r#"{"precision":{"width":0.1,"max_games":100,"checkpoint":10}}"#,
            ),
        ];
        for (stop, json) in stops {
            assert_eq!(serde_json::to_string(&stop).unwrap(), json);
            assert_eq!(serde_json::from_str::<Stop>(json).unwrap(), stop);
        }
    }
}
