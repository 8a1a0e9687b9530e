//! The binary's side of the pictures: reads a results folder and writes
//! `report.html` and `plots/`; writes board diagrams and viewer pages.
//! The library makes every byte; this only reads and writes files.

use std::fs;
use std::path::Path;

use katro::engine::notation::plural;
use katro::jobs::{self, Failure};
use katro::store::FsStore;

fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, Failure> {
    jobs::read_optional(&FsStore, path)
}

/// Adds the report's files to the `files` of the folder's manifest, if it
/// has a readable one, so that a later `katro run` of the same experiment
/// knows them for katro's own and replaces them.
fn list_in_manifest(dir: &Path, written: &[String]) -> Result<(), Failure> {
    let Some(bytes) = read_optional(&dir.join("manifest.json"))? else {
        return Ok(());
    };
    let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Ok(());
    };
    let Some(files) = v.get_mut("files").and_then(|f| f.as_array_mut()) else {
        return Ok(());
    };
    let before = files.len();
    for f in written {
        if !files.iter().any(|x| x.as_str() == Some(f)) {
            files.push(serde_json::Value::String(f.clone()));
        }
    }
    if files.len() == before {
        return Ok(());
    }
    let mut out = serde_json::to_vec_pretty(&v).expect("a JSON value serialises");
    out.push(b'\n');
    put(dir, "manifest.json", &out)
}

fn put(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Failure> {
    jobs::put(&FsStore, dir, name, bytes)
}

/// `katro report DIR`: refuses to overwrite a `report.html` or chart that
/// `katro report` did not write, unless `force`.
pub fn report(dir: &str, force: bool) -> Result<(), Failure> {
    let path = Path::new(dir);
    if !path.is_dir() {
        return Err(Failure::input(format!(
            "{dir}: not a folder: give a results folder"
        )));
    }
    // The page and every chart a report may write: the fixed ones, and the
    // sweep charts already there.
    let sweeps: Vec<String> = fs::read_dir(path.join("plots"))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| katro::pictures::report::is_chart_file(n))
                .collect()
        })
        .unwrap_or_default();
    let mut targets = vec!["report.html".to_string()];
    for f in katro::pictures::report::CHART_FILES
        .iter()
        .map(|f| f.to_string())
        .chain(sweeps)
    {
        let t = format!("plots/{f}");
        if !targets.contains(&t) {
            targets.push(t);
        }
    }
    let mut foreign = Vec::new();
    for t in targets {
        if let Some(bytes) = read_optional(&path.join(&t))? {
            let head = &bytes[..bytes.len().min(1024)];
            let marker = katro::pictures::report::GENERATOR.as_bytes();
            if !head.windows(marker.len()).any(|w| w == marker) {
                foreign.push(format!("  {t}"));
            }
        }
    }
    if !foreign.is_empty() && !force {
        return Err(Failure::input(format!(
            "{dir} holds files a report would replace that `katro report` did not write:\n{}\n\
             move them away, or give --force to overwrite them",
            foreign.join("\n")
        )));
    }
    let written = jobs::write_report(&FsStore, path, None)?;
    list_in_manifest(path, &written)?;
    println!(
        "wrote {}",
        written
            .iter()
            .map(|f| path.join(f).display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

/// The variant and moves of row `row` (1 = the first game) of a games.csv.
/// The variant is rebuilt from the settings in the manifest.json beside the
/// file (exactly as the run played it, limits included) and checked
/// against its rules string; without a manifest, a preset of that name.
pub fn game_from_csv(file: &str, row: u64) -> Result<(katro::Rules, Vec<String>), Failure> {
    let bytes = fs::read(file).map_err(|e| Failure::input(format!("{file}: cannot read: {e}")))?;
    let table = katro::pictures::report::Table::parse(file, &bytes).map_err(Failure::input)?;
    for col in ["variant", "moves"] {
        if !table.has(col) {
            return Err(Failure::input(format!(
                "{file}: no `{col}` column: the viewer needs a games.csv written with \
                 per_game_rows = true and moves_in_rows = true"
            )));
        }
    }
    if row == 0 || row > table.len() as u64 {
        return Err(Failure::input(format!(
            "{file}: --row {row}: give a row from 1 to {} (1 is the first game after the header)",
            table.len()
        )));
    }
    let r = row as usize - 1;
    let variant = table.text(r, "variant").to_string();
    let moves: Vec<String> = table
        .text(r, "moves")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let manifest = Path::new(file)
        .parent()
        .map(|d| {
            if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            }
        })
        .map(|d| d.join("manifest.json"));
    let rules = match manifest
        .as_deref()
        .map(read_optional)
        .transpose()?
        .flatten()
    {
        Some(b) => variant_from_manifest(&b, &variant).map_err(|e| {
            Failure::input(format!(
                "{}: {e}",
                manifest
                    .as_deref()
                    .unwrap_or(Path::new("manifest.json"))
                    .display()
            ))
        })?,
        None => katro::rules::preset(&variant).ok_or_else(|| {
            Failure::input(format!(
                "{file}: row {row}: variant `{variant}` is not a preset and there is no \
                 manifest.json beside the file to rebuild it from"
            ))
        })?,
    };
    // The row's own limits (games.csv's `ply_limit` and `lap_limit`), so a
    // game played with overridden limits replays to its recorded status.
    let mut limits = [None, None];
    for (slot, (col, range)) in limits.iter_mut().zip([
        ("ply_limit", &katro::experiment::PLY_LIMIT_RANGE),
        ("lap_limit", &katro::experiment::LAP_LIMIT_RANGE),
    ]) {
        if table.has(col) {
            let text = table.text(r, col);
            let v = text
                .parse::<i64>()
                .map_err(|e| e.to_string())
                .and_then(|v| range.check(v))
                .map_err(|e| Failure::input(format!("{file}: row {row}, `{col}` {text:?}: {e}")))?;
            *slot = Some(v);
        }
    }
    let rules = rules
        .with_limits(limits[0], limits[1])
        .map_err(|e| Failure::input(format!("{file}: row {row}: {e}")))?;
    Ok((rules, moves))
}

fn variant_from_manifest(bytes: &[u8], name: &str) -> Result<katro::Rules, String> {
    let v: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("cannot read it: {e}"))?;
    let entry = v
        .get("variants")
        .and_then(|vs| vs.as_array())
        .and_then(|vs| {
            vs.iter()
                .find(|e| e.get("name").and_then(|n| n.as_str()) == Some(name))
        })
        .ok_or_else(|| format!("no variant `{name}` in its `variants`"))?;
    let settings = entry
        .get("settings")
        .and_then(|s| s.as_object())
        .ok_or_else(|| format!("variant `{name}` has no `settings`"))?;
    // The manifest's settings are the variant file's keys: written back as
    // a variant file, the engine's own parser checks them.
    let mut board = toml::Table::new();
    let mut rules = toml::Table::new();
    for (k, val) in settings {
        if val.is_null() {
            continue;
        }
        let t = toml::Value::try_from(val)
            .map_err(|e| format!("variant `{name}`, setting `{k}`: {e}"))?;
        match k.as_str() {
            "rows" | "holes" | "seeds" | "layout" => board.insert(k.clone(), t),
            _ => rules.insert(k.clone(), t),
        };
    }
    let mut doc = toml::Table::new();
    doc.insert("name".into(), toml::Value::String(name.to_string()));
    doc.insert("board".into(), toml::Value::Table(board));
    doc.insert("rules".into(), toml::Value::Table(rules));
    let text = toml::to_string(&doc).map_err(|e| e.to_string())?;
    let parsed = katro::rules::parse_variant("manifest.json", &text, name)
        .map_err(|e| format!("variant `{name}`: {e}"))?;
    let want = entry.get("rules").and_then(|r| r.as_str()).unwrap_or("");
    if parsed.canonical_string() != want {
        return Err(format!(
            "variant `{name}`: its settings give {} but its rules string is {want}",
            parsed.canonical_string()
        ));
    }
    Ok(parsed)
}

/// `katro play`: the human's moves from standard input, the agent's from
/// the library. The player to move is always read from the position: a
/// player may move twice in a row under some rules.
pub fn play(
    rules: &katro::Rules,
    variant: &str,
    against: &str,
    seat: u8,
    seed: u64,
) -> Result<(), Failure> {
    use katro::agents::AgentSpec;
    use katro::engine::notation::{board_text, move_name, parse_move};
    use std::io::{BufRead, Write};

    let agent = AgentSpec::parse(against).map_err(Failure::input)?;
    agent.check_variant(rules).map_err(Failure::input)?;
    agent.validate().map_err(Failure::input)?;
    let mut rng = katro::rng::rng_from_seed(katro::rng::game_seed(
        seed,
        rules.name(),
        &format!("play:{agent}"),
        0,
    ));
    let name = |n: u8| {
        if n == 1 {
            "South (player 1)"
        } else {
            "North (player 2)"
        }
    };
    let mut pos = rules.start();
    let mut played: Vec<String> = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| Failure {
        code: 1,
        message: format!("cannot write to standard output: {e}"),
    };
    writeln!(
        out,
        "katro play: {} against {agent}; you are {}. Type a move (e.g. {}), or quit.",
        rules.name(),
        name(seat),
        rules
            .legal_moves(&pos)
            .first()
            .map(|&m| move_name(rules, m))
            .unwrap_or_default()
    )
    .map_err(io)?;
    let mut redraw = true;
    loop {
        if redraw {
            writeln!(out, "\n{}", board_text(rules, &pos)).map_err(io)?;
        }
        redraw = true;
        let status = rules.status(&pos);
        if status.is_over() {
            let result = match status.winner() {
                Some(p) if p.number() == seat => format!("you win ({})", name(p.number())),
                Some(p) => format!("{agent} wins ({})", name(p.number())),
                None => format!("no winner: {}", status.name()),
            };
            let plies = plural(pos.plies(), "ply", "plies");
            writeln!(out, "game over after {plies}: {result}").map_err(io)?;
            break;
        }
        let mover = pos.to_move().number();
        let legal = rules.legal_moves(&pos);
        let legal_names: Vec<String> = legal.iter().map(|&m| move_name(rules, m)).collect();
        let mv = if mover == seat {
            write!(
                out,
                "ply {}, your move as {} [{}]: ",
                pos.plies() + 1,
                name(mover),
                legal_names.join(" ")
            )
            .map_err(io)?;
            out.flush().map_err(io)?;
            let Some(line) = lines.next() else {
                writeln!(out, "\ninput ended; the game so far:").map_err(io)?;
                break;
            };
            let line =
                line.map_err(|e| Failure::input(format!("cannot read standard input: {e}")))?;
            let text = line.trim();
            // An empty line (Enter pressed by mistake) asks again without
            // calling it a bad move.
            if text.is_empty() {
                redraw = false;
                continue;
            }
            if text == "quit" {
                writeln!(out, "the game so far:").map_err(io)?;
                break;
            }
            match parse_move(rules, text) {
                Ok(m) if legal.contains(&m) => m,
                Ok(_) => {
                    writeln!(
                        out,
                        "`{text}` is not legal here; legal moves: {}",
                        legal_names.join(" ")
                    )
                    .map_err(io)?;
                    redraw = false;
                    continue;
                }
                Err(e) => {
                    writeln!(out, "{e}; legal moves: {}", legal_names.join(" ")).map_err(io)?;
                    redraw = false;
                    continue;
                }
            }
        } else {
            let m = agent.choose(rules, &pos, &legal, &mut rng);
            writeln!(
                out,
                "ply {}: {} ({agent}) plays {}",
                pos.plies() + 1,
                name(mover),
                move_name(rules, m)
            )
            .map_err(io)?;
            m
        };
        let report = rules.play_unchecked(&mut pos, mv, &mut katro::engine::Silent);
        if mover == seat {
            writeln!(
                out,
                "ply {}: you play {}",
                pos.plies(),
                move_name(rules, mv)
            )
            .map_err(io)?;
        }
        if report.captures > 0 {
            writeln!(
                out,
                "  {}, {}, {} taken",
                plural(report.laps, "lap", "laps"),
                plural(report.captures, "capture", "captures"),
                plural(report.seeds_captured, "seed", "seeds")
            )
            .map_err(io)?;
        }
        played.push(move_name(rules, mv));
    }
    // Quoted for a shell: a variant file's path may hold spaces, and a
    // step move (`b2>c3`) would otherwise be a redirection.
    let words: Vec<String> = std::iter::once(variant)
        .chain(played.iter().map(String::as_str))
        .map(katro::jobs::replay::shell_word)
        .collect();
    writeln!(out, "katro replay {}", words.join(" ")).map_err(io)?;
    Ok(())
}
