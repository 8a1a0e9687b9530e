//! The state evaluation behind the heuristic metrics (issue 24, item 2):
//! Ludii's static one, a search value, or the exact value of a solved
//! board. Every one gives a finished game's utilities (+1 win, -1 loss,
//! 0 undecided), as Ludii's `Utils.evaluateState` does, so the metrics of
//! the final state agree whatever the evaluation.

use std::sync::Arc;

use crate::agents::alphabeta::{self, WIN};
use crate::engine::{MoveList, Position, Status};
use crate::rules::{Player, Rules};
use crate::solve::{Table, Value};

use super::ludii_evaluation;

/// Which evaluation a [`super::Recorder`] gives each state, for both
/// players, indexed by [`Player::index`].
#[derive(Clone, Debug)]
pub enum StateEval {
    /// tanh of the seed difference ([`ludii_evaluation`]).
    Ludii,
    /// tanh of the alpha-beta value `depth` plies deep for the player to
    /// move (src/agents/alphabeta.rs `analyse`, whose leaves are the seed
    /// difference), ±1 for a proven win or loss.
    Search { depth: u32 },
    /// The solved value for the player to move: +1 won, -1 lost, 0 drawn
    /// under perfect play (src/solve.rs).
    Exact(Arc<Table>),
}

/// Both players' evaluations from the mover's value `v` in [-1, 1].
fn for_mover(mover: Player, v: f64) -> [f64; 2] {
    let mut e = [-v; 2];
    e[mover.index()] = v;
    e
}

/// A search value for the player to move on Ludii's scale: tanh of the
/// seed difference, ±1 once a result is proven (alphabeta's `WIN - plies`).
pub fn search_scale(v: i32) -> f64 {
    if v.abs() >= WIN / 2 {
        f64::from(v.signum())
    } else {
        f64::from(v).tanh()
    }
}

impl StateEval {
    pub fn evaluate(&self, rules: &Rules, pos: &Position) -> [f64; 2] {
        if !matches!(self, StateEval::Ludii) && rules.status(pos) == Status::Ongoing {
            let mover = pos.to_move();
            match self {
                StateEval::Search { depth } => {
                    let mut legal = MoveList::new();
                    rules.legal_moves_into(pos, &mut legal);
                    // An ongoing position always has a move (RULES.md §9).
                    if !legal.is_empty() {
                        let v = alphabeta::analyse(rules, pos, &legal, *depth).value;
                        return for_mover(mover, search_scale(v));
                    }
                }
                StateEval::Exact(table) => {
                    let v = table.value(rules, pos).expect(
                        "every position of a game is reachable from the start, so in the table",
                    );
                    let v = match v {
                        Value::Win(_) => 1.0,
                        Value::Loss(_) => -1.0,
                        Value::Draw => 0.0,
                    };
                    return for_mover(mover, v);
                }
                StateEval::Ludii => {}
            }
        }
        ludii_evaluation(rules, pos)
    }
}
