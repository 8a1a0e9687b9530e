//! The `mcts` agent: Monte Carlo tree search with the UCT selection rule
//! and uniformly random rollouts.
//!
//! Definition, for `iterations` simulations and exploration constant `c`:
//!
//! - The tree starts as the position to play. Each simulation:
//!   1. *Selection*: from the root, while the node's game is not over and
//!      every legal move of the node already has a child, go to the child
//!      maximising `W/N + c·√(ln N_parent / N)`, where `N` is the child's
//!      visits and `W` the sum of its rewards (first such child on a tie).
//!   2. *Expansion*: unless the game is over at the node reached, add one
//!      child for a legal move without one, drawn uniformly among them.
//!   3. *Rollout*: from the new child, both players play uniformly random
//!      legal moves until the game ends, by a win or undecided; its ply
//!      limit caps the rollout as it caps a real game.
//!   4. *Backup*: every node on the path from the root to the new child (or
//!      to the finished game's node) gains a visit and a reward for the
//!      player who made the move into that node: 1 if that player won,
//!      0.5 if the game ended undecided (ply limit, endless move, lap
//!      limit), 0 if they lost.
//! - The agent plays the root move with the most visits, drawn uniformly
//!   (one [`below`] draw) among the moves that tie, listed in [`Move`]
//!   order.
//!
//! The budget is `iterations` simulations, or a time budget (`time_ms`),
//! or both: the search stops at whichever comes first, after at least one
//! simulation.
//!
//! Random numbers are drawn only from the given generator, in a fixed
//! order, so under an iteration budget the move is deterministic given it.
//! (The selection rule uses `f64::ln`, which comes from the platform's
//! maths library: two machines of different kinds could, in principle,
//! break a near-tie differently.) A time budget gives up that guarantee:
//! how many simulations fit in the time depends on the machine and its
//! load, so the same generator can give another move. That is why
//! experiments refuse it ([`super::AgentSpec::reproducible`]).
//!
//! Cost: rollouts are most of the time, so they draw their moves with
//! [`Rules::random_move`] (no move list built, the same numbers drawn as
//! `legal[below(rng, legal.len())]`) and play them with
//! [`Rules::play_unchecked`]; a faster random playout in the engine is a
//! faster rollout here. The tree lives in one vector that grows by one
//! node a simulation; nodes hold no position (a simulation replays the
//! moves from the root), which keeps a million simulations to tens of
//! megabytes.

use std::time::{Duration, Instant};

use crate::engine::{MAX_MOVES, Move, MoveList, Player, Position, Silent, Status};
use crate::rng::{GameRng, below};
use crate::rules::Rules;

const NO_NODE: u32 = u32::MAX;

/// How a simulated game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Won(Player),
    Undecided,
}

impl Outcome {
    fn of(status: Status) -> Outcome {
        match status {
            Status::Won(winner) => Outcome::Won(winner),
            Status::PlyLimit | Status::EndlessMove | Status::LapLimit => Outcome::Undecided,
            Status::Ongoing => unreachable!("only called once the game is over"),
        }
    }

    fn reward(self, player: Player) -> f64 {
        match self {
            Outcome::Won(winner) if winner == player => 1.0,
            Outcome::Won(_) => 0.0,
            Outcome::Undecided => 0.5,
        }
    }
}

struct Node {
    /// The move from the parent to this node.
    mv: Move,
    /// The player who made `mv`: rewards are counted for them.
    mover: Player,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// Legal moves in the node's position.
    legal: u16,
    /// Children made so far.
    tried: u16,
    visits: u32,
    reward: f64,
    /// Set when the game is over in the node's position.
    end: Option<Outcome>,
}

/// Visits and rewards of one root move after a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats {
    pub mv: Move,
    pub visits: u32,
    /// Sum of the rewards, for the player to move at the root.
    pub reward: f64,
}

/// When a search stops: after `iterations` (≥ 1) simulations, or once
/// `time` has passed since it began, whichever comes first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub iterations: u32,
    pub time: Option<Duration>,
}

/// What a search found and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The root moves that were tried, in [`Move`] order.
    pub moves: Vec<MoveStats>,
    /// Simulations run.
    pub iterations: u32,
    /// Plies played by the rollouts (tree moves not counted).
    pub rollout_plies: u64,
}

/// Runs simulations from `pos` (whose non-empty legal moves are `legal`)
/// until the budget is spent.
pub fn search(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    budget: Budget,
    exploration: f64,
    rng: &mut GameRng,
) -> Search {
    assert!(!legal.is_empty(), "a finished game has nothing to search");
    assert!(
        budget.iterations >= 1,
        "a search runs at least one simulation"
    );
    // Only the clock is read under a time budget, so an iteration budget
    // never depends on it.
    let deadline = budget.time.map(|t| (Instant::now(), t));
    let mut tree = Tree {
        rules,
        exploration,
        // A time budget's iteration cap can be a million: the vector grows
        // as needed rather than reserving that much for every move.
        nodes: Vec::with_capacity(budget.iterations.min(1 << 16) as usize + 1),
        rollout_plies: 0,
    };
    tree.nodes.push(Node {
        mv: legal[0],
        mover: pos.to_move().other(),
        parent: NO_NODE,
        first_child: NO_NODE,
        next_sibling: NO_NODE,
        legal: legal.len() as u16,
        tried: 0,
        visits: 0,
        reward: 0.0,
        end: None,
    });
    let mut done = 0;
    while done < budget.iterations {
        if done > 0 && deadline.is_some_and(|(start, t)| start.elapsed() >= t) {
            break;
        }
        tree.simulate(pos, rng);
        done += 1;
    }
    let mut moves: Vec<MoveStats> = tree
        .children(0)
        .map(|i| {
            let n = &tree.nodes[i];
            MoveStats {
                mv: n.mv,
                visits: n.visits,
                reward: n.reward,
            }
        })
        .collect();
    moves.sort_unstable_by_key(|s| s.mv);
    Search {
        moves,
        iterations: done,
        rollout_plies: tree.rollout_plies,
    }
}

/// The `mcts` agent's move.
pub fn choose(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    budget: Budget,
    exploration: f64,
    rng: &mut GameRng,
) -> Move {
    if legal.len() == 1 {
        return legal[0];
    }
    let stats = search(rules, pos, legal, budget, exploration, rng).moves;
    let most = stats.iter().map(|s| s.visits).max().unwrap_or(0);
    let tied: Vec<Move> = stats
        .iter()
        .filter(|s| s.visits == most)
        .map(|s| s.mv)
        .collect();
    tied[below(rng, tied.len())]
}

struct Tree<'a> {
    rules: &'a Rules,
    exploration: f64,
    nodes: Vec<Node>,
    rollout_plies: u64,
}

impl Tree<'_> {
    fn children(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        let mut next = self.nodes[node].first_child;
        std::iter::from_fn(move || {
            (next != NO_NODE).then(|| {
                let i = next as usize;
                next = self.nodes[i].next_sibling;
                i
            })
        })
    }

    fn simulate(&mut self, root: &Position, rng: &mut GameRng) {
        let mut pos = *root;
        let mut node = 0;
        while self.nodes[node].end.is_none() && self.nodes[node].tried == self.nodes[node].legal {
            node = self.select(node);
            self.rules
                .play_unchecked(&mut pos, self.nodes[node].mv, &mut Silent);
        }
        let outcome = match self.nodes[node].end {
            Some(end) => end,
            None => {
                node = self.expand(node, &mut pos, rng);
                match self.nodes[node].end {
                    Some(end) => end,
                    None => self.rollout(pos, rng),
                }
            }
        };
        loop {
            let n = &mut self.nodes[node];
            n.visits += 1;
            n.reward += outcome.reward(n.mover);
            if n.parent == NO_NODE {
                break;
            }
            node = n.parent as usize;
        }
    }

    /// The UCT child of a node all of whose moves have children, each
    /// visited at least once.
    fn select(&self, node: usize) -> usize {
        let log_visits = (self.nodes[node].visits as f64).ln();
        let mut best = NO_NODE as usize;
        let mut best_score = f64::NEG_INFINITY;
        for i in self.children(node) {
            let c = &self.nodes[i];
            let n = c.visits as f64;
            let score = c.reward / n + self.exploration * (log_visits / n).sqrt();
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        best
    }

    /// Adds a child for a uniformly drawn untried move of `node`, playing
    /// it on `pos`; returns the child.
    fn expand(&mut self, node: usize, pos: &mut Position, rng: &mut GameRng) -> usize {
        let legal = self.rules.legal_moves(pos);
        let mut tried = [legal[0]; MAX_MOVES];
        let mut ntried = 0;
        for i in self.children(node) {
            tried[ntried] = self.nodes[i].mv;
            ntried += 1;
        }
        let tried = &tried[..ntried];
        let pick = below(rng, legal.len() - ntried);
        let mv = legal
            .iter()
            .copied()
            .filter(|m| !tried.contains(m))
            .nth(pick)
            .expect("fewer children than legal moves");
        let mover = pos.to_move();
        self.rules.play_unchecked(pos, mv, &mut Silent);
        let next = self.rules.legal_moves(pos);
        let end = next.is_empty().then(|| Outcome::of(self.rules.status(pos)));
        let child = self.nodes.len();
        let parent = &mut self.nodes[node];
        let sibling = parent.first_child;
        parent.first_child = child as u32;
        parent.tried += 1;
        self.nodes.push(Node {
            mv,
            mover,
            parent: node as u32,
            first_child: NO_NODE,
            next_sibling: sibling,
            legal: next.len() as u16,
            tried: 0,
            visits: 0,
            reward: 0.0,
            end,
        });
        child
    }

    /// Plays uniformly random moves to the end of the game: on the lane
    /// kernel when it plays these rules (the same moves and draws as the
    /// engine's `random_move`, checked by
    /// `the_kernel_rollout_plays_the_listed_rollouts_games`), else on the
    /// engine.
    fn rollout(&mut self, mut pos: Position, rng: &mut GameRng) -> Outcome {
        let start = pos.plies();
        let status = match self.rules.kernel() {
            Some(kernel) => {
                // A continuation pending mid-turn (RULES.md §7) is one
                // engine decision; the kernel starts at a turn's start.
                while pos.pending().is_some()
                    && let Some(mv) = self.rules.random_move(&pos, rng)
                {
                    self.rules.play_unchecked(&mut pos, mv, &mut Silent);
                }
                if pos.pending().is_some() || pos.ended().is_some() {
                    self.rules.status(&pos)
                } else {
                    let (status, plies) = kernel.rollout(self.rules, &pos, rng);
                    self.rollout_plies += u64::from(plies);
                    status
                }
            }
            None => {
                while let Some(mv) = self.rules.random_move(&pos, rng) {
                    self.rules.play_unchecked(&mut pos, mv, &mut Silent);
                }
                self.rules.status(&pos)
            }
        };
        self.rollout_plies += u64::from(pos.plies() - start);
        Outcome::of(status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::testing::{custom, one_move_from_a_win, random_positions, variant};
    use crate::rng::rng_from_seed;
    use rand_xoshiro::rand_core::Rng;

    fn iterations(n: u32) -> Budget {
        Budget {
            iterations: n,
            time: None,
        }
    }

    #[test]
    fn every_simulation_is_counted_once() {
        let rules = custom("rows = 4\nholes = 4\nseeds = 2", "lap_limit = 1000");
        for (i, pos) in random_positions(&rules, 20, 31).iter().enumerate() {
            let legal = rules.legal_moves(pos);
            let n = 50;
            let found = search(
                &rules,
                pos,
                &legal,
                iterations(n),
                1.4,
                &mut rng_from_seed(i as u64),
            );
            assert_eq!(found.iterations, n);
            let stats = found.moves;
            // The root is expanded one move a simulation before any child
            // is selected twice, so 50 simulations try all of ≤ 8 moves.
            let tried: Vec<Move> = stats.iter().map(|s| s.mv).collect();
            assert_eq!(tried, legal.to_vec());
            assert_eq!(stats.iter().map(|s| s.visits).sum::<u32>(), n);
            for s in &stats {
                assert!(s.visits >= 1 && s.reward >= 0.0 && s.reward <= s.visits as f64);
                // Rewards are multiples of 1/2.
                assert_eq!((s.reward * 2.0).fract(), 0.0);
            }
        }
    }

    /// The rollout as first written: the whole move list every ply, one
    /// `below` draw into it.
    fn listed_rollout(rules: &Rules, mut pos: Position, rng: &mut GameRng) -> (Outcome, u64) {
        let start = pos.plies();
        loop {
            let legal = rules.legal_moves(&pos);
            if legal.is_empty() {
                return (
                    Outcome::of(rules.status(&pos)),
                    u64::from(pos.plies() - start),
                );
            }
            rules.play_unchecked(&mut pos, legal[below(rng, legal.len())], &mut Silent);
        }
    }

    /// Up to `count` positions of random games awaiting a continuation
    /// (RULES.md §7), which random positions rarely are.
    fn pending_positions(rules: &Rules, count: usize) -> Vec<Position> {
        let mut out = Vec::new();
        let mut rng = rng_from_seed(77);
        for _ in 0..200 {
            let mut pos = rules.start();
            while let Some(mv) = rules.random_move(&pos, &mut rng) {
                rules.play_unchecked(&mut pos, mv, &mut Silent);
                if pos.pending().is_some() && out.len() < count {
                    out.push(pos);
                }
            }
        }
        out
    }

    #[test]
    fn the_kernel_rollout_plays_the_listed_rollouts_games() {
        // Variants with direction choices, lone-seed steps and a low ply
        // limit, so every branch of the move draw is taken.
        let boards = [
            custom("rows = 4\nholes = 4\nseeds = 2", "lap_limit = 1000"),
            variant("katro-wikipedia")
                .with_limits(Some(60), Some(2_000))
                .unwrap(),
            variant("katra-boaoaka-4x8")
                .with_limits(None, Some(2_000))
                .unwrap(),
            variant("katro-ludii")
                .with_limits(None, Some(2_000))
                .unwrap(),
        ];
        // The kernel must play the rollouts of most of these boards, or
        // the test would only check the engine against itself.
        let on_kernel = boards.iter().filter(|r| r.kernel().is_some()).count();
        assert!(on_kernel >= 3, "{on_kernel} boards on the kernel");
        let mut pending = 0;
        for (v, rules) in boards.iter().enumerate() {
            let mut positions = random_positions(rules, 60, 40 + v as u64);
            positions.extend(pending_positions(rules, 20));
            for (i, pos) in positions.iter().enumerate() {
                pending += pos.pending().is_some() as u32;
                let mut tree = Tree {
                    rules,
                    exploration: 1.0,
                    nodes: Vec::new(),
                    rollout_plies: 0,
                };
                let (mut a, mut b) = (rng_from_seed(i as u64), rng_from_seed(i as u64));
                let fast = tree.rollout(*pos, &mut a);
                let (listed, plies) = listed_rollout(rules, *pos, &mut b);
                assert_eq!(
                    (fast, tree.rollout_plies),
                    (listed, plies),
                    "{}",
                    rules.name()
                );
                assert_eq!(a.next_u64(), b.next_u64(), "the same numbers drawn");
            }
        }
        // Positions awaiting a continuation take the engine's first
        // decision before the kernel's (katro-ludii's capturing steps).
        assert!(pending > 0, "no position with a continuation pending");
    }

    #[test]
    fn rollout_plies_are_counted() {
        // With a ply limit of 2 from the position one move from a win,
        // a rollout after `b1` plays North's only move and stops: 1 ply
        // per rollout below `b1`, none below the winning `a1`.
        let rules = custom("rows = 4\nholes = 4\nseeds = 2", "ply_limit = 2");
        let pos = one_move_from_a_win(&rules);
        let legal = rules.legal_moves(&pos);
        let found = search(
            &rules,
            &pos,
            &legal,
            iterations(2),
            1.4,
            &mut rng_from_seed(0),
        );
        let b1 = found.moves[1];
        assert_eq!(found.iterations, 2);
        assert_eq!(found.rollout_plies, u64::from(b1.visits));
    }

    #[test]
    fn a_time_budget_stops_the_search() {
        let rules = variant("katro-6x6");
        let pos = rules.start();
        let legal = rules.legal_moves(&pos);
        // No time at all: the one simulation every search runs.
        let zero = Budget {
            iterations: 1_000,
            time: Some(Duration::ZERO),
        };
        let found = search(&rules, &pos, &legal, zero, 1.4, &mut rng_from_seed(1));
        assert_eq!(found.iterations, 1);
        assert_eq!(found.moves.iter().map(|s| s.visits).sum::<u32>(), 1);
        // 20 ms stops a million-simulation search long before its count
        // (a katro-6x6 rollout takes microseconds); the clock is read
        // after each simulation, so it overruns by about one.
        let short = Budget {
            iterations: 1_000_000,
            time: Some(Duration::from_millis(20)),
        };
        let start = Instant::now();
        let found = search(&rules, &pos, &legal, short, 1.4, &mut rng_from_seed(1));
        let took = start.elapsed();
        assert!(
            found.iterations > 1 && found.iterations < 1_000_000,
            "{found:?}"
        );
        assert!(took >= Duration::from_millis(20), "{took:?}");
        assert!(took < Duration::from_secs(2), "{took:?}");
        // An iteration cap reached first stops the search too.
        let capped = Budget {
            iterations: 3,
            time: Some(Duration::from_secs(60)),
        };
        let found = search(&rules, &pos, &legal, capped, 1.4, &mut rng_from_seed(1));
        assert_eq!(found.iterations, 3);
    }

    #[test]
    fn fewer_simulations_than_moves_try_distinct_moves() {
        // Katra Boaoaka's first move: every hole in either direction.
        let rules = variant("katra-boaoaka-4x8");
        let pos = rules.start();
        let legal = rules.legal_moves(&pos);
        assert_eq!(legal.len(), 32);
        let stats = search(
            &rules,
            &pos,
            &legal,
            iterations(5),
            1.4,
            &mut rng_from_seed(1),
        )
        .moves;
        assert_eq!(stats.len(), 5);
        assert!(stats.iter().all(|s| s.visits == 1));
    }

    /// The position of [`one_move_from_a_win`] with a ply limit of 2:
    /// `a1` wins at once, and after `b1` and North's only move, `b3`, the
    /// game ends undecided at the ply limit, whatever is played.
    #[test]
    fn takes_the_win_in_one() {
        let rules = custom("rows = 4\nholes = 4\nseeds = 2", "ply_limit = 2");
        let pos = one_move_from_a_win(&rules);
        let legal = rules.legal_moves(&pos);
        let (win, draw) = (Move::sow(0, None), Move::sow(1, None));
        assert_eq!(legal.as_slice(), &[win, draw]);
        for seed in 0..5 {
            let hundred = iterations(100);
            let stats = search(&rules, &pos, &legal, hundred, 1.4, &mut rng_from_seed(seed)).moves;
            let [a1, b1] = [stats[0], stats[1]];
            assert_eq!((a1.mv, b1.mv), (win, draw));
            assert_eq!(a1.reward, a1.visits as f64);
            assert_eq!(b1.reward, b1.visits as f64 / 2.0);
            assert!(a1.visits > b1.visits, "{stats:?}");
            assert_eq!(
                choose(&rules, &pos, &legal, hundred, 1.4, &mut rng_from_seed(seed)),
                win
            );
        }
    }
}
