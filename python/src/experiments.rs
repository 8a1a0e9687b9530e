//! Running experiments from Python.

use pyo3::create_exception;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

create_exception!(
    _katro,
    ExperimentError,
    PyRuntimeError,
    "An experiment katro refuses or cannot finish: `str(e)` is the command line's message."
);

#[pyfunction]
#[pyo3(signature = (path, out = None, threads = None, force = false))]
pub fn run_experiment(
    path: &str,
    out: Option<&str>,
    threads: Option<u32>,
    force: bool,
) -> PyResult<String> {
    let _ = (path, out, threads, force);
    Err(ExperimentError::new_err("not yet"))
}
