//! Named strength levels: `random`, `greedy`, `weak`, `medium`, `strong`
//! and `strongest`, short names for agent strings, read wherever an agent
//! is ([`AgentSpec::parse`], [`AgentSpec::from_table`]). A name is
//! expanded when it is read, into exactly the agent of its string: the
//! same [`AgentSpec`], so the same canonical text in every label, CSV
//! column and game seed, and the same games. The ladder is
//! experiments/strong-play.toml's (its ratings on katro-6x6 are in
//! results/strong-play/ratings.csv; `katro agents` shows them).

use super::AgentSpec;

/// A strength level: a name standing for an agent string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    /// The agent the name stands for, as [`AgentSpec`]'s `Display` writes
    /// it (its canonical text).
    pub agent: &'static str,
}

/// The levels, weakest first. `random` and `greedy` are agents' own names.
pub const LEVELS: [Level; 6] = [
    Level {
        name: "random",
        agent: "random",
    },
    Level {
        name: "greedy",
        agent: "greedy",
    },
    Level {
        name: "weak",
        agent: "alphabeta:depth=2",
    },
    Level {
        name: "medium",
        agent: "alphabeta:depth=4",
    },
    Level {
        name: "strong",
        agent: "alphabeta:depth=12,nodes=1000,eval=fitted",
    },
    Level {
        name: "strongest",
        agent: "alphabeta:depth=12,nodes=20000,eval=fitted",
    },
];

/// The level called `name`, if any (names are case-sensitive, as agents').
pub fn level(name: &str) -> Option<&'static Level> {
    LEVELS.iter().find(|l| l.name == name)
}

impl Level {
    /// The agent the level stands for.
    pub fn spec(&self) -> AgentSpec {
        AgentSpec::parse(self.agent).expect("every level's agent reads (tested)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{AGENT_KEYS, AGENT_NAMES};
    use crate::game::play_game;
    use crate::rules::preset;

    #[test]
    fn each_name_reads_as_its_string_with_the_same_label() {
        for l in LEVELS {
            let by_name = AgentSpec::parse(l.name).unwrap();
            let by_string = AgentSpec::parse(l.agent).unwrap();
            assert_eq!(by_name, by_string, "{}", l.name);
            assert_eq!(by_name.to_string(), l.agent, "{}: canonical text", l.name);
            assert_eq!(by_name.label(), by_string.label(), "{}", l.name);
            // The table form of experiment files reads the name too.
            let mut table = toml::Table::new();
            table.insert("agent".into(), l.name.into());
            assert_eq!(AgentSpec::from_table(table).unwrap(), by_string);
            assert_eq!(l.spec(), by_string);
        }
    }

    #[test]
    fn a_name_plays_the_games_of_its_string() {
        let rules = preset("katro-4x4").unwrap();
        for l in &LEVELS[..4] {
            let (a, b) = (l.spec(), AgentSpec::parse(l.agent).unwrap());
            for seed in 0..3 {
                assert_eq!(
                    play_game(&rules, &a, &a, 2, seed, None),
                    play_game(&rules, &b, &b, 2, seed, None),
                    "{}",
                    l.name
                );
            }
        }
    }

    #[test]
    fn the_ladder_is_strong_plays_weakest_first() {
        let names: Vec<&str> = LEVELS.iter().map(|l| l.name).collect();
        assert_eq!(
            names,
            ["random", "greedy", "weak", "medium", "strong", "strongest"]
        );
        // The agents' own names stand for themselves.
        for (agent, _) in AGENT_KEYS {
            if let Some(l) = level(agent) {
                assert_eq!(l.agent, agent);
            }
        }
        assert!(level("Strong").is_none());
        for l in LEVELS {
            assert!(AGENT_NAMES.contains(l.name), "{}", l.name);
        }
    }

    #[test]
    fn a_level_takes_no_settings_and_a_mistyped_one_gets_a_suggestion() {
        let err = AgentSpec::parse("strong:nodes=5000")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "agent `strong:nodes=5000`: strong is a level, the agent \
             alphabeta:depth=12,nodes=1000,eval=fitted, and takes no settings; `nodes` is \
             not one: write the agent in full to change a setting"
        );
        let err = AgentSpec::parse("stong").unwrap_err().to_string();
        assert!(
            err.contains("unknown agent `stong` (did you mean \"strong\"?)"),
            "{err}"
        );
        assert!(
            err.contains("`strongest`") && err.contains(AGENT_NAMES),
            "{err}"
        );
        let err = AgentSpec::parse("Medium").unwrap_err().to_string();
        assert!(err.contains("(did you mean \"medium\"?)"), "{err}");
    }
}
