//! Players: each chooses a legal move given the rules, the position and a
//! random generator, and is deterministic given that generator: the same
//! rules, position and generator state always give the same move and leave
//! the generator in the same state.
//!
//! The agents, as [`AgentSpec::choose`] plays them:
//!
//! - `random`: a legal move drawn uniformly.
//! - `greedy`: a move capturing the most seeds this turn (summed over every
//!   capture of the move, relays included), drawn uniformly among the moves
//!   that tie; no look-ahead beyond the move itself.
//! - `epsilon-greedy`: with probability `epsilon` a uniform legal move,
//!   otherwise the greedy choice (one draw from [`unit()`] decides).
//! - `alphabeta`: the best move by a `depth`-ply negamax search with
//!   alpha-beta pruning and the evaluation of [`alphabeta::evaluate`],
//!   drawn uniformly among the root moves of equal best value; see
//!   [`alphabeta`]. With `nodes`, `tt` or `eval`, iterative deepening
//!   with a transposition table within a node budget
//!   ([`alphabeta::analyse_deep`]).
//! - `mcts`: UCT with uniformly random rollouts, `iterations` simulations
//!   from the current position (or as many as fit in `time_ms`
//!   milliseconds, outside experiments), the most visited move played; see
//!   [`mcts`]. Options: `rollout` (`greedy`, `epsilon-greedy` with
//!   `rollout_epsilon`), `solver` (MCTS-Solver), `keep_tree` (the tree
//!   kept between the agent's moves of a game, by [`Seat`]).
//!
//! - `perfect`: the best move by an exact solution of the variant (fastest
//!   win, else a draw, else slowest loss), drawn uniformly among equals;
//!   only for boards small enough to solve; see [`perfect`].
//!
//! The two search agents play a position's only legal move without
//! searching and without drawing a random number.
//!
//! Named strength levels (`weak`, `medium`, `strong`, `strongest`, and
//! `random` and `greedy`) stand for agent strings wherever an agent is
//! read, and read as exactly those agents: see [`levels`].

pub mod alphabeta;
pub mod levels;
pub mod mcts;
pub mod perfect;
/// Positions and games for the agents' tests, their golden file
/// (tests/it/alphabeta_golden.rs) and their benchmark (benches/agents.rs):
/// test support, so behind the cargo feature `checks`.
#[cfg(any(test, feature = "checks"))]
pub mod testing;
pub mod tt;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engine::{Move, MoveList, Position, Silent};
use crate::rng::{GameRng, below, unit};
use crate::rules::Rules;
use crate::rules::suggest::{did_you_mean, suggest_in};

/// An agent and its settings, as written in experiment files
/// (`{ agent = "alphabeta", depth = 3 }`) or on the command line
/// (`alphabeta:depth=3`). Deserialising validates: an unknown key or a
/// setting out of range is an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "agent", rename_all = "kebab-case", try_from = "RawAgentSpec")]
pub enum AgentSpec {
    /// Uniform over the legal moves.
    Random,
    /// The move that captures most seeds this turn, ties at random.
    Greedy,
    /// Greedy, but a uniformly random move with probability `epsilon`
    /// (0 to 1).
    EpsilonGreedy { epsilon: f64 },
    /// Alpha-beta search `depth` plies deep (1 to [`MAX_DEPTH`]). With
    /// any of `nodes` (1 to [`MAX_NODES`]), `tt` (log2 of the table's
    /// slots, 1 to [`tt::MAX_BITS`], default [`DEFAULT_TT_BITS`]) or
    /// `eval`, the deep search instead: iterative deepening to `depth`
    /// with a transposition table, within `nodes`
    /// ([`alphabeta::analyse_deep`]).
    Alphabeta {
        depth: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tt: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        eval: Option<alphabeta::Eval>,
    },
    /// UCT Monte Carlo tree search with random rollouts: `iterations`
    /// simulations (1 to [`MAX_ITERATIONS`]), exploration constant
    /// `exploration` (0 or more, default √2); with `time_ms` (1 to
    /// [`MAX_TIME_MS`]), the search also stops once that many milliseconds
    /// have passed, and `iterations`, when not given, is the cap
    /// [`MAX_ITERATIONS`]. A time budget is not reproducible:
    /// [`AgentSpec::reproducible`]. `rollout`: the rollout policy
    /// (default random), `rollout_epsilon` (0 to 1) given exactly when it
    /// is `epsilon-greedy`; `solver`: MCTS-Solver; `keep_tree`: the tree
    /// kept between moves of a game ([`Seat`]). The last four are written
    /// only when not the default, so the agent's text stays as before.
    Mcts {
        iterations: u32,
        #[serde(default = "default_exploration")]
        exploration: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u32>,
        #[serde(default, skip_serializing_if = "mcts::Rollout::is_random")]
        rollout: mcts::Rollout,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rollout_epsilon: Option<f64>,
        #[serde(default, skip_serializing_if = "is_false")]
        solver: bool,
        #[serde(default, skip_serializing_if = "is_false")]
        keep_tree: bool,
    },
    /// Plays from the variant's solved table, solved on its first move
    /// into the [`perfect::Tables`] its seat was given.
    Perfect,
}

/// The serde form read before validation. serde ignores
/// `deny_unknown_fields` on the unit variants of an internally tagged enum
/// (`random:depth=3` would pass silently), so here every variant is a
/// struct, which it does check. Every setting is read as a [`Setting`],
/// whatever its type, so that a value of the wrong type is refused in
/// katro's words, naming the key and its values, never in serde's.
#[derive(Deserialize)]
#[serde(tag = "agent", rename_all = "kebab-case", deny_unknown_fields)]
enum RawAgentSpec {
    Random {},
    Greedy {},
    EpsilonGreedy {
        epsilon: Option<Setting>,
    },
    Alphabeta {
        depth: Option<Setting>,
        nodes: Option<Setting>,
        tt: Option<Setting>,
        eval: Option<Setting>,
    },
    Mcts {
        iterations: Option<Setting>,
        exploration: Option<Setting>,
        time_ms: Option<Setting>,
        rollout: Option<Setting>,
        rollout_epsilon: Option<Setting>,
        solver: Option<Setting>,
        keep_tree: Option<Setting>,
    },
    Perfect {},
}

/// A setting's value as written (`mcts:iterations=-4`, `{ depth = "x" }`),
/// before it is read as its key's type.
#[derive(Clone, Debug, PartialEq)]
enum Setting {
    Whole(i128),
    Number(f64),
    Flag(bool),
    Text(String),
}

impl<'de> Deserialize<'de> for Setting {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Setting, D::Error> {
        struct Any;
        impl serde::de::Visitor<'_> for Any {
            type Value = Setting;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, true or false, or a name")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Setting, E> {
                Ok(Setting::Whole(v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Setting, E> {
                Ok(Setting::Whole(v.into()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Setting, E> {
                Ok(Setting::Number(v))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Setting, E> {
                Ok(Setting::Flag(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Setting, E> {
                Ok(Setting::Text(v.to_string()))
            }
        }
        d.deserialize_any(Any)
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::Whole(n) => write!(f, "{n}"),
            // `depth=3.0` is refused as no whole number, so it must not
            // read back as `3`.
            Setting::Number(x) if x.is_finite() && x.fract() == 0.0 => write!(f, "{x:?}"),
            Setting::Number(x) => write!(f, "{x}"),
            Setting::Flag(b) => write!(f, "{b}"),
            Setting::Text(t) => write!(f, "`{t}`"),
        }
    }
}

impl Setting {
    /// The setting `key` as a whole number that fits `T`; its range is
    /// checked by [`AgentSpec::validate`].
    fn whole<T: TryFrom<i128>>(&self, key: &'static str) -> Result<T, AgentError> {
        match *self {
            Setting::Whole(n) => T::try_from(n).ok(),
            _ => None,
        }
        .ok_or_else(|| self.refused(key))
    }

    /// The setting `key` as a number (a whole number is one).
    fn number(&self, key: &'static str) -> Result<f64, AgentError> {
        match *self {
            Setting::Whole(n) => Ok(n as f64),
            Setting::Number(x) => Ok(x),
            _ => Err(self.refused(key)),
        }
    }

    fn flag(&self, key: &'static str) -> Result<bool, AgentError> {
        match *self {
            Setting::Flag(b) => Ok(b),
            _ => Err(self.refused(key)),
        }
    }

    /// The setting as a name (`eval=3` is the name `3`, refused by the
    /// key's own list of names).
    fn name(&self) -> String {
        match self {
            Setting::Text(t) => t.clone(),
            other => other.to_string(),
        }
    }

    fn refused(&self, key: &'static str) -> AgentError {
        AgentError::out_of_range(key, self, allowed(key))
    }
}

/// A setting the agent cannot do without, or katro's refusal naming it
/// and its values.
fn required(
    agent: &'static str,
    key: &'static str,
    v: Option<Setting>,
) -> Result<Setting, AgentError> {
    v.ok_or_else(|| AgentError::Missing {
        agent,
        key,
        allowed: allowed(key),
    })
}

/// A whole-number setting, when given.
fn whole_opt<T: TryFrom<i128>>(
    v: &Option<Setting>,
    key: &'static str,
) -> Result<Option<T>, AgentError> {
    v.as_ref().map(|s| s.whole(key)).transpose()
}

/// A true-or-false setting, false when not given.
fn flag_or_false(v: &Option<Setting>, key: &'static str) -> Result<bool, AgentError> {
    v.as_ref().map_or(Ok(false), |s| s.flag(key))
}

/// The values the numeric or true-or-false setting `key` takes, in the
/// words every refusal of it uses.
fn allowed(key: &str) -> String {
    let whole = |lo: u64, hi: u64| format!("a whole number from {lo} to {hi}");
    match key {
        "depth" => whole(1, MAX_DEPTH.into()),
        "nodes" => whole(1, MAX_NODES),
        "tt" => format!(
            "{} (log2 of the table's slots)",
            whole(1, tt::MAX_BITS.into())
        ),
        "iterations" => whole(1, MAX_ITERATIONS.into()),
        "time_ms" => whole(1, MAX_TIME_MS.into()),
        "exploration" => "a number of 0 or more".to_string(),
        "solver" | "keep_tree" => "true or false".to_string(),
        // `epsilon`, `rollout_epsilon`: probabilities.
        _ => "a number from 0 to 1".to_string(),
    }
}

impl TryFrom<RawAgentSpec> for AgentSpec {
    type Error = AgentError;
    fn try_from(raw: RawAgentSpec) -> Result<AgentSpec, AgentError> {
        let spec = match raw {
            RawAgentSpec::Random {} => AgentSpec::Random,
            RawAgentSpec::Greedy {} => AgentSpec::Greedy,
            RawAgentSpec::EpsilonGreedy { epsilon } => AgentSpec::EpsilonGreedy {
                epsilon: required("epsilon-greedy", "epsilon", epsilon)?.number("epsilon")?,
            },
            RawAgentSpec::Alphabeta {
                depth,
                nodes,
                tt,
                eval,
            } => AgentSpec::Alphabeta {
                depth: required("alphabeta", "depth", depth)?.whole("depth")?,
                nodes: whole_opt(&nodes, "nodes")?,
                tt: whole_opt(&tt, "tt")?,
                eval: eval.map(|e| parse_eval(&e.name())).transpose()?,
            },
            RawAgentSpec::Mcts {
                iterations,
                exploration,
                time_ms,
                rollout,
                rollout_epsilon,
                solver,
                keep_tree,
            } => {
                let time_ms = whole_opt(&time_ms, "time_ms")?;
                AgentSpec::Mcts {
                    iterations: mcts_iterations(whole_opt(&iterations, "iterations")?, time_ms)?,
                    exploration: exploration
                        .map_or(Ok(default_exploration()), |e| e.number("exploration"))?,
                    time_ms,
                    rollout: rollout
                        .map_or(Ok(mcts::Rollout::Random), |r| parse_rollout(&r.name()))?,
                    rollout_epsilon: rollout_epsilon
                        .map(|e| e.number("rollout_epsilon"))
                        .transpose()?,
                    solver: flag_or_false(&solver, "solver")?,
                    keep_tree: flag_or_false(&keep_tree, "keep_tree")?,
                }
            }
            RawAgentSpec::Perfect {} => AgentSpec::Perfect,
        };
        spec.validate()?;
        Ok(spec)
    }
}

/// An `alphabeta` agent's `eval`.
fn parse_eval(text: &str) -> Result<alphabeta::Eval, AgentError> {
    alphabeta::Eval::parse(text).ok_or_else(|| AgentError::UnknownEval {
        value: text.to_string(),
    })
}

/// An `mcts` agent's iterations: as given, or as many as allowed where a
/// time limit alone bounds the search.
fn mcts_iterations(iterations: Option<u32>, time_ms: Option<u32>) -> Result<u32, AgentError> {
    match (iterations, time_ms) {
        (Some(n), _) => Ok(n),
        (None, Some(_)) => Ok(MAX_ITERATIONS),
        (None, None) => Err(AgentError::NoBudget),
    }
}

/// An `mcts` agent's `rollout`.
fn parse_rollout(text: &str) -> Result<mcts::Rollout, AgentError> {
    mcts::Rollout::parse(text).ok_or_else(|| AgentError::UnknownRollout {
        value: text.to_string(),
    })
}

fn default_exploration() -> f64 {
    std::f64::consts::SQRT_2
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// serde calls an unknown enum tag an unknown "variant"; here a variant
/// is a rule set, so an unknown agent is called what it is. A name or key
/// close to a known one is suggested.
pub fn agent_words(serde_message: &str) -> String {
    suggest_in(
        &serde_message
            .trim()
            .replacen("unknown variant", "unknown agent", 1),
    )
}

pub const AGENT_FORMS: &str = "an agent is a string like \"alphabeta:depth=3\" or a table \
                               like { agent = \"alphabeta\", depth = 3 }";
/// The agents' names, then the names of the strength levels that are not
/// agents' own ([`levels::LEVELS`]), as every unknown agent's message
/// lists them.
pub const AGENT_NAMES: &str = concat!(
    "random, greedy, epsilon-greedy, alphabeta, mcts, perfect; ",
    "levels: weak, medium, strong, strongest"
);
/// Each agent's settings, as [`RawAgentSpec`] reads them: checked before
/// serde reads them, so that a key an agent does not take is refused in
/// katro's words, with the keys it does take.
const AGENT_KEYS: [(&str, &[&str]); 6] = [
    ("random", &[]),
    ("greedy", &[]),
    ("epsilon-greedy", &["epsilon"]),
    ("alphabeta", &["depth", "nodes", "tt", "eval"]),
    (
        "mcts",
        &[
            "iterations",
            "exploration",
            "time_ms",
            "rollout",
            "rollout_epsilon",
            "solver",
            "keep_tree",
        ],
    ),
    ("perfect", &[]),
];
/// Deep enough that a node budget, not the depth, ends the deep search of
/// every shipped board: at depth 12 a katro-6x6 search stopped at ~41,000
/// nodes whatever its budget (experiments/strength-curve.toml's header), so
/// budgets above that bought nothing. A fixed-depth search this deep
/// without `nodes` is the user's choice of cost.
pub const MAX_DEPTH: u32 = 64;
/// A billion nodes: minutes a move.
pub const MAX_NODES: u64 = 1_000_000_000;
/// 2^16 slots: 1.5 MB, allocated for each search.
pub const DEFAULT_TT_BITS: u32 = 16;
pub const MAX_ITERATIONS: u32 = 1_000_000;
/// A day: any longer is surely a typo.
pub const MAX_TIME_MS: u32 = 86_400_000;

/// Why an agent cannot be used: its text does not read, a setting is
/// out of range, it cannot play the variant or would not reproduce. The
/// message is whole; callers put the key or flag in front.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AgentError {
    /// What is wrong with the agent written as `text`.
    #[error("agent `{text}`: {error}")]
    In {
        text: String,
        error: Box<AgentError>,
    },
    #[error("`{pair}` should be key=value")]
    NotKeyValue { pair: String },
    /// An unknown agent or key, or a value of the wrong type, in words
    /// made from serde's.
    #[error("{words} (agents: {AGENT_NAMES})")]
    Unread { words: String },
    /// An experiment's agent that is neither a string nor a table.
    #[error("got {got}; {AGENT_FORMS}")]
    NotAnAgent { got: &'static str },
    /// A strength level given settings (`strong:nodes=5000`).
    #[error(
        "{level} is a level, the agent {agent}, and takes no settings; `{key}` is not one: \
         write the agent in full to change a setting"
    )]
    LevelSettings {
        level: &'static str,
        agent: &'static str,
        key: String,
    },
    #[error(
        "eval is `{value}`{}; it must be one of {}",
        did_you_mean(.value, alphabeta::Eval::NAMES.split(", ")),
        alphabeta::Eval::NAMES
    )]
    UnknownEval { value: String },
    #[error(
        "rollout is `{value}`{}; it must be one of {}",
        did_you_mean(.value, mcts::Rollout::NAMES.split(", ")),
        mcts::Rollout::NAMES
    )]
    UnknownRollout { value: String },
    /// An `mcts` agent with neither `iterations` nor `time_ms`.
    /// Experiments, `simulate` and `bench` take `iterations` only
    /// (docs/EXPERIMENTS.md), so the hint names it first.
    #[error(
        "give `iterations`, the simulations a move, {} (`mcts:iterations=1000`); only \
         `katro play` also takes `time_ms`, a time budget",
        allowed("iterations")
    )]
    NoBudget,
    /// A setting of the wrong type or outside `allowed` (`a whole number
    /// from 1 to 64`...).
    #[error("{key} is {value}; it must be {allowed}")]
    OutOfRange {
        key: &'static str,
        value: String,
        allowed: String,
    },
    /// A key the agent does not take; `keys`: those it does.
    #[error(
        "{agent} {}; `{key}` is not one{}",
        if .keys.is_empty() { "takes no settings".to_string() } else { format!("takes {}", .keys.join(", ")) },
        did_you_mean(.key, .keys.iter().copied())
    )]
    UnknownKey {
        agent: &'static str,
        key: String,
        keys: &'static [&'static str],
    },
    /// A setting `agent` cannot do without.
    #[error("{agent} needs {key}, {allowed} (`{agent}:{key}=...`)")]
    Missing {
        agent: &'static str,
        key: &'static str,
        allowed: String,
    },
    #[error(
        "rollout=epsilon-greedy needs rollout_epsilon, {}",
        allowed("rollout_epsilon")
    )]
    RolloutEpsilonMissing,
    #[error("rollout_epsilon is only for rollout=epsilon-greedy (rollout is {rollout})")]
    RolloutEpsilonUnused { rollout: &'static str },
    #[error(
        "a time budget (`time_ms`) makes the games depend on the machine's speed and load, \
         so the results would not reproduce; give `iterations` alone (`katro bench VARIANT \
         --mcts N` measures iterations per second); `time_ms` is for `katro play`"
    )]
    TimeBudget,
    #[error("the perfect agent cannot play `{variant}`: {}", perfect::why_not(.error))]
    PerfectCannotPlay {
        variant: String,
        error: crate::solve::SolveError,
    },
}

impl AgentError {
    /// `self`, said of the agent written as `text`.
    fn of(self, text: impl ToString) -> AgentError {
        AgentError::In {
            text: text.to_string(),
            error: Box::new(self),
        }
    }

    fn out_of_range(key: &'static str, value: impl fmt::Display, allowed: String) -> AgentError {
        let value = value.to_string();
        AgentError::OutOfRange {
            key,
            value,
            allowed,
        }
    }
}

/// Refuses `value` of setting `key` outside `lo..=hi`, in the words of
/// [`allowed`].
fn in_range<T: PartialOrd + Copy + fmt::Display>(
    key: &'static str,
    value: T,
    lo: T,
    hi: T,
) -> Result<(), AgentError> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(AgentError::out_of_range(key, value, allowed(key)))
}

/// For the layers that still report in text (the experiment file's
/// problem list, `checks`).
impl From<AgentError> for String {
    fn from(e: AgentError) -> String {
        e.to_string()
    }
}

/// Checks an `alphabeta` agent's depth, nodes and table size are in range.
fn validate_alphabeta(depth: u32, nodes: Option<u64>, tt: Option<u32>) -> Result<(), AgentError> {
    in_range("depth", depth, 1, MAX_DEPTH)?;
    if let Some(n) = nodes {
        in_range("nodes", n, 1, MAX_NODES)?;
    }
    match tt {
        Some(t) => in_range("tt", t, 1, tt::MAX_BITS),
        None => Ok(()),
    }
}

/// Checks an `mcts` agent's time limit, iterations and exploration are in
/// range.
fn validate_mcts_budget(
    iterations: u32,
    exploration: f64,
    time_ms: Option<u32>,
) -> Result<(), AgentError> {
    if let Some(t) = time_ms {
        in_range("time_ms", t, 1, MAX_TIME_MS)?;
    }
    in_range("iterations", iterations, 1, MAX_ITERATIONS)?;
    if !(exploration.is_finite() && exploration >= 0.0) {
        let allowed = allowed("exploration");
        return Err(AgentError::out_of_range(
            "exploration",
            exploration,
            allowed,
        ));
    }
    Ok(())
}

/// A setting's value as TOML would type it: an integer, else a number,
/// else a boolean, else text.
fn setting_value(v: &str) -> toml::Value {
    v.parse::<i64>()
        .map(toml::Value::Integer)
        .or_else(|_| v.parse::<f64>().map(toml::Value::Float))
        .or_else(|_| v.parse::<bool>().map(toml::Value::Boolean))
        .unwrap_or_else(|_| toml::Value::String(v.to_string()))
}

/// The agent of the strength level `name`, given as the table of an agent
/// whose name is not an agent's: refused when it is no level, or when
/// settings come with it.
fn level_agent(name: &str, table: &toml::Table) -> Result<AgentSpec, AgentError> {
    let Some(level) = levels::level(name) else {
        let mut listed: Vec<&str> = AGENT_KEYS.iter().map(|(a, _)| *a).collect();
        listed.extend(
            levels::LEVELS
                .map(|l| l.name)
                .into_iter()
                .filter(|n| !agent_named(n)),
        );
        let quoted: Vec<String> = listed.iter().map(|n| format!("`{n}`")).collect();
        let words = format!(
            "unknown agent `{name}`{}, expected one of {}",
            did_you_mean(name, listed.iter().copied()),
            quoted.join(", ")
        );
        return Err(AgentError::Unread { words });
    };
    if let Some(key) = table.keys().find(|k| *k != "agent") {
        return Err(AgentError::LevelSettings {
            level: level.name,
            agent: level.agent,
            key: key.clone(),
        });
    }
    AgentSpec::parse(level.agent)
}

/// Whether `name` is an agent's own name.
fn agent_named(name: &str) -> bool {
    AGENT_KEYS.iter().any(|(a, _)| *a == name)
}

impl AgentSpec {
    /// Reads `name` or `name:key=value,key=value`; a strength level's
    /// name ([`levels`]) reads as the agent it stands for.
    pub fn parse(text: &str) -> Result<AgentSpec, AgentError> {
        let (name, args) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), a.trim()),
            None => (text.trim(), ""),
        };
        let mut table = toml::Table::new();
        table.insert("agent".into(), toml::Value::String(name.to_string()));
        for pair in args.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = pair.split_once('=').ok_or_else(|| {
                let pair = pair.to_string();
                AgentError::NotKeyValue { pair }.of(text)
            })?;
            table.insert(k.trim().to_string(), setting_value(v.trim()));
        }
        AgentSpec::from_table(table).map_err(|e| e.of(text))
    }

    /// Reads an agent written as a table, `{ agent = "alphabeta", depth =
    /// 3 }`: an experiment file's form, and the one [`AgentSpec::parse`]
    /// turns its text into.
    pub fn from_table(table: toml::Table) -> Result<AgentSpec, AgentError> {
        if let Some(toml::Value::String(name)) = table.get("agent")
            && !agent_named(name)
        {
            return level_agent(name, &table);
        }
        if let Some(toml::Value::String(name)) = table.get("agent")
            && let Some(&(agent, keys)) = AGENT_KEYS.iter().find(|(a, _)| a == name)
            && let Some(key) = table
                .keys()
                .find(|k| *k != "agent" && !keys.contains(&k.as_str()))
        {
            let key = key.clone();
            return Err(AgentError::UnknownKey { agent, key, keys });
        }
        // Reading the raw form first keeps the list of agents out of the
        // errors of a setting's value, where it would only distract.
        let raw: RawAgentSpec =
            toml::Value::Table(table)
                .try_into()
                .map_err(|e: toml::de::Error| AgentError::Unread {
                    words: agent_words(e.message()),
                })?;
        AgentSpec::try_from(raw)
    }

    /// Checks every setting is in range.
    pub fn validate(&self) -> Result<(), AgentError> {
        match *self {
            AgentSpec::Random | AgentSpec::Greedy | AgentSpec::Perfect => Ok(()),
            AgentSpec::EpsilonGreedy { epsilon } => in_range("epsilon", epsilon, 0.0, 1.0),
            AgentSpec::Alphabeta {
                depth, nodes, tt, ..
            } => validate_alphabeta(depth, nodes, tt),
            AgentSpec::Mcts {
                iterations,
                exploration,
                time_ms,
                ..
            } => {
                validate_mcts_budget(iterations, exploration, time_ms)?;
                self.check_rollout()
            }
        }
    }

    /// An `mcts` agent's rollout and its `rollout_epsilon`, which go
    /// together.
    fn check_rollout(&self) -> Result<(), AgentError> {
        let AgentSpec::Mcts {
            rollout,
            rollout_epsilon,
            ..
        } = *self
        else {
            return Ok(());
        };
        match (rollout, rollout_epsilon) {
            (mcts::Rollout::EpsilonGreedy, None) => Err(AgentError::RolloutEpsilonMissing),
            (mcts::Rollout::EpsilonGreedy, Some(e)) if !(0.0..=1.0).contains(&e) => Err(
                AgentError::out_of_range("rollout_epsilon", e, allowed("rollout_epsilon")),
            ),
            (mcts::Rollout::EpsilonGreedy, Some(_)) | (_, None) => Ok(()),
            (other, Some(_)) => Err(AgentError::RolloutEpsilonUnused {
                rollout: other.name(),
            }),
        }
    }

    /// Whether the agent can play `rules` at all: only `perfect` cannot,
    /// on a board too big to solve.
    pub fn check_variant(&self, rules: &Rules) -> Result<(), AgentError> {
        match self {
            AgentSpec::Perfect => perfect::check_variant(rules),
            // Listed, not `_`: a new agent must decide whether it can
            // play every board.
            AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::EpsilonGreedy { .. }
            | AgentSpec::Alphabeta { .. }
            | AgentSpec::Mcts { .. } => Ok(()),
        }
    }

    /// Refuses an agent whose moves depend on the machine (an `mcts`
    /// time budget: how many simulations fit in the time depends on the
    /// processor and its load), so that experiments, whose files must
    /// rerun to the same bytes anywhere, cannot use one by mistake.
    pub fn reproducible(&self) -> Result<(), AgentError> {
        match *self {
            AgentSpec::Mcts {
                time_ms: Some(_), ..
            } => Err(AgentError::TimeBudget.of(self)),
            // Listed, not `_`: a new agent must decide whether its moves
            // are the same on every machine.
            AgentSpec::Mcts { time_ms: None, .. }
            | AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::EpsilonGreedy { .. }
            | AgentSpec::Alphabeta { .. }
            | AgentSpec::Perfect => Ok(()),
        }
    }

    /// An `mcts` agent's budget and search settings; `None` for the
    /// other agents.
    pub fn mcts_search(&self) -> Option<(mcts::Budget, mcts::Settings)> {
        match *self {
            AgentSpec::Mcts {
                iterations,
                exploration,
                time_ms,
                rollout,
                rollout_epsilon,
                solver,
                ..
            } => Some((
                mcts::Budget {
                    iterations,
                    time: time_ms.map(|t| std::time::Duration::from_millis(t.into())),
                },
                mcts::Settings {
                    exploration,
                    rollout,
                    rollout_epsilon: rollout_epsilon.unwrap_or(0.0),
                    solver,
                },
            )),
            AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::EpsilonGreedy { .. }
            | AgentSpec::Alphabeta { .. }
            | AgentSpec::Perfect => None,
        }
    }

    /// The agent seated for one game: what it keeps between its moves
    /// lives there, and a `perfect` agent plays from `tables` (solving its
    /// variant there on its first move, unless already solved).
    pub fn start_game<'a>(&'a self, tables: &'a perfect::Tables) -> Seat<'a> {
        Seat {
            spec: self,
            tables,
            tree: None,
        }
    }

    /// Chooses a move; `legal` must be the non-empty legal moves of `pos`.
    /// Nothing is kept: a `perfect` agent solves its variant for this one
    /// move, so a caller asking for many moves gives it tables the moves
    /// share ([`AgentSpec::choose_with`], or a seat).
    pub fn choose(
        &self,
        rules: &Rules,
        pos: &Position,
        legal: &MoveList,
        rng: &mut GameRng,
    ) -> Move {
        self.choose_with(&perfect::Tables::new(), rules, pos, legal, rng)
    }

    /// [`AgentSpec::choose`], a `perfect` agent playing from `tables`
    /// (solving its variant there if no earlier move has).
    pub fn choose_with(
        &self,
        tables: &perfect::Tables,
        rules: &Rules,
        pos: &Position,
        legal: &MoveList,
        rng: &mut GameRng,
    ) -> Move {
        debug_assert!(!legal.is_empty());
        match *self {
            AgentSpec::Random => legal[below(rng, legal.len())],
            AgentSpec::Greedy => greedy(rules, pos, legal, rng),
            AgentSpec::EpsilonGreedy { epsilon } => {
                if unit(rng) < epsilon {
                    legal[below(rng, legal.len())]
                } else {
                    greedy(rules, pos, legal, rng)
                }
            }
            AgentSpec::Alphabeta {
                depth,
                nodes: None,
                tt: None,
                eval: None,
            } => alphabeta::choose(rules, pos, legal, depth, rng),
            AgentSpec::Alphabeta { .. } => {
                let limits = self.search_limits().expect("an alphabeta agent");
                alphabeta::choose_deep(rules, pos, legal, limits, rng)
            }
            AgentSpec::Mcts { .. } => {
                let (budget, settings) = self.mcts_search().expect("an mcts agent");
                mcts::choose(rules, pos, legal, budget, &settings, rng)
            }
            AgentSpec::Perfect => perfect::choose(tables, rules, pos, legal, rng),
        }
    }
}

impl AgentSpec {
    /// An `alphabeta` agent's limits for its deep search, the one place its
    /// defaults are filled in, so that its moves, its tied moves (`ties`)
    /// and `katro bench --alphabeta` search alike; `None` for other agents.
    pub fn search_limits(&self) -> Option<alphabeta::Limits> {
        match *self {
            AgentSpec::Alphabeta {
                depth,
                nodes,
                tt,
                eval,
            } => Some(alphabeta::Limits {
                depth,
                nodes,
                tt_bits: tt.unwrap_or(DEFAULT_TT_BITS),
                eval: eval.unwrap_or_default(),
            }),
            AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::EpsilonGreedy { .. }
            | AgentSpec::Mcts { .. }
            | AgentSpec::Perfect => None,
        }
    }

    /// Why the agent's moves are not a function of the position but for a
    /// uniform draw among tied best moves ([`AgentSpec::ties`]); `None`
    /// for an agent that draws nothing else (an experiment's `openings =
    /// "exact"`, docs/EXPERIMENTS.md).
    pub fn draws_beyond_ties(&self) -> Option<&'static str> {
        match *self {
            AgentSpec::Random => Some("draws every move at random"),
            AgentSpec::EpsilonGreedy { epsilon } if epsilon > 0.0 => {
                Some("plays a random move with probability `epsilon`")
            }
            AgentSpec::Mcts { .. } => Some("plays its simulations' random rollouts"),
            // Listed, not `_`: a new agent that draws at random must say
            // so here, or `openings = "exact"` would follow it wrongly.
            AgentSpec::EpsilonGreedy { .. }
            | AgentSpec::Greedy
            | AgentSpec::Alphabeta { .. }
            | AgentSpec::Perfect => None,
        }
    }

    /// The moves among which [`AgentSpec::choose`] draws uniformly at
    /// `pos` (`legal` its legal moves, two or more), in `legal`'s order;
    /// `None` for an agent that draws otherwise
    /// ([`AgentSpec::draws_beyond_ties`]). The perfect agent reads its
    /// table from `tables`, as its seat does.
    pub fn ties(
        &self,
        tables: &perfect::Tables,
        rules: &Rules,
        pos: &Position,
        legal: &MoveList,
    ) -> Option<Vec<Move>> {
        if self.draws_beyond_ties().is_some() {
            return None;
        }
        Some(match *self {
            AgentSpec::Greedy | AgentSpec::EpsilonGreedy { .. } => best_by(legal, |m| {
                let mut after = *pos;
                let captured = rules.play_unchecked(&mut after, m, &mut Silent);
                captured.seeds_captured as i64
            }),
            AgentSpec::Alphabeta {
                depth,
                nodes: None,
                tt: None,
                eval: None,
            } => alphabeta::analyse(rules, pos, legal, depth).best,
            AgentSpec::Alphabeta { .. } => {
                let limits = self.search_limits().expect("an alphabeta agent");
                alphabeta::analyse_deep(rules, pos, legal, limits)
                    .analysis
                    .best
            }
            AgentSpec::Perfect => {
                let table = tables.table(rules);
                best_by(legal, |m| {
                    table
                        .move_value(rules, pos, m)
                        .expect("every position of a game is reachable from the start")
                        .rank()
                })
            }
            AgentSpec::Random | AgentSpec::Mcts { .. } => return None,
        })
    }
}

/// The moves of `legal` of the highest `score`, in `legal`'s order.
fn best_by(legal: &MoveList, score: impl Fn(Move) -> i64) -> Vec<Move> {
    let scores: Vec<i64> = legal.iter().map(|&m| score(m)).collect();
    let top = *scores.iter().max().expect("legal moves");
    let tied = legal.iter().zip(&scores).filter(|(_, s)| **s == top);
    tied.map(|(m, _)| *m).collect::<Vec<Move>>()
}

impl fmt::Display for AgentSpec {
    /// The agent as written on the command line; used in output rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AgentSpec::Random => write!(f, "random"),
            AgentSpec::Greedy => write!(f, "greedy"),
            AgentSpec::EpsilonGreedy { epsilon } => write!(f, "epsilon-greedy:epsilon={epsilon}"),
            AgentSpec::Alphabeta {
                depth,
                nodes,
                tt,
                eval,
            } => {
                write!(f, "alphabeta:depth={depth}")?;
                if let Some(n) = nodes {
                    write!(f, ",nodes={n}")?;
                }
                if let Some(t) = tt {
                    write!(f, ",tt={t}")?;
                }
                match eval {
                    Some(e) => write!(f, ",eval={}", e.name()),
                    None => Ok(()),
                }
            }
            AgentSpec::Mcts {
                iterations,
                exploration,
                time_ms,
                rollout,
                rollout_epsilon,
                solver,
                keep_tree,
            } => {
                write!(f, "mcts:iterations={iterations},exploration={exploration}")?;
                if let Some(t) = time_ms {
                    write!(f, ",time_ms={t}")?;
                }
                if !rollout.is_random() {
                    write!(f, ",rollout={}", rollout.name())?;
                }
                if let Some(e) = rollout_epsilon {
                    write!(f, ",rollout_epsilon={e}")?;
                }
                write_flags(f, &[("solver", solver), ("keep_tree", keep_tree)])
            }
            AgentSpec::Perfect => write!(f, "perfect"),
        }
    }
}

/// Writes `,key=true` for each flag set, as the command line takes it.
fn write_flags(f: &mut fmt::Formatter<'_>, flags: &[(&str, bool)]) -> fmt::Result {
    for &(key, set) in flags {
        if set {
            write!(f, ",{key}=true")?;
        }
    }
    Ok(())
}

/// An agent's name as every display writes it (console tables, warnings,
/// chart labels): its canonical name ([`AgentSpec`]'s `Display`, which the
/// CSVs keep, since it names the games) without `mcts`'s default
/// `exploration`, which reads back as the same agent. One function, so that
/// `mcts:iterations=200` is written one way wherever katro shows it.
pub fn label(canonical: &str) -> String {
    let Some(params) = canonical.strip_prefix("mcts:") else {
        return canonical.to_string();
    };
    let default = format!("exploration={}", std::f64::consts::SQRT_2);
    let kept: Vec<&str> = params.split(',').filter(|p| *p != default).collect();
    format!("mcts:{}", kept.join(","))
}

impl AgentSpec {
    /// The agent as displays write it: [`label`] of its canonical name.
    pub fn label(&self) -> String {
        label(&self.to_string())
    }
}

/// An agent playing one game ([`AgentSpec::start_game`]), asked for each
/// of its moves in order. Only `mcts` with `keep_tree` keeps anything of
/// its own (its tree); `perfect` plays from the tables it was given; every
/// agent plays as [`AgentSpec::choose`] does. The game stays a function of
/// its generator: what is kept comes from the game's own earlier moves, and
/// a solved table is the same table whoever solved it.
pub struct Seat<'a> {
    spec: &'a AgentSpec,
    tables: &'a perfect::Tables,
    tree: Option<mcts::KeptTree>,
}

impl Seat<'_> {
    /// Chooses a move; `legal` must be the non-empty legal moves of `pos`.
    pub fn choose(
        &mut self,
        rules: &Rules,
        pos: &Position,
        legal: &MoveList,
        rng: &mut GameRng,
    ) -> Move {
        match *self.spec {
            AgentSpec::Mcts {
                keep_tree: true, ..
            } => {
                let (budget, settings) = self.spec.mcts_search().expect("an mcts agent");
                mcts::choose_keeping(rules, pos, legal, budget, &settings, &mut self.tree, rng)
            }
            AgentSpec::Mcts {
                keep_tree: false, ..
            }
            | AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::EpsilonGreedy { .. }
            | AgentSpec::Alphabeta { .. }
            | AgentSpec::Perfect => self.spec.choose_with(self.tables, rules, pos, legal, rng),
        }
    }
}

/// The move capturing most seeds this turn, ties broken uniformly at random
/// (reservoir sampling, so no list is built).
pub fn greedy(rules: &Rules, pos: &Position, legal: &MoveList, rng: &mut GameRng) -> Move {
    let mut best = legal[0];
    let mut best_seeds = None;
    let mut ties = 0;
    for &mv in legal.iter() {
        let mut after = *pos;
        let seeds = rules
            .play_unchecked(&mut after, mv, &mut Silent)
            .seeds_captured;
        match best_seeds {
            Some(b) if seeds < b => {}
            Some(b) if seeds == b => {
                ties += 1;
                if below(rng, ties) == 0 {
                    best = mv;
                }
            }
            _ => {
                best = mv;
                best_seeds = Some(seeds);
                ties = 1;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::testing::{custom, random_positions, variant, wins};
    use super::*;
    use crate::rng::rng_from_seed;
    use crate::rules::Rules;
    use rand_xoshiro::rand_core::Rng;

    #[test]
    fn labels_leave_out_the_default_exploration_and_read_back_as_the_agent() {
        for (written, shown) in [
            ("mcts:iterations=200", "mcts:iterations=200"),
            (
                "mcts:iterations=200,exploration=0.5",
                "mcts:iterations=200,exploration=0.5",
            ),
            (
                "mcts:iterations=30,solver=true,keep_tree=true",
                "mcts:iterations=30,solver=true,keep_tree=true",
            ),
            ("alphabeta:depth=4", "alphabeta:depth=4"),
            ("epsilon-greedy:epsilon=0.1", "epsilon-greedy:epsilon=0.1"),
        ] {
            let spec = AgentSpec::parse(written).unwrap();
            assert_eq!(spec.label(), shown, "{written}");
            // The label names the same agent as the canonical name.
            assert_eq!(AgentSpec::parse(shown).unwrap(), spec, "{written}");
        }
        assert!(
            AgentSpec::parse("mcts:iterations=200")
                .unwrap()
                .to_string()
                .contains("exploration=1.4142135623730951"),
            "the canonical name, which CSVs keep, is unchanged"
        );
    }

    /// A preset with a low lap limit: the tests only need the rules of
    /// capture, and a long endless move would cost seconds in debug builds.
    fn capped(name: &str) -> Rules {
        variant(name)
            .with_limits(None, Some(2_000))
            .expect("a valid lap limit")
    }

    /// Variants that differ in every setting a move's captures depend on:
    /// trigger, capturing row, victim rule, direction, start rule.
    fn capture_variants() -> Vec<Rules> {
        [
            "katro-4x4",
            "katro-6x3",
            "katro-wikipedia",
            "katro-ludii",
            "katra-boaoaka-4x8",
        ]
        .iter()
        .map(|n| capped(n))
        .collect()
    }

    /// Seeds each legal move captures, found by playing it (checked).
    fn captures(rules: &Rules, pos: &Position, legal: &MoveList) -> Vec<(Move, u64)> {
        legal
            .iter()
            .map(|&mv| {
                let mut after = *pos;
                let report = rules.play(&mut after, mv).expect("a legal move");
                (mv, report.seeds_captured)
            })
            .collect()
    }

    fn max_capture_moves(rules: &Rules, pos: &Position, legal: &MoveList) -> Vec<Move> {
        let caps = captures(rules, pos, legal);
        let max = caps.iter().map(|c| c.1).max().unwrap();
        let mut best: Vec<Move> = caps.iter().filter(|c| c.1 == max).map(|c| c.0).collect();
        best.sort_unstable();
        best
    }

    /// The distinct moves an agent chose over `draws` generators.
    fn chosen(spec: &AgentSpec, rules: &Rules, pos: &Position, draws: u64) -> Vec<Move> {
        let legal = rules.legal_moves(pos);
        let mut seen: Vec<Move> = (0..draws)
            .map(|s| spec.choose(rules, pos, &legal, &mut rng_from_seed(s)))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    }

    #[test]
    fn greedy_never_misses_a_larger_capture() {
        let mut discriminating = 0;
        for (v, rules) in capture_variants().iter().enumerate() {
            for pos in random_positions(rules, 40, v as u64) {
                let legal = rules.legal_moves(&pos);
                let caps = captures(rules, &pos, &legal);
                let max = caps.iter().map(|c| c.1).max().unwrap();
                if caps.iter().any(|c| c.1 < max) {
                    discriminating += 1;
                }
                for seed in 0..4 {
                    let mv = greedy(rules, &pos, &legal, &mut rng_from_seed(seed));
                    let got = caps.iter().find(|c| c.0 == mv).expect("a legal move").1;
                    assert_eq!(got, max, "{}: {mv:?} in {pos:?}", rules.name());
                }
            }
        }
        // The test means something only where moves capture differently.
        assert!(discriminating >= 50, "only {discriminating} positions");
    }

    #[test]
    fn epsilon_zero_chooses_exactly_the_greedy_moves() {
        let eps0 = AgentSpec::EpsilonGreedy { epsilon: 0.0 };
        let mut ties = 0;
        for (v, rules) in capture_variants().iter().enumerate() {
            for pos in random_positions(rules, 12, 100 + v as u64) {
                let legal = rules.legal_moves(&pos);
                let best = max_capture_moves(rules, &pos, &legal);
                if best.len() > 1 {
                    ties += 1;
                }
                // 64 draws miss one of k tied moves with probability at most
                // k(1-1/k)^64, under 1e-3 for the k ≤ 12 seen here; the
                // seeds are fixed, so the test cannot flicker.
                assert_eq!(chosen(&AgentSpec::Greedy, rules, &pos, 64), best);
                assert_eq!(chosen(&eps0, rules, &pos, 64), best);
            }
        }
        assert!(ties >= 10, "ties broken at random must be exercised");
    }

    /// Draws `draws` moves from `spec` on a position with 12 legal moves,
    /// few of which capture most; returns each move's count, in legal
    /// order, and the greedy moves.
    fn draw_counts(spec: &AgentSpec, draws: u64) -> (Vec<(Move, u64)>, Vec<Move>) {
        // Wikipedia's reading: either direction from each outer hole.
        let rules = capped("katro-wikipedia");
        let pos = random_positions(&rules, 200, 7)
            .into_iter()
            .find(|p| {
                let legal = rules.legal_moves(p);
                legal.len() == 12 && max_capture_moves(&rules, p, &legal).len() <= 4
            })
            .expect("a position with 12 moves and few best");
        let legal = rules.legal_moves(&pos);
        let mut counts: Vec<(Move, u64)> = legal.iter().map(|&m| (m, 0)).collect();
        let mut rng = rng_from_seed(3);
        for _ in 0..draws {
            let mv = spec.choose(&rules, &pos, &legal, &mut rng);
            counts.iter_mut().find(|c| c.0 == mv).unwrap().1 += 1;
        }
        (counts, max_capture_moves(&rules, &pos, &legal))
    }

    #[test]
    fn epsilon_one_is_uniform() {
        let n = 6_000;
        let (counts, best) = draw_counts(&AgentSpec::EpsilonGreedy { epsilon: 1.0 }, n);
        assert!(
            best.len() < counts.len(),
            "uniform must differ from greedy here"
        );
        let expected = n as f64 / counts.len() as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&(_, c)| (c as f64 - expected).powi(2) / expected)
            .sum();
        // 31.26 is the 0.999 quantile of chi-square with 11 degrees of
        // freedom: a uniform draw exceeds it once in a thousand seeds.
        assert!(chi2 < 31.26, "chi2 {chi2}, counts {counts:?}");
    }

    #[test]
    fn epsilon_mixes_greedy_and_random_in_proportion() {
        let n = 6_000;
        let epsilon = 0.3;
        let (counts, best) = draw_counts(&AgentSpec::EpsilonGreedy { epsilon }, n);
        let k = counts.len() as f64;
        let m = best.len() as f64;
        // A move outside the greedy set comes only from the random branch.
        let p = epsilon * (k - m) / k;
        let others: u64 = counts
            .iter()
            .filter(|c| !best.contains(&c.0))
            .map(|c| c.1)
            .sum();
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        // Four standard deviations: a correct agent fails once in 15 000.
        assert!(
            (others as f64 - n as f64 * p).abs() < 4.0 * sd,
            "{others} of {n}, expected {}",
            n as f64 * p
        );
    }

    /// The seed-capped 4×4 board the strength tests play on: games are a
    /// few dozen plies and a move is at most 1 000 laps (longer ones end
    /// the game undecided), so a hundred games take well under a second
    /// in a debug build.
    fn small_board() -> Rules {
        custom("rows = 4\nholes = 4\nseeds = 2", "lap_limit = 1000")
    }

    fn spec(text: &str) -> AgentSpec {
        AgentSpec::parse(text).unwrap()
    }

    // Strength. If the stronger agent were no better, it would win each
    // game with probability at most 1/2 (seats alternate, and undecided
    // games count as not won), so its wins would be at most Binomial(n,
    // 1/2). The thresholds below have tail probabilities P(X ≥ k):
    // n = 100, k = 65: 0.0018; n = 60, k = 45: 6.7e-5; n = 40, k = 30:
    // 0.0011. Passing is thus strong evidence of a real difference, while
    // the measured rates (above 85% in exploratory runs) leave a margin.

    /// Asserts `strong` wins at least `at_least` of `games` against
    /// `weak`, seats alternating.
    fn assert_beats(strong: &str, weak: &str, games: u64, at_least: u64, seed: u64) {
        let w = wins(&small_board(), &spec(strong), &spec(weak), games, seed);
        assert!(w >= at_least, "{strong} won {w} of {games} against {weak}");
    }

    #[test]
    fn greedy_beats_random() {
        assert_beats("greedy", "random", 100, 65, 11);
    }

    #[test]
    fn alphabeta_beats_random_and_greedy() {
        assert_beats("alphabeta:depth=3", "random", 100, 65, 12);
        assert_beats("alphabeta:depth=3", "greedy", 100, 65, 13);
    }

    #[test]
    fn the_deep_search_beats_the_plain_search() {
        assert_beats(
            "alphabeta:depth=8,nodes=2000",
            "alphabeta:depth=2",
            60,
            45,
            16,
        );
    }

    #[test]
    fn mcts_beats_random() {
        assert_beats("mcts:iterations=30", "random", 60, 45, 14);
    }

    #[test]
    fn more_mcts_iterations_beat_fewer() {
        assert_beats("mcts:iterations=100", "mcts:iterations=10", 40, 30, 15);
    }

    #[test]
    fn the_same_generator_gives_the_same_move() {
        let rules = small_board();
        let specs = [
            "random",
            "greedy",
            "epsilon-greedy:epsilon=0.5",
            "alphabeta:depth=2",
            "mcts:iterations=40",
            "alphabeta:depth=8,nodes=300,eval=features",
            "mcts:iterations=40,solver=true,rollout=epsilon-greedy,rollout_epsilon=0.2",
        ];
        let mut differs = [false; 7];
        for pos in random_positions(&rules, 20, 21) {
            let legal = rules.legal_moves(&pos);
            for (i, text) in specs.iter().enumerate() {
                let agent = spec(text);
                let mut a = rng_from_seed(5);
                let mut b = rng_from_seed(5);
                let first = agent.choose(&rules, &pos, &legal, &mut a);
                assert_eq!(first, agent.choose(&rules, &pos, &legal, &mut b), "{text}");
                // The generators must also be left in the same state, or
                // the next move of the game would differ.
                assert_eq!(a.next_u64(), b.next_u64(), "{text}");
                let other = agent.choose(&rules, &pos, &legal, &mut rng_from_seed(6));
                differs[i] |= other != first;
            }
        }
        // Every agent draws at random somewhere (random moves or ties), so
        // the check above is not vacuous.
        assert_eq!(differs, [true; 7]);
    }

    #[test]
    fn a_seat_plays_as_its_agent_unless_it_keeps_a_tree() {
        let rules = small_board();
        for text in [
            "random",
            "greedy",
            "epsilon-greedy:epsilon=0.3",
            "alphabeta:depth=2",
            "mcts:iterations=30",
            "mcts:iterations=30,solver=true,rollout=greedy",
        ] {
            let agent = spec(text);
            // One seat for a run of positions: nothing carries over.
            let tables = perfect::Tables::new();
            let mut seat = agent.start_game(&tables);
            for (i, pos) in random_positions(&rules, 12, 23).iter().enumerate() {
                let legal = rules.legal_moves(pos);
                let (mut a, mut b) = (rng_from_seed(i as u64), rng_from_seed(i as u64));
                let mv = seat.choose(&rules, pos, &legal, &mut a);
                assert_eq!(mv, agent.choose(&rules, pos, &legal, &mut b), "{text}");
                assert_eq!(a.next_u64(), b.next_u64(), "{text}");
            }
        }
    }

    #[test]
    fn agents_only_play_legal_moves() {
        let rules = small_board();
        for pos in random_positions(&rules, 10, 22) {
            let legal = rules.legal_moves(&pos);
            for text in [
                "alphabeta:depth=1",
                "alphabeta:depth=4",
                "mcts:iterations=5",
            ] {
                let mv = spec(text).choose(&rules, &pos, &legal, &mut rng_from_seed(1));
                assert!(legal.contains(&mv), "{text} chose {mv:?}");
            }
        }
    }

    #[test]
    fn display_and_parse_round_trip() {
        for text in [
            "random",
            "greedy",
            "epsilon-greedy:epsilon=0.1",
            "epsilon-greedy:epsilon=0",
            "epsilon-greedy:epsilon=1",
            "alphabeta:depth=3",
            "alphabeta:depth=12,nodes=20000",
            "alphabeta:depth=5,nodes=7,tt=10,eval=features",
            "alphabeta:depth=2,eval=seeds",
            "alphabeta:depth=12,nodes=20000,eval=fitted",
            "mcts:iterations=100,exploration=0.7",
            "mcts:iterations=1,exploration=0",
            "mcts:iterations=1000000,exploration=2,time_ms=500",
            "mcts:iterations=10,exploration=1,rollout=greedy",
            "mcts:iterations=10,exploration=1,rollout=epsilon-greedy,rollout_epsilon=0.1",
            "mcts:iterations=10,exploration=1,solver=true",
            "mcts:iterations=10,exploration=1,keep_tree=true",
            "mcts:iterations=10,exploration=1,time_ms=5,rollout=greedy,solver=true,keep_tree=true",
        ] {
            let agent = spec(text);
            assert_eq!(agent.to_string(), text);
            assert_eq!(spec(&agent.to_string()), agent);
        }
        // The default exploration constant prints in full and reads back.
        let mcts = spec("mcts:iterations=5");
        assert_eq!(
            mcts,
            AgentSpec::Mcts {
                iterations: 5,
                exploration: std::f64::consts::SQRT_2,
                time_ms: None,
                rollout: mcts::Rollout::Random,
                rollout_epsilon: None,
                solver: false,
                keep_tree: false,
            }
        );
        assert_eq!(spec(&mcts.to_string()), mcts);
        // The defaults of the newer keys are written as before: the
        // agent's text in committed results is unchanged.
        for text in [
            "mcts:iterations=5,rollout=random",
            "mcts:iterations=5,solver=false,keep_tree=false",
        ] {
            assert_eq!(spec(text), mcts, "{text}");
            assert_eq!(spec(text).to_string(), mcts.to_string(), "{text}");
        }
        // A time budget alone caps the simulations at the most allowed.
        assert_eq!(
            spec("mcts:time_ms=500"),
            AgentSpec::Mcts {
                iterations: MAX_ITERATIONS,
                exploration: std::f64::consts::SQRT_2,
                time_ms: Some(500),
                rollout: mcts::Rollout::Random,
                rollout_epsilon: None,
                solver: false,
                keep_tree: false,
            }
        );
        // Spaces around names and values are allowed.
        assert_eq!(
            spec(" alphabeta : depth = 2 "),
            AgentSpec::Alphabeta {
                depth: 2,
                nodes: None,
                tt: None,
                eval: None
            }
        );
    }

    #[test]
    fn the_serde_form_round_trips_and_validates() {
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        struct Seat {
            p1: AgentSpec,
        }
        for agent in [
            AgentSpec::Random,
            AgentSpec::EpsilonGreedy { epsilon: 0.25 },
            AgentSpec::Mcts {
                iterations: 9,
                exploration: 1.0,
                time_ms: None,
                rollout: mcts::Rollout::Random,
                rollout_epsilon: None,
                solver: false,
                keep_tree: false,
            },
            AgentSpec::Mcts {
                iterations: 9,
                exploration: 1.0,
                time_ms: Some(250),
                rollout: mcts::Rollout::Random,
                rollout_epsilon: None,
                solver: false,
                keep_tree: false,
            },
            spec("mcts:iterations=9,rollout=epsilon-greedy,rollout_epsilon=0.2,solver=true"),
            spec("mcts:iterations=9,rollout=greedy,keep_tree=true"),
        ] {
            let seat = Seat { p1: agent };
            let text = toml::to_string(&seat).unwrap();
            assert_eq!(toml::from_str::<Seat>(&text).unwrap(), seat, "{text}");
        }
        let read = |t: &str| toml::from_str::<Seat>(t).map_err(|e| e.to_string());
        assert_eq!(
            read("p1 = { agent = \"alphabeta\", depth = 2 }")
                .unwrap()
                .p1,
            AgentSpec::Alphabeta {
                depth: 2,
                nodes: None,
                tt: None,
                eval: None
            }
        );
        let err = read("p1 = { agent = \"alphabeta\", depth = 0 }").unwrap_err();
        assert!(err.contains("depth is 0"), "{err}");
        let err = read("p1 = { agent = \"random\", depth = 2 }").unwrap_err();
        assert!(err.contains("depth"), "{err}");
    }

    fn parse_error(text: &str) -> String {
        AgentSpec::parse(text).expect_err(text).to_string()
    }

    #[test]
    fn settings_out_of_range_are_refused() {
        let no_budget = AgentError::NoBudget.to_string();
        for (text, wanted) in [
            (
                "alphabeta:depth=0",
                "depth is 0; it must be a whole number from 1 to 64",
            ),
            (
                "alphabeta:depth=4,nodes=0",
                "nodes is 0; it must be a whole number from 1 to 1000000000",
            ),
            (
                "alphabeta:depth=4,tt=25",
                "tt is 25; it must be a whole number from 1 to 24 (log2 of the table's slots)",
            ),
            (
                "alphabeta:depth=4,eval=material",
                "eval is `material`; it must be one of seeds, features, fitted",
            ),
            (
                "alphabeta:depth=65",
                "depth is 65; it must be a whole number from 1 to 64",
            ),
            (
                "epsilon-greedy:epsilon=-0.1",
                "epsilon is -0.1; it must be a number from 0 to 1",
            ),
            (
                "epsilon-greedy:epsilon=1.5",
                "epsilon is 1.5; it must be a number from 0 to 1",
            ),
            ("epsilon-greedy:epsilon=nan", "epsilon is NaN"),
            (
                "mcts:iterations=0",
                "iterations is 0; it must be a whole number from 1 to 1000000",
            ),
            ("mcts:iterations=5,exploration=-1", "exploration is -1"),
            ("mcts:iterations=5,exploration=inf", "exploration is inf"),
            (
                "mcts:time_ms=0",
                "time_ms is 0; it must be a whole number from 1 to 86400000",
            ),
            ("mcts", &no_budget),
            ("mcts:exploration=1", &no_budget),
            (
                "mcts:iterations=5,rollout=smart",
                "rollout is `smart`; it must be one of random, greedy, epsilon-greedy",
            ),
            (
                "mcts:iterations=5,rollout=epsilon-greedy",
                "rollout=epsilon-greedy needs rollout_epsilon, a number from 0 to 1",
            ),
            (
                "mcts:iterations=5,rollout=epsilon-greedy,rollout_epsilon=1.5",
                "rollout_epsilon is 1.5; it must be a number from 0 to 1",
            ),
            (
                "mcts:iterations=5,rollout_epsilon=0.1",
                "rollout_epsilon is only for rollout=epsilon-greedy (rollout is random)",
            ),
            (
                "mcts:iterations=5,rollout=greedy,rollout_epsilon=0.1",
                "rollout_epsilon is only for rollout=epsilon-greedy (rollout is greedy)",
            ),
            ("alphabeta:depth", "`depth` should be key=value"),
        ] {
            let err = parse_error(text);
            assert!(err.contains(wanted), "{text}: {err}");
            assert!(err.starts_with(&format!("agent `{text}`")), "{text}: {err}");
        }
    }

    /// A value of the wrong type, negative or too large for its type is
    /// refused in katro's words, naming the key and its values, for every
    /// setting of every agent: serde's ("invalid type: ... expected u32")
    /// never reaches the user.
    #[test]
    fn every_setting_of_the_wrong_type_is_refused_in_katros_words() {
        for (text, wanted) in [
            (
                "mcts:iterations=-4",
                "iterations is -4; it must be a whole number from 1 to 1000000",
            ),
            (
                "mcts:iterations=1.5",
                "iterations is 1.5; it must be a whole number from 1 to 1000000",
            ),
            (
                "mcts:iterations=many",
                "iterations is `many`; it must be a whole number from 1 to 1000000",
            ),
            (
                "mcts:iterations=5,exploration=wide",
                "exploration is `wide`; it must be a number of 0 or more",
            ),
            (
                "mcts:iterations=5,time_ms=-1",
                "time_ms is -1; it must be a whole number from 1 to 86400000",
            ),
            (
                "mcts:iterations=5,rollout=5",
                "rollout is `5`; it must be one of random, greedy, epsilon-greedy",
            ),
            (
                "mcts:iterations=5,rollout=epsilon-greedy,rollout_epsilon=x",
                "rollout_epsilon is `x`; it must be a number from 0 to 1",
            ),
            (
                "mcts:iterations=5,solver=yes",
                "solver is `yes`; it must be true or false",
            ),
            (
                "mcts:iterations=5,keep_tree=1",
                "keep_tree is 1; it must be true or false",
            ),
            (
                "alphabeta:depth=-2",
                "depth is -2; it must be a whole number from 1 to 64",
            ),
            (
                "alphabeta:depth=two",
                "depth is `two`; it must be a whole number from 1 to 64",
            ),
            (
                "alphabeta:depth=3.0",
                "depth is 3.0; it must be a whole number from 1 to 64",
            ),
            (
                "alphabeta:depth=99999999999",
                "depth is 99999999999; it must be a whole number from 1 to 64",
            ),
            (
                "alphabeta:depth=4,nodes=-1",
                "nodes is -1; it must be a whole number from 1 to 1000000000",
            ),
            (
                "alphabeta:depth=4,tt=true",
                "tt is true; it must be a whole number from 1 to 24 (log2 of the table's slots)",
            ),
            (
                "alphabeta:depth=4,eval=3",
                "eval is `3`; it must be one of seeds, features, fitted",
            ),
            (
                "alphabeta",
                "alphabeta needs depth, a whole number from 1 to 64 (`alphabeta:depth=...`)",
            ),
            (
                "epsilon-greedy",
                "epsilon-greedy needs epsilon, a number from 0 to 1 (`epsilon-greedy:epsilon=...`)",
            ),
            (
                "epsilon-greedy:epsilon=often",
                "epsilon is `often`; it must be a number from 0 to 1",
            ),
        ] {
            let err = parse_error(text);
            assert_eq!(err, format!("agent `{text}`: {wanted}"), "{text}");
        }
        // The same words for an experiment's table of settings.
        let table: toml::Value = toml::from_str("agent = \"mcts\"\niterations = -4").unwrap();
        let err = table.try_into::<AgentSpec>().unwrap_err();
        assert!(
            err.message()
                .contains("iterations is -4; it must be a whole number from 1 to 1000000"),
            "{err}"
        );
    }

    #[test]
    fn mistyped_agents_keys_and_values_get_a_suggestion() {
        for (text, wanted) in [
            (
                "alphabta:depth=3",
                "unknown agent `alphabta` (did you mean \"alphabeta\"?)",
            ),
            (
                "grredy",
                "unknown agent `grredy` (did you mean \"greedy\"?)",
            ),
            (
                "alphabeta:deph=3",
                "alphabeta takes depth, nodes, tt, eval; `deph` is not one (did you mean \"depth\"?)",
            ),
            (
                "mcts:iterations=5,rollout_epsilno=0.1",
                "(did you mean \"rollout_epsilon\"?)",
            ),
            (
                "alphabeta:depth=2,eval=fited",
                "eval is `fited` (did you mean \"fitted\"?)",
            ),
            (
                "mcts:iterations=5,rollout=gredy",
                "(did you mean \"greedy\"?)",
            ),
        ] {
            let err = parse_error(text);
            assert!(err.contains(wanted), "{text}: {err}");
        }
        let err = parse_error("minimax:depth=2");
        assert!(!err.contains("did you mean"), "{err}");
    }

    #[test]
    fn only_a_time_budget_is_not_reproducible() {
        for text in [
            "random",
            "greedy",
            "epsilon-greedy:epsilon=0.1",
            "alphabeta:depth=2",
            "mcts:iterations=100",
        ] {
            assert_eq!(spec(text).reproducible(), Ok(()), "{text}");
        }
        for text in ["mcts:time_ms=100", "mcts:iterations=50,time_ms=100"] {
            let err = spec(text).reproducible().unwrap_err();
            assert!(
                matches!(&err, AgentError::In { error, .. } if **error == AgentError::TimeBudget),
                "{text}: {err}"
            );
        }
    }

    /// The keys checked before serde reads an agent are the ones its raw
    /// form takes: none is refused as unknown by serde or by katro.
    #[test]
    fn the_keys_katro_checks_are_the_keys_serde_reads() {
        for (agent, keys) in AGENT_KEYS {
            for key in keys {
                let mut table = toml::Table::new();
                table.insert("agent".into(), agent.into());
                table.insert(key.to_string(), "?".into());
                let err = AgentSpec::from_table(table);
                assert!(
                    !matches!(
                        err,
                        Err(AgentError::Unread { .. } | AgentError::UnknownKey { .. })
                    ),
                    "{agent}: {key}: {err:?}"
                );
            }
        }
        let names: Vec<&str> = AGENT_KEYS.iter().map(|(a, _)| *a).collect();
        let levels: Vec<&str> = levels::LEVELS
            .iter()
            .map(|l| l.name)
            .filter(|n| !names.contains(n))
            .collect();
        assert_eq!(
            format!("{}; levels: {}", names.join(", "), levels.join(", ")),
            AGENT_NAMES
        );
    }

    #[test]
    fn unknown_agents_and_keys_are_named() {
        let err = parse_error("minimax:depth=2");
        assert!(
            err.contains("`minimax`") && err.contains(AGENT_NAMES),
            "{err}"
        );
        for (text, wanted) in [
            (
                "alphabeta:depth=2,width=3",
                "alphabeta takes depth, nodes, tt, eval; `width` is not one",
            ),
            (
                "random:depth=3",
                "random takes no settings; `depth` is not one",
            ),
            (
                "greedy:epsilon=0.1",
                "greedy takes no settings; `epsilon` is not one",
            ),
            (
                "perfect:depth=3",
                "perfect takes no settings; `depth` is not one",
            ),
            (
                "epsilon-greedy:eps=0.1",
                "epsilon-greedy takes epsilon; `eps` is not one (did you mean \"epsilon\"?)",
            ),
            (
                "mcts:iterations=5,iteration=6",
                "mcts takes iterations, exploration, time_ms, rollout, rollout_epsilon, \
                 solver, keep_tree; `iteration` is not one (did you mean \"iterations\"?)",
            ),
            ("mcts:iterations=5,solve=true", "`solve` is not one"),
        ] {
            let err = parse_error(text);
            assert!(
                err.starts_with(&format!("agent `{text}`: ")) && err.ends_with(wanted)
                    || err.contains(&format!("{wanted} (did you mean")),
                "{text}: {err}"
            );
        }
    }
}

mod seat;
pub use seat::Need;
