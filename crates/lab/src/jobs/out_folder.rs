//! The output folder a job writes into, made ready before a game is
//! played: its lock taken, and what is not the job's refused or cleared.

use std::path::Path;

use super::survey::{Again, Writer, refuse_or_clear, survey};
use super::{Error, Progress, Refusal, now};
use crate::experiment::runner::Part;
use crate::files::lock::{LockHolder, LockOwner};
use crate::store::Store;

/// Refuses an output folder, `dir`, that cannot be written (creating it
/// if needed); `origin` says where the folder was named (`--out o`, an
/// experiment's key), when it was.
pub(super) fn check_out_writable(
    store: &dyn Store,
    dir: &Path,
    origin: Option<String>,
) -> Result<(), Error> {
    Ok(store
        .check_writable(dir)
        .map_err(|error| Refusal::NotWritable {
            origin,
            dir: dir.to_path_buf(),
            error,
        })?)
}

/// Refuses a folder holding what the writer `w` must not reuse or
/// replace, naming the commands of `again`, or clears it under `force`:
/// checked before a game is played.
pub(super) fn clear_folder(
    store: &dyn Store,
    progress: &dyn Progress,
    (dir, w): (&Path, &Writer),
    force: bool,
    name: &str,
    again: &Again,
) -> Result<(), Error> {
    let found = survey(store, dir, w);
    refuse_or_clear(store, progress, dir, found, force, (name, w.hash), again)
}

/// The lock file of the part of a run that writes into a folder: one for
/// the results (a whole run, a merge, `simulate --out`), one per shard, so
/// the shards of one run can share a folder (docs/CLUSTER.md).
pub(crate) fn lock_name(part: Part) -> String {
    match part {
        Part::Whole => ".katro-lock".to_string(),
        Part::Shard { index, count } => format!(".katro-lock-shard-{index}-of-{count}"),
    }
}

/// Takes the folder's lock for this part before anything in it is read, so
/// that a second run into a folder a run is using is refused at once,
/// naming the other run. The lock lasts as long as the returned guard; a
/// lock left by a run that was killed is taken over, with a note.
pub(super) fn lock_folder<'a>(
    store: &'a dyn Store,
    progress: &dyn Progress,
    dir: &Path,
    part: Part,
    command: &[String],
) -> Result<Box<dyn Send + 'a>, Error> {
    let path = dir.join(lock_name(part));
    let owner = lock_owner(store, command);
    match store.take_lock(&path, &owner) {
        Ok(crate::store::Locking::Held(guard, stale)) => {
            if let Some(old) = stale {
                progress.note(&took_over(&path, &old));
            }
            Ok(guard)
        }
        Ok(crate::store::Locking::Busy(other)) => Err(Refusal::FolderInUse {
            dir: dir.to_path_buf(),
            holder: Box::new(LockHolder::read(&other)),
            lock: path,
        }
        .into()),
        Err(error) => Err(Refusal::CannotLock { lock: path, error }.into()),
    }
}

/// What the lock file says of this run: its command, host, process and
/// start.
fn lock_owner(store: &dyn Store, command: &[String]) -> String {
    LockOwner {
        command: command.to_vec(),
        host: store.host_name(),
        pid: std::process::id(),
        start_time: now(),
    }
    .to_json()
}

/// The note on taking over the lock at `path` that a run no longer
/// running left, `old` what the lock said.
fn took_over(path: &Path, old: &str) -> String {
    format!(
        "took over the lock {} of a run that is no longer running ({})",
        path.display(),
        LockOwner::words(old)
    )
}
