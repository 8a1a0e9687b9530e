//! Whose files an output folder holds: what a command may reuse, what it
//! must refuse, and what `--force` deletes. Files katro did not write, at
//! names katro does not write (a user's notes.txt), are not surveyed at
//! all: they are in no run's way, so they never block a run or a resume.
//! Reads through a [`Store`].

use std::path::{Path, PathBuf};

use crate::files::formats::is_run_folder_file;
use crate::files::{BUILD, FileError, ManifestRead, ShardHeader, sniff_shard_header};
use crate::store::Store;

use super::checkpoint;
use super::owned::{Folder, LEDGER, Whose};
use super::{Error, Failure, FolderNotOurs, Progress, Refusal, file_name};
use crate::pictures::report::is_chart_file;

/// Something in an output folder that is not this run's to reuse: another
/// experiment's or another build's files, files no manifest of this
/// experiment lists, or a file katro did not write under a name katro
/// writes; and what `--force` deletes.
pub(crate) struct Foreign {
    pub(crate) what: String,
    pub(crate) why: String,
    /// Files (or, with `folder`, one folder) katro wrote, which `--force`
    /// deletes. Empty for what `--force` keeps: files katro did not write,
    /// and result files it will overwrite anyway.
    pub(crate) remove: Vec<PathBuf>,
    pub(crate) folder: bool,
    /// Whether `--allow-other-build` would make it usable.
    pub(crate) other_build: bool,
    /// A file katro did not write under a name katro writes: refused even
    /// with `--force`, which never replaces a file katro did not write.
    pub(crate) blocks: bool,
}

impl Foreign {
    fn new(what: impl Into<String>, why: impl Into<String>) -> Foreign {
        Foreign {
            what: what.into(),
            why: why.into(),
            remove: Vec::new(),
            folder: false,
            other_build: false,
            blocks: false,
        }
    }
}

/// What a command is about to write into a folder, for [`survey`].
pub(crate) struct Writer<'a> {
    pub(crate) hash: &'a str,
    /// FNV-1a of the experiment's text, for manifests from before the
    /// fingerprint.
    pub(crate) text_fnv: Option<&'a str>,
    /// The hash of the finished experiment a grown run keeps the games of:
    /// its results are this run's to replace.
    pub(crate) grows: Option<&'a str>,
    /// `Some(N)` for shard runs (which also refuse shards cut for another
    /// N), `Some(0)` for a whole run; `None` for `merge` and `simulate`,
    /// which write only results and look at no checkpoint.
    pub(crate) shards: Option<u64>,
    /// `--allow-other-build`: another build's checkpoint or shards of this
    /// experiment are usable.
    pub(crate) allow_other_build: bool,
}

/// The commands a refusal of the folder names, each as the user would
/// type it: the same command again (once the files in the way are
/// moved), with `--force`, and with `--allow-other-build` where the
/// command takes it.
pub(crate) struct Again {
    pub(crate) same: String,
    pub(crate) forced: String,
    pub(crate) other_build: Option<String>,
}

/// The folder of SLURM job logs that scripts/slurm/submit.sh makes in
/// the output folder before the shards run (docs/CLUSTER.md).
const SLURM_LOGS: &str = "slurm";

/// Result files named in a readable katro manifest: files katro wrote.
pub(crate) fn listed_files(manifest: &ManifestRead) -> Vec<String> {
    // The report's charts, `plots/NAME.svg`: one level down, no other path.
    let chart = |f: &str| {
        f.strip_prefix("plots/").is_some_and(|n| {
            n.ends_with(".svg") && !n.contains('/') && !n.contains('\\') && !n.starts_with('.')
        })
    };
    manifest
        .files
        .iter()
        .filter(|f| is_run_folder_file(f) || chart(f))
        .cloned()
        .collect()
}

/// A build mismatch in words, for a checkpoint or a shard.
fn other_build_words(theirs: &str) -> String {
    format!(
        "written by katro build {theirs}, not this build {BUILD}: its games may differ from \
         this engine's (--allow-other-build uses it anyway)"
    )
}

/// Whether `name` is one katro gives shard files.
fn is_shard_name(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix("shard-")
        .and_then(|r| r.strip_suffix(".json"))
    else {
        return false;
    };
    let Some((i, n)) = rest.split_once("-of-") else {
        return false;
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    digits(i) && digits(n)
}

/// Everything in `dir` that this command must not silently reuse,
/// overwrite or mix with its results.
pub(crate) fn survey(store: &dyn Store, dir: &Path, w: &Writer) -> Vec<Foreign> {
    let mut found = Vec::new();
    let folder = Folder::open(store, dir);
    // The result files this experiment's own manifest vouches for.
    let ours = manifest_files(&folder, w, &mut found);
    let Ok(entries) = store.list(dir) else {
        return found;
    };
    let own_checkpoint = has_own_checkpoint(store, dir, w);
    for e in entries {
        found.extend(foreign_entry(&folder, &e.name, &ours, own_checkpoint));
    }
    let Some(shards) = w.shards else {
        return found;
    };
    found.extend(foreign_checkpoints(store, dir, w));
    found.extend(foreign_shards(store, dir, w, shards));
    found
}

/// The result files the folder's manifest lists when it is this
/// experiment's (or the one a grown run replaces); the manifest itself
/// goes into `found` when it is another's, or unreadable.
fn manifest_files(folder: &Folder, w: &Writer, found: &mut Vec<Foreign>) -> Vec<String> {
    let (store, dir) = (folder.store(), folder.dir());
    let m = match read_manifest_in(store, dir) {
        Ok(None) => return Vec::new(),
        // Perhaps not katro's: kept, and overwritten only once the
        // results it would describe are written.
        Err(e) => {
            found.push(Foreign {
                blocks: true,
                ..Foreign::new(
                    "manifest.json",
                    format!("katro cannot read it, so it may not be katro's: {e}"),
                )
            });
            return Vec::new();
        }
        Ok(Some(m)) => m,
    };
    let listed = listed_files(&m);
    if whose(folder, "manifest.json") == Whose::Edited {
        found.push(blocking("manifest.json", Whose::Edited));
    }
    if !same_experiment(&m, w) {
        found.push(other_results(folder, &m, &listed));
    }
    listed
}

/// Whether the manifest `m` is of this experiment, or of the one a grown
/// run replaces.
fn same_experiment(m: &ManifestRead, w: &Writer) -> bool {
    let theirs = &m.run.experiment_hash;
    if theirs.is_empty() {
        // Manifests from before the fingerprint: compare the text.
        m.experiment
            .as_ref()
            .is_some_and(|e| Some(e.fnv1a64.as_str()) == w.text_fnv)
    } else {
        theirs == w.hash || Some(theirs.as_str()) == w.grows
    }
}

/// Another experiment's manifest and its `listed` results. Of its files,
/// only those still as katro wrote them are katro's to delete; the others
/// block, named where the folder's entries are.
fn other_results(folder: &Folder, m: &ManifestRead, listed: &[String]) -> Foreign {
    let mut remove = Vec::new();
    for f in std::iter::once("manifest.json").chain(listed.iter().map(String::as_str)) {
        if whose(folder, f) == Whose::Katros {
            remove.push(folder.dir().join(f));
        }
    }
    let theirs = &m.run.experiment_hash;
    Foreign {
        remove,
        ..Foreign::new(
            "manifest.json and its results",
            format!(
                "results of experiment `{}` (hash {})",
                m.run.name,
                if theirs.is_empty() {
                    "not recorded"
                } else {
                    theirs
                }
            ),
        )
    }
}

/// Whether the folder holds a checkpoint of this experiment: an
/// interrupted write leaves this experiment's result files with its
/// checkpoint and no manifest yet.
fn has_own_checkpoint(store: &dyn Store, dir: &Path, w: &Writer) -> bool {
    let root = dir.join(checkpoint::FOLDER);
    w.shards.is_some()
        && store.list(&root).is_ok_and(|entries| {
            entries.iter().any(|e| {
                checkpoint::read_identity(store, &root.join(&e.name))
                    .is_ok_and(|c| c.run.experiment_hash == w.hash)
            })
        })
}

/// Whose the file `rel` of the folder is; one that cannot be read is
/// taken for the user's.
fn whose(folder: &Folder, rel: &str) -> Whose {
    folder.whose(rel).unwrap_or(Whose::Users)
}

/// A file katro may not replace under a name it writes: refused even with
/// `--force`.
fn blocking(rel: &str, whose: Whose) -> Foreign {
    let why = match whose {
        Whose::Edited => "changed since katro wrote it, and katro writes a file of that name",
        _ => {
            "no manifest of this experiment lists it, so katro did not write it, \
             and katro writes a file of that name"
        }
    };
    Foreign {
        blocks: true,
        ..Foreign::new(rel, why)
    }
}

/// Whether `name` in the folder is katro's own and never in the way: the
/// manifest (judged by [`manifest_files`]), checkpoints, shards, job
/// logs, the ledger, locks, temporaries.
fn is_katro_own(store: &dyn Store, dir: &Path, name: &str) -> bool {
    name == "manifest.json"
        || name == checkpoint::FOLDER
        || name == "shards"
        || name == LEDGER
        // The job logs scripts/slurm/submit.sh keeps in OUT/slurm/:
        // katro's own, and never written to by this command.
        || (name == SLURM_LOGS && store.is_dir(&dir.join(name)))
        // The lock files of the runs writing here (this one's included).
        || name.starts_with(".katro-lock")
        // Temporaries of an interrupted atomic write or writability probe.
        || (name.starts_with('.') && (name.contains(".tmp-") || name.starts_with(".katro-write-test-")))
}

/// What is wrong with the folder's entry `name`, if anything: a result
/// file no manifest of this experiment lists, or a file katro did not
/// write or that was changed since under a name katro writes. Any other
/// file is the user's and in nobody's way: not listed.
fn foreign_entry(
    folder: &Folder,
    name: &str,
    ours: &[String],
    own_checkpoint: bool,
) -> Vec<Foreign> {
    let (store, dir) = (folder.store(), folder.dir());
    if is_katro_own(store, dir, name) {
        return Vec::new();
    }
    if name == "plots" {
        return if store.is_dir(&dir.join(name)) {
            foreign_charts(folder)
        } else {
            // The report could not make its folder of charts.
            vec![Foreign {
                blocks: true,
                ..Foreign::new(
                    name,
                    "katro did not write it, and a report puts its charts in a folder of \
                     that name",
                )
            }]
        };
    }
    if !is_run_folder_file(name) {
        return Vec::new();
    }
    match whose(folder, name) {
        Whose::Absent => Vec::new(),
        Whose::Katros if ours.iter().any(|f| f == name) || own_checkpoint => Vec::new(),
        // Katro's, by the ledger, but no manifest lists it: results of a
        // run that stopped before its manifest, perhaps another's.
        Whose::Katros => vec![Foreign {
            remove: vec![dir.join(name)],
            ..Foreign::new(
                name,
                "a katro result no manifest of this experiment lists (--force deletes it)",
            )
        }],
        w => vec![blocking(name, w)],
    }
}

/// What is wrong in the report's `plots/` folder: a file the user put at
/// a chart's name, or a chart katro wrote that was changed since, block
/// (a report writes or removes every chart name); anything else there is
/// the user's, and in no run's way. Katro's own charts are the report's
/// to replace or remove.
fn foreign_charts(folder: &Folder) -> Vec<Foreign> {
    let plots = folder.dir().join("plots");
    let Ok(entries) = folder.store().list(&plots) else {
        return Vec::new();
    };
    entries
        .into_iter()
        .filter_map(|e| foreign_chart(folder, &e.name, e.is_dir))
        .collect()
}

/// What is wrong with the entry `name` of `plots/`, if anything.
fn foreign_chart(folder: &Folder, name: &str, is_dir: bool) -> Option<Foreign> {
    let rel = format!("plots/{name}");
    if is_dir || !is_chart_file(name) {
        return None;
    }
    match whose(folder, &rel) {
        Whose::Absent | Whose::Katros => None,
        w => Some(Foreign {
            blocks: true,
            ..Foreign::new(
                rel,
                if w == Whose::Edited {
                    "changed since katro wrote it, and a report writes a chart of that name"
                } else {
                    "katro did not write it, and a report writes a chart of that name"
                },
            )
        }),
    }
}

/// The checkpoints in the folder of another experiment or build, or that
/// do not read.
fn foreign_checkpoints(store: &dyn Store, dir: &Path, w: &Writer) -> Vec<Foreign> {
    let cp_root = dir.join(checkpoint::FOLDER);
    let Ok(entries) = store.list(&cp_root) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for e in entries.iter().filter(|e| e.is_dir) {
        let path = cp_root.join(&e.name);
        if checkpoint::is_unfinished_first_save(store, &path) {
            continue;
        }
        let (why, other_build) = checkpoint_problem(store, &path, w);
        if let Some(why) = why {
            found.push(Foreign {
                remove: vec![path.clone()],
                folder: true,
                other_build,
                ..Foreign::new(format!("{}/{}", checkpoint::FOLDER, e.name), why)
            });
        }
    }
    found
}

/// What is wrong with the checkpoint at `path`, if anything, and whether
/// it is only that another build wrote it.
fn checkpoint_problem(store: &dyn Store, path: &Path, w: &Writer) -> (Option<String>, bool) {
    match checkpoint::read_identity(store, path) {
        Err(e) => (Some(e.to_string()), false),
        // An interrupted run does not grow (only a finished one does):
        // the way to keep its games is to finish it first.
        Ok(c) if c.run.experiment_hash != w.hash => (
            Some(format!(
                "a checkpoint of experiment `{}` (hash {}), a run interrupted before it \
                 finished; if it is this experiment before an edit (more `games`, say), undo \
                 the edit and run it again to finish that run from its checkpoint, then redo \
                 the edit: a finished run grows, playing only the new games",
                c.run.name, c.run.experiment_hash
            )),
            false,
        ),
        Ok(c) if c.run.katro_build != BUILD && !w.allow_other_build => (
            Some(format!(
                "a checkpoint of this experiment {}",
                other_build_words(&c.run.katro_build)
            )),
            true,
        ),
        Ok(_) => (None, false),
    }
}

/// The shards in the folder of another experiment, build or N, or that
/// do not read; `shards` is N for a shard run, 0 for a whole run.
fn foreign_shards(store: &dyn Store, dir: &Path, w: &Writer, shards: u64) -> Vec<Foreign> {
    let mut found = Vec::new();
    for path in shard_files(store, &dir.join("shards")) {
        let header = store
            .read_start(&path, 4096)
            .ok()
            .and_then(|b| sniff_shard_header(&b));
        // A file that is no katro shard is the user's: in the way only of
        // a shard run, and only at a name shard runs write.
        if header.is_none() && !(shards > 0 && is_shard_name(&file_name(&path))) {
            continue;
        }
        let (why, other_build) = shard_problem(header.as_ref(), w, shards);
        if let Some(why) = why {
            found.push(foreign_shard(&path, header.is_some(), why, other_build));
        }
    }
    found
}

/// The shard file at `path` found wrong for `why`. Only a shard katro
/// wrote (`katros`: its header reads) under a name katro gives shards is
/// deleted; a file that is no katro shard is the user's: kept, and
/// refused outright under a shard's name, which a shard run writes (any
/// other was left out by [`foreign_shards`]).
fn foreign_shard(path: &Path, katros: bool, why: String, other_build: bool) -> Foreign {
    let name = file_name(path);
    let remove = if katros && is_shard_name(&name) {
        vec![path.to_path_buf()]
    } else {
        Vec::new()
    };
    Foreign {
        remove,
        other_build,
        blocks: !katros && is_shard_name(&name),
        ..Foreign::new(format!("shards/{name}"), why)
    }
}

/// What is wrong with a shard of header `header` (`None` when it does
/// not read), if anything, and whether it is only that another build
/// wrote it.
fn shard_problem(header: Option<&ShardHeader>, w: &Writer, shards: u64) -> (Option<String>, bool) {
    let Some(h) = header else {
        return (
            Some("not a katro shard file, or damaged".to_string()),
            false,
        );
    };
    if h.run.experiment_hash != w.hash {
        let why = format!(
            "shard {}/{} of experiment `{}` (hash {})",
            h.shard, h.shards, h.run.name, h.run.experiment_hash
        );
        return (Some(why), false);
    }
    if h.run.katro_build != BUILD && !w.allow_other_build {
        let words = other_build_words(&h.run.katro_build);
        return (
            Some(format!("shard {}/{} {words}", h.shard, h.shards)),
            true,
        );
    }
    let why = (shards > 0 && h.shards != shards).then(|| {
        format!(
            "shard {}/{} of this experiment, cut for N = {} rather than {shards}",
            h.shard, h.shards, h.shards
        )
    });
    (why, false)
}

/// Refuses to use a folder holding files that are not this run's, or with
/// `force` deletes those of them katro wrote and goes on; files katro did
/// not write are never deleted. A refusal names the command to type next
/// (`again`).
pub(crate) fn refuse_or_clear(
    store: &dyn Store,
    progress: &dyn Progress,
    dir: &Path,
    found: Vec<Foreign>,
    force: bool,
    (name, hash): (&str, &str),
    again: &Again,
) -> Result<(), Error> {
    if found.is_empty() {
        return Ok(());
    }
    if let Some(refused) = refusal(dir, &found, force, (name, hash), again) {
        return Err(refused);
    }
    let deleted = delete_katro_files(store, dir, &found)?;
    progress.note(&force_note(dir, &found, &deleted));
    Ok(())
}

/// What `--force` tells it did in `dir`: what it `found` there, and the
/// files it `deleted`.
fn force_note(dir: &Path, found: &[Foreign], deleted: &[String]) -> String {
    let found: Vec<String> = found.iter().map(in_words).collect();
    let deleted = if deleted.is_empty() {
        " none".to_string()
    } else {
        format!("\n{}", deleted.join("\n"))
    };
    format!(
        "--force: starting afresh in {}, {}; found there:\n{}\n\
         --force: deleted these files katro wrote:{deleted}",
        dir.display(),
        super::FORCE_MEANS,
        found.join("\n")
    )
}

/// A thing found, as the refusal lists it.
fn in_words(f: &Foreign) -> String {
    format!("  {}: {}", f.what, f.why)
}

/// Why the folder is refused, naming the command that gets past it:
/// files katro did not write under names katro writes are refused until
/// moved (`--force` never replaces them); anything else is refused
/// without `force` only. `None` when `--force` may go on.
fn refusal(
    dir: &Path,
    found: &[Foreign],
    force: bool,
    (name, hash): (&str, &str),
    again: &Again,
) -> Option<Error> {
    let blocking: Vec<String> = found.iter().filter(|f| f.blocks).map(in_words).collect();
    if !blocking.is_empty() && (force || blocking.len() == found.len()) {
        return Some(
            Refusal::ForeignUnderOurNames {
                dir: dir.to_path_buf(),
                files: blocking,
                again: if force { &again.forced } else { &again.same }.clone(),
            }
            .into(),
        );
    }
    if force {
        return None;
    }
    let only_other_build = found.iter().all(|f| f.other_build);
    Some(
        Refusal::FolderNotOurs(Box::new(FolderNotOurs {
            dir: dir.to_path_buf(),
            found: found.iter().map(in_words).collect(),
            name: name.to_string(),
            hash: hash.to_string(),
            forced: again.forced.clone(),
            other_build: again.other_build.clone().filter(|_| only_other_build),
            blocking: !blocking.is_empty(),
        }))
        .into(),
    )
}

/// Deletes what `--force` deletes of `found` (files katro wrote), each
/// once; the paths deleted, relative to `dir`, as listed to the user.
fn delete_katro_files(
    store: &dyn Store,
    dir: &Path,
    found: &[Foreign],
) -> Result<Vec<String>, Error> {
    let mut deleted = Vec::new();
    let mut seen: Vec<&Path> = Vec::new();
    let mut folder = Folder::open(store, dir);
    for f in found {
        for p in &f.remove {
            // A manifest lists itself among its files: delete and name it once.
            if seen.contains(&p.as_path()) {
                continue;
            }
            seen.push(p);
            force_delete(&mut folder, p, f.folder)?;
            deleted.push(format!("  {}", p.strip_prefix(dir).unwrap_or(p).display()));
        }
    }
    // The report's `plots/` folder, katro's own, once its listed charts are
    // gone: removed only if nothing else is left in it.
    let plots = dir.join("plots");
    if seen.iter().any(|p| p.parent() == Some(plots.as_path())) && store.remove_dir(&plots).is_ok()
    {
        deleted.push("  plots/".to_string());
    }
    Ok(deleted)
}

/// Deletes `p` (a whole folder when `is_folder`) under `--force`.
fn force_delete(folder: &mut Folder, p: &Path, is_folder: bool) -> Result<(), Error> {
    let rel = p.strip_prefix(folder.dir()).unwrap_or(p);
    if is_folder {
        folder
            .store()
            .remove_all(p)
            .map_err(|error| Failure::ForceDelete {
                path: p.to_path_buf(),
                error,
            })?;
    } else {
        // Checked again as it goes: only katro's, unchanged.
        let rel = rel.to_string_lossy().replace('\\', "/");
        folder.remove(&[rel], "--force")?;
    }
    Ok(())
}

/// The shard files in a folder, by name: `*.json`, not hidden.
pub(crate) fn shard_files(store: &dyn Store, dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = store.list(dir) else {
        return Vec::new();
    };
    entries
        .into_iter()
        .filter(|e| !e.is_dir && e.name.ends_with(".json") && !e.name.starts_with('.'))
        .map(|e| dir.join(e.name))
        .collect()
}

/// The manifest in `dir`: `None` when there is none, an error naming
/// the file when katro cannot read it as one of its manifests.
pub(crate) fn read_manifest_in(
    store: &dyn Store,
    dir: &Path,
) -> Result<Option<ManifestRead>, FileError> {
    let path = dir.join("manifest.json");
    if !store.is_file(&path) {
        return Ok(None);
    }
    let bytes = store
        .read(&path)
        .map_err(|e| FileError::ManifestUnreadable {
            path: path.clone(),
            reason: e.to_string(),
        })?;
    ManifestRead::parse(&bytes)
        .map(Some)
        .map_err(|e| FileError::NotManifest {
            path,
            reason: e.to_string(),
        })
}

/// The manifest in `dir`, when there is one katro can read; the folder
/// survey says what is wrong with one it cannot.
pub(super) fn read_manifest(store: &dyn Store, dir: &Path) -> Option<ManifestRead> {
    read_manifest_in(store, dir).ok().flatten()
}
