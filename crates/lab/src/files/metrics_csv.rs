//! metrics.csv: the design metrics (issue 24) of every cell that records
//! them, one row per cell keyed like summary.csv (docs/OUTPUTS.md). The
//! figures come computed (experiment::metric_estimates); this only
//! writes them.

use super::csv::{csv_bytes, float, setting_names, setting_values, with_settings};
use crate::experiment::metric_estimates::{CellMetrics, Pooled, metrics_asked};
use crate::experiment::plan::Cell;

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

/// One row per cell that records metrics, in the cells' order, from
/// `metrics`, every figure already computed
/// ([`crate::experiment::metric_estimates::cell_metrics`]); `None` when
/// no cell records any (no file).
pub fn metrics_csv(cells: &[Cell], metrics: &[Option<CellMetrics>]) -> Option<Vec<u8>> {
    if metrics_asked(cells).is_empty() {
        return None;
    }
    let rows = cells
        .iter()
        .zip(metrics)
        .filter_map(|(c, m)| Some(metrics_row(c, m.as_ref()?)))
        .collect::<Vec<_>>();
    Some(csv_bytes(&metrics_header(cells), rows))
}

/// Cell `c`'s row, `m` its metrics.
fn metrics_row(c: &Cell, m: &CellMetrics) -> Vec<String> {
    let mut row = vec![c.rules.name().to_string(), c.rules.canonical_string()];
    row.extend(setting_values(c.rules.settings()));
    row.extend([
        c.p1.to_string(),
        c.p2.to_string(),
        c.opening_plies.to_string(),
        m.eval.clone(),
        m.games.to_string(),
    ]);
    for e in &m.metrics {
        match e {
            Some(e) => row.extend([
                e.games.to_string(),
                float(e.mean),
                float(e.interval.map(|i| i.low)),
                float(e.interval.map(|i| i.high)),
            ]),
            None => row.extend(std::iter::repeat_n(String::new(), 4)),
        }
    }
    row.extend(pooled_fields(&m.pooled));
    row
}

/// The cell-level fields, [`POOLED_COLUMNS`].
fn pooled_fields(p: &Pooled) -> Vec<String> {
    let mut row = vec![
        float(p.lead_change),
        float(p.positional_repetition),
        float(p.board_coverage),
        float(p.decisiveness_moves),
    ];
    for i in [
        p.outcome_uniformity,
        p.ludii_outcome_uniformity,
        p.ludii_balance,
        p.ludii_duration_turns_std_dev,
    ] {
        row.extend([
            float(i.map(|i| i.estimate)),
            float(i.map(|i| i.low)),
            float(i.map(|i| i.high)),
        ]);
    }
    row
}
