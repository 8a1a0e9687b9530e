//! opening-positions.csv (docs/OUTPUTS.md): every distinct position in
//! play among the openings `katro prove-openings` values, each with its
//! proof search's result for the player to move. It is rewritten after
//! each position, so an interrupted run keeps what it valued, and a run
//! again with the same variant, rules and limits takes those rows over
//! instead of searching again. The file's name, columns, writer and
//! reader.

use super::csv::{LineError, csv_bytes, field, opt, read_rows};
use super::nearby::{outcome_fields, outcome_of, stop_of, stop_word};
use crate::solve::prove::{Outcome, Stop};

/// The file's name.
pub const OPENING_POSITIONS: &str = "opening-positions.csv";

/// opening-positions.csv's columns (docs/OUTPUTS.md,
/// "opening-positions.csv").
pub const OPENING_POSITIONS_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "position",
    "value",
    "distance",
    "bound",
    "stopped",
    "nodes",
    "max_depth",
    "max_nodes",
    "table_bytes",
];

/// One position and its search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionRow {
    pub variant: String,
    /// The canonical rules string it was searched under.
    pub rules: String,
    /// The whole position as a certificate's decision line writes it
    /// (`certificate::position_text`).
    pub position: String,
    /// Its value for the player to move.
    pub outcome: Outcome,
    /// What ended the search without a proof.
    pub stopped: Option<Stop>,
    pub nodes: u64,
    /// The limits the search was given.
    pub max_depth: u32,
    pub max_nodes: Option<u64>,
    pub table_bytes: u64,
}

impl PositionRow {
    /// Whether `other` is the same position searched under the same
    /// variant, rules and limits: a row that may stand for it.
    pub fn same_search(&self, other: &PositionRow) -> bool {
        self.variant == other.variant
            && self.rules == other.rules
            && self.position == other.position
            && self.max_depth == other.max_depth
            && self.max_nodes == other.max_nodes
            && self.table_bytes == other.table_bytes
    }
}

/// The file's bytes, rows in the order given.
pub fn opening_positions_csv(rows: &[PositionRow]) -> Vec<u8> {
    csv_bytes(OPENING_POSITIONS_COLUMNS, rows.iter().map(fields))
}

fn fields(r: &PositionRow) -> Vec<String> {
    let [value, distance, bound] = outcome_fields(r.outcome);
    vec![
        r.variant.clone(),
        r.rules.clone(),
        r.position.clone(),
        value,
        distance,
        bound,
        r.stopped.map_or("", stop_word).to_string(),
        r.nodes.to_string(),
        r.max_depth.to_string(),
        opt(r.max_nodes),
        r.table_bytes.to_string(),
    ]
}

/// The rows of an opening-positions.csv this build wrote.
pub fn read_opening_positions(bytes: &[u8]) -> Result<Vec<PositionRow>, LineError> {
    let c = OPENING_POSITIONS_COLUMNS;
    read_rows(bytes, c, |f| {
        Ok(PositionRow {
            variant: f.text(0),
            rules: f.text(1),
            position: f.text(2),
            outcome: outcome_of(f.line, &f.text(3), f.num(4)?, f.num(5)?)?,
            stopped: field(f.rec, f.line, c, 6, stop_of)?,
            nodes: f.need(7)?,
            max_depth: f.small(8)?,
            max_nodes: f.num(9)?,
            table_bytes: f.need(10)?,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(outcome: Outcome, stopped: Option<Stop>) -> PositionRow {
        PositionRow {
            variant: "katra-boaoaka-4x8".into(),
            rules: "katro(rows=4,holes=8,x=y,lap_limit=10000)".into(),
            position: "2,2/2,2/0,3/2,2 N . . .".into(),
            outcome,
            stopped,
            nodes: 123_456,
            max_depth: 500,
            max_nodes: Some(200_000_000),
            table_bytes: 1 << 30,
        }
    }

    #[test]
    fn rows_read_back_as_written() {
        let rows = vec![
            row(Outcome::Win(13), None),
            row(Outcome::Loss(22), None),
            row(Outcome::Unknown(41), Some(Stop::Nodes)),
            row(Outcome::Unknown(9), Some(Stop::Watch)),
        ];
        let bytes = opening_positions_csv(&rows);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with(&OPENING_POSITIONS_COLUMNS.join(",")));
        assert!(text.contains(",\"2,2/2,2/0,3/2,2 N . . .\",unknown,,41,nodes,"));
        assert_eq!(read_opening_positions(&bytes).unwrap(), rows);
    }

    #[test]
    fn a_row_stands_only_for_the_same_position_rules_and_limits() {
        let a = row(Outcome::Win(13), None);
        assert!(a.same_search(&row(Outcome::Loss(4), None)));
        let changed: [fn(&mut PositionRow); 6] = [
            |r| r.variant.push('x'),
            |r| r.rules.push('x'),
            |r| r.position.push('x'),
            |r| r.max_depth += 1,
            |r| r.max_nodes = None,
            |r| r.table_bytes /= 2,
        ];
        for change in changed {
            let mut b = a.clone();
            change(&mut b);
            assert!(!a.same_search(&b), "{b:?}");
        }
    }

    #[test]
    fn a_value_that_contradicts_its_columns_names_the_line() {
        let bytes = opening_positions_csv(&[row(Outcome::Win(13), None)]);
        let text = String::from_utf8(bytes)
            .unwrap()
            .replace(",win,13,,", ",win,,13,");
        let e = read_opening_positions(text.as_bytes()).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("`value` \"win\""), "{e}");
    }
}
