//! Structured inputs shared by the fuzz targets: `arbitrary` wrappers that turn libFuzzer's
//! bytes into targets, element descriptions, signatures, shader blobs, layouts and draws.
//!
//! Every integer field is *biased*: most draws pick small or edge values (0, 1, the limits,
//! `u32::MAX`, `APPEND_ALIGNED_ELEMENT`…) so that the interesting branches are reached, and the
//! rest take any 32-bit value so that nothing is excluded.

use arbitrary::{Arbitrary, Result, Unstructured};
use inlay::dxbc::{
    self, ComponentType, MinPrecision, Signature, SignatureElement, SignatureKind, SystemValue,
};
use inlay::element::InputElementDesc;
use inlay::format::Format;
use inlay::layout::{InputClass, LayoutElement};
use inlay::target::{Api, FeatureLevel, Target};

pub mod text_checks;

/// Edge values every biased integer may take.
const EDGES: [u32; 16] = [
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

/// A `u32` that is usually small or an edge value.
#[derive(Clone, Copy, Debug)]
pub struct Biased(pub u32);

impl<'a> Arbitrary<'a> for Biased {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Biased(match u.int_in_range(0u8..=3)? {
            0 => u.int_in_range(0u32..=40)?,
            1 => *u.choose(&EDGES)?,
            2 => u.int_in_range(0u32..=4096)?,
            _ => u.arbitrary()?,
        }))
    }
}

/// A target: any runtime × feature level, optional formats on or off.
#[derive(Clone, Copy, Debug)]
pub struct ArbTarget(pub Target);

impl<'a> Arbitrary<'a> for ArbTarget {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let api = *u.choose(&[Api::D3D10, Api::D3D10_1, Api::D3D11])?;
        let level = *u.choose(&FeatureLevel::ALL)?;
        let mut t = Target::new(api, level);
        t.optional_formats = u.arbitrary()?;
        Ok(ArbTarget(t))
    }
}

/// A DXGI format value: usually an input-assembler vertex format, else one of the table's
/// codes (0..=131) or any `u32`.
#[derive(Clone, Copy, Debug)]
pub struct ArbFormat(pub Format);

impl<'a> Arbitrary<'a> for ArbFormat {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(ArbFormat(Format(match u.int_in_range(0u8..=7)? {
            0..=4 => {
                let n = inlay::format::vertex_formats().count();
                let k = u.choose_index(n)?;
                inlay::format::vertex_formats()
                    .nth(k)
                    .map_or(0, |f| f.value)
            }
            5 | 6 => u.int_in_range(0u32..=131)?,
            _ => u.arbitrary()?,
        })))
    }
}

/// Semantic names the rules care about, plus arbitrary text (NULs, lowercase, non-ASCII).
const NAMES: [&str; 14] = [
    "POSITION",
    "position",
    "TEXCOORD",
    "COLOR",
    "NORMAL",
    "BLENDINDICES",
    "SV_VertexID",
    "SV_InstanceID",
    "SV_Position",
    "SV_POSITION",
    "sv_vertexid",
    "",
    "TEXCOORD\0junk",
    "POSITION1",
];

/// A semantic name: usually a known one, sometimes any string.
#[derive(Clone, Debug)]
pub struct ArbName(pub String);

impl<'a> Arbitrary<'a> for ArbName {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(ArbName(if u.ratio(3u8, 4u8)? {
            u.choose(&NAMES)?.to_string()
        } else {
            u.arbitrary::<String>()?
        }))
    }
}

/// An input element description with every field free, NULL names included.
#[derive(Clone, Debug, Arbitrary)]
pub struct ArbElement {
    /// `None` is a NULL `SemanticName`.
    pub name: Option<ArbName>,
    /// SemanticIndex.
    pub index: Biased,
    /// Format.
    pub format: ArbFormat,
    /// InputSlot.
    pub slot: Biased,
    /// AlignedByteOffset; `append` forces `D3D11_APPEND_ALIGNED_ELEMENT`.
    pub offset: Biased,
    /// Use `D3D11_APPEND_ALIGNED_ELEMENT` instead of `offset`.
    pub append: bool,
    /// InputSlotClass (0, 1 or anything).
    pub class: Biased,
    /// InstanceDataStepRate.
    pub step_rate: Biased,
}

impl ArbElement {
    /// The element description.
    pub fn desc(&self) -> InputElementDesc {
        InputElementDesc {
            semantic_name: self.name.as_ref().map(|n| n.0.clone()),
            semantic_index: self.index.0,
            format: self.format.0,
            input_slot: self.slot.0,
            aligned_byte_offset: if self.append {
                inlay::element::APPEND_ALIGNED_ELEMENT
            } else {
                self.offset.0
            },
            input_slot_class: self.class.0,
            instance_data_step_rate: self.step_rate.0,
        }
    }
}

/// A signature element with every field free.
#[derive(Clone, Debug, Arbitrary)]
pub struct ArbSignatureElement {
    /// Stream.
    pub stream: Biased,
    /// Semantic name.
    pub name: ArbName,
    /// Semantic index.
    pub index: Biased,
    /// System value code.
    pub system_value: Biased,
    /// Component type code.
    pub component_type: Biased,
    /// Register (`u32::MAX` = none).
    pub register: Biased,
    /// Mask.
    pub mask: u8,
    /// Read/write mask.
    pub read_write_mask: u8,
    /// Minimum precision code.
    pub min_precision: Biased,
}

impl ArbSignatureElement {
    /// The signature element.
    pub fn element(&self) -> SignatureElement {
        SignatureElement {
            stream: self.stream.0,
            semantic_name: self.name.0.clone(),
            semantic_index: self.index.0,
            system_value: SystemValue(self.system_value.0),
            component_type: ComponentType(self.component_type.0),
            register: self.register.0,
            mask: self.mask,
            read_write_mask: self.read_write_mask,
            min_precision: MinPrecision(self.min_precision.0),
        }
    }
}

/// A signature of up to 40 free elements.
#[derive(Clone, Debug)]
pub struct ArbSignature(pub Signature);

impl<'a> Arbitrary<'a> for ArbSignature {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let n = u.int_in_range(0usize..=40)?;
        let mut elements = Vec::with_capacity(n);
        for _ in 0..n {
            elements.push(u.arbitrary::<ArbSignatureElement>()?.element());
        }
        Ok(ArbSignature(Signature { elements }))
    }
}

/// Any of the seven signature chunk kinds.
#[derive(Clone, Copy, Debug)]
pub struct ArbKind(pub SignatureKind);

impl<'a> Arbitrary<'a> for ArbKind {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(ArbKind(*u.choose(&SignatureKind::ALL)?))
    }
}

/// Shader bytecode: raw bytes, or a well-formed container built from a signature (and maybe
/// a program chunk and other chunks) and then damaged in a few places.
#[derive(Clone, Debug, Arbitrary)]
pub enum ArbBytecode {
    /// Any bytes.
    Raw(Vec<u8>),
    /// A real container, then mutated.
    Built {
        /// The input signature's chunk kind and contents.
        kind: ArbKind,
        /// The input signature.
        input: ArbSignature,
        /// An output signature chunk too.
        output: Option<ArbSignature>,
        /// A program chunk (`SHDR` when false, `SHEX` when true) with this version token.
        program: Option<(bool, u32)>,
        /// `Aon9` chunk data.
        aon9: Option<Vec<u8>>,
        /// Bytes overwritten after building: (position modulo length, value).
        damage: Vec<(u16, u8)>,
        /// Keep only this many bytes.
        truncate: Option<u16>,
        /// Recompute the digest after damaging.
        fix_digest: bool,
    },
}

impl ArbBytecode {
    /// The bytes.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            ArbBytecode::Raw(b) => b.clone(),
            ArbBytecode::Built {
                kind,
                input,
                output,
                program,
                aon9,
                damage,
                truncate,
                fix_digest,
            } => {
                let idata = dxbc::write_signature_chunk(kind.0, &input.0);
                let odata = output
                    .as_ref()
                    .map(|o| dxbc::write_signature_chunk(SignatureKind::Osgn, &o.0));
                let pdata = program.map(|(_, token)| {
                    let mut d = token.to_le_bytes().to_vec();
                    d.extend_from_slice(&[2, 0, 0, 0]);
                    d
                });
                let mut chunks: Vec<([u8; 4], &[u8])> = vec![(kind.0.tag().0, &idata)];
                if let Some(o) = &odata {
                    chunks.push((*b"OSGN", o));
                }
                if let (Some((shex, _)), Some(p)) = (program, &pdata) {
                    chunks.push((if *shex { *b"SHEX" } else { *b"SHDR" }, p));
                }
                if let Some(a) = aon9 {
                    chunks.push((*b"Aon9", a));
                }
                let mut blob = dxbc::write_container(&chunks);
                let len = blob.len();
                for &(at, v) in damage {
                    blob[at as usize % len] = v;
                }
                if let Some(t) = truncate {
                    blob.truncate(*t as usize);
                }
                if *fix_digest && blob.len() >= 20 {
                    let d = dxbc::checksum(&blob);
                    blob[4..20].copy_from_slice(&d);
                }
                blob
            }
        }
    }
}

/// A resolved layout element with every field free (for draws that bypass validation).
#[derive(Clone, Debug, Arbitrary)]
pub struct ArbLayoutElement {
    /// Format.
    pub format: ArbFormat,
    /// Slot (usually below 32).
    pub slot: Biased,
    /// Byte offset.
    pub offset: Biased,
    /// Per-instance when true.
    pub per_instance: bool,
    /// Step rate.
    pub step_rate: Biased,
    /// Register (usually below 32; `None` = not fed to the shader).
    pub register: Option<Biased>,
}

impl ArbLayoutElement {
    /// The layout element.
    pub fn element(&self, i: usize) -> LayoutElement {
        LayoutElement {
            semantic_name: "TEXCOORD".to_string(),
            semantic_index: i as u32,
            format: self.format.0,
            slot: self.slot.0,
            offset: self.offset.0,
            class: if self.per_instance {
                InputClass::PerInstance
            } else {
                InputClass::PerVertex
            },
            step_rate: self.step_rate.0,
            register: self.register.map(|r| r.0),
        }
    }

    /// The element description `CreateInputLayout` gets for it (name `TEXCOORD`, index `i`).
    pub fn desc(&self, i: usize) -> inlay::element::InputElementDesc {
        let e = self.element(i);
        inlay::element::InputElementDesc {
            semantic_name: Some(e.semantic_name),
            semantic_index: e.semantic_index,
            format: e.format,
            input_slot: e.slot,
            aligned_byte_offset: e.offset,
            input_slot_class: self.per_instance as u32,
            instance_data_step_rate: e.step_rate,
        }
    }

    /// The signature entry that puts element `i` on its register (`None` when it feeds none).
    pub fn signature_entry(&self, i: usize) -> Option<inlay::dxbc::SignatureElement> {
        let e = self.element(i);
        e.register.map(|register| inlay::dxbc::SignatureElement {
            stream: 0,
            semantic_name: e.semantic_name,
            semantic_index: e.semantic_index,
            system_value: inlay::dxbc::SystemValue::UNDEFINED,
            component_type: inlay::dxbc::ComponentType::FLOAT32,
            register,
            mask: 0xf,
            read_write_mask: 0xf,
            min_precision: inlay::dxbc::MinPrecision(0),
        })
    }
}
