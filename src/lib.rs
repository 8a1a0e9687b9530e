//! katro: a rules engine and experiment toolkit for the Malagasy mancala
//! Katro and its relatives.
//!
//! The library does no I/O: [`rules::parse_variant`] turns a variant file's
//! text into an immutable [`Rules`], which creates [`Position`]s and plays
//! [`Move`]s on them. The `katro` binary is a thin layer over it: it parses
//! arguments, calls [`jobs::run`], [`jobs::merge`] or [`jobs::simulate`],
//! and prints.
//!
//! The one exception is [`store::FsStore`] (cargo feature `fs`, on by
//! default): the single place the library reads and writes files, for the
//! jobs that write results folders. The jobs themselves decide everything
//! and touch files only through the [`store::Store`] they are given, so
//! `cargo check --lib --no-default-features` builds a library with no I/O.

#![warn(clippy::mod_module_files)]

pub mod agents;
pub mod checks;
pub mod engine;
pub mod experiment;
pub mod files;
pub mod jobs;
pub mod pictures;
pub mod reference;
pub mod rng;
pub mod rules;
pub mod solve;
pub mod store;

// The old top-level paths that tests/, python/, benches/ and examples/ still
// use; code under src/ names the new ones, so tests/layout.rs sees its imports.
#[doc(hidden)]
pub use engine::notation;
#[doc(hidden)]
pub use experiment::runner;

pub use engine::{Dir, Move, MoveEnd, MoveList, MoveReport, Player, Position, Status};
pub use rules::{InputError, Rules, Settings};
