//! games.csv, one row per game, written and read back (docs/OUTPUTS.md).

use serde::Deserialize;

use super::csv::{csv_bytes, opt, setting_names, setting_values, with_settings};
use crate::experiment::plan::Cell;
use crate::experiment::runner::{StoredRow, StoredStatus};

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
pub fn games_csv(cells: &[Cell], rows: &[StoredRow], moves: bool) -> Vec<u8> {
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
            opt(r.winner),
            r.status.name().to_string(),
            r.plies.to_string(),
            r.captures[0].to_string(),
            r.captures[1].to_string(),
            r.seeds_captured[0].to_string(),
            r.seeds_captured[1].to_string(),
            r.laps.to_string(),
            r.max_laps_in_move.to_string(),
            r.seeds_sown.to_string(),
            r.legal_moves.to_string(),
            r.choice_turns.to_string(),
            format!("{:016x}", r.hash),
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
    status: StoredStatus,
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
) -> Result<Vec<StoredRow>, String> {
    let mut r = csv::Reader::from_reader(bytes);
    let mut out: Vec<StoredRow> = Vec::new();
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
        out.push(StoredRow {
            cell,
            game: g.game,
            seed: g.seed,
            status: g.status,
            winner: g.winner,
            plies: g.plies,
            laps: g.laps,
            max_laps_in_move: g.max_laps_in_move,
            captures: [g.captures_p1, g.captures_p2],
            seeds_captured: [g.seeds_captured_p1, g.seeds_captured_p2],
            seeds_sown: g.seeds_sown,
            legal_moves: g.legal_moves,
            choice_turns: g.choice_turns,
            hash,
            moves: g.moves,
        });
    }
    Ok(out)
}
