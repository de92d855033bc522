//! `inlay.create_input_layout` and its result object.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use inlay::diag;
use inlay::layout::InputLayout as ResolvedLayout;
use inlay::target::{Api, FeatureLevel, Target};
use inlay::validation::Creation;

use crate::errors;
use crate::layout::elements_of;

/// One debug-layer message.
#[pyclass(module = "inlay._inlay", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The `D3D11_MESSAGE_ID` value (e.g. 163).
    pub id: u32,
    /// The id's name without `D3D11_MESSAGE_ID_` (e.g. `"CREATEINPUTLAYOUT_MISSINGELEMENT"`),
    /// or None for an id inlay has no name for.
    pub name: Option<&'static str>,
    /// `"error"`, `"warning"` or `"info"`.
    pub severity: &'static str,
    /// Index of the element the message is about, or None.
    pub element: Option<usize>,
    /// The sentence: semantic, value and rule.
    pub message: String,
}

impl From<&diag::Diagnostic> for Diagnostic {
    fn from(d: &diag::Diagnostic) -> Self {
        Diagnostic {
            id: d.id.0,
            name: d.id.name(),
            severity: d.severity.as_str(),
            element: d.element,
            message: d.message.clone(),
        }
    }
}

#[pymethods]
impl Diagnostic {
    fn __str__(&self) -> String {
        let id = match self.name {
            Some(n) => format!("#{} {n}", self.id),
            None => format!("#{}", self.id),
        };
        format!("{} {id}: {}", self.severity, self.message)
    }

    fn __repr__(&self) -> String {
        let element = self.element.map_or("None".to_string(), |e| e.to_string());
        format!(
            "Diagnostic(id={}, severity={:?}, element={element}, message={:?})",
            self.id, self.severity, self.message
        )
    }
}

/// What `CreateInputLayout` returned: HRESULT, diagnostics and, on success, the resolved
/// layout (offsets, registers, per-slot strides). Pass it to `inlay.decode` to decode
/// through exactly this layout.
#[pyclass(module = "inlay._inlay", frozen)]
#[derive(Clone, Debug)]
pub struct InputLayout {
    pub creation: Creation,
    pub target: Target,
}

impl InputLayout {
    /// The resolved layout, or the creation's error.
    pub fn resolved(&self, py: Python<'_>) -> PyResult<&ResolvedLayout> {
        self.creation
            .layout
            .as_ref()
            .ok_or_else(|| errors::create_error(py, &self.creation))
    }
}

#[pymethods]
impl InputLayout {
    /// `"S_OK"`, `"S_FALSE"` (validate-only success) or `"E_INVALIDARG"`.
    #[getter]
    fn hresult(&self) -> &'static str {
        self.creation.hresult.name()
    }

    /// Whether the call succeeded (S_OK or S_FALSE).
    #[getter]
    fn ok(&self) -> bool {
        self.creation.is_success()
    }

    /// Every debug-layer message, errors and warnings, in report order.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        self.creation
            .diagnostics
            .iter()
            .map(Diagnostic::from)
            .collect()
    }

    /// Resolved byte offset of each element, in array order (None when refused).
    #[getter]
    fn offsets(&self) -> Option<Vec<u32>> {
        self.creation
            .layout
            .as_ref()
            .map(|l| l.elements().iter().map(|e| e.offset).collect())
    }

    /// Input register each element feeds, in array order (None for an element the shader
    /// does not read; the whole value is None when refused).
    #[getter]
    fn registers(&self) -> Option<Vec<Option<u32>>> {
        self.creation
            .layout
            .as_ref()
            .map(|l| l.elements().iter().map(|e| e.register).collect())
    }

    /// Smallest stride of each used slot, `{slot: bytes}` (None when refused).
    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(l) = &self.creation.layout else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        for s in l.slots() {
            d.set_item(s.slot, s.min_stride)?;
        }
        Ok(Some(d))
    }

    /// The resolved elements as ELEMENT dicts (offsets resolved, plus `register`), or None.
    #[getter]
    fn elements<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(l) = &self.creation.layout else {
            return Ok(None);
        };
        let items = l
            .elements()
            .iter()
            .map(|e| {
                let d = PyDict::new(py);
                d.set_item("semantic", &e.semantic_name)?;
                d.set_item("index", e.semantic_index)?;
                d.set_item("format", e.format.to_string())?;
                d.set_item("slot", e.slot)?;
                d.set_item("offset", e.offset)?;
                d.set_item("class", e.class.as_str())?;
                d.set_item("step_rate", e.step_rate)?;
                d.set_item("register", e.register)?;
                Ok(d)
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Some(PyList::new(py, items)?))
    }

    /// The runtime whose rules applied (`"d3d11"`, …).
    #[getter]
    fn api(&self) -> &'static str {
        self.target.api.as_str()
    }

    /// The feature level whose rules applied (`"11_0"`, …).
    #[getter]
    fn feature_level(&self) -> &'static str {
        self.target.feature_level.as_str()
    }

    /// Raises `inlay.CreateError` (with the messages) when the call failed; returns self.
    fn check<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        let py = slf.py();
        slf.get().resolved(py)?;
        Ok(slf)
    }

    fn __bool__(&self) -> bool {
        self.creation.is_success()
    }

    fn __repr__(&self) -> String {
        format!(
            "InputLayout(hresult={:?}, {} diagnostics)",
            self.creation.hresult.name(),
            self.creation.diagnostics.len()
        )
    }
}

/// The target named by `api` and `feature_level` (None: 11_0, or 10_0 for d3d10).
pub fn target_of(api: &str, feature_level: Option<&str>) -> PyResult<Target> {
    let api: Api = api
        .parse()
        .map_err(|e: inlay::target::ParseTargetError| errors::layout_error(e.to_string()))?;
    let level = match feature_level {
        Some(l) => l
            .parse::<FeatureLevel>()
            .map_err(|e| errors::layout_error(e.to_string()))?,
        None => api.default_feature_level(),
    };
    Target::checked(api, level).map_err(|e| errors::layout_error(e.to_string()))
}

/// The bytes of a bytes-like object (bytes, bytearray, memoryview, numpy array).
pub fn bytes_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    let builtins = py.import("builtins")?;
    let b = builtins.getattr("bytes")?.call1((obj,))?;
    Ok(b.cast::<PyBytes>()?.as_bytes().to_vec())
}

/// `CreateInputLayout` for an element array and optional shader bytecode.
#[pyfunction]
#[pyo3(signature = (layout_or_elements, shader=None, api="d3d11", feature_level=None, validate_only=false, pipeline=None))]
pub fn create_input_layout(
    py: Python<'_>,
    layout_or_elements: &Bound<'_, PyAny>,
    shader: Option<&Bound<'_, PyAny>>,
    api: &str,
    feature_level: Option<&str>,
    validate_only: bool,
    pipeline: Option<&Bound<'_, PyDict>>,
) -> PyResult<InputLayout> {
    let elements = elements_of(py, layout_or_elements)?;
    let target = target_of(api, feature_level)?;
    let pipeline = pipeline_of(pipeline, inlay::PipelineDesc::default())?;
    let creation = create_with(py, &target, &elements, shader, validate_only, pipeline)?;
    Ok(InputLayout { creation, target })
}

/// The keys a `pipeline` dict gave ([`pipeline_fields`]); `None` where it lacks one.
#[derive(Default)]
struct PipelineFields {
    root_signature_flags: Option<u32>,
    ib_strip_cut_value: Option<u32>,
    primitive_topology_type: Option<u32>,
}

/// The `pipeline` dict of `create_input_layout`, `decode` and `export` (d3d12-rules.md
/// P10–P13): the keys `root_signature_flags`, `ib_strip_cut_value` and
/// `primitive_topology_type`, each an integer (the D3D12 enum values), each optional. An
/// unknown key or a value that is not a 32-bit unsigned integer is a `LayoutError`.
fn pipeline_fields(pipeline: Option<&Bound<'_, PyDict>>) -> PyResult<PipelineFields> {
    let mut p = PipelineFields::default();
    let Some(d) = pipeline else {
        return Ok(p);
    };
    for (k, v) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| errors::layout_error(format!("pipeline: key {k} is not a string")))?;
        let value: u32 = v.extract().map_err(|_| {
            errors::layout_error(format!(
                "pipeline: {key} = {v} is not an integer from 0 to 4294967295"
            ))
        })?;
        let field = match key.as_str() {
            "root_signature_flags" => &mut p.root_signature_flags,
            "ib_strip_cut_value" => &mut p.ib_strip_cut_value,
            "primitive_topology_type" => &mut p.primitive_topology_type,
            other => {
                return Err(errors::layout_error(format!(
                    "pipeline: unknown key `{other}` (expected root_signature_flags, \
                     ib_strip_cut_value or primitive_topology_type)"
                )));
            }
        };
        *field = Some(value);
    }
    Ok(p)
}

/// The `pipeline` dict ([`pipeline_fields`]) as a pipeline description, `defaults` filling
/// the keys it lacks (for `create_input_layout`: the input-assembler flag, strip cut disabled,
/// triangle type; `inlay.decode` defaults the type to its draw's topology's, as
/// `inlay decode --api d3d12` does).
pub(crate) fn pipeline_of(
    pipeline: Option<&Bound<'_, PyDict>>,
    defaults: inlay::PipelineDesc,
) -> PyResult<inlay::PipelineDesc> {
    let f = pipeline_fields(pipeline)?;
    Ok(inlay::PipelineDesc {
        root_signature_flags: f
            .root_signature_flags
            .unwrap_or(defaults.root_signature_flags),
        ib_strip_cut_value: f.ib_strip_cut_value.unwrap_or(defaults.ib_strip_cut_value),
        primitive_topology_type: f
            .primitive_topology_type
            .unwrap_or(defaults.primitive_topology_type),
    })
}

/// The `pipeline` dict ([`pipeline_fields`]) as the mesh builder's pipeline state, what
/// `inlay export --api d3d12 --strip-cut … --topology-type … --root-signature-flags …` give
/// it: strip cut disabled, the draw's topology type and the input-assembler flag where a key
/// is absent. A pipeline under D3D10/D3D11 is a `LayoutError`, as the CLI's usage error.
pub(crate) fn mesh_pipeline_of(
    pipeline: Option<&Bound<'_, PyDict>>,
    target: &Target,
) -> PyResult<inlay::mesh::MeshPipeline> {
    if pipeline.is_some() && !target.api.is_d3d12() {
        return Err(non_d3d12_pipeline(target.api));
    }
    let f = pipeline_fields(pipeline)?;
    Ok(inlay::mesh::MeshPipeline {
        ib_strip_cut_value: f.ib_strip_cut_value.unwrap_or_default(),
        primitive_topology_type: f.primitive_topology_type,
        root_signature_flags: f.root_signature_flags,
    })
}

/// The refusal of a `pipeline` under D3D10/D3D11 (`decode`, `export`).
pub(crate) fn non_d3d12_pipeline(api: Api) -> PyErr {
    errors::layout_error(format!(
        "pipeline: root_signature_flags, ib_strip_cut_value and primitive_topology_type are \
         D3D12 pipeline-state fields; they need api=\"d3d12\" (got api=\"{api}\")"
    ))
}

/// The creation as `inlay check` makes it: with bytecode, or the array rules alone (element
/// *i* feeds register *i*), with a D3D12 pipeline description (ignored under D3D10/D3D11).
pub fn create_with(
    py: Python<'_>,
    target: &Target,
    elements: &[inlay::element::InputElementDesc],
    shader: Option<&Bound<'_, PyAny>>,
    validate_only: bool,
    pipeline: inlay::PipelineDesc,
) -> PyResult<Creation> {
    let n = u32::try_from(elements.len()).unwrap_or(u32::MAX);
    let call = inlay::CreateInputLayout::new(target, elements)
        .pipeline(pipeline)
        .num_elements(n)
        .validate_only(validate_only);
    Ok(match shader {
        Some(s) if !s.is_none() => call.bytecode(&bytes_of(py, s)?),
        _ => call.without_shader(),
    })
}
