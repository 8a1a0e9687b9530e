// The build identity's hash, shared by build.rs (which sets KATRO_BUILD
// from it) and the unit test in src/files/header.rs (which checks what
// changes it): `include!`d by both, so there is one definition. Paths are
// the workspace's, so the identity does not depend on where it is built.
//
// Hashed: what plays games and tallies them. That is katro-core (its
// sources and its Cargo.toml), katro-lab's experiment module (the files,
// cells, seeds, runner and the aggregates a checkpoint holds) but the
// statistics read from those aggregates afterwards (balance, estimand,
// interval, ratings, verdict), the variants, and Cargo.lock (the versions
// of the crates the games use). Not hashed: the result files, reports,
// jobs and store, the command line, the tests. In sorted path order, each as its path, its length and its text, with `\r\n` read
// as `\n` (a Windows checkout is the same source) and every line whose
// first non-blank characters are `//` left out (comments and doc comments
// decide no game either). FNV-1a, 64 bits: no dependency, and stable
// across Rust versions.

/// The files and folders the hash starts from, relative to the workspace
/// root.
pub const IDENTITY_ROOTS: [&str; 6] = [
    "crates/core/src",
    "crates/core/Cargo.toml",
    "crates/lab/src/experiment",
    "crates/lab/src/experiment.rs",
    "variants",
    "Cargo.lock",
];

/// What under the roots is left out: statistics computed from the
/// aggregates after the games, which decide no game and no tally.
pub const IDENTITY_LEFT_OUT: [&str; 5] = [
    "crates/lab/src/experiment/balance.rs",
    "crates/lab/src/experiment/estimand.rs",
    "crates/lab/src/experiment/interval.rs",
    "crates/lab/src/experiment/ratings.rs",
    "crates/lab/src/experiment/verdict.rs",
];

fn identity_collect(root: &std::path::Path, rel: &str, out: &mut Vec<String>) {
    if IDENTITY_LEFT_OUT.contains(&rel) {
        return;
    }
    let path = root.join(rel);
    if path.is_dir() {
        let entries = std::fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("build identity: cannot list {}: {e}", path.display()));
        for e in entries {
            let e =
                e.unwrap_or_else(|e| panic!("build identity: cannot list {}: {e}", path.display()));
            let name = e.file_name().to_string_lossy().into_owned();
            identity_collect(root, &format!("{rel}/{name}"), out);
        }
    } else if path.is_file() {
        out.push(rel.to_string());
    }
}

fn identity_fnv1a(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// The text that counts: `\r\n` as `\n`, comment lines left out.
fn identity_text(bytes: &[u8]) -> Vec<u8> {
    let mut text = Vec::with_capacity(bytes.len());
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let line = match line {
            [rest @ .., b'\r', b'\n'] => [rest, b"\n"].concat(),
            other => other.to_vec(),
        };
        let start = line.iter().position(|b| !b.is_ascii_whitespace());
        if start.is_some_and(|s| line[s..].starts_with(b"//")) {
            continue;
        }
        text.extend_from_slice(&line);
    }
    text
}

/// `src-` and 16 hex digits: the identity of the sources of the workspace
/// at `root`.
/// Also every path hashed, in order (build.rs watches them).
pub fn build_identity(root: &std::path::Path) -> (String, Vec<String>) {
    let mut names = Vec::new();
    for r in IDENTITY_ROOTS {
        identity_collect(root, r, &mut names);
    }
    names.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for name in &names {
        let path = root.join(name);
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("build identity: cannot read {}: {e}", path.display()));
        let text = identity_text(&bytes);
        identity_fnv1a(&mut hash, name.as_bytes());
        identity_fnv1a(&mut hash, &[0]);
        identity_fnv1a(&mut hash, &(text.len() as u64).to_le_bytes());
        identity_fnv1a(&mut hash, &text);
    }
    (format!("src-{hash:016x}"), names)
}
