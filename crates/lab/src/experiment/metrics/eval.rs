//! The state evaluation behind the heuristic metrics (issue 24, item 2):
//! Ludii's static one, a search value, or the exact value of a solved
//! board. Every one gives a finished game's utilities (+1 win, -1 loss,
//! 0 undecided), as Ludii's `Utils.evaluateState` does, so the metrics of
//! the final state agree whatever the evaluation.

use std::sync::Arc;

use crate::agents::alphabeta::{self, WIN};
use crate::engine::{MoveList, Position, Status};
use crate::rules::{Player, Rules};
use crate::solve::{SolvedTable, Value};

use super::ludii_evaluation;

/// Which evaluation a [`super::Recorder`] gives each state, for both
/// players, indexed by [`Player::index`].
#[derive(Clone, Debug)]
pub enum StateEval {
    /// tanh of the seed difference ([`ludii_evaluation`]).
    Ludii,
    /// tanh of the alpha-beta value `depth` plies deep for the player to
    /// move (crates/core/src/agents/alphabeta.rs `analyse`, whose leaves are the seed
    /// difference), ±1 for a proven win or loss.
    Search { depth: u32 },
    /// The solved value for the player to move: +1 won, -1 lost, 0 drawn
    /// under perfect play (crates/core/src/solve.rs).
    Exact(Arc<SolvedTable>),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::agents::perfect::Tables;
    use crate::engine::Silent;
    use crate::experiment::metrics::Recorder;
    use crate::rng::rng_from_seed;
    use crate::rules::{parse_variant, preset};
    use std::ops::ControlFlow;

    fn board(rows: u32, holes: u32, seeds: u32) -> Rules {
        let text =
            format!("name = \"b\"\n[board]\nrows = {rows}\nholes = {holes}\nseeds = {seeds}\n");
        parse_variant("b.toml", &text, "b").unwrap()
    }

    fn solved(rules: &Rules) -> Arc<SolvedTable> {
        Arc::new(
            crate::solve::solve(rules, 1 << 30, &mut |_, _, _| ControlFlow::Continue(())).unwrap(),
        )
    }

    /// Every position before a move of `games` random games.
    fn positions(rules: &Rules, games: u64) -> Vec<Position> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut rng = rng_from_seed(seed);
            let mut pos = rules.start();
            let mut legal = MoveList::new();
            let tables = Tables::new();
            let mut seat = AgentSpec::Random.start_game(&tables);
            loop {
                rules.legal_moves_into(&pos, &mut legal);
                if legal.is_empty() || pos.ended().is_some() {
                    break;
                }
                out.push(pos);
                let mv = seat.choose(rules, &pos, &legal, &mut rng);
                rules.play_unchecked(&mut pos, mv, &mut Silent);
            }
        }
        out
    }

    /// The mover's evaluation after each legal move.
    fn after_each(eval: &StateEval, rules: &Rules, pos: &Position) -> Vec<f64> {
        let mut legal = MoveList::new();
        rules.legal_moves_into(pos, &mut legal);
        legal
            .iter()
            .map(|&mv| {
                let mut after = *pos;
                rules.play_unchecked(&mut after, mv, &mut Silent);
                eval.evaluate(rules, &after)[pos.to_move().index()]
            })
            .collect()
    }

    fn max(v: &[f64]) -> f64 {
        v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn search_values_are_on_ludiis_scale() {
        assert_eq!(search_scale(0), 0.0);
        assert_eq!(search_scale(3), 3f64.tanh());
        assert_eq!(search_scale(-2), (-2f64).tanh());
        assert_eq!(search_scale(WIN - 7), 1.0);
        assert_eq!(search_scale(-(WIN - 1)), -1.0);
    }

    #[test]
    fn a_search_is_the_best_value_one_move_shallower() {
        // Depth 1 is the best of Ludii's static values after one move;
        // depth d the best of depth d-1 after one move (negamax, whoever
        // moves next: each evaluation is for both players).
        let rules = preset("katro-4x4").unwrap();
        let (d1, d2) = (
            StateEval::Search { depth: 1 },
            StateEval::Search { depth: 2 },
        );
        for pos in positions(&rules, 4) {
            let m = pos.to_move().index();
            assert_eq!(
                d1.evaluate(&rules, &pos)[m],
                max(&after_each(&StateEval::Ludii, &rules, &pos))
            );
            assert_eq!(
                d2.evaluate(&rules, &pos)[m],
                max(&after_each(&d1, &rules, &pos))
            );
            let e = d2.evaluate(&rules, &pos);
            assert_eq!(e[0], -e[1]);
        }
    }

    #[test]
    fn the_exact_value_of_the_smallest_board() {
        // 2 rows of 2 holes, 1 seed each: South wins in 1
        // (results/solved/solved.csv, its first row), so the start is
        // [1, -1] exactly, where Ludii's evaluation sees a level board.
        let rules = board(2, 2, 1);
        let exact = StateEval::Exact(solved(&rules));
        assert_eq!(exact.evaluate(&rules, &rules.start()), [1.0, -1.0]);
        assert_eq!(
            StateEval::Ludii.evaluate(&rules, &rules.start()),
            [0.0, 0.0]
        );
    }

    #[test]
    fn an_exact_value_is_the_best_exact_value_after_a_move() {
        // Perfect knowledge is consistent: the mover's value is the best
        // value among its moves, and every value is a win, loss or draw.
        let rules = board(4, 3, 1);
        let exact = StateEval::Exact(solved(&rules));
        for pos in positions(&rules, 10) {
            let e = exact.evaluate(&rules, &pos);
            assert!([-1.0, 0.0, 1.0].contains(&e[0]) && e[0] == -e[1], "{e:?}");
            assert_eq!(
                e[pos.to_move().index()],
                max(&after_each(&exact, &rules, &pos))
            );
        }
        // A recorded game: every state, the final one too, valued exactly.
        let mut rec = Recorder::with_eval(false, exact);
        let tables = Tables::new();
        let seats = [
            AgentSpec::Random.start_game(&tables),
            AgentSpec::Random.start_game(&tables),
        ];
        crate::game::play_game_observed(&rules, seats, 0, 3, None, &mut rec);
        let t = rec.into_trajectory();
        assert!(
            t.states
                .iter()
                .all(|s| s.eval.iter().all(|e| [-1.0, 0.0, 1.0].contains(e)))
        );
    }
}
