//! The fuzz targets' checks (`katro::checks`, see docs/FUZZING.md) run as
//! property tests in the normal suite: random valid rule settings with
//! random games checked at every ply, and the variant parser on mutated
//! preset files. The fuzzers search far longer; these keep every commit
//! honest.

use std::collections::BTreeSet;

use katro::checks::{
    CAPTURE_TRIGGERS, CAPTURING_ROWS, DIRECTION_RULES, Draw, ENDLESS_MOVES, GEN_MAX_LAP_LIMIT,
    GEN_MAX_PLY_LIMIT, LONE_SEEDS, RELAYS, SINGLETONS, START_RULES, VICTIM_RULES, check_game,
    check_rules, check_variant_text, draw_settings,
};
use katro::rng::{below, rng_from_seed};
use katro::rules::{PRESETS, Rules, kebab};
use proptest::prelude::*;

/// Choices drawn by proptest: each is taken modulo the range asked for,
/// and 0 once the list runs out, so shrinking the list (shorter, smaller
/// numbers) shrinks the case towards the simplest rules and game.
#[derive(Debug)]
struct Choices {
    values: Vec<u64>,
    next: usize,
}

impl Choices {
    fn new(values: Vec<u64>) -> Choices {
        Choices { values, next: 0 }
    }
}

impl Draw for Choices {
    fn below(&mut self, n: u64) -> u64 {
        let v = self.values.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        v % n
    }
    fn exhausted(&self) -> bool {
        self.next >= self.values.len()
    }
}

fn generated(choices: Vec<u64>) -> Rules {
    let settings = draw_settings(&mut Choices::new(choices));
    Rules::new("generated".into(), String::new(), String::new(), settings)
}

/// One way to damage a line-oriented TOML file.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteLine(usize),
    /// Replaces what follows the line's `=` (or the whole line).
    ReplaceValue(usize, String),
    DuplicateLine(usize),
    InsertLine(usize, String),
    SwapLines(usize, usize),
    /// Cuts the text at a byte offset (moved back to a char boundary).
    Truncate(usize),
    /// Gives a layout in place of the seeds per hole.
    SeedsToLayout(String),
}

/// A layout of up to 3 rows of up to 200 holes, with values in and out
/// of range: rows of the wrong length and bad seed counts together.
fn layout() -> impl Strategy<Value = String> {
    let entry = prop_oneof![4 => 0i64..3, 1 => Just(-1i64), 1 => Just(70_000i64)];
    prop::collection::vec(prop::collection::vec(entry, 0..200), 0..3).prop_map(|rows| {
        let rows: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
        format!("[{}]", rows.join(", "))
    })
}

/// Values a person might write by mistake: numbers of every size and
/// sign, unknown and near-miss names, other TOML types, and junk.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        layout(),
        any::<i64>().prop_map(|v| v.to_string()),
        (-3i64..20).prop_map(|v| v.to_string()),
        Just("99999999999999999999".to_string()),
        Just("1.5".to_string()),
        Just("true".to_string()),
        Just("\"\"".to_string()),
        Just("[]".to_string()),
        Just("[[1, 2], [3, 4]]".to_string()),
        Just("[[0, 0], [0, 0]]".to_string()),
        Just("[[65535, 65535], [1, 1]]".to_string()),
        Just("{ a = 1 }".to_string()),
        Just("2024-01-01".to_string()),
        "[a-z-]{0,20}".prop_map(|s| format!("\"{s}\"")),
        "\\PC{0,12}",
        "[\\[\\]{}=\"',.# \n0-9a-z]{0,16}",
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let line = 0usize..40;
    prop_oneof![
        line.clone().prop_map(Mutation::DeleteLine),
        (line.clone(), value()).prop_map(|(i, v)| Mutation::ReplaceValue(i, v)),
        line.clone().prop_map(Mutation::DuplicateLine),
        (
            line.clone(),
            prop_oneof![
                value().prop_map(|v| format!("seeds = {v}")),
                value().prop_map(|v| format!("layout = {v}")),
                value().prop_map(|v| format!("name = {v}")),
                value().prop_map(|v| format!("unknown = {v}")),
                Just("[board]".to_string()),
                Just("[rules]".to_string()),
                Just("[other]".to_string()),
                value(),
            ]
        )
            .prop_map(|(i, s)| Mutation::InsertLine(i, s)),
        (line.clone(), line).prop_map(|(i, j)| Mutation::SwapLines(i, j)),
        (0usize..4000).prop_map(Mutation::Truncate),
        layout().prop_map(Mutation::SeedsToLayout),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut cut = None;
    for m in mutations {
        let n = lines.len().max(1);
        match m {
            Mutation::DeleteLine(i) if !lines.is_empty() => {
                lines.remove(i % n);
            }
            Mutation::ReplaceValue(i, v) if !lines.is_empty() => {
                let line = &mut lines[i % n];
                *line = match line.split_once('=') {
                    Some((key, _)) => format!("{key}= {v}"),
                    None => v.clone(),
                };
            }
            Mutation::DuplicateLine(i) if !lines.is_empty() => {
                let copy = lines[i % n].clone();
                lines.insert(i % n, copy);
            }
            Mutation::InsertLine(i, s) => lines.insert(i % (lines.len() + 1), s.clone()),
            Mutation::SwapLines(i, j) if !lines.is_empty() => lines.swap(i % n, j % n),
            Mutation::Truncate(at) => cut = Some(*at),
            Mutation::SeedsToLayout(v) => {
                for line in lines.iter_mut().filter(|l| l.starts_with("seeds")) {
                    *line = format!("layout = {v}");
                }
            }
            _ => {}
        }
    }
    let mut text = lines.join("\n");
    if let Some(at) = cut {
        let mut at = at % (text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.truncate(at);
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random valid settings (every board size and rule value) are valid
    /// to the parser too, and a random game under them keeps every
    /// invariant at every ply (see `katro::checks::check_game`).
    #[test]
    fn random_rules_play_by_the_invariants(
        settings in prop::collection::vec(any::<u64>(), 0..320),
        game in prop::collection::vec(any::<u64>(), 0..1200),
    ) {
        let rules = generated(settings);
        check_rules(&rules).map_err(TestCaseError::fail)?;
        check_game(&rules, &mut Choices::new(game)).map_err(TestCaseError::fail)?;
    }

    /// The parser never panics on damaged preset files; what it refuses it
    /// refuses with a well-formed error, and what it accepts round-trips.
    #[test]
    fn parser_survives_mutated_presets(
        preset in 0..PRESETS.len(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let text = mutate(PRESETS[preset].1, &mutations);
        check_variant_text("mutated.toml", &text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- text:\n{text}")))?;
    }

    /// Arbitrary short text, not only near-valid files.
    #[test]
    fn parser_survives_any_text(text in "\\PC{0,200}") {
        check_variant_text("any.toml", &text).map_err(TestCaseError::fail)?;
    }
}

/// Games long enough to reach the ply limit, which the random cases above
/// rarely do, on settings drawn from a fixed seed.
#[test]
fn long_games_reach_their_limits() {
    let mut rng = rng_from_seed(5);
    let mut ends = BTreeSet::new();
    for _ in 0..12 {
        let settings: Vec<u64> = (0..320).map(|_| below(&mut rng, 1 << 20) as u64).collect();
        let rules = generated(settings);
        let game: Vec<u64> = (0..4000).map(|_| below(&mut rng, 1 << 20) as u64).collect();
        let summary = check_game(&rules, &mut Choices::new(game)).unwrap_or_else(|e| panic!("{e}"));
        ends.insert(summary.status.name());
    }
    assert!(
        ends.contains("ply-limit"),
        "no game reached its ply limit: {ends:?}"
    );
}

/// The generator reaches every value of every setting, every board size,
/// both board forms and both ends of the limits: otherwise the property
/// tests and the fuzzer would silently skip part of the rules.
#[test]
fn generator_reaches_every_setting() {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut rng = rng_from_seed(7);
    for _ in 0..3000 {
        let choices: Vec<u64> = (0..320)
            .map(|_| below(&mut rng, usize::MAX) as u64)
            .collect();
        let s = generated(choices).settings;
        // Every rule setting is a string in its serialised form; keyed,
        // because values repeat across settings ("occupied").
        let json = serde_json::to_value(&s).expect("settings serialise");
        for (key, value) in json.as_object().expect("settings are a map") {
            if let Some(v) = value.as_str() {
                seen.insert(format!("{key}={v}"));
            }
        }
        seen.insert(format!("{}x{}", s.rows, s.holes));
        seen.insert(
            if s.layout.is_some() {
                "layout"
            } else {
                "seeds"
            }
            .into(),
        );
        if s.lap_limit <= 10 {
            seen.insert("low lap limit".into());
        }
        assert!(s.lap_limit <= GEN_MAX_LAP_LIMIT && s.ply_limit as u64 <= GEN_MAX_PLY_LIMIT);
    }
    let mut expected: BTreeSet<String> = BTreeSet::new();
    let mut expect = |key: &str, values: Vec<String>| {
        expected.extend(values.into_iter().map(|v| format!("{key}={v}")));
    };
    expect("start", START_RULES.iter().map(kebab).collect());
    expect("singletons", SINGLETONS.iter().map(kebab).collect());
    expect("direction", DIRECTION_RULES.iter().map(kebab).collect());
    expect("relay", RELAYS.iter().map(kebab).collect());
    expect(
        "capture_trigger",
        CAPTURE_TRIGGERS.iter().map(kebab).collect(),
    );
    expect("capturing_row", CAPTURING_ROWS.iter().map(kebab).collect());
    expect("victim", VICTIM_RULES.iter().map(kebab).collect());
    expect("lone_seed", LONE_SEEDS.iter().map(kebab).collect());
    expect("endless_move", ENDLESS_MOVES.iter().map(kebab).collect());
    for rows in [2, 4, 6, 8] {
        for holes in 2..=16 {
            expected.insert(format!("{rows}x{holes}"));
        }
    }
    expected.extend(["layout", "seeds", "low lap limit"].map(String::from));
    let missing: Vec<_> = expected.difference(&seen).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

/// The shipped presets pass the parser's checks, round trip included.
#[test]
fn presets_pass_the_parser_checks() {
    for (name, text) in PRESETS {
        let rules = check_variant_text(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(rules.is_some(), "{name} refused");
    }
}
