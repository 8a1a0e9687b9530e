//! The experiment jobs behind `katro run`, `katro merge` and `katro
//! simulate --out`: read the inputs, check the output folder, play with
//! checkpoints, write the files. Everything is decided here; the files
//! are read and written through a [`Store`](crate::store::Store) (the file system is
//! [`crate::store::FsStore`]), and what a person should see goes to a
//! [`Progress`]. `katro` and any other caller (a Python binding) call
//! [`run`], [`merge`] and [`simulate`] and get the same bytes on disk.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::files::utc_timestamp;

pub mod agents;
pub mod bench;
pub mod certificate;
mod checkpoint;
pub mod clock;
pub mod curve;
mod error;
mod exact;
pub mod grow;
mod growth;
pub mod judge;
mod load;
mod merge;
pub mod nearby;
mod out_folder;
mod owned;
mod pictures;
pub mod play;
pub mod prove;
pub mod prove_batch;

mod named_variant;
pub mod prove_family;
pub mod prove_openings;
pub mod rate;
pub mod replay;
mod report_files;
mod results;
mod run;
mod show;
mod simulate;
pub mod solve;
pub mod solve_family;
mod survey;
mod validate;

pub use error::{
    CheckpointNote, ColumnNeed, Damage, Error, ErrorKind, Failure, FolderNotOurs, Interruption,
    MergeMismatch, OtherRunState, ProvedShardProblem, Readable, Refusal, RunStateProblem,
    ShardExperiment, ShardIndex, ShardProblem, ShardSays, SummaryLineProblem, TooManyOpenings,
    WouldChangePlayed,
};
pub use load::{Loaded, load_experiment};
pub use merge::{MergeOptions, merge};
pub use named_variant::load_variant;
pub use owned::{Folder, Whose, write_outputs};
pub use pictures::{write_board, write_viewer};
pub use report_files::{put, read_optional, report, write_report};
pub use results::RunOutcome;
pub use run::{RunOptions, run, shard_file_name};
pub use show::show;
pub use simulate::{SimulateOptions, simulate};
pub use validate::{Validated, validate};

/// What a person watching a job sees: the runner's game counts, and notes
/// (what was resumed, what `--force` deleted, sweep combinations left
/// out). `katro` draws a bar or prints lines on stderr.
pub use crate::experiment::runner::Progress;

fn now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    utc_timestamp(d.as_secs(), d.subsec_millis())
}

fn threads_or_all(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `n word` or `n words`: [`crate::engine::notation::plural`] for a word
/// whose plural ends in `s`.
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    crate::engine::notation::plural(n, word, &format!("{word}s"))
}

/// What `--force` does, in the words its help, the docs and every message
/// use (after "start afresh, "): one meaning for `run`, `merge` and
/// `simulate --out`, so that no message offers it for anything else.
pub const FORCE_MEANS: &str = "replacing only the files katro wrote (files katro did not write \
                               are never deleted or overwritten)";

/// A command line, each word quoted for a POSIX shell where it needs it:
/// how a message names the exact command to type next.
fn command_line<S: AsRef<str>>(words: &[S]) -> String {
    let quoted: Vec<String> = words
        .iter()
        .map(|w| replay::shell_word(w.as_ref()))
        .collect();
    quoted.join(" ")
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().to_string(),
    )
}

#[cfg(test)]
mod tests;
