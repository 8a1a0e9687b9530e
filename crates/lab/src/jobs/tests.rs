//! The jobs `katro run`, `katro merge` and growing a run, through a
//! [`MemoryStore`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::*;
use crate::experiment::runner::{Quiet, RunError};
use crate::files::FileError;
use crate::files::run_state::RunStateError;
use crate::jobs::grow::Unkept;
use crate::store::{MemoryStore, Store};

const EXPERIMENT: &str = "name = \"t\"\nseed = 3\nvariants = [\"katro-4x4\", \"katro-6x3\"]\n\
    games = 40\nper_game_rows = true\n\n[[matchups]]\np1 = \"random\"\np2 = \"greedy\"\n";

fn store_with(text: &str) -> MemoryStore {
    let s = MemoryStore::new();
    s.insert("exp/t.toml", text);
    s
}

fn opts(out: &str) -> RunOptions {
    RunOptions {
        out: Some(out.into()),
        threads: Some(2),
        ..RunOptions::new("exp/t.toml")
    }
}

fn file(s: &MemoryStore, path: &str) -> Vec<u8> {
    s.read(Path::new(path)).unwrap()
}

/// `opts(out)` under `--force`.
fn forced(out: &str) -> RunOptions {
    RunOptions {
        force: true,
        ..opts(out)
    }
}

/// Asserts the results CSVs of folders `a` and `b` are the same bytes.
fn assert_same_results(s: &MemoryStore, a: &str, b: &str) {
    for f in ["summary.csv", "games.csv", "lengths.csv"] {
        assert_eq!(
            file(s, &format!("{a}/{f}")),
            file(s, &format!("{b}/{f}")),
            "{f}"
        );
    }
}

#[test]
fn a_run_writes_its_results_through_the_store_the_same_on_any_thread_count() {
    let s = store_with(EXPERIMENT);
    let done = run(&opts("a"), &s, &Quiet).unwrap();
    assert_eq!(done.played, 80);
    for f in [
        "summary.csv",
        "games.csv",
        "lengths.csv",
        "report.html",
        "manifest.json",
    ] {
        assert!(
            done.files.iter().any(|x| x == f),
            "{f} not in {:?}",
            done.files
        );
        assert!(s.is_file(&Path::new("a").join(f)), "{f}");
    }
    let one = RunOptions {
        threads: Some(1),
        ..opts("b")
    };
    run(&one, &s, &Quiet).unwrap();
    assert_same_results(&s, "a", "b");
    // No checkpoint is left behind once the results are written.
    assert!(!s.is_dir(Path::new("a/.katro-checkpoint")));
}

/// A file katro did not write, at a name katro does not write, is in no
/// run's way: a fresh run goes on beside it, and `--force` keeps it too.
#[test]
fn a_file_katro_did_not_write_is_left_alone_and_never_blocks() {
    let s = store_with(EXPERIMENT);
    s.insert("out/notes.txt", "mine");
    run(&opts("out"), &s, &Quiet).unwrap();
    assert!(s.is_file(Path::new("out/summary.csv")));
    assert_eq!(file(&s, "out/notes.txt"), b"mine");
    run(&forced("out"), &s, &Quiet).unwrap();
    assert_eq!(file(&s, "out/notes.txt"), b"mine");
}

#[test]
fn shards_merge_to_the_whole_run_and_a_missing_one_is_named() {
    let s = store_with(EXPERIMENT);
    run(&opts("whole"), &s, &Quiet).unwrap();
    let shard = |i| RunOptions {
        shard: Some((i, 2)),
        ..opts("cut")
    };
    let merge_opts = MergeOptions {
        dir: "cut".into(),
        force: false,
        allow_other_build: false,
        command: Vec::new(),
    };
    run(&shard(1), &s, &Quiet).unwrap();
    let e = merge(&merge_opts, &s, &Quiet).unwrap_err();
    assert!(
        matches!(&e, Error::Damaged(Damage::Shards { problems, .. })
            if problems.iter().any(|p| matches!(p,
                ShardProblem::Missing { missing, count: 2, .. } if missing == &[2]))),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "cannot merge the shards in cut/shards:\nmissing shard 2/2: run each with \
         `katro run exp/t.toml --shard I/2 --out cut`"
    );
    run(&shard(2), &s, &Quiet).unwrap();
    let merged = merge(&merge_opts, &s, &Quiet).unwrap();
    assert_eq!(merged.kept, 80);
    assert_same_results(&s, "whole", "cut");
}

fn csvs(s: &MemoryStore, dir: &str) -> Vec<(PathBuf, Vec<u8>)> {
    s.files_under(dir)
        .into_iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "csv"))
        .collect()
}

#[test]
fn a_grown_run_plays_only_new_games_and_matches_a_fresh_run() {
    let s = store_with(EXPERIMENT);
    run(&opts("out"), &s, &Quiet).unwrap();
    let again = run(&opts("out"), &s, &Quiet).unwrap();
    assert!(again.already_complete);
    assert_eq!((again.played, again.kept), (0, 80));
    assert!(again.text.contains("is complete"), "{}", again.text);
    // The complete rerun shows the table the run printed.
    assert!(again.text.contains("advantage_p1"), "{}", again.text);
    // More games, and a new variant and matchup.
    let bigger = EXPERIMENT
        .replace("games = 40", "games = 70")
        .replace("\"katro-6x3\"]", "\"katro-6x3\", \"katro-6x6\"]")
        + "\n[[matchups]]\np1 = \"greedy\"\np2 = \"random\"\n";
    let grown = grows_as_fresh(&s, &bigger);
    assert_eq!(grown.kept, 80);
    assert_eq!(grown.played, 6 * 70 - 80);
    let files = csvs(&s, "out").len();
    assert_eq!(files, 4, "summary, games, lengths and comparison");
}

#[test]
fn a_change_to_games_already_played_is_refused_and_force_replays() {
    let s = store_with(EXPERIMENT);
    run(&opts("out"), &s, &Quiet).unwrap();
    let before = csvs(&s, "out");
    let changed = EXPERIMENT
        .replace("games = 40", "games = 30")
        .replace("seed = 3", "seed = 4");
    let e = refused_growth(&s, &changed);
    let changes = changes_to_played(&e);
    assert!(changes.contains(&Unkept::Seed { was: 3, now: 4 }), "{e}");
    assert!(
        changes.iter().any(|c| matches!(
            c,
            Unkept::FewerGames {
                played: 40,
                asked: 30,
                ..
            }
        )),
        "{e}"
    );
    // Each names itself in the refusal, as a line of its own.
    assert!(
        e.to_string()
            .contains("\n  the seed changed from 3 to 4: every game would differ\n")
    );
    assert_eq!(csvs(&s, "out"), before);
    assert_eq!(run(&forced("out"), &s, &Quiet).unwrap().played, 60);
}

/// Growing results another build played is refused, naming the command
/// that keeps them anyway, and that command grows them.
#[test]
fn growing_another_builds_results_names_the_command_that_keeps_them() {
    let s = store_with(EXPERIMENT);
    run(&opts("out"), &s, &Quiet).unwrap();
    let state = String::from_utf8(file(&s, "out/run-state.json")).unwrap();
    assert!(state.contains(crate::files::BUILD));
    let other = state.replace(crate::files::BUILD, "src-0000000000000000");
    // As that build wrote it: the ledger holds its hash.
    let hash = |t: &str| format!("{:016x}", crate::rng::bytes_hash(t.as_bytes()));
    let ledger = String::from_utf8(file(&s, "out/.katro-files")).unwrap();
    assert!(ledger.contains(&hash(&state)));
    s.insert(
        "out/.katro-files",
        ledger.replace(&hash(&state), &hash(&other)),
    );
    s.insert("out/run-state.json", other);
    let bigger = EXPERIMENT.replace("games = 40", "games = 50");
    let e = refused_growth(&s, &bigger);
    assert!(
        e.to_string()
            .contains("(`katro run exp/t.toml --out out --allow-other-build` keeps them anyway)"),
        "{e}"
    );
    let kept = RunOptions {
        allow_other_build: true,
        ..opts("out")
    };
    let grown = run(&kept, &s, &Quiet).unwrap();
    assert_eq!((grown.kept, grown.played), (80, 20));
}

#[test]
fn tighter_precision_goes_on_from_where_the_cell_stopped() {
    let text = |width: &str| {
        format!(
            "name = \"p\"\nseed = 5\nvariants = [\"katro-4x4\"]\nper_game_rows = true\n\n\
             [precision]\nwidth = {width}\nmax_games = 400\ncheckpoint = 40\n\n\
             [[matchups]]\np1 = \"random\"\np2 = \"random\"\n"
        )
    };
    let s = store_with(&text("0.3"));
    let first = run(&opts("out"), &s, &Quiet).unwrap();
    assert!(first.played < 400, "the loose target stops early");
    s.insert("exp/t.toml", text("0.12"));
    let grown = run(&opts("out"), &s, &Quiet).unwrap();
    assert_eq!(grown.kept, first.played);
    assert!(grown.played > 0);
    run(&opts("fresh"), &s, &Quiet).unwrap();
    assert_eq!(csvs(&s, "out"), csvs(&s, "fresh"));
    s.insert("exp/t.toml", text("0.2"));
    let e = run(&opts("out"), &s, &Quiet).unwrap_err();
    assert!(
        changes_to_played(&e).iter().any(|c| matches!(
            c,
            Unkept::Wider { was, now, .. } if *was == 0.12 && *now == 0.2
        )),
        "{e}"
    );
}

/// The changes to games already played that a refused growth names.
fn changes_to_played(e: &Error) -> &[Unkept] {
    match e {
        Error::Refused(Refusal::WouldChangePlayed(w)) => &w.problems,
        _ => panic!("not a refused growth: {e}"),
    }
}

/// A store whose writes of `state.json` fail while `full` is set, as
/// on a full disk.
struct FullDisk {
    inner: MemoryStore,
    full: std::sync::atomic::AtomicBool,
}

impl Store for FullDisk {
    fn read(&self, p: &Path) -> std::io::Result<Vec<u8>> {
        self.inner.read(p)
    }
    fn read_start(&self, p: &Path, n: u64) -> std::io::Result<Vec<u8>> {
        self.inner.read_start(p, n)
    }
    fn list(&self, d: &Path) -> std::io::Result<Vec<crate::store::Entry>> {
        self.inner.list(d)
    }
    fn is_dir(&self, p: &Path) -> bool {
        self.inner.is_dir(p)
    }
    fn is_file(&self, p: &Path) -> bool {
        self.inner.is_file(p)
    }
    fn create_dir_all(&self, d: &Path) -> std::io::Result<()> {
        self.inner.create_dir_all(d)
    }
    fn check_writable(&self, d: &Path) -> std::io::Result<()> {
        self.inner.check_writable(d)
    }
    fn write_atomic(&self, d: &Path, name: &str, b: &[u8]) -> std::io::Result<()> {
        if name == "state.json" && self.full.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(std::io::ErrorKind::StorageFull.into());
        }
        self.inner.write_atomic(d, name, b)
    }
    fn remove_file(&self, p: &Path) -> std::io::Result<()> {
        self.inner.remove_file(p)
    }
    fn remove_all(&self, p: &Path) -> std::io::Result<()> {
        self.inner.remove_all(p)
    }
    fn remove_dir(&self, p: &Path) -> std::io::Result<()> {
        self.inner.remove_dir(p)
    }
    fn remove_temporaries(&self, d: &Path) {
        self.inner.remove_temporaries(d)
    }
    fn take_lock(&self, p: &Path, owner: &str) -> std::io::Result<crate::store::Locking<'_>> {
        self.inner.take_lock(p, owner)
    }
}

#[test]
fn a_first_checkpoint_that_fails_is_removed_and_the_rerun_just_starts() {
    let s = FullDisk {
        inner: store_with(EXPERIMENT),
        full: true.into(),
    };
    let every_unit = RunOptions {
        checkpoint_every: Duration::ZERO,
        ..opts("out")
    };
    let e = run(&every_unit, &s, &Quiet).unwrap_err();
    let Error::Failed(Failure::AfterStart { cause, checkpoint }) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(*checkpoint, CheckpointNote::NoneYet);
    assert!(
        matches!(&**cause, Error::Failed(Failure::Run(RunError::Save(_)))),
        "{e}"
    );
    // The message says why in the user's words.
    assert!(e.to_string().contains("the disk is full"), "{e}");
    assert!(!s.is_dir(Path::new("out/.katro-checkpoint")));
    s.full.store(false, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(run(&every_unit, &s, &Quiet).unwrap().played, 80);
}

const WITH_MOVES: &str = "name = \"t\"\nseed = 3\nvariants = [\"katro-4x4\"]\ngames = 30\n\
    per_game_rows = true\nmoves_in_rows = true\n\n[[matchups]]\np1 = \"random\"\np2 = \"greedy\"\n";

/// The rows live only in games.csv; a grown run reads them back from
/// it, moves and all, and writes what a fresh run writes.
#[test]
fn a_grown_run_with_moves_reads_its_rows_from_games_csv() {
    let s = store_with(WITH_MOVES);
    run(&opts("out"), &s, &Quiet).unwrap();
    let state = String::from_utf8(file(&s, "out/run-state.json")).unwrap();
    assert!(!state.contains("\"games\":["), "{state}");
    assert!(state.contains("\"games_csv\":{\"bytes\":"), "{state}");
    let grown = grows_as_fresh(&s, &WITH_MOVES.replace("games = 30", "games = 50"));
    assert_eq!((grown.kept, grown.played), (30, 20));
}

/// Runs `bigger` into out/, which holds a smaller version, and into
/// fresh/: the files must be the same.
fn grows_as_fresh(s: &MemoryStore, bigger: &str) -> RunOutcome {
    s.insert("exp/t.toml", bigger);
    let grown = run(&opts("out"), s, &Quiet).unwrap();
    run(&opts("fresh"), s, &Quiet).unwrap();
    assert_eq!(csvs(s, "out"), csvs(s, "fresh"));
    assert_eq!(
        file(s, "out/run-state.json"),
        file(s, "fresh/run-state.json")
    );
    grown
}

/// Runs `bigger` into out/, which holds a smaller version: refused.
fn refused_growth(s: &MemoryStore, bigger: &str) -> Error {
    s.insert("exp/t.toml", bigger);
    run(&opts("out"), s, &Quiet).unwrap_err()
}

/// A games.csv edited after the run is never taken for the games it
/// held: growing from it is refused, naming it.
#[test]
fn a_games_csv_changed_by_hand_is_refused_when_growing() {
    let s = store_with(WITH_MOVES);
    run(&opts("out"), &s, &Quiet).unwrap();
    let text = String::from_utf8(file(&s, "out/games.csv")).unwrap();
    // The first game's seed column, one digit off: still a valid file.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let seed_at = lines[0].split(',').position(|c| c == "seed").unwrap();
    let mut fields: Vec<String> = lines[1].split(',').map(String::from).collect();
    let last = fields[seed_at].pop().unwrap();
    fields[seed_at].push(if last == '1' { '2' } else { '1' });
    lines[1] = fields.join(",");
    s.insert("out/games.csv", lines.join("\n") + "\n");
    let e = refused_growth(&s, &WITH_MOVES.replace("games = 30", "games = 50"));
    assert!(
        matches!(&e, Error::Damaged(Damage::RunState {
                problem: RunStateProblem::Rows { games, error },
                ..
            }) if games == Path::new("out/games.csv")
                && matches!(**error, FileError::RowsChanged { .. })),
        "{e}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with(
            "out/run-state.json: out/games.csv: games.csv is not the file katro wrote with it (",
        ) && text.ends_with(CANNOT_TELL),
        "{text}"
    );
}

/// How a refusal to grow from a damaged run state ends (docs/ERRORS.md).
const CANNOT_TELL: &str = ": katro cannot tell which games the results there hold. `katro \
     run exp/t.toml --out out --force` starts afresh, replacing only the files katro wrote \
     (files katro did not write are never deleted or overwritten); or give another output \
     folder";

/// A run state of an earlier format is refused with its format named,
/// not misread: its aggregates lack `max_relays_in_move`.
#[test]
fn an_earlier_run_state_is_refused() {
    let s = store_with(EXPERIMENT);
    run(&opts("out"), &s, &Quiet).unwrap();
    let mut state: serde_json::Value =
        serde_json::from_slice(&file(&s, "out/run-state.json")).unwrap();
    state
        .as_object_mut()
        .unwrap()
        .insert("format".into(), "katro-run-state-2".into());
    s.insert("out/run-state.json", serde_json::to_vec(&state).unwrap());
    let e = refused_growth(&s, &EXPERIMENT.replace("games = 40", "games = 50"));
    assert!(
        matches!(&e, Error::Damaged(Damage::RunState {
                problem: RunStateProblem::NotRead(RunStateError::Earlier(format)),
                ..
            }) if format == "katro-run-state-2"),
        "{e}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with(
            "out/run-state.json: format \"katro-run-state-2\" was written by an earlier katro"
        ) && text.ends_with(CANNOT_TELL),
        "{text}"
    );
}

#[test]
fn a_damaged_run_state_is_refused() {
    let s = store_with(EXPERIMENT);
    run(&opts("out"), &s, &Quiet).unwrap();
    s.insert("out/run-state.json", "{\"format\":");
    let e = refused_growth(&s, &EXPERIMENT.replace("games = 40", "games = 50"));
    assert!(
        matches!(&e, Error::Damaged(Damage::RunState {
                path,
                problem: RunStateProblem::NotRead(RunStateError::Damaged(_)),
                ..
            }) if path == Path::new("out/run-state.json")),
        "{e}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with("out/run-state.json: not a katro run state, or damaged (")
            && text.ends_with(CANNOT_TELL),
        "{text}"
    );
}

/// Puts a user's file at an output name once the run has begun playing.
struct UserWritesMidRun<'s> {
    store: &'s MemoryStore,
    path: String,
}

impl Progress for UserWritesMidRun<'_> {
    fn advance(&self, _games: u64) {
        if !self.store.is_file(Path::new(&self.path)) {
            self.store.insert(&self.path, "mine\n");
        }
    }
}

#[test]
fn a_users_file_that_appears_during_a_run_is_kept_and_refused() {
    for name in ["summary.csv", "report.html", "plots/win-rate.svg"] {
        let s = store_with(EXPERIMENT);
        let path = format!("out/{name}");
        let user = UserWritesMidRun {
            store: &s,
            path: path.clone(),
        };
        let e = run(&opts("out"), &s, &user).unwrap_err();
        // Bad input, exit 2, as before the run: not the machine's failure;
        // with what of the work is safe.
        let Error::Refused(Refusal::AfterStart { refusal, .. }) = &e else {
            panic!("{name}: {e:?}")
        };
        assert!(
            matches!(&**refusal, Refusal::WouldReplace { files, .. }
                if files == &[(PathBuf::from(&path), Whose::Users)]),
            "{e}"
        );
        assert_eq!(file(&s, &path), b"mine\n", "{name}");
    }
}

/// Every key path of a JSON value: `a.b` for a field, `a[]` for the
/// elements of an array (the union over them), with the type of the
/// value found there; a field's value `null` and its value set are both
/// recorded, so an optional field counts whether or not the sample has it.
fn json_shape(v: &serde_json::Value, at: &str, out: &mut std::collections::BTreeSet<String>) {
    use serde_json::Value;
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    out.insert(format!("{at}: {kind}"));
    match v {
        Value::Array(items) => {
            for x in items {
                json_shape(x, &format!("{at}[]"), out);
            }
        }
        Value::Object(fields) => {
            for (k, x) in fields {
                json_shape(x, &format!("{at}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// The format string a JSON file says it is, and a hash of its shape.
fn format_and_shape(bytes: &[u8]) -> (String, String) {
    let v: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let format = v["format"].as_str().unwrap().to_string();
    let mut shape = std::collections::BTreeSet::new();
    json_shape(&v, "", &mut shape);
    let text: Vec<String> = shape.into_iter().collect();
    let hash = format!(
        "{:016x}",
        crate::rng::bytes_hash(text.join("\n").as_bytes())
    );
    (format, hash)
}

/// Each JSON file format's version pinned to the fields it writes: a
/// field added, removed, renamed or retyped in a checkpoint, a shard or
/// run-state.json changes the shape's hash, and this test fails until
/// the format's constant (`CHECKPOINT_FORMAT`, `SHARD_FORMAT`,
/// `RUN_STATE_FORMAT`) is bumped and the new pair added below. Old pairs
/// stay, so a format string never stands for two shapes.
#[test]
fn each_json_format_version_is_pinned_to_the_fields_it_writes() {
    const PINNED: &[(&str, &str)] = &[
        ("katro-checkpoint-3", "37d147d7b57bf646"),
        ("katro-run-state-3", "296a6e80c9e5122c"),
        ("katro-shard-3", "cedc8048dbdb3e1f"),
    ];
    let s = store_with(EXPERIMENT);
    // A run stopped before its first game leaves its checkpoint; on one
    // thread, so that no unit has begun when the stop is seen and the
    // checkpoint is the same on every machine.
    let stopped = RunOptions {
        stop: Some(std::sync::Arc::new(true.into())),
        threads: Some(1),
        ..opts("stopped")
    };
    run(&stopped, &s, &Quiet).unwrap_err();
    let states: Vec<Vec<u8>> = s
        .files_under("stopped/.katro-checkpoint")
        .into_iter()
        .filter(|(p, _)| p.ends_with("state.json"))
        .map(|(_, b)| b)
        .collect();
    assert_eq!(states.len(), 1, "one checkpoint");
    run(&opts("whole"), &s, &Quiet).unwrap();
    let shard = RunOptions {
        shard: Some((1, 2)),
        ..opts("cut")
    };
    run(&shard, &s, &Quiet).unwrap();
    let files = [
        (
            crate::files::checkpoint::CHECKPOINT_FORMAT,
            states[0].clone(),
        ),
        (
            crate::files::run_state::RUN_STATE_FORMAT,
            file(&s, "whole/run-state.json"),
        ),
        (
            crate::files::shard::SHARD_FORMAT,
            file(&s, "cut/shards/shard-1-of-2.json"),
        ),
    ];
    let mut formats: Vec<&str> = PINNED.iter().map(|(f, _)| *f).collect();
    formats.sort_unstable();
    formats.dedup();
    assert_eq!(formats.len(), PINNED.len(), "a format pinned twice");
    let mut unpinned = Vec::new();
    for (constant, bytes) in files {
        let (format, shape) = format_and_shape(&bytes);
        assert_eq!(format, constant);
        if !PINNED.contains(&(format.as_str(), shape.as_str())) {
            unpinned.push(format!("(\"{format}\", \"{shape}\")"));
        }
    }
    assert!(
        unpinned.is_empty(),
        "fields changed in a format: bump its constant and pin the new pair beside the old: {}",
        unpinned.join(", ")
    );
}

/// A 4×3 board with a seed a hole: solved and proved in well under a
/// second, so only a limit stops it.
fn small_board() -> MemoryStore {
    let s = MemoryStore::new();
    s.insert(
        "v.toml",
        "name = \"small\"\n\n[board]\nrows = 4\nholes = 3\nseeds = 1\n",
    );
    s
}

/// `max_seconds` is the job's to enforce, on the clock it is given: with
/// a clock that moves a second a reading, `katro solve`'s job stops at a
/// half-second limit (exit 1, "at the --max-seconds limit"), the same
/// options with no limit solve, and no wall time is waited for.
#[test]
fn solve_stops_at_the_options_time_limit_on_the_clock_it_is_given() {
    use super::clock::FakeClock;
    use super::solve::{SolveOptions, solve};
    let store = small_board();
    let mut o = SolveOptions {
        variant: "v.toml".into(),
        out: None,
        max_gib: 1.0,
        max_seconds: Some(0.5),
    };
    let go = |o: &SolveOptions, clock: &FakeClock| {
        let mut progress = |_, _, _| std::ops::ControlFlow::Continue(());
        solve(o, &store, clock, &mut progress, &|_| {}, &|| None)
    };
    let clock = FakeClock::new(1.0);
    let e = go(&o, &clock).unwrap_err();
    assert!(matches!(e, Error::TimedOut { .. }), "{e}");
    assert!(
        e.to_string().contains("--max-seconds limit of 0.5 s"),
        "{e}"
    );
    assert_eq!(e.kind().exit_code(), 1);
    o.max_seconds = None;
    let clock = FakeClock::new(1.0);
    let text = go(&o, &clock).unwrap();
    assert!(text.contains("variant: small"), "{text}");
    assert!(
        clock.readings() >= 2,
        "the solve was timed on the clock given"
    );
}

/// The prover's limit likewise: each search stops at `max_seconds` on the
/// clock given and reports the bound it reached, stopped by "time"; with
/// no limit the same position proves. katro-4x4's start (a win in 17,
/// about 100,000 nodes) outlasts the first time the prover asks its watch
/// (at 16,384 nodes).
#[test]
fn prove_stops_each_search_at_the_options_time_limit() {
    use super::clock::FakeClock;
    use super::prove::{ProveOptions, prove};
    use crate::solve::prove::NoWatch;
    let store = MemoryStore::new();
    let mut o = ProveOptions {
        variant: "katro-4x4".into(),
        moves: Vec::new(),
        max_gib: 0.25,
        max_nodes: None,
        max_seconds: Some(0.5),
        max_depth: 60,
        certificate: None,
    };
    let stopped = prove(&o, &store, &FakeClock::new(1.0), &mut NoWatch, &|| None).unwrap();
    assert_eq!(stopped.value, "unknown", "{stopped}");
    assert_eq!(stopped.stopped, Some("time"), "{stopped}");
    o.max_seconds = None;
    let proved = prove(&o, &store, &FakeClock::new(1.0), &mut NoWatch, &|| None).unwrap();
    assert_eq!(proved.stopped, None, "{proved}");
    assert_eq!(
        (proved.value, proved.distance),
        ("win", Some(17)),
        "{proved}"
    );
}
