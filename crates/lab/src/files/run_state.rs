//! `run-state.json`, which a finished whole run (or merge) leaves beside
//! its results (docs/OUTPUTS.md, docs/EXPERIMENTS.md "Growing a run"):
//! every cell's exact aggregate, and the games.csv that holds its rows.
//! `jobs::grow` decides from it which games a larger experiment keeps.

use serde::{Deserialize, Serialize};

use super::FileError;
use super::games::GameLine;
use super::header::RunHeader;
use crate::experiment::runner::{Cell, Rows, Stop};
use crate::experiment::stats::Aggregate;

/// `run-state.json`'s format. Version 2 named games.csv instead of
/// holding its rows; version 3 added `max_relays_in_move` to the
/// aggregates and rows. An earlier file is refused, not read: its cells
/// lack a maximum that cannot be made up.
pub const RUN_STATE_FORMAT: &str = "katro-run-state-3";
/// Its name in a results folder.
pub const RUN_STATE: &str = "run-state.json";

/// One cell of a finished run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinishedCell {
    pub variant: String,
    /// The rules' canonical string: a variant of the same name with other
    /// rules plays other games.
    pub rules: String,
    pub p1: String,
    pub p2: String,
    pub opening_plies: u32,
    pub stop: Stop,
    /// Every game the cell played: `aggregate.games` of them, 0 to
    /// `aggregate.games - 1`.
    pub aggregate: Aggregate,
}

/// `run-state.json`: what a finished whole run (or merge) played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinishedRun {
    pub format: String,
    /// The builds whose games these are, the experiment's fingerprint and
    /// name.
    #[serde(flatten)]
    pub run: RunHeader,
    pub seed: u64,
    /// `none`, `games` or `games-with-moves`.
    pub rows: String,
    pub cells: Vec<FinishedCell>,
    /// The games.csv written beside it, when rows are kept: the one store
    /// of the rows, which a grown run reads back only if it is unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_csv: Option<FileRef>,
}

/// A file by its length and FNV-1a 64 hash (16 hex digits).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRef {
    pub bytes: u64,
    pub fnv1a64: String,
}

impl FileRef {
    pub fn of(bytes: &[u8]) -> FileRef {
        FileRef {
            bytes: bytes.len() as u64,
            fnv1a64: format!("{:016x}", crate::rng::bytes_hash(bytes)),
        }
    }
}

pub fn rows_name(rows: Rows) -> &'static str {
    match rows {
        Rows::None => "none",
        Rows::Games => "games",
        Rows::GamesWithMoves => "games-with-moves",
    }
}

impl FinishedRun {
    pub fn new(
        run: RunHeader,
        seed: u64,
        rows: Rows,
        cells: &[Cell],
        aggregates: &[Aggregate],
        games_csv: Option<&[u8]>,
    ) -> FinishedRun {
        FinishedRun {
            format: RUN_STATE_FORMAT.into(),
            run,
            seed,
            rows: rows_name(rows).into(),
            cells: cells
                .iter()
                .zip(aggregates)
                .map(|(c, a)| FinishedCell {
                    variant: c.rules.name().into(),
                    rules: c.rules.canonical_string(),
                    p1: c.p1.to_string(),
                    p2: c.p2.to_string(),
                    opening_plies: c.opening_plies,
                    stop: c.stop,
                    aggregate: a.clone(),
                })
                .collect(),
            games_csv: games_csv.map(FileRef::of),
        }
    }

    /// The finished run's rows, in (cell, game) order: from games.csv
    /// (`games_csv`, its bytes, `None` when missing), refused unless it is
    /// the file this run state was written with. Empty when no rows were
    /// kept.
    pub fn rows(&self, games_csv: Option<&[u8]>) -> Result<Vec<GameLine>, FileError> {
        if self.rows == rows_name(Rows::None) {
            return Ok(Vec::new());
        }
        let want = self.games_csv.as_ref().ok_or(FileError::RowsUnnamed)?;
        let bytes = games_csv.ok_or(FileError::RowsMissing)?;
        let got = FileRef::of(bytes);
        if got != *want {
            return Err(FileError::RowsChanged {
                found: got,
                wanted: want.clone(),
            });
        }
        let owned: Vec<(&str, &str, &str, u32)> = self
            .cells
            .iter()
            .map(|c| {
                (
                    c.variant.as_str(),
                    c.p1.as_str(),
                    c.p2.as_str(),
                    c.opening_plies,
                )
            })
            .collect();
        crate::files::read_games_csv(bytes, &owned)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a run state serialises")
    }
}

/// Why a run-state.json cannot be read as this build's.
#[derive(Debug, thiserror::Error)]
pub enum RunStateError {
    /// A file of an earlier format, named by its `format`.
    #[error(
        "format {0:?} was written by an earlier katro (this one writes {RUN_STATE_FORMAT:?}, whose \
         cells also hold max_relays_in_move), so it cannot grow"
    )]
    Earlier(String),
    #[error("not a katro run state, or damaged ({0})")]
    Damaged(serde_json::Error),
}

impl FinishedRun {
    /// The run state in `bytes`, refused when its `format` is an earlier
    /// one (its cells lack a maximum that cannot be made up) or when it
    /// does not read.
    pub fn parse(bytes: &[u8]) -> Result<FinishedRun, RunStateError> {
        if let Some(f) = format_of(bytes).filter(|f| f != RUN_STATE_FORMAT) {
            return Err(RunStateError::Earlier(f));
        }
        FinishedRun::parse_any_format(bytes).map_err(RunStateError::Damaged)
    }

    /// The run state in `bytes` whatever its `format` says, for what
    /// only shows it (the table of a complete run).
    pub fn parse_any_format(bytes: &[u8]) -> Result<FinishedRun, serde_json::Error> {
        serde_json::from_slice(bytes)
    }
}

/// The `format` a JSON object says it is, when it is one with a string
/// `format`.
fn format_of(bytes: &[u8]) -> Option<String> {
    let fields: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(bytes).ok()?;
    fields.get("format")?.as_str().map(str::to_string)
}
