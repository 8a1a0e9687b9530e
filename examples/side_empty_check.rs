//! Plays N uniform random games of every preset and counts the games that
//! ended undecided (an endless move or the lap limit) with a side empty.
//!
//! Under `game_end = "opponent-empty"` (every preset but
//! katra-boaoaka-ludii, docs/RULES.md §9) a capture that empties a side
//! ends the game as a win at once, so such games cannot arise; issue 8 asks
//! that 100,000 random games of each such preset show none. The program
//! exits with status 1 if any does. Under `play-out` the mover relays on
//! after taking the last seed, so such games are counted, not refused.
//!
//! `cargo run --release --example side_empty_check -- [GAMES] [PRESET ...]`
//!
//! It prints one comma-separated line a preset: `preset`, `games`,
//! `endless_move_games` (games ended by an endless move),
//! `endless_move_side_empty` (those of them that ended with South's or
//! North's rows holding no seed), `lap_limit_games`, `lap_limit_side_empty`
//! (the same for the lap limit) and `seconds` (wall-clock time for the
//! preset; the only column that varies between runs).
//!
//! GAMES is a count N (games 0..N) or a range A..B of game indices, so a
//! long check can run in parts whose counts add up; it defaults to 100000.
//! With no PRESET every preset is played. Game g of preset P draws its
//! moves from `game_seed(0, P, "side-empty-check", g)`, so the counts are
//! the same for any thread count. Presets run with their shipped limits,
//! lap limit included: a move that runs to the 10,000,000-lap limit takes
//! seconds, and katro-wikipedia games are long (docs/PERFORMANCE.md), so a
//! full run takes a long time on a small machine.

use std::time::Instant;

use katro_core::Position;
use katro_core::engine::{MoveEnd, Silent, Status};
use katro_core::rng::{below, game_seed, rng_from_seed};
use katro_core::rules::{GameEnd, Rules, preset, preset_names};
use rayon::prelude::*;

/// What one preset's games came to.
#[derive(Default, Clone, Copy)]
struct Count {
    games: u64,
    endless: u64,
    lap_limit: u64,
    endless_side_empty: u64,
    lap_limit_side_empty: u64,
}

impl Count {
    fn add(mut self, o: Count) -> Count {
        self.games += o.games;
        self.endless += o.endless;
        self.lap_limit += o.lap_limit;
        self.endless_side_empty += o.endless_side_empty;
        self.lap_limit_side_empty += o.lap_limit_side_empty;
        self
    }
}

/// Whether South's rows (1..R/2) or North's hold no seed.
fn a_side_is_empty(rules: &Rules, pos: &Position) -> bool {
    let s = &rules.settings();
    let mut sides = [0u32; 2];
    for row in 0..s.rows {
        for col in 0..s.holes {
            sides[(row >= s.rows / 2) as usize] += pos.seeds(rules.hole_at(row, col)) as u32;
        }
    }
    sides.contains(&0)
}

fn play(rules: &Rules, name: &str, game: u64) -> Count {
    let mut rng = rng_from_seed(game_seed(0, name, "side-empty-check", game));
    let mut pos = rules.start();
    let mut last_end = None;
    loop {
        let legal = rules.legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let mv = legal[below(&mut rng, legal.len())];
        last_end = Some(rules.play_unchecked(&mut pos, mv, &mut Silent).end);
    }
    let empty = a_side_is_empty(rules, &pos) as u64;
    let mut c = Count {
        games: 1,
        ..Count::default()
    };
    match rules.status(&pos) {
        Status::EndlessMove => {
            c.endless = 1;
            c.endless_side_empty = empty;
        }
        Status::LapLimit => {
            c.lap_limit = 1;
            c.lap_limit_side_empty = empty;
        }
        // endless_move = "mover-loses" turns an endless move into a win;
        // no preset uses it, but count it where it belongs if one does.
        Status::Won(_) if last_end == Some(MoveEnd::Endless) => {
            c.endless = 1;
            c.endless_side_empty = empty;
        }
        _ => {}
    }
    c
}

fn main() {
    let mut args = std::env::args().skip(1);
    // GAMES is a count N (games 0..N) or a range A..B of game indices, so a
    // long check can be played in parts whose counts add up.
    let games: std::ops::Range<u64> = match args.next() {
        Some(n) => {
            let parsed = match n.split_once("..") {
                Some((a, b)) => a.parse().and_then(|a| b.parse().map(|b| a..b)),
                None => n.parse().map(|n| 0..n),
            };
            match parsed {
                Ok(r) => r,
                Err(_) => {
                    eprintln!("error: GAMES must be a whole number N or a range A..B, not {n:?}");
                    std::process::exit(2);
                }
            }
        }
        None => 0..100_000,
    };
    let mut names: Vec<String> = args.collect();
    if names.is_empty() {
        names = preset_names().into_iter().map(String::from).collect();
    }
    let mut failed = false;
    println!(
        "preset,games,endless_move_games,endless_move_side_empty,lap_limit_games,\
         lap_limit_side_empty,seconds"
    );
    for name in &names {
        let Some(rules) = preset(name) else {
            eprintln!(
                "error: no preset {name:?}; presets: {}",
                preset_names().join(", ")
            );
            std::process::exit(2);
        };
        let clock = Instant::now();
        let c = games
            .clone()
            .into_par_iter()
            .map(|g| play(&rules, name, g))
            .reduce(Count::default, Count::add);
        println!(
            "{name},{},{},{},{},{},{:.1}",
            c.games,
            c.endless,
            c.endless_side_empty,
            c.lap_limit,
            c.lap_limit_side_empty,
            clock.elapsed().as_secs_f64()
        );
        failed |= rules.settings().game_end == GameEnd::OpponentEmpty
            && c.endless_side_empty + c.lap_limit_side_empty > 0;
    }
    if failed {
        eprintln!("some undecided games under opponent-empty ended with a side empty");
        std::process::exit(1);
    }
}
