//! `katro prove-openings VARIANT --plies 1,2,4` (docs/SOLVED.md, "Openings
//! under perfect play"): every opening of k uniformly random plies, with
//! its exact probability (`solve::openings`), each position valued by
//! proof search instead of a solved table: the first player's share under
//! perfect play over them, as strength-curve.csv's `limit` counts it, or
//! the interval the unproven positions leave; openings.csv.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::experiment::runner::{Part, Progress};
use crate::files::certificate::position_text;
use crate::files::nearby::stop_word;
use crate::files::opening_positions::{
    OPENING_POSITIONS, PositionRow, opening_positions_csv, read_opening_positions,
};
use crate::files::openings::{OPENINGS, OpeningsRow, openings_csv, read_openings};
use crate::rules::Rules;
use crate::solve::openings::{OpeningPositions, ProvedShare};
use crate::solve::prove::{Batch, Outcome, Searched, Stop, Watch};
use crate::store::Store;

use super::clock::Clock;
use super::out_folder::{check_out_writable, lock_folder};
use super::prove_batch::{ProveFlags, ProveLimits, old_rows, position_line, progress, time_limits};
use super::{Error, Refusal, load_variant, write_outputs};

/// The most distinct opening positions of one number of plies.
pub const MAX_OPENINGS: usize = 1 << 22;

/// What `katro prove-openings` is asked to do.
#[derive(Clone, Debug)]
pub struct OpeningsOptions {
    /// A preset name or a variant file.
    pub variant: String,
    /// The numbers of random plies, each a row.
    pub plies: Vec<u32>,
    /// The lap limit to play under instead of the variant's (a run's
    /// `lap_limit`, so that the rules match its summary.csv's).
    pub lap_limit: Option<u64>,
    /// The folder openings.csv is written in.
    pub out: String,
    pub flags: ProveFlags,
}

/// What `katro prove-openings` found.
pub struct OpeningsOutcome {
    pub rows: Vec<OpeningsRow>,
    /// Where openings.csv was written.
    pub file: std::path::PathBuf,
    /// The summary `katro` prints.
    pub text: String,
}

/// Values every opening of each number of plies, each distinct position
/// in play once with a fresh prover within the limits, in parallel on the
/// current rayon pool, and writes openings.csv into the out folder,
/// keeping its rows of other variants, rules or plies. Each position's
/// search is written to opening-positions.csv as it ends, and a position
/// that file already holds under the same variant, rules and limits is
/// taken from it instead of searched again (unless the clock stopped its
/// search): an interrupted run resumes. Both files are the same for any
/// thread count and any resumption, unless `--max-seconds` stopped a
/// search.
pub fn prove_openings(
    store: &dyn Store,
    o: &OpeningsOptions,
    clock: &dyn Clock,
    note: &(dyn Fn(&str) + Sync),
) -> Result<OpeningsOutcome, Error> {
    let rules = load_variant(store, &o.variant)?
        .with_limits(None, o.lap_limit)
        .map_err(Refusal::Limits)?;
    let p = o.flags.check()?;
    let mut plies: Vec<u32> = Vec::new();
    for &k in &o.plies {
        if !plies.contains(&k) {
            plies.push(k);
        }
    }
    let dir = Path::new(&o.out);
    check_out_writable(store, dir, Some(format!("--out {}", o.out)))?;
    let _lock = lock_folder(store, &Notes(note), dir, Part::Whole, &command(o))?;
    let what = "katro prove-openings";
    let old = old_rows(store, dir, OPENINGS, what, read_openings)?;
    let old_positions = old_rows(store, dir, OPENING_POSITIONS, what, read_opening_positions)?;
    let refused = |plies: u32, error| Refusal::Openings {
        variant: rules.name().to_string(),
        plies,
        error,
    };
    let positions = OpeningPositions::new(&rules, &plies, MAX_OPENINGS)
        .map_err(|e| refused(*plies.last().unwrap_or(&0), e))?;
    let blank: Vec<PositionRow> = positions
        .distinct()
        .iter()
        .map(|pos| PositionRow {
            variant: rules.name().to_string(),
            rules: rules.canonical_string(),
            position: position_text(&rules, pos),
            outcome: Outcome::Unknown(0),
            stopped: None,
            nodes: 0,
            max_depth: p.limits.max_depth,
            max_nodes: p.limits.max_nodes,
            table_bytes: p.table_bytes,
        })
        .collect();
    let state = Mutex::new(Journal::new(old_positions, &blank));
    let total = blank.len();
    let todo: Vec<usize> = {
        let st = state.lock().expect("not poisoned");
        (0..total).filter(|i| !st.done.contains_key(i)).collect()
    };
    note(&format!(
        "{}: openings of {} plies, {total} positions in play ({} taken over from {}), each \
         searched with a table of {} MiB, to depth {}, {} nodes{}",
        rules.name(),
        plies
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        total - todo.len(),
        dir.join(OPENING_POSITIONS).display(),
        p.table_bytes >> 20,
        p.limits.max_depth,
        p.limits.max_nodes.map_or("any".into(), |n| n.to_string()),
        o.flags
            .max_seconds
            .map_or(String::new(), |s| format!(", {s} s"))
    ));
    // After a failed write, every search still to come stops at once: its
    // result could not be kept.
    let time = time_limits(clock, o.flags.max_seconds);
    let watch = || -> Box<dyn Watch + Send + '_> {
        if state.lock().expect("not poisoned").error.is_some() {
            Box::new(StopNow)
        } else {
            time()
        }
    };
    let done = AtomicUsize::new(total - todo.len());
    let progress_what = format!("{}: opening positions", rules.name());
    let batch = Batch {
        watch: &watch,
        ..p.batch(&time)
    };
    batch.prove_all(&todo, |&i| (&rules, positions.distinct()[i]), &|&i, s| {
        let mut st = state.lock().expect("not poisoned");
        if st.error.is_some() {
            return;
        }
        st.record(i, &blank[i], s);
        if let Err(e) = write_outputs(store, dir, &[(OPENING_POSITIONS, &st.csv())]) {
            st.error = Some(e);
            return;
        }
        drop(st);
        progress(
            note,
            &progress_what,
            done.fetch_add(1, Ordering::Relaxed) + 1,
            total,
        );
    });
    let mut st = state.into_inner().expect("no thread panicked holding it");
    if let Some(e) = st.error.take() {
        return Err(e);
    }
    let searched: Vec<Searched> = (0..total).map(|i| st.searched(i)).collect();
    let proved = positions
        .shares(&rules, &searched)
        .map_err(|e| refused(*plies.last().unwrap_or(&0), e))?;
    let rows: Vec<OpeningsRow> = proved.iter().map(|s| row(&rules, s, &p)).collect();
    let all = merged(old, &rows);
    write_outputs(
        store,
        dir,
        &[
            (OPENINGS, &openings_csv(&all)),
            (OPENING_POSITIONS, &st.csv()),
        ],
    )?;
    let file = dir.join(OPENINGS);
    let text = summary(&rules, &proved, &rows, &file);
    Ok(OpeningsOutcome { rows, file, text })
}

/// The command a lock file names.
fn command(o: &OpeningsOptions) -> Vec<String> {
    let plies: Vec<String> = o.plies.iter().map(u32::to_string).collect();
    vec![
        "katro".into(),
        "prove-openings".into(),
        o.variant.clone(),
        "--plies".into(),
        plies.join(","),
        "--out".into(),
        o.out.clone(),
    ]
}

/// The notes a folder's lock tells, passed on.
struct Notes<'a>(&'a (dyn Fn(&str) + Sync));

impl Progress for Notes<'_> {
    fn note(&self, text: &str) {
        (self.0)(text)
    }
}

/// A watch that stops a search before it begins.
struct StopNow;

impl Watch for StopNow {
    fn should_stop(&mut self, _nodes: u64) -> bool {
        true
    }
}

/// opening-positions.csv as this run keeps it: the rows of other
/// searches as they were, and this run's positions by their index, those
/// taken over and those searched so far.
struct Journal {
    /// Rows of other variants, rules or limits, or of positions this run
    /// does not reach, in their order.
    others: Vec<PositionRow>,
    done: BTreeMap<usize, PositionRow>,
    error: Option<Error>,
}

impl Journal {
    /// Takes over the rows of `old` that stand for a position of
    /// `blank` (this run's positions, in order), except those the clock
    /// stopped: time is not a limit a later run repeats.
    fn new(old: Vec<PositionRow>, blank: &[PositionRow]) -> Journal {
        let index: HashMap<&str, usize> = blank
            .iter()
            .enumerate()
            .map(|(i, r)| (r.position.as_str(), i))
            .collect();
        let mut j = Journal {
            others: Vec::new(),
            done: BTreeMap::new(),
            error: None,
        };
        for r in old {
            let mine = index
                .get(r.position.as_str())
                .copied()
                .filter(|&i| blank[i].same_search(&r));
            match mine {
                Some(i) if r.stopped != Some(Stop::Watch) && !j.done.contains_key(&i) => {
                    j.done.insert(i, r);
                }
                // Searched again, its row replaced.
                Some(_) => {}
                None => j.others.push(r),
            }
        }
        j
    }

    /// Position `i` (`blank` before its search) searched as `s`.
    fn record(&mut self, i: usize, blank: &PositionRow, s: &Searched) {
        let row = PositionRow {
            outcome: s.outcome,
            stopped: s.stop,
            nodes: s.nodes,
            ..blank.clone()
        };
        self.done.insert(i, row);
    }

    /// Position `i`'s search; every position is done when this is asked.
    fn searched(&self, i: usize) -> Searched {
        let r = &self.done[&i];
        Searched {
            outcome: r.outcome,
            stop: r.stopped,
            nodes: r.nodes,
        }
    }

    fn csv(&self) -> Vec<u8> {
        let rows: Vec<PositionRow> = self
            .others
            .iter()
            .chain(self.done.values())
            .cloned()
            .collect();
        opening_positions_csv(&rows)
    }
}

/// openings.csv's row of one number of plies.
fn row(rules: &Rules, s: &ProvedShare, p: &ProveLimits) -> OpeningsRow {
    let mut stopped = [0; 3];
    for (_, searched) in &s.unknown {
        let i = match searched.stop {
            Some(Stop::Depth) => 0,
            Some(Stop::Nodes) => 1,
            Some(Stop::Watch) | None => 2,
        };
        stopped[i] += 1;
    }
    OpeningsRow {
        variant: rules.name().to_string(),
        rules: rules.canonical_string(),
        plies: s.plies,
        share: s.share,
        bound: s.unknown.iter().filter_map(|(_, x)| bound(x)).min(),
        nodes: s.nodes,
        stopped,
        max_depth: p.limits.max_depth,
        max_nodes: p.limits.max_nodes,
        table_bytes: p.table_bytes,
    }
}

fn bound(s: &Searched) -> Option<u32> {
    match s.outcome {
        Outcome::Unknown(d) => Some(d),
        _ => None,
    }
}

/// `old` with each row of `new` in place of the old row of the same
/// variant, rules and plies, or after the rest.
fn merged(old: Vec<OpeningsRow>, new: &[OpeningsRow]) -> Vec<OpeningsRow> {
    let same = |a: &OpeningsRow, b: &OpeningsRow| {
        a.variant == b.variant && a.rules == b.rules && a.plies == b.plies
    };
    let mut out: Vec<OpeningsRow> = old;
    for r in new {
        match out.iter_mut().find(|o| same(o, r)) {
            Some(o) => *o = r.clone(),
            None => out.push(r.clone()),
        }
    }
    out
}

/// What `katro prove-openings` prints: a line for each number of plies,
/// and every unknown position with its probability, so that a larger
/// budget can be aimed at them.
fn summary(rules: &Rules, proved: &[ProvedShare], rows: &[OpeningsRow], file: &Path) -> String {
    let mut t = String::new();
    for (s, r) in proved.iter().zip(rows) {
        let sh = &s.share;
        let value = match (sh.p1_decided_share(), sh.p1_share_bounds()) {
            (Some(x), _) => format!("the first player's share {x:.6} exactly"),
            (None, Some((lo, hi))) => format!(
                "the first player's share {lo:.6} (every unknown lost) to {hi:.6} (every \
                 unknown won)"
            ),
            (None, None) => "every opening drawn".into(),
        };
        t.push_str(&format!(
            "{}, {}: {} positions, {} proven, {} unknown (probability {:.6}{}); {value}; \
             {} nodes\n",
            rules.name(),
            crate::engine::notation::plural(s.plies, "ply", "plies"),
            sh.openings,
            sh.openings - sh.unknown_openings,
            sh.unknown_openings,
            sh.unknown.to_f64(),
            r.bound
                .map_or(String::new(), |b| format!(", none proven within {b}")),
            s.nodes
        ));
        for (o, x) in &s.unknown {
            t.push_str(&format!(
                "  unknown: {} (probability {}/{}): no forced win within {}, stopped by {}\n",
                position_line(rules, &o.position),
                o.probability.num,
                o.probability.den,
                bound(x).unwrap_or(0),
                x.stop.map_or("", stop_word)
            ));
        }
    }
    t.push_str(&format!("wrote {}\n", file.display()));
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::clock::SystemClock;
    use crate::store::MemoryStore;

    fn options(plies: &[u32]) -> OpeningsOptions {
        OpeningsOptions {
            variant: "katro-4x4".into(),
            plies: plies.to_vec(),
            lap_limit: Some(10_000),
            out: "out".into(),
            flags: ProveFlags {
                max_gib: 0.02,
                ..ProveFlags::default()
            },
        }
    }

    /// Runs the job into `store`'s folder `out` on `threads` threads; the
    /// notes it told, and the two files.
    fn run(store: &MemoryStore, plies: &[u32], threads: usize) -> (String, Vec<u8>, Vec<u8>) {
        let notes = Mutex::new(String::new());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            prove_openings(store, &options(plies), &SystemClock::new(), &|t| {
                notes.lock().unwrap().push_str(&format!("{t}\n"))
            })
        })
        .unwrap();
        let read = |name| store.read(&Path::new("out").join(name)).unwrap();
        (
            notes.into_inner().unwrap(),
            read(OPENINGS),
            read(OPENING_POSITIONS),
        )
    }

    /// `--max-seconds` is the job's, on the clock it is given: with a
    /// clock that moves a second a reading and a half-second limit, the
    /// start of katro-4x4 (a win in 17, about 100,000 nodes) stops by time
    /// at the first watch (16,384 nodes), and its row says so.
    #[test]
    fn each_search_stops_at_the_options_time_limit_on_the_clock_given() {
        use crate::jobs::clock::FakeClock;
        let store = MemoryStore::new();
        let mut o = options(&[0]);
        o.flags.max_seconds = Some(0.5);
        let out = prove_openings(&store, &o, &FakeClock::new(1.0), &|_| {}).unwrap();
        let row = &out.rows[0];
        assert_eq!((row.plies, row.stopped), (0, [0, 0, 1]), "{}", out.text);
        let positions = rows(
            &store
                .read(&Path::new("out").join(OPENING_POSITIONS))
                .unwrap(),
        );
        assert_eq!(positions[0].stopped, Some(Stop::Watch), "{}", out.text);
    }

    fn rows(bytes: &[u8]) -> Vec<PositionRow> {
        read_opening_positions(bytes).unwrap()
    }

    /// What an interrupted run leaves: the positions file with its first
    /// `n` rows, as katro writes it, and no openings.csv.
    fn interrupted(all: &[u8], n: usize) -> MemoryStore {
        let store = MemoryStore::new();
        let kept = opening_positions_csv(&rows(all)[..n]);
        write_outputs(&store, Path::new("out"), &[(OPENING_POSITIONS, &kept)]).unwrap();
        store
    }

    #[test]
    fn every_position_in_play_is_written_once_with_its_search() {
        let (_, openings, positions) = run(&MemoryStore::new(), &[0, 1], 2);
        let rows = rows(&positions);
        // The start and the four positions after each first move.
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[0].position, "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S . . .");
        assert_eq!(rows[0].outcome, Outcome::Win(17));
        let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
        let read = read_openings(&openings).unwrap();
        assert_eq!(read.iter().map(|r| r.nodes).sum::<u64>(), nodes);
        assert!(rows.iter().all(|r| r.rules == read[0].rules));
    }

    #[test]
    fn an_interrupted_run_resumes_to_the_same_files_on_any_thread_count() {
        let (_, openings, positions) = run(&MemoryStore::new(), &[0, 1], 1);
        for (n, threads) in [(0, 2), (2, 1), (2, 2), (4, 2), (5, 1)] {
            let store = interrupted(&positions, n);
            let (notes, o, p) = run(&store, &[0, 1], threads);
            assert_eq!(o, openings, "{n} rows kept, {threads} threads");
            assert_eq!(p, positions, "{n} rows kept, {threads} threads");
            assert!(
                notes.contains(&format!("5 positions in play ({n} taken over")),
                "{notes}"
            );
        }
    }

    #[test]
    fn a_kept_row_is_taken_over_not_searched_again_unless_the_clock_stopped_it() {
        let (_, _, positions) = run(&MemoryStore::new(), &[0, 1], 2);
        let mut kept = rows(&positions);
        kept[1].nodes += 1;
        kept[2].outcome = Outcome::Unknown(3);
        kept[2].stopped = Some(Stop::Watch);
        let store = MemoryStore::new();
        let bytes = opening_positions_csv(&kept);
        write_outputs(&store, Path::new("out"), &[(OPENING_POSITIONS, &bytes)]).unwrap();
        let (notes, _, p) = run(&store, &[0, 1], 2);
        assert!(notes.contains("(4 taken over"), "{notes}");
        let again = rows(&p);
        assert_eq!(again[1].nodes, kept[1].nodes, "taken over as it was");
        assert_eq!(again[2], rows(&positions)[2], "searched again");
    }

    #[test]
    fn rows_of_other_searches_are_kept_and_other_limits_are_searched_again() {
        let store = MemoryStore::new();
        let (_, _, one) = run(&store, &[1], 2);
        let (notes, _, both) = run(&store, &[0, 1], 2);
        // The four positions after one ply come first in the first run;
        // the second takes them over and orders them after the start.
        assert!(
            notes.contains("5 positions in play (4 taken over"),
            "{notes}"
        );
        let (_, _, fresh) = run(&MemoryStore::new(), &[0, 1], 2);
        assert_eq!(both, fresh);
        assert_eq!(rows(&one)[..], rows(&fresh)[1..]);
        // Another node budget is another search: the old rows stay, first.
        let mut o = options(&[1]);
        o.flags.max_nodes = 5_000;
        prove_openings(&store, &o, &SystemClock::new(), &|_| {}).unwrap();
        let all = rows(
            &store
                .read(&Path::new("out").join(OPENING_POSITIONS))
                .unwrap(),
        );
        assert_eq!(all.len(), 9);
        assert_eq!(all[..5], rows(&fresh)[..]);
        assert!(all[5..].iter().all(|r| r.max_nodes == Some(5_000)));
    }
}
