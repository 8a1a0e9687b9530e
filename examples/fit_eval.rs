//! Fits the `alphabeta` agent's `eval=fitted` weights
//! (`katro_core::agents::alphabeta::FITTED_WEIGHTS`): a logistic regression of
//! "the player to move goes on to win" on the position's features
//! (`alphabeta::features`), over the positions of self-play games.
//!
//! `cargo run --release --example fit_eval -- [GAMES] [AGENT] [VARIANT...]`
//!
//! Defaults: 3,000 games a variant, `alphabeta:depth=4` on both sides,
//! katro-6x6, katro-4x4 and katro-ludii. Game `g` of variant `v` opens
//! with `g % 9` uniformly random plies (so the games differ) and is seeded
//! by `rng_from_seed(v << 32 | g)`; every later position of a decided
//! game is a sample (undecided games are left out), so the output is a
//! function of the arguments alone. Games with `g % 5 == 0` are held out:
//! the weights are fitted on the others and the held-out log-loss is
//! printed beside that of a fit on the seed difference alone, so the
//! gain of the other features is measured, not assumed.

use katro_core::agents::AgentSpec;
use katro_core::agents::alphabeta::{FEATURE_NAMES, FEATURES, features};
use katro_core::engine::{Player, Silent, Status};
use katro_core::rng::{below, rng_from_seed};
use katro_core::rules::preset;

struct Sample {
    x: [f64; FEATURES],
    won: bool,
    variant: usize,
    held_out: bool,
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = match args.first() {
        Some(n) => n.parse().map_err(|e| format!("GAMES `{n}`: {e}"))?,
        None => 3_000,
    };
    let agent_text = args.get(1).map_or("alphabeta:depth=4", String::as_str);
    let agent = AgentSpec::parse(agent_text)?;
    let names: Vec<&str> = if args.len() > 2 {
        args[2..].iter().map(String::as_str).collect()
    } else {
        vec!["katro-6x6", "katro-4x4", "katro-ludii"]
    };
    let mut samples = Vec::new();
    let mut undecided = 0;
    for (v, name) in names.iter().enumerate() {
        let rules = preset(name).ok_or_else(|| format!("`{name}` is not a preset"))?;
        for g in 0..games {
            let mut rng = rng_from_seed((v as u64) << 32 | g);
            let mut pos = rules.start();
            let mut seen = Vec::new();
            loop {
                let legal = rules.legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let mv = if u64::from(pos.plies()) < g % 9 {
                    legal[below(&mut rng, legal.len())]
                } else {
                    seen.push((features(&rules, &pos, &legal), pos.to_move()));
                    agent.choose(&rules, &pos, &legal, &mut rng)
                };
                rules.play_unchecked(&mut pos, mv, &mut Silent);
            }
            let Status::Won(winner) = rules.status(&pos) else {
                undecided += 1;
                continue;
            };
            samples.extend(seen.into_iter().map(|(x, mover): (_, Player)| Sample {
                x,
                won: mover == winner,
                variant: v,
                held_out: g % 5 == 0,
            }));
        }
    }
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    let test: Vec<&Sample> = samples.iter().filter(|s| s.held_out).collect();
    println!(
        "{games} games a variant of {agent} self-play on {}; {undecided} undecided left out; \
         {} positions fitted, {} held out",
        names.join(", "),
        train.len(),
        test.len()
    );
    let all = [true; FEATURES];
    let mut seeds_only = [false; FEATURES];
    seeds_only[0] = true;
    let w = fit(&train, all);
    let w0 = fit(&train, seeds_only);
    println!("weights ({}): {w:?}", FEATURE_NAMES.join(", "));
    println!(
        "held-out log-loss: all features {:.5}, seed difference alone {:.5} (weight {:.4}); \
         held-out accuracy {:.4} and {:.4}",
        log_loss(&test, &w),
        log_loss(&test, &w0),
        w0[0],
        accuracy(&test, &w),
        accuracy(&test, &w0),
    );
    for (v, name) in names.iter().enumerate() {
        let mine: Vec<&Sample> = test.iter().copied().filter(|s| s.variant == v).collect();
        let own: Vec<&Sample> = train.iter().copied().filter(|s| s.variant == v).collect();
        let wv = fit(&own, all);
        println!(
            "  {name}: held-out log-loss {:.5} (pooled weights), {:.5} (its own: {wv:?}), \
             {:.5} (seed difference alone)",
            log_loss(&mine, &w),
            log_loss(&mine, &wv),
            log_loss(&mine, &w0),
        );
    }
    println!(
        "pub const FITTED_WEIGHTS: [f64; FEATURES] = [{}];",
        w.iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

fn logit(x: &[f64; FEATURES], w: &[f64; FEATURES]) -> f64 {
    x.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// Newton's method on the mean logistic loss of the features `used`, with
/// a tiny ridge so a feature constant in the data cannot make the system
/// singular; no intercept, since every feature is the mover's view and a
/// constant would not change which move the search prefers.
fn fit(data: &[&Sample], used: [bool; FEATURES]) -> [f64; FEATURES] {
    let mut w = [0.0; FEATURES];
    let n = data.len().max(1) as f64;
    for _ in 0..50 {
        let mut grad = [0.0; FEATURES];
        let mut hess = [[0.0; FEATURES]; FEATURES];
        for s in data {
            let p = 1.0 / (1.0 + (-logit(&s.x, &w)).exp());
            let y = f64::from(u8::from(s.won));
            for i in 0..FEATURES {
                grad[i] += (p - y) * s.x[i] / n;
                for (h, xj) in hess[i].iter_mut().zip(s.x) {
                    *h += p * (1.0 - p) * s.x[i] * xj / n;
                }
            }
        }
        for i in 0..FEATURES {
            hess[i][i] += 1e-6;
            grad[i] += 1e-6 * w[i];
            if !used[i] {
                grad[i] = 0.0;
                // Row and column of a unit matrix: that weight stays 0.
                let unit: [f64; FEATURES] = std::array::from_fn(|j| f64::from(u8::from(i == j)));
                for (row, u) in hess.iter_mut().zip(unit) {
                    row[i] = u;
                }
                hess[i] = unit;
            }
        }
        let step = solve(hess, grad);
        let mut change: f64 = 0.0;
        for i in 0..FEATURES {
            w[i] -= step[i];
            change = change.max(step[i].abs());
        }
        if change < 1e-10 {
            break;
        }
    }
    w
}

/// Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for c in 0..FEATURES {
        let p = (c..FEATURES)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap();
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..FEATURES {
            let f = a[r][c] / a[c][c];
            let pivot = a[c];
            for (x, q) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * q;
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; FEATURES];
    for r in (0..FEATURES).rev() {
        let s: f64 = (r + 1..FEATURES).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x
}

fn log_loss(data: &[&Sample], w: &[f64; FEATURES]) -> f64 {
    let total: f64 = data
        .iter()
        .map(|s| {
            let z = logit(&s.x, w);
            // log(1 + e^-z) for a win, log(1 + e^z) for a loss, stably.
            let m = if s.won { -z } else { z };
            m.max(0.0) + (-m.abs()).exp().ln_1p()
        })
        .sum();
    total / data.len().max(1) as f64
}

fn accuracy(data: &[&Sample], w: &[f64; FEATURES]) -> f64 {
    let right = data
        .iter()
        .filter(|s| (logit(&s.x, w) > 0.0) == s.won)
        .count();
    right as f64 / data.len().max(1) as f64
}
