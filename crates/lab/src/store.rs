//! Where the experiment jobs keep their files. [`crate::jobs`] decides
//! what to read, write and delete; a [`Store`] does it. [`FsStore`]
//! (cargo feature `fs`, on by default) is the one place the library
//! touches the file system: without the feature the library does no I/O
//! at all (`cargo check -p katro-lab --no-default-features`).

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
    /// Takes the lock file `path` for this process, writing `owner` into
    /// it, unless another live process holds it. A lock left by a process
    /// that is gone (killed, crashed) is taken over. The lock is held
    /// until the [`Locking::Held`] guard is dropped, which removes the file.
    fn take_lock(&self, path: &Path, owner: &str) -> io::Result<Locking<'_>>;
    /// The name of this machine, for a lock's owner; empty when unknown.
    fn host_name(&self) -> String {
        String::new()
    }
}

/// What [`Store::take_lock`] found.
pub enum Locking<'a> {
    /// The lock is this process's until the guard is dropped; with the
    /// owner text of a process that held it and is gone, if any.
    Held(Box<dyn Send + 'a>, Option<String>),
    /// Another live process holds it: its owner text.
    Busy(String),
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

    use super::{Entry, Locking, Store, is_temporary};

    /// A held lock file: removed, then unlocked (when the file closes), on drop.
    struct FileLock {
        _file: File,
        path: std::path::PathBuf,
    }

    impl Drop for FileLock {
        fn drop(&mut self) {
            let _ = fs::remove_file(&self.path);
        }
    }

    /// Whether the file open as `f` is still the one at `path`: its last
    /// holder removes it on release, and a process that opened it before
    /// that would otherwise lock a file nobody else can see.
    fn still_there(f: &File, path: &Path) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (f.metadata(), fs::metadata(path)) {
                (Ok(a), Ok(b)) => a.ino() == b.ino() && a.dev() == b.dev(),
                _ => false,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = f;
            path.is_file()
        }
    }

    /// Whether the owner text of a lock names a process of this host that
    /// is no longer running: used only where the file system has no
    /// advisory locks. On Linux a live process has a `/proc/PID`.
    fn owner_gone(owner: &str, host: &str) -> bool {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(owner) else {
            return false;
        };
        let same_host = v["host"].as_str() == Some(host) && !host.is_empty();
        match v["pid"].as_u64() {
            Some(pid) if same_host && Path::new("/proc/self").exists() => {
                !Path::new(&format!("/proc/{pid}")).exists()
            }
            _ => false,
        }
    }

    /// The file system.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct FsStore;

    fn gone_is_fine(r: io::Result<()>) -> io::Result<()> {
        match r {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    impl FsStore {
        /// Locks the opened lock file `f`, or leaves `before` holding its
        /// owner's text and says it is busy (false).
        fn try_lock(&self, f: &mut File, before: &mut String) -> io::Result<bool> {
            use std::io::Seek;
            // The OS releases an advisory lock when its process ends,
            // however it ends: a killed run leaves no lock held.
            match f.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    let _ = f.read_to_string(before);
                    return Ok(false);
                }
                Err(fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => {
                    // No advisory locks here (some network file
                    // systems): the owner's process id decides.
                    let _ = f.read_to_string(before);
                    if !before.trim().is_empty() && !owner_gone(before, &self.host_name()) {
                        return Ok(false);
                    }
                    f.rewind()?;
                }
                Err(fs::TryLockError::Error(e)) => return Err(e),
            }
            Ok(true)
        }
    }

    /// Writes `owner` into the lock file `f` at `path`, which this
    /// process has locked; `before` is what it held, if read already.
    fn hold_lock<'a>(
        mut f: File,
        path: &Path,
        owner: &str,
        mut before: String,
    ) -> io::Result<Locking<'a>> {
        use std::io::Seek;
        if before.is_empty() {
            let _ = f.read_to_string(&mut before);
        }
        f.set_len(0)?;
        f.rewind()?;
        f.write_all(owner.as_bytes())?;
        f.sync_all()?;
        let stale = (!before.trim().is_empty()).then_some(before);
        Ok(Locking::Held(
            Box::new(FileLock {
                _file: f,
                path: path.to_path_buf(),
            }),
            stale,
        ))
    }

    /// Writes and removes a probe file in `dir`: whether katro can write
    /// there.
    fn write_probe(dir: &Path) -> io::Result<()> {
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

    /// Writes `bytes` to `tmp`, flushed, and renames it to `name` in
    /// `dir`.
    fn write_and_rename(tmp: &Path, dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
        let mut f = File::create(tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(tmp, dir.join(name))?;
        // Make the rename itself durable; not every platform can
        // open a folder for this, and the file is complete either way.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
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
            // Else create_dir_all's "File exists (os error 17)" names neither
            // the path nor the trouble.
            if fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
                return Err(io::Error::other(format!(
                    "{} is a file, not a folder; give a folder (new or katro's own), where \
                     katro writes its files",
                    dir.display()
                )));
            }
            fs::create_dir_all(dir)?;
            if !fs::metadata(dir)?.is_dir() {
                return Err(io::Error::other("it is not a folder"));
            }
            write_probe(dir)
        }

        fn write_atomic(&self, dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
            // The bytes go to a hidden temporary in the same folder, are
            // flushed, and the file is renamed over the target: an
            // interrupted run leaves `.name.tmp-PID`, never half a `name`.
            let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
            let result = write_and_rename(&tmp, dir, name, bytes);
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

        fn take_lock(&self, path: &Path, owner: &str) -> io::Result<Locking<'_>> {
            loop {
                let mut f = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(path)?;
                let mut before = String::new();
                if !self.try_lock(&mut f, &mut before)? {
                    return Ok(Locking::Busy(before));
                }
                if still_there(&f, path) {
                    return hold_lock(f, path, owner, before);
                }
            }
        }

        fn host_name(&self) -> String {
            ["/proc/sys/kernel/hostname", "/etc/hostname"]
                .iter()
                .find_map(|p| fs::read_to_string(p).ok())
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .or_else(|| std::env::var("HOSTNAME").ok())
                .unwrap_or_default()
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
    /// Lock files held by a guard now.
    locked: std::collections::BTreeSet<std::path::PathBuf>,
}

/// A lock of a [`MemoryStore`], released on drop.
struct MemoryLock<'a> {
    store: &'a MemoryStore,
    path: std::path::PathBuf,
}

impl Drop for MemoryLock<'_> {
    fn drop(&mut self) {
        let mut m = self.store.lock();
        m.locked.remove(&self.path);
        m.files.remove(&self.path);
    }
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

    fn take_lock(&self, path: &Path, owner: &str) -> io::Result<Locking<'_>> {
        let mut m = self.lock();
        if m.locked.contains(path) {
            let text = m.files.get(path).cloned().unwrap_or_default();
            return Ok(Locking::Busy(String::from_utf8_lossy(&text).into_owned()));
        }
        // A lock file nobody holds was left by a process that is gone.
        let stale = m
            .files
            .insert(path.to_path_buf(), owner.as_bytes().to_vec())
            .map(|b| String::from_utf8_lossy(&b).into_owned());
        m.locked.insert(path.to_path_buf());
        drop(m);
        Ok(Locking::Held(
            Box::new(MemoryLock {
                store: self,
                path: path.to_path_buf(),
            }),
            stale,
        ))
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
