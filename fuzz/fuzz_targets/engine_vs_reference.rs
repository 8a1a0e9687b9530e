//! Random valid rule settings built from the input, then games played in
//! both the engine and the plain reference implementation
//! (`katro_reference`), compared move by move
//! (`katro_reference::compare::run_variant`): one from the start and one
//! from a random position, the moves drawn from a seed the input gives.

#![no_main]

#[path = "input.rs"]
mod input;

use input::Input;
use katro_core::Rules;
use katro_core::checks::{Draw, draw_settings};
use katro_reference::compare::run_variant;
use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input(Unstructured::new(data));
    let settings = draw_settings(&mut input);
    let seed = input.below(u64::MAX);
    let rules = match Rules::new("fuzz".into(), String::new(), String::new(), settings) {
        Ok(r) => r,
        Err(e) => panic!("the generator of valid settings drew invalid ones: {e}"),
    };
    // 200 plies a game: the reference sows seed by seed.
    if let Err(e) = run_variant(&rules, 1, 200, seed) {
        panic!("{e}");
    }
});
