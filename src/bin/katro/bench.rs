//! `katro bench`: its flags, turned into the library's
//! [`katro_lab::jobs::bench::BenchOptions`]; the job measures, this prints.

use katro_lab::jobs::Error;
use katro_lab::jobs::bench::{BenchOptions, bench as bench_job};
use katro_lab::store::FsStore;

use crate::output::{cpu_seconds, emit, peak_rss};

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
    /// Measure the prover (`katro prove`) instead: a search of at most N
    /// nodes from each position of random games, each on a fresh 16 MiB
    /// table, on one thread; first the same preset's random playouts on
    /// one thread, so the run prints proof nodes per second, plies per
    /// second and their ratio side by side.
    #[arg(long, value_name = "N", conflicts_with_all = ["mcts", "alphabeta"])]
    pub prove: Option<u64>,
    /// With --mcts, --alphabeta or --prove: how many positions are
    /// searched a round.
    #[arg(long, default_value_t = 40)]
    pub positions: u32,
}

pub fn bench(a: BenchArgs) -> Result<(), Error> {
    let o = BenchOptions {
        variants: a.variants,
        agents: a.agents,
        threads: a.threads,
        seconds: a.seconds,
        rounds: a.rounds,
        lap_limit: a.lap_limit,
        seed: a.seed,
        mcts: a.mcts,
        mcts_keys: a.mcts_keys,
        alphabeta: a.alphabeta,
        prove: a.prove,
        positions: a.positions,
        cpu_seconds,
        peak_rss,
    };
    bench_job(&o, &FsStore, &mut |text| emit(text))
}
