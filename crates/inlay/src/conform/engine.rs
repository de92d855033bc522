//! The bridge between case data and inlay's library calls (validation, DXBC writer, input
//! assembler).

use super::compare::{CreationResult, DrawResult, ProducedPrimitive, ProducedVertex};
use super::schema::ComponentKind;
use super::schema::{Call, Case, Draw, IndexFormatName, SignatureEntry};
use crate::assembler::InputAssembler;
use crate::assembler::draw::DrawCall;
use crate::assembler::vertex::MAX_REGISTERS;
use crate::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use crate::diag::Severity;
use crate::dxbc::signature::{ComponentType, MinPrecision, Signature, SignatureElement};
use crate::element::InputElementDesc;
use crate::layout::InputLayout;
use crate::target::Target;
use crate::validation::CreateInputLayout;

/// A creation's comparable result and the layout it produced.
pub(crate) struct Created {
    pub result: CreationResult,
    pub layout: Option<InputLayout>,
}

/// The signature an inline `signature` shader describes (an `ISGN` chunk: stream 0, default
/// precision).
pub(crate) fn signature(entries: &[SignatureEntry]) -> Signature {
    Signature {
        elements: entries
            .iter()
            .map(|e| SignatureElement {
                stream: 0,
                semantic_name: e.semantic.clone(),
                semantic_index: e.index,
                system_value: e.sv,
                component_type: match e.component_type {
                    ComponentKind::Float => ComponentType::FLOAT32,
                    ComponentKind::Uint => ComponentType::UINT32,
                    ComponentKind::Sint => ComponentType::SINT32,
                },
                register: e.register,
                mask: e.mask,
                read_write_mask: e.used,
                min_precision: MinPrecision::default(),
            })
            .collect(),
    }
}

/// The bytes an inline `signature` shader hands to `CreateInputLayout`: a signature-only DXBC
/// container (one `ISGN` chunk, valid checksum) written by [`crate::dxbc::signature_blob`].
pub(crate) fn signature_container(entries: &[SignatureEntry]) -> Vec<u8> {
    crate::dxbc::signature_blob(&signature(entries))
}

/// Runs the case's `CreateInputLayout` call on `bytecode`.
pub(crate) fn create(case: &Case, bytecode: &[u8]) -> Created {
    let target = Target::new(case.api(), case.feature_level());
    let elements: Option<Vec<InputElementDesc>> = case.elements.as_ref().map(|els| {
        els.iter()
            .map(|e| InputElementDesc {
                semantic_name: e.semantic.clone(),
                semantic_index: e.index,
                format: e.format,
                input_slot: e.slot,
                aligned_byte_offset: e.offset,
                input_slot_class: e.class,
                instance_data_step_rate: e.step_rate,
            })
            .collect()
    });
    let creation = CreateInputLayout::raw(&target, elements.as_deref())
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

/// Runs a case's draw through [`crate::assembler::InputAssembler`] and collects at most
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
            format: match ib.format {
                IndexFormatName::R16_UINT => IndexFormat::R16Uint,
                IndexFormatName::R32_UINT => IndexFormat::R32Uint,
            },
            offset: ib.offset,
        }))
        .map_err(|e| e.to_string())?;
    }
    ia.set_topology(draw.topology).map_err(|e| e.to_string())?;
    let call = match &draw.call {
        Call::Draw {
            vertex_count,
            start_vertex,
        } => DrawCall::Draw {
            vertex_count: *vertex_count,
            start_vertex: *start_vertex,
        },
        Call::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        } => DrawCall::DrawIndexed {
            index_count: *index_count,
            start_index: *start_index,
            base_vertex: *base_vertex,
        },
        Call::DrawInstanced {
            vertex_count_per_instance,
            instance_count,
            start_vertex,
            start_instance,
        } => DrawCall::DrawInstanced {
            vertex_count_per_instance: *vertex_count_per_instance,
            instance_count: *instance_count,
            start_vertex: *start_vertex,
            start_instance: *start_instance,
        },
        Call::DrawIndexedInstanced {
            index_count_per_instance,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        } => DrawCall::DrawIndexedInstanced {
            index_count_per_instance: *index_count_per_instance,
            instance_count: *instance_count,
            start_index: *start_index,
            base_vertex: *base_vertex,
            start_instance: *start_instance,
        },
        Call::DrawInstancedIndirect { args } => DrawCall::DrawInstancedIndirect {
            args: &args.data,
            offset: args.offset,
        },
        Call::DrawIndexedInstancedIndirect { args } => DrawCall::DrawIndexedInstancedIndirect {
            args: &args.data,
            offset: args.offset,
        },
    };
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
    use crate::dxbc::signature::SystemValue;

    #[test]
    fn inline_signature_round_trips_through_a_real_container() {
        let entries = vec![
            SignatureEntry {
                semantic: "POSITION".into(),
                index: 0,
                register: 0,
                mask: 0b1111,
                used: 0b0111,
                component_type: ComponentKind::Float,
                sv: SystemValue::UNDEFINED,
            },
            SignatureEntry {
                semantic: "SV_VertexID".into(),
                index: 0,
                register: 1,
                mask: 0b0001,
                used: 0,
                component_type: ComponentKind::Uint,
                sv: SystemValue::VERTEX_ID,
            },
        ];
        let sig = signature(&entries);
        assert_eq!(sig.elements[1].component_type, ComponentType::UINT32);
        let blob = crate::dxbc::signature_blob(&sig);
        let container = crate::dxbc::Container::parse(&blob).unwrap();
        assert!(container.checksum_matches());
        assert_eq!(container.input_signature().unwrap(), Some(sig));
    }
}
