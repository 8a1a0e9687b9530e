//! Golden tests: the worked examples of RULES.md §13 and at
//! least one hand-worked case for every value of every rule setting.
//!
//! Every expected board and report below was worked out by hand from the
//! RULES.md, seed by seed, in the comment above it; none was copied from
//! the engine's output. Boards are written as in RULES.md §13: row R on top.
//!
//! Circuits used below (RULES.md §2):
//! - 6×6 South: a1 b1 c1 d1 e1 f1, f2 e2 d2 c2 b2 a2, a3 b3 c3 d3 e3 f3, a1 …
//!   North: f6 … a6, a5 … f5, f4 … a4, f6 …
//! - 4×4 South: a1 b1 c1 d1, d2 c2 b2 a2, a1 …   North: d4 c4 b4 a4, a3 b3 c3 d3, d4 …
//! - 2×2 South: a1 b1, a1 …

// The reference is used only to check this file's goldens; most of it is
// for tests/it/differential.rs.
#[allow(dead_code)]
use katro_reference as reference;

use katro_core::engine::notation::{board_text, move_name, parse_board_text, parse_move};
use katro_core::engine::{Dir, MoveEnd, MoveReport, Player, Position, Status};
use katro_core::rules::{Rules, parse_variant, preset};

/// A variant from inline TOML: the board shape plus `[rules]` lines; every
/// rule not given takes its canonical default.
fn variant(rows: usize, holes: usize, rules_toml: &str) -> Rules {
    let text = format!(
        "name = \"test\"\n[board]\nrows = {rows}\nholes = {holes}\nseeds = 2\n[rules]\n{rules_toml}\n"
    );
    parse_variant("inline-test.toml", &text, "test").unwrap_or_else(|e| panic!("{e}"))
}

fn shipped(name: &str) -> Rules {
    preset(name).unwrap_or_else(|| panic!("no preset {name}"))
}

/// A position from a board printed as in RULES.md §13, with no direction fixed
/// and no plies played.
fn at(rules: &Rules, board: &str, to_move: Player) -> Position {
    at_ply(rules, board, to_move, 0)
}

fn at_ply(rules: &Rules, board: &str, to_move: Player, plies: u32) -> Position {
    let holes = parse_board_text(rules, board).unwrap_or_else(|e| panic!("{e}"));
    rules
        .position(&holes, to_move, [None, None], plies)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn legal(rules: &Rules, pos: &Position) -> Vec<String> {
    rules
        .legal_moves(pos)
        .iter()
        .map(|&m| move_name(rules, m))
        .collect()
}

/// Plays a move written in RULES.md's notation; it must be legal.
fn play(rules: &Rules, pos: &Position, mv: &str) -> (Position, MoveReport) {
    let m = parse_move(rules, mv).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(move_name(rules, m), mv, "notation round trip");
    let mut after = *pos;
    let total_before = seeds_on_board(rules, pos);
    let report = rules.play(&mut after, m).unwrap_or_else(|_| {
        panic!(
            "{mv} is illegal here; legal: {:?}\n{}",
            legal(rules, pos),
            board_text(rules, pos)
        )
    });
    assert_eq!(
        seeds_on_board(rules, &after),
        total_before,
        "seeds conserved"
    );
    // A capturing step under `step_sowing = "chosen"` pauses the turn
    // (RULES.md §7); every other move passes it.
    let passes = (report.end != MoveEnd::Continues) as u32;
    assert_eq!(after.plies(), pos.plies() + passes);
    let to_move = if passes == 1 {
        pos.to_move().other()
    } else {
        pos.to_move()
    };
    assert_eq!(after.to_move(), to_move);
    (after, report)
}

/// The move must be rejected, and the position left as it was.
fn assert_illegal(rules: &Rules, pos: &Position, mv: &str) {
    let m = parse_move(rules, mv).unwrap_or_else(|e| panic!("{e}"));
    let mut p = *pos;
    assert!(
        rules.play(&mut p, m).is_err(),
        "{mv} should be illegal; legal: {:?}",
        legal(rules, pos)
    );
    assert_eq!(p, *pos, "a rejected move changes nothing");
}

fn seeds_on_board(rules: &Rules, pos: &Position) -> u32 {
    (0..rules.hole_count()).map(|h| pos.seeds(h) as u32).sum()
}

fn assert_board(rules: &Rules, pos: &Position, expected: &str) {
    let want = parse_board_text(rules, expected).unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<u16> = (0..rules.hole_count()).map(|h| pos.seeds(h)).collect();
    assert_eq!(
        got,
        want,
        "\nboard after the move:\n{}expected:\n{expected}",
        board_text(rules, pos)
    );
}

fn report(
    laps: u64,
    captures: u32,
    seeds_captured: u64,
    seeds_sown: u64,
    end: MoveEnd,
) -> MoveReport {
    MoveReport {
        laps,
        // Derived, not copied from the engine: every lap after the first
        // is begun by a relay or by a capture's seeds, except that a
        // capture ending the move (the opponent left empty) begins none,
        // and a paused capture (a lone seed's step) sows no lap at all.
        relays: match end {
            MoveEnd::OpponentEmpty => laps.saturating_sub(captures as u64),
            _ => laps.saturating_sub(1 + captures as u64),
        },
        captures,
        seeds_captured,
        seeds_sown,
        end,
    }
}

// ---------------------------------------------------------------------------
// RULES.md §13: the opening c1, with the exact board printed there.

#[test]
fn worked_opening_c1() {
    let rules = shipped("katro-6x6");
    let start = rules.start();
    // Six legal first moves: South's outermost non-empty row is row 1, full.
    assert_eq!(legal(&rules, &start), ["a1", "b1", "c1", "d1", "e1", "f1"]);
    // RULES.md §13: lift 2, sow d1 e1; relay 3 from e1: f1 f2 e2; relay 3 from
    // e2: d2 c2 b2; relay 3 from b2: a2 a3 b3; b3 captures b4's 2: 2+3 = 5
    // sown c3 d3 e3 f3 a1; relay 3 from a1: b1 c1 d1; relay 4 from d1: e1 f1
    // f2 e2, e2 was empty: the move ends. Seven laps; sown 2+3+3+3+5+3+4 = 23.
    let (after, r) = play(&rules, &start, "c1");
    assert_board(
        &rules,
        &after,
        "
        6  2 2 2 2 2 2
        5  2 2 2 2 2 2
        4  2 0 2 2 2 2
        3  3 0 3 3 3 3
        2  3 0 3 3 1 4
        1  0 3 1 0 1 4
           a b c d e f",
    );
    assert_eq!(r, report(7, 1, 2, 23, MoveEnd::EmptyHole));
    assert_eq!(rules.status(&after), Status::Ongoing);
    // North's row 6 is untouched: six moves, listed in board order.
    assert_eq!(legal(&rules, &after), ["a6", "b6", "c6", "d6", "e6", "f6"]);
}

/// The other five openings of katro-6x6, worked by hand the same way. They
/// are the depth-1 positions of the perft golden file (tests/perft), so that
/// file's first line rests on these.
#[test]
fn every_opening_of_katro_6x6() {
    let rules = shipped("katro-6x6");
    let start = rules.start();
    // a1: lift 2: b1 c1; relay 3 c1: d1 e1 f1; relay 3 f1: f2 e2 d2; relay 3
    // d2: c2 b2 a2; relay 3 a2: a3 b3 c3; c3 takes c4 (2): 5 from c3: d3 e3
    // f3 a1 b1; relay 4 b1: c1 d1 e1 f1, f1 was empty. 7 laps, 2+3+3+3+3+5+4.
    let a1 = "6  2 2 2 2 2 2
              5  2 2 2 2 2 2
              4  2 2 0 2 2 2
              3  3 3 0 3 3 3
              2  0 3 3 0 3 3
              1  1 0 1 4 4 1";
    // b1: lift 2: c1 d1; relay 3 d1: e1 f1 f2; relay 3 f2: e2 d2 c2; relay 3
    // c2: b2 a2 a3; a3 takes a4 (2): 5 from a3: b3 c3 d3 e3 f3; f3 (now 3)
    // takes f4 (2): 5 from f3: a1 b1 c1 d1 e1; relay 4 e1: f1 f2 e2 d2;
    // relay 4 d2: c2 b2 a2 a3, a3 was empty. 8 laps, 2+3+3+3+5+5+4+4.
    let b1 = "6  2 2 2 2 2 2
              5  2 2 2 2 2 2
              4  0 2 2 2 2 0
              3  1 3 3 3 3 0
              2  4 4 1 0 4 1
              1  3 1 4 1 0 4";
    // d1: lift 2: e1 f1; relay 3 f1: f2 e2 d2; relay 3 d2: c2 b2 a2; relay 3
    // a2: a3 b3 c3; c3 takes c4 (2): 5 from c3: d3 e3 f3 a1 b1; relay 3 b1:
    // c1 d1 e1; relay 4 e1: f1 f2 e2 d2, d2 was empty. 7 laps, 2+3+3+3+5+3+4.
    let d1 = "6  2 2 2 2 2 2
              5  2 2 2 2 2 2
              4  2 2 0 2 2 2
              3  3 3 0 3 3 3
              2  0 3 3 1 4 4
              1  3 0 3 1 0 1";
    // e1: lift 2: f1 f2; relay 3 f2: e2 d2 c2; relay 3 c2: b2 a2 a3; a3 takes
    // a4 (2): 5 from a3: b3 c3 d3 e3 f3; f3 takes f4 (2): 5 from f3: a1 b1
    // c1 d1 e1, e1 was empty. 5 laps, 2+3+3+5+5.
    let e1 = "6  2 2 2 2 2 2
              5  2 2 2 2 2 2
              4  0 2 2 2 2 0
              3  0 3 3 3 3 0
              2  3 3 0 3 3 0
              1  3 3 3 3 1 3";
    // f1: lift 2: f2 e2; relay 3 e2: d2 c2 b2; relay 3 b2: a2 a3 b3; b3 takes
    // b4 (2): 5 from b3: c3 d3 e3 f3 a1; relay 3 a1: b1 c1 d1; relay 3 d1: e1
    // f1 f2; relay 4 f2: e2 d2 c2 b2, b2 was empty. 7 laps, 2+3+3+5+3+3+4.
    let f1 = "6  2 2 2 2 2 2
              5  2 2 2 2 2 2
              4  2 0 2 2 2 2
              3  3 0 3 3 3 3
              2  3 1 4 4 1 0
              1  0 3 3 0 3 1";
    let cases = [
        ("a1", a1, report(7, 1, 2, 23, MoveEnd::EmptyHole)),
        ("b1", b1, report(8, 2, 4, 29, MoveEnd::EmptyHole)),
        ("d1", d1, report(7, 1, 2, 23, MoveEnd::EmptyHole)),
        ("e1", e1, report(5, 2, 4, 18, MoveEnd::EmptyHole)),
        ("f1", f1, report(7, 1, 2, 23, MoveEnd::EmptyHole)),
    ];
    for (mv, board, want) in cases {
        let (after, r) = play(&rules, &start, mv);
        assert_board(&rules, &after, board);
        assert_eq!(r, want, "report of {mv}");
    }
}

// RULES.md §13, priority rules. South: d2=1, f2=1, f1=1, row 3 empty. North:
// b4=2 (A) or nothing in row 4 (B), f5=3, a6=1, f6=1. South plays f1: the
// seed falls into f2, now 2, in South's innermost non-empty row (row 2).

#[test]
fn priority_example_a() {
    let rules = shipped("katro-6x6");
    let pos = at(
        &rules,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 3
         4  0 2 0 0 0 0
         3  0 0 0 0 0 0
         2  0 0 0 1 0 1
         1  0 0 0 0 0 1",
        Player::South,
    );
    assert_eq!(legal(&rules, &pos), ["f1"]);
    // North's row 4 holds seeds, so only f4 could be taken: empty, no
    // capture. Relay 2 from f2: e2 d2; d2 (now 2, row 2) faces d4, empty: no
    // capture; relay 2 from d2: c2 b2, b2 was empty. f5 keeps its 3.
    let (after, r) = play(&rules, &pos, "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 3
         4  0 2 0 0 0 0
         3  0 0 0 0 0 0
         2  0 1 1 0 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(3, 0, 0, 1 + 2 + 2, MoveEnd::EmptyHole));
}

#[test]
fn priority_example_b() {
    let rules = shipped("katro-6x6");
    let pos = at(
        &rules,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 3
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  0 0 0 1 0 1
         1  0 0 0 0 0 1",
        Player::South,
    );
    // North's inner row is empty, so the victim is f5: capture 3, sow 3 + 2
    // from f2: e2 d2 c2 b2 a2; a2 was empty, the move ends.
    let (after, r) = play(&rules, &pos, "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  1 1 1 2 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(2, 1, 3, 1 + 5, MoveEnd::EmptyHole));
}

#[test]
fn priority_example_c() {
    let rules = shipped("katro-6x6");
    let pos = at(
        &rules,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 3
         4  0 0 0 0 0 0
         3  1 0 0 0 0 0
         2  0 0 0 1 0 1
         1  0 0 0 0 0 1",
        Player::South,
    );
    // As B with a seed in a3: row 3 is South's innermost non-empty row, so
    // f2 cannot capture; the move goes as in A (d2 in row 2 cannot either).
    let (after, r) = play(&rules, &pos, "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 3
         4  0 0 0 0 0 0
         3  1 0 0 0 0 0
         2  0 1 1 0 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(3, 0, 0, 5, MoveEnd::EmptyHole));
}

/// RULES.md §13's opening seen from North: North's circuit is South's turned
/// through 180 degrees, so North's d6 (c1 turned) gives the turned board.
#[test]
fn north_plays_the_turned_opening() {
    let rules = shipped("katro-6x6");
    let pos = at(
        &rules,
        "6  2 2 2 2 2 2
         5  2 2 2 2 2 2
         4  2 2 2 2 2 2
         3  2 2 2 2 2 2
         2  2 2 2 2 2 2
         1  2 2 2 2 2 2",
        Player::North,
    );
    // North's circuit: f6 e6 d6 c6 b6 a6, a5 … f5, f4 … a4. d6 lifts 2: c6
    // b6; relay 3 b6: a6 a5 b5; relay 3 b5: c5 d5 e5; relay 3 e5: f5 f4 e4;
    // e4 takes e3 (2): 5 from e4: d4 c4 b4 a4 f6; relay 3 f6: e6 d6 c6;
    // relay 4 c6: b6 a6 a5 b5, b5 was empty. RULES.md §13's board turned.
    let (after, r) = play(&rules, &pos, "d6");
    assert_board(
        &rules,
        &after,
        "6  4 1 0 1 3 0
         5  4 1 3 3 0 3
         4  3 3 3 3 0 3
         3  2 2 2 2 0 2
         2  2 2 2 2 2 2
         1  2 2 2 2 2 2",
    );
    assert_eq!(r, report(7, 1, 2, 23, MoveEnd::EmptyHole));
}

// ---------------------------------------------------------------------------
// start: where a move may start.
//
// One 4×4 position for all three values. South: b1=1, d1=2, c2=3; North
// a4=2 (row 3 empty).
const START_POS: &str = "
    4  2 0 0 0
    3  0 0 0 0
    2  0 0 3 0
    1  0 1 0 2";

#[test]
fn start_outermost_non_empty() {
    let rules = variant(4, 4, r#"start = "outermost-non-empty""#);
    let pos = at(&rules, START_POS, Player::South);
    assert_eq!(legal(&rules, &pos), ["b1", "d1"]);
    assert_illegal(&rules, &pos, "c2");
    // d1 lifts 2: d2 c2; c2 (now 4) is in row 2, South's innermost
    // non-empty row; North's row 3 is empty so the victim would be c4: empty,
    // no capture. Relay 4 from c2: b2 a2 a1 b1; b1 was 1: relay 2 from b1
    // (row 1 cannot capture while row 2 holds seeds): c1 d1, d1 was emptied.
    let (after, r) = play(&rules, &pos, "d1");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  1 1 0 1
         1  1 0 1 1",
    );
    assert_eq!(r, report(3, 0, 0, 2 + 4 + 2, MoveEnd::EmptyHole));
}

#[test]
fn start_innermost_non_empty() {
    let rules = variant(4, 4, r#"start = "innermost-non-empty""#);
    let pos = at(&rules, START_POS, Player::South);
    assert_eq!(legal(&rules, &pos), ["c2"]);
    assert_illegal(&rules, &pos, "d1");
    // c2 lifts 3: b2 a2 a1; a1 was empty: the move ends.
    let (after, r) = play(&rules, &pos, "c2");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  1 1 0 0
         1  1 1 0 2",
    );
    assert_eq!(r, report(1, 0, 0, 3, MoveEnd::EmptyHole));
}

#[test]
fn start_any() {
    let rules = variant(4, 4, r#"start = "any""#);
    let pos = at(&rules, START_POS, Player::South);
    assert_eq!(legal(&rules, &pos), ["b1", "d1", "c2"]);
    // c2 as under innermost-non-empty: b2 a2 a1, a1 was empty.
    let (after, r) = play(&rules, &pos, "c2");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  1 1 0 0
         1  1 1 0 2",
    );
    assert_eq!(r, report(1, 0, 0, 3, MoveEnd::EmptyHole));
}

// ---------------------------------------------------------------------------
// singletons. South's row 1: a1=1, c1=2, d1=1.
const SINGLETON_POS: &str = "
    4  2 0 0 0
    3  0 0 0 0
    2  0 0 0 0
    1  1 0 2 1";
// South's row 1 holds only singletons, row 2 holds b2=3.
const ONLY_SINGLETONS_POS: &str = "
    4  2 0 0 0
    3  0 0 0 0
    2  0 3 0 0
    1  1 0 1 0";

#[test]
fn singletons_allowed() {
    let rules = variant(4, 4, r#"singletons = "allowed""#);
    let pos = at(&rules, SINGLETON_POS, Player::South);
    assert_eq!(legal(&rules, &pos), ["a1", "c1", "d1"]);
    // d1 lifts 1: d2, empty: the move ends.
    let (after, r) = play(&rules, &pos, "d1");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 1
         1  1 0 2 0",
    );
    assert_eq!(r, report(1, 0, 0, 1, MoveEnd::EmptyHole));
}

#[test]
fn singletons_last_resort() {
    let rules = variant(4, 4, r#"singletons = "last-resort""#);
    let pos = at(&rules, SINGLETON_POS, Player::South);
    assert_eq!(legal(&rules, &pos), ["c1"]);
    assert_illegal(&rules, &pos, "d1");
    // c1 lifts 2: d1 d2; d2 was empty.
    let (after, r) = play(&rules, &pos, "c1");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 1
         1  1 0 0 2",
    );
    assert_eq!(r, report(1, 0, 0, 2, MoveEnd::EmptyHole));
    // With only singletons in the start rule's row they become legal.
    let pos = at(&rules, ONLY_SINGLETONS_POS, Player::South);
    assert_eq!(legal(&rules, &pos), ["a1", "c1"]);
    // a1 lifts 1: b1, empty.
    let (after, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 3 0 0
         1  0 1 1 0",
    );
    assert_eq!(r, report(1, 0, 0, 1, MoveEnd::EmptyHole));
}

#[test]
fn singletons_forbidden() {
    let rules = variant(4, 4, r#"singletons = "forbidden""#);
    let pos = at(&rules, SINGLETON_POS, Player::South);
    assert_eq!(legal(&rules, &pos), ["c1"]);
    assert_illegal(&rules, &pos, "a1");
    let (after, _) = play(&rules, &pos, "c1");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 1
         1  1 0 0 2",
    );
    // The start rule picks the row first (row 1, the outermost non-empty),
    // then singletons are filtered out: South has no move although b2 holds
    // 3, and loses.
    let pos = at(&rules, ONLY_SINGLETONS_POS, Player::South);
    assert!(legal(&rules, &pos).is_empty());
    assert_illegal(&rules, &pos, "b2");
    assert_eq!(rules.status(&pos), Status::Won(Player::North));
}

// ---------------------------------------------------------------------------
// direction

#[test]
fn direction_forward() {
    let rules = variant(4, 4, r#"direction = "forward""#);
    let pos = at(
        &rules,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 0
         1  0 2 0 0",
        Player::South,
    );
    assert_eq!(legal(&rules, &pos), ["b1"]);
    assert_illegal(&rules, &pos, "b1+");
    assert_illegal(&rules, &pos, "b1-");
    // b1 lifts 2: c1 d1, d1 was empty.
    let (after, r) = play(&rules, &pos, "b1");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 0
         1  0 0 1 1",
    );
    assert_eq!(r, report(1, 0, 0, 2, MoveEnd::EmptyHole));
    // North, forward: d4 c4 b4 a4, a3 …: a4 lifts 2: a3 b3, b3 was empty.
    let (after, _) = play(&rules, &after, "a4");
    assert_board(
        &rules,
        &after,
        "4  0 0 0 0
         3  1 1 0 0
         2  0 0 0 0
         1  0 0 1 1",
    );
}

#[test]
fn direction_each_move() {
    let rules = variant(4, 4, r#"direction = "each-move""#);
    let pos = at(
        &rules,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 0
         1  0 2 0 0",
        Player::South,
    );
    assert_eq!(legal(&rules, &pos), ["b1+", "b1-"]);
    assert_illegal(&rules, &pos, "b1");
    // b1+ lifts 2: c1 d1, d1 was empty.
    let (after, r) = play(&rules, &pos, "b1+");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 0
         1  0 0 1 1",
    );
    assert_eq!(r, report(1, 0, 0, 2, MoveEnd::EmptyHole));
    // b1- lifts 2 backward: a1, then a2 (the circuit's last hole), empty.
    let (after, r) = play(&rules, &pos, "b1-");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  1 0 0 0
         1  1 0 0 0",
    );
    assert_eq!(r, report(1, 0, 0, 2, MoveEnd::EmptyHole));
    // The choice is not kept: North still chooses, and so does South after.
    assert_eq!(legal(&rules, &after), ["a4+", "a4-"]);
    assert_eq!(after.fixed_dir(Player::South), None);
}

#[test]
fn direction_once_per_game() {
    let rules = variant(4, 4, r#"direction = "once-per-game""#);
    let pos = at(
        &rules,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 3
         1  0 2 0 0",
        Player::South,
    );
    // South's first move carries the suffix.
    assert_eq!(legal(&rules, &pos), ["b1+", "b1-"]);
    assert_illegal(&rules, &pos, "b1");
    // b1- lifts 2 backward: a1 a2, a2 was empty. South keeps "backward".
    let (pos, r) = play(&rules, &pos, "b1-");
    assert_board(
        &rules,
        &pos,
        "4  2 0 0 0
         3  0 0 0 0
         2  1 0 0 3
         1  1 0 0 0",
    );
    assert_eq!(r, report(1, 0, 0, 2, MoveEnd::EmptyHole));
    assert_eq!(pos.fixed_dir(Player::South), Some(Dir::Backward));
    // North has not chosen yet: suffixes. a4+ lifts 2 forward: a3 b3, b3
    // was empty (North's row 3 was empty, so a3 is no victim-side matter).
    assert_eq!(legal(&rules, &pos), ["a4+", "a4-"]);
    let (pos, _) = play(&rules, &pos, "a4+");
    assert_board(
        &rules,
        &pos,
        "4  0 0 0 0
         3  1 1 0 0
         2  1 0 0 3
         1  1 0 0 0",
    );
    assert_eq!(pos.fixed_dir(Player::North), Some(Dir::Forward));
    // South's later moves carry no suffix and sow backward.
    assert_eq!(legal(&rules, &pos), ["a1"]);
    assert_illegal(&rules, &pos, "a1+");
    assert_illegal(&rules, &pos, "a1-");
    // a1 lifts 1 backward: a2 (now 2), occupied, in row 2 (South's innermost
    // non-empty row); North's row 3 holds seeds and a3=1: capture 1 + 2 = 3,
    // sown backward from a2: b2 c2 d2; d2 (now 4) is occupied, faces d3,
    // empty while row 3 still holds b3: no capture; relay 4 backward from
    // d2: d1 c1 b1 a1, a1 was emptied: the move ends.
    let (pos, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &pos,
        "4  0 0 0 0
         3  0 1 0 0
         2  0 1 1 0
         1  1 1 1 1",
    );
    assert_eq!(r, report(3, 1, 1, 1 + 3 + 4, MoveEnd::EmptyHole));
    assert_eq!(pos.fixed_dir(Player::South), Some(Dir::Backward));
    // North's later moves carry no suffix either.
    assert_eq!(legal(&rules, &pos), ["b3"]);
}

// ---------------------------------------------------------------------------
// relay. South: a1=2, c1=1, d2=1; North a3=1 (so North's row 3 holds seeds
// but d3 is empty: no capture at d2).
const RELAY_POS: &str = "
    4  0 0 0 0
    3  1 0 0 0
    2  0 0 0 1
    1  2 0 1 0";

#[test]
fn relay_occupied() {
    let rules = variant(4, 4, r#"relay = "occupied""#);
    let pos = at(&rules, RELAY_POS, Player::South);
    // a1 lifts 2: b1 c1; c1 (now 2, row 1) relays: d1 d2; d2 (now 2, row 2)
    // faces d3, empty: relays: c2 b2, b2 was empty.
    let (after, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &after,
        "4  0 0 0 0
         3  1 0 0 0
         2  0 1 1 0
         1  0 1 0 1",
    );
    assert_eq!(r, report(3, 0, 0, 6, MoveEnd::EmptyHole));
}

#[test]
fn relay_outer_row() {
    let rules = variant(4, 4, r#"relay = "outer-row""#);
    let pos = at(&rules, RELAY_POS, Player::South);
    // c1 is in the outer row: relays: d1 d2; d2 is in the inner row and
    // cannot capture: the move ends there, on an occupied hole.
    let (after, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &after,
        "4  0 0 0 0
         3  1 0 0 0
         2  0 0 0 2
         1  0 1 0 1",
    );
    assert_eq!(r, report(2, 0, 0, 4, MoveEnd::NoRelay));
}

#[test]
fn relay_never() {
    let rules = variant(4, 4, r#"relay = "never""#);
    let pos = at(&rules, RELAY_POS, Player::South);
    // b1 c1; c1 occupied but nothing relays and row 1 cannot capture.
    let (after, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &after,
        "4  0 0 0 0
         3  1 0 0 0
         2  0 0 0 1
         1  0 1 2 0",
    );
    assert_eq!(r, report(1, 0, 0, 2, MoveEnd::NoRelay));
}

/// A lap of n ≥ (holes in the circuit) seeds goes round and drops into the
/// hole it was lifted from too (the sources are silent; docs/RULES.md).
#[test]
fn a_full_round_drops_into_the_start_hole() {
    let rules = shipped("katro-4x4");
    let pos = at(
        &rules,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 0
         1  8 0 0 0",
        Player::South,
    );
    // 8 seeds, 8 holes: b1 c1 d1 d2 c2 b2 a2 a1; a1 was emptied: empty.
    let (after, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  1 1 1 1
         1  1 1 1 1",
    );
    assert_eq!(r, report(1, 0, 0, 8, MoveEnd::EmptyHole));
}

// ---------------------------------------------------------------------------
// capture_trigger. T1: d1=2 sows d2 c2, the last seed in an EMPTY c2,
// facing c3=2. T2: the same with c2=1, so the last seed falls in an
// OCCUPIED c2.
const TRIGGER_EMPTY_LANDING: &str = "
    4  1 0 0 0
    3  0 0 2 0
    2  0 0 0 0
    1  0 0 0 2";
const TRIGGER_OCCUPIED_LANDING: &str = "
    4  1 0 0 0
    3  0 0 2 0
    2  0 0 1 0
    1  0 0 0 2";
// T1 under a trigger that captures on an empty landing: c2 (1) takes c3
// (2): 3 from c2: b2 a2 a1; a1 (row 1) cannot capture while row 2 holds
// seeds, and was empty: the move ends.
const T1_CAPTURED: &str = "
    4  1 0 0 0
    3  0 0 0 0
    2  1 1 0 1
    1  1 0 0 0";
// T2 under a trigger that captures on an occupied landing: c2 (2) takes c3
// (2): 4 from c2: b2 a2 a1 b1; b1 was empty (and in row 1): the move ends.
const T2_CAPTURED: &str = "
    4  1 0 0 0
    3  0 0 0 0
    2  1 1 0 1
    1  1 1 0 0";

#[test]
fn capture_trigger_occupied() {
    let rules = variant(4, 4, r#"capture_trigger = "occupied""#);
    // T1: c2 was empty: no capture, the move ends.
    let (after, r) = play(
        &rules,
        &at(&rules, TRIGGER_EMPTY_LANDING, Player::South),
        "d1",
    );
    assert_board(
        &rules,
        &after,
        "4  1 0 0 0
         3  0 0 2 0
         2  0 0 1 1
         1  0 0 0 0",
    );
    assert_eq!(r, report(1, 0, 0, 2, MoveEnd::EmptyHole));
    let (after, r) = play(
        &rules,
        &at(&rules, TRIGGER_OCCUPIED_LANDING, Player::South),
        "d1",
    );
    assert_board(&rules, &after, T2_CAPTURED);
    assert_eq!(r, report(2, 1, 2, 2 + 4, MoveEnd::EmptyHole));
}

#[test]
fn capture_trigger_empty() {
    let rules = variant(4, 4, r#"capture_trigger = "empty""#);
    let (after, r) = play(
        &rules,
        &at(&rules, TRIGGER_EMPTY_LANDING, Player::South),
        "d1",
    );
    assert_board(&rules, &after, T1_CAPTURED);
    assert_eq!(r, report(2, 1, 2, 2 + 3, MoveEnd::EmptyHole));
    // T2: c2 was occupied: it relays instead of capturing: 2 from c2: b2 a2;
    // a2 was empty, in row 2, but faces a3, empty while row 3 holds c3: no
    // capture, the move ends.
    let (after, r) = play(
        &rules,
        &at(&rules, TRIGGER_OCCUPIED_LANDING, Player::South),
        "d1",
    );
    assert_board(
        &rules,
        &after,
        "4  1 0 0 0
         3  0 0 2 0
         2  1 1 0 1
         1  0 0 0 0",
    );
    assert_eq!(r, report(2, 0, 0, 4, MoveEnd::EmptyHole));
}

#[test]
fn capture_trigger_either() {
    let rules = variant(4, 4, r#"capture_trigger = "either""#);
    let (after, r) = play(
        &rules,
        &at(&rules, TRIGGER_EMPTY_LANDING, Player::South),
        "d1",
    );
    assert_board(&rules, &after, T1_CAPTURED);
    assert_eq!(r, report(2, 1, 2, 5, MoveEnd::EmptyHole));
    let (after, r) = play(
        &rules,
        &at(&rules, TRIGGER_OCCUPIED_LANDING, Player::South),
        "d1",
    );
    assert_board(&rules, &after, T2_CAPTURED);
    assert_eq!(r, report(2, 1, 2, 6, MoveEnd::EmptyHole));
}

// ---------------------------------------------------------------------------
// capturing_row. South: a1=1, b1=1, row 2 empty; North b3=2, d4=1. a1 sows
// b1 (now 2), in South's outer row, which is also its innermost non-empty
// row.
const CAPTURING_ROW_POS: &str = "
    4  0 0 0 1
    3  0 2 0 0
    2  0 0 0 0
    1  1 1 0 0";

#[test]
fn capturing_row_innermost_non_empty() {
    let rules = variant(4, 4, r#"capturing_row = "innermost-non-empty""#);
    let pos = at(&rules, CAPTURING_ROW_POS, Player::South);
    // b1 takes b3 (2): 4 from b1: c1 d1 d2 c2, c2 was empty.
    let (after, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &after,
        "4  0 0 0 1
         3  0 0 0 0
         2  0 0 1 1
         1  0 0 1 1",
    );
    assert_eq!(r, report(2, 1, 2, 1 + 4, MoveEnd::EmptyHole));
}

#[test]
fn capturing_row_inner() {
    let rules = variant(4, 4, r#"capturing_row = "inner""#);
    let pos = at(&rules, CAPTURING_ROW_POS, Player::South);
    // b1 is not in the inner row: relay 2 from b1: c1 d1, d1 was empty.
    let (after, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &after,
        "4  0 0 0 1
         3  0 2 0 0
         2  0 0 0 0
         1  0 0 1 1",
    );
    assert_eq!(r, report(2, 0, 0, 1 + 2, MoveEnd::EmptyHole));
}

// ---------------------------------------------------------------------------
// victim. The position of RULES.md §13's example A: f2 (now 2) can capture;
// North's row 4 holds b4=2 but f4 is empty; f5=3, f6=1.
const EXAMPLE_A: &str = "
    6  1 0 0 0 0 1
    5  0 0 0 0 0 3
    4  0 2 0 0 0 0
    3  0 0 0 0 0 0
    2  0 0 0 1 0 1
    1  0 0 0 0 0 1";

#[test]
fn victim_innermost_row() {
    // Judged on the whole row: row 4 holds seeds, f4 is empty: no capture
    // (RULES.md §13's example A, played above on the preset; here named).
    let rules = variant(6, 6, r#"victim = "innermost-row""#);
    let (after, r) = play(&rules, &at(&rules, EXAMPLE_A, Player::South), "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 3
         4  0 2 0 0 0 0
         3  0 0 0 0 0 0
         2  0 1 1 0 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(3, 0, 0, 5, MoveEnd::EmptyHole));
}

#[test]
fn victim_column() {
    let rules = variant(6, 6, r#"victim = "column""#);
    // Judged per column: f4 is empty, so f5 (3) is the victim: 3 + 2 = 5
    // from f2: e2 d2 c2 b2 a2, a2 was empty.
    let (after, r) = play(&rules, &at(&rules, EXAMPLE_A, Player::South), "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 0
         4  0 2 0 0 0 0
         3  0 0 0 0 0 0
         2  1 1 1 2 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(2, 1, 3, 6, MoveEnd::EmptyHole));
    // f4 and f5 empty: the column falls through to f6 (1): 1 + 2 = 3 from
    // f2: e2 d2 c2; c2 was empty.
    let pos = at(
        &rules,
        "6  1 0 0 0 0 1
         5  3 0 0 0 0 0
         4  0 2 0 0 0 0
         3  0 0 0 0 0 0
         2  0 0 0 1 0 1
         1  0 0 0 0 0 1",
        Player::South,
    );
    let (after, r) = play(&rules, &pos, "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 0
         5  3 0 0 0 0 0
         4  0 2 0 0 0 0
         3  0 0 0 0 0 0
         2  0 0 1 2 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(2, 1, 1, 1 + 3, MoveEnd::EmptyHole));
}

#[test]
fn victim_whole_column() {
    let rules = variant(6, 6, r#"victim = "whole-column""#);
    // Every North hole of column f: f4 (0), f5 (3), f6 (1): 4 + 2 = 6 from
    // f2: e2 d2 c2 b2 a2 a3; a3 was empty.
    let (after, r) = play(&rules, &at(&rules, EXAMPLE_A, Player::South), "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 0
         5  0 0 0 0 0 0
         4  0 2 0 0 0 0
         3  1 0 0 0 0 0
         2  1 1 1 2 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(2, 1, 4, 1 + 6, MoveEnd::EmptyHole));
}

// ---------------------------------------------------------------------------
// min_victim_seeds: RULES.md §13's example B (victim f5 holds 3).
const EXAMPLE_B: &str = "
    6  1 0 0 0 0 1
    5  0 0 0 0 0 3
    4  0 0 0 0 0 0
    3  0 0 0 0 0 0
    2  0 0 0 1 0 1
    1  0 0 0 0 0 1";

#[test]
fn min_victim_seeds() {
    // 3 seeds meet a minimum of 3: example B's capture.
    let rules = variant(6, 6, "min_victim_seeds = 3");
    let (after, r) = play(&rules, &at(&rules, EXAMPLE_B, Player::South), "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  1 1 1 2 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(2, 1, 3, 6, MoveEnd::EmptyHole));
    // A minimum of 4: no capture; the move goes as in example A: relay 2
    // from f2: e2 d2; d2 faces d5 (row 4 empty), empty: relay: c2 b2.
    let rules = variant(6, 6, "min_victim_seeds = 4");
    let (after, r) = play(&rules, &at(&rules, EXAMPLE_B, Player::South), "f1");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 1
         5  0 0 0 0 0 3
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  0 1 1 0 1 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(3, 0, 0, 5, MoveEnd::EmptyHole));
}

// min_victim_seeds_after_empty, with a trigger that captures on both
// landings. d1=2 sows d2 c2; c2 faces c3=1 (North's inner row) and a4=1.
const AFTER_EMPTY_POS: &str = "
    4  1 0 0 0
    3  0 0 1 0
    2  0 0 0 0
    1  0 0 0 2";

#[test]
fn min_victim_seeds_after_empty_one() {
    let rules = variant(
        4,
        4,
        // Played out: under the default game end the first capture, which
        // leaves North only a4, would not end the game, but the second
        // would, before its seeds are sown (see `game_end_*`).
        "capture_trigger = \"either\"\nmin_victim_seeds_after_empty = 1\ngame_end = \"play-out\"",
    );
    let pos = at(&rules, AFTER_EMPTY_POS, Player::South);
    // c2 was empty and takes c3 (1): 2 from c2: b2 a2; a2 was empty; row 3
    // is now empty, so a2 faces a4 (1): 2 from a2: a1 b1; b1 was empty and
    // row 1 cannot capture while row 2 holds seeds: the move ends. North
    // has no seed left and no move: South wins.
    let (after, r) = play(&rules, &pos, "d1");
    assert_board(
        &rules,
        &after,
        "4  0 0 0 0
         3  0 0 0 0
         2  0 1 0 1
         1  1 1 0 0",
    );
    assert_eq!(r, report(3, 2, 2, 2 + 2 + 2, MoveEnd::EmptyHole));
    assert_eq!(rules.status(&after), Status::Won(Player::South));
}

#[test]
fn min_victim_seeds_after_empty_two() {
    let rules = variant(
        4,
        4,
        "capture_trigger = \"either\"\nmin_victim_seeds_after_empty = 2",
    );
    // The landing c2 was empty and the victim holds 1 < 2: no capture, the
    // move ends.
    let (after, r) = play(&rules, &at(&rules, AFTER_EMPTY_POS, Player::South), "d1");
    assert_board(
        &rules,
        &after,
        "4  1 0 0 0
         3  0 0 1 0
         2  0 0 1 1
         1  0 0 0 0",
    );
    assert_eq!(r, report(1, 0, 0, 2, MoveEnd::EmptyHole));
    // An occupied landing (c2=1 before) is held to min_victim_seeds = 1 only:
    // c2 (2) takes c3 (1): 3 from c2: b2 a2 a1; a1 was empty, in row 1: ends.
    let pos = at(
        &rules,
        "4  1 0 0 0
         3  0 0 1 0
         2  0 0 1 0
         1  0 0 0 2",
        Player::South,
    );
    let (after, r) = play(&rules, &pos, "d1");
    assert_board(
        &rules,
        &after,
        "4  1 0 0 0
         3  0 0 0 0
         2  1 1 0 1
         1  1 0 0 0",
    );
    assert_eq!(r, report(2, 1, 1, 2 + 3, MoveEnd::EmptyHole));
}

// ---------------------------------------------------------------------------
// lone_seed. South's only seed is b2 (6×6 middle row); North: c4=2 (so row
// 4 holds seeds and a4 is empty), f5=1, a6=3.
const LONE_B2: &str = "
    6  3 0 0 0 0 0
    5  0 0 0 0 0 1
    4  0 0 2 0 0 0
    3  0 0 0 0 0 0
    2  0 1 0 0 0 0
    1  0 0 0 0 0 0";

#[test]
fn lone_seed_none() {
    let rules = shipped("katro-6x6");
    let pos = at(&rules, LONE_B2, Player::South);
    assert_eq!(legal(&rules, &pos), ["b2"]);
    assert_illegal(&rules, &pos, "b2>c3");
    assert_illegal(&rules, &pos, "b2>b3");
    // b2 lifts 1: a2 (row 2 runs f2 … a2), empty.
    let (after, r) = play(&rules, &pos, "b2");
    assert_board(
        &rules,
        &after,
        "6  3 0 0 0 0 0
         5  0 0 0 0 0 1
         4  0 0 2 0 0 0
         3  0 0 0 0 0 0
         2  1 0 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(1, 0, 0, 1, MoveEnd::EmptyHole));
}

#[test]
fn lone_seed_diagonal() {
    let rules = shipped("katro-6x6-diagonal");
    let pos = at(&rules, LONE_B2, Player::South);
    assert_eq!(legal(&rules, &pos), ["b2", "b2>a3", "b2>c3"]);
    assert_illegal(&rules, &pos, "b2>b3");
    assert_illegal(&rules, &pos, "b2>c1");
    // b2>c3: c3 faces c4 (2) in North's non-empty inner row: capture; 2 + 1
    // = 3 sown forward from c3: d3 e3 f3, f3 was empty. The step is no lap.
    let (after, r) = play(&rules, &pos, "b2>c3");
    assert_board(
        &rules,
        &after,
        "6  3 0 0 0 0 0
         5  0 0 0 0 0 1
         4  0 0 0 0 0 0
         3  0 0 0 1 1 1
         2  0 0 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(1, 1, 2, 3, MoveEnd::EmptyHole));
    // b2>a3: a3 faces a4, empty while row 4 holds c4: the move ends there.
    let (after, r) = play(&rules, &pos, "b2>a3");
    assert_board(
        &rules,
        &after,
        "6  3 0 0 0 0 0
         5  0 0 0 0 0 1
         4  0 0 2 0 0 0
         3  1 0 0 0 0 0
         2  0 0 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(0, 0, 0, 0, MoveEnd::Step));

    // An outer-row seed on the edge has one diagonal; under the canonical
    // capturing row the middle row can capture (it is then the innermost
    // non-empty row): a1>b2 faces b5 (row 4 empty): 2 + 1 = 3 from b2: a2
    // a3 b3, b3 was empty.
    let pos = at(
        &rules,
        "6  3 0 0 0 0 0
         5  0 2 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  0 0 0 0 0 0
         1  1 0 0 0 0 0",
        Player::South,
    );
    assert_eq!(legal(&rules, &pos), ["a1", "a1>b2"]);
    let (after, r) = play(&rules, &pos, "a1>b2");
    assert_board(
        &rules,
        &after,
        "6  3 0 0 0 0 0
         5  0 0 0 0 0 0
         4  0 0 0 0 0 0
         3  1 1 0 0 0 0
         2  1 0 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(1, 1, 2, 3, MoveEnd::EmptyHole));

    // A lone seed in the inner row has nowhere deeper to step.
    let pos = at(
        &rules,
        "6  3 0 0 0 0 0
         5  0 2 0 0 0 0
         4  0 0 0 0 0 0
         3  0 1 0 0 0 0
         2  0 0 0 0 0 0
         1  0 0 0 0 0 0",
        Player::South,
    );
    assert_eq!(legal(&rules, &pos), ["b3"]);
    // Two seeds on South's side: no step, however they lie.
    let pos = at(
        &rules,
        "6  3 0 0 0 0 0
         5  0 2 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  0 0 0 0 0 1
         1  1 0 0 0 0 0",
        Player::South,
    );
    assert_eq!(legal(&rules, &pos), ["a1"]);
}

/// min_victim_seeds_after_empty holds a lone-seed step too: the hole it
/// enters was empty (the sources are silent; docs/RULES.md).
#[test]
fn lone_seed_step_obeys_min_victim_seeds_after_empty() {
    let rules = variant(
        6,
        6,
        "lone_seed = \"diagonal\"\nmin_victim_seeds_after_empty = 3",
    );
    let pos = at(&rules, LONE_B2, Player::South);
    // c4 holds 2 < 3: no capture, the seed stays in c3.
    let (after, r) = play(&rules, &pos, "b2>c3");
    assert_board(
        &rules,
        &after,
        "6  3 0 0 0 0 0
         5  0 0 0 0 0 1
         4  0 0 2 0 0 0
         3  0 0 1 0 0 0
         2  0 0 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(0, 0, 0, 0, MoveEnd::Step));
}

#[test]
fn lone_seed_straight() {
    let rules = shipped("katro-ludii");
    // North: b5=2 (row 4 empty), a6=1. South's only seed in b1.
    let pos = at(
        &rules,
        "6  1 0 0 0 0 0
         5  0 2 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  0 0 0 0 0 0
         1  0 1 0 0 0 0",
        Player::South,
    );
    assert_eq!(legal(&rules, &pos), ["b1+", "b1-", "b1>b2"]);
    assert_illegal(&rules, &pos, "b1>a2");
    // Outer to middle: b2 is not South's inner row, which alone captures in
    // this reading, though column b holds a victim (b5): no capture.
    let (after, r) = play(&rules, &pos, "b1>b2");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 0
         5  0 2 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  0 1 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(0, 0, 0, 0, MoveEnd::Step));
    assert_eq!(legal(&rules, &after), ["a6+", "a6-"]);
    // Middle to inner: b3 faces column b: b4 empty, so b5 (2) per column,
    // a capture: the step is offered (lone_seed_step = "no-failed-capture").
    let pos = at(
        &rules,
        "6  1 0 0 0 0 0
         5  0 2 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  0 1 0 0 0 0
         1  0 0 0 0 0 0",
        Player::South,
    );
    assert_eq!(legal(&rules, &pos), ["b2+", "b2-", "b2>b3"]);
    // Under Ludii's `step_sowing = "chosen"` the capture pauses the turn:
    // the two victims join the stepped seed in b3, South is still to move
    // at the same ply, and chooses the direction of the sowing on.
    let (paused, r) = play(&rules, &pos, "b2>b3");
    assert_board(
        &rules,
        &paused,
        "6  1 0 0 0 0 0
         5  0 0 0 0 0 0
         4  0 0 0 0 0 0
         3  0 3 0 0 0 0
         2  0 0 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(0, 1, 2, 0, MoveEnd::Continues));
    assert_eq!((paused.to_move(), paused.plies()), (Player::South, 0));
    assert_eq!(legal(&rules, &paused), ["b3+", "b3-"]);
    // b3+: 3 forward: c3 d3 e3, e3 was empty.
    let (after, r) = play(&rules, &paused, "b3+");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 0
         5  0 0 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 1 1 1 0
         2  0 0 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(1, 0, 0, 3, MoveEnd::EmptyHole));
    assert_eq!((after.to_move(), after.plies()), (Player::North, 1));
    // b3-: 3 along the mirrored circuit (f3 … a3, then f1): a3 f1 e1.
    let (after, r) = play(&rules, &paused, "b3-");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 0
         5  0 0 0 0 0 0
         4  0 0 0 0 0 0
         3  1 0 0 0 0 0
         2  0 0 0 0 0 0
         1  0 0 0 0 1 1",
    );
    assert_eq!(r, report(1, 0, 0, 3, MoveEnd::EmptyHole));
    // With `step_sowing = "forward"` the same step sows on at once.
    let rules = variant(
        6,
        6,
        "direction = \"each-move\"\ncapturing_row = \"inner\"\nvictim = \"column\"\n\
         lone_seed = \"straight\"\nstep_sowing = \"forward\"",
    );
    let pos = at(
        &rules,
        "6  1 0 0 0 0 0
         5  0 2 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 0 0 0 0
         2  0 1 0 0 0 0
         1  0 0 0 0 0 0",
        Player::South,
    );
    let (after, r) = play(&rules, &pos, "b2>b3");
    assert_board(
        &rules,
        &after,
        "6  1 0 0 0 0 0
         5  0 0 0 0 0 0
         4  0 0 0 0 0 0
         3  0 0 1 1 1 0
         2  0 0 0 0 0 0
         1  0 0 0 0 0 0",
    );
    assert_eq!(r, report(1, 1, 2, 3, MoveEnd::EmptyHole));
}

// ---------------------------------------------------------------------------
// endless_move, lap_limit. A 2×2 board (one row a player; South's circuit
// is a1 b1 a1 …). With capture_trigger = "empty" no landing in an occupied
// hole captures, so North's seed b2 is never taken.
//
// South: a1=1, b1=3. South plays b1: lifts 3: a1 b1 a1: a1 = 3, b1 = 1, the
// last seed in a1, which held 2: relay.
//   state A: a1=3 b1=1, last seed in a1. Lift 3 from a1: b1 a1 b1: a1 = 1,
//            b1 = 3, last in b1, which held 2: relay.
//   state B: a1=1 b1=3, last seed in b1. Lift 3 from b1: a1 b1 a1: state A.
// Lap k ends in state A for odd k and state B for even k: the relays cycle
// with period 2 and never end.
//
// The move is endless: lap 3 repeats lap 1's state (A). A move ends at its
// first repeated state, so it stops after 3 laps, having sown 3 seeds a lap
// (9), with the board in state A: a1=3, b1=1.
const ENDLESS_POS: &str = "
    2  0 1
    1  1 3";
const ENDLESS_STATE_A: &str = "
    2  0 1
    1  3 1";

#[test]
fn endless_move_undecided() {
    // Played out, so that the move a1 below, whose capture takes North's
    // last seed, goes on as it did before the game-end setting existed.
    let rules = variant(
        2,
        2,
        "capture_trigger = \"empty\"\nendless_move = \"undecided\"\ngame_end = \"play-out\"",
    );
    let pos = at(&rules, ENDLESS_POS, Player::South);
    assert_eq!(legal(&rules, &pos), ["a1", "b1"]);
    let (after, r) = play(&rules, &pos, "b1");
    assert_board(&rules, &after, ENDLESS_STATE_A);
    assert_eq!(r, report(3, 0, 0, 9, MoveEnd::Endless));
    assert_eq!(rules.status(&after), Status::EndlessMove);
    assert_eq!(rules.status(&after).winner(), None);
    assert!(rules.legal_moves(&after).is_empty());
    // The other move ends. a1 lifts 1: b1 (now 4), occupied: relay 4 from
    // b1: a1 b1 a1 b1, the last seed in b1, which held 1 from this lap:
    // relay 2 from b1: a1 b1; b1 was emptied: an empty landing, which
    // captures under this trigger: b1 faces b2 (1): 1 + 1 = 2 from b1: a1
    // b1; b1 was emptied again, and North's row is empty now: no victim,
    // the move ends. a1 got two seeds in lap 2, one in lap 3, one in lap 4;
    // North has nothing left: South wins.
    let (after, r) = play(&rules, &pos, "a1");
    assert_board(
        &rules,
        &after,
        "2  0 0
         1  4 1",
    );
    assert_eq!(r, report(4, 1, 1, 1 + 4 + 2 + 2, MoveEnd::EmptyHole));
    assert_eq!(rules.status(&after), Status::Won(Player::South));
}

#[test]
fn endless_move_mover_loses() {
    let rules = variant(
        2,
        2,
        "capture_trigger = \"empty\"\nendless_move = \"mover-loses\"",
    );
    let pos = at(&rules, ENDLESS_POS, Player::South);
    let (after, r) = play(&rules, &pos, "b1");
    assert_board(&rules, &after, ENDLESS_STATE_A);
    assert_eq!(r, report(3, 0, 0, 9, MoveEnd::Endless));
    assert_eq!(rules.status(&after), Status::Won(Player::North));
    assert!(rules.legal_moves(&after).is_empty());
}

#[test]
fn lap_limit_is_a_backstop() {
    // The same endless move under a lap limit of 2: after lap 2 (state B,
    // a1=1 b1=3) the move would go on, and no state has repeated yet (the
    // first repeat is lap 3): it stops there, 2 laps sown (6 seeds), status
    // lap-limit, nothing lifted.
    let rules = variant(2, 2, "capture_trigger = \"empty\"\nlap_limit = 2");
    let pos = at(&rules, ENDLESS_POS, Player::South);
    let (after, r) = play(&rules, &pos, "b1");
    assert_board(&rules, &after, ENDLESS_POS);
    assert_eq!(r, report(2, 0, 0, 6, MoveEnd::LapLimit));
    assert_eq!(rules.status(&after), Status::LapLimit);
    assert_eq!(rules.status(&after).winner(), None);
    assert!(rules.legal_moves(&after).is_empty());
    // With a limit of 3 the first repeat (lap 3) falls within it: the move
    // is endless, whatever the cycle search would have needed to see it.
    let rules = variant(2, 2, "capture_trigger = \"empty\"\nlap_limit = 3");
    let (after, r) = play(&rules, &pos, "b1");
    assert_board(&rules, &after, ENDLESS_STATE_A);
    assert_eq!(r, report(3, 0, 0, 9, MoveEnd::Endless));
    assert_eq!(rules.status(&after), Status::EndlessMove);
}

// ---------------------------------------------------------------------------
// ply_limit

#[test]
fn ply_limit() {
    let rules = variant(4, 4, "ply_limit = 3");
    let board = "
        4  2 0 0 0
        3  0 0 0 0
        2  0 0 0 0
        1  0 2 0 0";
    let pos = at_ply(&rules, board, Player::South, 2);
    assert_eq!(rules.status(&pos), Status::Ongoing);
    // Ply 3, the last allowed: b1 lifts 2: c1 d1, d1 was empty.
    let (after, _) = play(&rules, &pos, "b1");
    assert_board(
        &rules,
        &after,
        "4  2 0 0 0
         3  0 0 0 0
         2  0 0 0 0
         1  0 0 1 1",
    );
    assert_eq!(after.plies(), 3);
    assert_eq!(rules.status(&after), Status::PlyLimit);
    assert_eq!(rules.status(&after).winner(), None);
    assert!(rules.legal_moves(&after).is_empty());
    // North's a4 would be legal without the limit; now nothing is.
    assert_illegal(&rules, &after, "a4");
}

/// A move that leaves the opponent without a move wins even on the last
/// allowed ply: a win is checked before the ply limit.
#[test]
fn ply_limit_does_not_hide_a_win() {
    let rules = variant(
        4,
        4,
        "capture_trigger = \"either\"\nmin_victim_seeds_after_empty = 1\nply_limit = 7",
    );
    // The capture of min_victim_seeds_after_empty_one, played as ply 7.
    let pos = at_ply(&rules, AFTER_EMPTY_POS, Player::South, 6);
    let (after, _) = play(&rules, &pos, "d1");
    assert_eq!(after.plies(), 7);
    assert_eq!(rules.status(&after), Status::Won(Player::South));
}

// ---------------------------------------------------------------------------
// game_end, backward_circuit, empty_landing_refusal, lone_seed_step and
// step_sowing (docs/RULES.md §2, §5, §7, §9). Each golden is data: a
// position, then one or more decisions with the exact board, report,
// player to move, plies, status and legal moves after each. Every one is
// run on the engine by its own test and, all together, on the independent
// reference implementation (src/reference) by
// `goldens_hold_on_the_reference`, so a golden that the reference does
// not play as written by hand fails even while the engine is wrong.
//
// Circuits used below (docs/RULES.md §2):
// - 6×6 South backward, mirrored: f1 e1 d1 c1 b1 a1, a2 b2 c2 d2 e2 f2,
//   f3 e3 d3 c3 b3 a3, f1 …  North's, turned: a6 … f6, f5 … a5, a4 … f4.
// - 6×6 South backward, reversed: a1 f3 e3 d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 f1
//   e1 d1 c1 b1 a1 …
// - 4×8 South forward: a1 … h1, h2 … a2, a1 …

/// Where a golden's rules come from.
enum Book {
    Preset(&'static str),
    /// rows, holes, `[rules]` lines.
    Custom(usize, usize, &'static str),
}

/// One decision of a golden and everything true after it.
struct Turn {
    mv: &'static str,
    board: &'static str,
    /// laps, captures, seeds captured, seeds sown, end.
    report: (u64, u32, u64, u64, MoveEnd),
    to_move: Player,
    plies: u32,
    status: Status,
    legal: &'static [&'static str],
}

struct Golden {
    name: &'static str,
    book: Book,
    board: &'static str,
    to_move: Player,
    legal: &'static [&'static str],
    turns: &'static [Turn],
}

fn golden_rules(g: &Golden) -> Rules {
    match g.book {
        Book::Preset(name) => shipped(name),
        Book::Custom(rows, holes, lines) => variant(rows, holes, lines),
    }
}

fn on_engine(g: &Golden) {
    let rules = golden_rules(g);
    let mut pos = at(&rules, g.board, g.to_move);
    assert_eq!(
        legal(&rules, &pos),
        g.legal,
        "{}: legal at the start",
        g.name
    );
    for t in g.turns {
        let m = parse_move(&rules, t.mv).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(move_name(&rules, m), t.mv, "notation round trip");
        let total = seeds_on_board(&rules, &pos);
        let r = rules
            .play(&mut pos, m)
            .unwrap_or_else(|_| panic!("{}: {} is illegal", g.name, t.mv));
        assert_board(&rules, &pos, t.board);
        assert_eq!(seeds_on_board(&rules, &pos), total, "seeds conserved");
        let (laps, captures, taken, sown, end) = t.report;
        assert_eq!(r, report(laps, captures, taken, sown, end), "{}", g.name);
        assert_eq!(pos.to_move(), t.to_move, "{}: to move", g.name);
        assert_eq!(pos.plies(), t.plies, "{}: plies", g.name);
        assert_eq!(rules.status(&pos), t.status, "{}: status", g.name);
        assert_eq!(
            legal(&rules, &pos),
            t.legal,
            "{}: legal after {}",
            g.name,
            t.mv
        );
    }
}

fn on_reference(g: &Golden) {
    let rules = golden_rules(g);
    let r = reference::Reference::new(rules.settings());
    let as_rows = |text: &str| -> Vec<Vec<u32>> {
        let holes = parse_board_text(&rules, text).unwrap_or_else(|e| panic!("{e}"));
        (0..rules.settings().rows)
            .map(|row| {
                (0..rules.settings().holes)
                    .map(|col| holes[rules.hole_at(row, col)] as u32)
                    .collect()
            })
            .collect()
    };
    let names = |pos: &reference::Pos| -> Vec<String> {
        r.legal_moves(pos)
            .iter()
            .map(|&m| move_name(&rules, m))
            .collect()
    };
    let mut pos = r.start();
    pos.board = as_rows(g.board);
    pos.to_move = g.to_move.index();
    assert_eq!(names(&pos), g.legal, "{}: legal at the start", g.name);
    for t in g.turns {
        let m = parse_move(&rules, t.mv).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.legal_moves(&pos).contains(&m), "{}: {}", g.name, t.mv);
        let rep = r.play(&mut pos, m);
        assert_eq!(
            pos.board,
            as_rows(t.board),
            "{}: board after {}",
            g.name,
            t.mv
        );
        assert_eq!(
            (
                rep.laps,
                rep.captures,
                rep.seeds_captured,
                rep.seeds_sown,
                rep.end
            ),
            t.report,
            "{}: report of {}",
            g.name,
            t.mv
        );
        assert_eq!(pos.to_move, t.to_move.index(), "{}: to move", g.name);
        assert_eq!(pos.plies, t.plies, "{}: plies", g.name);
        assert_eq!(r.status(&pos), t.status, "{}: status", g.name);
        assert_eq!(names(&pos), t.legal, "{}: legal after {}", g.name, t.mv);
    }
}

/// AFTER_EMPTY_POS, d1: lap 1 d2 c2; c2 was empty and takes c3 (1), North
/// keeping a4: lap 2 sows 2 from c2: b2 a2; a2 was empty, row 3 is empty
/// now, so a2 faces a4 (1): North's last seed. The move and the game end:
/// a2 keeps its landing seed and a4's. 2 laps, 2 + 2 sown.
const GAME_END_OPPONENT_EMPTY: Golden = Golden {
    name: "game_end opponent-empty",
    book: Book::Custom(4, 4, "capture_trigger = \"either\""),
    board: AFTER_EMPTY_POS,
    to_move: Player::South,
    legal: &["d1"],
    turns: &[Turn {
        mv: "d1",
        board: "4  0 0 0 0
                3  0 0 0 0
                2  2 1 0 1
                1  0 0 0 0",
        report: (2, 2, 2, 4, MoveEnd::OpponentEmpty),
        to_move: Player::North,
        plies: 1,
        status: Status::Won(Player::South),
        legal: &[],
    }],
};

/// The same move played out: a2 takes a4 and 1 + 1 = 2 are sown from a2:
/// a1 b1; b1 was empty, and row 1 cannot capture while row 2 holds seeds
/// (nor is there a victim left): the move ends. 3 laps, 2 + 2 + 2 sown.
const GAME_END_PLAY_OUT: Golden = Golden {
    name: "game_end play-out",
    book: Book::Custom(
        4,
        4,
        "capture_trigger = \"either\"\ngame_end = \"play-out\"",
    ),
    board: AFTER_EMPTY_POS,
    to_move: Player::South,
    legal: &["d1"],
    turns: &[Turn {
        mv: "d1",
        board: "4  0 0 0 0
                3  0 0 0 0
                2  0 1 0 1
                1  1 1 0 0",
        report: (3, 2, 2, 6, MoveEnd::EmptyHole),
        to_move: Player::North,
        plies: 1,
        status: Status::Won(Player::South),
        legal: &[],
    }],
};

/// With a lap limit of 2, the capture ending lap 2 empties North: the move
/// ends there and would not go on, so the limit does not stop it.
const GAME_END_BEFORE_LAP_LIMIT: Golden = Golden {
    name: "game_end opponent-empty at the lap limit",
    book: Book::Custom(4, 4, "capture_trigger = \"either\"\nlap_limit = 2"),
    board: AFTER_EMPTY_POS,
    to_move: Player::South,
    legal: &["d1"],
    turns: &[Turn {
        mv: "d1",
        board: "4  0 0 0 0
                3  0 0 0 0
                2  2 1 0 1
                1  0 0 0 0",
        report: (2, 2, 2, 4, MoveEnd::OpponentEmpty),
        to_move: Player::North,
        plies: 1,
        status: Status::Won(Player::South),
        legal: &[],
    }],
};

/// Played out under the same limit, the capture at a2 would lift and sow a
/// third lap: the move stops before lifting, a4 untaken.
const PLAY_OUT_AT_THE_LAP_LIMIT: Golden = Golden {
    name: "game_end play-out at the lap limit",
    book: Book::Custom(
        4,
        4,
        "capture_trigger = \"either\"\ngame_end = \"play-out\"\nlap_limit = 2",
    ),
    board: AFTER_EMPTY_POS,
    to_move: Player::South,
    legal: &["d1"],
    turns: &[Turn {
        mv: "d1",
        board: "4  1 0 0 0
                3  0 0 0 0
                2  1 1 0 1
                1  0 0 0 0",
        report: (2, 1, 1, 4, MoveEnd::LapLimit),
        to_move: Player::North,
        plies: 1,
        status: Status::LapLimit,
        legal: &[],
    }],
};

const C1_TEN: &str = "
    6  2 0 0 0 0 0
    5  0 0 0 0 0 0
    4  0 0 0 0 0 0
    3  0 0 0 0 0 0
    2  0 0 0 0 0 0
    1  0 0 10 0 0 0";

/// c1- on the mirrored circuit: b1 a1, up to a2 and along row 2 to f2, up
/// to f3, then e3; e3 was empty (and the trigger is an occupied landing):
/// the move ends. North's a6- goes the mirrored way too: b6 c6.
const BACKWARD_MIRRORED: Golden = Golden {
    name: "backward_circuit mirrored",
    book: Book::Custom(
        6,
        6,
        "direction = \"each-move\"\nbackward_circuit = \"mirrored\"",
    ),
    board: C1_TEN,
    to_move: Player::South,
    legal: &["c1+", "c1-"],
    turns: &[
        Turn {
            mv: "c1-",
            board: "6  2 0 0 0 0 0
                    5  0 0 0 0 0 0
                    4  0 0 0 0 0 0
                    3  0 0 0 0 1 1
                    2  1 1 1 1 1 1
                    1  1 1 0 0 0 0",
            report: (1, 0, 0, 10, MoveEnd::EmptyHole),
            to_move: Player::North,
            plies: 1,
            status: Status::Ongoing,
            legal: &["a6+", "a6-"],
        },
        Turn {
            mv: "a6-",
            board: "6  0 1 1 0 0 0
                    5  0 0 0 0 0 0
                    4  0 0 0 0 0 0
                    3  0 0 0 0 1 1
                    2  1 1 1 1 1 1
                    1  1 1 0 0 0 0",
            report: (1, 0, 0, 2, MoveEnd::EmptyHole),
            to_move: Player::South,
            plies: 2,
            status: Status::Ongoing,
            legal: &["a1+", "a1-", "b1+", "b1-"],
        },
    ],
};

/// c1- on the reversed circuit: b1 a1, then f3 (a1's predecessor going
/// forward) and row 3 back to a3, a2, b2; b2 was empty: the move ends.
const BACKWARD_REVERSED: Golden = Golden {
    name: "backward_circuit reversed",
    book: Book::Custom(6, 6, "direction = \"each-move\""),
    board: C1_TEN,
    to_move: Player::South,
    legal: &["c1+", "c1-"],
    turns: &[Turn {
        mv: "c1-",
        board: "6  2 0 0 0 0 0
                5  0 0 0 0 0 0
                4  0 0 0 0 0 0
                3  1 1 1 1 1 1
                2  1 1 0 0 0 0
                1  1 1 0 0 0 0",
        report: (1, 0, 0, 10, MoveEnd::EmptyHole),
        to_move: Player::North,
        plies: 1,
        status: Status::Ongoing,
        legal: &["a6+", "a6-"],
    }],
};

const G_ONES_4X8: &str = "
    4  2 0 0 0 0 0 1 0
    3  0 0 0 0 0 0 1 0
    2  0 0 0 0 0 0 0 0
    1  0 0 0 0 0 0 0 2";

/// h1+ sows h2 g2; g2 was empty, in South's inner row, and faces g3 = 1,
/// g4 = 1: every opponent hole of the column holds one seed, so no capture
/// (both victims together would meet the minimum of 1). The move ends.
const REFUSAL_ALL_ONES: Golden = Golden {
    name: "empty_landing_refusal all-ones, refused",
    book: Book::Preset("katra-boaoaka-ludii"),
    board: G_ONES_4X8,
    to_move: Player::South,
    legal: &["h1+", "h1-"],
    turns: &[Turn {
        mv: "h1+",
        board: "4  2 0 0 0 0 0 1 0
                3  0 0 0 0 0 0 1 0
                2  0 0 0 0 0 0 1 1
                1  0 0 0 0 0 0 0 0",
        report: (1, 0, 0, 2, MoveEnd::EmptyHole),
        to_move: Player::North,
        plies: 1,
        status: Status::Ongoing,
        legal: &["g3+", "g3-", "a4+", "a4-", "g4+", "g4-"],
    }],
};

/// The same move under katra-boaoaka-4x8 (below-minimum, minimum 2): g3
/// and g4 hold 2 together, a capture: 2 + 1 = 3 sown from g2: f2 e2 d2; d2
/// was empty and column d holds nothing: the move ends.
const REFUSAL_BELOW_MINIMUM: Golden = Golden {
    name: "empty_landing_refusal below-minimum",
    book: Book::Preset("katra-boaoaka-4x8"),
    board: G_ONES_4X8,
    to_move: Player::South,
    legal: &["h1+", "h1-"],
    turns: &[Turn {
        mv: "h1+",
        board: "4  2 0 0 0 0 0 0 0
                3  0 0 0 0 0 0 0 0
                2  0 0 0 1 1 1 0 1
                1  0 0 0 0 0 0 0 0",
        report: (2, 1, 2, 5, MoveEnd::EmptyHole),
        to_move: Player::North,
        plies: 1,
        status: Status::Ongoing,
        legal: &["a4+", "a4-"],
    }],
};

/// A lone seed facing an empty hole (g3 = 0, g4 = 1) is captured under
/// all-ones: 1 + 1 = 2 sown from g2: f2 e2; e2 was empty, column e holds
/// nothing: the move ends.
const ALL_ONES_LONE_SEED_TAKEN: Golden = Golden {
    name: "empty_landing_refusal all-ones, lone seed taken",
    book: Book::Preset("katra-boaoaka-ludii"),
    board: "4  2 0 0 0 0 0 1 0
            3  0 0 0 0 0 0 0 0
            2  0 0 0 0 0 0 0 0
            1  0 0 0 0 0 0 0 2",
    to_move: Player::South,
    legal: &["h1+", "h1-"],
    turns: &[Turn {
        mv: "h1+",
        board: "4  2 0 0 0 0 0 0 0
                3  0 0 0 0 0 0 0 0
                2  0 0 0 0 1 1 0 1
                1  0 0 0 0 0 0 0 0",
        report: (2, 1, 1, 4, MoveEnd::EmptyHole),
        to_move: Player::North,
        plies: 1,
        status: Status::Ongoing,
        legal: &["a4+", "a4-"],
    }],
};

const LONE_B2_NO_VICTIM: &str = "
    6  1 0 0 0 0 0
    5  0 0 0 0 0 0
    4  0 0 0 0 0 0
    3  0 0 0 0 0 0
    2  0 1 0 0 0 0
    1  0 0 0 0 0 0";

/// katro-ludii: column b holds no opposing seed, so b2>b3 would not capture
/// and is not offered. b2- goes the mirrored way along row 2: c2, empty.
/// North's lone a6 may then step to a5 (outer to middle: offered always).
const STEP_NOT_OFFERED: Golden = Golden {
    name: "lone_seed_step no-failed-capture, not offered",
    book: Book::Preset("katro-ludii"),
    board: LONE_B2_NO_VICTIM,
    to_move: Player::South,
    legal: &["b2+", "b2-"],
    turns: &[Turn {
        mv: "b2-",
        board: "6  1 0 0 0 0 0
                5  0 0 0 0 0 0
                4  0 0 0 0 0 0
                3  0 0 0 0 0 0
                2  0 0 1 0 0 0
                1  0 0 0 0 0 0",
        report: (1, 0, 0, 1, MoveEnd::EmptyHole),
        to_move: Player::North,
        plies: 1,
        status: Status::Ongoing,
        legal: &["a6+", "a6-", "a6>a5"],
    }],
};

/// katro-ludii's rules but lone_seed_step = "always": the failing step is
/// offered, and played it ends the move in b3.
const STEP_ALWAYS: Golden = Golden {
    name: "lone_seed_step always",
    book: Book::Custom(
        6,
        6,
        "direction = \"each-move\"\nbackward_circuit = \"mirrored\"\ncapturing_row = \"inner\"
victim = \"column\"\nlone_seed = \"straight\"\nstep_sowing = \"chosen\"",
    ),
    board: LONE_B2_NO_VICTIM,
    to_move: Player::South,
    legal: &["b2+", "b2-", "b2>b3"],
    turns: &[Turn {
        mv: "b2>b3",
        board: "6  1 0 0 0 0 0
                5  0 0 0 0 0 0
                4  0 0 0 0 0 0
                3  0 1 0 0 0 0
                2  0 0 0 0 0 0
                1  0 0 0 0 0 0",
        report: (0, 0, 0, 0, MoveEnd::Step),
        to_move: Player::North,
        plies: 1,
        status: Status::Ongoing,
        legal: &["a6+", "a6-", "a6>a5"],
    }],
};

const LONE_B2_B5: &str = "
    6  1 0 0 0 0 0
    5  0 2 0 0 0 0
    4  0 0 0 0 0 0
    3  0 0 0 0 0 0
    2  0 1 0 0 0 0
    1  0 0 0 0 0 0";

const AFTER_B2_B3: &str = "
    6  1 0 0 0 0 0
    5  0 0 0 0 0 0
    4  0 0 0 0 0 0
    3  0 3 0 0 0 0
    2  0 0 0 0 0 0
    1  0 0 0 0 0 0";

/// After b2>b3's capture, its 3 seeds sown forward from b3: c3 d3 e3.
const SOWN_ON_FROM_B3: &str = "
    6  1 0 0 0 0 0
    5  0 0 0 0 0 0
    4  0 0 0 0 0 0
    3  0 0 1 1 1 0
    2  0 0 0 0 0 0
    1  0 0 0 0 0 0";

/// The step's capture pauses the turn: b4 is empty, so b5 (2) per column
/// joins the stepped seed in b3; South is still to move, no ply counted,
/// and only the two continuations are legal.
const PAUSE: Turn = Turn {
    mv: "b2>b3",
    board: AFTER_B2_B3,
    report: (0, 1, 2, 0, MoveEnd::Continues),
    to_move: Player::South,
    plies: 0,
    status: Status::Ongoing,
    legal: &["b3+", "b3-"],
};

/// katro-ludii, b2>b3 then b3-: the 3 seeds of b3 go the mirrored way, a3,
/// then from the inner row's last hole to f1, e1; e1 was empty.
const STEP_SOWING_CHOSEN: Golden = Golden {
    name: "step_sowing chosen, b3-",
    book: Book::Preset("katro-ludii"),
    board: LONE_B2_B5,
    to_move: Player::South,
    legal: &["b2+", "b2-", "b2>b3"],
    turns: &[
        PAUSE,
        Turn {
            mv: "b3-",
            board: "6  1 0 0 0 0 0
                    5  0 0 0 0 0 0
                    4  0 0 0 0 0 0
                    3  1 0 0 0 0 0
                    2  0 0 0 0 0 0
                    1  0 0 0 0 1 1",
            report: (1, 0, 0, 3, MoveEnd::EmptyHole),
            to_move: Player::North,
            plies: 1,
            status: Status::Ongoing,
            legal: &["a6+", "a6-", "a6>a5"],
        },
    ],
};

/// katro-ludii, b2>b3 then b3+: c3 d3 e3; e3 was empty and faces nothing.
const STEP_SOWING_CHOSEN_FORWARD: Golden = Golden {
    name: "step_sowing chosen, b3+",
    book: Book::Preset("katro-ludii"),
    board: LONE_B2_B5,
    to_move: Player::South,
    legal: &["b2+", "b2-", "b2>b3"],
    turns: &[
        PAUSE,
        Turn {
            mv: "b3+",
            board: SOWN_ON_FROM_B3,
            report: (1, 0, 0, 3, MoveEnd::EmptyHole),
            to_move: Player::North,
            plies: 1,
            status: Status::Ongoing,
            legal: &["a6+", "a6-", "a6>a5"],
        },
    ],
};

/// katro-ludii's rules with step_sowing = "forward": the step's capture is
/// sown on at once, forward: 2 + 1 from b3: c3 d3 e3. One ply, one lap.
const STEP_SOWING_FORWARD: Golden = Golden {
    name: "step_sowing forward",
    book: Book::Custom(
        6,
        6,
        "direction = \"each-move\"\nbackward_circuit = \"mirrored\"\ncapturing_row = \"inner\"
victim = \"column\"\nlone_seed = \"straight\"\nlone_seed_step = \"no-failed-capture\"",
    ),
    board: LONE_B2_B5,
    to_move: Player::South,
    legal: &["b2+", "b2-", "b2>b3"],
    turns: &[Turn {
        mv: "b2>b3",
        board: SOWN_ON_FROM_B3,
        report: (1, 1, 2, 3, MoveEnd::EmptyHole),
        to_move: Player::North,
        plies: 1,
        status: Status::Ongoing,
        legal: &["a6+", "a6-", "a6>a5"],
    }],
};

const LONE_B2_LAST_B5: &str = "
    6  0 0 0 0 0 0
    5  0 2 0 0 0 0
    4  0 0 0 0 0 0
    3  0 0 0 0 0 0
    2  0 1 0 0 0 0
    1  0 0 0 0 0 0";

/// katro-ludii, North's only seeds in b5: b2>b3 takes them all, so the game
/// ends at once, the 2 + 1 seeds in b3, with no continuation.
const STEP_EMPTIES_OPPONENT: Golden = Golden {
    name: "game_end opponent-empty on a chosen step",
    book: Book::Preset("katro-ludii"),
    board: LONE_B2_LAST_B5,
    to_move: Player::South,
    legal: &["b2+", "b2-", "b2>b3"],
    turns: &[Turn {
        mv: "b2>b3",
        board: EMPTY_AFTER_STEP,
        report: (0, 1, 2, 0, MoveEnd::OpponentEmpty),
        to_move: Player::North,
        plies: 1,
        status: Status::Won(Player::South),
        legal: &[],
    }],
};

const EMPTY_AFTER_STEP: &str = "
    6  0 0 0 0 0 0
    5  0 0 0 0 0 0
    4  0 0 0 0 0 0
    3  0 3 0 0 0 0
    2  0 0 0 0 0 0
    1  0 0 0 0 0 0";

/// The same under play-out: the turn pauses although North is empty, and
/// b3+ sows c3 d3 e3 before South wins.
const STEP_PLAY_OUT: Golden = Golden {
    name: "game_end play-out on a chosen step",
    book: Book::Custom(
        6,
        6,
        "direction = \"each-move\"\nbackward_circuit = \"mirrored\"\ncapturing_row = \"inner\"
victim = \"column\"\nlone_seed = \"straight\"\nlone_seed_step = \"no-failed-capture\"
step_sowing = \"chosen\"\ngame_end = \"play-out\"",
    ),
    board: LONE_B2_LAST_B5,
    to_move: Player::South,
    legal: &["b2+", "b2-", "b2>b3"],
    turns: &[
        Turn {
            mv: "b2>b3",
            board: EMPTY_AFTER_STEP,
            report: (0, 1, 2, 0, MoveEnd::Continues),
            to_move: Player::South,
            plies: 0,
            status: Status::Ongoing,
            legal: &["b3+", "b3-"],
        },
        Turn {
            mv: "b3+",
            board: "6  0 0 0 0 0 0
                    5  0 0 0 0 0 0
                    4  0 0 0 0 0 0
                    3  0 0 1 1 1 0
                    2  0 0 0 0 0 0
                    1  0 0 0 0 0 0",
            report: (1, 0, 0, 3, MoveEnd::EmptyHole),
            to_move: Player::North,
            plies: 1,
            status: Status::Won(Player::South),
            legal: &[],
        },
    ],
};

const NEW_GOLDENS: &[&Golden] = &[
    &GAME_END_OPPONENT_EMPTY,
    &GAME_END_PLAY_OUT,
    &GAME_END_BEFORE_LAP_LIMIT,
    &PLAY_OUT_AT_THE_LAP_LIMIT,
    &BACKWARD_MIRRORED,
    &BACKWARD_REVERSED,
    &REFUSAL_ALL_ONES,
    &REFUSAL_BELOW_MINIMUM,
    &ALL_ONES_LONE_SEED_TAKEN,
    &STEP_NOT_OFFERED,
    &STEP_ALWAYS,
    &STEP_SOWING_CHOSEN,
    &STEP_SOWING_CHOSEN_FORWARD,
    &STEP_SOWING_FORWARD,
    &STEP_EMPTIES_OPPONENT,
    &STEP_PLAY_OUT,
];

/// The reference plays every golden of this section exactly as worked by
/// hand: the goldens are checked independently of the engine.
#[test]
fn goldens_hold_on_the_reference() {
    for g in NEW_GOLDENS {
        on_reference(g);
    }
}

#[test]
fn game_end_opponent_empty() {
    on_engine(&GAME_END_OPPONENT_EMPTY);
    on_engine(&STEP_EMPTIES_OPPONENT);
}

#[test]
fn game_end_play_out() {
    on_engine(&GAME_END_PLAY_OUT);
    on_engine(&STEP_PLAY_OUT);
}

#[test]
fn game_end_comes_before_the_lap_limit() {
    on_engine(&GAME_END_BEFORE_LAP_LIMIT);
    on_engine(&PLAY_OUT_AT_THE_LAP_LIMIT);
}

#[test]
fn backward_circuit_mirrored() {
    on_engine(&BACKWARD_MIRRORED);
}

#[test]
fn backward_circuit_reversed() {
    on_engine(&BACKWARD_REVERSED);
}

#[test]
fn empty_landing_refusal_all_ones() {
    on_engine(&REFUSAL_ALL_ONES);
    on_engine(&ALL_ONES_LONE_SEED_TAKEN);
}

#[test]
fn empty_landing_refusal_below_minimum() {
    on_engine(&REFUSAL_BELOW_MINIMUM);
}

#[test]
fn lone_seed_step_no_failed_capture() {
    on_engine(&STEP_NOT_OFFERED);
    // The capturing step is offered: STEP_SOWING_CHOSEN's first decision.
    on_engine(&STEP_SOWING_CHOSEN);
}

#[test]
fn lone_seed_step_always() {
    on_engine(&STEP_ALWAYS);
}

#[test]
fn step_sowing_chosen() {
    on_engine(&STEP_SOWING_CHOSEN);
    on_engine(&STEP_SOWING_CHOSEN_FORWARD);
}

#[test]
fn step_sowing_forward() {
    on_engine(&STEP_SOWING_FORWARD);
}
