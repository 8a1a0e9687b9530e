//! A tournament's ratings, skill trace and pairwise win rates.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::*;

// ---------------------------------------------------------------------------
// Tournaments

pub(super) const RATINGS_COLUMNS: [&str; 11] = [
    "variant",
    "opening_plies",
    "level",
    "agent",
    "rating",
    "rating_low",
    "rating_high",
    "games",
    "first_move_advantage",
    "first_move_advantage_low",
    "first_move_advantage_high",
];

pub(super) const SKILL_TRACE_COLUMNS: [&str; 9] = [
    "variant",
    "opening_plies",
    "level",
    "agent",
    "opponent",
    "games",
    "win_rate",
    "win_rate_low",
    "win_rate_high",
];

/// A one-panel dot-and-whisker chart: one row per row of `t`, labelled
/// `labels`, the estimate `col` with its `col_low`..`col_high` interval
/// and a grey line at `at`. Rows without a number are labelled and left
/// empty.
pub(super) struct RowChart<'a> {
    pub(super) labels: Vec<String>,
    pub(super) col: &'a str,
    pub(super) x_desc: &'a str,
    pub(super) title: &'a str,
    pub(super) at: f64,
    pub(super) x_percent: bool,
    /// Force the axis to take in this range (0–1 for shares).
    pub(super) x_min: Option<std::ops::Range<f64>>,
    pub(super) key: [&'a str; 3],
}

/// A row chart's marks: (row, estimate, low, high) for each row with an
/// estimate, and (row, bound, open side above) for each value the games
/// bound on one side only (ratings.csv's open-ended ratings).
struct RowMarks {
    marks: Vec<(usize, f64, f64, f64)>,
    open: Vec<(usize, f64, bool)>,
}

impl RowMarks {
    fn read(t: &CsvTable, c: &RowChart) -> Result<RowMarks, ReportError> {
        let (low, high) = (format!("{}_low", c.col), format!("{}_high", c.col));
        let (mut marks, mut open) = (Vec::new(), Vec::new());
        for r in 0..t.len() {
            if let Some(v) = mark(t, r, &[c.col, &low, &high])? {
                marks.push((r, v[0], v[1], v[2]));
            } else if let Some((b, above)) = open_bound(t, r, c.col)? {
                open.push((r, b, above));
            }
        }
        Ok(RowMarks { marks, open })
    }

    /// The x axis: every interval, bound and the line at `c.at`, padded,
    /// or at least `c.x_min`.
    fn x_range(&self, c: &RowChart) -> std::ops::Range<f64> {
        let (mut lo_all, mut hi_all) = (c.at, c.at);
        for &(_, _, lo, hi) in &self.marks {
            lo_all = lo_all.min(lo);
            hi_all = hi_all.max(hi);
        }
        for &(_, b, _) in &self.open {
            lo_all = lo_all.min(b);
            hi_all = hi_all.max(b);
        }
        match &c.x_min {
            Some(x) => x.start.min(lo_all)..x.end.max(hi_all),
            None => {
                let pad = ((hi_all - lo_all) * 0.08).max(1.0);
                lo_all - pad..hi_all + pad
            }
        }
    }
}

pub(super) fn row_chart_svg(t: &CsvTable, c: &RowChart) -> Result<String, ReportError> {
    let n = t.len();
    let rs = rows(&c.labels, 640);
    let width = rs.label_w + 30 + 560;
    let m = RowMarks::read(t, c)?;
    let x = m.x_range(c);
    let items = [
        (Swatch::Grey, c.key[0].to_string()),
        (Swatch::Line(colour(0), 2), c.key[1].to_string()),
        (Swatch::Dot(colour(0)), c.key[2].to_string()),
    ];
    let k = layout_key(&items, width - 40);
    let plots_h = ROW_CHART_FRAME + n as u32 * rs.row_h;
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (width, plots_h + k.height + 20)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (top, bottom) = root.split_vertically(plots_h);
        let mut chart = row_panel(
            &top,
            c.title,
            n,
            rs.label_w + 20,
            x.clone(),
            c.x_desc,
            c.x_percent,
        )?;
        draw_intervals(&mut chart, n, c.at, &m.marks, colour(0))?;
        draw_open_bounds(&root, &chart, n, &m.open, x.clone(), colour(0))?;
        draw_row_labels(&root, &chart, &rs, x.start)?;
        draw_key(&bottom, &k, (20, 5))?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// Row `r`'s one bound when `col` has no estimate and the games bound it
/// on one side only (ratings.csv's open-ended ratings), and whether the
/// open side is above.
fn open_bound(t: &CsvTable, r: usize, col: &str) -> Result<Option<(f64, bool)>, ReportError> {
    if t.num(r, col)?.is_some() {
        return Ok(None);
    }
    Ok(
        match (
            t.num(r, &format!("{col}_low"))?,
            t.num(r, &format!("{col}_high"))?,
        ) {
            (Some(b), None) => Some((b, true)),
            (None, Some(b)) => Some((b, false)),
            _ => None,
        },
    )
}

/// A one-sided interval: a bar at its bound and a thin line with an arrow
/// to the open edge of the axis, no dot (there is no estimate).
fn draw_open_bounds(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &ChartContext<SVGBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    n: usize,
    open: &[(usize, f64, bool)],
    x: std::ops::Range<f64>,
    c: RGBColor,
) -> Result<(), ReportError> {
    for &(r, b, above) in open {
        let y = row_y(n, r);
        let end = if above { x.end } else { x.start };
        let (bx, _) = chart.backend_coord(&(b, y));
        let (ex, ey) = chart.backend_coord(&(end, y));
        let tip = if above { -9 } else { 9 };
        draw_open_bound(root, (bx, ex, ey), tip, c)?;
    }
    Ok(())
}

/// A bar at `bx` and an arrow from it to `ex`, at height `ey`; `tip` the
/// arrowhead's length back from its point (negative when it points right).
fn draw_open_bound(
    root: &DrawingArea<SVGBackend, Shift>,
    (bx, ex, ey): (i32, i32, i32),
    tip: i32,
    c: RGBColor,
) -> Result<(), ReportError> {
    root.draw(&PathElement::new(
        [(bx, ey - 5), (bx, ey + 5)],
        c.stroke_width(2),
    ))
    .and_then(|_| {
        root.draw(&PathElement::new(
            [(bx, ey), (ex + tip / 3, ey)],
            c.stroke_width(1),
        ))
    })
    .and_then(|_| {
        root.draw(&Polygon::new(
            vec![(ex, ey), (ex + tip, ey - 4), (ex + tip, ey + 4)],
            c.filled(),
        ))
    })
    .map_err(drawing)
}

/// Row `r`'s variant and two spaces, to begin its label, when `t` holds
/// more than one variant (with one, the title and the rules table name it).
fn variant_prefix(t: &CsvTable, r: usize) -> String {
    let v = t.text(r, "variant");
    if (0..t.len()).all(|q| t.text(q, "variant") == v) {
        String::new()
    } else {
        format!("{v}  ")
    }
}

/// The tournament's ratings, variant by variant, each agent with its 95%
/// interval.
pub(super) fn ratings_chart(t: &CsvTable) -> Result<Chart, ReportError> {
    let labels = (0..t.len())
        .map(|r| rating_label(t, r))
        .collect::<Result<Vec<String>, ReportError>>()?;
    let svg = row_chart_svg(
        t,
        &RowChart {
            labels,
            col: "rating",
            x_desc: "rating (Elo; the anchor, usually random, at 0)",
            title: "Ratings from the tournament",
            at: 0.0,
            x_percent: false,
            x_min: None,
            key: ["0: the anchor", "95% interval", "rating"],
        },
    )?;
    let mut columns = without_opening(&RATINGS_COLUMNS);
    columns.extend(FIT_COLUMNS.iter().filter(|c| t.has(c)));
    Ok(Chart {
        file: "ratings.svg".into(),
        title: "Ratings".into(),
        svg,
        caption: RATINGS_CAPTION.into(),
        table: numbers_table(t, "ratings.csv", &columns),
        notes: fit_notes(t)?,
    })
}

/// ratings.csv's columns on the model's fit and the self-play beside it,
/// which files written before them lack: shown when there.
const FIT_COLUMNS: [&str; 10] = [
    "fit_deviance",
    "fit_df",
    "fit_p_value",
    "anchor_decisive",
    "self_play_p1_win_rate",
    "self_play_p1_win_rate_low",
    "self_play_p1_win_rate_high",
    "self_play_advantage",
    "self_play_advantage_low",
    "self_play_advantage_high",
];

/// What the page says of each variant under its ratings: whether the
/// model fits, which figure to read for the first player's edge under
/// strong play, and whether the ratings rest on a handful of the
/// anchor's games (docs/OUTPUTS.md, ratings.csv). None for a file
/// without the columns.
fn fit_notes(t: &CsvTable) -> Result<Vec<(String, String)>, ReportError> {
    let mut notes = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for r in 0..t.len() {
        let v = t.text(r, "variant");
        if seen.contains(&v) {
            continue;
        }
        seen.push(v);
        let rows: Vec<usize> = (r..t.len())
            .filter(|&q| t.text(q, "variant") == v)
            .collect();
        let mut text = String::new();
        let rejected = fit_verdict(t, r, &mut text)?;
        strong_play_sentence(t, &rows, rejected, &mut text)?;
        anchor_sentence(t, &rows, &mut text)?;
        if !text.is_empty() {
            let name = if v.is_empty() { "The results" } else { v };
            notes.push((name.to_string(), text.trim_start().to_string()));
        }
    }
    Ok(notes)
}

/// The fit test of row `r`'s variant said in words; whether it rejects
/// the model.
fn fit_verdict(t: &CsvTable, r: usize, out: &mut String) -> Result<bool, ReportError> {
    let (Some(dev), Some(p)) = (t.num(r, "fit_deviance")?, t.num(r, "fit_p_value")?) else {
        return Ok(false);
    };
    let test = format!(
        "deviance {dev:.1} on {} df against every seat order with its own win rate, p = {}",
        t.text(r, "fit_df"),
        t.text(r, "fit_p_value")
    );
    let rejected = p < crate::files::ratings::FIT_LEVEL;
    if rejected {
        let a = interval_text(t, r, "first_move_advantage", false)?;
        out.push_str(&format!(
            " The model does not fit ({test}): one rating per agent and one \
             first-move term do not explain every pairing in both seats. Read these \
             ratings as a summary of the tournament, and the first-move term ({a} Elo) \
             as the first move's worth averaged over pairings of every strength, not \
             its worth under strong play."
        ));
    } else {
        out.push_str(&format!(" The model is not rejected ({test})."));
    }
    Ok(rejected)
}

/// Which figure gives the first player's edge under strong play on a
/// variant (its `rows`): the self-play share of the highest-rated agent
/// that played itself, beside the fitted term.
fn strong_play_sentence(
    t: &CsvTable,
    rows: &[usize],
    rejected: bool,
    out: &mut String,
) -> Result<(), ReportError> {
    let mut best: Option<(usize, f64)> = None;
    for &q in rows {
        if t.num(q, "self_play_p1_win_rate")?.is_none() {
            continue;
        }
        // An agent the games leave open above is rated by its lower bound.
        let rating = match t.num(q, "rating")? {
            Some(x) => x,
            None => t.num(q, "rating_low")?.unwrap_or(f64::NEG_INFINITY),
        };
        if best.is_none_or(|(_, b)| rating > b) {
            best = Some((q, rating));
        }
    }
    let Some((q, _)) = best else {
        if rejected {
            out.push_str(
                " No agent of the list played itself in the tournament's opening, so \
                 these results give no figure for the edge under strong play.",
            );
        }
        return Ok(());
    };
    let share = interval_text(t, q, "self_play_p1_win_rate", true)?;
    let elo = interval_text(t, q, "self_play_advantage", false)?;
    let apart = match (
        t.num(q, "self_play_advantage_low")?,
        t.num(q, "self_play_advantage_high")?,
        t.num(q, "first_move_advantage_low")?,
        t.num(q, "first_move_advantage_high")?,
    ) {
        (Some(sl), Some(sh), Some(al), Some(ah)) => sh < al || ah < sl,
        _ => false,
    };
    out.push_str(&format!(
        " For the first player's edge under strong play read the self-play of {}, \
         the highest-rated agent that played itself: player 1 won {share} of its \
         decided games, each opened with {} random plies, {elo} Elo as a first-move \
         term{}.",
        crate::agents::label(t.text(q, "agent")),
        t.text(q, "opening_plies"),
        if apart {
            ", whose interval and the fitted term's do not overlap: they disagree"
        } else {
            ""
        }
    ));
    Ok(())
}

/// Says so when a variant's ratings (its `rows`) rest on a handful of the
/// anchor's games: fewer than [`crate::files::ratings::FEW_DECISIVE`].
fn anchor_sentence(t: &CsvTable, rows: &[usize], out: &mut String) -> Result<(), ReportError> {
    let Some(k) = rows
        .first()
        .map(|&q| t.num(q, "anchor_decisive"))
        .transpose()?
    else {
        return Ok(());
    };
    let Some(k) = k.filter(|&k| k < crate::files::ratings::FEW_DECISIVE as f64) else {
        return Ok(());
    };
    let mut anchor = None;
    for &q in rows {
        let zero = |c: &str| t.num(q, c).map(|x| x == Some(0.0));
        if zero("rating")? && zero("rating_low")? && zero("rating_high")? {
            anchor = Some(q);
        }
    }
    let Some(a) = anchor else {
        return Ok(());
    };
    let (anchor, games) = (crate::agents::label(t.text(a, "agent")), t.text(a, "games"));
    out.push_str(&if k == 0.0 {
        let (none, side) = if t.num(a, "wins")? == Some(0.0) {
            ("won", "above")
        } else {
            ("lost", "below")
        };
        format!(
            " Every rating here is measured from {anchor}, which {none} none of its \
             {games} games and left none undecided, so no rating has a bound {side}."
        )
    } else {
        format!(
            " Every rating here is measured from {anchor}, and its place rests on {k:.0} \
             of its {games} games (the rarer of its wins and losses, and its undecided \
             games): a handful (fewer than 10), too few for the large-sample \
             approximation the intervals rest on, and one game more or less would \
             shift every rating."
        )
    });
    Ok(())
}

/// Row `r`'s `col` and its interval as the caption says them: a share
/// in percent, "56.4% [54.3, 58.4]", or Elo with its sign, "+42 [+23,
/// +62]"; an open end is `…`.
fn interval_text(t: &CsvTable, r: usize, col: &str, share: bool) -> Result<String, ReportError> {
    let f = |v: Option<f64>, open: &str| {
        v.map_or(open.to_string(), |v| {
            if share {
                format!("{:.1}", 100.0 * v)
            } else {
                format!("{v:+.0}")
            }
        })
    };
    let unit = if share { "%" } else { "" };
    let (v, lo, hi) = (
        t.num(r, col)?,
        t.num(r, &format!("{col}_low"))?,
        t.num(r, &format!("{col}_high"))?,
    );
    Ok(format!(
        "{}{unit} [{}, {}]",
        f(v, "-"),
        f(lo, "…"),
        f(hi, "…")
    ))
}

/// Row `r`'s label on the ratings chart, saying so when the games leave
/// its rating open on one side.
fn rating_label(t: &CsvTable, r: usize) -> Result<String, ReportError> {
    let open = match open_bound(t, r, "rating")? {
        Some((b, true)) => format!(" (no upper bound; at least {b:.0})"),
        Some((b, false)) => format!(" (no lower bound; at most {b:.0})"),
        None => String::new(),
    };
    Ok(format!("{}{open}", level_label(t, r)))
}

/// Row `r`'s level and agent, after its variant when the chart has more
/// than one.
fn level_label(t: &CsvTable, r: usize) -> String {
    format!(
        "{}{}. {}",
        variant_prefix(t, r),
        t.text(r, "level"),
        crate::agents::label(t.text(r, "agent"))
    )
}

/// `cols` without `opening_plies`: what the ratings and skill-trace
/// tables show of their files.
fn without_opening(cols: &[&'static str]) -> Vec<&'static str> {
    cols.iter()
        .copied()
        .filter(|c| *c != "opening_plies")
        .collect()
}

const RATINGS_CAPTION: &str = "Each agent's Elo rating on each variant, fitted to every game of the \
                  tournament (every pair of agents, both seats, each game opened with random \
                  plies) by a BayesElo model with a first-move advantage and a draw term for \
                  undecided games, by maximum likelihood with no prior; 95% profile-likelihood \
                  intervals (docs/OUTPUTS.md, ratings.csv). A rating the games do not bound \
                  on a side (an agent that never lost, or never won, against the agents \
                  linking it to the anchor) has that end open and no estimate: the chart \
                  draws its one bound as a bar with an arrow to the open side and no dot, \
                  its label says so, and the table leaves the estimate and the open end \
                  empty. The anchor is rated 0 exactly, so its \
                  interval is a point and the others' are relative to it. The first-move \
                  advantage, in Elo, is in the table.";

/// Each agent's win rate against the agent listed before it.
pub(super) fn skill_trace_chart(t: &CsvTable) -> Result<Chart, ReportError> {
    let labels: Vec<String> = (0..t.len()).map(|r| skill_label(t, r)).collect();
    let svg = row_chart_svg(
        t,
        &RowChart {
            labels,
            col: "win_rate",
            x_desc: "win rate against the level below (both seats)",
            title: "Skill trace",
            at: 0.5,
            x_percent: true,
            x_min: Some(0.0..1.0),
            key: ["50%", "95% interval", "win rate"],
        },
    )?;
    Ok(Chart {
        file: "skill-trace.svg".into(),
        title: "Skill trace".into(),
        svg,
        caption: "Each level of the tournament's list against the level just below it: the \
                  share of their games (half in each seat, every game opened with random \
                  plies) the higher level won, with its 95% Wilson interval; undecided games \
                  count as not won (docs/OUTPUTS.md, skill-trace.csv). Ludii's SkillTrace \
                  asks the same question of UCT at doubling budgets."
            .into(),
        table: numbers_table(t, "skill-trace.csv", &without_opening(&SKILL_TRACE_COLUMNS)),
        notes: Vec::new(),
    })
}

/// Row `r`'s label on the skill trace: the level and its two agents.
fn skill_label(t: &CsvTable, r: usize) -> String {
    format!(
        "{} vs {}",
        level_label(t, r),
        crate::agents::label(t.text(r, "opponent"))
    )
}

/// The columns of pairwise.csv a report reads.
pub(super) const PAIRWISE_COLUMNS: [&str; 7] = [
    "variant",
    "opening_plies",
    "agent",
    "opponent",
    "games",
    "wins",
    "losses",
];

/// A tournament's agents on each variant, in the order of its list (the
/// `level` of ratings.csv), and its random opening: what tells its
/// pairings from the experiment's own matchups in summary.csv.
pub(super) struct Tournament {
    /// (variant, opening plies, agents), variants in ratings.csv's order.
    variants: Vec<(String, String, Vec<String>)>,
}

impl Tournament {
    pub(super) fn from_ratings(t: &CsvTable) -> Tournament {
        let mut variants: Vec<(String, String, Vec<String>)> = Vec::new();
        for r in 0..t.len() {
            let v = t.text(r, "variant");
            let agent = t.text(r, "agent").to_string();
            match variants.iter_mut().find(|(x, _, _)| x == v) {
                Some((_, _, agents)) => agents.push(agent),
                None => variants.push((
                    v.to_string(),
                    t.text(r, "opening_plies").to_string(),
                    vec![agent],
                )),
            }
        }
        Tournament { variants }
    }

    /// The agents on `variant`, if the tournament played it.
    pub(super) fn agents(&self, variant: &str) -> Option<&[String]> {
        self.variants
            .iter()
            .find(|(v, _, _)| v == variant)
            .map(|(_, _, a)| a.as_slice())
    }

    /// Row `r` of `t`'s variant, its number of agents and the places in
    /// its list of the agents in columns `cols`, when the tournament
    /// played that variant with both.
    fn seats<'t>(
        &self,
        t: &'t CsvTable,
        r: usize,
        (x, y): (&str, &str),
    ) -> Option<(&'t str, usize, usize, usize)> {
        let v = t.text(r, "variant");
        let agents = self.agents(v)?;
        let place = |col: &str| agents.iter().position(|a| a == t.text(r, col));
        Some((v, agents.len(), place(x)?, place(y)?))
    }

    /// The agents of the first variant: the list as written (every
    /// variant plays the same list, docs/EXPERIMENTS.md).
    pub(super) fn list(&self) -> &[String] {
        self.variants.first().map_or(&[], |(_, _, a)| a.as_slice())
    }

    pub(super) fn opening(&self) -> &str {
        self.variants.first().map_or("", |(_, o, _)| o.as_str())
    }

    /// Whether row `r` of `t` (keyed like summary.csv) is one of the
    /// tournament's pairings: two different agents of its list, in its
    /// opening. A `[[matchups]]` entry equal to a pairing is refused
    /// (docs/EXPERIMENTS.md), so no matchup of the file's own is taken
    /// for one.
    pub(super) fn is_pairing(&self, t: &CsvTable, r: usize) -> bool {
        let k = cell_key(t, r);
        self.variants.iter().any(|(v, open, agents)| {
            *v == k.variant
                && *open == k.opening_plies
                && k.p1 != k.p2
                && agents.contains(&k.p1)
                && agents.contains(&k.p2)
        })
    }
}

/// One variant's matrix: agent (row) against agent (column), each cell
/// its place on the colour scale (0 to 1) and the number written in it.
pub(super) struct Matrix {
    title: String,
    n: usize,
    cells: Vec<(usize, usize, f64, String)>,
}

/// Each agent's share of the games it won against each other agent,
/// both seats pooled, from pairwise.csv: one matrix per variant.
pub(super) fn pairwise_chart(p: &CsvTable, tour: &Tournament) -> Result<Chart, ReportError> {
    let svg = matrix_svg(
        &pairwise_panels(p, tour)?,
        tour.list(),
        win_share_colour,
        &[
            (0.0, "0%"),
            (0.25, "25%"),
            (0.5, "50%"),
            (0.75, "75%"),
            (1.0, "100%"),
        ],
        "games won by the row's agent",
    )?;
    Ok(Chart {
        file: "pairwise.svg".into(),
        title: "Pairwise win rates of the tournament".into(),
        svg,
        caption: "One matrix per variant: the number in row i, column j is the percentage \
                  of their games (both seats, every game opened with random plies) the agent \
                  listed i-th won against the agent listed j-th; undecided games count as \
                  won by neither, so a cell and its mirror can sum to less than 100. Blue: \
                  the row's agent won most; orange: it lost most. From pairwise.csv's wins \
                  and losses (its win_rate is the later-listed agent's, with its 95% Wilson \
                  interval, in the table)."
            .into(),
        table: numbers_table(p, "pairwise.csv", &pairwise_table()),
        notes: Vec::new(),
    })
}

/// The columns of pairwise.csv the pairwise chart's table shows: those
/// up to `model_score`, without `rules`.
fn pairwise_table() -> Vec<&'static str> {
    let cols = crate::files::ratings::PAIRWISE_COLUMNS;
    let end = cols
        .iter()
        .position(|c| *c == "model_score")
        .map_or(0, |i| i + 1);
    cols[..end]
        .iter()
        .copied()
        .filter(|c| *c != "rules")
        .collect()
}

/// The index in `panels` of `variant`'s matrix, added with `n` agents
/// and no cells when it is not there yet.
fn panel_of(panels: &mut Vec<Matrix>, variant: &str, n: usize) -> usize {
    match panels.iter().position(|m| m.title == variant) {
        Some(i) => i,
        None => {
            panels.push(Matrix {
                title: variant.to_string(),
                n,
                cells: Vec::new(),
            });
            panels.len() - 1
        }
    }
}

/// pairwise.csv's rows of the tournament's agents, one matrix per
/// variant, each cell the share of games the row's agent won.
fn pairwise_panels(p: &CsvTable, tour: &Tournament) -> Result<Vec<Matrix>, ReportError> {
    let mut panels: Vec<Matrix> = Vec::new();
    for r in 0..p.len() {
        let Some((v, n, a, o)) = tour.seats(p, r, ("agent", "opponent")) else {
            continue;
        };
        let games = p.num(r, "games")?.unwrap_or(0.0);
        if games <= 0.0 {
            continue;
        }
        let i = panel_of(&mut panels, v, n);
        // The row's agent won `wins`, the earlier agent (its row of the
        // matrix) won the row's `losses`.
        for (row, col, won) in [(a, o, "wins"), (o, a, "losses")] {
            let share = p.num(r, won)?.unwrap_or(0.0) / games;
            panels[i]
                .cells
                .push((row, col, share, format!("{:.0}", share * 100.0)));
        }
    }
    Ok(panels)
}

/// The median length of each pairing, player 1's agent by row and
/// player 2's by column (the seats apart): one matrix per variant, from
/// summary.csv's rows of the tournament's cells.
pub(super) fn pairing_lengths_chart(s: &CsvTable, tour: &Tournament) -> Result<Chart, ReportError> {
    let (mut panels, medians) = pairing_medians(s, tour)?;
    let scale = LogScale::over(medians.iter().map(|m| m.3));
    for (panel, a, b, m, text) in medians {
        panels[panel].cells.push((a, b, scale.place(m), text));
    }
    let stops: Vec<(f64, String)> = [0.0, 0.5, 1.0]
        .iter()
        .map(|&t| (t, format!("{:.0} plies", scale.plies(t))))
        .collect();
    let stops: Vec<(f64, &str)> = stops.iter().map(|(t, l)| (*t, l.as_str())).collect();
    let svg = matrix_svg(
        &panels,
        tour.list(),
        length_colour,
        &stops,
        "median length, player 1's agent by row, player 2's by column",
    )?;
    Ok(Chart {
        file: "pairing-lengths.svg".into(),
        title: "Game length in the tournament's pairings".into(),
        svg,
        caption: "One matrix per variant: the number in row i, column j is the median length \
                  in plies (length_p50 of summary.csv) of the games the agent listed i-th \
                  played as player 1 against the agent listed j-th; the seats apart, so the \
                  matrix need not be symmetric. Darker: longer games (a log scale). Every \
                  length statistic of these cells is in the table."
            .into(),
        table: numbers_table(s, "summary.csv", &LENGTH_TABLE),
        notes: Vec::new(),
    })
}

/// A pairing's median length: its matrix, the two agents' places, the
/// median and the median as summary.csv writes it.
type Median = (usize, usize, usize, f64, String);

/// The tournament's matrices, still empty, and the median length of
/// each pairing in summary.csv.
fn pairing_medians(
    s: &CsvTable,
    tour: &Tournament,
) -> Result<(Vec<Matrix>, Vec<Median>), ReportError> {
    let mut panels: Vec<Matrix> = Vec::new();
    let mut medians: Vec<Median> = Vec::new();
    for r in 0..s.len() {
        let Some((v, n, a, b)) = tour.seats(s, r, ("p1", "p2")) else {
            continue;
        };
        let Some(m) = s.num(r, "length_p50")? else {
            continue;
        };
        let panel = panel_of(&mut panels, v, n);
        medians.push((panel, a, b, m, s.text(r, "length_p50").to_string()));
    }
    Ok((panels, medians))
}

/// A log scale over every median drawn, so that short and long games
/// both read (medians run from tens to thousands of plies): the logs of
/// the shortest and the longest.
struct LogScale {
    llo: f64,
    lhi: f64,
}

impl LogScale {
    fn over(medians: impl Iterator<Item = f64> + Clone) -> LogScale {
        let lo = medians.clone().fold(f64::INFINITY, f64::min);
        let hi = medians.fold(0f64, f64::max);
        LogScale {
            llo: lo.max(1.0).ln(),
            lhi: hi.max(1.0).ln(),
        }
    }

    /// Where `m` plies is on the colour scale, 0 to 1.
    fn place(&self, m: f64) -> f64 {
        let (llo, lhi) = (self.llo, self.lhi);
        if lhi > llo {
            ((m.max(1.0).ln() - llo) / (lhi - llo)).clamp(0.0, 1.0)
        } else {
            0.5
        }
    }

    /// The plies at place `t` of the scale.
    fn plies(&self, t: f64) -> f64 {
        (self.llo + t * (self.lhi - self.llo)).exp()
    }
}

/// Orange (lost every game) through white (half) to blue (won every
/// game): Okabe and Ito's vermillion and blue.
fn win_share_colour(t: f64) -> RGBColor {
    let (a, b) = if t < 0.5 {
        (RGBColor(213, 94, 0), 2.0 * t)
    } else {
        (RGBColor(0, 114, 178), 2.0 * (1.0 - t))
    };
    mix_white(a, b)
}

/// White (shortest) to dark blue (longest).
fn length_colour(t: f64) -> RGBColor {
    mix_white(RGBColor(0, 70, 130), 1.0 - t)
}

/// `c` mixed with white, `w` of white (0 to 1).
fn mix_white(c: RGBColor, w: f64) -> RGBColor {
    let m = |x: u8| (x as f64 + (255.0 - x as f64) * w).round() as u8;
    RGBColor(m(c.0), m(c.1), m(c.2))
}

/// Black text on a light cell, white on a dark one.
fn text_on(c: RGBColor) -> RGBColor {
    let luma = 0.299 * c.0 as f64 + 0.587 * c.1 as f64 + 0.114 * c.2 as f64;
    if luma < 140.0 { WHITE } else { BLACK }
}

/// Where [`matrix_svg`] puts things: panels on a grid of `per_row`
/// columns, each a title over an `n` × `n` grid of `cell`-pixel squares.
struct MatrixGrid {
    n: u32,
    per_row: u32,
    panel_w: u32,
    label_w: u32,
    cell: u32,
    title_lines: u32,
}

impl MatrixGrid {
    /// Three matrices to a row up to 8 agents, two up to 12, else one;
    /// titles of one line until [`MatrixGrid::titles`] wraps them.
    fn new(panels: &[Matrix]) -> MatrixGrid {
        let n = panels.iter().map(|m| m.n).max().unwrap_or(1).max(1) as u32;
        let per_row: u32 = if n <= 8 {
            3
        } else if n <= 12 {
            2
        } else {
            1
        };
        let panel_w = (1100 - 20) / per_row;
        let label_w = 34;
        let cell = ((panel_w - 20 - label_w) / n).min(56);
        MatrixGrid {
            n,
            per_row,
            panel_w,
            label_w,
            cell,
            title_lines: 1,
        }
    }

    /// The panels' titles wrapped to a panel's width; the grid makes
    /// room for the longest.
    fn titles(&mut self, panels: &[Matrix]) -> Vec<Vec<String>> {
        let titles: Vec<Vec<String>> = panels
            .iter()
            .map(|m| wrap(&m.title, self.panel_w - 20, TITLE_SIZE))
            .collect();
        self.title_lines = titles.iter().map(Vec::len).max().unwrap_or(1) as u32;
        titles
    }

    fn panel_h(&self) -> u32 {
        10 + self.title_lines * LINE + 8 + LINE + self.n * self.cell + 16
    }

    /// Panel `i`'s left edge and top.
    fn origin(&self, i: usize) -> (i32, i32) {
        let (col, row) = (i as u32 % self.per_row, i as u32 / self.per_row);
        (
            10 + (col * self.panel_w) as i32,
            (row * self.panel_h()) as i32,
        )
    }

    /// The key's top left corner: in the `free` empty places of the last
    /// of `rows` rows when `beside`, else under the matrices.
    fn key_origin(&self, beside: bool, rows: u32, free: u32) -> (i32, i32) {
        if beside {
            (
                (10 + (self.per_row - free) * self.panel_w + 20) as i32,
                ((rows - 1) * self.panel_h() + 10 + LINE) as i32,
            )
        } else {
            (20, (rows * self.panel_h()) as i32 + 10)
        }
    }
}

/// Matrices side by side, as many to a row as fit, agents numbered by
/// their place in the list; under them the colour scale (`stops`: a
/// place on it and its label) and what each number means.
fn matrix_svg(
    panels: &[Matrix],
    agents: &[String],
    colour: fn(f64) -> RGBColor,
    stops: &[(f64, &str)],
    what: &str,
) -> Result<String, ReportError> {
    let mut g = MatrixGrid::new(panels);
    let titles = g.titles(panels);
    let panel_h = g.panel_h();
    // As wide as its matrices (one variant's alone is not stretched over
    // the page), wide enough for the key.
    let shown = g.per_row.min(panels.len().max(1) as u32);
    let rows = (panels.len() as u32).div_ceil(g.per_row).max(1);
    // The key goes in the last row's empty places when it fits there,
    // else under the matrices.
    let free = (rows * g.per_row).saturating_sub(panels.len() as u32);
    let side_w = (free * g.panel_w).saturating_sub(30);
    let (items, names) = matrix_keys(agents, colour, stops, what);
    let beside = side_w >= 340 && {
        let (a, b) = (layout_key(&items, side_w), layout_key(&names, side_w));
        a.height + b.height + 20 <= panel_h
    };
    let width = if beside {
        1100
    } else {
        (shown * g.panel_w + 20).max(760)
    };
    let key_w = if beside { side_w } else { width - 40 };
    let scale = layout_key(&items, key_w);
    let names = layout_key(&names, key_w);
    let height = if beside {
        rows * panel_h + 10
    } else {
        rows * panel_h + scale.height + names.height + 30
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        for (i, m) in panels.iter().enumerate() {
            draw_matrix(&root, &g, g.origin(i), (m, &titles[i]), colour)?;
        }
        let (kx, ky) = g.key_origin(beside, rows, free);
        draw_key(&root, &scale, (kx, ky))?;
        draw_key(&root, &names, (kx, ky + scale.height as i32 + 10))?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// A key's entries: each mark and its text.
type KeyItems = Vec<(Swatch, String)>;

/// The matrices' two keys: what each number means over the colour scale
/// (`stops`: a place on it and its label), and the agents' numbers.
fn matrix_keys(
    agents: &[String],
    colour: fn(f64) -> RGBColor,
    stops: &[(f64, &str)],
    what: &str,
) -> (KeyItems, KeyItems) {
    let mut items: Vec<(Swatch, String)> = stops
        .iter()
        .map(|(t, l)| (Swatch::Bar(colour(*t)), l.to_string()))
        .collect();
    items.insert(0, (Swatch::Blank, format!("{what}:")));
    let names: Vec<(Swatch, String)> = agents
        .iter()
        .enumerate()
        .map(|(i, a)| (Swatch::Blank, format!("{} = {a}", i + 1)))
        .collect();
    (items, names)
}

/// One matrix at `(x0, y0)`: its title, the agents' numbers along both
/// edges, the grey diagonal and each cell's colour and text.
fn draw_matrix(
    root: &DrawingArea<SVGBackend, Shift>,
    g: &MatrixGrid,
    (x0, y0): (i32, i32),
    (m, title): (&Matrix, &[String]),
    colour: fn(f64) -> RGBColor,
) -> Result<(), ReportError> {
    let centre = x0 + g.panel_w as i32 / 2;
    draw_lines(root, title, (centre, y0 + 10), HPos::Center, true)?;
    let grid_x = x0 + 10 + g.label_w as i32;
    let grid_y = y0 + 10 + ((g.title_lines + 1) * LINE) as i32 + 8;
    for k in 0..m.n as i32 {
        draw_agent_number(root, g, (grid_x, grid_y), k)?;
    }
    let c = g.cell as i32;
    for (r, q, t, text) in &m.cells {
        let (x, y) = (grid_x + *q as i32 * c, grid_y + *r as i32 * c);
        draw_cell(root, (x, y, c), colour(*t), text)?;
    }
    Ok(())
}

/// A `c`-pixel cell at `(x, y)` filled with `fill`, `text` in its middle.
fn draw_cell(
    root: &DrawingArea<SVGBackend, Shift>,
    (x, y, c): (i32, i32, i32),
    fill: RGBColor,
    text: &str,
) -> Result<(), ReportError> {
    root.draw(&Rectangle::new(
        [(x + 1, y + 1), (x + c - 1, y + c - 1)],
        fill.filled(),
    ))
    .map_err(drawing)?;
    root.draw(&Text::new(
        text.to_string(),
        (x + c / 2, y + c / 2),
        (FONT, TEXT_SIZE - 2)
            .into_font()
            .color(&text_on(fill))
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))
    .map_err(drawing)
}

/// Agent `k`'s number over its column and left of its row of the grid
/// at `(grid_x, grid_y)`, and its grey cell on the diagonal.
fn draw_agent_number(
    root: &DrawingArea<SVGBackend, Shift>,
    g: &MatrixGrid,
    (grid_x, grid_y): (i32, i32),
    k: i32,
) -> Result<(), ReportError> {
    let c = g.cell as i32;
    let label = vec![(k + 1).to_string()];
    draw_lines(
        root,
        &label,
        (grid_x + k * c + c / 2, grid_y - LINE as i32 / 2 - 2),
        HPos::Center,
        false,
    )?;
    draw_lines(
        root,
        &label,
        (grid_x - 8, grid_y + k * c + c / 2),
        HPos::Right,
        false,
    )?;
    // The diagonal: an agent does not play itself here.
    let (x, y) = (grid_x + k * c, grid_y + k * c);
    root.draw(&Rectangle::new(
        [(x + 1, y + 1), (x + c - 1, y + c - 1)],
        RGBColor(235, 235, 235).filled(),
    ))
    .map_err(drawing)
}
