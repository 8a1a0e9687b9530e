//! How far a run has got, as a checkpoint, a shard or run-state.json
//! holds it: per cell the games settled and the aggregates of the units
//! played past them, the work items done, the units begun. Exact integers
//! only, so a run resumed from it, or shards merged from it, give the same
//! bytes as one run; [`RunState::check`] refuses a state that does not fit
//! the experiment or does not add up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::experiment::plan::{Layout, Part, Ranges};
use crate::experiment::stats::Aggregate;

/// The aggregate of the units played in one segment of a cell.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentAggregate {
    pub segment: u64,
    pub aggregate: Aggregate,
}

/// How far one cell has got: exact integers only, so a run resumed from
/// it, or shards merged from it, give the same bytes as one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellProgress {
    /// Games `0..settled_games` are played and their stopping tests made
    /// (whole runs only; 0 in a shard).
    pub settled_games: u64,
    /// The aggregate of those games.
    pub settled: Aggregate,
    /// Whether the cell's stopping rule is met at `settled_games`.
    pub stopped: bool,
    /// Units played past `settled_games`, by segment, in segment order.
    pub segments: Vec<SegmentAggregate>,
}

impl CellProgress {
    /// Adds a unit's aggregate to its segment's.
    pub(crate) fn add(&mut self, segment: u64, agg: &Aggregate) {
        let i = self.segments.partition_point(|s| s.segment < segment);
        if self.segments.get(i).is_none_or(|s| s.segment != segment) {
            self.segments.insert(
                i,
                SegmentAggregate {
                    segment,
                    aggregate: Aggregate::new(),
                },
            );
        }
        self.segments[i].aggregate.merge(agg);
    }
}

/// A work item begun and not finished: its first `games` games are played
/// (a unit plays its games in order), aggregated in `aggregate`. A unit
/// of a cell whose games take minutes is checkpointed this way, and a
/// resumed run plays only the rest of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartialUnit {
    pub item: u64,
    pub games: u64,
    pub aggregate: Aggregate,
}

/// Everything a run has done so far, as a checkpoint or a shard holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunState {
    pub cells: Vec<CellProgress>,
    /// The part's work items done (see [`Part::unit_of`]).
    pub done: Ranges,
    /// Work items begun and not finished, by item; never in a finished
    /// state (left out of the file when empty, so finished shards read
    /// as before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partial: Vec<PartialUnit>,
}

impl RunState {
    pub fn new(cells: usize) -> RunState {
        RunState {
            cells: vec![CellProgress::default(); cells],
            done: Ranges::default(),
            partial: Vec::new(),
        }
    }

    /// Games played so far, those of unfinished units included.
    pub fn games(&self) -> u64 {
        self.cells
            .iter()
            .map(|c| c.settled_games + c.segments.iter().map(|s| s.aggregate.games).sum::<u64>())
            .sum::<u64>()
            + self.partial.iter().map(|p| p.games).sum::<u64>()
    }

    /// Checks that a state read from a file fits the layout and the part,
    /// and that its counts add up: a damaged or foreign checkpoint is
    /// refused rather than merged into results.
    pub fn check(&self, layout: &Layout, part: Part) -> Result<(), StateMismatch> {
        if self.cells.len() != layout.cells.len() {
            return Err(StateMismatch::CellCount {
                found: self.cells.len(),
                wanted: layout.cells.len(),
            });
        }
        if !self.done.is_well_formed()
            || self
                .done
                .max()
                .is_some_and(|m| m >= part.items(layout.units()))
        {
            return Err(StateMismatch::DoneOutOfRange);
        }
        self.check_partial(layout, part)?;
        self.check_cells(layout, part)
    }

    /// Each unfinished unit is one of the part's, not done, listed once,
    /// and holds some but not all of its games.
    fn check_partial(&self, layout: &Layout, part: Part) -> Result<(), StateMismatch> {
        let items = part.items(layout.units());
        for (n, p) in self.partial.iter().enumerate() {
            let (c, i) = layout.locate(part.unit_of(p.item.min(items.saturating_sub(1))));
            let (_, start, end) = layout.cells[c].unit_games(i);
            if p.item >= items
                || self.done.contains(p.item)
                || self.partial[..n].iter().any(|q| q.item == p.item)
                || p.games == 0
                || p.games >= end - start
                || p.aggregate.games != p.games
                || !p.aggregate.distinct.is_well_formed()
            {
                return Err(StateMismatch::Partial { item: p.item });
            }
        }
        Ok(())
    }

    /// Each cell's settled games and segments hold exactly the games of
    /// the finished units.
    fn check_cells(&self, layout: &Layout, part: Part) -> Result<(), StateMismatch> {
        // Games of the finished units past each cell's settled games, by
        // segment, must be what the segment aggregates hold.
        let mut expected: Vec<BTreeMap<u64, u64>> = vec![BTreeMap::new(); self.cells.len()];
        let mut below = vec![0u64; self.cells.len()];
        for j in self.done.iter() {
            let (c, i) = layout.locate(part.unit_of(j));
            let (k, start, end) = layout.cells[c].unit_games(i);
            if start >= self.cells[c].settled_games {
                *expected[c].entry(k).or_insert(0) += end - start;
            } else {
                below[c] += end - start;
            }
        }
        for (c, (p, l)) in self.cells.iter().zip(&layout.cells).enumerate() {
            let whole = part == Part::Whole;
            let boundary = p.settled_games == l.max_games || p.settled_games % l.segment == 0;
            if p.settled_games > l.max_games
                || !boundary
                || p.settled.games != p.settled_games
                || below[c] != p.settled_games
                || (!whole && (p.settled_games > 0 || p.stopped))
                || (p.stopped && !p.segments.is_empty())
                || !p.settled.distinct.is_well_formed()
                || p.segments
                    .iter()
                    .any(|s| !s.aggregate.distinct.is_well_formed())
            {
                return Err(StateMismatch::Cell { cell: c + 1 });
            }
            let got: BTreeMap<u64, u64> = p
                .segments
                .iter()
                .map(|s| (s.segment, s.aggregate.games))
                .collect();
            if got.len() != p.segments.len() || got != expected[c] {
                return Err(StateMismatch::Segments { cell: c + 1 });
            }
        }
        Ok(())
    }

    /// Each cell's aggregate after a whole run.
    pub fn settled_aggregates(&self) -> Vec<Aggregate> {
        self.cells.iter().map(|c| c.settled.clone()).collect()
    }
}

/// Why a saved state does not fit a layout and part, or does not add up
/// ([`RunState::check`]); `cell` counts from 1, as the message does.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateMismatch {
    /// The state has `found` cells, the experiment `wanted`.
    #[error("it has {found} cells; this experiment has {wanted}")]
    CellCount { found: usize, wanted: usize },
    /// Finished units listed twice, or past the part's last unit.
    #[error("its list of finished units is out of range")]
    DoneOutOfRange,
    /// An unfinished unit (`item`, the part's numbering) that is not one
    /// of the part's, is listed twice, or holds no or all of its games.
    #[error("its unfinished unit {item} does not add up")]
    Partial { item: u64 },
    /// A cell whose settled games are not those of its finished units.
    #[error("cell {cell} does not add up")]
    Cell { cell: usize },
    /// A cell whose segments do not hold its finished units' games.
    #[error("cell {cell}'s games do not add up")]
    Segments { cell: usize },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::experiment::plan::{Cell, Stop};
    use crate::rules::preset;

    /// A fresh state fits its layout; one of another experiment, or with
    /// games its finished units do not account for, is refused.
    #[test]
    fn a_state_that_does_not_fit_is_refused() {
        let rules = preset("katro-4x4").unwrap();
        let cell = Cell {
            rules: &rules,
            p1: &AgentSpec::Random,
            p2: &AgentSpec::Random,
            opening_plies: 0,
            stop: Stop::Games(100),
            metrics: None,
            balance_margin: None,
        };
        let layout = Layout::new(std::slice::from_ref(&cell));
        assert_eq!(RunState::new(1).check(&layout, Part::Whole), Ok(()));
        assert_eq!(
            RunState::new(2).check(&layout, Part::Whole),
            Err(StateMismatch::CellCount {
                found: 2,
                wanted: 1
            })
        );
        let mut counted = RunState::new(1);
        counted.cells[0].add(0, &Aggregate::new());
        counted.cells[0].segments[0].aggregate.games = 8;
        assert_eq!(
            counted.check(&layout, Part::Whole),
            Err(StateMismatch::Segments { cell: 1 })
        );
        assert_eq!(counted.games(), 8);
    }
}
