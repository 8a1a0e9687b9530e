//! Time per move of each agent on katro-6x6, under criterion: the same 30
//! positions of random games for every agent (what was an ignored test,
//! `agents::tests::time_per_move`, which only printed timings). Run with
//! `cargo bench --bench agents`; the deep searches take seconds a sample.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use katro_core::agents::AgentSpec;
use katro_core::agents::testing::random_positions;
use katro_core::rng::rng_from_seed;
use katro_core::rules::preset;

fn bench(c: &mut Criterion) {
    let rules = preset("katro-6x6").expect("a shipped preset");
    let positions = random_positions(&rules, 30, 99);
    let mut group = c.benchmark_group("katro-6x6 time per move (30 positions)");
    group.sample_size(10);
    for text in [
        "greedy",
        "alphabeta:depth=1",
        "alphabeta:depth=2",
        "alphabeta:depth=3",
        "alphabeta:depth=4",
        "alphabeta:depth=6",
        "alphabeta:depth=8",
        "mcts:iterations=100",
        "mcts:iterations=1000",
    ] {
        let agent = AgentSpec::parse(text).expect("a valid agent");
        group.bench_function(text, |b| {
            b.iter(|| {
                for (i, pos) in positions.iter().enumerate() {
                    let legal = rules.legal_moves(pos);
                    let mut rng = rng_from_seed(i as u64);
                    black_box(agent.choose(&rules, pos, &legal, &mut rng));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
