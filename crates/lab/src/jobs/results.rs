//! Writing a run's results: the CSV files, the report and the manifest
//! (written last: its presence says the results are complete), as `katro
//! run`, `katro merge` and `katro simulate --out` write them.

use std::path::{Path, PathBuf};

use super::exact::ExactFiles;
use super::owned::Folder;
use super::report_files::{report_targets, write_report};
use super::{Error, Failure, grow, plural, survey};
use crate::experiment::metric_estimates::cell_metrics;
use crate::experiment::ratings::{VariantRatings, rate};
use crate::experiment::runner::{self, Cell, GameRow, Rows};
use crate::experiment::stats::Aggregate;
use crate::experiment::verdict::StartValue;
use crate::experiment::{Compare, Experiment};
use crate::files::lengths_csv;
use crate::files::{
    ExperimentSource, GameLine, Manifest, ManifestRead, RunHeader, comparison_csv, games_csv,
    pairwise_csv, ratings_csv, ratings_table, skill_trace_csv, summary_csv, summary_table,
};
use crate::store::Store;

/// What a job did.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutcome {
    /// The output folder.
    pub out_dir: PathBuf,
    /// The files written, relative to `out_dir` (for a shard, its file).
    pub files: Vec<String>,
    /// Games played by this call.
    pub played: u64,
    /// Games taken from a checkpoint or from the results already there.
    pub kept: u64,
    /// Whether the results were complete already, so nothing was played
    /// or written.
    pub already_complete: bool,
    /// What to tell the user: the summary table and what was written.
    pub text: String,
}

/// What goes into summary.csv, comparison.csv and games.csv.
pub(super) struct Results<'a> {
    pub(super) cells: &'a [Cell<'a>],
    pub(super) aggregates: &'a [Aggregate],
    /// games.csv, when rows are kept: made before run-state.json, which
    /// names it.
    pub(super) games: Option<&'a [u8]>,
    pub(super) compare: &'a Compare,
    /// The experiment's tournament, rated ([`rated`]): ratings.csv,
    /// pairwise.csv and skill-trace.csv.
    pub(super) tournament: Option<&'a [VariantRatings]>,
    /// `run-state.json`, for the results of an experiment (which can grow).
    pub(super) state: Option<Vec<u8>>,
    /// exact-openings.csv, when the experiment has `openings = "exact"`
    /// matchups (crates/lab/src/jobs/exact.rs).
    pub(super) exact: Option<Vec<u8>>,
}

/// Writes the CSV files and then the manifest (its presence says the
/// results are complete), and removes result files that the manifest
/// being replaced lists and this run does not make, so a folder never
/// mixes two runs' results. A file no katro manifest lists is never
/// removed: katro may not have written it. Returns the files written.
pub(super) fn write_results(
    store: &dyn Store,
    dir: &Path,
    r: &Results,
    mut manifest: Manifest,
) -> Result<Vec<String>, Error> {
    let outputs = result_bytes(r, manifest.master_seed);
    let stale = stale_results(store, dir, &outputs);
    let what = format!("writing the results into {}", dir.display());
    let mut folder = Folder::open(store, dir);
    // Everything this will replace or delete is checked before anything
    // is written, so a refusal leaves the folder as it was.
    folder.check(&result_targets(store, dir, &outputs, &stale), &what)?;
    let mut written = write_csvs(&mut folder, outputs, stale, &what)?;
    // The report reads back the files just written, so it shows exactly
    // what they say; the manifest, written last, lists it with the rest.
    // Whatever stops the report once the CSV files are written is the
    // machine's to fix (exit code 1), as a failed write is: the files it
    // replaces were checked above.
    written.extend(
        write_report(store, dir, Some(&manifest.run.name), None, &[])
            .map_err(|e| Failure::ReportOfRun(Box::new(e)))?,
    );
    written.push("manifest.json".into());
    manifest.files = written.clone();
    Folder::open(store, dir).write(&[("manifest.json".into(), manifest.to_bytes())], &what)?;
    Ok(written)
}

/// Writes the `outputs` and removes the `stale` results; the files
/// written.
fn write_csvs(
    folder: &mut Folder,
    outputs: Vec<(&str, Vec<u8>)>,
    stale: Vec<&str>,
    what: &str,
) -> Result<Vec<String>, Error> {
    let written: Vec<String> = outputs.iter().map(|(n, _)| n.to_string()).collect();
    let files: Vec<(String, Vec<u8>)> = outputs
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    folder.write(&files, what)?;
    let stale: Vec<String> = stale.into_iter().map(String::from).collect();
    folder.remove(&stale, what)?;
    Ok(written)
}

/// Every file writing the results replaces or deletes: the `outputs`,
/// the `stale` results, the report's files and the manifest.
fn result_targets(
    store: &dyn Store,
    dir: &Path,
    outputs: &[(&str, Vec<u8>)],
    stale: &[&str],
) -> Vec<String> {
    let mut targets: Vec<String> = outputs.iter().map(|(n, _)| n.to_string()).collect();
    targets.extend(stale.iter().map(|n| n.to_string()));
    targets.extend(report_targets(store, dir));
    targets.push("manifest.json".into());
    targets
}

/// The result files of `r` and their bytes, in the order they are
/// written and listed.
fn result_bytes(r: &Results, master_seed: u64) -> Vec<(&'static str, Vec<u8>)> {
    let mut outputs: Vec<(&str, Vec<u8>)> = Vec::new();
    if let Some(bytes) = r.games {
        outputs.push(("games.csv", bytes.to_vec()));
    }
    if let Some(bytes) = comparison_csv(r.cells, r.aggregates, r.compare) {
        outputs.push(("comparison.csv", bytes));
    }
    let metrics = cell_metrics(r.cells, r.aggregates, master_seed);
    if let Some(bytes) = crate::files::metrics_csv::metrics_csv(r.cells, &metrics) {
        outputs.push(("metrics.csv", bytes));
    }
    if let Some(rated) = r.tournament {
        outputs.extend(rating_files(rated));
    }
    if let Some(bytes) = &r.state {
        outputs.push((grow::RUN_STATE, bytes.clone()));
    }
    outputs.push(("summary.csv", summary_csv(r.cells, r.aggregates)));
    outputs.push(("lengths.csv", lengths_csv(r.cells, r.aggregates)));
    if let Some(bytes) = &r.exact {
        outputs.push((crate::files::exact_openings::EXACT_OPENINGS, bytes.clone()));
    }
    outputs
}

/// The result files the manifest being replaced lists and this run does
/// not make (`outputs`); the manifest and report are rewritten anyway.
fn stale_results(store: &dyn Store, dir: &Path, outputs: &[(&str, Vec<u8>)]) -> Vec<&'static str> {
    let earlier: Vec<String> = store
        .read(&dir.join("manifest.json"))
        .ok()
        .and_then(|b| ManifestRead::parse(&b).ok())
        .map(|m| survey::listed_files(&m))
        .unwrap_or_default();
    crate::files::formats::run_folder_files()
        .filter(|f| !["manifest.json", "report.html"].contains(f))
        .filter(|f| earlier.iter().any(|e| e == f) && !outputs.iter().any(|(n, _)| n == f))
        .collect()
}

/// The experiment's tournament rated from its finished cells: fitted
/// once, for the files ([`Results`]) and the table printed after the
/// summary.
fn rated(
    exp: &Experiment,
    cells: &[Cell],
    aggregates: &[Aggregate],
) -> Option<Vec<VariantRatings>> {
    exp.tournament.as_ref().map(|t| rate(t, cells, aggregates))
}

/// ratings.csv, pairwise.csv and skill-trace.csv of `rated`, as `katro
/// run` and `katro rate` write them.
pub(crate) fn rating_files(rated: &[VariantRatings]) -> [(&'static str, Vec<u8>); 3] {
    [
        ("ratings.csv", ratings_csv(rated)),
        ("pairwise.csv", pairwise_csv(rated)),
        ("skill-trace.csv", skill_trace_csv(rated)),
    ]
}

/// The ratings table printed after the summary; empty without a
/// tournament.
fn ratings_text(rated: &Option<Vec<VariantRatings>>) -> String {
    rated
        .as_ref()
        .map_or_else(String::new, |v| ratings_table(v))
}

/// The manifest's fields that come from the experiment and its results.
pub(super) struct ManifestBase<'a> {
    pub(super) command: &'a [String],
    pub(super) name: &'a str,
    pub(super) experiment: Option<ExperimentSource>,
    pub(super) hash: &'a str,
    pub(super) seed: u64,
    pub(super) cells: &'a [Cell<'a>],
    pub(super) aggregates: &'a [Aggregate],
}

pub(super) fn manifest(
    b: ManifestBase,
    threads: usize,
    times: (String, String),
    wall: f64,
) -> Manifest {
    let (variants, cells) = Manifest::describe(b.cells, b.aggregates);
    Manifest {
        run: RunHeader::new(b.hash, b.name, Vec::new()),
        command: b.command.to_vec(),
        experiment: b.experiment,
        master_seed: b.seed,
        variants,
        cells,
        threads,
        start_time: times.0,
        end_time: times.1,
        wall_seconds: wall,
        games: b.aggregates.iter().map(|a| a.games).sum(),
        resumed_games: 0,
        kept_games: 0,
        games_per_second: 0.0,
        shards: None,
        skipped_variants: Vec::new(),
        warnings: ending_warnings(b.cells, b.aggregates),
        files: Vec::new(),
    }
}

/// The manifest's warnings, from the finished cells' exact aggregates,
/// so a resumed or merged run records the same warnings as one run.
fn ending_warnings(cells: &[Cell], aggregates: &[Aggregate]) -> Vec<String> {
    cells
        .iter()
        .zip(aggregates)
        .filter_map(|(c, a)| runner::ending_warning(c, a))
        .collect()
}

/// Games a second, 0 when no time passed.
pub(super) fn per_second(games: u64, wall: f64) -> f64 {
    if wall > 0.0 { games as f64 / wall } else { 0.0 }
}

/// The line a run (and `simulate --out`) ends its text with: what it
/// played, what it kept (`also`), and what it wrote where.
pub(super) fn played_text(
    games: u64,
    wall: f64,
    threads: usize,
    also: &[String],
    written: &[String],
    dir: &Path,
) -> String {
    format!(
        "\n{} in {wall:.1} s on {}{}; wrote {} in {}\n",
        plural(games, "game"),
        plural(threads as u64, "thread"),
        if also.is_empty() {
            String::new()
        } else {
            format!(" (and {})", also.join(", "))
        },
        written.join(", "),
        dir.display()
    )
}

/// What a whole experiment played: its cells, their aggregates and the
/// kept game rows.
pub(super) struct Played<'p, 'a> {
    pub cells: &'p [Cell<'a>],
    pub aggregates: &'p [Aggregate],
    pub rows: &'p [GameRow],
}

/// The files of a finished whole experiment (games.csv, the run state,
/// comparison, ratings, summary, exact-openings.csv from `exact`, followed
/// before the games, then the manifest `m`) and the tables a run prints:
/// the one tail of `run` and `merge`, so both write the same bytes.
pub(super) fn finish_experiment<'a>(
    store: &dyn Store,
    dir: &Path,
    exp: &'a Experiment,
    played: Played<'_, 'a>,
    m: Manifest,
    exact: Option<&ExactFiles>,
    starts: &[StartValue],
) -> Result<(Vec<String>, String), Error> {
    let Played {
        cells,
        aggregates,
        rows,
    } = played;
    let (games, state) =
        finished_files(m.run.clone(), exp.seed, exp.rows(), cells, aggregates, rows);
    let rated = rated(exp, cells, aggregates);
    let written = write_results(
        store,
        dir,
        &Results {
            cells,
            aggregates,
            games: games.as_deref(),
            compare: &exp.compare,
            tournament: rated.as_deref(),
            state: Some(state.to_bytes()),
            exact: exact.map(|e| e.csv.clone()),
        },
        m,
    )?;
    Ok((
        written,
        finished_text(cells, aggregates, &rated, exact, starts),
    ))
}

/// The tables a finished experiment prints: the summary, the ratings
/// and the exact openings.
fn finished_text(
    cells: &[Cell],
    aggregates: &[Aggregate],
    rated: &Option<Vec<VariantRatings>>,
    exact: Option<&ExactFiles>,
    starts: &[StartValue],
) -> String {
    let mut text = summary_table(cells, aggregates, Some("manifest.json"), starts);
    text.push_str(&ratings_text(rated));
    text.push_str(exact.map_or("", |e| e.text.as_str()));
    text
}

/// games.csv of `rows` (none when rows are not kept), and the run state
/// that names it.
fn finished_files(
    run: RunHeader,
    seed: u64,
    mode: Rows,
    cells: &[Cell],
    aggregates: &[Aggregate],
    rows: &[GameRow],
) -> (Option<Vec<u8>>, grow::FinishedRun) {
    let games = (mode != Rows::None).then(|| {
        let stored: Vec<GameLine> = rows.iter().map(|r| GameLine::of(cells, r)).collect();
        games_csv(cells, &stored, mode == Rows::GamesWithMoves)
    });
    let state = grow::FinishedRun::new(run, seed, mode, cells, aggregates, games.as_deref());
    (games, state)
}
