//! What went wrong in a job, as data: a kind that decides the exit code,
//! and within it one variant per event, carrying what the message names.
//! The `#[error]` texts are the messages `katro` prints (docs/ERRORS.md),
//! byte for byte; a caller matches the variants, never the text.

pub use crate::files::summary::SummaryLineProblem;
use std::io;
use std::path::PathBuf;

use crate::agents::AgentError;
use crate::engine::notation::NotationError;
use crate::experiment::OutOfRange;
use crate::experiment::exact::ExactError;
use crate::experiment::runner::RunError;
use crate::files::certificate::{CertificateError, Defect};
use crate::files::csv::LineError;
use crate::files::lock::LockHolder;
use crate::files::proved::ProvedCsvError;
use crate::files::run_state::RunStateError;
use crate::files::{FileError, RowError};
use crate::pictures::{ReplayError, ReportError};
use crate::rules::{InputError, LoadError, SettingsError};
use crate::solve::SolveError;
use crate::solve::openings::OpeningsError;
use crate::store::describe;

use super::Whose;

/// Why a job failed. Its [`ErrorKind`] decides the exit code.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A variant or experiment file that does not read: file, line, key.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A request katro turns down: a bad flag or move, an output folder
    /// it does not own, a board over `--max-memory`.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// A file katro wrote earlier (shard, checkpoint, manifest) that no
    /// longer reads or no longer fits the request.
    #[error(transparent)]
    Damaged(#[from] Damage),
    /// The machine let the job down: a write, delete or thread pool the
    /// system refused (disk full, permissions), or the runner itself.
    #[error(transparent)]
    Failed(#[from] Failure),
    /// The solver stopped at its `--max-seconds` cap.
    #[error("{variant}: {error}, at the --max-seconds limit of {max_seconds} s")]
    TimedOut {
        variant: String,
        error: SolveError,
        max_seconds: f64,
    },
    /// Stopped by a signal, with what the checkpoint kept.
    #[error("interrupted: {0}")]
    Interrupted(Interruption),
}

/// The kinds of [`Error`], the one rule `katro`'s exit code and the Python
/// package's `ExperimentError.exit_code` both follow (docs/ERRORS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Input,
    Refused,
    Damaged,
    Failed,
    TimedOut,
    Interrupted,
}

impl ErrorKind {
    /// 2 when the input is to blame and changing it helps, 130 when a
    /// signal stopped the job (the shell's 128 + SIGINT), 1 when the
    /// machine failed it.
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::Interrupted => 130,
            ErrorKind::Input | ErrorKind::Refused | ErrorKind::Damaged => 2,
            ErrorKind::Failed | ErrorKind::TimedOut => 1,
        }
    }
}

impl Error {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Input(_) => ErrorKind::Input,
            Error::Refused(_) => ErrorKind::Refused,
            Error::Damaged(_) => ErrorKind::Damaged,
            Error::Failed(_) => ErrorKind::Failed,
            Error::TimedOut { .. } => ErrorKind::TimedOut,
            Error::Interrupted(_) => ErrorKind::Interrupted,
        }
    }

    /// Whether the person who asked can fix it by changing the input
    /// (exit code 2 in `katro`), rather than the machine (exit code 1).
    pub fn is_user_input(&self) -> bool {
        self.kind().exit_code() == 2
    }
}

/// What a run stopped by a signal kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Interruption {
    /// `again`: the command that goes on, never with `--force`, which
    /// would start afresh.
    #[error(
        "{} ({cells} of {} finished) saved in the checkpoint {}; `{again}` goes on \
         from there",
        super::plural(*.games, "game"),
        super::plural(*.of_cells, "cell"),
        .dir.display()
    )]
    Saved {
        games: u64,
        cells: u64,
        of_cells: u64,
        dir: PathBuf,
        again: String,
    },
    /// `again`: the command, the same as before, that starts again.
    #[error("no game was saved yet: `{again}` starts again")]
    NothingSaved { again: String },
}

/// Whether the last checkpoint of a run that stopped after it began
/// playing is there to go on from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointNote {
    /// `again`: the command that goes on, never with `--force`.
    #[error(
        "the last checkpoint ({}, in {}) is intact: fix the problem, then `{again}` goes \
         on from it",
        super::plural(*.games, "game"),
        .dir.display()
    )]
    Intact {
        games: u64,
        dir: PathBuf,
        again: String,
    },
    #[error("no checkpoint had been written yet")]
    NoneYet,
}

/// Where a refused `--agents`, `--p1`... agent came from: the flag, or
/// nothing when the message names it already.
fn flagged(flag: &Option<&'static str>, e: &impl std::fmt::Display) -> String {
    flag.map_or_else(|| e.to_string(), |f| format!("{f}: {e}"))
}

/// Each file and whose it is, a line each.
fn whose_lines(files: &[(PathBuf, Whose)]) -> String {
    let lines: Vec<String> = files
        .iter()
        .map(|(path, whose)| format!("  {}: {}", path.display(), whose.why()))
        .collect();
    lines.join("\n")
}

/// `" on VARIANT"` when a variant is given.
fn on_variant(variant: &str) -> String {
    if variant.is_empty() {
        String::new()
    } else {
        format!(" on {variant}")
    }
}

/// `" line N"` when a CSV error knows its line.
fn csv_line(line: &Option<u64>) -> String {
    line.map_or(String::new(), |l| format!(" line {l}"))
}

/// Who needs the games.csv column that is missing, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnNeed {
    Judge,
    Viewer,
}

impl std::fmt::Display for ColumnNeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ColumnNeed::Judge => {
                "`katro judge` needs a games.csv written with per_game_rows = true and \
                 moves_in_rows = true (set both in the experiment and run it again)"
            }
            ColumnNeed::Viewer => {
                "the viewer needs a games.csv written with per_game_rows = true and \
                 moves_in_rows = true"
            }
        })
    }
}

/// What a file that cannot be read was to be, as its refusal says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readable {
    File,
    Experiment,
    /// `katro rate`'s input, which may be a folder or a CSV file.
    Results,
}

impl Readable {
    /// What the message calls it.
    pub fn noun(self) -> &'static str {
        match self {
            Readable::File => "the file",
            Readable::Experiment => "the experiment file",
            Readable::Results => "the results",
        }
    }

    /// What to give instead, after the reason; empty when nothing.
    pub fn hint(self) -> &'static str {
        match self {
            Readable::File | Readable::Experiment => "",
            Readable::Results => {
                " (give a folder written by `katro run`, or a CSV file of tallies)"
            }
        }
    }
}

/// A request katro turns down (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error(
        "the output folder {} is in use by another katro run ({holder}); wait for it to \
         end, stop it, or give another output folder (its lock file is {})",
        .dir.display(),
        .lock.display()
    )]
    FolderInUse {
        dir: PathBuf,
        holder: Box<LockHolder>,
        lock: PathBuf,
    },
    #[error("cannot take the lock {}: {}", .lock.display(), describe(.error))]
    CannotLock { lock: PathBuf, error: io::Error },
    /// Files katro did not write (or changed since), at names katro
    /// writes, which nothing replaces: `files` lists them as the message
    /// does, `again` is the command to run once they are moved.
    #[error(
        "the output folder {} holds files katro did not write, or changed since it wrote \
         them, under names katro writes:\n{}\n\
         katro never deletes or overwrites them, --force or not: move or rename them, then \
         run `{again}`",
        .dir.display(),
        .files.join("\n")
    )]
    ForeignUnderOurNames {
        dir: PathBuf,
        files: Vec<String>,
        again: String,
    },
    #[error("{0}")]
    FolderNotOurs(Box<FolderNotOurs>),
    #[error(
        "{}: the file exists and {} (katro replaces only the files it wrote, unchanged \
         since, --force or not): give another file name, or move it away",
        .path.display(),
        .whose.why()
    )]
    FileNotOurs { path: PathBuf, whose: Whose },
    /// `again`: the command that writes the shard once the file is moved.
    #[error(
        "{}: {}: katro replaces only the files it wrote, unchanged since, --force \
         or not: move it away, then `{again}` writes the shard",
        .path.display(),
        .whose.why()
    )]
    ShardNotOurs {
        path: PathBuf,
        whose: Whose,
        again: String,
    },
    #[error(
        "{what} would replace files katro may not replace:\n{}\n\
         katro replaces only the files it wrote, unchanged since, --force or not: move \
         them away, or give another output folder",
        whose_lines(.files)
    )]
    WouldReplace {
        what: String,
        files: Vec<(PathBuf, Whose)>,
    },
    #[error(
        "{}: exists and was not written by `katro solve-family`; move it away or choose \
         another --out",
        .path.display()
    )]
    NotFamilyFile { path: PathBuf },
    /// A file at a name `katro prove-family` writes that it did not
    /// write (told by its header or its manifest's `kind`).
    #[error(
        "{}: exists and was not written by `katro prove-family`; move it away or choose \
         another --out",
        .path.display()
    )]
    NotProveFamilyFile { path: PathBuf },
    /// The files of a `katro prove-family` run of other limits, boards or
    /// build, which a run does not take rows from; `differs` says how.
    #[error(
        "{}: holds a `katro prove-family` run of {differs}: its rows would not be this \
         run's; give another --out, or move {files} away to start afresh",
        .manifest.display()
    )]
    ProveFamilyOther {
        manifest: PathBuf,
        files: String,
        differs: String,
    },
    #[error(
        "{}: no shard files of `katro prove-family`: run `katro prove-family --shard I/N \
         --out {}` for I = 1 to N first",
        .shards.display(),
        .dir.display()
    )]
    NoProvedShards { shards: PathBuf, dir: PathBuf },
    /// `--solved FILE` that is not solve-family's solved.csv of this build.
    #[error(
        "--solved {}: not a solved.csv of this katro ({why}); give the solved.csv \
         `katro solve-family` wrote",
        .path.display()
    )]
    NotSolvedCsv { path: PathBuf, why: String },
    /// `katro report --proved FILE`: a file that is not the prover's
    /// value of a start.
    #[error(
        "{}: {why}; give the JSON `katro prove VARIANT --json` wrote of a start (e.g. \
         results/prove/katro-4x4.json) or a proved.csv `katro prove-family` wrote",
        .path.display()
    )]
    NotProvedStart { path: PathBuf, why: String },
    #[error("{shown}: give a file name to write")]
    NoFileName { shown: String },
    #[error("{shown}: the folder {} does not exist", .dir.display())]
    NoSuchFolder { shown: String, dir: PathBuf },
    #[error("{shown}: is a folder: give a file name to write")]
    IsAFolder { shown: String },
    #[error("--out {}: is a folder; give a file name", .out.display())]
    OutIsAFolder { out: PathBuf },
    #[error(
        "the position {} is already over (status {status}): there is nothing to prove; \
         give fewer moves",
        if .after.is_empty() { "at the start".to_string() } else { format!("after `{}`", .after) }
    )]
    NothingToProve { after: String, status: &'static str },
    #[error("{dir}: not a folder: give a results folder")]
    NotAFolder { dir: String },
    /// An output folder that does not take files: `origin` says where it
    /// was named (`--out X`, the experiment's `output`...), when it was.
    #[error(
        "{}cannot write to the output folder {}: {}",
        .origin.as_ref().map_or(String::new(), |o| format!("{o}: ")),
        .dir.display(),
        describe(.error)
    )]
    NotWritable {
        origin: Option<String>,
        dir: PathBuf,
        error: io::Error,
    },
    /// A file the command was given, or needs, that cannot be read.
    #[error(
        "{}: cannot read {}: {}{}",
        .path.display(),
        .what.noun(),
        describe(.error),
        .what.hint()
    )]
    Unreadable {
        path: PathBuf,
        what: Readable,
        error: io::Error,
    },
    #[error("cannot read standard input: {0}")]
    Stdin(io::Error),
    /// `needs` says which command needs the file, and what file.
    #[error("{}: not found: {needs}", .path.display())]
    NotFound { path: PathBuf, needs: String },
    /// A command that needs finished results, in the folder of a run
    /// interrupted before it wrote them; `finish` is the command that
    /// finishes it.
    #[error(
        "{}: no results yet: it holds a run of experiment `{name}` interrupted before it \
         finished ({} saved in its checkpoint {}); `{finish}` finishes it, then run this \
         command again",
        .dir.display(),
        super::plural(*.games, "game"),
        .checkpoint.display()
    )]
    UnfinishedRun {
        dir: PathBuf,
        name: String,
        games: u64,
        checkpoint: PathBuf,
        finish: String,
    },
    /// A number a flag takes, out of what it allows: `--rounds 0`.
    #[error("{flag} {value}: {want}")]
    FlagValue {
        flag: &'static str,
        value: String,
        want: String,
    },
    /// A size or time a flag takes that is none: `--max-memory: -1 is...`.
    #[error("{flag}: {value} is not {want}")]
    FlagNotA {
        flag: &'static str,
        value: f64,
        want: &'static str,
    },
    /// A flag's text that is not what it takes: `--agents `random``.
    #[error("{flag} `{text}`: {want}")]
    FlagText {
        flag: &'static str,
        text: String,
        want: &'static str,
    },
    /// A flag that does not go with the others: `--threads` with `--mcts`.
    #[error("{flag}: {why}")]
    FlagConflict { flag: &'static str, why: String },
    #[error("{flag}: {error}")]
    FlagRange {
        flag: &'static str,
        error: OutOfRange,
    },
    #[error("{var}={value:?}: {what}, from 0 to 86400")]
    EnvSeconds {
        var: String,
        value: String,
        what: String,
    },
    /// `katro replay` given neither a variant with its moves nor a row of
    /// a games.csv.
    #[error("give VARIANT MOVES... or --from-csv FILE --row N")]
    ReplayNeedsGame,
    #[error("{}", flagged(.flag, .error))]
    Agent {
        flag: Option<&'static str>,
        error: AgentError,
    },
    /// `--ply-limit` and `--lap-limit` that do not fit the rules.
    #[error("{0}")]
    Limits(SettingsError),
    #[error("--lap-limit {limit}: {error}")]
    LapLimit { limit: u64, error: SettingsError },
    #[error("{0}")]
    Variant(LoadError),
    #[error("{0}")]
    Board(SettingsError),
    #[error("{variant}: {error}")]
    Solve { variant: String, error: SolveError },
    #[error("{0}")]
    Replay(ReplayError),
    #[error("{}: {error}", .dir.display())]
    Report {
        dir: PathBuf,
        error: Box<ReportError>,
    },
    /// A variant the manifest does not rebuild.
    #[error("{}: {error}", .manifest.display())]
    ManifestVariant { manifest: PathBuf, error: FileError },
    /// A row of games.csv that `katro judge` cannot use.
    #[error("{file}: line {line}: {why}")]
    GamesLine {
        file: String,
        line: u64,
        why: String,
    },
    #[error("{file}: cannot read the header row: {error}")]
    GamesHeader { file: String, error: csv::Error },
    #[error("{file}: no `{column}` column: {need}")]
    NoColumn {
        file: String,
        column: String,
        need: ColumnNeed,
    },
    #[error(
        "{file}: --row {row}: give a row from 1 to {rows} (1 is the first game after the header)"
    )]
    NoSuchRow { file: String, row: u64, rows: usize },
    /// A row of games.csv the viewer cannot replay.
    #[error("{file}: row {row}: {error}")]
    RowLimits {
        file: String,
        row: u64,
        error: SettingsError,
    },
    #[error("{file}: row {row}, `{column}` {text:?}: {why}")]
    RowValue {
        file: String,
        row: u64,
        column: &'static str,
        text: String,
        why: String,
    },
    #[error(
        "{file}: row {row}: variant `{variant}` is not a preset and there is no \
         manifest.json beside the file to rebuild it from"
    )]
    RowVariant {
        file: String,
        row: u64,
        variant: String,
    },
    #[error("{0}")]
    GamesTable(ReportError),
    #[error(
        "move {ply} `{text}`: the game is already over (status {status}) after {}",
        crate::engine::notation::plural(*.plies, "ply", "plies")
    )]
    GameOver {
        ply: usize,
        text: String,
        status: &'static str,
        plies: u32,
    },
    #[error("move {ply} {error}; legal moves: {}", .legal.join(" "))]
    BadMove {
        ply: usize,
        error: NotationError,
        legal: Vec<String>,
    },
    #[error(
        "move {ply} `{text}` is illegal for player {player} here; legal moves: {}",
        .legal.join(" ")
    )]
    IllegalMove {
        ply: usize,
        text: String,
        player: u8,
        legal: Vec<String>,
    },
    /// The folder for a CSV file's rating files is a file; `named` when
    /// `--out` named it, else it is the default one beside the CSV.
    #[error(
        "{}: a file is there, and katro writes the rating files of {input} into a folder \
         of that name{}: give the folder with `katro rate {} --out FOLDER`",
        .out.display(),
        if *.named { "" } else { " (without --out: the CSV's name without its extension)" },
        super::replay::shell_word(.input)
    )]
    RateOutIsAFile {
        input: String,
        out: PathBuf,
        named: bool,
    },
    #[error("{input}: no results between two different agents to rate")]
    NothingToRate { input: String },
    /// `katro agents --ratings FILE` with no rating of `variant` in FILE.
    #[error(
        "{file}: no row of variant `{variant}`: give the ratings.csv of a tournament played \
         on {variant}, such as results/strong-play/ratings.csv"
    )]
    NoRatingsOf { file: String, variant: &'static str },
    /// `katro agents --ratings FILE` with two ratings of one level.
    #[error(
        "{file} lines {first} and {second}: two ratings of `{agent}` on {variant}: give the \
         ratings.csv of one tournament on {variant}, such as results/strong-play/ratings.csv"
    )]
    RatedTwice {
        file: String,
        agent: String,
        variant: &'static str,
        first: u64,
        second: u64,
    },
    #[error("{file}{}: not a CSV file katro can read: {error}", csv_line(.line))]
    NotCsv {
        file: String,
        line: Option<u64>,
        error: csv::Error,
    },
    #[error(
        "{file}: missing column{} {}: a results CSV needs a header with {}",
        if .missing.len() == 1 { "" } else { "s" },
        .missing.join(", "),
        .names.join(",")
    )]
    MissingColumns {
        file: String,
        missing: Vec<String>,
        names: Vec<String>,
    },
    #[error("{file} line {line}: {column} is `{text}`: give a whole number of games, 0 or more")]
    NotACount {
        file: String,
        line: u64,
        column: String,
        text: String,
    },
    #[error("{file} line {line}: p1 and p2 must name the agents")]
    NoAgents { file: String, line: u64 },
    #[error(
        "{file} line {line}: {p1} against {p2}{} is given twice: give each seat order once",
        on_variant(.variant)
    )]
    PairingTwice {
        file: String,
        line: u64,
        p1: String,
        p2: String,
        variant: String,
    },
    #[error(
        "{}: no self-play cell of an `alphabeta` agent with `nodes`: nothing to draw a \
         strength curve from",
        .path.display()
    )]
    NoCurveCells { path: PathBuf },
    #[error("summary.csv:{line}: {error}")]
    CurveLimits { line: u64, error: SettingsError },
    #[error(
        "summary.csv:{line}: the rules `{rules}` are not those the manifest gives `{variant}` ({manifest_rules})"
    )]
    RulesDiffer {
        line: u64,
        rules: String,
        variant: String,
        manifest_rules: String,
    },
    /// A nearby.csv or openings.csv that does not read as this katro
    /// writes it: one a command would add its rows to, or
    /// `katro curve --openings FILE`.
    #[error(
        "{}: {error}: not a file as this katro writes it; move it away, or give another \
         file",
        .path.display()
    )]
    UnreadableCsv { path: PathBuf, error: LineError },
    /// `katro prove-openings --plies` with more openings than katro
    /// enumerates.
    #[error("{variant}: --plies {plies}: {error}; give fewer plies")]
    Openings {
        variant: String,
        plies: u32,
        error: OpeningsError,
    },
    #[error("{0}")]
    TooManyOpenings(Box<TooManyOpenings>),
    #[error("{0}")]
    WouldChangePlayed(Box<WouldChangePlayed>),
    /// The games a grown run keeps, which do not read back.
    #[error("{0}")]
    KeptGames(FileError),
    #[error(
        "{}: no shard files: run `katro run EXPERIMENT --shard I/N --out {}` for I = 1 \
         to N first",
        .shards.display(),
        .dir.display()
    )]
    NoShards { shards: PathBuf, dir: PathBuf },
    #[error(
        "{path}: neither a variant file (it has no [board] table) nor an experiment file \
         (it has no `variants` or `matchups`)"
    )]
    NeitherKind { path: String },
    /// `katro validate`'s count of the files with problems.
    #[error("{bad} of {} {} problems", super::plural(*.files as u64, "file"), if *.bad == 1 { "has" } else { "have" })]
    Invalid { bad: usize, files: usize },
    /// `katro check-proof`: a certificate file that cannot be read, is
    /// not gzip or UTF-8 text, or (`reason`) why not.
    #[error("{}: cannot read the certificate: {reason}", .path.display())]
    CertificateUnreadable { path: PathBuf, reason: String },
    /// A certificate whose text is not the format (its line named).
    #[error("{} {error}", .path.display())]
    CertificateFormat {
        path: PathBuf,
        error: CertificateError,
    },
    /// A certificate that does not prove its claim (its line named).
    #[error("{} {defect}", .path.display())]
    ProofDefect { path: PathBuf, defect: Box<Defect> },
    /// A refusal met after the run began playing.
    #[error("{refusal}\n{checkpoint}")]
    AfterStart {
        refusal: Box<Refusal>,
        checkpoint: CheckpointNote,
    },
}

/// Without `--force`: what katro wrote for another experiment, build or
/// run in an output folder; `forced` is this command with `--force`,
/// `other_build` with `--allow-other-build` when that alone would do.
#[derive(Debug, thiserror::Error)]
#[error(
    "the output folder {} holds files that are not this run's:\n{}\n\
     this is experiment `{name}` (hash {hash}) and katro build {}.{}{} `{forced}` \
     starts afresh, {}; or give another output folder",
    .dir.display(),
    .found.join("\n"),
    crate::files::BUILD,
    .other_build.as_ref().map_or(String::new(), |c| format!(" `{c}` uses them as they are.")),
    if *.blocking {
        " First move or rename the files katro did not write under names katro writes \
         (listed above): nothing replaces them."
    } else { "" },
    super::FORCE_MEANS
)]
pub struct FolderNotOurs {
    pub dir: PathBuf,
    pub found: Vec<String>,
    pub name: String,
    pub hash: String,
    pub forced: String,
    pub other_build: Option<String>,
    pub blocking: bool,
}

/// An exact matchup with more lines than katro follows: where the
/// experiment asks for it, its cell, and the bound it passed.
#[derive(Debug, thiserror::Error)]
#[error(
    "{path}: `{key}`: variant `{variant}`, matchup `{matchup}`: {error}: sample \
     this matchup (give \"sampled\", or leave `openings` out), or give it fewer \
     `opening_plies` or a lower `ply_limit`"
)]
pub struct TooManyOpenings {
    pub path: String,
    pub key: String,
    pub variant: String,
    pub matchup: String,
    pub error: ExactError,
}

/// A finished run that this version of its experiment would change:
/// `problems` names each change to games already played.
#[derive(Debug, thiserror::Error)]
#[error(
    "the output folder {} holds the finished results of experiment `{name}` (hash \
     {old_hash}), and this version of it (hash {new_hash}) would change games already \
     played:\n  {}\n\
     a run grows only by more games, tighter precision, or new variants or matchups. \
     `{forced}` starts afresh, {}; or give another output folder",
    .dir.display(),
    lines(.problems, "\n  "),
    super::FORCE_MEANS
)]
pub struct WouldChangePlayed {
    pub dir: PathBuf,
    pub name: String,
    pub old_hash: String,
    pub new_hash: String,
    pub problems: Vec<super::grow::Unkept>,
    /// This run's command with `--force`.
    pub forced: String,
}

/// A file katro wrote that no longer reads or no longer fits (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum Damage {
    #[error("{}: cannot read it: {error}", .path.display())]
    Manifest {
        path: PathBuf,
        error: serde_json::Error,
    },
    /// A line of a finished run's summary.csv.
    #[error("{}:{line}: {problem}", .path.display())]
    SummaryLine {
        path: PathBuf,
        line: u64,
        problem: SummaryLineProblem,
    },
    /// `problems`: each shard that does not read, or does not fit the
    /// others.
    #[error("cannot merge the shards in {}:\n{}", .dir.display(), lines(.problems, "\n"))]
    Shards {
        dir: PathBuf,
        problems: Vec<ShardProblem>,
    },
    /// The shards read, but do not make the run they say they are.
    #[error("cannot merge the shards in {}: {mismatch}", .dir.display())]
    ShardMismatch {
        dir: PathBuf,
        mismatch: MergeMismatch,
    },
    /// `forced`: this run's command with `--force` (the error boxed, as
    /// `RunStateProblem::Rows`'s is, so that every job's `Error` stays
    /// small).
    #[error(
        "{error}. `{forced}` deletes it and starts afresh, {}",
        super::FORCE_MEANS
    )]
    Checkpoint {
        error: Box<FileError>,
        forced: String,
    },
    /// A proved.csv (or a shard's) that does not read as katro wrote it.
    #[error(
        "{}: {error}: not as `katro prove-family` wrote it; move it away, or give \
         another --out",
        .path.display()
    )]
    ProvedCsv {
        path: PathBuf,
        error: ProvedCsvError,
    },
    /// A `katro prove-family` manifest (by its `kind`) that does not read.
    #[error(
        "{}: cannot read it as `katro prove-family`'s manifest ({reason}); move it away, \
         or give another --out",
        .path.display()
    )]
    ProvedManifest { path: PathBuf, reason: String },
    /// `katro prove-family --merge`: each shard that does not read, or does
    /// not fit the others.
    #[error("cannot merge the shards in {}:\n{}", .dir.display(), lines(.problems, "\n"))]
    ProvedShards {
        dir: PathBuf,
        problems: Vec<ProvedShardProblem>,
    },
    /// `forced`: this run's command with `--force`.
    #[error(
        "{}: {problem}: katro cannot tell which games the results there hold. `{forced}` \
         starts afresh, {}; or give another output folder",
        .path.display(),
        super::FORCE_MEANS
    )]
    RunState {
        path: PathBuf,
        problem: RunStateProblem,
        forced: String,
    },
    #[error("{damage}\n{checkpoint}")]
    AfterStart {
        damage: Box<Damage>,
        checkpoint: CheckpointNote,
    },
}

/// Each item on a line of its own, as a message lists them.
fn lines(items: &[impl std::fmt::Display], between: &str) -> String {
    let lines: Vec<String> = items.iter().map(ToString::to_string).collect();
    lines.join(between)
}

/// One shard file and what it says of itself, a line of a
/// [`ShardProblem`]'s list: each file is listed so the odd one out shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardSays<T> {
    pub path: PathBuf,
    pub says: T,
}

/// The experiment a shard says it is part of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardExperiment {
    pub name: String,
    pub hash: String,
}

/// A shard's index among the `count` the run was cut into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardIndex {
    pub index: u64,
    pub count: u64,
}

/// `  FILE: WHAT` for each shard, `what` saying what it says.
fn listing<T>(shards: &[ShardSays<T>], what: impl Fn(&T) -> String) -> String {
    let lines: Vec<String> = shards
        .iter()
        .map(|s| format!("  {}: {}", super::file_name(&s.path), what(&s.says)))
        .collect();
    lines.join("\n")
}

/// The shard files' names, as a message lists them.
fn file_names(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| super::file_name(p)).collect();
    names.join(", ")
}

/// A shard that does not read, or shards that do not fit together: one
/// line of [`Damage::Shards`], which lists every one found so that one
/// merge names all there is to fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardProblem {
    /// A shard file that does not read as this katro's.
    #[error(transparent)]
    Unreadable(FileError),
    /// Shards of more than one experiment hash; `shards` lists every
    /// shard with the experiment it says it is of.
    #[error(
        "the shards come from different experiments:\n{}",
        listing(.shards, |e| format!("experiment `{}`, hash {}", e.name, e.hash))
    )]
    OtherExperiments {
        shards: Vec<ShardSays<ShardExperiment>>,
    },
    /// Without `--allow-other-build`: some shard's games were played by
    /// another build; `shards` lists every shard with its builds, `merge`
    /// is the command that merges them anyway.
    #[error(
        "shards played by another katro build than this one ({}), whose games may \
         differ (`{merge}` merges them anyway):\n{}",
        crate::files::BUILD,
        listing(.shards, |builds| format!("katro build {}", builds.join(", ")))
    )]
    OtherBuild {
        shards: Vec<ShardSays<Vec<String>>>,
        merge: String,
    },
    /// Shards cut for more than one count; `shards` lists every shard
    /// with its index and count.
    #[error(
        "the shards were cut for different N:\n{}",
        listing(.shards, |s| format!("shard {}/{}", s.index, s.count))
    )]
    OtherCounts { shards: Vec<ShardSays<ShardIndex>> },
    /// A shard whose index is not one of 1..=`count`.
    #[error("{}: claims to be shard {index}/{count}", super::file_name(.path))]
    OutOfRange {
        path: PathBuf,
        index: u64,
        count: u64,
    },
    /// Shard `index` claimed by each of the files at `paths`.
    #[error("shard {index}/{count} is there {} times: {}", .paths.len(), file_names(.paths))]
    Duplicate {
        index: u64,
        count: u64,
        paths: Vec<PathBuf>,
    },
    /// Shards of 1..=`count` that no file is; `experiment` and `dir` make
    /// the command that plays them.
    #[error(
        "missing {} {}: run each with `katro run {experiment} --shard I/{count} --out {}`",
        if .missing.len() == 1 { "shard" } else { "shards" },
        .missing.iter().map(|i| format!("{i}/{count}")).collect::<Vec<_>>().join(", "),
        .dir.display()
    )]
    Missing {
        missing: Vec<u64>,
        count: u64,
        experiment: String,
        dir: PathBuf,
    },
}

/// A `katro prove-family` shard that does not read, or shards that do not
/// make one family: one line of [`Damage::ProvedShards`], which lists
/// every one found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProvedShardProblem {
    /// A shard's file that does not read as katro wrote it.
    #[error("{}: {reason}", super::file_name(.path))]
    Unreadable { path: PathBuf, reason: String },
    /// A shard's manifest whose name says another shard than its content.
    #[error("{}: says it is shard {says}", super::file_name(.path))]
    Misnamed { path: PathBuf, says: String },
    /// A shard of another family than the first shard's: `differs` says
    /// how (limits, boards, build, N).
    #[error("{}: {differs} than {}", super::file_name(.path), super::file_name(.first))]
    OtherFamily {
        path: PathBuf,
        first: PathBuf,
        differs: String,
    },
    /// A shard still under way (or killed): the same command goes on.
    #[error(
        "{}: unfinished ({done} of {boards} boards): run its `katro prove-family --shard` \
         command again to finish it",
        super::file_name(.path)
    )]
    Unfinished {
        path: PathBuf,
        done: usize,
        boards: usize,
    },
    /// A shard's CSV with other rows than its manifest's boards.
    #[error("{}: {rows} rows, but the shard has {boards} boards", super::file_name(.path))]
    OtherRows {
        path: PathBuf,
        rows: usize,
        boards: usize,
    },
    /// Shards of 1..=`count` with no manifest and CSV.
    #[error(
        "missing {} {}: run each with `katro prove-family --shard I/{count} --out DIR` \
         and the same limits",
        if .missing.len() == 1 { "shard" } else { "shards" },
        .missing.iter().map(|i| format!("{i}/{count}")).collect::<Vec<_>>().join(", ")
    )]
    Missing { missing: Vec<u64>, count: u64 },
}

/// Why shards that each read do not make the run they say they are;
/// `path` is the shard file at fault, the message names its file name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeMismatch {
    /// The experiment text and variant files the shard carries.
    #[error("the experiment stored in {} does not parse:\n{error}", super::file_name(.path))]
    Experiment { path: PathBuf, error: InputError },
    /// The shard's recorded hash is not that of the experiment it carries.
    #[error(
        "{} says experiment hash {says}, but its experiment gives {gives}",
        super::file_name(.path)
    )]
    OtherHash {
        path: PathBuf,
        says: String,
        gives: String,
    },
    /// The shard was cut into units by a katro that cuts them otherwise.
    #[error("{} cuts the games into other units", super::file_name(.path))]
    OtherUnits { path: PathBuf },
    /// A stored game that is no game of the experiment's cells (boxed,
    /// as in [`FileError::Row`], to keep the error small).
    #[error("{}: {error}", super::file_name(.path))]
    Row { path: PathBuf, error: Box<RowError> },
    /// The shards' states do not add up to the experiment.
    #[error(transparent)]
    Parts(RunError),
}

/// Why a finished run's run-state.json cannot be grown from.
#[derive(Debug, thiserror::Error)]
pub enum RunStateProblem {
    /// The store cannot read the file; io's error is neither Clone nor
    /// Eq, so only its text is kept.
    #[error("cannot read it ({reason})")]
    Unreadable { reason: String },
    /// Of an earlier format, or not a run state.
    #[error(transparent)]
    NotRead(RunStateError),
    /// A run state of another format or experiment than the manifest
    /// beside it, which katro never writes: the folder was mixed by hand
    /// (boxed, as `Rows`'s error is, so that every job's `Error` stays
    /// small beside the command a refusal names).
    #[error(
        "format {:?} of experiment hash {}, but manifest.json says hash {}",
        .0.format,
        .0.hash,
        .0.manifest_hash
    )]
    OtherRun(Box<OtherRunState>),
    /// The games.csv at `games` that holds the run's rows (boxed: beside
    /// the path, a `FileError` would make every job's `Error` larger).
    #[error("{}: {error}", .games.display())]
    Rows {
        games: PathBuf,
        error: Box<FileError>,
    },
}

/// What [`RunStateProblem::OtherRun`] found: the run state's format and
/// experiment hash, and the hash of the manifest beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherRunState {
    pub format: String,
    pub hash: String,
    pub manifest_hash: String,
}

/// The machine let the job down (exit 1).
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    #[error("cannot write {}: {}", .path.display(), describe(.error))]
    Write { path: PathBuf, error: io::Error },
    #[error("cannot create {}: {}", .path.display(), describe(.error))]
    Create { path: PathBuf, error: io::Error },
    #[error("cannot delete {}: {}", .path.display(), describe(.error))]
    Delete { path: PathBuf, error: io::Error },
    #[error("--force: cannot delete {}: {error}", .path.display())]
    ForceDelete { path: PathBuf, error: io::Error },
    #[error("cannot delete the finished checkpoint {}: {error}", .path.display())]
    DeleteCheckpoint { path: PathBuf, error: io::Error },
    #[error("cannot write to standard output: {0}")]
    Stdout(io::Error),
    #[error("cannot start the solver's threads: {0}")]
    Threads(rayon::ThreadPoolBuildError),
    #[error("{0}")]
    Run(RunError),
    /// A picture katro drew wrong: a katro bug.
    #[error("{0}")]
    Replay(ReplayError),
    #[error("{}: {error}", .dir.display())]
    Report {
        dir: PathBuf,
        error: Box<ReportError>,
    },
    /// The report of results just written, which should always draw.
    #[error("{0}")]
    ReportOfRun(Box<Error>),
    /// `katro prove-family --check-solved`: the prover and the solver
    /// value some board differently; `disagreements` names each.
    #[error(
        "the prover disagrees with {} on {} of {} boards compared:\n{}",
        .solved.display(),
        .disagreements.len(),
        .compared,
        .disagreements.join("\n")
    )]
    ProverDisagrees {
        solved: PathBuf,
        compared: usize,
        disagreements: Vec<String>,
    },
    /// Anything that stopped a run after it began playing.
    #[error("{cause}\n{checkpoint}")]
    AfterStart {
        cause: Box<Error>,
        checkpoint: CheckpointNote,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_exit_code() {
        let refused = Error::from(Refusal::ReplayNeedsGame);
        let failed = Error::from(Failure::Stdout(io::ErrorKind::StorageFull.into()));
        let again = "katro run e.toml --out o".to_string();
        let stopped = Error::Interrupted(Interruption::NothingSaved { again });
        assert_eq!(refused.kind().exit_code(), 2);
        assert_eq!(failed.kind().exit_code(), 1);
        assert_eq!(stopped.kind().exit_code(), 130);
        assert!(refused.is_user_input() && !failed.is_user_input() && !stopped.is_user_input());
        assert_eq!(
            stopped.to_string(),
            "interrupted: no game was saved yet: `katro run e.toml --out o` starts again"
        );
    }
}
