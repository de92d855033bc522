//! What `inlay shader FILE.dxbc` shows: an fxc-like listing ([`listing`]) and a record
//! ([`ShaderReport`], serialisable with the `serde` feature) whose signature elements use the
//! field names and spellings of the corpus records (shared/corpus/README.md).

use std::fmt::Write as _;

use super::dxil::{DigestKind, DxilShaderKind, PsvSignatureElement};
use super::sigchunk::parse_signature_at;
use super::signature::{SignatureElement, SystemValue, mask_letters};
use super::{
    Container, ContainerRules, DxbcError, ShaderStage, Signature, SignatureKind, SignatureRole,
};

/// One signature element as the corpus records spell it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReportElement {
    /// Name as stored (case preserved).
    pub semantic_name: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// Register number; `None` (null) for elements without one (fxc prints `N/A`).
    pub register: Option<u32>,
    /// Declared components as letters in xyzw order; `None` (null) for `N/A` rows.
    pub mask: Option<String>,
    /// Components fxc lists as used, letters in xyzw order (`""` when none): for inputs the read
    /// mask, for outputs the components not in the never-written mask (fxc's convention).
    /// `None` (null) for `N/A` rows.
    pub used: Option<String>,
    /// System value as fxc prints it (`NONE`, `POS`, `VERTID`, …; `SV<n>` for unknown codes).
    pub system_value: String,
    /// `float`, `uint`, `int` (or `unknown`).
    pub component_type: String,
    /// `min16f`, `min2_8f`, `min16i`, `min16u`; omitted for default precision.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub min_precision: Option<String>,
    /// Geometry-shader stream; omitted when 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub stream: u32,
    /// For `N/A` rows: the special register fxc prints instead of a number (`primID`,
    /// `oDepth`, …).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub listing_register: Option<String>,
    /// For `N/A` rows: `YES` or `NO`, what fxc prints instead of a used mask.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub listing_used: Option<String>,
}

#[cfg(feature = "serde")]
fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// One chunk: tag and data size.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReportChunk {
    /// The tag as text.
    pub tag: String,
    /// Data size in bytes (without the 8-byte chunk header).
    pub size: usize,
}

/// The `container` object of a report, named as in the corpus records.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReportContainer {
    /// Byte length (the size field at offset 24).
    pub size: usize,
    /// The stored 16-byte digest, hex.
    pub checksum: String,
    /// Whether the stored digest equals the DXBC checksum of the blob.
    pub checksum_matches: bool,
    /// The recomputed digest, hex (equal to `checksum` when it matches).
    pub computed_checksum: String,
    /// What the stored digest is: `valid`, `bypass`, `preview`, `zero` or `mismatch`
    /// ([`DigestKind`]).
    pub digest_kind: String,
    /// The layout rules the container was read with: `fxc` or `dxc` ([`ContainerRules`]).
    pub rules: String,
}

/// One `PSV0` signature element.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReportPsvElement {
    /// Semantic name.
    pub semantic_name: String,
    /// One semantic index per row.
    pub semantic_indexes: Vec<u32>,
    /// First row; `None` (null) when not allocated.
    pub start_row: Option<u8>,
    /// First column; `None` (null) when not allocated.
    pub start_col: Option<u8>,
    /// Columns per row.
    pub cols: u8,
    /// `PSVSemanticKind` name (`Arbitrary`, `VertexID`, …; `kind<n>` for unknown codes).
    pub semantic_kind: String,
    /// dxc's component type spelling (`float32`, `uint32`, `float16`, …).
    pub component_type: String,
}

/// The `PSV0` part.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReportPsv {
    /// Runtime-info version (0–4; sizes beyond version 4 read as 4).
    pub version: Option<u32>,
    /// Runtime-info size in bytes.
    pub runtime_info_size: u32,
    /// PSV0's shader stage (version 1 and later).
    pub stage: Option<String>,
    /// Whether the shader reads `SV_ViewID` (version 1 and later).
    pub uses_view_id: Option<bool>,
    /// Input signature elements.
    pub inputs: Vec<ReportPsvElement>,
    /// Number of output signature elements.
    pub output_count: usize,
    /// Number of patch-constant / primitive signature elements.
    pub patch_constant_or_primitive_count: usize,
    /// Entry function name (version 3 and later).
    pub entry_function_name: Option<String>,
}

/// What a DXIL container adds.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReportDxil {
    /// DXIL version, `major.minor`.
    pub dxil_version: String,
    /// Bitcode size in bytes.
    pub bitcode_size: u32,
    /// The `HASH` part: flags and digest, hex; `None` (null) without one.
    pub shader_hash: Option<String>,
    /// `SFI0` feature flags, hex; `None` (null) without the part.
    pub feature_flags: Option<String>,
    /// The `PSV0` part; `None` (null) without one.
    pub psv: Option<ReportPsv>,
    /// System values read outside the signature (`SV_ViewID`, the SM 6.8 start locations).
    pub implicit_inputs: Vec<String>,
}

/// Everything `inlay shader` reports about a container.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ShaderReport {
    /// `vertex`, `pixel`, …; `None` (null) without a program chunk (signature-only blobs).
    pub stage: Option<String>,
    /// `4_0`, `5_0`, `4_0_level_9_1`, …; `None` (null) without a program chunk.
    pub shader_model: Option<String>,
    /// The fxc target that produces this stage and model (`vs_4_0_level_9_3`, `ps_5_0`, …),
    /// as the corpus records' `profile`; `None` (null) without a program chunk.
    pub profile: Option<String>,
    /// The container facts under the corpus records' names (`container.size`,
    /// `container.checksum`, `container.checksum_matches`) and the recomputed digest; each
    /// said once (issue 17: they were repeated at the top level).
    pub container: ReportContainer,
    /// The DX9 profile of the embedded level-9 program (`vs_2_0`, `vs_2_x`, …); `None` (null)
    /// without an `Aon9` chunk (or when its program is unreadable).
    pub level9_bytecode: Option<String>,
    /// Whether an `Aon9` chunk is present.
    pub has_level9_bytecode: bool,
    /// Tag of the chunk the input signature was read from (`ISGN`/`ISG1`), if any.
    pub input_signature_chunk: Option<String>,
    /// Input signature; `None` (null) when there is no `ISGN`/`ISG1` chunk.
    pub input_signature: Option<Vec<ReportElement>>,
    /// Tag of the chunk the output signature was read from, if any.
    pub output_signature_chunk: Option<String>,
    /// Output signature; `None` (null) when there is no output-signature chunk.
    pub output_signature: Option<Vec<ReportElement>>,
    /// Tag of the patch-constant chunk, if any.
    pub patch_constant_signature_chunk: Option<String>,
    /// Patch-constant signature; `None` (null) when absent.
    pub patch_constant_signature: Option<Vec<ReportElement>>,
    /// Every chunk in table order.
    pub chunks: Vec<ReportChunk>,
    /// The DXIL parts; `None` (null) for a DXBC container.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub dxil: Option<ReportDxil>,
}

fn hex(d: &[u8]) -> String {
    d.iter()
        .fold(String::with_capacity(2 * d.len()), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Whether elements of a chunk are listed as outputs (used = not never-written): output
/// signatures, and patch constants except in a domain shader (where they are inputs).
fn is_output(kind: SignatureKind, stage: Option<ShaderStage>) -> bool {
    match kind.role() {
        SignatureRole::Input => false,
        SignatureRole::Output => true,
        SignatureRole::PatchConstant => stage != Some(ShaderStage::Domain),
    }
}

/// The special register fxc prints for an element without a register number.
fn special_register(e: &SignatureElement, output: bool) -> &'static str {
    match (e.system_value, output) {
        (SystemValue::PRIMITIVE_ID, _) => "primID",
        (SystemValue::DEPTH, _) => "oDepth",
        (SystemValue::COVERAGE, true) => "oMask",
        (SystemValue::COVERAGE, false) => "vCoverage",
        (SystemValue::DEPTH_GREATER_EQUAL, _) => "oDepthGE",
        (SystemValue::DEPTH_LESS_EQUAL, _) => "oDepthLE",
        (SystemValue::STENCIL_REF, _) => "oStencilRef",
        (SystemValue::INNER_COVERAGE, _) => "vInnerCoverage",
        _ => "N/A",
    }
}

/// The used bits fxc lists for an element.
fn used_bits(e: &SignatureElement, output: bool) -> u8 {
    if output {
        !e.read_write_mask & 0xf
    } else {
        e.read_write_mask & 0xf
    }
}

fn system_value_name(e: &SignatureElement) -> String {
    e.system_value
        .fxc_name()
        .map(str::to_string)
        .unwrap_or_else(|| format!("SV{}", e.system_value.0))
}

impl ReportElement {
    /// Converts a signature element; `output` selects fxc's output convention for `used`.
    pub fn new(e: &SignatureElement, output: bool) -> ReportElement {
        let na = e.register().is_none();
        let used = used_bits(e, output);
        ReportElement {
            semantic_name: e.semantic_name.clone(),
            semantic_index: e.semantic_index,
            register: e.register(),
            mask: (!na).then(|| mask_letters(e.mask & 0xf)),
            used: (!na).then(|| mask_letters(used)),
            system_value: system_value_name(e),
            component_type: e.component_type.fxc_name().to_string(),
            min_precision: e.min_precision.corpus_name().map(str::to_string),
            stream: e.stream,
            listing_register: na.then(|| special_register(e, output).to_string()),
            listing_used: na.then(|| if used != 0 { "YES" } else { "NO" }.to_string()),
        }
    }
}

type ParsedSignature = Option<(SignatureKind, Signature)>;

fn parsed(chosen: Option<(SignatureKind, super::Chunk<'_>)>) -> Result<ParsedSignature, DxbcError> {
    match chosen {
        Some((k, chunk)) => Ok(Some((
            k,
            parse_signature_at(k, chunk.data, chunk.data_offset())?,
        ))),
        None => Ok(None),
    }
}

struct Parsed {
    stage: Option<ShaderStage>,
    input: ParsedSignature,
    output: ParsedSignature,
    patch: ParsedSignature,
}

fn parse_all(c: &Container<'_>) -> Result<Parsed, DxbcError> {
    let dxil_stage = || {
        let kind = c.dxil_program()?.ok()?.kind();
        // DXIL kinds 0-5 are the DXBC program types in another order.
        [
            (DxilShaderKind::PIXEL, ShaderStage::Pixel),
            (DxilShaderKind::VERTEX, ShaderStage::Vertex),
            (DxilShaderKind::GEOMETRY, ShaderStage::Geometry),
            (DxilShaderKind::HULL, ShaderStage::Hull),
            (DxilShaderKind::DOMAIN, ShaderStage::Domain),
            (DxilShaderKind::COMPUTE, ShaderStage::Compute),
        ]
        .into_iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, s)| s)
    };
    Ok(Parsed {
        stage: c.shader_version().map(|v| v.stage).or_else(dxil_stage),
        input: parsed(c.input_signature_chunk())?,
        output: parsed(c.output_signature_chunk())?,
        patch: parsed(c.patch_constant_signature_chunk())?,
    })
}

fn report_elements(
    sig: &ParsedSignature,
    stage: Option<ShaderStage>,
) -> Option<Vec<ReportElement>> {
    sig.as_ref().map(|(k, s)| {
        let out = is_output(*k, stage);
        s.elements
            .iter()
            .map(|e| ReportElement::new(e, out))
            .collect()
    })
}

fn report_psv_element(e: &PsvSignatureElement) -> ReportPsvElement {
    ReportPsvElement {
        semantic_name: e.semantic_name.clone(),
        semantic_indexes: e.semantic_indexes.clone(),
        start_row: e.start_row,
        start_col: e.start_col,
        cols: e.cols,
        semantic_kind: e
            .semantic_kind
            .name()
            .map(str::to_string)
            .unwrap_or_else(|| format!("kind{}", e.semantic_kind.0)),
        component_type: e.component_type.dxil_name().to_string(),
    }
}

fn report_dxil(c: &Container<'_>) -> Result<Option<ReportDxil>, DxbcError> {
    let Some(program) = c.dxil_program() else {
        return Ok(None);
    };
    let program = program?;
    let psv = c.psv0().transpose()?;
    Ok(Some(ReportDxil {
        dxil_version: program.dxil_version_string(),
        bitcode_size: program.bitcode_size,
        shader_hash: c
            .shader_hash()
            .transpose()?
            .map(|h| format!("{:08x}:{}", h.flags, hex(&h.digest))),
        feature_flags: c
            .feature_flags()
            .transpose()?
            .map(|f| format!("{:#x}", f.0)),
        psv: psv.map(|p| ReportPsv {
            version: p.version(),
            runtime_info_size: p.runtime_info_size,
            stage: p.shader_stage().map(|k| k.to_string()),
            uses_view_id: p.uses_view_id(),
            inputs: p.inputs.iter().map(report_psv_element).collect(),
            output_count: p.outputs.len(),
            patch_constant_or_primitive_count: p.patch_constant_or_primitive.len(),
            entry_function_name: p.entry_function_name(),
        }),
        implicit_inputs: c
            .implicit_inputs()
            .iter()
            .map(|i| i.semantics().to_string())
            .collect(),
    }))
}

impl ShaderReport {
    /// Builds the report; fails when a signature chunk or a DXIL part (`DXIL`, `PSV0`,
    /// `HASH`, `SFI0`) is malformed.
    pub fn new(c: &Container<'_>) -> Result<ShaderReport, DxbcError> {
        let p = parse_all(c)?;
        let dxil = report_dxil(c)?;
        let tag = |s: &ParsedSignature| s.as_ref().map(|(k, _)| k.tag().to_string());
        Ok(ShaderReport {
            stage: c.stage_name(),
            shader_model: c.shader_model_string(),
            profile: c.profile(),
            container: ReportContainer {
                size: c.size(),
                checksum: hex(&c.digest()),
                checksum_matches: c.checksum_matches(),
                computed_checksum: hex(&c.computed_digest()),
                digest_kind: c.digest_kind().as_str().to_string(),
                rules: c.rules().as_str().to_string(),
            },
            level9_bytecode: c.level9_bytecode().and_then(|l| l.profile()),
            has_level9_bytecode: c.has_level9_bytecode(),
            input_signature_chunk: tag(&p.input),
            input_signature: report_elements(&p.input, p.stage),
            output_signature_chunk: tag(&p.output),
            output_signature: report_elements(&p.output, p.stage),
            patch_constant_signature_chunk: tag(&p.patch),
            patch_constant_signature: report_elements(&p.patch, p.stage),
            chunks: c
                .chunks()
                .map(|ch| ReportChunk {
                    tag: ch.tag.to_string(),
                    size: ch.data.len(),
                })
                .collect(),
            dxil,
        })
    }

    /// Parses a blob (fxc's rules for DXBC, dxc's for a DXIL container:
    /// [`Container::parse_detected`]) and builds its report.
    pub fn from_bytes(bytes: &[u8]) -> Result<ShaderReport, DxbcError> {
        ShaderReport::new(&Container::parse_detected(bytes)?)
    }
}

/// Positional mask letters as fxc prints them: one column per component, blank when absent
/// (`0b0011` → `"xy  "`, `0b0101` → `"x z "`).
pub fn positional_mask(mask: u8) -> String {
    "xyzw"
        .chars()
        .enumerate()
        .map(|(i, c)| if mask & (1 << i) != 0 { c } else { ' ' })
        .collect()
}

fn format_column(e: &SignatureElement) -> String {
    match e.min_precision.corpus_name() {
        Some(p) => p.to_string(),
        None => e.component_type.fxc_name().to_string(),
    }
}

fn write_table(out: &mut String, title: &str, sig: &ParsedSignature, stage: Option<ShaderStage>) {
    let _ = writeln!(out, "//\n// {title} signature:\n//");
    let Some((kind, s)) = sig else {
        let _ = writeln!(out, "// (no {title} signature chunk)");
        return;
    };
    if s.elements.is_empty() {
        let _ = writeln!(out, "// no {title}");
        return;
    }
    let output = is_output(*kind, stage);
    let _ = writeln!(
        out,
        "// Name                 Index   Mask Register SysValue  Format   Used"
    );
    let _ = writeln!(
        out,
        "// -------------------- ----- ------ -------- -------- ------- ------"
    );
    for e in &s.elements {
        let name = if e.stream != 0 {
            format!("m{}:{}", e.stream, e.semantic_name)
        } else {
            e.semantic_name.clone()
        };
        let used = used_bits(e, output);
        let (mask, reg, used) = match e.register() {
            Some(r) => (
                positional_mask(e.mask),
                r.to_string(),
                positional_mask(used & 0xf),
            ),
            None => (
                "N/A".to_string(),
                special_register(e, output).to_string(),
                if used != 0 { "YES" } else { "NO" }.to_string(),
            ),
        };
        let line = format!(
            "// {:<20} {:>5} {:>6} {:>8} {:>8} {:>7} {:>6}",
            name,
            e.semantic_index,
            mask,
            reg,
            system_value_name(e),
            format_column(e),
            used
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// Renders an fxc-like listing: program version, stage and shader model, digest status, the
/// chunks, then the input, output and patch-constant signatures as fxc's tables (Name, Index,
/// Mask, Register, SysValue, Format, Used; positional mask letters; `N/A` and the special
/// register for elements without a register number).
pub fn listing(c: &Container<'_>) -> Result<String, DxbcError> {
    let p = parse_all(c)?;
    let dxil = report_dxil(c)?;
    let mut out = String::new();
    match c.shader_version() {
        None if dxil.is_some() => {
            let prog = c.dxil_program().and_then(Result::ok);
            let _ = writeln!(
                out,
                "// {} shader, shader model {} ({}, DXIL {})",
                c.stage_name().unwrap_or_default(),
                c.shader_model_string().unwrap_or_default(),
                c.profile().unwrap_or_default(),
                prog.map(|p| p.dxil_version_string()).unwrap_or_default()
            );
        }
        Some(v) => {
            let model = c.shader_model_string().unwrap_or_default();
            let _ = writeln!(
                out,
                "// {} shader, shader model {model} ({}{})",
                v.stage,
                v,
                match c.level9_bytecode().and_then(|l| l.profile()) {
                    Some(p) => format!(", level-9 code {p}"),
                    None => String::new(),
                }
            );
        }
        None => {
            let _ = writeln!(out, "// no program chunk (signature-only blob)");
        }
    }
    let stored = c.digest();
    let sentinel = match c.digest_kind() {
        DigestKind::Bypass => Some("BYPASS sentinel: D3D12 runs the shader without a hash check"),
        DigestKind::Preview => Some(
            "PREVIEW sentinel: D3D12 runs it only with experimental shader models in developer mode",
        ),
        DigestKind::Zero => Some("zeroed: unsigned, D3D12 refuses it"),
        _ => None,
    };
    if c.checksum_matches() {
        let _ = writeln!(out, "// digest {} (valid)", hex(&stored));
    } else if let Some(what) = sentinel {
        let _ = writeln!(out, "// digest {} ({what})", hex(&stored));
    } else {
        let _ = writeln!(
            out,
            "// digest {} (INVALID: computed {})",
            hex(&stored),
            hex(&c.computed_digest())
        );
    }
    let _ = writeln!(
        out,
        "// container {} bytes, {}:",
        c.size(),
        crate::diag::count(c.chunk_count() as u64, "chunk", "chunks")
    );
    for ch in c.chunks() {
        let _ = writeln!(out, "//   {} {} bytes", ch.tag, ch.data.len());
    }
    if c.rules() == ContainerRules::Dxc {
        let _ = writeln!(out, "// read with dxc's container rules (DXIL container)");
    }
    if let Some(d) = &dxil {
        if let Some(psv) = &d.psv {
            let _ = writeln!(
                out,
                "// PSV0 runtime info v{} ({} bytes){}",
                psv.version.unwrap_or(0),
                psv.runtime_info_size,
                psv.stage
                    .as_ref()
                    .map(|s| format!(", stage {s}"))
                    .unwrap_or_default()
            );
        }
        if !d.implicit_inputs.is_empty() {
            let _ = writeln!(
                out,
                "// reads outside its signature: {}",
                d.implicit_inputs.join(", ")
            );
        }
    }
    write_table(&mut out, "Input", &p.input, p.stage);
    write_table(&mut out, "Output", &p.output, p.stage);
    if p.patch.is_some() {
        write_table(&mut out, "Patch Constant", &p.patch, p.stage);
    }
    let _ = writeln!(out, "//");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::{
        ComponentType, MinPrecision, NO_REGISTER, SignatureElement, SystemValue, write_container,
        write_signature_chunk,
    };
    use super::*;

    #[allow(clippy::too_many_arguments)]
    fn el(
        name: &str,
        index: u32,
        sv: u32,
        ty: u32,
        reg: u32,
        mask: u8,
        rw: u8,
        mp: u32,
    ) -> SignatureElement {
        SignatureElement {
            stream: 0,
            semantic_name: name.to_string(),
            semantic_index: index,
            system_value: SystemValue(sv),
            component_type: ComponentType(ty),
            register: reg,
            mask,
            read_write_mask: rw,
            min_precision: MinPrecision(mp),
        }
    }

    /// A geometry shader (gs_4_0) with an N/A input row and a min-precision input.
    fn gs_blob() -> Vec<u8> {
        let input = Signature {
            elements: vec![
                el("SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0),
                el("TEXCOORD", 0, 0, 3, 1, 0x3, 0x1, 1),
                el("SV_PrimitiveID", 0, 7, 1, NO_REGISTER, 0x1, 0x1, 0),
            ],
        };
        let output = Signature {
            elements: vec![
                el("SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0),
                el("TEXCOORD", 0, 0, 3, 1, 0x7, 0x8, 0),
            ],
        };
        let shdr: Vec<u8> = [0x0002_0040u32, 2]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let isg1 = write_signature_chunk(SignatureKind::Isg1, &input);
        let osgn = write_signature_chunk(SignatureKind::Osgn, &output);
        write_container(&[(*b"SHDR", &shdr), (*b"ISG1", &isg1), (*b"OSGN", &osgn)])
    }

    #[test]
    fn positional_masks() {
        assert_eq!(positional_mask(0b0011), "xy  ");
        assert_eq!(positional_mask(0b0101), "x z ");
        assert_eq!(positional_mask(0b1110), " yzw");
        assert_eq!(positional_mask(0), "    ");
    }

    #[test]
    fn listing_is_exact() {
        let blob = gs_blob();
        let c = Container::parse(&blob).unwrap();
        let text = listing(&c).unwrap();
        let digest = hex(&c.digest());
        let want = format!(
            "// geometry shader, shader model 4_0 (gs_4_0)
// digest {digest} (valid)
// container 296 bytes, 3 chunks:
//   SHDR 8 bytes
//   ISG1 140 bytes
//   OSGN 80 bytes
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
// TEXCOORD                 0   xy          1     NONE  min16f   x
// SV_PrimitiveID           0    N/A   primID   PRIMID    uint    YES
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// TEXCOORD                 0   xyz         1     NONE   float   xyz
//
"
        );
        assert_eq!(text, want);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_uses_corpus_field_names() {
        let blob = gs_blob();
        let r = ShaderReport::from_bytes(&blob).unwrap();
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["stage"], "geometry");
        assert_eq!(v["shader_model"], "4_0");
        assert_eq!(
            Container::parse(&blob).unwrap().profile().as_deref(),
            Some("gs_4_0")
        );
        assert_eq!(v["container"]["checksum_matches"], true);
        assert!(v.get("checksum").is_none() && v.get("size").is_none());
        assert_eq!(v["level9_bytecode"], serde_json::Value::Null);
        assert_eq!(v["input_signature_chunk"], "ISG1");
        let want_in = serde_json::json!([
            {"semantic_name": "SV_Position", "semantic_index": 0, "register": 0, "mask": "xyzw",
             "used": "", "system_value": "POS", "component_type": "float"},
            {"semantic_name": "TEXCOORD", "semantic_index": 0, "register": 1, "mask": "xy",
             "used": "x", "system_value": "NONE", "component_type": "float",
             "min_precision": "min16f"},
            {"semantic_name": "SV_PrimitiveID", "semantic_index": 0, "register": null,
             "mask": null, "used": null, "system_value": "PRIMID", "component_type": "uint",
             "listing_register": "primID", "listing_used": "YES"},
        ]);
        assert_eq!(v["input_signature"], want_in);
        assert_eq!(v["output_signature"][1]["used"], "xyz");
        assert_eq!(v["patch_constant_signature"], serde_json::Value::Null);
        assert_eq!(
            v["chunks"],
            serde_json::json!([
                {"tag": "SHDR", "size": 8}, {"tag": "ISG1", "size": 140}, {"tag": "OSGN", "size": 80}
            ])
        );
    }

    #[test]
    fn bad_digest_and_signature_only_blob_are_reported() {
        let mut blob = super::super::signature_blob(&Signature {
            elements: vec![el("POSITION", 0, 0, 3, 0, 0x7, 0x7, 0)],
        });
        blob[4] ^= 1;
        let c = Container::parse(&blob).unwrap();
        let text = listing(&c).unwrap();
        assert!(text.starts_with("// no program chunk (signature-only blob)\n// digest "));
        assert!(text.contains(&format!(
            "(INVALID: computed {})",
            hex(&c.computed_digest())
        )));
        let r = ShaderReport::new(&c).unwrap();
        assert_eq!(r.stage, None);
        assert_eq!(r.shader_model, None);
        assert!(!r.container.checksum_matches);
        assert_eq!(r.output_signature, None);
    }
}
