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
) -> Result<Vec<Source>, Vec<Unkept>> {
    let mut problems = run_problems(old, name, seed, rows, cells);
    let mut sources = Vec::with_capacity(cells.len());
    for c in cells {
        match source_in(old, c) {
            Ok(s) => sources.push(s),
            Err(p) => problems.push(p),
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
) -> Vec<Unkept> {
    let mut problems = Vec::new();
    if old.run.name != name {
        problems.push(Unkept::OtherExperiment {
            was: old.run.name.clone(),
            now: name.to_string(),
        });
    }
    if old.seed != seed {
        problems.push(Unkept::Seed {
            was: old.seed,
            now: seed,
        });
    }
    if old.rows != rows_name(rows) {
        problems.push(Unkept::Rows {
            was: old.rows.clone(),
            now: rows_name(rows).to_string(),
        });
    }
    problems.extend(dropped_cells(old, cells));
    problems
}

/// The finished run's cells that `cells` no longer has.
fn dropped_cells<'a>(old: &'a FinishedRun, cells: &'a [Cell]) -> impl Iterator<Item = Unkept> + 'a {
    old.cells
        .iter()
        .filter(|f| !cells.iter().any(|c| same_place(f, c)))
        .map(|f| Unkept::CellGone { cell: place(f) })
}

/// Where cell `c` gets its games from the finished run: a new cell when
/// the run has none in its place.
fn source_in(old: &FinishedRun, c: &Cell) -> Result<Source, Unkept> {
    match old.cells.iter().position(|f| same_place(f, c)) {
        Some(o) => source_of(&old.cells[o], o, c),
        None => Ok(Source::New),
    }
}

/// Why games already played cannot all be kept: one line of the refusal
/// (`Refusal::WouldChangePlayed`). `cell` names a finished cell as
/// `place` writes it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unkept {
    #[error("they are experiment `{was}`'s, this is `{now}`")]
    OtherExperiment { was: String, now: String },
    #[error("the seed changed from {was} to {now}: every game would differ")]
    Seed { was: u64, now: u64 },
    /// The per-game rows kept, as `rows_name` writes them: `none`, `games`
    /// or `games-with-moves`.
    #[error(
        "per-game rows changed from `{was}` to `{now}`: the games already played would have to \
         be played again to give them"
    )]
    Rows { was: String, now: String },
    /// `builds`: every build that played the finished run, one of them
    /// not this one ([`crate::files::BUILD`]); `keep`: the command that
    /// keeps them anyway.
    #[error(
        "they were played by katro build {}, not this build {}: the new games may not match \
         them (`{keep}` keeps them anyway)",
        .builds.join(", "),
        crate::files::BUILD
    )]
    OtherBuild { builds: Vec<String>, keep: String },
    #[error("the cell {cell} is gone: a smaller experiment is not a grown one")]
    CellGone { cell: String },
    #[error("variant `{variant}` has other rules than when its games were played")]
    OtherRules { variant: String },
    #[error("{cell} played {played} games; {asked} would drop games already played")]
    FewerGames {
        cell: String,
        played: u64,
        asked: u64,
    },
    #[error("{cell}: the stopping rule changed between `games` and `[precision]`")]
    StopKind { cell: String },
    #[error(
        "{cell}: the precision checkpoint changed from {was} to {now}: the stopping tests \
         would fall elsewhere"
    )]
    Checkpoint { cell: String, was: u64, now: u64 },
    #[error(
        "{cell}: the precision width grew from {was} to {now}: the cell might have stopped \
         before games already played"
    )]
    Wider { cell: String, was: f64, now: f64 },
    #[error("{cell}: it played {played} games; max_games = {max_games} would drop some")]
    MaxGames {
        cell: String,
        played: u64,
        max_games: u64,
    },
    #[error(
        "{cell}: it stopped at {played} games, between two checkpoints of {checkpoint}: a \
         fresh run would test elsewhere"
    )]
    BetweenCheckpoints {
        cell: String,
        played: u64,
        checkpoint: u64,
    },
}

/// Where cell `c` gets its games from `f`, the finished cell `o` in its
/// place, or why it cannot keep them.
fn source_of(f: &FinishedCell, o: usize, c: &Cell) -> Result<Source, Unkept> {
    if f.rules != c.rules.canonical_string() {
        return Err(Unkept::OtherRules {
            variant: f.variant.clone(),
        });
    }
    match (f.stop, c.stop) {
        (Stop::Games(n), Stop::Games(m)) if m == n => Ok(Source::Kept(o)),
        (Stop::Games(n), Stop::Games(m)) if m > n => Ok(Source::Extend { old: o, from: n }),
        (Stop::Games(n), Stop::Games(m)) => Err(Unkept::FewerGames {
            cell: place(f),
            played: n,
            asked: m,
        }),
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
        _ => Err(Unkept::StopKind { cell: place(f) }),
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
        Err(Unkept::Checkpoint {
            cell: place(f),
            was: k0,
            now: checkpoint,
        })
    } else if width > w0 {
        Err(Unkept::Wider {
            cell: place(f),
            was: w0,
            now: width,
        })
    } else if max_games < played {
        Err(Unkept::MaxGames {
            cell: place(f),
            played,
            max_games,
        })
    } else if !played.is_multiple_of(checkpoint) && played != max_games {
        Err(Unkept::BetweenCheckpoints {
            cell: place(f),
            played,
            checkpoint,
        })
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
            balance_margin: None,
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
    fn games_of_another_build_name_every_build_and_the_way_out() {
        let other = Unkept::OtherBuild {
            builds: vec!["src-0000000000000000".into(), "src-1111111111111111".into()],
            keep: "katro run e.toml --allow-other-build".into(),
        };
        assert_eq!(
            other.to_string(),
            format!(
                "they were played by katro build src-0000000000000000, src-1111111111111111, \
                 not this build {}: the new games may not match them (`katro run e.toml \
                 --allow-other-build` keeps them anyway)",
                crate::files::BUILD
            )
        );
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
            balance_margin: None,
        };
        let old = finished(&[cell(Stop::Games(50))]);
        let fewer = plan(&old, "e", 2, Rows::Games, &[cell(Stop::Games(40))]).unwrap_err();
        assert_eq!(fewer.len(), 3, "{fewer:?}");
        assert_eq!(fewer[0], Unkept::Seed { was: 1, now: 2 });
        assert!(matches!(&fewer[1], Unkept::Rows { was, .. } if was == "none"));
        assert!(matches!(
            fewer[2],
            Unkept::FewerGames {
                played: 50,
                asked: 40,
                ..
            }
        ));
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
        assert!(matches!(gone[0], Unkept::CellGone { .. }), "{gone:?}");
        let p = |width| Stop::Precision {
            width,
            max_games: 1000,
            checkpoint: 100,
        };
        let old = finished(&[cell(p(0.1))]);
        assert!(matches!(
            plan(&old, "e", 1, Rows::None, &[cell(p(0.2))]).unwrap_err()[0],
            Unkept::Wider { .. }
        ));
        assert_eq!(
            plan(&old, "e", 1, Rows::None, &[cell(p(0.1))]).unwrap(),
            [Source::Kept(0)]
        );
        assert!(
            plan(&old, "e", 1, Rows::None, &[cell(Stop::Games(500))]).unwrap_err()[0]
                == Unkept::StopKind {
                    cell: "`katro-4x4` with random vs random".into()
                }
        );
    }
}
