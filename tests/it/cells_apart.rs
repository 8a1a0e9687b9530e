//! A cell is (variant, p1, p2, opening_plies): every output with a row per
//! cell, per game or per (cell, length) must carry all four fields, and
//! agree on each cell's game count. The experiment below has pairs of cells
//! that differ in exactly one of the four fields, so a file that drops any
//! of them pools two cells and fails here.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use assert_cmd::Command;

/// The fields that name a cell, in the order summary.csv has them.
const KEY: [&str; 4] = ["variant", "p1", "p2", "opening_plies"];

/// Pairs of matchups differing in p1 alone, p2 alone and opening_plies
/// alone, on two variants (which differ in the variant alone). Greedy
/// against greedy is deterministic, so its two openings give very
/// different cells: pooling them would be visible in any statistic.
const EXPERIMENT: &str = r#"
name = "cells-apart"
seed = 11
variants = ["katro-4x4", "small.toml"]
games = 40
per_game_rows = true
ply_limit = 400

[[matchups]]
p1 = "random"
p2 = "random"

[[matchups]]
p1 = "greedy"
p2 = "random"

[[matchups]]
p1 = "random"
p2 = "greedy"

[[matchups]]
p1 = "greedy"
p2 = "greedy"

[[matchups]]
p1 = "greedy"
p2 = "greedy"
opening_plies = 4
"#;

const SMALL_VARIANT: &str = "name = \"small-6x3\"\n[board]\nrows = 6\nholes = 3\nseeds = 2\n";

type Row = BTreeMap<String, String>;

fn rows(path: &Path) -> Vec<Row> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

fn key(file: &str, row: &Row) -> [String; 4] {
    KEY.map(|k| {
        row.get(k)
            .unwrap_or_else(|| panic!("{file} has no `{k}` column: it cannot keep cells apart"))
            .clone()
    })
}

fn count(n: &str) -> u64 {
    n.parse().unwrap_or_else(|_| panic!("`{n}` is not a count"))
}

#[test]
fn every_output_keeps_cells_apart_and_agrees_on_their_counts() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("exp.toml"), EXPERIMENT).unwrap();
    fs::write(dir.path().join("small.toml"), SMALL_VARIANT).unwrap();
    Command::cargo_bin("katro")
        .unwrap()
        .current_dir(dir.path())
        .args(["run", "exp.toml", "--out", "out"])
        .assert()
        .success();
    let out = dir.path().join("out");

    // summary.csv: one row per cell, every key distinct.
    let summary: BTreeMap<[String; 4], u64> = rows(&out.join("summary.csv"))
        .iter()
        .map(|r| (key("summary.csv", r), count(&r["games"])))
        .collect();
    assert_eq!(summary.len(), 10, "2 variants × 5 matchups: {summary:?}");
    assert!(summary.values().all(|&n| n == 40), "{summary:?}");

    // games.csv: one row per game, counted per cell.
    let mut games: BTreeMap<[String; 4], u64> = BTreeMap::new();
    for r in rows(&out.join("games.csv")) {
        *games.entry(key("games.csv", &r)).or_default() += 1;
    }
    assert_eq!(games, summary, "games.csv against summary.csv");

    // lengths.csv: one row per (cell, length); the games add up per cell,
    // and so do the plies, to summary.csv's mean times its games.
    let mut lengths: BTreeMap<[String; 4], (u64, u64)> = BTreeMap::new();
    for r in rows(&out.join("lengths.csv")) {
        let e = lengths.entry(key("lengths.csv", &r)).or_default();
        let n = count(&r["games"]);
        e.0 += n;
        e.1 += n * count(&r["length"]);
    }
    let length_games: BTreeMap<_, _> = lengths.iter().map(|(k, v)| (k.clone(), v.0)).collect();
    assert_eq!(length_games, summary, "lengths.csv against summary.csv");
    for r in rows(&out.join("summary.csv")) {
        let plies = lengths[&key("summary.csv", &r)].1 as f64;
        let mean: f64 = r["length_mean"].parse().unwrap();
        assert!((plies / 40.0 - mean).abs() < 1e-6, "{r:?}: {plies}");
    }

    // comparison.csv: each matchup and opening on small-6x3 against the
    // baseline katro-4x4, both cells' counts as summary.csv gives them.
    let comparison = rows(&out.join("comparison.csv"));
    assert_eq!(comparison.len(), 5, "one row per matchup and opening");
    let mut seen = BTreeMap::new();
    for r in &comparison {
        let k = key("comparison.csv", r);
        let mut base = k.clone();
        base[0] = r["baseline"].clone();
        assert_eq!(count(&r["games"]), summary[&k], "{r:?}");
        assert_eq!(count(&r["baseline_games"]), summary[&base], "{r:?}");
        assert!(
            seen.insert(k, ()).is_none(),
            "comparison.csv repeats a cell"
        );
    }

    // The two openings of greedy against greedy are different cells, not
    // one cell written twice: their games differ.
    let distinct: Vec<String> = rows(&out.join("summary.csv"))
        .iter()
        .filter(|r| r["p1"] == "greedy" && r["p2"] == "greedy" && r["variant"] == "katro-4x4")
        .map(|r| r["distinct_games"].clone())
        .collect();
    assert_eq!(distinct.len(), 2);
    assert_ne!(distinct[0], distinct[1], "{distinct:?}");
}
