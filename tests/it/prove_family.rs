//! `katro prove-family` (docs/SOLVED.md, "The proved family"): the prover
//! against the solver on a sample of the solved boards, and the real
//! binary on a small family: shards merged equal a whole run byte for
//! byte, a resumed run equals an uninterrupted one, the thread count
//! changes nothing, `--check-solved` finds a disagreement, and bad input
//! exits 2.

use std::path::Path;

use crate::common::{katro_in, katro_ok, read_text};
use katro_core::solve::prove::{Limits, NoWatch, Outcome, Prover};
use katro_core::solve::{Value, solve};
use katro_lab::files::solved::solved_starts;
use katro_lab::jobs::solve_family::{board_rules, readings};

/// The solver's value and the prover's agree: the same win or loss at the
/// same distance, or for a draw no win proven either way.
fn same(solved: Value, proved: Outcome) -> bool {
    match (solved, proved) {
        (Value::Win(a), Outcome::Win(b)) | (Value::Loss(a), Outcome::Loss(b)) => a == b,
        (Value::Draw, Outcome::Unknown(_) | Outcome::Ended) => true,
        _ => false,
    }
}

/// Every board of results/solved/solved.csv whose solve needed at most
/// 32 MiB (97 of its 139 solved boards, each solved in well under 2 s,
/// under all six readings): the solver's table and the prover agree on
/// the start's value and distance (and with solved.csv's) and on every
/// first move's, each search within 80 decisions and 2,000,000 nodes.
#[test]
fn the_prover_agrees_with_the_solver_on_the_small_solved_boards() {
    let csv = read_text(Path::new("results/solved/solved.csv"));
    let boards: Vec<_> = solved_starts(&csv)
        .expect("solved.csv of this build")
        .into_iter()
        .filter(|s| s.memory_bytes <= 32 << 20)
        .collect();
    assert_eq!(boards.len(), 97);
    let readings = readings();
    let limits = Limits {
        max_depth: 80,
        max_nodes: Some(2_000_000),
    };
    let (mut moves, mut kinds) = (0, [0; 3]);
    for s in &boards {
        let base = &readings.iter().find(|(n, _)| *n == s.reading).unwrap().1;
        let rules = board_rules(&s.reading, base, s.rows, s.holes, s.seeds).unwrap();
        assert_eq!(rules.canonical_string(), s.rules);
        let table = solve(&rules, 1 << 30, &mut |_, _, _| {
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        let start = rules.start();
        let name = format!("{} {}×{}×{}", s.reading, s.rows, s.holes, s.seeds);
        assert_eq!(table.value(&rules, &start), Some(s.value), "{name}");
        let mut p = Prover::new(&rules, 16 << 20);
        let proved = p.value(&start, limits, &mut NoWatch).outcome;
        assert!(
            same(s.value, proved),
            "{name}: solved {}, proved {proved}",
            s.value
        );
        for (mv, m) in p.move_values(&start, limits, &mut NoWatch) {
            let v = table.move_value(&rules, &start, mv).unwrap();
            assert!(
                same(v, m.outcome),
                "{name}, first move {mv:?}: solved {v}, proved {}",
                m.outcome
            );
            moves += 1;
        }
        kinds[match s.value {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            Value::Draw => 2,
        }] += 1;
    }
    // The sample holds wins, losses and draws at the start, and the moves
    // of every board.
    assert!(kinds.iter().all(|&k| k >= 10), "{kinds:?}");
    assert!(moves > 300, "{moves}");
}

/// A small family: the 4×4 boards of boards.toml and the readings on 4×4,
/// 29 boards, each search within 10 decisions and 100,000 nodes.
const SMALL: [&str; 10] = [
    "--sets",
    "boards,readings-4x4",
    "--only",
    "rows=4,holes=4",
    "--max-depth",
    "10",
    "--max-nodes",
    "100000",
    "--max-memory",
    "0.01",
];

/// `katro prove-family --out DIR` with the small family's options, those
/// `more` gives replacing them, and `more`.
fn prove(dir: &Path, more: &[&str]) -> crate::common::Run {
    let mut args = vec!["prove-family", "--out", dir.to_str().unwrap()];
    for pair in SMALL.chunks(2) {
        if !more.contains(&pair[0]) {
            args.extend(pair);
        }
    }
    args.extend(more);
    katro_in(&args, "")
}

fn prove_ok(dir: &Path, more: &[&str]) -> String {
    let run = prove(dir, more);
    assert_eq!(run.code, 0, "{more:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn shards_resume_and_threads_give_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let out = prove_ok(&whole, &["--threads", "2"]);
    assert!(out.contains("29 of 29 boards"), "{out}");
    let csv = read_text(&whole.join("proved.csv"));
    let svg = read_text(&whole.join("proved.svg"));
    assert_eq!(csv.lines().count(), 30);
    assert!(csv.starts_with("set,reading,rules,rows,holes,seeds,value,distance,bound,"));
    assert!(csv.contains("\nreadings-4x4,victim=whole-column,\"katro(rows=4,holes=4,seeds=2,"));
    assert!(svg.starts_with("<svg") && svg.contains(">victim=whole-column<"));
    let manifest: serde_json::Value =
        serde_json::from_str(&read_text(&whole.join("manifest.json"))).unwrap();
    assert_eq!(manifest["complete"], true);
    assert_eq!(manifest["times"].as_array().unwrap().len(), 29);
    assert!(!csv.contains(&format!("{}", manifest["seconds"])));

    // One thread writes the same bytes.
    let one = tmp.path().join("one");
    prove_ok(&one, &["--threads", "1"]);
    assert_eq!(read_text(&one.join("proved.csv")), csv);

    // Three shards, merged, write the same bytes (N = 3 does not divide 29).
    let sharded = tmp.path().join("sharded");
    for i in 1..=3 {
        let out = prove_ok(&sharded, &["--shard", &format!("{i}/3"), "--threads", "1"]);
        assert!(out.contains("katro prove-family --merge --out"), "{out}");
    }
    assert!(!sharded.join("proved.csv").exists());
    let merged = katro_ok(&[
        "prove-family",
        "--merge",
        "--out",
        sharded.to_str().unwrap(),
    ]);
    assert!(merged.contains("merged 3 shards"), "{merged}");
    assert_eq!(read_text(&sharded.join("proved.csv")), csv);
    assert_eq!(read_text(&sharded.join("proved.svg")), svg);

    // A shard cut short (its last rows lost) resumes to the same bytes, and
    // so does the whole run. Shards are not in the folder's ledger; the
    // whole run's proved.csv is, so its ledger goes too (a hand-cut file
    // in a folder with a ledger is a changed one, refused).
    let shard_csv = sharded.join("shards/proved-2-of-3.csv");
    let full = read_text(&shard_csv);
    let cut: String = full.lines().take(6).map(|l| format!("{l}\n")).collect();
    std::fs::write(&shard_csv, cut).unwrap();
    let run = prove(&sharded, &["--shard", "2/3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("5 of 10 boards taken over"),
        "{}",
        run.stderr
    );
    assert_eq!(read_text(&shard_csv), full);

    let cut: String = csv.lines().take(20).map(|l| format!("{l}\n")).collect();
    std::fs::write(whole.join("proved.csv"), &cut).unwrap();
    let edited = prove(&whole, &[]);
    assert_eq!(edited.code, 2, "{}", edited.stderr);
    assert!(
        edited
            .stderr
            .contains("proved.csv: changed since katro wrote it"),
        "{}",
        edited.stderr
    );
    std::fs::remove_file(whole.join(".katro-files")).unwrap();
    let run = prove(&whole, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("19 of 29 boards taken over"),
        "{}",
        run.stderr
    );
    assert_eq!(read_text(&whole.join("proved.csv")), csv);
    // Over a complete run it writes nothing.
    let again = prove_ok(&whole, &[]);
    assert!(again.contains("already complete"), "{again}");

    // Other limits in the same folder are refused, naming the difference.
    let other = prove(&whole, &["--max-nodes", "99999"]);
    assert_eq!(other.code, 2, "{}", other.stderr);
    assert!(
        other
            .stderr
            .contains("--max-nodes 100000 there, 99999 here"),
        "{}",
        other.stderr
    );

    // A merge refuses a missing shard and a shard of other limits.
    std::fs::remove_file(sharded.join("shards/proved-3-of-3.json")).unwrap();
    let run = katro_in(
        &[
            "prove-family",
            "--merge",
            "--out",
            sharded.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("missing shard 3/3"), "{}", run.stderr);
    let run = prove(&sharded, &["--shard", "3/3", "--max-depth", "9"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = katro_in(
        &[
            "prove-family",
            "--merge",
            "--out",
            sharded.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--max-depth 9 there, 10 here"),
        "{}",
        run.stderr
    );
}

#[test]
fn check_solved_compares_starts_and_first_moves_and_finds_a_disagreement() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    let d = dir.to_str().unwrap();
    // The 4×2 boards with 1 seed of the solved family, under all six
    // readings: wins, a loss and a draw.
    let args = [
        "prove-family",
        "--out",
        d,
        "--sets",
        "solved-family",
        "--only",
        "rows=4,holes=2,seeds=1",
        "--max-memory",
        "0.01",
        "--max-nodes",
        "200000",
        "--max-depth",
        "40",
    ];
    katro_ok(&args);
    let csv = read_text(&dir.join("proved.csv"));
    assert_eq!(csv.lines().count(), 7);
    assert!(csv.contains("\nsolved-family,canonical,"));
    let check = katro_ok(&["prove-family", "--out", d, "--check-solved"]);
    assert!(
        check.starts_with("6 boards of") && check.contains("the start agrees on 6"),
        "{check}"
    );
    assert!(
        check.contains("first moves compared on 6 boards"),
        "{check}"
    );

    // A solved.csv that says canonical 4×2 with 1 seed is a win in 9, not 7.
    let solved = read_text(Path::new("results/solved/solved.csv"));
    let line = solved
        .lines()
        .find(|l| l.starts_with("canonical,") && l.contains("\",4,2,1,solved,"))
        .unwrap();
    assert!(line.contains(",solved,win,7,"), "{line}");
    let doctored = solved.replace(line, &line.replace(",solved,win,7,", ",solved,win,9,"));
    let file = tmp.path().join("solved.csv");
    std::fs::write(&file, doctored).unwrap();
    let run = katro_in(
        &[
            "prove-family",
            "--out",
            d,
            "--check-solved",
            "--solved",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("disagrees with")
            && run.stderr.contains(
                "solved-family 4×2, 1 a hole (canonical): the start: solved win in 9, proved win in 7"
            ),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_requests_exit_2_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    let d = dir.to_str().unwrap();
    for (args, says) in [
        (
            vec!["--sets", "boards,everything"],
            "--sets `boards,everything`: give",
        ),
        (vec!["--only", "rows=x"], "--only `rows=x`: give KEY=VALUE"),
        (vec!["--only", "rows=5"], "no board of the sets boards"),
        (
            vec!["--max-depth", "0"],
            "--max-depth 0: give the deepest bound",
        ),
        (vec!["--max-nodes", "0"], "--max-nodes 0: give the nodes"),
        (
            vec!["--max-memory", "0"],
            "--max-memory: 0 is not a size in GiB",
        ),
        (
            vec!["--max-seconds", "0"],
            "--max-seconds: 0 is not a number",
        ),
        (
            vec!["--sets", "solved-family", "--solved", "nowhere.csv"],
            "nowhere.csv: not found",
        ),
        (vec!["--shard", "1/2", "--merge"], "cannot be used with"),
        (vec!["--shard", "3/2"], "give I/N"),
        (vec!["--merge"], "no shard files of `katro prove-family`"),
        (vec!["--check-solved"], "proved.csv: not found"),
    ] {
        let mut all = vec!["prove-family", "--out", d];
        all.extend(&args);
        let run = katro_in(&all, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
        assert!(!dir.join("proved.csv").exists(), "{args:?}");
    }
    // A file katro did not write at a name it writes is kept.
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("proved.csv"), "mine\n").unwrap();
    let run = prove(&dir, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("proved.csv: exists and was not written by `katro prove-family`"),
        "{}",
        run.stderr
    );
    assert_eq!(read_text(&dir.join("proved.csv")), "mine\n");
}
