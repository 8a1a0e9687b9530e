//! An agent named for a seat of a game the caller is about to play: parsed,
//! then checked for what that caller needs, in one place for `katro
//! simulate`, `katro bench` and `katro play`.

use super::AgentSpec;
use crate::rules::Rules;

/// What a caller needs of an agent beyond parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Games that reproduce from the seed (no time budget): simulate and
    /// bench replay the same games.
    Reproducible,
    /// An agent that can play now, time budgets allowed: play.
    Playable,
}

impl AgentSpec {
    /// `text` parsed and checked for `need` and, when given, for `rules`
    /// (a `perfect` agent on a board too big to solve). The checks run in
    /// the order each command ran them, so the first problem named is the
    /// same as before.
    pub fn seat(
        text: &str,
        rules: Option<&Rules>,
        need: Need,
    ) -> Result<AgentSpec, super::AgentError> {
        let agent = AgentSpec::parse(text)?;
        if need == Need::Reproducible {
            agent.reproducible()?;
        }
        if let Some(rules) = rules {
            agent.check_variant(rules)?;
        }
        if need == Need::Playable {
            agent.validate()?;
        }
        Ok(agent)
    }
}
