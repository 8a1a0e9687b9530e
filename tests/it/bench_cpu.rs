//! `katro bench` reports games per CPU second beside the wall-clock rates:
//! on a shared machine the wall clock counts other people's work, so the
//! figures docs/PERFORMANCE.md compares are these.

use assert_cmd::cargo::cargo_bin_cmd;

/// The median of a row of the bench's report, by its label.
fn row(out: &str, label: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` row in:\n{out}"));
    line.trim_start()[label.len()..]
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number in `{line}`"))
}

#[test]
fn bench_reports_games_per_cpu_second() {
    let out = cargo_bin_cmd!("katro")
        .args([
            "bench",
            "katro-4x4",
            "--threads",
            "1",
            "--seconds",
            "0.6",
            "--rounds",
            "2",
        ])
        .output()
        .expect("katro runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let cpu = row(&text, "games per CPU second");
    let wall = row(&text, "games/s per core");
    assert!(cpu > 0.0 && wall > 0.0, "{text}");
    // One thread cannot use more CPU time than wall time, beyond the
    // 10 ms resolution of the CPU clock on a round of 0.3 s.
    assert!(cpu >= wall * 0.9, "{text}");
}
