//! What a person sees while a job runs: a bar on a terminal, a line every
//! few seconds in a log (`katro run`, `katro simulate`), and the solver's
//! progress lines and time cap (`katro solve`, `katro solve-family`).

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use katro_core::solve::Phase;
use katro_lab::experiment::runner::Progress;
use katro_lab::jobs::{self, Error, Refusal, RunOutcome};

use crate::output::emit;

/// What each cell's games cost so far this session, for the time left: a
/// cell whose games take minutes weighs as much as it takes, not as its
/// share of the games.
#[derive(Default)]
struct Cost {
    /// Per cell: games left when last told, games played since, and
    /// games and worker seconds measured this session.
    left: Vec<u64>,
    since: Vec<u64>,
    games: Vec<u64>,
    seconds: Vec<f64>,
    started: Option<Instant>,
}

impl Cost {
    fn set_left(&mut self, left: &[u64]) {
        let n = left.len();
        self.left = left.to_vec();
        self.since = vec![0; n];
        self.games.resize(n, 0);
        self.seconds.resize(n, 0.0);
        self.started.get_or_insert_with(Instant::now);
    }

    fn played(&mut self, cell: usize, games: u64, seconds: f64) {
        if cell < self.left.len() {
            self.since[cell] += games;
            self.games[cell] += games;
            self.seconds[cell] += seconds;
        }
    }

    /// Seconds of wall time left: each cell's games left at its measured
    /// seconds a game (the mean over all cells for a cell not measured
    /// yet), divided by the workers' parallelism seen so far.
    fn seconds_left(&self) -> Option<f64> {
        let wall = self.started?.elapsed().as_secs_f64();
        let (games, work): (u64, f64) = (self.games.iter().sum(), self.seconds.iter().sum());
        if games == 0 || work <= 0.0 || wall <= 0.0 {
            return None;
        }
        let mean = work / games as f64;
        let left: f64 = (0..self.left.len())
            .map(|c| {
                let n = self.left[c].saturating_sub(self.since[c]) as f64;
                let each = if self.games[c] > 0 {
                    self.seconds[c] / self.games[c] as f64
                } else {
                    mean
                };
                n * each
            })
            .sum();
        Some(left * wall / work)
    }
}

/// A duration to read: `4 min 10 s`, `1 h 03 min`, `12 s`, `under 1 s`.
fn duration_words(seconds: f64) -> String {
    if seconds < 0.5 {
        return "under 1 s".to_string();
    }
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

fn time_left(cost: &Cost) -> String {
    cost.seconds_left().map_or_else(
        || "time left unknown".to_string(),
        |s| format!("{} left", duration_words(s)),
    )
}

/// Progress on stderr, drawn only when stderr is a terminal.
struct Bar(ProgressBar, std::sync::Arc<std::sync::Mutex<Cost>>);

impl Progress for Bar {
    fn note(&self, text: &str) {
        self.0.suspend(|| eprintln!("{text}"));
    }
    fn set_total(&self, games: u64) {
        self.0.set_length(games);
    }
    fn advance(&self, games: u64) {
        self.0.inc(games);
    }
    fn warn(&self, text: &str) {
        self.0.suspend(|| eprintln!("warning: {text}"));
    }
    fn set_cells_left(&self, left: &[u64]) {
        lock(&self.1).set_left(left);
    }
    fn played(&self, cell: usize, games: u64, seconds: f64) {
        lock(&self.1).played(cell, games, seconds);
    }
}

fn progress_bar() -> Option<Bar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let cost = std::sync::Arc::new(std::sync::Mutex::new(Cost::default()));
    let shown = cost.clone();
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(bar_style(shown));
    Some(Bar(bar, cost))
}

/// The bar's look: games done, the rate, and the time left from `cost`.
fn bar_style(cost: std::sync::Arc<std::sync::Mutex<Cost>>) -> ProgressStyle {
    ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games, {rate} games/s, {left}",
    )
    .expect("the progress template is valid")
    .with_key(
        "rate",
        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}", state.per_sec());
        },
    )
    .with_key(
        "left",
        move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}", time_left(&lock(&cost)));
        },
    )
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
    cost: Cost,
}

impl Progress for Lines {
    fn note(&self, text: &str) {
        eprintln!("{text}");
    }
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
    fn warn(&self, text: &str) {
        eprintln!("warning: {text}");
    }
    fn set_cells_left(&self, left: &[u64]) {
        lock(&self.state).cost.set_left(left);
    }
    fn played(&self, cell: usize, games: u64, seconds: f64) {
        lock(&self.state).cost.played(cell, games, seconds);
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One progress line: games done of the total, the session's rate and the
/// time left (`left`, from each cell's measured cost).
fn progress_line(done: u64, total: u64, session_games: u64, seconds: f64, left: &str) -> String {
    // Rounded down, so a run one game short of the end is not "100.0%".
    let pct = if total == 0 {
        100.0
    } else {
        (1000 * done as u128 / total as u128) as f64 / 10.0
    };
    let rate = if seconds > 0.0 {
        session_games as f64 / seconds
    } else {
        0.0
    };
    format!("progress: {done}/{total} games ({pct:.1}%), {rate:.0} games/s, {left}")
}

/// How often a run whose stderr is not a terminal prints a progress line:
/// `KATRO_PROGRESS_SECONDS`, 10 by default.
pub fn progress_interval() -> Result<Duration, Error> {
    env_seconds(
        "KATRO_PROGRESS_SECONDS",
        10.0,
        "give the seconds between progress lines",
    )
}

/// How often checkpoints are written: `KATRO_CHECKPOINT_SECONDS`, 1 by
/// default. Writing one takes milliseconds, so once a second costs well
/// under 1% of a run and loses at most a second of games.
pub fn checkpoint_interval() -> Result<Duration, Error> {
    env_seconds(
        "KATRO_CHECKPOINT_SECONDS",
        1.0,
        "give the seconds between checkpoints",
    )
}

/// Seconds from the environment variable `var` (from 0 to a day), or
/// `default` when it is not set; `what` tells the user what to give. A
/// bad value is the user's to change, so it is refused (exit code 2).
fn env_seconds(var: &str, default: f64, what: &str) -> Result<Duration, Error> {
    match std::env::var(var) {
        Err(_) => Ok(Duration::from_secs_f64(default)),
        Ok(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 86_400.0)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| {
                Refusal::EnvSeconds {
                    var: var.to_string(),
                    value: v,
                    what: what.to_string(),
                }
                .into()
            }),
    }
}

/// Notes on stderr, for a job that plays no game.
pub struct Notes;

impl Progress for Notes {
    fn note(&self, text: &str) {
        eprintln!("{text}");
    }
}

/// Runs a job with a progress bar when stderr is a terminal, else with a
/// progress line every `every`, and prints what it did.
pub fn with_progress(
    every: Duration,
    job: impl FnOnce(&dyn jobs::Progress) -> Result<RunOutcome, Error>,
) -> Result<(), Error> {
    let outcome = if let Some(bar) = progress_bar() {
        let result = job(&bar);
        bar.0.finish_and_clear();
        result
    } else {
        with_lines(every, job)
    }?;
    emit(&outcome.text)
}

/// Runs a job while another thread prints a progress line every `every`
/// until the job is over.
fn with_lines(
    every: Duration,
    job: impl FnOnce(&dyn jobs::Progress) -> Result<RunOutcome, Error>,
) -> Result<RunOutcome, Error> {
    let lines = Lines::default();
    let wake = std::sync::Condvar::new();
    std::thread::scope(|scope| {
        scope.spawn(|| print_lines(&lines, &wake, every));
        let result = job(&lines);
        lock(&lines.state).finished = true;
        wake.notify_all();
        result
    })
}

/// Prints a progress line every `every` until `lines` is finished, woken
/// early by `wake` when it is.
fn print_lines(lines: &Lines, wake: &std::sync::Condvar, every: Duration) {
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
        // Nothing is planned yet (the run is still reading its
        // folder): a "0/0 games" line would say nothing.
        if s.total == 0 {
            continue;
        }
        print_line(&s, clock);
    }
}

/// Prints the progress line of `s`, the session's clock started at
/// `clock`.
fn print_line(s: &LineState, clock: Instant) {
    let session = s.done - s.before.unwrap_or(0);
    eprintln!(
        "{}",
        progress_line(
            s.done,
            s.total,
            session,
            clock.elapsed().as_secs_f64(),
            &time_left(&s.cost)
        )
    );
}

/// Prints progress to stderr at most once a second, and only once a
/// solve has run a second. It never stops the solve: `--max-seconds` is
/// the job's to enforce (jobs::clock).
pub fn progress_printer() -> impl FnMut(Phase, u64, u64) -> ControlFlow<()> {
    let start = Instant::now();
    let mut last = 0.0;
    move |phase, done, known| {
        let t = start.elapsed().as_secs_f64();
        if t >= 1.0 && t - last >= 1.0 {
            last = t;
            match phase {
                Phase::Explore => eprintln!(
                    "solve: {t:.0} s, exploring: {done} positions expanded, {known} found"
                ),
                Phase::Solve => {
                    eprintln!("solve: {t:.0} s, valuing: {done} of {known} positions settled")
                }
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod progress_tests {
    use super::progress_line;

    #[test]
    fn a_progress_line_gives_games_rate_and_time_left() {
        // 300 of 1000 done, 200 of them in 4 s this session: 50 games/s,
        // 700 left at 50/s = 14 s.
        assert_eq!(
            progress_line(300, 1000, 200, 4.0, "14 s left"),
            "progress: 300/1000 games (30.0%), 50 games/s, 14 s left"
        );
        assert_eq!(
            progress_line(0, 10, 0, 0.0, "time left unknown"),
            "progress: 0/10 games (0.0%), 0 games/s, time left unknown"
        );
        assert!(progress_line(1999, 2000, 1999, 1.0, "under 1 s left").contains("(99.9%)"));
    }

    #[test]
    fn time_left_is_in_hours_and_minutes() {
        use super::duration_words;
        assert_eq!(duration_words(0.3), "under 1 s");
        assert_eq!(duration_words(12.4), "12 s");
        assert_eq!(duration_words(250.0), "4 min 10 s");
        assert_eq!(duration_words(3780.0), "1 h 03 min");
        assert_eq!(duration_words(3806768.0), "1057 h 26 min");
    }

    /// Cells are weighed by what their games cost: a cell of slow games
    /// left dominates the estimate although it holds few of the games.
    #[test]
    fn time_left_weighs_each_cell_by_its_cost() {
        let mut c = super::Cost::default();
        c.set_left(&[1000, 10]);
        // 900 fast games (0.001 s each), 5 slow ones (10 s each).
        c.played(0, 900, 0.9);
        c.played(1, 5, 50.0);
        c.started = Some(std::time::Instant::now() - std::time::Duration::from_secs_f64(50.9));
        // Left: 100 fast (0.1 s) and 5 slow (50 s), on one worker.
        let left = c.seconds_left().unwrap();
        assert!((left - 50.1).abs() < 0.5, "{left}");
    }
}
