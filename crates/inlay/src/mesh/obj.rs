//! Wavefront OBJ: positions (`v`), texture coordinates (`vt`, TEXCOORD0), normals (`vn`,
//! NORMAL0) and `f`/`l`/`p` elements with 1-based indices.
//!
//! OBJ has no place for other attributes or per-instance data: only the first instance is
//! written, and every element other than POSITION0, NORMAL0 and TEXCOORD0 is left out (a
//! comment line names each). Floats are written in Rust's shortest round-trip form;
//! NaN/infinite values are written as 0, counted in a comment and in a warning that names the
//! first.

use std::io::{self, Write};

use super::{Attribute, Mesh, Mode};

/// The attribute with `semantic` (case-insensitive) and `index`.
pub(crate) fn find<'m>(mesh: &'m Mesh, semantic: &str, index: u32) -> Option<&'m Attribute> {
    mesh.attributes
        .iter()
        .find(|a| a.semantic.eq_ignore_ascii_case(semantic) && a.semantic_index == index)
}

/// Lane `l` of a value as a float (as glTF reads it), and whether it was finite.
pub(crate) fn lane_f32(a: &Attribute, v: &[u32; 4], l: usize) -> (f32, bool) {
    let x = super::gltf::stats::float_lane(v[l], a.kind());
    if x.is_finite() {
        (x, true)
    } else {
        (0.0, false)
    }
}

/// The NaN and infinite values a writer replaced by 0 (OBJ text and PLY's standard
/// properties have no agreed spelling for them), counted so that the writer can say so.
#[derive(Debug, Default)]
pub(crate) struct NonFinite {
    count: u64,
    /// The first: element, lane and vertex.
    first: Option<String>,
}

impl NonFinite {
    /// Lane `l` of vertex `k`'s value `v` of `a` as a float ([`lane_f32`]); a NaN or
    /// infinity is counted and becomes 0.
    pub(crate) fn lane(&mut self, a: &Attribute, v: &[u32; 4], l: usize, k: usize) -> f32 {
        let (x, ok) = lane_f32(a, v, l);
        if !ok {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(format!(
                    "{}{}.{} of vertex {k}",
                    a.semantic,
                    a.semantic_index,
                    ["x", "y", "z", "w"][l]
                ));
            }
        }
        x
    }

    /// How many values were replaced.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// The warning for the values replaced in a `format` file, if any.
    pub(crate) fn warning(&self, format: &str) -> Option<String> {
        self.first.as_ref().map(|first| {
            format!(
                "{} NaN or infinite values were written as 0 ({format} holds finite numbers \
                 only; the first is {first}); export to .glb to keep them in its exact copies",
                self.count
            )
        })
    }
}

/// Writes `mesh` as OBJ text; returns the warnings (NaN and infinite values written as 0).
pub fn write_obj(mesh: &Mesh, out: &mut dyn Write) -> io::Result<Vec<String>> {
    let position = find(mesh, "POSITION", 0).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the layout has no POSITION element: OBJ needs positions (export to .glb to keep every element)",
        )
    })?;
    let normal = find(mesh, "NORMAL", 0);
    let tex = find(mesh, "TEXCOORD", 0);
    let mut w = io::BufWriter::with_capacity(1 << 16, out);
    writeln!(
        w,
        "# written by inlay: {} vertices, draw {}",
        mesh.vertex_count, mesh.draw
    )?;
    // The object takes the capture's name (Blender and other importers name it from `o`);
    // a control character in a file name would end the line, so it becomes `_`.
    let name: String = mesh
        .name()
        .chars()
        .map(|c| if c.is_control() { '_' } else { c })
        .collect();
    writeln!(w, "o {name}")?;
    for a in &mesh.attributes {
        let used = [Some(position), normal, tex]
            .iter()
            .flatten()
            .any(|u| u.element == a.element);
        if !used {
            writeln!(
                w,
                "# element {}{} {} not written (OBJ has no place for it)",
                a.semantic, a.semantic_index, a.format
            )?;
        }
    }
    let mut non_finite = NonFinite::default();
    let mut line = String::with_capacity(96);
    use std::fmt::Write as _;
    for (tag, attr, comps) in [("v", Some(position), 3), ("vt", tex, 2), ("vn", normal, 3)] {
        let Some(a) = attr else { continue };
        for (k, v) in a.values.iter().enumerate() {
            line.clear();
            line.push_str(tag);
            for l in 0..comps {
                let x = non_finite.lane(a, v, l, k);
                let _ = write!(line, " {x}");
            }
            line.push('\n');
            w.write_all(line.as_bytes())?;
        }
    }
    let (tag, n) = match mesh.mode {
        Mode::Points => ("p", 1),
        Mode::Lines => ("l", 2),
        Mode::Triangles => ("f", 3),
    };
    for p in mesh.indices.chunks_exact(n) {
        line.clear();
        line.push_str(tag);
        for &i in p {
            let k = i as u64 + 1;
            match (
                tex.is_some(),
                normal.is_some(),
                mesh.mode == Mode::Triangles,
            ) {
                (true, true, true) => write!(line, " {k}/{k}/{k}"),
                (false, true, true) => write!(line, " {k}//{k}"),
                (true, false, true) => write!(line, " {k}/{k}"),
                _ => write!(line, " {k}"),
            }
            .expect("writing to a String");
        }
        line.push('\n');
        w.write_all(line.as_bytes())?;
    }
    if non_finite.count() > 0 {
        writeln!(
            w,
            "# {} NaN or infinite values written as 0",
            non_finite.count()
        )?;
    }
    w.flush()?;
    Ok(non_finite.warning("OBJ").into_iter().collect())
}
