//! The strength curve's machinery on the real binary, at the tiny budgets
//! of experiments/strength-curve-tiny.toml (the study itself,
//! strength-curve.toml, takes hours): its matchups played on some variants
//! only, whole and in shards merged to the same bytes, and the study's own
//! file accepted with the cells it means to play.

use std::path::Path;

use crate::common::{column, katro_in, katro_ok as ok, read_text as text};

const TINY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/experiments/strength-curve-tiny.toml"
);
const STUDY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/experiments/strength-curve.toml"
);

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
    ok(&["curve", w, "--threads", "2"]);
    ok(&["curve", s, "--threads", "1"]);
    for f in [
        "summary.csv",
        "comparison.csv",
        "lengths.csv",
        "strength-curve.csv",
    ] {
        assert_eq!(text(&whole.join(f)), text(&sharded.join(f)), "{f}");
    }
    check_curve(&text(&whole.join("strength-curve.csv")));
    // A margin outside (0, 0.5) is refused before anything is written.
    for bad in ["0.5", "0", "-0.1", "two"] {
        let r = katro_in(&["curve", w, "--margin", bad], "");
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(
            r.stderr.contains("--margin") && r.stderr.contains("strictly between 0 and 0.5"),
            "{}",
            r.stderr
        );
    }
    // A wider margin reads the same trend, and says so in the file.
    ok(&["curve", w, "--margin", "0.4"]);
    let wide = text(&whole.join("strength-curve.csv"));
    assert_eq!(column(&wide, "trend_margin")[3], "0.400000");
    assert_eq!(
        column(&wide, "trend_slope"),
        column(&text(&sharded.join("strength-curve.csv")), "trend_slope")
    );
    // katro wrote it, so it may write it again; the manifest lists it.
    ok(&["curve", w]);
    let manifest = text(&whole.join("manifest.json"));
    assert!(
        manifest.contains("\"strength-curve.csv\"") && manifest.contains("\"strength-curve.svg\"")
    );
    let svg = text(&whole.join("strength-curve.svg"));
    assert_eq!(svg.matches("<polyline").count(), 2, "a line per variant");
    // The report then draws the curve first, with the file's numbers
    // behind it; `katro curve` wrote the manifest through the ledger, so
    // the report may replace it.
    let before = text(&whole.join("report.html"));
    assert!(
        !before.contains("strength-curve.csv"),
        "not drawn before the curve"
    );
    ok(&["report", w]);
    let html = text(&whole.join("report.html"));
    let curve_at = html.find("Strength curve").expect("the curve's chart");
    let win_rate_at = html
        .find("First-player win rate")
        .expect("the win-rate chart");
    assert!(curve_at < win_rate_at, "the curve comes first");
    let plot = text(&whole.join("plots/strength-curve.svg"));
    assert!(plot.contains(&svg), "the chart `katro curve` drew");
    assert!(html.contains("<svg") && html.contains("katro-4x3-1seed: perfect play 0.462963"));
    let cells = html.matches("data-file=\"strength-curve.csv\"").count();
    assert_eq!(
        cells,
        7 * 21,
        "every row of strength-curve.csv, 21 columns each"
    );
    assert!(html.contains("data-col=\"limit\">0.462963<"));
    assert!(html.contains("data-col=\"verdict\">at-limit<"));
    // And again, with nothing of it changed.
    ok(&["report", w]);
    assert_eq!(html, text(&whole.join("report.html")));
    assert!(svg.contains("katro-4x3-1seed: perfect play 0.462963"));
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

/// The tiny curve's rows: random play and each budget on each variant,
/// the budgets rated against the smallest, and the 4×3 board's exact
/// perfect-play limit (25/54, checked against every opening sequence
/// walked apart in solve::openings' tests) on its budgets' rows.
fn check_curve(csv: &str) {
    let variant = column(csv, "variant");
    let nodes = column(csv, "nodes");
    let rows: Vec<(&str, &str)> = variant
        .iter()
        .map(String::as_str)
        .zip(nodes.iter().map(String::as_str))
        .collect();
    assert_eq!(
        rows,
        [
            ("katro-6x6", ""),
            ("katro-6x6", "50"),
            ("katro-6x6", "500"),
            ("katro-6x6", "5000"),
            ("katro-4x3-1seed", ""),
            ("katro-4x3-1seed", "50"),
            ("katro-4x3-1seed", "500"),
        ]
    );
    let rating = column(csv, "rating");
    assert_eq!((rating[0].as_str(), rating[1].as_str()), ("", "0.000000"));
    // A level is rated, or left empty where the tiny tournament does not
    // bound it (ratings.csv's open ends: a level that won every game
    // against the one below); 4x3's top level is bounded here.
    assert!(
        rating[2..4]
            .iter()
            .all(|r| r.is_empty() || r.parse::<f64>().is_ok()),
        "{rating:?}"
    );
    assert!(rating[6].parse::<f64>().is_ok(), "{rating:?}");
    let limit = column(csv, "limit");
    let exact = column(csv, "limit_exact");
    let openings = column(csv, "limit_openings");
    assert!(
        limit[..4].iter().all(String::is_empty),
        "katro-6x6 is not solved"
    );
    for i in 5..7 {
        assert_eq!(
            (limit[i].as_str(), exact[i].as_str(), openings[i].as_str()),
            ("0.462963", "25/54;0/1;29/54", "44")
        );
    }
    // Random play opens with no random ply: the start's own value, a win.
    assert_eq!((limit[4].as_str(), openings[4].as_str()), ("1.000000", "1"));
    // A verdict only on each family's largest budget; on 4x3 the share's
    // wide interval holds the limit, so the limit settles it, while 6x6
    // has no limit, and its slope's interval over a few hundred games
    // is far wider than the 2-point margin: open, not converged.
    assert_eq!(
        column(csv, "verdict"),
        ["", "", "", "open", "", "", "at-limit"]
    );
    // The trend and the pooled share on each family's largest budget only.
    let slope = column(csv, "trend_slope");
    let (low, high) = (
        column(csv, "trend_slope_low"),
        column(csv, "trend_slope_high"),
    );
    for i in [3, 6] {
        let (b, l, h): (f64, f64, f64) = (
            slope[i].parse().unwrap(),
            low[i].parse().unwrap(),
            high[i].parse().unwrap(),
        );
        assert!(l < b && b < h && h - l > 0.04, "{l} {b} {h}");
        assert_eq!(column(csv, "trend_margin")[i], "0.020000");
        assert!(column(csv, "pooled_share")[i].parse::<f64>().is_ok());
    }
    for i in [0, 1, 2, 4, 5] {
        assert_eq!(slope[i], "", "row {i}");
        assert_eq!(column(csv, "pooled_share")[i], "", "row {i}");
    }
    // Every step carries its p-value and the Holm-adjusted one, never
    // smaller.
    let p = column(csv, "step_share_diff_p");
    let holm = column(csv, "step_share_diff_holm");
    for i in [2, 3, 6] {
        let (p, h): (f64, f64) = (p[i].parse().unwrap(), holm[i].parse().unwrap());
        assert!(p <= h && h <= 1.0, "row {i}: {p} {h}");
    }
}

/// `katro curve --openings`: a board too large to solve within
/// `--max-memory` takes its limit from `katro prove-openings`' openings.csv
/// (the proof search's share, the same 25/54 as the solved table's), and
/// where the board is solved too the two are compared and said to agree.
#[test]
fn a_board_not_solved_takes_its_limit_from_the_proved_openings() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let proved = dir.path().join("proved");
    let (r, p) = (run.to_str().unwrap(), proved.to_str().unwrap());
    ok(&["run", TINY, "--out", r, "--threads", "2"]);
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/katro-4x3-1seed.toml"
    );
    // The run's lap limit, so that the rules are its summary.csv's.
    ok(&[
        "prove-openings",
        board,
        "--plies",
        "0,4",
        "--lap-limit",
        "10000",
        "--out",
        p,
        "--max-memory",
        "0.05",
    ]);
    let openings = proved.join("openings.csv");
    let o = openings.to_str().unwrap();
    // Solved and proved: the curve says the two agree.
    let both = katro_in(&["curve", r, "--openings", o], "");
    assert_eq!(both.code, 0, "{}", both.stderr);
    assert!(
        both.stderr.contains("katro-4x3-1seed, 4 plies: the proof search's share (25/54;0/1;29/54) equals the solved table's (25/54;0/1;29/54)"),
        "{}",
        both.stderr
    );
    let solved = text(&run.join("strength-curve.csv"));
    // Too large to solve at this --max-memory: the proved limit instead.
    let small = katro_in(&["curve", r, "--max-memory", "0.0001", "--openings", o], "");
    assert_eq!(small.code, 0, "{}", small.stderr);
    let csv = text(&run.join("strength-curve.csv"));
    for name in [
        "limit",
        "limit_exact",
        "limit_openings",
        "limit_low",
        "limit_high",
        "verdict",
    ] {
        assert_eq!(column(&csv, name), column(&solved, name), "{name}");
    }
    let source = column(&csv, "limit_source");
    assert_eq!(source[..4], ["", "", "", ""], "katro-6x6 has no limit");
    assert!(source[4..].iter().all(|s| s == "proved"), "{source:?}");
    assert!(
        column(&solved, "limit_source")[4..]
            .iter()
            .all(|s| s == "solved")
    );
    assert_eq!(column(&csv, "limit_unknown")[5], "0.000000");
    // The level's share interval less the limit: it holds 0 at the limit.
    let (lo, hi) = (
        column(&csv, "limit_gap_low"),
        column(&csv, "limit_gap_high"),
    );
    let (lo, hi): (f64, f64) = (lo[6].parse().unwrap(), hi[6].parse().unwrap());
    assert!(lo <= 0.0 && 0.0 <= hi, "{lo} {hi}");
    // Without the row of the plies it needs, the board has no limit.
    let zero_only = dir.path().join("zero");
    ok(&[
        "prove-openings",
        board,
        "--plies",
        "0",
        "--lap-limit",
        "10000",
        "--out",
        zero_only.to_str().unwrap(),
        "--max-memory",
        "0.05",
    ]);
    let partial = zero_only.join("openings.csv");
    let r2 = katro_in(
        &[
            "curve",
            r,
            "--max-memory",
            "0.0001",
            "--openings",
            partial.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r2.code, 0, "{}", r2.stderr);
    assert!(
        r2.stderr.contains("katro-4x3-1seed: no limit: too large to solve; --openings has no row of these rules at 4 plies"),
        "{}",
        r2.stderr
    );
    // A file that is not an openings.csv is refused, naming it.
    let bad = katro_in(
        &[
            "curve",
            r,
            "--openings",
            run.join("summary.csv").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr
            .contains("summary.csv: line 1: the header is not"),
        "{}",
        bad.stderr
    );
}

#[test]
fn the_study_file_is_valid_with_the_cells_it_means_to_play() {
    let out = ok(&["validate", STUDY]);
    // 11 variants × 7 matchups on all of them, 200,000-node self-play on
    // each (in two entries), the 2,000,000-node level and its two
    // neighbouring matchups on katro-6x6 (100 games a seat).
    assert!(
        out.contains("valid experiment `strength-curve`: 91 cells, at most 105140 games"),
        "{out}"
    );
}

const CURVE_GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/golden/strength-curve-games.toml"
);
const CURVE_GAMES_GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/golden/strength-curve-games.csv"
);

/// The curve is played over many sessions by whatever build is current,
/// so a change that alters its agents' games would silently mix two kinds
/// of game in one study. strength-curve-games.toml plays the first games
/// of the curve's cells at 2,000 and 20,000 nodes on all its variants;
/// every column of the golden summary (written by 1f2b7a7's build, which
/// played shards 6-11 and 30 and was shown to play as f36c34a, which began
/// the curve) must come out the same. Columns added since are not compared.
#[test]
fn the_curves_own_games_are_played_as_when_the_curve_began() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    ok(&["run", CURVE_GAMES, "--out", out.to_str().unwrap()]);
    let now = text(&out.join("summary.csv"));
    let golden = text(Path::new(CURVE_GAMES_GOLDEN));
    let header: Vec<String> = csv::Reader::from_reader(golden.as_bytes())
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    assert_eq!(
        column(&golden, "variant").len(),
        33,
        "11 variants × 3 cells"
    );
    for name in &header {
        assert_eq!(column(&now, name), column(&golden, name), "column {name}");
    }
}
