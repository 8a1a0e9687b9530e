//! Any bytes, as text, into the variant-file parser: it must not panic,
//! its errors must be well-formed, and the rules it accepts must be
//! consistent and survive a round trip through a written file
//! (`katro_core::checks::check_variant_text`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = katro_core::checks::check_variant_input(data) {
        panic!("{e}");
    }
});
