//! lengths.csv, every cell's exact length histogram (docs/OUTPUTS.md).

use super::csv::csv_bytes;
use crate::experiment::plan::Cell;
use crate::experiment::stats::Aggregate;

/// A lengths.csv column: its name (as in the header and docs/OUTPUTS.md)
/// and how the row of a cell's length (in plies) with its number of games
/// computes it.
pub type LengthColumn = (&'static str, fn(&Cell<'_>, u32, u64) -> String);

/// lengths.csv's columns, in order.
pub const LENGTH_COLUMNS: &[LengthColumn] = &[
    ("variant", |c, _, _| c.rules.name().to_string()),
    ("p1", |c, _, _| c.p1.to_string()),
    ("p2", |c, _, _| c.p2.to_string()),
    ("opening_plies", |c, _, _| c.opening_plies.to_string()),
    ("length", |_, length, _| length.to_string()),
    ("games", |_, _, games| games.to_string()),
];

/// One row per cell and length that some game had, in cell order then by
/// length.
pub fn lengths_csv(cells: &[Cell], aggregates: &[Aggregate]) -> Vec<u8> {
    let header: Vec<&str> = LENGTH_COLUMNS.iter().map(|c| c.0).collect();
    let rows = cells.iter().zip(aggregates).flat_map(|(c, a)| {
        a.length_histogram.iter().map(move |(&length, &games)| {
            LENGTH_COLUMNS
                .iter()
                .map(|(_, value)| value(c, length, games))
                .collect()
        })
    });
    csv_bytes(&header, rows)
}
