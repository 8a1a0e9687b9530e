//! Proof search (docs/SOLVED.md, "Proving a position"): the exact value of
//! one position by search, for boards far too large for [`super::solve`]'s
//! tables.
//!
//! The question asked of a position is always one of two: does the player
//! to move force a win within `d` decisions, or does the other player?
//! Both are answered by a depth-first AND/OR search (the player who is to
//! win needs one move that works, the other player's every reply must
//! fail), and the start's value is found by iterative deepening: the first
//! `d` at which one of the two questions is answered yes is the exact
//! distance, a fastest win or a slowest loss, as [`super::Value`] counts
//! it. The same definitions as the solver's (RULES.md §8, §9): a player
//! with no legal move has lost; an endless move under
//! `endless_move = "undecided"`, or a move stopped by the lap limit, ends
//! the game with no winner; under `"mover-loses"` it loses; the ply limit
//! is ignored; a capturing step under `step_sowing = "chosen"` is two
//! decisions of one player.
//!
//! Why it is sound with repeated positions: every question carries its
//! bound `d`, which falls by one a decision, so no answer ever rests on
//! itself, and "wins within `d`" of a position does not depend on the path
//! to it (no rule looks at the game's history). A game that never ends is
//! never proven: a draw by infinite play stays "neither side forces a win
//! within D", for every D reached.
//!
//! The transposition table stores, per position, four depth-free facts:
//! the largest `d` known not to suffice for a win (or a loss) and the
//! smallest `d` known to suffice. A fact about `d` holds for every
//! smaller (or larger) bound, so answers found at one depth serve every
//! later iteration. The table has a fixed number of slots, in buckets of
//! four, and replaces the entry that cost least to find; it never grows.

use crate::engine::{Dir, Ended, Move, MoveList, Player, Position, Silent};
use crate::rng::mix64;
use crate::rules::{EndlessMove, MAX_PLY_LIMIT, Rules, StepSowing};

/// The value of a position for the player to move, as far as a search
/// established it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Wins in exactly this many decisions at the fastest.
    Win(u32),
    /// Loses in exactly this many decisions at the slowest.
    Loss(u32),
    /// Neither side forces a win within this many decisions; beyond it,
    /// nothing is known (a draw by infinite play is never proven).
    Unknown(u32),
    /// The game is over with no winner: a move just ended it by the lap
    /// limit or as an endless move under `endless_move = "undecided"`
    /// (RULES.md §8). Only a finished position has this value.
    Ended,
}

impl Outcome {
    /// `win`, `loss` or `unknown`.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Win(_) => "win",
            Outcome::Loss(_) => "loss",
            Outcome::Unknown(_) => "unknown",
            Outcome::Ended => "draw",
        }
    }

    /// The exact distance of a proven value; `None` when unknown.
    pub fn distance(self) -> Option<u32> {
        match self {
            Outcome::Win(d) | Outcome::Loss(d) => Some(d),
            Outcome::Unknown(_) | Outcome::Ended => None,
        }
    }

    /// The value seen from the player who moved into this position: one
    /// decision more, and turned round when the turn passed to the other
    /// player (`same_player` is false).
    pub fn from_parent(self, same_player: bool) -> Outcome {
        let o = match self {
            Outcome::Win(d) => Outcome::Win(d + 1),
            Outcome::Loss(d) => Outcome::Loss(d + 1),
            Outcome::Unknown(d) => Outcome::Unknown(d + 1),
            Outcome::Ended => Outcome::Ended,
        };
        if same_player { o } else { o.flip() }
    }

    /// The same outcome seen by the other player.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win(d) => Outcome::Loss(d),
            Outcome::Loss(d) => Outcome::Win(d),
            u => u,
        }
    }

    /// How the mover ranks outcomes: a win beats an unknown, which beats
    /// a loss; a faster win and a slower loss are better; a longer bound
    /// ranks above a shorter one only to order equal kinds.
    pub fn rank(self) -> i64 {
        match self {
            Outcome::Win(d) => i64::MAX / 2 - d as i64,
            Outcome::Unknown(d) => d as i64,
            Outcome::Ended => -1,
            Outcome::Loss(d) => -(i64::MAX / 2) + d as i64,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win(d) => write!(f, "win in {d}"),
            Outcome::Loss(d) => write!(f, "loss in {d}"),
            Outcome::Unknown(d) => write!(f, "no forced win for either side within {d}"),
            Outcome::Ended => write!(f, "draw (the game ended with no winner)"),
        }
    }
}

/// What one search may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest bound tried, in decisions.
    pub max_depth: u32,
    /// Nodes after which the search stops; `None` for no budget.
    pub max_nodes: Option<u64>,
}

/// Told of a search's progress every [`WATCH_EVERY`] nodes and at each
/// completed depth; answers whether to stop. Time limits live here, in
/// the caller's watch (katro-lab's jobs keep them on a clock they are
/// given), so katro-core reads no clock.
pub trait Watch {
    /// A search from a new position begins.
    fn search_started(&mut self) {}
    /// Whether to stop now, `nodes` searched so far in this search.
    fn should_stop(&mut self, _nodes: u64) -> bool {
        false
    }
    /// Depth `depth` is settled for the position searched, with no proof.
    fn depth_done(&mut self, _depth: u32, _nodes: u64) {}
}

/// A watch that never stops a search.
pub struct NoWatch;
impl Watch for NoWatch {}

/// Laps past which a move's result is kept in the prover's cache of long
/// moves.
pub const LONG_MOVE_LAPS: u64 = 100_000;

/// How often [`Watch::should_stop`] is asked, in nodes.
pub const WATCH_EVERY: u64 = 1 << 14;

/// Why a search ended without a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `max_depth` was reached.
    Depth,
    /// `max_nodes` was spent.
    Nodes,
    /// The watch said stop (time, or the user).
    Watch,
}

/// The result of one search from one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    pub outcome: Outcome,
    /// Set when the outcome is `Unknown`: what ended the search.
    pub stop: Option<Stop>,
    /// Nodes of this search: positions made by playing a move, as the
    /// alpha-beta search counts them (a position answered by the table
    /// counts where it was made).
    pub nodes: u64,
}

/// The prover: one table, reused by every search made through it, so a
/// position's moves are valued with what valuing the position found.
pub struct Prover {
    rules: Rules,
    table: Table,
    /// One list of children per ply of the current search, reused.
    kids: Vec<Kids>,
    nodes: u64,
    /// `nodes / WATCH_EVERY` when the watch was last asked.
    watched: u64,
    /// `nodes` when the current search began.
    search_nodes: u64,
    budget: u64,
    stopped: Option<Stop>,
    /// Wins of the player to move end on an odd number of decisions and
    /// losses on an even one: true unless a turn can hold two decisions
    /// (`step_sowing = "chosen"`) or a player can lose by their own move
    /// (`endless_move = "mover-loses"`).
    parity: bool,
    /// Positions after long moves, by the key before and the move's
    /// place in the legal list ([`Prover::play`]); at most
    /// `long_moves_cap` of them, an eighth of the table's bytes.
    long_moves: std::collections::HashMap<(u128, u8), (Position, u64)>,
    long_moves_cap: usize,
    /// The seed total fits [`super::key`], the exact key; otherwise a
    /// 128-bit hash of the position stands for it.
    exact_keys: bool,
}

/// The children of one position: `pos[k]` after the `k`-th legal move,
/// and the search order as (rank, k) pairs. Positions stay where they
/// were made; only the pairs are sorted, as a position is hundreds of
/// bytes.
#[derive(Default)]
struct Kids {
    pos: Vec<Position>,
    order: Vec<(i64, usize)>,
}

/// Which question a search answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// The player to move forces a win.
    Win,
    /// The other player forces a win.
    Loss,
}

impl Prover {
    /// A prover of `rules`' positions with a table of `table_bytes`.
    /// The ply limit is lifted: values ignore it, as the solver's do.
    pub fn new(rules: &Rules, table_bytes: u64) -> Prover {
        Prover::with_table(rules, Table::new(table_bytes))
    }

    /// A prover of `rules` that takes over `old`'s table, emptied: the
    /// same in every answer as [`Prover::new`] with a table of that size,
    /// without allocating and touching a new one (a caller proving many
    /// positions, each on its own, keeps one prover a thread this way).
    pub fn recycle(rules: &Rules, old: Prover) -> Prover {
        let mut table = old.table;
        table.clear();
        Prover::with_table(rules, table)
    }

    fn with_table(rules: &Rules, table: Table) -> Prover {
        let table_bytes = table.bytes();
        let rules = rules
            .with_limits(Some(MAX_PLY_LIMIT), None)
            .expect("the largest ply limit is a valid one");
        let s = rules.settings();
        let parity =
            s.step_sowing != StepSowing::Chosen && s.endless_move != EndlessMove::MoverLoses;
        let exact_keys = super::check_key(&rules).is_ok();
        Prover {
            rules,
            table,
            kids: Vec::new(),
            nodes: 0,
            watched: 0,
            search_nodes: 0,
            budget: u64::MAX,
            stopped: None,
            parity,
            exact_keys,
            long_moves: std::collections::HashMap::new(),
            long_moves_cap: (table_bytes / 8 / std::mem::size_of::<(u128, Position)>() as u64)
                as usize,
        }
    }

    /// The rules searched: the caller's, with the ply limit lifted.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Nodes searched through this prover, every search together.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact value of `pos` for its player to move, by iterative
    /// deepening to `limits.max_depth` decisions. A finished position is
    /// valued as it stands (distance 0).
    pub fn value(&mut self, pos: &Position, limits: Limits, watch: &mut dyn Watch) -> Searched {
        let start_nodes = self.nodes;
        self.search_nodes = start_nodes;
        watch.search_started();
        if let Some(o) = self.finished(pos) {
            return Searched {
                outcome: o,
                stop: None,
                nodes: 0,
            };
        }
        self.budget = limits
            .max_nodes
            .map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.stopped = None;
        let mut settled = 0;
        for d in 1..=limits.max_depth {
            for goal in [Goal::Win, Goal::Loss] {
                if self.parity && !self.parity_fits(goal, d) {
                    continue;
                }
                let key = self.key(pos);
                match self.search(pos, key, d, goal, 0, watch) {
                    None => {
                        return self.unknown(settled, start_nodes);
                    }
                    Some(true) => {
                        let outcome = match goal {
                            Goal::Win => Outcome::Win(d),
                            Goal::Loss => Outcome::Loss(d),
                        };
                        return Searched {
                            outcome,
                            stop: None,
                            nodes: self.nodes - start_nodes,
                        };
                    }
                    Some(false) => {}
                }
            }
            settled = d;
            watch.depth_done(d, self.nodes - start_nodes);
        }
        self.stopped = Some(Stop::Depth);
        self.unknown(settled, start_nodes)
    }

    fn unknown(&self, settled: u32, start_nodes: u64) -> Searched {
        Searched {
            outcome: Outcome::Unknown(settled),
            stop: self.stopped,
            nodes: self.nodes - start_nodes,
        }
    }

    /// Whether a `goal` can first be met at exactly `d` decisions when
    /// parity holds: wins of the mover at odd distances, losses at even.
    fn parity_fits(&self, goal: Goal, d: u32) -> bool {
        (d % 2 == 1) == (goal == Goal::Win)
    }

    /// The value of a finished position, or `None` if play goes on.
    fn finished(&self, pos: &Position) -> Option<Outcome> {
        match pos.ended() {
            Some(Ended::EndlessMove | Ended::LapLimit) => Some(Outcome::Ended),
            Some(Ended::EndlessMoveLost(w)) if w == pos.to_move() => Some(Outcome::Win(0)),
            Some(Ended::EndlessMoveLost(_)) => Some(Outcome::Loss(0)),
            None if self.rules.legal_moves(pos).is_empty() => Some(Outcome::Loss(0)),
            None => None,
        }
    }

    /// The key standing for `pos` in the table: everything its future
    /// depends on, and nothing else (not the ply count).
    pub fn key(&self, pos: &Position) -> u128 {
        if self.exact_keys {
            return super::key(&self.rules, pos);
        }
        let head = header(pos);
        let (mut a, mut b) = (mix64(head), mix64(head ^ 0x5151_5151));
        for &s in &pos.holes()[..self.rules.hole_count()] {
            a = mix64(a ^ s as u64);
            b = mix64(b.rotate_left(17) ^ s as u64 ^ 0xA5A5_0000);
        }
        (a as u128) << 64 | b as u128
    }

    /// Does `goal` hold for the player to move at `pos` (table key
    /// `key`, unused for a finished position) within `d` decisions?
    /// `None` when the budget or the watch stopped the search.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        key: u128,
        d: u32,
        goal: Goal,
        ply: usize,
        watch: &mut dyn Watch,
    ) -> Option<bool> {
        if let Some(e) = pos.ended() {
            return Some(
                matches!(e, Ended::EndlessMoveLost(w) if (w == pos.to_move()) == (goal == Goal::Win)),
            );
        }
        let d = if self.parity && d > 0 && !self.parity_fits(goal, d) {
            d - 1
        } else {
            d
        };
        // The table holds no finished position, so an answer there is
        // one about a position still in play.
        if let Some(known) = self.table.answer(key, goal, d) {
            return Some(known);
        }
        let moves = self.rules.legal_moves(pos);
        if moves.is_empty() {
            // RULES.md §9: a player with no legal move has lost.
            return Some(goal == Goal::Loss);
        }
        if d == 0 {
            return Some(false);
        }
        if self.nodes >= self.budget {
            self.stopped = Some(Stop::Nodes);
            return None;
        }
        if self.nodes / WATCH_EVERY != self.watched {
            self.watched = self.nodes / WATCH_EVERY;
            if watch.should_stop(self.nodes - self.search_nodes) {
                self.stopped = Some(Stop::Watch);
                return None;
            }
        }
        let before = self.nodes;
        let (met, best) = self.expand(pos, &moves, key, d, goal, ply, watch)?;
        let work = self.nodes - before + 1;
        self.table.record(key, goal, d, met, best, work);
        Some(met)
    }

    /// The children of `pos` searched in order until the question is
    /// settled: the answer, and the move that settled it (the winning
    /// move, or the reply that escapes).
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        key: u128,
        d: u32,
        goal: Goal,
        ply: usize,
        watch: &mut dyn Watch,
    ) -> Option<(bool, Option<usize>)> {
        let mover = pos.to_move();
        // The player the question asks to win.
        let winner = if goal == Goal::Win {
            mover
        } else {
            mover.other()
        };
        let any = goal == Goal::Win;
        let mut kids = std::mem::take(self.kids_at(ply));
        kids.pos.clear();
        kids.order.clear();
        let best = self.table.best(key);
        for (k, &mv) in moves.iter().enumerate() {
            kids.pos.push(*pos);
            let captured = self.play(pos, key, k, mv, &mut kids.pos[k]);
            let child = &kids.pos[k];
            self.nodes += 1;
            let winner_seeds = self.rules.side_seeds(child, winner) as i64;
            let mut order = if any {
                // Attack first with what leaves the defender least.
                winner_seeds * 4 + captured as i64
            } else {
                // Defend first with what keeps most.
                -winner_seeds * 4 + captured as i64
            };
            if Some(k) == best {
                order = i64::MAX;
            }
            kids.order.push((order, k));
        }
        kids.order
            .sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut result = (!any, None);
        let mut next = self.child_key(&kids.pos[kids.order[0].1]);
        for i in 0..kids.order.len() {
            let k = kids.order[i].1;
            let key = next;
            // A child's bucket is read as its search begins: asking for
            // the next child's now hides most of that memory read behind
            // this child's search (the read was the largest cost of a
            // node). Its key is wasted only when this child settles the
            // question.
            if let Some(&(_, after)) = kids.order.get(i + 1) {
                next = self.child_key(&kids.pos[after]);
            }
            let child = &kids.pos[k];
            let cgoal = goal_for(child, winner);
            let Some(met) = self.search(child, key, d - 1, cgoal, ply + 1, watch) else {
                self.kids[ply] = kids;
                return None;
            };
            if met == any {
                result = (any, Some(k));
                break;
            }
        }
        self.kids[ply] = kids;
        Some(result)
    }

    /// The position after the `k`-th legal move `mv` of `pos` (key
    /// `key`) and the seeds it captured. A move that ran for more than
    /// [`LONG_MOVE_LAPS`] laps is kept in a bounded cache: a relay that
    /// ends only when the engine finds it endless (RULES.md §8) can cost
    /// a million times an ordinary move (katra-boaoaka-ludii's moves
    /// stopped by the lap limit run ten million laps), and iterative deepening plays
    /// the same moves again at every depth.
    fn play(&mut self, pos: &Position, key: u128, k: usize, mv: Move, child: &mut Position) -> u64 {
        if !self.long_moves.is_empty()
            && let Some(&(after, captured)) = self.long_moves.get(&(key, k as u8))
        {
            *child = after;
            return captured;
        }
        *child = *pos;
        let report = self.rules.play_unchecked(child, mv, &mut Silent);
        if report.laps > LONG_MOVE_LAPS && self.long_moves.len() < self.long_moves_cap {
            self.long_moves
                .insert((key, k as u8), (*child, report.seeds_captured));
        }
        report.seeds_captured
    }

    /// A child's key, its bucket asked for ahead of the probe; 0 for a
    /// finished child, which is never looked up.
    fn child_key(&self, child: &Position) -> u128 {
        if child.ended().is_some() {
            return 0;
        }
        let key = self.key(child);
        self.table.prefetch(key);
        key
    }

    fn kids_at(&mut self, ply: usize) -> &mut Kids {
        if self.kids.len() <= ply {
            self.kids.resize_with(ply + 1, Kids::default);
        }
        &mut self.kids[ply]
    }

    /// Whether the player `winner` wins from `pos` within `d` decisions,
    /// searching as far as needed (no budget): for the proof's own uses
    /// after a value is known, where the table holds most answers.
    pub fn wins_within(&mut self, pos: &Position, winner: Player, d: u32) -> bool {
        let saved = (self.budget, self.stopped);
        self.budget = u64::MAX;
        let goal = goal_for(pos, winner);
        let key = self.key(pos);
        let met = self
            .search(pos, key, d, goal, 0, &mut NoWatch)
            .expect("no budget to stop it");
        (self.budget, self.stopped) = saved;
        met
    }

    /// The fastest win of `winner` from `pos`, known to be at most `most`.
    pub fn fastest_win(&mut self, pos: &Position, winner: Player, most: u32) -> u32 {
        (0..=most)
            .find(|&d| self.wins_within(pos, winner, d))
            .expect("a win within `most` was proven")
    }

    /// The exact value after each legal move of `pos`, seen by its mover
    /// (one decision more than the position after it), each searched with
    /// `limits` on the one table.
    pub fn move_values(
        &mut self,
        pos: &Position,
        limits: Limits,
        watch: &mut dyn Watch,
    ) -> Vec<(Move, Searched)> {
        let mover = pos.to_move();
        let moves = self.rules.legal_moves(pos);
        moves
            .iter()
            .map(|&mv| {
                let mut child = *pos;
                self.rules.play_unchecked(&mut child, mv, &mut Silent);
                let inner = Limits {
                    max_depth: limits.max_depth.saturating_sub(1),
                    ..limits
                };
                let s = self.value(&child, inner, watch);
                let outcome = s.outcome.from_parent(child.to_move() == mover);
                (mv, Searched { outcome, ..s })
            })
            .collect()
    }

    /// One principal line from `pos` of proven value `outcome`: the winner
    /// plays a fastest win, the loser a slowest loss.
    pub fn principal_line(&mut self, pos: &Position, outcome: Outcome) -> Vec<Move> {
        let (winner, mut left) = match outcome {
            Outcome::Win(d) => (pos.to_move(), d),
            Outcome::Loss(d) => (pos.to_move().other(), d),
            Outcome::Unknown(_) | Outcome::Ended => return Vec::new(),
        };
        let mut at = *pos;
        let mut line = Vec::new();
        while left > 0 && at.ended().is_none() {
            let moves = self.rules.legal_moves(&at);
            let winner_moves = at.to_move() == winner;
            // The winner keeps a fastest win; the loser picks a reply the
            // winner needs all of `left - 1` decisions to beat.
            let pick = moves.iter().find_map(|&mv| {
                let mut child = at;
                self.rules.play_unchecked(&mut child, mv, &mut Silent);
                let keeps = if winner_moves {
                    self.wins_within(&child, winner, left - 1)
                } else {
                    left < 2 || !self.wins_within(&child, winner, left - 2)
                };
                keeps.then_some((mv, child))
            });
            let Some((mv, child)) = pick else { break };
            line.push(mv);
            at = child;
            left -= 1;
        }
        line
    }

    /// The decisions of a proof that `winner` wins from `pos` within
    /// `within` decisions: every position where the winner moves, reached
    /// by the winner's fastest wins and every reply of the loser, with a
    /// move that wins fastest from it; in depth-first order, each once.
    pub fn certificate(
        &mut self,
        pos: &Position,
        winner: Player,
        within: u32,
    ) -> Vec<(Position, Move)> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(*pos, within)];
        while let Some((at, left)) = stack.pop() {
            if at.ended().is_some() || !seen.insert(self.key(&at)) {
                continue;
            }
            let moves = self.rules.legal_moves(&at);
            if moves.is_empty() {
                continue;
            }
            if at.to_move() == winner {
                // A fastest win from here keeps every line within the
                // claim, whatever path reached the position.
                let n = self.fastest_win(&at, winner, left);
                let (mv, child) = moves
                    .iter()
                    .find_map(|&mv| {
                        let mut child = at;
                        self.rules.play_unchecked(&mut child, mv, &mut Silent);
                        self.wins_within(&child, winner, n - 1)
                            .then_some((mv, child))
                    })
                    .expect("a win within n has a move that keeps it");
                out.push((at, mv));
                stack.push((child, n - 1));
            } else {
                for &mv in moves.iter().rev() {
                    let mut child = at;
                    self.rules.play_unchecked(&mut child, mv, &mut Silent);
                    stack.push((child, left - 1));
                }
            }
        }
        out
    }
}

/// Many positions proven each on its own, with the same limits: each
/// search as by a new [`Prover`] with a table of `table_bytes` (a prover
/// a thread, recycled between searches, so no table is allocated more
/// than once a thread) and a watch of its own. A position's result does
/// not depend on the others, nor on the thread that searched it, unless
/// the watch stops it (a clock).
pub struct Batch<'a, 'w> {
    pub table_bytes: u64,
    pub limits: Limits,
    /// Makes each search's watch (which may borrow for `'w`, a clock).
    pub watch: &'a (dyn Fn() -> Box<dyn Watch + Send + 'w> + Sync + 'w),
}

impl Batch<'_, '_> {
    /// The search of each item, `at(item)` giving the rules and the
    /// position; in parallel on the current rayon pool, results in the
    /// items' order. `done` is told each item and its search as it ends.
    pub fn prove_all<'r, T: Sync>(
        &self,
        items: &'r [T],
        at: impl Fn(&'r T) -> (&'r Rules, Position) + Sync,
        done: &(dyn Fn(&'r T, &Searched) + Sync),
    ) -> Vec<Searched> {
        use rayon::prelude::*;
        items
            .par_iter()
            .map_init(
                || None::<Prover>,
                |kept, item| {
                    let (rules, pos) = at(item);
                    let mut p = match kept.take() {
                        Some(old) => Prover::recycle(rules, old),
                        None => Prover::new(rules, self.table_bytes),
                    };
                    let s = p.value(&pos, self.limits, &mut *(self.watch)());
                    *kept = Some(p);
                    done(item, &s);
                    s
                },
            )
            .collect()
    }
}

/// The question to ask of `child` for `winner` to win there.
fn goal_for(child: &Position, winner: Player) -> Goal {
    if child.to_move() == winner {
        Goal::Win
    } else {
        Goal::Loss
    }
}

/// Everything of a position but its seeds, in one word.
fn header(pos: &Position) -> u64 {
    let dir = |p| match pos.fixed_dir(p) {
        None => 0u64,
        Some(Dir::Forward) => 1,
        Some(Dir::Backward) => 2,
    };
    let pending = pos.pending().map_or(0, |h| h as u64 + 1);
    (pos.to_move() == Player::North) as u64
        | dir(Player::South) << 1
        | dir(Player::North) << 3
        | pending << 5
}

/// One position's facts, each a bound in decisions (saturating at 255,
/// past any depth searched): `facts[0]`, the largest bound known not to
/// give the player to move a win, `facts[1]` the smallest known to (0 for
/// none known); `facts[2]` and `facts[3]` likewise for a loss. `best`:
/// the settling move's place in the legal move list, plus one (0 for
/// none). `work`: nodes spent finding them, as a power of two, to choose
/// what to replace; 0 marks an empty slot.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u128,
    facts: [u8; 4],
    best: u8,
    work: u8,
}

/// Two slots in one 64-byte cache line: a probe costs one memory read.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Slot; 2]);

struct Table {
    buckets: Vec<Bucket>,
    /// The buckets written since the table was empty, while they are
    /// few enough to clear one by one; `None` past [`TOUCHED`].
    touched: Option<Vec<usize>>,
}

/// The most buckets [`Table::clear`] empties one by one; past it, it
/// empties the whole table.
const TOUCHED: usize = 1 << 16;

impl Table {
    fn new(bytes: u64) -> Table {
        let per = std::mem::size_of::<Bucket>() as u64;
        let n = (bytes / per).max(1) as usize;
        Table {
            buckets: vec![Bucket::default(); n],
            touched: Some(Vec::new()),
        }
    }

    fn bytes(&self) -> u64 {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) as u64
    }

    /// Empties every slot, as a new table is.
    fn clear(&mut self) {
        match self.touched.take() {
            Some(buckets) => {
                for b in buckets {
                    self.buckets[b] = Bucket::default();
                }
            }
            None => self.buckets.fill(Bucket::default()),
        }
        self.touched = Some(Vec::new());
    }

    fn bucket(&self, key: u128) -> usize {
        let h = mix64(key as u64 ^ mix64((key >> 64) as u64));
        ((h as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so
    /// that a later probe does not wait for memory.
    fn prefetch(&self, key: u128) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line: *const Bucket = &self.buckets[self.bucket(key)];
            // `unsafe` for a measured reason: with it, katro-6x6's proof
            // nodes/s ÷ playout plies/s went from 0.136 to 0.160 (`katro
            // bench --prove 200000 katro-6x6`, docs/PERFORMANCE.md).
            // SAFETY: a prefetch reads nothing and cannot fault, whatever
            // the address; `sse`, which it needs, is in every x86_64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn find(&self, key: u128) -> Option<&Slot> {
        self.buckets[self.bucket(key)]
            .0
            .iter()
            .find(|s| s.work > 0 && s.key == key)
    }

    /// The table's answer to `goal` within `d`, if it knows one.
    fn answer(&self, key: u128, goal: Goal, d: u32) -> Option<bool> {
        let s = self.find(key)?;
        let at = if goal == Goal::Win { 0 } else { 2 };
        let (no, yes) = (s.facts[at] as u32, s.facts[at + 1] as u32);
        if d <= no {
            Some(false)
        } else if yes != 0 && d >= yes {
            Some(true)
        } else {
            None
        }
    }

    /// The place in the legal move list of the move that settled `key`.
    fn best(&self, key: u128) -> Option<usize> {
        self.find(key)
            .and_then(|s| (s.best > 0).then(|| s.best as usize - 1))
    }

    fn record(&mut self, key: u128, goal: Goal, d: u32, met: bool, best: Option<usize>, work: u64) {
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b].0;
        let bucket: &mut [Slot; 2] = bucket;
        let i = match bucket.iter().position(|s| s.work > 0 && s.key == key) {
            Some(i) => i,
            None => {
                if let Some(t) = &mut self.touched {
                    if t.len() < TOUCHED {
                        t.push(b);
                    } else {
                        self.touched = None;
                    }
                }
                // Keep the costlier of the two: it saves more when hit.
                let i = (bucket[1].work < bucket[0].work) as usize;
                bucket[i] = Slot {
                    key,
                    ..Slot::default()
                };
                i
            }
        };
        let s = &mut bucket[i];
        let at = if goal == Goal::Win { 0 } else { 2 };
        // A bound past 254 is kept as 254 for "not within" (still true)
        // and not kept at all for "within" (255 would overstate it).
        if met {
            if d < 255 && (s.facts[at + 1] == 0 || (d as u8) < s.facts[at + 1]) {
                s.facts[at + 1] = d as u8;
            }
        } else {
            s.facts[at] = s.facts[at].max(d.min(254) as u8);
        }
        if let Some(i) = best {
            s.best = (i + 1).min(255) as u8;
        }
        let w = (64 - work.leading_zeros()) as u8;
        s.work = s.work.max(w).max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::preset;
    use crate::solve::{Value, solve};

    const MB: u64 = 1 << 20;

    fn limits(depth: u32) -> Limits {
        Limits {
            max_depth: depth,
            max_nodes: None,
        }
    }

    /// A recycled prover answers as a new one: every search the same
    /// outcome and nodes, whether its table was cleared bucket by bucket
    /// (a small search) or whole (past [`TOUCHED`] buckets).
    #[test]
    fn a_recycled_prover_answers_as_a_new_one() {
        let rules = preset("katro-6x3").unwrap();
        let start = rules.start();
        let mut positions = vec![start];
        for &mv in rules.legal_moves(&start).iter() {
            let mut p = start;
            rules.play(&mut p, mv).unwrap();
            positions.push(p);
        }
        let mut kept: Option<Prover> = None;
        for budget in [300_000, 2_000, 300_000] {
            for pos in &positions {
                let lim = Limits {
                    max_depth: 60,
                    max_nodes: Some(budget),
                };
                let fresh = Prover::new(&rules, 4 * MB).value(pos, lim, &mut NoWatch);
                let mut p = match kept.take() {
                    Some(old) => Prover::recycle(&rules, old),
                    None => Prover::new(&rules, 4 * MB),
                };
                assert_eq!(p.value(pos, lim, &mut NoWatch), fresh);
                kept = Some(p);
            }
        }
    }

    /// katro-6x3's start is a first-player win in 15 (no win in 14),
    /// as the deep alpha-beta search and the independent model found.
    #[test]
    fn katro_6x3_start_is_a_win_in_15() {
        let rules = preset("katro-6x3").unwrap();
        let mut p = Prover::new(&rules, 16 * MB);
        let s = p.value(&rules.start(), limits(40), &mut NoWatch);
        assert_eq!(s.outcome, Outcome::Win(15));
    }

    /// On a board the solver solves, the prover agrees with it on the
    /// start and on every position of a few random games.
    #[test]
    fn agrees_with_the_solver_on_a_small_board() {
        let text = "[board]\nrows = 4\nholes = 3\nseeds = 1\n";
        let rules = crate::rules::parse_variant("t.toml", text, "t").unwrap();
        let table = solve(&rules, 1 << 30, &mut |_, _, _| {
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        let mut p = Prover::new(&rules, 16 * MB);
        let mut rng = crate::rng::rng_from_seed(7);
        for _game in 0..20 {
            let mut pos = rules.start();
            while !rules.legal_moves(&pos).is_empty() {
                let expect = table.value(&rules, &pos).unwrap();
                let got = p.value(&pos, limits(200), &mut NoWatch).outcome;
                match (expect, got) {
                    (Value::Win(a), Outcome::Win(b)) | (Value::Loss(a), Outcome::Loss(b)) => {
                        assert_eq!(a, b)
                    }
                    (Value::Draw, Outcome::Unknown(_) | Outcome::Ended) => {}
                    (e, g) => panic!("solver {e:?}, prover {g:?}"),
                }
                let mv = rules.random_move(&pos, &mut rng).unwrap();
                rules.play(&mut pos, mv).unwrap();
            }
        }
    }
}
