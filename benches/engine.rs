//! The engine's inner loops under criterion: move generation, applying a
//! move, a whole random game; whole random and greedy games through
//! `play_game` (the lane kernel) and on the engine. `katro bench`
//! measures whole runs the way `katro run` plays them; these isolate the
//! parts.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use katro_core::agents::AgentSpec;
use katro_core::engine::{MoveList, Silent};
use katro_core::game::{play_game, play_game_on_engine};
use katro_core::rng::{below, rng_from_seed};
use katro_core::rules::preset;
use katro_core::{Position, Rules};

/// Positions met in random play: every position of a few games.
fn positions(rules: &Rules, games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = rng_from_seed(g);
        let mut pos = rules.start();
        while let Some(mv) = rules.random_move(&pos, &mut rng) {
            out.push(pos);
            rules.play_unchecked(&mut pos, mv, &mut Silent);
        }
    }
    out
}

/// A copy of a preset with a lower lap limit, so a rare move that runs to
/// the limit (10 million laps) does not swamp what is being measured.
fn short_moves(name: &str) -> Rules {
    let rules = preset(name).expect("a shipped preset");
    let mut s = rules.settings().clone();
    s.lap_limit = 100_000;
    Rules::new(rules.name().to_string(), String::new(), String::new(), s)
        .expect("a valid lap limit")
}

fn bench(c: &mut Criterion) {
    for name in ["katro-6x6", "katro-ludii"] {
        let rules = short_moves(name);
        let pos = positions(&rules, 20);
        let mut list = MoveList::new();
        c.bench_function(
            &format!("{name}/legal_moves ({} positions)", pos.len()),
            |b| {
                b.iter(|| {
                    let mut n = 0;
                    for p in &pos {
                        rules.legal_moves_into(black_box(p), &mut list);
                        n += list.len();
                    }
                    n
                })
            },
        );
        let moves: Vec<_> = pos
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let legal = rules.legal_moves(p);
                legal[i % legal.len()]
            })
            .collect();
        c.bench_function(&format!("{name}/play ({} moves)", pos.len()), |b| {
            b.iter_batched_ref(
                || pos.clone(),
                |ps| {
                    let mut laps = 0;
                    for (p, &mv) in ps.iter_mut().zip(&moves) {
                        laps += rules.play_unchecked(p, mv, &mut Silent).laps;
                    }
                    laps
                },
                BatchSize::LargeInput,
            )
        });
        let mut seed = 0;
        c.bench_function(&format!("{name}/random game"), |b| {
            b.iter(|| {
                seed += 1;
                let mut rng = rng_from_seed(seed);
                let mut pos = rules.start();
                let mut list = MoveList::new();
                loop {
                    rules.legal_moves_into(&pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    let mv = list[below(&mut rng, list.len())];
                    rules.play_unchecked(&mut pos, mv, &mut Silent);
                }
                rules.status(&pos)
            })
        });
    }
    // Whole games as the runner plays them: on the lane kernel through
    // `play_game`, and on the engine, the same games (presets as shipped).
    for name in ["katro-6x6", "katro-ludii", "katra-boaoaka-4x8"] {
        let rules = preset(name).expect("a shipped preset");
        for agent in [AgentSpec::Random, AgentSpec::Greedy] {
            let mut seed = 0;
            c.bench_function(&format!("{name}/{agent} game, play_game"), |b| {
                b.iter(|| {
                    seed += 1;
                    play_game(&rules, &agent, &agent, 0, seed, None).laps
                })
            });
            let mut seed = 0;
            c.bench_function(&format!("{name}/{agent} game, engine"), |b| {
                b.iter(|| {
                    seed += 1;
                    play_game_on_engine(&rules, &agent, &agent, 0, seed, None).laps
                })
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
