//! The files a run writes and reads back, one module per format, each
//! holding the format's one definition: the CSV conventions (`csv`),
//! summary.csv (`summary`), games.csv (`games`), lengths.csv
//! (`lengths`), comparison.csv (`comparison`), a tournament's ratings
//! files (`ratings`), manifest.json (`manifest`), run-state.json
//! (`run_state`), the build identity and run header every partial file
//! carries (`header`), shards (`shard`), checkpoints (`checkpoint`), the
//! lock of an output folder (`lock`) and `katro solve-family`'s
//! solved.csv and manifest (`solved`). docs/OUTPUTS.md documents every
//! one.
//!
//! Nothing here reads a clock or a file: the same aggregates give the same
//! bytes, so the CSV files of a run are identical whatever the thread
//! count, and `jobs` writes them through `Store`.

pub mod checkpoint;
pub mod comparison;
pub mod csv;
pub mod exact_openings;
pub mod games;
pub mod header;
pub mod lengths;
pub mod lock;
pub mod manifest;
pub mod metrics_csv;
pub mod ratings;
pub mod run_state;
pub mod shard;
pub mod solved;
pub mod strength_curve;
pub mod summary;
#[cfg(test)]
mod tests;

/// A file katro wrote that does not read back as one (damaged, edited,
/// or of another shape): the message names the file, line or row and
/// what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FileError(pub String);

pub use checkpoint::{CHECKPOINT_FORMAT, CheckpointFile};
pub use comparison::{COMPARISON_COLUMNS, comparison_csv, comparison_pairs};
pub use csv::{DECIMALS, float, p_value};
pub use games::{GAME_COLUMNS, GameLine, game_column_names, games_csv, read_games_csv};
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
