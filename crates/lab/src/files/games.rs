//! games.csv, one row per game, written and read back (docs/OUTPUTS.md).

use serde::{Deserialize, Serialize};

use super::FileError;
use super::csv::{csv_bytes, opt, row_with_settings, setting_names, setting_values, with_settings};
use crate::engine::notation::{NotationError, move_name, parse_move, plural};
use crate::engine::{Player, Status};
use crate::experiment::plan::Cell;
use crate::experiment::runner::GameRow;
use crate::experiment::stats::GameRecord;
use crate::experiment::stats::status_pair::{self, NotFinished};

/// One game as katro stores it: the one record of a game in a
/// checkpoint, a shard and games.csv (each row of games.csv is one of
/// these beside its cell's columns). In JSON its fields are flat: `cell`,
/// `game`, `seed`, the record's fields (`status`, `winner`, `plies`, ...)
/// and `moves`, in RULES.md's notation so the files read without the
/// engine's numbering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    pub cell: usize,
    pub game: u64,
    pub seed: u64,
    #[serde(flatten)]
    pub record: GameRecord,
    /// Space-separated; empty when moves were not kept.
    pub moves: String,
}

impl GameLine {
    pub fn of(cells: &[Cell], r: &GameRow) -> GameLine {
        let rules = cells[r.cell].rules;
        let moves: Vec<String> = r.moves.iter().map(|&m| move_name(rules, m)).collect();
        GameLine {
            cell: r.cell,
            game: r.game,
            seed: r.seed,
            record: r.record,
            moves: moves.join(" "),
        }
    }

    /// The row back, checked against the cells: a damaged file gives an
    /// error, never a wrong row.
    pub fn to_row(&self, cells: &[Cell]) -> Result<GameRow, RowError> {
        let (game, cell_number) = (self.game, self.cell + 1);
        let cell = cells.get(self.cell).ok_or(RowError::NoSuchCell {
            game,
            cell: cell_number,
        })?;
        let moves = self
            .moves
            .split_whitespace()
            .map(|m| {
                parse_move(cell.rules, m).map_err(|error| RowError::Move {
                    game,
                    cell: cell_number,
                    error,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let plies = self.record.plies;
        if !moves.is_empty() && moves.len() != plies as usize {
            return Err(RowError::MoveCount {
                game,
                cell: cell_number,
                moves: moves.len() as u64,
                plies,
            });
        }
        Ok(GameRow {
            cell: self.cell,
            game: self.game,
            seed: self.seed,
            record: self.record,
            moves,
        })
    }
}

/// A stored game that is no game of the run's cells; `cell` counts from
/// 1, as the message does.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    /// The row's cell is not one of the run's.
    #[error("the row of game {game} of cell {cell}: no such cell")]
    NoSuchCell { game: u64, cell: usize },
    /// A move that is not one on the cell's board.
    #[error("the row of game {game} of cell {cell}: {error}")]
    Move {
        game: u64,
        cell: usize,
        error: NotationError,
    },
    /// A row whose moves are not one per ply.
    #[error(
        "the row of game {game} of cell {cell}: {} for {}",
        plural(*.moves, "move", "moves"),
        plural(*.plies, "ply", "plies")
    )]
    MoveCount {
        game: u64,
        cell: usize,
        moves: u64,
        plies: u32,
    },
}

/// A games.csv field that does not read as its column's value; `text` is
/// the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// A count that is not a whole number.
    #[error("{text:?} is not a whole number")]
    NotWholeNumber { text: String },
    /// A `winner` that names no player.
    #[error("{text:?} is not 1, 2 or empty")]
    NotWinner { text: String },
    /// A `status` that, with the `winner`, names no finished game.
    #[error("{0}")]
    Status(NotFinished),
    /// A `hash` that is not 16 hex digits.
    #[error("{text:?} is not 16 hex digits")]
    NotHash { text: String },
}

/// A games.csv column: its name (as in the header and docs/OUTPUTS.md),
/// how a row writes it, and how it is read back into a [`GameLine`]. The
/// cell's columns (`variant`, `p1`, `p2`, `opening_plies`) read nothing:
/// they name the row's cell, which [`read_games_csv`] finds by them.
pub type GameColumn = (
    &'static str,
    fn(&Cell<'_>, &GameLine) -> String,
    fn(&mut GameLine, &str) -> Result<(), FieldError>,
);

/// A column of one of the record's counts, written and read as a whole
/// number.
macro_rules! count {
    ($name:literal, $($field:tt)+) => {
        (
            $name,
            |_, l| l.record.$($field)+.to_string(),
            |l, s| num(s, &mut l.record.$($field)+),
        )
    };
}

/// games.csv's columns, in order; the setting columns follow `variant`
/// (the settings include `ply_limit` and `lap_limit`, which `katro
/// replay` needs) and, when moves are kept, `moves` comes last.
pub const GAME_COLUMNS: &[GameColumn] = &[
    ("variant", |c, _| c.rules.name().to_string(), by_cell),
    ("p1", |c, _| c.p1.to_string(), by_cell),
    ("p2", |c, _| c.p2.to_string(), by_cell),
    ("opening_plies", |c, _| c.opening_plies.to_string(), by_cell),
    (
        "game",
        |_, l| l.game.to_string(),
        |l, s| num(s, &mut l.game),
    ),
    (
        "seed",
        |_, l| l.seed.to_string(),
        |l, s| num(s, &mut l.seed),
    ),
    // `winner` is read before `status`, which checks the pair.
    ("winner", |_, l| opt(winner(l)), read_winner),
    ("status", |_, l| l.record.status.name().into(), read_status),
    count!("plies", plies),
    count!("captures_p1", captures[0]),
    count!("captures_p2", captures[1]),
    count!("seeds_captured_p1", seeds_captured[0]),
    count!("seeds_captured_p2", seeds_captured[1]),
    count!("laps", laps),
    count!("max_laps_in_move", max_laps_in_move),
    count!("max_relays_in_move", max_relays_in_move),
    count!("seeds_sown", seeds_sown),
    count!("legal_moves", legal_moves),
    count!("choice_turns", choice_turns),
    ("hash", |_, l| format!("{:016x}", l.record.hash), read_hash),
];

/// The last column when moves are kept.
const MOVES: &str = "moves";

/// The cell's columns, which [`GAME_COLUMNS`] writes and reads apart.
const CELL_KEYS: [&str; 4] = ["variant", "p1", "p2", "opening_plies"];

/// The names of [`GAME_COLUMNS`], in order.
pub fn game_column_names() -> Vec<&'static str> {
    GAME_COLUMNS.iter().map(|c| c.0).collect()
}

fn by_cell(_: &mut GameLine, _: &str) -> Result<(), FieldError> {
    Ok(())
}

fn num<T: std::str::FromStr>(text: &str, to: &mut T) -> Result<(), FieldError> {
    *to = text.parse().map_err(|_| FieldError::NotWholeNumber {
        text: text.to_string(),
    })?;
    Ok(())
}

fn winner(l: &GameLine) -> Option<u8> {
    l.record.status.winner().map(Player::number)
}

/// Held in the status until `status` is read: a won game for 1 or 2,
/// else a ply-limit one, which `status` then replaces.
fn read_winner(l: &mut GameLine, text: &str) -> Result<(), FieldError> {
    l.record.status = match text {
        "" => Status::PlyLimit,
        "1" => Status::Won(Player::South),
        "2" => Status::Won(Player::North),
        _ => {
            return Err(FieldError::NotWinner {
                text: text.to_string(),
            });
        }
    };
    Ok(())
}

fn read_status(l: &mut GameLine, text: &str) -> Result<(), FieldError> {
    l.record.status = status_pair::of_pair(text, winner(l)).map_err(FieldError::Status)?;
    Ok(())
}

fn read_hash(l: &mut GameLine, text: &str) -> Result<(), FieldError> {
    l.record.hash = u64::from_str_radix(text, 16)
        .ok()
        .filter(|_| text.len() == 16)
        .ok_or_else(|| FieldError::NotHash {
            text: text.to_string(),
        })?;
    Ok(())
}

/// One row per game, in the rows' order; with `moves`, a last column holds
/// the game's moves in RULES.md's notation, separated by spaces.
pub fn games_csv(cells: &[Cell], rows: &[GameLine], moves: bool) -> Vec<u8> {
    let names = game_column_names();
    let mut header = with_settings(&names, "variant", &setting_names(cells));
    if moves {
        header.push(MOVES.to_string());
    }
    // Each cell's setting fields once, not once per game.
    let settings: Vec<Vec<String>> = cells
        .iter()
        .map(|c| setting_values(c.rules.settings()))
        .collect();
    let out = rows.iter().map(|r| {
        let c = &cells[r.cell];
        let fixed = GAME_COLUMNS
            .iter()
            .map(|(_, write, _)| write(c, r))
            .collect();
        // The limits the game was played under, the experiment's overrides
        // applied, are among the settings: `katro replay` needs them to
        // reproduce the status of a game they stopped.
        let mut row = row_with_settings(&names, "variant", fixed, settings[r.cell].clone());
        if moves {
            row.push(r.moves.clone());
        }
        row
    });
    csv_bytes(&header, out)
}

/// games.csv read back into the rows [`games_csv`] wrote, through
/// [`GAME_COLUMNS`] by name: each row's cell is the place of its
/// (variant, p1, p2, opening_plies) in `cells`. A missing column, a row
/// of no cell, a field that does not parse, or rows out of (cell, game)
/// order give an error naming the line; the caller checks the file is
/// the one katro wrote (run-state.json's `games_csv`).
pub fn read_games_csv(
    bytes: &[u8],
    cells: &[(&str, &str, &str, u32)],
) -> Result<Vec<GameLine>, FileError> {
    let mut r = csv::Reader::from_reader(bytes);
    let header = r
        .headers()
        .map_err(|e| FileError::Csv {
            line: 1,
            reason: e.to_string(),
        })?
        .clone();
    let places = column_places(&header)?;
    let moves_at = header.iter().position(|h| h == MOVES);
    let mut out: Vec<GameLine> = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| FileError::Csv {
            line,
            reason: e.to_string(),
        })?;
        let field = |k: usize| rec.get(places[k]).unwrap_or("");
        let key =
            CELL_KEYS.map(|name| field(GAME_COLUMNS.iter().position(|c| c.0 == name).unwrap()));
        let cell = cell_of(key, cells, line)?;
        let mut g = GameLine {
            cell,
            game: 0,
            seed: 0,
            record: GameRecord::default(),
            moves: moves_at.and_then(|m| rec.get(m)).unwrap_or("").to_string(),
        };
        for (k, (name, _, read)) in GAME_COLUMNS.iter().enumerate() {
            read(&mut g, field(k)).map_err(|error| FileError::Field {
                line,
                column: name,
                error,
            })?;
        }
        if out
            .last()
            .is_some_and(|p| (p.cell, p.game) >= (cell, g.game))
        {
            return Err(FileError::OutOfOrder { line, game: g.game });
        }
        out.push(g);
    }
    Ok(out)
}

/// Where each of [`GAME_COLUMNS`] is in `header`; every one must be.
fn column_places(header: &csv::StringRecord) -> Result<Vec<usize>, FileError> {
    let mut places = Vec::new();
    for name in game_column_names() {
        places.push(
            header
                .iter()
                .position(|h| h == name)
                .ok_or(FileError::NoColumn { column: name })?,
        );
    }
    Ok(places)
}

/// The place in `cells` of the cell a row names by `key` (variant, p1,
/// p2, opening_plies), line `line` of the file.
fn cell_of(
    key: [&str; 4],
    cells: &[(&str, &str, &str, u32)],
    line: usize,
) -> Result<usize, FileError> {
    let mut opening = 0u32;
    num(key[3], &mut opening).map_err(|error| FileError::Field {
        line,
        column: "opening_plies",
        error,
    })?;
    cells
        .iter()
        .position(|c| *c == (key[0], key[1], key[2], opening))
        .ok_or_else(|| FileError::NoCell {
            line,
            variant: key[0].to_string(),
            p1: key[1].to_string(),
            p2: key[2].to_string(),
            opening_plies: opening,
        })
}
