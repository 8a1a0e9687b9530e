//! The native half of the `katro` Python package (`katro._katro`): thin
//! wrappers over the katro library's checked `Rules`, its engine and its
//! agents. Python users import `katro`, whose pure-Python half adds NumPy,
//! pandas and OpenSpiel on top; python/README.md is the reference.

use std::sync::Arc;

use katro_core::agents::AgentSpec;
use katro_core::agents::perfect::Tables;
use katro_core::engine::notation::{board_rows, board_text, hole_name, move_name, parse_move};
use katro_core::engine::{Dir, Move, MoveReport, Player, Position};
use katro_core::rng::rng_from_seed;
use katro_core::rules::{
    InputError, LoadError, LoneSeed, PRESETS, StepSowing, parse_variant, preset, resolve,
};
use katro_core::{Rules, Status};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

mod experiments;

create_exception!(
    _katro,
    VariantError,
    PyValueError,
    "A variant that katro refuses: `str(e)` is the command line's message, \
     `e.problems` lists every problem as a dict (line, column, key, message) \
     and `e.file` names the file."
);
create_exception!(
    _katro,
    IllegalMoveError,
    PyValueError,
    "A move or action that is not legal in the state it was applied to."
);

/// The Python exception for an [`InputError`], carrying every problem.
fn variant_error(py: Python<'_>, e: &InputError) -> PyErr {
    variant_error_with(py, e.to_string(), e)
}

/// A variant refused before any file was read (an unknown preset): one
/// problem, no file.
fn unknown_variant(py: Python<'_>, message: String) -> PyErr {
    let e = InputError::single("", message.clone());
    let err = variant_error_with(py, message, &e);
    match err.value(py).setattr("file", py.None()) {
        Ok(()) => err,
        Err(other) => other,
    }
}

fn variant_error_with(py: Python<'_>, message: String, e: &InputError) -> PyErr {
    let err = VariantError::new_err(message);
    let problems = PyList::empty(py);
    let attach = || -> PyResult<()> {
        for p in &e.problems {
            let d = PyDict::new(py);
            d.set_item("line", p.line)?;
            d.set_item("column", p.column)?;
            d.set_item("key", p.key.clone())?;
            d.set_item("message", p.message.clone())?;
            problems.append(d)?;
        }
        let value = err.value(py);
        value.setattr("problems", &problems)?;
        value.setattr("file", e.file.clone())
    };
    match attach() {
        Ok(()) => err,
        Err(other) => other,
    }
}

// ---------------------------------------------------------------------------
// Actions

/// OpenSpiel and learning code want moves as small integers. With H holes
/// (numbered row-major from a1, as `Rules::hole_at`), a move from hole `f`
/// is action `f * (H + 3) + k`: k = 0 a sowing without a written
/// direction (`c1`), 1 forward (`c1+`), 2 backward (`c1-`), 3 + t a
/// lone-seed step into hole t (`c1>d2`). It depends on the board's size
/// alone, so an action means the same move in every position and every
/// katro version; python/README.md documents it.
fn actions_per_hole(rules: &Rules) -> i64 {
    rules.hole_count() as i64 + 3
}

fn action_of(rules: &Rules, mv: Move) -> i64 {
    let k = if mv.is_step() {
        3 + mv.to as i64
    } else {
        match mv.dir {
            None => 0,
            Some(Dir::Forward) => 1,
            Some(Dir::Backward) => 2,
        }
    };
    mv.from as i64 * actions_per_hole(rules) + k
}

fn move_of(rules: &Rules, action: i64) -> Option<Move> {
    let per = actions_per_hole(rules);
    if action < 0 || action >= per * rules.hole_count() as i64 {
        return None;
    }
    let (from, k) = ((action / per) as usize, action % per);
    Some(match k {
        0 => Move::sow(from, None),
        1 => Move::sow(from, Some(Dir::Forward)),
        2 => Move::sow(from, Some(Dir::Backward)),
        t => Move::step(from, (t - 3) as usize),
    })
}

/// A move given as notation text or as an action, checked against the
/// board (not yet against the position).
fn read_move(rules: &Rules, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(text) = mv.extract::<String>() {
        return parse_move(rules, &text).map_err(|e| IllegalMoveError::new_err(e.to_string()));
    }
    let action: i64 = mv.extract().map_err(|_| {
        IllegalMoveError::new_err(format!(
            "a move is notation text like \"c1\" or an integer action, not {}",
            mv.repr()
                .map_or_else(|_| "that".to_string(), |r| r.to_string())
        ))
    })?;
    move_of(rules, action).ok_or_else(|| {
        IllegalMoveError::new_err(format!(
            "action {action} is off this board: actions run from 0 to {}",
            actions_per_hole(rules) * rules.hole_count() as i64 - 1
        ))
    })
}

// ---------------------------------------------------------------------------
// Variants

/// A checked rule set: a preset, a variant file or TOML text.
#[pyclass(frozen, module = "katro._katro")]
pub struct Variant {
    rules: Arc<Rules>,
    /// The TOML the variant was read from (a preset's own file for a preset).
    text: String,
    /// What `parse_variant` was given beside the text, so that a pickled
    /// variant is read back exactly as it was.
    default_name: String,
    file: String,
}

impl Variant {
    fn from_text(py: Python<'_>, file: &str, text: &str, name: &str) -> PyResult<Variant> {
        let rules = parse_variant(file, text, name).map_err(|e| variant_error(py, &e))?;
        Ok(Variant {
            rules: Arc::new(rules),
            text: text.to_string(),
            default_name: name.to_string(),
            file: file.to_string(),
        })
    }

    fn preset_named(name: &str) -> Option<Variant> {
        let (_, text) = PRESETS.iter().find(|(n, _)| *n == name)?;
        Some(Variant {
            rules: Arc::new(preset(name)?),
            text: text.to_string(),
            default_name: name.to_string(),
            file: format!("variants/{name}.toml"),
        })
    }
}

fn preset_list() -> String {
    PRESETS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

#[pymethods]
impl Variant {
    /// A preset by name, or else a variant file by path, as `katro`'s
    /// VARIANT arguments are read.
    #[new]
    fn new(py: Python<'_>, spec: &str) -> PyResult<Variant> {
        // katro's one loader; the text it reads is kept for pickling.
        let mut read = None;
        let exists = |p: &std::path::Path| p.exists();
        let loaded = resolve(spec, &exists, &mut |path| {
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            read = Some(text.clone());
            Ok((path.to_string(), text))
        });
        match (loaded, read) {
            (Ok(rules), Some(text)) => Ok(Variant {
                rules: Arc::new(rules),
                text,
                default_name: std::path::Path::new(spec)
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or("variant")
                    .to_string(),
                file: spec.to_string(),
            }),
            (Ok(_), None) => Variant::preset(py, spec),
            (Err(e @ LoadError::Unknown { .. }), _) => Err(unknown_variant(py, e.to_string())),
            (Err(e @ LoadError::Read { .. }), _) => Err(PyOSError::new_err(e.to_string())),
            (Err(LoadError::Invalid(e)), _) => Err(variant_error(py, &e)),
        }
    }

    /// A shipped preset.
    #[staticmethod]
    fn preset(py: Python<'_>, name: &str) -> PyResult<Variant> {
        Variant::preset_named(name).ok_or_else(|| {
            unknown_variant(
                py,
                format!("unknown preset `{name}`: the presets are {}", preset_list()),
            )
        })
    }

    /// A variant file; its name defaults to the file's stem.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: &str) -> PyResult<Variant> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            PyOSError::new_err(format!("{path}: cannot read the variant file: {e}"))
        })?;
        let stem = std::path::Path::new(path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("variant");
        Variant::from_text(py, path, &text, stem)
    }

    /// A variant from TOML text; `name` stands in for a missing `name` key
    /// and `file` names the text in error messages.
    #[staticmethod]
    #[pyo3(signature = (text, name = "variant", file = "<string>"))]
    fn from_toml(py: Python<'_>, text: &str, name: &str, file: &str) -> PyResult<Variant> {
        Variant::from_text(py, file, text, name)
    }

    #[getter]
    fn name(&self) -> &str {
        self.rules.name()
    }
    #[getter]
    fn description(&self) -> &str {
        self.rules.description()
    }
    #[getter]
    fn source(&self) -> &str {
        self.rules.source()
    }
    #[getter]
    fn rows(&self) -> usize {
        self.rules.rows()
    }
    #[getter]
    fn cols(&self) -> usize {
        self.rules.cols()
    }
    /// Holes on the board (rows × columns).
    #[getter]
    fn holes(&self) -> usize {
        self.rules.hole_count()
    }
    #[getter]
    fn total_seeds(&self) -> u32 {
        self.rules.total_seeds()
    }
    #[getter]
    fn ply_limit(&self) -> u32 {
        self.rules.settings().ply_limit
    }
    #[getter]
    fn lap_limit(&self) -> u64 {
        self.rules.settings().lap_limit
    }
    /// The rules string every output row carries.
    #[getter]
    fn rules_string(&self) -> String {
        self.rules.canonical_string()
    }
    /// The TOML text the variant was read from.
    #[getter]
    fn toml(&self) -> &str {
        &self.text
    }
    /// How many actions there are: holes × (holes + 3).
    #[getter]
    fn num_actions(&self) -> i64 {
        actions_per_hole(&self.rules) * self.rules.hole_count() as i64
    }
    /// The most decisions a game can take: the ply limit, twice it when a
    /// capturing lone-seed step makes the sowing on a second decision of
    /// the same ply (`step_sowing = "chosen"`, docs/RULES.md §7).
    #[getter]
    fn max_decisions(&self) -> u64 {
        let s = self.rules.settings();
        let per_ply = if s.step_sowing == StepSowing::Chosen && s.lone_seed != LoneSeed::None {
            2
        } else {
            1
        };
        per_ply * s.ply_limit as u64
    }
    /// Length of `State.observation()`.
    #[getter]
    fn observation_size(&self) -> usize {
        observation_size(&self.rules)
    }

    /// The starting position.
    fn start(slf: &Bound<'_, Self>) -> State {
        let v = slf.get();
        State {
            variant: slf.clone().unbind(),
            rules: v.rules.clone(),
            pos: v.rules.start(),
            last: None,
            history: Vec::new(),
        }
    }

    /// The action of a move written in notation.
    fn move_to_action(&self, text: &str) -> PyResult<i64> {
        let mv =
            parse_move(&self.rules, text).map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        Ok(action_of(&self.rules, mv))
    }

    /// The notation of an action.
    fn action_to_move(&self, action: i64) -> PyResult<String> {
        let mv = move_of(&self.rules, action).ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "action {action} is off this board: actions run from 0 to {}",
                self.num_actions() - 1
            ))
        })?;
        Ok(move_name(&self.rules, mv))
    }

    fn __repr__(&self) -> String {
        format!("katro.Variant({:?})", self.rules.name())
    }

    /// Pickles as the text it was read from.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, String, String))> {
        let v = slf.get();
        Ok((
            slf.get_type().getattr("from_toml")?,
            (v.text.clone(), v.default_name.clone(), v.file.clone()),
        ))
    }
}

/// The shipped presets' names.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

// ---------------------------------------------------------------------------
// States

/// What a move did (docs/RULES.md §9).
#[pyclass(frozen, get_all, module = "katro._katro")]
pub struct Report {
    /// The move, in notation.
    r#move: String,
    laps: u64,
    captures: u32,
    seeds_captured: u64,
    seeds_sown: u64,
    /// How the move ended: `empty-hole`, `no-relay`, `step`, `continues`,
    /// `opponent-empty`, `endless` or `lap-limit`.
    end: &'static str,
}

#[pymethods]
impl Report {
    fn __repr__(&self) -> String {
        format!(
            "katro.Report(move={:?}, laps={}, captures={}, seeds_captured={}, seeds_sown={}, end={:?})",
            self.r#move, self.laps, self.captures, self.seeds_captured, self.seeds_sown, self.end
        )
    }
}

fn report(rules: &Rules, mv: Move, r: MoveReport) -> Report {
    Report {
        r#move: move_name(rules, mv),
        laps: r.laps,
        captures: r.captures,
        seeds_captured: r.seeds_captured,
        seeds_sown: r.seeds_sown,
        end: r.end.name(),
    }
}

/// Observation length: seeds per hole, the player to move (2), the hole a
/// paused turn sows on from (one per hole) and each player's fixed
/// direction (2 × 2).
fn observation_size(rules: &Rules) -> usize {
    2 * rules.hole_count() + 6
}

/// A game in progress: a position of a variant, with its moves so far.
#[pyclass(module = "katro._katro")]
pub struct State {
    variant: Py<Variant>,
    rules: Arc<Rules>,
    pos: Position,
    last: Option<(Move, MoveReport)>,
    history: Vec<Move>,
}

impl State {
    fn duplicate(&self, py: Python<'_>) -> State {
        State {
            variant: self.variant.clone_ref(py),
            rules: self.rules.clone(),
            pos: self.pos,
            last: self.last,
            history: self.history.clone(),
        }
    }

    fn status_now(&self) -> Status {
        self.rules.status(&self.pos)
    }

    /// Plays a move after checking it is legal here.
    pub(crate) fn play(&mut self, mv: Move) -> PyResult<MoveReport> {
        let legal = self.rules.legal_moves(&self.pos);
        if !legal.contains(&mv) {
            let names: Vec<String> = legal.iter().map(|&m| move_name(&self.rules, m)).collect();
            return Err(IllegalMoveError::new_err(if names.is_empty() {
                format!(
                    "{} is not legal: the game is over ({})",
                    move_name(&self.rules, mv),
                    self.status_now().name()
                )
            } else {
                format!(
                    "{} is not legal here: the legal moves are {}",
                    move_name(&self.rules, mv),
                    names.join(" ")
                )
            }));
        }
        let r = self
            .rules
            .play(&mut self.pos, mv)
            .map_err(|_| IllegalMoveError::new_err("the engine refused a listed move"))?;
        self.last = Some((mv, r));
        self.history.push(mv);
        Ok(r)
    }
}

#[pymethods]
impl State {
    #[getter]
    fn variant(&self, py: Python<'_>) -> Py<Variant> {
        self.variant.clone_ref(py)
    }
    /// The player to move: 1 or 2.
    #[getter]
    fn to_move(&self) -> u8 {
        self.pos.to_move().number()
    }
    /// `ongoing`, `won`, `ply-limit`, `endless-move` or `lap-limit`.
    #[getter]
    fn status(&self) -> &'static str {
        self.status_now().name()
    }
    /// 1 or 2 once the game is won, else None.
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.status_now().winner().map(Player::number)
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.status_now().is_over()
    }
    /// Plies played (a turn paused by a capturing step counts once).
    #[getter]
    fn plies(&self) -> u32 {
        self.pos.plies()
    }
    /// The hole a paused turn sows on from (docs/RULES.md §7), or None.
    #[getter]
    fn pending(&self) -> Option<String> {
        self.pos.pending().map(|h| hole_name(&self.rules, h))
    }
    /// The report of the last move, or None before the first.
    #[getter]
    fn last_report(&self) -> Option<Report> {
        self.last.map(|(mv, r)| report(&self.rules, mv, r))
    }
    /// The moves played so far, in notation.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|&m| move_name(&self.rules, m))
            .collect()
    }
    /// The actions played so far.
    #[getter]
    fn action_history(&self) -> Vec<i64> {
        self.history
            .iter()
            .map(|&m| action_of(&self.rules, m))
            .collect()
    }

    /// The legal moves in notation, in board order; empty once over.
    fn legal_moves(&self) -> Vec<String> {
        self.rules
            .legal_moves(&self.pos)
            .iter()
            .map(|&m| move_name(&self.rules, m))
            .collect()
    }

    /// The legal moves as actions, ascending; empty once over.
    fn legal_actions(&self) -> Vec<i64> {
        let mut a: Vec<i64> = self
            .rules
            .legal_moves(&self.pos)
            .iter()
            .map(|&m| action_of(&self.rules, m))
            .collect();
        a.sort_unstable();
        a
    }

    /// Plays a move (notation text or action) and returns its report.
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<Report> {
        let mv = read_move(&self.rules, r#move)?;
        let r = self.play(mv)?;
        Ok(report(&self.rules, mv, r))
    }

    /// An independent copy.
    fn clone(&self, py: Python<'_>) -> State {
        self.duplicate(py)
    }
    fn __copy__(&self, py: Python<'_>) -> State {
        self.duplicate(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> State {
        self.duplicate(py)
    }

    /// Seeds per hole as rows, row 1 first, each from column a.
    fn board(&self) -> Vec<Vec<u16>> {
        board_rows(&self.rules, &self.pos)
    }

    /// [`State::board`] as a NumPy array (rows × columns); needs NumPy.
    fn board_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("numpy")?.call_method1("array", (self.board(),))
    }

    /// Seeds on a player's (1 or 2) side.
    fn side_seeds(&self, player: u8) -> PyResult<u32> {
        let p = match player {
            1 => Player::South,
            2 => Player::North,
            _ => return Err(PyValueError::new_err("player is 1 or 2")),
        };
        Ok(self.rules.side_seeds(&self.pos, p))
    }

    /// A flat vector for learning code, the same from both players' views
    /// (the game has perfect information): seeds per hole (row-major from
    /// a1), then 1 for the player to move (South, North), then 1 at the
    /// hole a paused turn sows on from, then each player's direction fixed
    /// by `direction = "once-per-game"` (forward, backward per player).
    fn observation(&self) -> Vec<f32> {
        let h = self.rules.hole_count();
        let mut o = vec![0.0f32; observation_size(&self.rules)];
        for (i, slot) in o.iter_mut().take(h).enumerate() {
            *slot = self.pos.seeds(i) as f32;
        }
        o[h + self.pos.to_move().index()] = 1.0;
        if let Some(p) = self.pos.pending() {
            o[h + 2 + p] = 1.0;
        }
        for player in [Player::South, Player::North] {
            if let Some(d) = self.pos.fixed_dir(player) {
                let k = match d {
                    Dir::Forward => 0,
                    Dir::Backward => 1,
                };
                o[2 * h + 2 + 2 * player.index() + k] = 1.0;
            }
        }
        o
    }

    /// The board as docs/RULES.md prints it.
    fn board_text(&self) -> String {
        board_text(&self.rules, &self.pos)
    }

    fn __str__(&self) -> String {
        let s = self.status_now();
        let tail = match s {
            Status::Ongoing => format!("player {} to move", self.pos.to_move().number()),
            Status::Won(p) => format!("won by player {}", p.number()),
            other => other.name().to_string(),
        };
        format!(
            "{}{} after {} plies: {tail}",
            board_text(&self.rules, &self.pos),
            self.rules.name(),
            self.pos.plies()
        )
    }

    /// Pickles as its variant and its moves, replayed on unpickling: the
    /// engine's positions are only ever made by playing.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Py<Variant>, Vec<i64>))> {
        Ok((
            py.import("katro._katro")?.getattr("_replay")?,
            (self.variant.clone_ref(py), self.action_history()),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "katro.State({:?}, moves={:?})",
            self.rules.name(),
            self.history().join(" ")
        )
    }
}

/// The state after playing `actions` from the start (unpickling).
#[pyfunction]
fn _replay(variant: &Bound<'_, Variant>, actions: Vec<i64>) -> PyResult<State> {
    let mut state = Variant::start(variant);
    for a in actions {
        let mv = move_of(&state.rules, a)
            .ok_or_else(|| IllegalMoveError::new_err(format!("action {a} is off this board")))?;
        state.play(mv)?;
    }
    Ok(state)
}

// ---------------------------------------------------------------------------
// Agents

/// One of katro's agents (`random`, `greedy`, `epsilon-greedy:epsilon=0.1`,
/// `alphabeta:depth=4`, `mcts:iterations=1000`, or a strength level such as
/// `strong`), as experiments name them.
#[pyclass(frozen, module = "katro._katro")]
pub struct Agent {
    spec: AgentSpec,
    /// A `perfect` agent's solved tables, kept between calls: solved on
    /// its first move in a variant, as in a run.
    tables: Arc<Tables>,
}

#[pymethods]
impl Agent {
    #[new]
    fn new(spec: &str) -> PyResult<Agent> {
        let spec = AgentSpec::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Agent {
            spec,
            tables: Arc::default(),
        })
    }

    /// The agent's move in `state`, in notation; its random choices (ties,
    /// rollouts) come from `seed` alone. None once the game is over.
    fn choose(&self, py: Python<'_>, state: &State, seed: u64) -> Option<String> {
        let rules = state.rules.clone();
        let pos = state.pos;
        let spec = self.spec.clone();
        let tables = self.tables.clone();
        // Search agents can think for a while: let other Python threads run.
        py.detach(move || {
            let legal = rules.legal_moves(&pos);
            if legal.is_empty() {
                return None;
            }
            let mut rng = rng_from_seed(seed);
            Some(move_name(
                &rules,
                spec.choose_with(&tables, &rules, &pos, &legal, &mut rng),
            ))
        })
    }

    fn __str__(&self) -> String {
        self.spec.to_string()
    }
    fn __repr__(&self) -> String {
        format!("katro.Agent({:?})", self.spec.to_string())
    }
}

// ---------------------------------------------------------------------------

#[pymodule]
fn _katro(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("VariantError", py.get_type::<VariantError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add(
        "ExperimentError",
        py.get_type::<experiments::ExperimentError>(),
    )?;
    m.add_class::<Variant>()?;
    m.add_class::<State>()?;
    m.add_class::<Report>()?;
    m.add_class::<Agent>()?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(_replay, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::run_experiment, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::experiment_toml, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::run_experiment_text, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
