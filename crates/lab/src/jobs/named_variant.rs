//! A variant named on the command line (or by a Python caller): a preset,
//! or a variant file read through the [`Store`].

use crate::rules::{Rules, resolve};
use crate::store::Store;

use super::load::read_text;
use super::{Error, Refusal};

/// A variant by preset name or file path; every failure is bad input.
pub fn load_variant(store: &dyn Store, spec: &str) -> Result<Rules, Error> {
    let exists = |p: &std::path::Path| store.is_file(p) || store.is_dir(p);
    resolve(spec, &exists, &mut |spec| {
        read_text(store, std::path::Path::new(spec))
            .map(|text| (spec.to_string(), text))
            .map_err(|e| e.to_string())
    })
    .map_err(|e| Refusal::Variant(e).into())
}
