//! Sweeps: an experiment's `[[sweep]]` tables, each a base variant and
//! lists of values of board keys and rule settings, whose cartesian product
//! gives variants with systematic names (`katro-6x6+holes=4+seeds=3`).
//! docs/EXPERIMENTS.md documents the keys.
//!
//! Each combination is written as a variant file and read by the variant
//! parser, so a combination is valid exactly when the same settings in a
//! variant file would be, and an invalid one is refused with the parser's
//! own words.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Serialize;

use crate::rules::suggest::did_you_mean;
use crate::rules::{
    Problems, Rules, parse_variant, setting_fields, value_text, write_variant_table,
};

/// The most variants one sweep may make: far beyond a study anyone runs,
/// low enough that a typo (`to = 100000`) is an error, not hours of parsing.
pub const MAX_SWEEP_VARIANTS: usize = 10_000;

/// A sweep table as read: its keys with their values and places.
pub type RawSweep = BTreeMap<String, toml::Spanned<toml::Value>>;

/// Defined with the manifest it is written to, so `export` need not
/// import this module.
/// A sweep's combination left out under `skip_invalid = true`, with the
/// variant parser's reasons.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub variant: String,
    pub reasons: Vec<String>,
}

/// The keys of a sweep table that are not swept.
pub const SWEEP_KEYS: [&str; 2] = ["base", "skip_invalid"];

/// The values one swept key takes, in order.
fn values(p: &mut Problems, key: &str, v: &toml::Spanned<toml::Value>) -> Option<Vec<toml::Value>> {
    let bad = |p: &mut Problems, why: &str| {
        p.add(
            Some(v.span()),
            key,
            format!(
                "{why}: give a list of values, e.g. [4, 6], or a range of integers \
                 {{ from = 3, to = 8 }}"
            ),
        );
        None
    };
    match v.get_ref() {
        toml::Value::Array(items) if items.is_empty() => bad(p, "the list is empty"),
        toml::Value::Array(items) => Some(items.clone()),
        toml::Value::Table(t) => {
            let int = |k: &str| t.get(k).and_then(toml::Value::as_integer);
            let known = t.keys().all(|k| k == "from" || k == "to");
            match (int("from"), int("to")) {
                (Some(from), Some(to)) if known && from <= to => {
                    if (to - from) as u128 >= MAX_SWEEP_VARIANTS as u128 {
                        p.add(
                            Some(v.span()),
                            key,
                            format!(
                                "from {from} to {to} is more than {MAX_SWEEP_VARIANTS} values: \
                                 a sweep makes at most {MAX_SWEEP_VARIANTS} variants"
                            ),
                        );
                        return None;
                    }
                    Some((from..=to).map(toml::Value::Integer).collect())
                }
                (Some(from), Some(to)) if known => bad(
                    p,
                    &format!("the range from {from} to {to} is empty (`from` is above `to`)"),
                ),
                _ => bad(p, "a range is a table of two integers, `from` and `to`"),
            }
        }
        _ => bad(p, "not a list or a range"),
    }
}

/// The variants of one sweep table over `base` (already read): the valid
/// combinations in order, the first swept key (in the order of the
/// settings) varying slowest, and those skipped. `key` (`sweep[0]`) and
/// `span` (the table) place its problems; `overridden` lists settings the
/// experiment replaces in every variant (`ply_limit`, `lap_limit`), which
/// a sweep would then not vary.
pub fn expand(
    p: &mut Problems,
    key: &str,
    span: Range<usize>,
    table: &RawSweep,
    base: &Rules,
    overridden: &[&str],
) -> Option<(Vec<Rules>, Vec<Skipped>)> {
    let names: Vec<String> = setting_fields(base.settings())
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let skip_invalid = skip_invalid(p, key, table);
    let (mut swept, keys_ok) = swept_keys(p, key, table, &names, overridden);
    let ok = skip_invalid.is_some() && keys_ok;
    if swept.is_empty() && ok {
        p.add(
            Some(span.clone()),
            key,
            format!(
                "sweeps nothing: add a board key or rule setting with a list of values ({})",
                names.join(", ")
            ),
        );
        return None;
    }
    let total = swept
        .iter()
        .try_fold(1usize, |n, s| n.checked_mul(s.values.len()))
        .filter(|&n| n <= MAX_SWEEP_VARIANTS);
    let Some(total) = total else {
        p.add(
            Some(span),
            key,
            format!("makes more than {MAX_SWEEP_VARIANTS} variants: sweep fewer values"),
        );
        return None;
    };
    if !ok {
        return None;
    }
    swept.sort_by_key(|s| s.at);
    let read = every_combination(base, &swept, total, skip_invalid == Some(true));
    read.outcome(p, key, span)
}

/// The `total` combinations of the `swept` keys over `base`, in order,
/// each a variant, skipped (when `skip_invalid`) or invalid.
fn every_combination(
    base: &Rules,
    swept: &[SweptKey],
    total: usize,
    skip_invalid: bool,
) -> Combinations {
    let base_table = match toml::Value::try_from(base.settings()) {
        Ok(toml::Value::Table(t)) => t,
        _ => unreachable!("the settings serialise as a table"),
    };
    let mut read = Combinations::default();
    for index in 0..total {
        let (name, settings) = combination_at(base, &base_table, swept, index);
        match combination(base, &name, settings) {
            Ok(rules) => read.variants.push(rules),
            Err(reasons) if skip_invalid => read.skipped.push(Skipped {
                variant: name,
                reasons,
            }),
            Err(reasons) => read.invalid.push((name, reasons)),
        }
    }
    read
}

/// A swept key: its place among the settings, its name and its values.
struct SweptKey<'t> {
    at: usize,
    key: &'t str,
    values: Vec<toml::Value>,
}

/// A sweep's `skip_invalid`; `None` after reporting a problem.
fn skip_invalid(p: &mut Problems, key: &str, table: &RawSweep) -> Option<bool> {
    let Some(v) = table.get("skip_invalid") else {
        return Some(false);
    };
    let given = v.get_ref().as_bool();
    if given.is_none() {
        p.add(
            Some(v.span()),
            &format!("{key}.skip_invalid"),
            "give true (leave out invalid combinations, listing them) or false",
        );
    }
    given
}

/// The keys a sweep table varies, in the table's order, and whether all
/// of them are settings it may vary, with valid values.
fn swept_keys<'t>(
    p: &mut Problems,
    key: &str,
    table: &'t RawSweep,
    names: &[String],
    overridden: &[&str],
) -> (Vec<SweptKey<'t>>, bool) {
    let mut swept = Vec::new();
    let mut ok = true;
    for (k, v) in table {
        if SWEEP_KEYS.contains(&k.as_str()) {
            continue;
        }
        let full = format!("{key}.{k}");
        let Some(at) = names.iter().position(|n| n == k) else {
            p.add(
                Some(v.span()),
                &full,
                format!(
                    "not a board key or rule setting{}: give `base`, `skip_invalid` or a \
                     setting to sweep ({})",
                    did_you_mean(
                        k,
                        SWEEP_KEYS
                            .iter()
                            .copied()
                            .chain(names.iter().map(String::as_str))
                    ),
                    names.join(", ")
                ),
            );
            ok = false;
            continue;
        };
        if overridden.contains(&k.as_str()) {
            p.add(
                Some(v.span()),
                &full,
                format!(
                    "the experiment's `{k}` replaces it in every variant: sweep it or \
                     override it, not both"
                ),
            );
            ok = false;
            continue;
        }
        match values(p, &full, v) {
            Some(values) => swept.push(SweptKey { at, key: k, values }),
            None => ok = false,
        }
    }
    (swept, ok)
}

/// Combination `index` of the swept values, counted in mixed radix with
/// the last key varying fastest: its variant name and settings.
fn combination_at(
    base: &Rules,
    base_table: &toml::Table,
    swept: &[SweptKey],
    index: usize,
) -> (String, toml::Table) {
    let mut rest = index;
    let mut choice = vec![0; swept.len()];
    for (i, s) in swept.iter().enumerate().rev() {
        choice[i] = rest % s.values.len();
        rest /= s.values.len();
    }
    let mut settings = base_table.clone();
    let mut name = base.name().to_string();
    for (s, &c) in swept.iter().zip(&choice) {
        let v = &s.values[c];
        // `seeds` and `layout` are two ways to fill the board: sweeping
        // one drops the base's other.
        match s.key {
            "seeds" => drop(settings.remove("layout")),
            "layout" => drop(settings.remove("seeds")),
            _ => {}
        }
        settings.insert(s.key.to_string(), v.clone());
        let shown = serde_json::to_value(v).map_or_else(|_| v.to_string(), |j| value_text(&j));
        name.push_str(&format!("+{}={shown}", s.key));
    }
    (name, settings)
}

/// A sweep's combinations as read: valid, left out, or invalid (with the
/// variant parser's reasons).
#[derive(Default)]
struct Combinations {
    variants: Vec<Rules>,
    skipped: Vec<Skipped>,
    invalid: Vec<(String, Vec<String>)>,
}

impl Combinations {
    /// The variants and those skipped, unless a combination is invalid or
    /// every one was skipped.
    fn outcome(
        self,
        p: &mut Problems,
        key: &str,
        span: Range<usize>,
    ) -> Option<(Vec<Rules>, Vec<Skipped>)> {
        for (name, reasons) in &self.invalid {
            p.add(
                Some(span.clone()),
                key,
                format!(
                    "combination `{name}` is not a valid variant: {} (or set \
                     `skip_invalid = true` to leave invalid combinations out)",
                    reasons.join("; ")
                ),
            );
        }
        if !self.invalid.is_empty() {
            return None;
        }
        if self.variants.is_empty() {
            let all: Vec<String> = (self.skipped.iter())
                .map(|s| format!("`{}`: {}", s.variant, s.reasons.join("; ")))
                .collect();
            p.add(
                Some(span),
                key,
                format!("every combination is invalid: {}", all.join("; ")),
            );
            return None;
        }
        Some((self.variants, self.skipped))
    }
}

/// Reads one combination's settings as a variant file would be read:
/// `Err` holds the parser's problems, each `key: message`.
fn combination(base: &Rules, name: &str, settings: toml::Table) -> Result<Rules, Vec<String>> {
    let text = write_variant_table(name, base.description(), base.source(), &settings);
    parse_variant("sweep", &text, name).map_err(|e| {
        e.problems
            .iter()
            .map(|q| match &q.key {
                Some(k) => format!("`{k}`: {}", q.message),
                None => q.message.clone(),
            })
            .collect::<Vec<_>>()
    })
}

#[cfg(test)]
mod tests {
    use crate::experiment::parse_experiment;

    fn parse(text: &str) -> Result<crate::experiment::Experiment, crate::rules::InputError> {
        parse_experiment("e.toml", text, &mut |_| Err("no files here".into()))
    }

    const HEAD: &str = "name = \"e\"\nseed = 1\ngames = 10\n\
                        [[matchups]]\np1 = \"random\"\np2 = \"random\"\n";

    fn names(e: &crate::experiment::Experiment) -> Vec<String> {
        e.variants
            .iter()
            .map(|v| v.rules.name().to_string())
            .collect()
    }

    #[test]
    fn the_product_is_named_and_ordered_by_the_settings() {
        // `seeds` is listed first and `holes` second, but `holes` comes
        // first among the settings, so it varies slowest and is named first.
        let e = parse(&format!(
            "{HEAD}[[sweep]]\nbase = \"katro-6x6\"\nseeds = [3, 2]\nholes = {{ from = 4, to = 5 }}\n\
             direction = [\"each-move\"]\n"
        ))
        .unwrap();
        assert_eq!(
            names(&e),
            [
                "katro-6x6+holes=4+seeds=3+direction=each-move",
                "katro-6x6+holes=4+seeds=2+direction=each-move",
                "katro-6x6+holes=5+seeds=3+direction=each-move",
                "katro-6x6+holes=5+seeds=2+direction=each-move",
            ]
        );
        let s = &e.variants[1].rules.settings();
        assert_eq!((s.rows, s.holes, s.seeds), (6, 4, Some(2)));
        assert!(
            e.variants[1]
                .rules
                .canonical_string()
                .contains("direction=each-move")
        );
        // The other settings are the base's.
        let base = crate::rules::preset("katro-6x6").unwrap();
        assert_eq!(s.relay, base.settings().relay);
        assert_eq!(s.ply_limit, base.settings().ply_limit);
        assert!(e.skipped.is_empty());
    }

    #[test]
    fn a_layout_replaces_the_seeds_and_seeds_replace_a_layout() {
        let e = parse(&format!(
            "{HEAD}[[sweep]]\nbase = \"katro-4x4\"\nrows = [2]\nholes = [2]\n\
             layout = [[[1, 2], [3, 4]]]\n"
        ))
        .unwrap();
        assert_eq!(names(&e), ["katro-4x4+rows=2+holes=2+layout=1.2/3.4"]);
        let s = &e.variants[0].rules.settings();
        assert_eq!(
            (s.seeds, s.layout.clone()),
            (None, Some(vec![vec![1, 2], vec![3, 4]]))
        );
    }

    #[test]
    fn invalid_combinations_are_all_reported_or_skipped_with_reasons() {
        let sweep = "[[sweep]]\nbase = \"katro-6x6\"\nrows = [4, 5, 7]\n";
        let err = parse(&format!("{HEAD}{sweep}")).unwrap_err().to_string();
        assert!(
            err.contains("e.toml:7:1: `sweep[0]`: combination `katro-6x6+rows=5` is not a valid variant: `board.rows`: 5 rows cannot be split"),
            "{err}"
        );
        assert!(err.contains("combination `katro-6x6+rows=7`"), "{err}");
        assert!(!err.contains("rows=4`"), "{err}");
        let e = parse(&format!("{HEAD}{sweep}skip_invalid = true\n")).unwrap();
        assert_eq!(names(&e), ["katro-6x6+rows=4"]);
        let skipped: Vec<&str> = e.skipped.iter().map(|s| s.variant.as_str()).collect();
        assert_eq!(skipped, ["katro-6x6+rows=5", "katro-6x6+rows=7"]);
        assert!(e.skipped[0].reasons[0].starts_with("`board.rows`: 5 rows cannot be split"));
        // Nothing valid at all is an error even when skipping.
        let err = parse(&format!(
            "{HEAD}[[sweep]]\nbase = \"katro-6x6\"\nrows = [5]\nskip_invalid = true\n"
        ))
        .unwrap_err()
        .to_string();
        assert!(err.contains("every combination is invalid"), "{err}");
    }

    #[test]
    fn bad_sweep_keys_are_reported_together() {
        let err = parse(&format!(
            "ply_limit = 100\n{HEAD}[[sweep]]\nbase = \"katro-9x9\"\n\n[[sweep]]\n\
             base = \"katro-6x6\"\nholes = []\nseeds = {{ from = 5, to = 2 }}\nspeed = [1]\n\
             ply_limit = [50]\nskip_invalid = \"yes\"\n\n[[sweep]]\nholes = [3]\n"
        ))
        .unwrap_err()
        .to_string();
        for want in [
            "`sweep[0].base`: unknown variant `katro-9x9`",
            "`sweep[1].holes`: the list is empty",
            "`sweep[1].seeds`: the range from 5 to 2 is empty",
            "`sweep[1].speed`: not a board key or rule setting",
            "`sweep[1].ply_limit`: the experiment's `ply_limit` replaces it",
            "`sweep[1].skip_invalid`: give true",
            "`sweep[2]`: missing `base`",
        ] {
            assert!(err.contains(want), "{want}\n{err}");
        }
        let err = parse(&format!(
            "{HEAD}[[sweep]]\nbase = \"katro-6x6\"\nlap_limit = {{ from = 1, to = 20000 }}\n"
        ))
        .unwrap_err()
        .to_string();
        assert!(err.contains("more than 10000 values"), "{err}");
        // Neither `variants` nor a sweep.
        let err = parse(HEAD).unwrap_err().to_string();
        assert!(err.contains("`variants`: is empty"), "{err}");
    }
}
