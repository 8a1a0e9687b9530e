//! exact-openings.csv (docs/OUTPUTS.md): each `openings = "exact"` cell's
//! first-player share over every opening, weighted by its probability: an
//! exact number, not a sample, so it has no interval.

use super::csv::{csv_bytes, float};
use crate::experiment::Experiment;
use crate::experiment::exact::{ExactShare, Probability, to_f64};

/// The file's name.
pub const EXACT_OPENINGS: &str = "exact-openings.csv";

/// exact-openings.csv's columns (docs/OUTPUTS.md).
pub const EXACT_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "p1",
    "p2",
    "opening_plies",
    "estimate",
    "openings",
    "decisions",
    "tied_decisions",
    "p1_win_probability",
    "undecided_probability",
    "p2_win_probability",
    "p1_win_rate",
    "exact",
];

/// What `estimate` says of every row: the share is exact over the
/// openings, where summary.csv's are sampled.
pub const EXACT_ESTIMATE: &str = "exact-openings";

/// The file's bytes: one row per exact cell of `exp`
/// ([`Experiment::exact_cells`]), `shares` in that order.
pub fn exact_openings_csv(exp: &Experiment, shares: &[ExactShare]) -> Vec<u8> {
    let fraction = |q: &Probability| format!("{}/{}", q.numer(), q.denom());
    csv_bytes(
        EXACT_COLUMNS,
        exp.exact_cells().iter().zip(shares).map(|((rules, e), s)| {
            let m = &e.matchup;
            vec![
                rules.name().to_string(),
                rules.canonical_string(),
                m.p1.to_string(),
                m.p2.to_string(),
                m.opening_plies.to_string(),
                EXACT_ESTIMATE.to_string(),
                s.openings.to_string(),
                s.decisions.to_string(),
                s.tied.to_string(),
                float(Some(to_f64(&s.p1_wins))),
                float(Some(to_f64(&s.undecided))),
                float(Some(to_f64(&s.p2_wins))),
                float(s.p1_decided_share()),
                format!(
                    "{};{};{}",
                    fraction(&s.p1_wins),
                    fraction(&s.undecided),
                    fraction(&s.p2_wins)
                ),
            ]
        }),
    )
}
