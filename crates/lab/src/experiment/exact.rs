//! A matchup's exact first-player share over every opening of `k`
//! uniformly random plies (an experiment's `openings = "exact"`,
//! docs/EXPERIMENTS.md, "Exact openings"): no game is sampled.
//!
//! A game of agents that draw nothing but a uniform choice among tied
//! best moves ([`AgentSpec::ties`]) is a Markov chain on positions: the
//! opening's plies are uniform over the legal moves, a forced move is
//! played with probability 1 (docs/EXPERIMENTS.md, "Random opening
//! plies"), and each agent's move is uniform over its ties. So the
//! probability of every outcome is carried forward move by move from the
//! openings of [`openings`] (each with its exact probability, the product
//! of 1/legal-moves along it), positions reached by several lines merged
//! with their probabilities summed, until every line has ended. Every
//! probability is an exact fraction ([`Probability`]): the share is exact,
//! tie draws included, not an estimate.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use rayon::prelude::*;

use crate::agents::AgentSpec;
use crate::agents::perfect::Tables;
use crate::engine::{Move, Player, Position, Status};
use crate::rules::Rules;
use crate::solve::openings::{Opening, OpeningsError, openings};

/// An exact probability in lowest terms, of any size: a line's
/// denominator is the product of the move counts it was split by, and a
/// long line of tied moves takes it past any fixed width (4x3 with 1 seed
/// under its default ply limit went past 128 bits).
pub type Probability = num_rational::Ratio<BigUint>;

/// `p` as the nearest float (0 for a value too small for one).
pub fn to_f64(p: &Probability) -> f64 {
    p.to_f64().unwrap_or(0.0)
}

/// The most distinct openings enumerated.
pub const MAX_OPENINGS: usize = 1 << 20;

/// The most distinct positions carried from one move to the next.
pub const MAX_POSITIONS: usize = 1 << 22;

/// The most positions followed in all, over every move: tied moves that
/// cycle keep a class of positions alive to the ply limit (4x3 with 1 seed,
/// `alphabeta:depth=2` against `greedy`, 3 opening plies: 31,056 positions
/// at every ply from ply 103 on, some 155 million to ply 5,000), and such a
/// matchup is refused after this much work rather than left running.
pub const MAX_FOLLOWED: u64 = 1 << 22;

/// The exact outcome of a matchup over every opening, each weighted by its
/// probability.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactShare {
    /// The probability that player 1 (South, moving first) wins.
    pub p1_wins: Probability,
    /// The probability that the game ends undecided (ply limit, lap limit,
    /// endless move).
    pub undecided: Probability,
    pub p2_wins: Probability,
    /// Distinct opening positions.
    pub openings: usize,
    /// Distinct positions where an agent chose among two or more moves:
    /// the searches made.
    pub decisions: u64,
    /// Of those, the ones where the agent's best moves tied, so its draw
    /// among them split the line.
    pub tied: u64,
}

impl ExactShare {
    /// Player 1's share of the decided games (summary.csv's
    /// `p1_win_rate`); `None` when no line is decided.
    pub fn p1_decided_share(&self) -> Option<f64> {
        let decided = &self.p1_wins + &self.p2_wins;
        (!decided.is_zero()).then(|| to_f64(&(&self.p1_wins / decided)))
    }
}

/// Why a matchup's exact share could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    #[error("{0}")]
    Openings(#[from] OpeningsError),
    #[error(
        "more than {0} distinct positions after the openings: too many lines to follow exactly"
    )]
    TooMany(usize),
    #[error(
        "more than {0} positions followed after the openings: lines too long to follow exactly \
         (tied moves that cycle until the ply limit?)"
    )]
    TooLong(u64),
    #[error("agent `{agent}` {why}: its games are not a function of their opening")]
    Random { agent: String, why: &'static str },
}

/// The exact outcome of `p1` against `p2` on `rules` over every opening of
/// `opening_plies` random plies, on `threads` threads (the result is the
/// same for any count: every sum is exact).
pub fn exact_share(
    rules: &Rules,
    p1: &AgentSpec,
    p2: &AgentSpec,
    opening_plies: u32,
    threads: usize,
) -> Result<ExactShare, ExactError> {
    exact_share_within(rules, p1, p2, opening_plies, threads, MAX_FOLLOWED)
}

/// [`exact_share`], refused past `max_followed` positions followed.
fn exact_share_within(
    rules: &Rules,
    p1: &AgentSpec,
    p2: &AgentSpec,
    opening_plies: u32,
    threads: usize,
    max_followed: u64,
) -> Result<ExactShare, ExactError> {
    refuse_random(p1, p2)?;
    let start = openings(rules, opening_plies, MAX_OPENINGS)?;
    let openings_count = start.len();
    // One set of perfect-play tables for every search, as a run shares
    // one between its games.
    let tables = Tables::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("a thread pool");
    let (mut den, mut layer) = over_one_denominator(start);
    // p1 wins, undecided, p2 wins, over `den`.
    let mut ends = [BigUint::zero(), BigUint::zero(), BigUint::zero()];
    let mut counts = Counts::default();
    while !layer.is_empty() {
        let live = settle_ended(rules, layer, &mut ends);
        counts.followed += live.len() as u64;
        if counts.followed > max_followed {
            return Err(ExactError::TooLong(max_followed));
        }
        // The searches, the costly part, in parallel; the merge below is
        // in `live`'s order, so the layers are the same for any threads.
        let choices: Vec<(Vec<Move>, bool)> = pool.install(|| {
            live.par_iter()
                .map(|(pos, _)| choose(rules, &tables, p1, p2, pos))
                .collect()
        });
        let split = split_denominator(&choices, &mut den, &mut ends);
        layer = next_layer(rules, &live, choices, split, &mut counts)?;
    }
    let [p1_wins, undecided, p2_wins] = ends.map(|e| Probability::new(e, den.clone()));
    Ok(ExactShare {
        p1_wins,
        undecided,
        p2_wins,
        openings: openings_count,
        decisions: counts.decisions,
        tied: counts.tied,
    })
}

/// Positions of a layer, each with its probability's numerator over the
/// layer's one denominator.
type Layer = Vec<(Position, BigUint)>;

/// The searches made, those whose best moves tied, and the positions
/// followed, so far.
#[derive(Default)]
struct Counts {
    decisions: u64,
    tied: u64,
    followed: u64,
}

/// An agent drawing beyond its ties makes games that no opening decides.
fn refuse_random(p1: &AgentSpec, p2: &AgentSpec) -> Result<(), ExactError> {
    for a in [p1, p2] {
        if let Some(why) = a.draws_beyond_ties() {
            return Err(ExactError::Random {
                agent: a.to_string(),
                why,
            });
        }
    }
    Ok(())
}

/// The openings over their common denominator, and that denominator.
///
/// Every probability of a layer is a numerator over the layer's one
/// denominator `den`, and so are the outcomes' sums: adding them is then
/// an integer sum. Fractions in lowest terms paid a gcd of numbers of
/// thousands of bits at every addition, which left the tiny board's
/// lines (5,000 plies long under its ply limit) unfinished after
/// minutes; here one reduction at the end is all.
fn over_one_denominator(start: Vec<Opening>) -> (BigUint, Layer) {
    let mut den = BigUint::one();
    for o in &start {
        den = den.lcm(&BigUint::from(o.probability.den));
    }
    let layer = start
        .into_iter()
        .map(|o| {
            let p = o.probability;
            (o.position, BigUint::from(p.num) * (&den / p.den))
        })
        .collect();
    (den, layer)
}

/// Adds the ended lines of `layer` to `ends` (p1 wins, undecided, p2
/// wins) and returns the others.
fn settle_ended(rules: &Rules, layer: Layer, ends: &mut [BigUint; 3]) -> Layer {
    let mut live: Layer = Vec::with_capacity(layer.len());
    for (pos, p) in layer {
        let legal = rules.legal_moves(&pos);
        if pos.ended().is_none() && !legal.is_empty() {
            live.push((pos, p));
            continue;
        }
        let slot = match rules.status(&pos) {
            Status::Won(Player::South) => 0,
            Status::Won(Player::North) => 2,
            _ => 1,
        };
        ends[slot] += p;
    }
    live
}

/// The moves the agent to move at `pos` draws among, and whether it
/// searched for them (false for a forced move).
fn choose(
    rules: &Rules,
    tables: &Tables,
    p1: &AgentSpec,
    p2: &AgentSpec,
    pos: &Position,
) -> (Vec<Move>, bool) {
    let legal = rules.legal_moves(pos);
    if legal.len() == 1 {
        return (vec![legal[0]], false);
    }
    let agent = match pos.to_move() {
        Player::South => p1,
        Player::North => p2,
    };
    let ties = agent
        .ties(tables, rules, pos, &legal)
        .expect("agents drawing beyond ties are refused above");
    (ties, true)
}

/// Multiplies `den` and `ends` by the next denominator's factor, which
/// every split of this layer divides, and returns it.
fn split_denominator(
    choices: &[(Vec<Move>, bool)],
    den: &mut BigUint,
    ends: &mut [BigUint; 3],
) -> u64 {
    let split = choices
        .iter()
        .fold(1u64, |l, (moves, _)| l.lcm(&(moves.len() as u64)));
    if split > 1 {
        *den *= split;
        for e in ends {
            *e *= split;
        }
    }
    split
}

/// The positions after every choice of `live`, those reached by several
/// lines merged with their probabilities summed.
fn next_layer(
    rules: &Rules,
    live: &Layer,
    choices: Vec<(Vec<Move>, bool)>,
    split: u64,
    counts: &mut Counts,
) -> Result<Layer, ExactError> {
    let mut next: Layer = Vec::new();
    let mut at: HashMap<Position, usize> = HashMap::new();
    for ((pos, p), (moves, chosen)) in live.iter().zip(choices) {
        if chosen {
            counts.decisions += 1;
            counts.tied += u64::from(moves.len() > 1);
        }
        let each = p * (split / moves.len() as u64);
        for mv in moves {
            let mut after = *pos;
            rules
                .play(&mut after, mv)
                .expect("a move legal_moves lists is legal");
            match at.get(&after) {
                Some(&i) => next[i].1 += &each,
                None => {
                    at.insert(after, next.len());
                    next.push((after, each.clone()));
                }
            }
        }
        if next.len() > MAX_POSITIONS {
            return Err(ExactError::TooMany(MAX_POSITIONS));
        }
    }
    Ok(next)
}

// ---------------------------------------------------------------------------
// The experiment file's `openings` key (docs/EXPERIMENTS.md, "Exact openings")

use super::{Matchup, RawExperiment, RawMatchup, Sp};
use crate::rules::Problems;

/// The agents `openings = "exact"` takes, for the messages.
const EXACT_AGENTS: &str = "greedy, epsilon-greedy with epsilon = 0, alphabeta or perfect: agents \
                            that draw only among tied best moves";

/// `"exact"` → true, `"sampled"` → false; `None` after reporting another.
fn kind(p: &mut Problems, v: &Sp<String>, key: &str) -> Option<bool> {
    match v.get_ref().as_str() {
        "exact" => Some(true),
        "sampled" => Some(false),
        other => {
            p.add(
                Some(v.span()),
                key,
                format!(
                    "`{other}` is not a kind of openings: give \"sampled\" (the default: each \
                     game draws its opening) or \"exact\" (every opening once, weighted by its \
                     probability)"
                ),
            );
            None
        }
    }
}

/// The experiment's `openings`: whether its matchups are exact unless
/// they say otherwise; `None` after reporting a problem.
pub(super) fn top_level(
    p: &mut Problems,
    v: Option<&Sp<String>>,
    tournament: bool,
) -> Option<bool> {
    let Some(v) = v else {
        return Some(false);
    };
    let exact = kind(p, v, "openings")?;
    if exact && tournament {
        p.add(
            Some(v.span()),
            "openings",
            "\"exact\" at the top applies to every matchup, and a `[tournament]`'s pairings \
             are rated from the games they count: give `openings = \"exact\"` to \
             `[[matchups]]` entries instead",
        );
        return None;
    }
    Some(exact)
}

/// A `[[matchups]]` entry with `openings = "exact"`, and the key that
/// made it one, so a refusal once its lines are followed
/// (`katro run`, crates/lab/src/jobs/exact.rs) names it as the file's problems do.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactMatchup {
    pub matchup: Matchup,
    /// `matchups[I].openings`, or `openings (for matchups[I])` when the
    /// experiment's `openings` applies.
    pub key: String,
}

/// Whether `[[matchups]]` entry `i` (read as `new`) is exact: its own
/// `openings`, else the experiment's (`top`, `None` after a problem
/// there). `Some(Some(key))` for an exact one, naming the key that made
/// it so; `None` after reporting a problem with it.
pub(super) fn of_matchup(
    p: &mut Problems,
    i: usize,
    new: &Matchup,
    m: &RawMatchup,
    top: Option<bool>,
) -> Option<Option<String>> {
    let key = format!("matchups[{i}]");
    let (exact, from) = match &m.openings {
        Some(v) => (kind(p, v, &format!("{key}.openings"))?, Some(v.span())),
        None => (top?, None),
    };
    if !exact {
        return Some(None);
    }
    // Where the key was given, else the matchup, so a top-level `openings`
    // still names the entry it refuses.
    let at = from.or_else(|| m.p1.as_ref().map(|v| v.span()));
    let named = if m.openings.is_some() {
        format!("{key}.openings")
    } else {
        format!("openings (for {key})")
    };
    let mut ok = true;
    for (seat, a) in [("p1", &new.p1), ("p2", &new.p2)] {
        if let Some(why) = a.draws_beyond_ties() {
            p.add(
                at.clone(),
                &named,
                format!(
                    "\"exact\" follows every line of agents whose moves are a function of \
                     the position, and `{seat}` is `{a}`, which {why}: give {EXACT_AGENTS}, or \
                     leave `openings` out to sample its games"
                ),
            );
            ok = false;
        }
    }
    ok &= no_sampling_keys(p, &key, m);
    ok.then_some(Some(named))
}

/// Whether exact matchup `key` (`m`) leaves out the keys that only apply
/// to sampled games; reports each it gives.
fn no_sampling_keys(p: &mut Problems, key: &str, m: &RawMatchup) -> bool {
    let mut ok = true;
    for (name, v) in [("games", &m.games), ("max_games", &m.max_games)] {
        if let Some(v) = v {
            p.add(
                Some(v.span()),
                &format!("{key}.{name}"),
                "an `openings = \"exact\"` matchup plays every opening once, weighted by its \
                 probability, so no game count applies: leave it out",
            );
            ok = false;
        }
    }
    if let Some(v) = &m.metrics {
        p.add(
            Some(v.span()),
            &format!("{key}.metrics"),
            "an `openings = \"exact\"` matchup plays no sampled games to record metrics of: \
             leave `metrics` out, or sample the matchup",
        );
        ok = false;
    }
    ok
}

/// Every matchup exact and no `[tournament]`: nothing would be played as
/// games, and the runs, shards and merges that write exact-openings.csv
/// are those of the sampled cells.
pub(super) fn none_sampled(
    p: &mut Problems,
    raw: &RawExperiment,
    sampled: &[Matchup],
    exact: &[ExactMatchup],
) {
    if sampled.is_empty() && !exact.is_empty() {
        p.add(
            raw.matchups.as_ref().map(|m| m.span()),
            "matchups",
            "every matchup has `openings = \"exact\"`: give at least one sampled matchup \
             (random play's self-play, say, whose share the exact one is read against)",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_variant;

    /// 4x3 with 1 seed: its cycles of tied moves end at ply 40 here.
    fn small() -> Rules {
        let text = "[board]\nrows = 4\nholes = 3\nseeds = 1\n[rules]\nply_limit = 40\n";
        parse_variant("t.toml", text, "t").unwrap()
    }

    fn total(s: &ExactShare) -> Probability {
        &s.p1_wins + &s.undecided + &s.p2_wins
    }

    #[test]
    fn the_outcomes_add_up_to_one_on_any_thread_count() {
        let rules = small();
        let a = AgentSpec::parse("alphabeta:depth=2").unwrap();
        let g = AgentSpec::Greedy;
        for k in [0, 1, 3] {
            let one = exact_share(&rules, &a, &g, k, 1).unwrap();
            assert_eq!(
                total(&one),
                Probability::from_integer(1u32.into()),
                "{k} plies"
            );
            assert_eq!(one, exact_share(&rules, &a, &g, k, 3).unwrap());
            assert!(one.decisions > 0);
        }
        let none = exact_share(&rules, &a, &a, 0, 1).unwrap();
        assert_eq!(none.openings, 1);
        // Lines were cut by the ply limit, so the undecided share is in it.
        assert!(
            !exact_share(&rules, &a, &g, 3, 1)
                .unwrap()
                .undecided
                .is_zero()
        );
    }

    #[test]
    fn lines_followed_past_the_bound_are_refused() {
        let rules = small();
        let a = AgentSpec::parse("alphabeta:depth=2").unwrap();
        let g = AgentSpec::Greedy;
        let all = exact_share(&rules, &a, &g, 3, 1).unwrap().decisions;
        let e = exact_share_within(&rules, &a, &g, 3, 1, all / 2).unwrap_err();
        assert_eq!(e, ExactError::TooLong(all / 2));
    }

    #[test]
    fn agents_drawing_beyond_ties_are_refused() {
        let rules = small();
        let g = AgentSpec::Greedy;
        for bad in ["random", "epsilon-greedy:epsilon=0.1", "mcts:iterations=10"] {
            let a = AgentSpec::parse(bad).unwrap();
            let e = exact_share(&rules, &g, &a, 2, 1).unwrap_err();
            assert!(matches!(e, ExactError::Random { .. }), "{bad}: {e}");
        }
        let zero = AgentSpec::parse("epsilon-greedy:epsilon=0").unwrap();
        assert_eq!(
            exact_share(&rules, &zero, &g, 2, 1).unwrap(),
            exact_share(&rules, &g, &g, 2, 1).unwrap()
        );
    }

    /// `ties` is the set `choose` draws from: 64 draws with other seeds
    /// never leave it and, over these positions, reach each of its moves
    /// (a miss of one of k ≤ 12 tied moves has probability below 2^-13 a
    /// position, and no draw here misses).
    #[test]
    fn ties_are_the_moves_choose_draws_among() {
        use crate::agents::testing::{random_positions, variant};
        use crate::rng::rng_from_seed;
        let perfect = AgentSpec::parse("perfect").unwrap();
        let deep = AgentSpec::parse("alphabeta:depth=6,nodes=300").unwrap();
        let cases = [
            ("katro-6x6", AgentSpec::Greedy),
            ("katro-6x6", AgentSpec::parse("alphabeta:depth=2").unwrap()),
            ("katro-ludii", deep),
        ];
        let mut tied = 0;
        let mut check = |rules: &Rules, a: &AgentSpec| {
            // One set of tables, as a seat keeps for its games: `choose`
            // alone would solve the board again for each of the 64 draws.
            let tables = Tables::new();
            for pos in random_positions(rules, 40, 5) {
                let legal = rules.legal_moves(&pos);
                if legal.len() < 2 {
                    continue;
                }
                let ties = a.ties(&tables, rules, &pos, &legal).unwrap();
                let mut seen: Vec<Move> = (0..64)
                    .map(|s| a.choose_with(&tables, rules, &pos, &legal, &mut rng_from_seed(s)))
                    .collect();
                seen.sort_by_key(|m| ties.iter().position(|t| t == m));
                seen.dedup();
                assert_eq!(seen, ties, "{a} at {pos:?}");
                tied += usize::from(ties.len() > 1);
            }
        };
        for (name, a) in &cases {
            check(&variant(name), a);
        }
        check(&small(), &perfect);
        assert!(tied >= 10, "ties must be exercised: {tied}");
    }

    /// EXACT_AGENTS, the words every refusal of `openings = "exact"` gives,
    /// names exactly the agents that draw only among tied best moves: one
    /// spec of each agent, listed by a match with no `_`, so that a new
    /// agent does not compile here until its line is written.
    #[test]
    fn the_exact_agents_words_name_the_agents_exact_openings_follow() {
        use crate::agents::AgentSpec;
        for text in [
            "random",
            "greedy",
            "epsilon-greedy:epsilon=0",
            "epsilon-greedy:epsilon=0.1",
            "alphabeta:depth=2",
            "mcts:iterations=10",
            "perfect",
        ] {
            let a = AgentSpec::parse(text).unwrap();
            let (name, named) = match a {
                AgentSpec::Random => ("random", false),
                AgentSpec::Greedy => ("greedy", true),
                AgentSpec::EpsilonGreedy { epsilon } => {
                    ("epsilon-greedy with epsilon = 0", epsilon == 0.0)
                }
                AgentSpec::Alphabeta { .. } => ("alphabeta", true),
                AgentSpec::Mcts { .. } => ("mcts", false),
                AgentSpec::Perfect => ("perfect", true),
            };
            assert_eq!(a.draws_beyond_ties().is_none(), named, "{text}");
            if named || name == "random" || name == "mcts" {
                assert_eq!(EXACT_AGENTS.contains(name), named, "{text}: {EXACT_AGENTS}");
            }
        }
    }
}
