//! exact-openings.csv of an experiment: its `openings = "exact"` matchups
//! followed over every opening (docs/EXPERIMENTS.md, "Exact openings").
//! Followed before anything is played or written: whether a matchup's
//! lines can be followed is known only by following them, and one that
//! cannot is bad input, refused before any game (docs/ERRORS.md). The
//! experiment alone decides them, so a shard, a resumed run and a merge
//! get the same bytes.

use crate::experiment::Experiment;
use crate::experiment::exact::{ExactMatchup, ExactShare, exact_share};
use crate::files::exact_openings::{EXACT_OPENINGS, exact_openings_csv};
use crate::rules::Rules;

use super::{Error, Refusal, TooManyOpenings};

/// The file and the lines the run prints about it.
pub(super) struct ExactFiles {
    pub csv: Vec<u8>,
    pub text: String,
}

/// exact-openings.csv of `exp` (read from `path`), `None` when it has no
/// exact matchup; refused, naming the file and the key, when a matchup's
/// lines are more than katro follows.
pub(super) fn exact_cells(
    exp: &Experiment,
    path: &str,
    threads: usize,
) -> Result<Option<ExactFiles>, Error> {
    let cells = exp.exact_cells();
    if cells.is_empty() {
        return Ok(None);
    }
    let mut shares: Vec<ExactShare> = Vec::new();
    let mut text = format!("\nexact openings ({EXACT_OPENINGS}: exact shares, no interval):\n");
    for (rules, e) in &cells {
        let s = follow(rules, e, path, threads)?;
        text.push_str(&share_line(rules, &e.matchup.label(), &s));
        shares.push(s);
    }
    Ok(Some(ExactFiles {
        csv: exact_openings_csv(exp, &shares),
        text,
    }))
}

/// The exact share of matchup `e` on `rules`, every opening followed;
/// refused, naming the file `path` and the key, when there are more
/// lines than katro follows.
fn follow(
    rules: &Rules,
    e: &ExactMatchup,
    path: &str,
    threads: usize,
) -> Result<ExactShare, Error> {
    let m = &e.matchup;
    Ok(
        exact_share(rules, &m.p1, &m.p2, m.opening_plies, threads).map_err(|error| {
            Refusal::TooManyOpenings(Box::new(TooManyOpenings {
                path: path.to_string(),
                key: e.key.to_string(),
                variant: rules.name().to_string(),
                matchup: m.label(),
                error,
            }))
        })?,
    )
}

/// The line the run prints about one exact matchup's share.
fn share_line(rules: &Rules, matchup: &str, s: &ExactShare) -> String {
    let share = s
        .p1_decided_share()
        .map_or_else(|| "none decided".to_string(), |x| format!("{x:.6}"));
    format!(
        "  {}  {}: p1_win_rate {share} over {} openings ({} searched positions, {} tied)\n",
        rules.name(),
        crate::agents::label(matchup),
        s.openings,
        s.decisions,
        s.tied
    )
}
