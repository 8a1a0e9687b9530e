//! A variant named on the command line (or by a Python caller): a preset,
//! or a variant file read through the [`Store`].

use crate::rules::{Rules, resolve};
use crate::store::Store;

use super::{Error, read_text};

/// A variant by preset name or file path; every failure is bad input.
pub fn load_variant(store: &dyn Store, spec: &str) -> Result<Rules, Error> {
    resolve(spec, &|p| store.is_file(p) || store.is_dir(p), &mut |p| {
        read_text(store, p)
    })
    .map_err(Error::refused)
}
