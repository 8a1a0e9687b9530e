//! The committed results/quick/ are what this katro computes: rerun
//! experiments/quick.toml and compare every CSV byte for byte. When an
//! engine, runner or output change alters them on purpose, regenerate
//! them with `katro run experiments/quick.toml --force` (from the
//! repository's root) and commit the new files with the change.

use std::fs;
use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;

const REGENERATE: &str = "cargo run --release -- run experiments/quick.toml --force";

/// The CSV files of a results folder, by name.
fn csv_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".csv"))
        .collect();
    names.sort();
    names
}

#[test]
fn quick_reruns_to_the_committed_results() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let committed = root.join("results/quick");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("quick");
    let run = cargo_bin_cmd!("katro")
        .current_dir(root)
        .args(["run", "experiments/quick.toml", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "katro run experiments/quick.toml failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    repeats_warn_only_where_they_widen_the_interval(&String::from_utf8_lossy(&run.stdout));
    one_verdict_per_variant(&String::from_utf8_lossy(&run.stdout));
    the_report_opens_with_the_verdict(&fs::read_to_string(out.join("report.html")).unwrap());
    let (want, got) = (csv_names(&committed), csv_names(&out));
    assert_eq!(
        want, got,
        "results/quick holds {want:?} but a rerun writes {got:?}; regenerate with `{REGENERATE}`"
    );
    for name in &want {
        let (a, b) = (
            fs::read(committed.join(name)).unwrap(),
            fs::read(out.join(name)).unwrap(),
        );
        if a != b {
            let (a, b) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
            let line = a
                .lines()
                .zip(b.lines())
                .position(|(x, y)| x != y)
                .map_or_else(
                    || {
                        format!(
                            "line counts {} and {}",
                            a.lines().count(),
                            b.lines().count()
                        )
                    },
                    |i| {
                        format!(
                            "first at line {}:\n  committed: {}\n  rerun:     {}",
                            i + 1,
                            a.lines().nth(i).unwrap(),
                            b.lines().nth(i).unwrap()
                        )
                    },
                );
            panic!(
                "results/quick/{name} differs from a rerun of experiments/quick.toml ({line}).\n\
                 If the change is intended, regenerate with `{REGENERATE}` and commit it."
            );
        }
    }
}

/// The quick run's `repeats` warning (docs/OUTPUTS.md, "Reading a cell
/// whose games repeat") names the greedy cells of the small boards, whose
/// few distinct games widen the interval by 20% to 82%, and no cell of
/// random play: katro-6x6's 1,998 distinct of 2,000 widen it by 0.05%.
fn repeats_warn_only_where_they_widen_the_interval(stdout: &str) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("warning: repeats"))
        .unwrap_or_else(|| panic!("no repeats warning in:\n{stdout}"));
    assert!(
        line.starts_with("warning: repeats in 4 of 12 cells: ")
            && line.contains(
                "(katro-4x4: greedy vs random, random vs greedy; katro-6x3: greedy vs random, \
                 random vs greedy; the notes column marks each"
            ),
        "{line}"
    );
}

/// The run's table is followed by one verdict line per variant of
/// experiments/quick.toml, each about that variant's random self-play
/// (its only self-play cell), in the variants' order.
fn one_verdict_per_variant(stdout: &str) {
    let verdicts: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("verdict: "))
        .collect();
    let variants = ["katro-6x6", "katro-4x4", "katro-6x3", "katro-ludii"];
    assert_eq!(verdicts.len(), variants.len(), "{stdout}");
    for (line, v) in verdicts.iter().zip(variants) {
        assert!(
            line.starts_with(&format!(
                "verdict: {v}, random self-play, 0 random opening plies: first player "
            )) && line.contains(" of 2,000 decided games; "),
            "{line}"
        );
    }
    let table_end = stdout.find("p1 win rate: ").unwrap();
    assert!(stdout.find("verdict: ").unwrap() > table_end, "{stdout}");
}

/// report.html says the verdict, one item per variant, before its first
/// chart.
fn the_report_opens_with_the_verdict(html: &str) {
    let verdict = html
        .find("<section id=\"verdict\">")
        .expect("no verdict section");
    let chart = html.find("<svg").expect("no chart");
    assert!(verdict < chart, "the verdict comes after the first chart");
    let section = &html[verdict..html[verdict..].find("</section>").unwrap() + verdict];
    assert_eq!(section.matches("<li>").count(), 4, "{section}");
    assert!(
        section.contains("<li>katro-6x6, random self-play, 0 random opening plies: first player "),
        "{section}"
    );
}

/// The README's chart is the committed quick run's, so what the README
/// shows is what the results say.
#[test]
fn the_readme_chart_is_the_committed_one() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(root.join("results/quick/plots/win-rate.svg")).unwrap();
    let readme = std::fs::read_to_string(root.join("docs/img/quick-win-rate.svg")).unwrap();
    let chart = committed
        .split_once('\n')
        .map(|(mark, rest)| {
            assert_eq!(mark, "<!-- katro report -->");
            rest
        })
        .unwrap();
    assert!(
        readme == chart,
        "docs/img/quick-win-rate.svg is not results/quick/plots/win-rate.svg: copy it \
         (without its first line) after regenerating results/quick"
    );
}
