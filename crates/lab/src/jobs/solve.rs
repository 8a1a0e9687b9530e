//! `katro solve` (docs/SOLVED.md): a small board solved exactly, its
//! summary, and the table written through the [`Store`]. The job stops
//! the solve at the options' `max_seconds` on the caller's [`Clock`]; the
//! caller also gives a progress callback (which may stop it too) and the
//! process's peak memory (the library does no I/O).

use std::ops::ControlFlow;
use std::path::Path;

use crate::engine::notation::move_name;
use crate::rules::Rules;
use crate::solve::{
    self, MAGIC, Phase, SolveError, SolveStats, SolvedTable, Threads, check_key, gib, move_values,
    solve_with_stats, upper_bound, upper_bound_bytes,
};
use crate::store::Store;

use super::clock::{Clock, Deadline};
use super::owned::{TABLE_LINE, check_marked_file, folder_of, write_marked_file};
use super::{Error, Refusal, load_variant};

/// `--max-memory` when not given.
pub const DEFAULT_MAX_GIB: f64 = 4.0;

pub fn max_bytes(gib: f64) -> Result<u64, Error> {
    if !(gib.is_finite() && gib > 0.0 && gib <= 1024.0) {
        return Err(Refusal::FlagNotA {
            flag: "--max-memory",
            value: gib,
            want: "a size in GiB from above 0 to 1024",
        }
        .into());
    }
    Ok((gib * (1u64 << 30) as f64) as u64)
}

pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

pub fn check_seconds(max_seconds: Option<f64>) -> Result<(), Error> {
    match max_seconds {
        Some(m) if !(m.is_finite() && m > 0.0) => Err(Refusal::FlagNotA {
            flag: "--max-seconds",
            value: m,
            want: "a number of seconds above 0",
        }
        .into()),
        _ => Ok(()),
    }
}

/// A refusal by memory is the request's limit (exit 2); a stop at the time
/// cap is a run that could not finish (exit 1).
pub fn solve_failure(variant: &str, error: SolveError, max_seconds: Option<f64>) -> Error {
    let variant = variant.to_string();
    match error {
        SolveError::Stopped { .. } => Error::TimedOut {
            variant,
            error,
            max_seconds: max_seconds.unwrap_or_default(),
        },
        error => Refusal::Solve { variant, error }.into(),
    }
}

/// `progress`, also stopping the solve once `deadline` has passed: how
/// `solve` and `solve-family` keep their `--max-seconds`.
pub(super) fn until<'a>(
    deadline: &'a Deadline,
    progress: &'a mut dyn FnMut(Phase, u64, u64) -> ControlFlow<()>,
) -> impl FnMut(Phase, u64, u64) -> ControlFlow<()> + 'a {
    move |phase, done, known| match progress(phase, done, known) {
        ControlFlow::Continue(()) if deadline.passed() => ControlFlow::Break(()),
        flow => flow,
    }
}

/// Solves `rules` on the pool within `max_bytes`, with no clock to stop
/// it: for the jobs (judge, curve) that solve boards on the way.
pub(super) fn solve_unstopped(
    rules: &Rules,
    max_bytes: u64,
) -> Result<(SolvedTable, SolveStats), SolveError> {
    checked_solve(rules, max_bytes, &mut |_: Phase, _, _| {
        ControlFlow::Continue(())
    })
}

/// Solves `rules` on the pool within `max_bytes`, `clock` told each step
/// and able to stop it; a key too small is refused before any work.
pub(super) fn checked_solve(
    rules: &Rules,
    max_bytes: u64,
    clock: &mut dyn FnMut(Phase, u64, u64) -> ControlFlow<()>,
) -> Result<(SolvedTable, SolveStats), SolveError> {
    check_key(rules).and_then(|_| solve_with_stats(rules, max_bytes, Threads::Pool, clock))
}

/// Refuses an `--out` file katro did not write (`old_own` tells one of
/// this kind katro wrote without a mark), a folder, and an unwritable
/// folder, before any work.
pub(super) fn check_out(
    store: &dyn Store,
    out: &Path,
    old_own: fn(&[u8]) -> bool,
) -> Result<(), Error> {
    if store.is_dir(out) {
        let out = out.to_path_buf();
        return Err(Refusal::OutIsAFolder { out }.into());
    }
    check_marked_file(store, out, old_own)?;
    let dir = folder_of(out);
    super::out_folder::check_out_writable(store, dir, Some(format!("--out {}", out.display())))
}

/// A table katro wrote before its tables carried a mark with a hash: one
/// that reads whole.
fn old_table(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC) && solve::read_table(bytes).is_ok()
}

/// Writes the table, marked as katro's, unless a file katro may not
/// replace took its place meanwhile; its size in bytes.
fn write_table(store: &dyn Store, out: &Path, table: &SolvedTable) -> Result<u64, Error> {
    write_marked_file(store, out, &table.to_bytes(), TABLE_LINE, old_table)
}

/// What `katro solve` is asked to do.
pub struct SolveOptions {
    /// A preset name or a variant file.
    pub variant: String,
    /// Where to write the table, if anywhere.
    pub out: Option<String>,
    pub max_gib: f64,
    pub max_seconds: Option<f64>,
}

/// `katro solve VARIANT [--out FILE] [--max-memory GiB] [--max-seconds S]`:
/// returns what to print. `note` gets the line said before the solve
/// starts; `progress` is told each step of the solver and may stop it;
/// `clock` times the solve and the options' `max_seconds` stops it;
/// `peak_rss` reads the process's peak memory for the summary.
pub fn solve(
    o: &SolveOptions,
    store: &dyn Store,
    clock: &dyn Clock,
    progress: &mut dyn FnMut(Phase, u64, u64) -> ControlFlow<()>,
    note: &dyn Fn(&str),
    peak_rss: &dyn Fn() -> Option<u64>,
) -> Result<String, Error> {
    let (variant, out, max_seconds) = (o.variant.as_str(), o.out.as_deref(), o.max_seconds);
    let (rules, max) = checked_options(o, store)?;
    note(&bound_note(variant, &rules, max));
    let deadline = Deadline::new(clock, max_seconds);
    let (table, stats) =
        solve_with_stats(&rules, max, Threads::Pool, &mut until(&deadline, progress))
            .map_err(|e| solve_failure(variant, e, max_seconds))?;
    let seconds = deadline.elapsed();
    let mut text = summary_text(&rules, &table, &stats, seconds, peak_rss());
    if let Some(out) = out {
        let n = write_table(store, Path::new(out), &table)?;
        text.push_str(&format!("table: {out} ({n} bytes)\n"));
    }
    Ok(text)
}

/// The variant's rules and the memory cap in bytes, once the options
/// are checked: the limits, the board's key and the `--out` file.
fn checked_options(o: &SolveOptions, store: &dyn Store) -> Result<(Rules, u64), Error> {
    let rules = load_variant(store, &o.variant)?;
    let max = max_bytes(o.max_gib)?;
    check_seconds(o.max_seconds)?;
    check_key(&rules).map_err(|error| Refusal::Solve {
        variant: o.variant.clone(),
        error,
    })?;
    if let Some(out) = &o.out {
        check_out(store, Path::new(out), old_table)?;
    }
    Ok((rules, max))
}

/// What the board could need at most, said at once: the refusal comes
/// from what exploring finds (docs/SOLVED.md, "What is solved").
fn bound_note(variant: &str, rules: &Rules, max: u64) -> String {
    format!(
        "solve: {variant}: upper bound {} positions, {} at most; exploring the \
         reachable ones, refused as soon as those found need more than {} (--max-memory)",
        upper_bound(rules),
        gib(upper_bound_bytes(rules)),
        gib(max as u128)
    )
}

/// What `katro solve` prints about a solved board.
pub fn summary_text(
    rules: &Rules,
    table: &SolvedTable,
    stats: &SolveStats,
    seconds: f64,
    peak_rss: Option<u64>,
) -> String {
    let mut t = board_text(rules, table);
    t.push_str("first moves (value for player 1):\n");
    for (mv, value) in move_values(table, rules, &rules.start()) {
        let value = value.map_or("not in the table".to_string(), |v| v.to_string());
        t.push_str(&format!("  {:<6} {value}\n", move_name(rules, mv)));
    }
    t.push_str(&cost_text(
        upper_bound(rules),
        table,
        stats,
        seconds,
        peak_rss,
    ));
    t
}

/// The summary's head: the variant, its board and the start's value.
fn board_text(rules: &Rules, table: &SolvedTable) -> String {
    let v = table
        .value(rules, &rules.start())
        .expect("the start is in its own table");
    let s = rules.settings();
    let mut t = String::new();
    t.push_str(&format!(
        "variant: {}\nrules: {}\n",
        rules.name(),
        table.rules
    ));
    t.push_str(&format!(
        "board: {}×{}, {} seeds\n",
        s.rows,
        s.holes,
        rules.total_seeds()
    ));
    t.push_str(
        "ply limit: ignored (a game that never ends is a draw by infinite play; \
         distances count decisions)\n",
    );
    t.push_str(&format!(
        "start: {} for player 1 (South, to move)\n",
        value_words(v)
    ));
    t
}

/// A value for the player to move, in words.
fn value_words(v: solve::Value) -> String {
    match v {
        solve::Value::Win(d) => format!("win in {d}"),
        solve::Value::Loss(d) => format!("loss in {d}"),
        solve::Value::Draw => "draw".into(),
    }
}

/// The summary's tail: the table's size (of at most `bound` positions)
/// and what solving it cost.
fn cost_text(
    bound: u128,
    table: &SolvedTable,
    stats: &SolveStats,
    seconds: f64,
    peak_rss: Option<u64>,
) -> String {
    let mut t = format!(
        "longest forced win: {} decisions (the longest fastest win of any position)\n",
        table.longest_win()
    );
    t.push_str(&format!(
        "positions: {} reachable from the start ({} moves); upper bound {}\n",
        table.len(),
        stats.moves,
        bound
    ));
    t.push_str(&format!("time: {seconds:.2} s\n"));
    t.push_str(&format!(
        "memory: solver arrays {} at their peak; process peak {}\n",
        mib(stats.peak_bytes),
        peak_rss.map_or("unknown".into(), mib)
    ));
    t
}
