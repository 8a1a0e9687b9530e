//! summary.csv, one row per cell, and the same summary as the text table
//! `katro run` and `simulate` print (docs/OUTPUTS.md).

use super::csv::{csv_bytes, float, opt, setting_names, setting_values, with_settings};
use crate::experiment::plan::Cell;
use crate::experiment::stats::Aggregate;

/// summary.csv's columns before and after the setting columns, which
/// follow `rules`.
pub const SUMMARY_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "p1",
    "p2",
    "opening_plies",
    "games",
    "distinct_games",
    "distinct_exact",
    "p1_wins",
    "p2_wins",
    "undecided_ply_limit",
    "undecided_endless_move",
    "undecided_lap_limit",
    "decided",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "advantage_p1",
    "balance",
    "completion",
    "length_mean",
    "length_sd",
    "length_min",
    "length_p10",
    "length_p50",
    "length_p90",
    "length_max",
    "laps_per_move",
    "max_laps_in_move",
    "captures_p1_per_game",
    "captures_p2_per_game",
    "seeds_captured_p1_per_game",
    "seeds_captured_p2_per_game",
    "branching",
    "choice_share",
    "seeds_sown_per_game",
];

/// summary.csv's header: [`SUMMARY_COLUMNS`] with the setting columns of
/// `cells` after `rules`.
pub fn summary_header(cells: &[Cell]) -> Vec<String> {
    with_settings(SUMMARY_COLUMNS, "rules", &setting_names(cells))
}

/// One row per cell, in the cells' order.
pub fn summary_csv(cells: &[Cell], aggregates: &[Aggregate]) -> Vec<u8> {
    let header = summary_header(cells);
    let rows = cells.iter().zip(aggregates).map(|(c, a)| {
        let w = a.p1_win_rate();
        let (distinct, exact) = a.distinct_games();
        let mut row = vec![c.rules.name().to_string(), c.rules.canonical_string()];
        row.extend(setting_values(c.rules.settings()));
        row.extend([
            c.p1.to_string(),
            c.p2.to_string(),
            c.opening_plies.to_string(),
            a.games.to_string(),
            distinct.to_string(),
            exact.to_string(),
            a.wins[0].to_string(),
            a.wins[1].to_string(),
            a.ply_limit.to_string(),
            a.endless_move.to_string(),
            a.lap_limit.to_string(),
            a.decided().to_string(),
            float(w.map(|w| w.estimate)),
            float(w.map(|w| w.low)),
            float(w.map(|w| w.high)),
            float(a.advantage_p1()),
            float(a.balance()),
            float(a.completion()),
            float(a.length_mean()),
            float(a.length_sd()),
            opt(a.plies_min),
            opt(a.length_percentile(10)),
            opt(a.length_percentile(50)),
            opt(a.length_percentile(90)),
            opt(a.plies_max),
            float(a.laps_per_move()),
            a.max_laps_in_move.to_string(),
            float(a.per_game(a.captures[0])),
            float(a.per_game(a.captures[1])),
            float(a.per_game(a.seeds_captured[0])),
            float(a.per_game(a.seeds_captured[1])),
            float(a.branching()),
            float(a.choice_share()),
            float(a.per_game(a.seeds_sown)),
        ]);
        row
    });
    csv_bytes(&header, rows)
}

/// The summary as an aligned text table for a terminal, followed by the
/// cells' warnings. A cell with a warning is marked in the `notes` column.
/// The `opening` column shows only when some cell has opening plies.
pub fn summary_table(cells: &[Cell], aggregates: &[Aggregate]) -> String {
    let opening = cells.iter().any(|c| c.opening_plies > 0);
    let mut header = vec!["variant", "p1", "p2"];
    if opening {
        header.push("opening");
    }
    header.extend([
        "games",
        "distinct",
        "p1 wins",
        "p2 wins",
        "undecided",
        "p1 win rate [95% CI]",
        "advantage_p1",
        "length mean",
        "p10/p50/p90",
        "notes",
    ]);
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    let mut notes = String::new();
    for (c, a) in cells.iter().zip(aggregates) {
        let rate = match a.p1_win_rate() {
            Some(w) => format!("{:.3} [{:.3}, {:.3}]", w.estimate, w.low, w.high),
            None => "-".into(),
        };
        let pct = |q| opt(a.length_percentile(q));
        let (distinct, exact) = a.distinct_games();
        let warnings = a.warnings();
        let mut row = vec![
            c.rules.name().to_string(),
            c.p1.to_string(),
            c.p2.to_string(),
        ];
        if opening {
            row.push(c.opening_plies.to_string());
        }
        row.extend([
            a.games.to_string(),
            // `~` marks the sketch's estimate.
            if exact {
                distinct.to_string()
            } else {
                format!("~{distinct}")
            },
            a.wins[0].to_string(),
            a.wins[1].to_string(),
            a.undecided().to_string(),
            rate,
            a.advantage_p1().map_or("-".into(), |v| format!("{v:.3}")),
            a.length_mean().map_or("-".into(), |v| format!("{v:.1}")),
            format!("{}/{}/{}", pct(10), pct(50), pct(90)),
            warnings
                .iter()
                .map(|w| w.kind)
                .collect::<Vec<_>>()
                .join(", "),
        ]);
        rows.push(row);
        for w in warnings {
            let open = match c.opening_plies {
                0 => String::new(),
                n => format!(
                    ", {}",
                    crate::engine::notation::plural(n, "opening ply", "opening plies")
                ),
            };
            notes.push_str(&format!(
                "warning: {}, {} vs {}{open}: {}\n",
                c.rules.name(),
                c.p1,
                c.p2,
                w.message
            ));
        }
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let last = header.len() - 1;
    let mut out = String::new();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (v, &w))| {
                // Names and notes left-aligned, numbers right-aligned.
                if i < 3 || i == last {
                    format!("{v:<w$}")
                } else {
                    format!("{v:>w$}")
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    out
}
