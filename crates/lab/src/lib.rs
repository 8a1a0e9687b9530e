//! katro-lab: experiments on Katro and its relatives, on top of
//! katro-core's games. docs/ARCHITECTURE.md is the guide; this is the map,
//! each module importing only those above it (tests/it/layout.rs), and
//! none of them reachable from katro-core (its dependencies keep that):
//!
//! - [`experiment`]: experiment files, their cells and work units, the
//!   parallel runner, and the statistics (aggregates that merge exactly,
//!   ratings, judging against perfect play, design metrics).
//! - [`files`]: one module per file format katro writes or reads, and
//!   the checker of a proof certificate (`files::certificate`).
//! - [`pictures`]: report.html, its charts, the board SVG, the viewer.
//! - [`store`]: where files are read and written. [`store::FsStore`]
//!   (cargo feature `fs`, on by default) is the only code in the crate
//!   that touches the file system, so `cargo check -p katro-lab
//!   --no-default-features` builds a library with no I/O.
//! - [`jobs`]: every command's work (run, merge, simulate, report, solve,
//!   solve-family, judge, replay, show, validate, play, check-proof), each
//!   given a [`store::Store`]; the `katro` binary parses arguments, calls
//!   one job and prints, and Python calls the same jobs.

#![warn(clippy::mod_module_files)]

// katro-core's modules under the names this crate's code has always used
// (`crate::engine::…`): the same items, not copies; outside users name
// them through katro_core.
use katro_core::{agents, engine, game, rng, rules, solve};

pub mod experiment;
pub mod files;
pub mod jobs;
pub mod pictures;
pub mod store;
