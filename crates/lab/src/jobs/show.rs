//! `katro show`: a variant as a complete, valid variant file.

use crate::engine::notation::{board_text, hole_name};
use crate::rules::{Dir, DirectionRule, LoneSeed, Player, Rules, StepSowing, VariantText};

/// A complete, valid variant file: every resolved setting (the settings
/// come from serialising [`crate::rules::Settings`], so a new setting is
/// shown without this code changing), and the rules string, the starting
/// board and the circuits as comments.
pub fn show(rules: &Rules) -> String {
    let mut out = settings_text(rules);
    out.push_str("\n# starting board (row 1 is South's outer row)\n");
    for line in board_text(rules, &rules.start()).lines() {
        out.push_str(&format!("#   {line}\n"));
    }
    for &(dir, dir_label) in circuits_shown(rules) {
        for (p, label) in [
            (Player::South, "South (player 1)"),
            (Player::North, "North (player 2)"),
        ] {
            out.push_str(&circuit_line(
                rules,
                p,
                dir,
                &format!("{label} {dir_label}"),
            ));
        }
    }
    out
}

/// The variant file's settings, headed by the rules string, with the
/// seeds in all after the board's.
fn settings_text(rules: &Rules) -> String {
    let t = VariantText::of_settings(
        rules.name(),
        rules.description(),
        rules.source(),
        rules.settings(),
    );
    format!(
        "# rules string: {}\n{}\n{}# {} seeds in all\n\n{}",
        rules.canonical_string(),
        t.head,
        t.board,
        rules.total_seeds(),
        t.rules
    )
}

/// The comment line of player `p`'s circuit in direction `dir`, named
/// `label`: its holes in sowing order, back to the first.
fn circuit_line(rules: &Rules, p: Player, dir: Dir, label: &str) -> String {
    let names: Vec<String> = rules
        .circuit_in(p, dir)
        .iter()
        .map(|&h| hole_name(rules, h as usize))
        .collect();
    format!("# {label} circuit: {} -> {}\n", names.join(" "), names[0])
}

/// The directions whose circuits are shown. The backward circuit is shown
/// only for variants that can sow it: a direction rule other than
/// forward, or the chosen continuation after a lone-seed step, listed
/// under every direction (RULES.md §2, §7).
fn circuits_shown(rules: &Rules) -> &'static [(Dir, &'static str)] {
    let s = rules.settings();
    let backward = s.direction != DirectionRule::Forward
        || (s.lone_seed != LoneSeed::None && s.step_sowing == StepSowing::Chosen);
    if backward {
        &[(Dir::Forward, "forward"), (Dir::Backward, "backward")]
    } else {
        &[(Dir::Forward, "forward")]
    }
}
