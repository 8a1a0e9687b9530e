//! Prototype of a faster engine core (issue 9, item 4): lanes of seed
//! counts in one `u128` a side, one table record per lap, kernels compiled
//! per rule set. Plays random-vs-random games exactly as
//! `katro::runner::play_game` does, checks that against the current engine
//! game by game, and times both. Design and results: examples/lanes/NOTES.md.
//!
//! ```text
//! cargo build --release --example lanes
//! target/release/examples/lanes check [GAMES] [EXTRA]   # exactness: presets, then rare paths
//! target/release/examples/lanes time [GAMES] [ROUNDS]   # games/s, kernel and engine
//! target/release/examples/lanes count VARIANT GAMES kernel|engine|none  # for callgrind
//! ```

#[path = "lanes/kernel.rs"]
mod kernel;

use katro::agents::AgentSpec;
use katro::rules::{GameEnd, Rules, preset};
use katro::runner::play_game;
use kernel::{
    Boaoaka4x8, Canonical2xN, Canonical4xN, Canonical6x6, Kernel, Ludii6x6, NoRecord, Outcome, Spec,
};
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
    match args.first().map(String::as_str) {
        Some("check") => {
            let games = num(1, 20_000)?;
            let extra = num(2, 2_000)?;
            let bad = check_all(games, extra)?;
            if bad > 0 {
                return Err(format!("{bad} games differ"));
            }
            Ok(())
        }
        Some("time") => {
            let games = num(1, 20_000)?;
            let rounds = num(2, 3)?.max(1) as usize;
            for v in VARIANTS {
                dispatch(v, |k, s| time(k, s, games, rounds))?;
            }
            Ok(())
        }
        Some("count") => {
            let v = args.get(1).ok_or("count VARIANT GAMES kernel|engine|none")?;
            let games = num(2, 2_000)?;
            let which = args.get(3).map(String::as_str).unwrap_or("kernel");
            dispatch(v, |k, s| count(k, s, games, which))?;
            Ok(())
        }
        _ => Err("usage: lanes check [GAMES] | time [GAMES] [ROUNDS] | count VARIANT GAMES kernel|engine|none".into()),
    }
}

/// Which kernel plays a variant: the five compiled here.
#[derive(Clone, Copy)]
enum Which {
    Canonical,
    Canonical2,
    Canonical1,
    Ludii,
    Boaoaka,
}

fn dispatch(
    name: &str,
    f: impl FnOnce(&Kernel, Which) -> Result<u32, String>,
) -> Result<u32, String> {
    dispatch_rules(preset(name).ok_or(format!("no preset {name}"))?, f)
}

/// The kernel compiled for a rule set: tried in turn, each checking the
/// settings it was compiled for.
fn dispatch_rules(
    rules: Rules,
    f: impl FnOnce(&Kernel, Which) -> Result<u32, String>,
) -> Result<u32, String> {
    dispatch_with(rules, None, f)
}

fn dispatch_with(
    rules: Rules,
    fallback_laps: Option<u64>,
    f: impl FnOnce(&Kernel, Which) -> Result<u32, String>,
) -> Result<u32, String> {
    let (k, w) = if let Ok(k) = Kernel::new::<Canonical6x6>(rules.clone()) {
        (k, Which::Canonical)
    } else if let Ok(k) = Kernel::new::<Canonical4xN>(rules.clone()) {
        (k, Which::Canonical2)
    } else if let Ok(k) = Kernel::new::<Canonical2xN>(rules.clone()) {
        (k, Which::Canonical1)
    } else if let Ok(k) = Kernel::new::<Ludii6x6>(rules.clone()) {
        (k, Which::Ludii)
    } else {
        (Kernel::new::<Boaoaka4x8>(rules)?, Which::Boaoaka)
    };
    let mut k = k;
    if let Some(laps) = fallback_laps {
        k.set_fallback_laps(laps);
    }
    f(&k, w)
}

/// Presets as shipped, then the paths those games rarely or never take:
/// endless moves and the lap limit on small boards, moves stopped by a
/// low lap limit (every turn past it replayed by the engine, lone-seed
/// steps and continuations included), and the ply limit.
fn check_all(games: u64, extra: u64) -> Result<u32, String> {
    let mut bad = 0;
    for v in VARIANTS {
        bad += dispatch(v, |k, s| check(k, s, games))?;
    }
    for v in ["katro-4x4", "katro-6x3", "katro-4x6"] {
        bad += dispatch(v, |k, s| check(k, s, extra))?;
    }
    // Every move of more than one lap replayed by the engine from the
    // turn's start: the hand-over itself, lone-seed steps and their
    // continuations included.
    for v in VARIANTS {
        let r = preset(v).ok_or("preset")?;
        println!("(engine after 1 lap)");
        bad += dispatch_with(r, Some(1), |k, s| check(k, s, extra))?;
    }
    // Play-out: a mover who has taken every seed relays on, so moves reach
    // endless cycles and the lap limit (under opponent-empty, random games
    // of these boards showed none).
    for v in VARIANTS.iter().chain(&["katro-4x4", "katro-6x3"]) {
        let mut r = preset(v).ok_or("preset")?.settings().clone();
        r.game_end = GameEnd::PlayOut;
        r.lap_limit = 100_000;
        let name = format!("{v}, play-out, lap_limit = 100000");
        let r = Rules::new(name, String::new(), String::new(), r).map_err(|e| e.to_string())?;
        bad += dispatch_rules(r, |k, s| check(k, s, extra))?;
    }
    // Other seed counts and board shapes (the kernels for one and two rows
    // a side).
    for (v, rows, cols, seeds) in [
        ("katro-6x6", 6, 6, 3u16),
        ("katro-6x6", 2, 4, 2),
        ("katro-6x6", 2, 6, 2),
        ("katro-6x6", 2, 6, 3),
        ("katro-6x6", 2, 8, 3),
    ] {
        let mut r = preset(v).ok_or("preset")?.settings().clone();
        r.seeds = Some(seeds);
        r.rows = rows;
        r.holes = cols;
        let name = format!("{v} on {rows}x{cols} with {seeds} seeds a hole");
        let r = Rules::new(name, String::new(), String::new(), r).map_err(|e| e.to_string())?;
        bad += dispatch_rules(r, |k, s| check(k, s, extra))?;
    }
    // Starting layouts under play-out: tests/differential.rs's 2x2 position
    // (a relay cycle after the capture), and small 2xC ones, some of which
    // lead random games into endless moves.
    for (layout, lap_limit) in [
        (vec![vec![1u16, 2], vec![1, 0]], 30u64),
        (vec![vec![1, 2], vec![1, 0]], 1_000),
        (vec![vec![1, 3], vec![0, 1]], 100),
        (vec![vec![1, 3, 0], vec![1, 0, 1]], 100),
        (vec![vec![2, 3, 1], vec![0, 1, 2]], 100),
        (vec![vec![3, 1, 2, 0], vec![1, 0, 2, 1]], 100),
    ] {
        let mut r = preset("katro-6x6").ok_or("preset")?.settings().clone();
        r.rows = 2;
        r.holes = layout[0].len();
        r.seeds = None;
        r.layout = Some(layout.clone());
        r.lap_limit = lap_limit;
        r.game_end = GameEnd::PlayOut;
        let name = format!("layout {layout:?}, play-out, lap_limit = {lap_limit}");
        let r = Rules::new(name, String::new(), String::new(), r).map_err(|e| e.to_string())?;
        bad += dispatch_rules(r, |k, s| check(k, s, extra.min(200)))?;
    }
    for v in VARIANTS {
        for (key, value) in [("lap_limit", 12u64), ("ply_limit", 40)] {
            let mut r = preset(v).ok_or("preset")?.settings().clone();
            match key {
                "lap_limit" => r.lap_limit = value,
                _ => r.ply_limit = value as u32,
            }
            let name = format!("{v} with {key} = {value}");
            let r = Rules::new(name, String::new(), String::new(), r).map_err(|e| e.to_string())?;
            bad += dispatch_rules(r, |k, s| check(k, s, extra))?;
        }
    }
    Ok(bad)
}

fn play_kernel<R: kernel::Recorder>(k: &Kernel, w: Which, seed: u64, rec: &mut R) -> Outcome {
    match w {
        Which::Canonical => k.play::<Canonical6x6, R>(seed, rec),
        Which::Canonical2 => k.play::<Canonical4xN, R>(seed, rec),
        Which::Canonical1 => k.play::<Canonical2xN, R>(seed, rec),
        Which::Ludii => k.play::<Ludii6x6, R>(seed, rec),
        Which::Boaoaka => k.play::<Boaoaka4x8, R>(seed, rec),
    }
}

fn name_of(w: Which) -> &'static str {
    match w {
        Which::Canonical => Canonical6x6::NAME,
        Which::Canonical2 => Canonical4xN::NAME,
        Which::Canonical1 => Canonical2xN::NAME,
        Which::Ludii => Ludii6x6::NAME,
        Which::Boaoaka => Boaoaka4x8::NAME,
    }
}

/// Plays `games` games both ways and compares every decision and result.
fn check(k: &Kernel, w: Which, games: u64) -> Result<u32, String> {
    let (mut bad, mut fallbacks, mut plies, mut laps) = (0u32, 0u64, 0u64, 0u64);
    let mut fallback_steps = 0u64;
    // Lone-seed steps among the moves compared.
    let mut steps = 0u64;
    let mut statuses = std::collections::BTreeMap::new();
    for seed in 0..games {
        let mut want = Vec::new();
        let g = play_game(
            &k.rules,
            &AgentSpec::Random,
            &AgentSpec::Random,
            0,
            seed,
            Some(&mut want),
        );
        steps += want.iter().filter(|m| m.is_step()).count() as u64;
        let mut got = Vec::new();
        let o = play_kernel(k, w, seed, &mut got);
        let same = got == want
            && o.status == Some(g.status)
            && o.plies == g.plies
            && o.laps == g.laps
            && o.sown == g.seeds_sown
            && o.captures == g.captures;
        if !same {
            bad += 1;
            if bad <= 3 {
                let first = got.iter().zip(&want).position(|(a, b)| a != b);
                eprintln!(
                    "{}: game {seed} differs: engine {:?} plies {} laps {} sown {} captures {:?} ({} moves); \
                     kernel {:?} plies {} laps {} sown {} captures {:?} ({} moves); first differing move {:?}",
                    name_of(w),
                    g.status,
                    g.plies,
                    g.laps,
                    g.seeds_sown,
                    g.captures,
                    want.len(),
                    o.status,
                    o.plies,
                    o.laps,
                    o.sown,
                    o.captures,
                    got.len(),
                    first.map(|i| (i, want[i], got[i]))
                );
            }
        }
        fallbacks += o.fallbacks as u64;
        fallback_steps += o.fallback_steps as u64;
        plies += g.plies as u64;
        laps += g.laps;
        *statuses.entry(g.status.name()).or_insert(0u64) += 1;
    }
    println!(
        "{} ({} kernel): {games} games, {bad} differ; {plies} plies ({steps} lone-seed steps), {laps} laps; statuses {statuses:?}; \
         {fallbacks} turns handed to the engine ({fallback_steps} of them a step and its continuation)",
        k.rules.name(),
        name_of(w),
    );
    Ok(bad)
}

/// Nanoseconds this thread has run on a CPU (Linux schedstat): on a
/// machine shared with other work, a steadier clock than the wall.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Runs `f`, returning games per wall second and per CPU second.
fn rate(games: u64, f: impl FnOnce()) -> (f64, f64) {
    let c = cpu_ns();
    let t = Instant::now();
    f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (c, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
        _ => f64::NAN,
    };
    (games as f64 / wall, games as f64 / cpu)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Games/s of the kernel and of the current engine on the same games.
fn time(k: &Kernel, w: Which, games: u64, rounds: usize) -> Result<u32, String> {
    let (mut kw, mut kc, mut ew, mut ec) = (vec![], vec![], vec![], vec![]);
    let (mut plies, mut laps, mut laps2) = (0u64, 0u64, 0u64);
    for _ in 0..rounds {
        let (w1, c1) = rate(games, || {
            let (mut p, mut l) = (0u64, 0u64);
            for seed in 0..games {
                let o = play_kernel(k, w, seed, &mut NoRecord);
                p += o.plies as u64;
                l += o.laps;
            }
            (plies, laps) = (p, l);
        });
        let (w2, c2) = rate(games, || {
            laps2 = (0..games)
                .map(|seed| {
                    play_game(
                        &k.rules,
                        &AgentSpec::Random,
                        &AgentSpec::Random,
                        0,
                        seed,
                        None,
                    )
                    .laps
                })
                .sum();
        });
        if laps2 != laps {
            return Err(format!(
                "{}: laps differ: {laps} against {laps2}",
                name_of(w)
            ));
        }
        kw.push(w1);
        kc.push(c1);
        ew.push(w2);
        ec.push(c2);
    }
    let best = |v: &Vec<f64>| v.iter().cloned().fold(0.0, f64::max);
    let show = |v: &Vec<f64>| format!("best {:.0} median {:.0}", best(v), median(v.clone()));
    println!(
        "{}: {games} games x {rounds} rounds ({:.1} plies, {:.1} laps a game)\n  \
         kernel games/s: wall {}, cpu {}\n  engine games/s: wall {}, cpu {}\n  \
         kernel/engine, medians: wall {:.2}, cpu {:.2}",
        k.rules.name(),
        plies as f64 / games as f64,
        laps as f64 / games as f64,
        show(&kw),
        show(&kc),
        show(&ew),
        show(&ec),
        median(kw.clone()) / median(ew.clone()),
        median(kc.clone()) / median(ec.clone()),
    );
    Ok(0)
}

/// Plays a fixed number of games one way, for instruction counts.
fn count(k: &Kernel, w: Which, games: u64, which: &str) -> Result<u32, String> {
    let (mut plies, mut laps, mut fb, mut fbl) = (0u64, 0u64, 0u64, 0u64);
    let (mut kept, mut dropped) = (0u64, 0u64);
    for seed in 0..games {
        match which {
            "kernel" => {
                let o = play_kernel(k, w, seed, &mut NoRecord);
                plies += o.plies as u64;
                laps += o.laps;
                fb += o.fallbacks as u64;
                fbl += o.fallback_laps;
                kept += o.ahead_kept as u64;
                dropped += o.ahead_dropped as u64;
            }
            "engine" => {
                let g = play_game(
                    &k.rules,
                    &AgentSpec::Random,
                    &AgentSpec::Random,
                    0,
                    seed,
                    None,
                );
                plies += g.plies as u64;
                laps += g.laps;
            }
            "none" => {}
            other => return Err(format!("count: {other}: kernel, engine or none")),
        }
    }
    println!(
        "{} {which}: {games} games, {plies} plies, {laps} laps, {fb} fallbacks of {fbl} laps; \
         next choices drawn ahead: {kept} kept, {dropped} taken back",
        k.rules.name()
    );
    Ok(0)
}
