//! A finished run being grown: its state read back and checked, and each
//! cell's games kept, continued or played new ([`super::grow`] plans it).

use std::path::Path;

use super::{Damage, Error, OtherRunState, Refusal, RunStateProblem, WouldChangePlayed, grow};
use crate::experiment::Experiment;
use crate::experiment::runner::{self, Cell, GameRow, Rows};
use crate::experiment::stats::Aggregate;
use crate::files::{BUILD, FileError, GameLine, ManifestRead};
use crate::store::Store;

/// A finished run being grown, and where each cell gets its games.
pub(super) struct Growing {
    pub(super) old: grow::FinishedRun,
    /// Its rows, read from games.csv.
    pub(super) old_rows: Vec<GameLine>,
    pub(super) sources: Vec<grow::Source>,
}

/// Reads `run-state.json` beside the manifest `m` and plans how this
/// experiment grows from it, or refuses, naming every change that would
/// alter games already played and the command that replays them all
/// (`forced`), or that keeps games of another build (`other_build`).
pub(super) fn growth(
    store: &dyn Store,
    (dir, m): (&Path, &ManifestRead),
    exp: &Experiment,
    cells: &[Cell],
    allow_other_build: bool,
    (forced, other_build): (&str, &str),
) -> Result<Growing, Error> {
    let path = dir.join(grow::RUN_STATE);
    let damaged = |problem: RunStateProblem| {
        Error::from(Damage::RunState {
            path: path.clone(),
            problem,
            forced: forced.to_string(),
        })
    };
    let old = read_run_state(store, &path, m, &damaged)?;
    let refuse =
        |problems: Vec<grow::Unkept>| would_change_played((dir, forced), &old, exp, problems);
    let sources = grow::plan(&old, &exp.name, exp.seed, exp.rows(), cells).map_err(refuse)?;
    let old_rows = read_old_rows(store, dir, &old, &damaged)?;
    if !allow_other_build && let Some(problem) = played_elsewhere(&old, other_build) {
        return Err(refuse(vec![problem]));
    }
    Ok(Growing {
        old,
        old_rows,
        sources,
    })
}

/// The refusal to grow the finished run `old` in `dir` into `exp`,
/// naming every change that would alter games already played.
fn would_change_played(
    (dir, forced): (&Path, &str),
    old: &grow::FinishedRun,
    exp: &Experiment,
    problems: Vec<grow::Unkept>,
) -> Error {
    Refusal::WouldChangePlayed(Box::new(WouldChangePlayed {
        dir: dir.to_path_buf(),
        name: old.run.name.clone(),
        old_hash: old.run.experiment_hash.clone(),
        new_hash: exp.fingerprint(),
        problems,
        forced: forced.to_string(),
    }))
    .into()
}

/// The finished run's rows, from games.csv when the run state does not
/// hold them.
fn read_old_rows(
    store: &dyn Store,
    dir: &Path,
    old: &grow::FinishedRun,
    damaged: &dyn Fn(RunStateProblem) -> Error,
) -> Result<Vec<GameLine>, Error> {
    let games_path = dir.join("games.csv");
    let games = store.read(&games_path).ok();
    old.rows(games.as_deref()).map_err(|error| {
        damaged(RunStateProblem::Rows {
            games: games_path,
            error: Box::new(error),
        })
    })
}

/// The finished run's state at `path`, once it is of the experiment the
/// manifest `m` beside it names.
fn read_run_state(
    store: &dyn Store,
    path: &Path,
    m: &ManifestRead,
    damaged: &dyn Fn(RunStateProblem) -> Error,
) -> Result<grow::FinishedRun, Error> {
    let bytes = store.read(path).map_err(|e| {
        damaged(RunStateProblem::Unreadable {
            reason: e.to_string(),
        })
    })?;
    let old = grow::FinishedRun::parse(&bytes).map_err(|e| damaged(RunStateProblem::NotRead(e)))?;
    if old.format != grow::RUN_STATE_FORMAT || old.run.experiment_hash != m.run.experiment_hash {
        return Err(damaged(RunStateProblem::OtherRun(Box::new(
            OtherRunState {
                format: old.format,
                hash: old.run.experiment_hash,
                manifest_hash: m.run.experiment_hash.clone(),
            },
        ))));
    }
    Ok(old)
}

/// Why the finished run's games may not be kept: another build played
/// some of them, which the command `keep` keeps anyway. `None` when this
/// build played them all.
fn played_elsewhere(old: &grow::FinishedRun, keep: &str) -> Option<grow::Unkept> {
    old.run
        .builds()
        .any(|b| b != BUILD)
        .then(|| grow::Unkept::OtherBuild {
            builds: old.run.builds().map(String::from).collect(),
            keep: keep.to_string(),
        })
}

impl Growing {
    /// Games of continued `[precision]` cells, which a grown run's state
    /// starts with.
    pub(super) fn continued_games(&self) -> u64 {
        self.sources
            .iter()
            .filter_map(|s| match *s {
                grow::Source::Continue { old } => Some(self.old.cells[old].aggregate.games),
                _ => None,
            })
            .sum()
    }

    /// The finished run's rows of `old` cell `o`, as rows of `cells`' cell `c`.
    fn rows_of(&self, o: usize, cells: &[Cell], c: usize) -> Result<Vec<GameRow>, FileError> {
        self.old_rows
            .iter()
            .filter(|r| r.cell == o)
            .map(|r| {
                GameLine {
                    cell: c,
                    ..r.clone()
                }
                .to_row(cells)
                .map_err(|error| FileError::Row {
                    path: "games.csv".into(),
                    error: Box::new(error),
                })
            })
            .collect()
    }

    /// The rows the continued cells start with, as rows of the delta.
    pub(super) fn continued_rows(
        &self,
        d: &grow::Delta,
        rows: Rows,
    ) -> Result<Vec<GameRow>, FileError> {
        let mut out = Vec::new();
        if rows == Rows::None {
            return Ok(out);
        }
        for (k, &i) in d.index.iter().enumerate() {
            if let grow::Source::Continue { old } = self.sources[i] {
                out.extend(self.rows_of(old, &d.cells, k)?);
            }
        }
        Ok(out)
    }

    /// Adds to cell `i`'s aggregate `agg` and to `rows` the games of
    /// source `s` it keeps from the finished run; the games kept, counting
    /// a continued cell's, whose rows the checkpoint holds.
    fn keep(
        &self,
        s: grow::Source,
        cells: &[Cell],
        i: usize,
        agg: &mut Aggregate,
        rows: &mut Vec<GameRow>,
    ) -> Result<u64, FileError> {
        Ok(match s {
            grow::Source::Kept(o) | grow::Source::Extend { old: o, .. } => {
                agg.merge(&self.old.cells[o].aggregate);
                rows.extend(self.rows_of(o, cells, i)?);
                self.old.cells[o].aggregate.games
            }
            grow::Source::Continue { old } => self.old.cells[old].aggregate.games,
            grow::Source::New => 0,
        })
    }

    /// Every cell's aggregate and the rows of all games, kept and new, as
    /// a fresh run of `cells` gives them; and how many games were kept.
    pub(super) fn combine(
        &self,
        cells: &[Cell],
        d: &grow::Delta,
        result: &runner::RunResult,
    ) -> Result<(Vec<Aggregate>, Vec<GameRow>, u64), FileError> {
        let played = result.aggregates();
        let mut aggregates = Vec::with_capacity(cells.len());
        let mut rows = Vec::new();
        let mut kept = 0;
        for (i, s) in self.sources.iter().enumerate() {
            let k = d.index.iter().position(|&x| x == i);
            let mut agg = Aggregate::new();
            kept += self.keep(*s, cells, i, &mut agg, &mut rows)?;
            if let Some(k) = k {
                agg.merge(&played[k]);
                rows.extend(result.rows.iter().filter(|r| r.cell == k).map(|r| GameRow {
                    cell: i,
                    ..r.clone()
                }));
            }
            aggregates.push(agg);
        }
        rows.sort_by_key(|r| (r.cell, r.game));
        Ok((aggregates, rows, kept))
    }
}
