//! `katro solve` and `katro solve-family` (docs/SOLVED.md): the library
//! solves, this reads and writes the files and prints.

use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

use katro::Rules;
use katro::engine::notation::move_name;
use katro::rules::{PRESETS, Settings, preset};
use katro::solve::{
    self, MAGIC, Phase, SolveError, SolveStats, Table, Threads, check_key, gib, move_values,
    solve_with_stats, upper_bound, upper_bound_bytes,
};
use serde::{Deserialize, Serialize};

use crate::output::{emit, load_variant};
use katro::jobs::Failure;
use katro::store::{FsStore, Store, describe};

/// `--max-memory` when not given.
pub const DEFAULT_MAX_GIB: f64 = 4.0;

fn max_bytes(gib: f64) -> Result<u64, Failure> {
    if !(gib.is_finite() && gib > 0.0 && gib <= 1024.0) {
        return Err(Failure::input(format!(
            "--max-memory: {gib} is not a size in GiB from above 0 to 1024"
        )));
    }
    Ok((gib * (1u64 << 30) as f64) as u64)
}

/// The process's peak resident memory in bytes, where the system says.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Prints progress to stderr at most once a second, and only once a
/// solve has run a second; asks the solver to stop once `max_seconds`
/// have passed (the library has no clock: this closure is the clock).
fn progress_printer(max_seconds: Option<f64>) -> impl FnMut(Phase, u64, u64) -> ControlFlow<()> {
    let start = Instant::now();
    let mut last = 0.0;
    move |phase, done, known| {
        let t = start.elapsed().as_secs_f64();
        if t >= 1.0 && t - last >= 1.0 {
            last = t;
            match phase {
                Phase::Explore => eprintln!(
                    "solve: {t:.0} s, exploring: {done} positions expanded, {known} found"
                ),
                Phase::Solve => {
                    eprintln!("solve: {t:.0} s, valuing: {done} of {known} positions settled")
                }
            }
        }
        if max_seconds.is_some_and(|m| t > m) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

fn check_seconds(max_seconds: Option<f64>) -> Result<(), Failure> {
    match max_seconds {
        Some(m) if !(m.is_finite() && m > 0.0) => Err(Failure::input(format!(
            "--max-seconds: {m} is not a number of seconds above 0"
        ))),
        _ => Ok(()),
    }
}

/// A refusal by memory is the request's limit (exit 2); a stop at the time
/// cap is a run that could not finish (exit 1).
fn solve_failure(variant: &str, e: SolveError, max_seconds: Option<f64>) -> Failure {
    match e {
        SolveError::Stopped { .. } => Failure {
            code: 1,
            message: format!(
                "{variant}: {e}, at the --max-seconds limit of {} s",
                max_seconds.unwrap_or_default()
            ),
        },
        e => Failure::input(format!("{variant}: {e}")),
    }
}

/// Refuses an `--out` file katro did not write, and an unwritable folder,
/// before any work.
fn check_out(out: &Path) -> Result<(), Failure> {
    if out.is_dir() {
        return Err(Failure::input(format!(
            "--out {}: is a folder; give a file name",
            out.display()
        )));
    }
    if out.exists() {
        let head = FsStore
            .read_start(out, MAGIC.len() as u64)
            .map_err(|e| Failure::input(format!("--out {}: cannot read it: {e}", out.display())))?;
        if head != MAGIC {
            return Err(Failure::input(format!(
                "--out {}: the file exists and is not a table katro wrote; \
                 katro overwrites only its own tables: remove it or choose another name",
                out.display()
            )));
        }
    }
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    FsStore.check_writable(dir).map_err(|e| {
        Failure::input(format!(
            "--out {}: cannot write in {}: {}",
            out.display(),
            dir.display(),
            describe(&e)
        ))
    })
}

fn write_table(out: &Path, table: &Table) -> Result<u64, Failure> {
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = out
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| Failure::input(format!("--out {}: not a file name", out.display())))?;
    let bytes = table.to_bytes();
    FsStore
        .write_atomic(dir, name, &bytes)
        .map_err(|e| Failure {
            code: 1,
            message: format!("cannot write {}: {}", out.display(), describe(&e)),
        })?;
    Ok(bytes.len() as u64)
}

/// Runs `f` on a pool of `threads` threads (all cores if `None`), where
/// the solver's exploration runs.
pub fn with_threads(
    threads: Option<u32>,
    f: impl FnOnce() -> Result<(), Failure> + Send,
) -> Result<(), Failure> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0) as usize)
        .build()
        .map_err(|e| Failure {
            code: 1,
            message: format!("cannot start the solver's threads: {e}"),
        })?;
    pool.install(f)
}

/// `katro solve VARIANT [--out FILE] [--max-memory GiB] [--max-seconds S]
/// [--threads N]`.
pub fn solve_command(
    variant: &str,
    out: Option<&str>,
    max_gib: f64,
    max_seconds: Option<f64>,
) -> Result<(), Failure> {
    let rules = load_variant(variant)?;
    let max = max_bytes(max_gib)?;
    check_seconds(max_seconds)?;
    check_key(&rules).map_err(|e| Failure::input(format!("{variant}: {e}")))?;
    if let Some(out) = out {
        check_out(Path::new(out))?;
    }
    // The refusal comes from what exploring finds (docs/SOLVED.md, "What
    // is solved"), so say at once what the board could need at most.
    eprintln!(
        "solve: {variant}: upper bound {} positions, {} at most; exploring the \
         reachable ones, refused as soon as those found need more than {} (--max-memory)",
        upper_bound(&rules),
        gib(upper_bound_bytes(&rules)),
        gib(max as u128)
    );
    let t0 = Instant::now();
    let (table, stats) = solve_with_stats(
        &rules,
        max,
        Threads::Pool,
        &mut progress_printer(max_seconds),
    )
    .map_err(|e| solve_failure(variant, e, max_seconds))?;
    let seconds = t0.elapsed().as_secs_f64();
    let mut text = report(&rules, &table, &stats, seconds);
    if let Some(out) = out {
        let n = write_table(Path::new(out), &table)?;
        text.push_str(&format!("table: {out} ({n} bytes)\n"));
    }
    emit(&text)
}

fn report(rules: &Rules, table: &Table, stats: &SolveStats, seconds: f64) -> String {
    let start = rules.start();
    let v = table
        .value(rules, &start)
        .expect("the start is in its own table");
    let s = rules.settings();
    let mut t = String::new();
    t.push_str(&format!(
        "variant: {}\nrules: {}\n",
        rules.name(),
        table.rules
    ));
    t.push_str(&format!(
        "board: {}×{}, {} seeds\n",
        s.rows,
        s.holes,
        rules.total_seeds()
    ));
    t.push_str(
        "ply limit: ignored (a game that never ends is a draw by infinite play; \
         distances count decisions)\n",
    );
    t.push_str(&format!(
        "start: {} for player 1 (South, to move)\n",
        match v {
            solve::Value::Win(d) => format!("win in {d}"),
            solve::Value::Loss(d) => format!("loss in {d}"),
            solve::Value::Draw => "draw".into(),
        }
    ));
    t.push_str("first moves (value for player 1):\n");
    for (mv, value) in move_values(table, rules, &start) {
        let value = value.map_or("not in the table".to_string(), |v| v.to_string());
        t.push_str(&format!("  {:<6} {value}\n", move_name(rules, mv)));
    }
    t.push_str(&format!(
        "longest forced win: {} decisions (the longest fastest win of any position)\n",
        table.longest_win()
    ));
    t.push_str(&format!(
        "positions: {} reachable from the start ({} moves); upper bound {}\n",
        table.len(),
        stats.moves,
        upper_bound(rules)
    ));
    t.push_str(&format!("time: {seconds:.2} s\n"));
    t.push_str(&format!(
        "memory: solver arrays {} at their peak; process peak {}\n",
        mib(stats.peak_bytes),
        peak_rss().map_or("unknown".into(), mib)
    ));
    t
}

/// The readings the family is solved under: the rules of each preset,
/// one per distinct rule set, named by the first preset that has it.
fn readings() -> Vec<(String, Settings)> {
    let mut out: Vec<(String, Settings)> = Vec::new();
    for (name, _) in PRESETS {
        let s = preset(name)
            .expect("listed presets exist")
            .settings()
            .clone();
        let rules_only = |s: &Settings| {
            let mut s = s.clone();
            s.rows = 0;
            s.holes = 0;
            s.seeds = None;
            s.layout = None;
            s
        };
        if !out.iter().any(|(_, o)| rules_only(o) == rules_only(&s)) {
            let label = if rules_only(&s) == rules_only(&Settings::canonical()) {
                "canonical".to_string()
            } else {
                name.to_string()
            };
            out.push((label, s));
        }
    }
    out
}

/// solved.csv's header; `OLD_HEADERS` are those of earlier katro builds,
/// files this command wrote and may replace.
const HEADER: &str = "reading,rules,rows,holes,seeds,status,value,start_distance,longest_win,\
                      positions,moves,upper_bound,memory_bytes,positions_reached,\
                      positions_settled,memory_bytes_at_least,not_tried_because\n";
const OLD_HEADERS: [&str; 1] = [
    "reading,rules,rows,holes,seeds,status,value,start_distance,longest_win,\
     positions,moves,upper_bound,memory_bytes\n",
];

#[derive(Serialize, Deserialize)]
struct FamilyManifest {
    command: String,
    katro_build: String,
    max_memory_gib: f64,
    max_seconds: Option<f64>,
    /// False while the run is under way (or was killed): solved.csv then
    /// holds only the boards done so far.
    complete: bool,
    boards_total: usize,
    boards_done: usize,
    solved: usize,
    refused_memory: usize,
    stopped_time: usize,
    /// Boards whose seeds and holes do not fit a position key (absent
    /// from the manifests of builds before it, which resume as 0).
    #[serde(default)]
    refused_key: usize,
    not_tried: usize,
    /// Rows taken over from an earlier run of the same rules, memory and cap.
    resumed: usize,
    /// Threads exploring each board (they change the times, never a row;
    /// absent from the manifests of builds before it, which read as 0).
    #[serde(default)]
    threads: usize,
    /// Wall seconds of this invocation.
    seconds: f64,
    peak_rss_bytes: Option<u64>,
    boards: Vec<BoardTime>,
}

impl FamilyManifest {
    /// The boards by status, as the command reports them.
    fn tally(&self) -> String {
        format!(
            "{} solved, {} refused by memory, {} stopped at the time cap, {} not tried",
            self.solved, self.refused_memory, self.stopped_time, self.not_tried
        )
    }
}

#[derive(Clone, Serialize, Deserialize)]
struct BoardTime {
    reading: String,
    rows: usize,
    holes: usize,
    seeds: u16,
    status: String,
    seconds: f64,
}

/// An earlier run in the output directory with the same `--max-memory`
/// and `--max-seconds`.
#[derive(Default)]
struct Earlier {
    /// Its rows and times, to resume it; empty when there is none.
    rows: Vec<(String, BoardTime)>,
    /// Its solved.csv, when its manifest says it is complete.
    complete_csv: Option<String>,
}

fn earlier_run(dir: &Path, max_gib: f64, max_seconds: Option<f64>) -> Earlier {
    let manifest: Option<FamilyManifest> = std::fs::read(dir.join("manifest.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let Some(m) = manifest else {
        return Earlier::default();
    };
    if m.max_memory_gib != max_gib || m.max_seconds != max_seconds {
        return Earlier::default();
    }
    let Ok(csv) = std::fs::read_to_string(dir.join("solved.csv")) else {
        return Earlier::default();
    };
    if !csv.starts_with(HEADER) {
        return Earlier::default();
    }
    let mut out = Vec::new();
    for line in csv[HEADER.len()..].lines() {
        // A row is `reading,"rules",rows,holes,seeds,status,...`: the rules
        // string holds commas, so the fields after it are split from the end
        // of its closing quote.
        let Some(close) = line.rfind("\",") else {
            continue;
        };
        let reading = line.split(',').next().unwrap_or_default();
        let rest: Vec<&str> = line[close + 2..].split(',').collect();
        if rest.len() < 4 || rest[3] == "not-tried" {
            continue;
        }
        let found = m.boards.iter().find(|b| {
            b.reading == reading
                && b.rows.to_string() == rest[0]
                && b.holes.to_string() == rest[1]
                && b.seeds.to_string() == rest[2]
                && b.status == rest[3]
        });
        if let Some(b) = found {
            out.push((format!("{line}\n"), b.clone()));
        }
    }
    Earlier {
        rows: out,
        complete_csv: m.complete.then_some(csv),
    }
}

/// Refuses a solved.csv or manifest.json in `dir` that this command did
/// not write.
fn check_family_files(dir: &Path) -> Result<(), Failure> {
    let csv_path = dir.join("solved.csv");
    if csv_path.exists() {
        let head = FsStore
            .read_start(&csv_path, HEADER.len() as u64)
            .unwrap_or_default();
        let ours = std::iter::once(HEADER)
            .chain(OLD_HEADERS)
            .any(|h| head.starts_with(h.as_bytes()));
        if !ours {
            return Err(Failure::input(format!(
                "{}: exists and was not written by `katro solve-family`; \
                 move it away or choose another --out",
                csv_path.display()
            )));
        }
    }
    let manifest_path = dir.join("manifest.json");
    if manifest_path.exists() {
        let ours = std::fs::read(&manifest_path)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|v| v.get("boards").is_some() && v.get("max_memory_gib").is_some());
        if !ours {
            return Err(Failure::input(format!(
                "{}: exists and was not written by `katro solve-family`; \
                 move it away or choose another --out",
                manifest_path.display()
            )));
        }
    }
    Ok(())
}

/// `katro solve-family [--out DIR] [--max-memory GiB] [--max-seconds S]`:
/// every board of rows 2 or 4, 2 to 8 holes a row and 1 to 4 seeds a hole
/// under every reading, each solved, refused by the memory its reachable
/// positions need, stopped at the time cap, or not tried because a board
/// no larger in holes and seeds was refused or stopped. Writes
/// DIR/solved.csv and DIR/manifest.json (the times) after every board.
pub fn family_command(out: &str, max_gib: f64, max_seconds: Option<f64>) -> Result<(), Failure> {
    let max = max_bytes(max_gib)?;
    check_seconds(max_seconds)?;
    let dir = Path::new(out);
    FsStore
        .check_writable(dir)
        .map_err(|e| Failure::input(format!("--out {out}: {}", describe(&e))))?;
    check_family_files(dir)?;
    let earlier = earlier_run(dir, max_gib, max_seconds);
    // Files are written once a board has been solved here, not while an
    // earlier run's rows are only being taken over.
    let mut computed = false;
    let t0 = Instant::now();
    let readings = readings();
    let mut manifest = FamilyManifest {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        katro_build: env!("KATRO_BUILD").to_string(),
        max_memory_gib: max_gib,
        max_seconds,
        complete: false,
        boards_total: readings.len() * 2 * 7 * 4,
        boards_done: 0,
        solved: 0,
        refused_memory: 0,
        stopped_time: 0,
        refused_key: 0,
        not_tried: 0,
        resumed: 0,
        threads: rayon::current_num_threads(),
        seconds: 0.0,
        peak_rss_bytes: None,
        boards: Vec::new(),
    };
    let mut csv = String::from(HEADER);
    let write = |csv: &str, manifest: &mut FamilyManifest, t0: &Instant| {
        manifest.seconds = t0.elapsed().as_secs_f64();
        manifest.peak_rss_bytes = peak_rss();
        let json = serde_json::to_string_pretty(manifest).expect("plain data") + "\n";
        for (name, bytes) in [
            ("solved.csv", csv.as_bytes()),
            ("manifest.json", json.as_bytes()),
        ] {
            FsStore
                .write_atomic(dir, name, bytes)
                .map_err(|e| Failure {
                    code: 1,
                    message: format!("cannot write {out}/{name}: {}", describe(&e)),
                })?;
        }
        Ok::<(), Failure>(())
    };
    for (reading, base) in &readings {
        for rows in [2usize, 4] {
            // (holes, seeds) of the boards of this reading and rows that
            // were refused or stopped.
            let mut failed: Vec<(usize, u16)> = Vec::new();
            for holes in 2..=8usize {
                for seeds in 1..=4u16 {
                    let mut s = base.clone();
                    s.rows = rows;
                    s.holes = holes;
                    s.seeds = Some(seeds);
                    s.layout = None;
                    let rules = Rules::new(reading.clone(), String::new(), String::new(), s)
                        .map_err(|e| Failure::input(e.to_string()))?;
                    let bound = upper_bound(&rules);
                    let common = format!(
                        "{reading},\"{}\",{rows},{holes},{seeds}",
                        rules.canonical_string()
                    );
                    let name = format!("{reading} {rows}×{holes}, {seeds} a hole");
                    manifest.boards_done += 1;
                    if let Some(&(h, sd)) =
                        failed.iter().find(|&&(h, sd)| h <= holes && sd <= seeds)
                    {
                        eprintln!(
                            "solve-family: {name}: not tried ({rows}×{h}, {sd} a hole was not solved)"
                        );
                        csv.push_str(&format!(
                            "{common},not-tried,,,,,,{bound},,,,,{rows}x{h}x{sd}\n"
                        ));
                        manifest.not_tried += 1;
                        continue;
                    }
                    let prefix = format!("{common},");
                    let (row, time) = if let Some((row, time)) = earlier
                        .rows
                        .iter()
                        .find(|(row, _)| row.starts_with(&prefix))
                    {
                        manifest.resumed += 1;
                        eprintln!(
                            "solve-family: {name}: {} (from the earlier run)",
                            time.status
                        );
                        (row.clone(), time.clone())
                    } else {
                        eprintln!("solve-family: {name}");
                        computed = true;
                        let t = Instant::now();
                        let result = match check_key(&rules) {
                            Ok(()) => solve_with_stats(
                                &rules,
                                max,
                                Threads::Pool,
                                &mut progress_printer(max_seconds),
                            ),
                            Err(e) => Err(e),
                        };
                        let seconds = t.elapsed().as_secs_f64();
                        let (status, row) = match result {
                            Ok((table, stats)) => {
                                let v = table
                                    .value(&rules, &rules.start())
                                    .expect("the start is in its own table");
                                eprintln!(
                                    "solve-family: {name}: solved, {v} for player 1, {} positions, {seconds:.1} s",
                                    table.len()
                                );
                                (
                                    "solved",
                                    format!(
                                        "{common},solved,{},{},{},{},{},{bound},{},,,,\n",
                                        v.word(),
                                        v.distance().map_or(String::new(), |d| d.to_string()),
                                        table.longest_win(),
                                        table.len(),
                                        stats.moves,
                                        stats.peak_bytes
                                    ),
                                )
                            }
                            Err(SolveError::OverMemory { found, bytes, .. }) => (
                                "refused-memory",
                                format!(
                                    "{common},refused-memory,,,,,,{bound},,{found},,{bytes},\n"
                                ),
                            ),
                            Err(SolveError::KeyTooSmall { .. }) => (
                                "refused-key",
                                format!("{common},refused-key,,,,,,{bound},,,,,\n"),
                            ),
                            Err(SolveError::Stopped { phase, done, known }) => {
                                let settled = match phase {
                                    Phase::Explore => String::new(),
                                    Phase::Solve => done.to_string(),
                                };
                                (
                                    "stopped-time",
                                    format!(
                                        "{common},stopped-time,,,,,,{bound},,{known},{settled},,\n"
                                    ),
                                )
                            }
                            Err(e) => return Err(Failure::input(format!("{name}: {e}"))),
                        };
                        if status != "solved" {
                            eprintln!("solve-family: {name}: {status} after {seconds:.1} s");
                        }
                        (
                            row,
                            BoardTime {
                                reading: reading.clone(),
                                rows,
                                holes,
                                seeds,
                                status: status.to_string(),
                                seconds,
                            },
                        )
                    };
                    match time.status.as_str() {
                        "solved" => manifest.solved += 1,
                        "refused-memory" => manifest.refused_memory += 1,
                        "refused-key" => manifest.refused_key += 1,
                        _ => manifest.stopped_time += 1,
                    }
                    if time.status != "solved" {
                        failed.push((holes, seeds));
                    }
                    csv.push_str(&row);
                    manifest.boards.push(time);
                    if computed {
                        write(&csv, &mut manifest, &t0)?;
                    }
                }
            }
        }
    }
    // A complete run taken over whole is left as it is: writing it again
    // would only put this invocation's command, build and times in place
    // of those of the run that made it.
    if !computed && earlier.complete_csv.as_deref() == Some(csv.as_str()) {
        return emit(&format!(
            "{out} is already complete under these limits ({}); nothing written. \
             To reproduce it, run into another --out and compare solved.csv\n",
            manifest.tally()
        ));
    }
    manifest.complete = true;
    write(&csv, &mut manifest, &t0)?;
    emit(&format!(
        "wrote {out}/solved.csv and {out}/manifest.json: {}\n",
        manifest.tally()
    ))
}
