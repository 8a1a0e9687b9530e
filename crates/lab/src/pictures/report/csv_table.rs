//! The CSV files a report reads, by column name, and why one cannot be read.

/// A CSV file read by column name.
pub struct CsvTable {
    pub(super) name: String,
    pub(super) headers: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
    /// Each row's place in the file (0 for the first after the header):
    /// a table of some of a file's rows ([`CsvTable::select`]) still
    /// names the file's rows in its errors and on the page.
    pub(super) file_rows: Vec<usize>,
}

/// Why a report cannot be made. Every message but [`ReportError::Drawing`]
/// names the CSV file, and where it can the line and column, at fault.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{file}: cannot read the header row: {source}")]
    Header { file: String, source: csv::Error },
    /// A record the csv reader refuses; `line` counts the header as 1.
    #[error("{file}: line {line}: {source}")]
    Record {
        file: String,
        line: usize,
        source: csv::Error,
    },
    #[error(
        "{file}: missing column(s) {}: a report needs {}",
        .missing.join(", "),
        .needed.join(", ")
    )]
    MissingColumns {
        file: String,
        missing: Vec<String>,
        needed: Vec<String>,
    },
    #[error("{file}: line {line}, column {column}: `{text}` is not a number")]
    NotANumber {
        file: String,
        line: usize,
        column: String,
        text: String,
    },
    #[error("{file}: line {line}, column {column}: `{text}` is not a whole number")]
    NotAWholeNumber {
        file: String,
        line: usize,
        column: String,
        text: String,
    },
    /// A game length in lengths.csv over `u32::MAX` plies.
    #[error("{file}: line {line}: length too large")]
    LengthTooLarge { file: String, line: usize },
    #[error("{file}: no rows: nothing to draw")]
    NoRows { file: String },
    /// plotters failed: katro's fault, not the input's.
    #[error("cannot draw a chart: {0}")]
    Drawing(String),
}

impl ReportError {
    /// Whether katro failed rather than the CSV it was given: a chart that
    /// cannot be drawn (exit 1, not the exit 2 of input the user can fix).
    pub fn is_katros_fault(&self) -> bool {
        matches!(self, ReportError::Drawing(_))
    }
}

impl CsvTable {
    /// Parses `bytes`; `name` is the file name used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<CsvTable, ReportError> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .from_reader(bytes);
        let headers = r
            .headers()
            .map_err(|source| ReportError::Header {
                file: name.to_string(),
                source,
            })?
            .iter()
            .map(str::to_string)
            .collect();
        let mut rows = Vec::new();
        for (i, rec) in r.records().enumerate() {
            let rec = rec.map_err(|source| ReportError::Record {
                file: name.to_string(),
                line: i + 2,
                source,
            })?;
            rows.push(rec.iter().map(str::to_string).collect());
        }
        Ok(CsvTable {
            name: name.to_string(),
            headers,
            file_rows: (0..rows.len()).collect(),
            rows,
        })
    }

    /// The rows for which `keep` holds, in order, each still numbered as
    /// in the file.
    pub(super) fn select(&self, keep: impl Fn(usize) -> bool) -> CsvTable {
        let rows: Vec<usize> = (0..self.len()).filter(|&r| keep(r)).collect();
        CsvTable {
            name: self.name.clone(),
            headers: self.headers.clone(),
            file_rows: rows.iter().map(|&r| self.file_rows[r]).collect(),
            rows: rows.iter().map(|&r| self.rows[r].clone()).collect(),
        }
    }

    /// Row `r`'s place in the file (0 for the first after the header).
    pub(super) fn file_row(&self, r: usize) -> usize {
        self.file_rows[r]
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn has(&self, column: &str) -> bool {
        self.headers.iter().any(|h| h == column)
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Fails, naming the file, when a column the report needs is missing.
    pub(super) fn require(&self, columns: &[&str]) -> Result<(), ReportError> {
        let missing: Vec<String> = columns
            .iter()
            .filter(|c| !self.has(c))
            .map(|c| c.to_string())
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(ReportError::MissingColumns {
                file: self.name.clone(),
                missing,
                needed: columns.iter().map(|c| c.to_string()).collect(),
            })
        }
    }

    /// The text of a field; "" when the column is absent.
    pub fn text(&self, row: usize, column: &str) -> &str {
        match self.headers.iter().position(|h| h == column) {
            Some(c) => self.rows[row].get(c).map_or("", String::as_str),
            None => "",
        }
    }

    /// A field as a whole number; empty is no whole number.
    pub(super) fn whole(&self, row: usize, column: &str) -> Result<u64, ReportError> {
        let t = self.text(row, column);
        t.parse::<u64>().map_err(|_| ReportError::NotAWholeNumber {
            file: self.name.clone(),
            line: self.file_row(row) + 2,
            column: column.to_string(),
            text: t.to_string(),
        })
    }

    /// A field as a number; `None` when empty (undefined).
    pub(super) fn num(&self, row: usize, column: &str) -> Result<Option<f64>, ReportError> {
        let t = self.text(row, column);
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<f64>()
            .map(Some)
            .map_err(|_| ReportError::NotANumber {
                file: self.name.clone(),
                line: self.file_row(row) + 2,
                column: column.to_string(),
                text: t.to_string(),
            })
    }
}
