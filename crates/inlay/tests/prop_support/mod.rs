//! Strategies shared by the `prop_*` property tests (bad-input robustness, docs/notes/fuzz.md):
//! the same shapes of input as the cargo-fuzz targets in `fuzz/`, drawn by proptest.
#![allow(dead_code)]

use inlay::dxbc::{
    self, ComponentType, MinPrecision, Signature, SignatureElement, SignatureKind, SystemValue,
};
use inlay::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use inlay::format::Format;
use inlay::target::{Api, FeatureLevel, Target};
use proptest::prelude::*;

/// Edge values every biased integer may take.
pub const EDGES: [u32; 16] = [
    0,
    1,
    2,
    3,
    4,
    15,
    16,
    31,
    32,
    2047,
    2048,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_fffc,
    0xffff_fffe,
    0xffff_ffff,
];

/// A `u32` that is usually small or an edge value, sometimes anything.
pub fn biased() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![
        4 => 0u32..=40,
        3 => prop::sample::select(EDGES.to_vec()),
        1 => 0u32..=4096,
        2 => any::<u32>(),
    ]
}

/// Any runtime × feature level, optional formats on or off.
pub fn target() -> impl Strategy<Value = Target> + Clone {
    (
        prop::sample::select(vec![Api::D3D10, Api::D3D10_1, Api::D3D11]),
        prop::sample::select(FeatureLevel::ALL.to_vec()),
        any::<bool>(),
    )
        .prop_map(|(api, level, optional)| {
            let mut t = Target::new(api, level);
            t.optional_formats = optional;
            t
        })
}

/// A format code: usually one of the table's (0..=131), sometimes any value.
pub fn format() -> impl Strategy<Value = Format> + Clone {
    prop_oneof![7 => 0u32..=131, 1 => any::<u32>()].prop_map(Format)
}

/// A format code for a resolved layout: usually an input-assembler vertex format (so that
/// draws get past the format check), sometimes any code.
pub fn vertex_format() -> impl Strategy<Value = Format> + Clone {
    let formats: Vec<Format> = inlay::format::vertex_formats()
        .map(|f| Format(f.value))
        .collect();
    prop_oneof![6 => prop::sample::select(formats), 1 => format()]
}

/// Semantic names the rules care about.
pub const NAMES: [&str; 12] = [
    "POSITION",
    "position",
    "TEXCOORD",
    "COLOR",
    "NORMAL",
    "SV_VertexID",
    "SV_InstanceID",
    "SV_Position",
    "sv_vertexid",
    "",
    "TEXCOORD\0junk",
    "POSITION1",
];

/// A semantic name: usually a known one, sometimes any string (non-ASCII and NUL included).
pub fn name() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        3 => prop::sample::select(NAMES.to_vec()).prop_map(str::to_string),
        1 => any::<String>(),
    ]
}

/// An input element description with every field free (NULL names included).
pub fn element() -> impl Strategy<Value = InputElementDesc> + Clone {
    (
        prop::option::weighted(0.95, name()),
        biased(),
        format(),
        biased(),
        prop_oneof![1 => Just(APPEND_ALIGNED_ELEMENT), 2 => biased()],
        prop_oneof![3 => 0u32..=1, 1 => biased()],
        biased(),
    )
        .prop_map(
            |(name, index, format, slot, offset, class, step)| InputElementDesc {
                semantic_name: name,
                semantic_index: index,
                format,
                input_slot: slot,
                aligned_byte_offset: offset,
                input_slot_class: class,
                instance_data_step_rate: step,
            },
        )
}

/// A signature element with every field free.
pub fn signature_element() -> impl Strategy<Value = SignatureElement> + Clone {
    (
        (biased(), name(), biased(), biased()),
        (biased(), biased(), any::<u8>(), any::<u8>(), biased()),
    )
        .prop_map(
            |((stream, name, index, sv), (ct, reg, mask, rw, mp))| SignatureElement {
                stream,
                semantic_name: name,
                semantic_index: index,
                system_value: SystemValue(sv),
                component_type: ComponentType(ct),
                register: reg,
                mask,
                read_write_mask: rw,
                min_precision: MinPrecision(mp),
            },
        )
}

/// A signature of up to 12 free elements.
pub fn signature() -> impl Strategy<Value = Signature> + Clone {
    prop::collection::vec(signature_element(), 0..12).prop_map(|elements| Signature { elements })
}

/// Any of the seven signature chunk kinds.
pub fn kind() -> impl Strategy<Value = SignatureKind> + Clone {
    prop::sample::select(SignatureKind::ALL.to_vec())
}

/// Shader bytecode: raw bytes, or a real container (signature chunk, maybe a program chunk)
/// damaged at a few places, truncated, and with its digest maybe recomputed afterwards.
pub fn bytecode() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..256),
        3 => (
            kind(),
            signature(),
            prop::option::of(any::<u32>()),
            prop::collection::vec((any::<u16>(), any::<u8>()), 0..4),
            prop::option::weighted(0.2, any::<u16>()),
            any::<bool>(),
        )
            .prop_map(|(kind, sig, program, damage, truncate, fix)| {
                let data = dxbc::write_signature_chunk(kind, &sig);
                let prog = program.map(|t| [t.to_le_bytes(), 2u32.to_le_bytes()].concat());
                let mut chunks: Vec<([u8; 4], &[u8])> = vec![(kind.tag().0, &data)];
                if let Some(p) = &prog {
                    chunks.push((*b"SHEX", p));
                }
                let mut blob = dxbc::write_container(&chunks);
                let len = blob.len();
                for (at, v) in damage {
                    blob[at as usize % len] = v;
                }
                if let Some(t) = truncate {
                    blob.truncate(t as usize % (len + 1));
                }
                if fix && blob.len() >= 20 {
                    let d = dxbc::checksum(&blob);
                    blob[4..20].copy_from_slice(&d);
                }
                blob
            }),
    ]
}

/// What a chunk of `kind` keeps of `sig`: no stream in 24-byte kinds, no minimum precision
/// outside the `*1` kinds, names cut at an interior NUL.
pub fn kept(kind: SignatureKind, sig: &Signature) -> Signature {
    let mut s = sig.clone();
    for e in &mut s.elements {
        if !kind.has_stream() {
            e.stream = 0;
        }
        if !kind.has_min_precision() {
            e.min_precision = MinPrecision::default();
        }
        if let Some(nul) = e.semantic_name.find('\0') {
            e.semantic_name.truncate(nul);
        }
    }
    s
}
