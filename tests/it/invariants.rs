//! Properties every preset must have, on random positions and on positions
//! reached by random play: seeds are conserved; turning the board through
//! 180 degrees and swapping the players gives the turned result; the legal
//! move list is exactly what `play` accepts; positions compare and hash by
//! value. The checks are `katro_core::checks`' (the fuzzers' own):
//! `check_position` for positions reached by play, `check_layout`, which
//! assumes no game behind the position, for drawn layouts.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use katro_core::checks;
use katro_core::engine::{Dir, MAX_HOLES, Move, Player, Position};
use katro_core::rng::{below, rng_from_seed};
use katro_core::rules::{DirectionRule, Rules, preset, preset_names};
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

/// What `katro_core::checks` leaves to this file: positions compare and hash by
/// value, and `play` refuses every move not listed, changing nothing.
fn check_value_and_unlisted(rules: &Rules, pos: &Position) -> Result<(), TestCaseError> {
    let copy = *pos;
    prop_assert_eq!(copy, *pos);
    prop_assert_eq!(hash_of(&copy), hash_of(pos));
    prop_assert_eq!(hash_of(&rules.mirror(&rules.mirror(pos))), hash_of(pos));
    for mv in every_move(rules) {
        checked(rules, checks::check_rejected(rules, pos, mv))?;
    }
    Ok(())
}

/// A `katro_core::checks` verdict as a proptest failure naming the preset.
fn checked(rules: &Rules, verdict: Result<(), String>) -> Result<(), TestCaseError> {
    verdict.map_err(|e| TestCaseError::fail(format!("{}: {e}", rules.name())))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Drawn layouts, reachable by play or not, pass
    /// `katro_core::checks::check_layout` (mirror, every listed move played and
    /// checked, the layout's own seeds conserved).
    #[test]
    fn random_positions(d in drawn()) {
        for rules in presets() {
            let pos = d.position(rules);
            checked(rules, checks::check_layout(rules, &pos))?;
            check_value_and_unlisted(rules, &pos)?;
        }
    }

    /// Positions reached by play pass the fuzzers' own check,
    /// `katro_core::checks::check_position` (the rules' seeds, status, and what
    /// `check_layout` checks).
    #[test]
    fn positions_from_random_play(seed in any::<u64>(), plies in 0u32..80) {
        for rules in presets() {
            let pos = played(rules, seed, plies);
            checked(rules, checks::check_position(rules, &pos))?;
            check_value_and_unlisted(rules, &pos)?;
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
