//! `katro check-proof VARIANT FILE` on the real binary: the golden
//! certificate (tests/golden/katro-4x2-1seed.cert, a proof the unit tests
//! in crates/lab/src/files/certificate/ find again) checks, plain or gzip-compressed;
//! a mutated one, one for another variant and an unreadable file are
//! refused with exit 2, naming the file and the line.

use std::path::Path;

use crate::common::{katro_in, katro_ok};

const VARIANT: &str = "tests/golden/katro-4x2-1seed.toml";
const CERT: &str = "tests/golden/katro-4x2-1seed.cert";

fn golden() -> String {
    std::fs::read_to_string(CERT).unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

/// The golden certificate with its line `n` (from 1) removed.
fn without_line(n: usize) -> String {
    let text = golden();
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|&(i, _)| i + 1 != n)
        .map(|(_, l)| l)
        .collect();
    kept.join("\n") + "\n"
}

#[test]
fn a_valid_certificate_checks_plain_and_gzip_compressed() {
    let out = katro_ok(&["check-proof", VARIANT, CERT]);
    assert_eq!(
        out,
        format!(
            "certificate {CERT}: South wins within 7 decisions from the start of \
             katro-4x2-1seed — proof checked: 5 winner decisions, 8 positions, longest line \
             7 decisions.\n"
        )
    );
    let dir = tempfile::tempdir().unwrap();
    let gz = write(
        dir.path(),
        "proof.cert.gz",
        &katro_lab::jobs::certificate::gzip(golden().as_bytes()),
    );
    let out = katro_ok(&["check-proof", VARIANT, &gz]);
    assert_eq!(
        out,
        format!(
            "certificate {gz}: South wins within 7 decisions from the start of \
             katro-4x2-1seed — proof checked: 5 winner decisions, 8 positions, longest line \
             7 decisions.\n"
        )
    );
}

#[test]
fn a_defect_exits_2_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    // Line 8 deleted: the reply after line 6's move is left uncovered.
    let cut = write(dir.path(), "cut.cert", without_line(8).as_bytes());
    let run = katro_in(&["check-proof", VARIANT, &cut], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "error: {cut} line 6: after the moves `a1` then `b4`, South is to move at \
             `2,2/0,1/1,1/0,1 S . . .` and no line gives that position (a reply left \
             uncovered)\n"
        )
    );
    assert!(run.stdout.is_empty());
    // The same, compressed.
    let gz = write(
        dir.path(),
        "cut.cert.gz",
        &katro_lab::jobs::certificate::gzip(without_line(8).as_bytes()),
    );
    let run = katro_in(&["check-proof", VARIANT, &gz], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(&format!("error: {gz} line 6: ")),
        "{}",
        run.stderr
    );
    // A claim too fast for the proof.
    let fast = golden().replace("within 7 decisions", "within 6 decisions");
    let fast = write(dir.path(), "fast.cert", fast.as_bytes());
    let run = katro_in(&["check-proof", VARIANT, &fast], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(&format!(
            "error: {fast} line 5: the claim of 6 decisions does not hold"
        )),
        "{}",
        run.stderr
    );
    // Not a certificate of this format.
    let old = golden().replacen("katro-certificate 1", "katro-certificate 0", 1);
    let old = write(dir.path(), "old.cert", old.as_bytes());
    let run = katro_in(&["check-proof", VARIANT, &old], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "error: {old} line 1: a certificate of format version `0`; this katro reads \
             version 1\n"
        )
    );
}

#[test]
fn a_certificate_for_another_variant_is_refused() {
    let run = katro_in(&["check-proof", "katro-4x4", CERT], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "error: {CERT} line 2: a certificate for variant `katro-4x2-1seed`, not \
             `katro-4x4`\n"
        )
    );
    // The same name over other rules.
    let dir = tempfile::tempdir().unwrap();
    let other = std::fs::read_to_string(VARIANT)
        .unwrap()
        .replace("seeds = 1", "seeds = 2");
    let other = write(dir.path(), "other.toml", other.as_bytes());
    let run = katro_in(&["check-proof", &other, CERT], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(&format!(
            "error: {CERT} line 3: a certificate under the rules `katro(rows=4,holes=2,seeds=1,"
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(", not those of `katro-4x2-1seed`: `katro(rows=4,holes=2,seeds=2,")
    );
}

#[test]
fn an_unreadable_file_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.cert");
    let missing = missing.to_str().unwrap();
    let run = katro_in(&["check-proof", VARIANT, missing], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with(&format!("error: {missing}: cannot read the certificate: ")),
        "{}",
        run.stderr
    );
    let binary = write(dir.path(), "binary.cert", &[0x80, 0x81, 0x82]);
    let run = katro_in(&["check-proof", VARIANT, &binary], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("cannot read the certificate: not text"),
        "{}",
        run.stderr
    );
    let broken = write(dir.path(), "broken.gz", &[0x1f, 0x8b, 0x08, 0x00]);
    let run = katro_in(&["check-proof", VARIANT, &broken], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("does not decompress"), "{}", run.stderr);
    let run = katro_in(&["check-proof", "katro-9x9", CERT], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown variant `katro-9x9`"),
        "{}",
        run.stderr
    );
}
