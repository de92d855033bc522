//! `inlay.load_dump` and `inlay.export`: the library's dump readers (`inlay::capture`) and
//! mesh exporters (`inlay::mesh`).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use inlay::capture::{self, Capture, SlotData};
use inlay::encode::{VertexWriter, WriterOptions};
use inlay::mesh::{self, Instances, Mesh, MeshOptions};

use crate::create::target_of;
use crate::errors::{self, layout_error};
use crate::layout::Layout;

/// The most bytes a text dump's slot is encoded into (the CLI's limit on a binary input).
const MAX_TEXT_BUFFER: u64 = 1 << 30;

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

/// The bytes of each slot: binary data as it is; a text dump's values encoded through the
/// layout by the library's encoder (values a text line lacks stay zero, with a warning).
fn slot_bytes(c: &Capture, warnings: &mut Vec<String>) -> Result<Vec<(u32, Vec<u8>)>, String> {
    let mut out = Vec::new();
    let mut layout = None;
    for s in &c.slots {
        match &s.data {
            SlotData::Binary(b) => out.push((s.slot, b.clone())),
            SlotData::Text(t) => {
                if layout.is_none() {
                    let created = inlay::validation::layout_without_shader(
                        &inlay::target::Target::default(),
                        &c.elements,
                    );
                    let msgs: Vec<String> = created.errors().map(|d| d.to_string()).collect();
                    layout = Some(created.layout.ok_or_else(|| {
                        format!(
                            "the dump's layout is refused by CreateInputLayout: {}",
                            msgs.join("; ")
                        )
                    })?);
                }
                let Some(layout) = layout.as_ref() else {
                    continue;
                };
                let records = t.first.saturating_add(t.rows() as u32);
                // A header's byte offset or first vertex can name gigabytes: the bytes made
                // here are bounded like the CLI's binary inputs (1 GiB), never allocated blindly.
                let size = u64::from(s.offset) + u64::from(records) * u64::from(s.stride);
                if size > MAX_TEXT_BUFFER {
                    return Err(format!(
                        "{}: byte offset {} + {records} vertices x stride {} = {size} bytes \
                         is more than the {MAX_TEXT_BUFFER}-byte limit of a text dump's buffer",
                        s.source.display(),
                        s.offset,
                        s.stride
                    ));
                }
                let options = WriterOptions {
                    strides: vec![(s.slot, s.stride)],
                    ..Default::default()
                };
                // Only this slot's elements are written: a layout of them alone.
                // (created like any layout: its elements keep their resolved offsets).
                let globals: Vec<usize> = (0..layout.elements().len())
                    .filter(|&g| layout.elements()[g].slot == s.slot)
                    .collect();
                let descs: Vec<inlay::element::InputElementDesc> = globals
                    .iter()
                    .map(|&g| {
                        let e = &layout.elements()[g];
                        inlay::element::InputElementDesc {
                            semantic_name: Some(e.semantic_name.clone()),
                            semantic_index: e.semantic_index,
                            format: e.format,
                            input_slot: e.slot,
                            aligned_byte_offset: e.offset,
                            input_slot_class: match e.class {
                                inlay::layout::InputClass::PerVertex => 0,
                                inlay::layout::InputClass::PerInstance => 1,
                            },
                            instance_data_step_rate: e.step_rate,
                        }
                    })
                    .collect();
                let own = inlay::validation::layout_without_shader(
                    &inlay::target::Target::default(),
                    &descs,
                )
                .into_result()
                .map_err(|e| format!("{}: {e}", s.source.display()))?;
                let mut writer = VertexWriter::with_options(&own, records, records, &options)
                    .map_err(|e| format!("{}: {e}", s.source.display()))?;
                let mut missing = 0usize;
                for (k, &global) in globals.iter().enumerate() {
                    for r in t.first..records {
                        match t.get(global, r) {
                            Some(lanes) => writer
                                .write_element(k, r, &lanes)
                                .map_err(|e| format!("{}: {e}", s.source.display()))?,
                            None => missing += 1,
                        }
                    }
                }
                if missing > 0 {
                    warnings.push(format!(
                        "{}: {missing} element values are not in the text dump; they are read as 0",
                        s.source.display()
                    ));
                }
                let data = writer
                    .into_buffers()
                    .into_iter()
                    .next()
                    .map(|b| b.data)
                    .unwrap_or_default();
                // The bind offset counts from the buffer's start: keep the offset bytes.
                let mut bytes = vec![0u8; s.offset as usize];
                bytes.extend_from_slice(&data);
                out.push((s.slot, bytes));
            }
        }
    }
    Ok(out)
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
    let capture = py
        .detach(|| capture::load_dumps(&paths))
        .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
    native_dump(py, capture)
}

/// A capture as the Python-facing dump (its buffers made into `bytes` once); also the form of
/// a mod's parts (`crate::modfile`).
pub(crate) fn native_dump(py: Python<'_>, capture: Capture) -> PyResult<NativeDump> {
    let mut warnings = Vec::new();
    let buffers = slot_bytes(&capture, &mut warnings).map_err(errors::DumpError::new_err)?;
    let buffers = buffers
        .into_iter()
        .map(|(slot, b)| (slot, PyBytes::new(py, &b).unbind()))
        .collect();
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
#[pyfunction]
#[pyo3(signature = (dump, path, instances="first", patch_triangles=false, api="d3d11", feature_level=None))]
pub fn export(
    py: Python<'_>,
    dump: &Bound<'_, NativeDump>,
    path: PathBuf,
    instances: &str,
    patch_triangles: bool,
    api: &str,
    feature_level: Option<&str>,
) -> PyResult<Vec<String>> {
    let instances: Instances = instances
        .parse()
        .map_err(|e: String| layout_error(format!("instances: {e}")))?;
    let options = MeshOptions {
        instances,
        target: target_of(api, feature_level)?,
        patch_triangles,
    };
    let capture = &dump.get().capture;
    let mesh: Mesh = py
        .detach(|| Mesh::from_capture(capture, &options))
        .map_err(|e| errors::DumpError::new_err(e.to_string()))?;
    py.detach(|| mesh::export(&mesh, &path)).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot write {}: {e}", path.display()))
    })?;
    Ok(mesh.warnings.clone())
}
