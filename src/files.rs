//! Writing result files. Lives in the binary because the library does no
//! I/O: `katro::export` makes the bytes, this puts them on disk.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// Makes sure results can be written into `dir` before any game is played:
/// creates the folder if needed and writes and removes a probe file.
pub fn check_writable(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    if !fs::metadata(dir)?.is_dir() {
        return Err(io::Error::other("it is not a folder"));
    }
    // The time as well as the process id: shards on several machines may
    // share one folder, and their process ids can coincide.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let probe = dir.join(format!(".katro-write-test-{}-{nanos}", std::process::id()));
    let result = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|mut f| f.write_all(b"probe"));
    let _ = fs::remove_file(&probe);
    result
}

/// Writes `bytes` to `dir/name` so that the file is either absent, the old
/// version, or complete: the bytes go to a hidden temporary file in the same
/// folder, are flushed to disk, and the file is renamed over the target.
/// An interrupted run can leave a hidden `.name.tmp-PID`, never a
/// half-written `name`.
pub fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, dir.join(name))?;
        // Make the rename itself durable; not every platform can open a
        // folder for this, and the file is complete either way.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Removes an output file an earlier run left that this run does not
/// make, so a folder never mixes two runs' results.
pub fn remove_stale(dir: &Path, name: &str) -> io::Result<()> {
    match fs::remove_file(dir.join(name)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Whether a write failed because the disk (or the user's quota) is full.
pub fn is_disk_full(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded
    )
}

/// An I/O error in words, saying so plainly when the disk is full.
pub fn describe(e: &io::Error) -> String {
    if is_disk_full(e) {
        format!("{e}: the disk is full")
    } else {
        e.to_string()
    }
}

/// Up to `n` bytes from the start of a file.
pub fn read_start(path: &Path, n: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    File::open(path)?.take(n).read_to_end(&mut out)?;
    Ok(out)
}

/// Removes a folder and everything in it; a folder already gone is fine.
pub fn remove_all(path: &Path) -> io::Result<()> {
    match fs::remove_dir_all(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The hidden temporary files [`write_atomic`] leaves in `dir` when it is
/// interrupted, removed; the next run would never look at them.
pub fn remove_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') && name.contains(".tmp-") {
            let _ = fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        write_atomic(dir.path(), "a.csv", b"one\n").unwrap();
        write_atomic(dir.path(), "a.csv", b"two\n").unwrap();
        assert_eq!(fs::read(dir.path().join("a.csv")).unwrap(), b"two\n");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["a.csv"]);
        remove_stale(dir.path(), "a.csv").unwrap();
        remove_stale(dir.path(), "a.csv").unwrap();
        assert!(!dir.path().join("a.csv").exists());
    }

    #[test]
    fn a_file_in_the_way_is_not_writable() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        fs::write(&file, "x").unwrap();
        assert!(check_writable(&file).is_err());
        assert!(check_writable(&file.join("sub")).is_err());
        check_writable(&dir.path().join("new/sub")).unwrap();
        assert_eq!(fs::read_dir(dir.path().join("new/sub")).unwrap().count(), 0);
    }
}
