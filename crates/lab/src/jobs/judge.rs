//! `katro judge DIR`: the games a run stored, judged against the exact
//! solution of their variant (docs/OUTPUTS.md, "perfect-moves.csv").
//! Reads DIR/games.csv and DIR/manifest.json, solves each variant that
//! fits the memory allowed, and writes DIR/perfect-moves.csv, all through
//! a [`Store`]; the judging itself is [`crate::experiment::judge`].

use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::engine::Move;
use crate::engine::notation::parse_move;
use crate::experiment::judge::{Counts, Share, clustered_share, judge_game};
use crate::experiment::{LAP_LIMIT_RANGE, PLY_LIMIT_RANGE};
use crate::files::ManifestRead;
use crate::files::float;
use crate::rules::Rules;
use crate::solve::{SolveError, SolvedTable, Value};
use crate::store::Store;

use super::owned::{Folder, write_outputs};
use super::report_files::{read_needed, read_needed_manifest};
use super::solve::solve_unstopped;
use super::{ColumnNeed, Error, Refusal};

pub use crate::files::perfect_moves::{COLUMNS, PERFECT_MOVES};

/// What `katro judge` did, for the person running it.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeOutcome {
    /// Each variant as solved or refused: its name, the solve's time and
    /// positions, or why it was not judged.
    pub variants: Vec<VariantOutcome>,
    /// Games judged, in all.
    pub games: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct VariantOutcome {
    pub variant: String,
    pub games: u64,
    /// `Ok((solve time, positions, judge time))`, or why the variant's
    /// games were not judged.
    pub result: Result<(Duration, u64, Duration), SolveError>,
}

/// One game of games.csv, as far as judging needs it.
struct Row {
    line: u64,
    cell: usize,
    variant: usize,
    opening_plies: u32,
    plies: Option<u32>,
    moves: String,
}

/// A cell of the run: summary.csv's key (variant, rules, p1, p2,
/// opening_plies).
struct CellKey {
    variant_name: String,
    variant: usize,
    p1: String,
    p2: String,
    opening_plies: u32,
}

/// Each seat's per-game counts in a cell, in game order.
#[derive(Default)]
struct CellTally {
    games: u64,
    seats: [Vec<Counts>; 2],
}

/// Judges every game of `dir/games.csv` and writes `dir/perfect-moves.csv`
/// (and lists it in the manifest's `files`). A variant whose solve needs
/// more than `max_bytes` is not judged: its rows say so, and the outcome
/// says why. `note` hears what is being done as it happens.
pub fn judge(
    store: &dyn Store,
    dir: &Path,
    max_bytes: u64,
    note: &mut dyn FnMut(&str),
) -> Result<JudgeOutcome, Error> {
    let games_path = dir.join("games.csv");
    let manifest_path = dir.join("manifest.json");
    let (games, manifest) = read_inputs(store, &games_path, &manifest_path)?;
    let (rules, cells, rows) = read_games(&games_path, &games, &manifest, &manifest_path)?;
    // Checked before any solve, so that a refusal costs nothing.
    Folder::open(store, dir).check(
        &[PERFECT_MOVES.to_string(), "manifest.json".to_string()],
        &format!("katro judge {}", dir.display()),
    )?;
    let mut tallies = cell_tallies(cells.len(), &rows);
    let (outcome, starts) = judge_all(&games_path, &rules, &rows, max_bytes, note, &mut tallies)?;
    let csv = perfect_moves_csv(&rules, &cells, &tallies, &starts);
    write_outputs(store, dir, &[(PERFECT_MOVES, &csv)])?;
    Ok(outcome)
}

/// Each cell's tally before judging: its games counted.
fn cell_tallies(cells: usize, rows: &[Row]) -> Vec<CellTally> {
    let mut tallies: Vec<CellTally> = (0..cells).map(|_| CellTally::default()).collect();
    for r in rows {
        tallies[r.cell].games += 1;
    }
    tallies
}

/// games.csv's bytes, and the manifest beside it, read;
/// refused when either is missing.
fn read_inputs(
    store: &dyn Store,
    games_path: &Path,
    manifest_path: &Path,
) -> Result<(Vec<u8>, ManifestRead), Error> {
    let games = read_needed(
        store,
        games_path,
        "`katro judge` needs the games.csv of a run made with per_game_rows = true \
         and moves_in_rows = true"
            .into(),
    )?;
    let manifest = read_needed_manifest(
        store,
        manifest_path,
        "`katro judge` rebuilds each variant's rules from the manifest katro \
         wrote beside games.csv"
            .into(),
    )?;
    Ok((games, manifest))
}

/// Judges the games of each variant in `rules` in turn, adding their
/// counts to their cells' tallies; the outcome, and each start's value
/// where its variant was solved.
fn judge_all(
    games_path: &Path,
    rules: &[Rules],
    rows: &[Row],
    max_bytes: u64,
    note: &mut dyn FnMut(&str),
    tallies: &mut [CellTally],
) -> Result<(JudgeOutcome, Vec<Option<Value>>), Error> {
    let mut starts: Vec<Option<Value>> = vec![None; rules.len()];
    let mut outcome = JudgeOutcome {
        variants: Vec::new(),
        games: 0,
    };
    for (v, r) in rules.iter().enumerate() {
        let mine: Vec<&Row> = rows.iter().filter(|row| row.variant == v).collect();
        let (judged, start) = judge_variant(games_path, r, &mine, max_bytes, note, tallies)?;
        if judged.result.is_ok() {
            starts[v] = start;
            outcome.games += judged.games;
        }
        outcome.variants.push(judged);
    }
    Ok((outcome, starts))
}

/// Solves one variant and judges its games `mine`, adding their counts to
/// their cells' tallies; the outcome, and the start's value when solved.
fn judge_variant(
    games_path: &Path,
    r: &Rules,
    mine: &[&Row],
    max_bytes: u64,
    note: &mut dyn FnMut(&str),
    tallies: &mut [CellTally],
) -> Result<(VariantOutcome, Option<Value>), Error> {
    note(&format!(
        "solving {} ({}) to judge its {} games",
        r.name(),
        r.canonical_string(),
        mine.len()
    ));
    let t0 = Instant::now();
    let solved = solve_unstopped(r, max_bytes);
    let solve_time = t0.elapsed();
    let outcome = |result| VariantOutcome {
        variant: r.name().to_string(),
        games: mine.len() as u64,
        result,
    };
    let table = match solved {
        Ok((t, _)) => t,
        Err(e) => {
            note(&format!("{}: not judged: {e}", r.name()));
            return Ok((outcome(Err(e)), None));
        }
    };
    let t1 = Instant::now();
    let start = table.value(r, &r.start());
    judge_rows(games_path, r, &table, mine, tallies)?;
    let result = Ok((solve_time, table.len() as u64, t1.elapsed()));
    Ok((outcome(result), start))
}

/// Judges the games `mine` on the pool, adding each seat's counts to its
/// cell's tally in game order.
fn judge_rows(
    games_path: &Path,
    r: &Rules,
    table: &SolvedTable,
    mine: &[&Row],
    tallies: &mut [CellTally],
) -> Result<(), Error> {
    let judged: Vec<[Counts; 2]> = mine
        .par_iter()
        .map(|row| judge_row(games_path, r, table, row))
        .collect::<Result<_, Error>>()?;
    for (row, seats) in mine.iter().zip(judged) {
        for (s, c) in seats.into_iter().enumerate() {
            tallies[row.cell].seats[s].push(c);
        }
    }
    Ok(())
}

/// A row of games.csv that does not judge: `why`, at `file`'s `line`.
fn games_line(file: &str, line: u64, why: String) -> Error {
    let file = file.to_string();
    Refusal::GamesLine { file, line, why }.into()
}

/// Replays and judges one row, naming its line on failure.
fn judge_row(
    file: &Path,
    rules: &Rules,
    table: &SolvedTable,
    row: &Row,
) -> Result<[Counts; 2], Error> {
    let at = |why: String| games_line(&file.display().to_string(), row.line, why);
    let moves: Vec<Move> = row
        .moves
        .split_whitespace()
        .enumerate()
        .map(|(i, m)| parse_move(rules, m).map_err(|e| at(format!("move {} {e}", i + 1))))
        .collect::<Result<_, _>>()?;
    let j = judge_game(table, rules, &moves, row.opening_plies).map_err(|e| at(e.to_string()))?;
    if let Some(p) = row.plies
        && p != j.plies
    {
        return Err(at(format!(
            "its moves replay to {} plies, but its `plies` is {p}",
            j.plies
        )));
    }
    Ok(j.seats)
}

type Games = (Vec<Rules>, Vec<CellKey>, Vec<Row>);

/// The rows of games.csv, their cells in order of first appearance (the
/// order of summary.csv) and the rules each was played under.
fn read_games(
    path: &Path,
    bytes: &[u8],
    manifest: &ManifestRead,
    manifest_path: &Path,
) -> Result<Games, Error> {
    let file = path.display().to_string();
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .from_reader(bytes);
    let headers = games_headers(&mut r, &file)?;
    let mut g = GamesReader {
        columns: Columns::of(&headers, &file)?,
        file,
        manifest,
        manifest_path,
        variants: Vec::new(),
        rules: Vec::new(),
        cells: Vec::new(),
        rows: Vec::new(),
    };
    for (i, rec) in r.records().enumerate() {
        let line = i as u64 + 2;
        let rec = rec.map_err(|e| g.at(line, e.to_string()))?;
        g.read_row(line, &rec)?;
    }
    Ok((g.rules, g.cells, g.rows))
}

/// games.csv's header row, or why it does not read.
fn games_headers(r: &mut csv::Reader<&[u8]>, file: &str) -> Result<Vec<String>, Error> {
    Ok(r.headers()
        .map_err(|error| Refusal::GamesHeader {
            file: file.to_string(),
            error,
        })?
        .iter()
        .map(str::to_string)
        .collect())
}

/// Where games.csv's columns are: those judging needs, and the limits and
/// plies when there.
struct Columns {
    variant: usize,
    p1: usize,
    p2: usize,
    opening: usize,
    moves: usize,
    ply_limit: Option<usize>,
    lap_limit: Option<usize>,
    plies: Option<usize>,
}

impl Columns {
    fn of(headers: &[String], file: &str) -> Result<Columns, Error> {
        let col = |name: &str| headers.iter().position(|h| h == name);
        let need = |name: &str| {
            col(name).ok_or_else(|| Refusal::NoColumn {
                file: file.to_string(),
                column: name.to_string(),
                need: ColumnNeed::Judge,
            })
        };
        let [variant, p1, p2, opening, moves] =
            ["variant", "p1", "p2", "opening_plies", "moves"].map(need);
        Ok(Columns {
            variant: variant?,
            p1: p1?,
            p2: p2?,
            opening: opening?,
            moves: moves?,
            ply_limit: col("ply_limit"),
            lap_limit: col("lap_limit"),
            plies: col("plies"),
        })
    }
}

/// games.csv being read: the rules and cells met so far.
struct GamesReader<'a> {
    file: String,
    columns: Columns,
    manifest: &'a ManifestRead,
    manifest_path: &'a Path,
    /// Each variant name's rules as the manifest gives them.
    variants: Vec<(String, Rules)>,
    /// The distinct rules games were played under, limits applied.
    rules: Vec<Rules>,
    cells: Vec<CellKey>,
    rows: Vec<Row>,
}

impl GamesReader<'_> {
    fn at(&self, line: u64, why: String) -> Error {
        games_line(&self.file, line, why)
    }

    fn read_row(&mut self, line: u64, rec: &csv::StringRecord) -> Result<(), Error> {
        let c = &self.columns;
        let (moves, opening, plies_col) = (c.moves, c.opening, c.plies);
        let name = &rec[c.variant];
        let base = self.base_rules(name)?;
        let played = self.with_limits(base, line, rec)?;
        let v = self.rules_index(played);
        let opening_plies = self.count(line, rec, opening, "opening_plies")?;
        let plies = match plies_col {
            Some(c) => Some(self.count(line, rec, c, "plies")?),
            None => None,
        };
        let cell = self.cell_of(rec, v, opening_plies);
        self.rows.push(Row {
            line,
            cell,
            variant: v,
            opening_plies,
            plies,
            moves: rec[moves].to_string(),
        });
        Ok(())
    }

    /// The count in column `at` (named `key`) of the row at `line`.
    fn count(
        &self,
        line: u64,
        rec: &csv::StringRecord,
        at: usize,
        key: &str,
    ) -> Result<u32, Error> {
        rec[at]
            .parse::<u32>()
            .map_err(|e| self.at(line, format!("`{key}` {:?}: {e}", &rec[at])))
    }

    /// The index of `played` among the distinct rules, added when new.
    fn rules_index(&mut self, played: Rules) -> usize {
        let same = |r: &Rules| r.canonical_string() == played.canonical_string();
        match self.rules.iter().position(same) {
            Some(v) => v,
            None => {
                self.rules.push(played);
                self.rules.len() - 1
            }
        }
    }

    /// The rules the manifest gives variant `name`.
    fn base_rules(&mut self, name: &str) -> Result<Rules, Error> {
        if let Some((_, r)) = self.variants.iter().find(|(n, _)| n == name) {
            return Ok(r.clone());
        }
        let r = super::replay::variant_of_manifest(self.manifest, name).map_err(|error| {
            Refusal::ManifestVariant {
                manifest: self.manifest_path.to_path_buf(),
                error,
            }
        })?;
        self.variants.push((name.to_string(), r.clone()));
        Ok(r)
    }

    /// `base` with the row's `ply_limit` and `lap_limit` applied.
    fn with_limits(&self, base: Rules, line: u64, rec: &csv::StringRecord) -> Result<Rules, Error> {
        let mut limits = [None, None];
        for (slot, (c, range, key)) in limits.iter_mut().zip([
            (self.columns.ply_limit, &PLY_LIMIT_RANGE, "ply_limit"),
            (self.columns.lap_limit, &LAP_LIMIT_RANGE, "lap_limit"),
        ]) {
            if let Some(c) = c {
                let text = &rec[c];
                *slot = Some(
                    text.parse::<i64>()
                        .map_err(|e| e.to_string())
                        .and_then(|v| range.check(v).map_err(|e| e.to_string()))
                        .map_err(|e| self.at(line, format!("`{key}` {text:?}: {e}")))?,
                );
            }
        }
        base.with_limits(limits[0], limits[1])
            .map_err(|e| self.at(line, e.to_string()))
    }

    /// The row's cell, added when new.
    fn cell_of(&mut self, rec: &csv::StringRecord, v: usize, opening_plies: u32) -> usize {
        let c = &self.columns;
        let (name, p1, p2) = (&rec[c.variant], &rec[c.p1], &rec[c.p2]);
        if let Some(c) = self.cells.iter().position(|c| {
            c.variant == v
                && c.variant_name == name
                && c.p1 == p1
                && c.p2 == p2
                && c.opening_plies == opening_plies
        }) {
            return c;
        }
        self.cells.push(CellKey {
            variant_name: name.to_string(),
            variant: v,
            p1: p1.to_string(),
            p2: p2.to_string(),
            opening_plies,
        });
        self.cells.len() - 1
    }
}

fn share_fields(s: Option<Share>) -> [String; 3] {
    let lo = s.and_then(|s| s.interval).map(|i| i.0);
    let hi = s.and_then(|s| s.interval).map(|i| i.1);
    [float(s.map(|s| s.share)), float(lo), float(hi)]
}

fn perfect_moves_csv(
    rules: &[Rules],
    cells: &[CellKey],
    tallies: &[CellTally],
    starts: &[Option<Value>],
) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(COLUMNS)
        .expect("writing to memory cannot fail");
    for (cell, tally) in cells.iter().zip(tallies) {
        let start = starts[cell.variant];
        for (s, (seat, agent)) in [("p1", &cell.p1), ("p2", &cell.p2)].into_iter().enumerate() {
            let mut row = cell_fields(cell, &rules[cell.variant]);
            row.extend([seat.to_string(), agent.clone()]);
            row.extend(seat_fields(start, tally.games, &tally.seats[s]));
            w.write_record(&row).expect("writing to memory cannot fail");
        }
    }
    w.into_inner().expect("writing to memory cannot fail")
}

/// The fields of perfect-moves.csv that name the cell, played under
/// `rules`.
fn cell_fields(cell: &CellKey, rules: &Rules) -> Vec<String> {
    vec![
        cell.variant_name.clone(),
        rules.canonical_string(),
        cell.p1.clone(),
        cell.p2.clone(),
        cell.opening_plies.to_string(),
    ]
}

/// A seat's counts over all its games.
fn total_of(per_game: &[Counts]) -> Counts {
    let mut total = Counts::default();
    for c in per_game {
        total.add(*c);
    }
    total
}

/// A seat's row of perfect-moves.csv from `judged` on: the start's value
/// (`None` when the variant was not solved) and the seat's counts and
/// shares over its `games`, whose counts are `per_game`.
fn seat_fields(start: Option<Value>, games: u64, per_game: &[Counts]) -> Vec<String> {
    let judged = start.is_some();
    let total = total_of(per_game);
    let pairs =
        |f: fn(&Counts) -> (u64, u64)| -> Vec<(u64, u64)> { per_game.iter().map(f).collect() };
    let kept = clustered_share(&pairs(|c| (c.decisions, c.kept)));
    let optimal = clustered_share(&pairs(|c| (c.decisions, c.optimal)));
    let critical = clustered_share(&pairs(|c| (c.critical, c.critical_kept)));
    let count = |n: u64| if judged { n.to_string() } else { String::new() };
    let mut row = vec![
        judged.to_string(),
        start.map_or(String::new(), |v| v.word().to_string()),
        start
            .and_then(Value::distance)
            .map_or(String::new(), |d| d.to_string()),
        games.to_string(),
        count(total.decisions),
        count(total.kept),
    ];
    row.extend(share_fields(kept));
    row.push(count(total.optimal));
    row.extend(share_fields(optimal));
    row.push(count(total.critical));
    row.push(count(total.critical_kept));
    row.extend(share_fields(critical));
    row.push(float(
        (judged && games > 0).then(|| total.decisions as f64 / games as f64),
    ));
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    #[test]
    fn a_games_csv_without_moves_is_refused_naming_what_to_set() {
        let store = MemoryStore::new();
        let dir = Path::new("/r");
        store.create_dir_all(dir).unwrap();
        store
            .write_atomic(
                dir,
                "games.csv",
                b"variant,p1,p2,opening_plies\nx,random,random,0\n",
            )
            .unwrap();
        store
            .write_atomic(
                dir,
                "manifest.json",
                br#"{"katro_version": "0.1.0", "name": "x", "files": []}"#,
            )
            .unwrap();
        let e = judge(&store, dir, 1 << 30, &mut |_| {}).unwrap_err();
        assert!(
            matches!(&e, Error::Refused(Refusal::NoColumn { file, column, need: ColumnNeed::Judge })
                if file.ends_with("/r/games.csv") && column == "moves"),
            "{e}"
        );
        assert!(!store.is_file(&dir.join(PERFECT_MOVES)));
    }
}
