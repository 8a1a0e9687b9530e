//! The rules of play, in docs/RULES.md's section order: each decision
//! cites its section and leaves the work to the machinery (`moves`,
//! `sowing`, `endless`). `crates/reference/src/` states the same rules plainly;
//! the differential test holds the two to the same games.

use super::lap::{Landing, LapTotals, Victims};
use super::moves::Shape;
use super::{
    Dir, Ended, Move, MoveEnd, MoveReport, NO_HOLE, Observer, Player, Position, Status, bits,
    occupancy,
};
use crate::rules::{
    CaptureTrigger, CapturingRow, DirectionRule, EmptyLandingRefusal, EndlessMove, GameEnd,
    LoneSeed, LoneSeedStep, MAX_HOLES, MAX_ROWS, MAX_TOTAL_SEEDS, Relay, Rules, Singletons,
    StartRule, StepSowing, VictimRule,
};

/// Why [`Rules::position`] refuses hole contents.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not one count per hole of the board.
    #[error("a {rows}×{cols} board has {holes} holes, not {given}")]
    Holes {
        rows: usize,
        cols: usize,
        holes: usize,
        given: usize,
    },
    /// More seeds than a position holds.
    #[error("{total} seeds is more than the engine holds")]
    Seeds { total: u64 },
}

impl Rules {
    // -----------------------------------------------------------------
    // §1 Board and coordinates

    /// The starting position: the variant's seeds, South to move.
    pub fn start(&self) -> Position {
        Position {
            holes: self.t.start,
            occ: occupancy(&self.t.start),
            to_move: Player::South,
            fixed_dir: [None, None],
            plies: 0,
            ended: None,
            pending: NO_HOLE,
        }
    }

    /// A position from explicit hole contents (row 1 first, as `holes[row *
    /// cols + col]`). Checks the board's shape and seed total (RULES.md
    /// §1); the position need not be reachable from the start.
    pub fn position(
        &self,
        holes: &[u16],
        to_move: Player,
        fixed_dir: [Option<Dir>; 2],
        plies: u32,
    ) -> Result<Position, PositionError> {
        if holes.len() != self.t.holes {
            return Err(PositionError::Holes {
                rows: self.t.rows,
                cols: self.t.cols,
                holes: self.t.holes,
                given: holes.len(),
            });
        }
        let total: u64 = holes.iter().map(|&v| v as u64).sum();
        if total > MAX_TOTAL_SEEDS {
            return Err(PositionError::Seeds { total });
        }
        let mut p = Position {
            holes: [0; MAX_HOLES],
            occ: 0,
            to_move,
            fixed_dir,
            plies,
            ended: None,
            pending: NO_HOLE,
        };
        p.holes[..holes.len()].copy_from_slice(holes);
        p.occ = occupancy(&p.holes);
        Ok(p)
    }

    // -----------------------------------------------------------------
    // §3 The move

    /// The legal moves in compact form (RULES.md §3): the start holes, the
    /// directions each may be sown in, and lone-seed steps; `moves` lists
    /// or draws from it.
    pub(super) fn shape(&self, pos: &Position) -> Shape {
        let mut shape = Shape::none();
        // §9: once the game is over there are no legal moves.
        if pos.ended.is_some() {
            return shape;
        }
        let p = pos.to_move;
        let pi = p.index();
        let t = &self.t;
        // §7: a turn paused by a capturing step offers only the two
        // continuations, whatever `direction` says.
        if pos.pending != NO_HOLE {
            shape.holes = t.bit[pos.pending as usize];
            shape.dirs = [Some(Dir::Forward), Some(Dir::Backward)];
            shape.ndirs = 2;
            return shape;
        }
        let side = pos.occ & t.side_mask[pi];
        if side == 0 {
            return shape;
        }
        let cand = self.start_candidates(pos, pi, side);
        shape.holes = self.singletons_filtered(pos, cand);
        // §3.3 direction: does this move carry `+`/`-`?
        let choose = match self.settings().direction {
            DirectionRule::Forward => false,
            DirectionRule::EachMove => true,
            DirectionRule::OncePerGame => pos.fixed_dir[pi].is_none(),
        };
        if choose {
            shape.dirs = [Some(Dir::Forward), Some(Dir::Backward)];
            shape.ndirs = 2;
        }
        // §3.4: lone-seed steps come last.
        self.lone_seed_steps(pos, p, side, &mut shape);
        shape
    }

    /// §3.1 start hole: the occupied holes of the rows `start` picks for
    /// player `pi`, whose occupied holes are `side`.
    #[inline(always)]
    fn start_candidates(&self, pos: &Position, pi: usize, side: u128) -> u128 {
        let t = &self.t;
        let row = |d: usize| pos.occ & t.row_mask[t.row_of[pi][d] as usize];
        match self.settings().start {
            StartRule::Any => side,
            StartRule::OutermostNonEmpty => (0..t.depths).map(row).find(|&r| r != 0).unwrap_or(0),
            StartRule::InnermostNonEmpty => {
                (0..t.depths).rev().map(row).find(|&r| r != 0).unwrap_or(0)
            }
        }
    }

    /// §3.2 singletons, filtering the start rule's candidates `cand`
    /// (§12.1).
    #[inline(always)]
    fn singletons_filtered(&self, pos: &Position, cand: u128) -> u128 {
        let single_ok = match self.settings().singletons {
            Singletons::Allowed => true,
            Singletons::LastResort => !bits(cand).any(|h| pos.holes[h] > 1),
            Singletons::Forbidden => false,
        };
        if single_ok {
            cand
        } else {
            bits(cand)
                .filter(|&h| pos.holes[h] > 1)
                .fold(0, |m, h| m | 1u128 << h)
        }
    }

    /// Plays a move known to be legal (one from [`Rules::legal_moves`]).
    /// An illegal move gives an unspecified, but seed-conserving, result.
    pub fn play_unchecked<O: Observer>(
        &self,
        pos: &mut Position,
        mv: Move,
        obs: &mut O,
    ) -> MoveReport {
        let p = pos.to_move;
        let report = if pos.pending != NO_HOLE {
            // §7: the second decision of a turn begun by a capturing step
            // sows the entered hole on in the chosen direction.
            let h = pos.pending as usize;
            pos.pending = NO_HOLE;
            self.sow_move(pos, p, mv.dir.unwrap_or(Dir::Forward), h, obs)
        } else if mv.is_step() {
            self.play_step(pos, p, mv, obs)
        } else {
            let dir = self.sowing_dir(pos, p, mv);
            self.sow_move(pos, p, dir, mv.from as usize, obs)
        };
        if report.end == MoveEnd::Continues {
            // §7: the turn goes on: the same player, the same ply.
            return report;
        }
        pos.plies += 1;
        pos.to_move = p.other();
        // §8: a move that repeated a state, or reached the lap limit, ends
        // the game.
        match report.end {
            MoveEnd::Endless => pos.ended = Some(self.endless_outcome(p)),
            MoveEnd::LapLimit => pos.ended = Some(Ended::LapLimit),
            _ => {}
        }
        report
    }

    /// §3.3: the direction a sowing move goes in. Under `once-per-game`
    /// the player's first sowing move fixes it for the rest of the game.
    fn sowing_dir(&self, pos: &mut Position, p: Player, mv: Move) -> Dir {
        match self.settings().direction {
            DirectionRule::Forward => Dir::Forward,
            DirectionRule::EachMove => mv.dir.unwrap_or(Dir::Forward),
            DirectionRule::OncePerGame => match pos.fixed_dir[p.index()] {
                Some(d) => d,
                None => {
                    let d = mv.dir.unwrap_or(Dir::Forward);
                    pos.fixed_dir[p.index()] = Some(d);
                    d
                }
            },
        }
    }

    // -----------------------------------------------------------------
    // §4 Sowing

    /// What a lap's last seed in `landing` leads to, judged on the board
    /// after it dropped, in RULES.md §4's order: a capture (§5) replaces
    /// the relay (§6, §12.3); otherwise the move ends.
    #[inline(always)]
    pub(super) fn land(
        &self,
        pos: &Position,
        p: Player,
        landing: usize,
        was_empty: bool,
    ) -> Landing {
        // §5 trigger.
        let trigger = match self.settings().capture_trigger {
            CaptureTrigger::Occupied => !was_empty,
            CaptureTrigger::Empty => was_empty,
            CaptureTrigger::Either => true,
        };
        if trigger && let Some(v) = self.victims(pos, p, landing, was_empty) {
            return Landing::Capture(landing, v);
        }
        if !was_empty && self.relays(landing) {
            Landing::Relay(landing)
        } else if was_empty {
            Landing::End(MoveEnd::EmptyHole)
        } else {
            Landing::End(MoveEnd::NoRelay)
        }
    }

    // -----------------------------------------------------------------
    // §5 Capture

    /// Whether `landing` lies in a row the mover may capture from
    /// (`capturing_row`), judged on the board as it is now.
    #[inline(always)]
    fn may_capture_from(&self, pos: &Position, p: Player, landing: usize) -> bool {
        let t = &self.t;
        let d = t.depth[landing] as usize;
        match self.settings().capturing_row {
            CapturingRow::Inner => d + 1 == t.depths,
            CapturingRow::InnermostNonEmpty => pos.occ & t.deeper[p.index()][d] == 0,
        }
    }

    /// The opponent holes a last seed in `landing` captures, if it
    /// captures: capturing row, victims, enough seeds, and the refusal
    /// after an empty landing (the trigger is the caller's, §4 and §7).
    #[inline(always)]
    pub(super) fn victims(
        &self,
        pos: &Position,
        p: Player,
        landing: usize,
        was_empty: bool,
    ) -> Option<Victims> {
        let t = &self.t;
        let s = &self.settings();
        if !self.may_capture_from(pos, p, landing) {
            return None;
        }
        let o = p.other().index();
        // The opponent's holes of the column, inner row first.
        let column = &t.victim_holes[o][t.column[landing] as usize][..t.depths];
        let v = self.column_victims(pos, o, column);
        let min = if was_empty {
            s.min_victim_seeds_after_empty
        } else {
            s.min_victim_seeds
        };
        // An empty victim hole (innermost-row rule) leaves total at 0.
        if v.total == 0 || v.total < min as u64 {
            return None;
        }
        if was_empty
            && s.empty_landing_refusal == EmptyLandingRefusal::AllOnes
            && column.iter().all(|&h| pos.holes[h as usize] == 1)
        {
            return None;
        }
        Some(v)
    }

    /// The holes of `column` (opponent `o`'s holes facing the landing,
    /// inner row first) that `victim` names, whatever they hold.
    #[inline(always)]
    fn column_victims(&self, pos: &Position, o: usize, column: &[u8]) -> Victims {
        let t = &self.t;
        let mut v = Victims {
            holes: [0; MAX_ROWS / 2],
            len: 0,
            total: 0,
        };
        match self.settings().victim {
            VictimRule::InnermostRow => {
                for (i, &h) in column.iter().enumerate() {
                    let row = t.row_of[o][t.depths - 1 - i] as usize;
                    if pos.occ & t.row_mask[row] != 0 {
                        v.holes[0] = h;
                        v.len = 1;
                        v.total = pos.holes[h as usize] as u64;
                        break;
                    }
                }
            }
            VictimRule::Column => {
                if let Some(&h) = column.iter().find(|&&h| pos.holes[h as usize] > 0) {
                    v.holes[0] = h;
                    v.len = 1;
                    v.total = pos.holes[h as usize] as u64;
                }
            }
            VictimRule::WholeColumn => {
                for &h in column {
                    if pos.holes[h as usize] > 0 {
                        v.holes[v.len] = h;
                        v.len += 1;
                        v.total += pos.holes[h as usize] as u64;
                    }
                }
            }
        }
        v
    }

    // -----------------------------------------------------------------
    // §6 Relay

    /// Whether an occupied landing that does not capture relays.
    #[inline(always)]
    fn relays(&self, landing: usize) -> bool {
        match self.settings().relay {
            Relay::Occupied => true,
            Relay::OuterRow => self.t.depth[landing] == 0,
            Relay::Never => false,
        }
    }

    // -----------------------------------------------------------------
    // §7 Lone-seed steps

    /// Adds the steps `lone_seed` and `lone_seed_step` offer when the
    /// mover's side (`side`, its occupied holes) holds one seed.
    fn lone_seed_steps(&self, pos: &Position, p: Player, side: u128, shape: &mut Shape) {
        if self.settings().lone_seed == LoneSeed::None || side.count_ones() != 1 {
            return;
        }
        let t = &self.t;
        let h = side.trailing_zeros() as usize;
        let d = t.depth[h] as usize;
        // From the inner row there is no step.
        if pos.holes[h] != 1 || d + 1 >= t.depths {
            return;
        }
        let row = t.row_of[p.index()][d + 1] as usize;
        let c = t.column[h] as usize;
        let mut push = |to: usize| {
            if self.step_offered(pos, p, h, to) {
                shape.steps[shape.nsteps] = Move::step(h, to);
                shape.nsteps += 1;
            }
        };
        match self.settings().lone_seed {
            LoneSeed::Diagonal => {
                if c > 0 {
                    push(row * t.cols + c - 1);
                }
                if c + 1 < t.cols {
                    push(row * t.cols + c + 1);
                }
            }
            LoneSeed::Straight => push(row * t.cols + c),
            LoneSeed::None => {}
        }
    }

    /// Whether the lone seed in `from` may step to `to` under
    /// `lone_seed_step`: under `no-failed-capture`, not into a row that
    /// may capture when the step would not capture.
    fn step_offered(&self, pos: &Position, p: Player, from: usize, to: usize) -> bool {
        if self.settings().lone_seed_step == LoneSeedStep::Always {
            return true;
        }
        let mut after = *pos;
        after.holes[from] -= 1;
        after.holes[to] += 1;
        after.occ = (after.occ & !self.t.bit[from]) | self.t.bit[to];
        !self.may_capture_from(&after, p, to) || self.victims(&after, p, to, true).is_some()
    }

    /// A step: the seed enters an empty hole, captures if it may, and
    /// then the game ends (§9), the turn pauses (`step_sowing =
    /// "chosen"`) or the captured seeds are sown on.
    fn play_step<O: Observer>(
        &self,
        pos: &mut Position,
        p: Player,
        mv: Move,
        obs: &mut O,
    ) -> MoveReport {
        let (from, to) = (mv.from as usize, mv.to as usize);
        pos.holes[from] -= 1;
        pos.holes[to] += 1;
        pos.occ = (pos.occ & !(1u128 << from)) | 1u128 << to;
        obs.step(from, to);
        obs.board(&pos.holes);
        // The entered hole was empty: the lone seed is the mover's only one.
        // The capture trigger does not apply to a step (§12.6).
        let Some(v) = self.victims(pos, p, to, true) else {
            obs.end(MoveEnd::Step);
            return LapTotals::default().finish(MoveEnd::Step);
        };
        if let Some(end) = self.step_pause(pos, p, to, &v) {
            self.capture_in_place(pos, to, &v, obs);
            obs.end(end);
            let r = LapTotals {
                captures: 1,
                seeds_captured: v.total,
                ..LapTotals::default()
            };
            return r.finish(end);
        }
        let dir = self.step_dir(pos, p);
        let n = self.lift_capture(pos, to, &v, obs);
        let mut r = self.sow_laps(pos, p, dir, to, n, obs);
        r.captures += 1;
        r.seeds_captured += v.total;
        r
    }

    /// How a step's capture of `v` into `to` stops the move: it ends the
    /// game, or pauses the turn for the direction to sow on (noted in
    /// `pos`); `None` if it is sown on at once.
    fn step_pause(&self, pos: &mut Position, p: Player, to: usize, v: &Victims) -> Option<MoveEnd> {
        if self.ends_game(pos, p, v) {
            Some(MoveEnd::OpponentEmpty)
        } else if self.settings().step_sowing == StepSowing::Chosen {
            pos.pending = to as u8;
            Some(MoveEnd::Continues)
        } else {
            None
        }
    }

    /// The direction a step's capture sows on in under `step_sowing =
    /// "forward"`: the player's fixed direction if they have one, else
    /// forward (the sources are silent, RULES.md §12.5).
    fn step_dir(&self, pos: &Position, p: Player) -> Dir {
        match self.settings().direction {
            DirectionRule::OncePerGame => pos.fixed_dir[p.index()].unwrap_or(Dir::Forward),
            _ => Dir::Forward,
        }
    }

    // -----------------------------------------------------------------
    // §8 Endless moves (found by `endless`)

    /// How the game ends after player `p`'s endless move (`endless_move`).
    fn endless_outcome(&self, p: Player) -> Ended {
        match self.settings().endless_move {
            EndlessMove::Undecided => Ended::EndlessMove,
            EndlessMove::MoverLoses => Ended::EndlessMoveLost(p.other()),
        }
    }

    // -----------------------------------------------------------------
    // §9 Game end and status

    /// Whether the capture of `v` would leave the mover's opponent without
    /// a seed, so that under `game_end = "opponent-empty"` it ends the
    /// game.
    pub(super) fn ends_game(&self, pos: &Position, p: Player, v: &Victims) -> bool {
        if self.settings().game_end != GameEnd::OpponentEmpty {
            return false;
        }
        let taken = v.holes[..v.len]
            .iter()
            .fold(0u128, |m, &h| m | self.t.bit[h as usize]);
        pos.occ & self.t.side_mask[p.other().index()] & !taken == 0
    }

    /// Whether a capture at the end of lap `laps` ends the move rather
    /// than being sown on: taking the opponent's last seeds ends the game
    /// (`opponent-empty`), decided before the lap limit (§8) stops it.
    #[inline(always)]
    pub(super) fn capture_ends_move(
        &self,
        pos: &Position,
        p: Player,
        v: &Victims,
        laps: u64,
    ) -> Option<MoveEnd> {
        if self.ends_game(pos, p, v) {
            Some(MoveEnd::OpponentEmpty)
        } else if laps >= self.settings().lap_limit {
            // A capture here means no state repeated so far.
            Some(MoveEnd::LapLimit)
        } else {
            None
        }
    }

    /// The game's status, checked in RULES.md §9's order: a player without
    /// a move loses even on the last allowed ply (§12.9).
    pub fn status(&self, pos: &Position) -> Status {
        match pos.ended {
            Some(Ended::EndlessMove) => return Status::EndlessMove,
            Some(Ended::LapLimit) => return Status::LapLimit,
            Some(Ended::EndlessMoveLost(winner)) => return Status::Won(winner),
            None => {}
        }
        if !self.has_legal_move(pos) {
            return Status::Won(pos.to_move.other());
        }
        if pos.plies >= self.settings().ply_limit {
            return Status::PlyLimit;
        }
        Status::Ongoing
    }
}
