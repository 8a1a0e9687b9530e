//! katro: a rules engine and experiment toolkit for the Malagasy mancala
//! Katro and its relatives. docs/ARCHITECTURE.md is the guide; this is the
//! map, each layer importing only those above it (tests/layout.rs):
//!
//! - [`rng`]: the seed tree; every random draw of a run flows from the
//!   experiment's seed.
//! - [`rules`]: a game's settings, checked once into an immutable
//!   [`Rules`] (as shakmaty checks a `Setup`); variant files, presets and
//!   the errors that name file, line and key.
//! - [`engine`]: positions and moves ([`Rules::start`], `legal_moves`,
//!   `play`), every rule decision in docs/RULES.md's order, the lane
//!   kernel for fast whole games, the move notation.
//! - [`reference`]: the rules again, written plainly; the oracle the
//!   engine is tested against.
//! - [`solve`]: exact values of small boards.
//! - [`agents`]: players, from random to alpha-beta, MCTS and perfect.
//! - [`game`]: one game from start to end (opening plies, agents, the lane
//!   kernel or the engine) into its record, told to a [`game::GameObserver`].
//! - [`experiment`]: experiment files, their cells and work units, the
//!   parallel runner, and the statistics (aggregates that merge exactly,
//!   ratings, judging against perfect play, design metrics).
//! - `checks`: every invariant as a check that returns what broke, for the
//!   tests and the fuzzers (cargo feature `checks`, on by default).
//! - [`files`]: one module per file format katro writes or reads.
//! - [`pictures`]: report.html, its charts, the board SVG, the viewer.
//! - [`store`]: where files are read and written. [`store::FsStore`]
//!   (cargo feature `fs`, on by default) is the only code in the library
//!   that touches the file system, so `cargo check --lib
//!   --no-default-features` builds a library with no I/O.
//! - [`jobs`]: every command's work (run, merge, simulate, report, solve,
//!   solve-family, judge, replay, show, validate, play), each given a
//!   [`store::Store`]; the `katro` binary (cargo feature `cli`, on by
//!   default: clap, ctrlc and indicatif are its dependencies, not the
//!   library's) parses arguments, calls one job and prints, and Python
//!   calls the same jobs.

#![warn(clippy::mod_module_files)]

pub mod agents;
#[cfg(any(test, feature = "checks"))]
pub mod checks;
pub mod engine;
pub mod experiment;
pub mod files;
pub mod game;
pub mod jobs;
pub mod pictures;
pub mod reference;
pub mod rng;
pub mod rules;
pub mod solve;
pub mod store;

pub use engine::{Dir, Move, MoveEnd, MoveList, MoveReport, Player, Position, Status};
pub use rules::{InputError, Rules, Settings};
