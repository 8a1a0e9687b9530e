//! `katro bench`: playout speed, measured the way `katro run` plays
//! (runner, aggregates, no per-game rows), after a warm-up, over several
//! identical rounds, reported as median and spread.

use std::time::Instant;

use katro::agents::AgentSpec;
use katro::runner::{self, Cell, NoCheckpoint, Part, Quiet, Rows, Stop, Work};
use katro::stats::Aggregate;

use crate::cli::{Failure, emit, load_variant};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Presets or variant files [default: every preset].
    pub variants: Vec<String>,
    /// The two agents, player 1 first.
    #[arg(long, default_value = "random,random")]
    pub agents: String,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<u32>,
    /// Measuring time per variant, split into the rounds.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Measured rounds per variant (each plays the same games).
    #[arg(long, default_value_t = 5)]
    pub rounds: u32,
    /// Override every variant's lap limit (changes the rules).
    #[arg(long)]
    pub lap_limit: Option<u64>,
    /// Master seed of the games played.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// What one round measured.
struct Round {
    seconds: f64,
    agg: Aggregate,
}

pub fn bench(a: BenchArgs) -> Result<(), Failure> {
    let (p1, p2) = match a.agents.split_once(',') {
        Some((x, y)) => (x, y),
        None => {
            return Err(Failure::input(format!(
                "--agents `{}`: give two agents separated by a comma, like random,random",
                a.agents
            )));
        }
    };
    let p1 = AgentSpec::parse(p1).map_err(|e| Failure::input(format!("--agents: {e}")))?;
    let p2 = AgentSpec::parse(p2).map_err(|e| Failure::input(format!("--agents: {e}")))?;
    if !(a.seconds.is_finite() && a.seconds > 0.0) {
        return Err(Failure::input(format!(
            "--seconds {}: give a positive number of seconds per variant",
            a.seconds
        )));
    }
    if a.rounds == 0 {
        return Err(Failure::input("--rounds 0: give at least one round"));
    }
    let threads = match a.threads {
        Some(0) => return Err(Failure::input("--threads 0: give at least one thread")),
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let names = if a.variants.is_empty() {
        katro::rules::preset_names()
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        a.variants.clone()
    };
    let mut variants = Vec::new();
    for name in &names {
        let mut rules = load_variant(name)?;
        if let Some(l) = a.lap_limit {
            if !(1..=katro::rules::MAX_LAP_LIMIT).contains(&l) {
                return Err(Failure::input(format!(
                    "--lap-limit {l}: give 1 to {}",
                    katro::rules::MAX_LAP_LIMIT
                )));
            }
            rules = rules
                .with_limits(None, Some(l))
                .map_err(|e| Failure::input(format!("--lap-limit {l}: {e}")))?;
        }
        variants.push(rules);
    }

    emit(&format!(
        "katro bench: {p1} vs {p2}, {threads} thread(s), {} round(s) of about {:.1} s per variant after a warm-up; \
         median [min, max] over rounds; every round plays the same games (seed {})\n",
        a.rounds,
        a.seconds / a.rounds as f64,
        a.seed
    ))?;
    for rules in &variants {
        let cell = |games: u64| Cell {
            rules,
            p1: &p1,
            p2: &p2,
            opening_plies: 0,
            stop: Stop::Games(games),
        };
        let play = |games: u64| -> Result<Round, Failure> {
            let t0 = Instant::now();
            let cells = [cell(games)];
            let work = Work {
                cells: &cells,
                master: a.seed,
                rows: Rows::None,
                part: Part::Whole,
                first_games: &[],
            };
            let r =
                runner::run(&work, threads, &Quiet, &NoCheckpoint, None).map_err(|e| Failure {
                    code: 1,
                    message: e,
                })?;
            Ok(Round {
                seconds: t0.elapsed().as_secs_f64(),
                agg: r.aggregates().into_iter().next().unwrap_or_default(),
            })
        };
        // Warm-up, which also sizes a round: double the games until a batch
        // takes a fifth of a round's time.
        let per_round = a.seconds / a.rounds as f64;
        let mut games: u64 = 64;
        loop {
            let r = play(games)?;
            if r.seconds >= per_round / 5.0 || games >= 1 << 40 {
                let rate = games as f64 / r.seconds.max(1e-9);
                games = ((rate * per_round) as u64).max(games);
                break;
            }
            games *= 2;
        }
        let mut rounds = Vec::new();
        for _ in 0..a.rounds {
            rounds.push(play(games)?);
        }
        emit(&report(rules.name(), threads, &rounds))?;
    }
    emit(&format!(
        "peak resident memory of this process: {}\n",
        peak_memory()
    ))
}

fn median_spread(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let med = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    (med, v[0], v[n - 1])
}

fn report(name: &str, threads: usize, rounds: &[Round]) -> String {
    let per = |f: &dyn Fn(&Round) -> f64| median_spread(rounds.iter().map(f).collect());
    let agg = &rounds[0].agg;
    let games = agg.games as f64;
    let (plies, laps, sown) = (agg.plies as f64, agg.laps as f64, agg.seeds_sown as f64);
    let t = threads as f64;
    let total = per(&|r| games / r.seconds);
    let rows = [
        ("games/s, all threads", total),
        ("games/s per core", (total.0 / t, total.1 / t, total.2 / t)),
        ("plies/s", per(&|r| plies / r.seconds)),
        ("laps/s", per(&|r| laps / r.seconds)),
        ("seeds sown/s", per(&|r| sown / r.seconds)),
        // Whole-run time on all threads (move choice, generation, sowing,
        // aggregation) divided by the seeds sown and by the laps.
        (
            "ns per sown seed (core)",
            per(&|r| r.seconds * t * 1e9 / sown),
        ),
        ("ns per lap (core)", per(&|r| r.seconds * t * 1e9 / laps)),
    ];
    let mut out = format!(
        "{name}: {} games a round; a game: {:.1} plies, {:.1} laps, {:.1} seeds sown\n",
        agg.games,
        plies / games,
        laps / games,
        sown / games
    );
    for (label, (m, lo, hi)) in rows {
        out.push_str(&format!("  {label:<24} {m:>14.1}   [{lo:.1}, {hi:.1}]\n"));
    }
    out
}

/// The process's peak resident set (VmHWM), where Linux reports it.
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "not available on this system".into())
}
