//! The fuzzer's bytes as a source of choices, shared by the targets that
//! build random settings and games from them.

use katro_core::checks::Draw;
use libfuzzer_sys::arbitrary::Unstructured;

/// `int_in_range` takes only the bytes a range needs, and gives its low
/// end once they run out.
pub struct Input<'a>(pub Unstructured<'a>);

impl Draw for Input<'_> {
    fn below(&mut self, n: u64) -> u64 {
        self.0.int_in_range(0..=n - 1).unwrap_or(0)
    }
    fn exhausted(&self) -> bool {
        self.0.is_empty()
    }
}
