//! `inlay.load_frame`: a 3DMigoto frame-analysis folder indexed by the library
//! (`inlay::frame::Frame`); each draw opens as a dump (`NativeDump`, as `load_dump` gives).

use std::path::PathBuf;

use pyo3::prelude::*;

use inlay::frame::{Filter, Frame};

use crate::dump::{NativeDump, native_dump};
use crate::errors;

/// An indexed frame-analysis folder.
#[pyclass(module = "inlay._inlay", frozen)]
pub struct NativeFrame {
    frame: Frame,
    /// Indices of the draws the filter selected.
    selected: Vec<usize>,
}

#[pymethods]
impl NativeFrame {
    /// The selected draws as JSON records (`Draw::to_json`, what `inlay frame --json` prints).
    fn draws_json(&self) -> String {
        let v: Vec<serde_json::Value> = self
            .selected
            .iter()
            .map(|&i| self.frame.draws[i].to_json())
            .collect();
        serde_json::Value::Array(v).to_string()
    }

    /// The index's warnings (unreadable files, names that do not parse, log lines).
    fn warnings(&self) -> Vec<String> {
        self.frame.warnings.iter().map(|w| w.to_string()).collect()
    }

    /// Draw `id` (`000123`) read as a dump.
    fn open(&self, py: Python<'_>, id: &str) -> PyResult<NativeDump> {
        let d = self
            .frame
            .draws
            .iter()
            .find(|d| d.id() == id)
            .ok_or_else(|| {
                errors::DumpError::new_err(format!("{}: no draw {id}", self.frame.root.display()))
            })?;
        let capture = py
            .detach(|| self.frame.load(d))
            .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
        native_dump(py, capture)
    }
}

/// Indexes the frame-analysis folder `dir`, keeping the draws `select` picks (the filter
/// grammar of `inlay frame --select`).
#[pyfunction]
#[pyo3(signature = (dir, select=None))]
pub fn load_frame(py: Python<'_>, dir: PathBuf, select: Option<&str>) -> PyResult<NativeFrame> {
    let filter: Filter = match select {
        Some(s) => s.parse().map_err(|e: inlay::frame::filter::FilterError| {
            pyo3::exceptions::PyValueError::new_err(e.to_string())
        })?,
        None => Filter::default(),
    };
    let frame = py
        .detach(|| Frame::open(&dir))
        .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
    let selected = frame
        .draws
        .iter()
        .enumerate()
        .filter(|(_, d)| filter.matches(d))
        .map(|(i, _)| i)
        .collect();
    Ok(NativeFrame { frame, selected })
}
