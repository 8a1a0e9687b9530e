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
    ExperimentSource, Manifest, ManifestShard, comparison_csv, games_csv, summary_csv,
    summary_table, utc_timestamp,
};
use katro::partial::{
    SHARD_FORMAT, ShardFile, StoredRow, VariantFile, fingerprint, sniff_shard_header,
};
use katro::report::lengths_csv;
use katro::rules::parse_variant;
use katro::runner::{
    self, Cell, GameRow, Layout, NoCheckpoint, Part, Progress, Quiet, Rows, Stop, Work, merge_parts,
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

/// Plays `work` with a progress bar when stderr is a terminal.
fn play(
    work: &Work,
    threads: usize,
    saver: &dyn runner::Checkpoint,
    resume: Option<runner::Resume>,
) -> Result<runner::RunResult, String> {
    let bar = progress_bar();
    let progress: &dyn Progress = match &bar {
        Some(b) => b,
        None => &Quiet,
    };
    let result = runner::run(work, threads, progress, saver, resume);
    if let Some(b) = &bar {
        b.0.finish_and_clear();
    }
    result
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
}

/// Writes the CSV files and then the manifest (its presence says the
/// results are complete), and removes result files of an earlier run that
/// this one does not make. Returns the files written.
fn write_results(dir: &Path, r: &Results, mut manifest: Manifest) -> Result<Vec<String>, String> {
    let mut outputs: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut stale = Vec::new();
    if r.mode != Rows::None {
        let moves = r.mode == Rows::GamesWithMoves;
        outputs.push(("games.csv", games_csv(r.cells, r.rows, moves)));
    } else {
        stale.push("games.csv");
    }
    match comparison_csv(r.cells, r.aggregates) {
        Some(bytes) => outputs.push(("comparison.csv", bytes)),
        None => stale.push("comparison.csv"),
    }
    outputs.push(("summary.csv", summary_csv(r.cells, r.aggregates)));
    outputs.push(("lengths.csv", lengths_csv(r.cells, r.aggregates)));
    let mut written: Vec<String> = outputs.iter().map(|(n, _)| n.to_string()).collect();
    written.push("manifest.json".into());
    manifest.files = written.clone();
    outputs.push(("manifest.json", manifest.to_bytes()));
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
    // what they say; it is not in the manifest, which marks the results
    // complete before it is drawn.
    written.extend(crate::pictures::write_report(dir).map_err(|f| f.message)?);
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
        files: Vec::new(),
    }
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

/// Something in an output folder that belongs to another experiment (or
/// another katro version, or cannot be read), and what `--force` deletes.
struct Foreign {
    what: String,
    why: String,
    remove: Vec<PathBuf>,
    folder: bool,
}

/// What of `dir` would mix with this run's results: results, checkpoints
/// and (with `shards`) shard files of another experiment. `shards` is the
/// N of a shard run, which also refuses shards cut for another N; 0 for a
/// whole run; `None` for a merge, which checks only the results.
fn survey(dir: &Path, hash: &str, text_fnv: Option<&str>, shards: Option<u64>) -> Vec<Foreign> {
    let mut found = Vec::new();
    let manifest = dir.join("manifest.json");
    if manifest.exists() {
        let value: Option<serde_json::Value> = fs::read(&manifest)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        let why = match &value {
            None => Some("katro cannot read it".to_string()),
            Some(v) => {
                let theirs = v["experiment_hash"].as_str();
                // Manifests from before the fingerprint: compare the text.
                let legacy = v["experiment"]["fnv1a64"].as_str();
                let same = match (theirs, legacy) {
                    (Some(h), _) => h == hash,
                    (None, Some(f)) => Some(f) == text_fnv,
                    (None, None) => false,
                };
                (!same).then(|| {
                    format!(
                        "results of experiment `{}` (hash {})",
                        v["name"].as_str().unwrap_or("?"),
                        theirs.unwrap_or("not recorded")
                    )
                })
            }
        };
        if let Some(why) = why {
            found.push(Foreign {
                what: "manifest.json and its results".into(),
                why,
                remove: RESULT_FILES.iter().map(|f| dir.join(f)).collect(),
                folder: false,
            });
        }
    }
    let Some(shards) = shards else {
        return found;
    };
    if let Ok(entries) = fs::read_dir(dir.join(checkpoint::FOLDER)) {
        for e in entries.flatten().filter(|e| e.path().is_dir()) {
            let why = match checkpoint::read_identity(&e.path()) {
                Err(e) => Some(e),
                Ok(c) if c.experiment_hash != hash => Some(format!(
                    "a checkpoint of experiment `{}` (hash {})",
                    c.name, c.experiment_hash
                )),
                Ok(c) if c.katro_version != VERSION => Some(format!(
                    "a checkpoint written by katro {}, whose games may differ from katro \
                     {VERSION}'s",
                    c.katro_version
                )),
                Ok(_) => None,
            };
            if let Some(why) = why {
                found.push(Foreign {
                    what: format!("{}/{}", checkpoint::FOLDER, e.file_name().to_string_lossy()),
                    why,
                    remove: vec![e.path()],
                    folder: true,
                });
            }
        }
    }
    for path in shard_files(&dir.join("shards")) {
        let header = files::read_start(&path, 4096)
            .ok()
            .and_then(|b| sniff_shard_header(&b));
        let why = match header {
            None => Some("not a katro shard file, or damaged".to_string()),
            Some(h) if h.experiment_hash != hash => Some(format!(
                "shard {}/{} of experiment `{}` (hash {})",
                h.shard, h.shards, h.name, h.experiment_hash
            )),
            Some(h) if h.katro_version != VERSION => Some(format!(
                "shard {}/{} written by katro {}",
                h.shard, h.shards, h.katro_version
            )),
            Some(h) if shards > 0 && h.shards != shards => Some(format!(
                "shard {}/{} of this experiment, cut for N = {} rather than {shards}",
                h.shard, h.shards, h.shards
            )),
            Some(_) => None,
        };
        if let Some(why) = why {
            found.push(Foreign {
                what: format!("shards/{}", path.file_name().unwrap().to_string_lossy()),
                why,
                remove: vec![path],
                folder: false,
            });
        }
    }
    found
}

/// Refuses to use a folder holding another experiment's files, or with
/// `force` deletes them.
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
        return Err(Failure::input(format!(
            "the output folder {} holds files of another experiment or katro version:\n{}\n\
             this is experiment `{name}` (hash {hash}) and katro {VERSION}. Give another \
             output folder, or --force to delete those files and go on",
            dir.display(),
            list.join("\n")
        )));
    }
    for f in &found {
        for p in &f.remove {
            let r = if f.folder {
                files::remove_all(p)
            } else {
                files::remove_stale(
                    p.parent().unwrap_or(dir),
                    &p.file_name().unwrap().to_string_lossy(),
                )
            };
            r.map_err(|e| Failure {
                code: 1,
                message: format!("--force: cannot delete {}: {e}", p.display()),
            })?;
        }
    }
    eprintln!(
        "--force: deleted from {}:\n{}",
        dir.display(),
        list.join("\n")
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
}

/// `katro run EXPERIMENT.toml [--shard I/N] [--force]`.
pub fn run(a: RunArgs) -> Result<(), Failure> {
    let l = load_experiment(a.experiment)?;
    let path = &l.path;
    let exp = &l.exp;
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
    let hash = fingerprint(&exp.name, exp.seed, rows, &cells);
    let source = ExperimentSource::new(path, &l.text);
    let part = match a.shard {
        None => Part::Whole,
        Some((index, count)) => Part::Shard { index, count },
    };
    let shards = a.shard.map_or(0, |(_, n)| n);
    let found = survey(&out_dir, &hash, Some(&source.fnv1a64), Some(shards));
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
    let threads = threads_or_all(a.threads);
    let start_time = now();
    let clock = Instant::now();
    let result =
        play(&work, threads, &saver, loaded.map(|(_, r)| r)).map_err(|e| interrupted(e, &saver))?;
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
                experiment_hash: hash.clone(),
                name: exp.name.clone(),
                shard: index,
                shards: count,
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

/// Everything wrong with a set of shards as a set: mixed experiments,
/// versions or N, duplicates, and missing shards.
fn shard_set_problems(shards: &[(PathBuf, ShardFile)], dir: &Path) -> Vec<String> {
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
    if distinct(&|s| s.katro_version.clone()) > 1 {
        problems.push(format!(
            "the shards were written by different katro versions:\n{}",
            listing(&|s| format!("katro {}", s.katro_version))
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
pub fn merge(dir: &str, force: bool) -> Result<(), Failure> {
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
        problems.extend(shard_set_problems(&shards, &dir));
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
    let hash = fingerprint(&exp.name, exp.seed, exp.rows(), &cells);
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

    let found = survey(&dir, &hash, Some(&first.experiment.fnv1a64), None);
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
    m.games_per_second = if wall > 0.0 {
        played as f64 / wall
    } else {
        0.0
    };
    m.shards = Some(
        shards
            .iter()
            .map(|(_, s)| ManifestShard {
                shard: format!("{}/{}", s.shard, s.shards),
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
            .map(|r| format!("variant `{}`", r.name))
            .map_err(|e| e.to_string());
    }
    if keys.iter().any(|k| EXPERIMENT_KEYS.contains(&k.as_str())) {
        let l = load_experiment(path).map_err(|f| f.message)?;
        let cells = l.exp.cells();
        let most: u64 = cells.iter().map(|c| c.stop.max_games()).sum();
        return Ok(format!(
            "experiment `{}`: {}, at most {}",
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
}

/// `katro simulate VARIANT --games N --p1 AGENT --p2 AGENT`.
pub fn simulate(a: SimulateArgs) -> Result<(), Failure> {
    let rules = load_variant(a.variant)?;
    let p1 = AgentSpec::parse(a.p1).map_err(|e| Failure::input(format!("--p1: {e}")))?;
    let p2 = AgentSpec::parse(a.p2).map_err(|e| Failure::input(format!("--p2: {e}")))?;
    let out = match a.out {
        Some(o) => {
            let dir = PathBuf::from(o);
            files::check_writable(&dir).map_err(|e| {
                Failure::input(format!("--out {o}: cannot write to the output folder: {e}"))
            })?;
            Some(dir)
        }
        None => None,
    };
    let cells = [Cell {
        rules: &rules,
        p1: &p1,
        p2: &p2,
        stop: Stop::Games(a.games),
    }];
    let threads = threads_or_all(a.threads);
    let work = Work {
        cells: &cells,
        master: a.seed,
        rows: Rows::None,
        part: Part::Whole,
    };
    let start_time = now();
    let clock = Instant::now();
    let result = play(&work, threads, &NoCheckpoint, None)
        .map_err(|message| Failure { code: 1, message })?;
    let wall = clock.elapsed().as_secs_f64();
    let aggregates = result.aggregates();
    let mut report = summary_table(&cells, &aggregates);
    if let Some(dir) = out {
        let name = format!("simulate-{}", rules.name);
        let hash = fingerprint(&name, a.seed, Rows::None, &cells);
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
