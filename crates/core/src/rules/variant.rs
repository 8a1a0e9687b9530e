//! Variant files: their TOML schema and parsing into checked [`Rules`],
//! with errors ([`InputError`], from `crate::rules::schema`) that name the file,
//! line, column and key.

use std::ops::Range;

use serde::Deserialize;

use super::settings::{RULES_FIELDS, RawRules, SettingProblem, board_problems, widened};
use super::{Rules, Settings};
use crate::rules::schema::{self, Field, InputError, Kind, Problems};

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
pub fn ranged(
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
    board_settings(&mut p, &raw.board, &mut s);
    raw.rules.apply(&mut s, &mut |span, key, message| {
        p.add(Some(span), key, message)
    });
    let name = variant_name(&mut p, raw.name.as_ref(), default_name);
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
    .map_err(|e| {
        let mut at = Problems::new(text);
        add_board_problems(&mut at, &raw.board, e.problems);
        InputError {
            file: file.to_string(),
            problems: at.list,
        }
    })
}

/// Adds the board's `problems` to `p`, each placed by [`board_span`].
fn add_board_problems(p: &mut Problems, board: &Sp<RawBoard>, problems: Vec<SettingProblem>) {
    for q in problems {
        p.add(board_span(board, q.key), q.key, q.message);
    }
}

/// Where a board key's problem is placed: at its value, or at the
/// `[board]` table for a key it does not give.
fn board_span(board: &Sp<RawBoard>, key: &str) -> Option<Range<usize>> {
    let b = board.get_ref();
    match key {
        "board.rows" => Some(b.rows.span()),
        "board.holes" => Some(b.holes.span()),
        "board.seeds" => b.seeds.as_ref().map(|v| v.span()),
        "board.layout" => b.layout.as_ref().map(|v| v.span()),
        _ => Some(board.span()),
    }
}

/// The `[board]` table into `s`, or its problems into `p`. The board is
/// judged as written (wide), by the checks `Rules::new` makes, so a value
/// no field can hold is reported as it reads.
fn board_settings(p: &mut Problems, raw: &Sp<RawBoard>, s: &mut Settings) {
    let board = raw.get_ref();
    let wide = |v: &Sp<i64>| *v.get_ref() as i128;
    let layout = board.layout.as_ref().map(|l| widened(l.get_ref()));
    let board_wrong = board_problems(
        wide(&board.rows),
        wide(&board.holes),
        board.seeds.as_ref().map(wide),
        layout.as_deref(),
    );
    if !board_wrong.is_empty() {
        add_board_problems(p, raw, board_wrong);
        return;
    }
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

/// The variant's name: the `name` key, or else the file's name, either of
/// which must be usable in a CSV field and on the command line.
fn variant_name(p: &mut Problems, name: Option<&Sp<String>>, default_name: &str) -> String {
    match name {
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
    }
}

/// Whether `v` can name a variant in a CSV field and on the command line.
fn usable(v: &str) -> bool {
    !v.is_empty()
        && !v
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == ',')
}

// ---------------------------------------------------------------------------
// Writing a variant file

/// Whether `key` is one of `[board]`'s keys ([`super::BOARD_SETTINGS`]).
pub fn is_board_key(key: &str) -> bool {
    super::BOARD_SETTINGS.iter().any(|i| i.name() == key)
}

/// A TOML string, escaped as TOML wants (Rust's `{:?}` is not TOML).
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A variant file in its three parts, each ending in a newline: `head`
/// (`name`, and `description` and `source` unless empty), `board` (the
/// `[board]` table) and `rules` (the `[rules]` table). [`Self::text`]
/// joins them; `katro show` puts its comments between them.
pub struct VariantText {
    pub head: String,
    pub board: String,
    pub rules: String,
}

impl VariantText {
    /// From `key = value` lines, each value already TOML: the board keys
    /// under `[board]`, the others under `[rules]`, in the order given.
    fn of(
        name: &str,
        description: &str,
        source: &str,
        lines: impl IntoIterator<Item = (String, String)>,
    ) -> VariantText {
        let mut head = format!("name = {}\n", toml_string(name));
        for (key, text) in [("description", description), ("source", source)] {
            if !text.is_empty() {
                head.push_str(&format!("{key} = {}\n", toml_string(text)));
            }
        }
        let (mut board, mut rules) = ("[board]\n".to_string(), "[rules]\n".to_string());
        for (key, value) in lines {
            let table = if is_board_key(&key) {
                &mut board
            } else {
                &mut rules
            };
            table.push_str(&format!("{key} = {value}\n"));
        }
        VariantText { head, board, rules }
    }

    /// Every setting of `settings`, valid or not, in katro's order: the
    /// board keys as serialising [`Settings`] writes them (so a new
    /// setting is written without this code changing), then every rule.
    pub fn of_settings(name: &str, description: &str, source: &str, s: &Settings) -> VariantText {
        let all = toml::to_string(s).expect("the settings serialise as TOML");
        let board = all.lines().filter_map(|l| {
            let (key, value) = l.split_once('=')?;
            let key = key.trim();
            is_board_key(key).then(|| (key.to_string(), value.trim().to_string()))
        });
        let rules = s
            .rule_values()
            .into_iter()
            .map(|(info, value)| (info.name().to_string(), value.toml()));
        VariantText::of(
            name,
            description,
            source,
            board.chain(rules).collect::<Vec<_>>(),
        )
    }

    /// The whole file.
    pub fn text(&self) -> String {
        format!("{}\n{}\n{}", self.head, self.board, self.rules)
    }
}

/// The value of the `[board]` key `key` (`layout`, `seeds`...) as the
/// variant file katro writes for `settings` gives it (`katro show`):
/// `board.layout` as `[[2, 2], [2, 2]]`; `None` for a key left out (the
/// `seeds` of a layout board).
pub fn board_value(settings: &Settings, key: &str) -> Option<String> {
    let text = VariantText::of_settings("x", "", "", settings);
    text.board.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}

/// The variant file that gives every one of `settings` explicitly, valid
/// or not (what `katro show` prints, without its comments): parsing it
/// gives back the same settings.
pub fn write_variant(name: &str, description: &str, source: &str, settings: &Settings) -> String {
    VariantText::of_settings(name, description, source, settings).text()
}

/// A variant file of settings not yet checked (a sweep's combination, a
/// manifest's settings), each value as TOML writes it, in the table's
/// order; the board keys go under `[board]`.
pub fn write_variant_table(
    name: &str,
    description: &str,
    source: &str,
    settings: &toml::Table,
) -> String {
    let lines = settings.iter().map(|(k, v)| (k.clone(), v.to_string()));
    VariantText::of(name, description, source, lines).text()
}

// ---------------------------------------------------------------------------
// Resolving a variant reference

/// Whether a variant reference names a file rather than a preset.
pub fn looks_like_path(spec: &str) -> bool {
    spec.ends_with(".toml") || spec.contains('/') || spec.contains('\\')
}

/// Why a variant reference gave no rules.
#[derive(Debug)]
pub enum LoadError {
    /// Neither a preset nor a file that exists.
    Unknown { spec: String },
    /// A file that could not be read.
    Read { spec: String, why: String },
    /// A file that is not a valid variant.
    Invalid(InputError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            LoadError::Unknown { spec } => write!(
                f,
                "unknown variant `{spec}`{}: give a preset name ({}) or a path to a TOML file",
                super::suggest::did_you_mean(spec, super::preset_names()),
                super::preset_names().join(", ")
            ),
            LoadError::Read { spec, why } => {
                write!(f, "{spec}: cannot read the variant file: {why}")
            }
            LoadError::Invalid(e) => e.fmt(f),
        }
    }
}

/// Reads a variant file named by `spec`: the name to report it by and its
/// text, or why it cannot be read.
pub type ReadFile<'a> = dyn FnMut(&str) -> Result<(String, String), String> + 'a;

/// A variant by preset name or file path: the one loader of the binary,
/// experiments and Python. A name that is not a preset is still tried as
/// a file when one of that name `exists` (a variant file without the
/// `.toml` ending); `read` gives a file's text with the name to report it
/// by, or why it cannot. The library does no I/O: the caller answers both.
pub fn resolve(
    spec: &str,
    exists: &dyn Fn(&std::path::Path) -> bool,
    read: &mut ReadFile,
) -> Result<Rules, LoadError> {
    let path_like = looks_like_path(spec);
    if !path_like && let Some(rules) = super::preset(spec) {
        return Ok(rules);
    }
    let path = std::path::Path::new(spec);
    if !path_like && !exists(path) {
        return Err(LoadError::Unknown {
            spec: spec.to_string(),
        });
    }
    let (shown, text) = read(spec).map_err(|why| LoadError::Read {
        spec: spec.to_string(),
        why,
    })?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant");
    parse_variant(&shown, &text, stem).map_err(LoadError::Invalid)
}
