//! Mods as meshes (features `mesh` and `mod`): the parts of a [`Mod`] written as one scene —
//! glTF with one node per part named after its section, OBJ with one object per part, PLY
//! with each face's part — and a mesh edited elsewhere written back into the mod's buffers.
//!
//! Each component (vertex set) is exported once: a mesh of all its vertices, in buffer order,
//! built by the same decoder as a single draw ([`Mesh::build`]) with the component's buffers
//! bound as slots 0, 1, …; every part is that vertex set with its own triangles (its index
//! range plus base vertex, as the input assembler reads a triangle list). In glTF the parts of
//! a component share their attribute accessors, so an unedited export imports back to the same
//! bytes. With several states (`--all-states`) each state is a node whose children are its
//! parts; a part drawn in several states is one mesh used by several nodes.
//!
//! Import finds each part by its node's name (Blender's `.001` suffixes ignored). Parts that
//! still share accessors keep the shared vertex set; otherwise each part's vertices are
//! appended in part order. Parts the mesh lacks keep their original indices and the original
//! records of the vertices they use. Values go through [`super::import::import`] in the
//! component's layout; bytes no element covers keep the original record's bytes.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::gltf::schema::{self, Asset, Buffer, Node, Root, SceneExtras, component};
use super::gltf::{self, ImportedMesh};
use super::import::{ImportOptions, import};
use super::{InputSlot, Mesh, MeshInput, MeshOptions, Mode, SlotSource};
use crate::assembler::{DrawCall, Topology};
use crate::encode::Rounding;
use crate::migoto_mod::writeback::{ComponentEdit, Edits, RangeKey};
use crate::migoto_mod::{Mod, ModError, Where, part_names};

/// What an export wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModExport {
    /// Part nodes written.
    pub parts: usize,
    /// Distinct part meshes.
    pub meshes: usize,
    /// Components (vertex sets).
    pub components: usize,
    /// Vertices over all components.
    pub vertices: u64,
    /// Triangles over all distinct parts.
    pub triangles: u64,
    /// Parts left out, with why.
    pub skipped: Vec<String>,
    /// Doubts of the decoder.
    pub warnings: Vec<String>,
}

/// One state of a mod to export, with the name of its node (`None`: the parts are the scene's
/// roots).
pub struct StateParts<'a> {
    /// The state's label.
    pub label: Option<String>,
    /// The mod read in that state.
    pub m: &'a Mod,
}

/// One part that a writer exports: of state `state`, part `part` of `m`, drawn from
/// component `component` (whose buffers are `resources`).
struct Exported<'a> {
    state: usize,
    m: &'a Mod,
    part: usize,
    component: usize,
    resources: Vec<usize>,
    /// The part's name among every state's parts (`part_names`).
    name: String,
    /// `name`, under its state's label when the state has one (`label/name`).
    node: String,
}

/// The parts of `states` the writers export, state by state in part order. A part not
/// exported is listed in `skipped` (`name (at): why`, once); one with a problem is the error;
/// one without a component is passed over.
fn exported_parts<'a>(
    states: &[StateParts<'a>],
    skipped: &mut Vec<String>,
) -> Result<Vec<Exported<'a>>, ModError> {
    let all_names = part_names(&states.iter().map(|s| s.m).collect::<Vec<_>>());
    let mut out = Vec::new();
    for (si, st) in states.iter().enumerate() {
        let m = st.m;
        for (pi, p) in m.parts.iter().enumerate() {
            if !p.export {
                let why = p.note.clone().unwrap_or_default();
                let line = format!("{} ({}): {why}", p.name, p.at);
                if !skipped.contains(&line) {
                    skipped.push(line);
                }
                continue;
            }
            if let Some(prob) = &p.problem {
                return Err(ModError::new(
                    p.at.clone(),
                    Some(p.name.clone()),
                    prob.clone(),
                ));
            }
            let Some(ci) = p.component else { continue };
            let name = all_names[si][pi].clone();
            out.push(Exported {
                state: si,
                m,
                part: pi,
                component: ci,
                resources: m.components[ci].resources.clone(),
                node: match &st.label {
                    Some(l) => format!("{l}/{name}"),
                    None => name.clone(),
                },
                name,
            });
        }
    }
    Ok(out)
}

fn err(m: &Mod, message: impl Into<String>) -> ModError {
    ModError::new(Where::file(&m.ini.files[0].name), None, message)
}

/// A component's vertices as a mesh (every record of its buffers), and each given part's
/// triangles as ranges of the mesh's indices.
pub fn component_mesh(
    m: &Mod,
    component: usize,
    parts: &[usize],
) -> Result<(Mesh, Vec<Range<usize>>), ModError> {
    let c = &m.components[component];
    if let Some(p) = &c.problem {
        return Err(err(m, format!("component {}: {p}", c.name)));
    }
    let mut elements = Vec::new();
    let mut slots = Vec::new();
    let mut files = Vec::new();
    for (k, s) in c.streams.iter().enumerate() {
        elements.extend(s.elements.iter().cloned());
        let bytes = m.buffer(s.resource).unwrap_or(&[]);
        files.push(m.resources[s.resource].filename.clone().unwrap_or_default());
        slots.push((k as u32, s.stride, bytes));
    }
    let names: Vec<String> = c.streams.iter().map(|s| m.describe(s.resource)).collect();
    let input = MeshInput {
        elements: &elements,
        names: vec![None; elements.len()],
        slots: slots
            .iter()
            .zip(&names)
            .map(|((slot, stride, bytes), name)| InputSlot {
                slot: *slot,
                stride: *stride,
                offset: 0,
                data: SlotSource::Binary(bytes),
                file: name,
            })
            .collect(),
        index: None,
        topology: Topology::PointList,
        draw: DrawCall::Draw {
            vertex_count: c.vertex_count,
            start_vertex: 0,
        },
        files,
    };
    let mut mesh = Mesh::build(&input, &MeshOptions::default())
        .map_err(|e| err(m, format!("component {}: {e}", c.name)))?;
    let mut indices = Vec::new();
    let mut ranges = Vec::new();
    for &pi in parts {
        let p = &m.parts[pi];
        let start = indices.len();
        let list = part_vertices(m, pi)?;
        let whole = list.len() - list.len() % 3;
        if whole != list.len() {
            mesh.warnings.push(format!(
                "{}: {} indices are not whole triangles; the last {} are left out (the input assembler drops them)",
                p.name,
                list.len(),
                list.len() - whole
            ));
        }
        indices.extend_from_slice(&list[..whole]);
        ranges.push(start..indices.len());
    }
    mesh.indices = indices;
    mesh.mode = Mode::Triangles;
    mesh.topology = Topology::TriangleList;
    mesh.index_format = parts.first().and_then(|&p| m.parts[p].index_format);
    mesh.draw = format!("mod component {}", c.name);
    mesh.stream = Vec::new();
    Ok((mesh, ranges))
}

/// The vertex numbers a part's triangle list reads, in order.
pub fn part_vertices(m: &Mod, part: usize) -> Result<Vec<u32>, ModError> {
    let p = &m.parts[part];
    if let Some(prob) = &p.problem {
        return Err(ModError::new(
            p.at.clone(),
            Some(p.name.clone()),
            prob.clone(),
        ));
    }
    if !p.indexed {
        return Ok((p.start..p.start.saturating_add(p.count)).collect());
    }
    let (Some(r), Some(f)) = (p.index_buffer, p.index_format) else {
        return Err(ModError::new(
            p.at.clone(),
            Some(p.name.clone()),
            "no index buffer",
        ));
    };
    let bytes = m.buffer(r).unwrap_or(&[]);
    let size = f.size() as usize;
    let s = p.start as usize * size;
    let e = s + p.count as usize * size;
    let slice = bytes.get(s..e).ok_or_else(|| {
        ModError::new(
            p.at.clone(),
            Some(p.name.clone()),
            format!("{}: range past the buffer", m.describe(r)),
        )
    })?;
    Ok(slice
        .chunks_exact(size)
        .map(|c| {
            let i = if size == 2 {
                u32::from(u16::from_le_bytes([c[0], c[1]]))
            } else {
                u32::from_le_bytes([c[0], c[1], c[2], c[3]])
            };
            i.wrapping_add(p.base_vertex as u32)
        })
        .collect())
}

/// A part's identity across states.
fn part_key(m: &Mod, pi: usize) -> (String, Option<RangeKey>, u32, u32) {
    let p = &m.parts[pi];
    (
        p.name.clone(),
        p.index_buffer.map(|ib| RangeKey {
            ib,
            start: p.start,
            count: p.count,
            base: p.base_vertex,
        }),
        p.start,
        p.count,
    )
}

/// A glTF document being composed: JSON and its one binary buffer.
struct Doc {
    json: Root,
    bin: Vec<u8>,
}

/// `meshes[i].extras.inlay_mod` of a mod's scene: the part a mesh is. Import reads `part`
/// ([`PartName`]); the rest is for people and tools reading the scene.
#[derive(Serialize)]
struct PartRecord<'a> {
    part: &'a str,
    section: &'a str,
    at: String,
    component: &'a str,
    indexed: bool,
    start: u32,
    count: u32,
    base_vertex: i32,
    index_buffer: Option<&'a str>,
    conditions: &'a [String],
}

/// The field of a [`PartRecord`] that import reads; a record that does not have it as a
/// string (a tool rewrote it) names no part.
#[derive(Deserialize)]
struct PartName {
    part: String,
}

/// `scenes[0].extras.inlay_mod` of a mod's scene.
#[derive(Serialize)]
struct SceneRecord<'a> {
    ini: Option<String>,
    states: Vec<String>,
    profile: Option<&'a str>,
}

/// Splits a GLB into its JSON and BIN chunks.
fn split_glb(bytes: &[u8]) -> Option<(&[u8], Vec<u8>)> {
    let u32_at = |o: usize| {
        bytes
            .get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    if bytes.get(..4)? != b"glTF" {
        return None;
    }
    let total = (u32_at(8)? as usize).min(bytes.len());
    let mut pos = 12;
    let (mut json, mut bin) = (None, Vec::new());
    while pos + 8 <= total {
        let len = u32_at(pos)? as usize;
        let kind = &bytes[pos + 4..pos + 8];
        let data = bytes.get(pos + 8..pos + 8 + len)?;
        match kind {
            b"JSON" => json = Some(data),
            b"BIN\0" => bin = data.to_vec(),
            _ => {}
        }
        pos = (pos + 8 + len).next_multiple_of(4);
    }
    Some((json?, bin))
}

/// Shifts an index of `sparse` (kept as JSON by the schema) by `by`.
fn shift_json(v: Option<&mut Value>, by: u32) {
    if let Some(v) = v
        && let Some(n) = v.as_u64()
    {
        *v = Value::from(n + u64::from(by));
    }
}

/// Appends document `d` to `into`, shifting its indices; returns (node, mesh) offsets.
fn merge(into: &mut Doc, d: Doc) -> (usize, usize) {
    let base = into.bin.len().next_multiple_of(16);
    into.bin.resize(base, 0);
    into.bin.extend_from_slice(&d.bin);
    let to = &mut into.json;
    let (nv, na, nm, nn, ns) = (
        to.buffer_views.len() as u32,
        to.accessors.len() as u32,
        to.meshes.len() as u32,
        to.nodes.len() as u32,
        to.skins.len() as u32,
    );
    let (nodes_before, meshes_before) = (to.nodes.len(), to.meshes.len());
    let d = d.json;
    for mut v in d.buffer_views {
        v.buffer = 0;
        v.byte_offset += base as u64;
        to.buffer_views.push(v);
    }
    for mut a in d.accessors {
        if let Some(v) = &mut a.buffer_view {
            *v += nv;
        }
        if let Some(s) = &mut a.sparse {
            shift_json(s.pointer_mut("/indices/bufferView"), nv);
            shift_json(s.pointer_mut("/values/bufferView"), nv);
        }
        to.accessors.push(a);
    }
    for mut m in d.meshes {
        for p in &mut m.primitives {
            for v in p.attributes.values_mut() {
                *v += na;
            }
            if let Some(v) = &mut p.indices {
                *v += na;
            }
        }
        to.meshes.push(m);
    }
    for mut n in d.nodes {
        if let Some(v) = &mut n.mesh {
            *v += nm;
        }
        if let Some(v) = &mut n.skin {
            *v += ns;
        }
        for c in &mut n.children {
            *c += nn;
        }
        if let Some(g) = n
            .extensions
            .as_mut()
            .and_then(|e| e.gpu_instancing.as_mut())
        {
            for v in g.attributes.values_mut() {
                *v += na;
            }
        }
        to.nodes.push(n);
    }
    for mut s in d.skins {
        if let Some(v) = &mut s.inverse_bind_matrices {
            *v += na;
        }
        if let Some(v) = &mut s.skeleton {
            *v += nn;
        }
        for j in &mut s.joints {
            *j += nn;
        }
        to.skins.push(s);
    }
    for e in d.extensions_used {
        if !to.extensions_used.contains(&e) {
            to.extensions_used.push(e);
        }
    }
    (nodes_before, meshes_before)
}

/// One component's document: a mesh per part sharing the vertex accessors; the node the
/// writer made for the mesh becomes the template of the part nodes.
struct ComponentDoc {
    doc: Doc,
    /// The template node (skin, extensions) with `mesh` removed.
    template: Node,
    /// Root nodes other than the mesh's (skin joints).
    roots: Vec<usize>,
}

fn component_doc(
    mesh: &Mesh,
    ranges: &[Range<usize>],
    names: &[String],
    extras: &[Value],
) -> io::Result<ComponentDoc> {
    let mut glb = Vec::new();
    gltf::write_glb(mesh, &mut glb)?;
    let (json, bin) = split_glb(&glb)
        .ok_or_else(|| io::Error::other("the glTF writer's output did not parse"))?;
    let mut json: Root = serde_json::from_slice(json)
        .map_err(|e| io::Error::other(format!("the glTF writer's output did not parse: {e}")))?;
    let mesh0 = json.meshes.first().cloned().unwrap_or_default();
    let acc = mesh0
        .primitives
        .first()
        .and_then(|p| p.indices)
        .and_then(|i| json.accessors.get(i as usize).cloned());
    let size = match acc.as_ref().map(|a| a.component_type) {
        Some(component::UNSIGNED_SHORT) => 2,
        Some(component::UNSIGNED_BYTE) => 1,
        _ => 4,
    };
    let mut meshes = Vec::new();
    for ((r, name), record) in ranges.iter().zip(names).zip(extras) {
        let mut m = mesh0.clone();
        m.name = Some(name.clone());
        if let Some(mut a) = acc.clone() {
            a.byte_offset = Some(a.byte_offset.unwrap_or(0) + (r.start * size) as u64);
            a.count = r.len() as u64;
            a.min = None;
            a.max = None;
            let ai = json.accessors.len() as u32;
            json.accessors.push(a);
            if let Some(p) = m.primitives.first_mut() {
                p.indices = Some(ai);
            }
        }
        m.extras.get_or_insert_default().inlay_mod = Some(record.clone());
        meshes.push(m);
    }
    json.meshes = meshes;
    // The writer's node for mesh 0 is removed; the other nodes (joints) keep their order.
    let nodes = std::mem::take(&mut json.nodes);
    let mesh_node = nodes.iter().position(|n| n.mesh == Some(0));
    let mut template = mesh_node.map(|i| nodes[i].clone()).unwrap_or_default();
    template.mesh = None;
    template.name = None;
    let remap = |i: u32| -> Option<u32> {
        match mesh_node.map(|m| m as u32) {
            Some(m) if i == m => None,
            Some(m) if i > m => Some(i - 1),
            _ => Some(i),
        }
    };
    for (i, mut n) in nodes.into_iter().enumerate() {
        if Some(i) == mesh_node {
            continue;
        }
        n.children = n.children.iter().filter_map(|&c| remap(c)).collect();
        json.nodes.push(n);
    }
    for s in &mut json.skins {
        s.joints = s.joints.iter().filter_map(|&c| remap(c)).collect();
        s.skeleton = s.skeleton.and_then(remap);
    }
    let roots: Vec<usize> = json
        .scenes
        .first()
        .map(|s| {
            s.nodes
                .iter()
                .filter_map(|&c| remap(c).map(|c| c as usize))
                .collect()
        })
        .unwrap_or_default();
    json.scenes.clear();
    json.scene = None;
    Ok(ComponentDoc {
        doc: Doc { json, bin },
        template,
        roots,
    })
}

/// The composed scene of one or several states.
pub struct Scene {
    json: Root,
    bin: Vec<u8>,
    /// What is in it.
    pub summary: ModExport,
}

/// Composes the scene of the given states (see the module notes).
pub fn scene(states: &[StateParts<'_>]) -> Result<Scene, ModError> {
    let first = states
        .first()
        .ok_or_else(|| ModError::new(Where::file("?"), None, "no state to export"))?
        .m;
    let mut summary = ModExport::default();
    // Distinct components (by their buffers) and their distinct parts.
    struct Comp<'a> {
        m: &'a Mod,
        component: usize,
        resources: Vec<usize>,
        /// Distinct parts: the mod (state) that first drew it, its index there, its name.
        parts: Vec<(&'a Mod, usize, String)>,
    }
    let mut comps: Vec<Comp<'_>> = Vec::new();
    // Per state: (comp, part slot).
    let mut placements: Vec<Vec<(usize, usize)>> = vec![Vec::new(); states.len()];
    for e in exported_parts(states, &mut summary.skipped)? {
        let c = match comps.iter().position(|c| c.resources == e.resources) {
            Some(c) => c,
            None => {
                comps.push(Comp {
                    m: e.m,
                    component: e.component,
                    resources: e.resources,
                    parts: Vec::new(),
                });
                comps.len() - 1
            }
        };
        let slot = match comps[c].parts.iter().position(|x| x.2 == e.name) {
            Some(s) => s,
            None => {
                comps[c].parts.push((e.m, e.part, e.name));
                comps[c].parts.len() - 1
            }
        };
        placements[e.state].push((c, slot));
    }
    let mut doc = Doc {
        json: Root {
            asset: Asset {
                version: "2.0".into(),
                generator: Some("inlay".into()),
            },
            ..Root::default()
        },
        bin: Vec::new(),
    };
    let mut mesh_of: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut templates: Vec<Node> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    for (ci, c) in comps.iter().enumerate() {
        let m = c.m;
        let mut names = Vec::new();
        let mut extras = Vec::new();
        for (hm, pi, unique) in &c.parts {
            let p = &hm.parts[*pi];
            names.push(unique.clone());
            let record = PartRecord {
                part: unique,
                section: &p.section,
                at: p.at.to_string(),
                component: &m.components[c.component].name,
                indexed: p.indexed,
                start: p.start,
                count: p.count,
                base_vertex: p.base_vertex,
                index_buffer: p.index_buffer.map(|r| hm.resources[r].name.as_str()),
                conditions: &p.conditions,
            };
            extras.push(serde_json::to_value(record).map_err(|e| err(m, e.to_string()))?);
        }
        // Vertices from the component's mod; each part's triangles from the mod that drew it.
        let (mut mesh, _) = component_mesh(m, c.component, &[])?;
        let mut ranges = Vec::new();
        for (hm, pi, _) in &c.parts {
            let list = part_vertices(hm, *pi)?;
            let start = mesh.indices.len();
            let whole = list.len() - list.len() % 3;
            let n = mesh.vertex_count;
            if let Some(bad) = list[..whole].iter().find(|&&v| v >= n) {
                let p = &hm.parts[*pi];
                return Err(ModError::new(
                    p.at.clone(),
                    Some(bad.to_string()),
                    format!(
                        "{}: vertex {bad} is past the component's {n} vertices",
                        p.name
                    ),
                ));
            }
            mesh.indices.extend_from_slice(&list[..whole]);
            ranges.push(start..mesh.indices.len());
            summary.triangles += (whole / 3) as u64;
        }
        summary.vertices += u64::from(mesh.vertex_count);
        summary.warnings.extend(mesh.warnings.iter().cloned());
        let cd =
            component_doc(&mesh, &ranges, &names, &extras).map_err(|e| err(m, e.to_string()))?;
        let (node_off, mesh_off) = merge(&mut doc, cd.doc);
        for slot in 0..c.parts.len() {
            mesh_of.insert((ci, slot), mesh_off + slot);
        }
        roots.extend(cd.roots.iter().map(|r| r + node_off));
        templates.push(cd.template);
        summary.meshes += c.parts.len();
    }
    summary.components = comps.len();
    // Part nodes (per state).
    let mut state_nodes = Vec::new();
    for (si, st) in states.iter().enumerate() {
        let mut children = Vec::new();
        for &(c, slot) in &placements[si] {
            let unique = &comps[c].parts[slot].2;
            let mut n = templates[c].clone();
            n.name = Some(unique.clone());
            n.mesh = Some(mesh_of[&(c, slot)] as u32);
            children.push(doc.json.nodes.len() as u32);
            doc.json.nodes.push(n);
            summary.parts += 1;
        }
        match &st.label {
            Some(label) => {
                state_nodes.push(doc.json.nodes.len() as u32);
                doc.json.nodes.push(Node {
                    name: Some(label.clone()),
                    children,
                    ..Node::default()
                });
            }
            None => state_nodes.extend(children),
        }
    }
    let ini = first
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let record = SceneRecord {
        ini: ini.clone(),
        states: states.iter().map(|s| s.m.state.to_string()).collect(),
        profile: first.profile.name.as_deref(),
    };
    doc.json.scene = Some(0);
    doc.json.scenes = vec![schema::Scene {
        name: Some(ini.unwrap_or_default()),
        nodes: roots.iter().map(|&r| r as u32).chain(state_nodes).collect(),
        extras: Some(SceneExtras {
            inlay_mod: Some(serde_json::to_value(record).map_err(|e| err(first, e.to_string()))?),
        }),
    }];
    doc.json.buffers = vec![Buffer {
        byte_length: doc.bin.len().max(4) as u64,
        uri: None,
    }];
    if doc.bin.len() < 4 {
        doc.bin.resize(4, 0);
    }
    if summary.parts == 0 {
        return Err(err(
            first,
            format!(
                "no part to export{}",
                if summary.skipped.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", summary.skipped.join("; "))
                }
            ),
        ));
    }
    Ok(Scene {
        json: doc.json,
        bin: doc.bin,
        summary,
    })
}

impl Scene {
    /// Writes the scene as a `.glb`.
    pub fn write_glb(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut json = serde_json::to_vec(&self.json).map_err(io::Error::other)?;
        while json.len() % 4 != 0 {
            json.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let total = 12 + 8 + json.len() + 8 + bin.len();
        let total = u32::try_from(total).map_err(|_| {
            io::Error::other("the scene is larger than 4 GiB, the limit of a GLB file")
        })?;
        out.write_all(b"glTF")?;
        out.write_all(&2u32.to_le_bytes())?;
        out.write_all(&total.to_le_bytes())?;
        out.write_all(&(json.len() as u32).to_le_bytes())?;
        out.write_all(b"JSON")?;
        out.write_all(&json)?;
        out.write_all(&(bin.len() as u32).to_le_bytes())?;
        out.write_all(b"BIN\0")?;
        out.write_all(&bin)?;
        Ok(())
    }

    /// Writes the scene as `.gltf` JSON naming `uri` for its buffer, and the buffer to `bin`.
    pub fn write_gltf(
        &self,
        out: &mut dyn Write,
        bin: &mut dyn Write,
        uri: &str,
    ) -> io::Result<()> {
        let mut json = self.json.clone();
        if let Some(b) = json.buffers.first_mut() {
            b.uri = Some(uri.to_string());
        }
        serde_json::to_writer_pretty(&mut *out, &json).map_err(io::Error::other)?;
        bin.write_all(&self.bin)
    }
}

/// Writes the parts of `states` as OBJ: each component's positions (and TEXCOORD0/NORMAL0)
/// once, an `o` object per part node (`state/part` with several states).
pub fn write_obj(states: &[StateParts<'_>], out: &mut dyn Write) -> Result<ModExport, ModError> {
    let mut w = io::BufWriter::new(out);
    let mut summary = ModExport::default();
    let first = states
        .first()
        .ok_or_else(|| ModError::new(Where::file("?"), None, "no state"))?
        .m;
    let ioe = |e: io::Error| err(first, e.to_string());
    writeln!(w, "# written by inlay from {}", first.path.display()).map_err(ioe)?;
    let mut bases: Vec<(Vec<usize>, u64, bool, bool)> = Vec::new();
    let mut next = 1u64;
    for e in exported_parts(states, &mut Vec::new())? {
        let (m, ci, res) = (e.m, e.component, e.resources);
        if !bases.iter().any(|b| b.0 == res) {
            let (mesh, _) = component_mesh(m, ci, &[])?;
            let pos = super::obj::find(&mesh, "POSITION", 0).ok_or_else(|| {
                err(
                    m,
                    format!(
                        "component {} has no POSITION: OBJ needs positions",
                        m.components[ci].name
                    ),
                )
            })?;
            let tex = super::obj::find(&mesh, "TEXCOORD", 0);
            let nor = super::obj::find(&mesh, "NORMAL", 0);
            writeln!(
                w,
                "# component {}: {} vertices",
                m.components[ci].name, mesh.vertex_count
            )
            .map_err(ioe)?;
            let mut non_finite = super::obj::NonFinite::default();
            for (tag, a, n) in [("v", Some(pos), 3), ("vt", tex, 2), ("vn", nor, 3)] {
                let Some(a) = a else { continue };
                for (k, v) in a.values.iter().enumerate() {
                    let mut line = String::from(tag);
                    for l in 0..n {
                        line.push_str(&format!(" {}", non_finite.lane(a, v, l, k)));
                    }
                    writeln!(w, "{line}").map_err(ioe)?;
                }
            }
            if let Some(warning) = non_finite.warning("OBJ") {
                summary
                    .warnings
                    .push(format!("component {}: {warning}", m.components[ci].name));
            }
            bases.push((res.clone(), next, tex.is_some(), nor.is_some()));
            summary.vertices += u64::from(mesh.vertex_count);
            next += u64::from(mesh.vertex_count);
        }
        let (_, base, t, n) = bases.iter().find(|b| b.0 == res).cloned().expect("added");
        writeln!(w, "o {}", e.node).map_err(ioe)?;
        let list = part_vertices(m, e.part)?;
        for tri in list.chunks_exact(3) {
            let mut line = String::from("f");
            for &v in tri {
                let k = base + u64::from(v);
                line.push_str(&match (t, n) {
                    (true, true) => format!(" {k}/{k}/{k}"),
                    (false, true) => format!(" {k}//{k}"),
                    (true, false) => format!(" {k}/{k}"),
                    _ => format!(" {k}"),
                });
            }
            writeln!(w, "{line}").map_err(ioe)?;
            summary.triangles += 1;
        }
        summary.parts += 1;
    }
    summary.components = bases.len();
    w.flush().map_err(ioe)?;
    if summary.parts == 0 {
        return Err(err(first, "no part to export"));
    }
    Ok(summary)
}

/// Writes the parts of `states` as binary PLY: every component's vertices (`x y z`, and
/// `nx ny nz`, `s t` when every component has NORMAL0/TEXCOORD0), each face with a `part`
/// property numbering the part nodes, named in `comment part N NAME` header lines.
pub fn write_ply(states: &[StateParts<'_>], out: &mut dyn Write) -> Result<ModExport, ModError> {
    let first = states
        .first()
        .ok_or_else(|| ModError::new(Where::file("?"), None, "no state"))?
        .m;
    let ioe = |e: io::Error| err(first, e.to_string());
    let mut summary = ModExport::default();
    // Per component: its resources, mesh, first vertex and name.
    let mut comps: Vec<(Vec<usize>, Mesh, u32, String)> = Vec::new();
    let mut faces: Vec<([u32; 3], u32)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut next = 0u32;
    for e in exported_parts(states, &mut Vec::new())? {
        let c = match comps.iter().position(|c| c.0 == e.resources) {
            Some(c) => c,
            None => {
                let (mesh, _) = component_mesh(e.m, e.component, &[])?;
                let n = mesh.vertex_count;
                let name = e.m.components[e.component].name.clone();
                comps.push((e.resources, mesh, next, name));
                next = next
                    .checked_add(n)
                    .ok_or_else(|| err(e.m, "more than 2^32 vertices"))?;
                comps.len() - 1
            }
        };
        let base = comps[c].2;
        let id = names.len() as u32;
        names.push(e.node);
        for tri in part_vertices(e.m, e.part)?.chunks_exact(3) {
            faces.push(([tri[0] + base, tri[1] + base, tri[2] + base], id));
        }
    }
    if names.is_empty() {
        return Err(err(first, "no part to export"));
    }
    let has = |s: &str| comps.iter().all(|c| super::obj::find(&c.1, s, 0).is_some());
    let (normal, tex) = (has("NORMAL"), has("TEXCOORD"));
    if !has("POSITION") {
        return Err(err(
            first,
            "a component has no POSITION: PLY needs positions",
        ));
    }
    let mut h = String::from("ply\nformat binary_little_endian 1.0\ncomment written by inlay\n");
    for (i, n) in names.iter().enumerate() {
        h.push_str(&format!("comment part {i} {}\n", n.replace('\n', " ")));
    }
    h.push_str(&format!(
        "element vertex {next}\nproperty float x\nproperty float y\nproperty float z\n"
    ));
    if normal {
        h.push_str("property float nx\nproperty float ny\nproperty float nz\n");
    }
    if tex {
        h.push_str("property float s\nproperty float t\n");
    }
    h.push_str(&format!(
        "element face {}\nproperty list uchar uint vertex_indices\nproperty uint part\nend_header\n",
        faces.len()
    ));
    let mut w = io::BufWriter::new(out);
    w.write_all(h.as_bytes()).map_err(ioe)?;
    for (_, mesh, _, name) in &comps {
        let mut non_finite = super::obj::NonFinite::default();
        let pos = super::obj::find(mesh, "POSITION", 0).expect("checked");
        let nor = super::obj::find(mesh, "NORMAL", 0).filter(|_| normal);
        let tx = super::obj::find(mesh, "TEXCOORD", 0).filter(|_| tex);
        for k in 0..mesh.vertex_count as usize {
            for (a, n) in [(Some(pos), 3), (nor, 3), (tx, 2)] {
                let Some(a) = a else { continue };
                for l in 0..n {
                    w.write_all(&non_finite.lane(a, &a.values[k], l, k).to_le_bytes())
                        .map_err(ioe)?;
                }
            }
        }
        if let Some(warning) = non_finite.warning("PLY") {
            summary
                .warnings
                .push(format!("component {name}: {warning}"));
        }
        summary.vertices += u64::from(mesh.vertex_count);
    }
    for (f, part) in &faces {
        w.write_all(&[3]).map_err(ioe)?;
        for v in f {
            w.write_all(&v.to_le_bytes()).map_err(ioe)?;
        }
        w.write_all(&part.to_le_bytes()).map_err(ioe)?;
    }
    w.flush().map_err(ioe)?;
    summary.parts = names.len();
    summary.components = comps.len();
    summary.triangles = faces.len() as u64;
    Ok(summary)
}

/// How [`import_mod`] encodes.
#[derive(Clone, Debug, Default)]
pub struct ModImportOptions {
    /// Rounding into narrower formats.
    pub rounding: Rounding,
}

/// What [`import_mod`] found.
#[derive(Clone, Debug, Default)]
pub struct ModImport {
    /// The edits for [`crate::migoto_mod::writeback::write_back`].
    pub edits: Edits,
    /// Per part: what became of it.
    pub report: Vec<String>,
    /// Doubts.
    pub warnings: Vec<String>,
}

/// The mesh with index `mesh` of a glTF document, read as [`gltf::read_glb`] reads a file's
/// first mesh. The first node placing it keeps its skin (and every joint node stays): the
/// skin's joint names are what turn `JOINTS_n` values back into blend indices, so without it
/// an unedited skin would read as edited and be rewritten.
fn read_mesh(
    file: &str,
    doc: &Root,
    bin: &[u8],
    glb: bool,
    mesh: usize,
    external: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<ImportedMesh, String> {
    let one = doc.meshes.get(mesh).cloned().ok_or_else(|| {
        format!(
            "{file}: a node names mesh {mesh}, past the {} in `meshes`",
            doc.meshes.len()
        )
    })?;
    let mut d = doc.clone();
    d.meshes = vec![one];
    let mut placed = false;
    for n in &mut d.nodes {
        let here = n.mesh == Some(mesh as u32);
        if here && !placed {
            n.mesh = Some(0);
            placed = true;
        } else if n.mesh.take().is_some() {
            // A skin belongs to a node with a mesh.
            n.skin = None;
        }
    }
    d.scenes.clear();
    d.scene = None;
    if glb {
        let scene = Scene {
            json: d,
            bin: bin.to_vec(),
            summary: ModExport::default(),
        };
        let mut bytes = Vec::new();
        scene.write_glb(&mut bytes).map_err(|e| e.to_string())?;
        gltf::read_glb(file, &bytes, external).map_err(|e| e.message)
    } else {
        let json = serde_json::to_vec(&d).map_err(|e| e.to_string())?;
        gltf::read_gltf(file, &json, external).map_err(|e| e.message)
    }
}

/// Strips Blender's `.001` duplicate suffix.
fn base_name(n: &str) -> &str {
    match n.rsplit_once('.') {
        Some((b, s)) if s.len() == 3 && s.bytes().all(|c| c.is_ascii_digit()) => b,
        _ => n,
    }
}

/// Reads an edited `.glb`/`.gltf` (`bytes`; `external` resolves buffer URIs) into edits of the
/// mod read in `states`: first the states the scene was exported for (in the same order, so
/// that [`part_names`] names their parts as the nodes are named; the first one's components
/// are written), then any other states, whose parts the mesh does not hold and which keep
/// their vertices.
pub fn import_mod(
    states: &[&Mod],
    file: &str,
    bytes: &[u8],
    external: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
    options: &ModImportOptions,
) -> Result<ModImport, ModError> {
    let at = Where::file(file);
    let m = *states
        .first()
        .ok_or_else(|| ModError::new(at.clone(), None, "no state"))?;
    let all_names = part_names(states);
    let not_gltf =
        |e: serde_json::Error| ModError::new(at.clone(), None, format!("not glTF JSON: {e}"));
    let (doc, bin, glb): (Root, _, _) = if bytes.starts_with(b"glTF") {
        let (d, b) = split_glb(bytes)
            .ok_or_else(|| ModError::new(at.clone(), None, "not a valid GLB file"))?;
        (serde_json::from_slice(d).map_err(not_gltf)?, b, true)
    } else {
        (
            serde_json::from_slice(bytes).map_err(not_gltf)?,
            Vec::new(),
            false,
        )
    };
    let mut out = ModImport::default();
    // Part nodes by name.
    let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
    for n in &doc.nodes {
        let (Some(name), Some(mi)) = (&n.name, n.mesh) else {
            continue;
        };
        by_name
            .entry(base_name(name).to_string())
            .or_insert(mi as usize);
    }
    for (mi, mesh) in doc.meshes.iter().enumerate() {
        let record = mesh.extras.as_ref().and_then(|x| x.inlay_mod.as_ref());
        if let Some(p) = record.and_then(|r| PartName::deserialize(r).ok()) {
            by_name.entry(p.part).or_insert(mi);
        }
    }
    for (ci, c) in m.components.iter().enumerate() {
        if c.problem.is_some() {
            continue;
        }
        // Every part over every state drawing from this component, by its unique name.
        let mut parts: Vec<(&Mod, usize, &str)> = Vec::new();
        for (si, s) in states.iter().enumerate() {
            for (pi, p) in s.parts.iter().enumerate() {
                if !p.export || p.problem.is_some() {
                    continue;
                }
                let Some(pc) = p.component else { continue };
                if s.components[pc].resources != c.resources {
                    continue;
                }
                let name = all_names[si][pi].as_str();
                if !parts.iter().any(|x| x.2 == name) {
                    parts.push((s, pi, name));
                }
            }
        }
        let found: Vec<(&Mod, usize, usize)> = parts
            .iter()
            .filter_map(|&(s, pi, name)| by_name.get(name).map(|&mi| (s, pi, mi)))
            .collect();
        if found.is_empty() {
            out.report.push(format!(
                "component {}: no part in the mesh; unchanged",
                c.name
            ));
            continue;
        }
        let prim = |mi: usize| {
            doc.meshes
                .get(mi)
                .and_then(|m| m.primitives.first())
                .map(|p| &p.attributes)
        };
        let shared = found.windows(2).all(|w| prim(w[0].2) == prim(w[1].2));
        let read = |mi: usize, ext: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>| {
            read_mesh(file, &doc, &bin, glb, mi, ext)
                .map_err(|e| ModError::new(at.clone(), None, e))
        };
        // The vertex set and each found part's vertex numbers in it.
        let mut vertex_set: Option<ImportedMesh> = None;
        let mut part_lists: Vec<(usize, Vec<u32>)> = Vec::new();
        for (k, &(s, pi, mi)) in found.iter().enumerate() {
            let im = read(mi, external)?;
            if im.mode != 4 {
                return Err(ModError::new(
                    at.clone(),
                    Some(s.parts[pi].name.clone()),
                    format!("primitive mode {} is not triangles", im.mode),
                ));
            }
            let base = match (&mut vertex_set, shared) {
                (None, _) => 0,
                (Some(_), true) => 0,
                (Some(v), false) => {
                    let b = v.vertex_count as u32;
                    for (name, values, _) in &mut v.attributes {
                        let Some((_, add, _)) = im.attributes.iter().find(|a| &a.0 == name) else {
                            return Err(ModError::new(
                                at.clone(),
                                Some(s.parts[pi].name.clone()),
                                format!(
                                    "the part has no attribute `{name}`, which the component's other parts have"
                                ),
                            ));
                        };
                        values.extend_from_slice(add);
                    }
                    v.vertex_count += im.vertex_count;
                    b
                }
            };
            part_lists.push((k, im.indices.iter().map(|&i| i + base).collect()));
            if vertex_set.is_none() {
                vertex_set = Some(im);
            }
        }
        let mut vs = vertex_set.expect("found is not empty");
        let n_new = vs.vertex_count as u32;
        // Encode through the component's layout.
        let elements: Vec<crate::element::InputElementDesc> = c
            .streams
            .iter()
            .flat_map(|s| s.elements.iter().cloned())
            .collect();
        let created =
            crate::validation::layout_without_shader(&crate::target::Target::default(), &elements);
        let Some(layout) = created.layout.as_ref() else {
            let msgs: Vec<String> = created.errors().map(|d| d.to_string()).collect();
            return Err(err(
                m,
                format!(
                    "component {}: CreateInputLayout refuses its layout: {}",
                    c.name,
                    msgs.join("; ")
                ),
            ));
        };
        vs.indices = Vec::new();
        let strides: Vec<(u32, u32)> = c
            .streams
            .iter()
            .enumerate()
            .map(|(k, s)| (k as u32, s.stride))
            .collect();
        let imp = import(
            &vs,
            layout,
            &ImportOptions {
                rounding: options.rounding,
                strides,
                rebase: true,
                ..ImportOptions::default()
            },
        )
        .map_err(|e| err(m, format!("component {}: {e}", c.name)))?;
        out.warnings.extend(
            imp.warnings
                .iter()
                .map(|w| format!("component {}: {w}", c.name)),
        );
        let mut buffers: Vec<Vec<u8>> = c.streams.iter().map(|_| Vec::new()).collect();
        for b in imp.buffers {
            if let Some(x) = buffers.get_mut(b.slot as usize) {
                *x = b.data;
            }
        }
        // Bytes no element covers keep the original record's.
        for (k, s) in c.streams.iter().enumerate() {
            let stride = s.stride as usize;
            let mut covered = vec![false; stride];
            for e in &s.elements {
                let size = e.format.info().map_or(0, |i| i.byte_size()) as usize;
                for b in covered
                    .iter_mut()
                    .skip(e.aligned_byte_offset as usize)
                    .take(size)
                {
                    *b = true;
                }
            }
            let buf = &mut buffers[k];
            buf.resize(n_new as usize * stride, 0);
            if covered.iter().all(|&x| x) {
                continue;
            }
            let old = m.buffer(s.resource).unwrap_or(&[]);
            for v in 0..(n_new as usize).min(old.len() / stride) {
                for (b, cov) in covered.iter().enumerate() {
                    if !cov {
                        buf[v * stride + b] = old[v * stride + b];
                    }
                }
            }
        }
        // Parts the mesh lacks: their vertices' original records are appended, unless the
        // vertex set is the original one.
        let mut edit = ComponentEdit {
            component: ci,
            ..ComponentEdit::default()
        };
        let same_set = shared && n_new == c.vertex_count;
        let mut extra: BTreeMap<u32, u32> = BTreeMap::new();
        let mut appended = 0u32;
        for &(s, pi, name) in &parts {
            let key = part_key(s, pi);
            let hit = found
                .iter()
                .position(|&(fs, fpi, _)| std::ptr::eq(fs, s) && fpi == pi);
            let list: Vec<u32> = match hit {
                Some(k) => {
                    out.report.push(format!(
                        "{name}: {} indices from the mesh",
                        part_lists[k].1.len()
                    ));
                    part_lists[k].1.clone()
                }
                None => {
                    let orig = part_vertices(s, pi)?;
                    if same_set {
                        out.report
                            .push(format!("{name}: not in the mesh; kept as it was"));
                        continue;
                    }
                    out.report.push(format!(
                        "{name}: not in the mesh; its original vertices are appended"
                    ));
                    orig.iter()
                        .map(|&v| {
                            *extra.entry(v).or_insert_with(|| {
                                appended += 1;
                                n_new + appended - 1
                            })
                        })
                        .collect()
                }
            };
            if let Some(k) = key.1 {
                edit.ranges.push((k, list));
            }
        }
        for (k, s) in c.streams.iter().enumerate() {
            let stride = s.stride as usize;
            let old = m.buffer(s.resource).unwrap_or(&[]);
            let mut order: Vec<(&u32, &u32)> = extra.iter().collect();
            order.sort_by_key(|x| *x.1);
            for (&orig, _) in order {
                let at = orig as usize * stride;
                buffers[k].extend_from_slice(old.get(at..at + stride).unwrap_or(&vec![0; stride]));
            }
        }
        edit.vertex_count = n_new + appended;
        edit.buffers = c
            .streams
            .iter()
            .zip(buffers)
            .map(|(s, b)| (s.resource, b))
            .collect();
        out.report.push(format!(
            "component {}: {} vertices (was {}){}",
            c.name,
            edit.vertex_count,
            c.vertex_count,
            if shared {
                ""
            } else {
                ", parts' vertices appended in part order"
            }
        ));
        out.edits.components.push(edit);
    }
    Ok(out)
}
