//! The verdict in words: one line per variant, from its summary.csv rows
//! (docs/OUTPUTS.md, "Verdict lines"), printed under `katro run`'s and
//! `katro simulate`'s table and atop report.html.
//!
//! A pure function of the rows' text, so that the console (which makes
//! the rows from its aggregates) and the report (which reads summary.csv)
//! say the same words of the same numbers. The words follow the columns
//! that already decide them: `estimand` says whether the number is a share
//! or a value, `p1_vs_half_p` whether an edge is shown, and
//! `balance_verdict` alone may say "balanced", since only a declared
//! margin's test can.

use crate::agents::AgentSpec;
use crate::engine::notation::{grouped, plural};
use crate::experiment::balance::{ALPHA, vs_half};
use crate::experiment::estimand::{Estimand, matchup_words};
use crate::rules::split_limits;
use crate::solve::prove::Outcome;

/// One summary.csv row as the verdict reads it: each field's text as the
/// file writes it, "" where the file has no such column (one written
/// before the column was added) or the value is undefined.
#[derive(Clone, Copy, Debug, Default)]
pub struct Row<'a> {
    pub variant: &'a str,
    pub p1: &'a str,
    pub p2: &'a str,
    pub opening_plies: &'a str,
    pub games: &'a str,
    pub decided: &'a str,
    pub p1_wins: &'a str,
    pub p1_win_rate: &'a str,
    pub p1_win_rate_low: &'a str,
    pub p1_win_rate_high: &'a str,
    pub distinct_games: &'a str,
    pub estimand: &'a str,
    pub p1_vs_half_p: &'a str,
    pub balance_margin: &'a str,
    pub balance_verdict: &'a str,
    /// The game's canonical rules string, to find the prover's value of
    /// its start ([`StartValue`]).
    pub rules: &'a str,
}

impl<'a> Row<'a> {
    /// The row whose field named `column` (summary.csv's name) is
    /// `field(column)`.
    pub fn from_fields(field: impl Fn(&str) -> &'a str) -> Row<'a> {
        Row {
            variant: field("variant"),
            p1: field("p1"),
            p2: field("p2"),
            opening_plies: field("opening_plies"),
            games: field("games"),
            decided: field("decided"),
            p1_wins: field("p1_wins"),
            p1_win_rate: field("p1_win_rate"),
            p1_win_rate_low: field("p1_win_rate_low"),
            p1_win_rate_high: field("p1_win_rate_high"),
            distinct_games: field("distinct_games"),
            estimand: field("estimand"),
            p1_vs_half_p: field("p1_vs_half_p"),
            balance_margin: field("balance_margin"),
            balance_verdict: field("balance_verdict"),
            rules: field("rules"),
        }
    }

    fn opening(&self) -> u32 {
        self.opening_plies.parse().unwrap_or(0)
    }

    fn decided(&self) -> u64 {
        self.decided.parse().unwrap_or(0)
    }

    /// summary.csv's `estimand`, or in a file written before that column
    /// the same estimand worked out from the agents and the opening.
    fn estimand(&self) -> Estimand {
        Estimand::parse(self.estimand).unwrap_or_else(|| {
            match (AgentSpec::parse(self.p1), AgentSpec::parse(self.p2)) {
                (Ok(a), Ok(b)) => Estimand::of(&a, &b, self.opening()),
                _ => Estimand::AgentShare,
            }
        })
    }
}

/// What proof search established of a game's start (`katro prove
/// --json` or a row of `katro prove-family`'s proved.csv), told after the
/// verdict of any cell of the same game: the value of the start is not a
/// share over openings, so it is said beside the share, never in its
/// place.
#[derive(Clone, Debug, PartialEq)]
pub struct StartValue {
    /// The rules string the search was given.
    pub rules: String,
    /// The start's value for the first player (South, to move).
    pub value: Outcome,
}

impl StartValue {
    /// Whether this is the value of the start of the game a cell with
    /// canonical rules `rules` played. The same rules but the ply limit,
    /// which the search ignores and which cannot matter within the
    /// distance or bound (a forced result within D decisions is the same
    /// under any ply limit of D or more); the lap limit must be the same,
    /// since a move it ends is over, which the search plays as such.
    pub fn is_of(&self, rules: &str) -> bool {
        let (Some((base, ply, lap)), Some((own_base, _, own_lap))) =
            (split_limits(rules), split_limits(&self.rules))
        else {
            return false;
        };
        let depth = match self.value {
            Outcome::Win(d) | Outcome::Loss(d) | Outcome::Unknown(d) => d,
            Outcome::Ended => return false,
        };
        base == own_base && lap == own_lap && ply >= u64::from(depth)
    }

    /// `from the start the first player wins in 17 decisions (proved)`.
    pub fn words(&self) -> String {
        match self.value {
            Outcome::Win(d) => format!(
                "from the start the first player wins in {} (proved)",
                plural(u64::from(d), "decision", "decisions")
            ),
            Outcome::Loss(d) => format!(
                "from the start the second player wins: the first player loses in {} (proved)",
                plural(u64::from(d), "decision", "decisions")
            ),
            Outcome::Unknown(d) => format!(
                "from the start neither side forces a win within {} (searched, not proved)",
                plural(u64::from(d), "decision", "decisions")
            ),
            Outcome::Ended => "the start is a finished game".to_string(),
        }
    }
}

/// The fields of `katro prove --json`'s object (jobs::prove::Proved) that say what it proved of where.
#[derive(serde::Deserialize)]
struct ProvedJson {
    rules: String,
    after: Vec<String>,
    value: String,
    distance: Option<u32>,
    bound: Option<u32>,
}

/// The value of a start that `katro prove --json` printed, for the
/// verdict lines; why not, when the text is not that.
pub fn start_value_of_json(bytes: &[u8]) -> Result<StartValue, String> {
    let p: ProvedJson = serde_json::from_slice(bytes)
        .map_err(|e| format!("not the JSON of `katro prove --json` ({e})"))?;
    if !p.after.is_empty() {
        return Err(format!(
            "the value of the position after {}, not of the start",
            p.after.join(" ")
        ));
    }
    let value = match (p.value.as_str(), p.distance, p.bound) {
        ("win", Some(d), _) => Outcome::Win(d),
        ("loss", Some(d), _) => Outcome::Loss(d),
        ("unknown", _, Some(d)) => Outcome::Unknown(d),
        (v, ..) => return Err(format!("value `{v}` without its distance or bound")),
    };
    Ok(StartValue {
        rules: p.rules,
        value,
    })
}

/// What `starts` say of the start of the game `rules` names: a proof
/// over a bound, and the furthest bound, where several value it.
pub fn best_start<'s>(starts: &'s [StartValue], rules: &str) -> Option<&'s StartValue> {
    let known = |s: &&StartValue| match s.value {
        Outcome::Win(_) | Outcome::Loss(_) => (1, 0),
        Outcome::Unknown(d) => (0, d),
        Outcome::Ended => (0, 0),
    };
    starts.iter().filter(|s| s.is_of(rules)).max_by_key(known)
}

/// One line per variant, in the order the variants first appear, each
/// about the cell [`pick`] chooses, and each followed by what `starts`
/// proved of its game's start where one of them is of it
/// ([`best_start`]); `&[]` for none.
pub fn verdict_lines(rows: &[Row], starts: &[StartValue]) -> Vec<String> {
    let mut variants: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant) {
            variants.push(r.variant);
        }
    }
    variants
        .iter()
        .filter_map(|v| {
            let of: Vec<&Row> = rows.iter().filter(|r| r.variant == *v).collect();
            pick(&of).map(|r| {
                let line = verdict_line(r);
                match best_start(starts, r.rules) {
                    Some(s) => format!("{}; {}.", line.trim_end_matches('.'), s.words()),
                    None => line,
                }
            })
        })
        .collect()
}

/// The variant's most informative cell: among its self-play cells (every
/// cell when it has none), the strongest agent's (perfect play, then
/// alpha-beta by depth and node budget, MCTS, greedy, epsilon-greedy,
/// random), then the one with the most decided games, then the first in
/// the file.
pub fn pick<'r, 'a>(rows: &[&'r Row<'a>]) -> Option<&'r Row<'a>> {
    let self_play: Vec<&Row> = rows.iter().copied().filter(|r| r.p1 == r.p2).collect();
    let pool = if self_play.is_empty() {
        rows.to_vec()
    } else {
        self_play
    };
    let mut best: Option<&Row> = None;
    for r in pool {
        let key = |r: &Row| (strength(r.p1).min(strength(r.p2)), r.decided());
        // Strictly greater only, so that a tie keeps the earlier cell.
        if best.is_none_or(|b| key(r) > key(b)) {
            best = Some(r);
        }
    }
    best
}

/// An agent's place in the order [`pick`] ranks self-play by, from its
/// text alone (no rating is at hand in summary.csv): `perfect`, then
/// `alphabeta` (deeper, then a larger node budget, none counting above
/// any), `mcts` (more iterations), `greedy`, `epsilon-greedy` (smaller
/// epsilon), `random`; an agent katro no longer reads ranks last.
fn strength(agent: &str) -> (u8, u64, u64) {
    match AgentSpec::parse(agent) {
        Ok(AgentSpec::Perfect) => (6, 0, 0),
        Ok(AgentSpec::Alphabeta { depth, nodes, .. }) => {
            (5, depth.into(), nodes.unwrap_or(u64::MAX))
        }
        Ok(AgentSpec::Mcts { iterations, .. }) => (4, iterations.into(), 0),
        Ok(AgentSpec::Greedy) => (3, 0, 0),
        Ok(AgentSpec::EpsilonGreedy { epsilon }) => (2, ((1.0 - epsilon) * 1e9) as u64, 0),
        Ok(AgentSpec::Random) => (1, 0, 0),
        Err(_) => (0, 0, 0),
    }
}

/// The verdict of one cell: `katro-6x6, alphabeta self-play, 4 random
/// opening plies: first player 48.7% [47.3, 50.2] of 4,400 decided
/// games; no edge shown (p = 0.09).`
pub fn verdict_line(r: &Row) -> String {
    let k = r.opening();
    let estimand = r.estimand();
    let head = format!(
        "{}, {}, {}:",
        r.variant,
        matchup_words(r.p1, r.p2),
        plural(k, "random opening ply", "random opening plies")
    );
    let d = r.decided();
    if d == 0 {
        return format!(
            "{head} no decided game of {} (every game ended undecided), so no verdict.",
            grouped(r.games.parse().unwrap_or(0))
        );
    }
    let rate: Option<f64> = r.p1_win_rate.parse().ok();
    let decided = plural_grouped(d, "decided game", "decided games");
    match (estimand, rate) {
        (Estimand::ExactValue, Some(w)) if w == 1.0 || w == 0.0 => format!(
            "{head} the {} player wins from the start (the start's exact value: perfect \
             self-play won all {decided}).",
            if w == 1.0 { "first" } else { "second" }
        ),
        (Estimand::AgentValue, Some(w)) if w == 1.0 || w == 0.0 => format!(
            "{head} the {} player wins every one of {decided}: the start's value under these \
             agents, not a share over openings.",
            if w == 1.0 { "first" } else { "second" }
        ),
        // A value the tie-breaks split: a share over them, not over
        // openings, so neither edge nor balance is claimed of it.
        (Estimand::AgentValue, _) => format!(
            "{head} first player {} of {decided}, which differ only by the agents' draws among \
             tied best moves: the start's result under these agents hangs on them, a value, not \
             a share over openings.",
            share_text(r)
        ),
        _ => format!(
            "{head} first player {} of {decided}; {}{}.",
            share_text(r),
            edge_text(r, rate, d),
            balance_text(r)
        ),
    }
}

/// `48.7% [47.3, 50.2]`: the share and its 95% interval in percent, or
/// the file's text where it is not a number.
fn share_text(r: &Row) -> String {
    let pct = |t: &str| {
        t.parse::<f64>()
            .map_or(t.to_string(), |v| format!("{:.1}", v * 100.0))
    };
    format!(
        "{}% [{}, {}]",
        pct(r.p1_win_rate),
        pct(r.p1_win_rate_low),
        pct(r.p1_win_rate_high)
    )
}

/// `first player ahead (p = 0.003)`, `second player ahead (...)` or `no
/// edge shown (p = 0.09)`, by the exact test against one half at 5%.
fn edge_text(r: &Row, rate: Option<f64>, decided: u64) -> String {
    // An older summary.csv has no `p1_vs_half_p`: the same exact test
    // from the wins it does have.
    let p = r.p1_vs_half_p.parse::<f64>().ok().or_else(|| {
        r.p1_wins
            .parse()
            .ok()
            .and_then(|w: u64| vs_half(w.min(decided), decided))
    });
    match (p, rate) {
        (Some(p), Some(w)) if p < ALPHA => {
            let who = if w > 0.5 { "first" } else { "second" };
            format!("{who} player ahead ({})", p_text(p))
        }
        (Some(p), _) => format!("no edge shown ({})", p_text(p)),
        (None, _) => "no edge shown".into(),
    }
}

/// The TOST's verdict against the declared margin, or nothing without
/// one: "balanced" only where `balance_verdict` says it.
fn balance_text(r: &Row) -> String {
    let m = r
        .balance_margin
        .parse::<f64>()
        .map_or(r.balance_margin.to_string(), |m| m.to_string());
    match r.balance_verdict {
        "" => String::new(),
        v if v.starts_with("balanced within") => format!("; {v}"),
        "unbalanced" => format!("; unbalanced: shown beyond ±{m} of one half"),
        "undetermined" => format!("; within ±{m} of one half neither shown nor ruled out"),
        other => format!("; balance verdict: {other}"),
    }
}

/// A p-value in as few significant digits (2 to 4) as keep it on its
/// side of 0.05, so that `p = 0.05` never stands beside "ahead"; below
/// 0.001 as `p < 0.001`.
pub fn p_text(p: f64) -> String {
    if p < 0.001 {
        return "p < 0.001".into();
    }
    let mut text = String::new();
    for digits in 2..=4 {
        let decimals = (digits - 1 - p.log10().floor() as i32).max(0) as usize;
        text = format!("{p:.decimals$}");
        if text.contains('.') {
            text = text.trim_end_matches('0').trim_end_matches('.').to_string();
        }
        let shown: f64 = text.parse().unwrap_or(p);
        if (shown < ALPHA) == (p < ALPHA) {
            break;
        }
    }
    format!("p = {text}")
}

fn plural_grouped(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    const AB: &str = "alphabeta:depth=4";

    /// A self-play share cell of `wins` of `decided`, with the p-value and
    /// interval summary.csv would write (the interval's text is not
    /// checked against the wins here: the words copy it).
    fn share<'a>(wins: &'a str, decided: &'a str, rate: &'a str, p: &'a str) -> Row<'a> {
        Row {
            variant: "katro-6x6",
            p1: AB,
            p2: AB,
            opening_plies: "4",
            games: decided,
            decided,
            p1_wins: wins,
            p1_win_rate: rate,
            p1_win_rate_low: "0.473000",
            p1_win_rate_high: "0.502000",
            estimand: "agent-share",
            p1_vs_half_p: p,
            ..Row::default()
        }
    }

    #[test]
    fn no_edge_is_shown_above_five_percent() {
        let r = share("2144", "4400", "0.487273", "0.090000");
        assert_eq!(
            verdict_line(&r),
            "katro-6x6, alphabeta self-play, 4 random opening plies: first player 48.7% [47.3, \
             50.2] of 4,400 decided games; no edge shown (p = 0.09)."
        );
    }

    #[test]
    fn an_edge_below_five_percent_names_the_player_ahead() {
        let ahead = verdict_line(&share("2300", "4400", "0.522727", "0.002600"));
        assert!(
            ahead.ends_with("; first player ahead (p = 0.0026)."),
            "{ahead}"
        );
        let behind = verdict_line(&share("2100", "4400", "0.477273", "0.000100"));
        assert!(
            behind.ends_with("; second player ahead (p < 0.001)."),
            "{behind}"
        );
        // Rounded to 2 digits 0.0499 would read 0.05 beside "ahead".
        let edge = verdict_line(&share("2265", "4400", "0.514773", "0.049900"));
        assert!(edge.ends_with("first player ahead (p = 0.0499)."), "{edge}");
    }

    #[test]
    fn balanced_is_said_only_where_the_margins_test_says_it() {
        let with = |verdict: &'static str| -> Row<'static> {
            Row {
                balance_margin: "0.020000",
                balance_verdict: verdict,
                ..share("2200", "4400", "0.500000", "1.000000")
            }
        };
        let balanced = verdict_line(&with("balanced within 0.02"));
        assert!(
            balanced.ends_with("; no edge shown (p = 1); balanced within 0.02."),
            "{balanced}"
        );
        let undetermined = verdict_line(&with("undetermined"));
        assert!(
            undetermined.ends_with(
                "; no edge shown (p = 1); within ±0.02 of one half neither shown nor ruled out."
            ),
            "{undetermined}"
        );
        assert!(!undetermined.contains("balanced"), "{undetermined}");
        let unbalanced = verdict_line(&Row {
            balance_margin: "0.020000",
            balance_verdict: "unbalanced",
            ..share("2500", "4400", "0.568182", "0.000000")
        });
        assert!(
            unbalanced.ends_with(
                "; first player ahead (p < 0.001); unbalanced: shown beyond ±0.02 of one half."
            ),
            "{unbalanced}"
        );
        // No margin, no word of balance, whatever the p-value.
        let none = verdict_line(&share("2200", "4400", "0.500000", "1.000000"));
        assert!(!none.contains("balance"), "{none}");
    }

    #[test]
    fn a_cell_with_no_decided_game_has_no_verdict() {
        let r = Row {
            games: "1200",
            decided: "0",
            p1_wins: "0",
            p1_win_rate: "",
            p1_vs_half_p: "",
            ..share("0", "0", "", "")
        };
        assert_eq!(
            verdict_line(&r),
            "katro-6x6, alphabeta self-play, 4 random opening plies: no decided game of 1,200 \
             (every game ended undecided), so no verdict."
        );
    }

    #[test]
    fn a_value_of_the_start_is_not_read_as_a_share() {
        let value =
            |estimand: &'static str, rate: &'static str, distinct: &'static str| -> Row<'static> {
                Row {
                    opening_plies: "0",
                    estimand,
                    distinct_games: distinct,
                    p1_win_rate: rate,
                    ..share("20", "20", rate, "0.000002")
                }
            };
        assert_eq!(
            verdict_line(&value("agent-value", "1.000000", "1")),
            "katro-6x6, alphabeta self-play, 0 random opening plies: the first player wins \
             every one of 20 decided games: the start's value under these agents, not a share \
             over openings."
        );
        let split = verdict_line(&value("agent-value", "0.600000", "7"));
        assert!(
            split.contains("differ only by the agents' draws among tied best moves")
                && !split.contains("ahead")
                && !split.contains("edge"),
            "{split}"
        );
        let exact = verdict_line(&Row {
            p1: "perfect",
            p2: "perfect",
            ..value("exact-value", "0.000000", "1")
        });
        assert_eq!(
            exact,
            "katro-6x6, perfect self-play, 0 random opening plies: the second player wins from \
             the start (the start's exact value: perfect self-play won all 20 decided games)."
        );
        // Without the estimand column the agents and opening give it.
        let old = verdict_line(&value("", "1.000000", "1"));
        assert!(
            old.contains("the start's value under these agents"),
            "{old}"
        );
    }

    #[test]
    fn one_line_per_variant_about_its_strongest_self_play() {
        let cell = |variant: &'static str,
                    p1: &'static str,
                    p2: &'static str,
                    decided: &'static str|
         -> Row<'static> {
            Row {
                variant,
                p1,
                p2,
                ..share("10", decided, "0.500000", "1.000000")
            }
        };
        let rows = [
            cell("a", "random", "random", "2000"),
            cell("a", "greedy", "random", "2000"),
            cell("a", AB, AB, "20"),
            cell("a", "alphabeta:depth=2", "alphabeta:depth=2", "400"),
            cell("b", "greedy", "random", "30"),
            cell("b", "random", "greedy", "40"),
            cell("c", "mcts:iterations=10", "mcts:iterations=10", "5"),
            cell("c", "greedy", "greedy", "500"),
        ];
        let lines = verdict_lines(&rows, &[]);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("a, alphabeta self-play") && lines[0].contains(" of 20 "));
        // No self-play: the cell with the most decided games.
        assert!(lines[1].starts_with("b, random vs greedy"), "{}", lines[1]);
        assert!(lines[2].starts_with("c, mcts self-play"), "{}", lines[2]);
    }

    #[test]
    fn p_values_keep_their_side_of_five_percent() {
        assert_eq!(p_text(0.09), "p = 0.09");
        assert_eq!(p_text(0.0912), "p = 0.091");
        assert_eq!(p_text(1.0), "p = 1");
        assert_eq!(p_text(0.05), "p = 0.05");
        assert_eq!(p_text(0.04996), "p = 0.04996");
        assert_eq!(p_text(0.0503), "p = 0.05");
        assert_eq!(p_text(0.0009), "p < 0.001");
    }

    /// The prover's value joins the verdict of the same game, whatever its
    /// ply limit beyond the distance, and of no other: another lap limit,
    /// a ply limit within the distance, other rules.
    #[test]
    fn the_start_value_joins_the_verdict_of_its_own_game_only() {
        let rules = |ply: u32, lap: u32, seeds: u32| {
            format!("katro(rows=4,holes=4,seeds={seeds},start=x,ply_limit={ply},lap_limit={lap})")
        };
        let proved = StartValue {
            rules: rules(5000, 10000, 2),
            value: Outcome::Win(17),
        };
        assert!(proved.is_of(&rules(5000, 10000, 2)));
        assert!(proved.is_of(&rules(17, 10000, 2)));
        assert!(!proved.is_of(&rules(16, 10000, 2)));
        assert!(!proved.is_of(&rules(5000, 10000000, 2)));
        assert!(!proved.is_of(&rules(5000, 10000, 3)));
        assert!(!proved.is_of("katro(rows=4)"));
        let own = rules(300, 10000, 2);
        let row = Row {
            rules: &own,
            ..share("2300", "4400", "0.522727", "0.002600")
        };
        let lines = verdict_lines(&[row], std::slice::from_ref(&proved));
        assert_eq!(lines.len(), 1);
        assert!(
            lines[0].ends_with(
                "first player ahead (p = 0.0026); from the start the first player wins in 17 \
                 decisions (proved)."
            ),
            "{}",
            lines[0]
        );
        assert_eq!(verdict_lines(&[row], &[]), vec![verdict_line(&row)]);
        let other = rules(300, 10000000, 2);
        let elsewhere = Row {
            rules: &other,
            ..row
        };
        assert_eq!(
            verdict_lines(&[elsewhere], &[proved]),
            vec![verdict_line(&elsewhere)]
        );
        let lost = StartValue {
            rules: rules(5000, 10000, 2),
            value: Outcome::Loss(22),
        };
        assert_eq!(
            lost.words(),
            "from the start the second player wins: the first player loses in 22 decisions \
             (proved)"
        );
        let bounded = StartValue {
            value: Outcome::Unknown(24),
            ..lost.clone()
        };
        assert!(
            bounded
                .words()
                .contains("neither side forces a win within 24 decisions")
        );
        let shallower = StartValue {
            value: Outcome::Unknown(20),
            ..bounded.clone()
        };
        let own = rules(5000, 10000, 2);
        let row = Row { rules: &own, ..row };
        for starts in [
            [shallower.clone(), bounded.clone()],
            [bounded.clone(), shallower.clone()],
        ] {
            assert!(verdict_lines(&[row], &starts)[0].contains("within 24 decisions"));
        }
        for starts in [
            [bounded.clone(), lost.clone()],
            [lost.clone(), bounded.clone()],
        ] {
            assert!(verdict_lines(&[row], &starts)[0].contains("loses in 22"));
        }
    }

    /// `katro prove --json`'s object of a start reads as its value; one of
    /// a position after moves, or another file, is refused, saying why.
    #[test]
    fn a_start_value_reads_from_the_provers_json() {
        let json = |after: &str, value: &str, d: &str, b: &str| {
            format!(
                "{{\"variant\":\"v\",\"rules\":\"katro(x,ply_limit=5000,lap_limit=9)\",\
                 \"after\":[{after}],\"to_move\":\"South\",\"value\":\"{value}\",\
                 \"distance\":{d},\"bound\":{b},\"nodes\":3}}"
            )
        };
        let win = start_value_of_json(json("", "win", "17", "null").as_bytes()).unwrap();
        assert_eq!(win.value, Outcome::Win(17));
        assert_eq!(win.rules, "katro(x,ply_limit=5000,lap_limit=9)");
        let bound = start_value_of_json(json("", "unknown", "null", "24").as_bytes()).unwrap();
        assert_eq!(bound.value, Outcome::Unknown(24));
        let after = start_value_of_json(json("\"a1\",\"b6\"", "loss", "3", "null").as_bytes());
        assert_eq!(
            after.unwrap_err(),
            "the value of the position after a1 b6, not of the start"
        );
        let bare = start_value_of_json(json("", "win", "null", "null").as_bytes());
        assert!(bare.unwrap_err().contains("without its distance"));
        let csv = start_value_of_json(b"variant,rules\n");
        assert!(
            csv.unwrap_err()
                .starts_with("not the JSON of `katro prove --json`")
        );
    }
}
