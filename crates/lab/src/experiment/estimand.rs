//! What a cell's first-player share estimates (summary.csv's `estimand`,
//! docs/OUTPUTS.md): it follows from the agents and the random opening
//! alone, so summary.csv, the console and the report say it alike, and a
//! share over random openings is never read as the value of the start.

use crate::agents::AgentSpec;

/// What `p1_win_rate` of a cell estimates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Estimand {
    /// The agents' share of the decided games over k random opening plies
    /// (k = 0: from the start, the agents' own draws spreading the games).
    AgentShare,
    /// The start's value under two agents that choose only among tied
    /// best moves, with no random opening: the games differ only by those
    /// tie-breaks, so the number is a value, not a share of openings.
    AgentValue,
    /// `perfect` in both seats after k > 0 random plies: each game's
    /// result is the exact value of the position the opening reached, so
    /// the share estimates, by sampling, the exact share over k random
    /// opening plies (exact-openings.csv and openings.csv compute it).
    ExactShare,
    /// `perfect` in both seats from the start: every game is the start's
    /// exact value.
    ExactValue,
}

impl Estimand {
    pub const ALL: [Estimand; 4] = [
        Estimand::AgentShare,
        Estimand::AgentValue,
        Estimand::ExactShare,
        Estimand::ExactValue,
    ];

    /// The estimand of a cell of `p1` against `p2` after `opening_plies`
    /// random plies.
    pub fn of(p1: &AgentSpec, p2: &AgentSpec, opening_plies: u32) -> Estimand {
        let perfect = *p1 == AgentSpec::Perfect && *p2 == AgentSpec::Perfect;
        // The agents `openings = "exact"` follows: their moves are the
        // position's but for a draw among tied best moves.
        let ties_only = p1.draws_beyond_ties().is_none() && p2.draws_beyond_ties().is_none();
        match (perfect, opening_plies) {
            (true, 0) => Estimand::ExactValue,
            (true, _) => Estimand::ExactShare,
            (false, 0) if ties_only => Estimand::AgentValue,
            _ => Estimand::AgentShare,
        }
    }

    /// As summary.csv writes it.
    pub fn name(self) -> &'static str {
        match self {
            Estimand::AgentShare => "agent-share",
            Estimand::AgentValue => "agent-value",
            Estimand::ExactShare => "exact-share",
            Estimand::ExactValue => "exact-value",
        }
    }

    pub fn parse(text: &str) -> Option<Estimand> {
        Estimand::ALL.into_iter().find(|e| e.name() == text)
    }

    /// In words, for `opening_plies` random plies, played by `who` (`greedy
    /// self-play`, or `each cell's agents` when the phrase covers several
    /// matchups): "greedy self-play's share over 4 random opening plies".
    /// The opening is always counted, 0 included, so that no share is read
    /// without the k it is over.
    pub fn phrase(self, opening_plies: u32, who: &str) -> String {
        let over = crate::engine::notation::plural(
            opening_plies,
            "random opening ply",
            "random opening plies",
        );
        let whose = if who.ends_with('s') {
            format!("{who}'")
        } else {
            format!("{who}'s")
        };
        match self {
            Estimand::AgentShare if opening_plies == 0 => format!(
                "{whose} share over 0 random opening plies (from the start, the games spread by \
                 the agents' own random moves)"
            ),
            Estimand::AgentShare => format!("{whose} share over {over}"),
            Estimand::AgentValue => format!(
                "{whose} value of the start, not a share over openings: with 0 random opening \
                 plies the games differ only by the agents' draws among tied best moves (one \
                 game if none tie)"
            ),
            Estimand::ExactShare => {
                format!("exact share over {over}, sampled by perfect self-play")
            }
            Estimand::ExactValue => {
                "exact value of the start (perfect self-play: each game's result is that value)"
                    .into()
            }
        }
    }
}

/// The matchup as the estimand's words name it: `alphabeta self-play`
/// (the agents' family, their settings being in the row) or `greedy vs
/// random`.
pub fn matchup_words(p1: &str, p2: &str) -> String {
    if p1 == p2 {
        let family = p1.split(':').next().unwrap_or(p1);
        format!("{family} self-play")
    } else {
        format!(
            "{} vs {}",
            crate::agents::label(p1),
            crate::agents::label(p2)
        )
    }
}

/// One cell as the legend counts it: its estimand, random opening plies
/// and agents as written (`p1`, `p2`).
pub struct Described<'a> {
    pub estimand: Estimand,
    pub opening_plies: u32,
    pub p1: &'a str,
    pub p2: &'a str,
}

/// What the cells' shares estimate, one phrase per estimand and opening in
/// order of first appearance: `alphabeta self-play's share over 4 random
/// opening plies` when all its cells are one matchup's (else `each
/// {noun}'s agents'`), with how many `noun`s (cells, rows) it covers, or
/// `every {noun}` when it covers all of them.
pub fn legend(cells: &[Described], noun: &str) -> Vec<String> {
    let mut groups: Vec<((Estimand, u32), Vec<&Described>)> = Vec::new();
    for c in cells {
        let key = (c.estimand, c.opening_plies);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(c),
            None => groups.push((key, vec![c])),
        }
    }
    let whole = groups.len() == 1;
    groups
        .iter()
        .map(|((estimand, open), members)| {
            let first = matchup_words(members[0].p1, members[0].p2);
            let one_matchup = members.iter().all(|c| matchup_words(c.p1, c.p2) == first);
            let who = if one_matchup {
                first
            } else {
                format!("each {noun}'s agents")
            };
            let n = members.len();
            let count = match (whole, n) {
                (true, 1) => String::new(),
                (true, _) => format!(", every {noun}"),
                (false, 1) => format!(" (1 {noun})"),
                (false, _) => format!(" ({n} {noun}s)"),
            };
            format!("{}{count}", estimand.phrase(*open, &who))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(text: &str) -> AgentSpec {
        AgentSpec::parse(text).unwrap()
    }

    #[test]
    fn the_estimand_follows_the_agents_and_the_opening() {
        let cases = [
            ("random", "random", 0, Estimand::AgentShare),
            ("random", "greedy", 4, Estimand::AgentShare),
            (
                "alphabeta:depth=4",
                "alphabeta:depth=4",
                4,
                Estimand::AgentShare,
            ),
            ("alphabeta:depth=4", "greedy", 0, Estimand::AgentValue),
            (
                "epsilon-greedy:epsilon=0",
                "greedy",
                0,
                Estimand::AgentValue,
            ),
            (
                "epsilon-greedy:epsilon=0.1",
                "greedy",
                0,
                Estimand::AgentShare,
            ),
            ("mcts:iterations=10", "greedy", 0, Estimand::AgentShare),
            ("perfect", "perfect", 4, Estimand::ExactShare),
            ("perfect", "perfect", 0, Estimand::ExactValue),
            ("perfect", "greedy", 0, Estimand::AgentValue),
            ("perfect", "greedy", 2, Estimand::AgentShare),
        ];
        for (p1, p2, open, want) in cases {
            assert_eq!(
                Estimand::of(&agent(p1), &agent(p2), open),
                want,
                "{p1} {p2} {open}"
            );
            assert_eq!(Estimand::parse(want.name()), Some(want));
        }
        assert_eq!(Estimand::parse("share"), None);
    }

    #[test]
    fn the_words_name_the_opening_and_the_matchup() {
        assert_eq!(
            Estimand::AgentShare.phrase(4, "greedy self-play"),
            "greedy self-play's share over 4 random opening plies"
        );
        assert_eq!(
            Estimand::AgentShare.phrase(1, "each row's agents"),
            "each row's agents' share over 1 random opening ply"
        );
        assert_eq!(
            Estimand::AgentShare.phrase(0, "random self-play"),
            "random self-play's share over 0 random opening plies (from the start, the games \
             spread by the agents' own random moves)"
        );
        assert_eq!(
            Estimand::AgentValue.phrase(0, "greedy vs alphabeta:depth=4"),
            "greedy vs alphabeta:depth=4's value of the start, not a share over openings: with \
             0 random opening plies the games differ only by the agents' draws among tied best \
             moves (one game if none tie)"
        );
        assert_eq!(
            Estimand::ExactShare.phrase(6, "perfect self-play"),
            "exact share over 6 random opening plies, sampled by perfect self-play"
        );
        assert_eq!(
            Estimand::ExactValue.phrase(0, "perfect self-play"),
            "exact value of the start (perfect self-play: each game's result is that value)"
        );
        assert_eq!(
            matchup_words(
                "alphabeta:depth=12,nodes=20000",
                "alphabeta:depth=12,nodes=20000"
            ),
            "alphabeta self-play"
        );
        assert_eq!(matchup_words("greedy", "random"), "greedy vs random");
        let cell = |estimand, opening_plies, p1, p2| Described {
            estimand,
            opening_plies,
            p1,
            p2,
        };
        let ab = "alphabeta:depth=4";
        assert_eq!(
            legend(&[cell(Estimand::AgentShare, 4, ab, ab)], "cell"),
            ["alphabeta self-play's share over 4 random opening plies"]
        );
        assert_eq!(
            legend(
                &[
                    cell(Estimand::AgentShare, 4, ab, ab),
                    cell(Estimand::AgentShare, 4, "random", "random"),
                ],
                "cell"
            ),
            ["each cell's agents' share over 4 random opening plies, every cell"]
        );
        assert_eq!(
            legend(
                &[
                    cell(Estimand::AgentShare, 4, ab, "random"),
                    cell(Estimand::ExactShare, 4, "perfect", "perfect"),
                    cell(Estimand::AgentShare, 4, "random", "random"),
                ],
                "row"
            ),
            [
                "each row's agents' share over 4 random opening plies (2 rows)",
                "exact share over 4 random opening plies, sampled by perfect self-play (1 row)"
            ]
        );
    }
}
