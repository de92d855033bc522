//! glTF 2.0: the mesh written as `.glb` or `.gltf` + `.bin`, and read back for import.
//!
//! Semantics map to glTF attributes with the conversions the glTF 2.0 specification
//! (§3.7.2.1) requires, names compared case-insensitively as Direct3D does:
//!
//! | element | glTF attribute | conversion |
//! |---|---|---|
//! | POSITION0 | `POSITION` VEC3 float, min/max | x, y, z as floats |
//! | NORMAL0 | `NORMAL` VEC3 float | normalised (zero vectors → +Z) |
//! | TANGENT0 | `TANGENT` VEC4 float | x, y, z normalised (zero → +X), w = −1 when negative, else +1 |
//! | TEXCOORDn | `TEXCOORD_n` VEC2 float | x, y |
//! | COLORn (3 or 4 components) | `COLOR_n` VEC3/VEC4 float | as decoded |
//! | BLENDINDICESn with BLENDWEIGHT(S)n | `JOINTS_n` VEC4 u8/u16, `WEIGHTS_n` VEC4 float | indices 0…65535; weights scaled to sum 1 (all zero → 1, 0, 0, 0) |
//!
//! Indexed semantics are mapped only while their set numbers run 0, 1, 2, … (glTF requires
//! continuity). Every other element, and every element a conversion changed (values
//! normalised, lanes dropped, non-finite floats replaced by 0, integers made floats), is also
//! written unchanged as a custom attribute `_NAME` (`_NAMEi` for semantic index i > 0): the
//! four register lanes as VEC4 FLOAT, integers as their exact float values, or — past 2^24 —
//! as the float values of their low and high 16-bit halves in `_NAME` and `_NAME_HI`. So
//! nothing is lost, except NaN/infinity values, which glTF cannot hold (replaced by 0,
//! counted in a warning). Under `--instances attributes` the node's `EXT_mesh_gpu_instancing`
//! holds the per-instance elements the same way, beside an all-zero `TRANSLATION`. The original layout, formats, slots, draw and
//! the attribute ↔ element map go into `meshes[0].extras.inlay`, which [`read_glb`] /
//! [`read_gltf`] use to import the mesh back.
//!
//! Positions and winding are written as the draw has them (no handedness conversion).

use std::io::{Seek, Write};

use super::{MeshInput, MeshOptions};

mod reader;
pub mod schema;
pub(crate) mod stats;
mod writer;

pub use reader::{ImportedMesh, ReadError, read_glb, read_gltf};
pub(crate) use stats::{Stats, finite_lanes};
pub(crate) use writer::{
    Document, IndexInfo, Part, document, glb_head, gltf_json, plan_stats, render_indices,
};
pub(crate) use writer::{LANE_NAMES, SkinBlock, VERTEX_ID, extras_of};
pub use writer::{write_glb, write_gltf};

pub use super::streamed::{ExportError, Exported, StreamOptions};

/// Exports the draw `input` as a binary glTF to `out`: the bytes [`Mesh::build`](crate::mesh::Mesh::build) and
/// [`write_glb`] give, without building the mesh where the draw allows (see
/// [`Exported::streamed`]): two passes over the draw in blocks of about 1 MiB that are
/// reused — one that reads (bounds, statistics), one that writes each block's accessor bytes
/// at their offsets (so `out` must seek) — and 32-bit list indices written straight from the
/// index buffer. With the `parallel` feature both passes use every available thread
/// ([`StreamOptions::threads`]; the calling thread does the writing), without it the
/// calling thread alone. Memory stays bounded by the block size and the thread count,
/// whatever the draw's size. Other
/// draws (text-dump slots, `--instances expand|attributes`, element numbers spread too far
/// for a range) are built as a [`Mesh`](crate::mesh::Mesh) first. `out` is left at the end of what was written.
///
/// ```no_run
/// use inlay::capture::load_dump;
/// use inlay::mesh::{gltf, input_of, MeshOptions};
/// let capture = load_dump("Mona-vb0=12345678.txt".as_ref()).unwrap();
/// let mut file = std::fs::File::create("mona.glb").unwrap();
/// let done = gltf::export_glb(&input_of(&capture), &MeshOptions::default(), &mut file).unwrap();
/// for w in &done.warnings {
///     eprintln!("warning: {w}");
/// }
/// ```
pub fn export_glb<W: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    out: &mut W,
) -> Result<Exported, ExportError> {
    export_glb_with(input, options, &StreamOptions::default(), out)
}

/// [`export_glb`] with the block size and threads of `stream`.
pub fn export_glb_with<W: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    stream: &StreamOptions,
    out: &mut W,
) -> Result<Exported, ExportError> {
    super::streamed::export(input, options, stream, super::streamed::Target::Glb(out))
}

/// Exports the draw `input` as glTF JSON to `json_out` and its buffer to `bin_out` (named
/// `bin_uri` in the JSON): the bytes [`Mesh::build`](crate::mesh::Mesh::build) and [`write_gltf`] give, streamed as
/// [`export_glb`] streams.
pub fn export_gltf<B: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    json_out: &mut dyn Write,
    bin_out: &mut B,
    bin_uri: &str,
) -> Result<Exported, ExportError> {
    export_gltf_with(
        input,
        options,
        &StreamOptions::default(),
        json_out,
        bin_out,
        bin_uri,
    )
}

/// [`export_gltf`] with the block size and threads of `stream`.
pub fn export_gltf_with<B: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    stream: &StreamOptions,
    json_out: &mut dyn Write,
    bin_out: &mut B,
    bin_uri: &str,
) -> Result<Exported, ExportError> {
    super::streamed::export(
        input,
        options,
        stream,
        super::streamed::Target::Gltf(json_out, bin_out, bin_uri),
    )
}
