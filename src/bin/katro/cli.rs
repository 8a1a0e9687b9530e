//! The `katro` command line: parses arguments, reads files, prints. Every
//! rule decision lives in the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde::Serialize;

use crate::output::{emit, load_variant};
use katro::Rules;
use katro::engine::notation::{board_rows, board_text, hole_name, move_name, parse_move, plural};
use katro::engine::{LapKind, MoveEnd, Observer, Player, Silent};
use katro::experiment::{LAP_LIMIT_RANGE, LimitRange, PLY_LIMIT_RANGE};
use katro::rules::{
    BOARD_SETTINGS, Dir, DirectionRule, LoneSeed, StepSowing, preset, preset_names,
};

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
        #[arg(long, value_name = "GiB", default_value_t = crate::solve_cmd::DEFAULT_MAX_GIB)]
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
                Some(file) => crate::pictures::board(&rules, &file, force),
                None => emit(&show(&rules)),
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
                (Some(file), Some(row), _) => crate::pictures::game_from_csv(&file, row)?,
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
            let json = replay(&rules, &moves, trace)?;
            match html {
                Some(file) => crate::pictures::viewer(&rules, &moves, &file, &made_by, force),
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
            crate::pictures::play(&rules, &variant, &against, seat, seed)
        }
        Command::Report { dir, force } => crate::pictures::report(&dir, force),
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

/// A TOML string, escaped as TOML wants (Rust's `{:?}` is not TOML).
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A complete, valid variant file: every resolved setting (the settings
/// come from serialising [`katro::Settings`], so a new setting is shown
/// without this code changing), and the rules string, the starting board
/// and the circuits as comments.
fn show(rules: &Rules) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "# rules string: {}
",
        rules.canonical_string()
    ));
    out.push_str(&format!(
        "name = {}
",
        toml_string(rules.name())
    ));
    if !rules.description().is_empty() {
        out.push_str(&format!(
            "description = {}
",
            toml_string(rules.description())
        ));
    }
    if !rules.source().is_empty() {
        out.push_str(&format!(
            "source = {}
",
            toml_string(rules.source())
        ));
    }
    let settings = toml::to_string(rules.settings()).expect("the settings serialise as TOML");
    let key = |line: &str| line.split('=').next().unwrap_or("").trim().to_string();
    let board = settings
        .lines()
        .filter(|l| BOARD_SETTINGS.iter().any(|i| i.name() == key(l)));
    out.push_str("\n[board]\n");
    for line in board {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!(
        "# {} seeds in all\n\n[rules]\n",
        rules.total_seeds()
    ));
    for (info, value) in rules.settings().rule_values() {
        out.push_str(&format!("{} = {}\n", info.name(), value.toml()));
    }
    out.push_str("\n# starting board (row 1 is South's outer row)\n");
    for line in board_text(rules, &rules.start()).lines() {
        out.push_str(&format!("#   {line}\n"));
    }
    // The backward circuit is shown only for variants that can sow it: a
    // direction rule other than forward, or the chosen continuation after
    // a lone-seed step, listed under every direction (RULES.md §2, §7).
    let s = rules.settings();
    let backward = s.direction != DirectionRule::Forward
        || (s.lone_seed != LoneSeed::None && s.step_sowing == StepSowing::Chosen);
    let dirs: &[(Dir, &str)] = if backward {
        &[(Dir::Forward, "forward"), (Dir::Backward, "backward")]
    } else {
        &[(Dir::Forward, "forward")]
    };
    for &(dir, dir_label) in dirs {
        for (p, label) in [
            (Player::South, "South (player 1)"),
            (Player::North, "North (player 2)"),
        ] {
            let names: Vec<String> = rules
                .circuit_in(p, dir)
                .iter()
                .map(|&h| hole_name(rules, h as usize))
                .collect();
            out.push_str(&format!(
                "# {label} {dir_label} circuit: {} -> {}\n",
                names.join(" "),
                names[0]
            ));
        }
    }
    out
}

#[derive(Serialize)]
struct ReplayOut {
    variant: String,
    board: Vec<Vec<u16>>,
    to_move: u8,
    plies: u32,
    status: &'static str,
    winner: Option<u8>,
    legal: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<MoveTrace>>,
}

#[derive(Serialize)]
struct MoveTrace {
    ply: u32,
    player: u8,
    #[serde(rename = "move")]
    mv: String,
    laps: u64,
    captures: u32,
    seeds_captured: u64,
    seeds_sown: u64,
    end: &'static str,
    events: Vec<String>,
    board: Vec<Vec<u16>>,
}

/// Writes each lap as a sentence, in the words of RULES.md §13's examples.
struct TraceWriter<'a> {
    rules: &'a Rules,
    events: Vec<String>,
}

impl Observer for TraceWriter<'_> {
    fn lap(&mut self, kind: LapKind, from: usize, seeds: u64) {
        let from = hole_name(self.rules, from);
        self.events.push(match kind {
            LapKind::Start => format!("lift {seeds} from {from}"),
            LapKind::Relay => format!("relay {seeds} from {from}"),
            LapKind::Capture => format!("sow {seeds} on from {from}"),
        });
    }
    fn landed(&mut self, hole: usize, was_empty: bool) {
        let what = if was_empty {
            "was empty"
        } else {
            "was occupied"
        };
        self.events.push(format!(
            "last seed in {} ({what})",
            hole_name(self.rules, hole)
        ));
    }
    fn capture(&mut self, landing: usize, landing_seeds: u64, victims: &[(usize, u16)]) {
        let v: Vec<String> = victims
            .iter()
            .map(|&(h, s)| format!("{s} from {}", hole_name(self.rules, h)))
            .collect();
        let taken: u64 = victims.iter().map(|&(_, s)| s as u64).sum();
        self.events.push(format!(
            "capture {} with the {landing_seeds} in {}: {} seeds",
            v.join(" and "),
            hole_name(self.rules, landing),
            taken + landing_seeds
        ));
    }
    fn step(&mut self, from: usize, to: usize) {
        self.events.push(format!(
            "lone seed steps from {} to {}",
            hole_name(self.rules, from),
            hole_name(self.rules, to)
        ));
    }
    fn end(&mut self, end: MoveEnd) {
        self.events.push(format!("move ends: {}", end.name()));
    }
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

/// `w` as one word to a POSIX shell: quoted unless it is plain (a step
/// `b2>c3` would otherwise redirect output).
pub fn shell_word(w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./+:,=@%".contains(c));
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// The moves of a game, each checked legal in turn, with an error naming
/// the first that is not and the legal moves there.
pub fn parse_game(rules: &Rules, moves: &[String]) -> Result<Vec<katro::Move>, Failure> {
    let mut pos = rules.start();
    let mut out = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = check_move(rules, &pos, i, text)?;
        rules.play_unchecked(&mut pos, mv, &mut Silent);
        out.push(mv);
    }
    Ok(out)
}

/// Move `i` (0-based) of a game, `text`, if it is legal in `pos`.
pub fn check_move(
    rules: &Rules,
    pos: &katro::Position,
    i: usize,
    text: &str,
) -> Result<katro::Move, Failure> {
    let legal = rules.legal_moves(pos);
    let legal_names: Vec<String> = legal.iter().map(|&m| move_name(rules, m)).collect();
    let status = rules.status(pos);
    if status.is_over() {
        return Err(Failure::input(format!(
            "move {} `{text}`: the game is already over (status {}) after {}",
            i + 1,
            status.name(),
            plural(pos.plies(), "ply", "plies")
        )));
    }
    let mv = parse_move(rules, text).map_err(|e| {
        Failure::input(format!(
            "move {} {e}; legal moves: {}",
            i + 1,
            legal_names.join(" ")
        ))
    })?;
    if !legal.contains(&mv) {
        return Err(Failure::input(format!(
            "move {} `{text}` is illegal for player {} here; legal moves: {}",
            i + 1,
            pos.to_move().number(),
            legal_names.join(" ")
        )));
    }
    Ok(mv)
}

fn replay(rules: &Rules, moves: &[String], trace: bool) -> Result<String, Failure> {
    let mut pos = rules.start();
    let mut traces = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = check_move(rules, &pos, i, text)?;
        let player = pos.to_move().number();
        // The ply this move belongs to: both decisions of a turn begun by
        // a capturing step (RULES.md §7) belong to the same ply.
        let ply = pos.plies() + 1;
        if !trace {
            // No observer: a move can run for millions of laps, and a
            // sentence per lap would exhaust memory for nothing.
            rules.play_unchecked(&mut pos, mv, &mut Silent);
        } else {
            let mut w = TraceWriter {
                rules,
                events: Vec::new(),
            };
            let report = rules.play_unchecked(&mut pos, mv, &mut w);
            traces.push(MoveTrace {
                ply,
                player,
                mv: move_name(rules, mv),
                laps: report.laps,
                captures: report.captures,
                seeds_captured: report.seeds_captured,
                seeds_sown: report.seeds_sown,
                end: report.end.name(),
                events: w.events,
                board: board_rows(rules, &pos),
            });
        }
    }
    let status = rules.status(&pos);
    let out = ReplayOut {
        variant: rules.name().to_string(),
        board: board_rows(rules, &pos),
        to_move: pos.to_move().number(),
        plies: pos.plies(),
        status: status.name(),
        winner: status.winner().map(Player::number),
        legal: rules
            .legal_moves(&pos)
            .iter()
            .map(|&m| move_name(rules, m))
            .collect(),
        trace: trace.then_some(traces),
    };
    Ok(serde_json::to_string(&out).expect("replay output serialises"))
}
