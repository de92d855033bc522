//! `inlay.encode`: numpy arrays written back into vertex buffers through a layout, with the
//! library's encoder (`inlay::encode::VertexWriter`, both roundings of SCHEMA.md).

use numpy::{PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use inlay::encode::values::{ElementValues, ValueError};
use inlay::encode::{Rounding, VertexWriter, WriterOptions};
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
    instance_count=None, padding=0, api="d3d11", feature_level=None, original=None,
    warnings=None))]
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
    original: Option<&Bound<'py, PyDict>>,
    warnings: Option<&Bound<'py, pyo3::types::PyList>>,
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

    // Each element's values through the library's checks (`inlay::encode::values`, the ones
    // `inlay encode` applies to text): the kind of number, the lanes per row, the rows, and
    // every value's range. Floats are read as float64, integers as int64 / uint64, so no
    // value is changed by a numpy cast before the library sees it.
    let columns = ElementValues::of_layout(&layout).map_err(|er| layout_error(er.to_string()))?;
    let mut values: Vec<Vec<u32>> = Vec::with_capacity(names.len());
    let mut widths = Vec::with_capacity(names.len());
    for ((e, name), col) in layout.elements().iter().zip(&names).zip(&columns) {
        let a = arrays.get_item(name)?.ok_or_else(|| {
            layout_error(format!(
                "arrays: no array for element {name} ({}); every element needs one",
                e.format
            ))
        })?;
        let a = np.call_method1("asarray", (a,))?;
        let dtype = a.getattr("dtype")?;
        let dkind: String = dtype.getattr("kind")?.extract()?;
        let dname: String = dtype.getattr("name")?.extract()?;
        let floats = match dkind.as_str() {
            "f" => true,
            "i" | "u" | "b" => false,
            _ => {
                return Err(layout_error(format!(
                    "arrays[{name}]: {dname} values are not numbers"
                )));
            }
        };
        let arg = |er: ValueError| layout_error(format!("arrays[{name}]: {er}"));
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
        let shape: (usize, usize) = a.getattr("shape")?.extract()?;
        col.check_lane_count(shape.1).map_err(arg)?;
        let itemsize: usize = dtype.getattr("itemsize")?.extract()?;
        let lanes = if floats && itemsize <= 4 {
            // float16/float32: as float32 (exact, NaN payloads kept).
            let a = np
                .call_method1("ascontiguousarray", (a, "float32"))?
                .cast_into::<PyArray2<f32>>()?;
            let r = a.readonly();
            let data = r.as_slice()?;
            py.detach(|| convert(col, data, shape.1, |c, l, v| c.lane_from_f32(l, v)))
        } else if floats {
            let a = np
                .call_method1("ascontiguousarray", (a, "float64"))?
                .cast_into::<PyArray2<f64>>()?;
            let r = a.readonly();
            let data = r.as_slice()?;
            py.detach(|| convert(col, data, shape.1, |c, l, v| c.lane_from_float(l, v)))
        } else if dkind == "u" {
            let a = np
                .call_method1("ascontiguousarray", (a, "uint64"))?
                .cast_into::<PyArray2<u64>>()?;
            let r = a.readonly();
            let data = r.as_slice()?;
            py.detach(|| convert(col, data, shape.1, |c, l, v| c.lane_from_int(l, v.into())))
        } else {
            let a = np
                .call_method1("ascontiguousarray", (a, "int64"))?
                .cast_into::<PyArray2<i64>>()?;
            let r = a.readonly();
            let data = r.as_slice()?;
            py.detach(|| convert(col, data, shape.1, |c, l, v| c.lane_from_int(l, v.into())))
        };
        let lanes =
            lanes.map_err(|(row, er)| layout_error(format!("arrays[{name}]: row {row}: {er}")))?;
        // Values the format must change (clamp, saturate, overflow): one warning per element,
        // with the first row and how many, when the caller asks for them.
        if let Some(w) = warnings {
            let width = shape.1.max(1);
            let mut first = None;
            let mut count = 0usize;
            for (i, &bits) in lanes.iter().enumerate() {
                if let Some(why) = col.clamped(i % width, bits) {
                    count += 1;
                    first.get_or_insert((i / width, why));
                }
            }
            if let Some((row, why)) = first {
                w.append(format!(
                    "arrays[{name}]: {count} value(s) the format cannot hold; first, row {row}: {why}"
                ))?;
            }
        }
        values.push(lanes);
        widths.push(shape.1);
    }

    // Counts: vertices from the per-vertex arrays, instances from the per-instance ones.
    let rows = |i: usize| values[i].len() / widths[i];
    let mut vertices: Option<u32> = vertex_count;
    for (i, e) in layout.elements().iter().enumerate() {
        if e.class == InputClass::PerVertex {
            let r = u32::try_from(rows(i)).map_err(|_| layout_error("too many rows"))?;
            match vertices {
                None => vertices = Some(r),
                Some(v) => columns[i]
                    .check_rows(
                        r as u64,
                        v as u64,
                        if vertex_count.is_some() {
                            "vertex_count"
                        } else {
                            "the first per-vertex array's rows"
                        },
                    )
                    .map_err(|er| layout_error(format!("arrays[{}]: {er}", names[i])))?,
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
            columns[i]
                .check_rows(
                    r,
                    want(n),
                    &format!("{n} instances at step rate {}", e.step_rate),
                )
                .map_err(|er| layout_error(format!("arrays[{}]: {er}", names[i])))?;
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

    // The records as they were (`original=`): unchanged values keep their bytes.
    if let Some(original) = original {
        for (k, v) in original.iter() {
            let slot: u32 = k
                .extract()
                .map_err(|_| layout_error("original: keys must be slot numbers"))?;
            let bytes = np.call_method1("frombuffer", (v, "uint8"))?;
            let bytes = bytes.cast_into::<numpy::PyArray1<u8>>()?;
            let r = bytes.readonly();
            writer
                .start_from(slot, r.as_slice()?)
                .map_err(|e| layout_error(format!("original[{slot}]: {e}")))?;
        }
    }
    let result = py.detach(|| -> Result<(), inlay::encode::EncodeError> {
        for (i, (data, cols)) in values.iter().zip(&widths).enumerate() {
            for (record, row) in data.chunks_exact(*cols).enumerate() {
                let mut lanes = [0u32; 4];
                lanes[..*cols].copy_from_slice(row);
                writer.write_element(i, record as u32, &lanes)?;
            }
        }
        Ok(())
    });
    result.map_err(|e| layout_error(e.to_string()))?;
    let out = PyDict::new(py);
    for b in writer.into_buffers() {
        out.set_item(b.slot, PyBytes::new(py, &b.data))?;
    }
    Ok(out)
}

/// Every value of a (rows, width) array through the library's check for one lane; the first
/// refused value's row and message.
fn convert<T: Copy>(
    col: &ElementValues,
    data: &[T],
    width: usize,
    lane: impl Fn(&ElementValues, usize, T) -> Result<u32, ValueError>,
) -> Result<Vec<u32>, (usize, ValueError)> {
    let mut out = Vec::with_capacity(data.len());
    for (row, values) in data.chunks_exact(width.max(1)).enumerate() {
        for (l, &v) in values.iter().enumerate() {
            out.push(lane(col, l, v).map_err(|e| (row, e))?);
        }
    }
    Ok(out)
}
