//! No command deletes or overwrites what it did not write: every command
//! that writes files (`run`, `run --shard`, `merge`, `simulate --out`),
//! pointed at a folder holding another experiment's outputs or the user's
//! own files, refuses with exit code 2, says what is there and that
//! `--force` overrides, and leaves every byte as it was; with `--force` it
//! replaces katro's files and keeps the user's.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;

const ALPHA: &str = r#"
name = "alpha"
seed = 3
games = 12
per_game_rows = true
variants = ["katro-4x4", "katro-6x3"]
lap_limit = 10000

[[matchups]]
p1 = "random"
p2 = "greedy"
"#;

const BETA: &str = r#"
name = "beta"
seed = 4
games = 10
variants = ["katro-4x4"]
lap_limit = 10000

[[matchups]]
p1 = "random"
p2 = "random"
"#;

struct Out {
    code: i32,
    stderr: String,
}

fn katro(dir: &Path, args: &[&str]) -> Out {
    let out = cargo_bin_cmd!("katro")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "katro {args:?}: {stderr}");
    Out {
        code: out.status.code().expect("exited, not killed"),
        stderr,
    }
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = katro(dir, args);
    assert_eq!(out.code, 0, "katro {args:?}: {}", out.stderr);
    out.stderr
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, at: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in fs::read_dir(at).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_path_buf();
                out.insert(rel, fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            fs::copy(&p, &target).unwrap();
        }
    }
}

/// The user's own files, none of which katro wrote: one with a name katro
/// writes, and one in the shards folder (left out for `merge`, which
/// reads every `shards/*.json` as a shard and refuses what is not one).
const USER_FILES: [(&str, &str); 3] = [
    ("notes.txt", "my notes\n"),
    ("summary.csv", "my,own\n1,2\n"),
    ("shards/readme.json", "{\"mine\": true}\n"),
];

fn user_files(merge: bool) -> &'static [(&'static str, &'static str)] {
    if merge { &USER_FILES[..2] } else { &USER_FILES }
}

/// The writing commands, each aimed at `folder`. `merge` needs shards to
/// merge: beta's single shard is copied in first.
fn commands(folder: &str) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&["run", "beta.toml", "--out", folder, "--threads", "1"]),
        s(&[
            "run",
            "beta.toml",
            "--out",
            folder,
            "--shard",
            "1/2",
            "--threads",
            "1",
        ]),
        s(&[
            "simulate",
            "katro-4x4",
            "--games",
            "5",
            "--p1",
            "random",
            "--p2",
            "random",
            "--out",
            folder,
            "--threads",
            "1",
        ]),
        s(&["merge", folder]),
    ]
}

#[test]
fn every_writing_command_refuses_a_folder_it_did_not_write_and_force_keeps_user_files() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("alpha.toml"), ALPHA).unwrap();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    ok(
        d,
        &["run", "alpha.toml", "--out", "alpha", "--threads", "1"],
    );
    for f in [
        "manifest.json",
        "summary.csv",
        "comparison.csv",
        "games.csv",
    ] {
        assert!(d.join("alpha").join(f).exists(), "{f}");
    }
    ok(
        d,
        &[
            "run",
            "beta.toml",
            "--out",
            "beta-shard",
            "--shard",
            "1/1",
            "--threads",
            "1",
        ],
    );
    let beta_shard = d.join("beta-shard/shards/shard-1-of-1.json");

    for (n, args) in commands("X").iter().enumerate() {
        let is_merge = args[0] == "merge";
        for kind in ["experiment", "user"] {
            let folder = format!("{kind}-{n}");
            let args: Vec<&str> = args
                .iter()
                .map(|a| {
                    if a == "X" {
                        folder.as_str()
                    } else {
                        a.as_str()
                    }
                })
                .collect();
            let at = d.join(&folder);
            match kind {
                "experiment" => copy_dir(&d.join("alpha"), &at),
                _ => {
                    fs::create_dir_all(at.join("shards")).unwrap();
                    for (name, text) in user_files(is_merge) {
                        fs::write(at.join(name), text).unwrap();
                    }
                }
            }
            if is_merge {
                fs::create_dir_all(at.join("shards")).unwrap();
                fs::copy(&beta_shard, at.join("shards/shard-1-of-1.json")).unwrap();
            }
            let before = snapshot(&at);
            let out = katro(d, &args);
            assert_eq!(out.code, 2, "katro {args:?}: {}", out.stderr);
            let what = match kind {
                "experiment" => "results of experiment `alpha`",
                _ => "notes.txt: not a katro output",
            };
            for needle in [what, "--force", &format!("output folder {folder} holds")] {
                assert!(
                    out.stderr.contains(needle),
                    "katro {args:?}: `{needle}` missing from:\n{}",
                    out.stderr
                );
            }
            assert!(
                snapshot(&at) == before,
                "katro {args:?} changed {folder} although it refused"
            );

            // With --force: katro's files replaced, the user's kept.
            let mut forced = args.clone();
            forced.push("--force");
            ok(d, &forced);
            let after = snapshot(&at);
            if kind == "user" {
                for &(name, text) in user_files(is_merge) {
                    // summary.csv is a name katro writes: replaced by any
                    // command that writes results, never deleted.
                    let replaced = name == "summary.csv" && !args.contains(&"--shard");
                    let now = after
                        .get(Path::new(name))
                        .unwrap_or_else(|| panic!("katro {forced:?} deleted the user's {name}"));
                    assert_eq!(now == text.as_bytes(), !replaced, "{forced:?}: {name}");
                }
            } else if args.contains(&"--shard") {
                // Alpha's results, which katro wrote, deleted so that no
                // merge mixes them with beta's; the shard written.
                assert!(!after.contains_key(Path::new("manifest.json")));
                assert!(!after.contains_key(Path::new("games.csv")));
                assert!(after.contains_key(Path::new("shards/shard-1-of-2.json")));
            } else {
                // Alpha's results replaced by the new command's; alpha's
                // games.csv, which the manifest listed, is gone with them.
                let m: serde_json::Value =
                    serde_json::from_slice(&after[Path::new("manifest.json")]).unwrap();
                assert_ne!(m["name"], "alpha");
                assert!(!after.contains_key(Path::new("games.csv")), "{forced:?}");
            }
            // Running again is no longer refused: the folder is the
            // command's own now (user files aside).
            if kind == "experiment" {
                ok(d, &args);
            }
        }
    }
}

/// `--force` deletes only result files a katro manifest listed: a
/// `games.csv` of the user's next to katro's results survives a run that
/// writes no games.csv, and so does an unrelated file of the user's.
#[test]
fn stale_results_are_removed_only_when_a_katro_manifest_listed_them() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    ok(d, &["run", "beta.toml", "--out", "b", "--threads", "1"]);
    fs::write(d.join("b/games.csv"), "mine\n").unwrap();
    let out = katro(d, &["run", "beta.toml", "--out", "b", "--threads", "1"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("games.csv: no manifest of this experiment lists it")
    );
    ok(
        d,
        &[
            "run",
            "beta.toml",
            "--out",
            "b",
            "--threads",
            "1",
            "--force",
        ],
    );
    assert_eq!(fs::read(d.join("b/games.csv")).unwrap(), b"mine\n");

    // A manifest.json katro cannot read may not be katro's: refused, and
    // with --force replaced by the new one only.
    fs::write(d.join("b/manifest.json"), "not json").unwrap();
    let run = ["run", "beta.toml", "--out", "b", "--threads", "1"];
    let out = katro(d, &run);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("manifest.json: katro cannot read it"),
        "{}",
        out.stderr
    );
    assert_eq!(fs::read(d.join("b/manifest.json")).unwrap(), b"not json");
    ok(d, &[&run[..], &["--force"]].concat());
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(d.join("b/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["name"], "beta");
    assert_eq!(fs::read(d.join("b/games.csv")).unwrap(), b"mine\n");
}

/// scripts/slurm/submit.sh makes OUT/slurm/ for the jobs' logs before the
/// shards run: the shards and the merge go on beside it, and leave it be.
#[test]
fn the_slurm_log_folder_is_not_a_foreign_file() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    fs::create_dir_all(d.join("out/slurm")).unwrap();
    fs::write(d.join("out/slurm/shard-1_1.out"), "log\n").unwrap();
    for i in ["1/2", "2/2"] {
        ok(
            d,
            &[
                "run",
                "beta.toml",
                "--out",
                "out",
                "--shard",
                i,
                "--threads",
                "1",
            ],
        );
    }
    ok(d, &["merge", "out"]);
    assert!(d.join("out/summary.csv").exists());
    assert_eq!(
        fs::read(d.join("out/slurm/shard-1_1.out")).unwrap(),
        b"log\n"
    );
    // A file named `slurm` is the user's, not the log folder.
    fs::remove_dir_all(d.join("out/slurm")).unwrap();
    fs::write(d.join("out/slurm"), "mine\n").unwrap();
    let out = katro(d, &["merge", "out"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("slurm: not a katro output"),
        "{}",
        out.stderr
    );
}

/// `katro report DIR` redraws its own report and charts, but never replaces
/// a `report.html` or chart that `katro report` did not write, unless
/// `--force`; the folder's other files are never touched.
#[test]
fn report_refuses_to_replace_a_page_or_chart_it_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    ok(d, &["run", "beta.toml", "--out", "b", "--threads", "1"]);
    // Its own report: redrawn.
    ok(d, &["report", "b"]);
    for user in ["report.html", "plots/lengths.svg"] {
        let own = fs::read(d.join("b").join(user)).unwrap();
        fs::write(d.join("b").join(user), "mine\n").unwrap();
        let before = snapshot(&d.join("b"));
        let out = katro(d, &["report", "b"]);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains(user), "{}", out.stderr);
        assert!(out.stderr.contains("--force"), "{}", out.stderr);
        assert!(
            snapshot(&d.join("b")) == before,
            "report changed b/ although it refused"
        );
        ok(d, &["report", "b", "--force"]);
        assert_eq!(fs::read(d.join("b").join(user)).unwrap(), own, "{user}");
    }
}
