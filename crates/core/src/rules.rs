//! The immutable, checked [`Rules`] object the engine plays by, built only
//! by [`Rules::new`] from [`Settings`] (as shakmaty builds a `Position`
//! from a `Setup`): `settings` declares every setting once, `variant`
//! reads variant files, `presets` holds the shipped ones.
//!
//! Every setting exists because two published readings of Katro disagree on
//! it; `docs/RULES.md` gives each one's meaning and sources. An omitted
//! setting takes the canonical value (Mancala World / de Voogt 1998).

use std::any::Any;
use std::sync::{Arc, OnceLock};

mod board;
mod presets;
pub mod schema;
mod settings;
pub mod suggest;
mod variant;

pub use crate::rules::schema::{InputError, Problem, Problems, line_col};
pub use board::{Dir, MAX_HOLES, MAX_SIDE, Player};
pub use presets::{PRESETS, preset, preset_names};
pub use settings::{
    Allowed, BOARD_SETTINGS, BackwardCircuit, CaptureTrigger, CapturingRow, DEFAULT_LAP_LIMIT,
    DEFAULT_PLY_LIMIT, DirectionRule, EmptyLandingRefusal, EndlessMove, GameEnd, LoneSeed,
    LoneSeedStep, MAX_HOLES_PER_ROW, MAX_LAP_LIMIT, MAX_PLY_LIMIT, MAX_ROWS, MAX_TOTAL_SEEDS,
    MIN_HOLES_PER_ROW, MIN_PLY_LIMIT, MIN_ROWS, Relay, SETTINGS, SettingInfo, SettingProblem,
    Settings, SettingsError, Singletons, StartRule, StepSowing, Value, VictimRule, board_problems,
    column_letter, range_problem, setting_fields, settings_problems, split_limits, value_text,
};
pub use variant::ranged;
pub use variant::{
    LoadError, ReadFile, VariantText, board_value, is_board_key, looks_like_path, parse_variant,
    resolve, write_variant, write_variant_table,
};

// ---------------------------------------------------------------------------
// The rules object

/// A validated rule set with its tables precomputed. Immutable: positions
/// are created from it and played by it.
#[derive(Clone, Debug)]
pub struct Rules {
    name: String,
    description: String,
    source: String,
    settings: Settings,
    pub(crate) t: Tables,
    /// What the engine derives from these rules on first use (the lane
    /// kernel's tables, a fraction of a millisecond to build), shared by
    /// clones and threads. Untyped so that this module does not import the
    /// engine (README, Layout); the engine reads it as its one type.
    derived: OnceLock<Option<Arc<dyn Any + Send + Sync>>>,
}

/// Lookup tables derived from the board shape, so the engine never
/// recomputes geometry while sowing.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    pub rows: usize,
    pub cols: usize,
    pub holes: usize,
    /// Rows a player owns.
    pub depths: usize,
    /// Holes a player owns: the length of a circuit.
    pub side: usize,
    /// `circuit[player][dir]`: hole indices in sowing order, written out
    /// twice so a lap of fewer seeds than the circuit never wraps; `dir` 0
    /// is forward, 1 backward (as `backward_circuit` says, RULES.md §2).
    pub circuit: [[[u8; 2 * MAX_SIDE]; 2]; 2],
    /// `circuit_index[dir][hole]`: position of a hole in its owner's
    /// circuit of that direction.
    pub circuit_index: [[u8; MAX_HOLES]; 2],
    pub owner: [Player; MAX_HOLES],
    /// 0 is the owner's outer row, `depths - 1` the inner row.
    pub depth: [u8; MAX_HOLES],
    pub column: [u8; MAX_HOLES],
    /// `row_of[player][depth]`: board row index (0-based) of that row.
    pub row_of: [[u8; MAX_ROWS / 2]; 2],
    /// Bit masks over holes (bit `h` is hole `h`), for occupancy tests.
    pub row_mask: [u128; MAX_ROWS],
    pub side_mask: [u128; 2],
    /// `deeper[player][depth]`: the player's rows deeper than `depth`.
    pub deeper: [[u128; MAX_ROWS / 2]; 2],
    /// `victim_holes[player][column]`: the player's holes in that column,
    /// inner row first, the order in which victims are sought.
    pub victim_holes: [[[u8; MAX_ROWS / 2]; MAX_HOLES_PER_ROW]; 2],
    /// A random key per hole for board fingerprints in cycle detection.
    pub zobrist: [u64; MAX_HOLES],
    /// `zprefix[player][dir][i]`: the sum of the keys of the first `i`
    /// holes of the doubled circuit, so a lap's fingerprint change is one
    /// subtraction.
    pub zprefix: [[[u64; 2 * MAX_SIDE + 1]; 2]; 2],
    /// `occ_prefix[player][dir][i]`: XOR of the bits of the first `i` holes
    /// of the doubled circuit. A window shorter than the circuit holds
    /// distinct holes, so the XOR of two entries is the OR of the window's
    /// bits: the holes a lap sowed, in two loads.
    pub occ_prefix: [[[u128; 2 * MAX_SIDE + 1]; 2]; 2],
    /// `bit[h]` is `1 << h`: a load is cheaper than a variable u128 shift.
    pub bit: [u128; MAX_HOLES],
    pub start: [u16; MAX_HOLES],
    pub total_seeds: u32,
}

/// A ply limit `v` too large for its field, as the range check words it.
fn ply_limit_error(v: u64) -> SettingsError {
    let info = SETTINGS.iter().find(|i| i.key == "rules.ply_limit");
    let message = match info.map(|i| i.allowed) {
        Some(Allowed::Range { lo, hi, what }) => range_problem(v as i128, lo, hi, what),
        _ => None,
    };
    SettingsError {
        problems: vec![SettingProblem {
            key: "rules.ply_limit",
            message: message.unwrap_or_else(|| format!("{v} is out of range")),
        }],
    }
}

impl Rules {
    /// The one way to rules: settings are checked, every problem reported
    /// (the board's shape and seeds, and each integer's range, as
    /// docs/RULES.md §10 allows them), before any table is built from them.
    pub fn new(
        name: String,
        description: String,
        source: String,
        settings: Settings,
    ) -> Result<Rules, SettingsError> {
        let problems = settings_problems(&settings);
        if !problems.is_empty() {
            return Err(SettingsError { problems });
        }
        let t = Tables::new(&settings);
        Ok(Rules {
            name,
            description,
            source,
            settings,
            t,
            derived: OnceLock::new(),
        })
    }

    /// These rules with their ply and lap limits replaced where given (an
    /// experiment's or a replay's override), checked as any settings are.
    pub fn with_limits(
        &self,
        ply_limit: Option<u64>,
        lap_limit: Option<u64>,
    ) -> Result<Rules, SettingsError> {
        let mut settings = self.settings.clone();
        if let Some(v) = ply_limit {
            settings.ply_limit = u32::try_from(v).map_err(|_| ply_limit_error(v))?;
        }
        if let Some(v) = lap_limit {
            settings.lap_limit = v;
        }
        self.with_settings(settings)
    }

    /// These rules with the start `layout` (`board.layout`: row 1 first,
    /// each row from column a) in place of their board's seeds, checked
    /// as any settings are (a side left without seeds is refused).
    pub fn with_layout(&self, layout: Vec<Vec<u16>>) -> Result<Rules, SettingsError> {
        let mut settings = self.settings.clone();
        settings.seeds = None;
        settings.layout = Some(layout);
        self.with_settings(settings)
    }

    /// Rules of the same name, description and source under other
    /// settings, checked as any settings are.
    pub fn with_settings(&self, settings: Settings) -> Result<Rules, SettingsError> {
        Rules::new(
            self.name.clone(),
            self.description.clone(),
            self.source.clone(),
            settings,
        )
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn description(&self) -> &str {
        &self.description
    }
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The engine's derived data for these rules, built by `build` on the
    /// first call; `None` if `build` gave none. Only one type is ever
    /// stored (the engine's lane kernel): asked for another, it gives
    /// `None`.
    pub(crate) fn derived<T: Any + Send + Sync>(
        &self,
        build: impl FnOnce(&Rules) -> Option<T>,
    ) -> Option<&T> {
        self.derived
            .get_or_init(|| build(self).map(|t| Arc::new(t) as Arc<dyn Any + Send + Sync>))
            .as_deref()
            .and_then(|d| d.downcast_ref::<T>())
    }
    /// The checked settings these rules were built from.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn rows(&self) -> usize {
        self.t.rows
    }
    pub fn cols(&self) -> usize {
        self.t.cols
    }
    pub fn hole_count(&self) -> usize {
        self.t.holes
    }
    pub fn total_seeds(&self) -> u32 {
        self.t.total_seeds
    }
    /// Row index (0-based, row 1 is 0) of a hole.
    pub fn row(&self, hole: usize) -> usize {
        hole / self.t.cols
    }
    pub fn col(&self, hole: usize) -> usize {
        hole % self.t.cols
    }
    pub fn hole_at(&self, row: usize, col: usize) -> usize {
        row * self.t.cols + col
    }
    pub fn owner(&self, hole: usize) -> Player {
        self.t.owner[hole]
    }
    /// 0 for the owner's outer row, increasing towards the centre.
    pub fn depth(&self, hole: usize) -> usize {
        self.t.depth[hole] as usize
    }
    pub fn depths(&self) -> usize {
        self.t.depths
    }
    /// A player's holes in forward sowing order.
    pub fn circuit(&self, player: Player) -> &[u8] {
        &self.t.circuit[player.index()][0][..self.t.side]
    }
    /// A player's holes in sowing order in a direction: backward follows
    /// `backward_circuit` (RULES.md §2).
    pub fn circuit_in(&self, player: Player, dir: Dir) -> &[u8] {
        &self.t.circuit[player.index()][dir.index()][..self.t.side]
    }
    pub fn canonical_string(&self) -> String {
        self.settings.canonical_string()
    }
}

impl Tables {
    fn new(s: &Settings) -> Tables {
        let mut t = Tables::empty(s.rows, s.holes);
        t.coordinates();
        t.circuits(s.backward_circuit);
        t.hashes();
        t.masks();
        t.start_seeds(s);
        t
    }

    /// The board's sizes, every table zero.
    fn empty(rows: usize, cols: usize) -> Tables {
        let depths = rows / 2;
        Tables {
            rows,
            cols,
            holes: rows * cols,
            depths,
            side: depths * cols,
            circuit: [[[0; 2 * MAX_SIDE]; 2]; 2],
            circuit_index: [[0; MAX_HOLES]; 2],
            owner: [Player::South; MAX_HOLES],
            depth: [0; MAX_HOLES],
            column: [0; MAX_HOLES],
            row_of: [[0; MAX_ROWS / 2]; 2],
            row_mask: [0; MAX_ROWS],
            side_mask: [0; 2],
            deeper: [[0; MAX_ROWS / 2]; 2],
            victim_holes: [[[0; MAX_ROWS / 2]; MAX_HOLES_PER_ROW]; 2],
            zobrist: [0; MAX_HOLES],
            zprefix: [[[0; 2 * MAX_SIDE + 1]; 2]; 2],
            occ_prefix: [[[0; 2 * MAX_SIDE + 1]; 2]; 2],
            bit: std::array::from_fn(|h| 1u128 << h),
            start: [0; MAX_HOLES],
            total_seeds: 0,
        }
    }

    /// Each player's rows by depth, and each hole's column, owner and depth.
    fn coordinates(&mut self) {
        let (rows, cols, depths) = (self.rows, self.cols, self.depths);
        for d in 0..depths {
            self.row_of[0][d] = d as u8;
            self.row_of[1][d] = (rows - 1 - d) as u8;
        }
        for h in 0..self.holes {
            let r = h / cols;
            self.column[h] = (h % cols) as u8;
            if r < depths {
                self.owner[h] = Player::South;
                self.depth[h] = r as u8;
            } else {
                self.owner[h] = Player::North;
                self.depth[h] = (rows - 1 - r) as u8;
            }
        }
    }

    /// Both players' circuits in both directions, each written twice over
    /// so a sowing can run past the end, and each hole's place in them.
    fn circuits(&mut self, backward: BackwardCircuit) {
        self.single_circuits(backward);
        self.doubled_circuits(backward);
    }

    /// Each circuit's first pass, written from the board's rows (and, for
    /// a mirrored backward circuit, their mirror image).
    fn single_circuits(&mut self, backward: BackwardCircuit) {
        let (cols, holes) = (self.cols, self.holes);
        // South's forward circuit: row 1 a→last, row 2 last→a, and so on;
        // North's is South's turned through 180 degrees (RULES.md §2).
        let mut i = 0;
        for d in 0..self.depths {
            for k in 0..cols {
                let c = if d % 2 == 0 { k } else { cols - 1 - k };
                let south = d * cols + c;
                let mirrored = d * cols + (cols - 1 - c);
                self.circuit[0][0][i] = south as u8;
                self.circuit[1][0][i] = (holes - 1 - south) as u8;
                if backward == BackwardCircuit::Mirrored {
                    self.circuit[0][1][i] = mirrored as u8;
                    self.circuit[1][1][i] = (holes - 1 - mirrored) as u8;
                }
                i += 1;
            }
        }
    }

    /// A reversed backward circuit from the forward one; every circuit's
    /// second pass and each hole's place.
    fn doubled_circuits(&mut self, backward: BackwardCircuit) {
        let side = self.side;
        for p in 0..2 {
            if backward == BackwardCircuit::Reversed {
                for j in 0..side {
                    self.circuit[p][1][j] = self.circuit[p][0][side - 1 - j];
                }
            }
            for d in 0..2 {
                for j in 0..side {
                    let h = self.circuit[p][d][j];
                    self.circuit[p][d][side + j] = h;
                    self.circuit_index[d][h as usize] = j as u8;
                }
            }
        }
    }

    /// Each hole's Zobrist key, and the sums of keys and bits along each
    /// circuit.
    fn hashes(&mut self) {
        for h in 0..MAX_HOLES {
            self.zobrist[h] = crate::rng::mix64(h as u64 ^ 0x6b61_7472_6f00_0000);
        }
        for p in 0..2 {
            for d in 0..2 {
                for i in 0..2 * self.side {
                    let hole = self.circuit[p][d][i];
                    let key = self.zobrist[hole as usize];
                    self.zprefix[p][d][i + 1] = self.zprefix[p][d][i].wrapping_add(key);
                    self.occ_prefix[p][d][i + 1] = self.occ_prefix[p][d][i] ^ 1u128 << hole;
                }
            }
        }
    }

    /// The bit masks of rows and sides, of the rows deeper than each, and
    /// each player's holes in each column, inner row first.
    fn masks(&mut self) {
        let (cols, depths) = (self.cols, self.depths);
        for h in 0..self.holes {
            self.row_mask[h / cols] |= 1u128 << h;
            self.side_mask[self.owner[h].index()] |= 1u128 << h;
        }
        for p in 0..2 {
            for d in 0..depths {
                for dd in d + 1..depths {
                    self.deeper[p][d] |= self.row_mask[self.row_of[p][dd] as usize];
                }
                for c in 0..cols {
                    self.victim_holes[p][c][depths - 1 - d] =
                        (self.row_of[p][d] as usize * cols + c) as u8;
                }
            }
        }
    }

    /// The starting seeds: the layout, else `seeds` in every hole.
    fn start_seeds(&mut self, s: &Settings) {
        match (&s.layout, s.seeds) {
            (Some(layout), _) => {
                for (r, row) in layout.iter().enumerate() {
                    for (c, &v) in row.iter().enumerate() {
                        self.start[r * self.cols + c] = v;
                    }
                }
            }
            (None, Some(v)) => self.start[..self.holes].fill(v),
            (None, None) => {}
        }
        self.total_seeds = self.start[..self.holes].iter().map(|&v| v as u32).sum();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical() -> Rules {
        Rules::new(
            "c".into(),
            String::new(),
            String::new(),
            Settings::canonical(),
        )
        .expect("the canonical settings are valid")
    }

    #[test]
    fn with_limits_checks_the_override() {
        let r = canonical();
        let capped = r.with_limits(Some(40), Some(12)).expect("in range");
        assert_eq!(
            (capped.settings().ply_limit, capped.settings().lap_limit),
            (40, 12)
        );
        assert_eq!(capped.name(), "c");
        let e = r.with_limits(Some(u32::MAX as u64 + 1), None).unwrap_err();
        assert_eq!(e.problems[0].key, "rules.ply_limit");
        assert_eq!(
            e.problems[0].message,
            "4294967296 is out of range: the ply limit must be from 1 to 100000000"
        );
        let e = r.with_limits(None, Some(0)).unwrap_err();
        assert_eq!(e.problems[0].key, "rules.lap_limit");
    }

    #[test]
    fn new_reports_every_problem() {
        let mut s = Settings::canonical();
        s.rows = 3;
        s.holes = 1;
        s.layout = Some(vec![vec![1]]);
        s.ply_limit = 0;
        let e = Rules::new("x".into(), String::new(), String::new(), s).unwrap_err();
        let keys: Vec<_> = e.problems.iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "board.rows",
                "board.holes",
                "board.layout",
                "rules.ply_limit"
            ]
        );
    }
}
