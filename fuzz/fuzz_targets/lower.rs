//! The lowering to Vulkan and WebGPU on arbitrary layouts and draw shapes (issue 18, issue
//! 19): `lower::lower` for the three built-in profiles, then the target structures. Nothing
//! may panic, and the lowered state must be one a target accepts: every attribute on an
//! existing binding, locations distinct; for WebGPU every stride and attribute offset a
//! multiple of 4 and no divisor (WebGPU spec §"Vertex State") — the rule the wgpu suite on
//! the H200 found broken once.
#![no_main]

use arbitrary::Arbitrary;
use inlay::assembler::Topology;
use inlay::lower::{self, DeviceProfile, DrawShape, TargetApi};
use inlay::buffer::IndexFormat;
use inlay::target::{Api, FeatureLevel, Target};
use inlay::validation::layout_without_shader;
use inlay_fuzz::{ArbElement, Biased};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    elements: Vec<ArbElement>,
    strides: Vec<(u8, Biased)>,
    topology: u8,
    indexed: bool,
    may_cut: bool,
    /// The index format the draw reads (none, R16, R32).
    index_format: u8,
    /// A D3D12 layout (strides from the views, strip cut as pipeline state) instead of D3D11.
    d3d12: bool,
    /// Index values for the strip remedies (widening, unrolling).
    indices: Vec<u32>,
    /// The cut value the unrolling applies (none, 0xFFFF, 0xFFFFFFFF, any).
    cut: (u8, u32),
}

fuzz_target!(|input: Input| {
    let descs: Vec<_> = input.elements.iter().take(34).map(ArbElement::desc).collect();
    let target = if input.d3d12 {
        Target::new(Api::D3D12, FeatureLevel::L12_0)
    } else {
        Target::default()
    };
    let Some(layout) = layout_without_shader(&target, &descs).layout else {
        return;
    };
    let Some(topology) = Topology::from_d3d(input.topology as u32) else {
        return;
    };
    let shape = DrawShape {
        strides: input
            .strides
            .iter()
            .take(40)
            .map(|(s, st)| ((*s % 33) as u32, st.0))
            .collect(),
        topology,
        indexed: input.indexed,
        may_cut: input.may_cut,
        index_format: match input.index_format % 3 {
            0 => None,
            1 => Some(IndexFormat::R16Uint),
            _ => Some(IndexFormat::R32Uint),
        },
    };
    // The D3D12 strip remedies: bounded, and an unrolled list holds only whole primitives
    // of source vertices (never the cut value).
    let cut = match input.cut.0 % 4 {
        0 => None,
        1 => Some(0xffff),
        2 => Some(0xffff_ffff),
        _ => Some(input.cut.1),
    };
    let indices = &input.indices[..input.indices.len().min(4096)];
    if let Some(list) = lower::list_of_strip(topology) {
        match lower::strip_to_list(indices, cut, topology, 6 * 4096) {
            Ok((t, out)) => {
                assert_eq!(t, list);
                assert_eq!(out.len() % t.vertices_per_primitive().max(1), 0);
                assert!(out.iter().all(|i| Some(*i) != cut && indices.contains(i)));
            }
            Err(e) => panic!("{e}"),
        }
    }
    let bytes: Vec<u8> = indices.iter().flat_map(|i| (*i as u16).to_le_bytes()).collect();
    let wide = lower::widen_indices(&bytes).expect("even length");
    assert_eq!(wide.len(), 2 * bytes.len());
    for profile in [
        DeviceProfile::vulkan_required(),
        DeviceProfile::wgpu_default(),
    ] {
        let l = lower::lower(&layout, &shape, &profile);
        let s = &l.state;
        let mut locations: Vec<u32> = s.attributes.iter().map(|a| a.location).collect();
        locations.sort_unstable();
        let n = locations.len();
        locations.dedup();
        assert_eq!(locations.len(), n, "{s:?}");
        for a in &s.attributes {
            assert!(s.bindings.iter().any(|b| b.binding == a.binding), "{s:?}");
        }
        let _ = l.converted_elements(&layout);
        if profile.api == TargetApi::Wgpu {
            for b in &s.bindings {
                assert!(
                    b.stride % 4 == 0 && b.stride <= profile.max_vertex_input_binding_stride,
                    "binding {b:?} in {s:?}"
                );
                assert_eq!(b.divisor, None, "{b:?}");
            }
            for a in &s.attributes {
                assert_eq!(a.offset % 4, 0, "{a:?}");
            }
            let _ = s.to_wgpu();
        } else {
            let _ = s.to_vulkan();
        }
    }
});
