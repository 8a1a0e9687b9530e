//! Every setting of a variant, declared once.
//!
//! The `[rules]` settings are one table, the [`settings!`] invocation
//! below: key, type, allowed values (with what each one means) or range,
//! default, one-line meaning and source. From it come the setting enums
//! (with their serde names and `ALL` lists), the [`Settings`] fields and
//! their order, [`Settings::canonical`], the canonical rules string, the
//! TOML schema of `[rules]` and its typed parse with range messages, the
//! checks [`crate::rules::Rules::new`] makes of the integers, the lines
//! `katro show` prints, the random settings of the property tests and the
//! fuzzer, and [`SETTINGS`], which a test holds docs/RULES.md §10 to.
//!
//! The `[board]` settings are checked together (a layout must fit the
//! rows and holes), so their checks are written out in
//! [`board_problems`]; their metadata is declared here beside the rest.
//!
//! Adding a rules setting (as `game_end` was, for the issue "Numbers you
//! can publish") now takes one entry in the table below and the engine
//! logic that reads it (`crates/core/src/engine/decisions.rs`, and the reference
//! model of `crates/reference/src/` that the differential tests compare it with).
//! Tests then demand its row in docs/RULES.md §10 and its key and values
//! in `fuzz/variant.dict`. Nothing else: the parser, schema, `katro show`,
//! the manifest, the generators and their coverage test all follow the
//! table. The canonical rules string gains the key, so every variant's
//! string (and with it the committed results) changes.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::schema::{BadValue, Field, Kind, enum_check};

pub const MIN_ROWS: usize = 2;
pub const MAX_ROWS: usize = 8;
pub const MIN_HOLES_PER_ROW: usize = 2;
pub const MAX_HOLES_PER_ROW: usize = 16;
/// Holes are `u16`; a hole can end up holding every seed on the board.
pub const MAX_TOTAL_SEEDS: u64 = u16::MAX as u64;
pub const MIN_PLY_LIMIT: u64 = 1;
pub const MAX_PLY_LIMIT: u64 = 100_000_000;
pub const MAX_LAP_LIMIT: u64 = 1_000_000_000;
pub const DEFAULT_PLY_LIMIT: u32 = 5_000;
/// A backstop only: endless moves are detected exactly long before this.
pub const DEFAULT_LAP_LIMIT: u64 = 10_000_000;

/// What a setting may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// One of these names (as written in variant files).
    Values(&'static [&'static str]),
    /// An integer from `lo` to `hi`; `what` names it in range messages.
    Range {
        lo: i128,
        hi: i128,
        what: &'static str,
    },
    /// A board setting, checked with the others: docs/RULES.md §10's
    /// words for what is allowed, and for the default.
    Board {
        allowed: &'static str,
        default: &'static str,
    },
}

/// The declaration of one setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingInfo {
    /// As written in a variant file: `rules.start`, `board.rows`.
    pub key: &'static str,
    pub allowed: Allowed,
    /// `None` for the board settings, which have none.
    pub default: Option<Value>,
    pub meaning: &'static str,
    pub source: &'static str,
}

impl SettingInfo {
    /// The key without its table: `start` for `rules.start`.
    pub fn name(&self) -> &'static str {
        self.key.rsplit('.').next().unwrap_or(self.key)
    }
}

/// A setting's value, as the canonical string and `katro show` write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Name(&'static str),
    Int(i128),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Name(n) => write!(f, "{n}"),
            Value::Int(v) => write!(f, "{v}"),
        }
    }
}

impl Value {
    /// The value as TOML writes it.
    pub fn toml(&self) -> String {
        match self {
            Value::Name(n) => format!("\"{n}\""),
            Value::Int(v) => v.to_string(),
        }
    }
}

/// One problem [`crate::rules::Rules::new`] found in settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingProblem {
    /// The key at fault (`board.layout`, `rules.ply_limit`), or `board`
    /// for the board as a whole.
    pub key: &'static str,
    pub message: String,
}

/// Everything wrong with a set of settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsError {
    pub problems: Vec<SettingProblem>,
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "`{}`: {}", p.key, p.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for SettingsError {}

/// The range message of an integer setting, or `None` if `v` is allowed.
/// Wide, so a value that fits no field type (a TOML `-1` rows, a
/// `u64::MAX` lap limit) is reported as written.
pub fn range_problem(v: i128, lo: i128, hi: i128, what: &str) -> Option<String> {
    (v < lo || v > hi).then(|| format!("{v} is out of range: {what} must be from {lo} to {hi}"))
}

/// The checked `[rules]` integer of `info`, narrowed to its field type.
fn checked_int<T: TryFrom<i128>>(info: &SettingInfo, v: i128) -> Result<T, BadValue> {
    if let Allowed::Range { lo, hi, what } = info.allowed
        && let Some(m) = range_problem(v, lo, hi, what)
    {
        return Err(BadValue(m));
    }
    // Every declared range lies inside its field's type.
    T::try_from(v).map_err(|_| BadValue(format!("{v} does not fit `{}`", info.key)))
}

/// The board settings' declarations (their checks: [`board_problems`]).
pub static BOARD_SETTINGS: [SettingInfo; 4] = [
    SettingInfo {
        key: "board.rows",
        allowed: Allowed::Board {
            allowed: "even, 2 to 8",
            default: "required",
        },
        default: None,
        meaning: "rows on the board",
        source: "canonical 6 (Mancala World / de Voogt 1998); 4 in de Voogt's field notes and Katra Boaoaka (Linton 1933); 2 and 8 for study",
    },
    SettingInfo {
        key: "board.holes",
        allowed: Allowed::Board {
            allowed: "2 to 16",
            default: "required",
        },
        default: None,
        meaning: "holes per row",
        source: "canonical 6 (Mancala World / de Voogt 1998); 3 and 4 in de Voogt's field notes; 8 in Katra Boaoaka (Linton 1933); the rest for study",
    },
    SettingInfo {
        key: "board.seeds",
        allowed: Allowed::Board {
            allowed: "1 to 65,535, total ≤ 65,535",
            default: "required unless `layout`",
        },
        default: None,
        meaning: "seeds in every hole at the start",
        source: "2 a hole in every source (RULES.md §11)",
    },
    SettingInfo {
        key: "board.layout",
        allowed: Allowed::Board {
            allowed: "`rows` lists of `holes` numbers, each player at least one seed, total ≤ 65,535",
            default: "instead of `seeds`",
        },
        default: None,
        meaning: "starting seeds, row 1 first, each row from column a",
        source: "no source: for studying positions",
    },
];

/// Every problem of a board, its numbers wide so that a variant file's
/// values are judged as written; the checks are those of docs/RULES.md
/// §10. A check that needs another key (a layout's shape needs the rows)
/// is made only when that key is itself in range.
pub fn board_problems(
    rows: i128,
    holes: i128,
    seeds: Option<i128>,
    layout: Option<&[Vec<i128>]>,
) -> Vec<SettingProblem> {
    let mut p = Vec::new();
    let rows = rows_checked(&mut p, rows);
    let holes = in_range(
        &mut p,
        "board.holes",
        holes,
        (MIN_HOLES_PER_ROW, MAX_HOLES_PER_ROW),
        "holes per row",
    );
    contents_problems(&mut p, seeds, layout, rows, holes);
    p
}

/// The problems of the board's contents: exactly one of `seeds` and
/// `layout`, and that one's against `rows` and `holes`.
fn contents_problems(
    p: &mut Vec<SettingProblem>,
    seeds: Option<i128>,
    layout: Option<&[Vec<i128>]>,
    rows: Option<i128>,
    holes: Option<i128>,
) {
    match (seeds, layout) {
        (Some(_), Some(_)) => add(
            p,
            "board.layout",
            "give either `seeds` (per hole) or `layout`, not both".into(),
        ),
        (None, None) => add(
            p,
            "board",
            "missing `seeds` (seeds in every hole) or `layout` (a list of rows, row 1 first)"
                .into(),
        ),
        (Some(v), None) => seeds_problems(p, v, rows, holes),
        (None, Some(l)) => layout_problems(p, l, rows, holes),
    }
}

fn add(p: &mut Vec<SettingProblem>, key: &'static str, message: String) {
    p.push(SettingProblem { key, message });
}

/// `v` if it is within `lo..=hi`, else `None` and its problem at `key`.
fn in_range(
    p: &mut Vec<SettingProblem>,
    key: &'static str,
    v: i128,
    (lo, hi): (usize, usize),
    what: &str,
) -> Option<i128> {
    match range_problem(v, lo as i128, hi as i128, what) {
        Some(m) => {
            add(p, key, m);
            None
        }
        None => Some(v),
    }
}

/// The rows, if in range; an odd number is a problem too, but still
/// counts for the checks of the other keys.
fn rows_checked(p: &mut Vec<SettingProblem>, rows: i128) -> Option<i128> {
    let rows = in_range(
        p,
        "board.rows",
        rows,
        (MIN_ROWS, MAX_ROWS),
        "the number of rows",
    );
    if let Some(r) = rows
        && r % 2 != 0
    {
        add(
            p,
            "board.rows",
            format!(
                "{r} rows cannot be split between two players: use an even number (2, 4, 6 or 8)"
            ),
        );
    }
    rows
}

fn seeds_problems(p: &mut Vec<SettingProblem>, v: i128, rows: Option<i128>, holes: Option<i128>) {
    if let Some(m) = range_problem(v, 1, u16::MAX as i128, "seeds per hole") {
        add(p, "board.seeds", m);
    } else if let (Some(r), Some(h)) = (rows, holes) {
        let total = r * h * v;
        if total > MAX_TOTAL_SEEDS as i128 {
            add(
                p,
                "board.seeds",
                format!(
                    "{r}×{h} holes of {v} seeds is {total} seeds; the engine holds at most {MAX_TOTAL_SEEDS}"
                ),
            );
        }
    }
}

/// An explicit layout: its shape against `rows` and `holes`, its entries,
/// its total, and a seed on each side.
fn layout_problems(
    p: &mut Vec<SettingProblem>,
    l: &[Vec<i128>],
    rows: Option<i128>,
    holes: Option<i128>,
) {
    let shaped = layout_shape_problems(p, l, rows, holes);
    let counted = layout_entry_problems(p, l);
    if shaped
        && counted
        && let Some(r) = rows
    {
        let half = (r / 2) as usize;
        if l[..half].iter().flatten().all(|&v| v == 0)
            || l[half..].iter().flatten().all(|&v| v == 0)
        {
            add(
                p,
                "board.layout",
                "each player must start with at least one seed on their side".into(),
            );
        }
    }
}

/// Whether the layout has `rows` rows of `holes` holes (a key out of
/// range is not held against it).
fn layout_shape_problems(
    p: &mut Vec<SettingProblem>,
    l: &[Vec<i128>],
    rows: Option<i128>,
    holes: Option<i128>,
) -> bool {
    let mut ok = true;
    if let Some(r) = rows
        && l.len() as i128 != r
    {
        add(
            p,
            "board.layout",
            format!("has {} rows, but `board.rows` is {r}", l.len()),
        );
        ok = false;
    }
    if let Some(h) = holes {
        ok &= row_length_problems(p, l, h);
    }
    ok
}

/// Whether every row of the layout has `h` holes.
fn row_length_problems(p: &mut Vec<SettingProblem>, l: &[Vec<i128>], h: i128) -> bool {
    let mut ok = true;
    for (i, row) in l.iter().enumerate() {
        if row.len() as i128 != h {
            add(
                p,
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
    ok
}

/// Whether every entry is a hole's worth of seeds and the total fits the
/// engine.
fn layout_entry_problems(p: &mut Vec<SettingProblem>, l: &[Vec<i128>]) -> bool {
    let max_seeds = u16::MAX as i128;
    let mut ok = true;
    let mut total: i128 = 0;
    for (i, row) in l.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if !(0..=max_seeds).contains(&v) {
                let place = layout_place(i, c);
                add(
                    p,
                    "board.layout",
                    format!("{place} holds {v} seeds; a hole holds 0 to {}", u16::MAX),
                );
                ok = false;
            } else {
                total += v;
            }
        }
    }
    if total > MAX_TOTAL_SEEDS as i128 {
        add(
            p,
            "board.layout",
            format!("holds {total} seeds; the engine holds at most {MAX_TOTAL_SEEDS}"),
        );
        ok = false;
    }
    ok
}

/// The entry `c` of the layout's row `i` (both from 0) as a problem names
/// it.
fn layout_place(i: usize, c: usize) -> String {
    // Entries past the widest board are in no column (and past 'z' the
    // letter arithmetic overflows).
    if c < MAX_HOLES_PER_ROW {
        format!("hole {}{}", column_letter(c), i + 1)
    } else {
        format!("row {}, entry {},", i + 1, c + 1)
    }
}

/// The letter of a column, `a` first; only for `c` below 26.
pub fn column_letter(c: usize) -> char {
    (b'a' + c as u8) as char
}

/// A layout's seeds as wide integers, for judging them as written.
pub fn widened<T: Copy + Into<i128>>(layout: &[Vec<T>]) -> Vec<Vec<i128>> {
    layout
        .iter()
        .map(|r| r.iter().map(|&v| v.into()).collect())
        .collect()
}

/// Every problem of `s`: its board's ([`board_problems`]) and each rules
/// integer's range.
pub fn settings_problems(s: &Settings) -> Vec<SettingProblem> {
    let wide = s.layout.as_deref().map(widened);
    let mut p = board_problems(
        s.rows as i128,
        s.holes as i128,
        s.seeds.map(|v| v as i128),
        wide.as_deref(),
    );
    for (info, value) in s.rule_values() {
        if let (Allowed::Range { lo, hi, what }, Value::Int(v)) = (info.allowed, value)
            && let Some(message) = range_problem(v, lo, hi, what)
        {
            p.push(SettingProblem {
                key: info.key,
                message,
            });
        }
    }
    p
}

impl Settings {
    /// A one-line name of the complete rule set, OpenSpiel style, that
    /// identifies results in every output row.
    pub fn canonical_string(&self) -> String {
        let board = match (&self.layout, self.seeds) {
            (Some(layout), _) => format!("layout={}", layout_text(layout)),
            (None, Some(s)) => format!("seeds={s}"),
            // Unchecked settings may have neither; checked rules never do.
            (None, None) => "seeds=none".to_string(),
        };
        let mut out = format!("katro(rows={},holes={},{board}", self.rows, self.holes);
        for (info, value) in self.rule_values() {
            out.push_str(&format!(",{}={value}", info.name()));
        }
        out.push(')');
        out
    }
}

/// A canonical rules string ([`Settings::canonical_string`]) split into
/// the game it names and its two limits, which it writes last: `(game,
/// ply_limit, lap_limit)`; `None` for other text. Two variants that differ
/// only in their limits have the same `game`.
pub fn split_limits(canonical: &str) -> Option<(&str, u64, u64)> {
    let (game, limits) = canonical.split_once(",ply_limit=")?;
    let (ply, lap) = limits.strip_suffix(')')?.split_once(",lap_limit=")?;
    Some((game, ply.parse().ok()?, lap.parse().ok()?))
}

/// A layout as the canonical string writes it: rows joined by `/`, each
/// row's seeds by `.`.
fn layout_text(layout: &[Vec<u16>]) -> String {
    let rows: Vec<String> = layout
        .iter()
        .map(|r| {
            r.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect();
    rows.join("/")
}

macro_rules! settings {
    (
        $(
            $key:ident : $Ty:ident = $default:expr,
            $( values { $( $(#[$vdoc:meta])* $Var:ident = $vname:literal ),+ $(,)? }, )?
            $( range($lo:expr, $hi:expr), what: $what:literal, )?
            meaning: $meaning:literal,
            source: $source:literal;
        )*
    ) => {
        $( $(
            #[doc = $meaning]
            #[doc = ""]
            #[doc = concat!("Source: ", $source, ".")]
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
            pub enum $Ty {
                $( $(#[$vdoc])* #[serde(rename = $vname)] $Var, )+
            }

            impl $Ty {
                /// Every value, in declaration order.
                pub const ALL: &'static [$Ty] = &[$($Ty::$Var),+];
                /// Every value's name, as written in variant files.
                pub const NAMES: &'static [&'static str] = &[$($vname),+];

                /// The name written in variant files.
                pub const fn name(self) -> &'static str {
                    match self {
                        $( $Ty::$Var => $vname, )+
                    }
                }
            }
        )? )*

        /// Every resolved setting of a variant: what `katro show` prints,
        /// what the canonical rules string and the manifest are made from.
        /// Unchecked (any value may be written here);
        /// [`crate::rules::Rules::new`] checks it.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
        pub struct Settings {
            pub rows: usize,
            pub holes: usize,
            /// Seeds in every hole at the start, when no explicit layout is
            /// given.
            pub seeds: Option<u16>,
            /// The starting layout, row 1 first, each row from column a.
            pub layout: Option<Vec<Vec<u16>>>,
            $( #[doc = $meaning] pub $key: $Ty, )*
        }

        /// The declarations of the board settings, then of the rules
        /// settings in [`Settings`] order.
        pub static SETTINGS: &[SettingInfo] = &[
            BOARD_SETTINGS[0],
            BOARD_SETTINGS[1],
            BOARD_SETTINGS[2],
            BOARD_SETTINGS[3],
            $( SettingInfo {
                key: concat!("rules.", stringify!($key)),
                allowed: settings!(@allowed $Ty
                    $( [values $($vname)+] )? $( [range $lo, $hi, $what] )?),
                default: Some(settings!(@value
                    $( [values $($vname)+] )? $( [range $lo] )? $default)),
                meaning: $meaning,
                source: $source,
            }, )*
        ];

        /// The `[rules]` table's schema, for the first pass.
        pub(crate) static RULES_FIELDS: &[Field] = &[
            $( Field::opt(
                stringify!($key),
                settings!(@kind $Ty $( [values $($vname)+] )? $( [range $lo] )?),
            ), )*
        ];

        /// The `[rules]` table as the typed pass reads it: integers wide
        /// and placed, so their range problems name the value as written.
        #[derive(Deserialize, Default)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct RawRules {
            $( $key: Option<settings!(@raw $Ty $( [values $($vname)+] )? $( [range $lo] )?)>, )*
        }

        impl RawRules {
            /// Writes the given settings into `s`; an integer out of range
            /// is left at its default and reported with its span.
            #[allow(unused_assignments, unused_variables)]
            pub(crate) fn apply(
                self,
                s: &mut Settings,
                problem: &mut dyn FnMut(std::ops::Range<usize>, &'static str, String),
            ) {
                let mut i = BOARD_SETTINGS.len();
                $(
                    let here = &SETTINGS[i];
                    i += 1;
                    if let Some(v) = self.$key {
                        settings!(@apply s.$key, v, here, problem
                            $( [values $($vname)+] )? $( [range $lo] )?);
                    }
                )*
            }
        }

        impl Settings {
            /// The canonical rules (RULES.md §11, Mancala World / de Voogt 1998) on a 6×6
            /// board.
            pub fn canonical() -> Settings {
                Settings {
                    rows: 6,
                    holes: 6,
                    seeds: Some(2),
                    layout: None,
                    $( $key: $default, )*
                }
            }

            /// Every rules setting's declaration and value, in order.
            pub fn rule_values(&self) -> Vec<(&'static SettingInfo, Value)> {
                let values = [$(
                    settings!(@value $( [values $($vname)+] )? $( [range $lo] )? self.$key),
                )*];
                SETTINGS[BOARD_SETTINGS.len()..].iter().zip(values).collect()
            }

            /// Sets every rules setting from `choose`, which is given its
            /// declaration: for a named value it answers an index into the
            /// names (taken modulo their count), for an integer the value,
            /// which need not be in range (an invalid value is how the
            /// property tests reach [`crate::rules::Rules::new`]'s checks)
            /// but must fit the field, or the default is kept.
            #[allow(unused_assignments)]
            pub fn choose_rules(&mut self, choose: &mut dyn FnMut(&'static SettingInfo) -> i128) {
                let mut i = BOARD_SETTINGS.len();
                $(
                    let v = choose(&SETTINGS[i]);
                    i += 1;
                    settings!(@choose $( [values $($vname)+] )? $( [range $lo] )?
                        self.$key, v, $Ty, $default);
                )*
            }
        }
    };

    (@allowed $Ty:ident [values $($vname:literal)+]) => {
        Allowed::Values($Ty::NAMES)
    };
    (@allowed $Ty:ident [range $lo:expr, $hi:expr, $what:literal]) => {
        Allowed::Range { lo: $lo as i128, hi: $hi as i128, what: $what }
    };
    (@kind $Ty:ident [values $($vname:literal)+]) => {
        Kind::Enum(enum_check::<$Ty>)
    };
    (@kind $Ty:ident [range $lo:expr]) => {
        Kind::Int
    };
    (@raw $Ty:ident [values $($vname:literal)+]) => {
        $Ty
    };
    (@raw $Ty:ident [range $lo:expr]) => {
        toml::Spanned<i64>
    };
    (@apply $field:expr, $v:ident, $info:ident, $problem:ident [values $($vname:literal)+]) => {
        $field = $v
    };
    (@apply $field:expr, $v:ident, $info:ident, $problem:ident [range $lo:expr]) => {
        match checked_int(&$info, *$v.get_ref() as i128) {
            Ok(n) => $field = n,
            Err(m) => $problem($v.span(), $info.key, m.0),
        }
    };
    (@value [values $($vname:literal)+] $field:expr) => {
        Value::Name($field.name())
    };
    (@value [range $lo:expr] $field:expr) => {
        Value::Int($field as i128)
    };
    (@choose [values $($vname:literal)+] $field:expr, $v:ident, $Ty:ident, $default:expr) => {
        $field = $Ty::ALL[$v.rem_euclid($Ty::ALL.len() as i128) as usize]
    };
    (@choose [range $lo:expr] $field:expr, $v:ident, $Ty:ident, $default:expr) => {
        $field = $v.try_into().unwrap_or($default)
    };
}

settings! {
    start: StartRule = StartRule::OutermostNonEmpty,
    values {
        /// Only from the mover's outermost row that holds any seed
        /// (canonical).
        OutermostNonEmpty = "outermost-non-empty",
        /// From the mover's innermost row that holds any seed (Katra
        /// Mpantsaka).
        InnermostNonEmpty = "innermost-non-empty",
        /// From any occupied hole of the mover (Katra Boaoaka).
        Any = "any",
    },
    meaning: "rows a move may start from (§3)",
    source: "canonical: Mancala World (de Voogt 1998); Katra Mpantsaka; Katra Boaoaka";

    singletons: Singletons = Singletons::Allowed,
    values {
        /// Always (canonical).
        Allowed = "allowed",
        /// Only when no hole the start rule allows holds two or more seeds.
        LastResort = "last-resort",
        /// Never: a player left with only singletons has no move.
        Forbidden = "forbidden",
    },
    meaning: "whether one-seed holes may start a move (§3)",
    source: "canonical: Mancala World (de Voogt 1998); the other values for study (docs/RULES.md §12)";

    direction: DirectionRule = DirectionRule::Forward,
    values {
        /// Always forward along the circuit (canonical).
        Forward = "forward",
        /// Chosen on every move (Wikipedia, Ludii).
        EachMove = "each-move",
        /// Chosen on the player's first move, kept for the game (Katra
        /// Boaoaka).
        OncePerGame = "once-per-game",
    },
    meaning: "how the sowing direction is chosen (§3)",
    source: "canonical: Mancala World (de Voogt 1998); Wikipedia; Ludii; Katra Boaoaka";

    backward_circuit: BackwardCircuit = BackwardCircuit::Reversed,
    values {
        /// The forward circuit run the other way (canonical reading).
        Reversed = "reversed",
        /// The forward circuit's left-right mirror image, run from the
        /// last column of the outer row (Ludii).
        Mirrored = "mirrored",
    },
    meaning: "which circuit the backward direction follows (§2)",
    source: "canonical reading; Ludii";

    relay: Relay = Relay::Occupied,
    values {
        /// Any occupied hole (canonical).
        Occupied = "occupied",
        /// Only occupied holes of the mover's outer row (Katra, Murray
        /// 1951).
        OuterRow = "outer-row",
        /// Never: every move is a single lap unless it captures.
        Never = "never",
    },
    meaning: "which occupied, non-capturing landings relay (§6)",
    source: "canonical: Mancala World (de Voogt 1998); Murray 1951";

    capture_trigger: CaptureTrigger = CaptureTrigger::Occupied,
    values {
        /// The last seed falls into a hole that already held seeds
        /// (canonical).
        Occupied = "occupied",
        /// The last seed falls into an empty hole (Wikipedia).
        Empty = "empty",
        /// Either (Katra Boaoaka).
        Either = "either",
    },
    meaning: "which landings can capture (§5)",
    source: "canonical: Mancala World (de Voogt 1998); Wikipedia; Katra Boaoaka";

    capturing_row: CapturingRow = CapturingRow::InnermostNonEmpty,
    values {
        /// The mover's innermost row that holds any seed (canonical).
        InnermostNonEmpty = "innermost-non-empty",
        /// Only the mover's inner row (Ludii, Katra Boaoaka).
        Inner = "inner",
    },
    meaning: "which of the mover's rows can capture (§5)",
    source: "canonical: Mancala World (de Voogt 1998); Ludii; Katra Boaoaka";

    victim: VictimRule = VictimRule::InnermostRow,
    values {
        /// The hole in the same column of the opponent's innermost
        /// non-empty row, judged on the whole row (canonical).
        InnermostRow = "innermost-row",
        /// The same column's first occupied hole going outward from the
        /// opponent's inner row, judged per column (Ludii).
        Column = "column",
        /// Every opponent hole of the column (Katra Boaoaka: both holes).
        WholeColumn = "whole-column",
    },
    meaning: "which opponent holes are taken (§5)",
    source: "canonical: Mancala World (de Voogt 1998); Ludii; Katra Boaoaka";

    min_victim_seeds: u16 = 1,
    range(1, u16::MAX), what: "the minimum victim seeds",
    meaning: "fewest victim seeds (in all) for a capture on an occupied landing",
    source: "canonical: 1 (Mancala World / de Voogt 1998)";

    min_victim_seeds_after_empty: u16 = 1,
    range(1, u16::MAX), what: "the minimum victim seeds after an empty landing",
    meaning: "the same on an empty landing, and for a lone seed's step",
    source: "canonical: 1 (Mancala World / de Voogt 1998); Katra Boaoaka: 2 (Linton 1933)";

    empty_landing_refusal: EmptyLandingRefusal = EmptyLandingRefusal::BelowMinimum,
    values {
        /// Only the minimum applies (the victims' seeds counted together).
        BelowMinimum = "below-minimum",
        /// Also refused when every opponent hole of the column holds
        /// exactly one seed (Ludii's Katra Boaoaka).
        AllOnes = "all-ones",
    },
    meaning: "which captures after an empty landing are also refused (§5)",
    source: "canonical: below-minimum (Mancala World / de Voogt 1998); all-ones: Katra Boaoaka as Ludii 1.3.13 plays it";

    lone_seed: LoneSeed = LoneSeed::None,
    values {
        /// No extra move (canonical, Wikipedia).
        None = "none",
        /// One row deeper, one column left or right (de Voogt's field
        /// notes).
        Diagonal = "diagonal",
        /// One row deeper, same column (Ludii).
        Straight = "straight",
    },
    meaning: "extra move of a player with one seed (§7)",
    source: "canonical and Wikipedia: none; diagonal: de Voogt's field notes; straight: Ludii";

    lone_seed_step: LoneSeedStep = LoneSeedStep::Always,
    values {
        /// Every step the `lone_seed` shape allows.
        Always = "always",
        /// Not a step into a row that may capture when it would not
        /// capture (Ludii: middle to inner only when the column holds an
        /// opposing seed).
        NoFailedCapture = "no-failed-capture",
    },
    meaning: "which lone-seed steps are offered (§7)",
    source: "always: the step as RULES.md §7 defines it; no-failed-capture: Ludii 1.3.13";

    step_sowing: StepSowing = StepSowing::Forward,
    values {
        /// At once, forward (or in the player's fixed direction).
        Forward = "forward",
        /// In a direction the player chooses, as a second decision of the
        /// turn (Ludii).
        Chosen = "chosen",
    },
    meaning: "direction of the sowing on after a capturing step (§7)",
    source: "forward: RULES.md §12; chosen: Ludii 1.3.13";

    game_end: GameEnd = GameEnd::OpponentEmpty,
    values {
        /// The moment a capture leaves the opponent without a seed, the
        /// move and the game end and the mover wins (canonical, Ludii's
        /// Katro).
        OpponentEmpty = "opponent-empty",
        /// The move is played out; the game ends when the player to move
        /// has no legal move (Ludii's Katra Boaoaka).
        PlayOut = "play-out",
    },
    meaning: "whether a capture taking the opponent's last seed ends the game at once (§9)",
    source: "opponent-empty: canonical (Mancala World / de Voogt 1998), Ludii 1.3.13's Katro; play-out: Ludii 1.3.13's Katra Boaoaka";

    endless_move: EndlessMove = EndlessMove::Undecided,
    values {
        /// The game ends undecided, status `endless-move`.
        Undecided = "undecided",
        /// The mover loses.
        MoverLoses = "mover-loses",
    },
    meaning: "what an endless move means (§8)",
    source: "the sources are silent: the engine's choice (docs/RULES.md §8)";

    ply_limit: u32 = DEFAULT_PLY_LIMIT,
    range(MIN_PLY_LIMIT, MAX_PLY_LIMIT), what: "the ply limit",
    meaning: "plies after which the game ends undecided (§9)",
    source: "a game that never ends must end (RULES.md §9)";

    lap_limit: u64 = DEFAULT_LAP_LIMIT,
    range(1, MAX_LAP_LIMIT), what: "the lap limit",
    meaning: "laps after which a move is stopped (§8)",
    source: "the engine's backstop (docs/RULES.md §8): endless moves are detected exactly";
}

/// A map's entries in the order read.
struct Ordered(Vec<(String, serde_json::Value)>);
impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the settings as a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// One `(name, value)` pair per setting of a variant, in the order of
/// [`Settings`]'s fields, for the tidy columns of summary.csv and
/// games.csv. The settings are enumerated by serialising them, so a new
/// setting gets its column without this code changing. A value is written
/// as in a variant file; an absent one (`seeds` of a layout board) is
/// empty; a layout is written as in the rules string, rows separated by
/// `/`, holes by `.`.
pub fn setting_fields(settings: &Settings) -> Vec<(String, String)> {
    // The struct serialises its fields in declaration order; reading the
    // JSON back entry by entry keeps that order.
    let json = serde_json::to_string(settings).expect("the settings serialise");
    let Ordered(entries) = serde_json::from_str(&json).expect("the settings serialise as a map");
    entries
        .into_iter()
        .map(|(k, v)| {
            let value = value_text(&v);
            (k, value)
        })
        .collect()
}

/// A setting's value as the CSV files and sweep names write it: as in a
/// variant file, empty when absent, a layout as in the rules string.
pub fn value_text(v: &serde_json::Value) -> String {
    fn text(v: &serde_json::Value, sep: &[&str]) -> String {
        use serde_json::Value;
        match v {
            Value::Null => String::new(),
            Value::String(s) => s.clone(),
            Value::Array(items) => items
                .iter()
                .map(|i| text(i, sep.get(1..).unwrap_or(&[])))
                .collect::<Vec<_>>()
                .join(sep.first().copied().unwrap_or(".")),
            other => other.to_string(),
        }
    }
    text(v, &["/", "."])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `1234567` as docs/RULES.md writes it: `1,234,567`.
    fn thousands(v: i128) -> String {
        let digits = v.unsigned_abs().to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        if v < 0 { format!("-{out}") } else { out }
    }

    /// The table row docs/RULES.md §10 must have for a setting: key,
    /// meaning, allowed values, default.
    fn doc_row(info: &SettingInfo) -> [String; 4] {
        let (allowed, default) = match (info.allowed, info.default) {
            (Allowed::Board { allowed, default }, _) => (allowed.to_string(), default.to_string()),
            (Allowed::Values(names), Some(Value::Name(d))) => (
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                format!("`{d}`"),
            ),
            (Allowed::Range { lo, hi, .. }, Some(Value::Int(d))) => (
                format!("{} to {}", thousands(lo), thousands(hi)),
                thousands(d),
            ),
            other => panic!(
                "{}: a default that does not match its kind: {other:?}",
                info.key
            ),
        };
        [
            format!("`{}`", info.key),
            info.meaning.to_string(),
            allowed,
            default,
        ]
    }

    /// docs/RULES.md §10's settings table lists exactly the declared
    /// settings, in order, with their meanings, allowed values and
    /// defaults: the table cannot drift from what the parser accepts.
    #[test]
    fn rules_md_lists_exactly_the_declared_settings() {
        let doc = include_str!("../../../../docs/RULES.md");
        let start = doc.find("## 10. Settings").expect("RULES.md has §10");
        let end = start + doc[start..].find("\n## 11.").expect("RULES.md has §11");
        let rows: Vec<Vec<String>> = doc[start..end]
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| {
                l.trim()
                    .trim_matches('|')
                    .split(" | ")
                    .map(|c| c.trim().to_string())
                    .collect()
            })
            .collect();
        let declared: Vec<Vec<String>> = SETTINGS.iter().map(|i| doc_row(i).to_vec()).collect();
        assert_eq!(rows.len(), declared.len(), "rows of the table: {rows:?}");
        for (doc_row, declared) in rows.iter().zip(&declared) {
            assert_eq!(doc_row, declared);
        }
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(1), "1");
        assert_eq!(thousands(5_000), "5,000");
        assert_eq!(thousands(65_535), "65,535");
        assert_eq!(thousands(1_000_000_000), "1,000,000,000");
    }

    /// The variant parser's fuzz dictionary holds every declared key and
    /// every named value, so the fuzzer can write each one.
    #[test]
    fn fuzz_dictionary_has_every_setting() {
        let dict = include_str!("../../../../fuzz/variant.dict");
        for info in SETTINGS {
            let key = format!("\"{} = \"", info.name());
            assert!(dict.contains(&key), "fuzz/variant.dict lacks {key}");
            if let Allowed::Values(names) = info.allowed {
                for n in names {
                    let v = format!("\"\\x22{n}\\x22\"");
                    let plain = format!("\"\\\"{n}\\\"\"");
                    assert!(
                        dict.contains(&v) || dict.contains(&plain),
                        "fuzz/variant.dict lacks {n}"
                    );
                }
            }
        }
    }

    /// Rules settings the checks refuse, each reported under its key with
    /// its range; a value no field could hold is reported as written.
    #[test]
    fn out_of_range_integers_are_reported_by_key() {
        let mut s = Settings::canonical();
        s.ply_limit = 0;
        s.lap_limit = u64::MAX;
        s.min_victim_seeds = 0;
        let keys: Vec<_> = settings_problems(&s).iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "rules.min_victim_seeds",
                "rules.ply_limit",
                "rules.lap_limit"
            ]
        );
        assert_eq!(
            settings_problems(&s)[2].message,
            format!(
                "{} is out of range: the lap limit must be from 1 to 1000000000",
                u64::MAX
            )
        );
    }

    /// The canonical string is made from the declaration in
    /// declaration order, as it was written out by hand before.
    #[test]
    fn canonical_string_of_the_canonical_rules() {
        assert_eq!(
            Settings::canonical().canonical_string(),
            "katro(rows=6,holes=6,seeds=2,start=outermost-non-empty,singletons=allowed,\
             direction=forward,backward_circuit=reversed,relay=occupied,capture_trigger=occupied,\
             capturing_row=innermost-non-empty,victim=innermost-row,min_victim_seeds=1,\
             min_victim_seeds_after_empty=1,empty_landing_refusal=below-minimum,lone_seed=none,\
             lone_seed_step=always,step_sowing=forward,game_end=opponent-empty,\
             endless_move=undecided,ply_limit=5000,lap_limit=10000000)"
        );
        let text = Settings::canonical().canonical_string();
        let (game, ply, lap) = split_limits(&text).unwrap();
        assert_eq!((ply, lap), (5000, 10_000_000));
        assert_eq!(format!("{game},ply_limit=5000,lap_limit=10000000)"), text);
        assert_eq!(split_limits("katro(rows=4)"), None);
    }
}
