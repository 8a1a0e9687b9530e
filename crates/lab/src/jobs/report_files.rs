//! `report.html` and `plots/` of a results folder, drawn from the CSV
//! files in it. [`crate::pictures::report`] makes every byte; this reads and writes
//! them through a [`Store`].

use std::path::Path;

use crate::experiment::verdict::StartValue;
use crate::files::{ManifestRead, add_files};
use crate::pictures::report::{
    CHART_FILES, GENERATOR, Inputs, Page, ReportError, build, is_chart_file,
};
use crate::store::Store;

use super::owned::{Folder, Whose};
use super::{Damage, Error, Failure, Readable, Refusal};

/// Reads an optional file of the folder; `None` when it is not there.
pub fn read_optional(store: &dyn Store, path: &Path) -> Result<Option<Vec<u8>>, Error> {
    match store.read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(Refusal::Unreadable {
            path: path.to_path_buf(),
            what: Readable::File,
            error,
        }
        .into()),
    }
}

/// Reads a file a job cannot go without; refused when it is not there,
/// `needs` saying what the job needs it for.
pub(super) fn read_needed(store: &dyn Store, path: &Path, needs: String) -> Result<Vec<u8>, Error> {
    read_optional(store, path)?.ok_or_else(|| {
        let dir = super::owned::folder_of(path);
        let path = path.to_path_buf();
        super::checkpoint::unfinished_run(store, dir)
            .unwrap_or(Refusal::NotFound { path, needs })
            .into()
    })
}

/// Reads the manifest a job cannot go without ([`read_needed`]); one
/// that does not read as katro's is damage.
/// A finished run's summary.csv, `bytes` read from `path`, through the
/// file's one reader: a line that does not read is damage to the run's
/// file (`katro rate DIR`, `katro curve DIR`).
pub(super) fn read_run_summary(
    path: &Path,
    bytes: &[u8],
) -> Result<Vec<crate::files::summary::SummaryRow>, Error> {
    crate::files::summary::read_summary(bytes).map_err(|e| {
        Error::from(Damage::SummaryLine {
            path: path.to_path_buf(),
            line: e.line,
            problem: e.problem,
        })
    })
}

pub(super) fn read_needed_manifest(
    store: &dyn Store,
    path: &Path,
    needs: String,
) -> Result<ManifestRead, Error> {
    let bytes = read_needed(store, path, needs)?;
    Ok(
        ManifestRead::parse(&bytes).map_err(|error| Damage::Manifest {
            path: path.to_path_buf(),
            error,
        })?,
    )
}

/// Writes `dir/name`, or says which file could not be written.
pub fn put(store: &dyn Store, dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    Ok(store
        .write_atomic(dir, name, bytes)
        .map_err(|error| Failure::Write {
            path: dir.join(name),
            error,
        })?)
}

/// Writes `DIR/report.html` and `DIR/plots/*.svg` from the folder's CSV
/// files, titled `name` when given (a run draws its report before it
/// writes the manifest the name is otherwise read from). Returns the files
/// written, relative to `dir`.
///
/// `perfect_openings` is the prover's openings.csv (`katro report
/// --openings`), drawn beside the agents' shares against the opening.
pub fn write_report(
    store: &dyn Store,
    dir: &Path,
    name: Option<&str>,
    perfect_openings: Option<&[u8]>,
    starts: &[StartValue],
) -> Result<Vec<String>, Error> {
    let summary = read_summary(store, dir)?;
    let optional = read_optional_csvs(store, dir)?;
    let title = report_title(store, dir, name)?;
    let mut inputs = inputs(&summary, &optional, &title);
    inputs.perfect_openings = perfect_openings;
    inputs.starts = starts;
    let report = build(&inputs).map_err(|error| report_error(dir, error))?;
    let files = report_file_bytes(report);
    let mut folder = Folder::open(store, dir);
    let what = format!("the report of {}", dir.display());
    folder.write(&files, &what)?;
    remove_stale_charts(&mut folder, &report_charts(&files), &what)?;
    Ok(files.into_iter().map(|(f, _)| f).collect())
}

/// The values of starts in `files` (`katro report --proved`): each a
/// `katro prove --json` file of a start, or a proved.csv of
/// `katro prove-family` (every row).
pub(super) fn start_values(store: &dyn Store, files: &[String]) -> Result<Vec<StartValue>, Error> {
    let mut starts = Vec::new();
    for f in files {
        let path = Path::new(f);
        let needs = "give the prover's value of a start: `katro prove VARIANT --json` \
                     or `katro prove-family`'s proved.csv"
            .to_string();
        let bytes = read_needed(store, path, needs)?;
        let refuse = |why: String| Refusal::NotProvedStart {
            path: path.to_path_buf(),
            why,
        };
        if crate::files::proved::is_proved_csv(&bytes) {
            let text = String::from_utf8(bytes).map_err(|_| refuse("not UTF-8 text".into()))?;
            let rows = crate::files::proved::read_rows(&text).map_err(|e| refuse(e.to_string()))?;
            starts.extend(rows.into_iter().map(|r| StartValue {
                rules: r.key.rules,
                value: r.value,
            }));
        } else {
            starts.push(crate::experiment::verdict::start_value_of_json(&bytes).map_err(refuse)?);
        }
    }
    Ok(starts)
}

/// The folder's summary.csv, which a report cannot go without.
fn read_summary(store: &dyn Store, dir: &Path) -> Result<Vec<u8>, Error> {
    let needs = "give a folder that `katro run`, `katro merge` or `katro simulate --out` wrote";
    read_needed(store, &dir.join("summary.csv"), needs.into())
}

/// The CSV files a report draws when they are there, in the order
/// [`read_optional_csvs`] returns them.
/// How many [`OPTIONAL_CSVS`] there are.
const OPTIONAL: usize = 8;

const OPTIONAL_CSVS: [&str; OPTIONAL] = [
    "comparison.csv",
    "lengths.csv",
    "ratings.csv",
    "skill-trace.csv",
    "pairwise.csv",
    "metrics.csv",
    "strength-curve.csv",
    crate::files::exact_openings::EXACT_OPENINGS,
];

/// Reads each of [`OPTIONAL_CSVS`]; the first unreadable one is the error.
fn read_optional_csvs(store: &dyn Store, dir: &Path) -> Result<[Option<Vec<u8>>; OPTIONAL], Error> {
    let mut read: [Option<Vec<u8>>; OPTIONAL] = Default::default();
    for (slot, file) in read.iter_mut().zip(OPTIONAL_CSVS) {
        *slot = read_optional(store, &dir.join(file))?;
    }
    Ok(read)
}

/// What a report is drawn from: summary.csv, the [`OPTIONAL_CSVS`] that
/// are there, and the title.
fn inputs<'a>(
    summary: &'a [u8],
    optional: &'a [Option<Vec<u8>>; OPTIONAL],
    title: &'a str,
) -> Inputs<'a> {
    // Named in OPTIONAL_CSVS' order, so a file and its field stay together.
    let [
        comparison,
        lengths,
        ratings,
        skill_trace,
        pairwise,
        metrics,
        strength_curve,
        exact_openings,
    ] = optional.each_ref().map(Option::as_deref);
    Inputs {
        summary,
        comparison,
        lengths,
        ratings,
        skill_trace,
        pairwise,
        metrics,
        strength_curve,
        exact_openings,
        perfect_openings: None,
        starts: &[],
        title,
    }
}

/// A drawing that fails is katro's fault; anything else is the CSV files'.
fn report_error(dir: &Path, error: ReportError) -> Error {
    let (dir, faulty) = (dir.to_path_buf(), error.is_katros_fault());
    let error = Box::new(error);
    if faulty {
        Failure::Report { dir, error }.into()
    } else {
        Refusal::Report { dir, error }.into()
    }
}

/// The report's files and bytes, relative to its folder: every chart
/// under plots/ stamped with the generator, then report.html.
fn report_file_bytes(report: Page) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = report
        .charts
        .iter()
        .map(|c| {
            debug_assert!(is_chart_file(&c.file));
            (
                format!("plots/{}", c.file),
                format!("<!-- {GENERATOR} -->\n{}", c.svg).into_bytes(),
            )
        })
        .collect();
    files.push(("report.html".into(), report.html.into_bytes()));
    files
}

/// The chart names of the files a report writes.
fn report_charts(files: &[(String, Vec<u8>)]) -> Vec<&str> {
    files
        .iter()
        .filter_map(|(f, _)| f.strip_prefix("plots/"))
        .collect()
}

/// The experiment's name as given, or from the manifest, else the
/// folder's.
fn report_title(store: &dyn Store, dir: &Path, name: Option<&str>) -> Result<String, Error> {
    if let Some(name) = name {
        return Ok(name.to_string());
    }
    let manifest = read_optional(store, &dir.join("manifest.json"))?;
    Ok(manifest
        .and_then(|b| ManifestRead::parse(&b).ok())
        .map(|m| m.run.name)
        .unwrap_or_else(|| {
            dir.file_name()
                .map_or("results".into(), |n| n.to_string_lossy().into_owned())
        }))
}

/// Removes the charts of an earlier report that this one does not draw
/// (`drawn`): a comparison or sweep chart would describe results no
/// longer there. Only katro's, unchanged, are removed; a chart of the
/// user's under such a name is kept, and so is an edited one.
fn remove_stale_charts(folder: &mut Folder, drawn: &[&str], what: &str) -> Result<(), Error> {
    let plots = folder.dir().join("plots");
    let mut stale = Vec::new();
    for name in folder_charts(folder.store(), &plots) {
        let rel = format!("plots/{name}");
        if !drawn.contains(&name.as_str()) && folder.whose(&rel)? == Whose::Katros {
            stale.push(rel);
        }
    }
    folder.remove(&stale, what)
}

/// The chart files in `plots`, by name.
fn folder_charts(store: &dyn Store, plots: &Path) -> Vec<String> {
    store
        .list(plots)
        .map(|entries| {
            entries
                .into_iter()
                .filter(|e| !e.is_dir && is_chart_file(&e.name))
                .map(|e| e.name)
                .collect()
        })
        .unwrap_or_default()
}

/// Adds the report's files to the `files` of the folder's manifest, if it
/// has a readable one, so that a later `katro run` of the same experiment
/// knows them for katro's own and replaces them.
fn list_in_manifest(store: &dyn Store, dir: &Path, written: &[String]) -> Result<(), Error> {
    let Some(bytes) = read_optional(store, &dir.join("manifest.json"))? else {
        return Ok(());
    };
    let names: Vec<&str> = written.iter().map(String::as_str).collect();
    match add_files(&bytes, &names) {
        Some(out) => Folder::open(store, dir).write(
            &[("manifest.json".into(), out)],
            &format!("listing the report in {}", dir.display()),
        ),
        None => Ok(()),
    }
}

/// The page and every chart a report of `dir` may write: the fixed ones,
/// and the sweep and metrics charts already there.
pub(crate) fn report_targets(store: &dyn Store, dir: &Path) -> Vec<String> {
    let mut targets = vec!["report.html".to_string()];
    for f in CHART_FILES
        .iter()
        .map(|f| f.to_string())
        .chain(folder_charts(store, &dir.join("plots")))
    {
        let t = format!("plots/{f}");
        if !targets.contains(&t) {
            targets.push(t);
        }
    }
    targets
}

/// `katro report DIR`: writes the report, lists its files in the
/// manifest, and returns what to print. Refused, naming them, when a
/// `report.html` or chart it would replace is not katro's or was changed
/// since katro wrote it: `katro report` replaces only its own files.
///
/// `openings`, when given, is the path of the prover's openings.csv
/// (`katro prove-openings`): perfect play's shares over the same openings
/// go beside the agents' in the chart against the opening.
///
/// `proved` are files of the prover's values of starts (`katro prove
/// --json` of a start, or prove-family's proved.csv): a variant whose
/// game one of them valued has that value told after its verdict.
pub fn report(
    store: &dyn Store,
    dir: &str,
    openings: Option<&str>,
    proved: &[String],
) -> Result<String, Error> {
    let path = Path::new(dir);
    if !store.is_dir(path) {
        let dir = dir.to_string();
        return Err(Refusal::NotAFolder { dir }.into());
    }
    let starts = start_values(store, proved)?;
    let perfect = openings
        .map(|o| {
            let needs = "give the openings.csv that `katro prove-openings` wrote".to_string();
            read_needed(store, Path::new(o), needs)
        })
        .transpose()?;
    // Checked before the report is drawn, so that a refusal costs nothing.
    let mut targets = report_targets(store, path);
    if store.is_file(&path.join("manifest.json")) {
        targets.push("manifest.json".into());
    }
    Folder::open(store, path).check(&targets, &format!("katro report {dir}"))?;
    let written = write_report(store, path, None, perfect.as_deref(), &starts)?;
    list_in_manifest(store, path, &written)?;
    Ok(format!(
        "wrote {}\n",
        written
            .iter()
            .map(|f| path.join(f).display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}
