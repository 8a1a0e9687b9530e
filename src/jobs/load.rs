//! Reading an experiment file and the variant files it names, through a
//! [`Store`].

use std::path::Path;

use super::{Error, Refusal};
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
    let text =
        read_text(store, Path::new(path)).map_err(|error| Refusal::UnreadableExperiment {
            path: path.into(),
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

/// The variant file `spec` names, relative to the experiment's folder
/// `dir`: its path as shown and its text, kept in `files` too.
fn read_variant_file(
    store: &dyn Store,
    dir: &Path,
    spec: &str,
    files: &mut Vec<VariantFile>,
) -> Result<(String, String), String> {
    let p = dir.join(spec);
    let text = read_text(store, &p).map_err(|e| format!("{} ({e})", p.display()))?;
    let shown = p.display().to_string();
    files.push(VariantFile {
        spec: spec.to_string(),
        file: shown.clone(),
        text: text.clone(),
    });
    Ok((shown, text))
}
