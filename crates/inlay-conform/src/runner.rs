//! The suite on a real Direct3D 11: the folder that `inlay conform --export-runner DIR` writes
//! for the Windows runner (`conformance/runner/`), and the report the runner writes back
//! (`inlay conform --import-report`).
//!
//! The runner is a C program that links nothing of inlay: everything it needs is in the
//! folder, as plain text (`cases.txt`, grammar in `conformance/runner/README.md`) and DXBC
//! files. Per case it calls `CreateInputLayout` with the case's exact arguments (a NULL array,
//! an explicit `NumElements`, a NULL out pointer for validate-only) on the case's bytecode;
//! per draw it creates the layout against a pass-through vertex shader that inlay writes here
//! ([`passthrough_vertex_shader`]: `vs_4_0` tokens, no compiler needed), draws through a
//! pass-through geometry shader ([`passthrough_geometry_shader`]) that streams every vertex of
//! every primitive out in geometry-shader order, and compares the captured records bit for bit
//! with the expectation written beside it. That expectation is the case's own (`expect_draw`),
//! in that order; it is never inlay's answer, except where a case lists no `primitives`: then
//! the grouping of the case's vertices into primitives is inlay's (its documented choices).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use inlay::dxbc::signature::{
    ComponentType, MinPrecision, Signature, SignatureElement, SystemValue,
};
use inlay::dxbc::{SignatureKind, write_container, write_signature_chunk};
use inlay::{Api, Container, DrawCall, FeatureLevel, Topology};
use serde::Deserialize;

use crate::schema::{Case, ExpectDraw};
use crate::{FileError, Outcome, RunOptions, collect_files, engine, load_file};

/// First line of `cases.txt`: the folder's grammar and its version.
pub const RUNNER_FORMAT: &str = "inlay-runner 1";
/// The `format` field of a runner report.
pub const REPORT_FORMAT: &str = "inlay-runner-report/1";

/// Registers a `vs_4_0` shader may output at feature level 11_0 (`D3D11_VS_OUTPUT_REGISTER_COUNT`).
const OUTPUTS_11: usize = 32;
/// …and at 10_0/10_1 (`D3D10_VS_OUTPUT_REGISTER_COUNT`).
const OUTPUTS_10: usize = 16;

/// What an export wrote.
#[derive(Clone, Debug, Default)]
pub struct Exported {
    /// Cases written for the runner (creation and draw cases, unsupported ones included).
    pub cases: usize,
    /// Of these, cases with a draw the runner executes.
    pub draws: usize,
    /// Cases the runner cannot execute, with the reason (written as `unsupported`).
    pub unsupported: Vec<(String, String)>,
    /// Cases not written: ENCODE cases (no runtime call) and cases whose shader file is absent.
    pub skipped: Vec<(String, String)>,
    /// Case files that did not load.
    pub errors: Vec<FileError>,
}

/// Why an export failed as a whole.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The output folder could not be written.
    #[error("cannot write {path}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Two case files with the same file name hold a case of the same name (case ids are
    /// `file name#case name`).
    #[error("case id `{0}` occurs twice: case ids are `file#case` and must be unique")]
    DuplicateId(String),
}

/// Writes the runner's folder for the case files under `paths` into `dir` (created; files in
/// it are replaced).
pub fn export_runner(
    paths: &[PathBuf],
    dir: &Path,
    options: &RunOptions,
) -> Result<Exported, ExportError> {
    let io_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ExportError::Io { path, source }
    };
    let shaders = dir.join("shaders");
    std::fs::create_dir_all(&shaders).map_err(io_err(&shaders))?;
    let (files, errors) = collect_files(paths);
    let mut out = Exported {
        errors,
        ..Exported::default()
    };
    let mut text = format!("{RUNNER_FORMAT}\n");
    let mut ids = BTreeSet::new();
    let mut shader_count = 0usize;
    for path in files {
        let file = match load_file(&path) {
            Ok(f) => f,
            Err(e) => {
                out.errors.push(e);
                continue;
            }
        };
        let base = path.parent().unwrap_or(Path::new("."));
        let file_name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for case in &file.encode_cases {
            out.skipped.push((
                format!("{file_name}#{}", case.name),
                "an ENCODE case (no runtime call)".into(),
            ));
        }
        for case in &file.cases {
            let id = format!("{file_name}#{}", case.name);
            if !ids.insert(id.clone()) {
                return Err(ExportError::DuplicateId(id));
            }
            if case.api().is_d3d12() {
                out.skipped.push((id, D3D12_SKIP.into()));
                continue;
            }
            let code = match crate::bytecode(case, base, options) {
                Ok(c) => c,
                Err(Outcome::Skip(why) | Outcome::Fail(why)) => {
                    out.skipped.push((id, why));
                    continue;
                }
                Err(Outcome::Pass) => unreachable!("bytecode never passes"),
            };
            let write = |name: String, bytes: &[u8]| -> Result<String, ExportError> {
                let rel = format!("shaders/{name}.dxbc");
                let p = dir.join(&rel);
                std::fs::write(&p, bytes).map_err(io_err(&p))?;
                Ok(rel)
            };
            shader_count += 1;
            let stem = format!("{shader_count:05}");
            let shader = write(stem.clone(), &code)?;
            let _ = writeln!(text, "case {}", encode_token(&id));
            write_creation(&mut text, case, &shader);
            match plan_draw(case, &code) {
                Ok(None) => {}
                Ok(Some(plan)) => {
                    out.draws += 1;
                    write_draw_header(&mut text, case, &plan);
                    for (g, group) in plan.groups.iter().enumerate() {
                        let vs = write(format!("{stem}-g{g}-vs"), &group.vertex_shader)?;
                        let gs = write(format!("{stem}-g{g}-gs"), &group.geometry_shader)?;
                        write_group(&mut text, &vs, &gs, group);
                    }
                }
                Err(reason) => {
                    let _ = writeln!(text, "unsupported {reason}");
                    out.unsupported.push((id.clone(), reason));
                }
            }
            text.push_str("end\n");
            out.cases += 1;
        }
    }
    let p = dir.join("cases.txt");
    std::fs::write(&p, text).map_err(io_err(&p))?;
    Ok(out)
}

/// Why the runner skips a Direct3D 12 case (schema 3): it calls d3d11.dll's CreateInputLayout
/// and draws; a D3D12 case needs CreateGraphicsPipelineState and a command list.
pub const D3D12_SKIP: &str =
    "a Direct3D 12 case (the runner calls d3d11.dll; D3D12 pipeline states are not run)";

/// `%XX` for bytes outside `!`..=`~` and for `%`, so an id is one token.
fn encode_token(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_graphic() && b != b'%' {
            o.push(b as char);
        } else {
            let _ = write!(o, "%{b:02X}");
        }
    }
    o
}

/// Hex of `bytes`, or `-` for none.
fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "-".into();
    }
    bytes
        .iter()
        .fold(String::with_capacity(2 * bytes.len()), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

fn write_ids(text: &mut String, key: &str, ids: &[u32]) {
    let _ = write!(text, "{key} {}", ids.len());
    for id in ids {
        let _ = write!(text, " {id}");
    }
    text.push('\n');
}

/// The `CreateInputLayout` call and its expectation.
fn write_creation(text: &mut String, case: &Case, shader: &str) {
    let _ = writeln!(text, "api {}", case.api().as_str());
    let _ = writeln!(text, "fl {:x}", case.feature_level().d3d_value());
    match &case.elements {
        None => text.push_str("elements null\n"),
        Some(els) => {
            let _ = writeln!(text, "elements {}", els.len());
            for e in els {
                let d = e.to_desc();
                let _ = writeln!(
                    text,
                    "e {} {} {} {} {} {} {}",
                    d.semantic_name
                        .as_deref()
                        .map_or("-".into(), |n| hex(n.as_bytes())),
                    d.semantic_index,
                    d.format.0,
                    d.input_slot,
                    d.aligned_byte_offset,
                    d.input_slot_class,
                    d.instance_data_step_rate
                );
            }
        }
    }
    let _ = writeln!(text, "num_elements {}", case.num_elements());
    let _ = writeln!(text, "shader {shader}");
    let _ = writeln!(text, "validate_only {}", u8::from(case.validate_only));
    let _ = writeln!(text, "expect {:08x}", case.expect.hresult.code());
    write_ids(text, "errors", &case.expect.errors);
    write_ids(text, "warnings", &case.expect.warnings);
    write_ids(text, "absent", &case.expect.absent);
}

/// A draw as the runner executes it: one or more passes (groups) of the same draw, each
/// through its own pass-through shader, so that no pass outputs more registers than the
/// feature level allows.
struct DrawPlan {
    topology: Topology,
    /// Vertices a primitive hands the geometry shader (1, 2, 3, 4 or 6).
    prim_size: usize,
    groups: Vec<Group>,
}

/// One pass: the shaders, and the records stream output must deliver.
struct Group {
    vertex_shader: Vec<u8>,
    geometry_shader: Vec<u8>,
    /// Case registers fed through this pass, in output order (outputs 1…).
    registers: Vec<u32>,
    /// Per output register (after the IDs), the lanes holding floats (for `tolerance_ulp`).
    float_lanes: Vec<u8>,
    /// Per record: vertex ID, instance ID, then four lanes per register (`None`: any value).
    records: Vec<(u32, u32, Vec<Option<u32>>)>,
}

/// Plans the draw of `case`: `Ok(None)` for a creation-only case, `Err(reason)` for a draw the
/// runner cannot execute.
fn plan_draw(case: &Case, code: &[u8]) -> Result<Option<DrawPlan>, String> {
    let (Some(draw), Some(expect)) = (&case.draw, &case.expect_draw) else {
        // Creation alone: D3D11 on d3d11.dll, D3D10/D3D10.1 on d3d10.dll/d3d10_1.dll.
        return Ok(None);
    };
    if case.api() != Api::D3D11 {
        return Err(format!(
            "the runner draws through d3d11.dll only, and this is a {} draw",
            case.api().as_str()
        ));
    }
    let level = case.feature_level();
    if level.is_level9() {
        return Err("a draw at 9_x needs a level-9 vertex shader (4_0_level_9_x), which the runner does not write".into());
    }
    if draw.topology.is_patch_list() {
        return Err("a patch-list draw needs hull and domain shaders".into());
    }
    if matches!(draw.call.call(), DrawCall::DrawAuto { .. }) {
        return Err(
            "DrawAuto needs a buffer filled by stream output, which the runner does not replay"
                .into(),
        );
    }
    if draw.vertex_buffers.iter().any(|vb| vb.data.is_empty())
        || draw
            .index_buffer
            .as_ref()
            .is_some_and(|ib| ib.data.is_empty())
    {
        return Err(
            "a zero-byte buffer cannot be created (D3D11_BUFFER_DESC.ByteWidth is 0)".into(),
        );
    }
    let signature = Container::parse(code)
        .ok()
        .and_then(|c| c.input_signature().ok().flatten())
        .ok_or("the case's bytecode has no readable input signature")?;
    // The registers the expectation checks, each fed by exactly one ordinary signature entry.
    let checked: BTreeSet<u32> = expect
        .vertices
        .iter()
        .flat_map(|v| v.registers.keys().copied())
        .collect();
    let mut inputs: Vec<(u32, SignatureElement)> = Vec::new();
    for &r in &checked {
        let at: Vec<&SignatureElement> = signature
            .elements
            .iter()
            .filter(|e| e.register() == Some(r))
            .collect();
        match at.as_slice() {
            [e] if e.system_value == SystemValue::UNDEFINED => inputs.push((r, (*e).clone())),
            [e] if matches!(
                e.system_value,
                SystemValue::VERTEX_ID | SystemValue::INSTANCE_ID
            ) =>
            {
                // Checked through the IDs every record carries.
            }
            [] => {
                return Err(format!(
                    "register v{r} is checked but no signature entry names it"
                ));
            }
            [_] => {
                return Err(format!(
                    "register v{r} holds a system value other than the IDs"
                ));
            }
            _ => return Err(format!("register v{r} packs several signature entries")),
        }
    }
    let per_group = if level >= FeatureLevel::L11_0 {
        OUTPUTS_11
    } else {
        OUTPUTS_10
    } - 1;
    let (prim_size, stream) = so_positions(case, code, draw.topology, expect)?;
    let created = engine::create(case, code);
    let mut groups = Vec::new();
    let chunks: Vec<&[(u32, SignatureElement)]> = if inputs.is_empty() {
        vec![&[]]
    } else {
        inputs.chunks(per_group).collect()
    };
    for chunk in chunks {
        let elements: Vec<SignatureElement> = chunk.iter().map(|(_, e)| e.clone()).collect();
        let registers: Vec<u32> = chunk.iter().map(|(r, _)| *r).collect();
        let float_lanes = registers
            .iter()
            .map(|&r| {
                created
                    .layout
                    .as_ref()
                    .map_or(0, |l| engine::float_lanes(l, r))
            })
            .collect();
        let records = stream
            .iter()
            .map(|&p| {
                let v = &expect.vertices[p];
                let lanes = registers
                    .iter()
                    .flat_map(|r| v.registers.get(r).copied().unwrap_or([None; 4]))
                    .collect();
                (v.vertex_id, v.instance_id, lanes)
            })
            .collect();
        groups.push(Group {
            vertex_shader: passthrough_vertex_shader(&elements),
            geometry_shader: passthrough_geometry_shader(draw.topology, elements.len()),
            registers,
            float_lanes,
            records,
        });
    }
    Ok(Some(DrawPlan {
        topology: draw.topology,
        prim_size,
        groups,
    }))
}

/// The positions in the case's vertex stream in the order the runner's geometry shader
/// streams them out: every primitive's vertices in the order a geometry shader receives them
/// (adjacency vertices included), primitive after primitive.
fn so_positions(
    case: &Case,
    code: &[u8],
    topology: Topology,
    expect: &ExpectDraw,
) -> Result<(usize, Vec<usize>), String> {
    let n = expect.vertices.len();
    let size = topology.vertices_per_primitive();
    if !(1..=6).contains(&size) {
        return Err(format!(
            "topology {} has no geometry-shader form",
            topology.name()
        ));
    }
    let primitives: Vec<Vec<usize>> = match &expect.primitives {
        Some(p) => p.iter().map(|p| p.vertices.clone()).collect(),
        None if topology == Topology::PointList => (0..n).map(|i| vec![i]).collect(),
        None => {
            // The case lists no primitives: group its vertices as inlay's assembler does.
            let created = engine::create(case, code);
            let (Some(layout), Some(draw)) = (&created.layout, &case.draw) else {
                return Err(
                    "the case's layout is not created, so its draw cannot be grouped".into(),
                );
            };
            let target = inlay::Target::new(case.api(), case.feature_level());
            let produced = engine::draw(&target, layout, draw, n, n.saturating_add(1))?;
            produced
                .primitives
                .into_iter()
                .map(|p| p.vertices)
                .collect()
        }
    };
    let mut out = Vec::new();
    for p in &primitives {
        if p.len() != size || p.iter().any(|&pos| pos >= n) {
            return Err("a primitive does not name its vertices in the expected stream".into());
        }
        out.extend_from_slice(p);
    }
    Ok((size, out))
}

fn write_draw_header(text: &mut String, case: &Case, plan: &DrawPlan) {
    let Some(draw) = &case.draw else { return };
    let _ = writeln!(
        text,
        "draw {} {}",
        plan.topology.d3d_value(),
        plan.prim_size
    );
    for vb in &draw.vertex_buffers {
        let _ = writeln!(
            text,
            "vb {} {} {} {}",
            vb.slot,
            vb.stride,
            vb.offset,
            hex(&vb.data)
        );
    }
    if let Some(ib) = &draw.index_buffer {
        let _ = writeln!(
            text,
            "ib {} {} {}",
            ib.format.format().0,
            ib.offset,
            hex(&ib.data)
        );
    }
    let call = draw.call.call();
    let _ = match call {
        DrawCall::Draw {
            vertex_count,
            start_vertex,
        } => writeln!(text, "call draw {vertex_count} {start_vertex}"),
        DrawCall::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        } => writeln!(
            text,
            "call draw_indexed {index_count} {start_index} {base_vertex}"
        ),
        DrawCall::DrawInstanced {
            vertex_count_per_instance,
            instance_count,
            start_vertex,
            start_instance,
        } => writeln!(
            text,
            "call draw_instanced {vertex_count_per_instance} {instance_count} {start_vertex} {start_instance}"
        ),
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        } => writeln!(
            text,
            "call draw_indexed_instanced {index_count_per_instance} {instance_count} {start_index} {base_vertex} {start_instance}"
        ),
        DrawCall::DrawInstancedIndirect { args, offset } => {
            writeln!(text, "call draw_instanced_indirect {offset} {}", hex(args))
        }
        DrawCall::DrawIndexedInstancedIndirect { args, offset } => {
            writeln!(
                text,
                "call draw_indexed_instanced_indirect {offset} {}",
                hex(args)
            )
        }
        DrawCall::DrawAuto { .. } => Ok(()),
    };
    let _ = writeln!(text, "tol {}", case.tolerance_ulp);
}

fn write_group(text: &mut String, vs: &str, gs: &str, group: &Group) {
    let _ = write!(text, "group {vs} {gs} {}", group.registers.len());
    for (r, f) in group.registers.iter().zip(&group.float_lanes) {
        let _ = write!(text, " {r}:{f:x}");
    }
    text.push('\n');
    let _ = writeln!(text, "records {}", group.records.len());
    for (vid, iid, lanes) in &group.records {
        let _ = write!(text, "r {vid:08x} {iid:08x}");
        for lane in lanes {
            match lane {
                Some(bits) => {
                    let _ = write!(text, " {bits:08x}");
                }
                None => text.push_str(" *"),
            }
        }
        text.push('\n');
    }
}

// ---------------------------------------------------------------------------------------------
// The pass-through vertex shader.

/// `D3D10_SB_OPCODE_*` values used below (`d3d11TokenizedProgramFormat.hpp`).
const OP_MOV: u32 = 0x36;
const OP_RET: u32 = 0x3e;
const OP_DCL_INPUT: u32 = 0x5f;
const OP_DCL_INPUT_SGV: u32 = 0x60;
const OP_DCL_OUTPUT: u32 = 0x65;
/// Operand types.
const TYPE_INPUT: u32 = 1;
const TYPE_OUTPUT: u32 = 2;

/// An operand token: four components, one immediate 32-bit index, `type`, and either a write
/// mask (`mask`) or, for a source, the swizzle `swizzle` (`xyzw` = 0xe4).
fn operand_mask(ty: u32, mask: u32) -> u32 {
    2 | (mask << 4) | (ty << 12) | (1 << 20)
}
fn operand_swizzle(ty: u32, swizzle: u32) -> u32 {
    2 | (1 << 2) | (swizzle << 4) | (ty << 12) | (1 << 20)
}
fn operand_select(ty: u32, component: u32) -> u32 {
    2 | (2 << 2) | (component << 4) | (ty << 12) | (1 << 20)
}
fn opcode(op: u32, len: usize) -> u32 {
    op | ((len as u32) << 24)
}

/// A `vs_4_0` shader whose input signature is `inputs` (each re-registered to v0, v1, … in
/// order, all four components declared and read, its semantic, index and component type kept),
/// followed by `SV_VertexID` and `SV_InstanceID`; it writes `o0.xy` = (vertex ID, instance ID)
/// and `o(k+1).xyzw` = `vk.xyzw` with plain `mov`s (bits unchanged), outputs named
/// `TEXCOORD0`…, for [`passthrough_geometry_shader`]. A signed container (ISGN, OSGN, SHDR).
pub fn passthrough_vertex_shader(inputs: &[SignatureElement]) -> Vec<u8> {
    let n = inputs.len() as u32;
    let element =
        |name: &str, index: u32, sv: SystemValue, ty: ComponentType, reg: u32, mask: u8, rw: u8| {
            SignatureElement {
                stream: 0,
                semantic_name: name.to_string(),
                semantic_index: index,
                system_value: sv,
                component_type: ty,
                register: reg,
                mask,
                read_write_mask: rw,
                min_precision: MinPrecision(0),
            }
        };
    let mut isgn: Vec<SignatureElement> = inputs
        .iter()
        .enumerate()
        .map(|(k, e)| {
            element(
                &e.semantic_name,
                e.semantic_index,
                SystemValue::UNDEFINED,
                e.component_type,
                k as u32,
                0xf,
                0xf,
            )
        })
        .collect();
    isgn.push(element(
        "SV_VertexID",
        0,
        SystemValue::VERTEX_ID,
        ComponentType::UINT32,
        n,
        1,
        1,
    ));
    isgn.push(element(
        "SV_InstanceID",
        0,
        SystemValue::INSTANCE_ID,
        ComponentType::UINT32,
        n + 1,
        1,
        1,
    ));

    let mut body: Vec<u32> = Vec::new();
    for k in 0..n {
        body.extend([opcode(OP_DCL_INPUT, 3), operand_mask(TYPE_INPUT, 0xf), k]);
    }
    body.extend([
        opcode(OP_DCL_INPUT_SGV, 4),
        operand_mask(TYPE_INPUT, 1),
        n,
        SystemValue::VERTEX_ID.0,
    ]);
    body.extend([
        opcode(OP_DCL_INPUT_SGV, 4),
        operand_mask(TYPE_INPUT, 1),
        n + 1,
        SystemValue::INSTANCE_ID.0,
    ]);
    body.extend([opcode(OP_DCL_OUTPUT, 3), operand_mask(TYPE_OUTPUT, 0x3), 0]);
    for k in 0..n {
        body.extend([
            opcode(OP_DCL_OUTPUT, 3),
            operand_mask(TYPE_OUTPUT, 0xf),
            k + 1,
        ]);
    }
    body.extend([
        opcode(OP_MOV, 5),
        operand_mask(TYPE_OUTPUT, 1),
        0,
        operand_select(TYPE_INPUT, 0),
        n,
    ]);
    body.extend([
        opcode(OP_MOV, 5),
        operand_mask(TYPE_OUTPUT, 2),
        0,
        operand_select(TYPE_INPUT, 0),
        n + 1,
    ]);
    for k in 0..n {
        body.extend([
            opcode(OP_MOV, 5),
            operand_mask(TYPE_OUTPUT, 0xf),
            k + 1,
            operand_swizzle(TYPE_INPUT, 0xe4),
            k,
        ]);
    }
    body.push(opcode(OP_RET, 1));
    // Version token (vertex shader 4.0), then the length in tokens, header included.
    let mut shdr: Vec<u8> = Vec::with_capacity(4 * (body.len() + 2));
    for t in [0x0001_0040, (body.len() + 2) as u32]
        .into_iter()
        .chain(body)
    {
        shdr.extend_from_slice(&t.to_le_bytes());
    }
    let isgn = write_signature_chunk(SignatureKind::Isgn, &Signature { elements: isgn });
    let osgn = write_signature_chunk(SignatureKind::Osgn, &stage_signature(inputs.len(), 0));
    write_container(&[(*b"ISGN", &isgn), (*b"OSGN", &osgn), (*b"SHDR", &shdr)])
}

/// `D3D10_SB_OPCODE_*` of the geometry shader.
const OP_EMIT: u32 = 0x13;
const OP_DCL_GS_OUTPUT_TOPOLOGY: u32 = 0x5c;
const OP_DCL_GS_INPUT_PRIMITIVE: u32 = 0x5d;
const OP_DCL_MAX_OUTPUT_VERTEX_COUNT: u32 = 0x5e;

/// A two-dimensional input operand `v[vertex][register]` with a write mask (declarations) or
/// a swizzle (sources).
fn operand2_mask(mask: u32) -> u32 {
    2 | (mask << 4) | (TYPE_INPUT << 12) | (2 << 20)
}
fn operand2_swizzle(swizzle: u32) -> u32 {
    2 | (1 << 2) | (swizzle << 4) | (TYPE_INPUT << 12) | (2 << 20)
}

/// The signature the pass-through vertex shader outputs and the geometry shader reads and
/// writes: `TEXCOORD0.xy` (vertex ID, instance ID) and `TEXCOORD1`… (`xyzw`), all `uint`.
fn stage_signature(registers: usize, rw: u8) -> Signature {
    let element = |index: u32, mask: u8| SignatureElement {
        stream: 0,
        semantic_name: "TEXCOORD".into(),
        semantic_index: index,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::UINT32,
        register: index,
        mask,
        read_write_mask: rw & mask,
        min_precision: MinPrecision(0),
    };
    let mut elements = vec![element(0, 0x3)];
    elements.extend((1..=registers as u32).map(|k| element(k, 0xf)));
    Signature { elements }
}

/// A `gs_4_0` shader for `topology` that emits every vertex of each primitive it receives, in
/// order, as a point: `o0.xy` and `o1`… `o(registers)` copied from its inputs (the outputs of
/// [`passthrough_vertex_shader`]) with plain `mov`s. Stream output of this shader therefore
/// writes each primitive's vertices in geometry-shader order, adjacency vertices included.
pub fn passthrough_geometry_shader(topology: Topology, registers: usize) -> Vec<u8> {
    let n = topology.vertices_per_primitive() as u32;
    let primitive = match n {
        1 => 1, // D3D10_SB_PRIMITIVE_POINT
        2 => 2, // LINE
        3 => 3, // TRIANGLE
        4 => 6, // LINE_ADJ
        _ => 7, // TRIANGLE_ADJ
    };
    let k = registers as u32;
    let mut body: Vec<u32> = Vec::new();
    body.extend([opcode(OP_DCL_INPUT, 4), operand2_mask(0x3), n, 0]);
    for j in 1..=k {
        body.extend([opcode(OP_DCL_INPUT, 4), operand2_mask(0xf), n, j]);
    }
    body.push(opcode(OP_DCL_GS_INPUT_PRIMITIVE, 1) | (primitive << 11));
    // Output topology: point list.
    body.push(opcode(OP_DCL_GS_OUTPUT_TOPOLOGY, 1) | (1 << 11));
    body.extend([opcode(OP_DCL_OUTPUT, 3), operand_mask(TYPE_OUTPUT, 0x3), 0]);
    for j in 1..=k {
        body.extend([opcode(OP_DCL_OUTPUT, 3), operand_mask(TYPE_OUTPUT, 0xf), j]);
    }
    body.extend([opcode(OP_DCL_MAX_OUTPUT_VERTEX_COUNT, 2), n]);
    for i in 0..n {
        // mov o0.xy, v[i][0].xyxx
        body.extend([
            opcode(OP_MOV, 6),
            operand_mask(TYPE_OUTPUT, 0x3),
            0,
            operand2_swizzle(0x04),
            i,
            0,
        ]);
        for j in 1..=k {
            body.extend([
                opcode(OP_MOV, 6),
                operand_mask(TYPE_OUTPUT, 0xf),
                j,
                operand2_swizzle(0xe4),
                i,
                j,
            ]);
        }
        body.push(opcode(OP_EMIT, 1));
    }
    body.push(opcode(OP_RET, 1));
    let mut shdr: Vec<u8> = Vec::with_capacity(4 * (body.len() + 2));
    // Version token (geometry shader 4.0), then the length in tokens.
    for t in [0x0002_0040, (body.len() + 2) as u32]
        .into_iter()
        .chain(body)
    {
        shdr.extend_from_slice(&t.to_le_bytes());
    }
    let isgn = write_signature_chunk(SignatureKind::Isgn, &stage_signature(registers, 0xf));
    let osgn = write_signature_chunk(SignatureKind::Osgn, &stage_signature(registers, 0));
    write_container(&[(*b"ISGN", &isgn), (*b"OSGN", &osgn), (*b"SHDR", &shdr)])
}

// ---------------------------------------------------------------------------------------------
// Reading a report back.

/// A runner report (`report.json`).
#[derive(Clone, Debug, Deserialize)]
pub struct RunnerReport {
    /// [`REPORT_FORMAT`].
    pub format: String,
    /// The implementation run against (adapter description, driver kind, OS), as the runner
    /// saw it.
    #[serde(default)]
    pub device: BTreeMap<String, String>,
    /// One result per case, in the order run.
    pub cases: Vec<RunnerResult>,
}

/// One case's result as the runner reports it.
#[derive(Clone, Debug, Deserialize)]
pub struct RunnerResult {
    /// `file#case`.
    pub id: String,
    /// `pass`, `fail`, `unsupported` or `crash`.
    pub status: String,
    /// What the case expects, in words.
    #[serde(default)]
    pub expected: String,
    /// What the implementation gave, in words.
    #[serde(default)]
    pub got: String,
    /// The first difference, or why the case did not run.
    #[serde(default)]
    pub detail: String,
}

/// Counts of a report, and its deviations joined to the cases' evidence.
#[derive(Clone, Debug, Default)]
pub struct Deviations {
    /// Cases that matched.
    pub passed: usize,
    /// Cases whose result differs from the case's expectation.
    pub deviating: Vec<Deviation>,
    /// Cases the runner could not execute (with the reason).
    pub unsupported: Vec<(String, String)>,
    /// Cases during which the implementation crashed (`got` is empty).
    pub crashed: Vec<Deviation>,
}

/// One case on which the implementation deviates from the expected (Windows') result.
#[derive(Clone, Debug)]
pub struct Deviation {
    /// `file#case`.
    pub id: String,
    /// The case's expectation.
    pub expected: String,
    /// What the implementation gave.
    pub got: String,
    /// The first difference.
    pub detail: String,
    /// The case's evidence (empty when the case file was not given).
    pub evidence: String,
}

/// Why a report could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Io {
        /// The report.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The file is not a runner report.
    #[error("{path}: not a runner report ({message})")]
    Format {
        /// The report.
        path: PathBuf,
        /// What is wrong, with line and column.
        message: String,
    },
}

/// Reads a runner report (at most 64 MiB).
pub fn read_report(path: &Path) -> Result<RunnerReport, ReportError> {
    let bytes = read_bounded(path, 64 << 20).map_err(|source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let report: RunnerReport = serde_json::from_slice(&bytes).map_err(|e| ReportError::Format {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    if report.format != REPORT_FORMAT {
        return Err(ReportError::Format {
            path: path.to_path_buf(),
            message: format!("format `{}`, expected `{REPORT_FORMAT}`", report.format),
        });
    }
    Ok(report)
}

fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    // The type is checked before opening (a named pipe would block the open).
    let (file, _) = inlay::input::open_file(path, u64::MAX).map_err(io::Error::other)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::other(format!("larger than {limit} bytes")));
    }
    Ok(bytes)
}

/// Joins a report to the evidence of the cases under `case_paths` (the files the folder was
/// exported from).
pub fn deviations(report: &RunnerReport, case_paths: &[PathBuf]) -> Deviations {
    let mut evidence = BTreeMap::new();
    let (files, _) = collect_files(case_paths);
    for path in files {
        if let Ok(file) = load_file(&path) {
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            for case in file.cases {
                evidence.insert(format!("{name}#{}", case.name), case.evidence);
            }
        }
    }
    let mut out = Deviations::default();
    for r in &report.cases {
        match r.status.as_str() {
            "pass" => out.passed += 1,
            "unsupported" => out.unsupported.push((r.id.clone(), r.detail.clone())),
            status => {
                let d = Deviation {
                    id: r.id.clone(),
                    expected: r.expected.clone(),
                    got: r.got.clone(),
                    detail: r.detail.clone(),
                    evidence: evidence.get(&r.id).cloned().unwrap_or_default(),
                };
                if status == "crash" {
                    out.crashed.push(d);
                } else {
                    out.deviating.push(d);
                }
            }
        }
    }
    out
}

impl Deviations {
    /// `N passed, N deviating, N unsupported, N crashed`.
    pub fn summary(&self) -> String {
        format!(
            "{} passed, {} deviating, {} unsupported, {} crashed",
            self.passed,
            self.deviating.len(),
            self.unsupported.len(),
            self.crashed.len()
        )
    }

    /// The deviation table as Markdown: one row per deviating or crashing case with its
    /// expectation, the implementation's answer, the difference and the case's evidence.
    pub fn markdown(&self) -> String {
        let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        let mut s = String::from(
            "| case | expected | got | difference | evidence |\n|---|---|---|---|---|\n",
        );
        for d in self.deviating.iter().chain(&self.crashed) {
            let got = if d.got.is_empty() { "crash" } else { &d.got };
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} | {} |",
                cell(&d.id),
                cell(&d.expected),
                cell(got),
                cell(&d.detail),
                cell(&d.evidence)
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passthrough_shader_is_a_signed_vertex_shader_with_the_given_inputs() {
        let pos = SignatureElement {
            stream: 0,
            semantic_name: "POSITION".into(),
            semantic_index: 0,
            system_value: SystemValue::UNDEFINED,
            component_type: ComponentType::FLOAT32,
            register: 3,
            mask: 0x3,
            read_write_mask: 0x1,
            min_precision: MinPrecision(0),
        };
        let blob = passthrough_vertex_shader(&[pos]);
        let c = Container::parse(&blob).unwrap();
        assert!(c.checksum_matches());
        let sig = c.input_signature().unwrap().unwrap();
        let names: Vec<(&str, u32, u8)> = sig
            .elements
            .iter()
            .map(|e| (e.semantic_name.as_str(), e.register, e.mask))
            .collect();
        assert_eq!(
            names,
            [
                ("POSITION", 0, 0xf),
                ("SV_VertexID", 1, 1),
                ("SV_InstanceID", 2, 1)
            ]
        );
        let shdr = c.chunk(*b"SHDR").unwrap();
        let words: Vec<u32> = shdr
            .data
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        // fxc's encoding of the same statements: vs_4_0; dcl_input v0.xyzw;
        // dcl_input_sgv v1.x, vertex_id; dcl_input_sgv v2.x, instance_id; dcl_output o0.xy;
        // dcl_output o1.xyzw; mov o0.x, v1.x; mov o0.y, v2.x; mov o1.xyzw, v0.xyzw; ret.
        assert_eq!(
            words,
            [
                0x0001_0040,
                35, //
                0x0300_005f,
                0x0010_10f2,
                0, //
                0x0400_0060,
                0x0010_1012,
                1,
                6, //
                0x0400_0060,
                0x0010_1012,
                2,
                8, //
                0x0300_0065,
                0x0010_2032,
                0, //
                0x0300_0065,
                0x0010_20f2,
                1, //
                0x0500_0036,
                0x0010_2012,
                0,
                0x0010_100a,
                1, //
                0x0500_0036,
                0x0010_2022,
                0,
                0x0010_100a,
                2, //
                0x0500_0036,
                0x0010_20f2,
                1,
                0x0010_1e46,
                0, //
                0x0100_003e,
            ]
        );
    }

    #[test]
    fn passthrough_geometry_shader_emits_each_input_vertex_as_a_point() {
        let blob = passthrough_geometry_shader(Topology::TriangleList, 1);
        let c = Container::parse(&blob).unwrap();
        assert!(c.checksum_matches());
        let words: Vec<u32> = c
            .chunk(*b"SHDR")
            .unwrap()
            .data
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        // fxc's encoding of: gs_4_0; dcl_input v[3][0].xy; dcl_input v[3][1].xyzw;
        // dcl_inputprimitive triangle; dcl_outputtopology pointlist; dcl_output o0.xy;
        // dcl_output o1.xyzw; dcl_maxout 3; then per vertex i: mov o0.xy, v[i][0].xyxx;
        // mov o1.xyzw, v[i][1].xyzw; emit; and ret.
        let mut want = vec![
            0x0002_0040,
            0, // length, filled below
            0x0400_005f,
            0x0020_1032,
            3,
            0, //
            0x0400_005f,
            0x0020_10f2,
            3,
            1, //
            0x0100_185d,
            0x0100_085c, //
            0x0300_0065,
            0x0010_2032,
            0, //
            0x0300_0065,
            0x0010_20f2,
            1, //
            0x0200_005e,
            3,
        ];
        for i in 0..3 {
            want.extend([0x0600_0036, 0x0010_2032, 0, 0x0020_1046, i, 0]);
            want.extend([0x0600_0036, 0x0010_20f2, 1, 0x0020_1e46, i, 1]);
            want.push(0x0100_0013);
        }
        want.push(0x0100_003e);
        want[1] = want.len() as u32;
        assert_eq!(words, want);
        // Each primitive kind declares its own input primitive and vertex count.
        for (t, prim, n) in [
            (Topology::PointList, 1, 1),
            (Topology::LineStrip, 2, 2),
            (Topology::TriangleStrip, 3, 3),
            (Topology::LineListAdj, 6, 4),
            (Topology::TriangleStripAdj, 7, 6),
        ] {
            let blob = passthrough_geometry_shader(t, 0);
            let c = Container::parse(&blob).unwrap();
            let w: Vec<u32> = c
                .chunk(*b"SHDR")
                .unwrap()
                .data
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
                .collect();
            assert_eq!(&w[2..6], &[0x0400_005f, 0x0020_1032, n, 0]);
            assert_eq!(w[6], 0x0100_005d | (prim << 11), "{t:?}");
            assert_eq!(w.iter().filter(|&&x| x == 0x0100_0013).count(), n as usize);
        }
    }

    #[test]
    fn tokens_are_percent_encoded() {
        assert_eq!(encode_token("a b%c#d"), "a%20b%25c#d");
    }
}
