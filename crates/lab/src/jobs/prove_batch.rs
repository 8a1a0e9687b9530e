//! What `katro prove-nearby` and `katro prove-openings` share
//! (docs/SOLVED.md, "Proving a position"): the limits every search is
//! given, checked once; a [`Batch`] of searches, each as by a fresh
//! prover, so that a value never depends on which thread searched what
//! before it; and each search's time limit, on the clock the job is
//! given (jobs::clock).

use crate::engine::Position;
use crate::engine::notation::board_rows;
use crate::rules::Rules;
use crate::solve::prove::{Batch, Limits, Watch};

use super::clock::{Clock, Deadline};

use std::path::Path;

use crate::files::csv::LineError;
use crate::store::Store;

use super::{Error, Folder, Refusal, read_optional};

/// `--max-memory` when not given: the table of each search, in GiB.
pub const DEFAULT_TABLE_GIB: f64 = 0.25;
/// `--max-nodes` when not given: nodes of each search.
pub const DEFAULT_MAX_NODES: u64 = 10_000_000;
/// `--max-depth` when not given: the deepest bound tried, in decisions.
pub const DEFAULT_MAX_DEPTH: u32 = 500;
/// The deepest `--max-depth` taken: the table stores bounds in 16 bits.
pub const MOST_DEPTH: u32 = 60_000;

/// The limits of every search, as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProveFlags {
    /// `--max-memory`: each search's table, in GiB.
    pub max_gib: f64,
    pub max_depth: u32,
    pub max_nodes: u64,
    /// `--max-seconds`: each search's time, on the clock the job is given
    /// ([`time_limits`]).
    pub max_seconds: Option<f64>,
}

impl Default for ProveFlags {
    fn default() -> ProveFlags {
        ProveFlags {
            max_gib: DEFAULT_TABLE_GIB,
            max_depth: DEFAULT_MAX_DEPTH,
            max_nodes: DEFAULT_MAX_NODES,
            max_seconds: None,
        }
    }
}

/// The limits of every search, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProveLimits {
    pub table_bytes: u64,
    pub limits: Limits,
}

impl ProveFlags {
    /// The limits, or the flag that is out of range (exit 2).
    pub fn check(&self) -> Result<ProveLimits, Error> {
        let table_bytes = super::solve::max_bytes(self.max_gib)?;
        super::solve::check_seconds(self.max_seconds)?;
        if !(1..=MOST_DEPTH).contains(&self.max_depth) {
            return Err(Refusal::FlagValue {
                flag: "--max-depth",
                value: self.max_depth.to_string(),
                want: format!("give a bound in decisions from 1 to {MOST_DEPTH}"),
            }
            .into());
        }
        if self.max_nodes == 0 {
            return Err(Refusal::FlagValue {
                flag: "--max-nodes",
                value: "0".into(),
                want: "give a number of nodes from 1 up".into(),
            }
            .into());
        }
        Ok(ProveLimits {
            table_bytes,
            limits: Limits {
                max_depth: self.max_depth,
                max_nodes: Some(self.max_nodes),
            },
        })
    }
}

/// Makes the watch of each search, afresh so that each has the whole
/// time; the watches may borrow for `'w` (the job's clock).
pub type WatchMaker<'w> = dyn Fn() -> Box<dyn Watch + Send + 'w> + Sync + 'w;

/// Stops searches once `max_seconds` have passed on the job's clock
/// since it was made, and remembers whether it did.
pub struct TimeLimit<'c> {
    deadline: Deadline<'c>,
    /// Whether it stopped a search.
    pub hit: bool,
}

impl<'c> TimeLimit<'c> {
    pub fn new(clock: &'c dyn Clock, max_seconds: Option<f64>) -> TimeLimit<'c> {
        TimeLimit {
            deadline: Deadline::new(clock, max_seconds),
            hit: false,
        }
    }

    /// Seconds since it was made.
    pub fn elapsed(&self) -> f64 {
        self.deadline.elapsed()
    }
}

impl Watch for TimeLimit<'_> {
    fn should_stop(&mut self, _nodes: u64) -> bool {
        let stop = self.deadline.passed();
        self.hit |= stop;
        stop
    }
}

/// The watches of a batch's searches: each stops `max_seconds` after it
/// began, on `clock` (none: never).
pub fn time_limits<'c>(
    clock: &'c dyn Clock,
    max_seconds: Option<f64>,
) -> impl Fn() -> Box<dyn Watch + Send + 'c> + Sync + 'c {
    move || Box::new(TimeLimit::new(clock, max_seconds))
}

impl ProveLimits {
    /// The searches of a batch within these limits, each watched by a
    /// watch `watches` makes.
    pub fn batch<'a, 'w>(&self, watches: &'a WatchMaker<'w>) -> Batch<'a, 'w> {
        Batch {
            table_bytes: self.table_bytes,
            limits: self.limits,
            watch: watches,
        }
    }
}

/// A position as one line: its rows joined by `/`, each row's seeds by
/// `.` (row 1 first, as a rules string writes a layout), and the player
/// to move.
pub fn position_line(rules: &Rules, pos: &Position) -> String {
    let rows: Vec<String> = board_rows(rules, pos)
        .iter()
        .map(|r| r.iter().map(u16::to_string).collect::<Vec<_>>().join("."))
        .collect();
    let mover = match pos.to_move() {
        crate::rules::Player::South => "South",
        crate::rules::Player::North => "North",
    };
    format!("{}, {mover} to move", rows.join("/"))
}

/// Tells `note` how far `done` of `total` items are, about every twentieth.
pub fn progress(note: &(dyn Fn(&str) + Sync), what: &str, done: usize, total: usize) {
    let step = total.div_ceil(20).max(1);
    if done.is_multiple_of(step) || done == total {
        note(&format!("{what}: {done} of {total} valued"));
    }
}

/// The rows of the folder's file `name` (`command` writes it there),
/// refused before any search when the file is not katro's or does not
/// read; none when it is not there yet.
pub fn old_rows<T>(
    store: &dyn Store,
    dir: &Path,
    name: &str,
    command: &str,
    read: fn(&[u8]) -> Result<Vec<T>, LineError>,
) -> Result<Vec<T>, Error> {
    let what = format!("{command} into {}", dir.display());
    Folder::open(store, dir).check(&[name.to_string()], &what)?;
    let path = dir.join(name);
    let Some(bytes) = read_optional(store, &path)? else {
        return Ok(Vec::new());
    };
    Ok(read(&bytes).map_err(|error| Refusal::UnreadableCsv { path, error })?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_out_of_range_are_refused_naming_the_flag() {
        let ok = ProveFlags::default().check().unwrap();
        assert_eq!(ok.table_bytes, 1 << 28);
        assert_eq!(ok.limits.max_nodes, Some(DEFAULT_MAX_NODES));
        for (flags, flag) in [
            (
                ProveFlags {
                    max_gib: 0.0,
                    ..ProveFlags::default()
                },
                "--max-memory",
            ),
            (
                ProveFlags {
                    max_seconds: Some(-1.0),
                    ..ProveFlags::default()
                },
                "--max-seconds",
            ),
            (
                ProveFlags {
                    max_depth: 0,
                    ..ProveFlags::default()
                },
                "--max-depth",
            ),
            (
                ProveFlags {
                    max_depth: MOST_DEPTH + 1,
                    ..ProveFlags::default()
                },
                "--max-depth",
            ),
            (
                ProveFlags {
                    max_nodes: 0,
                    ..ProveFlags::default()
                },
                "--max-nodes",
            ),
        ] {
            let e = flags.check().unwrap_err();
            assert_eq!(e.kind().exit_code(), 2);
            assert!(e.to_string().starts_with(flag), "{e}");
        }
    }
}
