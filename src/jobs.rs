//! The `run`, `merge`, `validate` and `simulate` commands: read the
//! inputs, check the output folder, play with a progress bar and
//! checkpoints, write the files. Every decision about games and numbers
//! lives in the library.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use katro::agents::AgentSpec;
use katro::experiment::{Experiment, parse_experiment};
use katro::export::{
    Compare, ExperimentSource, Manifest, ManifestShard, comparison_csv, games_csv, summary_csv,
    summary_table, utc_timestamp,
};
use katro::partial::{
    BUILD, SHARD_FORMAT, ShardFile, StoredRow, VariantFile, fingerprint, other_builds,
    sniff_shard_header,
};
use katro::report::lengths_csv;
use katro::rules::parse_variant;
use katro::runner::{
    self, Cell, GameRow, Layout, NoCheckpoint, Part, Progress, Rows, Stop, Work, merge_parts,
};
use katro::schema::top_level_keys;
use katro::stats::Aggregate;

use crate::checkpoint::{self, Identity, Saver};
use crate::cli::{Failure, emit, load_variant};
use crate::files;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Progress on stderr, drawn only when stderr is a terminal.
struct Bar(ProgressBar);

impl Progress for Bar {
    fn set_total(&self, games: u64) {
        self.0.set_length(games);
    }
    fn advance(&self, games: u64) {
        self.0.inc(games);
    }
}

fn progress_bar() -> Option<Bar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games, {rate} games/s, {eta} left",
        )
        .expect("the progress template is valid")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", state.per_sec());
            },
        ),
    );
    Some(Bar(bar))
}

/// Progress as a line on stderr every `every`, for runs whose stderr is a
/// log file (SLURM, `nohup`): a bar would write nothing readable there.
#[derive(Default)]
struct Lines {
    state: std::sync::Mutex<LineState>,
}

#[derive(Default)]
struct LineState {
    total: u64,
    done: u64,
    /// Games done before this session (a resumed checkpoint): the runner's
    /// first `advance` reports them, and the rate leaves them out.
    before: Option<u64>,
    finished: bool,
}

impl Progress for Lines {
    fn set_total(&self, games: u64) {
        lock(&self.state).total = games;
    }
    fn advance(&self, games: u64) {
        let mut s = lock(&self.state);
        s.done += games;
        if s.before.is_none() {
            s.before = Some(s.done);
        }
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One progress line: games done of the total, the session's rate and the
/// time left at that rate.
fn progress_line(done: u64, total: u64, session_games: u64, seconds: f64) -> String {
    let pct = if total == 0 {
        100.0
    } else {
        100.0 * done as f64 / total as f64
    };
    let rate = if seconds > 0.0 {
        session_games as f64 / seconds
    } else {
        0.0
    };
    let left = if rate > 0.0 {
        format!("{:.0} s left", total.saturating_sub(done) as f64 / rate)
    } else {
        "time left unknown".to_string()
    };
    format!("progress: {done}/{total} games ({pct:.1}%), {rate:.0} games/s, {left}")
}

/// How often a run whose stderr is not a terminal prints a progress line:
/// `KATRO_PROGRESS_SECONDS`, 10 by default.
fn progress_interval() -> Result<std::time::Duration, String> {
    checkpoint::env_seconds(
        "KATRO_PROGRESS_SECONDS",
        10.0,
        "give the seconds between progress lines",
    )
}

/// Plays `work` with a progress bar when stderr is a terminal, else with a
/// progress line every `every`.
fn play(
    work: &Work,
    threads: usize,
    saver: &dyn runner::Checkpoint,
    resume: Option<runner::Resume>,
    every: std::time::Duration,
) -> Result<runner::RunResult, String> {
    if let Some(bar) = progress_bar() {
        let result = runner::run(work, threads, &bar, saver, resume);
        bar.0.finish_and_clear();
        return result;
    }
    let lines = Lines::default();
    let wake = std::sync::Condvar::new();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let clock = Instant::now();
            let mut s = lock(&lines.state);
            loop {
                // A zero interval would print without pause.
                let pause = every.max(std::time::Duration::from_millis(10));
                s = wake
                    .wait_timeout(s, pause)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if s.finished {
                    return;
                }
                let session = s.done - s.before.unwrap_or(0);
                eprintln!(
                    "{}",
                    progress_line(s.done, s.total, session, clock.elapsed().as_secs_f64())
                );
            }
        });
        let result = runner::run(work, threads, &lines, saver, resume);
        lock(&lines.state).finished = true;
        wake.notify_all();
        result
    })
}

fn now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    utc_timestamp(d.as_secs(), d.subsec_millis())
}

fn threads_or_all(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

// ---------------------------------------------------------------------------
// Reading experiments

/// An experiment file read and validated, with the variant files it named.
pub struct Loaded {
    pub path: String,
    pub text: String,
    pub exp: Experiment,
    pub variant_files: Vec<VariantFile>,
}

/// Reads and validates an experiment file; variant files are named
/// relative to its folder.
pub fn load_experiment(path: &str) -> Result<Loaded, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("{path}: cannot read the experiment file: {e}")))?;
    let dir = Path::new(path)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let mut variant_files = Vec::new();
    let mut read_variant = |spec: &str| -> Result<(String, String), String> {
        let p = dir.join(spec);
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{} ({e})", p.display()))?;
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
    rows: &'a [GameRow],
    mode: Rows,
    compare: &'a Compare,
}

/// Writes the CSV files and then the manifest (its presence says the
/// results are complete), and removes result files that the manifest
/// being replaced lists and this run does not make, so a folder never
/// mixes two runs' results. A file no katro manifest lists is never
/// removed: katro may not have written it. Returns the files written.
fn write_results(dir: &Path, r: &Results, mut manifest: Manifest) -> Result<Vec<String>, String> {
    let mut outputs: Vec<(&str, Vec<u8>)> = Vec::new();
    if r.mode != Rows::None {
        let moves = r.mode == Rows::GamesWithMoves;
        outputs.push(("games.csv", games_csv(r.cells, r.rows, moves)));
    }
    if let Some(bytes) = comparison_csv(r.cells, r.aggregates, r.compare) {
        outputs.push(("comparison.csv", bytes));
    }
    let earlier: Vec<String> = fs::read(dir.join("manifest.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .map(|v| listed_files(&v))
        .unwrap_or_default();
    let stale: Vec<&str> = ["games.csv", "comparison.csv"]
        .into_iter()
        .filter(|f| earlier.iter().any(|e| e == f) && !outputs.iter().any(|(n, _)| n == f))
        .collect();
    outputs.push(("summary.csv", summary_csv(r.cells, r.aggregates)));
    outputs.push(("lengths.csv", lengths_csv(r.cells, r.aggregates)));
    let mut written: Vec<String> = outputs.iter().map(|(n, _)| n.to_string()).collect();
    for (name, bytes) in &outputs {
        files::write_atomic(dir, name, bytes).map_err(|e| {
            format!(
                "cannot write {}: {}",
                dir.join(name).display(),
                files::describe(&e)
            )
        })?;
    }
    for name in stale {
        files::remove_stale(dir, name)
            .map_err(|e| format!("cannot remove the stale {}: {e}", dir.join(name).display()))?;
    }
    // The report reads back the files just written, so it shows exactly
    // what they say; the manifest, written last, lists it with the rest.
    written.extend(
        crate::pictures::write_report_titled(dir, Some(&manifest.name)).map_err(|f| f.message)?,
    );
    written.push("manifest.json".into());
    manifest.files = written.clone();
    files::write_atomic(dir, "manifest.json", &manifest.to_bytes()).map_err(|e| {
        format!(
            "cannot write {}: {}",
            dir.join("manifest.json").display(),
            files::describe(&e)
        )
    })?;
    Ok(written)
}

/// The manifest's fields that come from the experiment and its results.
struct ManifestBase<'a> {
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
        katro_version: VERSION.to_string(),
        katro_build: BUILD.to_string(),
        other_builds: Vec::new(),
        command: std::env::args().collect(),
        name: b.name.to_string(),
        experiment: b.experiment,
        experiment_hash: b.hash.to_string(),
        master_seed: b.seed,
        variants,
        cells,
        threads,
        start_time: times.0,
        end_time: times.1,
        wall_seconds: wall,
        games: b.aggregates.iter().map(|a| a.games).sum(),
        resumed_games: 0,
        games_per_second: 0.0,
        shards: None,
        skipped_variants: Vec::new(),
        files: Vec::new(),
    }
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

// ---------------------------------------------------------------------------
// Whose files an output folder holds

const RESULT_FILES: [&str; 6] = [
    "manifest.json",
    "summary.csv",
    "comparison.csv",
    "games.csv",
    "lengths.csv",
    "report.html",
];

/// Something in an output folder that is not this run's to reuse: another
/// experiment's or another build's files, files no manifest of this
/// experiment lists, or the user's own files; and what `--force` deletes.
struct Foreign {
    what: String,
    why: String,
    /// Files (or, with `folder`, one folder) katro wrote, which `--force`
    /// deletes. Empty for what `--force` keeps: files katro did not write,
    /// and result files it will overwrite anyway.
    remove: Vec<PathBuf>,
    folder: bool,
    /// Whether `--allow-other-build` would make it usable.
    other_build: bool,
}

impl Foreign {
    fn new(what: impl Into<String>, why: impl Into<String>) -> Foreign {
        Foreign {
            what: what.into(),
            why: why.into(),
            remove: Vec::new(),
            folder: false,
            other_build: false,
        }
    }
}

/// What a command is about to write into a folder, for [`survey`].
struct Writer<'a> {
    hash: &'a str,
    /// FNV-1a of the experiment's text, for manifests from before the
    /// fingerprint.
    text_fnv: Option<&'a str>,
    /// `Some(N)` for shard runs (which also refuse shards cut for another
    /// N), `Some(0)` for a whole run; `None` for `merge` and `simulate`,
    /// which write only results and look at no checkpoint.
    shards: Option<u64>,
    /// `--allow-other-build`: another build's checkpoint or shards of this
    /// experiment are usable.
    allow_other_build: bool,
}

/// The folder of SLURM job logs that scripts/slurm/submit.sh makes in
/// the output folder before the shards run (docs/CLUSTER.md).
const SLURM_LOGS: &str = "slurm";

/// Result files named in a readable katro manifest: files katro wrote.
fn listed_files(manifest: &serde_json::Value) -> Vec<String> {
    // The report's charts, `plots/NAME.svg`: one level down, no other path.
    let chart = |f: &str| {
        f.strip_prefix("plots/").is_some_and(|n| {
            n.ends_with(".svg") && !n.contains('/') && !n.contains('\\') && !n.starts_with('.')
        })
    };
    manifest["files"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str())
                .filter(|f| RESULT_FILES.contains(f) || chart(f))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A build mismatch in words, for a checkpoint or a shard.
fn other_build_words(theirs: &str) -> String {
    format!(
        "written by katro build {theirs}, not this build {BUILD}: its games may differ from \
         this engine's (--allow-other-build uses it anyway)"
    )
}

/// Whether `name` is one katro gives shard files.
fn is_shard_name(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix("shard-")
        .and_then(|r| r.strip_suffix(".json"))
    else {
        return false;
    };
    let Some((i, n)) = rest.split_once("-of-") else {
        return false;
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    digits(i) && digits(n)
}

/// Everything in `dir` that this command must not silently reuse,
/// overwrite or mix with its results.
fn survey(dir: &Path, w: &Writer) -> Vec<Foreign> {
    let mut found = Vec::new();
    let manifest_path = dir.join("manifest.json");
    // The result files this experiment's own manifest vouches for.
    let mut ours: Vec<String> = Vec::new();
    if manifest_path.exists() {
        let value: Option<serde_json::Value> = fs::read(&manifest_path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        match &value {
            // Perhaps not katro's: kept, and overwritten only once the
            // results it would describe are written.
            None => found.push(Foreign::new(
                "manifest.json",
                "katro cannot read it (--force overwrites it)",
            )),
            Some(v) => {
                let theirs = v["experiment_hash"].as_str();
                // Manifests from before the fingerprint: compare the text.
                let legacy = v["experiment"]["fnv1a64"].as_str();
                let same = match (theirs, legacy) {
                    (Some(h), _) => h == w.hash,
                    (None, Some(f)) => Some(f) == w.text_fnv,
                    (None, None) => false,
                };
                let listed = listed_files(v);
                if same {
                    ours = listed;
                } else {
                    let mut remove = vec![manifest_path.clone()];
                    remove.extend(listed.iter().map(|f| dir.join(f)));
                    found.push(Foreign {
                        remove,
                        ..Foreign::new(
                            "manifest.json and its results",
                            format!(
                                "results of experiment `{}` (hash {})",
                                v["name"].as_str().unwrap_or("?"),
                                theirs.unwrap_or("not recorded")
                            ),
                        )
                    });
                    ours = listed;
                }
            }
        }
    }
    // An interrupted write leaves this experiment's result files with its
    // checkpoint and no manifest yet.
    let own_checkpoint = w.shards.is_some()
        && fs::read_dir(dir.join(checkpoint::FOLDER)).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                checkpoint::read_identity(&e.path()).is_ok_and(|c| c.experiment_hash == w.hash)
            })
        });
    let Ok(entries) = fs::read_dir(dir) else {
        return found;
    };
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    for name in &names {
        let katro_own = name == "manifest.json"
            || name == checkpoint::FOLDER
            || name == "shards"
            // The report's charts, when a manifest of this experiment or
            // of the one being replaced lists them (the files themselves
            // are judged by that listing).
            || (name == "plots" && ours.iter().any(|f| f.starts_with("plots/")))
            // The job logs scripts/slurm/submit.sh keeps in OUT/slurm/:
            // katro's own, and never written to by this command.
            || (name == SLURM_LOGS && dir.join(name).is_dir())
            // Temporaries of an interrupted atomic write or writability probe.
            || (name.starts_with('.') && (name.contains(".tmp-") || name.starts_with(".katro-write-test-")));
        if katro_own {
            continue;
        }
        if RESULT_FILES.contains(&name.as_str()) {
            if !ours.contains(name) && !own_checkpoint {
                found.push(Foreign::new(
                    name.clone(),
                    "no manifest of this experiment lists it: katro may not have written it \
                     (--force overwrites it)",
                ));
            }
            continue;
        }
        found.push(Foreign::new(
            name.clone(),
            "not a katro output (--force keeps it)",
        ));
    }
    let Some(shards) = w.shards else {
        return found;
    };
    if let Ok(entries) = fs::read_dir(dir.join(checkpoint::FOLDER)) {
        for e in entries.flatten().filter(|e| e.path().is_dir()) {
            let mut other_build = false;
            let why = match checkpoint::read_identity(&e.path()) {
                Err(e) => Some(e),
                Ok(c) if c.experiment_hash != w.hash => Some(format!(
                    "a checkpoint of experiment `{}` (hash {})",
                    c.name, c.experiment_hash
                )),
                Ok(c) if c.katro_build != BUILD && !w.allow_other_build => {
                    other_build = true;
                    Some(format!(
                        "a checkpoint of this experiment {}",
                        other_build_words(&c.katro_build)
                    ))
                }
                Ok(_) => None,
            };
            if let Some(why) = why {
                found.push(Foreign {
                    remove: vec![e.path()],
                    folder: true,
                    other_build,
                    ..Foreign::new(
                        format!("{}/{}", checkpoint::FOLDER, e.file_name().to_string_lossy()),
                        why,
                    )
                });
            }
        }
    }
    for path in shard_files(&dir.join("shards")) {
        let header = files::read_start(&path, 4096)
            .ok()
            .and_then(|b| sniff_shard_header(&b));
        let name = file_name(&path);
        let mut other_build = false;
        let why = match header {
            None => Some("not a katro shard file, or damaged".to_string()),
            Some(h) if h.experiment_hash != w.hash => Some(format!(
                "shard {}/{} of experiment `{}` (hash {})",
                h.shard, h.shards, h.name, h.experiment_hash
            )),
            Some(h) if h.katro_build != BUILD && !w.allow_other_build => {
                other_build = true;
                Some(format!(
                    "shard {}/{} {}",
                    h.shard,
                    h.shards,
                    other_build_words(&h.katro_build)
                ))
            }
            Some(h) if shards > 0 && h.shards != shards => Some(format!(
                "shard {}/{} of this experiment, cut for N = {} rather than {shards}",
                h.shard, h.shards, h.shards
            )),
            Some(_) => None,
        };
        if let Some(why) = why {
            // A file katro does not name as a shard is the user's: kept.
            let remove = if is_shard_name(&name) {
                vec![path.clone()]
            } else {
                Vec::new()
            };
            found.push(Foreign {
                remove,
                other_build,
                ..Foreign::new(format!("shards/{name}"), why)
            });
        }
    }
    found
}

/// Refuses to use a folder holding files that are not this run's, or with
/// `force` deletes those of them katro wrote and goes on; files katro did
/// not write are never deleted.
fn refuse_or_clear(
    dir: &Path,
    found: Vec<Foreign>,
    force: bool,
    name: &str,
    hash: &str,
) -> Result<(), Failure> {
    if found.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = found
        .iter()
        .map(|f| format!("  {}: {}", f.what, f.why))
        .collect();
    if !force {
        let allow = if found.iter().all(|f| f.other_build) {
            " or --allow-other-build to use them as they are,"
        } else {
            ""
        };
        return Err(Failure::input(format!(
            "the output folder {} holds files of another experiment, another katro build or \
             not written by katro:\n{}\n\
             this is experiment `{name}` (hash {hash}) and katro build {BUILD}. Give another \
             output folder,{allow} or --force to delete the files katro wrote there and \
             replace its results (files katro did not write are kept)",
            dir.display(),
            list.join("\n")
        )));
    }
    let mut deleted = Vec::new();
    let mut seen: Vec<&Path> = Vec::new();
    for f in &found {
        for p in &f.remove {
            // A manifest lists itself among its files: delete and name it once.
            if seen.contains(&p.as_path()) {
                continue;
            }
            seen.push(p);
            let r = if f.folder {
                files::remove_all(p)
            } else {
                files::remove_stale(p.parent().unwrap_or(dir), &file_name(p))
            };
            r.map_err(|e| Failure {
                code: 1,
                message: format!("--force: cannot delete {}: {e}", p.display()),
            })?;
            deleted.push(format!("  {}", p.strip_prefix(dir).unwrap_or(p).display()));
        }
    }
    // The report's `plots/` folder, katro's own, once its listed charts are
    // gone: removed only if nothing else is left in it.
    let plots = dir.join("plots");
    if seen.iter().any(|p| p.parent() == Some(plots.as_path())) && fs::remove_dir(&plots).is_ok() {
        deleted.push("  plots/".to_string());
    }
    eprintln!(
        "--force: found in {}:\n{}\n--force: deleted {}{}",
        dir.display(),
        list.join("\n"),
        if deleted.is_empty() {
            "nothing"
        } else {
            "these katro files:\n"
        },
        deleted.join("\n")
    );
    Ok(())
}

/// The shard files in a folder, by name: `*.json`, not hidden.
fn shard_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().to_string());
            p.is_file() && name.is_some_and(|n| n.ends_with(".json") && !n.starts_with('.'))
        })
        .collect();
    out.sort();
    out
}

pub fn shard_file_name(index: u64, count: u64) -> String {
    format!("shard-{index}-of-{count}.json")
}

// ---------------------------------------------------------------------------
// katro run

pub struct RunArgs<'a> {
    pub experiment: &'a str,
    pub threads: Option<u32>,
    pub out: Option<&'a str>,
    /// (I, N) for shard I of N.
    pub shard: Option<(u64, u64)>,
    pub force: bool,
    pub allow_other_build: bool,
}

/// `katro run EXPERIMENT.toml [--shard I/N] [--force]`.
pub fn run(a: RunArgs) -> Result<(), Failure> {
    let l = load_experiment(a.experiment)?;
    let path = &l.path;
    let exp = &l.exp;
    eprint!("{}", skipped_text(exp));
    let (out_dir, origin) = match (a.out, &exp.output) {
        (Some(o), _) => (PathBuf::from(o), format!("--out {o}")),
        (None, Some(o)) => (PathBuf::from(o), format!("{path}: `output`")),
        (None, None) => (
            Path::new("results").join(&exp.name),
            format!("{path}: `name` (the default output folder is results/<name>/)"),
        ),
    };
    files::check_writable(&out_dir).map_err(|e| {
        Failure::input(format!(
            "{origin}: cannot write to the output folder {}: {e}",
            out_dir.display()
        ))
    })?;
    let cells = exp.cells();
    let rows = exp.rows();
    let hash = exp.fingerprint();
    let source = ExperimentSource::new(path, &l.text);
    let part = match a.shard {
        None => Part::Whole,
        Some((index, count)) => Part::Shard { index, count },
    };
    let shards = a.shard.map_or(0, |(_, n)| n);
    let found = survey(
        &out_dir,
        &Writer {
            hash: &hash,
            text_fnv: Some(&source.fnv1a64),
            shards: Some(shards),
            allow_other_build: a.allow_other_build,
        },
    );
    refuse_or_clear(&out_dir, found, a.force, &exp.name, &hash)?;

    let work = Work {
        cells: &cells,
        master: exp.seed,
        rows,
        part,
    };
    let cp_dir = checkpoint::folder(&out_dir, part);
    let loaded = match checkpoint::load(&cp_dir, &cells).and_then(|l| match &l {
        Some((_, r)) => runner::check_resume(&work, r).map(|()| l),
        None => Ok(l),
    }) {
        Ok(l) => l,
        Err(e) if a.force => {
            files::remove_all(&cp_dir).map_err(|e| Failure {
                code: 1,
                message: format!("--force: cannot delete {}: {e}", cp_dir.display()),
            })?;
            eprintln!("--force: deleted the unusable checkpoint ({e})");
            None
        }
        Err(e) => {
            return Err(Failure::input(format!(
                "{e}. Use --force to delete the checkpoint and start again"
            )));
        }
    };
    let every = checkpoint::interval().map_err(Failure::input)?;
    let progress_every = progress_interval().map_err(Failure::input)?;
    let id = Identity {
        experiment_hash: hash.clone(),
        name: exp.name.clone(),
        part,
    };
    let saver = Saver::new(
        cp_dir.clone(),
        &id,
        &cells,
        every,
        loaded.as_ref().map(|(f, _)| f),
    );
    let resumed_games = loaded.as_ref().map_or(0, |(f, _)| f.state.games());
    if loaded.is_some() {
        eprintln!(
            "resuming from the checkpoint in {}: {} already played",
            cp_dir.display(),
            plural(resumed_games, "game")
        );
    }
    if !saver.other_builds.is_empty() {
        eprintln!(
            "--allow-other-build: games played by katro build {} are kept; this is build \
             {BUILD}; the results list both",
            saver.other_builds.join(", ")
        );
    }
    let threads = threads_or_all(a.threads);
    let start_time = now();
    let clock = Instant::now();
    let result = play(
        &work,
        threads,
        &saver,
        loaded.map(|(_, r)| r),
        progress_every,
    )
    .map_err(|e| interrupted(e, &saver))?;
    let session_wall = clock.elapsed().as_secs_f64();
    let end_time = now();

    let report = match part {
        Part::Whole => {
            let aggregates = result.aggregates();
            let mut m = manifest(
                ManifestBase {
                    name: &exp.name,
                    experiment: Some(source),
                    hash: &hash,
                    seed: exp.seed,
                    cells: &cells,
                    aggregates: &aggregates,
                },
                threads,
                (start_time, end_time),
                session_wall,
            );
            m.resumed_games = resumed_games;
            m.other_builds = saver.other_builds.clone();
            m.skipped_variants = exp.skipped.clone();
            let new_games = m.games - resumed_games;
            m.games_per_second = if session_wall > 0.0 {
                new_games as f64 / session_wall
            } else {
                0.0
            };
            let written = write_results(
                &out_dir,
                &Results {
                    cells: &cells,
                    aggregates: &aggregates,
                    rows: &result.rows,
                    mode: rows,
                    compare: &exp.compare,
                },
                m,
            )
            .map_err(|e| interrupted(e, &saver))?;
            let mut report = summary_table(&cells, &aggregates);
            report.push_str(&format!(
                "\n{} in {session_wall:.1} s on {}{}; wrote {} in {}\n",
                plural(new_games, "game"),
                plural(threads as u64, "thread"),
                if resumed_games > 0 {
                    format!(" (and {resumed_games} resumed from the checkpoint)")
                } else {
                    String::new()
                },
                written.join(", "),
                out_dir.display()
            ));
            report
        }
        Part::Shard { index, count } => {
            let games = result.state.games();
            let shard = ShardFile {
                format: SHARD_FORMAT.into(),
                katro_version: VERSION.into(),
                katro_build: BUILD.into(),
                experiment_hash: hash.clone(),
                name: exp.name.clone(),
                shard: index,
                shards: count,
                other_builds: saver.other_builds.clone(),
                experiment: source,
                variant_files: l.variant_files.clone(),
                layout: Layout::new(&cells).cells,
                threads,
                start_time,
                end_time,
                wall_seconds: saver.wall_seconds(),
                games,
                rows: result
                    .rows
                    .iter()
                    .map(|r| StoredRow::new(&cells, r))
                    .collect(),
                state: result.state,
            };
            let dir = out_dir.join("shards");
            let name = shard_file_name(index, count);
            let bytes = serde_json::to_vec(&shard).expect("a shard serialises");
            fs::create_dir_all(&dir)
                .and_then(|()| files::write_atomic(&dir, &name, &bytes))
                .map_err(|e| {
                    interrupted(
                        format!(
                            "cannot write {}: {}",
                            dir.join(&name).display(),
                            files::describe(&e)
                        ),
                        &saver,
                    )
                })?;
            format!(
                "shard {index}/{count} of `{}`: {} in {session_wall:.1} s on {}; wrote {}\n\
                 once every shard is done: katro merge {}\n",
                exp.name,
                plural(games - resumed_games, "game"),
                plural(threads as u64, "thread"),
                dir.join(&name).display(),
                out_dir.display()
            )
        }
    };
    // The results are complete: the checkpoint has done its job.
    files::remove_all(&cp_dir).map_err(|e| Failure {
        code: 1,
        message: format!(
            "cannot delete the finished checkpoint {}: {e}",
            cp_dir.display()
        ),
    })?;
    let _ = fs::remove_dir(out_dir.join(checkpoint::FOLDER));
    emit(&report)
}

/// A run stopped by an error after it started playing: says what of its
/// work is safe.
fn interrupted(message: String, saver: &Saver) -> Failure {
    let kept = saver.games_saved.load(std::sync::atomic::Ordering::Relaxed);
    let note = if saver.dir().join("state.json").exists() {
        format!(
            "the last checkpoint ({}, in {}) is intact: fix the problem and run the same \
             command again to go on from it",
            plural(kept, "game"),
            saver.dir().display()
        )
    } else {
        "no checkpoint had been written yet".to_string()
    };
    Failure {
        code: 1,
        message: format!("{message}\n{note}"),
    }
}

// ---------------------------------------------------------------------------
// katro merge

/// Reads a shard file whole.
fn read_shard(path: &Path) -> Result<ShardFile, String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let shard: ShardFile = serde_json::from_slice(&bytes).map_err(|e| {
        format!(
            "{}: not a katro shard file, or damaged: {e}",
            path.display()
        )
    })?;
    if shard.format != SHARD_FORMAT {
        return Err(format!(
            "{}: format {:?}, not {SHARD_FORMAT:?}",
            path.display(),
            shard.format
        ));
    }
    Ok(shard)
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().to_string(),
    )
}

/// The builds that played a shard's games.
fn shard_builds(s: &ShardFile) -> impl Iterator<Item = &str> {
    std::iter::once(s.katro_build.as_str()).chain(s.other_builds.iter().map(String::as_str))
}

/// Everything wrong with a set of shards as a set: mixed experiments or N,
/// games of another build (unless `allow_other_build`), duplicates, and
/// missing shards.
fn shard_set_problems(
    shards: &[(PathBuf, ShardFile)],
    dir: &Path,
    allow_other_build: bool,
) -> Vec<String> {
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
    if distinct(&|s| s.experiment_hash.clone()) > 1 {
        problems.push(format!(
            "the shards come from different experiments:\n{}",
            listing(&|s| format!("experiment `{}`, hash {}", s.name, s.experiment_hash))
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
    if !problems.is_empty() {
        return problems;
    }
    let n = shards[0].1.shards;
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
    let missing: Vec<String> = (1..=n)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "missing {} {}: run each with `katro run {} --shard I/{n} --out {}`",
            if missing.len() == 1 {
                "shard"
            } else {
                "shards"
            },
            missing.join(", "),
            shards[0].1.experiment.file,
            dir.display()
        ));
    }
    problems
}

/// `katro merge DIR`: the shards in DIR/shards into DIR's results.
pub fn merge(dir: &str, force: bool, allow_other_build: bool) -> Result<(), Failure> {
    let dir = PathBuf::from(dir);
    let shards_dir = dir.join("shards");
    let paths = shard_files(&shards_dir);
    if paths.is_empty() {
        return Err(Failure::input(format!(
            "{}: no shard files: run `katro run EXPERIMENT --shard I/N --out {}` for I = 1 \
             to N first",
            shards_dir.display(),
            dir.display()
        )));
    }
    let mut shards = Vec::new();
    let mut unreadable = Vec::new();
    for p in paths {
        match read_shard(&p) {
            Ok(s) => shards.push((p, s)),
            Err(e) => unreadable.push(e),
        }
    }
    let mut problems = unreadable;
    if !shards.is_empty() {
        problems.extend(shard_set_problems(&shards, &dir, allow_other_build));
    }
    if !problems.is_empty() {
        return Err(Failure::input(format!(
            "cannot merge the shards in {}:\n{}",
            shards_dir.display(),
            problems.join("\n")
        )));
    }
    shards.sort_by_key(|(_, s)| s.shard);
    let (first_path, first) = &shards[0];
    let damaged = |what: String| {
        Failure::input(format!(
            "cannot merge the shards in {}: {what}",
            shards_dir.display()
        ))
    };

    // Rebuild the experiment from the text and variant files the shards
    // carry, so the merge needs nothing but the shards.
    let mut read_variant = |spec: &str| -> Result<(String, String), String> {
        first
            .variant_files
            .iter()
            .find(|v| v.spec == spec)
            .map(|v| (v.file.clone(), v.text.clone()))
            .ok_or_else(|| format!("{spec} is not stored in the shard"))
    };
    let exp = parse_experiment(
        &first.experiment.file,
        &first.experiment.text,
        &mut read_variant,
    )
    .map_err(|e| {
        damaged(format!(
            "the experiment stored in {} does not parse:\n{e}",
            file_name(first_path)
        ))
    })?;
    let cells = exp.cells();
    let hash = exp.fingerprint();
    if hash != first.experiment_hash {
        return Err(damaged(format!(
            "{} says experiment hash {}, but its experiment gives {hash}",
            file_name(first_path),
            first.experiment_hash
        )));
    }
    let mut rows = Vec::new();
    for (p, s) in &shards {
        if s.layout != Layout::new(&cells).cells {
            return Err(damaged(format!(
                "{} cuts the games into other units",
                file_name(p)
            )));
        }
        for r in &s.rows {
            rows.push(
                r.to_row(&cells)
                    .map_err(|e| damaged(format!("{}: {e}", file_name(p))))?,
            );
        }
    }
    let states: Vec<(u64, &runner::RunState)> =
        shards.iter().map(|(_, s)| (s.shard, &s.state)).collect();
    let (aggregates, rows) =
        merge_parts(&cells, first.shards, &states, rows, exp.rows()).map_err(damaged)?;

    let found = survey(
        &dir,
        &Writer {
            hash: &hash,
            text_fnv: Some(&first.experiment.fnv1a64),
            shards: None,
            allow_other_build,
        },
    );
    refuse_or_clear(&dir, found, force, &exp.name, &hash)?;
    files::check_writable(&dir).map_err(|e| {
        Failure::input(format!("cannot write to the folder {}: {e}", dir.display()))
    })?;
    let start = shards.iter().map(|(_, s)| s.start_time.clone()).min();
    let end = shards.iter().map(|(_, s)| s.end_time.clone()).max();
    let wall: f64 = shards.iter().map(|(_, s)| s.wall_seconds).sum();
    let played: u64 = shards.iter().map(|(_, s)| s.games).sum();
    let mut m = manifest(
        ManifestBase {
            name: &exp.name,
            experiment: Some(first.experiment.clone()),
            hash: &hash,
            seed: exp.seed,
            cells: &cells,
            aggregates: &aggregates,
        },
        shards.iter().map(|(_, s)| s.threads).max().unwrap_or(1),
        (start.unwrap_or_default(), end.unwrap_or_default()),
        wall,
    );
    m.skipped_variants = exp.skipped.clone();
    m.games_per_second = if wall > 0.0 {
        played as f64 / wall
    } else {
        0.0
    };
    m.other_builds = other_builds(BUILD, shards.iter().flat_map(|(_, s)| shard_builds(s)));
    m.shards = Some(
        shards
            .iter()
            .map(|(_, s)| ManifestShard {
                shard: format!("{}/{}", s.shard, s.shards),
                katro_build: s.katro_build.clone(),
                threads: s.threads,
                start_time: s.start_time.clone(),
                end_time: s.end_time.clone(),
                wall_seconds: s.wall_seconds,
                games: s.games,
            })
            .collect(),
    );
    let written = write_results(
        &dir,
        &Results {
            cells: &cells,
            aggregates: &aggregates,
            rows: &rows,
            mode: exp.rows(),
            compare: &exp.compare,
        },
        m,
    )
    .map_err(|message| Failure { code: 1, message })?;
    let mut report = summary_table(&cells, &aggregates);
    report.push_str(&format!(
        "\nmerged {} ({} played in {wall:.1} s of shard time); wrote {} in {}\n",
        plural(first.shards, "shard"),
        plural(played, "game"),
        written.join(", "),
        dir.display()
    ));
    emit(&report)
}

// ---------------------------------------------------------------------------
// katro validate

const EXPERIMENT_KEYS: [&str; 5] = ["variants", "matchups", "seed", "games", "precision"];

/// Checks one file, telling a variant from an experiment by its keys.
fn validate_one(path: &str) -> Result<String, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("{path}: cannot read the file: {e}"))?;
    let keys = top_level_keys(&text);
    let stem = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant");
    if keys.iter().any(|k| k == "board") {
        return parse_variant(path, &text, stem)
            .map(|r| format!("variant `{}`", r.name()))
            .map_err(|e| e.to_string());
    }
    if keys.iter().any(|k| EXPERIMENT_KEYS.contains(&k.as_str())) {
        let l = load_experiment(path).map_err(|f| f.message)?;
        let cells = l.exp.cells();
        let most: u64 = cells.iter().map(|c| c.stop.max_games()).sum();
        let skipped = match l.exp.skipped.len() {
            0 => String::new(),
            n => format!(
                "; {} left out (skip_invalid): {}",
                plural(n as u64, "invalid sweep combination"),
                l.exp
                    .skipped
                    .iter()
                    .map(|s| format!("{}: {}", s.variant, s.reasons.join("; ")))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
        };
        return Ok(format!(
            "experiment `{}`: {}, at most {}{skipped}",
            l.exp.name,
            plural(cells.len() as u64, "cell"),
            plural(most, "game")
        ));
    }
    // Neither: if the text is not even TOML, its syntax errors say most.
    match parse_variant(path, &text, stem) {
        Err(e)
            if e.problems
                .iter()
                .any(|p| p.message.starts_with("TOML syntax")) =>
        {
            Err(e.to_string())
        }
        _ => Err(format!(
            "{path}: neither a variant file (it has no [board] table) nor an experiment file \
             (it has no `variants` or `matchups`)"
        )),
    }
}

/// `katro validate FILE...`: every problem of every file, exit 2 if any.
pub fn validate(paths: &[String]) -> Result<(), Failure> {
    let mut ok = String::new();
    let mut bad = 0;
    for p in paths {
        match validate_one(p) {
            Ok(what) => ok.push_str(&format!("{p}: valid {what}\n")),
            Err(problems) => {
                eprintln!("{problems}");
                bad += 1;
            }
        }
    }
    emit(&ok)?;
    if bad > 0 {
        return Err(Failure::input(format!(
            "{bad} of {} {} problems",
            plural(paths.len() as u64, "file"),
            if bad == 1 { "has" } else { "have" }
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// katro simulate

pub struct SimulateArgs<'a> {
    pub variant: &'a str,
    pub games: u64,
    pub p1: &'a str,
    pub p2: &'a str,
    pub seed: u64,
    pub out: Option<&'a str>,
    pub threads: Option<u32>,
    pub force: bool,
}

/// `katro simulate VARIANT --games N --p1 AGENT --p2 AGENT`.
pub fn simulate(a: SimulateArgs) -> Result<(), Failure> {
    let rules = load_variant(a.variant)?;
    let seat = |flag: &str, text: &str| {
        AgentSpec::parse(text)
            .and_then(|a| a.reproducible().map(|()| a))
            .map_err(|e| Failure::input(format!("{flag}: {e}")))
    };
    let (p1, p2) = (seat("--p1", a.p1)?, seat("--p2", a.p2)?);
    let progress_every = progress_interval().map_err(Failure::input)?;
    let cells = [Cell {
        rules: &rules,
        p1: &p1,
        p2: &p2,
        opening_plies: 0,
        stop: Stop::Games(a.games),
    }];
    let name = format!("simulate-{}", rules.name());
    let hash = fingerprint(&name, a.seed, Rows::None, &cells);
    let out = match a.out {
        Some(o) => {
            let dir = PathBuf::from(o);
            // Checked before a game is played, as `run` does.
            let found = survey(
                &dir,
                &Writer {
                    hash: &hash,
                    text_fnv: None,
                    shards: None,
                    allow_other_build: false,
                },
            );
            refuse_or_clear(&dir, found, a.force, &name, &hash)?;
            files::check_writable(&dir).map_err(|e| {
                Failure::input(format!("--out {o}: cannot write to the output folder: {e}"))
            })?;
            Some(dir)
        }
        None => None,
    };
    let threads = threads_or_all(a.threads);
    let work = Work {
        cells: &cells,
        master: a.seed,
        rows: Rows::None,
        part: Part::Whole,
    };
    let start_time = now();
    let clock = Instant::now();
    let result = play(&work, threads, &NoCheckpoint, None, progress_every)
        .map_err(|message| Failure { code: 1, message })?;
    let wall = clock.elapsed().as_secs_f64();
    let aggregates = result.aggregates();
    let mut report = summary_table(&cells, &aggregates);
    if let Some(dir) = out {
        let mut m = manifest(
            ManifestBase {
                name: &name,
                experiment: None,
                hash: &hash,
                seed: a.seed,
                cells: &cells,
                aggregates: &aggregates,
            },
            threads,
            (start_time, now()),
            wall,
        );
        m.games_per_second = if wall > 0.0 {
            m.games as f64 / wall
        } else {
            0.0
        };
        let written = write_results(
            &dir,
            &Results {
                cells: &cells,
                aggregates: &aggregates,
                rows: &[],
                mode: Rows::None,
                compare: &Compare::default(),
            },
            m,
        )
        .map_err(|message| Failure { code: 1, message })?;
        report.push_str(&format!(
            "\n{} in {wall:.1} s on {}; wrote {} in {}\n",
            plural(a.games, "game"),
            plural(threads as u64, "thread"),
            written.join(", "),
            dir.display()
        ));
    }
    emit(&report)
}

#[cfg(test)]
mod progress_tests {
    use super::progress_line;

    #[test]
    fn a_progress_line_gives_games_rate_and_time_left() {
        // 300 of 1000 done, 200 of them in 4 s this session: 50 games/s,
        // 700 left at 50/s = 14 s.
        assert_eq!(
            progress_line(300, 1000, 200, 4.0),
            "progress: 300/1000 games (30.0%), 50 games/s, 14 s left"
        );
        assert_eq!(
            progress_line(0, 10, 0, 0.0),
            "progress: 0/10 games (0.0%), 0 games/s, time left unknown"
        );
    }
}
