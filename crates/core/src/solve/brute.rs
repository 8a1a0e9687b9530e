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
    let g = Graph::search(&rules, limit);
    let val = values(&g.moves);
    g.order.into_iter().zip(val).collect()
}

/// The game graph: the positions in order of discovery, the start first,
/// and where each one's moves lead.
struct Graph {
    ids: HashMap<Id, usize>,
    order: Vec<Position>,
    moves: Vec<Vec<Next>>,
    todo: Vec<(usize, Position)>,
}

impl Graph {
    /// Depth-first from the start; panics past `limit` positions.
    fn search(rules: &Rules, limit: usize) -> Graph {
        let mut g = Graph {
            ids: HashMap::new(),
            order: Vec::new(),
            moves: Vec::new(),
            todo: Vec::new(),
        };
        g.index(rules, rules.start());
        while let Some((i, pos)) = g.todo.pop() {
            assert!(g.order.len() <= limit, "more than {limit} positions");
            for &mv in rules.legal_moves(&pos).iter() {
                let mut after = pos;
                rules.play(&mut after, mv).unwrap();
                let next = g.next(rules, &pos, after);
                g.moves[i].push(next);
            }
        }
        g
    }

    /// `pos`'s index, a new one (and `pos` still to search) when it was
    /// not found before.
    fn index(&mut self, rules: &Rules, pos: Position) -> usize {
        let key = id(rules, &pos);
        if let Some(&j) = self.ids.get(&key) {
            return j;
        }
        let j = self.order.len();
        self.ids.insert(key, j);
        self.order.push(pos);
        self.moves.push(Vec::new());
        self.todo.push((j, pos));
        j
    }

    /// Where the move from `pos` to `after` leads.
    fn next(&mut self, rules: &Rules, pos: &Position, after: Position) -> Next {
        match after.ended() {
            Some(Ended::EndlessMove) | Some(Ended::LapLimit) => Next::Over(Value::Draw),
            Some(Ended::EndlessMoveLost(w)) => Next::Over(if w == pos.to_move() {
                Value::Win(1)
            } else {
                Value::Loss(1)
            }),
            None => {
                let j = self.index(rules, after);
                Next::To(j, after.to_move() == pos.to_move())
            }
        }
    }
}

/// Each position's value by minimax over horizons 0, 1, 2, … until no
/// value changes; a position with no move is lost.
fn values(moves: &[Vec<Next>]) -> Vec<Value> {
    let n = moves.len();
    let mut val = vec![Value::Draw; n];
    for (i, m) in moves.iter().enumerate() {
        if m.is_empty() {
            val[i] = Value::Loss(0);
        }
    }
    loop {
        let mut new = val.clone();
        for i in 0..n {
            if !moves[i].is_empty() {
                new[i] = best(&moves[i], &val);
            }
        }
        if new == val {
            break;
        }
        val = new;
    }
    val
}

/// The best of `moves` for the mover, with the values `val` one horizon
/// shorter.
fn best(moves: &[Next], val: &[Value]) -> Value {
    let mut best: Option<Value> = None;
    for &m in moves {
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
    best.expect("a position with moves")
}
