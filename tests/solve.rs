//! The solver (`katro::solve`, `katro solve`) checked: against an
//! independent brute-force search on small boards under every value of
//! every rules setting and every preset's reading; every value the best of
//! its moves over whole tables; the perfect agent winning every game from
//! a won start; and the command's output, refusals and files.

use katro::agents::AgentSpec;
use katro::engine::{Player, Status};
use katro::rules::{Allowed, BOARD_SETTINGS, PRESETS, Rules, SETTINGS, Settings, preset};
use katro::runner::play_game;
use katro::solve::{self, Table, Value, brute, move_values};

mod common;
use common::katro_in;

fn rules_on(base: &Settings, rows: usize, holes: usize, seeds: u16) -> Rules {
    let mut s = base.clone();
    s.rows = rows;
    s.holes = holes;
    s.seeds = Some(seeds);
    s.layout = None;
    Rules::new("test".into(), String::new(), String::new(), s).expect("valid settings")
}

fn solved(rules: &Rules) -> Table {
    solve::solve(rules, &mut |_, _, _| {}).expect("a small board")
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
fn values_to_try(info: &katro::rules::SettingInfo) -> Vec<i128> {
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

fn default_choice(info: &katro::rules::SettingInfo) -> i128 {
    match (info.allowed, info.default) {
        (Allowed::Values(names), Some(katro::rules::Value::Name(n))) => names
            .iter()
            .position(|x| *x == n)
            .expect("default among names")
            as i128,
        (_, Some(katro::rules::Value::Int(v))) => v,
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

#[test]
fn katro_solve_prints_the_values_and_writes_a_table_it_can_read() {
    let dir = tempfile::tempdir().unwrap();
    let v = variant_file(dir.path(), "k43", 4, 3, 1);
    let out = dir.path().join("k43.tbl");
    let run = katro_in(&["solve", &v, "--out", out.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for needle in [
        "start: win in 25 for player 1",
        "a1     win in 25",
        "positions: 375513 reachable",
        "ply limit: ignored",
        "longest forced win: 47",
    ] {
        assert!(run.stdout.contains(needle), "{needle}: {}", run.stdout);
    }
    let table = solve::read_table(&std::fs::read(&out).unwrap()).unwrap();
    let rules = rules_on(&Settings::canonical(), 4, 3, 1);
    assert_eq!(table.len(), 375_513);
    assert_eq!(table.value(&rules, &rules.start()), Some(Value::Win(25)));
    // Its own table it overwrites.
    let again = katro_in(&["solve", &v, "--out", out.to_str().unwrap()], "");
    assert_eq!(again.code, 0, "{}", again.stderr);
}

#[test]
fn katro_solve_refuses_bad_requests_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let big = variant_file(dir.path(), "k26", 2, 6, 2);
    let run = katro_in(&["solve", &big], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("834451800 positions"), "{}", run.stderr);
    assert!(run.stderr.contains("GiB"), "{}", run.stderr);
    assert!(run.stdout.is_empty());

    let small = variant_file(dir.path(), "k22", 2, 2, 1);
    let theirs = dir.path().join("notes.txt");
    std::fs::write(&theirs, "my notes").unwrap();
    let run = katro_in(&["solve", &small, "--out", theirs.to_str().unwrap()], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not a table katro wrote"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "my notes");

    let run = katro_in(&["solve", &small, "--max-memory", "0"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--max-memory"), "{}", run.stderr);
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
    assert!(run.stderr.contains("too big to solve"), "{}", run.stderr);
}

#[test]
fn solve_family_writes_the_same_table_twice_and_keeps_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fam");
    let out = out.to_str().unwrap();
    // About 1 MiB: only the smallest boards are solved, the rest refused.
    let args = ["solve-family", "--out", out, "--max-memory", "0.001"];
    let first = katro_in(&args, "");
    assert_eq!(first.code, 0, "{}", first.stderr);
    let csv = std::fs::read_to_string(format!("{out}/solved.csv")).unwrap();
    let status = common::column(&csv, "status");
    // 6 readings × 2 row counts × 7 hole counts × 4 seed counts.
    assert_eq!(status.len(), 336);
    assert!(status.iter().any(|s| s == "solved") && status.iter().any(|s| s == "refused"));
    let again = katro_in(&args, "");
    assert_eq!(again.code, 0, "{}", again.stderr);
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
    assert_eq!(common::column(&summary, "games"), ["12"]);
    assert_eq!(common::column(&summary, "p1_wins"), ["12"]);
}
