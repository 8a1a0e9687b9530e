//! The strength curve's chart (docs/OUTPUTS.md, strength-curve.csv): one
//! small panel per variant, each the first player's share of the decided
//! games against the node budget on a log axis shared by every panel and
//! ending at the data, with its 95% intervals, and the panel's own
//! references: random play's share (dashed), the exact share under
//! perfect play (dotted) where known, and 50% (grey). Each panel's share
//! axis spans its own marks and 50%, so a few points' difference is not
//! lost in a 0–100% axis shared with a variant far from it. SVG text from
//! the rows; no file is read here.

use std::fmt::Write;

use crate::files::strength_curve::CurveRow;

/// The line's colour (Okabe and Ito's blue): one variant a panel, so
/// colour need not tell variants apart.
const LINE: &str = "#0072b2";

const PANEL_W: f64 = 300.0;
const PANEL_H: f64 = 220.0;
const PER_ROW: usize = 3;
/// Inside a panel: room for the title above, the share labels left and
/// the budget labels below.
const P_LEFT: f64 = 52.0;
const P_RIGHT: f64 = 14.0;
const P_TOP: f64 = 26.0;
const P_BOTTOM: f64 = 40.0;
/// Above the panels (the title) and below them (the x axis's name and
/// the key).
const HEAD: f64 = 34.0;
const FOOT: f64 = 64.0;

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn num(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A panel's scales: the budget's x on the log axis from 10^`lo` to
/// 10^`hi` shared by every panel, the share's y from `y0` to `y1`, inside
/// the panel whose top left is (`ox`, `oy`).
struct Scales {
    lo: f64,
    hi: f64,
    y0: f64,
    y1: f64,
    ox: f64,
    oy: f64,
}

impl Scales {
    fn x(&self, n: f64) -> f64 {
        self.ox
            + P_LEFT
            + (n.log10() - self.lo) / (self.hi - self.lo) * (PANEL_W - P_LEFT - P_RIGHT)
    }

    fn y(&self, p: f64) -> f64 {
        self.oy + P_TOP + (self.y1 - p) / (self.y1 - self.y0) * (PANEL_H - P_TOP - P_BOTTOM)
    }
}

/// What the chart draws of one row of strength-curve.csv: `katro curve`
/// draws it from the rows it writes, the report from the file it reads.
pub struct CurvePoint<'a> {
    pub variant: &'a str,
    /// The level's budget; `None` for random play.
    pub nodes: Option<u64>,
    /// The share and its interval, as the file writes them.
    pub p1_win_rate: &'a str,
    pub p1_win_rate_low: &'a str,
    pub p1_win_rate_high: &'a str,
    /// The perfect-play share over the row's openings, where known.
    pub limit: Option<f64>,
}

impl<'a> From<&'a CurveRow> for CurvePoint<'a> {
    fn from(r: &'a CurveRow) -> CurvePoint<'a> {
        CurvePoint {
            variant: &r.variant,
            nodes: r.nodes,
            p1_win_rate: &r.p1_win_rate,
            p1_win_rate_low: &r.p1_win_rate_low,
            p1_win_rate_high: &r.p1_win_rate_high,
            limit: r.limit.as_ref().and_then(|l| l.share),
        }
    }
}

/// The chart's SVG; `None` when no row has a budget.
pub fn strength_curve_svg(rows: &[CurvePoint]) -> Option<String> {
    let budgets: Vec<u64> = rows.iter().filter_map(|r| r.nodes).collect();
    let lo = (*budgets.iter().min()? as f64).log10().floor();
    // The axis ends a sixth of a decade past the largest budget, not at
    // the next power of ten: no empty decade right of the data.
    let hi = ((*budgets.iter().max()? as f64).log10() + 1.0 / 6.0).max(lo + 1.0);
    let mut variants: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant) {
            variants.push(r.variant);
        }
    }
    let per_row = PER_ROW.min(variants.len());
    let panel_rows = variants.len().div_ceil(per_row);
    let w = PANEL_W * per_row as f64 + 20.0;
    let h = HEAD + PANEL_H * panel_rows as f64 + FOOT;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#FFFFFF\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"15\">First player's share of decided games \
         against nodes a move (self-play), one panel per variant</text>\n"
    );
    for (i, v) in variants.iter().enumerate() {
        let mine: Vec<&CurvePoint> = rows.iter().filter(|r| r.variant == *v).collect();
        let (y0, y1) = share_range(&mine);
        let sc = Scales {
            lo,
            hi,
            y0,
            y1,
            ox: 10.0 + PANEL_W * (i % per_row) as f64,
            oy: HEAD + PANEL_H * (i / per_row) as f64,
        };
        panel(&mut s, &sc, v, &mine);
    }
    key_end(&mut s, (w, h));
    Some(s)
}

/// A panel's share axis ([`crate::pictures::share_span`]): its levels'
/// intervals, its drawn references and 50%.
fn share_range(mine: &[&CurvePoint]) -> (f64, f64) {
    let mut lo: f64 = 0.5;
    let mut hi: f64 = 0.5;
    for r in mine {
        let vals = [r.p1_win_rate, r.p1_win_rate_low, r.p1_win_rate_high];
        // The limit drawn is a budget row's (references): random play's
        // row carries the start's own value, not drawn.
        let limit = r.nodes.and(r.limit);
        for v in vals.iter().filter_map(|t| num(t)).chain(limit) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    let span = crate::pictures::share_span(lo, hi);
    (span.start, span.end)
}

/// One variant's panel: its frame, grids and title, its references, and
/// the budgets' shares as a line with an interval and a dot at each.
fn panel(s: &mut String, sc: &Scales, v: &str, mine: &[&CurvePoint]) {
    let _ = writeln!(s, "<g class=\"panel\" data-variant=\"{}\">", escape(v));
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\">{}</text>",
        sc.ox + P_LEFT,
        sc.oy + P_TOP - 8.0,
        escape(v)
    );
    share_grid(s, sc);
    budget_grid(s, sc);
    let x0 = sc.ox + P_LEFT;
    let x1 = sc.ox + PANEL_W - P_RIGHT;
    let _ = writeln!(
        s,
        "<line x1=\"{x0:.1}\" x2=\"{x1:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#999\"/>",
        y = sc.y(0.5)
    );
    references(s, sc, v, mine);
    let levels = levels(mine);
    let points: Vec<String> = levels
        .iter()
        .map(|(n, p, _, _)| format!("{:.1},{:.1}", sc.x(*n), sc.y(*p)))
        .collect();
    let _ = writeln!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"2\"/>",
        points.join(" ")
    );
    for level in &levels {
        level_mark(s, sc, v, level);
    }
    s.push_str("</g>\n");
}

/// The share's grid lines and labels: every 5 points on a narrow axis,
/// every 10 or 20 on a wider one.
fn share_grid(s: &mut String, sc: &Scales) {
    let span = sc.y1 - sc.y0;
    let step = if span <= 0.2 {
        0.05
    } else if span <= 0.5 {
        0.1
    } else {
        0.2
    };
    let mut k = (sc.y0 / step - 1e-9).ceil() as i64;
    while k as f64 * step <= sc.y1 + 1e-9 {
        let p = k as f64 * step;
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#e4e4e4\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{:.0}%</text>",
            sc.ox + P_LEFT,
            sc.ox + PANEL_W - P_RIGHT,
            sc.ox + P_LEFT - 5.0,
            sc.y(p) + 4.0,
            p * 100.0,
            y = sc.y(p),
        );
        k += 1;
    }
}

/// A labelled grid line at every power of ten of the budget on the axis.
fn budget_grid(s: &mut String, sc: &Scales) {
    let mut e = sc.lo;
    while e <= sc.hi + 1e-9 {
        let n = 10f64.powf(e);
        let x = sc.x(n);
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#e4e4e4\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            sc.y(sc.y1),
            sc.y(sc.y0),
            // Low enough that the first budget's label clears the share
            // axis's bottom label beside it.
            sc.y(sc.y0) + 24.0,
            budget_label(n as u64)
        );
        e += 1.0;
    }
}

/// 1000 as 1k, 1000000 as 1M: labels that fit a small panel.
fn budget_label(n: u64) -> String {
    match n {
        n if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        n if n >= 1_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

/// A level of the curve: its budget, share and interval.
type Level = (f64, f64, Option<f64>, Option<f64>);

/// The budgets of `mine` with a share, by budget.
fn levels(mine: &[&CurvePoint]) -> Vec<Level> {
    let mut levels: Vec<Level> = mine
        .iter()
        .filter_map(|r| {
            let n = r.nodes? as f64;
            let p = num(r.p1_win_rate)?;
            Some((n, p, num(r.p1_win_rate_low), num(r.p1_win_rate_high)))
        })
        .collect();
    levels.sort_by(|a, b| a.0.total_cmp(&b.0));
    levels
}

/// Variant `v`'s reference lines across its panel: random play's share
/// dashed, the perfect-play limit dotted.
fn references(s: &mut String, sc: &Scales, v: &str, mine: &[&CurvePoint]) {
    for r in mine.iter().filter(|r| r.nodes.is_none()) {
        if let Some(p) = num(r.p1_win_rate) {
            let title = format!("{}: random play {p:.3}", escape(v));
            reference(s, sc, (p, "6 4", 1), &title);
        }
    }
    if let Some(p) = mine
        .iter()
        .find(|r| r.nodes.is_some())
        .and_then(|r| r.limit)
    {
        let title = format!("{}: perfect play {p:.6}", escape(v));
        reference(s, sc, (p, "1 3", 2), &title);
    }
}

/// A horizontal reference line across the panel at share `p`, black with
/// a dash pattern and width, titled `title`.
fn reference(s: &mut String, sc: &Scales, (p, dash, width): (f64, &str, u32), title: &str) {
    let _ = writeln!(
        s,
        "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#000\" \
         stroke-dasharray=\"{dash}\" stroke-width=\"{width}\"><title>{title}</title></line>",
        sc.ox + P_LEFT,
        sc.ox + PANEL_W - P_RIGHT,
        y = sc.y(p),
    );
}

/// One budget's interval (when known) and dot.
fn level_mark(s: &mut String, sc: &Scales, v: &str, (n, p, l, h): &Level) {
    if let (Some(l), Some(h)) = (l, h) {
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{LINE}\"/>",
            sc.y(*l),
            sc.y(*h),
            x = sc.x(*n),
        );
    }
    let _ = writeln!(
        s,
        "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{LINE}\"><title>{}, {} nodes: \
         {p:.3}</title></circle>",
        sc.x(*n),
        sc.y(*p),
        escape(v),
        *n as u64
    );
}

/// Under the panels: the x axis's name and the key (what the line, the
/// dashed, the dotted and the grey lines mean); then the SVG's end.
fn key_end(s: &mut String, (w, h): (f64, f64)) {
    let y = h - FOOT + 18.0;
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{y:.1}\" text-anchor=\"middle\">nodes a move (log scale, \
         the same in every panel)</text>",
        w / 2.0
    );
    let ky = y + 26.0;
    let items: [(&str, &str, &str, u32); 4] = [
        (LINE, "", "share at a budget, 95% interval", 2),
        ("#000", "6 4", "random play", 1),
        ("#000", "1 3", "perfect play (exact)", 2),
        ("#999", "", "50%", 1),
    ];
    let mut x = 20.0;
    for (c, dash, text, width) in items {
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" x2=\"{:.1}\" y1=\"{ky:.1}\" y2=\"{ky:.1}\" stroke=\"{c}\" \
             stroke-dasharray=\"{dash}\" stroke-width=\"{width}\"/><text x=\"{:.1}\" \
             y=\"{:.1}\">{text}</text>",
            x + 22.0,
            x + 28.0,
            ky + 4.0
        );
        x += 28.0 + 7.0 * text.len() as f64 + 24.0;
    }
    s.push_str("</svg>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::strength_curve::Limit;

    fn row(variant: &str, nodes: Option<u64>, p: &str, limit: Option<f64>) -> CurveRow {
        CurveRow {
            variant: variant.into(),
            rules: String::new(),
            agent: String::new(),
            nodes,
            opening_plies: 4,
            games: 10,
            decided: 10,
            p1_win_rate: p.into(),
            p1_win_rate_low: "0.4".into(),
            p1_win_rate_high: "0.6".into(),
            length_mean: "10".into(),
            distinct_games: "10".into(),
            rating: None,
            limit: limit.map(|share| Limit {
                share: Some(share),
                bounds: Some((share, share)),
                draws: 0.0,
                unknown: 0.0,
                openings: 3,
                exact: String::new(),
                source: crate::files::strength_curve::LimitSource::Solved,
            }),
            limit_gap: None,
            step: None,
            trend: None,
            verdict: None,
        }
    }

    #[test]
    fn each_variant_is_a_line_with_its_references() {
        let rows = [
            row("a<b", None, "0.5", None),
            row("a<b", Some(2000), "0.55", Some(0.7)),
            row("a<b", Some(20000), "0.65", Some(0.7)),
            row("c", Some(2000), "0.45", None),
            // Random play's row carries the start's value (1 here), which
            // is not drawn and so does not stretch the axis.
            row("c", None, "0.48", Some(1.0)),
        ];
        let points: Vec<CurvePoint> = rows.iter().map(CurvePoint::from).collect();
        let svg = strength_curve_svg(&points).unwrap();
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("a&lt;b: random play 0.500"));
        assert!(svg.contains("a&lt;b: perfect play 0.700000"));
        assert!(!svg.contains("c: perfect play"));
        // 2,000 to 20,000 nodes: the axis starts at 1,000 and ends at the
        // data, not at 100,000.
        assert!(svg.contains(">1k</text>") && svg.contains(">10k</text>"));
        assert!(!svg.contains(">100k</text>"));
        // One panel per variant, each on its own share axis around its
        // data and 50%: a's runs to 70% (its perfect play), c's stays
        // within 35–65%.
        assert_eq!(svg.matches("<g class=\"panel\"").count(), 2);
        let c = &svg[svg.find("data-variant=\"c\"").unwrap()..];
        assert!(
            c.contains(">60%</text>") && !c.contains(">70%</text>"),
            "{c}"
        );
        assert!(!c.contains(">0%</text>") && !c.contains(">100%</text>"));
        assert_eq!(strength_curve_svg(&points[..1]), None);
    }
}
