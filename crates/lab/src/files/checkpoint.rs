//! `.katro-checkpoint/<part>/state.json`: where an unfinished run got
//! to. `jobs` saves and loads it through `Store`.

use serde::{Deserialize, Serialize};

use super::header::RunHeader;
use crate::experiment::plan::{Cell, CellLayout, Layout};
use crate::experiment::runner::RunState;

pub const CHECKPOINT_FORMAT: &str = "katro-checkpoint-3";

/// `.katro-checkpoint/<part>/state.json`: where an unfinished run got to.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckpointFile {
    pub format: String,
    /// `katro_build` is the build of the last save; `other_builds`, those
    /// of earlier sessions resumed with `--allow-other-build`.
    #[serde(flatten)]
    pub run: RunHeader,
    /// `[I, N]` for shard I of N; absent for a whole run.
    pub shard: Option<[u64; 2]>,
    /// The experiment file as the run was given it, so that a command
    /// finding the run unfinished can name the one that finishes it;
    /// empty in checkpoints written before it was kept.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub experiment: String,
    pub layout: Vec<CellLayout>,
    /// How many row files (`rows-000000.json`, ...) belong to this state:
    /// files numbered from 0 to this, less one. A later-numbered file was
    /// written by a save that did not finish, and is not part of it.
    pub row_files: u64,
    /// Seconds played in earlier sessions, summed.
    pub wall_seconds: f64,
    pub state: RunState,
}

impl CheckpointFile {
    /// Whether a checkpoint's layout is the one `cells` make.
    pub fn layout_fits(&self, cells: &[Cell]) -> bool {
        self.layout == Layout::new(cells).cells
    }
}
