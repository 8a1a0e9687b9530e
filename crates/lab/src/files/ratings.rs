//! A tournament's ratings.csv, pairwise.csv and skill-trace.csv, and the
//! ratings table `katro run` prints (docs/OUTPUTS.md).

use super::csv::{csv_bytes, float, p_value, with_settings};
use crate::experiment::ratings::{
    Estimate, Fit, PairRecord, SeatTally, VariantRatings, outcome_probabilities,
};
use crate::experiment::stats::{Interval, wilson};

/// ratings.csv's columns (docs/OUTPUTS.md).
pub const RATINGS_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "opening_plies",
    "level",
    "agent",
    "rating",
    "rating_low",
    "rating_high",
    "games",
    "wins",
    "losses",
    "undecided",
    "score",
    "first_move_advantage",
    "first_move_advantage_low",
    "first_move_advantage_high",
    "draw_elo",
    "draw_elo_low",
    "draw_elo_high",
    "identified",
    "fit_deviance",
    "fit_df",
    "fit_p_value",
    "anchor_decisive",
    "self_play_p1_win_rate",
    "self_play_p1_win_rate_low",
    "self_play_p1_win_rate_high",
    "self_play_advantage",
    "self_play_advantage_low",
    "self_play_advantage_high",
];

/// Fewer of the anchor's games than this deciding the ratings
/// (`anchor_decisive`) is "a handful": the usual condition (at least 10
/// of each outcome) for the large-sample approximation the intervals
/// rest on, and below it one game more or less moves the count by over a
/// tenth (docs/OUTPUTS.md, ratings.csv).
pub const FEW_DECISIVE: u64 = 10;

/// The level below which the fit test rejects the model.
pub const FIT_LEVEL: f64 = 0.05;

/// A share of `games` with its parts: (wins + undecided / 2) / games.
fn score(wins: u64, undecided: u64, games: u64) -> Option<f64> {
    (games > 0).then(|| (wins as f64 + undecided as f64 / 2.0) / games as f64)
}

/// ratings.csv: one row per variant and agent, agents in the tournament's
/// order; the variant's first-move advantage and draw term on every row.
/// An open end of an interval, an estimate the results do not identify
/// and every rating column of a variant whose fit failed are empty.
pub fn ratings_csv(rated: &[VariantRatings]) -> Vec<u8> {
    let rows = rated
        .iter()
        .flat_map(|v| (0..v.agents.len()).map(move |i| rating_row(v, i)));
    csv_bytes(RATINGS_COLUMNS, rows)
}

/// Agent `i`'s row of variant `v`.
fn rating_row(v: &VariantRatings, i: usize) -> Vec<String> {
    let fit = v.fit.as_ref().ok();
    let (w, l, u) = v.record(i);
    let mut row = vec![
        v.variant.clone(),
        v.rules.clone(),
        v.opening_plies.clone(),
        (i + 1).to_string(),
        v.agents[i].clone(),
    ];
    row.extend(estimate_fields(fit.map(|f| &f.ratings[i])));
    row.extend([
        (w + l + u).to_string(),
        w.to_string(),
        l.to_string(),
        u.to_string(),
        float(score(w, u, w + l + u)),
    ]);
    row.extend(estimate_fields(fit.map(|f| &f.advantage)));
    row.extend(estimate_fields(fit.map(|f| &f.draw)));
    let identified = fit.is_some_and(|f| f.ratings[i].identified());
    row.push(identified.to_string());
    let test = fit.and_then(|f| f.test);
    row.extend([
        float(test.map(|t| t.deviance)),
        test.map_or(String::new(), |t| t.df.to_string()),
        p_value(test.and_then(|t| t.p_value)),
        v.anchor_decisive().to_string(),
    ]);
    let share = v.self_play[i].as_ref().and_then(self_play_share);
    row.extend([
        float(share.map(|s| s.estimate)),
        float(share.map(|s| s.low)),
        float(share.map(|s| s.high)),
    ]);
    row.extend(estimate_fields(share.map(|s| self_play_elo(&s)).as_ref()));
    row
}

/// Player 1's share of an agent's decided self-play games, with its 95%
/// Wilson interval: summary.csv's `p1_win_rate` of that cell.
fn self_play_share(t: &SeatTally) -> Option<Interval> {
    wilson(t.first_wins, t.first_wins + t.second_wins)
}

/// A self-play share as the first-move term it implies: the a at which the
/// model, with no draw term, gives the first of two equal agents that
/// share of decided games, 400·log₁₀(p / (1 − p)); the Wilson interval's
/// ends mapped the same way. A share of 0 or 1 has no finite term: that
/// end is open.
fn self_play_elo(s: &Interval) -> Estimate {
    let elo = |p: f64| (p > 0.0 && p < 1.0).then(|| 400.0 * libm::log10(p / (1.0 - p)));
    Estimate {
        value: elo(s.estimate),
        low: elo(s.low),
        high: elo(s.high),
    }
}

/// An estimate and its interval's ends, empty where there are none.
fn estimate_fields(e: Option<&Estimate>) -> [String; 3] {
    [
        float(e.and_then(|e| e.value)),
        float(e.and_then(|e| e.low)),
        float(e.and_then(|e| e.high)),
    ]
}

/// pairwise.csv's columns; skill-trace.csv has these with `level` before
/// `agent` (docs/OUTPUTS.md).
pub const PAIRWISE_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "opening_plies",
    "agent",
    "opponent",
    "games",
    "wins",
    "losses",
    "undecided",
    "win_rate",
    "win_rate_low",
    "win_rate_high",
    "score",
    "model_score",
    "games_first",
    "wins_first",
    "games_second",
    "wins_second",
];

fn pair_row(v: &VariantRatings, p: &PairRecord) -> Vec<String> {
    let games = p.games();
    let rate = wilson(p.wins(), games);
    // The fit's expected score over the games as they were seated.
    let model = v.fit.as_ref().ok().filter(|_| games > 0).map(|f| {
        let r = |i: usize| f.point.ratings[i];
        let (a, d) = (f.point.advantage, f.point.draw);
        let [w1, _, u1] = outcome_probabilities(r(p.agent), r(p.opponent), a, d);
        let [_, l2, u2] = outcome_probabilities(r(p.opponent), r(p.agent), a, d);
        let (n1, n2) = (p.as_first.games() as f64, p.as_second.games() as f64);
        (n1 * (w1 + u1 / 2.0) + n2 * (l2 + u2 / 2.0)) / (n1 + n2)
    });
    vec![
        v.variant.clone(),
        v.rules.clone(),
        v.opening_plies.clone(),
        v.agents[p.agent].clone(),
        v.agents[p.opponent].clone(),
        games.to_string(),
        p.wins().to_string(),
        p.losses().to_string(),
        p.undecided().to_string(),
        float(rate.map(|r| r.estimate)),
        float(rate.map(|r| r.low)),
        float(rate.map(|r| r.high)),
        float(score(p.wins(), p.undecided(), games)),
        float(model),
        p.as_first.games().to_string(),
        p.as_first.first_wins.to_string(),
        p.as_second.games().to_string(),
        p.as_second.second_wins.to_string(),
    ]
}

/// pairwise.csv: every pair of agents once per variant, from the
/// later-listed agent's side.
pub fn pairwise_csv(rated: &[VariantRatings]) -> Vec<u8> {
    let rows = rated
        .iter()
        .flat_map(|v| v.pairs.iter().map(move |p| pair_row(v, p)));
    csv_bytes(PAIRWISE_COLUMNS, rows)
}

/// skill-trace.csv: each agent against the one listed just before it
/// (Ludii's SkillTrace, level by level), with its `level` (2 for the
/// second agent listed).
pub fn skill_trace_csv(rated: &[VariantRatings]) -> Vec<u8> {
    let header = with_settings(PAIRWISE_COLUMNS, "opening_plies", &["level".to_string()]);
    let rows = rated.iter().flat_map(|v| {
        v.pairs
            .iter()
            .filter(|p| p.agent == p.opponent + 1)
            .map(move |p| {
                let mut row = pair_row(v, p);
                row.insert(3, (p.agent + 1).to_string());
                row
            })
    });
    csv_bytes(&header, rows)
}

/// An estimate and its interval as the ratings table prints them, an
/// open end as `…`: "1,247 [1,135, 1,358]" or "- [1,135, …]".
fn shown(e: &Estimate) -> String {
    let f = |v: Option<f64>, open: &str| v.map_or(open.to_string(), |v| format!("{v:.0}"));
    format!(
        "{} [{}, {}]",
        f(e.value, "-"),
        f(e.low, "…"),
        f(e.high, "…")
    )
}

/// The tournament's ratings as `katro run` and `katro rate` print them:
/// per variant, each agent's rating with its interval, then the
/// first-move advantage and draw term.
pub fn ratings_table(rated: &[VariantRatings]) -> String {
    let mut out = String::new();
    for v in rated {
        let name = if v.variant.is_empty() {
            "the results"
        } else {
            &v.variant
        };
        match &v.fit {
            Ok(f) => out.push_str(&variant_ratings(v, f, name)),
            Err(e) => out.push_str(&format!(
                "\nratings on {name}: cannot be fitted: {e}; ratings.csv leaves them empty\n"
            )),
        }
    }
    out
}

/// Variant `v`'s ratings, `f` its fit, as [`ratings_table`] prints them.
fn variant_ratings(v: &VariantRatings, f: &Fit, name: &str) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "\nratings on {name} (Elo, {} = 0, 95% intervals; … an open end, - not identified):\n",
        crate::agents::label(&v.agents[v.anchor])
    ));
    let labels: Vec<String> = v.agents.iter().map(|a| crate::agents::label(a)).collect();
    let width = labels.iter().map(|a| a.chars().count()).max().unwrap_or(0);
    for (i, a) in labels.iter().enumerate() {
        let (w, l, u) = v.record(i);
        let own = v.self_play[i].as_ref().and_then(self_play_share);
        out.push_str(&format!(
            "  {:>2}  {:<width$}  {:>20}  {} games, score {}{}\n",
            i + 1,
            a,
            shown(&f.ratings[i]),
            w + l + u,
            score(w, u, w + l + u).map_or("-".into(), |s| format!("{s:.3}")),
            own.map_or(String::new(), |s| format!(
                "; against itself player 1 won {} of decided games ({} Elo)",
                percent(&s),
                shown(&self_play_elo(&s))
            )),
        ));
    }
    out.push_str(&format!(
        "  first-move advantage {}, draw term {}\n",
        shown(&f.advantage),
        shown(&f.draw)
    ));
    out.push_str(&fit_line(v, f));
    out
}

/// A share and its interval in percent: "56.4% [54.3, 58.4]".
fn percent(s: &Interval) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * s.estimate,
        100.0 * s.low,
        100.0 * s.high
    )
}

/// Whether the model fits, and how many of the anchor's games its
/// ratings rest on when that is a handful, as the ratings table says it.
fn fit_line(v: &VariantRatings, f: &Fit) -> String {
    let mut out = String::new();
    if let Some((t, p)) = f.test.and_then(|t| Some((t, t.p_value?))) {
        let verdict = if p < FIT_LEVEL {
            "rejected: one rating per agent and one first-move term do not explain \
             every pairing in both seats, and the first-move term is not the edge \
             under strong play (read the strongest agent's self-play, where it played \
             itself)"
        } else {
            "not rejected"
        };
        out.push_str(&format!(
            "  fit against every seat order's own win rate: deviance {:.1} on {} df, \
             p = {}: {verdict}\n",
            t.deviance,
            t.df,
            p_value(Some(p))
        ));
    }
    let k = v.anchor_decisive();
    if k < FEW_DECISIVE {
        out.push_str(&format!(
            "  every rating rests on {k} of {}'s games (its rarer result and its \
             undecided games): a handful\n",
            crate::agents::label(&v.agents[v.anchor])
        ));
    }
    out
}
