//! Exact solution of small boards (docs/SOLVED.md): every position reachable
//! from the start is found, then valued by retrograde analysis as a win, a
//! loss or a draw for the player to move, with the distance to the end.
//!
//! What the solver treats as the game (RULES.md §8, §9):
//!
//! - A position is the board, the player to move, the directions fixed
//!   under `direction = "once-per-game"` and the hole a paused turn must
//!   sow on from (`step_sowing = "chosen"`). The ply counter is not part of
//!   it: the ply limit is ignored, so a game that never ends is a draw by
//!   infinite play rather than a `ply-limit` end.
//! - A player with no legal move has lost (distance 0).
//! - A move the engine ends as endless follows `endless_move`: under
//!   `undecided` it ends the game undecided (a draw), under `mover-loses`
//!   it loses. A move stopped by the lap limit ends the game undecided, as
//!   the engine reports it (a draw).
//! - Distances count decisions: a turn paused by a capturing step under
//!   `step_sowing = "chosen"` is two decisions of the same player.
//! - A win is played by the fastest route, a loss by the slowest; a
//!   position from which the player to move can only avoid losing by
//!   playing for ever is a draw.
//!
//! Only positions reachable from the start are indexed (not every way of
//! spreading the seeds), found breadth first; each is stored as a 128-bit
//! key. A board is refused while it is explored, as soon as the positions
//! and moves found prove that the solver's arrays would need more than the
//! memory allowed ([`SolveError::OverMemory`]); [`upper_bound`] counts every
//! arrangement, which overstates some boards a hundredfold (docs/SOLVED.md),
//! so only the `perfect` agent still refuses on it.

pub mod brute;
pub mod openings;
pub mod prove;
mod table;

pub use table::{MAGIC, TableError, read_table};

use std::ops::ControlFlow;

use rayon::prelude::*;

use crate::engine::{Dir, Ended, Move, Player, Position};
use crate::rules::{DirectionRule, LoneSeed, Rules, StepSowing};

/// The value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Wins in this many decisions at the fastest.
    Win(u32),
    /// Loses in this many decisions at the slowest.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The same outcome seen by the other player.
    pub fn flip(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Loss(d) => Value::Win(d),
            Value::Draw => Value::Draw,
        }
    }

    /// How the mover ranks outcomes: any win beats a draw, which beats any
    /// loss; a faster win and a slower loss are better.
    pub fn rank(self) -> i64 {
        match self {
            Value::Win(d) => i64::MAX / 2 - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => -(i64::MAX / 2) + d as i64,
        }
    }

    /// `win`, `loss` or `draw`, as the outputs write it.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// Decisions to the end, or `None` for a draw.
    pub fn distance(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// Seeds plus holes a key can hold: 12 of its 128 bits hold the player to
/// move (1), two fixed directions (4) and a pending hole (7).
pub const MAX_KEY_BOARD_BITS: u32 = 116;

/// Why a board is not solved.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveError {
    /// Refused before any work: the upper bound of positions would need
    /// more than the memory allowed (the `perfect` agent's check).
    TooBig {
        /// Every arrangement of the seeds, times the other state.
        positions: u128,
        /// Bytes the solver would need at that count.
        bytes: u128,
        /// Bytes allowed.
        allowed: u64,
    },
    /// Refused before any work: seeds plus holes do not fit a key.
    KeyTooSmall {
        /// Seeds plus holes.
        bits: u32,
    },
    /// Refused while exploring: the positions and moves found so far
    /// already need more than the memory allowed.
    OverMemory {
        /// Positions found when the exploration stopped (a lower bound on
        /// the reachable positions).
        found: u64,
        /// Bytes the solver's arrays need at least for what was found.
        bytes: u64,
        /// Bytes allowed.
        allowed: u64,
        /// Every arrangement of the seeds, times the other state.
        upper_bound: u128,
    },
    /// The memory allowed could not be had: an allocation failed.
    AllocFailed {
        /// Bytes of the array that could not be grown.
        bytes: u64,
        /// Bytes allowed.
        allowed: u64,
    },
    /// The progress callback asked to stop.
    Stopped {
        phase: Phase,
        /// Exploring: positions expanded; valuing: positions settled.
        done: u64,
        /// Positions found.
        known: u64,
    },
    /// More positions were reached than the table can number.
    TooManyReached(u64),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::TooBig {
                positions,
                bytes,
                allowed,
            } => write!(
                f,
                "the board is too big to solve: up to {positions} positions (an upper bound: \
                 every arrangement of the seeds), which would need up to {} of memory; \
                 --max-memory allows {}",
                gib(*bytes),
                gib(*allowed as u128)
            ),
            SolveError::KeyTooSmall { bits } => write!(
                f,
                "the board is too big to solve: its seeds plus holes are {bits}, more than \
                 the {MAX_KEY_BOARD_BITS} a position key holds"
            ),
            SolveError::OverMemory {
                found,
                bytes,
                allowed,
                upper_bound,
            } => write!(
                f,
                "the board is too big to solve: at least {found} reachable positions (found \
                 before stopping), which need at least {} ({bytes} bytes) of memory; \
                 --max-memory allows {} ({allowed} bytes); upper bound {upper_bound} positions",
                gib(*bytes as u128),
                gib(*allowed as u128)
            ),

            SolveError::AllocFailed { bytes, allowed } => write!(
                f,
                "could not allocate {} for the solver's arrays: the machine (or a ulimit) \
                 gives less memory than --max-memory allows ({}); give a smaller --max-memory",
                gib(*bytes as u128),
                gib(*allowed as u128)
            ),
            SolveError::Stopped { phase, done, known } => phase.fmt_stopped(f, *done, *known),
            SolveError::TooManyReached(n) => write!(
                f,
                "more than {n} positions are reachable, more than a table can number"
            ),
        }
    }
}

impl Phase {
    /// Where a solve stopped in this phase: `done` of `known` positions.
    fn fmt_stopped(
        &self,
        f: &mut std::fmt::Formatter<'_>,
        done: u64,
        known: u64,
    ) -> std::fmt::Result {
        match self {
            Phase::Explore => write!(
                f,
                "stopped while exploring: {known} reachable positions found, {done} of \
                 them expanded"
            ),
            Phase::Solve => write!(
                f,
                "stopped while valuing: {done} of {known} reachable positions settled"
            ),
        }
    }
}

/// Bytes in GiB with two decimals (in MiB below 1 GiB, so small budgets
/// do not read as 0.00), or in scientific form when huge.
pub fn gib(bytes: u128) -> String {
    let g = bytes as f64 / (1u64 << 30) as f64;
    if g < 1.0 {
        format!("{:.2} MiB", bytes as f64 / (1u64 << 20) as f64)
    } else if g < 1e6 {
        format!("{g:.2} GiB")
    } else {
        format!("{g:.2e} GiB")
    }
}

/// Most positions the solver numbers: ids are `u32` and the top values
/// mark the two kinds of move that end the game at once.
const MAX_POSITIONS: u64 = u32::MAX as u64 - 4;
const EDGE_DRAW: u32 = u32::MAX;
const EDGE_LOSS: u32 = u32::MAX - 1;
const EDGE_WIN: u32 = u32::MAX - 2;

/// Every arrangement of the board's seeds over its holes times the other
/// state a position can carry: an upper bound on the positions, computed
/// without exploring. Saturates at `u128::MAX`.
pub fn upper_bound(rules: &Rules) -> u128 {
    let holes = rules.hole_count() as u128;
    let seeds = rules.total_seeds() as u128;
    let arrangements = binomial(seeds + holes - 1, holes - 1);
    let s = rules.settings();
    let dirs: u128 = if s.direction == DirectionRule::OncePerGame {
        9
    } else {
        1
    };
    let pending: u128 = if s.step_sowing == StepSowing::Chosen && s.lone_seed != LoneSeed::None {
        1 + rules.hole_count() as u128 / 2
    } else {
        1
    };
    arrangements
        .saturating_mul(2)
        .saturating_mul(dirs)
        .saturating_mul(pending)
}

fn binomial(n: u128, k: u128) -> u128 {
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        // Exact at every step: r * (n - i) / (i + 1) is C(n, i + 1).
        r = match r.checked_mul(n - i) {
            Some(v) => v / (i + 1),
            None => return u128::MAX,
        };
    }
    r
}

/// Bytes per position the solver uses at most: the key (16), its 8-byte
/// slot in the index at half load (16), forward and backward edge offsets
/// (16), value, distance and move counter (9), and two 4-byte ends per
/// move (forward and backward edges), at the most moves a position has.
pub fn bytes_per_position(rules: &Rules) -> u128 {
    let moves = sowing_moves(rules) as u128 + 2;
    57 + 8 * moves
}

/// The bytes the solver would need at most: the upper bound of positions
/// at [`bytes_per_position`] each. Saturates at `u128::MAX`.
pub fn upper_bound_bytes(rules: &Rules) -> u128 {
    upper_bound(rules).saturating_mul(bytes_per_position(rules))
}

/// Refuses a board whose seeds plus holes do not fit a key: the one
/// refusal that comes before any work.
pub fn check_key(rules: &Rules) -> Result<(), SolveError> {
    let bits = rules.total_seeds() + rules.hole_count() as u32;
    if bits > MAX_KEY_BOARD_BITS {
        return Err(SolveError::KeyTooSmall { bits });
    }
    Ok(())
}

/// Refuses a board before any work when its upper bound of positions
/// would need more than `max_bytes`, or its positions do not fit a key.
/// Only the `perfect` agent refuses so (it solves when a game needs it,
/// not when the experiment is read); [`solve`] refuses by what it finds.
pub fn check_size(rules: &Rules, max_bytes: u64) -> Result<u128, SolveError> {
    check_key(rules)?;
    let positions = upper_bound(rules);
    let bytes = upper_bound_bytes(rules);
    if bytes > max_bytes as u128 {
        return Err(SolveError::TooBig {
            positions,
            bytes,
            allowed: max_bytes,
        });
    }
    Ok(positions)
}

/// Element counts of the solver's arrays, as lengths (what a board needs
/// at least) or capacities (what a solve held).
#[derive(Clone, Copy, Debug, Default)]
struct Arrays {
    index_slots: usize,
    keys: usize,
    offsets: usize,
    ends: usize,
    back_off: usize,
    back: usize,
    fill: usize,
    values: usize,
}

impl Arrays {
    /// Bytes at the largest of the four stages: exploring holds the
    /// index and the graph; then the graph and its backward edges with
    /// their fill counters; then the graph, backward edges, values and
    /// open-move counters (the fill counters freed); last the keys and
    /// values in id order, their sorting order and the table's copies.
    fn peak_bytes(&self) -> u64 {
        let b = |len: usize, size: usize| (len as u64) * size as u64;
        let value = std::mem::size_of::<Option<Value>>();
        let graph = b(self.keys, 16) + b(self.offsets, 8) + b(self.ends, 4);
        let with_back = graph + b(self.back_off, 8) + b(self.back, 4);
        let table = b(self.keys, 16)
            + b(self.values, value + 4)
            + b(self.values, 16 + std::mem::size_of::<Value>());
        (b(self.index_slots, 8) + graph)
            .max(with_back + b(self.fill, 8))
            .max(
                with_back
                    + b(self.values, value + 4)
                    + b(self.values, 4)
                    + b(self.values.div_ceil(64), 8),
            )
            .max(table)
    }

    /// What `n` positions with `moves` moves, `inner` of them to a
    /// position, need at least, with an index of `index_slots`.
    fn needed(n: usize, moves: usize, inner: usize, index_slots: usize) -> Arrays {
        Arrays {
            index_slots,
            keys: n,
            offsets: n + 1,
            ends: moves,
            back_off: n + 1,
            back: inner,
            fill: n + 1,
            values: n,
        }
    }
}

/// A vector of `n` copies of `x`, or [`SolveError::AllocFailed`] where the
/// machine cannot give it (instead of aborting the process).
fn filled<T: Clone>(n: usize, x: T, allowed: u64) -> Result<Vec<T>, SolveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| alloc_failed::<T>(n, allowed))?;
    v.resize(n, x);
    Ok(v)
}

fn alloc_failed<T>(n: usize, allowed: u64) -> SolveError {
    SolveError::AllocFailed {
        bytes: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        allowed,
    }
}

/// Most bytes an array grows by at once: doubling a big array could take
/// it far past the memory allowed before the next check refuses.
const MAX_GROWTH_BYTES: usize = 1 << 30;

/// Pushes `x`, growing `v` through `try_reserve`: by doubling, at most
/// [`MAX_GROWTH_BYTES`] at a time (large blocks are remapped, not copied).
fn push<T>(v: &mut Vec<T>, x: T, allowed: u64) -> Result<(), SolveError> {
    if v.len() == v.capacity() {
        let most = (MAX_GROWTH_BYTES / std::mem::size_of::<T>().max(1)).max(4);
        let extra = v.len().max(4).min(most);
        v.try_reserve_exact(extra)
            .map_err(|_| alloc_failed::<T>(v.len() + extra, allowed))?;
    }
    v.push(x);
    Ok(())
}

/// A position's key: the seeds in unary (each hole's seeds as ones, then a
/// zero), then the pending hole plus one (7 bits), each player's fixed
/// direction (2 bits each: none, forward, backward) and the player to
/// move (lowest bit, 1 for North).
pub fn key(rules: &Rules, pos: &Position) -> u128 {
    // Each hole appends its seeds as ones and then a zero. The u128 is
    // kept as two words while a hole takes fewer than 64 bits, as nearly
    // all do: shifts of a u128 by a variable amount cost several times
    // more, and the prover computes a key for every node it searches.
    let (mut hi, mut lo) = (0u64, 0u64);
    for h in 0..rules.hole_count() {
        let s = pos.seeds(h) as u32;
        if s < 63 {
            let n = s + 1;
            hi = (hi << n) | (lo >> (64 - n));
            lo = (lo << n) | (((1u64 << s) - 1) << 1);
        } else {
            let k = ((hi as u128) << 64 | lo as u128) << (s + 1) | (((1u128 << s) - 1) << 1);
            (hi, lo) = ((k >> 64) as u64, k as u64);
        }
    }
    let mut k = (hi as u128) << 64 | lo as u128;
    let pending = pos.pending().map_or(0, |h| h as u128 + 1);
    let dir = |p| match pos.fixed_dir(p) {
        None => 0u128,
        Some(Dir::Forward) => 1,
        Some(Dir::Backward) => 2,
    };
    k = (k << 7) | pending;
    k = (k << 2) | dir(Player::South);
    k = (k << 2) | dir(Player::North);
    (k << 1) | (pos.to_move() == Player::North) as u128
}

fn key_mover(k: u128) -> Player {
    if k & 1 == 1 {
        Player::North
    } else {
        Player::South
    }
}

/// The position of a key without a pending hole (those are kept whole
/// while they wait to be expanded), at ply 0.
fn decode(rules: &Rules, mut k: u128) -> Position {
    let to_move = key_mover(k);
    k >>= 1;
    let dir = |v: u128| match v {
        1 => Some(Dir::Forward),
        2 => Some(Dir::Backward),
        _ => None,
    };
    let north = dir(k & 3);
    k >>= 2;
    let south = dir(k & 3);
    k >>= 9;
    let n = rules.hole_count();
    let mut holes = vec![0u16; n];
    for h in (0..n).rev() {
        // Each hole is its ones followed by one zero, last hole lowest.
        k >>= 1;
        let ones = k.trailing_ones();
        holes[h] = ones as u16;
        k >>= ones;
    }
    rules
        .position(&holes, to_move, [south, north], 0)
        .expect("a key holds a board of the rules' shape and seed total")
}

/// Where a solve's exploration runs. The result is the same either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// The calling thread alone: for callers that hold a lock inside a
    /// rayon pool's worker (the `perfect` agent), where a parallel
    /// iterator could run another job of that pool on this thread, and
    /// that job wait on the same lock.
    One,
    /// Every thread of the current rayon pool (the global pool outside
    /// `ThreadPool::install`).
    Pool,
}

/// Finding positions, then valuing them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Explore,
    Solve,
}

/// A solved board: every reachable position's key, in increasing order,
/// with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct SolvedTable {
    /// The rules' canonical string (the ply limit in it is ignored).
    pub rules: String,
    pub keys: Vec<u128>,
    pub values: Vec<Value>,
}

/// What a solve cost, counted from the solver's own arrays (so the same
/// on every run and machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveStats {
    /// Moves of every position in the table, in all.
    pub moves: u64,
    /// Bytes of the solver's arrays at their largest (capacities times
    /// element sizes), not counting the allocator's own overhead.
    pub peak_bytes: u64,
}

impl SolvedTable {
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// A position's value, `None` when it is not in the table (not
    /// reachable from the start, or of other rules).
    pub fn value(&self, rules: &Rules, pos: &Position) -> Option<Value> {
        let k = key(rules, pos);
        self.keys.binary_search(&k).ok().map(|i| self.values[i])
    }

    /// The value of playing `mv` at `pos`, for the player making it.
    pub fn move_value(&self, rules: &Rules, pos: &Position, mv: Move) -> Option<Value> {
        let mut after = *pos;
        rules.play(&mut after, mv).ok()?;
        let outcome = match after.ended() {
            Some(Ended::EndlessMove) | Some(Ended::LapLimit) => Value::Draw,
            Some(Ended::EndlessMoveLost(w)) if w == pos.to_move() => Value::Win(0),
            Some(Ended::EndlessMoveLost(_)) => Value::Loss(0),
            None => {
                let v = self.value(rules, &after)?;
                if after.to_move() == pos.to_move() {
                    v
                } else {
                    v.flip()
                }
            }
        };
        Some(match outcome {
            Value::Win(d) => Value::Win(d + 1),
            Value::Loss(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
        })
    }

    /// The longest fastest win of any position in the table.
    pub fn longest_win(&self) -> u32 {
        self.values
            .iter()
            .filter_map(|v| match v {
                Value::Win(d) => Some(*d),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }
}

/// Open addressing from keys to ids. A slot holds the id (low 32 bits)
/// and 32 bits of the key's hash, so a probe reads the key itself (a
/// second cache miss) only when the hash bits agree: the lookup was 44%
/// of a solve's time with 4-byte slots of ids alone (docs/SOLVED.md,
/// "Solver speed").
struct Index {
    slots: Vec<u64>,
    /// log2 of the slot count: the slot is the hash's top bits.
    bits: u32,
}

const EMPTY: u64 = u64::MAX;

fn key_hash(k: u128) -> u64 {
    crate::rng::mix64((k as u64) ^ crate::rng::mix64((k >> 64) as u64))
}

impl Index {
    fn new() -> Index {
        Index {
            slots: vec![EMPTY; 1024],
            bits: 10,
        }
    }

    fn home(&self, h: u64) -> usize {
        (h >> (64 - self.bits)) as usize
    }

    /// The slot of id `id` whose key hashes to `h`.
    fn slot(h: u64, id: u32) -> u64 {
        (h << 32) | id as u64
    }

    /// Whether a full slot may hold a key that hashes to `h` (its hash
    /// bits agree); the key itself decides.
    fn may_hold(slot: u64, h: u64) -> bool {
        slot >> 32 == h & 0xFFFF_FFFF
    }

    /// The id of `k` (whose [`key_hash`] is `h`), inserting it as
    /// `keys.len()` if new.
    fn id(
        &mut self,
        keys: &mut Vec<u128>,
        k: u128,
        h: u64,
        allowed: u64,
    ) -> Result<(u32, bool), SolveError> {
        if (keys.len() + 1) * 10 > self.slots.len() * 7 {
            self.grow(keys, allowed)?;
        }
        match self.probe(keys, k, h) {
            Ok(id) => Ok((id, false)),
            Err(i) => {
                let id = keys.len() as u32;
                self.slots[i] = Index::slot(h, id);
                push(keys, k, allowed)?;
                Ok((id, true))
            }
        }
    }

    /// The id of `k` (whose [`key_hash`] is `h`) if it is numbered.
    fn find(&self, keys: &[u128], k: u128, h: u64) -> Option<u32> {
        self.probe(keys, k, h).ok()
    }

    /// `Ok(id)` of `k`, or `Err(slot)`: the empty slot where it would go.
    fn probe(&self, keys: &[u128], k: u128, h: u64) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(h);
        loop {
            let s = self.slots[i];
            if s == EMPTY {
                return Err(i);
            }
            if Index::may_hold(s, h) && keys[s as u32 as usize] == k {
                return Ok(s as u32);
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self, keys: &[u128], allowed: u64) -> Result<(), SolveError> {
        let n = self.slots.len() * 2;
        // The old slots go first so both are never held at once.
        self.slots = Vec::new();
        self.slots = filled(n, EMPTY, allowed)?;
        self.bits += 1;
        let mask = n - 1;
        for (id, &k) in keys.iter().enumerate() {
            let h = key_hash(k);
            let mut i = self.home(h);
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = Index::slot(h, id as u32);
        }
        Ok(())
    }
}

/// The game graph: positions by id (breadth-first order from the start,
/// id 0), each with its moves' ends: a position id, or one of the
/// `EDGE_*` marks for a move that ends the game at once.
struct Graph {
    keys: Vec<u128>,
    offsets: Vec<u64>,
    ends: Vec<u32>,
    /// Moves to a position (not ending the game at once).
    inner: usize,
}

/// Positions between two calls of the progress callback (and two checks
/// of the memory found needed): often enough to keep a time cap within a
/// second at the slowest speeds measured (about 66,000 a second).
const CHECK_EVERY: u64 = 1 << 16;

/// Told the phase, the positions done (expanded, or settled) and the
/// positions known; `ControlFlow::Break` stops the solve.
pub type Progress<'a> = &'a mut dyn FnMut(Phase, u64, u64) -> ControlFlow<()>;

fn ask(progress: Progress, phase: Phase, done: u64, known: u64) -> Result<(), SolveError> {
    match progress(phase, done, known) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(SolveError::Stopped { phase, done, known }),
    }
}

/// Positions a thread expands at a time: small enough to share a chunk
/// evenly, big enough that handing them out costs little.
const PART: usize = 512;

/// A move's end, found in parallel before it is numbered: one of the
/// `EDGE_*` marks or the id of a position already numbered (both final),
/// or the key of a position not numbered when the chunk began, with its
/// hash.
#[derive(Clone, Copy)]
enum Succ {
    End(u32),
    Key(u128, u64),
}

/// The moves of a run of consecutive positions.
struct Expansion {
    /// Moves of each position, in id order.
    counts: Vec<u32>,
    /// Every move's end, position after position.
    succ: Vec<Succ>,
    /// Positions reached paused mid-turn, kept whole, with their index in
    /// `succ` (increasing).
    found: Vec<(usize, Position)>,
}

impl Expansion {
    /// Every buffer is reserved here, fallibly, at the most moves `most`
    /// positions have, so a machine short of memory is told so
    /// (`AllocFailed`) and the pushes of [`expand`] never allocate.
    fn reserve(rules: &Rules, most: usize, allowed: u64) -> Result<Expansion, SolveError> {
        let mut out = Expansion {
            counts: Vec::new(),
            succ: Vec::new(),
            found: Vec::new(),
        };
        out.counts
            .try_reserve_exact(most)
            .map_err(|_| alloc_failed::<u32>(most, allowed))?;
        let room = most * max_moves(rules);
        out.succ
            .try_reserve_exact(room)
            .map_err(|_| alloc_failed::<Succ>(room, allowed))?;
        Ok(out)
    }
}

/// Expands positions `a..b`; `whole` holds those of them paused mid-turn
/// (in id order), the rest are decoded from their keys.
/// Ends already numbered are looked up here, in parallel: the index's
/// cache misses were most of the one thread that numbers.
fn expand(
    rules: &Rules,
    keys: &[u128],
    index: &Index,
    (a, b): (usize, usize),
    whole: &[(usize, Position)],
    allowed: u64,
) -> Result<Expansion, SolveError> {
    let mut out = Expansion::reserve(rules, b - a, allowed)?;
    let first = whole.partition_point(|(i, _)| *i < a);
    let mut whole = whole[first..].iter().peekable();
    for (id, &k) in keys.iter().enumerate().take(b).skip(a) {
        let pos = match whole.next_if(|(i, _)| *i == id) {
            Some((_, p)) => *p,
            None => decode(rules, k),
        };
        let mover = pos.to_move();
        let moves = rules.legal_moves(&pos);
        for &mv in moves.iter() {
            let mut after = pos;
            rules
                .play(&mut after, mv)
                .expect("the engine's legal moves are legal");
            out.succ.push(match after.ended() {
                Some(Ended::EndlessMove) | Some(Ended::LapLimit) => Succ::End(EDGE_DRAW),
                Some(Ended::EndlessMoveLost(w)) if w == mover => Succ::End(EDGE_WIN),
                Some(Ended::EndlessMoveLost(_)) => Succ::End(EDGE_LOSS),
                None => {
                    if after.pending().is_some() {
                        out.found
                            .try_reserve(1)
                            .map_err(|_| alloc_failed::<Position>(out.found.len() + 1, allowed))?;
                        out.found.push((out.succ.len(), after));
                    }
                    let k = key(rules, &after);
                    Succ::Key(k, key_hash(k))
                }
            });
        }
        out.counts.push(moves.len() as u32);
    }
    number_known(&mut out.succ, keys, index);
    let succ = &out.succ;
    out.found.retain(|(i, _)| matches!(succ[*i], Succ::Key(..)));
    Ok(out)
}

/// Turns each move end already numbered into its id. The lookups go in
/// batches of independent loads (home slots, then the keys they name), so
/// their cache misses overlap instead of waiting one by one behind each
/// move's sowing.
fn number_known(succ: &mut [Succ], keys: &[u128], index: &Index) {
    const BATCH: usize = 16;
    for batch in succ.chunks_mut(BATCH) {
        let mut home = [EMPTY; BATCH];
        for (slot, s) in home.iter_mut().zip(batch.iter()) {
            if let Succ::Key(_, h) = *s {
                *slot = index.slots[index.home(h)];
            }
        }
        let mut named = [None; BATCH];
        for ((name, &slot), s) in named.iter_mut().zip(&home).zip(batch.iter()) {
            if let Succ::Key(_, h) = *s
                && slot != EMPTY
                && Index::may_hold(slot, h)
            {
                *name = Some(keys[slot as u32 as usize]);
            }
        }
        for ((s, &slot), &at_home) in batch.iter_mut().zip(&home).zip(&named) {
            if let Succ::Key(k, h) = *s {
                if at_home == Some(k) {
                    *s = Succ::End(slot as u32);
                } else if slot != EMPTY
                    && let Some(id) = index.find(keys, k, h)
                {
                    *s = Succ::End(id);
                }
            }
        }
    }
}

/// The most moves a position of `rules` has: one a hole of the mover's
/// side, two under a choice of direction, or the two directions of a
/// paused sowing.
fn max_moves(rules: &Rules) -> usize {
    sowing_moves(rules).max(2)
}

/// The most sowing moves a position of `rules` has: one a hole of the
/// mover's side, two under a choice of direction.
fn sowing_moves(rules: &Rules) -> usize {
    let side = rules.hole_count() / 2;
    let dirs = if rules.settings().direction == DirectionRule::Forward {
        1
    } else {
        2
    };
    side * dirs
}

/// The graph, and the slots its index took.
fn explore(
    rules: &Rules,
    allowed: u64,
    threads: Threads,
    progress: Progress,
) -> Result<(Graph, usize), SolveError> {
    let mut x = Explorer::start(rules, allowed)?;
    let mut next = 0usize;
    while next < x.keys.len() {
        // Positions are expanded a chunk at a time on every thread of the
        // pool, then numbered in order on this one, so ids (and every
        // output) are those of a one-by-one breadth-first search. A chunk
        // ends at the next check, so the checks fall where they always did.
        let end = x
            .keys
            .len()
            .min((next / CHECK_EVERY as usize + 1) * CHECK_EVERY as usize);
        for part in x.expand_chunk((next, end), threads)? {
            x.number(part)?;
        }
        next = end;
        if (next as u64).is_multiple_of(CHECK_EVERY) {
            x.check_memory()?;
            ask(progress, Phase::Explore, next as u64, x.keys.len() as u64)?;
        }
    }
    // The whole graph is known: what valuing it needs is checked before
    // any of it is allocated.
    x.check_memory()?;
    Ok(x.into_graph())
}

/// The breadth-first search's state: the graph so far and its index.
struct Explorer<'a> {
    rules: &'a Rules,
    allowed: u64,
    keys: Vec<u128>,
    index: Index,
    /// Positions paused mid-turn cannot be rebuilt from a key through the
    /// engine's public constructor, so they wait whole until expanded.
    paused: std::collections::HashMap<u32, Position>,
    offsets: Vec<u64>,
    ends: Vec<u32>,
    inner: usize,
}

impl<'a> Explorer<'a> {
    /// The start, numbered 0.
    fn start(rules: &'a Rules, allowed: u64) -> Result<Explorer<'a>, SolveError> {
        let mut x = Explorer {
            rules,
            allowed,
            keys: Vec::new(),
            index: Index::new(),
            paused: Default::default(),
            offsets: vec![0u64],
            ends: Vec::new(),
            inner: 0,
        };
        let start = rules.start();
        let k = key(rules, &start);
        x.index.id(&mut x.keys, k, key_hash(k), allowed)?;
        if start.pending().is_some() {
            x.paused.insert(0, start);
        }
        Ok(x)
    }

    /// Expands positions `next..end`, in parts, on `threads`.
    fn expand_chunk(
        &mut self,
        (next, end): (usize, usize),
        threads: Threads,
    ) -> Result<Vec<Expansion>, SolveError> {
        let mut whole: Vec<(usize, Position)> = Vec::new();
        if !self.paused.is_empty() {
            for id in next..end {
                if let Some(p) = self.paused.remove(&(id as u32)) {
                    whole.push((id, p));
                }
            }
        }
        let parts: Vec<(usize, usize)> = (next..end)
            .step_by(PART)
            .map(|a| (a, (a + PART).min(end)))
            .collect();
        let (rules, keys, index, allowed) = (self.rules, &self.keys, &self.index, self.allowed);
        let one = |&part: &(usize, usize)| expand(rules, keys, index, part, &whole, allowed);
        match threads {
            Threads::One => parts.iter().map(one).collect(),
            Threads::Pool => parts.par_iter().map(one).collect(),
        }
    }

    /// Numbers a part's new positions in order and adds its edges.
    fn number(&mut self, part: Expansion) -> Result<(), SolveError> {
        let allowed = self.allowed;
        // One pass of independent loads brings the home slots of the
        // part's new keys into the cache before they are numbered one by
        // one (2×5 with 2 seeds: 12.4 s without it, 10.7 s with it).
        let warm = part.succ.iter().fold(0u64, |acc, s| match *s {
            Succ::Key(_, h) => acc ^ self.index.slots[self.index.home(h)],
            Succ::End(_) => acc,
        });
        std::hint::black_box(warm);
        let mut found = part.found.into_iter().peekable();
        let mut at = 0usize;
        for count in part.counts {
            for _ in 0..count {
                let end = match part.succ[at] {
                    Succ::End(mark) if mark >= EDGE_WIN => mark,
                    Succ::End(id) => {
                        self.inner += 1;
                        id
                    }
                    Succ::Key(k, h) => {
                        if self.keys.len() as u64 >= MAX_POSITIONS {
                            return Err(SolveError::TooManyReached(MAX_POSITIONS));
                        }
                        let (id, new) = self.index.id(&mut self.keys, k, h, allowed)?;
                        let whole = found.next_if(|(i, _)| *i == at);
                        if let (true, Some((_, after))) = (new, whole) {
                            self.paused.insert(id, after);
                        }
                        self.inner += 1;
                        id
                    }
                };
                push(&mut self.ends, end, allowed)?;
                at += 1;
            }
            push(&mut self.offsets, self.ends.len() as u64, allowed)?;
        }
        Ok(())
    }

    /// The graph, and the slots its index took.
    fn into_graph(self) -> (Graph, usize) {
        let index_slots = self.index.slots.capacity();
        let graph = Graph {
            keys: self.keys,
            offsets: self.offsets,
            ends: self.ends,
            inner: self.inner,
        };
        (graph, index_slots)
    }

    /// Refuses once what was found needs more than the memory allowed.
    fn check_memory(&self) -> Result<(), SolveError> {
        let (keys, ends) = (&self.keys, &self.ends);
        let slots = self.index.slots.len();
        let bytes = Arrays::needed(keys.len(), ends.len(), self.inner, slots).peak_bytes();
        if bytes > self.allowed {
            Err(SolveError::OverMemory {
                found: keys.len() as u64,
                bytes,
                allowed: self.allowed,
                upper_bound: upper_bound(self.rules),
            })
        } else {
            Ok(())
        }
    }
}

/// Solves every position reachable from the start of `rules`, refusing
/// with [`SolveError::OverMemory`] as soon as what it has found needs more
/// than `max_bytes` (call [`check_key`] first for the one refusal that
/// comes before any work). `progress` is told the phase, the positions
/// done and the positions known about every 65,536 positions, and stops
/// the solve by returning `ControlFlow::Break`. It runs on the calling
/// thread alone ([`Threads::One`]).
pub fn solve(rules: &Rules, max_bytes: u64, progress: Progress) -> Result<SolvedTable, SolveError> {
    solve_with_stats(rules, max_bytes, Threads::One, progress).map(|(t, _)| t)
}

/// [`solve`], with what it cost.
pub fn solve_with_stats(
    rules: &Rules,
    max_bytes: u64,
    threads: Threads,
    progress: Progress,
) -> Result<(SolvedTable, SolveStats), SolveError> {
    check_key(rules)?;
    let allowed = max_bytes;
    let (g, index_slots) = explore(rules, allowed, threads, progress)?;
    let n = g.keys.len();
    let (back, fill) = backward_edges(&g, allowed)?;
    let peak_bytes = Arrays {
        index_slots,
        fill,
        ..Arrays::of(&g, &back)
    }
    .peak_bytes();
    ask(progress, Phase::Solve, 0, n as u64)?;
    let mut v = first_layer(&g, allowed)?;
    settle_layers(&back, &mut v, n, progress, allowed)?;
    let moves = g.ends.len() as u64;
    // Each array is dropped once unneeded, before the table is allocated.
    drop(back);
    let Valuing {
        value, north, open, ..
    } = v;
    drop((north, open));
    let Graph {
        keys: ids,
        offsets,
        ends,
        ..
    } = g;
    drop(offsets);
    drop(ends);
    let table = renumber(rules, &ids, &value, threads, allowed)?;
    Ok((table, SolveStats { moves, peak_bytes }))
}

impl Arrays {
    /// The capacities of the graph's and the backward edges' arrays, and
    /// a value a position; the index and the fill counts none.
    fn of(g: &Graph, back: &Backward) -> Arrays {
        Arrays {
            index_slots: 0,
            keys: g.keys.capacity(),
            offsets: g.offsets.capacity(),
            ends: g.ends.capacity(),
            back_off: back.off.capacity(),
            back: back.from.capacity(),
            fill: 0,
            values: g.keys.len(),
        }
    }
}

/// The graph's edges turned round: for each position, the positions with a
/// move to it.
struct Backward {
    /// `from[off[c]..off[c + 1]]` move to `c`.
    off: Vec<u64>,
    from: Vec<u32>,
}

/// The backward edges, and the capacity of the fill counts they were
/// built with (dropped here, counted in the peak).
fn backward_edges(g: &Graph, allowed: u64) -> Result<(Backward, usize), SolveError> {
    let n = g.keys.len();
    let mut off = filled(n + 1, 0u64, allowed)?;
    for &e in &g.ends {
        if (e as usize) < n {
            off[e as usize + 1] += 1;
        }
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = filled(n + 1, 0u64, allowed)?;
    fill.copy_from_slice(&off);
    let mut from = filled(g.inner, 0u32, allowed)?;
    for p in 0..n {
        for &e in &g.ends[g.offsets[p] as usize..g.offsets[p + 1] as usize] {
            if (e as usize) < n {
                from[fill[e as usize] as usize] = p as u32;
                fill[e as usize] += 1;
            }
        }
    }
    Ok((Backward { off, from }, fill.capacity()))
}

/// What valuing the graph layer by layer keeps. Values are settled in
/// increasing distance, so the first win found is the fastest and the
/// last losing move the slowest.
struct Valuing {
    value: Vec<Option<Value>>,
    /// The player to move of every position, a bit each: read from the
    /// keys, it was a cache miss per backward edge (20% of valuing,
    /// measured on 2×7 with 1 seed).
    north: Vec<u64>,
    /// `open[p]`: moves of p not yet known to lose; p loses once it is 0.
    open: Vec<u32>,
    /// The positions settled at the current distance.
    layer: Vec<u32>,
    /// Positions with a move that wins at once (distance 1).
    wins_now: Vec<u32>,
    /// Positions whose every move loses at once: lost in 1 unless they
    /// win elsewhere.
    lost_in_one: Vec<u32>,
}

impl Valuing {
    /// `n` positions, none settled yet.
    fn new(n: usize, allowed: u64) -> Result<Valuing, SolveError> {
        Ok(Valuing {
            value: filled(n, None, allowed)?,
            north: filled(n.div_ceil(64), 0u64, allowed)?,
            open: filled(n, 0u32, allowed)?,
            layer: Vec::new(),
            wins_now: Vec::new(),
            lost_in_one: Vec::new(),
        })
    }

    fn is_north(&self, p: usize) -> bool {
        self.north[p / 64] >> (p % 64) & 1 == 1
    }

    /// The last of distance 1: the positions whose every move loses at
    /// once and that win nowhere else, into `next`; their list is freed.
    fn settle_lost_in_one(&mut self, next: &mut Vec<u32>, allowed: u64) -> Result<(), SolveError> {
        let lost = std::mem::take(&mut self.lost_in_one);
        settle_unsettled(&mut self.value, &lost, Value::Loss(1), next, allowed)
    }
}

/// Settles those of `ps` not settled yet as `val`, into `next`.
fn settle_unsettled(
    value: &mut [Option<Value>],
    ps: &[u32],
    val: Value,
    next: &mut Vec<u32>,
    allowed: u64,
) -> Result<(), SolveError> {
    for &p in ps {
        if value[p as usize].is_none() {
            value[p as usize] = Some(val);
            push(next, p, allowed)?;
        }
    }
    Ok(())
}

/// Distance 0: the positions with no move are lost; the moves that end
/// the game at once are counted.
fn first_layer(g: &Graph, allowed: u64) -> Result<Valuing, SolveError> {
    let n = g.keys.len();
    let mut v = Valuing::new(n, allowed)?;
    for (i, &k) in g.keys.iter().enumerate() {
        v.north[i / 64] |= ((k & 1) as u64) << (i % 64);
    }
    for p in 0..n {
        let moves = &g.ends[g.offsets[p] as usize..g.offsets[p + 1] as usize];
        if moves.is_empty() {
            v.value[p] = Some(Value::Loss(0));
            push(&mut v.layer, p as u32, allowed)?;
            continue;
        }
        if moves.contains(&EDGE_WIN) {
            push(&mut v.wins_now, p as u32, allowed)?;
        }
        v.open[p] = moves.iter().filter(|&&e| e != EDGE_LOSS).count() as u32;
    }
    for p in 0..n as u32 {
        if v.value[p as usize].is_none() && v.open[p as usize] == 0 {
            push(&mut v.lost_in_one, p, allowed)?;
        }
    }
    Ok(v)
}

/// Settles every decided position, distance after distance: everything
/// settled at distance d + 1 comes from layer d (plus the moves that end
/// the game at once, which are distance 1). What is left is drawn.
fn settle_layers(
    back: &Backward,
    v: &mut Valuing,
    n: usize,
    progress: Progress,
    allowed: u64,
) -> Result<(), SolveError> {
    let mut d: u32 = 0;
    let mut done = v.layer.len() as u64;
    let mut next: Vec<u32> = Vec::new();
    let mut work: u64 = 0;
    loop {
        next.clear();
        if d == 0 {
            settle_unsettled(&mut v.value, &v.wins_now, Value::Win(1), &mut next, allowed)?;
        }
        for &c in &v.layer {
            work += 1;
            if work.is_multiple_of(CHECK_EVERY) {
                ask(progress, Phase::Solve, done + next.len() as u64, n as u64)?;
            }
            let cv = v.value[c as usize].expect("a settled layer");
            let c_mover = v.is_north(c as usize);
            let c = c as usize;
            for &p in &back.from[back.off[c] as usize..back.off[c + 1] as usize] {
                if v.value[p as usize].is_some() {
                    continue;
                }
                let same = v.is_north(p as usize) == c_mover;
                let for_p = if same { cv } else { cv.flip() };
                match for_p {
                    Value::Win(_) => {
                        v.value[p as usize] = Some(Value::Win(d + 1));
                        push(&mut next, p, allowed)?;
                    }
                    Value::Loss(_) => {
                        v.open[p as usize] -= 1;
                        if v.open[p as usize] == 0 {
                            v.value[p as usize] = Some(Value::Loss(d + 1));
                            push(&mut next, p, allowed)?;
                        }
                    }
                    Value::Draw => unreachable!("draws are never settled in layers"),
                }
            }
        }
        if d == 0 {
            v.settle_lost_in_one(&mut next, allowed)?;
        }
        if next.is_empty() {
            break;
        }
        done += next.len() as u64;
        std::mem::swap(&mut v.layer, &mut next);
        d += 1;
    }
    ask(progress, Phase::Solve, done, n as u64)
}

/// The table: positions sorted by key, each with its value (a draw where
/// none was settled).
fn renumber(
    rules: &Rules,
    ids: &[u128],
    value: &[Option<Value>],
    threads: Threads,
    allowed: u64,
) -> Result<SolvedTable, SolveError> {
    let n = ids.len();
    let mut order: Vec<u32> = filled(n, 0u32, allowed)?;
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u32;
    }
    match threads {
        Threads::One => order.sort_unstable_by_key(|&i| ids[i as usize]),
        Threads::Pool => order.par_sort_unstable_by_key(|&i| ids[i as usize]),
    }
    let mut keys = filled(n, 0u128, allowed)?;
    let mut values = filled(n, Value::Draw, allowed)?;
    for (j, &i) in order.iter().enumerate() {
        keys[j] = ids[i as usize];
        values[j] = value[i as usize].unwrap_or(Value::Draw);
    }
    Ok(SolvedTable {
        rules: rules.canonical_string(),
        keys,
        values,
    })
}

/// Every legal move of `pos` with its value for the mover, best first
/// (board order among equals).
pub fn move_values(
    table: &SolvedTable,
    rules: &Rules,
    pos: &Position,
) -> Vec<(Move, Option<Value>)> {
    let mut out: Vec<(Move, Option<Value>)> = rules
        .legal_moves(pos)
        .iter()
        .map(|&mv| (mv, table.move_value(rules, pos, mv)))
        .collect();
    out.sort_by_key(|(_, v)| std::cmp::Reverse(v.map_or(i64::MIN, |v| v.rank())));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_variant;

    fn board(rows: usize, holes: usize, seeds: usize, rules: &str) -> Rules {
        let text =
            format!("[board]\nrows = {rows}\nholes = {holes}\nseeds = {seeds}\n[rules]\n{rules}\n");
        parse_variant("t.toml", &text, "t").unwrap()
    }

    #[test]
    fn keys_decode_to_their_positions() {
        let rules = board(4, 3, 1, "direction = \"once-per-game\"");
        let mut pos = rules.start();
        for _ in 0..6 {
            let k = key(&rules, &pos);
            let back = decode(&rules, k);
            assert_eq!(key(&rules, &back), k);
            assert_eq!(back.holes()[..12], pos.holes()[..12]);
            assert_eq!(back.to_move(), pos.to_move());
            let legal = rules.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            rules.play(&mut pos, legal[legal.len() - 1]).unwrap();
        }
    }

    /// The key as one u128, a hole at a time: what the two-word
    /// [`key`] must equal.
    fn key_by_u128(rules: &Rules, pos: &Position) -> u128 {
        let mut k: u128 = 0;
        for h in 0..rules.hole_count() {
            let s = pos.seeds(h) as u32;
            k = (k << (s + 1)) | (((1u128 << s) - 1) << 1);
        }
        let header = key(rules, pos) & ((1 << 12) - 1);
        (k << 12) | header
    }

    proptest::proptest! {
        #[test]
        fn two_word_keys_equal_the_u128_formula(
            seeds in proptest::collection::vec(0u16..8, 12),
            big in 0usize..12,
            extra in 0u16..90,
        ) {
            // Up to 89 seeds more in one hole: past 63, the slow path.
            let mut seeds = seeds;
            seeds[big] += extra;
            let total: u32 = seeds.iter().map(|&s| s as u32).sum();
            proptest::prop_assume!(total > 0 && total + 12 <= MAX_KEY_BOARD_BITS);
            let layout = seeds.chunks(3).map(|r| r.to_vec()).collect();
            let rules = board(4, 3, 1, "").with_layout(layout).unwrap();
            let pos = rules.start();
            proptest::prop_assert_eq!(key(&rules, &pos), key_by_u128(&rules, &pos));
            let back = decode(&rules, key(&rules, &pos));
            proptest::prop_assert_eq!(&back.holes()[..12], &pos.holes()[..12]);
        }
    }

    #[test]
    fn the_upper_bound_matches_the_issue_counts() {
        // 2×4 with 2 seeds: C(23, 7) arrangements, times 2 movers.
        assert_eq!(upper_bound(&board(2, 4, 2, "")), 2 * 245_157);
        assert_eq!(upper_bound(&board(2, 6, 2, "")), 2 * 417_225_900);
        assert_eq!(upper_bound(&board(4, 3, 1, "")), 2 * 1_352_078);
    }

    #[test]
    fn a_board_too_big_is_refused_naming_its_count() {
        let rules = board(2, 6, 2, "");
        match check_size(&rules, 1 << 30) {
            Err(SolveError::TooBig { positions, .. }) => assert_eq!(positions, 834_451_800),
            other => panic!("{other:?}"),
        }
        assert!(check_size(&board(2, 4, 2, ""), 1 << 30).is_ok());
    }

    /// A preset's rules on another board.
    fn preset_board(name: &str, rows: usize, holes: usize, seeds: u16) -> Rules {
        let mut s = crate::rules::preset(name).unwrap().settings().clone();
        (s.rows, s.holes, s.seeds, s.layout) = (rows, holes, Some(seeds), None);
        Rules::new(name.into(), String::new(), String::new(), s).unwrap()
    }

    fn go(_: Phase, _: u64, _: u64) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    #[test]
    fn the_memory_refusal_is_exact_at_the_whole_graph() {
        // 2×4 with 1 seed has fewer positions than one check interval, so
        // it is checked once, on the whole graph: what it needs at least
        // is allowed, a byte less is refused naming every position.
        let rules = board(2, 4, 1, "");
        let (table, stats) = solve_with_stats(&rules, u64::MAX, Threads::Pool, &mut go).unwrap();
        let n = table.len();
        let (g, slots) = explore(&rules, u64::MAX, Threads::Pool, &mut go).unwrap();
        let needed = Arrays::needed(n, stats.moves as usize, g.inner, slots).peak_bytes();
        assert!(
            needed <= stats.peak_bytes,
            "{needed} > {}",
            stats.peak_bytes
        );
        assert!(solve(&rules, needed, &mut go).is_ok());
        match solve(&rules, needed - 1, &mut go) {
            Err(SolveError::OverMemory {
                found,
                bytes,
                allowed,
                upper_bound: bound,
            }) => {
                assert_eq!((found, bytes, allowed), (n as u64, needed, needed - 1));
                assert_eq!(bound, upper_bound(&rules));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_board_whose_bound_is_too_big_but_whose_positions_fit_is_solved() {
        // Katra Boaoaka's 2×4 with 3 seeds: the bound (47,332,350
        // positions) needs about 6.0 GiB; its 72,697 positions fit 64 MiB.
        let rules = preset_board("katra-boaoaka-4x8", 2, 4, 3);
        let budget = 64 << 20;
        assert!(matches!(
            check_size(&rules, budget),
            Err(SolveError::TooBig { .. })
        ));
        let table = solve(&rules, budget, &mut go).unwrap();
        assert_eq!(table.len(), 72_697);
        assert_eq!(table.value(&rules, &rules.start()), Some(Value::Loss(2)));
    }

    #[test]
    fn one_thread_and_a_pool_number_and_value_alike() {
        // Ludii's reading on 4×3 pauses turns mid-move (`step_sowing =
        // "chosen"`), and its 1,132,140 positions span many chunks and
        // parts: the parallel exploration must keep every id, so the
        // graph, the table and the refusal point are those of one thread.
        let rules = preset_board("katro-ludii", 4, 3, 1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let (one, one_stats) = solve_with_stats(&rules, u64::MAX, Threads::One, &mut go).unwrap();
        let (many, many_stats) = pool
            .install(|| solve_with_stats(&rules, u64::MAX, Threads::Pool, &mut go))
            .unwrap();
        assert_eq!(one.len(), 1_132_140);
        assert_eq!(one_stats, many_stats);
        assert!(one == many, "the tables differ");
        let (g1, _) = explore(&rules, u64::MAX, Threads::One, &mut go).unwrap();
        let (g3, _) = pool
            .install(|| explore(&rules, u64::MAX, Threads::Pool, &mut go))
            .unwrap();
        assert!(g1.keys == g3.keys && g1.offsets == g3.offsets && g1.ends == g3.ends);
        let refusal = |t| match solve_with_stats(&rules, 64 << 20, t, &mut go) {
            Err(e) => e,
            Ok(_) => panic!("1.1 million positions fit 64 MiB"),
        };
        assert_eq!(
            refusal(Threads::One),
            pool.install(|| refusal(Threads::Pool))
        );
    }

    #[test]
    fn a_board_too_big_is_refused_while_exploring_with_its_count() {
        let rules = board(2, 6, 2, "");
        let allowed = 8 << 20;
        match solve(&rules, allowed, &mut go) {
            Err(e @ SolveError::OverMemory { .. }) => {
                let SolveError::OverMemory { found, bytes, .. } = e else {
                    unreachable!()
                };
                // Refused at the first check past the budget: at most one
                // check interval of positions expanded past it.
                assert!(bytes > allowed && bytes < 4 * allowed, "{bytes}");
                assert!(found > 100_000, "{found}");
                let text = e.to_string();
                for needle in [
                    format!("at least {found} reachable positions"),
                    "--max-memory allows 8.00 MiB".into(),
                    "upper bound 834451800".into(),
                ] {
                    assert!(text.contains(&needle), "{needle}: {text}");
                }
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_progress_callback_stops_the_solve_in_either_phase() {
        let rules = board(2, 6, 2, "");
        let mut calls = 0;
        let r = solve(&rules, u64::MAX, &mut |phase, done, _| {
            calls += 1;
            assert_eq!((phase, done), (Phase::Explore, CHECK_EVERY));
            ControlFlow::Break(())
        });
        assert!(matches!(
            r,
            Err(SolveError::Stopped {
                phase: Phase::Explore,
                done: CHECK_EVERY,
                ..
            })
        ));
        assert_eq!(calls, 1);
        // 4×3 with 1 seed (375,513 positions) is valued past one check.
        let rules = board(4, 3, 1, "");
        let r = solve(&rules, u64::MAX, &mut |phase, done, _| {
            if phase == Phase::Solve && done > 0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        match r {
            Err(SolveError::Stopped {
                phase: Phase::Solve,
                done,
                known,
            }) => assert!(
                done > 0 && done < known && known == 375_513,
                "{done} {known}"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn too_many_seeds_for_a_key_are_refused_before_any_work() {
        let rules = board(4, 8, 4, "");
        assert_eq!(
            check_key(&rules),
            Err(SolveError::KeyTooSmall { bits: 160 })
        );
        let mut called = false;
        let r = solve(&rules, u64::MAX, &mut |_, _, _| {
            called = true;
            ControlFlow::Continue(())
        });
        assert_eq!(r.unwrap_err(), SolveError::KeyTooSmall { bits: 160 });
        assert!(!called);
    }
}
