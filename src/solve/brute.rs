//! A deliberately plain second solver, written apart from the retrograde
//! one to check it: the game graph found by depth-first search over whole
//! positions, then depth-limited minimax over that graph for horizons
//! 0, 1, 2, … until no value changes from one horizon to the next. At
//! horizon k a position that neither side can settle within k decisions
//! counts as a draw, so a win appears at the horizon equal to its fastest
//! length and a loss at the horizon equal to its slowest; once the values
//! stop changing they stay fixed, and what is still a draw is a draw by
//! infinite play. Cost: decisions to the longest end times moves, fine for
//! boards of a few thousand positions.

use std::collections::HashMap;

use super::Value;
use crate::engine::{Dir, Ended, Player, Position};
use crate::rules::Rules;

/// What identifies a position apart from its ply count.
type Id = (Vec<u16>, Player, [Option<Dir>; 2], Option<usize>);

fn id(rules: &Rules, pos: &Position) -> Id {
    (
        pos.holes()[..rules.hole_count()].to_vec(),
        pos.to_move(),
        [pos.fixed_dir(Player::South), pos.fixed_dir(Player::North)],
        pos.pending(),
    )
}

/// Where a move leads.
#[derive(Clone, Copy)]
enum Next {
    /// Another position; `true` when the same player moves again.
    To(usize, bool),
    /// The move ends the game with this value for the mover.
    Over(Value),
}

/// Every position reachable from the start (one per board, player to
/// move, fixed directions and pending hole), with its value for the player
/// to move. Panics past `limit` positions: it is a test helper.
pub fn solve(rules: &Rules, limit: usize) -> Vec<(Position, Value)> {
    // The ply limit is ignored, as by the solver: plies only grow here.
    let rules = rules
        .with_limits(Some(crate::rules::MAX_PLY_LIMIT), None)
        .expect("the largest ply limit is valid");
    let mut ids: HashMap<Id, usize> = HashMap::new();
    let mut order: Vec<Position> = Vec::new();
    let mut moves: Vec<Vec<Next>> = Vec::new();
    let mut todo: Vec<(usize, Position)> = Vec::new();
    let start = rules.start();
    ids.insert(id(&rules, &start), 0);
    order.push(start);
    moves.push(Vec::new());
    todo.push((0, start));
    while let Some((i, pos)) = todo.pop() {
        assert!(order.len() <= limit, "more than {limit} positions");
        for &mv in rules.legal_moves(&pos).iter() {
            let mut after = pos;
            rules.play(&mut after, mv).unwrap();
            let next = match after.ended() {
                Some(Ended::EndlessMove) | Some(Ended::LapLimit) => Next::Over(Value::Draw),
                Some(Ended::EndlessMoveLost(w)) => Next::Over(if w == pos.to_move() {
                    Value::Win(1)
                } else {
                    Value::Loss(1)
                }),
                None => {
                    let key = id(&rules, &after);
                    let j = match ids.get(&key) {
                        Some(&j) => j,
                        None => {
                            let j = order.len();
                            ids.insert(key, j);
                            order.push(after);
                            moves.push(Vec::new());
                            todo.push((j, after));
                            j
                        }
                    };
                    Next::To(j, after.to_move() == pos.to_move())
                }
            };
            moves[i].push(next);
        }
    }
    let n = order.len();
    let mut val = vec![Value::Draw; n];
    for (i, m) in moves.iter().enumerate() {
        if m.is_empty() {
            val[i] = Value::Loss(0);
        }
    }
    loop {
        let mut new = val.clone();
        for i in 0..n {
            if moves[i].is_empty() {
                continue;
            }
            let mut best: Option<Value> = None;
            for &m in &moves[i] {
                let v = match m {
                    Next::Over(v) => v,
                    Next::To(j, same) => {
                        let v = if same { val[j] } else { val[j].flip() };
                        match v {
                            Value::Win(d) => Value::Win(d + 1),
                            Value::Loss(d) => Value::Loss(d + 1),
                            Value::Draw => Value::Draw,
                        }
                    }
                };
                if best.is_none_or(|b| v.rank() > b.rank()) {
                    best = Some(v);
                }
            }
            new[i] = best.expect("a position with moves");
        }
        if new == val {
            break;
        }
        val = new;
    }
    order.into_iter().zip(val).collect()
}
