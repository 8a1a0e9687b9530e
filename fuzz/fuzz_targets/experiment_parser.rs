//! Any bytes into the experiment-file parser. The input is the experiment
//! text, then optionally a NUL byte and the text every variant file it
//! names by path reads as, so the fuzzer reaches nested variant errors too
//! (`katro_lab::experiment::invariants::check_experiment_text`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = katro_lab::experiment::invariants::check_experiment_input(data) {
        panic!("{e}");
    }
});
