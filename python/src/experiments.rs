//! Running experiments from Python: the same run as `katro run`, through
//! the library's run entry point.

use std::io;
use std::path::Path;
use std::sync::Mutex;

use katro_lab::jobs::{self, RunOptions};
use katro_lab::store::{Entry, FsStore, Locking, Store};
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

/// Collects what a run has to say on the way (variants left out, cells
/// that decided few games), which `katro run` prints to stderr: the run
/// plays without the GIL, so the notes are written once it is back.
#[derive(Default)]
struct Notes(Mutex<Vec<String>>);

impl jobs::Progress for Notes {
    fn note(&self, text: &str) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text.to_string());
    }
}

/// The file system, with one more file that exists only in memory: the
/// experiment text an experiment dict became.
struct WithText<'a> {
    path: &'a Path,
    text: &'a [u8],
}

impl Store for WithText<'_> {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        if path == self.path {
            return Ok(self.text.to_vec());
        }
        FsStore.read(path)
    }
    fn read_start(&self, path: &Path, n: u64) -> io::Result<Vec<u8>> {
        if path == self.path {
            let n = usize::try_from(n)
                .unwrap_or(usize::MAX)
                .min(self.text.len());
            return Ok(self.text[..n].to_vec());
        }
        FsStore.read_start(path, n)
    }
    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
        FsStore.list(dir)
    }
    fn is_dir(&self, path: &Path) -> bool {
        FsStore.is_dir(path)
    }
    fn is_file(&self, path: &Path) -> bool {
        path == self.path || FsStore.is_file(path)
    }
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        FsStore.create_dir_all(dir)
    }
    fn check_writable(&self, dir: &Path) -> io::Result<()> {
        FsStore.check_writable(dir)
    }
    fn write_atomic(&self, dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
        FsStore.write_atomic(dir, name, bytes)
    }
    fn remove_file(&self, path: &Path) -> io::Result<()> {
        FsStore.remove_file(path)
    }
    fn remove_all(&self, path: &Path) -> io::Result<()> {
        FsStore.remove_all(path)
    }
    fn remove_dir(&self, path: &Path) -> io::Result<()> {
        FsStore.remove_dir(path)
    }
    fn remove_temporaries(&self, dir: &Path) {
        FsStore.remove_temporaries(dir)
    }
    fn take_lock(&self, path: &Path, owner: &str) -> io::Result<Locking<'_>> {
        FsStore.take_lock(path, owner)
    }
    fn host_name(&self) -> String {
        FsStore.host_name()
    }
}

/// The name an experiment dict's text goes by in messages and in the
/// manifest; it has no folder, so variant files it names are read from the
/// current folder.
pub const DICT_NAME: &str = "<experiment dict>";

fn run_with(
    py: Python<'_>,
    store: &dyn Store,
    experiment: &str,
    out: Option<String>,
    threads: Option<u32>,
    force: bool,
) -> PyResult<String> {
    let mut opts = RunOptions::new(experiment);
    opts.out = out;
    opts.threads = threads.map(|t| t as usize);
    opts.force = force;
    opts.command = vec!["katro.run_experiment".to_string(), experiment.to_string()];
    let notes = Notes::default();
    // The games run on katro's own threads; Python's may go on meanwhile.
    let result = py.detach(|| jobs::run(&opts, store, &notes));
    let notes = notes.0.into_inner().unwrap_or_else(|e| e.into_inner());
    if !notes.is_empty() {
        let stderr = py.import("sys")?.getattr("stderr")?;
        for n in notes {
            stderr.call_method1("write", (format!("{n}\n"),))?;
        }
    }
    match result {
        Ok(outcome) => Ok(outcome.out_dir.display().to_string()),
        Err(e) => {
            let code = e.kind().exit_code();
            let err = ExperimentError::new_err(e.to_string());
            err.value(py).setattr("exit_code", code)?;
            Err(err)
        }
    }
}

/// Runs an experiment file as `katro run` does; returns the output folder.
#[pyfunction]
#[pyo3(signature = (path, out = None, threads = None, force = false))]
pub fn run_experiment(
    py: Python<'_>,
    path: &str,
    out: Option<String>,
    threads: Option<u32>,
    force: bool,
) -> PyResult<String> {
    run_with(py, &FsStore, path, out, threads, force)
}

/// Runs the experiment whose file text is `text` (an experiment dict made
/// TOML) as `katro run` runs a file; returns the output folder.
#[pyfunction]
#[pyo3(signature = (text, out = None, threads = None, force = false))]
pub fn run_experiment_text(
    py: Python<'_>,
    text: &str,
    out: Option<String>,
    threads: Option<u32>,
    force: bool,
) -> PyResult<String> {
    let store = WithText {
        path: Path::new(DICT_NAME),
        text: text.as_bytes(),
    };
    run_with(py, &store, DICT_NAME, out, threads, force)
}
