//! Reading an experiment file and the variant files it names, through a
//! [`Store`].

use std::path::Path;

use super::{Error, Readable, Refusal};
use crate::experiment::{Experiment, parse_experiment};
use crate::files::VariantFile;
use crate::store::Store;

/// A text file through the store; bytes that are not UTF-8 are an error.
pub(super) fn read_text(store: &dyn Store, path: &Path) -> std::io::Result<String> {
    String::from_utf8(store.read(path)?).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// An experiment file read and validated, with the variant files it named.
pub struct Loaded {
    pub path: String,
    pub text: String,
    pub exp: Experiment,
    pub variant_files: Vec<VariantFile>,
}

/// Reads and validates an experiment file; variant files are named
/// relative to its folder.
pub fn load_experiment(store: &dyn Store, path: &str) -> Result<Loaded, Error> {
    let text = read_text(store, Path::new(path)).map_err(|error| Refusal::Unreadable {
        path: path.into(),
        what: Readable::Experiment,
        error,
    })?;
    let dir = Path::new(path)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let mut variant_files = Vec::new();
    let mut read_variant = |spec: &str| read_variant_file(store, &dir, spec, &mut variant_files);
    let exp = parse_experiment(path, &text, &mut read_variant)?;
    Ok(Loaded {
        path: path.to_string(),
        text,
        exp,
        variant_files,
    })
}

/// Why the variant file `spec` (at `p`, in the experiment's folder
/// `dir`) does not read. One not found is told the path rule, the likely
/// slip being a path written from the working directory, as `--out` is:
/// when `spec` is there from the working directory, the path that names
/// it from the experiment's folder is given.
fn not_read(store: &dyn Store, dir: &Path, spec: &str, p: &Path, e: &std::io::Error) -> String {
    let mut why = format!("{} ({e})", p.display());
    if e.kind() == std::io::ErrorKind::NotFound {
        let folder = if dir.as_os_str().is_empty() {
            ".".to_string()
        } else {
            dir.display().to_string()
        };
        why.push_str(&format!(
            "; a variant path in an experiment is relative to the experiment file's folder \
             ({folder}), not to the working directory"
        ));
        if let Some(fixed) = from_folder(dir, spec).filter(|_| store.is_file(Path::new(spec))) {
            why.push_str(&format!(
                ": `{spec}` from the working directory is `{fixed}` from there"
            ));
        }
    }
    why
}

/// The path `spec` (relative to the working directory) as written from
/// the relative folder `dir`; `None` where `..` cannot say it (`dir`
/// absolute or going up).
fn from_folder(dir: &Path, spec: &str) -> Option<String> {
    use std::path::Component;
    if Path::new(spec).is_absolute() {
        return None;
    }
    let mut up = String::new();
    for c in dir.components() {
        match c {
            Component::Normal(_) => up.push_str("../"),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!up.is_empty()).then(|| format!("{up}{spec}"))
}

/// The variant file `spec` names, relative to the experiment's folder
/// `dir`: its path as shown and its text, kept in `files` too.
fn read_variant_file(
    store: &dyn Store,
    dir: &Path,
    spec: &str,
    files: &mut Vec<VariantFile>,
) -> Result<(String, String), String> {
    let p = dir.join(spec);
    let text = read_text(store, &p).map_err(|e| not_read(store, dir, spec, &p, &e))?;
    let shown = p.display().to_string();
    files.push(VariantFile {
        spec: spec.to_string(),
        file: shown.clone(),
        text: text.clone(),
    });
    Ok((shown, text))
}
