//! `katro agents`: the strength levels ([`crate::agents::levels`]), each
//! name with its agent string; with a tournament's ratings.csv, each
//! level's rating on katro-6x6 as that file writes it; with a number of
//! games, the CPU time a game of each level's self-play on katro-6x6 took.
//! The ratings file is read through the [`Store`]; the CPU clock is the
//! caller's. Timings are printed, never written to a file.

use std::fmt;
use std::path::Path;

use super::rate::{columns, read_csv};
use super::report_files::read_needed;
use super::{Error, Progress, Refusal};
use crate::agents::levels::{LEVELS, Level};
use crate::experiment::plan::matchup_label;
use crate::game::play_game;
use crate::rng::game_seed;
use crate::rules::{Rules, preset};
use crate::store::Store;

/// The variant the ratings are read for and the timings measured on.
pub const VARIANT: &str = "katro-6x6";
/// Random plies opening each measured game, as experiments/strong-play.toml.
pub const OPENING_PLIES: u32 = 4;
/// The master seed of the measured games.
pub const SEED: u64 = 1;

/// What `katro agents` is asked for.
pub struct AgentsOptions {
    /// A ratings.csv (`--ratings`): each level's rating on [`VARIANT`].
    pub ratings: Option<String>,
    /// Self-play games of each level to time (`--measure`).
    pub measure: Option<u64>,
    /// The process's CPU seconds so far, where the system says.
    pub cpu_seconds: fn() -> Option<f64>,
}

/// A level's rating as its ratings.csv writes it, the text unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rated {
    pub rating: String,
    pub low: String,
    pub high: String,
}

/// What the level's self-play games cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub games: u64,
    /// Plies of all the games.
    pub plies: u64,
    /// CPU seconds of all the games; `None` without a CPU clock.
    pub cpu_seconds: Option<f64>,
}

/// One level's row.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelRow {
    pub level: Level,
    /// `None` when asked for and the file has no row of the level.
    pub rating: Option<Rated>,
    pub measured: Option<Measured>,
}

/// What `katro agents` prints: a row a level, weakest first.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelTable {
    pub rows: Vec<LevelRow>,
    /// The ratings file, when ratings were asked for.
    pub ratings: Option<String>,
    /// The games measured a level, when timings were asked for.
    pub measure: Option<u64>,
}

/// The levels, with the ratings and timings asked for. Each level's
/// games are played one after another on the calling thread, and a note
/// tells `progress` before each level.
pub fn agents(
    store: &dyn Store,
    o: &AgentsOptions,
    progress: &dyn Progress,
) -> Result<LevelTable, Error> {
    let ratings = match &o.ratings {
        Some(file) => {
            let needs = "`katro agents --ratings` needs a ratings.csv that `katro run` wrote, \
                         such as results/strong-play/ratings.csv"
                .to_string();
            let bytes = read_needed(store, Path::new(file), needs)?;
            Some(level_ratings(file, &bytes)?)
        }
        None => None,
    };
    let rules = preset(VARIANT).expect("a shipped preset");
    let mut rows = Vec::new();
    for (i, level) in LEVELS.iter().enumerate() {
        let measured = o.measure.map(|games| {
            progress.note(&format!(
                "measuring {}: {} of self-play on {VARIANT}",
                level.name,
                super::plural(games, "game")
            ));
            measure(&rules, level, games, o.cpu_seconds)
        });
        rows.push(LevelRow {
            level: *level,
            rating: ratings.as_ref().and_then(|r| r[i].clone()),
            measured,
        });
    }
    Ok(LevelTable {
        rows,
        ratings: o.ratings.clone(),
        measure: o.measure,
    })
}

/// Each level's rating on [`VARIANT`] in a ratings.csv (columns
/// `variant`, `agent`, `rating`, `rating_low`, `rating_high`; others are
/// ignored), in [`LEVELS`]' order: `None` for a level the file does not
/// rate. A row's agent is read as an agent, so any text of the level's
/// agent matches; a file with no row of [`VARIANT`], or two of one level,
/// is refused.
pub fn level_ratings(file: &str, bytes: &[u8]) -> Result<Vec<Option<Rated>>, Error> {
    let (header, rows) = read_csv(file, bytes)?;
    let names = ["variant", "agent", "rating", "rating_low", "rating_high"];
    let at = columns(file, &header, &names)?;
    let field = |row: &[String], i: usize| row.get(at[i]).cloned().unwrap_or_default();
    let specs: Vec<_> = LEVELS.iter().map(Level::spec).collect();
    let mut found: Vec<Option<(u64, Rated)>> = vec![None; LEVELS.len()];
    let mut any = false;
    for (line, row) in rows {
        if field(&row, 0) != VARIANT {
            continue;
        }
        any = true;
        let Ok(agent) = crate::agents::AgentSpec::parse(&field(&row, 1)) else {
            continue;
        };
        let Some(i) = specs.iter().position(|s| *s == agent) else {
            continue;
        };
        if let Some((first, _)) = &found[i] {
            return Err(Refusal::RatedTwice {
                file: file.to_string(),
                agent: agent.to_string(),
                variant: VARIANT,
                first: *first,
                second: line,
            }
            .into());
        }
        let rated = Rated {
            rating: field(&row, 2),
            low: field(&row, 3),
            high: field(&row, 4),
        };
        found[i] = Some((line, rated));
    }
    if !any {
        return Err(Refusal::NoRatingsOf {
            file: file.to_string(),
            variant: VARIANT,
        }
        .into());
    }
    Ok(found.into_iter().map(|f| f.map(|(_, r)| r)).collect())
}

/// `games` self-play games of `level` on `rules`, [`OPENING_PLIES`]
/// random plies opening each, seeded as `katro simulate` seeds them with
/// `--seed` [`SEED`], played one after another on this thread and timed
/// by `cpu_seconds`.
pub fn measure(
    rules: &Rules,
    level: &Level,
    games: u64,
    cpu_seconds: fn() -> Option<f64>,
) -> Measured {
    let agent = level.spec();
    let label = matchup_label(&agent, &agent, OPENING_PLIES);
    let before = cpu_seconds();
    let mut plies = 0;
    for game in 0..games {
        let seed = game_seed(SEED, rules.name(), &label, game);
        plies += u64::from(play_game(rules, &agent, &agent, OPENING_PLIES, seed, None).plies);
    }
    let cpu_seconds = before.zip(cpu_seconds()).map(|(a, b)| b - a);
    Measured {
        games,
        plies,
        cpu_seconds,
    }
}

/// The CPU clock's step: Linux counts a process's CPU time in hundredths
/// of a second.
const CPU_TICK: f64 = 0.01;

impl Measured {
    /// CPU milliseconds a game, or under how many when the clock did not
    /// move.
    fn per_game(&self) -> String {
        match self.cpu_seconds {
            None => "no CPU clock".to_string(),
            Some(s) if s < CPU_TICK / 2.0 => {
                format!("under {:.1} ms", CPU_TICK * 1000.0 / self.games as f64)
            }
            Some(s) => format!("{:.1} ms", s * 1000.0 / self.games as f64),
        }
    }
}

impl Rated {
    fn text(&self) -> String {
        let or_dash = |t: &str| {
            if t.is_empty() {
                "-".to_string()
            } else {
                t.to_string()
            }
        };
        format!(
            "{} [{}, {}]",
            or_dash(&self.rating),
            or_dash(&self.low),
            or_dash(&self.high)
        )
    }
}

impl fmt::Display for LevelTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut head = vec!["level".to_string(), "agent".to_string()];
        if self.ratings.is_some() {
            head.push(format!("rating on {VARIANT} [95% interval]"));
        }
        if self.measure.is_some() {
            head.extend(["CPU a game".to_string(), "plies a game".to_string()]);
        }
        let mut table = vec![head];
        for r in &self.rows {
            let mut cells = vec![r.level.name.to_string(), r.level.agent.to_string()];
            if self.ratings.is_some() {
                cells.push(
                    r.rating
                        .as_ref()
                        .map_or("not in the file".into(), Rated::text),
                );
            }
            if let Some(m) = &r.measured {
                cells.push(m.per_game());
                cells.push(format!("{:.1}", m.plies as f64 / m.games as f64));
            }
            table.push(cells);
        }
        writeln!(
            f,
            "Strength levels: each name stands for its agent wherever katro takes one\n\
             (simulate --p1/--p2, play --against, experiment files, Python's Agent) and\n\
             plays exactly as it: the same games, the agent's text in every label and CSV.\n"
        )?;
        write_columns(f, &table)?;
        if let Some(file) = &self.ratings {
            writeln!(
                f,
                "\nRatings: Elo on {VARIANT} from {file}, as it writes them: `random` at 0\n\
                 (the anchor), each level with its 95% interval."
            )?;
        }
        if let Some(games) = self.measure {
            writeln!(
                f,
                "\nCPU: {} of each level's self-play on {VARIANT} ({OPENING_PLIES} random opening\n\
                 plies, seed {SEED}), one after another on one thread: the process's CPU time\n\
                 over the games, counted in hundredths of a second, divided by the games.",
                super::plural(games, "game")
            )?;
        }
        let mut hints = Vec::new();
        if self.ratings.is_none() {
            hints.push(format!(
                "--ratings FILE adds each level's rating on {VARIANT} from a tournament's\n  \
                 ratings.csv, such as results/strong-play/ratings.csv."
            ));
        }
        if self.measure.is_none() {
            hints.push(format!(
                "--measure GAMES adds the CPU time a game of each level's self-play on\n  \
                 {VARIANT}, over GAMES games."
            ));
        }
        if !hints.is_empty() {
            writeln!(f, "\n{}", hints.join("\n"))?;
        }
        Ok(())
    }
}

/// `rows` in columns two spaces apart, each as wide as its widest cell.
fn write_columns(f: &mut fmt::Formatter<'_>, rows: &[Vec<String>]) -> fmt::Result {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            let cells = rows.iter().filter_map(|r| r.get(c));
            cells.map(|s| s.chars().count()).max().unwrap_or(0)
        })
        .collect();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        writeln!(f, "{}", cells.join("  ").trim_end())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    const HEADER: &str = "variant,rules,opening_plies,level,agent,rating,rating_low,rating_high\n";

    fn ratings(rows: &str) -> Result<Vec<Option<Rated>>, String> {
        level_ratings("r.csv", format!("{HEADER}{rows}").as_bytes()).map_err(|e| e.to_string())
    }

    fn rated(rating: &str, low: &str, high: &str) -> Option<Rated> {
        Some(Rated {
            rating: rating.into(),
            low: low.into(),
            high: high.into(),
        })
    }

    #[test]
    fn the_ratings_of_katro_6x6_are_read_as_written() {
        let got = ratings(
            "katro-6x6,x,4,1,random,0.000000,0.000000,0.000000\n\
             katro-4x4,x,4,3,alphabeta:depth=2,9.000000,8.000000,10.000000\n\
             katro-6x6,x,4,3,alphabeta:depth=2,747.498934,615.175441,914.060449\n\
             katro-6x6,x,4,5,\"mcts:iterations=300,exploration=1.4142135623730951\",845.2,1,2\n\
             katro-6x6,x,4,7,\"alphabeta:depth=12,nodes=20000,eval=fitted\",1626.8,,\n",
        )
        .unwrap();
        assert_eq!(
            got,
            vec![
                rated("0.000000", "0.000000", "0.000000"),
                None,
                rated("747.498934", "615.175441", "914.060449"),
                None,
                None,
                rated("1626.8", "", ""),
            ]
        );
        assert_eq!(got[5].as_ref().unwrap().text(), "1626.8 [-, -]");
    }

    #[test]
    fn bad_ratings_files_are_refused_naming_the_file_and_what_is_valid() {
        let err = level_ratings("r.csv", b"variant,agent,rating\nkatro-6x6,random,0\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("r.csv: missing columns rating_low, rating_high")
                && err.contains("variant,agent,rating,rating_low,rating_high"),
            "{err}"
        );
        let err = ratings("katro-4x4,x,4,1,random,0,0,0\n").unwrap_err();
        assert!(
            err.starts_with("r.csv: no row of variant `katro-6x6`")
                && err.contains("results/strong-play/ratings.csv"),
            "{err}"
        );
        let err = ratings(
            "katro-6x6,x,4,1,random,0,0,0\n\
             katro-6x6,x,2,1,random,0,0,0\n",
        )
        .unwrap_err();
        assert!(
            err.starts_with("r.csv lines 2 and 3: two ratings of `random` on katro-6x6"),
            "{err}"
        );
    }

    #[test]
    fn a_level_is_timed_over_its_games_on_one_thread() {
        let rules = preset("katro-4x4").unwrap();
        let weak = LEVELS[2];
        let m = measure(&rules, &weak, 3, || Some(1.0));
        assert_eq!((m.games, m.cpu_seconds), (3, Some(0.0)));
        // The games `katro simulate` plays with the same seed and opening.
        let agent = weak.spec();
        let label = matchup_label(&agent, &agent, OPENING_PLIES);
        let plies: u64 = (0..3)
            .map(|g| {
                let seed = game_seed(SEED, "katro-4x4", &label, g);
                u64::from(play_game(&rules, &agent, &agent, 4, seed, None).plies)
            })
            .sum();
        assert_eq!(m.plies, plies);
        assert_eq!(m.per_game(), "under 3.3 ms");
        let m = Measured {
            games: 20,
            plies: 2000,
            cpu_seconds: Some(3.0),
        };
        assert_eq!(m.per_game(), "150.0 ms");
        let m = Measured {
            cpu_seconds: None,
            ..m
        };
        assert_eq!(m.per_game(), "no CPU clock");
    }

    #[test]
    fn the_table_names_each_level_and_the_flags_that_add_columns() {
        let o = AgentsOptions {
            ratings: None,
            measure: None,
            cpu_seconds: || None,
        };
        let store = MemoryStore::new();
        let quiet = crate::experiment::runner::Quiet;
        let text = agents(&store, &o, &quiet).unwrap().to_string();
        for l in LEVELS {
            assert!(
                text.lines()
                    .any(|line| line.split_whitespace().eq([l.name, l.agent])),
                "{}:\n{text}",
                l.name
            );
        }
        assert!(text.contains("--ratings FILE") && text.contains("--measure GAMES"));

        let o = AgentsOptions {
            ratings: Some("r/ratings.csv".into()),
            ..o
        };
        let err = agents(&store, &o, &quiet).unwrap_err();
        assert_eq!(err.kind().exit_code(), 2);
        assert!(
            err.to_string()
                .starts_with("r/ratings.csv: not found: `katro agents --ratings` needs"),
            "{err}"
        );
        store.insert(
            "r/ratings.csv",
            format!("{HEADER}katro-6x6,x,4,4,alphabeta:depth=4,1170.5,1025.9,1346.0\n"),
        );
        let table = agents(&store, &o, &quiet).unwrap();
        assert_eq!(table.rows[3].rating, rated("1170.5", "1025.9", "1346.0"));
        let text = table.to_string();
        assert!(
            text.lines().any(|l| l.split_whitespace().eq([
                "medium",
                "alphabeta:depth=4",
                "1170.5",
                "[1025.9,",
                "1346.0]"
            ])) && text.contains("not in the file")
                && !text.contains("--ratings FILE"),
            "{text}"
        );
    }
}
