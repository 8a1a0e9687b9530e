//! The game viewer: a self-contained HTML page that steps through a game
//! ply by ply and lap by lap. Every board it shows is computed here, by the
//! engine, and embedded as JSON; the page's script only shows frames, it
//! knows no rule.
//!
//! The engine reports a move lap by lap through an [`Observer`] (which hole
//! was lifted, how many seeds, where the last one fell, what was captured)
//! but not the board between laps. [`frames`] replays those events on a
//! copy of the board along the mover's circuit (docs/RULES.md §2, §4) and
//! checks, at the end of every move, that the copy equals the engine's
//! board and that every landing hole was the one the engine named. Where
//! they differ (an endless move, whose board the engine resets to the
//! state it repeats, docs/RULES.md §8; a move of too many laps to show;
//! or a move whose laps this replay cannot follow) the move is shown as
//! one step with a note, never with made-up boards.

use serde::Serialize;

use crate::board_svg::{board_svg, capturing_rows};
use crate::engine::{Dir, LapKind, Move, MoveEnd, Observer, Player, Position};
use crate::notation::{hole_name, move_name};
use crate::report::escape;
use crate::rules::Rules;

/// Laps of one move shown one by one; a longer move is shown whole.
pub const MAX_LAP_FRAMES: usize = 400;

/// One board the viewer can show.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Frame {
    /// Plies completed (at a ply's end) or the ply being played, from 1.
    pub ply: u32,
    /// Lap within the move, from 1; 0 at the start of the game.
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
    /// Captures so far by player 1 and player 2.
    pub captures: [u32; 2],
    /// The row (0-based) each player captures from on this board.
    pub capturing: [Option<usize>; 2],
    /// The game's status at this frame ("ongoing" inside a move).
    pub status: String,
}

/// Replays a move's lap events on a copy of the board.
struct Shadow<'a> {
    rules: &'a Rules,
    player: Player,
    dir: Dir,
    board: Vec<u64>,
    frames: Vec<Frame>,
    /// The landing hole the copy expects the engine to name next.
    expect: Option<usize>,
    pending_sown: Vec<usize>,
    pending_lifted: Option<usize>,
    pending_captured: Vec<usize>,
    pending_text: String,
    captures: [u32; 2],
    ply: u32,
    /// Why the laps cannot be shown, if they cannot.
    broken: Option<String>,
}

impl Shadow<'_> {
    fn push(&mut self, landing: Option<usize>, text: String) {
        if self.frames.len() >= MAX_LAP_FRAMES {
            self.broken = Some(format!("more than {MAX_LAP_FRAMES} laps"));
            return;
        }
        self.frames.push(Frame {
            ply: self.ply,
            lap: self.frames.len() as u32 + 1,
            laps: 0,
            end: false,
            board: self
                .board
                .iter()
                .map(|&s| s.min(u16::MAX as u64) as u16)
                .collect(),
            mover: self.player.number(),
            to_move: self.player.number(),
            sown: std::mem::take(&mut self.pending_sown),
            landing,
            lifted: self.pending_lifted.take(),
            captured: std::mem::take(&mut self.pending_captured),
            text,
            captures: self.captures,
            capturing: [None, None],
            status: "ongoing".into(),
        });
    }
}

impl Observer for Shadow<'_> {
    fn lap(&mut self, kind: LapKind, from: usize, seeds: u64) {
        if self.broken.is_some() {
            return;
        }
        let circuit = self.rules.circuit(self.player);
        let Some(at) = circuit.iter().position(|&h| h as usize == from) else {
            self.broken = Some(format!(
                "a lap started from {}, off the mover's circuit",
                hole_name(self.rules, from)
            ));
            return;
        };
        self.board[from] = 0;
        let m = circuit.len();
        let mut sown = Vec::new();
        let mut last = from;
        for k in 1..=seeds as usize {
            let i = match self.dir {
                Dir::Forward => (at + k) % m,
                Dir::Backward => (at + m - k % m) % m,
            };
            last = circuit[i] as usize;
            self.board[last] += 1;
            if !sown.contains(&last) {
                sown.push(last);
            }
        }
        self.expect = Some(last);
        self.pending_sown = sown;
        self.pending_lifted = Some(from);
        let name = hole_name(self.rules, from);
        self.pending_text = match kind {
            LapKind::Start => format!("lift {seeds} from {name} and sow"),
            LapKind::Relay => format!("relay: lift {seeds} from {name} and sow"),
            LapKind::Capture => format!("sow the {seeds} captured seeds on from {name}"),
        };
    }

    fn landed(&mut self, hole: usize, _was_empty: bool) {
        if self.broken.is_some() {
            return;
        }
        if self.expect != Some(hole) {
            self.broken = Some("the replayed lap ended elsewhere than the engine's".into());
            return;
        }
        let text = format!(
            "{}; the last seed falls in {}",
            self.pending_text,
            hole_name(self.rules, hole)
        );
        self.push(Some(hole), text);
    }

    fn capture(&mut self, landing: usize, _landing_seeds: u64, victims: &[(usize, u16)]) {
        for &(h, _) in victims {
            self.board[h] = 0;
            self.pending_captured.push(h);
        }
        self.board[landing] = 0;
        self.captures[self.player.index()] += 1;
    }

    fn step(&mut self, from: usize, to: usize) {
        if self.board[from] == 0 {
            self.broken = Some("a step from an empty hole".into());
            return;
        }
        self.board[from] -= 1;
        self.board[to] += 1;
        self.pending_lifted = Some(from);
        self.pending_sown = vec![to];
        let text = format!(
            "the lone seed steps from {} to {}",
            hole_name(self.rules, from),
            hole_name(self.rules, to)
        );
        self.push(Some(to), text);
    }

    fn end(&mut self, _end: MoveEnd) {}
}

fn seeds_of(rules: &Rules, pos: &Position) -> Vec<u16> {
    (0..rules.hole_count()).map(|h| pos.seeds(h)).collect()
}

/// Every frame of a game: the start, then each move's laps, the last of
/// which is the board after the move. `moves` must be legal in turn (the
/// caller checks them, with its own error messages).
pub fn frames(rules: &Rules, moves: &[Move]) -> Result<Vec<Frame>, String> {
    let mut out = frames_of_moves(rules, moves)?;
    for f in &mut out {
        f.capturing = capturing_rows(rules, &f.board);
    }
    Ok(out)
}

fn frames_of_moves(rules: &Rules, moves: &[Move]) -> Result<Vec<Frame>, String> {
    let mut pos = rules.start();
    let mut out = vec![Frame {
        ply: 0,
        lap: 0,
        laps: 0,
        end: true,
        board: seeds_of(rules, &pos),
        mover: 0,
        to_move: pos.to_move().number(),
        sown: vec![],
        landing: None,
        lifted: None,
        captured: vec![],
        text: "the start".into(),
        captures: [0, 0],
        capturing: [None, None],
        status: rules.status(&pos).name().into(),
    }];
    let mut captures = [0u32; 2];
    for (i, &mv) in moves.iter().enumerate() {
        let player = pos.to_move();
        // The direction the engine sows this move in: the move's own, else
        // the player's fixed one (once-per-game), else forward (§3, §7).
        let dir = mv.dir.or(pos.fixed_dir(player)).unwrap_or(Dir::Forward);
        let mut shadow = Shadow {
            rules,
            player,
            dir,
            board: seeds_of(rules, &pos).into_iter().map(u64::from).collect(),
            frames: Vec::new(),
            expect: None,
            pending_sown: vec![],
            pending_lifted: None,
            pending_captured: vec![],
            pending_text: String::new(),
            captures,
            ply: i as u32 + 1,
            broken: None,
        };
        let report = rules
            .play_observed(&mut pos, mv, &mut shadow)
            .map_err(|_| format!("move {} `{}` is illegal", i + 1, move_name(rules, mv)))?;
        captures[player.index()] += report.captures;
        let after = seeds_of(rules, &pos);
        let copied: Vec<u16> = shadow
            .board
            .iter()
            .map(|&s| s.min(u16::MAX as u64) as u16)
            .collect();
        let why_whole = if let Some(why) = shadow.broken.take() {
            Some(why)
        } else if shadow.frames.is_empty() {
            Some("no lap".to_string())
        } else if copied != after {
            Some(match report.end {
                MoveEnd::Endless => {
                    "an endless move: the board is the one the relays repeat".into()
                }
                _ => "the replayed laps did not give the engine's board".into(),
            })
        } else {
            None
        };
        let status = rules.status(&pos);
        let mut lap_frames = shadow.frames;
        let name = move_name(rules, mv);
        let end_text = format!(
            "move {} ends: {}{}",
            name,
            report.end.name(),
            if status.is_over() {
                format!("; game over: {}", status.name())
            } else {
                String::new()
            }
        );
        match why_whole {
            None => {
                let n = lap_frames.len() as u32;
                for f in &mut lap_frames {
                    f.laps = report.laps;
                    f.lap = f.lap.min(n);
                }
                let last = lap_frames.last_mut().expect("checked non-empty");
                last.end = true;
                last.to_move = pos.to_move().number();
                last.status = status.name().into();
                last.captures = captures;
                last.text = format!("{}; {end_text}", last.text);
                out.extend(lap_frames);
            }
            Some(why) => out.push(Frame {
                ply: i as u32 + 1,
                lap: 1,
                laps: report.laps,
                end: true,
                board: after,
                mover: player.number(),
                to_move: pos.to_move().number(),
                sown: vec![],
                landing: None,
                lifted: Some(mv.from as usize),
                captured: vec![],
                text: format!(
                    "{name}: {} laps shown as one step ({why}); {end_text}",
                    report.laps
                ),
                captures,
                capturing: [None, None],
                status: status.name().into(),
            }),
        }
    }
    Ok(out)
}

/// The viewer page.
pub fn viewer_html(rules: &Rules, moves: &[Move], frames: &[Frame]) -> String {
    let names: Vec<String> = moves.iter().map(|&m| move_name(rules, m)).collect();
    let title = format!("{}: {} plies", rules.name(), moves.len());
    let board = board_svg(rules, &frames[0].board, rules.name(), true);
    let data = serde_json::json!({
        "variant": rules.name(),
        "rules": rules.canonical_string(),
        "moves": names,
        "holes": (0..rules.hole_count()).map(|h| hole_name(rules, h)).collect::<Vec<_>>(),
        "frames": frames,
    });
    // `</` cannot end the script element from inside a JSON string.
    let json = data.to_string().replace("</", "<\\/");
    let mut list = String::new();
    for (i, n) in names.iter().enumerate() {
        list.push_str(&format!(
            "<li id=\"move-{}\" data-ply=\"{}\">{}</li>",
            i + 1,
            i + 1,
            escape(n)
        ));
    }
    let command = format!("katro replay {} {}", rules.name(), names.join(" "));
    VIEWER_TEMPLATE
        .replace("{{TITLE}}", &escape(&title))
        .replace("{{RULES}}", &escape(&rules.canonical_string()))
        .replace("{{COMMAND}}", &escape(&command))
        .replace("{{BOARD}}", &board)
        .replace("{{MOVES}}", &list)
        .replace("{{DATA}}", &json)
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
<p>Made by <code>{{COMMAND}}</code> --html: every board was computed by katro's engine.</p>
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
  const lap = f.ply === 0 ? "-" : f.lap + " of " + f.laps;
  const mover = f.end ? "to move: " + who(f.to_move) : "moving: " + who(f.mover);
  document.getElementById("status").textContent =
    "ply " + f.ply + " of " + game.moves.length + " | lap " + lap + " | " + mover +
    " | captures: South " + f.captures[0] + ", North " + f.captures[1] + " | status: " + f.status;
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
show(0);
</script>
</body>
</html>
"##;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::rules::{preset, preset_names};

    /// Random legal games on every preset: each move's last frame is the
    /// engine's board, frames stay in ply order, and the copy of the board
    /// agrees with the engine at every move's end (else the move is shown
    /// whole, which must then be the exception, not the rule).
    #[test]
    fn frames_end_every_move_on_the_engines_board() {
        let mut whole = 0;
        let mut total = 0;
        for name in preset_names() {
            let rules = preset(name).unwrap();
            let mut rng = crate::rng::rng_from_seed(7);
            let mut pos = rules.start();
            let mut moves = Vec::new();
            let mut boards = vec![seeds_of(&rules, &pos)];
            while !rules.status(&pos).is_over() && moves.len() < 120 {
                let mv = rules.random_move(&pos, &mut rng).unwrap();
                rules.play(&mut pos, mv).unwrap();
                moves.push(mv);
                boards.push(seeds_of(&rules, &pos));
            }
            let fs = frames(&rules, &moves).unwrap();
            let ends: Vec<&Frame> = fs.iter().filter(|f| f.end).collect();
            assert_eq!(ends.len(), moves.len() + 1, "{name}");
            for (k, f) in ends.iter().enumerate() {
                assert_eq!(f.board, boards[k], "{name} ply {k}");
                assert_eq!(f.ply as usize, k);
            }
            assert!(fs.windows(2).all(|w| w[0].ply <= w[1].ply));
            total += moves.len();
            whole += fs
                .iter()
                .filter(|f| f.text.contains("shown as one step"))
                .count();
        }
        assert!(whole * 20 < total, "{whole} of {total} moves shown whole");
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
        let html = viewer_html(&rules, &[mv], &fs);
        assert!(html.contains("id=\"count-35\""));
        assert!(!html.contains("{{"));
        assert!(
            !html.contains("http://") || html.matches("http://").count() == 1,
            "only the SVG namespace"
        );
    }
}
