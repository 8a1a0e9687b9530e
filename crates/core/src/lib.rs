//! katro-core: what decides a game of the Malagasy mancala Katro and its
//! relatives, with no files, CSV, plots or command line (its dependencies
//! say so). docs/ARCHITECTURE.md is the guide; this is the map, each module
//! importing only those above it (tests/it/layout.rs):
//!
//! - [`rng`]: the seed tree; every random draw of a run flows from the
//!   experiment's seed.
//! - [`rules`]: a game's settings, checked once into an immutable
//!   [`Rules`] (as shakmaty checks a `Setup`); variant files, presets and
//!   the errors that name file, line and key.
//! - [`engine`]: positions and moves ([`Rules::start`], `legal_moves`,
//!   `play`), every rule decision in docs/RULES.md's order, the lane
//!   kernel for fast whole games, the move notation.
//! - [`solve`]: exact values of small boards, and the prover
//!   ([`solve::prove`]) that values a position by proof search.
//! - [`agents`]: players, from random to alpha-beta, MCTS and perfect.
//! - [`game`]: one game from start to end (opening plies, agents, the lane
//!   kernel or the engine) into its record, told to a [`game::GameObserver`].
//! - `checks`: every invariant as a check that returns what broke, for the
//!   tests and the fuzzers (cargo feature `checks`).
//!
//! The experiments, result files, reports and jobs are katro-lab's; the
//! command line is the `katro` package's; the rules written a second time,
//! the engine's oracle, are katro-reference's.
//!
//! A game by hand, then whole games between agents (a doctest, run by
//! `cargo test`):
//!
//! ```
//! use katro_core::agents::AgentSpec;
//! use katro_core::engine::notation::{move_name, parse_move};
//! use katro_core::game::play_game;
//! use katro_core::rules::preset;
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
// Every invariant as a check that returns what broke: for the tests and the
// fuzzers (cargo feature `checks`), so no game-playing code reaches it.
#[cfg(any(test, feature = "checks"))]
pub mod checks;
pub mod engine;
pub mod game;
pub mod rng;
pub mod rules;
pub mod solve;

pub use engine::{Dir, Move, MoveEnd, MoveList, MoveReport, Player, Position, Status};
pub use rules::{InputError, Rules, Settings};
