//! The build identity: `KATRO_BUILD=src-<16 hex digits>`, a hash of the
//! sources the engine and the runner are built from. The crate version
//! stays 0.1.0 across commits, so it cannot tell whether a checkpoint or a
//! shard was played by the same engine; this hash can, and it needs no git
//! (a tarball or a cluster copy of the sources gets the same identity).
//!
//! Hashed: every file under `src/` and `variants/`, `Cargo.toml` and
//! `Cargo.lock`, in sorted path order, each as its path, its length and its
//! bytes with `\r\n` read as `\n` (a Windows checkout is the same source).
//! FNV-1a, 64 bits: no dependency, and stable across Rust versions.

use std::fs;
use std::path::{Path, PathBuf};

const ROOTS: [&str; 4] = ["src", "variants", "Cargo.toml", "Cargo.lock"];

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let entries = fs::read_dir(path)
            .unwrap_or_else(|e| panic!("build.rs: cannot list {}: {e}", path.display()));
        for e in entries {
            let e = e.unwrap_or_else(|e| panic!("build.rs: cannot list {}: {e}", path.display()));
            collect(&e.path(), out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

fn main() {
    let mut paths = Vec::new();
    for root in ROOTS {
        println!("cargo::rerun-if-changed={root}");
        collect(Path::new(root), &mut paths);
    }
    // Paths with '/' whatever the platform, so the order and the hashed
    // names are the same everywhere.
    let mut named: Vec<(String, PathBuf)> = paths
        .into_iter()
        .map(|p| {
            let name = p
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            (name, p)
        })
        .collect();
    named.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for (name, path) in &named {
        let bytes = fs::read(path)
            .unwrap_or_else(|e| panic!("build.rs: cannot read {}: {e}", path.display()));
        let mut text = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if !(bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
                text.push(bytes[i]);
            }
            i += 1;
        }
        fnv1a(&mut hash, name.as_bytes());
        fnv1a(&mut hash, &[0]);
        fnv1a(&mut hash, &(text.len() as u64).to_le_bytes());
        fnv1a(&mut hash, &text);
    }
    println!("cargo::rustc-env=KATRO_BUILD=src-{hash:016x}");
}
