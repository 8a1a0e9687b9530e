//! `katro show`: a variant as a complete, valid variant file.

use crate::engine::notation::{board_text, hole_name};
use crate::rules::{BOARD_SETTINGS, Dir, DirectionRule, LoneSeed, Player, Rules, StepSowing};

/// A TOML string, escaped as TOML wants (Rust's `{:?}` is not TOML).
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A complete, valid variant file: every resolved setting (the settings
/// come from serialising [`crate::rules::Settings`], so a new setting is
/// shown without this code changing), and the rules string, the starting
/// board and the circuits as comments.
pub fn show(rules: &Rules) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "# rules string: {}
",
        rules.canonical_string()
    ));
    out.push_str(&format!(
        "name = {}
",
        toml_string(rules.name())
    ));
    if !rules.description().is_empty() {
        out.push_str(&format!(
            "description = {}
",
            toml_string(rules.description())
        ));
    }
    if !rules.source().is_empty() {
        out.push_str(&format!(
            "source = {}
",
            toml_string(rules.source())
        ));
    }
    let settings = toml::to_string(rules.settings()).expect("the settings serialise as TOML");
    let key = |line: &str| line.split('=').next().unwrap_or("").trim().to_string();
    let board = settings
        .lines()
        .filter(|l| BOARD_SETTINGS.iter().any(|i| i.name() == key(l)));
    out.push_str("\n[board]\n");
    for line in board {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!(
        "# {} seeds in all\n\n[rules]\n",
        rules.total_seeds()
    ));
    for (info, value) in rules.settings().rule_values() {
        out.push_str(&format!("{} = {}\n", info.name(), value.toml()));
    }
    out.push_str("\n# starting board (row 1 is South's outer row)\n");
    for line in board_text(rules, &rules.start()).lines() {
        out.push_str(&format!("#   {line}\n"));
    }
    // The backward circuit is shown only for variants that can sow it: a
    // direction rule other than forward, or the chosen continuation after
    // a lone-seed step, listed under every direction (RULES.md §2, §7).
    let s = rules.settings();
    let backward = s.direction != DirectionRule::Forward
        || (s.lone_seed != LoneSeed::None && s.step_sowing == StepSowing::Chosen);
    let dirs: &[(Dir, &str)] = if backward {
        &[(Dir::Forward, "forward"), (Dir::Backward, "backward")]
    } else {
        &[(Dir::Forward, "forward")]
    };
    for &(dir, dir_label) in dirs {
        for (p, label) in [
            (Player::South, "South (player 1)"),
            (Player::North, "North (player 2)"),
        ] {
            let names: Vec<String> = rules
                .circuit_in(p, dir)
                .iter()
                .map(|&h| hole_name(rules, h as usize))
                .collect();
            out.push_str(&format!(
                "# {label} {dir_label} circuit: {} -> {}\n",
                names.join(" "),
                names[0]
            ));
        }
    }
    out
}
