//! perfect-moves.csv (docs/OUTPUTS.md): `katro judge`'s tally of how
//! often each seat's moves kept the value of the position under perfect
//! play. Its name and columns; `jobs::judge` writes it.

/// The file `katro judge` writes.
pub const PERFECT_MOVES: &str = "perfect-moves.csv";

/// The columns of perfect-moves.csv (docs/OUTPUTS.md).
pub const COLUMNS: [&str; 26] = [
    "variant",
    "rules",
    "p1",
    "p2",
    "opening_plies",
    "seat",
    "agent",
    "judged",
    "start_value",
    "start_distance",
    "games",
    "decisions",
    "kept",
    "kept_share",
    "kept_share_low",
    "kept_share_high",
    "optimal",
    "optimal_share",
    "optimal_share_low",
    "optimal_share_high",
    "critical",
    "critical_kept",
    "critical_kept_share",
    "critical_kept_share_low",
    "critical_kept_share_high",
    "mean_decisions",
];
