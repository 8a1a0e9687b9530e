//! A second, deliberately plain implementation of the Katro rules, used only
//! to check the engine (`tests/differential.rs`).
//!
//! It was written from the rules brief (`katro-rules-brief.md`) and the
//! meanings documented on each setting value in `src/rules.rs`, without
//! reading `src/engine.rs`, so that a misreading of the rules in one is
//! unlikely to be repeated in the other. Where the brief is silent it follows
//! the project's stated conventions (listed where they are used below).
//!
//! Speed does not matter here: the board is a `Vec<Vec<u32>>` indexed
//! `[row][col]`, seeds are sown one at a time, and endless moves are found by
//! remembering every relay lap's starting state in a `HashSet`.

use std::collections::HashSet;

use katro::engine::{Dir, Move, MoveEnd, Player, Status};
use katro::rules::{
    CaptureTrigger, CapturingRow, DirectionRule, EndlessMove, LoneSeed, Relay, Settings,
    Singletons, StartRule, VictimRule,
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
    /// `board[row][col]`, row 0 is the brief's row 1.
    pub board: Vec<Vec<u32>>,
    pub to_move: usize,
    pub fixed_dir: [Option<Dir>; 2],
    pub plies: u32,
    pub ended: Option<Ended>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub laps: u64,
    pub captures: u32,
    pub seeds_captured: u64,
    pub seeds_sown: u64,
    pub end: MoveEnd,
    /// For an endless move: the cycle it fell into, from the repeated state.
    pub cycle: Option<Cycle>,
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
}

impl Reference {
    pub fn new(s: &Settings) -> Reference {
        let rows = s.rows;
        let cols = s.holes;
        let depths = rows / 2;
        // South: row 1 from a to the last column, row 2 back, and so on
        // (brief §2). North's circuit is South's turned through 180 degrees.
        let mut south = Vec::new();
        for d in 0..depths {
            for k in 0..cols {
                let c = if d % 2 == 0 { k } else { cols - 1 - k };
                south.push((d, c));
            }
        }
        let north = south
            .iter()
            .map(|&(r, c)| (rows - 1 - r, cols - 1 - c))
            .collect();
        Reference {
            s: s.clone(),
            rows,
            cols,
            depths,
            circuit: [south, north],
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
        }
    }

    /// The moves the rules allow, before asking whether the game is over.
    fn candidate_moves(&self, pos: &Pos) -> Vec<Move> {
        let p = pos.to_move;
        let b = &pos.board;

        // Which of the mover's rows a move may start from.
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
            StartRule::InnermostNonEmpty => {
                for d in (0..self.depths).rev() {
                    if self.row_has_seeds(b, self.row_of(p, d)) {
                        start_depths.push(d);
                        break;
                    }
                }
            }
            StartRule::Any => {
                for d in 0..self.depths {
                    start_depths.push(d);
                }
            }
        }

        // Occupied holes of those rows, in board order (row 1 first,
        // column a first) whichever player moves.
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

        // The singleton rule filters what the start rule allowed.
        let any_big = holes.iter().any(|&(r, c)| b[r][c] >= 2);
        let keep_singletons = match self.s.singletons {
            Singletons::Allowed => true,
            Singletons::LastResort => !any_big,
            Singletons::Forbidden => false,
        };
        if !keep_singletons {
            holes.retain(|&(r, c)| b[r][c] >= 2);
        }

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

        // The lone-seed step: the mover's whole side holds one seed, not in
        // the inner row; it steps one row deeper (brief §4).
        if self.s.lone_seed != LoneSeed::None && self.side_seeds(pos, p) == 1 {
            let mut lone = None;
            for &(r, c) in &self.circuit[p] {
                if b[r][c] == 1 {
                    lone = Some((r, c));
                }
            }
            let (r, c) = lone.expect("a side holding one seed has a hole holding it");
            let d = self.depth(r);
            if d + 1 < self.depths {
                let to_row = self.row_of(p, d + 1);
                let from = self.hole(r, c);
                match self.s.lone_seed {
                    LoneSeed::Diagonal => {
                        if c > 0 {
                            moves.push(Move::step(from, self.hole(to_row, c - 1)));
                        }
                        if c + 1 < self.cols {
                            moves.push(Move::step(from, self.hole(to_row, c + 1)));
                        }
                    }
                    LoneSeed::Straight => moves.push(Move::step(from, self.hole(to_row, c))),
                    LoneSeed::None => {}
                }
            }
        }
        moves
    }

    pub fn status(&self, pos: &Pos) -> Status {
        match pos.ended {
            Some(Ended::Endless) => return Status::EndlessMove,
            Some(Ended::LapLimit) => return Status::LapLimit,
            Some(Ended::EndlessLost(w)) => return Status::Won(player(w)),
            None => {}
        }
        // No legal move on your turn: you lose (brief §1, "End").
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
        (row, col): (usize, usize),
        was_empty: bool,
        check_trigger: bool,
    ) -> Option<Vec<(usize, usize)>> {
        if check_trigger {
            let fires = match self.s.capture_trigger {
                CaptureTrigger::Occupied => !was_empty,
                CaptureTrigger::Empty => was_empty,
                CaptureTrigger::Either => true,
            };
            if !fires {
                return None;
            }
        }

        // Mover's side: may this row capture?
        let d = self.depth(row);
        match self.s.capturing_row {
            CapturingRow::Inner => {
                if d != self.depths - 1 {
                    return None;
                }
            }
            CapturingRow::InnermostNonEmpty => {
                let mut innermost = None;
                for dd in 0..self.depths {
                    if self.row_has_seeds(b, self.row_of(p, dd)) {
                        innermost = Some(dd);
                    }
                }
                if innermost != Some(d) {
                    return None;
                }
            }
        }

        // Opponent's side: which holes of this column are taken?
        let q = 1 - p;
        let mut victims = Vec::new();
        match self.s.victim {
            VictimRule::InnermostRow => {
                let mut innermost = None;
                for dd in 0..self.depths {
                    if self.row_has_seeds(b, self.row_of(q, dd)) {
                        innermost = Some(dd);
                    }
                }
                if let Some(dd) = innermost {
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
        Some(victims)
    }

    fn relays(&self, row: usize) -> bool {
        match self.s.relay {
            Relay::Occupied => true,
            Relay::OuterRow => self.depth(row) == 0,
            Relay::Never => false,
        }
    }

    /// Plays a move from [`Reference::legal_moves`].
    pub fn play(&self, pos: &mut Pos, mv: Move) -> Report {
        let p = pos.to_move;
        let n = self.circuit[p].len();
        let mut rep = Report {
            laps: 0,
            captures: 0,
            seeds_captured: 0,
            seeds_sown: 0,
            end: MoveEnd::EmptyHole,
            cycle: None,
        };

        // What the first sowing lap carries, where it starts and which way
        // it goes; `None` when a lone-seed step ends the move at once.
        let first_lap: Option<(u64, usize, Dir)>;
        if mv.is_step() {
            let (fr, fc) = self.row_col(mv.from as usize);
            let (tr, tc) = self.row_col(mv.to as usize);
            pos.board[fr][fc] -= 1;
            let was_empty = pos.board[tr][tc] == 0;
            pos.board[tr][tc] += 1;
            // The step is not a sowing lap: laps count from its capture.
            // A step never fixes the direction; its capture sows in the
            // player's fixed direction if there is one, else forward.
            let dir = pos.fixed_dir[p].unwrap_or(Dir::Forward);
            match self.victims(&pos.board, p, (tr, tc), was_empty, false) {
                None => {
                    rep.end = MoveEnd::Step;
                    first_lap = None;
                }
                Some(victims) => {
                    // The capture's lap is the move's first, so the lap
                    // limit (at least 1) cannot stop it.
                    let hand = self.capture(pos, &mut rep, (tr, tc), &victims);
                    rep.laps = 1;
                    first_lap = Some((hand, self.index(p, (tr, tc)), dir));
                }
            }
        } else {
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
            first_lap = Some((hand, self.index(p, (r, c)), dir));
        }

        if let Some((mut hand, mut at, dir)) = first_lap {
            // Relay lap starts seen in this move: (board, landing hole).
            let mut seen: HashSet<LapStart> = HashSet::new();
            loop {
                while hand > 0 {
                    at = match dir {
                        Dir::Forward => (at + 1) % n,
                        Dir::Backward => (at + n - 1) % n,
                    };
                    let (r, c) = self.circuit[p][at];
                    pos.board[r][c] += 1;
                    rep.seeds_sown += 1;
                    hand -= 1;
                }
                let landing = self.circuit[p][at];
                let (lr, lc) = landing;
                let was_empty = pos.board[lr][lc] == 1;

                // Capture first, then relay, else the move ends.
                let victims = self.victims(&pos.board, p, landing, was_empty, true);
                let relay = victims.is_none() && !was_empty && self.relays(lr);
                if victims.is_none() && !relay {
                    rep.end = if was_empty {
                        MoveEnd::EmptyHole
                    } else {
                        MoveEnd::NoRelay
                    };
                    break;
                }
                if relay && !seen.insert((flat(&pos.board), landing)) {
                    rep.end = MoveEnd::Endless;
                    rep.cycle = Some(self.cycle(&pos.board, p, landing, dir));
                    pos.ended = Some(match self.s.endless_move {
                        EndlessMove::Undecided => Ended::Endless,
                        EndlessMove::MoverLoses => Ended::EndlessLost(1 - p),
                    });
                    break;
                }
                if rep.laps == self.s.lap_limit {
                    rep.end = MoveEnd::LapLimit;
                    pos.ended = Some(Ended::LapLimit);
                    break;
                }
                hand = match victims {
                    Some(v) => self.capture(pos, &mut rep, landing, &v),
                    None => {
                        let lifted = pos.board[lr][lc] as u64;
                        pos.board[lr][lc] = 0;
                        lifted
                    }
                };
                rep.laps += 1;
            }
        }

        pos.to_move = 1 - p;
        pos.plies += 1;
        rep
    }

    /// Lifts the victims and the landing hole; returns the seeds in hand.
    fn capture(
        &self,
        pos: &mut Pos,
        rep: &mut Report,
        (lr, lc): (usize, usize),
        victims: &[(usize, usize)],
    ) -> u64 {
        let mut hand = 0u64;
        for &(r, c) in victims {
            hand += pos.board[r][c] as u64;
            rep.seeds_captured += pos.board[r][c] as u64;
            pos.board[r][c] = 0;
        }
        hand += pos.board[lr][lc] as u64;
        pos.board[lr][lc] = 0;
        rep.captures += 1;
        hand
    }

    /// Follows the relays of an endless move once round its cycle, from a
    /// relay lap start that repeated, without touching the position.
    fn cycle(&self, board: &[Vec<u32>], p: usize, landing: (usize, usize), dir: Dir) -> Cycle {
        let n = self.circuit[p].len();
        let mut b = board.to_vec();
        let mut at = self.index(p, landing);
        let mut cycle = Cycle {
            boards: Vec::new(),
            sown: Vec::new(),
        };
        loop {
            cycle.boards.push(b.clone());
            let (r, c) = self.circuit[p][at];
            let hand = b[r][c];
            b[r][c] = 0;
            for _ in 0..hand {
                at = match dir {
                    Dir::Forward => (at + 1) % n,
                    Dir::Backward => (at + n - 1) % n,
                };
                let (r, c) = self.circuit[p][at];
                b[r][c] += 1;
            }
            cycle.sown.push(hand as u64);
            if b == board && self.circuit[p][at] == landing {
                return cycle;
            }
        }
    }

    fn index(&self, p: usize, hole: (usize, usize)) -> usize {
        self.circuit[p]
            .iter()
            .position(|&h| h == hole)
            .expect("the hole is on the mover's circuit")
    }
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
