//! Growing a finished run (docs/EXPERIMENTS.md, "Growing a run"). A whole
//! run leaves `run-state.json` beside its results: every cell's exact
//! aggregate and, when the experiment keeps them, its per-game rows. Since
//! a game's seed depends only on its place (master seed, variant, matchup,
//! game index), a larger experiment of the same seed can keep those games
//! and play only the ones after them, and its files are byte for byte
//! those of a fresh run. Anything that would change a game already played
//! is refused, each reason named.

use crate::experiment::runner::{Cell, CellLayout, CellProgress, Layout, Rows, RunState, Stop};
pub use crate::files::run_state::{
    FileRef, FinishedCell, FinishedRun, RUN_STATE, RUN_STATE_FORMAT, rows_name,
};

/// Identity of a cell across two experiments: variant and matchup.
pub(crate) fn same_place(f: &FinishedCell, c: &Cell) -> bool {
    f.variant == c.rules.name()
        && f.p1 == c.p1.to_string()
        && f.p2 == c.p2.to_string()
        && f.opening_plies == c.opening_plies
}

fn place(c: &FinishedCell) -> String {
    let open = match c.opening_plies {
        0 => String::new(),
        n => format!(" +open{n}"),
    };
    format!(
        "`{}` with {} vs {}{open}",
        c.variant,
        crate::agents::label(&c.p1),
        crate::agents::label(&c.p2)
    )
}

/// Where a cell of the larger experiment gets its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// All of them from finished cell `old`: nothing to play.
    Kept(usize),
    /// Games `0..from` from finished cell `old`; games `from..` are played.
    Extend { old: usize, from: u64 },
    /// A `[precision]` cell whose rule changed so it may go on: it resumes
    /// from finished cell `old`, settled at its games, and plays on,
    /// testing the new rule at the same checkpoints.
    Continue { old: usize },
    /// A new cell: every game is played.
    New,
}

/// How the cells of an experiment (`cells`, named `name`, seeded `seed`,
/// keeping `rows`) get their games from a finished run, or every reason
/// the finished run's games cannot all be kept.
pub fn plan(
    old: &FinishedRun,
    name: &str,
    seed: u64,
    rows: Rows,
    cells: &[Cell],
) -> Result<Vec<Source>, Vec<String>> {
    let mut problems = run_problems(old, name, seed, rows, cells);
    let mut sources = Vec::with_capacity(cells.len());
    for c in cells {
        match source_in(old, c) {
            Ok(s) => sources.push(s),
            Err(p) => problems.push(p.0),
        }
    }
    if problems.is_empty() {
        Ok(sources)
    } else {
        Err(problems)
    }
}

/// What in the whole run would change games already played: its name,
/// seed or rows, or a cell it drops.
fn run_problems(
    old: &FinishedRun,
    name: &str,
    seed: u64,
    rows: Rows,
    cells: &[Cell],
) -> Vec<String> {
    let mut problems = Vec::new();
    if old.run.name != name {
        problems.push(format!(
            "they are experiment `{}`'s, this is `{name}`",
            old.run.name
        ));
    }
    if old.seed != seed {
        problems.push(format!(
            "the seed changed from {} to {seed}: every game would differ",
            old.seed
        ));
    }
    if old.rows != rows_name(rows) {
        problems.push(format!(
            "per-game rows changed from `{}` to `{}`: the games already played would have to \
             be played again to give them",
            old.rows,
            rows_name(rows)
        ));
    }
    problems.extend(dropped_cells(old, cells));
    problems
}

/// The finished run's cells that `cells` no longer has, in words.
fn dropped_cells<'a>(old: &'a FinishedRun, cells: &'a [Cell]) -> impl Iterator<Item = String> + 'a {
    old.cells
        .iter()
        .filter(|f| !cells.iter().any(|c| same_place(f, c)))
        .map(|f| {
            format!(
                "the cell {} is gone: a smaller experiment is not a grown one",
                place(f)
            )
        })
}

/// Where cell `c` gets its games from the finished run: a new cell when
/// the run has none in its place.
fn source_in(old: &FinishedRun, c: &Cell) -> Result<Source, Unkept> {
    match old.cells.iter().position(|f| same_place(f, c)) {
        Some(o) => source_of(&old.cells[o], o, c),
        None => Ok(Source::New),
    }
}

/// Why a finished cell's games cannot be kept: one line of the refusal.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Unkept(String);

/// Where cell `c` gets its games from `f`, the finished cell `o` in its
/// place, or why it cannot keep them.
fn source_of(f: &FinishedCell, o: usize, c: &Cell) -> Result<Source, Unkept> {
    if f.rules != c.rules.canonical_string() {
        return Err(Unkept(format!(
            "variant `{}` has other rules than when its games were played",
            f.variant
        )));
    }
    match (f.stop, c.stop) {
        (Stop::Games(n), Stop::Games(m)) if m == n => Ok(Source::Kept(o)),
        (Stop::Games(n), Stop::Games(m)) if m > n => Ok(Source::Extend { old: o, from: n }),
        (Stop::Games(n), Stop::Games(m)) => Err(Unkept(format!(
            "{} played {n} games; {m} would drop games already played",
            place(f)
        ))),
        (
            Stop::Precision {
                width: w0,
                max_games: m0,
                checkpoint: k0,
            },
            Stop::Precision {
                width,
                max_games,
                checkpoint,
            },
        ) => precision_source(f, o, (w0, m0, k0), (width, max_games, checkpoint)),
        _ => Err(Unkept(format!(
            "{}: the stopping rule changed between `games` and `[precision]`",
            place(f)
        ))),
    }
}

/// A `[precision]` cell kept as it is, continued under its new rule, or
/// why the games it played would not be those of a fresh run.
fn precision_source(
    f: &FinishedCell,
    o: usize,
    (w0, m0, k0): (f64, u64, u64),
    (width, max_games, checkpoint): (f64, u64, u64),
) -> Result<Source, Unkept> {
    let played = f.aggregate.games;
    if w0.to_bits() == width.to_bits() && m0 == max_games && k0 == checkpoint {
        Ok(Source::Kept(o))
    } else if checkpoint != k0 {
        Err(Unkept(format!(
            "{}: the precision checkpoint changed from {k0} to {checkpoint}: the \
             stopping tests would fall elsewhere",
            place(f)
        )))
    } else if width > w0 {
        Err(Unkept(format!(
            "{}: the precision width grew from {w0} to {width}: the cell might have \
             stopped before games already played",
            place(f)
        )))
    } else if max_games < played {
        Err(Unkept(format!(
            "{}: it played {played} games; max_games = {max_games} would drop some",
            place(f)
        )))
    } else if !played.is_multiple_of(checkpoint) && played != max_games {
        Err(Unkept(format!(
            "{}: it stopped at {played} games, between two checkpoints of \
             {checkpoint}: a fresh run would test elsewhere",
            place(f)
        )))
    } else {
        Ok(Source::Continue { old: o })
    }
}

/// The work a grown run plays: the cells with games to play, each the
/// experiment's cell `index`, starting at game `first`.
pub struct Delta<'a> {
    pub cells: Vec<Cell<'a>>,
    /// The experiment's cell each delta cell is.
    pub index: Vec<usize>,
    pub first_games: Vec<u64>,
}

pub fn delta<'a>(cells: &[Cell<'a>], sources: &[Source]) -> Delta<'a> {
    let mut d = Delta {
        cells: Vec::new(),
        index: Vec::new(),
        first_games: Vec::new(),
    };
    for (i, (c, s)) in cells.iter().zip(sources).enumerate() {
        let Some((cell, first)) = delta_cell(c, *s) else {
            continue;
        };
        d.cells.push(cell);
        d.index.push(i);
        d.first_games.push(first);
    }
    d
}

/// What cell `c` of source `s` has left to play, and its first game;
/// `None` when it keeps all its games.
fn delta_cell<'a>(c: &Cell<'a>, s: Source) -> Option<(Cell<'a>, u64)> {
    match s {
        Source::Kept(_) => None,
        Source::Extend { from, .. } => Some((
            Cell {
                stop: Stop::Games(c.stop.max_games() - from),
                ..c.clone()
            },
            from,
        )),
        Source::Continue { .. } | Source::New => Some((c.clone(), 0)),
    }
}

/// The state a grown run's delta starts from: each continued
/// `[precision]` cell settled at the games it played, their units done.
pub fn start_state(old: &FinishedRun, d: &Delta, sources: &[Source]) -> RunState {
    let layout = Layout::new(&d.cells);
    let mut state = RunState::new(d.cells.len());
    let mut first_unit = 0;
    for (k, (cell, l)) in d.cells.iter().zip(&layout.cells).enumerate() {
        if let Source::Continue { old: o } = sources[d.index[k]] {
            let agg = &old.cells[o].aggregate;
            let s = agg.games;
            state.cells[k] = CellProgress {
                settled_games: s,
                settled: agg.clone(),
                stopped: cell.stop.is_met(s, agg),
                segments: Vec::new(),
            };
            mark_units_done(&mut state, first_unit, l, s);
        }
        first_unit += l.units();
    }
    state
}

/// Marks done the units of a cell (laid out as `l`, its first unit
/// `first_unit`) whose games all come before game `s`. `plan` has made
/// sure `s` is a stopping test of the layout, so the units below it are
/// whole.
fn mark_units_done(state: &mut RunState, first_unit: u64, l: &CellLayout, s: u64) {
    let mut u = 0;
    while u < l.units() && l.unit_games(u).2 <= s {
        state.done.insert(first_unit + u);
        u += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentSpec;
    use crate::experiment::stats::Aggregate;
    use crate::files::RunHeader;
    use crate::rules::preset;

    fn finished(cells: &[Cell]) -> FinishedRun {
        let aggs: Vec<Aggregate> = cells
            .iter()
            .map(|c| Aggregate {
                games: match c.stop {
                    Stop::Games(n) => n,
                    Stop::Precision { checkpoint, .. } => 2 * checkpoint,
                },
                ..Aggregate::new()
            })
            .collect();
        FinishedRun::new(
            RunHeader::new("h", "e", Vec::new()),
            1,
            Rows::None,
            cells,
            &aggs,
            None,
        )
    }

    #[test]
    fn a_larger_experiment_keeps_extends_continues_and_adds() {
        let a = preset("katro-4x4").unwrap();
        let b = preset("katro-6x3").unwrap();
        let (r, g) = (AgentSpec::Random, AgentSpec::Greedy);
        let precision = |width, max_games| Stop::Precision {
            width,
            max_games,
            checkpoint: 100,
        };
        let cell = |rules, p1, stop| Cell {
            rules,
            p1,
            p2: &r,
            opening_plies: 0,
            stop,
            metrics: None,
        };
        let before = [
            cell(&a, &r, Stop::Games(50)),
            cell(&a, &g, Stop::Games(50)),
            cell(&b, &r, precision(0.1, 1000)),
        ];
        let old = finished(&before);
        let after = [
            cell(&b, &r, precision(0.05, 2000)),
            cell(&a, &r, Stop::Games(80)),
            cell(&a, &g, Stop::Games(50)),
            cell(&b, &g, Stop::Games(50)),
        ];
        let sources = plan(&old, "e", 1, Rows::None, &after).unwrap();
        assert_eq!(
            sources,
            [
                Source::Continue { old: 2 },
                Source::Extend { old: 0, from: 50 },
                Source::Kept(1),
                Source::New
            ]
        );
        let d = delta(&after, &sources);
        assert_eq!(d.index, [0, 1, 3]);
        assert_eq!(d.first_games, [0, 50, 0]);
        assert_eq!(d.cells[1].stop, Stop::Games(30));
        let state = start_state(&old, &d, &sources);
        assert_eq!(state.cells[0].settled_games, 200);
        // The continued cell's first 200 games are its first units, done.
        let l = Layout::new(&d.cells);
        assert_eq!(
            state.done.len(),
            (0..l.cells[0].units())
                .filter(|&u| l.cells[0].unit_games(u).2 <= 200)
                .count() as u64
        );
        state
            .check(&l, crate::experiment::runner::Part::Whole)
            .unwrap();
    }

    #[test]
    fn changes_to_games_already_played_are_each_refused() {
        let a = preset("katro-4x4").unwrap();
        let r = AgentSpec::Random;
        let cell = |stop| Cell {
            rules: &a,
            p1: &r,
            p2: &r,
            opening_plies: 0,
            stop,
            metrics: None,
        };
        let old = finished(&[cell(Stop::Games(50))]);
        let fewer = plan(&old, "e", 2, Rows::Games, &[cell(Stop::Games(40))]).unwrap_err();
        assert_eq!(fewer.len(), 3, "{fewer:?}");
        assert!(fewer[0].contains("seed changed from 1 to 2"));
        assert!(fewer[1].contains("per-game rows changed"));
        assert!(fewer[2].contains("would drop games"));
        let other = preset("katro-6x3").unwrap();
        let gone = plan(
            &old,
            "e",
            1,
            Rows::None,
            &[Cell {
                rules: &other,
                ..cell(Stop::Games(50))
            }],
        )
        .unwrap_err();
        assert!(gone[0].contains("is gone"), "{gone:?}");
        let p = |width| Stop::Precision {
            width,
            max_games: 1000,
            checkpoint: 100,
        };
        let old = finished(&[cell(p(0.1))]);
        assert!(
            plan(&old, "e", 1, Rows::None, &[cell(p(0.2))]).unwrap_err()[0].contains("width grew")
        );
        assert_eq!(
            plan(&old, "e", 1, Rows::None, &[cell(p(0.1))]).unwrap(),
            [Source::Kept(0)]
        );
        assert!(
            plan(&old, "e", 1, Rows::None, &[cell(Stop::Games(500))]).unwrap_err()[0]
                .contains("between `games` and `[precision]`")
        );
    }
}
