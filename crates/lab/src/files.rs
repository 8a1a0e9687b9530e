//! The files a run writes and reads back, one module per format, each
//! holding the format's one definition: the CSV conventions (`csv`),
//! summary.csv (`summary`), games.csv (`games`), lengths.csv
//! (`lengths`), comparison.csv (`comparison`), a tournament's ratings
//! files (`ratings`), manifest.json (`manifest`), run-state.json
//! (`run_state`), the build identity and run header every partial file
//! carries (`header`), shards (`shard`), checkpoints (`checkpoint`), the
//! lock of an output folder (`lock`), `katro solve-family`'s
//! solved.csv and manifest (`solved`), proof certificates with their
//! checker (`certificate`), `katro prove-family`'s proved.csv and manifest
//! (`proved`), and the proof search's nearby.csv (`nearby`) and
//! openings.csv (`openings`). docs/OUTPUTS.md documents every
//! one.
//!
//! Nothing here reads a clock or a file: the same aggregates give the same
//! bytes, so the CSV files of a run are identical whatever the thread
//! count, and `jobs` writes them through `Store`.

pub mod certificate;
pub mod checkpoint;
pub mod comparison;
pub mod csv;
pub mod exact_openings;
pub mod formats;
pub mod games;
pub mod header;
pub mod lengths;
pub mod lock;
pub mod manifest;
pub mod metrics_csv;
pub mod nearby;
pub mod opening_positions;
pub mod openings;
pub mod perfect_moves;
pub mod proved;
pub mod ratings;
pub mod run_state;
pub mod shard;
pub mod solved;
pub mod strength_curve;
pub mod summary;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

use crate::experiment::runner::ResumeMismatch;
use crate::rules::InputError;
use run_state::FileRef;

/// A file katro wrote that does not read back as one (damaged, edited,
/// or of another shape): one variant per event, carrying the file, line
/// or row and what is wrong there. A library's error (io, serde_json,
/// csv, toml) is neither Clone nor Eq, so only its text is kept, as
/// `reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// games.csv lacks one of [`GAME_COLUMNS`].
    #[error("games.csv has no column `{column}`")]
    NoColumn { column: &'static str },
    /// A line of games.csv that is not CSV (line 1 is the header).
    #[error("games.csv line {line}: {reason}")]
    Csv { line: usize, reason: String },
    /// A field of games.csv that does not read as its column's value.
    #[error("games.csv line {line}: `{column}` {error}")]
    Field {
        line: usize,
        column: &'static str,
        error: FieldError,
    },
    /// A row of games.csv whose cell columns name none of the run's cells.
    #[error(
        "games.csv line {line}: no cell of variant `{variant}`, {p1} vs {p2}, opening_plies \
         {opening_plies}"
    )]
    NoCell {
        line: usize,
        variant: String,
        p1: String,
        p2: String,
        opening_plies: u32,
    },
    /// A row of games.csv at or before the row above it.
    #[error("games.csv line {line}: game {game} is out of (cell, game) order")]
    OutOfOrder { line: usize, game: u64 },
    /// A run state of a run that kept rows, without its games.csv's name.
    #[error("it keeps rows but names no games.csv")]
    RowsUnnamed,
    /// The games.csv a run state names is not there.
    #[error("games.csv, which holds its rows, is missing")]
    RowsMissing,
    /// games.csv is not the file its run state names: `found` is the
    /// file there, `wanted` the one katro wrote.
    #[error(
        "games.csv is not the file katro wrote with it ({} bytes, FNV-1a {}; it was {} \
         bytes, FNV-1a {}): it was changed after the run",
        .found.bytes, .found.fnv1a64, .wanted.bytes, .wanted.fnv1a64
    )]
    RowsChanged { found: FileRef, wanted: FileRef },
    /// A stored game in `path` that is no game of the run's cells (boxed:
    /// the largest variant, which every `FileError` would otherwise be).
    #[error("{}: {error}", .path.display())]
    Row { path: PathBuf, error: Box<RowError> },
    /// A manifest the store cannot read.
    #[error("{}: cannot read it: {reason}", .path.display())]
    ManifestUnreadable { path: PathBuf, reason: String },
    /// A manifest that does not parse as katro's.
    #[error("{}: not a katro manifest ({reason})", .path.display())]
    NotManifest { path: PathBuf, reason: String },
    /// A manifest that does not parse, its path named by the caller.
    #[error("cannot read it: {reason}")]
    ManifestDamaged { reason: String },
    /// A manifest's `variants` without the variant `name`.
    #[error("no variant `{name}` in its `variants`")]
    NoVariant { name: String },
    /// A manifest's variant `name` without its settings.
    #[error("variant `{name}` has no `settings`")]
    NoSettings { name: String },
    /// A manifest's setting that is no TOML value.
    #[error("variant `{name}`, setting `{setting}`: {reason}")]
    Setting {
        name: String,
        setting: String,
        reason: String,
    },
    /// A manifest's variant whose settings do not make a variant.
    #[error("variant `{name}`: {error}")]
    Variant { name: String, error: InputError },
    /// A manifest's variant whose settings make other rules than its
    /// rules string: `settings_rules` is what the settings give.
    #[error("variant `{name}`: its settings give {settings_rules} but its rules string is {rules}")]
    RulesDiffer {
        name: String,
        settings_rules: String,
        rules: String,
    },
    /// A shard file the store cannot read.
    #[error("{}: cannot read: {reason}", .path.display())]
    ShardUnreadable { path: PathBuf, reason: String },
    /// A shard file that does not parse.
    #[error("{}: not a katro shard file, or damaged: {reason}", .path.display())]
    NotShard { path: PathBuf, reason: String },
    /// A shard file of another format than this katro writes.
    #[error("{}: format {found:?}, not {wanted:?}", .path.display())]
    ShardFormat {
        path: PathBuf,
        found: String,
        wanted: &'static str,
    },
    /// A checkpoint file the store cannot read.
    #[error("cannot read {}: {reason}", .path.display())]
    CheckpointUnreadable { path: PathBuf, reason: String },
    /// A checkpoint file that does not parse.
    #[error("{} is damaged: {reason}", .path.display())]
    CheckpointDamaged { path: PathBuf, reason: String },
    /// A checkpoint state of another format than this katro writes.
    #[error("{} is not a katro checkpoint (format {found:?})", .path.display())]
    NotCheckpoint { path: PathBuf, found: String },
    /// What a first save left unfinished, which the store cannot delete.
    #[error("cannot delete {}: {reason}", .path.display())]
    Undeletable { path: PathBuf, reason: String },
    /// A checkpoint whose units are not the ones this katro plays.
    #[error(
        "the checkpoint in {} cuts the games into other units than this katro does",
        .dir.display()
    )]
    OtherLayout { dir: PathBuf },
    /// A checkpoint that reads, but does not fit the work.
    #[error(transparent)]
    Resume(#[from] ResumeMismatch),
}

pub use checkpoint::{CHECKPOINT_FORMAT, CheckpointFile};
pub use comparison::{COMPARISON_COLUMNS, comparison_csv, comparison_pairs};
pub use csv::{DECIMALS, float, p_value};
pub use games::{
    FieldError, GAME_COLUMNS, GameLine, RowError, game_column_names, games_csv, read_games_csv,
};
pub use header::{BUILD, RunHeader, UNKNOWN_BUILD, other_builds};
pub use lengths::{LENGTH_COLUMNS, lengths_csv};
pub use manifest::{
    ExperimentSource, Manifest, ManifestCell, ManifestRead, ManifestShard, ManifestVariant,
    ManifestVariantRead, add_files, utc_timestamp,
};
pub use ratings::{
    PAIRWISE_COLUMNS, RATINGS_COLUMNS, pairwise_csv, ratings_csv, ratings_table, skill_trace_csv,
};
pub use shard::{SHARD_FORMAT, ShardFile, ShardHeader, VariantFile, sniff_shard_header};
pub use summary::{
    SUMMARY_COLUMNS, summary_column_names, summary_csv, summary_header, summary_table,
};
