//! The figures README.md, results/README.md and docs/SOLVED.md quote are
//! the committed files' (issue 46, item 3). Each test finds a figure in
//! the text by the words around it and compares it with the CSV or JSON
//! file it comes from; when either changes, it fails naming the figure,
//! the file and both values. When a result is regenerated, update the
//! text it quotes (and when the text is reworded, the pattern here).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use katro_core::engine::notation::grouped as thousands;
use katro_lab::experiment::verdict::{Row, verdict_line};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A text with every run of whitespace made one space, so a figure
/// reads the same wherever a line breaks.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The rows of a committed CSV file, each a map from column to field.
fn csv_rows(path: &str) -> Vec<BTreeMap<String, String>> {
    let mut reader =
        csv::Reader::from_path(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap_or_else(|e| panic!("{path}: {e}"));
            header
                .iter()
                .zip(r.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn json(path: &str) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A whole number as the docs write it, with or without thousands
/// separators.
fn int(s: &str) -> u64 {
    s.replace(',', "")
        .parse()
        .unwrap_or_else(|e| panic!("`{s}` is not a whole number: {e}"))
}

/// The text after the first `start` in `text` and before the first `end`
/// after it; the test fails naming `what` if either is missing.
fn between<'a>(text: &'a str, start: &str, end: &str, what: &str) -> &'a str {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{what}: the text no longer says `{start}`"))
        + start.len();
    let to = text[from..]
        .find(end)
        .unwrap_or_else(|| panic!("{what}: nothing ends `{start}` with `{end}`"));
    &text[from..from + to]
}

/// The number written right before `suffix` in `text` (digits, commas
/// and a point), and the test fails naming `what` if there is none.
fn number_before(text: &str, suffix: &str, what: &str) -> String {
    let at = text
        .find(suffix)
        .unwrap_or_else(|| panic!("{what}: the text no longer says `{suffix}`"));
    let head = &text[..at];
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .map_or(0, |i| i + 1);
    let n = head[start..].trim_end_matches([',', '.']);
    assert!(!n.is_empty(), "{what}: no number before `{suffix}`");
    n.to_string()
}

/// The number written right after `prefix` in `text`.
fn number_after(text: &str, prefix: &str, what: &str) -> String {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("{what}: the text no longer says `{prefix}`"))
        + prefix.len();
    let tail = &text[at..];
    let end = tail
        .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .unwrap_or(tail.len());
    let n = tail[..end].trim_end_matches([',', '.']);
    assert!(!n.is_empty(), "{what}: no number after `{prefix}`");
    n.to_string()
}

/// A CSV share (`0.498500`) as a percentage with one decimal, rounded
/// half up from the written digits, as the docs quote it (`49.9`).
fn percent(share: &str) -> String {
    let (whole, frac) = share.split_once('.').unwrap_or((share, ""));
    let millionths: u64 = int(whole) * 1_000_000 + int(&format!("{frac:0<6}")[..6]);
    let tenths = (millionths + 500) / 1000;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// The markdown table that follows `after` in `text`: its data rows,
/// each a list of trimmed cells.
fn table_after(text: &str, after: &str, what: &str) -> Vec<Vec<String>> {
    let at = text
        .find(after)
        .unwrap_or_else(|| panic!("{what}: the text no longer says `{after}`"));
    let rows: Vec<Vec<String>> = text[at..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect();
    assert!(!rows.is_empty(), "{what}: no table after `{after}`");
    rows
}

#[test]
fn readme_opens_with_the_set_up_commands_and_stays_under_200_lines() {
    let readme = read("README.md");
    assert!(
        readme.starts_with(
            "# katro\n\n```sh\ncargo run --release -- run experiments/quick.toml\n\
             cargo test --profile checked\n```\n"
        ),
        "README.md must start with its title and the two set-up commands (.ci/run and the \
         tests rely on them)"
    );
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; it is the product page, at most 200 (issue 46): move \
         details to docs/ or results/README.md"
    );
}

/// "the quick experiment (24,000 games: 4 variants × 3 matchups × 2,000)"
/// against experiments/quick.toml and results/quick.
#[test]
fn the_quick_experiments_size_is_the_committed_one() {
    let readme = words(&read("README.md"));
    let said = between(
        &readme,
        "runs the quick experiment (",
        ")",
        "README's quick size",
    );
    let what = format!("README.md says the quick experiment is `{said}`");
    let total = int(&number_before(said, " games", &what));
    let variants = int(&number_before(said, " variants", &what));
    let matchups = int(&number_before(said, " matchups", &what));
    let games = int(said.rsplit(' ').next().unwrap());
    let exp: toml::Value = toml::from_str(&read("experiments/quick.toml")).unwrap();
    let file = (
        exp["variants"].as_array().unwrap().len() as u64,
        exp["matchups"].as_array().unwrap().len() as u64,
        exp["games"].as_integer().unwrap() as u64,
    );
    assert_eq!(
        (variants, matchups, games),
        file,
        "{what}, but experiments/quick.toml has (variants, matchups, games) = {file:?}"
    );
    assert_eq!(
        total,
        variants * matchups * games,
        "{what}: the product is wrong"
    );
    let summary = csv_rows("results/quick/summary.csv");
    let played: u64 = summary.iter().map(|r| int(&r["games"])).sum();
    assert_eq!(
        total, played,
        "{what}, but results/quick/summary.csv counts {played} games"
    );
    let manifest = json("results/quick/manifest.json");
    assert_eq!(
        Some(total),
        manifest["games"].as_u64(),
        "{what}, but results/quick/manifest.json says otherwise"
    );
}

/// The verdict line katro prints for a row of summary.csv
/// (docs/OUTPUTS.md, "Verdict lines"), by katro's own wording.
fn verdict_of(row: &BTreeMap<String, String>) -> String {
    let row = Row::from_fields(|c| row.get(c).map_or("", String::as_str));
    verdict_line(&row)
}

/// The verdict lines README.md quotes are those katro prints for the
/// committed quick or first-player-advantage results: each is made again
/// from summary.csv, and where the folder's report.html has a verdict
/// list, it is there word for word (followed there, where a proof of
/// the start was given to `katro report --proved`, by what it found).
/// The prose that reads the first one quotes the same numbers.
#[test]
fn the_readmes_verdict_lines_are_the_committed_ones() {
    let readme = read("README.md");
    let quoted: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("verdict: "))
        .collect();
    assert!(
        quoted.len() >= 2,
        "README.md quotes no verdict line of quick and first-player-advantage"
    );
    for line in &quoted {
        let variant = line.split(',').next().unwrap();
        let mut found = Vec::new();
        for folder in ["quick", "first-player-advantage"] {
            let summary = csv_rows(&format!("results/{folder}/summary.csv"));
            let Some(row) = summary.iter().find(|r| {
                r["variant"] == variant
                    && r["p1"] == "random"
                    && r["p2"] == "random"
                    && r["opening_plies"] == "0"
            }) else {
                continue;
            };
            let want = verdict_of(row);
            if want != *line {
                found.push(format!("results/{folder}: `{want}`"));
                continue;
            }
            let html = read(&format!("results/{folder}/report.html"));
            if let Some(at) = html.find("<ul class=\"verdict\">") {
                let list = &html[at..at + html[at..].find("</ul>").unwrap()];
                let escaped = line
                    .trim_end_matches('.')
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;");
                // The report may add what proof search found of the start
                // (`katro report --proved`), after the console's words.
                let item = format!("<li>{escaped}.</li>");
                let with_start = format!("<li>{escaped}; from the start ");
                assert!(
                    list.contains(&item) || list.contains(&with_start),
                    "README.md's `verdict: {line}` is not in results/{folder}/report.html's \
                     verdict list"
                );
            }
            found.clear();
            break;
        }
        assert!(
            found.is_empty(),
            "README.md quotes `verdict: {line}`, which katro does not print for the committed \
             results; their lines for {variant}: {found:?}"
        );
    }
    // "the first player won 49.9% of 2,000 games, with a 95% interval of
    // 47.7% to 52.0%"
    let text = words(&readme);
    let said = between(
        &text,
        "the first player won ",
        "%, too wide",
        "README's reading",
    );
    let row = csv_rows("results/quick/summary.csv")
        .into_iter()
        .find(|r| r["variant"] == "katro-6x6" && r["p1"] == "random" && r["p2"] == "random")
        .unwrap();
    let want = format!(
        "{}% of {} games, with a 95% interval of {}% to {}",
        percent(&row["p1_win_rate"]),
        thousands(int(&row["games"])),
        percent(&row["p1_win_rate_low"]),
        percent(&row["p1_win_rate_high"]),
    );
    assert_eq!(
        said, want,
        "README.md's reading of the verdict is not results/quick/summary.csv's katro-6x6 \
         random row"
    );
}

/// Every preset's proof result, results/prove/PRESET.json: value,
/// distance, bound and each first move's value.
struct Proof {
    value: String,
    distance: Option<u64>,
    bound: Option<u64>,
    moves: Vec<(String, String)>,
}

fn proofs() -> BTreeMap<String, Proof> {
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(root().join("results/prove")).unwrap() {
        let path: PathBuf = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(preset) = name.strip_suffix(".json") else {
            continue;
        };
        let j = json(&format!("results/prove/{name}"));
        out.insert(
            preset.to_string(),
            Proof {
                value: j["value"].as_str().unwrap().to_string(),
                distance: j["distance"].as_u64(),
                bound: j["bound"].as_u64(),
                moves: j["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| {
                        (
                            m["move"].as_str().unwrap().to_string(),
                            m["value"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect(),
            },
        );
    }
    assert!(out.len() >= 5, "results/prove holds {:?}", out.keys());
    out
}

/// Whether `name` occurs in `text` at `at` as a whole preset name (not
/// the head of a longer one such as katro-6x6-diagonal).
fn whole_name_at(text: &str, at: usize, name: &str) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at + name.len()..].chars().next();
    !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
        && !after.is_some_and(|c| c.is_alphanumeric() || c == '-')
}

/// "wins katro-4x4 in 17 decisions (only `b1` wins), katro-6x3 in 15
/// (only `a1` wins) and katra-boaoaka-4x8 in 13 (`d2+` and `e2-` win; 14
/// of its 32 first moves are unproven)" and "No player forces a win
/// within 24 decisions in katro-6x6, ..." against results/prove/.
#[test]
fn the_proof_results_quoted_are_results_prove() {
    let proofs = proofs();
    let readme = words(&read("README.md"));
    // Every "PRESET in N" in README.md is a proven win in N.
    for (preset, proof) in &proofs {
        for (at, _) in readme.match_indices(&format!("{preset} in ")) {
            if !whole_name_at(&readme, at, preset) {
                continue;
            }
            let n = number_after(&readme[at..], " in ", preset);
            assert_eq!(
                (proof.value.as_str(), proof.distance),
                ("win", Some(int(&n))),
                "README.md says `{preset} in {n}`, but results/prove/{preset}.json says {} \
                 (distance {:?}, bound {:?})",
                proof.value,
                proof.distance,
                proof.bound
            );
        }
    }
    let wins = between(
        &readme,
        "With perfect play the first player (South) wins ",
        "each proven by",
        "README's proven wins",
    );
    let mut named = BTreeSet::new();
    for (preset, proof) in &proofs {
        let Some(at) = wins
            .match_indices(&format!("{preset} in "))
            .map(|(i, _)| i)
            .find(|&i| whole_name_at(wins, i, preset))
        else {
            continue;
        };
        named.insert(preset.clone());
        let note = between(&wins[at..], "(", ")", preset);
        let said: BTreeSet<&str> = note.split('`').skip(1).step_by(2).collect();
        let winning: BTreeSet<&str> = proof
            .moves
            .iter()
            .filter(|(_, v)| v == "win")
            .map(|(m, _)| m.as_str())
            .collect();
        assert_eq!(
            said, winning,
            "README.md says {preset}'s winning first moves are {said:?} (`{note}`); \
             results/prove/{preset}.json proves {winning:?}"
        );
        let unproven = proof.moves.iter().filter(|(_, v)| v == "unknown").count() as u64;
        if note.starts_with("only ") {
            let others: Vec<_> = proof
                .moves
                .iter()
                .filter(|(_, v)| v != "win" && v != "loss")
                .collect();
            assert!(
                others.is_empty(),
                "README.md says only {said:?} wins on {preset}, but results/prove/{preset}.json \
                 leaves {others:?} unproven"
            );
        } else {
            let what = format!("README.md's note on {preset}, `{note}`");
            assert_eq!(
                int(&number_before(note, " of its", &what)),
                unproven,
                "{what}: results/prove/{preset}.json leaves {unproven} first moves unproven"
            );
            assert_eq!(
                int(&number_before(note, " first moves", &what)),
                proof.moves.len() as u64,
                "{what}: results/prove/{preset}.json has {} first moves",
                proof.moves.len()
            );
        }
    }
    let proven: BTreeSet<String> = proofs
        .iter()
        .filter(|(_, p)| p.value == "win")
        .map(|(k, _)| k.clone())
        .collect();
    assert_eq!(
        named, proven,
        "README.md's proven wins name {named:?}; results/prove/ proves {proven:?}"
    );
    // "No player forces a win within 24 decisions in katro-6x6, ... within
    // 15 in katro-ludii, 11 in katro-wikipedia or 10 in
    // katra-boaoaka-ludii": each preset takes the bound written before it.
    let bounds = between(
        &readme,
        "No player forces a win within ",
        ": those starts are bounded",
        "README's bounded starts",
    );
    let mut said = BTreeMap::new();
    let mut current = None;
    for token in bounds.split([' ', ',']) {
        if !token.is_empty() && token.chars().all(|c| c.is_ascii_digit()) {
            current = Some(int(token));
        } else if proofs.contains_key(token) {
            said.insert(token.to_string(), current);
        }
    }
    let bounded: BTreeMap<String, Option<u64>> = proofs
        .iter()
        .filter(|(_, p)| p.value == "unknown")
        .map(|(k, p)| (k.clone(), p.bound))
        .collect();
    assert_eq!(
        said, bounded,
        "README.md's bounded starts (`{bounds}`) are not results/prove/'s unproven presets \
         and their bounds"
    );
}

/// The board family, results/proved/proved.csv: "(98 boards and readings:
/// 27 first-player wins, 6 second-player wins, 65 bounded) every 4×3 and
/// 4×4 board is a first-player win, while 6×3 with 3 seeds and 6×4 with 2
/// seeds are forced wins for the second player"; and its check,
/// results/proved-solved/check.txt, as docs/SOLVED.md quotes it.
#[test]
fn the_board_family_quoted_is_results_proved() {
    let rows = csv_rows("results/proved/proved.csv");
    let count = |value: &str| rows.iter().filter(|r| r["value"] == value).count() as u64;
    let readme = words(&read("README.md"));
    let family = between(
        &readme,
        "Over the board family of",
        "second player.",
        "README",
    );
    let what = format!("README.md's board family, `{family}`");
    for (suffix, want, file) in [
        (" boards and readings", rows.len() as u64, "rows"),
        (" first-player wins", count("win"), "wins"),
        (" second-player wins", count("loss"), "losses"),
        (" bounded", count("unknown"), "unknown starts"),
    ] {
        assert_eq!(
            int(&number_before(family, suffix, &what)),
            want,
            "{what}: results/proved/proved.csv has {want} {file}"
        );
    }
    let board =
        |r: &BTreeMap<String, String>| (int(&r["rows"]), int(&r["holes"]), int(&r["seeds"]));
    let boards: Vec<_> = rows.iter().filter(|r| r["set"] == "boards").collect();
    let every = between(family, "every ", " board is a first-player win", &what);
    for size in every.split(" and ") {
        let (r, h) = size
            .split_once('×')
            .unwrap_or_else(|| panic!("{what}: `{size}`"));
        let (r, h) = (int(r), int(h));
        let of: Vec<_> = boards
            .iter()
            .filter(|b| board(b).0 == r && board(b).1 == h)
            .collect();
        assert!(!of.is_empty(), "{what}: proved.csv has no {r}×{h} board");
        for b in of {
            assert_eq!(
                b["value"],
                "win",
                "{what}: proved.csv's {:?} is a {}",
                board(b),
                b["value"]
            );
        }
    }
    let second = between(family, "while ", " are forced wins", &what);
    let said: BTreeSet<(u64, u64, u64)> = second
        .split(" and ")
        .map(|b| {
            let (size, seeds) = b
                .split_once(" with ")
                .unwrap_or_else(|| panic!("{what}: `{b}`"));
            let (r, h) = size.split_once('×').unwrap();
            (int(r), int(h), int(seeds.split(' ').next().unwrap()))
        })
        .collect();
    let lost: BTreeSet<_> = boards
        .iter()
        .filter(|b| b["value"] == "loss")
        .map(|b| board(b))
        .collect();
    assert_eq!(
        said, lost,
        "{what}: the boards proved.csv proves second-player wins are {lost:?}"
    );
    // docs/SOLVED.md: "It found 27 first-player wins, 6 second-player wins
    // and 65 starts unknown" and "its check 139 agreeing starts and 664
    // agreeing first moves".
    let solved_md = words(&read("docs/SOLVED.md"));
    let found = between(
        &solved_md,
        "It found ",
        " starts unknown",
        "docs/SOLVED.md's family",
    );
    let what = format!("docs/SOLVED.md's `It found {found} starts unknown`");
    assert_eq!(
        int(&number_before(found, " first-player wins", &what)),
        count("win"),
        "{what}"
    );
    assert_eq!(
        int(&number_before(found, " second-player wins", &what)),
        count("loss"),
        "{what}"
    );
    assert_eq!(
        int(found.rsplit(' ').next().unwrap()),
        count("unknown"),
        "{what}"
    );
    let check = read("results/proved-solved/check.txt");
    let starts = int(&number_after(&check, "the start agrees on ", "check.txt"));
    let moves = int(&number_before(&check, " agree,", "check.txt"));
    let said = between(
        &solved_md,
        "and its check ",
        " agreeing first moves",
        "docs/SOLVED.md",
    );
    let what = format!("docs/SOLVED.md's `its check {said} agreeing first moves`");
    assert_eq!(
        (
            int(&number_before(said, " agreeing starts", &what)),
            int(said.rsplit(' ').next().unwrap())
        ),
        (starts, moves),
        "{what}: results/proved-solved/check.txt says {starts} starts and {moves} first moves"
    );
}

/// The nearby starts, results/nearby/nearby.csv: README.md's "in 68 of
/// katro-4x4's 240 nearby layouts and in 69 of katro-6x3's 306", and
/// docs/SOLVED.md's table of the committed run.
#[test]
fn the_nearby_starts_quoted_are_results_nearby() {
    let rows = csv_rows("results/nearby/nearby.csv");
    let variants: BTreeSet<String> = rows.iter().map(|r| r["variant"].clone()).collect();
    let of = |variant: &str, value: &str| -> Vec<u64> {
        rows.iter()
            .filter(|r| r["variant"] == variant && r["value"] == value)
            .map(|r| {
                int(if value == "unknown" {
                    &r["bound"]
                } else {
                    &r["distance"]
                })
            })
            .collect()
    };
    let layouts = |variant: &str| rows.iter().filter(|r| r["variant"] == variant).count() as u64;
    let readme = words(&read("README.md"));
    let sentence = between(
        &readme,
        "One seed moved from",
        "(`results/nearby/`)",
        "README",
    );
    let mut quoted = 0;
    for variant in &variants {
        let Some(at) = sentence.find(&format!(" of {variant}'s ")) else {
            continue;
        };
        quoted += 1;
        let what = format!("README.md's nearby starts, `{sentence}`");
        let lost = int(sentence[..at].rsplit(' ').next().unwrap());
        let total = int(&number_after(
            &sentence[at..],
            &format!("{variant}'s "),
            &what,
        ));
        assert_eq!(
            (lost, total),
            (of(variant, "loss").len() as u64, layouts(variant)),
            "{what}: results/nearby/nearby.csv's {variant} rows say otherwise"
        );
    }
    assert!(
        quoted >= 2,
        "README.md quotes no nearby start of {variants:?}"
    );
    // docs/SOLVED.md: "| katro-4x4 | 240 | 68 (distances 6 to 34) | 14 (31
    // to 40) | 158 (1 to 33) |"
    let solved_md = read("docs/SOLVED.md");
    let table = table_after(
        &solved_md,
        "The committed `results/nearby/nearby.csv`",
        "docs/SOLVED.md's nearby table",
    );
    let cell = |c: &str| -> (u64, Option<(u64, u64)>) {
        let n = int(c.split(' ').next().unwrap());
        let range = c.split_once('(').map(|(_, r)| {
            let r = r.trim_end_matches(')').trim_start_matches("distances ");
            let (a, b) = r.split_once(" to ").unwrap();
            (int(a), int(b))
        });
        (n, range)
    };
    let range = |v: Vec<u64>| -> (u64, Option<(u64, u64)>) {
        let n = v.len() as u64;
        (n, v.iter().min().map(|&lo| (lo, *v.iter().max().unwrap())))
    };
    let mut seen = BTreeSet::new();
    for row in &table {
        let variant = row[0].as_str();
        seen.insert(variant.to_string());
        let what = format!("docs/SOLVED.md's nearby row `{}`", row.join(" | "));
        assert_eq!(int(&row[1]), layouts(variant), "{what}: layouts");
        assert_eq!(
            cell(&row[2]),
            range(of(variant, "loss")),
            "{what}: second player wins"
        );
        assert_eq!(
            cell(&row[3]),
            range(of(variant, "unknown")),
            "{what}: unproven"
        );
        assert_eq!(
            cell(&row[4]),
            range(of(variant, "win")),
            "{what}: first player wins"
        );
    }
    assert_eq!(
        seen, variants,
        "docs/SOLVED.md's nearby table leaves out a variant"
    );
}

/// The solved family, results/solved/solved.csv: its count of boards
/// solved (README.md, docs/SOLVED.md), every status count and the largest
/// board, and the value grids of the hour run and of the 120 s run.
#[test]
fn the_solved_boards_quoted_are_results_solved() {
    let rows = csv_rows("results/solved/solved.csv");
    let status = |s: &str| rows.iter().filter(|r| r["status"] == s).count() as u64;
    let solved = status("solved");
    let readme = words(&read("README.md"));
    let said = int(&number_before(
        &readme,
        " boards solved",
        "README.md's solved boards",
    ));
    assert_eq!(
        said, solved,
        "README.md says {said} boards solved; results/solved/solved.csv has {solved}"
    );
    // "Under the canonical rules every 4-row board solved is a first-player
    // win, the largest, 4×4 with 1 seed, a win in 15."
    let canonical4: Vec<_> = rows
        .iter()
        .filter(|r| r["reading"] == "canonical" && r["rows"] == "4" && r["status"] == "solved")
        .collect();
    assert!(
        canonical4.iter().all(|r| r["value"] == "win"),
        "README.md says every canonical 4-row board solved is a first-player win"
    );
    let largest = canonical4
        .iter()
        .max_by_key(|r| int(&r["positions"]))
        .unwrap();
    let what = "README.md's largest canonical 4-row board";
    let said = between(&readme, "the largest, ", ". ", what);
    assert_eq!(
        said,
        format!(
            "{}×{} with {} seed{}, a win in {}",
            largest["rows"],
            largest["holes"],
            largest["seeds"],
            if largest["seeds"] == "1" { "" } else { "s" },
            largest["start_distance"]
        ),
        "{what}: results/solved/solved.csv's is another"
    );

    let solved_md = read("docs/SOLVED.md");
    let text = words(&solved_md);
    // The opening paragraph.
    let intro = between(
        &text,
        "within an hour and 16 GiB a board: ",
        "(\"The solved family\")",
        "docs/SOLVED.md's opening",
    );
    let what = format!("docs/SOLVED.md's opening, `{intro}`");
    assert_eq!(
        int(&number_before(intro, " boards solved", &what)),
        solved,
        "{what}"
    );
    assert_eq!(
        int(&number_before(intro, " boards were refused", &what)),
        status("refused-memory"),
        "{what}"
    );
    assert_eq!(
        int(&number_before(intro, " stopped by the hour", &what)),
        status("stopped-time"),
        "{what}"
    );
    let most = rows
        .iter()
        .filter(|r| r["status"] == "solved")
        .map(|r| int(&r["positions"]))
        .max()
        .unwrap();
    assert_eq!(
        int(&number_before(intro, " positions", &what)),
        most,
        "{what}: the largest board"
    );
    // "**139 boards solved, 27 refused by 16 GiB, 4 stopped by the hour,
    // 166 not tried**, of 336"
    let complete = between(
        &text,
        "The committed run is **complete**",
        "(before the",
        "docs/SOLVED.md",
    );
    let what = format!("docs/SOLVED.md's complete run, `{complete}`");
    for (suffix, want) in [
        (" boards solved", solved),
        (" refused by 16 GiB", status("refused-memory")),
        (" stopped by the hour", status("stopped-time")),
        (" not tried", status("not-tried")),
    ] {
        assert_eq!(
            int(&number_before(complete, suffix, &what)),
            want,
            "{what}: `{suffix}`"
        );
    }
    assert_eq!(
        int(&number_after(complete, "**, of ", &what)),
        rows.len() as u64,
        "{what}"
    );
    let manifest = json("results/solved/manifest.json");
    assert_eq!(
        manifest["solved"].as_u64(),
        Some(solved),
        "results/solved/manifest.json"
    );

    // The grid of the hour run: per reading and rows, each board's value,
    // and wins / losses / draws.
    let grid = table_after(
        &solved_md,
        "The start's value for player 1, who moves first",
        "docs/SOLVED.md's value grid",
    );
    check_grid(&grid, &rows, true, "results/solved/solved.csv");
    // The 120 s run's: wins / losses / draws per reading.
    let early = csv_rows("results/solved-120s/solved.csv");
    let grid = table_after(
        &solved_md,
        "Its table (t stopped at 120 s",
        "docs/SOLVED.md's 120 s grid",
    );
    check_grid(&grid, &early, false, "results/solved-120s/solved.csv");
    let sum = between(
        &text,
        "with **120 seconds** a board",
        " not tried**",
        "docs/SOLVED.md",
    );
    let what = format!("docs/SOLVED.md's 120 s run, `{sum}`");
    let status = |s: &str| early.iter().filter(|r| r["status"] == s).count() as u64;
    assert_eq!(
        int(&number_before(sum, " boards solved", &what)),
        status("solved"),
        "{what}"
    );
    assert_eq!(
        int(&number_before(sum, " stopped by the 120 s cap", &what)),
        status("stopped-time"),
        "{what}"
    );
    assert_eq!(
        int(&number_before(sum, " refused by memory", &what)),
        status("refused-memory"),
        "{what}"
    );
    assert_eq!(
        int(sum.rsplit(' ').next().unwrap()),
        status("not-tried"),
        "{what}"
    );
}

/// A value grid of docs/SOLVED.md (`| reading | rows | 2 | ... | 8 | W /
/// L / D |`, a continuation row with an empty reading) against a
/// solved.csv: each board's letter, and the counts per reading and rows
/// (`per_rows`) or per reading (given on its first row).
fn check_grid(grid: &[Vec<String>], rows: &[BTreeMap<String, String>], per_rows: bool, file: &str) {
    let letter = |r: &BTreeMap<String, String>| match (r["status"].as_str(), r["value"].as_str()) {
        ("solved", "win") => 'W',
        ("solved", "loss") => 'L',
        ("solved", "draw") => 'D',
        ("refused-memory", _) => 'm',
        ("stopped-time", _) => 't',
        ("not-tried", _) => '·',
        other => panic!("{file}: {other:?}"),
    };
    let mut reading = String::new();
    let mut checked = 0;
    for line in grid {
        if !line[0].is_empty() {
            reading = line[0].clone();
        }
        let what = format!("docs/SOLVED.md's grid row `{}`", line.join(" | "));
        let nrows = line[1].as_str();
        for (i, cell) in line[2..9].iter().enumerate() {
            let holes = (i + 2).to_string();
            for (j, got) in cell.chars().enumerate() {
                let seeds = (j + 1).to_string();
                let row = rows
                    .iter()
                    .find(|r| {
                        r["reading"] == reading
                            && r["rows"] == nrows
                            && r["holes"] == holes
                            && r["seeds"] == seeds
                    })
                    .unwrap_or_else(|| {
                        panic!("{what}: {file} has no {nrows}×{holes} with {seeds}")
                    });
                assert_eq!(
                    got,
                    letter(row),
                    "{what}: {reading} {nrows}×{holes} with {seeds} seeds is `{}` in {file}",
                    letter(row)
                );
                checked += 1;
            }
        }
        let counts = line[9].as_str();
        if counts.is_empty() {
            continue;
        }
        let said: Vec<u64> = counts.split('/').map(|n| int(n.trim())).collect();
        let solved: Vec<_> = rows
            .iter()
            .filter(|r| r["reading"] == reading && r["status"] == "solved")
            .filter(|r| !per_rows || r["rows"] == nrows)
            .collect();
        let got: Vec<u64> = ["win", "loss", "draw"]
            .iter()
            .map(|v| solved.iter().filter(|r| r["value"] == *v).count() as u64)
            .collect();
        assert_eq!(said, got, "{what}: {file}'s wins / losses / draws");
    }
    let readings: BTreeSet<_> = rows.iter().map(|r| r["reading"].clone()).collect();
    assert_eq!(
        checked,
        readings.len() * 2 * 7 * 4,
        "docs/SOLVED.md's grid does not cover every board of {file}"
    );
}

/// docs/SOLVED.md's committed openings run, results/openings/openings.csv:
/// "| katro-4x4 | 1/4 exactly | 5/8 exactly | 0.591146 to 0.600260 (2 of
/// 191 positions unproven, ...) |".
#[test]
fn the_openings_quoted_are_results_openings() {
    let rows = csv_rows("results/openings/openings.csv");
    let solved_md = read("docs/SOLVED.md");
    let table = table_after(
        &solved_md,
        "**The committed run** (`results/openings/openings.csv`",
        "docs/SOLVED.md's openings",
    );
    let header_at = solved_md
        .find("| preset | k = 1")
        .expect("docs/SOLVED.md's openings header");
    let plies: Vec<String> = solved_md[header_at..]
        .lines()
        .next()
        .unwrap()
        .trim_matches('|')
        .split('|')
        .skip(1)
        .map(|c| c.trim().trim_start_matches("k = ").to_string())
        .collect();
    for line in &table {
        let variant = &line[0];
        for (k, cell) in plies.iter().zip(&line[1..]) {
            let row = rows
                .iter()
                .find(|r| &r["variant"] == variant && &r["plies"] == k)
                .unwrap_or_else(|| panic!("openings.csv has no {variant} at {k} plies"));
            let what = format!("docs/SOLVED.md's {variant} at k = {k}, `{cell}`");
            if let Some(exact) = cell.strip_suffix(" exactly") {
                assert_eq!(
                    row["unknown"], "0",
                    "{what}: openings.csv leaves positions unproven"
                );
                assert_eq!(
                    exact,
                    row["exact"].split(';').next().unwrap(),
                    "{what}: openings.csv's `exact`"
                );
                continue;
            }
            let (low, rest) = cell.split_once(" to ").unwrap_or_else(|| panic!("{what}"));
            let high = rest.split(' ').next().unwrap();
            assert_eq!(
                (low, high),
                (row["share_low"].as_str(), row["share_high"].as_str()),
                "{what}"
            );
            let note = between(cell, "(", " unproven", &what);
            assert_eq!(
                int(note.split(' ').next().unwrap()),
                int(&row["unknown"]),
                "{what}: unproven"
            );
            assert_eq!(
                int(&number_after(note, " of ", &what)),
                int(&row["positions"]),
                "{what}: positions"
            );
            if cell.contains("probability ") {
                assert_eq!(
                    number_after(cell, "probability ", &what),
                    row["unknown_probability"],
                    "{what}"
                );
            }
            if cell.contains(" nodes in all") {
                assert_eq!(
                    int(&number_before(cell, " nodes in all", &what)),
                    int(&row["nodes"]),
                    "{what}"
                );
            }
        }
    }
}

/// README.md's ratings of the agent ladder on katro-6x6 are
/// results/strong-play/ratings.csv's, rounded, and the agent it calls the
/// strongest is the top of strong-play.toml's ladder and rated highest.
#[test]
fn the_agent_ratings_quoted_are_results_strong_play() {
    let readme = read("README.md");
    let ratings: Vec<_> = csv_rows("results/strong-play/ratings.csv")
        .into_iter()
        .filter(|r| r["variant"] == "katro-6x6")
        .collect();
    let table = table_after(
        &readme,
        "| agent | rating on katro-6x6 |",
        "README.md's agent table",
    );
    assert_eq!(
        table.len(),
        ratings.len(),
        "README.md's agent table leaves out an agent of ratings.csv"
    );
    let round = |s: &str| {
        let v = s.parse::<f64>().unwrap().round();
        let sign = if v < 0.0 { "-" } else { "" };
        format!("{sign}{}", thousands(v.abs() as u64))
    };
    for line in &table {
        let agent = line[0].trim_matches('`');
        let row = ratings
            .iter()
            .find(|r| r["agent"] == agent || r["agent"].starts_with(&format!("{agent},")))
            .unwrap_or_else(|| {
                panic!("results/strong-play/ratings.csv rates no `{agent}` on katro-6x6")
            });
        let want = if row["rating"] == "0.000000" {
            "0".to_string()
        } else {
            format!(
                "{} [{}, {}]",
                round(&row["rating"]),
                round(&row["rating_low"]),
                round(&row["rating_high"])
            )
        };
        assert_eq!(
            line[1], want,
            "README.md's rating of `{agent}`: ratings.csv says {want}"
        );
    }
    let strongest = between(
        &words(&readme),
        "the strongest agent of the committed studies is `",
        "`",
        "README.md's strongest agent",
    )
    .to_string();
    let exp: toml::Value = toml::from_str(&read("experiments/strong-play.toml")).unwrap();
    let ladder = exp["tournament"]["agents"].as_array().unwrap();
    assert_eq!(
        ladder.last().and_then(|a| a.as_str()),
        Some(strongest.as_str()),
        "README.md's strongest agent is not the top of experiments/strong-play.toml's ladder"
    );
    let top = ratings
        .iter()
        .max_by(|a, b| {
            a["rating"]
                .parse::<f64>()
                .unwrap()
                .total_cmp(&b["rating"].parse().unwrap())
        })
        .unwrap();
    assert_eq!(
        top["agent"], strongest,
        "the agent rated highest on katro-6x6 is another"
    );
}

/// results/README.md's table: each experiment folder's games and seconds
/// are its manifest's, the solve and prove folders' times the sums it
/// names; and its excerpt of quick/summary.csv is that file's.
#[test]
fn the_results_page_quotes_the_manifests() {
    let page = read("results/README.md");
    let table = table_after(
        &page,
        "## What each folder holds",
        "results/README.md's folder table",
    );
    let mut folders = BTreeSet::new();
    for line in &table {
        let folder = line[0].trim_matches('`').trim_end_matches('/').to_string();
        folders.insert(folder.clone());
        let what = format!("results/README.md's row for {folder}/");
        let (holds, took) = (line[1].as_str(), line[4].as_str());
        let took_s = || {
            let first = took.split(' ').next().unwrap();
            assert!(
                took.starts_with(|c: char| c.is_ascii_digit()),
                "{what}: `{took}`"
            );
            first.to_string()
        };
        let manifest_path = format!("results/{folder}/manifest.json");
        let seconds = |v: f64| thousands_f1(v);
        match folder.as_str() {
            "prove" => {
                let sum: f64 = fs::read_dir(root().join("results/prove"))
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
                    .filter(|n| n.ends_with(".json"))
                    .map(|n| {
                        json(&format!("results/prove/{n}"))["seconds"]
                            .as_f64()
                            .unwrap()
                    })
                    .sum();
                assert_eq!(took_s(), seconds(sum), "{what}: the JSON files' seconds");
            }
            "solved" => {
                let m = json(&manifest_path);
                let sum: f64 = m["boards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b["seconds"].as_f64().unwrap())
                    .sum();
                assert_eq!(
                    took_s(),
                    seconds(sum),
                    "{what}: the manifest's boards' seconds"
                );
            }
            "solved-120s" | "proved-solved" => {
                let m = json(&manifest_path);
                assert_eq!(
                    took_s(),
                    seconds(m["seconds"].as_f64().unwrap()),
                    "{what}: the manifest's seconds"
                );
            }
            "proved" => {
                let m = json(&manifest_path);
                let sum: f64 = m["times"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b["seconds"].as_f64().unwrap())
                    .sum();
                assert_eq!(
                    took_s(),
                    thousands(sum.round() as u64),
                    "{what}: the manifest's times"
                );
            }
            "strength-curve" => {
                let m = json(&manifest_path);
                let sum: f64 = m["shards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s["wall_seconds"].as_f64().unwrap())
                    .sum();
                assert_eq!(
                    number_before(took, " hours", &what),
                    format!("{:.1}", sum / 3600.0),
                    "{what}: the shards' wall_seconds"
                );
                assert_eq!(
                    int(&number_before(
                        holds.rsplit(": ").next().unwrap(),
                        " games",
                        &what
                    )),
                    m["games"].as_u64().unwrap(),
                    "{what}: games"
                );
            }
            _ => {
                let Ok(text) = fs::read_to_string(root().join(&manifest_path)) else {
                    continue;
                };
                let m: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(
                    int(&number_before(
                        holds.rsplit(": ").next().unwrap(),
                        " games",
                        &what
                    )),
                    m["games"].as_u64().unwrap(),
                    "{what}: games"
                );
                assert_eq!(
                    took_s(),
                    seconds(m["wall_seconds"].as_f64().unwrap()),
                    "{what}: wall_seconds"
                );
            }
        }
    }
    let committed: BTreeSet<String> = fs::read_dir(root().join("results"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(
        folders, committed,
        "results/README.md's table and results/'s folders differ"
    );

    let excerpt = between(
        &page,
        "An excerpt of `quick/summary.csv`",
        "```\n\nRead:",
        "results/README.md",
    );
    let mut lines = excerpt
        .lines()
        .skip_while(|l| !l.starts_with("```"))
        .skip(1);
    let columns: Vec<&str> = lines.next().unwrap().split(',').collect();
    let summary = csv_rows("results/quick/summary.csv");
    for (i, line) in lines.enumerate() {
        let want: Vec<&str> = columns.iter().map(|c| summary[i][*c].as_str()).collect();
        assert_eq!(
            line,
            want.join(","),
            "results/README.md's excerpt, line {i}: quick/summary.csv says otherwise"
        );
    }
}

/// Seconds with one decimal and thousands separators (`2,731.7`).
fn thousands_f1(v: f64) -> String {
    let tenths = (v * 10.0).round() as u64;
    format!("{}.{}", thousands(tenths / 10), tenths % 10)
}

/// Every relative link of README.md and results/README.md leads to a file
/// that exists, and every `#anchor` to a heading of it.
#[test]
fn the_pages_links_resolve() {
    for page in ["README.md", "results/README.md"] {
        let text = read(page);
        let dir = Path::new(page).parent().unwrap();
        let mut links = 0;
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let target = &rest[..rest.find(')').unwrap()];
            if target.contains("://") {
                continue;
            }
            links += 1;
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let path = if file.is_empty() {
                PathBuf::from(page)
            } else {
                dir.join(file)
            };
            let full = root().join(&path);
            assert!(
                full.exists(),
                "{page} links to {target}, and {} does not exist",
                path.display()
            );
            if anchor.is_empty() {
                continue;
            }
            let heads: Vec<String> = fs::read_to_string(&full)
                .unwrap()
                .lines()
                .filter(|l| l.starts_with('#'))
                .map(|l| slug(l.trim_start_matches('#').trim()))
                .collect();
            assert!(
                heads.iter().any(|h| h == anchor),
                "{page} links to {target}, but {} has no heading `#{anchor}`",
                path.display()
            );
        }
        assert!(links > 3, "{page}: no links found");
    }
}

/// A heading's anchor as GitHub makes it: lower case, punctuation
/// dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}
