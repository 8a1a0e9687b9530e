//! Plays N random games through the public engine API only (`legal_moves`,
//! `play_unchecked`), so the same driver runs against every commit; used
//! under callgrind for docs/PERFORMANCE.md's table of what was tried.
//!
//! `valgrind --tool=callgrind target/release/examples/engine_loop VARIANT.toml 2000`

use katro_core::engine::Silent;
use katro_core::rng::{below, rng_from_seed};
use katro_core::rules::parse_variant;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: engine_loop VARIANT.toml [GAMES]")?;
    let games: u64 = match args.next() {
        Some(n) => n.parse().map_err(|e| format!("games: {e}"))?,
        None => 2_000,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let rules = parse_variant(&path, &text, "variant").map_err(|e| e.to_string())?;
    let (mut plies, mut laps) = (0u64, 0u64);
    for g in 0..games {
        let mut rng = rng_from_seed(g);
        let mut pos = rules.start();
        loop {
            let legal = rules.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let mv = legal[below(&mut rng, legal.len())];
            laps += rules.play_unchecked(&mut pos, mv, &mut Silent).laps;
        }
        plies += pos.plies() as u64;
    }
    println!("{games} games, {plies} plies, {laps} laps");
    Ok(())
}
