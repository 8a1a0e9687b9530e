//! How fast this build plays, for the tests that size a run to outlast two
//! checkpoints: the `checked` profile has debug assertions at release's
//! speed, so `cfg!(debug_assertions)` cannot tell. (The build identity is
//! katro-lab's: crates/lab/build.rs.)

fn main() {
    let opt = std::env::var("OPT_LEVEL").unwrap_or_default();
    println!("cargo::rustc-env=KATRO_OPT_LEVEL={opt}");
}
