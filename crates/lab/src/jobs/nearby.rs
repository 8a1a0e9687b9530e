//! `katro prove-nearby VARIANT` (docs/SOLVED.md, "Nearby starts"): every
//! start layout one seed away from the variant's (one seed moved from a
//! hole that has one to any other hole), built as a variant with that
//! `board.layout`, its start valued by proof search; nearby.csv, and which
//! layouts take the first player's forced win away.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::engine::notation::{board_rows, hole_name};
use crate::files::nearby::{NEARBY, NearbyRow, nearby_csv, read_nearby, stop_word};
use crate::rules::{Player, Rules, SettingsError, board_value};
use crate::solve::prove::{Outcome, Searched, Stop};
use crate::store::Store;

use super::clock::Clock;
use super::prove_batch::{ProveFlags, ProveLimits, old_rows, progress, time_limits};
use super::{Error, load_variant, write_outputs};

/// What `katro prove-nearby` is asked to do.
#[derive(Clone, Debug)]
pub struct NearbyOptions {
    /// A preset name or a variant file.
    pub variant: String,
    /// The folder nearby.csv is written in.
    pub out: String,
    pub flags: ProveFlags,
}

/// One layout one seed away from a variant's start: the holes (indices)
/// the seed left and entered, and the variant with that layout, or why
/// the rules refuse it.
pub struct Nearby {
    pub from: usize,
    pub to: usize,
    pub rules: Result<Rules, SettingsError>,
}

/// Every layout one seed away from `rules`' start, by the hole the seed
/// leaves, then the hole it enters, in hole order (row 1 first, each row
/// from column a).
pub fn one_seed_away(rules: &Rules) -> Vec<Nearby> {
    let start = board_rows(rules, &rules.start());
    let (rows, cols) = (rules.rows(), rules.cols());
    let holes = rows * cols;
    let mut out = Vec::new();
    for from in (0..holes).filter(|&h| start[h / cols][h % cols] > 0) {
        for to in (0..holes).filter(|&g| g != from) {
            let mut layout = start.clone();
            layout[from / cols][from % cols] -= 1;
            layout[to / cols][to % cols] += 1;
            out.push(Nearby {
                from,
                to,
                rules: rules.with_layout(layout),
            });
        }
    }
    out
}

/// What `katro prove-nearby` found.
pub struct NearbyOutcome {
    /// The variant's own start, searched within the same limits.
    pub start: Searched,
    pub rows: Vec<NearbyRow>,
    /// Layouts the rules refuse: the holes' names and why.
    pub refused: Vec<(String, String, SettingsError)>,
    /// Where nearby.csv was written.
    pub file: std::path::PathBuf,
    /// The summary `katro` prints.
    pub text: String,
}

/// A search's outcome for the first player (South) at a start.
fn first_player(rules: &Rules, s: Searched) -> Searched {
    let outcome = match rules.start().to_move() {
        Player::South => s.outcome,
        Player::North => s.outcome.flip(),
    };
    Searched { outcome, ..s }
}

/// Values every layout one seed away from the variant's start, in
/// parallel on the current rayon pool, each with a fresh prover within
/// the limits (the file is the same for any thread count unless
/// `--max-seconds` stopped a search), and writes nearby.csv into the out
/// folder, keeping the rows of other variants there. Each search stops at
/// `--max-seconds` on `clock`; `note` hears the progress.
pub fn prove_nearby(
    store: &dyn Store,
    o: &NearbyOptions,
    clock: &dyn Clock,
    note: &(dyn Fn(&str) + Sync),
) -> Result<NearbyOutcome, Error> {
    let rules = load_variant(store, &o.variant)?;
    let p = o.flags.check()?;
    let dir = Path::new(&o.out);
    let old = old_rows(store, dir, NEARBY, "katro prove-nearby", read_nearby)?;
    let layouts = one_seed_away(&rules);
    let name = |h: usize| hole_name(&rules, h);
    let valid: Vec<(&Nearby, &Rules)> = layouts
        .iter()
        .filter_map(|n| n.rules.as_ref().ok().map(|r| (n, r)))
        .collect();
    let refused: Vec<(String, String, SettingsError)> = layouts
        .iter()
        .filter_map(|n| {
            let e = n.rules.as_ref().err()?;
            Some((name(n.from), name(n.to), e.clone()))
        })
        .collect();
    let what = format!("{}: layouts one seed away", rules.name());
    note(&format!(
        "{what}: {}, each searched with a table of {} MiB, to depth {}, {} nodes{}",
        valid.len(),
        p.table_bytes >> 20,
        p.limits.max_depth,
        p.limits.max_nodes.map_or("any".into(), |n| n.to_string()),
        o.flags
            .max_seconds
            .map_or(String::new(), |s| format!(", {s} s"))
    ));
    let watches = time_limits(clock, o.flags.max_seconds);
    let batch = p.batch(&watches);
    let start = batch.prove_all(&[&rules], |r| (*r, r.start()), &|_, _| {})[0];
    let start = first_player(&rules, start);
    let done = AtomicUsize::new(0);
    let searched = batch.prove_all(&valid, |(_, r)| (*r, r.start()), &|_, _| {
        progress(
            note,
            &what,
            done.fetch_add(1, Ordering::Relaxed) + 1,
            valid.len(),
        )
    });
    let rows: Vec<NearbyRow> = valid
        .iter()
        .zip(searched)
        .map(|((n, r), s)| row(&rules, n, r, &first_player(r, s), &p))
        .collect();
    let all = merged(old, rules.name(), &rows);
    write_outputs(store, dir, &[(NEARBY, &nearby_csv(&all))])?;
    let file = dir.join(NEARBY);
    let text = summary(&rules, &start, &rows, &refused, &file);
    Ok(NearbyOutcome {
        start,
        rows,
        refused,
        file,
        text,
    })
}

/// The rows of nearby.csv for layout `n` of `base`, its rules `r`.
fn row(base: &Rules, n: &Nearby, r: &Rules, s: &Searched, p: &ProveLimits) -> NearbyRow {
    NearbyRow {
        variant: base.name().to_string(),
        from: hole_name(base, n.from),
        to: hole_name(base, n.to),
        layout: board_value(r.settings(), "layout").expect("a layout board writes its layout"),
        rules: r.canonical_string(),
        outcome: s.outcome,
        stopped: s.stop,
        nodes: s.nodes,
        max_depth: p.limits.max_depth,
        max_nodes: p.limits.max_nodes,
        table_bytes: p.table_bytes,
    }
}

/// `old` with `variant`'s rows replaced by `new`, where the first of them
/// was (at the end if there were none).
fn merged(old: Vec<NearbyRow>, variant: &str, new: &[NearbyRow]) -> Vec<NearbyRow> {
    let mut out = Vec::new();
    let mut placed = false;
    for r in old {
        if r.variant != variant {
            out.push(r);
        } else if !placed {
            out.extend_from_slice(new);
            placed = true;
        }
    }
    if !placed {
        out.extend_from_slice(new);
    }
    out
}

/// `a1→b2`.
fn moved(r: &NearbyRow) -> String {
    format!("{}→{}", r.from, r.to)
}

/// A start's value for the first player, in words.
fn first_player_words(o: Outcome) -> String {
    match o {
        Outcome::Win(_) | Outcome::Loss(_) => format!("{o} for the first player"),
        Outcome::Unknown(d) => format!("unproven: no forced win for either side within {d}"),
        Outcome::Ended => o.to_string(),
    }
}

/// The most unproven layouts the summary names one by one.
const NAMED: usize = 12;

/// The unproven layouts in a few words: each with its bound when they are
/// few, else the range of their bounds; and what stopped them.
fn unproven_words(rows: &[&NearbyRow]) -> String {
    let bound = |r: &NearbyRow| match r.outcome {
        Outcome::Unknown(d) => d,
        _ => 0,
    };
    if rows.is_empty() {
        return String::new();
    }
    let mut by: Vec<String> = Vec::new();
    for stop in [Stop::Nodes, Stop::Depth, Stop::Watch] {
        let n = rows.iter().filter(|r| r.stopped == Some(stop)).count();
        if n > 0 {
            by.push(format!("{} {n}", stop_word(stop)));
        }
    }
    let bounds = if rows.len() <= NAMED {
        let each: Vec<String> = rows
            .iter()
            .map(|r| format!("{} none within {}", moved(r), bound(r)))
            .collect();
        each.join(", ")
    } else {
        let lo = rows.iter().map(|r| bound(r)).min().unwrap_or(0);
        let hi = rows.iter().map(|r| bound(r)).max().unwrap_or(0);
        let within = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo} to {hi}")
        };
        format!("no forced win within {within}; each in nearby.csv")
    };
    format!(" ({bounds}; stopped by {})", by.join(", "))
}

/// What `katro prove-nearby` prints: the start, then the line.
fn summary(
    rules: &Rules,
    start: &Searched,
    rows: &[NearbyRow],
    refused: &[(String, String, SettingsError)],
    file: &Path,
) -> String {
    let v = rules.name();
    let mut t = format!(
        "{v}: the standard start: {} ({} nodes)\n",
        first_player_words(start.outcome),
        start.nodes
    );
    let of = |f: fn(&Outcome) -> bool| rows.iter().filter(move |r| f(&r.outcome));
    let losses: Vec<String> = of(|o| matches!(o, Outcome::Loss(_)))
        .map(|r| format!("{} in {}", moved(r), r.outcome.distance().unwrap_or(0)))
        .collect();
    let unproven: Vec<&NearbyRow> = of(|o| matches!(o, Outcome::Unknown(_))).collect();
    let unknown = unproven_words(&unproven);
    let draws: Vec<String> = of(|o| *o == Outcome::Ended).map(moved).collect();
    let wins: Vec<u32> = of(|o| matches!(o, Outcome::Win(_)))
        .filter_map(|r| r.outcome.distance())
        .collect();
    let list = |items: &[String]| {
        if items.is_empty() {
            String::new()
        } else {
            format!(" ({})", items.join(", "))
        }
    };
    t.push_str(&format!(
        "{v}: {} one seed away; the second player wins {}{}; {} unproven{unknown}; ",
        super::plural(rows.len() as u64, "layout"),
        losses.len(),
        list(&losses),
        unproven.len(),
    ));
    if !draws.is_empty() {
        t.push_str(&format!(
            "{} end at once with no winner{}; ",
            draws.len(),
            list(&draws)
        ));
    }
    let range = match (wins.iter().min(), wins.iter().max()) {
        (Some(a), Some(b)) if a == b => format!(", in {a} decisions"),
        (Some(a), Some(b)) => format!(", in {a} to {b} decisions"),
        _ => String::new(),
    };
    t.push_str(&format!(
        "the first player wins the rest ({}{range})\n",
        wins.len()
    ));
    for (from, to, e) in refused {
        t.push_str(&format!("{v}: {from}→{to} refused by the rules: {e}\n"));
    }
    t.push_str(&format!("wrote {}\n", file.display()));
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::preset;

    #[test]
    fn every_seed_moves_to_every_other_hole_once() {
        let rules = preset("katro-4x4").unwrap();
        let all = one_seed_away(&rules);
        assert_eq!(all.len(), 16 * 15);
        let start = board_rows(&rules, &rules.start());
        let mut seen = std::collections::HashSet::new();
        for n in &all {
            let r = n.rules.as_ref().unwrap();
            let rows = board_rows(r, &r.start());
            let diff: Vec<(usize, i32)> = (0..16)
                .filter_map(|h| {
                    let d = rows[h / 4][h % 4] as i32 - start[h / 4][h % 4] as i32;
                    (d != 0).then_some((h, d))
                })
                .collect();
            let mut want = vec![(n.from, -1), (n.to, 1)];
            want.sort();
            assert_eq!(diff, want);
            assert!(seen.insert(r.canonical_string()));
            assert!(r.canonical_string().contains(",layout="));
            assert_eq!(r.total_seeds(), rules.total_seeds());
        }
        // The rules string names the layout; the file writes it as TOML.
        let first = all[0].rules.as_ref().unwrap();
        assert!(
            first
                .canonical_string()
                .starts_with("katro(rows=4,holes=4,layout=1.3.2.2/2.2.2.2/"),
            "{}",
            first.canonical_string()
        );
        assert_eq!(
            board_value(first.settings(), "layout").unwrap(),
            "[[1, 3, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2]]"
        );
    }

    #[test]
    fn a_layout_that_empties_a_side_is_refused_not_searched() {
        let text = "[board]\nrows = 2\nholes = 2\nlayout = [[1, 0], [2, 2]]\n";
        let rules = crate::rules::parse_variant("t.toml", text, "t").unwrap();
        let all = one_seed_away(&rules);
        // a1's seed can go to b1, a2 or b2; each of a2 and b2 to 3 holes.
        assert_eq!(all.len(), 9);
        let refused: Vec<(usize, usize)> = all
            .iter()
            .filter(|n| n.rules.is_err())
            .map(|n| (n.from, n.to))
            .collect();
        assert_eq!(refused, [(0, 2), (0, 3)]);
    }

    fn named(variant: &str, from: &str) -> NearbyRow {
        NearbyRow {
            variant: variant.into(),
            from: from.into(),
            to: "b1".into(),
            layout: String::new(),
            rules: String::new(),
            outcome: Outcome::Win(3),
            stopped: None,
            nodes: 1,
            max_depth: 10,
            max_nodes: None,
            table_bytes: 1,
        }
    }

    #[test]
    fn a_variants_rows_replace_its_old_ones_in_place() {
        let old = vec![
            named("x", "a1"),
            named("y", "a1"),
            named("y", "a2"),
            named("z", "a1"),
        ];
        let new = [named("y", "c1")];
        let froms = |rows: &[NearbyRow]| -> Vec<String> {
            rows.iter()
                .map(|r| format!("{}{}", r.variant, r.from))
                .collect()
        };
        assert_eq!(
            froms(&merged(old.clone(), "y", &new)),
            ["xa1", "yc1", "za1"]
        );
        assert_eq!(
            froms(&merged(old, "w", &[named("w", "d1")])),
            ["xa1", "ya1", "ya2", "za1", "wd1"]
        );
    }

    #[test]
    fn the_summary_names_the_second_players_wins_and_the_unproven() {
        let rules = preset("katro-6x3").unwrap();
        let start = Searched {
            outcome: Outcome::Win(15),
            stop: None,
            nodes: 5830,
        };
        let row = |from: &str, outcome, stopped| NearbyRow {
            outcome,
            stopped,
            ..named("katro-6x3", from)
        };
        let rows = [
            row("a1", Outcome::Loss(8), None),
            row("b1", Outcome::Unknown(25), Some(Stop::Nodes)),
            row("c1", Outcome::Win(9), None),
            row("a2", Outcome::Win(15), None),
        ];
        let t = summary(&rules, &start, &rows, &[], Path::new("d/nearby.csv"));
        assert_eq!(
            t,
            "katro-6x3: the standard start: win in 15 for the first player (5830 nodes)\n\
             katro-6x3: 4 layouts one seed away; the second player wins 1 (a1→b1 in 8); \
             1 unproven (b1→b1 none within 25; stopped by nodes 1); the first player wins \
             the rest (2, in 9 to 15 decisions)\n\
             wrote d/nearby.csv\n"
        );
    }
}
