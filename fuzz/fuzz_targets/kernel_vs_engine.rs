//! Random valid rule settings built from the input, then games played
//! through `katro_core::game::play_game` (the lane kernel, when it can play
//! the rules) and `play_game_on_engine`, compared record for record and
//! move for move, random, greedy and epsilon-greedy agents, with and
//! without random opening plies. Half the cases keep the drawn board, seeds and limits
//! but take the rule settings of a preset the kernel plays, so most of
//! them reach the kernel rather than its fallback.

#![no_main]

#[path = "input.rs"]
mod input;

use input::Input;
use katro_core::Rules;
use katro_core::agents::AgentSpec;
use katro_core::checks::{Draw, draw_settings};
use katro_core::game::{play_game, play_game_on_engine};
use katro_core::rules::preset;
use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input(Unstructured::new(data));
    let mut settings = draw_settings(&mut input);
    if input.below(2) == 0 {
        let base = [
            "katro-6x6",
            "katro-wikipedia",
            "katro-ludii",
            "katra-boaoaka-4x8",
        ][input.below(4) as usize];
        let p = preset(base).expect("a shipped preset").settings().clone();
        settings.start = p.start;
        settings.singletons = p.singletons;
        settings.direction = p.direction;
        settings.relay = p.relay;
        settings.capture_trigger = p.capture_trigger;
        settings.capturing_row = p.capturing_row;
        settings.victim = p.victim;
        settings.empty_landing_refusal = p.empty_landing_refusal;
        settings.lone_seed = p.lone_seed;
        settings.lone_seed_step = p.lone_seed_step;
        settings.step_sowing = p.step_sowing;
    }
    let rules = match Rules::new("fuzz".into(), String::new(), String::new(), settings) {
        Ok(r) => r,
        Err(e) => panic!("the generator of valid settings drew invalid ones: {e}"),
    };
    let agents = [
        AgentSpec::Random,
        AgentSpec::Greedy,
        AgentSpec::EpsilonGreedy { epsilon: 0.25 },
    ];
    let p1 = &agents[input.below(3) as usize];
    let p2 = &agents[input.below(3) as usize];
    let opening = input.below(4) as u32;
    let seed = input.below(u64::MAX);
    let (mut want, mut got) = (Vec::new(), Vec::new());
    let g = play_game_on_engine(&rules, p1, p2, opening, seed, Some(&mut want));
    let k = play_game(&rules, p1, p2, opening, seed, Some(&mut got));
    assert_eq!(
        (k, got),
        (g, want),
        "kernel, then engine: {p1} vs {p2}, seed {seed}"
    );
});
