//! The `run` and `simulate` commands on real files: determinism across
//! thread counts, precision stopping, and refusal of bad input.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

use crate::common::column;

fn katro() -> Command {
    Command::cargo_bin("katro").unwrap()
}

/// Two variants (one from a file next to the experiment) and two matchups,
/// with per-game rows and moves: small enough for a debug build.
const EXPERIMENT: &str = r#"
name = "determinism"
seed = 2024
variants = ["katro-4x4", "small.toml"]
games = 60
per_game_rows = true
moves_in_rows = true
ply_limit = 400

[[matchups]]
p1 = "random"
p2 = "random"

[[matchups]]
p1 = { agent = "epsilon-greedy", epsilon = 0.3 }
p2 = "greedy"
"#;

const SMALL_VARIANT: &str = "name = \"small-6x3\"\n[board]\nrows = 6\nholes = 3\nseeds = 2\n";

fn setup(experiment: &str) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("exp.toml"), experiment).unwrap();
    fs::write(dir.path().join("small.toml"), SMALL_VARIANT).unwrap();
    dir
}

fn run(dir: &Path, out: &str, threads: &str) {
    katro()
        .current_dir(dir)
        .args(["run", "exp.toml", "--threads", threads, "--out", out])
        .assert()
        .success();
}

fn read(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn outputs_are_identical_with_one_thread_or_two() {
    let dir = setup(EXPERIMENT);
    run(dir.path(), "one", "1");
    run(dir.path(), "two", "2");
    for name in ["summary.csv", "games.csv", "comparison.csv"] {
        let one = read(&dir.path().join("one"), name);
        let two = read(&dir.path().join("two"), name);
        assert_eq!(one, two, "{name} differs between 1 and 2 threads");
    }
    let summary = read(&dir.path().join("one"), "summary.csv");
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines.len(), 5, "a header and 2 variants × 2 matchups");
    assert!(lines[1].starts_with("katro-4x4,\"katro(rows=4,holes=4,"));
    // The experiment's ply limit is part of each variant's rules string.
    assert!(lines[1].contains("ply_limit=400"), "{}", lines[1]);
    assert!(lines[3].starts_with("small-6x3,"));
    assert!(lines[4].contains(",epsilon-greedy:epsilon=0.3,greedy,0,60,"));

    let games = read(&dir.path().join("one"), "games.csv");
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 4 * 60);
    // Rows come in (cell, game index) order.
    for (i, game) in column(&games, "game").iter().enumerate() {
        assert_eq!(game.parse::<usize>().unwrap(), i % 60, "{}", rows[i]);
    }
    assert_eq!(column(&games, "variant")[0], "katro-4x4");
    assert_eq!(column(&games, "p1")[0], "random");
    assert_eq!(column(&games, "p2")[0], "random");
    let comparison = read(&dir.path().join("one"), "comparison.csv");
    assert_eq!(comparison.lines().count(), 3, "one row per matchup");

    let manifest: serde_json::Value =
        serde_json::from_str(&read(&dir.path().join("two"), "manifest.json")).unwrap();
    assert_eq!(manifest["threads"], 2);
    assert_eq!(manifest["master_seed"], 2024);
    assert_eq!(manifest["games"], 240);
    assert_eq!(manifest["experiment"]["text"], EXPERIMENT);
    assert_eq!(manifest["variants"][1]["name"], "small-6x3");
    // No temporary file is left behind.
    let mut names: Vec<String> = fs::read_dir(dir.path().join("two"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".katro-files",
            "comparison.csv",
            "games.csv",
            "lengths.csv",
            "manifest.json",
            "plots",
            "report.html",
            "run-state.json",
            "summary.csv"
        ]
    );
}

#[test]
fn recorded_moves_replay_to_the_recorded_result() {
    let dir = setup(EXPERIMENT);
    run(dir.path(), "out", "2");
    let games = read(&dir.path().join("out"), "games.csv");
    // The first game of katro-4x4, random vs random.
    let header: Vec<&str> = games.lines().next().unwrap().split(',').collect();
    let moves_column = header.iter().position(|h| *h == "moves").unwrap();
    let row = games.lines().nth(1).unwrap();
    let fields: Vec<&str> = row.split(',').collect();
    let moves: Vec<&str> = fields[moves_column].split(' ').collect();
    let at = |name: &str| fields[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(moves.len(), at("plies").parse::<usize>().unwrap());
    let out = katro()
        .arg("replay")
        .arg("katro-4x4")
        .args(&moves)
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["status"], at("status"));
    assert_eq!(json["plies"], at("plies").parse::<u64>().unwrap());
    if at("status") == "won" {
        assert_eq!(json["winner"].to_string(), at("winner"));
    }
}

#[test]
fn precision_plays_the_same_games_with_one_thread_or_two() {
    let exp = r#"
name = "precise"
seed = 9
variants = ["katro-4x4", "small.toml"]

[precision]
width = 0.35
max_games = 400
checkpoint = 9

[[matchups]]
p1 = "random"
p2 = "random"
"#;
    let dir = setup(exp);
    run(dir.path(), "one", "1");
    run(dir.path(), "two", "2");
    let one = read(&dir.path().join("one"), "summary.csv");
    assert_eq!(one, read(&dir.path().join("two"), "summary.csv"));
    for (row, games) in one.lines().skip(1).zip(column(&one, "games")) {
        let games: u64 = games.parse().unwrap();
        assert_eq!(games % 9, 0, "stopped off a checkpoint: {row}");
        assert!(
            games < 400,
            "a width of 0.35 is reached long before the cap: {row}"
        );
    }
}

/// Runs an invalid experiment and checks the exit code, the message and
/// that no output folder appeared.
fn refused(experiment: &str, wants: &[&str]) -> String {
    let dir = setup(experiment);
    let out = katro()
        .current_dir(dir.path())
        .args(["run", "exp.toml", "--threads", "1"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("exp.toml:"), "no file named: {stderr}");
    for want in wants {
        assert!(stderr.contains(want), "wanted {want:?} in: {stderr}");
    }
    assert!(
        !dir.path().join("results").exists(),
        "something was written"
    );
    stderr
}

/// Found while extending the fuzz checks' no-control-character rule to
/// every parser message: variant names, paths and agents are quoted in
/// errors as written, so a TOML escape in them (`\u001b`) put a
/// raw terminal escape into the message. Control characters are shown
/// escaped.
#[test]
fn quoted_names_cannot_reach_the_terminal_raw() {
    let text = EXPERIMENT
        .replace(
            "\"katro-4x4\", \"small.toml\"",
            "\"katro\\u001b[31m\", \"s\\u0007/x.toml\"",
        )
        .replacen("p1 = \"random\"", "p1 = \"random\\u001b\"", 1);
    let stderr = refused(
        &text,
        &[
            "unknown variant `katro\\u{1b}[31m`",
            "cannot read variant file `s\\u{7}/x.toml`",
            "agent `random\\u{1b}`",
        ],
    );
    assert!(!stderr.contains(['\u{1b}', '\u{7}']), "{stderr}");
}

#[test]
fn bad_experiments_exit_2_naming_file_and_key() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "\"katro-4x4\", \"small.toml\"",
            "\"katro-9x9\"",
            &["`variants[0]`", "unknown variant `katro-9x9`", "katro-6x6"],
        ),
        (
            "p1 = \"random\"",
            "p1 = \"wizard\"",
            &["`matchups[0].p1`", "wizard", "random, greedy"],
        ),
        (
            "p2 = \"greedy\"",
            "p2 = \"alphabeta:depth=0\"",
            &["`matchups[1].p2`", "depth is 0", "from 1 to"],
        ),
        (
            "epsilon = 0.3",
            "epsilon = -0.1",
            &["`matchups[1].p1`", "epsilon is -0.1", "from 0 to 1"],
        ),
        (
            "games = 60",
            "games = 0",
            &["`games`", "0 is out of range", "from 1"],
        ),
        (
            "per_game_rows = true",
            "per_game_row = true",
            &["unknown field `per_game_row`", "per_game_rows"],
        ),
        (
            "\"small.toml\"",
            "\"missing.toml\"",
            &["`variants[1]`", "cannot read variant file `missing.toml`"],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 400\nopening_plies = -2",
            &[
                "exp.toml:9:17: `opening_plies`: -2 is out of range",
                "from 0 to 1000",
            ],
        ),
        (
            "p2 = \"greedy\"",
            "p2 = \"greedy\"\nopening_plies = 400",
            &[
                "`matchups[1].opening_plies`: 400 random opening plies reach variant \
                 `katro-4x4`'s ply limit (400)",
                "fewer than 400",
            ],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 400\nopening_plies = \"four\"",
            &["`opening_plies`: expected an integer, got a string"],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 400\nbalance_margin = 0.5",
            &[
                "exp.toml:9:18: `balance_margin`: 0.5 is out of range",
                "more than 0 and less than 0.5",
            ],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 2\nbalance_margin = 0.02",
            &[
                "exp.toml:9:18: `balance_margin`: no game of variant `katro-4x4` can end with a \
                 winner within its ply limit (2 plies)",
                "raise its `ply_limit`, or leave out `balance_margin`",
            ],
        ),
    ];
    for (from, to, wants) in cases {
        let text = EXPERIMENT.replacen(from, to, 1);
        assert_ne!(text, EXPERIMENT, "{from} not found");
        refused(&text, wants);
    }
}

/// P(X ≥ k) and P(X ≤ k) for X ~ Binomial(n, p), summed term by term
/// (pmf(j + 1) = pmf(j) · (n - j)/(j + 1) · p/(1 - p)): a second
/// computation, apart from katro's continued fraction, for the small n of
/// a test.
fn binomial_tails(k: u64, n: u64, p: f64) -> (f64, f64) {
    let mut pmf = (1.0 - p).powi(n as i32);
    let (mut at_least, mut at_most) = (0.0, 0.0);
    for j in 0..=n {
        if j >= k {
            at_least += pmf;
        }
        if j <= k {
            at_most += pmf;
        }
        pmf *= (n - j) as f64 / (j + 1) as f64 * p / (1.0 - p);
    }
    (at_least, at_most)
}

#[test]
fn a_balance_margin_judges_every_cell_in_summary_csv_and_on_the_console() {
    // Greedy against random gives a share beyond any modest margin, and
    // greedy self-play from the start is an agent-value cell.
    let base = format!(
        "{EXPERIMENT}\n[[matchups]]\np1 = \"greedy\"\np2 = \"random\"\n\n\
         [[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\n"
    );
    let judged = base.replace("ply_limit = 400", "ply_limit = 400\nbalance_margin = 0.2");
    let dir = setup(&judged);
    let out = katro()
        .current_dir(dir.path())
        .args(["run", "exp.toml", "--threads", "2", "--out", "o"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(stdout.contains("  balance ±0.2  "), "{stdout}");
    assert!(
        stdout.contains(
            "p1 win rate: each cell's agents' share over 0 random opening plies (from the start, \
             the games spread by the agents' own random moves) (6 cells); greedy self-play's \
             value of the start, not a share over openings: with 0 random opening plies the \
             games differ only by the agents' draws among tied best moves (one game if none tie) \
             (2 cells)"
        ),
        "{stdout}"
    );
    let mut estimands = Vec::new();
    let summary = read(&dir.path().join("o"), "summary.csv");
    let mut verdicts = Vec::new();
    for r in summary_rows(&summary) {
        let num = |c: &str| -> f64 { r[c].parse().unwrap_or_else(|_| panic!("{c}: {}", r[c])) };
        let (w, d) = (num("p1_wins") as u64, num("decided") as u64);
        estimands.push(r["estimand"].clone());
        assert_eq!(r["balance_margin"], "0.200000");
        let close = |c: &str, want: f64| {
            assert!((num(c) - want).abs() < 2e-6, "{c}: {} for {want}", r[c]);
        };
        let (upper, lower) = binomial_tails(w, d, 0.5);
        close("p1_vs_half_p", (2.0 * upper.min(lower)).min(1.0));
        let (low_p, below) = binomial_tails(w, d, 0.3);
        let (above, high_p) = binomial_tails(w, d, 0.7);
        close("balance_low_p", low_p);
        close("balance_high_p", high_p);
        let verdict = if low_p < 0.05 && high_p < 0.05 {
            "balanced within 0.2"
        } else if below < 0.025 || above < 0.025 {
            "unbalanced"
        } else {
            "undetermined"
        };
        assert_eq!(r["balance_verdict"], verdict, "{w} of {d}");
        verdicts.push(verdict);
        let half = 1.959964 * num("length_sd") / num("games").sqrt();
        close("length_mean_low", num("length_mean") - half);
        close("length_mean_high", num("length_mean") + half);
    }
    // Within 0.2 of a half on 60 games: random play and epsilon-greedy
    // against greedy; greedy's share against random is beyond it; 39 of
    // 60 in greedy self-play on katro-4x4 is neither.
    assert_eq!(
        verdicts,
        [
            "balanced within 0.2",
            "balanced within 0.2",
            "unbalanced",
            "undetermined",
            "balanced within 0.2",
            "balanced within 0.2",
            "unbalanced",
            "balanced within 0.2"
        ],
        "{summary}"
    );
    let value = |i: usize| {
        if i % 4 == 3 {
            "agent-value"
        } else {
            "agent-share"
        }
    };
    assert_eq!(estimands, (0..8).map(value).collect::<Vec<_>>());
    // Without a margin the columns are there, and empty; every column
    // before them is as before the margin existed.
    let plain = setup(&base);
    run(plain.path(), "o", "2");
    let before = read(&plain.path().join("o"), "summary.csv");
    for r in summary_rows(&before) {
        for c in [
            "balance_margin",
            "balance_verdict",
            "balance_low_p",
            "balance_high_p",
        ] {
            assert_eq!(r[c], "", "{c}");
        }
        assert!(!r["p1_vs_half_p"].is_empty());
    }
    // The four margin columns are the 6th to 3rd from the end (no field
    // after `rules`' quoted text has a comma).
    let without_margin = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                [&f[..f.len() - 6], &f[f.len() - 2..]].concat().join(",")
            })
            .collect()
    };
    assert_eq!(without_margin(&before), without_margin(&summary));
    // A margin declared on the finished run changes no game: the rerun
    // plays none and writes what a fresh run with the margin writes.
    fs::copy(dir.path().join("exp.toml"), plain.path().join("exp.toml")).unwrap();
    let again = katro()
        .current_dir(plain.path())
        .args(["run", "exp.toml", "--threads", "2", "--out", "o"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&again.get_output().stdout).to_string();
    assert!(
        said.contains("\n0 games in ")
            && said.contains("(and 480 kept from the results already there)"),
        "{said}"
    );
    assert_eq!(read(&plain.path().join("o"), "summary.csv"), summary);
}

#[test]
fn an_unwritable_output_folder_is_refused_before_playing() {
    let dir = setup(&EXPERIMENT.replace(
        "name = \"determinism\"",
        "name = \"d\"\noutput = \"blocked/out\"",
    ));
    // A file where the folder should be: no permission tricks needed, so
    // the test also holds when run as root.
    fs::write(dir.path().join("blocked"), "not a folder").unwrap();
    let out = katro()
        .current_dir(dir.path())
        .args(["run", "exp.toml"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("exp.toml: `output`: cannot write to the output folder blocked/out"),
        "{stderr}"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("blocked")).unwrap(),
        "not a folder"
    );
    assert!(!dir.path().join("results").exists());

    let out = katro()
        .current_dir(dir.path())
        .args(["run", "exp.toml", "--out", "blocked/x"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("--out blocked/x: cannot write"), "{stderr}");
}

#[test]
fn a_rerun_without_rows_removes_the_old_games_file() {
    let dir = setup(EXPERIMENT);
    run(dir.path(), "out", "1");
    assert!(dir.path().join("out/games.csv").exists());
    let without = EXPERIMENT.replace("per_game_rows = true\nmoves_in_rows = true\n", "");
    fs::write(dir.path().join("exp.toml"), without).unwrap();
    // Without rows it is another experiment: its folder is not reused
    // unless asked.
    let out = katro()
        .current_dir(dir.path())
        .args(["run", "exp.toml", "--threads", "1", "--out", "out"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(dir.path().join("out/games.csv").exists());
    katro()
        .current_dir(dir.path())
        .args([
            "run",
            "exp.toml",
            "--threads",
            "1",
            "--out",
            "out",
            "--force",
        ])
        .assert()
        .success();
    assert!(!dir.path().join("out/games.csv").exists());
    let manifest = read(&dir.path().join("out"), "manifest.json");
    assert!(!manifest.contains("games.csv"), "{manifest}");
}

/// `simulate --opening-plies K --ply-limit N` plays as an experiment with
/// `opening_plies = K` and `ply_limit = N` does: the same games, so the
/// same summary row, whose `opening_plies` and `ply_limit` columns follow;
/// bad values are refused as the experiment's keys are.
#[test]
fn simulate_takes_opening_plies_and_a_ply_limit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("same.toml"),
        "name = \"same\"\nseed = 3\ngames = 40\nvariants = [\"katro-4x4\"]\n\
         ply_limit = 300\n\n[[matchups]]\np1 = \"alphabeta:depth=2\"\np2 = \"greedy\"\n\
         opening_plies = 4\n",
    )
    .unwrap();
    katro()
        .current_dir(d)
        .args(["run", "same.toml", "--out", "e", "--threads", "2"])
        .assert()
        .success();
    let simulate = [
        "simulate",
        "katro-4x4",
        "--games",
        "40",
        "--p1",
        "alphabeta:depth=2",
        "--p2",
        "greedy",
        "--seed",
        "3",
        "--opening-plies",
        "4",
        "--ply-limit",
        "300",
    ];
    let out = katro()
        .current_dir(d)
        .args(simulate)
        .args(["--out", "s", "--threads", "1"])
        .assert()
        .success();
    let table = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        table.contains("katro-4x4  alphabeta:depth=2  greedy        4     40"),
        "{table}"
    );
    let (e, s) = (
        read(&d.join("e"), "summary.csv"),
        read(&d.join("s"), "summary.csv"),
    );
    assert_eq!(column(&s, "opening_plies"), ["4"]);
    assert_eq!(column(&s, "ply_limit"), ["300"]);
    assert_eq!(s, e, "simulate and the experiment play the same games");
    for (args, want) in [
        (
            vec!["--opening-plies", "-1"],
            "error: --opening-plies: -1 is out of range: the number of random opening plies \
             must be from 0 to 1000\n",
        ),
        (
            vec!["--opening-plies", "1001"],
            "error: --opening-plies: 1001 is out of range: the number of random opening plies \
             must be from 0 to 1000\n",
        ),
        (
            vec!["--ply-limit", "0"],
            "error: --ply-limit: 0 is out of range: the ply limit must be from 1 to 100000000\n",
        ),
        (
            vec!["--opening-plies", "300", "--ply-limit", "300"],
            "error: --opening-plies: 300 random opening plies reach variant `katro-4x4`'s ply \
             limit (300): the agents would never move; give fewer than 300 plies\n",
        ),
    ] {
        let out = katro()
            .current_dir(d)
            .args(&simulate[..10])
            .args(&args)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert_eq!(stderr, want, "{args:?}");
    }
}

#[test]
fn simulate_prints_a_table_and_writes_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let out = katro()
        .current_dir(dir.path())
        .args([
            "simulate",
            "katro-4x4",
            "--games",
            "50",
            "--p1",
            "greedy",
            "--p2",
            "random",
            "--seed",
            "3",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let mut lines = stdout.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("variant    p1      p2      games  distinct  p1 wins")
    );
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("katro-4x4  greedy  random     50")
    );
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written without --out"
    );

    katro()
        .current_dir(dir.path())
        .args([
            "simulate",
            "katro-4x4",
            "--games",
            "50",
            "--p1",
            "greedy",
            "--p2",
            "random",
            "--seed",
            "3",
            "--out",
            "s",
            "--threads",
            "2",
        ])
        .assert()
        .success();
    let summary = read(&dir.path().join("s"), "summary.csv");
    assert!(
        summary
            .lines()
            .nth(1)
            .unwrap()
            .contains(",greedy,random,0,50,")
    );

    for (args, want) in [
        (["--p1", "minimax"], "--p1: agent `minimax`"),
        (["--p1", "epsilon-greedy:epsilon=2"], "epsilon is 2"),
    ] {
        let out = katro()
            .current_dir(dir.path())
            .args(["simulate", "katro-4x4", "--games", "5", "--p2", "random"])
            .args(args)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(stderr.contains(want), "{stderr}");
    }
    katro()
        .args([
            "simulate",
            "katro-4x4",
            "--games",
            "0",
            "--p1",
            "random",
            "--p2",
            "random",
        ])
        .assert()
        .code(2);
}

/// Every shipped experiment parses, names every preset where it says it
/// does, and stays within its documented size.
/// A summary.csv as (header → field) maps, one per row.
fn summary_rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Alpha-beta at depth 3 against itself on katro-6x3 plays one game 30
/// times; 4 random opening plies spread it, to 27 distinct games, whose
/// repeats change the interval too little to be told (5%). On katro-6x6
/// cut to 6 plies no game is decided. Console and manifest say so; the
/// metrics that need a decided game are empty.
#[test]
fn repeated_and_undecided_cells_are_flagged() {
    let exp = r#"
name = "flagged"
seed = 11
games = 30
variants = ["katro-6x3", { variant = "katro-6x6", ply_limit = 6 }]

[[matchups]]
p1 = "alphabeta:depth=3"
p2 = "alphabeta:depth=3"

[[matchups]]
p1 = "alphabeta:depth=3"
p2 = "alphabeta:depth=3"
opening_plies = 4
"#;
    let dir = setup(exp);
    let out = katro()
        .current_dir(dir.path())
        .args(["run", "exp.toml", "--threads", "2", "--out", "o"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains(
            "warning: katro-6x3, alphabeta:depth=3 vs alphabeta:depth=3: only 1 distinct game \
             in 30 (3.3%): repeated games sample fewer lines of play than the count suggests; \
             counted once each, they would widen the interval by 448% (docs/OUTPUTS.md, \
             `distinct_games`)\n"
        ),
        "{stdout}"
    );
    // Two cells decided nothing: one line for both, naming them briefly.
    assert!(
        stdout.contains(
            "warning: few-decided in 2 of 4 cells: fewer than half, or fewer than 100, of the \
             games were decided"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "(katro-6x6: alphabeta:depth=3 vs alphabeta:depth=3; katro-6x6 (4 opening plies): \
             alphabeta:depth=3 vs alphabeta:depth=3; the notes column marks each, manifest.json says each in full)"
        ),
        "{stdout}"
    );
    // The two katro-6x3 cells decided all their 30 games: too few games,
    // never "few decided".
    assert!(
        stdout.contains("warning: few-games in 2 of 4 cells: fewer than 100 games, all decided"),
        "{stdout}"
    );
    // One line per kind of warning, whatever the number of cells.
    let lines = stdout.lines().filter(|l| l.starts_with("warning:")).count();
    assert_eq!(lines, 3, "{stdout}");
    let rows = summary_rows(&read(&dir.path().join("o"), "summary.csv"));
    let get = |i: usize, k: &str| rows[i][k].clone();
    assert_eq!(get(0, "opening_plies"), "0");
    assert_eq!(get(0, "distinct_games"), "1");
    assert_eq!(get(0, "distinct_exact"), "true");
    assert_eq!(get(1, "opening_plies"), "4");
    let spread: u64 = get(1, "distinct_games").parse().unwrap();
    assert!(spread > 10, "{spread} distinct games with 4 opening plies");
    for i in [2, 3] {
        assert_eq!(get(i, "decided"), "0");
        for k in [
            "p1_win_rate",
            "p1_win_rate_low",
            "p1_win_rate_high",
            "advantage_p1",
            "balance",
        ] {
            assert_eq!(get(i, k), "", "row {i}, {k}");
        }
        assert_eq!(get(i, "completion"), "0.000000");
    }
    let comparison = read(&dir.path().join("o"), "comparison.csv");
    for row in summary_rows(&comparison) {
        assert_eq!(row["advantage_diff"], "", "{comparison}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&dir.path().join("o"), "manifest.json")).unwrap();
    let kinds = |i: usize| -> Vec<String> {
        manifest["cells"][i]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["kind"].as_str().unwrap().to_string())
            .collect()
    };
    // 30 games are fewer than 100 decided ones in every cell; katro-6x3's
    // are all decided, katro-6x6's (6 plies) none.
    assert_eq!(kinds(0), ["repeats", "few-games"]);
    assert_eq!(kinds(1), ["few-games"]);
    // Each cell's own words, which the console leaves to the table.
    let words = manifest["cells"][0]["warnings"][0]["message"]
        .as_str()
        .unwrap();
    assert!(
        words.starts_with("only 1 distinct game in 30 (3.3%)"),
        "{words}"
    );
    assert!(kinds(2).contains(&"few-decided".to_string()));
    assert_eq!(manifest["cells"][1]["opening_plies"], 4);
    assert_eq!(manifest["cells"][0]["distinct_games"], 1);
    assert_eq!(manifest["cells"][0]["distinct_exact"], true);
}

#[test]
fn shipped_experiments_are_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut names = Vec::new();
    for entry in fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        let shown = path.display().to_string();
        // A variant file beside the experiments is one of theirs (the
        // skill ladder's small boards); it must be valid on its own.
        if text.lines().any(|l| l.trim() == "[board]") {
            let stem = path.file_stem().unwrap().to_str().unwrap();
            katro_core::rules::parse_variant(&shown, &text, stem).unwrap_or_else(|e| panic!("{e}"));
            continue;
        }
        let mut beside = |p: &str| -> Result<(String, String), String> {
            let file = root.join(p);
            if file.parent() != Some(root.as_path()) {
                return Err(format!(
                    "{p}: shipped variant files sit beside the experiments"
                ));
            }
            let text = fs::read_to_string(&file).map_err(|e| format!("{p}: {e}"))?;
            Ok((file.display().to_string(), text))
        };
        let exp = katro_lab::experiment::parse_experiment(&shown, &text, &mut beside)
            .unwrap_or_else(|e| panic!("{e}"));
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        assert_eq!(
            exp.name, stem,
            "the name is the file's, so results/<name>/ matches"
        );
        assert!(
            text.starts_with(&format!("# {stem}.toml")),
            "{stem}: no opening comment"
        );
        // The studies of every preset cover every preset, first (the
        // skill ladder adds two small boards after them); the quick look,
        // the sweeps, metrics-exact and the solved boards' studies (docs/STUDY.md) pick
        // their own; strong-play and metrics-strong leave out
        // katro-wikipedia, whose games the strongest agent cannot afford
        // (strength-curve and opening-plies play strong-play's presets)
        // (the file says why).
        let picked = [
            "quick",
            "boards",
            "readings",
            "strong-play-solved",
            "strong-play-perfect",
            "metrics-exact",
            "strength-curve-tiny",
        ];
        if !picked.contains(&stem.as_str()) {
            let variants: Vec<&str> = exp.variants.iter().map(|v| v.rules.name()).collect();
            let mut presets = katro_core::rules::preset_names();
            let strong = [
                "strong-play",
                "metrics-strong",
                "strength-curve",
                "opening-plies",
            ];
            if strong.contains(&stem.as_str()) {
                presets.retain(|p| *p != "katro-wikipedia");
                assert!(
                    text.contains("Left out: katro-wikipedia"),
                    "{stem}: say why"
                );
            }
            // opening-plies also leaves out katra-boaoaka-ludii, whose
            // exact openings this agent cannot afford (the file says why).
            if stem == "opening-plies" {
                presets.retain(|p| *p != "katra-boaoaka-ludii");
                assert!(
                    text.contains("and katra-boaoaka-ludii, where"),
                    "{stem}: say why"
                );
            }
            assert!(variants.len() >= presets.len(), "{stem}: every preset");
            assert_eq!(variants[..presets.len()], presets, "{stem}: every preset");
        }
        names.push(stem);
    }
    names.sort();
    assert_eq!(
        names,
        [
            "boards",
            "first-player-advantage",
            "game-length",
            "metrics",
            "metrics-exact",
            "metrics-strong",
            "opening-plies",
            "quick",
            "readings",
            "skill-ladder",
            "strength-curve",
            "strength-curve-tiny",
            "strong-play",
            "strong-play-perfect",
            "strong-play-solved",
            "variant-balance"
        ]
    );
}

/// Every CSV file of a results folder, by name.
fn csv_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".csv"))
        .map(|n| (n.clone(), fs::read(dir.join(&n)).unwrap()))
        .collect();
    out.sort();
    out
}

/// `katro run exp.toml --threads 2 --out out` in `d` again: its stdout.
fn rerun(d: &Path) -> String {
    let done = katro()
        .current_dir(d)
        .args(["run", "exp.toml", "--threads", "2", "--out", "out"])
        .assert()
        .success();
    String::from_utf8_lossy(&done.get_output().stdout).to_string()
}

/// The CSV files of `d/out` and `d/fresh`, which must be equal.
fn assert_same_csvs(d: &Path) -> Vec<(String, Vec<u8>)> {
    let (out, fresh) = (csv_files(&d.join("out")), csv_files(&d.join("fresh")));
    assert_eq!(out.len(), fresh.len());
    for ((name, a), (_, b)) in out.iter().zip(&fresh) {
        assert!(a == b, "{name} of the grown run differs from a fresh run's");
    }
    out
}

#[test]
fn a_grown_experiment_plays_only_its_new_games_and_equals_a_fresh_run() {
    let dir = setup(EXPERIMENT);
    let d = dir.path();
    run(d, "out", "2");
    // A rerun of the complete experiment plays nothing and exits 0.
    let said = rerun(d);
    assert!(
        said.contains("experiment `determinism` is complete: its 240 games are in out"),
        "{said}"
    );
    // More games, another variant and another matchup.
    let bigger = EXPERIMENT
        .replace("games = 60", "games = 90")
        .replace("\"small.toml\"]", "\"small.toml\", \"katro-4x6\"]")
        + "\n[[matchups]]\np1 = \"greedy\"\np2 = \"random\"\n";
    fs::write(d.join("exp.toml"), &bigger).unwrap();
    let said = rerun(d);
    // 3 variants × 3 matchups × 90 games, of which 2 × 2 × 60 were there.
    assert!(
        said.contains("570 games in")
            && said.contains("(and 240 kept from the results already there)"),
        "{said}"
    );
    run(d, "fresh", "1");
    let out = assert_same_csvs(d);
    let names: Vec<&str> = out.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["comparison.csv", "games.csv", "lengths.csv", "summary.csv"]
    );
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(d.join("out/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["kept_games"], 240);
    assert_eq!(m["games"], 810);

    // Fewer games would drop games already played: refused, nothing
    // touched; --force replays everything.
    fs::write(
        d.join("exp.toml"),
        bigger.replace("games = 90", "games = 50"),
    )
    .unwrap();
    let refused = katro()
        .current_dir(d)
        .args(["run", "exp.toml", "--threads", "2", "--out", "out"])
        .assert()
        .code(2);
    let said = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(
        said.contains("would change games already played")
            && said.contains("played 90 games; 50 would drop games already played")
            && said.contains("--force"),
        "{said}"
    );
    assert_eq!(csv_files(&d.join("out")), out);
    katro()
        .current_dir(d)
        .args([
            "run",
            "exp.toml",
            "--threads",
            "2",
            "--out",
            "out",
            "--force",
        ])
        .assert()
        .success();
}

/// Design metrics survive growth: their aggregates (quantised sums and
/// histograms) are kept from the first run and added to, so metrics.csv
/// of a grown run is a fresh run's, intervals included.
#[test]
fn a_grown_run_with_metrics_equals_a_fresh_run() {
    let small = EXPERIMENT
        .replace("games = 60", "games = 20")
        .replace("ply_limit = 400", "ply_limit = 400\nmetrics = [\"all\"]");
    let dir = setup(&small);
    let d = dir.path();
    run(d, "out", "2");
    fs::write(
        d.join("exp.toml"),
        small.replace("games = 20", "games = 45"),
    )
    .unwrap();
    let said = rerun(d);
    assert!(
        said.contains("kept from the results already there"),
        "{said}"
    );
    run(d, "fresh", "1");
    let out = assert_same_csvs(d);
    assert!(
        out.iter().any(|(n, _)| n == "metrics.csv"),
        "no metrics.csv"
    );
}

/// A tournament's three files agree with summary.csv cell by cell, list
/// every agent on every variant, and put the anchor at 0.
#[test]
fn a_tournament_writes_ratings_that_agree_with_its_cells() {
    let exp = r#"
name = "tournament"
seed = 9
variants = ["katro-4x4", "small.toml"]
games = 40
opening_plies = 2

[[matchups]]
p1 = "greedy"
p2 = "greedy"

[tournament]
agents = ["random", "epsilon-greedy:epsilon=0.5", "greedy"]
"#;
    let dir = setup(exp);
    let out = katro()
        .current_dir(dir.path())
        .args(["run", "exp.toml", "--out", "out"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        stdout.contains("ratings on katro-4x4 (Elo, random = 0, 95% intervals;"),
        "{stdout}"
    );
    // `katro rate` on the run's summary writes the run's bytes: one path.
    let again = dir.path().join("again");
    katro()
        .current_dir(dir.path())
        .args(["rate", "out", "--out", again.to_str().unwrap()])
        .assert()
        .success();
    for f in ["ratings.csv", "pairwise.csv", "skill-trace.csv"] {
        assert_eq!(
            fs::read(dir.path().join("out").join(f)).unwrap(),
            fs::read(again.join(f)).unwrap(),
            "{f}"
        );
    }
    let read = |f: &str| fs::read_to_string(dir.path().join("out").join(f)).unwrap();
    let (summary, ratings, pairwise, trace) = (
        read("summary.csv"),
        read("ratings.csv"),
        read("pairwise.csv"),
        read("skill-trace.csv"),
    );
    // 1 matchup + 3 pairs × 2 seats, on 2 variants.
    assert_eq!(column(&summary, "p1").len(), 14);
    assert_eq!(column(&ratings, "agent").len(), 6);
    assert_eq!(column(&pairwise, "agent").len(), 6);
    assert_eq!(column(&trace, "level"), ["2", "3", "2", "3"]);
    for (agent, rating) in column(&ratings, "agent")
        .iter()
        .zip(column(&ratings, "rating"))
    {
        if agent == "random" {
            assert_eq!(rating, "0.000000");
        }
    }
    // Each pair's games are its two cells' games, and its wins the two
    // cells' wins of its agent.
    let (p1, p2) = (column(&summary, "p1"), column(&summary, "p2"));
    let (w1, w2) = (column(&summary, "p1_wins"), column(&summary, "p2_wins"));
    let variants = column(&summary, "variant");
    let n = |s: &String| s.parse::<u64>().unwrap();
    let rows = column(&pairwise, "agent").len();
    for r in 0..rows {
        let v = &column(&pairwise, "variant")[r];
        let a = &column(&pairwise, "agent")[r];
        let o = &column(&pairwise, "opponent")[r];
        let mut wins = 0;
        let mut games = 0;
        for c in 0..p1.len() {
            if &variants[c] != v {
                continue;
            }
            if &p1[c] == a && &p2[c] == o {
                wins += n(&w1[c]);
                games += 40;
            } else if &p1[c] == o && &p2[c] == a {
                wins += n(&w2[c]);
                games += 40;
            }
        }
        assert_eq!(games, 80, "{v} {a} {o}");
        assert_eq!(n(&column(&pairwise, "wins")[r]), wins, "{v} {a} {o}");
        assert_eq!(n(&column(&pairwise, "games")[r]), games);
    }
    assert!(read("report.html").contains("Skill trace"));
    assert!(dir.path().join("out/plots/ratings.svg").exists());
    assert!(dir.path().join("out/plots/skill-trace.svg").exists());
}

#[test]
fn bad_metrics_exit_2_naming_file_line_key_and_the_valid_names() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "ply_limit = 400",
            "ply_limit = 400\nmetrics = [\"lead_change\", \"drama\"]",
            &[
                "exp.toml:9:27: `metrics[1]`: unknown metric \"drama\"",
                "all, drama_mean, drama_max, lead_change",
                "capture_turn_share",
            ],
        ),
        (
            "p2 = \"greedy\"",
            "p2 = \"greedy\"\nmetrics = [\"bogus\"]",
            &[
                "`matchups[1].metrics[0]`: unknown metric \"bogus\"",
                "drama_mean",
            ],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 400\nmetrics = []",
            &["`metrics`: is empty", "\"all\""],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 400\nmetrics = [\"all\"]\nmetrics_eval = \"search:depth=9\"",
            &["`metrics_eval`: depth 9 is out of range", "from 1 to 6"],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 400\nmetrics = [\"all\"]\nmetrics_eval = \"oracle\"",
            &[
                "`metrics_eval`: \"oracle\" is not a state evaluation",
                "\"exact\"",
            ],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 400\nmetrics = [\"all\"]\nmetrics_eval = \"exact\"",
            &[
                "`metrics_eval`: \"exact\" evaluates states from a solution of the board, \
                 but variant `katro-4x4` is too big to solve in memory",
            ],
        ),
        (
            "ply_limit = 400",
            "ply_limit = 400\nmetrics_eval = \"ludii\"",
            &["`metrics_eval`: evaluates states for the design metrics, but no metrics"],
        ),
    ];
    for (from, to, wants) in cases {
        let text = EXPERIMENT.replacen(from, to, 1);
        assert_ne!(text, EXPERIMENT, "{from} not found");
        refused(&text, wants);
    }
}

/// Recording metrics plays the same games: summary.csv and games.csv are
/// the bytes of the run without them (the lane kernel's games equal the
/// engine's), and metrics.csv is the same with one thread or two.
#[test]
fn metrics_change_no_game_and_do_not_depend_on_threads() {
    let with = EXPERIMENT.replacen("ply_limit = 400", "ply_limit = 400\nmetrics = [\"all\"]", 1);
    let dir = setup(&with);
    fs::write(dir.path().join("plain.toml"), EXPERIMENT).unwrap();
    run(dir.path(), "m1", "1");
    run(dir.path(), "m2", "2");
    katro()
        .current_dir(dir.path())
        .args(["run", "plain.toml", "--threads", "2", "--out", "plain"])
        .assert()
        .success();
    let d = dir.path();
    for f in ["summary.csv", "games.csv"] {
        assert_eq!(read(&d.join("m1"), f), read(&d.join("plain"), f), "{f}");
    }
    let m1 = read(&d.join("m1"), "metrics.csv");
    assert_eq!(m1, read(&d.join("m2"), "metrics.csv"));
    assert!(!d.join("plain/metrics.csv").exists());
    // One row per cell (2 variants × 2 matchups), every game counted.
    let rows: Vec<&str> = m1.lines().collect();
    assert_eq!(rows.len(), 5, "{m1}");
    let games = column(&m1, "games");
    assert!(games.iter().all(|g| g == "60"), "{games:?}");
    let decisive = column(&m1, "decisiveness_moves_games");
    let decided: Vec<String> = column(&read(&d.join("m1"), "summary.csv"), "decided");
    assert_eq!(decisive, decided, "decided games only");
}
