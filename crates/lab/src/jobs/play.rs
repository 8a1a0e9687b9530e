//! `katro play`: a game in the terminal against an agent. The caller
//! passes the input and output (standard input and output for `katro`, a
//! buffer in tests).

use std::io::{BufRead, Write};

use crate::agents::perfect::Tables;
use crate::agents::{AgentSpec, Seat};
use crate::engine::notation::{board_text, move_name, parse_move, plural};
use crate::engine::{Move, MoveList, MoveReport, Position, Silent};
use crate::rng::GameRng;
use crate::rules::Rules;

use super::replay::shell_word;
use super::{Error, Failure, Refusal};

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
    // A `perfect` agent's table, solved on its first move and kept for
    // the game.
    let tables = Tables::new();
    let mut g = Game::new(o, out, &tables);
    let mut lines = BufRead::lines(input);
    g.greeting()?;
    let mut redraw = true;
    loop {
        if redraw {
            writeln!(g.out, "\n{}", board_text(o.rules, &g.pos)).map_err(io)?;
        }
        redraw = true;
        if g.game_over()? {
            break;
        }
        let mover = g.pos.to_move().number();
        match g.turn(mover, &mut lines)? {
            Turn::Move(mv) => g.play_move(mover, mv)?,
            Turn::Again => redraw = false,
            Turn::Stop => break,
        }
    }
    g.replay_line()
}

/// A failed write to the terminal.
fn io(e: std::io::Error) -> Error {
    Failure::Stdout(e).into()
}

/// A seat in words.
fn seat_name(n: u8) -> &'static str {
    if n == 1 {
        "South (player 1)"
    } else {
        "North (player 2)"
    }
}

/// What a capturing move took, in words.
fn capture_words(report: &MoveReport) -> String {
    format!(
        "{}, {}, {} taken",
        plural(report.laps, "lap", "laps"),
        plural(report.captures, "capture", "captures"),
        plural(report.seeds_captured, "seed", "seeds")
    )
}

/// What the human's line asks for.
enum Turn {
    Move(Move),
    /// Ask again, without drawing the board again.
    Again,
    /// Input ended or `quit`: the game so far is printed.
    Stop,
}

/// A game under way in the terminal.
struct Game<'a, 'o> {
    o: &'a PlayOptions<'o>,
    out: &'a mut dyn Write,
    rng: GameRng,
    pos: Position,
    /// The moves so far, in the notation.
    played: Vec<String>,
    computer: Seat<'o>,
}

impl<'a, 'o> Game<'a, 'o> {
    fn new(o: &'a PlayOptions<'o>, out: &'a mut dyn Write, tables: &'o Tables) -> Self {
        Game {
            o,
            out,
            rng: crate::rng::rng_from_seed(crate::rng::game_seed(
                o.seed,
                o.rules.name(),
                &format!("play:{}", o.agent),
                0,
            )),
            pos: o.rules.start(),
            played: Vec::new(),
            // Seated once, so an mcts agent with `keep_tree` keeps its tree.
            computer: o.agent.start_game(tables),
        }
    }

    /// The move of `mover`: the human's, read from `lines`, or the agent's.
    fn turn(
        &mut self,
        mover: u8,
        lines: &mut dyn Iterator<Item = std::io::Result<String>>,
    ) -> Result<Turn, Error> {
        let legal = self.o.rules.legal_moves(&self.pos);
        if mover == self.o.seat {
            self.human_turn(&legal, lines)
        } else {
            Ok(Turn::Move(self.agent_turn(&legal)?))
        }
    }

    fn greeting(&mut self) -> Result<(), Error> {
        let rules = self.o.rules;
        writeln!(
            self.out,
            "katro play: {} against {}; you are {}. Type a move (e.g. {}), or quit.",
            rules.name(),
            self.o.agent,
            seat_name(self.o.seat),
            rules
                .legal_moves(&self.pos)
                .first()
                .map(|&m| move_name(rules, m))
                .unwrap_or_default()
        )
        .map_err(io)
    }

    /// Whether the game has ended; if so, says who won.
    fn game_over(&mut self) -> Result<bool, Error> {
        let status = self.o.rules.status(&self.pos);
        if !status.is_over() {
            return Ok(false);
        }
        let result = match status.winner() {
            Some(p) if p.number() == self.o.seat => format!("you win ({})", seat_name(p.number())),
            Some(p) => format!("{} wins ({})", self.o.agent, seat_name(p.number())),
            None => format!("no winner: {}", status.name()),
        };
        let plies = plural(self.pos.plies(), "ply", "plies");
        writeln!(self.out, "game over after {plies}: {result}").map_err(io)?;
        Ok(true)
    }

    /// Asks for the human's move and reads one line.
    fn human_turn(
        &mut self,
        legal: &MoveList,
        lines: &mut dyn Iterator<Item = std::io::Result<String>>,
    ) -> Result<Turn, Error> {
        let rules = self.o.rules;
        let legal_names: Vec<String> = legal.iter().map(|&m| move_name(rules, m)).collect();
        self.prompt(&legal_names)?;
        let Some(line) = lines.next() else {
            writeln!(self.out, "\ninput ended; the game so far:").map_err(io)?;
            return Ok(Turn::Stop);
        };
        let line = line.map_err(Refusal::Stdin)?;
        let text = line.trim();
        // An empty line (Enter pressed by mistake) asks again without
        // calling it a bad move.
        if text.is_empty() {
            return Ok(Turn::Again);
        }
        if text == "quit" {
            writeln!(self.out, "the game so far:").map_err(io)?;
            return Ok(Turn::Stop);
        }
        self.answer(text, legal, &legal_names)
    }

    /// Asks for the human's move, listing the legal ones.
    fn prompt(&mut self, legal_names: &[String]) -> Result<(), Error> {
        write!(
            self.out,
            "ply {}, your move as {} [{}]: ",
            self.pos.plies() + 1,
            seat_name(self.o.seat),
            legal_names.join(" ")
        )
        .map_err(io)?;
        self.out.flush().map_err(io)
    }

    /// The human's move `text` when it is legal; else says why not, and
    /// asks again.
    fn answer(
        &mut self,
        text: &str,
        legal: &MoveList,
        legal_names: &[String],
    ) -> Result<Turn, Error> {
        match parse_move(self.o.rules, text) {
            Ok(m) if legal.contains(&m) => return Ok(Turn::Move(m)),
            Ok(_) => writeln!(
                self.out,
                "`{text}` is not legal here; legal moves: {}",
                legal_names.join(" ")
            ),
            Err(e) => writeln!(self.out, "{e}; legal moves: {}", legal_names.join(" ")),
        }
        .map_err(io)?;
        Ok(Turn::Again)
    }

    fn agent_turn(&mut self, legal: &MoveList) -> Result<Move, Error> {
        let rules = self.o.rules;
        let m = self.computer.choose(rules, &self.pos, legal, &mut self.rng);
        writeln!(
            self.out,
            "ply {}: {} ({}) plays {}",
            self.pos.plies() + 1,
            seat_name(self.pos.to_move().number()),
            self.o.agent,
            move_name(rules, m)
        )
        .map_err(io)?;
        Ok(m)
    }

    /// Plays `mv` of `mover` and describes what it took.
    fn play_move(&mut self, mover: u8, mv: Move) -> Result<(), Error> {
        let rules = self.o.rules;
        let report = rules.play_unchecked(&mut self.pos, mv, &mut Silent);
        if mover == self.o.seat {
            writeln!(
                self.out,
                "ply {}: you play {}",
                self.pos.plies(),
                move_name(rules, mv)
            )
            .map_err(io)?;
        }
        if report.captures > 0 {
            writeln!(self.out, "  {}", capture_words(&report)).map_err(io)?;
        }
        self.played.push(move_name(rules, mv));
        Ok(())
    }

    /// The game as a `katro replay` command.
    fn replay_line(&mut self) -> Result<(), Error> {
        // Quoted for a shell: a variant file's path may hold spaces, and a
        // step move (`b2>c3`) would otherwise be a redirection.
        let words: Vec<String> = std::iter::once(self.o.variant)
            .chain(self.played.iter().map(String::as_str))
            .map(shell_word)
            .collect();
        writeln!(self.out, "katro replay {}", words.join(" ")).map_err(io)
    }
}
