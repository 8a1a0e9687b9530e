//! summary.csv, one row per cell, and the same summary as the text table
//! `katro run` and `simulate` print (docs/OUTPUTS.md).

use super::csv::{
    csv_bytes, float, opt, p_value, row_with_settings, setting_names, setting_values, with_settings,
};
use crate::experiment::estimand::{Described, Estimand, legend};
use crate::experiment::plan::Cell;
use crate::experiment::stats::{Aggregate, CellWarning, WARNING_KINDS};
use crate::experiment::verdict::{Row, StartValue, verdict_lines};

/// A summary.csv column: its name (as in the header and docs/OUTPUTS.md)
/// and how a cell's row computes it.
pub type SummaryColumn = (&'static str, fn(&Cell<'_>, &Aggregate) -> String);

/// summary.csv's columns, in order; the setting columns follow `rules`.
pub const SUMMARY_COLUMNS: &[SummaryColumn] = &[
    ("variant", |c, _| c.rules.name().to_string()),
    ("rules", |c, _| c.rules.canonical_string()),
    ("p1", |c, _| c.p1.to_string()),
    ("p2", |c, _| c.p2.to_string()),
    ("opening_plies", |c, _| c.opening_plies.to_string()),
    ("games", |_, a| a.games.to_string()),
    ("distinct_games", |_, a| a.distinct_games().0.to_string()),
    ("distinct_exact", |_, a| a.distinct_games().1.to_string()),
    ("p1_wins", |_, a| a.wins[0].to_string()),
    ("p2_wins", |_, a| a.wins[1].to_string()),
    ("undecided_ply_limit", |_, a| a.ply_limit.to_string()),
    ("undecided_endless_move", |_, a| a.endless_move.to_string()),
    ("undecided_lap_limit", |_, a| a.lap_limit.to_string()),
    ("decided", |_, a| a.decided().to_string()),
    ("p1_win_rate", |_, a| {
        float(a.p1_win_rate().map(|w| w.estimate))
    }),
    ("p1_win_rate_low", |_, a| {
        float(a.p1_win_rate().map(|w| w.low))
    }),
    ("p1_win_rate_high", |_, a| {
        float(a.p1_win_rate().map(|w| w.high))
    }),
    ("advantage_p1", |_, a| float(a.advantage_p1())),
    ("balance", |_, a| float(a.balance())),
    ("completion", |_, a| float(a.completion())),
    ("length_mean", |_, a| float(a.length_mean())),
    ("length_sd", |_, a| float(a.length_sd())),
    ("length_min", |_, a| opt(a.plies_min)),
    ("length_p10", |_, a| opt(a.length_percentile(10))),
    ("length_p50", |_, a| opt(a.length_percentile(50))),
    ("length_p90", |_, a| opt(a.length_percentile(90))),
    ("length_max", |_, a| opt(a.plies_max)),
    ("laps_per_move", |_, a| float(a.laps_per_move())),
    ("max_laps_in_move", |_, a| a.max_laps_in_move.to_string()),
    ("max_relays_in_move", |_, a| {
        a.max_relays_in_move.to_string()
    }),
    ("captures_p1_per_game", |_, a| {
        float(a.per_game(a.captures[0]))
    }),
    ("captures_p2_per_game", |_, a| {
        float(a.per_game(a.captures[1]))
    }),
    ("seeds_captured_p1_per_game", |_, a| {
        float(a.per_game(a.seeds_captured[0]))
    }),
    ("seeds_captured_p2_per_game", |_, a| {
        float(a.per_game(a.seeds_captured[1]))
    }),
    ("branching", |_, a| float(a.branching())),
    ("choice_share", |_, a| float(a.choice_share())),
    ("seeds_sown_per_game", |_, a| {
        float(a.per_game(a.seeds_sown))
    }),
    // The columns below came after the rest: appended, so that a reader
    // of an older summary.csv by position still finds its columns.
    ("estimand", |c, _| estimand(c).name().to_string()),
    ("p1_vs_half_p", |_, a| p_value(a.p1_vs_half_p())),
    ("balance_margin", |c, _| float(c.balance_margin)),
    ("balance_verdict", |c, a| {
        opt(c.balance_margin.map(|m| a.equivalence(m).verdict.text(m)))
    }),
    ("balance_low_p", |c, a| {
        p_value(c.balance_margin.and_then(|m| a.equivalence(m).low_p))
    }),
    ("balance_high_p", |c, a| {
        p_value(c.balance_margin.and_then(|m| a.equivalence(m).high_p))
    }),
    ("length_mean_low", |_, a| {
        float(a.length_mean_interval().map(|m| m.low))
    }),
    ("length_mean_high", |_, a| {
        float(a.length_mean_interval().map(|m| m.high))
    }),
];

/// What a cell's `p1_win_rate` estimates.
fn estimand(c: &Cell) -> Estimand {
    Estimand::of(c.p1, c.p2, c.opening_plies)
}

/// The names of [`SUMMARY_COLUMNS`], in order.
pub fn summary_column_names() -> Vec<&'static str> {
    SUMMARY_COLUMNS.iter().map(|c| c.0).collect()
}

/// summary.csv's header: [`SUMMARY_COLUMNS`] with the setting columns of
/// `cells` after `rules`.
pub fn summary_header(cells: &[Cell]) -> Vec<String> {
    with_settings(&summary_column_names(), "rules", &setting_names(cells))
}

/// One row per cell, in the cells' order.
pub fn summary_csv(cells: &[Cell], aggregates: &[Aggregate]) -> Vec<u8> {
    let header = summary_header(cells);
    let names = summary_column_names();
    let rows = cells.iter().zip(aggregates).map(|(c, a)| {
        let row = SUMMARY_COLUMNS
            .iter()
            .map(|(_, value)| value(c, a))
            .collect();
        row_with_settings(&names, "rules", row, setting_values(c.rules.settings()))
    });
    csv_bytes(&header, rows)
}

/// The summary as an aligned text table for a terminal, then what the
/// win rates estimate (summary.csv's `estimand`, in words), then the
/// cells' warnings, one line per kind (`warning_lines`; `full` names the
/// file that holds every cell's warnings in full, if one is written),
/// then the verdict in words, one line per variant ([`verdict_text`]). A
/// cell with a warning is marked in the `notes` column. The `opening`
/// column shows only when some cell has opening plies, the `estimand`
/// column only when the cells' estimands differ, and the balance verdict
/// only where the experiment declares a `balance_margin`.
pub fn summary_table(
    cells: &[Cell],
    aggregates: &[Aggregate],
    full: Option<&str>,
    starts: &[StartValue],
) -> String {
    let shown = Shown {
        opening: cells.iter().any(|c| c.opening_plies > 0),
        estimand: cells.windows(2).any(|w| estimand(&w[0]) != estimand(&w[1])),
        margin: cells.iter().find_map(|c| c.balance_margin),
    };
    let mut header = vec!["variant".to_string(), "p1".into(), "p2".into()];
    if shown.opening {
        header.push("opening".into());
    }
    header.extend(
        [
            "games",
            "distinct",
            "p1 wins",
            "p2 wins",
            "undecided",
            "p1 win rate [95% CI]",
        ]
        .map(String::from),
    );
    if shown.estimand {
        header.push("estimand".into());
    }
    if let Some(m) = shown.margin {
        header.push(format!("balance ±{m}"));
    }
    header.extend(["advantage_p1", "length mean", "p10/p50/p90", "notes"].map(String::from));
    let mut rows: Vec<Vec<String>> = vec![header];
    for (c, a) in cells.iter().zip(aggregates) {
        rows.push(table_row(c, a, &shown));
    }
    let mut out = aligned(&rows);
    out.push_str(&estimand_line(cells));
    let notes = warning_lines(cells, aggregates, full);
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    out.push('\n');
    out.push_str(&verdict_text(cells, aggregates, starts));
    out
}

/// One `verdict: ` line per variant ([`verdict_lines`]), from the very
/// text summary.csv writes of each cell, so the console and the report
/// (which reads summary.csv) word the same numbers alike; each followed
/// by what `starts` proved of its game's start (`--proved`).
pub fn verdict_text(cells: &[Cell], aggregates: &[Aggregate], starts: &[StartValue]) -> String {
    let fields: Vec<Vec<(&str, String)>> = cells
        .iter()
        .zip(aggregates)
        .map(|(c, a)| SUMMARY_COLUMNS.iter().map(|(n, f)| (*n, f(c, a))).collect())
        .collect();
    let rows: Vec<Row> = fields
        .iter()
        .map(|f| {
            Row::from_fields(|name| {
                f.iter()
                    .find(|(n, _)| *n == name)
                    .map_or("", |(_, v)| v.as_str())
            })
        })
        .collect();
    verdict_lines(&rows, starts)
        .iter()
        .map(|l| format!("verdict: {l}\n"))
        .collect()
}

/// The columns of [`summary_table`] shown only for some experiments.
struct Shown {
    opening: bool,
    estimand: bool,
    margin: Option<f64>,
}

/// What the cells' win rates estimate, in words: `p1 win rate: agent
/// share over 4 random opening plies, every cell`.
fn estimand_line(cells: &[Cell]) -> String {
    let (p1, p2): (Vec<String>, Vec<String>) = cells
        .iter()
        .map(|c| (c.p1.to_string(), c.p2.to_string()))
        .unzip();
    let described: Vec<Described> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| Described {
            estimand: estimand(c),
            opening_plies: c.opening_plies,
            p1: &p1[i],
            p2: &p2[i],
        })
        .collect();
    format!("p1 win rate: {}\n", legend(&described, "cell").join("; "))
}

/// One cell's row of [`summary_table`].
fn table_row(c: &Cell, a: &Aggregate, shown: &Shown) -> Vec<String> {
    let rate = match a.p1_win_rate() {
        Some(w) => format!("{:.3} [{:.3}, {:.3}]", w.estimate, w.low, w.high),
        None => "-".into(),
    };
    let pct = |q| opt(a.length_percentile(q));
    let mut row = vec![c.rules.name().to_string(), c.p1.label(), c.p2.label()];
    if shown.opening {
        row.push(c.opening_plies.to_string());
    }
    row.extend([
        a.games.to_string(),
        distinct_text(a),
        a.wins[0].to_string(),
        a.wins[1].to_string(),
        a.undecided().to_string(),
        rate,
    ]);
    if shown.estimand {
        row.push(estimand(c).name().to_string());
    }
    if shown.margin.is_some() {
        let verdict = c.balance_margin.map(|m| a.equivalence(m).verdict.text(m));
        row.push(verdict.unwrap_or_else(|| "-".into()));
    }
    row.extend([
        a.advantage_p1().map_or("-".into(), |v| format!("{v:.3}")),
        a.length_mean().map_or("-".into(), |v| format!("{v:.1}")),
        format!("{}/{}/{}", pct(10), pct(50), pct(90)),
        a.warnings()
            .iter()
            .map(|w| w.kind)
            .collect::<Vec<_>>()
            .join(", "),
    ]);
    row
}

/// The distinct games, `~` marking the sketch's estimate.
fn distinct_text(a: &Aggregate) -> String {
    let (distinct, exact) = a.distinct_games();
    if exact {
        distinct.to_string()
    } else {
        format!("~{distinct}")
    }
}

/// How many cells a warning line names before it counts the rest.
const NAMED_CELLS: usize = 4;

/// The cells' warnings, one line per kind: a kind one cell has is told in
/// that cell's own words; a kind several cells have is told once, with
/// their count and the first [`NAMED_CELLS`] of them named briefly (the
/// table's notes column marks every one, and `full`, when given, names the
/// file that holds each cell's own words).
fn warning_lines(cells: &[Cell], aggregates: &[Aggregate], full: Option<&str>) -> String {
    let warned: Vec<(&Cell, Vec<CellWarning>)> = cells
        .iter()
        .zip(aggregates)
        .map(|(c, a)| (c, a.warnings()))
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let mut out = String::new();
    for (kind, words) in WARNING_KINDS {
        let with: Vec<(&Cell, &CellWarning)> = warned
            .iter()
            .filter_map(|(c, ws)| ws.iter().find(|w| w.kind == kind).map(|w| (*c, w)))
            .collect();
        match with.as_slice() {
            [] => {}
            [(c, w)] => out.push_str(&format!("warning: {}: {}\n", cell_name(c), w.message)),
            many => out.push_str(&shared_warning((kind, words), many, cells.len(), full)),
        }
    }
    out
}

/// The line of a warning `kind` (`words` saying what it means) that
/// `many` of `cells` cells have.
fn shared_warning(
    (kind, words): (&str, &str),
    many: &[(&Cell, &CellWarning)],
    cells: usize,
    full: Option<&str>,
) -> String {
    let named = brief_names(many.iter().map(|(c, _)| *c));
    let where_all = match full {
        Some(file) => format!("the notes column marks each, {file} says each in full"),
        None => "the notes column marks each".to_string(),
    };
    format!(
        "warning: {kind} in {} of {cells} cells: {words} ({named}; {where_all})\n",
        many.len(),
    )
}

/// The first [`NAMED_CELLS`] cells as `variant: p1 vs p2, p1 vs p2;
/// variant (4 opening plies): ...`, and how many more there are.
fn brief_names<'a, 'r: 'a>(cells: impl Iterator<Item = &'a Cell<'r>>) -> String {
    let cells: Vec<&Cell> = cells.collect();
    let mut groups: Vec<((&str, u32), Vec<String>)> = Vec::new();
    for c in cells.iter().take(NAMED_CELLS) {
        let key = (c.rules.name(), c.opening_plies);
        let matchup = format!("{} vs {}", c.p1.label(), c.p2.label());
        match groups.last_mut() {
            Some((k, m)) if *k == key => m.push(matchup),
            _ => groups.push((key, vec![matchup])),
        }
    }
    let mut text = groups
        .iter()
        .map(|((v, open), m)| match open {
            0 => format!("{v}: {}", m.join(", ")),
            n => format!(
                "{v} ({}): {}",
                crate::engine::notation::plural(*n, "opening ply", "opening plies"),
                m.join(", ")
            ),
        })
        .collect::<Vec<_>>()
        .join("; ");
    if cells.len() > NAMED_CELLS {
        text.push_str(&format!(" and {} more", cells.len() - NAMED_CELLS));
    }
    text
}

/// A cell as a warning names it: variant, matchup and opening plies.
fn cell_name(c: &Cell) -> String {
    let open = match c.opening_plies {
        0 => String::new(),
        n => format!(
            ", {}",
            crate::engine::notation::plural(n, "opening ply", "opening plies")
        ),
    };
    format!(
        "{}, {} vs {}{open}",
        c.rules.name(),
        c.p1.label(),
        c.p2.label()
    )
}

/// The rows in columns as wide as their widest field: names (the first
/// three) and notes (the last) left-aligned, numbers right-aligned.
fn aligned(rows: &[Vec<String>]) -> String {
    let columns = rows[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let last = columns - 1;
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (v, &w))| {
                if i < 3 || i == last {
                    format!("{v:<w$}")
                } else {
                    format!("{v:>w$}")
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// What is wrong with a line of summary.csv read back ([`read_summary`]).
/// csv's error is neither Clone nor Eq, so only its text is kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SummaryLineProblem {
    /// The header or a record that is not CSV.
    #[error("{reason}")]
    Csv { reason: String },
    /// The header lacks a column read back.
    #[error("no column `{column}`")]
    NoColumn { column: &'static str },
    /// A field of a counted column that is no integer.
    #[error("`{column}` {text:?}: {error}")]
    NotInteger {
        column: &'static str,
        text: String,
        error: std::num::ParseIntError,
    },
    /// More wins than games.
    #[error("{wins} wins of {games} games")]
    WinsOverGames { wins: u64, games: u64 },
}

/// Why summary.csv does not read back: its line (the header is 1) and
/// the problem there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct SummaryReadError {
    pub line: u64,
    pub problem: SummaryLineProblem,
}

/// The columns of summary.csv read back, in [`SummaryRow`]'s order.
pub const READ_BACK_COLUMNS: [&str; 16] = [
    "variant",
    "rules",
    "p1",
    "p2",
    "opening_plies",
    "games",
    "decided",
    "p1_wins",
    "p2_wins",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "length_mean",
    "distinct_games",
    "ply_limit",
    "lap_limit",
];

/// A row of summary.csv read back: the one reader of the file for the
/// jobs that work from a finished run's summary (`katro rate DIR`, `katro
/// curve DIR`). Counts are typed; the figures the curve copies are kept
/// as written, so a copy is the same text.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    /// The row's line in the file (the header is line 1).
    pub line: u64,
    pub variant: String,
    pub rules: String,
    pub p1: String,
    pub p2: String,
    pub opening_plies: u32,
    pub games: u64,
    pub decided: u64,
    pub p1_wins: u64,
    pub p2_wins: u64,
    pub p1_win_rate: String,
    pub p1_win_rate_low: String,
    pub p1_win_rate_high: String,
    pub length_mean: String,
    pub distinct_games: String,
    pub ply_limit: i64,
    pub lap_limit: i64,
}

/// summary.csv's rows, by column name (other columns, and their order,
/// do not matter), or the first line that does not read.
pub fn read_summary(bytes: &[u8]) -> Result<Vec<SummaryRow>, SummaryReadError> {
    let bad = |line: u64, problem: SummaryLineProblem| SummaryReadError { line, problem };
    let csv = |line: u64, e: ::csv::Error| {
        let reason = e.to_string();
        bad(line, SummaryLineProblem::Csv { reason })
    };
    let mut r = ::csv::Reader::from_reader(bytes);
    let headers: Vec<String> = (r.headers().map_err(|e| csv(1, e))?)
        .iter()
        .map(str::to_string)
        .collect();
    let mut at = [0; READ_BACK_COLUMNS.len()];
    for (i, column) in READ_BACK_COLUMNS.into_iter().enumerate() {
        at[i] = (headers.iter().position(|h| h == column))
            .ok_or_else(|| bad(1, SummaryLineProblem::NoColumn { column }))?;
    }
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i as u64 + 2;
        let rec = rec.map_err(|e| csv(line, e))?;
        rows.push(summary_row(&rec, &at, line).map_err(|p| bad(line, p))?);
    }
    Ok(rows)
}

/// Record `rec` (at `line`) of summary.csv, its columns at `at`.
fn summary_row(
    rec: &::csv::StringRecord,
    at: &[usize; READ_BACK_COLUMNS.len()],
    line: u64,
) -> Result<SummaryRow, SummaryLineProblem> {
    fn number<T: std::str::FromStr<Err = std::num::ParseIntError>>(
        rec: &::csv::StringRecord,
        at: &[usize],
        k: usize,
    ) -> Result<T, SummaryLineProblem> {
        let text = rec.get(at[k]).unwrap_or("");
        text.parse::<T>()
            .map_err(|error| SummaryLineProblem::NotInteger {
                column: READ_BACK_COLUMNS[k],
                text: text.to_string(),
                error,
            })
    }
    let s = |k: usize| rec.get(at[k]).unwrap_or("").to_string();
    let row = SummaryRow {
        line,
        variant: s(0),
        rules: s(1),
        p1: s(2),
        p2: s(3),
        opening_plies: number(rec, at, 4)?,
        games: number(rec, at, 5)?,
        decided: number(rec, at, 6)?,
        p1_wins: number(rec, at, 7)?,
        p2_wins: number(rec, at, 8)?,
        p1_win_rate: s(9),
        p1_win_rate_low: s(10),
        p1_win_rate_high: s(11),
        length_mean: s(12),
        distinct_games: s(13),
        ply_limit: number(rec, at, 14)?,
        lap_limit: number(rec, at, 15)?,
    };
    let wins = row.p1_wins + row.p2_wins;
    if wins > row.games {
        let games = row.games;
        return Err(SummaryLineProblem::WinsOverGames { wins, games });
    }
    Ok(row)
}
