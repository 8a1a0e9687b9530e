//! Every file katro writes into a results folder, in one list: its name,
//! the section of docs/OUTPUTS.md that documents it, whether `katro run`
//! writes it into its output folder, and a CSV file's columns. The survey
//! of an output folder (what a run may reuse, what `--force` deletes), the
//! stale-results check of a regrown run and the docs test
//! (tests/it/outputs_doc.rs) all read it, so a new file is added here once.

use super::{
    COMPARISON_COLUMNS, LENGTH_COLUMNS, PAIRWISE_COLUMNS, RATINGS_COLUMNS, game_column_names,
    summary_column_names,
};

/// One file format.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// The file's name in its folder.
    pub file: &'static str,
    /// The `## ` section of docs/OUTPUTS.md that documents it.
    pub section: &'static str,
    /// One of the files of a run's output folder (written by `katro
    /// run`, `merge` or `judge`) that the folder's survey checks: whose it
    /// is, whether a run may reuse it, what `--force` deletes. The
    /// prover's and solver's files live in folders of their own;
    /// strength-curve.csv is `katro curve`'s, which checks its own.
    pub in_run_folder: bool,
    /// A CSV file's columns, each a row of its section's table; `None`
    /// for a file that is not CSV, or whose columns depend on what was
    /// asked (metrics.csv, skill-trace.csv: the docs test reads their
    /// section's text).
    pub columns: Option<fn() -> Vec<&'static str>>,
}

const fn format(
    file: &'static str,
    in_run_folder: bool,
    columns: Option<fn() -> Vec<&'static str>>,
) -> Format {
    Format {
        file,
        section: file,
        in_run_folder,
        columns,
    }
}

/// Every format, a run folder's first, in the order a manifest lists them.
pub const FORMATS: &[Format] = &[
    format("manifest.json", true, None),
    format(super::run_state::RUN_STATE, true, None),
    format("summary.csv", true, Some(summary_column_names)),
    format("comparison.csv", true, Some(|| COMPARISON_COLUMNS.to_vec())),
    format("metrics.csv", true, None),
    format("ratings.csv", true, Some(|| RATINGS_COLUMNS.to_vec())),
    format("pairwise.csv", true, Some(|| PAIRWISE_COLUMNS.to_vec())),
    format("skill-trace.csv", true, None),
    format(
        "games.csv",
        true,
        Some(|| {
            let mut c = game_column_names();
            c.push("moves");
            c
        }),
    ),
    format(
        "lengths.csv",
        true,
        Some(|| LENGTH_COLUMNS.iter().map(|c| c.0).collect()),
    ),
    format(
        super::perfect_moves::PERFECT_MOVES,
        true,
        Some(|| super::perfect_moves::COLUMNS.to_vec()),
    ),
    format(
        super::exact_openings::EXACT_OPENINGS,
        true,
        Some(|| super::exact_openings::EXACT_COLUMNS.to_vec()),
    ),
    Format {
        file: "report.html",
        section: "Reports and pictures",
        in_run_folder: true,
        columns: None,
    },
    format(
        super::strength_curve::STRENGTH_CURVE,
        false,
        Some(|| super::strength_curve::CURVE_COLUMNS.to_vec()),
    ),
    Format {
        file: "solved.csv",
        section: "katro solve and results/solved/",
        in_run_folder: false,
        columns: Some(|| super::solved::HEADER.trim_end().split(',').collect()),
    },
    format(
        super::proved::PROVED_CSV,
        false,
        Some(super::proved::column_names),
    ),
    format(
        super::nearby::NEARBY,
        false,
        Some(|| super::nearby::NEARBY_COLUMNS.to_vec()),
    ),
    format(
        super::openings::OPENINGS,
        false,
        Some(|| super::openings::OPENINGS_COLUMNS.to_vec()),
    ),
    format(
        super::opening_positions::OPENING_POSITIONS,
        false,
        Some(|| super::opening_positions::OPENING_POSITIONS_COLUMNS.to_vec()),
    ),
];

/// The files of a run's output folder that katro writes, by name.
pub fn run_folder_files() -> impl Iterator<Item = &'static str> {
    FORMATS.iter().filter(|f| f.in_run_folder).map(|f| f.file)
}

/// Whether `name` is a file katro writes into a run's output folder.
pub fn is_run_folder_file(name: &str) -> bool {
    run_folder_files().any(|f| f == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_listed_once_and_every_csv_is_named_so() {
        let mut names: Vec<&str> = FORMATS.iter().map(|f| f.file).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FORMATS.len(), "a file listed twice");
        for f in FORMATS {
            if f.columns.is_some() {
                assert!(f.file.ends_with(".csv"), "{}", f.file);
            }
        }
        assert!(is_run_folder_file("summary.csv") && !is_run_folder_file("openings.csv"));
    }
}
