//! The strength curve's chart (docs/OUTPUTS.md, strength-curve.csv): the
//! first player's share of the decided games against the node budget on
//! a log axis, one line per variant with its 95% intervals, random play's
//! share (dashed) and the exact share under perfect play (dotted) where
//! known drawn in the line's colour. SVG text from the rows; no file is
//! read here.

use std::fmt::Write;

use crate::files::strength_curve::CurveRow;

/// Okabe and Ito's colour-blind-safe colours, then darker ones: a curve
/// has one line per variant (strength-curve.toml: eleven).
const COLOURS: [&str; 12] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#7550a0",
    "#8c564b", "#7f7f7f", "#bcbd22", "#17becf",
];

const W: f64 = 860.0;
const H: f64 = 520.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 250.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn num(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The chart's scales: a budget's x (log axis from `lo` to `hi`, powers
/// of ten) and a share's y.
struct Scales {
    lo: f64,
    hi: f64,
}

impl Scales {
    fn x(&self, n: f64) -> f64 {
        LEFT + (n.log10() - self.lo) / (self.hi - self.lo) * (W - LEFT - RIGHT)
    }

    fn y(&self, p: f64) -> f64 {
        TOP + (1.0 - p) * (H - TOP - BOTTOM)
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
    let hi = (*budgets.iter().max()? as f64).log10().ceil().max(lo + 1.0);
    let sc = Scales { lo, hi };
    let mut variants: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant) {
            variants.push(r.variant);
        }
    }
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" \
         viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{W}\" height=\"{H}\" fill=\"#FFFFFF\"/>\n\
         <text x=\"{LEFT}\" y=\"22\" font-size=\"15\">First player's share of decided games \
         against nodes a move (self-play)</text>\n"
    );
    axes(&mut s, &sc);
    for (i, v) in variants.iter().enumerate() {
        let mine: Vec<&CurvePoint> = rows.iter().filter(|r| r.variant == *v).collect();
        variant_line(&mut s, &sc, (i, v), &mine);
    }
    key_end(&mut s, variants.len());
    Some(s)
}

/// Axes, with a grid line every tenth of the share and every power of
/// ten of the budget.
fn axes(s: &mut String, sc: &Scales) {
    share_grid(s, sc);
    budget_grid(s, sc);
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">nodes a move (log scale)</text>\n\
         <text x=\"16\" y=\"{:.1}\" transform=\"rotate(-90 16 {:.1})\" \
         text-anchor=\"middle\">p1_win_rate</text>\n",
        (LEFT + W - RIGHT) / 2.0,
        H - 18.0,
        (TOP + H - BOTTOM) / 2.0,
        (TOP + H - BOTTOM) / 2.0
    );
}

/// A labelled grid line every tenth of the share.
fn share_grid(s: &mut String, sc: &Scales) {
    for k in 0..=10 {
        let p = k as f64 / 10.0;
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{p:.1}</text>",
            W - RIGHT,
            sc.y(p),
            sc.y(p),
            LEFT - 6.0,
            sc.y(p) + 4.0
        );
    }
}

/// A labelled grid line every power of ten of the budget.
fn budget_grid(s: &mut String, sc: &Scales) {
    let mut e = sc.lo;
    while e <= sc.hi {
        let n = 10f64.powf(e);
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{TOP}\" y2=\"{:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            sc.x(n),
            sc.x(n),
            H - BOTTOM,
            sc.x(n),
            H - BOTTOM + 18.0,
            n as u64
        );
        e += 1.0;
    }
}

/// A level of the curve: its budget, share and interval.
type Level = (f64, f64, Option<f64>, Option<f64>);

/// Variant `v` (the `i`th, which picks its colour), from its rows
/// `mine`: random play's share dashed, the perfect-play limit dotted, the
/// budgets' shares as a line with an interval and a dot at each, and its
/// entry in the key.
fn variant_line(s: &mut String, sc: &Scales, (i, v): (usize, &str), mine: &[&CurvePoint]) {
    let c = COLOURS[i % COLOURS.len()];
    let levels = levels(mine);
    references(s, sc, (c, v), mine);
    let points: Vec<String> = levels
        .iter()
        .map(|(n, p, _, _)| format!("{:.1},{:.1}", sc.x(*n), sc.y(*p)))
        .collect();
    let _ = writeln!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"/>",
        points.join(" ")
    );
    for level in &levels {
        level_mark(s, sc, c, v, level);
    }
    let ly = TOP + 10.0 + i as f64 * 18.0;
    let lx = W - RIGHT + 16.0;
    let _ = writeln!(
        s,
        "<line x1=\"{lx:.1}\" x2=\"{:.1}\" y1=\"{ly:.1}\" y2=\"{ly:.1}\" stroke=\"{c}\" \
         stroke-width=\"2\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
        lx + 22.0,
        lx + 28.0,
        ly + 4.0,
        escape(v)
    );
}

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

/// Variant `v`'s reference lines in colour `c`: random play's share
/// dashed, the perfect-play limit dotted.
fn references(s: &mut String, sc: &Scales, (c, v): (&str, &str), mine: &[&CurvePoint]) {
    for r in mine.iter().filter(|r| r.nodes.is_none()) {
        if let Some(p) = num(r.p1_win_rate) {
            reference(
                s,
                sc,
                c,
                (p, "6 4", 1),
                &format!("{}: random play {p:.3}", escape(v)),
            );
        }
    }
    if let Some(p) = mine
        .iter()
        .find(|r| r.nodes.is_some())
        .and_then(|r| r.limit)
    {
        reference(
            s,
            sc,
            c,
            (p, "1 3", 2),
            &format!("{}: perfect play {p:.6}", escape(v)),
        );
    }
}

/// A horizontal reference line across the plot at share `p`, in colour
/// `c` with a dash pattern and width, titled `title`.
fn reference(
    s: &mut String,
    sc: &Scales,
    c: &str,
    (p, dash, width): (f64, &str, u32),
    title: &str,
) {
    let _ = writeln!(
        s,
        "<line x1=\"{LEFT:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{c}\" \
         stroke-dasharray=\"{dash}\" stroke-width=\"{width}\"><title>{title}</title></line>",
        W - RIGHT,
        sc.y(p),
        sc.y(p),
    );
}

/// One budget's interval (when known) and dot.
fn level_mark(s: &mut String, sc: &Scales, c: &str, v: &str, (n, p, l, h): &Level) {
    if let (Some(l), Some(h)) = (l, h) {
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{c}\"/>",
            sc.x(*n),
            sc.x(*n),
            sc.y(*l),
            sc.y(*h)
        );
    }
    let _ = writeln!(
        s,
        "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{c}\"><title>{}, {} nodes: \
         {p:.3}</title></circle>",
        sc.x(*n),
        sc.y(*p),
        escape(v),
        *n as u64
    );
}

/// The key's last two entries, under the `variants` lines: what the
/// dashed and the dotted reference lines mean; then the SVG's end.
fn key_end(s: &mut String, variants: usize) {
    let ly = TOP + 10.0 + variants as f64 * 18.0 + 10.0;
    let lx = W - RIGHT + 16.0;
    let _ = write!(
        s,
        "<line x1=\"{lx:.1}\" x2=\"{:.1}\" y1=\"{ly:.1}\" y2=\"{ly:.1}\" stroke=\"#000\" \
         stroke-dasharray=\"6 4\"/><text x=\"{:.1}\" y=\"{:.1}\">random play</text>\n\
         <line x1=\"{lx:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\" \
         stroke-dasharray=\"1 3\" stroke-width=\"2\"/><text x=\"{:.1}\" y=\"{:.1}\">perfect \
         play (exact)</text>\n</svg>\n",
        lx + 22.0,
        lx + 28.0,
        ly + 4.0,
        lx + 22.0,
        ly + 18.0,
        ly + 18.0,
        lx + 28.0,
        ly + 22.0
    );
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
        ];
        let points: Vec<CurvePoint> = rows.iter().map(CurvePoint::from).collect();
        let svg = strength_curve_svg(&points).unwrap();
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("a&lt;b: random play 0.500"));
        assert!(svg.contains("a&lt;b: perfect play 0.700000"));
        assert!(!svg.contains("c: perfect play"));
        // 2,000 to 20,000 nodes: the axis spans 1,000 to 100,000.
        assert!(svg.contains(">1000</text>") && svg.contains(">100000</text>"));
        assert_eq!(strength_curve_svg(&points[..1]), None);
    }
}
