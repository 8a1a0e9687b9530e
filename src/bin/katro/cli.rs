//! The `katro` command line: parses arguments, reads files, prints. Every
//! rule decision lives in the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::output::{emit, load_variant};
use katro::experiment::{LAP_LIMIT_RANGE, LimitRange, PLY_LIMIT_RANGE};
use katro::jobs::{self, replay::shell_word};
use katro::rules::{preset, preset_names};
use katro::store::FsStore;

#[derive(Parser)]
#[command(
    name = "katro",
    // The build identity too: the crate version is the same on every
    // commit, and manifests, checkpoints and shards record this hash.
    version = concat!(env!("CARGO_PKG_VERSION"), " (build ", env!("KATRO_BUILD"), ")"),
    about = "Rules engine and experiments for the Malagasy mancala Katro and its relatives"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the shipped variant presets.
    Variants,
    /// Print a variant's resolved rules, its starting board and each
    /// player's circuit.
    Show {
        /// A preset name (see `katro variants`) or a path to a TOML file.
        variant: String,
        /// Write the starting board as an SVG diagram to FILE instead.
        #[arg(long, value_name = "FILE")]
        svg: Option<String>,
        /// With --svg: replace FILE even if katro did not write it.
        #[arg(long, requires = "svg")]
        force: bool,
    },
    /// Play moves from the start and print the game as one JSON object.
    Replay {
        /// A preset name or a path to a TOML file (not with --from-csv).
        #[arg(required_unless_present = "from_csv")]
        variant: Option<String>,
        /// Moves in RULES.md's notation: c1, c1+, c1-, b2>c3.
        moves: Vec<String>,
        /// Add a lap-by-lap account of every move.
        #[arg(long)]
        trace: bool,
        /// Replace the variant's ply limit, as an experiment's `ply_limit`
        /// does (games.csv's `ply_limit` column holds the one each game
        /// was played with).
        #[arg(long, allow_negative_numbers = true)]
        ply_limit: Option<i64>,
        /// Replace the variant's lap limit, as an experiment's `lap_limit`
        /// does (games.csv's `lap_limit` column).
        #[arg(long, allow_negative_numbers = true)]
        lap_limit: Option<i64>,
        /// Write the game viewer, a self-contained HTML page, to FILE.
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
        /// With --html: replace FILE even if katro did not write it.
        #[arg(long, requires = "html")]
        force: bool,
        /// Take the variant and moves from a games.csv written with
        /// `moves_in_rows = true`.
        #[arg(long, value_name = "FILE", requires = "row", conflicts_with_all = ["variant", "moves"])]
        from_csv: Option<String>,
        /// The row of --from-csv: 1 is the first game after the header.
        #[arg(long, value_name = "N", requires = "from_csv")]
        row: Option<u64>,
    },
    /// Run an experiment file: play every cell, write summary.csv,
    /// comparison.csv, games.csv (if asked) and manifest.json. Checkpoints
    /// as it goes: run the same command again to resume an interrupted run.
    Run {
        /// The experiment file (see docs/EXPERIMENTS.md).
        experiment: String,
        /// Worker threads [default: all cores].
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// Output folder, instead of the file's `output` or results/<name>/.
        #[arg(long)]
        out: Option<String>,
        /// Play only shard I of N (e.g. 2/5) and write OUT/shards/shard-I-of-N.json;
        /// `katro merge OUT` combines the N shards.
        #[arg(long, value_name = "I/N", value_parser = parse_shard)]
        shard: Option<(u64, u64)>,
        /// Delete the files katro wrote for another experiment or build
        /// (results, checkpoint, shards) or an unusable checkpoint found in
        /// the output folder, instead of refusing; files katro did not
        /// write are kept.
        #[arg(long)]
        force: bool,
        /// Resume from a checkpoint (or keep shards) of this experiment
        /// written by another katro build, whose games may differ; the
        /// manifest lists every build that played.
        #[arg(long)]
        allow_other_build: bool,
    },
    /// Combine the shards in DIR/shards into DIR's summary.csv,
    /// comparison.csv, games.csv and manifest.json, as one run would write them.
    Merge {
        /// The output folder the shards were written to.
        dir: String,
        /// Replace the results of another experiment found in DIR (files
        /// katro did not write are kept).
        #[arg(long)]
        force: bool,
        /// Merge shards played by another katro build, whose games may
        /// differ; the manifest lists every build that played.
        #[arg(long)]
        allow_other_build: bool,
    },
    /// Play a game in the terminal against an agent: type moves in the
    /// notation; at the end the game is printed as a `katro replay` command.
    Play {
        /// A preset name or a path to a TOML file.
        variant: String,
        /// The agent you play against, written as for `katro simulate --p1`.
        #[arg(long)]
        against: String,
        /// Your seat: 1 (South, moves first) or 2 (North).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
        seat: u8,
        /// Seed of the agent's random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Write DIR/report.html (one self-contained page) and DIR/plots/*.svg
    /// from a results folder's CSV files.
    Report {
        /// A folder written by `katro run`, `katro merge` or `katro simulate --out`.
        dir: String,
        /// Overwrite a report.html or chart in DIR that katro did not write.
        #[arg(long)]
        force: bool,
    },
    /// Check variant and experiment files and report every problem.
    Validate {
        /// Variant or experiment files (told apart by their keys).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Measure playout speed as `katro run` plays: games, plies, laps and
    /// seeds per second, after a warm-up, median and spread over rounds.
    Bench(crate::bench::BenchArgs),
    /// Solve a small board exactly: the value of the start and of every
    /// first move, the longest forced win, positions, time and memory
    /// (docs/SOLVED.md). The ply limit is ignored.
    Solve {
        /// A preset name or a path to a TOML file.
        variant: String,
        /// Write the solved table to FILE (only over a table katro wrote).
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
        /// Refuse the board as soon as the positions found need more
        /// memory than this, in GiB.
        #[arg(long, value_name = "GiB", default_value_t = katro::jobs::solve::DEFAULT_MAX_GIB)]
        max_memory: f64,
        /// Stop the solve after this many seconds (exit 1); no cap if not
        /// given.
        #[arg(long, value_name = "S")]
        max_seconds: Option<f64>,
        /// Threads exploring the board [default: all cores]; the result is
        /// the same for any count.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
    },
    /// Solve every board of rows 2 or 4, 2 to 8 holes a row and 1 to 4
    /// seeds a hole under each preset's rules, as far as --max-memory and
    /// --max-seconds allow: writes DIR/solved.csv and DIR/manifest.json
    /// after every board.
    SolveFamily {
        /// The output folder.
        #[arg(long, value_name = "DIR", default_value = "results/solved")]
        out: String,
        /// Refuse a board as soon as the positions found need more than
        /// this, in GiB.
        #[arg(long, value_name = "GiB", default_value_t = 1.0)]
        max_memory: f64,
        /// Stop a board after this many seconds (status `stopped-time`);
        /// no cap if not given.
        #[arg(long, value_name = "S")]
        max_seconds: Option<f64>,
        /// Threads exploring each board [default: all cores]; the results
        /// are the same for any count.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
    },
    /// Play one variant and matchup and print the summary as a table;
    /// writes summary.csv and manifest.json only with --out.
    Simulate {
        /// A preset name or a path to a TOML file.
        variant: String,
        /// Games to play.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
        games: u64,
        /// Player 1's agent: random, greedy, epsilon-greedy:epsilon=0.1,
        /// alphabeta:depth=3, mcts:iterations=1000.
        #[arg(long)]
        p1: String,
        /// Player 2's agent, written as for --p1.
        #[arg(long)]
        p2: String,
        /// Master seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write summary.csv and manifest.json into this folder.
        #[arg(long)]
        out: Option<String>,
        /// Worker threads [default: all cores].
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// With --out: replace the results of another experiment found
        /// there (files katro did not write are kept).
        #[arg(long, requires = "out")]
        force: bool,
    },
}

pub use katro::jobs::Failure;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Variants => {
            let mut out = String::new();
            for name in preset_names() {
                let rules = preset(name).expect("listed presets exist");
                out.push_str(&format!("{name:<20} {}\n", rules.description()));
            }
            emit(&out)
        }
        Command::Show {
            variant,
            svg,
            force,
        } => {
            let rules = load_variant(&variant)?;
            match svg {
                Some(file) => emit(&jobs::write_board(&FsStore, &rules, &file, force)?),
                None => emit(&jobs::show(&rules)),
            }
        }
        Command::Replay {
            variant,
            moves,
            trace,
            ply_limit,
            lap_limit,
            html,
            force,
            from_csv,
            row,
        } => {
            let made_by = replay_command(&variant, &moves, &from_csv, row, ply_limit, lap_limit);
            let (rules, moves) = match (from_csv, row, variant) {
                (Some(file), Some(row), _) => jobs::replay::game_from_csv(&FsStore, &file, row)?,
                (_, _, Some(variant)) => (load_variant(&variant)?, moves),
                _ => {
                    return Err(Failure::input(
                        "give VARIANT MOVES... or --from-csv FILE --row N",
                    ));
                }
            };
            let limit = |v: Option<i64>, flag: &str, range: &LimitRange| {
                v.map(|v| {
                    range
                        .check(v)
                        .map_err(|e| Failure::input(format!("{flag}: {e}")))
                })
                .transpose()
            };
            let rules = rules
                .with_limits(
                    limit(ply_limit, "--ply-limit", &PLY_LIMIT_RANGE)?,
                    limit(lap_limit, "--lap-limit", &LAP_LIMIT_RANGE)?,
                )
                .map_err(|e| Failure::input(e.to_string()))?;
            let json = jobs::replay::replay_json(&rules, &moves, trace)?;
            match html {
                Some(file) => emit(&jobs::write_viewer(
                    &FsStore, &rules, &moves, &file, &made_by, force,
                )?),
                None => emit(&(json + "\n")),
            }
        }
        Command::Run {
            experiment,
            threads,
            out,
            shard,
            force,
            allow_other_build,
        } => crate::commands::run(crate::commands::RunArgs {
            experiment: &experiment,
            threads,
            out: out.as_deref(),
            shard,
            force,
            allow_other_build,
        }),
        Command::Merge {
            dir,
            force,
            allow_other_build,
        } => crate::commands::merge(&dir, force, allow_other_build),
        Command::Play {
            variant,
            against,
            seat,
            seed,
        } => {
            let rules = load_variant(&variant)?;
            crate::commands::play(&rules, &variant, &against, seat, seed)
        }
        Command::Report { dir, force } => emit(&jobs::report(&FsStore, &dir, force)?),
        Command::Validate { files } => crate::commands::validate(&files),
        Command::Bench(args) => crate::bench::bench(args),
        Command::Solve {
            variant,
            out,
            max_memory,
            max_seconds,
            threads,
        } => crate::solve_cmd::with_threads(threads, || {
            crate::solve_cmd::solve_command(&variant, out.as_deref(), max_memory, max_seconds)
        }),
        Command::SolveFamily {
            out,
            max_memory,
            max_seconds,
            threads,
        } => crate::solve_cmd::with_threads(threads, || {
            crate::solve_cmd::family_command(&out, max_memory, max_seconds)
        }),
        Command::Simulate {
            variant,
            games,
            p1,
            p2,
            seed,
            out,
            threads,
            force,
        } => crate::commands::simulate(crate::commands::SimulateArgs {
            variant: &variant,
            games,
            p1: &p1,
            p2: &p2,
            seed,
            out: out.as_deref(),
            threads,
            force,
        }),
    }
}

/// Most shards a run can be cut into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// `I/N` with 1 ≤ I ≤ N.
fn parse_shard(text: &str) -> Result<(u64, u64), String> {
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

/// The `katro replay` command as the user gave it (the variant as named
/// or the path of its file, the limits, the moves), without `--html`, for
/// the viewer page to print: rerun in a shell it gives the same game.
fn replay_command(
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
