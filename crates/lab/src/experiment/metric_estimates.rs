//! Every figure metrics.csv reports of a cell's design metrics, computed
//! here, before any file is written: each metric's exact mean and its
//! seeded bootstrap interval, and the cell-level pooled figures. The
//! writer (files::metrics_csv) only formats them (issue 47: statistics
//! are not computed in a writer).

use crate::experiment::interval::Interval;
use crate::experiment::metrics::bootstrap;
use crate::experiment::metrics::{Metric, MetricsAggregate};
use crate::experiment::plan::Cell;
use crate::experiment::stats::Aggregate;

/// One metric of one cell: the games it was measured over, its mean
/// (exact, from the quantised sums) and its bootstrap interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MetricEstimate {
    pub games: u64,
    pub mean: Option<f64>,
    pub interval: Option<Interval>,
}

/// A cell's figures over all its metrics (metrics.csv's pooled columns,
/// docs/OUTPUTS.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pooled {
    pub lead_change: Option<f64>,
    pub positional_repetition: Option<f64>,
    pub board_coverage: Option<f64>,
    pub decisiveness_moves: Option<f64>,
    pub outcome_uniformity: Option<Interval>,
    pub ludii_outcome_uniformity: Option<Interval>,
    pub ludii_balance: Option<Interval>,
    pub ludii_duration_turns_std_dev: Option<Interval>,
}

/// A cell that records metrics, every figure of its row computed.
#[derive(Clone, Debug, PartialEq)]
pub struct CellMetrics {
    /// The evaluation its metrics use (the plan's name for it).
    pub eval: String,
    pub games: u64,
    /// Each metric some cell of the run asks for ([`metrics_asked`]), in
    /// order: `None` where this cell does not ask for it.
    pub metrics: Vec<Option<MetricEstimate>>,
    pub pooled: Pooled,
}

/// The metrics some cell asks for, in [`Metric::ALL`]'s order: the
/// columns of metrics.csv.
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

/// Every cell's metrics, in the cells' order (`aggregates` is theirs):
/// `None` for a cell that records none. `master` is the experiment's
/// seed, which seeds the bootstraps.
pub fn cell_metrics(
    cells: &[Cell],
    aggregates: &[Aggregate],
    master: u64,
) -> Vec<Option<CellMetrics>> {
    let asked = metrics_asked(cells);
    let empty = MetricsAggregate::new();
    cells
        .iter()
        .zip(aggregates)
        .map(|(c, agg)| {
            let a = agg.metrics.as_deref().unwrap_or(&empty);
            one_cell(c, a, &asked, master)
        })
        .collect()
}

fn one_cell(c: &Cell, a: &MetricsAggregate, asked: &[Metric], master: u64) -> Option<CellMetrics> {
    let plan = c.metrics?;
    let metrics = asked
        .iter()
        .map(|&m| plan.metrics.contains(&m).then(|| estimate(a, m, master, c)))
        .collect();
    Some(CellMetrics {
        eval: plan.eval_name(),
        games: a.games,
        metrics,
        pooled: pooled(a),
    })
}

/// Metric `m`'s games, its mean (exact, from the quantised sums) and its
/// bootstrap interval (metrics/bootstrap.rs), seeded from the
/// experiment's seed, the cell and the metric, so the interval is the
/// same on every run.
fn estimate(a: &MetricsAggregate, m: Metric, master: u64, c: &Cell) -> MetricEstimate {
    let i = Metric::ALL.iter().position(|&x| x == m).unwrap_or(0);
    let mean = a.values.get(i).and_then(|q| q.mean());
    let interval = mean.and_then(|mean| {
        let seed = bootstrap::seed(master, c.rules.name(), &c.matchup_label(), m.name());
        let (low, high) = a.histograms.get(i)?.interval(mean, m.range(), seed)?;
        Some(Interval {
            estimate: mean,
            low,
            high,
        })
    });
    MetricEstimate {
        games: a.values.get(i).map_or(0, |q| q.n),
        mean,
        interval,
    }
}

fn pooled(a: &MetricsAggregate) -> Pooled {
    Pooled {
        lead_change: a.lead_change_pooled(),
        positional_repetition: a.positional_repetition_pooled(),
        board_coverage: a.board_coverage_pooled(),
        decisiveness_moves: a.decisiveness_moves_pooled(),
        outcome_uniformity: a.outcome_uniformity(),
        ludii_outcome_uniformity: a.ludii_outcome_uniformity(),
        ludii_balance: a.ludii_balance(),
        ludii_duration_turns_std_dev: a.ludii_duration_turns_std_dev(),
    }
}
