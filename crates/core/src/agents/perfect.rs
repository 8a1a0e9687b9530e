//! The `perfect` agent: plays from an exact solution of the variant
//! (docs/SOLVED.md). It wins whenever its position is won, by the fastest
//! win; holds a draw when it cannot win; and loses by the slowest loss when
//! it must, choosing uniformly (one draw from the game's generator) among
//! moves of equal value.
//!
//! The table is solved in memory the first time the agent moves in a
//! variant and kept in the [`Tables`] its seat was given
//! ([`AgentSpec::start_game`](super::AgentSpec::start_game)): a run holds
//! one, so its worker threads solve each variant once, and the agent
//! itself stays plain data. It is not read from a file: the library does
//! no I/O, and solving the boards this agent can play takes seconds. Boards
//! over [`MAX_BYTES`] are refused when the experiment is read
//! ([`check_variant`]).

use super::AgentError;
use std::sync::{Arc, Mutex};

use crate::engine::{Move, MoveList, Position};
use crate::rng::{GameRng, below};
use crate::rules::{Rules, Settings};
use std::ops::ControlFlow;

use crate::solve::{SolveError, SolvedTable, check_size, gib, solve};

/// Memory the agent may spend on one variant's table (upper bound, as
/// `katro solve` reckons it).
pub const MAX_BYTES: u64 = 2 << 30;

/// A rule set's solved table.
type Entry = (Settings, Arc<SolvedTable>);

/// The tables solved so far, one per rule set: what a run (or a game
/// played on its own) shares between its games, its threads and the design
/// metrics' exact evaluation, so each variant is solved once. Not part of
/// any agent: two `perfect` agents are the same agent whatever they have
/// solved.
#[derive(Default)]
pub struct Tables(Mutex<Vec<Entry>>);

impl Tables {
    /// No table yet; allocates nothing until a variant is solved.
    pub const fn new() -> Tables {
        Tables(Mutex::new(Vec::new()))
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables")
    }
}

/// Why the agent cannot play a variant, if it cannot.
pub fn check_variant(rules: &Rules) -> Result<(), AgentError> {
    check_size(rules, MAX_BYTES)
        .map(|_| ())
        .map_err(|error| AgentError::PerfectCannotPlay {
            variant: rules.name().to_string(),
            error,
        })
}

/// Why the agent cannot play a board the solver refused, in words.
pub(super) fn why_not(e: &SolveError) -> String {
    match *e {
        // The solver's own words name `katro solve`'s --max-memory, a
        // flag the agent's commands do not have: its limit is fixed.
        SolveError::TooBig {
            positions, bytes, ..
        } => format!(
            "the board is too big for it: up to {positions} positions (an upper bound: \
             every arrangement of the seeds), which would need up to {} of memory, and the \
             perfect agent solves only boards within {} (docs/SOLVED.md lists the boards \
             solved so far; `katro solve` takes --max-memory)",
            gib(bytes),
            gib(MAX_BYTES as u128)
        ),
        ref other => other.to_string(),
    }
}

impl Tables {
    /// The table of `rules`, solved on first use (also the metrics'
    /// exact evaluation, crates/lab/src/experiment/metrics/plan.rs).
    pub fn table(&self, rules: &Rules) -> Arc<SolvedTable> {
        // Solving under the lock makes other threads wait for the one
        // solve instead of repeating it.
        let mut cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, t)) = cache.iter().find(|(s, _)| s == rules.settings()) {
            return t.clone();
        }
        if let Err(e) = check_variant(rules) {
            panic!("{e} (experiments check this when they are read)");
        }
        let t = Arc::new(
            solve(rules, MAX_BYTES, &mut |_, _, _| ControlFlow::Continue(()))
                .unwrap_or_else(|e| panic!("perfect agent: {e}")),
        );
        cache.push((rules.settings().clone(), t.clone()));
        t
    }
}

/// The best move by the solved table, ties broken uniformly at random
/// (reservoir sampling over the legal moves in board order).
pub fn choose(
    tables: &Tables,
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    rng: &mut GameRng,
) -> Move {
    let table = tables.table(rules);
    let mut best = legal[0];
    let mut best_rank = i64::MIN;
    let mut ties = 0;
    for &mv in legal.iter() {
        let rank = table
            .move_value(rules, pos, mv)
            .expect("every position of a game is reachable from the start, so in the table")
            .rank();
        if rank > best_rank {
            best = mv;
            best_rank = rank;
            ties = 1;
        } else if rank == best_rank {
            ties += 1;
            if below(rng, ties) == 0 {
                best = mv;
            }
        }
    }
    best
}
