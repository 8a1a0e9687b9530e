//! The binary's side of `run`, `merge`, `simulate` and `validate`: turns
//! the arguments into options for [`katro::jobs`], shows its progress on
//! stderr (a bar on a terminal, lines in a log) and prints what it did.

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use katro::agents::AgentSpec;
use katro::jobs::{self, Failure, RunOutcome, load_experiment, plural};
use katro::rules::parse_variant;
use katro::runner::Progress;
use katro::schema::top_level_keys;
use katro::store::FsStore;

use crate::cli::{emit, load_variant};

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
fn progress_interval() -> Result<Duration, String> {
    env_seconds(
        "KATRO_PROGRESS_SECONDS",
        10.0,
        "give the seconds between progress lines",
    )
}

/// How often checkpoints are written: `KATRO_CHECKPOINT_SECONDS`, 1 by
/// default. Writing one takes milliseconds, so once a second costs well
/// under 1% of a run and loses at most a second of games.
fn checkpoint_interval() -> Result<Duration, String> {
    env_seconds(
        "KATRO_CHECKPOINT_SECONDS",
        1.0,
        "give the seconds between checkpoints",
    )
}

/// Seconds from the environment variable `var` (from 0 to a day), or
/// `default` when it is not set; `what` tells the user what to give.
fn env_seconds(var: &str, default: f64, what: &str) -> Result<Duration, String> {
    match std::env::var(var) {
        Err(_) => Ok(Duration::from_secs_f64(default)),
        Ok(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 86_400.0)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("{var}={v:?}: {what}, from 0 to 86400")),
    }
}

/// Notes on stderr, for a job that plays no game.
struct Notes;

impl Progress for Notes {}

impl jobs::Progress for Notes {
    fn note(&self, text: &str) {
        eprintln!("{text}");
    }
}

impl jobs::Progress for Bar {
    fn note(&self, text: &str) {
        self.0.suspend(|| eprintln!("{text}"));
    }
}

impl jobs::Progress for Lines {
    fn note(&self, text: &str) {
        eprintln!("{text}");
    }
}

/// Runs a job with a progress bar when stderr is a terminal, else with a
/// progress line every `every`, and prints what it did.
fn with_progress(
    every: Duration,
    job: impl FnOnce(&dyn jobs::Progress) -> Result<RunOutcome, Failure>,
) -> Result<(), Failure> {
    let outcome = if let Some(bar) = progress_bar() {
        let result = job(&bar);
        bar.0.finish_and_clear();
        result
    } else {
        let lines = Lines::default();
        let wake = std::sync::Condvar::new();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let clock = Instant::now();
                let mut s = lock(&lines.state);
                loop {
                    // The job may be over before this thread first gets
                    // the lock: waiting then would wait for nothing.
                    if s.finished {
                        return;
                    }
                    // A zero interval would print without pause.
                    let pause = every.max(Duration::from_millis(10));
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
            let result = job(&lines);
            lock(&lines.state).finished = true;
            wake.notify_all();
            result
        })
    }?;
    emit(&outcome.text)
}

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
    let opts = jobs::RunOptions {
        experiment: a.experiment.to_string(),
        threads: a.threads.map(|t| t as usize),
        out: a.out.map(str::to_string),
        shard: a.shard,
        force: a.force,
        allow_other_build: a.allow_other_build,
        command: std::env::args().collect(),
        checkpoint_every: checkpoint_interval().map_err(Failure::input)?,
    };
    let every = progress_interval().map_err(Failure::input)?;
    with_progress(every, |p| jobs::run(&opts, &FsStore, p))
}

/// `katro merge DIR`: the shards in DIR/shards into DIR's results.
pub fn merge(dir: &str, force: bool, allow_other_build: bool) -> Result<(), Failure> {
    let opts = jobs::MergeOptions {
        dir: dir.to_string(),
        force,
        allow_other_build,
        command: std::env::args().collect(),
    };
    // A merge plays no game: only its notes are shown.
    let outcome = jobs::merge(&opts, &FsStore, &Notes)?;
    emit(&outcome.text)
}

const EXPERIMENT_KEYS: [&str; 5] = ["variants", "matchups", "seed", "games", "precision"];

/// Checks one file, telling a variant from an experiment by its keys.
fn validate_one(path: &str) -> Result<String, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read the file: {e}"))?;
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
        let l = load_experiment(&FsStore, path).map_err(|f| f.message)?;
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
    // Refused before any game: an agent whose games would not reproduce
    // (an `mcts` time budget), and a `perfect` agent on a board too big to
    // solve.
    let seat = |flag: &str, text: &str| {
        AgentSpec::parse(text)
            .and_then(|a| a.reproducible().map(|()| a))
            .and_then(|a| a.check_variant(&rules).map(|()| a))
            .map_err(|e| Failure::input(format!("{flag}: {e}")))
    };
    let (p1, p2) = (seat("--p1", a.p1)?, seat("--p2", a.p2)?);
    let opts = jobs::SimulateOptions {
        rules,
        p1,
        p2,
        games: a.games,
        seed: a.seed,
        out: a.out.map(str::to_string),
        threads: a.threads.map(|t| t as usize),
        force: a.force,
        command: std::env::args().collect(),
    };
    let every = progress_interval().map_err(Failure::input)?;
    with_progress(every, |p| jobs::simulate(&opts, &FsStore, p))
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
