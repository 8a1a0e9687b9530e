//! The shipped presets, compiled in so the binary works from any folder.

use super::{Rules, parse_variant};

/// The shipped presets: name and file text, compiled in so the binary works
/// from any folder.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "katro-6x6",
        include_str!("../../../../variants/katro-6x6.toml"),
    ),
    (
        "katro-4x4",
        include_str!("../../../../variants/katro-4x4.toml"),
    ),
    (
        "katro-4x6",
        include_str!("../../../../variants/katro-4x6.toml"),
    ),
    (
        "katro-6x3",
        include_str!("../../../../variants/katro-6x3.toml"),
    ),
    (
        "katro-6x6-diagonal",
        include_str!("../../../../variants/katro-6x6-diagonal.toml"),
    ),
    (
        "katro-wikipedia",
        include_str!("../../../../variants/katro-wikipedia.toml"),
    ),
    (
        "katro-ludii",
        include_str!("../../../../variants/katro-ludii.toml"),
    ),
    (
        "katra-boaoaka-4x8",
        include_str!("../../../../variants/katra-boaoaka-4x8.toml"),
    ),
    (
        "katra-boaoaka-ludii",
        include_str!("../../../../variants/katra-boaoaka-ludii.toml"),
    ),
];

/// A shipped preset by name.
pub fn preset(name: &str) -> Option<Rules> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(n, text)| {
        // A test parses every preset, so this cannot fail in a build.
        parse_variant(&format!("variants/{n}.toml"), text, n)
            .unwrap_or_else(|e| panic!("shipped preset {n} is invalid: {e}"))
    })
}

pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}
