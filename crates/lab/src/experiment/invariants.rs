//! The experiment parser's invariants as checks that return what broke
//! instead of panicking, beside katro_core::checks (the engine's and the
//! variant parser's): shared by the property tests
//! (`tests/it/fuzz_properties.rs`) and the experiment_parser fuzz target,
//! so both check the same things. `docs/FUZZING.md` lists what each check
//! covers. They return `Result<_, String>` for the reason
//! katro_core::checks gives.

use katro_core::agents::AgentSpec;
use katro_core::checks::{check_input_error, check_rules, text_of};

use super::{Experiment, parse_experiment};

/// The experiment_parser fuzz target: the bytes are an experiment file's
/// text, then optionally a NUL byte and the text every variant file it
/// names by path reads as ([`check_experiment_text`]).
pub fn check_experiment_input(data: &[u8]) -> Result<(), String> {
    let (experiment, variant) = match data.iter().position(|&b| b == 0) {
        Some(nul) => (&data[..nul], Some(text_of(&data[nul + 1..]))),
        None => (data, None),
    };
    check_experiment_text("fuzz.toml", &text_of(experiment), variant.as_deref()).map(drop)
}

/// Parses an experiment file's text, which must not panic; the variant
/// files it names by path all read as `variant_text` (or cannot be read,
/// if `None`). An error must be well-formed ([`check_input_error`]); an
/// accepted experiment must be consistent ([`check_experiment`]).
pub fn check_experiment_text(
    file: &str,
    text: &str,
    variant_text: Option<&str>,
) -> Result<Option<Experiment>, String> {
    let mut read = |path: &str| match variant_text {
        Some(t) => Ok((path.to_string(), t.to_string())),
        None => Err("no such file".to_string()),
    };
    match parse_experiment(file, text, &mut read) {
        Err(e) => check_input_error(file, text, &e).map(|()| None),
        Ok(exp) => check_experiment(&exp).map(|()| Some(exp)),
    }
}

/// An accepted experiment has variants and matchups, its variants' rules
/// pass [`check_rules`], its agents read back from how they are written,
/// and every cell plays between 1 game and the experiment's maximum.
pub fn check_experiment(exp: &Experiment) -> Result<(), String> {
    if exp.variants.is_empty() || exp.matchups.is_empty() {
        return Err(format!("experiment {} with nothing to play", exp.name));
    }
    for v in &exp.variants {
        check_rules(&v.rules)?;
    }
    for a in exp.matchups.iter().flat_map(|m| [&m.p1, &m.p2]) {
        if AgentSpec::parse(&a.to_string()).as_ref() != Ok(a) {
            return Err(format!("agent {a:?} does not read back from {a}"));
        }
        a.reproducible()?;
    }
    let cells = exp.cells();
    let played = (exp.variants.iter())
        .map(|v| {
            exp.matchups
                .iter()
                .filter(|m| m.plays(v.rules.name()))
                .count()
        })
        .sum::<usize>();
    if cells.len() != played {
        return Err(format!("{} cells", cells.len()));
    }
    let most = exp.stop.max_games();
    if let Some(c) = cells
        .iter()
        .find(|c| !(1..=most).contains(&c.stop.max_games()))
    {
        return Err(format!("a cell of {:?} under {most} games", c.stop));
    }
    Ok(())
}
