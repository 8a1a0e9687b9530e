//! Running experiments from Python: the same run as `katro run`, through
//! the library's run entry point.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

create_exception!(
    _katro,
    ExperimentError,
    PyRuntimeError,
    "An experiment katro refuses or cannot finish: `str(e)` is the command \
     line's message, `e.exit_code` the exit code `katro run` would give \
     (2 for bad input, 1 for work that could not finish)."
);

/// A Python value as TOML, naming where in the dict a value TOML cannot
/// hold sits.
fn toml_value(obj: &Bound<'_, PyAny>, at: &str) -> PyResult<toml::Value> {
    // bool before int: Python's True is an int too.
    if obj.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(obj.extract()?));
    }
    if obj.is_instance_of::<PyInt>() {
        let v: i64 = obj.extract().map_err(|_| {
            PyTypeError::new_err(format!("{at}: {obj} does not fit a 64-bit integer"))
        })?;
        return Ok(toml::Value::Integer(v));
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(obj.extract()?));
    }
    if obj.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(obj.extract()?));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        return Ok(toml::Value::Table(toml_table(d, at)?));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items = obj
            .try_iter()?
            .enumerate()
            .map(|(i, item)| toml_value(&item?, &format!("{at}[{i}]")))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(toml::Value::Array(items));
    }
    Err(PyTypeError::new_err(format!(
        "{at}: a {} has no TOML form: use a str, int, float, bool, list or dict",
        obj.get_type().name()?
    )))
}

fn toml_table(d: &Bound<'_, PyDict>, at: &str) -> PyResult<toml::Table> {
    let mut t = toml::Table::new();
    for (k, v) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("{at}: the key {k} is not a str")))?;
        let here = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        // None means "not given", as an omitted key.
        if v.is_none() {
            continue;
        }
        t.insert(key, toml_value(&v, &here)?);
    }
    Ok(t)
}

/// An experiment dict as the text of an experiment file.
#[pyfunction]
pub fn experiment_toml(experiment: &Bound<'_, PyDict>) -> PyResult<String> {
    let table = toml_table(experiment, "")?;
    toml::to_string(&table).map_err(|e| PyTypeError::new_err(e.to_string()))
}

#[pyfunction]
#[pyo3(signature = (path, out = None, threads = None, force = false))]
pub fn run_experiment(
    path: &str,
    out: Option<&str>,
    threads: Option<u32>,
    force: bool,
) -> PyResult<String> {
    let _ = (path, out, threads, force);
    Err(ExperimentError::new_err(
        "katro.run_experiment needs the library run API, which this build lacks",
    ))
}
