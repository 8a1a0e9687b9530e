//! The engine against the plain reference implementation of
//! `crates/reference/src/` (`katro_reference`, compared by
//! `katro_reference::compare`), move by move, on random games from the start and
//! from random positions, for every preset and for custom variants that
//! between them use every value of every setting.
//!
//! After every move both must agree on the legal moves (in order), the
//! board, the player to move, the plies, the fixed directions, the status
//! and the move report. The first disagreement fails the test with the full
//! position in notation.
//!
//! `KATRO_DIFF_SCALE=N` multiplies the number of games (default 1), for long
//! hunts in release mode: `KATRO_DIFF_SCALE=50 cargo test --release --test
//! differential -- --nocapture`.

use std::collections::BTreeMap;

use katro_core::engine::{Move, MoveEnd, Silent};
use katro_core::rules::{
    self, BackwardCircuit, DirectionRule, EmptyLandingRefusal, GameEnd, LoneSeedStep, Rules,
    Settings, StepSowing, parse_variant,
};
use katro_reference::Reference;
use katro_reference::compare::{Tally, run_variant};

/// Custom variants: together with the presets, every value of every setting
/// appears at least once, on boards from 2×3 to 8×16. Lap limits are low
/// because the reference's cycle detection is slow on long moves.
const CUSTOM: &[(&str, &str)] = &[
    (
        // Wikipedia's reading with limits the reference can afford: its
        // random games run to thousands of plies and some moves cycle for
        // very long.
        "wikipedia-short",
        r#"
[board]
rows = 6
holes = 6
seeds = 2
[rules]
direction = "each-move"
capture_trigger = "empty"
ply_limit = 600
lap_limit = 20000
"#,
    ),
    (
        "any-start-outer-relay-4x6",
        r#"
[board]
rows = 4
holes = 6
seeds = 2
[rules]
start = "any"
singletons = "last-resort"
direction = "once-per-game"
relay = "outer-row"
capture_trigger = "either"
capturing_row = "inner"
victim = "whole-column"
min_victim_seeds = 2
lap_limit = 20000
"#,
    ),
    (
        "no-relay-forbidden-6x6",
        r#"
[board]
rows = 6
holes = 6
seeds = 3
[rules]
singletons = "forbidden"
direction = "each-move"
relay = "never"
victim = "column"
lone_seed = "straight"
lap_limit = 20000
"#,
    ),
    (
        "innermost-start-8x4",
        r#"
[board]
rows = 8
holes = 4
seeds = 2
[rules]
start = "innermost-non-empty"
direction = "each-move"
capture_trigger = "either"
capturing_row = "inner"
victim = "column"
min_victim_seeds_after_empty = 2
lone_seed = "diagonal"
lap_limit = 20000
"#,
    ),
    (
        "mover-loses-2x3",
        r#"
[board]
rows = 2
holes = 3
seeds = 2
[rules]
endless_move = "mover-loses"
lap_limit = 20000
"#,
    ),
    (
        "layout-4x2",
        r#"
[board]
rows = 4
holes = 2
layout = [[3, 0], [1, 2], [2, 1], [0, 3]]
[rules]
direction = "once-per-game"
capture_trigger = "empty"
lone_seed = "straight"
endless_move = "mover-loses"
lap_limit = 20000
"#,
    ),
    (
        "lap-limit-3-6x6",
        r#"
[board]
rows = 6
holes = 6
seeds = 2
[rules]
lap_limit = 3
"#,
    ),
    (
        "ply-limit-25-4x4",
        r#"
[board]
rows = 4
holes = 4
seeds = 2
[rules]
direction = "each-move"
ply_limit = 25
lap_limit = 20000
"#,
    ),
    (
        "diagonal-once-8x16",
        r#"
[board]
rows = 8
holes = 16
seeds = 1
[rules]
singletons = "last-resort"
direction = "once-per-game"
victim = "whole-column"
min_victim_seeds = 2
lone_seed = "diagonal"
lap_limit = 20000
"#,
    ),
    (
        "straight-once-6x6",
        r#"
[board]
rows = 6
holes = 6
seeds = 2
[rules]
direction = "once-per-game"
relay = "outer-row"
lone_seed = "straight"
min_victim_seeds_after_empty = 3
lap_limit = 20000
"#,
    ),
    (
        // Laps longer than the circuit, so sowing wraps past its start hole.
        "many-seeds-4x3",
        r#"
[board]
rows = 4
holes = 3
seeds = 7
[rules]
start = "any"
direction = "each-move"
capture_trigger = "either"
victim = "whole-column"
min_victim_seeds_after_empty = 3
lap_limit = 20000
"#,
    ),
    (
        "empty-trigger-2x16",
        r#"
[board]
rows = 2
holes = 16
seeds = 3
[rules]
direction = "each-move"
capture_trigger = "empty"
lap_limit = 20000
"#,
    ),
    // The five settings of issue 8. Mirrored circuits differ from reversed
    // ones only with three or more rows a player.
    (
        "mirrored-each-6x6",
        r#"
[board]
rows = 6
holes = 6
seeds = 2
[rules]
direction = "each-move"
backward_circuit = "mirrored"
lap_limit = 20000
"#,
    ),
    (
        "mirrored-once-8x5",
        r#"
[board]
rows = 8
holes = 5
seeds = 2
[rules]
start = "any"
direction = "once-per-game"
backward_circuit = "mirrored"
capture_trigger = "either"
capturing_row = "inner"
victim = "whole-column"
lap_limit = 20000
"#,
    ),
    (
        "mirrored-play-out-6x3",
        r#"
[board]
rows = 6
holes = 3
seeds = 2
[rules]
direction = "each-move"
backward_circuit = "mirrored"
game_end = "play-out"
lap_limit = 20000
"#,
    ),
    // all-ones: with one seed a hole, columns of ones are common.
    (
        "all-ones-innermost-empty-4x5",
        r#"
[board]
rows = 4
holes = 5
seeds = 1
[rules]
capture_trigger = "empty"
empty_landing_refusal = "all-ones"
lone_seed = "straight"
lap_limit = 20000
"#,
    ),
    (
        "all-ones-innermost-either-6x6",
        r#"
[board]
rows = 6
holes = 6
seeds = 1
[rules]
capture_trigger = "either"
empty_landing_refusal = "all-ones"
lone_seed = "diagonal"
lone_seed_step = "no-failed-capture"
lap_limit = 20000
"#,
    ),
    (
        "all-ones-column-either-6x4",
        r#"
[board]
rows = 6
holes = 4
seeds = 1
[rules]
direction = "each-move"
backward_circuit = "mirrored"
capture_trigger = "either"
capturing_row = "inner"
victim = "column"
empty_landing_refusal = "all-ones"
lone_seed = "diagonal"
lap_limit = 20000
"#,
    ),
    (
        "all-ones-column-empty-4x6",
        r#"
[board]
rows = 4
holes = 6
seeds = 1
[rules]
start = "any"
direction = "once-per-game"
capture_trigger = "empty"
capturing_row = "inner"
victim = "column"
empty_landing_refusal = "all-ones"
lap_limit = 20000
"#,
    ),
    (
        "all-ones-whole-empty-6x5",
        r#"
[board]
rows = 6
holes = 5
seeds = 1
[rules]
capture_trigger = "empty"
victim = "whole-column"
empty_landing_refusal = "all-ones"
lone_seed = "straight"
lone_seed_step = "no-failed-capture"
step_sowing = "chosen"
lap_limit = 20000
"#,
    ),
    (
        "all-ones-whole-either-4x4",
        r#"
[board]
rows = 4
holes = 4
seeds = 1
[rules]
start = "any"
capture_trigger = "either"
capturing_row = "inner"
victim = "whole-column"
empty_landing_refusal = "all-ones"
lone_seed = "straight"
step_sowing = "chosen"
lap_limit = 20000
"#,
    ),
    // Lone seeds: small boards, one seed a hole.
    (
        "ludii-small-6x3",
        r#"
[board]
rows = 6
holes = 3
seeds = 1
[rules]
direction = "each-move"
backward_circuit = "mirrored"
capturing_row = "inner"
victim = "column"
lone_seed = "straight"
lone_seed_step = "no-failed-capture"
step_sowing = "chosen"
lap_limit = 20000
"#,
    ),
    (
        "chosen-diagonal-once-4x4",
        r#"
[board]
rows = 4
holes = 4
seeds = 1
[rules]
direction = "once-per-game"
lone_seed = "diagonal"
lone_seed_step = "no-failed-capture"
step_sowing = "chosen"
lap_limit = 20000
"#,
    ),
    (
        "chosen-diagonal-mirrored-8x3",
        r#"
[board]
rows = 8
holes = 3
seeds = 1
[rules]
direction = "once-per-game"
backward_circuit = "mirrored"
capturing_row = "inner"
lone_seed = "diagonal"
step_sowing = "chosen"
lap_limit = 20000
"#,
    ),
    (
        "no-failed-capture-forward-6x4",
        r#"
[board]
rows = 6
holes = 4
seeds = 1
[rules]
direction = "once-per-game"
lone_seed = "diagonal"
lone_seed_step = "no-failed-capture"
lap_limit = 20000
"#,
    ),
    (
        "chosen-straight-play-out-4x3",
        r#"
[board]
rows = 4
holes = 3
seeds = 1
[rules]
direction = "each-move"
capture_trigger = "either"
lone_seed = "straight"
step_sowing = "chosen"
game_end = "play-out"
lap_limit = 20000
"#,
    ),
    (
        "play-out-4x4",
        r#"
[board]
rows = 4
holes = 4
seeds = 2
[rules]
game_end = "play-out"
lap_limit = 20000
"#,
    ),
];

/// Presets too slow for the reference as shipped; their stand-in above.
const SKIPPED_PRESETS: &[(&str, &str)] = &[("katro-wikipedia", "wikipedia-short")];

fn scale() -> u64 {
    std::env::var("KATRO_DIFF_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn report(name: &str, t: &Tally) {
    println!(
        "{name}: {} games, {} moves, {} laps, {} captures, {} lone-seed steps, {} steps \
         withheld, {} continuations, {} mirrored backward moves, {} all-ones refusals, {} \
         moves played out past an empty opponent; move ends {:?}; game ends {:?}",
        t.games,
        t.moves,
        t.laps,
        t.captures,
        t.steps,
        t.withheld_steps,
        t.continuations,
        t.mirrored_backward,
        t.all_ones_refusals,
        t.played_out,
        t.ends,
        t.statuses,
    );
}

/// Runs every variant, prints what each exercised, and fails on the first
/// disagreement. Returns the total and each variant's tally.
fn check(variants: &[Rules], games: u64, max_plies: u64) -> (Tally, BTreeMap<String, Tally>) {
    let mut all = Tally::default();
    let mut each = BTreeMap::new();
    for rules in variants {
        let seed = katro_core::rng::name_hash(rules.name());
        match run_variant(rules, games, max_plies, seed) {
            Ok(t) => {
                report(rules.name(), &t);
                all.add(&t);
                each.insert(rules.name().to_string(), t);
            }
            Err(e) => panic!("engine and reference disagree\n{e}"),
        }
    }
    (all, each)
}

/// Fails unless the named variant's games reached the feature `what`
/// counts: a comparison that never met a rule proves nothing about it.
fn reached(each: &BTreeMap<String, Tally>, name: &str, what: &str, count: fn(&Tally) -> u64) {
    let t = each
        .get(name)
        .unwrap_or_else(|| panic!("no variant {name} was played"));
    assert!(
        count(t) > 0,
        "{name}: no {what} in its games: the variant no longer exercises it"
    );
}

#[test]
fn engine_matches_reference_on_every_preset() {
    let presets: Vec<Rules> = rules::preset_names()
        .into_iter()
        .filter(|name| !SKIPPED_PRESETS.iter().any(|(n, _)| n == name))
        .map(|name| rules::preset(name).expect("listed presets exist"))
        .collect();
    let (all, each) = check(&presets, 40 * scale(), 400);
    // A harness that compared nothing would fail these.
    assert!(
        all.moves > 1000 && all.captures > 0,
        "too little was played"
    );
    assert!(all.steps > 0, "no lone-seed step was compared");
    // The Ludii readings of issue 8, each met in its preset's games.
    reached(&each, "katro-ludii", "continuation", |t| t.continuations);
    reached(&each, "katro-ludii", "withheld step", |t| t.withheld_steps);
    reached(&each, "katro-ludii", "mirrored backward move", |t| {
        t.mirrored_backward
    });
    reached(&each, "katra-boaoaka-ludii", "all-ones refusal", |t| {
        t.all_ones_refusals
    });
    for name in ["katro-6x6", "katro-ludii", "katra-boaoaka-4x8"] {
        reached(&each, name, "opponent-empty end", |t| {
            t.ends.get("opponent-empty").copied().unwrap_or(0)
        });
    }
    // Ludii's Katra Boaoaka plays out the move that takes the last seed
    // (RULES.md §9, §11).
    reached(&each, "katra-boaoaka-ludii", "played-out move", |t| {
        t.played_out
    });
}

#[test]
fn engine_matches_reference_on_custom_variants() {
    let variants: Vec<Rules> = CUSTOM
        .iter()
        .map(|(name, text)| {
            parse_variant(&format!("{name}.toml"), text, name)
                .unwrap_or_else(|e| panic!("custom variant {name} is invalid: {e}"))
        })
        .collect();
    let (all, each) = check(&variants, 25 * scale(), 300);
    // Every way a move or a game can end must have been compared.
    for end in [
        MoveEnd::EmptyHole,
        MoveEnd::NoRelay,
        MoveEnd::Step,
        MoveEnd::Continues,
        MoveEnd::OpponentEmpty,
        MoveEnd::Endless,
        MoveEnd::LapLimit,
    ] {
        assert!(
            all.ends.contains_key(end.name()),
            "no move ended with {}: the custom variants no longer cover it",
            end.name()
        );
    }
    for status in ["won", "ply-limit", "endless-move", "lap-limit"] {
        assert!(
            all.statuses.contains_key(status),
            "no game ended with status {status}"
        );
    }
    // Each new setting value where it matters, in the variants written
    // for it.
    let mirrored = |t: &Tally| t.mirrored_backward;
    reached(
        &each,
        "mirrored-each-6x6",
        "mirrored backward move",
        mirrored,
    );
    reached(
        &each,
        "mirrored-once-8x5",
        "mirrored backward move",
        mirrored,
    );
    reached(
        &each,
        "mirrored-play-out-6x3",
        "mirrored backward move",
        mirrored,
    );
    reached(
        &each,
        "chosen-diagonal-mirrored-8x3",
        "mirrored backward move",
        mirrored,
    );
    let refusals = |t: &Tally| t.all_ones_refusals;
    for name in [
        "all-ones-innermost-empty-4x5",
        "all-ones-innermost-either-6x6",
        "all-ones-column-either-6x4",
        "all-ones-column-empty-4x6",
        "all-ones-whole-empty-6x5",
        "all-ones-whole-either-4x4",
    ] {
        reached(&each, name, "all-ones refusal", refusals);
    }
    let withheld = |t: &Tally| t.withheld_steps;
    let continued = |t: &Tally| t.continuations;
    let steps = |t: &Tally| t.steps;
    for name in [
        "all-ones-innermost-either-6x6",
        "ludii-small-6x3",
        "chosen-diagonal-once-4x4",
        "no-failed-capture-forward-6x4",
    ] {
        reached(&each, name, "withheld step", withheld);
        reached(&each, name, "lone-seed step", steps);
    }
    for name in [
        "all-ones-whole-empty-6x5",
        "all-ones-whole-either-4x4",
        "ludii-small-6x3",
        "chosen-diagonal-once-4x4",
        "chosen-diagonal-mirrored-8x3",
        "chosen-straight-play-out-4x3",
    ] {
        reached(&each, name, "continuation", continued);
    }
    let played_out = |t: &Tally| t.played_out;
    for name in [
        "mirrored-play-out-6x3",
        "chosen-straight-play-out-4x3",
        "play-out-4x4",
    ] {
        reached(
            &each,
            name,
            "move played on past an empty opponent",
            played_out,
        );
    }
}

/// Between them the presets and the custom variants use every value of
/// the five settings of issue 8 (and the tests above check that each is
/// reached in play).
#[test]
fn every_value_of_the_new_settings_is_compared() {
    let mut all: Vec<Settings> = rules::preset_names()
        .into_iter()
        .map(|name| {
            rules::preset(name)
                .expect("listed presets exist")
                .settings()
                .clone()
        })
        .collect();
    for (name, text) in CUSTOM {
        all.push(
            parse_variant("custom.toml", text, name)
                .expect("valid")
                .settings()
                .clone(),
        );
    }
    let has = |f: &dyn Fn(&Settings) -> bool| all.iter().any(f);
    assert!(has(&|s| s.game_end == GameEnd::OpponentEmpty));
    assert!(has(&|s| s.game_end == GameEnd::PlayOut));
    assert!(has(&|s| s.backward_circuit == BackwardCircuit::Reversed
        && s.direction != DirectionRule::Forward
        && s.rows >= 6));
    assert!(has(&|s| s.backward_circuit == BackwardCircuit::Mirrored
        && s.direction == DirectionRule::EachMove
        && s.rows == 6));
    assert!(has(&|s| s.backward_circuit == BackwardCircuit::Mirrored
        && s.direction == DirectionRule::OncePerGame
        && s.rows == 8));
    assert!(has(
        &|s| s.empty_landing_refusal == EmptyLandingRefusal::BelowMinimum
    ));
    assert!(has(
        &|s| s.empty_landing_refusal == EmptyLandingRefusal::AllOnes
    ));
    assert!(has(&|s| s.lone_seed_step == LoneSeedStep::Always));
    assert!(has(&|s| s.lone_seed_step == LoneSeedStep::NoFailedCapture));
    assert!(has(&|s| s.step_sowing == StepSowing::Forward));
    assert!(has(&|s| s.step_sowing == StepSowing::Chosen));
}

/// Every preset skipped above has a stand-in with the same rules but lower
/// limits, so no preset's rules go unchecked.
#[test]
fn skipped_presets_have_stand_ins() {
    for (preset, stand_in) in SKIPPED_PRESETS {
        let shipped = rules::preset(preset).expect("skipped preset exists");
        let (_, text) = CUSTOM
            .iter()
            .find(|(n, _)| n == stand_in)
            .expect("stand-in exists");
        let custom = parse_variant("stand-in", text, stand_in).expect("stand-in parses");
        let mut a = shipped.settings().clone();
        let b = custom.settings();
        a.ply_limit = b.ply_limit;
        a.lap_limit = b.lap_limit;
        assert_eq!(&a, b, "{stand_in} must differ from {preset} only in limits");
    }
}

/// A board printed as in RULES.md §13 (row R on top, no letters) as the
/// reference's rows, row 1 first.
fn printed_board(text: &str) -> Vec<Vec<u32>> {
    let mut rows: Vec<Vec<u32>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect();
    rows.reverse();
    rows
}

/// The reference is only a check if it is right: it must play the worked
/// examples of RULES.md §13, exactly (boards copied from RULES.md; the
/// expected boards of examples A, B and C worked out by hand from the
/// RULES.md §13's own account of each move).
#[test]
fn reference_plays_the_worked_examples() {
    let rules = rules::preset("katro-6x6").expect("katro-6x6 exists");
    let reference = Reference::new(rules.settings());
    let c1 = Move::sow(rules.hole_at(0, 2), None);
    let f1 = Move::sow(rules.hole_at(0, 5), None);

    // Opening: South plays c1 from the start.
    let mut pos = reference.start();
    let rep = reference.play(&mut pos, c1);
    assert_eq!(
        pos.board,
        printed_board(
            "2 2 2 2 2 2
             2 2 2 2 2 2
             2 0 2 2 2 2
             3 0 3 3 3 3
             3 0 3 3 1 4
             0 3 1 0 1 4"
        )
    );
    // Laps (RULES.md §13): c1, relays from e1, e2 and b2, the capture at b3,
    // relays from a1 and d1: 7 laps, one capture of b4's 2 seeds.
    assert_eq!((rep.laps, rep.captures, rep.seeds_captured), (7, 1, 2));
    assert_eq!(rep.end, katro_core::engine::MoveEnd::EmptyHole);

    let example = |board: &str, expected: &str| {
        let mut pos = reference.start();
        pos.board = printed_board(board);
        reference.play(&mut pos, f1);
        assert_eq!(pos.board, printed_board(expected), "from\n{board}");
    };
    // A: f4 is empty, so no capture; relays from f2 and d2, ends in b2.
    example(
        "1 0 0 0 0 1
         0 0 0 0 0 3
         0 2 0 0 0 0
         0 0 0 0 0 0
         0 0 0 1 0 1
         0 0 0 0 0 1",
        "1 0 0 0 0 1
         0 0 0 0 0 3
         0 2 0 0 0 0
         0 0 0 0 0 0
         0 1 1 0 1 0
         0 0 0 0 0 0",
    );
    // B: North's row 4 is empty, so f2 takes f5's 3 and sows 5 from e2.
    example(
        "1 0 0 0 0 1
         0 0 0 0 0 3
         0 0 0 0 0 0
         0 0 0 0 0 0
         0 0 0 1 0 1
         0 0 0 0 0 1",
        "1 0 0 0 0 1
         0 0 0 0 0 0
         0 0 0 0 0 0
         0 0 0 0 0 0
         1 1 1 2 1 0
         0 0 0 0 0 0",
    );
    // C: as B with a seed in a3, so row 3 is South's innermost: as A.
    example(
        "1 0 0 0 0 1
         0 0 0 0 0 3
         0 0 0 0 0 0
         1 0 0 0 0 0
         0 0 0 1 0 1
         0 0 0 0 0 1",
        "1 0 0 0 0 1
         0 0 0 0 0 3
         0 0 0 0 0 0
         1 0 0 0 0 0
         0 1 1 0 1 0
         0 0 0 0 0 0",
    );
}

/// The smallest case of the engine bug the differential test found: a
/// relay cycle that repeats after 5 laps, under a lap limit of 30.
/// Worked by hand from RULES.md: South a1=1 b1=2, North a2=1; South plays
/// a1. Lap 1 sows b1 (3), no victim in b2: relay 3 a1 b1 a1 (lap 2); a1
/// held 1, a2 is occupied: capture 1 + 2 (lap 3) b1 a1 b1; North is empty
/// now, so b1 (3) relays: a1 b1 a1 (lap 4), a1 (3) relays: b1 a1 b1 (lap 5)
/// and b1 holds 3 with a1 at 1: the state that started lap 4 again. The
/// move is endless (RULES.md §8): the lap limit is only a last resort.
#[test]
fn short_relay_cycle_is_endless_not_lap_limit() {
    // Played out: under the default game_end the capture of a2, North's
    // only seed, would end the move and the game there.
    let text = "[board]\nrows = 2\nholes = 2\nlayout = [[1, 2], [1, 0]]\n[rules]\n\
                game_end = \"play-out\"\nlap_limit = 30\n";
    let rules = parse_variant("tiny.toml", text, "tiny").expect("valid variant");
    let a1 = Move::sow(rules.hole_at(0, 0), None);

    let reference = Reference::new(rules.settings());
    let mut rpos = reference.start();
    let rrep = reference.play(&mut rpos, a1);
    assert_eq!(
        (rrep.laps, rrep.captures, rrep.end),
        (5, 1, MoveEnd::Endless)
    );
    assert_eq!(reference.status(&rpos), katro_core::Status::EndlessMove);

    let mut epos = rules.start();
    let erep = rules.play_unchecked(&mut epos, a1, &mut Silent);
    assert_eq!(
        (rules.status(&epos), erep.end),
        (katro_core::Status::EndlessMove, MoveEnd::Endless),
        "engine report {erep:?}"
    );
}
