//! What every command shares to print: standard output that tolerates a
//! closed pipe.

use std::io::Write;

use katro::jobs::Failure;

pub fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`katro show x | head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure {
            code: 1,
            message: format!("cannot write to standard output: {e}"),
        }),
    }
}

/// A variant by preset name or file path, from the file system.
pub fn load_variant(spec: &str) -> Result<katro::Rules, Failure> {
    katro::jobs::load_variant(&katro::store::FsStore, spec)
}
