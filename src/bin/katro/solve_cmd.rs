//! `katro solve` and `katro solve-family` (docs/SOLVED.md): the jobs are
//! the library's; this gives them the clock, the thread pool and the
//! process's peak memory, and prints.

use std::ops::ControlFlow;
use std::time::Instant;

use katro::jobs::Failure;
use katro::jobs::solve::SolveOptions;
use katro::jobs::solve_family::FamilyOptions;
use katro::solve::Phase;
use katro::store::FsStore;

use crate::output::emit;

/// The process's peak resident memory in bytes, where the system says.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Prints progress to stderr at most once a second, and only once a
/// solve has run a second; asks the solver to stop once `max_seconds`
/// have passed (the library has no clock: this closure is the clock).
fn progress_printer(max_seconds: Option<f64>) -> impl FnMut(Phase, u64, u64) -> ControlFlow<()> {
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
        if max_seconds.is_some_and(|m| t > m) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Runs `f` on a pool of `threads` threads (all cores if `None`), where
/// the solver's exploration runs.
pub fn with_threads(
    threads: Option<u32>,
    f: impl FnOnce() -> Result<(), Failure> + Send,
) -> Result<(), Failure> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0) as usize)
        .build()
        .map_err(|e| Failure {
            code: 1,
            message: format!("cannot start the solver's threads: {e}"),
        })?;
    pool.install(f)
}

/// `katro solve VARIANT [--out FILE] [--max-memory GiB] [--max-seconds S]
/// [--threads N]`.
pub fn solve_command(
    variant: &str,
    out: Option<&str>,
    max_gib: f64,
    max_seconds: Option<f64>,
) -> Result<(), Failure> {
    let opts = SolveOptions {
        variant: variant.to_string(),
        out: out.map(str::to_string),
        max_gib,
        max_seconds,
    };
    let text = katro::jobs::solve::solve(
        &opts,
        &FsStore,
        &mut progress_printer(max_seconds),
        &|line| eprintln!("{line}"),
        &peak_rss,
    )?;
    emit(&text)
}

/// `katro solve-family [--out DIR] [--max-memory GiB] [--max-seconds S]`.
pub fn family_command(out: &str, max_gib: f64, max_seconds: Option<f64>) -> Result<(), Failure> {
    let opts = FamilyOptions {
        out: out.to_string(),
        max_gib,
        max_seconds,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    let text = katro::jobs::solve_family::solve_family(
        &opts,
        &FsStore,
        &mut || Box::new(progress_printer(max_seconds)),
        &|line| eprintln!("{line}"),
        &peak_rss,
    )?;
    emit(&text)
}
