//! Issue 11 through the binary: progress lines when stderr is not a
//! terminal, tidy per-setting columns, comparison families, sweeps and
//! growing runs.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

use crate::common::column;

fn katro() -> Command {
    Command::cargo_bin("katro").unwrap()
}

fn read(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_run_with_piped_stderr_prints_progress_lines() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("exp.toml"),
        "name = \"p\"\nseed = 1\nvariants = [\"katro-6x6\"]\ngames = 20000\n\
         [[matchups]]\np1 = \"greedy\"\np2 = \"random\"\n",
    )
    .unwrap();
    let out = katro()
        .current_dir(dir.path())
        .env("KATRO_PROGRESS_SECONDS", "0.02")
        .args(["run", "exp.toml", "--threads", "1", "--out", "o"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert!(lines.len() >= 2, "{stderr}");
    for l in &lines {
        assert!(
            l.contains("/20000 games (") && l.contains(" games/s, "),
            "{l}"
        );
    }
    // The games done never go down.
    let done: Vec<u64> = lines
        .iter()
        .map(|l| {
            l["progress: ".len()..]
                .split('/')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");

    // A bad interval is refused before anything is played.
    let out = katro()
        .current_dir(dir.path())
        .env("KATRO_PROGRESS_SECONDS", "often")
        .args(["run", "exp.toml", "--out", "o2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("KATRO_PROGRESS_SECONDS=\"often\""),
        "{stderr}"
    );
    assert!(!dir.path().join("o2/summary.csv").exists());
}

/// Three small variants, random play: cheap in a debug or release build.
const THREE: &str = r#"
name = "three"
seed = 5
variants = ["katro-4x4", "katro-6x3", "katro-6x6"]
games = 300
COMPARE

[[matchups]]
p1 = "random"
p2 = "random"
"#;

fn run_ok(dir: &Path, file: &str, out: &str) -> std::process::Output {
    let o = katro()
        .current_dir(dir)
        .args(["run", file, "--threads", "2", "--out", out])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

#[test]
fn comparisons_against_a_named_baseline_or_all_pairs_with_holm() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("pairs.toml"),
        THREE.replace("COMPARE", "compare = \"all-pairs\""),
    )
    .unwrap();
    fs::write(
        d.join("base.toml"),
        THREE.replace("COMPARE", "baseline = \"katro-6x6\""),
    )
    .unwrap();
    run_ok(d, "pairs.toml", "pairs");
    run_ok(d, "base.toml", "base");
    let pairs = read(&d.join("pairs"), "comparison.csv");
    assert_eq!(
        column(&pairs, "variant"),
        ["katro-6x3", "katro-6x6", "katro-6x6"]
    );
    assert_eq!(
        column(&pairs, "baseline"),
        ["katro-4x4", "katro-4x4", "katro-6x3"]
    );
    let base = read(&d.join("base"), "comparison.csv");
    assert_eq!(column(&base, "variant"), ["katro-4x4", "katro-6x3"]);
    assert_eq!(column(&base, "baseline"), ["katro-6x6", "katro-6x6"]);
    // The same cells give the same summaries whatever is compared.
    assert_eq!(
        read(&d.join("pairs"), "summary.csv"),
        read(&d.join("base"), "summary.csv")
    );
    // Holm over the file's three comparisons of each metric: recomputed
    // here from the printed raw p-values (6 places), so within 1e-5.
    for metric in ["win_rate", "advantage", "length"] {
        let raw: Vec<f64> = column(&pairs, &format!("{metric}_p_value"))
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        let adjusted: Vec<f64> = column(&pairs, &format!("{metric}_p_holm"))
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        let mut order: Vec<usize> = (0..3).collect();
        order.sort_by(|&a, &b| raw[a].partial_cmp(&raw[b]).unwrap());
        let mut running: f64 = 0.0;
        for (rank, &i) in order.iter().enumerate() {
            running = running.max(((3 - rank) as f64 * raw[i]).min(1.0));
            assert!((adjusted[i] - running).abs() < 1e-5, "{metric}: {pairs}");
            assert!(adjusted[i] >= raw[i]);
        }
    }
    // The win-rate difference is the difference of summary's win rates.
    let summary = read(&d.join("pairs"), "summary.csv");
    let rate: Vec<f64> = column(&summary, "p1_win_rate")
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    let diff: f64 = column(&pairs, "win_rate_diff")[2].parse().unwrap();
    assert!((diff - (rate[2] - rate[1])).abs() < 2e-6, "{diff}");

    // A baseline that is no variant, and a bad `compare`, are reported
    // together with their lines; nothing is played.
    fs::write(
        d.join("bad.toml"),
        THREE.replace(
            "COMPARE",
            "baseline = \"katro-9x9\"\ncompare = \"everything\"",
        ),
    )
    .unwrap();
    let o = katro()
        .current_dir(d)
        .args(["run", "bad.toml", "--out", "bad"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("bad.toml:6:12: `baseline`: `katro-9x9` is not a variant of this experiment"),
        "{err}"
    );
    assert!(
        err.contains("bad.toml:7:11: `compare`: \"everything\" is not a comparison"),
        "{err}"
    );
    assert!(!d.join("bad/summary.csv").exists());
}

#[test]
fn a_sweep_runs_its_product_with_tidy_columns_or_lists_what_is_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sweep = r#"
name = "sweep"
seed = 11
games = 40
per_game_rows = true

[[sweep]]
base = "katro-6x6"
holes = { from = 3, to = 4 }
seeds = [2, 3]

[[matchups]]
p1 = "random"
p2 = "greedy"
"#;
    fs::write(d.join("sweep.toml"), sweep).unwrap();
    run_ok(d, "sweep.toml", "o");
    let summary = read(&d.join("o"), "summary.csv");
    assert_eq!(
        column(&summary, "variant"),
        [
            "katro-6x6+holes=3+seeds=2",
            "katro-6x6+holes=3+seeds=3",
            "katro-6x6+holes=4+seeds=2",
            "katro-6x6+holes=4+seeds=3"
        ]
    );
    assert_eq!(column(&summary, "rows"), ["6", "6", "6", "6"]);
    assert_eq!(column(&summary, "holes"), ["3", "3", "4", "4"]);
    assert_eq!(column(&summary, "seeds"), ["2", "3", "2", "3"]);
    assert_eq!(column(&summary, "layout"), ["", "", "", ""]);
    // Each setting column agrees with the rules string.
    for (rules, holes) in column(&summary, "rules")
        .iter()
        .zip(column(&summary, "holes"))
    {
        assert!(rules.contains(&format!(",holes={holes},")), "{rules}");
    }
    let games = read(&d.join("o"), "games.csv");
    assert_eq!(column(&games, "holes").len(), 160);
    assert_eq!(column(&games, "seeds")[40], "3");
    // Three comparisons against the first combination.
    assert_eq!(
        read(&d.join("o"), "comparison.csv").lines().count(),
        4,
        "a header and three rows"
    );

    // Invalid combinations: every one listed with the parser's reason,
    // exit 2, nothing written.
    let bad = sweep.replace("seeds = [2, 3]", "rows = [4, 5]\nseeds = [2, 9000]");
    fs::write(d.join("bad.toml"), &bad).unwrap();
    let o = katro()
        .current_dir(d)
        .args(["run", "bad.toml", "--out", "bad"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    let listed: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("bad.toml:7:1: `sweep[0]`: combination `"))
        .collect();
    // rows=5 (4 combinations of holes and seeds) and seeds=9000 on 4 rows
    // (2 more): 6 of the 8.
    assert_eq!(listed.len(), 6, "{err}");
    assert!(
        err.contains("5 rows cannot be split between two players"),
        "{err}"
    );
    assert!(err.contains("the engine holds at most 65535"), "{err}");
    assert!(!d.join("bad").exists());

    // With skip_invalid they are left out, on the console and in the
    // manifest.
    fs::write(
        d.join("skip.toml"),
        bad.replace(
            "seeds = [2, 9000]",
            "seeds = [2, 9000]\nskip_invalid = true",
        ),
    )
    .unwrap();
    let o = run_ok(d, "skip.toml", "skip");
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("skip_invalid: 6 invalid sweep combinations left out:\n  katro-6x6+rows=4+holes=3+seeds=9000: `board.seeds`:"),
        "{err}"
    );
    let summary = read(&d.join("skip"), "summary.csv");
    assert_eq!(
        column(&summary, "variant"),
        [
            "katro-6x6+rows=4+holes=3+seeds=2",
            "katro-6x6+rows=4+holes=4+seeds=2"
        ]
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&d.join("skip"), "manifest.json")).unwrap();
    assert_eq!(manifest["skipped_variants"].as_array().unwrap().len(), 6);
    assert_eq!(
        manifest["skipped_variants"][0]["variant"],
        "katro-6x6+rows=4+holes=3+seeds=9000"
    );
}

#[test]
fn a_sweep_gives_the_same_bytes_whole_in_shards_and_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("t.toml"),
        r#"
name = "t"
seed = 4
games = 30
per_game_rows = true
moves_in_rows = true
compare = "all-pairs"

[[sweep]]
base = "katro-4x4"
rows = [2]
holes = [2]
layout = [[[1, 2], [3, 1]], [[2, 2], [2, 2]]]

[[matchups]]
p1 = "random"
p2 = "random"
"#,
    )
    .unwrap();
    let k = |args: &[&str]| {
        let o = katro().current_dir(d).args(args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    k(&["run", "t.toml", "--out", "one", "--threads", "1"]);
    k(&["run", "t.toml", "--out", "two", "--threads", "2"]);
    k(&["run", "t.toml", "--out", "s", "--shard", "1/2"]);
    k(&["run", "t.toml", "--out", "s", "--shard", "2/2"]);
    k(&["merge", "s"]);
    for f in ["summary.csv", "games.csv", "comparison.csv", "lengths.csv"] {
        let one = read(&d.join("one"), f);
        assert_eq!(one, read(&d.join("two"), f), "{f}");
        assert_eq!(one, read(&d.join("s"), f), "{f}");
    }
    let summary = read(&d.join("one"), "summary.csv");
    assert_eq!(column(&summary, "seeds"), ["", ""]);
    assert_eq!(column(&summary, "layout"), ["1.2/3.1", "2.2/2.2"]);
    assert_eq!(
        column(&summary, "variant"),
        [
            "katro-4x4+rows=2+holes=2+layout=1.2/3.1",
            "katro-4x4+rows=2+holes=2+layout=2.2/2.2"
        ]
    );
}
