//! `shards/shard-I-of-N.json`: one shard's finished part of a run, with
//! its experiment's text and variant files, so a merge on another
//! machine rebuilds the experiment from it. `jobs` reads and writes it
//! through `Store` and decides whose it is from its [`RunHeader`].

use serde::{Deserialize, Serialize};

use super::games::GameLine;
use super::header::RunHeader;
use super::manifest::ExperimentSource;
use crate::experiment::plan::CellLayout;
use crate::experiment::runner::RunState;

// 2: aggregates carry the sketch of distinct games, rows their game hash.
pub const SHARD_FORMAT: &str = "katro-shard-3";

/// The first fields of a shard file. They come first in the file, and hold
/// no free text, so a folder check can read them from the file's first
/// bytes without reading its rows (see [`sniff_shard_header`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardHeader {
    pub format: String,
    #[serde(flatten)]
    pub run: RunHeader,
    pub shard: u64,
    pub shards: u64,
}

/// A variant file an experiment names, as it was read: a merge on another
/// machine rebuilds the experiment from these, not from the disk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantFile {
    /// As written in the experiment.
    pub spec: String,
    /// The path it was read from.
    pub file: String,
    pub text: String,
}

/// `shards/shard-I-of-N.json`: one shard's finished part of a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardFile {
    pub format: String,
    // Flattened: serde buffers only the fields the outer struct does not
    // name (the header's), never the rows.
    #[serde(flatten)]
    pub run: RunHeader,
    pub shard: u64,
    pub shards: u64,
    pub experiment: ExperimentSource,
    pub variant_files: Vec<VariantFile>,
    pub layout: Vec<CellLayout>,
    pub threads: usize,
    pub start_time: String,
    pub end_time: String,
    /// Seconds this shard played, summed over its sessions if resumed.
    pub wall_seconds: f64,
    /// Games the shard played (a `[precision]` cell's games past its stop
    /// included).
    pub games: u64,
    pub state: RunState,
    pub rows: Vec<GameLine>,
}

impl ShardFile {
    pub fn header(&self) -> ShardHeader {
        ShardHeader {
            format: self.format.clone(),
            run: self.run.clone(),
            shard: self.shard,
            shards: self.shards,
        }
    }
}

/// Reads a shard file's header from its first bytes: the header's fields
/// are written first, and hold only digits, hex, version and folder-safe
/// names, so the text up to the first field after them is a JSON object
/// once closed.
pub fn sniff_shard_header(start: &[u8]) -> Option<ShardHeader> {
    let text = std::str::from_utf8(start).ok().or_else(|| {
        // The cut may split a character in the experiment text further on.
        let valid = std::str::from_utf8(start).err()?.valid_up_to();
        std::str::from_utf8(&start[..valid]).ok()
    })?;
    let end = text.find(",\"experiment\":")?;
    serde_json::from_str(&format!("{}}}", &text[..end])).ok()
}
