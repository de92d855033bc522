//! `inlay.load_mod`: a finished 3DMigoto mod read through `inlay::migoto_mod` — the same report
//! `inlay mod --json` prints, and each drawn part as a dump (`Mod::part_capture`) that decodes
//! like any other capture.

use std::collections::HashMap;
use std::path::PathBuf;

use inlay::migoto_mod::{Mod, ModOptions};
use pyo3::prelude::*;

use crate::dump::{NativeDump, native_dump};
use crate::errors;

/// Reads a mod for one state (`set`: variable values over the defaults; `profile`: a tool
/// family's buffer profile instead of detection). Returns the report as JSON text, and per
/// part (in the report's order) its dump, or `None` for a part that is not mesh data or cannot
/// be read (the report says why).
#[pyfunction]
#[pyo3(signature = (path, set=None, profile=None))]
pub fn load_mod(
    py: Python<'_>,
    path: PathBuf,
    set: Option<HashMap<String, f64>>,
    profile: Option<String>,
) -> PyResult<(String, Vec<Option<NativeDump>>)> {
    let mut options = ModOptions {
        profile,
        ..ModOptions::default()
    };
    let mut set: Vec<(String, f64)> = set.unwrap_or_default().into_iter().collect();
    set.sort_by(|a, b| a.0.cmp(&b.0));
    options.set = set.into_iter().map(|(k, v)| (k, v as f32)).collect();
    let m = py
        .detach(|| Mod::load(&path, &options))
        .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
    let report = m.report().to_string();
    let mut parts = Vec::with_capacity(m.parts.len());
    for (i, p) in m.parts.iter().enumerate() {
        if !p.export || p.problem.is_some() {
            parts.push(None);
            continue;
        }
        let capture = m
            .part_capture(i)
            .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
        parts.push(Some(native_dump(py, capture)?));
    }
    Ok((report, parts))
}
