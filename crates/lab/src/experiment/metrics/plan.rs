//! Which metrics a cell records and with which state evaluation: the
//! experiment's `metrics` and `metrics_eval` keys, and a matchup's own
//! `metrics` (docs/EXPERIMENTS.md).

use std::ops::Range;

use crate::agents::perfect::{MAX_BYTES, Tables};
use crate::rules::suggest::did_you_mean;
use crate::rules::{Problems, Rules};
use crate::solve::check_size;

use super::{Metric, StateEval};

/// The deepest `search:depth=N` evaluation: every state of every game is
/// searched, so deeper ones cost more than the games.
pub const MAX_SEARCH_DEPTH: u32 = 6;

/// Where a cell's states get their evaluation (`metrics_eval`).
#[derive(Clone, Debug, PartialEq)]
pub enum EvalSpec {
    Ludii,
    Search {
        depth: u32,
    },
    /// Solved in memory once per variant into the run's tables, which
    /// every game shares (as the `perfect` agent does).
    Exact,
}

/// A cell's metrics: the columns asked for and the evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricsPlan {
    /// In [`Metric::ALL`]'s order, each once.
    pub metrics: Vec<Metric>,
    pub eval: EvalSpec,
}

impl MetricsPlan {
    /// Whether games must evaluate every legal move (Clarity).
    pub fn move_evals(&self) -> bool {
        self.metrics.iter().any(|m| m.needs_move_evals())
    }

    /// Whether games must be recorded at Ludii's granularity (a `ludii_*`
    /// metric), a state per lap.
    pub fn ludii_states(&self) -> bool {
        self.metrics.iter().any(|m| m.is_ludii())
    }

    /// The evaluation of the states of a game of `rules`; an exact one
    /// reads the table of `rules` in `tables`, solving it there first if
    /// no game has yet.
    pub fn state_eval(&self, rules: &Rules, tables: &Tables) -> StateEval {
        match &self.eval {
            EvalSpec::Ludii => StateEval::Ludii,
            EvalSpec::Search { depth } => StateEval::Search { depth: *depth },
            EvalSpec::Exact => StateEval::Exact(tables.table(rules)),
        }
    }

    /// As metrics.csv's `eval` column and the fingerprint write it.
    pub fn eval_name(&self) -> String {
        match &self.eval {
            EvalSpec::Ludii => "ludii".into(),
            EvalSpec::Search { depth } => format!("search:depth={depth}"),
            EvalSpec::Exact => "exact".into(),
        }
    }

    /// What the fingerprint covers: the metrics and the evaluation.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = self.metrics.iter().map(|m| m.name()).collect();
        format!("metrics={};eval={}", names.join(","), self.eval_name())
    }
}

fn names() -> Vec<&'static str> {
    let mut v: Vec<&str> = vec!["all"];
    v.extend(Metric::ALL.iter().map(|m| m.name()));
    v
}

fn valid_names() -> String {
    names().join(", ")
}

/// A `metrics = [...]` list: names of [`Metric`] or `"all"`. `None` after
/// reporting a problem.
pub fn parse_names(
    p: &mut Problems,
    list: &[toml::Spanned<String>],
    span: Range<usize>,
    key: &str,
) -> Option<Vec<Metric>> {
    if list.is_empty() {
        p.add(
            Some(span),
            key,
            format!(
                "is empty: name the metrics to record, or \"all\" (valid: {})",
                valid_names()
            ),
        );
        return None;
    }
    let mut wanted = Vec::new();
    let mut ok = true;
    for (i, item) in list.iter().enumerate() {
        let name = item.get_ref().as_str();
        if name == "all" {
            wanted.extend(Metric::ALL);
        } else if let Some(m) = Metric::by_name(name) {
            wanted.push(m);
        } else {
            p.add(
                Some(item.span()),
                &format!("{key}[{i}]"),
                format!(
                    "unknown metric {name:?}{}: give one of {}",
                    did_you_mean(name, names()),
                    valid_names()
                ),
            );
            ok = false;
        }
    }
    ok.then(|| {
        Metric::ALL
            .iter()
            .copied()
            .filter(|m| wanted.contains(m))
            .collect()
    })
}

const EVAL_FORMS: &str = "give \"ludii\" (tanh of the seed difference, the default), \
                          \"search:depth=N\" (alpha-beta N plies deep, N from 1 to 6) or \
                          \"exact\" (the solved value, on boards katro solves)";

/// `metrics_eval`, checked against the variants (an exact evaluation
/// needs every variant small enough to solve in memory).
pub fn parse_eval(
    p: &mut Problems,
    v: &toml::Spanned<String>,
    key: &str,
    variants: &[&Rules],
) -> Option<EvalSpec> {
    let text = v.get_ref().trim();
    let bad = |p: &mut Problems, why: String| {
        p.add(Some(v.span()), key, why);
        None
    };
    match text {
        "ludii" => Some(EvalSpec::Ludii),
        "exact" => {
            let mut ok = true;
            for rules in variants {
                if let Err(e) = check_size(rules, MAX_BYTES) {
                    p.add(
                        Some(v.span()),
                        key,
                        format!(
                            "\"exact\" evaluates states from a solution of the board, but \
                             variant `{}` is too big to solve in memory: {e}; use \"ludii\" or \
                             \"search:depth=N\" for it",
                            rules.name()
                        ),
                    );
                    ok = false;
                }
            }
            ok.then_some(EvalSpec::Exact)
        }
        _ => match text.strip_prefix("search:depth=").map(str::parse::<u32>) {
            Some(Ok(depth)) if (1..=MAX_SEARCH_DEPTH).contains(&depth) => {
                Some(EvalSpec::Search { depth })
            }
            Some(Ok(depth)) => bad(
                p,
                format!("depth {depth} is out of range: it must be from 1 to {MAX_SEARCH_DEPTH}"),
            ),
            _ => bad(
                p,
                format!("{text:?} is not a state evaluation: {EVAL_FORMS}"),
            ),
        },
    }
}

/// The experiment's `metrics` and `metrics_eval`, read before its
/// matchups, which may each name their own `metrics`.
pub struct TopLevel {
    plan: Option<MetricsPlan>,
    eval: Option<EvalSpec>,
}

/// Reads the top-level keys. `metrics_eval` without any `metrics` is a
/// mistake: nothing would use it.
pub fn top_level(
    p: &mut Problems,
    metrics: Option<&toml::Spanned<Vec<toml::Spanned<String>>>>,
    eval: Option<&toml::Spanned<String>>,
    variants: &[&Rules],
    any_matchup_metrics: bool,
) -> TopLevel {
    let eval = match eval {
        None => Some(EvalSpec::Ludii),
        Some(v) => {
            if metrics.is_none() && !any_matchup_metrics {
                p.add(
                    Some(v.span()),
                    "metrics_eval",
                    "evaluates states for the design metrics, but no metrics are asked for: \
                     add `metrics = [\"all\"]` (or a list of names), or leave this key out",
                );
            }
            parse_eval(p, v, "metrics_eval", variants)
        }
    };
    let plan = metrics.and_then(|m| {
        let names = parse_names(p, m.get_ref(), m.span(), "metrics")?;
        Some(MetricsPlan {
            metrics: names,
            eval: eval.clone()?,
        })
    });
    TopLevel { plan, eval }
}

impl TopLevel {
    /// A `[[matchups]]` entry's plan: its own `metrics` with the
    /// experiment's evaluation, else the experiment's plan.
    pub fn for_matchup(
        &self,
        p: &mut Problems,
        metrics: Option<&toml::Spanned<Vec<toml::Spanned<String>>>>,
        i: usize,
    ) -> Option<MetricsPlan> {
        match metrics {
            None => self.plan.clone(),
            Some(m) => {
                let key = format!("matchups[{i}].metrics");
                let names = parse_names(p, m.get_ref(), m.span(), &key)?;
                Some(MetricsPlan {
                    metrics: names,
                    eval: self.eval.clone()?,
                })
            }
        }
    }

    /// What a tournament's pairings record: the experiment's metrics.
    pub fn for_tournament(&self) -> Option<MetricsPlan> {
        self.plan.clone()
    }
}

/// The run's fingerprint, covering each cell's metrics (`plans`, by cell)
/// when any cell has them, so a checkpoint of a run without metrics is
/// never resumed into one with them; runs without metrics keep their
/// fingerprints.
pub fn fingerprint(base: String, plans: &[Option<&MetricsPlan>]) -> String {
    if plans.iter().all(Option::is_none) {
        return base;
    }
    let described: Vec<String> = plans
        .iter()
        .map(|m| m.map_or(String::new(), MetricsPlan::describe))
        .collect();
    format!(
        "{:016x}",
        crate::rng::name_hash(&format!("{base}\n{}", described.join("\n")))
    )
}
