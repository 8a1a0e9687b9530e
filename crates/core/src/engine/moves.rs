//! Move generation from bit masks: the decisions (`decisions::shape`,
//! RULES.md §3) give a position's moves in compact form; this lists them
//! in board order, counts and draws them without listing, and checks a
//! move against them.

use super::{Dir, IllegalMove, Move, MoveList, MoveReport, Observer, Position, Silent, bits};
use crate::rules::Rules;

/// The legal moves of a position in compact form: the start holes (a bit
/// per hole), the directions each is sown in, and lone-seed steps.
pub(super) struct Shape {
    pub holes: u128,
    pub dirs: [Option<Dir>; 2],
    pub ndirs: usize,
    pub steps: [Move; 2],
    pub nsteps: usize,
}

impl Shape {
    /// No move: no start hole, one direction slot, no step.
    pub fn none() -> Shape {
        Shape {
            holes: 0,
            dirs: [None, None],
            ndirs: 1,
            steps: [Move::sow(0, None); 2],
            nsteps: 0,
        }
    }
}

impl Rules {
    pub(super) fn has_legal_move(&self, pos: &Position) -> bool {
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
        // RULES.md §9: at the ply limit the game is over.
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
        // order every listing of moves uses (RULES.md §3).
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
