//! Handing a long move to the engine and back (docs/RULES.md §8), and the
//! conversions between the kernel's sides and the engine's position.

use super::*;

#[inline(always)]
pub(super) fn player(i: usize) -> Player {
    if i == 0 { Player::South } else { Player::North }
}

pub(super) fn dir_of(d: usize) -> Dir {
    if d == 0 { Dir::Forward } else { Dir::Backward }
}

pub(super) fn dir_code(d: Option<Dir>) -> u8 {
    match d {
        None => 0,
        Some(Dir::Forward) => 1,
        Some(Dir::Backward) => 2,
    }
}

pub(super) fn dir_from_code(c: u8) -> Option<Dir> {
    match c {
        0 => None,
        1 => Some(Dir::Forward),
        _ => Some(Dir::Backward),
    }
}

impl Kernel {
    /// Seeds captured by the last of `moves`, played by the engine from
    /// the turn's start `s`.
    pub(super) fn engine_seeds(&self, rules: &Rules, turn: Turn, s: &Side2, moves: &[Move]) -> u64 {
        let mut pos = self.engine_position(s, turn);
        let mut seeds = 0;
        for &mv in moves {
            seeds = rules
                .play_unchecked(&mut pos, mv, &mut Silent)
                .seeds_captured;
        }
        seeds
    }

    /// The engine moves of a turn: a sowing move from `lane` (with its
    /// direction when the player chose one), or a step from `lane` and
    /// the continuation from `cont` in direction `d`.
    pub(super) fn decisions(
        &self,
        p: usize,
        lane: usize,
        two: bool,
        d: usize,
        cont: usize,
        sowing: bool,
    ) -> Vec<Move> {
        if sowing {
            vec![Move::sow(self.hole_of(p, lane), two.then_some(dir_of(d)))]
        } else {
            let to = lane + self.cols;
            let mut v = vec![Move::step(self.hole_of(p, lane), self.hole_of(p, to))];
            if cont != usize::MAX {
                v.push(Move::sow(self.hole_of(p, cont), Some(dir_of(d))));
            }
            v
        }
    }

    /// Has the current engine play a turn from its start, counting the
    /// hand-over in `handed` (a counter kept in memory beside the record,
    /// as the loop kept it before: a register of its own cost katro-ludii
    /// 1.3% more instructions); returns the next mover's sides and the
    /// fixed directions, or `None` (status set) if the game ended.
    pub(super) fn fallback(
        &self,
        rules: &Rules,
        (o, handed): (&mut GameRecord, &mut u32),
        turn: Turn,
        s: &Side2,
        moves: &[Move],
    ) -> Option<(Side2, [u8; 2])> {
        *handed += 1;
        let mover = turn.mover;
        let mut pos = self.engine_position(s, turn);
        for &mv in moves {
            let r = rules.play_unchecked(&mut pos, mv, &mut Silent);
            o.add_move(mover, MoveTotals::from(&r));
        }
        o.plies = pos.plies();
        if pos.ended().is_some() {
            o.status = rules.status(&pos);
            return None;
        }
        Some((
            self.sides_of(&pos, 1 - mover),
            [
                dir_code(pos.fixed_dir(Player::South)),
                dir_code(pos.fixed_dir(Player::North)),
            ],
        ))
    }

    /// The engine's position of a turn's start.
    pub(super) fn engine_position(&self, s: &Side2, turn: Turn) -> Position {
        let mut holes = [0u16; MAX_HOLES];
        for l in 0..self.side {
            let get = |x: u128| ((x >> self.shift[l]) as u64 & self.wmask) as u16;
            holes[self.hole[turn.mover][l] as usize] = get(s.me);
            holes[self.hole[1 - turn.mover][l] as usize] = get(s.opp);
        }
        // Built directly, not through `Rules::position`: these are the
        // rules' own seeds, so none of its checks can fail.
        Position {
            holes,
            occ: occupancy(&holes),
            to_move: player(turn.mover),
            fixed_dir: [dir_from_code(turn.fixed[0]), dir_from_code(turn.fixed[1])],
            plies: turn.plies,
            ended: None,
            pending: NO_HOLE,
        }
    }

    /// The sides of an engine position, `mover`'s first.
    pub(super) fn sides_of(&self, pos: &Position, mover: usize) -> Side2 {
        // South's lane `l` is hole `l`, North's hole `holes - 1 - l`
        // (`Kernel::lane_holes`); the lanes do not overlap, so each count
        // is shifted into its 64-bit half and ORed in, with no branch: a
        // fifth of the instructions of a multiply and an add of `u128`s
        // (alpha-beta converts every leaf it scores).
        let n = 2 * self.side;
        let (south, north) = pos.holes()[..n].split_at(self.side);
        let (mut lo, mut hi) = ([0u64; 2], [0u64; 2]);
        for ((&sh, &s), &no) in self.shift.iter().zip(south).zip(north.iter().rev()) {
            // All ones when the lane is in the high half.
            let high = 0u64.wrapping_sub(u64::from(sh >> 6) & 1);
            for (p, v) in [s, no].into_iter().enumerate() {
                let x = u64::from(v) << (sh & 63);
                lo[p] |= x & !high;
                hi[p] |= x & high;
            }
        }
        let lanes = [0, 1].map(|p| (hi[p] as u128) << 64 | lo[p] as u128);
        // The position's occupancy bits, North's turned round.
        let mask = (1u128 << self.side) - 1;
        let occ = [
            (pos.occ & mask) as u32,
            ((pos.occ.reverse_bits() >> (128 - n)) & mask) as u32,
        ];
        Side2 {
            me: lanes[mover],
            opp: lanes[1 - mover],
            occ: occ[mover],
            oocc: occ[1 - mover],
        }
    }
}
