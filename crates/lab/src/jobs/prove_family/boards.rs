//! The boards of `katro prove-family`'s family, in its order: the sets
//! (the boards of experiments/boards.toml, the readings of
//! experiments/readings.toml on 6×6 and on 4×4, the boards solve-family
//! solved), `--sets` and `--only`, and the hash that tells one family's
//! boards from another's.

use std::path::PathBuf;

use crate::experiment::parse_experiment;
use crate::files::proved::BoardKey;
use crate::files::solved::{SolvedStart, solved_starts};
use crate::jobs::solve_family::{board_rules, family_shapes, readings};
use crate::jobs::{Error, Refusal, read_optional};
use crate::rng::bytes_hash;
use crate::rules::{Rules, preset};
use crate::store::Store;

/// The sets of boards a family may hold, in the family's order.
pub const SETS: [&str; 4] = ["boards", "readings-6x6", "readings-4x4", "solved-family"];
/// `--sets` when not given: the family.
pub const DEFAULT_SETS: &str = "boards,readings-6x6,readings-4x4";
/// The experiment files whose boards and readings the family takes, as
/// this build was made with them.
const BOARDS_TOML: (&str, &str) = (
    "experiments/boards.toml",
    include_str!("../../../../../experiments/boards.toml"),
);
const READINGS_TOML: (&str, &str) = (
    "experiments/readings.toml",
    include_str!("../../../../../experiments/readings.toml"),
);

/// One board of the family: its set, its reading and its rules.
#[derive(Clone, Debug)]
pub struct Board {
    pub set: &'static str,
    /// `canonical`, `setting=value`, or solve-family's reading.
    pub reading: String,
    pub rules: Rules,
}

impl Board {
    pub fn key(&self) -> BoardKey {
        let s = self.rules.settings();
        BoardKey {
            set: self.set.to_string(),
            reading: self.reading.clone(),
            rules: self.rules.canonical_string(),
            rows: s.rows,
            holes: s.holes,
            seeds: s.seeds.unwrap_or_default(),
        }
    }

    /// `boards 4×3, 1 a hole (canonical)`, as progress names it.
    pub(super) fn name(&self) -> String {
        let k = self.key();
        format!(
            "{} {}×{}, {} a hole ({})",
            k.set, k.rows, k.holes, k.seeds, k.reading
        )
    }
}

/// The variants of one of the experiment files the family is made from.
fn experiment_variants((file, text): (&str, &str)) -> Result<Vec<Rules>, Error> {
    let mut no_files = |spec: &str| Err(format!("{spec}: the family reads no variant file"));
    let exp = parse_experiment(file, text, &mut no_files)?;
    Ok(exp.variants.into_iter().map(|v| v.rules).collect())
}

/// Every board of experiments/boards.toml, in its sweep's order.
fn boards_set() -> Result<Vec<Board>, Error> {
    Ok(experiment_variants(BOARDS_TOML)?
        .into_iter()
        .map(|rules| Board {
            set: "boards",
            reading: "canonical".to_string(),
            rules,
        })
        .collect())
}

/// The readings of experiments/readings.toml as it makes them (its
/// baseline katro-6x6, `canonical`, then each setting changed alone, in
/// its sweeps' order, with its lowered lap limit), on its 6×6 board or on
/// katro-4x4's.
fn readings_set(set: &'static str) -> Result<Vec<Board>, Error> {
    let board = preset("katro-4x4").expect("a shipped preset");
    let mut out = Vec::new();
    for rules in experiment_variants(READINGS_TOML)? {
        let reading = rules
            .name()
            .split_once('+')
            .map_or("canonical", |(_, r)| r)
            .to_string();
        let rules = if set == "readings-4x4" {
            let (b, mut s) = (board.settings(), rules.settings().clone());
            (s.rows, s.holes, s.seeds, s.layout) = (b.rows, b.holes, b.seeds, b.layout.clone());
            let name = rules.name().replacen("katro-6x6", "katro-4x4", 1);
            let (description, source) = (rules.description(), rules.source());
            Rules::new(name, description.into(), source.into(), s).map_err(Refusal::Board)?
        } else {
            rules
        };
        out.push(Board {
            set,
            reading,
            rules,
        });
    }
    Ok(out)
}

/// The boards of solve-family's list (its readings, then rows, holes and
/// seeds) that `solved` says are solved.
fn solved_family_set(solved: &[SolvedStart]) -> Result<Vec<Board>, Error> {
    let mut out = Vec::new();
    for (reading, base) in readings() {
        for (rows, holes, seeds) in family_shapes() {
            let is = |s: &&SolvedStart| {
                (s.reading.as_str(), s.rows, s.holes, s.seeds) == (&reading, rows, holes, seeds)
            };
            if solved.iter().any(|s| is(&s)) {
                out.push(Board {
                    set: "solved-family",
                    reading: reading.clone(),
                    rules: board_rules(&reading, &base, rows, holes, seeds)?,
                });
            }
        }
    }
    Ok(out)
}

/// `--sets` read: known names, each once, in the family's order.
pub fn parse_sets(text: &str) -> Result<Vec<&'static str>, Error> {
    let bad = || Refusal::FlagText {
        flag: "--sets",
        text: text.to_string(),
        want: "give a comma-separated list of boards, readings-6x6, readings-4x4, \
               solved-family",
    };
    let given: Vec<&str> = text.split(',').map(str::trim).collect();
    if given.iter().any(|g| !SETS.contains(g)) || given.is_empty() {
        return Err(bad().into());
    }
    Ok(SETS.into_iter().filter(|s| given.contains(s)).collect())
}

/// One condition of `--only`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Only {
    Rows(usize),
    Holes(usize),
    Seeds(u16),
    Reading(String),
}

/// `--only` read: `KEY=VALUE` conditions, comma-separated, every one
/// required of a board.
pub fn parse_only(text: &str) -> Result<Vec<Only>, Error> {
    let bad = || Refusal::FlagText {
        flag: "--only",
        text: text.to_string(),
        want: "give KEY=VALUE conditions separated by commas, each key once: rows=N, \
               holes=N, seeds=N, reading=NAME (e.g. rows=4,holes=3)",
    };
    let mut out: Vec<Only> = Vec::new();
    for item in text.split(',') {
        let (k, v) = item.trim().split_once('=').ok_or_else(bad)?;
        let only = match k.trim() {
            "rows" => Only::Rows(v.trim().parse().map_err(|_| bad())?),
            "holes" => Only::Holes(v.trim().parse().map_err(|_| bad())?),
            "seeds" => Only::Seeds(v.trim().parse().map_err(|_| bad())?),
            "reading" if !v.trim().is_empty() => Only::Reading(v.trim().to_string()),
            _ => return Err(bad().into()),
        };
        if out
            .iter()
            .any(|o| std::mem::discriminant(o) == std::mem::discriminant(&only))
        {
            return Err(bad().into());
        }
        out.push(only);
    }
    Ok(out)
}

fn matches(only: &[Only], b: &BoardKey) -> bool {
    only.iter().all(|o| match o {
        Only::Rows(n) => b.rows == *n,
        Only::Holes(n) => b.holes == *n,
        Only::Seeds(n) => b.seeds == *n,
        Only::Reading(r) => &b.reading == r,
    })
}

/// The family's boards, in order: the sets in [`SETS`]'s order, each in
/// its own, those `only` keeps.
pub fn family(
    sets: &[&str],
    only: &[Only],
    solved: Option<&[SolvedStart]>,
) -> Result<Vec<Board>, Error> {
    let mut out = Vec::new();
    for set in SETS.into_iter().filter(|s| sets.contains(s)) {
        out.extend(match set {
            "boards" => boards_set()?,
            "readings-6x6" | "readings-4x4" => readings_set(set)?,
            _ => solved_family_set(solved.unwrap_or_default())?,
        });
    }
    out.retain(|b| matches(only, &b.key()));
    Ok(out)
}

/// FNV-1a of every board's set, reading and rules, in order: what tells
/// one family's boards from another's.
pub(super) fn boards_hash(boards: &[Board]) -> String {
    let mut text = String::new();
    for b in boards {
        let k = b.key();
        text.push_str(&format!("{},{},{}\n", k.set, k.reading, k.rules));
    }
    format!("{:016x}", bytes_hash(text.as_bytes()))
}

/// solve-family's solved rows in the file at `path`.
pub(super) fn read_solved(store: &dyn Store, path: &str) -> Result<Vec<SolvedStart>, Error> {
    let p = PathBuf::from(path);
    let Some(bytes) = read_optional(store, &p)? else {
        return Err(Refusal::NotFound {
            path: p,
            needs: "the solved-family set and --check-solved need the solved.csv \
                    `katro solve-family` wrote (give it with --solved FILE)"
                .into(),
        }
        .into());
    };
    let not = |why: &str| Refusal::NotSolvedCsv {
        path: p.clone(),
        why: why.to_string(),
    };
    let text = String::from_utf8(bytes).map_err(|_| not("not UTF-8 text"))?;
    Ok(solved_starts(&text).ok_or_else(|| not("its header is another"))?)
}
