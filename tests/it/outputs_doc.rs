//! Every column of every CSV file katro writes is documented in
//! docs/OUTPUTS.md: each name the writer's column table gives has a row in
//! the table of that file's section, and each row there names a column
//! the file has. The setting columns, made from the settings table and
//! documented as one row (`rows`, `holes`, …), are left out of both sides.

use std::collections::BTreeSet;

use katro_lab::experiment::metrics::Metric;
use katro_lab::files::PAIRWISE_COLUMNS;
use katro_lab::files::formats::FORMATS;
use katro_lab::files::metrics_csv::{KEY_COLUMNS, POOLED_COLUMNS};

/// The backticked names in the first cell of each table row of the
/// section `## {title}`, the setting-columns row (`…` in its first cell) left
/// out; with `prose`, also every backticked name in the section's text.
fn documented(docs: &str, title: &str, prose: bool) -> BTreeSet<String> {
    let head = format!("## {title}\n");
    let start = docs
        .find(&head)
        .unwrap_or_else(|| panic!("docs/OUTPUTS.md has no section `{head}`"));
    let body = &docs[start + head.len()..];
    let body = &body[..body.find("\n## ").unwrap_or(body.len())];
    let mut names = BTreeSet::new();
    for line in body.lines() {
        let text = match line
            .strip_prefix('|')
            .map(|r| r.split('|').next().unwrap_or(""))
        {
            Some(first) if first.contains('…') => continue,
            Some(first) => first,
            None if prose => line,
            None => continue,
        };
        names.extend(text.split('`').skip(1).step_by(2).map(str::to_string));
    }
    names
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn every_csv_column_is_documented_and_every_documented_column_written() {
    let docs = std::fs::read_to_string("docs/OUTPUTS.md").unwrap();
    // Every file of the registry has its section; a CSV file with fixed
    // columns has them in its table.
    let files: Vec<(&str, Vec<&str>)> = FORMATS
        .iter()
        .filter_map(|f| {
            assert!(
                docs.contains(&format!("\n## {}\n", f.section)),
                "{}: docs/OUTPUTS.md has no section `## {}`",
                f.file,
                f.section
            );
            Some((f.section, (f.columns?)()))
        })
        .collect();
    assert!(files.len() >= 14, "the registry lists the CSV files");
    for (title, written) in files {
        let written = names(&written);
        let doc = documented(&docs, title, false);
        let missing: Vec<_> = written.difference(&doc).collect();
        assert!(
            missing.is_empty(),
            "{title}: not in docs/OUTPUTS.md: {missing:?}"
        );
        let extra: Vec<_> = doc.difference(&written).collect();
        assert!(
            extra.is_empty(),
            "{title}: documented but not written: {extra:?}"
        );
    }
    // skill-trace.csv is pairwise.csv's columns and `level`, which its
    // section's text names.
    let mut doc = documented(&docs, "pairwise.csv", false);
    doc.extend(documented(&docs, "skill-trace.csv", true));
    let written = names(PAIRWISE_COLUMNS)
        .into_iter()
        .chain(["level".to_string()]);
    for name in written {
        assert!(
            doc.contains(&name),
            "skill-trace.csv: `{name}` is not documented"
        );
    }
    // metrics.csv's columns depend on the metrics asked for: its key
    // columns, every metric's name (each with `_games`, `_low`, `_high`,
    // which the section's text explains once) and the pooled columns.
    let doc = documented(&docs, "metrics.csv", true);
    let written = KEY_COLUMNS
        .iter()
        .chain(POOLED_COLUMNS)
        .map(|s| s.to_string())
        .chain(Metric::ALL.iter().map(|m| m.name().to_string()));
    for name in written {
        assert!(
            doc.contains(&name),
            "metrics.csv: `{name}` is not documented"
        );
    }
}
