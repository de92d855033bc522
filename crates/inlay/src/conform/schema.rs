//! The case-file schema `inlay-conformance/1`, as serde types.
//!
//! Every struct denies unknown fields, so that a misspelt field is an error instead of a
//! silently skipped check (`SCHEMA.md`, "File"). Values that have a restricted spelling
//! (hex data, format names, topologies, lane bits, masks) are checked while deserializing, so
//! that a bad value is reported with the line and column where it occurs.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use crate::assembler::topology::Topology;
use crate::dxbc::signature::{SystemValue, parse_mask_letters};
use crate::element::APPEND_ALIGNED_ELEMENT;
use crate::format::Format;
use crate::target::{Api, FeatureLevel};

/// The value of the `schema` field of a schema-1 file (creation and draw cases only).
pub const SCHEMA_ID: &str = "inlay-conformance/1";
/// The value of the `schema` field of a schema-2 file (which may also hold ENCODE cases,
/// [`super::encode_case`]).
pub const SCHEMA_2_ID: &str = "inlay-conformance/2";

/// A whole case file: `{ "schema": "inlay-conformance/1", "cases": [ … ] }`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// Must be [`SCHEMA_ID`].
    #[serde(deserialize_with = "schema_id")]
    pub schema: String,
    /// The cases, in file order.
    pub cases: Vec<Case>,
    /// The ENCODE cases (schema 2), in file order; filled by [`super::parse_text`].
    #[serde(skip)]
    pub encode_cases: Vec<super::encode_case::EncodeCase>,
}

/// One case: a `CreateInputLayout` call, its expected result, and optionally a draw.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Short identifier, unique within its file.
    pub name: String,
    /// Where the expected result comes from.
    pub evidence: String,
    /// Runtime whose rules apply (default D3D11).
    #[serde(default, deserialize_with = "some_api")]
    pub api: Option<Api>,
    /// Feature level (default 11_0, or 10_0 for D3D10).
    #[serde(default, deserialize_with = "some_feature_level")]
    pub feature_level: Option<FeatureLevel>,
    /// The element array; `None` models a NULL `pInputElementDescs` (R1). Required.
    #[serde(deserialize_with = "nullable")]
    pub elements: Option<Vec<Element>>,
    /// The `NumElements` argument (default: the array's length).
    #[serde(default)]
    pub num_elements: Option<u32>,
    /// The bytecode handed to `CreateInputLayout`.
    pub shader: Shader,
    /// `true` models `ppInputLayout == NULL` (R5).
    #[serde(default)]
    pub validate_only: bool,
    /// The expected creation result.
    pub expect: Expect,
    /// A draw through the created layout.
    #[serde(default)]
    pub draw: Option<Draw>,
    /// The expected draw result (required when `draw` is present).
    #[serde(default)]
    pub expect_draw: Option<ExpectDraw>,
    /// Allowed ULP distance for float lanes fed by FLOAT/UNORM/SNORM elements.
    #[serde(default)]
    pub tolerance_ulp: u32,
}

impl Case {
    /// The case's API, with the schema's default.
    pub fn api(&self) -> Api {
        self.api.unwrap_or(Api::D3D11)
    }

    /// The case's feature level, with the schema's default (10_0 for D3D10, else 11_0).
    pub fn feature_level(&self) -> FeatureLevel {
        self.feature_level
            .unwrap_or_else(|| self.api().default_feature_level())
    }

    /// The `NumElements` argument, with the schema's default.
    pub fn num_elements(&self) -> u32 {
        self.num_elements.unwrap_or_else(|| {
            self.elements
                .as_ref()
                .map_or(0, |e| u32::try_from(e.len()).unwrap_or(u32::MAX))
        })
    }
}

/// One `D3D11_INPUT_ELEMENT_DESC`; every field is required.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Element {
    /// `SemanticName`; `None` models a NULL pointer.
    #[serde(deserialize_with = "nullable")]
    pub semantic: Option<String>,
    /// `SemanticIndex`.
    pub index: u32,
    /// `Format`, by name (without `DXGI_FORMAT_`) or by number.
    #[serde(deserialize_with = "format_value")]
    pub format: Format,
    /// `InputSlot`.
    pub slot: u32,
    /// `AlignedByteOffset`; `"append"` is `D3D11_APPEND_ALIGNED_ELEMENT`.
    #[serde(deserialize_with = "offset_value")]
    pub offset: u32,
    /// `InputSlotClass`: `"vertex"` = 0, `"instance"` = 1, or any integer.
    #[serde(deserialize_with = "class_value")]
    pub class: u32,
    /// `InstanceDataStepRate`.
    pub step_rate: u32,
}

/// The bytecode: exactly one of a file path, inline hex, or an inline signature.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "ShaderFields")]
pub enum Shader {
    /// A DXBC file, relative to the case file.
    Dxbc(String),
    /// Inline DXBC bytes.
    DxbcHex(Vec<u8>),
    /// A signature from which the runner writes a signature-only container.
    Signature(Vec<SignatureEntry>),
}

/// The raw object behind [`Shader`], checked for "exactly one of".
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShaderFields {
    #[serde(default)]
    dxbc: Option<String>,
    #[serde(default, deserialize_with = "some_hex")]
    dxbc_hex: Option<Vec<u8>>,
    #[serde(default)]
    signature: Option<Vec<SignatureEntry>>,
}

impl TryFrom<ShaderFields> for Shader {
    type Error = String;
    fn try_from(f: ShaderFields) -> Result<Self, String> {
        match (f.dxbc, f.dxbc_hex, f.signature) {
            (Some(p), None, None) => Ok(Shader::Dxbc(p)),
            (None, Some(b), None) => Ok(Shader::DxbcHex(b)),
            (None, None, Some(s)) => Ok(Shader::Signature(s)),
            _ => {
                Err("shader must have exactly one of `dxbc`, `dxbc_hex` or `signature`".to_string())
            }
        }
    }
}

/// One inline signature entry (an `ISGN` element).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignatureEntry {
    /// Semantic name as stored.
    pub semantic: String,
    /// Semantic index.
    pub index: u32,
    /// Input register.
    pub register: u32,
    /// Declared components, e.g. `"xyzw"`.
    #[serde(deserialize_with = "mask_value")]
    pub mask: u8,
    /// Components the shader reads (`""` for none).
    #[serde(deserialize_with = "mask_value")]
    pub used: u8,
    /// Component type: `float`, `uint` or `sint`.
    #[serde(rename = "type")]
    pub component_type: ComponentKind,
    /// System value, the `D3D_NAME` without its prefix.
    #[serde(deserialize_with = "system_value")]
    pub sv: SystemValue,
}

/// A signature entry's component type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ComponentKind {
    /// `D3D_REGISTER_COMPONENT_FLOAT32`.
    Float,
    /// `D3D_REGISTER_COMPONENT_UINT32`.
    Uint,
    /// `D3D_REGISTER_COMPONENT_SINT32` (`"sint"`; fxc's spelling `"int"` is accepted too).
    #[serde(alias = "int")]
    Sint,
}

/// The expected creation result.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// `S_OK`, `S_FALSE` or `E_INVALIDARG`.
    pub hresult: ExpectedHResult,
    /// Message ids that must be among the reported errors.
    #[serde(default)]
    pub errors: Vec<u32>,
    /// Message ids that must be among the reported warnings.
    #[serde(default)]
    pub warnings: Vec<u32>,
    /// Resolved offsets of the elements, in array order.
    #[serde(default)]
    pub offsets: Option<Vec<u32>>,
    /// Message ids that must not be reported at all.
    #[serde(default)]
    pub absent: Vec<u32>,
}

/// The HRESULTs a case may expect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[allow(non_camel_case_types)]
pub enum ExpectedHResult {
    /// Created.
    S_OK,
    /// Validate-only success.
    S_FALSE,
    /// Refused.
    E_INVALIDARG,
}

impl ExpectedHResult {
    /// The library's value.
    pub fn to_hresult(self) -> crate::diag::HResult {
        match self {
            ExpectedHResult::S_OK => crate::diag::HResult::S_OK,
            ExpectedHResult::S_FALSE => crate::diag::HResult::S_FALSE,
            ExpectedHResult::E_INVALIDARG => crate::diag::HResult::E_INVALIDARG,
        }
    }
}

/// A draw through the created layout.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draw {
    /// Primitive topology.
    #[serde(deserialize_with = "deserialize_topology")]
    pub topology: Topology,
    /// Bound vertex buffers; unlisted slots are unbound.
    pub vertex_buffers: Vec<VertexBuffer>,
    /// The index buffer; absent = unbound.
    #[serde(default)]
    pub index_buffer: Option<IndexBuffer>,
    /// The draw call.
    pub call: Call,
}

/// A primitive topology, spelled as the schema spells it (`point_list` … `patch_list_32`):
/// exactly the [`Topology`] names the input assembler prints, nothing else (not `undefined`,
/// not header spellings or numbers, which `Topology::from_str` also accepts for the CLI).
fn deserialize_topology<'de, D: Deserializer<'de>>(d: D) -> Result<Topology, D::Error> {
    let s = String::deserialize(d)?;
    s.parse::<Topology>()
        .ok()
        .filter(|t| *t != Topology::Undefined && t.to_string() == s)
        .ok_or_else(|| {
            de::Error::custom(format!(
                "unknown topology `{s}` (expected point_list, line_list, line_strip, \
                 triangle_list, triangle_strip, line_list_adj, line_strip_adj, \
                 triangle_list_adj, triangle_strip_adj or patch_list_1 … patch_list_32)"
            ))
        })
}

/// One bound vertex buffer.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexBuffer {
    /// Input slot.
    pub slot: u32,
    /// Stride in bytes.
    pub stride: u32,
    /// Bind offset in bytes.
    pub offset: u32,
    /// The buffer's bytes (its `ByteWidth` is their count).
    #[serde(deserialize_with = "hex_bytes")]
    pub data: Vec<u8>,
}

/// The bound index buffer.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexBuffer {
    /// `R16_UINT` or `R32_UINT`.
    pub format: IndexFormatName,
    /// Bind offset in bytes.
    pub offset: u32,
    /// The buffer's bytes.
    #[serde(deserialize_with = "hex_bytes")]
    pub data: Vec<u8>,
}

/// An index format name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[allow(non_camel_case_types)]
pub enum IndexFormatName {
    /// 16-bit indices.
    R16_UINT,
    /// 32-bit indices.
    R32_UINT,
}

/// A draw call and its arguments.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Call {
    /// `Draw(VertexCount, StartVertexLocation)`.
    Draw {
        /// Vertex count.
        vertex_count: u32,
        /// Start vertex.
        start_vertex: u32,
    },
    /// `DrawIndexed(IndexCount, StartIndexLocation, BaseVertexLocation)`.
    DrawIndexed {
        /// Index count.
        index_count: u32,
        /// Start index.
        start_index: u32,
        /// Base vertex (signed).
        base_vertex: i32,
    },
    /// `DrawInstanced(...)`.
    DrawInstanced {
        /// Vertices per instance.
        vertex_count_per_instance: u32,
        /// Instance count.
        instance_count: u32,
        /// Start vertex.
        start_vertex: u32,
        /// Start instance.
        start_instance: u32,
    },
    /// `DrawIndexedInstanced(...)`.
    DrawIndexedInstanced {
        /// Indices per instance.
        index_count_per_instance: u32,
        /// Instance count.
        instance_count: u32,
        /// Start index.
        start_index: u32,
        /// Base vertex (signed).
        base_vertex: i32,
        /// Start instance.
        start_instance: u32,
    },
    /// `DrawInstancedIndirect`: four words read from `args`.
    DrawInstancedIndirect {
        /// The argument buffer.
        args: IndirectArgs,
    },
    /// `DrawIndexedInstancedIndirect`: five words read from `args`.
    DrawIndexedInstancedIndirect {
        /// The argument buffer.
        args: IndirectArgs,
    },
}

/// An indirect-argument buffer and the byte offset of the arguments in it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndirectArgs {
    /// The buffer's bytes.
    #[serde(deserialize_with = "hex_bytes")]
    pub data: Vec<u8>,
    /// `AlignedByteOffsetForArgs`.
    pub offset: u32,
}

/// The expected draw result.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectDraw {
    /// The vertex stream, in order.
    pub vertices: Vec<ExpectVertex>,
    /// The assembled primitives, if checked.
    #[serde(default)]
    pub primitives: Option<Vec<ExpectPrimitive>>,
}

/// One expected vertex.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectVertex {
    /// `SV_VertexID`.
    pub vertex_id: u32,
    /// `SV_InstanceID`.
    pub instance_id: u32,
    /// Input registers to compare, by register number (none when omitted: only the IDs are
    /// compared).
    #[serde(default, deserialize_with = "register_map")]
    pub registers: BTreeMap<u32, [Option<u32>; 4]>,
}

/// One expected primitive.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectPrimitive {
    /// `SV_PrimitiveID`.
    pub id: u32,
    /// Positions in the vertex stream, in GS input order.
    pub vertices: Vec<usize>,
}

// ---------------------------------------------------------------------------------------------
// Field deserializers.

pub(crate) fn schema_id<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    if s == SCHEMA_ID || s == SCHEMA_2_ID {
        Ok(s)
    } else {
        Err(de::Error::custom(format!(
            "unsupported schema `{s}` (this runner implements `{SCHEMA_ID}` and `{SCHEMA_2_ID}`)"
        )))
    }
}

/// A required field that may be `null`.
fn nullable<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

fn some_api<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Api>, D::Error> {
    let s = String::deserialize(d)?;
    match s.as_str() {
        "d3d10" => Ok(Some(Api::D3D10)),
        "d3d10.1" => Ok(Some(Api::D3D10_1)),
        "d3d11" => Ok(Some(Api::D3D11)),
        _ => Err(de::Error::custom(format!(
            "unknown api `{s}` (expected d3d10, d3d10.1 or d3d11)"
        ))),
    }
}

fn some_feature_level<'de, D: Deserializer<'de>>(d: D) -> Result<Option<FeatureLevel>, D::Error> {
    let s = String::deserialize(d)?;
    FeatureLevel::ALL
        .into_iter()
        .find(|l| l.as_str() == s)
        .map(Some)
        .ok_or_else(|| {
            de::Error::custom(format!(
                "unknown feature_level `{s}` (expected 9_1, 9_2, 9_3, 10_0, 10_1, 11_0 or 11_1)"
            ))
        })
}

/// Parses a hex string (an even number of hex digits, either case) into bytes.
pub fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    if s.len() % 2 != 0 {
        return Err(format!(
            "hex data has an odd number of digits ({})",
            s.len()
        ));
    }
    let digit = |c: u8, at: usize| -> Result<u8, String> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(format!(
                "hex data has a non-hex character {:?} at position {at}",
                char::from(c)
            )),
        }
    };
    let b = s.as_bytes();
    (0..b.len() / 2)
        .map(|i| Ok((digit(b[2 * i], 2 * i)? << 4) | digit(b[2 * i + 1], 2 * i + 1)?))
        .collect()
}

pub(crate) fn hex_bytes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let s = String::deserialize(d)?;
    parse_hex(&s).map_err(de::Error::custom)
}

fn some_hex<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
    hex_bytes(d).map(Some)
}

/// A string-or-integer value, for fields that accept both.
enum StrOrInt {
    Str(String),
    Int(u64),
}

impl<'de> Deserialize<'de> for StrOrInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = StrOrInt;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or a non-negative integer")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StrOrInt, E> {
                Ok(StrOrInt::Str(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StrOrInt, E> {
                Ok(StrOrInt::Int(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StrOrInt, E> {
                Err(E::invalid_value(de::Unexpected::Signed(v), &self))
            }
        }
        d.deserialize_any(V)
    }
}

fn int_u32<E: de::Error>(v: u64, what: &str) -> Result<u32, E> {
    u32::try_from(v).map_err(|_| E::custom(format!("{what} {v} does not fit in 32 bits")))
}

pub(crate) fn format_value<'de, D: Deserializer<'de>>(d: D) -> Result<Format, D::Error> {
    match StrOrInt::deserialize(d)? {
        StrOrInt::Int(v) => int_u32(v, "format").map(Format),
        StrOrInt::Str(s) => {
            let known = crate::format::FORMATS.iter().find(|f| f.name == s);
            known.map(|f| Format(f.value)).ok_or_else(|| {
                de::Error::custom(format!(
                    "unknown format `{s}` (expected a DXGI format name without the \
                     DXGI_FORMAT_ prefix, such as R32G32B32_FLOAT, or a number)"
                ))
            })
        }
    }
}

fn offset_value<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    match StrOrInt::deserialize(d)? {
        StrOrInt::Int(v) => int_u32(v, "offset"),
        StrOrInt::Str(s) if s == "append" => Ok(APPEND_ALIGNED_ELEMENT),
        StrOrInt::Str(s) => Err(de::Error::custom(format!(
            "bad offset `{s}` (expected an integer or \"append\")"
        ))),
    }
}

fn class_value<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    match StrOrInt::deserialize(d)? {
        StrOrInt::Int(v) => int_u32(v, "class"),
        StrOrInt::Str(s) if s == "vertex" => Ok(crate::element::INPUT_PER_VERTEX_DATA),
        StrOrInt::Str(s) if s == "instance" => Ok(crate::element::INPUT_PER_INSTANCE_DATA),
        StrOrInt::Str(s) => Err(de::Error::custom(format!(
            "bad class `{s}` (expected \"vertex\", \"instance\" or an integer)"
        ))),
    }
}

fn mask_value<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let s = String::deserialize(d)?;
    if !s.bytes().all(|b| b"xyzw".contains(&b)) {
        return Err(de::Error::custom(format!(
            "bad component mask `{s}` (expected letters of xyzw in order, or \"\")"
        )));
    }
    parse_mask_letters(&s).ok_or_else(|| {
        de::Error::custom(format!(
            "bad component mask `{s}` (expected letters of xyzw in order, or \"\")"
        ))
    })
}

fn system_value<'de, D: Deserializer<'de>>(d: D) -> Result<SystemValue, D::Error> {
    let s = String::deserialize(d)?;
    crate::dxbc::signature::SYSTEM_VALUES
        .iter()
        .find(|r| r.1 == s)
        .map(|r| SystemValue(r.0))
        .ok_or_else(|| {
            de::Error::custom(format!(
                "unknown system value `{s}` (expected a D3D_NAME without its prefix, \
                 such as NONE, POSITION or VERTEX_ID)"
            ))
        })
}

/// Parses one lane: exactly eight hex digits.
fn parse_lane(s: &str) -> Result<u32, String> {
    if s.len() != 8 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "bad lane `{s}` (expected exactly 8 hex digits, or null)"
        ));
    }
    u32::from_str_radix(s, 16).map_err(|e| e.to_string())
}

fn register_map<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<u32, [Option<u32>; 4]>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = BTreeMap<u32, [Option<u32>; 4]>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object mapping register numbers to four lanes")
        }
        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(key) = map.next_key::<String>()? {
                let reg: u32 = if !key.is_empty()
                    && key.bytes().all(|b| b.is_ascii_digit())
                    && (key == "0" || !key.starts_with('0'))
                {
                    key.parse().map_err(|_| {
                        de::Error::custom(format!("register key `{key}` is too large"))
                    })?
                } else {
                    return Err(de::Error::custom(format!(
                        "bad register key `{key}` (expected a register number such as \"0\")"
                    )));
                };
                let lanes: Vec<Option<String>> = map.next_value()?;
                if lanes.len() != 4 {
                    return Err(de::Error::custom(format!(
                        "register {reg} has {} lanes (expected 4)",
                        lanes.len()
                    )));
                }
                let mut parsed = [None; 4];
                for (slot, lane) in parsed.iter_mut().zip(lanes) {
                    *slot = match lane {
                        None => None,
                        Some(s) => Some(parse_lane(&s).map_err(de::Error::custom)?),
                    };
                }
                if out.insert(reg, parsed).is_some() {
                    return Err(de::Error::custom(format!("register {reg} is listed twice")));
                }
            }
            Ok(out)
        }
    }
    d.deserialize_map(V)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topology_names() {
        let parse = |s: &str| {
            deserialize_topology(serde::de::value::StrDeserializer::<de::value::Error>::new(
                s,
            ))
            .ok()
        };
        assert_eq!(parse("patch_list_32"), Some(Topology::PatchList(32)));
        assert_eq!(parse("patch_list_33"), None);
        assert_eq!(parse("patch_list_0"), None);
        assert_eq!(parse("patch_list_07"), None);
        assert_eq!(
            parse("triangle_strip_adj"),
            Some(Topology::TriangleStripAdj)
        );
        // Only the schema's own spellings: no header names, numbers, case or `undefined`.
        assert_eq!(parse("TRIANGLELIST"), None);
        assert_eq!(parse("Triangle_List"), None);
        assert_eq!(parse("4"), None);
        assert_eq!(parse("undefined"), None);
        assert_eq!(Topology::PatchList(5).to_string(), "patch_list_5");
    }

    #[test]
    fn hex() {
        assert_eq!(parse_hex("00ffA0").unwrap(), vec![0, 0xff, 0xa0]);
        assert!(parse_hex("0").unwrap_err().contains("odd"));
        assert!(parse_hex("0g").unwrap_err().contains("position 1"));
        assert_eq!(parse_lane("3f800000"), Ok(0x3f80_0000));
        assert!(parse_lane("3f80000").is_err());
        assert!(parse_lane("+f800000").is_err());
    }
}
