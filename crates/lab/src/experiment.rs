//! Experiment files: which variants, which pairings of agents, how many
//! games, which seed. `docs/EXPERIMENTS.md` documents every key.
//!
//! Like variant files, an experiment is validated whole before anything is
//! played: every problem is reported with the file, line and key, and what
//! is allowed there.

pub mod balance;
pub mod estimand;
pub mod exact;
pub mod interval;
// The experiment parser's invariants, for the tests and the fuzzers.
#[cfg(any(test, feature = "checks"))]
pub mod invariants;
pub mod judge;
pub mod metric_estimates;
pub mod metrics;
pub mod plan;
pub mod ratings;
pub mod runner;
pub mod state;
pub mod stats;
pub mod sweep;
pub mod verdict;

use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use crate::agents::{AgentError, AgentSpec};
use crate::experiment::metrics::plan::MetricsPlan;
use crate::experiment::plan::{Cell, Rows, Stop, matchup_label};
pub use crate::experiment::plan::{Compare, fingerprint};
use crate::experiment::sweep::{RawSweep, Skipped, expand};
use crate::rules::schema::{self, Field, Kind};
use crate::rules::suggest::did_you_mean;
use crate::rules::{
    InputError, LoadError, MAX_LAP_LIMIT, MAX_PLY_LIMIT, MIN_PLY_LIMIT, Problems, Rules,
    preset_names, ranged,
};

/// A validated experiment.
#[derive(Clone, Debug)]
pub struct Experiment {
    pub name: String,
    pub seed: u64,
    /// When a cell stops, before the variants' and matchups' caps.
    pub stop: Stop,
    pub variants: Vec<VariantPlan>,
    pub matchups: Vec<Matchup>,
    pub per_game_rows: bool,
    pub moves_in_rows: bool,
    /// The output folder as written in the file, if it names one.
    pub output: Option<String>,
    /// What comparison.csv compares: `baseline` or `compare`.
    pub compare: Compare,
    /// Sweep combinations left out under `skip_invalid = true`, with why.
    pub skipped: Vec<Skipped>,
    /// The `[tournament]`, whose pairings are among `matchups`.
    pub tournament: Option<Tournament>,
    /// The matchups with `openings = "exact"`: not played as games, but
    /// followed over every opening ([`exact::exact_share`]) into
    /// exact-openings.csv. Not among `matchups`, so no cell of theirs is
    /// in the plan, and an experiment without them is planned, seeded and
    /// fingerprinted as before.
    pub exact: Vec<exact::ExactMatchup>,
    /// The `balance_margin` every cell's share is judged against
    /// (summary.csv's TOST columns), if the file declares one.
    pub balance_margin: Option<f64>,
}

/// Every pair of `agents` meets on every variant in both seats, each game
/// opened with `opening_plies` random plies; ratings.csv rates them
/// (docs/EXPERIMENTS.md, Tournaments). Its pairings are ordinary matchups
/// of the experiment, after the file's own `[[matchups]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// In the file's order: the skill trace compares each with the one
    /// before it, so a ladder is listed weakest first.
    pub agents: Vec<AgentSpec>,
    /// The agent rated 0 (`random` unless `anchor` names another).
    pub anchor: usize,
    pub opening_plies: u32,
}

impl Tournament {
    /// The index of a cell's agents in `agents` when the cell is one of the
    /// tournament's pairings, as (player 1's, player 2's).
    pub fn pairing(
        &self,
        p1: &AgentSpec,
        p2: &AgentSpec,
        opening_plies: u32,
    ) -> Option<(usize, usize)> {
        if opening_plies != self.opening_plies {
            return None;
        }
        let i = self.agents.iter().position(|a| a == p1)?;
        let j = self.agents.iter().position(|a| a == p2)?;
        (i != j).then_some((i, j))
    }
}

/// A variant with the experiment's limit overrides applied.
#[derive(Clone, Debug)]
pub struct VariantPlan {
    pub rules: Rules,
    /// At most this many games (or `max_games`) in the variant's cells.
    pub cap: Option<u64>,
}

/// The agents in the two seats.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    pub p1: AgentSpec,
    pub p2: AgentSpec,
    /// At most this many games (or `max_games`) in the matchup's cells.
    pub cap: Option<u64>,
    /// Random plies opening each game: the matchup's `opening_plies`, else
    /// the experiment's, else 0.
    pub opening_plies: u32,
    /// The matchup's `metrics`, else the experiment's.
    pub metrics: Option<MetricsPlan>,
    /// The names of the variants the matchup is played on (its
    /// `variants`), or `None`: every variant of the experiment.
    pub variants: Option<Vec<String>>,
}

impl Matchup {
    pub fn label(&self) -> String {
        matchup_label(&self.p1, &self.p2, self.opening_plies)
    }

    /// Whether the matchup has a cell in the variant named `name`.
    pub fn plays(&self, name: &str) -> bool {
        self.variants
            .as_ref()
            .is_none_or(|list| list.iter().any(|v| v == name))
    }
}

/// The most random opening plies a matchup may ask for. Far more than any
/// useful opening (a few plies spread deterministic agents' games); a
/// longer one is a random game, which the `random` agent plays.
pub const MAX_OPENING_PLIES: i64 = 1000;

/// The values `opening_plies` may take: one definition for experiment
/// files and `katro simulate --opening-plies`.
pub const OPENING_PLIES_RANGE: LimitRange = LimitRange {
    lo: 0,
    hi: MAX_OPENING_PLIES as u64,
    what: "the number of random opening plies",
};

/// Why an opening of `n` random plies is refused under `rules`: one as
/// long as the ply limit leaves the agents nothing to play, so the cell
/// would measure random play under the agents' names. `None` when the
/// agents get to move.
pub fn opening_reaches_limit(n: u32, rules: &Rules) -> Option<String> {
    use crate::engine::notation::plural;
    let limit = rules.settings().ply_limit;
    (n >= limit).then(|| {
        format!(
            "{} reach variant `{}`'s ply limit ({limit}): the agents would never move; give \
             fewer than {}",
            plural(n, "random opening ply", "random opening plies"),
            rules.name(),
            plural(limit, "ply", "plies")
        )
    })
}

impl Experiment {
    /// Every cell, variant by variant, each variant's matchups in file order.
    pub fn cells(&self) -> Vec<Cell<'_>> {
        self.variants
            .iter()
            .flat_map(|v| {
                (self.matchups.iter().filter(|m| m.plays(v.rules.name()))).map(move |m| Cell {
                    rules: &v.rules,
                    p1: &m.p1,
                    p2: &m.p2,
                    opening_plies: m.opening_plies,
                    stop: self.stop_for(v, m),
                    metrics: m.metrics.as_ref(),
                    balance_margin: self.balance_margin,
                })
            })
            .collect()
    }

    /// The experiment's stop with the smallest cap that applies.
    pub fn stop_for(&self, v: &VariantPlan, m: &Matchup) -> Stop {
        let cap = match (v.cap, m.cap) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => return self.stop,
        };
        match self.stop {
            Stop::Games(n) => Stop::Games(n.min(cap)),
            Stop::Precision {
                width,
                max_games,
                checkpoint,
            } => {
                let max_games = max_games.min(cap);
                Stop::Precision {
                    width,
                    max_games,
                    checkpoint: checkpoint.min(max_games),
                }
            }
        }
    }

    /// The run's fingerprint ([`fingerprint`]), which also
    /// covers what comparison.csv compares when that is not the default,
    /// so the fingerprints of experiments without `baseline` or `compare`
    /// are unchanged.
    pub fn fingerprint(&self) -> String {
        let cells = self.cells();
        let base = fingerprint(&self.name, self.seed, self.rows(), &cells);
        let base = match &self.compare {
            Compare::Baseline(None) => base,
            other => format!(
                "{:016x}",
                crate::rng::name_hash(&format!("{base}\ncompare={other:?}"))
            ),
        };
        let plans: Vec<_> = cells.iter().map(|c| c.metrics).collect();
        let base = metrics::plan::fingerprint(base, &plans);
        // summary.csv depends on the margin, the games do not: folded in
        // only when declared, so every other fingerprint is as before, and
        // a margin changed on a finished run rewrites its files from
        // run-state.json without playing a game.
        let base = match self.balance_margin {
            None => base,
            Some(m) => format!(
                "{:016x}",
                crate::rng::name_hash(&format!("{base}\nbalance_margin={m}"))
            ),
        };
        if self.exact.is_empty() {
            return base;
        }
        let exact: Vec<String> = self
            .exact_cells()
            .iter()
            .map(|(v, m)| format!("{}|{}", v.canonical_string(), m.matchup.label()))
            .collect();
        format!(
            "{:016x}",
            crate::rng::name_hash(&format!("{base}\nexact={}", exact.join("\n")))
        )
    }

    /// The cells of the `openings = "exact"` matchups, variant by variant,
    /// each variant's matchups in file order (exact-openings.csv's rows).
    pub fn exact_cells(&self) -> Vec<(&Rules, &exact::ExactMatchup)> {
        self.variants
            .iter()
            .flat_map(|v| {
                let playing = self
                    .exact
                    .iter()
                    .filter(|m| m.matchup.plays(v.rules.name()));
                playing.map(move |m| (&v.rules, m))
            })
            .collect()
    }

    pub fn rows(&self) -> Rows {
        match (self.per_game_rows, self.moves_in_rows) {
            (false, _) => Rows::None,
            (true, false) => Rows::Games,
            (true, true) => Rows::GamesWithMoves,
        }
    }
}

// ---------------------------------------------------------------------------
// The file schema

type Sp<T> = toml::Spanned<T>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiment {
    name: Sp<String>,
    seed: Sp<i64>,
    variants: Option<Sp<Vec<Sp<RawVariantRef>>>>,
    sweep: Option<Sp<Vec<Sp<RawSweep>>>>,
    matchups: Option<Sp<Vec<Sp<RawMatchup>>>>,
    tournament: Option<Sp<RawTournament>>,
    games: Option<Sp<i64>>,
    precision: Option<Sp<RawPrecision>>,
    #[serde(default)]
    per_game_rows: bool,
    moves_in_rows: Option<Sp<bool>>,
    ply_limit: Option<Sp<i64>>,
    lap_limit: Option<Sp<i64>>,
    opening_plies: Option<Sp<i64>>,
    output: Option<Sp<String>>,
    baseline: Option<Sp<String>>,
    compare: Option<Sp<String>>,
    metrics: Option<Sp<Vec<Sp<String>>>>,
    metrics_eval: Option<Sp<String>>,
    openings: Option<Sp<String>>,
    balance_margin: Option<Sp<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPrecision {
    width: Sp<f64>,
    max_games: Sp<i64>,
    checkpoint: Sp<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatchup {
    // Options though required: the first pass reports a missing agent,
    // and the typed pass goes on to check the rest of the file.
    p1: Option<Sp<toml::Value>>,
    p2: Option<Sp<toml::Value>>,
    games: Option<Sp<i64>>,
    max_games: Option<Sp<i64>>,
    opening_plies: Option<Sp<i64>>,
    metrics: Option<Sp<Vec<Sp<String>>>>,
    variants: Option<Sp<Vec<Sp<String>>>>,
    openings: Option<Sp<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTournament {
    agents: Sp<Vec<Sp<toml::Value>>>,
    games: Option<Sp<i64>>,
    max_games: Option<Sp<i64>>,
    opening_plies: Option<Sp<i64>>,
    anchor: Option<Sp<toml::Value>>,
}

/// `"katro-6x6"`, or `{ variant = "katro-wikipedia", games = 500 }`.
struct RawVariantRef(RawVariantEntry);

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariantEntry {
    variant: Sp<String>,
    games: Option<Sp<i64>>,
    max_games: Option<Sp<i64>>,
    ply_limit: Option<Sp<i64>>,
    lap_limit: Option<Sp<i64>>,
}

impl<'de> Deserialize<'de> for RawVariantRef {
    // By hand rather than `untagged`, so a mistake inside a table is
    // reported by the TOML reader at its own key and line.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawVariantRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a preset name, a path to a variant file, or a table like \
                     { variant = \"katro-6x6\", games = 1000 }",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawVariantRef, E> {
                Ok(RawVariantRef(RawVariantEntry {
                    variant: Sp::new(0..0, v.to_string()),
                    games: None,
                    max_games: None,
                    ply_limit: None,
                    lap_limit: None,
                }))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawVariantRef, A::Error> {
                RawVariantEntry::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(RawVariantRef)
            }
        }
        d.deserialize_any(V)
    }
}

const EXPERIMENT_HINT: &str = "see docs/EXPERIMENTS.md for every key";

static EXPERIMENT_FIELDS: &[Field] = &[
    Field::req("name", Kind::Str),
    Field::req("seed", Kind::Int),
    // `variants`, `[[sweep]]` or both: the typed pass reports neither.
    Field::opt_kept(
        "variants",
        Kind::List(&Kind::StrOrTable(VARIANT_ENTRY_FIELDS)),
    ),
    // A sweep's keys are settings, checked against the settings by the
    // typed pass (`katro::experiment::sweep`).
    Field::opt_kept("sweep", Kind::List(&Kind::StrOrAnyTable)),
    // `matchups`, `[tournament]` or both: the typed pass asks for one.
    Field::opt_kept("matchups", Kind::List(&Kind::Table(MATCHUP_FIELDS))),
    Field::opt_kept("tournament", Kind::Table(TOURNAMENT_FIELDS)),
    // Without `games` or `[precision]` the typed pass reports a missing
    // stopping rule, and `moves_in_rows` needs `per_game_rows`.
    Field::opt_kept("games", Kind::Int),
    Field::opt_kept("precision", Kind::Table(PRECISION_FIELDS)),
    Field::opt_kept("per_game_rows", Kind::Bool),
    Field::opt("moves_in_rows", Kind::Bool),
    Field::opt("ply_limit", Kind::Int),
    Field::opt("lap_limit", Kind::Int),
    Field::opt("opening_plies", Kind::Int),
    Field::opt("output", Kind::Str),
    Field::opt("baseline", Kind::Str),
    Field::opt("compare", Kind::Str),
    Field::opt("metrics", Kind::List(&Kind::Str)),
    Field::opt("metrics_eval", Kind::Str),
    Field::opt("openings", Kind::Str),
    Field::opt("balance_margin", Kind::Number),
];

static VARIANT_ENTRY_FIELDS: &[Field] = &[
    Field::req("variant", Kind::Str),
    Field::opt("games", Kind::Int),
    Field::opt("max_games", Kind::Int),
    Field::opt("ply_limit", Kind::Int),
    Field::opt("lap_limit", Kind::Int),
];

static MATCHUP_FIELDS: &[Field] = &[
    // A matchup without an agent is skipped by the typed pass, which
    // still checks everything else: one missing `p2` must not hide the
    // file's other problems.
    Field::req_soft("p1", Kind::StrOrAnyTable),
    Field::req_soft("p2", Kind::StrOrAnyTable),
    Field::opt("games", Kind::Int),
    Field::opt("max_games", Kind::Int),
    Field::opt("opening_plies", Kind::Int),
    Field::opt("metrics", Kind::List(&Kind::Str)),
    Field::opt("variants", Kind::List(&Kind::Str)),
    Field::opt("openings", Kind::Str),
];

static TOURNAMENT_FIELDS: &[Field] = &[
    Field::req("agents", Kind::List(&Kind::StrOrAnyTable)),
    Field::opt("games", Kind::Int),
    Field::opt("max_games", Kind::Int),
    Field::opt_kept("opening_plies", Kind::Int),
    Field::opt_kept("anchor", Kind::StrOrAnyTable),
];

static PRECISION_FIELDS: &[Field] = &[
    Field::req("width", Kind::Number),
    Field::req("max_games", Kind::Int),
    Field::req("checkpoint", Kind::Int),
];

pub const MAX_GAMES: i64 = 1_000_000_000_000;

/// Reads a variant file named by an experiment: given the path as written,
/// returns the name to report it by and its text.
pub type ReadVariant<'a> = crate::rules::ReadFile<'a>;

fn count(p: &mut Problems, v: &Sp<i64>, key: &str, what: &str) -> Option<u64> {
    ranged(p, v, key, 1, MAX_GAMES, what).map(|n| n as u64)
}

/// A variant's or matchup's cap on the games of its cells: `Some(None)`
/// when it gives none, `None` after reporting a problem.
fn cap(
    p: &mut Problems,
    stop: &Option<Stop>,
    key: &str,
    games: &Option<Sp<i64>>,
    max_games: &Option<Sp<i64>>,
) -> Option<Option<u64>> {
    let stop = stop.as_ref()?;
    let (given, name, base) = match (stop, games, max_games) {
        (_, None, None) => return Some(None),
        (Stop::Games(_), Some(g), None) => (g, "games", "games"),
        (Stop::Precision { .. }, None, Some(m)) => (m, "max_games", "precision.max_games"),
        (Stop::Games(_), _, Some(m)) => {
            p.add(
                Some(m.span()),
                &format!("{key}.max_games"),
                "`max_games` caps a `[precision]` run; this experiment plays a fixed number \
                 of games: give `games` here",
            );
            return None;
        }
        (Stop::Precision { .. }, Some(g), _) => {
            p.add(
                Some(g.span()),
                &format!("{key}.games"),
                "this experiment stops by `[precision]`: give `max_games` here",
            );
            return None;
        }
    };
    let key = format!("{key}.{name}");
    let n = count(p, given, &key, "games per cell")?;
    if n > stop.max_games() {
        p.add(
            Some(given.span()),
            &key,
            format!(
                "{n} is more than the experiment's `{base}` ({}): an override can only lower \
                 the count; raise `{base}` and lower the others instead",
                stop.max_games()
            ),
        );
        return None;
    }
    Some(Some(n))
}

/// The values an override of a variant's limit may take: one definition
/// for experiment files and `katro replay --ply-limit/--lap-limit`, so a
/// games.csv row replays under exactly the limits it was played with.
pub struct LimitRange {
    pub lo: u64,
    pub hi: u64,
    pub what: &'static str,
}

pub const PLY_LIMIT_RANGE: LimitRange = LimitRange {
    lo: MIN_PLY_LIMIT,
    hi: MAX_PLY_LIMIT,
    what: "the ply limit",
};

pub const LAP_LIMIT_RANGE: LimitRange = LimitRange {
    lo: 1,
    hi: MAX_LAP_LIMIT,
    what: "the lap limit",
};

/// A limit outside its [`LimitRange`], in the words an experiment file's
/// problem uses (callers put the key or flag in front).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{value} is out of range: {what} must be from {lo} to {hi}")]
pub struct OutOfRange {
    pub value: i64,
    pub what: &'static str,
    pub lo: u64,
    pub hi: u64,
}

impl LimitRange {
    /// `v` if in range.
    pub fn check(&self, v: i64) -> Result<u64, OutOfRange> {
        if v < self.lo as i64 || v > self.hi as i64 {
            Err(OutOfRange {
                value: v,
                what: self.what,
                lo: self.lo,
                hi: self.hi,
            })
        } else {
            Ok(v as u64)
        }
    }
}

fn limit(p: &mut Problems, v: &Sp<i64>, key: &str, range: &LimitRange) -> Option<u64> {
    range
        .check(*v.get_ref())
        .map_err(|e| p.add(Some(v.span()), key, e.to_string()))
        .ok()
}

pub use crate::rules::looks_like_path;

fn is_folder_safe(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Parses and validates an experiment file's text. `file` names it in
/// errors; `read_variant` reads the variant files it names by path.
pub fn parse_experiment(
    file: &str,
    text: &str,
    read_variant: &mut ReadVariant,
) -> Result<Experiment, InputError> {
    let (raw, first): (RawExperiment, _) =
        schema::read(file, text, EXPERIMENT_FIELDS, EXPERIMENT_HINT)?;
    let mut p = Problems::new(text);
    p.list = first;
    // Each step reports its problems as it checks; `in_file_order` sorts
    // them, so the steps' order only decides ties at one place.
    let (name, seed) = name_and_seed(&mut p, &raw);
    // How many games each cell plays, before per-variant overrides.
    let stop = stop_rule(&mut p, &raw);
    let limits = Limits::read(&mut p, &raw);
    let variants = VariantReader {
        stop: &stop,
        limits,
        read_variant,
        read: Variants::default(),
    }
    .read_all(&mut p, &raw);
    let (matchups, tournament, exact) = matchups(&mut p, &raw, &stop, &variants.plans);
    let (moves_in_rows, output) = rows_and_output(&mut p, &raw);
    let compare = comparison_plan(&mut p, &raw, &variants, variants.complete);
    let balance_margin = balance_margin(&mut p, &raw, &variants.plans);
    in_file_order(file, p)?;
    Ok(Experiment {
        name,
        seed: seed as u64,
        stop: stop.expect("no problem means the stop rule is valid"),
        variants: variants.plans,
        matchups,
        per_game_rows: raw.per_game_rows,
        moves_in_rows,
        output,
        compare,
        skipped: variants.skipped,
        tournament,
        exact,
        balance_margin,
    })
}

/// The problems found, in file order whatever order the checks ran in.
fn in_file_order(file: &str, mut p: Problems) -> Result<(), InputError> {
    if p.list.is_empty() {
        return Ok(());
    }
    p.list.sort_by_key(|q| (q.line, q.column));
    Err(InputError {
        file: file.to_string(),
        problems: p.list,
    })
}

/// The experiment's own `ply_limit` and `lap_limit`, which replace every
/// variant's unless a `variants` entry gives its own.
#[derive(Clone, Copy)]
struct Limits {
    ply: Option<u64>,
    lap: Option<u64>,
}

impl Limits {
    fn read(p: &mut Problems, raw: &RawExperiment) -> Limits {
        let ply = raw
            .ply_limit
            .as_ref()
            .and_then(|v| limit(p, v, "ply_limit", &PLY_LIMIT_RANGE));
        let lap = raw
            .lap_limit
            .as_ref()
            .and_then(|v| limit(p, v, "lap_limit", &LAP_LIMIT_RANGE));
        Limits { ply, lap }
    }

    /// The settings a sweep may then not vary.
    fn overridden(self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.ply.is_some() {
            out.push("ply_limit");
        }
        if self.lap.is_some() {
            out.push("lap_limit");
        }
        out
    }
}

/// The variants an experiment plays, as far as they could be read.
struct Variants {
    plans: Vec<VariantPlan>,
    /// Whether every entry of `variants` and every sweep gave its
    /// variants: a baseline is checked against them only then.
    complete: bool,
    skipped: Vec<Skipped>,
    /// Each sweep's base variant, in file order: a sweep's comparison
    /// baseline by default.
    sweep_bases: Vec<Rules>,
}

impl Default for Variants {
    fn default() -> Self {
        Variants {
            plans: Vec::new(),
            complete: true,
            sweep_bases: Vec::new(),
            skipped: Vec::new(),
        }
    }
}

/// One source of variants: a `variants` entry, or a sweep with its base.
struct Entry<'a> {
    /// `variants[0]` or `sweep[0]`.
    key: String,
    /// The entry, or the sweep table.
    span: Range<usize>,
    variant: RawVariantEntry,
    sweep: Option<&'a Sp<RawSweep>>,
}

/// Reads the variants of the `variants` list and the `[[sweep]]` tables.
struct VariantReader<'s, 'r, 'f> {
    stop: &'s Option<Stop>,
    limits: Limits,
    read_variant: &'r mut ReadVariant<'f>,
    read: Variants,
}

impl VariantReader<'_, '_, '_> {
    fn read_all(mut self, p: &mut Problems, raw: &RawExperiment) -> Variants {
        no_variants_problem(p, raw);
        let entries = self.entries(p, raw);
        let overridden = self.limits.overridden();
        for entry in entries {
            self.entry(p, &entry, &overridden);
        }
        self.read
    }

    /// Explicit variants first, then each sweep's base, in file order.
    fn entries<'a>(&mut self, p: &mut Problems, raw: &'a RawExperiment) -> Vec<Entry<'a>> {
        let mut entries: Vec<Entry> = (raw.variants.iter().flat_map(|v| v.get_ref()))
            .enumerate()
            .map(|(i, item)| Entry {
                key: format!("variants[{i}]"),
                span: item.span(),
                variant: item.get_ref().0.clone(),
                sweep: None,
            })
            .collect();
        for (i, t) in raw.sweep.iter().flat_map(|s| s.get_ref()).enumerate() {
            let key = format!("sweep[{i}]");
            match sweep_base(p, &key, t) {
                Some(variant) => entries.push(Entry {
                    key,
                    span: t.span(),
                    variant,
                    sweep: Some(t),
                }),
                None => self.read.complete = false,
            }
        }
        entries
    }

    /// Reads one entry's variant (a sweep's, expanded) into `self.read`.
    fn entry(&mut self, p: &mut Problems, e: &Entry, overridden: &[&str]) {
        let key = e.key.as_str();
        let (place, base_key) = match e.sweep {
            Some(_) => (e.variant.variant.span(), format!("{key}.base")),
            None => (e.span.clone(), key.to_string()),
        };
        let spec = e.variant.variant.get_ref();
        let Some(rules) = resolve_variant(p, &base_key, place, spec, self.read_variant) else {
            self.read.complete = false;
            return;
        };
        if e.sweep.is_some() {
            self.read.sweep_bases.push(rules.clone());
        }
        let made = match e.sweep {
            None => vec![rules],
            Some(t) => match expand(p, key, e.span.clone(), t.get_ref(), &rules, overridden) {
                Some((made, mut left_out)) => {
                    self.read.skipped.append(&mut left_out);
                    made
                }
                None => {
                    self.read.complete = false;
                    return;
                }
            },
        };
        for rules in made {
            self.plan(p, e, rules);
        }
    }

    /// One variant of an entry with its limits and cap, unless listed
    /// already.
    fn plan(&mut self, p: &mut Problems, e: &Entry, rules: Rules) {
        let key = e.key.as_str();
        let entry = &e.variant;
        let ply = match &entry.ply_limit {
            Some(v) => limit(p, v, &format!("{key}.ply_limit"), &PLY_LIMIT_RANGE),
            None => self.limits.ply,
        };
        let lap = match &entry.lap_limit {
            Some(v) => limit(p, v, &format!("{key}.lap_limit"), &LAP_LIMIT_RANGE),
            None => self.limits.lap,
        };
        let cap = cap(p, self.stop, key, &entry.games, &entry.max_games);
        let rules = match rules.with_limits(ply, lap) {
            Ok(r) => r,
            Err(why) => {
                p.add(Some(e.span.clone()), key, why.to_string());
                return;
            }
        };
        let plans = &mut self.read.plans;
        if plans.iter().any(|v| v.rules.name() == rules.name()) {
            p.add(
                Some(e.span.clone()),
                key,
                format!("variant `{}` is listed twice", rules.name()),
            );
            return;
        }
        // One rule set under two names would play as two cells with two
        // different results and nothing to say they are the same game.
        let rules_text = rules.canonical_string();
        if let Some(first) = plans
            .iter()
            .find(|v| v.rules.canonical_string() == rules_text)
        {
            p.add(
                Some(e.span.clone()),
                key,
                format!(
                    "variant `{}` has the same rules as `{}`, listed before it: an experiment \
                     plays each rule set once, so list it once (drop one, or change a setting)",
                    rules.name(),
                    first.rules.name()
                ),
            );
            return;
        }
        if let Some(cap) = cap {
            plans.push(VariantPlan { rules, cap });
        }
    }
}

/// `variants` empty, or neither `variants` nor a `[[sweep]]`.
fn no_variants_problem(p: &mut Problems, raw: &RawExperiment) {
    let span = match (&raw.variants, &raw.sweep) {
        (Some(v), _) if v.get_ref().is_empty() => Some(v.span()),
        (None, None) => None,
        _ => return,
    };
    p.add(
        span,
        "variants",
        format!(
            "is empty: list at least one preset ({}) or variant file, or give a `[[sweep]]`",
            preset_names().join(", ")
        ),
    );
}

/// A sweep's `base`, as a `variants` entry would give it.
fn sweep_base(p: &mut Problems, key: &str, t: &Sp<RawSweep>) -> Option<RawVariantEntry> {
    let Some(b) = t.get_ref().get("base") else {
        p.add(
            Some(t.span()),
            key,
            "missing `base`: give the variant to sweep from, a preset name or a \
             path to a variant file",
        );
        return None;
    };
    let Some(spec) = b.get_ref().as_str() else {
        p.add(
            Some(b.span()),
            &format!("{key}.base"),
            "give the base variant: a preset name or a path to a variant file",
        );
        return None;
    };
    Some(RawVariantEntry {
        variant: Sp::new(b.span(), spec.to_string()),
        games: None,
        max_games: None,
        ply_limit: None,
        lap_limit: None,
    })
}

/// The file's `[[matchups]]`, then the tournament's pairings; and apart,
/// the `openings = "exact"` matchups.
fn matchups(
    p: &mut Problems,
    raw: &RawExperiment,
    stop: &Option<Stop>,
    variants: &[VariantPlan],
) -> (Vec<Matchup>, Option<Tournament>, Vec<exact::ExactMatchup>) {
    let mut checks = MatchupChecks {
        stop,
        variants,
        default_opening: None,
    };
    // `None` after reporting a problem.
    checks.default_opening = match &raw.opening_plies {
        None => Some(0),
        Some(v) => checks.opening(p, v, "opening_plies"),
    };
    let metrics_top = metrics::plan::top_level(
        p,
        raw.metrics.as_ref(),
        raw.metrics_eval.as_ref(),
        &variants.iter().map(|v| &v.rules).collect::<Vec<_>>(),
        raw.matchups
            .iter()
            .flat_map(|m| m.get_ref())
            .any(|m| m.get_ref().metrics.is_some()),
    );
    no_matchups_problem(p, raw);
    let top_exact = exact::top_level(p, raw.openings.as_ref(), raw.tournament.is_some());
    let (mut matchups, exact_list) = checks.every_listed(p, raw, &metrics_top, top_exact);
    let listed = matchups.len();
    let tournament = (raw.tournament.as_ref()).and_then(|t| checks.tournament(p, t, &mut matchups));
    let exact_ones = exact_list.iter().map(|e| &e.matchup);
    let every: Vec<Matchup> = matchups.iter().chain(exact_ones).cloned().collect();
    unplayed_variants(p, raw, variants, &every);
    exact::none_sampled(p, raw, &matchups, &exact_list);
    for m in &mut matchups[listed..] {
        m.metrics = metrics_top.for_tournament();
    }
    (matchups, tournament, exact_list)
}

/// Whether `new` would be a cell of `list` twice.
///
/// The same pairing may be listed again for other variants (with its own
/// `games`): a cell is a variant and a label, so only a variant both
/// entries play would be one cell twice. A sampled and an exact entry of
/// one pairing are two kinds of number, not one cell twice (they go to
/// two lists).
fn listed_twice(list: &[Matchup], new: &Matchup, variants: &[VariantPlan]) -> bool {
    list.iter().any(|m| {
        m.p1 == new.p1
            && m.p2 == new.p2
            && m.opening_plies == new.opening_plies
            && variants
                .iter()
                .any(|v| m.plays(v.rules.name()) && new.plays(v.rules.name()))
    })
}

/// A variant no matchup plays, every one of them naming other `variants`:
/// it would have no cell, so no row anywhere.
fn unplayed_variants(
    p: &mut Problems,
    raw: &RawExperiment,
    variants: &[VariantPlan],
    matchups: &[Matchup],
) {
    if matchups.is_empty() {
        return;
    }
    for v in variants {
        let name = v.rules.name();
        if !matchups.iter().any(|m| m.plays(name)) {
            p.add(
                raw.matchups.as_ref().map(|m| m.span()),
                "matchups",
                format!(
                    "no matchup plays variant `{name}`: every matchup's `variants` leaves it \
                     out; add it to one, or take it out of the experiment's variants"
                ),
            );
        }
    }
}

/// Neither `[[matchups]]` nor `[tournament]`, or an empty `matchups`.
fn no_matchups_problem(p: &mut Problems, raw: &RawExperiment) {
    match (&raw.matchups, &raw.tournament) {
        (None, None) => p.add(
            None,
            "matchups",
            "is missing: give at least one `[[matchups]]` with `p1` and `p2`, or a \
             `[tournament]` with its `agents`",
        ),
        (Some(m), None) if m.get_ref().is_empty() => p.add(
            Some(m.span()),
            "matchups",
            "is empty: give at least one `[[matchups]]` with `p1` and `p2`",
        ),
        _ => {}
    }
}

/// What a matchup is checked against.
struct MatchupChecks<'a> {
    stop: &'a Option<Stop>,
    variants: &'a [VariantPlan],
    /// The experiment's `opening_plies`; `None` after reporting a problem.
    default_opening: Option<u32>,
}

impl MatchupChecks<'_> {
    /// A number of random opening plies, which must leave the agents
    /// something to play in every variant.
    fn opening(&self, p: &mut Problems, v: &Sp<i64>, key: &str) -> Option<u32> {
        let n = limit(p, v, key, &OPENING_PLIES_RANGE)? as u32;
        self.reaches_limit(p, n, v.span(), key);
        Some(n)
    }

    /// An opening as long as a variant's ply limit leaves the agents
    /// nothing to play: the cell would measure random play under the
    /// agents' names.
    fn reaches_limit(&self, p: &mut Problems, n: u32, span: Range<usize>, key: &str) {
        for v in self.variants {
            if let Some(why) = opening_reaches_limit(n, &v.rules) {
                p.add(Some(span.clone()), key, why);
            }
        }
    }

    /// The `[[matchups]]` entries without a problem: the sampled ones,
    /// and the exact ones each with the key that made it exact.
    fn every_listed(
        &self,
        p: &mut Problems,
        raw: &RawExperiment,
        metrics_top: &metrics::plan::TopLevel,
        top_exact: Option<bool>,
    ) -> (Vec<Matchup>, Vec<exact::ExactMatchup>) {
        let mut matchups: Vec<Matchup> = Vec::new();
        let mut exact_list: Vec<Matchup> = Vec::new();
        let mut exact_keys: Vec<String> = Vec::new();
        for (i, m) in raw.matchups.iter().flat_map(|m| m.get_ref()).enumerate() {
            let m = m.get_ref();
            let Some(new) = self.listed(p, i, m, metrics_top) else {
                continue;
            };
            let Some(exact_key) = exact::of_matchup(p, i, &new, m, top_exact) else {
                continue;
            };
            let (list, new) = match &exact_key {
                Some(_) => {
                    let new = Matchup {
                        metrics: None,
                        cap: None,
                        ..new
                    };
                    (&mut exact_list, new)
                }
                None => (&mut matchups, new),
            };
            if listed_twice(list, &new, self.variants) {
                p.add(
                    m.p1.as_ref().map(|v| v.span()),
                    &format!("matchups[{i}]"),
                    format!("`{}` is listed twice", new.label()),
                );
            } else {
                exact_keys.extend(exact_key);
                list.push(new);
            }
        }
        // Each exact entry with the key that made it exact (pushed together).
        let exact_list = exact_list
            .into_iter()
            .zip(exact_keys)
            .map(|(matchup, key)| exact::ExactMatchup { matchup, key })
            .collect();
        (matchups, exact_list)
    }
    /// `[[matchups]]` entry `i`; `None` after reporting a problem.
    fn listed(
        &self,
        p: &mut Problems,
        i: usize,
        m: &RawMatchup,
        metrics_top: &metrics::plan::TopLevel,
    ) -> Option<Matchup> {
        let seat = |p: &mut Problems, v: &Option<Sp<toml::Value>>, seat: &str| {
            v.as_ref()
                .and_then(|v| agent(p, v, &format!("matchups[{i}].{seat}")))
        };
        let p1 = seat(p, &m.p1, "p1");
        let p2 = seat(p, &m.p2, "p2");
        let key = format!("matchups[{i}]");
        let cap = cap(p, self.stop, &key, &m.games, &m.max_games);
        let opening_plies = match &m.opening_plies {
            None => self.default_opening,
            Some(v) => self.opening(p, v, &format!("{key}.opening_plies")),
        };
        let only = self.only_variants(p, &key, m.variants.as_ref());
        let played: Vec<VariantPlan> = match &only {
            Some(Some(names)) => (self.variants.iter())
                .filter(|v| names.iter().any(|n| n == v.rules.name()))
                .cloned()
                .collect(),
            _ => self.variants.to_vec(),
        };
        for (seat, spec, raw) in [("p1", &p1, &m.p1), ("p2", &p2, &m.p2)] {
            if let Some(a) = spec {
                let span = raw.as_ref().map(|r| r.span());
                plays_every_variant(p, a, &played, span, &format!("{key}.{seat}"));
            }
        }
        let metrics = metrics_top.for_matchup(p, m.metrics.as_ref(), i);
        Some(Matchup {
            p1: p1?,
            p2: p2?,
            cap: cap?,
            opening_plies: opening_plies?,
            metrics,
            variants: only?,
        })
    }

    /// A matchup's `variants`: `Some(None)` when it gives none, `None`
    /// after reporting a problem. Each must name a variant of the
    /// experiment as summary.csv does (a sweep's variants by their made
    /// names), once.
    fn only_variants(
        &self,
        p: &mut Problems,
        key: &str,
        raw: Option<&Sp<Vec<Sp<String>>>>,
    ) -> Option<Option<Vec<String>>> {
        let Some(list) = raw else {
            return Some(None);
        };
        let key = format!("{key}.variants");
        if list.get_ref().is_empty() {
            p.add(
                Some(list.span()),
                &key,
                "is empty: name at least one of the experiment's variants, or leave                  `variants` out to play every variant",
            );
            return None;
        }
        let known: Vec<&str> = self.variants.iter().map(|v| v.rules.name()).collect();
        let mut names: Vec<String> = Vec::new();
        let mut ok = true;
        for (j, v) in list.get_ref().iter().enumerate() {
            let name = v.get_ref();
            let item = format!("{key}[{j}]");
            if names.contains(name) {
                p.add(Some(v.span()), &item, format!("`{name}` is listed twice"));
                ok = false;
            } else if !known.contains(&name.as_str()) {
                p.add(
                    Some(v.span()),
                    &item,
                    format!(
                        "`{name}` is not a variant of this experiment; its variants are {}",
                        known.join(", ")
                    ),
                );
                ok = false;
            }
            names.push(name.clone());
        }
        ok.then_some(Some(names))
    }

    /// Checks `[tournament]` and appends its pairings to `matchups`: for
    /// each pair of agents in file order, the earlier one as player 1,
    /// then as player 2. `None` after reporting a problem.
    fn tournament(
        &self,
        p: &mut Problems,
        raw: &Sp<RawTournament>,
        matchups: &mut Vec<Matchup>,
    ) -> Option<Tournament> {
        let t = raw.get_ref();
        let (agents, ok) = self.tournament_agents(p, t);
        let cap = cap(p, self.stop, "tournament", &t.games, &t.max_games);
        let opening_plies = self.tournament_opening(p, raw);
        let anchor = anchor(p, t, &agents, ok);
        let (true, Some(cap), Some(opening_plies), Some(anchor)) = (ok, cap, opening_plies, anchor)
        else {
            return None;
        };
        for i in 0..agents.len() {
            for j in i + 1..agents.len() {
                for (a, b) in [(i, j), (j, i)] {
                    let new = Matchup {
                        p1: agents[a].clone(),
                        p2: agents[b].clone(),
                        cap,
                        opening_plies,
                        metrics: None,
                        variants: None,
                    };
                    pairing_not_listed(p, raw.span(), matchups, &new)?;
                    matchups.push(new);
                }
            }
        }
        Some(Tournament {
            agents,
            anchor,
            opening_plies,
        })
    }

    /// The tournament's agents, each once, and whether all of them were
    /// read and play every variant.
    fn tournament_agents(&self, p: &mut Problems, t: &RawTournament) -> (Vec<AgentSpec>, bool) {
        let list = t.agents.get_ref();
        let mut agents = Vec::new();
        let mut ok = true;
        for (i, v) in list.iter().enumerate() {
            let key = format!("tournament.agents[{i}]");
            let Some(a) = agent(p, v, &key) else {
                ok = false;
                continue;
            };
            if !plays_every_variant(p, &a, self.variants, Some(v.span()), &key) {
                ok = false;
            }
            if agents.contains(&a) {
                p.add(Some(v.span()), &key, format!("`{a}` is listed twice"));
                ok = false;
            } else {
                agents.push(a);
            }
        }
        if list.len() < 2 {
            p.add(
                Some(t.agents.span()),
                "tournament.agents",
                "a tournament needs at least two agents",
            );
            ok = false;
        }
        (agents, ok)
    }

    /// The tournament's opening, its own or the experiment's, which must
    /// be at least one ply.
    fn tournament_opening(&self, p: &mut Problems, raw: &Sp<RawTournament>) -> Option<u32> {
        let Some(v) = &raw.get_ref().opening_plies else {
            return match self.default_opening {
                Some(0) => {
                    p.add(
                        Some(raw.span()),
                        "tournament.opening_plies",
                        "is missing: a tournament opens every game with random plies, so that \
                         games between the same agents differ; give `opening_plies` (e.g. 4) \
                         here or at the top of the file",
                    );
                    None
                }
                // `None`: the bad top-level value was reported already.
                other => other,
            };
        };
        let n = *v.get_ref();
        if !(1..=MAX_OPENING_PLIES).contains(&n) {
            p.add(
                Some(v.span()),
                "tournament.opening_plies",
                format!(
                    "{n} is out of range: a tournament opens every game with 1 to \
                     {MAX_OPENING_PLIES} random plies, so that its games differ"
                ),
            );
            return None;
        }
        Some(n as u32)
    }
}

/// The index of the agent rated 0: `anchor`, else `random`. Whether it is
/// one of the agents is told only when all of them were read (`ok`).
fn anchor(p: &mut Problems, t: &RawTournament, agents: &[AgentSpec], ok: bool) -> Option<usize> {
    let Some(v) = &t.anchor else {
        let found = agents.iter().position(|a| *a == AgentSpec::Random);
        if found.is_none() && ok {
            p.add(
                Some(t.agents.span()),
                "tournament.agents",
                "ratings put `random` at 0: add \"random\" to the agents, or name \
                 the agent rated 0 with `anchor`",
            );
        }
        return found;
    };
    let a = agent(p, v, "tournament.anchor")?;
    let found = agents.iter().position(|x| *x == a);
    if found.is_none() && ok {
        p.add(
            Some(v.span()),
            "tournament.anchor",
            format!("`{a}` is not one of the tournament's agents"),
        );
    }
    found
}

/// `None`, after reporting it at the tournament, when pairing `new` is
/// also a `[[matchups]]` entry.
fn pairing_not_listed(
    p: &mut Problems,
    span: Range<usize>,
    matchups: &[Matchup],
    new: &Matchup,
) -> Option<()> {
    let listed = matchups
        .iter()
        .any(|m| m.p1 == new.p1 && m.p2 == new.p2 && m.opening_plies == new.opening_plies);
    if !listed {
        return Some(());
    }
    p.add(
        Some(span),
        "tournament",
        format!(
            "`{}` is both a `[[matchups]]` entry and one of the tournament's \
             pairings: leave it out of `[[matchups]]`",
            new.label()
        ),
    );
    None
}

/// `moves_in_rows` (only beside `per_game_rows`) and the `output` folder.
fn rows_and_output(p: &mut Problems, raw: &RawExperiment) -> (bool, Option<String>) {
    let moves_in_rows = raw.moves_in_rows.as_ref().is_some_and(|v| *v.get_ref());
    if let Some(v) = &raw.moves_in_rows
        && *v.get_ref()
        && !raw.per_game_rows
    {
        p.add(
            Some(v.span()),
            "moves_in_rows",
            "moves go into the per-game rows: set `per_game_rows = true` too",
        );
    }
    let output = raw.output.as_ref().map(|o| o.get_ref().clone());
    if let Some(o) = &raw.output
        && o.get_ref().trim().is_empty()
    {
        p.add(
            Some(o.span()),
            "output",
            "is empty: give a folder, or leave the key out for results/<name>/",
        );
    }
    (moves_in_rows, output)
}

/// The experiment's `name` (which names its output folder) and `seed`.
fn name_and_seed(p: &mut Problems, raw: &RawExperiment) -> (String, i64) {
    let name = raw.name.get_ref().clone();
    if !is_folder_safe(&name) {
        p.add(
            Some(raw.name.span()),
            "name",
            format!(
                "{name:?} cannot name an output folder: use letters, digits, '-', '_' and '.', \
                 not starting with '.'"
            ),
        );
    }
    let seed = *raw.seed.get_ref();
    if seed < 0 {
        p.add(
            Some(raw.seed.span()),
            "seed",
            format!(
                "{seed} is negative: the seed must be from 0 to {}",
                i64::MAX
            ),
        );
    }
    (name, seed)
}

/// How many games each cell plays: `games`, or the `[precision]` rule.
fn stop_rule(p: &mut Problems, raw: &RawExperiment) -> Option<Stop> {
    match (&raw.games, &raw.precision) {
        (Some(_), Some(pr)) => {
            p.add(
                Some(pr.span()),
                "precision",
                "give either `games` (games per cell) or `[precision]`, not both",
            );
            None
        }
        (None, None) => {
            p.add(
                None,
                "games",
                "missing: give `games` (games per cell) or a `[precision]` table \
                 with `width`, `max_games` and `checkpoint`",
            );
            None
        }
        (Some(g), None) => count(p, g, "games", "games per cell").map(Stop::Games),
        (None, Some(pr)) => precision_rule(p, pr.get_ref()),
    }
}

/// The `[precision]` rule: an interval width, a cap and a checkpoint no
/// later than the cap.
fn precision_rule(p: &mut Problems, pr: &RawPrecision) -> Option<Stop> {
    let w = *pr.width.get_ref();
    if !(w > 0.0 && w <= 1.0) {
        p.add(
            Some(pr.width.span()),
            "precision.width",
            format!("{w} is out of range: the interval width must be more than 0 and at most 1"),
        );
    }
    let max = count(
        p,
        &pr.max_games,
        "precision.max_games",
        "the most games per cell",
    );
    let every = count(
        p,
        &pr.checkpoint,
        "precision.checkpoint",
        "games between checkpoints",
    );
    match (max, every) {
        (Some(max), Some(every)) if every > max => {
            p.add(
                Some(pr.checkpoint.span()),
                "precision.checkpoint",
                format!("{every} is more than `max_games` ({max}): no checkpoint would be reached before the cap"),
            );
            None
        }
        (Some(max), Some(every)) if w > 0.0 && w <= 1.0 => Some(Stop::Precision {
            width: w,
            max_games: max,
            checkpoint: every,
        }),
        _ => None,
    }
}

/// Reports, at `key`, every variant agent `a` cannot play; true when it
/// plays them all.
fn plays_every_variant(
    p: &mut Problems,
    a: &AgentSpec,
    variants: &[VariantPlan],
    span: Option<Range<usize>>,
    key: &str,
) -> bool {
    let mut all = true;
    for plan in variants {
        if let Err(e) = a.check_variant(&plan.rules) {
            p.add(span.clone(), key, e);
            all = false;
        }
    }
    all
}

/// `baseline` and `compare`: what comparison.csv compares. A baseline
/// must name one of the experiment's variants; that is checked only when
/// every variant was read (`complete`), so a broken variant entry is not
/// reported twice.
///
/// Without either, the baseline is the first variant, except in an
/// experiment of sweeps alone: there it is the point of the first sweep
/// that is its base variant (the same rules but the limits), when the
/// sweep has it, so that each board or reading is compared with the game
/// it varies rather than with the sweep's first corner. Where that point
/// is the first variant anyway, the plan is the default, so the run's
/// fingerprint is unchanged.
fn comparison_plan(
    p: &mut Problems,
    raw: &RawExperiment,
    read: &Variants,
    complete: bool,
) -> Compare {
    let variants = &read.plans[..];
    let all_pairs = match &raw.compare {
        None => false,
        Some(v) => match v.get_ref().as_str() {
            "all-pairs" => true,
            "baseline" => false,
            other => {
                p.add(
                    Some(v.span()),
                    "compare",
                    format!(
                        "{other:?} is not a comparison: give \"baseline\" (every variant \
                         against the baseline, the default) or \"all-pairs\""
                    ),
                );
                false
            }
        },
    };
    let Some(b) = &raw.baseline else {
        return if all_pairs {
            Compare::AllPairs
        } else if raw.variants.as_ref().is_none_or(|v| v.get_ref().is_empty())
            && let Some(base) = read.sweep_bases.first()
            && let Some(i) = variants
                .iter()
                .position(|v| same_but_limits(&v.rules, base))
            && i > 0
        {
            Compare::Baseline(Some(variants[i].rules.name().to_string()))
        } else {
            Compare::default()
        };
    };
    if all_pairs {
        p.add(
            Some(b.span()),
            "baseline",
            "`compare = \"all-pairs\"` compares every pair: leave out `baseline`, or drop \
             `compare`",
        );
    } else if complete && !variants.iter().any(|v| v.rules.name() == *b.get_ref()) {
        let names: Vec<&str> = variants.iter().map(|v| v.rules.name()).collect();
        p.add(
            Some(b.span()),
            "baseline",
            format!(
                "`{}` is not a variant of this experiment{}: give one of {}",
                b.get_ref(),
                did_you_mean(b.get_ref(), names.iter().copied()),
                names.join(", ")
            ),
        );
    }
    Compare::Baseline(Some(b.get_ref().clone()))
}

/// Whether two variants play the same game but for the ply and lap
/// limits (a sweep's points carry the experiment's limits, its base the
/// file's).
fn same_but_limits(a: &Rules, b: &Rules) -> bool {
    let (a, b) = (a.canonical_string(), b.canonical_string());
    let game = |text| crate::rules::split_limits(text).map(|(game, _, _)| game);
    matches!((game(&a), game(&b)), (Some(x), Some(y)) if x == y)
}

/// `balance_margin`: a margin m in (0, ½) around one half, on variants
/// whose games can have a winner (a share of decided games to judge).
/// `None` when not given or after reporting a problem.
fn balance_margin(p: &mut Problems, raw: &RawExperiment, variants: &[VariantPlan]) -> Option<f64> {
    let v = raw.balance_margin.as_ref()?;
    let m = *v.get_ref();
    if !(m > 0.0 && m < 0.5) {
        p.add(
            Some(v.span()),
            "balance_margin",
            format!(
                "{m} is out of range: the margin around one half must be more than 0 and less \
                 than 0.5 (0.02 calls a cell balanced once its share is shown between 0.48 and \
                 0.52)"
            ),
        );
        return None;
    }
    let mut ok = true;
    for plan in variants {
        let rules = &plan.rules;
        if balance::can_be_decided(rules) == Some(false) {
            p.add(
                Some(v.span()),
                "balance_margin",
                format!(
                    "no game of variant `{}` can end with a winner within its ply limit ({}): \
                     its cells have no decided game whose share a margin could judge; raise its \
                     `ply_limit`, or leave out `balance_margin`",
                    rules.name(),
                    crate::engine::notation::plural(rules.settings().ply_limit, "ply", "plies")
                ),
            );
            ok = false;
        }
    }
    ok.then_some(m)
}

fn resolve_variant(
    p: &mut Problems,
    key: &str,
    span: Range<usize>,
    spec: &str,
    read_variant: &mut ReadVariant,
) -> Option<Rules> {
    // A name is a preset or nothing: an experiment names files by path.
    let message = match crate::rules::resolve(spec, &|_| false, read_variant) {
        Ok(rules) => return Some(rules),
        Err(LoadError::Unknown { .. }) => format!(
            "unknown variant `{spec}`{}: give a preset name ({}) or a path to a .toml file, \
             relative to this experiment file",
            did_you_mean(spec, preset_names()),
            preset_names().join(", ")
        ),
        Err(LoadError::Read { why, .. }) => format!("cannot read variant file `{spec}`: {why}"),
        Err(LoadError::Invalid(e)) => format!("the variant file is invalid:\n{e}"),
    };
    p.add(Some(span), key, message);
    None
}

fn agent(p: &mut Problems, v: &Sp<toml::Value>, key: &str) -> Option<AgentSpec> {
    let parsed = match v.get_ref() {
        toml::Value::String(s) => AgentSpec::parse(s),
        toml::Value::Table(t) => AgentSpec::from_table(t.clone()),
        other => Err(AgentError::NotAnAgent {
            got: other.type_str(),
        }),
    }
    .and_then(|a| a.reproducible().map(|()| a));
    match parsed {
        Ok(a) => Some(a),
        Err(e) => {
            p.add(Some(v.span()), key, e);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::name_hash;
    use crate::rules::preset;

    fn no_files(path: &str) -> Result<(String, String), String> {
        Err(format!("no file {path} in this test"))
    }

    fn parse(text: &str) -> Result<Experiment, InputError> {
        parse_experiment("exp.toml", text, &mut no_files)
    }

    const BASE: &str = r#"
name = "t"
seed = 5
variants = ["katro-6x6", { variant = "katro-4x4", games = 7, ply_limit = 300 }]
games = 10
ply_limit = 200

[[matchups]]
p1 = "random"
p2 = { agent = "epsilon-greedy", epsilon = 0.25 }
"#;

    const TOURNAMENT: &str = r#"
name = "t"
seed = 5
variants = ["katro-4x4"]
games = 10
opening_plies = 3
"#;

    /// An experiment written with names is the experiment written with
    /// the strings: the same matchups, tournament and fingerprint (which
    /// the cells' labels, and so the games' seeds, make).
    #[test]
    fn an_experiment_reads_names_as_their_strings() {
        let file = |p1: &str, p2: &str, agents: &str| {
            format!(
                "name = \"t\"\nseed = 5\nvariants = [\"katro-4x4\"]\ngames = 10\n\
                 opening_plies = 4\n\n[[matchups]]\np1 = {p1}\np2 = {p2}\n\n\
                 [tournament]\nagents = {agents}\n"
            )
        };
        let read = |text: &str| {
            let mut no_files =
                |path: &str| -> Result<(String, String), String> { Err(format!("no file {path}")) };
            parse_experiment("e.toml", text, &mut no_files).unwrap()
        };
        let named = read(&file(
            "\"strong\"",
            "{ agent = \"weak\" }",
            "[\"random\", \"greedy\", \"medium\", \"strongest\"]",
        ));
        let written = read(&file(
            "\"alphabeta:depth=12,nodes=1000,eval=fitted\"",
            "{ agent = \"alphabeta\", depth = 2 }",
            "[\"random\", \"greedy\", \"alphabeta:depth=4\", \
             \"alphabeta:depth=12,nodes=20000,eval=fitted\"]",
        ));
        let labels =
            |e: &Experiment| -> Vec<String> { e.matchups.iter().map(|m| m.label()).collect() };
        assert_eq!(labels(&named), labels(&written));
        assert_eq!(
            labels(&named)[0],
            "alphabeta:depth=12,nodes=1000,eval=fitted vs alphabeta:depth=2 +open4"
        );
        assert_eq!(
            named.tournament.as_ref().unwrap().agents,
            written.tournament.as_ref().unwrap().agents
        );
        assert_eq!(named.fingerprint(), written.fingerprint());
        // A level's name and its string label a matchup alike.
        for l in crate::agents::levels::LEVELS {
            let (by_name, by_string) = (
                AgentSpec::parse(l.name).unwrap(),
                AgentSpec::parse(l.agent).unwrap(),
            );
            assert_eq!(
                plan::matchup_label(&by_name, &by_name, 4),
                plan::matchup_label(&by_string, &by_string, 4),
            );
        }
    }

    #[test]
    fn a_tournament_pairs_every_two_agents_in_both_seats() {
        let e = parse(&format!(
            "{TOURNAMENT}\n[[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\n\n\
             [tournament]\nagents = [\"greedy\", \"random\", \"alphabeta:depth=2\"]\n\
             games = 4\n"
        ))
        .unwrap();
        let labels: Vec<String> = e.matchups.iter().map(|m| m.label()).collect();
        assert_eq!(
            labels,
            [
                "greedy vs greedy +open3",
                "greedy vs random +open3",
                "random vs greedy +open3",
                "greedy vs alphabeta:depth=2 +open3",
                "alphabeta:depth=2 vs greedy +open3",
                "random vs alphabeta:depth=2 +open3",
                "alphabeta:depth=2 vs random +open3",
            ]
        );
        assert!(e.matchups[1..].iter().all(|m| m.cap == Some(4)));
        assert_eq!(e.matchups[0].cap, None);
        let t = e.tournament.as_ref().unwrap();
        assert_eq!((t.anchor, t.opening_plies), (1, 3));
        // Self-play is not a pairing; the listed matchup is not rated.
        let (g, r) = (&t.agents[0], &t.agents[1]);
        assert_eq!(t.pairing(g, g, 3), None);
        assert_eq!(t.pairing(r, g, 3), Some((1, 0)));
        assert_eq!(t.pairing(r, g, 0), None);
        // A tournament alone is an experiment.
        let alone = parse(&format!(
            "{TOURNAMENT}\n[tournament]\nagents = [\"random\", \"greedy\"]\nanchor = \"greedy\"\n"
        ))
        .unwrap();
        assert_eq!(alone.matchups.len(), 2);
        assert_eq!(alone.tournament.unwrap().anchor, 1);
    }

    #[test]
    fn bad_tournaments_are_refused_naming_the_key() {
        let cases = [
            (
                "agents = [\"random\"]",
                "`tournament.agents`: a tournament needs at least two",
            ),
            (
                "agents = [\"random\", \"random\"]",
                "`tournament.agents[1]`: `random` is listed twice",
            ),
            (
                "agents = [\"greedy\", \"alphabeta:depth=2\"]",
                "ratings put `random` at 0",
            ),
            (
                "agents = [\"random\", \"greedy\"]\nanchor = \"alphabeta:depth=2\"",
                "`tournament.anchor`: `alphabeta:depth=2` is not one of",
            ),
            (
                "agents = [\"random\", \"wizard\"]",
                "`tournament.agents[1]`",
            ),
            (
                "agents = [\"random\", \"greedy\"]\nopening_plies = 0",
                "`tournament.opening_plies`: 0 is out of range",
            ),
            ("agents = [\"random\", \"greedy\"]\ncolour = 1", "colour"),
        ];
        for (body, want) in cases {
            let msg = problem(&format!("{TOURNAMENT}\n[tournament]\n{body}\n"));
            assert!(msg.contains(want), "{body}: {msg}");
            assert!(msg.starts_with("exp.toml"), "{msg}");
        }
        // Without any opening: the games of deterministic agents would repeat.
        let msg = problem(
            &format!("{TOURNAMENT}\n[tournament]\nagents = [\"random\", \"greedy\"]\n")
                .replace("opening_plies = 3\n", ""),
        );
        assert!(
            msg.contains("`tournament.opening_plies`: is missing"),
            "{msg}"
        );
        // A pairing listed again as a matchup.
        let msg = problem(&format!(
            "{TOURNAMENT}\n[[matchups]]\np1 = \"random\"\np2 = \"greedy\"\n\n\
             [tournament]\nagents = [\"random\", \"greedy\"]\n"
        ));
        assert!(msg.contains("both a `[[matchups]]` entry"), "{msg}");
        // Neither matchups nor a tournament.
        let msg = problem(TOURNAMENT);
        assert!(msg.contains("`matchups`: is missing"), "{msg}");
    }

    #[test]
    fn a_balance_margin_is_checked_and_changes_the_fingerprint_alone() {
        let plain = parse(BASE).unwrap();
        assert_eq!(plain.balance_margin, None);
        let with = parse(&format!("balance_margin = 0.02\n{BASE}")).unwrap();
        assert_eq!(with.balance_margin, Some(0.02));
        assert!(with.cells().iter().all(|c| c.balance_margin == Some(0.02)));
        // The same games, another summary.csv: another run, whose files a
        // finished run of the plain file can be rewritten into.
        assert_ne!(with.fingerprint(), plain.fingerprint());
        let other = parse(&format!("balance_margin = 0.05\n{BASE}")).unwrap();
        assert_ne!(with.fingerprint(), other.fingerprint());
        for bad in ["0", "0.5", "-0.1", "1", "nan"] {
            let msg = problem(&format!("balance_margin = {bad}\n{BASE}"));
            assert!(
                msg.starts_with("exp.toml:1:18: `balance_margin`: ")
                    && msg.contains("is out of range: the margin around one half must be more than 0 and less than 0.5"),
                "{bad}: {msg}"
            );
        }
        let msg = problem(&format!("balance_margin = \"2%\"\n{BASE}"));
        assert!(msg.contains("`balance_margin`: expected a number"), "{msg}");
        // A ply limit too short for any game to be won: nothing to judge.
        let msg = problem(&format!(
            "balance_margin = 0.02\n{}",
            BASE.replace("ply_limit = 300", "ply_limit = 2")
        ));
        assert!(
            msg.starts_with("exp.toml:1:18: `balance_margin`: no game of variant `katro-4x4` can end with a winner within its ply limit (2 plies)")
                && msg.contains("raise its `ply_limit`, or leave out `balance_margin`"),
            "{msg}"
        );
        // Without a margin the same limit is the user's business.
        assert!(parse(&BASE.replace("ply_limit = 300", "ply_limit = 2")).is_ok());
    }

    #[test]
    fn an_opening_changes_the_fingerprint_and_none_keeps_the_old_one() {
        let rules = preset("katro-4x4").unwrap();
        let mut cell = Cell {
            rules: &rules,
            p1: &AgentSpec::Greedy,
            p2: &AgentSpec::Greedy,
            opening_plies: 0,
            stop: Stop::Games(10),
            metrics: None,
            balance_margin: None,
        };
        let none = fingerprint("e", 1, Rows::None, std::slice::from_ref(&cell));
        // The text fingerprinted before opening plies existed.
        let old = format!(
            "katro experiment\nname=e\nseed=1\nrows=None\ncell katro-4x4|{}|greedy|greedy|games=10\n",
            rules.canonical_string()
        );
        assert_eq!(none, format!("{:016x}", name_hash(&old)));
        cell.opening_plies = 4;
        assert_ne!(none, fingerprint("e", 1, Rows::None, &[cell]));
    }

    #[test]
    fn a_good_file_resolves_overrides() {
        let e = parse(BASE).unwrap();
        assert_eq!(e.name, "t");
        assert_eq!(e.seed, 5);
        assert_eq!(e.variants.len(), 2);
        let stops: Vec<Stop> = e.cells().iter().map(|c| c.stop).collect();
        assert_eq!(stops, [Stop::Games(10), Stop::Games(7)]);
        assert_eq!(e.variants[0].rules.settings().ply_limit, 200);
        assert_eq!(e.variants[1].rules.settings().ply_limit, 300);
        assert!(
            e.variants[1]
                .rules
                .canonical_string()
                .contains("ply_limit=300")
        );
        assert_eq!(
            e.matchups[0].label(),
            "random vs epsilon-greedy:epsilon=0.25"
        );
        assert_eq!(e.cells().len(), 2);
        assert_eq!(e.rows(), Rows::None);
    }

    fn problem(text: &str) -> String {
        parse(text).expect_err("the file is invalid").to_string()
    }

    #[test]
    fn bad_values_name_the_file_and_key() {
        let cases = [
            (
                "\"katro-6x6\"",
                "\"katro-7x7\"",
                "`variants[0]`: unknown variant `katro-7x7`",
            ),
            ("p1 = \"random\"", "p1 = \"wizard\"", "`matchups[0].p1`"),
            (
                "p1 = \"random\"",
                "p1 = \"alphabeta:depth=0\"",
                "depth is 0",
            ),
            (
                "epsilon = 0.25",
                "epsilon = -0.5",
                "`matchups[0].p2`: epsilon is -0.5; it must be a number from 0 to 1",
            ),
            ("games = 10", "games = 0", "`games`: 0 is out of range"),
            (
                "ply_limit = 200",
                "ply_limit = 0",
                "`ply_limit`: 0 is out of range",
            ),
            ("games = 7,", "gmes = 7,", "unknown field `gmes`"),
            ("seed = 5", "seed = -5", "`seed`"),
            ("name = \"t\"", "name = \"a/b\"", "`name`"),
        ];
        for (from, to, want) in cases {
            let text = BASE.replacen(from, to, 1);
            assert_ne!(text, BASE, "{from} not in the base file");
            let msg = problem(&text);
            assert!(msg.starts_with("exp.toml:"), "{msg}");
            assert!(msg.contains(want), "{to}: {msg}");
        }
    }

    #[test]
    fn precision_is_checked() {
        let text = BASE.replace("games = 10\n", "")
            + "\n[precision]\nwidth = 0.05\nmax_games = 100\ncheckpoint = 20\n";
        let text = text.replace(", games = 7", "");
        let e = parse(&text).unwrap();
        assert_eq!(
            e.cells()[0].stop,
            Stop::Precision {
                width: 0.05,
                max_games: 100,
                checkpoint: 20
            }
        );
        // A cap below the checkpoint pulls the checkpoint down with it.
        let capped =
            parse(&text.replace("epsilon = 0.25 }", "epsilon = 0.25 }\nmax_games = 15")).unwrap();
        assert_eq!(
            capped.cells()[1].stop,
            Stop::Precision {
                width: 0.05,
                max_games: 15,
                checkpoint: 15
            }
        );
        let msg = problem(&text.replace("width = 0.05", "width = 0.0"));
        assert!(msg.contains("`precision.width`"), "{msg}");
        let msg = problem(&text.replace("checkpoint = 20", "checkpoint = 200"));
        assert!(msg.contains("`precision.checkpoint`"), "{msg}");
        let msg = problem(&format!("games = 5\n{text}"));
        assert!(msg.contains("not both"), "{msg}");
    }

    #[test]
    fn variant_files_are_read_through_the_callback() {
        let text = BASE.replace("\"katro-6x6\"", "\"mine.toml\"");
        let mut read = |path: &str| -> Result<(String, String), String> {
            assert_eq!(path, "mine.toml");
            Ok((
                "dir/mine.toml".into(),
                "[board]\nrows = 4\nholes = 3\nseeds = 1\n".into(),
            ))
        };
        let e = parse_experiment("exp.toml", &text, &mut read).unwrap();
        assert_eq!(e.variants[0].rules.name(), "mine");
        let mut bad = |_: &str| -> Result<(String, String), String> {
            Ok((
                "dir/mine.toml".into(),
                "[board]\nrows = 5\nholes = 3\nseeds = 1\n".into(),
            ))
        };
        let msg = parse_experiment("exp.toml", &text, &mut bad)
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("`variants[0]`") && msg.contains("dir/mine.toml:2"),
            "{msg}"
        );
        let msg = problem(&text);
        assert!(
            msg.contains("cannot read variant file `mine.toml`"),
            "{msg}"
        );
    }

    #[test]
    fn duplicates_and_inconsistent_keys_are_refused() {
        let msg = problem(&BASE.replace("\"katro-6x6\"", "\"katro-4x4\""));
        assert!(msg.contains("listed twice"), "{msg}");
        let msg = problem(&format!("moves_in_rows = true\n{BASE}"));
        assert!(msg.contains("`moves_in_rows`"), "{msg}");
        let msg = problem(&BASE.replace(", games = 7", ", max_games = 7"));
        assert!(msg.contains("`variants[1].max_games`"), "{msg}");
        let msg = problem(&BASE.replace(", games = 7", ", games = 70"));
        assert!(
            msg.contains("`variants[1].games`: 70 is more than the experiment's `games` (10)"),
            "{msg}"
        );
    }

    #[test]
    fn opening_plies_default_and_override() {
        let text = format!(
            "opening_plies = 4\n{BASE}\n[[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\n\
             opening_plies = 0\n\n[[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\n"
        );
        let e = parse(&text).unwrap();
        let open: Vec<u32> = e.matchups.iter().map(|m| m.opening_plies).collect();
        assert_eq!(open, [4, 0, 4]);
        assert_eq!(e.matchups[2].label(), "greedy vs greedy +open4");
        assert_eq!(e.matchups[1].label(), "greedy vs greedy");
        let cells: Vec<u32> = e.cells().iter().map(|c| c.opening_plies).collect();
        assert_eq!(cells, [4, 0, 4, 4, 0, 4]);
        assert_eq!(parse(BASE).unwrap().matchups[0].opening_plies, 0);
        // The same agents with the same opening, twice: refused.
        let msg = problem(&format!(
            "{BASE}\n[[matchups]]\np1 = \"random\"\np2 = {{ agent = \"epsilon-greedy\", \
             epsilon = 0.25 }}\nopening_plies = 0\n"
        ));
        assert!(msg.contains("listed twice"), "{msg}");
    }

    #[test]
    fn bad_opening_plies_are_reported_with_every_other_problem() {
        let cases = [
            (
                "opening_plies = -1\n",
                "`opening_plies`: -1 is out of range: the number of random opening plies must be \
                 from 0 to 1000",
            ),
            (
                "opening_plies = 1001\n",
                "`opening_plies`: 1001 is out of range",
            ),
            (
                "opening_plies = 2.5\n",
                "`opening_plies`: expected an integer",
            ),
            (
                "opening_plies = \"4\"\n",
                "`opening_plies`: expected an integer",
            ),
            (
                "opening_plies = 200\n",
                "`opening_plies`: 200 random opening plies reach variant `katro-6x6`'s ply \
                 limit (200)",
            ),
        ];
        for (line, want) in cases {
            // With a second problem elsewhere: both are reported at once.
            let text = format!("{line}{}", BASE.replace("seed = 5", "seed = -5"));
            let msg = problem(&text);
            assert!(msg.starts_with("exp.toml:1:"), "{line}: {msg}");
            assert!(msg.contains(want), "{line}: {msg}");
            assert!(msg.contains("`seed`"), "{line}: {msg}");
        }
        let msg =
            problem(&BASE.replace("epsilon = 0.25 }", "epsilon = 0.25 }\nopening_plies = -3"));
        assert!(
            msg.contains("`matchups[0].opening_plies`: -3 is out of range"),
            "{msg}"
        );
    }

    #[test]
    fn a_time_budget_is_refused_in_either_form() {
        for agent in [
            "\"mcts:time_ms=100\"",
            "{ agent = \"mcts\", iterations = 50, time_ms = 100 }",
        ] {
            let msg = problem(&BASE.replace("p1 = \"random\"", &format!("p1 = {agent}")));
            assert!(msg.starts_with("exp.toml:9:"), "{msg}");
            assert!(msg.contains("`matchups[0].p1`"), "{msg}");
            assert!(msg.contains("would not reproduce"), "{msg}");
        }
    }

    #[test]
    fn the_smallest_cap_applies() {
        let text = format!("{BASE}games = 4\n\n[[matchups]]\np1 = \"greedy\"\np2 = \"random\"\n");
        let e = parse(&text).unwrap();
        let stops: Vec<Stop> = e.cells().iter().map(|c| c.stop).collect();
        // katro-6x6: 10 and 4 games; katro-4x4 (capped at 7): 4 and 7.
        assert_eq!(
            stops,
            [
                Stop::Games(4),
                Stop::Games(10),
                Stop::Games(4),
                Stop::Games(7)
            ]
        );
    }

    #[test]
    fn a_matchup_with_variants_has_cells_only_there() {
        let text = format!(
            "{BASE}\n[[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\nvariants = [\"katro-4x4\"]\n\
             games = 3\n\n[[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\n\
             variants = [\"katro-6x6\"]\n"
        );
        let e = parse(&text).unwrap();
        let cells: Vec<(String, String, u64)> = (e.cells().iter())
            .map(|c| {
                (
                    c.rules.name().to_string(),
                    c.matchup_label(),
                    c.stop.max_games(),
                )
            })
            .collect();
        let random = "random vs epsilon-greedy:epsilon=0.25".to_string();
        let greedy = "greedy vs greedy".to_string();
        assert_eq!(
            cells,
            [
                ("katro-6x6".to_string(), random.clone(), 10),
                ("katro-6x6".to_string(), greedy.clone(), 10),
                ("katro-4x4".to_string(), random, 7),
                ("katro-4x4".to_string(), greedy, 3),
            ]
        );
        invariants::check_experiment(&e).unwrap();
        // The cells are the fingerprint: leaving a variant out is another run.
        let all = text.replace("variants = [\"katro-6x6\"]\n", "");
        let all = all.replace("variants = [\"katro-4x4\"]\n", "");
        assert!(problem(&all).contains("`greedy vs greedy` is listed twice"));
    }

    #[test]
    fn a_matchups_variants_must_be_the_experiments_and_leave_none_unplayed() {
        let with = |list: &str| {
            problem(&format!(
                "{BASE}\n[[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\nvariants = {list}\n"
            ))
        };
        let msg = with("[\"katro-4x6\"]");
        assert!(
            msg.contains(
                "`matchups[1].variants[0]`: `katro-4x6` is not a variant of this experiment; \
                 its variants are katro-6x6, katro-4x4"
            ),
            "{msg}"
        );
        let msg = with("[\"katro-4x4\", \"katro-4x4\"]");
        assert!(msg.contains("`katro-4x4` is listed twice"), "{msg}");
        let msg = with("[]");
        assert!(msg.contains("`matchups[1].variants`: is empty"), "{msg}");
        let msg = problem(&BASE.replace(
            "epsilon = 0.25 }",
            "epsilon = 0.25 }\nvariants = [\"katro-4x4\"]",
        ));
        assert!(
            msg.contains("no matchup plays variant `katro-6x6`"),
            "{msg}"
        );
        // Two entries of one pairing sharing a variant would be one cell twice.
        let msg = problem(&format!(
            "{BASE}\n[[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\n\n[[matchups]]\n\
             p1 = \"greedy\"\np2 = \"greedy\"\nvariants = [\"katro-4x4\"]\n"
        ));
        assert!(msg.contains("`greedy vs greedy` is listed twice"), "{msg}");
    }

    /// An experiment of sweeps alone compares each point with the point
    /// that is its first sweep's base variant (issue 46); a named baseline,
    /// `all-pairs`, explicit variants, or a base that is the first point
    /// or not a point at all keep the plan as before.
    #[test]
    fn a_sweeps_baseline_is_its_base_variant() {
        let sweeps = |base: &str, extra: &str, seeds: &str| {
            format!(
                "name = \"t\"\nseed = 5\ngames = 10\n{extra}\n[[sweep]]\nbase = \"{base}\"\n\
                 holes = [3, 6]\nseeds = {seeds}\n\n[[matchups]]\np1 = \"random\"\np2 = \"random\"\n"
            )
        };
        let sweep = |base: &str, extra: &str| sweeps(base, extra, "[1, 2]");
        let e = parse(&sweep("katro-6x6", "")).unwrap();
        assert_eq!(
            e.compare,
            Compare::Baseline(Some("katro-6x6+holes=6+seeds=2".into()))
        );
        let named = "baseline = \"katro-6x6+holes=3+seeds=2\"";
        let e = parse(&sweep("katro-6x6", named)).unwrap();
        assert_eq!(
            e.compare,
            Compare::Baseline(Some("katro-6x6+holes=3+seeds=2".into()))
        );
        let e = parse(&sweep("katro-6x6", "compare = \"all-pairs\"")).unwrap();
        assert_eq!(e.compare, Compare::AllPairs);
        let e = parse(&sweep("katro-6x6", "variants = [\"katro-4x4\"]")).unwrap();
        assert_eq!(e.compare, Compare::Baseline(None));
        // katro-6x3: 3 holes of 2 seeds, the first point.
        let e = parse(&sweeps("katro-6x3", "", "[2, 1]")).unwrap();
        assert_eq!(e.compare, Compare::Baseline(None));
        // katro-4x4 (4 holes) is not among 3 and 6 holes.
        let e = parse(&sweep("katro-4x4", "")).unwrap();
        assert_eq!(e.compare, Compare::Baseline(None));
    }
}
