//! `katro solve` and `katro solve-family` (docs/SOLVED.md): the library
//! solves, this reads and writes the files and prints.

use std::path::Path;
use std::time::Instant;

use katro::Rules;
use katro::notation::move_name;
use katro::rules::{PRESETS, Settings, preset};
use katro::solve::{
    self, MAGIC, Phase, SolveStats, Table, check_size, move_values, solve_with_stats, upper_bound,
};
use serde::Serialize;

use crate::cli::{Failure, emit, load_variant};
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
/// solve has run a second.
fn progress_printer() -> impl FnMut(Phase, u64, u64) {
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

/// `katro solve VARIANT [--out FILE] [--max-memory GiB]`.
pub fn solve_command(variant: &str, out: Option<&str>, max_gib: f64) -> Result<(), Failure> {
    let rules = load_variant(variant)?;
    let max = max_bytes(max_gib)?;
    check_size(&rules, max).map_err(|e| Failure::input(format!("{variant}: {e}")))?;
    if let Some(out) = out {
        check_out(Path::new(out))?;
    }
    let t0 = Instant::now();
    let (table, stats) =
        solve_with_stats(&rules, &mut progress_printer()).map_err(Failure::input)?;
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

#[derive(Serialize)]
struct FamilyManifest {
    command: String,
    katro_build: String,
    max_memory_gib: f64,
    seconds: f64,
    peak_rss_bytes: Option<u64>,
    boards: Vec<BoardTime>,
}

#[derive(Serialize)]
struct BoardTime {
    reading: String,
    rows: usize,
    holes: usize,
    seeds: u16,
    seconds: f64,
}

/// `katro solve-family [--out DIR] [--max-memory GiB]`: every board of
/// rows 2 or 4, 2 to 8 holes a row and 1 to 4 seeds a hole under every
/// reading, each solved or refused by the memory allowed; writes
/// DIR/solved.csv and DIR/manifest.json (the times).
pub fn family_command(out: &str, max_gib: f64) -> Result<(), Failure> {
    let max = max_bytes(max_gib)?;
    let dir = Path::new(out);
    FsStore
        .check_writable(dir)
        .map_err(|e| Failure::input(format!("--out {out}: {}", describe(&e))))?;
    let header = "reading,rules,rows,holes,seeds,status,value,start_distance,longest_win,\
                  positions,moves,upper_bound,memory_bytes\n";
    // Only a solved.csv this command wrote (its header) is replaced.
    let csv_path = dir.join("solved.csv");
    if csv_path.exists() {
        let head = FsStore
            .read_start(&csv_path, header.len() as u64)
            .unwrap_or_default();
        if head != header.as_bytes() {
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
    let t0 = Instant::now();
    let mut csv = String::from(header);
    let mut times = Vec::new();
    for (reading, base) in readings() {
        for rows in [2usize, 4] {
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
                    if let Err(solve::SolveError::TooBig { bytes, .. }) = check_size(&rules, max) {
                        csv.push_str(&format!("{common},refused,,,,,,{bound},{bytes}\n"));
                        continue;
                    }
                    eprintln!("solve-family: {reading} {rows}×{holes}, {seeds} a hole");
                    let t = Instant::now();
                    let (table, stats) = solve_with_stats(&rules, &mut progress_printer())
                        .map_err(Failure::input)?;
                    times.push(BoardTime {
                        reading: reading.clone(),
                        rows,
                        holes,
                        seeds,
                        seconds: t.elapsed().as_secs_f64(),
                    });
                    let v = table
                        .value(&rules, &rules.start())
                        .expect("the start is in its own table");
                    csv.push_str(&format!(
                        "{common},solved,{},{},{},{},{},{bound},{}\n",
                        v.word(),
                        v.distance().map_or(String::new(), |d| d.to_string()),
                        table.longest_win(),
                        table.len(),
                        stats.moves,
                        stats.peak_bytes
                    ));
                }
            }
        }
    }
    let manifest = FamilyManifest {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        katro_build: env!("KATRO_BUILD").to_string(),
        max_memory_gib: max_gib,
        seconds: t0.elapsed().as_secs_f64(),
        peak_rss_bytes: peak_rss(),
        boards: times,
    };
    let json = serde_json::to_string_pretty(&manifest).expect("plain data") + "\n";
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
    emit(&format!("wrote {out}/solved.csv and {out}/manifest.json\n"))
}
