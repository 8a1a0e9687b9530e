//! games.csv, one row per game, written and read back (docs/OUTPUTS.md).

use serde::{Deserialize, Serialize};

use super::csv::{csv_bytes, opt, setting_names, setting_values, with_settings};
use crate::engine::Player;
use crate::engine::notation::{move_name, parse_move, plural};
use crate::experiment::plan::Cell;
use crate::experiment::runner::GameRow;
use crate::experiment::stats::{GameRecord, status_pair};

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
    pub fn to_row(&self, cells: &[Cell]) -> Result<GameRow, String> {
        let where_ = || format!("the row of game {} of cell {}", self.game, self.cell + 1);
        let cell = cells
            .get(self.cell)
            .ok_or_else(|| format!("{}: no such cell", where_()))?;
        let moves = self
            .moves
            .split_whitespace()
            .map(|m| parse_move(cell.rules, m).map_err(|e| format!("{}: {e}", where_())))
            .collect::<Result<Vec<_>, _>>()?;
        let plies = self.record.plies;
        if !moves.is_empty() && moves.len() != plies as usize {
            return Err(format!(
                "{}: {} for {}",
                where_(),
                plural(moves.len() as u64, "move", "moves"),
                plural(plies, "ply", "plies")
            ));
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

/// games.csv's columns before and after the setting columns, which
/// follow `variant` (the settings include `ply_limit` and `lap_limit`,
/// which `katro replay` needs).
pub const GAMES_COLUMNS: &[&str] = &[
    "variant",
    "p1",
    "p2",
    "opening_plies",
    "game",
    "seed",
    "winner",
    "status",
    "plies",
    "captures_p1",
    "captures_p2",
    "seeds_captured_p1",
    "seeds_captured_p2",
    "laps",
    "max_laps_in_move",
    "seeds_sown",
    "legal_moves",
    "choice_turns",
    "hash",
];

/// One row per game, in the rows' order; with `moves`, a last column holds
/// the game's moves in RULES.md's notation, separated by spaces.
pub fn games_csv(cells: &[Cell], rows: &[GameLine], moves: bool) -> Vec<u8> {
    let mut header = with_settings(GAMES_COLUMNS, "variant", &setting_names(cells));
    if moves {
        header.push("moves".to_string());
    }
    // Each cell's setting fields once, not once per game.
    let settings: Vec<Vec<String>> = cells
        .iter()
        .map(|c| setting_values(c.rules.settings()))
        .collect();
    // Every field that tells two cells apart, as in summary.csv.
    let labels: Vec<[String; 3]> = cells
        .iter()
        .map(|c| {
            [
                c.p1.to_string(),
                c.p2.to_string(),
                c.opening_plies.to_string(),
            ]
        })
        .collect();
    let out = rows.iter().map(|r| {
        let c = &cells[r.cell];
        let g = &r.record;
        let mut row = vec![c.rules.name().to_string()];
        // The limits the game was played under, the experiment's overrides
        // applied, are among the settings: `katro replay` needs them to
        // reproduce the status of a game they stopped.
        row.extend(settings[r.cell].iter().cloned());
        row.extend([
            labels[r.cell][0].clone(),
            labels[r.cell][1].clone(),
            labels[r.cell][2].clone(),
            r.game.to_string(),
            r.seed.to_string(),
            opt(g.status.winner().map(Player::number)),
            g.status.name().to_string(),
            g.plies.to_string(),
            g.captures[0].to_string(),
            g.captures[1].to_string(),
            g.seeds_captured[0].to_string(),
            g.seeds_captured[1].to_string(),
            g.laps.to_string(),
            g.max_laps_in_move.to_string(),
            g.seeds_sown.to_string(),
            g.legal_moves.to_string(),
            g.choice_turns.to_string(),
            format!("{:016x}", g.hash),
        ]);
        if moves {
            row.push(r.moves.clone());
        }
        row
    });
    csv_bytes(&header, out)
}

/// The fields of a games.csv row that [`read_games_csv`] reads; the
/// setting columns, which repeat the cell's rules, are not read back.
#[derive(Deserialize)]
struct GamesCsvRow {
    variant: String,
    p1: String,
    p2: String,
    opening_plies: u32,
    game: u64,
    seed: u64,
    winner: Option<u8>,
    status: String,
    plies: u32,
    captures_p1: u64,
    captures_p2: u64,
    seeds_captured_p1: u64,
    seeds_captured_p2: u64,
    laps: u64,
    max_laps_in_move: u64,
    seeds_sown: u64,
    legal_moves: u64,
    choice_turns: u64,
    hash: String,
    #[serde(default)]
    moves: String,
}

/// games.csv read back into the rows [`games_csv`] wrote: each row's cell
/// is the place of its (variant, p1, p2, opening_plies) in `cells`. A row
/// of no cell, a field that does not parse, or rows out of (cell, game)
/// order give an error naming the line; the caller checks the file is
/// the one katro wrote (run-state.json's `games_csv`).
pub fn read_games_csv(
    bytes: &[u8],
    cells: &[(&str, &str, &str, u32)],
) -> Result<Vec<GameLine>, String> {
    let mut r = csv::Reader::from_reader(bytes);
    let mut out: Vec<GameLine> = Vec::new();
    for (i, rec) in r.deserialize::<GamesCsvRow>().enumerate() {
        let line = i + 2;
        let g = rec.map_err(|e| format!("games.csv line {line}: {e}"))?;
        let key = (
            g.variant.as_str(),
            g.p1.as_str(),
            g.p2.as_str(),
            g.opening_plies,
        );
        let cell = cells.iter().position(|c| *c == key).ok_or_else(|| {
            format!(
                "games.csv line {line}: no cell of variant `{}`, {} vs {}, opening_plies {}",
                g.variant, g.p1, g.p2, g.opening_plies
            )
        })?;
        if out
            .last()
            .is_some_and(|p| (p.cell, p.game) >= (cell, g.game))
        {
            return Err(format!(
                "games.csv line {line}: game {} is out of (cell, game) order",
                g.game
            ));
        }
        let hash = u64::from_str_radix(&g.hash, 16)
            .ok()
            .filter(|_| g.hash.len() == 16)
            .ok_or_else(|| {
                format!(
                    "games.csv line {line}: `hash` {:?} is not 16 hex digits",
                    g.hash
                )
            })?;
        let status = status_pair::of_pair(&g.status, g.winner)
            .map_err(|e| format!("games.csv line {line}: {e}"))?;
        out.push(GameLine {
            cell,
            game: g.game,
            seed: g.seed,
            record: GameRecord {
                status,
                plies: g.plies,
                laps: g.laps,
                max_laps_in_move: g.max_laps_in_move,
                captures: [g.captures_p1, g.captures_p2],
                seeds_captured: [g.seeds_captured_p1, g.seeds_captured_p2],
                seeds_sown: g.seeds_sown,
                legal_moves: g.legal_moves,
                choice_turns: g.choice_turns,
                hash,
            },
            moves: g.moves,
        });
    }
    Ok(out)
}
