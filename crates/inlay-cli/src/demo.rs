//! The demo (no arguments): the seed layout checked against a built-in vertex shader
//! signature, then the seed triangle fetched through the input assembler. Offline, no files.

use std::io::Write;

use inlay::assembler::{DrawCall, InputAssembler, Topology};
use inlay::buffer::VertexBufferBinding;
use inlay::dxbc::signature::{
    ComponentType, MinPrecision, Signature, SignatureElement, SystemValue, mask_letters,
};
use inlay::element::InputElementDesc;
use inlay::format::Format;
use inlay::target::Target;

use crate::style::{self, Style};
use crate::{CliError, check};

/// The seed layout, as the C source a user would write.
const SEED_SOURCE: &str = "\
const D3D11_INPUT_ELEMENT_DESC vertexDesc[] = {
    { \"POSITION\", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { \"COLOR\", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0 },
};";

/// The seed triangle (`shared/conformance/examples/seed.json`): per vertex a float3 position
/// and a float3 colour, stride 24.
const SEED_VERTICES: [[f32; 6]; 3] = [
    [0.0, 0.5, 0.5, 1.0, 0.0, 0.0],
    [0.5, -0.5, 0.5, 0.0, 1.0, 0.0],
    [-0.5, -0.5, 0.5, 0.0, 0.0, 1.0],
];

/// The built-in vertex shader's input signature: POSITION float3 in v0, COLOR float3 in v1.
pub fn seed_signature() -> Signature {
    let input = |name: &str, register| SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: 0,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::FLOAT32,
        register,
        mask: 0b0111,
        read_write_mask: 0b0111,
        min_precision: MinPrecision(0),
    };
    Signature {
        elements: vec![input("POSITION", 0), input("COLOR", 1)],
    }
}

/// The seed layout's elements.
pub fn seed_elements() -> Vec<InputElementDesc> {
    vec![
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("COLOR", 0, Format::R32G32B32_FLOAT, 0, 12),
    ]
}

fn seed_vertex_bytes() -> Vec<u8> {
    SEED_VERTICES
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect()
}

fn lanes(reg: [u32; 4]) -> String {
    let hex: Vec<String> = reg.iter().map(|b| format!("{b:08x}")).collect();
    let floats: Vec<String> = reg
        .iter()
        .map(|b| format!("{:?}", f32::from_bits(*b)))
        .collect();
    format!("{}  ({})", hex.join(" "), floats.join(", "))
}

/// Runs the demo.
pub fn run(out: &mut dyn Write) -> Result<u8, CliError> {
    let style = style::stdout();
    let text = demo_text(style)?;
    out.write_all(text.0.as_bytes()).map_err(CliError::stdout)?;
    Ok(text.1)
}

/// The demo's whole output and its exit status.
pub fn demo_text(style: Style) -> Result<(String, u8), CliError> {
    let mut s = String::new();
    let target = Target::default();
    let signature = seed_signature();
    let bytecode = inlay::dxbc::signature_blob(&signature);
    s.push_str(&format!(
        "{}\n\n",
        style.bold("inlay demo: the seed layout against a built-in vertex shader signature")
    ));
    s.push_str(&format!(
        "vertex shader input signature: a {}-byte signature-only DXBC container written by \
         inlay::dxbc::signature_blob, checksum {}\n",
        bytecode.len(),
        bytecode[4..20]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    ));
    // The table is read back from the blob: what CreateInputLayout will see.
    let read_back = inlay::dxbc::Container::parse(&bytecode)
        .and_then(|c| c.input_signature())
        .map_err(|e| CliError::usage(format!("demo signature blob: {e}")))?
        .unwrap_or_default();
    s.push_str("  Name      Index  Mask  Register  Format\n");
    for e in &read_back.elements {
        s.push_str(&format!(
            "  {:<9} {:>5}  {:<4}  {:>8}  {}\n",
            e.semantic_name,
            e.semantic_index,
            mask_letters(e.mask),
            format!("v{}", e.register),
            e.component_type.fxc_name()
        ));
    }
    s.push_str(&format!("\nlayout:\n{SEED_SOURCE}\n\n"));
    let elements = seed_elements();
    let creation = inlay::create_input_layout(&target, &elements, &bytecode);
    s.push_str(&format!(
        "CreateInputLayout on {}, feature level {}:\n",
        target.api, target.feature_level
    ));
    for d in &creation.diagnostics {
        s.push_str(&format!("  {d}\n"));
    }
    let mut result = Vec::new();
    check::write_result(&mut result, &creation, style)?;
    s.push_str(&String::from_utf8_lossy(&result));
    let Some(layout) = &creation.layout else {
        return Ok((s, 1));
    };
    s.push_str(&check::layout_table(layout));

    let data = seed_vertex_bytes();
    let mut ia = InputAssembler::new(layout, target);
    let ia_err = |e: inlay::assembler::IaError| CliError::usage(format!("demo draw: {e}"));
    ia.set_vertex_buffer(
        0,
        Some(VertexBufferBinding {
            data: &data,
            stride: 24,
            offset: 0,
        }),
    )
    .map_err(ia_err)?;
    ia.set_topology(Topology::TriangleList).map_err(ia_err)?;
    let call = DrawCall::Draw {
        vertex_count: 3,
        start_vertex: 0,
    };
    let draw = ia.draw(&call).map_err(ia_err)?;
    s.push_str(&format!(
        "\nthe seed triangle: Draw(3, 0), triangle_list, slot 0 bound to {} bytes with stride 24\n",
        data.len()
    ));
    for v in draw.vertices() {
        s.push_str(&format!(
            "  vertex {}: SV_VertexID {}, SV_InstanceID {}\n",
            v.position, v.vertex_id, v.instance_id
        ));
        for e in layout.elements() {
            if let Some(r) = e.register.and_then(|r| v.register(r).map(|bits| (r, bits))) {
                s.push_str(&format!(
                    "    v{} {:<9} = {}\n",
                    r.0,
                    format!("{}{}", e.semantic_name, e.semantic_index),
                    lanes(r.1)
                ));
            }
        }
    }
    for p in draw.primitives() {
        s.push_str(&format!(
            "  primitive: SV_PrimitiveID {}, vertices {:?}\n",
            p.id,
            p.vertices()
        ));
    }
    Ok((s, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_bytes_match_the_conformance_example() {
        let hex: String = seed_vertex_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "000000000000003f0000003f0000803f00000000000000000000003f000000bf0000003f000000000000803f00000000000000bf000000bf0000003f00000000000000000000803f"
        );
    }

    #[test]
    fn seed_source_parses_to_the_seed_elements() {
        let p = inlay::text::c::parse(SEED_SOURCE, None).unwrap();
        assert_eq!(p.elements, seed_elements());
    }
}
