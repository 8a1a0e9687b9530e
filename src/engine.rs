//! Positions, move generation and sowing for every rule set [`Rules`] can
//! describe. No I/O, no global state, no heap allocation on the move path.

use crate::rules::{
    CaptureTrigger, CapturingRow, DirectionRule, EmptyLandingRefusal, EndlessMove, GameEnd,
    LoneSeed, LoneSeedStep, Relay, Rules, Singletons, StartRule, StepSowing, VictimRule,
};

/// The lane kernel: whole games of the rule sets it supports, faster.
pub(crate) mod kernel;

/// Largest board: 8 rows of 16 holes.
pub const MAX_HOLES: usize = 128;
/// Largest side: 4 rows of 16 holes.
pub const MAX_SIDE: usize = 64;
/// Every own hole in both directions, plus lone-seed steps (at most two).
pub const MAX_MOVES: usize = 2 * MAX_SIDE + 2;
/// Laps of a move before the cycle search starts; almost every move ends
/// sooner, so the common path never sets it up. Cycles that start earlier
/// are still found, and their first repeat located exactly, by replay.
const CYCLE_CHECK_AFTER: u64 = 64;
/// Marks a move that sows from its start hole rather than stepping.
pub const NO_HOLE: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player 1, owner of rows 1 up to the middle.
    South,
    /// Player 2.
    North,
}

impl Player {
    pub fn index(self) -> usize {
        self as usize
    }
    /// 1 for South, 2 for North, as in every output.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }
    pub fn other(self) -> Player {
        match self {
            Player::South => Player::North,
            Player::North => Player::South,
        }
    }
}

/// Sowing direction along the mover's circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    Forward,
    Backward,
}

impl Dir {
    fn index(self) -> usize {
        self as usize
    }
}

/// A move: a start hole, with the direction when the player chooses one on
/// this move; or a lone-seed step `from>to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: u8,
    /// The hole a lone seed steps into, or [`NO_HOLE`] for a sowing move.
    pub to: u8,
    /// `Some` exactly when the move's notation carries `+` or `-`.
    pub dir: Option<Dir>,
}

impl Move {
    pub fn sow(from: usize, dir: Option<Dir>) -> Move {
        Move {
            from: from as u8,
            to: NO_HOLE,
            dir,
        }
    }
    pub fn step(from: usize, to: usize) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            dir: None,
        }
    }
    pub fn is_step(self) -> bool {
        self.to != NO_HOLE
    }
}

/// Legal moves in a fixed-size buffer: generating them never allocates.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::sow(0, None); MAX_MOVES],
            len: 0,
        }
    }
    fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// How a game ended other than by a player running out of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ended {
    /// An endless move under `endless_move = "undecided"`.
    EndlessMove,
    /// A move hit the lap limit before it ended or repeated.
    LapLimit,
    /// An endless move under `endless_move = "mover-loses"`: the winner.
    EndlessMoveLost(Player),
}

/// The state of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Won(Player),
    PlyLimit,
    EndlessMove,
    LapLimit,
}

impl Status {
    /// The name used in JSON and CSV output.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Won(_) => "won",
            Status::PlyLimit => "ply-limit",
            Status::EndlessMove => "endless-move",
            Status::LapLimit => "lap-limit",
        }
    }
    pub fn winner(self) -> Option<Player> {
        match self {
            Status::Won(p) => Some(p),
            _ => None,
        }
    }
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }
}

/// A game position: the board, whose turn it is, directions fixed so far,
/// plies played, and whether a move ended the game early. Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    holes: [u16; MAX_HOLES],
    /// Bit `h` set when hole `h` holds seeds: row emptiness in one AND.
    occ: u128,
    to_move: Player,
    /// Directions fixed by `direction = "once-per-game"`.
    fixed_dir: [Option<Dir>; 2],
    plies: u32,
    ended: Option<Ended>,
    /// The hole a capturing lone-seed step entered, while its player has
    /// still to choose the direction of the sowing on (`step_sowing =
    /// "chosen"`); [`NO_HOLE`] otherwise.
    pending: u8,
}

impl Position {
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    pub fn plies(&self) -> u32 {
        self.plies
    }
    pub fn seeds(&self, hole: usize) -> u16 {
        self.holes[hole]
    }
    pub fn holes(&self) -> &[u16; MAX_HOLES] {
        &self.holes
    }
    pub fn fixed_dir(&self, player: Player) -> Option<Dir> {
        self.fixed_dir[player.index()]
    }
    pub fn ended(&self) -> Option<Ended> {
        self.ended
    }
    /// The hole whose seeds the player to move must sow on, in a direction
    /// of their choice, to finish a turn begun by a capturing lone-seed
    /// step (RULES.md §7); `None` at the start of a turn.
    pub fn pending(&self) -> Option<usize> {
        (self.pending != NO_HOLE).then_some(self.pending as usize)
    }
}

fn occupancy(holes: &[u16; MAX_HOLES]) -> u128 {
    holes
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v > 0)
        .fold(0, |m, (h, _)| m | 1u128 << h)
}

/// How a move's last lap ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveEnd {
    /// The last seed fell into an empty hole and did not capture.
    EmptyHole,
    /// The last seed fell into an occupied hole that does not relay.
    NoRelay,
    /// A lone-seed step that did not capture.
    Step,
    /// A capturing lone-seed step under `step_sowing = "chosen"`: the same
    /// player now chooses the direction of the sowing on (RULES.md §7).
    Continues,
    /// A capture left the opponent without a seed under `game_end =
    /// "opponent-empty"`: the move and the game are over (RULES.md §9).
    OpponentEmpty,
    /// The mover's side repeated a state: the relays would cycle for ever.
    Endless,
    /// The lap limit stopped the move.
    LapLimit,
}

impl MoveEnd {
    pub fn name(self) -> &'static str {
        match self {
            MoveEnd::EmptyHole => "empty-hole",
            MoveEnd::NoRelay => "no-relay",
            MoveEnd::Step => "step",
            MoveEnd::Continues => "continues",
            MoveEnd::OpponentEmpty => "opponent-empty",
            MoveEnd::Endless => "endless",
            MoveEnd::LapLimit => "lap-limit",
        }
    }
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveReport {
    /// Sowing laps: the first, then one per relay or capture.
    pub laps: u64,
    pub captures: u32,
    pub seeds_captured: u64,
    pub seeds_sown: u64,
    pub end: MoveEnd,
}

/// The move was not legal in the position: hands the move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

/// Why a lap starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LapKind {
    /// The move's own start hole (or a lone seed's step).
    Start,
    Relay,
    Capture,
}

/// Receives a lap-by-lap account of a move; the default methods do nothing
/// and compile away, so the fast path pays nothing for tracing.
pub trait Observer {
    /// A lap of `seeds` seeds begins, sown after circuit position `from`.
    fn lap(&mut self, _kind: LapKind, _lifted_from: usize, _seeds: u64) {}
    /// A lap ended with its last seed in `hole`, which was empty before.
    fn landed(&mut self, _hole: usize, _was_empty: bool) {}
    /// A capture: the landing hole's seeds and the victims' are lifted.
    fn capture(&mut self, _landing: usize, _landing_seeds: u64, _victims: &[(usize, u16)]) {}
    /// A lone seed stepped from one hole to another.
    fn step(&mut self, _from: usize, _to: usize) {}
    fn end(&mut self, _end: MoveEnd) {}
}

/// Indices of the set bits, lowest first.
fn bits(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(h)
        }
    })
}

/// The observer that observes nothing.
pub struct Silent;
impl Observer for Silent {}

/// The legal moves of a position in compact form (see `Rules::shape`).
struct Shape {
    holes: u128,
    dirs: [Option<Dir>; 2],
    ndirs: usize,
    steps: [Move; 2],
    nsteps: usize,
}

/// Victims of one capture: at most one hole per opponent row.
struct Victims {
    holes: [u8; crate::rules::MAX_ROWS / 2],
    len: usize,
    total: u64,
}

/// A move's running totals.
#[derive(Clone, Copy, Debug)]
struct Report {
    laps: u64,
    captures: u32,
    seeds_captured: u64,
    seeds_sown: u64,
}

impl Report {
    fn finish(self, end: MoveEnd) -> MoveReport {
        MoveReport {
            laps: self.laps,
            captures: self.captures,
            seeds_captured: self.seeds_captured,
            seeds_sown: self.seeds_sown,
            end,
        }
    }
}

/// What a lap's last seed led to.
enum Landing {
    End(MoveEnd),
    Capture(usize, Victims),
    Relay(usize),
}

/// One move's sowing: where the hand is on the mover's circuit, the seeds
/// in it, and the totals so far. Cloned to replay laps when checking a
/// cycle.
#[derive(Clone)]
struct Lapper<'a> {
    rules: &'a Rules,
    p: Player,
    circuit: &'a [u8; 2 * MAX_SIDE],
    zp: &'a [u64; 2 * MAX_SIDE + 1],
    op: &'a [u128; 2 * MAX_SIDE + 1],
    /// Circuit position of the hole the next lap starts after.
    at: usize,
    /// Seeds in hand for the next lap.
    n: u64,
    /// Fingerprint of the board relative to the move's start: the sum over
    /// holes of seeds times a random key, kept in O(1) per lap.
    fp: u64,
    r: Report,
}

impl<'a> Lapper<'a> {
    fn new(rules: &'a Rules, p: Player, dir: Dir, from: usize, n: u64) -> Lapper<'a> {
        let t = &rules.t;
        let (pi, di) = (p.index(), dir.index());
        Lapper {
            rules,
            p,
            circuit: &t.circuit[pi][di],
            zp: &t.zprefix[pi][di],
            op: &t.occ_prefix[pi][di],
            at: t.circuit_index[di][from] as usize,
            n,
            fp: 0,
            r: Report {
                laps: 0,
                captures: 0,
                seeds_captured: 0,
                seeds_sown: 0,
            },
        }
    }

    /// The cycle-search key of the current state: fingerprint and landing.
    fn key(&self, landing: usize) -> u64 {
        self.fp ^ self.rules.t.zobrist[landing].rotate_left(17)
    }

    /// Sows the seeds in hand and judges where the last one fell.
    #[inline(always)]
    fn sow<O: Observer>(&mut self, pos: &mut Position, obs: &mut O) -> Landing {
        let rules = self.rules;
        let t = &rules.t;
        let s = &rules.settings();
        let m = t.side;
        let (at, n) = (self.at, self.n);
        self.r.laps += 1;
        self.r.seeds_sown += n;
        // The circuit is stored twice over, so the `rest` seeds after
        // position `at` are one slice with no wrap test per seed; a lap of
        // n >= m seeds first adds n / m to every hole.
        let rest = if n < m as u64 {
            n as usize
        } else {
            let whole = (n / m as u64) as u16;
            for &h in &self.circuit[..m] {
                pos.holes[h as usize] += whole;
            }
            self.fp = self
                .fp
                .wrapping_add((whole as u64).wrapping_mul(self.zp[m]));
            pos.occ |= t.side_mask[self.p.index()];
            (n % m as u64) as usize
        };
        for &h in &self.circuit[at + 1..=at + rest] {
            pos.holes[h as usize] += 1;
        }
        pos.occ |= self.op[at + rest + 1] ^ self.op[at + 1];
        self.fp = self
            .fp
            .wrapping_add(self.zp[at + rest + 1].wrapping_sub(self.zp[at + 1]));
        // With rest == 0 the last seed fell where the lap began.
        let last = if at + rest >= m {
            at + rest - m
        } else {
            at + rest
        };
        self.at = last;
        let landing = self.circuit[last] as usize;
        let was_empty = pos.holes[landing] == 1;
        obs.landed(landing, was_empty);
        let trigger = match s.capture_trigger {
            CaptureTrigger::Occupied => !was_empty,
            CaptureTrigger::Empty => was_empty,
            CaptureTrigger::Either => true,
        };
        if trigger && let Some(v) = rules.victims(pos, self.p, landing, was_empty) {
            return Landing::Capture(landing, v);
        }
        let relay = !was_empty
            && match s.relay {
                Relay::Occupied => true,
                Relay::OuterRow => t.depth[landing] == 0,
                Relay::Never => false,
            };
        if relay {
            Landing::Relay(landing)
        } else if was_empty {
            Landing::End(MoveEnd::EmptyHole)
        } else {
            Landing::End(MoveEnd::NoRelay)
        }
    }

    #[inline(always)]
    fn lift_relay<O: Observer>(&mut self, pos: &mut Position, landing: usize, obs: &mut O) {
        let n = pos.holes[landing] as u64;
        pos.holes[landing] = 0;
        pos.occ &= !self.rules.t.bit[landing];
        self.fp = self
            .fp
            .wrapping_sub(n.wrapping_mul(self.rules.t.zobrist[landing]));
        self.n = n;
        obs.lap(LapKind::Relay, landing, n);
    }

    fn lift_capture<O: Observer>(
        &mut self,
        pos: &mut Position,
        landing: usize,
        v: &Victims,
        obs: &mut O,
    ) {
        self.n = self.rules.lift_capture(pos, landing, v, obs);
        self.r.captures += 1;
        self.r.seeds_captured += v.total;
    }
}

/// The mover's side and the hand at the point a cycle search starts, so
/// laps can be replayed from there. Between a snapshot and any later state
/// of the same search no capture happens, so the opponent's side is the
/// same as now and only the mover's side is kept.
struct Snapshot<'a> {
    side: [u16; MAX_SIDE],
    lap: Lapper<'a>,
}

impl<'a> Snapshot<'a> {
    /// The first hole of a player's side: the side is one run of holes.
    fn offset(rules: &Rules, p: Player) -> usize {
        match p {
            Player::South => 0,
            Player::North => rules.t.holes - rules.t.side,
        }
    }

    fn take(rules: &Rules, pos: &Position, lap: &Lapper<'a>) -> Snapshot<'a> {
        // A fixed-size copy (the side fits in MAX_SIDE holes from its
        // offset) is cheaper than a variable-length one on every move.
        let off = Snapshot::offset(rules, lap.p);
        let mut side = [0; MAX_SIDE];
        side.copy_from_slice(&pos.holes[off..off + MAX_SIDE]);
        Snapshot {
            side,
            lap: lap.clone(),
        }
    }

    /// `now` with the mover's side as it was at the snapshot.
    fn restore(&self, rules: &Rules, now: &Position) -> Position {
        let mut pos = *now;
        let off = Snapshot::offset(rules, self.lap.p);
        let len = rules.t.side;
        pos.holes[off..off + len].copy_from_slice(&self.side[..len]);
        pos.occ = occupancy(&pos.holes);
        pos
    }
}

/// Nivasch's stack algorithm for cycle detection on state keys: the
/// stack holds increasing keys; a key equal to the top's means the state
/// may have repeated. It catches a cycle at the second occurrence of the
/// cycle's smallest key, so within `start + 2λ` laps, in O(log laps)
/// memory and a few comparisons per lap.
struct CycleSearch {
    stack: [(u64, u64); CYCLE_STACK],
    len: usize,
}

/// Stack depth: it grows like the log of the laps (about 17 at 10 million
/// laps with random keys). Should it ever fill, its oldest entry is
/// dropped; cycles are still confirmed exactly, only possibly later.
const CYCLE_STACK: usize = 128;

impl CycleSearch {
    fn new() -> CycleSearch {
        CycleSearch {
            stack: [(0, 0); CYCLE_STACK],
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// Records `key` seen at `lap`; returns the lap it was seen before.
    fn check(&mut self, key: u64, lap: u64) -> Option<u64> {
        while self.len > 0 && self.stack[self.len - 1].0 > key {
            self.len -= 1;
        }
        if self.len > 0 && self.stack[self.len - 1].0 == key {
            return Some(self.stack[self.len - 1].1);
        }
        if self.len == CYCLE_STACK {
            self.stack.copy_within(1.., 0);
            self.len -= 1;
        }
        self.stack[self.len] = (key, lap);
        self.len += 1;
        None
    }
}

impl Rules {
    /// The starting position.
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
    /// cols + col]`). Checks the board's shape and seed total; the position
    /// need not be reachable from the start.
    pub fn position(
        &self,
        holes: &[u16],
        to_move: Player,
        fixed_dir: [Option<Dir>; 2],
        plies: u32,
    ) -> Result<Position, String> {
        if holes.len() != self.t.holes {
            return Err(format!(
                "a {}×{} board has {} holes, not {}",
                self.t.rows,
                self.t.cols,
                self.t.holes,
                holes.len()
            ));
        }
        let total: u64 = holes.iter().map(|&v| v as u64).sum();
        if total > crate::rules::MAX_TOTAL_SEEDS {
            return Err(format!("{total} seeds is more than the engine holds"));
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

    /// Seeds on a player's side.
    pub fn side_seeds(&self, pos: &Position, player: Player) -> u32 {
        self.circuit(player)
            .iter()
            .map(|&h| pos.holes[h as usize] as u32)
            .sum()
    }

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

    fn has_legal_move(&self, pos: &Position) -> bool {
        let mut list = MoveList::new();
        self.generate(pos, &mut list);
        !list.is_empty()
    }

    /// The legal moves of the player to move; empty once the game is over.
    pub fn legal_moves(&self, pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(pos, &mut list);
        list
    }

    /// [`Rules::legal_moves`] into a list the caller reuses, so a playout
    /// does not rebuild the buffer every ply.
    pub fn legal_moves_into(&self, pos: &Position, list: &mut MoveList) {
        if pos.plies < self.settings().ply_limit {
            self.generate(pos, list);
        } else {
            list.len = 0;
        }
    }

    /// Moves by the rules of play alone, ignoring game end by limits.
    fn generate(&self, pos: &Position, list: &mut MoveList) {
        list.len = 0;
        let shape = self.shape(pos);
        // Bits come out in board order (row 1 first, column a first), the
        // order every listing of moves uses.
        for h in bits(shape.holes) {
            for &d in &shape.dirs[..shape.ndirs] {
                list.push(Move::sow(h, d));
            }
        }
        for &m in &shape.steps[..shape.nsteps] {
            list.push(m);
        }
    }

    /// A uniformly random legal move, or `None` when there is none: the
    /// same move, drawing the same numbers, as `legal[below(rng,
    /// legal.len())]` on [`Rules::legal_moves`], without building the list.
    pub fn random_move(&self, pos: &Position, rng: &mut crate::rng::GameRng) -> Option<Move> {
        if pos.plies >= self.settings().ply_limit {
            return None;
        }
        let shape = self.shape(pos);
        let sowing = shape.holes.count_ones() as usize * shape.ndirs;
        let n = sowing + shape.nsteps;
        if n == 0 {
            return None;
        }
        let k = crate::rng::below(rng, n);
        if k < sowing {
            let mut holes = shape.holes;
            for _ in 0..k / shape.ndirs {
                holes &= holes - 1;
            }
            let h = holes.trailing_zeros() as usize;
            Some(Move::sow(h, shape.dirs[k % shape.ndirs]))
        } else {
            Some(shape.steps[k - sowing])
        }
    }

    /// The legal moves in compact form: the start holes, the directions
    /// each may be sown in, and lone-seed steps.
    fn shape(&self, pos: &Position) -> Shape {
        let mut shape = Shape {
            holes: 0,
            dirs: [None, None],
            ndirs: 1,
            steps: [Move::sow(0, None); 2],
            nsteps: 0,
        };
        if pos.ended.is_some() {
            return shape;
        }
        let p = pos.to_move;
        let pi = p.index();
        let t = &self.t;
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
        let row = |d: usize| pos.occ & t.row_mask[t.row_of[pi][d] as usize];
        let cand = match self.settings().start {
            StartRule::Any => side,
            StartRule::OutermostNonEmpty => (0..t.depths).map(row).find(|&r| r != 0).unwrap_or(0),
            StartRule::InnermostNonEmpty => {
                (0..t.depths).rev().map(row).find(|&r| r != 0).unwrap_or(0)
            }
        };
        let single_ok = match self.settings().singletons {
            Singletons::Allowed => true,
            Singletons::LastResort => !bits(cand).any(|h| pos.holes[h] > 1),
            Singletons::Forbidden => false,
        };
        shape.holes = if single_ok {
            cand
        } else {
            bits(cand)
                .filter(|&h| pos.holes[h] > 1)
                .fold(0, |m, h| m | 1u128 << h)
        };
        let choose = match self.settings().direction {
            DirectionRule::Forward => false,
            DirectionRule::EachMove => true,
            DirectionRule::OncePerGame => pos.fixed_dir[pi].is_none(),
        };
        if choose {
            shape.dirs = [Some(Dir::Forward), Some(Dir::Backward)];
            shape.ndirs = 2;
        }
        if self.settings().lone_seed != LoneSeed::None && side.count_ones() == 1 {
            let h = side.trailing_zeros() as usize;
            let d = t.depth[h] as usize;
            if pos.holes[h] == 1 && d + 1 < t.depths {
                let row = t.row_of[pi][d + 1] as usize;
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
        }
        shape
    }

    /// Whether the lone seed in `from` may step to `to` under
    /// `lone_seed_step` (RULES.md §7): under `no-failed-capture`, not into
    /// a row that may capture when the step would not capture.
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

    /// Plays a move after checking it is legal.
    pub fn play(&self, pos: &mut Position, mv: Move) -> Result<MoveReport, IllegalMove> {
        self.play_observed(pos, mv, &mut Silent)
    }

    /// Plays a legal move, reporting each lap to `obs`.
    pub fn play_observed<O: Observer>(
        &self,
        pos: &mut Position,
        mv: Move,
        obs: &mut O,
    ) -> Result<MoveReport, IllegalMove> {
        if !self.legal_moves(pos).contains(&mv) {
            return Err(IllegalMove(mv));
        }
        Ok(self.play_unchecked(pos, mv, obs))
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
            // The second decision of a turn begun by a capturing step: sow
            // the entered hole on in the chosen direction (RULES.md §7).
            let h = pos.pending as usize;
            pos.pending = NO_HOLE;
            let n = pos.holes[h] as u64;
            pos.holes[h] = 0;
            pos.occ &= !self.t.bit[h];
            obs.lap(LapKind::Start, h, n);
            self.sow_laps(pos, p, mv.dir.unwrap_or(Dir::Forward), h, n, obs)
        } else if mv.is_step() {
            self.play_step(pos, p, mv, obs)
        } else {
            let dir = match self.settings().direction {
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
            };
            let h = mv.from as usize;
            let n = pos.holes[h] as u64;
            pos.holes[h] = 0;
            pos.occ &= !self.t.bit[h];
            obs.lap(LapKind::Start, h, n);
            self.sow_laps(pos, p, dir, h, n, obs)
        };
        if report.end == MoveEnd::Continues {
            // The turn goes on: the same player, the same ply.
            return report;
        }
        pos.plies += 1;
        pos.to_move = p.other();
        match report.end {
            MoveEnd::Endless => {
                pos.ended = Some(match self.settings().endless_move {
                    EndlessMove::Undecided => Ended::EndlessMove,
                    EndlessMove::MoverLoses => Ended::EndlessMoveLost(p.other()),
                })
            }
            MoveEnd::LapLimit => pos.ended = Some(Ended::LapLimit),
            _ => {}
        }
        report
    }

    /// The direction a lone seed's capture sows in: the player's fixed
    /// direction if they have one, else forward (the sources are silent).
    fn step_dir(&self, pos: &Position, p: Player) -> Dir {
        match self.settings().direction {
            DirectionRule::OncePerGame => pos.fixed_dir[p.index()].unwrap_or(Dir::Forward),
            _ => Dir::Forward,
        }
    }

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
        // The entered hole was empty: the lone seed is the mover's only one.
        // The capture trigger does not apply to a step (RULES.md §7).
        if let Some(v) = self.victims(pos, p, to, true) {
            let paused = if self.ends_game(pos, p, &v) {
                Some(MoveEnd::OpponentEmpty)
            } else if self.settings().step_sowing == StepSowing::Chosen {
                pos.pending = to as u8;
                Some(MoveEnd::Continues)
            } else {
                None
            };
            if let Some(end) = paused {
                self.capture_in_place(pos, to, &v, obs);
                obs.end(end);
                return MoveReport {
                    laps: 0,
                    captures: 1,
                    seeds_captured: v.total,
                    seeds_sown: 0,
                    end,
                };
            }
            let dir = self.step_dir(pos, p);
            let n = self.lift_capture(pos, to, &v, obs);
            let mut r = self.sow_laps(pos, p, dir, to, n, obs);
            r.captures += 1;
            r.seeds_captured += v.total;
            r
        } else {
            obs.end(MoveEnd::Step);
            MoveReport {
                laps: 0,
                captures: 0,
                seeds_captured: 0,
                seeds_sown: 0,
                end: MoveEnd::Step,
            }
        }
    }

    /// Lifts the victims and the landing hole; returns the seeds in hand.
    fn lift_capture<O: Observer>(
        &self,
        pos: &mut Position,
        landing: usize,
        v: &Victims,
        obs: &mut O,
    ) -> u64 {
        let mut list = [(0usize, 0u16); crate::rules::MAX_ROWS / 2];
        for (i, &h) in v.holes[..v.len].iter().enumerate() {
            list[i] = (h as usize, pos.holes[h as usize]);
            pos.holes[h as usize] = 0;
            pos.occ &= !self.t.bit[h as usize];
        }
        let own = pos.holes[landing] as u64;
        pos.holes[landing] = 0;
        pos.occ &= !self.t.bit[landing];
        obs.capture(landing, own, &list[..v.len]);
        let n = own + v.total;
        obs.lap(LapKind::Capture, landing, n);
        n
    }

    /// The opponent holes a last seed in `landing` captures, if it captures.
    #[inline(always)]
    fn victims(
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
        let mut v = Victims {
            holes: [0; crate::rules::MAX_ROWS / 2],
            len: 0,
            total: 0,
        };
        // The opponent's holes of the column, inner row first.
        let column = &t.victim_holes[o][t.column[landing] as usize][..t.depths];
        match s.victim {
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

    /// Whether `landing` lies in a row the mover may capture from
    /// (`capturing_row`, RULES.md §5), judged on the board as it is now.
    #[inline(always)]
    fn may_capture_from(&self, pos: &Position, p: Player, landing: usize) -> bool {
        let t = &self.t;
        let d = t.depth[landing] as usize;
        match self.settings().capturing_row {
            CapturingRow::Inner => d + 1 == t.depths,
            CapturingRow::InnermostNonEmpty => pos.occ & t.deeper[p.index()][d] == 0,
        }
    }

    /// Whether the capture of `v` would leave the mover's opponent without
    /// a seed, so that under `game_end = "opponent-empty"` it ends the
    /// game (RULES.md §9).
    fn ends_game(&self, pos: &Position, p: Player, v: &Victims) -> bool {
        if self.settings().game_end != GameEnd::OpponentEmpty {
            return false;
        }
        let taken = v.holes[..v.len]
            .iter()
            .fold(0u128, |m, &h| m | self.t.bit[h as usize]);
        pos.occ & self.t.side_mask[p.other().index()] & !taken == 0
    }

    /// A capture whose seeds are not sown on: the victims' seeds join the
    /// landing hole's (at the game's end, or before the player chooses the
    /// direction of a step's sowing on).
    fn capture_in_place<O: Observer>(
        &self,
        pos: &mut Position,
        landing: usize,
        v: &Victims,
        obs: &mut O,
    ) {
        let mut list = [(0usize, 0u16); crate::rules::MAX_ROWS / 2];
        for (i, &h) in v.holes[..v.len].iter().enumerate() {
            list[i] = (h as usize, pos.holes[h as usize]);
            pos.holes[h as usize] = 0;
            pos.occ &= !self.t.bit[h as usize];
        }
        obs.capture(landing, pos.holes[landing] as u64, &list[..v.len]);
        pos.holes[landing] += v.total as u16;
    }

    /// Sows `n` seeds lifted from `from` and every relay and capture lap
    /// after it, until the move ends.
    ///
    /// A move is endless when a relay-lap state (the board after a lap's
    /// last seed, and the hole it fell in) repeats. It ends at the first
    /// repeat: the report counts the laps up to it and the board is the one
    /// it repeats. It is endless only if that first repeat comes within the
    /// lap limit; otherwise it stops at the limit with status lap-limit. So
    /// the outcome is a property of the rules, not of how cycles are found.
    fn sow_laps<O: Observer>(
        &self,
        pos: &mut Position,
        p: Player,
        dir: Dir,
        from: usize,
        n: u64,
        obs: &mut O,
    ) -> MoveReport {
        let mut lap = Lapper::new(self, p, dir, from, n);
        // Where a cycle search restarts: the move's start, then after each
        // capture (no state before a capture can recur after it: the
        // opponent's side only loses seeds).
        let mut snap = Snapshot::take(self, pos, &lap);
        loop {
            let landing = match self.sow_to_relay(pos, &mut lap, &mut snap, obs) {
                Ok((h, _)) => h,
                Err(report) => return report,
            };
            if lap.r.laps >= CYCLE_CHECK_AFTER || lap.r.laps >= self.settings().lap_limit {
                return self.sow_long(pos, snap, lap, landing, obs);
            }
            lap.lift_relay(pos, landing, obs);
        }
    }

    /// Sows laps until one ends in a relay: returns its landing hole and
    /// whether a capture came first (which retakes the snapshot), or the
    /// move's report if the move ended.
    #[inline(always)]
    fn sow_to_relay<'a, O: Observer>(
        &'a self,
        pos: &mut Position,
        lap: &mut Lapper<'a>,
        snap: &mut Snapshot<'a>,
        obs: &mut O,
    ) -> Result<(usize, bool), MoveReport> {
        let mut captured = false;
        loop {
            match lap.sow(pos, obs) {
                Landing::End(end) => {
                    obs.end(end);
                    return Err(lap.r.finish(end));
                }
                Landing::Capture(h, v) => {
                    if self.ends_game(pos, lap.p, &v) {
                        self.capture_in_place(pos, h, &v, obs);
                        lap.r.captures += 1;
                        lap.r.seeds_captured += v.total;
                        obs.end(MoveEnd::OpponentEmpty);
                        return Err(lap.r.finish(MoveEnd::OpponentEmpty));
                    }
                    if lap.r.laps >= self.settings().lap_limit {
                        // A capture here means no state repeated so far.
                        obs.end(MoveEnd::LapLimit);
                        return Err(lap.r.finish(MoveEnd::LapLimit));
                    }
                    lap.lift_capture(pos, h, &v, obs);
                    *snap = Snapshot::take(self, pos, lap);
                    captured = true;
                }
                Landing::Relay(h) => return Ok((h, captured)),
            }
        }
    }

    /// The rest of a long move, with the cycle search on. Kept out of line
    /// so short moves, nearly all of them, never set it up.
    #[cold]
    #[inline(never)]
    fn sow_long<'a, O: Observer>(
        &'a self,
        pos: &mut Position,
        mut snap: Snapshot<'a>,
        mut lap: Lapper<'a>,
        mut landing: usize,
        obs: &mut O,
    ) -> MoveReport {
        let mut cycles = CycleSearch::new();
        loop {
            if let Some(earlier) = cycles.check(lap.key(landing), lap.r.laps)
                && let Some(end) = self.first_repeat(pos, &snap, lap.r.laps - earlier, lap.r.laps)
            {
                *pos = end.0;
                obs.end(MoveEnd::Endless);
                return end.1.finish(MoveEnd::Endless);
            }
            if lap.r.laps >= self.settings().lap_limit {
                if let Some(end) = self.repeat_after_limit(pos, &snap, &lap, landing, &mut cycles) {
                    *pos = end.0;
                    obs.end(MoveEnd::Endless);
                    return end.1.finish(MoveEnd::Endless);
                }
                obs.end(MoveEnd::LapLimit);
                return lap.r.finish(MoveEnd::LapLimit);
            }
            lap.lift_relay(pos, landing, obs);
            let captured;
            (landing, captured) = match self.sow_to_relay(pos, &mut lap, &mut snap, obs) {
                Ok(next) => next,
                Err(report) => return report,
            };
            if captured {
                cycles.clear();
            }
        }
    }

    /// At the lap limit with the move going on: did a state repeat within
    /// the limit, though the search has not caught it yet? The search
    /// catches a cycle by `start + 2λ` laps, so going on to twice the limit
    /// (on a copy) settles it exactly.
    fn repeat_after_limit(
        &self,
        pos: &Position,
        snap: &Snapshot,
        lap: &Lapper,
        landing: usize,
        cycles: &mut CycleSearch,
    ) -> Option<(Position, Report)> {
        let limit = self.settings().lap_limit;
        let bound = limit
            .saturating_mul(2)
            .saturating_add(2 * CYCLE_CHECK_AFTER);
        let mut scratch = *pos;
        let mut lap = lap.clone();
        let mut h = landing;
        while lap.r.laps < bound {
            lap.lift_relay(&mut scratch, h, &mut Silent);
            h = match lap.sow(&mut scratch, &mut Silent) {
                Landing::Relay(h) => h,
                // The move ends or captures: it never cycled.
                _ => return None,
            };
            if let Some(earlier) = cycles.check(lap.key(h), lap.r.laps) {
                return self
                    .first_repeat(pos, snap, lap.r.laps - earlier, lap.r.laps)
                    .filter(|(_, r)| r.laps <= limit);
            }
        }
        None
    }

    /// Confirms a cycle of `period` laps found by fingerprints and finds the
    /// first repeated state: replays from the snapshot a tortoise and a hare
    /// `period` laps ahead until their boards agree. Returns the position
    /// and report at the first repeat, or `None` if the fingerprints
    /// collided without the boards repeating.
    fn first_repeat(
        &self,
        pos: &Position,
        snap: &Snapshot,
        period: u64,
        upto: u64,
    ) -> Option<(Position, Report)> {
        let mut tortoise = snap.restore(self, pos);
        let mut t = snap.lap.clone();
        let mut hare = tortoise;
        let mut h = snap.lap.clone();
        let relay = |lap: &mut Lapper, board: &mut Position| match lap.sow(board, &mut Silent) {
            Landing::Relay(x) => Some(x),
            _ => None,
        };
        let mut hx = relay(&mut h, &mut hare)?;
        for _ in 0..period {
            h.lift_relay(&mut hare, hx, &mut Silent);
            hx = relay(&mut h, &mut hare)?;
        }
        let mut tx = relay(&mut t, &mut tortoise)?;
        while h.r.laps <= upto {
            if tx == hx && tortoise.holes == hare.holes {
                return Some((hare, h.r));
            }
            t.lift_relay(&mut tortoise, tx, &mut Silent);
            tx = relay(&mut t, &mut tortoise)?;
            h.lift_relay(&mut hare, hx, &mut Silent);
            hx = relay(&mut h, &mut hare)?;
        }
        None
    }

    /// The position turned through 180 degrees with the players swapped.
    pub fn mirror(&self, pos: &Position) -> Position {
        let mut m = *pos;
        let n = self.t.holes;
        for h in 0..n {
            m.holes[h] = pos.holes[n - 1 - h];
        }
        m.occ = occupancy(&m.holes);
        m.to_move = pos.to_move.other();
        m.fixed_dir = [pos.fixed_dir[1], pos.fixed_dir[0]];
        if pos.pending != NO_HOLE {
            m.pending = (n - 1 - pos.pending as usize) as u8;
        }
        m.ended = pos.ended.map(|e| match e {
            Ended::EndlessMoveLost(w) => Ended::EndlessMoveLost(w.other()),
            other => other,
        });
        m
    }

    /// A move turned through 180 degrees.
    pub fn mirror_move(&self, mv: Move) -> Move {
        let n = self.t.holes;
        Move {
            from: (n - 1 - mv.from as usize) as u8,
            to: if mv.is_step() {
                (n - 1 - mv.to as usize) as u8
            } else {
                NO_HOLE
            },
            dir: mv.dir,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rng::{below, rng_from_seed};
    use crate::rules::{preset, preset_names};

    /// `random_move` is documented to pick exactly the move
    /// `legal[below(rng, len)]` picks, drawing the same numbers, so agents
    /// may use either: checked over random games of every preset.
    #[test]
    fn random_move_is_a_uniform_pick_from_the_listed_moves() {
        for name in preset_names() {
            let rules = preset(name).unwrap();
            for g in 0..20 {
                let mut a = rng_from_seed(g);
                let mut b = rng_from_seed(g);
                let mut pos = rules.start();
                for _ in 0..200 {
                    let legal = rules.legal_moves(&pos);
                    let picked = rules.random_move(&pos, &mut a);
                    if legal.is_empty() {
                        assert_eq!(picked, None, "{name}: a move with none listed");
                        break;
                    }
                    let listed = legal[below(&mut b, legal.len())];
                    assert_eq!(
                        picked,
                        Some(listed),
                        "{name}, game {g}, ply {}",
                        pos.plies()
                    );
                    rules.play_unchecked(&mut pos, listed, &mut super::Silent);
                }
            }
        }
    }
}
