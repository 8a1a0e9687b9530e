//! `katro prove-openings VARIANT --plies 1,2,4` (docs/SOLVED.md, "Openings
//! under perfect play"): every opening of k uniformly random plies, with
//! its exact probability (`solve::openings`), each position valued by
//! proof search instead of a solved table: the first player's share under
//! perfect play over them, as strength-curve.csv's `limit` counts it, or
//! the interval the unproven positions leave; openings.csv.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::engine::Status;
use crate::files::nearby::stop_word;
use crate::files::openings::{OPENINGS, OpeningsRow, openings_csv, read_openings};
use crate::rules::Rules;
use crate::solve::openings::{OpeningsError, ProvedShare, openings, proved_shares};
use crate::solve::prove::{Outcome, Searched, Stop};
use crate::store::Store;

use super::prove_batch::{Clock, ProveFlags, ProveLimits, old_rows, position_line, progress};
use super::{Error, Refusal, load_variant, write_outputs};

/// The most distinct opening positions of one number of plies.
pub const MAX_OPENINGS: usize = 1 << 22;

/// What `katro prove-openings` is asked to do.
#[derive(Clone, Debug)]
pub struct OpeningsOptions {
    /// A preset name or a variant file.
    pub variant: String,
    /// The numbers of random plies, each a row.
    pub plies: Vec<u32>,
    /// The lap limit to play under instead of the variant's (a run's
    /// `lap_limit`, so that the rules match its summary.csv's).
    pub lap_limit: Option<u64>,
    /// The folder openings.csv is written in.
    pub out: String,
    pub flags: ProveFlags,
}

/// What `katro prove-openings` found.
pub struct OpeningsOutcome {
    pub rows: Vec<OpeningsRow>,
    /// Where openings.csv was written.
    pub file: std::path::PathBuf,
    /// The summary `katro` prints.
    pub text: String,
}

/// Values every opening of each number of plies, each distinct position
/// in play once with a fresh prover within the limits, in parallel on the
/// current rayon pool (the file is the same for any thread count unless
/// `--max-seconds` stopped a search), and writes openings.csv into the out
/// folder, keeping its rows of other variants, rules or plies.
pub fn prove_openings(
    store: &dyn Store,
    o: &OpeningsOptions,
    clock: &Clock,
    note: &(dyn Fn(&str) + Sync),
) -> Result<OpeningsOutcome, Error> {
    let rules = load_variant(store, &o.variant)?
        .with_limits(None, o.lap_limit)
        .map_err(Refusal::Limits)?;
    let p = o.flags.check()?;
    let mut plies: Vec<u32> = Vec::new();
    for &k in &o.plies {
        if !plies.contains(&k) {
            plies.push(k);
        }
    }
    let dir = Path::new(&o.out);
    let old = old_rows(store, dir, OPENINGS, "katro prove-openings", read_openings)?;
    let refused = |plies: u32, error| Refusal::Openings {
        variant: rules.name().to_string(),
        plies,
        error,
    };
    let total = distinct_in_play(&rules, &plies).map_err(|(k, e)| refused(k, e))?;
    note(&format!(
        "{}: openings of {} plies, each position searched with a table of {} MiB, to depth \
         {}, {} nodes{}",
        rules.name(),
        plies
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        p.table_bytes >> 20,
        p.limits.max_depth,
        p.limits.max_nodes.map_or("any".into(), |n| n.to_string()),
        o.flags
            .max_seconds
            .map_or(String::new(), |s| format!(", {s} s"))
    ));
    let done = AtomicUsize::new(0);
    let what = format!("{}: opening positions", rules.name());
    let done_one = || progress(note, &what, done.fetch_add(1, Ordering::Relaxed) + 1, total);
    let proved = proved_shares(&rules, &plies, MAX_OPENINGS, &p.batch(clock), &done_one)
        .map_err(|e| refused(*plies.last().unwrap_or(&0), e))?;
    let rows: Vec<OpeningsRow> = proved.iter().map(|s| row(&rules, s, &p)).collect();
    let all = merged(old, &rows);
    write_outputs(store, dir, &[(OPENINGS, &openings_csv(&all))])?;
    let file = dir.join(OPENINGS);
    let text = summary(&rules, &proved, &rows, &file);
    Ok(OpeningsOutcome { rows, file, text })
}

/// How many positions [`proved_shares`] will search: the distinct
/// positions in play over every list, for the progress notes; refused,
/// before any search, with the plies of a list too long to enumerate.
fn distinct_in_play(rules: &Rules, plies: &[u32]) -> Result<usize, (u32, OpeningsError)> {
    let keyer = crate::solve::prove::Prover::new(rules, 0);
    let mut seen = std::collections::HashSet::new();
    for &k in plies {
        for o in openings(rules, k, MAX_OPENINGS).map_err(|e| (k, e))? {
            if rules.status(&o.position) == Status::Ongoing {
                seen.insert(keyer.key(&o.position));
            }
        }
    }
    Ok(seen.len())
}

/// openings.csv's row of one number of plies.
fn row(rules: &Rules, s: &ProvedShare, p: &ProveLimits) -> OpeningsRow {
    let mut stopped = [0; 3];
    for (_, searched) in &s.unknown {
        let i = match searched.stop {
            Some(Stop::Depth) => 0,
            Some(Stop::Nodes) => 1,
            Some(Stop::Watch) | None => 2,
        };
        stopped[i] += 1;
    }
    OpeningsRow {
        variant: rules.name().to_string(),
        rules: rules.canonical_string(),
        plies: s.plies,
        share: s.share,
        bound: s.unknown.iter().filter_map(|(_, x)| bound(x)).min(),
        nodes: s.nodes,
        stopped,
        max_depth: p.limits.max_depth,
        max_nodes: p.limits.max_nodes,
        table_bytes: p.table_bytes,
    }
}

fn bound(s: &Searched) -> Option<u32> {
    match s.outcome {
        Outcome::Unknown(d) => Some(d),
        _ => None,
    }
}

/// `old` with each row of `new` in place of the old row of the same
/// variant, rules and plies, or after the rest.
fn merged(old: Vec<OpeningsRow>, new: &[OpeningsRow]) -> Vec<OpeningsRow> {
    let same = |a: &OpeningsRow, b: &OpeningsRow| {
        a.variant == b.variant && a.rules == b.rules && a.plies == b.plies
    };
    let mut out: Vec<OpeningsRow> = old;
    for r in new {
        match out.iter_mut().find(|o| same(o, r)) {
            Some(o) => *o = r.clone(),
            None => out.push(r.clone()),
        }
    }
    out
}

/// What `katro prove-openings` prints: a line for each number of plies,
/// and every unknown position with its probability, so that a larger
/// budget can be aimed at them.
fn summary(rules: &Rules, proved: &[ProvedShare], rows: &[OpeningsRow], file: &Path) -> String {
    let mut t = String::new();
    for (s, r) in proved.iter().zip(rows) {
        let sh = &s.share;
        let value = match (sh.p1_decided_share(), sh.p1_share_bounds()) {
            (Some(x), _) => format!("the first player's share {x:.6} exactly"),
            (None, Some((lo, hi))) => format!(
                "the first player's share {lo:.6} (every unknown lost) to {hi:.6} (every \
                 unknown won)"
            ),
            (None, None) => "every opening drawn".into(),
        };
        t.push_str(&format!(
            "{}, {}: {} positions, {} proven, {} unknown (probability {:.6}{}); {value}; \
             {} nodes\n",
            rules.name(),
            crate::engine::notation::plural(s.plies, "ply", "plies"),
            sh.openings,
            sh.openings - sh.unknown_openings,
            sh.unknown_openings,
            sh.unknown.to_f64(),
            r.bound
                .map_or(String::new(), |b| format!(", none proven within {b}")),
            s.nodes
        ));
        for (o, x) in &s.unknown {
            t.push_str(&format!(
                "  unknown: {} (probability {}/{}): no forced win within {}, stopped by {}\n",
                position_line(rules, &o.position),
                o.probability.num,
                o.probability.den,
                bound(x).unwrap_or(0),
                x.stop.map_or("", stop_word)
            ));
        }
    }
    t.push_str(&format!("wrote {}\n", file.display()));
    t
}
