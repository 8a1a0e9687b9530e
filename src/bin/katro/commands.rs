//! One function a command: turns the arguments into options for
//! [`katro::jobs`], gives the job its progress, Ctrl-C, clock and thread
//! pool, and prints what it did.

use katro::agents::{AgentSpec, Need};
use katro::jobs::replay::shell_word;
use katro::jobs::solve::SolveOptions;
use katro::jobs::solve_family::FamilyOptions;
use katro::jobs::{self, Error};
use katro::store::FsStore;

use crate::output::{emit, load_variant, peak_rss};
use crate::progress::{
    Notes, checkpoint_interval, progress_interval, progress_printer, with_progress,
};

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
pub fn run(a: RunArgs) -> Result<(), Error> {
    let opts = jobs::RunOptions {
        experiment: a.experiment.to_string(),
        threads: a.threads.map(|t| t as usize),
        out: a.out.map(str::to_string),
        shard: a.shard,
        force: a.force,
        allow_other_build: a.allow_other_build,
        command: std::env::args().collect(),
        checkpoint_every: checkpoint_interval()?,
        stop: Some(stop_on_ctrl_c()),
    };
    let every = progress_interval()?;
    with_progress(every, |p| jobs::run(&opts, &FsStore, p))
}

/// A flag set by the first Ctrl-C (SIGINT), which the run sees after its
/// next game: it saves a checkpoint and says how to go on. A second Ctrl-C
/// stops at once (the last checkpoint stays). The handler lives in the
/// binary so that the library keeps no global state; `ctrlc` is the
/// well-kept crate that installs it without `unsafe` here.
fn stop_on_ctrl_c() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    let seen = flag.clone();
    let installed = ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::SeqCst) {
            eprintln!("interrupted again: stopping now; the last checkpoint is kept");
            std::process::exit(130);
        }
        eprintln!("interrupted: saving a checkpoint (Ctrl-C again stops at once)");
    });
    if let Err(e) = installed {
        eprintln!("note: Ctrl-C will stop the run without a last checkpoint ({e})");
    }
    flag
}

/// `katro merge DIR`: the shards in DIR/shards into DIR's results.
pub fn merge(dir: &str, force: bool, allow_other_build: bool) -> Result<(), Error> {
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

/// `katro validate FILE...`: every problem of every file, exit 2 if any.
pub fn validate(paths: &[String]) -> Result<(), Error> {
    let v = jobs::validate(&FsStore, paths);
    for problems in &v.problems {
        eprintln!("{problems}");
    }
    emit(&v.ok_text)?;
    match v.summary {
        Some(s) => Err(Error::refused(s)),
        None => Ok(()),
    }
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
pub fn simulate(a: SimulateArgs) -> Result<(), Error> {
    let rules = load_variant(a.variant)?;
    // Refused before any game: an agent whose games would not reproduce
    // (an `mcts` time budget), and a `perfect` agent on a board too big to
    // solve.
    let seat = |flag: &str, text: &str| {
        AgentSpec::seat(text, Some(&rules), Need::Reproducible)
            .map_err(|e| Error::refused(format!("{flag}: {e}")))
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
    let every = progress_interval()?;
    with_progress(every, |p| jobs::simulate(&opts, &FsStore, p))
}

/// `katro play VARIANT --against AGENT`: the game on standard input and
/// output.
pub fn play(
    rules: &katro::Rules,
    variant: &str,
    against: &str,
    seat: u8,
    seed: u64,
) -> Result<(), Error> {
    let agent = AgentSpec::seat(against, Some(rules), Need::Playable).map_err(Error::refused)?;
    let opts = jobs::play::PlayOptions {
        rules,
        variant,
        agent: &agent,
        seat,
        seed,
    };
    let stdin = std::io::stdin();
    jobs::play::play(&opts, &mut stdin.lock(), &mut std::io::stdout().lock())
}

/// `katro solve VARIANT [--out FILE] [--max-memory GiB] [--max-seconds S]
/// [--threads N]`.
pub fn solve_command(
    variant: &str,
    out: Option<&str>,
    max_gib: f64,
    max_seconds: Option<f64>,
) -> Result<(), Error> {
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
pub fn family_command(out: &str, max_gib: f64, max_seconds: Option<f64>) -> Result<(), Error> {
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

/// The `katro replay` command as the user gave it (the variant as named
/// or the path of its file, the limits, the moves), without `--html`, for
/// the viewer page to print: rerun in a shell it gives the same game.
pub fn replay_command(
    variant: &Option<String>,
    moves: &[String],
    from_csv: &Option<String>,
    row: Option<u64>,
    ply_limit: Option<i64>,
    lap_limit: Option<i64>,
) -> String {
    let mut words = vec!["katro".to_string(), "replay".into()];
    match (from_csv, row) {
        (Some(file), Some(row)) => words.extend([
            "--from-csv".into(),
            file.clone(),
            "--row".into(),
            row.to_string(),
        ]),
        _ => words.extend(variant.iter().cloned()),
    }
    for (flag, v) in [("--ply-limit", ply_limit), ("--lap-limit", lap_limit)] {
        if let Some(v) = v {
            words.extend([flag.to_string(), v.to_string()]);
        }
    }
    words.extend(moves.iter().cloned());
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `katro judge DIR`: judges DIR/games.csv, says what each variant took.
pub fn judge(dir: &str, max_memory: f64) -> Result<(), Error> {
    let max = jobs::solve::max_bytes(max_memory)?;
    let started = std::time::Instant::now();
    let dir = std::path::Path::new(dir);
    let out = jobs::judge::judge(&FsStore, dir, max, &mut |t| eprintln!("{t}"))?;
    for v in &out.variants {
        match &v.result {
            Ok((solve, positions, judging)) => eprintln!(
                "{}: {} judged; solved in {:.2} s ({positions} positions), judged in {:.2} s",
                v.variant,
                jobs::plural(v.games, "game"),
                solve.as_secs_f64(),
                judging.as_secs_f64()
            ),
            Err(why) => eprintln!(
                "{}: {} NOT judged: {why}",
                v.variant,
                jobs::plural(v.games, "game")
            ),
        }
    }
    eprintln!(
        "{} judged in {:.2} s; wrote {}",
        jobs::plural(out.games, "game"),
        started.elapsed().as_secs_f64(),
        dir.join(jobs::judge::PERFECT_MOVES).display()
    );
    Ok(())
}
