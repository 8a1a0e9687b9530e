//! `katro prove-nearby` and `katro prove-openings` on the real binary
//! (docs/SOLVED.md, "Proving a position"), with limits small enough for a
//! test: the same bytes for one thread and two, the rows of other
//! variants kept, openings valued exactly where every position is proven
//! and as an interval where some are not, and every bad request refused
//! (exit 2) before any search.

use std::fs;

use crate::common::{column, katro_in, katro_ok as ok, read_text as text};

/// Small limits: 6x3's nearby starts at depth 10 take a second.
const SMALL: [&str; 6] = [
    "--max-depth",
    "10",
    "--max-nodes",
    "100000",
    "--max-memory",
    "0.01",
];

const TINY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/experiments/katro-4x3-1seed.toml"
);

fn nearby(out: &str, variant: &str, threads: &str) -> String {
    let mut args = vec!["prove-nearby", variant, "--out", out, "--threads", threads];
    args.extend(SMALL);
    ok(&args)
}

#[test]
fn nearby_starts_of_6x3_are_the_same_for_one_thread_and_two() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let printed = nearby(one.to_str().unwrap(), "katro-6x3", "1");
    nearby(two.to_str().unwrap(), "katro-6x3", "2");
    let csv = text(&one.join("nearby.csv"));
    assert_eq!(csv, text(&two.join("nearby.csv")));
    // 18 holes of 2 seeds: each seed to any of the 17 other holes.
    let from = column(&csv, "from");
    assert_eq!(from.len(), 18 * 17);
    assert_eq!(
        (from[0].as_str(), column(&csv, "to")[0].as_str()),
        ("a1", "b1")
    );
    assert_eq!(
        column(&csv, "layout")[0],
        "[[1, 3, 2], [2, 2, 2], [2, 2, 2], [2, 2, 2], [2, 2, 2], [2, 2, 2]]"
    );
    assert!(column(&csv, "rules")[0].starts_with("katro(rows=6,holes=3,layout=1.3.2/2.2.2/"));
    // Within 10 decisions: a1's seed put in c3 or c4 loses in 8 for the
    // first player; the others are wins or stay unproven at the depth.
    let values = column(&csv, "value");
    let losses: Vec<String> = (0..values.len())
        .filter(|&i| values[i] == "loss")
        .map(|i| {
            format!(
                "{}>{} {}",
                from[i],
                column(&csv, "to")[i],
                column(&csv, "distance")[i]
            )
        })
        .collect();
    assert_eq!(losses, ["a1>c3 8", "a1>c4 8"]);
    let stopped = column(&csv, "stopped");
    for (i, v) in values.iter().enumerate() {
        match v.as_str() {
            "unknown" => assert_eq!(
                (stopped[i].as_str(), column(&csv, "bound")[i].as_str()),
                ("depth", "10")
            ),
            "win" | "loss" => assert!(stopped[i].is_empty()),
            other => panic!("{other}"),
        }
    }
    assert!(
        printed.contains("katro-6x3: 306 layouts one seed away; the second player wins 2 (a1→c3 in 8, a1→c4 in 8); "),
        "{printed}"
    );
    assert!(
        printed.contains("the first player wins the rest"),
        "{printed}"
    );
}

#[test]
fn nearby_keeps_other_variants_rows_and_refuses_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let small = dir.path().join("small.toml");
    fs::write(
        &small,
        "name = \"small\"\n[board]\nrows = 2\nholes = 2\nlayout = [[1, 0], [2, 2]]\n",
    )
    .unwrap();
    let printed = nearby(o, small.to_str().unwrap(), "2");
    // a1's seed to a2 or b2 leaves South no seed: refused by the rules.
    assert!(
        printed.contains("small: a1→a2 refused by the rules: ")
            && printed.contains("small: 7 layouts one seed away"),
        "{printed}"
    );
    nearby(o, "katro-6x3", "2");
    let first = text(&out.join("nearby.csv"));
    let variants = column(&first, "variant");
    assert_eq!(variants.len(), 7 + 306);
    assert!(variants[..7].iter().all(|v| v == "small"));
    // Again: small's rows replaced in place, 6x3's kept.
    nearby(o, small.to_str().unwrap(), "1");
    assert_eq!(text(&out.join("nearby.csv")), first);

    let refused = |args: &[&str], says: &str| {
        let r = katro_in(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    };
    refused(
        &["prove-nearby", "katro-6x3", "--out", o, "--max-memory", "0"],
        "--max-memory: 0 is not",
    );
    refused(
        &["prove-nearby", "katro-6x3", "--out", o, "--max-depth", "0"],
        "--max-depth 0:",
    );
    refused(
        &["prove-nearby", "katro-6x3", "--out", o, "--max-nodes", "0"],
        "--max-nodes 0:",
    );
    refused(
        &[
            "prove-nearby",
            "katro-6x3",
            "--out",
            o,
            "--max-seconds",
            "0",
        ],
        "--max-seconds: 0 is not",
    );
    refused(
        &["prove-nearby", "no-such-preset", "--out", o],
        "unknown variant `no-such-preset`",
    );
    // A nearby.csv katro did not write, or changed since, is never
    // replaced, and nothing is searched.
    let users = dir.path().join("users");
    fs::create_dir(&users).unwrap();
    fs::write(users.join("nearby.csv"), "mine\n").unwrap();
    refused(
        &[
            "prove-nearby",
            "katro-6x3",
            "--out",
            users.to_str().unwrap(),
        ],
        "katro did not write it",
    );
    assert_eq!(text(&users.join("nearby.csv")), "mine\n");
    fs::write(out.join("nearby.csv"), first.replace("small", "smell")).unwrap();
    refused(
        &["prove-nearby", "katro-6x3", "--out", o],
        "changed since katro wrote it",
    );
}

#[test]
fn openings_of_the_solved_4x3_board_give_its_retrograde_limit_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str, sub: &str| {
        let out = dir.path().join(sub);
        let printed = ok(&[
            "prove-openings",
            TINY,
            "--plies",
            "0,4,4",
            "--lap-limit",
            "10000",
            "--out",
            out.to_str().unwrap(),
            "--threads",
            threads,
            "--max-memory",
            "0.05",
        ]);
        (printed, text(&out.join("openings.csv")))
    };
    let (printed, csv) = run("1", "one");
    assert_eq!(run("2", "two").1, csv);
    // strength-curve.csv's `limit` of the committed curve, which the
    // solved table gives: 25/54 over the 44 positions after 4 plies.
    assert_eq!(column(&csv, "plies"), ["0", "4"]);
    assert_eq!(column(&csv, "positions"), ["1", "44"]);
    assert_eq!(column(&csv, "unknown"), ["0", "0"]);
    assert_eq!(column(&csv, "share"), ["1.000000", "0.462963"]);
    assert_eq!(column(&csv, "share_low"), column(&csv, "share"));
    assert_eq!(column(&csv, "share_high"), column(&csv, "share"));
    assert_eq!(column(&csv, "exact")[1], "25/54;0/1;29/54;0/1");
    assert!(column(&csv, "rules")[0].ends_with(",ply_limit=5000,lap_limit=10000)"));
    assert!(
        printed.contains("katro-4x3-1seed, 4 plies: 44 positions, 44 proven, 0 unknown")
            && printed.contains("the first player's share 0.462963 exactly"),
        "{printed}"
    );
}

/// The second of the three solved 4-row boards of the strength curve:
/// 4x3 with 2 seeds, whose 48 positions after 4 random plies the proof
/// search values to strength-curve.csv's retrograde `limit_exact` (4x4
/// with 1 seed, the third, takes over a minute and is checked by hand in
/// docs/SOLVED.md, "Openings under perfect play").
#[test]
fn openings_of_the_solved_4x3_board_with_2_seeds_give_its_retrograde_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("two");
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/katro-4x3-2seeds.toml"
    );
    ok(&[
        "prove-openings",
        board,
        "--plies",
        "4",
        "--lap-limit",
        "10000",
        "--out",
        out.to_str().unwrap(),
        "--max-memory",
        "0.25",
    ]);
    let csv = text(&out.join("openings.csv"));
    assert_eq!(column(&csv, "positions"), ["48"]);
    assert_eq!(column(&csv, "unknown"), ["0"]);
    assert_eq!(column(&csv, "exact"), ["13/18;0/1;5/18;0/1"]);
    let curve = text(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("results/strength-curve/strength-curve.csv"),
    );
    let variants = column(&curve, "variant");
    let plies = column(&curve, "opening_plies");
    let exact = column(&curve, "limit_exact");
    let at = (0..variants.len())
        .find(|&i| variants[i] == "katro-4x3-2seeds" && plies[i] == "4")
        .expect("the curve's 4x3 board with 2 seeds");
    assert_eq!(format!("{};0/1", exact[at]), column(&csv, "exact")[0]);
}

#[test]
fn unproven_openings_leave_an_interval_and_bad_plies_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let printed = ok(&[
        "prove-openings",
        "katro-4x4",
        "--plies",
        "1",
        "--out",
        o,
        "--max-nodes",
        "2000",
        "--max-memory",
        "0.01",
    ]);
    let csv = text(&out.join("openings.csv"));
    // One of the four first moves is proven within 2,000 nodes (North,
    // to move, wins in 5); the other three stay unknown: the share lies
    // between all three lost for the first player (0) and all three won
    // (3/4 over the decided 1).
    assert_eq!(column(&csv, "positions"), ["4"]);
    assert_eq!(column(&csv, "unknown"), ["3"]);
    assert_eq!(column(&csv, "share"), [""]);
    assert_eq!(column(&csv, "share_low"), ["0.000000"]);
    assert_eq!(column(&csv, "share_high"), ["0.750000"]);
    assert_eq!(column(&csv, "exact"), ["0/1;0/1;1/4;3/4"]);
    assert_eq!(column(&csv, "stopped_nodes"), ["3"]);
    assert!(
        printed.contains("(every unknown lost) to 0.750000 (every unknown won)")
            && printed.matches("  unknown: ").count() == 3,
        "{printed}"
    );
    for (args, says) in [
        (vec!["prove-openings", "katro-4x4", "--out", o], "--plies"),
        (
            vec!["prove-openings", "katro-4x4", "--plies", "x", "--out", o],
            "--plies",
        ),
        (
            vec![
                "prove-openings",
                "katro-4x4",
                "--plies",
                "1",
                "--lap-limit",
                "0",
                "--out",
                o,
            ],
            "--lap-limit",
        ),
    ] {
        let r = katro_in(&args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}
