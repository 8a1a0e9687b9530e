//! The strength curve's machinery on the real binary, at the tiny budgets
//! of experiments/strength-curve-tiny.toml (the study itself,
//! strength-curve.toml, takes hours): its matchups played on some variants
//! only, whole and in shards merged to the same bytes, and the study's own
//! file accepted with the cells it means to play.

mod common;

use std::fs;
use std::path::Path;

use common::{column, katro_in};

const TINY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/experiments/strength-curve-tiny.toml"
);
const STUDY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/experiments/strength-curve.toml"
);

fn ok(args: &[&str]) -> String {
    let run = katro_in(args, "");
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

fn text(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_tiny_curve_plays_its_restricted_matchups_and_shards_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let sharded = dir.path().join("sharded");
    let (w, s) = (whole.to_str().unwrap(), sharded.to_str().unwrap());
    ok(&["run", TINY, "--out", w, "--threads", "2"]);
    for i in 1..=3 {
        let shard = format!("{i}/3");
        ok(&["run", TINY, "--out", s, "--shard", &shard, "--threads", "1"]);
    }
    ok(&["merge", s]);
    for f in ["summary.csv", "comparison.csv", "lengths.csv"] {
        assert_eq!(text(&whole.join(f)), text(&sharded.join(f)), "{f}");
    }
    let summary = text(&whole.join("summary.csv"));
    let cells: Vec<(String, String, String)> = column(&summary, "variant")
        .into_iter()
        .zip(column(&summary, "p1"))
        .zip(column(&summary, "games"))
        .map(|((v, p1), g)| (v, p1, g))
        .collect();
    let on = |v: &str| cells.iter().filter(|c| c.0 == v).count();
    // 8 matchups on katro-6x6; the three naming only katro-6x6 are not
    // played on the 4x3 board.
    assert_eq!(
        (on("katro-6x6"), on("katro-4x3-1seed"), cells.len()),
        (8, 5, 13)
    );
    assert!(!(cells.iter()).any(|c| c.0 == "katro-4x3-1seed" && c.1.contains("nodes=5000,")));
    let six = |p1: &str| {
        cells
            .iter()
            .find(|c| c.0 == "katro-6x6" && c.1 == p1)
            .unwrap()
    };
    assert_eq!(six("alphabeta:depth=12,nodes=5000,eval=fitted").2, "6");
}

#[test]
fn the_study_file_is_valid_with_the_cells_it_means_to_play() {
    let out = ok(&["validate", STUDY]);
    // 11 variants × 7 matchups on all of them, 200,000-node self-play on
    // each (in two entries), the 2,000,000-node level and its two
    // neighbouring matchups on katro-6x6.
    assert!(
        out.contains("valid experiment `strength-curve`: 91 cells, at most 105340 games"),
        "{out}"
    );
}
