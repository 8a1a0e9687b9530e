use std::process::ExitCode;

mod bench;
mod checkpoint;
mod cli;
mod files;
mod jobs;
mod pictures;
mod solve_cmd;

fn main() -> ExitCode {
    cli::main()
}
