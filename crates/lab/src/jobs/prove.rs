//! `katro prove` (docs/SOLVED.md, "Proving a position"): the exact value
//! of a variant's start, or of the position after some moves, by proof
//! search; every first move's value, one principal line, and on request
//! the certificate of a win. The caller gives the clock (a
//! [`Watch`] that stops the search at the time cap or on Ctrl-C) and the
//! process's peak memory: the library does no I/O.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use crate::engine::notation::{grouped as group, move_name, plural};
use crate::engine::{Move, Player, Position, Silent};
use crate::files::certificate::{Certificate, write_certificate};
use crate::rules::Rules;
use crate::solve::prove::{Limits, Outcome, Prover, Searched, Stop, Watch};
use crate::store::Store;

use super::certificate::{certificate_text, gzip};
use super::clock::{Clock, Deadline};
use super::replay::parse_game;
use super::solve::{check_seconds, max_bytes};
use super::{Error, Refusal, load_variant};

/// `--max-memory` when not given, in GiB: the table of one search.
pub const DEFAULT_MAX_MEMORY_GIB: f64 = 1.0;
/// `--max-nodes` when not given: each search's nodes, so that a plain
/// `katro prove` ends (a few seconds a search) even where a first move
/// draws by infinite play; a proof that needs more asks for more.
pub const DEFAULT_MAX_NODES: u64 = 10_000_000;
/// `--max-depth` when not given, in decisions.
pub const DEFAULT_MAX_DEPTH: u32 = 200;

/// What `katro prove` is asked.
pub struct ProveOptions {
    pub variant: String,
    /// Moves from the start to the position to prove, in RULES.md's
    /// notation; none for the start.
    pub moves: Vec<String>,
    pub max_gib: f64,
    /// Each search's nodes; `None` for no budget.
    pub max_nodes: Option<u64>,
    /// Each search's seconds on the caller's [`Clock`], checked and
    /// enforced here.
    pub max_seconds: Option<f64>,
    pub max_depth: u32,
    /// Where to write the certificate of a win (gzip when it ends in
    /// `.gz`).
    pub certificate: Option<String>,
}

/// One legal move of the proven position and its value for the mover.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveValue {
    #[serde(rename = "move")]
    pub name: String,
    pub value: &'static str,
    pub distance: Option<u32>,
    /// "Neither side forces a win within this many decisions" after it.
    pub bound: Option<u32>,
    pub stopped: Option<&'static str>,
    pub nodes: u64,
}

/// What `katro prove` found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proved {
    pub variant: String,
    pub rules: String,
    /// The moves from the start to the position proven.
    pub after: Vec<String>,
    pub to_move: &'static str,
    pub value: &'static str,
    pub distance: Option<u32>,
    pub bound: Option<u32>,
    /// What ended an unproven search: `depth`, `nodes` or `time`.
    pub stopped: Option<&'static str>,
    pub moves: Vec<MoveValue>,
    /// A principal line from the position: fastest win, slowest loss.
    pub line: Vec<String>,
    /// Nodes of every search: the position's, each move's, the line's
    /// and the certificate's.
    pub nodes: u64,
    pub seconds: f64,
    pub table_bytes: u64,
    pub peak_memory_bytes: Option<u64>,
    pub certificate: Option<CertificateWritten>,
}

/// The certificate a proof wrote.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CertificateWritten {
    pub file: String,
    /// Positions where the winner moves, one line each.
    pub decisions: usize,
    pub bytes: u64,
}

/// Proves the position `opts` names; each search (the position's and
/// every move's) stops at `max_seconds` on `clock`, or when `watch` says
/// so, and a stopped search reports the bound it established.
pub fn prove(
    opts: &ProveOptions,
    store: &dyn Store,
    clock: &dyn Clock,
    watch: &mut dyn Watch,
    peak: &dyn Fn() -> Option<u64>,
) -> Result<Proved, Error> {
    let started = clock.seconds();
    let table_bytes = max_bytes(opts.max_gib)?;
    check_seconds(opts.max_seconds)?;
    if opts.max_depth == 0 {
        return Err(Refusal::FlagNotA {
            flag: "--max-depth",
            value: 0.0,
            want: "a number of decisions from 1",
        }
        .into());
    }
    let rules = load_variant(store, &opts.variant)?;
    let after = parse_game(&rules, &opts.moves)?;
    let pos = position_after(&rules, &after);
    refuse_finished(&rules, &pos, &opts.moves)?;
    if let Some(file) = &opts.certificate {
        super::solve::check_out(store, Path::new(file), is_certificate)?;
    }
    let limits = Limits {
        max_depth: opts.max_depth,
        max_nodes: opts.max_nodes,
    };
    let mut prover = Prover::new(&rules, table_bytes);
    let watch = &mut TimeLimited {
        inner: watch,
        deadline: Deadline::new(clock, opts.max_seconds),
    };
    let root = prover.value(&pos, limits, watch);
    let moves = move_values(&mut prover, &rules, &pos, &root, limits, watch);
    let line = prover.principal_line(&pos, root.outcome);
    let certificate = match (&opts.certificate, winner(&pos, root.outcome)) {
        (Some(file), Some((winner, within))) => {
            let decisions = prover.certificate(&pos, winner, within);
            let cert = Certificate {
                variant: rules.name().to_string(),
                rules: rules.canonical_string(),
                root_moves: after.clone(),
                winner,
                distance: within,
                decisions,
            };
            Some(write_certificate_file(store, &rules, file, &cert)?)
        }
        _ => None,
    };
    Ok(Proved {
        variant: rules.name().to_string(),
        rules: rules.canonical_string(),
        after: opts.moves.clone(),
        to_move: player_name(pos.to_move()),
        value: root.outcome.word(),
        distance: root.outcome.distance(),
        bound: bound(root.outcome),
        stopped: stop_word(&root),
        moves,
        line: line.iter().map(|&m| move_name(&rules, m)).collect(),
        nodes: prover.nodes(),
        seconds: clock.seconds() - started,
        table_bytes,
        peak_memory_bytes: peak(),
        certificate,
    })
}

/// The caller's watch, with each search stopped after the options'
/// `max_seconds` from its start.
struct TimeLimited<'a, 'c> {
    inner: &'a mut dyn Watch,
    deadline: Deadline<'c>,
}

impl Watch for TimeLimited<'_, '_> {
    fn search_started(&mut self) {
        self.deadline.restart();
        self.inner.search_started();
    }
    fn should_stop(&mut self, nodes: u64) -> bool {
        self.inner.should_stop(nodes) || self.deadline.passed()
    }
    fn depth_done(&mut self, depth: u32, nodes: u64) {
        self.inner.depth_done(depth, nodes);
    }
}

/// Every first move's value. Where the position itself stayed unproven
/// at a bound D, a move needs only D - 1 decisions of search to show its
/// share of that bound, so no move is searched deeper: the moves of an
/// unproven position cost what the position did, not that many times it.
/// Where the position is proven in n, a move is searched to at most
/// [`move_depth`]`(n)` decisions: a move that loses slowly, or draws by
/// infinite play, would otherwise be searched to `--max-depth` (200),
/// which no budget-free run finishes.
fn move_values(
    prover: &mut Prover,
    rules: &Rules,
    pos: &Position,
    root: &Searched,
    limits: Limits,
    watch: &mut dyn Watch,
) -> Vec<MoveValue> {
    let limits = match root.outcome {
        Outcome::Unknown(d) => Limits {
            max_depth: d.min(limits.max_depth),
            ..limits
        },
        Outcome::Win(n) | Outcome::Loss(n) => Limits {
            max_depth: move_depth(n).min(limits.max_depth),
            ..limits
        },
        Outcome::Ended => limits,
    };
    prover
        .move_values(pos, limits, watch)
        .into_iter()
        .map(|(mv, s)| MoveValue {
            name: move_name(rules, mv),
            value: s.outcome.word(),
            distance: s.outcome.distance(),
            bound: bound(s.outcome),
            stopped: stop_word(&s),
            nodes: s.nodes,
        })
        .collect()
}

/// The deepest search of a move of a position proven in `n`: twice
/// `n`, plus 20, so that every move of the proven presets whose value is
/// within reach is found (katro-6x3's slowest loss is 28 against a win in
/// 15) while a drawn move stops with its bound.
pub fn move_depth(n: u32) -> u32 {
    2 * n + 20
}

fn position_after(rules: &Rules, moves: &[Move]) -> Position {
    let mut pos = rules.start();
    for &mv in moves {
        rules.play_unchecked(&mut pos, mv, &mut Silent);
    }
    pos
}

/// A finished position has nothing to prove: its value is its end.
fn refuse_finished(rules: &Rules, pos: &Position, moves: &[String]) -> Result<(), Error> {
    let status = rules.status(pos);
    // A position at the ply limit is over too: it has no legal move.
    if status.is_over() {
        return Err(Refusal::NothingToProve {
            after: moves.join(" "),
            status: status.name(),
        }
        .into());
    }
    Ok(())
}

/// The winner of a proven position and the decisions it wins within.
fn winner(pos: &Position, outcome: Outcome) -> Option<(Player, u32)> {
    match outcome {
        Outcome::Win(d) => Some((pos.to_move(), d)),
        Outcome::Loss(d) => Some((pos.to_move().other(), d)),
        Outcome::Unknown(_) | Outcome::Ended => None,
    }
}

fn bound(o: Outcome) -> Option<u32> {
    match o {
        Outcome::Unknown(d) => Some(d),
        _ => None,
    }
}

fn stop_word(s: &Searched) -> Option<&'static str> {
    s.stop.map(|stop| match stop {
        Stop::Depth => "depth",
        Stop::Nodes => "nodes",
        Stop::Watch => "time",
    })
}

pub fn player_name(p: Player) -> &'static str {
    match p {
        Player::South => "South",
        Player::North => "North",
    }
}

/// A certificate, plain or gzip-compressed: katro's to replace. It
/// carries no mark line, whose hash would change the documented format;
/// its first line says what it is.
fn is_certificate(bytes: &[u8]) -> bool {
    certificate_text(bytes.to_vec()).is_ok_and(|text| text.starts_with("katro-certificate "))
}

fn write_certificate_file(
    store: &dyn Store,
    rules: &Rules,
    file: &str,
    cert: &Certificate,
) -> Result<CertificateWritten, Error> {
    let text = write_certificate(rules, cert).into_bytes();
    let bytes = if file.ends_with(".gz") {
        gzip(&text)
    } else {
        text
    };
    let path = Path::new(file);
    let dir = super::owned::folder_of(path);
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a file path checked before the search");
    super::report_files::put(store, dir, name, &bytes)?;
    Ok(CertificateWritten {
        file: file.to_string(),
        decisions: cert.decisions.len(),
        bytes: bytes.len() as u64,
    })
}

impl Proved {
    /// The result as one line of JSON.
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("a proof serialises")
    }

    fn position_words(&self) -> String {
        if self.after.is_empty() {
            "the start".to_string()
        } else {
            format!("after {}", self.after.join(" "))
        }
    }
}

impl fmt::Display for Proved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let other = if self.to_move == "South" {
            "North"
        } else {
            "South"
        };
        writeln!(
            f,
            "{}, {} ({} to move):",
            self.variant,
            self.position_words(),
            self.to_move
        )?;
        match (self.value, self.distance, self.bound) {
            ("win", Some(d), _) => writeln!(
                f,
                "  {} wins in {} (proved: a win within {d}, none within {})",
                self.to_move,
                plural(d, "decision", "decisions"),
                d.saturating_sub(1)
            )?,
            ("loss", Some(d), _) => writeln!(
                f,
                "  {other} wins in {} (proved: {} loses within {d} whatever it plays, \
                 and can hold out that long)",
                plural(d, "decision", "decisions"),
                self.to_move
            )?,
            (_, _, Some(b)) => writeln!(
                f,
                "  unknown: neither side forces a win within {} (search stopped: {}); \
                 a draw by infinite play is never proven",
                plural(b, "decision", "decisions"),
                self.stopped.unwrap_or("depth")
            )?,
            _ => writeln!(f, "  {}", self.value)?,
        }
        let width = self.moves.iter().map(|m| m.name.len()).max().unwrap_or(4);
        writeln!(f, "  every move, for {}:", self.to_move)?;
        for m in &self.moves {
            let what = match (m.value, m.distance, m.bound) {
                (v, Some(d), _) => format!("{v} in {d}"),
                (_, _, Some(b)) => format!("unknown: no forced win within {b}"),
                (v, _, _) => v.to_string(),
            };
            writeln!(f, "    {:<width$}  {what}", m.name)?;
        }
        if !self.line.is_empty() {
            writeln!(f, "  principal line: {}", self.line.join(" "))?;
        }
        if let Some(c) = &self.certificate {
            writeln!(
                f,
                "  certificate: {} ({} winner decisions, {} bytes); check it with \
                 `katro check-proof {} {}`",
                c.file, c.decisions, c.bytes, self.variant, c.file
            )?;
        }
        let peak = self
            .peak_memory_bytes
            .map(|b| format!(", peak memory {}", super::solve::mib(b)))
            .unwrap_or_default();
        write!(
            f,
            "  searched {} nodes in {:.2} s; table {}{peak}",
            group(self.nodes),
            self.seconds,
            super::solve::mib(self.table_bytes)
        )
    }
}
