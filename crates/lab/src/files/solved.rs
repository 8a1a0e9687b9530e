//! solved.csv and the manifest.json beside it, as `katro solve-family`
//! writes them (docs/SOLVED.md, docs/OUTPUTS.md): the header of today's
//! and earlier builds, and the manifest's shape.

use serde::{Deserialize, Serialize};

use crate::solve::Value;

/// solved.csv's header; `OLD_HEADERS` are those of earlier katro builds,
/// files this command wrote and may replace.
pub const HEADER: &str = "reading,rules,rows,holes,seeds,status,value,start_distance,longest_win,\
                      positions,moves,upper_bound,memory_bytes,positions_reached,\
                      positions_settled,memory_bytes_at_least,not_tried_because\n";
pub const OLD_HEADERS: [&str; 1] = [
    "reading,rules,rows,holes,seeds,status,value,start_distance,longest_win,\
     positions,moves,upper_bound,memory_bytes\n",
];

#[derive(Serialize, Deserialize)]
pub struct FamilyManifest {
    pub command: String,
    pub katro_build: String,
    pub max_memory_gib: f64,
    pub max_seconds: Option<f64>,
    /// False while the run is under way (or was killed): solved.csv then
    /// holds only the boards done so far.
    pub complete: bool,
    pub boards_total: usize,
    pub boards_done: usize,
    pub solved: usize,
    pub refused_memory: usize,
    pub stopped_time: usize,
    /// Boards whose seeds and holes do not fit a position key (absent
    /// from the manifests of builds before it, which resume as 0).
    #[serde(default)]
    pub refused_key: usize,
    pub not_tried: usize,
    /// Rows taken over from an earlier run of the same rules, memory and cap.
    pub resumed: usize,
    /// Threads exploring each board (they change the times, never a row;
    /// absent from the manifests of builds before it, which read as 0).
    #[serde(default)]
    pub threads: usize,
    /// Wall seconds of this invocation.
    pub seconds: f64,
    pub peak_rss_bytes: Option<u64>,
    pub boards: Vec<BoardTime>,
}

impl FamilyManifest {
    /// The boards by status, as the command reports them.
    pub fn tally(&self) -> String {
        format!(
            "{} solved, {} refused by memory, {} stopped at the time cap, {} not tried",
            self.solved, self.refused_memory, self.stopped_time, self.not_tried
        )
    }
}

#[derive(Clone, Serialize, Deserialize)]
pub struct BoardTime {
    pub reading: String,
    pub rows: usize,
    pub holes: usize,
    pub seeds: u16,
    pub status: String,
    pub seconds: f64,
}

/// Whether a file's first bytes are a solved.csv header of this build or
/// an earlier one: a file this command wrote and may replace.
pub fn is_solved_csv(head: &[u8]) -> bool {
    std::iter::once(HEADER)
        .chain(OLD_HEADERS)
        .any(|h| head.starts_with(h.as_bytes()))
}

impl FamilyManifest {
    /// Whether `bytes` are a manifest this command wrote, of this build
    /// or an earlier one: a JSON object with `boards` and
    /// `max_memory_gib`, whatever else it holds.
    pub fn is_ours(bytes: &[u8]) -> bool {
        serde_json::from_slice::<std::collections::BTreeMap<String, serde::de::IgnoredAny>>(bytes)
            .is_ok_and(|m| m.contains_key("boards") && m.contains_key("max_memory_gib"))
    }

    /// The manifest in `bytes`, when it reads as one.
    pub fn parse(bytes: &[u8]) -> Option<FamilyManifest> {
        serde_json::from_slice(bytes).ok()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        (serde_json::to_string_pretty(self).expect("plain data") + "\n").into_bytes()
    }
}

/// The board a row is about: solved.csv's first five columns.
pub struct BoardKey {
    pub reading: String,
    /// The rules' canonical string.
    pub rules: String,
    pub rows: usize,
    pub holes: usize,
    pub seeds: u16,
}

impl BoardKey {
    /// The first five fields, comma-terminated: the start of the board's
    /// row in any solved.csv of these rules.
    pub fn prefix(&self) -> String {
        format!(
            "{},\"{}\",{},{},{},",
            self.reading, self.rules, self.rows, self.holes, self.seeds
        )
    }
}

/// What became of a board: its `status` and the columns that status fills
/// (docs/OUTPUTS.md, solved.csv).
pub enum Outcome {
    Solved {
        /// `win`, `loss` or `draw` for player 1.
        value: &'static str,
        start_distance: Option<u32>,
        longest_win: u32,
        positions: usize,
        moves: u64,
        memory_bytes: u64,
    },
    RefusedMemory {
        positions_reached: u64,
        memory_bytes_at_least: u64,
    },
    RefusedKey,
    StoppedTime {
        positions_reached: u64,
        /// None while still exploring.
        positions_settled: Option<u64>,
    },
    /// Not tried because the board (rows, holes, seeds) was not solved.
    NotTried {
        because: (usize, usize, u16),
    },
}

impl Outcome {
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Solved { .. } => "solved",
            Outcome::RefusedMemory { .. } => "refused-memory",
            Outcome::RefusedKey => "refused-key",
            Outcome::StoppedTime { .. } => "stopped-time",
            Outcome::NotTried { .. } => "not-tried",
        }
    }
}

/// One row of solved.csv.
pub struct SolvedRow {
    pub key: BoardKey,
    pub upper_bound: u128,
    pub outcome: Outcome,
}

impl SolvedRow {
    /// The row as solved.csv holds it, newline included.
    pub fn line(&self) -> String {
        let bound = self.upper_bound;
        let common = self.key.prefix();
        let status = self.outcome.status();
        let rest = match &self.outcome {
            Outcome::Solved {
                value,
                start_distance,
                longest_win,
                positions,
                moves,
                memory_bytes,
            } => format!(
                "{value},{},{longest_win},{positions},{moves},{bound},{memory_bytes},,,,",
                start_distance.map_or(String::new(), |d| d.to_string())
            ),
            Outcome::RefusedMemory {
                positions_reached,
                memory_bytes_at_least,
            } => format!(",,,,,{bound},,{positions_reached},,{memory_bytes_at_least},"),
            Outcome::RefusedKey => format!(",,,,,{bound},,,,,"),
            Outcome::StoppedTime {
                positions_reached,
                positions_settled,
            } => format!(
                ",,,,,{bound},,{positions_reached},{},,",
                positions_settled.map_or(String::new(), |d| d.to_string())
            ),
            Outcome::NotTried {
                because: (rows, holes, seeds),
            } => format!(",,,,,{bound},,,,,{rows}x{holes}x{seeds}"),
        };
        format!("{common}{status},{rest}\n")
    }
}

/// The fields of a row that say which board it is and what became of it,
/// as written (compared as text, so a row edited by hand never matches a
/// board it does not name).
pub struct RowKey<'a> {
    pub reading: &'a str,
    pub rows: &'a str,
    pub holes: &'a str,
    pub seeds: &'a str,
    pub status: &'a str,
}

/// The rows of a solved.csv of this build, each with its key; `None` when
/// the header is another. A line that does not read as a row is left out.
pub fn read_rows(csv: &str) -> Option<Vec<(&str, RowKey<'_>)>> {
    let body = csv.strip_prefix(HEADER)?;
    let mut out = Vec::new();
    for line in body.lines() {
        // A row is `reading,"rules",rows,holes,seeds,status,...`: the rules
        // string holds commas, so the fields after it are split from the end
        // of its closing quote.
        let Some(close) = line.rfind("\",") else {
            continue;
        };
        let reading = line.split(',').next().unwrap_or_default();
        let rest: Vec<&str> = line[close + 2..].split(',').collect();
        if rest.len() < 4 {
            continue;
        }
        let key = RowKey {
            reading,
            rows: rest[0],
            holes: rest[1],
            seeds: rest[2],
            status: rest[3],
        };
        out.push((line, key));
    }
    Some(out)
}

/// A board solved.csv says is solved: which it is and its start's value,
/// as `katro prove-family --check-solved` compares them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvedStart {
    pub reading: String,
    /// The rules' canonical string.
    pub rules: String,
    pub rows: usize,
    pub holes: usize,
    pub seeds: u16,
    /// The start's value for player 1.
    pub value: Value,
    /// The solver's arrays at their peak (`memory_bytes`).
    pub memory_bytes: u64,
}

/// The solved boards of a solved.csv of this build; `None` when the header
/// is another. A line that does not read as a solved row is left out.
pub fn solved_starts(csv: &str) -> Option<Vec<SolvedStart>> {
    let rows = read_rows(csv)?;
    let solved = rows.into_iter().filter(|(_, k)| k.status == "solved");
    Some(
        solved
            .filter_map(|(line, k)| solved_start(line, &k))
            .collect(),
    )
}

/// A solved row's start; `None` when a field does not read.
fn solved_start(line: &str, k: &RowKey) -> Option<SolvedStart> {
    let open = line.find(",\"")?;
    let close = line.rfind("\",")?;
    let rest: Vec<&str> = line[close + 2..].split(',').collect();
    let distance = || rest.get(5)?.parse::<u32>().ok();
    let value = match *rest.get(4)? {
        "win" => Value::Win(distance()?),
        "loss" => Value::Loss(distance()?),
        "draw" => Value::Draw,
        _ => return None,
    };
    Some(SolvedStart {
        reading: k.reading.to_string(),
        rules: line.get(open + 2..close)?.to_string(),
        rows: k.rows.parse().ok()?,
        holes: k.holes.parse().ok()?,
        seeds: k.seeds.parse().ok()?,
        value,
        memory_bytes: rest.get(10)?.parse().ok()?,
    })
}

impl BoardTime {
    /// Whether `k` is this board's row.
    pub fn is_row(&self, k: &RowKey) -> bool {
        self.reading == k.reading
            && self.rows.to_string() == k.rows
            && self.holes.to_string() == k.holes
            && self.seeds.to_string() == k.seeds
            && self.status == k.status
    }
}
