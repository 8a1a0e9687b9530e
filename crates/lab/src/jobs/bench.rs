//! `katro bench`: playout speed, measured the way `katro run` plays
//! (runner, aggregates, no per-game rows), after a warm-up, over several
//! identical rounds, reported as median and spread; with `mcts`, the
//! speed of the `mcts` agent's search instead (simulations per second);
//! with `alphabeta`, the nodes per second of its deep search.

use std::time::Instant;

use crate::agents::alphabeta;
use crate::agents::mcts;
use crate::agents::{AgentSpec, Need};
use crate::engine::{Position, Silent};
use crate::experiment::runner::Quiet;
use crate::experiment::stats::Aggregate;
use crate::rng::{below, game_seed, rng_from_seed};
use crate::rules::{MAX_LAP_LIMIT, Rules, preset_names};
use crate::store::Store;

use super::simulate::{matchup, play_games};
use super::{Error, Refusal, load_variant, threads_or_all};

/// What `katro bench` measures; the fields are its flags.
pub struct BenchOptions {
    /// Presets or variant files; every preset if empty.
    pub variants: Vec<String>,
    /// The two agents, `P1,P2`.
    pub agents: String,
    /// Worker threads; all cores if `None`.
    pub threads: Option<u32>,
    /// Measuring time per variant, split into the rounds.
    pub seconds: f64,
    /// Measured rounds per variant.
    pub rounds: u32,
    /// Overrides every variant's lap limit.
    pub lap_limit: Option<u64>,
    /// Master seed of the games played and of the positions searched.
    pub seed: u64,
    /// Measure `mcts` searches of this many simulations instead.
    pub mcts: Option<u32>,
    /// More settings of the `mcts` agent, as its spec writes them.
    pub mcts_keys: Option<String>,
    /// Measure this `alphabeta` agent's deep search instead.
    pub alphabeta: Option<String>,
    /// Measure the prover instead: searches of at most this many nodes,
    /// beside the preset's playout speed on one thread.
    pub prove: Option<u64>,
    /// With `mcts`, `alphabeta` or `prove`: the positions searched a round.
    pub positions: u32,
    /// The process's CPU seconds so far (all threads), where the system
    /// says: the library cannot read the process's clocks itself.
    pub cpu_seconds: fn() -> Option<f64>,
    /// The process's peak resident memory in bytes, where the system says.
    pub peak_rss: fn() -> Option<u64>,
}

/// `katro bench`: measures and hands the report to `out` a piece at a
/// time (the header, then one block per variant as it is measured, then
/// the peak memory), so a long bench shows its figures as they come.
pub fn bench(
    a: &BenchOptions,
    store: &dyn Store,
    out: &mut dyn FnMut(&str) -> Result<(), Error>,
) -> Result<(), Error> {
    let (p1, p2) = seat_agents(&a.agents)?;
    let threads = check_numbers(a)?;
    let variants = load_variants(a, store, [&p1, &p2])?;
    if let Some(n) = a.mcts {
        return bench_mcts(a, n, &variants, out);
    }
    if let Some(spec) = &a.alphabeta {
        return bench_alphabeta(a, spec, &variants, out);
    }
    if let Some(nodes) = a.prove {
        return bench_prove(a, nodes, &variants, out);
    }
    out(&playouts_header(a, &p1, &p2, threads))?;
    for rules in &variants {
        let playouts = Playouts {
            a,
            rules,
            p1: &p1,
            p2: &p2,
            threads,
        };
        out(&report(rules.name(), threads, &playouts.rounds()?))?;
    }
    out(&peak_memory_line(a))
}

/// The first line of a playout bench: the matchup and how it is timed.
fn playouts_header(a: &BenchOptions, p1: &AgentSpec, p2: &AgentSpec, threads: usize) -> String {
    format!(
        "katro bench: {p1} vs {p2}, {threads} thread(s), {} round(s) of about {:.1} s per variant after a warm-up; \
         median [min, max] over rounds; every round plays the same games (seed {})\n",
        a.rounds,
        a.seconds / a.rounds as f64,
        a.seed
    )
}

/// What one round measured.
struct Round {
    seconds: f64,
    /// CPU seconds the process used (all threads): on a shared machine
    /// the wall clock counts other people's work too.
    cpu: Option<f64>,
    agg: Aggregate,
}

/// `--agents P1,P2`, each one whose games a seed fixes: every round must
/// play the same games, which a time budget forbids.
fn seat_agents(text: &str) -> Result<(AgentSpec, AgentSpec), Error> {
    let Some((p1, p2)) = text.split_once(',') else {
        return Err(Refusal::FlagText {
            flag: "--agents",
            text: text.to_string(),
            want: "give two agents separated by a comma, like random,random",
        }
        .into());
    };
    let seat = |text: &str| {
        AgentSpec::seat(text, None, Need::Reproducible).map_err(|error| Refusal::Agent {
            flag: Some("--agents"),
            error,
        })
    };
    Ok((seat(p1)?, seat(p2)?))
}

/// Refuses a `--seconds`, `--rounds` or `--threads` that measures
/// nothing; the threads to play on.
fn check_numbers(a: &BenchOptions) -> Result<usize, Error> {
    if !(a.seconds.is_finite() && a.seconds > 0.0) {
        return Err(flag_value(
            "--seconds",
            a.seconds,
            "give a positive number of seconds per variant",
        ));
    }
    if a.rounds == 0 {
        return Err(flag_value("--rounds", 0, "give at least one round"));
    }
    if a.threads == Some(0) {
        return Err(flag_value("--threads", 0, "give at least one thread"));
    }
    Ok(threads_or_all(a.threads.map(|t| t as usize)))
}

/// The variants named (every preset if none), with `--lap-limit`, each
/// checked against both agents.
fn load_variants(
    a: &BenchOptions,
    store: &dyn Store,
    agents: [&AgentSpec; 2],
) -> Result<Vec<Rules>, Error> {
    let names = if a.variants.is_empty() {
        preset_names().iter().map(|s| s.to_string()).collect()
    } else {
        a.variants.clone()
    };
    let mut variants = Vec::new();
    for name in &names {
        let mut rules = load_variant(store, name)?;
        if let Some(l) = a.lap_limit {
            rules = with_lap_limit(rules, l)?;
        }
        check_agents(&rules, agents)?;
        variants.push(rules);
    }
    Ok(variants)
}

/// Refuses a variant either agent cannot play.
fn check_agents(rules: &Rules, agents: [&AgentSpec; 2]) -> Result<(), Error> {
    for agent in agents {
        agent.check_variant(rules).map_err(|error| Refusal::Agent {
            flag: Some("--agents"),
            error,
        })?;
    }
    Ok(())
}

fn with_lap_limit(rules: Rules, l: u64) -> Result<Rules, Error> {
    if !(1..=MAX_LAP_LIMIT).contains(&l) {
        return Err(flag_value(
            "--lap-limit",
            l,
            &format!("give 1 to {MAX_LAP_LIMIT}"),
        ));
    }
    Ok(rules
        .with_limits(None, Some(l))
        .map_err(|error| Refusal::LapLimit { limit: l, error })?)
}

/// A flag's number that measures nothing.
fn flag_value(flag: &'static str, value: impl ToString, want: &str) -> Error {
    Refusal::FlagValue {
        flag,
        value: value.to_string(),
        want: want.to_string(),
    }
    .into()
}

/// One variant's rounds, played as `katro run` plays a cell.
struct Playouts<'a> {
    a: &'a BenchOptions,
    rules: &'a Rules,
    p1: &'a AgentSpec,
    p2: &'a AgentSpec,
    threads: usize,
}

impl Playouts<'_> {
    /// A round of `games` games, timed.
    fn play(&self, games: u64) -> Result<Round, Error> {
        let t0 = Instant::now();
        let c0 = (self.a.cpu_seconds)();
        let cells = [matchup(self.rules, self.p1, self.p2, games)];
        let r = play_games(&cells, self.a.seed, self.threads, &Quiet)?;
        Ok(Round {
            seconds: t0.elapsed().as_secs_f64(),
            cpu: c0.zip((self.a.cpu_seconds)()).map(|(a, b)| b - a),
            agg: r.aggregates().into_iter().next().unwrap_or_default(),
        })
    }

    /// The warm-up, then the measured rounds.
    fn rounds(&self) -> Result<Vec<Round>, Error> {
        let games = self.warm_up()?;
        let mut rounds = Vec::new();
        for _ in 0..self.a.rounds {
            rounds.push(self.play(games)?);
        }
        Ok(rounds)
    }

    /// The warm-up, which also sizes a round: double the games until a
    /// batch takes a fifth of a round's time; the games a round plays.
    fn warm_up(&self) -> Result<u64, Error> {
        let per_round = self.a.seconds / self.a.rounds as f64;
        let mut games: u64 = 64;
        loop {
            let r = self.play(games)?;
            if r.seconds >= per_round / 5.0 || games >= 1 << 40 {
                let rate = games as f64 / r.seconds.max(1e-9);
                return Ok(((rate * per_round) as u64).max(games));
            }
            games *= 2;
        }
    }
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
    let mut out = format!(
        "{name}: {} games a round; a game: {:.1} plies, {:.1} laps, {:.1} seeds sown\n",
        agg.games,
        plies / games,
        laps / games,
        sown / games
    );
    for (label, figure) in playout_figures(threads, rounds) {
        out.push_str(&figure_line(label, figure));
    }
    if rounds.iter().all(|r| r.cpu.is_some_and(|c| c > 0.0)) {
        let figure = per(&|r| games / r.cpu.unwrap_or(f64::NAN));
        out.push_str(&figure_line("games per CPU second", figure));
    }
    out
}

/// The rates of a playout bench's rounds on `threads` threads, each
/// labelled.
fn playout_figures(threads: usize, rounds: &[Round]) -> [(&'static str, (f64, f64, f64)); 7] {
    let per = |f: &dyn Fn(&Round) -> f64| median_spread(rounds.iter().map(f).collect());
    let agg = &rounds[0].agg;
    let games = agg.games as f64;
    let (plies, laps, sown) = (agg.plies as f64, agg.laps as f64, agg.seeds_sown as f64);
    let t = threads as f64;
    let total = per(&|r| games / r.seconds);
    [
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
    ]
}

/// Positions to search: for each, a random game played from the start to
/// a ply drawn from 0 to 59, the last position on the way with a choice
/// of moves (a position with one move is never searched in play).
fn search_positions(rules: &Rules, count: u32, seed: u64) -> Vec<Position> {
    (0..count)
        .map(|i| search_position(rules, seed, i))
        .collect()
}

/// Position `i` of [`search_positions`].
fn search_position(rules: &Rules, seed: u64, i: u32) -> Position {
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
                rules.play_unchecked(&mut pos, mv, &mut Silent);
            }
            None => break,
        }
    }
    chosen
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
    a: &BenchOptions,
    positions: &[Position],
    search: impl Fn(usize, &Position) -> (u64, u64),
) -> Vec<SearchRound> {
    let play = |repeat: u32| search_passes(positions, repeat, &search);
    let warm = play(1);
    let per_round = a.seconds / a.rounds as f64;
    let repeat = ((per_round / warm.seconds.max(1e-9)) as u32).max(1);
    (0..a.rounds).map(|_| play(repeat)).collect()
}

/// `repeat` passes of `search` over `positions`, timed.
fn search_passes(
    positions: &[Position],
    repeat: u32,
    search: &impl Fn(usize, &Position) -> (u64, u64),
) -> SearchRound {
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
}

/// `--mcts N` with `--mcts-keys`: the agent as its spec writes it, with
/// its search budget and settings; refused with a time budget, which
/// would make the rounds differ.
fn mcts_agent(a: &BenchOptions, n: u32) -> Result<(String, mcts::Budget, mcts::Settings), Error> {
    let keys = a
        .mcts_keys
        .as_deref()
        .map_or(String::new(), |k| format!(",{k}"));
    let agent = format!("mcts:iterations={n}{keys}");
    let spec = AgentSpec::parse(&agent).map_err(|error| Refusal::Agent {
        flag: Some("--mcts"),
        error,
    })?;
    let Some((budget, settings)) = spec.mcts_search() else {
        unreachable!("parsed from an mcts agent")
    };
    if budget.time.is_some() {
        return Err(Refusal::FlagConflict {
            flag: "--mcts-keys",
            why: "time_ms would make the rounds differ; the budget is --mcts N".into(),
        }
        .into());
    }
    Ok((agent, budget, settings))
}

fn bench_mcts(
    a: &BenchOptions,
    n: u32,
    variants: &[Rules],
    out: &mut dyn FnMut(&str) -> Result<(), Error>,
) -> Result<(), Error> {
    let (agent, budget, settings) = mcts_agent(a, n)?;
    let exploration = settings.exploration;
    let what = format!("{agent} (exploration {exploration})");
    // Each search's generator depends on the position only, so every
    // round makes the same searches.
    let search = |rules: &Rules, i: usize, pos: &Position| {
        let legal = rules.legal_moves(pos);
        let mut rng = rng_from_seed(i as u64);
        let found = mcts::search(rules, pos, &legal, budget, &settings, &mut rng);
        (u64::from(found.iterations), found.rollout_plies)
    };
    search_bench(a, ("--mcts", &what), variants, out, search, mcts_report)
}

fn bench_alphabeta(
    a: &BenchOptions,
    text: &str,
    variants: &[Rules],
    out: &mut dyn FnMut(&str) -> Result<(), Error>,
) -> Result<(), Error> {
    let (spec, limits) = alphabeta_limits(text)?;
    // The nodes searched, and the depth completed (reported as a mean).
    let search = |rules: &Rules, _: usize, pos: &Position| {
        let legal = rules.legal_moves(pos);
        let found = alphabeta::analyse_deep(rules, pos, &legal, limits);
        (found.nodes, u64::from(found.depth))
    };
    let what = format!("{spec} (deep search)");
    search_bench(
        a,
        ("--alphabeta", &what),
        variants,
        out,
        search,
        alphabeta_report,
    )
}

/// Bytes of the prover's table in a bench: small, so that making it
/// afresh for every search (each round must search alike) costs little
/// beside the search.
const BENCH_PROVE_TABLE: u64 = 16 << 20;

/// `--prove N`: the prover's nodes per second on the positions of random
/// games, each search at most `nodes` nodes on a fresh table, after the
/// same preset's random playouts on one thread; the ratio of the two is
/// the figure docs/PERFORMANCE.md compares with alpha-beta's.
fn bench_prove(
    a: &BenchOptions,
    nodes: u64,
    variants: &[Rules],
    out: &mut dyn FnMut(&str) -> Result<(), Error>,
) -> Result<(), Error> {
    use crate::solve::prove::{Limits, NoWatch, Prover};
    if nodes == 0 {
        return Err(flag_value("--prove", 0, "give at least one node a search"));
    }
    check_one_search(a, "--prove")?;
    out(&format!(
        "katro bench --prove: proof searches of at most {nodes} nodes on a fresh {} table, \
         one thread, {} position(s) a variant from random games (seed {}), {} round(s) of \
         about {:.1} s after a warm-up, after random playouts on one thread for as long; \
         median [min, max] over rounds\n",
        super::solve::mib(BENCH_PROVE_TABLE),
        a.positions,
        a.seed,
        a.rounds,
        a.seconds / a.rounds as f64
    ))?;
    let random = AgentSpec::Random;
    for rules in variants {
        let playouts = Playouts {
            a,
            rules,
            p1: &random,
            p2: &random,
            threads: 1,
        };
        let plays = playouts.rounds()?;
        let plies_per_s = median_spread(
            plays
                .iter()
                .map(|r| r.agg.plies as f64 / r.seconds)
                .collect(),
        );
        let positions = search_positions(rules, a.positions, a.seed);
        let rounds = search_rounds(a, &positions, |_, pos| {
            let mut prover = Prover::new(rules, BENCH_PROVE_TABLE);
            let limits = Limits {
                max_depth: 200,
                max_nodes: Some(nodes),
            };
            let s = prover.value(pos, limits, &mut NoWatch);
            (s.nodes, u64::from(s.outcome.distance().is_some()))
        });
        let nodes_per_s = median_spread(
            rounds
                .iter()
                .map(|r| r.iterations as f64 / r.seconds)
                .collect(),
        );
        let r0 = &rounds[0];
        let mut text = format!(
            "{}: {} searches a round; {:.1} nodes a search, {} of {} positions proven\n",
            rules.name(),
            r0.searches,
            r0.iterations as f64 / r0.searches as f64,
            r0.rollout_plies,
            r0.searches
        );
        text.push_str(&figure_line("proof nodes/s", nodes_per_s));
        text.push_str(&figure_line("playout plies/s (1 thread)", plies_per_s));
        text.push_str(&format!(
            "  proof nodes/s ÷ playout plies/s (medians): {:.3}\n",
            nodes_per_s.0 / plies_per_s.0
        ));
        out(&text)?;
    }
    out(&peak_memory_line(a))
}

/// A bench of one search at a time (`flag` and the agent it sets), after
/// the checks [`check_one_search`] makes: the header, then each variant's
/// rounds of `search` on its positions, told by `report`.
fn search_bench(
    a: &BenchOptions,
    (flag, what): (&str, &str),
    variants: &[Rules],
    out: &mut dyn FnMut(&str) -> Result<(), Error>,
    search: impl Fn(&Rules, usize, &Position) -> (u64, u64),
    report: fn(&str, &[SearchRound]) -> String,
) -> Result<(), Error> {
    check_one_search(a, flag)?;
    out(&format!(
        "katro bench {flag}: {what}, one thread, {} position(s) a variant from random games \
         (seed {}), {} round(s) of about {:.1} s after a warm-up; median [min, max] over \
         rounds; every round makes the same searches\n",
        a.positions,
        a.seed,
        a.rounds,
        a.seconds / a.rounds as f64
    ))?;
    for rules in variants {
        let positions = search_positions(rules, a.positions, a.seed);
        let rounds = search_rounds(a, &positions, |i, pos| search(rules, i, pos));
        out(&report(rules.name(), &rounds))?;
    }
    out(&peak_memory_line(a))
}

/// `--alphabeta SPEC`: the agent and the limits of its deep search.
fn alphabeta_limits(text: &str) -> Result<(AgentSpec, alphabeta::Limits), Error> {
    let spec = AgentSpec::parse(text).map_err(|error| Refusal::Agent {
        flag: Some("--alphabeta"),
        error,
    })?;
    let Some(limits) = spec.search_limits() else {
        return Err(Refusal::FlagText {
            flag: "--alphabeta",
            text: text.to_string(),
            want: "give an alphabeta agent, like alphabeta:depth=12,nodes=20000",
        }
        .into());
    };
    Ok((spec, limits))
}

/// Refuses what a bench of one search at a time (`flag`: --mcts or
/// --alphabeta) cannot do: more threads, or no position.
fn check_one_search(a: &BenchOptions, flag: &str) -> Result<(), Error> {
    if a.threads.is_some() {
        return Err(Refusal::FlagConflict {
            flag: "--threads",
            why: format!("{flag} times one search at a time on one thread; leave --threads out"),
        }
        .into());
    }
    if a.positions == 0 {
        return Err(flag_value("--positions", 0, "give at least one position"));
    }
    Ok(())
}

fn alphabeta_report(name: &str, rounds: &[SearchRound]) -> String {
    let per = |f: &dyn Fn(&SearchRound) -> f64| median_spread(rounds.iter().map(f).collect());
    let r0 = &rounds[0];
    let mut out = format!(
        "{name}: {} searches a round; {:.1} nodes and depth {:.2} a search\n",
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
    out
}

/// The peak resident memory as Linux's VmHWM says it (kB).
fn peak_memory_line(a: &BenchOptions) -> String {
    let peak = (a.peak_rss)().map_or_else(
        || "not available on this system".to_string(),
        |bytes| format!("{} kB", bytes / 1024),
    );
    format!("peak resident memory of this process: {peak}\n")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    fn options() -> BenchOptions {
        BenchOptions {
            variants: vec!["katro-4x4".into()],
            agents: "random,random".into(),
            threads: Some(1),
            seconds: 0.02,
            rounds: 2,
            lap_limit: None,
            seed: 1,
            mcts: None,
            mcts_keys: None,
            alphabeta: None,
            prove: None,
            positions: 2,
            cpu_seconds: || Some(0.0),
            peak_rss: || Some(2048 * 1024),
        }
    }

    fn text(o: &BenchOptions) -> Result<Vec<String>, Error> {
        let mut pieces = Vec::new();
        bench(o, &MemoryStore::default(), &mut |t| {
            pieces.push(t.to_string());
            Ok(())
        })?;
        Ok(pieces)
    }

    /// `--prove`: the proof bench prints nodes/s, plies/s and their
    /// ratio for each variant, and refuses a budget of no node.
    #[test]
    fn the_prove_bench_gives_nodes_plies_and_their_ratio() {
        let o = BenchOptions {
            prove: Some(2000),
            threads: None,
            ..options()
        };
        let all = text(&o).unwrap().concat();
        assert!(all.contains("katro-4x4: "), "{all}");
        assert!(all.contains("proof nodes/s"), "{all}");
        assert!(all.contains("playout plies/s (1 thread)"), "{all}");
        assert!(
            all.contains("proof nodes/s ÷ playout plies/s (medians): "),
            "{all}"
        );
        let none = BenchOptions {
            prove: Some(0),
            threads: None,
            ..options()
        };
        assert!(text(&none).is_err());
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median_spread(vec![3.0, 1.0, 2.0]), (2.0, 1.0, 3.0));
        assert_eq!(median_spread(vec![4.0, 1.0, 2.0, 3.0]), (2.5, 1.0, 4.0));
    }

    /// The header, one block per variant, the memory line, in that order
    /// and as they are measured; a CPU clock that does not move leaves
    /// the games per CPU second out rather than dividing by zero.
    #[test]
    fn the_report_comes_a_piece_at_a_time() {
        let pieces = text(&options()).unwrap();
        assert_eq!(pieces.len(), 3, "{pieces:?}");
        assert!(pieces[0].starts_with("katro bench: random vs random, 1 thread(s), 2 round(s)"));
        assert!(pieces[1].starts_with("katro-4x4: "), "{}", pieces[1]);
        assert!(pieces[1].contains("games/s per core"));
        assert!(!pieces[1].contains("games per CPU second"));
        assert_eq!(pieces[2], "peak resident memory of this process: 2048 kB\n");
        let o = BenchOptions {
            peak_rss: || None,
            ..options()
        };
        let last = text(&o).unwrap().pop().unwrap();
        assert!(last.ends_with(": not available on this system\n"), "{last}");
    }

    #[test]
    fn searches_report_their_own_figures() {
        let o = BenchOptions {
            threads: None,
            mcts: Some(5),
            ..options()
        };
        assert!(text(&o).unwrap()[1].contains("iterations/s"));
        let o = BenchOptions {
            threads: None,
            alphabeta: Some("alphabeta:depth=2".into()),
            ..options()
        };
        assert!(text(&o).unwrap()[1].contains("nodes/s"));
    }

    /// Bad flags are the caller's to fix (exit 2 in `katro`), and nothing
    /// is said before the refusal.
    #[test]
    fn bad_options_are_refused_before_anything_is_said() {
        let bad = [
            BenchOptions {
                rounds: 0,
                ..options()
            },
            BenchOptions {
                seconds: f64::NAN,
                ..options()
            },
            BenchOptions {
                agents: "random".into(),
                ..options()
            },
            BenchOptions {
                variants: vec!["no-such-variant".into()],
                ..options()
            },
            BenchOptions {
                mcts: Some(5),
                ..options()
            },
            BenchOptions {
                alphabeta: Some("random".into()),
                threads: None,
                ..options()
            },
        ];
        for o in &bad {
            let mut said = false;
            let e = bench(o, &MemoryStore::default(), &mut |_| {
                said = true;
                Ok(())
            })
            .unwrap_err();
            assert!(e.is_user_input(), "{e}");
            assert!(!said, "{e}");
        }
    }
}
