//! The build identity: `KATRO_BUILD=src-<16 hex digits>`, a hash of the
//! sources that decide games. The crate version stays 0.1.0 across
//! commits, so it cannot tell whether a checkpoint or a shard was played
//! by the same engine; this hash can, and it needs no git (a tarball or a
//! cluster copy of the sources gets the same identity). What is hashed,
//! and what is left out (reports, jobs, the command line, comments), is in
//! build_identity.rs, which a unit test in src/files/header.rs shares.

include!("build_identity.rs");

fn main() {
    // The workspace root: the hash names its files from there.
    let root = std::path::Path::new("../..");
    println!("cargo::rerun-if-changed=build_identity.rs");
    for r in IDENTITY_ROOTS {
        println!("cargo::rerun-if-changed=../../{r}");
    }
    let (identity, _) = build_identity(root);
    println!("cargo::rustc-env=KATRO_BUILD={identity}");
}
