//! proved.csv and the manifest.json beside it, as `katro prove-family`
//! writes them (docs/SOLVED.md, "The proved family"; docs/OUTPUTS.md,
//! proved.csv): the columns with their meaning, a row's bytes, the typed
//! reader, and the manifest's shape. Shards write the same two formats
//! under `shards/proved-I-of-N.csv` and `shards/proved-I-of-N.json`.

use serde::{Deserialize, Serialize};

use crate::solve::prove::Outcome;

/// The file's name in an output folder.
pub const PROVED_CSV: &str = "proved.csv";
/// Its chart's name (`pictures::proved_grid`).
pub const PROVED_SVG: &str = "proved.svg";

/// Every column, in order, with the line docs/OUTPUTS.md gives it.
pub const COLUMNS: [(&str, &str); 13] = [
    (
        "set",
        "the set the board belongs to: `boards`, `readings-6x6`, `readings-4x4` or `solved-family`",
    ),
    (
        "reading",
        "`canonical`, or the one rule setting changed from it as `setting=value` (the \
         readings sets); in the `solved-family` set the reading of solve-family (a preset name)",
    ),
    (
        "rules",
        "the board's canonical rules string (`ply_limit` ignored by the search)",
    ),
    ("rows", "rows of the board"),
    ("holes", "holes a row"),
    ("seeds", "seeds a hole at the start"),
    (
        "value",
        "the start's value for player 1 (South, moves first): `win`, `loss`, `unknown` \
         (neither side forces a win within `bound`) or `draw` (the game over with no winner)",
    ),
    (
        "distance",
        "for a win the fewest in which player 1 forces it, for a loss the most \
         player 1 can hold out; empty unless `win` or `loss`",
    ),
    (
        "bound",
        "when `unknown`, D such that neither side forces a win within D; empty \
         otherwise",
    ),
    (
        "winning_moves",
        "every first move proven to win, `move:distance`, space-separated in board order \
         (moves in RULES.md's notation); empty when none",
    ),
    (
        "move_values",
        "every legal first move with its value for player 1 after playing it, space-separated \
         in board order: `move:win:D`, `move:loss:D`, `move:unknown>D` or `move:draw`",
    ),
    (
        "nodes",
        "positions made by the row's searches (the start's and every first move's), together",
    ),
    (
        "stopped",
        "what left the row unproven: `time` when the clock stopped any of its searches (the \
         row then depends on the machine), else the start's `depth` or `nodes`; empty when \
         the start is proven and no search met the clock",
    ),
];

/// The column names, in order.
pub fn column_names() -> Vec<&'static str> {
    COLUMNS.iter().map(|c| c.0).collect()
}

/// The header line, newline included.
pub fn header() -> String {
    column_names().join(",") + "\n"
}

/// Whether a file's first bytes are proved.csv's header: a file
/// `katro prove-family` wrote and may replace.
pub fn is_proved_csv(head: &[u8]) -> bool {
    head.starts_with(header().as_bytes())
}

/// What stopped a row's searches short of a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    Depth,
    Nodes,
    Time,
}

impl Stopped {
    pub fn word(self) -> &'static str {
        match self {
            Stopped::Depth => "depth",
            Stopped::Nodes => "nodes",
            Stopped::Time => "time",
        }
    }

    fn parse(s: &str) -> Option<Stopped> {
        Some(match s {
            "depth" => Stopped::Depth,
            "nodes" => Stopped::Nodes,
            "time" => Stopped::Time,
            _ => return None,
        })
    }
}

/// One first move and its value for player 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// In RULES.md's notation.
    pub name: String,
    pub value: Outcome,
}

impl MoveValue {
    /// `move:win:D`, `move:loss:D`, `move:unknown>D` or `move:draw`.
    pub fn text(&self) -> String {
        let n = &self.name;
        match self.value {
            Outcome::Win(d) => format!("{n}:win:{d}"),
            Outcome::Loss(d) => format!("{n}:loss:{d}"),
            Outcome::Unknown(d) => format!("{n}:unknown>{d}"),
            Outcome::Ended => format!("{n}:draw"),
        }
    }

    fn parse(s: &str) -> Option<MoveValue> {
        let (name, value) = s.split_once(':')?;
        let num = |t: &str| t.parse::<u32>().ok();
        let value = if let Some(d) = value.strip_prefix("win:") {
            Outcome::Win(num(d)?)
        } else if let Some(d) = value.strip_prefix("loss:") {
            Outcome::Loss(num(d)?)
        } else if let Some(d) = value.strip_prefix("unknown>") {
            Outcome::Unknown(num(d)?)
        } else if value == "draw" {
            Outcome::Ended
        } else {
            return None;
        };
        (!name.is_empty()).then(|| MoveValue {
            name: name.to_string(),
            value,
        })
    }
}

/// The board a row is about: its first six columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardKey {
    pub set: String,
    pub reading: String,
    /// The rules' canonical string.
    pub rules: String,
    pub rows: usize,
    pub holes: usize,
    pub seeds: u16,
}

/// One row of proved.csv.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvedRow {
    pub key: BoardKey,
    /// The start's value for player 1.
    pub value: Outcome,
    pub moves: Vec<MoveValue>,
    pub nodes: u64,
    pub stopped: Option<Stopped>,
}

impl ProvedRow {
    /// The first moves that win, each with its distance.
    pub fn winning_moves(&self) -> Vec<(&str, u32)> {
        self.moves
            .iter()
            .filter_map(|m| match m.value {
                Outcome::Win(d) => Some((m.name.as_str(), d)),
                _ => None,
            })
            .collect()
    }

    /// The row as proved.csv holds it, newline included.
    pub fn line(&self) -> String {
        let k = &self.key;
        let opt = |d: Option<u32>| d.map_or(String::new(), |d| d.to_string());
        let bound = match self.value {
            Outcome::Unknown(d) => Some(d),
            _ => None,
        };
        let winning: Vec<String> = self
            .winning_moves()
            .iter()
            .map(|(n, d)| format!("{n}:{d}"))
            .collect();
        let moves: Vec<String> = self.moves.iter().map(MoveValue::text).collect();
        format!(
            "{},{},\"{}\",{},{},{},{},{},{},{},{},{},{}\n",
            k.set,
            k.reading,
            k.rules,
            k.rows,
            k.holes,
            k.seeds,
            self.value.word(),
            opt(self.value.distance()),
            opt(bound),
            winning.join(" "),
            moves.join(" "),
            self.nodes,
            self.stopped.map_or("", Stopped::word)
        )
    }
}

/// A proved.csv that does not read as this katro writes it: the line
/// (1 is the header) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct ProvedCsvError {
    pub line: u64,
    pub reason: String,
}

/// The rows of a proved.csv, each checked whole: its header, every field
/// of every row, and that `winning_moves` and `bound` say what
/// `move_values` and `value` do.
pub fn read_rows(csv: &str) -> Result<Vec<ProvedRow>, ProvedCsvError> {
    let bad = |line: u64, reason: String| ProvedCsvError { line, reason };
    if !csv.starts_with(&header()) {
        return Err(bad(1, format!("not the header {}", header().trim_end())));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(csv.as_bytes());
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i as u64 + 2;
        let record = record.map_err(|e| bad(line, e.to_string()))?;
        let row = read_row(&record).map_err(|reason| bad(line, reason))?;
        if row.line() != format!("{}\n", record_text(&record)) {
            return Err(bad(line, "not as katro writes this row".to_string()));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The record's fields joined as the row writes them (the rules quoted).
fn record_text(r: &csv::StringRecord) -> String {
    r.iter()
        .enumerate()
        .map(|(i, f)| {
            if i == 2 {
                format!("\"{f}\"")
            } else {
                f.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn read_row(r: &csv::StringRecord) -> Result<ProvedRow, String> {
    if r.len() != COLUMNS.len() {
        return Err(format!("{} fields, not {}", r.len(), COLUMNS.len()));
    }
    let field = |i: usize| r.get(i).unwrap_or_default();
    fn num<T: std::str::FromStr>(name: &str, t: &str) -> Result<T, String> {
        t.parse()
            .map_err(|_| format!("`{name}` {t:?} is not a whole number"))
    }
    let key = BoardKey {
        set: field(0).to_string(),
        reading: field(1).to_string(),
        rules: field(2).to_string(),
        rows: num("rows", field(3))?,
        holes: num("holes", field(4))?,
        seeds: num("seeds", field(5))?,
    };
    let opt = |name: &str, t: &str| -> Result<Option<u32>, String> {
        if t.is_empty() {
            Ok(None)
        } else {
            num(name, t).map(Some)
        }
    };
    let (distance, bound) = (opt("distance", field(7))?, opt("bound", field(8))?);
    let value = match (field(6), distance, bound) {
        ("win", Some(d), None) => Outcome::Win(d),
        ("loss", Some(d), None) => Outcome::Loss(d),
        ("unknown", None, Some(b)) => Outcome::Unknown(b),
        ("draw", None, None) => Outcome::Ended,
        (v, _, _) => {
            return Err(format!(
                "`value` {v:?} with `distance` {:?} and `bound` {:?}",
                field(7),
                field(8)
            ));
        }
    };
    let moves = field(10)
        .split_whitespace()
        .map(|m| MoveValue::parse(m).ok_or_else(|| format!("`move_values`: {m:?}")))
        .collect::<Result<Vec<_>, _>>()?;
    let stopped = match field(12) {
        "" => None,
        s => Some(Stopped::parse(s).ok_or_else(|| format!("`stopped` {s:?}"))?),
    };
    Ok(ProvedRow {
        key,
        value,
        moves,
        nodes: num("nodes", field(11))?,
        stopped,
    })
}

/// The limits every search of a family was given; a family resumes and
/// merges only with its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProveLimits {
    /// The table of each board's searches, in GiB.
    pub max_memory_gib: f64,
    /// Nodes each search may spend (the start's, each first move's).
    pub max_nodes: u64,
    /// The deepest bound tried, in decisions.
    pub max_depth: u32,
    /// Wall seconds for a board's searches together, if capped.
    pub max_seconds: Option<f64>,
}

/// Which family a file belongs to: the same build, limits and boards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyId {
    pub katro_build: String,
    pub limits: ProveLimits,
    /// The sets asked for, in the family's order.
    pub sets: Vec<String>,
    /// The `--only` filter, if any.
    pub only: Option<String>,
    /// Every board of the family (all shards), in order.
    pub boards_total: usize,
    /// FNV-1a of every board's set, reading and rules string, in order.
    pub boards_hash: String,
}

/// A shard's place: shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardPart {
    pub index: u64,
    pub count: u64,
}

/// A board's time, as the manifest records it (never in the CSV).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProvedTime {
    pub set: String,
    pub reading: String,
    pub rows: usize,
    pub holes: usize,
    pub seeds: u16,
    pub seconds: f64,
}

impl ProvedTime {
    /// Whether this is the time of the board `k`.
    pub fn is_of(&self, k: &BoardKey) -> bool {
        (&self.set, &self.reading, self.rows, self.holes, self.seeds)
            == (&k.set, &k.reading, k.rows, k.holes, k.seeds)
    }
}

/// What the manifest marks itself with, so a folder check knows it.
pub const MANIFEST_KIND: &str = "katro prove-family";

/// manifest.json beside proved.csv (or a shard's `.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProvedManifest {
    /// Always [`MANIFEST_KIND`].
    pub kind: String,
    pub command: String,
    #[serde(flatten)]
    pub family: FamilyId,
    /// The shard this file is, or `None` for a whole family.
    pub shard: Option<ShardPart>,
    /// How many shards a merged family was made from.
    #[serde(default)]
    pub merged_from: Option<u64>,
    /// False while boards are still to do: the CSV then holds only the
    /// boards done, in the family's order.
    pub complete: bool,
    /// Boards of this file (the shard's share, or all).
    pub boards: usize,
    pub boards_done: usize,
    /// Boards whose start is a win, a loss, unknown or a draw for player 1.
    pub wins: usize,
    pub losses: usize,
    pub unknown: usize,
    pub draws: usize,
    /// Rows taken over from an earlier run into the same files.
    pub resumed: usize,
    /// Boards searched at once (each by one thread).
    pub threads: usize,
    /// Wall seconds of this invocation.
    pub seconds: f64,
    pub peak_rss_bytes: Option<u64>,
    /// Each board done, in the family's order.
    pub times: Vec<ProvedTime>,
}

impl ProvedManifest {
    /// The manifest of `boards` boards of `family` (a shard's share when
    /// `shard` is one) not yet under way, made by `command`, proving on
    /// the current thread pool.
    pub fn new(
        command: &str,
        family: FamilyId,
        shard: Option<ShardPart>,
        boards: usize,
    ) -> ProvedManifest {
        ProvedManifest {
            kind: MANIFEST_KIND.to_string(),
            command: command.to_string(),
            family,
            shard,
            merged_from: None,
            complete: false,
            boards,
            boards_done: 0,
            wins: 0,
            losses: 0,
            unknown: 0,
            draws: 0,
            resumed: 0,
            threads: rayon::current_num_threads(),
            seconds: 0.0,
            peak_rss_bytes: None,
            times: Vec::new(),
        }
    }

    /// Whether `bytes` are a manifest this command wrote.
    pub fn is_ours(bytes: &[u8]) -> bool {
        serde_json::from_slice::<serde_json::Value>(bytes)
            .is_ok_and(|v| v.get("kind").and_then(|k| k.as_str()) == Some(MANIFEST_KIND))
    }

    /// The manifest in `bytes`, when it reads as one.
    pub fn parse(bytes: &[u8]) -> Result<ProvedManifest, String> {
        let m: ProvedManifest = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        if m.kind != MANIFEST_KIND {
            return Err(format!("`kind` is {:?}, not {MANIFEST_KIND:?}", m.kind));
        }
        Ok(m)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        (serde_json::to_string_pretty(self).expect("plain data") + "\n").into_bytes()
    }

    /// The boards by the start's value, as the command reports them.
    pub fn tally(&self) -> String {
        format!(
            "{} of {} boards: {} won by player 1, {} lost, {} unknown, {} drawn",
            self.boards_done, self.boards, self.wins, self.losses, self.unknown, self.draws
        )
    }

    /// Counts a row's start value.
    pub fn count(&mut self, value: Outcome) {
        match value {
            Outcome::Win(_) => self.wins += 1,
            Outcome::Loss(_) => self.losses += 1,
            Outcome::Unknown(_) => self.unknown += 1,
            Outcome::Ended => self.draws += 1,
        }
        self.boards_done += 1;
    }
}

/// A shard's two files: `shards/proved-I-of-N.csv` and `.json`.
pub fn shard_names(part: ShardPart) -> (String, String) {
    let stem = format!("proved-{}-of-{}", part.index, part.count);
    (format!("{stem}.csv"), format!("{stem}.json"))
}

/// The shard a file name in `shards/` is, when it is one of ours: its
/// part, and whether it is the manifest (`.json`) rather than the CSV.
pub fn shard_of_name(name: &str) -> Option<(ShardPart, bool)> {
    let rest = name.strip_prefix("proved-")?;
    let (stem, json) = if let Some(s) = rest.strip_suffix(".csv") {
        (s, false)
    } else {
        (rest.strip_suffix(".json")?, true)
    };
    let (i, n) = stem.split_once("-of-")?;
    let part = ShardPart {
        index: i.parse().ok()?,
        count: n.parse().ok()?,
    };
    (shard_names(part).0 == format!("proved-{stem}.csv")).then_some((part, json))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> ProvedRow {
        ProvedRow {
            key: BoardKey {
                set: "boards".into(),
                reading: "canonical".into(),
                rules: "katro(rows=4,holes=3,seeds=1,x=y)".into(),
                rows: 4,
                holes: 3,
                seeds: 1,
            },
            value: Outcome::Win(25),
            moves: vec![
                MoveValue {
                    name: "a1".into(),
                    value: Outcome::Win(25),
                },
                MoveValue {
                    name: "b1".into(),
                    value: Outcome::Loss(20),
                },
                MoveValue {
                    name: "b2>c3".into(),
                    value: Outcome::Unknown(14),
                },
                MoveValue {
                    name: "c1+".into(),
                    value: Outcome::Ended,
                },
            ],
            nodes: 16192,
            stopped: None,
        }
    }

    #[test]
    fn a_row_reads_back_as_written() {
        let r = row();
        assert_eq!(
            r.line(),
            "boards,canonical,\"katro(rows=4,holes=3,seeds=1,x=y)\",4,3,1,win,25,,a1:25,\
             a1:win:25 b1:loss:20 b2>c3:unknown>14 c1+:draw,16192,\n"
        );
        let mut u = r.clone();
        u.value = Outcome::Unknown(30);
        u.stopped = Some(Stopped::Nodes);
        let csv = header() + &r.line() + &u.line();
        assert!(is_proved_csv(csv.as_bytes()));
        assert_eq!(read_rows(&csv).unwrap(), vec![r, u.clone()]);
        assert!(u.line().contains(",unknown,,30,a1:25,"));
    }

    #[test]
    fn a_damaged_row_is_refused_with_its_line() {
        let r = row();
        for (from, to) in [
            (",win,25,,", ",win,,,"),
            (",win,25,,", ",win,25,3,"),
            ("b1:loss:20", "b1:lost:20"),
            (",16192,", ",lots,"),
            // winning_moves that move_values do not give
            (",a1:25,", ",a1:24,"),
        ] {
            let csv = header() + &r.line().replace(from, to);
            let e = read_rows(&csv).unwrap_err();
            assert_eq!(e.line, 2, "{from} -> {to}: {e}");
        }
        assert_eq!(read_rows("set,reading\n").unwrap_err().line, 1);
    }

    #[test]
    fn shard_names_read_back() {
        let p = ShardPart {
            index: 3,
            count: 12,
        };
        let (csv, json) = shard_names(p);
        assert_eq!(csv, "proved-3-of-12.csv");
        assert_eq!(shard_of_name(&csv), Some((p, false)));
        assert_eq!(shard_of_name(&json), Some((p, true)));
        assert_eq!(shard_of_name("proved-03-of-12.csv"), None);
        assert_eq!(shard_of_name("shard-3-of-12.json"), None);
    }
}
