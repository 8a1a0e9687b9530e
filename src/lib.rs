//! katro: a rules engine and experiment toolkit for the Malagasy mancala
//! Katro and its relatives. docs/ARCHITECTURE.md is the guide; this is the
//! map, each layer importing only those above it (tests/it/layout.rs):
//!
//! - [`rng`]: the seed tree; every random draw of a run flows from the
//!   experiment's seed.
//! - [`rules`]: a game's settings, checked once into an immutable
//!   [`Rules`] (as shakmaty checks a `Setup`); variant files, presets and
//!   the errors that name file, line and key.
//! - [`engine`]: positions and moves ([`Rules::start`], `legal_moves`,
//!   `play`), every rule decision in docs/RULES.md's order, the lane
//!   kernel for fast whole games, the move notation.
//! - [`mod@reference`]: the rules again, written plainly; the oracle the
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
//! - [`files`]: one module per file format katro writes or reads, and
//!   the checker of a proof certificate (`files::certificate`).
//! - [`pictures`]: report.html, its charts, the board SVG, the viewer.
//! - [`store`]: where files are read and written. [`store::FsStore`]
//!   (cargo feature `fs`, on by default) is the only code in the library
//!   that touches the file system, so `cargo check --lib
//!   --no-default-features` builds a library with no I/O.
//! - [`jobs`]: every command's work (run, merge, simulate, report, solve,
//!   solve-family, judge, replay, show, validate, play, check-proof), each
//!   given a [`store::Store`]; the `katro` binary (cargo feature `cli`, on by
//!   default: clap, ctrlc and indicatif are its dependencies, not the
//!   library's) parses arguments, calls one job and prints, and Python
//!   calls the same jobs.
//!
//! A game by hand, then whole games between agents (a doctest, run by
//! `cargo test`):
//!
//! ```
//! use katro::agents::AgentSpec;
//! use katro::engine::notation::{move_name, parse_move};
//! use katro::game::play_game;
//! use katro::rules::preset;
//!
//! let rules = preset("katro-6x6").expect("a shipped preset");
//! let mut pos = rules.start();
//! let legal = rules.legal_moves(&pos);
//! let first = legal[0];
//! // Moves are written in the notation of docs/RULES.md and read back.
//! let name = move_name(&rules, first);
//! assert_eq!(parse_move(&rules, &name).expect("a move's name"), first);
//! let report = rules.play(&mut pos, first).expect("a listed move");
//! assert!(report.laps >= 1);
//! assert_eq!(pos.plies(), 1);
//!
//! // A whole game is a function of its seed: the same seed, the same game.
//! let greedy = AgentSpec::parse("greedy").expect("a valid agent");
//! let game = play_game(&rules, &greedy, &AgentSpec::Random, 0, 7, None);
//! assert!(game.status.is_over());
//! assert_eq!(game, play_game(&rules, &greedy, &AgentSpec::Random, 0, 7, None));
//! ```

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
// The independent model the engine is tested against: for the tests and
// the fuzzers only, like `checks`, so no library code can reach it.
#[cfg(any(test, feature = "checks"))]
pub mod reference;
pub mod rng;
pub mod rules;
pub mod solve;
pub mod store;

pub use engine::{Dir, Move, MoveEnd, MoveList, MoveReport, Player, Position, Status};
pub use rules::{InputError, Rules, Settings};
