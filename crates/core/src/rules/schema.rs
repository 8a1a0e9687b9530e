//! A first pass over a TOML file, before the typed (serde) pass: every
//! syntax error, unknown key, wrong type, bad setting value and missing
//! key of the file at once.
//!
//! serde stops at the first problem it meets, so a file with three
//! misspelt keys would otherwise take three runs to fix. This pass walks
//! the parsed document against a description of the file's keys, reports
//! everything it finds, and removes what it can remove without changing
//! the meaning of the rest (unknown keys, bad values of optional settings),
//! so the typed pass can run on what is left and add its own range and
//! consistency checks. When a problem leaves the typed pass nothing sound
//! to read (a syntax error, a missing or mistyped required key, a bad list
//! item), only this pass's problems are reported.
//!
//! The errors every input file reports ([`InputError`], [`Problem`]) live
//! here too, below both readers: `rules` (variant files) and `experiment`
//! import this module, and it imports neither.

use std::fmt;
use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::suggest::{did_you_mean, suggest_in};

/// What a key may hold.
pub enum Kind {
    Int,
    /// A float or an integer (serde reads either as `f64`).
    Number,
    Bool,
    Str,
    /// A string that `check` accepts; its error lists what is allowed.
    Enum(fn(&str) -> Result<(), BadValue>),
    Table(&'static [Field]),
    /// A list of items of one kind.
    List(&'static Kind),
    /// A string, or a table with these keys.
    StrOrTable(&'static [Field]),
    /// A string or a table of any keys (an agent: its settings are checked
    /// by the typed pass).
    StrOrAnyTable,
}

/// One key of a table.
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
    pub required: bool,
    /// Whether the typed pass may run without this key when its value is
    /// bad: true when leaving it out only falls back to a default and no
    /// later check depends on it.
    pub removable: bool,
}

impl Field {
    pub const fn req(name: &'static str, kind: Kind) -> Field {
        Field {
            name,
            kind,
            required: true,
            removable: false,
        }
    }
    /// Required, but the typed pass reads its table without it (its
    /// field there is an `Option`): a missing or bad value is reported
    /// here and does not stop the checks of the rest of the file.
    pub const fn req_soft(name: &'static str, kind: Kind) -> Field {
        Field {
            name,
            kind,
            required: true,
            removable: true,
        }
    }
    /// Optional, and safe to drop when bad.
    pub const fn opt(name: &'static str, kind: Kind) -> Field {
        Field {
            name,
            kind,
            required: false,
            removable: true,
        }
    }
    /// Optional, but other checks depend on it.
    pub const fn opt_kept(name: &'static str, kind: Kind) -> Field {
        Field {
            name,
            kind,
            required: false,
            removable: false,
        }
    }
}

/// The result of the first pass.
pub struct Checked<'i> {
    /// The document with unknown keys and removable bad values taken out.
    pub doc: Spanned<DeTable<'i>>,
    pub problems: Vec<Problem>,
    /// Whether the typed pass can read `doc`.
    pub typed_pass_ok: bool,
}

/// Parses `text` and checks it against `fields`; `hint` follows the
/// message of an unknown key (where to read about the keys).
pub fn check<'i>(text: &'i str, fields: &'static [Field], hint: &str) -> Checked<'i> {
    let (mut doc, errors) = DeTable::parse_recoverable(text);
    let mut w = Walker {
        hint,
        problems: Problems::new(text),
        sound: errors.is_empty(),
    };
    if !errors.is_empty() {
        // A recovered document is a guess: report the syntax errors only.
        for e in &errors {
            w.problems
                .add(e.span(), "", format!("TOML syntax: {}", e.message().trim()));
        }
    } else {
        let span = doc.span();
        w.table(doc.get_mut(), span, "", fields);
    }
    Checked {
        doc,
        problems: w.problems.list,
        typed_pass_ok: w.sound,
    }
}

/// Top-level keys of a parsed document, for telling file kinds apart; empty
/// when the text is not TOML at all.
pub fn top_level_keys(text: &str) -> Vec<String> {
    let (doc, _) = DeTable::parse_recoverable(text);
    doc.get_ref()
        .keys()
        .map(|k| k.get_ref().to_string())
        .collect()
}

struct Walker<'t, 'h> {
    hint: &'h str,
    problems: Problems<'t>,
    /// Cleared when the typed pass could not read the cleaned document.
    sound: bool,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn a(kind: &str) -> String {
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {kind}")
}

fn show_value(v: &DeValue) -> String {
    match v {
        DeValue::String(s) => format!("{} ({s:?})", a("string")),
        DeValue::Integer(i) => format!("an integer ({i})"),
        DeValue::Float(f) => format!("a float ({f})"),
        DeValue::Boolean(b) => format!("a boolean ({b})"),
        other => a(other.type_str()),
    }
}

impl Walker<'_, '_> {
    fn add(&mut self, span: Option<Range<usize>>, key: &str, message: String) {
        // Keys and values are quoted as written; none of this pass's
        // messages means a newline, so every control character is shown
        // escaped.
        self.problems
            .add(span, key, escape_controls(&message, false));
    }

    fn table(&mut self, t: &mut DeTable, span: Range<usize>, path: &str, fields: &'static [Field]) {
        let remove = self.entries(t, path, fields);
        if !remove.is_empty() {
            *t = std::mem::take(t)
                .into_iter()
                .filter(|(k, _)| !remove.iter().any(|r| k.get_ref() == r.as_str()))
                .collect();
        }
        self.missing(t, span, path, fields, &remove);
    }

    /// Checks each entry of the table `t` at `path`; the keys to drop
    /// from it (unknown, or wrong where the field may be removed).
    fn entries(&mut self, t: &mut DeTable, path: &str, fields: &'static [Field]) -> Vec<String> {
        let allowed: Vec<String> = fields.iter().map(|f| format!("`{}`", f.name)).collect();
        let mut remove = Vec::new();
        for (k, v) in t.iter_mut() {
            let name: &str = k.get_ref();
            let key = join(path, name);
            match fields.iter().find(|f| f.name == name) {
                None => {
                    self.add(
                        Some(k.span()),
                        &key,
                        format!(
                            "unknown field `{name}`{}, expected one of {} ({})",
                            did_you_mean(name, fields.iter().map(|f| f.name)),
                            allowed.join(", "),
                            self.hint
                        ),
                    );
                    remove.push(k.get_ref().to_string());
                }
                Some(f) if !self.value(v, &key, &f.kind) => {
                    if f.removable {
                        remove.push(k.get_ref().to_string());
                    } else {
                        self.sound = false;
                    }
                }
                Some(_) => {}
            }
        }
        remove
    }

    /// Reports each required field missing from the table `t` at `path`
    /// (but those `removed` for being wrong, already reported).
    fn missing(
        &mut self,
        t: &DeTable,
        span: Range<usize>,
        path: &str,
        fields: &'static [Field],
        removed: &[String],
    ) {
        for f in fields.iter().filter(|f| f.required) {
            if !t.keys().any(|k| k.get_ref() == f.name) && !removed.iter().any(|r| r == f.name) {
                // An empty span is a key the file never opened; point at
                // the table itself otherwise.
                let at = (span.end > span.start).then(|| span.clone());
                self.add(at, path, format!("missing field `{}`", join(path, f.name)));
                if !f.removable {
                    self.sound = false;
                }
            }
        }
    }

    /// Checks one value; false when it is wrong (already reported).
    fn value(&mut self, v: &mut Spanned<DeValue>, key: &str, kind: &'static Kind) -> bool {
        let span = v.span();
        match (kind, v.get_mut()) {
            (Kind::Int, DeValue::Integer(i)) => self.int_fits(span, key, i),
            (Kind::Number, DeValue::Integer(_) | DeValue::Float(_)) => true,
            (Kind::Bool, DeValue::Boolean(_)) => true,
            (Kind::Str, DeValue::String(_)) => true,
            (Kind::Enum(check), DeValue::String(s)) => match check(s) {
                Ok(()) => true,
                Err(e) => {
                    self.add(Some(span), key, e.0);
                    false
                }
            },
            (Kind::Table(fields), DeValue::Table(t)) => {
                self.table(t, span, key, fields);
                true
            }
            (Kind::StrOrTable(_), DeValue::String(_)) => true,
            (Kind::StrOrTable(fields), DeValue::Table(t)) => {
                self.table(t, span, key, fields);
                true
            }
            (Kind::StrOrAnyTable, DeValue::String(_) | DeValue::Table(_)) => true,
            (Kind::List(item), DeValue::Array(items)) => {
                self.list(items, key, item);
                true
            }
            (kind, other) => {
                let message = format!("expected {}, got {}", wanted(kind), show_value(other));
                self.add(Some(span), key, message);
                false
            }
        }
    }

    /// Whether an integer fits the `i64` the typed pass reads it as.
    fn int_fits(&mut self, span: Range<usize>, key: &str, i: &toml::de::DeInteger) -> bool {
        if i64::from_str_radix(i.as_str(), i.radix()).is_ok() {
            return true;
        }
        self.add(
            Some(span),
            key,
            format!(
                "{i} is too large: integers here must be from {} to {}",
                i64::MIN,
                i64::MAX
            ),
        );
        false
    }

    /// Checks every item of a list.
    fn list(&mut self, items: &mut [Spanned<DeValue>], key: &str, item: &'static Kind) {
        let mut ok = true;
        for (i, it) in items.iter_mut().enumerate() {
            // A bad item cannot be dropped: the typed pass would number
            // the items after it wrongly.
            if !self.value(it, &format!("{key}[{i}]"), item) {
                ok = false;
            }
        }
        if !ok {
            self.sound = false;
        }
    }
}

/// What a value of `kind` is, for "expected ..., got ...".
fn wanted(kind: &Kind) -> &'static str {
    match kind {
        Kind::Int => "an integer",
        Kind::Number => "a number",
        Kind::Bool => "true or false",
        Kind::Str | Kind::Enum(_) => "a string",
        Kind::Table(_) => "a table",
        Kind::List(_) => "a list [...]",
        Kind::StrOrTable(_) | Kind::StrOrAnyTable => "a string or a table",
    }
}

/// Reads a file's text as `T` after the first pass: `Ok` with the first
/// pass's problems (for the caller to add its own and report all), or
/// `Err` with every problem found when `T` cannot be read.
pub fn read<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
    fields: &'static [Field],
    hint: &str,
) -> Result<(T, Vec<Problem>), InputError> {
    let checked = check(text, fields, hint);
    let mut problems = checked.problems;
    let fail = |mut problems: Vec<Problem>| {
        // In file order, as the typed pass reports them.
        problems.sort_by_key(|q| (q.line, q.column));
        InputError {
            file: file.to_string(),
            problems,
        }
    };
    if !checked.typed_pass_ok {
        return Err(fail(problems));
    }
    match T::deserialize(toml::de::Deserializer::from(checked.doc)) {
        Ok(t) => Ok((t, problems)),
        Err(e) => {
            // Something the first pass does not model: serde's own words.
            problems.extend(InputError::from_toml_with_hint(file, text, &e, hint).problems);
            Err(fail(problems))
        }
    }
}

/// Why a value is not allowed at its key: the words of its [`Problem`],
/// which names the key in front of them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadValue(pub String);

/// Checks a string against a serde enum of setting values, giving serde's
/// list of allowed values in the project's words.
pub fn enum_check<T: serde::de::DeserializeOwned>(s: &str) -> Result<(), BadValue> {
    toml::Value::String(s.to_string())
        .try_into::<T>()
        .map(|_| ())
        .map_err(|e| {
            BadValue(suggest_in(&e.message().trim().replacen(
                "unknown variant",
                "unknown value",
                1,
            )))
        })
}

// ---------------------------------------------------------------------------
// Errors: what is wrong with an input file (a variant or an experiment),
// each problem placed at its line, column and key

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
        let mut message = suggest_in(
            &escape_controls(err.message().trim(), false)
                .replacen("unknown variant", "unknown value", 1)
                .replace("expected i64", "expected an integer"),
        );
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

#[cfg(test)]
mod tests {
    use super::*;

    static INNER: &[Field] = &[
        Field::req("rows", Kind::Int),
        Field::opt("flag", Kind::Bool),
    ];
    static TOP: &[Field] = &[
        Field::req("board", Kind::Table(INNER)),
        Field::opt("name", Kind::Str),
        Field::opt("list", Kind::List(&Kind::Int)),
    ];

    fn messages(c: &Checked) -> Vec<String> {
        c.problems
            .iter()
            .map(|p| {
                format!(
                    "{}:{}",
                    p.line.map_or("-".into(), |l| l.to_string()),
                    p.message
                )
            })
            .collect()
    }

    #[test]
    fn every_unknown_key_and_wrong_type_is_reported_at_once() {
        let text = "name = 3\nspeed = 1\n[board]\nrows = 4\nflag = \"yes\"\ncolour = 2\n";
        let c = check(text, TOP, "see the docs");
        let m = messages(&c);
        assert_eq!(m.len(), 4, "{m:?}");
        assert!(
            m.iter()
                .any(|s| s.starts_with("1:expected a string, got an integer (3)"))
        );
        assert!(
            m.iter()
                .any(|s| s.starts_with("2:unknown field `speed`, expected one of `board`"))
        );
        assert!(m.iter().any(|s| s.starts_with("5:expected true or false")));
        assert!(m.iter().any(|s| s.contains("6:unknown field `colour`")));
        let c = check("[board]\nrows = 4\nflga = true\n", TOP, "see the docs");
        assert_eq!(
            messages(&c),
            [
                "3:unknown field `flga` (did you mean \"flag\"?), expected one of `rows`, \
              `flag` (see the docs)"
            ]
        );
        // Only removable or unknown keys were wrong: the rest is readable.
        assert!(c.typed_pass_ok);
        let board = c.doc.get_ref().get("board").unwrap();
        let t = board.get_ref().as_table().unwrap();
        assert_eq!(t.len(), 1, "flag and colour removed");
    }

    #[test]
    fn missing_and_mistyped_required_keys_stop_the_typed_pass() {
        let c = check("[board]\nrows = \"four\"\n", TOP, "");
        assert!(!c.typed_pass_ok);
        assert_eq!(
            messages(&c),
            ["2:expected an integer, got a string (\"four\")"]
        );
        let c = check("", TOP, "");
        assert!(!c.typed_pass_ok);
        assert_eq!(messages(&c), ["-:missing field `board`"]);
        let c = check("list = [1, \"x\", 3]\n[board]\nrows = 1\n", TOP, "");
        assert!(!c.typed_pass_ok);
        assert_eq!(c.problems[0].key.as_deref(), Some("list[1]"));
    }

    #[test]
    fn a_missing_soft_key_is_reported_and_the_typed_pass_still_runs() {
        static ITEM: &[Field] = &[
            Field::req_soft("p1", Kind::Str),
            Field::req_soft("p2", Kind::Str),
        ];
        static DOC: &[Field] = &[Field::req("m", Kind::List(&Kind::Table(ITEM)))];
        let c = check("m = [{ p1 = \"a\" }, { p1 = 3, p2 = \"b\" }]\n", DOC, "");
        assert!(c.typed_pass_ok);
        let m = messages(&c);
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(m[0].starts_with("1:missing field `m[0].p2`"), "{m:?}");
        assert!(
            m[1].starts_with("1:expected a string, got an integer (3)"),
            "{m:?}"
        );
        // The bad value is taken out, not reported again as missing.
        let list = c
            .doc
            .get_ref()
            .get("m")
            .unwrap()
            .get_ref()
            .as_array()
            .unwrap();
        assert_eq!(list[1].get_ref().as_table().unwrap().len(), 1);
    }

    #[test]
    fn several_syntax_errors_are_reported() {
        let c = check("a = = 1\nb = 2\nc = ]\n", TOP, "");
        assert!(!c.typed_pass_ok);
        let lines: Vec<Option<usize>> = c.problems.iter().map(|p| p.line).collect();
        assert!(
            lines.contains(&Some(1)) && lines.contains(&Some(3)),
            "{lines:?}"
        );
    }

    #[test]
    fn huge_integers_are_out_of_range_not_a_crash() {
        let c = check("[board]\nrows = 99999999999999999999\n", TOP, "");
        assert!(!c.typed_pass_ok);
        assert!(
            c.problems[0].message.contains("too large"),
            "{:?}",
            c.problems
        );
    }
}
