//! Random valid rule settings built from the input, then a game whose
//! moves the rest of the input chooses, with the engine's invariants
//! checked at every ply (`katro_core::checks::check_game`).

#![no_main]

#[path = "input.rs"]
mod input;

use input::Input;
use katro_core::Rules;
use katro_core::checks::{check_game, check_rules, draw_settings};
use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input(Unstructured::new(data));
    let settings = draw_settings(&mut input);
    let rules = match Rules::new("fuzz".into(), String::new(), String::new(), settings) {
        Ok(r) => r,
        Err(e) => panic!("the generator of valid settings drew invalid ones: {e}"),
    };
    if let Err(e) = check_rules(&rules).and_then(|()| check_game(&rules, &mut input).map(drop)) {
        panic!("{e}");
    }
});
