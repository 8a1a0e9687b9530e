//! `katro curve DIR`: strength-curve.csv from a run's summary.csv
//! (docs/OUTPUTS.md, "strength-curve.csv"), without replaying a game:
//! every self-play cell of an `alphabeta` agent with a `nodes` budget, and
//! random play's, with each budget's rating from the cells where budgets
//! of the same agent meet, and the exact first-player share under perfect
//! play over the same random openings where the board can be solved.

use std::path::Path;

use crate::agents::AgentSpec;
use crate::experiment::ratings::{Estimate, SeatTally, fit};
use crate::files::ManifestRead;
use crate::files::openings::{OpeningsRow, read_openings};
use crate::files::strength_curve::{CurveRow, Limit, LimitSource, strength_curve_csv};
use crate::files::summary::SummaryRow;
use crate::pictures::strength_curve::{CurvePoint, strength_curve_svg};
use crate::rules::Rules;
use crate::solve::openings::{PerfectShare, Ratio, openings, perfect_share};
use crate::solve::{SolvedTable, upper_bound_bytes};
use crate::store::Store;

use super::report_files::{read_needed, read_needed_manifest, read_run_summary};
use super::solve::solve_unstopped;
use super::{Error, Folder, Refusal, write_outputs};

mod steps;

/// The files `katro curve` writes.
pub use crate::files::strength_curve::STRENGTH_CURVE;
pub const STRENGTH_CURVE_SVG: &str = "strength-curve.svg";

/// The equivalence margin `katro curve` reads trends with unless told:
/// two points of share a tenfold budget, the smallest edge STUDY treats
/// as worth a designer's attention.
pub const DEFAULT_MARGIN: f64 = 0.02;

/// The most distinct opening positions valued for a limit.
const MAX_OPENINGS: usize = 1 << 22;

/// The solver's upper bound overstates the positions of some boards a
/// hundredfold (docs/SOLVED.md); past this many times the memory allowed a
/// board is not even explored.
const BOUND_SLACK: u128 = 1000;

/// What `katro curve` did.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveOutcome {
    pub rows: Vec<CurveRow>,
    /// Each variant tried for a limit: its name and why it has none, if so.
    pub limits: Vec<(String, Option<String>)>,
}

/// Writes `dir/strength-curve.csv` from `dir/summary.csv` and the rules in
/// `dir/manifest.json`, and lists it among the manifest's files. Boards
/// whose solve needs more than `max_bytes` take their `limit` from the
/// rows of the openings.csv at `openings` (`katro prove-openings`) of the
/// same rules (the ply limit apart, which neither counts) and plies, or
/// have none. Each family's trend is read with the equivalence margin
/// `margin` (a share per tenfold budget, in (0, 0.5)).
pub fn curve(
    store: &dyn Store,
    dir: &Path,
    max_bytes: u64,
    openings: Option<&Path>,
    margin: f64,
    note: &mut dyn FnMut(&str),
) -> Result<CurveOutcome, Error> {
    let summary_path = dir.join("summary.csv");
    let manifest_path = dir.join("manifest.json");
    let summary = need(store, &summary_path, "the summary.csv of a finished run")?;
    let manifest = read_needed_manifest(
        store,
        &manifest_path,
        "`katro curve` needs the manifest katro wrote beside summary.csv".into(),
    )?;
    // Refused before the solves, as the write would refuse it after them:
    // a file katro did not write there, or changed since.
    let targets = [STRENGTH_CURVE, STRENGTH_CURVE_SVG, "manifest.json"].map(String::from);
    Folder::open(store, dir).check(&targets, &format!("katro curve {}", dir.display()))?;
    let proved = match openings {
        Some(path) => read_proved(store, path)?,
        None => Vec::new(),
    };
    let rows = read_run_summary(&summary_path, &summary)?;
    let mut out = curve_rows(&rows);
    if out.is_empty() {
        return Err(Refusal::NoCurveCells { path: summary_path }.into());
    }
    let m = (&manifest, manifest_path.as_path());
    let limits = add_limits(&mut out, &rows, m, max_bytes, &proved, note)?;
    steps::settle(&mut out, margin);
    write_curve(store, dir, &out)?;
    Ok(CurveOutcome { rows: out, limits })
}

/// The rows of `katro curve --openings FILE`.
fn read_proved(store: &dyn Store, path: &Path) -> Result<Vec<OpeningsRow>, Error> {
    let bytes = need(
        store,
        path,
        "the openings.csv `katro prove-openings` wrote (--openings)",
    )?;
    Ok(
        read_openings(&bytes).map_err(|error| Refusal::UnreadableCsv {
            path: path.to_path_buf(),
            error,
        })?,
    )
}

/// A file `katro curve` cannot go without, `what` saying which.
fn need(store: &dyn Store, p: &Path, what: &str) -> Result<Vec<u8>, Error> {
    read_needed(store, p, format!("`katro curve` needs {what}"))
}

/// Writes the curve's CSV and chart through the folder's ledger, as every
/// job adding files to a results folder writes them, so that `katro
/// report` and a rerun of the experiment know the curve and the manifest
/// listing it as katro's.
fn write_curve(store: &dyn Store, dir: &Path, out: &[CurveRow]) -> Result<(), Error> {
    let points: Vec<CurvePoint> = out.iter().map(CurvePoint::from).collect();
    let svg = strength_curve_svg(&points).expect("a curve has a level");
    write_outputs(
        store,
        dir,
        &[
            (STRENGTH_CURVE, &strength_curve_csv(out)),
            (STRENGTH_CURVE_SVG, svg.as_bytes()),
        ],
    )
}

/// The agent's node budget when it is a curve level: `alphabeta` with
/// `nodes`. Its other settings name its family.
fn level(name: &str) -> Option<(AgentSpec, u64)> {
    match AgentSpec::parse(name).ok()? {
        AgentSpec::Alphabeta {
            depth,
            nodes: Some(n),
            tt,
            eval,
        } => Some((
            AgentSpec::Alphabeta {
                depth,
                nodes: None,
                tt,
                eval,
            },
            n,
        )),
        _ => None,
    }
}

/// The curve's rows, variant by variant in summary.csv's order: random
/// play's self-play first, then each family's levels by budget.
fn curve_rows(rows: &[SummaryRow]) -> Vec<CurveRow> {
    let variants = first_seen(rows.iter().map(|r| r.variant.as_str()));
    let mut out = Vec::new();
    for v in variants {
        let mine: Vec<&SummaryRow> = rows.iter().filter(|r| r.variant == v).collect();
        out.extend(variant_rows(&mine));
    }
    out
}

/// The curve's rows of one variant, whose summary rows are `mine`: none
/// without a level.
fn variant_rows(mine: &[&SummaryRow]) -> Vec<CurveRow> {
    let selfplay = |r: &&&SummaryRow| r.p1 == r.p2;
    let mut levels: Vec<(&SummaryRow, AgentSpec, u64)> = mine
        .iter()
        .filter(selfplay)
        .filter_map(|r| level(&r.p1).map(|(f, n)| (*r, f, n)))
        .collect();
    if levels.is_empty() {
        return Vec::new();
    }
    levels.sort_by_key(|(r, f, n)| (f.to_string(), *n, r.opening_plies));
    let mut out = Vec::new();
    for r in mine.iter().filter(selfplay).filter(|r| r.p1 == "random") {
        out.push(row(r, None, None));
    }
    let ratings = rate_levels(mine, &levels);
    let steps = steps::steps(mine, &levels);
    for (((r, _, n), rating), (step, trend)) in levels.iter().zip(ratings).zip(steps) {
        out.push(CurveRow {
            step,
            trend,
            ..row(r, Some(*n), rating)
        });
    }
    out
}

/// Each distinct item, in the order first met.
fn first_seen<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

fn row(r: &SummaryRow, nodes: Option<u64>, rating: Option<Estimate>) -> CurveRow {
    CurveRow {
        variant: r.variant.clone(),
        rules: r.rules.clone(),
        agent: r.p1.clone(),
        nodes,
        opening_plies: r.opening_plies,
        games: r.games,
        decided: r.decided,
        p1_win_rate: r.p1_win_rate.clone(),
        p1_win_rate_low: r.p1_win_rate_low.clone(),
        p1_win_rate_high: r.p1_win_rate_high.clone(),
        length_mean: r.length_mean.clone(),
        distinct_games: r.distinct_games.clone(),
        rating,
        limit: None,
        limit_gap: None,
        step: None,
        trend: None,
        verdict: None,
    }
}

/// Each level's rating against the family's smallest budget, fitted by
/// [`crate::experiment::ratings::fit`] to the variant's cells where two
/// levels of one family meet with the levels' opening. A level no such
/// cell links to the smallest gets none; so does a family of one level.
fn rate_levels(
    mine: &[&SummaryRow],
    levels: &[(&SummaryRow, AgentSpec, u64)],
) -> Vec<Option<Estimate>> {
    let mut out = vec![None; levels.len()];
    for family in first_seen(levels.iter().map(|(_, f, _)| f)) {
        let members: Vec<usize> = (0..levels.len())
            .filter(|&i| &levels[i].1 == family)
            .collect();
        let tallies = family_tallies(mine, levels, family, &members);
        if tallies.is_empty() {
            continue;
        }
        // The smallest budget is first: levels are sorted by nodes.
        if let Ok(f) = fit(members.len(), 0, &tallies) {
            for (k, &i) in members.iter().enumerate() {
                let e = f.ratings[k];
                out[i] = Some(e);
            }
        }
    }
    out
}

/// The variant's cells where two levels of `family` (at `members` of
/// `levels`) meet with the levels' opening, each as a tally of the two
/// levels' indices in `members`.
fn family_tallies(
    mine: &[&SummaryRow],
    levels: &[(&SummaryRow, AgentSpec, u64)],
    family: &AgentSpec,
    members: &[usize],
) -> Vec<SeatTally> {
    let opening = levels[members[0]].0.opening_plies;
    let index = |name: &str| {
        let (f, n) = level(name)?;
        (f == *family)
            .then(|| members.iter().position(|&i| levels[i].2 == n))
            .flatten()
    };
    mine.iter()
        .filter(|r| r.p1 != r.p2 && r.opening_plies == opening)
        .filter_map(|r| {
            Some(SeatTally {
                first: index(&r.p1)?,
                second: index(&r.p2)?,
                first_wins: r.p1_wins,
                second_wins: r.p2_wins,
                undecided: r.games - r.p1_wins - r.p2_wins,
            })
        })
        .collect()
}

/// Fills each row's `limit` where its board solves within `max_bytes`,
/// else from `proved` (openings.csv's rows); the variants tried and why
/// a limit is missing.
fn add_limits(
    out: &mut [CurveRow],
    rows: &[SummaryRow],
    (manifest, manifest_path): (&ManifestRead, &Path),
    max_bytes: u64,
    proved: &[OpeningsRow],
    note: &mut dyn FnMut(&str),
) -> Result<Vec<(String, Option<String>)>, Error> {
    let mut tried = Vec::new();
    let mut names: Vec<String> = out.iter().map(|r| r.variant.clone()).collect();
    names.dedup();
    for name in &names {
        let name = name.as_str();
        let first = rows
            .iter()
            .find(|r| r.variant == name)
            .expect("a curve row's variant is summary.csv's");
        let rules = rules_of(manifest, manifest_path, first)?;
        let mut why = variant_limits(out, name, &rules, max_bytes, note);
        if proved.is_empty() {
            tried.push((name.to_string(), why));
            continue;
        }
        match why {
            Some(w) => why = proved_limits(out, name, proved, note).map(|p| format!("{w}; {p}")),
            None => check_proved(out, name, proved, note),
        }
        tried.push((name.to_string(), why));
    }
    Ok(tried)
}

/// The row of `proved` for the rules `rules` (a canonical string) and
/// `plies`: the ply limit set apart, which neither the solver nor the
/// proof search counts.
fn proved_row<'a>(proved: &'a [OpeningsRow], rules: &str, plies: u32) -> Option<&'a OpeningsRow> {
    let key = without_ply_limit(rules);
    proved
        .iter()
        .find(|p| p.plies == plies && without_ply_limit(&p.rules) == key)
}

/// A canonical rules string without its `ply_limit=N` field (the string
/// is katro's: `katro(key=value,...)`, no value holding a comma).
fn without_ply_limit(rules: &str) -> String {
    rules
        .split(',')
        .filter(|f| !f.starts_with("ply_limit="))
        .collect::<Vec<_>>()
        .join(",")
}

/// Fills the limit of each row of variant `name` from openings.csv's
/// rows; why the last row without one has none.
fn proved_limits(
    out: &mut [CurveRow],
    name: &str,
    proved: &[OpeningsRow],
    note: &mut dyn FnMut(&str),
) -> Option<String> {
    let mut why = None;
    for r in out.iter_mut().filter(|r| r.variant == name) {
        match proved_row(proved, &r.rules, r.opening_plies) {
            Some(p) => r.limit = Some(limit_of(&p.share, LimitSource::Proved)),
            None => {
                why = Some(format!(
                    "--openings has no row of these rules at {} plies",
                    r.opening_plies
                ))
            }
        }
    }
    if why.is_none() {
        note(&format!(
            "{name}: perfect-play limit from --openings (proof search)"
        ));
    }
    why
}

/// On a board both solved and proved: whether the proof search's shares
/// are the solved table's, said for each number of plies that has both:
/// on a board the solver solves, the two must be the same fractions.
fn check_proved(out: &[CurveRow], name: &str, proved: &[OpeningsRow], note: &mut dyn FnMut(&str)) {
    let mut plies: Vec<u32> = Vec::new();
    for r in out.iter().filter(|r| r.variant == name) {
        let (Some(solved), Some(p)) = (&r.limit, proved_row(proved, &r.rules, r.opening_plies))
        else {
            continue;
        };
        if plies.contains(&r.opening_plies) {
            continue;
        }
        plies.push(r.opening_plies);
        let by_proof = limit_of(&p.share, LimitSource::Proved);
        let word = if by_proof.exact == solved.exact {
            "equals"
        } else if by_proof.unknown > 0.0 {
            "has unproven openings, so cannot be compared exactly with"
        } else {
            "DIFFERS from"
        };
        note(&format!(
            "{name}, {} plies: the proof search's share ({}) {word} the solved table's ({})",
            r.opening_plies, by_proof.exact, solved.exact
        ));
    }
}

/// Solves variant `name` and fills its rows' limits; why a limit is
/// missing, if one is.
fn variant_limits(
    out: &mut [CurveRow],
    name: &str,
    rules: &Rules,
    max_bytes: u64,
    note: &mut dyn FnMut(&str),
) -> Option<String> {
    if upper_bound_bytes(rules) > u128::from(max_bytes) * BOUND_SLACK {
        return Some("too large to solve".to_string());
    }
    note(&format!("solving {name} for the perfect-play limit"));
    match solve_unstopped(rules, max_bytes) {
        Ok((table, _)) => fill_limits(out, name, rules, &table),
        Err(e) => Some(e.to_string()),
    }
}

/// Sets the limit of each row of variant `name` from its solved `table`;
/// why the last row without one has none.
fn fill_limits(
    out: &mut [CurveRow],
    name: &str,
    rules: &Rules,
    table: &SolvedTable,
) -> Option<String> {
    let mut why = None;
    for r in out.iter_mut().filter(|r| r.variant == name) {
        let limit = openings(rules, r.opening_plies, MAX_OPENINGS)
            .map_err(|e| e.to_string())
            .and_then(|list| {
                perfect_share(rules, table, &list)
                    .ok_or_else(|| "an opening outside the solved table".to_string())
            });
        match limit {
            Ok(s) => r.limit = Some(limit_of(&s, LimitSource::Solved)),
            Err(e) => why = Some(e),
        }
    }
    why
}

/// The perfect-play limit of share `s`, with its exact fractions (and
/// the unproven openings' after them when some are).
fn limit_of(s: &PerfectShare, source: LimitSource) -> Limit {
    let exact = |q: Ratio| format!("{}/{}", q.num, q.den);
    let mut text = format!(
        "{};{};{}",
        exact(s.p1_wins),
        exact(s.draws),
        exact(s.p2_wins)
    );
    if s.unknown.num > 0 {
        text.push_str(&format!(";{}", exact(s.unknown)));
    }
    Limit {
        share: s.p1_decided_share(),
        bounds: s.p1_share_bounds(),
        draws: s.draws.to_f64(),
        unknown: s.unknown.to_f64(),
        openings: s.openings,
        exact: text,
        source,
    }
}

/// The rules summary.csv's row was played under: the manifest's variant
/// with the row's limits.
fn rules_of(m: &ManifestRead, path: &Path, r: &SummaryRow) -> Result<Rules, Error> {
    let base = super::replay::variant_of_manifest(m, &r.variant).map_err(|error| {
        Refusal::ManifestVariant {
            manifest: path.to_path_buf(),
            error,
        }
    })?;
    let rules = base
        .with_limits(Some(r.ply_limit as u64), Some(r.lap_limit as u64))
        .map_err(|error| Refusal::CurveLimits {
            line: r.line,
            error,
        })?;
    if rules.canonical_string() != r.rules {
        return Err(Refusal::RulesDiffer {
            line: r.line,
            rules: r.rules.clone(),
            variant: r.variant.clone(),
            manifest_rules: rules.canonical_string(),
        }
        .into());
    }
    Ok(rules)
}
