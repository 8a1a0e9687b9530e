use std::process::ExitCode;

mod bench;
mod checkpoint;
mod cli;
mod files;
mod jobs;
mod pictures;

fn main() -> ExitCode {
    cli::main()
}
