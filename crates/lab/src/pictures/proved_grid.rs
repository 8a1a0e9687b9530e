//! The proved family's chart, proved.svg (docs/OUTPUTS.md, proved.csv):
//! for the `boards` set a holes × seeds grid per row count, each cell
//! coloured by who wins the start under perfect play and labelled with
//! the distance (`>D` when unknown within D decisions); the same grids per
//! reading and row count for the `solved-family` set; and for the readings
//! sets one line per reading, a cell per board. SVG text from the rows; no
//! file is read here.

use std::fmt::Write;

use crate::files::proved::ProvedRow;
use crate::solve::prove::Outcome;

/// The chart's second line: how a folder check knows it for katro's where
/// the folder's ledger does not hold it.
pub const MARK: &str = "<!-- drawn by katro prove-family -->";

/// Okabe and Ito's blue and vermilion (the strength curve's first two
/// colours), a grey for unknown and their yellow for a draw.
const WIN: &str = "#0072b2";
const LOSS: &str = "#d55e00";
const UNKNOWN: &str = "#dddddd";
const DRAW: &str = "#f0e442";

/// A cell's size, the margin left of a grid (its seeds labels), and the
/// width of the readings' names.
const CW: f64 = 44.0;
const CH: f64 = 26.0;
const LEFT: f64 = 70.0;
const NAME_W: f64 = 250.0;
/// Space between panels side by side, and the page's margin.
const GAP: f64 = 30.0;
const MARGIN: f64 = 16.0;

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A cell's fill, its label's colour and the label: the distance, `>D`
/// when unknown within D, `draw`.
fn cell_look(v: Outcome) -> (&'static str, &'static str, String) {
    match v {
        Outcome::Win(d) => (WIN, "#FFFFFF", d.to_string()),
        Outcome::Loss(d) => (LOSS, "#FFFFFF", d.to_string()),
        Outcome::Unknown(d) => (UNKNOWN, "#000000", format!(">{d}")),
        Outcome::Ended => (DRAW, "#000000", "draw".to_string()),
    }
}

/// What the cell says when hovered: the board and its value.
fn cell_title(r: &ProvedRow) -> String {
    let k = &r.key;
    let who = match r.value {
        Outcome::Win(d) => format!("player 1 wins in {d}"),
        Outcome::Loss(d) => format!("player 2 wins in {d}"),
        Outcome::Unknown(d) => format!("no forced win for either side within {d}"),
        Outcome::Ended => "draw".to_string(),
    };
    format!(
        "{} {}×{}, {} a hole ({}): {who}",
        k.reading, k.rows, k.holes, k.seeds, k.set
    )
}

/// One cell at (`x`, `y`).
fn cell(s: &mut String, x: f64, y: f64, r: &ProvedRow) {
    let (fill, ink, label) = cell_look(r.value);
    let _ = writeln!(
        s,
        "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{CW}\" height=\"{CH}\" fill=\"{fill}\" \
         stroke=\"#FFFFFF\"><title>{}</title></rect>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
        escape(&cell_title(r)),
        x + CW / 2.0,
        y + CH / 2.0 + 4.0,
        escape(&label)
    );
}

/// The chart being drawn: its body, the next free height, its width.
struct Page {
    body: String,
    y: f64,
    width: f64,
}

impl Page {
    fn heading(&mut self, text: &str) {
        self.y += 22.0;
        let _ = writeln!(
            self.body,
            "<text x=\"{MARGIN}\" y=\"{:.1}\" font-size=\"14\" font-weight=\"bold\">{}</text>",
            self.y,
            escape(text)
        );
        self.y += 6.0;
    }

    /// Grids side by side, one per `(title, rows)`: holes across, seeds
    /// down, over the values of `rows`' boards; each at least `slot` wide,
    /// so that the grids of a section line up.
    fn grids(&mut self, panels: &[(String, Vec<&ProvedRow>)], slot: f64) {
        let mut x = MARGIN;
        let mut tallest: f64 = 0.0;
        for (title, rows) in panels {
            let (w, h) = grid(&mut self.body, x, self.y, title, rows);
            x += w.max(slot) + GAP;
            tallest = tallest.max(h);
        }
        self.width = self.width.max(x - GAP + MARGIN);
        self.y += tallest;
    }

    /// The readings: a line per reading, a column per readings set.
    fn readings(&mut self, sets: &[(&str, &str)], rows: &[&ProvedRow]) {
        let mut names: Vec<&str> = Vec::new();
        for r in rows {
            if !names.contains(&r.key.reading.as_str()) {
                names.push(&r.key.reading);
            }
        }
        let x0 = MARGIN + NAME_W;
        self.y += 20.0;
        for (i, (_, label)) in sets.iter().enumerate() {
            let _ = writeln!(
                self.body,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x0 + i as f64 * CW + CW / 2.0,
                self.y,
                escape(label)
            );
        }
        self.y += 8.0;
        for name in &names {
            let _ = writeln!(
                self.body,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                x0 - 8.0,
                self.y + CH / 2.0 + 4.0,
                escape(name)
            );
            for (i, (set, _)) in sets.iter().enumerate() {
                let found = rows
                    .iter()
                    .find(|r| r.key.set == *set && r.key.reading == *name);
                if let Some(r) = found {
                    cell(&mut self.body, x0 + i as f64 * CW, self.y, r);
                }
            }
            self.y += CH;
        }
        self.width = self.width.max(x0 + sets.len() as f64 * CW + MARGIN);
    }
}

/// The widest of `panels`' grids (their holes a row, their titles).
fn widest(panels: &[(String, Vec<&ProvedRow>)]) -> f64 {
    panels
        .iter()
        .map(|(title, rows)| {
            let mut holes: Vec<usize> = rows.iter().map(|r| r.key.holes).collect();
            holes.sort_unstable();
            holes.dedup();
            grid_width(title, holes.len())
        })
        .fold(0.0, f64::max)
}

/// A grid's width: its seeds labels, `columns` cells, or its title.
fn grid_width(title: &str, columns: usize) -> f64 {
    (LEFT + columns as f64 * CW).max(title.chars().count() as f64 * 7.5)
}

/// A holes × seeds grid of `rows` at (`x`, `y`) under `title`: its width
/// and height.
fn grid(s: &mut String, x: f64, y: f64, title: &str, rows: &[&ProvedRow]) -> (f64, f64) {
    let mut holes: Vec<usize> = rows.iter().map(|r| r.key.holes).collect();
    let mut seeds: Vec<u16> = rows.iter().map(|r| r.key.seeds).collect();
    holes.sort_unstable();
    holes.dedup();
    seeds.sort_unstable();
    seeds.dedup();
    let gx = x + LEFT;
    let gw = holes.len() as f64 * CW;
    let _ = writeln!(
        s,
        "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"13\">{}</text>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">holes a row</text>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">seeds</text>",
        y + 18.0,
        escape(title),
        gx + gw / 2.0,
        y + 38.0,
        gx - 8.0,
        y + 56.0
    );
    for (i, h) in holes.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{h}</text>",
            gx + i as f64 * CW + CW / 2.0,
            y + 56.0
        );
    }
    let top = y + 64.0;
    for (j, sd) in seeds.iter().enumerate() {
        let cy = top + j as f64 * CH;
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{sd}</text>",
            gx - 8.0,
            cy + CH / 2.0 + 4.0
        );
        for (i, h) in holes.iter().enumerate() {
            if let Some(r) = rows
                .iter()
                .find(|r| r.key.holes == *h && r.key.seeds == *sd)
            {
                cell(s, gx + i as f64 * CW, cy, r);
            }
        }
    }
    (
        grid_width(title, holes.len()),
        64.0 + seeds.len() as f64 * CH + 10.0,
    )
}

/// The key: a swatch and its words for each colour.
fn key(s: &mut String, y: f64, draws: bool) {
    let mut x = MARGIN;
    let mut items = vec![
        (WIN, "player 1 (South, moves first) wins"),
        (LOSS, "player 2 wins"),
        (UNKNOWN, "unknown (>D: no forced win within D)"),
    ];
    if draws {
        items.push((DRAW, "draw"));
    }
    for (fill, words) in items {
        let _ = writeln!(
            s,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"14\" height=\"14\" fill=\"{fill}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{words}</text>",
            y - 11.0,
            x + 20.0,
            y
        );
        x += 20.0 + words.len() as f64 * 6.8 + 18.0;
    }
}

/// Rows of `set`, grouped by reading (in order of first appearance) and
/// row count: one grid each, titled.
fn panels<'a>(rows: &[&'a ProvedRow], set: &str) -> Vec<(String, Vec<&'a ProvedRow>)> {
    let mut out: Vec<(String, Vec<&ProvedRow>)> = Vec::new();
    for r in rows.iter().filter(|r| r.key.set == set) {
        let title = if set == "boards" {
            format!("{} rows", r.key.rows)
        } else {
            format!("{}, {} rows", r.key.reading, r.key.rows)
        };
        match out.iter_mut().find(|(t, _)| *t == title) {
            Some((_, v)) => v.push(r),
            None => out.push((title, vec![r])),
        }
    }
    out
}

/// proved.svg for the rows of a proved.csv; `None` when there are none.
pub fn proved_svg(rows: &[ProvedRow]) -> Option<String> {
    if rows.is_empty() {
        return None;
    }
    let all: Vec<&ProvedRow> = rows.iter().collect();
    let mut page = Page {
        body: String::new(),
        y: 24.0,
        width: 640.0,
    };
    let title = "Who wins the start under perfect play, and in how many decisions \
                 (proved by search)";
    let _ = writeln!(
        page.body,
        "<text x=\"{MARGIN}\" y=\"{:.1}\" font-size=\"15\">{title}</text>",
        page.y
    );
    page.y += 26.0;
    let draws = rows.iter().any(|r| r.value == Outcome::Ended);
    key(&mut page.body, page.y, draws);
    page.y += 8.0;
    let boards = panels(&all, "boards");
    if !boards.is_empty() {
        page.heading("Boards of experiments/boards.toml (katro-6x6's rules)");
        page.grids(&boards, widest(&boards));
    }
    readings_section(&mut page, &all);
    solved_section(&mut page, &all);
    // About 8.5 px a character of 15 px sans-serif, with room to spare.
    let w = page.width.max(title.len() as f64 * 8.5 + 2.0 * MARGIN);
    let h = page.y + MARGIN;
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         {MARK}\n<rect width=\"{w:.0}\" height=\"{h:.0}\" fill=\"#FFFFFF\"/>\n{}</svg>\n",
        page.body
    ))
}

/// The readings sets, when `all` has rows of them: a line per reading, a
/// column per set.
fn readings_section(page: &mut Page, all: &[&ProvedRow]) {
    let sets = [("readings-6x6", "6×6"), ("readings-4x4", "4×4")];
    let present: Vec<(&str, &str)> = sets
        .into_iter()
        .filter(|(set, _)| all.iter().any(|r| r.key.set == *set))
        .collect();
    if present.is_empty() {
        return;
    }
    page.heading("Single readings of experiments/readings.toml");
    let rows: Vec<&ProvedRow> = all
        .iter()
        .copied()
        .filter(|r| present.iter().any(|(s, _)| r.key.set == *s))
        .collect();
    page.readings(&present, &rows);
}

/// The `solved-family` set, when `all` has rows of it: two grids a line,
/// a reading's row counts side by side.
fn solved_section(page: &mut Page, all: &[&ProvedRow]) {
    let solved = panels(all, "solved-family");
    if solved.is_empty() {
        return;
    }
    page.heading("The solved family (results/solved/solved.csv's boards)");
    let slot = widest(&solved);
    for pair in solved.chunks(2) {
        page.grids(pair, slot);
        page.y += 4.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::proved::BoardKey;

    fn row(
        set: &str,
        reading: &str,
        rows: usize,
        holes: usize,
        seeds: u16,
        v: Outcome,
    ) -> ProvedRow {
        ProvedRow {
            key: BoardKey {
                set: set.into(),
                reading: reading.into(),
                rules: String::new(),
                rows,
                holes,
                seeds,
            },
            value: v,
            moves: Vec::new(),
            nodes: 1,
            stopped: None,
        }
    }

    #[test]
    fn each_board_is_a_cell_coloured_by_who_wins() {
        let rows = vec![
            row("boards", "canonical", 4, 3, 1, Outcome::Win(25)),
            row("boards", "canonical", 4, 3, 2, Outcome::Loss(6)),
            row("boards", "canonical", 6, 8, 4, Outcome::Unknown(14)),
            row("readings-6x6", "start=any", 6, 6, 2, Outcome::Win(3)),
            row("readings-4x4", "start=any", 4, 4, 2, Outcome::Unknown(9)),
            row("readings-4x4", "relay=never", 4, 4, 2, Outcome::Loss(2)),
        ];
        let svg = proved_svg(&rows).unwrap();
        // six cells and the key's three swatches, on the white page
        assert_eq!(svg.matches(&format!("fill=\"{WIN}\"")).count(), 3);
        assert_eq!(svg.matches(&format!("fill=\"{LOSS}\"")).count(), 3);
        assert_eq!(svg.matches(&format!("fill=\"{UNKNOWN}\"")).count(), 3);
        assert!(!svg.contains(DRAW));
        for label in [">25<", ">6<", ">&gt;14<", ">&gt;9<", ">4 rows<", ">6 rows<"] {
            assert!(svg.contains(label), "{label}");
        }
        assert!(svg.contains(">start=any<") && svg.contains(">relay=never<"));
        assert!(svg.contains("canonical 4×3, 1 a hole (boards): player 1 wins in 25"));
        assert_eq!(proved_svg(&[]), None);
    }

    #[test]
    fn labels_fit_their_cells() {
        // The widest label, `>` and four digits, at about 7 px a character
        // in 12 px sans-serif, inside a cell with room to spare.
        let (_, _, label) = cell_look(Outcome::Unknown(9999));
        assert!(label.chars().count() as f64 * 7.0 + 6.0 < CW);
        const { assert!(CH > 12.0 + 6.0) };
        // The longest reading name fits its column.
        let longest = "lone_seed_step=no-failed-capture";
        assert!(longest.len() as f64 * 7.0 + 8.0 < NAME_W);
    }
}
