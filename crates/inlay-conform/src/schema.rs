//! The case-file schema `inlay-conformance/1`, `/2` and `/3`, as serde types (schema 3, a
//! superset adding Direct3D 12 cases, is `conformance/SCHEMA-3.md`).
//!
//! The parts of a case that describe library values are the library's own serde grammar, the
//! one the JSON/TOML layout files use too: elements are [`ElementRecord`]s, inline signatures
//! [`SignatureRecord`]s (both read as [`Complete`] records: a case writes every field), `api` and
//! `feature_level` are [`Api`] and [`FeatureLevel`], `topology` a [`Topology`], the index
//! buffer's format an [`IndexFormat`], and `call` a [`DrawSpec`]. What is defined here is the
//! case itself: its expectations, and the buffers a draw binds (owned bytes, where the
//! library's bindings borrow).
//!
//! Every struct denies unknown fields, so that a misspelt field is an error instead of a
//! silently skipped check (`SCHEMA.md`, "File"). Values that have a restricted spelling
//! (hex data, format names, topologies, lane bits, masks) are checked while deserializing, so
//! that a bad value is reported with the line and column where it occurs.
//!
//! One grammar means one set of value spellings: a case may write a value the way a layout
//! file may (`"DXGI_FORMAT_R32_FLOAT"` or any case for a format, a number or fxc's `"VERTID"`
//! for `sv`, `null` for a signature element's `register`), and it means the same there.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use inlay::assembler::{DrawSpec, Topology};
use inlay::text::records::{ElementRecord, SignatureRecord, hex_bytes};
use inlay::{Api, FeatureLevel, IndexFormat};

/// The value of the `schema` field of a schema-1 file (creation and draw cases only).
pub const SCHEMA_ID: &str = "inlay-conformance/1";
/// The value of the `schema` field of a schema-2 file (which may also hold ENCODE cases,
/// [`crate::encode_case`]).
pub const SCHEMA_2_ID: &str = "inlay-conformance/2";
/// The value of the `schema` field of a schema-3 file: schema 2 plus Direct3D 12 cases
/// (`api: "d3d12"`, feature levels 12_x, the `pipeline` object; `conformance/SCHEMA-3.md`).
pub const SCHEMA_3_ID: &str = "inlay-conformance/3";

/// A whole case file: `{ "schema": "inlay-conformance/1", "cases": [ … ] }`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// Must be [`SCHEMA_ID`].
    #[serde(deserialize_with = "schema_id")]
    pub schema: String,
    /// The cases, in file order.
    pub cases: Vec<Case>,
    /// The ENCODE cases (schema 2), in file order; filled by [`crate::parse_text`].
    #[serde(skip)]
    pub encode_cases: Vec<crate::encode_case::EncodeCase>,
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
    #[serde(default, deserialize_with = "present")]
    pub api: Option<Api>,
    /// Feature level (default 11_0, or 10_0 for D3D10).
    #[serde(default, deserialize_with = "present")]
    pub feature_level: Option<FeatureLevel>,
    /// The element array; `None` models a NULL `pInputElementDescs` (R1). Required.
    #[serde(deserialize_with = "elements")]
    pub elements: Option<Vec<ElementRecord>>,
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
    /// Schema 3, `api: "d3d12"` only: the pipeline state's fields beside its input layout.
    #[serde(default)]
    pub pipeline: Option<Pipeline>,
}

/// Schema 3: the fields of `D3D12_GRAPHICS_PIPELINE_STATE_DESC` beside `InputLayout` that
/// pipeline creation checks and draws follow (d3d12-rules.md P10–P13), as the raw enum values;
/// each defaults to what [`inlay::PipelineDesc::default`] says.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pipeline {
    /// The root signature's `D3D12_ROOT_SIGNATURE_FLAGS` (default 1, the input-assembler flag).
    #[serde(default)]
    pub root_signature_flags: Option<u32>,
    /// `IBStripCutValue`: 0 disabled (default), 1 0xFFFF, 2 0xFFFFFFFF.
    #[serde(default)]
    pub ib_strip_cut_value: Option<u32>,
    /// `PrimitiveTopologyType`: 1 point, 2 line, 3 triangle (default), 4 patch.
    #[serde(default)]
    pub primitive_topology_type: Option<u32>,
}

impl Pipeline {
    /// The library's description, with the defaults filled in.
    pub fn desc(&self) -> inlay::PipelineDesc {
        let d = inlay::PipelineDesc::default();
        inlay::PipelineDesc {
            root_signature_flags: self.root_signature_flags.unwrap_or(d.root_signature_flags),
            ib_strip_cut_value: self.ib_strip_cut_value.unwrap_or(d.ib_strip_cut_value),
            primitive_topology_type: self
                .primitive_topology_type
                .unwrap_or(d.primitive_topology_type),
        }
    }
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

    /// The pipeline description (schema 3; the defaults when absent).
    pub fn pipeline_desc(&self) -> inlay::PipelineDesc {
        self.pipeline
            .as_ref()
            .map_or_else(inlay::PipelineDesc::default, Pipeline::desc)
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

/// The bytecode: exactly one of a file path, inline hex, or an inline signature.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "ShaderFields")]
pub enum Shader {
    /// A DXBC file, relative to the case file.
    Dxbc(String),
    /// Inline DXBC bytes.
    DxbcHex(Vec<u8>),
    /// A signature from which the runner writes a signature-only container
    /// ([`inlay::text::records::signature_of`], then [`inlay::dxbc::signature_blob`]).
    Signature(Vec<SignatureRecord>),
}

/// The raw object behind [`Shader`], checked for "exactly one of".
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShaderFields {
    #[serde(default)]
    dxbc: Option<String>,
    #[serde(default, deserialize_with = "some_hex")]
    dxbc_hex: Option<Vec<u8>>,
    #[serde(default, deserialize_with = "some_signature")]
    signature: Option<Vec<SignatureRecord>>,
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

/// The expected creation result.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// `S_OK`, `S_FALSE` or `E_INVALIDARG`.
    #[serde(deserialize_with = "case_hresult")]
    pub hresult: inlay::HResult,
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

/// `expect.hresult`: the library's [`inlay::HResult`], limited to the three results the schema
/// names (`S_OK`, `S_FALSE`, `E_INVALIDARG`; `SCHEMA.md`, "EXPECT"). `E_OUTOFMEMORY` is not a
/// conformance result: Windows returns it only when the machine runs out of memory.
fn case_hresult<'de, D: serde::Deserializer<'de>>(d: D) -> Result<inlay::HResult, D::Error> {
    let h = inlay::HResult::deserialize(d)?;
    match h {
        inlay::HResult::S_OK | inlay::HResult::S_FALSE | inlay::HResult::E_INVALIDARG => Ok(h),
        other => Err(serde::de::Error::custom(format_args!(
            "`{}` is not a case result: expected `S_OK`, `S_FALSE` or `E_INVALIDARG`",
            other.name()
        ))),
    }
}

/// A draw through the created layout.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draw {
    /// Primitive topology: the library's [`Topology`] spellings (`point_list` …).
    pub topology: Topology,
    /// Bound vertex buffers; unlisted slots are unbound.
    pub vertex_buffers: Vec<VertexBuffer>,
    /// The index buffer; absent = unbound.
    #[serde(default)]
    pub index_buffer: Option<IndexBuffer>,
    /// The draw call: the library's [`DrawSpec`] grammar (the indirect forms own their
    /// argument bytes; [`DrawSpec::call`] lends the [`inlay::DrawCall`]).
    pub call: DrawSpec,
}

/// One bound vertex buffer: a slot and a [`inlay::VertexBufferBinding`] that owns its bytes
/// (the library's binding borrows them, and has no slot: `InputAssembler::set_vertex_buffer`
/// takes it beside the slot).
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

/// The bound index buffer: an [`inlay::IndexBufferBinding`] that owns its bytes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexBuffer {
    /// `R16_UINT` or `R32_UINT`.
    pub format: IndexFormat,
    /// Bind offset in bytes.
    pub offset: u32,
    /// The buffer's bytes.
    #[serde(deserialize_with = "hex_bytes")]
    pub data: Vec<u8>,
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
    if s == SCHEMA_ID || s == SCHEMA_2_ID || s == SCHEMA_3_ID {
        Ok(s)
    } else {
        Err(de::Error::custom(format!(
            "unsupported schema `{s}` (this runner implements `{SCHEMA_ID}`, `{SCHEMA_2_ID}` \
             and `{SCHEMA_3_ID}`)"
        )))
    }
}

/// A field that may be omitted but, when written, holds a value (not `null`).
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

fn some_hex<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
    hex_bytes(d).map(Some)
}

/// `elements`: an array of complete ELEMENT records, or `null`.
fn elements<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<ElementRecord>>, D::Error> {
    let list = Option::<Vec<Complete<ElementRecord>>>::deserialize(d)?;
    Ok(list.map(|l| l.into_iter().map(|c| c.0).collect()))
}

/// `signature`: an array of complete SIGNATURE_ELEMENT records.
fn some_signature<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<SignatureRecord>>, D::Error> {
    let list = Vec::<Complete<SignatureRecord>>::deserialize(d)?;
    Ok(Some(list.into_iter().map(|c| c.0).collect()))
}

/// A record of the library's grammar with every field written.
///
/// The layout files let a record leave fields out (an element's `index`, `slot`, `class`,
/// `step_rate`; a signature element's `index`, `used`, `type`, `sv`; `docs/notes/cli.md`), but
/// a case states the whole `CreateInputLayout` call: SCHEMA.md gives ELEMENT and
/// SIGNATURE_ELEMENT fields no defaults, so a case that leaves one out is malformed ("missing
/// field `step_rate`", at the end of the object, where serde reports its own missing fields).
/// Everything else (names, value spellings, unknown fields) is the record's own
/// [`Deserialize`]: the wrapper only watches which keys go by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Complete<T>(pub T);

/// The fields a [`Complete`] record must write.
pub trait Fields {
    /// Every field name, as written in a file.
    const FIELDS: &'static [&'static str];
}

impl Fields for ElementRecord {
    const FIELDS: &'static [&'static str] = &[
        "semantic",
        "index",
        "format",
        "slot",
        "offset",
        "class",
        "step_rate",
    ];
}

impl Fields for SignatureRecord {
    const FIELDS: &'static [&'static str] = &[
        "semantic", "index", "register", "mask", "used", "type", "sv",
    ];
}

impl<'de, T: Deserialize<'de> + Fields> Deserialize<'de> for Complete<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Fields> Visitor<'de> for V<T> {
            type Value = Complete<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an object with the fields {}", T::FIELDS.join(", "))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Complete<T>, A::Error> {
                let mut watched = Watched {
                    map,
                    seen: Vec::new(),
                };
                let value = T::deserialize(de::value::MapAccessDeserializer::new(&mut watched))?;
                match T::FIELDS
                    .iter()
                    .find(|f| !watched.seen.iter().any(|s| s == *f))
                {
                    Some(missing) => Err(de::Error::missing_field(missing)),
                    None => Ok(Complete(value)),
                }
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// A map whose keys are noted as they are read.
struct Watched<A> {
    map: A,
    seen: Vec<String>,
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Watched<A> {
    type Error = A::Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let Some(key) = self.map.next_key::<String>()? else {
            return Ok(None);
        };
        let value = seed.deserialize(de::value::StrDeserializer::<A::Error>::new(&key))?;
        self.seen.push(key);
        Ok(Some(value))
    }
    fn next_value_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
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
    fn lanes() {
        assert_eq!(parse_lane("3f800000"), Ok(0x3f80_0000));
        assert!(parse_lane("3f80000").is_err());
        assert!(parse_lane("+f800000").is_err());
    }

    /// Every field of a complete record is required, one at a time; with all of them written
    /// the record reads as the library reads it.
    #[test]
    fn complete_records_need_every_field() {
        let element = r#"{"semantic": "P", "index": 1, "format": "R32_FLOAT", "slot": 2,
            "offset": "append", "class": "instance", "step_rate": 3}"#;
        let signature = r#"{"semantic": "P", "index": 1, "register": 2, "mask": "xy",
            "used": "x", "type": "uint", "sv": "NONE"}"#;
        fn check<T: for<'de> Deserialize<'de> + Fields + fmt::Debug + PartialEq>(text: &str) {
            let whole: Complete<T> = serde_json::from_str(text).unwrap();
            assert_eq!(whole.0, serde_json::from_str::<T>(text).unwrap());
            let object: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(text).unwrap();
            assert_eq!(object.len(), T::FIELDS.len());
            for field in T::FIELDS {
                let mut less = object.clone();
                assert!(less.remove(*field).is_some(), "{field}");
                let text = serde_json::to_string(&less).unwrap();
                let e = serde_json::from_str::<Complete<T>>(&text).unwrap_err();
                assert!(
                    e.to_string()
                        .starts_with(&format!("missing field `{field}`")),
                    "{field}: {e}"
                );
            }
            let e = serde_json::from_str::<Complete<T>>(&text.replace("\"index\"", "\"indx\""))
                .unwrap_err();
            assert!(e.to_string().starts_with("unknown field `indx`"), "{e}");
        }
        check::<ElementRecord>(element);
        check::<SignatureRecord>(signature);
        let e: Complete<ElementRecord> = serde_json::from_str(element).unwrap();
        assert_eq!(
            e.0.to_desc(),
            inlay::InputElementDesc {
                semantic_name: Some("P".into()),
                semantic_index: 1,
                format: inlay::Format::R32_FLOAT,
                input_slot: 2,
                aligned_byte_offset: inlay::APPEND_ALIGNED_ELEMENT,
                input_slot_class: 1,
                instance_data_step_rate: 3,
            }
        );
    }
}
