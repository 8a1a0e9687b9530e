//! katro's integration tests, one test binary: each module is one
//! file of tests that drives the real `katro` binary or the library's
//! public API. One binary links the library once instead of once a file
//! (docs/ARCHITECTURE.md, "Tests").

mod common;

mod alphabeta_golden;
mod bench_cpu;
mod browser;
mod cells_apart;
mod check_proof;
mod cli;
mod differential;
mod exact_openings;
mod experiments;
mod families;
mod fuzz_properties;
mod invariants;
mod judge;
mod layout;
mod no_overwrite;
mod outputs_doc;
mod perft;
mod pictures;
mod prove;
mod prove_family;
mod prove_many;
mod quick;
mod rate;
mod readme_figures;
mod reliability;
mod rules_examples;
mod smoke;
mod solve;
mod strength_curve;
