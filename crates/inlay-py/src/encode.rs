//! `inlay.encode`: numpy arrays written back into vertex buffers through a layout, with the
//! library's encoder (`inlay::encode::VertexWriter`, both roundings of SCHEMA.md).

use numpy::{PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use inlay::encode::{Rounding, VertexWriter, WriterOptions};
use inlay::format::Kind;
use inlay::layout::InputClass;

use crate::decode::{SlotNumbers, resolve_layout, slot_numbers};
use crate::errors::layout_error;

/// Keys `inlay.decode` adds beside the elements; `encode` ignores them, so a decoded dict can
/// be written back as it is.
const SYSTEM_KEYS: [&str; 4] = [
    "SV_VertexID",
    "SV_InstanceID",
    "SV_PrimitiveID",
    "primitives",
];

/// Encodes element arrays into one buffer per used slot; see `inlay.encode`.
#[pyfunction]
#[pyo3(signature = (layout, arrays, vertex_count=None, rounding="nearest", strides=None,
    instance_count=None, padding=0, api="d3d11", feature_level=None, clamp=false))]
#[allow(clippy::too_many_arguments)]
pub fn encode<'py>(
    py: Python<'py>,
    layout: &Bound<'py, PyAny>,
    arrays: &Bound<'py, PyDict>,
    vertex_count: Option<u32>,
    rounding: &str,
    strides: Option<&Bound<'py, PyAny>>,
    instance_count: Option<u32>,
    padding: u8,
    api: &str,
    feature_level: Option<&str>,
    clamp: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let np = py.import("numpy")?;
    let (layout, _) = resolve_layout(py, layout, api, feature_level)?;
    let rounding: Rounding = rounding
        .parse()
        .map_err(|e: String| layout_error(format!("rounding: {e}")))?;
    let strides = match slot_numbers(strides, "strides")? {
        SlotNumbers::None => Vec::new(),
        SlotNumbers::All(v) => layout.slots().iter().map(|s| (s.slot, v)).collect(),
        SlotNumbers::Some(m) => m,
    };

    let names: Vec<String> = layout
        .elements()
        .iter()
        .map(|e| crate::decode::element_name(&e.semantic_name, e.semantic_index))
        .collect();
    for (k, _) in arrays.iter() {
        let k: String = k
            .extract()
            .map_err(|_| layout_error("arrays: keys must be element names (strings)"))?;
        if !names.contains(&k) && !SYSTEM_KEYS.contains(&k.as_str()) {
            return Err(layout_error(format!(
                "arrays: `{k}` is not an element of the layout (its elements: {})",
                names.join(", ")
            )));
        }
    }

    // Each element's values as a C-contiguous (records, lanes) array of 32-bit lanes: float32
    // for FLOAT/UNORM/SNORM formats, uint32 / int32 for UINT / SINT (integers clipped to the
    // 32-bit range first, so -1 stays below 0 and the encoder saturates it).
    let mut values = Vec::with_capacity(names.len());
    for (e, name) in layout.elements().iter().zip(&names) {
        let a = arrays.get_item(name)?.ok_or_else(|| {
            layout_error(format!(
                "arrays: no array for element {name} ({}); every element needs one",
                e.format
            ))
        })?;
        let kind = e.format.info().and_then(|i| i.first_kind());
        let a = np.call_method1("asarray", (a,))?;
        let a = match kind {
            Some(Kind::Uint) => np
                .call_method1("clip", (a, 0, u32::MAX as u64))?
                .call_method1("astype", ("uint32",))?,
            Some(Kind::Sint) => np
                .call_method1("clip", (a, i32::MIN, i32::MAX))?
                .call_method1("astype", ("int32",))?,
            _ => a.call_method1("astype", ("float32",))?,
        };
        let a = np.call_method1("ascontiguousarray", (a,))?;
        let ndim: usize = a.getattr("ndim")?.extract()?;
        let a = match ndim {
            1 => a.call_method1("reshape", ((-1i64, 1i64),))?,
            2 => a,
            _ => {
                return Err(layout_error(format!(
                    "arrays[{name}]: expected shape (rows, components), got {ndim} dimensions"
                )));
            }
        };
        let a = a
            .call_method1("view", ("uint32",))?
            .cast_into::<PyArray2<u32>>()?;
        let cols = a.shape()[1];
        if !(1..=4).contains(&cols) {
            return Err(layout_error(format!(
                "arrays[{name}]: {cols} components per row; an element has 1 to 4"
            )));
        }
        values.push(a);
    }

    // Counts: vertices from the per-vertex arrays, instances from the per-instance ones.
    let rows = |i: usize| values[i].shape()[0];
    let mut vertices: Option<u32> = vertex_count;
    for (i, e) in layout.elements().iter().enumerate() {
        if e.class == InputClass::PerVertex {
            let r = u32::try_from(rows(i)).map_err(|_| layout_error("too many rows"))?;
            match vertices {
                None => vertices = Some(r),
                Some(v) if v != r => {
                    return Err(layout_error(format!(
                        "arrays[{}]: {r} rows, but {} per-vertex rows are expected{}",
                        names[i],
                        v,
                        if vertex_count.is_some() {
                            " (vertex_count)"
                        } else {
                            " (the first per-vertex array's)"
                        }
                    )));
                }
                _ => {}
            }
        }
    }
    let mut instances = instance_count;
    for (i, e) in layout.elements().iter().enumerate() {
        if e.class == InputClass::PerInstance {
            let r = rows(i) as u64;
            let want = |n: u32| match e.step_rate {
                0 => u64::from(n > 0),
                s => (n as u64).div_ceil(s as u64),
            };
            let n = match instances {
                Some(n) => n,
                None => {
                    let n = r.saturating_mul(e.step_rate.max(1) as u64);
                    let n = u32::try_from(n).map_err(|_| layout_error("too many instances"))?;
                    instances = Some(n);
                    n
                }
            };
            if want(n) != r {
                return Err(layout_error(format!(
                    "arrays[{}]: {r} rows, but {n} instances at step rate {} read {} records",
                    names[i],
                    e.step_rate,
                    want(n)
                )));
            }
        }
    }
    let vertices = vertices.unwrap_or(0);
    let instances = instances.unwrap_or(0);
    let options = WriterOptions {
        rounding,
        padding,
        strides,
        max_bytes: None,
    };
    let mut writer = VertexWriter::with_options(&layout, vertices, instances, &options)
        .map_err(|e| layout_error(e.to_string()))?;
    // A value the format cannot hold is refused (as the CLI refuses it) unless clamp=True.
    writer.set_clamp(clamp);

    {
        let borrows: Vec<_> = values.iter().map(|a| a.readonly()).collect();
        let mut slices = Vec::with_capacity(borrows.len());
        for (b, a) in borrows.iter().zip(&values) {
            slices.push((b.as_slice()?, a.shape()[1]));
        }
        let result = py.detach(|| -> Result<(), inlay::encode::EncodeError> {
            for (i, (data, cols)) in slices.iter().enumerate() {
                for (record, row) in data.chunks_exact(*cols).enumerate() {
                    let mut lanes = [0u32; 4];
                    lanes[..*cols].copy_from_slice(row);
                    writer
                        .write_element(i, record as u32, &lanes)
                        .map_err(|e| match e {
                            inlay::encode::EncodeError::ValueOutOfRange { .. } => {
                                inlay::encode::EncodeError::Shape(format!(
                                    "row {record}: {e}; clamp=True saturates it"
                                ))
                            }
                            e => e,
                        })?;
                }
            }
            Ok(())
        });
        result.map_err(|e| layout_error(e.to_string()))?;
    }
    let out = PyDict::new(py);
    for b in writer.into_buffers() {
        out.set_item(b.slot, PyBytes::new(py, &b.data))?;
    }
    Ok(out)
}
