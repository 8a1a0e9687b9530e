//! The engine's and the parsers' invariants as checks that return what
//! broke instead of panicking, and a generator of random valid rule
//! settings driven by any source of choices. Shared by the property tests
//! (`tests/it/fuzz_properties.rs`, choices from proptest) and the cargo-fuzz
//! targets (`fuzz/`, choices from the fuzzer's input), so both check the
//! same things. `docs/FUZZING.md` lists what each check covers.
//!
//! The checks return `Result<_, String>` on purpose, the one exemption
//! from the typed errors of the other layers: the text describes a
//! broken invariant for a person reading a fuzz or proptest failure, and
//! no caller matches on it.

use std::collections::HashSet;

use crate::engine::{
    Dir, IllegalMove, LapKind, Move, MoveEnd, MoveReport, NO_HOLE, Observer, Player, Position,
    Silent, Status,
};
use crate::rng::{below, rng_from_seed};
use crate::rules::{
    Allowed, DirectionRule, EndlessMove, GameEnd, InputError, LoneSeed, MAX_HOLES_PER_ROW,
    MAX_ROWS, MAX_TOTAL_SEEDS, MIN_HOLES_PER_ROW, MIN_ROWS, Rules, SettingInfo, Settings,
    StepSowing, parse_variant,
};

// ---------------------------------------------------------------------------
// Random valid settings

/// A source of choices: the fuzzer's input bytes, or numbers drawn by
/// proptest. Once it runs dry it answers 0, the simplest choice, so a
/// shorter input always means a simpler case.
pub trait Draw {
    /// A number in `0..n`; `n` is at least 1.
    fn below(&mut self, n: u64) -> u64;
    /// Whether the source has run dry: a game stops there.
    fn exhausted(&self) -> bool;
}

/// Ply limit of generated rules: low, so one case runs in milliseconds.
pub const GEN_MAX_PLY_LIMIT: u64 = 300;
/// Lap limit of generated rules: low, for the same reason, and so that the
/// lap-limit ending comes up often.
pub const GEN_MAX_LAP_LIMIT: u64 = 5_000;

fn pick<T: Copy>(d: &mut impl Draw, values: &[T]) -> T {
    values[d.below(values.len() as u64) as usize]
}

/// A small count most of the time, anything up to `max` now and then.
fn count(d: &mut impl Draw, small: u64, max: u64) -> u64 {
    if d.below(8) == 0 {
        d.below(max + 1)
    } else {
        d.below(small.min(max) + 1)
    }
}

/// Random settings that `parse_variant` accepts: every board from 2×2 to
/// 8×16, every value of every rule, seeds per hole or an explicit layout
/// (small counts mostly, up to the engine's seed limit now and then), and
/// ply and lap limits of at most [`GEN_MAX_PLY_LIMIT`] and
/// [`GEN_MAX_LAP_LIMIT`].
pub fn draw_settings(d: &mut impl Draw) -> Settings {
    let rows = MIN_ROWS + 2 * d.below(((MAX_ROWS - MIN_ROWS) / 2 + 1) as u64) as usize;
    let holes =
        MIN_HOLES_PER_ROW + d.below((MAX_HOLES_PER_ROW - MIN_HOLES_PER_ROW + 1) as u64) as usize;
    let n = (rows * holes) as u64;
    let (seeds, layout) = if d.below(2) == 0 {
        (Some(1 + count(d, 5, MAX_TOTAL_SEEDS / n - 1) as u16), None)
    } else {
        (None, Some(draw_layout(d, rows, holes)))
    };
    // Every rules setting from its declaration, in declaration order: a
    // new setting is drawn with no change here.
    with_board(rows, holes, seeds, layout, &mut |info| draw_rule(d, info))
}

/// A valid layout of `rows` × `holes`, sparse or dense, so empty rows and
/// lone seeds come up.
fn draw_layout(d: &mut impl Draw, rows: usize, holes: usize) -> Vec<Vec<u16>> {
    let dense = d.below(2) == 0;
    let mut board: Vec<Vec<u16>> = (0..rows)
        .map(|_| {
            (0..holes)
                .map(|_| {
                    if dense || d.below(3) == 0 {
                        d.below(5) as u16
                    } else {
                        0
                    }
                })
                .collect()
        })
        .collect();
    // Each player must start with a seed (a file without one is
    // refused): give an empty side one, where the input says.
    for half in [0..rows / 2, rows / 2..rows] {
        if board[half.clone()].iter().flatten().all(|&v| v == 0) {
            let r = half.start + d.below((rows / 2) as u64) as usize;
            let c = d.below(holes as u64) as usize;
            board[r][c] = 1;
        }
    }
    // At most 4 × 128 seeds so far: one hole may take up the rest.
    let total: u64 = board.iter().flatten().map(|&v| v as u64).sum();
    if d.below(8) == 0 {
        let r = d.below(rows as u64) as usize;
        let c = d.below(holes as u64) as usize;
        board[r][c] += d.below(MAX_TOTAL_SEEDS - total + 1) as u16;
    }
    board
}

/// A valid value of one rules setting.
fn draw_rule(d: &mut impl Draw, info: &SettingInfo) -> i128 {
    match info.allowed {
        Allowed::Values(names) => d.below(names.len() as u64) as i128,
        Allowed::Range { lo, hi, .. } => {
            let lo = lo.max(0) as u64;
            let hi = hi.max(0) as u64;
            lo as i128
                + match info.name() {
                    // Low limits, so a case runs in milliseconds and the
                    // limit endings come up often.
                    "ply_limit" => d.below(GEN_MAX_PLY_LIMIT.min(hi - lo + 1)),
                    "lap_limit" => d.below(GEN_MAX_LAP_LIMIT.min(hi - lo + 1)),
                    _ => count(d, 2, hi - lo),
                } as i128
        }
        Allowed::Board { .. } => 0,
    }
}

/// Settings of this board, every rules setting as `choose` answers
/// ([`Settings::choose_rules`]).
fn with_board(
    rows: usize,
    holes: usize,
    seeds: Option<u16>,
    layout: Option<Vec<Vec<u16>>>,
    choose: &mut dyn FnMut(&'static SettingInfo) -> i128,
) -> Settings {
    let mut s = Settings {
        rows,
        holes,
        seeds,
        layout,
        ..Settings::canonical()
    };
    s.choose_rules(choose);
    s
}

/// Random settings, valid or not, that still fit [`Settings`]' fields:
/// rows 0 to 20, holes 0 to 40 (or a board in range, half the time), seeds or a layout or both or neither,
/// huge seed counts, ragged layouts, and every rules integer anywhere in
/// its field (zero limits included), each drawn near its range's ends
/// now and then. What [`Rules::new`] must take without panicking.
pub fn draw_any_settings(d: &mut impl Draw) -> Settings {
    // Half the boards are in range, so that valid settings come up too.
    let (rows, holes) = if d.below(2) == 0 {
        (d.below(21) as usize, d.below(41) as usize)
    } else {
        (2 + 2 * d.below(4) as usize, 2 + d.below(15) as usize)
    };
    let seeds = match d.below(4) {
        0 => None,
        1 => Some(d.below(u16::MAX as u64 + 1) as u16),
        _ => Some(d.below(6) as u16),
    };
    let layout = (d.below(2) == 0).then(|| draw_any_layout(d, rows, holes));
    with_board(rows, holes, seeds, layout, &mut |info| {
        draw_any_rule(d, info)
    })
}

/// A layout of any shape: `rows` rows or any count up to 9, each `holes`
/// wide or any width up to 19, of any seed counts.
fn draw_any_layout(d: &mut impl Draw, rows: usize, holes: usize) -> Vec<Vec<u16>> {
    let n = if d.below(2) == 0 {
        rows
    } else {
        d.below(10) as usize
    };
    (0..n)
        .map(|_| {
            let w = if d.below(4) == 0 {
                d.below(20) as usize
            } else {
                holes
            };
            (0..w)
                .map(|_| match d.below(8) {
                    0 => d.below(u16::MAX as u64 + 1) as u16,
                    1..=3 => 0,
                    _ => d.below(4) as u16,
                })
                .collect()
        })
        .collect()
}

/// Any value of one rules setting that fits its field.
fn draw_any_rule(d: &mut impl Draw, info: &SettingInfo) -> i128 {
    match info.allowed {
        Allowed::Values(names) => d.below(names.len() as u64) as i128,
        // Mostly in range, so that whole settings are valid often
        // enough for the comparison with the parser to cover both.
        Allowed::Range { lo, hi, .. } => match d.below(24) {
            0 => 0,
            1 => lo - 1,
            2 => hi + 1,
            3 => hi,
            // Anything a TOML integer holds, so the settings can be
            // written as a file; a value too big for a field keeps the
            // default.
            4 => d.below(i64::MAX as u64) as i128,
            _ => lo,
        },
        Allowed::Board { .. } => 0,
    }
}

// ---------------------------------------------------------------------------
// Variant files

/// A variant file that gives every setting of `rules` explicitly: what
/// parsing it must give back.
pub fn variant_file(rules: &Rules) -> String {
    variant_file_of(
        rules.name(),
        rules.description(),
        rules.source(),
        rules.settings(),
    )
}

/// A variant file that gives every one of `settings` explicitly, whether
/// they are valid or not.
pub use crate::rules::write_variant as variant_file_of;

/// Text for the parsers from raw fuzzer bytes: as they are when they are
/// UTF-8, else with the invalid bytes replaced, so every input reaches the
/// parser.
pub fn text_of(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// The variant_parser fuzz target: the bytes as a variant file's text
/// ([`check_variant_text`]).
pub fn check_variant_input(data: &[u8]) -> Result<(), String> {
    check_variant_text("fuzz.toml", &text_of(data)).map(drop)
}

/// An input error is one a person can act on: it names the file on every
/// line, has at least one problem, and every problem has a message and, if
/// placed, a line and column inside the text.
pub fn check_input_error(file: &str, text: &str, e: &InputError) -> Result<(), String> {
    if e.file != file {
        return Err(format!("error names file {:?}, not {file:?}", e.file));
    }
    if e.problems.is_empty() {
        return Err("an error with no problem in it".into());
    }
    let lines = text.split('\n').count();
    for p in &e.problems {
        if p.message.trim().is_empty() {
            return Err(format!("a problem with no message: {p:?}"));
        }
        // A newline only sets a quoted file's own error on lines of its
        // own; any other control character is the input's, printed raw.
        if p.message.chars().any(|c| c.is_control() && c != '\n')
            || p.key
                .as_deref()
                .is_some_and(|k| k.chars().any(char::is_control))
        {
            return Err(format!("a control character in {p:?}"));
        }
        if let Some(line) = p.line
            && !(1..=lines).contains(&line)
        {
            return Err(format!("line {line} of a {lines}-line text: {p:?}"));
        }
        if p.column == Some(0) || (p.column.is_some() && p.line.is_none()) {
            return Err(format!("bad column: {p:?}"));
        }
    }
    // Each problem's first line names the file; a problem may quote
    // another file's error on the lines after it.
    for p in &e.problems {
        let alone = InputError {
            file: e.file.clone(),
            problems: vec![p.clone()],
        };
        if !alone.to_string().starts_with(file) {
            return Err(format!("error does not name the file: {alone}"));
        }
    }
    Ok(())
}

/// Parses a variant file's text, which must not panic. An error must be
/// well-formed ([`check_input_error`]); accepted rules must be consistent
/// ([`check_rules`]). Returns the rules if the text was accepted.
pub fn check_variant_text(file: &str, text: &str) -> Result<Option<Rules>, String> {
    match parse_variant(file, text, "unnamed") {
        Err(e) => check_input_error(file, text, &e).map(|()| None),
        Ok(rules) => check_rules(&rules).map(|()| Some(rules)),
    }
}

/// Accepted rules are within every limit the parser promises, their start
/// position holds the seeds they say, and writing them out as a file and
/// parsing that gives the same rules.
pub fn check_rules(rules: &Rules) -> Result<(), String> {
    let s = &rules.settings();
    let fail = |what: &str| format!("{what}: {}", s.canonical_string());
    let layout_total = seeds_set_out(s).map_err(fail)?;
    if layout_total > MAX_TOTAL_SEEDS || layout_total != rules.total_seeds() as u64 {
        return Err(format!(
            "{layout_total} seeds set out, total_seeds {}: {}",
            rules.total_seeds(),
            s.canonical_string()
        ));
    }
    if s.min_victim_seeds == 0 || s.min_victim_seeds_after_empty == 0 {
        return Err(fail("minimum victim seeds of 0"));
    }
    if s.ply_limit == 0 || s.lap_limit == 0 {
        return Err(fail("a limit of 0"));
    }
    check_start_and_name(rules).map_err(fail)?;
    check_round_trip(rules)
}

/// The seeds the board settings set out, once they are checked to be in
/// range; else what is wrong with them.
fn seeds_set_out(s: &Settings) -> Result<u64, &'static str> {
    if !(MIN_ROWS..=MAX_ROWS).contains(&s.rows) || !s.rows.is_multiple_of(2) {
        return Err("rows out of range");
    }
    if !(MIN_HOLES_PER_ROW..=MAX_HOLES_PER_ROW).contains(&s.holes) {
        return Err("holes out of range");
    }
    match (&s.seeds, &s.layout) {
        (Some(0), None) => Err("zero seeds a hole"),
        (Some(v), None) => Ok((s.rows * s.holes) as u64 * *v as u64),
        (None, Some(l)) => {
            if l.len() != s.rows || l.iter().any(|r| r.len() != s.holes) {
                return Err("layout does not fit the board");
            }
            let half = s.rows / 2;
            if l[..half].iter().flatten().all(|&v| v == 0)
                || l[half..].iter().flatten().all(|&v| v == 0)
            {
                return Err("a player starts with no seed");
            }
            Ok(l.iter().flatten().map(|&v| v as u64).sum())
        }
        _ => Err("needs exactly one of seeds and layout"),
    }
}

/// The start position holds every seed, is South's first move and gives
/// each player a seed; the canonical string is one well-formed line.
fn check_start_and_name(rules: &Rules) -> Result<(), &'static str> {
    let start = rules.start();
    if seed_total(rules, &start) != rules.total_seeds() {
        return Err("the start position does not hold total_seeds");
    }
    if start.to_move() != Player::South || start.plies() != 0 || start.ended().is_some() {
        return Err("the start position is not South's first move");
    }
    for p in [Player::South, Player::North] {
        if rules.side_seeds(&start, p) == 0 {
            return Err("a player starts with no seed");
        }
    }
    let canonical = rules.canonical_string();
    if !canonical.starts_with("katro(") || !canonical.ends_with(')') || canonical.contains('\n') {
        return Err("canonical string malformed");
    }
    Ok(())
}

/// Writing the rules out as a file and parsing that gives them back.
fn check_round_trip(rules: &Rules) -> Result<(), String> {
    let s = &rules.settings();
    let text = variant_file(rules);
    let again = parse_variant("round-trip.toml", &text, "unnamed")
        .map_err(|e| format!("written rules do not parse back: {e}\n{text}"))?;
    if again.settings() != *s
        || again.name() != rules.name()
        || again.description() != rules.description()
        || again.source() != rules.source()
    {
        return Err(format!(
            "rules changed in a round trip through\n{text}\nfrom {s:?}\nto {:?}",
            again.settings()
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Engine invariants

pub fn seed_total(rules: &Rules, pos: &Position) -> u32 {
    (0..rules.hole_count()).map(|h| pos.seeds(h) as u32).sum()
}

/// A status turned through 180 degrees: the winner changes sides.
fn mirror_status(s: Status) -> Status {
    match s {
        Status::Won(p) => Status::Won(p.other()),
        other => other,
    }
}

/// Tallies what an observer is told, to compare with the move's report.
#[derive(Default, Debug, PartialEq)]
struct Tally {
    laps: u64,
    landings: u64,
    seeds_sown: u64,
    captures: u32,
    seeds_captured: u64,
    ends: Vec<MoveEnd>,
}

impl Observer for Tally {
    fn lap(&mut self, _kind: LapKind, _lifted_from: usize, seeds: u64) {
        self.laps += 1;
        self.seeds_sown += seeds;
    }
    fn landed(&mut self, _hole: usize, _was_empty: bool) {
        self.landings += 1;
    }
    fn capture(&mut self, _landing: usize, _landing_seeds: u64, victims: &[(usize, u16)]) {
        self.captures += 1;
        self.seeds_captured += victims.iter().map(|&(_, s)| s as u64).sum::<u64>();
    }
    fn end(&mut self, end: MoveEnd) {
        self.ends.push(end);
    }
}

/// Everything that must hold of a position reached by play: the rules'
/// seeds all on the board, status and legal moves agree, and what
/// [`check_layout`] checks of any layout.
pub fn check_position(rules: &Rules, pos: &Position) -> Result<(), String> {
    let total = seed_total(rules, pos);
    if total != rules.total_seeds() {
        return Err(format!("{total} seeds, not {}", rules.total_seeds()));
    }
    let legal = rules.legal_moves(pos);
    check_status(rules, pos, rules.status(pos), legal.as_slice())?;
    check_listed(rules, pos, legal.as_slice(), From::Play)
}

/// What must hold of any layout, reachable by play or not, however many
/// seeds it holds: the turned position has the turned moves and status,
/// and every listed move passes [`check_move`]'s checks, with the layout's
/// own seeds conserved. Left out, as they assume a game played from the
/// start: the rules' seed total and the status's agreement with how the
/// game got here (a drawn layout can leave the player who just moved
/// without a seed, which play never does).
pub fn check_layout(rules: &Rules, pos: &Position) -> Result<(), String> {
    let legal = rules.legal_moves(pos);
    check_listed(rules, pos, legal.as_slice(), From::Layout)
}

/// Where a checked position came from, so the checks that assume a game
/// played from the start are only made of one.
#[derive(Clone, Copy, PartialEq)]
enum From {
    Play,
    Layout,
}

fn check_listed(rules: &Rules, pos: &Position, legal: &[Move], from: From) -> Result<(), String> {
    let status = rules.status(pos);
    let mirrored = rules.mirror(pos);
    if rules.mirror(&mirrored) != *pos {
        return Err("mirroring twice changes the position".into());
    }
    let mut turned: Vec<Move> = legal.iter().map(|&m| rules.mirror_move(m)).collect();
    turned.sort();
    let mut mirror_legal = rules.legal_moves(&mirrored).to_vec();
    mirror_legal.sort();
    if turned != mirror_legal {
        return Err(format!(
            "legal moves of the mirror {mirror_legal:?}, not the mirrored {turned:?}"
        ));
    }
    if rules.status(&mirrored) != mirror_status(status) {
        return Err(format!(
            "status of the mirror {:?}, not {:?}",
            rules.status(&mirrored),
            mirror_status(status)
        ));
    }
    for &mv in legal {
        check_move_from(rules, pos, mv, from)?;
    }
    Ok(())
}

/// The status agrees with the legal moves and how the game got here, and
/// every listed move starts from a seed of the mover's.
fn check_status(
    rules: &Rules,
    pos: &Position,
    status: Status,
    legal: &[Move],
) -> Result<(), String> {
    let p = pos.to_move();
    let unique: HashSet<&Move> = legal.iter().collect();
    if unique.len() != legal.len() {
        return Err(format!("a move listed twice: {legal:?}"));
    }
    if status.is_over() != legal.is_empty() {
        return Err(format!("status {status:?} with legal moves {legal:?}"));
    }
    if rules.side_seeds(pos, p) == 0 && !legal.is_empty() {
        return Err("moves listed for a player with no seed".into());
    }
    check_ending(rules, pos, status)?;
    if pos.plies() >= rules.settings().ply_limit && !legal.is_empty() {
        return Err("moves listed after the ply limit".into());
    }
    if let Some(h) = pos.pending() {
        // The second decision of a turn: only the two continuations.
        let expected = [
            Move::sow(h, Some(Dir::Forward)),
            Move::sow(h, Some(Dir::Backward)),
        ];
        if legal != expected || rules.owner(h) != p || pos.seeds(h) == 0 {
            return Err(format!("continuations of {h}: {legal:?}"));
        }
        return Ok(());
    }
    check_move_shapes(rules, pos, legal)
}

/// A game over is over for a reason the position shows: a win on the
/// winner's opponent's turn (but for a move that ended the game), the ply
/// limit reached, or a move that ended it.
fn check_ending(rules: &Rules, pos: &Position, status: Status) -> Result<(), String> {
    let p = pos.to_move();
    match status {
        Status::Won(w) if pos.ended().is_none() && w != p.other() => {
            Err(format!("{w:?} won on their own turn"))
        }
        Status::PlyLimit if pos.plies() < rules.settings().ply_limit => {
            Err(format!("ply limit at ply {}", pos.plies()))
        }
        Status::EndlessMove | Status::LapLimit if pos.ended().is_none() => {
            Err(format!("{status:?} with no move that ended the game"))
        }
        _ => Ok(()),
    }
}

/// Every listed move (outside a turn's second decision) starts from a
/// seed of the mover's, and is a lone seed's step or a sowing with a
/// direction just when the mover chooses one.
fn check_move_shapes(rules: &Rules, pos: &Position, legal: &[Move]) -> Result<(), String> {
    let p = pos.to_move();
    let choose = match rules.settings().direction {
        DirectionRule::Forward => false,
        DirectionRule::EachMove => true,
        DirectionRule::OncePerGame => pos.fixed_dir(p).is_none(),
    };
    for mv in legal {
        let from = mv.from as usize;
        if from >= rules.hole_count() || rules.owner(from) != p || pos.seeds(from) == 0 {
            return Err(format!("{mv:?} does not start from a seed of the mover's"));
        }
        if mv.is_step() {
            let to = mv.to as usize;
            if rules.settings().lone_seed == LoneSeed::None
                || mv.dir.is_some()
                || to >= rules.hole_count()
                || rules.owner(to) != p
                || rules.depth(to) != rules.depth(from) + 1
                || rules.side_seeds(pos, p) != 1
            {
                return Err(format!("{mv:?} is not a lone seed's step"));
            }
        } else if mv.dir.is_some() != choose {
            return Err(format!("{mv:?}: direction given where choose is {choose}"));
        }
    }
    Ok(())
}

/// Playing a listed move: `play` accepts it, seeds are conserved, the
/// turn passes, the report is coherent and matches what an observer is
/// told, the unchecked path agrees, and the turned move on the turned
/// position gives the turned result and the same report.
pub fn check_move(
    rules: &Rules,
    pos: &Position,
    mv: Move,
) -> Result<(Position, MoveReport), String> {
    check_move_from(rules, pos, mv, From::Play)
}

fn check_move_from(
    rules: &Rules,
    pos: &Position,
    mv: Move,
    from: From,
) -> Result<(Position, MoveReport), String> {
    let mut after = *pos;
    let report = rules
        .play(&mut after, mv)
        .map_err(|_| format!("listed move {mv:?} rejected"))?;
    let played = Played {
        rules,
        pos,
        mv,
        after: &after,
        report: &report,
        from,
    };
    played
        .check_turn()
        .and_then(|()| played.check_opponent_empty())
        .and_then(|()| played.check_fixed_dirs())
        .and_then(|()| played.check_report())
        .and_then(|()| played.check_other_paths())
        .and_then(|()| played.check_mirror())
        .map_err(|what| format!("{mv:?} ({report:?}): {what}"))?;
    Ok((after, report))
}

/// A move played, for `check_move`'s steps: each returns what broke.
struct Played<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    mv: Move,
    after: &'a Position,
    report: &'a MoveReport,
    from: From,
}

impl Played<'_> {
    /// Seeds conserved, and the turn passed (or paused, where a chosen
    /// step sowing pauses it).
    fn check_turn(&self) -> Result<(), String> {
        let (rules, pos, mv, after, report) =
            (self.rules, self.pos, self.mv, self.after, self.report);
        let s = &rules.settings();
        let seeds = match self.from {
            From::Play => rules.total_seeds(),
            From::Layout => seed_total(rules, pos),
        };
        if seed_total(rules, after) != seeds {
            return Err(format!("{} seeds after", seed_total(rules, after)));
        }
        let p = pos.to_move();
        if report.end == MoveEnd::Continues {
            if s.step_sowing != StepSowing::Chosen
                || !mv.is_step()
                || after.pending() != Some(mv.to as usize)
                || after.plies() != pos.plies()
                || after.to_move() != p
                || report.captures != 1
                || report.laps != 0
            {
                return Err("a paused turn that should not pause".into());
            }
        } else if after.plies() != pos.plies() + 1
            || after.to_move() != p.other()
            || after.pending().is_some()
        {
            return Err("the turn did not pass".into());
        }
        Ok(())
    }

    /// Under `opponent-empty` a move leaves the opponent without a seed
    /// exactly when it ends that way, and wins.
    fn check_opponent_empty(&self) -> Result<(), String> {
        let (rules, after, report) = (self.rules, self.after, self.report);
        let s = &rules.settings();
        let p = self.pos.to_move();
        // A layout may start with the opponent already empty, which play
        // never leaves (the move that emptied them ended the game): the
        // move did not empty them, so nothing is said of it.
        if self.from == From::Layout && rules.side_seeds(self.pos, p.other()) == 0 {
            return Ok(());
        }
        let emptied = rules.side_seeds(after, p.other()) == 0;
        if (report.end == MoveEnd::OpponentEmpty)
            != (emptied && s.game_end == GameEnd::OpponentEmpty && after.pending().is_none())
            || (report.end == MoveEnd::OpponentEmpty && rules.status(after) != Status::Won(p))
        {
            return Err(format!(
                "opponent emptied {emptied}, status {:?}",
                rules.status(after)
            ));
        }
        Ok(())
    }

    /// The mover's direction fixed by their first sowing under
    /// `once-per-game`, the other's unchanged.
    fn check_fixed_dirs(&self) -> Result<(), String> {
        let (pos, mv, after) = (self.pos, self.mv, self.after);
        let p = pos.to_move();
        let fixed = match (
            self.rules.settings().direction,
            mv.is_step(),
            pos.fixed_dir(p),
        ) {
            (DirectionRule::OncePerGame, false, None) if pos.pending().is_none() => {
                Some(mv.dir.unwrap_or(Dir::Forward))
            }
            (_, _, d) => d,
        };
        if after.fixed_dir(p) != fixed || after.fixed_dir(p.other()) != pos.fixed_dir(p.other()) {
            return Err(format!(
                "fixed directions {:?}",
                [after.fixed_dir(p), fixed]
            ));
        }
        Ok(())
    }

    /// The report's counts hang together, and the game ended exactly
    /// when the report says so.
    fn check_report(&self) -> Result<(), String> {
        let (rules, mv, after, report) = (self.rules, self.mv, self.after, self.report);
        let s = &rules.settings();
        if report.laps > s.lap_limit
            || (report.end == MoveEnd::LapLimit && report.laps != s.lap_limit)
            // A capture that ends the game or pauses the turn sows no lap.
            || report.captures as u64 > report.laps + 1
            || report.seeds_sown < report.laps
            || (report.end == MoveEnd::Step) != (mv.is_step() && report.laps == 0 && report.captures == 0)
            || (!mv.is_step() && report.laps == 0)
        {
            return Err("incoherent report".into());
        }
        let p = self.pos.to_move();
        let ended = match report.end {
            MoveEnd::Endless => Some(match s.endless_move {
                EndlessMove::Undecided => Status::EndlessMove,
                EndlessMove::MoverLoses => Status::Won(p.other()),
            }),
            MoveEnd::LapLimit => Some(Status::LapLimit),
            _ => None,
        };
        if after.ended().is_some() != ended.is_some()
            || ended.is_some_and(|e| rules.status(after) != e)
        {
            return Err(format!(
                "ended {:?}, status {:?}",
                after.ended(),
                rules.status(after)
            ));
        }
        Ok(())
    }

    /// `play_unchecked` and `play_observed` play the same move, and the
    /// observer is told the report's laps, seeds and captures.
    fn check_other_paths(&self) -> Result<(), String> {
        let (rules, pos, mv, after, report) =
            (self.rules, self.pos, self.mv, self.after, self.report);
        let mut unchecked = *pos;
        if rules.play_unchecked(&mut unchecked, mv, &mut Silent) != *report || unchecked != *after {
            return Err("play_unchecked differs".into());
        }
        let mut observed = *pos;
        let mut tally = Tally::default();
        if rules.play_observed(&mut observed, mv, &mut tally) != Ok(*report) || observed != *after {
            return Err("play_observed differs".into());
        }
        // An endless move's report stops at the first repeat, which the
        // observer has already been taken past: only its ending is
        // comparable.
        let expected = Tally {
            laps: report.laps,
            landings: report.laps,
            seeds_sown: report.seeds_sown,
            captures: report.captures,
            seeds_captured: report.seeds_captured,
            ends: vec![report.end],
        };
        if tally.ends != expected.ends || (report.end != MoveEnd::Endless && tally != expected) {
            return Err(format!("observer told {tally:?}"));
        }
        Ok(())
    }

    /// The turned move on the turned position gives the turned position
    /// and the same report.
    fn check_mirror(&self) -> Result<(), String> {
        let rules = self.rules;
        let mut mirror_after = rules.mirror(self.pos);
        let mirror_report = rules.play(&mut mirror_after, rules.mirror_move(self.mv));
        if mirror_report != Ok(*self.report) {
            return Err(format!("the mirrored move gives {mirror_report:?}"));
        }
        if mirror_after != rules.mirror(self.after) {
            return Err("the mirrored move gives another position".into());
        }
        Ok(())
    }
}

/// A move that is not listed is refused and changes nothing.
pub fn check_rejected(rules: &Rules, pos: &Position, mv: Move) -> Result<(), String> {
    if rules.legal_moves(pos).contains(&mv) {
        return Ok(());
    }
    let mut p = *pos;
    let r = rules.play(&mut p, mv);
    if r != Err(IllegalMove(mv)) || p != *pos {
        return Err(format!("unlisted {mv:?} gave {r:?}"));
    }
    Ok(())
}

/// What a checked game came to.
#[derive(Clone, Copy, Debug)]
pub struct GameSummary {
    pub plies: u32,
    pub status: Status,
    /// Listed moves played and checked, over all plies.
    pub moves_checked: u64,
}

/// Plays a game from the start, each move chosen by `d`, until the game
/// ends or `d` runs dry, checking at every ply: [`check_position`] (which
/// plays and checks every listed move), that a few arbitrary unlisted
/// moves are refused, and that `random_move` draws the listed move that
/// `legal[below(rng, len)]` draws.
pub fn check_game(rules: &Rules, d: &mut impl Draw) -> Result<GameSummary, String> {
    let mut pos = rules.start();
    let mut moves_checked = 0;
    loop {
        let ply = pos.plies();
        let at = |e: String| format!("ply {ply} of {}: {e}", rules.canonical_string());
        check_position(rules, &pos).map_err(at)?;
        let legal = rules.legal_moves(&pos);
        moves_checked += legal.len() as u64;
        for _ in 0..3 {
            let mv = Move {
                from: d.below(256) as u8,
                to: if d.below(2) == 0 {
                    NO_HOLE
                } else {
                    d.below(256) as u8
                },
                dir: pick(d, &[None, Some(Dir::Forward), Some(Dir::Backward)]),
            };
            check_rejected(rules, &pos, mv).map_err(at)?;
        }
        let seed = d.below(u64::MAX);
        let (mut a, mut b) = (rng_from_seed(seed), rng_from_seed(seed));
        let drawn = rules.random_move(&pos, &mut a);
        let listed = (!legal.is_empty()).then(|| legal[below(&mut b, legal.len())]);
        if drawn != listed || a != b {
            return Err(at(format!("random_move {drawn:?}, listed draw {listed:?}")));
        }
        if legal.is_empty() || d.exhausted() {
            return Ok(GameSummary {
                plies: pos.plies(),
                status: rules.status(&pos),
                moves_checked,
            });
        }
        let mv = legal[d.below(legal.len() as u64) as usize];
        rules.play(&mut pos, mv).map_err(|e| at(format!("{e:?}")))?;
    }
}
