//! Played games judged against an exact solution: for every decision an
//! agent made, whether its move kept the position's value (a win stays a
//! win, a draw a draw) and whether it was optimal (the fastest win, the
//! slowest loss), as `katro judge` writes them to perfect-moves.csv
//! (docs/OUTPUTS.md, "perfect-moves.csv"). Pure: the table, the rules and
//! the moves come in, counts go out.

use crate::engine::{Move, Position};
use crate::experiment::stats::wilson_at;
use crate::rules::Rules;

use crate::solve::{SolvedTable, Value};

/// One seat's decisions in one game (or summed over games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Decisions judged: after the opening, with two or more legal moves.
    pub decisions: u64,
    /// Of those, moves whose value class (win, draw, loss for the mover)
    /// is the best class among the legal moves.
    pub kept: u64,
    /// Of those, moves whose value ranks with the best ([`Value::rank`]).
    pub optimal: u64,
    /// Decisions where some legal move is of a worse class than the best
    /// (a mistake could change the outcome): a lost position, or one whose
    /// every move keeps its value, cannot be failed.
    pub critical: u64,
    /// Of those, decisions that kept the value.
    pub critical_kept: u64,
}

impl Counts {
    pub fn add(&mut self, o: Counts) {
        self.decisions += o.decisions;
        self.kept += o.kept;
        self.optimal += o.optimal;
        self.critical += o.critical;
        self.critical_kept += o.critical_kept;
    }
}

/// A game replayed and judged: each seat's counts (South, then North)
/// and the plies it lasted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    pub seats: [Counts; 2],
    pub plies: u32,
}

/// Why a game could not be judged; `index` counts moves from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeError {
    /// The move is not legal where it was played, or the game was over.
    Illegal { index: usize },
    /// A position of the game, or a move's result, is not in the table:
    /// the table is of other rules.
    Unknown { index: usize },
}

impl std::fmt::Display for JudgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JudgeError::Illegal { index } => write!(
                f,
                "move {} is illegal where it was played (or the game was already over)",
                index + 1
            ),
            JudgeError::Unknown { index } => write!(
                f,
                "before move {}: a position the solved table does not hold, so the rules are \
                 not the ones the game was played under",
                index + 1
            ),
        }
    }
}

/// Win, draw or loss, ordered as the mover prefers them.
fn class(v: Value) -> i8 {
    match v {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Loss(_) => -1,
    }
}

/// One decision judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The chosen move's class is the best among the legal moves.
    pub kept: bool,
    /// Its value ranks with the best.
    pub optimal: bool,
    /// Some legal move is of a worse class than the best.
    pub critical: bool,
}

/// `chosen` judged among `legal` at `pos`; `None` when a move's value is
/// not in the table (or `chosen` is not among `legal`).
pub fn judge_decision(
    table: &SolvedTable,
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    chosen: Move,
) -> Option<Verdict> {
    let mut best = i64::MIN;
    let mut best_class = i8::MIN;
    let mut worst_class = i8::MAX;
    let mut mine = None;
    for &mv in legal {
        let v = table.move_value(rules, pos, mv)?;
        best = best.max(v.rank());
        best_class = best_class.max(class(v));
        worst_class = worst_class.min(class(v));
        if mv == chosen {
            mine = Some(v);
        }
    }
    let v = mine?;
    Some(Verdict {
        kept: class(v) == best_class,
        optimal: v.rank() == best,
        critical: worst_class < best_class,
    })
}

/// Replays `moves` from the start of `rules` and judges every decision
/// an agent made: from ply `opening_plies` on (the runner's random opening
/// is counted in plies, docs/OUTPUTS.md), with two or more legal moves
/// (the runner plays a forced move without asking the agent).
pub fn judge_game(
    table: &SolvedTable,
    rules: &Rules,
    moves: &[Move],
    opening_plies: u32,
) -> Result<Judged, JudgeError> {
    let mut pos = rules.start();
    let mut seats = [Counts::default(); 2];
    for (index, &mv) in moves.iter().enumerate() {
        let legal = rules.legal_moves(&pos);
        if rules.status(&pos).is_over() || !legal.contains(&mv) {
            return Err(JudgeError::Illegal { index });
        }
        if legal.len() >= 2 && pos.plies() >= opening_plies {
            let v = judge_decision(table, rules, &pos, legal.as_slice(), mv)
                .ok_or(JudgeError::Unknown { index })?;
            let c = &mut seats[pos.to_move().index()];
            c.decisions += 1;
            c.kept += v.kept as u64;
            c.optimal += v.optimal as u64;
            c.critical += v.critical as u64;
            c.critical_kept += (v.critical && v.kept) as u64;
        }
        rules
            .play(&mut pos, mv)
            .map_err(|_| JudgeError::Illegal { index })?;
    }
    Ok(Judged {
        seats,
        plies: pos.plies(),
    })
}

/// A share of decisions with its 95% interval over games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    /// Σ kᵢ / Σ nᵢ.
    pub share: f64,
    /// The interval; `None` with fewer than two games holding a decision.
    pub interval: Option<(f64, f64)>,
}

/// The share Σ kᵢ / Σ nᵢ of `(nᵢ, kᵢ)` = (decisions, successes) per game,
/// with a 95% interval that treats games, not decisions, as independent
/// (a game's decisions are made by one agent along one line of play, so
/// they are correlated): the Wilson score interval at the effective
/// number of decisions n_eff = N / deff, where the design effect deff is
/// the cluster-robust variance of the ratio over the binomial one, at
/// least 1; when every decision succeeded or none did, the variance over
/// games is 0 and n_eff is Kish's N² / Σ nᵢ² (each game one trial).
/// docs/OUTPUTS.md, "perfect-moves.csv", gives the formula. `None` when
/// there is no decision.
pub fn clustered_share(per_game: &[(u64, u64)]) -> Option<Share> {
    let games: Vec<(f64, f64)> = per_game
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|&(n, k)| (n as f64, k as f64))
        .collect();
    let n: f64 = games.iter().map(|g| g.0).sum();
    let k: f64 = games.iter().map(|g| g.1).sum();
    if n == 0.0 {
        return None;
    }
    let p = k / n;
    let g = games.len() as f64;
    if games.len() < 2 {
        return Some(Share {
            share: p,
            interval: None,
        });
    }
    let n_eff = if p > 0.0 && p < 1.0 {
        let residuals: f64 = games.iter().map(|&(ni, ki)| (ki - p * ni).powi(2)).sum();
        let v_cluster = g / (g - 1.0) * residuals / (n * n);
        let v_binomial = p * (1.0 - p) / n;
        n / (v_cluster / v_binomial).max(1.0)
    } else {
        n * n / games.iter().map(|g| g.0 * g.0).sum::<f64>()
    };
    Some(Share {
        share: p,
        interval: Some({
            let w = wilson_at(p, n_eff);
            (w.low, w.high)
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::agents::perfect::Tables;
    use crate::engine::notation::parse_move;
    use crate::game::play_game_sharing;
    use crate::rules::parse_variant;
    use crate::solve::solve;
    use std::ops::ControlFlow;

    fn go(_: crate::solve::Phase, _: u64, _: u64) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// 2×2, canonical rules, South a1 = 1, b1 = 1; North a2 = 1, b2 = 0.
    /// By hand (RULES.md §4–§6, §9): South's b1 lands on a1 (now 2),
    /// facing a2's seed: a capture that empties North, a win in 1. South's
    /// a1 lands on b1 (now 2), facing the empty b2: no capture, a relay
    /// of 2 from b1 that ends on b1, empty since it was lifted: the same
    /// board with North to move, whose only move a2 lands on the empty
    /// b2; then South's a1 lands on b1 facing b2's seed and wins: a1 is a
    /// win in 3 (a1, a2, a1), kept but not optimal.
    fn tiny() -> Rules {
        parse_variant(
            "t.toml",
            "[board]\nrows = 2\nholes = 2\nlayout = [[1, 1], [1, 0]]\n[rules]\n",
            "tiny",
        )
        .unwrap()
    }

    fn moves(rules: &Rules, text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| parse_move(rules, m).unwrap())
            .collect()
    }

    #[test]
    fn a_hand_checked_board_is_judged_as_by_hand() {
        let rules = tiny();
        let table = solve(&rules, 1 << 24, &mut go).unwrap();
        assert_eq!(table.value(&rules, &rules.start()), Some(Value::Win(1)));
        let start = rules.start();
        let a1 = parse_move(&rules, "a1").unwrap();
        let b1 = parse_move(&rules, "b1").unwrap();
        assert_eq!(table.move_value(&rules, &start, a1), Some(Value::Win(3)));
        assert_eq!(table.move_value(&rules, &start, b1), Some(Value::Win(1)));
        // a1 a2 a1: South decides twice (a2 is forced, so not North's
        // decision); the first keeps the win but is slow, the second wins.
        // Neither is critical: every move of South's keeps the win (b1
        // from the second position leads back to the start).
        let j = judge_game(&table, &rules, &moves(&rules, "a1 a2 a1"), 0).unwrap();
        let south = Counts {
            decisions: 2,
            kept: 2,
            optimal: 1,
            ..Counts::default()
        };
        assert_eq!(j.seats, [south, Counts::default()]);
        assert_eq!(j.plies, 3);
        // With one opening ply the first decision is the opening's.
        let j = judge_game(&table, &rules, &moves(&rules, "a1 a2 a1"), 1).unwrap();
        assert_eq!(
            j.seats[0],
            Counts {
                decisions: 1,
                kept: 1,
                optimal: 1,
                ..Counts::default()
            }
        );
        let j = judge_game(&table, &rules, &moves(&rules, "b1"), 0).unwrap();
        assert_eq!(
            j.seats[0],
            Counts {
                decisions: 1,
                kept: 1,
                optimal: 1,
                ..Counts::default()
            }
        );
        // A move after the end, and an illegal move, are refused.
        assert_eq!(
            judge_game(&table, &rules, &moves(&rules, "b1 a2"), 0),
            Err(JudgeError::Illegal { index: 1 })
        );
        assert_eq!(
            judge_game(&table, &rules, &moves(&rules, "a2"), 0),
            Err(JudgeError::Illegal { index: 0 })
        );
    }

    fn katro_4x3() -> Rules {
        let mut s = crate::rules::preset("katro-6x6")
            .unwrap()
            .settings()
            .clone();
        (s.rows, s.holes, s.seeds, s.layout) = (4, 3, Some(1), None);
        Rules::new("katro-4x3".into(), String::new(), String::new(), s).unwrap()
    }

    fn judged(rules: &Rules, table: &SolvedTable, p1: &AgentSpec, p2: &AgentSpec) -> [Counts; 2] {
        let mut total = [Counts::default(); 2];
        // Solved once for the 30 games, as a run's games share it.
        let tables = Tables::new();
        for seed in 0..30 {
            let mut mv = Vec::new();
            play_game_sharing(rules, p1, p2, 2, seed, Some(&mut mv), &tables);
            let j = judge_game(table, rules, &mv, 2).unwrap();
            total[0].add(j.seats[0]);
            total[1].add(j.seats[1]);
        }
        total
    }

    #[test]
    fn perfect_play_keeps_every_value_and_random_play_does_not() {
        let rules = katro_4x3();
        let table = solve(&rules, 1 << 30, &mut go).unwrap();
        // 4×3 with 1 seed is won for player 1 by one first move of three
        // (docs/SOLVED.md): one keeps the value, the other two throw it.
        let start = rules.start();
        let legal = rules.legal_moves(&start);
        assert_eq!(legal.len(), 3);
        let verdicts: Vec<Verdict> = legal
            .iter()
            .map(|&mv| judge_decision(&table, &rules, &start, legal.as_slice(), mv).unwrap())
            .collect();
        assert_eq!(
            verdicts.iter().filter(|v| v.kept).count(),
            1,
            "{verdicts:?}"
        );
        assert!(verdicts.iter().all(|v| v.critical), "{verdicts:?}");

        let perfect = AgentSpec::parse("perfect").unwrap();
        let random = AgentSpec::parse("random").unwrap();
        for c in judged(&rules, &table, &perfect, &perfect) {
            assert!(c.decisions > 0);
            assert_eq!((c.kept, c.optimal), (c.decisions, c.decisions), "{c:?}");
            assert_eq!(c.critical_kept, c.critical, "{c:?}");
        }
        let r = judged(&rules, &table, &random, &random);
        for c in r {
            assert!(c.kept < c.decisions && c.optimal <= c.kept, "{c:?}");
            // Every value thrown away was thrown at a critical decision.
            assert_eq!(c.decisions - c.kept, c.critical - c.critical_kept, "{c:?}");
        }
    }

    #[test]
    fn the_clustered_interval_matches_a_hand_computation() {
        // Three games of (decisions, kept) (4, 3), (2, 2), (4, 1): N = 10,
        // K = 6, p = 0.6. Residuals kᵢ − p·nᵢ: 0.6, 0.8, −1.4; squares sum
        // 0.36 + 0.64 + 1.96 = 2.96. Cluster variance 3/2 · 2.96 / 100 =
        // 0.0444; binomial 0.6 · 0.4 / 10 = 0.024; deff = 1.85, n_eff =
        // 10 / 1.85 = 5.405405. Wilson at p = 0.6, n = 5.405405, z² =
        // 3.841459: denom = 1.710670, centre = (0.6 + 0.355335) / 1.710670
        // = 0.558457, half = 1.959964 / 1.710670 × √(0.0444 + 0.032868)
        // = 0.318481: [0.239976, 0.876937].
        let s = clustered_share(&[(4, 3), (2, 2), (4, 1)]).unwrap();
        assert_eq!(s.share, 0.6);
        let (lo, hi) = s.interval.unwrap();
        assert!((lo - 0.239976).abs() < 1e-6, "{lo}");
        assert!((hi - 0.876937).abs() < 1e-6, "{hi}");
        // All kept: n_eff = 10² / (16 + 4 + 16) = 2.777778, Wilson's upper
        // end 1 and lower (p = 1) 2.777778 / (2.777778 + 3.841459) =
        // 0.419652.
        let s = clustered_share(&[(4, 4), (2, 2), (4, 4), (0, 0)]).unwrap();
        let (lo, hi) = s.interval.unwrap();
        assert_eq!((s.share, hi), (1.0, 1.0));
        assert!((lo - 0.419652).abs() < 1e-6, "{lo}");
        // One game: no interval; no decision: nothing.
        assert_eq!(clustered_share(&[(3, 1), (0, 0)]).unwrap().interval, None);
        assert_eq!(clustered_share(&[(0, 0)]), None);
    }
}
