use std::process::ExitCode;

mod bench;
mod cli;
mod commands;
mod pictures;

fn main() -> ExitCode {
    cli::main()
}
