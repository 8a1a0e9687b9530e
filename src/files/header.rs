//! Who wrote a file: this build's identity and the header a checkpoint,
//! shard and run-state file share, so a run never resumes from, and a
//! merge never combines, another experiment's games, nor another
//! engine's unless the user says so (`--allow-other-build`).

use serde::{Deserialize, Serialize};

/// This build's identity, `src-` and 16 hex digits: a hash of the sources
/// the engine and runner are built from (see `build.rs`). Two builds with
/// the same identity play the same games; the crate version cannot say so.
pub const BUILD: &str = env!("KATRO_BUILD");

/// What a file written before build identities existed is taken to carry.
pub const UNKNOWN_BUILD: &str = "unknown";

fn unknown_build() -> String {
    UNKNOWN_BUILD.to_string()
}

/// Who played a run and of which experiment: the one header a checkpoint,
/// a shard, `run-state.json` and `manifest.json` all carry, flattened
/// into each, so a folder check reads any of them the same way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    pub katro_version: String,
    /// The build that wrote the file (see [`BUILD`]).
    #[serde(default = "unknown_build")]
    pub katro_build: String,
    /// Other builds that played some of the games (a checkpoint resumed or
    /// shards merged with `--allow-other-build`); empty when only
    /// `katro_build` did.
    #[serde(default)]
    pub other_builds: Vec<String>,
    /// The experiment's fingerprint (see `experiment::fingerprint`); empty in a
    /// manifest written before fingerprints.
    #[serde(default)]
    pub experiment_hash: String,
    pub name: String,
}

impl RunHeader {
    /// This build's header for experiment `name` of fingerprint `hash`.
    pub fn new(hash: &str, name: &str, other_builds: Vec<String>) -> RunHeader {
        RunHeader {
            katro_version: env!("CARGO_PKG_VERSION").to_string(),
            katro_build: BUILD.to_string(),
            other_builds,
            experiment_hash: hash.to_string(),
            name: name.to_string(),
        }
    }

    /// Every build that played the games.
    pub fn builds(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.katro_build.as_str())
            .chain(self.other_builds.iter().map(String::as_str))
    }
}

/// The builds among `builds` other than `this`, sorted, each once: what a
/// manifest, checkpoint or shard lists as `other_builds`.
pub fn other_builds<'a>(this: &str, builds: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let set: std::collections::BTreeSet<&str> = builds.into_iter().filter(|b| *b != this).collect();
    set.into_iter().map(str::to_string).collect()
}
