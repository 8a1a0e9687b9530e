//! No command deletes or overwrites what it did not write: every command
//! that writes files (`run`, `run --shard`, `merge`, `simulate --out`),
//! pointed at a folder holding another experiment's outputs, refuses with
//! exit code 2, says what is there and names the command with `--force`,
//! and leaves every byte as it was; with `--force` it replaces katro's
//! files. The user's own files are left alone: beside katro's names they
//! block nothing; at a name katro writes they are refused, --force or not,
//! naming the command to run once they are moved.

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
            // The exact command to type next, as the user would.
            // `katro run` names the flags that choose what is played and
            // where, in its own order; the others repeat their words.
            let again = |force: bool| {
                let mut words: Vec<&str> = match args[0] {
                    "run" if args.contains(&"--shard") => {
                        vec![
                            "katro",
                            "run",
                            "beta.toml",
                            "--out",
                            &folder,
                            "--shard",
                            "1/2",
                        ]
                    }
                    "run" => vec!["katro", "run", "beta.toml", "--out", &folder],
                    _ => std::iter::once("katro")
                        .chain(args.iter().copied())
                        .collect(),
                };
                if force {
                    words.push("--force");
                }
                words.join(" ")
            };
            let needles = match kind {
                "experiment" => vec![
                    "results of experiment `alpha`".to_string(),
                    format!(
                        "`{}` starts afresh, {}; or give another output folder",
                        again(true),
                        katro_lab::jobs::FORCE_MEANS
                    ),
                ],
                // The user's summary.csv blocks; notes.txt blocks nothing.
                _ => vec![
                    "summary.csv: no manifest of this experiment lists it".to_string(),
                    format!(
                        "katro never deletes or overwrites them, --force or not: move or \
                         rename them, then run `{}`",
                        again(false)
                    ),
                ],
            };
            for needle in needles
                .iter()
                .chain([&format!("output folder {folder} holds")])
            {
                assert!(
                    out.stderr.contains(needle.as_str()),
                    "katro {args:?}: `{needle}` missing from:\n{}",
                    out.stderr
                );
            }
            assert!(!out.stderr.contains("notes.txt"), "{}", out.stderr);
            assert!(
                snapshot(&at) == before,
                "katro {args:?} changed {folder} although it refused"
            );

            // A user's file under a name katro writes (summary.csv) is
            // refused with --force as well, named, until the user moves
            // it; then the command goes on beside the user's other files,
            // no --force needed. With --force, katro's files are replaced.
            let mut forced = args.clone();
            forced.push("--force");
            if kind == "user" {
                let out = katro(d, &forced);
                assert_eq!(out.code, 2, "katro {forced:?}: {}", out.stderr);
                let needle = format!("then run `{}`", again(true));
                for needle in [
                    "summary.csv: no manifest of this experiment lists it",
                    &needle,
                ] {
                    assert!(out.stderr.contains(needle), "{forced:?}: {}", out.stderr);
                }
                assert!(snapshot(&at) == before, "katro {forced:?} changed {folder}");
                fs::rename(at.join("summary.csv"), d.join(format!("mine-{folder}.csv"))).unwrap();
                ok(d, &args);
            } else {
                ok(d, &forced);
            }
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
    // A file named `slurm` is the user's, not the log folder: in nobody's
    // way, and kept.
    fs::remove_dir_all(d.join("out/slurm")).unwrap();
    fs::write(d.join("out/slurm"), "mine\n").unwrap();
    ok(d, &["merge", "out"]);
    assert_eq!(fs::read(d.join("out/slurm")).unwrap(), b"mine\n");
}

/// `--force` has one meaning, written the same in every command's help,
/// the docs and the messages: start afresh, replacing only the files
/// katro wrote.
#[test]
fn force_has_one_meaning_written_the_same_everywhere() {
    let means = katro_lab::jobs::FORCE_MEANS;
    let said = format!("tart afresh, {means}");
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for command in ["run", "merge", "simulate"] {
        let help = cargo_bin_cmd!("katro")
            .args([command, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&help.stdout).to_string();
        assert!(
            words(&help).contains(&said),
            "katro {command} --help:\n{help}"
        );
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in ["docs/EXPERIMENTS.md", "docs/ERRORS.md", "README.md"] {
        let text = fs::read_to_string(root.join(doc)).unwrap();
        assert!(words(&text).contains(means), "{doc} does not say {means:?}");
    }
    // The messages that offer it: a complete run, another experiment's
    // folder, a change to games already played.
    fs::write(d.join("beta.toml"), BETA).unwrap();
    fs::write(d.join("alpha.toml"), ALPHA).unwrap();
    let run = ["run", "beta.toml", "--out", "b", "--threads", "1"];
    ok(d, &run);
    let complete = cargo_bin_cmd!("katro")
        .current_dir(d)
        .args(run)
        .output()
        .unwrap();
    let complete = String::from_utf8_lossy(&complete.stdout).to_string();
    assert!(
        complete.contains(&format!(
            "nothing to play. `katro run beta.toml --out b --force` starts afresh, {means}, and \
             plays every game again"
        )),
        "{complete}"
    );
    let other = katro(d, &["run", "alpha.toml", "--out", "b"]);
    assert_eq!(other.code, 2);
    assert!(
        other.stderr.contains(&format!(
            "`katro run alpha.toml --out b --force` starts afresh, {means}; or give another \
             output folder"
        )),
        "{}",
        other.stderr
    );
    fs::write(d.join("beta.toml"), BETA.replace("seed = 4", "seed = 5")).unwrap();
    let changed = katro(d, &run);
    assert_eq!(changed.code, 2);
    assert!(
        changed.stderr.contains(&format!(
            "`katro run beta.toml --out b --force` starts afresh, {means}; or give another \
             output folder"
        )),
        "{}",
        changed.stderr
    );
    // What --force did, in the same words.
    let forced = ok(d, &["run", "alpha.toml", "--out", "b", "--force"]);
    assert!(
        forced.contains(&format!(
            "--force: starting afresh in b, {means}; found there:\n  manifest.json and its \
             results: results of experiment `beta`"
        )) && forced.contains("--force: deleted these files katro wrote:\n  manifest.json\n"),
        "{forced}"
    );
}

// ---------------------------------------------------------------------------
// One test per writing command: a file of the user's at every name the
// command can write, and a file katro wrote but the user changed since,
// survive byte for byte, with and without --force; the refusal exits 2 and
// names each of them.

/// Every name a results folder's writer (run, simulate, merge, a grown
/// run) can write: the result files, the report and its charts.
const RESULT_NAMES: [&str; 20] = [
    "manifest.json",
    "run-state.json",
    "summary.csv",
    "comparison.csv",
    "metrics.csv",
    "ratings.csv",
    "pairwise.csv",
    "skill-trace.csv",
    "games.csv",
    "lengths.csv",
    "perfect-moves.csv",
    "report.html",
    "plots/win-rate.svg",
    "plots/lengths.svg",
    "plots/comparison.svg",
    "plots/ratings.svg",
    "plots/skill-trace.svg",
    "plots/sweep-seeds.svg",
    "plots/metrics-drama_mean.svg",
    "plots/metrics-lead_change.svg",
];

/// Puts a file of the user's (its own bytes) at each of `names` in `at`.
fn put_user_files(at: &Path, names: &[&str]) {
    for n in names {
        let p = at.join(n);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, format!("<svg>MY OWN {n}</svg>\n")).unwrap();
    }
}

/// Runs each of `runs` in `d`: each must exit 2 naming every one of
/// `named`, and leave `at` as it was, byte for byte.
fn refused_keeping(d: &Path, at: &Path, runs: &[Vec<&str>], named: &[&str]) {
    let before = snapshot(at);
    for args in runs {
        let out = katro(d, args);
        assert_eq!(out.code, 2, "katro {args:?}: {}", out.stderr);
        for n in named {
            assert!(
                out.stderr.contains(n),
                "katro {args:?} does not name {n}:\n{}",
                out.stderr
            );
        }
        assert!(
            snapshot(at) == before,
            "katro {args:?} changed {} although it refused",
            at.display()
        );
    }
}

/// `args` and `args --force`.
fn with_and_without_force<'a>(args: &[&'a str]) -> Vec<Vec<&'a str>> {
    vec![args.to_vec(), [args, &["--force"]].concat()]
}

/// The file changed by a space after its first byte, as an edit would
/// (JSON still reads).
fn edit(path: &Path) {
    let mut b = fs::read(path).unwrap();
    b.insert(1, b' ');
    fs::write(path, b).unwrap();
}

#[test]
fn run_keeps_a_users_file_at_every_name_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    let at = d.join("u");
    put_user_files(&at, &RESULT_NAMES);
    let run = ["run", "beta.toml", "--out", "u", "--threads", "1"];
    refused_keeping(d, &at, &with_and_without_force(&run), &RESULT_NAMES);
    // The issue's case: the user's charts, and no other file, in plots/.
    fs::remove_dir_all(&at).unwrap();
    put_user_files(&at, &["plots/win-rate.svg", "plots/lengths.svg"]);
    let names = [
        "plots/win-rate.svg",
        "plots/lengths.svg",
        "katro did not write it",
    ];
    refused_keeping(d, &at, &with_and_without_force(&run), &names);
}

#[test]
fn a_shard_run_keeps_a_users_file_at_its_shards_name() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    let at = d.join("s");
    put_user_files(&at, &["shards/shard-1-of-2.json"]);
    let run = [
        "run",
        "beta.toml",
        "--out",
        "s",
        "--shard",
        "1/2",
        "--threads",
        "1",
    ];
    refused_keeping(
        d,
        &at,
        &with_and_without_force(&run),
        &["shards/shard-1-of-2.json"],
    );
}

#[test]
fn simulate_keeps_a_users_file_at_every_name_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let at = d.join("u");
    put_user_files(&at, &RESULT_NAMES);
    let sim = [
        "simulate",
        "katro-4x4",
        "--games",
        "5",
        "--p1",
        "random",
        "--p2",
        "random",
        "--out",
        "u",
        "--threads",
        "1",
    ];
    refused_keeping(d, &at, &with_and_without_force(&sim), &RESULT_NAMES);
    fs::remove_dir_all(&at).unwrap();
    put_user_files(&at, &["plots/win-rate.svg", "plots/lengths.svg"]);
    refused_keeping(
        d,
        &at,
        &with_and_without_force(&sim),
        &["plots/win-rate.svg", "plots/lengths.svg"],
    );
}

#[test]
fn merge_keeps_a_users_file_at_every_name_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    let run = [
        "run",
        "beta.toml",
        "--out",
        "m",
        "--shard",
        "1/1",
        "--threads",
        "1",
    ];
    ok(d, &run);
    let at = d.join("m");
    put_user_files(&at, &RESULT_NAMES);
    refused_keeping(
        d,
        &at,
        &with_and_without_force(&["merge", "m"]),
        &RESULT_NAMES,
    );
}

/// Growing a finished run (more games) never writes over a result, page
/// or chart changed since katro wrote it, --force or not; nor, in a
/// folder from before katro's ledger, over a page or chart that lost
/// katro's mark.
#[test]
fn a_grown_run_keeps_files_edited_since_katro_wrote_them() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    let run = ["run", "beta.toml", "--out", "g", "--threads", "1"];
    ok(d, &run);
    let at = d.join("g");
    let edited = [
        "report.html",
        "plots/win-rate.svg",
        "plots/lengths.svg",
        "summary.csv",
        "lengths.csv",
        "run-state.json",
        "manifest.json",
    ];
    let pristine = snapshot(&at);
    for f in edited {
        edit(&at.join(f));
    }
    fs::write(
        d.join("beta.toml"),
        BETA.replace("games = 10", "games = 20"),
    )
    .unwrap();
    let mut named = edited.to_vec();
    named.push("changed since katro wrote it");
    refused_keeping(d, &at, &with_and_without_force(&run), &named);

    // A folder katro wrote before it kept a ledger: its page and charts
    // are known by katro's mark.
    for (p, b) in &pristine {
        fs::write(at.join(p), b).unwrap();
    }
    fs::remove_file(at.join(".katro-files")).unwrap();
    let page = at.join("report.html");
    let text = fs::read_to_string(&page).unwrap();
    fs::write(&page, text.replace("katro report", "my report")).unwrap();
    let chart = at.join("plots/win-rate.svg");
    fs::write(&chart, "<svg>MY OWN CHART</svg>\n").unwrap();
    refused_keeping(
        d,
        &at,
        &with_and_without_force(&run),
        &["report.html", "plots/win-rate.svg"],
    );
}

/// `katro report DIR` redraws its own report and charts, but never writes
/// over a page or chart of the user's, or one changed since katro wrote
/// it, nor a manifest changed since; the folder's other files are never
/// touched.
#[test]
fn report_keeps_a_users_file_at_every_name_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(d.join("beta.toml"), BETA).unwrap();
    ok(d, &["run", "beta.toml", "--out", "b", "--threads", "1"]);
    let at = d.join("b");
    ok(d, &["report", "b"]);
    let own = snapshot(&at);
    ok(d, &["report", "b"]);
    assert!(snapshot(&at) == own, "a report drawn again is the same");
    let charts: Vec<&str> = RESULT_NAMES
        .iter()
        .copied()
        .filter(|n| n.starts_with("plots/") || *n == "report.html")
        .collect();
    put_user_files(&at, &charts);
    edit(&at.join("manifest.json"));
    let mut named = charts.clone();
    named.push("manifest.json");
    refused_keeping(d, &at, &[vec!["report", "b"]], &named);
    // Edited, not replaced: refused as well.
    for (p, b) in &own {
        fs::write(at.join(p), b).unwrap();
    }
    for f in charts.iter().filter(|f| at.join(f).exists()) {
        fs::remove_file(at.join(f)).unwrap();
    }
    ok(d, &["report", "b"]);
    edit(&at.join("plots/lengths.svg"));
    refused_keeping(
        d,
        &at,
        &[vec!["report", "b"]],
        &["b/plots/lengths.svg: changed since katro wrote it"],
    );
}

#[test]
fn judge_keeps_a_users_file_at_every_name_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let exp = BETA.replace(
        "lap_limit",
        "per_game_rows = true\nmoves_in_rows = true\nlap_limit",
    );
    fs::write(d.join("j.toml"), exp).unwrap();
    ok(d, &["run", "j.toml", "--out", "j", "--threads", "1"]);
    let at = d.join("j");
    put_user_files(&at, &["perfect-moves.csv"]);
    refused_keeping(
        d,
        &at,
        &[vec!["judge", "j"]],
        &["j/perfect-moves.csv: katro did not write it"],
    );
    fs::remove_file(at.join("perfect-moves.csv")).unwrap();
    edit(&at.join("manifest.json"));
    refused_keeping(
        d,
        &at,
        &[vec!["judge", "j"]],
        &["j/manifest.json: changed since katro wrote it"],
    );
}

#[test]
fn solve_keeps_a_users_file_and_an_edited_table() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::write(
        d.join("k22.toml"),
        "name = \"k22\"\n[board]\nrows = 2\nholes = 2\nseeds = 1\n",
    )
    .unwrap();
    let solve = ["solve", "k22.toml", "--out", "t.tbl"];
    ok(d, &solve);
    // Its own table, unchanged, it writes again.
    ok(d, &solve);
    edit(&d.join("t.tbl"));
    let named = ["t.tbl: the file exists and changed since katro wrote it"];
    refused_keeping(d, d, &[solve.to_vec()], &named);
    fs::write(d.join("t.tbl"), "my own table\n").unwrap();
    let named = ["t.tbl: the file exists and katro did not write it"];
    refused_keeping(d, d, &[solve.to_vec()], &named);
}

#[test]
fn solve_family_keeps_a_users_file_at_every_name_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let at = d.join("f");
    for names in [
        &["solved.csv"][..],
        &["manifest.json"][..],
        &["solved.csv", "manifest.json"][..],
    ] {
        let _ = fs::remove_dir_all(&at);
        put_user_files(&at, names);
        refused_keeping(
            d,
            &at,
            &[vec!["solve-family", "--out", "f", "--max-memory", "0.001"]],
            &names[..1],
        );
    }
}

/// `katro show --svg FILE` and `katro replay --html FILE` replace a file
/// they wrote, unchanged, but never one the user wrote or changed.
#[test]
fn svg_and_html_keep_a_users_file_and_an_edited_one() {
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
        edit(&d.join(file));
        let named = [format!(
            "{file}: the file exists and changed since katro wrote it"
        )];
        let named: Vec<&str> = named.iter().map(String::as_str).collect();
        refused_keeping(d, d, std::slice::from_ref(&args), &named);
        fs::write(d.join(file), "my own\n").unwrap();
        let named = [format!(
            "{file}: the file exists and katro did not write it"
        )];
        let named: Vec<&str> = named.iter().map(String::as_str).collect();
        refused_keeping(d, d, std::slice::from_ref(&args), &named);
        // The mark of before the hash is katro's.
        fs::write(
            d.join(file),
            "<svg>\n<!-- written by katro: katro replaces this file; remove this line to keep it -->\n</svg>\n",
        )
        .unwrap();
        ok(d, &args);
        assert_eq!(fs::read(d.join(file)).unwrap(), own);
    }
}

/// `katro play` writes no file: the game's record is printed, as a
/// `katro replay` command.
#[test]
fn play_writes_no_file() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    put_user_files(d, &["notes.txt"]);
    let before = snapshot(d);
    let out = cargo_bin_cmd!("katro")
        .current_dir(d)
        .args(["play", "katro-4x4", "--against", "random"])
        .write_stdin("a1\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("katro replay"), "{stdout}");
    assert!(snapshot(d) == before, "katro play wrote a file");
}
