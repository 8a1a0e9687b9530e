//! Issue 11 through the binary: progress lines when stderr is not a
//! terminal, tidy per-setting columns, comparison families, sweeps and
//! growing runs.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

fn katro() -> Command {
    Command::cargo_bin("katro").unwrap()
}

fn read(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_run_with_piped_stderr_prints_progress_lines() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("exp.toml"),
        "name = \"p\"\nseed = 1\nvariants = [\"katro-6x6\"]\ngames = 20000\n\
         [[matchups]]\np1 = \"greedy\"\np2 = \"random\"\n",
    )
    .unwrap();
    let out = katro()
        .current_dir(dir.path())
        .env("KATRO_PROGRESS_SECONDS", "0.02")
        .args(["run", "exp.toml", "--threads", "1", "--out", "o"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert!(lines.len() >= 2, "{stderr}");
    for l in &lines {
        assert!(
            l.contains("/20000 games (") && l.contains(" games/s, "),
            "{l}"
        );
    }
    // The games done never go down.
    let done: Vec<u64> = lines
        .iter()
        .map(|l| {
            l["progress: ".len()..]
                .split('/')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");

    // A bad interval is refused before anything is played.
    let out = katro()
        .current_dir(dir.path())
        .env("KATRO_PROGRESS_SECONDS", "often")
        .args(["run", "exp.toml", "--out", "o2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("KATRO_PROGRESS_SECONDS=\"often\""),
        "{stderr}"
    );
    assert!(!dir.path().join("o2/summary.csv").exists());
    let _ = read;
}
