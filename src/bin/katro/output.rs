//! What every command shares: standard output that tolerates a closed
//! pipe, variants from the file system, the process's peak memory and CPU
//! time, and the solver's thread pool.

use std::io::Write;

use katro_lab::jobs::{Error, Failure};

pub fn emit(text: &str) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`katro show x | head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Stdout(e).into()),
    }
}

/// A variant by preset name or file path, from the file system.
pub fn load_variant(spec: &str) -> Result<katro_core::Rules, Error> {
    katro_lab::jobs::load_variant(&katro_lab::store::FsStore, spec)
}

/// The process's peak resident memory in bytes, where the system says.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Runs `f` on a pool of `threads` threads (all cores if `None`), where
/// the solver's exploration runs.
pub fn with_threads(
    threads: Option<u32>,
    f: impl FnOnce() -> Result<(), Error> + Send,
) -> Result<(), Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0) as usize)
        .build()
        .map_err(Failure::Threads)?;
    pool.install(f)
}

/// User and system CPU seconds of the whole process, finished threads
/// included (`/proc/self/stat`, in Linux's fixed 100 ticks a second), where
/// Linux reports it.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}
