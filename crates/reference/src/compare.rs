//! The engine against the reference, move by move: the comparison behind
//! `tests/it/differential.rs` and the `engine_vs_reference` fuzz target
//! (docs/FUZZING.md). After every move both must agree on the legal moves
//! (in order), the board, the player to move, the plies, the fixed
//! directions, the status and the move report; the first disagreement is
//! returned with the position in notation and the moves that led there.

use std::collections::BTreeMap;

use super::{Played, Pos, Reference};
use katro_core::engine::notation::{board_text, move_name};
use katro_core::engine::{Dir, Move, MoveList, MoveReport, Player, Position, Silent};
use katro_core::rng::{GameRng, below, rng_from_seed};
use katro_core::rules::{BackwardCircuit, DirectionRule, GameEnd, Rules};

/// What the games of one variant exercised, to show (and check) coverage.
#[derive(Default)]
pub struct Tally {
    pub games: u64,
    pub moves: u64,
    pub laps: u64,
    pub captures: u64,
    pub steps: u64,
    /// Second decisions of a turn under `step_sowing = "chosen"`.
    pub continuations: u64,
    /// Backward moves on a mirrored circuit of three or more rows a player,
    /// where it differs from the reversed one.
    pub mirrored_backward: u64,
    /// Captures refused by `empty_landing_refusal = "all-ones"` alone.
    pub all_ones_refusals: u64,
    /// Lone-seed steps withheld by `lone_seed_step = "no-failed-capture"`.
    pub withheld_steps: u64,
    /// Moves under `game_end = "play-out"` that went on after a capture
    /// took the opponent's last seed.
    pub played_out: u64,
    pub ends: BTreeMap<&'static str, u64>,
    pub statuses: BTreeMap<&'static str, u64>,
}

impl Tally {
    /// Adds another variant's or block's counts.
    pub fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.moves += other.moves;
        self.laps += other.laps;
        self.captures += other.captures;
        self.steps += other.steps;
        self.continuations += other.continuations;
        self.mirrored_backward += other.mirrored_backward;
        self.all_ones_refusals += other.all_ones_refusals;
        self.withheld_steps += other.withheld_steps;
        self.played_out += other.played_out;
        for (k, v) in &other.ends {
            *self.ends.entry(k).or_default() += v;
        }
        for (k, v) in &other.statuses {
            *self.statuses.entry(k).or_default() += v;
        }
    }
}

fn engine_position(rules: &Rules, pos: &Pos) -> Position {
    let holes: Vec<u16> = pos.board.iter().flatten().map(|&v| v as u16).collect();
    rules
        .position(&holes, super::player(pos.to_move), pos.fixed_dir, pos.plies)
        .expect("reference positions fit the engine")
}

pub fn describe(rules: &Rules, pos: &Position) -> String {
    let dirs = |p: Player| match pos.fixed_dir(p) {
        None => "none",
        Some(Dir::Forward) => "+",
        Some(Dir::Backward) => "-",
    };
    format!(
        "{}to move: {}, plies: {}, fixed directions: South {} North {}, ended: {:?}",
        board_text(rules, pos),
        pos.to_move().number(),
        pos.plies(),
        dirs(Player::South),
        dirs(Player::North),
        pos.ended()
    )
}

pub fn names(rules: &Rules, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&m| move_name(rules, m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every difference between the engine's position and the reference's.
fn differences(rules: &Rules, reference: &Reference, e: &Position, r: &Pos) -> Vec<String> {
    let mut out = Vec::new();
    for row in 0..reference.rows() {
        for col in 0..reference.cols() {
            let hole = rules.hole_at(row, col);
            if e.seeds(hole) as u32 != r.board[row][col] {
                out.push(format!(
                    "hole {}: engine {}, reference {}",
                    katro_core::engine::notation::hole_name(rules, hole),
                    e.seeds(hole),
                    r.board[row][col]
                ));
            }
        }
    }
    if e.to_move() != super::player(r.to_move) {
        out.push(format!(
            "to move: engine {}, reference {}",
            e.to_move().number(),
            r.to_move + 1
        ));
    }
    if e.plies() != r.plies {
        out.push(format!(
            "plies: engine {}, reference {}",
            e.plies(),
            r.plies
        ));
    }
    for p in [Player::South, Player::North] {
        if e.fixed_dir(p) != r.fixed_dir[p.index()] {
            out.push(format!(
                "fixed direction of player {}: engine {:?}, reference {:?}",
                p.number(),
                e.fixed_dir(p),
                r.fixed_dir[p.index()]
            ));
        }
    }
    let es = rules.status(e);
    let rs = reference.status(r);
    if es != rs {
        out.push(format!("status: engine {es:?}, reference {rs:?}"));
    }
    out
}

/// How a game was set up, to reproduce it from the failure message.
enum Setup {
    Start,
    Random(Box<Position>),
}

/// The first disagreement of the engine and the reference: the variant,
/// how to replay the game, and what differs (see the module doc).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Disagreement(pub String);

/// One game played by both implementations: the state `play_game`'s
/// steps share.
struct Game<'a> {
    rules: &'a Rules,
    reference: &'a Reference,
    setup: Setup,
    epos: Position,
    rpos: Pos,
    history: Vec<Move>,
}

/// Plays one random game in both implementations, at most `max_plies`
/// moves, comparing after every move.
fn play_game(
    rules: &Rules,
    reference: &Reference,
    setup: Setup,
    rpos: Pos,
    rng: &mut GameRng,
    max_plies: u64,
    tally: &mut Tally,
) -> Result<(), Disagreement> {
    let mut g = Game::new(rules, reference, setup, rpos);
    tally.games += 1;
    loop {
        g.compare_positions()?;
        let legal = g.compare_legal()?;
        if legal.is_empty() {
            *tally
                .statuses
                .entry(rules.status(&g.epos).name())
                .or_default() += 1;
            return Ok(());
        }
        if g.history.len() as u64 >= max_plies {
            *tally.statuses.entry("capped").or_default() += 1;
            return Ok(());
        }
        let mv = legal[below(rng, legal.len())];
        let before = g.epos;
        let (erep, rrep) = g.play_both(mv, tally);
        g.compare_reports(mv, &before, &erep, &rrep)?;
    }
}

impl<'a> Game<'a> {
    fn new(rules: &'a Rules, reference: &'a Reference, setup: Setup, rpos: Pos) -> Game<'a> {
        let epos = match &setup {
            Setup::Start => rules.start(),
            Setup::Random(p) => **p,
        };
        Game {
            rules,
            reference,
            setup,
            epos,
            rpos,
            history: Vec::new(),
        }
    }

    /// The failure message: the variant, how to replay the game up to
    /// `history`, and `what` differs.
    fn failure(&self, history: &[Move], what: String) -> Disagreement {
        let rules = self.rules;
        let how = match &self.setup {
            Setup::Start => format!(
                "from the start: katro replay {} {}",
                rules.name(),
                names(rules, history)
            ),
            Setup::Random(p) => format!(
                "from the random position\n{}\nthen moves: {}",
                describe(rules, p),
                names(rules, history)
            ),
        };
        Disagreement(format!(
            "variant {} ({})\ngame {how}\n{what}",
            rules.name(),
            rules.canonical_string()
        ))
    }

    /// Both positions the same before a move.
    fn compare_positions(&self) -> Result<(), Disagreement> {
        let diffs = differences(self.rules, self.reference, &self.epos, &self.rpos);
        if diffs.is_empty() {
            return Ok(());
        }
        Err(self.failure(
            &self.history,
            format!(
                "positions differ:\n{}\nengine position:\n{}",
                diffs.join("\n"),
                describe(self.rules, &self.epos)
            ),
        ))
    }

    /// The legal moves, the same in the same order in both.
    fn compare_legal(&self) -> Result<MoveList, Disagreement> {
        let elegal = self.rules.legal_moves(&self.epos);
        let rlegal = self.reference.legal_moves(&self.rpos);
        if elegal.as_slice() == rlegal.as_slice() {
            return Ok(elegal);
        }
        Err(self.failure(
            &self.history,
            format!(
                "legal moves differ in\n{}\nengine:    {}\nreference: {}",
                describe(self.rules, &self.epos),
                names(self.rules, &elegal),
                names(self.rules, &rlegal)
            ),
        ))
    }

    /// Plays `mv` both ways, counting what it exercises.
    fn play_both(&mut self, mv: Move, tally: &mut Tally) -> (MoveReport, Played) {
        let (rules, reference) = (self.rules, self.reference);
        let mover = self.rpos.to_move;
        tally.withheld_steps += reference.withheld_steps(&self.rpos) as u64;
        tally.continuations += self.rpos.pending.is_some() as u64;
        let backward = match mv.dir {
            Some(d) => d == Dir::Backward,
            None => !mv.is_step() && self.rpos.fixed_dir[mover] == Some(Dir::Backward),
        };
        let s = &rules.settings();
        if backward && s.backward_circuit == BackwardCircuit::Mirrored && s.rows >= 6 {
            tally.mirrored_backward += 1;
        }
        let erep = rules.play_unchecked(&mut self.epos, mv, &mut Silent);
        let rrep = reference.play(&mut self.rpos, mv);
        self.history.push(mv);
        tally.moves += 1;
        tally.laps += erep.laps;
        tally.captures += erep.captures as u64;
        tally.steps += mv.is_step() as u64;
        tally.all_ones_refusals += rrep.all_ones_refusals as u64;
        if s.game_end == GameEnd::PlayOut
            && rrep.captures > 0
            && reference.side_seeds(&self.rpos, 1 - mover) == 0
        {
            tally.played_out += 1;
        }
        *tally.ends.entry(erep.end.name()).or_default() += 1;
        (erep, rrep)
    }

    /// The same move report and the same position after move `mv`, played
    /// from `before`.
    fn compare_reports(
        &self,
        mv: Move,
        before: &Position,
        erep: &MoveReport,
        rrep: &Played,
    ) -> Result<(), Disagreement> {
        let ereport = (
            erep.laps,
            erep.relays,
            erep.captures,
            erep.seeds_captured,
            erep.seeds_sown,
            erep.end,
        );
        let rreport = (
            rrep.laps,
            rrep.relays,
            rrep.captures,
            rrep.seeds_captured,
            rrep.seeds_sown,
            rrep.end,
        );
        let diffs = differences(self.rules, self.reference, &self.epos, &self.rpos);
        if ereport == rreport && diffs.is_empty() {
            return Ok(());
        }
        let rboard = engine_position(self.rules, &self.rpos);
        let history = &self.history;
        Err(self.failure(
            &history[..history.len() - 1],
            format!(
                "move {} (ply {}) from\n{}\ngives different results:\n{}\n\
                 report (laps, relays, captures, seeds captured, seeds sown, end):\n  \
                 engine    {ereport:?}\n  reference {rreport:?}\n\
                 engine board after:\n{}reference board after:\n{}",
                move_name(self.rules, mv),
                history.len(),
                describe(self.rules, before),
                diffs.join("\n"),
                board_text(self.rules, &self.epos),
                board_text(self.rules, &rboard),
            ),
        ))
    }
}

/// A random position of this variant: the starting seed total spread at
/// random, or a handful of seeds, or a mover down to one lone seed (where
/// the lone-seed rules act); random player to move, directions and plies.
fn random_position(rules: &Rules, reference: &Reference, rng: &mut GameRng) -> Pos {
    let s = &rules.settings();
    let to_move = below(rng, 2);
    let board = random_board(rules, rng, to_move);
    let mut fixed_dir = [None, None];
    if s.direction == DirectionRule::OncePerGame {
        for d in fixed_dir.iter_mut() {
            *d = [None, Some(Dir::Forward), Some(Dir::Backward)][below(rng, 3)];
        }
    }
    // Sometimes right at the ply limit, to meet it.
    let plies = if below(rng, 4) == 0 {
        s.ply_limit.saturating_sub(below(rng, 3) as u32)
    } else {
        below(rng, 50) as u32
    };
    let mut pos = reference.start();
    pos.board = board;
    pos.to_move = to_move;
    pos.fixed_dir = fixed_dir;
    pos.plies = plies;
    pos
}

/// The board of [`random_position`] with player `to_move` to move.
fn random_board(rules: &Rules, rng: &mut GameRng, to_move: usize) -> Vec<Vec<u32>> {
    let s = &rules.settings();
    let (rows, cols) = (s.rows, s.holes);
    let half = rows / 2;
    let mut board = vec![vec![0u32; cols]; rows];
    // `n` seeds dropped at random on the `half` rows from `row_lo`.
    let drop = |board: &mut Vec<Vec<u32>>, rng: &mut GameRng, row_lo: usize, n: u32| {
        for _ in 0..n {
            let r = row_lo + below(rng, half);
            let c = below(rng, cols);
            board[r][c] += 1;
        }
    };
    let mover_rows = if to_move == 0 { 0 } else { half };
    let other_rows = half - mover_rows;
    match below(rng, 3) {
        0 => {
            // The starting total, spread over the whole board.
            for _ in 0..rules.total_seeds() {
                board[below(rng, rows)][below(rng, cols)] += 1;
            }
        }
        1 => {
            let mover = 1 + below(rng, 6) as u32;
            let other = 1 + below(rng, 10) as u32;
            drop(&mut board, rng, mover_rows, mover);
            drop(&mut board, rng, other_rows, other);
        }
        _ => {
            let other = 1 + below(rng, 10) as u32;
            drop(&mut board, rng, mover_rows, 1);
            drop(&mut board, rng, other_rows, other);
        }
    }
    board
}

/// Plays `games` random games from the start and `games` from random
/// positions, each capped at `max_plies` moves.
pub fn run_variant(
    rules: &Rules,
    games: u64,
    max_plies: u64,
    seed: u64,
) -> Result<Tally, Disagreement> {
    let reference = Reference::new(rules.settings());
    let mut tally = Tally::default();
    for g in 0..games {
        let mut rng = rng_from_seed(seed ^ (g * 2));
        play_game(
            rules,
            &reference,
            Setup::Start,
            reference.start(),
            &mut rng,
            max_plies,
            &mut tally,
        )?;
        let mut rng = rng_from_seed(seed ^ (g * 2 + 1));
        let rpos = random_position(rules, &reference, &mut rng);
        let epos = engine_position(rules, &rpos);
        play_game(
            rules,
            &reference,
            Setup::Random(Box::new(epos)),
            rpos,
            &mut rng,
            max_plies.min(60),
            &mut tally,
        )?;
    }
    Ok(tally)
}
