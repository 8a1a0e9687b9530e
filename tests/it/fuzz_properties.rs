//! The fuzz targets' checks (`katro_core::checks`, see docs/FUZZING.md) run as
//! property tests in the normal suite: random valid rule settings with
//! random games checked at every ply, and the variant and experiment
//! parsers on mutated shipped files. The fuzzers search far longer; these keep every commit
//! honest.

use std::collections::BTreeSet;

use katro_core::checks::{
    Draw, GEN_MAX_LAP_LIMIT, GEN_MAX_PLY_LIMIT, check_game, check_rules, check_variant_input,
    check_variant_text, draw_any_settings, draw_settings, variant_file_of,
};
use katro_core::rng::{below, rng_from_seed};
use katro_core::rules::{
    Allowed, MAX_TOTAL_SEEDS, PRESETS, Player, Rules, SETTINGS, parse_variant,
};
use katro_lab::experiment::invariants::{check_experiment_input, check_experiment_text};
use proptest::prelude::*;

/// The shipped experiment files, for the mutation tests (compiled in, like
/// the presets, so the test reads no file).
const EXPERIMENTS: &[&str] = &[
    include_str!("../../experiments/quick.toml"),
    include_str!("../../experiments/first-player-advantage.toml"),
    include_str!("../../experiments/game-length.toml"),
    include_str!("../../experiments/variant-balance.toml"),
    include_str!("../../experiments/boards.toml"),
    include_str!("../../experiments/readings.toml"),
];

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
        .unwrap_or_else(|e| panic!("the generator of valid settings drew invalid ones: {e}"))
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
        Just("\"v.toml\"".to_string()),
        Just("\"a\\u001b[31m\\nb\"".to_string()),
        Just("[\"a\\u001b[31m\\nb\"]".to_string()),
        Just("[\"v.toml\", \"katro-4x4\"]".to_string()),
        Just("\"alphabeta:depth=2\"".to_string()),
        Just("\"mcts:iterations=10,exploration=1.4\"".to_string()),
        Just("\"epsilon-greedy:epsilon=0.1\"".to_string()),
        Just("{ agent = \"alphabeta\", depth = 0 }".to_string()),
        Just("[{ variant = \"v.toml\", games = 3, ply_limit = 0 }]".to_string()),
        "[a-z-]{0,20}".prop_map(|s| format!("\"{s}\"")),
        "\\PC{0,12}",
        "[\\[\\]{}=\"',.# \n0-9a-z]{0,16}",
    ]
}

/// Keys and table headers of variant files, some of them misplaced or
/// unknown, for inserted lines.
const VARIANT_KEYS: &[&str] = &["seeds", "layout", "rows", "name", "start", "unknown"];
const VARIANT_HEADERS: &[&str] = &["[board]", "[rules]", "[other]"];
const EXPERIMENT_KEYS: &[&str] = &[
    "variants",
    "games",
    "seed",
    "name",
    "p1",
    "p2",
    "ply_limit",
    "width",
    "max_games",
    "checkpoint",
    "output",
    "per_game_rows",
    "moves_in_rows",
    "unknown",
];
const EXPERIMENT_HEADERS: &[&str] = &["[[matchups]]", "[precision]", "[other]"];

fn mutation(
    keys: &'static [&'static str],
    headers: &'static [&'static str],
) -> impl Strategy<Value = Mutation> {
    let line = 0usize..40;
    let inserted = prop_oneof![
        4 => (prop::sample::select(keys), value()).prop_map(|(k, v)| format!("{k} = {v}")),
        1 => prop::sample::select(headers).prop_map(str::to_string),
        1 => value(),
    ];
    prop_oneof![
        line.clone().prop_map(Mutation::DeleteLine),
        (line.clone(), value()).prop_map(|(i, v)| Mutation::ReplaceValue(i, v)),
        line.clone().prop_map(Mutation::DuplicateLine),
        (line.clone(), inserted).prop_map(|(i, s)| Mutation::InsertLine(i, s)),
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
    // No game is played: a case costs microseconds, and only about one in
    // thirteen draws is valid (`any_settings_are_both_valid_and_invalid`).
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// `Rules::new` takes any settings, valid or not, without panicking,
    /// and accepts exactly those the variant parser accepts when they are
    /// written out as a file: one set of checks for both ways in.
    #[test]
    fn rules_new_checks_any_settings(
        choices in prop::collection::vec(any::<u64>(), 0..400),
    ) {
        let settings = draw_any_settings(&mut Choices::new(choices));
        let built = Rules::new("any".into(), String::new(), String::new(), settings.clone());
        let text = variant_file_of("any", "", "", &settings);
        let parsed = parse_variant("any.toml", &text, "any");
        match (&built, &parsed) {
            (Ok(r), Ok(p)) => prop_assert_eq!(r.settings(), p.settings()),
            (Err(e), Err(f)) => {
                // The same problems, each placed in the file.
                let keys: Vec<_> = e.problems.iter().map(|q| (q.key.to_string(), q.message.clone())).collect();
                let placed: Vec<_> = f.problems.iter().map(|q| (q.key.clone().unwrap_or_default(), q.message.clone())).collect();
                let mut keys = keys; keys.sort();
                let mut placed = placed; placed.sort();
                prop_assert_eq!(keys, placed, "{}", text);
                prop_assert!(f.problems.iter().all(|q| q.line.is_some()), "{}", f);
            }
            _ => prop_assert!(false, "Rules::new {:?}, parser {:?}, file:\n{}", built.as_ref().map(drop), parsed.as_ref().map(drop), text),
        }
    }

    /// The other ways to rules and positions take any input without
    /// panicking: `with_settings` checks as `Rules::new` does, `with_limits`
    /// changes the limits only and names the limit it refuses, and
    /// `position` accepts a board exactly when it has the board's holes
    /// and at most `MAX_TOTAL_SEEDS` seeds, on which the status and the
    /// legal moves are then computed.
    #[test]
    fn rules_and_positions_check_any_input(
        base in prop::collection::vec(any::<u64>(), 0..40),
        other in prop::collection::vec(any::<u64>(), 0..400),
        ply_limit in prop::option::of(prop_oneof![0u64..200, any::<u64>()]),
        lap_limit in prop::option::of(prop_oneof![0u64..200, any::<u64>()]),
        cells in prop::collection::vec(prop_oneof![8 => 0u16..4, 1 => any::<u16>()], 0..160),
        fit in any::<bool>(),
        north in any::<bool>(),
        plies in any::<u32>(),
    ) {
        let rules = generated(base);
        let settings = draw_any_settings(&mut Choices::new(other));
        let fresh = Rules::new("generated".into(), String::new(), String::new(), settings.clone());
        let again = rules.with_settings(settings);
        prop_assert_eq!(again.as_ref().map(|r| r.settings()).ok(), fresh.as_ref().map(|r| r.settings()).ok());
        prop_assert_eq!(again.as_ref().map(|r| r.name()).ok().unwrap_or("generated"), "generated");

        match rules.with_limits(ply_limit, lap_limit) {
            Ok(limited) => {
                let mut want = rules.settings().clone();
                if let Some(v) = ply_limit {
                    want.ply_limit = v as u32;
                    prop_assert_eq!(want.ply_limit as u64, v);
                }
                if let Some(v) = lap_limit {
                    want.lap_limit = v;
                }
                prop_assert_eq!(limited.settings(), &want);
            }
            Err(e) => {
                prop_assert!(!e.problems.is_empty());
                for q in &e.problems {
                    let given = match q.key {
                        "rules.ply_limit" => ply_limit,
                        "rules.lap_limit" => lap_limit,
                        other => return Err(TestCaseError::fail(format!("with_limits refused {other}: {}", q.message))),
                    };
                    prop_assert!(given.is_some(), "{} refused though not overridden", q.key);
                }
            }
        }

        let mut holes = cells;
        if fit {
            holes.resize(rules.hole_count(), 0);
        }
        let to_move = if north { Player::North } else { Player::South };
        let total: u64 = holes.iter().map(|&v| v as u64).sum();
        match rules.position(&holes, to_move, [None, None], plies) {
            Ok(pos) => {
                prop_assert_eq!(holes.len(), rules.hole_count());
                prop_assert!(total <= MAX_TOTAL_SEEDS);
                prop_assert_eq!(&pos.holes()[..holes.len()], &holes[..]);
                prop_assert_eq!((pos.to_move(), pos.plies()), (to_move, plies));
                let legal = rules.legal_moves(&pos);
                prop_assert_eq!(legal.is_empty(), rules.status(&pos).is_over());
            }
            Err(message) => {
                prop_assert!(holes.len() != rules.hole_count() || total > MAX_TOTAL_SEEDS, "{}", message);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random valid settings (every board size and rule value) are valid
    /// to the parser too, and a random game under them keeps every
    /// invariant at every ply (see `katro_core::checks::check_game`).
    #[test]
    fn random_rules_play_by_the_invariants(
        settings in prop::collection::vec(any::<u64>(), 0..320),
        game in prop::collection::vec(any::<u64>(), 0..1200),
    ) {
        let rules = generated(settings);
        check_rules(&rules).map_err(TestCaseError::fail)?;
        check_game(&rules, &mut Choices::new(game)).map_err(TestCaseError::fail)?;
    }

    /// Random valid settings: the engine and the plain reference
    /// implementation play the same games move by move (the property-test
    /// twin of the `engine_vs_reference` fuzz target).
    #[test]
    fn random_rules_play_as_the_reference_does(
        settings in prop::collection::vec(any::<u64>(), 0..320),
        seed in any::<u64>(),
    ) {
        let rules = generated(settings);
        katro_reference::compare::run_variant(&rules, 1, 200, seed)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }

    /// The parser never panics on damaged preset files; what it refuses it
    /// refuses with a well-formed error, and what it accepts round-trips.
    #[test]
    fn parser_survives_mutated_presets(
        preset in 0..PRESETS.len(),
        mutations in prop::collection::vec(mutation(VARIANT_KEYS, VARIANT_HEADERS), 1..5),
    ) {
        let text = mutate(PRESETS[preset].1, &mutations);
        check_variant_text("mutated.toml", &text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- text:\n{text}")))?;
    }

    /// The same for experiment files, whose variant files given by path
    /// read as a preset's text, or a mutated one, or cannot be read.
    #[test]
    fn parser_survives_mutated_experiments(
        experiment in 0..EXPERIMENTS.len(),
        mutations in prop::collection::vec(mutation(EXPERIMENT_KEYS, EXPERIMENT_HEADERS), 1..5),
        variant in prop::option::of((
            0..PRESETS.len(),
            prop::collection::vec(mutation(VARIANT_KEYS, VARIANT_HEADERS), 0..3),
        )),
    ) {
        let text = mutate(EXPERIMENTS[experiment], &mutations);
        let variant = variant.map(|(i, m)| mutate(PRESETS[i].1, &m));
        check_experiment_text("mutated.toml", &text, variant.as_deref())
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- text:\n{text}")))?;
    }

    /// Arbitrary short text, not only near-valid files.
    #[test]
    fn parser_survives_any_text(text in "\\PC{0,200}") {
        check_variant_text("any.toml", &text).map_err(TestCaseError::fail)?;
        check_experiment_text("any.toml", &text, None).map_err(TestCaseError::fail)?;
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
        let s = generated(choices).settings().clone();
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
    // Every value of every declared setting: a new setting is expected
    // with no change here.
    for info in SETTINGS {
        if let Allowed::Values(names) = info.allowed {
            expected.extend(names.iter().map(|v| format!("{}={v}", info.name())));
        }
    }
    for rows in [2, 4, 6, 8] {
        for holes in 2..=16 {
            expected.insert(format!("{rows}x{holes}"));
        }
    }
    expected.extend(["layout", "seeds", "low lap limit"].map(String::from));
    let missing: Vec<_> = expected.difference(&seen).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

/// The settings `rules_new_checks_any_settings` draws are both accepted
/// and refused often enough for its comparison to mean something.
#[test]
fn any_settings_are_both_valid_and_invalid() {
    let mut rng = rng_from_seed(11);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..2000 {
        let choices: Vec<u64> = (0..400)
            .map(|_| below(&mut rng, usize::MAX) as u64)
            .collect();
        let s = draw_any_settings(&mut Choices::new(choices));
        match Rules::new("any".into(), String::new(), String::new(), s) {
            Ok(_) => ok += 1,
            Err(_) => refused += 1,
        }
    }
    assert!(
        ok >= 100 && refused >= 100,
        "{ok} accepted, {refused} refused"
    );
}

/// The shipped presets and experiments pass the parsers' checks, round
/// trips included.
#[test]
fn shipped_files_pass_the_parser_checks() {
    for (name, text) in PRESETS {
        let rules = check_variant_text(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(rules.is_some(), "{name} refused");
    }
    for text in EXPERIMENTS {
        let exp =
            check_experiment_text("shipped.toml", text, None).unwrap_or_else(|e| panic!("{e}"));
        assert!(exp.is_some(), "refused:\n{text}");
    }
}

/// The committed fuzz corpora of the parsers replay here, so an input the
/// fuzzer once found interesting is checked on every commit, not only when
/// someone fuzzes. (The engine corpus is decoded by the `arbitrary` crate
/// and replays with `cargo fuzz run engine_invariants -- -runs=0`.)
#[test]
fn parser_corpora_replay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut replayed = 0;
    for target in ["variant_parser", "experiment_parser"] {
        let Ok(dir) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for entry in dir {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let result = if target == "variant_parser" {
                check_variant_input(&data)
            } else {
                check_experiment_input(&data)
            };
            result.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no corpus under {}", root.display());
}
