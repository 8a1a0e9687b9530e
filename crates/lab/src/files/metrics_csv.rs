//! metrics.csv: the design metrics (issue 24) of every cell that records
//! them, one row per cell keyed like summary.csv (docs/OUTPUTS.md).

use super::csv::{csv_bytes, float, setting_names, setting_values, with_settings};
use crate::experiment::interval::Interval;
use crate::experiment::metrics::bootstrap;
use crate::experiment::metrics::{Metric, MetricsAggregate};
use crate::experiment::plan::Cell;
use crate::experiment::stats::Aggregate;

/// The key columns, the setting columns following `rules`.
pub const KEY_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "p1",
    "p2",
    "opening_plies",
    "eval",
    "games",
];

/// The cell-level columns after the per-metric ones.
pub const POOLED_COLUMNS: &[&str] = &[
    "lead_change_pooled",
    "positional_repetition_pooled",
    "board_coverage_pooled",
    "decisiveness_moves_pooled",
    "outcome_uniformity",
    "outcome_uniformity_low",
    "outcome_uniformity_high",
    "ludii_outcome_uniformity",
    "ludii_outcome_uniformity_low",
    "ludii_outcome_uniformity_high",
    "ludii_balance",
    "ludii_balance_low",
    "ludii_balance_high",
    "ludii_duration_turns_std_dev",
    "ludii_duration_turns_std_dev_low",
    "ludii_duration_turns_std_dev_high",
];

/// The metrics some cell asks for, in [`Metric::ALL`]'s order.
pub fn metrics_asked(cells: &[Cell]) -> Vec<Metric> {
    Metric::ALL
        .iter()
        .copied()
        .filter(|m| {
            cells
                .iter()
                .any(|c| c.metrics.is_some_and(|p| p.metrics.contains(m)))
        })
        .collect()
}

pub fn metrics_header(cells: &[Cell]) -> Vec<String> {
    let mut h = with_settings(KEY_COLUMNS, "rules", &setting_names(cells));
    for m in metrics_asked(cells) {
        let n = m.name();
        h.extend([
            format!("{n}_games"),
            n.to_string(),
            format!("{n}_low"),
            format!("{n}_high"),
        ]);
    }
    h.extend(POOLED_COLUMNS.iter().map(|s| s.to_string()));
    h
}

/// A metric's mean (exact, from the quantised sums) and its bootstrap
/// interval (crates/lab/src/experiment/metrics/bootstrap.rs), seeded from the
/// experiment's seed, the cell and the metric.
pub fn metric_interval(
    a: &MetricsAggregate,
    m: Metric,
    master: u64,
    cell: &Cell,
) -> Option<Interval> {
    let i = Metric::ALL.iter().position(|&x| x == m)?;
    let mean = a.values.get(i)?.mean()?;
    let seed = bootstrap::seed(master, cell.rules.name(), &cell.matchup_label(), m.name());
    let (low, high) = a.histograms.get(i)?.interval(mean, m.range(), seed)?;
    Some(Interval {
        estimate: mean,
        low,
        high,
    })
}

/// One row per cell that records metrics, in the cells' order; `None`
/// when no cell does (no file).
pub fn metrics_csv(cells: &[Cell], aggregates: &[Aggregate], master: u64) -> Option<Vec<u8>> {
    let asked = metrics_asked(cells);
    if asked.is_empty() {
        return None;
    }
    let empty = MetricsAggregate::new();
    let rows = cells
        .iter()
        .zip(aggregates)
        .filter_map(|(c, agg)| {
            let a = agg.metrics.as_deref().unwrap_or(&empty);
            metrics_row(c, a, &asked, master)
        })
        .collect::<Vec<_>>();
    Some(csv_bytes(&metrics_header(cells), rows))
}

/// Cell `c`'s row, `a` its metrics, when it records any.
fn metrics_row(
    c: &Cell,
    a: &MetricsAggregate,
    asked: &[Metric],
    master: u64,
) -> Option<Vec<String>> {
    let plan = c.metrics?;
    let mut row = vec![c.rules.name().to_string(), c.rules.canonical_string()];
    row.extend(setting_values(c.rules.settings()));
    row.extend([
        c.p1.to_string(),
        c.p2.to_string(),
        c.opening_plies.to_string(),
        plan.eval_name(),
        a.games.to_string(),
    ]);
    for &m in asked {
        if plan.metrics.contains(&m) {
            row.extend(metric_fields(a, m, master, c));
        } else {
            row.extend(std::iter::repeat_n(String::new(), 4));
        }
    }
    row.extend(pooled_fields(a));
    Some(row)
}

/// Metric `m`'s games, mean and interval.
fn metric_fields(a: &MetricsAggregate, m: Metric, master: u64, c: &Cell) -> [String; 4] {
    let i = Metric::ALL.iter().position(|&x| x == m).unwrap_or(0);
    let n = a.values.get(i).map_or(0, |q| q.n);
    let iv = metric_interval(a, m, master, c);
    let mean = a.values.get(i).and_then(|q| q.mean());
    [
        n.to_string(),
        float(mean),
        float(iv.map(|i| i.low)),
        float(iv.map(|i| i.high)),
    ]
}

/// The cell-level fields, [`POOLED_COLUMNS`].
fn pooled_fields(a: &MetricsAggregate) -> Vec<String> {
    let mut row = vec![
        float(a.lead_change_pooled()),
        float(a.positional_repetition_pooled()),
        float(a.board_coverage_pooled()),
        float(a.decisiveness_moves_pooled()),
    ];
    for i in [
        a.outcome_uniformity(),
        a.ludii_outcome_uniformity(),
        a.ludii_balance(),
        a.ludii_duration_turns_std_dev(),
    ] {
        row.extend([
            float(i.map(|i| i.estimate)),
            float(i.map(|i| i.low)),
            float(i.map(|i| i.high)),
        ]);
    }
    row
}
