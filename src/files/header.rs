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

    /// The build identity is this crate's sources' (the one function
    /// build.rs calls); in a copy of a small tree, a change to a report,
    /// the command line or a comment leaves it, and a change to the
    /// engine's code, a variant or the lock file changes it (issue 47).
    #[test]
    fn only_what_decides_games_changes_the_build_identity() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let (this, hashed) = build_identity(root);
        assert_eq!(this, super::BUILD);
        assert!(hashed.iter().any(|p| p == "src/engine.rs"), "{hashed:?}");
        assert!(!hashed.iter().any(|p| p.starts_with("src/pictures")));
        assert!(!hashed.iter().any(|p| p.starts_with("src/bin/")));

        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        let write = |rel: &str, text: &str| {
            let path = t.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        write("Cargo.toml", "[package]\nname = \"x\"\n");
        write("Cargo.lock", "version = 4\n");
        write("variants/v.toml", "name = \"v\"\n");
        write(
            "src/engine.rs",
            "/// Sows.\npub fn sow(n: u32) -> u32 {\n    n + 1\n}\n",
        );
        write(
            "src/pictures/report.rs",
            "pub fn title() -> &'static str {\n    \"A\"\n}\n",
        );
        write("src/bin/katro/main.rs", "fn main() {}\n");
        let id = || build_identity(t).0;
        let base = id();

        let unchanged = [
            (
                "src/pictures/report.rs",
                "pub fn title() -> &'static str {\n    \"B\"\n}\n",
            ),
            (
                "src/bin/katro/main.rs",
                "fn main() {\n    println!(\"hi\");\n}\n",
            ),
            (
                "src/engine.rs",
                "/// Sows one seed a hole.\n// why: the rules, §5\npub fn sow(n: u32) -> u32 {\n    n + 1\n}\n",
            ),
            (
                "src/engine.rs",
                "/// Sows.\r\npub fn sow(n: u32) -> u32 {\r\n    n + 1\r\n}\r\n",
            ),
        ];
        for (rel, text) in unchanged {
            write(rel, text);
            assert_eq!(id(), base, "{rel}: {text:?}");
        }
        write(
            "src/engine.rs",
            "/// Sows.\npub fn sow(n: u32) -> u32 {\n    n + 1\n}\n",
        );
        assert_eq!(id(), base);

        let changed = [
            (
                "src/engine.rs",
                "/// Sows.\npub fn sow(n: u32) -> u32 {\n    n + 2\n}\n",
            ),
            ("variants/v.toml", "name = \"w\"\n"),
            ("Cargo.lock", "version = 3\n"),
            ("src/agents.rs", "pub fn new_agent() {}\n"),
        ];
        let mut seen = vec![base.clone()];
        for (rel, text) in changed {
            write(rel, text);
            let now = id();
            assert!(
                !seen.contains(&now),
                "{rel}: {text:?} left the identity {now}"
            );
            seen.push(now);
        }
    }
}
