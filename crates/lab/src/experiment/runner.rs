//! Plays the games of an experiment: cells (variant × matchup) split into
//! blocks of consecutive game indices, played in parallel, folded into one
//! exact [`Aggregate`] per cell.
//!
//! Every game draws from its own generator, seeded from (master seed,
//! variant name, matchup label, game index), so what a game does never
//! depends on the thread that plays it, and since aggregates merge exactly,
//! nor do the totals. Precision stopping is decided only at fixed
//! checkpoints in game-index order, so the games played are the same with
//! any number of threads.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::agents::perfect::Tables;
use crate::engine::Move;
use crate::experiment::metrics::plan::MetricsPlan;
use crate::experiment::metrics::{GameMetrics, Recorder};
// The plan's types and the run state, where runner's callers find them:
// only those some caller imports from here (the rest from their modules).
pub use crate::experiment::plan::{Cell, CellLayout, Layout, Part, Rows, Stop};
pub use crate::experiment::state::{CellProgress, RunState};
use crate::experiment::state::{PartialUnit, StateMismatch};
use crate::experiment::stats::{Aggregate, GameRecord};
use crate::game::{play_game_observed, play_game_sharing};
use crate::rng::game_seed;
use crate::rules::Settings;

/// One game of one cell, as a row of `games.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub cell: usize,
    pub game: u64,
    pub seed: u64,
    pub record: GameRecord,
    /// Empty unless moves were asked for.
    pub moves: Vec<Move>,
}

/// Told how far the run has got; called from worker threads.
pub trait Progress: Sync {
    /// The most games the run can still play in all, updated when a cell
    /// stops early.
    fn set_total(&self, _games: u64) {}
    fn advance(&self, _games: u64) {}
    /// A warning about a cell, told once per cell while the run plays.
    fn warn(&self, _text: &str) {}
    /// The games each cell can still play (0 for a cell that has
    /// stopped): at the start, and again when a cell stops early.
    fn set_cells_left(&self, _left: &[u64]) {}
    /// `games` of cell `cell` played since the last call for it, and the
    /// seconds a worker spent on them: what a game of each cell costs, for
    /// an estimate of the time left (called beside [`Progress::advance`]).
    fn played(&self, _cell: usize, _games: u64, _seconds: f64) {}
    /// A line for the person watching a job: what was resumed, what
    /// `--force` deleted, sweep combinations left out. The runner itself
    /// says nothing here; the jobs around it do, so that one object
    /// carries all a job tells on the way.
    fn note(&self, _text: &str) {}
}

/// Progress that nobody watches.
pub struct Quiet;
impl Progress for Quiet {}

/// The seed of game `game` of a cell.
pub fn cell_game_seed(master: u64, cell: &Cell, label: &str, game: u64) -> u64 {
    game_seed(master, cell.rules.name(), label, game)
}

/// Stores a run's progress as it goes; the binary writes it to disk.
pub trait Checkpoint: Sync {
    /// Whether a checkpoint should be written now; asked after every unit,
    /// so it must be cheap.
    fn due(&self) -> bool {
        false
    }
    /// Stores `state`, together with the per-game rows finished since the
    /// last call (all earlier rows were given to earlier calls).
    fn save(&self, _state: &RunState, _new_rows: &[GameRow]) -> Result<(), SaveError> {
        Ok(())
    }
    /// How often a worker inside a unit records the games it has played
    /// so far, so that a save holds them: `None` (or zero) records only
    /// finished units.
    fn interval(&self) -> Option<std::time::Duration> {
        None
    }
    /// Whether the run should stop (Ctrl-C): asked after every game; the
    /// run then saves what it has and returns [`RunError::Stopped`].
    fn stop_requested(&self) -> bool {
        false
    }
}

/// Why a run, a resume or a merge of shards cannot go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// Stopped by [`Checkpoint::stop_requested`], after its last save.
    #[error("stopped on request")]
    Stopped,
    #[error("cannot start {threads} threads: {why}")]
    Pool { threads: usize, why: String },
    /// A checkpoint that does not fit the work: damaged, or another run's.
    #[error(transparent)]
    Checkpoint(#[from] ResumeMismatch),
    /// Shards that do not add up to the experiment.
    #[error(transparent)]
    Shards(#[from] ShardMismatch),
    #[error(transparent)]
    Save(#[from] SaveError),
    /// A bug: a round's segment was not played whole (`cell` counts from 1).
    #[error("internal error: segment {segment} of cell {cell} is incomplete")]
    Incomplete { segment: u64, cell: usize },
}

/// Why a resumed state and its rows do not fit the work
/// ([`check_resume`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResumeMismatch {
    /// The state does not fit the experiment's layout, or does not add up.
    #[error("the checkpoint does not fit this experiment: {0}")]
    State(StateMismatch),
    /// The checkpoint holds `rows` rows for the `games` its state counts.
    #[error("the checkpoint holds {rows} per-game rows for {games} games")]
    Rows { rows: u64, games: u64 },
}

/// Why shards do not merge into the run they say they are parts of
/// ([`merge_parts`]); `cell` counts from 1, as the message does.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardMismatch {
    /// Shard `index` of `count` whose state does not fit the experiment.
    #[error("shard {index}/{count} does not fit the experiment: {error}")]
    State {
        index: u64,
        count: u64,
        error: StateMismatch,
    },
    /// Shard `index` of `count` stopped with `done` of its `units` units.
    #[error("shard {index}/{count} did not finish: it has {done} of its {units} units")]
    Unfinished {
        index: u64,
        count: u64,
        done: u64,
        units: u64,
    },
    /// A segment, games `start..end` of a cell, whose shards hold `games`
    /// games rather than all of them: a shard is missing.
    #[error(
        "cell {cell} holds {games} games in games {start}..{end}, not {}: the shards do not \
         cover the experiment",
        .end - .start
    )]
    Uncovered {
        cell: usize,
        games: u64,
        start: u64,
        end: u64,
    },
    /// The shards hold `rows` rows (some perhaps twice) for the `games`
    /// games played.
    #[error("the shards hold {rows} per-game rows for {games} games")]
    Rows { rows: u64, games: u64 },
}

/// Why a [`Checkpoint`] could not store a state: the file it was writing
/// and the system's reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot write the checkpoint {}: {reason}", .path.display())]
pub struct SaveError {
    pub path: PathBuf,
    pub reason: String,
}

/// After this many games of a unit (all of a shorter unit; or
/// [`EARLY_SECONDS`] and 3 games),
/// katro judges whether a cell's games end: see [`ending_warning`].
pub const EARLY_GAMES: u64 = 20;
pub const EARLY_SECONDS: u64 = 5;
/// Laps a move sows on average above which games count as very long.
pub const LONG_MOVE_LAPS: f64 = 100.0;

/// A warning that a cell's games, as far as `agg` has them, mostly end
/// undecided or sow very long moves, naming the cell and the settings that
/// decide it; `None` when they look fine. Told on stderr early in a run and
/// recorded in manifest.json's `warnings` from the finished cells.
pub fn ending_warning(cell: &Cell, agg: &Aggregate) -> Option<String> {
    if agg.games == 0 {
        return None;
    }
    let s = cell.rules.settings();
    let mut why = Vec::new();
    let mut change = Vec::new();
    undecided_reasons(agg, s, &mut why, &mut change);
    long_move_reasons(agg, s, &mut why, &mut change);
    if why.is_empty() {
        return None;
    }
    Some(format!(
        "variant {}, p1 {}, p2 {}, opening_plies {}: {}: these games may never end, or take \
         far longer than the ply limit suggests; settings to change: {}",
        cell.rules.name(),
        cell.p1,
        cell.p2,
        cell.opening_plies,
        why.join("; "),
        change.join(", ")
    ))
}

/// Why, and what to change, when most games end undecided.
fn undecided_reasons(
    agg: &Aggregate,
    s: &Settings,
    why: &mut Vec<String>,
    change: &mut Vec<String>,
) {
    let n = agg.games;
    let undecided = agg.ply_limit + agg.endless_move + agg.lap_limit;
    if 2 * undecided <= n {
        return;
    }
    let parts: Vec<String> = [
        (agg.ply_limit, "at the ply limit"),
        (agg.endless_move, "endless moves"),
        (agg.lap_limit, "at the lap limit"),
    ]
    .iter()
    .filter(|(k, _)| *k > 0)
    .map(|(k, w)| format!("{k} {w}"))
    .collect();
    why.push(format!(
        "{undecided} of {n} games undecided ({})",
        parts.join(", ")
    ));
    if agg.ply_limit > 0 {
        change.push(format!("ply_limit (now {})", s.ply_limit));
    }
    if agg.endless_move > 0 {
        change.push("endless_move".to_string());
    }
    change.push(format!(
        "the capture rules (min_victim_seeds = {}, min_victim_seeds_after_empty = {})",
        s.min_victim_seeds, s.min_victim_seeds_after_empty
    ));
}

/// Why, and what to change, when moves sow very many laps.
fn long_move_reasons(
    agg: &Aggregate,
    s: &Settings,
    why: &mut Vec<String>,
    change: &mut Vec<String>,
) {
    let laps_per_move = agg.laps as f64 / (agg.plies.max(1) as f64);
    if laps_per_move <= LONG_MOVE_LAPS && agg.lap_limit == 0 {
        return;
    }
    why.push(format!(
        "a move sows {laps_per_move:.0} laps on average, the longest {}",
        agg.max_laps_in_move
    ));
    change.insert(
        0,
        format!("lap_limit (now {}) to end such moves sooner", s.lap_limit),
    );
}

/// No checkpoints.
pub struct NoCheckpoint;
impl Checkpoint for NoCheckpoint {}

/// What to play.
pub struct Work<'a> {
    pub cells: &'a [Cell<'a>],
    pub master: u64,
    pub rows: Rows,
    pub part: Part,
    /// The game index each cell's game 0 plays as, by cell (0 for a cell
    /// not listed): a grown run plays games n..m of a cell that had n as a
    /// cell of m - n games from n, with the seeds of games n..m.
    pub first_games: &'a [u64],
}

/// Where an interrupted run got to: its state and the rows it stored.
pub struct Resume {
    pub state: RunState,
    pub rows: Vec<GameRow>,
}

pub struct RunResult {
    pub state: RunState,
    /// In (cell, game index) order; empty unless rows were asked for.
    pub rows: Vec<GameRow>,
}

impl RunResult {
    /// One aggregate per cell, in the order of the cells given; for a
    /// whole run only (a shard's cells are spread over segments).
    pub fn aggregates(&self) -> Vec<Aggregate> {
        self.state.settled_aggregates()
    }
}

struct Shared {
    state: RunState,
    /// Rows of the units finished in this session, by global unit.
    rows: Vec<(u64, Vec<GameRow>)>,
    /// How many entries of `rows` a checkpoint holds already.
    saved: usize,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().expect("no worker panics while holding the lock")
}

/// Game `game` of cell `c`, as a row (its moves only when asked for),
/// with its design metrics when the cell records them; solved tables
/// (the `perfect` agent's, the exact evaluation's) come from `tables`.
fn play_one(
    cell: &Cell,
    label: &str,
    master: u64,
    c: usize,
    game: u64,
    rows: Rows,
    tables: &Tables,
) -> (GameRow, Option<GameMetrics>) {
    let seed = cell_game_seed(master, cell, label, game);
    let mut moves = Vec::new();
    let keep = (rows == Rows::GamesWithMoves).then_some(&mut moves);
    let (record, metrics) = match cell.metrics {
        None => (
            play_game_sharing(
                cell.rules,
                cell.p1,
                cell.p2,
                cell.opening_plies,
                seed,
                keep,
                tables,
            ),
            None,
        ),
        Some(plan) => play_measured(cell, plan, seed, keep, tables),
    };
    let row = GameRow {
        cell: c,
        game,
        seed,
        record,
        moves,
    };
    (row, metrics)
}

/// One game of a cell that records metrics: on the engine (the lane
/// kernel records nothing), watched by the metrics' recorder, so the same
/// game as [`play_game`] would play for the seed.
fn play_measured(
    cell: &Cell,
    plan: &MetricsPlan,
    seed: u64,
    moves: Option<&mut Vec<Move>>,
    tables: &Tables,
) -> (GameRecord, Option<GameMetrics>) {
    let mut rec = Recorder::with_eval(plan.move_evals(), plan.state_eval(cell.rules, tables))
        .with_ludii_states(plan.ludii_states());
    let record = play_game_observed(
        cell.rules,
        [cell.p1.start_game(tables), cell.p2.start_game(tables)],
        cell.opening_plies,
        seed,
        moves,
        &mut rec,
    );
    (record, Some(GameMetrics::of(&rec.into_trajectory())))
}

/// Checks that a resumed state and its rows fit the work: same cells,
/// same units, counts that add up.
pub fn check_resume(work: &Work, r: &Resume) -> Result<(), ResumeMismatch> {
    r.state
        .check(&Layout::new(work.cells), work.part)
        .map_err(ResumeMismatch::State)?;
    let wanted = if work.rows == Rows::None {
        0
    } else {
        r.state.games()
    };
    if r.rows.len() as u64 != wanted {
        return Err(ResumeMismatch::Rows {
            rows: r.rows.len() as u64,
            games: wanted,
        });
    }
    Ok(())
}

/// Plays the part of the work `work.part` names on a pool of `threads`
/// threads, from `resume` if given, telling `checkpoint` how it goes.
pub fn run(
    work: &Work,
    threads: usize,
    progress: &dyn Progress,
    checkpoint: &dyn Checkpoint,
    resume: Option<Resume>,
) -> Result<RunResult, RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| RunError::Pool {
            threads,
            why: e.to_string(),
        })?;
    let (state, resumed_rows) = match resume {
        Some(r) => {
            check_resume(work, &r)?;
            (r.state, r.rows)
        }
        None => (RunState::new(work.cells.len()), Vec::new()),
    };
    let session = Session::new(work, progress, checkpoint, state);
    match work.part {
        Part::Shard { .. } => session.play_shard(&pool)?,
        Part::Whole => session.play_whole(&pool)?,
    }
    Ok(session.finish(resumed_rows))
}

/// One session of a run: what its workers share.
struct Session<'a> {
    work: &'a Work<'a>,
    layout: Layout,
    labels: Vec<String>,
    progress: &'a dyn Progress,
    checkpoint: &'a dyn Checkpoint,
    shared: Mutex<Shared>,
    /// Held by the save in progress.
    save_lock: Mutex<()>,
    /// How often a worker records its unit's games so far, if at all.
    interval: Option<Duration>,
    /// Cells already judged by `ending_warning` in this session.
    judged: Vec<AtomicBool>,
    /// The variants solved for this session's games (`perfect` agents,
    /// exact evaluations), each once whichever worker needs it first.
    tables: Tables,
}

/// Where a work item's games are: part item `item`, global unit `global`,
/// of cell `cell`'s segment `segment`, games `start..end`.
struct UnitAt {
    item: u64,
    global: u64,
    cell: usize,
    segment: u64,
    start: u64,
    end: u64,
}

impl<'a> Session<'a> {
    fn new(
        work: &'a Work<'a>,
        progress: &'a dyn Progress,
        checkpoint: &'a dyn Checkpoint,
        state: RunState,
    ) -> Session<'a> {
        Session {
            work,
            layout: Layout::new(work.cells),
            labels: work.cells.iter().map(Cell::matchup_label).collect(),
            progress,
            checkpoint,
            shared: Mutex::new(Shared {
                state,
                rows: Vec::new(),
                saved: 0,
            }),
            save_lock: Mutex::new(()),
            interval: checkpoint.interval().filter(|i| !i.is_zero()),
            judged: (0..work.cells.len()).map(|_| false.into()).collect(),
            tables: Tables::new(),
        }
    }

    /// Saves the state with the rows finished since the last save that
    /// succeeded: a failed save's rows go into the next one, so every row
    /// is stored once. One save at a time; `force` waits for a running one.
    fn save(&self, force: bool) -> Result<(), RunError> {
        let _saving = if force {
            lock(&self.save_lock)
        } else {
            match self.save_lock.try_lock() {
                Ok(g) => g,
                Err(_) => return Ok(()),
            }
        };
        let (snapshot, new_rows, upto) = {
            let s = lock(&self.shared);
            let new: Vec<GameRow> = s.rows[s.saved..]
                .iter()
                .flat_map(|(_, r)| r)
                .cloned()
                .collect();
            (s.state.clone(), new, s.rows.len())
        };
        self.checkpoint.save(&snapshot, &new_rows)?;
        lock(&self.shared).saved = upto;
        Ok(())
    }

    /// Plays the items `item(0..n)` (each a part's work item) not done yet.
    fn play_items(
        &self,
        pool: &rayon::ThreadPool,
        n: u64,
        item: &(dyn Fn(u64) -> u64 + Sync),
    ) -> Result<(), RunError> {
        let (done, mut begun) = {
            let s = lock(&self.shared);
            (s.state.done.clone(), s.state.partial.clone())
        };
        begun.sort_by_key(|p| p.item);
        pool.install(|| {
            (0..n).into_par_iter().try_for_each(|i| {
                let j = item(i);
                if done.contains(j) {
                    return Ok(());
                }
                self.play_unit(self.unit_at(j), &begun)
            })
        })
        .inspect_err(|e| {
            // Stopped on request: every worker has recorded its games.
            if *e == RunError::Stopped {
                let _ = self.save(true);
            }
        })
    }

    fn unit_at(&self, item: u64) -> UnitAt {
        let global = self.work.part.unit_of(item);
        let (cell, u) = self.layout.locate(global);
        let (segment, start, end) = self.layout.cells[cell].unit_games(u);
        UnitAt {
            item,
            global,
            cell,
            segment,
            start,
            end,
        }
    }

    /// Plays one work item's games, from where an earlier session left it
    /// (`begun`, sorted by item), recording them as it goes.
    fn play_unit(&self, at: UnitAt, begun: &[PartialUnit]) -> Result<(), RunError> {
        let (work, c, end) = (self.work, at.cell, at.end);
        let first = work.first_games.get(c).copied().unwrap_or(0);
        // A unit an earlier session began goes on from its last recorded
        // game, with the aggregate of those before.
        let (mut agg, from) = match begun.binary_search_by_key(&at.item, |p| p.item) {
            Ok(b) => (begun[b].aggregate.clone(), at.start + begun[b].games),
            Err(_) => (Aggregate::new(), at.start),
        };
        let mut rows = Vec::new();
        let clock = Instant::now();
        let mut recorded = clock;
        // The first game not yet told to `progress`.
        let mut told = from;
        for game in from..end {
            let (row, metrics) = play_one(
                &work.cells[c],
                &self.labels[c],
                work.master,
                c,
                first + game,
                work.rows,
                &self.tables,
            );
            agg.add(&row.record);
            if let Some(m) = &metrics {
                agg.add_metrics(m);
            }
            if work.rows != Rows::None {
                rows.push(row);
            }
            let played = game + 1 - at.start;
            self.judge_early(&at, played, clock, &agg);
            let stop = self.checkpoint.stop_requested();
            let due = self.interval.is_some_and(|i| recorded.elapsed() >= i);
            if game + 1 < end && (stop || due) {
                self.record_begun(&at, played, &agg, &mut rows);
                self.tell(c, game + 1 - told, recorded);
                told = game + 1;
                recorded = Instant::now();
                self.after_record(stop)?;
            }
        }
        self.record_done(&at, &agg, rows);
        self.tell(c, end - told, recorded);
        self.after_record(self.checkpoint.stop_requested())
    }

    /// Warns, once per cell, when its first games of a unit look as if
    /// they may never end ([`ending_warning`]).
    fn judge_early(&self, at: &UnitAt, played: u64, clock: Instant, agg: &Aggregate) {
        let judged = &self.judged[at.cell];
        if !judged.load(Ordering::Relaxed)
            && (played >= EARLY_GAMES.min(at.end - at.start)
                || (played >= 3 && clock.elapsed().as_secs() >= EARLY_SECONDS))
            && !judged.swap(true, Ordering::Relaxed)
            && let Some(w) = ending_warning(&self.work.cells[at.cell], agg)
        {
            self.progress.warn(&w);
        }
    }

    /// Records a unit's first `played` games, so that a save holds them.
    fn record_begun(&self, at: &UnitAt, played: u64, agg: &Aggregate, rows: &mut Vec<GameRow>) {
        let mut s = lock(&self.shared);
        let unit = PartialUnit {
            item: at.item,
            games: played,
            aggregate: agg.clone(),
        };
        match s.state.partial.iter_mut().find(|p| p.item == at.item) {
            Some(p) => *p = unit,
            None => s.state.partial.push(unit),
        }
        if self.work.rows != Rows::None {
            s.rows.push((at.global, std::mem::take(rows)));
        }
    }

    /// Records a finished unit in its cell's segment.
    fn record_done(&self, at: &UnitAt, agg: &Aggregate, rows: Vec<GameRow>) {
        let mut s = lock(&self.shared);
        s.state.partial.retain(|p| p.item != at.item);
        s.state.cells[at.cell].add(at.segment, agg);
        s.state.done.insert(at.item);
        if self.work.rows != Rows::None {
            s.rows.push((at.global, rows));
        }
    }

    /// Tells `progress` of `games` of cell `c` played since `since`.
    fn tell(&self, c: usize, games: u64, since: Instant) {
        self.progress.advance(games);
        self.progress
            .played(c, games, since.elapsed().as_secs_f64());
    }

    /// After recording games: stops if asked to, else saves when due.
    fn after_record(&self, stop: bool) -> Result<(), RunError> {
        if stop {
            return Err(RunError::Stopped);
        }
        if self.checkpoint.due() {
            self.save(false)?;
        }
        Ok(())
    }

    /// A shard plays its items once each, in any order.
    fn play_shard(&self, pool: &rayon::ThreadPool) -> Result<(), RunError> {
        let (layout, part) = (&self.layout, self.work.part);
        let n = part.items(layout.units());
        let games_of = |j| {
            let at = self.unit_at(j);
            (at.cell, at.end - at.start)
        };
        self.progress.set_total((0..n).map(|j| games_of(j).1).sum());
        self.progress.advance(lock(&self.shared).state.games());
        let played = cell_games(layout, part, &lock(&self.shared).state);
        let mut left = vec![0u64; self.work.cells.len()];
        for j in 0..n {
            let (c, games) = games_of(j);
            left[c] += games;
        }
        for (l, p) in left.iter_mut().zip(played) {
            *l = l.saturating_sub(p);
        }
        self.progress.set_cells_left(&left);
        self.play_items(pool, n, &|j| j)
    }

    /// A whole run plays in rounds: each plays every unfinished cell's
    /// next segment, then makes the cells' stopping tests, in game order.
    fn play_whole(&self, pool: &rayon::ThreadPool) -> Result<(), RunError> {
        let layout = &self.layout;
        self.progress
            .set_total(remaining_total(layout, &lock(&self.shared).state));
        self.progress.advance(lock(&self.shared).state.games());
        self.progress
            .set_cells_left(&cells_left(layout, &lock(&self.shared).state));
        loop {
            let targets = self.next_segments();
            if targets.is_empty() {
                return Ok(());
            }
            self.play_segments(pool, &targets)?;
            self.settle(&targets)?;
        }
    }

    /// Each unfinished cell with the segment it plays next.
    fn next_segments(&self) -> Vec<(usize, u64)> {
        let s = lock(&self.shared);
        let cells = &self.layout.cells;
        (0..cells.len())
            .filter(|&c| {
                let p = &s.state.cells[c];
                !p.stopped && p.settled_games < cells[c].max_games
            })
            .map(|c| (c, s.state.cells[c].settled_games / cells[c].segment))
            .collect()
    }

    /// Plays the units of segment `k` of each cell `c` of `targets`.
    fn play_segments(
        &self,
        pool: &rayon::ThreadPool,
        targets: &[(usize, u64)],
    ) -> Result<(), RunError> {
        let layout = &self.layout;
        let ranges: Vec<Range<u64>> = targets
            .iter()
            .map(|&(c, k)| {
                let r = layout.cells[c].segment_units(k);
                layout.first[c] + r.start..layout.first[c] + r.end
            })
            .collect();
        let mut starts = Vec::with_capacity(ranges.len());
        let mut n = 0;
        for r in &ranges {
            starts.push(n);
            n += r.end - r.start;
        }
        self.play_items(pool, n, &|i| {
            let t = starts.partition_point(|&s| s <= i) - 1;
            ranges[t].start + (i - starts[t])
        })
    }

    /// Adds each target's played segment to its cell's settled games and
    /// makes the cell's stopping test there.
    fn settle(&self, targets: &[(usize, u64)]) -> Result<(), RunError> {
        let mut s = lock(&self.shared);
        let mut stopped_early = false;
        for &(c, k) in targets {
            let l = &self.layout.cells[c];
            let p = &mut s.state.cells[c];
            let (_, end) = l.segment_games(k);
            let whole = p.segments.first().is_some_and(|seg| {
                seg.segment == k && seg.aggregate.games == end - p.settled_games
            });
            if !whole {
                return Err(RunError::Incomplete {
                    segment: k,
                    cell: c + 1,
                });
            }
            let seg = p.segments.remove(0);
            p.settled.merge(&seg.aggregate);
            p.settled_games = end;
            p.stopped = self.work.cells[c].stop.is_met(end, &p.settled);
            stopped_early |= p.stopped && end < l.max_games;
        }
        if stopped_early {
            self.progress
                .set_total(remaining_total(&self.layout, &s.state));
            self.progress
                .set_cells_left(&cells_left(&self.layout, &s.state));
        }
        Ok(())
    }

    /// The run's state, and its rows (the resumed ones first) in (cell,
    /// game index) order.
    fn finish(self, resumed_rows: Vec<GameRow>) -> RunResult {
        let s = self.shared.into_inner().expect("workers have finished");
        let mut rows = resumed_rows;
        rows.extend(s.rows.into_iter().flat_map(|(_, r)| r));
        rows.sort_by_key(|r| (r.cell, r.game));
        RunResult {
            state: s.state,
            rows,
        }
    }
}

/// Games of each cell in `state`, those of unfinished units included.
fn cell_games(layout: &Layout, part: Part, state: &RunState) -> Vec<u64> {
    let mut out: Vec<u64> = state
        .cells
        .iter()
        .map(|c| c.settled_games + c.segments.iter().map(|s| s.aggregate.games).sum::<u64>())
        .collect();
    for p in &state.partial {
        out[layout.locate(part.unit_of(p.item)).0] += p.games;
    }
    out
}

/// The games each cell of a whole run can still play.
fn cells_left(layout: &Layout, state: &RunState) -> Vec<u64> {
    let played = cell_games(layout, Part::Whole, state);
    layout
        .cells
        .iter()
        .zip(&state.cells)
        .zip(played)
        .map(|((l, p), n)| {
            if p.stopped {
                0
            } else {
                l.max_games.saturating_sub(n)
            }
        })
        .collect()
}

/// The most games a whole run can still play in all, counting the games
/// of cells that have stopped.
fn remaining_total(layout: &Layout, state: &RunState) -> u64 {
    layout
        .cells
        .iter()
        .zip(&state.cells)
        .map(|(l, p)| {
            if p.stopped {
                p.settled_games
            } else {
                l.max_games
            }
        })
        .sum()
}

/// Combines the states of shards `1..=count` of a run: checks that every
/// shard finished all its units, adds up each cell's segments and makes the
/// stopping tests over them in game order, exactly as a whole run does, so
/// the aggregates (and the rows kept) are those of a whole run. `shards`
/// holds (index, state) pairs, one per shard.
pub fn merge_parts(
    cells: &[Cell],
    count: u64,
    shards: &[(u64, &RunState)],
    rows: Vec<GameRow>,
    wanted: Rows,
) -> Result<(Vec<Aggregate>, Vec<GameRow>), RunError> {
    let layout = Layout::new(cells);
    let mut segments = shard_segments(&layout, count, shards)?;
    let mut aggregates = Vec::with_capacity(cells.len());
    let mut played = Vec::with_capacity(cells.len());
    for (c, cell) in cells.iter().enumerate() {
        let (total, end) = settle_merged(c, cell, &layout.cells[c], &mut segments[c])?;
        aggregates.push(total);
        played.push(end);
    }
    Ok((aggregates, merged_rows(rows, &played, wanted)?))
}

/// Each cell's segments, added up over the shards, after checking that
/// every shard fits the layout and finished all its units.
fn shard_segments(
    layout: &Layout,
    count: u64,
    shards: &[(u64, &RunState)],
) -> Result<Vec<BTreeMap<u64, Aggregate>>, RunError> {
    let mut segments: Vec<BTreeMap<u64, Aggregate>> = vec![BTreeMap::new(); layout.cells.len()];
    for &(index, state) in shards {
        let part = Part::Shard { index, count };
        state
            .check(layout, part)
            .map_err(|error| ShardMismatch::State {
                index,
                count,
                error,
            })?;
        let units = part.items(layout.units());
        if !state.done.is_all_below(units) {
            return Err(ShardMismatch::Unfinished {
                index,
                count,
                done: state.done.len(),
                units,
            }
            .into());
        }
        for (c, p) in state.cells.iter().enumerate() {
            for s in &p.segments {
                segments[c]
                    .entry(s.segment)
                    .or_default()
                    .merge(&s.aggregate);
            }
        }
    }
    Ok(segments)
}

/// Cell `c`'s aggregate and games played: its merged segments in game
/// order up to where its stopping test is met, as a whole run settles them.
fn settle_merged(
    c: usize,
    cell: &Cell,
    l: &CellLayout,
    segments: &mut BTreeMap<u64, Aggregate>,
) -> Result<(Aggregate, u64), RunError> {
    let mut total = Aggregate::new();
    let mut end = 0;
    for k in 0..l.segments() {
        let (start, seg_end) = l.segment_games(k);
        let seg = segments.remove(&k).unwrap_or_default();
        if seg.games != seg_end - start {
            return Err(ShardMismatch::Uncovered {
                cell: c + 1,
                games: seg.games,
                start,
                end: seg_end,
            }
            .into());
        }
        total.merge(&seg);
        end = seg_end;
        if cell.stop.is_met(end, &total) {
            break;
        }
    }
    Ok((total, end))
}

/// The rows of the games each cell `played`, in (cell, game index) order,
/// each once when rows are `wanted`; none otherwise.
fn merged_rows(rows: Vec<GameRow>, played: &[u64], wanted: Rows) -> Result<Vec<GameRow>, RunError> {
    if wanted == Rows::None {
        return Ok(Vec::new());
    }
    let mut rows: Vec<GameRow> = rows
        .into_iter()
        .filter(|r| r.cell < played.len() && r.game < played[r.cell])
        .collect();
    rows.sort_by_key(|r| (r.cell, r.game));
    let games: u64 = played.iter().sum();
    let distinct = rows
        .windows(2)
        .all(|w| (w[0].cell, w[0].game) != (w[1].cell, w[1].game));
    if rows.len() as u64 != games || !distinct {
        return Err(ShardMismatch::Rows {
            rows: rows.len() as u64,
            games,
        }
        .into());
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::experiment::plan::Ranges;
    use crate::rules::{Rules, preset};

    fn mirror<'a>(rules: &'a Rules, agent: &'a AgentSpec, opening: u32, games: u64) -> Cell<'a> {
        Cell {
            rules,
            p1: agent,
            p2: agent,
            opening_plies: opening,
            stop: Stop::Games(games),
            metrics: None,
            balance_margin: None,
        }
    }

    /// Alpha-beta at depth 3 against itself on katro-6x3 plays one game
    /// over and over; random opening plies spread its games, the same
    /// ones on any number of threads.
    #[test]
    fn opening_plies_spread_a_deterministic_matchup() {
        let rules = preset("katro-6x3").unwrap();
        let ab = AgentSpec::parse("alphabeta:depth=3").unwrap();
        let without = whole(&[mirror(&rules, &ab, 0, 40)], Rows::None, 1);
        let a = &without.aggregates()[0];
        assert_eq!(a.distinct_games(), (1, true));
        assert!(a.repeats());
        let cells = [mirror(&rules, &ab, 4, 40)];
        let one = whole(&cells, Rows::GamesWithMoves, 1);
        let two = whole(&cells, Rows::GamesWithMoves, 2);
        assert_eq!(one.aggregates(), two.aggregates());
        assert_eq!(one.rows, two.rows);
        let (d, exact) = one.aggregates()[0].distinct_games();
        assert!(
            exact && d > 20,
            "{d} distinct games of 40 with 4 opening plies"
        );
        // The openings differ: more than one first move among the games.
        let firsts: std::collections::HashSet<Move> = one.rows.iter().map(|r| r.moves[0]).collect();
        assert!(firsts.len() > 1);
        // A cell with an opening is seeded apart from one without.
        assert_eq!(
            cells[0].matchup_label(),
            "alphabeta:depth=3 vs alphabeta:depth=3 +open4"
        );
        assert_eq!(
            mirror(&rules, &ab, 0, 1).matchup_label(),
            "alphabeta:depth=3 vs alphabeta:depth=3"
        );
    }

    fn random_pair(rules: &Rules, stop: Stop) -> Cell<'_> {
        Cell {
            rules,
            p1: &AgentSpec::Random,
            p2: &AgentSpec::Random,
            opening_plies: 0,
            stop,
            metrics: None,
            balance_margin: None,
        }
    }

    fn whole(cells: &[Cell], rows: Rows, threads: usize) -> RunResult {
        let work = Work {
            cells,
            master: 3,
            rows,
            part: Part::Whole,
            first_games: &[],
        };
        run(&work, threads, &Quiet, &NoCheckpoint, None).unwrap()
    }

    #[test]
    fn units_tile_each_cell_without_crossing_a_checkpoint() {
        let stops = [
            Stop::Games(1),
            Stop::Games(60),
            Stop::Games(5000),
            Stop::Games(1_000_000),
            Stop::Precision {
                width: 0.1,
                max_games: 100,
                checkpoint: 7,
            },
            Stop::Precision {
                width: 0.1,
                max_games: 10_000,
                checkpoint: 3000,
            },
        ];
        for stop in stops {
            let l = CellLayout::new(&stop);
            let mut next = 0;
            for i in 0..l.units() {
                let (k, start, end) = l.unit_games(i);
                assert_eq!(start, next, "{stop:?} unit {i}");
                assert!(start < end && end - start <= l.unit);
                let (s0, s1) = l.segment_games(k);
                assert!(s0 <= start && end <= s1, "{stop:?} unit {i} crosses a test");
                assert!(l.segment_units(k).contains(&i));
                next = end;
            }
            assert_eq!(next, stop.max_games(), "{stop:?}");
        }
        // 1,000,000 games: units of the most, 1024 games; 60 games: 8.
        assert_eq!(CellLayout::new(&Stop::Games(1_000_000)).unit, 1024);
        assert_eq!(CellLayout::new(&Stop::Games(60)).unit, 8);
    }

    #[test]
    fn ranges_stay_compact() {
        let mut r = Ranges::default();
        for x in [5, 3, 4, 9, 0, 1, 2, 8, 7, 6, 6] {
            r.insert(x);
            assert!(r.is_well_formed(), "{r:?}");
            assert!(r.contains(x));
        }
        assert_eq!(r, Ranges(vec![[0, 10]]));
        assert!(r.is_all_below(10));
        assert!(!r.contains(10));
        r.insert(12);
        assert_eq!(r.len(), 11);
        assert!(!r.contains(11) && r.contains(12));
        assert_eq!(r.iter().collect::<Vec<_>>().len(), 11);
    }

    /// Shards of every count, merged, give a whole run's aggregates and
    /// rows, precision cells included.
    #[test]
    fn merged_shards_equal_a_whole_run() {
        let a = preset("katro-4x4").unwrap();
        let b = preset("katro-6x3").unwrap();
        let greedy = AgentSpec::Greedy;
        let cells = [
            Cell {
                rules: &a,
                p1: &AgentSpec::Random,
                p2: &greedy,
                opening_plies: 2,
                stop: Stop::Games(70),
                metrics: None,
                balance_margin: None,
            },
            random_pair(
                &b,
                Stop::Precision {
                    width: 0.4,
                    max_games: 300,
                    checkpoint: 20,
                },
            ),
        ];
        let one = whole(&cells, Rows::Games, 2);
        let stopped = one.aggregates()[1].games;
        assert!(stopped < 300 && stopped.is_multiple_of(20), "{stopped}");
        for count in [1, 2, 3, 7, 40] {
            let mut states = Vec::new();
            let mut rows = Vec::new();
            for index in 1..=count {
                let work = Work {
                    cells: &cells,
                    master: 3,
                    rows: Rows::Games,
                    part: Part::Shard { index, count },
                    first_games: &[],
                };
                let r = run(&work, 1, &Quiet, &NoCheckpoint, None).unwrap();
                rows.extend(r.rows);
                states.push((index, r.state));
            }
            let refs: Vec<(u64, &RunState)> = states.iter().map(|(i, s)| (*i, s)).collect();
            let (aggs, merged_rows) =
                merge_parts(&cells, count, &refs, rows.clone(), Rows::Games).unwrap();
            assert_eq!(aggs, one.aggregates(), "{count} shards");
            assert_eq!(merged_rows, one.rows, "{count} shards");
            if count > 1 {
                // A missing shard is noticed, not merged into smaller totals.
                let err = merge_parts(&cells, count, &refs[1..], rows, Rows::Games).unwrap_err();
                assert!(
                    matches!(err, RunError::Shards(ShardMismatch::Uncovered { .. })),
                    "{err}"
                );
            }
        }
    }

    /// Keeps what a checkpoint on disk would (the last state, and every
    /// row given to a save that succeeded, earlier sessions' included) and
    /// fails save number `fail_at` (from 0), slowly if asked, storing
    /// nothing then.
    struct FailingCheckpoint {
        saves: std::sync::atomic::AtomicU64,
        fail_at: u64,
        slow: bool,
        kept: Mutex<(RunState, Vec<GameRow>)>,
    }

    impl FailingCheckpoint {
        fn new(fail_at: u64, slow: bool, before: Option<&Resume>) -> FailingCheckpoint {
            FailingCheckpoint {
                saves: 0.into(),
                fail_at,
                slow,
                kept: Mutex::new(before.map_or((RunState::default(), vec![]), |r| {
                    (r.state.clone(), r.rows.clone())
                })),
            }
        }

        fn kept(self) -> Resume {
            let (state, rows) = self.kept.into_inner().unwrap();
            Resume { state, rows }
        }
    }

    fn disk_full() -> SaveError {
        SaveError {
            path: "state.json".into(),
            reason: "disk full".into(),
        }
    }

    impl Checkpoint for FailingCheckpoint {
        fn due(&self) -> bool {
            true
        }
        fn save(&self, state: &RunState, rows: &[GameRow]) -> Result<(), SaveError> {
            if self.saves.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == self.fail_at {
                if self.slow {
                    // Long enough for another worker to be mid-unit when
                    // this returns, so that it saves after the failure.
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                return Err(disk_full());
            }
            let mut kept = self.kept.lock().unwrap();
            kept.0 = state.clone();
            kept.1.extend_from_slice(rows);
            Ok(())
        }
    }

    /// The whole run of `cells` with every game's moves kept.
    fn whole_with_moves<'a>(cells: &'a [Cell<'a>]) -> Work<'a> {
        Work {
            cells,
            master: 3,
            rows: Rows::GamesWithMoves,
            part: Part::Whole,
            first_games: &[],
        }
    }

    /// A run stopped part-way and resumed from its state gives the same
    /// results as one that was never stopped.
    #[test]
    fn a_resumed_run_equals_an_uninterrupted_one() {
        let a = preset("katro-4x4").unwrap();
        let cells = [random_pair(
            &a,
            Stop::Precision {
                width: 0.2,
                max_games: 400,
                checkpoint: 30,
            },
        )];
        let reference = whole(&cells, Rows::GamesWithMoves, 2);
        let work = whole_with_moves(&cells);
        let mut resume: Option<Resume> = None;
        for fail_at in [2, 4, 3] {
            let cp = FailingCheckpoint::new(fail_at, false, resume.as_ref());
            let r = run(&work, 2, &Quiet, &cp, resume.take());
            assert_eq!(r.err(), Some(disk_full().into()));
            let r = cp.kept();
            assert!(r.state.games() > 0 && r.state.games() < 400);
            check_resume(&work, &r).expect("every saved state is whole");
            resume = Some(r);
        }
        let resumed = run(&work, 2, &Quiet, &NoCheckpoint, resume).unwrap();
        assert_eq!(resumed.aggregates(), reference.aggregates());
        assert_eq!(resumed.rows, reference.rows);
    }

    /// Records games inside units after every game, and asks the run to
    /// stop once it has saved `stop_after` times: as Ctrl-C does.
    struct StoppingCheckpoint {
        inner: FailingCheckpoint,
        stop_after: u64,
    }

    impl Checkpoint for StoppingCheckpoint {
        fn due(&self) -> bool {
            true
        }
        fn save(&self, state: &RunState, rows: &[GameRow]) -> Result<(), SaveError> {
            self.inner.save(state, rows)
        }
        fn interval(&self) -> Option<std::time::Duration> {
            Some(std::time::Duration::from_nanos(1))
        }
        fn stop_requested(&self) -> bool {
            self.inner.saves.load(std::sync::atomic::Ordering::SeqCst) >= self.stop_after
        }
    }

    /// A run stopped inside its units (as Ctrl-C stops it, and as a
    /// checkpoint of a cell whose games take minutes finds it) keeps the
    /// games of its unfinished units, and resumed on any thread count gives
    /// the bytes of a run never stopped.
    #[test]
    fn a_run_stopped_inside_a_unit_resumes_to_the_same_results() {
        let a = preset("katro-4x4").unwrap();
        let b = preset("katro-6x3").unwrap();
        let cells = [
            random_pair(&a, Stop::Games(700)),
            random_pair(
                &b,
                Stop::Precision {
                    width: 0.15,
                    max_games: 600,
                    checkpoint: 200,
                },
            ),
        ];
        let reference = whole(&cells, Rows::GamesWithMoves, 2);
        let work = whole_with_moves(&cells);
        let mut resume: Option<Resume> = None;
        let mut partial_seen = false;
        for (threads, stop_after) in [(2, 5), (1, 40), (2, 30)] {
            let cp = StoppingCheckpoint {
                inner: FailingCheckpoint::new(u64::MAX, false, resume.as_ref()),
                stop_after,
            };
            let r = run(&work, threads, &Quiet, &cp, resume.take());
            assert_eq!(r.err(), Some(RunError::Stopped));
            let r = cp.inner.kept();
            partial_seen |= !r.state.partial.is_empty();
            check_resume(&work, &r).expect("every saved state is whole");
            resume = Some(r);
        }
        assert!(partial_seen, "no stop fell inside a unit");
        let resumed = run(&work, 1, &Quiet, &NoCheckpoint, resume).unwrap();
        assert_eq!(resumed.aggregates(), reference.aggregates());
        assert_eq!(resumed.rows, reference.rows);
    }

    /// A save that fails while another worker plays on: the other
    /// worker's next save must hold the failed save's rows too.
    #[test]
    fn a_failed_save_loses_no_rows() {
        let a = preset("katro-4x4").unwrap();
        let cells = [random_pair(&a, Stop::Games(200_000))];
        let work = Work {
            cells: &cells,
            master: 3,
            rows: Rows::Games,
            part: Part::Whole,
            first_games: &[],
        };
        let cp = FailingCheckpoint::new(2, true, None);
        assert!(run(&work, 2, &Quiet, &cp, None).is_err());
        assert!(
            cp.saves.load(std::sync::atomic::Ordering::SeqCst) > 3,
            "no save after the failed one"
        );
        check_resume(&work, &cp.kept()).expect("the last save is whole");
    }

    #[test]
    fn a_damaged_state_is_refused() {
        let a = preset("katro-4x4").unwrap();
        let cells = [random_pair(&a, Stop::Games(100))];
        let work = Work {
            cells: &cells,
            master: 3,
            rows: Rows::None,
            part: Part::Shard { index: 1, count: 2 },
            first_games: &[],
        };
        let done = run(&work, 1, &Quiet, &NoCheckpoint, None).unwrap().state;
        let mut bad = done.clone();
        bad.cells[0].segments[0].aggregate.games += 1;
        let resume = Resume {
            state: bad,
            rows: vec![],
        };
        assert_eq!(
            check_resume(&work, &resume),
            Err(ResumeMismatch::State(StateMismatch::Segments { cell: 1 }))
        );
        // A sketch of distinct games out of order cannot be merged.
        let mut bad = done.clone();
        bad.cells[0].segments[0].aggregate.distinct = serde_json::from_str("[5, 2]").unwrap();
        let resume = Resume {
            state: bad,
            rows: vec![],
        };
        assert_eq!(
            check_resume(&work, &resume),
            Err(ResumeMismatch::State(StateMismatch::Cell { cell: 1 }))
        );
        let mut bad = done.clone();
        bad.done.insert(40);
        let resume = Resume {
            state: bad,
            rows: vec![],
        };
        assert_eq!(
            check_resume(&work, &resume),
            Err(ResumeMismatch::State(StateMismatch::DoneOutOfRange))
        );
        let resume = Resume {
            state: done,
            rows: vec![],
        };
        assert!(check_resume(&work, &resume).is_ok());
    }

    #[test]
    fn precision_stops_at_checkpoints_whatever_the_threads() {
        let rules = preset("katro-4x4").unwrap();
        let cell = random_pair(
            &rules,
            Stop::Precision {
                width: 0.3,
                max_games: 500,
                checkpoint: 7,
            },
        );
        let one = whole(std::slice::from_ref(&cell), Rows::Games, 1);
        let two = whole(std::slice::from_ref(&cell), Rows::Games, 2);
        assert_eq!(one.aggregates(), two.aggregates());
        assert_eq!(one.rows, two.rows);
        let games = one.aggregates()[0].games;
        assert_eq!(games % 7, 0, "stopped off a checkpoint: {games}");
        assert!(games < 500, "a width of 0.3 needs about 43 decided games");
        let w = one.aggregates()[0].p1_win_rate().unwrap();
        assert!(w.width() < 0.3);
        // It did not stop at the checkpoint before.
        let mut earlier = Aggregate::new();
        for r in &one.rows[..(games - 7) as usize] {
            earlier.add(&r.record);
        }
        assert!(earlier.p1_win_rate().is_none_or(|w| w.width() >= 0.3));
        let indices: Vec<u64> = one.rows.iter().map(|r| r.game).collect();
        assert_eq!(indices, (0..games).collect::<Vec<_>>());
    }
}
