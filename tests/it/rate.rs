//! `katro rate`: ratings refitted from results alone, through the real
//! binary (docs/OUTPUTS.md, ratings.csv).

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

use crate::common::column;

fn katro() -> Command {
    Command::cargo_bin("katro").unwrap()
}

const RATING_FILES: [&str; 3] = ["ratings.csv", "pairwise.csv", "skill-trace.csv"];

/// Every committed tournament's rating files are what `katro rate` makes
/// from its summary.csv and manifest alone (no game replayed).
#[test]
fn katro_rate_reproduces_every_committed_tournament() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let mut folders = 0;
    for entry in fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.join("ratings.csv").exists() {
            continue;
        }
        folders += 1;
        let tmp = TempDir::new().unwrap();
        for f in ["summary.csv", "manifest.json"] {
            fs::copy(dir.join(f), tmp.path().join(f)).unwrap();
        }
        katro()
            .args(["rate", tmp.path().to_str().unwrap()])
            .assert()
            .success();
        for f in RATING_FILES {
            assert!(
                fs::read(dir.join(f)).unwrap() == fs::read(tmp.path().join(f)).unwrap(),
                "{}: {f} differs from `katro rate`'s",
                dir.display()
            );
        }
    }
    assert!(folders >= 3, "only {folders} committed tournaments");
}

fn write(dir: &TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// A CSV from anywhere: free-text names, a variant column, `random` the
/// anchor wherever it is listed; an agent the results leave unconnected,
/// and one that never lost, are reported as not identified.
#[test]
fn a_csv_from_anywhere_is_rated_per_variant() {
    let dir = TempDir::new().unwrap();
    let csv = write(
        &dir,
        "results.csv",
        "variant,p1,p2,p1_wins,p2_wins,undecided,notes\n\
         go,Leela Zero,random,9,1,0,x\n\
         go,random,Leela Zero,2,8,0,\n\
         go,\"KataGo, v1\",Leela Zero,6,4,1,\n\
         go,Leela Zero,\"KataGo, v1\",5,5,0,\n\
         go,lonely,other,3,3,0,\n\
         chess,a,b,0,10,0,\n\
         chess,b,a,10,0,0,\n",
    );
    let out = dir.path().join("out");
    let run = katro()
        .args(["rate", &csv, "--out", out.to_str().unwrap()])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    assert!(said.contains("ratings on go"), "{said}");
    let ratings = fs::read_to_string(out.join("ratings.csv")).unwrap();
    let agents = column(&ratings, "agent");
    assert_eq!(
        agents,
        [
            "Leela Zero",
            "random",
            "KataGo, v1",
            "lonely",
            "other",
            "a",
            "b"
        ]
    );
    let rating = column(&ratings, "rating");
    let identified = column(&ratings, "identified");
    assert_eq!(rating[1], "0.000000");
    assert_eq!(&identified[..5], ["true", "true", "true", "false", "false"]);
    assert_eq!((rating[3].as_str(), rating[4].as_str()), ("", ""));
    // chess has no `random`: its first agent is the anchor, and b, who
    // never lost, has a lower bound only.
    assert_eq!(rating[5], "0.000000");
    assert_eq!(identified[6], "false");
    assert_eq!(column(&ratings, "rating_high")[6], "");
    assert!(!column(&ratings, "rating_low")[6].is_empty());
    for f in RATING_FILES {
        assert!(out.join(f).exists(), "{f}");
    }
}

fn refused(args: &[&str], words: &[&str]) {
    let run = katro().args(args).assert().code(2);
    let err = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    for w in words {
        assert!(err.contains(w), "{args:?}: `{w}` not in: {err}");
    }
}

#[test]
fn bad_results_are_refused_with_the_file_and_row_named() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let header = "p1,p2,p1_wins,p2_wins,undecided\n";
    let missing = write(&dir, "missing.csv", "p1,p2,p1_wins,undecided\na,b,1,1\n");
    refused(
        &["rate", &missing, "--out", out],
        &["missing.csv", "p2_wins"],
    );
    let negative = write(
        &dir,
        "negative.csv",
        &format!("{header}a,b,1,2,0\nb,a,-1,2,0\n"),
    );
    refused(
        &["rate", &negative, "--out", out],
        &["negative.csv line 3", "p1_wins", "-1"],
    );
    let fraction = write(&dir, "fraction.csv", &format!("{header}a,b,1,2.5,0\n"));
    refused(
        &["rate", &fraction, "--out", out],
        &["fraction.csv line 2", "p2_wins"],
    );
    let twice = write(
        &dir,
        "twice.csv",
        &format!("{header}a,b,1,2,0\nb,a,1,2,0\na,b,3,3,0\n"),
    );
    refused(
        &["rate", &twice, "--out", out],
        &["twice.csv line 4", "a against b", "twice"],
    );
    // Without --out as well: the folder it would write is not made.
    refused(&["rate", &twice], &["twice.csv line 4"]);
    assert!(!dir.path().join("twice").exists());
    refused(&["rate", "no-such.csv", "--out", out], &["no-such.csv"]);
    assert!(!Path::new(out).exists(), "a refused rate wrote {out}");
}

/// Without --out a CSV's rating files go to a folder beside it named
/// after it without its extension (with `-ratings` added when it has
/// none), made if needed and written beside files of the user's there;
/// a file at that name, or a file of the user's at a rating file's name,
/// is refused, naming the command with --out.
#[test]
fn a_csv_without_out_is_rated_into_a_folder_named_after_it() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let tallies = "p1,p2,p1_wins,p2_wins,undecided\nstrong,random,9,1,0\nrandom,strong,2,8,0\n";
    let csv = write(&dir, "tallies.csv", tallies);
    let run = katro()
        .current_dir(d)
        .args(["rate", "tallies.csv"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    assert!(said.contains("in tallies\n"), "{said}");
    for f in RATING_FILES {
        assert!(d.join("tallies").join(f).exists(), "{f}");
    }
    // The same by any path: beside the file, not in the working folder.
    fs::write(d.join("tallies/notes.txt"), "mine\n").unwrap();
    katro().args(["rate", &csv]).assert().success();
    assert_eq!(fs::read(d.join("tallies/notes.txt")).unwrap(), b"mine\n");
    // A name without an extension.
    write(&dir, "plain", tallies);
    katro()
        .current_dir(d)
        .args(["rate", "plain"])
        .assert()
        .success();
    assert!(d.join("plain-ratings/ratings.csv").exists());
    // A file where the folder would be.
    write(&dir, "taken.csv", tallies);
    write(&dir, "taken", "mine\n");
    let run = katro()
        .current_dir(d)
        .args(["rate", "taken.csv"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert_eq!(
        err,
        "error: taken: a file is there, and katro writes the rating files of taken.csv into \
         a folder of that name (without --out: the CSV's name without its extension): give \
         the folder with `katro rate taken.csv --out FOLDER`\n"
    );
    assert_eq!(fs::read(d.join("taken")).unwrap(), b"mine\n");
    // A file of the user's at a rating file's name.
    write(&dir, "mine.csv", tallies);
    fs::create_dir(d.join("mine")).unwrap();
    fs::write(d.join("mine/ratings.csv"), "my ratings\n").unwrap();
    let run = katro()
        .current_dir(d)
        .args(["rate", "mine.csv"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert!(
        err.contains("mine/ratings.csv: katro did not write it"),
        "{err}"
    );
    assert_eq!(
        fs::read(d.join("mine/ratings.csv")).unwrap(),
        b"my ratings\n"
    );
}

/// `katro rate` replaces its own files, unchanged, and never a file katro
/// did not write or one edited since (there is no `--force`): each
/// survives byte for byte, and nothing is written beside it.
#[test]
fn a_file_katro_did_not_write_is_kept() {
    let dir = TempDir::new().unwrap();
    let csv = write(
        &dir,
        "r.csv",
        "p1,p2,p1_wins,p2_wins,undecided\nx,random,6,4,0\nrandom,x,3,7,0\n",
    );
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    katro().args(["rate", &csv, "--out", o]).assert().success();
    // katro's own, unchanged: replaced.
    katro().args(["rate", &csv, "--out", o]).assert().success();
    let theirs = "my own notes\n";
    for name in ["ratings.csv", "pairwise.csv", "skill-trace.csv"] {
        let before: Vec<(String, Vec<u8>)> = ["ratings.csv", "pairwise.csv", "skill-trace.csv"]
            .iter()
            .map(|n| (n.to_string(), fs::read(out.join(n)).unwrap()))
            .collect();
        fs::write(out.join(name), theirs).unwrap();
        refused(&["rate", &csv, "--out", o], &[name, "katro"]);
        for (n, bytes) in &before {
            let now = fs::read(out.join(n)).unwrap();
            if n == name {
                assert_eq!(now, theirs.as_bytes(), "{n} was written over");
            } else {
                assert_eq!(&now, bytes, "{n} changed though the rate was refused");
            }
        }
        fs::write(
            out.join(name),
            &before.iter().find(|(n, _)| n == name).unwrap().1,
        )
        .unwrap();
    }
}
