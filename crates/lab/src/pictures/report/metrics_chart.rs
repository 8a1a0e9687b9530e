//! The design metrics of metrics.csv in the report (issue 24): one chart
//! per headline metric, every cell a row with its 95% bootstrap interval,
//! so variants, and the values of a swept setting (rows named
//! `base+key=value`, in the sweep's order), read side by side.

use super::{Chart, CsvTable, ReportError, RowChart, cell_label, numbers_table, row_chart_svg};

/// The metrics drawn, with what their axis says: drama, lead changes,
/// decisiveness, clarity, repetition and the mancala captures, the
/// questions docs/STUDY.md part 5 asks.
const DRAWN: [(&str, &str, bool); 6] = [
    (
        "drama_mean",
        "Drama: mean of the best evaluation minus the winner's (evaluation units)",
        false,
    ),
    (
        "lead_change",
        "Lead changes per transition between states",
        true,
    ),
    (
        "decisiveness_moves",
        "Decisiveness: share of the game before the winner is safe",
        true,
    ),
    (
        "clarity_narrowness",
        "Clarity: share of moves near the best (above mean + 0.75 (max - mean))",
        true,
    ),
    (
        "positional_repetition",
        "Repeated boards, share of states",
        true,
    ),
    ("capture_turn_share", "Plies that capture", true),
];

/// Whether `name` (under `plots/`) is one of these charts.
pub fn is_metrics_chart(name: &str) -> bool {
    DRAWN
        .iter()
        .any(|(col, _, _)| name == format!("metrics-{col}.svg"))
}

/// The charts of the drawn metrics that metrics.csv holds.
pub fn metrics_charts(bytes: &[u8]) -> Result<Vec<Chart>, ReportError> {
    let t = CsvTable::parse("metrics.csv", bytes)?;
    t.require(&["variant", "p1", "p2", "eval", "games"])?;
    let mut charts = Vec::new();
    if t.is_empty() {
        return Ok(charts);
    }
    let labels: Vec<String> = (0..t.len())
        .map(|r| format!("{}  [{}]", cell_label(&t, r), t.text(r, "eval")))
        .collect();
    for (col, desc, share) in DRAWN {
        if t.has(col) {
            charts.push(metric_chart(&t, &labels, (col, desc, share))?);
        }
    }
    Ok(charts)
}

/// The chart of metric `col`, `desc` its axis, `share` whether it is a
/// share (0 to 1, in percent).
fn metric_chart(
    t: &CsvTable,
    labels: &[String],
    (col, desc, share): (&str, &str, bool),
) -> Result<Chart, ReportError> {
    let svg = row_chart_svg(
        t,
        &RowChart {
            labels: labels.to_vec(),
            col,
            x_desc: desc,
            title: col,
            at: 0.0,
            x_percent: share,
            x_min: share.then_some(0.0..1.0),
            key: ["0", "95% bootstrap interval", "mean over games"],
        },
    )?;
    let (games, low, high) = (
        format!("{col}_games"),
        format!("{col}_low"),
        format!("{col}_high"),
    );
    let cols = [
        "variant", "p1", "p2", "eval", "games", &games, col, &low, &high,
    ];
    Ok(Chart {
        file: format!("metrics-{col}.svg"),
        title: format!("Design metric `{col}`"),
        svg,
        caption: metric_caption(col),
        table: numbers_table(t, "metrics.csv", &cols),
        notes: Vec::new(),
    })
}

fn metric_caption(col: &str) -> String {
    format!(
        "`{col}` of metrics.csv for every cell that records it: the mean over games \
         of the per-game value, with its 95% percentile-bootstrap interval; the \
         state evaluation behind it in brackets (docs/OUTPUTS.md, metrics.csv, for \
         the formula and how it relates to Ludii's metric). Rows named \
         `base+key=value` are a sweep of one setting."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pictures::report::is_chart_file;

    #[test]
    fn each_drawn_metric_of_the_file_gets_a_chart() {
        // Two cells, lead_change and drama_mean only: two charts, each
        // row's numbers in the table beside it.
        let csv = "variant,p1,p2,eval,games,lead_change_games,lead_change,lead_change_low,\
                   lead_change_high,drama_mean_games,drama_mean,drama_mean_low,drama_mean_high\n\
                   a,random,random,ludii,10,10,0.25,0.2,0.3,10,0.5,0.4,0.6\n\
                   b,random,random,exact,10,10,0.125,0.1,0.15,10,0.75,0.7,0.8\n";
        let charts = metrics_charts(csv.as_bytes()).unwrap();
        let files: Vec<&str> = charts.iter().map(|c| c.file.as_str()).collect();
        assert_eq!(files, ["metrics-drama_mean.svg", "metrics-lead_change.svg"]);
        assert!(files.iter().all(|f| is_chart_file(f)));
        assert!(!is_chart_file("metrics-bogus.svg"));
        assert!(charts[1].table.contains("0.125"), "{}", charts[1].table);
        assert!(
            charts[1].svg.contains("[exact]"),
            "the evaluation is in the labels"
        );
        // A file without the key columns is refused, naming it.
        let e = metrics_charts(b"variant,games\nx,1\n").err().unwrap();
        assert!(matches!(e, ReportError::MissingColumns { .. }), "{e:?}");
        assert!(e.to_string().contains("metrics.csv"), "{e}");
    }
}
