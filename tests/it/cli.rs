//! The real `katro` binary on real files: output compared with golden
//! files under tests/golden/ (each checked by hand against docs/RULES.md,
//! see the comments), and every kind of bad input ending in exit code 2
//! with a message naming the file and the key or line, never a panic.
//!
//! `KATRO_BLESS=1 cargo test --test it cli::` rewrites the golden files; check
//! the difference by hand before committing it.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{Run, katro_in};

fn katro(args: &[&str]) -> Run {
    katro_in(args, "")
}

/// Runs a command that must succeed and returns its standard output.
fn ok(args: &[&str]) -> String {
    let run = katro(args);
    assert_eq!(run.code, 0, "katro {args:?}: {}", run.stderr);
    assert!(run.stderr.is_empty(), "katro {args:?}: {}", run.stderr);
    run.stdout
}

/// Runs a command that must fail with exit code 2 and a message on
/// standard error containing every one of `needles`; returns the message.
fn fails(args: &[&str], needles: &[&str]) -> String {
    let run = katro(args);
    assert_eq!(run.code, 2, "katro {args:?}: {}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.is_empty(),
        "katro {args:?} printed {}",
        run.stdout
    );
    for n in needles {
        assert!(
            run.stderr.contains(n),
            "katro {args:?}: `{n}` missing from:\n{}",
            run.stderr
        );
    }
    run.stderr
}

fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
        .join(name);
    if std::env::var("KATRO_BLESS").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run KATRO_BLESS=1 cargo test --test it cli::",
            path.display()
        )
    });
    assert_eq!(actual, want, "output differs from {}", path.display());
}

fn manifest_path(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

// ---------------------------------------------------------------------------
// Commands that work

#[test]
fn variants_lists_the_nine_presets() {
    let out = ok(&["variants"]);
    let names: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    // RULES.md §11, in its order.
    assert_eq!(
        names,
        [
            "katro-6x6",
            "katro-4x4",
            "katro-4x6",
            "katro-6x3",
            "katro-6x6-diagonal",
            "katro-wikipedia",
            "katro-ludii",
            "katra-boaoaka-4x8",
            "katra-boaoaka-ludii",
        ]
    );
    // Every line has a description after the name.
    assert!(out.lines().all(|l| l.split_whitespace().count() > 3));
    golden("variants.txt", &out);
}

/// The strength levels and the agent strings they stand for.
const LEVELS: [(&str, &str); 6] = [
    ("random", "random"),
    ("greedy", "greedy"),
    ("weak", "alphabeta:depth=2"),
    ("medium", "alphabeta:depth=4"),
    ("strong", "alphabeta:depth=12,nodes=1000,eval=fitted"),
    ("strongest", "alphabeta:depth=12,nodes=20000,eval=fitted"),
];

/// The line of `katro agents`' table that starts with `name`.
fn level_line<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no line for {name}:\n{out}"))
}

#[test]
fn agents_lists_each_level_with_its_agent_string_and_the_flags() {
    let out = ok(&["agents"]);
    for (name, agent) in LEVELS {
        let words: Vec<&str> = level_line(&out, name).split_whitespace().collect();
        assert_eq!(words, [name, agent], "{out}");
    }
    assert!(
        out.contains("--ratings FILE") && out.contains("--measure GAMES"),
        "{out}"
    );
}

/// Each level's rating is results/strong-play/ratings.csv's text for its
/// agent on katro-6x6, rating and interval.
#[test]
fn agents_ratings_are_the_files_text() {
    let file = manifest_path("results/strong-play/ratings.csv");
    let out = ok(&["agents", "--ratings", &file]);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let mut seen = 0;
    for row in r.deserialize::<std::collections::HashMap<String, String>>() {
        let row = row.unwrap();
        if row["variant"] != "katro-6x6" {
            continue;
        }
        let Some((name, _)) = LEVELS.iter().find(|(_, a)| *a == row["agent"]) else {
            continue;
        };
        let want = format!(
            "{} [{}, {}]",
            row["rating"], row["rating_low"], row["rating_high"]
        );
        assert!(
            level_line(&out, name).ends_with(&want),
            "{name}: `{want}` missing:\n{out}"
        );
        seen += 1;
    }
    assert_eq!(seen, LEVELS.len(), "every level is rated on katro-6x6");
    assert!(out.contains("--measure GAMES") && !out.contains("--ratings FILE"));
}

#[test]
fn agents_refuses_a_ratings_file_it_cannot_use() {
    fails(
        &["agents", "--ratings", "no/such/ratings.csv"],
        &["no/such/ratings.csv: not found", "ratings.csv"],
    );
    let dir = tempfile::tempdir().unwrap();
    for (name, text, needle) in [
        (
            "tallies.csv",
            "p1,p2,p1_wins\nrandom,greedy,3\n",
            "missing columns variant, agent, rating, rating_low, rating_high: a results CSV \
             needs a header with variant,agent,rating,rating_low,rating_high",
        ),
        (
            "ratings.csv",
            "variant,agent,rating,rating_low,rating_high\nkatro-4x4,random,0,0,0\n",
            "no row of variant `katro-6x6`",
        ),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let file = file.to_string_lossy().into_owned();
        fails(&["agents", "--ratings", &file], &[&file, needle]);
    }
    fails(
        &["agents", "--measure", "0"],
        &["--measure", "give a whole number of games"],
    );
}

/// A level plays exactly as its string: the same games, and the string
/// in every label.
#[test]
fn a_level_plays_as_its_agent_string() {
    let simulate = |games: &'static str, p1: &'static str, p2: &'static str| {
        [
            "simulate",
            "katro-4x4",
            "--games",
            games,
            "--p1",
            p1,
            "--p2",
            p2,
        ]
    };
    let named = ok(&simulate("20", "strong", "weak"));
    let strong = "alphabeta:depth=12,nodes=1000,eval=fitted";
    let written = ok(&simulate("20", strong, "alphabeta:depth=2"));
    assert_eq!(named, written);
    assert!(
        named.contains(&format!("{strong}  alphabeta:depth=2")),
        "{named}"
    );
    fails(
        &simulate("2", "stong", "weak"),
        &[
            "--p1",
            "unknown agent `stong` (did you mean \"strong\"?)",
            "levels: weak, medium, strong, strongest",
        ],
    );
    fails(
        &simulate("2", "strong:nodes=5", "weak"),
        &[&format!("strong is a level, the agent {strong}")],
    );
}

/// The golden file was checked by hand: the settings are the canonical
/// ones of RULES.md §11 (outermost-non-empty start, singletons allowed, forward,
/// occupied relay and trigger, innermost-non-empty capturing row,
/// innermost-row victim, no lone-seed step), 72 seeds on 6×6, and the
/// circuits are RULES.md §2's: South a1 … f1, f2 … a2, a3 … f3; North f6 … a6,
/// a5 … f5, f4 … a4.
#[test]
fn show_katro_6x6() {
    let out = ok(&["show", "katro-6x6"]);
    assert!(out.contains(
        "South (player 1) forward circuit: a1 b1 c1 d1 e1 f1 f2 e2 d2 c2 b2 a2 a3 b3 c3 d3 e3 f3 -> a1"
    ));
    assert!(out.contains(
        "North (player 2) forward circuit: f6 e6 d6 c6 b6 a6 a5 b5 c5 d5 e5 f5 f4 e4 d4 c4 b4 a4 -> f6"
    ));
    golden("show-katro-6x6.txt", &out);
    // The same file given as a path shows the same rules.
    let by_path = ok(&["show", &manifest_path("variants/katro-6x6.toml")]);
    assert_eq!(by_path, out);
}

/// A variant that can sow backward shows its backward circuits too: on
/// katro-ludii the mirrored ones of RULES.md §2 (South f1 … a1, a2 … f2,
/// f3 … a3; North a6 … f6, f5 … a5, a4 … f4). katro-6x6 sows forward only.
#[test]
fn show_prints_the_backward_circuits_a_variant_sows() {
    let out = ok(&["show", "katro-ludii"]);
    assert!(out.contains(
        "South (player 1) backward circuit: f1 e1 d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 f3 e3 d3 c3 b3 a3 -> f1"
    ));
    assert!(out.contains(
        "North (player 2) backward circuit: a6 b6 c6 d6 e6 f6 f5 e5 d5 c5 b5 a5 a4 b4 c4 d4 e4 f4 -> a6"
    ));
    assert!(!ok(&["show", "katro-6x6"]).contains("backward circuit:"));
}

/// A variant file a user copies as a template may end with the starting
/// board and circuits `katro show` prints; they must be its own, not
/// another board's.
#[test]
fn variant_files_show_their_own_board() {
    let mut checked = 0;
    for folder in ["experiments", "variants"] {
        let mut files: Vec<_> = std::fs::read_dir(manifest_path(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let Some(at) = text.find("# starting board") else {
                continue;
            };
            let shown = ok(&["show", path.to_str().unwrap()]);
            let from = shown
                .find("# starting board")
                .expect("show prints the board");
            assert_eq!(text[at..], shown[from..], "{}", path.display());
            checked += 1;
        }
    }
    assert!(
        checked >= 2,
        "no variant file with a board comment was checked"
    );
}

/// `katro show` of every preset prints a valid variant file, as it is:
/// `katro validate` passes it, it loads to the preset's rules string, and
/// showing the file prints it again.
#[test]
fn show_prints_a_valid_variant_file() {
    let dir = tempfile::tempdir().unwrap();
    for name in katro_core::rules::preset_names() {
        let out = ok(&["show", name]);
        let path = dir.path().join(format!("{name}.toml"));
        std::fs::write(&path, &out).unwrap();
        let file = path.to_str().unwrap();
        let valid = ok(&["validate", file]);
        assert_eq!(valid, format!("{file}: valid variant `{name}`\n"));
        let loaded = katro_core::rules::parse_variant(file, &out, "x").unwrap();
        let preset = katro_core::rules::preset(name).unwrap();
        assert_eq!(
            loaded.canonical_string(),
            preset.canonical_string(),
            "{name}"
        );
        assert_eq!(loaded.description(), preset.description(), "{name}");
        assert_eq!(loaded.source(), preset.source(), "{name}");
        assert!(out.starts_with(&format!("# rules string: {}\n", preset.canonical_string())));
        assert_eq!(ok(&["show", file]), out, "{name}");
    }
}

/// Exact: "ply-limit 50" in a run must replay as "ply-limit", not as
/// "ongoing": the experiment's limit overrides, given to `replay`.
#[test]
fn replay_takes_the_limits_a_game_was_played_with() {
    let moves: Vec<String> = {
        // Any legal game prefix of 6 plies: the first legal move each time.
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..6 {
            let mut args = vec!["replay", "katro-4x4"];
            args.extend(moves.iter().map(String::as_str));
            let v: Value = serde_json::from_str(&ok(&args)).unwrap();
            assert_eq!(v["status"], "ongoing");
            moves.push(v["legal"][0].as_str().unwrap().to_string());
        }
        moves
    };
    let mut args = vec![
        "replay",
        "katro-4x4",
        "--ply-limit",
        "6",
        "--lap-limit",
        "500",
    ];
    args.extend(moves.iter().map(String::as_str));
    let v: Value = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(
        (&v["status"], &v["plies"], &v["legal"]),
        (&json!("ply-limit"), &json!(6), &json!([]))
    );
    // One more move is past the end of the game.
    let mut longer = args.clone();
    longer.push(&moves[0]);
    fails(
        &longer,
        &[
            "move 7",
            "the game is already over (status ply-limit) after 6 plies",
        ],
    );
    // The experiment's ranges, in the experiment's words.
    fails(
        &["replay", "katro-4x4", "--ply-limit", "0"],
        &["--ply-limit: 0 is out of range: the ply limit must be from 1 to 100000000"],
    );
    fails(
        &["replay", "katro-4x4", "--lap-limit", "-3"],
        &["--lap-limit: -3 is out of range: the lap limit must be from 1 to 1000000000"],
    );
}

/// Every row of a run with overridden ply and lap limits (some games stop
/// at each) replays through the binary to the row's status, winner and
/// plies, with the command line docs/OUTPUTS.md gives.
#[test]
fn every_games_csv_row_replays() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("limits.toml");
    std::fs::write(
        &exp,
        r#"
name = "limits"
seed = 7
games = 24
per_game_rows = true
moves_in_rows = true
ply_limit = 40
lap_limit = 30
variants = ["katro-6x6", { variant = "katro-4x4", ply_limit = 25, lap_limit = 12 }, "katro-wikipedia"]
[[matchups]]
p1 = "random"
p2 = "random"
[[matchups]]
p1 = "greedy"
p2 = "random"
"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = katro(&[
        "run",
        exp.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut reader = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut statuses = std::collections::BTreeMap::new();
    let mut rows = 0;
    for r in reader.records() {
        let r = r.unwrap();
        rows += 1;
        let mut args = vec![
            "replay",
            &r[col("variant")],
            "--ply-limit",
            &r[col("ply_limit")],
            "--lap-limit",
            &r[col("lap_limit")],
        ];
        args.extend(r[col("moves")].split_whitespace());
        let v: Value = serde_json::from_str(&ok(&args)).unwrap();
        let winner = v["winner"]
            .as_u64()
            .map_or(String::new(), |w| w.to_string());
        assert_eq!(
            (
                v["status"].as_str().unwrap(),
                winner.as_str(),
                v["plies"].to_string().as_str()
            ),
            (&r[col("status")], &r[col("winner")], &r[col("plies")]),
            "row {rows}: {:?}",
            &r
        );
        *statuses.entry(r[col("status")].to_string()).or_insert(0) += 1;
    }
    assert_eq!(rows, 24 * 3 * 2);
    // The test means something only if the limits stopped games.
    for s in ["won", "ply-limit", "lap-limit"] {
        assert!(statuses.contains_key(s), "no `{s}` game: {statuses:?}");
    }
}

#[test]
fn version_names_the_build() {
    let out = ok(&["--version"]);
    let build = out
        .trim()
        .strip_prefix(&format!("katro {} (build src-", env!("CARGO_PKG_VERSION")))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(build.len(), 16);
    assert!(build.bytes().all(|b| b.is_ascii_hexdigit()), "{out}");
}

/// A matchup without `p2` used to stop the checks: the other problems of
/// the file were reported only once it was fixed. Now one pass reports
/// them all, in line order.
#[test]
fn a_missing_agent_hides_no_other_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(
        &path,
        "name = \"bad name\"\nseed = -3\ngames = 0\nply_limit = 0\n\
         variants = [\"katro-9x9\", \"katro-4x4\"]\nmoves_in_rows = true\n\n\
         [[matchups]]\np1 = \"random\"\n\n[[matchups]]\np1 = \"wizard\"\np2 = \"greedy\"\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let err = fails(&["validate", file], &["1 of 1 file has problems"]);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with(file))
        .map(|l| &l[file.len()..])
        .collect();
    let want = [
        ":1:8: `name`: \"bad name\" cannot name an output folder",
        ":2:8: `seed`: -3 is negative",
        ":3:9: `games`: 0 is out of range",
        ":4:13: `ply_limit`: 0 is out of range",
        ":5:13: `variants[0]`: unknown variant `katro-9x9`",
        ":6:17: `moves_in_rows`: moves go into the per-game rows",
        ":8:1: `matchups[0]`: missing field `matchups[0].p2`",
        ":12:6: `matchups[1].p1`: agent `wizard`: unknown agent `wizard`",
    ];
    assert_eq!(lines.len(), want.len(), "{err}");
    for (got, want) in lines.iter().zip(want) {
        assert!(got.starts_with(want), "wanted {want:?}, got {got:?}");
    }
    // `run` reports the same problems.
    let run = katro(&["run", file]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("missing field `matchups[0].p2`") && run.stderr.contains("katro-9x9")
    );
}

/// RULES.md §13's opening: the printed board, row 6 on top, is, row 1 first:
/// 0 3 1 0 1 4 / 3 0 3 3 1 4 / 3 0 3 3 3 3 / 2 0 2 2 2 2 / 2… / 2….
#[test]
fn replay_the_worked_opening() {
    let out = ok(&["replay", "katro-6x6", "c1"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        json!({
            "variant": "katro-6x6",
            "board": [
                [0, 3, 1, 0, 1, 4],
                [3, 0, 3, 3, 1, 4],
                [3, 0, 3, 3, 3, 3],
                [2, 0, 2, 2, 2, 2],
                [2, 2, 2, 2, 2, 2],
                [2, 2, 2, 2, 2, 2],
            ],
            "to_move": 2,
            "plies": 1,
            "status": "ongoing",
            "winner": null,
            "legal": ["a6", "b6", "c6", "d6", "e6", "f6"],
        })
    );
    golden("replay-katro-6x6-c1.json", &out);
    // No moves: the start.
    let v: Value = serde_json::from_str(&ok(&["replay", "katro-6x6"])).unwrap();
    assert_eq!(v["board"], json!(vec![vec![2; 6]; 6]));
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["legal"], json!(["a1", "b1", "c1", "d1", "e1", "f1"]));
}

/// The trace tells the RULES.md §13 account of c1, lap by lap.
#[test]
fn replay_trace() {
    let out = ok(&["replay", "katro-6x6", "c1", "--trace"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let t = &v["trace"][0];
    assert_eq!(t["ply"], 1);
    assert_eq!(t["player"], 1);
    assert_eq!(t["move"], "c1");
    assert_eq!(t["laps"], 7);
    assert_eq!(t["captures"], 1);
    assert_eq!(t["seeds_captured"], 2);
    assert_eq!(t["seeds_sown"], 23);
    assert_eq!(t["end"], "empty-hole");
    assert_eq!(t["board"], v["board"]);
    assert_eq!(
        t["events"],
        json!([
            "lift 2 from c1",
            "last seed in e1 (was occupied)",
            "relay 3 from e1",
            "last seed in e2 (was occupied)",
            "relay 3 from e2",
            "last seed in b2 (was occupied)",
            "relay 3 from b2",
            "last seed in b3 (was occupied)",
            "capture 2 from b4 with the 3 in b3: 5 seeds",
            "sow 5 on from b3",
            "last seed in a1 (was occupied)",
            "relay 3 from a1",
            "last seed in d1 (was occupied)",
            "relay 4 from d1",
            "last seed in e2 (was empty)",
            "move ends: empty-hole",
        ])
    );
    // Without --trace there is no trace key.
    let plain: Value = serde_json::from_str(&ok(&["replay", "katro-6x6", "c1"])).unwrap();
    assert!(plain.get("trace").is_none());
}

/// Moves with a suffix, as the each-move presets need them.
#[test]
fn replay_with_directions() {
    // katro-wikipedia b1-. South's backward circuit from b1: a1 f3 e3 d3 c3
    // b3 a3 a2 b2 c2 d2 e2 f2 f1 e1 d1 c1 b1. Lift 2: a1 f3; f3 occupied
    // (Wikipedia captures only on an empty landing): relay 3: e3 d3 c3;
    // relay 3: b3 a3 a2; relay 3: b2 c2 d2; relay 3: e2 f2 f1; relay 3: e1
    // d1 c1; relay 3 from c1: b1 a1 f3, f3 was emptied: an empty landing in
    // South's inner row facing f4 (2): capture 2 + 1 = 3, sown backward: e3
    // d3 c3; c3 was emptied: empty, facing c4 (2): capture 3: b3 a3 a2; a2
    // was emptied, but row 2 is not South's innermost non-empty row: the
    // move ends. 9 laps, 2 captures of 2 seeds, 2 + 6×3 + 3 + 3 = 26 sown.
    let out = ok(&["replay", "katro-wikipedia", "b1-", "--trace"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["board"],
        json!([
            [4, 1, 0, 3, 3, 0],
            [1, 3, 3, 0, 3, 3],
            [4, 4, 0, 4, 4, 0],
            [2, 2, 0, 2, 2, 0],
            [2, 2, 2, 2, 2, 2],
            [2, 2, 2, 2, 2, 2],
        ])
    );
    let t = &v["trace"][0];
    assert_eq!(
        [
            &t["laps"],
            &t["captures"],
            &t["seeds_captured"],
            &t["seeds_sown"]
        ],
        [9, 2, 4, 26]
    );
    assert_eq!(v["legal"].as_array().unwrap().len(), 12);
    assert_eq!(v["legal"][0], "a6+");
    assert_eq!(v["legal"][1], "a6-");
}

/// A variant given as a path, with its own starting layout: the endless
/// 2×2 position of tests/it/rules_examples.rs (a1=1, b1=3, b2=1; b1 relays
/// for ever between a1=3 b1=1 and a1=1 b1=3).
#[test]
fn replay_a_variant_file_to_an_endless_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two-by-two.toml");
    std::fs::write(
        &path,
        "name = \"two-by-two\"\n[board]\nrows = 2\nholes = 2\nlayout = [[1, 3], [0, 1]]\n\
         [rules]\ncapture_trigger = \"empty\"\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let v: Value = serde_json::from_str(&ok(&["replay", file, "b1"])).unwrap();
    assert_eq!(
        v,
        json!({
            "variant": "two-by-two",
            // Stopped at the first repeat, lap 3, in the state of lap 1.
            "board": [[3, 1], [0, 1]],
            "to_move": 2,
            "plies": 1,
            "status": "endless-move",
            "winner": null,
            "legal": [],
        })
    );
    // Nothing can be played after the game is over.
    fails(
        &["replay", file, "b1", "a2"],
        &["move 2", "`a2`", "already over", "endless-move"],
    );
    // A shipped preset's file by path.
    let v: Value = serde_json::from_str(&ok(&[
        "replay",
        &manifest_path("variants/katro-4x4.toml"),
        "a1",
    ]))
    .unwrap();
    assert_eq!(v["variant"], "katro-4x4");
    // 4×4 a1 (worked in tests/it/perft.rs): b1 c1; relay 3: d1 d2 c2; c2 takes
    // c3: 5: b2 a2 a1 b1 c1, c1 was empty.
    assert_eq!(
        v["board"],
        json!([[1, 4, 1, 3], [3, 3, 0, 3], [2, 2, 0, 2], [2, 2, 2, 2]])
    );
}

// ---------------------------------------------------------------------------
// Moves that cannot be played

#[test]
fn an_illegal_move_names_itself_its_place_and_the_legal_moves() {
    // c1 again: North is to move.
    fails(
        &["replay", "katro-6x6", "c1", "c1"],
        &["move 2", "`c1`", "illegal", "a6 b6 c6 d6 e6 f6"],
    );
    // A suffix where the direction is fixed.
    fails(
        &["replay", "katro-6x6", "c1+"],
        &["move 1", "`c1+`", "a1 b1 c1 d1 e1 f1"],
    );
    // No suffix where one is needed.
    fails(
        &["replay", "katro-wikipedia", "c1"],
        &["move 1", "`c1`", "a1+ a1-"],
    );
    // A lone-seed step where there is none.
    fails(
        &["replay", "katro-6x6-diagonal", "b2>c3"],
        &["move 1", "`b2>c3`"],
    );
}

#[test]
fn an_unreadable_move_says_why() {
    fails(
        &["replay", "katro-6x6", "c1", "a6", "q1"],
        &["move 3", "`q1`", "columns run from a to f", "legal moves:"],
    );
    fails(
        &["replay", "katro-6x6", "c9"],
        &["move 1", "`c9`", "rows run from 1 to 6"],
    );
    for bad in [
        "", "1c", "c", "c0", "c01", "c1*", "c1>", ">c1", "c1>c2>c3", "é1",
    ] {
        fails(&["replay", "katro-6x6", bad], &["move 1", "is not a move"]);
    }
}

// ---------------------------------------------------------------------------
// Bad variant files: each exits 2 naming the file and the key or line.

/// Writes `text` to a file named `name` in a fresh folder and runs `katro
/// show` on it, expecting exit 2 and every needle in the message.
fn bad_file(name: &str, text: &str, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let file = path.to_str().unwrap();
    let mut all = vec![file];
    all.extend_from_slice(needles);
    fails(&["show", file], &all);
    // replay reads the file the same way.
    fails(&["replay", file, "a1"], &all);
}

const BOARD: &str = "[board]\nrows = 6\nholes = 6\nseeds = 2\n";

#[test]
fn missing_file() {
    fails(
        &["show", "/no/such/folder/variant.toml"],
        &["/no/such/folder/variant.toml", "cannot read"],
    );
    fails(
        &["show", "nosuch"],
        &["unknown variant `nosuch`", "katro-6x6"],
    );
}

#[test]
fn toml_syntax_error() {
    bad_file("syntax.toml", "[board]\nrows = 6\nholes = = 6\n", &[":3:"]);
}

#[test]
fn unknown_key() {
    bad_file(
        "unknown.toml",
        &format!("{BOARD}[rules]\nspeed = 3\n"),
        &[":6:", "unknown field `speed`", "direction"],
    );
}

#[test]
fn value_outside_its_allowed_set() {
    bad_file(
        "sideways.toml",
        &format!("{BOARD}[rules]\ndirection = \"sideways\"\n"),
        &[
            ":6:",
            "`rules.direction`",
            "`sideways`",
            "`forward`, `each-move`, `once-per-game`",
        ],
    );
    bad_file(
        "victim.toml",
        &format!("{BOARD}[rules]\nvictim = \"all\"\n"),
        &[
            ":6:",
            "`rules.victim`",
            "`innermost-row`, `column`, `whole-column`",
        ],
    );
    bad_file(
        "plies.toml",
        &format!("{BOARD}[rules]\nply_limit = 0\n"),
        &[":6:", "`rules.ply_limit`", "from 1 to"],
    );
    bad_file(
        "type.toml",
        "[board]\nrows = \"six\"\nholes = 6\nseeds = 2\n",
        &[":2:", "`board.rows`", "integer"],
    );
}

/// Found by the variant_parser fuzz target: serde quotes an unknown value
/// as written, so a TOML escape in it (`\n`, `\u001b`) printed a raw
/// newline or terminal escape in the error; so did a key. They are shown
/// escaped, and each problem stays on one line.
#[test]
fn quoted_values_cannot_break_the_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("escape.toml");
    let text = format!("{BOARD}[rules]\ndirection = \"a\\nb\\u001b[31mred\"\n\"k\\u001b\" = 1\n");
    std::fs::write(&path, text).unwrap();
    let file = path.to_str().unwrap();
    let err = fails(
        &["show", file],
        &[
            file,
            ":6:",
            "`rules.direction`",
            "`a\\nb\\u{1b}[31mred`",
            ":7:",
            "`rules.k\\u{1b}`",
        ],
    );
    assert_eq!(err.trim_end().lines().count(), 2, "{err}");
    assert!(!err.contains('\u{1b}'), "{err}");
}

/// Found by the experiment_parser fuzz target: a file with no `name` is
/// named after its file, and that name skipped the check a written name
/// gets, so "my variant.toml" gave a variant named "my variant", which
/// no file may declare (names go into every output row).
#[test]
fn a_file_name_standing_in_for_the_name_must_be_usable() {
    bad_file(
        "my variant.toml",
        BOARD,
        &[
            "`name`",
            "missing, and the file name \"my variant\" is not a usable name",
        ],
    );
}

#[test]
fn odd_rows() {
    bad_file(
        "odd.toml",
        "[board]\nrows = 5\nholes = 6\nseeds = 2\n",
        &[":2:", "`board.rows`", "even"],
    );
}

#[test]
fn rows_out_of_range() {
    for rows in ["0", "10", "-2"] {
        bad_file(
            "rows.toml",
            &format!("[board]\nrows = {rows}\nholes = 6\nseeds = 2\n"),
            &[":2:", "`board.rows`", "from 2 to 8"],
        );
    }
}

#[test]
fn holes_out_of_range() {
    for holes in ["1", "17"] {
        bad_file(
            "holes.toml",
            &format!("[board]\nrows = 6\nholes = {holes}\nseeds = 2\n"),
            &[":3:", "`board.holes`", "from 2 to 16"],
        );
    }
}

#[test]
fn too_many_seeds() {
    bad_file(
        "seeds.toml",
        "[board]\nrows = 8\nholes = 16\nseeds = 600\n",
        &[":4:", "`board.seeds`", "76800", "at most 65535"],
    );
    bad_file(
        "layout.toml",
        "[board]\nrows = 2\nholes = 2\nlayout = [[40000, 0], [0, 40000]]\n",
        &[":4:", "`board.layout`", "80000", "at most 65535"],
    );
    bad_file(
        "huge.toml",
        "[board]\nrows = 6\nholes = 6\nseeds = 99999999999999999999\n",
        &[":4:", "`board.seeds`"],
    );
}

#[test]
fn layout_shape_mismatch() {
    bad_file(
        "rows.toml",
        "[board]\nrows = 4\nholes = 2\nlayout = [[1, 1], [1, 1], [1, 1]]\n",
        &[":4:", "`board.layout`", "has 3 rows", "`board.rows` is 4"],
    );
    bad_file(
        "holes.toml",
        "[board]\nrows = 2\nholes = 2\nlayout = [[1, 1, 1], [1, 1]]\n",
        &[
            ":4:",
            "`board.layout`",
            "row 1 has 3 holes",
            "`board.holes` is 2",
        ],
    );
    // Found by the fuzz property tests: an out-of-range value past the
    // 159th entry of a row overflowed the column letter (a panic in debug
    // builds; in release a made-up hole name, here a control character).
    let long_row = format!("[{}-1]", "1, ".repeat(170));
    bad_file(
        "long-row.toml",
        &format!("[board]\nrows = 2\nholes = 2\nlayout = [{long_row}, [1, 1]]\n"),
        &[
            ":4:",
            "row 1 has 171 holes",
            "row 1, entry 171, holds -1 seeds; a hole holds 0 to 65535",
        ],
    );
    bad_file(
        "empty-side.toml",
        "[board]\nrows = 2\nholes = 2\nlayout = [[0, 0], [1, 1]]\n",
        &[":4:", "`board.layout`", "at least one seed"],
    );
    bad_file(
        "both.toml",
        "[board]\nrows = 2\nholes = 2\nseeds = 1\nlayout = [[1, 1], [1, 1]]\n",
        &[":5:", "`board.layout`", "not both"],
    );
}

#[test]
fn files_that_are_not_variants() {
    bad_file("empty.toml", "", &["missing field `board`"]);
    bad_file("binary.toml", "\u{0}\u{1}\u{2}", &[]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.toml");
    std::fs::write(&path, [0xff, 0xfe, b'x']).unwrap();
    fails(
        &["show", path.to_str().unwrap()],
        &["latin1.toml", "cannot read"],
    );
    let folder = dir.path().join("folder.toml");
    std::fs::create_dir(&folder).unwrap();
    fails(
        &["show", folder.to_str().unwrap()],
        &["folder.toml", "cannot read"],
    );
}

#[test]
fn bad_command_lines() {
    let run = katro(&["replay"]);
    assert_eq!(run.code, 2);
    let run = katro(&["no-such-command"]);
    assert_eq!(run.code, 2);
    let run = katro(&["--help"]);
    assert_eq!(run.code, 0);
}

/// The first number after `label` on a line of `katro bench` output.
fn bench_figure(out: &str, label: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line in {out}"));
    line.trim_start()[label.len()..]
        .split_whitespace()
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no number on {line}"))
}

#[test]
fn bench_mcts_reports_simulations_per_second() {
    let out = ok(&[
        "bench",
        "katro-4x4",
        "katro-6x3",
        "--mcts",
        "20",
        "--positions",
        "3",
        "--seconds",
        "0.02",
        "--rounds",
        "1",
    ]);
    assert!(
        out.starts_with("katro bench --mcts: mcts:iterations=20 "),
        "{out}"
    );
    for name in ["katro-4x4", "katro-6x3"] {
        let block = &out[out.find(&format!("{name}: ")).expect(name)..];
        // Each round searches every position at least once.
        let searches: u64 = block[name.len() + 2..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(searches >= 3 && searches.is_multiple_of(3), "{block}");
        let per_second = bench_figure(block, "iterations/s");
        let us = bench_figure(block, "µs per search");
        assert!(per_second > 0.0 && us > 0.0, "{block}");
        // 20 simulations a search: the two figures must agree (to the
        // rounding of the printed microseconds).
        let implied = 20.0 / (us / 1e6);
        assert!(
            (implied / per_second - 1.0).abs() < 0.05,
            "{per_second} vs {implied}: {block}"
        );
    }
}

#[test]
fn bench_mcts_refuses_bad_options() {
    fails(
        &["bench", "katro-4x4", "--mcts", "0"],
        &["--mcts", "iterations is 0"],
    );
    fails(
        &["bench", "katro-4x4", "--mcts", "10", "--threads", "2"],
        &["--threads", "one thread"],
    );
    fails(
        &["bench", "katro-4x4", "--mcts", "10", "--positions", "0"],
        &["--positions 0"],
    );
    fails(
        &[
            "bench",
            "katro-4x4",
            "--mcts",
            "10",
            "--mcts-keys",
            "time_ms=5",
        ],
        &["--mcts-keys: time_ms would make the rounds differ"],
    );
}

#[test]
fn bench_alphabeta_reports_nodes_per_second() {
    let out = ok(&[
        "bench",
        "katro-4x4",
        "--alphabeta",
        "alphabeta:depth=6,nodes=500",
        "--positions",
        "3",
        "--seconds",
        "0.02",
        "--rounds",
        "1",
    ]);
    assert!(
        out.starts_with("katro bench --alphabeta: alphabeta:depth=6,nodes=500 "),
        "{out}"
    );
    assert!(bench_figure(&out, "nodes/s") > 0.0, "{out}");
    assert!(bench_figure(&out, "µs per search") > 0.0, "{out}");
    fails(
        &["bench", "katro-4x4", "--alphabeta", "mcts:iterations=5"],
        &["--alphabeta", "give an alphabeta agent"],
    );
    fails(
        &[
            "bench",
            "katro-4x4",
            "--alphabeta",
            "alphabeta:depth=4,nodes=0",
        ],
        &["--alphabeta", "nodes is 0"],
    );
}

#[test]
fn a_time_budget_is_refused_wherever_results_are_written() {
    let why = "would not reproduce";
    fails(
        &[
            "simulate",
            "katro-4x4",
            "--games",
            "2",
            "--p1",
            "mcts:time_ms=10",
            "--p2",
            "random",
        ],
        &["--p1", "time_ms", why],
    );
    fails(
        &["bench", "katro-4x4", "--agents", "random,mcts:time_ms=10"],
        &["--agents", "time_ms", why],
    );
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("t.toml");
    std::fs::write(
        &exp,
        "name = \"t\"\nseed = 1\ngames = 2\nvariants = [\"katro-4x4\"]\n\n[[matchups]]\n\
         p1 = \"random\"\np2 = { agent = \"mcts\", time_ms = 10 }\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    fails(
        &["run", exp.to_str().unwrap(), "--out", out.to_str().unwrap()],
        &["t.toml:8:", "`matchups[0].p2`", why],
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn play_takes_a_time_budget() {
    // South's eight holes over and over, as in tests/it/pictures.rs: one is
    // legal each turn; MCTS thinks 5 ms a move.
    let holes = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"];
    let input = holes.map(|h| format!("{h}\n")).concat().repeat(600);
    let r = katro_in(
        &["play", "katro-4x4", "--against", "mcts:time_ms=5"],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("game over after "), "{}", r.stdout);
}

/// `play` has no --max-memory: the perfect agent's refusal names its own
/// fixed limit, and the command that does take the flag.
#[test]
fn perfect_on_a_big_board_names_no_flag_play_lacks() {
    let message = fails(
        &["play", "katro-4x4", "--against", "perfect"],
        &[
            "the perfect agent cannot play `katro-4x4`: the board is too big for it",
            "the perfect agent solves only boards within 2.00 GiB",
            "`katro solve` takes --max-memory",
        ],
    );
    assert!(!message.contains("--max-memory allows"), "{message}");
}

/// `mcts:iterations=5` is shown as written on the console, while
/// summary.csv keeps the canonical name (the default exploration spelled
/// out), which names the cell's games.
#[test]
fn the_console_shows_an_mcts_agent_without_its_default_exploration() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let o = out.to_str().unwrap();
    let stdout = ok(&[
        "simulate",
        "katro-4x4",
        "--games",
        "4",
        "--p1",
        "mcts:iterations=5",
        "--p2",
        "random",
        "--out",
        o,
    ]);
    assert!(
        stdout.contains("katro-4x4  mcts:iterations=5  random"),
        "{stdout}"
    );
    assert!(!stdout.contains("exploration"), "{stdout}");
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        csv.contains(",\"mcts:iterations=5,exploration=1.4142135623730951\",random,"),
        "{csv}"
    );
}

/// Three hints that must help: an `mcts` without a budget is told the key
/// experiments take; a negative count is told what a count is (not clap's
/// "use '-- -5'"); an --out that is a file is told so, with its path.
#[test]
fn hints_name_what_would_work() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("e.toml");
    std::fs::write(
        &exp,
        "name = \"h\"\nseed = 1\ngames = 2\nvariants = [\"katro-4x4\"]\n\n[[matchups]]\np1 = \"mcts\"\np2 = \"random\"\n",
    )
    .unwrap();
    let e = exp.to_str().unwrap();
    let m = fails(
        &["validate", e],
        &[
            "e.toml:7:6: `matchups[0].p1`: agent `mcts`: give `iterations`",
            "(`mcts:iterations=1000`); only `katro play` also takes `time_ms`",
        ],
    );
    assert!(!m.contains("or both"), "{m}");
    let sim = ["simulate", "katro-4x4", "--p1", "random", "--p2", "random"];
    let m = fails(
        &[&sim[..], &["--games", "-5"]].concat(),
        &["-5 games cannot be played; give a whole number of games from 1 to"],
    );
    assert!(!m.contains("'-- -5'"), "{m}");
    let file = dir.path().join("afile");
    std::fs::write(&file, "mine\n").unwrap();
    let f = file.to_str().unwrap();
    fails(
        &[&sim[..], &["--games", "2", "--out", f]].concat(),
        &[&format!("{f} is a file, not a folder")],
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
}

/// A mistyped key, agent, variant, value or metric gets the name it most
/// likely meant, in every kind of file and on the command line; a name
/// close to none gets no guess.
#[test]
fn mistypes_get_a_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let exp = |body: &str| {
        format!(
            "name = \"t\"\nseed = 1\ngames = 2\n{body}\n[[matchups]]\np1 = \"random\"\np2 = \"random\"\n"
        )
    };
    for (file, text, wanted) in [
        (
            "key.toml",
            exp("gmaes = 3\nvariants = [\"katro-4x4\"]\n"),
            "unknown field `gmaes` (did you mean \"games\"?)",
        ),
        (
            "variant.toml",
            exp("variants = [\"katro-4x5\"]\n"),
            "unknown variant `katro-4x5` (did you mean \"katro-4x4\"?)",
        ),
        (
            "metric.toml",
            exp("metrics = [\"drama_maen\"]\nvariants = [\"katro-4x4\"]\n"),
            "unknown metric \"drama_maen\" (did you mean \"drama_mean\"?)",
        ),
        (
            "sweep.toml",
            exp("[[sweep]]\nbase = \"katro-4x4\"\nseds = [1, 2]\n"),
            "not a board key or rule setting (did you mean \"seeds\"?)",
        ),
        (
            "agent.toml",
            "name = \"t\"\nseed = 1\ngames = 2\nvariants = [\"katro-4x4\"]\n\n[[matchups]]\np1 = \"grredy\"\np2 = \"random\"\n".to_string(),
            "(did you mean \"greedy\"?)",
        ),
    ] {
        let path = write(file, &text);
        fails(&["validate", &path], &[wanted]);
    }
    let v = write(
        "v.toml",
        "name = \"v\"\n\n[board]\nrows = 4\nhoels = 4\nseeds = 2\n",
    );
    fails(
        &["validate", &v],
        &["unknown field `hoels` (did you mean \"holes\"?)"],
    );
    let sim = ["simulate", "katro-4x4", "--games", "2", "--p2", "random"];
    fails(
        &[&sim[..], &["--p1", "alphabeta:deph=2"]].concat(),
        &["`deph` is not one (did you mean \"depth\"?)"],
    );
    fails(
        &["show", "katro-ludi"],
        &["unknown variant `katro-ludi` (did you mean \"katro-ludii\"?)"],
    );
    let m = fails(&["show", "chess"], &["unknown variant `chess`"]);
    assert!(!m.contains("did you mean"), "{m}");
}

/// One rule set under two names (a preset and the sweep point with its
/// rules) is refused before anything is played, both names given.
#[test]
fn one_rule_set_under_two_names_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("dup.toml");
    std::fs::write(
        &exp,
        "name = \"d\"\nseed = 1\ngames = 2\nvariants = [\"katro-4x4\"]\n\n[[sweep]]\nbase = \"katro-4x4\"\nseeds = [1, 2]\n\n[[matchups]]\np1 = \"random\"\np2 = \"random\"\n",
    )
    .unwrap();
    let e = exp.to_str().unwrap();
    fails(
        &["validate", e],
        &["`sweep[0]`: variant `katro-4x4+seeds=2` has the same rules as `katro-4x4`"],
    );
    let out = dir.path().join("out");
    fails(
        &["run", e, "--out", out.to_str().unwrap()],
        &["has the same rules as"],
    );
    assert!(!out.exists(), "nothing written for a refused experiment");
}

/// `katro` run in `dir`: the binary's own output, for tests that need a
/// working folder of their own.
fn katro_at(dir: &Path, args: &[&str]) -> Run {
    let out = assert_cmd::Command::cargo_bin("katro")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let run = Run {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    run
}

/// Every setting of every agent, of the wrong type, out of range, missing
/// or not the agent's, is refused in katro's own words, naming the key and
/// its values: on the command line and in an experiment's table alike.
#[test]
fn every_agent_setting_error_is_katros_own() {
    for (agent, said) in [
        (
            "mcts:iterations=-4",
            "iterations is -4; it must be a whole number from 1 to 1000000",
        ),
        (
            "mcts:iterations=10,exploration=high",
            "exploration is `high`; it must be a number of 0 or more",
        ),
        (
            "mcts:iterations=10,solver=7",
            "solver is 7; it must be true or false",
        ),
        (
            "mcts:iterations=10,keep_tree=maybe",
            "keep_tree is `maybe`; it must be true or false",
        ),
        (
            "mcts:iterations=10,rollout=epsilon-greedy,rollout_epsilon=-1",
            "rollout_epsilon is -1; it must be a number from 0 to 1",
        ),
        (
            "alphabeta:depth=x",
            "depth is `x`; it must be a whole number from 1 to 64",
        ),
        (
            "alphabeta:depth=3,nodes=1.5",
            "nodes is 1.5; it must be a whole number from 1 to 1000000000",
        ),
        (
            "alphabeta:depth=3,tt=-2",
            "tt is -2; it must be a whole number from 1 to 24 (log2 of the table's slots)",
        ),
        (
            "alphabeta",
            "alphabeta needs depth, a whole number from 1 to 64 (`alphabeta:depth=...`)",
        ),
        (
            "epsilon-greedy:epsilon=some",
            "epsilon is `some`; it must be a number from 0 to 1",
        ),
        (
            "random:depth=2",
            "random takes no settings; `depth` is not one",
        ),
        ("greedy:x=1", "greedy takes no settings; `x` is not one"),
        (
            "perfect:depth=1",
            "perfect takes no settings; `depth` is not one",
        ),
    ] {
        let run = katro(&[
            "simulate",
            "katro-4x4",
            "--games",
            "1",
            "--p1",
            agent,
            "--p2",
            "random",
        ]);
        assert_eq!(run.code, 2, "{agent}");
        assert_eq!(
            run.stderr,
            format!("error: --p1: agent `{agent}`: {said}\n"),
            "{agent}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "name = \"t\"\nseed = 1\ngames = 2\nvariants = [\"katro-4x4\"]\n\n[[matchups]]\n\
         p1 = { agent = \"mcts\", iterations = -4 }\np2 = \"random\"\n",
    )
    .unwrap();
    let run = katro_at(dir.path(), &["validate", "e.toml"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(
            "e.toml:7:6: `matchups[0].p1`: iterations is -4; it must be a whole number from 1 \
             to 1000000\n"
        ),
        "{}",
        run.stderr
    );
}

/// Variant paths in an experiment are relative to the experiment file,
/// `--out` to the working directory: `run --help` says so, and a variant
/// file not found says so, with the path that would name it.
#[test]
fn a_variant_path_not_found_states_the_path_rules() {
    let help = ok(&["run", "--help"]);
    for said in [
        "variant files named in the experiment are relative to the experiment file's folder; \
         --out and the experiment's `output` are relative to the working directory",
        "relative to the working directory (variant files named in the experiment are \
         relative to the experiment file's folder)",
    ] {
        assert!(help.contains(said), "{help}");
    }
    assert!(ok(&["validate", "--help"]).contains("relative to the experiment file's folder"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("exps")).unwrap();
    std::fs::create_dir_all(d.join("variants")).unwrap();
    std::fs::write(
        d.join("variants/my.toml"),
        "name = \"my\"\n[board]\nrows = 4\nholes = 4\nseeds = 2\n",
    )
    .unwrap();
    std::fs::write(
        d.join("exps/x.toml"),
        "name = \"x\"\nseed = 1\ngames = 10\nvariants = [\"variants/my.toml\"]\n\n\
         [[matchups]]\np1 = \"random\"\np2 = \"random\"\n",
    )
    .unwrap();
    for command in ["validate", "run"] {
        let run = katro_at(d, &[command, "exps/x.toml"]);
        assert_eq!(run.code, 2, "{command}");
        assert!(
            run.stderr.contains(
                "exps/x.toml:4:13: `variants[0]`: cannot read variant file `variants/my.toml`: \
                 exps/variants/my.toml (No such file or directory (os error 2)); a variant path \
                 in an experiment is relative to the experiment file's folder (exps), not to \
                 the working directory: `variants/my.toml` from the working directory is \
                 `../variants/my.toml` from there"
            ),
            "{command}: {}",
            run.stderr
        );
    }
    std::fs::write(
        d.join("exps/x.toml"),
        std::fs::read_to_string(d.join("exps/x.toml"))
            .unwrap()
            .replace("\"variants/my.toml\"", "\"../variants/my.toml\""),
    )
    .unwrap();
    let run = katro_at(d, &["run", "exps/x.toml", "--out", "o", "--threads", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        d.join("o/summary.csv").exists(),
        "--out is from the working directory"
    );
}

/// The game viewer tells the seeds each player captured apart from the
/// capture events: c1 on katro-6x6 is one capture of two seeds.
#[test]
fn the_viewer_tells_seeds_captured_from_capture_events() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("game.html");
    let page_arg = page.to_str().unwrap();
    ok(&["replay", "katro-6x6", "c1", "--html", page_arg]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\" | seeds captured: South \" + f.seeds_captured[0]")
            && html.contains("\" | capture events: South \" + f.captures[0]"),
        "the status line"
    );
    assert!(
        !html.contains("\" | captures: South"),
        "the old status line"
    );
    for tally in ["\"captures\":[1,0]", "\"seeds_captured\":[2,0]"] {
        assert!(html.contains(tally), "the last frame's {tally}");
    }
}

/// `katro report --proved`: without it no verdict line tells a start;
/// with the committed proof of katro-4x4's start, it joins its verdict
/// line in results/quick's report (the same rules and lap limit), and
/// the committed bound joins 6x6's; a file that is not a start's value
/// is refused with exit 2, naming it, and the report is left untouched.
#[test]
fn report_tells_the_proved_start_beside_the_share() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let quick = dir.path().join("quick");
    fs::create_dir(&quick).unwrap();
    for e in fs::read_dir(root.join("results/quick")).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            fs::copy(e.path(), quick.join(e.file_name())).unwrap();
        }
    }
    let q = quick.display().to_string();
    let prove = |v: &str| {
        root.join(format!("results/prove/{v}.json"))
            .display()
            .to_string()
    };
    let (p44, p66) = (prove("katro-4x4"), prove("katro-6x6"));
    ok(&["report", &q]);
    let html_before = fs::read_to_string(quick.join("report.html")).unwrap();
    assert!(!html_before.contains("(proved)"));
    let bad = root
        .join("results/openings/openings.csv")
        .display()
        .to_string();
    fails(
        &["report", &q, "--proved", &p44, "--proved", &bad],
        &[
            &bad,
            "not the JSON of `katro prove --json`",
            "katro prove-family",
        ],
    );
    assert_eq!(
        fs::read_to_string(quick.join("report.html")).unwrap(),
        html_before
    );
    ok(&["report", &q, "--proved", &p44, "--proved", &p66]);
    let html = fs::read_to_string(quick.join("report.html")).unwrap();
    let line = |variant: &str| {
        html.lines()
            .find(|l| l.starts_with(&format!("<li>{variant},")))
            .unwrap_or_else(|| panic!("no verdict of {variant}"))
            .to_string()
    };
    assert!(
        line("katro-4x4")
            .contains("; from the start the first player wins in 17 decisions (proved).</li>"),
        "{}",
        line("katro-4x4")
    );
    assert!(
        line("katro-6x6")
            .contains("neither side forces a win within 24 decisions (searched, not proved)"),
        "{}",
        line("katro-6x6")
    );
    assert!(!line("katro-6x3").contains("from the start"));
}

/// `katro simulate --proved` (and `run`, which shares the table): the
/// verdict line under the table says what the proof found of the start,
/// for the game it is of only; a missing file is refused with exit 2
/// before a game is played.
#[test]
fn simulate_tells_the_proved_start_under_its_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let p44 = root
        .join("results/prove/katro-4x4.json")
        .display()
        .to_string();
    // `simulate VARIANT` on 20 random games, with `extra` after.
    let args = |variant: &'static str, extra: &[&'static str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "simulate", variant, "--games", "20", "--p1", "random", "--p2", "random",
        ]
        .map(String::from)
        .to_vec();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let sim = |variant: &'static str| {
        let a = args(variant, &["--threads", "1", "--proved"]);
        let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
        a.push(&p44);
        ok(&a)
    };
    let own = sim("katro-4x4");
    let line = own.lines().find(|l| l.starts_with("verdict: ")).unwrap();
    assert!(
        line.ends_with("; from the start the first player wins in 17 decisions (proved)."),
        "{line}"
    );
    let other = sim("katro-6x3");
    let line = other.lines().find(|l| l.starts_with("verdict: ")).unwrap();
    assert!(!line.contains("from the start"), "{line}");
    let bad = args("katro-4x4", &["--proved", "no-such-proof.json"]);
    fails(
        &bad.iter().map(String::as_str).collect::<Vec<_>>(),
        &[
            "no-such-proof.json: not found",
            "katro prove VARIANT --json",
        ],
    );
}
