//! Shader Model 6 (DXIL) containers: the parts dxc adds to the DXBC container layout.
//!
//! A DXIL container is a DXBC container (same header, same offset table) whose parts follow
//! dxc's `IsValidDxilContainer` ([`ContainerRules::Dxc`](super::ContainerRules::Dxc)) and
//! whose program is a `DXIL` part instead of `SHDR`/`SHEX`. Layouts are from
//! DirectXShaderCompiler's `DxilContainer.h` and `DxilPipelineStateValidation.h`
//! (d3d12-rules.md §A, P2–P7); everything here is read with every offset checked and no
//! allocation larger than the part:
//!
//! * [`DxilProgram`] — the `DXIL` part's program header: shader kind, shader model, DXIL
//!   version, bitcode bounds ([`DxilProgram::parse`]);
//! * [`Psv0`] — the `PSV0` part (pipeline state validation): runtime info of any version
//!   (0–4, newer sizes read as their known prefix), the signature elements it keeps, whether
//!   the shader reads `SV_ViewID` ([`Psv0::parse`], [`Psv0::write`]);
//! * [`ShaderHash`] — the `HASH` part (`DxilShaderHash`: flags and the shader's MD5);
//! * [`FeatureFlags`] — the `SFI0` part;
//! * [`DigestKind`] — what the container digest (bytes 4..20) is: the validator's hash, the
//!   `BYPASS` or `PREVIEW` sentinel, zeros, or a mismatch, and whether D3D12 accepts it;
//! * [`DxilBlob`] — a writer for DXIL containers (ISG1/OSG1, PSV0, a `DXIL` part holding a
//!   program header and caller-given bitcode bytes), for tests and tools that need a
//!   container D3D12's rules accept without running dxc.
//!
//! The signature parts `ISG1`/`OSG1`/`PSG1` have fxc's `*1` layout and are read by
//! [`parse_signature_chunk`](super::parse_signature_chunk); their component types include the
//! 16- and 64-bit ones dxc writes ([`ComponentType`]).

use std::fmt;

use super::sigchunk::SignatureKind;
use super::signature::{ComponentType, Signature};
use super::writer::write_signature_chunk;
use super::{DxbcError, FourCC, HEADER_SIZE, checksum, read_u32};

/// The shader kind of a DXIL program (`DXIL::ShaderKind`, the program version's bits 16–31;
/// PSV0's shader-stage byte uses the same numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DxilShaderKind(pub u32);

/// One row per `DXIL::ShaderKind`: value, name, profile prefix.
const SHADER_KINDS: &[(u32, &str, &str)] = &[
    (0, "pixel", "ps"),
    (1, "vertex", "vs"),
    (2, "geometry", "gs"),
    (3, "hull", "hs"),
    (4, "domain", "ds"),
    (5, "compute", "cs"),
    (6, "library", "lib"),
    (7, "raygeneration", "lib"),
    (8, "intersection", "lib"),
    (9, "anyhit", "lib"),
    (10, "closesthit", "lib"),
    (11, "miss", "lib"),
    (12, "callable", "lib"),
    (13, "mesh", "ms"),
    (14, "amplification", "as"),
    (15, "node", "lib"),
];

#[allow(missing_docs)]
impl DxilShaderKind {
    pub const PIXEL: DxilShaderKind = DxilShaderKind(0);
    pub const VERTEX: DxilShaderKind = DxilShaderKind(1);
    pub const GEOMETRY: DxilShaderKind = DxilShaderKind(2);
    pub const HULL: DxilShaderKind = DxilShaderKind(3);
    pub const DOMAIN: DxilShaderKind = DxilShaderKind(4);
    pub const COMPUTE: DxilShaderKind = DxilShaderKind(5);
    pub const LIBRARY: DxilShaderKind = DxilShaderKind(6);
    pub const MESH: DxilShaderKind = DxilShaderKind(13);
    pub const AMPLIFICATION: DxilShaderKind = DxilShaderKind(14);
}

impl DxilShaderKind {
    fn row(self) -> Option<&'static (u32, &'static str, &'static str)> {
        SHADER_KINDS.iter().find(|r| r.0 == self.0)
    }

    /// `vertex`, `pixel`, `mesh`, …; `None` for numbers dxc does not define.
    pub fn name(self) -> Option<&'static str> {
        self.row().map(|r| r.1)
    }

    /// The target-profile prefix (`vs`, `ps`, `ms`, `as`, `lib`, …).
    pub fn profile_prefix(self) -> Option<&'static str> {
        self.row().map(|r| r.2)
    }
}

impl fmt::Display for DxilShaderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "shader kind {}", self.0),
        }
    }
}

/// The `DXIL` part's program header (`DxilProgramHeader` with its `DxilBitcodeHeader`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DxilProgram {
    /// The raw program version word: kind in bits 16–31, major in 4–7, minor in 0–3.
    pub program_version: u32,
    /// Size of the program in 32-bit words, this header included.
    pub size_in_u32: u32,
    /// The DXIL version word, `(major << 8) | minor`.
    pub dxil_version: u32,
    /// Offset of the bitcode from the start of the bitcode header (byte 8 of the part).
    pub bitcode_offset: u32,
    /// Bitcode size in bytes.
    pub bitcode_size: u32,
}

/// Size of `DxilProgramHeader` (program version, size, then the 16-byte bitcode header).
pub const DXIL_PROGRAM_HEADER_SIZE: usize = 24;

impl DxilProgram {
    /// Reads a `DXIL` part's data (`base`: its place in the blob, for error offsets), with
    /// dxc's `IsValidDxilProgramHeader` checks: the 24-byte header fits, the declared size
    /// fits the part, the bitcode header's magic is `DXIL`, its bitcode is non-empty and lies
    /// inside the program.
    pub fn parse(data: &[u8], base: usize) -> Result<DxilProgram, DxbcError> {
        let bad = |at: usize, reason: String| DxbcError::PartMalformed {
            tag: FourCC::DXIL,
            at: base + at,
            reason,
        };
        if data.len() < DXIL_PROGRAM_HEADER_SIZE {
            return Err(bad(
                0,
                format!(
                    "{} bytes, shorter than the {DXIL_PROGRAM_HEADER_SIZE}-byte program header",
                    data.len()
                ),
            ));
        }
        let w = |n: usize| read_u32(data, 4 * n).unwrap_or(0);
        let p = DxilProgram {
            program_version: w(0),
            size_in_u32: w(1),
            dxil_version: w(3),
            bitcode_offset: w(4),
            bitcode_size: w(5),
        };
        if u64::from(p.size_in_u32) * 4 > data.len() as u64 {
            return Err(bad(
                4,
                format!(
                    "program size {} words ({} bytes) is larger than the {}-byte part",
                    p.size_in_u32,
                    u64::from(p.size_in_u32) * 4,
                    data.len()
                ),
            ));
        }
        if &data[8..12] != b"DXIL" {
            return Err(bad(
                8,
                format!(
                    "bitcode header magic is \"{}\", expected \"DXIL\"",
                    FourCC([data[8], data[9], data[10], data[11]])
                ),
            ));
        }
        let end = u64::from(p.bitcode_offset) + u64::from(p.bitcode_size);
        let room = data.len() as u64 - 8;
        if p.bitcode_size == 0 || end > room {
            return Err(bad(
                16,
                format!(
                    "bitcode at offset {} with {} bytes does not lie inside the {room} bytes after \
                     the program header's first 8 bytes",
                    p.bitcode_offset, p.bitcode_size
                ),
            ));
        }
        Ok(p)
    }

    /// The shader kind.
    pub fn kind(&self) -> DxilShaderKind {
        DxilShaderKind(self.program_version >> 16)
    }

    /// Shader model major version (6 for every DXIL program dxc writes).
    pub fn major(&self) -> u32 {
        (self.program_version >> 4) & 0xf
    }

    /// Shader model minor version.
    pub fn minor(&self) -> u32 {
        self.program_version & 0xf
    }

    /// `6_0`, `6_8`, … as the corpus spells shader models.
    pub fn shader_model(&self) -> String {
        format!("{}_{}", self.major(), self.minor())
    }

    /// The target profile, e.g. `vs_6_0`, `lib_6_3`; the kind number stands in for an
    /// unknown kind's prefix.
    pub fn profile(&self) -> String {
        match self.kind().profile_prefix() {
            Some(p) => format!("{p}_{}", self.shader_model()),
            None => format!("kind{}_{}", self.kind().0, self.shader_model()),
        }
    }

    /// The DXIL version as `major.minor`.
    pub fn dxil_version_string(&self) -> String {
        format!("{}.{}", self.dxil_version >> 8, self.dxil_version & 0xff)
    }
}

/// What the container digest (bytes 4..20) holds (d3d12-rules.md P3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DigestKind {
    /// The hash of the contents (the DXIL validator's, or fxc's for DXBC).
    Valid,
    /// The `BYPASS` sentinel, sixteen `0x01` bytes: unvalidated DXIL the runtime runs
    /// without checking a hash (hlsl-specs INF-0004).
    Bypass,
    /// The `PREVIEW` sentinel, sixteen `0x02` bytes: dxc's mark for pre-release shader models,
    /// run only in developer mode with experimental shader models enabled (INF-0004).
    Preview,
    /// All zeros: dxc with validation disabled (`-Vd`); the runtime refuses it (INF-0004,
    /// DirectXShaderCompiler#2550).
    Zero,
    /// Anything else that is not the hash of the contents.
    Mismatch,
}

impl DigestKind {
    /// The kind of `digest` for a container whose contents hash to `computed`.
    pub fn classify(digest: [u8; 16], computed: [u8; 16]) -> DigestKind {
        if digest == computed {
            DigestKind::Valid
        } else if digest == [1; 16] {
            DigestKind::Bypass
        } else if digest == [2; 16] {
            DigestKind::Preview
        } else if digest == [0; 16] {
            DigestKind::Zero
        } else {
            DigestKind::Mismatch
        }
    }

    /// `valid`, `bypass`, `preview`, `zero` or `mismatch`.
    pub const fn as_str(self) -> &'static str {
        match self {
            DigestKind::Valid => "valid",
            DigestKind::Bypass => "bypass",
            DigestKind::Preview => "preview",
            DigestKind::Zero => "zero",
            DigestKind::Mismatch => "mismatch",
        }
    }

    /// Whether a D3D12 runtime accepts a DXIL container with this digest at pipeline-state
    /// creation (P3): the real hash or `BYPASS`. `PREVIEW` needs developer mode with
    /// experimental shader models, which inlay does not model.
    pub const fn accepted_by_d3d12(self) -> bool {
        matches!(self, DigestKind::Valid | DigestKind::Bypass)
    }
}

/// The `HASH` part (`DxilShaderHash`): a flags word and the MD5 of the shader (of its
/// program, and of its source with flag 1); tools use it to name shaders, the runtime does not
/// check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShaderHash {
    /// `DxilShaderHashFlags` (1: the hash includes the source).
    pub flags: u32,
    /// The digest.
    pub digest: [u8; 16],
}

impl ShaderHash {
    /// Reads a `HASH` part (20 bytes; longer parts are read as their first 20).
    pub fn parse(data: &[u8], base: usize) -> Result<ShaderHash, DxbcError> {
        if data.len() < 20 {
            return Err(DxbcError::PartMalformed {
                tag: FourCC::HASH,
                at: base,
                reason: format!(
                    "{} bytes, shorter than the 20-byte DxilShaderHash",
                    data.len()
                ),
            });
        }
        let mut digest = [0u8; 16];
        digest.copy_from_slice(&data[4..20]);
        Ok(ShaderHash {
            flags: read_u32(data, 0).unwrap_or(0),
            digest,
        })
    }
}

/// The `SFI0` part: the shader's feature flags (`ShaderFeatureInfo_*` of `DxilConstants.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FeatureFlags(pub u64);

impl FeatureFlags {
    /// `ShaderFeatureInfo_MinimumPrecision`.
    pub const MINIMUM_PRECISION: u64 = 0x10;
    /// `ShaderFeatureInfo_ViewID`: the shader reads `SV_ViewID`.
    pub const VIEW_ID: u64 = 0x1_0000;
    /// `ShaderFeatureInfo_NativeLowPrecision` (16-bit types).
    pub const NATIVE_LOW_PRECISION: u64 = 0x4_0000;
    /// `ShaderFeatureInfo_ExtendedCommandInfo` (SM 6.8): the shader reads
    /// `SV_StartVertexLocation` and/or `SV_StartInstanceLocation`.
    pub const EXTENDED_COMMAND_INFO: u64 = 0x1_0000_0000;

    /// Reads an `SFI0` part (8 bytes).
    pub fn parse(data: &[u8], base: usize) -> Result<FeatureFlags, DxbcError> {
        match (read_u32(data, 0), read_u32(data, 4)) {
            (Some(lo), Some(hi)) => Ok(FeatureFlags(u64::from(lo) | (u64::from(hi) << 32))),
            _ => Err(DxbcError::PartMalformed {
                tag: FourCC::SFI0,
                at: base,
                reason: format!(
                    "{} bytes, shorter than the 8-byte feature flags",
                    data.len()
                ),
            }),
        }
    }

    /// Whether every bit of `flag` is set.
    pub fn has(self, flag: u64) -> bool {
        self.0 & flag == flag
    }
}

/// `PSVSemanticKind` (= `DXIL::SemanticKind`): the system value of a PSV0 signature element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PsvSemanticKind(pub u8);

/// `DXIL::SemanticKind` names in enum order (`Arbitrary` = 0 … `StartInstanceLocation` = 32).
const SEMANTIC_KINDS: &[&str] = &[
    "Arbitrary",
    "VertexID",
    "InstanceID",
    "Position",
    "RenderTargetArrayIndex",
    "ViewPortArrayIndex",
    "ClipDistance",
    "CullDistance",
    "OutputControlPointID",
    "DomainLocation",
    "PrimitiveID",
    "GSInstanceID",
    "SampleIndex",
    "IsFrontFace",
    "Coverage",
    "InnerCoverage",
    "Target",
    "Depth",
    "DepthLessEqual",
    "DepthGreaterEqual",
    "StencilRef",
    "DispatchThreadID",
    "GroupID",
    "GroupIndex",
    "GroupThreadID",
    "TessFactor",
    "InsideTessFactor",
    "ViewID",
    "Barycentrics",
    "ShadingRate",
    "CullPrimitive",
    "StartVertexLocation",
    "StartInstanceLocation",
];

#[allow(missing_docs)]
impl PsvSemanticKind {
    pub const ARBITRARY: PsvSemanticKind = PsvSemanticKind(0);
    pub const VERTEX_ID: PsvSemanticKind = PsvSemanticKind(1);
    pub const INSTANCE_ID: PsvSemanticKind = PsvSemanticKind(2);
    pub const POSITION: PsvSemanticKind = PsvSemanticKind(3);
    pub const VIEW_ID: PsvSemanticKind = PsvSemanticKind(27);
    pub const START_VERTEX_LOCATION: PsvSemanticKind = PsvSemanticKind(31);
    pub const START_INSTANCE_LOCATION: PsvSemanticKind = PsvSemanticKind(32);
}

impl PsvSemanticKind {
    /// `Arbitrary`, `VertexID`, `Position`, …; `None` past the known kinds.
    pub fn name(self) -> Option<&'static str> {
        SEMANTIC_KINDS.get(self.0 as usize).copied()
    }
}

/// One `PSVSignatureElement0` with its name and semantic indices looked up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PsvSignatureElement {
    /// Semantic name (from the string table).
    pub semantic_name: String,
    /// One semantic index per row.
    pub semantic_indexes: Vec<u32>,
    /// Rows the element occupies.
    pub rows: u8,
    /// First row, `None` when not allocated.
    pub start_row: Option<u8>,
    /// Columns (components) per row.
    pub cols: u8,
    /// First column, `None` when not allocated.
    pub start_col: Option<u8>,
    /// System-value kind.
    pub semantic_kind: PsvSemanticKind,
    /// `DxilProgramSigCompType`.
    pub component_type: ComponentType,
    /// Interpolation mode.
    pub interpolation_mode: u8,
    /// Components indexed dynamically (bits 0–3).
    pub dynamic_index_mask: u8,
    /// Output stream (0–3).
    pub stream: u8,
}

/// Size of `PSVSignatureElement0`.
pub const PSV_SIGNATURE_ELEMENT_SIZE: usize = 16;

/// Sizes of `PSVRuntimeInfo0` … `PSVRuntimeInfo4`.
pub const PSV_RUNTIME_INFO_SIZES: [u32; 5] = [24, 36, 48, 52, 56];

/// A `PSV0` part, read up to its signature elements (the ViewID and input-output dependency
/// tables after them are not decoded).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Psv0 {
    /// The runtime-info size field (24, 36, 48, 52, 56, or larger for newer versions).
    pub runtime_info_size: u32,
    /// The runtime-info bytes as stored.
    pub runtime_info: Vec<u8>,
    /// Resource count.
    pub resource_count: u32,
    /// Resource-binding record size (16 or 24), 0 without resources.
    pub resource_bind_info_size: u32,
    /// Signature-element record size (16), 0 without elements.
    pub signature_element_size: u32,
    /// Input signature elements (runtime info v1 and later).
    pub inputs: Vec<PsvSignatureElement>,
    /// Output signature elements.
    pub outputs: Vec<PsvSignatureElement>,
    /// Patch-constant (HS/DS) or primitive (MS) signature elements.
    pub patch_constant_or_primitive: Vec<PsvSignatureElement>,
    /// The string table (names), as stored.
    pub string_table: Vec<u8>,
    /// The semantic index table, as stored.
    pub semantic_index_table: Vec<u32>,
}

impl Psv0 {
    /// The runtime-info version the size says: the highest `n` with
    /// `PSV_RUNTIME_INFO_SIZES[n] <= runtime_info_size` (a newer version's record starts with
    /// every older one), `None` below version 0's 24 bytes.
    pub fn version(&self) -> Option<u32> {
        PSV_RUNTIME_INFO_SIZES
            .iter()
            .rposition(|&s| s <= self.runtime_info_size)
            .map(|v| v as u32)
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.runtime_info.get(at).copied()
    }

    /// The shader-stage byte (`PSVShaderKind`, version 1 and later).
    pub fn shader_stage(&self) -> Option<DxilShaderKind> {
        self.byte(24).map(|b| DxilShaderKind(u32::from(b)))
    }

    /// Whether the shader reads `SV_ViewID` (version 1 and later).
    pub fn uses_view_id(&self) -> Option<bool> {
        self.byte(25).map(|b| b != 0)
    }

    /// Packed input vectors (version 1 and later).
    pub fn input_vectors(&self) -> Option<u8> {
        self.byte(31)
    }

    /// The entry function's name (version 3 and later), looked up in the string table.
    pub fn entry_function_name(&self) -> Option<String> {
        let off = read_u32(&self.runtime_info, 48)? as usize;
        string_at(&self.string_table, off)
    }

    /// Parses a `PSV0` part's data (`base`: its place in the blob, for error offsets) with the
    /// bounds checks of DXC's `DxilPipelineStateValidation::ReadOrWrite`: every size field and
    /// table fits the part, the string table's size is a multiple of 4, the records are at
    /// least their version-0 size; names and semantic indices the elements point at exist.
    pub fn parse(data: &[u8], base: usize) -> Result<Psv0, DxbcError> {
        let mut r = Reader { data, at: 0, base };
        let mut psv = Psv0 {
            runtime_info_size: r.u32("runtime info size")?,
            ..Psv0::default()
        };
        if psv.runtime_info_size < PSV_RUNTIME_INFO_SIZES[0] {
            return Err(r.error(
                0,
                format!(
                    "runtime info size {} is smaller than version 0's {} bytes",
                    psv.runtime_info_size, PSV_RUNTIME_INFO_SIZES[0]
                ),
            ));
        }
        psv.runtime_info = r
            .bytes(psv.runtime_info_size as u64, "runtime info")?
            .to_vec();
        psv.resource_count = r.u32("resource count")?;
        if psv.resource_count > 0 {
            psv.resource_bind_info_size = r.u32("resource bind info size")?;
            if psv.resource_bind_info_size < 16 {
                return Err(r.error(
                    r.at - 4,
                    format!(
                        "resource bind info size {} is smaller than the 16-byte version 0 record",
                        psv.resource_bind_info_size
                    ),
                ));
            }
            r.bytes(
                u64::from(psv.resource_count) * u64::from(psv.resource_bind_info_size),
                "resource bind infos",
            )?;
        }
        if psv.runtime_info_size < PSV_RUNTIME_INFO_SIZES[1] {
            return Ok(psv);
        }
        let table_size = r.u32("string table size")?;
        if !table_size.is_multiple_of(4) {
            return Err(r.error(
                r.at - 4,
                format!("string table size {table_size} is not a multiple of 4"),
            ));
        }
        psv.string_table = r.bytes(u64::from(table_size), "string table")?.to_vec();
        let entries = r.u32("semantic index table size")?;
        let table = r.bytes(u64::from(entries) * 4, "semantic index table")?;
        psv.semantic_index_table = table
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let counts = [
            psv.runtime_info[28],
            psv.runtime_info[29],
            psv.runtime_info[30],
        ];
        if counts.iter().all(|&c| c == 0) {
            return Ok(psv);
        }
        psv.signature_element_size = r.u32("signature element size")?;
        if (psv.signature_element_size as usize) < PSV_SIGNATURE_ELEMENT_SIZE {
            return Err(r.error(
                r.at - 4,
                format!(
                    "signature element size {} is smaller than the {PSV_SIGNATURE_ELEMENT_SIZE}-byte \
                     PSVSignatureElement0",
                    psv.signature_element_size
                ),
            ));
        }
        let mut lists: [Vec<PsvSignatureElement>; 3] = Default::default();
        for (list, &count) in lists.iter_mut().zip(&counts) {
            for _ in 0..count {
                let start = r.at;
                let rec = r.bytes(u64::from(psv.signature_element_size), "signature element")?;
                list.push(psv.element(rec, base + start)?);
            }
        }
        let [inputs, outputs, pc] = lists;
        psv.inputs = inputs;
        psv.outputs = outputs;
        psv.patch_constant_or_primitive = pc;
        Ok(psv)
    }

    fn element(&self, rec: &[u8], at: usize) -> Result<PsvSignatureElement, DxbcError> {
        let bad = |reason: String| DxbcError::PartMalformed {
            tag: FourCC::PSV0,
            at,
            reason,
        };
        let name_off = read_u32(rec, 0).unwrap_or(0);
        let index_off = read_u32(rec, 4).unwrap_or(0);
        let rows = rec[8];
        let semantic_name = string_at(&self.string_table, name_off as usize).ok_or_else(|| {
            bad(format!(
                "signature element name offset {name_off} is outside the {}-byte string table \
                 (or the table does not end in NUL)",
                self.string_table.len()
            ))
        })?;
        let start = index_off as usize;
        let semantic_indexes = self
            .semantic_index_table
            .get(start..start + rows as usize)
            .ok_or_else(|| {
                bad(format!(
                    "signature element semantic indices {index_off}..{} are outside the \
                     {}-entry semantic index table",
                    u64::from(index_off) + u64::from(rows),
                    self.semantic_index_table.len()
                ))
            })?
            .to_vec();
        let allocated = rec[10] & 0x40 != 0;
        Ok(PsvSignatureElement {
            semantic_name,
            semantic_indexes,
            rows,
            start_row: allocated.then_some(rec[9]),
            cols: rec[10] & 0xf,
            start_col: allocated.then_some((rec[10] >> 4) & 0x3),
            semantic_kind: PsvSemanticKind(rec[11]),
            component_type: ComponentType(u32::from(rec[12])),
            interpolation_mode: rec[13],
            dynamic_index_mask: rec[14] & 0xf,
            stream: (rec[14] >> 4) & 0x3,
        })
    }

    /// Writes this record as a `PSV0` part: the runtime info as stored (its element counts
    /// are set from the element lists), the resource count with `resource_count` zeroed
    /// records, the string table, the semantic index table and the elements. Parsing the
    /// result gives back the same record when the names and indices are in the tables.
    pub fn write(&self) -> Vec<u8> {
        let mut info = self.runtime_info.clone();
        info.resize(self.runtime_info_size as usize, 0);
        let v1 = info.len() >= PSV_RUNTIME_INFO_SIZES[1] as usize;
        if v1 {
            info[28] = self.inputs.len().min(255) as u8;
            info[29] = self.outputs.len().min(255) as u8;
            info[30] = self.patch_constant_or_primitive.len().min(255) as u8;
        }
        let mut out = Vec::new();
        let w32 = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
        w32(&mut out, info.len() as u32);
        out.extend_from_slice(&info);
        w32(&mut out, self.resource_count);
        if self.resource_count > 0 {
            let size = self.resource_bind_info_size.max(16);
            w32(&mut out, size);
            out.resize(out.len() + (self.resource_count * size) as usize, 0);
        }
        if !v1 {
            return out;
        }
        let mut table = self.string_table.clone();
        table.resize(table.len().next_multiple_of(4), 0);
        w32(&mut out, table.len() as u32);
        out.extend_from_slice(&table);
        w32(&mut out, self.semantic_index_table.len() as u32);
        for v in &self.semantic_index_table {
            w32(&mut out, *v);
        }
        let all = self
            .inputs
            .iter()
            .chain(&self.outputs)
            .chain(&self.patch_constant_or_primitive);
        if info[28..31].iter().all(|&c| c == 0) {
            return out;
        }
        w32(&mut out, PSV_SIGNATURE_ELEMENT_SIZE as u32);
        for e in all {
            let name = find_string(&table, &e.semantic_name).unwrap_or(0);
            let index = find_run(&self.semantic_index_table, &e.semantic_indexes).unwrap_or(0);
            w32(&mut out, name);
            w32(&mut out, index);
            let allocated = e.start_row.is_some();
            out.extend_from_slice(&[
                e.rows,
                e.start_row.unwrap_or(0),
                (e.cols & 0xf)
                    | ((e.start_col.unwrap_or(0) & 0x3) << 4)
                    | if allocated { 0x40 } else { 0 },
                e.semantic_kind.0,
            ]);
            out.extend_from_slice(&[
                e.component_type.0 as u8,
                e.interpolation_mode,
                (e.dynamic_index_mask & 0xf) | ((e.stream & 0x3) << 4),
                0,
            ]);
        }
        out
    }
}

/// The NUL-terminated string at `offset` of a string table that ends in NUL (the check of
/// `PSVStringTable::Get`).
fn string_at(table: &[u8], offset: usize) -> Option<String> {
    if table.last() != Some(&0) || offset >= table.len() {
        return None;
    }
    let rest = &table[offset..];
    let len = rest.iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&rest[..len]).into_owned())
}

fn find_string(table: &[u8], name: &str) -> Option<u32> {
    let mut at = 0;
    while at < table.len() {
        let len = table[at..].iter().position(|&b| b == 0)?;
        if &table[at..at + len] == name.as_bytes() {
            return Some(at as u32);
        }
        at += len + 1;
    }
    None
}

fn find_run(table: &[u32], run: &[u32]) -> Option<u32> {
    if run.is_empty() {
        return Some(0);
    }
    table
        .windows(run.len())
        .position(|w| w == run)
        .map(|p| p as u32)
}

/// A bounds-checked cursor over a part.
struct Reader<'d> {
    data: &'d [u8],
    at: usize,
    base: usize,
}

impl<'d> Reader<'d> {
    fn error(&self, at: usize, reason: String) -> DxbcError {
        DxbcError::PartMalformed {
            tag: FourCC::PSV0,
            at: self.base + at,
            reason,
        }
    }

    fn bytes(&mut self, len: u64, what: &str) -> Result<&'d [u8], DxbcError> {
        let left = (self.data.len() - self.at) as u64;
        if len > left {
            return Err(self.error(
                self.at,
                format!(
                    "the {what} ({len} bytes) runs past the end of the part ({left} bytes left)"
                ),
            ));
        }
        let s = &self.data[self.at..self.at + len as usize];
        self.at += len as usize;
        Ok(s)
    }

    fn u32(&mut self, what: &str) -> Result<u32, DxbcError> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// A system value a vertex shader can read that is not a signature element: the runtime
/// supplies it through a DXIL operation, and dxc records its use only in feature flags
/// (d3d12-rules.md P7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImplicitInput {
    /// `SV_ViewID` (SM 6.1, view instancing): PSV0's `UsesViewID` or SFI0's ViewID flag.
    ViewId,
    /// `SV_StartVertexLocation` and/or `SV_StartInstanceLocation` (SM 6.8): SFI0's
    /// ExtendedCommandInfo flag, which does not say which of the two.
    StartLocations,
}

impl ImplicitInput {
    /// The HLSL semantic(s).
    pub const fn semantics(self) -> &'static str {
        match self {
            ImplicitInput::ViewId => "SV_ViewID",
            ImplicitInput::StartLocations => "SV_StartVertexLocation/SV_StartInstanceLocation",
        }
    }
}

/// What to put in a DXIL container made by [`DxilBlob::write`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DxilBlob {
    /// The program version word (`(kind << 16) | (major << 4) | minor`), e.g. `0x0001_0060`
    /// for `vs_6_0`.
    pub program_version: u32,
    /// The DXIL version word, e.g. `0x0100` for 1.0.
    pub dxil_version: u32,
    /// The bitcode bytes stored in the `DXIL` part (inlay never reads them; any non-empty
    /// bytes do).
    pub bitcode: Vec<u8>,
    /// `ISG1`.
    pub input: Signature,
    /// `OSG1`.
    pub output: Signature,
    /// A `PSV0` part, if any.
    pub psv: Option<Psv0>,
    /// `SFI0` flags, if an `SFI0` part is wanted.
    pub feature_flags: Option<u64>,
    /// The digest to store: [`DigestKind::Valid`] computes it; `Bypass`, `Preview` and
    /// `Zero` store their sentinel; `Mismatch` stores the valid digest with its first byte
    /// flipped.
    pub digest: Option<DigestKind>,
}

impl DxilBlob {
    /// Writes the container the way dxc lays it out: `SFI0` (if any), `ISG1`, `OSG1`, `PSV0`
    /// (if any), `DXIL`, each part right after the previous one with its exact length (parts
    /// need not be multiples of 4), the size field at the end of the last part.
    ///
    /// # Panics
    ///
    /// When the container would exceed 4 GiB.
    pub fn write(&self) -> Vec<u8> {
        let sfi0 = self.feature_flags.map(|f| f.to_le_bytes().to_vec());
        let isg1 = write_signature_chunk(SignatureKind::Isg1, &self.input);
        let osg1 = write_signature_chunk(SignatureKind::Osg1, &self.output);
        let psv = self.psv.as_ref().map(Psv0::write);
        let mut program = Vec::with_capacity(DXIL_PROGRAM_HEADER_SIZE + self.bitcode.len() + 3);
        let words = (DXIL_PROGRAM_HEADER_SIZE + self.bitcode.len()).div_ceil(4) as u32;
        for w in [self.program_version, words] {
            program.extend_from_slice(&w.to_le_bytes());
        }
        program.extend_from_slice(b"DXIL");
        for w in [self.dxil_version, 16, self.bitcode.len() as u32] {
            program.extend_from_slice(&w.to_le_bytes());
        }
        program.extend_from_slice(&self.bitcode);
        program.resize(words as usize * 4, 0);
        let mut parts: Vec<([u8; 4], &[u8])> = Vec::new();
        if let Some(s) = &sfi0 {
            parts.push((FourCC::SFI0.0, s));
        }
        parts.push((FourCC::ISG1.0, &isg1));
        parts.push((FourCC::OSG1.0, &osg1));
        if let Some(p) = &psv {
            parts.push((FourCC::PSV0.0, p));
        }
        parts.push((FourCC::DXIL.0, &program));
        let mut out = write_contiguous(&parts);
        let digest = match self.digest.unwrap_or(DigestKind::Valid) {
            DigestKind::Valid => checksum(&out),
            DigestKind::Bypass => [1; 16],
            DigestKind::Preview => [2; 16],
            DigestKind::Zero => [0; 16],
            DigestKind::Mismatch => {
                let mut d = checksum(&out);
                d[0] ^= 0xff;
                d
            }
        };
        out[4..20].copy_from_slice(&digest);
        out
    }
}

/// A container whose parts follow each other with no padding (dxc's layout), digest zeroed.
///
/// # Panics
///
/// When the container would exceed 4 GiB.
pub fn write_contiguous(parts: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let table_end = HEADER_SIZE + 4 * parts.len();
    let total = table_end + parts.iter().map(|(_, d)| 8 + d.len()).sum::<usize>();
    let total32 = u32::try_from(total).expect("DXIL container larger than 4 GiB");
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&FourCC::DXBC.0);
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&total32.to_le_bytes());
    out.extend_from_slice(&(parts.len() as u32).to_le_bytes());
    let mut offset = table_end;
    for (_, d) in parts {
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += 8 + d.len();
    }
    for (tag, d) in parts {
        out.extend_from_slice(tag);
        out.extend_from_slice(&(d.len() as u32).to_le_bytes());
        out.extend_from_slice(d);
    }
    out
}
