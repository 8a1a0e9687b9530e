//! `katro show --svg` and `katro replay --html`: a board diagram or a
//! game viewer written to a file the user names, never over a file katro
//! did not write or that was changed since.

use std::path::Path;

use crate::engine::notation::plural;
use crate::pictures::ReplayError;
use crate::pictures::board_svg::board_svg;
use crate::pictures::viewer::{frames, viewer_html};
use crate::rules::Rules;
use crate::store::Store;

use super::owned::{XML_COMMENT, no_old_mark, write_marked_file};
use super::replay::parse_game;
use super::{Error, Failure, Refusal};

/// Writes `text`, marked as katro's, to the file `path` atomically (never
/// half a file), unless a file katro did not write, or changed since, is
/// there ([`super::owned::write_marked_file`]).
fn write_file(store: &dyn Store, path: &str, text: &str) -> Result<(), Error> {
    write_marked_file(
        store,
        Path::new(path),
        text.as_bytes(),
        XML_COMMENT,
        no_old_mark,
    )
    .map(|_| ())
}

/// `katro show VARIANT --svg FILE`: the starting board. Returns what to
/// print.
pub fn write_board(store: &dyn Store, rules: &Rules, file: &str) -> Result<String, Error> {
    let start = rules.start();
    let seeds: Vec<u16> = (0..rules.hole_count()).map(|h| start.seeds(h)).collect();
    let title = format!(
        "{}: {} rows × {} columns, {} seeds",
        rules.name(),
        rules.rows(),
        rules.cols(),
        rules.total_seeds()
    );
    let svg = board_svg(rules, &seeds, &title, false);
    write_file(store, file, &svg)?;
    Ok(format!("wrote {file}\n"))
}

/// `katro replay ... --html FILE`: the game viewer; `command` is the
/// replay command as the user gave it, which the page prints. Returns
/// what to print.
pub fn write_viewer(
    store: &dyn Store,
    rules: &Rules,
    moves: &[String],
    file: &str,
    command: &str,
) -> Result<String, Error> {
    let moves = parse_game(rules, moves)?;
    let frames = frames(rules, &moves).map_err(replay_error)?;
    let html = viewer_html(rules, &moves, &frames, command, file);
    write_file(store, file, &html)?;
    Ok(format!(
        "wrote {file}: {}, {}; open it in a browser\n",
        plural(moves.len() as u64, "ply", "plies"),
        plural(frames.len() as u64, "board", "boards")
    ))
}

/// A game the viewer cannot draw: katro's fault or the game's.
fn replay_error(e: ReplayError) -> Error {
    if e.is_katros_fault() {
        Failure::Replay(e).into()
    } else {
        Refusal::Replay(e).into()
    }
}
