//! `katro solve-family` (docs/SOLVED.md): every board of rows 2 or 4, 2 to 8
//! holes a row and 1 to 4 seeds a hole under every reading, resumable from
//! an earlier run in the same folder, written through the [`Store`].

use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

use crate::files::BUILD;
use crate::files::solved::{
    BoardKey, BoardTime, FamilyManifest, HEADER, Outcome, RowKey, SolvedRow, is_solved_csv,
    read_rows,
};
use crate::rules::{PRESETS, Rules, Settings, preset};
use crate::solve::{Phase, SolveError, SolveStats, SolvedTable, Value, upper_bound};
use crate::store::Store;

use super::clock::{Clock, Deadline};
use super::load::read_text;
use super::owned::Folder;
use super::solve::{check_seconds, checked_solve, max_bytes, until};
use super::{Error, Refusal};

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
/// one per distinct rule set, named by the first preset that has it
/// (`canonical` for the rules of katro-6x6).
pub fn readings() -> Vec<(String, Settings)> {
    let mut out: Vec<(String, Settings)> = Vec::new();
    for (name, _) in PRESETS {
        let s = preset(name)
            .expect("listed presets exist")
            .settings()
            .clone();
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

/// The settings with the board left out, so readings compare by rules.
fn rules_only(s: &Settings) -> Settings {
    let mut s = s.clone();
    s.rows = 0;
    s.holes = 0;
    s.seeds = None;
    s.layout = None;
    s
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
    let manifest = store
        .read(&dir.join("manifest.json"))
        .ok()
        .and_then(|b| FamilyManifest::parse(&b));
    let Some(m) = manifest else {
        return Earlier::default();
    };
    if m.max_memory_gib != max_gib || m.max_seconds != max_seconds {
        return Earlier::default();
    }
    let Ok(csv) = read_text(store, &dir.join("solved.csv")) else {
        return Earlier::default();
    };
    let Some(lines) = read_rows(&csv) else {
        return Earlier::default();
    };
    Earlier {
        rows: earlier_rows(lines, &m),
        complete_csv: m.complete.then_some(csv),
    }
}

/// The boards the earlier run tried, each row with its time; a row its
/// manifest has no time for is solved again.
fn earlier_rows(lines: Vec<(&str, RowKey<'_>)>, m: &FamilyManifest) -> Vec<(String, BoardTime)> {
    lines
        .into_iter()
        .filter(|(_, k)| k.status != "not-tried")
        .filter_map(|(line, k)| {
            let b = m.boards.iter().find(|b| b.is_row(&k))?;
            Some((format!("{line}\n"), b.clone()))
        })
        .collect()
}

/// Refuses a solved.csv or manifest.json in `dir` that this command did
/// not write.
fn check_family_files(store: &dyn Store, dir: &Path) -> Result<(), Error> {
    let csv_ours = |path: &Path| {
        let head = store
            .read_start(path, HEADER.len() as u64)
            .unwrap_or_default();
        is_solved_csv(&head)
    };
    let manifest_ours = |path: &Path| store.read(path).is_ok_and(|b| FamilyManifest::is_ours(&b));
    check_ours(store, &dir.join("solved.csv"), &csv_ours)?;
    check_ours(store, &dir.join("manifest.json"), &manifest_ours)
}

/// Refuses the file at `path` when it is there and `ours` says this
/// command did not write it.
fn check_ours(store: &dyn Store, path: &Path, ours: &dyn Fn(&Path) -> bool) -> Result<(), Error> {
    if store.is_file(path) && !ours(path) {
        let path = path.to_path_buf();
        return Err(Refusal::NotFamilyFile { path }.into());
    }
    Ok(())
}

/// The limits checked and the output folder found writable and free of
/// files this command did not write; the memory cap in bytes.
fn check_options(o: &FamilyOptions, store: &dyn Store) -> Result<u64, Error> {
    let max = max_bytes(o.max_gib)?;
    check_seconds(o.max_seconds)?;
    let dir = Path::new(&o.out);
    super::out_folder::check_out_writable(store, dir, Some(format!("--out {}", o.out)))?;
    check_family_files(store, dir)?;
    Folder::open(store, dir).check(
        &["solved.csv".into(), "manifest.json".into()],
        &format!("katro solve-family --out {}", o.out),
    )?;
    Ok(max)
}

/// `katro solve-family [--out DIR] [--max-memory GiB] [--max-seconds S]`:
/// every board of rows 2 or 4, 2 to 8 holes a row and 1 to 4 seeds a hole
/// under every reading, each solved, refused by the memory its reachable
/// positions need, stopped at the time cap, or not tried because a board
/// no larger in holes and seeds was refused or stopped. Writes
/// DIR/solved.csv and DIR/manifest.json (the times) after every board.
///
/// `clock` times each board and `max_seconds` stops one; `progress` makes
/// the callback each board's solve is told of its steps (and may stop).
pub fn solve_family(
    o: &FamilyOptions,
    store: &dyn Store,
    clock: &dyn Clock,
    progress: &mut dyn FnMut() -> Box<dyn FnMut(Phase, u64, u64) -> ControlFlow<()>>,
    note: &dyn Fn(&str),
    peak_rss: &dyn Fn() -> Option<u64>,
) -> Result<String, Error> {
    let max = check_options(o, store)?;
    let readings = readings();
    let boards = readings.len() * family_shapes().count();
    let mut f = Family::new(o, store, clock, note, peak_rss, max, boards);
    for (reading, base) in &readings {
        for rows in [2usize, 4] {
            f.boards_of(reading, base, rows, progress)?;
        }
    }
    f.close()
}

/// The manifest of a run not yet under way.
fn new_manifest(o: &FamilyOptions, boards_total: usize) -> FamilyManifest {
    FamilyManifest {
        command: o.command.clone(),
        katro_build: BUILD.to_string(),
        max_memory_gib: o.max_gib,
        max_seconds: o.max_seconds,
        complete: false,
        boards_total,
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
    }
}

/// The rows, holes a row and seeds a hole of the family's boards under
/// each reading, in the order the family tries them: rows 2 then 4, holes
/// 2 to 8, seeds 1 to 4.
pub fn family_shapes() -> impl Iterator<Item = (usize, usize, u16)> {
    [2usize, 4].into_iter().flat_map(|rows| {
        (2..=8usize).flat_map(move |holes| (1..=4u16).map(move |seeds| (rows, holes, seeds)))
    })
}

/// The board of `reading` (rules `base`) with `rows` rows, `holes` holes a
/// row and `seeds` seeds a hole.
pub fn board_rules(
    reading: &str,
    base: &Settings,
    rows: usize,
    holes: usize,
    seeds: u16,
) -> Result<Rules, Error> {
    let mut s = base.clone();
    s.rows = rows;
    s.holes = holes;
    s.seeds = Some(seeds);
    s.layout = None;
    Rules::new(reading.to_string(), String::new(), String::new(), s)
        .map_err(|e| Refusal::Board(e).into())
}

/// Solves `rules` within `max` bytes, refused early for a key too small;
/// the result, and the seconds it took.
/// Solves `rules` within `max` bytes, stopped when `progress` says so or
/// `max_seconds` have passed on `clock`; also the seconds it took.
fn timed_solve(
    rules: &Rules,
    max: u64,
    clock: &dyn Clock,
    max_seconds: Option<f64>,
    progress: &mut dyn FnMut(Phase, u64, u64) -> ControlFlow<()>,
) -> (Result<(SolvedTable, SolveStats), SolveError>, f64) {
    let deadline = Deadline::new(clock, max_seconds);
    let result = checked_solve(rules, max, &mut until(&deadline, progress));
    (result, deadline.elapsed())
}

/// The manifest's time of board `key`, done with `status` in `seconds`.
fn board_time(key: &BoardKey, status: &str, seconds: f64) -> BoardTime {
    BoardTime {
        reading: key.reading.clone(),
        rows: key.rows,
        holes: key.holes,
        seeds: key.seeds,
        status: status.to_string(),
        seconds,
    }
}

/// The outcome of a board solved: its start's value `v` and the table's
/// size and longest win.
fn solved(v: Value, table: &SolvedTable, stats: &SolveStats) -> Outcome {
    Outcome::Solved {
        value: v.word(),
        start_distance: v.distance(),
        longest_win: table.longest_win(),
        positions: table.len(),
        moves: stats.moves,
        memory_bytes: stats.peak_bytes,
    }
}

/// The outcome of a board the solver gave up on; any other error stops
/// the family, as a refusal of board `name`.
fn unsolved(name: &str, error: SolveError) -> Result<Outcome, Error> {
    Ok(match error {
        SolveError::OverMemory { found, bytes, .. } => Outcome::RefusedMemory {
            positions_reached: found,
            memory_bytes_at_least: bytes,
        },
        SolveError::KeyTooSmall { .. } => Outcome::RefusedKey,
        SolveError::Stopped { phase, done, known } => Outcome::StoppedTime {
            positions_reached: known,
            positions_settled: match phase {
                Phase::Explore => None,
                Phase::Solve => Some(done),
            },
        },
        error => {
            let variant = name.to_string();
            return Err(Refusal::Solve { variant, error }.into());
        }
    })
}

/// A `katro solve-family` under way: the rows and manifest so far.
struct Family<'a> {
    o: &'a FamilyOptions,
    store: &'a dyn Store,
    clock: &'a dyn Clock,
    dir: &'a Path,
    note: &'a dyn Fn(&str),
    peak_rss: &'a dyn Fn() -> Option<u64>,
    earlier: Earlier,
    /// The memory cap, in bytes.
    max: u64,
    /// Files are written once a board has been solved here, not while an
    /// earlier run's rows are only being taken over.
    computed: bool,
    t0: Instant,
    manifest: FamilyManifest,
    csv: String,
}

impl<'a> Family<'a> {
    /// A family of `boards` boards not yet under way, going on from an
    /// earlier run in the folder with the same limits.
    fn new(
        o: &'a FamilyOptions,
        store: &'a dyn Store,
        clock: &'a dyn Clock,
        note: &'a dyn Fn(&str),
        peak_rss: &'a dyn Fn() -> Option<u64>,
        max: u64,
        boards: usize,
    ) -> Self {
        Family {
            o,
            store,
            clock,
            dir: Path::new(&o.out),
            note,
            peak_rss,
            earlier: earlier_run(store, Path::new(&o.out), o.max_gib, o.max_seconds),
            max,
            computed: false,
            t0: Instant::now(),
            manifest: new_manifest(o, boards),
            csv: String::from(HEADER),
        }
    }

    /// The boards of one reading and row count, smallest first: a board
    /// no smaller in holes and seeds than one refused or stopped is not
    /// tried.
    fn boards_of(
        &mut self,
        reading: &str,
        base: &Settings,
        rows: usize,
        clock: &mut dyn FnMut() -> Box<dyn FnMut(Phase, u64, u64) -> ControlFlow<()>>,
    ) -> Result<(), Error> {
        // (holes, seeds) of the boards of this reading and rows that were
        // refused or stopped.
        let mut failed: Vec<(usize, u16)> = Vec::new();
        for (_, holes, seeds) in family_shapes().filter(|&(r, _, _)| r == rows) {
            let rules = board_rules(reading, base, rows, holes, seeds)?;
            let key = BoardKey {
                reading: reading.to_string(),
                rules: rules.canonical_string(),
                rows,
                holes,
                seeds,
            };
            self.board(key, &rules, &mut failed, clock)?;
        }
        Ok(())
    }

    /// One board: not tried when it is no smaller than one in `failed`,
    /// else taken over from the earlier run or solved; its row added and
    /// the files written once anything was solved here.
    fn board(
        &mut self,
        key: BoardKey,
        rules: &Rules,
        failed: &mut Vec<(usize, u16)>,
        clock: &mut dyn FnMut() -> Box<dyn FnMut(Phase, u64, u64) -> ControlFlow<()>>,
    ) -> Result<(), Error> {
        let (reading, rows, holes, seeds) = (&key.reading, key.rows, key.holes, key.seeds);
        let name = format!("{reading} {rows}×{holes}, {seeds} a hole");
        self.manifest.boards_done += 1;
        if let Some(&because) = failed.iter().find(|&&(h, sd)| h <= holes && sd <= seeds) {
            self.not_tried(key, &name, upper_bound(rules), because);
            return Ok(());
        }
        let (row, time) = match self.taken_over(&key, &name) {
            Some(earlier) => earlier,
            None => self.solve_board(key, &name, rules, &mut clock())?,
        };
        if time.status != "solved" {
            failed.push((holes, seeds));
        }
        self.add(row, time)
    }

    /// Adds a board done, its `row` and `time`; the files are written
    /// once anything was solved here.
    fn add(&mut self, row: String, time: BoardTime) -> Result<(), Error> {
        self.tally(&time.status);
        self.csv.push_str(&row);
        self.manifest.boards.push(time);
        if self.computed {
            self.write_both()?;
        }
        Ok(())
    }

    fn not_tried(&mut self, key: BoardKey, name: &str, bound: u128, (h, sd): (usize, u16)) {
        (self.note)(&format!(
            "solve-family: {name}: not tried ({}×{h}, {sd} a hole was not solved)",
            key.rows
        ));
        let row = SolvedRow {
            outcome: Outcome::NotTried {
                because: (key.rows, h, sd),
            },
            key,
            upper_bound: bound,
        };
        self.csv.push_str(&row.line());
        self.manifest.not_tried += 1;
    }

    /// The earlier run's row of this board, when it has one.
    fn taken_over(&mut self, key: &BoardKey, name: &str) -> Option<(String, BoardTime)> {
        let prefix = key.prefix();
        let (row, time) = self
            .earlier
            .rows
            .iter()
            .find(|(row, _)| row.starts_with(&prefix))?;
        self.manifest.resumed += 1;
        (self.note)(&format!(
            "solve-family: {name}: {} (from the earlier run)",
            time.status
        ));
        Some((row.clone(), time.clone()))
    }

    /// Solves one board here: its row and time.
    fn solve_board(
        &mut self,
        key: BoardKey,
        name: &str,
        rules: &Rules,
        clock: &mut dyn FnMut(Phase, u64, u64) -> ControlFlow<()>,
    ) -> Result<(String, BoardTime), Error> {
        let note = self.note;
        note(&format!("solve-family: {name}"));
        self.computed = true;
        let (result, seconds) = timed_solve(rules, self.max, self.clock, self.o.max_seconds, clock);
        let outcome = match result {
            Ok((table, stats)) => {
                let v = table
                    .value(rules, &rules.start())
                    .expect("the start is in its own table");
                note(&format!(
                    "solve-family: {name}: solved, {v} for player 1, {} positions, {seconds:.1} s",
                    table.len()
                ));
                solved(v, &table, &stats)
            }
            Err(error) => unsolved(name, error)?,
        };
        let status = outcome.status();
        if status != "solved" {
            note(&format!(
                "solve-family: {name}: {status} after {seconds:.1} s"
            ));
        }
        let time = board_time(&key, status, seconds);
        let row = SolvedRow {
            key,
            upper_bound: upper_bound(rules),
            outcome,
        };
        Ok((row.line(), time))
    }

    /// Counts a board done, by its status.
    fn tally(&mut self, status: &str) {
        let m = &mut self.manifest;
        match status {
            "solved" => m.solved += 1,
            "refused-memory" => m.refused_memory += 1,
            "refused-key" => m.refused_key += 1,
            _ => m.stopped_time += 1,
        }
    }

    /// solved.csv and manifest.json as they stand.
    fn write_both(&mut self) -> Result<(), Error> {
        self.manifest.seconds = self.t0.elapsed().as_secs_f64();
        self.manifest.peak_rss_bytes = (self.peak_rss)();
        let json = self.manifest.to_bytes();
        Folder::open(self.store, self.dir).write(
            &[
                ("solved.csv".into(), self.csv.as_bytes().to_vec()),
                ("manifest.json".into(), json),
            ],
            &format!("katro solve-family --out {}", self.o.out),
        )
    }

    /// The files written complete, and what to tell the user.
    fn close(mut self) -> Result<String, Error> {
        let out = &self.o.out;
        // A complete run taken over whole is left as it is: writing it again
        // would only put this invocation's command, build and times in place
        // of those of the run that made it.
        if !self.computed && self.earlier.complete_csv.as_deref() == Some(self.csv.as_str()) {
            return Ok(format!(
                "{out} is already complete under these limits ({}); nothing written. \
                 To reproduce it, run into another --out and compare solved.csv\n",
                self.manifest.tally()
            ));
        }
        self.manifest.complete = true;
        self.write_both()?;
        Ok(format!(
            "wrote {out}/solved.csv and {out}/manifest.json: {}\n",
            self.manifest.tally()
        ))
    }
}
