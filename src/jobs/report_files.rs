//! `report.html` and `plots/` of a results folder, drawn from the CSV
//! files in it. [`crate::pictures::report`] makes every byte; this reads and writes
//! them through a [`Store`].

use std::path::Path;

use crate::files::{ManifestRead, add_files};
use crate::pictures::report::{CHART_FILES, GENERATOR, Inputs, Page, build, is_chart_file};
use crate::store::{Store, describe};

use super::Error;

/// Reads an optional file of the folder; `None` when it is not there.
pub fn read_optional(store: &dyn Store, path: &Path) -> Result<Option<Vec<u8>>, Error> {
    match store.read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::refused(format!(
            "{}: cannot read: {e}",
            path.display()
        ))),
    }
}

/// Writes `dir/name`, or says which file could not be written.
pub fn put(store: &dyn Store, dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    store.write_atomic(dir, name, bytes).map_err(|e| {
        Error::Failed(format!(
            "cannot write {}: {}",
            dir.join(name).display(),
            describe(&e)
        ))
    })
}

/// Writes `DIR/report.html` and `DIR/plots/*.svg` from the folder's CSV
/// files, titled `name` when given (a run draws its report before it
/// writes the manifest the name is otherwise read from). Returns the files
/// written, relative to `dir`.
pub fn write_report(
    store: &dyn Store,
    dir: &Path,
    name: Option<&str>,
) -> Result<Vec<String>, Error> {
    let summary_path = dir.join("summary.csv");
    let Some(summary) = read_optional(store, &summary_path)? else {
        return Err(Error::refused(format!(
            "{}: not found: give a folder that `katro run`, `katro merge` or `katro simulate --out` wrote",
            summary_path.display()
        )));
    };
    let [comparison, lengths, ratings, skill_trace, pairwise, metrics] = [
        "comparison.csv",
        "lengths.csv",
        "ratings.csv",
        "skill-trace.csv",
        "pairwise.csv",
        "metrics.csv",
    ]
    .map(|f| read_optional(store, &dir.join(f)));
    let (comparison, lengths, ratings) = (comparison?, lengths?, ratings?);
    let (skill_trace, pairwise, metrics) = (skill_trace?, pairwise?, metrics?);
    let title = report_title(store, dir, name)?;
    let report = build(&Inputs {
        summary: &summary,
        comparison: comparison.as_deref(),
        lengths: lengths.as_deref(),
        ratings: ratings.as_deref(),
        skill_trace: skill_trace.as_deref(),
        pairwise: pairwise.as_deref(),
        metrics: metrics.as_deref(),
        title: &title,
    })
    .map_err(|e| {
        let message = format!("{}: {e}", dir.display());
        if e.is_katros_fault() {
            Error::Failed(message)
        } else {
            Error::refused(message)
        }
    })?;
    let mut written = write_charts(store, &dir.join("plots"), &report)?;
    put(store, dir, "report.html", report.html.as_bytes())?;
    written.push("report.html".into());
    Ok(written)
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

/// Writes the report's charts into `plots` and removes those of an
/// earlier report it does not draw; the files written, as `plots/NAME`.
fn write_charts(store: &dyn Store, plots: &Path, report: &Page) -> Result<Vec<String>, Error> {
    store.create_dir_all(plots).map_err(|e| {
        Error::Failed(format!(
            "cannot create {}: {}",
            plots.display(),
            describe(&e)
        ))
    })?;
    let mut written = Vec::new();
    for c in &report.charts {
        debug_assert!(is_chart_file(&c.file));
        let marked = format!("<!-- {GENERATOR} -->\n{}", c.svg);
        put(store, plots, &c.file, marked.as_bytes())?;
        written.push(format!("plots/{}", c.file));
    }
    // A chart of an earlier run of this folder that this report does not
    // draw (a comparison, a sweep) would describe results no longer there.
    let stale: Vec<String> = store
        .list(plots)
        .map(|entries| {
            entries
                .into_iter()
                .map(|e| e.name)
                .filter(|n| is_chart_file(n))
                .filter(|n| !report.charts.iter().any(|c| &c.file == n))
                .collect()
        })
        .unwrap_or_default();
    for name in stale {
        store.remove_file(&plots.join(&name)).map_err(|e| {
            Error::Failed(format!(
                "cannot remove the stale {}: {e}",
                plots.join(&name).display()
            ))
        })?;
    }
    Ok(written)
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
        Some(out) => put(store, dir, "manifest.json", &out),
        None => Ok(()),
    }
}

/// `katro report DIR`: refuses to overwrite a `report.html` or chart that
/// `katro report` did not write, unless `force`; writes the report, lists
/// its files in the manifest, and returns what to print.
pub fn report(store: &dyn Store, dir: &str, force: bool) -> Result<String, Error> {
    let path = Path::new(dir);
    if !store.is_dir(path) {
        return Err(Error::refused(format!(
            "{dir}: not a folder: give a results folder"
        )));
    }
    // The page and every chart a report may write: the fixed ones, and the
    // sweep charts already there.
    let sweeps: Vec<String> = store
        .list(&path.join("plots"))
        .map(|entries| {
            entries
                .into_iter()
                .map(|e| e.name)
                .filter(|n| is_chart_file(n))
                .collect()
        })
        .unwrap_or_default();
    let mut targets = vec!["report.html".to_string()];
    for f in CHART_FILES.iter().map(|f| f.to_string()).chain(sweeps) {
        let t = format!("plots/{f}");
        if !targets.contains(&t) {
            targets.push(t);
        }
    }
    let mut foreign = Vec::new();
    for t in targets {
        if let Some(bytes) = read_optional(store, &path.join(&t))? {
            let head = &bytes[..bytes.len().min(1024)];
            let marker = GENERATOR.as_bytes();
            if !head.windows(marker.len()).any(|w| w == marker) {
                foreign.push(format!("  {t}"));
            }
        }
    }
    if !foreign.is_empty() && !force {
        return Err(Error::refused(format!(
            "{dir} holds files a report would replace that `katro report` did not write:\n{}\n\
             move them away, or give --force to overwrite them",
            foreign.join("\n")
        )));
    }
    let written = write_report(store, path, None)?;
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
