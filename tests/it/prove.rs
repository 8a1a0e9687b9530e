//! `katro prove` and `katro check-proof` through the real binary: the
//! values the independent model confirms (katro-4x4's start is a
//! first-player win in 17 with `b1` alone, katro-6x3's in 15 with `a1`
//! alone), the bound of an unproven search, certificates that check, and
//! bad input refused with exit 2.

use crate::common::{Run, katro_in};

fn katro(args: &[&str]) -> Run {
    katro_in(args, "")
}

fn json(args: &[&str]) -> serde_json::Value {
    let run = katro(args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    serde_json::from_str(run.stdout.trim()).expect("one JSON object")
}

fn move_value<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == name)
        .unwrap_or_else(|| panic!("no move {name}"))
}

#[test]
fn katro_4x4_start_is_a_first_player_win_in_17_by_b1_alone() {
    let v = json(&["prove", "katro-4x4", "--json", "--max-memory", "0.25"]);
    assert_eq!(v["value"], "win");
    assert_eq!(v["distance"], 17);
    assert_eq!(v["to_move"], "South");
    let b1 = move_value(&v, "b1");
    assert_eq!((&b1["value"], &b1["distance"]), (&"win".into(), &17.into()));
    for m in v["moves"].as_array().unwrap() {
        if m["move"] != "b1" {
            // Only b1 wins within 17: any other win is slower.
            assert!(
                m["value"] != "win" || m["distance"].as_u64().unwrap() > 17,
                "{m}"
            );
        }
    }
    assert_eq!(v["line"].as_array().unwrap().len(), 17);
    assert_eq!(v["line"][0], "b1");
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn after_the_winning_move_the_second_player_loses_in_16() {
    let v = json(&["prove", "katro-4x4", "b1", "--json", "--max-memory", "0.25"]);
    assert_eq!(v["to_move"], "North");
    assert_eq!((&v["value"], &v["distance"]), (&"loss".into(), &16.into()));
}

#[test]
fn katro_6x3_text_names_the_winner_distance_and_moves() {
    let run = katro(&["prove", "katro-6x3", "--max-memory", "0.25"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("South wins in 15 decisions (proved: a win within 15, none within 14)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("principal line: a1 "), "{}", run.stdout);
    assert!(run.stdout.contains("searched "), "{}", run.stdout);
}

#[test]
fn an_unproven_search_reports_the_bound_it_established() {
    let v = json(&["prove", "katro-6x6", "--max-depth", "5", "--json"]);
    assert_eq!(v["value"], "unknown");
    assert_eq!(v["distance"], serde_json::Value::Null);
    assert_eq!(v["bound"], 5);
    assert_eq!(v["stopped"], "depth");
    // Each move searched to the depth the bound needs: 4 after it.
    for m in v["moves"].as_array().unwrap() {
        assert_eq!(m["value"], "unknown", "{m}");
        assert_eq!(m["bound"], 5, "{m}");
    }
    let nodes = json(&["prove", "katro-4x6", "--max-nodes", "20000", "--json"]);
    assert_eq!(nodes["value"], "unknown");
    assert_eq!(nodes["stopped"], "nodes");
    let text = katro(&["prove", "katro-6x6", "--max-depth", "3"]);
    assert!(
        text.stdout
            .contains("unknown: neither side forces a win within 3 decisions"),
        "{}",
        text.stdout
    );
}

#[test]
fn the_same_search_gives_the_same_json_but_time_and_memory() {
    let strip = |mut v: serde_json::Value| {
        v["seconds"] = 0.into();
        v["peak_memory_bytes"] = 0.into();
        v
    };
    let args = ["prove", "katro-6x3", "b1", "--json", "--max-memory", "0.25"];
    assert_eq!(strip(json(&args)), strip(json(&args)));
}

#[test]
fn certificates_of_the_proven_starts_check() {
    let dir = tempfile::tempdir().unwrap();
    for (variant, file) in [("katro-6x3", "c.txt"), ("katro-4x4", "c.txt.gz")] {
        let path = dir.path().join(file);
        let path = path.to_str().unwrap();
        let v = json(&[
            "prove",
            variant,
            "--json",
            "--max-memory",
            "0.25",
            "--certificate",
            path,
        ]);
        assert!(v["certificate"]["decisions"].as_u64().unwrap() > 0);
        let check = katro(&["check-proof", variant, path]);
        assert_eq!(check.code, 0, "{}", check.stderr);
        // Written again over its own file: katro's to replace.
        let again = katro(&["prove", variant, "--certificate", path]);
        assert_eq!(again.code, 0, "{}", again.stderr);
    }
}

#[test]
fn a_file_katro_did_not_write_is_never_a_certificate_target() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "mine\n").unwrap();
    let run = katro(&[
        "prove",
        "katro-6x3",
        "--certificate",
        path.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine\n");
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    for (args, says) in [
        (&["prove", "katro-7x7"][..], "katro-7x7"),
        (&["prove", "katro-4x4", "z9"], "move 1"),
        (&["prove", "katro-4x4", "a4"], "illegal"),
        (&["prove", "katro-4x4", "--max-memory", "0"], "--max-memory"),
        (
            &["prove", "katro-4x4", "--max-seconds", "-1"],
            "--max-seconds",
        ),
        (&["prove", "katro-4x4", "--max-depth", "0"], "--max-depth"),
    ] {
        let run = katro(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn a_finished_position_has_nothing_to_prove() {
    let v = json(&["prove", "katro-6x3", "--json", "--max-memory", "0.25"]);
    let line: Vec<String> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let mut args = vec!["prove", "katro-6x3"];
    args.extend(line.iter().map(String::as_str));
    let run = katro(&args);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("nothing to prove"), "{}", run.stderr);
}

/// The committed starts (results/prove/, scripts/prove-presets.sh):
/// each certificate checks, and the two quick presets prove again to the
/// same values, moves, line, nodes and certificate size (a smaller table
/// than the script's: neither search fills one, so none is replaced and
/// the search is the same).
#[test]
fn the_committed_starts_check_and_reproduce() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/prove");
    for variant in ["katro-4x4", "katro-6x3", "katra-boaoaka-4x8"] {
        let cert = dir.join(format!("{variant}.cert.gz"));
        let check = katro(&["check-proof", variant, cert.to_str().unwrap()]);
        assert_eq!(check.code, 0, "{variant}: {}", check.stderr);
        assert!(
            check.stdout.contains("South wins within"),
            "{}",
            check.stdout
        );
    }
    let out = tempfile::tempdir().unwrap();
    for variant in ["katro-4x4", "katro-6x3"] {
        let text = std::fs::read_to_string(dir.join(format!("{variant}.json"))).unwrap();
        let committed: serde_json::Value = serde_json::from_str(&text).unwrap();
        // As the script runs it: the certificate's search counts in `nodes`.
        let cert = out.path().join(format!("{variant}.cert.gz"));
        let fresh = json(&[
            "prove",
            variant,
            "--json",
            "--max-memory",
            "0.25",
            "--certificate",
            cert.to_str().unwrap(),
        ]);
        for key in [
            "value", "distance", "bound", "moves", "line", "nodes", "rules",
        ] {
            assert_eq!(fresh[key], committed[key], "{variant}: {key}");
        }
    }
}

/// The three proven starts again at lap limit 10,000 (results/prove/
/// lap-limit-10000/, `bash scripts/prove-presets.sh laps`), for the
/// verdict lines of the strong-play runs: each certificate checks against
/// the preset with that lap limit, and each JSON names those rules.
#[test]
fn the_committed_starts_at_lap_limit_10000_check() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/prove/lap-limit-10000");
    let tmp = tempfile::tempdir().unwrap();
    for variant in ["katro-4x4", "katro-6x3", "katra-boaoaka-4x8"] {
        let shown = katro(&["show", variant]);
        assert_eq!(shown.code, 0, "{}", shown.stderr);
        let text: String = shown
            .stdout
            .lines()
            .map(|l| {
                if l.starts_with("lap_limit = ") {
                    "lap_limit = 10000\n".to_string()
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let file = tmp.path().join(format!("{variant}.toml"));
        std::fs::write(&file, text).unwrap();
        let cert = dir.join(format!("{variant}.cert.gz"));
        let check = katro(&[
            "check-proof",
            file.to_str().unwrap(),
            cert.to_str().unwrap(),
        ]);
        assert_eq!(check.code, 0, "{variant}: {}", check.stderr);
        assert!(
            check.stdout.contains("South wins within"),
            "{}",
            check.stdout
        );
        let json = std::fs::read_to_string(dir.join(format!("{variant}.json"))).unwrap();
        assert!(json.contains(",lap_limit=10000)\""), "{variant}: {json}");
        assert!(json.contains("\"value\":\"win\""), "{variant}: {json}");
    }
}
