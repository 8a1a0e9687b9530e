//! The `katro` command line: parses the arguments (`args`), calls the
//! library's job for the command (`commands`, `bench`) and prints
//! (`output`, `progress`). Every rule decision and every file the commands
//! read or write lives in the library.
#![warn(clippy::mod_module_files)]

use std::process::ExitCode;

use clap::Parser;

use katro_lab::jobs::{self, Error};
use katro_lab::store::FsStore;

use args::{Cli, Command};
use output::emit;

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
            ExitCode::from(e.kind().exit_code())
        }
    }
}

/// One arm a command, each one call.
fn dispatch(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Variants => commands::variants(),
        Command::Agents(a) => commands::agents(a),
        Command::Show(a) => commands::show(a),
        Command::Replay(a) => commands::replay(a),
        Command::Run(a) => commands::run(a),
        Command::Merge(a) => commands::merge(a),
        Command::Play(a) => commands::play(a),
        Command::Report {
            dir,
            openings,
            proved,
        } => emit(&jobs::report(&FsStore, &dir, openings.as_deref(), &proved)?),
        Command::Rate { input, out } => emit(&jobs::rate::rate(
            &FsStore,
            &jobs::rate::RateOptions { input, out },
        )?),
        Command::Validate { files } => commands::validate(&files),
        Command::Bench(a) => bench::bench(a),
        Command::Solve(a) => commands::solve(a),
        Command::CheckProof { variant, file } => {
            emit(&jobs::certificate::check_proof(&FsStore, &variant, &file)?)
        }
        Command::Prove(a) => commands::prove(a),
        Command::Judge(a) => commands::judge(a),
        Command::Curve(a) => commands::curve(a),
        Command::SolveFamily(a) => commands::solve_family(a),
        Command::Simulate(a) => commands::simulate(a),
        Command::ProveFamily(a) => commands::prove_family(a),
        Command::ProveNearby(a) => commands::prove_nearby(a),
        Command::ProveOpenings(a) => commands::prove_openings(a),
    }
}
