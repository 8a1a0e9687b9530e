//! The checker of a proof certificate, written against the engine's
//! public API alone (`Rules::start`, `legal_moves`, `play`, the
//! `Position` accessors, the notation): nothing of the prover or of
//! `crate::solve`, so that a certificate is checked by code that did not
//! find it.
//!
//! From the root, every line of play is followed: where the claimed
//! winner is to move, the certificate's move for that exact position
//! (found by its text, [`position_text`]); where the loser is to move,
//! every legal move. Each line must end in the winner's win (the loser
//! with no legal move, or an endless move the loser loses by); each
//! position is checked once, and its longest line to that win kept, so
//! that the root's longest line is measured against the claim.

use std::collections::HashMap;

use crate::engine::notation::{NotationError, move_name, parse_hole, parse_move};
use crate::engine::{Ended, Move, MoveList, Player, Position};
use crate::rules::{MAX_PLY_LIMIT, Rules};

use super::{
    CLAIM_LINE, ParsedCertificate, ROOT_LINE, RULES_LINE, VARIANT_LINE, decisions_word,
    player_word, position_text,
};

/// What a certificate that checks proves, and how much was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    pub winner: Player,
    /// The claim: a win within this many decisions.
    pub claim: u32,
    /// The longest line of the proof from the root to the winner's win,
    /// in decisions (at most the claim).
    pub longest: u32,
    /// Decision lines used (all of the file's: an unused one is a defect).
    pub winner_lines: usize,
    /// Distinct positions checked, where either player is to move.
    pub positions: usize,
}

/// Why a certificate does not prove its claim: each names the line of the
/// file at fault (from 1) and its `Display` starts `line N: `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Defect {
    #[error("line {line}: a certificate for variant `{found}`, not `{wanted}`")]
    OtherVariant {
        line: usize,
        found: String,
        wanted: String,
    },
    #[error(
        "line {line}: a certificate under the rules `{found}`, not those of `{variant}`: \
         `{wanted}`"
    )]
    OtherRules {
        line: usize,
        found: String,
        wanted: String,
        variant: String,
    },
    #[error("line {line}: root move {index} {error}")]
    BadRootMove {
        line: usize,
        index: usize,
        error: NotationError,
    },
    #[error(
        "line {line}: root move {index} `{text}` is not legal there; legal moves: {}",
        legal_list(.legal)
    )]
    IllegalRootMove {
        line: usize,
        index: usize,
        text: String,
        legal: Vec<String>,
    },
    #[error("line {line}: the root position is already finished: {end}")]
    RootFinished { line: usize, end: String },
    #[error(
        "line {line}: a claim of {} with {} from the start reaches the engine's \
         largest ply count, {MAX_PLY_LIMIT}",
        decisions_word(*.claim as u64),
        crate::engine::notation::plural(*.root_moves as u64, "root move", "root moves")
    )]
    ClaimTooLarge {
        line: usize,
        claim: u32,
        root_moves: usize,
    },
    #[error("line {line}: the board has {found}; the variant's has {wanted}")]
    BoardShape {
        line: usize,
        found: String,
        wanted: String,
    },
    #[error("line {line}: the pending hole {error}")]
    BadPending { line: usize, error: NotationError },
    #[error("line {line}: the move {error}")]
    BadMove { line: usize, error: NotationError },
    #[error(
        "line {line}: {} is to move there, but the claim is that {} wins: a line gives \
         a position of the winner's",
        player_word(*.to_move),
        player_word(*.winner)
    )]
    LoserLine {
        line: usize,
        to_move: Player,
        winner: Player,
    },
    #[error("line {line}: the same position as line {first}: each position has one line")]
    Duplicate { line: usize, first: usize },
    #[error(
        "line {line}: no line gives the root position `{position}`, where {} is to move",
        player_word(*.winner)
    )]
    MissingRoot {
        line: usize,
        position: String,
        winner: Player,
    },
    #[error(
        "line {line}: after {}, {} is to move at `{position}` and no line gives that \
         position (a reply left uncovered)",
        moves_text(.moves),
        player_word(*.winner)
    )]
    MissingReply {
        line: usize,
        moves: Vec<String>,
        position: String,
        winner: Player,
    },
    #[error(
        "line {line}: the move `{text}` is not legal at `{position}`; legal moves: {}",
        legal_list(.legal)
    )]
    IllegalMove {
        line: usize,
        text: String,
        position: String,
        legal: Vec<String>,
    },
    #[error(
        "line {line}: after {}, the position `{position}` comes round again, earlier on \
         the same line of play: a cycle, which never ends in a win",
        moves_text(.moves)
    )]
    Cycle {
        line: usize,
        moves: Vec<String>,
        position: String,
    },
    #[error(
        "line {line}: after {}, the game ends undecided ({end}), not in a win for {}",
        moves_text(.moves),
        player_word(*.winner)
    )]
    Undecided {
        line: usize,
        moves: Vec<String>,
        end: &'static str,
        winner: Player,
    },
    #[error(
        "line {line}: after {}, the game ends in a win for {}",
        moves_text(.moves),
        player_word(.winner.other())
    )]
    OtherWins {
        line: usize,
        moves: Vec<String>,
        winner: Player,
    },
    #[error(
        "line {line}: the position `{position}` is never reached from the root: an \
         unused line"
    )]
    Unused { line: usize, position: String },
    #[error(
        "line {line}: the claim of {} does not hold: a line of play from the root lasts \
         at least {}{}",
        decisions_word(*.claim as u64),
        decisions_word(*.at_least),
        moves_list(.moves)
    )]
    ClaimExceeded {
        line: usize,
        claim: u32,
        moves: Vec<String>,
        at_least: u64,
    },
}

impl Defect {
    /// The line of the file the defect names.
    pub fn line(&self) -> usize {
        match self {
            Defect::OtherVariant { line, .. }
            | Defect::OtherRules { line, .. }
            | Defect::BadRootMove { line, .. }
            | Defect::IllegalRootMove { line, .. }
            | Defect::RootFinished { line, .. }
            | Defect::ClaimTooLarge { line, .. }
            | Defect::BoardShape { line, .. }
            | Defect::BadPending { line, .. }
            | Defect::BadMove { line, .. }
            | Defect::LoserLine { line, .. }
            | Defect::Duplicate { line, .. }
            | Defect::MissingRoot { line, .. }
            | Defect::MissingReply { line, .. }
            | Defect::IllegalMove { line, .. }
            | Defect::Cycle { line, .. }
            | Defect::Undecided { line, .. }
            | Defect::OtherWins { line, .. }
            | Defect::Unused { line, .. }
            | Defect::ClaimExceeded { line, .. } => *line,
        }
    }
}

fn legal_list(legal: &[String]) -> String {
    if legal.is_empty() {
        "none".into()
    } else {
        legal.join(" ")
    }
}

/// Moves since a line, for a message: "its move `b1`", "its move `b1`
/// then `c4`", or "the moves `b1` then `c4`" from the root.
fn moves_text(moves: &[String]) -> String {
    let quoted: Vec<String> = moves.iter().map(|m| format!("`{m}`")).collect();
    match moves.len() {
        0 => "the root".into(),
        1 => format!("the move {}", quoted[0]),
        _ => format!("the moves {}", quoted.join(" then ")),
    }
}

/// How a line of play from the root begins, ` (it begins `...`)`, cut
/// short in the middle when long; nothing for no move.
fn moves_list(moves: &[String]) -> String {
    const SHOWN: usize = 40;
    let shown = if moves.len() <= SHOWN {
        moves.join(" ")
    } else {
        let head = moves[..SHOWN / 2].join(" ");
        let tail = moves[moves.len() - SHOWN / 2..].join(" ");
        format!("{head} … {tail}")
    };
    if moves.is_empty() {
        String::new()
    } else {
        format!(" (it begins `{shown}`)")
    }
}

/// Checks that `c` proves its claim under `rules`: see the module's
/// comment, and docs/OUTPUTS.md for what each defect means.
pub fn check_certificate(rules: &Rules, c: &ParsedCertificate) -> Result<Checked, Defect> {
    if c.variant != rules.name() {
        return Err(Defect::OtherVariant {
            line: VARIANT_LINE,
            found: c.variant.clone(),
            wanted: rules.name().to_string(),
        });
    }
    let canonical = rules.canonical_string();
    if c.rules != canonical {
        return Err(Defect::OtherRules {
            line: RULES_LINE,
            found: c.rules.clone(),
            wanted: canonical,
            variant: rules.name().to_string(),
        });
    }
    // The proof ignores the ply limit (docs/SOLVED.md): play under the
    // largest, which no line of a claim below it reaches.
    let play = rules
        .with_limits(Some(MAX_PLY_LIMIT), None)
        .expect("the largest ply limit is valid");
    let root = replay_root(&play, c)?;
    if c.distance as u64 + c.root.len() as u64 >= MAX_PLY_LIMIT {
        return Err(Defect::ClaimTooLarge {
            line: CLAIM_LINE,
            claim: c.distance,
            root_moves: c.root.len(),
        });
    }
    let lines = Lines::read(&play, c)?;
    let mut walk = Walk {
        rules: &play,
        c,
        lines: &lines,
        used: vec![false; c.decisions.len()],
        seen: HashMap::new(),
        stack: Vec::new(),
    };
    let longest = walk.run(root)?;
    if let Some(i) = walk.used.iter().position(|u| !u) {
        let d = &c.decisions[i];
        return Err(Defect::Unused {
            line: d.line,
            position: d.position.clone(),
        });
    }
    Ok(Checked {
        winner: c.winner,
        claim: c.distance,
        longest,
        winner_lines: c.decisions.len(),
        positions: walk.seen.len(),
    })
}

/// The root: the start after the root's moves, each read and legal in
/// turn, and not finished.
fn replay_root(rules: &Rules, c: &ParsedCertificate) -> Result<Position, Defect> {
    let mut pos = rules.start();
    for (i, text) in c.root.iter().enumerate() {
        let index = i + 1;
        let mv = parse_move(rules, text).map_err(|error| Defect::BadRootMove {
            line: ROOT_LINE,
            index,
            error,
        })?;
        if rules.play(&mut pos, mv).is_err() {
            let legal = rules.legal_moves(&pos);
            return Err(Defect::IllegalRootMove {
                line: ROOT_LINE,
                index,
                text: text.clone(),
                legal: legal.iter().map(|&m| move_name(rules, m)).collect(),
            });
        }
    }
    let end = match pos.ended() {
        Some(e) => Some(ended_words(e).to_string()),
        None if rules.legal_moves(&pos).is_empty() => Some(format!(
            "{} is to move and has no legal move",
            player_word(pos.to_move())
        )),
        None => None,
    };
    match end {
        Some(end) => Err(Defect::RootFinished {
            line: ROOT_LINE,
            end,
        }),
        None => Ok(pos),
    }
}

fn ended_words(e: Ended) -> &'static str {
    match e {
        Ended::EndlessMove => "an endless move ended the game undecided",
        Ended::LapLimit => "a move stopped at the lap limit ended the game undecided",
        Ended::EndlessMoveLost(Player::South) => "South won by North's endless move",
        Ended::EndlessMoveLost(Player::North) => "North won by South's endless move",
    }
}

/// The decision lines by their position's text, each with its move read.
struct Lines<'c> {
    by_position: HashMap<&'c str, usize>,
    moves: Vec<Move>,
}

impl<'c> Lines<'c> {
    /// Reads every line's move and pending hole on this board, checks
    /// its board's shape and player to move, and refuses a position given
    /// twice.
    fn read(rules: &Rules, c: &'c ParsedCertificate) -> Result<Lines<'c>, Defect> {
        let mut by_position: HashMap<&str, usize> = HashMap::with_capacity(c.decisions.len());
        let mut moves = Vec::with_capacity(c.decisions.len());
        for (i, d) in c.decisions.iter().enumerate() {
            let line = d.line;
            board_shape(rules, d.board()).map_err(|(found, wanted)| Defect::BoardShape {
                line,
                found,
                wanted,
            })?;
            if let Some(hole) = d.pending() {
                parse_hole(rules, hole).map_err(|error| Defect::BadPending { line, error })?;
            }
            let mv = parse_move(rules, &d.mv).map_err(|error| Defect::BadMove { line, error })?;
            if d.to_move != c.winner {
                return Err(Defect::LoserLine {
                    line,
                    to_move: d.to_move,
                    winner: c.winner,
                });
            }
            if let Some(&first) = by_position.get(d.position.as_str()) {
                return Err(Defect::Duplicate {
                    line,
                    first: c.decisions[first].line,
                });
            }
            by_position.insert(d.position.as_str(), i);
            moves.push(mv);
        }
        Ok(Lines { by_position, moves })
    }
}

/// A board field's shape against the variant's: `(found, wanted)` in
/// words when they differ.
fn board_shape(rules: &Rules, board: &str) -> Result<(), (String, String)> {
    let rows: Vec<usize> = board.split('/').map(|r| r.split(',').count()).collect();
    if rows.len() == rules.rows() && rows.iter().all(|&n| n == rules.cols()) {
        return Ok(());
    }
    let found = match rows.iter().position(|&n| n != rules.cols()) {
        Some(r) if rows.len() == rules.rows() => {
            format!("{} holes in row {}", rows[r], r + 1)
        }
        _ => format!("{} rows", rows.len()),
    };
    let wanted = format!("{} rows of {} holes", rules.rows(), rules.cols());
    Err((found, wanted))
}

/// What a position is, seen from the claimed winner. Large (the legal
/// moves inline, as the engine gives them) but short-lived: it is matched
/// at once, and boxing it would allocate at every position.
#[allow(clippy::large_enum_variant)]
enum Standing {
    /// The game goes on: these are the legal moves.
    Ongoing(MoveList),
    /// The winner has won.
    Won,
    /// The other player has won.
    Lost,
    /// The game ended with no winner: how.
    Undecided(&'static str),
}

/// The memo of positions met: on the current line of play, or done with
/// their longest line to the win (in decisions).
const ON_PATH: u32 = u32::MAX;

/// A position on the current line of play, with what is left to follow.
struct Frame {
    pos: Position,
    key: String,
    /// Decisions from the root to here.
    depth: u32,
    /// The certificate's move here (winner to move), or every legal move.
    moves: MoveList,
    only: Option<Move>,
    next: usize,
    /// The longest line to the win over the moves followed so far.
    longest: u32,
    /// The index of this position's decision line, if the winner is to
    /// move.
    own: Option<usize>,
    /// The move that led here from the frame below.
    came_by: Option<Move>,
}

impl Frame {
    fn move_at(&self, i: usize) -> Option<Move> {
        match self.only {
            Some(m) => (i == 0).then_some(m),
            None => self.moves.get(i).copied(),
        }
    }
}

struct Walk<'a> {
    rules: &'a Rules,
    c: &'a ParsedCertificate,
    lines: &'a Lines<'a>,
    used: Vec<bool>,
    seen: HashMap<String, u32>,
    stack: Vec<Frame>,
}

impl Walk<'_> {
    /// Follows every line of play from `root` (not finished) with an
    /// explicit stack; the root's longest line to the win.
    fn run(&mut self, root: Position) -> Result<u32, Defect> {
        let Standing::Ongoing(legal) = self.standing(&root) else {
            unreachable!("the root is checked not to be finished");
        };
        let key = position_text(self.rules, &root);
        self.exceeds(0, 1, None)?;
        self.enter(root, key, legal, None)?;
        loop {
            let top = self.stack.last_mut().expect("a line is being followed");
            let Some(mv) = top.move_at(top.next) else {
                let done = self.stack.pop().expect("the frame just looked at");
                let longest = done.longest;
                self.seen.insert(done.key, longest);
                match self.stack.last_mut() {
                    Some(below) => below.longest = below.longest.max(1 + longest),
                    None => return Ok(longest),
                }
                continue;
            };
            top.next += 1;
            let depth = top.depth + 1;
            let mut after = top.pos;
            self.rules
                .play(&mut after, mv)
                .expect("a legal move, checked or listed");
            match self.standing(&after) {
                Standing::Won => {
                    self.exceeds(depth, 0, Some(mv))?;
                    let top = self.stack.last_mut().expect("still there");
                    top.longest = top.longest.max(1);
                }
                Standing::Lost => {
                    let (line, moves) = self.since_line(Some(mv));
                    return Err(Defect::OtherWins {
                        line,
                        moves,
                        winner: self.c.winner,
                    });
                }
                Standing::Undecided(end) => {
                    let (line, moves) = self.since_line(Some(mv));
                    return Err(Defect::Undecided {
                        line,
                        moves,
                        end,
                        winner: self.c.winner,
                    });
                }
                Standing::Ongoing(legal) => {
                    let key = position_text(self.rules, &after);
                    match self.seen.get(&key) {
                        Some(&ON_PATH) => {
                            let (line, moves) = self.since_line(Some(mv));
                            return Err(Defect::Cycle {
                                line,
                                moves,
                                position: key,
                            });
                        }
                        Some(&h) => {
                            self.exceeds(depth, h, Some(mv))?;
                            let top = self.stack.last_mut().expect("still there");
                            top.longest = top.longest.max(1 + h);
                        }
                        None => {
                            self.exceeds(depth, 1, Some(mv))?;
                            self.enter(after, key, legal, Some(mv))?;
                        }
                    }
                }
            }
        }
    }

    /// Where the game stands at `pos` for the claimed winner.
    fn standing(&self, pos: &Position) -> Standing {
        let winner = self.c.winner;
        match pos.ended() {
            Some(Ended::EndlessMove) => Standing::Undecided("an endless move"),
            Some(Ended::LapLimit) => Standing::Undecided("a move stopped at the lap limit"),
            Some(Ended::EndlessMoveLost(p)) if p == winner => Standing::Won,
            Some(Ended::EndlessMoveLost(_)) => Standing::Lost,
            None => {
                let legal = self.rules.legal_moves(pos);
                match (legal.is_empty(), pos.to_move() == winner) {
                    (false, _) => Standing::Ongoing(legal),
                    (true, true) => Standing::Lost,
                    (true, false) => Standing::Won,
                }
            }
        }
    }

    /// Puts a position not met before on the line of play: the
    /// certificate's move where the winner is to move, every legal move
    /// where the loser is.
    fn enter(
        &mut self,
        pos: Position,
        key: String,
        legal: MoveList,
        came_by: Option<Move>,
    ) -> Result<(), Defect> {
        let depth = self.stack.last().map_or(0, |f| f.depth + 1);
        let (own, only) = if pos.to_move() == self.c.winner {
            let Some(&i) = self.lines.by_position.get(key.as_str()) else {
                return Err(self.missing(key, came_by));
            };
            let mv = self.lines.moves[i];
            if !legal.contains(&mv) {
                let d = &self.c.decisions[i];
                return Err(Defect::IllegalMove {
                    line: d.line,
                    text: d.mv.clone(),
                    position: key,
                    legal: legal.iter().map(|&m| move_name(self.rules, m)).collect(),
                });
            }
            self.used[i] = true;
            (Some(i), Some(mv))
        } else {
            (None, None)
        };
        self.seen.insert(key.clone(), ON_PATH);
        self.stack.push(Frame {
            pos,
            key,
            depth,
            moves: legal,
            only,
            next: 0,
            longest: 0,
            own,
            came_by,
        });
        Ok(())
    }

    /// The winner is to move at `key` and no line gives it.
    fn missing(&self, key: String, came_by: Option<Move>) -> Defect {
        if came_by.is_none() {
            return Defect::MissingRoot {
                line: ROOT_LINE,
                position: key,
                winner: self.c.winner,
            };
        }
        let (line, moves) = self.since_line(came_by);
        Defect::MissingReply {
            line,
            moves,
            position: key,
            winner: self.c.winner,
        }
    }

    /// The line in force on the current line of play (the last decision
    /// line on it, or the root's line) and the moves since its position,
    /// its own move first, then `last`.
    fn since_line(&self, last: Option<Move>) -> (usize, Vec<String>) {
        let from = self.stack.iter().rposition(|f| f.own.is_some());
        let line = from.map_or(ROOT_LINE, |i| {
            self.c.decisions[self.stack[i].own.expect("found by it")].line
        });
        let moves = self.stack[from.map_or(0, |i| i + 1)..]
            .iter()
            .filter_map(|f| f.came_by)
            .chain(last)
            .map(|m| move_name(self.rules, m))
            .collect();
        (line, moves)
    }

    /// Refuses a line of play that reaches `depth` decisions by `last`
    /// and lasts at least `more` after that, if that is over the claim.
    fn exceeds(&self, depth: u32, more: u32, last: Option<Move>) -> Result<(), Defect> {
        let at_least = depth as u64 + more as u64;
        if at_least <= self.c.distance as u64 {
            return Ok(());
        }
        let moves = self
            .stack
            .iter()
            .filter_map(|f| f.came_by)
            .chain(last)
            .map(|m| move_name(self.rules, m))
            .collect();
        Err(Defect::ClaimExceeded {
            line: CLAIM_LINE,
            claim: self.c.distance,
            moves,
            at_least,
        })
    }
}
