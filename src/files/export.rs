//! The outputs as bytes: `summary.csv`, `games.csv`, `comparison.csv`,
//! the tournament's `ratings.csv`, `pairwise.csv` and `skill-trace.csv`,
//! `manifest.json` and the table `simulate` prints. `docs/OUTPUTS.md`
//! documents every column.
//!
//! Nothing here reads a clock or a file: the same aggregates give the same
//! bytes, so the CSV files of a run are identical whatever the thread count,
//! and the binary writes them (atomically) wherever it is told.

use serde::{Deserialize, Serialize};

use crate::experiment::ratings::{Estimate, PairRecord, VariantRatings, outcome_probabilities};
use crate::experiment::runner::{Cell, StoredRow, StoredStatus};
use crate::experiment::stats::{
    Aggregate, CellWarning, Difference, compare_advantage, compare_length, compare_win_rate, holm,
    wilson,
};
use crate::experiment::sweep::Skipped;
use crate::experiment::{Compare, Tournament};
use crate::rules::{Settings, setting_fields};

/// Decimal places of every float in the CSV files.
pub const DECIMALS: usize = 6;

/// A float with [`DECIMALS`] places; empty when undefined. `-0.000000` is
/// written `0.000000` so a tiny negative rounding never shows a sign.
pub fn float(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            let s = format!("{x:.DECIMALS$}");
            if s.trim_start_matches('-')
                .bytes()
                .all(|b| b == b'0' || b == b'.')
            {
                s.trim_start_matches('-').to_string()
            } else {
                s
            }
        }
        _ => String::new(),
    }
}

/// A p-value as the CSVs print it (docs/OUTPUTS.md, Conventions): as
/// [`float`] from 0.0001 up, and below it with 3 significant digits in
/// scientific notation (`3.50e-11`), so a tiny p-value never reads as an
/// exact 0.
pub fn p_value(v: Option<f64>) -> String {
    match v {
        Some(x) if x > 0.0 && x < 1e-4 => format!("{x:.2e}"),
        _ => float(v),
    }
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

fn csv_bytes<H: AsRef<[u8]>>(header: &[H], rows: impl IntoIterator<Item = Vec<String>>) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(header)
        .expect("writing to memory cannot fail");
    for r in rows {
        debug_assert_eq!(r.len(), header.len());
        w.write_record(&r).expect("writing to memory cannot fail");
    }
    w.into_inner().expect("writing to memory cannot fail")
}

/// The names of the setting columns: every variant has the same settings,
/// so the first cell's (or the canonical rules') names them all.
fn setting_names(cells: &[Cell]) -> Vec<String> {
    let settings = cells
        .first()
        .map_or_else(Settings::canonical, |c| c.rules.settings().clone());
    setting_fields(&settings)
        .into_iter()
        .map(|(k, _)| k)
        .collect()
}

fn setting_values(settings: &Settings) -> Vec<String> {
    setting_fields(settings)
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

/// `fixed` with the setting columns inserted after the column `after`.
fn with_settings(fixed: &[&str], after: &str, settings: &[String]) -> Vec<String> {
    let at = fixed.iter().position(|c| *c == after).map_or(0, |i| i + 1);
    let mut out: Vec<String> = fixed[..at].iter().map(|s| s.to_string()).collect();
    out.extend(settings.iter().cloned());
    out.extend(fixed[at..].iter().map(|s| s.to_string()));
    out
}

/// summary.csv's columns before and after the setting columns, which
/// follow `rules`.
pub const SUMMARY_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "p1",
    "p2",
    "opening_plies",
    "games",
    "distinct_games",
    "distinct_exact",
    "p1_wins",
    "p2_wins",
    "undecided_ply_limit",
    "undecided_endless_move",
    "undecided_lap_limit",
    "decided",
    "p1_win_rate",
    "p1_win_rate_low",
    "p1_win_rate_high",
    "advantage_p1",
    "balance",
    "completion",
    "length_mean",
    "length_sd",
    "length_min",
    "length_p10",
    "length_p50",
    "length_p90",
    "length_max",
    "laps_per_move",
    "max_laps_in_move",
    "captures_p1_per_game",
    "captures_p2_per_game",
    "seeds_captured_p1_per_game",
    "seeds_captured_p2_per_game",
    "branching",
    "choice_share",
    "seeds_sown_per_game",
];

/// summary.csv's header: [`SUMMARY_COLUMNS`] with the setting columns of
/// `cells` after `rules`.
pub fn summary_header(cells: &[Cell]) -> Vec<String> {
    with_settings(SUMMARY_COLUMNS, "rules", &setting_names(cells))
}

/// One row per cell, in the cells' order.
pub fn summary_csv(cells: &[Cell], aggregates: &[Aggregate]) -> Vec<u8> {
    let header = summary_header(cells);
    let rows = cells.iter().zip(aggregates).map(|(c, a)| {
        let w = a.p1_win_rate();
        let (distinct, exact) = a.distinct_games();
        let mut row = vec![c.rules.name().to_string(), c.rules.canonical_string()];
        row.extend(setting_values(c.rules.settings()));
        row.extend([
            c.p1.to_string(),
            c.p2.to_string(),
            c.opening_plies.to_string(),
            a.games.to_string(),
            distinct.to_string(),
            exact.to_string(),
            a.wins[0].to_string(),
            a.wins[1].to_string(),
            a.ply_limit.to_string(),
            a.endless_move.to_string(),
            a.lap_limit.to_string(),
            a.decided().to_string(),
            float(w.map(|w| w.estimate)),
            float(w.map(|w| w.low)),
            float(w.map(|w| w.high)),
            float(a.advantage_p1()),
            float(a.balance()),
            float(a.completion()),
            float(a.length_mean()),
            float(a.length_sd()),
            opt(a.plies_min),
            opt(a.length_percentile(10)),
            opt(a.length_percentile(50)),
            opt(a.length_percentile(90)),
            opt(a.plies_max),
            float(a.laps_per_move()),
            a.max_laps_in_move.to_string(),
            float(a.per_game(a.captures[0])),
            float(a.per_game(a.captures[1])),
            float(a.per_game(a.seeds_captured[0])),
            float(a.per_game(a.seeds_captured[1])),
            float(a.branching()),
            float(a.choice_share()),
            float(a.per_game(a.seeds_sown)),
        ]);
        row
    });
    csv_bytes(&header, rows)
}

/// games.csv's columns before and after the setting columns, which
/// follow `variant` (the settings include `ply_limit` and `lap_limit`,
/// which `katro replay` needs).
pub const GAMES_COLUMNS: &[&str] = &[
    "variant",
    "p1",
    "p2",
    "opening_plies",
    "game",
    "seed",
    "winner",
    "status",
    "plies",
    "captures_p1",
    "captures_p2",
    "seeds_captured_p1",
    "seeds_captured_p2",
    "laps",
    "max_laps_in_move",
    "seeds_sown",
    "legal_moves",
    "choice_turns",
    "hash",
];

/// One row per game, in the rows' order; with `moves`, a last column holds
/// the game's moves in RULES.md's notation, separated by spaces.
pub fn games_csv(cells: &[Cell], rows: &[StoredRow], moves: bool) -> Vec<u8> {
    let mut header = with_settings(GAMES_COLUMNS, "variant", &setting_names(cells));
    if moves {
        header.push("moves".to_string());
    }
    // Each cell's setting fields once, not once per game.
    let settings: Vec<Vec<String>> = cells
        .iter()
        .map(|c| setting_values(c.rules.settings()))
        .collect();
    // Every field that tells two cells apart, as in summary.csv.
    let labels: Vec<[String; 3]> = cells
        .iter()
        .map(|c| {
            [
                c.p1.to_string(),
                c.p2.to_string(),
                c.opening_plies.to_string(),
            ]
        })
        .collect();
    let out = rows.iter().map(|r| {
        let c = &cells[r.cell];
        let mut row = vec![c.rules.name().to_string()];
        // The limits the game was played under, the experiment's overrides
        // applied, are among the settings: `katro replay` needs them to
        // reproduce the status of a game they stopped.
        row.extend(settings[r.cell].iter().cloned());
        row.extend([
            labels[r.cell][0].clone(),
            labels[r.cell][1].clone(),
            labels[r.cell][2].clone(),
            r.game.to_string(),
            r.seed.to_string(),
            opt(r.winner),
            r.status.name().to_string(),
            r.plies.to_string(),
            r.captures[0].to_string(),
            r.captures[1].to_string(),
            r.seeds_captured[0].to_string(),
            r.seeds_captured[1].to_string(),
            r.laps.to_string(),
            r.max_laps_in_move.to_string(),
            r.seeds_sown.to_string(),
            r.legal_moves.to_string(),
            r.choice_turns.to_string(),
            format!("{:016x}", r.hash),
        ]);
        if moves {
            row.push(r.moves.clone());
        }
        row
    });
    csv_bytes(&header, out)
}

/// The fields of a games.csv row that [`read_games_csv`] reads; the
/// setting columns, which repeat the cell's rules, are not read back.
#[derive(Deserialize)]
struct GamesCsvRow {
    variant: String,
    p1: String,
    p2: String,
    opening_plies: u32,
    game: u64,
    seed: u64,
    winner: Option<u8>,
    status: StoredStatus,
    plies: u32,
    captures_p1: u64,
    captures_p2: u64,
    seeds_captured_p1: u64,
    seeds_captured_p2: u64,
    laps: u64,
    max_laps_in_move: u64,
    seeds_sown: u64,
    legal_moves: u64,
    choice_turns: u64,
    hash: String,
    #[serde(default)]
    moves: String,
}

/// games.csv read back into the rows [`games_csv`] wrote: each row's cell
/// is the place of its (variant, p1, p2, opening_plies) in `cells`. A row
/// of no cell, a field that does not parse, or rows out of (cell, game)
/// order give an error naming the line; the caller checks the file is
/// the one katro wrote (run-state.json's `games_csv`).
pub fn read_games_csv(
    bytes: &[u8],
    cells: &[(&str, &str, &str, u32)],
) -> Result<Vec<StoredRow>, String> {
    let mut r = csv::Reader::from_reader(bytes);
    let mut out: Vec<StoredRow> = Vec::new();
    for (i, rec) in r.deserialize::<GamesCsvRow>().enumerate() {
        let line = i + 2;
        let g = rec.map_err(|e| format!("games.csv line {line}: {e}"))?;
        let key = (
            g.variant.as_str(),
            g.p1.as_str(),
            g.p2.as_str(),
            g.opening_plies,
        );
        let cell = cells.iter().position(|c| *c == key).ok_or_else(|| {
            format!(
                "games.csv line {line}: no cell of variant `{}`, {} vs {}, opening_plies {}",
                g.variant, g.p1, g.p2, g.opening_plies
            )
        })?;
        if out
            .last()
            .is_some_and(|p| (p.cell, p.game) >= (cell, g.game))
        {
            return Err(format!(
                "games.csv line {line}: game {} is out of (cell, game) order",
                g.game
            ));
        }
        let hash = u64::from_str_radix(&g.hash, 16)
            .ok()
            .filter(|_| g.hash.len() == 16)
            .ok_or_else(|| {
                format!(
                    "games.csv line {line}: `hash` {:?} is not 16 hex digits",
                    g.hash
                )
            })?;
        out.push(StoredRow {
            cell,
            game: g.game,
            seed: g.seed,
            status: g.status,
            winner: g.winner,
            plies: g.plies,
            laps: g.laps,
            max_laps_in_move: g.max_laps_in_move,
            captures: [g.captures_p1, g.captures_p2],
            seeds_captured: [g.seeds_captured_p1, g.seeds_captured_p2],
            seeds_sown: g.seeds_sown,
            legal_moves: g.legal_moves,
            choice_turns: g.choice_turns,
            hash,
            moves: g.moves,
        });
    }
    Ok(out)
}

pub const COMPARISON_COLUMNS: &[&str] = &[
    "p1",
    "p2",
    "opening_plies",
    "variant",
    "baseline",
    "games",
    "baseline_games",
    "decided",
    "baseline_decided",
    "p1_win_rate",
    "baseline_p1_win_rate",
    "win_rate_diff",
    "win_rate_diff_low",
    "win_rate_diff_high",
    "win_rate_p_value",
    "win_rate_p_holm",
    "advantage_p1",
    "baseline_advantage_p1",
    "advantage_diff",
    "advantage_diff_low",
    "advantage_diff_high",
    "advantage_p_value",
    "advantage_p_holm",
    "length_mean",
    "baseline_length_mean",
    "length_diff",
    "length_diff_low",
    "length_diff_high",
    "length_p_value",
    "length_p_holm",
];

fn diff_fields(d: Option<Difference>) -> [String; 4] {
    [
        float(d.map(|d| d.diff)),
        float(d.map(|d| d.low)),
        float(d.map(|d| d.high)),
        p_value(d.map(|d| d.p_value)),
    ]
}

/// The (compared, baseline) pairs of cell indices, in summary.csv's order
/// of the compared cell, then of the baseline.
pub fn comparison_pairs(cells: &[Cell], compare: &Compare) -> Vec<(usize, usize)> {
    let labels: Vec<String> = cells.iter().map(Cell::matchup_label).collect();
    let mut pairs = Vec::new();
    for i in 0..cells.len() {
        let same = |j: &usize| labels[*j] == labels[i];
        match compare {
            Compare::AllPairs => pairs.extend((0..i).filter(same).map(|j| (i, j))),
            Compare::Baseline(name) => {
                let base = (0..cells.len()).filter(same).find(|&j| match name {
                    Some(n) => cells[j].rules.name() == *n,
                    None => true,
                });
                if let Some(j) = base.filter(|&j| j != i) {
                    pairs.push((i, j));
                }
            }
        }
    }
    pairs
}

/// The compared cells against their baselines (see [`Compare`]); `None`
/// when there is no pair. Each metric's p-values are also Holm-adjusted
/// over all the rows of the file (the family: every comparison of that
/// metric in the file with a defined p-value).
pub fn comparison_csv(
    cells: &[Cell],
    aggregates: &[Aggregate],
    compare: &Compare,
) -> Option<Vec<u8>> {
    let pairs = comparison_pairs(cells, compare);
    if pairs.is_empty() {
        return None;
    }
    type Metric = fn(&Aggregate, &Aggregate) -> Option<Difference>;
    let metrics: [Metric; 3] = [compare_win_rate, compare_advantage, compare_length];
    let diffs: Vec<[Option<Difference>; 3]> = pairs
        .iter()
        .map(|&(i, j)| metrics.map(|m| m(&aggregates[i], &aggregates[j])))
        .collect();
    let holms: Vec<Vec<Option<f64>>> = (0..3)
        .map(|k| {
            holm(
                &diffs
                    .iter()
                    .map(|d| d[k].map(|d| d.p_value))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let rows = pairs.iter().enumerate().map(|(r, &(i, j))| {
        let (c, base) = (&cells[i], &cells[j]);
        let (a, b) = (&aggregates[i], &aggregates[j]);
        let rate = |x: &Aggregate| float(x.p1_win_rate().map(|w| w.estimate));
        let mut row = vec![
            c.p1.to_string(),
            c.p2.to_string(),
            c.opening_plies.to_string(),
            c.rules.name().to_string(),
            base.rules.name().to_string(),
            a.games.to_string(),
            b.games.to_string(),
            a.decided().to_string(),
            b.decided().to_string(),
        ];
        let pair = [
            [rate(a), rate(b)],
            [float(a.advantage_p1()), float(b.advantage_p1())],
            [float(a.length_mean()), float(b.length_mean())],
        ];
        for (k, values) in pair.into_iter().enumerate() {
            row.extend(values);
            row.extend(diff_fields(diffs[r][k]));
            row.push(p_value(holms[k][r]));
        }
        row
    });
    Some(csv_bytes(COMPARISON_COLUMNS, rows))
}

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
            .map(|(c, a)| {
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
            })
            .collect();
        (variants, cells)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(self).expect("the manifest serialises");
        out.push(b'\n');
        out
    }
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

/// The summary as an aligned text table for a terminal, followed by the
/// cells' warnings. A cell with a warning is marked in the `notes` column.
/// The `opening` column shows only when some cell has opening plies.
pub fn summary_table(cells: &[Cell], aggregates: &[Aggregate]) -> String {
    let opening = cells.iter().any(|c| c.opening_plies > 0);
    let mut header = vec!["variant", "p1", "p2"];
    if opening {
        header.push("opening");
    }
    header.extend([
        "games",
        "distinct",
        "p1 wins",
        "p2 wins",
        "undecided",
        "p1 win rate [95% CI]",
        "advantage_p1",
        "length mean",
        "p10/p50/p90",
        "notes",
    ]);
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    let mut notes = String::new();
    for (c, a) in cells.iter().zip(aggregates) {
        let rate = match a.p1_win_rate() {
            Some(w) => format!("{:.3} [{:.3}, {:.3}]", w.estimate, w.low, w.high),
            None => "-".into(),
        };
        let pct = |q| opt(a.length_percentile(q));
        let (distinct, exact) = a.distinct_games();
        let warnings = a.warnings();
        let mut row = vec![
            c.rules.name().to_string(),
            c.p1.to_string(),
            c.p2.to_string(),
        ];
        if opening {
            row.push(c.opening_plies.to_string());
        }
        row.extend([
            a.games.to_string(),
            // `~` marks the sketch's estimate.
            if exact {
                distinct.to_string()
            } else {
                format!("~{distinct}")
            },
            a.wins[0].to_string(),
            a.wins[1].to_string(),
            a.undecided().to_string(),
            rate,
            a.advantage_p1().map_or("-".into(), |v| format!("{v:.3}")),
            a.length_mean().map_or("-".into(), |v| format!("{v:.1}")),
            format!("{}/{}/{}", pct(10), pct(50), pct(90)),
            warnings
                .iter()
                .map(|w| w.kind)
                .collect::<Vec<_>>()
                .join(", "),
        ]);
        rows.push(row);
        for w in warnings {
            let open = match c.opening_plies {
                0 => String::new(),
                n => format!(
                    ", {}",
                    crate::engine::notation::plural(n, "opening ply", "opening plies")
                ),
            };
            notes.push_str(&format!(
                "warning: {}, {} vs {}{open}: {}\n",
                c.rules.name(),
                c.p1,
                c.p2,
                w.message
            ));
        }
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let last = header.len() - 1;
    let mut out = String::new();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (v, &w))| {
                // Names and notes left-aligned, numbers right-aligned.
                if i < 3 || i == last {
                    format!("{v:<w$}")
                } else {
                    format!("{v:>w$}")
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    out
}

/// This build's identity, `src-` and 16 hex digits: a hash of the sources
/// the engine and runner are built from (see `build.rs`). Two builds with
/// the same identity play the same games; the crate version cannot say so.
pub const BUILD: &str = env!("KATRO_BUILD");

/// What a file written before build identities existed is taken to carry.
pub const UNKNOWN_BUILD: &str = "unknown";

fn unknown_build() -> String {
    UNKNOWN_BUILD.to_string()
}

/// Who played a run and of which experiment: the one header a checkpoint,
/// a shard, `run-state.json` and `manifest.json` all carry, flattened
/// into each, so a folder check reads any of them the same way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    pub katro_version: String,
    /// The build that wrote the file (see [`BUILD`]).
    #[serde(default = "unknown_build")]
    pub katro_build: String,
    /// Other builds that played some of the games (a checkpoint resumed or
    /// shards merged with `--allow-other-build`); empty when only
    /// `katro_build` did.
    #[serde(default)]
    pub other_builds: Vec<String>,
    /// The experiment's fingerprint (see `experiment::fingerprint`); empty in a
    /// manifest written before fingerprints.
    #[serde(default)]
    pub experiment_hash: String,
    pub name: String,
}

impl RunHeader {
    /// This build's header for experiment `name` of fingerprint `hash`.
    pub fn new(hash: &str, name: &str, other_builds: Vec<String>) -> RunHeader {
        RunHeader {
            katro_version: env!("CARGO_PKG_VERSION").to_string(),
            katro_build: BUILD.to_string(),
            other_builds,
            experiment_hash: hash.to_string(),
            name: name.to_string(),
        }
    }

    /// Every build that played the games.
    pub fn builds(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.katro_build.as_str())
            .chain(self.other_builds.iter().map(String::as_str))
    }
}

/// ratings.csv's columns (docs/OUTPUTS.md).
pub const RATINGS_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "opening_plies",
    "level",
    "agent",
    "rating",
    "rating_low",
    "rating_high",
    "games",
    "wins",
    "losses",
    "undecided",
    "score",
    "first_move_advantage",
    "first_move_advantage_low",
    "first_move_advantage_high",
    "draw_elo",
    "draw_elo_low",
    "draw_elo_high",
];

/// A share of `games` with its parts: (wins + undecided / 2) / games.
fn score(wins: u64, undecided: u64, games: u64) -> Option<f64> {
    (games > 0).then(|| (wins as f64 + undecided as f64 / 2.0) / games as f64)
}

/// ratings.csv: one row per variant and agent, agents in the tournament's
/// order; the variant's first-move advantage and draw term on every row.
/// A variant whose fit failed has its rating columns empty.
pub fn ratings_csv(t: &Tournament, rated: &[VariantRatings]) -> Vec<u8> {
    let mut rows = Vec::new();
    for v in rated {
        let fit = v.fit.as_ref().ok();
        let est = |e: Option<&Estimate>| {
            [
                float(e.map(|e| e.value)),
                float(e.map(|e| e.low())),
                float(e.map(|e| e.high())),
            ]
        };
        for (i, a) in t.agents.iter().enumerate() {
            let (w, l, u) = v.record(i);
            let mut row = vec![
                v.rules.name().to_string(),
                v.rules.canonical_string(),
                t.opening_plies.to_string(),
                (i + 1).to_string(),
                a.to_string(),
            ];
            row.extend(est(fit.map(|f| &f.ratings[i])));
            row.extend([
                (w + l + u).to_string(),
                w.to_string(),
                l.to_string(),
                u.to_string(),
                float(score(w, u, w + l + u)),
            ]);
            row.extend(est(fit.map(|f| &f.advantage)));
            row.extend(est(fit.and_then(|f| f.draw.as_ref())));
            rows.push(row);
        }
    }
    csv_bytes(RATINGS_COLUMNS, rows)
}

/// pairwise.csv's columns; skill-trace.csv has these with `level` before
/// `agent` (docs/OUTPUTS.md).
pub const PAIRWISE_COLUMNS: &[&str] = &[
    "variant",
    "rules",
    "opening_plies",
    "agent",
    "opponent",
    "games",
    "wins",
    "losses",
    "undecided",
    "win_rate",
    "win_rate_low",
    "win_rate_high",
    "score",
    "model_score",
    "games_first",
    "wins_first",
    "games_second",
    "wins_second",
];

fn pair_row(t: &Tournament, v: &VariantRatings, p: &PairRecord) -> Vec<String> {
    let games = p.games();
    let rate = wilson(p.wins(), games);
    // The fit's expected score over the games as they were seated.
    let model = v.fit.as_ref().ok().filter(|_| games > 0).map(|f| {
        let r = |i: usize| f.ratings[i].value;
        let d = f.draw.map_or(0.0, |d| d.value);
        let a = f.advantage.value;
        let [w1, _, u1] = outcome_probabilities(r(p.agent), r(p.opponent), a, d);
        let [_, l2, u2] = outcome_probabilities(r(p.opponent), r(p.agent), a, d);
        let (n1, n2) = (p.as_first.games() as f64, p.as_second.games() as f64);
        (n1 * (w1 + u1 / 2.0) + n2 * (l2 + u2 / 2.0)) / (n1 + n2)
    });
    vec![
        v.rules.name().to_string(),
        v.rules.canonical_string(),
        t.opening_plies.to_string(),
        t.agents[p.agent].to_string(),
        t.agents[p.opponent].to_string(),
        games.to_string(),
        p.wins().to_string(),
        p.losses().to_string(),
        p.undecided().to_string(),
        float(rate.map(|r| r.estimate)),
        float(rate.map(|r| r.low)),
        float(rate.map(|r| r.high)),
        float(score(p.wins(), p.undecided(), games)),
        float(model),
        p.as_first.games().to_string(),
        p.as_first.first_wins.to_string(),
        p.as_second.games().to_string(),
        p.as_second.second_wins.to_string(),
    ]
}

/// pairwise.csv: every pair of agents once per variant, from the
/// later-listed agent's side.
pub fn pairwise_csv(t: &Tournament, rated: &[VariantRatings]) -> Vec<u8> {
    let rows = rated
        .iter()
        .flat_map(|v| v.pairs.iter().map(move |p| pair_row(t, v, p)));
    csv_bytes(PAIRWISE_COLUMNS, rows)
}

/// skill-trace.csv: each agent against the one listed just before it
/// (Ludii's SkillTrace, level by level), with its `level` (2 for the
/// second agent listed).
pub fn skill_trace_csv(t: &Tournament, rated: &[VariantRatings]) -> Vec<u8> {
    let header = with_settings(PAIRWISE_COLUMNS, "opening_plies", &["level".to_string()]);
    let rows = rated.iter().flat_map(|v| {
        v.pairs
            .iter()
            .filter(|p| p.agent == p.opponent + 1)
            .map(move |p| {
                let mut row = pair_row(t, v, p);
                row.insert(3, (p.agent + 1).to_string());
                row
            })
    });
    csv_bytes(&header, rows)
}

/// The tournament's ratings as `katro run` prints them after the summary:
/// per variant, each agent's rating with its interval, then the
/// first-move advantage and draw term.
pub fn ratings_table(t: &Tournament, rated: &[VariantRatings]) -> String {
    let mut out = String::new();
    let anchor = &t.agents[t.anchor];
    for v in rated {
        let f = match &v.fit {
            Ok(f) => f,
            Err(e) => {
                out.push_str(&format!(
                    "\nratings on {}: cannot be fitted: {e}; ratings.csv leaves them empty\n",
                    v.rules.name()
                ));
                continue;
            }
        };
        out.push_str(&format!(
            "\nratings on {} (Elo, {anchor} = 0, 95% intervals):\n",
            v.rules.name()
        ));
        let width = t
            .agents
            .iter()
            .map(|a| a.to_string().len())
            .max()
            .unwrap_or(0);
        for (i, a) in t.agents.iter().enumerate() {
            let (w, l, u) = v.record(i);
            let r = &f.ratings[i];
            out.push_str(&format!(
                "  {:>2}  {:<width$}  {:>7.0} [{:.0}, {:.0}]  {} games, score {}\n",
                i + 1,
                a.to_string(),
                r.value,
                r.low(),
                r.high(),
                w + l + u,
                score(w, u, w + l + u).map_or("-".into(), |s| format!("{s:.3}")),
            ));
        }
        let a = &f.advantage;
        out.push_str(&format!(
            "  first-move advantage {:.0} [{:.0}, {:.0}]",
            a.value,
            a.low(),
            a.high()
        ));
        match &f.draw {
            Some(d) => out.push_str(&format!(
                ", draw term {:.0} [{:.0}, {:.0}]\n",
                d.value,
                d.low(),
                d.high()
            )),
            None => out.push_str(", no undecided games\n"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::engine::{Player, Status};
    use crate::experiment::runner::GameRow;
    use crate::experiment::stats::GameRecord;
    use crate::rules::preset;

    fn rec(status: Status, plies: u32, cap: [u64; 2], seeds: [u64; 2]) -> GameRecord {
        GameRecord {
            status,
            plies,
            laps: 2 * plies as u64,
            max_laps_in_move: plies as u64 / 2,
            captures: cap,
            seeds_captured: seeds,
            seeds_sown: 5 * plies as u64,
            legal_moves: 3 * plies as u64,
            choice_turns: plies as u64 / 2,
            hash: crate::rng::mix64(plies as u64 ^ cap[0] << 32),
        }
    }

    #[test]
    fn floats_have_fixed_places_and_no_negative_zero() {
        assert_eq!(float(Some(0.5)), "0.500000");
        assert_eq!(float(Some(2.0 / 3.0)), "0.666667");
        assert_eq!(float(Some(-1e-9)), "0.000000");
        assert_eq!(float(Some(-0.25)), "-0.250000");
        assert_eq!(float(None), "");
        assert_eq!(float(Some(f64::NAN)), "");
    }

    #[test]
    fn tiny_p_values_are_not_printed_as_zero() {
        assert_eq!(p_value(Some(0.5)), "0.500000");
        assert_eq!(p_value(Some(0.0001)), "0.000100");
        assert_eq!(p_value(Some(0.0000996)), "9.96e-5");
        assert_eq!(p_value(Some(1.234e-12)), "1.23e-12");
        assert_eq!(p_value(Some(0.0)), "0.000000");
        assert_eq!(p_value(None), "");
        // In comparison.csv: 40 games of lengths 10, 30, 10, … (mean 20,
        // variance 4000/39) against 40 of 25, 45, …: diff 15, se =
        // √(2 · 102.564 / 40) = 2.264554, z = 6.623821, p = erfc(z / √2) =
        // 3.500314e-11 (by hand, Python's math.erfc), once printed 0.000000.
        let lengths = |first: u32| {
            let mut a = Aggregate::new();
            for g in 0..40 {
                a.add(&rec(
                    Status::Won(Player::South),
                    first + 20 * (g % 2),
                    [0, 0],
                    [0, 0],
                ));
            }
            a
        };
        let (r4, r6) = (preset("katro-4x4").unwrap(), preset("katro-6x3").unwrap());
        let random = [&AgentSpec::Random, &AgentSpec::Random];
        let cells = [cell(&r4, random, 0, 40), cell(&r6, random, 0, 40)];
        let csv = comparison_csv(&cells, &[lengths(10), lengths(25)], &Compare::default()).unwrap();
        let text = String::from_utf8(csv).unwrap();
        let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
        let at = |name: &str| row[COMPARISON_COLUMNS.iter().position(|c| *c == name).unwrap()];
        assert_eq!(at("length_diff"), "15.000000");
        assert_eq!(at("length_p_value"), "3.50e-11");
        assert_eq!(at("length_p_holm"), "3.50e-11");
    }

    #[test]
    fn timestamps_are_utc_dates() {
        assert_eq!(utc_timestamp(0, 0), "1970-01-01T00:00:00.000Z");
        // 2000-02-29 is 11016 days after the epoch: 11016 × 86400.
        assert_eq!(utc_timestamp(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(
            utc_timestamp(1_700_000_000, 999),
            "2023-11-14T22:13:20.999Z"
        );
    }

    /// Four games of katro-4x4, random vs greedy, values chosen by hand:
    /// lengths 10, 20, 30, 40; South wins twice, North once, one ply limit.
    fn fixture() -> (crate::Rules, Aggregate) {
        let rules = preset("katro-4x4").unwrap();
        let mut a = Aggregate::new();
        a.add(&rec(Status::Won(Player::South), 10, [1, 0], [4, 0]));
        a.add(&rec(Status::Won(Player::North), 20, [0, 2], [0, 6]));
        a.add(&rec(Status::Won(Player::South), 30, [3, 1], [9, 2]));
        a.add(&rec(Status::PlyLimit, 40, [2, 2], [5, 5]));
        (rules, a)
    }

    fn cell<'a>(rules: &'a crate::Rules, p: [&'a AgentSpec; 2], open: u32, games: u64) -> Cell<'a> {
        Cell {
            rules,
            p1: p[0],
            p2: p[1],
            opening_plies: open,
            stop: crate::experiment::runner::Stop::Games(games),
        }
    }

    /// Two games of 50 plies, both stopped by the ply limit, with the same
    /// moves: nothing decided, one distinct game.
    fn undecided() -> Aggregate {
        let mut a = Aggregate::new();
        for _ in 0..2 {
            a.add(&rec(Status::PlyLimit, 50, [0, 0], [0, 0]));
        }
        a
    }

    /// The rule settings of the presets used here after the board keys, as
    /// written by hand from the canonical rules (docs/RULES.md).
    const SETTING_NAMES: &str = "start,singletons,direction,backward_circuit,relay,\
        capture_trigger,capturing_row,victim,min_victim_seeds,min_victim_seeds_after_empty,\
        empty_landing_refusal,lone_seed,lone_seed_step,step_sowing,game_end,endless_move,\
        ply_limit,lap_limit";
    const RULES_DEFAULT: &str = "outermost-non-empty,allowed,forward,reversed,occupied,\
        occupied,innermost-non-empty,innermost-row,1,1,below-minimum,none,always,forward,\
        opponent-empty,undecided,5000,10000000";

    #[test]
    fn setting_fields_follow_the_settings_and_write_layouts_like_the_rules_string() {
        let rules = crate::rules::parse_variant(
            "t.toml",
            "name = \"t\"\n[board]\nrows = 2\nholes = 3\nlayout = [[1, 3, 0], [0, 1, 12]]\n\
             [rules]\nply_limit = 77\n",
            "t",
        )
        .unwrap();
        let fields = setting_fields(rules.settings());
        let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names.join(","),
            format!("rows,holes,seeds,layout,{SETTING_NAMES}")
        );
        let values: Vec<&str> = fields.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(&values[..4], ["2", "3", "", "1.3.0/0.1.12"]);
        assert_eq!(
            values[names.iter().position(|&n| n == "ply_limit").unwrap()],
            "77"
        );
        assert!(
            rules
                .canonical_string()
                .contains(&format!("layout={}", values[3]))
        );
    }

    #[test]
    fn summary_bytes_snapshot() {
        let (rules, a) = fixture();
        let other = preset("katro-6x3").unwrap();
        let cells = [
            cell(&rules, [&AgentSpec::Random, &AgentSpec::Greedy], 0, 4),
            cell(&other, [&AgentSpec::Greedy, &AgentSpec::Greedy], 4, 2),
        ];
        let got = String::from_utf8(summary_csv(&cells, &[a, undecided()])).unwrap();
        // By hand: 4 games with 4 move sequences; decided 3, p1 rate 2/3
        // with Wilson [0.207660, 0.938508]
        // (z² = 3.841459: centre (0.666667 + 0.640243) / 2.280486 =
        // 0.573084, half 0.859462 × √(0.074074 + 0.106707) = 0.365424);
        // advantage (2 + 0.5) / 4; balance 1 - 1/4; completion 3/4;
        // lengths mean 25, sd √(1666.67) = 12.909944, p10 → rank 1 → 10,
        // p50 → rank 2 → 20, p90 → rank 4 → 40; laps 200 / 100 plies = 2;
        // longest move 40 / 2 = 20; captures 6/4 and 5/4; seeds 18/4 and
        // 13/4; branching 300/100 = 3; choice turns (5+10+15+20)/100 = 0.5;
        // sown 500/4 = 125.
        let first = format!(
            "katro-4x4,\"{}\",4,4,2,,{RULES_DEFAULT},random,greedy,0,4,4,true,2,1,1,0,0,3,\
             0.666667,0.207660,0.938508,0.625000,0.750000,0.750000,\
             25.000000,12.909944,10,10,20,40,40,2.000000,20,\
             1.500000,1.250000,4.500000,3.250000,3.000000,0.500000,125.000000\n",
            rules.canonical_string()
        );
        // Nothing decided: the win rate, its interval, advantage_p1 and
        // balance are empty, completion 0; one distinct game of 2; laps
        // 200 / 100 plies, longest move 25, branching 300/100, choice
        // turns 50/100, sown 500/2.
        let second = format!(
            "katro-6x3,\"{}\",6,3,2,,{RULES_DEFAULT},greedy,greedy,4,2,1,true,0,0,2,0,0,0,\
             ,,,,,0.000000,\
             50.000000,0.000000,50,50,50,50,50,2.000000,25,\
             0.000000,0.000000,0.000000,0.000000,3.000000,0.500000,250.000000\n",
            other.canonical_string()
        );
        let header = SUMMARY_COLUMNS.join(",").replacen(
            "rules,",
            &format!("rules,rows,holes,seeds,layout,{SETTING_NAMES},"),
            1,
        );
        assert_eq!(got, format!("{header}\n{first}{second}"));
    }

    #[test]
    fn the_table_marks_cells_and_prints_their_warnings() {
        let (rules, a) = fixture();
        let cells = [cell(&rules, [&AgentSpec::Greedy, &AgentSpec::Greedy], 4, 2)];
        let table = summary_table(&cells, &[undecided()]);
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].contains("opening") && lines[0].ends_with("notes"));
        assert!(lines[1].ends_with("repeats, few-decided"), "{table}");
        assert!(
            lines[3].starts_with(
                "warning: katro-4x4, greedy vs greedy, 4 opening plies: only 1 distinct game in 2 (50.0%)"
            ),
            "{table}"
        );
        assert!(lines[4].contains("no game of 2 was decided"), "{table}");
        // No opening anywhere: no opening column; nothing to warn of but
        // few decided games.
        let cells = [Cell {
            opening_plies: 0,
            ..cells[0].clone()
        }];
        let table = summary_table(&cells, &[a]);
        assert!(!table.contains("opening"));
        assert!(
            table.lines().nth(1).unwrap().ends_with("  few-decided"),
            "{table}"
        );
        let (_, manifest_cells) = Manifest::describe(&cells, &[undecided()]);
        let kinds: Vec<&str> = manifest_cells[0].warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, ["repeats", "few-decided"]);
        assert_eq!(
            (
                manifest_cells[0].distinct_games,
                manifest_cells[0].distinct_exact
            ),
            (1, true)
        );
    }

    #[test]
    fn games_and_comparison_bytes_snapshot() {
        let (rules, a) = fixture();
        let other = preset("katro-6x3").unwrap();
        let mut b = Aggregate::new();
        for (s, len) in [
            (Status::Won(Player::North), 10),
            (Status::Won(Player::North), 10),
            (Status::Won(Player::South), 40),
            (Status::Won(Player::North), 40),
        ] {
            b.add(&rec(s, len, [0, 0], [0, 0]));
        }
        let random = [&AgentSpec::Random, &AgentSpec::Random];
        let cells = [cell(&rules, random, 3, 4), cell(&other, random, 3, 4)];
        let third = preset("katro-6x6").unwrap();
        let mut with_undecided = cells.to_vec();
        with_undecided.push(Cell {
            rules: &third,
            ..cells[0].clone()
        });
        let got = String::from_utf8(
            comparison_csv(
                &with_undecided,
                &[a.clone(), b.clone(), undecided()],
                &Compare::default(),
            )
            .unwrap(),
        )
        .unwrap();
        // By hand: win rates among decided games 1/4 against 2/3: diff
        // -0.416667, se = √(0.25·0.75/4 + (2/3)(1/3)/3) = 0.347777,
        // interval ±0.681631, z = 1.198087, p = 0.230884.
        // Advantage 0.25 (scores 0,0,1,0: variance 0.25) against
        // 0.625 (scores 1,0,1,½: mean 0.625, Σx² = 2.25, variance
        // (2.25 - 4·0.390625)/3 = 0.229167); diff -0.375, se =
        // √(0.0625 + 0.057292) = 0.346109, interval ±0.678362, z = 1.083473,
        // p = 0.278599. Lengths: mean 25 (variance 300) against 25
        // (variance 166.67): diff 0, se √(75 + 41.67) = 10.801234, ±21.170031,
        // p = 1.
        // Against a cell with no decided game the win-rate and advantage
        // fields are empty; lengths still compare: 50 (variance 0, 2 games)
        // against 25: diff 25, se √(166.67/4) = 6.454972, ±12.651513,
        // z = 3.872983, p = 0.000108 (0.00010751).
        // Holm: the win-rate and advantage families have one member each,
        // so the adjusted p is the raw one; lengths have two: 0.00010751 ×
        // 2 = 0.000215, and 1 × 1 = 1.
        let expected = format!(
            "{}\nrandom,random,3,katro-6x3,katro-4x4,4,4,4,3,0.250000,0.666667,\
             -0.416667,-1.098298,0.264964,0.230884,0.230884,0.250000,0.625000,\
             -0.375000,-1.053362,0.303362,0.278599,0.278599,25.000000,25.000000,\
             0.000000,-21.170031,21.170031,1.000000,1.000000\n\
             random,random,3,katro-6x6,katro-4x4,2,4,0,3,,0.666667,,,,,,,0.625000,,,,,,\
             50.000000,25.000000,25.000000,12.348487,37.651513,0.000108,0.000215\n",
            COMPARISON_COLUMNS.join(",")
        );
        assert_eq!(got, expected);
        assert!(comparison_csv(&cells[..1], &[a], &Compare::default()).is_none());
        // The pairs compared: all pairs, later against earlier; a named
        // baseline against every other variant.
        assert_eq!(
            comparison_pairs(&with_undecided, &Compare::AllPairs),
            [(1, 0), (2, 0), (2, 1)]
        );
        assert_eq!(
            comparison_pairs(
                &with_undecided,
                &Compare::Baseline(Some("katro-6x3".into()))
            ),
            [(0, 1), (2, 1)]
        );
        // Only the same matchup and opening is compared.
        let mut other_opening = with_undecided.clone();
        other_opening[2].opening_plies = 0;
        assert_eq!(
            comparison_pairs(&other_opening, &Compare::AllPairs),
            [(1, 0)]
        );

        let mut rec1 = rec(Status::Won(Player::North), 3, [0, 1], [0, 2]);
        rec1.laps = 7;
        let rows = [GameRow {
            cell: 1,
            game: 9,
            seed: 12345,
            record: rec1,
            moves: vec![
                crate::Move::sow(0, None),
                crate::Move::sow(other.hole_at(5, 2), None),
                crate::Move::sow(1, None),
            ],
        }];
        let stored: Vec<StoredRow> = rows.iter().map(|r| StoredRow::new(&cells, r)).collect();
        let got = String::from_utf8(games_csv(&cells, &stored, true)).unwrap();
        assert_eq!(
            got,
            format!(
                "{},moves\nkatro-6x3,6,3,2,,{RULES_DEFAULT},random,random,3,9,12345,2,won,3,0,1,0,2,7,1,\
                 15,9,1,{:016x},a1 c6 b1\n",
                GAMES_COLUMNS.join(",").replacen(
                    "variant,",
                    &format!("variant,rows,holes,seeds,layout,{SETTING_NAMES},"),
                    1
                ),
                crate::rng::mix64(3)
            )
        );
        // Read back, every field of the stored row comes back, the cell
        // found by its place.
        let keys: Vec<(String, String, String, u32)> = cells
            .iter()
            .map(|c| {
                (
                    c.rules.name().to_string(),
                    c.p1.to_string(),
                    c.p2.to_string(),
                    c.opening_plies,
                )
            })
            .collect();
        let keys: Vec<(&str, &str, &str, u32)> = keys
            .iter()
            .map(|(v, a, b, o)| (v.as_str(), a.as_str(), b.as_str(), *o))
            .collect();
        assert_eq!(read_games_csv(got.as_bytes(), &keys).unwrap(), stored);
        let no_moves = games_csv(&cells, &stored, false);
        let back = read_games_csv(&no_moves, &keys).unwrap();
        assert_eq!(back[0].moves, "");
        assert_eq!(back[0].hash, stored[0].hash);
        let bad = got.replace(&format!("{:016x}", crate::rng::mix64(3)), "12");
        let err = read_games_csv(bad.as_bytes(), &keys).unwrap_err();
        assert!(err.contains("line 2") && err.contains("hash"), "{err}");
    }
}
