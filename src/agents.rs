//! Players: each chooses a legal move given the rules, the position and a
//! random generator, and is deterministic given that generator.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engine::{Move, MoveList, Position, Silent};
use crate::rng::{GameRng, below, unit};
use crate::rules::Rules;

/// An agent and its settings, as written in experiment files
/// (`{ agent = "alphabeta", depth = 3 }`) or on the command line
/// (`alphabeta:depth=3`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "agent", rename_all = "kebab-case", deny_unknown_fields)]
pub enum AgentSpec {
    /// Uniform over the legal moves.
    Random,
    /// The move that captures most seeds this turn, ties at random.
    Greedy,
    /// Greedy, but a uniformly random move with probability `epsilon`.
    EpsilonGreedy { epsilon: f64 },
    /// Depth-limited alpha-beta search.
    Alphabeta { depth: u32 },
    /// UCT Monte Carlo tree search with random rollouts.
    Mcts {
        iterations: u32,
        #[serde(default = "default_exploration")]
        exploration: f64,
    },
}

fn default_exploration() -> f64 {
    std::f64::consts::SQRT_2
}

pub const AGENT_NAMES: &str = "random, greedy, epsilon-greedy, alphabeta, mcts";
pub const MAX_DEPTH: u32 = 12;
pub const MAX_ITERATIONS: u32 = 1_000_000;

impl AgentSpec {
    /// Reads `name` or `name:key=value,key=value`.
    pub fn parse(text: &str) -> Result<AgentSpec, String> {
        let (name, args) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), a.trim()),
            None => (text.trim(), ""),
        };
        let mut table = toml::Table::new();
        table.insert("agent".into(), toml::Value::String(name.to_string()));
        for pair in args.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| format!("agent `{text}`: `{pair}` should be key=value"))?;
            let value = v
                .trim()
                .parse::<i64>()
                .map(toml::Value::Integer)
                .or_else(|_| v.trim().parse::<f64>().map(toml::Value::Float))
                .unwrap_or_else(|_| toml::Value::String(v.trim().to_string()));
            table.insert(k.trim().to_string(), value);
        }
        let spec: AgentSpec =
            toml::Value::Table(table)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    format!("agent `{text}`: {} (agents: {AGENT_NAMES})", e.message())
                })?;
        spec.validate()
            .map_err(|e| format!("agent `{text}`: {e}"))?;
        Ok(spec)
    }

    /// Checks every setting is in range.
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            AgentSpec::Random | AgentSpec::Greedy => Ok(()),
            AgentSpec::EpsilonGreedy { epsilon } => {
                if (0.0..=1.0).contains(&epsilon) {
                    Ok(())
                } else {
                    Err(format!("epsilon is {epsilon}; it must be from 0 to 1"))
                }
            }
            AgentSpec::Alphabeta { depth } => {
                if (1..=MAX_DEPTH).contains(&depth) {
                    Ok(())
                } else {
                    Err(format!(
                        "depth is {depth}; it must be from 1 to {MAX_DEPTH}"
                    ))
                }
            }
            AgentSpec::Mcts {
                iterations,
                exploration,
            } => {
                if !(1..=MAX_ITERATIONS).contains(&iterations) {
                    Err(format!(
                        "iterations is {iterations}; it must be from 1 to {MAX_ITERATIONS}"
                    ))
                } else if !(exploration.is_finite() && exploration >= 0.0) {
                    Err(format!(
                        "exploration is {exploration}; it must be a number of 0 or more"
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Chooses a move; `legal` must be the non-empty legal moves of `pos`.
    pub fn choose(
        &self,
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
            AgentSpec::Alphabeta { .. } | AgentSpec::Mcts { .. } => {
                unimplemented!("search agents are being written")
            }
        }
    }
}

impl fmt::Display for AgentSpec {
    /// The agent as written on the command line; used in output rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AgentSpec::Random => write!(f, "random"),
            AgentSpec::Greedy => write!(f, "greedy"),
            AgentSpec::EpsilonGreedy { epsilon } => write!(f, "epsilon-greedy:epsilon={epsilon}"),
            AgentSpec::Alphabeta { depth } => write!(f, "alphabeta:depth={depth}"),
            AgentSpec::Mcts {
                iterations,
                exploration,
            } => write!(f, "mcts:iterations={iterations},exploration={exploration}"),
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
