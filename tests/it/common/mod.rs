//! Helpers shared by the integration tests (each test file is a crate of
//! its own, so they are included with `mod common;`). A file uses what it
//! needs; the others are unused there.
#![allow(dead_code)]

use assert_cmd::cargo::cargo_bin_cmd;

/// What a run of the real binary printed, and how it ended.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `katro ARGS` with `stdin` on its standard input; a panic is never
/// an acceptable way to end.
pub fn katro_in(args: &[&str], stdin: &str) -> Run {
    let out = cargo_bin_cmd!("katro")
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .expect("the binary runs");
    let run = Run {
        code: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    };
    assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    run
}

/// The fields of `column` in every data row of a CSV text.
pub fn column(csv_text: &str, column: &str) -> Vec<String> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let at = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == column)
        .unwrap_or_else(|| panic!("no column {column}"));
    r.records()
        .map(|rec| rec.unwrap()[at].to_string())
        .collect()
}

/// `katro ARGS`'s standard output, after checking that it succeeded.
pub fn katro_ok(args: &[&str]) -> String {
    let run = katro_in(args, "");
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

/// A file the test expects, as text.
pub fn read_text(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
