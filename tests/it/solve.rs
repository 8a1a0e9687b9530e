//! The solver (`katro_core::solve`, `katro solve`) checked: against an
//! independent brute-force search on small boards under every value of
//! every rules setting and every preset's reading; every value the best of
//! its moves over whole tables; the perfect agent winning every game from
//! a won start; and the command's output, refusals and files.

use std::ops::ControlFlow;

use katro_core::agents::AgentSpec;
use katro_core::engine::{Player, Status};
use katro_core::game::play_game;
use katro_core::rules::{Allowed, BOARD_SETTINGS, PRESETS, Rules, SETTINGS, Settings, preset};
use katro_core::solve::{self, SolvedTable, Value, brute, move_values};

use crate::common::katro_in;

fn rules_on(base: &Settings, rows: usize, holes: usize, seeds: u16) -> Rules {
    let mut s = base.clone();
    s.rows = rows;
    s.holes = holes;
    s.seeds = Some(seeds);
    s.layout = None;
    Rules::new("test".into(), String::new(), String::new(), s).expect("valid settings")
}

fn solved(rules: &Rules) -> SolvedTable {
    solve::solve(rules, u64::MAX, &mut |_, _, _| ControlFlow::Continue(())).expect("a small board")
}

/// Tallies of the values met, so the test shows it compared more than
/// one kind of outcome.
#[derive(Default)]
struct Seen {
    win: usize,
    loss: usize,
    draw: usize,
    positions: usize,
}

/// The solver and the brute force agree on every position of the board.
fn agree(rules: &Rules, seen: &mut Seen) {
    let table = solved(rules);
    let brute = brute::solve(rules, 60_000);
    assert_eq!(table.len(), brute.len(), "{}", rules.canonical_string());
    for (pos, v) in &brute {
        assert_eq!(
            table.value(rules, pos),
            Some(*v),
            "{}: {:?} {:?}",
            rules.canonical_string(),
            &pos.holes()[..rules.hole_count()],
            pos.to_move()
        );
        match v {
            Value::Win(_) => seen.win += 1,
            Value::Loss(_) => seen.loss += 1,
            Value::Draw => seen.draw += 1,
        }
    }
    seen.positions += brute.len();
}

/// The values each rules setting is tried at: every name of a named
/// setting, a few of each integer. A setting added later without values
/// here fails the test instead of going unchecked.
fn values_to_try(info: &katro_core::rules::SettingInfo) -> Vec<i128> {
    match info.allowed {
        Allowed::Values(names) => (0..names.len() as i128).collect(),
        Allowed::Range { .. } => match info.key {
            "rules.min_victim_seeds" | "rules.min_victim_seeds_after_empty" => vec![1, 2, 3],
            // Ignored by the solver: any value must give the same table.
            "rules.ply_limit" => vec![1, 5000],
            // Small lap limits turn long relay chains into lap-limit ends.
            "rules.lap_limit" => vec![1, 2, 5, 10_000_000],
            key => panic!("{key}: add the values the solver test should try"),
        },
        Allowed::Board { .. } => unreachable!("rules settings only"),
    }
}

fn default_choice(info: &katro_core::rules::SettingInfo) -> i128 {
    match (info.allowed, info.default) {
        (Allowed::Values(names), Some(katro_core::rules::Value::Name(n))) => names
            .iter()
            .position(|x| *x == n)
            .expect("default among names")
            as i128,
        (_, Some(katro_core::rules::Value::Int(v))) => v,
        _ => unreachable!("rules settings have defaults"),
    }
}

const BOARDS: [(usize, usize, u16); 3] = [(2, 3, 1), (2, 2, 2), (4, 2, 1)];

#[test]
fn the_solver_agrees_with_brute_force_under_every_setting_value() {
    let mut seen = Seen::default();
    let mut combos = 0;
    for info in &SETTINGS[BOARD_SETTINGS.len()..] {
        for v in values_to_try(info) {
            let mut s = Settings::canonical();
            s.choose_rules(&mut |i| {
                if i.key == info.key {
                    v
                } else {
                    default_choice(i)
                }
            });
            for (rows, holes, seeds) in BOARDS {
                agree(&rules_on(&s, rows, holes, seeds), &mut seen);
                combos += 1;
            }
        }
    }
    assert!(combos > 100, "{combos}");
    assert!(
        seen.win > 0 && seen.loss > 0 && seen.draw > 0,
        "only one kind of value met"
    );
}

#[test]
fn the_solver_agrees_with_brute_force_under_every_preset_reading() {
    let mut seen = Seen::default();
    for (name, _) in PRESETS {
        let s = preset(name).unwrap().settings().clone();
        for (rows, holes, seeds) in BOARDS.iter().chain(&[(2, 4, 1), (2, 3, 2)]) {
            agree(&rules_on(&s, *rows, *holes, *seeds), &mut seen);
        }
    }
    assert!(seen.win > 0 && seen.loss > 0 && seen.draw > 0);
}

/// Every reachable position's value is the best value among its moves,
/// over the whole table, walking the positions again from the start.
fn best_of_moves_everywhere(rules: &Rules) -> usize {
    let table = solved(rules);
    // The walk's plies grow; the table ignores them, so must the walk.
    let walk = rules.with_limits(Some(100_000_000), None).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![walk.start()];
    while let Some(pos) = stack.pop() {
        if !seen.insert(solve::key(&walk, &pos)) {
            continue;
        }
        let v = table
            .value(&walk, &pos)
            .expect("reachable, so in the table");
        let moves = move_values(&table, &walk, &pos);
        let best = moves
            .first()
            .map_or(Value::Loss(0), |m| m.1.expect("every move's end is known"));
        assert_eq!(v, best);
        for (mv, _) in moves {
            let mut after = pos;
            walk.play(&mut after, mv).unwrap();
            if after.ended().is_none() {
                stack.push(after);
            }
        }
    }
    assert_eq!(seen.len(), table.len());
    seen.len()
}

#[test]
fn every_value_is_the_best_of_its_moves_over_whole_tables() {
    let canonical = Settings::canonical();
    assert_eq!(
        best_of_moves_everywhere(&rules_on(&canonical, 2, 4, 2)),
        3186
    );
    let wikipedia = preset("katro-wikipedia").unwrap().settings().clone();
    best_of_moves_everywhere(&rules_on(&wikipedia, 2, 3, 2));
    let ludii = preset("katro-ludii").unwrap().settings().clone();
    best_of_moves_everywhere(&rules_on(&ludii, 4, 2, 2));
    let boaoaka = preset("katra-boaoaka-4x8").unwrap().settings().clone();
    best_of_moves_everywhere(&rules_on(&boaoaka, 4, 2, 2));
}

#[test]
fn the_perfect_agent_wins_every_game_from_a_won_start() {
    // 4×3 with 1 seed a hole: the start is a win for player 1.
    let rules = rules_on(&Settings::canonical(), 4, 3, 1);
    let table = solved(&rules);
    assert!(matches!(
        table.value(&rules, &rules.start()),
        Some(Value::Win(_))
    ));
    let perfect = AgentSpec::parse("perfect").unwrap();
    for opponent in [
        "random",
        "greedy",
        "alphabeta:depth=2",
        "alphabeta:depth=4",
        "mcts:iterations=200",
    ] {
        let other = AgentSpec::parse(opponent).unwrap();
        for seed in 0..4 {
            let g = play_game(&rules, &perfect, &other, 0, seed, None);
            assert_eq!(
                g.status,
                Status::Won(Player::South),
                "{opponent}, seed {seed}"
            );
        }
    }
}

#[test]
fn the_perfect_agent_takes_the_fastest_win() {
    let rules = rules_on(&Settings::canonical(), 4, 3, 1);
    let table = solved(&rules);
    let Some(Value::Win(d)) = table.value(&rules, &rules.start()) else {
        panic!("a won start");
    };
    // Against itself the loser delays as long as it can: the game lasts
    // exactly the start's distance.
    let perfect = AgentSpec::parse("perfect").unwrap();
    let g = play_game(&rules, &perfect, &perfect, 0, 3, None);
    assert_eq!(g.status, Status::Won(Player::South));
    assert_eq!(g.plies, d);
}

fn variant_file(
    dir: &std::path::Path,
    name: &str,
    rows: usize,
    holes: usize,
    seeds: u16,
) -> String {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!("name = \"{name}\"\n[board]\nrows = {rows}\nholes = {holes}\nseeds = {seeds}\n"),
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

fn contains_all(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

#[test]
fn katro_solve_prints_the_values_and_writes_a_table_it_can_read() {
    let dir = tempfile::tempdir().unwrap();
    let v = variant_file(dir.path(), "k43", 4, 3, 1);
    let out = dir.path().join("k43.tbl");
    let run = katro_in(&["solve", &v, "--out", out.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    contains_all(
        &run.stdout,
        &[
            "start: win in 25 for player 1",
            "a1     win in 25",
            "positions: 375513 reachable",
            "ply limit: ignored",
            "longest forced win: 47",
        ],
    );
    let table = solve::read_table(&std::fs::read(&out).unwrap()).unwrap();
    let rules = rules_on(&Settings::canonical(), 4, 3, 1);
    assert_eq!(table.len(), 375_513);
    assert_eq!(table.value(&rules, &rules.start()), Some(Value::Win(25)));
    // Its own table it overwrites.
    let again = katro_in(&["solve", &v, "--out", out.to_str().unwrap()], "");
    assert_eq!(again.code, 0, "{}", again.stderr);
}

#[test]
fn katro_solve_refuses_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    // Refused after exploring at most about the memory allowed, naming
    // the positions found.
    let big = variant_file(dir.path(), "k26", 2, 6, 2);
    let run = katro_in(&["solve", &big, "--max-memory", "0.01"], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    contains_all(
        &run.stderr,
        &[
            "reachable positions (found before stopping), which need at least",
            "--max-memory allows 10.24 MiB",
            "upper bound 834451800 positions",
        ],
    );
    let found: u64 = run
        .stderr
        .split("at least ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a count of positions");
    assert!(found > 100_000, "{}", run.stderr);
    assert!(run.stdout.is_empty());

    let small = variant_file(dir.path(), "k22", 2, 2, 1);
    let theirs = dir.path().join("notes.txt");
    std::fs::write(&theirs, "my notes").unwrap();
    let run = katro_in(&["solve", &small, "--out", theirs.to_str().unwrap()], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("notes.txt: the file exists and katro did not write it"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "my notes");

    let run = katro_in(&["solve", &small, "--max-memory", "0"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--max-memory"), "{}", run.stderr);
    let run = katro_in(&["solve", &small, "--max-seconds", "0"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--max-seconds"), "{}", run.stderr);
}

/// Katra Boaoaka's 2×4 with 3 seeds a hole: its upper bound (47,332,350
/// positions) would need about 5.7 GiB, its 72,697 reachable positions
/// fit in 50 MiB.
#[test]
fn katro_solve_solves_a_board_whose_upper_bound_is_over_the_memory_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let preset = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/katra-boaoaka-4x8.toml"
    ))
    .unwrap();
    let mut text = String::new();
    for line in preset.lines() {
        let line = match line.split('=').next().map(str::trim) {
            Some("rows") => "rows = 2",
            Some("holes") => "holes = 4",
            Some("seeds") => "seeds = 3",
            _ => line,
        };
        text.push_str(line);
        text.push('\n');
    }
    let v = dir.path().join("bk243.toml");
    std::fs::write(&v, text).unwrap();
    let run = katro_in(&["solve", v.to_str().unwrap(), "--max-memory", "0.05"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    contains_all(
        &run.stdout,
        &[
            "board: 2×4, 24 seeds",
            "start: loss in 2 for player 1",
            "positions: 72697 reachable from the start (161568 moves); upper bound 47332350",
        ],
    );
}

/// The time cap is kept by the binary's clock through the progress
/// callback: katro-6x6 cannot be solved in half a second, so the solve
/// stops at the limit and says so. (How long it took is not asserted: on a
/// loaded machine that is the machine's, not the solver's.)
#[test]
fn katro_solve_stops_at_max_seconds() {
    let run = katro_in(
        &[
            "solve",
            "katro-6x6",
            "--max-memory",
            "2",
            "--max-seconds",
            "0.5",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("stopped while exploring: ")
            && run.stderr.contains("at the --max-seconds limit of 0.5 s"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

/// A budget above what the machine gives (here a ulimit) is a clean
/// error naming --max-memory, not an abort. The limit leaves room for the
/// exploring threads (glibc reserves 64 MiB of address space for each
/// thread's heap): at 100 MB their small allocations failed before the
/// solver's big ones, and the process aborted.
#[test]
fn katro_solve_reports_memory_the_machine_does_not_give() {
    let dir = tempfile::tempdir().unwrap();
    let big = variant_file(dir.path(), "k26", 2, 6, 2);
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 400000 && exec {} solve {big} --max-memory 100",
            env!("CARGO_BIN_EXE_katro")
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("could not allocate")
            && stderr.contains("--max-memory allows (100.00 GiB)"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn an_experiment_cannot_give_the_perfect_agent_a_board_too_big() {
    let dir = tempfile::tempdir().unwrap();
    let exp = dir.path().join("e.toml");
    std::fs::write(
        &exp,
        "name = \"e\"\nseed = 1\nvariants = [\"katro-6x6\"]\ngames = 2\n\
         [[matchups]]\np1 = \"perfect\"\np2 = \"random\"\n",
    )
    .unwrap();
    let run = katro_in(&["validate", exp.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("matchups[0].p1"), "{}", run.stderr);
    assert!(
        run.stderr.contains("the board is too big for it"),
        "{}",
        run.stderr
    );
}

#[test]
fn solve_family_writes_the_same_table_twice_and_keeps_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fam");
    let out = out.to_str().unwrap();
    // About 1 MiB: only the smallest boards are solved, the rest refused
    // while exploring or not tried.
    let args = ["solve-family", "--out", out, "--max-memory", "0.001"];
    let first = katro_in(&args, "");
    assert_eq!(first.code, 0, "{}", first.stderr);
    let csv = std::fs::read_to_string(format!("{out}/solved.csv")).unwrap();
    let status = crate::common::column(&csv, "status");
    // 6 readings × 2 row counts × 7 hole counts × 4 seed counts.
    assert_eq!(status.len(), 336);
    for s in ["solved", "refused-memory", "not-tried"] {
        assert!(status.iter().any(|t| t == s), "{s}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{out}/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["complete"], true);
    let count = |s: &str| status.iter().filter(|t| *t == s).count();
    assert_eq!(manifest["not_tried"], count("not-tried"));
    assert_eq!(manifest["solved"], count("solved"));
    // A refused row names the positions found and the bytes they need; a
    // board not tried names a board no larger in holes and seeds (same
    // reading and rows) that was refused.
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(csv.as_bytes())
        .records()
        .map(|r| r.unwrap())
        .collect();
    let head = csv::Reader::from_reader(csv.as_bytes())
        .headers()
        .unwrap()
        .clone();
    let at = |name: &str| head.iter().position(|h| h == name).unwrap();
    for r in &rows {
        match &r[at("status")] {
            "refused-memory" => {
                let found: u64 = r[at("positions_reached")].parse().unwrap();
                let bytes: u64 = r[at("memory_bytes_at_least")].parse().unwrap();
                assert!(found > 0 && bytes > 1_073_741);
            }
            "not-tried" => {
                let because = &r[at("not_tried_because")];
                let parts: Vec<&str> = because.split('x').collect();
                assert_eq!(parts[0], &r[at("rows")]);
                assert!(rows.iter().any(|o| o[at("reading")] == r[at("reading")]
                    && o[at("rows")] == *parts[0]
                    && o[at("holes")] == *parts[1]
                    && o[at("seeds")] == *parts[2]
                    && matches!(&o[at("status")], "refused-memory" | "stopped-time")));
                assert!(parts[1].parse::<usize>().unwrap() <= r[at("holes")].parse().unwrap());
                assert!(parts[2].parse::<usize>().unwrap() <= r[at("seeds")].parse().unwrap());
            }
            _ => {}
        }
    }

    // A fresh run elsewhere writes the same table.
    let other = dir.path().join("other");
    let fresh = katro_in(
        &[
            "solve-family",
            "--out",
            other.to_str().unwrap(),
            "--max-memory",
            "0.001",
        ],
        "",
    );
    assert_eq!(fresh.code, 0, "{}", fresh.stderr);
    assert_eq!(
        std::fs::read_to_string(other.join("solved.csv")).unwrap(),
        csv
    );

    // A run cut short (here: its table cut to 40 rows) is resumed from
    // the rows it kept, to the same table. The cut is made by hand, so the
    // folder is made one from before katro's ledger (as the committed
    // results/solved is), whose files are known by their headers: in a
    // folder with a ledger a hand-cut table is a changed one, refused.
    let cut: String = csv.lines().take(41).map(|l| format!("{l}\n")).collect();
    std::fs::write(format!("{out}/solved.csv"), cut).unwrap();
    let ledger = format!("{out}/.katro-files");
    let edited = katro_in(&args, "");
    assert_eq!(edited.code, 2, "{}", edited.stderr);
    assert!(
        edited
            .stderr
            .contains("solved.csv: changed since katro wrote it"),
        "{}",
        edited.stderr
    );
    std::fs::remove_file(&ledger).unwrap();
    let again = katro_in(&args, "");
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(
        std::fs::read_to_string(format!("{out}/solved.csv")).unwrap(),
        csv
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{out}/manifest.json")).unwrap())
            .unwrap();
    let kept = rows[..40]
        .iter()
        .filter(|r| &r[at("status")] != "not-tried")
        .count();
    assert_eq!(manifest["resumed"], kept);
    assert!(kept > 0);

    // Over a complete run it writes nothing: the manifest keeps the
    // command, build and times of the run that made it.
    let before = std::fs::read(format!("{out}/manifest.json")).unwrap();
    let mut marked: serde_json::Value = serde_json::from_slice(&before).unwrap();
    marked["command"] = "the run that made it".into();
    let marked = serde_json::to_string_pretty(&marked).unwrap();
    std::fs::write(format!("{out}/manifest.json"), &marked).unwrap();
    // Edited by hand too: again a folder from before the ledger.
    std::fs::remove_file(&ledger).unwrap();
    let complete = katro_in(&args, "");
    assert_eq!(complete.code, 0, "{}", complete.stderr);
    assert!(
        complete.stdout.contains("already complete") && complete.stdout.contains("nothing written"),
        "{}",
        complete.stdout
    );
    assert_eq!(
        std::fs::read_to_string(format!("{out}/manifest.json")).unwrap(),
        marked
    );
    assert_eq!(
        std::fs::read_to_string(format!("{out}/solved.csv")).unwrap(),
        csv
    );

    std::fs::write(format!("{out}/solved.csv"), "my,own\n").unwrap();
    let run = katro_in(&args, "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not written by `katro solve-family`"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(format!("{out}/solved.csv")).unwrap(),
        "my,own\n"
    );
}

/// A board stopped at the time cap is a row of its own, with the
/// positions found, and the boards no smaller are not tried.
#[test]
fn solve_family_records_boards_stopped_at_the_time_cap() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fam");
    let args = [
        "solve-family",
        "--out",
        out.to_str().unwrap(),
        "--max-memory",
        "0.2",
        "--max-seconds",
        "0.3",
    ];
    let run = katro_in(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let csv = std::fs::read_to_string(out.join("solved.csv")).unwrap();
    let status = crate::common::column(&csv, "status");
    let reached = crate::common::column(&csv, "positions_reached");
    let stopped: Vec<usize> = (0..status.len())
        .filter(|&i| status[i] == "stopped-time")
        .collect();
    assert!(!stopped.is_empty(), "{csv}");
    for i in stopped {
        assert!(reached[i].parse::<u64>().unwrap() > 0);
    }
    assert!(run.stderr.contains("stopped-time after"), "{}", run.stderr);
    // No time in the table.
    assert!(!csv.contains("seconds"));
}

/// `perfect` in an experiment, played by `katro run` on two threads: as
/// player 1 on a board won for player 1 it wins every game.
#[test]
fn the_perfect_agent_plays_in_an_experiment() {
    let dir = tempfile::tempdir().unwrap();
    let v = variant_file(dir.path(), "k43", 4, 3, 1);
    let exp = dir.path().join("e.toml");
    std::fs::write(
        &exp,
        format!(
            "name = \"e\"\nseed = 5\nvariants = [{v:?}]\ngames = 12\n\
             [[matchups]]\np1 = \"perfect\"\np2 = \"mcts:iterations=100\"\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let args = [
        "run",
        exp.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ];
    let run = katro_in(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(crate::common::column(&summary, "games"), ["12"]);
    assert_eq!(crate::common::column(&summary, "p1_wins"), ["12"]);
}
