//! Every opening of `k` uniformly random plies, with its exact probability
//! (docs/EXPERIMENTS.md, "Random opening plies"), and the first player's
//! exact share under perfect play over them (docs/OUTPUTS.md,
//! strength-curve.csv's `limit`).
//!
//! An opening is played as the game loop plays it: while the position has
//! counted fewer than `k` plies and the game goes on, a forced move is
//! played with probability 1, any other position's legal moves each with
//! probability 1/n. Openings reaching the same position are merged, their
//! probabilities summed exactly: every probability is a fraction whose
//! denominator divides the product of the move counts, so no rounding
//! enters until the share is written as a decimal.

use std::collections::HashMap;

use crate::engine::{Player, Position, Status};
use crate::rules::Rules;
use crate::solve::prove::{Outcome, Prover, Searched};
use crate::solve::{SolvedTable, Value};

/// An exact probability `num / den` in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: u128,
    pub den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    fn new(num: u128, den: u128) -> Ratio {
        let g = gcd(num, den).max(1);
        Ratio {
            num: num / g,
            den: den / g,
        }
    }

    /// The sum, `None` past u128.
    pub fn checked_add(self, o: Ratio) -> Option<Ratio> {
        let g = gcd(self.den, o.den);
        let den = (self.den / g).checked_mul(o.den)?;
        let num =
            (self.num.checked_mul(o.den / g)?).checked_add(o.num.checked_mul(self.den / g)?)?;
        Some(Ratio::new(num, den))
    }

    /// This probability split `n` ways, `None` past u128.
    pub fn split(self, n: u128) -> Option<Ratio> {
        Some(Ratio::new(self.num, self.den.checked_mul(n)?))
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// One opening: the position it reaches and its probability.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub position: Position,
    pub probability: Ratio,
}

/// Why the openings could not be enumerated exactly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    #[error("more than {0} distinct openings: too many to enumerate")]
    TooMany(usize),
    #[error("the openings' probabilities no longer fit an exact fraction of 128 bits")]
    Overflow,
}

/// Every opening of `plies` uniformly random plies from the start of
/// `rules`, merged by position, in the order first reached (depth first,
/// moves in `legal_moves` order); refused past `max` distinct positions at
/// any ply. The probabilities sum to exactly 1.
pub fn openings(rules: &Rules, plies: u32, max: usize) -> Result<Vec<Opening>, OpeningsError> {
    let mut layer: Vec<Opening> = vec![Opening {
        position: rules.start(),
        probability: Ratio::ONE,
    }];
    // Plies are counted by the position (one ply need not be one move), so
    // positions advance move by move until each has `plies` or has ended.
    loop {
        let mut next = Merged::default();
        let mut moved = false;
        for o in layer {
            if next.advance(rules, o, plies)? {
                moved = true;
                if next.list.len() > max {
                    return Err(OpeningsError::TooMany(max));
                }
            }
        }
        layer = next.list;
        if !moved {
            return Ok(layer);
        }
    }
}

/// Openings merged by position, in the order first reached.
#[derive(Default)]
struct Merged {
    list: Vec<Opening>,
    at: HashMap<Position, usize>,
}

impl Merged {
    /// Adds `o` as it is when it has `plies` or has ended, else every
    /// position one move on, each as likely; whether it moved.
    fn advance(&mut self, rules: &Rules, o: Opening, plies: u32) -> Result<bool, OpeningsError> {
        let legal = rules.legal_moves(&o.position);
        if o.position.plies() >= plies || o.position.ended().is_some() || legal.is_empty() {
            self.merge(o.position, o.probability)?;
            return Ok(false);
        }
        let each = o
            .probability
            .split(legal.len() as u128)
            .ok_or(OpeningsError::Overflow)?;
        for &mv in legal.iter() {
            let mut pos = o.position;
            rules
                .play(&mut pos, mv)
                .expect("a move legal_moves lists is legal");
            self.merge(pos, each)?;
        }
        Ok(true)
    }

    fn merge(&mut self, position: Position, p: Ratio) -> Result<(), OpeningsError> {
        match self.at.get(&position) {
            Some(&i) => {
                self.list[i].probability = self.list[i]
                    .probability
                    .checked_add(p)
                    .ok_or(OpeningsError::Overflow)?;
            }
            None => {
                self.at.insert(position, self.list.len());
                self.list.push(Opening {
                    position,
                    probability: p,
                });
            }
        }
        Ok(())
    }
}

/// A position's value for one player under perfect play, as far as a
/// valuer knows it: a solved table knows every position; a proof search
/// may leave one [`OpeningValue::Unknown`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningValue {
    Win,
    Draw,
    Loss,
    /// Not valued: the search stopped before a proof (a draw by infinite
    /// play is never proven, so a drawn position stays here too).
    Unknown,
}

impl OpeningValue {
    /// The same value for the other player.
    pub fn flip(self) -> OpeningValue {
        match self {
            OpeningValue::Win => OpeningValue::Loss,
            OpeningValue::Loss => OpeningValue::Win,
            v => v,
        }
    }
}

impl From<Value> for OpeningValue {
    fn from(v: Value) -> OpeningValue {
        match v {
            Value::Win(_) => OpeningValue::Win,
            Value::Draw => OpeningValue::Draw,
            Value::Loss(_) => OpeningValue::Loss,
        }
    }
}

impl From<Outcome> for OpeningValue {
    /// A proof search's outcome: a finished game with no winner is a draw;
    /// "no forced win within D" is unknown.
    fn from(o: Outcome) -> OpeningValue {
        match o {
            Outcome::Win(_) => OpeningValue::Win,
            Outcome::Loss(_) => OpeningValue::Loss,
            Outcome::Ended => OpeningValue::Draw,
            Outcome::Unknown(_) => OpeningValue::Unknown,
        }
    }
}

/// `pos`'s value for South (player 1): a finished game by its status (an
/// opening that ends the game by its own winner, or undecided), a game in
/// play by `mover_value`, its value for the player to move (`None`: the
/// valuer has no value for it, as a table of other rules).
pub fn first_player_value(
    rules: &Rules,
    pos: &Position,
    mover_value: impl FnOnce(&Position) -> Option<OpeningValue>,
) -> Option<OpeningValue> {
    Some(match rules.status(pos) {
        Status::Won(Player::South) => OpeningValue::Win,
        Status::Won(Player::North) => OpeningValue::Loss,
        Status::EndlessMove | Status::LapLimit | Status::PlyLimit => OpeningValue::Draw,
        Status::Ongoing => {
            let v = mover_value(pos)?;
            match pos.to_move() {
                Player::South => v,
                Player::North => v.flip(),
            }
        }
    })
}

/// The first player's (South's) outcomes under perfect play from a set of
/// openings, each weighted by its probability; with a valuer that can
/// leave positions unknown, their probability apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerfectShare {
    pub p1_wins: Ratio,
    pub draws: Ratio,
    pub p2_wins: Ratio,
    /// The openings whose position was not valued (always zero from a
    /// solved table).
    pub unknown: Ratio,
    /// Distinct opening positions.
    pub openings: usize,
    /// Of those, the positions not valued.
    pub unknown_openings: usize,
}

impl PerfectShare {
    /// Player 1's share of the decided games, W / (W + L), as p1_win_rate
    /// counts it; `None` when every opening is a draw, or when some are
    /// unknown (then [`Self::p1_share_bounds`] bounds it).
    pub fn p1_decided_share(&self) -> Option<f64> {
        if self.unknown.num > 0 {
            return None;
        }
        let decided = self.p1_wins.checked_add(self.p2_wins)?;
        (decided.num > 0).then(|| self.p1_wins.to_f64() / decided.to_f64())
    }

    /// The interval that holds player 1's share of the decided games
    /// whatever the unknown openings are: W / (W + L + U), every unknown
    /// one lost, to (W + U) / (W + U + L), every one won (an unknown one
    /// drawn leaves the decided games, which moves the share less than
    /// either). Exactly the share when none is unknown; `None` when every
    /// opening is a draw.
    pub fn p1_share_bounds(&self) -> Option<(f64, f64)> {
        let (w, l, u) = (
            self.p1_wins.to_f64(),
            self.p2_wins.to_f64(),
            self.unknown.to_f64(),
        );
        if self.unknown.num == 0 {
            return self.p1_decided_share().map(|x| (x, x));
        }
        Some((w / (w + l + u), (w + u) / (w + u + l)))
    }
}

/// South's outcomes from `openings`, each opening valued for South by
/// `first_value` (usually through [`first_player_value`]); `None` when it
/// gives no value for one, or the sums pass 128 bits.
pub fn share_by(
    openings: &[Opening],
    mut first_value: impl FnMut(&Opening) -> Option<OpeningValue>,
) -> Option<PerfectShare> {
    let mut share = PerfectShare {
        p1_wins: Ratio::ZERO,
        draws: Ratio::ZERO,
        p2_wins: Ratio::ZERO,
        unknown: Ratio::ZERO,
        openings: openings.len(),
        unknown_openings: 0,
    };
    for o in openings {
        let slot = match first_value(o)? {
            OpeningValue::Win => &mut share.p1_wins,
            OpeningValue::Draw => &mut share.draws,
            OpeningValue::Loss => &mut share.p2_wins,
            OpeningValue::Unknown => {
                share.unknown_openings += 1;
                &mut share.unknown
            }
        };
        *slot = slot.checked_add(o.probability)?;
    }
    Some(share)
}

/// South's exact outcomes from `openings` under perfect play by `table`
/// (solved for `rules`); `None` if an opening's position is not in the
/// table (a table of other rules).
pub fn perfect_share(
    rules: &Rules,
    table: &SolvedTable,
    openings: &[Opening],
) -> Option<PerfectShare> {
    share_by(openings, |o| {
        first_player_value(rules, &o.position, |pos| {
            table.value(rules, pos).map(OpeningValue::from)
        })
    })
}

/// The openings of one number of plies valued by proof search.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvedShare {
    pub plies: u32,
    pub share: PerfectShare,
    /// Search nodes spent on this number's positions in play, each
    /// distinct position once (a position also reached at another number
    /// of plies counted in both).
    pub nodes: u64,
    /// The positions left unknown, each with its probability and its
    /// search, in the order first reached.
    pub unknown: Vec<(Opening, Searched)>,
}

/// The openings of each number of plies and the distinct positions in
/// play among them: what a proof search of the openings values, each
/// position once, in a fixed order (first reached, list by list).
pub struct OpeningPositions {
    plies: Vec<u32>,
    lists: Vec<Vec<Opening>>,
    distinct: Vec<Position>,
    index: HashMap<u128, usize>,
    // The prover's own key: the position without its ply count.
    keyer: Prover,
}

impl OpeningPositions {
    /// The openings of each number of `plies` (each list as [`openings`]
    /// gives it, refused past `max` positions). Positions that differ only
    /// in their ply count are one: values ignore it.
    pub fn new(rules: &Rules, plies: &[u32], max: usize) -> Result<Self, OpeningsError> {
        let lists = plies
            .iter()
            .map(|&k| openings(rules, k, max))
            .collect::<Result<Vec<_>, _>>()?;
        let keyer = Prover::new(rules, 0);
        let mut index: HashMap<u128, usize> = HashMap::new();
        let mut distinct: Vec<Position> = Vec::new();
        for o in lists.iter().flatten() {
            if rules.status(&o.position) == Status::Ongoing {
                index.entry(keyer.key(&o.position)).or_insert_with(|| {
                    distinct.push(o.position);
                    distinct.len() - 1
                });
            }
        }
        Ok(OpeningPositions {
            plies: plies.to_vec(),
            lists,
            distinct,
            index,
            keyer,
        })
    }

    /// The distinct positions in play, each to be searched once.
    pub fn distinct(&self) -> &[Position] {
        &self.distinct
    }

    /// The shares of each number of plies, every opening valued for South
    /// through [`first_player_value`], a game still in play by
    /// `searched[i]`, the search of `distinct()[i]`.
    pub fn shares(
        &self,
        rules: &Rules,
        searched: &[Searched],
    ) -> Result<Vec<ProvedShare>, OpeningsError> {
        assert_eq!(searched.len(), self.distinct.len(), "a search per position");
        let of = |pos: &Position| searched[self.index[&self.keyer.key(pos)]];
        let mut out = Vec::new();
        for (&k, list) in self.plies.iter().zip(&self.lists) {
            let share = share_by(list, |o| {
                first_player_value(rules, &o.position, |pos| Some(of(pos).outcome.into()))
            })
            .ok_or(OpeningsError::Overflow)?;
            let mut seen = std::collections::HashSet::new();
            let (mut nodes, mut unknown) = (0, Vec::new());
            for o in list
                .iter()
                .filter(|o| rules.status(&o.position) == Status::Ongoing)
            {
                let s = of(&o.position);
                if seen.insert(self.keyer.key(&o.position)) {
                    nodes += s.nodes;
                }
                if matches!(s.outcome, Outcome::Unknown(_)) {
                    unknown.push((o.clone(), s));
                }
            }
            out.push(ProvedShare {
                plies: k,
                share,
                nodes,
                unknown,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::solve::prove::Batch;

    fn variant(name: &str) -> Rules {
        crate::rules::preset(name).expect("a preset")
    }

    fn total(list: &[Opening]) -> Ratio {
        list.iter()
            .fold(Ratio::ZERO, |s, o| s.checked_add(o.probability).unwrap())
    }

    #[test]
    fn the_probabilities_sum_to_exactly_one_and_no_position_is_listed_twice() {
        for name in ["katro-6x6", "katro-4x4", "katro-6x3", "katra-boaoaka-4x8"] {
            let rules = variant(name);
            for k in 0..=4 {
                let list = openings(&rules, k, 1 << 20).unwrap();
                assert_eq!(total(&list), Ratio::ONE, "{name}, {k} plies");
                let distinct: std::collections::HashSet<Position> =
                    list.iter().map(|o| o.position).collect();
                assert_eq!(distinct.len(), list.len(), "{name}");
                let over = |o: &Opening| {
                    o.position.plies() == k || rules.legal_moves(&o.position).is_empty()
                };
                assert!(list.iter().all(over), "{name}");
            }
        }
    }

    #[test]
    fn one_ply_gives_each_legal_move_an_equal_share() {
        let rules = variant("katro-6x6");
        let n = rules.legal_moves(&rules.start()).len() as u128;
        let list = openings(&rules, 1, 1000).unwrap();
        assert_eq!(list.len() as u128, n);
        assert!(list.iter().all(|o| o.probability == Ratio::new(1, n)));
        assert_eq!(openings(&rules, 0, 1).unwrap().len(), 1);
        assert_eq!(openings(&rules, 4, 10), Err(OpeningsError::TooMany(10)));
    }

    #[test]
    fn ratios_add_exactly() {
        let third = Ratio::ONE.split(3).unwrap();
        let sixth = Ratio::ONE.split(6).unwrap();
        assert_eq!(third.checked_add(sixth).unwrap(), Ratio::new(1, 2));
        assert_eq!(Ratio::new(u128::MAX, 1).checked_add(Ratio::ONE), None);
    }

    #[test]
    fn with_no_opening_the_share_is_the_starts_value() {
        let text = "[board]\nrows = 4\nholes = 3\nseeds = 1\n";
        let rules = crate::rules::parse_variant("t.toml", text, "t").unwrap();
        let table = crate::solve::solve(&rules, 1 << 30, &mut |_, _, _| {
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        let start = table.value(&rules, &rules.start()).unwrap();
        let share = perfect_share(&rules, &table, &openings(&rules, 0, 1).unwrap()).unwrap();
        let want = match start {
            Value::Win(_) => (Ratio::ONE, Ratio::ZERO, Ratio::ZERO),
            Value::Draw => (Ratio::ZERO, Ratio::ONE, Ratio::ZERO),
            Value::Loss(_) => (Ratio::ZERO, Ratio::ZERO, Ratio::ONE),
        };
        assert_eq!((share.p1_wins, share.draws, share.p2_wins), want);
        // Over 2 plies the three add up to one, and each opening's value
        // is the table's for its mover.
        let list = openings(&rules, 2, 1000).unwrap();
        let s = perfect_share(&rules, &table, &list).unwrap();
        assert_eq!(
            s.p1_wins
                .checked_add(s.draws)
                .unwrap()
                .checked_add(s.p2_wins)
                .unwrap(),
            Ratio::ONE
        );
    }

    /// Every move sequence of the opening walked one by one, without
    /// merging, each with its probability as a float: the same shares as
    /// the merged enumeration's exact fractions.
    fn walk(rules: &Rules, table: &SolvedTable, pos: Position, k: u32, p: f64, out: &mut [f64; 3]) {
        let legal = rules.legal_moves(&pos);
        if pos.plies() >= k || pos.ended().is_some() || legal.is_empty() {
            let south = match rules.status(&pos) {
                Status::Won(Player::South) => 0,
                Status::Won(Player::North) => 2,
                Status::Ongoing => {
                    let v = table.value(rules, &pos).unwrap();
                    let v = if pos.to_move() == Player::South {
                        v
                    } else {
                        v.flip()
                    };
                    match v {
                        Value::Win(_) => 0,
                        Value::Draw => 1,
                        Value::Loss(_) => 2,
                    }
                }
                _ => 1,
            };
            out[south] += p;
            return;
        }
        for &mv in legal.iter() {
            let mut next = pos;
            rules.play(&mut next, mv).unwrap();
            walk(rules, table, next, k, p / legal.len() as f64, out);
        }
    }

    #[test]
    fn merged_openings_value_as_every_sequence_walked_apart() {
        for seeds in [1] {
            let text = format!("[board]\nrows = 4\nholes = 3\nseeds = {seeds}\n");
            let rules = crate::rules::parse_variant("t.toml", &text, "t").unwrap();
            let table = crate::solve::solve(&rules, 1 << 31, &mut |_, _, _| {
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
            for k in 1..=5 {
                let list = openings(&rules, k, 1 << 20).unwrap();
                let s = perfect_share(&rules, &table, &list).unwrap();
                let mut want = [0.0; 3];
                walk(&rules, &table, rules.start(), k, 1.0, &mut want);
                let got = [s.p1_wins.to_f64(), s.draws.to_f64(), s.p2_wins.to_f64()];
                for (g, w) in got.iter().zip(want) {
                    assert!(
                        (g - w).abs() < 1e-12,
                        "{seeds} seeds, {k} plies: {got:?} {want:?}"
                    );
                }
            }
        }
    }

    /// The openings of each number of `plies` ([`OpeningPositions`]), each
    /// distinct position in play searched once within `batch`'s limits, in
    /// parallel on the current rayon pool. The results do not depend on the
    /// pool, unless the batch's watch stops searches by a clock.
    fn proved_shares(
        rules: &Rules,
        plies: &[u32],
        max: usize,
        batch: &Batch,
    ) -> Result<Vec<ProvedShare>, OpeningsError> {
        let positions = OpeningPositions::new(rules, plies, max)?;
        let searched = batch.prove_all(positions.distinct(), |pos| (rules, *pos), &|_, _| {});
        positions.shares(rules, &searched)
    }

    fn no_watch() -> Box<dyn crate::solve::prove::Watch + Send> {
        Box::new(crate::solve::prove::NoWatch)
    }

    /// Openings of `plies` valued by proof search within `nodes` a
    /// position, as the command values them.
    fn prove_with(rules: &Rules, plies: &[u32], nodes: Option<u64>) -> Vec<ProvedShare> {
        let batch = Batch {
            table_bytes: 16 << 20,
            limits: crate::solve::prove::Limits {
                max_depth: 200,
                max_nodes: nodes,
            },
            watch: &no_watch,
        };
        proved_shares(rules, plies, 1 << 20, &batch).unwrap()
    }

    /// The check on a board the retrograde solver solves: the
    /// openings valued by proof search give exactly the solved table's
    /// shares, fraction for fraction, after 0 to 5 plies; every position
    /// is proven, so the interval is the share.
    #[test]
    fn proof_search_gives_the_solved_tables_shares_exactly() {
        let text = "[board]\nrows = 4\nholes = 3\nseeds = 1\n";
        let rules = crate::rules::parse_variant("t.toml", text, "t").unwrap();
        let table = crate::solve::solve(&rules, 1 << 30, &mut |_, _, _| {
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        let plies = [0, 1, 2, 3, 4, 5];
        let proved = prove_with(&rules, &plies, None);
        for (k, p) in plies.iter().zip(&proved) {
            let want = perfect_share(&rules, &table, &openings(&rules, *k, 1 << 20).unwrap());
            assert_eq!(Some(p.share), want, "{k} plies");
            assert!(p.unknown.is_empty() && p.nodes > 0, "{k} plies");
            let x = p.share.p1_decided_share().unwrap();
            assert_eq!(p.share.p1_share_bounds(), Some((x, x)));
        }
        // 25/54 after 4 plies, as strength-curve.csv's `limit` has it.
        let four = &proved[4].share;
        assert_eq!(four.p1_wins.checked_add(four.p2_wins), Some(Ratio::ONE));
        assert_eq!(four.p1_wins, Ratio::new(25, 54));
    }

    /// With a budget too small to prove some positions, they are counted
    /// apart, and the interval runs from all of them lost to all won.
    #[test]
    fn unproven_openings_make_an_interval() {
        let rules = variant("katro-4x4");
        let proved = prove_with(&rules, &[1], Some(2000));
        let p = &proved[0];
        assert!(!p.unknown.is_empty(), "{p:?}");
        let s = &p.share;
        assert_eq!(s.unknown_openings, p.unknown.len());
        let unknown = p.unknown.iter().fold(Ratio::ZERO, |t, (o, _)| {
            t.checked_add(o.probability).unwrap()
        });
        assert_eq!(s.unknown, unknown);
        let sum = [s.p1_wins, s.draws, s.p2_wins, s.unknown]
            .into_iter()
            .fold(Ratio::ZERO, |t, q| t.checked_add(q).unwrap());
        assert_eq!(sum, Ratio::ONE);
        let (w, l, u) = (s.p1_wins.to_f64(), s.p2_wins.to_f64(), s.unknown.to_f64());
        assert_eq!(s.p1_decided_share(), None);
        assert_eq!(
            s.p1_share_bounds(),
            Some((w / (w + l + u), (w + u) / (w + u + l)))
        );
    }
}
