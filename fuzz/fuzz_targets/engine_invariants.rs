//! Random valid rule settings built from the input, then a game whose
//! moves the rest of the input chooses, with the engine's invariants
//! checked at every ply (`katro::checks::check_game`).

#![no_main]

use katro::Rules;
use katro::checks::{Draw, check_game, check_rules, draw_settings};
use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

/// The fuzzer's bytes as choices. `int_in_range` takes only the bytes a
/// range needs, and gives its low end once they run out.
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
    let rules = match Rules::new("fuzz".into(), String::new(), String::new(), settings) {
        Ok(r) => r,
        Err(e) => panic!("the generator of valid settings drew invalid ones: {e}"),
    };
    if let Err(e) = check_rules(&rules).and_then(|()| check_game(&rules, &mut input).map(drop)) {
        panic!("{e}");
    }
});
