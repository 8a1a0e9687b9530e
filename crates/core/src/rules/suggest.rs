//! "Did you mean": the known name a mistyped key, agent, variant, setting
//! value or metric most likely meant, for every input katro reads (variant
//! and experiment files, agent specs, variant names). The one place that
//! decides what is close enough, so that every message suggests alike.

/// The optimal-string-alignment distance (Damerau-Levenshtein where no
/// substring is edited twice) between `a` and `b`, in characters: the
/// fewest insertions, deletions, substitutions and swaps of two adjacent
/// characters that turn one into the other. `deph` is 1 from `depth`,
/// `alphabta` 1 from `alphabeta`, `grredy` 1 from `greedy`.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the table: two back (for swaps), one back, this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
        }
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
}

/// The known name `word` most likely meant, if any is close: at most 1
/// edit from a word of up to 3 characters and 2 from a longer one (so
/// `tt` suggests nothing of `p1`), else the only known name `word` of 3 or
/// more characters begins (`alpha` for `alphabeta`). Case is ignored;
/// among equally close names the first listed wins.
pub fn closest<'k>(word: &str, known: impl IntoIterator<Item = &'k str>) -> Option<&'k str> {
    let word = word.to_lowercase();
    let most = if word.chars().count() <= 3 { 1 } else { 2 };
    let mut best: Option<(usize, &str)> = None;
    let mut prefixed = Vec::new();
    for name in known {
        let lower = name.to_lowercase();
        let d = distance(&word, &lower);
        if d <= most && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, name));
        }
        if word.chars().count() >= 3 && lower.starts_with(&word) && !prefixed.contains(&name) {
            prefixed.push(name);
        }
    }
    match (best, prefixed.as_slice()) {
        (Some((_, name)), _) => Some(name),
        (None, [only]) => Some(only),
        _ => None,
    }
}

/// ` (did you mean "X"?)` when a known name is close to `word`, else
/// empty: written straight after the unknown word in a message, before its
/// list of what is valid.
pub fn did_you_mean<'k>(word: &str, known: impl IntoIterator<Item = &'k str>) -> String {
    closest(word, known).map_or_else(String::new, |name| format!(" (did you mean {name:?}?)"))
}

/// serde's message about an unknown name (`unknown field `deph`, expected
/// one of `depth`, `nodes``, or of an unknown variant, value or agent once
/// renamed) with [`did_you_mean`] put after the name; any other message as
/// it is.
pub fn suggest_in(message: &str) -> String {
    let Some((word, at)) = unknown_word(message) else {
        return message.to_string();
    };
    let rest = &message[at..];
    let Some(list) = rest.strip_prefix(", expected ") else {
        return message.to_string();
    };
    let known = expected_names(list);
    let hint = did_you_mean(word, known.iter().copied());
    format!("{}{hint}{rest}", &message[..at])
}

/// The quoted name of `unknown WHAT `name``, and the offset just after its
/// closing quote.
fn unknown_word(message: &str) -> Option<(&str, usize)> {
    let rest = message.strip_prefix("unknown ")?;
    let open = rest.find('`')?;
    // One word between "unknown" and the name: field, variant, value, agent.
    if rest[..open].trim().contains(' ') {
        return None;
    }
    let name_start = "unknown ".len() + open + 1;
    let len = message[name_start..].find('`')?;
    Some((&message[name_start..name_start + len], name_start + len + 1))
}

/// The names of serde's list of what was expected: "one of `a`, `b`",
/// "`a` or `b`" or "`a`"; text after the list (a hint that quotes a
/// command) is not read.
fn expected_names(list: &str) -> Vec<&str> {
    let mut rest = list.strip_prefix("one of ").unwrap_or(list);
    let mut names = Vec::new();
    while let Some(after) = rest.strip_prefix('`') {
        let Some(end) = after.find('`') else { break };
        names.push(&after[..end]);
        let tail = &after[end + 1..];
        match tail
            .strip_prefix(", ")
            .or_else(|| tail.strip_prefix(" or "))
        {
            Some(next) if next.starts_with('`') => rest = next,
            _ => break,
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits_and_adjacent_swaps() {
        for (a, b, d) in [
            ("", "", 0),
            ("", "abc", 3),
            ("depth", "depth", 0),
            ("deph", "depth", 1),
            ("alphabta", "alphabeta", 1),
            ("grredy", "greedy", 1),
            ("itreations", "iterations", 1),
            ("ab", "ba", 1),
            ("abc", "ca", 3),
            ("kitten", "sitting", 3),
            ("seeds", "seds", 1),
            ("время", "врямя", 1),
        ] {
            assert_eq!(distance(a, b), d, "{a} / {b}");
            assert_eq!(distance(b, a), d, "{b} / {a}");
        }
    }

    const AGENTS: [&str; 6] = [
        "random",
        "greedy",
        "epsilon-greedy",
        "alphabeta",
        "mcts",
        "perfect",
    ];

    #[test]
    fn close_names_are_suggested_and_far_ones_not() {
        assert_eq!(closest("alphabta", AGENTS), Some("alphabeta"));
        assert_eq!(closest("grredy", AGENTS), Some("greedy"));
        assert_eq!(closest("Greedy", AGENTS), Some("greedy"));
        assert_eq!(closest("mtcs", AGENTS), Some("mcts"));
        assert_eq!(closest("alpha", AGENTS), Some("alphabeta"), "a prefix");
        assert_eq!(closest("minimax", AGENTS), None);
        assert_eq!(closest("ab", AGENTS), None);
        // Short words get one edit, so two letters are not a typo of two others.
        assert_eq!(closest("tt", ["p1", "p2"]), None);
        assert_eq!(closest("t", ["tt", "depth"]), Some("tt"));
        // The nearer wins over the first listed; a tie goes to the first.
        assert_eq!(
            closest("katro-6x3", ["katro-6x6", "katro-6x3"]),
            Some("katro-6x3")
        );
        assert_eq!(
            closest("katro-6x", ["katro-6x6", "katro-6x3"]),
            Some("katro-6x6")
        );
        // A prefix of several names is no guess.
        assert_eq!(closest("rol", ["rollout", "rollout_epsilon"]), None);
        assert_eq!(closest("anything", []), None);
    }

    #[test]
    fn did_you_mean_reads_as_a_parenthesis_or_nothing() {
        assert_eq!(
            did_you_mean("deph", ["depth", "nodes"]),
            " (did you mean \"depth\"?)"
        );
        assert_eq!(did_you_mean("width", ["depth", "nodes"]), "");
    }

    #[test]
    fn serde_messages_get_the_suggestion_after_the_name() {
        assert_eq!(
            suggest_in("unknown field `deph`, expected one of `depth`, `nodes`, `tt`, `eval`"),
            "unknown field `deph` (did you mean \"depth\"?), expected one of `depth`, \
             `nodes`, `tt`, `eval`"
        );
        assert_eq!(
            suggest_in("unknown agent `grredy`, expected one of `random`, `greedy`"),
            "unknown agent `grredy` (did you mean \"greedy\"?), expected one of `random`, \
             `greedy`"
        );
        assert_eq!(
            suggest_in("unknown value `forwrd`, expected `forward` or `backward`"),
            "unknown value `forwrd` (did you mean \"forward\"?), expected `forward` or \
             `backward`"
        );
        // A hint after the list quotes a command, which is no name to suggest.
        assert_eq!(
            suggest_in("unknown field `katr`, expected `rows` (run `katro show` to see)"),
            "unknown field `katr`, expected `rows` (run `katro show` to see)"
        );
        for unchanged in [
            "unknown field `x`, there are no fields",
            "unknown field `width`, expected one of `depth`, `nodes`",
            "missing field `depth`",
            "invalid type: string \"a\", expected u32",
        ] {
            assert_eq!(suggest_in(unchanged), unchanged);
        }
    }
}
