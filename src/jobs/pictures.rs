//! `katro show --svg` and `katro replay --html`: a board diagram or a
//! game viewer written to a file the user names, never over a file katro
//! did not write.

use std::path::Path;

use crate::engine::notation::plural;
use crate::pictures::board_svg::board_svg;
use crate::pictures::viewer::{frames, viewer_html};
use crate::rules::Rules;
use crate::store::Store;

use super::replay::parse_game;
use super::{Error, put, read_optional};

/// The mark `katro show --svg` and `katro replay --html` put near the top
/// of every file they write (an XML/HTML comment, invisible in a browser):
/// a file that has it is katro's to replace; any other file at that path
/// is the user's, and is replaced only with `--force`.
pub const MARK: &str =
    "<!-- written by katro: katro replaces this file; remove this line to keep it -->";

/// Whether the file's first bytes carry [`MARK`].
fn has_mark(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let m = MARK.as_bytes();
    head.windows(m.len()).any(|w| w == m)
}

/// `text` with [`MARK`] on its own line after its first line (the SVG's
/// opening tag, the HTML's doctype), so the file still starts as before.
fn marked(text: &str) -> String {
    let (first, rest) = text.split_at(text.find('\n').map_or(text.len(), |i| i + 1));
    let sep = if first.ends_with('\n') { "" } else { "\n" };
    format!("{first}{sep}{MARK}\n{rest}")
}

/// Writes `text`, marked as katro's, to the file `path` atomically (never
/// half a file). An existing file without the mark is the user's: refused
/// unless `force`.
fn write_file(store: &dyn Store, path: &str, text: &str, force: bool) -> Result<(), Error> {
    let p = Path::new(path);
    let name = p
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| Error::refused(format!("{path}: give a file name to write")))?;
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !store.is_dir(dir) {
        return Err(Error::refused(format!(
            "{path}: the folder {} does not exist",
            dir.display()
        )));
    }
    if store.is_dir(p) {
        return Err(Error::refused(format!(
            "{path}: is a folder: give a file name to write"
        )));
    }
    if !force
        && let Some(old) = read_optional(store, p)?
        && !has_mark(&old)
    {
        return Err(Error::refused(format!(
            "{path}: the file exists and katro did not write it (it lacks katro's mark): give \
             another file name, or --force to replace it"
        )));
    }
    put(store, dir, name, marked(text).as_bytes())
}

/// `katro show VARIANT --svg FILE`: the starting board. Returns what to
/// print.
pub fn write_board(
    store: &dyn Store,
    rules: &Rules,
    file: &str,
    force: bool,
) -> Result<String, Error> {
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
    write_file(store, file, &svg, force)?;
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
    force: bool,
) -> Result<String, Error> {
    let moves = parse_game(rules, moves)?;
    let frames = frames(rules, &moves).map_err(|e| {
        if e.is_katros_fault() {
            Error::Failed(e.to_string())
        } else {
            Error::refused(e)
        }
    })?;
    let html = viewer_html(rules, &moves, &frames, command, file);
    write_file(store, file, &html, force)?;
    Ok(format!(
        "wrote {file}: {}, {}; open it in a browser\n",
        plural(moves.len() as u64, "ply", "plies"),
        plural(frames.len() as u64, "board", "boards")
    ))
}
