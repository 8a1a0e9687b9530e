//! The lane kernel (crates/core/src/engine/kernel.rs) against the engine, outside the
//! runner: per-CPU-second rates and fixed game counts for callgrind.
//! docs/PERFORMANCE.md quotes what this prints; examples/lanes/NOTES.md has
//! the prototype's history.
//!
//! ```text
//! cargo build --release --example lanes
//! target/release/examples/lanes time [GAMES] [ROUNDS] [AGENT]   # games per CPU second, both ways
//! target/release/examples/lanes count VARIANT GAMES kernel|engine|none [AGENT]   # for callgrind
//! ```
//!
//! `AGENT` (random or greedy) plays both sides.

use katro_core::agents::AgentSpec;
use katro_core::game::{play_game, play_game_on_engine};
use katro_core::rules::{Rules, preset};
use std::time::Instant;

const VARIANTS: [&str; 3] = ["katro-6x6", "katro-ludii", "katra-boaoaka-4x8"];

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| -> Result<u64, String> {
        match args.get(i) {
            Some(s) => s.parse().map_err(|e| format!("argument {i}: {s}: {e}")),
            None => Ok(default),
        }
    };
    let agent = |i: usize| -> Result<AgentSpec, String> {
        AgentSpec::parse(args.get(i).map_or("random", String::as_str)).map_err(String::from)
    };
    let rules = |name: &str| preset(name).ok_or(format!("no preset {name}"));
    match args.first().map(String::as_str) {
        Some("time") => {
            let games = num(1, 20_000)?;
            let rounds = num(2, 3)?.max(1) as usize;
            let a = agent(3)?;
            for v in VARIANTS {
                time(&rules(v)?, &a, games, rounds)?;
            }
            Ok(())
        }
        Some("count") => {
            let v = args.get(1).ok_or("count VARIANT GAMES kernel|engine|none")?;
            let games = num(2, 2_000)?;
            let which = args.get(3).map_or("kernel", String::as_str);
            count(&rules(v)?, &agent(4)?, games, which)
        }
        _ => Err("usage: lanes time [GAMES] [ROUNDS] [AGENT] | count VARIANT GAMES kernel|engine|none [AGENT]".into()),
    }
}

/// Nanoseconds this thread has run on a CPU (Linux schedstat): on a
/// machine shared with other work, a steadier clock than the wall.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Games per CPU second of playing `games` games one way; their laps.
fn rate(games: u64, play: impl Fn(u64) -> u64) -> (f64, u64) {
    let c = cpu_ns();
    let t = Instant::now();
    let laps = (0..games).map(play).sum();
    let cpu = match (c, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
        _ => t.elapsed().as_secs_f64(),
    };
    (games as f64 / cpu, laps)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Games per CPU second through `play_game` (the kernel) and the engine,
/// on the same games.
fn time(rules: &Rules, a: &AgentSpec, games: u64, rounds: usize) -> Result<(), String> {
    let (mut k, mut e) = (vec![], vec![]);
    for _ in 0..rounds {
        let (rk, lk) = rate(games, |s| play_game(rules, a, a, 0, s, None).laps);
        let (re, le) = rate(games, |s| play_game_on_engine(rules, a, a, 0, s, None).laps);
        if lk != le {
            return Err(format!("{}: laps differ: {lk} against {le}", rules.name()));
        }
        k.push(rk);
        e.push(re);
    }
    let (mk, me) = (median(k), median(e));
    println!(
        "{} ({a} vs {a}), {games} games x {rounds} rounds, median games per CPU second: \
         play_game {mk:.0}, engine {me:.0}, ratio {:.2}",
        rules.name(),
        mk / me
    );
    Ok(())
}

/// Plays a fixed number of games one way, for instruction counts.
fn count(rules: &Rules, a: &AgentSpec, games: u64, which: &str) -> Result<(), String> {
    let (mut plies, mut laps, mut relays, mut hashes) = (0u64, 0u64, 0u64, 0u64);
    for seed in 0..games {
        let g = match which {
            "kernel" => play_game(rules, a, a, 0, seed, None),
            "engine" => play_game_on_engine(rules, a, a, 0, seed, None),
            "none" => continue,
            other => return Err(format!("count: {other}: kernel, engine or none")),
        };
        plies += g.plies as u64;
        laps += g.laps;
        relays += g.max_relays_in_move;
        hashes = hashes.wrapping_add(g.hash);
    }
    println!(
        "{} {which} ({a}): {games} games, {plies} plies, {laps} laps, \
         max_relays_in_move sum {relays}, hash sum {hashes:016x}",
        rules.name()
    );
    Ok(())
}
