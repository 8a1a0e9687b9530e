//! `katro simulate`: one matchup on one variant, its results written only
//! with `--out`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::out_folder::{check_out_writable, clear_folder, lock_folder};
use super::results::{
    ManifestBase, Results, RunOutcome, manifest, per_second, played_text, write_results,
};
use super::survey::{Again, Writer};
use super::{Error, Failure, Progress, now, threads_or_all};
use crate::agents::AgentSpec;
use crate::experiment::runner::{self, Cell, NoCheckpoint, Part, Rows, Stop, Work};
use crate::experiment::{Compare, fingerprint};
use crate::files::summary_table;
use crate::rules::Rules;
use crate::store::Store;

/// What `katro simulate` is asked to do.
#[derive(Clone, Debug)]
pub struct SimulateOptions {
    /// The rules, a `--ply-limit` applied.
    pub rules: Rules,
    pub p1: AgentSpec,
    pub p2: AgentSpec,
    /// Uniformly random plies opening each game, as an experiment's
    /// `opening_plies`: the caller checks them as an experiment's are
    /// ([`crate::experiment::OPENING_PLIES_RANGE`],
    /// [`crate::experiment::opening_reaches_limit`]).
    pub opening_plies: u32,
    pub games: u64,
    pub seed: u64,
    /// Where to write results; none are written when `None`.
    pub out: Option<String>,
    pub threads: Option<usize>,
    pub force: bool,
    /// The command line, as the manifest records it.
    pub command: Vec<String>,
    /// Files of the prover's values of starts (`--proved`): the verdict
    /// line says what they proved of this game's start.
    pub proved: Vec<String>,
}

impl SimulateOptions {
    /// This simulation as the command a message tells the user to type:
    /// the words it was given (its options as `katro simulate` takes them
    /// when a caller gave none), `--force` when `force`.
    fn command_line(&self, force: bool) -> String {
        let mut words: Vec<String> = match self.command.split_first() {
            Some((_, args)) => args.iter().filter(|w| *w != "--force").cloned().collect(),
            None => vec![
                "simulate".into(),
                self.rules.name().into(),
                "--games".into(),
                self.games.to_string(),
                "--p1".into(),
                self.p1.to_string(),
                "--p2".into(),
                self.p2.to_string(),
                "--seed".into(),
                self.seed.to_string(),
                "--opening-plies".into(),
                self.opening_plies.to_string(),
                "--ply-limit".into(),
                self.rules.settings().ply_limit.to_string(),
                "--out".into(),
                self.out.clone().unwrap_or_default(),
            ],
        };
        words.insert(0, "katro".into());
        if force {
            words.push("--force".into());
        }
        super::command_line(&words)
    }
}

/// `katro simulate VARIANT --games N --p1 AGENT --p2 AGENT [--out DIR]`.
pub fn simulate(
    opts: &SimulateOptions,
    store: &dyn Store,
    progress: &dyn Progress,
) -> Result<RunOutcome, Error> {
    let cells = [Cell {
        opening_plies: opts.opening_plies,
        ..matchup(&opts.rules, &opts.p1, &opts.p2, opts.games)
    }];
    let name = format!("simulate-{}", opts.rules.name());
    let hash = fingerprint(&name, opts.seed, Rows::None, &cells);
    let starts = super::report_files::start_values(store, &opts.proved)?;
    // Checked before a game is played, as `run` does.
    let out = match &opts.out {
        Some(o) => Some(simulate_folder(opts, store, progress, o, &name, &hash)?),
        None => None,
    };
    let threads = threads_or_all(opts.threads);
    let start_time = now();
    let clock = Instant::now();
    let result = play_games(&cells, opts.seed, threads, progress)?;
    let wall = clock.elapsed().as_secs_f64();
    let aggregates = result.aggregates();
    let mut text = summary_table(
        &cells,
        &aggregates,
        out.as_ref().map(|_| "manifest.json"),
        &starts,
    );
    let mut files = Vec::new();
    if let Some((dir, _lock)) = &out {
        let base = ManifestBase {
            command: &opts.command,
            name: &name,
            experiment: None,
            hash: &hash,
            seed: opts.seed,
            cells: &cells,
            aggregates: &aggregates,
        };
        files = write_simulation(store, dir, base, threads, start_time, wall)?;
        text.push_str(&played_text(opts.games, wall, threads, &[], &files, dir));
    }
    Ok(RunOutcome {
        out_dir: out.map(|(dir, _)| dir).unwrap_or_default(),
        files,
        played: opts.games,
        kept: 0,
        already_complete: false,
        text,
    })
}

/// The one cell a simulation (or a bench round) plays: `games` games of
/// `p1` against `p2` on `rules`, no opening, no metrics.
pub(super) fn matchup<'a>(
    rules: &'a Rules,
    p1: &'a AgentSpec,
    p2: &'a AgentSpec,
    games: u64,
) -> Cell<'a> {
    Cell {
        rules,
        p1,
        p2,
        opening_plies: 0,
        stop: Stop::Games(games),
        metrics: None,
        balance_margin: None,
    }
}

/// Plays every game of `cells`, no checkpoint kept and no rows.
pub(super) fn play_games(
    cells: &[Cell],
    seed: u64,
    threads: usize,
    progress: &dyn Progress,
) -> Result<runner::RunResult, Error> {
    let work = Work {
        cells,
        master: seed,
        rows: Rows::None,
        part: Part::Whole,
        first_games: &[],
    };
    Ok(runner::run(&work, threads, progress, &NoCheckpoint, None).map_err(Failure::Run)?)
}

/// Writes the simulation's results and manifest into `dir`: the files
/// written.
fn write_simulation(
    store: &dyn Store,
    dir: &Path,
    base: ManifestBase,
    threads: usize,
    start_time: String,
    wall: f64,
) -> Result<Vec<String>, Error> {
    let results = Results {
        cells: base.cells,
        aggregates: base.aggregates,
        games: None,
        compare: &Compare::default(),
        tournament: None,
        state: None,
        exact: None,
    };
    let mut m = manifest(base, threads, (start_time, now()), wall);
    m.games_per_second = per_second(m.games, wall);
    write_results(store, dir, &results, m)
}

/// `simulate --out DIR`'s folder, writable, locked and clear of what is
/// not this simulation's (or cleared under `--force`), with its lock.
fn simulate_folder<'a>(
    opts: &SimulateOptions,
    store: &'a dyn Store,
    progress: &dyn Progress,
    o: &str,
    name: &str,
    hash: &str,
) -> Result<(PathBuf, Box<dyn Send + 'a>), Error> {
    let dir = PathBuf::from(o);
    check_out_writable(store, &dir, Some(format!("--out {o}")))?;
    let lock = lock_folder(store, progress, &dir, Part::Whole, &opts.command)?;
    let w = Writer {
        hash,
        text_fnv: None,
        grows: None,
        shards: None,
        allow_other_build: false,
    };
    let again = Again {
        same: opts.command_line(opts.force),
        forced: opts.command_line(true),
        other_build: None,
    };
    clear_folder(store, progress, (&dir, &w), opts.force, name, &again)?;
    Ok((dir, lock))
}
