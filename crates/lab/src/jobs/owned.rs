//! What katro may write over or delete: only files it wrote and that
//! nobody changed since (docs/OUTPUTS.md, "What katro writes over"). Every
//! command that writes files asks here first, `--force` or not: `--force`
//! deletes or replaces katro's own files, never another's.
//!
//! How katro knows its own files:
//! - in a results folder, by the ledger `DIR/.katro-files`, which holds
//!   the FNV-1a hash of every file katro wrote there, recorded as it wrote
//!   it: a file whose bytes hash to what the ledger holds is katro's and
//!   unchanged; a file at a name the ledger holds with other bytes was
//!   edited;
//! - a single file a command writes where the user says (`show --svg`,
//!   `replay --html`, `solve --out`), by a mark line in the file that
//!   holds the hash of the rest of it ([`mark_text`]);
//! - files of a folder written before the ledger (the committed results),
//!   by what they hold: a chart or page with katro's mark, a manifest or
//!   shard katro reads as its own, a result file the folder's manifest
//!   lists.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::files::proved::{PROVED_CSV, PROVED_SVG, ProvedManifest, is_proved_csv};
use crate::files::solved::{FamilyManifest, is_solved_csv};
use crate::files::{ManifestRead, add_files, sniff_shard_header};
use crate::pictures::proved_grid;
use crate::pictures::report::GENERATOR;
use crate::rng::bytes_hash;
use crate::store::Store;

use super::{Error, Failure, Refusal, read_optional};

/// The ledger of a results folder: what katro wrote there, with hashes.
pub const LEDGER: &str = ".katro-files";
/// The ledger's first line: its format.
const LEDGER_HEAD: &str = "katro-files 1";

/// The mark `katro show --svg` and `katro replay --html` put in the files
/// they wrote before the hash was in the mark; a file with it is katro's.
const OLD_MARK: &str =
    "<!-- written by katro: katro replaces this file; remove this line to keep it -->";
/// The words of [`mark_text`]'s line before the hash.
const MARK_WORDS: &str = "written by katro, fnv1a64 ";

/// Whose a file at a name katro writes is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Whose {
    /// Nothing there.
    Absent,
    /// Katro's, unchanged since katro wrote it: katro may replace it.
    Katros,
    /// Katro wrote a file there, but its bytes are no longer those.
    Edited,
    /// Not written by katro.
    Users,
}

impl Whose {
    /// Whether katro may write over (or delete) the file.
    pub fn replaceable(&self) -> bool {
        matches!(self, Whose::Absent | Whose::Katros)
    }

    /// Why a file katro may not replace is refused, in words.
    pub fn why(&self) -> &'static str {
        match self {
            Whose::Edited => "changed since katro wrote it",
            _ => "katro did not write it",
        }
    }
}

/// The hash katro records for a file's bytes, as the ledger and marks
/// write it.
fn hash_text(bytes: &[u8]) -> String {
    format!("{:016x}", bytes_hash(bytes))
}

/// How a file format writes a comment line, for [`mark_text`]: around the
/// mark's words.
#[derive(Clone, Copy, Debug)]
pub struct Comment {
    pub open: &'static str,
    pub close: &'static str,
}

/// An XML or HTML comment: SVG diagrams and web pages.
pub const XML_COMMENT: Comment = Comment {
    open: "<!-- ",
    close: " -->",
};

/// A header line of a solved table (docs/SOLVED.md), which readers skip.
pub const TABLE_LINE: Comment = Comment {
    open: "katro-mark ",
    close: "",
};

/// `bytes` with katro's mark as their second line (after the SVG's
/// opening tag, the HTML's doctype, the table's first line, so the file
/// still starts as before). The mark holds the hash of the rest of the
/// file: a file that still matches it is katro's, unchanged.
pub fn mark_text(bytes: &[u8], comment: Comment) -> Vec<u8> {
    let cut = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| i + 1);
    let (first, rest) = bytes.split_at(cut);
    let mut unmarked = first.to_vec();
    if !unmarked.ends_with(b"\n") {
        unmarked.push(b'\n');
    }
    let at = unmarked.len();
    unmarked.extend_from_slice(rest);
    let line = format!(
        "{}{MARK_WORDS}{} of the rest: katro replaces this file while it is unchanged; \
         remove this line to keep it{}\n",
        comment.open,
        hash_text(&unmarked),
        comment.close
    );
    let mut out = unmarked[..at].to_vec();
    out.extend_from_slice(line.as_bytes());
    out.extend_from_slice(&unmarked[at..]);
    out
}

/// Whose the file `bytes` is by its own mark: katro's when its mark line
/// holds the hash of the rest (or it has the mark of before the hash),
/// edited when the hash differs, `None` when it has no mark.
fn by_mark(bytes: &[u8]) -> Option<Whose> {
    let head = &bytes[..bytes.len().min(4096)];
    let words = MARK_WORDS.as_bytes();
    let Some(at) = head.windows(words.len()).position(|w| w == words) else {
        let old = OLD_MARK.as_bytes();
        return head
            .windows(old.len())
            .any(|w| w == old)
            .then_some(Whose::Katros);
    };
    let hex = bytes.get(at + words.len()..at + words.len() + 16)?;
    let rest = without_line_at(bytes, at);
    Some(if hex == hash_text(&rest).as_bytes() {
        Whose::Katros
    } else {
        Whose::Edited
    })
}

/// `bytes` without the line that holds byte `at`: the rest the mark's
/// hash is of.
fn without_line_at(bytes: &[u8], at: usize) -> Vec<u8> {
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| at + i + 1);
    let mut rest = bytes[..start].to_vec();
    rest.extend_from_slice(&bytes[end..]);
    rest
}

/// Whose a single file katro writes where the user says is, by its mark;
/// `old_own` tells a file of this kind that katro wrote before marks held
/// a hash (a solved table by its first line).
fn whose_file(store: &dyn Store, path: &Path, old_own: fn(&[u8]) -> bool) -> Result<Whose, Error> {
    let Some(bytes) = read_optional(store, path)? else {
        return Ok(Whose::Absent);
    };
    Ok(match by_mark(&bytes) {
        Some(w) => w,
        None if old_own(&bytes) => Whose::Katros,
        None => Whose::Users,
    })
}

/// Refuses, naming it, a file at `path` katro may not replace: one it did
/// not write, or changed since (`--force` or not). `old_own` recognises a
/// file of this kind that katro wrote before its marks held a hash.
pub fn check_marked_file(
    store: &dyn Store,
    path: &Path,
    old_own: fn(&[u8]) -> bool,
) -> Result<(), Error> {
    let whose = whose_file(store, path, old_own)?;
    if whose.replaceable() {
        return Ok(());
    }
    Err(Refusal::FileNotOurs {
        path: path.to_path_buf(),
        whose,
    }
    .into())
}

/// Writes `bytes`, marked ([`mark_text`]), to the file `path` atomically,
/// unless a file katro may not replace is there ([`check_marked_file`]):
/// the one way `show --svg`, `replay --html` and `solve --out` write
/// their file. Returns the size written.
pub fn write_marked_file(
    store: &dyn Store,
    path: &Path,
    bytes: &[u8],
    comment: Comment,
    old_own: fn(&[u8]) -> bool,
) -> Result<u64, Error> {
    let (dir, name) = file_place(store, path)?;
    check_marked_file(store, path, old_own)?;
    let marked = mark_text(bytes, comment);
    super::put(store, dir, name, &marked)?;
    Ok(marked.len() as u64)
}

/// The folder `path` is in: its parent, or `.` for a bare file name.
pub(super) fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The folder and name of the file `path`, refused when it names no file
/// in a folder that is there.
fn file_place<'p>(store: &dyn Store, path: &'p Path) -> Result<(&'p Path, &'p str), Error> {
    let shown = path.display().to_string();
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Err(Refusal::NoFileName { shown }.into());
    };
    let dir = folder_of(path);
    if !store.is_dir(dir) {
        let dir = dir.to_path_buf();
        return Err(Refusal::NoSuchFolder { shown, dir }.into());
    }
    if store.is_dir(path) {
        return Err(Refusal::IsAFolder { shown }.into());
    }
    Ok((dir, name))
}

/// Never a file of katro's from before marks held a hash.
pub fn no_old_mark(_: &[u8]) -> bool {
    false
}

/// A results folder's files as katro knows them: its ledger and, for
/// files written before the ledger, its manifest's list. Every write or
/// delete a job makes in a results folder goes through one.
pub struct Folder<'a> {
    store: &'a dyn Store,
    dir: PathBuf,
    /// Relative path → the hashes katro wrote there (two while a write is
    /// under way, so a write cut short leaves either version katro's).
    ledger: BTreeMap<String, Vec<String>>,
    /// The files the folder's manifest lists, for files from before the
    /// ledger.
    listed: Vec<String>,
}

impl<'a> Folder<'a> {
    /// The folder `dir` as katro knows it; one with no ledger (or no
    /// folder at all) is read as empty.
    pub fn open(store: &'a dyn Store, dir: &Path) -> Folder<'a> {
        let ledger = read_ledger(store, dir);
        let listed = store
            .read(&dir.join("manifest.json"))
            .ok()
            .and_then(|b| ManifestRead::parse(&b).ok())
            .map(|m| m.files)
            .unwrap_or_default();
        Folder {
            store,
            dir: dir.to_path_buf(),
            ledger,
            listed,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn store(&self) -> &'a dyn Store {
        self.store
    }

    /// Whose the file `rel` (a path relative to the folder, `/`-separated)
    /// is; an error when it is there but cannot be read.
    pub fn whose(&self, rel: &str) -> Result<Whose, Error> {
        let path = self.dir.join(rel);
        if self.store.is_dir(&path) {
            return Ok(Whose::Users);
        }
        let Some(bytes) = read_optional(self.store, &path)? else {
            return Ok(Whose::Absent);
        };
        if let Some(hashes) = self.ledger.get(rel) {
            let h = hash_text(&bytes);
            return Ok(if hashes.contains(&h) {
                Whose::Katros
            } else {
                Whose::Edited
            });
        }
        Ok(if self.written_before_ledger(rel, &bytes) {
            Whose::Katros
        } else {
            Whose::Users
        })
    }

    /// Whether a file the ledger does not hold is one katro wrote before
    /// it kept a ledger, by what the file holds.
    fn written_before_ledger(&self, rel: &str, bytes: &[u8]) -> bool {
        let head = &bytes[..bytes.len().min(4096)];
        let has = |m: &[u8]| head.windows(m.len()).any(|w| w == m);
        if rel == PROVED_SVG && has(proved_grid::MARK.as_bytes()) {
            return true;
        }
        if rel.ends_with(".svg") || rel.ends_with(".html") {
            return has(GENERATOR.as_bytes()) || by_mark(bytes) == Some(Whose::Katros);
        }
        if rel == "manifest.json" {
            return ManifestRead::parse(bytes).is_ok_and(|m| !m.run.katro_build.is_empty())
                || FamilyManifest::is_ours(bytes)
                || ProvedManifest::is_ours(bytes);
        }
        // `katro prove-family`'s shards, by their header or manifest.
        if rel.starts_with("shards/proved-") {
            return is_proved_csv(head) || ProvedManifest::is_ours(bytes);
        }
        if rel.starts_with("shards/") {
            return sniff_shard_header(head).is_some();
        }
        if (rel == "solved.csv" && is_solved_csv(head))
            || (rel == PROVED_CSV && is_proved_csv(head))
        {
            return true;
        }
        self.listed.iter().any(|f| f == rel)
    }

    /// Refuses, naming each, the files of `rels` katro may not replace or
    /// delete; `what` says what the command was about to do.
    pub fn check(&self, rels: &[String], what: &str) -> Result<(), Error> {
        let mut bad = Vec::new();
        for rel in rels {
            let w = self.whose(rel)?;
            if !w.replaceable() {
                bad.push((self.dir.join(rel), w));
            }
        }
        if bad.is_empty() {
            return Ok(());
        }
        Err(Refusal::WouldReplace {
            what: what.to_string(),
            files: bad,
        }
        .into())
    }

    /// Writes `files` (relative path, bytes) into the folder, each
    /// atomically, and records them in the ledger; refused before anything
    /// is written when one of them would replace a file katro may not
    /// replace.
    pub fn write(&mut self, files: &[(String, Vec<u8>)], what: &str) -> Result<(), Error> {
        let rels: Vec<String> = files.iter().map(|(r, _)| r.clone()).collect();
        self.check(&rels, what)?;
        // Recorded before the files are written, beside what was there: a
        // write cut short leaves each file as either version, both katro's.
        for (rel, bytes) in files {
            let h = hash_text(bytes);
            let hashes = self.ledger.entry(rel.clone()).or_default();
            if !hashes.contains(&h) {
                hashes.push(h);
            }
        }
        // The ledger lives in the folder, which a first write may have to
        // make (`katro rate ... --out NEW`).
        create_folder(self.store, &self.dir)?;
        self.save()?;
        for (rel, bytes) in files {
            let path = self.dir.join(rel);
            let (dir, name) = split(&path);
            create_folder(self.store, dir)?;
            super::put(self.store, dir, name, bytes)?;
            self.ledger.insert(rel.clone(), vec![hash_text(bytes)]);
        }
        self.save()
    }

    /// Deletes the files `rels` katro wrote, and forgets them; refused,
    /// naming them, for one katro may not delete.
    pub fn remove(&mut self, rels: &[String], what: &str) -> Result<(), Error> {
        self.check(rels, what)?;
        for rel in rels {
            let path = self.dir.join(rel);
            self.store
                .remove_file(&path)
                .map_err(|error| Failure::Delete { path, error })?;
            self.ledger.remove(rel);
        }
        self.save()
    }

    /// Writes the ledger, or removes it when it holds nothing.
    fn save(&self) -> Result<(), Error> {
        if self.ledger.is_empty() {
            let path = self.dir.join(LEDGER);
            return Ok(self
                .store
                .remove_file(&path)
                .map_err(|error| Failure::Delete { path, error })?);
        }
        let mut text = format!("{LEDGER_HEAD}\n");
        for (rel, hashes) in &self.ledger {
            for h in hashes {
                text.push_str(&format!("{h} {rel}\n"));
            }
        }
        super::put(self.store, &self.dir, LEDGER, text.as_bytes())
    }
}

/// The folder's ledger: each relative path with the hashes katro wrote
/// there. A ledger that is not one is read as empty: its files are then
/// judged as from before the ledger, by their marks and listing.
fn read_ledger(store: &dyn Store, dir: &Path) -> BTreeMap<String, Vec<String>> {
    let mut ledger: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let text = store
        .read(&dir.join(LEDGER))
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default();
    if text.lines().next() == Some(LEDGER_HEAD) {
        for line in text.lines().skip(1) {
            if let Some((hash, rel)) = line.split_once(' ') {
                ledger
                    .entry(rel.to_string())
                    .or_default()
                    .push(hash.to_string());
            }
        }
    }
    ledger
}

/// Makes the folder `dir` and those above it, as needed.
fn create_folder(store: &dyn Store, dir: &Path) -> Result<(), Error> {
    Ok(store.create_dir_all(dir).map_err(|error| Failure::Create {
        path: dir.to_path_buf(),
        error,
    })?)
}

/// A path's folder and file name.
fn split(path: &Path) -> (&Path, &str) {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    (dir, name)
}

/// Writes `files` (names relative to `dir`, bytes) into the results
/// folder `dir`, each atomically, recording them as katro's in the
/// ledger and, when the folder has a katro manifest, in its `files` list
/// (so a later run of the experiment replaces or removes them): the call
/// a job that adds files to a results folder (a rating, a judgement, a
/// report) makes. Refused (exit code 2), naming each, when one would
/// replace a file katro did not write there or that was changed since it
/// did, the manifest included; nothing is written then.
pub fn write_outputs(store: &dyn Store, dir: &Path, files: &[(&str, &[u8])]) -> Result<(), Error> {
    let mut batch: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(n, b)| (n.to_string(), b.to_vec()))
        .collect();
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    if let Some(m) = read_optional(store, &dir.join("manifest.json"))?
        && let Some(listed) = add_files(&m, &names)
    {
        batch.push(("manifest.json".into(), listed));
    }
    Folder::open(store, dir).write(&batch, &format!("writing into {}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    #[test]
    fn a_marked_file_is_katros_until_a_byte_changes() {
        let text = b"<svg>\n<rect/>\n</svg>\n";
        let marked = mark_text(text, XML_COMMENT);
        assert!(marked.starts_with(b"<svg>\n<!-- written by katro, fnv1a64 "));
        assert_eq!(by_mark(&marked), Some(Whose::Katros));
        let mut edited = marked.clone();
        *edited.last_mut().unwrap() = b' ';
        assert_eq!(by_mark(&edited), Some(Whose::Edited));
        assert_eq!(by_mark(text), None);
        assert_eq!(by_mark(OLD_MARK.as_bytes()), Some(Whose::Katros));
        // A one-line file gets its mark after its line.
        let one = mark_text(b"x", XML_COMMENT);
        assert!(one.starts_with(b"x\n<!-- written"), "{one:?}");
        assert_eq!(by_mark(&one), Some(Whose::Katros));
    }

    #[test]
    fn the_ledger_tells_katros_files_from_edited_and_others() {
        let s = MemoryStore::new();
        s.create_dir_all(Path::new("d")).unwrap();
        s.insert("d/mine.csv", "mine");
        let mut f = Folder::open(&s, Path::new("d"));
        f.write(&[("a.csv".into(), b"one".to_vec())], "test")
            .unwrap();
        let f = Folder::open(&s, Path::new("d"));
        assert_eq!(f.whose("a.csv").unwrap(), Whose::Katros);
        assert_eq!(f.whose("mine.csv").unwrap(), Whose::Users);
        assert_eq!(f.whose("none.csv").unwrap(), Whose::Absent);
        s.insert("d/a.csv", "two");
        let mut f = Folder::open(&s, Path::new("d"));
        assert_eq!(f.whose("a.csv").unwrap(), Whose::Edited);
        let e = f
            .write(&[("a.csv".into(), b"three".to_vec())], "test")
            .unwrap_err();
        let refused = |e: &Error, path: &str, whose: Whose| match e {
            Error::Refused(Refusal::WouldReplace { files, .. }) => {
                files == &[(PathBuf::from(path), whose)]
            }
            _ => false,
        };
        assert!(refused(&e, "d/a.csv", Whose::Edited), "{e}");
        assert_eq!(s.read(Path::new("d/a.csv")).unwrap(), b"two");
        let e = f.remove(&["mine.csv".into()], "test").unwrap_err();
        assert!(refused(&e, "d/mine.csv", Whose::Users), "{e}");
        assert_eq!(s.read(Path::new("d/mine.csv")).unwrap(), b"mine");
    }
}
