//! Plays the games of an experiment: cells (variant × matchup) split into
//! blocks of consecutive game indices, played in parallel, folded into one
//! exact [`Aggregate`] per cell.
//!
//! Every game draws from its own generator, seeded from (master seed,
//! variant name, matchup label, game index), so what a game does never
//! depends on the thread that plays it, and since aggregates merge exactly,
//! nor do the totals. Precision stopping is decided only at fixed
//! checkpoints in game-index order, so the games played are the same with
//! any number of threads.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::agents::AgentSpec;
use crate::engine::{Move, MoveList, Player, Silent, Status};
use crate::rng::{game_seed, rng_from_seed};
use crate::rules::Rules;
use crate::stats::{Aggregate, GameRecord};

/// When a cell stops playing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// Exactly this many games.
    Games(u64),
    /// At the first checkpoint (every `checkpoint` games, and `max_games`)
    /// where the 95% Wilson interval on player 1's win rate among decided
    /// games is narrower than `width`; at `max_games` at the latest.
    Precision {
        width: f64,
        max_games: u64,
        checkpoint: u64,
    },
}

impl Stop {
    /// The most games the cell can play.
    pub fn max_games(&self) -> u64 {
        match *self {
            Stop::Games(n) => n,
            Stop::Precision { max_games, .. } => max_games,
        }
    }

    /// The game count at which the stopping test is next made, after
    /// `played` games.
    fn next_checkpoint(&self, played: u64) -> u64 {
        match *self {
            Stop::Games(n) => n,
            Stop::Precision {
                max_games,
                checkpoint,
                ..
            } => played.saturating_add(checkpoint).min(max_games),
        }
    }

    fn is_met(&self, played: u64, agg: &Aggregate) -> bool {
        match *self {
            Stop::Games(n) => played >= n,
            Stop::Precision {
                width, max_games, ..
            } => played >= max_games || agg.p1_win_rate().is_some_and(|w| w.width() < width),
        }
    }
}

/// One cell: a variant, the agents in each seat, and when to stop.
#[derive(Clone, Debug)]
pub struct Cell<'a> {
    pub rules: &'a Rules,
    pub p1: &'a AgentSpec,
    pub p2: &'a AgentSpec,
    pub stop: Stop,
}

impl Cell<'_> {
    pub fn matchup_label(&self) -> String {
        matchup_label(self.p1, self.p2)
    }
}

/// The name of a pairing, which also seeds its games: `greedy vs random`.
pub fn matchup_label(p1: &AgentSpec, p2: &AgentSpec) -> String {
    format!("{p1} vs {p2}")
}

/// Which per-game rows to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    None,
    Games,
    GamesWithMoves,
}

/// One game of one cell, as a row of `games.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub cell: usize,
    pub game: u64,
    pub seed: u64,
    pub record: GameRecord,
    /// Empty unless moves were asked for.
    pub moves: Vec<Move>,
}

/// Told how far the run has got; called from worker threads.
pub trait Progress: Sync {
    /// The most games the run can still play in all, updated when a cell
    /// stops early.
    fn set_total(&self, _games: u64) {}
    fn advance(&self, _games: u64) {}
}

/// Progress that nobody watches.
pub struct Quiet;
impl Progress for Quiet {}

pub struct RunResult {
    /// One per cell, in the order of the cells given.
    pub aggregates: Vec<Aggregate>,
    /// In (cell, game index) order; empty unless rows were asked for.
    pub rows: Vec<GameRow>,
}

/// Plays one game from the start. The hot path: one move generation per
/// ply, the game status only once the game is over, and no allocation
/// unless `moves` is given.
pub fn play_game(
    rules: &Rules,
    p1: &AgentSpec,
    p2: &AgentSpec,
    seed: u64,
    mut moves: Option<&mut Vec<Move>>,
) -> GameRecord {
    let mut rng = rng_from_seed(seed);
    let mut pos = rules.start();
    let mut g = GameRecord {
        status: Status::Ongoing,
        plies: 0,
        laps: 0,
        max_laps_in_move: 0,
        captures: [0; 2],
        seeds_captured: [0; 2],
        seeds_sown: 0,
        legal_moves: 0,
        choice_turns: 0,
    };
    // One buffer for the whole game: filling it is cheaper than building
    // a fresh list every ply.
    let mut legal = MoveList::new();
    loop {
        rules.legal_moves_into(&pos, &mut legal);
        if legal.is_empty() {
            g.status = rules.status(&pos);
            break;
        }
        let mover = pos.to_move();
        g.legal_moves += legal.len() as u64;
        // A forced move is played without asking the agent, so it draws
        // nothing from the generator.
        let mv = if legal.len() == 1 {
            legal[0]
        } else {
            g.choice_turns += 1;
            let agent = match mover {
                Player::South => p1,
                Player::North => p2,
            };
            agent.choose(rules, &pos, &legal, &mut rng)
        };
        let r = rules.play_unchecked(&mut pos, mv, &mut Silent);
        g.laps += r.laps;
        g.max_laps_in_move = g.max_laps_in_move.max(r.laps);
        g.captures[mover.index()] += r.captures as u64;
        g.seeds_captured[mover.index()] += r.seeds_captured;
        g.seeds_sown += r.seeds_sown;
        if let Some(m) = moves.as_deref_mut() {
            m.push(mv);
        }
        if pos.ended().is_some() {
            g.status = rules.status(&pos);
            break;
        }
    }
    g.plies = pos.plies();
    g
}

/// The seed of game `game` of a cell.
pub fn cell_game_seed(master: u64, cell: &Cell, label: &str, game: u64) -> u64 {
    game_seed(master, &cell.rules.name, label, game)
}

/// A work unit: games `start..end` of cell `cell`.
#[derive(Clone, Copy, Debug)]
struct Block {
    cell: usize,
    start: u64,
    end: u64,
}

/// Games per block: small enough that every thread gets several blocks in
/// a round (load balance, progress), at most 1024 so a block's rows and
/// timing stay small. Totals do not depend on it: aggregates merge exactly.
fn block_size(round_games: u64, threads: usize) -> u64 {
    (round_games / (threads as u64 * 16)).clamp(1, 1024)
}

fn play_block(
    cell: &Cell,
    label: &str,
    master: u64,
    b: Block,
    rows: Rows,
) -> (Aggregate, Vec<GameRow>) {
    let mut agg = Aggregate::new();
    let mut out = Vec::new();
    for game in b.start..b.end {
        let seed = cell_game_seed(master, cell, label, game);
        let mut moves = Vec::new();
        let record = play_game(
            cell.rules,
            cell.p1,
            cell.p2,
            seed,
            (rows == Rows::GamesWithMoves).then_some(&mut moves),
        );
        agg.add(&record);
        if rows != Rows::None {
            out.push(GameRow {
                cell: b.cell,
                game,
                seed,
                record,
                moves,
            });
        }
    }
    (agg, out)
}

/// Plays every cell on a pool of `threads` threads.
pub fn run(
    cells: &[Cell],
    master: u64,
    rows: Rows,
    threads: usize,
    progress: &dyn Progress,
) -> Result<RunResult, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let labels: Vec<String> = cells.iter().map(Cell::matchup_label).collect();
    let n = cells.len();
    let mut totals = vec![Aggregate::new(); n];
    let mut played = vec![0u64; n];
    let mut done: Vec<bool> = cells.iter().map(|c| c.stop.max_games() == 0).collect();
    let mut row_blocks: Vec<(usize, u64, Vec<GameRow>)> = Vec::new();
    progress.set_total(cells.iter().map(|c| c.stop.max_games()).sum());

    // Each round plays every unfinished cell up to its next checkpoint.
    loop {
        let targets: Vec<(usize, u64)> = (0..n)
            .filter(|&c| !done[c])
            .map(|c| (c, cells[c].stop.next_checkpoint(played[c])))
            .collect();
        if targets.is_empty() {
            break;
        }
        let round_games: u64 = targets.iter().map(|&(c, end)| end - played[c]).sum();
        let size = block_size(round_games, threads.max(1));
        // Blocks are numbered across the round's cells and found from their
        // number, so no list of blocks is built: memory stays the same
        // however many games a cell plays.
        let mut first_block = Vec::with_capacity(targets.len());
        let mut blocks: u64 = 0;
        for &(c, end) in &targets {
            first_block.push(blocks);
            blocks += (end - played[c]).div_ceil(size);
        }
        let block = |i: u64| -> Block {
            let t = first_block.partition_point(|&f| f <= i) - 1;
            let (c, end) = targets[t];
            let start = played[c] + (i - first_block[t]) * size;
            Block {
                cell: c,
                start,
                end: (start + size).min(end),
            }
        };
        let round = Mutex::new(vec![Aggregate::new(); n]);
        let round_rows = Mutex::new(Vec::new());
        pool.install(|| {
            (0..blocks).into_par_iter().for_each(|i| {
                let b = block(i);
                let (agg, block_rows) =
                    play_block(&cells[b.cell], &labels[b.cell], master, b, rows);
                round
                    .lock()
                    .expect("no worker panics while holding the lock")[b.cell]
                    .merge(&agg);
                if rows != Rows::None {
                    round_rows
                        .lock()
                        .expect("no worker panics while holding the lock")
                        .push((b.cell, b.start, block_rows));
                }
                progress.advance(b.end - b.start);
            })
        });
        let round = round.into_inner().expect("workers have finished");
        row_blocks.extend(round_rows.into_inner().expect("workers have finished"));
        let mut stopped_early = false;
        for &(c, end) in &targets {
            totals[c].merge(&round[c]);
            played[c] = end;
            if cells[c].stop.is_met(end, &totals[c]) {
                done[c] = true;
                stopped_early |= end < cells[c].stop.max_games();
            }
        }
        if stopped_early {
            let left: u64 = (0..n)
                .map(|c| {
                    if done[c] {
                        played[c]
                    } else {
                        cells[c].stop.max_games()
                    }
                })
                .sum();
            progress.set_total(left);
        }
    }

    row_blocks.sort_by_key(|&(cell, start, _)| (cell, start));
    let rows = row_blocks.into_iter().flat_map(|(_, _, r)| r).collect();
    Ok(RunResult {
        aggregates: totals,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::preset;

    #[test]
    fn a_game_adds_up() {
        let rules = preset("katro-4x4").unwrap();
        let mut moves = Vec::new();
        let g = play_game(
            &rules,
            &AgentSpec::Random,
            &AgentSpec::Random,
            7,
            Some(&mut moves),
        );
        assert!(g.status.is_over());
        assert_eq!(moves.len(), g.plies as usize);
        assert!(g.choice_turns <= g.plies as u64);
        assert!(g.legal_moves >= g.plies as u64);
        // Replaying the recorded moves gives the same game and status.
        let mut pos = rules.start();
        let mut laps = 0;
        for &m in &moves {
            laps += rules
                .play(&mut pos, m)
                .expect("recorded moves are legal")
                .laps;
        }
        assert_eq!(laps, g.laps);
        assert_eq!(rules.status(&pos), g.status);
        // The same seed plays the same game.
        let again = play_game(&rules, &AgentSpec::Random, &AgentSpec::Random, 7, None);
        assert_eq!(again, g);
    }

    #[test]
    fn precision_stops_at_checkpoints_whatever_the_threads() {
        let rules = preset("katro-4x4").unwrap();
        let cell = Cell {
            rules: &rules,
            p1: &AgentSpec::Random,
            p2: &AgentSpec::Random,
            stop: Stop::Precision {
                width: 0.3,
                max_games: 500,
                checkpoint: 7,
            },
        };
        let one = run(std::slice::from_ref(&cell), 3, Rows::Games, 1, &Quiet).unwrap();
        let two = run(std::slice::from_ref(&cell), 3, Rows::Games, 2, &Quiet).unwrap();
        assert_eq!(one.aggregates, two.aggregates);
        assert_eq!(one.rows, two.rows);
        let games = one.aggregates[0].games;
        assert_eq!(games % 7, 0, "stopped off a checkpoint: {games}");
        assert!(games < 500, "a width of 0.3 needs about 43 decided games");
        let w = one.aggregates[0].p1_win_rate().unwrap();
        assert!(w.width() < 0.3);
        // It did not stop at the checkpoint before.
        let mut earlier = Aggregate::new();
        for r in &one.rows[..(games - 7) as usize] {
            earlier.add(&r.record);
        }
        assert!(earlier.p1_win_rate().is_none_or(|w| w.width() >= 0.3));
        let indices: Vec<u64> = one.rows.iter().map(|r| r.game).collect();
        assert_eq!(indices, (0..games).collect::<Vec<_>>());
    }
}
