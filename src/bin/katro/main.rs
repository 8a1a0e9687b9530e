//! The `katro` command line: parses the arguments (`args`), calls the
//! library's job for the command (`commands`, `bench`) and prints
//! (`output`, `progress`). Every rule decision and every file the commands
//! read or write lives in the library.
#![warn(clippy::mod_module_files)]

use std::process::ExitCode;

use clap::Parser;

use katro::experiment::{LAP_LIMIT_RANGE, LimitRange, PLY_LIMIT_RANGE};
use katro::jobs::{self, Error};
use katro::rules::{preset, preset_names};
use katro::store::FsStore;

use args::{Cli, Command};
use output::{emit, load_variant, with_threads};

mod args;
mod bench;
mod commands;
mod output;
mod progress;

fn main() -> ExitCode {
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
    match dispatch(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(output::exit_code(&e))
        }
    }
}

fn dispatch(cli: Cli) -> Result<(), Error> {
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
            let made_by =
                commands::replay_command(&variant, &moves, &from_csv, row, ply_limit, lap_limit);
            let (rules, moves) = match (from_csv, row, variant) {
                (Some(file), Some(row), _) => jobs::replay::game_from_csv(&FsStore, &file, row)?,
                (_, _, Some(variant)) => (load_variant(&variant)?, moves),
                _ => {
                    return Err(Error::refused(
                        "give VARIANT MOVES... or --from-csv FILE --row N",
                    ));
                }
            };
            let limit = |v: Option<i64>, flag: &str, range: &LimitRange| {
                v.map(|v| {
                    range
                        .check(v)
                        .map_err(|e| Error::refused(format!("{flag}: {e}")))
                })
                .transpose()
            };
            let rules = rules
                .with_limits(
                    limit(ply_limit, "--ply-limit", &PLY_LIMIT_RANGE)?,
                    limit(lap_limit, "--lap-limit", &LAP_LIMIT_RANGE)?,
                )
                .map_err(|e| Error::refused(e.to_string()))?;
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
        } => commands::run(commands::RunArgs {
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
        } => commands::merge(&dir, force, allow_other_build),
        Command::Play {
            variant,
            against,
            seat,
            seed,
        } => {
            let rules = load_variant(&variant)?;
            commands::play(&rules, &variant, &against, seat, seed)
        }
        Command::Report { dir, force } => emit(&jobs::report(&FsStore, &dir, force)?),
        Command::Validate { files } => commands::validate(&files),
        Command::Bench(args) => bench::bench(args),
        Command::Solve {
            variant,
            out,
            max_memory,
            max_seconds,
            threads,
        } => with_threads(threads, || {
            commands::solve_command(&variant, out.as_deref(), max_memory, max_seconds)
        }),
        Command::Judge {
            dir,
            max_memory,
            threads,
        } => with_threads(threads, || commands::judge(&dir, max_memory)),
        Command::SolveFamily {
            out,
            max_memory,
            max_seconds,
            threads,
        } => with_threads(threads, || {
            commands::family_command(&out, max_memory, max_seconds)
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
        } => commands::simulate(commands::SimulateArgs {
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
