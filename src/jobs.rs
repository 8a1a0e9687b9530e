//! The `run` and `simulate` commands: read the inputs, check the output
//! folder, play with a progress bar, write the files. Every decision about
//! games and numbers lives in the library.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use katro::agents::AgentSpec;
use katro::experiment::parse_experiment;
use katro::export::{
    ExperimentSource, Manifest, comparison_csv, games_csv, summary_csv, summary_table,
    utc_timestamp,
};
use katro::runner::{self, Cell, Progress, Quiet, Rows, Stop};

use crate::cli::{Failure, emit, load_variant};
use crate::files;

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

fn now() -> (SystemTime, String) {
    let t = SystemTime::now();
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    (t, utc_timestamp(d.as_secs(), d.subsec_millis()))
}

fn threads_or_all(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// A set of cells to play and where to put the results.
struct Job<'a> {
    name: String,
    experiment: Option<ExperimentSource>,
    seed: u64,
    cells: Vec<Cell<'a>>,
    rows: Rows,
    threads: usize,
    out: Option<PathBuf>,
}

fn io_failure(what: &str, path: &Path, e: std::io::Error) -> Failure {
    Failure {
        code: 1,
        message: format!("cannot {what} {}: {e}", path.display()),
    }
}

fn execute(job: Job) -> Result<(), Failure> {
    let (_, start_time) = now();
    let clock = Instant::now();
    let bar = progress_bar();
    let progress: &dyn Progress = match &bar {
        Some(b) => b,
        None => &Quiet,
    };
    let result = runner::run(&job.cells, job.seed, job.rows, job.threads, progress)
        .map_err(|message| Failure { code: 1, message })?;
    if let Some(b) = &bar {
        b.0.finish_and_clear();
    }
    let wall = clock.elapsed().as_secs_f64();
    let (_, end_time) = now();
    let aggregates = &result.aggregates;
    let games: u64 = aggregates.iter().map(|a| a.games).sum();

    let mut report = summary_table(&job.cells, aggregates);
    if let Some(dir) = &job.out {
        // manifest.json goes last: its presence says the run completed.
        let mut outputs: Vec<(&str, Vec<u8>)> = Vec::new();
        let mut stale = Vec::new();
        if job.rows != Rows::None {
            let moves = job.rows == Rows::GamesWithMoves;
            outputs.push(("games.csv", games_csv(&job.cells, &result.rows, moves)));
        } else {
            stale.push("games.csv");
        }
        match comparison_csv(&job.cells, aggregates) {
            Some(bytes) => outputs.push(("comparison.csv", bytes)),
            None => stale.push("comparison.csv"),
        }
        outputs.push(("summary.csv", summary_csv(&job.cells, aggregates)));
        let (variants, cells) = Manifest::describe(&job.cells, aggregates);
        let mut files_written: Vec<String> = outputs.iter().map(|(n, _)| n.to_string()).collect();
        files_written.push("manifest.json".into());
        let manifest = Manifest {
            katro_version: env!("CARGO_PKG_VERSION").to_string(),
            command: std::env::args().collect(),
            name: job.name.clone(),
            experiment: job.experiment.clone(),
            master_seed: job.seed,
            variants,
            cells,
            threads: job.threads,
            start_time,
            end_time,
            wall_seconds: wall,
            games,
            games_per_second: if wall > 0.0 { games as f64 / wall } else { 0.0 },
            files: files_written.clone(),
        };
        outputs.push(("manifest.json", manifest.to_bytes()));
        for (name, bytes) in &outputs {
            files::write_atomic(dir, name, bytes)
                .map_err(|e| io_failure("write", &dir.join(name), e))?;
        }
        for name in stale {
            files::remove_stale(dir, name)
                .map_err(|e| io_failure("remove the stale", &dir.join(name), e))?;
        }
        report.push_str(&format!(
            "\n{games} games in {wall:.1} s on {} thread{}; wrote {} in {}\n",
            job.threads,
            if job.threads == 1 { "" } else { "s" },
            files_written.join(", "),
            dir.display()
        ));
    }
    emit(&report)
}

/// `katro run EXPERIMENT.toml`.
pub fn run(path: &str, threads: Option<u32>, out: Option<&str>) -> Result<(), Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("{path}: cannot read the experiment file: {e}")))?;
    // Variant files are named relative to the experiment file.
    let dir = Path::new(path)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let mut read_variant = |spec: &str| -> Result<(String, String), String> {
        let p = dir.join(spec);
        std::fs::read_to_string(&p)
            .map(|t| (p.display().to_string(), t))
            .map_err(|e| format!("{} ({e})", p.display()))
    };
    let exp = parse_experiment(path, &text, &mut read_variant)?;
    let (out_dir, origin) = match (out, &exp.output) {
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
    execute(Job {
        name: exp.name.clone(),
        experiment: Some(ExperimentSource::new(path, &text)),
        seed: exp.seed,
        cells: exp.cells(),
        rows: exp.rows(),
        threads: threads_or_all(threads),
        out: Some(out_dir),
    })
}

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
    execute(Job {
        name: format!("simulate-{}", rules.name),
        experiment: None,
        seed: a.seed,
        cells: vec![Cell {
            rules: &rules,
            p1: &p1,
            p2: &p2,
            stop: Stop::Games(a.games),
        }],
        rows: Rows::None,
        threads: threads_or_all(a.threads),
        out,
    })
}
