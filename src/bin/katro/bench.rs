//! `katro bench`: playout speed, measured the way `katro run` plays
//! (runner, aggregates, no per-game rows), after a warm-up, over several
//! identical rounds, reported as median and spread; with `--mcts N`, the
//! speed of the `mcts` agent's search instead (simulations per second).

use std::time::Instant;

use katro::agents::alphabeta;
use katro::agents::mcts;
use katro::agents::{AgentSpec, Need};
use katro::engine::Position;
use katro::experiment::runner::{self, Cell, NoCheckpoint, Part, Quiet, Rows, Stop, Work};
use katro::experiment::stats::Aggregate;
use katro::rng::{below, game_seed, rng_from_seed};
use katro::rules::Rules;

use crate::output::{emit, load_variant};
use katro::jobs::Error;

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
    /// Measure the `mcts` agent instead: searches of N simulations each
    /// (default exploration), on one thread, from positions of random
    /// games; prints simulations (iterations) and rollout plies per second.
    #[arg(long, value_name = "N")]
    pub mcts: Option<u32>,
    /// With --mcts: more settings of the agent searched, as its spec
    /// writes them (`rollout=greedy,solver=true`).
    #[arg(long, value_name = "KEYS", requires = "mcts")]
    pub mcts_keys: Option<String>,
    /// Measure the `alphabeta` agent's deep search instead (iterative
    /// deepening with its table, `alphabeta::analyse_deep`), as the agent
    /// SPEC sets it (`alphabeta:depth=12,nodes=20000`), on one thread,
    /// from positions of random games; prints nodes per second.
    #[arg(long, value_name = "SPEC", conflicts_with = "mcts")]
    pub alphabeta: Option<String>,
    /// With --mcts or --alphabeta: how many positions are searched a round.
    #[arg(long, default_value_t = 40)]
    pub positions: u32,
}

/// What one round measured.
struct Round {
    seconds: f64,
    /// CPU seconds the process used (all threads): on a shared machine
    /// the wall clock counts other people's work too.
    cpu: Option<f64>,
    agg: Aggregate,
}

pub fn bench(a: BenchArgs) -> Result<(), Error> {
    let (p1, p2) = match a.agents.split_once(',') {
        Some((x, y)) => (x, y),
        None => {
            return Err(Error::refused(format!(
                "--agents `{}`: give two agents separated by a comma, like random,random",
                a.agents
            )));
        }
    };
    // Every round must play the same games, which a time budget forbids.
    let seat = |text: &str| {
        AgentSpec::seat(text, None, Need::Reproducible)
            .map_err(|e| Error::refused(format!("--agents: {e}")))
    };
    let (p1, p2) = (seat(p1)?, seat(p2)?);
    if !(a.seconds.is_finite() && a.seconds > 0.0) {
        return Err(Error::refused(format!(
            "--seconds {}: give a positive number of seconds per variant",
            a.seconds
        )));
    }
    if a.rounds == 0 {
        return Err(Error::refused("--rounds 0: give at least one round"));
    }
    let threads = match a.threads {
        Some(0) => return Err(Error::refused("--threads 0: give at least one thread")),
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
                return Err(Error::refused(format!(
                    "--lap-limit {l}: give 1 to {}",
                    katro::rules::MAX_LAP_LIMIT
                )));
            }
            rules = rules
                .with_limits(None, Some(l))
                .map_err(|e| Error::refused(format!("--lap-limit {l}: {e}")))?;
        }
        for agent in [&p1, &p2] {
            agent
                .check_variant(&rules)
                .map_err(|e| Error::refused(format!("--agents: {e}")))?;
        }
        variants.push(rules);
    }
    if let Some(n) = a.mcts {
        return bench_mcts(&a, n, &variants);
    }
    if let Some(spec) = &a.alphabeta {
        return bench_alphabeta(&a, spec, &variants);
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
            metrics: None,
        };
        let play = |games: u64| -> Result<Round, Error> {
            let t0 = Instant::now();
            let c0 = cpu_seconds();
            let cells = [cell(games)];
            let work = Work {
                cells: &cells,
                master: a.seed,
                rows: Rows::None,
                part: Part::Whole,
                first_games: &[],
            };
            let r = runner::run(&work, threads, &Quiet, &NoCheckpoint, None)
                .map_err(|e| Error::Failed(e.to_string()))?;
            Ok(Round {
                seconds: t0.elapsed().as_secs_f64(),
                cpu: c0.zip(cpu_seconds()).map(|(a, b)| b - a),
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

/// One figure of a report: its label, median and [min, max].
fn figure_line(label: &str, (m, lo, hi): (f64, f64, f64)) -> String {
    format!("  {label:<24} {m:>14.1}   [{lo:.1}, {hi:.1}]\n")
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
    for (label, figure) in rows {
        out.push_str(&figure_line(label, figure));
    }
    if rounds.iter().all(|r| r.cpu.is_some_and(|c| c > 0.0)) {
        let (m, lo, hi) = per(&|r| games / r.cpu.unwrap_or(f64::NAN));
        let label = "games per CPU second";
        out.push_str(&format!("  {label:<24} {m:>14.1}   [{lo:.1}, {hi:.1}]\n"));
    }
    out
}

/// User and system CPU seconds of the whole process, finished threads
/// included (`/proc/self/stat`, in Linux's fixed 100 ticks a second), where
/// Linux reports it.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
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

/// Positions to search: for each, a random game played from the start to
/// a ply drawn from 0 to 59, the last position on the way with a choice
/// of moves (a position with one move is never searched in play).
fn search_positions(rules: &Rules, count: u32, seed: u64) -> Vec<Position> {
    (0..count)
        .map(|i| {
            let mut rng = rng_from_seed(game_seed(seed, rules.name(), "bench-mcts", i.into()));
            let target = below(&mut rng, 60) as u32;
            let mut pos = rules.start();
            let mut chosen = pos;
            while pos.plies() <= target {
                let legal = rules.legal_moves(&pos);
                if legal.len() >= 2 {
                    chosen = pos;
                }
                match rules.random_move(&pos, &mut rng) {
                    Some(mv) => {
                        rules.play_unchecked(&mut pos, mv, &mut katro::engine::Silent);
                    }
                    None => break,
                }
            }
            chosen
        })
        .collect()
}

/// What one round of searches measured.
struct SearchRound {
    seconds: f64,
    searches: u64,
    /// MCTS iterations, or alpha-beta nodes.
    iterations: u64,
    /// MCTS rollout plies, or alpha-beta depths completed, summed.
    rollout_plies: u64,
}

/// A warm-up pass over `positions`, then `a.rounds` rounds of as many
/// passes as fill `a.seconds / a.rounds`; `search` makes one search and
/// returns the two figures a round adds up (MCTS: iterations and rollout
/// plies; alpha-beta: nodes and depth completed).
fn search_rounds(
    a: &BenchArgs,
    positions: &[Position],
    search: impl Fn(usize, &Position) -> (u64, u64),
) -> Vec<SearchRound> {
    let play = |repeat: u32| -> SearchRound {
        let t0 = Instant::now();
        let mut r = SearchRound {
            seconds: 0.0,
            searches: 0,
            iterations: 0,
            rollout_plies: 0,
        };
        for _ in 0..repeat {
            for (i, pos) in positions.iter().enumerate() {
                let (work, detail) = search(i, pos);
                r.searches += 1;
                r.iterations += work;
                r.rollout_plies += detail;
            }
        }
        r.seconds = t0.elapsed().as_secs_f64();
        r
    };
    let warm = play(1);
    let per_round = a.seconds / a.rounds as f64;
    let repeat = ((per_round / warm.seconds.max(1e-9)) as u32).max(1);
    (0..a.rounds).map(|_| play(repeat)).collect()
}

fn bench_mcts(a: &BenchArgs, n: u32, variants: &[Rules]) -> Result<(), Error> {
    let keys = a
        .mcts_keys
        .as_deref()
        .map_or(String::new(), |k| format!(",{k}"));
    let agent = format!("mcts:iterations={n}{keys}");
    let spec = AgentSpec::parse(&agent).map_err(|e| Error::refused(format!("--mcts: {e}")))?;
    let Some((budget, settings)) = spec.mcts_search() else {
        unreachable!("parsed from an mcts agent")
    };
    let exploration = settings.exploration;
    if budget.time.is_some() {
        return Err(Error::refused(
            "--mcts-keys: time_ms would make the rounds differ; the budget is --mcts N",
        ));
    }
    if a.threads.is_some() {
        return Err(Error::refused(
            "--threads: --mcts times one search at a time on one thread; leave --threads out",
        ));
    }
    if a.positions == 0 {
        return Err(Error::refused("--positions 0: give at least one position"));
    }
    emit(&format!(
        "katro bench --mcts: {agent} (exploration {exploration}), one thread, {} position(s) \
         a variant from random games (seed {}), {} round(s) of about {:.1} s after a warm-up; \
         median [min, max] over rounds; every round makes the same searches\n",
        a.positions,
        a.seed,
        a.rounds,
        a.seconds / a.rounds as f64
    ))?;
    for rules in variants {
        let positions = search_positions(rules, a.positions, a.seed);
        // Each search's generator depends on the position only, so every
        // round makes the same searches.
        let rounds = search_rounds(a, &positions, |i, pos| {
            let legal = rules.legal_moves(pos);
            let mut rng = rng_from_seed(i as u64);
            let found = mcts::search(rules, pos, &legal, budget, &settings, &mut rng);
            (u64::from(found.iterations), found.rollout_plies)
        });
        emit(&mcts_report(rules.name(), &rounds))?;
    }
    emit(&format!(
        "peak resident memory of this process: {}\n",
        peak_memory()
    ))
}

fn bench_alphabeta(a: &BenchArgs, text: &str, variants: &[Rules]) -> Result<(), Error> {
    let spec = AgentSpec::parse(text).map_err(|e| Error::refused(format!("--alphabeta: {e}")))?;
    let AgentSpec::Alphabeta {
        depth,
        nodes,
        tt,
        eval,
    } = spec
    else {
        return Err(Error::refused(format!(
            "--alphabeta `{text}`: give an alphabeta agent, like alphabeta:depth=12,nodes=20000"
        )));
    };
    if a.threads.is_some() {
        return Err(Error::refused(
            "--threads: --alphabeta times one search at a time on one thread; leave --threads out",
        ));
    }
    if a.positions == 0 {
        return Err(Error::refused("--positions 0: give at least one position"));
    }
    let limits = alphabeta::Limits {
        depth,
        nodes,
        tt_bits: tt.unwrap_or(katro::agents::DEFAULT_TT_BITS),
        eval: eval.unwrap_or_default(),
    };
    emit(&format!(
        "katro bench --alphabeta: {spec} (deep search), one thread, {} position(s) a variant \
         from random games (seed {}), {} round(s) of about {:.1} s after a warm-up; median \
         [min, max] over rounds; every round makes the same searches\n",
        a.positions,
        a.seed,
        a.rounds,
        a.seconds / a.rounds as f64
    ))?;
    for rules in variants {
        let positions = search_positions(rules, a.positions, a.seed);
        // The nodes searched, and the depth completed (reported as a mean).
        let rounds = search_rounds(a, &positions, |_, pos| {
            let legal = rules.legal_moves(pos);
            let found = alphabeta::analyse_deep(rules, pos, &legal, limits);
            (found.nodes, u64::from(found.depth))
        });
        let per = |f: &dyn Fn(&SearchRound) -> f64| median_spread(rounds.iter().map(f).collect());
        let r0 = &rounds[0];
        let mut out = format!(
            "{}: {} searches a round; {:.1} nodes and depth {:.2} a search\n",
            rules.name(),
            r0.searches,
            r0.iterations as f64 / r0.searches as f64,
            r0.rollout_plies as f64 / r0.searches as f64
        );
        out.push_str(&figure_line(
            "nodes/s",
            per(&|r| r.iterations as f64 / r.seconds),
        ));
        out.push_str(&figure_line(
            "µs per search",
            per(&|r| r.seconds * 1e6 / r.searches as f64),
        ));
        emit(&out)?;
    }
    emit(&format!(
        "peak resident memory of this process: {}\n",
        peak_memory()
    ))
}

fn mcts_report(name: &str, rounds: &[SearchRound]) -> String {
    let per = |f: &dyn Fn(&SearchRound) -> f64| median_spread(rounds.iter().map(f).collect());
    let r0 = &rounds[0];
    let rows = [
        ("iterations/s", per(&|r| r.iterations as f64 / r.seconds)),
        (
            "rollout plies/s",
            per(&|r| r.rollout_plies as f64 / r.seconds),
        ),
        (
            "µs per search",
            per(&|r| r.seconds * 1e6 / r.searches as f64),
        ),
    ];
    let mut out = format!(
        "{name}: {} searches a round; {:.1} rollout plies a simulation\n",
        r0.searches,
        r0.rollout_plies as f64 / r0.iterations as f64
    );
    for (label, figure) in rows {
        out.push_str(&figure_line(label, figure));
    }
    out
}
