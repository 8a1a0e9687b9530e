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

            // With --force: katro's files replaced, the user's kept. A
            // user's file under a name katro writes (summary.csv) is
            // refused even then, named, until the user moves it.
            let mut forced = args.clone();
            forced.push("--force");
            if kind == "user" {
                let out = katro(d, &forced);
                assert_eq!(out.code, 2, "katro {forced:?}: {}", out.stderr);
                for needle in [
                    "summary.csv: no manifest of this experiment lists it",
                    "--force never replaces a file katro did not write",
                ] {
                    assert!(out.stderr.contains(needle), "{forced:?}: {}", out.stderr);
                }
                assert!(snapshot(&at) == before, "katro {forced:?} changed {folder}");
                fs::rename(at.join("summary.csv"), d.join(format!("mine-{folder}.csv"))).unwrap();
            }
            ok(d, &forced);
            let after = snapshot(&at);
            if kind == "user" {
                for &(name, text) in user_files(is_merge) {
                    if name == "summary.csv" {
                        continue;
                    }
                    let now = after
                        .get(Path::new(name))
                        .unwrap_or_else(|| panic!("katro {forced:?} deleted the user's {name}"));
                    assert_eq!(now, text.as_bytes(), "{forced:?}: {name}");
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
    let run = ["run", "beta.toml", "--out", "b", "--threads", "1"];
    let forced = [&run[..], &["--force"]].concat();
    // --force does not replace it either: katro did not write it.
    let out = katro(d, &forced);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("games.csv"), "{}", out.stderr);
    assert_eq!(fs::read(d.join("b/games.csv")).unwrap(), b"mine\n");
    fs::remove_file(d.join("b/games.csv")).unwrap();
    ok(d, &forced);

    // A manifest.json katro cannot read may not be katro's: refused, with
    // --force as well, and left as it is.
    fs::write(d.join("b/manifest.json"), "not json").unwrap();
    for args in [&run[..], &forced[..]] {
        let out = katro(d, args);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(
            out.stderr.contains("manifest.json: katro cannot read it"),
            "{}",
            out.stderr
        );
        assert_eq!(fs::read(d.join("b/manifest.json")).unwrap(), b"not json");
    }
}

/// `katro show --svg FILE` and `katro replay --html FILE` replace a file
/// they wrote, but refuse one the user wrote unless `--force`.
#[test]
fn svg_and_html_refuse_a_file_katro_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for (file, args) in [
        ("b.svg", vec!["show", "katro-4x4", "--svg", "b.svg"]),
        (
            "g.html",
            vec!["replay", "katro-4x4", "a1", "--html", "g.html"],
        ),
    ] {
        // A new file, then katro's own file again: both written.
        ok(d, &args);
        let own = fs::read(d.join(file)).unwrap();
        ok(d, &args);
        assert_eq!(fs::read(d.join(file)).unwrap(), own);
        fs::write(d.join(file), "my own\n").unwrap();
        let out = katro(d, &args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        for needle in [file, "katro did not write it", "--force"] {
            assert!(out.stderr.contains(needle), "{args:?}: {}", out.stderr);
        }
        assert_eq!(fs::read(d.join(file)).unwrap(), b"my own\n");
        ok(d, &[&args[..], &["--force"]].concat());
        assert_eq!(fs::read(d.join(file)).unwrap(), own);
    }
}

/// A run slow enough to be caught playing: alpha-beta plays each game.
const SLOW: &str = r#"
name = "slow"
seed = 1
games = 100000
variants = ["katro-6x6"]

[[matchups]]
p1 = "alphabeta:depth=4"
p2 = "random"
"#;

/// Starts `katro run slow.toml --out o` and waits until it holds its lock.
fn start_slow_run(d: &Path, stderr: std::process::Stdio) -> std::process::Child {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_katro"))
        .current_dir(d)
        .args(["run", "slow.toml", "--out", "o", "--threads", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let lock = d.join("o/.katro-lock");
    let mine = format!("\"pid\":{}", child.id());
    for _ in 0..600 {
        if fs::read_to_string(&lock).is_ok_and(|t| t.contains(&mine)) {
            return child;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the run never took its lock");
}

/// A second run into a folder a run is using is refused at once, naming the
/// other run; once that run is killed, its lock is taken over.
#[test]
fn a_second_run_into_a_busy_folder_is_refused_and_a_killed_runs_lock_is_taken_over() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("slow.toml"), SLOW).unwrap();
    let mut first = start_slow_run(d, std::process::Stdio::null());
    let before = std::time::Instant::now();
    let out = katro(d, &["run", "slow.toml", "--out", "o", "--threads", "1"]);
    let pid = first.id();
    let _ = first.kill();
    let _ = first.wait();
    assert_eq!(out.code, 2, "{}", out.stderr);
    for needle in [
        "the output folder o is in use by another katro run".to_string(),
        format!("pid {pid} on host"),
        "run slow.toml --out o".to_string(),
    ] {
        assert!(out.stderr.contains(&needle), "{needle}: {}", out.stderr);
    }
    assert!(before.elapsed().as_secs() < 20, "refused at once");
    // The killed run's lock file is still there; the next run takes it over
    // (and is itself killed: only the note matters here).
    assert!(d.join("o/.katro-lock").exists());
    let mut second = start_slow_run(d, std::process::Stdio::piped());
    let _ = second.kill();
    let err = second.wait_with_output().unwrap().stderr;
    let err = String::from_utf8_lossy(&err);
    assert!(
        err.contains(&format!(
            "took over the lock o/.katro-lock of a run that is no longer running (pid {pid}"
        )),
        "{err}"
    );
}

/// A run killed in its very first checkpoint save, after a rows file and
/// before `state.json`, leaves a checkpoint folder with no state: the rerun
/// starts afresh there instead of calling it a stranger.
#[test]
fn a_first_checkpoint_that_never_finished_is_not_in_the_way() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("alpha.toml"), ALPHA).unwrap();
    let cp = d.join("a/.katro-checkpoint/run");
    fs::create_dir_all(&cp).unwrap();
    fs::write(cp.join("rows-000000.json"), "[]").unwrap();
    fs::write(cp.join(".state.json.tmp-1"), "{").unwrap();
    ok(d, &["run", "alpha.toml", "--out", "a", "--threads", "1"]);
    assert!(d.join("a/summary.csv").exists());
    assert!(!d.join("a/.katro-checkpoint").exists());
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
