//! nearby.csv (docs/OUTPUTS.md): `katro prove-nearby`'s start layouts one
//! seed away from a variant's, each with its start's value for the first
//! player as the proof search found it. The file's name, columns, writer
//! and reader.

use super::csv::{LineError, csv_bytes, field, opt, read_rows};
use crate::solve::prove::{Outcome, Stop};

/// The file's name.
pub const NEARBY: &str = "nearby.csv";

/// nearby.csv's columns (docs/OUTPUTS.md, "nearby.csv").
pub const NEARBY_COLUMNS: &[&str] = &[
    "variant",
    "from",
    "to",
    "layout",
    "rules",
    "value",
    "distance",
    "bound",
    "nodes",
    "stopped",
    "max_depth",
    "max_nodes",
    "table_bytes",
];

/// One layout and its start's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearbyRow {
    /// The variant the layout is one seed away from, as named.
    pub variant: String,
    /// The hole the seed was taken from and the hole it was put in,
    /// in RULES.md's notation (`a1`).
    pub from: String,
    pub to: String,
    /// The layout as a variant file writes `board.layout`.
    pub layout: String,
    /// The canonical rules string of the variant with that layout.
    pub rules: String,
    /// The start's value for the first player (South, who moves first).
    pub outcome: Outcome,
    /// What ended the search without a proof.
    pub stopped: Option<Stop>,
    pub nodes: u64,
    /// The limits the search was given.
    pub max_depth: u32,
    pub max_nodes: Option<u64>,
    pub table_bytes: u64,
}

/// `stopped`'s word for each reason.
pub fn stop_word(s: Stop) -> &'static str {
    match s {
        Stop::Depth => "depth",
        Stop::Nodes => "nodes",
        Stop::Watch => "time",
    }
}

/// [`stop_word`] read back.
pub(crate) fn stop_of(word: &str) -> Option<Stop> {
    [Stop::Depth, Stop::Nodes, Stop::Watch]
        .into_iter()
        .find(|&s| stop_word(s) == word)
}

/// The file's bytes, rows in the order given.
pub fn nearby_csv(rows: &[NearbyRow]) -> Vec<u8> {
    csv_bytes(NEARBY_COLUMNS, rows.iter().map(fields))
}

/// An outcome as the columns `value`, `distance` and `bound` write it:
/// a win or loss with its distance, an unknown with its bound, a game
/// ended undecided as `draw`.
pub(crate) fn outcome_fields(o: Outcome) -> [String; 3] {
    let bound = match o {
        Outcome::Unknown(d) => Some(d),
        _ => None,
    };
    [o.word().to_string(), opt(o.distance()), opt(bound)]
}

/// [`outcome_fields`] read back, line `line` named in an error.
pub(crate) fn outcome_of(
    line: u64,
    value: &str,
    distance: Option<u64>,
    bound: Option<u64>,
) -> Result<Outcome, LineError> {
    let d32 = |v: Option<u64>| v.and_then(|d| u32::try_from(d).ok());
    Ok(match (value, d32(distance), d32(bound)) {
        ("win", Some(d), None) => Outcome::Win(d),
        ("loss", Some(d), None) => Outcome::Loss(d),
        ("unknown", None, Some(b)) => Outcome::Unknown(b),
        ("draw", None, None) => Outcome::Ended,
        (v, _, _) => {
            return Err(LineError {
                line,
                reason: format!("`value` {v:?} with `distance` {distance:?} and `bound` {bound:?}"),
            });
        }
    })
}

fn fields(r: &NearbyRow) -> Vec<String> {
    let [value, distance, bound] = outcome_fields(r.outcome);
    vec![
        r.variant.clone(),
        r.from.clone(),
        r.to.clone(),
        r.layout.clone(),
        r.rules.clone(),
        value,
        distance,
        bound,
        r.nodes.to_string(),
        r.stopped.map_or("", stop_word).to_string(),
        r.max_depth.to_string(),
        opt(r.max_nodes),
        r.table_bytes.to_string(),
    ]
}

/// The rows of a nearby.csv this build wrote.
pub fn read_nearby(bytes: &[u8]) -> Result<Vec<NearbyRow>, LineError> {
    let c = NEARBY_COLUMNS;
    read_rows(bytes, c, |f| {
        Ok(NearbyRow {
            variant: f.text(0),
            from: f.text(1),
            to: f.text(2),
            layout: f.text(3),
            rules: f.text(4),
            outcome: outcome_of(f.line, &f.text(5), f.num(6)?, f.num(7)?)?,
            stopped: field(f.rec, f.line, c, 9, stop_of)?,
            nodes: f.need(8)?,
            max_depth: f.small(10)?,
            max_nodes: f.num(11)?,
            table_bytes: f.need(12)?,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(from: &str, outcome: Outcome, stopped: Option<Stop>) -> NearbyRow {
        NearbyRow {
            variant: "katro-6x3".into(),
            from: from.into(),
            to: "b2".into(),
            layout: "[[1, 3], [2, 2]]".into(),
            rules: "katro(rows=2,holes=2,layout=1.3/2.2,x=y)".into(),
            outcome,
            stopped,
            nodes: 1234,
            max_depth: 60,
            max_nodes: Some(1_000_000),
            table_bytes: 1 << 28,
        }
    }

    #[test]
    fn rows_read_back_as_written() {
        let rows = vec![
            row("a1", Outcome::Win(15), None),
            row("b1", Outcome::Loss(8), None),
            row("c1", Outcome::Unknown(31), Some(Stop::Nodes)),
            row("d1", Outcome::Unknown(60), Some(Stop::Depth)),
            row("e1", Outcome::Unknown(9), Some(Stop::Watch)),
            row("f1", Outcome::Ended, None),
            NearbyRow {
                max_nodes: None,
                ..row("g1", Outcome::Win(1), None)
            },
        ];
        let bytes = nearby_csv(&rows);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(
            text.starts_with(&(NEARBY_COLUMNS.join(",") + "\n")),
            "{text}"
        );
        assert!(
            text.contains(",c1,b2,\"[[1, 3], [2, 2]]\",\"katro(rows=2"),
            "{text}"
        );
        assert!(
            text.contains(",unknown,,31,1234,nodes,60,1000000,"),
            "{text}"
        );
        assert_eq!(read_nearby(&bytes).unwrap(), rows);
    }

    #[test]
    fn a_file_of_another_shape_is_refused_naming_the_line() {
        let e = read_nearby(b"variant,from\nx,y\n").unwrap_err();
        assert_eq!(e.line, 1);
        let mut bytes = nearby_csv(&[row("a1", Outcome::Win(3), None)]);
        bytes.extend_from_slice(&nearby_csv(&[row("a1", Outcome::Win(3), None)])[..]);
        // A second header is a row whose `value` is "value".
        let e = read_nearby(&bytes).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
    }
}
