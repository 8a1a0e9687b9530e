//! The game viewer: a self-contained HTML page that steps through a game
//! ply by ply and lap by lap. Every board it shows is computed here, by the
//! engine, and embedded as JSON; the page's script only shows frames, it
//! knows no rule.
//!
//! The engine reports a move lap by lap through an [`Observer`]: which
//! hole was lifted, where the last seed fell, what was captured, and the
//! board after each of these (`Observer::board`). [`frames`] records those
//! boards as they come, so every frame is a board the engine held, the
//! winning capture included (its seeds stay in the landing hole,
//! docs/RULES.md §9). A move of more than [`MAX_LAP_FRAMES`] laps is shown
//! by its first and last laps; an endless move ends at its first repeated
//! state (§8), so the laps the engine sowed past it are not shown.

use serde::Serialize;

use crate::engine::notation::{hole_name, move_name, plural};
use crate::engine::{
    LapKind, MAX_HOLES, Move, MoveEnd, MoveReport, Observer, Player, Position, Status,
};
use crate::pictures::board_svg::{board_svg, capturing_rows};
use crate::pictures::report::escape;
use crate::rules::Rules;

/// Laps of one move shown one by one; a longer move shows its first and
/// last `MAX_LAP_FRAMES / 2` laps.
pub const MAX_LAP_FRAMES: usize = 400;

/// Why a game's frames cannot be made: a move the engine refuses, or (a
/// katro bug) laps that do not end on the engine's board after the move.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("move {ply} `{name}` is illegal")]
    Illegal { ply: u32, name: String },
    #[error("move {ply} `{name}`: the engine reported no lap")]
    NoLap { ply: u32, name: String },
    #[error(
        "move {ply} `{name}`: the last lap's board is not the engine's board after the \
         move (a katro bug: please report it)"
    )]
    NotTheEnginesBoard { ply: u32, name: String },
}

impl ReplayError {
    /// Whether the engine, not the move list, is at fault (exit 1): a
    /// legal move without a lap, or a last lap off the engine's board.
    pub fn is_katros_fault(&self) -> bool {
        !matches!(self, ReplayError::Illegal { .. })
    }
}

/// One board the viewer can show.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Frame {
    /// Plies completed (at a ply's end) or the ply being played, from 1.
    pub ply: u32,
    /// The engine's lap count in the move at this board, from 1; 0 at the
    /// start of the game and for a lone-seed step (which sows no lap).
    pub lap: u32,
    /// Laps of the whole move (0 at the start).
    pub laps: u64,
    /// Whether this is the board after a whole move (or the start).
    pub end: bool,
    /// Seeds by hole index.
    pub board: Vec<u16>,
    /// The player who moved (1 or 2); 0 at the start.
    pub mover: u8,
    /// The player to move, from the position, at a move's end (or start).
    pub to_move: u8,
    pub sown: Vec<usize>,
    pub landing: Option<usize>,
    pub lifted: Option<usize>,
    pub captured: Vec<usize>,
    /// What happened, in words.
    pub text: String,
    /// Capture events so far by player 1 and player 2: a move that
    /// captures twice counts 2, whatever the seeds.
    pub captures: [u32; 2],
    /// Seeds captured so far by player 1 and player 2 (the victims'
    /// seeds): what `captures` would be read as, shown apart from it.
    pub seeds_captured: [u64; 2],
    /// The row (0-based) each player captures from on this board.
    pub capturing: [Option<usize>; 2],
    /// The game's status at this frame ("ongoing" inside a move).
    pub status: String,
}

/// What the engine reported last, which the next board shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Event {
    Landed,
    Capture,
    Step,
}

/// Records a move's frames from the engine's own account of it: each
/// board is the one the engine hands its observer (`Observer::board`), so
/// what the page shows cannot drift from what the engine played. Laps
/// outside `keep` are counted but not recorded.
struct Recorder<'a> {
    rules: &'a Rules,
    player: Player,
    ply: u32,
    /// Laps recorded: 1..=head and tail_from..=upto.
    head: u64,
    tail_from: u64,
    upto: u64,
    /// Laps sown so far in the move.
    laps: u64,
    /// The board before the current lap, its start hole lifted.
    before: Vec<u16>,
    last: Event,
    lifted: Option<usize>,
    lap_text: String,
    landing: Option<usize>,
    /// A capture waiting for the lap that sows it on, or for the move's
    /// end, where its seeds stay in the landing hole (RULES.md §9).
    captured: Vec<usize>,
    capture_text: Option<String>,
    captures: [u32; 2],
    seeds_captured: [u64; 2],
    frames: Vec<Frame>,
}

impl<'a> Recorder<'a> {
    /// Ready to record move `ply` on `pos`, keeping the laps in `head`,
    /// `tail_from..=upto`.
    fn new(
        rules: &'a Rules,
        pos: &Position,
        ply: u32,
        (captures, seeds_captured): Tally,
        (head, tail_from, upto): (u64, u64, u64),
    ) -> Recorder<'a> {
        Recorder {
            rules,
            player: pos.to_move(),
            ply,
            head,
            tail_from,
            upto,
            laps: 0,
            before: seeds_of(rules, pos),
            last: Event::Landed,
            lifted: None,
            lap_text: String::new(),
            landing: None,
            captured: vec![],
            capture_text: None,
            captures,
            seeds_captured,
            frames: Vec::new(),
        }
    }

    fn keeps(&self, lap: u64) -> bool {
        lap <= self.head || (self.tail_from..=self.upto).contains(&lap)
    }

    /// `text`, saying which laps are left out when this lap is the first
    /// shown after them.
    fn after_gap(&self, text: String) -> String {
        if self.laps == self.tail_from && self.tail_from > self.head + 1 {
            format!(
                "(laps {} to {} not shown) {text}",
                self.head + 1,
                self.tail_from - 1
            )
        } else {
            text
        }
    }

    fn push(&mut self, board: Vec<u16>, sown: Vec<usize>, text: String) {
        let text = self.after_gap(text);
        self.frames.push(Frame {
            ply: self.ply,
            lap: self.laps.min(u32::MAX as u64) as u32,
            laps: 0,
            end: false,
            board,
            mover: self.player.number(),
            to_move: self.player.number(),
            sown,
            landing: self.landing,
            lifted: self.lifted,
            captured: std::mem::take(&mut self.captured),
            text,
            captures: self.captures,
            seeds_captured: self.seeds_captured,
            capturing: [None, None],
            status: "ongoing".into(),
        });
    }
}

impl Observer for Recorder<'_> {
    fn lap(&mut self, kind: LapKind, from: usize, seeds: u64) {
        // The engine has lifted `from` already (a start or relay hole; a
        // capture's landing hole, whose board came with the capture).
        self.before[from] = 0;
        self.lifted = Some(from);
        let name = hole_name(self.rules, from);
        self.lap_text = match kind {
            LapKind::Start => format!("lift {seeds} from {name} and sow"),
            LapKind::Relay => format!("relay: lift {seeds} from {name} and sow"),
            LapKind::Capture => format!(
                "{}; sow the {seeds} seeds on from {name}",
                self.capture_text.take().unwrap_or_default()
            ),
        };
    }

    fn landed(&mut self, hole: usize, _was_empty: bool) {
        self.laps += 1;
        self.last = Event::Landed;
        self.landing = Some(hole);
    }

    fn capture(&mut self, landing: usize, landing_seeds: u64, victims: &[(usize, u16)]) {
        self.last = Event::Capture;
        self.captures[self.player.index()] += 1;
        self.seeds_captured[self.player.index()] +=
            victims.iter().map(|&(_, n)| u64::from(n)).sum::<u64>();
        self.captured = victims.iter().map(|&(h, _)| h).collect();
        let taken: Vec<String> = victims
            .iter()
            .map(|&(h, n)| format!("{n} from {}", hole_name(self.rules, h)))
            .collect();
        self.capture_text = Some(format!(
            "capture {} with the {landing_seeds} in {}",
            taken.join(" and "),
            hole_name(self.rules, landing)
        ));
    }

    fn step(&mut self, from: usize, to: usize) {
        self.last = Event::Step;
        self.lifted = Some(from);
        self.landing = Some(to);
        self.lap_text = format!(
            "the lone seed steps from {} to {}",
            hole_name(self.rules, from),
            hole_name(self.rules, to)
        );
    }

    fn board(&mut self, holes: &[u16; MAX_HOLES]) {
        let now = &holes[..self.rules.hole_count()];
        match self.last {
            Event::Landed | Event::Step => {
                if self.last == Event::Step || self.keeps(self.laps) {
                    let sown = (0..now.len())
                        .filter(|&h| now[h] > self.before[h])
                        .collect();
                    let text = match self.last {
                        Event::Step => self.lap_text.clone(),
                        _ => format!(
                            "{}; the last seed falls in {}",
                            self.lap_text,
                            hole_name(self.rules, self.landing.unwrap_or_default())
                        ),
                    };
                    self.push(now.to_vec(), sown, text);
                } else {
                    self.captured.clear();
                }
            }
            // Shown with the lap that sows it on, or by `end`.
            Event::Capture => {}
        }
        self.before.copy_from_slice(now);
    }

    fn end(&mut self, _end: MoveEnd) {
        // A capture not sown on: the seeds stay in the landing hole
        // (opponent-empty, or a step's capture before the player chooses
        // the direction, RULES.md §7, §9).
        if let Some(text) = self.capture_text.take() {
            let seeds = self.landing.map(|h| self.before[h]).unwrap_or(0);
            let text = format!(
                "{text}: the {seeds} seeds stay in {}",
                hole_name(self.rules, self.landing.unwrap_or_default())
            );
            self.lifted = None;
            self.push(self.before.clone(), vec![], text);
        }
    }
}

fn seeds_of(rules: &Rules, pos: &Position) -> Vec<u16> {
    (0..rules.hole_count()).map(|h| pos.seeds(h)).collect()
}

/// Every frame of a game: the start, then each move's laps, the last of
/// which is the board after the move. `moves` must be legal in turn (the
/// caller checks them, with its own error messages).
pub fn frames(rules: &Rules, moves: &[Move]) -> Result<Vec<Frame>, ReplayError> {
    let mut out = frames_of_moves(rules, moves)?;
    for f in &mut out {
        f.capturing = capturing_rows(rules, &f.board);
    }
    Ok(out)
}

/// Capture events and seeds captured so far, by player.
type Tally = ([u32; 2], [u64; 2]);

/// Plays `mv` on `pos`, recording the laps in `head`, `tail_from..=upto`.
fn record<'a>(
    rules: &'a Rules,
    pos: &mut Position,
    mv: Move,
    ply: u32,
    tally: Tally,
    (head, tail_from, upto): (u64, u64, u64),
) -> Result<(MoveReport, Recorder<'a>), ReplayError> {
    let mut rec = Recorder::new(rules, pos, ply, tally, (head, tail_from, upto));
    let report = rules
        .play_observed(pos, mv, &mut rec)
        .map_err(|_| ReplayError::Illegal {
            ply,
            name: move_name(rules, mv),
        })?;
    Ok((report, rec))
}

fn frames_of_moves(rules: &Rules, moves: &[Move]) -> Result<Vec<Frame>, ReplayError> {
    let mut pos = rules.start();
    let mut out = vec![start_frame(rules, &pos)];
    let mut tally: Tally = ([0; 2], [0; 2]);
    for (i, &mv) in moves.iter().enumerate() {
        let player = pos.to_move();
        let ply = i as u32 + 1;
        let (report, mut lap_frames) = move_laps(rules, &mut pos, mv, ply, tally)?;
        tally.0[player.index()] += report.captures;
        tally.1[player.index()] += report.seeds_captured;
        close_move(rules, &pos, mv, ply, &report, tally, &mut lap_frames)?;
        out.extend(lap_frames);
    }
    Ok(out)
}

fn start_frame(rules: &Rules, pos: &Position) -> Frame {
    Frame {
        ply: 0,
        lap: 0,
        laps: 0,
        end: true,
        board: seeds_of(rules, pos),
        mover: 0,
        to_move: pos.to_move().number(),
        sown: vec![],
        landing: None,
        lifted: None,
        captured: vec![],
        text: "the start".into(),
        captures: [0, 0],
        seeds_captured: [0, 0],
        capturing: [None, None],
        status: rules.status(pos).name().into(),
    }
}

/// Plays move `ply`, `mv`, on `pos`: its report and the frames of its laps.
fn move_laps(
    rules: &Rules,
    pos: &mut Position,
    mv: Move,
    ply: u32,
    tally: Tally,
) -> Result<(MoveReport, Vec<Frame>), ReplayError> {
    let all = MAX_LAP_FRAMES as u64;
    let before = *pos;
    let (mut report, mut rec) = record(rules, pos, mv, ply, tally, (all, u64::MAX, 0))?;
    if report.laps > all {
        // Too long to show whole: play it again from the same board
        // (the engine is deterministic) keeping its first and last laps.
        *pos = before;
        let keep = (all / 2, report.laps - all / 2 + 1, report.laps);
        (report, rec) = record(rules, pos, mv, ply, tally, keep)?;
    }
    // An endless move sows past its first repeated state before the
    // search catches it; the move ends at that state (RULES.md §8).
    let mut lap_frames = rec.frames;
    lap_frames.retain(|f| f.lap as u64 <= report.laps);
    Ok((report, lap_frames))
}

/// Makes the move's last lap frame its end: checked against the engine's
/// board `pos` after the move, with who moves next, the status, the
/// captures so far and how the move ended; every lap frame gets the
/// move's lap count.
fn close_move(
    rules: &Rules,
    pos: &Position,
    mv: Move,
    ply: u32,
    report: &MoveReport,
    (captures, seeds_captured): Tally,
    lap_frames: &mut [Frame],
) -> Result<(), ReplayError> {
    let status = rules.status(pos);
    let name = move_name(rules, mv);
    let end_text = format!(
        "move {} ends: {}{}",
        name,
        report.end.name(),
        game_over(status)
    );
    let Some(last) = lap_frames.last_mut() else {
        return Err(ReplayError::NoLap { ply, name });
    };
    if last.board != seeds_of(rules, pos) {
        return Err(ReplayError::NotTheEnginesBoard { ply, name });
    }
    last.end = true;
    last.to_move = pos.to_move().number();
    last.status = status.name().into();
    last.captures = captures;
    last.seeds_captured = seeds_captured;
    last.text = format!("{}; {end_text}", last.text);
    for f in lap_frames.iter_mut() {
        f.laps = report.laps;
    }
    Ok(())
}

/// "; game over: " and how, when `status` ends the game.
fn game_over(status: Status) -> String {
    if status.is_over() {
        format!("; game over: {}", status.name())
    } else {
        String::new()
    }
}

/// The viewer page. `command` is the `katro replay` command that made it,
/// as the user typed it (without `--html`), printed on the page so the
/// reader can rerun it; `file` is the page's own name as given to
/// `--html`, printed after it.
pub fn viewer_html(
    rules: &Rules,
    moves: &[Move],
    frames: &[Frame],
    command: &str,
    file: &str,
) -> String {
    let names: Vec<String> = moves.iter().map(|&m| move_name(rules, m)).collect();
    let title = format!(
        "{}: {}",
        rules.name(),
        plural(moves.len() as u64, "ply", "plies")
    );
    let board = board_svg(rules, &frames[0].board, rules.name(), true);
    let json = viewer_json(rules, &names, frames);
    let list = move_list(&names);
    VIEWER_TEMPLATE
        .replace("{{TITLE}}", &escape(&title))
        .replace("{{RULES}}", &escape(&rules.canonical_string()))
        .replace("{{COMMAND}}", &escape(command))
        .replace("{{FILE}}", &escape(file))
        .replace("{{BOARD}}", &board)
        .replace("{{MOVES}}", &list)
        .replace("{{DATA}}", &json)
}

/// The game as the page's script reads it.
fn viewer_json(rules: &Rules, names: &[String], frames: &[Frame]) -> String {
    let data = serde_json::json!({
        "variant": rules.name(),
        "rules": rules.canonical_string(),
        "moves": names,
        "holes": (0..rules.hole_count()).map(|h| hole_name(rules, h)).collect::<Vec<_>>(),
        "frames": frames,
    });
    // `</` cannot end the script element from inside a JSON string.
    data.to_string().replace("</", "<\\/")
}

/// The moves as list items, each with its ply for the script.
fn move_list(names: &[String]) -> String {
    let mut list = String::new();
    for (i, n) in names.iter().enumerate() {
        list.push_str(&format!(
            "<li id=\"move-{}\" data-ply=\"{}\">{}</li>",
            i + 1,
            i + 1,
            escape(n)
        ));
    }
    list
}

const VIEWER_TEMPLATE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>katro game: {{TITLE}}</title>
<style>
body{font-family:sans-serif;margin:1em;color:#111}
#wrap{display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap}
#moves{max-height:640px;overflow:auto;min-width:9em;margin:0;padding-left:2.5em}
#moves li{cursor:pointer;padding:1px 4px}
#moves li.current{background:#ffd84d;font-weight:bold}
#status{font-family:monospace;font-size:1.05em;margin:0.5em 0;padding:4px;background:#f3f3f3}
#what{margin:0.3em 0 0.8em 0;min-height:1.3em}
button{font-size:1em;margin-right:4px}
.hole.sown circle{fill:#fff0a8}
.hole.landing circle{stroke:#000;stroke-width:4}
.hole.lifted circle{fill:#cde6ff}
.hole.captured circle{fill:#ffb3b3}
code{word-break:break-all;font-size:0.85em}
.key span{display:inline-block;width:1em;height:1em;border:1px solid #444;vertical-align:middle;margin:0 3px 0 10px}
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<p><code>{{RULES}}</code></p>
<div>
<button id="first" title="the start">|&lt;</button>
<button id="prev-ply" title="previous ply (left arrow)">&lt;&lt; ply</button>
<button id="prev-lap" title="previous lap (up arrow)">&lt; lap</button>
<button id="next-lap" title="next lap (down arrow)">lap &gt;</button>
<button id="next-ply" title="next ply (right arrow)">ply &gt;&gt;</button>
<button id="last" title="the end">&gt;|</button>
<span>keys: left/right arrow by ply, up/down arrow by lap</span>
</div>
<div id="status"></div>
<div id="what"></div>
<div id="wrap">
<div>{{BOARD}}
<p class="key"><span style="background:#cde6ff"></span>lifted <span style="background:#fff0a8"></span>sown <span style="border-width:3px"></span>last seed <span style="background:#ffb3b3"></span>captured</p>
</div>
<ol id="moves">{{MOVES}}</ol>
</div>
<p>Made by <code>{{COMMAND}}</code> --html <code>{{FILE}}</code>: every board was computed by katro's engine. Link to a ply by adding <code>#ply=N</code> to this page's address (the address bar follows the ply shown).</p>
<script id="game" type="application/json">{{DATA}}</script>
<script>
"use strict";
const game = JSON.parse(document.getElementById("game").textContent);
const frames = game.frames;
let at = 0;
const who = p => p === 1 ? "South (player 1)" : p === 2 ? "North (player 2)" : "-";
function show(i) {
  at = Math.max(0, Math.min(frames.length - 1, i));
  const f = frames[at];
  f.board.forEach((n, h) => {
    document.getElementById("count-" + h).textContent = String(n);
    const g = document.getElementById("hole-" + h);
    g.classList.toggle("sown", f.sown.includes(h));
    g.classList.toggle("landing", f.landing === h);
    g.classList.toggle("lifted", f.lifted === h);
    g.classList.toggle("captured", f.captured.includes(h));
  });
  const lap = f.ply === 0 ? "-" : f.lap === 0 ? "step" : f.lap + " of " + f.laps;
  const mover = f.end ? "to move: " + who(f.to_move) : "moving: " + who(f.mover);
  document.getElementById("status").textContent =
    "ply " + f.ply + " of " + game.moves.length + " | lap " + lap + " | " + mover +
    " | seeds captured: South " + f.seeds_captured[0] + ", North " + f.seeds_captured[1] +
    " | capture events: South " + f.captures[0] + ", North " + f.captures[1] +
    " | status: " + f.status;
  document.getElementById("what").textContent = f.text;
  document.querySelectorAll("g.capturing").forEach(g => {
    const [, p, r] = g.id.split("-").map(Number);
    g.setAttribute("display", f.capturing[p - 1] === r ? "inline" : "none");
  });
  document.querySelectorAll("#moves li").forEach(li =>
    li.classList.toggle("current", Number(li.dataset.ply) === f.ply));
  const cur = document.getElementById("move-" + f.ply);
  if (cur && cur.scrollIntoView) cur.scrollIntoView({block: "nearest"});
  document.body.dataset.frame = String(at);
  document.body.dataset.ply = String(f.ply);
  document.body.dataset.end = String(f.end);
  // The address names the ply on show, so it can be copied as a link;
  // a page opened from a file may refuse, which changes nothing else.
  if (f.end || at === 0) {
    try { history.replaceState(null, "", "#ply=" + f.ply); } catch (_) {}
  }
}
// `#ply=N` opens the page at the board after ply N (0, the start).
function fromAddress() {
  const m = /^#ply=(\d+)$/.exec(location.hash);
  if (!m) return false;
  const p = Number(m[1]);
  const i = p === 0 ? 0 : frames.findIndex(f => f.end && f.ply === p);
  if (i < 0) return false;
  show(i);
  return true;
}
function nextPly() { let i = at + 1; while (i < frames.length - 1 && !frames[i].end) i++; show(i); }
function prevPly() { let i = at - 1; while (i > 0 && !frames[i].end) i--; show(i); }
document.getElementById("first").onclick = () => show(0);
document.getElementById("last").onclick = () => show(frames.length - 1);
document.getElementById("next-lap").onclick = () => show(at + 1);
document.getElementById("prev-lap").onclick = () => show(at - 1);
document.getElementById("next-ply").onclick = nextPly;
document.getElementById("prev-ply").onclick = prevPly;
document.querySelectorAll("#moves li").forEach(li => li.onclick = () => {
  const p = Number(li.dataset.ply);
  show(frames.findIndex(f => f.end && f.ply === p));
});
document.addEventListener("keydown", e => {
  const act = {ArrowRight: nextPly, ArrowLeft: prevPly,
               ArrowDown: () => show(at + 1), ArrowUp: () => show(at - 1)}[e.key];
  if (act) { act(); e.preventDefault(); }
});
window.addEventListener("hashchange", fromAddress);
if (!fromAddress()) show(0);
</script>
</body>
</html>
"##;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::parse_move;
    use crate::rules::{preset, preset_names};

    /// Plays `moves` with the engine and checks the viewer's frames: every
    /// move's laps are shown one by one (lap numbers 1 to the engine's
    /// count, in order, with one gap only in a move of more than
    /// `MAX_LAP_FRAMES` laps), no move is shown whole, and each move's
    /// last frame is the engine's board after it, with the capture events
    /// and the seeds captured so far apart, as the engine counts them.
    fn check_frames(rules: &Rules, moves: &[Move]) {
        let fs = frames(rules, moves).unwrap();
        let mut pos = rules.start();
        assert_eq!(fs[0].board, seeds_of(rules, &pos));
        let mut rest = &fs[1..];
        let mut tally: Tally = ([0; 2], [0; 2]);
        for (i, &mv) in moves.iter().enumerate() {
            let mover = pos.to_move().index();
            let report = rules.play(&mut pos, mv).unwrap();
            tally.0[mover] += report.captures;
            tally.1[mover] += report.seeds_captured;
            let n = rest.iter().position(|f| f.end).expect("a move's end") + 1;
            let (mine, after) = rest.split_at(n);
            rest = after;
            let what = format!("{} move {} {}", rules.name(), i + 1, move_name(rules, mv));
            for f in mine {
                assert!(!f.text.contains("one step"), "{what}: {}", f.text);
                assert_eq!(f.ply as usize, i + 1, "{what}");
            }
            let last = mine.last().unwrap();
            assert_eq!(last.board, seeds_of(rules, &pos), "{what}: {}", last.text);
            assert_eq!((last.captures, last.seeds_captured), tally, "{what}");
            assert_eq!(last.status, rules.status(&pos).name(), "{what}");
            let laps: Vec<u64> = mine
                .iter()
                .map(|f| f.lap as u64)
                .filter(|&l| l > 0)
                .collect();
            assert_eq!(laps.last().copied().unwrap_or(0), report.laps, "{what}");
            let mut want = 1;
            let mut gaps = 0;
            for &l in &laps {
                if l != want && l != want - 1 {
                    gaps += 1;
                }
                want = l + 1;
            }
            assert_eq!(laps.first().copied().unwrap_or(1), 1, "{what}");
            let shown = (report.laps as usize).min(MAX_LAP_FRAMES);
            assert!(
                laps.len() >= shown,
                "{what}: {} of {} laps",
                laps.len(),
                report.laps
            );
            assert_eq!(
                gaps,
                usize::from(report.laps as usize > MAX_LAP_FRAMES),
                "{what}: {laps:?}"
            );
        }
        assert!(rest.is_empty());
    }

    /// A random game from `seed` to its end (or `max` plies).
    fn random_game(rules: &Rules, seed: u64, max: usize) -> (Vec<Move>, Position) {
        let mut rng = crate::rng::rng_from_seed(seed);
        let mut pos = rules.start();
        let mut moves = Vec::new();
        while !rules.status(&pos).is_over() && moves.len() < max {
            let mv = rules.random_move(&pos, &mut rng).unwrap();
            rules.play(&mut pos, mv).unwrap();
            moves.push(mv);
        }
        (moves, pos)
    }

    /// The first random game (seeds from 0) that ends with `status`.
    fn game_ending(rules: &Rules, status: &str) -> Vec<Move> {
        (0..400)
            .map(|seed| random_game(rules, seed, usize::MAX))
            .find(|(_, pos)| rules.status(pos).name() == status)
            .unwrap_or_else(|| panic!("{}: no random game ends {status}", rules.name()))
            .0
    }

    /// Finished games of every preset, lap by lap to the last move, for
    /// every way a game ends: won (whose last move empties the opponent,
    /// RULES.md §9), ply limit, lap limit and endless move (§8).
    #[test]
    fn every_move_of_a_finished_game_is_shown_lap_by_lap() {
        for name in preset_names() {
            let rules = preset(name).unwrap();
            for seed in 0..6 {
                let (moves, pos) = random_game(&rules, seed, usize::MAX);
                assert!(rules.status(&pos).is_over());
                check_frames(&rules, &moves);
            }
            check_frames(&rules, &game_ending(&rules, "won"));
            let short = rules.with_limits(Some(9), None).unwrap();
            check_frames(&short, &game_ending(&short, "ply-limit"));
            let laps = rules.with_limits(None, Some(3)).unwrap();
            check_frames(&laps, &game_ending(&laps, "lap-limit"));
            // A lap limit above MAX_LAP_FRAMES: the long move is shown
            // from both ends.
            if name == "katro-wikipedia" {
                let long = rules.with_limits(None, Some(1000)).unwrap();
                check_frames(&long, &game_ending(&long, "lap-limit"));
                check_frames(&rules, &game_ending(&rules, "endless-move"));
            }
        }
    }

    #[test]
    fn a_relay_move_shows_each_lap() {
        let rules = preset("katro-6x6").unwrap();
        // From the start every hole holds 2: a1's two seeds land in c1,
        // which is occupied, so the move relays.
        let mv = parse_move(&rules, "a1").unwrap();
        let fs = frames(&rules, &[mv]).unwrap();
        assert!(fs.len() > 2, "{fs:?}");
        assert_eq!(fs[1].lifted, Some(0));
        assert_eq!(fs[1].sown.len(), 2);
        assert!(fs.last().unwrap().end);
        let html = viewer_html(&rules, &[mv], &fs, "katro replay katro-6x6 a1", "g.html");
        assert!(html.contains("id=\"count-35\""));
        assert!(!html.contains("{{"));
        assert!(
            !html.contains("http://") || html.matches("http://").count() == 1,
            "only the SVG namespace"
        );
    }
}
