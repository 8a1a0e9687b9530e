//! The first player's share against the number of random opening plies:
//! how far an "edge" depends on the opening that precedes strong play
//! (issue 45, item 2; docs/OUTPUTS.md, "Share against the opening").

use plotters::coord::Shift;
use plotters::prelude::*;

use super::*;

/// One self-play agent's shares on one variant, by opening plies k.
pub(super) struct OpeningCurve {
    pub(super) variant: String,
    pub(super) agent: String,
    /// (k, share, low, high) of the sampled cells.
    pub(super) sampled: Vec<(u32, f64, f64, f64)>,
    /// (k, share) of the `openings = "exact"` cells.
    pub(super) exact: Vec<(u32, f64)>,
    /// (k, low, high) under perfect play, from the prover's openings.csv:
    /// low = high where every opening was valued.
    pub(super) perfect: Vec<(u32, f64, f64)>,
}

impl OpeningCurve {
    /// The opening plies measured, each once, in order.
    fn ks(&self) -> Vec<u32> {
        let s = self.sampled.iter().map(|m| m.0);
        let e = self.exact.iter().map(|m| m.0);
        let mut ks: Vec<u32> = s.chain(e).chain(self.perfect.iter().map(|m| m.0)).collect();
        ks.sort_unstable();
        ks.dedup();
        ks
    }
}

/// Row `r`'s opening plies, in the column `col` (summary.csv and
/// exact-openings.csv name it `opening_plies`, openings.csv `plies`).
fn plies(t: &CsvTable, r: usize, col: &str) -> Result<u32, ReportError> {
    let k = t.whole(r, col)?;
    u32::try_from(k).map_err(|_| ReportError::NotAWholeNumber {
        file: t.name.clone(),
        line: t.file_row(r) + 2,
        column: col.into(),
        text: k.to_string(),
    })
}

/// Every variant's non-random self-play agent measured at three or more
/// opening plies (sampled in `cells`, exact in `exact`), in order of
/// first appearance, with the perfect-play shares of `perfect` (the
/// prover's openings.csv) on the same variant. None when no agent is.
pub(super) fn opening_curves(
    cells: &CsvTable,
    exact: Option<&CsvTable>,
    perfect: Option<&CsvTable>,
) -> Result<Vec<OpeningCurve>, ReportError> {
    let mut curves: Vec<OpeningCurve> = Vec::new();
    // A summary.csv written before opening plies were a column has one
    // opening for every cell.
    if !cells.has("opening_plies") {
        return Ok(curves);
    }
    let find = |curves: &mut Vec<OpeningCurve>, v: &str, a: &str| -> usize {
        match curves.iter().position(|c| c.variant == v && c.agent == a) {
            Some(i) => i,
            None => {
                curves.push(OpeningCurve {
                    variant: v.into(),
                    agent: a.into(),
                    sampled: Vec::new(),
                    exact: Vec::new(),
                    perfect: Vec::new(),
                });
                curves.len() - 1
            }
        }
    };
    let self_play =
        |t: &CsvTable, r: usize| t.text(r, "p1") == t.text(r, "p2") && t.text(r, "p1") != "random";
    for r in (0..cells.len()).filter(|&r| self_play(cells, r)) {
        let cols = ["p1_win_rate", "p1_win_rate_low", "p1_win_rate_high"];
        if let Some(v) = mark(cells, r, &cols)? {
            let i = find(&mut curves, cells.text(r, "variant"), cells.text(r, "p1"));
            curves[i]
                .sampled
                .push((plies(cells, r, "opening_plies")?, v[0], v[1], v[2]));
        }
    }
    if let Some(e) = exact {
        for r in (0..e.len()).filter(|&r| self_play(e, r)) {
            if let Some(v) = mark(e, r, &["p1_win_rate"])? {
                let i = find(&mut curves, e.text(r, "variant"), e.text(r, "p1"));
                curves[i].exact.push((plies(e, r, "opening_plies")?, v[0]));
            }
        }
    }
    // Three opening plies at least: two make a step (the win-rate chart
    // shows it), a trend needs more.
    curves.retain(|c| c.ks().len() >= 3);
    if let Some(p) = perfect {
        for r in 0..p.len() {
            let Some(v) = mark(p, r, &["share_low", "share_high"])? else {
                continue;
            };
            let k = plies(p, r, "plies")?;
            for c in curves
                .iter_mut()
                .filter(|c| c.variant == p.text(r, "variant"))
            {
                c.perfect.push((k, v[0], v[1]));
            }
        }
    }
    Ok(curves)
}

/// The columns of openings.csv the chart reads.
pub(super) const PERFECT_OPENINGS_COLUMNS: [&str; 4] =
    ["variant", "plies", "share_low", "share_high"];

const PANEL_W: u32 = 270;
const PANEL_H: u32 = 240;
const PER_ROW: usize = 4;

pub(super) const OPENINGS_CAPTION: &str = "One panel per variant and self-play agent: the first \
    player's share of the decided games against k, the number of uniformly random plies that \
    open each game before the agents take over. A dot with its 95% Wilson interval is a sampled \
    cell (summary.csv); a ring is an exact share over every opening of k plies (exact-openings.csv, \
    openings = \"exact\"), no interval; at k = 0 the ring is the agent's own game from the start, \
    its share over tie-breaks alone. A black bar or cross is the share under perfect play over the \
    same openings (the prover's openings.csv, given to katro report --openings): a cross where \
    every opening was proved, a bar from share_low to share_high where some were not. The axis \
    spans every mark and 50% (grey).";

/// The chart, or None when no agent was measured at two opening plies.
pub(super) fn openings_chart(curves: &[OpeningCurve]) -> Result<Option<Chart>, ReportError> {
    if curves.is_empty() {
        return Ok(None);
    }
    let mut marks: Vec<(usize, f64, f64, f64)> = Vec::new();
    for c in curves {
        marks.extend(c.sampled.iter().map(|m| (0, m.1, m.2, m.3)));
        marks.extend(c.exact.iter().map(|m| (0, m.1, m.1, m.1)));
        marks.extend(c.perfect.iter().map(|m| (0, m.1, m.1, m.2)));
    }
    // Headroom above the axis's end, so its top label keeps clear of the
    // panels' titles.
    let y = share_axis(&marks);
    let y = y.start..y.end + 0.08 * (y.end - y.start);
    let kmax = curves.iter().flat_map(|c| c.ks()).max().unwrap_or(0);
    let rows = curves.len().div_ceil(PER_ROW);
    let key = [
        (Swatch::Grey, "50%".to_string()),
        (
            Swatch::Dot(colour(0)),
            "agent, sampled, 95% interval".into(),
        ),
        (
            Swatch::Ring(colour(0)),
            "agent, exact over every opening".into(),
        ),
        (Swatch::Cross, "perfect play, exact (bar: bounds)".into()),
    ];
    let width = PANEL_W * PER_ROW as u32 + 20;
    let k = layout_key(&key, width - 40);
    let height = PANEL_H * rows as u32 + k.height + 20;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (plots, bottom) = root.split_vertically(PANEL_H * rows as u32);
        let panels = plots.margin(0, 0, 10, 10).split_evenly((rows, PER_ROW));
        for (panel, c) in panels.iter().zip(curves) {
            draw_opening_panel(panel, c, y.clone(), kmax)?;
        }
        draw_key(&bottom, &k, (20, 5))?;
        root.present().map_err(drawing)?;
    }
    Ok(Some(Chart {
        file: "openings.svg".into(),
        title: "First-player share against the random opening".into(),
        svg,
        caption: OPENINGS_CAPTION.into(),
        table: openings_table(curves),
        notes: Vec::new(),
    }))
}

fn draw_opening_panel(
    panel: &DrawingArea<SVGBackend, Shift>,
    c: &OpeningCurve,
    y: std::ops::Range<f64>,
    kmax: u32,
) -> Result<(), ReportError> {
    let x = -0.5..kmax as f64 + 0.5;
    let ticks = Ticks::new(y.clone(), 5, true);
    let title = fit(
        &format!("{}, {}", c.variant, short_agent(&c.agent)),
        PANEL_W - 48,
    );
    let mut chart = ChartBuilder::on(panel)
        .caption(title, (FONT, TEXT_SIZE))
        .margin(6)
        .margin_right(14)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x.clone(), y)
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.15))
        .x_labels(kmax as usize + 1)
        .y_labels(5)
        .x_label_formatter(&|v: &f64| {
            if (v - v.round()).abs() < 1e-9 && *v >= 0.0 {
                format!("{}", v.round() as i64)
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v: &f64| ticks.label(*v))
        .label_style(style(TEXT_SIZE))
        .axis_desc_style(style(TEXT_SIZE))
        .x_desc("random opening plies k")
        .draw()
        .map_err(drawing)?;
    chart
        .draw_series(LineSeries::new(
            [(x.start, 0.5), (x.end, 0.5)],
            ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1),
        ))
        .map_err(drawing)?;
    // Perfect play a hair left of k and the agent a hair right, so that
    // neither hides the other where they agree.
    let c0 = colour(0);
    chart
        .draw_series(c.perfect.iter().map(|&(k, lo, hi)| {
            let x = k as f64 - 0.12;
            PathElement::new([(x, lo), (x, hi)], BLACK.stroke_width(2))
        }))
        .map_err(drawing)?;
    chart
        .draw_series(
            c.perfect
                .iter()
                .filter(|m| m.1 == m.2)
                .map(|&(k, v, _)| Cross::new((k as f64 - 0.12, v), 6, BLACK.stroke_width(2))),
        )
        .map_err(drawing)?;
    chart
        .draw_series(c.sampled.iter().map(|&(k, v, lo, hi)| {
            let x = k as f64 + 0.12;
            ErrorBar::new_vertical(x, lo, v, hi, c0.stroke_width(2), 8)
        }))
        .map_err(drawing)?;
    chart
        .draw_series(
            c.sampled
                .iter()
                .map(|&(k, v, _, _)| Circle::new((k as f64 + 0.12, v), 4, c0.filled())),
        )
        .map_err(drawing)?;
    chart
        .draw_series(
            c.exact
                .iter()
                .map(|&(k, v)| Circle::new((k as f64 + 0.12, v), 6, c0.stroke_width(2))),
        )
        .map_err(drawing)?;
    Ok(())
}

/// `text` cut to `width` pixels with an ellipsis where it is wider (the
/// table under the chart gives it whole).
fn fit(text: &str, width: u32) -> String {
    if text_width(text, TEXT_SIZE) <= width {
        return text.to_string();
    }
    let mut cut: String = text.to_string();
    while !cut.is_empty() && text_width(&format!("{cut}…"), TEXT_SIZE) > width {
        cut.pop();
    }
    format!("{cut}…")
}

/// `alphabeta:depth=12,nodes=20000,eval=fitted` fits a panel's title as
/// `alphabeta d12 n20000 fitted`.
fn short_agent(agent: &str) -> String {
    agent
        .replace("alphabeta:", "alphabeta ")
        .replace("depth=", "d")
        .replace("nodes=", "n")
        .replace("eval=", "")
        .replace("iterations=", "i")
        .replace(',', " ")
}

/// The chart's numbers, one row per (variant, agent, k): the sampled
/// share with its interval, the exact one, and perfect play's bounds, each
/// as its CSV text would round (to a millionth).
fn openings_table(curves: &[OpeningCurve]) -> String {
    let mut s = String::from(
        "<table>\n<tr><th>variant</th><th>agent</th><th>k</th><th>sampled share</th>\
         <th>low</th><th>high</th><th>exact share (agent)</th><th>perfect play low</th>\
         <th>perfect play high</th></tr>\n",
    );
    let f = |v: Option<f64>| v.map(|v| format!("{v:.6}")).unwrap_or_default();
    for c in curves {
        for k in c.ks() {
            let sm = c.sampled.iter().find(|m| m.0 == k);
            let ex = c.exact.iter().find(|m| m.0 == k);
            let pp = c.perfect.iter().find(|m| m.0 == k);
            s.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{k}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td><td>{}</td></tr>\n",
                escape(&c.variant),
                escape(&c.agent),
                f(sm.map(|m| m.1)),
                f(sm.map(|m| m.2)),
                f(sm.map(|m| m.3)),
                f(ex.map(|m| m.1)),
                f(pp.map(|m| m.1)),
                f(pp.map(|m| m.2)),
            ));
        }
    }
    s.push_str("</table>\n");
    s
}
