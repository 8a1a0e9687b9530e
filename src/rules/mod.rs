//! Variant files: the TOML schema, its defaults, validation, and the
//! immutable [`Rules`] object the engine plays by.
//!
//! Every setting exists because two published readings of Katro disagree on
//! it; `docs/RULES.md` gives each one's meaning and sources. An omitted
//! setting takes the canonical value (Mancala World / de Voogt 1998).

use std::fmt;
use std::ops::Range;

use serde::Deserialize;

use crate::engine::{MAX_HOLES, MAX_SIDE, Player};
use crate::schema::{self, Field, Kind};

mod settings;

pub use settings::{
    Allowed, BOARD_SETTINGS, BackwardCircuit, CaptureTrigger, CapturingRow, DEFAULT_LAP_LIMIT,
    DEFAULT_PLY_LIMIT, DirectionRule, EmptyLandingRefusal, EndlessMove, GameEnd, LoneSeed,
    LoneSeedStep, MAX_HOLES_PER_ROW, MAX_LAP_LIMIT, MAX_PLY_LIMIT, MAX_ROWS, MAX_TOTAL_SEEDS,
    MIN_HOLES_PER_ROW, MIN_PLY_LIMIT, MIN_ROWS, Relay, SETTINGS, SettingInfo, SettingProblem,
    Settings, SettingsError, Singletons, StartRule, StepSowing, Value, VictimRule, board_problems,
    column_letter, range_problem, settings_problems,
};
use settings::{RULES_FIELDS, RawRules};

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

// ---------------------------------------------------------------------------
// The rules object

/// A validated rule set with its tables precomputed. Immutable: positions
/// are created from it and played by it.
#[derive(Clone, Debug)]
pub struct Rules {
    name: String,
    description: String,
    source: String,
    settings: Settings,
    pub(crate) t: Tables,
}

/// Lookup tables derived from the board shape, so the engine never
/// recomputes geometry while sowing.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    pub rows: usize,
    pub cols: usize,
    pub holes: usize,
    /// Rows a player owns.
    pub depths: usize,
    /// Holes a player owns: the length of a circuit.
    pub side: usize,
    /// `circuit[player][dir]`: hole indices in sowing order, written out
    /// twice so a lap of fewer seeds than the circuit never wraps; `dir` 0
    /// is forward, 1 backward (as `backward_circuit` says, RULES.md §2).
    pub circuit: [[[u8; 2 * MAX_SIDE]; 2]; 2],
    /// `circuit_index[dir][hole]`: position of a hole in its owner's
    /// circuit of that direction.
    pub circuit_index: [[u8; MAX_HOLES]; 2],
    pub owner: [Player; MAX_HOLES],
    /// 0 is the owner's outer row, `depths - 1` the inner row.
    pub depth: [u8; MAX_HOLES],
    pub column: [u8; MAX_HOLES],
    /// `row_of[player][depth]`: board row index (0-based) of that row.
    pub row_of: [[u8; MAX_ROWS / 2]; 2],
    /// Bit masks over holes (bit `h` is hole `h`), for occupancy tests.
    pub row_mask: [u128; MAX_ROWS],
    pub side_mask: [u128; 2],
    /// `deeper[player][depth]`: the player's rows deeper than `depth`.
    pub deeper: [[u128; MAX_ROWS / 2]; 2],
    /// `victim_holes[player][column]`: the player's holes in that column,
    /// inner row first, the order in which victims are sought.
    pub victim_holes: [[[u8; MAX_ROWS / 2]; MAX_HOLES_PER_ROW]; 2],
    /// A random key per hole for board fingerprints in cycle detection.
    pub zobrist: [u64; MAX_HOLES],
    /// `zprefix[player][dir][i]`: the sum of the keys of the first `i`
    /// holes of the doubled circuit, so a lap's fingerprint change is one
    /// subtraction.
    pub zprefix: [[[u64; 2 * MAX_SIDE + 1]; 2]; 2],
    /// `occ_prefix[player][dir][i]`: XOR of the bits of the first `i` holes
    /// of the doubled circuit. A window shorter than the circuit holds
    /// distinct holes, so the XOR of two entries is the OR of the window's
    /// bits: the holes a lap sowed, in two loads.
    pub occ_prefix: [[[u128; 2 * MAX_SIDE + 1]; 2]; 2],
    /// `bit[h]` is `1 << h`: a load is cheaper than a variable u128 shift.
    pub bit: [u128; MAX_HOLES],
    pub start: [u16; MAX_HOLES],
    pub total_seeds: u32,
}

impl Rules {
    /// The one way to rules: settings are checked, every problem reported
    /// (the board's shape and seeds, and each integer's range, as
    /// docs/RULES.md §10 allows them), before any table is built from them.
    pub fn new(
        name: String,
        description: String,
        source: String,
        settings: Settings,
    ) -> Result<Rules, SettingsError> {
        let problems = settings_problems(&settings);
        if !problems.is_empty() {
            return Err(SettingsError { problems });
        }
        let t = Tables::new(&settings);
        Ok(Rules {
            name,
            description,
            source,
            settings,
            t,
        })
    }

    /// These rules with their ply and lap limits replaced where given (an
    /// experiment's or a replay's override), checked as any settings are.
    pub fn with_limits(
        &self,
        ply_limit: Option<u64>,
        lap_limit: Option<u64>,
    ) -> Result<Rules, SettingsError> {
        let mut settings = self.settings.clone();
        if let Some(v) = ply_limit {
            settings.ply_limit = u32::try_from(v).map_err(|_| {
                let info = SETTINGS.iter().find(|i| i.key == "rules.ply_limit");
                let message = match info.map(|i| i.allowed) {
                    Some(Allowed::Range { lo, hi, what }) => range_problem(v as i128, lo, hi, what),
                    _ => None,
                };
                SettingsError {
                    problems: vec![SettingProblem {
                        key: "rules.ply_limit",
                        message: message.unwrap_or_else(|| format!("{v} is out of range")),
                    }],
                }
            })?;
        }
        if let Some(v) = lap_limit {
            settings.lap_limit = v;
        }
        self.with_settings(settings)
    }

    /// Rules of the same name, description and source under other
    /// settings, checked as any settings are.
    pub fn with_settings(&self, settings: Settings) -> Result<Rules, SettingsError> {
        Rules::new(
            self.name.clone(),
            self.description.clone(),
            self.source.clone(),
            settings,
        )
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn description(&self) -> &str {
        &self.description
    }
    pub fn source(&self) -> &str {
        &self.source
    }
    /// The checked settings these rules were built from.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn rows(&self) -> usize {
        self.t.rows
    }
    pub fn cols(&self) -> usize {
        self.t.cols
    }
    pub fn hole_count(&self) -> usize {
        self.t.holes
    }
    pub fn total_seeds(&self) -> u32 {
        self.t.total_seeds
    }
    /// Row index (0-based, row 1 is 0) of a hole.
    pub fn row(&self, hole: usize) -> usize {
        hole / self.t.cols
    }
    pub fn col(&self, hole: usize) -> usize {
        hole % self.t.cols
    }
    pub fn hole_at(&self, row: usize, col: usize) -> usize {
        row * self.t.cols + col
    }
    pub fn owner(&self, hole: usize) -> Player {
        self.t.owner[hole]
    }
    /// 0 for the owner's outer row, increasing towards the centre.
    pub fn depth(&self, hole: usize) -> usize {
        self.t.depth[hole] as usize
    }
    pub fn depths(&self) -> usize {
        self.t.depths
    }
    /// A player's holes in forward sowing order.
    pub fn circuit(&self, player: Player) -> &[u8] {
        &self.t.circuit[player.index()][0][..self.t.side]
    }
    /// A player's holes in sowing order in a direction: backward follows
    /// `backward_circuit` (RULES.md §2).
    pub fn circuit_in(&self, player: Player, dir: crate::engine::Dir) -> &[u8] {
        &self.t.circuit[player.index()][dir as usize][..self.t.side]
    }
    /// The hole turned through 180 degrees.
    pub fn mirror_hole(&self, hole: usize) -> usize {
        self.t.holes - 1 - hole
    }
    pub fn canonical_string(&self) -> String {
        self.settings.canonical_string()
    }
}

impl Tables {
    fn new(s: &Settings) -> Tables {
        let rows = s.rows;
        let cols = s.holes;
        let holes = rows * cols;
        let depths = rows / 2;
        let side = depths * cols;
        let mut t = Tables {
            rows,
            cols,
            holes,
            depths,
            side,
            circuit: [[[0; 2 * MAX_SIDE]; 2]; 2],
            circuit_index: [[0; MAX_HOLES]; 2],
            owner: [Player::South; MAX_HOLES],
            depth: [0; MAX_HOLES],
            column: [0; MAX_HOLES],
            row_of: [[0; MAX_ROWS / 2]; 2],
            row_mask: [0; MAX_ROWS],
            side_mask: [0; 2],
            deeper: [[0; MAX_ROWS / 2]; 2],
            victim_holes: [[[0; MAX_ROWS / 2]; MAX_HOLES_PER_ROW]; 2],
            zobrist: [0; MAX_HOLES],
            zprefix: [[[0; 2 * MAX_SIDE + 1]; 2]; 2],
            occ_prefix: [[[0; 2 * MAX_SIDE + 1]; 2]; 2],
            bit: std::array::from_fn(|h| 1u128 << h),
            start: [0; MAX_HOLES],
            total_seeds: 0,
        };
        for d in 0..depths {
            t.row_of[0][d] = d as u8;
            t.row_of[1][d] = (rows - 1 - d) as u8;
        }
        for h in 0..holes {
            let r = h / cols;
            t.column[h] = (h % cols) as u8;
            if r < depths {
                t.owner[h] = Player::South;
                t.depth[h] = r as u8;
            } else {
                t.owner[h] = Player::North;
                t.depth[h] = (rows - 1 - r) as u8;
            }
        }
        // South's forward circuit: row 1 a→last, row 2 last→a, and so on;
        // North's is South's turned through 180 degrees (RULES.md §2).
        let mut i = 0;
        for d in 0..depths {
            for k in 0..cols {
                let c = if d % 2 == 0 { k } else { cols - 1 - k };
                let south = d * cols + c;
                let mirrored = d * cols + (cols - 1 - c);
                t.circuit[0][0][i] = south as u8;
                t.circuit[1][0][i] = (holes - 1 - south) as u8;
                if s.backward_circuit == BackwardCircuit::Mirrored {
                    t.circuit[0][1][i] = mirrored as u8;
                    t.circuit[1][1][i] = (holes - 1 - mirrored) as u8;
                }
                i += 1;
            }
        }
        for p in 0..2 {
            if s.backward_circuit == BackwardCircuit::Reversed {
                for j in 0..side {
                    t.circuit[p][1][j] = t.circuit[p][0][side - 1 - j];
                }
            }
            for d in 0..2 {
                for j in 0..side {
                    let h = t.circuit[p][d][j];
                    t.circuit[p][d][side + j] = h;
                    t.circuit_index[d][h as usize] = j as u8;
                }
            }
        }
        for h in 0..MAX_HOLES {
            t.zobrist[h] = crate::rng::mix64(h as u64 ^ 0x6b61_7472_6f00_0000);
        }
        for p in 0..2 {
            for d in 0..2 {
                for i in 0..2 * side {
                    let key = t.zobrist[t.circuit[p][d][i] as usize];
                    t.zprefix[p][d][i + 1] = t.zprefix[p][d][i].wrapping_add(key);
                    t.occ_prefix[p][d][i + 1] = t.occ_prefix[p][d][i] ^ 1u128 << t.circuit[p][d][i];
                }
            }
        }
        for h in 0..holes {
            t.row_mask[h / cols] |= 1u128 << h;
            t.side_mask[t.owner[h].index()] |= 1u128 << h;
        }
        for p in 0..2 {
            for d in 0..depths {
                for dd in d + 1..depths {
                    t.deeper[p][d] |= t.row_mask[t.row_of[p][dd] as usize];
                }
                for c in 0..cols {
                    t.victim_holes[p][c][depths - 1 - d] =
                        (t.row_of[p][d] as usize * cols + c) as u8;
                }
            }
        }
        match (&s.layout, s.seeds) {
            (Some(layout), _) => {
                for (r, row) in layout.iter().enumerate() {
                    for (c, &v) in row.iter().enumerate() {
                        t.start[r * cols + c] = v;
                    }
                }
            }
            (None, Some(v)) => {
                for h in 0..holes {
                    t.start[h] = v;
                }
            }
            (None, None) => {}
        }
        t.total_seeds = t.start[..holes].iter().map(|&v| v as u32).sum();
        t
    }
}

// ---------------------------------------------------------------------------
// Presets

/// The shipped presets: name and file text, compiled in so the binary works
/// from any folder.
pub const PRESETS: &[(&str, &str)] = &[
    ("katro-6x6", include_str!("../../variants/katro-6x6.toml")),
    ("katro-4x4", include_str!("../../variants/katro-4x4.toml")),
    ("katro-4x6", include_str!("../../variants/katro-4x6.toml")),
    ("katro-6x3", include_str!("../../variants/katro-6x3.toml")),
    (
        "katro-6x6-diagonal",
        include_str!("../../variants/katro-6x6-diagonal.toml"),
    ),
    (
        "katro-wikipedia",
        include_str!("../../variants/katro-wikipedia.toml"),
    ),
    (
        "katro-ludii",
        include_str!("../../variants/katro-ludii.toml"),
    ),
    (
        "katra-boaoaka-4x8",
        include_str!("../../variants/katra-boaoaka-4x8.toml"),
    ),
    (
        "katra-boaoaka-ludii",
        include_str!("../../variants/katra-boaoaka-ludii.toml"),
    ),
];

/// A shipped preset by name.
pub fn preset(name: &str) -> Option<Rules> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(n, text)| {
        // A test parses every preset, so this cannot fail in a build.
        parse_variant(&format!("variants/{n}.toml"), text, n)
            .unwrap_or_else(|e| panic!("shipped preset {n} is invalid: {e}"))
    })
}

pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}
