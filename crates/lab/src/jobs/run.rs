//! `katro run`: a whole experiment or one shard of it, played with
//! checkpoints, resumed or grown from what the output folder holds.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::checkpoint::{self, Identity, Saver};
use super::exact::{ExactFiles, exact_cells};
use super::growth::{Growing, growth};
use super::load::{Loaded, load_experiment};
use super::out_folder::{check_out_writable, clear_folder, lock_folder};
use super::owned::Folder;
use super::results::{
    ManifestBase, Played, RunOutcome, finish_experiment, manifest, per_second, played_text,
};
use super::survey::{Again, Writer, read_manifest};
use super::{
    CheckpointNote, Damage, Error, Failure, Interruption, Progress, Refusal, grow, now, plural,
    threads_or_all,
};
use crate::experiment::Experiment;
use crate::experiment::runner::{self, Cell, Layout, Part, Rows, RunError, Work};
use crate::experiment::stats::Aggregate;
use crate::experiment::verdict::StartValue;
use crate::files::{
    BUILD, ExperimentSource, FileError, GameLine, Manifest, ManifestRead, RunHeader, SHARD_FORMAT,
    ShardFile, other_builds, summary_table,
};
use crate::store::Store;

/// What `katro run` is asked to do.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The experiment file.
    pub experiment: String,
    /// Threads to play on; all the machine has when `None`.
    pub threads: Option<usize>,
    /// The output folder; the experiment's `output`, else `results/<name>`.
    pub out: Option<String>,
    /// (I, N) for shard I of N.
    pub shard: Option<(u64, u64)>,
    /// Start afresh: play every game again, replacing only the files
    /// katro wrote ([`super::FORCE_MEANS`]).
    pub force: bool,
    /// Use checkpoints, shards and results of another katro build.
    pub allow_other_build: bool,
    /// The command line, as the manifest records it.
    pub command: Vec<String>,
    /// How often a checkpoint is written.
    pub checkpoint_every: Duration,
    /// Set by the caller to stop the run (Ctrl-C): it saves a checkpoint
    /// and fails with code 130, saying how to go on.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Files of the prover's values of starts (`--proved`, as `katro
    /// report` takes them): each verdict line of a game they valued says
    /// it. Read before any game is played.
    pub proved: Vec<String>,
}

impl RunOptions {
    /// Options for a whole run of `experiment` with katro's defaults.
    pub fn new(experiment: impl Into<String>) -> RunOptions {
        RunOptions {
            experiment: experiment.into(),
            threads: None,
            out: None,
            shard: None,
            force: false,
            allow_other_build: false,
            command: Vec::new(),
            checkpoint_every: Duration::from_secs(1),
            stop: None,
            proved: Vec::new(),
        }
    }

    /// This run as the `katro run` command a message tells the user to
    /// type: the words that choose what is played and where (not
    /// `--threads`, which changes no result), with `--allow-other-build`
    /// as asked or as `other_build` adds it, and `--force` when `force`.
    pub fn command_line(&self, force: bool, other_build: bool) -> String {
        let mut words = vec!["katro".to_string(), "run".into(), self.experiment.clone()];
        if let Some(o) = &self.out {
            words.extend(["--out".into(), o.clone()]);
        }
        if let Some((i, n)) = self.shard {
            words.extend(["--shard".into(), format!("{i}/{n}")]);
        }
        if self.allow_other_build || other_build {
            words.push("--allow-other-build".into());
        }
        if force {
            words.push("--force".into());
        }
        super::command_line(&words)
    }

    /// The command that goes on from where this run stopped: never with
    /// `--force`, which would start afresh.
    fn resume_line(&self) -> String {
        self.command_line(false, false)
    }
}

/// `katro run EXPERIMENT.toml [--shard I/N] [--force]`: plays what the
/// output folder does not hold yet and writes the results (or the shard).
pub fn run(
    opts: &RunOptions,
    store: &dyn Store,
    progress: &dyn Progress,
) -> Result<RunOutcome, Error> {
    let l = load_experiment(store, &opts.experiment)?;
    let starts = super::report_files::start_values(store, &opts.proved)?;
    let skipped = skipped_text(&l.exp);
    if !skipped.is_empty() {
        progress.note(skipped.trim_end());
    }
    // Before the folder is touched (checking it is writable creates it).
    let exact = exact_cells(&l.exp, &l.path, threads_or_all(opts.threads))?;
    let plan = RunPlan::new(opts, store, progress, &l, exact, starts)?;
    let _lock = lock_folder(store, progress, &plan.out_dir, plan.part, &opts.command)?;
    let before = match plan.part {
        Part::Whole if !opts.force => read_manifest(store, &plan.out_dir),
        _ => None,
    };
    let growing = plan.growing(before.as_ref())?;
    plan.survey_folder(growing.as_ref())?;
    if let Some(done) = before.as_ref().and_then(|m| plan.finished_already(m)) {
        return Ok(done);
    }
    plan.play(growing.as_ref())
}

/// One `katro run`, decided before anything is read from the folder: the
/// experiment, where its results go, which part is played, and the
/// fingerprint and text every file it writes carries.
struct RunPlan<'a> {
    opts: &'a RunOptions,
    store: &'a dyn Store,
    progress: &'a dyn Progress,
    l: &'a Loaded,
    out_dir: PathBuf,
    cells: Vec<Cell<'a>>,
    rows: Rows,
    hash: String,
    source: ExperimentSource,
    part: Part,
    cp_dir: PathBuf,
    /// The `openings = "exact"` matchups, followed before the folder is
    /// touched, so one katro cannot follow is refused before any game and
    /// leaves no trace (crates/lab/src/jobs/exact.rs). A shard follows them for that alone: the
    /// whole run and the merge write them.
    exact: Option<ExactFiles>,
    /// The prover's values of starts, for the verdict lines.
    starts: Vec<StartValue>,
}

/// What one session of play did, for the files and the text.
struct Session {
    result: runner::RunResult,
    threads: usize,
    /// Start and end, UTC.
    times: (String, String),
    /// Seconds this session played.
    wall: f64,
    new_games: u64,
    resumed_games: u64,
}

/// The run's output folder, once it is writable; a refusal names where
/// the folder came from: `--out`, the experiment's `output` or its name.
fn writable_out_dir(
    store: &dyn Store,
    opts: &RunOptions,
    path: &str,
    exp: &Experiment,
) -> Result<PathBuf, Error> {
    let (out_dir, origin) = match (&opts.out, &exp.output) {
        (Some(o), _) => (PathBuf::from(o), format!("--out {o}")),
        (None, Some(o)) => (PathBuf::from(o), format!("{path}: `output`")),
        (None, None) => (
            Path::new("results").join(&exp.name),
            format!("{path}: `name` (the default output folder is results/<name>/)"),
        ),
    };
    check_out_writable(store, &out_dir, Some(origin))?;
    Ok(out_dir)
}

/// The text, the files written, and the games played and kept.
type Finished = (String, Vec<String>, u64, u64);

impl<'a> RunPlan<'a> {
    fn new(
        opts: &'a RunOptions,
        store: &'a dyn Store,
        progress: &'a dyn Progress,
        l: &'a Loaded,
        exact: Option<ExactFiles>,
        starts: Vec<StartValue>,
    ) -> Result<RunPlan<'a>, Error> {
        let (path, exp) = (&l.path, &l.exp);
        let out_dir = writable_out_dir(store, opts, path, exp)?;
        let part = match opts.shard {
            None => Part::Whole,
            Some((index, count)) => Part::Shard { index, count },
        };
        Ok(RunPlan {
            starts,
            opts,
            store,
            progress,
            l,
            cp_dir: checkpoint::folder(&out_dir, part),
            out_dir,
            cells: exp.cells(),
            rows: exp.rows(),
            hash: exp.fingerprint(),
            source: ExperimentSource::new(path, &l.text),
            part,
            exact,
        })
    }

    /// Finished results of an earlier version of this experiment, whose
    /// games a whole run keeps when it only adds to them.
    fn growing(&self, before: Option<&ManifestRead>) -> Result<Option<Growing>, Error> {
        let exp = &self.l.exp;
        match before {
            Some(m)
                if (m.run.experiment_hash != self.hash || !m.same_text(&self.source))
                    && m.run.name == exp.name
                    && m.files.iter().any(|f| f == grow::RUN_STATE) =>
            {
                Ok(Some(growth(
                    self.store,
                    (&self.out_dir, m),
                    exp,
                    &self.cells,
                    self.opts.allow_other_build,
                    (
                        &self.opts.command_line(true, false),
                        &self.opts.command_line(false, true),
                    ),
                )?))
            }
            _ => Ok(None),
        }
    }

    /// Refuses a folder holding what this run must not reuse or replace,
    /// or clears it under `--force`.
    fn survey_folder(&self, growing: Option<&Growing>) -> Result<(), Error> {
        let w = Writer {
            hash: &self.hash,
            text_fnv: Some(&self.source.fnv1a64),
            grows: growing.map(|g| g.old.run.experiment_hash.as_str()),
            shards: Some(self.opts.shard.map_or(0, |(_, n)| n)),
            allow_other_build: self.opts.allow_other_build,
        };
        let again = Again {
            same: self.opts.command_line(self.opts.force, false),
            forced: self.opts.command_line(true, false),
            other_build: Some(self.opts.command_line(false, true)),
        };
        let (store, progress, force) = (self.store, self.progress, self.opts.force);
        let name = &self.l.exp.name;
        clear_folder(store, progress, (&self.out_dir, &w), force, name, &again)
    }

    /// The outcome when the folder already holds this experiment's
    /// complete results (manifest `m`): nothing to play.
    fn finished_already(&self, m: &ManifestRead) -> Option<RunOutcome> {
        let (store, out_dir) = (self.store, &self.out_dir);
        if !(m.run.experiment_hash == self.hash
            && m.same_text(&self.source)
            && !store.is_dir(&self.cp_dir)
            && m.files.iter().all(|f| store.is_file(&out_dir.join(f))))
        {
            return None;
        }
        let build = other_build_note(&m.run.katro_build);
        let table = self.finished_table();
        Some(RunOutcome {
            text: format!(
                "{table}experiment `{}` is complete: its {} are in {}; nothing to play. \
                 `{}` starts afresh, {}, and plays every game again{build}\n",
                self.l.exp.name,
                plural(m.games, "game"),
                out_dir.display(),
                self.opts.command_line(true, false),
                super::FORCE_MEANS
            ),
            out_dir: out_dir.clone(),
            files: Vec::new(),
            played: 0,
            kept: m.games,
            already_complete: true,
        })
    }

    /// The table a run prints, from the run state's exact aggregates, so
    /// a rerun shows the results it did not need to play; empty when the
    /// run state is not there or not of these cells.
    fn finished_table(&self) -> String {
        let (store, out_dir, cells) = (self.store, &self.out_dir, &self.cells);
        store
            .read(&out_dir.join(grow::RUN_STATE))
            .ok()
            .and_then(|b| grow::FinishedRun::parse_any_format(&b).ok())
            .filter(|old| {
                old.run.experiment_hash == self.hash
                    && old.cells.len() == cells.len()
                    && old
                        .cells
                        .iter()
                        .zip(cells)
                        .all(|(f, c)| grow::same_place(f, c))
            })
            .map(|old| {
                let aggregates: Vec<_> = old.cells.into_iter().map(|c| c.aggregate).collect();
                summary_table(cells, &aggregates, Some("manifest.json"), &self.starts) + "\n"
            })
            .unwrap_or_default()
    }

    /// The checkpoint of an interrupted run of `work`, checked to fit it;
    /// under `--force`, which starts afresh, deleted instead.
    fn checkpoint(
        &self,
        work: &Work,
    ) -> Result<Option<(crate::files::CheckpointFile, runner::Resume)>, Error> {
        let cp_dir = &self.cp_dir;
        let loaded = checkpoint::load(self.store, cp_dir, work.cells).and_then(|l| match &l {
            Some((_, r)) => runner::check_resume(work, r)
                .map_err(FileError::Resume)
                .map(|()| l),
            None => Ok(l),
        });
        match loaded {
            Ok(None) => Ok(None),
            _ if self.opts.force => self.delete_checkpoint(loaded.map(|l| l.map(|(f, _)| f))),
            Ok(l) => Ok(l),
            Err(error) => Err(Damage::Checkpoint {
                error: Box::new(error),
                forced: self.opts.command_line(true, false),
            }
            .into()),
        }
    }

    /// `--force` with a checkpoint there (`loaded`, or why it does not
    /// fit): deleted, so the run starts afresh.
    fn delete_checkpoint<T>(
        &self,
        loaded: Result<Option<crate::files::CheckpointFile>, FileError>,
    ) -> Result<Option<T>, Error> {
        let cp_dir = &self.cp_dir;
        self.store
            .remove_all(cp_dir)
            .map_err(|error| Failure::ForceDelete {
                path: cp_dir.clone(),
                error,
            })?;
        let what = match loaded {
            Ok(f) => format!(
                "the checkpoint in {} ({} played)",
                cp_dir.display(),
                plural(f.map_or(0, |f| f.state.games()), "game")
            ),
            Err(e) => format!("the unusable checkpoint ({e})"),
        };
        self.progress.note(&format!(
            "--force: deleted {what}, to start afresh: every game is played again"
        ));
        Ok(None)
    }

    /// Where a grown run starts when no checkpoint is there: continued
    /// `[precision]` cells settled at the games they played. The first
    /// checkpoint holds those games' rows, so an interrupted grown run
    /// resumes like any other.
    fn grown_start(
        &self,
        g: &Growing,
        d: &grow::Delta,
        saver: &Saver,
    ) -> Result<runner::Resume, Error> {
        let state = grow::start_state(&g.old, d, &g.sources);
        let start_rows = g.continued_rows(d, self.rows).map_err(Refusal::KeptGames)?;
        if state.games() > 0 {
            runner::Checkpoint::save(saver, &state, &start_rows)
                .map_err(|e| interrupted(self.store, e.into(), saver, &self.opts.resume_line()))?;
        }
        Ok(runner::Resume {
            state,
            rows: start_rows,
        })
    }

    /// Plays what is left (from the checkpoint, or a grown run's new
    /// games) and writes the results or the shard.
    fn play(&self, growing: Option<&Growing>) -> Result<RunOutcome, Error> {
        let exp = &self.l.exp;
        // What this run plays: every cell, or a grown run's new games.
        let delta = growing.map(|g| grow::delta(&self.cells, &g.sources));
        let work_cells: &[Cell] = delta.as_ref().map_or(&self.cells, |d| &d.cells);
        let work = Work {
            cells: work_cells,
            master: exp.seed,
            rows: self.rows,
            part: self.part,
            first_games: delta.as_ref().map_or(&[], |d| &d.first_games),
        };
        let loaded = self.checkpoint(&work)?;
        let saver = self.saver(work_cells, loaded.as_ref().map(|(f, _)| f));
        let resumed_games = loaded.as_ref().map_or(0, |(f, _)| f.state.games());
        let resume = self.resume(loaded, growing, delta.as_ref(), &saver)?;
        // A grown run's checkpoint also holds the continued cells' kept games.
        let resumed_games =
            resumed_games.saturating_sub(growing.map_or(0, Growing::continued_games));
        let session = self.session(&work, &saver, resume, resumed_games)?;
        let (text, files, played, kept) = match self.part {
            Part::Whole => self.finish_whole(growing, delta.as_ref(), &saver, session)?,
            Part::Shard { index, count } => self.finish_shard(index, count, &saver, session)?,
        };
        self.remove_checkpoint()?;
        Ok(self.outcome(text, files, played, kept))
    }

    /// What a run that played did: `text` to print, the `files` written,
    /// the games `played` and `kept`.
    fn outcome(&self, text: String, files: Vec<String>, played: u64, kept: u64) -> RunOutcome {
        RunOutcome {
            out_dir: self.out_dir.clone(),
            files,
            played,
            kept,
            already_complete: false,
            text,
        }
    }

    /// The checkpoint writer of this run of `cells`, going on from `loaded`.
    fn saver<'s>(
        &'s self,
        cells: &'s [Cell<'s>],
        loaded: Option<&crate::files::CheckpointFile>,
    ) -> Saver<'s> {
        let id = Identity {
            experiment_hash: self.hash.clone(),
            name: self.l.exp.name.clone(),
            part: self.part,
            experiment: self.opts.experiment.clone(),
        };
        Saver::new(
            self.store,
            self.cp_dir.clone(),
            id,
            cells,
            self.opts.checkpoint_every,
            loaded,
            self.opts.stop.clone(),
        )
    }

    /// Where play starts: the checkpoint `loaded`, else a grown run's
    /// continued cells, else nothing; told to the user.
    fn resume(
        &self,
        loaded: Option<(crate::files::CheckpointFile, runner::Resume)>,
        growing: Option<&Growing>,
        delta: Option<&grow::Delta>,
        saver: &Saver,
    ) -> Result<Option<runner::Resume>, Error> {
        let progress = self.progress;
        if let Some((f, _)) = &loaded {
            progress.note(&format!(
                "resuming from the checkpoint in {}: {} already played",
                self.cp_dir.display(),
                plural(f.state.games(), "game")
            ));
        }
        let mut resume = loaded.map(|(_, r)| r);
        if let (Some(g), Some(d)) = (growing, delta) {
            progress.note(&growing_note(&self.out_dir, g));
            if resume.is_none() {
                resume = Some(self.grown_start(g, d, saver)?);
            }
        }
        Ok(resume)
    }

    /// Plays `work` from `resume`.
    fn session(
        &self,
        work: &Work,
        saver: &Saver,
        resume: Option<runner::Resume>,
        resumed_games: u64,
    ) -> Result<Session, Error> {
        let before_games = resume.as_ref().map_or(0, |r| r.state.games());
        if !saver.other_builds.is_empty() {
            self.progress.note(&kept_builds_note(&saver.other_builds));
        }
        let threads = threads_or_all(self.opts.threads);
        let start_time = now();
        let clock = Instant::now();
        let result = runner::run(work, threads, self.progress, saver, resume)
            .map_err(|e| interrupted(self.store, e, saver, &self.opts.resume_line()))?;
        let wall = clock.elapsed().as_secs_f64();
        let new_games = result.state.games() - before_games;
        Ok(Session {
            result,
            threads,
            times: (start_time, now()),
            wall,
            new_games,
            resumed_games,
        })
    }

    /// The results are complete: the checkpoint has done its job.
    fn remove_checkpoint(&self) -> Result<(), Error> {
        self.store
            .remove_all(&self.cp_dir)
            .map_err(|error| Failure::DeleteCheckpoint {
                path: self.cp_dir.clone(),
                error,
            })?;
        let _ = self
            .store
            .remove_dir(&self.out_dir.join(checkpoint::FOLDER));
        Ok(())
    }

    /// A whole run's files: the results (with a grown run's kept games),
    /// the manifest and the run state.
    fn finish_whole(
        &self,
        growing: Option<&Growing>,
        delta: Option<&grow::Delta>,
        saver: &Saver,
        mut s: Session,
    ) -> Result<Finished, Error> {
        let cells = &self.cells[..];
        let (aggregates, all_rows, kept) = all_games(cells, growing, delta, &mut s)?;
        let mut m = self.whole_manifest(&s, &aggregates);
        m.kept_games = kept;
        m.run.other_builds = kept_other_builds(saver, growing);
        let (written, mut text) = finish_experiment(
            self.store,
            &self.out_dir,
            &self.l.exp,
            Played {
                cells,
                aggregates: &aggregates,
                rows: &all_rows,
            },
            m,
            self.exact.as_ref(),
            &self.starts,
        )
        .map_err(|e| after_start(self.store, e, saver, &self.opts.resume_line()))?;
        let also = games_not_played(s.resumed_games, kept);
        text.push_str(&played_text(
            s.new_games,
            s.wall,
            s.threads,
            &also,
            &written,
            &self.out_dir,
        ));
        Ok((text, written, s.new_games, kept + s.resumed_games))
    }

    /// A whole run's manifest of `aggregates`, with session `s`'s threads,
    /// times and speed.
    fn whole_manifest(&self, s: &Session, aggregates: &[Aggregate]) -> Manifest {
        let exp = &self.l.exp;
        let mut m = manifest(
            ManifestBase {
                command: &self.opts.command,
                name: &exp.name,
                experiment: Some(self.source.clone()),
                hash: &self.hash,
                seed: exp.seed,
                cells: &self.cells,
                aggregates,
            },
            s.threads,
            s.times.clone(),
            s.wall,
        );
        m.resumed_games = s.resumed_games;
        m.skipped_variants = exp.skipped.clone();
        m.games_per_second = per_second(s.new_games, s.wall);
        m
    }

    /// What a shard run tells: the games it `played` (games, seconds,
    /// threads), the file it wrote at `path`, and the merge to come.
    fn shard_text(
        &self,
        index: u64,
        count: u64,
        (games, wall, threads): (u64, f64, usize),
        path: &Path,
    ) -> String {
        format!(
            "shard {index}/{count} of `{}`: {} in {:.1} s on {}; wrote {}\n\
             once every shard is done: katro merge {}\n",
            self.l.exp.name,
            plural(games, "game"),
            wall,
            plural(threads as u64, "thread"),
            path.display(),
            self.out_dir.display()
        )
    }

    /// Shard `index` of `count` as its file holds it: the games session
    /// played on `threads` over `times`, with everything a merge needs.
    fn shard_file(
        &self,
        index: u64,
        count: u64,
        saver: &Saver,
        threads: usize,
        times: (String, String),
        result: runner::RunResult,
    ) -> ShardFile {
        ShardFile {
            format: SHARD_FORMAT.into(),
            run: RunHeader::new(&self.hash, &self.l.exp.name, saver.other_builds.clone()),
            shard: index,
            shards: count,
            experiment: self.source.clone(),
            variant_files: self.l.variant_files.clone(),
            layout: Layout::new(&self.cells).cells,
            threads,
            start_time: times.0,
            end_time: times.1,
            wall_seconds: saver.wall_seconds(),
            games: result.state.games(),
            rows: result
                .rows
                .iter()
                .map(|r| GameLine::of(&self.cells, r))
                .collect(),
            state: result.state,
        }
    }

    /// Writes the shard file `dir/name` unless a file there is not
    /// katro's shard. Shards are known for katro's by their header, not
    /// the ledger: shards on several machines write into one folder at
    /// once.
    fn write_shard(
        &self,
        dir: &Path,
        name: &str,
        bytes: &[u8],
        saver: &Saver,
    ) -> Result<(), Error> {
        let store = self.store;
        let rel = format!("shards/{name}");
        let whose = Folder::open(store, &self.out_dir)
            .whose(&rel)
            .map_err(|e| failed_after_start(store, e, saver, &self.opts.resume_line()))?;
        if !whose.replaceable() {
            let path = dir.join(name);
            let again = self.opts.resume_line();
            return Err(Refusal::ShardNotOurs { path, whose, again }.into());
        }
        store
            .create_dir_all(dir)
            .and_then(|()| store.write_atomic(dir, name, bytes))
            .map_err(|error| {
                let path = dir.join(name);
                let again = self.opts.resume_line();
                failed_after_start(store, Failure::Write { path, error }.into(), saver, &again)
            })?;
        Ok(())
    }

    /// A shard's one file, for `katro merge`.
    fn finish_shard(
        &self,
        index: u64,
        count: u64,
        saver: &Saver,
        s: Session,
    ) -> Result<Finished, Error> {
        let (games, threads, wall) = (s.result.state.games(), s.threads, s.wall);
        let shard = self.shard_file(index, count, saver, s.threads, s.times, s.result);
        let dir = self.out_dir.join("shards");
        let name = shard_file_name(index, count);
        let bytes = serde_json::to_vec(&shard).expect("a shard serialises");
        self.write_shard(&dir, &name, &bytes, saver)?;
        let played = (games - s.resumed_games, wall, threads);
        let text = self.shard_text(index, count, played, &dir.join(&name));
        Ok((
            text,
            vec![format!("shards/{name}")],
            games - s.resumed_games,
            s.resumed_games,
        ))
    }
}

/// What a complete rerun adds when another build played the games;
/// empty when this build did.
fn other_build_note(build: &str) -> String {
    if build == BUILD {
        String::new()
    } else {
        format!("\nthey were played by katro build {build}; this is build {BUILD}")
    }
}

/// The note that a grown run keeps the finished run's games in `out_dir`.
fn growing_note(out_dir: &Path, g: &Growing) -> String {
    let kept: u64 = g.old.cells.iter().map(|c| c.aggregate.games).sum();
    format!(
        "growing the results in {}: {} of experiment `{}` (hash {}) are kept; only the \
         new games are played",
        out_dir.display(),
        plural(kept, "game"),
        g.old.run.name,
        g.old.run.experiment_hash
    )
}

/// The note that games of the `other` builds are kept under
/// `--allow-other-build`.
fn kept_builds_note(other: &[String]) -> String {
    format!(
        "--allow-other-build: games played by katro build {} are kept; this is build \
         {BUILD}; the results list both",
        other.join(", ")
    )
}

/// Every cell's aggregate and the rows of all games, and how many were
/// kept: a grown run's kept games with the session's, else the session's.
fn all_games(
    cells: &[Cell],
    growing: Option<&Growing>,
    delta: Option<&grow::Delta>,
    s: &mut Session,
) -> Result<(Vec<Aggregate>, Vec<runner::GameRow>, u64), Error> {
    Ok(match (growing, delta) {
        (Some(g), Some(d)) => g.combine(cells, d, &s.result).map_err(Refusal::KeptGames)?,
        _ => (s.result.aggregates(), std::mem::take(&mut s.result.rows), 0),
    })
}

/// The other builds whose games the results hold: those the checkpoint
/// kept, and a grown run's earlier ones with the build that played them.
fn kept_other_builds(saver: &Saver, growing: Option<&Growing>) -> Vec<String> {
    let other = saver.other_builds.clone();
    let Some(g) = growing else {
        return other;
    };
    other_builds(
        BUILD,
        other
            .iter()
            .chain(&g.old.run.other_builds)
            .chain([&g.old.run.katro_build])
            .map(String::as_str),
    )
}

/// The games a run did not play this time, as its closing line tells
/// them.
fn games_not_played(resumed: u64, kept: u64) -> Vec<String> {
    let mut also = Vec::new();
    if resumed > 0 {
        also.push(format!("{resumed} resumed from the checkpoint"));
    }
    if kept > 0 {
        also.push(format!("{kept} kept from the results already there"));
    }
    also
}

/// A run stopped by an error after it started playing, or by the user:
/// says what of its work is safe, and the command that goes on (`again`).
fn interrupted(store: &dyn Store, e: RunError, saver: &Saver, again: &str) -> Error {
    if e != RunError::Stopped {
        return failed_after_start(store, Failure::Run(e).into(), saver, again);
    }
    if !store.is_file(&saver.dir().join("state.json")) {
        let again = again.to_string();
        return Error::Interrupted(Interruption::NothingSaved { again });
    }
    Error::Interrupted(Interruption::Saved {
        games: saver.games_saved.load(std::sync::atomic::Ordering::Relaxed),
        cells: saver.cells_saved.load(std::sync::atomic::Ordering::Relaxed),
        of_cells: saver.cell_count() as u64,
        dir: saver.dir().to_path_buf(),
        again: again.to_string(),
    })
}

/// A run that failed after it started playing: the failure, and whether
/// its last checkpoint is there to go on from (with `again`).
fn failed_after_start(store: &dyn Store, cause: Error, saver: &Saver, again: &str) -> Error {
    let checkpoint = checkpoint_note(store, saver, again);
    Failure::AfterStart {
        cause: Box::new(cause),
        checkpoint,
    }
    .into()
}

/// A job's error after the run started playing, with what of its work is
/// safe. A refusal stays a refusal (exit 2): a file of the user's that
/// appeared at an output name while the games were played is bad input,
/// not a machine's failure.
fn after_start(store: &dyn Store, e: Error, saver: &Saver, again: &str) -> Error {
    let checkpoint = checkpoint_note(store, saver, again);
    match e {
        Error::Refused(r) => Refusal::AfterStart {
            refusal: Box::new(r),
            checkpoint,
        }
        .into(),
        Error::Damaged(d) => Damage::AfterStart {
            damage: Box::new(d),
            checkpoint,
        }
        .into(),
        other => failed_after_start(store, other, saver, again),
    }
}

/// Whether the last checkpoint is there to go on from, with `again`.
fn checkpoint_note(store: &dyn Store, saver: &Saver, again: &str) -> CheckpointNote {
    if store.is_file(&saver.dir().join("state.json")) {
        CheckpointNote::Intact {
            games: saver.games_saved.load(std::sync::atomic::Ordering::Relaxed),
            dir: saver.dir().to_path_buf(),
            again: again.to_string(),
        }
    } else {
        CheckpointNote::NoneYet
    }
}

/// The sweep combinations an experiment leaves out, as told on the
/// console; empty when none.
fn skipped_text(exp: &Experiment) -> String {
    let mut out = String::new();
    if !exp.skipped.is_empty() {
        out.push_str(&format!(
            "skip_invalid: {} left out:\n",
            plural(exp.skipped.len() as u64, "invalid sweep combination")
        ));
        for s in &exp.skipped {
            out.push_str(&format!("  {}: {}\n", s.variant, s.reasons.join("; ")));
        }
    }
    out
}

pub fn shard_file_name(index: u64, count: u64) -> String {
    format!("shard-{index}-of-{count}.json")
}
