//! `katro merge`: the shards of one run, checked to make a whole run,
//! into its results.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::exact::exact_cells;
use super::out_folder::{clear_folder, lock_folder};
use super::results::{ManifestBase, Played, RunOutcome, finish_experiment, manifest, per_second};
use super::survey::{Again, Writer, shard_files};
use super::{
    Damage, Error, MergeMismatch, Progress, Refusal, ShardExperiment, ShardIndex, ShardProblem,
    ShardSays, plural, threads_or_all,
};
use crate::experiment::runner::{self, Cell, GameRow, Layout, Part, Rows, merge_parts};
use crate::experiment::stats::Aggregate;
use crate::experiment::{Experiment, parse_experiment};
use crate::files::{
    BUILD, FileError, Manifest, ManifestShard, SHARD_FORMAT, ShardFile, other_builds,
};
use crate::store::Store;

/// Reads a shard file whole.
fn read_shard(store: &dyn Store, path: &Path) -> Result<ShardFile, FileError> {
    let bytes = store.read(path).map_err(|e| FileError::ShardUnreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    let shard: ShardFile = serde_json::from_slice(&bytes).map_err(|e| FileError::NotShard {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    if shard.format != SHARD_FORMAT {
        return Err(FileError::ShardFormat {
            path: path.to_path_buf(),
            found: shard.format,
            wanted: SHARD_FORMAT,
        });
    }
    Ok(shard)
}

/// The builds that played a shard's games.
fn shard_builds(s: &ShardFile) -> impl Iterator<Item = &str> {
    s.run.builds()
}

/// Everything wrong with a set of shards as a set: mixed experiments or N,
/// games of another build (unless `allow_other_build`), duplicates, and
/// missing shards.
fn shard_set_problems(
    shards: &[(PathBuf, ShardFile)],
    dir: &Path,
    allow_other_build: bool,
) -> Vec<ShardProblem> {
    let problems = mixed_shards(shards, dir, allow_other_build);
    if !problems.is_empty() {
        return problems;
    }
    let n = shards[0].1.shards;
    let mut problems = Vec::new();
    let by_index = by_shard_index(shards, n, &mut problems);
    problems.extend(duplicate_shards(&by_index, n));
    problems.extend(missing_shards(&by_index, n, &shards[0].1, dir));
    problems
}

/// The shard files by the index each claims, noting in `problems` each
/// index outside 1..=`n`.
fn by_shard_index(
    shards: &[(PathBuf, ShardFile)],
    n: u64,
    problems: &mut Vec<ShardProblem>,
) -> BTreeMap<u64, Vec<PathBuf>> {
    let mut by_index: BTreeMap<u64, Vec<PathBuf>> = BTreeMap::new();
    for (p, s) in shards {
        if s.shard == 0 || s.shard > n {
            problems.push(ShardProblem::OutOfRange {
                path: p.clone(),
                index: s.shard,
                count: n,
            });
        }
        by_index.entry(s.shard).or_default().push(p.clone());
    }
    by_index
}

/// Each shard index claimed by more than one file, with the files.
fn duplicate_shards(
    by_index: &BTreeMap<u64, Vec<PathBuf>>,
    n: u64,
) -> impl Iterator<Item = ShardProblem> {
    by_index
        .iter()
        .filter(|(_, paths)| paths.len() > 1)
        .map(move |(&index, paths)| ShardProblem::Duplicate {
            index,
            count: n,
            paths: paths.clone(),
        })
}

/// Shards that do not belong together: of different experiments, builds
/// (unless `allow_other_build`) or N, each set listed file by file.
fn mixed_shards(
    shards: &[(PathBuf, ShardFile)],
    dir: &Path,
    allow_other_build: bool,
) -> Vec<ShardProblem> {
    let mut problems = Vec::new();
    let distinct = |f: &dyn Fn(&ShardFile) -> String| distinct(shards, f);
    if distinct(&|s| s.run.experiment_hash.clone()) > 1 {
        problems.push(ShardProblem::OtherExperiments {
            shards: each_says(shards, |s| ShardExperiment {
                name: s.run.name.clone(),
                hash: s.run.experiment_hash.clone(),
            }),
        });
    }
    if !allow_other_build {
        problems.extend(other_build_shards(shards, dir));
    }
    if distinct(&|s| s.shards.to_string()) > 1 {
        problems.push(ShardProblem::OtherCounts {
            shards: each_says(shards, |s| ShardIndex {
                index: s.shard,
                count: s.shards,
            }),
        });
    }
    problems
}

/// The shards played by another build than this one, when any are, with
/// the command that merges them into `dir` anyway.
fn other_build_shards(shards: &[(PathBuf, ShardFile)], dir: &Path) -> Option<ShardProblem> {
    let other = |(_, s): &(PathBuf, ShardFile)| shard_builds(s).any(|b| b != BUILD);
    shards.iter().any(other).then(|| {
        let dir = dir.display().to_string();
        ShardProblem::OtherBuild {
            shards: each_says(shards, |s| shard_builds(s).map(str::to_string).collect()),
            merge: super::command_line(&["katro", "merge", &dir, "--allow-other-build"]),
        }
    })
}

/// Each shard file with what `f` says of it.
fn each_says<T>(shards: &[(PathBuf, ShardFile)], f: impl Fn(&ShardFile) -> T) -> Vec<ShardSays<T>> {
    shards
        .iter()
        .map(|(p, s)| ShardSays {
            path: p.clone(),
            says: f(s),
        })
        .collect()
}

/// How many different things `f` says of the shards.
fn distinct(shards: &[(PathBuf, ShardFile)], f: &dyn Fn(&ShardFile) -> String) -> usize {
    shards
        .iter()
        .map(|(_, s)| f(s))
        .collect::<BTreeSet<_>>()
        .len()
}

/// The shards of 1..=`n` not in `by_index`, and how to make them.
fn missing_shards(
    by_index: &BTreeMap<u64, Vec<PathBuf>>,
    n: u64,
    first: &ShardFile,
    dir: &Path,
) -> Option<ShardProblem> {
    let missing: Vec<u64> = (1..=n).filter(|i| !by_index.contains_key(i)).collect();
    (!missing.is_empty()).then(|| ShardProblem::Missing {
        missing,
        count: n,
        experiment: first.experiment.file.clone(),
        dir: dir.to_path_buf(),
    })
}

/// What `katro merge` is asked to do.
#[derive(Clone, Debug)]
pub struct MergeOptions {
    /// The output folder whose `shards/` to merge.
    pub dir: String,
    pub force: bool,
    pub allow_other_build: bool,
    /// The command line, as the manifest records it.
    pub command: Vec<String>,
}

impl MergeOptions {
    /// This merge as the `katro merge` command a message tells the user
    /// to type, with `--force` when `force`.
    fn command_line(&self, force: bool) -> String {
        let mut words = vec!["katro", "merge", &self.dir];
        if self.allow_other_build {
            words.push("--allow-other-build");
        }
        if force {
            words.push("--force");
        }
        super::command_line(&words)
    }
}

/// The shards in `dir/shards`, in shard order, once every one reads and
/// they make one whole run; otherwise every problem found.
fn read_shards(
    store: &dyn Store,
    dir: &Path,
    allow_other_build: bool,
) -> Result<Vec<(PathBuf, ShardFile)>, Error> {
    let shards_dir = dir.join("shards");
    let paths = shard_files(store, &shards_dir);
    if paths.is_empty() {
        return Err(Refusal::NoShards {
            shards: shards_dir,
            dir: dir.to_path_buf(),
        }
        .into());
    }
    let (mut shards, mut problems) = read_each_shard(store, paths);
    if !shards.is_empty() {
        problems.extend(shard_set_problems(&shards, dir, allow_other_build));
    }
    if !problems.is_empty() {
        return Err(Damage::Shards {
            dir: shards_dir,
            problems,
        }
        .into());
    }
    shards.sort_by_key(|(_, s)| s.shard);
    Ok(shards)
}

/// The shard files that read, and why each other one did not.
fn read_each_shard(
    store: &dyn Store,
    paths: Vec<PathBuf>,
) -> (Vec<(PathBuf, ShardFile)>, Vec<ShardProblem>) {
    let mut shards = Vec::new();
    let mut unreadable = Vec::new();
    for p in paths {
        match read_shard(store, &p) {
            Ok(s) => shards.push((p, s)),
            Err(e) => unreadable.push(ShardProblem::Unreadable(e)),
        }
    }
    (shards, unreadable)
}

/// The experiment rebuilt from the text and variant files the shard
/// carries, so the merge needs nothing but the shards.
fn rebuild_experiment(
    first_path: &Path,
    first: &ShardFile,
    damaged: &dyn Fn(MergeMismatch) -> Error,
) -> Result<Experiment, Error> {
    let mut read_variant = |spec: &str| -> Result<(String, String), String> {
        first
            .variant_files
            .iter()
            .find(|v| v.spec == spec)
            .map(|v| (v.file.clone(), v.text.clone()))
            .ok_or_else(|| format!("{spec} is not stored in the shard"))
    };
    parse_experiment(
        &first.experiment.file,
        &first.experiment.text,
        &mut read_variant,
    )
    .map_err(|error| {
        damaged(MergeMismatch::Experiment {
            path: first_path.to_path_buf(),
            error,
        })
    })
}

/// `katro merge DIR`: the shards in DIR/shards into DIR's results.
pub fn merge(
    opts: &MergeOptions,
    store: &dyn Store,
    progress: &dyn Progress,
) -> Result<RunOutcome, Error> {
    let dir = PathBuf::from(&opts.dir);
    let shards_dir = dir.join("shards");
    let shards = read_shards(store, &dir, opts.allow_other_build)?;
    let (first_path, first) = &shards[0];
    let damaged = |mismatch: MergeMismatch| {
        Error::from(Damage::ShardMismatch {
            dir: shards_dir.clone(),
            mismatch,
        })
    };
    let exp = rebuild_experiment(first_path, first, &damaged)?;
    let cells = exp.cells();
    let hash = checked_hash(first_path, first, &exp, &damaged)?;
    let (aggregates, rows) = merge_shards(&shards, &cells, exp.rows(), &damaged)?;
    // Followed before the folder is touched, as `katro run` does.
    let exact = exact_cells(&exp, &first.experiment.file, threads_or_all(None))?;

    let _lock = ready_folder(store, progress, opts, &hash, first, &exp.name)?;
    let exact = exact.as_ref();
    let base = ManifestBase {
        command: &opts.command,
        name: &exp.name,
        experiment: Some(first.experiment.clone()),
        hash: &hash,
        seed: exp.seed,
        cells: &cells,
        aggregates: &aggregates,
    };
    let m = merged_manifest(base, &shards, &exp);
    let played = Played {
        cells: &cells,
        aggregates: &aggregates,
        rows: &rows,
    };
    let (written, text) = finish_experiment(store, &dir, &exp, played, m, exact, &[])?;
    Ok(merged_outcome(dir, &shards, written, text))
}

/// What the merge did: `text` (the results' table) with a line on the
/// shards merged and the files `written`.
fn merged_outcome(
    dir: PathBuf,
    shards: &[(PathBuf, ShardFile)],
    written: Vec<String>,
    mut text: String,
) -> RunOutcome {
    let (wall, played) = shard_time_and_games(shards);
    text.push_str(&format!(
        "\nmerged {} ({} played in {wall:.1} s of shard time); wrote {} in {}\n",
        plural(shards[0].1.shards, "shard"),
        plural(played, "game"),
        written.join(", "),
        dir.display()
    ));
    RunOutcome {
        out_dir: dir,
        files: written,
        played: 0,
        kept: played,
        already_complete: false,
        text,
    }
}

/// The experiment's hash, once it is the one the shard says it has.
fn checked_hash(
    first_path: &Path,
    first: &ShardFile,
    exp: &Experiment,
    damaged: &dyn Fn(MergeMismatch) -> Error,
) -> Result<String, Error> {
    let hash = exp.fingerprint();
    if hash != first.run.experiment_hash {
        return Err(damaged(MergeMismatch::OtherHash {
            path: first_path.to_path_buf(),
            says: first.run.experiment_hash.clone(),
            gives: hash,
        }));
    }
    Ok(hash)
}

/// The merge's folder locked, then cleared of what is not this run's
/// (or refused) and found writable; the lock, held while it lasts.
fn ready_folder<'a>(
    store: &'a dyn Store,
    progress: &dyn Progress,
    opts: &MergeOptions,
    hash: &str,
    first: &ShardFile,
    name: &str,
) -> Result<Box<dyn Send + 'a>, Error> {
    let dir = Path::new(&opts.dir);
    let lock = lock_folder(store, progress, dir, Part::Whole, &opts.command)?;
    let w = Writer {
        hash,
        text_fnv: Some(&first.experiment.fnv1a64),
        grows: None,
        shards: None,
        allow_other_build: opts.allow_other_build,
    };
    let again = Again {
        same: opts.command_line(opts.force),
        forced: opts.command_line(true),
        other_build: None,
    };
    clear_folder(store, progress, (dir, &w), opts.force, name, &again)?;
    super::out_folder::check_out_writable(store, dir, None)?;
    Ok(lock)
}

/// The shards' wall seconds and games, summed.
fn shard_time_and_games(shards: &[(PathBuf, ShardFile)]) -> (f64, u64) {
    let wall: f64 = shards.iter().map(|(_, s)| s.wall_seconds).sum();
    let played: u64 = shards.iter().map(|(_, s)| s.games).sum();
    (wall, played)
}

/// Every cell's aggregate and the rows of all games, from the shards'
/// states and rows, as one run of `cells` gives them.
fn merge_shards(
    shards: &[(PathBuf, ShardFile)],
    cells: &[Cell],
    mode: Rows,
    damaged: &dyn Fn(MergeMismatch) -> Error,
) -> Result<(Vec<Aggregate>, Vec<GameRow>), Error> {
    let mut rows = Vec::new();
    for (p, s) in shards {
        rows.extend(shard_rows(p, s, cells, damaged)?);
    }
    let states: Vec<(u64, &runner::RunState)> =
        shards.iter().map(|(_, s)| (s.shard, &s.state)).collect();
    merge_parts(cells, shards[0].1.shards, &states, rows, mode)
        .map_err(|e| damaged(MergeMismatch::Parts(e)))
}

/// The rows of shard `s` (the file `p`), once it cuts the games into the
/// units this katro does.
fn shard_rows(
    p: &Path,
    s: &ShardFile,
    cells: &[Cell],
    damaged: &dyn Fn(MergeMismatch) -> Error,
) -> Result<Vec<GameRow>, Error> {
    if s.layout != Layout::new(cells).cells {
        return Err(damaged(MergeMismatch::OtherUnits {
            path: p.to_path_buf(),
        }));
    }
    s.rows
        .iter()
        .map(|r| {
            r.to_row(cells).map_err(|error| {
                damaged(MergeMismatch::Row {
                    path: p.to_path_buf(),
                    error: Box::new(error),
                })
            })
        })
        .collect()
}

/// The manifest of the merged run: the shards' times, threads and builds.
fn merged_manifest(
    base: ManifestBase,
    shards: &[(PathBuf, ShardFile)],
    exp: &Experiment,
) -> Manifest {
    let start = shards.iter().map(|(_, s)| s.start_time.clone()).min();
    let end = shards.iter().map(|(_, s)| s.end_time.clone()).max();
    let (wall, played) = shard_time_and_games(shards);
    let mut m = manifest(
        base,
        shards.iter().map(|(_, s)| s.threads).max().unwrap_or(1),
        (start.unwrap_or_default(), end.unwrap_or_default()),
        wall,
    );
    m.skipped_variants = exp.skipped.clone();
    m.games_per_second = per_second(played, wall);
    m.run.other_builds = other_builds(BUILD, shards.iter().flat_map(|(_, s)| shard_builds(s)));
    m.shards = Some(shards.iter().map(|(_, s)| manifest_shard(s)).collect());
    m
}

/// A shard as the merged manifest lists it.
fn manifest_shard(s: &ShardFile) -> ManifestShard {
    ManifestShard {
        shard: format!("{}/{}", s.shard, s.shards),
        katro_build: s.run.katro_build.clone(),
        threads: s.threads,
        start_time: s.start_time.clone(),
        end_time: s.end_time.clone(),
        wall_seconds: s.wall_seconds,
        games: s.games,
    }
}
