//! `inlay.Layout`: an element array read from any layout source the library reads.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use inlay::element::{
    APPEND_ALIGNED_ELEMENT, INPUT_PER_INSTANCE_DATA, INPUT_PER_VERTEX_DATA, InputElementDesc,
};
use inlay::format::{Format, Kind};
use inlay::text::{self, Syntax};

use crate::errors;

/// An input element array (`D3D11_INPUT_ELEMENT_DESC[]`), as read from a layout source.
#[pyclass(module = "inlay._inlay", frozen)]
#[derive(Clone, Debug)]
pub struct Layout {
    pub elements: Vec<InputElementDesc>,
    /// The C array's name, when the source was C/C++.
    pub name: Option<String>,
    /// The syntax the source was read as (`"C"`, `"JSON"`, `"TOML"`, or `"elements"` for a
    /// list of dictionaries).
    pub syntax: String,
}

impl Layout {
    fn parse(
        py: Python<'_>,
        text_src: &str,
        source_name: &str,
        array: Option<&str>,
    ) -> PyResult<Layout> {
        let syntax = Syntax::detect(source_name, text_src);
        let parsed = text::parse_layout(text_src, syntax, array)
            .map_err(|e| errors::parse_error(py, source_name, &e))?;
        Ok(Layout {
            elements: parsed.elements,
            name: parsed.name,
            syntax: syntax.as_str().to_string(),
        })
    }

    /// A layout from a list of ELEMENT dictionaries: each one is written as one line of a
    /// JSON array and read by the library's JSON reader, so the keys, defaults and messages
    /// are exactly those of a JSON layout file.
    pub fn from_dicts(py: Python<'_>, items: &Bound<'_, PyAny>) -> PyResult<Layout> {
        let json = py.import("json")?;
        let mut lines = Vec::new();
        for item in items.try_iter()? {
            let item = item?;
            if !item.is_instance_of::<PyDict>() {
                return Err(PyTypeError::new_err(format!(
                    "element {}: expected a dict with the ELEMENT keys (semantic, index, format, \
                     slot, offset, class, step_rate), got {}",
                    lines.len(),
                    item.get_type().name()?
                )));
            }
            let s: String = json.call_method1("dumps", (item,))?.extract()?;
            lines.push(s);
        }
        let src = format!("[\n{}\n]", lines.join(",\n"));
        match text::json::parse_layout(&src) {
            Ok(parsed) => Ok(Layout {
                elements: parsed.elements,
                name: None,
                syntax: "elements".into(),
            }),
            Err(e) => {
                let msg = match e.line.checked_sub(2).filter(|&i| i < lines.len()) {
                    Some(i) => format!("element {i}: {}", e.message),
                    None => e.message.clone(),
                };
                Err(errors::layout_error(msg))
            }
        }
    }
}

/// The schema's spelling of a format: its name, or the number for an undefined value.
fn format_value(py: Python<'_>, f: Format) -> PyResult<Py<PyAny>> {
    Ok(match f.name() {
        Some(n) => PyString::new(py, n).into_any().unbind(),
        None => f.0.into_pyobject(py)?.into_any().unbind(),
    })
}

/// One element as a dict with the conformance schema's ELEMENT keys.
pub fn element_dict<'py>(py: Python<'py>, e: &InputElementDesc) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("semantic", e.name())?;
    d.set_item("index", e.semantic_index)?;
    d.set_item("format", format_value(py, e.format)?)?;
    d.set_item("slot", e.input_slot)?;
    if e.aligned_byte_offset == APPEND_ALIGNED_ELEMENT {
        d.set_item("offset", "append")?;
    } else {
        d.set_item("offset", e.aligned_byte_offset)?;
    }
    match e.input_slot_class {
        INPUT_PER_VERTEX_DATA => d.set_item("class", "vertex")?,
        INPUT_PER_INSTANCE_DATA => d.set_item("class", "instance")?,
        c => d.set_item("class", c)?,
    }
    d.set_item("step_rate", e.instance_data_step_rate)?;
    Ok(d)
}

#[pymethods]
impl Layout {
    /// Reads a layout from source text (C/C++ `D3D1x_INPUT_ELEMENT_DESC` arrays, JSON or
    /// TOML ELEMENT lists, C# SharpDX/Vortice, Rust `windows` crate, and every other form the
    /// library's layout reader knows).
    #[staticmethod]
    #[pyo3(signature = (text, array=None))]
    fn from_source(py: Python<'_>, text: &str, array: Option<&str>) -> PyResult<Layout> {
        Layout::parse(py, text, "<source>", array)
    }

    /// Reads a layout file; the syntax follows the extension, else the text.
    #[staticmethod]
    #[pyo3(signature = (path, array=None))]
    fn from_file(
        py: Python<'_>,
        path: std::path::PathBuf,
        array: Option<&str>,
    ) -> PyResult<Layout> {
        let name = path.display().to_string();
        // The library's one checked reader, with the command line's text limit: devices,
        // pipes and directories refused, 64 MiB at most.
        let bytes = inlay::input::read_file(&path, inlay::input::DEFAULT_TEXT_LIMIT).map_err(
            |e| match e {
                inlay::input::ReadError::Io { source, .. } => {
                    pyo3::exceptions::PyOSError::new_err(format!("cannot read {name}: {source}"))
                }
                e => errors::layout_error(e.to_string()),
            },
        )?;
        // UTF-8, or UTF-16 with a byte-order mark (Visual Studio's), as the CLI reads them.
        let text = text::decode_source(&bytes);
        Layout::parse(py, &text, &name, array)
    }

    /// A layout from a list of dicts with the ELEMENT keys.
    #[staticmethod]
    fn from_elements(py: Python<'_>, elements: &Bound<'_, PyAny>) -> PyResult<Layout> {
        Layout::from_dicts(py, elements)
    }

    /// The elements, in array order, as dicts with the ELEMENT keys.
    #[getter]
    fn elements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self
            .elements
            .iter()
            .map(|e| element_dict(py, e))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The C array's name, or None.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The syntax the source was read as.
    #[getter]
    fn syntax(&self) -> &str {
        &self.syntax
    }

    fn __len__(&self) -> usize {
        self.elements.len()
    }

    fn __repr__(&self) -> String {
        let names: Vec<String> = self.elements.iter().map(|e| e.to_string()).collect();
        format!("Layout([{}])", names.join(", "))
    }
}

/// The element array of `Layout` or of a list of ELEMENT dicts.
pub fn elements_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<InputElementDesc>> {
    if let Ok(l) = obj.cast::<Layout>() {
        return Ok(l.get().elements.clone());
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return Ok(Layout::from_dicts(py, obj)?.elements);
    }
    Err(PyTypeError::new_err(format!(
        "expected an inlay.Layout or a list of ELEMENT dicts, got {}",
        obj.get_type().name()?
    )))
}

/// Facts of the format table about one format: `(name, byte size, components, kind)` with
/// kind one of `"float"`, `"unorm"`, `"snorm"`, `"uint"`, `"sint"` (None for formats the
/// input assembler cannot read). Used by the tests and the benchmark's numpy decoder.
#[pyfunction]
pub fn format_info(format: &str) -> PyResult<(String, u32, usize, Option<&'static str>)> {
    let f: Format = format
        .parse()
        .map_err(|e: inlay::format::ParseFormatError| errors::layout_error(e.to_string()))?;
    let info = f
        .info()
        .ok_or_else(|| errors::layout_error(format!("{f} is not a DXGI format")))?;
    let kind = info
        .is_vertex_format()
        .then(|| info.first_kind())
        .flatten()
        .map(Kind::name);
    Ok((
        info.name.to_string(),
        info.byte_size(),
        info.component_count(),
        kind,
    ))
}
