//! `katro validate FILE...`: every problem of every variant or experiment
//! file, told apart by their keys.

use std::path::Path;

use crate::experiment::Experiment;
use crate::rules::parse_variant;
use crate::rules::schema::top_level_keys;
use crate::store::Store;

use super::load::{load_experiment, read_text};
use super::{Error, Readable, Refusal, plural};

const EXPERIMENT_KEYS: [&str; 6] = [
    "variants",
    "matchups",
    "tournament",
    "seed",
    "games",
    "precision",
];

/// What `validate` found: the lines for the valid files, each file's
/// problems, and the closing line when any file has problems.
pub struct Validated {
    pub ok_text: String,
    pub problems: Vec<String>,
    pub summary: Option<Refusal>,
}

/// Checks one file, telling a variant from an experiment by its keys.
fn validate_one(store: &dyn Store, path: &str) -> Result<String, Error> {
    let text = read_text(store, Path::new(path)).map_err(|error| Refusal::Unreadable {
        path: path.into(),
        what: Readable::File,
        error,
    })?;
    let keys = top_level_keys(&text);
    let stem = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant");
    if keys.iter().any(|k| k == "board") {
        return parse_variant(path, &text, stem)
            .map(|r| format!("variant `{}`", r.name()))
            .map_err(Error::Input);
    }
    if keys.iter().any(|k| EXPERIMENT_KEYS.contains(&k.as_str())) {
        return Ok(experiment_words(&load_experiment(store, path)?.exp));
    }
    Err(neither_kind(path, &text, stem))
}

/// Why a file that is neither a variant nor an experiment is refused: if
/// the text is not even TOML, its syntax errors say most.
fn neither_kind(path: &str, text: &str, stem: &str) -> Error {
    match parse_variant(path, text, stem) {
        Err(e)
            if e.problems
                .iter()
                .any(|p| p.message.starts_with("TOML syntax")) =>
        {
            Error::Input(e)
        }
        _ => Refusal::NeitherKind { path: path.into() }.into(),
    }
}

/// What a valid experiment holds: its cells, games at most, and the sweep
/// combinations it leaves out.
fn experiment_words(exp: &Experiment) -> String {
    let cells = exp.cells();
    let most: u64 = cells.iter().map(|c| c.stop.max_games()).sum();
    let skipped = match exp.skipped.len() {
        0 => String::new(),
        n => format!(
            "; {} left out (skip_invalid): {}",
            plural(n as u64, "invalid sweep combination"),
            exp.skipped
                .iter()
                .map(|s| format!("{}: {}", s.variant, s.reasons.join("; ")))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
    };
    format!(
        "experiment `{}`: {}, at most {}{skipped}",
        exp.name,
        plural(cells.len() as u64, "cell"),
        plural(most, "game")
    )
}

/// Checks every file; the caller prints the problems on stderr, the valid
/// files on stdout, and exits 2 with `summary` when there is one.
pub fn validate(store: &dyn Store, paths: &[String]) -> Validated {
    let mut ok_text = String::new();
    let mut problems = Vec::new();
    for p in paths {
        match validate_one(store, p) {
            Ok(what) => ok_text.push_str(&format!("{p}: valid {what}\n")),
            Err(e) => problems.push(e.to_string()),
        }
    }
    let bad = problems.len();
    let summary = (bad > 0).then_some(Refusal::Invalid {
        bad,
        files: paths.len(),
    });
    Validated {
        ok_text,
        problems,
        summary,
    }
}
