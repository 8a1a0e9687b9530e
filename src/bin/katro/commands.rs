//! One function a command: turns the arguments into options for
//! [`katro_lab::jobs`], gives the job its progress, Ctrl-C, clock and thread
//! pool, and prints what it did.

use katro_core::Rules;
use katro_core::agents::{AgentSpec, Need};
use katro_core::rules::{preset, preset_names};
use katro_lab::experiment::{
    LAP_LIMIT_RANGE, LimitRange, OPENING_PLIES_RANGE, PLY_LIMIT_RANGE, opening_reaches_limit,
};
use katro_lab::jobs::clock::SystemClock;
use katro_lab::jobs::replay::shell_word;
use katro_lab::jobs::solve::SolveOptions;
use katro_lab::jobs::solve_family::FamilyOptions;
use katro_lab::jobs::{self, Error, Refusal};
use katro_lab::store::FsStore;

use crate::args::{
    AgentsArgs, CurveArgs, JudgeArgs, MergeArgs, PlayArgs, ProveArgs, ProveFamilyArgs,
    ProveLimitArgs, ProveNearbyArgs, ProveOpeningsArgs, ReplayArgs, RunArgs, ShowArgs,
    SimulateArgs, SolveArgs, SolveFamilyArgs,
};
use crate::output::{cpu_seconds, emit, load_variant, peak_rss, with_threads};
use crate::progress::{
    Notes, checkpoint_interval, progress_interval, progress_printer, with_progress,
};

/// `katro variants`: each preset's name and description.
pub fn variants() -> Result<(), Error> {
    let mut out = String::new();
    for name in preset_names() {
        let rules = preset(name).expect("listed presets exist");
        out.push_str(&format!("{name:<20} {}\n", rules.description()));
    }
    emit(&out)
}

/// `katro agents [--ratings FILE] [--measure GAMES]`: the strength levels.
pub fn agents(a: AgentsArgs) -> Result<(), Error> {
    let opts = jobs::agents::AgentsOptions {
        ratings: a.ratings,
        measure: a.measure,
        cpu_seconds,
    };
    emit(&jobs::agents::agents(&FsStore, &opts, &Notes)?.to_string())
}

/// `katro show VARIANT [--svg FILE]`.
pub fn show(a: ShowArgs) -> Result<(), Error> {
    let rules = load_variant(&a.variant)?;
    match a.svg {
        Some(file) => emit(&jobs::write_board(&FsStore, &rules, &file)?),
        None => emit(&jobs::show(&rules)),
    }
}

/// `katro replay VARIANT MOVES...` or `--from-csv FILE --row N`: the game
/// as JSON, or with `--html` the viewer page.
pub fn replay(a: ReplayArgs) -> Result<(), Error> {
    let made_by = replay_command(&a);
    let (rules, moves) = match (&a.from_csv, a.row, &a.variant) {
        (Some(file), Some(row), _) => jobs::replay::game_from_csv(&FsStore, file, row)?,
        (_, _, Some(variant)) => (load_variant(variant)?, a.moves.clone()),
        _ => {
            return Err(Refusal::ReplayNeedsGame.into());
        }
    };
    let rules = rules
        .with_limits(
            limit(a.ply_limit, "--ply-limit", &PLY_LIMIT_RANGE)?,
            limit(a.lap_limit, "--lap-limit", &LAP_LIMIT_RANGE)?,
        )
        .map_err(Refusal::Limits)?;
    let json = jobs::replay::replay_json(&rules, &moves, a.trace)?;
    match &a.html {
        Some(file) => emit(&jobs::write_viewer(
            &FsStore, &rules, &moves, file, &made_by,
        )?),
        None => emit(&(json + "\n")),
    }
}

/// A `--ply-limit` or `--lap-limit` checked against its range.
fn limit(v: Option<i64>, flag: &'static str, range: &LimitRange) -> Result<Option<u64>, Error> {
    v.map(|v| {
        range
            .check(v)
            .map_err(|error| Refusal::FlagRange { flag, error }.into())
    })
    .transpose()
}

/// `katro run EXPERIMENT.toml [--shard I/N] [--force]`.
pub fn run(a: RunArgs) -> Result<(), Error> {
    let opts = jobs::RunOptions {
        experiment: a.experiment,
        threads: a.threads.map(|t| t as usize),
        out: a.out,
        shard: a.shard,
        force: a.force,
        allow_other_build: a.allow_other_build,
        command: std::env::args().collect(),
        checkpoint_every: checkpoint_interval()?,
        stop: Some(stop_on_ctrl_c()),
        proved: a.proved,
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
pub fn merge(a: MergeArgs) -> Result<(), Error> {
    let opts = jobs::MergeOptions {
        dir: a.dir,
        force: a.force,
        allow_other_build: a.allow_other_build,
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
        Some(s) => Err(s.into()),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------
// katro simulate

/// `katro simulate VARIANT --games N --p1 AGENT --p2 AGENT`.
pub fn simulate(a: SimulateArgs) -> Result<(), Error> {
    let rules = load_variant(&a.variant)?
        .with_limits(limit(a.ply_limit, "--ply-limit", &PLY_LIMIT_RANGE)?, None)
        .map_err(Refusal::Limits)?;
    let opening_plies = OPENING_PLIES_RANGE
        .check(a.opening_plies)
        .map_err(|error| Refusal::FlagRange {
            flag: "--opening-plies",
            error,
        })? as u32;
    if let Some(why) = opening_reaches_limit(opening_plies, &rules) {
        let flag = "--opening-plies";
        return Err(Refusal::FlagConflict { flag, why }.into());
    }
    // Refused before any game: an agent whose games would not reproduce
    // (an `mcts` time budget), and a `perfect` agent on a board too big to
    // solve.
    let seat = |flag: &'static str, text: &str| {
        AgentSpec::seat(text, Some(&rules), Need::Reproducible).map_err(|error| Refusal::Agent {
            flag: Some(flag),
            error,
        })
    };
    let (p1, p2) = (seat("--p1", &a.p1)?, seat("--p2", &a.p2)?);
    let opts = jobs::SimulateOptions {
        rules,
        p1,
        p2,
        opening_plies,
        games: a.games,
        seed: a.seed,
        out: a.out,
        threads: a.threads.map(|t| t as usize),
        force: a.force,
        command: std::env::args().collect(),
        proved: a.proved,
    };
    let every = progress_interval()?;
    with_progress(every, |p| jobs::simulate(&opts, &FsStore, p))
}

/// `katro play VARIANT --against AGENT`: the game on standard input and
/// output.
pub fn play(a: PlayArgs) -> Result<(), Error> {
    let rules: Rules = load_variant(&a.variant)?;
    let agent = AgentSpec::seat(&a.against, Some(&rules), Need::Playable)
        .map_err(|error| Refusal::Agent { flag: None, error })?;
    let opts = jobs::play::PlayOptions {
        rules: &rules,
        variant: &a.variant,
        agent: &agent,
        seat: a.seat,
        seed: a.seed,
    };
    let stdin = std::io::stdin();
    jobs::play::play(&opts, &mut stdin.lock(), &mut std::io::stdout().lock())
}

/// `katro solve VARIANT [--out FILE] [--max-memory GiB] [--max-seconds S]
/// [--threads N]`.
pub fn solve(a: SolveArgs) -> Result<(), Error> {
    with_threads(a.threads, || {
        solve_on_pool(a.variant, a.out, a.max_memory, a.max_seconds)
    })
}

fn solve_on_pool(
    variant: String,
    out: Option<String>,
    max_gib: f64,
    max_seconds: Option<f64>,
) -> Result<(), Error> {
    let opts = SolveOptions {
        variant,
        out,
        max_gib,
        max_seconds,
    };
    let text = katro_lab::jobs::solve::solve(
        &opts,
        &FsStore,
        &SystemClock::new(),
        &mut progress_printer(),
        &|line| eprintln!("{line}"),
        &peak_rss,
    )?;
    emit(&text)
}

/// `katro prove VARIANT [MOVES...]`: the proof search, stopped by
/// `--max-seconds` (each search) or a Ctrl-C, which both leave the bound
/// established; the certificate is written only whole, at the end.
pub fn prove(a: ProveArgs) -> Result<(), Error> {
    let opts = katro_lab::jobs::prove::ProveOptions {
        variant: a.variant,
        moves: a.moves,
        max_gib: a.max_memory,
        max_nodes: (a.max_nodes > 0).then_some(a.max_nodes),
        max_seconds: a.max_seconds,
        max_depth: a.max_depth,
        certificate: a.certificate,
    };
    let mut watch = ProveProgress::new(stop_on_ctrl_c());
    let clock = SystemClock::new();
    let proved = katro_lab::jobs::prove::prove(&opts, &FsStore, &clock, &mut watch, &peak_rss)?;
    if a.json {
        emit(&format!("{}\n", proved.json()))
    } else {
        emit(&format!("{proved}\n"))
    }
}

/// The prover's watch on the command line: a Ctrl-C stops every search,
/// and a line of progress every 10 s. (`--max-seconds` is the job's to
/// enforce.)
struct ProveProgress {
    ctrl_c: std::sync::Arc<std::sync::atomic::AtomicBool>,
    search_start: std::time::Instant,
    last_line: f64,
}

impl ProveProgress {
    fn new(ctrl_c: std::sync::Arc<std::sync::atomic::AtomicBool>) -> ProveProgress {
        ProveProgress {
            ctrl_c,
            search_start: std::time::Instant::now(),
            last_line: 0.0,
        }
    }
}

impl katro_core::solve::prove::Watch for ProveProgress {
    fn search_started(&mut self) {
        self.search_start = std::time::Instant::now();
        self.last_line = 0.0;
    }
    fn should_stop(&mut self, _nodes: u64) -> bool {
        self.ctrl_c.load(std::sync::atomic::Ordering::SeqCst)
    }
    fn depth_done(&mut self, depth: u32, nodes: u64) {
        let t = self.search_start.elapsed().as_secs_f64();
        if t - self.last_line >= 10.0 {
            self.last_line = t;
            eprintln!("prove: {t:.0} s, no forced win within {depth} decisions, {nodes} nodes");
        }
    }
}

/// `katro solve-family [--out DIR] [--max-memory GiB] [--max-seconds S]`.
pub fn solve_family(a: SolveFamilyArgs) -> Result<(), Error> {
    with_threads(a.threads, || {
        family_on_pool(a.out, a.max_memory, a.max_seconds)
    })
}

fn family_on_pool(out: String, max_gib: f64, max_seconds: Option<f64>) -> Result<(), Error> {
    let opts = FamilyOptions {
        out,
        max_gib,
        max_seconds,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    let text = katro_lab::jobs::solve_family::solve_family(
        &opts,
        &FsStore,
        &SystemClock::new(),
        &mut || Box::new(progress_printer()),
        &|line| eprintln!("{line}"),
        &peak_rss,
    )?;
    emit(&text)
}

/// `katro prove-family [--out DIR] [--shard I/N | --merge | --check-solved]`.
pub fn prove_family(a: ProveFamilyArgs) -> Result<(), Error> {
    use katro_lab::jobs::prove_family::{CheckOptions, ProveOptions, check_solved, merge_proved};
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    with_threads(a.threads, || {
        let text = if a.merge {
            merge_proved(&a.out, &command, &FsStore, &Notes)?
        } else if a.check_solved {
            let o = CheckOptions {
                out: a.out,
                solved: a.solved,
                resolve_gib: a.resolve_memory,
            };
            check_solved(&o, &FsStore, &Notes)?
        } else {
            let o = ProveOptions {
                out: a.out,
                max_gib: a.max_memory,
                max_nodes: a.max_nodes,
                max_depth: a.max_depth,
                max_seconds: a.max_seconds,
                sets: a.sets,
                only: a.only,
                solved: a.solved,
                shard: a.shard,
                command,
            };
            katro_lab::jobs::prove_family::prove_family(
                &o,
                &FsStore,
                &SystemClock::new(),
                &Notes,
                &peak_rss,
            )?
        };
        emit(&text)
    })
}

/// The `katro replay` command as the user gave it (the variant as named
/// or the path of its file, the limits, the moves), without `--html`, for
/// the viewer page to print: rerun in a shell it gives the same game.
fn replay_command(a: &ReplayArgs) -> String {
    let mut words = vec!["katro".to_string(), "replay".into()];
    match (&a.from_csv, a.row) {
        (Some(file), Some(row)) => words.extend([
            "--from-csv".into(),
            file.clone(),
            "--row".into(),
            row.to_string(),
        ]),
        _ => words.extend(a.variant.iter().cloned()),
    }
    for (flag, v) in [("--ply-limit", a.ply_limit), ("--lap-limit", a.lap_limit)] {
        if let Some(v) = v {
            words.extend([flag.to_string(), v.to_string()]);
        }
    }
    words.extend(a.moves.iter().cloned());
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `katro curve DIR`: writes DIR/strength-curve.csv, says which boards
/// have a perfect-play limit.
pub fn curve(a: CurveArgs) -> Result<(), Error> {
    with_threads(a.threads, || {
        let max = jobs::solve::max_bytes(a.max_memory)?;
        let dir = std::path::Path::new(&a.dir);
        let openings = a.openings.as_deref().map(std::path::Path::new);
        let out = jobs::curve::curve(&FsStore, dir, max, openings, a.margin, &mut |t| {
            eprintln!("{t}")
        })?;
        for (variant, why) in &out.limits {
            match why {
                None => eprintln!("{variant}: perfect-play limit computed"),
                Some(why) => eprintln!("{variant}: no limit: {why}"),
            }
        }
        eprintln!(
            "{} written to {}",
            jobs::plural(out.rows.len() as u64, "row"),
            dir.join(jobs::curve::STRENGTH_CURVE).display()
        );
        Ok(())
    })
}

/// `katro judge DIR`: judges DIR/games.csv, says what each variant took.
pub fn judge(a: JudgeArgs) -> Result<(), Error> {
    with_threads(a.threads, || judge_on_pool(&a.dir, a.max_memory))
}

fn judge_on_pool(dir: &str, max_memory: f64) -> Result<(), Error> {
    let max = jobs::solve::max_bytes(max_memory)?;
    let started = std::time::Instant::now();
    let dir = std::path::Path::new(dir);
    let out = jobs::judge::judge(&FsStore, dir, max, &mut |t| eprintln!("{t}"))?;
    for v in &out.variants {
        eprintln!("{}", judged_words(v));
    }
    eprintln!(
        "{} judged in {:.2} s; wrote {}",
        jobs::plural(out.games, "game"),
        started.elapsed().as_secs_f64(),
        dir.join(jobs::judge::PERFECT_MOVES).display()
    );
    Ok(())
}

/// What judging one variant took, or why it was not judged.
fn judged_words(v: &jobs::judge::VariantOutcome) -> String {
    match &v.result {
        Ok((solve, positions, judging)) => format!(
            "{}: {} judged; solved in {:.2} s ({positions} positions), judged in {:.2} s",
            v.variant,
            jobs::plural(v.games, "game"),
            solve.as_secs_f64(),
            judging.as_secs_f64()
        ),
        Err(why) => format!(
            "{}: {} NOT judged: {why}",
            v.variant,
            jobs::plural(v.games, "game")
        ),
    }
}

// ---------------------------------------------------------------------------
// katro prove-nearby, katro prove-openings

/// The limits as the job takes them.
fn prove_flags(a: &ProveLimitArgs) -> jobs::prove_batch::ProveFlags {
    jobs::prove_batch::ProveFlags {
        max_gib: a.max_memory,
        max_depth: a.max_depth,
        max_nodes: a.max_nodes,
        max_seconds: a.max_seconds,
    }
}

/// `katro prove-nearby VARIANT [--out DIR] [limits]`.
pub fn prove_nearby(a: ProveNearbyArgs) -> Result<(), Error> {
    let opts = jobs::nearby::NearbyOptions {
        variant: a.variant,
        out: a.out,
        flags: prove_flags(&a.limits),
    };
    let clock = SystemClock::new();
    with_threads(a.limits.threads, || {
        let started = std::time::Instant::now();
        let out = jobs::nearby::prove_nearby(&FsStore, &opts, &clock, &|t| eprintln!("{t}"))?;
        emit(&out.text)?;
        eprintln!("{:.1} s", started.elapsed().as_secs_f64());
        Ok(())
    })
}

/// `katro prove-openings VARIANT --plies K,... [--lap-limit N] [--out DIR]
/// [limits]`.
pub fn prove_openings(a: ProveOpeningsArgs) -> Result<(), Error> {
    let opts = jobs::prove_openings::OpeningsOptions {
        variant: a.variant,
        plies: a.plies,
        lap_limit: limit(a.lap_limit, "--lap-limit", &LAP_LIMIT_RANGE)?,
        out: a.out,
        flags: prove_flags(&a.limits),
    };
    let clock = SystemClock::new();
    with_threads(a.limits.threads, || {
        let started = std::time::Instant::now();
        let out =
            jobs::prove_openings::prove_openings(&FsStore, &opts, &clock, &|t| eprintln!("{t}"))?;
        emit(&out.text)?;
        eprintln!("{:.1} s", started.elapsed().as_secs_f64());
        Ok(())
    })
}
