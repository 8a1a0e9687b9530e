//! `katro solve-family` (docs/SOLVED.md): every board of rows 2 or 4, 2 to 8
//! holes a row and 1 to 4 seeds a hole under every reading, resumable from
//! an earlier run in the same folder, written through the [`Store`].

use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

use crate::files::BUILD;
use crate::files::solved::{BoardTime, FamilyManifest, HEADER, OLD_HEADERS};
use crate::rules::{PRESETS, Rules, Settings, preset};
use crate::solve::{Phase, SolveError, Threads, check_key, solve_with_stats, upper_bound};
use crate::store::{Store, describe};

use super::solve::{check_seconds, max_bytes};
use super::{Error, read_text};

/// What `katro solve-family` is asked to do.
pub struct FamilyOptions {
    /// The output folder.
    pub out: String,
    pub max_gib: f64,
    pub max_seconds: Option<f64>,
    /// The command line, for the manifest.
    pub command: String,
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

/// An earlier run in the output directory with the same `--max-memory`
/// and `--max-seconds`.
#[derive(Default)]
struct Earlier {
    /// Its rows and times, to resume it; empty when there is none.
    rows: Vec<(String, BoardTime)>,
    /// Its solved.csv, when its manifest says it is complete.
    complete_csv: Option<String>,
}

fn earlier_run(store: &dyn Store, dir: &Path, max_gib: f64, max_seconds: Option<f64>) -> Earlier {
    let manifest: Option<FamilyManifest> = store
        .read(&dir.join("manifest.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let Some(m) = manifest else {
        return Earlier::default();
    };
    if m.max_memory_gib != max_gib || m.max_seconds != max_seconds {
        return Earlier::default();
    }
    let Ok(csv) = read_text(store, &dir.join("solved.csv")) else {
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
fn check_family_files(store: &dyn Store, dir: &Path) -> Result<(), Error> {
    let csv_path = dir.join("solved.csv");
    if store.is_file(&csv_path) {
        let head = store
            .read_start(&csv_path, HEADER.len() as u64)
            .unwrap_or_default();
        let ours = std::iter::once(HEADER)
            .chain(OLD_HEADERS)
            .any(|h| head.starts_with(h.as_bytes()));
        if !ours {
            return Err(Error::refused(format!(
                "{}: exists and was not written by `katro solve-family`; \
                 move it away or choose another --out",
                csv_path.display()
            )));
        }
    }
    let manifest_path = dir.join("manifest.json");
    if store.is_file(&manifest_path) {
        let ours = store
            .read(&manifest_path)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|v| v.get("boards").is_some() && v.get("max_memory_gib").is_some());
        if !ours {
            return Err(Error::refused(format!(
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
pub fn solve_family(
    o: &FamilyOptions,
    store: &dyn Store,
    clock: &mut dyn FnMut() -> Box<dyn FnMut(Phase, u64, u64) -> ControlFlow<()>>,
    note: &dyn Fn(&str),
    peak_rss: &dyn Fn() -> Option<u64>,
) -> Result<String, Error> {
    let (out, max_gib, max_seconds) = (o.out.as_str(), o.max_gib, o.max_seconds);
    let max = max_bytes(max_gib)?;
    check_seconds(max_seconds)?;
    let dir = Path::new(out);
    store
        .check_writable(dir)
        .map_err(|e| Error::refused(format!("--out {out}: {}", describe(&e))))?;
    check_family_files(store, dir)?;
    let earlier = earlier_run(store, dir, max_gib, max_seconds);
    // Files are written once a board has been solved here, not while an
    // earlier run's rows are only being taken over.
    let mut computed = false;
    let t0 = Instant::now();
    let readings = readings();
    let mut manifest = FamilyManifest {
        command: o.command.clone(),
        katro_build: BUILD.to_string(),
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
            store.write_atomic(dir, name, bytes).map_err(|e| {
                Error::Failed(format!("cannot write {out}/{name}: {}", describe(&e)))
            })?;
        }
        Ok::<(), Error>(())
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
                        .map_err(|e| Error::refused(e.to_string()))?;
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
                        note(&format!(
                            "solve-family: {name}: not tried ({rows}×{h}, {sd} a hole was not solved)"
                        ));
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
                        note(&format!(
                            "solve-family: {name}: {} (from the earlier run)",
                            time.status
                        ));
                        (row.clone(), time.clone())
                    } else {
                        note(&format!("solve-family: {name}"));
                        computed = true;
                        let t = Instant::now();
                        let result = match check_key(&rules) {
                            Ok(()) => solve_with_stats(&rules, max, Threads::Pool, &mut clock()),
                            Err(e) => Err(e),
                        };
                        let seconds = t.elapsed().as_secs_f64();
                        let (status, row) = match result {
                            Ok((table, stats)) => {
                                let v = table
                                    .value(&rules, &rules.start())
                                    .expect("the start is in its own table");
                                note(&format!(
                                    "solve-family: {name}: solved, {v} for player 1, {} positions, {seconds:.1} s",
                                    table.len()
                                ));
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
                            Err(e) => return Err(Error::refused(format!("{name}: {e}"))),
                        };
                        if status != "solved" {
                            note(&format!(
                                "solve-family: {name}: {status} after {seconds:.1} s"
                            ));
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
        return Ok(format!(
            "{out} is already complete under these limits ({}); nothing written. \
             To reproduce it, run into another --out and compare solved.csv\n",
            manifest.tally()
        ));
    }
    manifest.complete = true;
    write(&csv, &mut manifest, &t0)?;
    Ok(format!(
        "wrote {out}/solved.csv and {out}/manifest.json: {}\n",
        manifest.tally()
    ))
}
