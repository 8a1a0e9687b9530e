//! The `alphabeta` agent's decisions, pinned: for every preset of
//! experiments/strong-play.toml and a range of specs (plain depth-limited
//! searches, the deep search at several node budgets and evaluations),
//! the value, the tied best moves, the depth completed and the nodes
//! counted of searches from seeded positions, and whole seeded games of
//! the deep agents, compared line by line with
//! `tests/golden/alphabeta-moves.txt`.
//!
//! Why: the search is tuned for speed (docs/PERFORMANCE.md), and a
//! speed-up must visit the same nodes in the same order, or games played
//! at a node budget change. The golden file was written by the search as
//! it was before it was tuned (commit message of the file), so any
//! change to what it finds, or to how many nodes it counts, fails here.
//!
//! `KATRO_BLESS=1 cargo test --release --test it alphabeta_golden::` rewrites
//! the file; only do that for a change meant to alter the search, and say
//! so.

use std::fmt::Write as _;
use std::path::PathBuf;

use katro_core::agents::AgentSpec;
use katro_core::agents::alphabeta::{self, Eval, Limits};
use katro_core::agents::perfect::Tables;
use katro_core::agents::testing::random_positions;
use katro_core::engine::notation::move_name;
use katro_core::engine::{Move, Position};
use katro_core::rng::{below, rng_from_seed};
use katro_core::rules::{Rules, preset};

/// strong-play.toml's variants, with its lap limit.
const VARIANTS: [&str; 8] = [
    "katro-6x6",
    "katro-4x4",
    "katro-4x6",
    "katro-6x3",
    "katro-6x6-diagonal",
    "katro-ludii",
    "katra-boaoaka-4x8",
    "katra-boaoaka-ludii",
];
const LAP_LIMIT: u64 = 10_000;

/// Specs searched from every position (strong-play's alphabeta agents
/// among them), and how many positions each: the costly ones fewer.
const SPECS: [(&str, usize); 10] = [
    ("alphabeta:depth=2", 40),
    ("alphabeta:depth=4", 40),
    ("alphabeta:depth=5,nodes=7,tt=10,eval=features", 40),
    ("alphabeta:depth=6,eval=fitted", 20),
    ("alphabeta:depth=12,nodes=1000,eval=fitted", 40),
    ("alphabeta:depth=12,nodes=2000,eval=fitted", 40),
    ("alphabeta:depth=12,nodes=20000", 20),
    ("alphabeta:depth=12,nodes=20000,eval=features", 10),
    ("alphabeta:depth=12,nodes=20000,eval=fitted", 40),
    ("alphabeta:depth=12,nodes=200000,eval=fitted", 4),
];

/// Deep agents whose seeded self-play games are pinned move by move.
const GAMES: [(&str, u32); 3] = [
    ("alphabeta:depth=12,nodes=1000,eval=fitted", 80),
    ("alphabeta:depth=12,nodes=2000,eval=fitted", 60),
    ("alphabeta:depth=12,nodes=20000,eval=fitted", 40),
];

fn rules_of(name: &str) -> Rules {
    preset(name)
        .unwrap_or_else(|| panic!("no preset {name}"))
        .with_limits(None, Some(LAP_LIMIT))
        .unwrap()
}

/// A short fingerprint of a position, so the file shows which one a line
/// searched (FNV-1a over the holes, the player to move and the plies).
fn fingerprint(pos: &Position) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for &s in pos.holes() {
        eat(u64::from(s));
    }
    eat(pos.to_move().index() as u64);
    eat(u64::from(pos.plies()));
    eat(pos.pending().map_or(0, |p| p as u64 + 1));
    h
}

fn moves(rules: &Rules, best: &[Move]) -> String {
    best.iter()
        .map(|&m| move_name(rules, m))
        .collect::<Vec<_>>()
        .join(",")
}

/// The deep search's limits for a spec, as the agent sets them.
fn limits(spec: &AgentSpec) -> Option<Limits> {
    match *spec {
        AgentSpec::Alphabeta {
            nodes: None,
            tt: None,
            eval: None,
            ..
        } => None,
        AgentSpec::Alphabeta {
            depth,
            nodes,
            tt,
            eval,
        } => Some(Limits {
            depth,
            nodes,
            tt_bits: tt.unwrap_or(katro_core::agents::DEFAULT_TT_BITS),
            eval: eval.unwrap_or(Eval::Seeds),
        }),
        _ => panic!("not an alphabeta spec"),
    }
}

fn render() -> String {
    let mut out = String::from(
        "# The alphabeta agent's decisions (tests/it/alphabeta_golden.rs).\n\
         # search lines: variant spec position fingerprint value depth nodes best-moves\n\
         # (depth and nodes are - for the plain search, which counts none);\n\
         # game lines: variant spec game ply move nodes, of a seeded self-play game.\n\
         # Regenerate with KATRO_BLESS=1 cargo test --release --test it alphabeta_golden::,\n\
         # only for a change meant to alter the search.\n",
    );
    for (v, name) in VARIANTS.iter().enumerate() {
        let rules = rules_of(name);
        let all = random_positions(&rules, 40, 1000 + v as u64);
        for (text, count) in SPECS {
            let spec = AgentSpec::parse(text).unwrap();
            for (i, pos) in all.iter().take(count).enumerate() {
                let legal = rules.legal_moves(pos);
                let fp = fingerprint(pos);
                let line = match limits(&spec) {
                    None => {
                        let AgentSpec::Alphabeta { depth, .. } = spec else {
                            unreachable!()
                        };
                        let a = alphabeta::analyse(&rules, pos, &legal, depth);
                        format!("{} - - {}", a.value, moves(&rules, &a.best))
                    }
                    Some(limits) => {
                        let d = alphabeta::analyse_deep(&rules, pos, &legal, limits);
                        format!(
                            "{} {} {} {}",
                            d.analysis.value,
                            d.depth,
                            d.nodes,
                            moves(&rules, &d.analysis.best)
                        )
                    }
                };
                writeln!(out, "{name} {text} {i} {fp:016x} {line}").unwrap();
            }
        }
        for (text, plies) in GAMES {
            let spec = AgentSpec::parse(text).unwrap();
            let limits = limits(&spec).unwrap();
            for game in 0..2u64 {
                let mut rng = rng_from_seed(7 + game);
                let mut pos = rules.start();
                for ply in 0..plies {
                    let legal = rules.legal_moves(&pos);
                    if legal.is_empty() {
                        break;
                    }
                    // strong-play's opening: 4 uniformly random plies.
                    let (mv, nodes) = if ply < 4 {
                        (legal[below(&mut rng, legal.len())], 0)
                    } else {
                        let nodes = if legal.len() > 1 {
                            alphabeta::analyse_deep(&rules, &pos, &legal, limits).nodes
                        } else {
                            0
                        };
                        let tables = Tables::new();
                        let mut seat = spec.start_game(&tables);
                        (seat.choose(&rules, &pos, &legal, &mut rng), nodes)
                    };
                    writeln!(
                        out,
                        "{name} {text} {game} {ply} {} {nodes}",
                        move_name(&rules, mv)
                    )
                    .unwrap();
                    rules.play(&mut pos, mv).unwrap();
                }
            }
        }
    }
    out
}

#[test]
fn the_search_decides_as_the_golden_file_says() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
        .join("alphabeta-moves.txt");
    let now = render();
    if std::env::var("KATRO_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run KATRO_BLESS=1 cargo test --release --test it alphabeta_golden::",
            path.display()
        )
    });
    let (want_lines, now_lines) = (want.lines().count(), now.lines().count());
    for (n, (w, g)) in want.lines().zip(now.lines()).enumerate() {
        assert_eq!(g, w, "{} line {}: found vs golden", path.display(), n + 1);
    }
    assert_eq!(now_lines, want_lines, "{}: lines", path.display());
}
