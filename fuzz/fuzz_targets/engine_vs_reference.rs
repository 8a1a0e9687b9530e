//! Random valid rule settings built from the input, then games played in
//! both the engine and the plain reference implementation
//! (`katro::reference`), compared move by move
//! (`katro::reference::compare::run_variant`): one from the start and one
//! from a random position, the moves drawn from a seed the input gives.

#![no_main]

use katro::Rules;
use katro::checks::{Draw, draw_settings};
use katro::reference::compare::run_variant;
use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

/// The fuzzer's bytes as choices, as in `engine_invariants`.
struct Input<'a>(Unstructured<'a>);

impl Draw for Input<'_> {
    fn below(&mut self, n: u64) -> u64 {
        self.0.int_in_range(0..=n - 1).unwrap_or(0)
    }
    fn exhausted(&self) -> bool {
        self.0.is_empty()
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(Unstructured::new(data));
    let settings = draw_settings(&mut input);
    let seed = input.below(u64::MAX);
    let rules = Rules::new("fuzz".into(), String::new(), String::new(), settings);
    // 200 plies a game: the reference sows seed by seed.
    if let Err(e) = run_variant(&rules, 1, 200, seed) {
        panic!("{e}");
    }
});
