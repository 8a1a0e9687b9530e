//! Where the experiment jobs keep their files. [`crate::jobs`] decides
//! what to read, write and delete; a [`Store`] does it. [`FsStore`]
//! (cargo feature `fs`, on by default) is the one place the library
//! touches the file system: without the feature the library does no I/O
//! at all (`cargo check --lib --no-default-features`).

use std::io;
use std::path::Path;

/// One entry of a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub is_dir: bool,
}

/// The file operations the jobs need. Paths are as the user gave them.
/// `Sync`: checkpoints are saved from the runner's worker threads.
pub trait Store: Sync {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// Up to `n` bytes from the start of a file.
    fn read_start(&self, path: &Path, n: u64) -> io::Result<Vec<u8>>;
    /// A folder's entries, sorted by name; an error if it is not a folder.
    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>>;
    fn is_dir(&self, path: &Path) -> bool;
    fn is_file(&self, path: &Path) -> bool;
    fn create_dir_all(&self, dir: &Path) -> io::Result<()>;
    /// Makes sure results can be written into `dir` before any game is
    /// played: creates it if needed and proves it takes a new file.
    fn check_writable(&self, dir: &Path) -> io::Result<()>;
    /// Writes `dir/name` so that it is either absent, the old version, or
    /// complete: never half-written.
    fn write_atomic(&self, dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()>;
    /// Removes a file; one already gone is fine.
    fn remove_file(&self, path: &Path) -> io::Result<()>;
    /// Removes a folder and everything in it; one already gone is fine.
    fn remove_all(&self, path: &Path) -> io::Result<()>;
    /// Removes a folder if it is empty.
    fn remove_dir(&self, path: &Path) -> io::Result<()>;
    /// Removes the hidden temporaries an interrupted [`Store::write_atomic`]
    /// left in `dir`.
    fn remove_temporaries(&self, dir: &Path);
}

/// Whether an error is the disk (or the user's quota) being full.
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

/// Whether `name` is a temporary of an interrupted atomic write.
pub fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.contains(".tmp-")
}

#[cfg(feature = "fs")]
pub use self::disk::FsStore;

#[cfg(feature = "fs")]
mod disk {
    use std::fs::{self, File, OpenOptions};
    use std::io::{self, Read, Write};
    use std::path::Path;

    use super::{Entry, Store, is_temporary};

    /// The file system.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct FsStore;

    fn gone_is_fine(r: io::Result<()>) -> io::Result<()> {
        match r {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    impl Store for FsStore {
        fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
            fs::read(path)
        }

        fn read_start(&self, path: &Path, n: u64) -> io::Result<Vec<u8>> {
            let mut out = Vec::new();
            File::open(path)?.take(n).read_to_end(&mut out)?;
            Ok(out)
        }

        fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
            let mut out: Vec<Entry> = fs::read_dir(dir)?
                .flatten()
                .map(|e| Entry {
                    name: e.file_name().to_string_lossy().into_owned(),
                    is_dir: e.path().is_dir(),
                })
                .collect();
            out.sort_by(|a, b| a.name.cmp(&b.name));
            Ok(out)
        }

        fn is_dir(&self, path: &Path) -> bool {
            path.is_dir()
        }

        fn is_file(&self, path: &Path) -> bool {
            path.is_file()
        }

        fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
            fs::create_dir_all(dir)
        }

        fn check_writable(&self, dir: &Path) -> io::Result<()> {
            fs::create_dir_all(dir)?;
            if !fs::metadata(dir)?.is_dir() {
                return Err(io::Error::other("it is not a folder"));
            }
            // The time as well as the process id: shards on several machines
            // may share one folder, and their process ids can coincide.
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

        fn write_atomic(&self, dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
            // The bytes go to a hidden temporary in the same folder, are
            // flushed, and the file is renamed over the target: an
            // interrupted run leaves `.name.tmp-PID`, never half a `name`.
            let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
            let result = (|| {
                let mut f = File::create(&tmp)?;
                f.write_all(bytes)?;
                f.sync_all()?;
                drop(f);
                fs::rename(&tmp, dir.join(name))?;
                // Make the rename itself durable; not every platform can
                // open a folder for this, and the file is complete either way.
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

        fn remove_file(&self, path: &Path) -> io::Result<()> {
            gone_is_fine(fs::remove_file(path))
        }

        fn remove_all(&self, path: &Path) -> io::Result<()> {
            gone_is_fine(fs::remove_dir_all(path))
        }

        fn remove_dir(&self, path: &Path) -> io::Result<()> {
            fs::remove_dir(path)
        }

        fn remove_temporaries(&self, dir: &Path) {
            let Ok(entries) = fs::read_dir(dir) else {
                return;
            };
            for e in entries.flatten() {
                if is_temporary(&e.file_name().to_string_lossy()) {
                    let _ = fs::remove_file(e.path());
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn atomic_writes_replace_whole_files_and_leave_no_temporary() {
            let dir = tempfile::tempdir().unwrap();
            let s = FsStore;
            s.write_atomic(dir.path(), "a.csv", b"one\n").unwrap();
            s.write_atomic(dir.path(), "a.csv", b"two\n").unwrap();
            assert_eq!(fs::read(dir.path().join("a.csv")).unwrap(), b"two\n");
            let names: Vec<String> = s
                .list(dir.path())
                .unwrap()
                .into_iter()
                .map(|e| e.name)
                .collect();
            assert_eq!(names, ["a.csv"]);
            s.remove_file(&dir.path().join("a.csv")).unwrap();
            s.remove_file(&dir.path().join("a.csv")).unwrap();
            assert!(!dir.path().join("a.csv").exists());
        }

        #[test]
        fn a_file_in_the_way_is_not_writable() {
            let dir = tempfile::tempdir().unwrap();
            let s = FsStore;
            let file = dir.path().join("f");
            fs::write(&file, "x").unwrap();
            assert!(s.check_writable(&file).is_err());
            assert!(s.check_writable(&file.join("sub")).is_err());
            s.check_writable(&dir.path().join("new/sub")).unwrap();
            assert_eq!(fs::read_dir(dir.path().join("new/sub")).unwrap().count(), 0);
        }
    }
}

/// A store in memory: files by path, folders implied by them or made with
/// [`Store::create_dir_all`]. For tests, and for callers that want the
/// bytes of a results folder without a disk.
#[derive(Debug, Default)]
pub struct MemoryStore {
    inner: std::sync::Mutex<Memory>,
}

#[derive(Debug, Default)]
struct Memory {
    files: std::collections::BTreeMap<std::path::PathBuf, Vec<u8>>,
    dirs: std::collections::BTreeSet<std::path::PathBuf>,
}

impl MemoryStore {
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Memory> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts a file there, with its folders.
    pub fn insert(&self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) {
        let path = path.as_ref();
        let mut m = self.lock();
        for a in path.ancestors().skip(1) {
            m.dirs.insert(a.to_path_buf());
        }
        m.files.insert(path.to_path_buf(), bytes.into());
    }

    /// Every file under `dir`, by path relative to it.
    pub fn files_under(&self, dir: impl AsRef<Path>) -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let dir = dir.as_ref();
        self.lock()
            .files
            .iter()
            .filter_map(|(p, b)| Some((p.strip_prefix(dir).ok()?.to_path_buf(), b.clone())))
            .collect()
    }
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("{}: not found", path.display()),
    )
}

impl Store for MemoryStore {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.lock()
            .files
            .get(path)
            .cloned()
            .ok_or_else(|| not_found(path))
    }

    fn read_start(&self, path: &Path, n: u64) -> io::Result<Vec<u8>> {
        let mut b = self.read(path)?;
        b.truncate(usize::try_from(n).unwrap_or(usize::MAX));
        Ok(b)
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
        let m = self.lock();
        if !m.dirs.contains(dir) {
            return Err(not_found(dir));
        }
        let mut out: Vec<Entry> = Vec::new();
        let child = |p: &Path| -> Option<String> {
            (p.parent() == Some(dir))
                .then(|| p.file_name().map(|n| n.to_string_lossy().into_owned()))?
        };
        out.extend(m.files.keys().filter_map(|p| child(p)).map(|name| Entry {
            name,
            is_dir: false,
        }));
        out.extend(
            m.dirs
                .iter()
                .filter_map(|p| child(p))
                .map(|name| Entry { name, is_dir: true }),
        );
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.lock().dirs.contains(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        self.lock().files.contains_key(path)
    }

    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        let mut m = self.lock();
        if m.files.contains_key(dir) {
            return Err(io::Error::other("it is not a folder"));
        }
        for a in dir.ancestors() {
            m.dirs.insert(a.to_path_buf());
        }
        Ok(())
    }

    fn check_writable(&self, dir: &Path) -> io::Result<()> {
        if dir.ancestors().any(|a| self.is_file(a)) {
            return Err(io::Error::other("it is not a folder"));
        }
        self.create_dir_all(dir)
    }

    fn write_atomic(&self, dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
        if !self.is_dir(dir) {
            return Err(not_found(dir));
        }
        self.lock().files.insert(dir.join(name), bytes.to_vec());
        Ok(())
    }

    fn remove_file(&self, path: &Path) -> io::Result<()> {
        self.lock().files.remove(path);
        Ok(())
    }

    fn remove_all(&self, path: &Path) -> io::Result<()> {
        let mut m = self.lock();
        m.files.retain(|p, _| !p.starts_with(path));
        m.dirs.retain(|p| !p.starts_with(path));
        Ok(())
    }

    fn remove_dir(&self, path: &Path) -> io::Result<()> {
        let mut m = self.lock();
        let busy = m.files.keys().any(|p| p.parent() == Some(path))
            || m.dirs.iter().any(|p| p.parent() == Some(path));
        if busy {
            return Err(io::Error::other("the folder is not empty"));
        }
        m.dirs.remove(path);
        Ok(())
    }

    fn remove_temporaries(&self, dir: &Path) {
        self.lock().files.retain(|p, _| {
            p.parent() != Some(dir)
                || !p
                    .file_name()
                    .is_some_and(|n| is_temporary(&n.to_string_lossy()))
        });
    }
}
