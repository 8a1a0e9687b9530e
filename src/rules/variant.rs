//! Variant files: their TOML schema, parsing into checked [`Rules`], and
//! the errors that name the file, line, column and key.

use std::fmt;
use std::ops::Range;

use serde::Deserialize;

use super::settings::{RULES_FIELDS, RawRules, board_problems};
use super::{Rules, Settings};
use crate::schema::{self, Field, Kind};

// ---------------------------------------------------------------------------
// Errors

/// One thing wrong with an input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

/// Everything wrong with one input file, with the file's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    pub problems: Vec<Problem>,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", self.file)?;
            if let Some(line) = p.line {
                write!(f, ":{line}")?;
                if let Some(col) = p.column {
                    write!(f, ":{col}")?;
                }
            }
            write!(f, ": ")?;
            if let Some(key) = &p.key {
                write!(f, "`{key}`: ")?;
            }
            write!(f, "{}", p.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for InputError {}

impl InputError {
    pub fn single(file: &str, message: impl Into<String>) -> InputError {
        InputError {
            file: file.to_string(),
            problems: vec![Problem {
                line: None,
                column: None,
                key: None,
                message: message.into(),
            }],
        }
    }

    /// A serde/TOML error in a variant file, placed at its line and column.
    pub fn from_toml(file: &str, text: &str, err: &toml::de::Error) -> InputError {
        InputError::from_toml_with_hint(
            file,
            text,
            err,
            "run `katro show katro-6x6` to see every setting",
        )
    }

    /// A serde/TOML error, placed at its line and column; `hint` says where
    /// to read about the keys when a key is unknown.
    pub fn from_toml_with_hint(
        file: &str,
        text: &str,
        err: &toml::de::Error,
        hint: &str,
    ) -> InputError {
        let (line, column) = match err.span() {
            Some(span) => {
                let (l, c) = line_col(text, span.start);
                (Some(l), Some(c))
            }
            None => (None, None),
        };
        // serde speaks of enum "variants" and of "i64"; in this project a
        // variant is a rule set, so say "value" and "integer" instead.
        let mut message = escape_controls(err.message().trim(), false)
            .replacen("unknown variant", "unknown value", 1)
            .replace("expected i64", "expected an integer");
        if message.starts_with("unknown field") {
            message.push_str(&format!(" ({hint})"));
        }
        InputError {
            file: file.to_string(),
            problems: vec![Problem {
                line,
                column,
                key: err.span().and_then(|s| key_before(text, s.start)),
                message,
            }],
        }
    }
}

/// `text` with its control characters escaped (`\n`, `\u{1b}`), but for
/// newlines if `keep_newlines`: messages quote the file's own text, and a
/// quoted newline or terminal escape must not break the error's lines or
/// reach the terminal raw.
pub(crate) fn escape_controls(text: &str, keep_newlines: bool) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && !(keep_newlines && c == '\n') {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The key written just before a value (`direction = "up"` gives
/// `rules.direction` under a `[rules]` header), so that an error about a
/// value names its key; `None` where no `key =` precedes the offset.
fn key_before(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = text[line_start..offset].trim_end().strip_suffix('=')?;
    let before = before.trim_end();
    let is_key_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let key = &before[before.trim_end_matches(is_key_char).len()..];
    if key.is_empty() {
        return None;
    }
    let table = text[..line_start]
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix('[')?.split(']').next())
        .map(str::trim)
        .filter(|t| !t.is_empty());
    Some(match table {
        Some(t) => format!("{t}.{key}"),
        None => key.to_string(),
    })
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(offset, |nl| offset - nl - 1) + 1;
    (line, col)
}

/// Collects problems found after parsing, each placed by a span if known.
pub struct Problems<'a> {
    text: &'a str,
    pub list: Vec<Problem>,
}

impl<'a> Problems<'a> {
    pub fn new(text: &'a str) -> Self {
        Problems {
            text,
            list: Vec::new(),
        }
    }

    /// Adds a problem at `span`, about `key` (none if empty).
    pub fn add(&mut self, span: Option<Range<usize>>, key: &str, message: impl Into<String>) {
        let (line, column) = match span {
            Some(s) => {
                let (l, c) = line_col(self.text, s.start);
                (Some(l), Some(c))
            }
            None => (None, None),
        };
        self.list.push(Problem {
            line,
            column,
            key: (!key.is_empty()).then(|| escape_controls(key, false)),
            // Messages quote names, paths and agents as written. Newlines
            // stay: they set a quoted variant file's own error on lines
            // of its own.
            message: escape_controls(&message.into(), true),
        });
    }
}

// ---------------------------------------------------------------------------
// The file schema

type Sp<T> = toml::Spanned<T>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: Option<Sp<String>>,
    description: Option<String>,
    source: Option<String>,
    board: Sp<RawBoard>,
    #[serde(default)]
    rules: RawRules,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    rows: Sp<i64>,
    holes: Sp<i64>,
    seeds: Option<Sp<i64>>,
    layout: Option<Sp<Vec<Vec<i64>>>>,
}

const VARIANT_HINT: &str = "run `katro show katro-6x6` to see every setting";

static VARIANT_FIELDS: &[Field] = &[
    Field::opt("name", Kind::Str),
    Field::opt("description", Kind::Str),
    Field::opt("source", Kind::Str),
    Field::req("board", Kind::Table(BOARD_FIELDS)),
    Field::opt("rules", Kind::Table(RULES_FIELDS)),
];

static BOARD_FIELDS: &[Field] = &[
    Field::req("rows", Kind::Int),
    Field::req("holes", Kind::Int),
    // Without either, the typed pass would report a missing board.
    Field::opt_kept("seeds", Kind::Int),
    Field::opt_kept("layout", Kind::List(&Kind::List(&Kind::Int))),
];

/// An integer setting, or a problem saying its range.
pub(crate) fn ranged(
    problems: &mut Problems,
    value: &Sp<i64>,
    key: &str,
    lo: i64,
    hi: i64,
    what: &str,
) -> Option<i64> {
    let v = *value.get_ref();
    if v < lo || v > hi {
        problems.add(
            Some(value.span()),
            key,
            format!("{v} is out of range: {what} must be from {lo} to {hi}"),
        );
        None
    } else {
        Some(v)
    }
}

/// Parses and validates a variant file's text. `file` names it in errors;
/// `default_name` is used when the file has no `name` key.
pub fn parse_variant(file: &str, text: &str, default_name: &str) -> Result<Rules, InputError> {
    let (raw, first): (RawVariant, _) = schema::read(file, text, VARIANT_FIELDS, VARIANT_HINT)?;
    let mut p = Problems::new(text);
    p.list = first;
    let mut s = Settings::canonical();

    // The board is judged as written (wide), by the checks `Rules::new`
    // makes, so a value no field can hold is reported as it reads.
    let board = raw.board.get_ref();
    let wide = |v: &Sp<i64>| *v.get_ref() as i128;
    let layout: Option<Vec<Vec<i128>>> = board.layout.as_ref().map(|l| {
        l.get_ref()
            .iter()
            .map(|r| r.iter().map(|&v| v as i128).collect())
            .collect()
    });
    let board_wrong = board_problems(
        wide(&board.rows),
        wide(&board.holes),
        board.seeds.as_ref().map(wide),
        layout.as_deref(),
    );
    let span_of = |key: &str| match key {
        "board.rows" => Some(board.rows.span()),
        "board.holes" => Some(board.holes.span()),
        "board.seeds" => board.seeds.as_ref().map(|v| v.span()),
        "board.layout" => board.layout.as_ref().map(|v| v.span()),
        _ => Some(raw.board.span()),
    };
    for q in &board_wrong {
        p.add(span_of(q.key), q.key, q.message.clone());
    }
    if board_wrong.is_empty() {
        // In range, so every value fits its field.
        let fit = |v: i128| usize::try_from(v).unwrap_or(0);
        s.rows = fit(wide(&board.rows));
        s.holes = fit(wide(&board.holes));
        s.seeds = board.seeds.as_ref().map(|v| fit(wide(v)) as u16);
        s.layout = layout.map(|l| {
            l.iter()
                .map(|r| r.iter().map(|&v| fit(v) as u16).collect())
                .collect()
        });
    }
    raw.rules.apply(&mut s, &mut |span, key, message| {
        p.add(Some(span), key, message)
    });

    let usable = |v: &str| {
        !v.is_empty()
            && !v
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == ',')
    };
    let name = match &raw.name {
        Some(n) => {
            let v = n.get_ref();
            if !usable(v) {
                p.add(
                    Some(n.span()),
                    "name",
                    format!("{v:?} is not a usable name: use letters, digits, '-' and '_' only"),
                );
            }
            v.clone()
        }
        // The file's name stands in for a missing `name`: it must be as
        // usable as a written one.
        None => {
            if !usable(default_name) {
                p.add(
                    None,
                    "name",
                    format!(
                        "missing, and the file name {default_name:?} is not a usable name: \
                         add `name = \"...\"` with letters, digits, '-' and '_' only"
                    ),
                );
            }
            default_name.to_string()
        }
    };

    if !p.list.is_empty() {
        p.list.sort_by_key(|q| (q.line, q.column));
        return Err(InputError {
            file: file.to_string(),
            problems: p.list,
        });
    }
    // Every check `Rules::new` makes was made above, placed; should one
    // be missed, its problem is still reported, at its key's value.
    Rules::new(
        name,
        raw.description.unwrap_or_default(),
        raw.source.unwrap_or_default(),
        s,
    )
    .map_err(|e| InputError {
        file: file.to_string(),
        problems: e
            .problems
            .into_iter()
            .map(|q| {
                let mut at = Problems::new(text);
                at.add(span_of(q.key), q.key, q.message);
                at.list.remove(0)
            })
            .collect(),
    })
}
