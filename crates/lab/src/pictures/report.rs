//! `report.html` and its charts, made from the CSV files of a results
//! folder: what a balance study looks like when read as plots.
//!
//! Everything here is bytes in, bytes out (the binary reads and writes the
//! files). The CSV files are read by column name, so columns added later
//! and empty fields (an undefined value) do not break a report. Every
//! number printed on the page is copied from the CSV text, never
//! recomputed, so the page says exactly what the CSV says; the charts
//! only place marks at those values.
//!
//! The charts are drawn with plotters' SVG backend. A chart is a
//! [`Chart`]: a file name under `plots/`, a title and the SVG; each
//! setting a sweep varies (docs/EXPERIMENTS.md) gets one more.

use plotters::prelude::*;

mod board_grid;
mod cells;
mod csv_table;
mod curve;
mod draw;
mod lengths;
mod metrics_chart;
mod openings_chart;
mod page;
mod sweep;
mod tournament;

use crate::experiment::verdict::StartValue;
use crate::files::exact_openings::EXACT_OPENINGS;
use cells::*;
pub use csv_table::{CsvTable, ReportError};
use draw::*;
use lengths::*;
use page::*;
use sweep::*;

/// exact-openings.csv's columns the report shows (docs/OUTPUTS.md): the
/// cell, how many openings, and the exact shares.
const EXACT_SHOWN: [&str; 9] = [
    "variant",
    "p1",
    "p2",
    "opening_plies",
    "openings",
    "p1_win_probability",
    "undecided_probability",
    "p2_win_probability",
    "p1_win_rate",
];
use tournament::*;

/// The files a report is made from.
#[derive(Default)]
pub struct Inputs<'a> {
    /// summary.csv, required.
    pub summary: &'a [u8],
    /// comparison.csv, if the run wrote one.
    pub comparison: Option<&'a [u8]>,
    /// lengths.csv (the exact length histograms), if the run wrote one.
    pub lengths: Option<&'a [u8]>,
    /// ratings.csv and skill-trace.csv, if the experiment had a tournament.
    pub ratings: Option<&'a [u8]>,
    pub skill_trace: Option<&'a [u8]>,
    /// pairwise.csv, with ratings.csv.
    pub pairwise: Option<&'a [u8]>,
    /// metrics.csv, if some cell recorded design metrics.
    pub metrics: Option<&'a [u8]>,
    /// strength-curve.csv, if `katro curve` wrote one.
    pub strength_curve: Option<&'a [u8]>,
    /// exact-openings.csv, if some matchup had `openings = "exact"`.
    pub exact_openings: Option<&'a [u8]>,
    /// The prover's openings.csv (`katro prove-openings`), given to
    /// `katro report --openings`: perfect play's shares beside the agents'
    /// in the chart against the opening.
    pub perfect_openings: Option<&'a [u8]>,
    /// The prover's values of starts (`katro report --proved`), told
    /// after the verdict of the game they are of.
    pub starts: &'a [StartValue],
    /// The experiment's name, for the page title.
    pub title: &'a str,
}

/// What marks a file as written by `katro report` (a `generator` meta tag
/// in the page, a comment at the top of each chart), so that a later
/// report overwrites its own files and refuses anyone else's.
pub const GENERATOR: &str = "katro report";

/// Every chart file a report may write under `plots/`, besides one
/// `sweep-KEY.svg` per swept setting ([`is_chart_file`]).
pub const CHART_FILES: [&str; 10] = [
    "strength-curve.svg",
    "win-rate.svg",
    "openings.svg",
    "board-grid.svg",
    "lengths.svg",
    "comparison.svg",
    "ratings.svg",
    "skill-trace.svg",
    "pairwise.svg",
    "pairing-lengths.svg",
];

/// Whether `name` (a file under `plots/`) is one a report writes.
pub fn is_chart_file(name: &str) -> bool {
    CHART_FILES.contains(&name)
        || metrics_chart::is_metrics_chart(name)
        || name.strip_prefix("sweep-").is_some_and(|k| {
            k.strip_suffix(".svg").is_some_and(|k| {
                !k.is_empty() && k.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
            })
        })
}

/// One chart: `plots/FILE` and the same SVG inline in the page.
pub struct Chart {
    pub file: String,
    pub title: String,
    pub svg: String,
    /// What the chart shows, the rules and agents it is about.
    pub caption: String,
    /// The numbers behind it, as an HTML table of CSV text.
    pub table: String,
    /// What the numbers say, one item each under the caption: a name
    /// (a variant) and the sentences about it.
    pub notes: Vec<(String, String)>,
}

/// The page and its charts.
pub struct Page {
    pub html: String,
    pub charts: Vec<Chart>,
}

/// The summary.csv columns the report reads: a subset of
/// [`crate::files::SUMMARY_COLUMNS`], the one list of summary.csv's
/// columns (tested), so a report refuses a file without them by name.
const SUMMARY_READ: [&str; 18] = [
    "variant",
    "rules",
    "p1",
    "p2",
    "games",
    "p1_wins",
    "p2_wins",
    "decided",
    "undecided_ply_limit",
    "undecided_endless_move",
    "undecided_lap_limit",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "length_mean",
    "length_p10",
    "length_p50",
    "length_p90",
];

const COMPARISON_COLUMNS: [&str; 10] = [
    "p1",
    "p2",
    "variant",
    "baseline",
    "advantage_diff",
    "advantage_diff_low",
    "advantage_diff_high",
    "length_diff",
    "length_diff_low",
    "length_diff_high",
];

/// Colour-blind-safe (Okabe and Ito), dark enough on white. No panel
/// draws more than these eight series: a chart with more splits them
/// into panels of eight (faceting), so no two series of a panel share a
/// colour.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(117, 80, 160),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// What tells two cells apart (docs/OUTPUTS.md): every chart keys,
/// labels, colours and groups its marks by all four fields, so two
/// matchups that differ only in their random opening are never pooled.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct CellKey {
    variant: String,
    p1: String,
    p2: String,
    /// As written in the CSV; "0" when the file has no such column.
    opening_plies: String,
}

fn cell_key(t: &CsvTable, r: usize) -> CellKey {
    let op = t.text(r, "opening_plies");
    CellKey {
        variant: t.text(r, "variant").to_string(),
        p1: t.text(r, "p1").to_string(),
        p2: t.text(r, "p2").to_string(),
        opening_plies: if op.is_empty() { "0" } else { op }.to_string(),
    }
}

/// A row's matchup as the charts write it. Self-play is written once and
/// the `mcts` agent's default exploration constant is left out (it reads
/// back as the same agent), so a skill ladder's labels stay short; the
/// table under the chart gives every agent in full. A random opening is
/// always named, so cells that differ only in it read apart.
fn matchup_text(t: &CsvTable, r: usize) -> String {
    let (p1, p2) = (
        crate::agents::label(t.text(r, "p1")),
        crate::agents::label(t.text(r, "p2")),
    );
    let mut m = if p1 == p2 {
        format!("{p1} both sides")
    } else {
        format!("{p1} vs {p2}")
    };
    match cell_key(t, r).opening_plies.as_str() {
        "0" => {}
        "1" => m.push_str(", 1 opening ply"),
        n => m.push_str(&format!(", {n} opening plies")),
    }
    m
}

/// What `p1_win_rate` estimates in each row of `t` (agents in `p1` and
/// `p2`, or both in `agent` for strength-curve.csv), as a sentence for a
/// caption: summary.csv's `estimand` in words, or in a file written
/// before that column the same estimand worked out from the agents and
/// the random opening. The `noun` counts rows.
fn estimand_sentence(t: &CsvTable, noun: &str) -> String {
    use crate::agents::AgentSpec;
    use crate::experiment::estimand::{Described, Estimand, legend};
    let agents: Vec<(&str, &str)> = (0..t.len())
        .map(|r| match t.text(r, "agent") {
            "" => (t.text(r, "p1"), t.text(r, "p2")),
            a => (a, a),
        })
        .collect();
    let described: Vec<Described> = (0..t.len())
        .map(|r| {
            let (p1, p2) = agents[r];
            let opening_plies = t.text(r, "opening_plies").parse().unwrap_or(0);
            let worked_out = || match (AgentSpec::parse(p1), AgentSpec::parse(p2)) {
                (Ok(a), Ok(b)) => Estimand::of(&a, &b, opening_plies),
                _ => Estimand::AgentShare,
            };
            Described {
                estimand: Estimand::parse(t.text(r, "estimand")).unwrap_or_else(worked_out),
                opening_plies,
                p1,
                p2,
            }
        })
        .collect();
    format!(
        " What each p1_win_rate estimates (summary.csv's estimand, docs/OUTPUTS.md): {}.",
        legend(&described, noun).join("; ")
    )
}

/// A row label: the variant and the matchup.
fn cell_label(t: &CsvTable, r: usize) -> String {
    format!("{}  {}", t.text(r, "variant"), matchup_text(t, r))
}

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Builds the page and the charts.
pub fn build(inputs: &Inputs) -> Result<Page, ReportError> {
    let tables = Tables::read(inputs)?;
    let charts = charts(inputs, &tables)?;
    let exact = inputs
        .exact_openings
        .map(|b| parse_table(EXACT_OPENINGS, b, &EXACT_SHOWN))
        .transpose()?
        .filter(|t| !t.is_empty());
    let html = page(
        inputs.title,
        &tables.summary,
        tables.tournament.as_ref(),
        &charts,
        exact.as_ref(),
        inputs.starts,
    );
    Ok(Page { html, charts })
}

/// `bytes` read as `file`, which must have the columns `cols`.
fn parse_table(file: &str, bytes: &[u8], cols: &[&str]) -> Result<CsvTable, ReportError> {
    let t = CsvTable::parse(file, bytes)?;
    t.require(cols)?;
    Ok(t)
}

/// The tables read before any chart is drawn.
struct Tables {
    summary: CsvTable,
    comparison: Option<CsvTable>,
    lengths: Option<Histograms>,
    ratings: Option<CsvTable>,
    tournament: Option<Tournament>,
}

impl Tables {
    fn read(inputs: &Inputs) -> Result<Tables, ReportError> {
        let summary = parse_table("summary.csv", inputs.summary, &SUMMARY_READ)?;
        if summary.is_empty() {
            return Err(ReportError::NoRows {
                file: "summary.csv".into(),
            });
        }
        let comparison = inputs
            .comparison
            .map(|b| parse_table("comparison.csv", b, &COMPARISON_COLUMNS))
            .transpose()?;
        let lengths = inputs.lengths.map(read_lengths).transpose()?;
        let ratings = inputs
            .ratings
            .map(|b| parse_table("ratings.csv", b, &RATINGS_COLUMNS))
            .transpose()?
            .filter(|t| !t.is_empty());
        let tournament = ratings.as_ref().map(Tournament::from_ratings);
        Ok(Tables {
            summary,
            comparison,
            lengths,
            ratings,
            tournament,
        })
    }

    /// Whether row `r` of `t` is one of the tournament's pairings. They
    /// are read as a matrix, not cell by cell: the cell-by-cell charts
    /// draw the experiment's own matchups.
    fn pairing(&self, t: &CsvTable, r: usize) -> bool {
        self.tournament.as_ref().is_some_and(|x| x.is_pairing(t, r))
    }
}

/// The charts, in the page's order, reading the files only the charts
/// need on the way.
fn charts(inputs: &Inputs, tables: &Tables) -> Result<Vec<Chart>, ReportError> {
    let summary = &tables.summary;
    let cells = summary.select(|r| !tables.pairing(summary, r));
    let pairings = summary.select(|r| tables.pairing(summary, r));
    let mut charts = Vec::new();
    // The curve answers the question of the study that has one, so first.
    if let Some(b) = inputs.strength_curve {
        charts.extend(curve::strength_curve_chart(b)?);
    }
    if !cells.is_empty() {
        charts.push(win_rate_chart(&cells)?);
        let exact = inputs
            .exact_openings
            .map(|b| parse_table(EXACT_OPENINGS, b, &EXACT_SHOWN))
            .transpose()?;
        let perfect = inputs
            .perfect_openings
            .map(|b| {
                let cols = openings_chart::PERFECT_OPENINGS_COLUMNS;
                parse_table("openings.csv", b, &cols)
            })
            .transpose()?;
        let curves = openings_chart::opening_curves(&cells, exact.as_ref(), perfect.as_ref())?;
        charts.extend(openings_chart::openings_chart(&curves)?);
    }
    if let (Some(t), Some(tour)) = (&tables.ratings, &tables.tournament) {
        charts.extend(ratings_charts(inputs, t, tour)?);
    }
    if let Some(b) = inputs.skill_trace {
        let t = parse_table("skill-trace.csv", b, &SKILL_TRACE_COLUMNS)?;
        if !t.is_empty() {
            charts.push(skill_trace_chart(&t)?);
        }
    }
    if !cells.is_empty() {
        charts.push(length_chart(&cells, tables.lengths.as_ref())?);
    }
    if let Some(tour) = tables.tournament.as_ref().filter(|_| !pairings.is_empty()) {
        charts.push(pairing_lengths_chart(&pairings, tour)?);
    }
    if let Some(c) = tables.comparison.as_ref() {
        let c = c.select(|r| !tables.pairing(c, r));
        if !c.is_empty() {
            charts.push(comparison_chart(&c)?);
        }
    }
    if !cells.is_empty() {
        charts.extend(board_grid::board_grid_chart(&cells, inputs.starts)?);
    }
    charts.extend(sweep_charts(&cells)?);
    if let Some(b) = inputs.metrics {
        charts.extend(metrics_chart::metrics_charts(b)?);
    }
    Ok(charts)
}
/// A tournament's ratings, `t`, and its pairwise win rates when the
/// folder has them.
fn ratings_charts(
    inputs: &Inputs,
    t: &CsvTable,
    tour: &Tournament,
) -> Result<Vec<Chart>, ReportError> {
    let mut charts = vec![ratings_chart(t)?];
    if let Some(b) = inputs.pairwise {
        let p = parse_table("pairwise.csv", b, &PAIRWISE_COLUMNS)?;
        if !p.is_empty() {
            charts.push(pairwise_chart(&p, tour)?);
        }
    }
    Ok(charts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::{BoldPoints, Ranged};
    use plotters::coord::types::RangedCoordf64;

    const SUMMARY: &str = "variant,rules,p1,p2,games,p1_wins,p2_wins,undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,p1_win_rate,p1_win_rate_low,p1_win_rate_high,length_mean,length_min,length_p10,length_p50,length_p90,length_max,extra_new_column\n\
a,\"katro(rows=4)\",random,random,10,6,4,0,0,0,10,0.600000,0.312680,0.831820,12.500000,3,5,12,20,31,x\n\
b,\"katro(rows=6)\",random,random,10,0,0,10,0,0,0,,,,99.000000,99,99,99,99,99,\n";

    #[test]
    fn reads_columns_by_name_and_tolerates_extra_and_empty_fields() {
        let r = build(&Inputs {
            summary: SUMMARY.as_bytes(),
            comparison: None,
            lengths: Some(
                b"variant,p1,p2,length,games\na,random,random,3,4\na,random,random,31,6\n",
            ),
            ratings: None,
            skill_trace: None,
            pairwise: None,
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .unwrap();
        assert_eq!(r.charts.len(), 2);
        assert!(r.html.contains(
            "<td data-file=\"summary.csv\" data-row=\"0\" data-col=\"p1_win_rate\">0.600000</td>"
        ));
        // No decided game: the field stays empty, no number is invented.
        assert!(r.html.contains(
            "<td data-file=\"summary.csv\" data-row=\"1\" data-col=\"p1_win_rate\"></td>"
        ));
        assert!(r.html.replace("<wbr>", "").contains("katro(rows=6)"));
        assert!(r.charts.iter().all(|c| c.svg.starts_with("<svg")));
    }

    #[test]
    fn the_win_rate_caption_says_what_each_rate_estimates() {
        let caption = |summary: &str| {
            let r = build(&Inputs {
                summary: summary.as_bytes(),
                title: "t",
                ..Inputs::default()
            })
            .unwrap();
            r.charts[0].caption.clone()
        };
        // A file written before `estimand`: worked out from the agents.
        let older = caption(SUMMARY);
        assert!(
            older.ends_with(
                " What each p1_win_rate estimates (summary.csv's estimand, docs/OUTPUTS.md): \
                 random self-play's share over 0 random opening plies (from the start, the games \
                 spread by the agents' own random moves), every row."
            ),
            "{older}"
        );
        // The column as written wins, and each kind is named with its rows.
        let ab = "alphabeta:depth=4";
        let newer = SUMMARY
            .replace(",extra_new_column\n", ",opening_plies,estimand\n")
            .replace(",x\n", ",4,agent-share\n")
            .replace("99,99,\n", "99,99,0,exact-value\n")
            .replace("random,random,10,6", &format!("{ab},{ab},10,6"));
        let c = caption(&newer);
        assert!(
            c.ends_with(
                ": alphabeta self-play's share over 4 random opening plies (1 row); exact value \
                 of the start (perfect self-play: each game's result is that value) (1 row)."
            ),
            "{c}"
        );
        let r = build(&Inputs {
            summary: newer.as_bytes(),
            title: "t",
            ..Inputs::default()
        })
        .unwrap();
        assert!(r.charts[0].table.contains("<th>estimand</th>"));
        assert!(!r.charts[0].table.contains("balance_margin"));
        // With a margin, its verdict and tests follow the interval.
        let judged = newer
            .replace(",estimand\n", ",estimand,balance_margin,balance_verdict\n")
            .replace(",agent-share\n", ",agent-share,0.020000,undetermined\n")
            .replace(",exact-value\n", ",exact-value,0.020000,undetermined\n");
        let r = build(&Inputs {
            summary: judged.as_bytes(),
            title: "t",
            ..Inputs::default()
        })
        .unwrap();
        let table = &r.charts[0].table;
        let at = |h: &str| table.find(&format!("<th>{h}</th>")).unwrap();
        assert!(at("p1_win_rate_high") < at("balance_margin"), "{table}");
        assert!(at("balance_margin") < at("balance_verdict"), "{table}");
    }

    #[test]
    fn row_labels_write_self_play_once_and_drop_the_default_exploration() {
        let mcts = "mcts:iterations=30,exploration=1.4142135623730951";
        let other = "mcts:iterations=30,exploration=1.41421356237309515";
        let csv = format!(
            "variant,p1,p2\na,\"{mcts}\",\"{mcts}\"\na,\"{other}\",greedy\nb,greedy,random\n"
        );
        let t = CsvTable::parse("summary.csv", csv.as_bytes()).unwrap();
        assert_eq!(cell_label(&t, 0), "a  mcts:iterations=30 both sides");
        // Another constant, even one whose digits begin like the default's,
        // is kept.
        assert_eq!(
            cell_label(&t, 1),
            "a  mcts:iterations=30,exploration=1.41421356237309515 vs greedy"
        );
        assert_eq!(cell_label(&t, 2), "b  greedy vs random");
    }

    #[test]
    fn a_swept_setting_gets_a_chart_against_its_values() {
        // Tidy columns: holes swept 3, 8, 4 (drawn in numeric order), seeds
        // swept too, start the same in every row (not swept).
        let mut text = String::from(
            "variant,rules,p1,p2,opening_plies,rows,holes,seeds,start,games,p1_wins,p2_wins,\
             undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,p1_win_rate,\
             p1_win_rate_low,p1_win_rate_high,completion,length_mean,length_min,length_p10,\
             length_p50,length_p90,length_max\n",
        );
        for (holes, seeds) in [(3, 1), (8, 1), (4, 1), (3, 2), (8, 2), (4, 2)] {
            for p2 in ["random", "greedy"] {
                text.push_str(&format!(
                    "katro-4x4+holes={holes}+seeds={seeds},\"katro(holes={holes})\",random,{p2},0,4,{holes},{seeds},\
                     outermost-non-empty,10,5,5,0,0,0,10,0.500000,0.237,0.763,1.000000,\
                     {holes}.500000,1,2,3,4,5\n"
                ));
            }
        }
        let r = build(&Inputs {
            summary: text.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            pairwise: None,
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .unwrap();
        let files: Vec<&str> = r.charts.iter().map(|c| c.file.as_str()).collect();
        assert_eq!(
            files,
            [
                "win-rate.svg",
                "lengths.svg",
                "board-grid.svg",
                "sweep-holes.svg",
                "sweep-seeds.svg"
            ]
        );
        let holes = &r.charts[3];
        // The SVG's texts, in drawing order.
        let texts: Vec<&str> = holes
            .svg
            .split("</text>")
            .filter_map(|t| t.rsplit_once('>').map(|(_, x)| x.trim()))
            .collect();
        // Values in numeric order on the axis, a line per matchup and seeds.
        let at = |v: &str| texts.iter().position(|t| *t == v).unwrap();
        assert!(
            at("3") < at("4") && at("4") < at("8"),
            "axis order: {texts:?}"
        );
        assert!(texts.contains(&"random vs greedy, seeds=2"), "{texts:?}");
        assert!(holes.caption.contains("other swept setting(s) (seeds)"));
        assert!(holes.table.contains("data-col=\"holes\">8</td>"));
        assert!(is_chart_file("sweep-holes.svg") && !is_chart_file("sweep-../x.svg"));
        // Variants that differ in a setting without being a sweep's: no chart.
        let plain = text
            .replace("katro-4x4+holes=", "v")
            .replace("+seeds=", "s");
        let r = build(&Inputs {
            summary: plain.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            pairwise: None,
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .unwrap();
        assert!(r.charts.iter().all(|c| !c.file.starts_with("sweep-")));
        // Nothing swept: no sweep chart.
        let r = build(&Inputs {
            summary: SUMMARY.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            pairwise: None,
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .unwrap();
        assert!(r.charts.iter().all(|c| !c.file.starts_with("sweep-")));
    }

    /// The texts of an SVG, in drawing order.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("</text>")
            .filter_map(|t| t.rsplit_once('>').map(|(_, x)| x.trim()))
            .collect()
    }

    #[test]
    fn cells_that_differ_only_in_their_opening_plies_stay_apart() {
        let head = "variant,rules,p1,p2,opening_plies,games,p1_wins,p2_wins,\
                    undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,\
                    p1_win_rate,p1_win_rate_low,p1_win_rate_high,length_mean,length_min,\
                    length_p10,length_p50,length_p90,length_max,ply_limit\n";
        let summary = format!(
            "{head}a,\"katro()\",greedy,greedy,0,10,8,2,0,0,0,10,0.8,0.5,0.9,12,12,12,12,12,12,50\n\
             a,\"katro()\",greedy,greedy,4,10,5,5,0,0,0,10,0.5,0.2,0.8,30,30,30,30,30,30,50\n"
        );
        let lengths = "variant,p1,p2,opening_plies,length,games\n\
                       a,greedy,greedy,0,12,10\na,greedy,greedy,4,30,10\n";
        let r = build(&Inputs {
            summary: summary.as_bytes(),
            comparison: None,
            lengths: Some(lengths.as_bytes()),
            ratings: None,
            skill_trace: None,
            pairwise: None,
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .unwrap();
        // Two rows of the win-rate chart, two labels.
        let win = texts(&r.charts[0].svg);
        assert!(win.contains(&"a  greedy both sides"), "{win:?}");
        assert!(
            win.contains(&"a  greedy both sides, 4 opening plies"),
            "{win:?}"
        );
        // Two panels of the length chart, each with its own cell's curve.
        let len = r.charts.iter().find(|c| c.file == "lengths.svg").unwrap();
        let len = texts(&len.svg);
        assert!(len.contains(&"Game length, greedy both sides"), "{len:?}");
        assert!(
            len.contains(&"Game length, greedy both sides, 4 opening plies"),
            "{len:?}"
        );
        let s = CsvTable::parse("summary.csv", summary.as_bytes()).unwrap();
        let h = read_lengths(lengths.as_bytes()).unwrap();
        assert_eq!(h.get(&s, 0).unwrap().keys().collect::<Vec<_>>(), [&12]);
        assert_eq!(h.get(&s, 1).unwrap().keys().collect::<Vec<_>>(), [&30]);
        // A lengths.csv without the column pooled the two: no curve is
        // drawn from the pool.
        let old = "variant,p1,p2,length,games\na,greedy,greedy,12,10\na,greedy,greedy,30,10\n";
        let h = read_lengths(old.as_bytes()).unwrap();
        assert!(h.get(&s, 0).is_none() && h.get(&s, 1).is_none());
        // A sweep: the two matchups are two lines, in two colours.
        let sweep = summary
            .replace("opening_plies,", "opening_plies,holes,")
            .replacen("a,", "k+holes=3,", 1)
            .replacen("a,", "k+holes=4,", 1)
            .replace(",greedy,0,", ",greedy,0,3,")
            .replace(",greedy,4,", ",greedy,4,4,");
        let r = build(&Inputs {
            summary: sweep.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            pairwise: None,
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .unwrap();
        let chart = r
            .charts
            .iter()
            .find(|c| c.file == "sweep-holes.svg")
            .unwrap();
        let t = texts(&chart.svg);
        assert!(t.contains(&"greedy both sides"), "{t:?}");
        assert!(t.contains(&"greedy both sides, 4 opening plies"), "{t:?}");
        let rgb = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        assert!(chart.svg.contains(&rgb(colour(0))) && chart.svg.contains(&rgb(colour(1))));
    }

    #[test]
    fn long_labels_wrap_between_settings_and_fit_their_width() {
        let name = "katro-6x6+min_victim_seeds_after_empty=2+empty_landing_refusal=all-ones";
        let lines = wrap(name, 400, TEXT_SIZE);
        assert!(lines.len() > 1, "{lines:?}");
        assert_eq!(lines.concat(), name);
        assert_eq!(lines[1], "min_victim_seeds_after_empty=2+");
        assert!(
            lines.iter().all(|l| text_width(l, TEXT_SIZE) <= 400),
            "{lines:?}"
        );
        assert_eq!(wrap("short", 300, TEXT_SIZE), ["short"]);
    }

    #[test]
    fn a_missing_column_is_named() {
        let e = build(&Inputs {
            summary: b"variant,p1\na,random\n",
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            pairwise: None,
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .err()
        .unwrap();
        assert!(matches!(e, ReportError::MissingColumns { .. }), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("summary.csv: missing column(s) rules"), "{e}");
    }

    /// A sweep over holes and seeds gets a grid per row count and matchup,
    /// each cell its share, outlined where its interval excludes 50%.
    #[test]
    fn a_board_sweep_is_a_grid_of_holes_by_seeds() {
        let head = "variant,rules,rows,holes,seeds,p1,p2,opening_plies,games,p1_wins,p2_wins,undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,p1_win_rate,p1_win_rate_low,p1_win_rate_high,length_mean,length_p10,length_p50,length_p90\n";
        let mut summary = head.to_string();
        for (h, k, p, lo, hi) in [
            (3, 1, 0.62, 0.55, 0.69),
            (4, 1, 0.51, 0.45, 0.57),
            (3, 2, 0.40, 0.33, 0.47),
            (4, 2, 0.5, 0.43, 0.57),
        ] {
            summary.push_str(&format!(
                "b+holes={h}+seeds={k},r,4,{h},{k},random,random,0,100,50,50,0,0,0,100,{p},{lo},{hi},10,5,10,15\n"
            ));
        }
        let r = build(&Inputs {
            summary: summary.as_bytes(),
            title: "t",
            ..Inputs::default()
        })
        .unwrap();
        let g = r
            .charts
            .iter()
            .find(|c| c.file == "board-grid.svg")
            .unwrap();
        assert_eq!(g.svg.matches("<g class=\"grid\">").count(), 1);
        assert_eq!(g.svg.matches("data-excludes-half=\"true\"").count(), 2);
        assert_eq!(g.svg.matches("data-excludes-half=\"false\"").count(), 2);
        let words = texts(&g.svg);
        for w in ["62.0", "51.0", "40.0", "50.0", "4 rows, random both sides"] {
            assert!(words.contains(&w), "{w}: {words:?}");
        }
        // One swept key alone is a line chart, not a grid.
        let holes_only = summary.replace("+seeds=2", "").replace("+seeds=1", "");
        let holes_only: String = holes_only
            .lines()
            .enumerate()
            .filter(|(i, l)| *i == 0 || l.contains(",1,random"))
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        let r = build(&Inputs {
            summary: holes_only.as_bytes(),
            title: "t",
            ..Inputs::default()
        })
        .unwrap();
        assert!(r.charts.iter().all(|c| c.file != "board-grid.svg"));
    }

    /// A self-play agent measured at several opening plies gets a panel of
    /// its share against k: sampled cells with their intervals, exact ones
    /// as rings, and perfect play's from the prover's openings.csv; an
    /// agent measured at one k, or random play, gets none.
    #[test]
    fn shares_against_the_opening_are_one_panel_per_variant_and_agent() {
        let summary = "variant,rules,p1,p2,opening_plies,games,p1_wins,p2_wins,undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,p1_win_rate,p1_win_rate_low,p1_win_rate_high,length_mean,length_p10,length_p50,length_p90\n\
            v,r,ab,ab,4,100,60,40,0,0,0,100,0.600000,0.502000,0.690000,20,10,20,30\n\
            v,r,ab,ab,6,100,55,45,0,0,0,100,0.550000,0.452000,0.644000,20,10,20,30\n\
            v,r,random,random,0,100,50,50,0,0,0,100,0.500000,0.403000,0.597000,20,10,20,30\n\
            w,r,ab,ab,4,100,50,50,0,0,0,100,0.500000,0.403000,0.597000,20,10,20,30\n\
            w,r,ab,ab,6,100,50,50,0,0,0,100,0.500000,0.403000,0.597000,20,10,20,30\n";
        let exact = "variant,rules,p1,p2,opening_plies,estimate,openings,decisions,tied_decisions,p1_win_probability,undecided_probability,p2_win_probability,p1_win_rate,exact\n\
            v,r,ab,ab,0,exact-openings,1,20,0,1.000000,0.000000,0.000000,1.000000,1/1;0/1;0/1\n\
            v,r,ab,ab,1,exact-openings,4,80,0,0.750000,0.000000,0.250000,0.750000,3/4;0/1;1/4\n";
        let perfect = "variant,plies,share_low,share_high\nv,0,1.000000,1.000000\nv,4,0.591000,0.600000\nw,0,0.000000,0.000000\n";
        let page = build(&Inputs {
            summary: summary.as_bytes(),
            exact_openings: Some(exact.as_bytes()),
            perfect_openings: Some(perfect.as_bytes()),
            title: "t",
            ..Inputs::default()
        })
        .unwrap();
        let chart = page
            .charts
            .iter()
            .find(|c| c.file == "openings.svg")
            .expect("an openings chart");
        // v's ab only: w's was measured at two k (a step, not a trend),
        // random play is not drawn.
        let words = texts(&chart.svg);
        assert!(words.contains(&"v, ab"), "{words:?}");
        assert!(!words.contains(&"w, ab"), "{words:?}");
        assert!(!chart.svg.contains("random,"), "{words:?}");
        // Its numbers: k = 0, 1, 4, 6, each with what was measured there.
        let t = &chart.table;
        assert_eq!(t.matches("<tr><td>v</td>").count(), 4, "{t}");
        assert!(t.contains("<td>0</td><td></td><td></td><td></td><td>1.000000</td><td>1.000000</td><td>1.000000</td>"), "{t}");
        assert!(t.contains("<td>4</td><td>0.600000</td><td>0.502000</td><td>0.690000</td><td></td><td>0.591000</td><td>0.600000</td>"), "{t}");
        // The panel's axis spans every mark and 50%: from 1.0 down to 0.45.
        let ticks = texts(&chart.svg);
        assert!(
            ticks.contains(&"100%") || ticks.contains(&"100.0%"),
            "{ticks:?}"
        );
        // Drawn after the win rate, and a bad perfect-play file is named.
        let files: Vec<&str> = page.charts.iter().map(|c| c.file.as_str()).collect();
        assert_eq!(&files[..2], ["win-rate.svg", "openings.svg"]);
        let e = build(&Inputs {
            summary: summary.as_bytes(),
            perfect_openings: Some(b"variant,plies\nv,0\n"),
            title: "t",
            ..Inputs::default()
        })
        .err()
        .unwrap();
        assert!(
            e.to_string()
                .contains("openings.csv: missing column(s) share_low"),
            "{e}"
        );
        // A k that is no whole number is named by its line in the file.
        let e = build(&Inputs {
            summary: summary.as_bytes(),
            exact_openings: Some(exact.as_bytes()),
            perfect_openings: Some(b"variant,plies,share_low,share_high\nv,0,1,1\nv,x,0.5,0.6\n"),
            title: "t",
            ..Inputs::default()
        })
        .err()
        .unwrap();
        assert!(
            e.to_string()
                .contains("openings.csv: line 3, column plies: `x` is not a whole number"),
            "{e}"
        );
        // One k for every agent: no chart.
        let one = build(&Inputs {
            summary: SUMMARY.as_bytes(),
            title: "t",
            ..Inputs::default()
        })
        .unwrap();
        assert!(one.charts.iter().all(|c| c.file != "openings.svg"));
    }

    /// An `openings = "exact"` cell is shown as what it is: its own table,
    /// said to be exact, each number the CSV's text; a file without the
    /// shown columns is refused naming it.
    #[test]
    fn exact_shares_are_a_table_of_their_own() {
        let exact = "variant,rules,p1,p2,opening_plies,estimate,openings,decisions,tied_decisions,p1_win_probability,undecided_probability,p2_win_probability,p1_win_rate,exact\n\
            tiny,\"katro(rows=4)\",greedy,greedy,2,exact-openings,9,63699,30389,0.315299,0.006830,0.677871,0.317468,1/3;1/146;2/3\n";
        let inputs = |e: &'static str| Inputs {
            summary: SUMMARY.as_bytes(),
            exact_openings: Some(e.as_bytes()),
            title: "t",
            ..Inputs::default()
        };
        let html = build(&inputs(exact)).unwrap().html;
        assert!(html.contains("<li><a href=\"#exact\">Exact shares over every opening</a>"));
        let section = &html[html.find("<section id=\"exact\">").unwrap()..];
        assert!(
            section.contains("not sampled, and have no interval"),
            "{section}"
        );
        assert!(
            section.contains(
                "data-file=\"exact-openings.csv\" data-row=\"0\" data-col=\"p1_win_rate\">0.317468<"
            ),
            "{section}"
        );
        let e = build(&inputs("variant,p1,p2\ntiny,greedy,greedy\n"))
            .err()
            .unwrap();
        assert!(
            e.to_string()
                .contains("exact-openings.csv: missing column(s) opening_plies"),
            "{e}"
        );
        // Without the file, no section.
        let plain = Inputs {
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            ..inputs(exact)
        };
        assert!(!build(&plain).unwrap().html.contains("id=\"exact\""));
    }

    #[test]
    fn a_bad_number_is_named_with_its_line() {
        let bad = SUMMARY.replace("0.600000", "six");
        let e = build(&Inputs {
            summary: bad.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: None,
            skill_trace: None,
            pairwise: None,
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .err()
        .unwrap();
        assert!(matches!(e, ReportError::NotANumber { .. }), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("line 2, column p1_win_rate: `six`"), "{e}");
    }

    #[test]
    fn tick_labels_carry_the_decimals_their_step_needs() {
        // The comparison chart's axis of issue 32: ticks 0.005 apart were
        // labelled 0, 0.01, 0.01, 0.01, 0.02, 0.03.
        let t = Ticks::new(-0.001..0.027, 6, false);
        let keys = RangedCoordf64::from(-0.001..0.027).key_points(BoldPoints(6));
        let labels: Vec<String> = keys.iter().map(|&k| t.label(k)).collect();
        assert_eq!(
            labels,
            ["0.000", "0.005", "0.010", "0.015", "0.020", "0.025"]
        );
        let t = Ticks::new(0.0..1.06, 6, true);
        assert_eq!(t.label(0.2), "20%");
        // Over any range, the labels of plotters' ticks are all different
        // and each reads as its tick's value.
        for (lo, hi, pct) in [
            (0.0, 0.0031, true),
            (0.0, 0.00042, true),
            (0.0, 1.5, false),
            (0.0, 2.0, false),
            (-37.2, 512.9, false),
            (-0.0123, 0.0456, false),
        ] {
            let t = Ticks::new(lo..hi, 6, pct);
            let keys = RangedCoordf64::from(lo..hi).key_points(BoldPoints(6));
            let labels: Vec<String> = keys.iter().map(|&k| t.label(k)).collect();
            let mut distinct = labels.clone();
            distinct.dedup();
            assert_eq!(distinct, labels, "{lo}..{hi}");
            for (k, l) in keys.iter().zip(&labels) {
                let v: f64 = l.trim_end_matches('%').parse().unwrap();
                let v = if pct { v / 100.0 } else { v };
                assert!((v - k).abs() < 1e-9 + k.abs() * 1e-9, "{k} reads {l}");
            }
        }
        // No "-0" at zero.
        assert_eq!(Ticks::new(-1.0..1.0, 6, false).label(-1e-17), "0.0");
    }

    #[test]
    fn a_tournaments_pairings_are_drawn_as_a_matrix_not_cell_by_cell() {
        let head = "variant,rules,p1,p2,opening_plies,games,p1_wins,p2_wins,\
                    undecided_ply_limit,undecided_endless_move,undecided_lap_limit,decided,\
                    p1_win_rate,p1_win_rate_low,p1_win_rate_high,length_mean,length_min,\
                    length_p10,length_p50,length_p90,length_max\n";
        let row = |p1: &str, p2: &str, op: u32| {
            format!("a,\"katro()\",{p1},{p2},{op},10,6,4,0,0,0,10,0.6,0.3,0.8,12,3,5,12,20,31\n")
        };
        // The matchup greedy vs random with no opening is the file's own;
        // with 4 opening plies it is a pairing of the tournament.
        let summary = [
            head.to_string(),
            row("greedy", "greedy", 4),
            row("greedy", "random", 0),
            row("random", "greedy", 4),
            row("greedy", "random", 4),
        ]
        .concat();
        let ratings = "variant,rules,opening_plies,level,agent,rating,rating_low,rating_high,\
                       games,first_move_advantage,first_move_advantage_low,\
                       first_move_advantage_high,new_column\n\
                       a,\"katro()\",4,1,random,0,0,0,20,1,0,2,x\n\
                       a,\"katro()\",4,2,greedy,100,50,150,20,1,0,2,x\n";
        let pairwise = "variant,rules,opening_plies,agent,opponent,games,wins,losses,undecided,\
                        win_rate,win_rate_low,win_rate_high,score,model_score\n\
                        a,\"katro()\",4,greedy,random,20,15,4,1,0.75,0.5,0.9,0.775,0.7\n";
        let r = build(&Inputs {
            summary: summary.as_bytes(),
            comparison: None,
            lengths: None,
            ratings: Some(ratings.as_bytes()),
            skill_trace: None,
            pairwise: Some(pairwise.as_bytes()),
            metrics: None,
            strength_curve: None,
            exact_openings: None,
            perfect_openings: None,
            starts: &[],
            title: "t",
        })
        .unwrap();
        let files: Vec<&str> = r.charts.iter().map(|c| c.file.as_str()).collect();
        assert_eq!(
            files,
            [
                "win-rate.svg",
                "ratings.svg",
                "pairwise.svg",
                "lengths.svg",
                "pairing-lengths.svg"
            ]
        );
        // The first-player chart: the two own cells, numbered as in the file.
        let win = &r.charts[0];
        assert_eq!(win.table.matches("<tr>").count(), 3, "{}", win.table);
        assert!(
            win.table
                .contains("data-row=\"1\" data-col=\"p2\">random</td>")
        );
        assert!(!win.table.contains("data-row=\"2\""));
        // The matrix: greedy won 75% of its games against random, random
        // 20% (the four greedy lost) against greedy.
        let m = texts(&r.charts[2].svg);
        assert!(m.contains(&"75") && m.contains(&"20"), "{m:?}");
        assert!(m.contains(&"2 = greedy"), "{m:?}");
        // The rules table lists the tournament once, the matchups once.
        assert!(
            r.html.contains("<b>Tournament</b> of 2 agents"),
            "{}",
            r.html
        );
        assert!(r.html.contains("every pair") || r.html.contains("Every pair"));
        assert!(r.html.contains("<a href=\"#pairwise\">"));
        // Rules strings break after a comma only, never inside a word.
        assert_eq!(
            page::breakable("katro(rows=4,holes=4)"),
            "katro(<wbr>rows=4,<wbr>holes=4)"
        );
    }

    #[test]
    fn an_open_ended_rating_is_drawn_as_its_one_bound_and_said_so() {
        let t = CsvTable::parse(
            "ratings.csv",
            b"variant,level,agent,rating,rating_low,rating_high\n\
              a,1,random,0,0,0\n\
              a,2,greedy,100,50,150\n\
              a,3,alphabeta:depth=2,,300.4,\n\
              a,4,alphabeta:depth=4,,,-20\n",
        )
        .unwrap();
        let c = ratings_chart(&t).unwrap();
        let labels = texts(&c.svg).join("\n");
        assert!(
            labels.contains("3. alphabeta:depth=2 (no upper bound; at least 300)"),
            "{labels}"
        );
        assert!(
            labels.contains("4. alphabeta:depth=4 (no lower bound; at most -20)"),
            "{labels}"
        );
        assert!(labels.contains("2. greedy\n"), "{labels}");
        // Two estimates, each a dot and the ring plotters' error bar draws
        // under it, the key's dot, and two arrows to the open sides: no dot
        // where there is no estimate.
        assert_eq!(c.svg.matches("<circle").count(), 2 * 2 + 1);
        assert_eq!(c.svg.matches("<polygon").count(), 2, "{}", c.svg);
    }

    #[test]
    fn the_report_reads_only_columns_summary_csv_has() {
        let written = crate::files::summary_column_names();
        for c in SUMMARY_READ {
            assert!(written.contains(&c), "{c} is not a summary.csv column");
        }
    }
}
