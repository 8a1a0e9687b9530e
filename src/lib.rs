//! katro: a rules engine and experiment toolkit for the Malagasy mancala
//! Katro and its relatives.
//!
//! The library does no I/O: [`rules::parse_variant`] turns a variant file's
//! text into an immutable [`Rules`], which creates [`Position`]s and plays
//! [`Move`]s on them. The `katro` binary is a thin layer over it.

pub mod agents;
pub mod board_svg;
pub mod checks;
pub mod engine;
pub mod experiment;
pub mod export;
pub mod notation;
pub mod partial;
pub mod reference;
pub mod report;
pub mod rng;
pub mod rules;
pub mod runner;
pub mod schema;
pub mod solve;
pub mod stats;
pub mod sweep;
pub mod viewer;

pub use engine::{Dir, Move, MoveEnd, MoveList, MoveReport, Player, Position, Status};
pub use rules::{InputError, Rules, Settings};
