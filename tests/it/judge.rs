//! `katro judge DIR` on a real run: perfect-moves.csv judges perfect play
//! perfect and random play not, says which variant it could not solve,
//! is the same bytes for any thread count, is listed in the manifest so
//! a later run of the experiment knows it for katro's, and refuses bad
//! input with exit code 2, leaving no file behind.

use std::fs;
use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;

fn katro(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = cargo_bin_cmd!("katro")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "katro {args:?}: {stderr}");
    (out.status.code().expect("exited, not killed"), stderr)
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, stderr) = katro(dir, args);
    assert_eq!(code, 0, "katro {args:?}: {stderr}");
    stderr
}

/// The 4×3 board with 1 seed (won for player 1 by one first move of
/// three, docs/SOLVED.md) and katro-6x6, too big for the memory given.
fn experiment(moves: bool) -> String {
    let variant = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/katro-4x3-1seed.toml");
    format!(
        "name = \"judged\"\nseed = 5\ngames = 12\nper_game_rows = true\nmoves_in_rows = {moves}\n\
         variants = [{:?}, \"katro-6x6\"]\n\
         [[matchups]]\np1 = \"perfect\"\np2 = \"perfect\"\nopening_plies = 1\n\
         [[matchups]]\np1 = \"random\"\np2 = \"perfect\"\n",
        variant.to_str().unwrap()
    )
}

/// A run of [`experiment`] in a fresh folder; returns (tempdir, results).
fn run(moves: bool) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    // katro-6x6 has no `perfect`: only the 4×3 board plays it.
    let text = experiment(moves).replace(", \"katro-6x6\"", "");
    fs::write(tmp.path().join("e.toml"), text).unwrap();
    ok(
        tmp.path(),
        &["run", "e.toml", "--out", "r", "--threads", "1"],
    );
    let dir = tmp.path().join("r");
    (tmp, dir)
}

fn rows(csv: &str) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let h: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(
        h[..8],
        [
            "variant",
            "rules",
            "p1",
            "p2",
            "opening_plies",
            "seat",
            "agent",
            "judged"
        ]
    );
    r.records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn col(csv: &str, name: &str) -> usize {
    csv.lines()
        .next()
        .unwrap()
        .split(',')
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

#[test]
fn perfect_play_is_judged_perfect_and_random_play_is_not() {
    let (tmp, dir) = run(true);
    let d = dir.to_str().unwrap();
    ok(tmp.path(), &["judge", d, "--threads", "1"]);
    let csv = fs::read_to_string(dir.join("perfect-moves.csv")).unwrap();
    let rows = rows(&csv);
    assert_eq!(rows.len(), 4, "{csv}");
    let (kept, kept_share, optimal_share, decisions) = (
        col(&csv, "kept"),
        col(&csv, "kept_share"),
        col(&csv, "optimal_share"),
        col(&csv, "decisions"),
    );
    let start = col(&csv, "start_value");
    for r in &rows {
        assert_eq!(r[7], "true");
        assert_eq!(r[start], "win", "4×3 with 1 seed is won for player 1");
        if r[6] == "perfect" {
            assert_eq!(
                (r[kept_share].as_str(), r[optimal_share].as_str()),
                ("1.000000", "1.000000"),
                "{r:?}"
            );
            let c = col(&csv, "critical_kept_share");
            assert!(["1.000000", ""].contains(&r[c].as_str()), "{r:?}");
        } else {
            let k: u64 = r[kept].parse().unwrap();
            let n: u64 = r[decisions].parse().unwrap();
            assert!(k < n, "random keeps every value? {r:?}");
        }
    }
    // Listed in the manifest, so a second run of the experiment into the
    // folder takes it for katro's own; judging again gives the same bytes,
    // on any thread count.
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"perfect-moves.csv\""), "{manifest}");
    ok(tmp.path(), &["judge", d, "--threads", "2"]);
    assert_eq!(
        fs::read_to_string(dir.join("perfect-moves.csv")).unwrap(),
        csv
    );
    ok(
        tmp.path(),
        &["run", "e.toml", "--out", "r", "--threads", "1"],
    );
}

#[test]
fn a_variant_too_big_to_solve_is_reported_not_judged() {
    let tmp = tempfile::tempdir().unwrap();
    let text = experiment(true).replace(
        "[[matchups]]\np1 = \"perfect\"\np2 = \"perfect\"\nopening_plies = 1\n\
         [[matchups]]\np1 = \"random\"\np2 = \"perfect\"\n",
        "[[matchups]]\np1 = \"random\"\np2 = \"greedy\"\n",
    );
    fs::write(tmp.path().join("e.toml"), text).unwrap();
    ok(
        tmp.path(),
        &["run", "e.toml", "--out", "r", "--threads", "1"],
    );
    let dir = tmp.path().join("r");
    let err = ok(
        tmp.path(),
        &["judge", dir.to_str().unwrap(), "--max-memory", "0.05"],
    );
    assert!(err.contains("katro-6x6: 12 games NOT judged"), "{err}");
    let csv = fs::read_to_string(dir.join("perfect-moves.csv")).unwrap();
    let rows = rows(&csv);
    let judged: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[7].as_str()))
        .collect();
    assert_eq!(
        judged,
        [
            ("katro-4x3-1seed", "true"),
            ("katro-4x3-1seed", "true"),
            ("katro-6x6", "false"),
            ("katro-6x6", "false")
        ]
    );
    let decisions = col(&csv, "decisions");
    assert_eq!(rows[2][decisions], "");
    assert_eq!(rows[2][col(&csv, "games")], "12");
}

#[test]
fn bad_input_is_refused_with_exit_code_2_and_nothing_written() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let (code, err) = katro(tmp.path(), &["judge", empty.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("games.csv: not found"), "{err}");

    // Rows without moves.
    let (_t, dir) = run(false);
    let d = dir.to_str().unwrap();
    let (code, err) = katro(tmp.path(), &["judge", d]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("games.csv: no `moves` column") && err.contains("moves_in_rows = true"),
        "{err}"
    );
    assert!(!dir.join("perfect-moves.csv").exists());

    // A damaged manifest; then one whose variant's settings do not give
    // its rules string.
    let (_t, dir) = run(true);
    let d = dir.to_str().unwrap();
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    fs::write(dir.join("manifest.json"), &manifest[..manifest.len() / 2]).unwrap();
    let (code, err) = katro(tmp.path(), &["judge", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("manifest.json: cannot read it"), "{err}");
    fs::write(
        dir.join("manifest.json"),
        manifest.replacen("\"holes\": 3", "\"holes\": 4", 1),
    )
    .unwrap();
    let (code, err) = katro(tmp.path(), &["judge", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("its rules string is"), "{err}");
    fs::write(dir.join("manifest.json"), &manifest).unwrap();

    // A move that is not legal where it was played, named by line.
    let games = fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut lines: Vec<String> = games.lines().map(str::to_string).collect();
    let last = lines[2].rfind(',').unwrap();
    lines[2] = format!("{},a1 a1 a1 a1 a1 a1", &lines[2][..last]);
    fs::write(dir.join("games.csv"), lines.join("\n") + "\n").unwrap();
    let (code, err) = katro(tmp.path(), &["judge", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("games.csv: line 3: move"), "{err}");
    fs::write(dir.join("games.csv"), &games).unwrap();

    // A perfect-moves.csv that katro did not write is never replaced.
    fs::write(dir.join("perfect-moves.csv"), "mine\n").unwrap();
    let (code, err) = katro(tmp.path(), &["judge", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("katro did not write it"), "{err}");
    assert_eq!(
        fs::read_to_string(dir.join("perfect-moves.csv")).unwrap(),
        "mine\n"
    );
}
