//! `openings = "exact"` on the real binary (docs/EXPERIMENTS.md, "Exact
//! openings"): exact-openings.csv checked against an enumeration made
//! here, independently of katro's (every line walked by recursion, each
//! agent's tie set found by asking its `choose` with many generators,
//! probabilities as floats); the same bytes whole and in shards; the
//! sampled cells beside it untouched; and every refusal naming its key.

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use crate::common::{column, katro_in, katro_ok as ok, read_text as text};
use katro_core::agents::AgentSpec;
use katro_core::agents::perfect::Tables;
use katro_core::rng::rng_from_seed;
use katro_core::rules::parse_variant;
use katro_core::{Move, Player, Position, Rules, Status};

/// 4x3 with 1 seed a hole, its ply limit low: `alphabeta:depth=2` against
/// `greedy` there can tie into cycles that last to the limit (31,056
/// positions alive at every ply from ply 103 on under the default 5,000),
/// so a low limit keeps every line short to walk and ends some undecided.
const VARIANT: &str =
    "name = \"tiny\"\n[board]\nrows = 4\nholes = 3\nseeds = 1\n[rules]\nply_limit = 40\n";

/// An experiment on the 4x3 board with 1 seed a hole: `matchups` after a
/// sampled random self-play.
fn experiment(dir: &Path, head: &str, matchups: &str) -> String {
    fs::write(dir.join("tiny.toml"), VARIANT).unwrap();
    let text = format!(
        "name = \"exact-test\"\nseed = 7\ngames = 40\n{head}variants = [\"tiny.toml\"]\n\n\
         [[matchups]]\np1 = \"random\"\np2 = \"random\"\n\n{matchups}"
    );
    let path = dir.join("exp.toml");
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The moves `a` draws among at `pos`: 64 generators' choices (a tie of
/// k moves misses one of them in all 64 with probability k(1-1/k)^64,
/// below 1e-7 for k ≤ 6).
fn tie_set(a: &AgentSpec, rules: &Rules, pos: &Position) -> Vec<Move> {
    // One set of perfect-play tables for the whole walk, as a run's games
    // share one: `choose` alone would solve the board for every move.
    static TABLES: Tables = Tables::new();
    let legal = rules.legal_moves(pos);
    let mut seen: Vec<Move> = Vec::new();
    for s in 0..64 {
        let m = a.choose_with(&TABLES, rules, pos, &legal, &mut rng_from_seed(1000 + s));
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    seen
}

/// [p1 wins, undecided, p2 wins] from `pos` on, as floats: the opening's
/// plies uniform over the legal moves while fewer than `k` plies are
/// played, a forced move played, else the mover's tie set uniformly.
fn walk(
    rules: &Rules,
    agents: [&AgentSpec; 2],
    k: u32,
    pos: Position,
    memo: &mut HashMap<Position, [f64; 3]>,
) -> [f64; 3] {
    walk_skewed(rules, agents, k, pos, 0.0, memo)
}

/// [`walk`] with the first of two or more moves given `skew` more than
/// its share (the others `skew` less between them): a wrong weight, which
/// the exact share must not match.
fn walk_skewed(
    rules: &Rules,
    agents: [&AgentSpec; 2],
    k: u32,
    pos: Position,
    skew: f64,
    memo: &mut HashMap<Position, [f64; 3]>,
) -> [f64; 3] {
    if let Some(v) = memo.get(&pos) {
        return *v;
    }
    let legal = rules.legal_moves(&pos);
    let v = if pos.ended().is_some() || legal.is_empty() {
        match rules.status(&pos) {
            Status::Won(Player::South) => [1.0, 0.0, 0.0],
            Status::Won(Player::North) => [0.0, 0.0, 1.0],
            _ => [0.0, 1.0, 0.0],
        }
    } else {
        let moves: Vec<Move> = if pos.plies() < k || legal.len() == 1 {
            legal.iter().copied().collect()
        } else {
            let a = match pos.to_move() {
                Player::South => agents[0],
                Player::North => agents[1],
            };
            tie_set(a, rules, &pos)
        };
        let n = moves.len() as f64;
        let mut sum = [0.0; 3];
        for (j, m) in moves.iter().enumerate() {
            let mut next = pos;
            rules.play(&mut next, *m).unwrap();
            let w = walk_skewed(rules, agents, k, next, skew, memo);
            let weight = match (j, moves.len()) {
                (_, 1) => 1.0,
                (0, _) => 1.0 / n + skew,
                _ => 1.0 / n - skew / (n - 1.0),
            };
            for i in 0..3 {
                sum[i] += w[i] * weight;
            }
        }
        sum
    };
    memo.insert(pos, v);
    v
}

fn fraction(t: &str) -> f64 {
    let (n, d) = t.split_once('/').unwrap();
    n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap()
}

const EXACT: &str = "[[matchups]]\np1 = \"alphabeta:depth=2\"\np2 = \"greedy\"\nopenings = \"exact\"\n\n\
[[matchups]]\np1 = \"perfect\"\np2 = \"alphabeta:depth=12,nodes=300,eval=fitted\"\n\
opening_plies = 1\nopenings = \"exact\"\n\n\
[[matchups]]\np1 = \"alphabeta:depth=2\"\np2 = \"greedy\"\n";

#[test]
fn the_exact_share_is_every_line_walked_apart() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "opening_plies = 3\n", EXACT);
    let out = dir.path().join("out");
    let printed = ok(&[
        "run",
        &exp,
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert!(printed.contains("exact openings"), "{printed}");
    let csv = text(&out.join("exact-openings.csv"));
    let rules = parse_variant("tiny.toml", VARIANT, "tiny").unwrap();
    let p1s = column(&csv, "p1");
    let p2s = column(&csv, "p2");
    let plies = column(&csv, "opening_plies");
    let exact = column(&csv, "exact");
    let rates = column(&csv, "p1_win_rate");
    let openings = column(&csv, "openings");
    assert_eq!(
        column(&csv, "estimate"),
        ["exact-openings", "exact-openings"]
    );
    assert_eq!(plies, ["3", "1"]);
    let mut tied = 0;
    for r in 0..2 {
        let a = AgentSpec::parse(&p1s[r]).unwrap();
        let b = AgentSpec::parse(&p2s[r]).unwrap();
        let k: u32 = plies[r].parse().unwrap();
        let want = walk(&rules, [&a, &b], k, rules.start(), &mut HashMap::new());
        let got: Vec<f64> = exact[r].split(';').map(fraction).collect();
        for i in 0..3 {
            assert!(
                (got[i] - want[i]).abs() < 1e-12,
                "row {r}: {got:?} against {want:?}"
            );
        }
        // The comparison tells weights apart: one wrong by 1% of a line
        // at every split is far outside its tolerance.
        let start = rules.start();
        let wrong = walk_skewed(&rules, [&a, &b], k, start, 0.01, &mut HashMap::new());
        let off = (0..3)
            .map(|i| (got[i] - wrong[i]).abs())
            .fold(0.0, f64::max);
        assert!(off > 1e-6, "row {r}: {got:?} against skewed {wrong:?}");
        let share = want[0] / (want[0] + want[2]);
        let rate: f64 = rates[r].parse().unwrap();
        assert!(
            (rate - share).abs() < 5e-7,
            "row {r}: {rate} against {share}"
        );
        assert!(openings[r].parse::<u64>().unwrap() > 1);
        tied += column(&csv, "tied_decisions")[r].parse::<u64>().unwrap();
    }
    // Greedy ties on this board, so the lines really were split.
    assert!(tied > 0);
    // The sampled matchup of the same agents is in summary.csv as ever,
    // and the exact ones are not.
    let summary = text(&out.join("summary.csv"));
    assert_eq!(column(&summary, "p1"), ["random", "alphabeta:depth=2"]);
    let manifest = text(&out.join("manifest.json"));
    assert!(manifest.contains("\"exact-openings.csv\""));
}

#[test]
fn exact_cells_shard_merge_and_leave_the_sampled_cells_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "opening_plies = 2\n", EXACT);
    let (whole, sharded) = (dir.path().join("whole"), dir.path().join("sharded"));
    ok(&[
        "run",
        &exp,
        "--out",
        whole.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let s = sharded.to_str().unwrap();
        ok(&["run", &exp, "--out", s, "--shard", &shard, "--threads", "1"]);
    }
    assert!(
        !sharded.join("exact-openings.csv").exists(),
        "a shard plays none"
    );
    ok(&["merge", sharded.to_str().unwrap()]);
    // One variant: no comparison.csv (docs/OUTPUTS.md).
    for f in ["exact-openings.csv", "summary.csv", "lengths.csv"] {
        assert_eq!(text(&whole.join(f)), text(&sharded.join(f)), "{f}");
    }
    // The same experiment without its exact matchups: the same sampled
    // cells, the same bytes, and no exact-openings.csv.
    let plain_dir = tempfile::tempdir().unwrap();
    let sampled = "[[matchups]]\np1 = \"alphabeta:depth=2\"\np2 = \"greedy\"\n";
    let plain = experiment(plain_dir.path(), "opening_plies = 2\n", sampled);
    let out = plain_dir.path().join("out");
    ok(&["run", &plain, "--out", out.to_str().unwrap()]);
    for f in ["summary.csv", "lengths.csv"] {
        assert_eq!(text(&whole.join(f)), text(&out.join(f)), "{f}");
    }
    assert!(!out.join("exact-openings.csv").exists());
    // Running it again finds it finished; forcing it writes the same.
    ok(&["run", &exp, "--out", whole.to_str().unwrap()]);
    let before = text(&whole.join("exact-openings.csv"));
    ok(&["run", &exp, "--out", whole.to_str().unwrap(), "--force"]);
    assert_eq!(before, text(&whole.join("exact-openings.csv")));
}

/// More games grow the sampled cells (as a fresh run of the bigger
/// experiment would be) and leave the exact shares, which do not depend
/// on the games, as they were; report.html shows them as exact.
#[test]
fn a_grown_run_keeps_its_exact_shares_and_the_report_shows_them() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "opening_plies = 2\n", EXACT);
    let (grown, fresh) = (dir.path().join("grown"), dir.path().join("fresh"));
    let (g, f) = (grown.to_str().unwrap(), fresh.to_str().unwrap());
    ok(&["run", &exp, "--out", g, "--threads", "1"]);
    let exact = text(&grown.join("exact-openings.csv"));
    let small = text(&grown.join("summary.csv"));
    let bigger = text(Path::new(&exp)).replace("games = 40", "games = 70");
    fs::write(&exp, bigger).unwrap();
    let printed = ok(&["run", &exp, "--out", g, "--threads", "1"]);
    assert!(
        printed.contains("80 kept from the results already there"),
        "{printed}"
    );
    ok(&["run", &exp, "--out", f, "--threads", "2"]);
    assert_eq!(text(&grown.join("exact-openings.csv")), exact);
    let summary = text(&grown.join("summary.csv"));
    assert_ne!(summary, small, "the sampled cells grew");
    for name in ["summary.csv", "exact-openings.csv", "lengths.csv"] {
        assert_eq!(text(&grown.join(name)), text(&fresh.join(name)), "{name}");
    }
    let html = text(&grown.join("report.html"));
    let section = &html[html
        .find("<section id=\"exact\">")
        .expect("an exact section")..];
    for rate in column(&exact, "p1_win_rate") {
        let cell = format!("data-col=\"p1_win_rate\">{rate}<");
        assert!(section.contains(&cell), "{rate} in {section}");
    }
}

#[test]
fn what_exact_openings_cannot_follow_is_refused_naming_the_key() {
    let exact =
        |p1: &str| format!("[[matchups]]\np1 = \"{p1}\"\np2 = \"greedy\"\nopenings = \"exact\"\n");
    let cases: Vec<(String, String, Vec<&str>)> = vec![
        (
            String::new(),
            exact("random"),
            vec![
                "`matchups[1].openings`",
                "`p1` is `random`",
                "draws every move",
            ],
        ),
        (
            String::new(),
            exact("epsilon-greedy:epsilon=0.1"),
            vec!["`matchups[1].openings`", "probability `epsilon`"],
        ),
        (
            String::new(),
            exact("mcts:iterations=20"),
            vec!["`matchups[1].openings`", "rollouts"],
        ),
        (
            String::new(),
            exact("greedy").replace("\"exact\"", "\"exactly\""),
            vec![
                "`matchups[1].openings`",
                "`exactly` is not a kind of openings",
            ],
        ),
        (
            String::new(),
            format!("{}games = 10\n", exact("greedy")),
            vec!["`matchups[1].games`", "no game count applies"],
        ),
        (
            "openings = \"exact\"\n".into(),
            String::new(),
            vec!["`openings (for matchups[0])`", "`p1` is `random`"],
        ),
        (
            "openings = \"exact\"\n".into(),
            "[tournament]\nagents = [\"greedy\", \"alphabeta:depth=1\"]\nopening_plies = 2\n"
                .into(),
            vec!["`openings`", "`[tournament]`"],
        ),
    ];
    for (head, matchups, words) in cases {
        let dir = tempfile::tempdir().unwrap();
        let exp = experiment(dir.path(), &head, &matchups);
        for cmd in ["validate", "run"] {
            let out = dir.path().join("out");
            let args: Vec<&str> = match cmd {
                "run" => vec!["run", &exp, "--out", out.to_str().unwrap()],
                _ => vec!["validate", &exp],
            };
            let run = katro_in(&args, "");
            assert_eq!(run.code, 2, "{cmd} {head}{matchups}: {}", run.stderr);
            for w in &words {
                assert!(run.stderr.contains(w), "{cmd}: `{w}` not in {}", run.stderr);
            }
            assert!(!out.exists(), "nothing written");
        }
    }
    // Every matchup exact: nothing would be played as games.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("tiny.toml"), VARIANT).unwrap();
    let all = format!(
        "name = \"x\"\nseed = 1\ngames = 4\nvariants = [\"tiny.toml\"]\n{}",
        exact("greedy")
    );
    let path = dir.path().join("all.toml");
    fs::write(&path, all).unwrap();
    let run = katro_in(&["validate", path.to_str().unwrap()], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("every matchup has `openings = \"exact\"`"),
        "{}",
        run.stderr
    );
}

/// Whether a matchup's lines can be followed is known only by following
/// them: one that cannot is refused (exit 2) by a whole run and by a
/// shard before the output folder is touched, so no game is played, and
/// the message names the file, the key and what to do instead.
#[test]
fn a_matchup_too_big_to_follow_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.toml");
    fs::write(
        &path,
        "name = \"big\"\nseed = 1\ngames = 4\nvariants = [\"katro-6x6\"]\n\n\
         [[matchups]]\np1 = \"random\"\np2 = \"random\"\n\n\
         [[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\nopening_plies = 10\n\
         openings = \"exact\"\n",
    )
    .unwrap();
    let exp = path.to_str().unwrap();
    // The keys are right: validate follows no line.
    assert_eq!(katro_in(&["validate", exp], "").code, 0);
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    for shard in [None, Some("1/2")] {
        let mut args = vec!["run", exp, "--out", o];
        args.extend(shard.iter().flat_map(|s| ["--shard", *s]));
        let run = katro_in(&args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        for w in [
            "big.toml: `matchups[1].openings`: variant `katro-6x6`",
            "distinct openings",
            "sample this matchup",
        ] {
            assert!(
                run.stderr.contains(w),
                "{args:?}: `{w}` not in {}",
                run.stderr
            );
        }
        assert!(!run.stderr.contains("checkpoint"), "{}", run.stderr);
        assert!(!out.exists(), "{args:?}: nothing written, no game played");
    }
}
