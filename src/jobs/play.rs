//! `katro play`: a game in the terminal against an agent. The caller
//! passes the input and output (standard input and output for `katro`, a
//! buffer in tests).

use std::io::{BufRead, Write};

use crate::agents::AgentSpec;
use crate::engine::Silent;
use crate::engine::notation::{board_text, move_name, parse_move, plural};
use crate::rules::Rules;

use super::Error;
use super::replay::shell_word;

/// What `katro play` is asked to do.
pub struct PlayOptions<'a> {
    pub rules: &'a Rules,
    /// The variant as the user named it, for the closing replay command.
    pub variant: &'a str,
    /// The agent played against, checked for the rules (`AgentSpec::seat`).
    pub agent: &'a AgentSpec,
    /// The human's seat: 1 (South, moves first) or 2 (North).
    pub seat: u8,
    pub seed: u64,
}

/// The human's moves from `input`, the agent's from the library. The
/// player to move is always read from the position: a player may move
/// twice in a row under some rules.
pub fn play(o: &PlayOptions, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
    let (rules, agent, seat, seed) = (o.rules, o.agent, o.seat, o.seed);
    let mut rng = crate::rng::rng_from_seed(crate::rng::game_seed(
        seed,
        rules.name(),
        &format!("play:{agent}"),
        0,
    ));
    let name = |n: u8| {
        if n == 1 {
            "South (player 1)"
        } else {
            "North (player 2)"
        }
    };
    let mut pos = rules.start();
    let mut played: Vec<String> = Vec::new();
    let mut lines = BufRead::lines(input);
    let io = |e: std::io::Error| Error::Failed(format!("cannot write to standard output: {e}"));
    writeln!(
        out,
        "katro play: {} against {agent}; you are {}. Type a move (e.g. {}), or quit.",
        rules.name(),
        name(seat),
        rules
            .legal_moves(&pos)
            .first()
            .map(|&m| move_name(rules, m))
            .unwrap_or_default()
    )
    .map_err(io)?;
    let mut redraw = true;
    // Seated once, so an mcts agent with `keep_tree` keeps its tree.
    let mut computer = agent.start_game();
    loop {
        if redraw {
            writeln!(out, "\n{}", board_text(rules, &pos)).map_err(io)?;
        }
        redraw = true;
        let status = rules.status(&pos);
        if status.is_over() {
            let result = match status.winner() {
                Some(p) if p.number() == seat => format!("you win ({})", name(p.number())),
                Some(p) => format!("{agent} wins ({})", name(p.number())),
                None => format!("no winner: {}", status.name()),
            };
            let plies = plural(pos.plies(), "ply", "plies");
            writeln!(out, "game over after {plies}: {result}").map_err(io)?;
            break;
        }
        let mover = pos.to_move().number();
        let legal = rules.legal_moves(&pos);
        let legal_names: Vec<String> = legal.iter().map(|&m| move_name(rules, m)).collect();
        let mv = if mover == seat {
            write!(
                out,
                "ply {}, your move as {} [{}]: ",
                pos.plies() + 1,
                name(mover),
                legal_names.join(" ")
            )
            .map_err(io)?;
            out.flush().map_err(io)?;
            let Some(line) = lines.next() else {
                writeln!(out, "\ninput ended; the game so far:").map_err(io)?;
                break;
            };
            let line =
                line.map_err(|e| Error::refused(format!("cannot read standard input: {e}")))?;
            let text = line.trim();
            // An empty line (Enter pressed by mistake) asks again without
            // calling it a bad move.
            if text.is_empty() {
                redraw = false;
                continue;
            }
            if text == "quit" {
                writeln!(out, "the game so far:").map_err(io)?;
                break;
            }
            match parse_move(rules, text) {
                Ok(m) if legal.contains(&m) => m,
                Ok(_) => {
                    writeln!(
                        out,
                        "`{text}` is not legal here; legal moves: {}",
                        legal_names.join(" ")
                    )
                    .map_err(io)?;
                    redraw = false;
                    continue;
                }
                Err(e) => {
                    writeln!(out, "{e}; legal moves: {}", legal_names.join(" ")).map_err(io)?;
                    redraw = false;
                    continue;
                }
            }
        } else {
            let m = computer.choose(rules, &pos, &legal, &mut rng);
            writeln!(
                out,
                "ply {}: {} ({agent}) plays {}",
                pos.plies() + 1,
                name(mover),
                move_name(rules, m)
            )
            .map_err(io)?;
            m
        };
        let report = rules.play_unchecked(&mut pos, mv, &mut Silent);
        if mover == seat {
            writeln!(
                out,
                "ply {}: you play {}",
                pos.plies(),
                move_name(rules, mv)
            )
            .map_err(io)?;
        }
        if report.captures > 0 {
            writeln!(
                out,
                "  {}, {}, {} taken",
                plural(report.laps, "lap", "laps"),
                plural(report.captures, "capture", "captures"),
                plural(report.seeds_captured, "seed", "seeds")
            )
            .map_err(io)?;
        }
        played.push(move_name(rules, mv));
    }
    // Quoted for a shell: a variant file's path may hold spaces, and a
    // step move (`b2>c3`) would otherwise be a redirection.
    let words: Vec<String> = std::iter::once(o.variant)
        .chain(played.iter().map(String::as_str))
        .map(shell_word)
        .collect();
    writeln!(out, "katro replay {}", words.join(" ")).map_err(io)?;
    Ok(())
}
