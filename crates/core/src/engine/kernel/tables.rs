//! Building a kernel's tables from the rules ([`Kernel::new`]) and the
//! lookups on them.

use super::*;

impl Kernel {
    /// Builds the tables for `rules`, if `S` is the kernel for its
    /// settings; otherwise says which setting differs.
    pub(super) fn new<S: Spec>(rules: &Rules, which: Which) -> Result<Kernel, Unsupported> {
        supported::<S>(rules)?;
        let mut k = Kernel::empty::<S>(rules, which)?;
        k.pattern_tables::<S>();
        k.lane_holes::<S>(rules)?;
        let circ = k.circuit_lanes::<S>(rules)?;
        k.lap_records::<S>(rules, &circ);
        k.start = k.sides_of(&rules.start(), 0);
        k.victim_tables::<S>(rules);
        k.inner_lanes =
            (k.side - k.cols..k.side).fold(0, |m, l| m | u128::from(k.wmask) << k.shift[l]);
        Ok(k)
    }

    /// A kernel of the board's size with every table still empty.
    fn empty<S: Spec>(rules: &Rules, which: Which) -> Result<Kernel, Unsupported> {
        let s = &rules.settings();
        let (cols, side, total) = board_fits::<S>(rules)?;
        let w = S::W;
        Ok(Kernel {
            wmask: (1 << w) - 1,
            cols,
            side,
            words: vec![0; 4 * 2 * side * (total + 1)].into_boxed_slice(),
            start4: [[0; LANES]; 2],
            lane: [LaneInfo::default(); LANES],
            shift: [0; LANES],
            inner_lanes: 0,
            clear: [!0; LANES],
            unit: [0; LANES],
            row_of: [0; LANES],
            count: [0; 256],
            pick: vec![[[0; 8]; 256]; DEPTHS + 1]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!()),
            row_base: [0; LANES],
            vic: [[0; LANES]; 4],
            hole: [[0; LANES]; 2],
            code: [[[0; 3]; LANES]; 2],
            lane_of: [0; 128],
            min_occupied: s.min_victim_seeds as u32,
            min_empty: s.min_victim_seeds_after_empty as u32,
            ply_limit: s.ply_limit,
            empty_ends: s.game_end == GameEnd::OpponentEmpty,
            all_ones: s.empty_landing_refusal == EmptyLandingRefusal::AllOnes,
            fallback_laps: FALLBACK_LAPS.min(s.lap_limit),
            lap_limit: s.lap_limit,
            start: Side2::default(),
            which,
        })
    }

    /// The row patterns: how many holes of a pattern may start, and the
    /// `k`-th one's lane and rotation in each row.
    fn pattern_tables<S: Spec>(&mut self) {
        let (cols, side) = (self.cols, self.side);
        let rot4 = |l: usize| {
            let o = lane_off(l, S::W, S::LPW) as usize;
            (o & 64) | ((o + 64 - 2) & 63)
        };
        for p in 0..1usize << cols {
            let mut c = 0;
            for b in 0..cols {
                if p >> b & 1 == 1 {
                    for (row, base) in (0..side).step_by(cols).enumerate() {
                        self.pick[row][p][c] = ((base + b) | rot4(base + b) << 8) as u16;
                    }
                    c += 1;
                }
            }
            self.count[p] = c as u8;
        }
    }

    /// Each lane's hole for both players, its move codes and its bits;
    /// the board must be laid out as the kernel reads it.
    fn lane_holes<S: Spec>(&mut self, rules: &Rules) -> Result<(), Unsupported> {
        let need = |ok, what| need::<S>(rules, ok, what);
        let (cols, side, holes) = (self.cols, self.side, rules.hole_count());
        let off = |l: usize| lane_off(l, S::W, S::LPW);
        // A side's lanes in its owner's reading order: depth (outer row
        // first), then column from the owner's left, so North's lane i is
        // hole `holes - 1 - i`, South's turned through 180 degrees.
        for l in 0..side {
            self.hole[0][l] = l as u8;
            self.hole[1][l] = (holes - 1 - l) as u8;
            for p in 0..2 {
                let from = self.hole[p][l] as usize;
                self.code[p][l] = [None, Some(Dir::Forward), Some(Dir::Backward)]
                    .map(|d| Move::sow(from, d).code());
            }
            self.lane_of[l] = l as u8;
            self.lane_of[holes - 1 - l] = l as u8;
            need(rules.owner(l) == Player::South, "board layout")?;
            need(rules.depth(l) == l / cols, "board layout")?;
            self.unit[l] = 1u128 << off(l);
            self.shift[l] = off(l) as u8;
            self.clear[l] = !lane_bits::<S>(l);
            self.row_of[l] = (l / cols) as u8;
            self.row_base[l] = (l / cols * cols) as u8;
        }
        Ok(())
    }

    /// The circuit of each direction in lanes.
    fn circuit_lanes<S: Spec>(&self, rules: &Rules) -> Result<[[usize; LANES]; 2], Unsupported> {
        let need = |ok, what| need::<S>(rules, ok, what);
        let side = self.side;
        // Circuits in lanes: the same for both players, which the tables
        // rely on; checked here rather than assumed.
        let mut circ = [[0usize; LANES]; 2];
        for (d, dir) in [Dir::Forward, Dir::Backward].into_iter().enumerate() {
            let south: Vec<usize> = rules
                .circuit_in(Player::South, dir)
                .iter()
                .map(|&h| h as usize)
                .collect();
            let north: Vec<usize> = rules
                .circuit_in(Player::North, dir)
                .iter()
                .map(|&h| self.lane_of[h as usize] as usize)
                .collect();
            need(south == north, "North's circuit is not South's turned")?;
            circ[d][..side].copy_from_slice(&south);
        }
        Ok(circ)
    }

    /// The lap records: for each direction, lane lifted and seeds in
    /// hand, the lap's add mask, occupancy, landing and next record.
    fn lap_records<S: Spec>(&mut self, rules: &Rules, circ: &[[usize; LANES]; 2]) {
        let (side, total) = (self.side, rules.total_seeds() as usize);
        for d in 0..2 {
            for l in 0..side {
                self.start4[d][l] = (4 * (d * side + l) * (total + 1)) as u32;
            }
        }
        for (d, circ) in circ.iter().enumerate() {
            let mut pos = [0usize; LANES];
            for (i, &l) in circ[..side].iter().enumerate() {
                pos[l] = i;
            }
            for from in 0..side {
                // The lanes a lap from `from` sows, in order.
                let after = |j: usize| circ[(pos[from] + j) % side];
                for n in 0..=total {
                    let i = self.start4[d][from] as usize + 4 * n;
                    self.lap_record::<S>(i, d, n, after);
                }
            }
        }
    }

    /// The record at `words[i]` of a lap in direction `d` that sows `n`
    /// seeds, into the lanes `after(1)`, `after(2)` and on.
    fn lap_record<S: Spec>(
        &mut self,
        i: usize,
        d: usize,
        n: usize,
        after: impl Fn(usize) -> usize,
    ) {
        let side = self.side;
        let (mut add, mut occ) = (0u128, 0u32);
        for j in 1..=n {
            let l = after(j);
            add += self.unit[l];
            occ |= 1 << l;
        }
        let land = after(n);
        let o = lane_off(land, S::W, S::LPW);
        self.words[i] = add as u64;
        self.words[i + 1] = (add >> 64) as u64;
        self.words[i + 2] = occ as u64 | (self.start4[d][land] as u64) << 32;
        // A lap of at most a circuit drops one seed in the landing hole:
        // it lands in an empty hole exactly when that hole's bit was
        // clear before the lap.
        let once = if (1..=side).contains(&n) {
            1u64 << land
        } else {
            0
        };
        self.words[i + 3] =
            ((o & 64) | ((o + 64 - 2) & 63)) as u64 | (land as u64) << 8 | once << 32;
    }

    /// Each lane's capture facts: its facing column, deeper rows and the
    /// victims' lanes.
    fn victim_tables<S: Spec>(&mut self, rules: &Rules) {
        let (cols, side, depths) = (self.cols, self.side, rules.rows() / 2);
        for l in 0..side {
            let (dep, col) = (l / cols, l % cols);
            let mut info = LaneInfo {
                clear: !lane_bits::<S>(l),
                bit: 1 << l,
                inner: dep + 1 == depths,
                ..LaneInfo::default()
            };
            for dd in dep + 1..depths {
                info.deeper |= ((1u32 << cols) - 1) << (dd * cols);
            }
            // The facing hole on the opponent's side has their column
            // `cols - 1 - col` (the board turned through 180 degrees).
            for od in 0..depths {
                let ol = od * cols + (cols - 1 - col);
                info.facing |= 1 << ol;
                self.vic[od][l] = 1 << ol;
            }
            self.lane[l] = info;
        }
    }

    /// Hands moves to the engine after `laps` laps instead (at most the
    /// lap limit and [`FALLBACK_LAPS`], which the lap loop's packed counts
    /// are sized for): for testing the hand-over itself.
    #[cfg(test)]
    pub(super) fn set_fallback_laps(&mut self, laps: u64) {
        self.fallback_laps = laps.clamp(1, self.lap_limit.min(FALLBACK_LAPS));
    }

    /// The depth of the highest occupied lane of a non-empty side: the
    /// innermost non-empty row.
    #[inline(always)]
    pub(super) fn inner_row(&self, occ: u32) -> usize {
        // 31 ^ lz is 31 - lz without overflow for an empty side (play-out).
        self.row_of[(31 ^ occ.leading_zeros()) as usize & (LANES - 1)] as usize
    }

    pub(super) fn hole_of(&self, p: usize, l: usize) -> usize {
        self.hole[p][l & (LANES - 1)] as usize
    }

    /// The occupied holes of the row from lane `base` as a pattern of
    /// `cols` bits.
    #[inline(always)]
    pub(super) fn row_bits(&self, occ: u32, base: usize) -> usize {
        (occ >> (base & 31)) as usize & 255
    }
}

/// Why kernel `S` cannot play `rules`, unless `ok`.
fn need<S: Spec>(rules: &Rules, ok: bool, what: &str) -> Result<(), Unsupported> {
    if ok {
        Ok(())
    } else {
        Err(Unsupported(format!(
            "kernel {} cannot play {}: {what}",
            S::NAME,
            rules.name()
        )))
    }
}

/// The board's columns, holes a side and seeds, if they fit kernel `S`'s
/// lanes and tables.
fn board_fits<S: Spec>(rules: &Rules) -> Result<(usize, usize, usize), Unsupported> {
    let need = |ok, what| need::<S>(rules, ok, what);
    // backward_circuit needs no check: any circuit is in the tables.
    let (rows, cols) = (rules.rows(), rules.cols());
    let depths = rows / 2;
    let side = depths * cols;
    let total = rules.total_seeds() as usize;
    need(
        total < (1 << S::W) && total < HANDS && S::DEPTHS <= DEPTHS,
        "seed total too big for a lane",
    )?;
    need(
        side <= LANES && side.div_ceil(S::LPW as usize) <= 2 && S::LPW * S::W <= 64,
        "side too big for one u128",
    )?;
    need(cols <= 8, "more than 8 holes a row (row pattern tables)")?;
    Ok((cols, side, total))
}

/// Every bit of lane `l`.
fn lane_bits<S: Spec>(l: usize) -> u128 {
    ((1u128 << S::W) - 1) << lane_off(l, S::W, S::LPW)
}

/// The settings kernel `S` compiles in: each must be as `S` has it.
fn supported<S: Spec>(rules: &Rules) -> Result<(), Unsupported> {
    let s = &rules.settings();
    // Every setting by name and no `..`: a new one does not compile here
    // until it is decided whether the kernels play it.
    let crate::rules::Settings {
        // The board is checked by the tables' layout checks and `rows` below.
        rows: _,
        holes: _,
        seeds: _,
        layout: _,
        // Compiled into `S`: checked below.
        start: _,
        singletons: _,
        direction: _,
        relay: _,
        capture_trigger: _,
        capturing_row: _,
        victim: _,
        lone_seed: _,
        lone_seed_step: _,
        step_sowing: _,
        // Read at run time from the tables (`Tables::new`): any value.
        backward_circuit: _,
        min_victim_seeds: _,
        min_victim_seeds_after_empty: _,
        empty_landing_refusal: _,
        game_end: _,
        lap_limit: _,
        ply_limit: _,
        // Applied by the engine to a move the kernel hands it after
        // FALLBACK_LAPS laps, which finds endless moves exactly.
        endless_move: _,
    } = s;
    let need = |ok, what| need::<S>(rules, ok, what);
    need(
        s.start
            == if S::START_ANY {
                StartRule::Any
            } else {
                StartRule::OutermostNonEmpty
            },
        "start",
    )?;
    need(s.singletons == Singletons::Allowed, "singletons")?;
    need(
        s.direction
            == match S::DIR {
                DirKind::Forward => DirectionRule::Forward,
                DirKind::EachMove => DirectionRule::EachMove,
                DirKind::OncePerGame => DirectionRule::OncePerGame,
            },
        "direction",
    )?;
    need(s.relay == Relay::Occupied, "relay")?;
    let (trigger, row, victim) = capture_rules::<S>();
    need(s.capture_trigger == trigger, "capture_trigger")?;
    need(s.capturing_row == row, "capturing_row")?;
    need(s.victim == victim, "victim")?;
    lone_seed_supported::<S>(rules)?;
    need(rules.rows() / 2 == S::DEPTHS, "rows")?;
    Ok(())
}

/// The capture settings kernel `S`'s capture kind stands for.
fn capture_rules<S: Spec>() -> (CaptureTrigger, CapturingRow, VictimRule) {
    match S::CAP {
        CapKind::Canonical => (
            CaptureTrigger::Occupied,
            CapturingRow::InnermostNonEmpty,
            VictimRule::InnermostRow,
        ),
        CapKind::CanonicalEmpty => (
            CaptureTrigger::Empty,
            CapturingRow::InnermostNonEmpty,
            VictimRule::InnermostRow,
        ),
        CapKind::InnerColumn => (
            CaptureTrigger::Occupied,
            CapturingRow::Inner,
            VictimRule::Column,
        ),
        CapKind::InnerWholeColumn => (
            CaptureTrigger::Either,
            CapturingRow::Inner,
            VictimRule::WholeColumn,
        ),
    }
}

/// Whether the lone-seed settings are those kernel `S` compiles in: its
/// straight steps, or none.
fn lone_seed_supported<S: Spec>(rules: &Rules) -> Result<(), Unsupported> {
    let s = &rules.settings();
    let need = |ok, what| need::<S>(rules, ok, what);
    if S::LONE_STRAIGHT {
        need(s.lone_seed == LoneSeed::Straight, "lone_seed")?;
        need(
            s.lone_seed_step == LoneSeedStep::NoFailedCapture,
            "lone_seed_step",
        )?;
        need(s.step_sowing == StepSowing::Chosen, "step_sowing")?;
    } else {
        need(s.lone_seed == LoneSeed::None, "lone_seed")?;
    }
    Ok(())
}
