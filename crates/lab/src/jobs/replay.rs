//! `katro replay`: a game given as moves in RULES.md's notation, each
//! checked legal in turn, played from the start and told as one JSON
//! object (with `--trace`, lap by lap).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::engine::notation::{board_rows, move_name, parse_move};
use crate::engine::trace::{MoveTrace, TraceWriter};
use crate::engine::{Move, Player, Position, Silent};
use crate::files::{FileError, ManifestRead};
use crate::pictures::report::CsvTable;
use crate::rules::Rules;

use crate::store::Store;

use super::owned::folder_of;
use super::{ColumnNeed, Error, Readable, Refusal, read_optional};

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
pub fn parse_game(rules: &Rules, moves: &[String]) -> Result<Vec<Move>, Error> {
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
pub fn legal_move(rules: &Rules, pos: &Position, i: usize, text: &str) -> Result<Move, Error> {
    let legal = rules.legal_moves(pos);
    let legal_names: Vec<String> = legal.iter().map(|&m| move_name(rules, m)).collect();
    check_not_over(rules, pos, i, text)?;
    let mv = match parse_move(rules, text) {
        Ok(mv) => mv,
        Err(error) => {
            let (ply, legal) = (i + 1, legal_names);
            return Err(Refusal::BadMove { ply, error, legal }.into());
        }
    };
    if !legal.contains(&mv) {
        return Err(Refusal::IllegalMove {
            ply: i + 1,
            text: text.to_string(),
            player: pos.to_move().number(),
            legal: legal_names,
        }
        .into());
    }
    Ok(mv)
}

/// Refuses move `i` (0-based), `text`, of a game already over at `pos`.
fn check_not_over(rules: &Rules, pos: &Position, i: usize, text: &str) -> Result<(), Error> {
    let status = rules.status(pos);
    if status.is_over() {
        return Err(Refusal::GameOver {
            ply: i + 1,
            text: text.to_string(),
            status: status.name(),
            plies: pos.plies(),
        }
        .into());
    }
    Ok(())
}

/// The game after `moves` as one line of JSON (no newline), with every
/// move's laps when `trace`.
pub fn replay_json(rules: &Rules, moves: &[String], trace: bool) -> Result<String, Error> {
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
            traces.push(traced_move(rules, &mut pos, mv, ply, player));
        }
    }
    let out = replay_out(rules, &pos, trace.then_some(traces));
    Ok(serde_json::to_string(&out).expect("replay output serialises"))
}

/// Plays `mv` in `pos`, lap by lap told.
fn traced_move(rules: &Rules, pos: &mut Position, mv: Move, ply: u32, player: u8) -> MoveTrace {
    let mut w = TraceWriter::new(rules);
    let report = rules.play_unchecked(pos, mv, &mut w);
    MoveTrace {
        ply,
        player,
        mv: move_name(rules, mv),
        laps: report.laps,
        captures: report.captures,
        seeds_captured: report.seeds_captured,
        seeds_sown: report.seeds_sown,
        end: report.end.name(),
        events: w.events,
        board: board_rows(rules, pos),
    }
}

/// Where the game stands at `pos`, with the moves' traces when asked.
fn replay_out(rules: &Rules, pos: &Position, trace: Option<Vec<MoveTrace>>) -> ReplayOut {
    let status = rules.status(pos);
    ReplayOut {
        variant: rules.name().to_string(),
        board: board_rows(rules, pos),
        to_move: pos.to_move().number(),
        plies: pos.plies(),
        status: status.name(),
        winner: status.winner().map(Player::number),
        legal: rules
            .legal_moves(pos)
            .iter()
            .map(|&m| move_name(rules, m))
            .collect(),
        trace,
    }
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

/// The variant and moves of row `row` (1 = the first game) of a games.csv.
/// The variant is rebuilt from the settings in the manifest.json beside the
/// file (exactly as the run played it, limits included) and checked
/// against its rules string; without a manifest, a preset of that name.
pub fn game_from_csv(
    store: &dyn Store,
    file: &str,
    row: u64,
) -> Result<(Rules, Vec<String>), Error> {
    let table = read_games_table(store, file)?;
    let r = row_index(&table, file, row)?;
    let variant = table.text(r, "variant").to_string();
    let moves: Vec<String> = table
        .text(r, "moves")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let rules = variant_beside(store, file, row, &variant)?;
    let limits = row_limits(&table, file, row)?;
    let rules = rules
        .with_limits(limits[0], limits[1])
        .map_err(|error| Refusal::RowLimits {
            file: file.to_string(),
            row,
            error,
        })?;
    Ok((rules, moves))
}

/// The index in `table` of its `row` (1 = the first game), refused when
/// there is no such row.
fn row_index(table: &CsvTable, file: &str, row: u64) -> Result<usize, Error> {
    if row == 0 || row > table.len() as u64 {
        return Err(Refusal::NoSuchRow {
            file: file.to_string(),
            row,
            rows: table.len(),
        }
        .into());
    }
    Ok(row as usize - 1)
}

/// games.csv read as a table, refused without its `variant` and `moves`.
fn read_games_table(store: &dyn Store, file: &str) -> Result<CsvTable, Error> {
    let bytes = store
        .read(Path::new(file))
        .map_err(|error| Refusal::Unreadable {
            path: file.into(),
            what: Readable::File,
            error,
        })?;
    let table = CsvTable::parse(file, &bytes).map_err(Refusal::GamesTable)?;
    for col in ["variant", "moves"] {
        if !table.has(col) {
            return Err(Refusal::NoColumn {
                file: file.to_string(),
                column: col.to_string(),
                need: ColumnNeed::Viewer,
            }
            .into());
        }
    }
    Ok(table)
}

/// The rules of `variant` from the manifest.json beside `file`, or the
/// preset of that name when there is no manifest.
fn variant_beside(store: &dyn Store, file: &str, row: u64, variant: &str) -> Result<Rules, Error> {
    let manifest = manifest_beside(file);
    match manifest
        .as_deref()
        .map(|p| read_optional(store, p))
        .transpose()?
        .flatten()
    {
        Some(b) => variant_from_manifest(&b, variant).map_err(|error| {
            let manifest = manifest.unwrap_or_else(|| "manifest.json".into());
            Refusal::ManifestVariant { manifest, error }.into()
        }),
        None => crate::rules::preset(variant).ok_or_else(|| {
            Refusal::RowVariant {
                file: file.to_string(),
                row,
                variant: variant.to_string(),
            }
            .into()
        }),
    }
}

/// The path of the manifest.json in `file`'s folder.
fn manifest_beside(file: &str) -> Option<PathBuf> {
    let path = Path::new(file);
    path.parent().map(|_| folder_of(path).join("manifest.json"))
}

/// The row's own limits (games.csv's `ply_limit` and `lap_limit`), so a
/// game played with overridden limits replays to its recorded status.
fn row_limits(table: &CsvTable, file: &str, row: u64) -> Result<[Option<u64>; 2], Error> {
    let r = row as usize - 1;
    let mut limits = [None, None];
    for (slot, (col, range)) in limits.iter_mut().zip([
        ("ply_limit", &crate::experiment::PLY_LIMIT_RANGE),
        ("lap_limit", &crate::experiment::LAP_LIMIT_RANGE),
    ]) {
        if table.has(col) {
            let text = table.text(r, col);
            let v = text
                .parse::<i64>()
                .map_err(|e| e.to_string())
                .and_then(|v| range.check(v).map_err(|e| e.to_string()))
                .map_err(|why| Refusal::RowValue {
                    file: file.to_string(),
                    row,
                    column: col,
                    text: text.to_string(),
                    why,
                })?;
            *slot = Some(v);
        }
    }
    Ok(limits)
}

fn variant_from_manifest(bytes: &[u8], name: &str) -> Result<Rules, FileError> {
    let m = ManifestRead::parse(bytes).map_err(|e| FileError::ManifestDamaged {
        reason: e.to_string(),
    })?;
    variant_of_manifest(&m, name)
}

/// A variant's rules from a manifest's `variants` entry, checked against
/// its rules string (`katro replay --from-csv`, `katro judge`).
pub(crate) fn variant_of_manifest(m: &ManifestRead, name: &str) -> Result<Rules, FileError> {
    let entry = m
        .variants
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| FileError::NoVariant {
            name: name.to_string(),
        })?;
    let settings = entry
        .settings
        .as_ref()
        .ok_or_else(|| FileError::NoSettings {
            name: name.to_string(),
        })?;
    // The manifest's settings are the variant file's keys: written back as
    // a variant file, the engine's own parser checks them.
    let table = settings_table(name, settings)?;
    let text = crate::rules::write_variant_table(name, "", "", &table);
    let parsed = crate::rules::parse_variant("manifest.json", &text, name).map_err(|error| {
        FileError::Variant {
            name: name.to_string(),
            error,
        }
    })?;
    if parsed.canonical_string() != entry.rules {
        return Err(FileError::RulesDiffer {
            name: name.to_string(),
            settings_rules: parsed.canonical_string(),
            rules: entry.rules.clone(),
        });
    }
    Ok(parsed)
}

/// A manifest's settings of variant `name` as a variant file's table,
/// unset (null) settings left out.
fn settings_table(
    name: &str,
    settings: &serde_json::Map<String, serde_json::Value>,
) -> Result<toml::Table, FileError> {
    let mut table = toml::Table::new();
    for (k, val) in settings {
        if val.is_null() {
            continue;
        }
        let t = toml::Value::try_from(val).map_err(|e| FileError::Setting {
            name: name.to_string(),
            setting: k.clone(),
            reason: e.to_string(),
        })?;
        table.insert(k.clone(), t);
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed read takes every experiment manifest katro has committed,
    /// of every format it wrote, and rebuilds each variant from it as
    /// `replay --from-csv` and `judge` do. (solve-family's manifests are
    /// another file, read by `solve_family`.)
    #[test]
    fn every_committed_manifest_reads_and_rebuilds_its_variants() {
        let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
        let mut read = 0;
        for dir in std::fs::read_dir(&results).unwrap() {
            let path = dir.unwrap().path().join("manifest.json");
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let raw: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            if raw.get("boards").is_some() {
                continue;
            }
            let m = ManifestRead::parse(&bytes).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            assert_eq!(Some(m.run.name.as_str()), raw["name"].as_str(), "{path:?}");
            assert_eq!(m.games, raw["games"].as_u64().unwrap(), "{path:?}");
            assert!(m.files.iter().any(|f| f == "summary.csv"), "{path:?}");
            assert!(!m.variants.is_empty(), "{path:?}");
            for v in &m.variants {
                let rules =
                    variant_of_manifest(&m, &v.name).unwrap_or_else(|e| panic!("{path:?}: {e}"));
                assert_eq!(rules.canonical_string(), v.rules);
            }
            read += 1;
        }
        assert!(read >= 9, "only {read} manifests read");
    }
}
