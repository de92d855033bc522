//! The bridge between a case and inlay's library calls (validation, DXBC writer, input
//! assembler). A case is written in the library's own grammar, so nothing is translated here:
//! the records are the library's, and only the expected and produced results are compared.

use inlay::assembler::vertex::MAX_REGISTERS;
use inlay::text::records::{SignatureRecord, signature_of};
use inlay::{
    CreateInputLayout, IndexBufferBinding, InputAssembler, InputElementDesc, InputLayout, Severity,
    Target, VertexBufferBinding,
};

use crate::compare::{CreationResult, DrawResult, ProducedPrimitive, ProducedVertex};
use crate::schema::{Case, Draw};

/// A creation's comparable result and the layout it produced.
pub(crate) struct Created {
    pub result: CreationResult,
    pub layout: Option<InputLayout>,
}

/// The bytes an inline `signature` shader hands to `CreateInputLayout`: a signature-only DXBC
/// container (one `ISGN` chunk, valid checksum) written by [`inlay::dxbc::signature_blob`] from
/// the records' signature ([`signature_of`]: stream 0, default precision).
pub(crate) fn signature_container(entries: &[SignatureRecord]) -> Vec<u8> {
    inlay::dxbc::signature_blob(&signature_of(entries))
}

/// Runs the case's `CreateInputLayout` call on `bytecode`.
pub(crate) fn create(case: &Case, bytecode: &[u8]) -> Created {
    let target = Target::new(case.api(), case.feature_level());
    let elements: Option<Vec<InputElementDesc>> = case
        .elements
        .as_ref()
        .map(|els| els.iter().map(|e| e.to_desc()).collect());
    let creation = CreateInputLayout::raw(&target, elements.as_deref())
        .pipeline(case.pipeline_desc())
        .num_elements(case.num_elements())
        .validate_only(case.validate_only)
        .bytecode(bytecode);
    let by = |sev: Severity| -> Vec<u32> {
        creation
            .diagnostics
            .iter()
            .filter(|d| d.severity == sev)
            .map(|d| d.id.0)
            .collect()
    };
    Created {
        result: CreationResult {
            hresult: Some(creation.hresult),
            errors: by(Severity::Error),
            warnings: by(Severity::Warning),
            others: by(Severity::Info),
            offsets: creation
                .layout
                .as_ref()
                .map(|l| l.elements().iter().map(|e| e.offset).collect()),
        },
        layout: creation.layout,
    }
}

/// Runs a case's draw through [`InputAssembler`] and collects at most
/// `max_vertices` vertices and `max_primitives` primitives (one more than the case expects is
/// enough to see that the counts differ; a case file cannot make the runner build a stream of
/// billions of vertices).
pub(crate) fn draw(
    target: &Target,
    layout: &InputLayout,
    draw: &Draw,
    max_vertices: usize,
    max_primitives: usize,
) -> Result<DrawResult, String> {
    let mut ia = InputAssembler::new(layout, *target);
    for vb in &draw.vertex_buffers {
        ia.set_vertex_buffer(
            vb.slot,
            Some(VertexBufferBinding {
                data: &vb.data,
                stride: vb.stride,
                offset: vb.offset,
            }),
        )
        .map_err(|e| e.to_string())?;
    }
    if let Some(ib) = &draw.index_buffer {
        ia.set_index_buffer(Some(IndexBufferBinding {
            data: &ib.data,
            format: ib.format,
            offset: ib.offset,
        }))
        .map_err(|e| e.to_string())?;
    }
    ia.set_topology(draw.topology).map_err(|e| e.to_string())?;
    let call = draw.call.call();
    let prepared = ia.draw(&call).map_err(|e| e.to_string())?;
    let mut out = DrawResult::default();
    for v in prepared.vertices().take(max_vertices.saturating_add(1)) {
        if out.vertices.len() == max_vertices {
            out.more_vertices = true;
            break;
        }
        let registers = (0..MAX_REGISTERS as u32)
            .filter_map(|r| v.register(r).map(|lanes| (r, lanes)))
            .collect();
        out.vertices.push(ProducedVertex {
            vertex_id: v.vertex_id,
            instance_id: v.instance_id,
            registers,
        });
    }
    for p in prepared.primitives().take(max_primitives.saturating_add(1)) {
        if out.primitives.len() == max_primitives {
            out.more_primitives = true;
            break;
        }
        out.primitives.push(ProducedPrimitive {
            id: p.id,
            vertices: p
                .vertices()
                .iter()
                .map(|&x| usize::try_from(x).unwrap_or(usize::MAX))
                .collect(),
        });
    }
    Ok(out)
}

/// The lanes of register `reg` that a FLOAT, UNORM or SNORM component of the element feeding
/// it fills (bit 0 = x): the lanes `tolerance_ulp` may apply to.
pub(crate) fn float_lanes(layout: &InputLayout, reg: u32) -> u8 {
    let Some(info) = layout
        .elements()
        .iter()
        .rev()
        .find(|e| e.register == Some(reg))
        .and_then(|e| e.format.info())
    else {
        return 0;
    };
    info.present()
        .filter(|c| c.kind.is_float_like())
        .filter_map(|c| c.channel.lane())
        .fold(0, |m, l| m | (1 << l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use inlay::dxbc::signature::{ComponentType, SystemValue};

    #[test]
    fn inline_signature_round_trips_through_a_real_container() {
        let entries: Vec<SignatureRecord> = serde_json::from_str(
            r#"[{"semantic": "POSITION", "index": 0, "register": 0, "mask": "xyzw",
                 "used": "xyz", "type": "float", "sv": "NONE"},
                {"semantic": "SV_VertexID", "index": 0, "register": 1, "mask": "x",
                 "used": "", "type": "uint", "sv": "VERTEX_ID"}]"#,
        )
        .unwrap();
        let blob = signature_container(&entries);
        let container = inlay::Container::parse(&blob).unwrap();
        assert!(container.checksum_matches());
        let sig = container.input_signature().unwrap().unwrap();
        assert_eq!(sig.elements.len(), 2);
        let (a, b) = (&sig.elements[0], &sig.elements[1]);
        assert_eq!(
            (
                a.semantic_name.as_str(),
                a.register,
                a.mask,
                a.read_write_mask
            ),
            ("POSITION", 0, 0b1111, 0b0111)
        );
        assert_eq!(
            (a.component_type, a.system_value, a.stream),
            (ComponentType::FLOAT32, SystemValue::UNDEFINED, 0)
        );
        assert_eq!(
            (
                b.semantic_name.as_str(),
                b.register,
                b.mask,
                b.read_write_mask
            ),
            ("SV_VertexID", 1, 0b0001, 0)
        );
        assert_eq!(
            (b.component_type, b.system_value),
            (ComponentType::UINT32, SystemValue::VERTEX_ID)
        );
    }
}
