//! One game, from the start position to its end: the opening's random
//! plies, then the agents, played on the lane kernel or on the engine, into
//! a [`GameRecord`] (and the moves, when asked for).
//!
//! This layer sits between the players (`agents`, `engine`) and the
//! experiments that play many games (`experiment`): the runner asks it for
//! games and aggregates them, and whatever watches a game move by move
//! (the design metrics' `Recorder`) is a [`GameObserver`] told what
//! happens, so neither the runner nor the metrics call each other.

use crate::agents::perfect::Tables;
use crate::agents::{AgentSpec, Seat};
use crate::engine::kernel::Agent;
use crate::engine::record::{GameRecord, MoveTotals};
use crate::engine::{
    LapKind, MAX_HOLES, Move, MoveEnd, MoveList, MoveReport, Observer, Position, Silent,
};
use crate::rng::{GameRng, rng_from_seed};
use crate::rules::Rules;

/// Told what happens in a game the engine plays ([`play_game_observed`]).
/// Every method does nothing unless implemented (as ripgrep's `Sink`, or
/// the engine's lap-by-lap `Observer`), and the game loop is generic over
/// the observer, so a game nobody watches ([`NoObserver`]) pays nothing.
/// An observer only reads: it draws nothing from the game's generator, so
/// a watched game is the same game as an unwatched one.
pub trait GameObserver {
    /// The game is at `pos`, where the player to move has the moves
    /// `legal` (never empty); the move is not chosen yet.
    fn before_move(&mut self, _rules: &Rules, _pos: &Position, _legal: &MoveList) {}
    /// `mv`, played from the position of the last
    /// [`before_move`](GameObserver::before_move), made `after`;
    /// `report` says what it did.
    fn after_move(&mut self, _rules: &Rules, _mv: Move, _after: &Position, _report: &MoveReport) {}
    /// The game is over at `pos`.
    fn end(&mut self, _rules: &Rules, _pos: &Position) {}
    /// The engine's observer of the move about to be played, told it lap
    /// by lap (every lap and lone-seed step, RULES.md §4-8: the moves of
    /// Ludii's own game), or `None` (the default) to play it unwatched.
    /// Asked once per move, between
    /// [`before_move`](GameObserver::before_move) and
    /// [`after_move`](GameObserver::after_move).
    fn laps(&mut self) -> Option<&mut dyn Observer> {
        None
    }
}

/// A `dyn` lap observer as the engine's generic one: only games that
/// watch laps pay for the indirect calls. Also how a test plays a move
/// list through a [`GameObserver`].
pub struct DynLaps<'a>(pub &'a mut dyn Observer);

impl Observer for DynLaps<'_> {
    fn lap(&mut self, kind: LapKind, lifted_from: usize, seeds: u64) {
        self.0.lap(kind, lifted_from, seeds);
    }
    fn landed(&mut self, hole: usize, was_empty: bool) {
        self.0.landed(hole, was_empty);
    }
    fn capture(&mut self, landing: usize, landing_seeds: u64, victims: &[(usize, u16)]) {
        self.0.capture(landing, landing_seeds, victims);
    }
    fn step(&mut self, from: usize, to: usize) {
        self.0.step(from, to);
    }
    fn board(&mut self, holes: &[u16; MAX_HOLES]) {
        self.0.board(holes);
    }
    fn end(&mut self, end: MoveEnd) {
        self.0.end(end);
    }
}

/// The observer that watches nothing.
pub struct NoObserver;
impl GameObserver for NoObserver {}

/// One step of a game's identity hash: the hash so far, chained with the
/// next move packed into an integer (origin hole in bits 0-7, target hole
/// in bits 8-15, direction in bits 16-17: 0 none, 1 forward, 2 backward)
/// through the SplitMix64 finaliser. A game's hash starts at 0 and takes
/// every move as played, opening plies included; it depends on the moves
/// alone, not on the seed.
pub fn game_hash_step(h: u64, mv: Move) -> u64 {
    crate::engine::chain_hash(h, mv.code())
}

/// Plays one game from the start: `opening_plies` random plies, then the
/// agents. On the lane kernel when it can play the rules and both agents
/// are random, greedy or epsilon-greedy (docs/PERFORMANCE.md), else on the engine
/// ([`play_game_on_engine`]): the same game either way. A `perfect` agent
/// solves its variant for this game alone; games that share the solving
/// use [`play_game_sharing`].
pub fn play_game(
    rules: &Rules,
    p1: &AgentSpec,
    p2: &AgentSpec,
    opening_plies: u32,
    seed: u64,
    moves: Option<&mut Vec<Move>>,
) -> GameRecord {
    play_game_sharing(rules, p1, p2, opening_plies, seed, moves, &Tables::new())
}

/// [`play_game`], a `perfect` agent playing from `tables`, which the
/// caller's games share (a run's, so each variant is solved once): the
/// same game, since a solved table is the same whoever solved it.
pub fn play_game_sharing(
    rules: &Rules,
    p1: &AgentSpec,
    p2: &AgentSpec,
    opening_plies: u32,
    seed: u64,
    moves: Option<&mut Vec<Move>>,
    tables: &Tables,
) -> GameRecord {
    if let (Some(k), Some(a), Some(b)) = (rules.kernel(), kernel_agent(p1), kernel_agent(p2)) {
        return match moves {
            Some(m) => k.play(rules, [a, b], opening_plies, seed, &mut |mv| m.push(mv)),
            None => k.play(rules, [a, b], opening_plies, seed, &mut |_| {}),
        };
    }
    let seats = [p1.start_game(tables), p2.start_game(tables)];
    play_game_observed(rules, seats, opening_plies, seed, moves, &mut NoObserver)
}

/// The agents the lane kernel plays itself.
pub(crate) fn kernel_agent(a: &AgentSpec) -> Option<Agent> {
    match *a {
        AgentSpec::Random => Some(Agent::Random),
        AgentSpec::Greedy => Some(Agent::Greedy),
        AgentSpec::EpsilonGreedy { epsilon } => Some(Agent::EpsilonGreedy(epsilon)),
        _ => None,
    }
}

/// [`play_game`] on the general engine whatever the rules and agents: the
/// path every other agent takes, and the oracle the kernel is checked
/// against. The hot path: one move generation per ply, the game status
/// only once the game is over, and no allocation unless `moves` is given.
pub fn play_game_on_engine(
    rules: &Rules,
    p1: &AgentSpec,
    p2: &AgentSpec,
    opening_plies: u32,
    seed: u64,
    moves: Option<&mut Vec<Move>>,
) -> GameRecord {
    let tables = Tables::new();
    let seats = [p1.start_game(&tables), p2.start_game(&tables)];
    play_game_observed(rules, seats, opening_plies, seed, moves, &mut NoObserver)
}

/// The move `seat`'s agent plays at `pos` (`legal` its moves, two or more),
/// or a random one in the first `opening_plies` plies.
#[inline]
fn chosen(
    rules: &Rules,
    pos: &Position,
    legal: &MoveList,
    seat: &mut Seat<'_>,
    opening_plies: u32,
    rng: &mut GameRng,
) -> Move {
    // The opening is counted with `pos.plies()`, never by moves
    // played: one ply need not be one decision of one player.
    if pos.plies() < opening_plies {
        rules
            .random_move(pos, rng)
            .expect("random_move finds a move whenever legal_moves lists one")
    } else {
        seat.choose(rules, pos, legal, rng)
    }
}

/// [`play_game_on_engine`] by the agents seated in `seats` (South's
/// first), telling `observer` every state and move (the design metrics,
/// crates/lab/src/experiment/metrics.rs): the same game, since an observer draws
/// nothing from the game's generator.
pub fn play_game_observed<O: GameObserver + ?Sized>(
    rules: &Rules,
    mut seats: [Seat<'_>; 2],
    opening_plies: u32,
    seed: u64,
    mut moves: Option<&mut Vec<Move>>,
    observer: &mut O,
) -> GameRecord {
    let mut rng = rng_from_seed(seed);
    let mut pos = rules.start();
    let mut g = GameRecord::START;
    // One buffer for the whole game: filling it is cheaper than building
    // a fresh list every ply.
    let mut legal = MoveList::new();
    // The ply whose choice is counted: a turn's second decision (the
    // direction after a capturing lone-seed step, docs/RULES.md §7) is in
    // the same ply, and a turn counts once in `choice_turns`.
    let mut counted: Option<u32> = None;
    loop {
        rules.legal_moves_into(&pos, &mut legal);
        if legal.is_empty() {
            g.status = rules.status(&pos);
            break;
        }
        observer.before_move(rules, &pos, &legal);
        let mover = pos.to_move();
        g.legal_moves += legal.len() as u64;
        // A forced move is played without asking the agent, so it draws
        // nothing from the generator.
        let mv = if legal.len() == 1 {
            legal[0]
        } else {
            if counted != Some(pos.plies()) {
                g.choice_turns += 1;
                counted = Some(pos.plies());
            }
            let seat = &mut seats[mover.index()];
            chosen(rules, &pos, &legal, seat, opening_plies, &mut rng)
        };
        let r = match observer.laps() {
            None => rules.play_unchecked(&mut pos, mv, &mut Silent),
            Some(laps) => rules.play_unchecked(&mut pos, mv, &mut DynLaps(laps)),
        };
        observer.after_move(rules, mv, &pos, &r);
        g.add_move(mover.index(), MoveTotals::from(&r));
        g.hash = game_hash_step(g.hash, mv);
        if let Some(m) = moves.as_deref_mut() {
            m.push(mv);
        }
        if pos.ended().is_some() {
            g.status = rules.status(&pos);
            break;
        }
    }
    g.plies = pos.plies();
    observer.end(rules, &pos);
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::preset;

    /// A turn of two decisions (Ludii's capturing lone-seed step, then the
    /// direction sown on) counts once in `choice_turns`, on the kernel and
    /// on the engine alike: summary.csv's `choice_share` is a share of
    /// turns. Before, katro-ludii's random play gave 1.0057.
    #[test]
    fn a_turn_of_two_decisions_counts_once() {
        for name in ["katro-ludii", "katra-boaoaka-ludii"] {
            let rules = preset(name).unwrap();
            for seed in 0..300 {
                let r = &AgentSpec::Random;
                let k = play_game(&rules, r, r, 0, seed, None);
                let e = play_game_on_engine(&rules, r, r, 0, seed, None);
                assert_eq!(k, e, "{name} seed {seed}: kernel and engine differ");
                assert!(k.choice_turns <= u64::from(k.plies), "{name} seed {seed}");
            }
        }
    }

    #[test]
    fn a_game_adds_up() {
        let rules = preset("katro-4x4").unwrap();
        let mut moves = Vec::new();
        let g = play_game(
            &rules,
            &AgentSpec::Random,
            &AgentSpec::Random,
            0,
            7,
            Some(&mut moves),
        );
        assert!(g.status.is_over());
        assert_eq!(moves.len(), g.plies as usize);
        assert!(g.choice_turns <= g.plies as u64);
        assert!(g.legal_moves >= g.plies as u64);
        // Replaying the recorded moves gives the same game and status.
        let mut pos = rules.start();
        let mut laps = 0;
        for &m in &moves {
            laps += rules
                .play(&mut pos, m)
                .expect("recorded moves are legal")
                .laps;
        }
        assert_eq!(laps, g.laps);
        assert_eq!(rules.status(&pos), g.status);
        // The identity is the moves' hash, and nothing else.
        assert_eq!(g.hash, moves.iter().fold(0, |h, &m| game_hash_step(h, m)));
        // The same seed plays the same game.
        let again = play_game(&rules, &AgentSpec::Random, &AgentSpec::Random, 0, 7, None);
        assert_eq!(again, g);
    }

    #[test]
    fn game_hashes_tell_moves_apart() {
        use crate::engine::Dir;
        let moves = [
            Move::sow(0, None),
            Move::sow(0, Some(Dir::Forward)),
            Move::sow(0, Some(Dir::Backward)),
            Move::sow(1, None),
            Move::step(1, 2),
            Move::step(2, 1),
        ];
        let mut seen = std::collections::HashSet::new();
        for a in moves {
            for b in moves {
                assert!(seen.insert(game_hash_step(game_hash_step(0, a), b)));
            }
            // A one-move game differs from every two-move one.
            assert!(seen.insert(game_hash_step(0, a)));
        }
    }

    /// Writes down every call, as the loop makes them.
    #[derive(Default)]
    struct Log {
        calls: Vec<String>,
        moves: Vec<Move>,
    }

    impl GameObserver for Log {
        fn before_move(&mut self, _: &Rules, pos: &Position, legal: &MoveList) {
            self.calls.push(format!(
                "before ply {} of {} moves",
                pos.plies(),
                legal.len()
            ));
        }
        fn after_move(&mut self, _: &Rules, mv: Move, after: &Position, r: &MoveReport) {
            assert!(r.laps >= 1, "a move sows at least one lap");
            self.moves.push(mv);
            self.calls.push(format!("after ply {}", after.plies()));
        }
        fn end(&mut self, _: &Rules, pos: &Position) {
            self.calls.push(format!("end at ply {}", pos.plies()));
        }
    }

    /// An observer sees each ply once, before and after, in order, then the
    /// end; the moves it is told are the game's; and watching changes
    /// nothing: the record is the unwatched game's, with alpha-beta (which
    /// draws from the generator) and random opening plies.
    #[test]
    fn an_observer_sees_every_ply_of_the_same_game() {
        let rules = preset("katro-4x4").unwrap();
        let ab = AgentSpec::parse("alphabeta:depth=2").unwrap();
        for seed in [1, 2, 3] {
            let mut moves = Vec::new();
            let mut log = Log::default();
            let tables = Tables::new();
            let seats = [
                ab.start_game(&tables),
                AgentSpec::Random.start_game(&tables),
            ];
            let g = play_game_observed(&rules, seats, 3, seed, Some(&mut moves), &mut log);
            assert_eq!(
                g,
                play_game_on_engine(&rules, &ab, &AgentSpec::Random, 3, seed, None)
            );
            assert_eq!(log.moves, moves);
            let n = g.plies as usize;
            assert_eq!(log.calls.len(), 2 * n + 1);
            for ply in 0..n {
                assert!(log.calls[2 * ply].starts_with(&format!("before ply {ply} of ")));
                assert_eq!(log.calls[2 * ply + 1], format!("after ply {}", ply + 1));
            }
            assert_eq!(log.calls[2 * n], format!("end at ply {n}"));
        }
    }
}
