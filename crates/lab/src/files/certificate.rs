//! Proof certificates (docs/OUTPUTS.md, "Proof certificates"): a forced
//! win written as every position where the winner is to move on the
//! proof's lines, each with its winning move, so that a checker holding
//! only the engine's `legal_moves` and `play` can follow every reply of
//! the loser and see each line end in the winner's win within the
//! claimed number of decisions.
//!
//! This file is the format's one definition: [`Certificate`] as the
//! prover hands it over, [`write_certificate`] its text, and
//! [`parse_certificate`] the text read back into a [`ParsedCertificate`]
//! (syntax only: no rules are needed to read one). `check` is the
//! checker, [`check_certificate`]. Text in, text out: compression and
//! files are the job's (`jobs::certificate`).

mod check;
#[cfg(test)]
mod tests;

pub use check::{Checked, Defect, check_certificate};

use std::fmt::Write as _;

use crate::engine::notation::{hole_name, move_name};
use crate::engine::{Dir, Move, Player, Position};
use crate::rules::Rules;

/// The first word of a certificate's first line.
pub const CERTIFICATE_MAGIC: &str = "katro-certificate";
/// The format version this katro writes and reads.
pub const CERTIFICATE_VERSION: u32 = 1;

/// The header's lines, numbered from 1 as every message numbers them;
/// the decision lines follow from [`FIRST_DECISION_LINE`].
pub const VERSION_LINE: usize = 1;
pub const VARIANT_LINE: usize = 2;
pub const RULES_LINE: usize = 3;
pub const ROOT_LINE: usize = 4;
pub const CLAIM_LINE: usize = 5;
pub const FIRST_DECISION_LINE: usize = 6;

/// A certificate as the prover hands it over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// `rules.name()`.
    pub variant: String,
    /// `rules.canonical_string()`.
    pub rules: String,
    /// The moves played from `rules.start()` to the proven position
    /// (empty: the start itself).
    pub root_moves: Vec<Move>,
    pub winner: Player,
    /// The claim: `winner` forces a win within this many decisions.
    pub distance: u32,
    /// Each position of the proof where `winner` is to move, with its
    /// winning move, in the order to write.
    pub decisions: Vec<(Position, Move)>,
}

/// A certificate as read back from its text, before any check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedCertificate {
    pub variant: String,
    pub rules: String,
    /// The root's moves as written (RULES.md notation); empty for `root
    /// start`.
    pub root: Vec<String>,
    pub winner: Player,
    pub distance: u32,
    /// The decision lines, in file order.
    pub decisions: Vec<DecisionLine>,
}

/// One decision line: the winner's position and move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionLine {
    /// Its line number in the file, from 1.
    pub line: usize,
    /// The position's five fields as written, single-spaced: `BOARD
    /// TO_MOVE FIXED_SOUTH FIXED_NORTH PENDING`, the text
    /// [`position_text`] makes from a [`Position`].
    pub position: String,
    /// The position's player to move.
    pub to_move: Player,
    /// The move as written.
    pub mv: String,
}

impl DecisionLine {
    /// The board field: rows separated by `/`, seeds by `,`.
    pub fn board(&self) -> &str {
        self.position.split(' ').next().unwrap_or_default()
    }

    /// The pending field's hole name, `None` for `.`.
    pub fn pending(&self) -> Option<&str> {
        match self.position.rsplit(' ').next() {
            Some(".") | None => None,
            Some(hole) => Some(hole),
        }
    }
}

/// `South` or `North`, as the claim line writes the winner.
pub fn player_word(p: Player) -> &'static str {
    match p {
        Player::South => "South",
        Player::North => "North",
    }
}

fn player_letter(p: Player) -> char {
    match p {
        Player::South => 'S',
        Player::North => 'N',
    }
}

fn dir_char(d: Option<Dir>) -> char {
    match d {
        None => '.',
        Some(Dir::Forward) => '+',
        Some(Dir::Backward) => '-',
    }
}

/// A position as a decision line writes it, and as the checker looks it
/// up: `BOARD TO_MOVE FIXED_SOUTH FIXED_NORTH PENDING`. The board is row 1
/// first, each row from column a, seeds separated by `,` and rows by
/// `/`; the player to move `S` or `N`; each fixed direction `.` (none),
/// `+` or `-`; the pending hole's name or `.`. The ply count is not part
/// of it.
pub fn position_text(rules: &Rules, pos: &Position) -> String {
    let mut s = String::with_capacity(rules.hole_count() * 3 + 16);
    for r in 0..rules.rows() {
        if r > 0 {
            s.push('/');
        }
        for c in 0..rules.cols() {
            if c > 0 {
                s.push(',');
            }
            let _ = write!(s, "{}", pos.seeds(rules.hole_at(r, c)));
        }
    }
    s.push(' ');
    s.push(player_letter(pos.to_move()));
    s.push(' ');
    s.push(dir_char(pos.fixed_dir(Player::South)));
    s.push(' ');
    s.push(dir_char(pos.fixed_dir(Player::North)));
    s.push(' ');
    match pos.pending() {
        Some(h) => s.push_str(&hole_name(rules, h)),
        None => s.push('.'),
    }
    s
}

/// `N decision` or `N decisions`.
pub fn decisions_word(n: u64) -> String {
    crate::engine::notation::plural(n, "decision", "decisions")
}

/// The certificate's text: its header, then one line per decision, each
/// ending in LF.
pub fn write_certificate(rules: &Rules, c: &Certificate) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{CERTIFICATE_MAGIC} {CERTIFICATE_VERSION}");
    let _ = writeln!(out, "variant {}", c.variant);
    let _ = writeln!(out, "rules {}", c.rules);
    if c.root_moves.is_empty() {
        out.push_str("root start\n");
    } else {
        let names: Vec<String> = c.root_moves.iter().map(|&m| move_name(rules, m)).collect();
        let _ = writeln!(out, "root moves {}", names.join(" "));
    }
    let _ = writeln!(
        out,
        "claim {} wins within {}",
        player_word(c.winner),
        decisions_word(c.distance as u64)
    );
    for (pos, mv) in &c.decisions {
        out.push_str(&position_text(rules, pos));
        out.push(' ');
        out.push_str(&move_name(rules, *mv));
        out.push('\n');
    }
    out
}

/// Why a text is not a certificate this katro reads: each names its line
/// (from 1), and its `Display` starts `line N: `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    #[error("line 1: not a katro certificate: it starts {found}, not `katro-certificate 1`")]
    NotCertificate { found: String },
    #[error(
        "line 1: a certificate of format version `{found}`; this katro reads version \
         {CERTIFICATE_VERSION}"
    )]
    Version { found: String },
    #[error("line {line}: the `{key}` line is missing: {found}")]
    MissingKey {
        line: usize,
        key: &'static str,
        found: String,
    },
    #[error("line {line}: `{key}` {reason}")]
    BadHeader {
        line: usize,
        key: &'static str,
        reason: String,
    },
    #[error("line {line}: {reason}")]
    BadLine { line: usize, reason: String },
    #[error("line {line}: ends in a carriage return: a certificate's lines end in LF alone")]
    CarriageReturn { line: usize },
}

/// A piece of a line as a message shows it: quoted, escaped, and cut
/// short when long.
fn shown(text: &str) -> String {
    const MAX: usize = 60;
    let cut: String = text.chars().take(MAX).collect();
    let more = if text.chars().count() > MAX {
        "…"
    } else {
        ""
    };
    format!("`{}{more}`", cut.escape_debug())
}

/// Reads a certificate's text: the header, then the decision lines, each
/// checked for its shape alone (the checker judges what they say).
pub fn parse_certificate(text: &str) -> Result<ParsedCertificate, CertificateError> {
    // A final LF ends the last line rather than starting an empty one.
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut lines = (!text.is_empty())
        .then(|| body.split('\n'))
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, l)| {
            let line = i + 1;
            match l.ends_with('\r') {
                true => Err(CertificateError::CarriageReturn { line }),
                false => Ok((line, l)),
            }
        });
    let mut header = |key: &'static str, line: usize| -> Result<&str, CertificateError> {
        let (_, text) = lines.next().ok_or_else(|| CertificateError::MissingKey {
            line,
            key,
            found: "the file ends before it".into(),
        })??;
        Ok(text)
    };
    version(header(CERTIFICATE_MAGIC, VERSION_LINE)?)?;
    let variant = header_value(header("variant", VARIANT_LINE)?, "variant", VARIANT_LINE)?;
    let rules = header_value(header("rules", RULES_LINE)?, "rules", RULES_LINE)?;
    let root = root(header_value(header("root", ROOT_LINE)?, "root", ROOT_LINE)?)?;
    let claim_text = header_value(header("claim", CLAIM_LINE)?, "claim", CLAIM_LINE)?;
    let (winner, distance) = claim(claim_text)?;
    let decisions = lines
        .map(|l| l.and_then(|(line, text)| decision_line(line, text)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ParsedCertificate {
        variant: variant.to_string(),
        rules: rules.to_string(),
        root,
        winner,
        distance,
        decisions,
    })
}

fn version(first: &str) -> Result<(), CertificateError> {
    match first.strip_prefix(CERTIFICATE_MAGIC) {
        Some(rest) if rest.starts_with(' ') => {
            let found = &rest[1..];
            if found == CERTIFICATE_VERSION.to_string() {
                Ok(())
            } else {
                Err(CertificateError::Version {
                    found: shown(found).trim_matches('`').to_string(),
                })
            }
        }
        _ => Err(CertificateError::NotCertificate {
            found: shown(first),
        }),
    }
}

/// The value of header line `line`, which must read `KEY VALUE`.
fn header_value<'a>(
    text: &'a str,
    key: &'static str,
    line: usize,
) -> Result<&'a str, CertificateError> {
    match text.strip_prefix(key).and_then(|r| r.strip_prefix(' ')) {
        Some(value) if !value.is_empty() => Ok(value),
        Some(_) => Err(CertificateError::BadHeader {
            line,
            key,
            reason: "has no value".into(),
        }),
        None => Err(CertificateError::MissingKey {
            line,
            key,
            found: format!("the line reads {}", shown(text)),
        }),
    }
}

fn root(value: &str) -> Result<Vec<String>, CertificateError> {
    let bad = |reason: &str| CertificateError::BadHeader {
        line: ROOT_LINE,
        key: "root",
        reason: reason.to_string(),
    };
    if value == "start" {
        return Ok(Vec::new());
    }
    let Some(moves) = value.strip_prefix("moves ") else {
        return Err(bad(&format!(
            "is {}: give `root start` or `root moves` and the moves from the start, \
             separated by single spaces",
            shown(value)
        )));
    };
    let moves: Vec<String> = moves.split(' ').map(str::to_string).collect();
    if moves.iter().any(String::is_empty) {
        return Err(bad("moves: separate the moves by single spaces"));
    }
    Ok(moves)
}

fn claim(value: &str) -> Result<(Player, u32), CertificateError> {
    let words: Vec<&str> = value.split(' ').collect();
    let winner = match words.first() {
        Some(&"South") => Some(Player::South),
        Some(&"North") => Some(Player::North),
        _ => None,
    };
    let distance = words.get(3).and_then(|n| canonical_number::<u32>(n));
    match (winner, distance, &words[..]) {
        (Some(w), Some(d), [_, "wins", "within", _, "decision" | "decisions"]) => Ok((w, d)),
        _ => Err(CertificateError::BadHeader {
            line: CLAIM_LINE,
            key: "claim",
            reason: format!(
                "is {}: write `claim South wins within 17 decisions` (South or North, a \
                 whole number of decisions)",
                shown(value)
            ),
        }),
    }
}

/// A decimal number as katro writes it: digits, no sign, no leading zero.
fn canonical_number<T: std::str::FromStr>(text: &str) -> Option<T> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if plain { text.parse().ok() } else { None }
}

/// The fields of a decision line, as the error messages name them.
const LINE_SHAPE: &str = "BOARD TO_MOVE FIXED_SOUTH FIXED_NORTH PENDING MOVE";

fn decision_line(line: usize, text: &str) -> Result<DecisionLine, CertificateError> {
    let bad = |reason: String| CertificateError::BadLine { line, reason };
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 6 || fields.iter().any(|f| f.is_empty()) {
        let what = if text.is_empty() {
            "an empty line".to_string()
        } else {
            format!("{} is not a decision line", shown(text))
        };
        return Err(bad(format!(
            "{what}: a decision line is `{LINE_SHAPE}`, six fields separated by single spaces"
        )));
    }
    board_syntax(fields[0]).map_err(|why| bad(format!("the board {}: {why}", shown(fields[0]))))?;
    let to_move = match fields[1] {
        "S" => Player::South,
        "N" => Player::North,
        other => {
            return Err(bad(format!(
                "the player to move is {}: give S or N",
                shown(other)
            )));
        }
    };
    for (field, whose) in [(fields[2], "South"), (fields[3], "North")] {
        if !matches!(field, "." | "+" | "-") {
            return Err(bad(format!(
                "{whose}'s fixed direction is {}: give `.` (none), `+` or `-`",
                shown(field)
            )));
        }
    }
    if fields[4] != "." && !hole_syntax(fields[4]) {
        return Err(bad(format!(
            "the pending hole is {}: give `.` or a hole name such as c2",
            shown(fields[4])
        )));
    }
    let split = text.len() - fields[5].len() - 1;
    Ok(DecisionLine {
        line,
        position: text[..split].to_string(),
        to_move,
        mv: fields[5].to_string(),
    })
}

/// Rows separated by `/`, each of seed counts (0 to 65535, written as
/// katro writes them) separated by `,`.
fn board_syntax(board: &str) -> Result<(), String> {
    for (r, row) in board.split('/').enumerate() {
        for count in row.split(',') {
            if canonical_number::<u16>(count).is_none() {
                return Err(format!(
                    "row {} holds {}, not a seed count from 0 to 65535 written without \
                     leading zeros",
                    r + 1,
                    shown(count)
                ));
            }
        }
    }
    Ok(())
}

/// A hole name as katro writes it: a lower-case letter, then a row
/// number from 1.
fn hole_syntax(text: &str) -> bool {
    let mut chars = text.chars();
    let letter = chars.next().is_some_and(|c| c.is_ascii_lowercase());
    let row = chars.as_str();
    letter && !row.starts_with('0') && canonical_number::<u32>(row).is_some()
}
