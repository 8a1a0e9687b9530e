//! A second, deliberately plain implementation of the Katro rules, used only
//! to check the engine: the oracle of `tests/it/differential.rs` and of the
//! `engine_vs_reference` fuzz target, through [`compare`]. Read it beside
//! docs/RULES.md to check the rules: it follows that document's order.
//!
//! It was written from docs/RULES.md and the meanings documented on each
//! setting value in `crates/core/src/rules/settings.rs`, without reading the engine's
//! code (`crates/core/src/engine.rs`, `crates/core/src/engine/`), so that a misreading of the
//! rules in one is unlikely to be repeated in the other. Where it is
//! silent it follows the project's stated conventions (listed where they
//! are used below).
//!
//! Speed does not matter here: the board is a `Vec<Vec<u32>>` indexed
//! `[row][col]`, seeds are sown one at a time, and endless moves are found by
//! remembering every relay lap's starting state in a `HashSet`.

use std::collections::HashSet;

pub mod compare;

use katro_core::engine::{Dir, Move, MoveEnd, Player, Status};
use katro_core::rules::{
    BackwardCircuit, CaptureTrigger, CapturingRow, DirectionRule, EmptyLandingRefusal, EndlessMove,
    GameEnd, LoneSeed, LoneSeedStep, Relay, Settings, Singletons, StartRule, StepSowing,
    VictimRule,
};

/// Players are 0 (South) and 1 (North) here.
pub const SOUTH: usize = 0;
pub const NORTH: usize = 1;

/// How a move ended the game early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    Endless,
    LapLimit,
    /// An endless move under `endless_move = "mover-loses"`: the winner.
    EndlessLost(usize),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    /// `board[row][col]`, row 0 is RULES.md's row 1.
    pub board: Vec<Vec<u32>>,
    pub to_move: usize,
    pub fixed_dir: [Option<Dir>; 2],
    pub plies: u32,
    pub ended: Option<Ended>,
    /// The hole a capturing step under `step_sowing = "chosen"` entered,
    /// while its player has still to choose the direction of the sowing on
    /// (docs/RULES.md §7).
    pub pending: Option<(usize, usize)>,
}

/// What a move's first sowing lap carries, the hole it starts from and
/// which way it goes.
type FirstLap = (u64, (usize, usize), Dir);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub laps: u64,
    /// Laps begun by a relay.
    pub relays: u64,
    pub captures: u32,
    pub seeds_captured: u64,
    pub seeds_sown: u64,
    pub end: MoveEnd,
    /// For an endless move: the cycle it fell into, from the repeated state.
    pub cycle: Option<Cycle>,
    /// Captures refused by `empty_landing_refusal = "all-ones"` alone, so
    /// that tests can show the rule was reached.
    pub all_ones_refusals: u32,
}

/// The relay laps of an endless move's cycle, starting from the state that
/// repeated: `boards[k]` is the board before lifting at the start of the
/// k-th lap of the cycle, and `sown[k]` the seeds that lap sows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    pub boards: Vec<Vec<Vec<u32>>>,
    pub sown: Vec<u64>,
}

/// A relay lap's starting state: the board before lifting, row after row
/// (`u16` is enough for any board the engine accepts, and keeps the millions
/// of states of a long move in memory), and the hole about to be lifted.
type LapStart = (Vec<u16>, (usize, usize));

pub struct Reference {
    pub s: Settings,
    rows: usize,
    cols: usize,
    /// Rows a player owns.
    depths: usize,
    /// `circuit[player]`: the player's holes as (row, col) in forward order.
    circuit: [Vec<(usize, usize)>; 2],
    /// `backward[player]`: the player's holes in the order a backward lap
    /// visits them (docs/RULES.md §2, `backward_circuit`).
    backward: [Vec<(usize, usize)>; 2],
}

impl Reference {
    pub fn new(s: &Settings) -> Reference {
        let rows = s.rows;
        let cols = s.holes;
        let depths = rows / 2;
        // South: row 1 from a to the last column, row 2 back, and so on
        // (RULES.md §2). North's circuit is South's turned through 180 degrees.
        let mut south = Vec::new();
        for d in 0..depths {
            for k in 0..cols {
                let c = if d % 2 == 0 { k } else { cols - 1 - k };
                south.push((d, c));
            }
        }
        // Backward, `reversed`: the same holes in the opposite order.
        // `mirrored`: the forward circuit reflected left to right, so South
        // goes f1 .. a1, a2 .. f2, f3 .. a3 on 6x6 (docs/RULES.md §2).
        let south_back: Vec<(usize, usize)> = match s.backward_circuit {
            BackwardCircuit::Reversed => south.iter().rev().copied().collect(),
            BackwardCircuit::Mirrored => south.iter().map(|&(r, c)| (r, cols - 1 - c)).collect(),
        };
        // North's circuits, both directions, are South's turned through 180
        // degrees.
        let turn = |holes: &[(usize, usize)]| -> Vec<(usize, usize)> {
            holes
                .iter()
                .map(|&(r, c)| (rows - 1 - r, cols - 1 - c))
                .collect()
        };
        let north = turn(&south);
        let north_back = turn(&south_back);
        Reference {
            s: s.clone(),
            rows,
            cols,
            depths,
            circuit: [south, north],
            backward: [south_back, north_back],
        }
    }

    /// The holes a lap in direction `dir` visits, in order, round and round.
    fn path(&self, p: usize, dir: Dir) -> &[(usize, usize)] {
        match dir {
            Dir::Forward => &self.circuit[p],
            Dir::Backward => &self.backward[p],
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The board row of a player's row at `depth` (0 = outer).
    fn row_of(&self, player: usize, depth: usize) -> usize {
        if player == SOUTH {
            depth
        } else {
            self.rows - 1 - depth
        }
    }

    fn owner(&self, row: usize) -> usize {
        if row < self.depths { SOUTH } else { NORTH }
    }

    fn depth(&self, row: usize) -> usize {
        if row < self.depths {
            row
        } else {
            self.rows - 1 - row
        }
    }

    fn hole(&self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    fn row_col(&self, hole: usize) -> (usize, usize) {
        (hole / self.cols, hole % self.cols)
    }

    fn row_has_seeds(&self, board: &[Vec<u32>], row: usize) -> bool {
        board[row].iter().any(|&v| v > 0)
    }

    pub fn side_seeds(&self, pos: &Pos, player: usize) -> u32 {
        let mut total = 0;
        for &(r, c) in &self.circuit[player] {
            total += pos.board[r][c];
        }
        total
    }

    pub fn start(&self) -> Pos {
        let mut board = vec![vec![0; self.cols]; self.rows];
        for (r, row) in board.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = match (&self.s.layout, self.s.seeds) {
                    (Some(layout), _) => layout[r][c] as u32,
                    (None, Some(seeds)) => seeds as u32,
                    (None, None) => panic!("settings have neither seeds nor a layout"),
                };
            }
        }
        Pos {
            board,
            to_move: SOUTH,
            fixed_dir: [None, None],
            plies: 0,
            ended: None,
            pending: None,
        }
    }

    /// The moves the rules allow, before asking whether the game is over.
    fn candidate_moves(&self, pos: &Pos) -> Vec<Move> {
        // Mid-turn after a capturing step under `chosen`: only the two
        // continuations, + first (docs/RULES.md §7).
        if let Some((r, c)) = pos.pending {
            let h = self.hole(r, c);
            return vec![
                Move::sow(h, Some(Dir::Forward)),
                Move::sow(h, Some(Dir::Backward)),
            ];
        }
        let holes = self.start_holes(pos);
        let mut moves = self.sowings_from(pos, holes);
        // Lone-seed steps come last.
        for (from, to) in self.lone_steps(pos) {
            if self.step_offered(pos, from, to) {
                moves.push(Move::step(self.hole(from.0, from.1), self.hole(to.0, to.1)));
            }
        }
        moves
    }

    /// Which of the mover's rows (by depth) a move may start from.
    fn start_depths(&self, pos: &Pos) -> Vec<usize> {
        let p = pos.to_move;
        let b = &pos.board;
        let mut start_depths = Vec::new();
        match self.s.start {
            StartRule::OutermostNonEmpty => {
                for d in 0..self.depths {
                    if self.row_has_seeds(b, self.row_of(p, d)) {
                        start_depths.push(d);
                        break;
                    }
                }
            }
            StartRule::InnermostNonEmpty => start_depths.extend(self.innermost_occupied(b, p)),
            StartRule::Any => {
                for d in 0..self.depths {
                    start_depths.push(d);
                }
            }
        }
        start_depths
    }

    /// The holes a sowing may start from: the occupied holes of the start
    /// rule's rows, in board order (row 1 first, column a first) whichever
    /// player moves, filtered by the singleton rule.
    fn start_holes(&self, pos: &Pos) -> Vec<(usize, usize)> {
        let p = pos.to_move;
        let b = &pos.board;
        let start_depths = self.start_depths(pos);
        let mut holes = Vec::new();
        for (r, row) in b.iter().enumerate() {
            if self.owner(r) != p || !start_depths.contains(&self.depth(r)) {
                continue;
            }
            for (c, &seeds) in row.iter().enumerate() {
                if seeds > 0 {
                    holes.push((r, c));
                }
            }
        }
        let any_big = holes.iter().any(|&(r, c)| b[r][c] >= 2);
        let keep_singletons = match self.s.singletons {
            Singletons::Allowed => true,
            Singletons::LastResort => !any_big,
            Singletons::Forbidden => false,
        };
        if !keep_singletons {
            holes.retain(|&(r, c)| b[r][c] >= 2);
        }
        holes
    }

    /// The sowings from `holes`, in both directions where the direction
    /// rule lets the mover choose.
    fn sowings_from(&self, pos: &Pos, holes: Vec<(usize, usize)>) -> Vec<Move> {
        let p = pos.to_move;
        let mut moves = Vec::new();
        for (r, c) in holes {
            let h = self.hole(r, c);
            let choose = match self.s.direction {
                DirectionRule::Forward => false,
                DirectionRule::EachMove => true,
                DirectionRule::OncePerGame => pos.fixed_dir[p].is_none(),
            };
            if choose {
                moves.push(Move::sow(h, Some(Dir::Forward)));
                moves.push(Move::sow(h, Some(Dir::Backward)));
            } else {
                moves.push(Move::sow(h, None));
            }
        }
        moves
    }

    /// Every step the `lone_seed` shape allows, offered or not: the
    /// mover's whole side holds one seed, not in the inner row, and it may
    /// step one row deeper (RULES.md §7).
    fn lone_steps(&self, pos: &Pos) -> Vec<((usize, usize), (usize, usize))> {
        let p = pos.to_move;
        let mut steps = Vec::new();
        if self.s.lone_seed == LoneSeed::None || self.side_seeds(pos, p) != 1 {
            return steps;
        }
        let mut lone = None;
        for &(r, c) in &self.circuit[p] {
            if pos.board[r][c] == 1 {
                lone = Some((r, c));
            }
        }
        let (r, c) = lone.expect("a side holding one seed has a hole holding it");
        let d = self.depth(r);
        if d + 1 >= self.depths {
            return steps;
        }
        let to_row = self.row_of(p, d + 1);
        match self.s.lone_seed {
            LoneSeed::Diagonal => {
                if c > 0 {
                    steps.push(((r, c), (to_row, c - 1)));
                }
                if c + 1 < self.cols {
                    steps.push(((r, c), (to_row, c + 1)));
                }
            }
            LoneSeed::Straight => steps.push(((r, c), (to_row, c))),
            LoneSeed::None => {}
        }
        steps
    }

    /// How many of the steps the shape allows `lone_seed_step` withholds
    /// here, so that tests can show the rule was reached.
    pub fn withheld_steps(&self, pos: &Pos) -> usize {
        if pos.pending.is_some() {
            return 0;
        }
        self.lone_steps(pos)
            .into_iter()
            .filter(|&(from, to)| !self.step_offered(pos, from, to))
            .count()
    }

    /// `lone_seed_step`: under `no-failed-capture` a step into a row that
    /// may capture is offered only if it captures (docs/RULES.md §7).
    fn step_offered(&self, pos: &Pos, from: (usize, usize), to: (usize, usize)) -> bool {
        match self.s.lone_seed_step {
            LoneSeedStep::Always => true,
            LoneSeedStep::NoFailedCapture => {
                let mut b = pos.board.clone();
                b[from.0][from.1] -= 1;
                b[to.0][to.1] += 1;
                let p = pos.to_move;
                !self.row_may_capture(&b, p, to.0) || self.victims(&b, p, to, true, false).is_some()
            }
        }
    }

    pub fn status(&self, pos: &Pos) -> Status {
        if pos.pending.is_some() {
            // The turn is not over: its player still has both continuations.
            return Status::Ongoing;
        }
        match pos.ended {
            Some(Ended::Endless) => return Status::EndlessMove,
            Some(Ended::LapLimit) => return Status::LapLimit,
            Some(Ended::EndlessLost(w)) => return Status::Won(player(w)),
            None => {}
        }
        // No legal move on your turn: you lose (RULES.md §9).
        if self.candidate_moves(pos).is_empty() {
            return Status::Won(player(1 - pos.to_move));
        }
        if pos.plies >= self.s.ply_limit {
            return Status::PlyLimit;
        }
        Status::Ongoing
    }

    pub fn legal_moves(&self, pos: &Pos) -> Vec<Move> {
        if self.status(pos) != Status::Ongoing {
            return Vec::new();
        }
        self.candidate_moves(pos)
    }

    /// The opponent holes a landing in `(row, col)` takes, or `None`. The
    /// landing hole's seed has already dropped; `was_empty` says whether
    /// the hole held nothing before it. `check_trigger` is false for a
    /// lone-seed step, which captures whatever kind of hole it enters.
    fn victims(
        &self,
        b: &[Vec<u32>],
        p: usize,
        landing: (usize, usize),
        was_empty: bool,
        check_trigger: bool,
    ) -> Option<Vec<(usize, usize)>> {
        self.victims_under(b, p, landing, was_empty, check_trigger, true)
    }

    /// Whether `empty_landing_refusal = "all-ones"`, and nothing else,
    /// stops this landing from capturing.
    fn refused_by_all_ones(
        &self,
        b: &[Vec<u32>],
        p: usize,
        landing: (usize, usize),
        was_empty: bool,
        check_trigger: bool,
    ) -> bool {
        self.victims_under(b, p, landing, was_empty, check_trigger, false)
            .is_some()
            && self
                .victims(b, p, landing, was_empty, check_trigger)
                .is_none()
    }

    /// [`Reference::victims`], with the `all-ones` refusal applied or not.
    fn victims_under(
        &self,
        b: &[Vec<u32>],
        p: usize,
        (row, col): (usize, usize),
        was_empty: bool,
        check_trigger: bool,
        refusal: bool,
    ) -> Option<Vec<(usize, usize)>> {
        if check_trigger && !self.trigger_fires(was_empty) {
            return None;
        }
        if !self.row_may_capture(b, p, row) {
            return None;
        }
        let q = 1 - p;
        let victims = self.column_victims(b, q, col);
        // The project's reading of the two minimums (the preset comments
        // of katra-boaoaka-4x8): `min_victim_seeds` after an occupied
        // landing, `min_victim_seeds_after_empty` after an empty one; each
        // counts the seeds of all the victim holes together.
        let total: u64 = victims.iter().map(|&(r, c)| b[r][c] as u64).sum();
        let min = if was_empty {
            self.s.min_victim_seeds_after_empty
        } else {
            self.s.min_victim_seeds
        };
        if victims.is_empty() || total < min as u64 {
            return None;
        }
        // `all-ones`: after an empty landing (a step's hole was empty too),
        // no capture when every opponent hole of the column holds exactly
        // one seed, whichever holes the victim rule takes (docs/RULES.md §5).
        if refusal
            && was_empty
            && self.s.empty_landing_refusal == EmptyLandingRefusal::AllOnes
            && self.all_ones(b, q, col)
        {
            return None;
        }
        Some(victims)
    }

    /// The capture trigger (docs/RULES.md §5): whether a landing in a
    /// hole that was empty, or not, may capture.
    fn trigger_fires(&self, was_empty: bool) -> bool {
        match self.s.capture_trigger {
            CaptureTrigger::Occupied => !was_empty,
            CaptureTrigger::Empty => was_empty,
            CaptureTrigger::Either => true,
        }
    }

    /// The victim rule: which holes of column `col` on the opponent `q`'s
    /// side are taken.
    fn column_victims(&self, b: &[Vec<u32>], q: usize, col: usize) -> Vec<(usize, usize)> {
        let mut victims = Vec::new();
        match self.s.victim {
            VictimRule::InnermostRow => {
                if let Some(dd) = self.innermost_occupied(b, q) {
                    let vr = self.row_of(q, dd);
                    if b[vr][col] > 0 {
                        victims.push((vr, col));
                    }
                }
            }
            VictimRule::Column => {
                for dd in (0..self.depths).rev() {
                    let vr = self.row_of(q, dd);
                    if b[vr][col] > 0 {
                        victims.push((vr, col));
                        break;
                    }
                }
            }
            VictimRule::WholeColumn => {
                for dd in (0..self.depths).rev() {
                    let vr = self.row_of(q, dd);
                    if b[vr][col] > 0 {
                        victims.push((vr, col));
                    }
                }
            }
        }
        victims
    }

    /// Whether every hole of column `col` on `q`'s side holds one seed.
    fn all_ones(&self, b: &[Vec<u32>], q: usize, col: usize) -> bool {
        let mut all_ones = true;
        for dd in 0..self.depths {
            if b[self.row_of(q, dd)][col] != 1 {
                all_ones = false;
            }
        }
        all_ones
    }

    /// The depth of `player`'s innermost row holding a seed.
    fn innermost_occupied(&self, b: &[Vec<u32>], player: usize) -> Option<usize> {
        let mut innermost = None;
        for dd in 0..self.depths {
            if self.row_has_seeds(b, self.row_of(player, dd)) {
                innermost = Some(dd);
            }
        }
        innermost
    }

    /// The capturing-row rule (docs/RULES.md §5), on the board after the
    /// last seed dropped.
    fn row_may_capture(&self, b: &[Vec<u32>], p: usize, row: usize) -> bool {
        let d = self.depth(row);
        match self.s.capturing_row {
            CapturingRow::Inner => d == self.depths - 1,
            CapturingRow::InnermostNonEmpty => self.innermost_occupied(b, p) == Some(d),
        }
    }

    fn relays(&self, row: usize) -> bool {
        match self.s.relay {
            Relay::Occupied => true,
            Relay::OuterRow => self.depth(row) == 0,
            Relay::Never => false,
        }
    }

    /// Plays a move from [`Reference::legal_moves`].
    pub fn play(&self, pos: &mut Pos, mv: Move) -> Played {
        let p = pos.to_move;
        let mut rep = Played {
            laps: 0,
            relays: 0,
            captures: 0,
            seeds_captured: 0,
            seeds_sown: 0,
            end: MoveEnd::EmptyHole,
            cycle: None,
            all_ones_refusals: 0,
        };
        let first_lap = if let Some(entered) = pos.pending.take() {
            Some(self.lift_continuation(pos, mv, entered, &mut rep))
        } else if mv.is_step() {
            match self.play_step(pos, mv, &mut rep) {
                Some(first_lap) => first_lap,
                // The turn pauses: same player, ply not yet counted.
                None => return rep,
            }
        } else {
            Some(self.lift_sowing(pos, mv, &mut rep))
        };
        if let Some((hand, from, dir)) = first_lap {
            self.sow(pos, &mut rep, hand, from, dir);
        }
        pos.to_move = 1 - p;
        pos.plies += 1;
        rep
    }

    /// The second decision of a turn under `step_sowing = "chosen"`: sow
    /// everything in the entered hole the chosen way. It neither obeys nor
    /// fixes a once-per-game direction (docs/RULES.md §7).
    fn lift_continuation(
        &self,
        pos: &mut Pos,
        mv: Move,
        entered: (usize, usize),
        rep: &mut Played,
    ) -> FirstLap {
        assert_eq!(self.row_col(mv.from as usize), entered, "a continuation");
        let dir = mv.dir.expect("a continuation carries a direction");
        let hand = pos.board[entered.0][entered.1] as u64;
        pos.board[entered.0][entered.1] = 0;
        rep.laps = 1;
        (hand, entered, dir)
    }

    /// A lone seed's step and its capture, if any: the first lap the
    /// capture sows (`None` inside if the move ends without sowing), or
    /// `None` if the turn pauses for its second decision.
    fn play_step(&self, pos: &mut Pos, mv: Move, rep: &mut Played) -> Option<Option<FirstLap>> {
        let p = pos.to_move;
        let (fr, fc) = self.row_col(mv.from as usize);
        let (tr, tc) = self.row_col(mv.to as usize);
        pos.board[fr][fc] -= 1;
        let was_empty = pos.board[tr][tc] == 0;
        pos.board[tr][tc] += 1;
        // The step is not a sowing lap: laps count from its capture.
        if self.refused_by_all_ones(&pos.board, p, (tr, tc), was_empty, false) {
            rep.all_ones_refusals += 1;
        }
        let Some(victims) = self.victims(&pos.board, p, (tr, tc), was_empty, false) else {
            rep.end = MoveEnd::Step;
            return Some(None);
        };
        self.take(pos, rep, (tr, tc), &victims);
        if self.game_over_by_capture(pos, p) {
            rep.end = MoveEnd::OpponentEmpty;
            return Some(None);
        }
        if self.s.step_sowing == StepSowing::Chosen {
            rep.end = MoveEnd::Continues;
            pos.pending = Some((tr, tc));
            return None;
        }
        // A step never fixes the direction; its capture sows in the
        // player's fixed direction if there is one, else forward. The
        // capture's lap is the move's first, so the lap limit (at least 1)
        // cannot stop it.
        let dir = pos.fixed_dir[p].unwrap_or(Dir::Forward);
        let hand = pos.board[tr][tc] as u64;
        pos.board[tr][tc] = 0;
        rep.laps = 1;
        Some(Some((hand, (tr, tc), dir)))
    }

    /// A sowing move: its hole lifted, its direction (fixed by it under
    /// `once-per-game` if not yet fixed).
    fn lift_sowing(&self, pos: &mut Pos, mv: Move, rep: &mut Played) -> FirstLap {
        let p = pos.to_move;
        let (r, c) = self.row_col(mv.from as usize);
        let dir = match self.s.direction {
            DirectionRule::Forward => Dir::Forward,
            DirectionRule::EachMove => mv.dir.expect("each-move moves carry a direction"),
            DirectionRule::OncePerGame => match mv.dir {
                Some(d) => {
                    pos.fixed_dir[p] = Some(d);
                    d
                }
                None => pos.fixed_dir[p].expect("a move without +/- has a fixed direction"),
            },
        };
        let hand = pos.board[r][c] as u64;
        pos.board[r][c] = 0;
        rep.laps = 1;
        (hand, (r, c), dir)
    }

    /// Sows `hand` seeds on from the hole `from` in direction `dir`, then
    /// captures, relays or stops, lap after lap, until the move ends.
    fn sow(&self, pos: &mut Pos, rep: &mut Played, mut hand: u64, from: (usize, usize), dir: Dir) {
        let p = pos.to_move;
        let path = self.path(p, dir);
        let mut at = position_in(path, from);
        // Relay lap starts seen in this move: (board, landing hole).
        let mut seen: HashSet<LapStart> = HashSet::new();
        loop {
            rep.seeds_sown += hand;
            at = drop_seeds(&mut pos.board, hand, path, at);
            let landing = path[at];
            let (lr, lc) = landing;
            let was_empty = pos.board[lr][lc] == 1;

            // Capture first, then relay, else the move ends.
            let victims = self.victims(&pos.board, p, landing, was_empty, true);
            if self.refused_by_all_ones(&pos.board, p, landing, was_empty, true) {
                rep.all_ones_refusals += 1;
            }
            if let Some(v) = &victims
                && self.capture_ends_game(pos, rep, landing, v)
            {
                return;
            }
            let relay = victims.is_none() && !was_empty && self.relays(lr);
            if victims.is_none() && !relay {
                rep.end = if was_empty {
                    MoveEnd::EmptyHole
                } else {
                    MoveEnd::NoRelay
                };
                return;
            }
            if relay && !seen.insert((flat(&pos.board), landing)) {
                self.end_endless(pos, rep, landing, dir);
                return;
            }
            if rep.laps == self.s.lap_limit {
                rep.end = MoveEnd::LapLimit;
                pos.ended = Some(Ended::LapLimit);
                return;
            }
            if let Some(v) = &victims {
                self.take(pos, rep, landing, v);
            }
            hand = pos.board[lr][lc] as u64;
            pos.board[lr][lc] = 0;
            rep.laps += 1;
            rep.relays += u64::from(relay);
        }
    }

    /// A capture that leaves the opponent no seed ends the move and the
    /// game there, before the lap limit is asked: the move would not go on
    /// (docs/RULES.md §9). Makes that capture and says so; leaves `pos`
    /// and `rep` alone for any other.
    fn capture_ends_game(
        &self,
        pos: &mut Pos,
        rep: &mut Played,
        landing: (usize, usize),
        victims: &[(usize, usize)],
    ) -> bool {
        let p = pos.to_move;
        let mut after = pos.clone();
        let mut scratch = rep.clone();
        self.take(&mut after, &mut scratch, landing, victims);
        if !self.game_over_by_capture(&after, p) {
            return false;
        }
        *pos = after;
        *rep = scratch;
        rep.end = MoveEnd::OpponentEmpty;
        true
    }

    /// Ends an endless move: its cycle recorded, the game ended as
    /// `endless_move` says.
    fn end_endless(&self, pos: &mut Pos, rep: &mut Played, landing: (usize, usize), dir: Dir) {
        let p = pos.to_move;
        rep.end = MoveEnd::Endless;
        rep.cycle = Some(self.cycle(&pos.board, p, landing, dir));
        pos.ended = Some(match self.s.endless_move {
            EndlessMove::Undecided => Ended::Endless,
            EndlessMove::MoverLoses => Ended::EndlessLost(1 - p),
        });
    }

    /// Moves the victims' seeds into the hole `(lr, lc)` and counts the
    /// capture.
    fn take(
        &self,
        pos: &mut Pos,
        rep: &mut Played,
        (lr, lc): (usize, usize),
        victims: &[(usize, usize)],
    ) {
        for &(r, c) in victims {
            let seeds = pos.board[r][c];
            rep.seeds_captured += seeds as u64;
            pos.board[r][c] = 0;
            pos.board[lr][lc] += seeds;
        }
        rep.captures += 1;
    }

    /// Under `game_end = "opponent-empty"`, whether a capture by `p` has
    /// just left the opponent without a seed (docs/RULES.md §9).
    fn game_over_by_capture(&self, pos: &Pos, p: usize) -> bool {
        self.s.game_end == GameEnd::OpponentEmpty && self.side_seeds(pos, 1 - p) == 0
    }

    /// Follows the relays of an endless move once round its cycle, from a
    /// relay lap start that repeated, without touching the position.
    fn cycle(&self, board: &[Vec<u32>], p: usize, landing: (usize, usize), dir: Dir) -> Cycle {
        let path = self.path(p, dir);
        let mut b = board.to_vec();
        let mut at = position_in(path, landing);
        let mut cycle = Cycle {
            boards: Vec::new(),
            sown: Vec::new(),
        };
        loop {
            cycle.boards.push(b.clone());
            let (r, c) = path[at];
            let hand = b[r][c];
            b[r][c] = 0;
            at = drop_seeds(&mut b, hand as u64, path, at);
            cycle.sown.push(hand as u64);
            if b == board && path[at] == landing {
                return cycle;
            }
        }
    }
}

fn position_in(path: &[(usize, usize)], hole: (usize, usize)) -> usize {
    path.iter()
        .position(|&h| h == hole)
        .expect("the hole is on the mover's circuit")
}

/// Drops `hand` seeds one at a time into the holes after `path[at]`, round
/// and round: the index in `path` of the hole the last fell in.
fn drop_seeds(board: &mut [Vec<u32>], hand: u64, path: &[(usize, usize)], mut at: usize) -> usize {
    for _ in 0..hand {
        at = (at + 1) % path.len();
        let (r, c) = path[at];
        board[r][c] += 1;
    }
    at
}

fn flat(board: &[Vec<u32>]) -> Vec<u16> {
    let mut out = Vec::new();
    for row in board {
        for &seeds in row {
            out.push(u16::try_from(seeds).expect("a hole holds at most 65535 seeds"));
        }
    }
    out
}

pub fn player(p: usize) -> Player {
    if p == SOUTH {
        Player::South
    } else {
        Player::North
    }
}
