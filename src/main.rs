use std::process::ExitCode;

mod cli;
mod files;
mod jobs;

fn main() -> ExitCode {
    cli::main()
}
