//! openings.csv (docs/OUTPUTS.md): `katro prove-openings`'s first-player
//! share under perfect play over every opening of k uniformly random
//! plies, each opening's position valued by proof search; where some stay
//! unproven, the interval they leave. The file's name, columns, writer and
//! reader (`katro curve --openings` reads it).

use super::csv::{LineError, csv_bytes, field, float, opt, read_rows};
use crate::solve::openings::{PerfectShare, Ratio};

/// The file's name.
pub const OPENINGS: &str = "openings.csv";

/// openings.csv's columns (docs/OUTPUTS.md, "openings.csv").
pub const OPENINGS_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "plies",
    "positions",
    "proven",
    "unknown",
    "p1_wins",
    "draws",
    "p2_wins",
    "unknown_probability",
    "share",
    "share_low",
    "share_high",
    "exact",
    "bound",
    "nodes",
    "stopped_depth",
    "stopped_nodes",
    "stopped_time",
    "max_depth",
    "max_nodes",
    "table_bytes",
];

/// One variant and number of plies.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningsRow {
    pub variant: String,
    /// The canonical rules string the positions were valued under (its
    /// `ply_limit` is ignored by the search).
    pub rules: String,
    pub plies: u32,
    /// The outcomes' probabilities and the positions counted.
    pub share: PerfectShare,
    /// The smallest bound of an unknown position: neither side forces a
    /// win within it; `None` when every position is proven.
    pub bound: Option<u32>,
    pub nodes: u64,
    /// Unknown positions by what stopped their search: `max_depth`,
    /// `max_nodes`, the clock.
    pub stopped: [usize; 3],
    pub max_depth: u32,
    pub max_nodes: Option<u64>,
    pub table_bytes: u64,
}

/// `W;D;L;U` as exact fractions.
fn exact_text(s: &PerfectShare) -> String {
    [s.p1_wins, s.draws, s.p2_wins, s.unknown]
        .map(|q| format!("{}/{}", q.num, q.den))
        .join(";")
}

/// [`exact_text`] read back.
fn exact_of(text: &str) -> Option<[Ratio; 4]> {
    let parts: Vec<Ratio> = text
        .split(';')
        .map(|q| {
            let (n, d) = q.split_once('/')?;
            let (num, den) = (n.parse().ok()?, d.parse().ok()?);
            (den > 0).then_some(Ratio { num, den })
        })
        .collect::<Option<_>>()?;
    parts.try_into().ok()
}

/// The file's bytes, rows in the order given.
pub fn openings_csv(rows: &[OpeningsRow]) -> Vec<u8> {
    csv_bytes(OPENINGS_COLUMNS, rows.iter().map(fields))
}

fn fields(r: &OpeningsRow) -> Vec<String> {
    let s = &r.share;
    let bounds = s.p1_share_bounds();
    vec![
        r.variant.clone(),
        r.rules.clone(),
        r.plies.to_string(),
        s.openings.to_string(),
        (s.openings - s.unknown_openings).to_string(),
        s.unknown_openings.to_string(),
        float(Some(s.p1_wins.to_f64())),
        float(Some(s.draws.to_f64())),
        float(Some(s.p2_wins.to_f64())),
        float(Some(s.unknown.to_f64())),
        float(s.p1_decided_share()),
        float(bounds.map(|b| b.0)),
        float(bounds.map(|b| b.1)),
        exact_text(s),
        opt(r.bound),
        r.nodes.to_string(),
        r.stopped[0].to_string(),
        r.stopped[1].to_string(),
        r.stopped[2].to_string(),
        r.max_depth.to_string(),
        opt(r.max_nodes),
        r.table_bytes.to_string(),
    ]
}

/// The rows of an openings.csv this build wrote. The probabilities are
/// read from `exact`, the fractions; the decimal columns are their
/// rounding.
pub fn read_openings(bytes: &[u8]) -> Result<Vec<OpeningsRow>, LineError> {
    let c = OPENINGS_COLUMNS;
    read_rows(bytes, c, |f| {
        let [p1_wins, draws, p2_wins, unknown] = field(f.rec, f.line, c, 13, exact_of)?
            .ok_or_else(|| f.error("`exact` is empty".into()))?;
        let (positions, unknown_openings) = (f.need(3)? as usize, f.need(5)? as usize);
        if f.need(4)? as usize + unknown_openings != positions {
            return Err(f.error("`proven` + `unknown` is not `positions`".into()));
        }
        Ok(OpeningsRow {
            variant: f.text(0),
            rules: f.text(1),
            plies: f.small(2)?,
            share: PerfectShare {
                p1_wins,
                draws,
                p2_wins,
                unknown,
                openings: positions,
                unknown_openings,
            },
            bound: f.num(14)?.map(|b| b as u32),
            nodes: f.need(15)?,
            stopped: [
                f.need(16)? as usize,
                f.need(17)? as usize,
                f.need(18)? as usize,
            ],
            max_depth: f.small(19)?,
            max_nodes: f.num(20)?,
            table_bytes: f.need(21)?,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(num: u128, den: u128) -> Ratio {
        Ratio { num, den }
    }

    fn row(unknown: (u128, u128), openings: usize) -> OpeningsRow {
        let u = q(unknown.0, unknown.1);
        OpeningsRow {
            variant: "katro-4x4".into(),
            rules: "katro(rows=4,holes=4,seeds=2,x=y)".into(),
            plies: 2,
            share: PerfectShare {
                p1_wins: q(9, 16),
                draws: q(0, 1),
                p2_wins: q(5, 16),
                unknown: u,
                openings,
                unknown_openings: if u.num == 0 { 0 } else { 2 },
            },
            bound: (u.num > 0).then_some(35),
            nodes: 40_000_000,
            stopped: [0, (u.num > 0) as usize * 2, 0],
            max_depth: 200,
            max_nodes: Some(20_000_000),
            table_bytes: 1 << 30,
        }
    }

    #[test]
    fn rows_read_back_as_written_with_the_interval_between_all_lost_and_all_won() {
        let unproven = row((2, 16), 16);
        let proven = OpeningsRow {
            share: PerfectShare {
                p1_wins: q(11, 16),
                ..row((0, 1), 16).share
            },
            ..row((0, 1), 16)
        };
        let bytes = openings_csv(&[unproven.clone(), proven.clone()]);
        let text = String::from_utf8(bytes.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], OPENINGS_COLUMNS.join(","));
        // 9/16 won, 5/16 lost, 2/16 unknown: share empty, interval
        // (9/16) / 1 = 0.5625 to (11/16) / 1 = 0.6875.
        assert!(
            lines[1].ends_with(
                ",2,16,14,2,0.562500,0.000000,0.312500,0.125000,,0.562500,0.687500,\
                 9/16;0/1;5/16;2/16,35,40000000,0,2,0,200,20000000,1073741824"
            ),
            "{}",
            lines[1]
        );
        // 11/16 won, 5/16 lost: the share, and the interval is the point.
        assert!(
            lines[2].contains(",0.687500,0.687500,0.687500,11/16;0/1;5/16;0/1,,"),
            "{}",
            lines[2]
        );
        assert_eq!(read_openings(&bytes).unwrap(), vec![unproven, proven]);
    }

    #[test]
    fn counts_that_do_not_add_up_are_refused() {
        let text = String::from_utf8(openings_csv(&[row((2, 16), 16)])).unwrap();
        let bad = text.replace(",2,16,14,2,", ",2,16,13,2,");
        let e = read_openings(bad.as_bytes()).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let bad = text.replace("9/16;0/1", "9/0;0/1");
        assert!(read_openings(bad.as_bytes()).is_err());
    }
}
