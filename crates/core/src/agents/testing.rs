//! Positions and games shared by the agents' tests.

use crate::agents::AgentSpec;
use crate::engine::{Player, Position, Silent, Status};
use crate::rng::{GameRng, below, rng_from_seed};
use crate::rules::{Rules, parse_variant, preset};

pub fn variant(name: &str) -> Rules {
    preset(name).unwrap_or_else(|| panic!("no preset {name}"))
}

/// A variant from inline TOML: a board and rule lines.
pub fn custom(board: &str, rules: &str) -> Rules {
    let text = format!("name = \"test\"\n[board]\n{board}\n[rules]\n{rules}\n");
    parse_variant("test.toml", &text, "test").unwrap_or_else(|e| panic!("{e}"))
}

/// Positions where the game is on, taken from uniformly random games at
/// uniformly drawn plies, so early, middle and late positions all occur.
pub fn random_positions(rules: &Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = rng_from_seed(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut game = Vec::new();
        let mut pos = rules.start();
        loop {
            let legal = rules.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            game.push(pos);
            rules.play_unchecked(&mut pos, legal[below(&mut rng, legal.len())], &mut Silent);
        }
        // A few positions per game, so one long game does not dominate.
        for _ in 0..3.min(count - out.len()) {
            out.push(game[below(&mut rng, game.len())]);
        }
    }
    out
}

/// Plays one game and returns how it ended.
pub fn play_game(rules: &Rules, south: &AgentSpec, north: &AgentSpec, rng: &mut GameRng) -> Status {
    let mut pos = rules.start();
    let tables = super::perfect::Tables::new();
    let mut seats = [south.start_game(&tables), north.start_game(&tables)];
    loop {
        let legal = rules.legal_moves(&pos);
        if legal.is_empty() {
            return rules.status(&pos);
        }
        let mv = seats[pos.to_move().index()].choose(rules, &pos, &legal, rng);
        rules.play_unchecked(&mut pos, mv, &mut Silent);
    }
}

/// Games won by `a` over `games` games against `b`, `a` playing South in
/// the even-numbered games and North in the others.
pub fn wins(rules: &Rules, a: &AgentSpec, b: &AgentSpec, games: u64, seed: u64) -> u64 {
    (0..games)
        .filter(|&g| {
            let mut rng = rng_from_seed(seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let (status, seat) = if g % 2 == 0 {
                (play_game(rules, a, b, &mut rng), Player::South)
            } else {
                (play_game(rules, b, a, &mut rng), Player::North)
            };
            status == Status::Won(seat)
        })
        .count() as u64
}

/// On a 4×4 board with canonical capture rules: South holds a1 = 1,
/// b1 = 1, North only b3 = 1, South to move at ply 0. Worked by hand from
/// RULES.md §11 (the canonical rules): South's `a1` drops its seed in b1 (now 2), in
/// South's innermost non-empty row (row 2 is empty); North's inner row
/// holds seeds, so the victim is b3 (1 seed): 1 + 2 = 3 seeds are sown
/// c1 d1 d2, d2 was empty, the move ends, and North, with no seed left,
/// has no move: South has won after one ply. South's other move, `b1`,
/// drops its seed in the empty c1 and ends; North then has the move b3.
pub fn one_move_from_a_win(rules: &Rules) -> Position {
    let mut holes = [0u16; 16];
    holes[0] = 1; // a1
    holes[1] = 1; // b1
    holes[9] = 1; // b3
    rules
        .position(&holes, Player::South, [None, None], 0)
        .unwrap()
}
