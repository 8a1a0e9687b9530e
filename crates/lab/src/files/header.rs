//! Who wrote a file: this build's identity and the header a checkpoint,
//! shard and run-state file share, so a run never resumes from, and a
//! merge never combines, another experiment's games, nor another
//! engine's unless the user says so (`--allow-other-build`).

use serde::{Deserialize, Serialize};

/// This build's identity, `src-` and 16 hex digits: a hash of the sources
/// that decide games (build_identity.rs says which: not the reports, the
/// command line or comments). Two builds with the same identity play the
/// same games; the crate version cannot say so.
pub const BUILD: &str = env!("KATRO_BUILD");

/// What `katro --version` prints: the version and the build identity.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (build ",
    env!("KATRO_BUILD"),
    ")"
);

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

#[cfg(test)]
mod identity_tests {
    include!("../../build_identity.rs");

    use std::fs;
    use std::path::Path;

    /// The build identity is the workspace's game-deciding sources' (the
    /// one function build.rs calls); in a copy of a small tree, a change
    /// to a report, a job, a result file's format, the statistics, the
    /// command line or a comment leaves it, and a change to the engine's
    /// code, an agent, the runner, a variant or the lock file changes it
    /// (issue 47).
    #[test]
    fn only_what_decides_games_changes_the_build_identity() {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let (this, hashed) = build_identity(root);
        assert_eq!(this, super::BUILD);
        for decides in [
            "crates/core/src/engine.rs",
            "crates/core/src/engine/sowing.rs",
            "crates/lab/src/experiment/runner.rs",
            "variants/katro-6x6.toml",
            "Cargo.lock",
        ] {
            assert!(hashed.iter().any(|p| p == decides), "{decides}: {hashed:?}");
        }
        for prefix in [
            "crates/lab/src/pictures",
            "crates/lab/src/jobs",
            "crates/lab/src/files",
            "crates/lab/src/experiment/ratings.rs",
            "src/",
            "tests/",
        ] {
            assert!(!hashed.iter().any(|p| p.starts_with(prefix)), "{prefix}");
        }

        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        let write = |rel: &str, text: &str| {
            let path = t.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        let engine = "crates/core/src/engine.rs";
        write("Cargo.toml", "[workspace]\n");
        write("crates/core/Cargo.toml", "[package]\nname = \"x\"\n");
        write("Cargo.lock", "version = 4\n");
        write("variants/v.toml", "name = \"v\"\n");
        write(
            engine,
            "/// Sows.\npub fn sow(n: u32) -> u32 {\n    n + 1\n}\n",
        );
        let title = |s: &str| format!("pub fn title() -> &'static str {{\n    \"{s}\"\n}}\n");
        write("crates/lab/src/pictures/report.rs", &title("A"));
        write("crates/lab/src/jobs/report.rs", &title("A"));
        write("crates/lab/src/files/summary.rs", &title("A"));
        write("crates/lab/src/experiment/interval.rs", &title("A"));
        write("crates/lab/src/experiment/runner.rs", &title("A"));
        write("src/bin/katro/main.rs", "fn main() {}\n");
        let id = || build_identity(t).0;
        let base = id();

        let unchanged = [
            ("crates/lab/src/pictures/report.rs", title("B")),
            ("crates/lab/src/jobs/report.rs", title("B")),
            ("crates/lab/src/files/summary.rs", title("B")),
            ("crates/lab/src/experiment/interval.rs", title("B")),
            ("Cargo.toml", "[workspace]\nmembers = [\".\"]\n".into()),
            (
                "src/bin/katro/main.rs",
                "fn main() {\n    println!(\"hi\");\n}\n".into(),
            ),
            (
                engine,
                "/// Sows one seed a hole.\n// why: the rules, §5\npub fn sow(n: u32) -> u32 {\n    n + 1\n}\n".into(),
            ),
            (
                engine,
                "/// Sows.\r\npub fn sow(n: u32) -> u32 {\r\n    n + 1\r\n}\r\n".into(),
            ),
        ];
        for (rel, text) in unchanged {
            write(rel, &text);
            assert_eq!(id(), base, "{rel}: {text:?}");
        }
        write(
            engine,
            "/// Sows.\npub fn sow(n: u32) -> u32 {\n    n + 1\n}\n",
        );
        assert_eq!(id(), base);

        let changed = [
            (
                engine,
                "/// Sows.\npub fn sow(n: u32) -> u32 {\n    n + 2\n}\n".to_string(),
            ),
            ("variants/v.toml", "name = \"w\"\n".into()),
            ("Cargo.lock", "version = 3\n".into()),
            (
                "crates/core/src/agents.rs",
                "pub fn new_agent() {}\n".into(),
            ),
            ("crates/lab/src/experiment/runner.rs", title("B")),
        ];
        let mut seen = vec![base.clone()];
        for (rel, text) in changed {
            write(rel, &text);
            let now = id();
            assert!(
                !seen.contains(&now),
                "{rel}: {text:?} left the identity {now}"
            );
            seen.push(now);
        }
    }
}
