//! `katro check-proof VARIANT FILE`: a proof certificate
//! (docs/OUTPUTS.md, "Proof certificates") read through the [`Store`],
//! gzip-compressed or not, and checked by
//! [`crate::files::certificate::check_certificate`]; and [`gzip`], for
//! the writer of a large one.

use std::io::{Read, Write};
use std::path::Path;

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

use crate::engine::notation::plural;
use crate::files::certificate::{
    Checked, check_certificate, decisions_word, parse_certificate, player_word,
};
use crate::store::{Store, describe};

use super::{Error, Refusal, load_variant};

/// The first two bytes of every gzip file.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// `bytes` gzip-compressed (the default level), as a large certificate is
/// stored; [`certificate_text`] reads it back.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(bytes)
        .expect("writing into memory does not fail");
    enc.finish().expect("writing into memory does not fail")
}

/// A certificate file's text: decompressed first when it starts with the
/// gzip magic; why not, in words, when it is neither gzip nor UTF-8.
pub fn certificate_text(bytes: Vec<u8>) -> Result<String, String> {
    let bytes = if bytes.starts_with(&GZIP_MAGIC) {
        let mut out = Vec::new();
        MultiGzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| format!("it starts as a gzip file but does not decompress: {e}"))?;
        out
    } else {
        bytes
    };
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not text: byte {} is not UTF-8 (a certificate is UTF-8 text, or that text \
             gzip-compressed)",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Checks the certificate `file` against the variant `variant` (a preset
/// or a variant file); the line `katro check-proof` prints when it
/// proves its claim.
pub fn check_proof(store: &dyn Store, variant: &str, file: &str) -> Result<String, Error> {
    let rules = load_variant(store, variant)?;
    let path = Path::new(file);
    let bytes = store
        .read(path)
        .map_err(|e| Refusal::CertificateUnreadable {
            path: path.into(),
            reason: describe(&e),
        })?;
    let text = certificate_text(bytes).map_err(|reason| Refusal::CertificateUnreadable {
        path: path.into(),
        reason,
    })?;
    let parsed = parse_certificate(&text).map_err(|error| Refusal::CertificateFormat {
        path: path.into(),
        error,
    })?;
    drop(text);
    let checked = check_certificate(&rules, &parsed).map_err(|defect| Refusal::ProofDefect {
        path: path.into(),
        defect: Box::new(defect),
    })?;
    let from = if parsed.root.is_empty() {
        format!("from the start of {}", rules.name())
    } else {
        format!(
            "after {} from the start of {}",
            parsed.root.join(" "),
            rules.name()
        )
    };
    Ok(format!("certificate {file}: {}\n", proven(&checked, &from)))
}

/// What a checked certificate proves, and how much was checked.
fn proven(c: &Checked, from: &str) -> String {
    format!(
        "{} wins within {} {from} — proof checked: {}, {}, longest line {}.",
        player_word(c.winner),
        decisions_word(c.claim as u64),
        grouped_count(c.winner_lines as u64, "winner decision", "winner decisions"),
        grouped_count(c.positions as u64, "position", "positions"),
        decisions_word(c.longest as u64),
    )
}

/// A count with its noun, its digits grouped by threes: `1,234 positions`.
fn grouped_count(n: u64, one: &str, many: &str) -> String {
    plural(n, one, many).replacen(&n.to_string(), &crate::engine::notation::grouped(n), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_round_trips_and_plain_text_passes_through() {
        let text = "katro-certificate 1\nvariant x\n".repeat(100);
        let packed = gzip(text.as_bytes());
        assert!(packed.starts_with(&GZIP_MAGIC));
        assert!(packed.len() < text.len());
        assert_eq!(certificate_text(packed).unwrap(), text);
        assert_eq!(certificate_text(text.clone().into_bytes()).unwrap(), text);
    }

    #[test]
    fn broken_gzip_and_binary_are_refused_in_words() {
        let mut packed = gzip(b"katro-certificate 1\n");
        packed.truncate(packed.len() / 2);
        let e = certificate_text(packed).unwrap_err();
        assert!(
            e.starts_with("it starts as a gzip file but does not decompress"),
            "{e}"
        );
        let e = certificate_text(vec![b'a', 0xff, b'b']).unwrap_err();
        assert!(e.starts_with("not text: byte 1 is not UTF-8"), "{e}");
    }

    #[test]
    fn counts_are_grouped_by_threes() {
        assert_eq!(grouped_count(1, "position", "positions"), "1 position");
        assert_eq!(grouped_count(999, "position", "positions"), "999 positions");
        assert_eq!(
            grouped_count(1234, "position", "positions"),
            "1,234 positions"
        );
        assert_eq!(
            grouped_count(12_345_678, "position", "positions"),
            "12,345,678 positions"
        );
    }
}
