//! The HTML page around the charts.

use super::*;

// ---------------------------------------------------------------------------
// The page

/// The columns `cols` of every row of `t`, as an HTML table of CSV text.
pub(super) fn numbers_table(t: &CsvTable, file: &str, cols: &[&str]) -> String {
    let mut s = String::from("<table>\n<tr>");
    for c in cols {
        s.push_str(&format!("<th>{}</th>", escape(c)));
    }
    s.push_str("</tr>\n");
    for r in 0..t.len() {
        s.push_str(&table_row(t, file, r, cols));
    }
    s.push_str("</table>\n");
    s
}

/// A row of CSV text, each cell tagged with its file, row and column so a
/// test (and a reader's script) can find the number it came from.
pub(super) fn table_row(t: &CsvTable, file: &str, r: usize, cols: &[&str]) -> String {
    let mut s = String::from("<tr>");
    for c in cols {
        s.push_str(&format!(
            "<td data-file=\"{file}\" data-row=\"{}\" data-col=\"{c}\">{}</td>",
            t.file_row(r),
            escape(t.text(r, c))
        ));
    }
    s.push_str("</tr>\n");
    s
}

pub(super) const STYLE: &str = "body{font-family:sans-serif;max-width:1140px;margin:1em auto;padding:0 1em;color:#111}\
figure{margin:1.5em 0}figure svg{max-width:100%;height:auto;border:1px solid #ddd}\
figcaption{font-size:0.9em;margin:0.4em 0}table{border-collapse:collapse;font-size:0.8em;margin:0.5em 0}\
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#f3f3f3}\
code{font-size:0.85em}details{margin:0.3em 0}nav ol{columns:2;margin:0.3em 0}\
table.rules td,table.rules th{text-align:left;vertical-align:top}table.rules code{overflow-wrap:normal}";

/// `text` as HTML that a browser may break only after a comma, `(` or
/// `+` (a rules string, an agent's spec have no spaces): never inside a
/// word.
pub(super) fn breakable(text: &str) -> String {
    let mut out = String::new();
    for ch in text.chars() {
        out.push_str(&escape(&ch.to_string()));
        if matches!(ch, ',' | '(' | '+') {
            out.push_str("<wbr>");
        }
    }
    out
}

/// The distinct values of column `col` over `rows` of `s`, in order,
/// joined by " / ".
fn distinct(s: &CsvTable, rows: &[usize], col: &str) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for &r in rows {
        let v = s.text(r, col);
        if !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen.join(" / ")
}

/// A matchup as the rules table writes it: both agents in full.
fn matchup_html(s: &CsvTable, r: usize) -> String {
    let op = cell_key(s, r).opening_plies;
    let open = match op.as_str() {
        "0" => String::new(),
        "1" => ", 1 opening ply".into(),
        n => format!(", {n} opening plies"),
    };
    let (p1, p2) = (s.text(r, "p1"), s.text(r, "p2"));
    if p1 == p2 {
        format!("<code>{}</code> both sides{open}", breakable(p1))
    } else {
        format!(
            "<code>{}</code> vs <code>{}</code>{open}",
            breakable(p1),
            breakable(p2)
        )
    }
}

/// The rules and agents every chart is about, as one table: a row per
/// variant with its exact rules, the experiment's matchups listed once
/// when every variant plays the same (else in the table), and a
/// tournament's agents listed once.
fn rules_and_agents(s: &CsvTable, tour: Option<&Tournament>) -> String {
    let rules = Rules { s, tour };
    let mut variants: Vec<(&str, Vec<usize>)> = Vec::new();
    for r in 0..s.len() {
        let v = s.text(r, "variant");
        match variants.iter_mut().find(|(x, _)| *x == v) {
            Some((_, rows)) => rows.push(r),
            None => variants.push((v, vec![r])),
        }
    }
    let first = rules.matchups_of(&variants[0].1);
    let same = variants
        .iter()
        .all(|(_, rows)| rules.matchups_of(rows) == first);
    let any_pairing = (0..s.len()).any(|r| rules.pairing(r));
    let mut h = String::from("<section id=\"rules\">\n<h2>Rules and agents</h2>\n");
    if same && !first.is_empty() {
        h.push_str(&format!(
            "<p><b>Matchups</b> (player 1 vs player 2), on every variant: {}.</p>\n",
            first.join("; ")
        ));
    }
    if let Some(t) = tour.filter(|_| any_pairing) {
        h.push_str(&rules.tournament(t));
    }
    h.push_str(&rules.header(same, any_pairing));
    for (v, rows) in &variants {
        h.push_str(&rules.row(v, rows, same, any_pairing));
    }
    h.push_str("</table>\n</section>\n");
    h
}

/// The rules table's sources: summary.csv and the tournament, if any,
/// whose pairings are told from the experiment's own matchups.
struct Rules<'a> {
    s: &'a CsvTable,
    tour: Option<&'a Tournament>,
}

impl Rules<'_> {
    fn pairing(&self, r: usize) -> bool {
        self.tour.is_some_and(|t| t.is_pairing(self.s, r))
    }

    /// Those of `rows` that are the experiment's own matchups.
    fn own(&self, rows: &[usize]) -> Vec<usize> {
        rows.iter().copied().filter(|&r| !self.pairing(r)).collect()
    }

    fn matchups_of(&self, rows: &[usize]) -> Vec<String> {
        self.own(rows)
            .iter()
            .map(|&r| matchup_html(self.s, r))
            .collect()
    }

    /// The tournament's agents, numbered, and its games.
    fn tournament(&self, t: &Tournament) -> String {
        let s = self.s;
        let agents: Vec<String> = t
            .list()
            .iter()
            .enumerate()
            .map(|(i, a)| format!("{} <code>{}</code>", i + 1, breakable(a)))
            .collect();
        let rows: Vec<usize> = (0..s.len()).filter(|&r| self.pairing(r)).collect();
        let n = t.list().len();
        format!(
            "<p><b>Tournament</b> of {n} agents, numbered as in its list: {}. Every pair, \
             both seats, {} games a pairing and seat, {} opening plies: {} cells a variant, \
             drawn as ratings and matrices, not cell by cell.</p>\n",
            agents.join(", "),
            distinct(s, &rows, "games"),
            escape(t.opening()),
            n * n.saturating_sub(1)
        )
    }

    /// The table's head: a matchups column unless they are the `same` on
    /// every variant, a games column for own matchups and for pairings.
    fn header(&self, same: bool, any_pairing: bool) -> String {
        let mut h = String::from(
            "<table class=\"rules\">\n<tr><th>variant</th><th>rules (docs/RULES.md)</th>",
        );
        if !same {
            h.push_str("<th>matchups (player 1 vs player 2)</th>");
        }
        let any_own = (0..self.s.len()).any(|r| !self.pairing(r));
        if any_own {
            h.push_str("<th>games a cell</th>");
        }
        if any_pairing {
            h.push_str("<th>games a pairing and seat</th>");
        }
        h.push_str("</tr>\n");
        h
    }

    /// Variant `v`'s row, `rows` its rows of summary.csv.
    fn row(&self, v: &str, rows: &[usize], same: bool, any_pairing: bool) -> String {
        let s = self.s;
        let mut h = format!(
            "<tr><td>{}</td><td><code>{}</code></td>",
            breakable(v),
            breakable(s.text(rows[0], "rules"))
        );
        if !same {
            h.push_str(&format!("<td>{}</td>", self.matchups_of(rows).join("<br>")));
        }
        h.push_str(&format!(
            "<td>{}</td>",
            escape(&distinct(s, &self.own(rows), "games"))
        ));
        if any_pairing {
            let p: Vec<usize> = rows.iter().copied().filter(|&r| self.pairing(r)).collect();
            h.push_str(&format!("<td>{}</td>", escape(&distinct(s, &p, "games"))));
        }
        h.push_str("</tr>\n");
        h
    }
}

pub(super) fn page(
    title: &str,
    s: &CsvTable,
    tour: Option<&Tournament>,
    charts: &[Chart],
    exact: Option<&CsvTable>,
    starts: &[crate::experiment::verdict::StartValue],
) -> String {
    let mut h = page_head(title);
    // The answer before anything else: the eye lands under the title.
    h.push_str(&verdict_section(s, starts));
    // The contents first, then the charts, the headline first; the rules
    // and agents they are about last, one link away.
    h.push_str(&contents(charts, exact.is_some()));
    for c in charts {
        h.push_str(&figure(c));
    }
    if let Some(t) = exact {
        h.push_str(&exact_section(t));
    }
    h.push_str(&rules_and_agents(s, tour));
    h.push_str("</body>\n</html>\n");
    h
}

/// The verdict in words, one line per variant, from summary.csv's text
/// ([`crate::experiment::verdict`]), each with what `starts` proved of
/// its game's start; nothing when it has no row.
fn verdict_section(s: &CsvTable, starts: &[crate::experiment::verdict::StartValue]) -> String {
    use crate::experiment::verdict::{Row, verdict_lines};
    let rows: Vec<Row> = (0..s.len())
        .map(|r| Row::from_fields(|c| s.text(r, c)))
        .collect();
    let lines = verdict_lines(&rows, starts);
    if lines.is_empty() {
        return String::new();
    }
    let item = |l: &String| format!("<li>{}</li>\n", escape(l));
    let shown = lines.len().min(VERDICTS_SHOWN);
    let items: String = lines[..shown].iter().map(item).collect();
    // A sweep's dozens of variants would push the first chart off the
    // screen: the rest are a click away.
    let rest = if lines.len() > shown {
        let more: String = lines[shown..].iter().map(item).collect();
        format!(
            "<details><summary>The other {} variants' verdicts</summary>\n\
             <ul class=\"verdict\">\n{more}</ul>\n</details>\n",
            lines.len() - shown
        )
    } else {
        String::new()
    };
    format!(
        "<section id=\"verdict\">\n<h2>Verdict</h2>\n<ul class=\"verdict\">\n{items}</ul>\n\
         {rest}<p>One line per variant, of its strongest self-play cell (docs/OUTPUTS.md, \
         \"Verdict lines\").</p>\n</section>\n"
    )
}

/// The verdict lines shown open above the charts; more are folded.
const VERDICTS_SHOWN: usize = 8;

/// The page up to its contents: the head, the title and where the
/// numbers come from.
fn page_head(title: &str) -> String {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!(
        "<meta name=\"generator\" content=\"{GENERATOR}\">\n"
    ));
    h.push_str(&format!(
        "<title>katro report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(title)
    ));
    h.push_str(&format!("<h1>katro report: {}</h1>\n", escape(title)));
    h.push_str(
        "<p>Made by <code>katro report</code> from this folder's CSV files; every number in \
         the tables is the CSV's text. docs/OUTPUTS.md defines each column.</p>\n",
    );
    h
}

/// The contents: a link to each chart, the exact shares' section when
/// there is one, and the rules.
fn contents(charts: &[Chart], exact: bool) -> String {
    let mut h = String::from("<nav>\n<b>Contents</b>\n<ol>\n");
    for c in charts {
        h.push_str(&format!(
            "<li><a href=\"#{}\">{}</a></li>\n",
            escape(c.file.trim_end_matches(".svg")),
            escape(&c.title)
        ));
    }
    if exact {
        h.push_str(&format!("<li><a href=\"#exact\">{EXACT_TITLE}</a></li>\n"));
    }
    h.push_str("<li><a href=\"#rules\">Rules and agents</a></li>\n</ol>\n</nav>\n");
    h
}

/// A table of at most this many rows is open under its chart: short
/// enough to read at a glance, where a long one would push the next chart
/// off the screen.
pub(super) const OPEN_TABLE_ROWS: usize = 20;

/// A chart as a figure: its title, the SVG inline, its caption and its
/// numbers, open when they are short ([`OPEN_TABLE_ROWS`]).
fn figure(c: &Chart) -> String {
    // The header row is one `<tr>` too.
    let rows = c.table.matches("<tr>").count().saturating_sub(1);
    let open = if rows <= OPEN_TABLE_ROWS { " open" } else { "" };
    format!(
        "<figure id=\"{}\">\n<h2>{}</h2>\n{}\n<figcaption>{} Rules and agents: \
         <a href=\"#rules\">the table at the end</a>. Also in \
         <code>plots/{}</code>.</figcaption>\n{}<details{open}><summary>The \
         numbers</summary>\n{}</details>\n</figure>\n",
        escape(c.file.trim_end_matches(".svg")),
        escape(&c.title),
        c.svg,
        escape(&c.caption),
        escape(&c.file),
        notes(&c.notes),
        c.table
    )
}

/// A chart's notes as a list under its caption; nothing without any.
fn notes(notes: &[(String, String)]) -> String {
    if notes.is_empty() {
        return String::new();
    }
    let items: String = (notes.iter())
        .map(|(name, text)| format!("<li><b>{}</b>: {}</li>\n", escape(name), escape(text)))
        .collect();
    format!("<ul>\n{items}</ul>\n")
}

const EXACT_TITLE: &str = "Exact shares over every opening";

/// The `openings = "exact"` cells: exact numbers, not samples, so a table
/// without intervals, and said so, beside the charts' sampled shares.
fn exact_section(t: &CsvTable) -> String {
    format!(
        "<section id=\"exact\">\n<h2>{EXACT_TITLE}</h2>\n<p>Each row is one matchup \
         with <code>openings = \"exact\"</code>: every opening of <code>opening_plies</code> \
         random plies played once and weighted by its probability, so the shares are exact \
         for these agents and this opening rule, not sampled, and have no interval. \
         <code>p1_win_rate</code> is the first player's share of the decided games. From \
         <code>{EXACT_OPENINGS}</code>, whose <code>exact</code> column gives the fractions.\
         </p>\n{}</section>\n",
        numbers_table(t, EXACT_OPENINGS, &EXACT_SHOWN)
    )
}
