//! The experiment jobs behind `katro run`, `katro merge` and `katro
//! simulate --out`: read the inputs, check the output folder, play with
//! checkpoints, write the files. Everything is decided here; the files
//! are read and written through a [`Store`] (the file system is
//! [`crate::store::FsStore`]), and what a person should see goes to a
//! [`Progress`]. `katro` and any other caller (a Python binding) call
//! [`run`], [`merge`] and [`simulate`] and get the same bytes on disk.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::agents::AgentSpec;
use crate::experiment::ratings::{VariantRatings, rate};
use crate::experiment::runner::{
    self, Cell, GameRow, Layout, NoCheckpoint, Part, Rows, RunError, Stop, Work, merge_parts,
};
use crate::experiment::stats::Aggregate;
use crate::experiment::{Compare, Experiment, fingerprint, parse_experiment};
use crate::files::lengths_csv;
use crate::files::lock::LockOwner;
use crate::files::{
    BUILD, ExperimentSource, FileError, GameLine, Manifest, ManifestRead, ManifestShard, RunHeader,
    SHARD_FORMAT, ShardFile, VariantFile, comparison_csv, games_csv, other_builds, pairwise_csv,
    ratings_csv, ratings_table, skill_trace_csv, summary_csv, summary_table, utc_timestamp,
};
use crate::rules::{InputError, Rules};
use crate::store::{Store, describe};

pub mod bench;
mod checkpoint;
pub mod curve;
pub mod grow;
pub mod judge;
mod owned;
mod pictures;
pub mod play;
pub mod rate;
pub mod replay;
mod report_files;
mod show;
pub mod solve;
pub mod solve_family;
mod survey;
mod validate;
mod variant;

use checkpoint::{Identity, Saver};
pub use owned::{Folder, Whose, write_outputs};
pub use pictures::{write_board, write_viewer};
use report_files::report_targets;
pub use report_files::{put, read_optional, report, write_report};
pub use show::show;
use survey::{Writer, refuse_or_clear, shard_files, survey};
pub use validate::{Validated, validate};
pub use variant::load_variant;

/// Why a job failed. Which kinds are the caller's to fix is
/// [`Error::is_user_input`]; the binary turns that into the exit code
/// (docs/ERRORS.md has the table), the library never does.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A variant or experiment file that does not read: file, line, key.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A request katro turns down: a bad flag or move, an output folder
    /// it does not own, a board over `--max-memory`.
    #[error("{0}")]
    Refused(String),
    /// A file katro wrote earlier (shard, checkpoint, manifest) that no
    /// longer reads or no longer fits the request.
    #[error("{0}")]
    Damaged(String),
    /// The machine let the job down: a write, delete or thread pool the
    /// system refused (disk full, permissions), or the runner itself.
    #[error("{0}")]
    Failed(String),
    /// The solver stopped at its `--max-seconds` cap.
    #[error("{0}")]
    TimedOut(String),
    /// Stopped by a signal; the message says what the checkpoint kept.
    #[error("{0}")]
    Interrupted(String),
}

impl Error {
    /// Whether the person who asked can fix it by changing the input
    /// (exit code 2 in `katro`), rather than the machine (exit code 1).
    pub fn is_user_input(&self) -> bool {
        matches!(
            self,
            Error::Input(_) | Error::Refused(_) | Error::Damaged(_)
        )
    }

    pub fn refused(message: impl fmt::Display) -> Error {
        Error::Refused(message.to_string())
    }

    pub fn damaged(message: impl fmt::Display) -> Error {
        Error::Damaged(message.to_string())
    }

    fn failed(message: impl fmt::Display) -> Error {
        Error::Failed(message.to_string())
    }
}

/// What a person watching a job sees: the runner's game counts, and notes
/// (what was resumed, what `--force` deleted, sweep combinations left
/// out). `katro` draws a bar or prints lines on stderr.
pub trait Progress: runner::Progress {
    fn note(&self, _text: &str) {}
}

impl Progress for runner::Quiet {}

fn now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    utc_timestamp(d.as_secs(), d.subsec_millis())
}

fn threads_or_all(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `n word` or `n words`: [`crate::engine::notation::plural`] for a word
/// whose plural ends in `s`.
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    crate::engine::notation::plural(n, word, &format!("{word}s"))
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().to_string(),
    )
}

// ---------------------------------------------------------------------------
// Reading experiments

/// A text file through the store; bytes that are not UTF-8 are an error.
fn read_text(store: &dyn Store, path: &Path) -> std::io::Result<String> {
    String::from_utf8(store.read(path)?).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// An experiment file read and validated, with the variant files it named.
pub struct Loaded {
    pub path: String,
    pub text: String,
    pub exp: Experiment,
    pub variant_files: Vec<VariantFile>,
}

/// Reads and validates an experiment file; variant files are named
/// relative to its folder.
pub fn load_experiment(store: &dyn Store, path: &str) -> Result<Loaded, Error> {
    let text = read_text(store, Path::new(path))
        .map_err(|e| Error::refused(format!("{path}: cannot read the experiment file: {e}")))?;
    let dir = Path::new(path)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let mut variant_files = Vec::new();
    let mut read_variant = |spec: &str| -> Result<(String, String), String> {
        let p = dir.join(spec);
        let text = read_text(store, &p).map_err(|e| format!("{} ({e})", p.display()))?;
        let shown = p.display().to_string();
        variant_files.push(VariantFile {
            spec: spec.to_string(),
            file: shown.clone(),
            text: text.clone(),
        });
        Ok((shown, text))
    };
    let exp = parse_experiment(path, &text, &mut read_variant)?;
    Ok(Loaded {
        path: path.to_string(),
        text,
        exp,
        variant_files,
    })
}

// ---------------------------------------------------------------------------
// Writing results

/// What goes into summary.csv, comparison.csv and games.csv.
struct Results<'a> {
    cells: &'a [Cell<'a>],
    aggregates: &'a [Aggregate],
    /// games.csv, when rows are kept: made before run-state.json, which
    /// names it.
    games: Option<&'a [u8]>,
    compare: &'a Compare,
    /// The experiment's tournament, rated ([`rated`]): ratings.csv,
    /// pairwise.csv and skill-trace.csv.
    tournament: Option<&'a [VariantRatings]>,
    /// `run-state.json`, for the results of an experiment (which can grow).
    state: Option<Vec<u8>>,
}

/// Writes the CSV files and then the manifest (its presence says the
/// results are complete), and removes result files that the manifest
/// being replaced lists and this run does not make, so a folder never
/// mixes two runs' results. A file no katro manifest lists is never
/// removed: katro may not have written it. Returns the files written.
fn write_results(
    store: &dyn Store,
    dir: &Path,
    r: &Results,
    mut manifest: Manifest,
) -> Result<Vec<String>, Error> {
    let outputs = result_bytes(r, manifest.master_seed);
    let stale = stale_results(store, dir, &outputs);
    let what = format!("writing the results into {}", dir.display());
    let mut folder = Folder::open(store, dir);
    // Everything this will replace or delete is checked before anything
    // is written, so a refusal leaves the folder as it was.
    let mut targets: Vec<String> = outputs.iter().map(|(n, _)| n.to_string()).collect();
    targets.extend(stale.iter().map(|n| n.to_string()));
    targets.extend(report_targets(store, dir));
    targets.push("manifest.json".into());
    folder.check(&targets, &what)?;
    let mut written: Vec<String> = outputs.iter().map(|(n, _)| n.to_string()).collect();
    let files: Vec<(String, Vec<u8>)> = outputs
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    folder.write(&files, &what)?;
    let stale: Vec<String> = stale.into_iter().map(String::from).collect();
    folder.remove(&stale, &what)?;
    // The report reads back the files just written, so it shows exactly
    // what they say; the manifest, written last, lists it with the rest.
    // Whatever stops the report once the CSV files are written is the
    // machine's to fix (exit code 1), as a failed write is: the files it
    // replaces were checked above.
    written.extend(write_report(store, dir, Some(&manifest.run.name)).map_err(Error::failed)?);
    written.push("manifest.json".into());
    manifest.files = written.clone();
    Folder::open(store, dir).write(&[("manifest.json".into(), manifest.to_bytes())], &what)?;
    Ok(written)
}

/// The result files of `r` and their bytes, in the order they are
/// written and listed.
fn result_bytes(r: &Results, master_seed: u64) -> Vec<(&'static str, Vec<u8>)> {
    let mut outputs: Vec<(&str, Vec<u8>)> = Vec::new();
    if let Some(bytes) = r.games {
        outputs.push(("games.csv", bytes.to_vec()));
    }
    if let Some(bytes) = comparison_csv(r.cells, r.aggregates, r.compare) {
        outputs.push(("comparison.csv", bytes));
    }
    if let Some(bytes) = crate::files::metrics_csv::metrics_csv(r.cells, r.aggregates, master_seed)
    {
        outputs.push(("metrics.csv", bytes));
    }
    if let Some(rated) = r.tournament {
        outputs.extend(rating_files(rated));
    }
    if let Some(bytes) = &r.state {
        outputs.push((grow::RUN_STATE, bytes.clone()));
    }
    outputs.push(("summary.csv", summary_csv(r.cells, r.aggregates)));
    outputs.push(("lengths.csv", lengths_csv(r.cells, r.aggregates)));
    outputs
}

/// The result files the manifest being replaced lists and this run does
/// not make (`outputs`); the manifest and report are rewritten anyway.
fn stale_results(store: &dyn Store, dir: &Path, outputs: &[(&str, Vec<u8>)]) -> Vec<&'static str> {
    let earlier: Vec<String> = store
        .read(&dir.join("manifest.json"))
        .ok()
        .and_then(|b| ManifestRead::parse(&b).ok())
        .map(|m| survey::listed_files(&m))
        .unwrap_or_default();
    survey::RESULT_FILES
        .into_iter()
        .filter(|f| !["manifest.json", "report.html"].contains(f))
        .filter(|f| earlier.iter().any(|e| e == f) && !outputs.iter().any(|(n, _)| n == f))
        .collect()
}

/// The experiment's tournament rated from its finished cells: fitted
/// once, for the files ([`Results`]) and the table printed after the
/// summary.
fn rated(
    exp: &Experiment,
    cells: &[Cell],
    aggregates: &[Aggregate],
) -> Option<Vec<VariantRatings>> {
    exp.tournament.as_ref().map(|t| rate(t, cells, aggregates))
}

/// ratings.csv, pairwise.csv and skill-trace.csv of `rated`, as `katro
/// run` and `katro rate` write them.
pub(crate) fn rating_files(rated: &[VariantRatings]) -> [(&'static str, Vec<u8>); 3] {
    [
        ("ratings.csv", ratings_csv(rated)),
        ("pairwise.csv", pairwise_csv(rated)),
        ("skill-trace.csv", skill_trace_csv(rated)),
    ]
}

/// The ratings table printed after the summary; empty without a
/// tournament.
fn ratings_text(rated: &Option<Vec<VariantRatings>>) -> String {
    rated
        .as_ref()
        .map_or_else(String::new, |v| ratings_table(v))
}

/// The manifest's fields that come from the experiment and its results.
struct ManifestBase<'a> {
    command: &'a [String],
    name: &'a str,
    experiment: Option<ExperimentSource>,
    hash: &'a str,
    seed: u64,
    cells: &'a [Cell<'a>],
    aggregates: &'a [Aggregate],
}

fn manifest(b: ManifestBase, threads: usize, times: (String, String), wall: f64) -> Manifest {
    let (variants, cells) = Manifest::describe(b.cells, b.aggregates);
    Manifest {
        run: RunHeader::new(b.hash, b.name, Vec::new()),
        command: b.command.to_vec(),
        experiment: b.experiment,
        master_seed: b.seed,
        variants,
        cells,
        threads,
        start_time: times.0,
        end_time: times.1,
        wall_seconds: wall,
        games: b.aggregates.iter().map(|a| a.games).sum(),
        resumed_games: 0,
        kept_games: 0,
        games_per_second: 0.0,
        shards: None,
        skipped_variants: Vec::new(),
        // From the finished cells' exact aggregates, so a resumed or
        // merged run records the same warnings as one run.
        warnings: b
            .cells
            .iter()
            .zip(b.aggregates)
            .filter_map(|(c, a)| runner::ending_warning(c, a))
            .collect(),
        files: Vec::new(),
    }
}

/// Games a second, 0 when no time passed.
fn per_second(games: u64, wall: f64) -> f64 {
    if wall > 0.0 { games as f64 / wall } else { 0.0 }
}

/// The line a run (and `simulate --out`) ends its text with: what it
/// played, what it kept (`also`), and what it wrote where.
fn played_text(
    games: u64,
    wall: f64,
    threads: usize,
    also: &[String],
    written: &[String],
    dir: &Path,
) -> String {
    format!(
        "\n{} in {wall:.1} s on {}{}; wrote {} in {}\n",
        plural(games, "game"),
        plural(threads as u64, "thread"),
        if also.is_empty() {
            String::new()
        } else {
            format!(" (and {})", also.join(", "))
        },
        written.join(", "),
        dir.display()
    )
}

/// Refuses a folder holding what the writer `w` must not reuse or
/// replace, or clears it under `force`: checked before a game is played.
fn clear_folder(
    store: &dyn Store,
    progress: &dyn Progress,
    dir: &Path,
    w: &Writer,
    force: bool,
    name: &str,
) -> Result<(), Error> {
    let found = survey(store, dir, w);
    refuse_or_clear(store, progress, dir, found, force, name, w.hash)
}

/// The sweep combinations an experiment leaves out, as told on the
/// console; empty when none.
fn skipped_text(exp: &Experiment) -> String {
    let mut out = String::new();
    if !exp.skipped.is_empty() {
        out.push_str(&format!(
            "skip_invalid: {} left out:
",
            plural(exp.skipped.len() as u64, "invalid sweep combination")
        ));
        for s in &exp.skipped {
            out.push_str(&format!("  {}: {}\n", s.variant, s.reasons.join("; ")));
        }
    }
    out
}

/// The lock file of the part of a run that writes into a folder: one for
/// the results (a whole run, a merge, `simulate --out`), one per shard, so
/// the shards of one run can share a folder (docs/CLUSTER.md).
pub(crate) fn lock_name(part: Part) -> String {
    match part {
        Part::Whole => ".katro-lock".to_string(),
        Part::Shard { index, count } => format!(".katro-lock-shard-{index}-of-{count}"),
    }
}

/// Takes the folder's lock for this part before anything in it is read, so
/// that a second run into a folder a run is using is refused at once,
/// naming the other run. The lock lasts as long as the returned guard; a
/// lock left by a run that was killed is taken over, with a note.
fn lock_folder<'a>(
    store: &'a dyn Store,
    progress: &dyn Progress,
    dir: &Path,
    part: Part,
    command: &[String],
) -> Result<Box<dyn Send + 'a>, Error> {
    let path = dir.join(lock_name(part));
    let owner = LockOwner {
        command: command.to_vec(),
        host: store.host_name(),
        pid: std::process::id(),
        start_time: now(),
    }
    .to_json();
    match store.take_lock(&path, &owner) {
        Ok(crate::store::Locking::Held(guard, stale)) => {
            if let Some(old) = stale {
                progress.note(&format!(
                    "took over the lock {} of a run that is no longer running ({})",
                    path.display(),
                    LockOwner::words(&old)
                ));
            }
            Ok(guard)
        }
        Ok(crate::store::Locking::Busy(other)) => Err(Error::refused(format!(
            "the output folder {} is in use by another katro run ({}); wait for it to end, \
             stop it, or give another output folder (its lock file is {})",
            dir.display(),
            LockOwner::words(&other),
            path.display()
        ))),
        Err(e) => Err(Error::refused(format!(
            "cannot take the lock {}: {}",
            path.display(),
            describe(&e)
        ))),
    }
}

pub fn shard_file_name(index: u64, count: u64) -> String {
    format!("shard-{index}-of-{count}.json")
}

/// The manifest in `dir`: `None` when there is none, an error naming
/// the file when katro cannot read it as one of its manifests.
pub(crate) fn read_manifest_in(
    store: &dyn Store,
    dir: &Path,
) -> Result<Option<ManifestRead>, FileError> {
    let path = dir.join("manifest.json");
    if !store.is_file(&path) {
        return Ok(None);
    }
    let bytes = store
        .read(&path)
        .map_err(|e| FileError(format!("{}: cannot read it: {e}", path.display())))?;
    ManifestRead::parse(&bytes)
        .map(Some)
        .map_err(|e| FileError(format!("{}: not a katro manifest ({e})", path.display())))
}

/// The manifest in `dir`, when there is one katro can read; the folder
/// survey says what is wrong with one it cannot.
fn read_manifest(store: &dyn Store, dir: &Path) -> Option<ManifestRead> {
    read_manifest_in(store, dir).ok().flatten()
}

/// A finished run being grown, and where each cell gets its games.
struct Growing {
    old: grow::FinishedRun,
    /// Its rows, read from games.csv.
    old_rows: Vec<GameLine>,
    sources: Vec<grow::Source>,
}

/// The files of a finished whole experiment (games.csv, the run state,
/// comparison, ratings, summary, then the manifest `m`) and the tables a
/// run prints: the one tail of `run` and `merge`, so both write the same
/// bytes.
fn finish_experiment<'a>(
    store: &dyn Store,
    dir: &Path,
    exp: &'a Experiment,
    cells: &[Cell<'a>],
    aggregates: &[Aggregate],
    rows: &[GameRow],
    m: Manifest,
) -> Result<(Vec<String>, String), Error> {
    let (games, state) =
        finished_files(m.run.clone(), exp.seed, exp.rows(), cells, aggregates, rows);
    let rated = rated(exp, cells, aggregates);
    let written = write_results(
        store,
        dir,
        &Results {
            cells,
            aggregates,
            games: games.as_deref(),
            compare: &exp.compare,
            tournament: rated.as_deref(),
            state: Some(state.to_bytes()),
        },
        m,
    )?;
    let mut text = summary_table(cells, aggregates, Some("manifest.json"));
    text.push_str(&ratings_text(&rated));
    Ok((written, text))
}

/// games.csv of `rows` (none when rows are not kept), and the run state
/// that names it.
fn finished_files(
    run: RunHeader,
    seed: u64,
    mode: Rows,
    cells: &[Cell],
    aggregates: &[Aggregate],
    rows: &[GameRow],
) -> (Option<Vec<u8>>, grow::FinishedRun) {
    let games = (mode != Rows::None).then(|| {
        let stored: Vec<GameLine> = rows.iter().map(|r| GameLine::of(cells, r)).collect();
        games_csv(cells, &stored, mode == Rows::GamesWithMoves)
    });
    let state = grow::FinishedRun::new(run, seed, mode, cells, aggregates, games.as_deref());
    (games, state)
}

/// Reads `run-state.json` beside the manifest `m` and plans how this
/// experiment grows from it, or refuses, naming every change that would
/// alter games already played.
fn growth(
    store: &dyn Store,
    dir: &Path,
    m: &ManifestRead,
    exp: &Experiment,
    cells: &[Cell],
    allow_other_build: bool,
) -> Result<Growing, Error> {
    let path = dir.join(grow::RUN_STATE);
    let damaged = |why: String| {
        Error::damaged(format!(
            "{}: {why}: katro cannot tell which games the results there hold. Give another \
             output folder, or --force to delete them and play every game (a file changed \
             since katro wrote it is never deleted: move it away first)",
            path.display()
        ))
    };
    let bytes = store
        .read(&path)
        .map_err(|e| damaged(format!("cannot read it ({e})")))?;
    let old = grow::FinishedRun::parse(&bytes).map_err(|e| damaged(e.to_string()))?;
    if old.format != grow::RUN_STATE_FORMAT || old.run.experiment_hash != m.run.experiment_hash {
        return Err(damaged(format!(
            "format {:?} of experiment hash {}, but manifest.json says hash {}",
            old.format, old.run.experiment_hash, m.run.experiment_hash
        )));
    }
    let refuse = |problems: Vec<String>| {
        Error::refused(format!(
            "the output folder {} holds the finished results of experiment `{}` (hash {}), \
             and this version of it (hash {}) would change games already played:\n  {}\n\
             a run grows only by more games, tighter precision, or new variants or matchups. \
             Give another output folder, or --force to delete those results and play every \
             game",
            dir.display(),
            old.run.name,
            old.run.experiment_hash,
            exp.fingerprint(),
            problems.join("\n  ")
        ))
    };
    let sources = grow::plan(&old, &exp.name, exp.seed, exp.rows(), cells).map_err(refuse)?;
    let games_path = dir.join("games.csv");
    let games = store.read(&games_path).ok();
    let old_rows = old
        .rows(games.as_deref())
        .map_err(|e| damaged(format!("{}: {e}", games_path.display())))?;
    let builds: Vec<&str> = std::iter::once(old.run.katro_build.as_str())
        .chain(old.run.other_builds.iter().map(String::as_str))
        .collect();
    if !allow_other_build && builds.iter().any(|b| *b != BUILD) {
        return Err(refuse(vec![format!(
            "they were played by katro build {}, not this build {BUILD}: the new games may \
             not match them (--allow-other-build keeps them anyway)",
            builds.join(", ")
        )]));
    }
    Ok(Growing {
        old,
        old_rows,
        sources,
    })
}

impl Growing {
    /// Games of continued `[precision]` cells, which a grown run's state
    /// starts with.
    fn continued_games(&self) -> u64 {
        self.sources
            .iter()
            .filter_map(|s| match *s {
                grow::Source::Continue { old } => Some(self.old.cells[old].aggregate.games),
                _ => None,
            })
            .sum()
    }

    /// The finished run's rows of `old` cell `o`, as rows of `cells`' cell `c`.
    fn rows_of(&self, o: usize, cells: &[Cell], c: usize) -> Result<Vec<GameRow>, FileError> {
        self.old_rows
            .iter()
            .filter(|r| r.cell == o)
            .map(|r| {
                GameLine {
                    cell: c,
                    ..r.clone()
                }
                .to_row(cells)
                .map_err(|e| FileError(format!("games.csv: {e}")))
            })
            .collect()
    }

    /// The rows the continued cells start with, as rows of the delta.
    fn continued_rows(&self, d: &grow::Delta, rows: Rows) -> Result<Vec<GameRow>, FileError> {
        let mut out = Vec::new();
        if rows == Rows::None {
            return Ok(out);
        }
        for (k, &i) in d.index.iter().enumerate() {
            if let grow::Source::Continue { old } = self.sources[i] {
                out.extend(self.rows_of(old, &d.cells, k)?);
            }
        }
        Ok(out)
    }

    /// Every cell's aggregate and the rows of all games, kept and new, as
    /// a fresh run of `cells` gives them; and how many games were kept.
    fn combine(
        &self,
        cells: &[Cell],
        d: &grow::Delta,
        result: &runner::RunResult,
    ) -> Result<(Vec<Aggregate>, Vec<GameRow>, u64), FileError> {
        let played = result.aggregates();
        let mut aggregates = Vec::with_capacity(cells.len());
        let mut rows = Vec::new();
        let mut kept = 0;
        for (i, s) in self.sources.iter().enumerate() {
            let k = d.index.iter().position(|&x| x == i);
            let mut agg = Aggregate::new();
            match *s {
                grow::Source::Kept(o) | grow::Source::Extend { old: o, .. } => {
                    agg.merge(&self.old.cells[o].aggregate);
                    kept += self.old.cells[o].aggregate.games;
                    rows.extend(self.rows_of(o, cells, i)?);
                }
                grow::Source::Continue { old } => kept += self.old.cells[old].aggregate.games,
                grow::Source::New => {}
            }
            if let Some(k) = k {
                agg.merge(&played[k]);
                rows.extend(result.rows.iter().filter(|r| r.cell == k).map(|r| GameRow {
                    cell: i,
                    ..r.clone()
                }));
            }
            aggregates.push(agg);
        }
        rows.sort_by_key(|r| (r.cell, r.game));
        Ok((aggregates, rows, kept))
    }
}

// ---------------------------------------------------------------------------
// katro run

/// What `katro run` is asked to do.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The experiment file.
    pub experiment: String,
    /// Threads to play on; all the machine has when `None`.
    pub threads: Option<usize>,
    /// The output folder; the experiment's `output`, else `results/<name>`.
    pub out: Option<String>,
    /// (I, N) for shard I of N.
    pub shard: Option<(u64, u64)>,
    /// Delete what katro wrote in the way and replay every game.
    pub force: bool,
    /// Use checkpoints, shards and results of another katro build.
    pub allow_other_build: bool,
    /// The command line, as the manifest records it.
    pub command: Vec<String>,
    /// How often a checkpoint is written.
    pub checkpoint_every: Duration,
    /// Set by the caller to stop the run (Ctrl-C): it saves a checkpoint
    /// and fails with code 130, saying how to go on.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl RunOptions {
    /// Options for a whole run of `experiment` with katro's defaults.
    pub fn new(experiment: impl Into<String>) -> RunOptions {
        RunOptions {
            experiment: experiment.into(),
            threads: None,
            out: None,
            shard: None,
            force: false,
            allow_other_build: false,
            command: Vec::new(),
            checkpoint_every: Duration::from_secs(1),
            stop: None,
        }
    }
}

/// What a job did.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutcome {
    /// The output folder.
    pub out_dir: PathBuf,
    /// The files written, relative to `out_dir` (for a shard, its file).
    pub files: Vec<String>,
    /// Games played by this call.
    pub played: u64,
    /// Games taken from a checkpoint or from the results already there.
    pub kept: u64,
    /// Whether the results were complete already, so nothing was played
    /// or written.
    pub already_complete: bool,
    /// What to tell the user: the summary table and what was written.
    pub text: String,
}

/// `katro run EXPERIMENT.toml [--shard I/N] [--force]`: plays what the
/// output folder does not hold yet and writes the results (or the shard).
pub fn run(
    opts: &RunOptions,
    store: &dyn Store,
    progress: &dyn Progress,
) -> Result<RunOutcome, Error> {
    let l = load_experiment(store, &opts.experiment)?;
    let skipped = skipped_text(&l.exp);
    if !skipped.is_empty() {
        progress.note(skipped.trim_end());
    }
    let plan = RunPlan::new(opts, store, progress, &l)?;
    let _lock = lock_folder(store, progress, &plan.out_dir, plan.part, &opts.command)?;
    let before = match plan.part {
        Part::Whole if !opts.force => read_manifest(store, &plan.out_dir),
        _ => None,
    };
    let growing = plan.growing(before.as_ref())?;
    plan.survey_folder(growing.as_ref())?;
    if let Some(done) = before.as_ref().and_then(|m| plan.finished_already(m)) {
        return Ok(done);
    }
    plan.play(growing.as_ref())
}

/// One `katro run`, decided before anything is read from the folder: the
/// experiment, where its results go, which part is played, and the
/// fingerprint and text every file it writes carries.
struct RunPlan<'a> {
    opts: &'a RunOptions,
    store: &'a dyn Store,
    progress: &'a dyn Progress,
    l: &'a Loaded,
    out_dir: PathBuf,
    cells: Vec<Cell<'a>>,
    rows: Rows,
    hash: String,
    source: ExperimentSource,
    part: Part,
    cp_dir: PathBuf,
}

/// What one session of play did, for the files and the text.
struct Session {
    result: runner::RunResult,
    threads: usize,
    /// Start and end, UTC.
    times: (String, String),
    /// Seconds this session played.
    wall: f64,
    new_games: u64,
    resumed_games: u64,
}

/// The text, the files written, and the games played and kept.
type Finished = (String, Vec<String>, u64, u64);

impl<'a> RunPlan<'a> {
    fn new(
        opts: &'a RunOptions,
        store: &'a dyn Store,
        progress: &'a dyn Progress,
        l: &'a Loaded,
    ) -> Result<RunPlan<'a>, Error> {
        let (path, exp) = (&l.path, &l.exp);
        let (out_dir, origin) = match (&opts.out, &exp.output) {
            (Some(o), _) => (PathBuf::from(o), format!("--out {o}")),
            (None, Some(o)) => (PathBuf::from(o), format!("{path}: `output`")),
            (None, None) => (
                Path::new("results").join(&exp.name),
                format!("{path}: `name` (the default output folder is results/<name>/)"),
            ),
        };
        store.check_writable(&out_dir).map_err(|e| {
            Error::refused(format!(
                "{origin}: cannot write to the output folder {}: {e}",
                out_dir.display()
            ))
        })?;
        let part = match opts.shard {
            None => Part::Whole,
            Some((index, count)) => Part::Shard { index, count },
        };
        Ok(RunPlan {
            opts,
            store,
            progress,
            l,
            cp_dir: checkpoint::folder(&out_dir, part),
            out_dir,
            cells: exp.cells(),
            rows: exp.rows(),
            hash: exp.fingerprint(),
            source: ExperimentSource::new(path, &l.text),
            part,
        })
    }

    /// Finished results of an earlier version of this experiment, whose
    /// games a whole run keeps when it only adds to them.
    fn growing(&self, before: Option<&ManifestRead>) -> Result<Option<Growing>, Error> {
        let exp = &self.l.exp;
        match before {
            Some(m)
                if (m.run.experiment_hash != self.hash || !m.same_text(&self.source))
                    && m.run.name == exp.name
                    && m.files.iter().any(|f| f == grow::RUN_STATE) =>
            {
                Ok(Some(growth(
                    self.store,
                    &self.out_dir,
                    m,
                    exp,
                    &self.cells,
                    self.opts.allow_other_build,
                )?))
            }
            _ => Ok(None),
        }
    }

    /// Refuses a folder holding what this run must not reuse or replace,
    /// or clears it under `--force`.
    fn survey_folder(&self, growing: Option<&Growing>) -> Result<(), Error> {
        let w = Writer {
            hash: &self.hash,
            text_fnv: Some(&self.source.fnv1a64),
            grows: growing.map(|g| g.old.run.experiment_hash.as_str()),
            shards: Some(self.opts.shard.map_or(0, |(_, n)| n)),
            allow_other_build: self.opts.allow_other_build,
        };
        let (store, progress, force) = (self.store, self.progress, self.opts.force);
        clear_folder(store, progress, &self.out_dir, &w, force, &self.l.exp.name)
    }

    /// The outcome when the folder already holds this experiment's
    /// complete results (manifest `m`): nothing to play.
    fn finished_already(&self, m: &ManifestRead) -> Option<RunOutcome> {
        let (store, out_dir, cells) = (self.store, &self.out_dir, &self.cells);
        if !(m.run.experiment_hash == self.hash
            && m.same_text(&self.source)
            && !store.is_dir(&self.cp_dir)
            && m.files.iter().all(|f| store.is_file(&out_dir.join(f))))
        {
            return None;
        }
        let build = if m.run.katro_build == BUILD {
            String::new()
        } else {
            format!(
                "\nthey were played by katro build {}; this is build {BUILD}",
                m.run.katro_build
            )
        };
        // The table a run prints, from the run state's exact aggregates,
        // so a rerun shows the results it did not need to play.
        let table = store
            .read(&out_dir.join(grow::RUN_STATE))
            .ok()
            .and_then(|b| grow::FinishedRun::parse_any_format(&b).ok())
            .filter(|old| {
                old.run.experiment_hash == self.hash
                    && old.cells.len() == cells.len()
                    && old
                        .cells
                        .iter()
                        .zip(cells)
                        .all(|(f, c)| grow::same_place(f, c))
            })
            .map(|old| {
                let aggregates: Vec<_> = old.cells.into_iter().map(|c| c.aggregate).collect();
                summary_table(cells, &aggregates, Some("manifest.json")) + "\n"
            })
            .unwrap_or_default();
        Some(RunOutcome {
            text: format!(
                "{table}experiment `{}` is complete: its {} are in {}; nothing to play \
                 (--force plays every game again){build}\n",
                self.l.exp.name,
                plural(m.games, "game"),
                out_dir.display()
            ),
            out_dir: out_dir.clone(),
            files: Vec::new(),
            played: 0,
            kept: m.games,
            already_complete: true,
        })
    }

    /// The checkpoint of an interrupted run of `work`, checked to fit it;
    /// under `--force` an unusable one is deleted instead of refused.
    fn checkpoint(
        &self,
        work: &Work,
    ) -> Result<Option<(crate::files::CheckpointFile, runner::Resume)>, Error> {
        let cp_dir = &self.cp_dir;
        match checkpoint::load(self.store, cp_dir, work.cells).and_then(|l| match &l {
            Some((_, r)) => runner::check_resume(work, r)
                .map_err(|e| FileError(e.to_string()))
                .map(|()| l),
            None => Ok(l),
        }) {
            Ok(l) => Ok(l),
            Err(e) if self.opts.force => {
                self.store.remove_all(cp_dir).map_err(|e| {
                    Error::failed(format!("--force: cannot delete {}: {e}", cp_dir.display()))
                })?;
                self.progress
                    .note(&format!("--force: deleted the unusable checkpoint ({e})"));
                Ok(None)
            }
            Err(e) => Err(Error::damaged(format!(
                "{e}. Use --force to delete the checkpoint and start again"
            ))),
        }
    }

    /// Where a grown run starts when no checkpoint is there: continued
    /// `[precision]` cells settled at the games they played. The first
    /// checkpoint holds those games' rows, so an interrupted grown run
    /// resumes like any other.
    fn grown_start(
        &self,
        g: &Growing,
        d: &grow::Delta,
        saver: &Saver,
    ) -> Result<runner::Resume, Error> {
        let state = grow::start_state(&g.old, d, &g.sources);
        let start_rows = g.continued_rows(d, self.rows).map_err(Error::refused)?;
        if state.games() > 0 {
            runner::Checkpoint::save(saver, &state, &start_rows)
                .map_err(|e| interrupted(self.store, e.into(), saver))?;
        }
        Ok(runner::Resume {
            state,
            rows: start_rows,
        })
    }

    /// Plays what is left (from the checkpoint, or a grown run's new
    /// games) and writes the results or the shard.
    fn play(&self, growing: Option<&Growing>) -> Result<RunOutcome, Error> {
        let exp = &self.l.exp;
        // What this run plays: every cell, or a grown run's new games.
        let delta = growing.map(|g| grow::delta(&self.cells, &g.sources));
        let work_cells: &[Cell] = delta.as_ref().map_or(&self.cells, |d| &d.cells);
        let work = Work {
            cells: work_cells,
            master: exp.seed,
            rows: self.rows,
            part: self.part,
            first_games: delta.as_ref().map_or(&[], |d| &d.first_games),
        };
        let loaded = self.checkpoint(&work)?;
        let saver = self.saver(work_cells, loaded.as_ref().map(|(f, _)| f));
        let resumed_games = loaded.as_ref().map_or(0, |(f, _)| f.state.games());
        let resume = self.resume(loaded, growing, delta.as_ref(), &saver)?;
        // A grown run's checkpoint also holds the continued cells' kept games.
        let resumed_games =
            resumed_games.saturating_sub(growing.map_or(0, Growing::continued_games));
        let session = self.session(&work, &saver, resume, resumed_games)?;
        let (text, files, played, kept) = match self.part {
            Part::Whole => self.finish_whole(growing, delta.as_ref(), &saver, session)?,
            Part::Shard { index, count } => self.finish_shard(index, count, &saver, session)?,
        };
        self.remove_checkpoint()?;
        Ok(RunOutcome {
            out_dir: self.out_dir.clone(),
            files,
            played,
            kept,
            already_complete: false,
            text,
        })
    }

    /// The checkpoint writer of this run of `cells`, going on from `loaded`.
    fn saver<'s>(
        &'s self,
        cells: &'s [Cell<'s>],
        loaded: Option<&crate::files::CheckpointFile>,
    ) -> Saver<'s> {
        let id = Identity {
            experiment_hash: self.hash.clone(),
            name: self.l.exp.name.clone(),
            part: self.part,
        };
        Saver::new(
            self.store,
            self.cp_dir.clone(),
            id,
            cells,
            self.opts.checkpoint_every,
            loaded,
            self.opts.stop.clone(),
        )
    }

    /// Where play starts: the checkpoint `loaded`, else a grown run's
    /// continued cells, else nothing; told to the user.
    fn resume(
        &self,
        loaded: Option<(crate::files::CheckpointFile, runner::Resume)>,
        growing: Option<&Growing>,
        delta: Option<&grow::Delta>,
        saver: &Saver,
    ) -> Result<Option<runner::Resume>, Error> {
        let progress = self.progress;
        if let Some((f, _)) = &loaded {
            progress.note(&format!(
                "resuming from the checkpoint in {}: {} already played",
                self.cp_dir.display(),
                plural(f.state.games(), "game")
            ));
        }
        let mut resume = loaded.map(|(_, r)| r);
        if let (Some(g), Some(d)) = (growing, delta) {
            let kept: u64 = g.old.cells.iter().map(|c| c.aggregate.games).sum();
            progress.note(&format!(
                "growing the results in {}: {} of experiment `{}` (hash {}) are kept; only the \
                 new games are played",
                self.out_dir.display(),
                plural(kept, "game"),
                g.old.run.name,
                g.old.run.experiment_hash
            ));
            if resume.is_none() {
                resume = Some(self.grown_start(g, d, saver)?);
            }
        }
        Ok(resume)
    }

    /// Plays `work` from `resume`.
    fn session(
        &self,
        work: &Work,
        saver: &Saver,
        resume: Option<runner::Resume>,
        resumed_games: u64,
    ) -> Result<Session, Error> {
        let before_games = resume.as_ref().map_or(0, |r| r.state.games());
        if !saver.other_builds.is_empty() {
            self.progress.note(&format!(
                "--allow-other-build: games played by katro build {} are kept; this is build \
                 {BUILD}; the results list both",
                saver.other_builds.join(", ")
            ));
        }
        let threads = threads_or_all(self.opts.threads);
        let start_time = now();
        let clock = Instant::now();
        let result = runner::run(work, threads, self.progress, saver, resume)
            .map_err(|e| interrupted(self.store, e, saver))?;
        let wall = clock.elapsed().as_secs_f64();
        let new_games = result.state.games() - before_games;
        Ok(Session {
            result,
            threads,
            times: (start_time, now()),
            wall,
            new_games,
            resumed_games,
        })
    }

    /// The results are complete: the checkpoint has done its job.
    fn remove_checkpoint(&self) -> Result<(), Error> {
        self.store.remove_all(&self.cp_dir).map_err(|e| {
            Error::failed(format!(
                "cannot delete the finished checkpoint {}: {e}",
                self.cp_dir.display()
            ))
        })?;
        let _ = self
            .store
            .remove_dir(&self.out_dir.join(checkpoint::FOLDER));
        Ok(())
    }

    /// A whole run's files: the results (with a grown run's kept games),
    /// the manifest and the run state.
    fn finish_whole(
        &self,
        growing: Option<&Growing>,
        delta: Option<&grow::Delta>,
        saver: &Saver,
        s: Session,
    ) -> Result<Finished, Error> {
        let (cells, opts) = (&self.cells[..], self.opts);
        let (aggregates, all_rows, kept) = match (growing, delta) {
            (Some(g), Some(d)) => g.combine(cells, d, &s.result).map_err(Error::refused)?,
            _ => (s.result.aggregates(), s.result.rows, 0),
        };
        let mut other = saver.other_builds.clone();
        if let Some(g) = growing {
            other = other_builds(
                BUILD,
                other
                    .iter()
                    .chain(&g.old.run.other_builds)
                    .chain([&g.old.run.katro_build])
                    .map(String::as_str),
            );
        }
        let mut m = manifest(
            ManifestBase {
                command: &opts.command,
                name: &self.l.exp.name,
                experiment: Some(self.source.clone()),
                hash: &self.hash,
                seed: self.l.exp.seed,
                cells,
                aggregates: &aggregates,
            },
            s.threads,
            s.times.clone(),
            s.wall,
        );
        m.resumed_games = s.resumed_games;
        m.kept_games = kept;
        m.run.other_builds = other;
        m.skipped_variants = self.l.exp.skipped.clone();
        m.games_per_second = per_second(s.new_games, s.wall);
        let (written, mut text) = finish_experiment(
            self.store,
            &self.out_dir,
            &self.l.exp,
            cells,
            &aggregates,
            &all_rows,
            m,
        )
        .map_err(|e| failed_after_start(self.store, e, saver))?;
        let mut also = Vec::new();
        if s.resumed_games > 0 {
            also.push(format!("{} resumed from the checkpoint", s.resumed_games));
        }
        if kept > 0 {
            also.push(format!("{kept} kept from the results already there"));
        }
        text.push_str(&played_text(
            s.new_games,
            s.wall,
            s.threads,
            &also,
            &written,
            &self.out_dir,
        ));
        Ok((text, written, s.new_games, kept + s.resumed_games))
    }

    /// A shard's one file, for `katro merge`.
    fn finish_shard(
        &self,
        index: u64,
        count: u64,
        saver: &Saver,
        s: Session,
    ) -> Result<Finished, Error> {
        let games = s.result.state.games();
        let shard = ShardFile {
            format: SHARD_FORMAT.into(),
            run: RunHeader::new(&self.hash, &self.l.exp.name, saver.other_builds.clone()),
            shard: index,
            shards: count,
            experiment: self.source.clone(),
            variant_files: self.l.variant_files.clone(),
            layout: Layout::new(&self.cells).cells,
            threads: s.threads,
            start_time: s.times.0,
            end_time: s.times.1,
            wall_seconds: saver.wall_seconds(),
            games,
            rows: s
                .result
                .rows
                .iter()
                .map(|r| GameLine::of(&self.cells, r))
                .collect(),
            state: s.result.state,
        };
        let dir = self.out_dir.join("shards");
        let name = shard_file_name(index, count);
        let bytes = serde_json::to_vec(&shard).expect("a shard serialises");
        let store = self.store;
        // Shards are known for katro's by their header, not the ledger:
        // shards on several machines write into one folder at once.
        let rel = format!("shards/{name}");
        let whose = Folder::open(store, &self.out_dir)
            .whose(&rel)
            .map_err(|e| failed_after_start(store, e, saver))?;
        if !whose.replaceable() {
            return Err(Error::refused(format!(
                "{}: {}: katro replaces only the files it wrote, unchanged since, --force \
                 or not: move it away and run the same command again to write the shard",
                dir.join(&name).display(),
                whose.why()
            )));
        }
        store
            .create_dir_all(&dir)
            .and_then(|()| store.write_atomic(&dir, &name, &bytes))
            .map_err(|e| {
                failed_after_start(
                    store,
                    format!(
                        "cannot write {}: {}",
                        dir.join(&name).display(),
                        describe(&e)
                    ),
                    saver,
                )
            })?;
        let text = format!(
            "shard {index}/{count} of `{}`: {} in {:.1} s on {}; wrote {}\n\
             once every shard is done: katro merge {}\n",
            self.l.exp.name,
            plural(games - s.resumed_games, "game"),
            s.wall,
            plural(s.threads as u64, "thread"),
            dir.join(&name).display(),
            self.out_dir.display()
        );
        Ok((
            text,
            vec![format!("shards/{name}")],
            games - s.resumed_games,
            s.resumed_games,
        ))
    }
}

/// A run stopped by an error after it started playing, or by the user:
/// says what of its work is safe.
fn interrupted(store: &dyn Store, e: RunError, saver: &Saver) -> Error {
    if e == RunError::Stopped {
        let kept = saver.games_saved.load(std::sync::atomic::Ordering::Relaxed);
        let cells = saver.cells_saved.load(std::sync::atomic::Ordering::Relaxed);
        let saved = if store.is_file(&saver.dir().join("state.json")) {
            format!(
                "{} ({} of {} finished) saved in the checkpoint {}; run the same command \
                 again to go on from there",
                plural(kept, "game"),
                cells,
                plural(saver.cell_count() as u64, "cell"),
                saver.dir().display()
            )
        } else {
            "no game was saved yet: the same command starts again".to_string()
        };
        return Error::Interrupted(format!("interrupted: {saved}"));
    }
    failed_after_start(store, e, saver)
}

/// A run that failed after it started playing: the failure, and whether
/// its last checkpoint is there to go on from.
fn failed_after_start(store: &dyn Store, e: impl fmt::Display, saver: &Saver) -> Error {
    let kept = saver.games_saved.load(std::sync::atomic::Ordering::Relaxed);
    let note = if store.is_file(&saver.dir().join("state.json")) {
        format!(
            "the last checkpoint ({}, in {}) is intact: fix the problem and run the same \
             command again to go on from it",
            plural(kept, "game"),
            saver.dir().display()
        )
    } else {
        "no checkpoint had been written yet".to_string()
    };
    Error::Failed(format!("{e}\n{note}"))
}

// ---------------------------------------------------------------------------
// katro merge

/// Reads a shard file whole.
fn read_shard(store: &dyn Store, path: &Path) -> Result<ShardFile, FileError> {
    let bytes = store
        .read(path)
        .map_err(|e| FileError(format!("{}: cannot read: {e}", path.display())))?;
    let shard: ShardFile = serde_json::from_slice(&bytes).map_err(|e| {
        FileError(format!(
            "{}: not a katro shard file, or damaged: {e}",
            path.display()
        ))
    })?;
    if shard.format != SHARD_FORMAT {
        return Err(FileError(format!(
            "{}: format {:?}, not {SHARD_FORMAT:?}",
            path.display(),
            shard.format
        )));
    }
    Ok(shard)
}

/// The builds that played a shard's games.
fn shard_builds(s: &ShardFile) -> impl Iterator<Item = &str> {
    s.run.builds()
}

/// Everything wrong with a set of shards as a set: mixed experiments or N,
/// games of another build (unless `allow_other_build`), duplicates, and
/// missing shards.
fn shard_set_problems(
    shards: &[(PathBuf, ShardFile)],
    dir: &Path,
    allow_other_build: bool,
) -> Vec<String> {
    let problems = mixed_shards(shards, allow_other_build);
    if !problems.is_empty() {
        return problems;
    }
    let n = shards[0].1.shards;
    let mut problems = Vec::new();
    let mut by_index: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for (p, s) in shards {
        if s.shard == 0 || s.shard > n {
            problems.push(format!(
                "{}: claims to be shard {}/{n}",
                file_name(p),
                s.shard
            ));
        }
        by_index.entry(s.shard).or_default().push(file_name(p));
    }
    for (i, names) in &by_index {
        if names.len() > 1 {
            problems.push(format!(
                "shard {i}/{n} is there {} times: {}",
                names.len(),
                names.join(", ")
            ));
        }
    }
    problems.extend(missing_shards(&by_index, n, &shards[0].1, dir));
    problems
}

/// Shards that do not belong together: of different experiments, builds
/// (unless `allow_other_build`) or N, each set listed file by file.
fn mixed_shards(shards: &[(PathBuf, ShardFile)], allow_other_build: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let listing = |f: &dyn Fn(&ShardFile) -> String| -> String {
        shards
            .iter()
            .map(|(p, s)| format!("  {}: {}", file_name(p), f(s)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let distinct = |f: &dyn Fn(&ShardFile) -> String| -> usize {
        shards
            .iter()
            .map(|(_, s)| f(s))
            .collect::<BTreeSet<_>>()
            .len()
    };
    if distinct(&|s| s.run.experiment_hash.clone()) > 1 {
        problems.push(format!(
            "the shards come from different experiments:\n{}",
            listing(&|s| format!(
                "experiment `{}`, hash {}",
                s.run.name, s.run.experiment_hash
            ))
        ));
    }
    if !allow_other_build
        && shards
            .iter()
            .any(|(_, s)| shard_builds(s).any(|b| b != BUILD))
    {
        problems.push(format!(
            "shards played by another katro build than this one ({BUILD}), whose games may \
             differ (--allow-other-build merges them anyway):\n{}",
            listing(&|s| format!(
                "katro build {}",
                shard_builds(s).collect::<Vec<_>>().join(", ")
            ))
        ));
    }
    if distinct(&|s| s.shards.to_string()) > 1 {
        problems.push(format!(
            "the shards were cut for different N:\n{}",
            listing(&|s| format!("shard {}/{}", s.shard, s.shards))
        ));
    }
    problems
}

/// The shards of 1..=`n` not in `by_index`, and how to make them.
fn missing_shards(
    by_index: &BTreeMap<u64, Vec<String>>,
    n: u64,
    first: &ShardFile,
    dir: &Path,
) -> Option<String> {
    let missing: Vec<String> = (1..=n)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(format!(
        "missing {} {}: run each with `katro run {} --shard I/{n} --out {}`",
        if missing.len() == 1 {
            "shard"
        } else {
            "shards"
        },
        missing.join(", "),
        first.experiment.file,
        dir.display()
    ))
}

/// What `katro merge` is asked to do.
#[derive(Clone, Debug)]
pub struct MergeOptions {
    /// The output folder whose `shards/` to merge.
    pub dir: String,
    pub force: bool,
    pub allow_other_build: bool,
    /// The command line, as the manifest records it.
    pub command: Vec<String>,
}

/// The shards in `dir/shards`, in shard order, once every one reads and
/// they make one whole run; otherwise every problem found.
fn read_shards(
    store: &dyn Store,
    dir: &Path,
    allow_other_build: bool,
) -> Result<Vec<(PathBuf, ShardFile)>, Error> {
    let shards_dir = dir.join("shards");
    let paths = shard_files(store, &shards_dir);
    if paths.is_empty() {
        return Err(Error::refused(format!(
            "{}: no shard files: run `katro run EXPERIMENT --shard I/N --out {}` for I = 1 \
             to N first",
            shards_dir.display(),
            dir.display()
        )));
    }
    let mut shards = Vec::new();
    let mut unreadable = Vec::new();
    for p in paths {
        match read_shard(store, &p) {
            Ok(s) => shards.push((p, s)),
            Err(e) => unreadable.push(e.to_string()),
        }
    }
    let mut problems = unreadable;
    if !shards.is_empty() {
        problems.extend(shard_set_problems(&shards, dir, allow_other_build));
    }
    if !problems.is_empty() {
        return Err(Error::damaged(format!(
            "cannot merge the shards in {}:\n{}",
            shards_dir.display(),
            problems.join("\n")
        )));
    }
    shards.sort_by_key(|(_, s)| s.shard);
    Ok(shards)
}

/// The experiment rebuilt from the text and variant files the shard
/// carries, so the merge needs nothing but the shards.
fn rebuild_experiment(
    first_path: &Path,
    first: &ShardFile,
    damaged: &dyn Fn(String) -> Error,
) -> Result<Experiment, Error> {
    let mut read_variant = |spec: &str| -> Result<(String, String), String> {
        first
            .variant_files
            .iter()
            .find(|v| v.spec == spec)
            .map(|v| (v.file.clone(), v.text.clone()))
            .ok_or_else(|| format!("{spec} is not stored in the shard"))
    };
    parse_experiment(
        &first.experiment.file,
        &first.experiment.text,
        &mut read_variant,
    )
    .map_err(|e| {
        damaged(format!(
            "the experiment stored in {} does not parse:\n{e}",
            file_name(first_path)
        ))
    })
}

/// `katro merge DIR`: the shards in DIR/shards into DIR's results.
pub fn merge(
    opts: &MergeOptions,
    store: &dyn Store,
    progress: &dyn Progress,
) -> Result<RunOutcome, Error> {
    let dir = PathBuf::from(&opts.dir);
    let shards_dir = dir.join("shards");
    let shards = read_shards(store, &dir, opts.allow_other_build)?;
    let (first_path, first) = &shards[0];
    let damaged = |what: String| {
        Error::damaged(format!(
            "cannot merge the shards in {}: {what}",
            shards_dir.display()
        ))
    };
    let exp = rebuild_experiment(first_path, first, &damaged)?;
    let cells = exp.cells();
    let hash = exp.fingerprint();
    if hash != first.run.experiment_hash {
        return Err(damaged(format!(
            "{} says experiment hash {}, but its experiment gives {hash}",
            file_name(first_path),
            first.run.experiment_hash
        )));
    }
    let (aggregates, rows) = merge_shards(&shards, &cells, exp.rows(), &damaged)?;

    let _lock = lock_folder(store, progress, &dir, Part::Whole, &opts.command)?;
    let w = Writer {
        hash: &hash,
        text_fnv: Some(&first.experiment.fnv1a64),
        grows: None,
        shards: None,
        allow_other_build: opts.allow_other_build,
    };
    clear_folder(store, progress, &dir, &w, opts.force, &exp.name)?;
    store.check_writable(&dir).map_err(|e| {
        Error::refused(format!("cannot write to the folder {}: {e}", dir.display()))
    })?;
    let base = ManifestBase {
        command: &opts.command,
        name: &exp.name,
        experiment: Some(first.experiment.clone()),
        hash: &hash,
        seed: exp.seed,
        cells: &cells,
        aggregates: &aggregates,
    };
    let m = merged_manifest(base, &shards, &exp);
    let (written, mut text) = finish_experiment(store, &dir, &exp, &cells, &aggregates, &rows, m)?;
    let wall: f64 = shards.iter().map(|(_, s)| s.wall_seconds).sum();
    let played: u64 = shards.iter().map(|(_, s)| s.games).sum();
    text.push_str(&format!(
        "\nmerged {} ({} played in {wall:.1} s of shard time); wrote {} in {}\n",
        plural(first.shards, "shard"),
        plural(played, "game"),
        written.join(", "),
        dir.display()
    ));
    Ok(RunOutcome {
        out_dir: dir,
        files: written,
        played: 0,
        kept: played,
        already_complete: false,
        text,
    })
}

/// Every cell's aggregate and the rows of all games, from the shards'
/// states and rows, as one run of `cells` gives them.
fn merge_shards(
    shards: &[(PathBuf, ShardFile)],
    cells: &[Cell],
    mode: Rows,
    damaged: &dyn Fn(String) -> Error,
) -> Result<(Vec<Aggregate>, Vec<GameRow>), Error> {
    let mut rows = Vec::new();
    for (p, s) in shards {
        if s.layout != Layout::new(cells).cells {
            return Err(damaged(format!(
                "{} cuts the games into other units",
                file_name(p)
            )));
        }
        for r in &s.rows {
            rows.push(
                r.to_row(cells)
                    .map_err(|e| damaged(format!("{}: {e}", file_name(p))))?,
            );
        }
    }
    let states: Vec<(u64, &runner::RunState)> =
        shards.iter().map(|(_, s)| (s.shard, &s.state)).collect();
    merge_parts(cells, shards[0].1.shards, &states, rows, mode).map_err(|e| damaged(e.to_string()))
}

/// The manifest of the merged run: the shards' times, threads and builds.
fn merged_manifest(
    base: ManifestBase,
    shards: &[(PathBuf, ShardFile)],
    exp: &Experiment,
) -> Manifest {
    let start = shards.iter().map(|(_, s)| s.start_time.clone()).min();
    let end = shards.iter().map(|(_, s)| s.end_time.clone()).max();
    let wall: f64 = shards.iter().map(|(_, s)| s.wall_seconds).sum();
    let played: u64 = shards.iter().map(|(_, s)| s.games).sum();
    let mut m = manifest(
        base,
        shards.iter().map(|(_, s)| s.threads).max().unwrap_or(1),
        (start.unwrap_or_default(), end.unwrap_or_default()),
        wall,
    );
    m.skipped_variants = exp.skipped.clone();
    m.games_per_second = per_second(played, wall);
    m.run.other_builds = other_builds(BUILD, shards.iter().flat_map(|(_, s)| shard_builds(s)));
    m.shards = Some(
        shards
            .iter()
            .map(|(_, s)| ManifestShard {
                shard: format!("{}/{}", s.shard, s.shards),
                katro_build: s.run.katro_build.clone(),
                threads: s.threads,
                start_time: s.start_time.clone(),
                end_time: s.end_time.clone(),
                wall_seconds: s.wall_seconds,
                games: s.games,
            })
            .collect(),
    );
    m
}

// ---------------------------------------------------------------------------
// katro simulate

/// What `katro simulate` is asked to do.
#[derive(Clone, Debug)]
pub struct SimulateOptions {
    pub rules: Rules,
    pub p1: AgentSpec,
    pub p2: AgentSpec,
    pub games: u64,
    pub seed: u64,
    /// Where to write results; none are written when `None`.
    pub out: Option<String>,
    pub threads: Option<usize>,
    pub force: bool,
    /// The command line, as the manifest records it.
    pub command: Vec<String>,
}

/// `katro simulate VARIANT --games N --p1 AGENT --p2 AGENT [--out DIR]`.
pub fn simulate(
    opts: &SimulateOptions,
    store: &dyn Store,
    progress: &dyn Progress,
) -> Result<RunOutcome, Error> {
    let cells = [Cell {
        rules: &opts.rules,
        p1: &opts.p1,
        p2: &opts.p2,
        opening_plies: 0,
        stop: Stop::Games(opts.games),
        metrics: None,
    }];
    let name = format!("simulate-{}", opts.rules.name());
    let hash = fingerprint(&name, opts.seed, Rows::None, &cells);
    // Checked before a game is played, as `run` does.
    let out = match &opts.out {
        Some(o) => Some(simulate_folder(opts, store, progress, o, &name, &hash)?),
        None => None,
    };
    let threads = threads_or_all(opts.threads);
    let work = Work {
        cells: &cells,
        master: opts.seed,
        rows: Rows::None,
        part: Part::Whole,
        first_games: &[],
    };
    let start_time = now();
    let clock = Instant::now();
    let result =
        runner::run(&work, threads, progress, &NoCheckpoint, None).map_err(Error::failed)?;
    let wall = clock.elapsed().as_secs_f64();
    let aggregates = result.aggregates();
    let mut text = summary_table(&cells, &aggregates, out.as_ref().map(|_| "manifest.json"));
    let mut files = Vec::new();
    if let Some((dir, _lock)) = &out {
        let base = ManifestBase {
            command: &opts.command,
            name: &name,
            experiment: None,
            hash: &hash,
            seed: opts.seed,
            cells: &cells,
            aggregates: &aggregates,
        };
        let mut m = manifest(base, threads, (start_time, now()), wall);
        m.games_per_second = per_second(m.games, wall);
        let results = Results {
            cells: &cells,
            aggregates: &aggregates,
            games: None,
            compare: &Compare::default(),
            tournament: None,
            state: None,
        };
        files = write_results(store, dir, &results, m)?;
        text.push_str(&played_text(opts.games, wall, threads, &[], &files, dir));
    }
    Ok(RunOutcome {
        out_dir: out.map(|(dir, _)| dir).unwrap_or_default(),
        files,
        played: opts.games,
        kept: 0,
        already_complete: false,
        text,
    })
}

/// `simulate --out DIR`'s folder, writable, locked and clear of what is
/// not this simulation's (or cleared under `--force`), with its lock.
fn simulate_folder<'a>(
    opts: &SimulateOptions,
    store: &'a dyn Store,
    progress: &dyn Progress,
    o: &str,
    name: &str,
    hash: &str,
) -> Result<(PathBuf, Box<dyn Send + 'a>), Error> {
    let dir = PathBuf::from(o);
    store.check_writable(&dir).map_err(|e| {
        Error::refused(format!(
            "--out {o}: cannot write to the output folder {o}: {e}"
        ))
    })?;
    let lock = lock_folder(store, progress, &dir, Part::Whole, &opts.command)?;
    let w = Writer {
        hash,
        text_fnv: None,
        grows: None,
        shards: None,
        allow_other_build: false,
    };
    clear_folder(store, progress, &dir, &w, opts.force, name)?;
    Ok((dir, lock))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::runner::Quiet;
    use crate::store::MemoryStore;

    const EXPERIMENT: &str = "name = \"t\"\nseed = 3\nvariants = [\"katro-4x4\", \"katro-6x3\"]\n\
        games = 40\nper_game_rows = true\n\n[[matchups]]\np1 = \"random\"\np2 = \"greedy\"\n";

    fn store_with(text: &str) -> MemoryStore {
        let s = MemoryStore::new();
        s.insert("exp/t.toml", text);
        s
    }

    fn opts(out: &str) -> RunOptions {
        RunOptions {
            out: Some(out.into()),
            threads: Some(2),
            ..RunOptions::new("exp/t.toml")
        }
    }

    fn file(s: &MemoryStore, path: &str) -> Vec<u8> {
        s.read(Path::new(path)).unwrap()
    }

    #[test]
    fn a_run_writes_its_results_through_the_store_the_same_on_any_thread_count() {
        let s = store_with(EXPERIMENT);
        let done = run(&opts("a"), &s, &Quiet).unwrap();
        assert_eq!(done.played, 80);
        for f in [
            "summary.csv",
            "games.csv",
            "lengths.csv",
            "report.html",
            "manifest.json",
        ] {
            assert!(
                done.files.iter().any(|x| x == f),
                "{f} not in {:?}",
                done.files
            );
            assert!(s.is_file(&Path::new("a").join(f)), "{f}");
        }
        let one = RunOptions {
            threads: Some(1),
            ..opts("b")
        };
        run(&one, &s, &Quiet).unwrap();
        for f in ["summary.csv", "games.csv", "lengths.csv"] {
            assert_eq!(
                file(&s, &format!("a/{f}")),
                file(&s, &format!("b/{f}")),
                "{f}"
            );
        }
        // No checkpoint is left behind once the results are written.
        assert!(!s.is_dir(Path::new("a/.katro-checkpoint")));
    }

    #[test]
    fn a_file_katro_did_not_write_is_refused_and_force_keeps_it() {
        let s = store_with(EXPERIMENT);
        s.insert("out/notes.txt", "mine");
        let e = run(&opts("out"), &s, &Quiet).unwrap_err();
        assert!(e.is_user_input(), "{e}");
        assert!(e.to_string().contains("notes.txt"), "{e}");
        assert!(!s.is_file(Path::new("out/summary.csv")));
        let forced = RunOptions {
            force: true,
            ..opts("out")
        };
        run(&forced, &s, &Quiet).unwrap();
        assert_eq!(file(&s, "out/notes.txt"), b"mine");
    }

    #[test]
    fn shards_merge_to_the_whole_run_and_a_missing_one_is_named() {
        let s = store_with(EXPERIMENT);
        run(&opts("whole"), &s, &Quiet).unwrap();
        let shard = |i| RunOptions {
            shard: Some((i, 2)),
            ..opts("cut")
        };
        let merge_opts = MergeOptions {
            dir: "cut".into(),
            force: false,
            allow_other_build: false,
            command: Vec::new(),
        };
        run(&shard(1), &s, &Quiet).unwrap();
        let e = merge(&merge_opts, &s, &Quiet).unwrap_err();
        assert!(e.is_user_input(), "{e}");
        assert!(e.to_string().contains("missing shard 2/2"), "{e}");
        run(&shard(2), &s, &Quiet).unwrap();
        let merged = merge(&merge_opts, &s, &Quiet).unwrap();
        assert_eq!(merged.kept, 80);
        for f in ["summary.csv", "games.csv", "lengths.csv"] {
            assert_eq!(
                file(&s, &format!("whole/{f}")),
                file(&s, &format!("cut/{f}")),
                "{f}"
            );
        }
    }

    fn csvs(s: &MemoryStore, dir: &str) -> Vec<(PathBuf, Vec<u8>)> {
        s.files_under(dir)
            .into_iter()
            .filter(|(p, _)| p.extension().is_some_and(|e| e == "csv"))
            .collect()
    }

    #[test]
    fn a_grown_run_plays_only_new_games_and_matches_a_fresh_run() {
        let s = store_with(EXPERIMENT);
        run(&opts("out"), &s, &Quiet).unwrap();
        let again = run(&opts("out"), &s, &Quiet).unwrap();
        assert!(again.already_complete);
        assert_eq!((again.played, again.kept), (0, 80));
        assert!(again.text.contains("is complete"), "{}", again.text);
        // The complete rerun shows the table the run printed.
        assert!(again.text.contains("advantage_p1"), "{}", again.text);
        // More games, and a new variant and matchup.
        let bigger = EXPERIMENT
            .replace("games = 40", "games = 70")
            .replace("\"katro-6x3\"]", "\"katro-6x3\", \"katro-6x6\"]")
            + "\n[[matchups]]\np1 = \"greedy\"\np2 = \"random\"\n";
        s.insert("exp/t.toml", bigger.as_str());
        let grown = run(&opts("out"), &s, &Quiet).unwrap();
        assert_eq!(grown.kept, 80);
        assert_eq!(grown.played, 6 * 70 - 80);
        run(&opts("fresh"), &s, &Quiet).unwrap();
        let (a, b) = (csvs(&s, "out"), csvs(&s, "fresh"));
        assert_eq!(a.len(), 4, "summary, games, lengths and comparison");
        assert_eq!(a, b);
        assert_eq!(
            file(&s, "out/run-state.json"),
            file(&s, "fresh/run-state.json")
        );
    }

    #[test]
    fn a_change_to_games_already_played_is_refused_and_force_replays() {
        let s = store_with(EXPERIMENT);
        run(&opts("out"), &s, &Quiet).unwrap();
        let before = csvs(&s, "out");
        s.insert(
            "exp/t.toml",
            EXPERIMENT
                .replace("games = 40", "games = 30")
                .replace("seed = 3", "seed = 4"),
        );
        let e = run(&opts("out"), &s, &Quiet).unwrap_err();
        assert!(e.is_user_input(), "{e}");
        for part in [
            "seed changed from 3 to 4",
            "played 40 games; 30 would drop",
            "--force",
        ] {
            assert!(e.to_string().contains(part), "{part}: {e}");
        }
        assert_eq!(csvs(&s, "out"), before);
        let forced = RunOptions {
            force: true,
            ..opts("out")
        };
        assert_eq!(run(&forced, &s, &Quiet).unwrap().played, 60);
    }

    #[test]
    fn tighter_precision_goes_on_from_where_the_cell_stopped() {
        let text = |width: &str| {
            format!(
                "name = \"p\"\nseed = 5\nvariants = [\"katro-4x4\"]\nper_game_rows = true\n\n\
                 [precision]\nwidth = {width}\nmax_games = 400\ncheckpoint = 40\n\n\
                 [[matchups]]\np1 = \"random\"\np2 = \"random\"\n"
            )
        };
        let s = store_with(&text("0.3"));
        let first = run(&opts("out"), &s, &Quiet).unwrap();
        assert!(first.played < 400, "the loose target stops early");
        s.insert("exp/t.toml", text("0.12"));
        let grown = run(&opts("out"), &s, &Quiet).unwrap();
        assert_eq!(grown.kept, first.played);
        assert!(grown.played > 0);
        run(&opts("fresh"), &s, &Quiet).unwrap();
        assert_eq!(csvs(&s, "out"), csvs(&s, "fresh"));
        s.insert("exp/t.toml", text("0.2"));
        let e = run(&opts("out"), &s, &Quiet).unwrap_err();
        assert!(e.to_string().contains("width grew"), "{e}");
    }
    /// A store whose writes of `state.json` fail while `full` is set, as
    /// on a full disk.
    struct FullDisk {
        inner: MemoryStore,
        full: std::sync::atomic::AtomicBool,
    }

    impl Store for FullDisk {
        fn read(&self, p: &Path) -> std::io::Result<Vec<u8>> {
            self.inner.read(p)
        }
        fn read_start(&self, p: &Path, n: u64) -> std::io::Result<Vec<u8>> {
            self.inner.read_start(p, n)
        }
        fn list(&self, d: &Path) -> std::io::Result<Vec<crate::store::Entry>> {
            self.inner.list(d)
        }
        fn is_dir(&self, p: &Path) -> bool {
            self.inner.is_dir(p)
        }
        fn is_file(&self, p: &Path) -> bool {
            self.inner.is_file(p)
        }
        fn create_dir_all(&self, d: &Path) -> std::io::Result<()> {
            self.inner.create_dir_all(d)
        }
        fn check_writable(&self, d: &Path) -> std::io::Result<()> {
            self.inner.check_writable(d)
        }
        fn write_atomic(&self, d: &Path, name: &str, b: &[u8]) -> std::io::Result<()> {
            if name == "state.json" && self.full.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(std::io::ErrorKind::StorageFull.into());
            }
            self.inner.write_atomic(d, name, b)
        }
        fn remove_file(&self, p: &Path) -> std::io::Result<()> {
            self.inner.remove_file(p)
        }
        fn remove_all(&self, p: &Path) -> std::io::Result<()> {
            self.inner.remove_all(p)
        }
        fn remove_dir(&self, p: &Path) -> std::io::Result<()> {
            self.inner.remove_dir(p)
        }
        fn remove_temporaries(&self, d: &Path) {
            self.inner.remove_temporaries(d)
        }
        fn take_lock(&self, p: &Path, owner: &str) -> std::io::Result<crate::store::Locking<'_>> {
            self.inner.take_lock(p, owner)
        }
    }

    #[test]
    fn a_first_checkpoint_that_fails_is_removed_and_the_rerun_just_starts() {
        let s = FullDisk {
            inner: store_with(EXPERIMENT),
            full: true.into(),
        };
        let every_unit = RunOptions {
            checkpoint_every: Duration::ZERO,
            ..opts("out")
        };
        let e = run(&every_unit, &s, &Quiet).unwrap_err();
        assert!(matches!(e, Error::Failed(_)), "{e}");
        assert!(e.to_string().contains("the disk is full"), "{e}");
        assert!(e.to_string().contains("no checkpoint had been written yet"));
        assert!(!s.is_dir(Path::new("out/.katro-checkpoint")));
        s.full.store(false, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(run(&every_unit, &s, &Quiet).unwrap().played, 80);
    }

    const WITH_MOVES: &str = "name = \"t\"\nseed = 3\nvariants = [\"katro-4x4\"]\ngames = 30\n\
        per_game_rows = true\nmoves_in_rows = true\n\n[[matchups]]\np1 = \"random\"\np2 = \"greedy\"\n";

    /// The rows live only in games.csv; a grown run reads them back from
    /// it, moves and all, and writes what a fresh run writes.
    #[test]
    fn a_grown_run_with_moves_reads_its_rows_from_games_csv() {
        let s = store_with(WITH_MOVES);
        run(&opts("out"), &s, &Quiet).unwrap();
        let state = String::from_utf8(file(&s, "out/run-state.json")).unwrap();
        assert!(!state.contains("\"games\":["), "{state}");
        assert!(state.contains("\"games_csv\":{\"bytes\":"), "{state}");
        let grown = grows_as_fresh(&s, &WITH_MOVES.replace("games = 30", "games = 50"));
        assert_eq!((grown.kept, grown.played), (30, 20));
    }

    /// Runs `bigger` into out/, which holds a smaller version, and into
    /// fresh/: the files must be the same.
    fn grows_as_fresh(s: &MemoryStore, bigger: &str) -> RunOutcome {
        s.insert("exp/t.toml", bigger);
        let grown = run(&opts("out"), s, &Quiet).unwrap();
        run(&opts("fresh"), s, &Quiet).unwrap();
        assert_eq!(csvs(s, "out"), csvs(s, "fresh"));
        assert_eq!(
            file(s, "out/run-state.json"),
            file(s, "fresh/run-state.json")
        );
        grown
    }

    /// A games.csv edited after the run is never taken for the games it
    /// held: growing from it is refused, naming it.
    #[test]
    fn a_games_csv_changed_by_hand_is_refused_when_growing() {
        let s = store_with(WITH_MOVES);
        run(&opts("out"), &s, &Quiet).unwrap();
        let text = String::from_utf8(file(&s, "out/games.csv")).unwrap();
        // The first game's seed column, one digit off: still a valid file.
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let seed_at = lines[0].split(',').position(|c| c == "seed").unwrap();
        let mut fields: Vec<String> = lines[1].split(',').map(String::from).collect();
        let last = fields[seed_at].pop().unwrap();
        fields[seed_at].push(if last == '1' { '2' } else { '1' });
        lines[1] = fields.join(",");
        s.insert("out/games.csv", lines.join("\n") + "\n");
        s.insert("exp/t.toml", WITH_MOVES.replace("games = 30", "games = 50"));
        let e = run(&opts("out"), &s, &Quiet).unwrap_err();
        assert!(e.is_user_input(), "{e}");
        for part in ["out/games.csv", "changed after the run", "--force"] {
            assert!(e.to_string().contains(part), "{part}: {e}");
        }
    }

    /// A run state of an earlier format is refused with its format named,
    /// not misread: its aggregates lack `max_relays_in_move`.
    #[test]
    fn an_earlier_run_state_is_refused() {
        let s = store_with(EXPERIMENT);
        run(&opts("out"), &s, &Quiet).unwrap();
        let mut state: serde_json::Value =
            serde_json::from_slice(&file(&s, "out/run-state.json")).unwrap();
        state
            .as_object_mut()
            .unwrap()
            .insert("format".into(), "katro-run-state-2".into());
        s.insert("out/run-state.json", serde_json::to_vec(&state).unwrap());
        let bigger = EXPERIMENT.replace("games = 40", "games = 50");
        s.insert("exp/t.toml", bigger);
        let e = run(&opts("out"), &s, &Quiet).unwrap_err();
        assert!(e.is_user_input(), "{e}");
        assert!(
            e.to_string()
                .contains("format \"katro-run-state-2\" was written by an earlier katro"),
            "{e}"
        );
    }

    #[test]
    fn a_damaged_run_state_is_refused() {
        let s = store_with(EXPERIMENT);
        run(&opts("out"), &s, &Quiet).unwrap();
        s.insert("out/run-state.json", "{\"format\":");
        s.insert("exp/t.toml", EXPERIMENT.replace("games = 40", "games = 50"));
        let e = run(&opts("out"), &s, &Quiet).unwrap_err();
        assert!(e.is_user_input(), "{e}");
        assert!(
            e.to_string()
                .starts_with("out/run-state.json: not a katro run state, or damaged"),
            "{e}"
        );
        assert!(e.to_string().contains("--force"), "{e}");
    }
}
