//! Partial results: what a checkpoint and a shard file hold, and how the
//! binary tells whose they are. Only the shapes and the checks live here;
//! the binary reads and writes the files.
//!
//! Both hold a [`RunState`] (exact integer aggregates per segment of each
//! cell, and the list of finished work units) and, when the experiment
//! asks for per-game rows, those rows. Both carry the experiment's
//! fingerprint and the build identity ([`BUILD`]), so a run never resumes
//! from, and a merge never combines, another experiment's games, nor
//! another engine's unless the user says so (`--allow-other-build`).

use serde::{Deserialize, Serialize};

use crate::experiment::runner::{Cell, CellLayout, Layout, RunState};
pub use crate::experiment::runner::{StoredRow, StoredStatus};
use crate::files::export::ExperimentSource;
pub use crate::files::export::{BUILD, RunHeader, UNKNOWN_BUILD};

// 2: aggregates carry the sketch of distinct games, rows their game hash.
pub const SHARD_FORMAT: &str = "katro-shard-2";

/// The builds among `builds` other than `this`, sorted, each once: what a
/// manifest, checkpoint or shard lists as `other_builds`.
pub fn other_builds<'a>(this: &str, builds: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let set: std::collections::BTreeSet<&str> = builds.into_iter().filter(|b| *b != this).collect();
    set.into_iter().map(str::to_string).collect()
}
pub const CHECKPOINT_FORMAT: &str = "katro-checkpoint-2";

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
    pub rows: Vec<StoredRow>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::experiment::runner::{GameRow, Stop, play_game};
    use crate::rules::preset;

    #[test]
    fn rows_survive_storage() {
        let rules = preset("katro-6x6-diagonal").unwrap();
        let cells = [Cell {
            rules: &rules,
            p1: &AgentSpec::Random,
            p2: &AgentSpec::Greedy,
            opening_plies: 0,
            stop: Stop::Games(3),
        }];
        for seed in 0..20 {
            let mut moves = Vec::new();
            let record = play_game(
                &rules,
                &AgentSpec::Random,
                &AgentSpec::Greedy,
                0,
                seed,
                Some(&mut moves),
            );
            let row = GameRow {
                cell: 0,
                game: seed,
                seed,
                record,
                moves,
            };
            let stored = StoredRow::new(&cells, &row);
            let json = serde_json::to_string(&stored).unwrap();
            let back: StoredRow = serde_json::from_str(&json).unwrap();
            assert_eq!(back.to_row(&cells).unwrap(), row);
        }
        let mut bad = StoredRow::new(
            &cells,
            &GameRow {
                cell: 0,
                game: 0,
                seed: 0,
                record: play_game(&rules, &AgentSpec::Random, &AgentSpec::Random, 0, 1, None),
                moves: vec![],
            },
        );
        bad.cell = 4;
        assert!(bad.to_row(&cells).unwrap_err().contains("no such cell"));
        bad.cell = 0;
        bad.status = StoredStatus::Won;
        bad.winner = Some(3);
        assert!(bad.to_row(&cells).is_err());
        // The status is the engine's name for it, read back by serde.
        bad.winner = Some(1);
        let json = serde_json::to_string(&bad).unwrap();
        assert!(json.contains("\"status\":\"won\""), "{json}");
        let text = json.replace("\"won\"", "\"ply-limit\"");
        let back: StoredRow = serde_json::from_str(&text).unwrap();
        assert_eq!(back.status, StoredStatus::PlyLimit);
        assert!(
            back.to_row(&cells).is_err(),
            "a ply-limit game has no winner"
        );
        assert!(serde_json::from_str::<StoredRow>(&json.replace("\"won\"", "\"draw\"")).is_err());
    }

    #[test]
    fn the_header_is_read_from_the_first_bytes() {
        let header = ShardHeader {
            format: SHARD_FORMAT.into(),
            run: RunHeader {
                katro_version: "0.1.0".into(),
                katro_build: "src-0123456789abcdef".into(),
                other_builds: vec!["src-fedcba9876543210".into()],
                experiment_hash: "0123456789abcdef".into(),
                name: "exp".into(),
            },
            shard: 2,
            shards: 5,
        };
        let mut text = serde_json::to_string(&header).unwrap();
        text.pop();
        text.push_str(",\"experiment\":{\"text\":\"é,\\\"experiment\\\":\"}}");
        let bytes = text.as_bytes();
        assert_eq!(sniff_shard_header(bytes), Some(header.clone()));
        // Cut in the middle of the two-byte é: still read.
        let cut = text.find('é').unwrap() + 1;
        assert_eq!(sniff_shard_header(&bytes[..cut]), Some(header));
        assert_eq!(sniff_shard_header(b"{\"format\":"), None);
        assert_eq!(sniff_shard_header(b"not json"), None);
        // A shard from before build identities: its build is unknown,
        // which is never this build, so it is refused by default.
        let old = b"{\"format\":\"katro-shard-1\",\"katro_version\":\"0.1.0\",\
                    \"experiment_hash\":\"0123456789abcdef\",\"name\":\"exp\",\"shard\":1,\
                    \"shards\":2,\"experiment\":{}}";
        let h = sniff_shard_header(old).unwrap();
        assert_eq!(h.run.katro_build, UNKNOWN_BUILD);
        assert_ne!(h.run.katro_build, BUILD);
        assert!(h.run.other_builds.is_empty());
    }

    #[test]
    fn other_builds_are_sorted_once_without_this_one() {
        assert!(BUILD.starts_with("src-") && BUILD.len() == 20, "{BUILD}");
        assert_eq!(
            other_builds("src-b", ["src-c", "src-b", "src-a", "src-c"]),
            ["src-a", "src-c"]
        );
        assert!(other_builds("src-b", ["src-b"]).is_empty());
    }
}
