#![warn(clippy::mod_module_files)]

use std::process::ExitCode;

mod bench;
mod cli;
mod commands;
mod output;
mod solve_cmd;

fn main() -> ExitCode {
    cli::main()
}
