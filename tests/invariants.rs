//! Properties every preset must have, on random positions and on positions
//! reached by random play: seeds are conserved; turning the board through
//! 180 degrees and swapping the players gives the turned result; the legal
//! move list is exactly what `play` accepts; positions compare and hash by
//! value. Positions reached by play also pass `katro::checks::check_position`,
//! the fuzzers' check, which is stricter (it needs a position reached by
//! play, so the drawn layouts are checked by this file's own).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use katro::checks;
use katro::engine::{Dir, IllegalMove, MAX_HOLES, Move, MoveEnd, Player, Position, Silent};
use katro::rng::{below, rng_from_seed};
use katro::rules::{DirectionRule, Rules, preset, preset_names};
use proptest::prelude::*;

/// Every preset, with its lap limit lowered to 100,000. Why: under
/// katro-wikipedia some random positions start relay chains that run to the
/// preset's 10,000,000-lap backstop, seconds each in a debug build. A move
/// stopped by the lower limit still has to conserve seeds and mirror, so no
/// property is weakened; only the backstop fires sooner.
fn presets() -> &'static [Rules] {
    static PRESETS: OnceLock<Vec<Rules>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        preset_names()
            .into_iter()
            .map(|name| {
                let rules = preset(name).expect("listed presets exist");
                let lap_limit = rules.settings().lap_limit.min(100_000);
                rules
                    .with_limits(None, Some(lap_limit))
                    .expect("a valid lap limit")
            })
            .collect()
    })
}

fn total(rules: &Rules, pos: &Position) -> u32 {
    checks::seed_total(rules, pos)
}

fn hash_of(pos: &Position) -> u64 {
    let mut h = DefaultHasher::new();
    pos.hash(&mut h);
    h.finish()
}

/// A random position as drawn by proptest, fitted to each board.
#[derive(Clone, Debug)]
struct Drawn {
    /// Seeds per hole; only the first `hole_count` are used.
    holes: Vec<u16>,
    north_to_move: bool,
    /// Directions already fixed (used only under `once-per-game`).
    fixed: [Option<bool>; 2],
    plies: u32,
    /// When set, the mover's side is cleared and holds one seed, in its
    /// (n mod side)-th hole: the lone-seed rules need exactly that, and a
    /// random layout almost never gives it.
    lone: Option<usize>,
}

impl Drawn {
    fn position(&self, rules: &Rules) -> Position {
        let dir = |d: Option<bool>| d.map(|f| if f { Dir::Forward } else { Dir::Backward });
        let fixed = if rules.settings().direction == DirectionRule::OncePerGame {
            [dir(self.fixed[0]), dir(self.fixed[1])]
        } else {
            [None, None]
        };
        let to_move = if self.north_to_move {
            Player::North
        } else {
            Player::South
        };
        let mut holes = self.holes[..rules.hole_count()].to_vec();
        if let Some(n) = self.lone {
            let own: Vec<usize> = (0..holes.len())
                .filter(|&h| rules.owner(h) == to_move)
                .collect();
            for &h in &own {
                holes[h] = 0;
            }
            holes[own[n % own.len()]] = 1;
        }
        rules
            .position(&holes, to_move, fixed, self.plies)
            .expect("drawn positions fit every board")
    }
}

/// Dense layouts (0 to 4 a hole) and sparse ones (mostly empty, so lone
/// seeds, empty rows and singleton-only rows come up often). The total is
/// at most 4 × 128 seeds.
fn drawn() -> impl Strategy<Value = Drawn> {
    let dense = prop::collection::vec(0u16..=4, MAX_HOLES);
    let sparse = prop::collection::vec(
        prop_oneof![6 => Just(0u16), 2 => Just(1u16), 1 => 2u16..=5],
        MAX_HOLES,
    );
    (
        prop_oneof![dense, sparse],
        any::<bool>(),
        [any::<Option<bool>>(), any::<Option<bool>>()],
        0u32..20,
        prop_oneof![2 => Just(None), 1 => any::<usize>().prop_map(Some)],
    )
        .prop_map(|(holes, north_to_move, fixed, plies, lone)| Drawn {
            holes,
            north_to_move,
            fixed,
            plies,
            lone,
        })
}

/// A position reached from the start by up to `plies` uniformly random
/// legal moves.
fn played(rules: &Rules, seed: u64, plies: u32) -> Position {
    let mut rng = rng_from_seed(seed);
    let mut pos = rules.start();
    for _ in 0..plies {
        let legal = rules.legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let mv = legal[below(&mut rng, legal.len())];
        rules.play(&mut pos, mv).expect("a listed move is legal");
    }
    pos
}

/// Every move `play` could be handed on this board: every hole with no
/// suffix, `+` and `-`, and every `from>to` pair.
fn every_move(rules: &Rules) -> Vec<Move> {
    let n = rules.hole_count();
    let mut all = Vec::with_capacity(3 * n + n * n);
    for h in 0..n {
        for dir in [None, Some(Dir::Forward), Some(Dir::Backward)] {
            all.push(Move::sow(h, dir));
        }
        for to in 0..n {
            all.push(Move::step(h, to));
        }
    }
    all
}

/// What must hold of any position, however many seeds it holds: for the
/// drawn layouts of `random_positions`. `katro::checks::check_position`
/// cannot be used there: it checks a position reached by play (it holds
/// the rules' `total_seeds`; a side emptied by the last move, not before).
fn check_position(rules: &Rules, pos: &Position) -> Result<(), TestCaseError> {
    let name = &rules.name();
    // Clone, equality, hash.
    let copy = *pos;
    prop_assert_eq!(copy, *pos);
    prop_assert_eq!(hash_of(&copy), hash_of(pos));
    let mirrored = rules.mirror(pos);
    prop_assert_eq!(rules.mirror(&mirrored), *pos, "{}: mirror twice", name);
    prop_assert_eq!(hash_of(&rules.mirror(&mirrored)), hash_of(pos));

    // The legal lists correspond under the mirror.
    let legal = rules.legal_moves(pos);
    let mut turned: Vec<Move> = legal.iter().map(|&m| rules.mirror_move(m)).collect();
    turned.sort();
    let mut mirror_legal: Vec<Move> = rules.legal_moves(&mirrored).to_vec();
    mirror_legal.sort();
    prop_assert_eq!(turned, mirror_legal, "{}: legal moves of the mirror", name);
    prop_assert_eq!(rules.status(&mirrored).name(), rules.status(pos).name());

    let seeds = total(rules, pos);
    for &mv in legal.iter() {
        let mut after = *pos;
        let report = rules.play(&mut after, mv);
        prop_assert!(report.is_ok(), "{}: listed move {:?} rejected", name, mv);
        let report = report.unwrap();
        prop_assert_eq!(
            total(rules, &after),
            seeds,
            "{}: seeds after {:?}",
            name,
            mv
        );
        // A capturing step under `step_sowing = "chosen"` pauses the turn
        // for a second decision (RULES.md §7); every other move passes it.
        if report.end == MoveEnd::Continues {
            prop_assert_eq!(after.plies(), pos.plies());
            prop_assert_eq!(after.to_move(), pos.to_move());
        } else {
            prop_assert_eq!(after.plies(), pos.plies() + 1);
            prop_assert_eq!(after.to_move(), pos.to_move().other());
        }

        let mut mirror_after = mirrored;
        let mirror_report = rules.play(&mut mirror_after, rules.mirror_move(mv));
        prop_assert!(
            mirror_report.is_ok(),
            "{}: mirrored {:?} rejected",
            name,
            mv
        );
        prop_assert_eq!(
            mirror_report.unwrap(),
            report,
            "{}: report of {:?}",
            name,
            mv
        );
        prop_assert_eq!(
            mirror_after,
            rules.mirror(&after),
            "{}: mirrored result of {:?}",
            name,
            mv
        );
        // The unchecked path gives the same result for a legal move.
        let mut unchecked = *pos;
        prop_assert_eq!(
            rules.play_unchecked(&mut unchecked, mv, &mut Silent),
            report
        );
        prop_assert_eq!(unchecked, after);
    }

    // Nothing else is accepted, and a rejected move changes nothing.
    for mv in every_move(rules) {
        if legal.contains(&mv) {
            continue;
        }
        let mut p = *pos;
        prop_assert_eq!(
            rules.play(&mut p, mv),
            Err(IllegalMove(mv)),
            "{}: {:?}",
            name,
            mv
        );
        prop_assert_eq!(p, *pos);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_positions(d in drawn()) {
        for rules in presets() {
            check_position(rules, &d.position(rules))?;
        }
    }

    /// Positions reached by play pass the fuzzers' own check,
    /// `katro::checks::check_position` (seeds, status, mirror, every listed
    /// move played and checked), and the rest of this file's.
    #[test]
    fn positions_from_random_play(seed in any::<u64>(), plies in 0u32..80) {
        for rules in presets() {
            let pos = played(rules, seed, plies);
            checks::check_position(rules, &pos)
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", rules.name())))?;
            check_position(rules, &pos)?;
        }
    }
}

/// The start position of every preset is a legal game start: South to move,
/// seeds on both sides, and a move available.
#[test]
fn every_preset_starts_playable() {
    for rules in presets() {
        let start = rules.start();
        assert_eq!(start.to_move(), Player::South, "{}", rules.name());
        assert_eq!(
            total(rules, &start),
            rules.total_seeds(),
            "{}",
            rules.name()
        );
        assert!(!rules.legal_moves(&start).is_empty(), "{}", rules.name());
        assert!(
            rules.settings().ply_limit >= 5_000,
            "{}: issue 2 asks for ≥ 5000",
            rules.name()
        );
    }
}
