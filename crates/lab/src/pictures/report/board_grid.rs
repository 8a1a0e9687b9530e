//! A board sweep as the grid it asks for: holes across, seeds down, one
//! grid per row count and matchup, each cell coloured by the first
//! player's share and outlined where its interval excludes 50%
//! (docs/OUTPUTS.md, `plots/board-grid.svg`).

use std::fmt::Write;

use super::*;
use crate::experiment::verdict::best_start;
use crate::solve::prove::Outcome;

const CELL_W: f64 = 62.0;
const CELL_H: f64 = 34.0;
/// Left of a grid: the seeds' labels; above it: its title and the holes'.
const G_LEFT: f64 = 64.0;
const G_TOP: f64 = 52.0;
const GAP: f64 = 24.0;

/// One grid: its title and, by (holes, seeds), the row of summary.csv.
struct Grid {
    title: String,
    holes: Vec<u32>,
    seeds: Vec<u32>,
    cells: Vec<((u32, u32), usize)>,
}

/// A board setting of row `r`; none where it is no whole number, a row a
/// grid cannot place.
fn whole(s: &CsvTable, r: usize, col: &str) -> Option<u32> {
    s.whole(r, col).ok().and_then(|v| u32::try_from(v).ok())
}

/// The grids of a sweep over both `holes` and `seeds`, one per matchup
/// and row count in order of first appearance; none otherwise.
fn grids(s: &CsvTable) -> Vec<Grid> {
    let keys = swept_keys(s);
    if !(keys.iter().any(|k| k == "holes") && keys.iter().any(|k| k == "seeds")) {
        return Vec::new();
    }
    let mut grids: Vec<((String, String), Grid)> = Vec::new();
    for r in 0..s.len() {
        let (Some(h), Some(k)) = (whole(s, r, "holes"), whole(s, r, "seeds")) else {
            continue;
        };
        if !(names_key(s, r, "holes") || names_key(s, r, "seeds")) {
            continue;
        }
        let rows = s.text(r, "rows").to_string();
        let m = matchup_text(s, r);
        let id = (rows.clone(), m.clone());
        let i = match grids.iter().position(|(x, _)| *x == id) {
            Some(i) => i,
            None => {
                let title = if rows.is_empty() {
                    m
                } else {
                    format!("{rows} rows, {m}")
                };
                grids.push((
                    id,
                    Grid {
                        title,
                        holes: Vec::new(),
                        seeds: Vec::new(),
                        cells: Vec::new(),
                    },
                ));
                grids.len() - 1
            }
        };
        let g = &mut grids[i].1;
        if !g.holes.contains(&h) {
            g.holes.push(h);
        }
        if !g.seeds.contains(&k) {
            g.seeds.push(k);
        }
        // The first row of a (holes, seeds) pair: a sweep has one.
        if !g.cells.iter().any(|(at, _)| *at == (h, k)) {
            g.cells.push(((h, k), r));
        }
    }
    let mut out: Vec<Grid> = grids.into_iter().map(|(_, g)| g).collect();
    for g in &mut out {
        g.holes.sort_unstable();
        g.seeds.sort_unstable();
    }
    out
}

/// A share's colour: white at 50%, deepening to blue (the first player
/// ahead) or orange (the second) at `reach` from it and beyond.
fn share_colour(p: f64, reach: f64) -> (u8, u8, u8) {
    let t = ((p - 0.5) / reach).clamp(-1.0, 1.0);
    let (end, t) = if t >= 0.0 {
        ((5.0, 113.0, 176.0), t)
    } else {
        ((230.0, 97.0, 1.0), -t)
    };
    let mix = |e: f64| (255.0 + (e - 255.0) * t).round() as u8;
    (mix(end.0), mix(end.1), mix(end.2))
}

pub(super) const BOARD_GRID_CAPTION: &str = "A board sweep as a grid, one per row count and \
    matchup: holes across, seeds a hole down, each cell the first player's share of the decided \
    games (p1_win_rate, in %), blue where the first player is ahead and orange where the second \
    is, white at 50%, the colour full at the widest distance from 50% among the cells (written in \
    the key). A black outline marks a cell whose 95% Wilson interval excludes 50%; a cell without \
    it may still hold an edge too small for its games to show. An empty cell had no decided game.";

/// What the grid adds when the prover's values of the boards' starts are
/// given (`katro report --proved`).
pub(super) const BOARD_GRID_PROVED: &str = " Under the share, what proof search established of \
    the board's start (katro report --proved): W d, the first player forces a win in d decisions; \
    L d, the second player does (the first loses in d at the slowest); ?>d, neither side forces a \
    win within d decisions (a bound, not a proof); nothing where no search of that board was \
    given. The share is over the cell's random opening plies and agents; the letter is the start's \
    value under perfect play.";

/// The chart, or None when the sweep does not vary both holes and seeds.
/// `starts`, when given, put each board's proved value under its share.
pub(super) fn board_grid_chart(
    s: &CsvTable,
    starts: &[StartValue],
) -> Result<Option<Chart>, ReportError> {
    let grids = grids(s);
    if grids.is_empty() {
        return Ok(None);
    }
    let mut reach: f64 = 0.05;
    for g in &grids {
        for &(_, r) in &g.cells {
            if let Some(p) = s.num(r, "p1_win_rate")? {
                reach = reach.max((p - 0.5).abs());
            }
        }
    }
    let reach = (reach * 20.0).ceil() / 20.0;
    let gw = |g: &Grid| G_LEFT + CELL_W * g.holes.len() as f64;
    let gh = |g: &Grid| G_TOP + CELL_H * g.seeds.len() as f64;
    // Two grids side by side where they fit in 1,100 px.
    let per_row = if grids.iter().map(gw).fold(0.0, f64::max) * 2.0 + GAP <= 1080.0 {
        2
    } else {
        1
    };
    let col_w = grids.iter().map(gw).fold(0.0, f64::max) + GAP;
    let row_h = grids.iter().map(gh).fold(0.0, f64::max) + GAP;
    let w = 20.0 + col_w * per_row as f64;
    let h = row_h * grids.len().div_ceil(per_row) as f64 + 70.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#FFFFFF\"/>"
    );
    for (i, g) in grids.iter().enumerate() {
        let ox = 10.0 + col_w * (i % per_row) as f64;
        let oy = 10.0 + row_h * (i / per_row) as f64;
        draw_grid(&mut svg, s, g, (ox, oy), reach, starts)?;
    }
    key(&mut svg, h - 40.0, reach);
    svg.push_str("</svg>\n");
    let rows: Vec<usize> = grids
        .iter()
        .flat_map(|g| g.cells.iter().map(|c| c.1))
        .collect();
    let shown = s.select(|r| rows.contains(&r));
    Ok(Some(Chart {
        file: "board-grid.svg".into(),
        title: "The first player's share by board: holes × seeds".into(),
        svg,
        caption: format!(
            "{BOARD_GRID_CAPTION}{}{}",
            if starts.is_empty() {
                ""
            } else {
                BOARD_GRID_PROVED
            },
            estimand_sentence(&shown, "cell")
        ),
        table: numbers_table(&shown, "summary.csv", &BOARD_GRID_TABLE),
        notes: Vec::new(),
    }))
}

const BOARD_GRID_TABLE: [&str; 10] = [
    "variant",
    "p1",
    "p2",
    "opening_plies",
    "decided",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "p1_vs_half_p",
    "completion",
];

fn draw_grid(
    svg: &mut String,
    s: &CsvTable,
    g: &Grid,
    (ox, oy): (f64, f64),
    reach: f64,
    starts: &[StartValue],
) -> Result<(), ReportError> {
    let _ = writeln!(
        svg,
        "<g class=\"grid\"><text x=\"{ox:.1}\" y=\"{:.1}\" font-size=\"13\">{}</text>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">holes</text>\n\
         <text x=\"{ox:.1}\" y=\"{:.1}\">seeds</text>",
        oy + 14.0,
        escape(&g.title),
        ox + G_LEFT + CELL_W * g.holes.len() as f64 / 2.0,
        oy + 30.0,
        oy + G_TOP - 6.0,
    );
    for (c, h) in g.holes.iter().enumerate() {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{h}</text>",
            ox + G_LEFT + CELL_W * (c as f64 + 0.5),
            oy + G_TOP - 6.0
        );
    }
    for (k, seeds) in g.seeds.iter().enumerate() {
        let y = oy + G_TOP + CELL_H * k as f64;
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{seeds}</text>",
            ox + G_LEFT - 8.0,
            y + CELL_H / 2.0 + 4.0
        );
        for (c, holes) in g.holes.iter().enumerate() {
            let x = ox + G_LEFT + CELL_W * c as f64;
            let Some(&(_, r)) = g.cells.iter().find(|(at, _)| *at == (*holes, *seeds)) else {
                continue;
            };
            let proved = best_start(starts, s.text(r, "rules"));
            cell(svg, s, r, (x, y), reach, proved.is_some())?;
            if let Some(v) = proved {
                proved_mark(svg, v, (x, y));
            }
        }
    }
    svg.push_str("</g>\n");
    Ok(())
}

/// One cell: its colour, its share in %, and its outline when the
/// interval excludes 50%; `raised` lifts the share over a proved value.
fn cell(
    svg: &mut String,
    s: &CsvTable,
    r: usize,
    (x, y): (f64, f64),
    reach: f64,
    raised: bool,
) -> Result<(), ReportError> {
    let Some(v) = mark(
        s,
        r,
        &["p1_win_rate", "p1_win_rate_low", "p1_win_rate_high"],
    )?
    else {
        let _ = writeln!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{CELL_W}\" height=\"{CELL_H}\" \
             fill=\"#f3f3f3\" stroke=\"#ccc\"/>"
        );
        return Ok(());
    };
    let (cr, cg, cb) = share_colour(v[0], reach);
    let excludes = v[1] > 0.5 || v[2] < 0.5;
    let (stroke, width) = if excludes {
        ("#000", 2.5)
    } else {
        ("#ccc", 1.0)
    };
    let dark = (v[0] - 0.5).abs() / reach > 0.6;
    let ink = if dark { "#fff" } else { "#000" };
    let inset = width / 2.0;
    let _ = writeln!(
        svg,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"rgb({cr},{cg},{cb})\" \
         stroke=\"{stroke}\" stroke-width=\"{width}\" data-excludes-half=\"{excludes}\">\
         <title>{}: {} [{}, {}]</title></rect>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"{ink}\">{:.1}</text>",
        x + inset,
        y + inset,
        CELL_W - width,
        CELL_H - width,
        escape(s.text(r, "variant")),
        s.text(r, "p1_win_rate"),
        s.text(r, "p1_win_rate_low"),
        s.text(r, "p1_win_rate_high"),
        x + CELL_W / 2.0,
        // Up, to leave room for the proved value under it.
        y + CELL_H / 2.0 + if raised { -1.0 } else { 4.0 },
        v[0] * 100.0
    );
    Ok(())
}

/// The start's value under a cell's share: `W 17`, `L 22` or `?>24`
/// ([`BOARD_GRID_PROVED`]), on a white tab so that it reads on any colour.
fn proved_mark(svg: &mut String, v: &StartValue, (x, y): (f64, f64)) {
    let text = match v.value {
        Outcome::Win(d) => format!("W {d}"),
        Outcome::Loss(d) => format!("L {d}"),
        Outcome::Unknown(d) => format!("?&gt;{d}"),
        Outcome::Ended => return,
    };
    let _ = writeln!(
        svg,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"30\" height=\"12\" fill=\"#fff\" \
         opacity=\"0.85\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
         font-size=\"10\" class=\"proved\">{text}</text>",
        x + CELL_W / 2.0 - 15.0,
        y + CELL_H - 13.0,
        x + CELL_W / 2.0,
        y + CELL_H - 3.5
    );
}

/// The key under the grids: the colour scale's ends and the outline.
fn key(svg: &mut String, y: f64, reach: f64) {
    let stops = [
        0.5 - reach,
        0.5 - reach / 2.0,
        0.5,
        0.5 + reach / 2.0,
        0.5 + reach,
    ];
    for (i, p) in stops.iter().enumerate() {
        let (r, g, b) = share_colour(*p, reach);
        let x = 20.0 + 56.0 * i as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"56\" height=\"16\" fill=\"rgb({r},{g},{b})\" \
             stroke=\"#ccc\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{:.0}%</text>",
            x + 28.0,
            y + 30.0,
            p * 100.0
        );
    }
    let _ = writeln!(
        svg,
        "<rect x=\"330\" y=\"{y:.1}\" width=\"28\" height=\"16\" fill=\"#fff\" stroke=\"#000\" \
         stroke-width=\"2.5\"/><text x=\"366\" y=\"{:.1}\">95% interval excludes 50%</text>\n\
         <text x=\"20\" y=\"{:.1}\">orange: the second player ahead; blue: the first</text>",
        y + 12.0,
        y - 6.0
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_at_one_half_and_full_colour_at_the_reach() {
        assert_eq!(share_colour(0.5, 0.1), (255, 255, 255));
        assert_eq!(share_colour(0.6, 0.1), (5, 113, 176));
        assert_eq!(share_colour(0.9, 0.1), (5, 113, 176));
        assert_eq!(share_colour(0.4, 0.1), (230, 97, 1));
        let (r, _, b) = share_colour(0.55, 0.1);
        assert!(r < 255 && r > 5 && b > 176, "{r} {b}");
    }
}
