//! The pictures through the real binary: `katro report`, the report that
//! `katro run` writes, `katro show --svg`, `katro replay --html` and
//! `--from-csv`, and `katro play` with piped input.

use std::fs;
use std::path::Path;

use crate::common::katro_in;

fn ok(args: &[&str]) -> String {
    let r = katro_in(args, "");
    assert_eq!(r.code, 0, "katro {args:?}: {}", r.stderr);
    r.stdout
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

/// Every field of a CSV by column name, row by row.
fn csv_rows(path: &Path) -> Vec<Vec<(String, String)>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The page is one file that fetches nothing.
fn assert_self_contained(html: &str) {
    for bad in [
        "<script src",
        "<link",
        "src=\"http",
        "href=\"http",
        "@import",
        "url(http",
    ] {
        assert!(!html.contains(bad), "the page loads something: {bad}");
    }
}

#[test]
fn report_on_a_committed_results_folder_shows_the_csv_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("quick");
    fs::create_dir(&dir).unwrap();
    for f in ["summary.csv", "comparison.csv", "manifest.json"] {
        fs::copy(repo(&format!("results/quick/{f}")), dir.join(f)).unwrap();
    }
    ok(&["report", dir.to_str().unwrap()]);
    let html = fs::read_to_string(dir.join("report.html")).unwrap();
    assert_self_contained(&html);
    for chart in ["win-rate", "lengths", "comparison"] {
        let file = fs::read_to_string(dir.join("plots").join(format!("{chart}.svg"))).unwrap();
        // A comment marks the file as katro's, then the chart itself.
        let svg = file
            .strip_prefix("<!-- katro report -->\n")
            .unwrap_or_else(|| panic!("{chart}: no katro mark"));
        assert!(svg.starts_with("<svg"), "{chart}");
        // The same chart is inline in the page.
        assert!(html.contains(svg), "{chart} is not inline");
        assert!(html.contains(&format!("<figure id=\"{chart}\">")));
    }
    // A sample of numbers, each found on the page as the CSV writes it,
    // in its own row and column.
    let summary = csv_rows(&dir.join("summary.csv"));
    let mut checked = 0;
    for (r, row) in summary.iter().enumerate().step_by(3) {
        for (col, value) in row {
            if [
                "games",
                "decided",
                "p1_win_rate",
                "p1_win_rate_low",
                "p1_win_rate_high",
                "length_mean",
                "length_p50",
                "length_p90",
            ]
            .contains(&col.as_str())
            {
                let cell = format!(
                    "data-file=\"summary.csv\" data-row=\"{r}\" data-col=\"{col}\">{value}</td>"
                );
                assert!(html.contains(&cell), "missing {cell}");
                checked += 1;
            }
        }
        // The rules table names the exact rules (a browser may break the
        // string only at its `<wbr>`s, after a comma or bracket).
        let rules = &row.iter().find(|(c, _)| c == "rules").unwrap().1;
        assert!(
            html.replace("<wbr>", "").contains(rules.as_str()),
            "rules of row {r}"
        );
    }
    let comparison = csv_rows(&dir.join("comparison.csv"));
    for (r, row) in comparison.iter().enumerate() {
        for (col, value) in row {
            if col.starts_with("advantage_diff") || col.starts_with("length_diff") {
                let cell = format!(
                    "data-file=\"comparison.csv\" data-row=\"{r}\" data-col=\"{col}\">{value}</td>"
                );
                assert!(html.contains(&cell), "missing {cell}");
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} numbers checked");
}

#[test]
fn run_writes_lengths_and_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("tiny.toml");
    fs::write(
        &exp,
        "name = \"tiny\"\nseed = 4\nvariants = [\"katro-4x4\", \"katro-6x3\"]\ngames = 30\n\
         per_game_rows = true\nmoves_in_rows = true\n\n[[matchups]]\np1 = \"random\"\np2 = \"greedy\"\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    ok(&[
        "run",
        exp.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    for f in [
        "report.html",
        "plots/win-rate.svg",
        "plots/lengths.svg",
        "lengths.csv",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    // lengths.csv holds every game once, at the length games.csv gives it.
    let games = csv_rows(&out.join("games.csv"));
    let lengths = csv_rows(&out.join("lengths.csv"));
    let mut from_games = std::collections::BTreeMap::new();
    for g in &games {
        let get = |c: &str| g.iter().find(|(k, _)| k == c).unwrap().1.clone();
        *from_games
            .entry((get("variant"), get("plies")))
            .or_insert(0u64) += 1;
    }
    let mut from_lengths = std::collections::BTreeMap::new();
    for l in &lengths {
        let get = |c: &str| l.iter().find(|(k, _)| k == c).unwrap().1.clone();
        from_lengths.insert(
            (get("variant"), get("length")),
            get("games").parse().unwrap(),
        );
    }
    assert_eq!(from_games, from_lengths);
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("exact length histogram"));
    // `katro report` on the folder gives the same page.
    ok(&["report", out.to_str().unwrap()]);
    assert_eq!(fs::read_to_string(out.join("report.html")).unwrap(), html);

    // The viewer opens a game of the study: the variant comes from the
    // manifest, and the page embeds what `katro replay` computes.
    let page = tmp.path().join("game.html");
    let csv = out.join("games.csv");
    ok(&[
        "replay",
        "--from-csv",
        csv.to_str().unwrap(),
        "--row",
        "31",
        "--html",
        page.to_str().unwrap(),
    ]);
    let html = fs::read_to_string(&page).unwrap();
    assert_self_contained(&html);
    assert!(html.contains("katro-6x3: "));
    let made = format!(
        "Made by <code>katro replay --from-csv {} --row 31</code>",
        csv.display()
    );
    assert!(html.contains(&made), "{made}");
    let row = &games[30];
    let moves = &row.iter().find(|(k, _)| k == "moves").unwrap().1;
    let mut args = vec!["replay", "katro-6x3"];
    args.extend(moves.split_whitespace());
    let json: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    let board: Vec<u16> = json["board"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u16)
        })
        .collect();
    // The last frame's board, as the page's JSON holds it.
    let data = html
        .split("<script id=\"game\" type=\"application/json\">")
        .nth(1)
        .unwrap();
    let data: serde_json::Value =
        serde_json::from_str(data.split("</script>").next().unwrap()).unwrap();
    let last = data["frames"].as_array().unwrap().last().unwrap();
    let shown: Vec<u16> = last["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u16)
        .collect();
    assert_eq!(shown, board);
}

#[test]
fn report_errors_name_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let r = katro_in(&["report", tmp.path().to_str().unwrap()], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("summary.csv: not found"), "{}", r.stderr);
    fs::write(tmp.path().join("summary.csv"), "variant,p1\nx,random\n").unwrap();
    let r = katro_in(&["report", tmp.path().to_str().unwrap()], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("summary.csv: missing column(s) rules"),
        "{}",
        r.stderr
    );
    assert!(!tmp.path().join("report.html").exists());
}

#[test]
fn show_svg_draws_the_board() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("b.svg");
    ok(&["show", "katro-4x4", "--svg", f.to_str().unwrap()]);
    let svg = fs::read_to_string(&f).unwrap();
    assert!(svg.starts_with("<svg"));
    for name in ["a1", "d4", "capturing row"] {
        assert!(svg.contains(name), "{name}");
    }
    let r = katro_in(&["show", "katro-4x4", "--svg", "/no/such/folder/b.svg"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("does not exist"), "{}", r.stderr);
}

#[test]
fn replay_html_refuses_an_illegal_move_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("g.html");
    let r = katro_in(
        &[
            "replay",
            "katro-6x6",
            "a1",
            "a1",
            "--html",
            f.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("move 2 `a1` is illegal"), "{}", r.stderr);
    assert!(!f.exists());
}

#[test]
fn play_answers_bad_input_and_prints_a_replay_command_that_replays() {
    let input = format!("zz\nd4\n{}", south_holes_over_and_over());
    let args = [
        "play",
        "katro-4x4",
        "--against",
        "greedy",
        "--seat",
        "1",
        "--seed",
        "3",
    ];
    let r = katro_in(&args, &input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("`zz` is not a move"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("`d4` is not legal here; legal moves: a1 b1 c1 d1")
    );
    assert!(r.stdout.contains("game over after "), "{}", r.stdout);
    // The same seed and input play the same game.
    assert_eq!(katro_in(&args, &input).stdout, r.stdout);
    let cmd = r
        .stdout
        .lines()
        .find(|l| l.starts_with("katro replay katro-4x4 "))
        .expect("a replay command");
    let replay: Vec<&str> = cmd.split_whitespace().skip(1).collect();
    let json: serde_json::Value = serde_json::from_str(&ok(&replay)).unwrap();
    assert_eq!(json["plies"].as_u64().unwrap() as usize, replay.len() - 2);
    assert_ne!(json["status"], "ongoing");
    // The board the terminal showed last is the replayed one.
    let last_board: Vec<&str> = r
        .stdout
        .split("\n\n")
        .filter(|b| {
            let last = b.trim_end().lines().last().unwrap_or("");
            last.split_whitespace().collect::<Vec<_>>() == ["a", "b", "c", "d"]
        })
        .last()
        .unwrap()
        .lines()
        .collect();
    let rows = json["board"].as_array().unwrap();
    for (i, line) in last_board.iter().take(4).enumerate() {
        let want: Vec<String> = rows[3 - i]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.to_string())
            .collect();
        let got: Vec<&str> = line.split_whitespace().skip(1).collect();
        assert_eq!(got, want, "row {}", 4 - i);
    }
    // Against quit: the game so far, still a valid replay command.
    let r = katro_in(&args, "a1\nquit\n");
    assert!(r.stdout.contains("the game so far:"));
    let cmd = r.stdout.lines().last().unwrap();
    assert!(cmd.starts_with("katro replay katro-4x4 a1 "), "{cmd}");
}

/// Hole names are read in either case (RULES.md §1), by `play` and
/// `replay` alike, and an empty line asks again without an error.
#[test]
fn play_takes_upper_case_holes_and_asks_again_after_an_empty_line() {
    let args = ["play", "katro-4x4", "--against", "greedy", "--seed", "3"];
    let r = katro_in(&args, "\n   \nA1\nquit\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("is not a move"), "{}", r.stdout);
    assert!(r.stdout.contains("ply 1: you play a1"), "{}", r.stdout);
    // Asked for ply 1 three times (two empty lines, then A1), once more
    // for ply 3 (quit).
    assert_eq!(
        r.stdout.matches("ply 1, your move").count(),
        3,
        "{}",
        r.stdout
    );
    assert_eq!(r.stdout.matches("your move").count(), 4, "{}", r.stdout);
    let cmd = r.stdout.lines().last().unwrap();
    assert!(cmd.starts_with("katro replay katro-4x4 a1 "), "{cmd}");
    assert_eq!(
        ok(&["replay", "katro-4x4", "A1"]),
        ok(&["replay", "katro-4x4", "a1"])
    );
}

#[test]
fn replay_from_csv_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("games.csv");
    fs::write(&csv, "variant,p1,p2,game,moves,new_column\nkatro-4x4,random,random,0,a1 d4,\nmystery,random,random,1,a1,\n").unwrap();
    let c = csv.to_str().unwrap();
    let r = katro_in(&["replay", "--from-csv", c, "--row", "3"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--row 3: give a row from 1 to 2"),
        "{}",
        r.stderr
    );
    let r = katro_in(&["replay", "--from-csv", c, "--row", "2"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("variant `mystery` is not a preset and there is no manifest.json"),
        "{}",
        r.stderr
    );
    // A preset without a manifest works; without --html it prints the game.
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["replay", "--from-csv", c, "--row", "1"])).unwrap();
    assert_eq!(json["plies"], 2);
    fs::write(&csv, "variant,p1\nkatro-4x4,random\n").unwrap();
    let r = katro_in(&["replay", "--from-csv", c, "--row", "1"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no `moves` column"), "{}", r.stderr);
    let r = katro_in(&["play", "katro-4x4", "--against", "grandmaster"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("agent `grandmaster`"), "{}", r.stderr);
}

#[test]
fn play_from_the_second_seat_lets_the_agent_move_first() {
    let mut input = String::new();
    for _ in 0..600 {
        for h in ["a4", "b4", "c4", "d4", "a3", "b3", "c3", "d3"] {
            input.push_str(h);
            input.push('\n');
        }
    }
    let r = katro_in(
        &[
            "play",
            "katro-4x4",
            "--against",
            "random",
            "--seat",
            "2",
            "--seed",
            "8",
        ],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("ply 1: South (player 1) (random) plays "),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("game over after "));
    let cmd = r.stdout.lines().last().unwrap();
    let replay: Vec<&str> = cmd.split_whitespace().skip(1).collect();
    let json: serde_json::Value = serde_json::from_str(&ok(&replay)).unwrap();
    assert_ne!(json["status"], "ongoing");
}

/// The viewer's "Made by" line is the command the user ran: a variant
/// read from a file is named by its path (quoted for the shell), the
/// limits given are kept, and the line reruns in a shell to the same game.
/// Counts of one are singular ("1 ply").
#[test]
fn viewer_prints_the_command_that_made_it() {
    let tmp = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(repo("variants/katro-4x4.toml")).unwrap();
    let file = tmp.path().join("my rules.toml");
    fs::write(
        &file,
        text.replace("name = \"katro-4x4\"", "name = \"mine\""),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let page = tmp.path().join("game.html");
    let out = ok(&[
        "replay",
        file,
        "--ply-limit",
        "1",
        "a1",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(out.contains(": 1 ply, "), "{out}");
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h1>mine: 1 ply</h1>"), "{html}");
    let made = html
        .split("Made by <code>")
        .nth(1)
        .and_then(|t| t.split("</code>").next())
        .unwrap();
    assert_eq!(made, format!("katro replay '{file}' --ply-limit 1 a1"));
    // The footer names the page's own file, as given to --html.
    let named = format!("--html <code>{}</code>", page.to_str().unwrap());
    assert!(html.contains(&named), "{named}");
    // Rerun by a shell, it replays the same game (the page escapes no
    // character of this command).
    let bin = assert_cmd::cargo::cargo_bin!("katro");
    let rerun = std::process::Command::new("sh")
        .arg("-c")
        .arg(made.replacen("katro", &format!("'{}'", bin.display()), 1))
        .output()
        .unwrap();
    assert!(rerun.status.success(), "{made}: {:?}", rerun);
    let json = String::from_utf8(rerun.stdout).unwrap();
    assert!(json.contains("\"status\":\"ply-limit\""), "{json}");
    assert_eq!(json, ok(&["replay", file, "--ply-limit", "1", "a1"]));
    let r = katro_in(&["replay", file, "--ply-limit", "1", "a1", "a2"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("the game is already over (status ply-limit) after 1 ply"),
        "{}",
        r.stderr
    );
}

/// The replay command `katro play` prints at the end reruns in a shell:
/// a variant file's path with a space is quoted.
#[test]
fn play_prints_a_replay_command_a_shell_can_run() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("my 4x4.toml");
    std::fs::write(
        &file,
        "name = \"mine\"\n[board]\nrows = 4\nholes = 4\nseeds = 2\n",
    )
    .unwrap();
    let input = south_holes_over_and_over();
    let path = file.display().to_string();
    let args = [
        "play",
        &path,
        "--against",
        "greedy",
        "--seat",
        "1",
        "--seed",
        "3",
    ];
    let r = katro_in(&args, &input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cmd = r
        .stdout
        .lines()
        .find(|l| l.starts_with("katro replay "))
        .expect("a replay command");
    assert!(
        cmd.starts_with(&format!("katro replay '{path}' a1 ")),
        "{cmd}"
    );
    let bin = assert_cmd::cargo::cargo_bin!("katro");
    let shell = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd.replacen("katro", &format!("'{}'", bin.display()), 1))
        .output()
        .unwrap();
    assert!(
        shell.status.success(),
        "{}",
        String::from_utf8_lossy(&shell.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&shell.stdout).unwrap();
    assert_ne!(json["status"], "ongoing");
}

/// South's eight holes of katro-4x4 over and over, a line each: each turn
/// one of any eight lines is legal (no directions, no steps), the rest are
/// answered with the legal moves; a game ends long before the input.
fn south_holes_over_and_over() -> String {
    let holes = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"];
    holes.map(|h| format!("{h}\n")).concat().repeat(600)
}
