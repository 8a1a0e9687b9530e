//! Checkpoints on disk: `OUT/.katro-checkpoint/<part>/`, where `<part>` is
//! `run` for a whole run and `shard-I-of-N` for a shard.
//!
//! The folder holds `state.json` (a [`CheckpointFile`]: exact aggregates
//! and the finished units) and, with per-game rows, `rows-000000.json`,
//! `rows-000001.json`, ...: each save writes the rows finished since the
//! one before to a new file, then rewrites `state.json` to count it.
//! Every file is written to a temporary name and renamed, so a run killed
//! at any instant, or stopped by a full disk, leaves the last complete
//! checkpoint: a rows file that `state.json` does not count yet is ignored.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::experiment::runner::{
    Cell, Checkpoint, GameRow, Layout, Part, Resume, RunState, SaveError,
};
use crate::files::{
    BUILD, CHECKPOINT_FORMAT, CheckpointFile, FileError, GameLine, RunHeader, other_builds,
};
use crate::store::{Store, describe};

pub(crate) const FOLDER: &str = ".katro-checkpoint";
const STATE: &str = "state.json";

/// The folder of one part's checkpoint.
pub(crate) fn folder(out: &Path, part: Part) -> PathBuf {
    out.join(FOLDER).join(match part {
        Part::Whole => "run".to_string(),
        Part::Shard { index, count } => format!("shard-{index}-of-{count}"),
    })
}

fn rows_file(n: u64) -> String {
    format!("rows-{n:06}.json")
}

/// What every save of a run writes into `state.json` besides the state.
pub(crate) struct Identity {
    pub experiment_hash: String,
    pub name: String,
    pub part: Part,
    /// The experiment file as the run was given it.
    pub experiment: String,
}

fn shard_pair(part: Part) -> Option<[u64; 2]> {
    match part {
        Part::Whole => None,
        Part::Shard { index, count } => Some([index, count]),
    }
}

/// Writes checkpoints for the runner.
pub(crate) struct Saver<'a> {
    store: &'a dyn Store,
    dir: PathBuf,
    id: Identity,
    cells: &'a [Cell<'a>],
    layout: Layout,
    every: Duration,
    started: Instant,
    /// Milliseconds after `started` of the last save.
    last: AtomicU64,
    /// Seconds played by earlier sessions.
    wall_before: f64,
    /// Rows files written so far.
    row_files: Mutex<u64>,
    /// Games in the last checkpoint written (or resumed from).
    pub games_saved: AtomicU64,
    /// Cells finished in the last checkpoint written (or resumed from).
    pub cells_saved: AtomicU64,
    /// Set when the user asks the run to stop (Ctrl-C).
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Builds other than this one that played the resumed games.
    pub other_builds: Vec<String>,
}

impl<'a> Saver<'a> {
    pub fn new(
        store: &'a dyn Store,
        dir: PathBuf,
        id: Identity,
        cells: &'a [Cell<'a>],
        every: Duration,
        resumed: Option<&CheckpointFile>,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> Saver<'a> {
        let layout = Layout::new(cells);
        Saver {
            cells_saved: AtomicU64::new(resumed.map_or(0, |c| finished_cells(&layout, &c.state))),
            stop,
            store,
            dir,
            id,
            cells,
            layout: Layout::new(cells),
            every,
            started: Instant::now(),
            last: AtomicU64::new(0),
            wall_before: resumed.map_or(0.0, |c| c.wall_seconds),
            row_files: Mutex::new(resumed.map_or(0, |c| c.row_files)),
            games_saved: AtomicU64::new(resumed.map_or(0, |c| c.state.games())),
            other_builds: resumed.map_or_else(Vec::new, |c| other_builds(BUILD, c.run.builds())),
        }
    }

    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Seconds played by this run, earlier sessions included.
    pub fn wall_seconds(&self) -> f64 {
        self.wall_before + self.started.elapsed().as_secs_f64()
    }

    /// [`Saver::write_files`], and when the first save fails (a full disk,
    /// a folder turned read-only), the folder it began: a checkpoint folder
    /// without `state.json` would be a stranger to the next run.
    fn write(&self, state: &RunState, new_rows: &[GameRow]) -> Result<(), SaveError> {
        let result = self.write_files(state, new_rows);
        if result.is_err() && !self.store.is_file(&self.dir.join(STATE)) {
            let _ = self.store.remove_all(&self.dir);
            if let Some(root) = self.dir.parent() {
                let _ = self.store.remove_dir(root);
            }
        }
        result
    }

    fn write_files(&self, state: &RunState, new_rows: &[GameRow]) -> Result<(), SaveError> {
        let fail = |name: &str, e: std::io::Error| self.save_error(name, e);
        self.store
            .create_dir_all(&self.dir)
            .map_err(|e| fail("", e))?;
        let mut files_done = self
            .row_files
            .lock()
            .expect("no save panics while holding the lock");
        // The rows file counts only once `state.json` names it: if writing
        // the state fails, the next save writes this file again, with these
        // rows and the newer ones.
        let mut n = *files_done;
        if !new_rows.is_empty() {
            self.write_rows(n, new_rows)?;
            n += 1;
        }
        let bytes = serde_json::to_vec(&self.file(state, n)).expect("the checkpoint serialises");
        self.store
            .write_atomic(&self.dir, STATE, &bytes)
            .map_err(|e| fail(STATE, e))?;
        *files_done = n;
        self.games_saved.store(state.games(), Ordering::Relaxed);
        self.cells_saved
            .store(finished_cells(&self.layout, state), Ordering::Relaxed);
        Ok(())
    }

    /// A save that failed writing the file `name` of the checkpoint.
    fn save_error(&self, name: &str, e: std::io::Error) -> SaveError {
        SaveError {
            path: self.dir.join(name),
            reason: describe(&e),
        }
    }

    /// Writes the rows file number `n` of `new_rows`.
    fn write_rows(&self, n: u64, new_rows: &[GameRow]) -> Result<(), SaveError> {
        let stored: Vec<GameLine> = new_rows
            .iter()
            .map(|r| GameLine::of(self.cells, r))
            .collect();
        let bytes = serde_json::to_vec(&stored).expect("rows serialise");
        let name = rows_file(n);
        self.store
            .write_atomic(&self.dir, &name, &bytes)
            .map_err(|e| self.save_error(&name, e))
    }

    /// The checkpoint's `state.json` of `state`, naming `row_files` rows
    /// files.
    fn file(&self, state: &RunState, row_files: u64) -> CheckpointFile {
        CheckpointFile {
            format: CHECKPOINT_FORMAT.into(),
            run: RunHeader::new(
                &self.id.experiment_hash,
                &self.id.name,
                self.other_builds.clone(),
            ),
            shard: shard_pair(self.id.part),
            experiment: self.id.experiment.clone(),
            layout: self.layout.cells.clone(),
            row_files,
            wall_seconds: self.wall_seconds(),
            state: state.clone(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }
}

impl Checkpoint for Saver<'_> {
    fn due(&self) -> bool {
        self.now_ms()
            .saturating_sub(self.last.load(Ordering::Relaxed))
            >= self.every.as_millis() as u64
    }

    fn save(&self, state: &RunState, new_rows: &[GameRow]) -> Result<(), SaveError> {
        let result = self.write(state, new_rows);
        self.last.store(self.now_ms(), Ordering::Relaxed);
        result
    }

    fn interval(&self) -> Option<Duration> {
        Some(self.every)
    }

    fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// Cells of a whole run that are played to their stop in `state`.
fn finished_cells(layout: &Layout, state: &RunState) -> u64 {
    state
        .cells
        .iter()
        .zip(&layout.cells)
        .filter(|(p, l)| p.stopped || (l.max_games > 0 && p.settled_games == l.max_games))
        .count() as u64
}

/// The refusal of a command that needs finished results (`report`,
/// `rate`, `curve`, `judge`) in `out`, when `out` holds a run interrupted
/// before it wrote them: what the user most likely wants first is to
/// finish that run, so it names the command that does. `None` when no
/// checkpoint there reads.
pub(crate) fn unfinished_run(store: &dyn Store, out: &Path) -> Option<super::Refusal> {
    let root = out.join(FOLDER);
    let mut parts = store.list(&root).ok()?;
    parts.sort_by(|a, b| a.name.cmp(&b.name));
    parts.iter().filter(|e| e.is_dir).find_map(|e| {
        let dir = root.join(&e.name);
        let c = read_identity(store, &dir).ok()?;
        let experiment = if c.experiment.is_empty() {
            "EXPERIMENT.toml"
        } else {
            &c.experiment
        };
        let out_text = out.display().to_string();
        let mut words = vec!["katro", "run", experiment, "--out", &out_text];
        let shard = c.shard.map(|[i, n]| format!("{i}/{n}"));
        if let Some(s) = &shard {
            words.extend(["--shard", s]);
        }
        Some(super::Refusal::UnfinishedRun {
            dir: out.to_path_buf(),
            name: c.run.name,
            games: c.state.games(),
            checkpoint: dir,
            finish: super::command_line(&words),
        })
    })
}

/// Whether `dir` is what a first save stopped before its `state.json` (a
/// killed run) leaves: no `state.json`, only rows files and temporaries.
/// It holds no state, so a run starts afresh there.
pub(crate) fn is_unfinished_first_save(store: &dyn Store, dir: &Path) -> bool {
    let is_rows = |n: &str| {
        n.strip_prefix("rows-")
            .and_then(|r| r.strip_suffix(".json"))
            .is_some_and(|d| d.len() == 6 && d.bytes().all(|b| b.is_ascii_digit()))
    };
    !store.is_file(&dir.join(STATE))
        && store.list(dir).is_ok_and(|entries| {
            entries
                .iter()
                .all(|e| !e.is_dir && (is_rows(&e.name) || crate::store::is_temporary(&e.name)))
        })
}

/// Reads only the identity of a checkpoint, to tell whose it is.
pub(crate) fn read_identity(store: &dyn Store, dir: &Path) -> Result<CheckpointFile, FileError> {
    let path = dir.join(STATE);
    let bytes = store.read(&path).map_err(|e| unreadable(&path, e))?;
    let file: CheckpointFile = serde_json::from_slice(&bytes).map_err(|e| damaged(&path, e))?;
    if file.format != CHECKPOINT_FORMAT {
        return Err(FileError::NotCheckpoint {
            path,
            found: file.format,
        });
    }
    Ok(file)
}

/// The rows of one rows file of a checkpoint.
fn read_rows(store: &dyn Store, path: &Path, cells: &[Cell]) -> Result<Vec<GameRow>, FileError> {
    let bytes = store.read(path).map_err(|e| unreadable(path, e))?;
    let stored: Vec<GameLine> = serde_json::from_slice(&bytes).map_err(|e| damaged(path, e))?;
    stored
        .iter()
        .map(|s| {
            s.to_row(cells).map_err(|error| FileError::Row {
                path: path.to_path_buf(),
                error: Box::new(error),
            })
        })
        .collect()
}

fn unreadable(path: &Path, e: std::io::Error) -> FileError {
    FileError::CheckpointUnreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}

fn damaged(path: &Path, e: serde_json::Error) -> FileError {
    FileError::CheckpointDamaged {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}

/// Removes the files a save wrote without finishing, which are not part
/// of the state: temporaries, and rows files from number `row_files` on.
fn remove_unfinished_saves(store: &dyn Store, dir: &Path, row_files: u64) {
    store.remove_temporaries(dir);
    let mut n = row_files;
    while store.is_file(&dir.join(rows_file(n)))
        && store.remove_file(&dir.join(rows_file(n))).is_ok()
    {
        n += 1;
    }
}

/// Removes `dir` when it is what a first save stopped before its
/// `state.json` left: it holds no state.
fn remove_if_unfinished(store: &dyn Store, dir: &Path) -> Result<(), FileError> {
    if is_unfinished_first_save(store, dir) {
        store.remove_all(dir).map_err(|e| FileError::Undeletable {
            path: dir.to_path_buf(),
            reason: e.to_string(),
        })?;
    }
    Ok(())
}

/// Loads the checkpoint in `dir` (already known to be this experiment's and
/// this build's, or another build's allowed by `--allow-other-build`), with its rows; `None` when there is none.
pub(crate) fn load(
    store: &dyn Store,
    dir: &Path,
    cells: &[Cell],
) -> Result<Option<(CheckpointFile, Resume)>, FileError> {
    if !store.is_file(&dir.join(STATE)) {
        remove_if_unfinished(store, dir)?;
        return Ok(None);
    }
    let file = read_identity(store, dir)?;
    if !file.layout_fits(cells) {
        return Err(FileError::OtherLayout {
            dir: dir.to_path_buf(),
        });
    }
    let mut rows = Vec::new();
    for n in 0..file.row_files {
        rows.extend(read_rows(store, &dir.join(rows_file(n)), cells)?);
    }
    remove_unfinished_saves(store, dir, file.row_files);
    let state = file.state.clone();
    Ok(Some((file, Resume { state, rows })))
}
