//! Variant files: the TOML schema, its defaults, validation, and the
//! immutable [`Rules`] object the engine plays by.
//!
//! Every setting exists because two published readings of Katro disagree on
//! it; `docs/RULES.md` gives each one's meaning and sources. An omitted
//! setting takes the canonical value (Mancala World / de Voogt 1998).

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::engine::{MAX_HOLES, MAX_SIDE, Player};
use crate::schema::{self, Field, Kind, enum_check};

pub const MIN_ROWS: usize = 2;
pub const MAX_ROWS: usize = 8;
pub const MIN_HOLES_PER_ROW: usize = 2;
pub const MAX_HOLES_PER_ROW: usize = 16;
/// Holes are `u16`; a hole can end up holding every seed on the board.
pub const MAX_TOTAL_SEEDS: u64 = u16::MAX as u64;
pub const MIN_PLY_LIMIT: u64 = 1;
pub const MAX_PLY_LIMIT: u64 = 100_000_000;
pub const MAX_LAP_LIMIT: u64 = 1_000_000_000;

/// Where a move may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartRule {
    /// Only from the mover's outermost row that holds any seed (canonical).
    OutermostNonEmpty,
    /// From the mover's innermost row that holds any seed (Katra Mpantsaka).
    InnermostNonEmpty,
    /// From any occupied hole of the mover (Katra Boaoaka).
    Any,
}

/// Whether a hole holding a single seed may start a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Singletons {
    /// Always (canonical).
    Allowed,
    /// Only when no hole the start rule allows holds two or more seeds.
    LastResort,
    /// Never: a player left with only singletons has no move.
    Forbidden,
}

/// How the sowing direction is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DirectionRule {
    /// Always forward along the circuit (canonical).
    Forward,
    /// Chosen on every move (Wikipedia, Ludii).
    EachMove,
    /// Chosen on the player's first move, kept for the game (Katra Boaoaka).
    OncePerGame,
}

/// Which landings of a lap's last seed in an occupied hole relay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relay {
    /// Any occupied hole (canonical).
    Occupied,
    /// Only occupied holes of the mover's outer row (Katra, Murray 1951).
    OuterRow,
    /// Never: every move is a single lap unless it captures.
    Never,
}

/// Which landing holes can capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureTrigger {
    /// The last seed falls into a hole that already held seeds (canonical).
    Occupied,
    /// The last seed falls into an empty hole (Wikipedia).
    Empty,
    /// Either (Katra Boaoaka).
    Either,
}

/// Which of the mover's rows may capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapturingRow {
    /// The mover's innermost row that holds any seed (canonical).
    InnermostNonEmpty,
    /// Only the mover's inner row (Ludii, Katra Boaoaka).
    Inner,
}

/// Which opponent holes are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VictimRule {
    /// The hole in the same column of the opponent's innermost non-empty
    /// row, judged on the whole row (canonical).
    InnermostRow,
    /// The same column's first occupied hole going outward from the
    /// opponent's inner row, judged per column (Ludii).
    Column,
    /// Every opponent hole of the column (Katra Boaoaka: both holes).
    WholeColumn,
}

/// The extra move of a player whose side holds exactly one seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoneSeed {
    /// No extra move (canonical, Wikipedia).
    None,
    /// One row deeper, one column left or right (de Voogt's field notes).
    Diagonal,
    /// One row deeper, same column (Ludii).
    Straight,
}

/// Which circuit the backward direction follows (docs/RULES.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackwardCircuit {
    /// The forward circuit run the other way (canonical reading).
    Reversed,
    /// The forward circuit's left-right mirror image, run from the last
    /// column of the outer row (Ludii).
    Mirrored,
}

/// Which captures after an empty landing are refused, beyond
/// `min_victim_seeds_after_empty` (docs/RULES.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EmptyLandingRefusal {
    /// Only the minimum applies (the victims' seeds counted together).
    BelowMinimum,
    /// Also refused when every opponent hole of the column holds exactly
    /// one seed (Ludii's Katra Boaoaka).
    AllOnes,
}

/// When a lone-seed step is offered (docs/RULES.md §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoneSeedStep {
    /// Every step the `lone_seed` shape allows.
    Always,
    /// Not a step into a row that may capture when it would not capture
    /// (Ludii: middle to inner only when the column holds an opposing seed).
    NoFailedCapture,
}

/// How the seeds of a capturing lone-seed step are sown on (docs/RULES.md §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepSowing {
    /// At once, forward (or in the player's fixed direction).
    Forward,
    /// In a direction the player chooses, as a second decision of the turn
    /// (Ludii).
    Chosen,
}

/// When the game ends (docs/RULES.md §9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameEnd {
    /// The moment a capture leaves the opponent without a seed, the move
    /// and the game end and the mover wins (canonical, Ludii).
    OpponentEmpty,
    /// The move is played out; the game ends when the player to move has
    /// no legal move.
    PlayOut,
}

/// What a move whose relays cycle for ever means for the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndlessMove {
    /// The game ends undecided, status `endless-move`.
    Undecided,
    /// The mover loses.
    MoverLoses,
}

/// Every resolved setting of a variant: what `katro show` prints, what the
/// canonical rules string and the manifest are made from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Settings {
    pub rows: usize,
    pub holes: usize,
    /// Seeds in every hole at the start, when no explicit layout is given.
    pub seeds: Option<u16>,
    /// The starting layout, row 1 first, each row from column a.
    pub layout: Option<Vec<Vec<u16>>>,
    pub start: StartRule,
    pub singletons: Singletons,
    pub direction: DirectionRule,
    pub backward_circuit: BackwardCircuit,
    pub relay: Relay,
    pub capture_trigger: CaptureTrigger,
    pub capturing_row: CapturingRow,
    pub victim: VictimRule,
    pub min_victim_seeds: u16,
    pub min_victim_seeds_after_empty: u16,
    pub empty_landing_refusal: EmptyLandingRefusal,
    pub lone_seed: LoneSeed,
    pub lone_seed_step: LoneSeedStep,
    pub step_sowing: StepSowing,
    pub game_end: GameEnd,
    pub endless_move: EndlessMove,
    pub ply_limit: u32,
    pub lap_limit: u64,
}

impl Settings {
    /// The canonical rules (section 1 of the rules brief) on a 6×6 board.
    pub fn canonical() -> Settings {
        Settings {
            rows: 6,
            holes: 6,
            seeds: Some(2),
            layout: None,
            start: StartRule::OutermostNonEmpty,
            singletons: Singletons::Allowed,
            direction: DirectionRule::Forward,
            backward_circuit: BackwardCircuit::Reversed,
            relay: Relay::Occupied,
            capture_trigger: CaptureTrigger::Occupied,
            capturing_row: CapturingRow::InnermostNonEmpty,
            victim: VictimRule::InnermostRow,
            min_victim_seeds: 1,
            min_victim_seeds_after_empty: 1,
            empty_landing_refusal: EmptyLandingRefusal::BelowMinimum,
            lone_seed: LoneSeed::None,
            lone_seed_step: LoneSeedStep::Always,
            step_sowing: StepSowing::Forward,
            game_end: GameEnd::OpponentEmpty,
            endless_move: EndlessMove::Undecided,
            ply_limit: DEFAULT_PLY_LIMIT,
            lap_limit: DEFAULT_LAP_LIMIT,
        }
    }

    /// A one-line name of the complete rule set, OpenSpiel style, that
    /// identifies results in every output row.
    pub fn canonical_string(&self) -> String {
        let board = match (&self.layout, self.seeds) {
            (Some(layout), _) => {
                let rows: Vec<String> = layout
                    .iter()
                    .map(|r| {
                        r.iter()
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join(".")
                    })
                    .collect();
                format!("layout={}", rows.join("/"))
            }
            (None, Some(s)) => format!("seeds={s}"),
            (None, None) => unreachable!("validated settings have seeds or a layout"),
        };
        format!(
            "katro(rows={},holes={},{board},start={},singletons={},direction={},backward_circuit={},\
             relay={},capture_trigger={},capturing_row={},victim={},min_victim_seeds={},\
             min_victim_seeds_after_empty={},empty_landing_refusal={},lone_seed={},\
             lone_seed_step={},step_sowing={},game_end={},endless_move={},ply_limit={},lap_limit={})",
            self.rows,
            self.holes,
            kebab(&self.start),
            kebab(&self.singletons),
            kebab(&self.direction),
            kebab(&self.backward_circuit),
            kebab(&self.relay),
            kebab(&self.capture_trigger),
            kebab(&self.capturing_row),
            kebab(&self.victim),
            self.min_victim_seeds,
            self.min_victim_seeds_after_empty,
            kebab(&self.empty_landing_refusal),
            kebab(&self.lone_seed),
            kebab(&self.lone_seed_step),
            kebab(&self.step_sowing),
            kebab(&self.game_end),
            kebab(&self.endless_move),
            self.ply_limit,
            self.lap_limit,
        )
    }
}

/// The serde name of a setting value, as written in variant files.
pub fn kebab<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        other => panic!("setting values serialise as strings, got {other:?}"),
    }
}

pub const DEFAULT_PLY_LIMIT: u32 = 5_000;
/// A backstop only: endless moves are detected exactly long before this.
pub const DEFAULT_LAP_LIMIT: u64 = 10_000_000;

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

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawRules {
    start: Option<StartRule>,
    singletons: Option<Singletons>,
    direction: Option<DirectionRule>,
    backward_circuit: Option<BackwardCircuit>,
    relay: Option<Relay>,
    capture_trigger: Option<CaptureTrigger>,
    capturing_row: Option<CapturingRow>,
    victim: Option<VictimRule>,
    min_victim_seeds: Option<Sp<i64>>,
    min_victim_seeds_after_empty: Option<Sp<i64>>,
    empty_landing_refusal: Option<EmptyLandingRefusal>,
    lone_seed: Option<LoneSeed>,
    lone_seed_step: Option<LoneSeedStep>,
    step_sowing: Option<StepSowing>,
    game_end: Option<GameEnd>,
    endless_move: Option<EndlessMove>,
    ply_limit: Option<Sp<i64>>,
    lap_limit: Option<Sp<i64>>,
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

static RULES_FIELDS: &[Field] = &[
    Field::opt("start", Kind::Enum(enum_check::<StartRule>)),
    Field::opt("singletons", Kind::Enum(enum_check::<Singletons>)),
    Field::opt("direction", Kind::Enum(enum_check::<DirectionRule>)),
    Field::opt(
        "backward_circuit",
        Kind::Enum(enum_check::<BackwardCircuit>),
    ),
    Field::opt("relay", Kind::Enum(enum_check::<Relay>)),
    Field::opt("capture_trigger", Kind::Enum(enum_check::<CaptureTrigger>)),
    Field::opt("capturing_row", Kind::Enum(enum_check::<CapturingRow>)),
    Field::opt("victim", Kind::Enum(enum_check::<VictimRule>)),
    Field::opt("min_victim_seeds", Kind::Int),
    Field::opt("min_victim_seeds_after_empty", Kind::Int),
    Field::opt(
        "empty_landing_refusal",
        Kind::Enum(enum_check::<EmptyLandingRefusal>),
    ),
    Field::opt("lone_seed", Kind::Enum(enum_check::<LoneSeed>)),
    Field::opt("lone_seed_step", Kind::Enum(enum_check::<LoneSeedStep>)),
    Field::opt("step_sowing", Kind::Enum(enum_check::<StepSowing>)),
    Field::opt("game_end", Kind::Enum(enum_check::<GameEnd>)),
    Field::opt("endless_move", Kind::Enum(enum_check::<EndlessMove>)),
    Field::opt("ply_limit", Kind::Int),
    Field::opt("lap_limit", Kind::Int),
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

    let rows = ranged(
        &mut p,
        &raw.board.get_ref().rows,
        "board.rows",
        MIN_ROWS as i64,
        MAX_ROWS as i64,
        "the number of rows",
    );
    if let Some(r) = rows
        && r % 2 != 0
    {
        p.add(
            Some(raw.board.get_ref().rows.span()),
            "board.rows",
            format!(
                "{r} rows cannot be split between two players: use an even number (2, 4, 6 or 8)"
            ),
        );
    }
    let holes = ranged(
        &mut p,
        &raw.board.get_ref().holes,
        "board.holes",
        MIN_HOLES_PER_ROW as i64,
        MAX_HOLES_PER_ROW as i64,
        "holes per row",
    );
    let board = raw.board.get_ref();
    match (&board.seeds, &board.layout) {
        (Some(_), Some(l)) => p.add(
            Some(l.span()),
            "board.layout",
            "give either `seeds` (per hole) or `layout`, not both",
        ),
        (None, None) => p.add(
            Some(raw.board.span()),
            "board",
            "missing `seeds` (seeds in every hole) or `layout` (a list of rows, row 1 first)",
        ),
        (Some(seeds), None) => {
            if let Some(v) = ranged(
                &mut p,
                seeds,
                "board.seeds",
                1,
                u16::MAX as i64,
                "seeds per hole",
            ) {
                s.seeds = Some(v as u16);
                if let (Some(r), Some(h)) = (rows, holes) {
                    let total = (r * h) as u64 * v as u64;
                    if total > MAX_TOTAL_SEEDS {
                        p.add(
                            Some(seeds.span()),
                            "board.seeds",
                            format!(
                                "{r}×{h} holes of {v} seeds is {total} seeds; the engine holds at most {MAX_TOTAL_SEEDS}"
                            ),
                        );
                    }
                }
            }
        }
        (None, Some(layout)) => {
            s.seeds = None;
            let span = layout.span();
            let l = layout.get_ref();
            let mut ok = true;
            if let Some(r) = rows
                && l.len() != r as usize
            {
                p.add(
                    Some(span.clone()),
                    "board.layout",
                    format!("has {} rows, but `board.rows` is {r}", l.len()),
                );
                ok = false;
            }
            if let Some(h) = holes {
                for (i, row) in l.iter().enumerate() {
                    if row.len() != h as usize {
                        p.add(
                            Some(span.clone()),
                            "board.layout",
                            format!(
                                "row {} has {} holes, but `board.holes` is {h}",
                                i + 1,
                                row.len()
                            ),
                        );
                        ok = false;
                    }
                }
            }
            let mut total: u64 = 0;
            for (i, row) in l.iter().enumerate() {
                for (c, &v) in row.iter().enumerate() {
                    if !(0..=u16::MAX as i64).contains(&v) {
                        // Entries past the widest board are in no column
                        // (and past 'z' the letter arithmetic overflows).
                        let place = if c < MAX_HOLES_PER_ROW {
                            format!("hole {}{}", column_letter(c), i + 1)
                        } else {
                            format!("row {}, entry {},", i + 1, c + 1)
                        };
                        p.add(
                            Some(span.clone()),
                            "board.layout",
                            format!("{place} holds {v} seeds; a hole holds 0 to {}", u16::MAX),
                        );
                        ok = false;
                    } else {
                        total += v as u64;
                    }
                }
            }
            if total > MAX_TOTAL_SEEDS {
                p.add(
                    Some(span.clone()),
                    "board.layout",
                    format!("holds {total} seeds; the engine holds at most {MAX_TOTAL_SEEDS}"),
                );
                ok = false;
            }
            if ok && let Some(r) = rows {
                let half = r as usize / 2;
                if l[..half].iter().flatten().all(|&v| v == 0)
                    || l[half..].iter().flatten().all(|&v| v == 0)
                {
                    p.add(
                        Some(span.clone()),
                        "board.layout",
                        "each player must start with at least one seed on their side",
                    );
                    ok = false;
                }
            }
            if ok {
                s.layout = Some(
                    l.iter()
                        .map(|r| r.iter().map(|&v| v as u16).collect())
                        .collect(),
                );
            }
        }
    }
    if let Some(r) = rows {
        s.rows = r as usize;
    }
    if let Some(h) = holes {
        s.holes = h as usize;
    }

    let r = raw.rules;
    macro_rules! take {
        ($($f:ident),*) => { $( if let Some(v) = r.$f { s.$f = v; } )* };
    }
    take!(
        start,
        singletons,
        direction,
        backward_circuit,
        relay,
        capture_trigger,
        capturing_row,
        victim,
        empty_landing_refusal,
        lone_seed,
        lone_seed_step,
        step_sowing,
        game_end,
        endless_move
    );
    let max_seeds = u16::MAX as i64;
    if let Some(v) = &r.min_victim_seeds
        && let Some(v) = ranged(
            &mut p,
            v,
            "rules.min_victim_seeds",
            1,
            max_seeds,
            "the minimum victim seeds",
        )
    {
        s.min_victim_seeds = v as u16;
    }
    if let Some(v) = &r.min_victim_seeds_after_empty
        && let Some(v) = ranged(
            &mut p,
            v,
            "rules.min_victim_seeds_after_empty",
            1,
            max_seeds,
            "the minimum victim seeds after an empty landing",
        )
    {
        s.min_victim_seeds_after_empty = v as u16;
    }
    if let Some(v) = &r.ply_limit
        && let Some(v) = ranged(
            &mut p,
            v,
            "rules.ply_limit",
            MIN_PLY_LIMIT as i64,
            MAX_PLY_LIMIT as i64,
            "the ply limit",
        )
    {
        s.ply_limit = v as u32;
    }
    if let Some(v) = &r.lap_limit
        && let Some(v) = ranged(
            &mut p,
            v,
            "rules.lap_limit",
            1,
            MAX_LAP_LIMIT as i64,
            "the lap limit",
        )
    {
        s.lap_limit = v as u64;
    }

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
    Ok(Rules::new(
        name,
        raw.description.unwrap_or_default(),
        raw.source.unwrap_or_default(),
        s,
    ))
}

pub fn column_letter(c: usize) -> char {
    (b'a' + c as u8) as char
}

// ---------------------------------------------------------------------------
// The rules object

/// A validated rule set with its tables precomputed. Immutable: positions
/// are created from it and played by it.
#[derive(Clone, Debug)]
pub struct Rules {
    pub name: String,
    pub description: String,
    pub source: String,
    pub settings: Settings,
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
    pub fn new(name: String, description: String, source: String, settings: Settings) -> Rules {
        let t = Tables::new(&settings);
        Rules {
            name,
            description,
            source,
            settings,
            t,
        }
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
    ("katro-6x6", include_str!("../variants/katro-6x6.toml")),
    ("katro-4x4", include_str!("../variants/katro-4x4.toml")),
    ("katro-4x6", include_str!("../variants/katro-4x6.toml")),
    ("katro-6x3", include_str!("../variants/katro-6x3.toml")),
    (
        "katro-6x6-diagonal",
        include_str!("../variants/katro-6x6-diagonal.toml"),
    ),
    (
        "katro-wikipedia",
        include_str!("../variants/katro-wikipedia.toml"),
    ),
    ("katro-ludii", include_str!("../variants/katro-ludii.toml")),
    (
        "katra-boaoaka-4x8",
        include_str!("../variants/katra-boaoaka-4x8.toml"),
    ),
    (
        "katra-boaoaka-ludii",
        include_str!("../variants/katra-boaoaka-ludii.toml"),
    ),
];

/// A shipped preset by name.
pub fn preset(name: &str) -> Option<Rules> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(n, text)| {
        parse_variant(&format!("variants/{n}.toml"), text, n)
            .unwrap_or_else(|e| panic!("shipped preset {n} is invalid: {e}"))
    })
}

pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}
