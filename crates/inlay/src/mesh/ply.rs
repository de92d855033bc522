//! Stanford PLY, binary little-endian: `x y z` (POSITION0), `nx ny nz` (NORMAL0), `s t`
//! (TEXCOORD0), `red green blue alpha` (COLOR0, as unsigned bytes), then every other element's
//! lanes as properties `NAME_x`, `NAME_y`, … (float for FLOAT/UNORM/SNORM formats, int or uint
//! for integer formats, exact); faces as `vertex_indices` lists, lines as `edge` elements.
//! Only the first instance is written. NaN/infinite values in the standard properties are
//! written as 0, with a warning naming the first (the other elements' properties keep them).

use std::io::{self, Write};

use super::obj::{NonFinite, find};
use super::{Attribute, Mesh, Mode};
use crate::format::Kind;

/// Writes `mesh` as binary PLY; returns the warnings (NaN and infinite values written as 0).
pub fn write_ply(mesh: &Mesh, out: &mut dyn Write) -> io::Result<Vec<String>> {
    let position = find(mesh, "POSITION", 0).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the layout has no POSITION element: PLY needs positions (export to .glb to keep every element)",
        )
    })?;
    let normal = find(mesh, "NORMAL", 0);
    let tex = find(mesh, "TEXCOORD", 0);
    let color = find(mesh, "COLOR", 0).filter(|c| c.kind().is_float_like());
    let standard: Vec<usize> = [Some(position), normal, tex, color]
        .iter()
        .flatten()
        .map(|a| a.element)
        .collect();
    let others: Vec<&Attribute> = mesh
        .attributes
        .iter()
        .filter(|a| !standard.contains(&a.element))
        .collect();
    let mut h = String::new();
    h.push_str("ply\nformat binary_little_endian 1.0\ncomment written by inlay\n");
    h.push_str(&format!("element vertex {}\n", mesh.vertex_count));
    h.push_str("property float x\nproperty float y\nproperty float z\n");
    if normal.is_some() {
        h.push_str("property float nx\nproperty float ny\nproperty float nz\n");
    }
    if tex.is_some() {
        h.push_str("property float s\nproperty float t\n");
    }
    if color.is_some() {
        h.push_str(
            "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar alpha\n",
        );
    }
    for a in &others {
        let ty = match a.kind() {
            Kind::Uint => "uint",
            Kind::Sint => "int",
            _ => "float",
        };
        let name: String = format!("{}{}", a.semantic, a.semantic_index)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        for l in 0..a.components() {
            h.push_str(&format!(
                "property {ty} {name}_{}\n",
                ["x", "y", "z", "w"][l]
            ));
        }
    }
    let prims = mesh.indices.len() / mesh.mode.vertices();
    match mesh.mode {
        Mode::Triangles => h.push_str(&format!(
            "element face {prims}\nproperty list uchar uint vertex_indices\n"
        )),
        Mode::Lines => h.push_str(&format!(
            "element edge {prims}\nproperty uint vertex1\nproperty uint vertex2\n"
        )),
        Mode::Points => {}
    }
    h.push_str("end_header\n");
    let mut w = io::BufWriter::with_capacity(1 << 16, out);
    w.write_all(h.as_bytes())?;
    let mut row = Vec::with_capacity(256);
    let mut non_finite = NonFinite::default();
    for k in 0..mesh.vertex_count as usize {
        row.clear();
        for (a, comps) in [(Some(position), 3), (normal, 3), (tex, 2)] {
            let Some(a) = a else { continue };
            for l in 0..comps {
                row.extend_from_slice(&non_finite.lane(a, &a.values[k], l, k).to_le_bytes());
            }
        }
        if let Some(c) = color {
            for l in 0..4 {
                let x = non_finite.lane(c, &c.values[k], l, k);
                row.push((x.clamp(0.0, 1.0) * 255.0).round() as u8);
            }
        }
        for a in &others {
            for l in 0..a.components() {
                row.extend_from_slice(&a.values[k][l].to_le_bytes());
            }
        }
        w.write_all(&row)?;
    }
    match mesh.mode {
        Mode::Triangles => {
            for t in mesh.indices.chunks_exact(3) {
                row.clear();
                row.push(3);
                for &i in t {
                    row.extend_from_slice(&i.to_le_bytes());
                }
                w.write_all(&row)?;
            }
        }
        Mode::Lines => {
            for l in mesh.indices.chunks_exact(2) {
                w.write_all(&l[0].to_le_bytes())?;
                w.write_all(&l[1].to_le_bytes())?;
            }
        }
        Mode::Points => {}
    }
    w.flush()?;
    Ok(non_finite.warning("PLY").into_iter().collect())
}
