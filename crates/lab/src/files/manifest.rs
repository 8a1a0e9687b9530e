//! manifest.json: everything about a run that is not a result
//! (docs/OUTPUTS.md). Timings live here and nowhere else.

use serde::{Deserialize, Serialize};

use super::header::RunHeader;
use crate::experiment::plan::Cell;
use crate::experiment::stats::{Aggregate, CellWarning};
use crate::experiment::sweep::Skipped;
use crate::rules::Settings;

/// Everything about a run that is not a result: what was asked, with what
/// program, when, and how fast. The only output holding timings.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// `katro_version`, `katro_build` (the build that wrote this
    /// manifest: `src-` and a hash of the sources the engine and runner
    /// were built from; `katro --version` prints it), `other_builds` (other
    /// builds that played some of these games, with `--allow-other-build`),
    /// `experiment_hash` (what decides the games and the outputs: a folder
    /// holding another one's results is not reused without `--force`) and
    /// `name`: the header checkpoints, shards and run-state.json carry too.
    #[serde(flatten)]
    pub run: RunHeader,
    /// The command line that made the run.
    pub command: Vec<String>,
    /// The experiment file; absent for `katro simulate`.
    pub experiment: Option<ExperimentSource>,
    pub master_seed: u64,
    pub variants: Vec<ManifestVariant>,
    pub cells: Vec<ManifestCell>,
    pub threads: usize,
    /// UTC, RFC 3339.
    pub start_time: String,
    pub end_time: String,
    pub wall_seconds: f64,
    pub games: u64,
    /// Games of the results that an earlier, interrupted run of the same
    /// command had played (read from its checkpoint).
    pub resumed_games: u64,
    /// Games of the results that were already in the folder, kept when
    /// the experiment grew (more games, tighter precision, new cells).
    pub kept_games: u64,
    pub games_per_second: f64,
    /// For `katro merge`: the shards merged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shards: Option<Vec<ManifestShard>>,
    /// Sweep combinations left out under `skip_invalid = true`, each with
    /// the variant parser's reasons; absent when none was.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_variants: Vec<Skipped>,
    /// Cells whose games mostly end undecided or sow very long moves
    /// (`runner::ending_warning`), one sentence each; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The files written next to this manifest.
    pub files: Vec<String>,
}

/// One shard of a merged run.
#[derive(Clone, Debug, Serialize)]
pub struct ManifestShard {
    /// `I/N`.
    pub shard: String,
    /// The build that played the shard.
    pub katro_build: String,
    pub threads: usize,
    pub start_time: String,
    pub end_time: String,
    pub wall_seconds: f64,
    /// Games the shard played, including a `[precision]` cell's games past
    /// its stop, which the merge leaves out.
    pub games: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExperimentSource {
    pub file: String,
    /// FNV-1a (64-bit) of the text's UTF-8 bytes, 16 hex digits.
    pub fnv1a64: String,
    pub text: String,
}

impl ExperimentSource {
    pub fn new(file: &str, text: &str) -> ExperimentSource {
        ExperimentSource {
            file: file.to_string(),
            fnv1a64: format!("{:016x}", crate::rng::name_hash(text)),
            text: text.to_string(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct ManifestVariant {
    pub name: String,
    pub rules: String,
    pub settings: Settings,
}

#[derive(Clone, Debug, Serialize)]
pub struct ManifestCell {
    pub variant: String,
    pub p1: String,
    pub p2: String,
    /// How the cell was to stop, e.g. `games=1000` or
    /// `precision:width=0.02,max_games=100000,checkpoint=1000`.
    pub stop: String,
    /// Random plies opening each game.
    pub opening_plies: u32,
    pub games: u64,
    /// As in summary.csv: exact, or the sketch's rounded estimate.
    pub distinct_games: u64,
    pub distinct_exact: bool,
    /// What a reader must know before trusting the cell's numbers (games
    /// that repeat, few decided games); empty when nothing.
    pub warnings: Vec<CellWarning>,
}

impl ManifestCell {
    /// Cell `c` as the manifest lists it, `a` its games.
    fn of(c: &Cell, a: &Aggregate) -> ManifestCell {
        let (distinct_games, distinct_exact) = a.distinct_games();
        ManifestCell {
            variant: c.rules.name().to_string(),
            p1: c.p1.to_string(),
            p2: c.p2.to_string(),
            stop: c.stop.to_string(),
            opening_plies: c.opening_plies,
            games: a.games,
            distinct_games,
            distinct_exact,
            warnings: a.warnings(),
        }
    }
}

impl Manifest {
    /// The parts of a manifest that come from the cells.
    pub fn describe(
        cells: &[Cell],
        aggregates: &[Aggregate],
    ) -> (Vec<ManifestVariant>, Vec<ManifestCell>) {
        let mut variants: Vec<ManifestVariant> = Vec::new();
        for c in cells {
            if !variants.iter().any(|v| v.name == c.rules.name()) {
                variants.push(ManifestVariant {
                    name: c.rules.name().to_string(),
                    rules: c.rules.canonical_string(),
                    settings: c.rules.settings().clone(),
                });
            }
        }
        let cells = cells
            .iter()
            .zip(aggregates)
            .map(|(c, a)| ManifestCell::of(c, a))
            .collect();
        (variants, cells)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(self).expect("the manifest serialises");
        out.push(b'\n');
        out
    }
}

/// A `manifest.json` read back, as every job reads one: the run header
/// every katro file carries, the experiment's text, the games, the files
/// written and the variants. Each field an older manifest may lack
/// defaults, so every manifest katro has written reads; fields no job
/// reads are not kept (a job that lists a file edits the JSON instead:
/// [`add_files`]).
#[derive(Clone, Debug, Deserialize)]
pub struct ManifestRead {
    #[serde(flatten)]
    pub run: RunHeader,
    #[serde(default)]
    pub experiment: Option<ExperimentSource>,
    #[serde(default)]
    pub games: u64,
    #[serde(default)]
    pub files: Vec<String>,
    #[serde(default)]
    pub variants: Vec<ManifestVariantRead>,
}

/// A `variants` entry read back: the settings as written (the variant
/// file's keys, null for a setting left out) and the rules string they
/// must give.
#[derive(Clone, Debug, Deserialize)]
pub struct ManifestVariantRead {
    pub name: String,
    #[serde(default)]
    pub rules: String,
    #[serde(default)]
    pub settings: Option<serde_json::Map<String, serde_json::Value>>,
}

impl ManifestRead {
    /// The manifest in `bytes`, or serde's reason it is not a katro one.
    pub fn parse(bytes: &[u8]) -> Result<ManifestRead, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// Whether the results were made from this very experiment text: the
    /// fingerprint leaves out what changes no game (the comparisons asked
    /// for, comments), which can still change the files.
    pub fn same_text(&self, source: &ExperimentSource) -> bool {
        self.experiment
            .as_ref()
            .is_some_and(|e| e.fnv1a64 == source.fnv1a64)
    }
}

/// The manifest `bytes` with `names` added to its `files` (those not
/// there yet), the rest as it was; `None` when nothing is to add or the
/// manifest has no `files` list to add to.
pub fn add_files(bytes: &[u8], names: &[&str]) -> Option<Vec<u8>> {
    let v = serde_json::from_slice::<serde_json::Value>(bytes).ok()?;
    let files = v.get("files")?.as_array()?;
    let mut new: Vec<&str> = Vec::new();
    for f in names {
        if !files.iter().any(|x| x.as_str() == Some(f)) && !new.contains(f) {
            new.push(f);
        }
    }
    if new.is_empty() {
        return None;
    }
    let out = append_files(std::str::from_utf8(bytes).ok()?, &new)?;
    let check = serde_json::from_str::<serde_json::Value>(&out).ok()?;
    let listed = check.get("files")?.as_array()?.len();
    (listed == files.len() + new.len()).then(|| out.into_bytes())
}

/// The manifest `text` with `new` at the end of its `files` list. The
/// names go in as text, so that the rest of the file keeps its bytes and
/// its key order (a `serde_json::Value` would write its keys sorted).
fn append_files(text: &str, new: &[&str]) -> Option<String> {
    let open = text.find("\n  \"files\": [")? + "\n  \"files\": [".len();
    let close = open + text[open..].find(']')?;
    let quoted: Vec<String> = new
        .iter()
        .map(|f| serde_json::to_string(f).expect("a name serialises"))
        .collect();
    let body = text[open..close].trim_end();
    let mut out = String::with_capacity(text.len() + 64);
    out.push_str(&text[..open]);
    if body.is_empty() {
        out.push_str(&format!("\n    {}\n  ", quoted.join(",\n    ")));
    } else {
        out.push_str(body);
        out.push_str(&format!(",\n    {}\n  ", quoted.join(",\n    ")));
    }
    out.push_str(&text[close..]);
    Some(out)
}

/// Seconds and milliseconds since the Unix epoch as RFC 3339 UTC,
/// `2026-11-29T17:29:28.123Z` (proleptic Gregorian calendar).
pub fn utc_timestamp(secs: u64, millis: u32) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod add_files_tests {
    use super::add_files;

    #[test]
    fn names_are_added_at_the_end_and_the_rest_keeps_its_bytes() {
        let m = "{\n  \"zeta\": 1,\n  \"files\": [\n    \"a.csv\"\n  ],\n  \"alpha\": []\n}\n";
        let out = String::from_utf8(add_files(m.as_bytes(), &["a.csv", "b.svg", "b.svg"]).unwrap())
            .unwrap();
        assert_eq!(
            out,
            "{\n  \"zeta\": 1,\n  \"files\": [\n    \"a.csv\",\n    \"b.svg\"\n  ],\n  \"alpha\": []\n}\n"
        );
        assert_eq!(add_files(out.as_bytes(), &["b.svg"]), None);
        let empty = "{\n  \"files\": [],\n  \"z\": 0\n}\n";
        let out = String::from_utf8(add_files(empty.as_bytes(), &["c"]).unwrap()).unwrap();
        assert_eq!(out, "{\n  \"files\": [\n    \"c\"\n  ],\n  \"z\": 0\n}\n");
    }
}
