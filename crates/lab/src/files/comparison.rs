//! comparison.csv: compared cells against their baselines
//! (docs/OUTPUTS.md).

use super::csv::{csv_bytes, float, p_value};
use crate::experiment::Compare;
use crate::experiment::plan::Cell;
use crate::experiment::stats::{
    Aggregate, Difference, compare_advantage, compare_length, compare_win_rate, holm,
};

pub const COMPARISON_COLUMNS: &[&str] = &[
    "p1",
    "p2",
    "opening_plies",
    "variant",
    "baseline",
    "games",
    "baseline_games",
    "decided",
    "baseline_decided",
    "p1_win_rate",
    "baseline_p1_win_rate",
    "win_rate_diff",
    "win_rate_diff_low",
    "win_rate_diff_high",
    "win_rate_p_value",
    "win_rate_p_holm",
    "advantage_p1",
    "baseline_advantage_p1",
    "advantage_diff",
    "advantage_diff_low",
    "advantage_diff_high",
    "advantage_p_value",
    "advantage_p_holm",
    "length_mean",
    "baseline_length_mean",
    "length_diff",
    "length_diff_low",
    "length_diff_high",
    "length_p_value",
    "length_p_holm",
];

fn diff_fields(d: Option<Difference>) -> [String; 4] {
    [
        float(d.map(|d| d.diff)),
        float(d.map(|d| d.low)),
        float(d.map(|d| d.high)),
        p_value(d.map(|d| d.p_value)),
    ]
}

/// The (compared, baseline) pairs of cell indices, in summary.csv's order
/// of the compared cell, then of the baseline.
pub fn comparison_pairs(cells: &[Cell], compare: &Compare) -> Vec<(usize, usize)> {
    let labels: Vec<String> = cells.iter().map(Cell::matchup_label).collect();
    let mut pairs = Vec::new();
    for i in 0..cells.len() {
        let same = |j: &usize| labels[*j] == labels[i];
        match compare {
            Compare::AllPairs => pairs.extend((0..i).filter(same).map(|j| (i, j))),
            Compare::Baseline(name) => {
                let base = (0..cells.len()).filter(same).find(|&j| match name {
                    Some(n) => cells[j].rules.name() == *n,
                    None => true,
                });
                if let Some(j) = base.filter(|&j| j != i) {
                    pairs.push((i, j));
                }
            }
        }
    }
    pairs
}

/// The compared cells against their baselines (see [`Compare`]); `None`
/// when there is no pair. Each metric's p-values are also Holm-adjusted
/// over all the rows of the file (the family: every comparison of that
/// metric in the file with a defined p-value).
pub fn comparison_csv(
    cells: &[Cell],
    aggregates: &[Aggregate],
    compare: &Compare,
) -> Option<Vec<u8>> {
    let pairs = comparison_pairs(cells, compare);
    if pairs.is_empty() {
        return None;
    }
    type Metric = fn(&Aggregate, &Aggregate) -> Option<Difference>;
    let metrics: [Metric; 3] = [compare_win_rate, compare_advantage, compare_length];
    let diffs: Vec<[Option<Difference>; 3]> = pairs
        .iter()
        .map(|&(i, j)| metrics.map(|m| m(&aggregates[i], &aggregates[j])))
        .collect();
    let holms: Vec<Vec<Option<f64>>> = (0..3)
        .map(|k| {
            holm(
                &diffs
                    .iter()
                    .map(|d| d[k].map(|d| d.p_value))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let rows = pairs.iter().enumerate().map(|(r, &(i, j))| {
        let mut row = pair_fields((&cells[i], &cells[j]), (&aggregates[i], &aggregates[j]));
        for (k, values) in metric_values(&aggregates[i], &aggregates[j])
            .into_iter()
            .enumerate()
        {
            row.extend(values);
            row.extend(diff_fields(diffs[r][k]));
            row.push(p_value(holms[k][r]));
        }
        row
    });
    Some(csv_bytes(COMPARISON_COLUMNS, rows))
}

/// A row's first fields: the matchup, the two variants, their games and
/// decided games.
fn pair_fields((c, base): (&Cell, &Cell), (a, b): (&Aggregate, &Aggregate)) -> Vec<String> {
    vec![
        c.p1.to_string(),
        c.p2.to_string(),
        c.opening_plies.to_string(),
        c.rules.name().to_string(),
        base.rules.name().to_string(),
        a.games.to_string(),
        b.games.to_string(),
        a.decided().to_string(),
        b.decided().to_string(),
    ]
}

/// Each compared metric's value in `a` and in `b`: the win rate among
/// decided games, the advantage and the mean length.
fn metric_values(a: &Aggregate, b: &Aggregate) -> [[String; 2]; 3] {
    let rate = |x: &Aggregate| float(x.p1_win_rate().map(|w| w.estimate));
    [
        [rate(a), rate(b)],
        [float(a.advantage_p1()), float(b.advantage_p1())],
        [float(a.length_mean()), float(b.length_mean())],
    ]
}
