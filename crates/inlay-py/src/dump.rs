//! `inlay.load_dump` and `inlay.export`: the library's dump readers (`inlay::capture`) and
//! mesh exporters (`inlay::mesh`).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use inlay::capture::{self, Capture};
use inlay::mesh::{self, Instances, Mesh, MeshOptions};

use crate::create::target_of;
use crate::errors::{self, layout_error};
use crate::layout::Layout;

/// A captured draw read from a dump: elements, buffers, topology and draw parameters.
#[pyclass(module = "inlay._inlay", frozen)]
pub struct NativeDump {
    capture: Capture,
    /// Per slot, the bytes to bind (made once, handed out without copying): the binary
    /// buffer, or the text dump's values encoded through the layout.
    buffers: Vec<(u32, Py<PyBytes>)>,
    /// The index buffer's bytes.
    index: Option<Py<PyBytes>>,
    warnings: Vec<String>,
}

/// The call keys of the schema for the capture's draw ([`inlay::assembler::DrawCall::spec_keys`]).
fn draw_dict<'py>(py: Python<'py>, c: &Capture) -> PyResult<Bound<'py, PyDict>> {
    let call = c.draw_call();
    let Some((kind, keys)) = call.spec_keys() else {
        return Err(layout_error(format!(
            "a dump records a {} call, which has no call keys here",
            call.name()
        )));
    };
    let d = PyDict::new(py);
    d.set_item("kind", kind)?;
    for (key, value) in keys {
        d.set_item(key, value)?;
    }
    Ok(d)
}

#[pymethods]
impl NativeDump {
    #[getter]
    fn layout(&self) -> Layout {
        Layout {
            elements: self.capture.elements.clone(),
            name: None,
            syntax: "dump".into(),
        }
    }

    #[getter]
    fn vertex_buffers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (slot, data) in &self.buffers {
            d.set_item(slot, data.bind(py))?;
        }
        Ok(d)
    }

    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in &self.capture.slots {
            d.set_item(s.slot, s.stride)?;
        }
        Ok(d)
    }

    #[getter]
    fn offsets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in &self.capture.slots {
            d.set_item(s.slot, s.offset)?;
        }
        Ok(d)
    }

    #[getter]
    fn index_buffer<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.index.as_ref().map(|i| i.bind(py).clone())
    }

    #[getter]
    fn index_format(&self) -> Option<&'static str> {
        self.capture.index.as_ref().map(|i| i.format.name())
    }

    #[getter]
    fn index_offset(&self) -> u32 {
        self.capture.index.as_ref().map_or(0, |i| i.offset)
    }

    #[getter]
    fn topology(&self) -> String {
        self.capture.topology.name()
    }

    #[getter]
    fn draw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        draw_dict(py, &self.capture)
    }

    #[getter]
    fn warnings(&self) -> Vec<String> {
        let mut w: Vec<String> = self
            .capture
            .warnings
            .iter()
            .map(|w| w.to_string())
            .collect();
        w.extend(self.warnings.iter().cloned());
        w
    }

    /// The capture's name (`Capture::name`): a dump's name without its hashes, a `.fmt`'s stem.
    #[getter]
    fn name(&self) -> String {
        self.capture.name()
    }

    #[getter]
    fn sources(&self) -> Vec<String> {
        self.capture
            .sources
            .iter()
            .map(|p| p.display().to_string())
            .collect()
    }

    #[getter]
    fn remapped<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Option<(String, u32)>> = self.capture.remapped.clone();
        PyList::new(py, items)
    }
}

/// Reads a dump (a 3DMigoto vb/ib txt with its .buf partners, an importer .fmt with its
/// .vb/.ib, a RenderDoc CSV) or several files of one draw.
#[pyfunction]
pub fn load_dump(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<NativeDump> {
    // A file named that is not there (or cannot be opened) is an OSError of Python's own
    // kind (FileNotFoundError, PermissionError) with its errno and file name, as `open`
    // raises it; what is wrong inside a file is a DumpError.
    for p in &paths {
        if let Err(e) = std::fs::metadata(p) {
            let errno = e.raw_os_error().unwrap_or(0);
            let text = e.to_string();
            let text = text.split(" (os error").next().unwrap_or(&text).to_string();
            let args = (errno, text, p.display().to_string());
            return Err(match e.kind() {
                std::io::ErrorKind::NotFound => {
                    pyo3::exceptions::PyFileNotFoundError::new_err(args)
                }
                std::io::ErrorKind::PermissionDenied => {
                    pyo3::exceptions::PyPermissionError::new_err(args)
                }
                _ => pyo3::exceptions::PyOSError::new_err(args),
            });
        }
    }
    let capture = py
        .detach(|| capture::load_dumps(&paths))
        .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
    native_dump(py, capture)
}

/// A [`NativeDump`] of a capture already read (`load_dump`, a frame's draw, a mod's part
/// (`crate::modfile`)).
pub(crate) fn native_dump(py: Python<'_>, capture: Capture) -> PyResult<NativeDump> {
    let made = capture
        .slot_bytes()
        .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
    let warnings = made.warnings.iter().map(|w| w.to_string()).collect();
    let buffers = made
        .slots
        .iter()
        .map(|s| (s.slot, PyBytes::new(py, &s.bytes).unbind()))
        .collect();
    drop(made);
    let index = capture
        .index
        .as_ref()
        .map(|i| PyBytes::new(py, &i.data).unbind());
    Ok(NativeDump {
        capture,
        buffers,
        index,
        warnings,
    })
}

/// Builds the dump's mesh and writes it as `.glb`, `.gltf` (+ `.bin`), `.obj` or `.ply`.
/// Under D3D12, `pipeline` is the pipeline state's dict as for `decode`
/// ([`crate::create::mesh_pipeline_of`]: `inlay export --api d3d12 --strip-cut …`).
#[pyfunction]
#[pyo3(signature = (dump, path, instances="first", patch_triangles=false, api="d3d11", feature_level=None, pipeline=None))]
#[allow(clippy::too_many_arguments)]
pub fn export(
    py: Python<'_>,
    dump: &Bound<'_, NativeDump>,
    path: PathBuf,
    instances: &str,
    patch_triangles: bool,
    api: &str,
    feature_level: Option<&str>,
    pipeline: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let instances: Instances = instances
        .parse()
        .map_err(|e: String| layout_error(format!("instances: {e}")))?;
    let target = target_of(api, feature_level)?;
    let options = MeshOptions {
        instances,
        target,
        patch_triangles,
        pipeline: crate::create::mesh_pipeline_of(pipeline, &target)?,
        ..MeshOptions::default()
    };
    let capture = &dump.get().capture;
    let mesh: Mesh = py
        .detach(|| Mesh::from_capture(capture, &options))
        .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
    let written = py.detach(|| mesh::export(&mesh, &path)).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot write {}: {e}", path.display()))
    })?;
    Ok(mesh.warnings.iter().cloned().chain(written).collect())
}

/// The text of an importer's `.fmt` file for a layout (`inlay::capture::fmt::FmtFile::to_text`).
#[pyfunction]
#[pyo3(signature = (layout, strides, topology="triangle_list", index_format=None))]
pub fn fmt_text(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    strides: std::collections::BTreeMap<u32, u32>,
    topology: &str,
    index_format: Option<&str>,
) -> PyResult<String> {
    use inlay::capture::fmt::FmtFile;
    let elements = crate::layout::elements_of(py, layout)?;
    let topology = capture::parse_topology(topology)
        .ok_or_else(|| layout_error(format!("topology: unknown topology `{topology}`")))?;
    let index_format = index_format
        .map(|s| {
            capture::parse_index_format(s).ok_or_else(|| {
                layout_error(format!("index_format: `{s}` is not R16_UINT or R32_UINT"))
            })
        })
        .transpose()?;
    // One slot 0: `stride:` (the importers' `NAME.vb`); otherwise `vbN stride:` per slot.
    let strides = if strides.len() == 1 && strides.contains_key(&0) {
        vec![(None, strides[&0])]
    } else {
        strides.into_iter().map(|(s, n)| (Some(s), n)).collect()
    };
    let remapped = vec![None; elements.len()];
    Ok(FmtFile {
        strides,
        topology: Some(topology),
        index_format,
        elements,
        remapped,
        warnings: Vec::new(),
    }
    .to_text())
}
