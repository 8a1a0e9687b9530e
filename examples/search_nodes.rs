//! A fixed amount of `alphabeta` deep search, for instruction counts
//! (docs/PERFORMANCE.md, "Alpha-beta speed"): `search_nodes VARIANT SPEC
//! POSITIONS` searches POSITIONS positions of seeded random games (the
//! positions `katro bench --alphabeta` uses) with the deep search SPEC
//! sets, and prints the searches, the nodes and the sum of the values, so
//! two builds are checked to search alike before their counts are
//! compared (`valgrind --tool=callgrind`).

use katro_core::agents::{AgentSpec, DEFAULT_TT_BITS, alphabeta};
use katro_core::engine::Silent;
use katro_core::rng::{below, rng_from_seed};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, spec, count] = args.as_slice() else {
        eprintln!("usage: search_nodes VARIANT SPEC POSITIONS");
        std::process::exit(2);
    };
    let rules = katro_core::rules::preset(variant).unwrap_or_else(|| {
        eprintln!("no preset {variant}");
        std::process::exit(2)
    });
    let count: usize = count.parse().unwrap_or_else(|_| {
        eprintln!("POSITIONS: a number, not {count}");
        std::process::exit(2)
    });
    let Ok(AgentSpec::Alphabeta {
        depth,
        nodes,
        tt,
        eval,
    }) = AgentSpec::parse(spec)
    else {
        eprintln!("SPEC: an alphabeta agent, like alphabeta:depth=12,nodes=20000");
        std::process::exit(2)
    };
    let limits = alphabeta::Limits {
        depth,
        nodes,
        tt_bits: tt.unwrap_or(DEFAULT_TT_BITS),
        eval: eval.unwrap_or_default(),
    };
    let mut rng = rng_from_seed(1);
    let (mut searches, mut total_nodes, mut values) = (0u64, 0u64, 0i64);
    while (searches as usize) < count {
        let mut pos = rules.start();
        let stop = below(&mut rng, 60);
        for _ in 0..stop {
            let legal = rules.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            rules.play_unchecked(&mut pos, legal[below(&mut rng, legal.len())], &mut Silent);
        }
        let legal = rules.legal_moves(&pos);
        if legal.is_empty() {
            continue;
        }
        let found = alphabeta::analyse_deep(&rules, &pos, &legal, limits);
        searches += 1;
        total_nodes += found.nodes;
        values += i64::from(found.analysis.value);
    }
    println!("{searches} searches, {total_nodes} nodes, values sum {values}");
}
