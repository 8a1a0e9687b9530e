//! `katro rate`: ratings.csv, pairwise.csv and skill-trace.csv refitted
//! from results alone, without replaying a game: a results folder's
//! summary.csv (its tournament as the manifest's experiment names it), or
//! any CSV of seat-ordered tallies (`p1,p2,p1_wins,p2_wins,undecided`,
//! optional `variant`), such as another program's tournament
//! (docs/OUTPUTS.md, ratings.csv).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::results::rating_files;
use super::survey::read_manifest;
use super::{Error, Readable, Refusal};
use crate::experiment::ratings::{ResultLine, Roster, VariantRatings, rate_lines};
use crate::experiment::{Tournament, parse_experiment};
use crate::files::ratings_table;
use crate::store::Store;

/// What `katro rate` was given: a results folder (written back in place
/// unless `out` names another) or a CSV file (written, unless `out` names
/// a folder, to the folder [`default_out`] names).
#[derive(Clone, Debug)]
pub struct RateOptions {
    pub input: String,
    pub out: Option<String>,
}

/// Rates the results `o` names and writes the three rating files;
/// returns the ratings table and where the files went.
pub fn rate(store: &dyn Store, o: &RateOptions) -> Result<String, Error> {
    let input = Path::new(&o.input);
    let (rated, out) = if store.is_dir(input) {
        (
            rate_folder(store, input)?,
            Path::new(o.out.as_deref().unwrap_or(&o.input)).to_path_buf(),
        )
    } else {
        rate_file(store, o)?
    };
    if rated.is_empty() {
        let input = o.input.clone();
        return Err(Refusal::NothingToRate { input }.into());
    }
    let written = write(store, &out, &rated)?;
    let mut text = ratings_table(&rated);
    text.push_str(&format!(
        "\nwrote {} in {}\n",
        written.join(", "),
        out.display()
    ));
    if store.is_file(&out.join("report.html")) {
        text.push_str(&format!(
            "its report.html still shows the ratings it was drawn with: `katro report {}` redraws it\n",
            out.display()
        ));
    }
    Ok(text)
}

/// The folder the rating files of the CSV file `input` go to without
/// `--out`: beside it, named after it without its extension (`t.csv` ->
/// `t/`), or with `-ratings` added when it has none (`t` -> `t-ratings/`),
/// so that the folder is never the file itself.
pub fn default_out(input: &Path) -> PathBuf {
    match (input.extension(), input.file_stem()) {
        (Some(_), Some(stem)) => input.with_file_name(stem),
        _ => {
            let mut name = input.file_name().unwrap_or_default().to_os_string();
            name.push("-ratings");
            input.with_file_name(name)
        }
    }
}

/// A CSV file of tallies rated, and the folder the files go to: `--out`,
/// else [`default_out`], refused when a file is there (a file, not a
/// folder, of that name is no katro output).
fn rate_file(store: &dyn Store, o: &RateOptions) -> Result<(Vec<VariantRatings>, PathBuf), Error> {
    let out = match &o.out {
        Some(out) => PathBuf::from(out),
        None => default_out(Path::new(&o.input)),
    };
    if store.is_file(&out) {
        return Err(Refusal::RateOutIsAFile {
            input: o.input.clone(),
            out,
            named: o.out.is_some(),
        }
        .into());
    }
    let bytes = store
        .read(Path::new(&o.input))
        .map_err(|error| Refusal::Unreadable {
            path: PathBuf::from(&o.input),
            what: Readable::File,
            error,
        })?;
    Ok((rate_lines(&read_tallies(&o.input, &bytes)?, None), out))
}

/// A results folder's tournament rated from its summary.csv: the
/// tournament's agents, anchor and opening plies from the experiment the
/// manifest stores, so the files are the ones `katro run` wrote; without
/// a tournament there, every row between two agents, as for a CSV file.
fn rate_folder(store: &dyn Store, dir: &Path) -> Result<Vec<VariantRatings>, Error> {
    let path = dir.join("summary.csv");
    let bytes = store.read(&path).map_err(|error| {
        super::checkpoint::unfinished_run(store, dir).unwrap_or(Refusal::Unreadable {
            path: path.clone(),
            what: Readable::Results,
            error,
        })
    })?;
    let lines = read_summary(&path, &bytes)?;
    Ok(match stored_tournament(store, dir) {
        Some(t) => rate_tournament(lines, &t),
        None => rate_lines(&lines, None),
    })
}

/// The tournament of the experiment the folder's manifest stores, if any.
fn stored_tournament(store: &dyn Store, dir: &Path) -> Option<Tournament> {
    read_manifest(store, dir)
        .and_then(|m| m.experiment)
        .and_then(|e| {
            let mut no_files = |spec: &str| {
                Err(format!(
                    "{spec}: variant files are not stored in a manifest"
                ))
            };
            parse_experiment(&e.file, &e.text, &mut no_files).ok()
        })
        .and_then(|exp| exp.tournament)
}

/// The tournament `t`'s ratings from the `lines` at its opening plies.
fn rate_tournament(lines: Vec<ResultLine>, t: &Tournament) -> Vec<VariantRatings> {
    let agents: Vec<String> = t.agents.iter().map(|a| a.to_string()).collect();
    let plies = t.opening_plies.to_string();
    let lines: Vec<ResultLine> = lines
        .into_iter()
        .filter(|l| l.opening_plies == plies)
        .collect();
    rate_lines(
        &lines,
        Some(Roster {
            agents: &agents,
            anchor: t.anchor,
        }),
    )
}

/// A CSV's rows, each with its line number.
type Rows = Vec<(u64, Vec<String>)>;

/// A CSV's header and rows, or why it does not read.
pub(super) fn read_csv(file: &str, bytes: &[u8]) -> Result<(Vec<String>, Rows), Error> {
    let bad = |error: csv::Error| Refusal::NotCsv {
        file: file.to_string(),
        line: error.position().map(|p| p.line()),
        error,
    };
    let mut r = csv::ReaderBuilder::new().from_reader(bytes);
    let header: Vec<String> = r
        .headers()
        .map_err(bad)?
        .iter()
        .map(str::to_string)
        .collect();
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(bad)?;
        let line = rec.position().map_or(0, |p| p.line());
        rows.push((line, rec.iter().map(str::to_string).collect()));
    }
    Ok((header, rows))
}

/// Where each of `names` is in `header`, naming the file and the columns
/// missing.
pub(super) fn columns(file: &str, header: &[String], names: &[&str]) -> Result<Vec<usize>, Error> {
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !header.iter().any(|h| h == n))
        .collect();
    if !missing.is_empty() {
        return Err(Refusal::MissingColumns {
            file: file.to_string(),
            missing: missing.iter().map(|m| m.to_string()).collect(),
            names: names.iter().map(|n| n.to_string()).collect(),
        }
        .into());
    }
    Ok(names
        .iter()
        .map(|n| header.iter().position(|h| h == n).expect("checked above"))
        .collect())
}

/// A count: a whole number ≥ 0.
fn count(file: &str, line: u64, column: &str, text: &str) -> Result<u64, Error> {
    text.trim().parse::<u64>().map_err(|_| {
        Refusal::NotACount {
            file: file.to_string(),
            line,
            column: column.to_string(),
            text: text.to_string(),
        }
        .into()
    })
}

/// The tallies of a results CSV from anywhere: `p1,p2,p1_wins,p2_wins,
/// undecided`, optional `variant`; other columns are ignored. A seat
/// order given twice is refused.
pub fn read_tallies(file: &str, bytes: &[u8]) -> Result<Vec<ResultLine>, Error> {
    let (header, rows) = read_csv(file, bytes)?;
    let at = columns(
        file,
        &header,
        &["p1", "p2", "p1_wins", "p2_wins", "undecided"],
    )?;
    let variant = header.iter().position(|h| h == "variant");
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (line, row) in rows {
        out.push(tally_line(file, line, &row, &at, variant, &mut seen)?);
    }
    Ok(out)
}

/// Row `row` (at `line`) of a tallies CSV, its columns at `at` and its
/// variant's, if any, at `variant`; refused when its seat order is one
/// already `seen`.
fn tally_line(
    file: &str,
    line: u64,
    row: &[String],
    at: &[usize],
    variant: Option<usize>,
    seen: &mut BTreeSet<(String, String, String)>,
) -> Result<ResultLine, Error> {
    let field = |i: usize| row.get(i).map_or("", String::as_str);
    let (p1, p2) = (field(at[0]).to_string(), field(at[1]).to_string());
    if p1.is_empty() || p2.is_empty() {
        let file = file.to_string();
        return Err(Refusal::NoAgents { file, line }.into());
    }
    let v = variant.map_or(String::new(), |i| field(i).to_string());
    if !seen.insert((v.clone(), p1.clone(), p2.clone())) {
        return Err(Refusal::PairingTwice {
            file: file.to_string(),
            line,
            p1,
            p2,
            variant: v,
        }
        .into());
    }
    Ok(ResultLine {
        variant: v,
        rules: String::new(),
        opening_plies: String::new(),
        p1,
        p2,
        p1_wins: count(file, line, "p1_wins", field(at[2]))?,
        p2_wins: count(file, line, "p2_wins", field(at[3]))?,
        undecided: count(file, line, "undecided", field(at[4]))?,
    })
}

/// summary.csv's rows as result lines (docs/OUTPUTS.md, summary.csv),
/// through the file's one reader.
fn read_summary(path: &Path, bytes: &[u8]) -> Result<Vec<ResultLine>, Error> {
    let rows = super::report_files::read_run_summary(path, bytes)?;
    Ok(rows
        .into_iter()
        .map(|r| ResultLine {
            undecided: r.games - r.p1_wins - r.p2_wins,
            variant: r.variant,
            rules: r.rules,
            opening_plies: r.opening_plies.to_string(),
            p1: r.p1,
            p2: r.p2,
            p1_wins: r.p1_wins,
            p2_wins: r.p2_wins,
        })
        .collect())
}

/// Writes the rating files into `dir` through [`super::write_outputs`]:
/// each whole or not at all, a file there replaced only if katro wrote it
/// and it is unchanged since (docs/OUTPUTS.md, "What katro writes over"),
/// and a manifest there lists them after.
fn write(store: &dyn Store, dir: &Path, rated: &[VariantRatings]) -> Result<Vec<String>, Error> {
    let files = rating_files(rated);
    let named: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    super::write_outputs(store, dir, &named)?;
    Ok(named.iter().map(|(n, _)| n.to_string()).collect())
}
