//! The board as an SVG diagram: holes labelled as in the notation
//! (docs/RULES.md §1: a1 is South's outer-left hole, row 1 at the bottom),
//! seed counts, each player's forward circuit as arrows (§2) and the
//! capturing row (§5) marked. `katro show VARIANT --svg FILE` writes it;
//! the game viewer draws the same board and changes its counts.
//!
//! A board diagram is not a chart (no axes, no data series), so it is laid
//! out here directly rather than with the plotting crate.

use crate::engine::Player;
use crate::engine::notation::hole_name;
use crate::pictures::report::escape;
use crate::rules::{CapturingRow, Rules, column_letter};

/// Distance between hole centres.
const CELL: f64 = 70.0;
const RADIUS: f64 = 23.0;
const LEFT: f64 = 56.0;
const TOP: f64 = 58.0;
/// The lane outside the holes that long circuit arrows run along.
const LANE: f64 = 22.0;
const RIGHT: f64 = 250.0;
const BOTTOM: f64 = 96.0;

const SOUTH: &str = "#0b5fa5";
const NORTH: &str = "#b8410e";

/// The diagram's size in pixels.
pub fn size(rules: &Rules) -> (f64, f64) {
    (
        LEFT + LANE + CELL * rules.cols() as f64 + LANE + RIGHT,
        TOP + LANE + CELL * rules.rows() as f64 + LANE + BOTTOM,
    )
}

fn centre(rules: &Rules, hole: usize) -> (f64, f64) {
    let x = LEFT + LANE + CELL * (rules.col(hole) as f64 + 0.5);
    let y = TOP + LANE + CELL * ((rules.rows() - 1 - rules.row(hole)) as f64 + 0.5);
    (x, y)
}

/// The rows (0-based) that capture for each player on this board: the inner
/// row, or under `innermost-non-empty` the innermost row holding a seed.
pub fn capturing_rows(rules: &Rules, seeds: &[u16]) -> [Option<usize>; 2] {
    let half = rules.rows() / 2;
    let rows_of = |p: Player| -> Vec<usize> {
        // Outer row first.
        match p {
            Player::South => (0..half).collect(),
            Player::North => (half..rules.rows()).rev().collect(),
        }
    };
    let mut out = [None, None];
    for p in [Player::South, Player::North] {
        let rows = rows_of(p);
        out[p.index()] = match rules.settings().capturing_row {
            CapturingRow::Inner => rows.last().copied(),
            CapturingRow::InnermostNonEmpty => rows
                .iter()
                .rev()
                .copied()
                .find(|&r| (0..rules.cols()).any(|c| seeds[rules.hole_at(r, c)] > 0)),
        };
    }
    out
}

/// The SVG of `rules`' board holding `seeds` (one count per hole index).
/// With `ids`, every hole is a `<g id="hole-N" data-name="a1">` whose
/// `<text id="count-N">` the viewer rewrites.
pub fn board_svg(rules: &Rules, seeds: &[u16], title: &str, ids: bool) -> String {
    let f = Frame::new(rules);
    let mut s = opening(rules, title);
    f.halves(&mut s);
    f.capturing_boxes(&mut s, seeds, ids);
    f.labels(&mut s);
    // Circuits under the holes, so arrows never hide a count.
    f.circuits(&mut s);
    f.holes(&mut s, seeds, ids);
    f.legend(&mut s);
    s.push_str("</svg>\n");
    s
}

/// The `<svg>` element's opening, the title, the arrow heads and a white
/// background.
fn opening(rules: &Rules, title: &str) -> String {
    let (w, h) = size(rules);
    let mut s = String::new();
    s.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n"
    ));
    s.push_str(&format!("<title>{}</title>\n<defs>\n", escape(title)));
    for (id, colour) in [("south", SOUTH), ("north", NORTH)] {
        s.push_str(&format!(
            "<marker id=\"arrow-{id}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
             markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
             <path d=\"M0,0 L10,5 L0,10 z\" fill=\"{colour}\"/></marker>\n"
        ));
    }
    s.push_str("</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"28\" font-size=\"18\" font-weight=\"bold\">{}</text>\n",
        escape(title)
    ));
    s
}

/// The board's box in the diagram: its top left (`bx`, `by`), width and
/// height.
struct Frame<'a> {
    rules: &'a Rules,
    rows: usize,
    cols: usize,
    bx: f64,
    by: f64,
    bw: f64,
    bh: f64,
}

impl<'a> Frame<'a> {
    fn new(rules: &'a Rules) -> Frame<'a> {
        let (rows, cols) = (rules.rows(), rules.cols());
        Frame {
            rules,
            rows,
            cols,
            bx: LEFT + LANE,
            by: TOP + LANE,
            bw: CELL * cols as f64,
            bh: CELL * rows as f64,
        }
    }

    /// The players' halves, each in its colour.
    fn halves(&self, s: &mut String) {
        let (rows, bx, bw) = (self.rows, self.bx, self.bw);
        for (p, colour) in [(Player::South, "#e8f1fa"), (Player::North, "#fbeee6")] {
            let (r0, r1) = match p {
                Player::South => (0, rows / 2),
                Player::North => (rows / 2, rows),
            };
            let y = self.by + CELL * (rows - r1) as f64;
            s.push_str(&format!(
                "<rect x=\"{bx}\" y=\"{y}\" width=\"{bw}\" height=\"{}\" fill=\"{colour}\" \
                 stroke=\"#999\"/>\n",
                CELL * (r1 - r0) as f64
            ));
        }
    }

    /// The capturing rows (docs/RULES.md §5) in dashed boxes. The viewer
    /// gets a box for every row a player owns and shows the one that
    /// captures in the board it shows; a static diagram has just that one.
    fn capturing_boxes(&self, s: &mut String, seeds: &[u16], ids: bool) {
        let rows = self.rows;
        let capture = capturing_rows(self.rules, seeds);
        let half = rows / 2;
        for (p, name, colour, own) in [
            (Player::South, "South", SOUTH, 0..half),
            (Player::North, "North", NORTH, half..rows),
        ] {
            for r in own {
                let current = capture[p.index()] == Some(r);
                if !ids && !current {
                    continue;
                }
                let (id, hidden) = if ids {
                    (
                        format!(" id=\"capturing-{}-{r}\"", p.number()),
                        if current { "" } else { " display=\"none\"" },
                    )
                } else {
                    (String::new(), "")
                };
                let y = self.by + CELL * (rows - 1 - r) as f64;
                let group = format!("<g class=\"capturing\"{id}{hidden}>");
                s.push_str(&self.capturing_box(group, y, (name, colour)));
            }
        }
    }

    /// A capturing row's box at height `y`, `group` its opening tag, and
    /// whose row it is, in the player's colour.
    fn capturing_box(&self, group: String, y: f64, (name, colour): (&str, &str)) -> String {
        let (bx, bw) = (self.bx, self.bw);
        format!(
            "{group}<rect x=\"{}\" y=\"{}\" width=\"{}\" \
             height=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\" \
             stroke-dasharray=\"7 4\"/><text x=\"{}\" y=\"{}\" font-size=\"13\" \
             fill=\"{colour}\">{name}'s capturing row</text></g>\n",
            bx + 2.0,
            y + 2.0,
            bw - 4.0,
            CELL - 4.0,
            bx + bw + LANE + 10.0,
            y + CELL / 2.0 + 4.0
        )
    }

    /// Row numbers and column letters, as in the notation.
    fn labels(&self, s: &mut String) {
        let rows = self.rows;
        for r in 0..rows {
            let y = self.by + CELL * ((rows - 1 - r) as f64 + 0.5) + 5.0;
            s.push_str(&format!(
                "<text x=\"{}\" y=\"{y}\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
                LEFT / 2.0,
                r + 1
            ));
        }
        for c in 0..self.cols {
            let x = self.bx + CELL * (c as f64 + 0.5);
            s.push_str(&format!(
                "<text x=\"{x}\" y=\"{}\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
                self.by + self.bh + LANE + 22.0,
                column_letter(c)
            ));
        }
    }

    /// Each player's forward circuit (§2), one arrow a step.
    fn circuits(&self, s: &mut String) {
        for (p, id, colour) in [
            (Player::South, "south", SOUTH),
            (Player::North, "north", NORTH),
        ] {
            let circuit = self.rules.circuit(p);
            for i in 0..circuit.len() {
                let a = circuit[i] as usize;
                let b = circuit[(i + 1) % circuit.len()] as usize;
                s.push_str(&arrow(self.rules, p, a, b, id, colour));
            }
        }
    }

    /// Every hole with its count and its name.
    fn holes(&self, s: &mut String, seeds: &[u16], ids: bool) {
        let rules = self.rules;
        for (hole, count) in seeds.iter().enumerate().take(rules.hole_count()) {
            let (x, y) = centre(rules, hole);
            let name = hole_name(rules, hole);
            let (open, close, count_id) = if ids {
                (
                    format!("<g class=\"hole\" id=\"hole-{hole}\" data-name=\"{name}\">"),
                    "</g>",
                    format!(" id=\"count-{hole}\""),
                )
            } else {
                (String::from("<g>"), "</g>", String::new())
            };
            s.push_str(&format!(
                "{open}<circle cx=\"{x}\" cy=\"{y}\" r=\"{RADIUS}\" fill=\"white\" stroke=\"#444\" \
                 stroke-width=\"1.5\"/><text class=\"count\"{count_id} x=\"{x}\" y=\"{}\" \
                 font-size=\"17\" text-anchor=\"middle\">{}</text><text x=\"{}\" y=\"{}\" \
                 font-size=\"8\" fill=\"#777\" text-anchor=\"middle\">{name}</text>{close}\n",
                y + 6.0,
                count,
                x,
                y + RADIUS - 4.0
            ));
        }
    }

    /// The legend under the board: both circuits and the capturing rule.
    fn legend(&self, s: &mut String) {
        let (rows, bx) = (self.rows, self.bx);
        let ly = self.by + self.bh + LANE + 48.0;
        s.push_str(&format!(
            "<line x1=\"{bx}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{SOUTH}\" stroke-width=\"2\" \
             marker-end=\"url(#arrow-south)\"/><text x=\"{}\" y=\"{}\" font-size=\"13\">South \
             (player 1, rows 1-{}) forward circuit</text>\n",
            bx + 28.0,
            bx + 36.0,
            ly + 4.0,
            rows / 2
        ));
        s.push_str(&format!(
            "<line x1=\"{bx}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{NORTH}\" stroke-width=\"2\" \
             marker-end=\"url(#arrow-north)\"/><text x=\"{}\" y=\"{}\" font-size=\"13\">North \
             (player 2, rows {}-{rows}) forward circuit</text>\n",
            ly + 20.0,
            bx + 28.0,
            ly + 20.0,
            bx + 36.0,
            ly + 24.0,
            rows / 2 + 1
        ));
        self.capturing_legend(s, ly);
    }

    /// The legend's last line, under the circuits at `ly`: which row
    /// captures.
    fn capturing_legend(&self, s: &mut String, ly: f64) {
        let bx = self.bx;
        let rule = match self.rules.settings().capturing_row {
            CapturingRow::Inner => "the inner row",
            CapturingRow::InnermostNonEmpty => "the innermost row holding seeds",
        };
        s.push_str(&format!(
            "<rect x=\"{bx}\" y=\"{}\" width=\"28\" height=\"12\" fill=\"none\" stroke=\"#444\" \
             stroke-dasharray=\"7 4\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\" font-size=\"13\">\
             capturing row: {rule}</text>\n",
            ly + 34.0,
            bx + 36.0,
            ly + 44.0
        ));
    }
}

/// One step of a circuit: a short straight arrow between neighbours, or a
/// path around the outside of the board for the jump back to the start
/// (South's runs below the board, North's above), so it crosses no hole.
fn arrow(rules: &Rules, p: Player, a: usize, b: usize, id: &str, colour: &str) -> String {
    let (ax, ay) = centre(rules, a);
    let (bx, by) = centre(rules, b);
    let (dx, dy) = (bx - ax, by - ay);
    let d = (dx * dx + dy * dy).sqrt();
    let style = format!(
        "fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" marker-end=\"url(#arrow-{id})\""
    );
    if (d - CELL).abs() < 1e-6 {
        let (ux, uy) = (dx / d, dy / d);
        let gap = RADIUS + 2.0;
        return format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {style}/>\n",
            ax + ux * gap,
            ay + uy * gap,
            bx - ux * gap,
            by - uy * gap
        );
    }
    jump_arrow(rules, p, a, b, &style)
}

/// The jump back from hole `a` to the circuit's start `b`: out to the
/// side of the board nearer `a`, along the player's edge, into `b`.
fn jump_arrow(rules: &Rules, p: Player, a: usize, b: usize, style: &str) -> String {
    let (ax, ay) = centre(rules, a);
    let (bx, by) = centre(rules, b);
    let left_side = rules.col(a) * 2 < rules.cols();
    let board_left = LEFT + LANE;
    let board_right = board_left + CELL * rules.cols() as f64;
    let side_x = if left_side {
        board_left - LANE / 2.0
    } else {
        board_right + LANE / 2.0
    };
    let edge_y = match p {
        Player::South => TOP + LANE + CELL * rules.rows() as f64 + LANE / 2.0,
        Player::North => TOP + LANE / 2.0,
    };
    let sx = if left_side { ax - RADIUS } else { ax + RADIUS };
    let ey = match p {
        Player::South => by + RADIUS + 2.0,
        Player::North => by - RADIUS - 2.0,
    };
    format!(
        "<path d=\"M{sx},{ay} L{side_x},{ay} L{side_x},{edge_y} L{bx},{edge_y} L{bx},{ey}\" {style}/>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::preset;

    #[test]
    fn every_hole_is_labelled_with_its_name_and_count() {
        let rules = preset("katro-6x6").unwrap();
        let start = rules.start();
        let seeds: Vec<u16> = (0..rules.hole_count()).map(|h| start.seeds(h)).collect();
        let svg = board_svg(&rules, &seeds, "katro-6x6", true);
        for h in 0..rules.hole_count() {
            let name = hole_name(&rules, h);
            assert!(svg.contains(&format!("data-name=\"{name}\"")), "{name}");
            assert!(svg.contains(&format!("id=\"count-{h}\" ")), "{h}");
        }
        // One arrow per circuit step, both players.
        let arrows = svg.matches("marker-end=\"url(#arrow-").count();
        assert_eq!(arrows, rules.hole_count() + 2, "circuit arrows plus legend");
        // Every row has its box in the viewer, one per player shown.
        assert_eq!(svg.matches("class=\"capturing\"").count(), rules.rows());
        assert_eq!(svg.matches("display=\"none\"").count(), rules.rows() - 2);
        let still = board_svg(&rules, &seeds, "katro-6x6", false);
        assert_eq!(still.matches("class=\"capturing\"").count(), 2);
        assert!(svg.contains("South's capturing row"));
    }

    #[test]
    fn innermost_non_empty_marks_the_row_that_holds_seeds() {
        let rules = preset("katro-6x6").unwrap();
        let mut seeds = vec![0u16; rules.hole_count()];
        // South has seeds only in row 2, North only in row 6.
        seeds[rules.hole_at(1, 0)] = 3;
        seeds[rules.hole_at(5, 2)] = 4;
        assert_eq!(capturing_rows(&rules, &seeds), [Some(1), Some(5)]);
    }
}
