//! The format modules' tests: bytes snapshots of the CSV files, and the
//! shard, checkpoint and row shapes surviving a round trip.

use super::*;
use crate::agents::AgentSpec;
use crate::engine::{Player, Status};
use crate::experiment::Compare;
use crate::experiment::plan::{Cell, Stop};
use crate::experiment::runner::GameRow;
use crate::experiment::stats::{Aggregate, GameRecord};
use crate::files::GameLine;
use crate::game::play_game;
use crate::rules::{preset, setting_fields};

fn rec(status: Status, plies: u32, cap: [u64; 2], seeds: [u64; 2]) -> GameRecord {
    GameRecord {
        status,
        plies,
        laps: 2 * plies as u64,
        max_laps_in_move: plies as u64 / 2,
        max_relays_in_move: plies as u64 / 3,
        captures: cap,
        seeds_captured: seeds,
        seeds_sown: 5 * plies as u64,
        legal_moves: 3 * plies as u64,
        choice_turns: plies as u64 / 2,
        hash: crate::rng::mix64(plies as u64 ^ cap[0] << 32),
    }
}

#[test]
fn floats_have_fixed_places_and_no_negative_zero() {
    assert_eq!(float(Some(0.5)), "0.500000");
    assert_eq!(float(Some(2.0 / 3.0)), "0.666667");
    assert_eq!(float(Some(-1e-9)), "0.000000");
    assert_eq!(float(Some(-0.25)), "-0.250000");
    assert_eq!(float(None), "");
    assert_eq!(float(Some(f64::NAN)), "");
}

#[test]
fn tiny_p_values_are_not_printed_as_zero() {
    assert_eq!(p_value(Some(0.5)), "0.500000");
    assert_eq!(p_value(Some(0.0001)), "0.000100");
    assert_eq!(p_value(Some(0.0000996)), "9.96e-5");
    assert_eq!(p_value(Some(1.234e-12)), "1.23e-12");
    assert_eq!(p_value(Some(0.0)), "0.000000");
    assert_eq!(p_value(None), "");
}

#[test]
fn a_tiny_p_value_in_comparison_csv_is_not_printed_as_zero() {
    // In comparison.csv: 40 games of lengths 10, 30, 10, … (mean 20,
    // variance 4000/39) against 40 of 25, 45, …: diff 15, se =
    // √(2 · 102.564 / 40) = 2.264554, z = 6.623821, p = erfc(z / √2) =
    // 3.500314e-11 (by hand, Python's math.erfc), once printed 0.000000.
    let lengths = |first: u32| {
        let mut a = Aggregate::new();
        for g in 0..40 {
            a.add(&rec(
                Status::Won(Player::South),
                first + 20 * (g % 2),
                [0, 0],
                [0, 0],
            ));
        }
        a
    };
    let (r4, r6) = (preset("katro-4x4").unwrap(), preset("katro-6x3").unwrap());
    let random = [&AgentSpec::Random, &AgentSpec::Random];
    let cells = [cell(&r4, random, 0, 40), cell(&r6, random, 0, 40)];
    let csv = comparison_csv(&cells, &[lengths(10), lengths(25)], &Compare::default()).unwrap();
    let text = String::from_utf8(csv).unwrap();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    let at = |name: &str| row[COMPARISON_COLUMNS.iter().position(|c| *c == name).unwrap()];
    assert_eq!(at("length_diff"), "15.000000");
    assert_eq!(at("length_p_value"), "3.50e-11");
    assert_eq!(at("length_p_holm"), "3.50e-11");
}

#[test]
fn timestamps_are_utc_dates() {
    assert_eq!(utc_timestamp(0, 0), "1970-01-01T00:00:00.000Z");
    // 2000-02-29 is 11016 days after the epoch: 11016 × 86400.
    assert_eq!(utc_timestamp(951_782_400, 5), "2000-02-29T00:00:00.005Z");
    assert_eq!(
        utc_timestamp(1_700_000_000, 999),
        "2023-11-14T22:13:20.999Z"
    );
}

/// Four games of katro-4x4, random vs greedy, values chosen by hand:
/// lengths 10, 20, 30, 40; South wins twice, North once, one ply limit.
fn fixture() -> (crate::rules::Rules, Aggregate) {
    let rules = preset("katro-4x4").unwrap();
    let mut a = Aggregate::new();
    a.add(&rec(Status::Won(Player::South), 10, [1, 0], [4, 0]));
    a.add(&rec(Status::Won(Player::North), 20, [0, 2], [0, 6]));
    a.add(&rec(Status::Won(Player::South), 30, [3, 1], [9, 2]));
    a.add(&rec(Status::PlyLimit, 40, [2, 2], [5, 5]));
    (rules, a)
}

fn cell<'a>(
    rules: &'a crate::rules::Rules,
    p: [&'a AgentSpec; 2],
    open: u32,
    games: u64,
) -> Cell<'a> {
    Cell {
        rules,
        p1: p[0],
        p2: p[1],
        opening_plies: open,
        stop: Stop::Games(games),
        metrics: None,
        balance_margin: None,
    }
}

/// Two games of 50 plies, both stopped by the ply limit, with the same
/// moves: nothing decided, one distinct game.
fn undecided() -> Aggregate {
    let mut a = Aggregate::new();
    for _ in 0..2 {
        a.add(&rec(Status::PlyLimit, 50, [0, 0], [0, 0]));
    }
    a
}

/// The rule settings of the presets used here after the board keys, as
/// written by hand from the canonical rules (docs/RULES.md).
const SETTING_NAMES: &str = "start,singletons,direction,backward_circuit,relay,\
    capture_trigger,capturing_row,victim,min_victim_seeds,min_victim_seeds_after_empty,\
    empty_landing_refusal,lone_seed,lone_seed_step,step_sowing,game_end,endless_move,\
    ply_limit,lap_limit";
const RULES_DEFAULT: &str = "outermost-non-empty,allowed,forward,reversed,occupied,\
    occupied,innermost-non-empty,innermost-row,1,1,below-minimum,none,always,forward,\
    opponent-empty,undecided,5000,10000000";

#[test]
fn setting_fields_follow_the_settings_and_write_layouts_like_the_rules_string() {
    let rules = crate::rules::parse_variant(
        "t.toml",
        "name = \"t\"\n[board]\nrows = 2\nholes = 3\nlayout = [[1, 3, 0], [0, 1, 12]]\n\
         [rules]\nply_limit = 77\n",
        "t",
    )
    .unwrap();
    let fields = setting_fields(rules.settings());
    let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names.join(","),
        format!("rows,holes,seeds,layout,{SETTING_NAMES}")
    );
    let values: Vec<&str> = fields.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(&values[..4], ["2", "3", "", "1.3.0/0.1.12"]);
    assert_eq!(
        values[names.iter().position(|&n| n == "ply_limit").unwrap()],
        "77"
    );
    assert!(
        rules
            .canonical_string()
            .contains(&format!("layout={}", values[3]))
    );
}

/// summary.csv's row of [`fixture`] on `rules`, random vs greedy, judged
/// against a balance margin of 0.1.
fn fixture_summary_row(rules: &crate::rules::Rules) -> String {
    // By hand: 4 games with 4 move sequences; decided 3, p1 rate 2/3
    // with Wilson [0.207660, 0.938508]
    // (z² = 3.841459: centre (0.666667 + 0.640243) / 2.280486 =
    // 0.573084, half 0.859462 × √(0.074074 + 0.106707) = 0.365424);
    // advantage (2 + 0.5) / 4; balance 1 - 1/4; completion 3/4;
    // lengths mean 25, sd √(1666.67) = 12.909944, p10 → rank 1 → 10,
    // p50 → rank 2 → 20, p90 → rank 4 → 40; laps 200 / 100 plies = 2;
    // longest move 40 / 2 = 20, most relays 40 / 3 = 13; captures 6/4
    // and 5/4; seeds 18/4 and
    // 13/4; branching 300/100 = 3; choice turns (5+10+15+20)/100 = 0.5;
    // sown 500/4 = 125. Random play: an agent share. Against one half,
    // 2 of 3: twice P(X ≤ 1) = 2 · 4/8 = 1. Within 0.1: P(X ≥ 2) at 0.4
    // = 3 · 0.16 · 0.6 + 0.064 = 0.352, P(X ≤ 2) at 0.6 = 1 - 0.216 =
    // 0.784; neither below 0.05, and P(X ≤ 2) at 0.4 = 0.936, P(X ≥ 2) at
    // 0.6 = 0.648, neither below 0.025: undetermined. Mean length
    // 25 ± 1.959964 · 12.909944 / 2 = 25 ± 12.651513.
    format!(
        "katro-4x4,\"{}\",4,4,2,,{RULES_DEFAULT},random,greedy,0,4,4,true,2,1,1,0,0,3,\
         0.666667,0.207660,0.938508,0.625000,0.750000,0.750000,\
         25.000000,12.909944,10,10,20,40,40,2.000000,20,13,\
         1.500000,1.250000,4.500000,3.250000,3.000000,0.500000,125.000000,\
         agent-share,1.000000,0.100000,undetermined,0.352000,0.784000,12.348487,37.651513\n",
        rules.canonical_string()
    )
}

/// summary.csv's row of [`undecided`] on `other`, greedy vs greedy with
/// 4 opening plies.
fn undecided_summary_row(other: &crate::rules::Rules) -> String {
    // Nothing decided: the win rate, its interval, advantage_p1 and
    // balance are empty, completion 0; one distinct game of 2; laps
    // 200 / 100 plies, longest move 25, most relays 50 / 3 = 16,
    // branching 300/100, choice
    // turns 50/100, sown 500/2. No margin: its columns empty, as is the
    // test against one half; the mean length's interval is a point (sd 0).
    format!(
        "katro-6x3,\"{}\",6,3,2,,{RULES_DEFAULT},greedy,greedy,4,2,1,true,0,0,2,0,0,0,\
         ,,,,,0.000000,\
         50.000000,0.000000,50,50,50,50,50,2.000000,25,16,\
         0.000000,0.000000,0.000000,0.000000,3.000000,0.500000,250.000000,\
         agent-share,,,,,,50.000000,50.000000\n",
        other.canonical_string()
    )
}

#[test]
fn summary_bytes_snapshot() {
    let (rules, a) = fixture();
    let other = preset("katro-6x3").unwrap();
    let mut judged = cell(&rules, [&AgentSpec::Random, &AgentSpec::Greedy], 0, 4);
    judged.balance_margin = Some(0.1);
    let cells = [
        judged,
        cell(&other, [&AgentSpec::Greedy, &AgentSpec::Greedy], 4, 2),
    ];
    let got = String::from_utf8(summary_csv(&cells, &[a, undecided()])).unwrap();
    let (first, second) = (fixture_summary_row(&rules), undecided_summary_row(&other));
    let header = with_settings(&summary_column_names(), "rules");
    assert_eq!(got, format!("{header}\n{first}{second}"));
}

/// A file's header, `names` joined, with the board keys and the rule
/// settings after column `after`, as written by hand.
fn with_settings(names: &[&str], after: &str) -> String {
    names.join(",").replacen(
        &format!("{after},"),
        &format!("{after},rows,holes,seeds,layout,{SETTING_NAMES},"),
        1,
    )
}

#[test]
fn the_table_marks_cells_and_prints_their_warnings() {
    let (rules, _) = fixture();
    let cells = [cell(&rules, [&AgentSpec::Greedy, &AgentSpec::Greedy], 4, 2)];
    let table = summary_table(&cells, &[undecided()], None, &[]);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].contains("opening") && lines[0].ends_with("notes"));
    assert!(!lines[0].contains("estimand") && !lines[0].contains("balance"));
    assert!(lines[1].ends_with("repeats, few-decided"), "{table}");
    assert_eq!(
        lines[2],
        "p1 win rate: greedy self-play's share over 4 random opening plies"
    );
    assert!(
        lines[4].starts_with(
            "warning: katro-4x4, greedy vs greedy, 4 opening plies: only 1 distinct game in 2 (50.0%)"
        ),
        "{table}"
    );
    assert!(lines[5].contains("no game of 2 was decided"), "{table}");
}

#[test]
fn the_table_names_what_each_win_rate_estimates_and_its_verdict() {
    let (rules, a) = fixture();
    let mut cells = [
        cell(&rules, [&AgentSpec::Random, &AgentSpec::Greedy], 0, 4),
        cell(&rules, [&AgentSpec::Greedy, &AgentSpec::Greedy], 0, 4),
    ];
    for c in &mut cells {
        c.balance_margin = Some(0.1);
    }
    let table = summary_table(&cells, &[a.clone(), a], None, &[]);
    let lines: Vec<&str> = table.lines().collect();
    let header: Vec<&str> = (lines[0].split("  ").map(str::trim))
        .filter(|h| !h.is_empty())
        .collect();
    let at = |name: &str| header.iter().position(|h| *h == name);
    let rate = at("p1 win rate [95% CI]").unwrap();
    assert_eq!(at("estimand"), Some(rate + 1), "{table}");
    assert_eq!(at("balance ±0.1"), Some(rate + 2), "{table}");
    // Both 2 of 3 decided: undetermined within 0.1 (summary_bytes_snapshot).
    assert!(lines[1].contains(" agent-share  undetermined  "), "{table}");
    assert!(lines[2].contains(" agent-value  undetermined  "), "{table}");
    assert_eq!(
        lines[3],
        "p1 win rate: random vs greedy's share over 0 random opening plies (from the start, the \
         games spread by the agents' own random moves) (1 cell); greedy self-play's value of the \
         start, not a share over openings: with 0 random opening plies the games differ only by \
         the agents' draws among tied best moves (one game if none tie) (1 cell)"
    );
}

#[test]
fn without_openings_the_table_has_no_opening_column() {
    let (rules, a) = fixture();
    // No opening anywhere: no opening column; nothing to warn of but
    // few decided games.
    let cells = [cell(&rules, [&AgentSpec::Greedy, &AgentSpec::Greedy], 0, 2)];
    let table = summary_table(&cells, &[a], None, &[]);
    assert!(!table.lines().next().unwrap().contains("opening"));
    assert!(
        table.lines().nth(1).unwrap().ends_with("  few-decided"),
        "{table}"
    );
    let (_, manifest_cells) = Manifest::describe(&cells, &[undecided()]);
    let kinds: Vec<&str> = manifest_cells[0].warnings.iter().map(|w| w.kind).collect();
    assert_eq!(kinds, ["repeats", "few-decided"]);
    assert_eq!(
        (
            manifest_cells[0].distinct_games,
            manifest_cells[0].distinct_exact
        ),
        (1, true)
    );
}

/// Four games of random play, lengths 10, 10, 40, 40: North wins three,
/// South one.
fn north_wins() -> Aggregate {
    let mut b = Aggregate::new();
    for (s, len) in [
        (Status::Won(Player::North), 10),
        (Status::Won(Player::North), 10),
        (Status::Won(Player::South), 40),
        (Status::Won(Player::North), 40),
    ] {
        b.add(&rec(s, len, [0, 0], [0, 0]));
    }
    b
}

/// Random against random with 3 opening plies on each of `rules`.
fn random_cells<'a>(rules: &[&'a crate::rules::Rules]) -> Vec<Cell<'a>> {
    let random = [&AgentSpec::Random, &AgentSpec::Random];
    rules.iter().map(|r| cell(r, random, 3, 4)).collect()
}

/// comparison.csv of [`fixture`], [`north_wins`] and [`undecided`] on
/// katro-4x4, katro-6x3 and katro-6x6, by hand.
fn comparison_rows() -> String {
    // By hand: win rates among decided games 1/4 against 2/3: diff
    // -0.416667, se = √(0.25·0.75/4 + (2/3)(1/3)/3) = 0.347777,
    // interval ±0.681631, z = 1.198087, p = 0.230884.
    // Advantage 0.25 (scores 0,0,1,0: variance 0.25) against
    // 0.625 (scores 1,0,1,½: mean 0.625, Σx² = 2.25, variance
    // (2.25 - 4·0.390625)/3 = 0.229167); diff -0.375, se =
    // √(0.0625 + 0.057292) = 0.346109, interval ±0.678362, z = 1.083473,
    // p = 0.278599. Lengths: mean 25 (variance 300) against 25
    // (variance 166.67): diff 0, se √(75 + 41.67) = 10.801234, ±21.170031,
    // p = 1.
    // Against a cell with no decided game the win-rate and advantage
    // fields are empty; lengths still compare: 50 (variance 0, 2 games)
    // against 25: diff 25, se √(166.67/4) = 6.454972, ±12.651513,
    // z = 3.872983, p = 0.000108 (0.00010751).
    // Holm: the win-rate and advantage families have one member each,
    // so the adjusted p is the raw one; lengths have two: 0.00010751 ×
    // 2 = 0.000215, and 1 × 1 = 1.
    format!(
        "{}\nrandom,random,3,katro-6x3,katro-4x4,4,4,4,3,0.250000,0.666667,\
         -0.416667,-1.098298,0.264964,0.230884,0.230884,0.250000,0.625000,\
         -0.375000,-1.053362,0.303362,0.278599,0.278599,25.000000,25.000000,\
         0.000000,-21.170031,21.170031,1.000000,1.000000\n\
         random,random,3,katro-6x6,katro-4x4,2,4,0,3,,0.666667,,,,,,,0.625000,,,,,,\
         50.000000,25.000000,25.000000,12.348487,37.651513,0.000108,0.000215\n",
        COMPARISON_COLUMNS.join(",")
    )
}

#[test]
fn comparison_bytes_snapshot() {
    let (rules, a) = fixture();
    let (other, third) = (preset("katro-6x3").unwrap(), preset("katro-6x6").unwrap());
    let cells = random_cells(&[&rules, &other, &third]);
    let got = String::from_utf8(
        comparison_csv(
            &cells,
            &[a.clone(), north_wins(), undecided()],
            &Compare::default(),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(got, comparison_rows());
    assert!(comparison_csv(&cells[..1], &[a], &Compare::default()).is_none());
}

/// The pairs compared: all pairs, later against earlier; a named
/// baseline against every other variant; only the same matchup and
/// opening.
#[test]
fn comparison_pairs_are_of_one_matchup_and_opening() {
    let (rules, _) = fixture();
    let (other, third) = (preset("katro-6x3").unwrap(), preset("katro-6x6").unwrap());
    let cells = random_cells(&[&rules, &other, &third]);
    assert_eq!(
        comparison_pairs(&cells, &Compare::AllPairs),
        [(1, 0), (2, 0), (2, 1)]
    );
    assert_eq!(
        comparison_pairs(&cells, &Compare::Baseline(Some("katro-6x3".into()))),
        [(0, 1), (2, 1)]
    );
    let mut other_opening = cells.clone();
    other_opening[2].opening_plies = 0;
    assert_eq!(
        comparison_pairs(&other_opening, &Compare::AllPairs),
        [(1, 0)]
    );
}

/// One stored game of katro-6x3, cell 1 of `random_cells`: 3 plies, North
/// wins; and games.csv's text of it, moves kept.
fn written_game(cells: &[Cell], other: &crate::rules::Rules) -> (Vec<GameLine>, String) {
    let mut rec1 = rec(Status::Won(Player::North), 3, [0, 1], [0, 2]);
    rec1.laps = 7;
    let rows = [GameRow {
        cell: 1,
        game: 9,
        seed: 12345,
        record: rec1,
        moves: vec![
            crate::engine::Move::sow(0, None),
            crate::engine::Move::sow(other.hole_at(5, 2), None),
            crate::engine::Move::sow(1, None),
        ],
    }];
    let stored: Vec<GameLine> = rows.iter().map(|r| GameLine::of(cells, r)).collect();
    let got = String::from_utf8(games_csv(cells, &stored, true)).unwrap();
    (stored, got)
}

#[test]
fn games_bytes_snapshot() {
    let (rules, other) = (preset("katro-4x4").unwrap(), preset("katro-6x3").unwrap());
    let (_, got) = written_game(&random_cells(&[&rules, &other]), &other);
    assert_eq!(
        got,
        format!(
            "{},moves\nkatro-6x3,6,3,2,,{RULES_DEFAULT},random,random,3,9,12345,2,won,3,0,1,0,2,7,1,1,\
             15,9,1,{:016x},a1 c6 b1\n",
            with_settings(&game_column_names(), "variant"),
            crate::rng::mix64(3)
        )
    );
}

/// Each cell's (variant, p1, p2, opening_plies), as games.csv names it.
fn cell_keys(cells: &[Cell]) -> Vec<(String, String, String, u32)> {
    cells
        .iter()
        .map(|c| {
            (
                c.rules.name().to_string(),
                c.p1.to_string(),
                c.p2.to_string(),
                c.opening_plies,
            )
        })
        .collect()
}

/// Read back, every field of the stored row comes back, the cell found
/// by its place; a bad hash is refused, naming its line.
#[test]
fn games_csv_reads_back() {
    let (rules, other) = (preset("katro-4x4").unwrap(), preset("katro-6x3").unwrap());
    let cells = random_cells(&[&rules, &other]);
    let (stored, got) = written_game(&cells, &other);
    let keys = cell_keys(&cells);
    let keys: Vec<(&str, &str, &str, u32)> = keys
        .iter()
        .map(|(v, a, b, o)| (v.as_str(), a.as_str(), b.as_str(), *o))
        .collect();
    assert_eq!(read_games_csv(got.as_bytes(), &keys).unwrap(), stored);
    let no_moves = games_csv(&cells, &stored, false);
    let back = read_games_csv(&no_moves, &keys).unwrap();
    assert_eq!(back[0].moves, "");
    assert_eq!(back[0].record.hash, stored[0].record.hash);
    let bad = got.replace(&format!("{:016x}", crate::rng::mix64(3)), "12");
    assert_eq!(
        read_games_csv(bad.as_bytes(), &keys),
        Err(FileError::Field {
            line: 2,
            column: "hash",
            error: FieldError::NotHash { text: "12".into() }
        })
    );
}

#[test]
fn rows_survive_storage() {
    let rules = preset("katro-6x6-diagonal").unwrap();
    let cells = [cell(&rules, [&AgentSpec::Random, &AgentSpec::Greedy], 0, 3)];
    for seed in 0..20 {
        let mut moves = Vec::new();
        let record = play_game(
            &rules,
            &AgentSpec::Random,
            &AgentSpec::Greedy,
            0,
            seed,
            Some(&mut moves),
        );
        let row = GameRow {
            cell: 0,
            game: seed,
            seed,
            record,
            moves,
        };
        let stored = GameLine::of(&cells, &row);
        let json = serde_json::to_string(&stored).unwrap();
        let back: GameLine = serde_json::from_str(&json).unwrap();
        assert_eq!(back.to_row(&cells).unwrap(), row);
    }
}

/// A stored game of random play on katro-6x6-diagonal, `cells` its one
/// cell.
fn stored_random_game<'a>(rules: &'a crate::rules::Rules, cells: &[Cell<'a>]) -> GameLine {
    GameLine::of(
        cells,
        &GameRow {
            cell: 0,
            game: 0,
            seed: 0,
            record: play_game(rules, &AgentSpec::Random, &AgentSpec::Random, 0, 1, None),
            moves: vec![],
        },
    )
}

/// A stored row's cell must be one of the run's, and its status and
/// winner a finished game.
#[test]
fn a_stored_row_names_its_cell_and_a_finished_game() {
    let rules = preset("katro-6x6-diagonal").unwrap();
    let cells = [cell(&rules, [&AgentSpec::Random, &AgentSpec::Greedy], 0, 3)];
    let mut bad = stored_random_game(&rules, &cells);
    bad.cell = 4;
    assert_eq!(
        bad.to_row(&cells),
        Err(RowError::NoSuchCell { game: 0, cell: 5 })
    );
    bad.cell = 0;
    let json = won_by_south(&mut bad);
    for (from, to) in [
        ("\"won\",\"winner\":1", "\"ply-limit\",\"winner\":1"),
        ("\"won\",\"winner\":1", "\"won\",\"winner\":3"),
        ("\"won\",\"winner\":1", "\"won\",\"winner\":null"),
        ("\"won\",\"winner\":1", "\"ongoing\",\"winner\":null"),
        ("\"won\"", "\"draw\""),
    ] {
        let err = serde_json::from_str::<GameLine>(&json.replace(from, to)).unwrap_err();
        assert!(err.to_string().contains("no finished game"), "{to}: {err}");
    }
}

/// `line` made a game South won, as JSON.
fn won_by_south(line: &mut GameLine) -> String {
    line.record.status = crate::engine::Status::Won(crate::engine::Player::South);
    serde_json::to_string(line).unwrap()
}

/// The status is the engine's name for it beside the winner's number.
#[test]
fn a_stored_status_is_the_engines_name_beside_the_winner() {
    let rules = preset("katro-6x6-diagonal").unwrap();
    let cells = [cell(&rules, [&AgentSpec::Random, &AgentSpec::Greedy], 0, 3)];
    let mut line = stored_random_game(&rules, &cells);
    let json = won_by_south(&mut line);
    assert!(json.contains("\"status\":\"won\",\"winner\":1,"), "{json}");
    let back: GameLine = serde_json::from_str(&json).unwrap();
    assert_eq!(back, line);
    let plain = json.replace("\"won\",\"winner\":1", "\"ply-limit\",\"winner\":null");
    let back: GameLine = serde_json::from_str(&plain).unwrap();
    assert_eq!(back.record.status, crate::engine::Status::PlyLimit);
}

#[test]
fn the_header_is_read_from_the_first_bytes() {
    let header = ShardHeader {
        format: SHARD_FORMAT.into(),
        run: RunHeader {
            katro_version: "0.1.0".into(),
            katro_build: "src-0123456789abcdef".into(),
            other_builds: vec!["src-fedcba9876543210".into()],
            experiment_hash: "0123456789abcdef".into(),
            name: "exp".into(),
        },
        shard: 2,
        shards: 5,
    };
    let mut text = serde_json::to_string(&header).unwrap();
    text.pop();
    text.push_str(",\"experiment\":{\"text\":\"é,\\\"experiment\\\":\"}}");
    let bytes = text.as_bytes();
    assert_eq!(sniff_shard_header(bytes), Some(header.clone()));
    // Cut in the middle of the two-byte é: still read.
    let cut = text.find('é').unwrap() + 1;
    assert_eq!(sniff_shard_header(&bytes[..cut]), Some(header));
    assert_eq!(sniff_shard_header(b"{\"format\":"), None);
    assert_eq!(sniff_shard_header(b"not json"), None);
}

#[test]
fn a_shard_from_before_build_identities_is_of_no_known_build() {
    // A shard from before build identities: its build is unknown,
    // which is never this build, so it is refused by default.
    let old = b"{\"format\":\"katro-shard-1\",\"katro_version\":\"0.1.0\",\
                \"experiment_hash\":\"0123456789abcdef\",\"name\":\"exp\",\"shard\":1,\
                \"shards\":2,\"experiment\":{}}";
    let h = sniff_shard_header(old).unwrap();
    assert_eq!(h.run.katro_build, UNKNOWN_BUILD);
    assert_ne!(h.run.katro_build, BUILD);
    assert!(h.run.other_builds.is_empty());
}

#[test]
fn other_builds_are_sorted_once_without_this_one() {
    assert!(BUILD.starts_with("src-") && BUILD.len() == 20, "{BUILD}");
    assert_eq!(
        other_builds("src-b", ["src-c", "src-b", "src-a", "src-c"]),
        ["src-a", "src-c"]
    );
    assert!(other_builds("src-b", ["src-b"]).is_empty());
}

/// A lock's owner is written as earlier builds wrote it (keys sorted),
/// and told in words from its text, or from the text itself when that is
/// not a lock.
#[test]
fn lock_owner_bytes_and_words() {
    let o = lock::LockOwner {
        command: vec!["katro".into(), "run".into(), "a b.toml".into()],
        host: "h1".into(),
        pid: 42,
        start_time: "2026-01-02T03:04:05.006Z".into(),
    };
    let json = o.to_json();
    assert_eq!(
        json,
        r#"{"command":["katro","run","a b.toml"],"host":"h1","pid":42,"start_time":"2026-01-02T03:04:05.006Z"}"#
    );
    assert_eq!(
        lock::LockOwner::words(&json),
        "pid 42 on host h1, started 2026-01-02T03:04:05.006Z: katro run a b.toml"
    );
    assert_eq!(
        lock::LockOwner::words("{}"),
        "pid null on host ?, started ?: "
    );
    assert_eq!(
        lock::LockOwner::words(" held \n"),
        "a process whose lock file reads \"held\""
    );
}

/// solved.csv's rows as each status writes them, read back to their
/// board; and which files are solve-family's own.
/// solved.csv's rows of each status, on boards 1 to 4 seeds.
fn solved_rows() -> [solved::SolvedRow; 5] {
    use solved::*;
    let row = |seeds, outcome| SolvedRow {
        key: BoardKey {
            reading: "canonical".into(),
            rules: "a,b".into(),
            rows: 2,
            holes: 3,
            seeds,
        },
        upper_bound: 99,
        outcome,
    };
    [
        row(
            1,
            Outcome::Solved {
                value: "win",
                start_distance: Some(7),
                longest_win: 9,
                positions: 50,
                moves: 120,
                memory_bytes: 4096,
            },
        ),
        row(
            2,
            Outcome::RefusedMemory {
                positions_reached: 30,
                memory_bytes_at_least: 800,
            },
        ),
        row(3, Outcome::RefusedKey),
        row(
            4,
            Outcome::StoppedTime {
                positions_reached: 30,
                positions_settled: Some(12),
            },
        ),
        row(4, Outcome::NotTried { because: (2, 3, 2) }),
    ]
}

/// `solved_rows()` as solved.csv writes them.
const SOLVED_LINES: [&str; 5] = [
    "canonical,\"a,b\",2,3,1,solved,win,7,9,50,120,99,4096,,,,\n",
    "canonical,\"a,b\",2,3,2,refused-memory,,,,,,99,,30,,800,\n",
    "canonical,\"a,b\",2,3,3,refused-key,,,,,,99,,,,,\n",
    "canonical,\"a,b\",2,3,4,stopped-time,,,,,,99,,30,12,,\n",
    "canonical,\"a,b\",2,3,4,not-tried,,,,,,99,,,,,2x3x2\n",
];

/// solved.csv's rows as each status writes them, every one with the
/// header's number of fields.
#[test]
fn solved_rows_bytes_snapshot() {
    use solved::*;
    let lines: Vec<String> = solved_rows().iter().map(SolvedRow::line).collect();
    assert_eq!(lines, SOLVED_LINES);
    let columns = HEADER.trim_end().split(',').count();
    for l in &lines {
        let fields = ::csv::Reader::from_reader(format!("{HEADER}{l}").as_bytes())
            .records()
            .next()
            .unwrap()
            .unwrap()
            .len();
        assert_eq!(fields, columns, "{l}");
    }
}

/// solved.csv's rows read back to their board.
#[test]
fn solved_rows_read_back() {
    use solved::*;
    let lines = SOLVED_LINES;
    let csv = format!("{HEADER}{}", lines.concat());
    let back = read_rows(&csv).unwrap();
    assert_eq!(back.len(), 5);
    let time = BoardTime {
        reading: "canonical".into(),
        rows: 2,
        holes: 3,
        seeds: 2,
        status: "refused-memory".into(),
        seconds: 1.0,
    };
    let matching: Vec<&str> = back
        .iter()
        .filter(|(_, k)| time.is_row(k))
        .map(|(l, _)| *l)
        .collect();
    assert_eq!(matching, [lines[1].trim_end()]);
    assert!(read_rows(&format!("{}{}", OLD_HEADERS[0], lines[0])).is_none());
}

/// Which files are solve-family's own.
#[test]
fn solve_family_files_are_recognised() {
    use solved::*;
    assert!(is_solved_csv(HEADER.as_bytes()) && is_solved_csv(OLD_HEADERS[0].as_bytes()));
    assert!(!is_solved_csv(b"variant,p1,p2\n"));
    assert!(FamilyManifest::is_ours(
        br#"{"boards": [], "max_memory_gib": null, "x": 1}"#
    ));
    assert!(!FamilyManifest::is_ours(br#"{"boards": []}"#));
    assert!(!FamilyManifest::is_ours(br#"[[], 1]"#));
}

/// metrics.csv's writer formats the figures it is handed and computes
/// none: a row is the cell's key, then each asked metric's games, mean and
/// interval as given (empty where the cell does not ask for it), then the
/// pooled figures as given. A cell that records no metrics has no row.
#[test]
fn metrics_csv_writes_the_figures_it_is_given() {
    use crate::experiment::interval::Interval;
    use crate::experiment::metric_estimates::{CellMetrics, MetricEstimate, Pooled};
    use crate::experiment::metrics::Metric;
    use crate::experiment::metrics::plan::{EvalSpec, MetricsPlan};
    use crate::files::metrics_csv::metrics_csv;

    let rules = preset("katro-4x4").unwrap();
    let (r, g) = (AgentSpec::Random, AgentSpec::parse("greedy").unwrap());
    let plan = MetricsPlan {
        metrics: vec![Metric::LeadChange],
        eval: EvalSpec::Ludii,
    };
    let mut with = cell(&rules, [&r, &g], 0, 5);
    with.metrics = Some(&plan);
    let without = cell(&rules, [&g, &r], 0, 5);
    let iv = |e: f64| {
        Some(Interval {
            estimate: e,
            low: e - 0.125,
            high: e + 0.25,
        })
    };
    let given = CellMetrics {
        eval: "made-up".into(),
        games: 5,
        metrics: vec![Some(MetricEstimate {
            games: 4,
            mean: Some(0.5),
            interval: iv(0.5),
        })],
        pooled: Pooled {
            lead_change: Some(0.75),
            positional_repetition: None,
            board_coverage: Some(0.375),
            decisiveness_moves: None,
            outcome_uniformity: iv(1.0),
            ludii_outcome_uniformity: None,
            ludii_balance: iv(2.0),
            ludii_duration_turns_std_dev: None,
        },
    };
    let bytes = metrics_csv(&[with, cell(&rules, [&g, &r], 0, 5)], &[Some(given), None]).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let row = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(lines[1].as_bytes())
        .records()
        .next()
        .unwrap()
        .unwrap();
    let field = |name: &str| {
        let i = header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{name}"));
        row[i].to_string()
    };
    assert_eq!(field("eval"), "made-up");
    assert_eq!(field("games"), "5");
    assert_eq!(field("lead_change_games"), "4");
    assert_eq!(field("lead_change"), "0.500000");
    assert_eq!(field("lead_change_low"), "0.375000");
    assert_eq!(field("lead_change_high"), "0.750000");
    assert_eq!(field("lead_change_pooled"), "0.750000");
    assert_eq!(field("positional_repetition_pooled"), "");
    assert_eq!(field("outcome_uniformity_high"), "1.250000");
    assert_eq!(field("ludii_balance_low"), "1.875000");
    assert_eq!(field("ludii_duration_turns_std_dev"), "");
    // No cell asks for a metric: no file.
    assert_eq!(metrics_csv(&[without], &[None]), None);
}

/// summary.csv reads back through its one reader as written: the key,
/// the counts and the figures; and a file that does not read names the
/// line and the problem.
#[test]
fn summary_csv_reads_back_through_its_one_reader() {
    use crate::files::summary::{SummaryLineProblem, read_summary};
    let (rules, a) = fixture();
    let (r, g) = (AgentSpec::Random, AgentSpec::parse("greedy").unwrap());
    let bytes = summary_csv(&[cell(&rules, [&r, &g], 4, 4)], std::slice::from_ref(&a));
    let rows = read_summary(&bytes).unwrap();
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(
        (row.line, row.variant.as_str(), row.p1.as_str()),
        (2, "katro-4x4", "random")
    );
    assert_eq!(row.rules, rules.canonical_string());
    assert_eq!((row.opening_plies, row.games, row.decided), (4, 4, 3));
    assert_eq!((row.p1_wins, row.p2_wins), (2, 1));
    assert_eq!(row.ply_limit, rules.settings().ply_limit as i64);
    let text = String::from_utf8(bytes.clone()).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let row_text = text.lines().nth(1).unwrap();
    let field = |name: &str| {
        let rec = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(row_text.as_bytes())
            .records()
            .next()
            .unwrap()
            .unwrap();
        rec[at(name)].to_string()
    };
    assert_eq!(row.p1_win_rate, field("p1_win_rate"));
    assert_eq!(row.length_mean, field("length_mean"));

    let edit = |column: &str, to: &str| {
        let mut rec: Vec<String> = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(row_text.as_bytes())
            .records()
            .next()
            .unwrap()
            .unwrap()
            .iter()
            .map(str::to_string)
            .collect();
        rec[at(column)] = to.to_string();
        let mut w = ::csv::Writer::from_writer(Vec::new());
        w.write_record(&header).unwrap();
        w.write_record(&rec).unwrap();
        read_summary(&w.into_inner().unwrap()).unwrap_err()
    };
    let e = edit("games", "four");
    assert_eq!(e.line, 2);
    assert!(
        matches!(
            e.problem,
            SummaryLineProblem::NotInteger {
                column: "games",
                ..
            }
        ),
        "{e}"
    );
    let e = edit("p1_wins", "9");
    assert_eq!(
        e.problem,
        SummaryLineProblem::WinsOverGames { wins: 10, games: 4 }
    );
    let no_games = text.replacen("games,", "played,", 1);
    let e = read_summary(no_games.as_bytes()).unwrap_err();
    assert_eq!(
        (e.line, e.problem),
        (1, SummaryLineProblem::NoColumn { column: "games" })
    );
}
