//! The build identity: `KATRO_BUILD=src-<16 hex digits>`, a hash of the
//! sources that decide games. The crate version stays 0.1.0 across
//! commits, so it cannot tell whether a checkpoint or a shard was played
//! by the same engine; this hash can, and it needs no git (a tarball or a
//! cluster copy of the sources gets the same identity). What is hashed,
//! and what is left out (reports, the command line, comments), is in
//! build_identity.rs, which a unit test in src/files/header.rs shares.

include!("build_identity.rs");

fn main() {
    println!("cargo::rerun-if-changed=build_identity.rs");
    for root in IDENTITY_ROOTS {
        println!("cargo::rerun-if-changed={root}");
    }
    let (identity, _) = build_identity(std::path::Path::new("."));
    println!("cargo::rustc-env=KATRO_BUILD={identity}");
    // How fast this build plays, for the tests that size a run to outlast
    // two checkpoints: the `checked` profile has debug assertions at
    // release's speed, so `cfg!(debug_assertions)` cannot tell.
    let opt = std::env::var("OPT_LEVEL").unwrap_or_default();
    println!("cargo::rustc-env=KATRO_OPT_LEVEL={opt}");
}
