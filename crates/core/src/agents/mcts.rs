//! The `mcts` agent: Monte Carlo tree search with the UCT selection rule,
//! rollouts by a chosen policy, and optionally MCTS-Solver and a tree kept
//! between moves.
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
//!   3. *Rollout*: from the new child, both players play by the rollout
//!      policy until the game ends, by a win or undecided; its ply limit
//!      caps the rollout as it caps a real game. The policies (`rollout`):
//!      `random` (the default), uniformly random legal moves;
//!      `greedy` and `epsilon-greedy` (`rollout_epsilon`), the agents of
//!      those names, a forced move played without a draw as in a game.
//!   4. *Backup*: every node on the path from the root to the new child (or
//!      to the finished game's node) gains a visit and a reward for the
//!      player who made the move into that node: 1 if that player won,
//!      0.5 if the game ended undecided (ply limit, endless move, lap
//!      limit), 0 if they lost.
//! - The agent plays the root move with the most visits, drawn uniformly
//!   (one [`below`] draw) among the moves that tie, listed in [`Move`]
//!   order.
//!
//! MCTS-Solver (`solver`, after Winands, Björnsson and Saito 2008): a node
//! whose game is over carries its result as proven, and proofs are backed
//! up: a node is proven won for the player to move there if any child is
//! a proven win for them, and proven otherwise only once every legal move
//! has a child and every child is proven, with the best of their results.
//! Results are absolute (who won), so a move that leaves the same player
//! to move (a capturing step's continuation, RULES.md §7) needs no
//! special case. An undecided end is a *proven draw*: the ply counter is
//! part of a node's position, so a game ending undecided there ends so
//! whatever is played before; a proven draw is worth 0.5 to both. A
//! proven node is treated as a finished game (a simulation reaching it
//! backs up its result with no rollout); selection skips children proven
//! lost for the player choosing; the search stops once the root is
//! proven. The move played is then a proven win if the root has one (the
//! shortest proven, in decisions, ties drawn as above), else the most
//! visited move among those not proven lost (all being lost, the longest
//! loss). The proofs are exact for the game as the engine plays it,
//! ply limit included, which `katro solve` ignores (docs/SOLVED.md).
//!
//! A kept tree (`keep_tree`, [`choose_keeping`]): after a move the tree is
//! kept, and at the next move the node whose position is the new position
//! becomes the root (positions are compared, not moves, since the
//! opponent may have played several decisions, and a forced move is
//! played without a search); its subtree's visits and rewards are reused
//! and `iterations` more simulations run. No such node: a fresh tree.
//!
//! The budget is `iterations` simulations, or a time budget (`time_ms`),
//! or both: the search stops at whichever comes first, after at least one
//! simulation (none if a kept root is already proven).
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
//! Cost: rollouts are most of the time, so they run on the lane kernel
//! when it plays the rules (random ones as [`Rules::random_move`] draws,
//! checked by `the_kernel_rollout_plays_the_listed_rollouts_games`), else
//! on the engine with [`Rules::random_move`] and
//! [`Rules::play_unchecked`]. The tree lives in one vector that grows by
//! one node a simulation; nodes hold no position (a simulation replays the
//! moves from the root), which keeps a million simulations to tens of
//! megabytes.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::agents::AgentSpec;
use crate::engine::kernel::Agent;
use crate::engine::{MAX_MOVES, Move, MoveList, Player, Position, Silent, Status};
use crate::rng::{GameRng, below};
use crate::rules::Rules;
use crate::solve::Value;

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

    /// The result for `player`, `distance` decisions away.
    fn value(self, player: Player, distance: u32) -> Value {
        match self {
            Outcome::Won(winner) if winner == player => Value::Win(distance),
            Outcome::Won(_) => Value::Loss(distance),
            Outcome::Undecided => Value::Draw,
        }
    }
}

/// The policy that plays a rollout's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rollout {
    /// Uniformly random legal moves.
    #[default]
    Random,
    /// The `greedy` agent's moves.
    Greedy,
    /// The `epsilon-greedy` agent's moves, with `rollout_epsilon`.
    EpsilonGreedy,
}

impl Rollout {
    pub const NAMES: &'static str = "random, greedy, epsilon-greedy";

    pub fn parse(text: &str) -> Option<Rollout> {
        match text {
            "random" => Some(Rollout::Random),
            "greedy" => Some(Rollout::Greedy),
            "epsilon-greedy" => Some(Rollout::EpsilonGreedy),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Greedy => "greedy",
            Rollout::EpsilonGreedy => "epsilon-greedy",
        }
    }

    pub fn is_random(&self) -> bool {
        *self == Rollout::Random
    }
}

/// A search's settings besides its budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// UCT's exploration constant `c`.
    pub exploration: f64,
    pub rollout: Rollout,
    /// Epsilon of the `epsilon-greedy` rollout (read only for it).
    pub rollout_epsilon: f64,
    /// MCTS-Solver: proven results backed up.
    pub solver: bool,
}

impl Settings {
    /// Plain UCT with random rollouts, the agent as first written.
    pub fn uct(exploration: f64) -> Settings {
        Settings {
            exploration,
            rollout: Rollout::Random,
            rollout_epsilon: 0.0,
            solver: false,
        }
    }

    /// The rollout policy as the kernel plays it.
    fn kernel_agent(&self) -> Agent {
        match self.rollout {
            Rollout::Random => Agent::Random,
            Rollout::Greedy => Agent::Greedy,
            Rollout::EpsilonGreedy => Agent::EpsilonGreedy(self.rollout_epsilon),
        }
    }

    /// The rollout policy as the engine plays it.
    fn engine_agent(&self) -> AgentSpec {
        match self.rollout {
            Rollout::Random => AgentSpec::Random,
            Rollout::Greedy => AgentSpec::Greedy,
            Rollout::EpsilonGreedy => AgentSpec::EpsilonGreedy {
                epsilon: self.rollout_epsilon,
            },
        }
    }
}

#[derive(Clone)]
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
    /// Set when the game's result is known in the node's position: the
    /// game is over there, or (solver) the result is proven.
    end: Option<Outcome>,
    /// Decisions from the node to the end of the game along the proof,
    /// when `end` is set.
    distance: u32,
}

/// Visits and rewards of one root move after a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats {
    pub mv: Move,
    pub visits: u32,
    /// Sum of the rewards, for the player to move at the root.
    pub reward: f64,
    /// The move's proven result for the player to move at the root (the
    /// game ended by it, or a solver's proof), decisions counted from the
    /// root.
    pub proven: Option<Value>,
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
    /// The root's proven result for the player to move (solver only).
    pub proven: Option<Value>,
    /// Visits the root had before the search: those of a kept tree's
    /// reused node, 0 for a fresh tree.
    pub reused: u32,
}

/// A tree kept between moves of one game ([`choose_keeping`]).
#[derive(Clone)]
pub struct KeptTree {
    nodes: Vec<Node>,
    root: Position,
}

/// Runs simulations from `pos` (whose non-empty legal moves are `legal`)
/// until the budget is spent, in a fresh tree.
pub fn search(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    budget: Budget,
    settings: &Settings,
    rng: &mut GameRng,
) -> Search {
    let mut tree = Tree::fresh(rules, settings, pos, legal, budget);
    tree.run(pos, budget, rng)
}

/// The `mcts` agent's move.
pub fn choose(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    budget: Budget,
    settings: &Settings,
    rng: &mut GameRng,
) -> Move {
    if legal.len() == 1 {
        return legal[0];
    }
    let mut tree = Tree::fresh(rules, settings, pos, legal, budget);
    let found = tree.run(pos, budget, rng);
    best_move(&found, settings.solver, rng)
}

/// The `mcts` agent's move with a tree kept between moves: `kept` is the
/// tree of this agent's last search in the game (`None` at its first),
/// re-rooted at `pos` if it holds it, and replaced by this search's tree.
pub fn choose_keeping(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    budget: Budget,
    settings: &Settings,
    kept: &mut Option<KeptTree>,
    rng: &mut GameRng,
) -> Move {
    // A forced move keeps the tree as it is: the next search looks for
    // its position below the same root.
    if legal.len() == 1 {
        return legal[0];
    }
    let (mv, tree) = search_keeping(rules, pos, legal, budget, settings, kept.take(), rng);
    *kept = Some(tree);
    mv
}

/// [`choose_keeping`]'s search: the move, and the tree to keep.
fn search_keeping(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    budget: Budget,
    settings: &Settings,
    kept: Option<KeptTree>,
    rng: &mut GameRng,
) -> (Move, KeptTree) {
    let nodes = kept.and_then(|k| k.reroot(rules, pos));
    let mut tree = match nodes {
        Some(nodes) => Tree {
            rules,
            settings,
            nodes,
            rollout_plies: 0,
        },
        None => Tree::fresh(rules, settings, pos, legal, budget),
    };
    debug_assert_eq!(tree.nodes[0].legal as usize, legal.len());
    let found = tree.run(pos, budget, rng);
    let mv = best_move(&found, settings.solver, rng);
    (
        mv,
        KeptTree {
            nodes: tree.nodes,
            root: *pos,
        },
    )
}

/// The move to play after a search (see the module's definition).
fn best_move(found: &Search, solver: bool, rng: &mut GameRng) -> Move {
    let stats = &found.moves;
    let tied: Vec<Move> = if !solver {
        let most = stats.iter().map(|s| s.visits).max().unwrap_or(0);
        moves_where(stats, |s| s.visits == most)
    } else {
        solver_ties(stats)
    };
    tied[below(rng, tied.len())]
}

/// The moves whose statistics pass `keep`, in their order.
fn moves_where(stats: &[MoveStats], keep: impl Fn(&MoveStats) -> bool) -> Vec<Move> {
    stats.iter().filter(|s| keep(s)).map(|s| s.mv).collect()
}

/// The moves a search with the solver draws among: the fastest proven
/// wins, else the most visited of the moves not proven lost, else the
/// longest proven losses.
fn solver_ties(stats: &[MoveStats]) -> Vec<Move> {
    let fastest_win = stats
        .iter()
        .filter_map(|s| match s.proven {
            Some(Value::Win(d)) => Some(d),
            _ => None,
        })
        .min();
    let open = |s: &MoveStats| !matches!(s.proven, Some(Value::Loss(_)));
    if let Some(d) = fastest_win {
        moves_where(stats, |s| s.proven == Some(Value::Win(d)))
    } else if stats.iter().any(open) {
        let most = stats.iter().filter(|s| open(s)).map(|s| s.visits).max();
        moves_where(stats, |s| open(s) && Some(s.visits) == most)
    } else {
        let longest = stats
            .iter()
            .filter_map(|s| s.proven)
            .max_by_key(|v| v.rank());
        moves_where(stats, |s| s.proven == longest)
    }
}

impl KeptTree {
    /// The subtree whose root's position is `pos`, as a tree of its own,
    /// or `None` if no node holds `pos`. Searched depth first from the
    /// root, through nodes no further in the game than `pos` (fewer
    /// plies, or as many with a continuation pending: RULES.md §7); the
    /// first match is taken.
    fn reroot(self, rules: &Rules, pos: &Position) -> Option<Vec<Node>> {
        let found = if self.root == *pos {
            Some(0)
        } else {
            self.find(rules, pos)
        }?;
        Some(self.subtree(found))
    }

    /// The first node below the root whose position is `pos`, depth first
    /// (see [`KeptTree::reroot`]).
    fn find(&self, rules: &Rules, pos: &Position) -> Option<usize> {
        let mut stack = vec![(0usize, self.root)];
        while let Some((node, at)) = stack.pop() {
            let mut next = self.nodes[node].first_child;
            while next != NO_NODE {
                let c = next as usize;
                next = self.nodes[c].next_sibling;
                let mut p = at;
                rules.play_unchecked(&mut p, self.nodes[c].mv, &mut Silent);
                if p == *pos {
                    return Some(c);
                }
                let behind =
                    p.plies() < pos.plies() || (p.plies() == pos.plies() && p.pending().is_some());
                if behind && p.ended().is_none() {
                    stack.push((c, p));
                }
            }
        }
        None
    }

    /// The subtree below the node `found`, as a tree of its own.
    fn subtree(&self, found: usize) -> Vec<Node> {
        // Copy the subtree, breadth first, keeping each node's children
        // in their order.
        let mut nodes = Vec::new();
        let mut root = self.nodes[found].clone();
        root.parent = NO_NODE;
        root.next_sibling = NO_NODE;
        nodes.push(root);
        let mut i = 0;
        while i < nodes.len() {
            let mut old = nodes[i].first_child;
            let mut prev = NO_NODE;
            while old != NO_NODE {
                let mut c = self.nodes[old as usize].clone();
                old = c.next_sibling;
                c.parent = i as u32;
                c.next_sibling = NO_NODE;
                let new = nodes.len() as u32;
                if prev == NO_NODE {
                    nodes[i].first_child = new;
                } else {
                    nodes[prev as usize].next_sibling = new;
                }
                prev = new;
                nodes.push(c);
            }
            i += 1;
        }
        nodes
    }
}

struct Tree<'a> {
    rules: &'a Rules,
    settings: &'a Settings,
    nodes: Vec<Node>,
    rollout_plies: u64,
}

impl<'a> Tree<'a> {
    fn fresh(
        rules: &'a Rules,
        settings: &'a Settings,
        pos: &Position,
        legal: &MoveList,
        budget: Budget,
    ) -> Tree<'a> {
        assert!(!legal.is_empty(), "a finished game has nothing to search");
        // A time budget's iteration cap can be a million: the vector grows
        // as needed rather than reserving that much for every move.
        let mut nodes = Vec::with_capacity(budget.iterations.min(1 << 16) as usize + 1);
        nodes.push(Node {
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
            distance: 0,
        });
        Tree {
            rules,
            settings,
            nodes,
            rollout_plies: 0,
        }
    }

    /// Runs the budget's simulations from the root, whose position is
    /// `pos`.
    fn run(&mut self, pos: &Position, budget: Budget, rng: &mut GameRng) -> Search {
        assert!(
            budget.iterations >= 1,
            "a search runs at least one simulation"
        );
        // Only the clock is read under a time budget, so an iteration budget
        // never depends on it.
        let deadline = budget.time.map(|t| (Instant::now(), t));
        let reused = self.nodes[0].visits;
        let mut done = 0;
        // A proven root (solver) needs no more simulations.
        while done < budget.iterations && self.nodes[0].end.is_none() {
            if done > 0 && deadline.is_some_and(|(start, t)| start.elapsed() >= t) {
                break;
            }
            self.simulate(pos, rng);
            done += 1;
        }
        let me = pos.to_move();
        let root = &self.nodes[0];
        Search {
            moves: self.root_moves(me),
            iterations: done,
            rollout_plies: self.rollout_plies,
            proven: root.end.map(|o| o.value(me, root.distance)),
            reused,
        }
    }

    /// The root's moves and their statistics, in move order, `me` to move
    /// there.
    fn root_moves(&self, me: Player) -> Vec<MoveStats> {
        let mut moves: Vec<MoveStats> = self
            .children(0)
            .map(|i| {
                let n = &self.nodes[i];
                MoveStats {
                    mv: n.mv,
                    visits: n.visits,
                    reward: n.reward,
                    proven: n.end.map(|o| o.value(me, n.distance + 1)),
                }
            })
            .collect();
        moves.sort_unstable_by_key(|s| s.mv);
        moves
    }

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
        if self.settings.solver && self.nodes[node].end.is_some() {
            self.prove_up(node);
        }
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

    /// Backs a proven result up from `node` through its ancestors, as far
    /// as it proves them.
    fn prove_up(&mut self, mut node: usize) {
        loop {
            let parent = self.nodes[node].parent;
            if parent == NO_NODE {
                break;
            }
            let p = parent as usize;
            if self.nodes[p].end.is_some() || !self.prove(p) {
                break;
            }
            node = p;
        }
    }

    /// Proves `node` from its children if they suffice; returns whether
    /// it is now proven.
    fn prove(&mut self, node: usize) -> bool {
        // The player choosing at `node` made every child's move.
        let chooser = self.nodes[self.nodes[node].first_child as usize].mover;
        let mut fastest_win: Option<u32> = None;
        let mut all = self.nodes[node].tried == self.nodes[node].legal;
        let mut best: Option<(Value, Outcome, u32)> = None;
        for c in self.children(node) {
            let n = &self.nodes[c];
            match n.end {
                None => all = false,
                Some(o) => {
                    let v = o.value(chooser, n.distance);
                    if matches!(v, Value::Win(_)) {
                        fastest_win = Some(fastest_win.map_or(n.distance, |d| d.min(n.distance)));
                    }
                    // A loss is best delayed: rank ranks it so.
                    if best.is_none_or(|(b, _, _)| v.rank() > b.rank()) {
                        best = Some((v, o, n.distance));
                    }
                }
            }
        }
        let proof = match (fastest_win, best) {
            (Some(d), _) => Some((Outcome::Won(chooser), d)),
            (None, Some((_, o, d))) if all => Some((o, d)),
            _ => None,
        };
        match proof {
            Some((o, d)) => {
                let n = &mut self.nodes[node];
                n.end = Some(o);
                n.distance = d + 1;
                true
            }
            None => false,
        }
    }

    /// The UCT child of a node all of whose moves have children, each
    /// visited at least once; under the solver, never one proven lost for
    /// the player choosing.
    fn select(&self, node: usize) -> usize {
        let log_visits = (self.nodes[node].visits as f64).ln();
        let mut best = NO_NODE as usize;
        let mut best_score = f64::NEG_INFINITY;
        for i in self.children(node) {
            let c = &self.nodes[i];
            if self.settings.solver && c.end.is_some_and(|o| o.reward(c.mover) == 0.0) {
                continue;
            }
            let n = c.visits as f64;
            let score = c.reward / n + self.settings.exploration * (log_visits / n).sqrt();
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
            distance: 0,
        });
        child
    }

    /// Plays the rollout policy's moves to the end of the game: on the
    /// lane kernel when it plays these rules (the same moves and draws as
    /// the engine's, checked by
    /// `the_kernel_rollout_plays_the_listed_rollouts_games`), else on the
    /// engine.
    fn rollout(&mut self, mut pos: Position, rng: &mut GameRng) -> Outcome {
        let start = pos.plies();
        let policy = self.settings.engine_agent();
        let status = match self.rules.kernel() {
            Some(kernel) => {
                // A continuation pending mid-turn (RULES.md §7) is one
                // engine decision; the kernel starts at a turn's start.
                while pos.pending().is_some() && self.engine_move(&mut pos, &policy, rng) {}
                if pos.pending().is_some() || pos.ended().is_some() {
                    self.rules.status(&pos)
                } else {
                    let agent = self.settings.kernel_agent();
                    let (status, plies) = kernel.rollout(self.rules, &pos, agent, rng);
                    self.rollout_plies += u64::from(plies);
                    status
                }
            }
            None => {
                while self.engine_move(&mut pos, &policy, rng) {}
                self.rules.status(&pos)
            }
        };
        self.rollout_plies += u64::from(pos.plies() - start);
        Outcome::of(status)
    }

    /// Plays one rollout move on the engine; false if the game is over.
    fn engine_move(&self, pos: &mut Position, policy: &AgentSpec, rng: &mut GameRng) -> bool {
        let mv = if *policy == AgentSpec::Random {
            self.rules.random_move(pos, rng)
        } else {
            let legal = self.rules.legal_moves(pos);
            match legal.len() {
                0 => None,
                1 => Some(legal[0]),
                _ => Some(policy.choose(self.rules, pos, &legal, rng)),
            }
        };
        match mv {
            Some(mv) => {
                self.rules.play_unchecked(pos, mv, &mut Silent);
                true
            }
            None => false,
        }
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
                &Settings::uct(1.4),
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

    /// Variants with direction choices, lone-seed steps and a low ply
    /// limit, so every branch of a rollout's moves is taken.
    fn rollout_boards() -> [Rules; 5] {
        [
            custom("rows = 4\nholes = 4\nseeds = 2", "lap_limit = 1000"),
            variant("katro-6x6").with_limits(None, Some(2_000)).unwrap(),
            variant("katro-wikipedia")
                .with_limits(Some(60), Some(2_000))
                .unwrap(),
            variant("katra-boaoaka-4x8")
                .with_limits(None, Some(2_000))
                .unwrap(),
            variant("katro-ludii")
                .with_limits(None, Some(2_000))
                .unwrap(),
        ]
    }

    #[test]
    fn the_kernel_rollout_plays_the_listed_rollouts_games() {
        let boards = rollout_boards();
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
                    settings: &Settings::uct(1.0),
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
            &Settings::uct(1.4),
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
        let found = search(
            &rules,
            &pos,
            &legal,
            zero,
            &Settings::uct(1.4),
            &mut rng_from_seed(1),
        );
        assert_eq!(found.iterations, 1);
        assert_eq!(found.moves.iter().map(|s| s.visits).sum::<u32>(), 1);
        // 20 ms stops a million-simulation search long before its count
        // (a katro-6x6 rollout takes microseconds, so a million take
        // seconds). How many it runs depends on the machine and its load,
        // so nothing here asserts on the clock.
        let short = Budget {
            iterations: 1_000_000,
            time: Some(Duration::from_millis(20)),
        };
        let found = search(
            &rules,
            &pos,
            &legal,
            short,
            &Settings::uct(1.4),
            &mut rng_from_seed(1),
        );
        assert!(
            found.iterations >= 1 && found.iterations < 1_000_000,
            "{found:?}"
        );
        // An iteration cap reached first stops the search too.
        let capped = Budget {
            iterations: 3,
            time: Some(Duration::from_secs(60)),
        };
        let found = search(
            &rules,
            &pos,
            &legal,
            capped,
            &Settings::uct(1.4),
            &mut rng_from_seed(1),
        );
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
            &Settings::uct(1.4),
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
            let stats = search(
                &rules,
                &pos,
                &legal,
                hundred,
                &Settings::uct(1.4),
                &mut rng_from_seed(seed),
            )
            .moves;
            let [a1, b1] = [stats[0], stats[1]];
            assert_eq!((a1.mv, b1.mv), (win, draw));
            assert_eq!(a1.reward, a1.visits as f64);
            assert_eq!(b1.reward, b1.visits as f64 / 2.0);
            assert!(a1.visits > b1.visits, "{stats:?}");
            assert_eq!(
                choose(
                    &rules,
                    &pos,
                    &legal,
                    hundred,
                    &Settings::uct(1.4),
                    &mut rng_from_seed(seed)
                ),
                win
            );
        }
    }

    fn solver(rollout: Rollout) -> Settings {
        Settings {
            solver: true,
            rollout,
            rollout_epsilon: 0.25,
            ..Settings::uct(1.4)
        }
    }

    /// A preset's rules on a board small enough to solve in a moment.
    fn small(name: &str, rows: usize, holes: usize, seeds: u16) -> Rules {
        let mut s = variant(name).settings().clone();
        s.rows = rows;
        s.holes = holes;
        s.seeds = Some(seeds);
        s.layout = None;
        s.lap_limit = 1_000;
        Rules::new("small".into(), String::new(), String::new(), s).expect("valid settings")
    }

    #[test]
    fn the_solvers_proofs_are_the_exact_values() {
        use crate::solve::solve;
        use std::ops::ControlFlow;
        // Canonical rules, and Ludii's, whose capturing steps leave the
        // same player to move (RULES.md §7).
        let boards = [
            small("katro-6x6", 4, 3, 1),
            small("katro-6x6", 4, 2, 2),
            small("katro-ludii", 4, 3, 1),
            small("katro-ludii", 4, 2, 2),
        ];
        let (mut roots, mut moves) = ([0; 3], [0; 3]);
        let mut same_mover = 0;
        for (b, rules) in boards.iter().enumerate() {
            let table = solve(rules, u64::MAX, &mut |_, _, _| ControlFlow::Continue(()))
                .expect("a small board");
            let mut positions = random_positions(rules, 40, 60 + b as u64);
            positions.push(rules.start());
            for (i, pos) in positions.iter().enumerate() {
                let legal = rules.legal_moves(pos);
                let settings = solver(Rollout::Random);
                let mut rng = rng_from_seed(i as u64);
                let mut tree = Tree::fresh(rules, &settings, pos, &legal, iterations(3_000));
                let found = tree.run(pos, iterations(3_000), &mut rng);
                let word = |v: Option<Value>| v.map(Value::word);
                for s in &found.moves {
                    let exact = table.move_value(rules, pos, s.mv);
                    if s.proven.is_some() {
                        assert_eq!(
                            word(s.proven),
                            word(exact),
                            "{}: {pos:?} {:?}",
                            rules.name(),
                            s.mv
                        );
                        moves[s.proven.map_or(0, |v| (v.rank().signum() + 1) as usize)] += 1;
                        let mut after = *pos;
                        rules.play_unchecked(&mut after, s.mv, &mut Silent);
                        same_mover += (after.to_move() == pos.to_move()) as u32;
                    }
                }
                let mv = best_move(&found, true, &mut rng);
                let exact = table.value(rules, pos).expect("reachable");
                match found.proven {
                    Some(v) => {
                        assert!(found.iterations < 3_000, "a proven root stops the search");
                        assert_eq!(v.word(), exact.word(), "{}: {pos:?}", rules.name());
                        roots[(v.rank().signum() + 1) as usize] += 1;
                        // The proof found is a win, not always the fastest.
                        if let (Value::Win(d), Value::Win(e)) = (v, exact) {
                            assert!(d >= e, "win in {d}, exactly {e}");
                            let played = table.move_value(rules, pos, mv).unwrap();
                            assert_eq!(played.word(), "win");
                        }
                    }
                    None => assert_eq!(found.iterations, 3_000),
                }
                // A move proven lost is played only when every move is.
                let lost = |m: Move| {
                    found
                        .moves
                        .iter()
                        .any(|s| s.mv == m && matches!(s.proven, Some(Value::Loss(_))))
                };
                if !found.moves.iter().all(|s| lost(s.mv)) {
                    assert!(!lost(mv), "{}: {pos:?} played a proven loss", rules.name());
                }
            }
        }
        // Losses and wins proven, at roots and at root moves (these
        // boards' random positions give no proven draw).
        assert!(roots[0] > 0 && roots[2] > 0, "roots proven {roots:?}");
        assert!(moves[0] > 0 && moves[2] > 0, "moves proven {moves:?}");
        assert!(same_mover > 0, "no proof through a continuation");
    }

    #[test]
    fn the_solver_plays_a_win_at_once() {
        // `a1` wins (one_move_from_a_win); plain UCT spends the whole
        // budget, the solver stops once `a1`'s child is made.
        let rules = custom("rows = 4\nholes = 4\nseeds = 2", "ply_limit = 2");
        let pos = one_move_from_a_win(&rules);
        let legal = rules.legal_moves(&pos);
        for seed in 0..5 {
            let found = search(
                &rules,
                &pos,
                &legal,
                iterations(100),
                &solver(Rollout::Random),
                &mut rng_from_seed(seed),
            );
            assert!(found.iterations <= 2, "{found:?}");
            assert_eq!(found.proven, Some(Value::Win(1)));
            assert_eq!(found.moves[0].proven, Some(Value::Win(1)));
            let plain = search(
                &rules,
                &pos,
                &legal,
                iterations(100),
                &Settings::uct(1.4),
                &mut rng_from_seed(seed),
            );
            assert_eq!((plain.iterations, plain.proven), (100, None));
            // After b1 the game ends undecided at the ply limit whatever
            // North plays: a proven draw once expanded.
            if let Some(b1) = found.moves.get(1) {
                assert!(matches!(b1.proven, None | Some(Value::Draw)), "{b1:?}");
            }
            let mv = choose(
                &rules,
                &pos,
                &legal,
                iterations(100),
                &solver(Rollout::Random),
                &mut rng_from_seed(seed),
            );
            assert_eq!(mv, legal[0]);
        }
    }

    /// The rollout a policy plays on the engine alone, a forced move
    /// played without a draw.
    fn engine_policy_rollout(
        rules: &Rules,
        policy: &AgentSpec,
        mut pos: Position,
        rng: &mut GameRng,
    ) -> (Outcome, u64) {
        let start = pos.plies();
        loop {
            let legal = rules.legal_moves(&pos);
            let mv = match legal.len() {
                0 => {
                    return (
                        Outcome::of(rules.status(&pos)),
                        u64::from(pos.plies() - start),
                    );
                }
                1 => legal[0],
                _ => policy.choose(rules, &pos, &legal, rng),
            };
            rules.play_unchecked(&mut pos, mv, &mut Silent);
        }
    }

    #[test]
    fn greedy_rollouts_on_the_kernel_play_the_engines_games() {
        let boards = rollout_boards();
        let mut differ = 0;
        for rollout in [Rollout::Greedy, Rollout::EpsilonGreedy] {
            let settings = solver(rollout);
            let policy = settings.engine_agent();
            for (v, rules) in boards.iter().enumerate() {
                assert!(rules.kernel().is_some(), "{}", rules.name());
                let mut positions = random_positions(rules, 30, 80 + v as u64);
                positions.extend(pending_positions(rules, 10));
                for (i, pos) in positions.iter().enumerate() {
                    let mut tree = Tree {
                        rules,
                        settings: &settings,
                        nodes: Vec::new(),
                        rollout_plies: 0,
                    };
                    let (mut a, mut b) = (rng_from_seed(i as u64), rng_from_seed(i as u64));
                    let fast = tree.rollout(*pos, &mut a);
                    let slow = engine_policy_rollout(rules, &policy, *pos, &mut b);
                    assert_eq!(
                        (fast, tree.rollout_plies),
                        slow,
                        "{} {rollout:?}",
                        rules.name()
                    );
                    assert_eq!(a.next_u64(), b.next_u64(), "the same numbers drawn");
                    // The policy is used: a random rollout plays other games.
                    let (random, plies) = listed_rollout(rules, *pos, &mut rng_from_seed(i as u64));
                    differ += ((random, plies) != slow) as u32;
                }
            }
        }
        assert!(differ > 100, "{differ}");
    }

    #[test]
    fn a_kept_tree_is_rerooted_at_the_new_position_with_its_visits() {
        let rules = small("katro-6x6", 4, 4, 2);
        let settings = Settings::uct(1.4);
        let mut checked = 0;
        for (i, pos) in random_positions(&rules, 20, 90).iter().enumerate() {
            let legal = rules.legal_moves(pos);
            if legal.len() < 2 {
                continue;
            }
            let mut rng = rng_from_seed(i as u64);
            let mut tree = Tree::fresh(&rules, &settings, pos, &legal, iterations(500));
            tree.run(pos, iterations(500), &mut rng);
            // Two decisions down the most visited line, wherever it leads.
            let mut node = 0;
            let mut at = *pos;
            for _ in 0..2 {
                let Some(c) = tree.children(node).max_by_key(|&c| tree.nodes[c].visits) else {
                    break;
                };
                node = c;
                rules.play_unchecked(&mut at, tree.nodes[c].mv, &mut Silent);
            }
            let next = rules.legal_moves(&at);
            // A forced move is played without a search (nothing to check).
            if node == 0 || next.len() < 2 {
                continue;
            }
            let visits = tree.nodes[node].visits;
            let size = {
                let mut n = 0;
                let mut stack = vec![node];
                while let Some(x) = stack.pop() {
                    n += 1;
                    stack.extend(tree.children(x));
                }
                n
            };
            let kept = KeptTree {
                nodes: tree.nodes,
                root: *pos,
            };
            let nodes = kept
                .clone()
                .reroot(&rules, &at)
                .expect("the position is in the tree");
            assert_eq!((nodes.len(), nodes[0].visits), (size, visits));
            // A position not in the tree gives a fresh one.
            assert!(kept.clone().reroot(&rules, &rules.start()).is_none() || pos.plies() == 0);
            let mut again = Tree {
                rules: &rules,
                settings: &settings,
                nodes,
                rollout_plies: 0,
            };
            let found = again.run(&at, iterations(200), &mut rng);
            assert_eq!(found.reused, visits);
            // The reused node was once a leaf: one visit is its own.
            let sum: u32 = found.moves.iter().map(|s| s.visits).sum();
            assert_eq!(sum, visits - 1 + 200);
            // choose_keeping finds it too, and keeps the new tree.
            let mut slot = Some(kept);
            let mv = choose_keeping(
                &rules,
                &at,
                &next,
                iterations(50),
                &settings,
                &mut slot,
                &mut rng,
            );
            assert!(next.contains(&mv));
            let after = slot.expect("a tree kept");
            assert_eq!((after.root, after.nodes[0].visits), (at, visits + 50));
            checked += 1;
        }
        assert!(checked >= 10, "{checked}");
    }

    #[test]
    fn kept_trees_play_reproducible_games_unlike_fresh_ones() {
        use crate::agents::AgentSpec;
        use crate::game::play_game_on_engine;
        let rules = small("katro-6x6", 4, 4, 2);
        let keep = AgentSpec::parse("mcts:iterations=60,keep_tree=true").unwrap();
        let fresh = AgentSpec::parse("mcts:iterations=60").unwrap();
        let mut differ = 0;
        for seed in 0..8 {
            let game = |a: &AgentSpec| {
                let mut moves = Vec::new();
                play_game_on_engine(&rules, a, &AgentSpec::Random, 0, seed, Some(&mut moves));
                moves
            };
            let kept = game(&keep);
            assert_eq!(kept, game(&keep), "game {seed}");
            differ += (kept != game(&fresh)) as u32;
        }
        assert!(differ >= 4, "{differ} of 8 games differ");
    }

    #[test]
    fn the_solver_never_selects_a_move_proven_lost() {
        let rules = small("katro-6x6", 4, 4, 2);
        let pos = rules.start();
        let legal = rules.legal_moves(&pos);
        let me = pos.to_move();
        // A root whose two moves have children: the first looks best by
        // its rewards but is proven lost, the second is open.
        let child = |mv, reward, end| Node {
            mv,
            mover: me,
            parent: 0,
            first_child: NO_NODE,
            next_sibling: NO_NODE,
            legal: 1,
            tried: 0,
            visits: 10,
            reward,
            end,
            distance: 3,
        };
        let pick = |settings: &Settings| {
            let mut tree = Tree::fresh(&rules, settings, &pos, &legal, iterations(1));
            tree.nodes[0].visits = 20;
            tree.nodes[0].first_child = 1;
            tree.nodes[0].tried = 2;
            let mut lost = child(legal[0], 9.0, Some(Outcome::Won(me.other())));
            lost.next_sibling = 2;
            tree.nodes.push(lost);
            tree.nodes.push(child(legal[1], 2.0, None));
            tree.select(0)
        };
        assert_eq!(pick(&Settings::uct(1.4)), 1);
        assert_eq!(pick(&solver(Rollout::Random)), 2);
    }
}
