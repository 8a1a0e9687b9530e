//! The kernel against the engine: the same games, decision for decision.

use super::*;
use crate::agents::AgentSpec;
use crate::game::{play_game, play_game_on_engine};
use crate::rules::{BackwardCircuit, EndlessMove, preset};
use rand_xoshiro::rand_core::Rng;
use std::collections::BTreeMap;

const RANDOM: AgentSpec = AgentSpec::Random;
const GREEDY: AgentSpec = AgentSpec::Greedy;
const EPSILON: AgentSpec = AgentSpec::EpsilonGreedy { epsilon: 0.3 };

/// Plays games `0..games` on the kernel (through `play_game`) and on
/// the engine, comparing every decision and every counted figure;
/// returns the statuses seen and the turns the kernel handed over.
fn same_games(
    rules: &Rules,
    agents: (&AgentSpec, &AgentSpec),
    opening: u32,
    games: u64,
) -> (BTreeMap<&'static str, u64>, u64) {
    let k = rules.kernel().unwrap_or_else(|| {
        panic!(
            "{}: no kernel: {:?}",
            rules.name(),
            Kernel::for_rules(rules)
        )
    });
    let mut statuses = BTreeMap::new();
    let mut fallbacks = 0;
    for seed in 0..games {
        let (mut want, mut got) = (Vec::new(), Vec::new());
        let g = play_game_on_engine(rules, agents.0, agents.1, opening, seed, Some(&mut want));
        let f = play_game(rules, agents.0, agents.1, opening, seed, Some(&mut got));
        assert_eq!(
            (&f, &got),
            (&g, &want),
            "{} ({} vs {}, opening {opening}), game {seed}: kernel, then engine",
            rules.name(),
            agents.0,
            agents.1
        );
        let a = [kernel_agent(agents.0), kernel_agent(agents.1)];
        fallbacks += k.play_counting(rules, a, opening, seed, &mut |_| {}).1 as u64;
        *statuses.entry(g.status.name()).or_insert(0) += 1;
    }
    (statuses, fallbacks)
}

fn kernel_agent(a: &AgentSpec) -> Agent {
    crate::game::kernel_agent(a).expect("an agent the kernel plays")
}

fn custom(base: &str, name: &str, f: impl FnOnce(&mut crate::rules::Settings)) -> Rules {
    let mut s = preset(base).expect("a preset").settings().clone();
    f(&mut s);
    Rules::new(name.into(), String::new(), String::new(), s).expect("valid settings")
}

/// A preset's games on the kernel and on the engine: random, greedy and
/// mixed pairings, with and without random opening plies.
/// Returns the turns of the random games that the kernel handed over.
fn plays_the_same_games(r: &Rules) -> u64 {
    let (_, fallbacks) = same_games(r, (&RANDOM, &RANDOM), 0, 3_000);
    same_games(r, (&GREEDY, &GREEDY), 0, 300);
    same_games(r, (&GREEDY, &RANDOM), 3, 300);
    same_games(r, (&RANDOM, &GREEDY), 0, 300);
    same_games(r, (&EPSILON, &GREEDY), 2, 300);
    fallbacks
}

fn preset_plays_the_same_games(name: &str) {
    plays_the_same_games(&preset(name).expect("a preset"));
}

// One test a preset, so that the suite's threads share them out.
#[test]
fn katro_6x6_plays_the_same_games() {
    preset_plays_the_same_games("katro-6x6");
}

#[test]
fn katro_ludii_plays_the_same_games() {
    preset_plays_the_same_games("katro-ludii");
}

#[test]
fn katra_boaoaka_4x8_plays_the_same_games() {
    preset_plays_the_same_games("katra-boaoaka-4x8");
}

#[test]
fn katra_boaoaka_ludii_plays_the_same_games() {
    // As katro-wikipedia's below: its moves that run to the lap limit are
    // the engine's on either side (the kernel hands a move over after
    // FALLBACK_LAPS), and at the shipped 10 million laps they made this
    // test two minutes long.
    let r = custom(
        "katra-boaoaka-ludii",
        "katra-boaoaka-ludii, lap limit 10000",
        |s| s.lap_limit = 10_000,
    );
    assert!(
        plays_the_same_games(&r) > 0,
        "the engine's long moves are exercised"
    );
}

#[test]
fn the_small_boards_play_the_same_games() {
    for name in ["katro-4x4", "katro-4x6", "katro-6x3"] {
        preset_plays_the_same_games(name);
    }
}

#[test]
fn katro_wikipedia_plays_the_same_games() {
    // Its endless moves and moves to the lap limit are the engine's
    // either way, and slow at the shipped limit of 10 million laps.
    let wikipedia = custom("katro-wikipedia", "katro-wikipedia, lap limit 10000", |s| {
        s.lap_limit = 10_000
    });
    let (statuses, fallbacks) = same_games(&wikipedia, (&RANDOM, &RANDOM), 0, 1_000);
    assert!(
        fallbacks > 0 && statuses.contains_key("endless-move"),
        "{statuses:?}"
    );
    same_games(&wikipedia, (&GREEDY, &GREEDY), 0, 200);
    same_games(&wikipedia, (&EPSILON, &RANDOM), 4, 200);
}

#[test]
fn unsupported_rules_fall_back_to_the_engine() {
    // The diagonal lone seed is not written in any kernel.
    let r = preset("katro-6x6-diagonal").expect("a preset");
    assert!(Kernel::for_rules(&r).is_err());
    // Agents the kernel does not play take the engine too: the same
    // record as the engine's.
    let r = preset("katro-6x6").expect("a preset");
    let ab = AgentSpec::Alphabeta {
        depth: 1,
        nodes: None,
        tt: None,
        eval: None,
    };
    let a = play_game(&r, &ab, &RANDOM, 0, 3, None);
    for (rows, cols) in [(6, 7), (6, 8), (8, 2)] {
        let big = custom("katro-6x6", "big", |s| {
            s.rows = rows;
            s.holes = cols;
        });
        assert!(Kernel::for_rules(&big).is_err(), "{rows}x{cols}");
    }
    assert_eq!(a, play_game_on_engine(&r, &ab, &RANDOM, 0, 3, None));
}

/// Endless moves, the lap limit, the ply limit, play-out, other
/// boards and seed counts: the paths preset games rarely take.
#[test]
fn rare_paths_play_the_same_games() {
    let mut seen = BTreeMap::new();
    let mut fallbacks = 0;
    let cases = [limit_cases(), board_cases(), layout_cases()].concat();
    for (r, games) in cases {
        for agents in [(&RANDOM, &RANDOM), (&GREEDY, &GREEDY), (&EPSILON, &EPSILON)] {
            let (st, fb) = same_games(&r, agents, 0, games);
            for (k, v) in st {
                *seen.entry(k).or_insert(0) += v;
            }
            fallbacks += fb;
        }
    }
    // The paths must have been taken, or this test proves nothing.
    for status in ["endless-move", "lap-limit", "ply-limit"] {
        assert!(
            seen.get(status).copied().unwrap_or(0) > 0,
            "no {status} game: {seen:?}"
        );
    }
    assert!(fallbacks > 0);
}

/// The presets played out, and under a short lap or ply limit, with the
/// games to play of each.
fn limit_cases() -> Vec<(Rules, u64)> {
    let mut cases = Vec::new();
    for v in [
        "katro-6x6",
        "katro-ludii",
        "katra-boaoaka-4x8",
        "katro-4x4",
        "katro-6x3",
    ] {
        for mover_loses in [false, true] {
            let r = custom(v, "play-out", |s| {
                s.game_end = GameEnd::PlayOut;
                s.lap_limit = 100_000;
                if mover_loses {
                    s.endless_move = EndlessMove::MoverLoses;
                }
            });
            cases.push((r, 300));
        }
        cases.push((custom(v, "lap limit 12", |s| s.lap_limit = 12), 200));
        cases.push((custom(v, "ply limit 40", |s| s.ply_limit = 40), 200));
    }
    cases
}

/// Other boards and seed counts, with the games to play of each.
fn board_cases() -> Vec<(Rules, u64)> {
    let mut cases = Vec::new();
    for (rows, cols, seeds) in [(6, 6, 3u16), (2, 4, 2), (2, 6, 3), (2, 8, 3), (4, 3, 5)] {
        let r = custom("katro-6x6", "board", |s| {
            s.rows = rows;
            s.holes = cols;
            s.seeds = Some(seeds);
        });
        cases.push((r, 300));
    }
    for (cols, seeds) in [(3, 3u16), (4, 1), (5, 3)] {
        let r = custom("katro-ludii", "ludii board", |s| {
            s.holes = cols;
            s.seeds = Some(seeds);
        });
        cases.push((r, 300));
    }
    cases
}

/// Tiny boards from explicit layouts, played out, with the games to play
/// of each.
fn layout_cases() -> Vec<(Rules, u64)> {
    let layouts = [
        vec![vec![1u16, 2], vec![1, 0]],
        vec![vec![1, 3], vec![0, 1]],
        vec![vec![1, 3, 0], vec![1, 0, 1]],
        vec![vec![2, 3, 1], vec![0, 1, 2]],
    ];
    let layout_rules = |layout: &Vec<Vec<u16>>| {
        custom("katro-6x6", "layout", |s| {
            s.rows = 2;
            s.holes = layout[0].len();
            s.seeds = None;
            s.layout = Some(layout.clone());
            s.lap_limit = 1_000;
            s.game_end = GameEnd::PlayOut;
        })
    };
    layouts.iter().map(|l| (layout_rules(l), 100)).collect()
}

/// Every move past its first lap handed to the engine: the hand-over
/// itself (turn start rebuilt, decisions replayed), steps and their
/// continuations included.
#[test]
fn hand_over_after_one_lap_plays_the_same_games() {
    for v in ["katro-6x6", "katro-ludii", "katra-boaoaka-4x8"] {
        let r = preset(v).expect("a preset");
        let mut k = Kernel::for_rules(&r).expect("a kernel");
        k.set_fallback_laps(1);
        let mut handed = 0;
        for seed in 0..500 {
            for agents in [[RANDOM, RANDOM], [GREEDY, GREEDY], [EPSILON, EPSILON]] {
                let mut want = Vec::new();
                let g = play_game_on_engine(&r, &agents[0], &agents[1], 0, seed, Some(&mut want));
                let mut got = Vec::new();
                let a = [kernel_agent(&agents[0]), kernel_agent(&agents[1])];
                let (o, fallbacks) = k.play_counting(&r, a, 0, seed, &mut |m| got.push(m));
                assert_eq!((got, o), (want, g), "{v} game {seed}");
                handed += fallbacks;
            }
        }
        assert!(handed > 1_000, "{v}: {handed}");
    }
}

/// Any valid settings (the fuzzers' generator, which rarely draws a
/// shape a kernel plays): building a kernel never panics, a refusal
/// says why, and a kernel built plays the engine's games.
#[test]
fn any_settings_build_a_kernel_or_say_why_not() {
    struct Rng(GameRng);
    impl crate::checks::Draw for Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0.next_u64() % n
        }
        fn exhausted(&self) -> bool {
            false
        }
    }
    let mut d = Rng(rng_from_seed(9));
    for _ in 0..2_000 {
        let s = crate::checks::draw_settings(&mut d);
        let r = Rules::new("drawn".into(), String::new(), String::new(), s)
            .expect("the generator draws valid settings");
        match Kernel::for_rules(&r) {
            Ok(_) => {
                same_games(&r, (&RANDOM, &GREEDY), 1, 3);
            }
            Err(why) => assert!(why.0.contains("cannot play"), "{why}"),
        }
    }
}

/// Rules from the preset `base` with settings the kernels support drawn
/// by `pick` (a number below its argument).
fn random_supported(base: &str, pick: &mut impl FnMut(u64) -> u64) -> Rules {
    custom(base, "random", |s| {
        if base == "katro-6x6" {
            s.rows = [2, 4, 6][pick(3) as usize];
        }
        // Three rows a side of 7 or 8 holes do not fit the
        // lanes (the unsupported test checks they fall back).
        s.holes = 2 + pick(if s.rows == 6 { 5 } else { 7 }) as usize;
        s.seeds = Some(1 + pick(3) as u16);
        s.backward_circuit =
            [BackwardCircuit::Reversed, BackwardCircuit::Mirrored][pick(2) as usize];
        s.min_victim_seeds = 1 + pick(3) as u16;
        s.min_victim_seeds_after_empty = 1 + pick(3) as u16;
        s.game_end = [GameEnd::OpponentEmpty, GameEnd::PlayOut][pick(2) as usize];
        s.empty_landing_refusal = [
            EmptyLandingRefusal::BelowMinimum,
            EmptyLandingRefusal::AllOnes,
        ][pick(2) as usize];
        s.endless_move = [EndlessMove::Undecided, EndlessMove::MoverLoses][pick(2) as usize];
        s.ply_limit = [20, 300, 5_000][pick(3) as usize];
        s.lap_limit = [1, 70, 2_000][pick(3) as usize];
    })
}

/// Random settings among those the kernels support, every value of
/// each setting they read: board, seeds or layout, circuits, minimum
/// victims, game end, endless moves, limits.
#[test]
fn random_supported_settings_play_the_same_games() {
    let mut rng = rng_from_seed(2026);
    let mut played = BTreeMap::new();
    for case in 0..400 {
        let base = [
            "katro-6x6",
            "katro-ludii",
            "katra-boaoaka-4x8",
            "katro-wikipedia",
        ][case % 4];
        let mut pick = |n: u64| rng.next_u64() % n;
        let r = random_supported(base, &mut pick);
        let agents = [
            (&RANDOM, &RANDOM),
            (&GREEDY, &GREEDY),
            (&GREEDY, &RANDOM),
            (&EPSILON, &RANDOM),
        ][pick(4) as usize];
        same_games(&r, agents, pick(3) as u32, 20);
        *played.entry(base).or_insert(0) += 1;
    }
    assert_eq!(played.len(), 4);
}
