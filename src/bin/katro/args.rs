//! The command line's grammar: every command, its arguments and their
//! help texts (clap).

use clap::{Args, Parser, Subcommand};

use crate::bench::BenchArgs;

#[derive(Parser)]
#[command(
    name = "katro",
    // The build identity too: the crate version is the same on every
    // commit, and manifests, checkpoints and shards record this hash.
    version = katro_lab::files::header::VERSION,
    about = "Rules engine and experiments for the Malagasy mancala Katro and its relatives"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// List the shipped variant presets.
    Variants,
    /// List the named strength levels (random, greedy, weak, medium,
    /// strong, strongest), each with the agent string it stands for
    /// wherever katro takes an agent; with --ratings, each level's rating
    /// on katro-6x6, and with --measure, the CPU time a game of its
    /// self-play there.
    Agents(AgentsArgs),
    /// Print a variant's resolved rules, its starting board and each
    /// player's circuit.
    Show(ShowArgs),
    /// Play moves from the start and print the game as one JSON object.
    Replay(ReplayArgs),
    /// Run an experiment file: play every cell, write summary.csv,
    /// comparison.csv, games.csv (if asked) and manifest.json. Checkpoints
    /// as it goes: run the same command again to resume an interrupted
    /// run (no --force needed; files katro did not write in the output
    /// folder are left alone). Paths: variant files named in the
    /// experiment are relative to the experiment file's folder; --out
    /// and the experiment's `output` are relative to the working
    /// directory.
    Run(RunArgs),
    /// Combine the shards in DIR/shards into DIR's summary.csv,
    /// comparison.csv, games.csv and manifest.json, as one run would write them.
    Merge(MergeArgs),
    /// Play a game in the terminal against an agent: type moves in the
    /// notation; at the end the game is printed as a `katro replay` command.
    Play(PlayArgs),
    /// Write DIR/report.html (one self-contained page) and DIR/plots/*.svg
    /// from a results folder's CSV files (replacing only katro's own,
    /// unchanged).
    Report {
        /// A folder written by `katro run`, `katro merge` or `katro simulate --out`.
        dir: String,
        /// The openings.csv that `katro prove-openings` wrote (e.g.
        /// results/openings/openings.csv): perfect play's exact shares go
        /// beside the agents' in the chart of the share against the random
        /// opening. A path relative to the working directory.
        #[arg(long, value_name = "FILE")]
        openings: Option<String>,
        /// The prover's value of a start: the JSON `katro prove VARIANT
        /// --json` wrote (e.g. results/prove/katro-4x4.json) or a proved.csv
        /// of `katro prove-family`. Each verdict line whose game it valued
        /// (the same rules and lap limit; a ply limit no shorter than the
        /// proof) adds "from the start the first player wins in D
        /// decisions (proved)". Repeat for more files. A path relative to
        /// the working directory.
        #[arg(long, value_name = "FILE")]
        proved: Vec<String>,
    },
    /// Refit ratings.csv, pairwise.csv and skill-trace.csv from results
    /// alone, without replaying: a results folder's summary.csv, or a CSV
    /// with columns p1,p2,p1_wins,p2_wins,undecided (and optional variant),
    /// one row per seat-ordered pair (docs/OUTPUTS.md, ratings.csv).
    /// Replaces only katro's own files, unchanged since it wrote them.
    Rate {
        /// A results folder written by `katro run`, or a CSV file of tallies.
        input: String,
        /// The folder to write the rating files in [default: a results
        /// folder's own; for a CSV file, a folder beside it named after
        /// it without its extension: t.csv -> t/, t -> t-ratings/].
        #[arg(long)]
        out: Option<String>,
    },
    /// Check variant and experiment files and report every problem.
    /// Variant files named in an experiment are relative to the
    /// experiment file's folder; its `output` is relative to the working
    /// directory.
    Validate {
        /// Variant or experiment files (told apart by their keys).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Measure playout speed as `katro run` plays: games, plies, laps and
    /// seeds per second, after a warm-up, median and spread over rounds.
    Bench(BenchArgs),
    /// Solve a small board exactly: the value of the start and of every
    /// first move, the longest forced win, positions, time and memory
    /// (docs/SOLVED.md). The ply limit is ignored.
    Solve(SolveArgs),
    /// Check a proof certificate (docs/OUTPUTS.md, "Proof certificates"):
    /// that its player forces a win within its claimed number of
    /// decisions, every reply covered. Exit 0 when it does, 2 naming the
    /// file's line at fault when not.
    CheckProof {
        /// The variant the certificate is for: a preset name or a path to
        /// a TOML file.
        variant: String,
        /// The certificate: text, or that text gzip-compressed.
        file: String,
    },
    /// The exact value of a variant's start, or of the position after
    /// MOVES, by proof search: win or loss for the player to move with
    /// the exact distance in decisions, every legal move's value, one
    /// principal line; where no proof is found within the limits, the
    /// bound established ("neither side forces a win within D
    /// decisions"). A draw by infinite play is never proven. The ply
    /// limit is ignored (docs/SOLVED.md, "Proving a position").
    Prove(ProveArgs),
    /// Judge the games a run stored (games.csv with moves) against the
    /// exact solution of their variant: write DIR/perfect-moves.csv, each
    /// agent's share of moves that keep the position's value.
    Judge(JudgeArgs),
    /// Write DIR/strength-curve.csv from a run's summary.csv: the first
    /// player's share of each `alphabeta` self-play budget, each budget
    /// rated where budgets meet, and the exact share under perfect play
    /// over the same openings where the board solves.
    Curve(CurveArgs),
    /// Solve every board of rows 2 or 4, 2 to 8 holes a row and 1 to 4
    /// seeds a hole under each preset's rules, as far as --max-memory and
    /// --max-seconds allow: writes DIR/solved.csv and DIR/manifest.json
    /// after every board.
    SolveFamily(SolveFamilyArgs),
    /// Play one variant and matchup and print the summary as a table;
    /// writes summary.csv and manifest.json only with --out.
    Simulate(SimulateArgs),
    /// Prove the start and every first move of each board of a family by
    /// search, within fixed limits a search: the boards of
    /// experiments/boards.toml and the single readings of
    /// experiments/readings.toml on 6x6 and 4x4 (and, with --sets, the
    /// boards solve-family solved). Writes DIR/proved.csv and
    /// DIR/manifest.json after every board, DIR/proved.svg at the end;
    /// resumes, cuts into shards (--shard, then --merge) and checks itself
    /// against solved.csv (--check-solved).
    ProveFamily(ProveFamilyArgs),
    /// Value, by proof search, the start of every layout one seed away
    /// from the variant's (one seed moved from any hole to any other):
    /// write DIR/nearby.csv and say which the second player wins and
    /// which stay unproven (docs/SOLVED.md, "Nearby starts").
    ProveNearby(ProveNearbyArgs),
    /// Value, by proof search, every position after k uniformly random
    /// plies: write DIR/openings.csv, the first player's share under
    /// perfect play over the openings, exact or the interval unproven
    /// positions leave (docs/SOLVED.md, "Openings under perfect play").
    ProveOpenings(ProveOpeningsArgs),
}

#[derive(Args)]
pub struct AgentsArgs {
    /// A ratings.csv written by `katro run` (results/strong-play/ratings.csv):
    /// each level's rating on katro-6x6 with its 95% interval, as the file
    /// writes them. A path relative to the working directory.
    #[arg(long, value_name = "FILE")]
    pub ratings: Option<String>,
    /// Play GAMES self-play games of each level on katro-6x6 (4 random
    /// opening plies, seed 1, one after another) and print the CPU time a
    /// game took.
    #[arg(long, value_name = "GAMES", allow_negative_numbers = true, value_parser = parse_games)]
    pub measure: Option<u64>,
}

#[derive(Args)]
pub struct ShowArgs {
    /// A preset name (see `katro variants`) or a path to a TOML file.
    pub variant: String,
    /// Write the starting board as an SVG diagram to FILE instead.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// A preset name or a path to a TOML file (not with --from-csv).
    #[arg(required_unless_present = "from_csv")]
    pub variant: Option<String>,
    /// Moves in RULES.md's notation: c1, c1+, c1-, b2>c3.
    pub moves: Vec<String>,
    /// Add a lap-by-lap account of every move.
    #[arg(long)]
    pub trace: bool,
    /// Replace the variant's ply limit, as an experiment's `ply_limit`
    /// does (games.csv's `ply_limit` column holds the one each game
    /// was played with).
    #[arg(long, allow_negative_numbers = true)]
    pub ply_limit: Option<i64>,
    /// Replace the variant's lap limit, as an experiment's `lap_limit`
    /// does (games.csv's `lap_limit` column).
    #[arg(long, allow_negative_numbers = true)]
    pub lap_limit: Option<i64>,
    /// Write the game viewer, a self-contained HTML page, to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// Take the variant and moves from a games.csv written with
    /// `moves_in_rows = true`.
    #[arg(long, value_name = "FILE", requires = "row", conflicts_with_all = ["variant", "moves"])]
    pub from_csv: Option<String>,
    /// The row of --from-csv: 1 is the first game after the header.
    #[arg(long, value_name = "N", requires = "from_csv")]
    pub row: Option<u64>,
}

#[derive(Args)]
pub struct RunArgs {
    /// The prover's value of a start, as `katro report --proved` takes it
    /// (the JSON `katro prove VARIANT --json` wrote, or a proved.csv of
    /// `katro prove-family`): each verdict line of a game it valued adds
    /// "from the start the first player wins in D decisions (proved)".
    /// Repeat for more files; read before any game is played.
    #[arg(long, value_name = "FILE")]
    pub proved: Vec<String>,
    /// The experiment file (see docs/EXPERIMENTS.md).
    pub experiment: String,
    /// Worker threads [default: all cores].
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Output folder, instead of the file's `output` or results/<name>/;
    /// relative to the working directory (variant files named in the
    /// experiment are relative to the experiment file's folder).
    #[arg(long)]
    pub out: Option<String>,
    /// Play only shard I of N (e.g. 2/5) and write OUT/shards/shard-I-of-N.json;
    /// `katro merge OUT` combines the N shards.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Start afresh, replacing only the files katro wrote (files katro
    /// did not write are never deleted or overwritten): every game is
    /// played again, and katro's results, checkpoints and shards in the
    /// output folder, of this or another experiment or build, are replaced
    /// or deleted. Not needed to resume an interrupted run: run the same
    /// command again
    #[arg(long)]
    pub force: bool,
    /// Resume from a checkpoint (or keep shards) of this experiment
    /// written by another katro build, whose games may differ; the
    /// manifest lists every build that played.
    #[arg(long)]
    pub allow_other_build: bool,
}

#[derive(Args)]
pub struct MergeArgs {
    /// The output folder the shards were written to.
    pub dir: String,
    /// Start afresh, replacing only the files katro wrote (files katro
    /// did not write are never deleted or overwritten): results of
    /// another experiment in DIR are replaced
    #[arg(long)]
    pub force: bool,
    /// Merge shards played by another katro build, whose games may
    /// differ; the manifest lists every build that played.
    #[arg(long)]
    pub allow_other_build: bool,
}

#[derive(Args)]
pub struct PlayArgs {
    /// A preset name or a path to a TOML file.
    pub variant: String,
    /// The agent you play against, written as for `katro simulate --p1`.
    #[arg(long)]
    pub against: String,
    /// Your seat: 1 (South, moves first) or 2 (North).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub seat: u8,
    /// Seed of the agent's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Args)]
pub struct SolveArgs {
    /// A preset name or a path to a TOML file.
    pub variant: String,
    /// Write the solved table to FILE (only over a table katro wrote).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Refuse the board as soon as the positions found need more
    /// memory than this, in GiB.
    #[arg(long, value_name = "GiB", default_value_t = katro_lab::jobs::solve::DEFAULT_MAX_GIB)]
    pub max_memory: f64,
    /// Stop the solve after this many seconds (exit 1); no cap if not
    /// given.
    #[arg(long, value_name = "S")]
    pub max_seconds: Option<f64>,
    /// Threads exploring the board [default: all cores]; the result is
    /// the same for any count.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

#[derive(Args)]
pub struct ProveArgs {
    /// A preset name or a path to a TOML file.
    pub variant: String,
    /// Moves from the start, in the notation of docs/RULES.md (`b1`,
    /// `c1+`, `b2>c3`); the start if none.
    pub moves: Vec<String>,
    /// The table of each search (the position's, then each move's), in
    /// GiB; a full table replaces the entries that cost least.
    #[arg(long, value_name = "GiB", default_value_t = katro_lab::jobs::prove::DEFAULT_MAX_MEMORY_GIB)]
    pub max_memory: f64,
    /// Stop each search (the position's, then each move's) after this
    /// many nodes and report its bound; 0 for no budget.
    #[arg(long, value_name = "N", default_value_t = katro_lab::jobs::prove::DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// Stop each search after this many seconds and report its bound
    /// (the result then depends on the machine's speed).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub max_seconds: Option<f64>,
    /// The deepest bound tried, in decisions.
    #[arg(long, value_name = "D", default_value_t = katro_lab::jobs::prove::DEFAULT_MAX_DEPTH)]
    pub max_depth: u32,
    /// Write the proof of a win to FILE (gzip-compressed when FILE ends
    /// in .gz), for `katro check-proof` (docs/OUTPUTS.md).
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<String>,
    /// Print one JSON object instead of the text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct JudgeArgs {
    /// A folder `katro run` wrote with per_game_rows and moves_in_rows.
    pub dir: String,
    /// Leave a variant unjudged as soon as its solve needs more memory
    /// than this, in GiB.
    #[arg(long, value_name = "GiB", default_value_t = katro_lab::jobs::solve::DEFAULT_MAX_GIB)]
    pub max_memory: f64,
    /// Threads solving and judging [default: all cores]; the file is
    /// the same for any count.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

#[derive(Args)]
pub struct CurveArgs {
    /// A folder a finished `katro run` (or `katro merge`) wrote.
    pub dir: String,
    /// An openings.csv `katro prove-openings` wrote: the limit of a
    /// board too large to solve, from its row of the same rules and
    /// opening plies.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// The equivalence margin of the verdict: `converged` needs the
    /// slope of the share per tenfold budget within ±M (a fraction
    /// between 0 and 0.5; 0.02 is 2 points).
    #[arg(long, value_name = "M", allow_negative_numbers = true, default_value_t = katro_lab::jobs::curve::DEFAULT_MARGIN, value_parser = parse_margin)]
    pub margin: f64,
    /// Leave a board's `limit` empty as soon as its solve needs more
    /// memory than this, in GiB.
    #[arg(long, value_name = "GiB", default_value_t = katro_lab::jobs::solve::DEFAULT_MAX_GIB)]
    pub max_memory: f64,
    /// Threads solving [default: all cores]; the file is the same for any
    /// count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

#[derive(Args)]
pub struct SolveFamilyArgs {
    /// The output folder.
    #[arg(long, value_name = "DIR", default_value = "results/solved")]
    pub out: String,
    /// Refuse a board as soon as the positions found need more than
    /// this, in GiB.
    #[arg(long, value_name = "GiB", default_value_t = 1.0)]
    pub max_memory: f64,
    /// Stop a board after this many seconds (status `stopped-time`);
    /// no cap if not given.
    #[arg(long, value_name = "S")]
    pub max_seconds: Option<f64>,
    /// Threads exploring each board [default: all cores]; the results
    /// are the same for any count.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

#[derive(Args)]
pub struct ProveFamilyArgs {
    /// The output folder.
    #[arg(long, value_name = "DIR", default_value = katro_lab::jobs::prove_family::DEFAULT_OUT)]
    pub out: String,
    /// The table of each board's searches, in GiB (one a board being
    /// proved: --threads of them at once). Part of the results: rows
    /// depend on it.
    #[arg(long, value_name = "GiB", default_value_t = katro_lab::jobs::prove_family::DEFAULT_MAX_GIB)]
    pub max_memory: f64,
    /// Nodes each search may spend (the start's, and each first move's).
    #[arg(long, value_name = "N", default_value_t = katro_lab::jobs::prove_family::DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// The deepest bound searched, in decisions.
    #[arg(long, value_name = "D", default_value_t = katro_lab::jobs::prove_family::DEFAULT_MAX_DEPTH)]
    pub max_depth: u32,
    /// Stop a board's searches after this many seconds (its row then says
    /// `stopped` = time, and depends on the machine); no cap if not given.
    #[arg(long, value_name = "S")]
    pub max_seconds: Option<f64>,
    /// The sets of boards, comma-separated: boards, readings-6x6,
    /// readings-4x4, solved-family.
    #[arg(long, value_name = "LIST", default_value = katro_lab::jobs::prove_family::DEFAULT_SETS)]
    pub sets: String,
    /// Only the boards with these values, e.g. rows=4,holes=3 (keys rows,
    /// holes, seeds, reading).
    #[arg(long, value_name = "KEY=VALUE,...")]
    pub only: Option<String>,
    /// solve-family's solved.csv: the boards of the solved-family set, and
    /// what --check-solved compares with.
    #[arg(long, value_name = "FILE", default_value = katro_lab::jobs::prove_family::DEFAULT_SOLVED)]
    pub solved: String,
    /// Prove only shard I of N (boards I, I + N, ...) into
    /// OUT/shards/proved-I-of-N.csv; --merge combines the N shards.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, conflicts_with_all = ["merge", "check_solved"])]
    pub shard: Option<(u64, u64)>,
    /// Combine the shards in OUT/shards into OUT/proved.csv, proved.svg and
    /// manifest.json (the limits are the shards').
    #[arg(long, conflicts_with = "check_solved")]
    pub merge: bool,
    /// Compare OUT/proved.csv with --solved: the start of every board it
    /// solved, and every first move where the board solves again within
    /// --resolve-memory; exit 1 on any disagreement.
    #[arg(long)]
    pub check_solved: bool,
    /// --check-solved: the memory a board may be solved again in, in GiB.
    #[arg(long, value_name = "GiB", default_value_t = 1.0)]
    pub resolve_memory: f64,
    /// Boards proved at once, one thread each [default: all cores]; the
    /// CSV is the same for any count.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

#[derive(Args)]
pub struct SimulateArgs {
    /// The prover's value of a start, as `katro report --proved` takes it
    /// (the JSON `katro prove VARIANT --json` wrote, or a proved.csv of
    /// `katro prove-family`): each verdict line of a game it valued adds
    /// "from the start the first player wins in D decisions (proved)".
    /// Repeat for more files; read before any game is played.
    #[arg(long, value_name = "FILE")]
    pub proved: Vec<String>,
    /// A preset name or a path to a TOML file.
    pub variant: String,
    /// Games to play.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_games)]
    pub games: u64,
    /// Player 1's agent: random, greedy, epsilon-greedy:epsilon=0.1,
    /// alphabeta:depth=3, mcts:iterations=1000, or a strength level
    /// (weak, medium, strong, strongest: `katro agents`).
    #[arg(long)]
    pub p1: String,
    /// Player 2's agent, written as for --p1.
    #[arg(long)]
    pub p2: String,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Uniformly random plies opening each game before the agents play,
    /// as an experiment's `opening_plies` (0 to 1000, fewer than the ply
    /// limit): they spread the games of agents that play alike every
    /// time.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub opening_plies: i64,
    /// Replace the variant's ply limit, as an experiment's `ply_limit`
    /// does (1 to 100000000).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub ply_limit: Option<i64>,
    /// Write summary.csv and manifest.json into this folder.
    #[arg(long)]
    pub out: Option<String>,
    /// Worker threads [default: all cores].
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// With --out: start afresh, replacing only the files katro wrote
    /// (files katro did not write are never deleted or overwritten):
    /// results of another experiment there are replaced
    #[arg(long, requires = "out")]
    pub force: bool,
}

/// The limits of every proof search (`prove-nearby`, `prove-openings`).
#[derive(Args)]
pub struct ProveLimitArgs {
    /// The table of each search, in GiB (each thread searches with its
    /// own).
    #[arg(long, value_name = "GiB", default_value_t = katro_lab::jobs::prove_batch::DEFAULT_TABLE_GIB)]
    pub max_memory: f64,
    /// Nodes each search may spend before it stops unproven.
    #[arg(long, value_name = "N", default_value_t = katro_lab::jobs::prove_batch::DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// Seconds each search may take before it stops unproven (results
    /// then depend on the machine); no cap if not given.
    #[arg(long, value_name = "S")]
    pub max_seconds: Option<f64>,
    /// The deepest bound tried, in decisions.
    #[arg(long, value_name = "D", default_value_t = katro_lab::jobs::prove_batch::DEFAULT_MAX_DEPTH)]
    pub max_depth: u32,
    /// Threads, each searching its own positions [default: all cores];
    /// the file is the same for any count.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

#[derive(Args)]
pub struct ProveNearbyArgs {
    /// A preset name or a path to a TOML file.
    pub variant: String,
    /// The folder to write nearby.csv in (its rows of other variants
    /// are kept).
    #[arg(long, value_name = "DIR", default_value = "results/nearby")]
    pub out: String,
    #[command(flatten)]
    pub limits: ProveLimitArgs,
}

#[derive(Args)]
pub struct ProveOpeningsArgs {
    /// A preset name or a path to a TOML file.
    pub variant: String,
    /// The numbers of uniformly random opening plies, each a row:
    /// `--plies 1,2,4`.
    #[arg(long, value_name = "K,...", value_delimiter = ',', required = true)]
    pub plies: Vec<u32>,
    /// Play under this lap limit instead of the variant's (a run's
    /// `lap_limit`, so that `katro curve --openings` finds the rules of
    /// its summary.csv).
    #[arg(long, allow_negative_numbers = true)]
    pub lap_limit: Option<i64>,
    /// The folder to write openings.csv in (its other rows are kept).
    #[arg(long, value_name = "DIR", default_value = "results/openings")]
    pub out: String,
    #[command(flatten)]
    pub limits: ProveLimitArgs,
}

/// Most shards a run can be cut into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// The most games `simulate --games` takes.
const MAX_GAMES: i128 = 1_000_000_000_000;

/// `--games N`: a count from 1 to [`MAX_GAMES`]. Negative numbers reach
/// this parser (`allow_negative_numbers`), so `--games -5` is told what a
/// count is instead of clap's "to pass '-5' as a value, use '-- -5'".
pub fn parse_games(text: &str) -> Result<u64, String> {
    let range = format!("give a whole number of games from 1 to {MAX_GAMES}");
    match text.trim().parse::<i128>() {
        Ok(n) if (1..=MAX_GAMES).contains(&n) => Ok(n as u64),
        Ok(n) => Err(format!("{n} games cannot be played; {range}")),
        Err(_) => Err(format!("`{text}` is not a number; {range}")),
    }
}

/// A margin strictly between 0 and 0.5.
pub fn parse_margin(text: &str) -> Result<f64, String> {
    let range = "give a fraction strictly between 0 and 0.5, e.g. 0.02 for 2 points";
    match text.trim().parse::<f64>() {
        Ok(m) if m > 0.0 && m < 0.5 => Ok(m),
        Ok(m) => Err(format!("{m} is not a margin; {range}")),
        Err(_) => Err(format!("`{text}` is not a number; {range}")),
    }
}

/// `I/N` with 1 ≤ I ≤ N.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let usage = format!("`{text}`: give I/N, shard I of N, with 1 <= I <= N <= {MAX_SHARDS}");
    let (i, n) = text.split_once('/').ok_or_else(|| usage.clone())?;
    let (i, n) = match (i.trim().parse::<u64>(), n.trim().parse::<u64>()) {
        (Ok(i), Ok(n)) => (i, n),
        _ => return Err(usage),
    };
    if i == 0 || i > n || n > MAX_SHARDS {
        return Err(usage);
    }
    Ok((i, n))
}
