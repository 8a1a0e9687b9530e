//! Lists the moves of more than 1,000 laps in N random games of a variant,
//! with how each ended: the measurement behind docs/PERFORMANCE.md's
//! account of moves that run to the lap limit.
//!
//! `cargo run --release --example long_moves -- katro-6x6 20000`

use katro_core::engine::Silent;
use katro_core::rng::{below, rng_from_seed};
use katro_core::rules::{parse_variant, preset};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "katro-6x6".into());
    let games: u64 = match args.next() {
        Some(n) => n.parse().map_err(|e| format!("games: {e}"))?,
        None => 20_000,
    };
    let rules = match preset(&name) {
        Some(r) => r,
        None => {
            let text = std::fs::read_to_string(&name).map_err(|e| format!("{name}: {e}"))?;
            parse_variant(&name, &text, "variant").map_err(|e| e.to_string())?
        }
    };
    let mut long = Vec::new();
    let mut total_laps = 0u64;
    for g in 0..games {
        let mut rng = rng_from_seed(g);
        let mut pos = rules.start();
        loop {
            let legal = rules.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let mv = legal[below(&mut rng, legal.len())];
            let r = rules.play_unchecked(&mut pos, mv, &mut Silent);
            total_laps += r.laps;
            if r.laps > 1_000 {
                long.push((g, pos.plies(), r.laps, r.end.name()));
            }
        }
    }
    println!(
        "{}: {games} games (seeds 0..{games}), {total_laps} laps; {} moves of more than 1,000 laps:",
        rules.name(),
        long.len()
    );
    for (g, ply, laps, end) in long {
        println!("  game {g}, ply {ply}: {laps} laps, ended {end}");
    }
    Ok(())
}
