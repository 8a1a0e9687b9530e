//! Move notation of the RULES.md §1 and §3: `c1`, `c1+`, `c1-`,
//! `b2>c3`; the board as rows of numbers; counts with their nouns.

use std::fmt;

use crate::engine::{Dir, Move, Position};
use crate::rules::{Rules, column_letter};

/// The name of a hole: its column letter and row number, `a1`.
pub fn hole_name(rules: &Rules, hole: usize) -> String {
    format!("{}{}", column_letter(rules.col(hole)), rules.row(hole) + 1)
}

/// A move written as in docs/RULES.md.
pub fn move_name(rules: &Rules, mv: Move) -> String {
    if mv.is_step() {
        return format!(
            "{}>{}",
            hole_name(rules, mv.from as usize),
            hole_name(rules, mv.to as usize)
        );
    }
    let suffix = match mv.dir {
        None => "",
        Some(Dir::Forward) => "+",
        Some(Dir::Backward) => "-",
    };
    format!("{}{suffix}", hole_name(rules, mv.from as usize))
}

/// Why a piece of text is not a move on this board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub text: String,
    pub reason: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a move: {}", self.text, self.reason)
    }
}

impl std::error::Error for NotationError {}

/// Reads a hole name such as `c1` on this board.
pub fn parse_hole(rules: &Rules, text: &str) -> Result<usize, NotationError> {
    let err = |reason: String| NotationError {
        text: text.to_string(),
        reason,
    };
    let mut chars = text.chars();
    let letter = chars
        .next()
        .ok_or_else(|| err("a hole is a column letter then a row number, like c1".into()))?;
    let col = parse_column(rules, letter).map_err(err)?;
    let row = parse_row(rules, chars.as_str()).map_err(err)?;
    Ok(rules.hole_at(row - 1, col))
}

/// A hole name's column letter as a column, `a` as 0, or why not.
fn parse_column(rules: &Rules, letter: char) -> Result<usize, String> {
    // A person may type `A1` for `a1`: letters are read in either case
    // (RULES.md §1) and always written in lower case.
    let letter = letter.to_ascii_lowercase();
    let last_col = column_letter(rules.cols() - 1);
    if !letter.is_ascii_lowercase() {
        return Err(format!(
            "a hole starts with a column letter from a to {last_col}"
        ));
    }
    let col = (letter as u8 - b'a') as usize;
    if col >= rules.cols() {
        return Err(format!(
            "column {letter} is off the board: columns run from a to {last_col}"
        ));
    }
    Ok(col)
}

/// A hole name's row number, from 1, or why not.
fn parse_row(rules: &Rules, digits: &str) -> Result<usize, String> {
    let row: usize = match digits.parse() {
        Ok(r) if !digits.starts_with('0') && !digits.starts_with('+') => r,
        _ => {
            return Err(format!(
                "a hole is a column letter then a row number from 1 to {}",
                rules.rows()
            ));
        }
    };
    if row < 1 || row > rules.rows() {
        return Err(format!(
            "row {row} is off the board: rows run from 1 to {}",
            rules.rows()
        ));
    }
    Ok(row)
}

/// Reads a move. It says nothing of legality: compare with
/// [`Rules::legal_moves`].
pub fn parse_move(rules: &Rules, text: &str) -> Result<Move, NotationError> {
    if let Some((from, to)) = text.split_once('>') {
        return Ok(Move::step(parse_hole(rules, from)?, parse_hole(rules, to)?));
    }
    let (hole, dir) = if let Some(h) = text.strip_suffix('+') {
        (h, Some(Dir::Forward))
    } else if let Some(h) = text.strip_suffix('-') {
        (h, Some(Dir::Backward))
    } else {
        (text, None)
    };
    Ok(Move::sow(parse_hole(rules, hole)?, dir))
}

/// The board as rows of seed counts, row 1 first, each from column a.
pub fn board_rows(rules: &Rules, pos: &Position) -> Vec<Vec<u16>> {
    (0..rules.rows())
        .map(|r| {
            (0..rules.cols())
                .map(|c| pos.seeds(rules.hole_at(r, c)))
                .collect()
        })
        .collect()
}

/// The board as in docs/RULES.md: row R on top, column letters below.
pub fn board_text(rules: &Rules, pos: &Position) -> String {
    let width = (0..rules.hole_count())
        .map(|h| pos.seeds(h).to_string().len())
        .max()
        .unwrap_or(1);
    let rw = rules.rows().to_string().len();
    let mut out = String::new();
    for r in (0..rules.rows()).rev() {
        out.push_str(&format!("{:>rw$} ", r + 1));
        let cells: Vec<String> = (0..rules.cols())
            .map(|c| format!("{:>width$}", pos.seeds(rules.hole_at(r, c))))
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out.push_str(&" ".repeat(rw + 1));
    let letters: Vec<String> = (0..rules.cols())
        .map(|c| format!("{:>width$}", column_letter(c)))
        .collect();
    out.push_str(&letters.join(" "));
    out.push('\n');
    out
}

/// A board from RULES.md's printed form (row R on top, an optional
/// trailing column-letter line), for tests and golden files.
pub fn parse_board_text(rules: &Rules, text: &str) -> Result<Vec<u16>, String> {
    let mut rows: Vec<(usize, Vec<u16>)> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        rows.extend(parse_board_line(rules, line)?);
    }
    if rows.len() != rules.rows() {
        return Err(format!(
            "{} rows given, the board has {}",
            rows.len(),
            rules.rows()
        ));
    }
    let mut holes = vec![0u16; rules.hole_count()];
    for (row, cells) in rows {
        if row < 1 || row > rules.rows() {
            return Err(format!("row {row} is off the board"));
        }
        for (c, v) in cells.into_iter().enumerate() {
            holes[rules.hole_at(row - 1, c)] = v;
        }
    }
    Ok(holes)
}

/// A line of a printed board: its row number and seed counts, or `None`
/// for the column-letter line.
fn parse_board_line(rules: &Rules, line: &str) -> Result<Option<(usize, Vec<u16>)>, String> {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or_default();
    let Ok(row) = first.parse::<usize>() else {
        return Ok(None);
    };
    let cells: Result<Vec<u16>, _> = words.map(str::parse::<u16>).collect();
    let cells = cells.map_err(|e| format!("row {row}: {e}"))?;
    if cells.len() != rules.cols() {
        return Err(format!(
            "row {row} has {} holes, not {}",
            cells.len(),
            rules.cols()
        ));
    }
    Ok(Some((row, cells)))
}

/// `n` with its digits grouped by threes: `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun, singular for one: `plural(1, "lap", "laps")` is
/// "1 lap", `plural(3, "ply", "plies")` is "3 plies".
pub fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod plural_tests {
    use super::plural;

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(plural(1u32, "lap", "laps"), "1 lap");
        assert_eq!(plural(0u32, "lap", "laps"), "0 laps");
        assert_eq!(plural(2u64, "ply", "plies"), "2 plies");
        assert_eq!(plural(1u64, "ply", "plies"), "1 ply");
    }
}
