//! The `alphabeta` agent: a depth-limited negamax search with alpha-beta
//! pruning.
//!
//! Definition, for a search `depth` plies deep from the position to play:
//!
//! - Every legal move of the root is searched; below it, the tree is cut
//!   `depth` plies from the root, or earlier where the game is over.
//! - A position's value is from the side of the player to move in it, and
//!   a parent's value is the largest of its children's values, each
//!   negated when the child has the other player to move (negamax; after a
//!   capturing lone-seed step under `step_sowing = "chosen"` the same
//!   player moves again, RULES.md §7, and each decision is one level). Where the tree is cut, the position is scored by
//!   [`evaluate`]:
//!   - the game is won (by either player, whatever ended it, including an
//!     endless move under `endless_move = "mover-loses"`):
//!     `±(WIN − plies)`, plus for the player to move if they won, minus if
//!     they lost, where `plies` counts the plies from the searched position
//!     to this one, so a nearer win scores higher and a nearer loss lower;
//!   - the game ended undecided (ply limit, endless move under
//!     `endless_move = "undecided"`, lap limit): 0;
//!   - otherwise the seed difference: the seeds on the mover's side minus
//!     the seeds on the opponent's side.
//! - Moves are searched in order of the seeds they capture this turn, most
//!   first, then in board order; ordering changes only the speed, never the
//!   value.
//! - The agent plays a root move whose value equals the root's value,
//!   drawn uniformly (one [`below`] draw) among all such moves, listed in
//!   [`Move`] order. Tied moves are found exactly: after the first root
//!   move, the others are searched with the window (best − 1, +∞), which
//!   proves whether each is worse, equal or better.

use std::cmp::Reverse;

use crate::engine::kernel::{Frontier, Kernel, Sown};
use crate::engine::{Dir, MAX_HOLES, Move, MoveList, Player, Position, Silent, Status};
use crate::rng::{GameRng, below};
use crate::rules::Rules;

/// The score of a game won at the searched position itself; a win `n`
/// plies ahead scores `WIN - n`. Larger than any seed difference (a board
/// holds at most 65 535 seeds) plus any search depth, so a proven win
/// always outranks material.
pub const WIN: i32 = 1_000_000;

/// Beyond every value, so it can open a search window.
const INF: i32 = WIN + 1;

/// The result of searching a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The position's value for the player to move (see [`evaluate`]).
    pub value: i32,
    /// Every legal move whose value is `value`, in [`Move`] order.
    pub best: Vec<Move>,
}

/// The value of a position where the search stops, for the player to move
/// in it, `plies` plies below the searched position: `WIN - plies` if the
/// player to move has won, `-(WIN - plies)` if they have lost, 0 if the
/// game ended undecided, otherwise the seeds on their side minus the seeds
/// on the opponent's.
pub fn evaluate(rules: &Rules, pos: &Position, plies: u32) -> i32 {
    match rules.status(pos) {
        Status::Ongoing => seed_difference(rules, pos),
        ended => ended_value(ended, pos.to_move(), plies),
    }
}

fn seed_difference(rules: &Rules, pos: &Position) -> i32 {
    let me = pos.to_move();
    rules.side_seeds(pos, me) as i32 - rules.side_seeds(pos, me.other()) as i32
}

fn ended_value(status: Status, to_move: Player, plies: u32) -> i32 {
    match status {
        Status::Won(winner) if winner == to_move => WIN - plies as i32,
        Status::Won(_) => -(WIN - plies as i32),
        Status::PlyLimit | Status::EndlessMove | Status::LapLimit => 0,
        Status::Ongoing => unreachable!("only called once the game is over"),
    }
}

/// Searches `pos` `depth` plies deep (`depth` ≥ 1); `legal` must be its
/// non-empty legal moves.
pub fn analyse(rules: &Rules, pos: &Position, legal: &MoveList, depth: u32) -> Analysis {
    assert!(depth >= 1, "a search looks at least one ply ahead");
    assert!(!legal.is_empty(), "a finished game has nothing to search");
    let mut search = Search {
        rules,
        children: vec![Vec::new(); depth as usize],
    };
    let children = search.expand(pos, legal, 0);
    let mut value = -INF;
    let mut best = Vec::new();
    for child in &children {
        let alpha = if best.is_empty() { -INF } else { value - 1 };
        let v = search.child_value(pos, &child.pos, depth - 1, 1, alpha, INF);
        // Above `alpha` a value is exact, so `v == value` is a true tie;
        // at or below it, `v` is only a bound, but below `value` either way.
        rank_root(&mut value, &mut best, v, child.mv);
    }
    best.sort_unstable();
    Analysis { value, best }
}

/// The `alphabeta` agent's move.
pub fn choose(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    depth: u32,
    rng: &mut GameRng,
) -> Move {
    if legal.len() == 1 {
        return legal[0];
    }
    let best = analyse(rules, pos, legal, depth).best;
    best[below(rng, best.len())]
}

/// The leaf evaluation of a search (`eval=` in an agent spec).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Eval {
    /// The seed difference ([`evaluate`]).
    #[default]
    Seeds,
    /// Four times the seed difference plus the difference in occupied
    /// holes (a side with seeds spread over more holes has more moves
    /// and fewer lone seeds to lose).
    Features,
    /// The log-odds that the player to move wins, as a logistic
    /// regression on [`features`] fitted to the outcomes of self-play
    /// games ([`FITTED_WEIGHTS`]), times [`FITTED_SCALE`], rounded.
    Fitted,
}

impl Eval {
    pub const NAMES: &'static str = "seeds, features, fitted";

    /// The evaluation an agent's `eval=` names, as `mcts::Rollout::parse`.
    pub fn parse(text: &str) -> Option<Eval> {
        match text {
            "seeds" => Some(Eval::Seeds),
            "features" => Some(Eval::Features),
            "fitted" => Some(Eval::Fitted),
            _ => None,
        }
    }

    /// The name `eval=` gives it, which [`Eval::parse`] reads back.
    pub fn name(self) -> &'static str {
        match self {
            Eval::Seeds => "seeds",
            Eval::Features => "features",
            Eval::Fitted => "fitted",
        }
    }

    /// `legal` is the position's legal moves (the search has them at
    /// hand; only `Fitted` reads them).
    fn score(self, rules: &Rules, pos: &Position, legal: &MoveList) -> i32 {
        match self {
            Eval::Seeds => seed_difference(rules, pos),
            Eval::Features => {
                let me = pos.to_move();
                let mut holes = 0i32;
                for h in 0..rules.hole_count() {
                    if pos.seeds(h) > 0 {
                        holes += if rules.owner(h) == me { 1 } else { -1 };
                    }
                }
                4 * seed_difference(rules, pos) + holes
            }
            Eval::Fitted => fitted_score(&features(rules, pos, legal)),
        }
    }
}

/// How many position features [`features`] measures.
pub const FEATURES: usize = 5;

/// The names of [`features`]' entries, in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "seeds",
    "inner_seeds",
    "sowable_holes",
    "occupied_holes",
    "capture_now",
];

/// The features of an ongoing position the fitted evaluation weighs,
/// each from the side of the player to move and normalised so one set of
/// weights serves every board (`legal` must be the position's legal
/// moves):
///
/// 0. the seed difference (mover's side minus opponent's), over the
///    board's total seeds;
/// 1. the same difference counted in the innermost rows only (the rows
///    that capture and are captured from, RULES.md §5), over the total
///    seeds;
/// 2. the difference in holes holding two seeds or more (the holes a
///    sowing can start from, RULES.md §4), over the holes of a side;
/// 3. the difference in occupied holes, over the holes of a side;
/// 4. the most seeds one legal move of the mover captures this turn,
///    over the total seeds (a capture the cut-off would otherwise miss).
pub fn features(rules: &Rules, pos: &Position, legal: &MoveList) -> [f64; FEATURES] {
    // The lane kernel sows each move on two integers instead of a copied
    // position: the same counts (it plays as the engine does, and hands
    // it the long moves), in a fraction of the instructions.
    let capture = match rules.kernel().and_then(|k| k.max_capture(rules, pos)) {
        Some(c) => c,
        None => engine_capture(rules, pos, legal),
    };
    features_with(rules, pos, capture)
}

/// The most seeds one of `legal` captures, each played on a copy of `pos`.
fn engine_capture(rules: &Rules, pos: &Position, legal: &MoveList) -> u64 {
    legal
        .iter()
        .map(|&mv| {
            let mut after = *pos;
            rules
                .play_unchecked(&mut after, mv, &mut Silent)
                .seeds_captured
        })
        .max()
        .unwrap_or(0)
}

/// [`features`], given the capture feature's seeds.
fn features_with(rules: &Rules, pos: &Position, capture: u64) -> [f64; FEATURES] {
    features_from(rules, counts(rules, pos), capture)
}

/// The integers of [`features`]' first four entries, from the side of
/// the player to move: seeds, seeds of the innermost rows, holes of two
/// seeds or more, occupied holes, each the mover's less the opponent's.
fn counts(rules: &Rules, pos: &Position) -> [i64; 4] {
    // Each side is one run of rows, South's first, its innermost row
    // last (North's first), so each count is a sum over a slice: the
    // same integers as a loop over holes asking each one's owner and
    // depth, in a fifth of the instructions.
    let cols = rules.cols();
    let depths = rules.depths();
    let side = depths * cols;
    let holes = &pos.holes()[..2 * side];
    let (south, north) = holes.split_at(side);
    let sum = |run: &[u16]| i64::from(run.iter().map(|&h| u32::from(h)).sum::<u32>());
    let (s_seeds, s_sowable, s_occupied) = tally(south);
    let (n_seeds, n_sowable, n_occupied) = tally(north);
    let s_inner = sum(&south[side - cols..]);
    let n_inner = sum(&north[..cols]);
    let sign = if pos.to_move() == Player::South {
        1
    } else {
        -1
    };
    [
        sign * (s_seeds - n_seeds),
        sign * (s_inner - n_inner),
        sign * (s_sowable - n_sowable),
        sign * (s_occupied - n_occupied),
    ]
}

/// The seeds, holes of two seeds or more and occupied holes of `run`.
#[inline(always)]
fn tally(run: &[u16]) -> (i64, i64, i64) {
    // Summed in `u32`s (a side holds fewer than 2^22 seeds), which the
    // compiler vectorises.
    let (mut s, mut w, mut o) = (0u32, 0u32, 0u32);
    for &h in run {
        s += u32::from(h);
        w += u32::from(h >= 2);
        o += u32::from(h > 0);
    }
    (i64::from(s), i64::from(w), i64::from(o))
}

/// [`features`] from [`counts`] and the capture feature's seeds.
fn features_from(rules: &Rules, counts: [i64; 4], capture: u64) -> [f64; FEATURES] {
    let [seeds, inner_seeds, sowable, occupied] = counts;
    let total = f64::from(rules.total_seeds().max(1));
    let side = (rules.hole_count() / 2) as f64;
    [
        seeds as f64 / total,
        inner_seeds as f64 / total,
        sowable as f64 / side,
        occupied as f64 / side,
        capture as f64 / total,
    ]
}

/// The fitted weights of [`features`], one set for every board, printed
/// by `cargo run --release --example fit_eval` (its defaults: 3,000 games
/// a variant of `alphabeta:depth=4` self-play on katro-6x6, katro-4x4 and
/// katro-ludii, 205,205 positions fitted, 51,604 held out). Held-out
/// log-loss 0.2774 against 0.3063 for the seed difference alone; per
/// variant 0.3064 / 0.3235 (katro-6x6), 0.3249 / 0.4030 (katro-4x4),
/// 0.2057 / 0.2343 (katro-ludii). Whether that makes the search stronger
/// is measured in docs/PERFORMANCE.md, "Alpha-beta".
pub const FITTED_WEIGHTS: [f64; FEATURES] = [8.3240, -2.1344, 0.4987, 1.8034, 9.6957];

/// Log-odds units per evaluation point: a fitted score of 1000 is odds of
/// e to 1 that the mover wins.
pub const FITTED_SCALE: f64 = 1000.0;

/// The fitted evaluation of a position with features `f`, kept far below
/// a win's score so a proven result always outranks it.
pub fn fitted_score(f: &[f64; FEATURES]) -> i32 {
    let logit: f64 = f.iter().zip(FITTED_WEIGHTS).map(|(x, w)| x * w).sum();
    (logit * FITTED_SCALE)
        .round()
        .clamp(-f64::from(WIN / 4), f64::from(WIN / 4)) as i32
}

/// The limits of a deep search ([`analyse_deep`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration (≥ 1).
    pub depth: u32,
    /// Nodes (positions visited) after which an iteration deeper than the
    /// first is abandoned; `None` for no budget.
    pub nodes: Option<u64>,
    /// The transposition table has `2^tt_bits` slots.
    pub tt_bits: u32,
    pub eval: Eval,
}

/// What a deep search found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deep {
    /// The result of the deepest iteration completed.
    pub analysis: Analysis,
    /// That iteration's depth.
    pub depth: u32,
    /// Nodes visited, abandoned iteration included.
    pub nodes: u64,
}

/// Iterative deepening with a transposition table ([`super::tt`]): depth
/// 1, 2, ... up to `limits.depth`, each iteration a full search of that
/// depth, its moves ordered by the table's best move first, then by the
/// seeds they capture, then in board order. An iteration that would pass
/// the node budget is abandoned and the previous one's result kept (the
/// first always completes). The table answers a position only with a
/// value searched to exactly the depth asked, so each iteration's value
/// and tied best moves are those of [`analyse`] at its depth: the table
/// and the ordering change the cost, never the result.
pub fn analyse_deep(rules: &Rules, pos: &Position, legal: &MoveList, limits: Limits) -> Deep {
    assert!(limits.depth >= 1, "a search looks at least one ply ahead");
    assert!(!legal.is_empty(), "a finished game has nothing to search");
    let mut search = DeepSearch::new(rules, limits);
    let mut root = Vec::new();
    play_each(rules, pos, legal, &mut root);
    root.sort_unstable_by_key(|c| (Reverse(c.captured), c.mv));
    let mut done: Option<(Analysis, u32)> = None;
    for depth in 1..=limits.depth {
        if done.is_some() {
            search.budget = limits.nodes.unwrap_or(u64::MAX);
        }
        let Some(mut analysis) = search.root_iteration(pos.to_move(), &root, depth) else {
            break;
        };
        // The next iteration tries this one's best moves first.
        let first = analysis.best[0];
        root.sort_by_key(|c| c.mv != first);
        analysis.best.sort_unstable();
        done = Some((analysis, depth));
    }
    let (analysis, depth) = done.expect("the first iteration has no budget");
    Deep {
        analysis,
        depth,
        nodes: search.nodes,
    }
}

/// The deep `alphabeta` agent's move: uniform among the deepest completed
/// iteration's best moves.
pub fn choose_deep(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    limits: Limits,
    rng: &mut GameRng,
) -> Move {
    if legal.len() == 1 {
        return legal[0];
    }
    let best = analyse_deep(rules, pos, legal, limits).analysis.best;
    best[below(rng, best.len())]
}

struct DeepSearch<'a> {
    rules: &'a Rules,
    kernel: Option<&'a Kernel>,
    eval: Eval,
    table: super::tt::Table,
    children: Vec<Vec<Kid>>,
    /// The search order of each ply's children after the table's move,
    /// as [`order_key`]s.
    order: Vec<Vec<u64>>,
    /// Each ply's legal moves, filled in place: a `MoveList` returned by
    /// value is a fresh 130-move array to fill and two copies of it, a
    /// node, which cost more than generating the moves.
    legal: Vec<Option<Box<MoveList>>>,
    /// The legal moves of the leaf being scored.
    leaf_moves: MoveList,
    /// The holes of the node the kernel played being hashed; zero past
    /// the board's holes, which no node writes.
    sown_holes: [u16; MAX_HOLES],
    nodes: u64,
    /// Past this many nodes the search stops (`None` results).
    budget: u64,
}

/// A child of a node of the deep search: an engine position, or a
/// position the lane kernel played.
// Not boxed: a node's children live in one reused vector, and a box would
// allocate for every engine child of every node.
#[allow(clippy::large_enum_variant)]
enum Node {
    Engine(Position),
    Kernel(Sown),
}

impl Node {
    fn of(&self) -> Of<'_> {
        match self {
            Node::Engine(pos) => Of::Engine(pos),
            Node::Kernel(sown) => Of::Kernel(sown),
        }
    }
}

/// A node to search, by reference.
#[derive(Clone, Copy)]
enum Of<'p> {
    Engine(&'p Position),
    Kernel(&'p Sown),
}

impl Of<'_> {
    fn to_move(self) -> Player {
        match self {
            Of::Engine(pos) => pos.to_move(),
            Of::Kernel(sown) => sown.to_move(),
        }
    }
}

struct Kid {
    mv: Move,
    node: Node,
    captured: u64,
}

/// The node being expanded: an engine position, or a position the kernel
/// played with its moves as the kernel sees them.
#[derive(Clone, Copy)]
enum At<'p> {
    Engine(&'p Position),
    Kernel(&'p Sown, &'p Frontier),
}

impl<'a> DeepSearch<'a> {
    /// A search of `rules` as `limits` set it, with no node budget yet.
    fn new(rules: &'a Rules, limits: Limits) -> Self {
        DeepSearch {
            rules,
            kernel: rules.kernel(),
            eval: limits.eval,
            table: super::tt::Table::new(limits.tt_bits),
            children: (0..=limits.depth).map(|_| Vec::new()).collect(),
            order: vec![Vec::new(); limits.depth as usize + 1],
            legal: (0..=limits.depth).map(|_| Some(Box::default())).collect(),
            leaf_moves: MoveList::new(),
            sown_holes: [0; MAX_HOLES],
            nodes: 0,
            budget: u64::MAX,
        }
    }

    /// One iteration of the deepening at `depth` over the root's
    /// children `root`, `mover` to move there: the value and the tied best
    /// moves in the order searched, or `None` if the node budget ran out.
    fn root_iteration(&mut self, mover: Player, root: &[Child], depth: u32) -> Option<Analysis> {
        let w = Window {
            mover,
            depth,
            ply: 0,
            beta: INF,
        };
        let mut value = -INF;
        let mut best = Vec::new();
        for child in root {
            let alpha = if best.is_empty() { -INF } else { value - 1 };
            let v = self.child_value(Of::Engine(&child.pos), w, alpha)?;
            rank_root(&mut value, &mut best, v, child.mv);
        }
        Some(Analysis { value, best })
    }

    /// The engine position of `at`, for what only the engine plays.
    fn position(&self, at: At) -> Position {
        match at {
            At::Engine(pos) => *pos,
            At::Kernel(c, _) => self.kernel.expect("a kernel node").leaf_position(c),
        }
    }

    /// Plays the `k`-th legal move `mv` of the node `at` into a new last
    /// entry of `out`: on the kernel where `frontier` is the node and the
    /// kernel plays that move, else by the engine, in place.
    fn push_kid(
        &self,
        at: At,
        frontier: Option<&Frontier>,
        (mv, k): (Move, usize),
        out: &mut Vec<Kid>,
    ) {
        if let Some(f) = frontier
            && let Some((sown, captured)) =
                self.kernel.and_then(|kn| kn.frontier_child(f, k as u32))
        {
            out.push(Kid {
                mv,
                node: Node::Kernel(sown),
                captured,
            });
            return;
        }
        out.push(Kid {
            mv,
            node: Node::Engine(self.position(at)),
            captured: 0,
        });
        let kid = out.last_mut().expect("just pushed");
        if let Node::Engine(child) = &mut kid.node {
            kid.captured = self
                .rules
                .play_unchecked(child, mv, &mut Silent)
                .seeds_captured;
        }
    }

    /// A child's value from the side of `w.mover`, the parent's player to
    /// move, searched with the parent's window (`alpha`, `w.beta`).
    fn child_value(&mut self, child: Of, w: Window, alpha: i32) -> Option<i32> {
        let (depth, ply, beta) = (w.depth - 1, w.ply + 1, w.beta);
        if child.to_move() == w.mover {
            self.negamax(child, depth, ply, alpha, beta)
        } else {
            self.negamax(child, depth, ply, -beta, -alpha).map(|v| -v)
        }
    }

    /// The value of a leaf, `ply` plies below the root (its node counted).
    fn leaf(&mut self, pos: &Position, ply: usize) -> i32 {
        // Where the lane kernel plays the rules, it counts the fitted
        // evaluation's capture feature and, in doing so, that the
        // leaf has a move (`max_capture` is `None` at a leaf with
        // none, and mid-turn): no engine move list.
        if self.eval == Eval::Fitted
            && let Some(c) = self.kernel.and_then(|k| k.max_capture(self.rules, pos))
        {
            return fitted_score(&features_with(self.rules, pos, c));
        }
        // A leaf's moves are read here and nowhere after, so one list
        // serves every leaf (a fresh one is 130 moves to clear).
        self.rules.legal_moves_into(pos, &mut self.leaf_moves);
        if self.leaf_moves.is_empty() {
            return ended_value(self.rules.status(pos), pos.to_move(), ply as u32);
        }
        self.eval.score(self.rules, pos, &self.leaf_moves)
    }

    /// Fail-soft negamax as [`Search::negamax`], with the table; `None`
    /// once the node budget is spent. A node the kernel played is listed,
    /// hashed and played on the kernel's sides: the same node.
    fn negamax(&mut self, node: Of, depth: u32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        if depth == 0 {
            return Some(match node {
                Of::Engine(pos) => self.leaf(pos, ply),
                Of::Kernel(sown) => self.sown_leaf(sown, ply),
            });
        }
        let mut legal = self.legal[ply].take().expect("one list a ply");
        let kernel_node = match node {
            Of::Kernel(sown) => self
                .kernel
                .and_then(|k| Some((k, sown, k.sown_frontier(sown)?))),
            Of::Engine(_) => None,
        };
        let value = match (node, kernel_node) {
            (_, Some((kernel, sown, f))) => {
                kernel.frontier_moves(&f, &mut legal);
                self.expanded(At::Kernel(sown, &f), &legal, depth, ply, alpha, beta)
            }
            (Of::Engine(pos), None) => {
                self.rules.legal_moves_into(pos, &mut legal);
                self.expanded(At::Engine(pos), &legal, depth, ply, alpha, beta)
            }
            // No move after all: the engine's node.
            (Of::Kernel(sown), None) => {
                let pos = self.kernel.expect("a kernel node").leaf_position(sown);
                self.rules.legal_moves_into(&pos, &mut legal);
                self.expanded(At::Engine(&pos), &legal, depth, ply, alpha, beta)
            }
        };
        self.legal[ply] = Some(legal);
        value
    }

    /// The value of a leaf the kernel played, scored on its sides where
    /// it can be.
    fn sown_leaf(&mut self, sown: &Sown, ply: usize) -> i32 {
        let kernel = self.kernel.expect("a kernel node has a kernel");
        match kernel.leaf_counts(self.rules, sown) {
            Some(c) => fitted_score(&features_from(self.rules, c.counts, c.capture)),
            None => self.leaf(&kernel.leaf_position(sown), ply),
        }
    }

    /// [`DeepSearch::negamax`] of a node `depth` ≥ 1 plies above the
    /// leaves, its legal moves `legal` (none if the game is over).
    fn expanded(
        &mut self,
        at: At,
        legal: &MoveList,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if legal.is_empty() {
            let pos = self.position(at);
            return Some(ended_value(
                self.rules.status(&pos),
                pos.to_move(),
                ply as u32,
            ));
        }
        let (key, mover) = self.key(at);
        let stored = self.table.probe(key);
        if let Some(v) = stored.and_then(|e| table_value(e, depth, ply, alpha, beta)) {
            return Some(v);
        }
        let mut children = std::mem::take(&mut self.children[ply]);
        children.clear();
        let hint = stored.and_then(|e| table_move(e, legal));
        let engine_frontier;
        let frontier = match at {
            At::Kernel(_, f) => Some(f),
            At::Engine(pos) => {
                engine_frontier = self.engine_frontier(pos, legal);
                engine_frontier.as_ref()
            }
        };
        let kids = Kids {
            at,
            frontier,
            legal,
            hint,
        };
        let window = Window {
            mover,
            depth,
            ply,
            beta,
        };
        let mut best = Best {
            value: -INF,
            mv: None,
            alpha,
        };
        let searched = self.search_kids(kids, window, &mut children, &mut best);
        self.children[ply] = children;
        searched?;
        self.store(key, window, alpha, best);
        Some(best.value)
    }

    /// The table's key of the node `at` and its player to move.
    #[inline(always)]
    fn key(&mut self, at: At) -> (u64, Player) {
        match at {
            At::Engine(pos) => (super::tt::hash(pos), pos.to_move()),
            At::Kernel(sown, _) => {
                let kernel = self.kernel.expect("a kernel node has a kernel");
                let key = super::tt::hash_sown(kernel, sown, &mut self.sown_holes);
                (key, sown.to_move())
            }
        }
    }

    /// The kernel's view of the engine node `pos`, if the kernel is to
    /// play its children.
    // Under the fitted evaluation the kernel plays the children (the
    // same moves in the same order, the same captures), and scores them
    // where they are leaves; an engine node is converted once, after
    // the table had its chance to answer.
    #[inline(always)]
    fn engine_frontier(&self, pos: &Position, legal: &MoveList) -> Option<Frontier> {
        (self.eval == Eval::Fitted)
            .then(|| self.kernel.and_then(|k| k.frontier(pos)))
            .flatten()
            .filter(|f| f.moves() == legal.len())
    }

    /// Plays and searches the children of `kids.at` into `children`, the
    /// table's move first, until one cuts the node off; `None` once the
    /// node budget is spent.
    #[inline(always)]
    fn search_kids(
        &mut self,
        kids: Kids,
        w: Window,
        children: &mut Vec<Kid>,
        best: &mut Best,
    ) -> Option<()> {
        if let Some((mv, k)) = kids.hint {
            self.push_kid(kids.at, kids.frontier, (mv, k), children);
            let v = self.child_value(children[0].node.of(), w, best.alpha)?;
            if best.offer(v, mv, w.beta) {
                return Some(());
            }
        }
        let first = children.len();
        for (k, &mv) in kids.legal.iter().enumerate() {
            if Some(mv) != kids.hint.map(|h| h.0) {
                self.push_kid(kids.at, kids.frontier, (mv, k), children);
            }
        }
        // Moves are distinct, so the key orders them totally and an
        // unstable sort gives the one order.
        let mut order = std::mem::take(&mut self.order[w.ply]);
        order.clear();
        order.extend(
            children[first..]
                .iter()
                .enumerate()
                .map(|(i, c)| order_key(c.captured, c.mv, first + i)),
        );
        order.sort_unstable();
        let searched = self.search_ordered(&order, children, w, best);
        self.order[w.ply] = order;
        searched
    }

    /// Searches `children` in the order `order` until one cuts the node
    /// off; `None` once the node budget is spent.
    #[inline(always)]
    fn search_ordered(
        &mut self,
        order: &[u64],
        children: &[Kid],
        w: Window,
        best: &mut Best,
    ) -> Option<()> {
        for &key in order {
            let child = &children[(key & 0xff) as usize];
            let v = self.child_value(child.node.of(), w, best.alpha)?;
            if best.offer(v, child.mv, w.beta) {
                break;
            }
        }
        Some(())
    }

    /// Stores the value `best` of the node `key`, searched with the
    /// window (`alpha`, `w.beta`), in the table.
    #[inline(always)]
    fn store(&mut self, key: u64, w: Window, alpha: i32, best: Best) {
        use super::tt::{Bound, Entry};
        let bound = if best.value <= alpha {
            Bound::Upper
        } else if best.value >= w.beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            depth: w.depth,
            // Win scores are stored relative to the position.
            value: shift_win(best.value, -(w.ply as i32)),
            bound,
            best: best.mv,
        });
    }
}

/// The children of a node to search: the node, its kernel frontier where
/// the kernel plays them, its legal moves and the table's move among them.
#[derive(Clone, Copy)]
struct Kids<'a> {
    at: At<'a>,
    frontier: Option<&'a Frontier>,
    legal: &'a MoveList,
    hint: Option<(Move, usize)>,
}

/// What a node's children are searched with: the node's player to move,
/// its depth above the leaves and ply below the root, and its window's
/// upper end.
#[derive(Clone, Copy)]
struct Window {
    mover: Player,
    depth: u32,
    ply: usize,
    beta: i32,
}

/// The best child of a node so far, and the window's lower end it raised.
#[derive(Clone, Copy)]
struct Best {
    value: i32,
    mv: Option<Move>,
    alpha: i32,
}

impl Best {
    /// Takes the value `v` of the child `mv` if it is better; whether it
    /// cuts the node off (reaches `beta`).
    #[inline(always)]
    fn offer(&mut self, v: i32, mv: Move, beta: i32) -> bool {
        if v > self.value {
            self.value = v;
            self.mv = Some(mv);
            if v > self.alpha {
                self.alpha = v;
                return self.alpha >= beta;
            }
        }
        false
    }
}

/// The table's move of entry `e` and its index among `legal`, if legal.
// The table's move is searched first, as the order (hint first, then most
// seeds captured, then board order) puts it; the other moves are played
// only if it does not cut the node off, so a cut node plays one move
// instead of all. Checked against the legal moves, since another position
// can share the slot's key.
#[inline(always)]
fn table_move(e: super::tt::Entry, legal: &MoveList) -> Option<(Move, usize)> {
    let m = e.best?;
    Some((m, legal.iter().position(|&l| l == m)?))
}

/// The value the table's entry `e` settles for a node `depth` plies above
/// the leaves and `ply` below the root, searched with the window (`alpha`,
/// `beta`): an entry of the same depth whose bound the window makes exact.
#[inline(always)]
fn table_value(e: super::tt::Entry, depth: u32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    use super::tt::Bound;
    if e.depth != depth {
        return None;
    }
    // Win scores are stored relative to the position and read back
    // relative to the root.
    let v = shift_win(e.value, ply as i32);
    match e.bound {
        Bound::Exact => Some(v),
        Bound::Lower if v >= beta => Some(v),
        Bound::Upper if v <= alpha => Some(v),
        _ => None,
    }
}

/// Takes the root's child `mv`, of value `v`, into the tied best moves
/// `best` of value `value`: a better value replaces them, an equal one
/// joins them.
fn rank_root(value: &mut i32, best: &mut Vec<Move>, v: i32, mv: Move) {
    if v > *value {
        *value = v;
        best.clear();
        best.push(mv);
    } else if v == *value {
        best.push(mv);
    }
}

/// A child's place in the search order as one integer, smallest first:
/// most seeds `captured` first, then `mv` in [`Move`] order (the order of
/// the triple (most seeds captured, the move, `index`), which sorted
/// branch by branch cost twice the instructions); its `index` among the
/// node's children in the low byte.
fn order_key(captured: u64, mv: Move, index: usize) -> u64 {
    // A board holds at most 65,535 seeds, so a move captures fewer.
    debug_assert!(captured <= 0xffff && index <= 0xff);
    let dir = match mv.dir {
        None => 0,
        Some(Dir::Forward) => 1,
        Some(Dir::Backward) => 2,
    };
    (0xffff - captured.min(0xffff)) << 40
        | u64::from(mv.from) << 24
        | u64::from(mv.to) << 16
        | dir << 8
        | index as u64
}

/// A value `by` plies further from the root (win scores only: a win `n`
/// plies from the root is `WIN - n`).
fn shift_win(v: i32, by: i32) -> i32 {
    if v > WIN / 2 {
        v - by
    } else if v < -WIN / 2 {
        v + by
    } else {
        v
    }
}

/// Fills `out` with every legal move played once, in `legal`'s order.
fn play_each(rules: &Rules, pos: &Position, legal: &MoveList, out: &mut Vec<Child>) {
    out.clear();
    for &mv in legal.iter() {
        let mut after = *pos;
        let report = rules.play_unchecked(&mut after, mv, &mut Silent);
        out.push(Child {
            mv,
            pos: after,
            captured: report.seeds_captured,
        });
    }
}

#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    pos: Position,
    captured: u64,
}

struct Search<'a> {
    rules: &'a Rules,
    /// The children of the node being searched at each ply, kept so a
    /// search allocates once per ply rather than once per node.
    children: Vec<Vec<Child>>,
}

impl Search<'_> {
    /// Plays every move once, then orders the results; the child positions
    /// are kept, so no move is played twice.
    fn expand(&mut self, pos: &Position, legal: &MoveList, ply: usize) -> Vec<Child> {
        let mut children = std::mem::take(&mut self.children[ply]);
        play_each(self.rules, pos, legal, &mut children);
        children.sort_unstable_by_key(|c| (Reverse(c.captured), c.mv));
        children
    }

    /// A child's value from the side of the parent's player to move,
    /// searched with the parent's window (alpha, beta).
    fn child_value(
        &mut self,
        parent: &Position,
        child: &Position,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if child.to_move() == parent.to_move() {
            self.negamax(child, depth, ply, alpha, beta)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha)
        }
    }

    /// Fail-soft negamax: exact inside (alpha, beta), a bound outside.
    fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let legal = self.rules.legal_moves(pos);
        if legal.is_empty() {
            // No move: the game is won, lost, or ended undecided here.
            return ended_value(self.rules.status(pos), pos.to_move(), ply as u32);
        }
        if depth == 0 {
            return seed_difference(self.rules, pos);
        }
        let children = self.expand(pos, &legal, ply);
        let mut best = -INF;
        for child in &children {
            let v = self.child_value(pos, &child.pos, depth - 1, ply + 1, alpha, beta);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.children[ply] = children;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::testing::{custom, random_positions};
    use crate::rng::rng_from_seed;

    #[test]
    fn the_order_key_sorts_as_the_triple() {
        let dirs = [None, Some(Dir::Forward), Some(Dir::Backward)];
        let mut kids = Vec::new();
        for captured in [0, 1, 7, 0xffff] {
            for from in [0, 3, 71] {
                for to in [crate::engine::NO_HOLE, 5, 64] {
                    for dir in dirs {
                        let mv = Move { from, to, dir };
                        kids.push((captured, mv, kids.len()));
                    }
                }
            }
        }
        let mut by_triple = kids.clone();
        by_triple.sort_by_key(|&(c, mv, i)| (Reverse(c), mv, i));
        let mut keys: Vec<u64> = kids.iter().map(|&(c, mv, i)| order_key(c, mv, i)).collect();
        keys.sort_unstable();
        let by_key: Vec<usize> = keys.iter().map(|k| (k & 0xff) as usize).collect();
        assert_eq!(by_key, by_triple.iter().map(|k| k.2).collect::<Vec<_>>());
    }

    /// What plain minimax met at the leaves, so the test can show it
    /// covered every way a game ends.
    #[derive(Default, Debug)]
    struct Seen {
        won: u32,
        /// Won by an endless move under `endless_move = "mover-loses"`.
        won_by_endless: u32,
        ply_limit: u32,
        endless: u32,
        lap_limit: u32,
    }

    /// Plain minimax, every move searched, no pruning, no ordering; the
    /// evaluation written out from the definition in the module docs.
    fn minimax(rules: &Rules, pos: &Position, depth: u32, plies: i32, seen: &mut Seen) -> i32 {
        let me = pos.to_move();
        match rules.status(pos) {
            Status::Won(winner) => {
                seen.won += 1;
                if pos.ended().is_some() {
                    seen.won_by_endless += 1;
                }
                if winner == me {
                    WIN - plies
                } else {
                    plies - WIN
                }
            }
            Status::PlyLimit => {
                seen.ply_limit += 1;
                0
            }
            Status::EndlessMove => {
                seen.endless += 1;
                0
            }
            Status::LapLimit => {
                seen.lap_limit += 1;
                0
            }
            Status::Ongoing if depth == 0 => {
                rules.side_seeds(pos, me) as i32 - rules.side_seeds(pos, me.other()) as i32
            }
            Status::Ongoing => rules
                .legal_moves(pos)
                .iter()
                .map(|&mv| {
                    let mut after = *pos;
                    rules.play(&mut after, mv).unwrap();
                    let v = minimax(rules, &after, depth - 1, plies + 1, seen);
                    if after.to_move() == me { v } else { -v }
                })
                .max()
                .unwrap(),
        }
    }

    fn check_against_minimax(rules: &Rules, positions: usize, max_depth: u32, seed: u64) -> Seen {
        let mut seen = Seen::default();
        for pos in random_positions(rules, positions, seed) {
            let legal = rules.legal_moves(&pos);
            for depth in 1..=max_depth {
                let values: Vec<(Move, i32)> = legal
                    .iter()
                    .map(|&mv| {
                        let mut after = pos;
                        rules.play(&mut after, mv).unwrap();
                        let v = minimax(rules, &after, depth - 1, 1, &mut seen);
                        (
                            mv,
                            if after.to_move() == pos.to_move() {
                                v
                            } else {
                                -v
                            },
                        )
                    })
                    .collect();
                let value = values.iter().map(|v| v.1).max().unwrap();
                let mut optimal: Vec<Move> = values
                    .iter()
                    .filter(|v| v.1 == value)
                    .map(|v| v.0)
                    .collect();
                optimal.sort_unstable();
                let found = analyse(rules, &pos, &legal, depth);
                assert_eq!(
                    found.value,
                    value,
                    "{}, depth {depth}: {pos:?}",
                    rules.name()
                );
                assert_eq!(
                    found.best,
                    optimal,
                    "{}, depth {depth}: {pos:?}",
                    rules.name()
                );
                for s in 0..3 {
                    let mv = choose(rules, &pos, &legal, depth, &mut rng_from_seed(s));
                    assert!(optimal.contains(&mv));
                }
            }
        }
        seen
    }

    const BOARD_4X4: &str = "rows = 4\nholes = 4\nseeds = 2";

    #[test]
    fn equals_minimax_with_limits_reached() {
        // A short ply limit and lap limit bring both within reach of the
        // search.
        let rules = custom(BOARD_4X4, "ply_limit = 16\nlap_limit = 20");
        let seen = check_against_minimax(&rules, 40, 3, 1);
        assert!(
            seen.won > 0 && seen.ply_limit > 0 && seen.lap_limit > 0,
            "{seen:?}"
        );
    }

    #[test]
    fn equals_minimax_when_endless_moves_occur() {
        // Under `game_end = "play-out"` a mover who took every opposing
        // seed relays on, so endless moves come up often.
        let rules = custom(
            BOARD_4X4,
            "endless_move = \"undecided\"\ngame_end = \"play-out\"",
        );
        let seen = check_against_minimax(&rules, 40, 3, 2);
        assert!(seen.endless > 0, "{seen:?}");
        let rules = custom(
            BOARD_4X4,
            "endless_move = \"mover-loses\"\ngame_end = \"play-out\"",
        );
        let seen = check_against_minimax(&rules, 40, 3, 2);
        assert!(seen.won_by_endless > 0, "{seen:?}");
    }

    #[test]
    fn equals_minimax_when_a_turn_has_two_decisions() {
        // Ludii's reading on 6×3 with South's only seed in b2, facing
        // North's b4: the step b2>b3 captures and South then chooses the
        // direction of the sowing on, a second decision of the same turn
        // (RULES.md §7), which the search must not negate.
        let rules = custom(
            "rows = 6\nholes = 3\nlayout = [[0, 0, 0], [0, 1, 0], [0, 0, 0], [1, 2, 1], [1, 1, 1], [2, 2, 2]]",
            "direction = \"each-move\"\nbackward_circuit = \"mirrored\"\ncapturing_row = \"inner\"\n\
             victim = \"column\"\nlone_seed = \"straight\"\nlone_seed_step = \"no-failed-capture\"\n\
             step_sowing = \"chosen\"\nlap_limit = 1000",
        );
        let start = rules.start();
        let mut after = start;
        rules
            .play(&mut after, crate::engine::Move::step(4, 7))
            .unwrap();
        assert_eq!(after.pending(), Some(7), "the step pauses the turn");
        assert_eq!(
            analyse(&rules, &start, &rules.legal_moves(&start), 3).value,
            {
                let mut seen = Seen::default();
                minimax(&rules, &start, 3, 0, &mut seen)
            }
        );
        let pending = random_positions(&rules, 60, 4)
            .iter()
            .filter(|p| p.pending().is_some())
            .count();
        assert!(pending > 0, "no random position awaits a continuation");
        check_against_minimax(&rules, 60, 3, 4);
    }

    #[test]
    fn equals_minimax_with_directions_and_other_captures() {
        // Either direction each move, captures on an empty landing, victims
        // per column, lone seeds stepping straight (Ludii-like) on 4×4.
        let rules = custom(
            BOARD_4X4,
            "direction = \"each-move\"\ncapture_trigger = \"empty\"\nvictim = \"column\"\n\
             lone_seed = \"straight\"\ncapturing_row = \"inner\"\nlap_limit = 1000",
        );
        check_against_minimax(&rules, 15, 3, 3);
        // A direction fixed by the first move, any start hole, whole-column
        // captures (Katra Boaoaka's rules on a small board).
        let rules = custom(
            "rows = 4\nholes = 3\nseeds = 2",
            "start = \"any\"\ndirection = \"once-per-game\"\ncapture_trigger = \"either\"\n\
             capturing_row = \"inner\"\nvictim = \"whole-column\"\n\
             min_victim_seeds_after_empty = 2\nlap_limit = 1000",
        );
        check_against_minimax(&rules, 10, 3, 4);
    }

    #[test]
    fn equals_minimax_with_diagonal_lone_seeds() {
        // South starts with one seed, so lone-seed steps are legal at once.
        let rules = custom(
            "rows = 4\nholes = 4\nlayout = [[0, 1, 0, 0], [0, 0, 0, 0], [1, 2, 0, 1], [2, 0, 2, 2]]",
            "lone_seed = \"diagonal\"\nlap_limit = 1000",
        );
        let start = rules.start();
        let legal = rules.legal_moves(&start);
        assert!(legal.iter().any(|m| m.is_step()), "{legal:?}");
        check_against_minimax(&rules, 30, 3, 5);
    }

    fn deep(depth: u32, nodes: Option<u64>, eval: Eval) -> Limits {
        Limits {
            depth,
            nodes,
            tt_bits: 12,
            eval,
        }
    }

    #[test]
    fn the_deep_search_finds_what_the_plain_search_finds() {
        // Boards with transpositions and wins within reach, and Ludii's
        // two-decision turns.
        let boards = [
            custom(BOARD_4X4, "ply_limit = 30\nlap_limit = 1000"),
            custom(
                BOARD_4X4,
                "direction = \"each-move\"\ncapture_trigger = \"empty\"\nvictim = \"column\"\n\
                 lone_seed = \"straight\"\ncapturing_row = \"inner\"\nlap_limit = 1000",
            ),
            crate::agents::testing::variant("katro-ludii")
                .with_limits(None, Some(2_000))
                .unwrap(),
        ];
        let mut hits = 0;
        for (b, rules) in boards.iter().enumerate() {
            for pos in random_positions(rules, 12, 60 + b as u64) {
                let legal = rules.legal_moves(&pos);
                for depth in 1..=5 {
                    let plain = analyse(rules, &pos, &legal, depth);
                    let found = analyse_deep(rules, &pos, &legal, deep(depth, None, Eval::Seeds));
                    assert_eq!(found.analysis, plain, "{}, depth {depth}", rules.name());
                    assert_eq!(found.depth, depth);
                    // A budget it never reaches changes nothing.
                    let budget = Some(found.nodes + 1);
                    let again = analyse_deep(rules, &pos, &legal, deep(depth, budget, Eval::Seeds));
                    assert_eq!(again, found);
                    hits += (plain.best.len() > 1) as u32;
                }
            }
        }
        assert!(hits > 0, "ties must be exercised");
    }

    /// Negamax without pruning, table or ordering, scoring cut-offs by
    /// `eval`.
    fn negamax_with(rules: &Rules, pos: &Position, depth: u32, plies: u32, eval: Eval) -> i32 {
        let legal = rules.legal_moves(pos);
        if legal.is_empty() {
            return ended_value(rules.status(pos), pos.to_move(), plies);
        }
        if depth == 0 {
            return eval.score(rules, pos, &legal);
        }
        legal
            .iter()
            .map(|&mv| {
                let mut after = *pos;
                rules.play(&mut after, mv).unwrap();
                let v = negamax_with(rules, &after, depth - 1, plies + 1, eval);
                if after.to_move() == pos.to_move() {
                    v
                } else {
                    -v
                }
            })
            .max()
            .unwrap()
    }

    #[test]
    fn the_deep_search_is_exact_with_every_evaluation() {
        let rules = custom(BOARD_4X4, "ply_limit = 30\nlap_limit = 1000");
        for pos in random_positions(&rules, 15, 11) {
            let legal = rules.legal_moves(&pos);
            for eval in [Eval::Features, Eval::Fitted] {
                for depth in 1..=4 {
                    let found = analyse_deep(&rules, &pos, &legal, deep(depth, None, eval));
                    let want = negamax_with(&rules, &pos, depth, 0, eval);
                    assert_eq!(found.analysis.value, want, "{eval:?}, depth {depth}");
                }
            }
        }
    }

    #[test]
    fn the_table_saves_nodes() {
        // The deeper iterations re-search what the shallower ones stored:
        // with the table and its move first, the whole deepening costs
        // fewer nodes than the last depth searched alone without them
        // would (counted on the plain search, one node a negamax call).
        let rules = crate::agents::testing::variant("katro-6x6");
        let pos = random_positions(&rules, 1, 3)[0];
        let legal = rules.legal_moves(&pos);
        let found = analyse_deep(&rules, &pos, &legal, deep(6, None, Eval::Seeds));
        let tiny = analyse_deep(
            &rules,
            &pos,
            &legal,
            Limits {
                tt_bits: 1,
                ..deep(6, None, Eval::Seeds)
            },
        );
        assert_eq!(found.analysis, tiny.analysis);
        assert!(
            found.nodes < tiny.nodes,
            "{} vs {}",
            found.nodes,
            tiny.nodes
        );
    }

    #[test]
    fn a_node_budget_is_respected() {
        let rules = crate::agents::testing::variant("katro-6x6");
        for (i, pos) in random_positions(&rules, 10, 8).iter().enumerate() {
            let legal = rules.legal_moves(pos);
            let first = analyse_deep(&rules, pos, &legal, deep(1, None, Eval::Seeds));
            for budget in [1, 50, 500, 5_000] {
                let found = analyse_deep(&rules, pos, &legal, deep(12, Some(budget), Eval::Seeds));
                // The first iteration always completes; after it, the node
                // that passes the budget is the last visited.
                assert!(
                    found.nodes <= budget.max(first.nodes) + 1,
                    "position {i}, budget {budget}: {} nodes",
                    found.nodes
                );
                assert!(found.depth < 12, "position {i}, budget {budget}");
                let plain = analyse(&rules, pos, &legal, found.depth);
                assert_eq!(found.analysis, plain, "position {i}, budget {budget}");
            }
        }
    }

    #[test]
    fn the_feature_evaluation_counts_holes() {
        let (rules, pos) = one_move_from_a_win();
        // South: two seeds in two holes; North: one seed in one hole.
        let occupied = |p: Player| {
            (0..rules.hole_count())
                .filter(|&h| rules.owner(h) == p && pos.seeds(h) > 0)
                .count() as i32
        };
        let holes = occupied(Player::South) - occupied(Player::North);
        // Seed difference 1, times four.
        let legal = rules.legal_moves(&pos);
        assert_eq!(Eval::Features.score(&rules, &pos, &legal), 4 + holes);
        assert_eq!(Eval::Seeds.score(&rules, &pos, &legal), 1);
    }

    #[test]
    fn the_features_follow_their_definition() {
        let rules = crate::agents::testing::variant("katro-4x4");
        // Rows 1 and 2 are South's (outer, inner), 3 and 4 North's
        // (inner, outer).
        assert_eq!((rules.depth(4), rules.depth(8), rules.depth(12)), (1, 1, 0));
        let mut holes = [0u16; 16];
        (holes[0], holes[1], holes[4]) = (3, 1, 2);
        (holes[8], holes[10], holes[12], holes[15]) = (1, 4, 2, 1);
        let pos = rules
            .position(&holes, Player::South, [None, None], 0)
            .unwrap();
        let legal = rules.legal_moves(&pos);
        let f = features(&rules, &pos, &legal);
        let total = f64::from(rules.total_seeds());
        // South 6 seeds against 8; inner rows 2 against 5; two holes of
        // two or more each; three occupied holes against four, of 8.
        assert_eq!(f[..4], [-2.0 / total, -3.0 / total, 0.0, -1.0 / 8.0]);
        // North to move sees the same position from the other side.
        let north = rules
            .position(&holes, Player::North, [None, None], 0)
            .unwrap();
        let g = features(&rules, &north, &rules.legal_moves(&north));
        assert_eq!(g[..4], [2.0 / total, 3.0 / total, 0.0, 1.0 / 8.0]);
        // The capture feature: the most any one legal move takes.
        let mut captured = 0;
        for p in random_positions(&rules, 200, 9) {
            let legal = rules.legal_moves(&p);
            let most = engine_capture(&rules, &p, &legal);
            assert_eq!(features(&rules, &p, &legal)[4], most as f64 / total);
            captured += (most > 0) as u32;
        }
        assert!(captured > 20, "{captured} positions with a capture");
    }

    /// [`features`]' first four entries counted hole by hole from each
    /// hole's owner and depth, as the definition reads.
    fn features_by_definition(rules: &Rules, pos: &Position) -> [i64; 4] {
        let me = pos.to_move();
        let inner = rules.depths() - 1;
        let mut f = [0i64; 4];
        for h in 0..rules.hole_count() {
            let s = i64::from(pos.seeds(h));
            let sign = if rules.owner(h) == me { 1 } else { -1 };
            f[0] += sign * s;
            if rules.depth(h) == inner {
                f[1] += sign * s;
            }
            f[2] += sign * i64::from(s >= 2);
            f[3] += sign * i64::from(s > 0);
        }
        f
    }

    #[test]
    fn the_features_are_counted_by_their_definition() {
        for name in crate::rules::preset_names() {
            let rules = crate::agents::testing::variant(name);
            let total = f64::from(rules.total_seeds().max(1));
            let side = (rules.hole_count() / 2) as f64;
            for pos in random_positions(&rules, 60, 12) {
                let f = features(&rules, &pos, &rules.legal_moves(&pos));
                let d = features_by_definition(&rules, &pos);
                let want = [
                    d[0] as f64 / total,
                    d[1] as f64 / total,
                    d[2] as f64 / side,
                    d[3] as f64 / side,
                ];
                assert_eq!(f[..4], want, "{name}: {pos:?}");
            }
        }
    }

    /// The capture feature, which the lane kernel counts where it can
    /// play the rules, is the engine's: every legal move played on a
    /// copied position, the most seeds one captures (every preset, 400
    /// positions each, some of them mid-turn or with a long move).
    #[test]
    fn the_capture_feature_is_the_engines() {
        for name in crate::rules::preset_names() {
            let rules = crate::agents::testing::variant(name);
            let total = f64::from(rules.total_seeds().max(1));
            let mut captured = 0;
            for pos in random_positions(&rules, 400, 13) {
                let legal = rules.legal_moves(&pos);
                let most = engine_capture(&rules, &pos, &legal);
                let f = features(&rules, &pos, &legal);
                assert_eq!(f[4], most as f64 / total, "{name}: {pos:?}");
                captured += (most > 0) as u32;
            }
            assert!(captured > 0, "{name}: no position with a capture");
        }
    }

    /// The deep search plays, lists, hashes and scores on the lane kernel:
    /// every child it plays there is the engine's (the same position,
    /// whole, and the same capture), its legal moves (the same list), its
    /// table hash, its counts and capture feature are the engine's, and
    /// the moves it leaves to the engine
    /// are left for a documented reason (steps, long moves, children that
    /// are no leaf) and are few (every preset, 300 positions each).
    #[test]
    fn the_kernel_frontier_is_the_engines() {
        for name in crate::rules::preset_names() {
            let rules = crate::agents::testing::variant(name);
            let Some(kernel) = rules.kernel() else {
                continue;
            };
            let (mut played, mut declined) = (0, 0);
            for pos in random_positions(&rules, 300, 14) {
                let legal = rules.legal_moves(&pos);
                let Some(f) = kernel.frontier(&pos) else {
                    assert!(
                        pos.pending().is_some() || legal.is_empty(),
                        "{name}: {pos:?}"
                    );
                    continue;
                };
                assert_eq!(f.moves(), legal.len(), "{name}: {pos:?}");
                let mut listed = MoveList::new();
                kernel.frontier_moves(&f, &mut listed);
                assert_eq!(listed.as_slice(), legal.as_slice(), "{name}: {pos:?}");
                for (k, &mv) in legal.iter().enumerate() {
                    let mut after = pos;
                    let report = rules.play_unchecked(&mut after, mv, &mut Silent);
                    let Some((leaf, captured)) = kernel.frontier_child(&f, k as u32) else {
                        // Only the documented reasons: the lone seed's
                        // step, a move long enough for the engine's
                        // fallback, or a child that is no leaf (the game
                        // over, a continuation pending, the ply limit).
                        assert!(
                            mv.is_step()
                                || report.laps >= 64 // FALLBACK_LAPS (engine/kernel/spec.rs)
                                || after.ended().is_some()
                                || after.pending().is_some()
                                || rules.legal_moves(&after).is_empty()
                                || after.plies() >= rules.settings().ply_limit,
                            "{name}: declined {mv:?} at {pos:?}"
                        );
                        declined += 1;
                        continue;
                    };
                    played += 1;
                    assert_eq!(captured, report.seeds_captured, "{name}: {pos:?} {mv:?}");
                    assert_eq!(kernel.leaf_position(&leaf), after, "{name}: {pos:?} {mv:?}");
                    assert_eq!(
                        crate::agents::tt::hash_sown(kernel, &leaf, &mut [0; MAX_HOLES]),
                        crate::agents::tt::hash(&after),
                        "{name}: {after:?}"
                    );
                    // Searched further, the child is a frontier of its own.
                    if let Some(g) = kernel.sown_frontier(&leaf) {
                        kernel.frontier_moves(&g, &mut listed);
                        assert_eq!(listed.as_slice(), rules.legal_moves(&after).as_slice());
                    }
                    let c = kernel
                        .leaf_counts(&rules, &leaf)
                        .expect("a leaf has a move");
                    assert_eq!(c.counts, counts(&rules, &after), "{name}: {after:?}");
                    let legal_after = rules.legal_moves(&after);
                    assert_eq!(c.capture, engine_capture(&rules, &after, &legal_after));
                }
            }
            // Most children are leaves, or the kernel buys nothing.
            assert!(
                played > 5 * declined,
                "{name}: {played} played, {declined} declined"
            );
        }
    }

    #[test]
    fn the_fitted_evaluation_weighs_the_features() {
        let rules = crate::agents::testing::variant("katro-6x6");
        for pos in random_positions(&rules, 50, 10) {
            let legal = rules.legal_moves(&pos);
            let f = features(&rules, &pos, &legal);
            let logit: f64 = (0..FEATURES).map(|i| f[i] * FITTED_WEIGHTS[i]).sum();
            assert_eq!(
                Eval::Fitted.score(&rules, &pos, &legal),
                (logit * FITTED_SCALE).round() as i32
            );
        }
        // Far from any win score even for a side holding every seed.
        let extreme = [1.0, 1.0, 1.0, 1.0, 1.0];
        assert!(fitted_score(&extreme).abs() < WIN / 2);
        assert_eq!(fitted_score(&[1e9; FEATURES]), WIN / 4);
    }

    #[test]
    fn a_budgeted_game_is_a_function_of_its_seed() {
        // Nodes, not time, bound the search, so a whole game replays
        // exactly from its seed, whatever the machine's load.
        let rules = crate::agents::testing::variant("katro-6x6");
        let play = |seed: u64, eval: Eval| {
            let mut rng = rng_from_seed(seed);
            let mut pos = rules.start();
            let mut moves = Vec::new();
            loop {
                let legal = rules.legal_moves(&pos);
                if legal.is_empty() || moves.len() == 60 {
                    return moves;
                }
                let mv = choose_deep(&rules, &pos, &legal, deep(12, Some(400), eval), &mut rng);
                rules.play(&mut pos, mv).unwrap();
                moves.push(mv);
            }
        };
        for eval in [Eval::Seeds, Eval::Fitted] {
            let game = play(3, eval);
            assert_eq!(play(3, eval), game, "{eval:?}");
            // Not vacuous: the seed does reach the moves (through ties).
            assert!((4..8).any(|s| play(s, eval) != game), "{eval:?}");
        }
    }

    fn one_move_from_a_win() -> (Rules, Position) {
        let rules = crate::agents::testing::variant("katro-4x4");
        let pos = crate::agents::testing::one_move_from_a_win(&rules);
        (rules, pos)
    }

    #[test]
    fn evaluation_follows_its_definition() {
        let (rules, pos) = one_move_from_a_win();
        // Two seeds on South's side, one on North's.
        assert_eq!(evaluate(&rules, &pos, 0), 1);
        let mut after = pos;
        rules.play(&mut after, Move::sow(0, None)).unwrap();
        assert_eq!(rules.status(&after), Status::Won(Player::South));
        // North is to move and has lost, one ply below the search root.
        assert_eq!(evaluate(&rules, &after, 1), -(WIN - 1));
        assert_eq!(evaluate(&rules, &after, 3), -(WIN - 3));
    }

    #[test]
    fn takes_the_win_in_one() {
        let (rules, pos) = one_move_from_a_win();
        let legal = rules.legal_moves(&pos);
        assert_eq!(legal.as_slice(), &[Move::sow(0, None), Move::sow(1, None)]);
        for depth in 1..=4 {
            let found = analyse(&rules, &pos, &legal, depth);
            assert_eq!(found.value, WIN - 1, "depth {depth}");
            assert_eq!(found.best, vec![Move::sow(0, None)], "depth {depth}");
        }
    }
}
