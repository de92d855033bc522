//! glTF import on arbitrary bytes (issue 18): `read_glb` and `read_gltf` (external buffers
//! refused), then `mesh::import` of whatever reads into a fixed three-slot layout with
//! packed formats. Nothing may panic; every written buffer holds a whole number of records of
//! its stride, and the index buffer a whole number of indices.
#![no_main]

use inlay::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use inlay::format::Format;
use inlay::mesh::gltf::{read_glb, read_gltf};
use inlay::mesh::import::{ImportOptions, import};
use inlay::target::Target;
use inlay::validation::layout_without_shader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let elements = [
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R10G10B10A2_UNORM, 1, 0),
        InputElementDesc::per_vertex(
            "TEXCOORD",
            0,
            Format::R16G16_FLOAT,
            1,
            APPEND_ALIGNED_ELEMENT,
        ),
        InputElementDesc::per_vertex("COLOR", 0, Format::B8G8R8A8_UNORM, 2, 0),
        InputElementDesc::per_vertex("BLENDINDICES", 0, Format::R8G8B8A8_UINT, 2, 4),
    ];
    let layout = layout_without_shader(&Target::default(), &elements)
        .layout
        .expect("the fixed layout is valid");
    let mut no_files = |uri: &str| Err(format!("{uri}: external files are not read here"));
    for read in [
        read_glb("f.glb", data, &mut no_files),
        read_gltf("f.gltf", data, &mut no_files),
    ] {
        let Ok(mesh) = read else { continue };
        if let Ok(out) = import(&mesh, &layout, &ImportOptions::default()) {
            for b in &out.buffers {
                assert!(b.stride > 0 && b.data.len() % b.stride as usize == 0, "{b:?}");
            }
            assert_eq!(out.index.1.len() % out.index.0.size() as usize, 0);
        }
    }
});
