//! `katro prove-family` (docs/SOLVED.md, "The proved family"): the start
//! and every first move of each board of a family valued by the prover
//! (`solve::prove`), within fixed limits a search, into proved.csv; the
//! boards of experiments/boards.toml, the single readings of
//! experiments/readings.toml on 6×6 and on 4×4, and on request the boards
//! solve-family solved (`boards`). Resumable, cut into shards that
//! `--merge` puts together (`merge`), and checked against solved.csv by
//! `--check-solved` (`check`); every file written whole through the
//! [`Store`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::engine::notation::move_name;
use crate::experiment::runner::Part;
use crate::files::BUILD;
use crate::files::proved::{
    BoardKey, FamilyId, MoveValue, PROVED_CSV, PROVED_SVG, ProveLimits, ProvedManifest, ProvedRow,
    ProvedTime, ShardPart, Stopped, header, is_proved_csv, read_rows, shard_names,
};
use crate::pictures::proved_grid::proved_svg;
use crate::solve::prove::{Limits, Outcome, Prover, Stop};
use crate::store::Store;

use super::clock::Clock;
use super::out_folder::{check_out_writable, lock_folder};
use super::owned::Folder;
use super::prove_batch::TimeLimit;
use super::solve::{check_seconds, max_bytes};
use super::{Damage, Error, Failure, Progress, Refusal, read_optional};

mod boards;
mod check;
mod merge;

pub use boards::{Board, DEFAULT_SETS, Only, SETS, family, parse_only, parse_sets};
use boards::{boards_hash, read_solved};
pub use check::{Agreement, CheckOptions, agreement, check_solved};
pub use merge::merge_proved;

pub const DEFAULT_OUT: &str = "results/proved";
pub const DEFAULT_SOLVED: &str = "results/solved/solved.csv";
pub const DEFAULT_MAX_GIB: f64 = 1.0;
pub const DEFAULT_MAX_NODES: u64 = 10_000_000;
pub const DEFAULT_MAX_DEPTH: u32 = 100;
/// The deepest `--max-depth`: the prover's table holds bounds in 16 bits.
pub const MAX_DEPTH: u32 = 10_000;

/// What `katro prove-family` is asked to do.
#[derive(Clone, Debug)]
pub struct ProveOptions {
    /// The output folder.
    pub out: String,
    /// The table of each board's searches, in GiB.
    pub max_gib: f64,
    /// Nodes each search may spend: the start's, and each first move's.
    pub max_nodes: u64,
    /// The deepest bound tried, in decisions.
    pub max_depth: u32,
    /// Wall seconds for a board's searches together.
    pub max_seconds: Option<f64>,
    /// The sets, comma-separated (see [`SETS`]).
    pub sets: String,
    /// Only the boards with these values: `rows=4,holes=3`, `reading=...`.
    pub only: Option<String>,
    /// solve-family's solved.csv: the `solved-family` set's boards, and
    /// what `--check-solved` compares with.
    pub solved: String,
    /// (I, N) for shard I of N.
    pub shard: Option<(u64, u64)>,
    /// The command line, for the manifest.
    pub command: String,
}

impl ProveOptions {
    /// The options of a whole family into `out`, with katro's defaults.
    pub fn new(out: impl Into<String>) -> ProveOptions {
        ProveOptions {
            out: out.into(),
            max_gib: DEFAULT_MAX_GIB,
            max_nodes: DEFAULT_MAX_NODES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_seconds: None,
            sets: DEFAULT_SETS.to_string(),
            only: None,
            solved: DEFAULT_SOLVED.to_string(),
            shard: None,
            command: String::new(),
        }
    }
}

/// The limits every search gets, checked.
fn check_limits(o: &ProveOptions) -> Result<ProveLimits, Error> {
    max_bytes(o.max_gib)?;
    check_seconds(o.max_seconds)?;
    if o.max_nodes == 0 {
        return Err(Refusal::FlagValue {
            flag: "--max-nodes",
            value: "0".into(),
            want: "give the nodes a search may spend, 1 or more".into(),
        }
        .into());
    }
    if !(1..=MAX_DEPTH).contains(&o.max_depth) {
        return Err(Refusal::FlagValue {
            flag: "--max-depth",
            value: o.max_depth.to_string(),
            want: format!("give the deepest bound searched, in decisions, from 1 to {MAX_DEPTH}"),
        }
        .into());
    }
    Ok(ProveLimits {
        max_memory_gib: o.max_gib,
        max_nodes: o.max_nodes,
        max_depth: o.max_depth,
        max_seconds: o.max_seconds,
    })
}

/// The family asked for, and who it is: its boards and identity.
fn family_of(o: &ProveOptions, store: &dyn Store) -> Result<(Vec<Board>, FamilyId), Error> {
    let limits = check_limits(o)?;
    let sets = parse_sets(&o.sets)?;
    let only = o.only.as_deref().map(parse_only).transpose()?;
    let solved = if sets.contains(&"solved-family") {
        Some(read_solved(store, &o.solved)?)
    } else {
        None
    };
    let boards = family(
        &sets,
        only.as_deref().unwrap_or_default(),
        solved.as_deref(),
    )?;
    if boards.is_empty() {
        return Err(Refusal::FlagValue {
            flag: "--only",
            value: o.only.clone().unwrap_or_default(),
            want: format!("no board of the sets {} has these values", sets.join(", ")),
        }
        .into());
    }
    let id = FamilyId {
        katro_build: BUILD.to_string(),
        limits,
        sets: sets.iter().map(|s| s.to_string()).collect(),
        only: o.only.clone(),
        boards_total: boards.len(),
        boards_hash: boards_hash(&boards),
    };
    Ok((boards, id))
}

/// How two families differ, in words: `other limits (--max-nodes 5 here,
/// 10 there)`.
fn differences(there: &FamilyId, here: &FamilyId) -> String {
    let mut out = Vec::new();
    let (a, b) = (&there.limits, &here.limits);
    let mut flag = |name: &str, t: String, h: String| {
        if t != h {
            out.push(format!("{name} {t} there, {h} here"));
        }
    };
    flag(
        "--max-memory",
        a.max_memory_gib.to_string(),
        b.max_memory_gib.to_string(),
    );
    flag(
        "--max-nodes",
        a.max_nodes.to_string(),
        b.max_nodes.to_string(),
    );
    flag(
        "--max-depth",
        a.max_depth.to_string(),
        b.max_depth.to_string(),
    );
    let secs = |s: Option<f64>| s.map_or("none".to_string(), |s| s.to_string());
    flag("--max-seconds", secs(a.max_seconds), secs(b.max_seconds));
    flag("--sets", there.sets.join(","), here.sets.join(","));
    let only = |o: &Option<String>| o.clone().unwrap_or_else(|| "none".into());
    flag("--only", only(&there.only), only(&here.only));
    flag(
        "katro build",
        there.katro_build.clone(),
        here.katro_build.clone(),
    );
    if out.is_empty() && there != here {
        out.push(format!(
            "other boards ({} there, {} here; another experiments/*.toml or solved.csv)",
            there.boards_total, here.boards_total
        ));
    }
    format!("other limits, boards or build: {}", out.join("; "))
}

/// Where a run writes: the whole family's files or a shard's.
struct Place<'a> {
    store: &'a dyn Store,
    dir: PathBuf,
    part: Option<ShardPart>,
    csv: PathBuf,
    json: PathBuf,
}

impl<'a> Place<'a> {
    fn new(store: &'a dyn Store, dir: &Path, part: Option<ShardPart>) -> Place<'a> {
        let (csv, json) = match part {
            None => (dir.join(PROVED_CSV), dir.join("manifest.json")),
            Some(p) => {
                let (c, j) = shard_names(p);
                (dir.join("shards").join(c), dir.join("shards").join(j))
            }
        };
        Place {
            store,
            dir: dir.to_path_buf(),
            part,
            csv,
            json,
        }
    }

    /// What a refusal asks to move away.
    fn files(&self) -> String {
        format!("{} and {}", self.csv.display(), self.json.display())
    }

    /// Refuses files at this place's names that `katro prove-family` did
    /// not write, or that were changed since it did.
    fn check_ours(&self) -> Result<(), Error> {
        let ours = |path: &Path, is: fn(&[u8]) -> bool| -> Result<(), Error> {
            match read_optional(self.store, path)? {
                Some(b) if !is(&b) => Err(Refusal::NotProveFamilyFile {
                    path: path.to_path_buf(),
                }
                .into()),
                _ => Ok(()),
            }
        };
        ours(&self.csv, is_proved_csv)?;
        ours(&self.json, ProvedManifest::is_ours)?;
        if self.part.is_none() {
            Folder::open(self.store, &self.dir).check(
                &[PROVED_CSV.into(), "manifest.json".into(), PROVED_SVG.into()],
                &format!("katro prove-family --out {}", self.dir.display()),
            )?;
        }
        Ok(())
    }

    /// The rows and manifest of an earlier run of this family here;
    /// `None` when there is none. A run of another family is refused.
    fn earlier(&self, id: &FamilyId) -> Result<Option<(Vec<ProvedRow>, ProvedManifest)>, Error> {
        let Some(bytes) = read_optional(self.store, &self.json)? else {
            return Ok(None);
        };
        let m = ProvedManifest::parse(&bytes).map_err(|reason| Damage::ProvedManifest {
            path: self.json.clone(),
            reason,
        })?;
        if m.family != *id || m.shard != self.part {
            return Err(Refusal::ProveFamilyOther {
                manifest: self.json.clone(),
                files: self.files(),
                differs: differences(&m.family, id),
            }
            .into());
        }
        let Some(bytes) = read_optional(self.store, &self.csv)? else {
            return Ok(None);
        };
        let rows = read_csv(&self.csv, bytes)?;
        Ok(Some((rows, m)))
    }

    /// Writes the CSV, the manifest and, for a whole family, its chart.
    fn write(
        &self,
        csv: String,
        manifest: &ProvedManifest,
        svg: Option<String>,
    ) -> Result<(), Error> {
        let json = manifest.to_bytes();
        match self.part {
            None => {
                let mut files = vec![(PROVED_CSV.to_string(), csv.into_bytes())];
                if let Some(svg) = svg {
                    files.push((PROVED_SVG.to_string(), svg.into_bytes()));
                }
                files.push(("manifest.json".to_string(), json));
                Folder::open(self.store, &self.dir).write(
                    &files,
                    &format!("katro prove-family --out {}", self.dir.display()),
                )
            }
            // Shards on several machines share the folder: they are known
            // by their header and manifest, not the ledger (as `katro run`'s).
            Some(_) => {
                let shards = self.dir.join("shards");
                self.store
                    .create_dir_all(&shards)
                    .map_err(|error| Failure::Create {
                        path: shards.clone(),
                        error,
                    })?;
                for (path, bytes) in [(&self.csv, csv.as_bytes()), (&self.json, &json[..])] {
                    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    self.store
                        .write_atomic(&shards, name, bytes)
                        .map_err(|error| Failure::Write {
                            path: path.clone(),
                            error,
                        })?;
                }
                Ok(())
            }
        }
    }
}

/// The rows of the proved.csv at `path`, whose bytes are `bytes`.
fn read_csv(path: &Path, bytes: Vec<u8>) -> Result<Vec<ProvedRow>, Error> {
    let damaged = |line, reason: String| Damage::ProvedCsv {
        path: path.to_path_buf(),
        error: crate::files::proved::ProvedCsvError { line, reason },
    };
    let text = String::from_utf8(bytes).map_err(|_| damaged(1, "not UTF-8 text".into()))?;
    Ok(read_rows(&text).map_err(|error| Damage::ProvedCsv {
        path: path.to_path_buf(),
        error,
    })?)
}

/// Values one board: the start, then every first move, on one prover (so
/// the moves are searched with what the start's search found), each
/// search within `limits`, all of them within the board's seconds on
/// `clock`. The row, and the seconds it took.
pub fn prove_board(board: &Board, limits: &ProveLimits, clock: &dyn Clock) -> (ProvedRow, f64) {
    let table = max_bytes(limits.max_memory_gib).expect("checked with the options");
    let mut prover = Prover::new(&board.rules, table);
    let lim = Limits {
        max_depth: limits.max_depth,
        max_nodes: Some(limits.max_nodes),
    };
    // One limit for the board: the start's search and every move's.
    let mut watch = TimeLimit::new(clock, limits.max_seconds);
    let start = board.rules.start();
    let s = prover.value(&start, lim, &mut watch);
    let moves = prover
        .move_values(&start, lim, &mut watch)
        .into_iter()
        .map(|(mv, m)| MoveValue {
            name: move_name(&board.rules, mv),
            value: m.outcome,
        })
        .collect();
    let stopped = match s.stop {
        _ if watch.hit => Some(Stopped::Time),
        Some(Stop::Depth) => Some(Stopped::Depth),
        Some(Stop::Nodes) => Some(Stopped::Nodes),
        Some(Stop::Watch) => Some(Stopped::Time),
        None => None,
    };
    let row = ProvedRow {
        key: board.key(),
        value: s.outcome,
        moves,
        nodes: prover.nodes(),
        stopped,
    };
    (row, watch.elapsed())
}

/// A board done: its row and its time.
struct Done {
    row: ProvedRow,
    time: ProvedTime,
}

/// What a run has done so far, shared by the threads proving boards.
struct State {
    done: BTreeMap<usize, Done>,
    manifest: ProvedManifest,
    /// The first write that failed: the other threads stop.
    error: Option<Error>,
}

impl State {
    /// The CSV of the boards done, in the family's order.
    fn csv(&self) -> String {
        let mut csv = header();
        for d in self.done.values() {
            csv.push_str(&d.row.line());
        }
        csv
    }

    /// The manifest as it stands: counts and times of the boards done.
    fn manifest(&mut self, seconds: f64, peak_rss: Option<u64>) -> ProvedManifest {
        let m = &mut self.manifest;
        (m.boards_done, m.wins, m.losses, m.unknown, m.draws) = (0, 0, 0, 0, 0);
        m.times.clear();
        for d in self.done.values() {
            m.count(d.row.value);
            m.times.push(d.time.clone());
        }
        m.seconds = seconds;
        m.peak_rss_bytes = peak_rss;
        m.clone()
    }
}

/// A board's time for the manifest.
fn time_of(k: &BoardKey, seconds: f64) -> ProvedTime {
    ProvedTime {
        set: k.set.clone(),
        reading: k.reading.clone(),
        rows: k.rows,
        holes: k.holes,
        seeds: k.seeds,
        seconds,
    }
}

/// What a row says of the start, for progress: `win in 25 for player 1`.
fn start_words(v: Outcome) -> String {
    match v {
        Outcome::Unknown(d) => format!("unknown within {d}"),
        v => format!("{v} for player 1"),
    }
}

/// `katro prove-family [--out DIR] [--shard I/N] [limits]`: proves every
/// board of the family (or of shard I of N: boards I, I + N, ...) that
/// the output files do not hold yet, each on one thread of the current
/// pool, writing the CSV and manifest after every board and, for a whole
/// family, its chart at the end. Returns what to print.
pub fn prove_family(
    o: &ProveOptions,
    store: &dyn Store,
    clock: &dyn Clock,
    progress: &dyn Progress,
    peak_rss: &(dyn Fn() -> Option<u64> + Sync),
) -> Result<String, Error> {
    let t0 = clock.seconds();
    let (boards, id) = family_of(o, store)?;
    let dir = Path::new(&o.out);
    check_out_writable(store, dir, Some(format!("--out {}", o.out)))?;
    let part = o.shard.map(|(index, count)| ShardPart { index, count });
    let command = std::slice::from_ref(&o.command);
    let _lock = lock_folder(store, progress, dir, lock_part(part), command)?;
    let place = Place::new(store, dir, part);
    place.check_ours()?;
    let (state, todo, was_complete) = resume(o, &place, &id, &boards, progress)?;
    if todo.is_empty() && was_complete {
        return Ok(format!(
            "{} is already complete under these limits ({}); nothing written\n",
            place.csv.display(),
            state.manifest.tally()
        ));
    }
    let state = Mutex::new(state);
    let timing = Timing {
        clock,
        t0,
        peak_rss,
    };
    prove_all(
        &boards, &todo, &id.limits, &place, &state, progress, &timing,
    );
    let state = state.into_inner().expect("no thread panicked holding it");
    finish(o, &place, state, timing.now())
}

/// The run's state with the rows of an earlier run of the family at
/// `place` taken over, the boards of this run (its shard's, or all) still
/// to prove, and whether the earlier run was complete.
fn resume(
    o: &ProveOptions,
    place: &Place,
    id: &FamilyId,
    boards: &[Board],
    progress: &dyn Progress,
) -> Result<(State, Vec<usize>, bool), Error> {
    let part = place.part;
    let mine: Vec<usize> = (0..boards.len())
        .filter(|i| part.is_none_or(|p| *i as u64 % p.count == p.index - 1))
        .collect();
    let mut state = State {
        done: BTreeMap::new(),
        manifest: ProvedManifest::new(&o.command, id.clone(), part, mine.len()),
        error: None,
    };
    let was_complete = take_over(&mut state, place.earlier(id)?, boards, &mine);
    if state.manifest.resumed > 0 {
        progress.note(&format!(
            "prove-family: {} of {} boards taken over from {}",
            state.manifest.resumed,
            mine.len(),
            place.csv.display()
        ));
    }
    let todo = mine
        .into_iter()
        .filter(|i| !state.done.contains_key(i))
        .collect();
    Ok((state, todo, was_complete))
}

/// The lock a run takes: the folder's, or its shard's.
fn lock_part(part: Option<ShardPart>) -> Part {
    part.map_or(Part::Whole, |p| Part::Shard {
        index: p.index,
        count: p.count,
    })
}

/// The files of a run whose boards are all done, complete, or the first
/// error a board's write met; what to print. `(seconds, peak_rss)` of the
/// run so far.
fn finish(
    o: &ProveOptions,
    place: &Place,
    mut state: State,
    (seconds, rss): (f64, Option<u64>),
) -> Result<String, Error> {
    if let Some(e) = state.error.take() {
        return Err(e);
    }
    let mut m = state.manifest(seconds, rss);
    m.complete = true;
    let rows: Vec<ProvedRow> = state.done.values().map(|d| d.row.clone()).collect();
    let svg = place.part.is_none().then(|| proved_svg(&rows)).flatten();
    place.write(state.csv(), &m, svg)?;
    Ok(finished_text(o, place, &m))
}

/// What a finished run tells.
fn finished_text(o: &ProveOptions, place: &Place, m: &ProvedManifest) -> String {
    match place.part {
        None => format!(
            "wrote {}, {} and {}: {}\n",
            place.csv.display(),
            place.dir.join(PROVED_SVG).display(),
            place.json.display(),
            m.tally()
        ),
        Some(p) => format!(
            "shard {}/{}: wrote {} and {}: {}\n\
             once every shard is done: katro prove-family --merge --out {}\n",
            p.index,
            p.count,
            place.csv.display(),
            place.json.display(),
            m.tally(),
            o.out
        ),
    }
}

/// Takes the earlier run's rows of boards of `mine` that its manifest has
/// a time for (a row written just before the run was killed, without its
/// manifest, is proved again); whether that run was complete.
fn take_over(
    state: &mut State,
    earlier: Option<(Vec<ProvedRow>, ProvedManifest)>,
    boards: &[Board],
    mine: &[usize],
) -> bool {
    let Some((rows, m)) = earlier else {
        return false;
    };
    let keys: Vec<(usize, BoardKey)> = mine.iter().map(|&i| (i, boards[i].key())).collect();
    for row in rows {
        let Some(&(i, _)) = keys.iter().find(|(_, k)| *k == row.key) else {
            continue;
        };
        let Some(time) = m.times.iter().find(|t| t.is_of(&row.key)) else {
            continue;
        };
        let time = time.clone();
        state.done.insert(i, Done { row, time });
    }
    state.manifest.resumed = state.done.len();
    m.complete
}

/// The run's clock: what each board is timed on, and the run's seconds
/// and peak memory so far for the manifest.
struct Timing<'a> {
    clock: &'a dyn Clock,
    t0: f64,
    peak_rss: &'a (dyn Fn() -> Option<u64> + Sync),
}

impl Timing<'_> {
    fn now(&self) -> (f64, Option<u64>) {
        (self.clock.seconds() - self.t0, (self.peak_rss)())
    }
}

/// Proves the boards `todo` on the current pool's threads, in order as
/// threads come free, adding each row to `state` and writing the files
/// after each; the first failed write stops the others.
fn prove_all(
    boards: &[Board],
    todo: &[usize],
    limits: &ProveLimits,
    place: &Place,
    state: &Mutex<State>,
    progress: &dyn Progress,
    timing: &Timing,
) {
    let next = AtomicUsize::new(0);
    let workers = rayon::current_num_threads().clamp(1, todo.len().max(1));
    let total = state.lock().expect("not poisoned").manifest.boards;
    let work = || {
        loop {
            if state.lock().expect("not poisoned").error.is_some() {
                return;
            }
            let k = next.fetch_add(1, Ordering::SeqCst);
            let Some(&i) = todo.get(k) else {
                return;
            };
            let board = &boards[i];
            let (row, seconds) = prove_board(board, limits, timing.clock);
            let mut st = state.lock().expect("not poisoned");
            let time = time_of(&row.key, seconds);
            progress.note(&format!(
                "prove-family: {}: {}, {} nodes, {seconds:.1} s [{}/{total}]",
                board.name(),
                start_words(row.value),
                row.nodes,
                st.done.len() + 1,
            ));
            st.done.insert(i, Done { row, time });
            let (seconds, rss) = timing.now();
            let m = st.manifest(seconds, rss);
            if let Err(e) = place.write(st.csv(), &m, None) {
                st.error.get_or_insert(e);
            }
        }
    };
    rayon::scope(|s| {
        for _ in 0..workers {
            s.spawn(|_| work());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::clock::SystemClock;

    #[test]
    fn the_family_is_the_experiments_boards_and_readings() {
        let boards = family(&["boards"], &[], None).unwrap();
        assert_eq!(boards.len(), 48);
        let k = boards[0].key();
        assert_eq!((k.rows, k.holes, k.seeds), (4, 3, 1));
        let k = boards[47].key();
        assert_eq!((k.rows, k.holes, k.seeds), (6, 8, 4));
        assert!(boards.iter().all(|b| b.reading == "canonical"));
        // katro-6x6's rules but the board.
        let canonical = crate::rules::preset("katro-6x6")
            .unwrap()
            .canonical_string();
        let six = boards
            .iter()
            .find(|b| b.key().rows == 6 && b.key().holes == 6);
        assert!(six.is_some_and(|b| b.key().seeds != 2 || b.rules.canonical_string() == canonical));
        for set in ["readings-6x6", "readings-4x4"] {
            let r = family(&[set], &[], None).unwrap();
            assert_eq!(r.len(), 25, "{set}");
            assert_eq!(r[0].reading, "canonical");
            assert_eq!(r[1].reading, "start=innermost-non-empty");
            assert!(r.iter().any(|b| b.reading == "min_victim_seeds=3"));
            let (rows, holes) = if set == "readings-6x6" {
                (6, 6)
            } else {
                (4, 4)
            };
            assert!(
                r.iter()
                    .all(|b| (b.key().rows, b.key().holes, b.key().seeds) == (rows, holes, 2))
            );
            // readings.toml's lowered lap limit, as its rules strings show.
            assert!(
                r.iter()
                    .all(|b| b.key().rules.contains("lap_limit=100000)"))
            );
        }
        let all = family(&SETS, &[], Some(&[])).unwrap();
        assert_eq!(all.len(), 48 + 25 + 25);
        let h = boards_hash(&all);
        assert_eq!(h, boards_hash(&family(&SETS, &[], None).unwrap()));
        assert_ne!(h, boards_hash(&boards));
    }

    #[test]
    fn only_and_sets_are_read_or_refused() {
        let only = parse_only("rows=4, holes=3").unwrap();
        let b = family(&["boards", "readings-4x4"], &only, None).unwrap();
        assert_eq!(b.len(), 4);
        let only = parse_only("reading=relay=never").unwrap();
        let b = family(&["readings-6x6", "readings-4x4"], &only, None).unwrap();
        assert_eq!(b.len(), 2);
        for bad in ["rows", "rows=x", "rows=4,rows=6", "colour=red", "reading="] {
            assert!(
                matches!(
                    parse_only(bad),
                    Err(Error::Refused(Refusal::FlagText { flag: "--only", .. }))
                ),
                "{bad}"
            );
        }
        assert_eq!(
            parse_sets("readings-4x4,boards").unwrap(),
            ["boards", "readings-4x4"]
        );
        assert!(parse_sets("boards,everything").is_err());
        assert!(parse_sets("").is_err());
    }

    #[test]
    fn a_board_is_proved_with_its_first_moves() {
        let only = parse_only("rows=4,holes=3,seeds=1").unwrap();
        let b = family(&["boards"], &only, None).unwrap();
        let limits = ProveLimits {
            max_memory_gib: 1.0 / 64.0,
            max_nodes: 1_000_000,
            max_depth: 60,
            max_seconds: None,
        };
        let (row, _) = prove_board(&b[0], &limits, &SystemClock::new());
        // 4×3 with 1 seed: a win in 25 (docs/SOLVED.md), and a fastest
        // winning move of that distance.
        assert_eq!(row.value, Outcome::Win(25));
        assert_eq!(row.stopped, None);
        let fastest = row.winning_moves().iter().map(|w| w.1).min();
        assert_eq!(fastest, Some(25));
        assert_eq!(row.moves.len(), 3);
        let (again, _) = prove_board(&b[0], &limits, &SystemClock::new());
        assert_eq!(row, again);
        // A depth too small to prove it: unknown within it.
        let shallow = ProveLimits {
            max_depth: 6,
            ..limits
        };
        let (row, _) = prove_board(&b[0], &shallow, &SystemClock::new());
        assert_eq!(row.value, Outcome::Unknown(6));
        assert_eq!(row.stopped, Some(Stopped::Depth));
    }

    /// A board's seconds are the job's to enforce, on the clock it is
    /// given: with a clock that moves a second a reading and a half-second
    /// limit, 4×4 with 2 seeds (katro-4x4's board, about 100,000 nodes)
    /// stops by time at the first watch (16,384 nodes), and says so.
    #[test]
    fn a_board_stops_at_its_seconds_on_the_clock_given() {
        use crate::jobs::clock::FakeClock;
        let only = parse_only("rows=4,holes=4,seeds=2").unwrap();
        let b = family(&["boards"], &only, None).unwrap();
        let limits = ProveLimits {
            max_memory_gib: 1.0 / 16.0,
            max_nodes: 100_000_000,
            max_depth: 60,
            max_seconds: Some(0.5),
        };
        let (row, seconds) = prove_board(&b[0], &limits, &FakeClock::new(1.0));
        assert_eq!(row.stopped, Some(Stopped::Time), "{row:?}");
        assert!(matches!(row.value, Outcome::Unknown(_)), "{row:?}");
        assert!(seconds >= 1.0, "timed on the clock given: {seconds}");
    }
}
