//! Reliability on the real binary: runs killed part-way resume to the same
//! bytes, shards merge to the same bytes as one run, foreign folders and
//! bad shard sets are refused, `validate` reports every problem at once, a
//! full disk stops a run with its checkpoint intact, and over-long games
//! are counted, not hung on.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command as Std, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use tempfile::TempDir;

fn katro() -> Command {
    Command::cargo_bin("katro").unwrap()
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("katro")
}

const SMALL_VARIANT: &str = "name = \"small-6x3\"\n[board]\nrows = 6\nholes = 3\nseeds = 2\n";

fn setup(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("small.toml"), SMALL_VARIANT).unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `katro ARGS` in `dir` with checkpoints every 0.2 s, expecting
/// success; returns stderr.
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = katro()
        .current_dir(dir)
        .env("KATRO_CHECKPOINT_SECONDS", "0.2")
        .args(args)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stderr).to_string()
}

/// Runs `katro ARGS` in `dir` expecting exit `code`; returns stderr.
fn fails(dir: &Path, args: &[&str], code: i32) -> String {
    let out = katro().current_dir(dir).args(args).assert().code(code);
    String::from_utf8_lossy(&out.get_output().stderr).to_string()
}

fn has(text: &str, needles: &[&str]) {
    for n in needles {
        assert!(text.contains(n), "wanted {n:?} in:\n{text}");
    }
}

/// The result files of two folders are the same bytes.
fn same_results(a: &Path, b: &Path, names: &[&str]) {
    for name in names {
        assert!(
            read(&a.join(name)) == read(&b.join(name)),
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

const ALL: &[&str] = &[
    "summary.csv",
    "comparison.csv",
    "metrics.csv",
    "games.csv",
    "lengths.csv",
    "report.html",
    "plots/win-rate.svg",
    "plots/lengths.svg",
    "plots/comparison.svg",
    "ratings.csv",
    "pairwise.csv",
    "skill-trace.csv",
];

/// Games per cell for a run that goes on well past two checkpoints (0.2 s
/// apart, `start_and_kill`) on two cores in this build, and no longer:
/// `a_folder_of_another_experiment_is_refused_unless_forced` plays it
/// about ten times (an unoptimised build plays about six times slower).
fn few_seconds() -> u64 {
    if unoptimised() { 600 } else { 4_000 }
}

/// Whether this build is unoptimised (`cargo test` without `--release`
/// or `--profile checked`): its runs are sized smaller.
fn unoptimised() -> bool {
    env!("KATRO_OPT_LEVEL") == "0"
}

/// Two variants × two matchups, with per-game rows and moves. The lap
/// limit is lowered so that no game runs into the default 10,000,000 laps,
/// which takes seconds on its own and would make the run's length erratic.
/// Games of each tournament pairing in [`fixed_experiment`], at most.
const TOURNAMENT_GAMES: u64 = 12;

/// All the games of [`fixed_experiment`]`(games)`: two matchups and the
/// tournament's six pairings on each of its two variants.
fn fixed_games(games: u64) -> u64 {
    let small = games * 3 / 4;
    2 * games + 2 * small + 6 * (games.min(TOURNAMENT_GAMES) + small.min(TOURNAMENT_GAMES))
}

fn fixed_experiment(games: u64) -> String {
    format!(
        r#"
name = "fixed"
seed = 31
variants = ["katro-6x6", {{ variant = "small.toml", games = {} }}]
games = {games}
lap_limit = 10000
per_game_rows = true
moves_in_rows = true

[[matchups]]
p1 = "random"
p2 = "greedy"

[[matchups]]
p1 = {{ agent = "epsilon-greedy", epsilon = 0.3 }}
p2 = "alphabeta:depth=1"
# Design metrics (metrics.csv): their aggregates resume, shard and merge.
metrics = ["all"]

# A tournament: its ratings resume, shard and merge like the rest.
[tournament]
agents = ["random", "greedy", "alphabeta:depth=1"]
opening_plies = 2
games = {}
"#,
        games * 3 / 4,
        games.min(TOURNAMENT_GAMES)
    )
}

/// A `[precision]` experiment: with a wide enough `width`, its cells stop
/// at different checkpoints.
fn precision_experiment(max_games: u64, checkpoint: u64, width: f64) -> String {
    format!(
        r#"
name = "precise"
seed = 5
variants = ["katro-6x6", "small.toml"]
lap_limit = 10000

[precision]
width = {width}
max_games = {max_games}
checkpoint = {checkpoint}

[[matchups]]
p1 = "random"
p2 = "random"

[[matchups]]
p1 = "greedy"
p2 = "random"
max_games = {}
metrics = ["lead_change", "decisiveness_moves", "relay_length"]
"#,
        max_games / 2
    )
}

fn checkpoint_state(out: &Path) -> PathBuf {
    out.join(".katro-checkpoint/run/state.json")
}

/// Polls `seen` until it gives something, while the run `child` goes on;
/// a run that ends first was too small for the test. The 300 s bound only
/// stops a broken run from hanging the suite.
fn wait_for<T>(child: &mut std::process::Child, mut seen: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        if let Some(found) = seen() {
            return found;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before its second checkpoint: make it bigger");
        }
        assert!(Instant::now() < deadline, "no checkpoint after 300 s");
        sleep(Duration::from_millis(5));
    }
}

/// Starts `katro run EXP --out OUT`, waits until it has saved a checkpoint
/// twice, and kills it with `signal` (KILL or INT); returns what it said
/// on stderr.
fn start_and_kill(dir: &Path, exp: &str, out: &str, signal: &str) -> String {
    let mut child = Std::new(bin())
        .current_dir(dir)
        .args(["run", exp, "--out", out, "--threads", "2"])
        .env("KATRO_CHECKPOINT_SECONDS", "0.2")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let state = checkpoint_state(&dir.join(out));
    // Past the first checkpoint, into the next: the kill comes as soon as
    // a second save is seen, while the run goes on saving (every 0.2 s),
    // so it can land mid-save. Waited for by what the run writes, not by
    // a sleep: a loaded machine only makes the wait longer.
    let first = wait_for(&mut child, || fs::read(&state).ok());
    wait_for(&mut child, || {
        fs::read(&state).ok().filter(|now| *now != first)
    });
    match signal {
        "KILL" => child.kill().unwrap(),
        _ => {
            let sent = Std::new("kill")
                .args([&format!("-{signal}"), &child.id().to_string()])
                .status()
                .unwrap();
            assert!(sent.success());
        }
    }
    let ended = child.wait_with_output().unwrap();
    let status = ended.status;
    // SIGKILL ends the process; SIGINT (Ctrl-C) makes it save a last
    // checkpoint and exit with 130.
    let expected = if signal == "INT" { Some(130) } else { None };
    assert_eq!(
        status.code(),
        expected,
        "the run was not stopped by SIG{signal} ({status}): make it bigger"
    );
    assert!(state.exists(), "the checkpoint is gone");
    assert!(
        !dir.join(out).join("manifest.json").exists(),
        "a killed run wrote results"
    );
    String::from_utf8_lossy(&ended.stderr).to_string()
}

/// Reruns after a kill: the run says it resumed, from how many games, and
/// leaves no checkpoint. Returns the games resumed.
fn resume(dir: &Path, exp: &str, out: &str) -> u64 {
    let stderr = ok(dir, &["run", exp, "--out", out, "--threads", "2"]);
    let games: u64 = stderr
        .split("already played")
        .next()
        .and_then(|s| s.rsplit(": ").next())
        .and_then(|s| s.trim().split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no resume message in: {stderr}"));
    assert!(
        !dir.join(out).join(".katro-checkpoint").exists(),
        "the finished run left its checkpoint"
    );
    games
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_identical_outputs() {
    let games = few_seconds();
    let dir = setup(&[("exp.toml", &fixed_experiment(games))]);
    ok(
        dir.path(),
        &["run", "exp.toml", "--out", "whole", "--threads", "2"],
    );
    start_and_kill(dir.path(), "exp.toml", "killed", "KILL");
    let resumed = resume(dir.path(), "exp.toml", "killed");
    let total = fixed_games(games);
    assert!(resumed > 0 && resumed < total, "{resumed} of {total}");
    same_results(&dir.path().join("whole"), &dir.path().join("killed"), ALL);
    let manifest: serde_json::Value =
        serde_json::from_slice(&read(&dir.path().join("killed/manifest.json"))).unwrap();
    assert_eq!(manifest["resumed_games"], resumed);
    assert_eq!(manifest["games"], total);
}

#[test]
fn a_run_stopped_with_sigint_resumes_to_identical_outputs() {
    // Precision cells: the resumed run must make the same stopping tests.
    // Their random and greedy games play on the lane kernel, three times
    // faster than the engine: a width of 0.005 (about 150,000 decided
    // games a cell) keeps the run going long enough to be interrupted.
    // The cap, never reached in a release build.
    let games = if unoptimised() { 36_000 } else { 240_000 };
    let dir = setup(&[("exp.toml", &precision_experiment(games, games / 10, 0.005))]);
    ok(
        dir.path(),
        &["run", "exp.toml", "--out", "whole", "--threads", "2"],
    );
    let said = start_and_kill(dir.path(), "exp.toml", "stopped", "INT");
    // It names the command that goes on, which needs no --force.
    has(
        &said,
        &[
            "saved in the checkpoint stopped/.katro-checkpoint/run; `katro run exp.toml --out stopped` goes on from there",
        ],
    );
    let resumed = resume(dir.path(), "exp.toml", "stopped");
    assert!(resumed > 0);
    same_results(
        &dir.path().join("whole"),
        &dir.path().join("stopped"),
        &["summary.csv", "comparison.csv", "metrics.csv"],
    );
}

/// Runs shards 1..=n of `exp` into `out` and merges them.
fn shard_and_merge(dir: &Path, exp: &str, out: &str, n: u64) {
    for i in 1..=n {
        let shard = format!("{i}/{n}");
        let threads = if i % 2 == 0 { "2" } else { "1" };
        ok(
            dir,
            &[
                "run",
                exp,
                "--out",
                out,
                "--shard",
                &shard,
                "--threads",
                threads,
            ],
        );
        assert!(
            dir.join(out)
                .join(format!("shards/shard-{i}-of-{n}.json"))
                .exists()
        );
    }
    assert!(!dir.join(out).join("manifest.json").exists());
    ok(dir, &["merge", out]);
}

#[test]
fn shards_merge_to_the_bytes_of_one_run() {
    let dir = setup(&[
        ("fixed.toml", &fixed_experiment(90)),
        ("precise.toml", &precision_experiment(600, 40, 0.1)),
    ]);
    let d = dir.path();
    ok(
        d,
        &["run", "fixed.toml", "--out", "fixed", "--threads", "2"],
    );
    ok(
        d,
        &["run", "precise.toml", "--out", "precise", "--threads", "2"],
    );
    let summary = String::from_utf8(read(&d.join("precise/summary.csv"))).unwrap();
    assert!(
        summary.lines().skip(1).any(|l| !l.contains(",600,")),
        "some precision cell should stop early: {summary}"
    );
    for n in [1, 2, 3, 5] {
        let out = format!("fixed-{n}");
        shard_and_merge(d, "fixed.toml", &out, n);
        same_results(&d.join("fixed"), &d.join(&out), ALL);
        let out = format!("precise-{n}");
        shard_and_merge(d, "precise.toml", &out, n);
        same_results(
            &d.join("precise"),
            &d.join(&out),
            &["summary.csv", "comparison.csv", "metrics.csv"],
        );
        let manifest: serde_json::Value =
            serde_json::from_slice(&read(&d.join(&out).join("manifest.json"))).unwrap();
        assert_eq!(manifest["shards"].as_array().unwrap().len(), n as usize);
    }
    // Shards carry their experiment and variant files: they merge anywhere.
    let elsewhere = tempfile::tempdir().unwrap();
    fs::create_dir(elsewhere.path().join("shards")).unwrap();
    for i in 1..=3 {
        let name = format!("shard-{i}-of-3.json");
        fs::copy(
            d.join("fixed-3/shards").join(&name),
            elsewhere.path().join("shards").join(&name),
        )
        .unwrap();
    }
    ok(elsewhere.path(), &["merge", "."]);
    same_results(&d.join("fixed"), elsewhere.path(), ALL);
}

#[test]
fn merge_refuses_missing_duplicate_foreign_and_mixed_shards() {
    let dir = setup(&[
        ("a.toml", &fixed_experiment(30)),
        ("b.toml", &precision_experiment(60, 20, 0.1)),
    ]);
    let d = dir.path();
    let none = fails(d, &["merge", "empty"], 2);
    has(&none, &["no shard files", "--shard I/N"]);
    for i in 1..=3 {
        ok(
            d,
            &["run", "a.toml", "--out", "a", "--shard", &format!("{i}/3")],
        );
    }
    ok(d, &["run", "b.toml", "--out", "b", "--shard", "1/2"]);
    ok(d, &["run", "a.toml", "--out", "a2", "--shard", "1/2"]);
    let shards = d.join("a/shards");
    let copy = |from: &Path, to: &str| {
        fs::copy(from, shards.join(to)).unwrap();
    };

    fs::rename(shards.join("shard-2-of-3.json"), d.join("kept.json")).unwrap();
    let msg = fails(d, &["merge", "a"], 2);
    has(&msg, &["missing shard 2/3", "--shard I/3 --out a"]);
    assert!(!d.join("a/manifest.json").exists());

    copy(&shards.join("shard-1-of-3.json"), "again.json");
    let msg = fails(d, &["merge", "a"], 2);
    has(
        &msg,
        &[
            "shard 1/3 is there 2 times: again.json, shard-1-of-3.json",
            "missing shard 2/3",
        ],
    );
    fs::remove_file(shards.join("again.json")).unwrap();
    copy(&d.join("kept.json"), "shard-2-of-3.json");

    copy(&d.join("b/shards/shard-1-of-2.json"), "other.json");
    let msg = fails(d, &["merge", "a"], 2);
    let hash = |p: &Path| {
        let v: serde_json::Value = serde_json::from_slice(&read(p)).unwrap();
        v["experiment_hash"].as_str().unwrap().to_string()
    };
    let (ha, hb) = (
        hash(&shards.join("shard-1-of-3.json")),
        hash(&d.join("b/shards/shard-1-of-2.json")),
    );
    assert_ne!(ha, hb);
    has(
        &msg,
        &[
            "different experiments",
            &format!("other.json: experiment `precise`, hash {hb}"),
            &format!("shard-1-of-3.json: experiment `fixed`, hash {ha}"),
        ],
    );
    fs::remove_file(shards.join("other.json")).unwrap();

    copy(&d.join("a2/shards/shard-1-of-2.json"), "shard-1-of-2.json");
    let msg = fails(d, &["merge", "a"], 2);
    has(
        &msg,
        &[
            "cut for different N",
            "shard-1-of-2.json: shard 1/2",
            "shard-3-of-3.json: shard 3/3",
        ],
    );
    // A shard run refuses a folder holding shards cut for another N.
    let msg = fails(d, &["run", "a.toml", "--out", "a", "--shard", "2/3"], 2);
    has(
        &msg,
        &[
            "shards/shard-1-of-2.json",
            "cut for N = 2 rather than 3",
            "--force",
        ],
    );
    fs::remove_file(shards.join("shard-1-of-2.json")).unwrap();

    // A shard played by another build: refused, unless allowed, and then
    // the manifest says which builds played.
    let text = read(&shards.join("shard-3-of-3.json"));
    let this_build = build_of(&text);
    assert!(this_build.starts_with("src-"), "{this_build}");
    fs::write(
        shards.join("shard-3-of-3.json"),
        with_build(&text, &this_build, "src-0000000000000000"),
    )
    .unwrap();
    let msg = fails(d, &["merge", "a"], 2);
    has(
        &msg,
        &[
            "shards played by another katro build",
            &format!("than this one ({this_build})"),
            "shard-3-of-3.json: katro build src-0000000000000000",
            "shard-1-of-3.json: katro build src-",
            "(`katro merge a --allow-other-build` merges them anyway)",
        ],
    );
    assert!(!d.join("a/manifest.json").exists());
    ok(d, &["merge", "a", "--allow-other-build"]);
    let m: serde_json::Value = serde_json::from_slice(&read(&d.join("a/manifest.json"))).unwrap();
    assert_eq!(m["katro_build"], this_build.as_str());
    assert_eq!(
        m["other_builds"],
        serde_json::json!(["src-0000000000000000"])
    );
    assert_eq!(m["shards"][2]["katro_build"], "src-0000000000000000");
    fs::write(shards.join("shard-3-of-3.json"), &text[..text.len() / 2]).unwrap();
    let msg = fails(d, &["merge", "a"], 2);
    has(
        &msg,
        &["shard-3-of-3.json: not a katro shard file, or damaged"],
    );
    fs::write(shards.join("shard-3-of-3.json"), &text).unwrap();

    ok(d, &["merge", "a"]);
    assert!(d.join("a/summary.csv").exists());
    let m: serde_json::Value = serde_json::from_slice(&read(&d.join("a/manifest.json"))).unwrap();
    assert_eq!(m["other_builds"], serde_json::json!([]));
}

#[test]
fn a_folder_of_another_experiment_is_refused_unless_forced() {
    let dir = setup(&[
        ("a.toml", &fixed_experiment(few_seconds())),
        ("b.toml", &precision_experiment(60, 20, 0.1)),
    ]);
    let d = dir.path();
    ok(d, &["run", "b.toml", "--out", "b-alone", "--threads", "2"]);
    ok(d, &["run", "b.toml", "--out", "out", "--threads", "2"]);
    // Another experiment's results.
    let msg = fails(d, &["run", "a.toml", "--out", "out"], 2);
    has(
        &msg,
        &[
            "the output folder out holds files that are not this run's",
            "manifest.json and its results: results of experiment `precise`",
            "this is experiment `fixed`",
            "--force",
        ],
    );
    // Another experiment's checkpoint: an interrupted run of a.toml.
    start_and_kill(d, "a.toml", "half", "KILL");
    let msg = fails(d, &["run", "b.toml", "--out", "half"], 2);
    has(
        &msg,
        &[
            ".katro-checkpoint/run: a checkpoint of experiment `fixed`",
            "--force",
        ],
    );
    ok(d, &["run", "b.toml", "--out", "half", "--force"]);
    same_results(&d.join("b-alone"), &d.join("half"), &["summary.csv"]);
    assert!(!d.join("half/.katro-checkpoint").exists());

    // The same experiment with more games, over an interrupted run of the
    // smaller one: refused, saying how to keep its games; done that way,
    // the run finishes and then grows to a fresh run's bytes.
    start_and_kill(d, "a.toml", "grow", "KILL");
    let more = fixed_experiment(few_seconds() + 200);
    fs::write(d.join("more.toml"), &more).unwrap();
    let msg = fails(d, &["run", "more.toml", "--out", "grow"], 2);
    has(
        &msg,
        &[
            ".katro-checkpoint/run: a checkpoint of experiment `fixed`",
            "a run interrupted before it finished; if it is this experiment before an edit \
             (more `games`, say), undo the edit and run it again to finish that run from its \
             checkpoint, then redo the edit: a finished run grows, playing only the new games",
        ],
    );
    ok(d, &["run", "a.toml", "--out", "grow", "--threads", "2"]);
    ok(d, &["run", "more.toml", "--out", "grow", "--threads", "2"]);
    ok(
        d,
        &["run", "more.toml", "--out", "grow-fresh", "--threads", "2"],
    );
    same_results(&d.join("grow-fresh"), &d.join("grow"), &["summary.csv"]);

    // A checkpoint of this experiment from another build: refused, with
    // both ways out named; resumed with --allow-other-build, and the
    // manifest names the other build.
    start_and_kill(d, "a.toml", "other-build", "KILL");
    let state = checkpoint_state(&d.join("other-build"));
    let text = read(&state);
    let this_build = build_of(&text);
    fs::write(
        &state,
        with_build(&text, &this_build, "src-0000000000000000"),
    )
    .unwrap();
    let doctored = read(&state);
    let msg = fails(d, &["run", "a.toml", "--out", "other-build"], 2);
    has(
        &msg,
        &[
            ".katro-checkpoint/run: a checkpoint of this experiment written by katro build \
             src-0000000000000000",
            &format!("not this build {this_build}"),
            "`katro run a.toml --out other-build --allow-other-build` uses them as they are.",
            "`katro run a.toml --out other-build --force` starts afresh",
        ],
    );
    assert_eq!(read(&state), doctored, "a refusal changes nothing");
    let msg = ok(
        d,
        &[
            "run",
            "a.toml",
            "--out",
            "other-build",
            "--allow-other-build",
            "--threads",
            "2",
        ],
    );
    has(
        &msg,
        &["resuming from the checkpoint", "src-0000000000000000"],
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&read(&d.join("other-build/manifest.json"))).unwrap();
    assert!(manifest["resumed_games"].as_u64().unwrap() > 0);
    assert_eq!(manifest["katro_build"], this_build.as_str());
    assert_eq!(
        manifest["other_builds"],
        serde_json::json!(["src-0000000000000000"])
    );

    // A damaged checkpoint.
    start_and_kill(d, "a.toml", "damaged", "KILL");
    let state = checkpoint_state(&d.join("damaged"));
    fs::write(&state, b"{\"format\":").unwrap();
    let msg = fails(d, &["run", "a.toml", "--out", "damaged"], 2);
    has(&msg, &["state.json is damaged", "--force"]);
    let msg = ok(
        d,
        &[
            "run",
            "a.toml",
            "--out",
            "damaged",
            "--force",
            "--threads",
            "2",
        ],
    );
    has(&msg, &["--force: deleted", "state.json is damaged"]);
    let manifest: serde_json::Value =
        serde_json::from_slice(&read(&d.join("damaged/manifest.json"))).unwrap();
    assert_eq!(manifest["resumed_games"], 0, "started afresh");
}

/// The CLI's traps around a resume (issue 46): a user's files in an
/// interrupted run's folder never block it, and the same command resumes
/// it without `--force`; a command that needs the results names the one
/// that finishes the run; `--force` starts afresh, its checkpoint
/// deleted and every game played again, the user's files kept.
#[test]
fn an_interrupted_run_resumes_beside_the_users_files_and_force_starts_afresh() {
    let games = few_seconds();
    let dir = setup(&[("a.toml", &fixed_experiment(games))]);
    let d = dir.path();
    ok(d, &["run", "a.toml", "--out", "whole", "--threads", "2"]);
    start_and_kill(d, "a.toml", "half", "KILL");
    let mine: [(&str, &str); 4] = [
        ("notes.txt", "my notes\n"),
        ("plots/sketch.txt", "mine\n"),
        ("shards/readme.json", "{\"mine\": true}\n"),
        ("mine/data.csv", "a,b\n"),
    ];
    for (name, text) in mine {
        let p = d.join("half").join(name);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    // What needs the results names the command that finishes the run.
    for args in [
        vec!["report", "half"],
        vec!["rate", "half"],
        vec!["curve", "half"],
        vec!["judge", "half"],
    ] {
        let msg = fails(d, &args, 2);
        has(
            &msg,
            &[
                "half: no results yet: it holds a run of experiment `fixed` interrupted before \
                 it finished (",
                "saved in its checkpoint half/.katro-checkpoint/run); `katro run a.toml --out \
                 half` finishes it, then run this command again",
            ],
        );
    }
    let resumed = resume(d, "a.toml", "half");
    assert!(resumed > 0, "resumed from its checkpoint");
    same_results(&d.join("whole"), &d.join("half"), ALL);
    for (name, text) in mine {
        assert_eq!(read(&d.join("half").join(name)), text.as_bytes(), "{name}");
    }

    // --force starts afresh: the checkpoint deleted, every game played.
    start_and_kill(d, "a.toml", "again", "KILL");
    fs::write(d.join("again/notes.txt"), "my notes\n").unwrap();
    let said = ok(d, &["run", "a.toml", "--out", "again", "--force"]);
    has(
        &said,
        &["--force: deleted the checkpoint in again/.katro-checkpoint/run ("],
    );
    assert!(!said.contains("resuming"), "{said}");
    let manifest: serde_json::Value =
        serde_json::from_slice(&read(&d.join("again/manifest.json"))).unwrap();
    assert_eq!(manifest["resumed_games"], 0, "started afresh");
    same_results(&d.join("whole"), &d.join("again"), ALL);
    assert_eq!(read(&d.join("again/notes.txt")), b"my notes\n");
}

#[test]
fn validate_reports_every_problem_at_once() {
    let bad_variant = "name = \"bad name\"\n[board]\nrows = 5\nholes = 20\nseeds = 2\n\
                       colour = \"red\"\n[rules]\ndirection = \"sideways\"\nply_limit = 0\n\
                       speed = 3\n";
    let bad_experiment = "name = \"x\"\nseed = -1\ngmes = 10\ngames = 0\n\
                          variants = [\"katro-9x9\", { variant = \"katro-4x4\", gams = 3 }]\n\
                          [[matchups]]\np1 = \"wizard\"\np2 = \"alphabeta:depth=0\"\nspeed = 2\n";
    let syntax = "[board]\nrows = = 4\nholes = 4\nseeds = ]\n";
    let dir = setup(&[
        ("bad-variant.toml", bad_variant),
        ("bad-experiment.toml", bad_experiment),
        ("syntax.toml", syntax),
        ("neither.toml", "colour = \"red\"\n"),
        ("good.toml", &fixed_experiment(10)),
    ]);
    let out = katro()
        .current_dir(dir.path())
        .args([
            "validate",
            "bad-variant.toml",
            "small.toml",
            "bad-experiment.toml",
            "syntax.toml",
            "missing.toml",
            "neither.toml",
            "good.toml",
        ])
        .assert()
        .code(2);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    has(
        &stdout,
        &[
            "small.toml: valid variant `small-6x3`",
            &format!(
                "good.toml: valid experiment `fixed`: 16 cells, at most {} games",
                fixed_games(10)
            ),
        ],
    );
    has(
        &stderr,
        &[
            // Every problem of the variant file, each at its line.
            "bad-variant.toml:1:8: `name`",
            "bad-variant.toml:3:8: `board.rows`: 5 rows cannot be split",
            "bad-variant.toml:4:9: `board.holes`: 20 is out of range",
            "bad-variant.toml:6:1: `board.colour`: unknown field `colour`",
            "bad-variant.toml:8:13: `rules.direction`: unknown value `sideways`, expected one of",
            "bad-variant.toml:9:13: `rules.ply_limit`: 0 is out of range",
            "bad-variant.toml:10:1: `rules.speed`: unknown field `speed`",
            // And of the experiment file.
            "bad-experiment.toml:2:8: `seed`: -1 is negative",
            "bad-experiment.toml:3:1: `gmes`: unknown field `gmes`",
            "bad-experiment.toml:4:9: `games`: 0 is out of range",
            "bad-experiment.toml:5:13: `variants[0]`: unknown variant `katro-9x9`",
            "`variants[1].gams`: unknown field `gams`",
            "bad-experiment.toml:7:6: `matchups[0].p1`: agent `wizard`: unknown agent `wizard`",
            "bad-experiment.toml:8:6: `matchups[0].p2`: agent `alphabeta:depth=0`: depth is 0",
            "bad-experiment.toml:9:1: `matchups[0].speed`: unknown field `speed`",
            // Both syntax errors.
            "syntax.toml:2:",
            "syntax.toml:4:",
            "missing.toml: cannot read the file",
            "neither.toml: neither a variant file",
            "5 of 7 files have problems",
        ],
    );
    // Every shipped file is valid.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut shipped = Vec::new();
    for folder in ["variants", "experiments"] {
        for e in fs::read_dir(root.join(folder)).unwrap() {
            shipped.push(e.unwrap().path().display().to_string());
        }
    }
    let out = katro().arg("validate").args(&shipped).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(stdout.lines().count(), shipped.len(), "{stdout}");
}

#[test]
fn bad_command_line_inputs_are_refused() {
    let dir = setup(&[("exp.toml", &fixed_experiment(10))]);
    let msg = fails(dir.path(), &["run", "nosuch.toml"], 2);
    has(&msg, &["nosuch.toml: cannot read the experiment file"]);
    let msg = fails(dir.path(), &["run", "exp.toml", "--threads", "0"], 2);
    has(&msg, &["--threads"]);
    let msg = fails(dir.path(), &["validate"], 2);
    has(&msg, &["FILES"]);
    for bad in ["0/3", "4/3", "x", "1/0", "1/2/3", "-1/2"] {
        let msg = fails(
            dir.path(),
            &["run", "exp.toml", &format!("--shard={bad}")],
            2,
        );
        has(&msg, &["--shard", "I/N"]);
    }
    let out = katro()
        .current_dir(dir.path())
        .env("KATRO_CHECKPOINT_SECONDS", "soon")
        .args(["run", "exp.toml", "--out", "o"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    has(&stderr, &["KATRO_CHECKPOINT_SECONDS=\"soon\""]);
}

/// A tmpfs mounted for the life of the value.
struct Mount(PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Std::new("umount").arg(&self.0).status();
    }
}

fn small_disk(at: &Path, size: &str) -> Result<Mount, String> {
    fs::create_dir_all(at).unwrap();
    let out = Std::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
        .arg(at)
        .output()
        .map_err(|e| format!("no mount command: {e}"))?;
    if out.status.success() {
        Ok(Mount(at.to_path_buf()))
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn a_full_disk_stops_the_run_and_keeps_its_last_checkpoint() {
    let dir = setup(&[("exp.toml", &fixed_experiment(600))]);
    let d = dir.path();
    let disk = d.join("disk");
    // 192 KiB: room for many checkpoints, not for the ~300 KiB of rows.
    let _mount = match small_disk(&disk, "192k") {
        Ok(m) => m,
        Err(why) => {
            println!("skipped: cannot mount a small tmpfs to fill ({why})");
            return;
        }
    };
    ok(d, &["run", "exp.toml", "--out", "whole", "--threads", "2"]);
    // A checkpoint after every unit: the disk fills while checkpointing.
    let out = katro()
        .current_dir(d)
        .env("KATRO_CHECKPOINT_SECONDS", "0")
        .args(["run", "exp.toml", "--out", "disk/out", "--threads", "2"])
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    has(
        &stderr,
        &[
            "cannot write",
            "No space left on device",
            "the disk is full",
            "the last checkpoint (",
            "is intact: fix the problem, then `katro run exp.toml --out disk/out` goes on from it",
        ],
    );
    let cp = d.join("disk/out/.katro-checkpoint/run");
    let state: serde_json::Value = serde_json::from_slice(&read(&cp.join("state.json")))
        .expect("the last checkpoint is whole");
    let row_files = state["row_files"].as_u64().unwrap();
    assert!(row_files > 0);
    for n in 0..row_files {
        let rows: serde_json::Value =
            serde_json::from_slice(&read(&cp.join(format!("rows-{n:06}.json")))).unwrap();
        assert!(rows.is_array());
    }
    let names: Vec<String> = fs::read_dir(&cp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains(".tmp-")),
        "a temporary file was left: {names:?}"
    );
    assert!(!d.join("disk/out/manifest.json").exists());
    // With room again, the same run goes on from that checkpoint.
    copy_dir(&d.join("disk/out"), &d.join("roomy"));
    let resumed = resume(d, "exp.toml", "roomy");
    assert!(resumed > 0);
    same_results(&d.join("whole"), &d.join("roomy"), ALL);
}

#[test]
fn over_long_games_and_moves_are_counted_not_hung_on() {
    // katro-wikipedia's random games run to thousands of plies with moves
    // of millions of laps: tiny limits must end them, and count them.
    let exp = r#"
name = "limits"
seed = 3
variants = ["katro-wikipedia"]
games = 200
ply_limit = 40
lap_limit = 30

[[matchups]]
p1 = "random"
p2 = "random"
"#;
    let dir = setup(&[("exp.toml", exp)]);
    ok(
        dir.path(),
        &["run", "exp.toml", "--out", "o", "--threads", "2"],
    );
    let summary = String::from_utf8(read(&dir.path().join("o/summary.csv"))).unwrap();
    let mut reader = csv::Reader::from_reader(summary.as_bytes());
    let header = reader.headers().unwrap().clone();
    let fields = reader.records().next().unwrap().unwrap();
    let row = summary.lines().nth(1).unwrap();
    let col = |name: &str| -> u64 {
        let i = header.iter().position(|h| h == name).unwrap();
        fields[i].parse().unwrap()
    };
    assert_eq!(col("games"), 200);
    assert!(col("undecided_ply_limit") > 0, "{row}");
    assert!(col("undecided_lap_limit") > 0, "{row}");
    assert_eq!(
        col("p1_wins")
            + col("p2_wins")
            + col("undecided_ply_limit")
            + col("undecided_endless_move")
            + col("undecided_lap_limit"),
        200
    );
    assert!(col("length_max") <= 40);
    assert!(col("max_laps_in_move") <= 30);
}

/// Issue 21's rules whose games never end (4×5, 3 seeds,
/// `min_victim_seeds = 2`, random vs random), with a low lap limit so the
/// test is quick: the run warns on stderr early, naming the cell and the
/// settings, and manifest.json records the warning.
#[test]
fn a_cell_whose_games_do_not_end_is_warned_about() {
    let variant = std::fs::read_to_string("experiments/katro-4x3-1seed.toml")
        .unwrap()
        .replace("name = \"katro-4x3-1seed\"", "name = \"never\"")
        .replace("holes = 3", "holes = 5")
        .replace("\nseeds = 1", "\nseeds = 3")
        .replace("\nmin_victim_seeds = 1", "\nmin_victim_seeds = 2")
        .replace("lap_limit = 10000000", "lap_limit = 1000");
    let variant = variant.split("# starting board").next().unwrap();
    let exp = "name = \"n\"\nseed = 1\ngames = 40\nvariants = [\"never.toml\"]\n\n\
               [[matchups]]\np1 = \"random\"\np2 = \"random\"\n";
    let dir = setup(&[("never.toml", variant), ("exp.toml", exp)]);
    let stderr = ok(
        dir.path(),
        &["run", "exp.toml", "--out", "o", "--threads", "2"],
    );
    let warning = stderr
        .lines()
        .find(|l| l.starts_with("warning: variant never, p1 random, p2 random, opening_plies 0: "))
        .unwrap_or_else(|| panic!("no early warning in: {stderr}"));
    for needle in ["undecided", "lap_limit (now 1000)", "min_victim_seeds = 2"] {
        assert!(warning.contains(needle), "{needle}: {warning}");
    }
    let manifest: serde_json::Value =
        serde_json::from_slice(&read(&dir.path().join("o/manifest.json"))).unwrap();
    let recorded = manifest["warnings"][0].as_str().unwrap();
    assert!(recorded.contains("40 of 40 games undecided"), "{recorded}");
}

/// The `katro_build` a katro JSON file names.
fn build_of(text: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(text).unwrap();
    v["katro_build"].as_str().unwrap().to_string()
}

/// `text` with its `katro_build` changed, edited as text: a round trip
/// through `serde_json::Value` would turn the aggregates' integers above
/// u64 (u128 sums) into floats, which katro rightly refuses to read.
fn with_build(text: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(text.to_vec()).unwrap();
    let key = format!("\"katro_build\":\"{from}\"");
    assert_eq!(text.matches(&key).count(), 1, "one {key} in the file");
    text.replacen(&key, &format!("\"katro_build\":\"{to}\""), 1)
        .into_bytes()
}
