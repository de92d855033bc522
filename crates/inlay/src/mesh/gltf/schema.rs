//! glTF 2.0 JSON as typed serde structs: the part of the schema inlay writes and reads back
//! (glTF 2.0 §5), and the `meshes[i].extras.inlay` record ([`InlayExtras`]). The writer
//! builds a [`Root`] and the reader parses one, so the two cannot disagree about a field's
//! name, type or default. Unknown fields are ignored when reading (other tools add their
//! own); absent optional fields are left out when writing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// glTF `componentType` values (glTF 2.0 §3.6.2.2).
pub mod component {
    /// `BYTE`.
    pub const BYTE: u32 = 5120;
    /// `UNSIGNED_BYTE`.
    pub const UNSIGNED_BYTE: u32 = 5121;
    /// `SHORT`.
    pub const SHORT: u32 = 5122;
    /// `UNSIGNED_SHORT`.
    pub const UNSIGNED_SHORT: u32 = 5123;
    /// `UNSIGNED_INT`.
    pub const UNSIGNED_INT: u32 = 5125;
    /// `FLOAT`.
    pub const FLOAT: u32 = 5126;

    /// Bytes of one component of `ctype`, `None` for a value that is no component type.
    pub fn size(ctype: u32) -> Option<usize> {
        match ctype {
            BYTE | UNSIGNED_BYTE => Some(1),
            SHORT | UNSIGNED_SHORT => Some(2),
            UNSIGNED_INT | FLOAT => Some(4),
            _ => None,
        }
    }
}

/// `bufferViews[i].target` for vertex attributes (`ARRAY_BUFFER`).
pub const ARRAY_BUFFER: u32 = 34962;
/// `bufferViews[i].target` for indices (`ELEMENT_ARRAY_BUFFER`).
pub const ELEMENT_ARRAY_BUFFER: u32 = 34963;

fn is_false(b: &bool) -> bool {
    !*b
}

/// The document's root object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Root {
    /// `asset`.
    pub asset: Asset,
    /// `extensionsUsed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions_used: Vec<String>,
    /// `scene`: the scene shown first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scene: Option<u32>,
    /// `scenes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scenes: Vec<Scene>,
    /// `nodes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<Node>,
    /// `meshes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meshes: Vec<Mesh>,
    /// `skins`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skins: Vec<Skin>,
    /// `accessors`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accessors: Vec<Accessor>,
    /// `bufferViews`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buffer_views: Vec<BufferView>,
    /// `buffers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buffers: Vec<Buffer>,
}

/// `asset`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Asset {
    /// The glTF version ("2.0").
    pub version: String,
    /// The tool that wrote the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
}

/// `scenes[i]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its root nodes.
    #[serde(default)]
    pub nodes: Vec<u32>,
    /// Its extras; inlay writes `extras.inlay_mod` on a mod's scene.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extras: Option<SceneExtras>,
}

/// `scenes[i].extras`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SceneExtras {
    /// `inlay_mod`: which INI, states and profile a mod's scene was exported from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inlay_mod: Option<serde_json::Value>,
}

/// `nodes[i]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its child nodes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<u32>,
    /// The mesh it places.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mesh: Option<u32>,
    /// The skin that deforms its mesh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin: Option<u32>,
    /// Its extensions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<NodeExtensions>,
}

/// `nodes[i].extensions`: the one inlay writes and reads.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NodeExtensions {
    /// `EXT_mesh_gpu_instancing`.
    #[serde(
        rename = "EXT_mesh_gpu_instancing",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub gpu_instancing: Option<GpuInstancing>,
}

/// `EXT_mesh_gpu_instancing` on a node.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GpuInstancing {
    /// Attribute name → accessor, one element per instance.
    #[serde(default)]
    pub attributes: BTreeMap<String, u32>,
}

/// `meshes[i]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Mesh {
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its primitives.
    #[serde(default)]
    pub primitives: Vec<Primitive>,
    /// Its extras; inlay reads and writes `extras.inlay` only. Kept as JSON when reading, so
    /// that a record inlay cannot read does not stop the file from being read
    /// ([`MeshExtras::inlay_record`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extras: Option<MeshExtras>,
}

/// `meshes[i].extras`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeshExtras {
    /// `inlay`: an [`InlayExtras`] record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inlay: Option<Record<InlayExtras>>,
    /// `inlay_mod`: the mod part a mesh of a mod's scene is (kept as JSON when reading, as
    /// `inlay` is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inlay_mod: Option<serde_json::Value>,
}

/// A record in `extras`: the JSON as read, kept as it is so that a record inlay cannot read
/// does not stop the file from being read, or the typed record being written, serialized
/// straight into the file's JSON (a JSON tree built first cost a twentieth of a bulk
/// export's time). It reads always as [`Record::Json`].
#[derive(Clone, Debug, PartialEq)]
pub enum Record<T> {
    /// As read.
    Json(serde_json::Value),
    /// As written.
    Typed(Box<T>),
}

impl<T: Serialize> Serialize for Record<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Record::Json(v) => v.serialize(s),
            Record::Typed(t) => t.serialize(s),
        }
    }
}

impl<'de, T> Deserialize<'de> for Record<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(Record::Json)
    }
}

impl MeshExtras {
    /// The `inlay` record, typed: `None` when there is none, an error naming what does not
    /// fit when it is not a record this version reads.
    pub fn inlay_record(&self) -> Option<Result<InlayExtras, String>> {
        let v = match self.inlay.as_ref()? {
            Record::Json(v) => v,
            Record::Typed(x) => return Some(Ok((**x).clone())),
        };
        Some(
            InlayExtras::deserialize(v)
                .map_err(|e| e.to_string())
                .and_then(|x| {
                    if x.version == InlayExtras::VERSION {
                        Ok(x)
                    } else {
                        Err(format!(
                            "version {} (this inlay reads version {})",
                            x.version,
                            InlayExtras::VERSION
                        ))
                    }
                }),
        )
    }
}

/// `meshes[i].primitives[j]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Primitive {
    /// Attribute name → accessor.
    #[serde(default)]
    pub attributes: BTreeMap<String, u32>,
    /// The index accessor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indices: Option<u32>,
    /// The primitive mode (0 points, 1 lines, 3 line strip, 4 triangles, 5 triangle strip…;
    /// 4 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
}

/// `skins[i]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Skin {
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The accessor of one MAT4 per joint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inverse_bind_matrices: Option<u32>,
    /// The node at the root of the joint hierarchy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skeleton: Option<u32>,
    /// The joint nodes: `JOINTS_n` values index this list.
    #[serde(default)]
    pub joints: Vec<u32>,
}

/// `accessors[i].type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum AccessorType {
    /// One component.
    Scalar,
    /// Two.
    Vec2,
    /// Three.
    Vec3,
    /// Four.
    Vec4,
    /// 2 × 2.
    Mat2,
    /// 3 × 3.
    Mat3,
    /// 4 × 4.
    Mat4,
}

impl AccessorType {
    /// Components per element.
    pub fn components(self) -> usize {
        match self {
            AccessorType::Scalar => 1,
            AccessorType::Vec2 => 2,
            AccessorType::Vec3 => 3,
            AccessorType::Vec4 | AccessorType::Mat2 => 4,
            AccessorType::Mat3 => 9,
            AccessorType::Mat4 => 16,
        }
    }

    /// The vector type of `n` (1…4) components.
    pub fn vector(n: usize) -> AccessorType {
        match n {
            1 => AccessorType::Scalar,
            2 => AccessorType::Vec2,
            3 => AccessorType::Vec3,
            _ => AccessorType::Vec4,
        }
    }
}

/// `accessors[i]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Accessor {
    /// Its bufferView; none means all zeros.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_view: Option<u32>,
    /// Bytes from the bufferView's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub byte_offset: Option<u64>,
    /// [`component`] type.
    pub component_type: u32,
    /// Integers read as values in 0…1 (−1…1 signed).
    #[serde(default, skip_serializing_if = "is_false")]
    pub normalized: bool,
    /// Elements.
    pub count: u64,
    /// Element shape.
    #[serde(rename = "type")]
    pub kind: AccessorType,
    /// Greatest value per component.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<Vec<f64>>,
    /// Least value per component.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<Vec<f64>>,
    /// Sparse storage (not read by inlay: its presence is an error when read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sparse: Option<serde_json::Value>,
}

/// `bufferViews[i]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BufferView {
    /// Its buffer.
    pub buffer: u32,
    /// Bytes from the buffer's start.
    #[serde(default)]
    pub byte_offset: u64,
    /// Bytes.
    pub byte_length: u64,
    /// Bytes from one element to the next (packed when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub byte_stride: Option<u64>,
    /// [`ARRAY_BUFFER`] or [`ELEMENT_ARRAY_BUFFER`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<u32>,
}

/// `buffers[i]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Buffer {
    /// Bytes.
    pub byte_length: u64,
    /// Where the bytes are (a file name beside the `.gltf`); none for a `.glb`'s BIN chunk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}

/// `meshes[i].extras.inlay`: what `inlay import` needs to write the mesh back in the layout
/// it was exported from, and what each element became.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InlayExtras {
    /// "inlay".
    pub generator: String,
    /// [`InlayExtras::VERSION`].
    pub version: u32,
    /// The capture's name (the first input file's stem): the mesh's and node's name.
    #[serde(default)]
    pub name: String,
    /// The layout's elements.
    pub layout: Vec<ExtrasElement>,
    /// The vertex buffer slots read.
    pub slots: Vec<ExtrasSlot>,
    /// The draw's topology (`inlay` spelling).
    pub topology: String,
    /// The draw, as `--draw` spells it.
    pub draw: String,
    /// The index buffer's format, if the draw was indexed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_format: Option<String>,
    /// The element number of mesh vertex 0.
    pub vertex_base: u32,
    /// Vertices in the mesh.
    pub vertex_count: u32,
    /// Whether the vertices were compacted (mesh vertex k is not element `vertex_base + k`).
    pub compacted: bool,
    /// `first`, `expand` or `attributes`.
    pub instances: String,
    /// Instances drawn.
    pub instance_count: u32,
    /// Per layout element (per-vertex ones; per-instance ones under `attributes`): what it
    /// became.
    pub attributes: Vec<ExtrasAttribute>,
    /// The attribute holding each vertex's number in the mesh (and the one with its high
    /// 16 bits past 2^24), as whole floats: what tools that reorder or split vertices keep.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vertex_id: Vec<String>,
    /// The files read, as names (never the folders they were in).
    pub files: Vec<String>,
    /// The export's warnings.
    pub warnings: Vec<String>,
}

impl InlayExtras {
    /// The record version this inlay writes and reads.
    pub const VERSION: u32 = 2;
}

/// One layout element in [`InlayExtras::layout`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExtrasElement {
    /// Semantic name.
    pub semantic: String,
    /// Semantic index.
    pub index: u32,
    /// DXGI format (without `DXGI_FORMAT_`).
    pub format: String,
    /// Input slot.
    pub slot: u32,
    /// Resolved byte offset.
    pub offset: u32,
    /// The offset as declared: a number, or `append` for `D3D11_APPEND_ALIGNED_ELEMENT`.
    pub declared_offset: DeclaredOffset,
    /// `per-vertex` or `per-instance`.
    pub class: String,
    /// Instance data step rate.
    pub step_rate: u32,
}

/// [`ExtrasElement::declared_offset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DeclaredOffset {
    /// A byte offset.
    Bytes(u32),
    /// `"append"`.
    Append(AppendTag),
}

impl Default for DeclaredOffset {
    fn default() -> DeclaredOffset {
        DeclaredOffset::Bytes(0)
    }
}

/// The word `append` in [`DeclaredOffset::Append`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AppendTag {
    /// `append`.
    Append,
}

/// One vertex buffer slot in [`InlayExtras::slots`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtrasSlot {
    /// Slot number.
    pub slot: u32,
    /// Stride.
    pub stride: u32,
    /// Bind offset.
    pub offset: u32,
}

/// What one layout element became, in [`InlayExtras::attributes`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExtrasAttribute {
    /// Its index in [`InlayExtras::layout`].
    pub element: usize,
    /// The standard glTF attribute it became, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<String>,
    /// The standard attribute's conversion, in words.
    pub conversion: String,
    /// The attribute(s) holding its exact lanes, one SCALAR FLOAT per format component
    /// (empty when the standard attribute holds them exactly).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exact: Vec<String>,
    /// The attributes holding the high 16 bits of each integer lane, when a lane needs more
    /// than a float's 24 bits (the low 16 bits are then in `exact`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exact_high: Vec<String>,
}
