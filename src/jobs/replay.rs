//! `katro replay`: a game given as moves in RULES.md's notation, each
//! checked legal in turn, played from the start and told as one JSON
//! object (with `--trace`, lap by lap).

use serde::Serialize;

use crate::engine::notation::{board_rows, move_name, parse_move, plural};
use crate::engine::trace::{MoveTrace, TraceWriter};
use crate::engine::{Move, Player, Position, Silent};
use crate::rules::Rules;

use super::Failure;

#[derive(Serialize)]
struct ReplayOut {
    variant: String,
    board: Vec<Vec<u16>>,
    to_move: u8,
    plies: u32,
    status: &'static str,
    winner: Option<u8>,
    legal: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<MoveTrace>>,
}

/// The moves of a game, each checked legal in turn, with an error naming
/// the first that is not and the legal moves there.
pub fn parse_game(rules: &Rules, moves: &[String]) -> Result<Vec<Move>, Failure> {
    let mut pos = rules.start();
    let mut out = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = legal_move(rules, &pos, i, text)?;
        rules.play_unchecked(&mut pos, mv, &mut Silent);
        out.push(mv);
    }
    Ok(out)
}

/// Move `i` (0-based) of a game, `text`, if it is legal in `pos`.
pub fn legal_move(rules: &Rules, pos: &Position, i: usize, text: &str) -> Result<Move, Failure> {
    let legal = rules.legal_moves(pos);
    let legal_names: Vec<String> = legal.iter().map(|&m| move_name(rules, m)).collect();
    let status = rules.status(pos);
    if status.is_over() {
        return Err(Failure::input(format!(
            "move {} `{text}`: the game is already over (status {}) after {}",
            i + 1,
            status.name(),
            plural(pos.plies(), "ply", "plies")
        )));
    }
    let mv = parse_move(rules, text).map_err(|e| {
        Failure::input(format!(
            "move {} {e}; legal moves: {}",
            i + 1,
            legal_names.join(" ")
        ))
    })?;
    if !legal.contains(&mv) {
        return Err(Failure::input(format!(
            "move {} `{text}` is illegal for player {} here; legal moves: {}",
            i + 1,
            pos.to_move().number(),
            legal_names.join(" ")
        )));
    }
    Ok(mv)
}

/// The game after `moves` as one line of JSON (no newline), with every
/// move's laps when `trace`.
pub fn replay_json(rules: &Rules, moves: &[String], trace: bool) -> Result<String, Failure> {
    let mut pos = rules.start();
    let mut traces = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = legal_move(rules, &pos, i, text)?;
        let player = pos.to_move().number();
        // The ply this move belongs to: both decisions of a turn begun by
        // a capturing step (RULES.md §7) belong to the same ply.
        let ply = pos.plies() + 1;
        if !trace {
            // No observer: a move can run for millions of laps, and a
            // sentence per lap would exhaust memory for nothing.
            rules.play_unchecked(&mut pos, mv, &mut Silent);
        } else {
            let mut w = TraceWriter::new(rules);
            let report = rules.play_unchecked(&mut pos, mv, &mut w);
            traces.push(MoveTrace {
                ply,
                player,
                mv: move_name(rules, mv),
                laps: report.laps,
                captures: report.captures,
                seeds_captured: report.seeds_captured,
                seeds_sown: report.seeds_sown,
                end: report.end.name(),
                events: w.events,
                board: board_rows(rules, &pos),
            });
        }
    }
    let status = rules.status(&pos);
    let out = ReplayOut {
        variant: rules.name().to_string(),
        board: board_rows(rules, &pos),
        to_move: pos.to_move().number(),
        plies: pos.plies(),
        status: status.name(),
        winner: status.winner().map(Player::number),
        legal: rules
            .legal_moves(&pos)
            .iter()
            .map(|&m| move_name(rules, m))
            .collect(),
        trace: trace.then_some(traces),
    };
    Ok(serde_json::to_string(&out).expect("replay output serialises"))
}

/// `w` as one word to a POSIX shell: quoted unless it is plain (a step
/// `b2>c3` would otherwise redirect output).
pub fn shell_word(w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./+:,=@%".contains(c));
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}
