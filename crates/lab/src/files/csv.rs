//! What every CSV file katro writes shares: the float and p-value
//! formats (docs/OUTPUTS.md, Conventions), the writer, and the setting
//! columns.

use crate::experiment::plan::Cell;
use crate::rules::{Settings, setting_fields};

/// Decimal places of every float in the CSV files.
pub const DECIMALS: usize = 6;

/// A float with [`DECIMALS`] places; empty when undefined. `-0.000000` is
/// written `0.000000` so a tiny negative rounding never shows a sign.
pub fn float(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            let s = format!("{x:.DECIMALS$}");
            if s.trim_start_matches('-')
                .bytes()
                .all(|b| b == b'0' || b == b'.')
            {
                s.trim_start_matches('-').to_string()
            } else {
                s
            }
        }
        _ => String::new(),
    }
}

/// A p-value as the CSVs print it (docs/OUTPUTS.md, Conventions): as
/// [`float`] from 0.0001 up, and below it with 3 significant digits in
/// scientific notation (`3.50e-11`), so a tiny p-value never reads as an
/// exact 0.
pub fn p_value(v: Option<f64>) -> String {
    match v {
        Some(x) if x > 0.0 && x < 1e-4 => format!("{x:.2e}"),
        _ => float(v),
    }
}

pub(crate) fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

pub(crate) fn csv_bytes<H: AsRef<[u8]>>(
    header: &[H],
    rows: impl IntoIterator<Item = Vec<String>>,
) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(header)
        .expect("writing to memory cannot fail");
    for r in rows {
        debug_assert_eq!(r.len(), header.len());
        w.write_record(&r).expect("writing to memory cannot fail");
    }
    w.into_inner().expect("writing to memory cannot fail")
}

/// The names of the setting columns: every variant has the same settings,
/// so the first cell's (or the canonical rules') names them all.
pub(crate) fn setting_names(cells: &[Cell]) -> Vec<String> {
    let settings = cells
        .first()
        .map_or_else(Settings::canonical, |c| c.rules.settings().clone());
    setting_fields(&settings)
        .into_iter()
        .map(|(k, _)| k)
        .collect()
}

pub(crate) fn setting_values(settings: &Settings) -> Vec<String> {
    setting_fields(settings)
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

/// `fixed` with the setting columns inserted after the column `after`.
pub(crate) fn with_settings(fixed: &[&str], after: &str, settings: &[String]) -> Vec<String> {
    let row = fixed.iter().map(|s| s.to_string()).collect();
    row_with_settings(fixed, after, row, settings.iter().cloned())
}

/// A row of `values`, one per column of `fixed`, with the setting values
/// inserted after the column `after`, where [`with_settings`] puts their
/// names.
pub(crate) fn row_with_settings(
    fixed: &[&str],
    after: &str,
    mut values: Vec<String>,
    settings: impl IntoIterator<Item = String>,
) -> Vec<String> {
    let at = fixed.iter().position(|c| *c == after).map_or(0, |i| i + 1);
    values.splice(at..at, settings);
    values
}

/// Why a CSV file katro wrote with a fixed header does not read back:
/// the line (1 is the header) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct LineError {
    pub line: u64,
    pub reason: String,
}

/// The records of a CSV file whose header must be exactly `columns`
/// (a file of this build), each with its line number.
pub(crate) fn read_records(
    bytes: &[u8],
    columns: &[&str],
) -> Result<Vec<(u64, csv::StringRecord)>, LineError> {
    let mut r = csv::ReaderBuilder::new().from_reader(bytes);
    let at = |line: u64, e: csv::Error| LineError {
        line,
        reason: e.to_string(),
    };
    let header = r.headers().map_err(|e| at(1, e))?;
    if header.iter().ne(columns.iter().copied()) {
        return Err(LineError {
            line: 1,
            reason: format!("the header is not `{}`", columns.join(",")),
        });
    }
    r.records()
        .enumerate()
        .map(|(i, rec)| {
            let line = i as u64 + 2;
            rec.map(|rec| (line, rec)).map_err(|e| at(line, e))
        })
        .collect()
}

/// The rows of a CSV file whose header must be exactly `columns`, each
/// record read by `row`.
pub(crate) fn read_rows<T>(
    bytes: &[u8],
    columns: &[&str],
    row: impl Fn(&Fields) -> Result<T, LineError>,
) -> Result<Vec<T>, LineError> {
    read_records(bytes, columns)?
        .iter()
        .map(|(line, rec)| {
            row(&Fields {
                rec,
                line: *line,
                columns,
            })
        })
        .collect()
}

/// One record of a file read by [`read_records`], its fields read by
/// column index, each error naming the line and the column.
pub(crate) struct Fields<'a> {
    pub(crate) rec: &'a csv::StringRecord,
    pub(crate) line: u64,
    pub(crate) columns: &'a [&'a str],
}

impl Fields<'_> {
    /// Field `i` as written; empty when missing.
    pub(crate) fn text(&self, i: usize) -> String {
        self.rec.get(i).unwrap_or("").to_string()
    }

    /// Field `i` as a whole number; `None` when empty.
    pub(crate) fn num(&self, i: usize) -> Result<Option<u64>, LineError> {
        field(self.rec, self.line, self.columns, i, |t| {
            t.parse::<u64>().ok()
        })
    }

    /// Field `i` as a whole number that must be there.
    pub(crate) fn need(&self, i: usize) -> Result<u64, LineError> {
        self.num(i)?
            .ok_or_else(|| self.error(format!("`{}` is empty", self.columns[i])))
    }

    /// Field `i` as a whole number that must be there and fit 32 bits.
    pub(crate) fn small(&self, i: usize) -> Result<u32, LineError> {
        let v = self.need(i)?;
        u32::try_from(v).map_err(|_| self.error(format!("`{}` {v} is too large", self.columns[i])))
    }

    /// An error at this record's line.
    pub(crate) fn error(&self, reason: String) -> LineError {
        LineError {
            line: self.line,
            reason,
        }
    }
}

/// Field `i` of `rec` (line `line`), named `columns[i]` in an error, read
/// by `parse`; an empty field is `None`.
pub(crate) fn field<T>(
    rec: &csv::StringRecord,
    line: u64,
    columns: &[&str],
    i: usize,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<Option<T>, LineError> {
    let text = rec.get(i).unwrap_or("");
    if text.is_empty() {
        return Ok(None);
    }
    parse(text).map(Some).ok_or_else(|| LineError {
        line,
        reason: format!("`{}` is {text:?}", columns[i]),
    })
}
