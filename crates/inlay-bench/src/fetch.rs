//! The decode workloads: the fast fetch of `inlay::fetch` over three typical meshes.
//!
//! * **W1 "float mesh"**, stride 48: POSITION R32G32B32_FLOAT @0, NORMAL R32G32B32_FLOAT @12,
//!   TEXCOORD0 R32G32_FLOAT @24, TANGENT R32G32B32A32_FLOAT @32 — `FetchPlan::fetch_registers`
//!   over a vertex range.
//! * **W2 "packed mesh"**, stride 28: POSITION R16G16B16A16_FLOAT @0, NORMAL
//!   R10G10B10A2_UNORM @8, TEXCOORD0 R16G16_UNORM @12, COLOR B8G8R8A8_UNORM @16,
//!   BLENDINDICES R8G8B8A8_UINT @20, BLENDWEIGHT R8G8B8A8_UNORM @24 — the same call.
//! * **W3 "indexed strip"**: `DrawIndexedInstanced` of a triangle strip over a grid, one strip
//!   per grid row ended by a cut index (R16_UINT indices, cut 0xFFFF), slot 0 per-vertex
//!   (stride 20: POSITION R32G32B32_FLOAT @0, NORMAL R8G8B8A8_SNORM @12, TEXCOORD0
//!   R16G16_FLOAT @16), slot 1 per-instance at step rate 1 (stride 64: a 4-row matrix,
//!   TRANSFORM0…3 R32G32B32A32_FLOAT @0/16/32/48), 16 instances (more above ~2 M vertices) —
//!   the assembler's batch path `VertexStream::fill_registers_only`, 4096 vertices a call
//!   (index walk, cut removal, indexed fetch). Its shader reads no system value, so the stream
//!   writes only the registers, like W1 and W2 (`fill_registers`, which also writes each
//!   vertex's 16-byte `VertexIds`, ran W3 about 13 % slower on the Intel CI host). Its roof
//!   reads 22 bytes per vertex: the 2-byte index and the 20 vertex bytes, as if every vertex
//!   came from memory (they are reused from cache in fact), and writes the 112 register bytes.
//!
//! The data is deterministic pseudo-random and valid: 32-bit floats in [−100, 100), halves
//! normal and finite, every other component uniformly random bits (decided per component from
//! the format table).

use inlay::assembler::{DrawCall, InputAssembler, Topology};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::element::InputElementDesc;
use inlay::fetch::{FetchPlan, Instance, Isa, STREAM_THRESHOLD_BYTES, StoreMode, Vertices};
use inlay::format::{Format, Kind};
use inlay::layout::InputLayout;
use inlay::target::Target;
use std::ops::Range;

use crate::Workload;

/// A layout whose element `i` feeds register `i` (`inlay::validation::layout_without_shader`).
/// Panics on a layout the runtime would refuse (the workloads' are fixed and valid).
pub fn layout(elements: &[InputElementDesc]) -> InputLayout {
    inlay::validation::layout_without_shader(&Target::default(), elements)
        .layout
        .expect("benchmark layouts are valid")
}

/// W1's elements (slot 0, stride 48).
pub fn w1_elements() -> Vec<InputElementDesc> {
    vec![
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R32G32B32_FLOAT, 0, 12),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 24),
        InputElementDesc::per_vertex("TANGENT", 0, Format::R32G32B32A32_FLOAT, 0, 32),
    ]
}

/// W2's elements (slot 0, stride 28).
pub fn w2_elements() -> Vec<InputElementDesc> {
    vec![
        InputElementDesc::per_vertex("POSITION", 0, Format::R16G16B16A16_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R10G10B10A2_UNORM, 0, 8),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R16G16_UNORM, 0, 12),
        InputElementDesc::per_vertex("COLOR", 0, Format::B8G8R8A8_UNORM, 0, 16),
        InputElementDesc::per_vertex("BLENDINDICES", 0, Format::R8G8B8A8_UINT, 0, 20),
        InputElementDesc::per_vertex("BLENDWEIGHT", 0, Format::R8G8B8A8_UNORM, 0, 24),
    ]
}

/// W3's elements: slot 0 per-vertex (stride 20), slot 1 a per-instance matrix (stride 64).
pub fn w3_elements() -> Vec<InputElementDesc> {
    let mut e = vec![
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R8G8B8A8_SNORM, 0, 12),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R16G16_FLOAT, 0, 16),
    ];
    for row in 0..4 {
        e.push(InputElementDesc::per_instance(
            "TRANSFORM",
            row,
            Format::R32G32B32A32_FLOAT,
            1,
            16 * row,
            1,
        ));
    }
    e
}

/// `count` elements of `slot` (stride `stride`) of deterministic valid data (see the module
/// comment), seeded by `seed`.
pub fn make_data(layout: &InputLayout, slot: u32, stride: u32, count: u32, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64(seed);
    let stride = stride as usize;
    let mut data = vec![0u8; count as usize * stride];
    for vertex in data.chunks_exact_mut(stride) {
        for e in layout.elements().iter().filter(|e| e.slot == slot) {
            let Some(info) = e.format.info() else {
                continue;
            };
            let size = info.byte_size() as usize;
            let bytes = &mut vertex[e.offset as usize..e.offset as usize + size];
            // Random bits first, then the float components replaced by valid values.
            for b in bytes.iter_mut() {
                *b = rng.next() as u8;
            }
            for c in info.present().filter(|c| c.kind == Kind::Float) {
                let at = c.bit_offset as usize / 8;
                match c.bits {
                    32 => {
                        let u = (rng.next() >> 40) as f32 / (1u32 << 24) as f32;
                        let v = u * 200.0 - 100.0;
                        bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
                    }
                    16 => {
                        let r = rng.next();
                        let exp = 1 + (r % 30) as u16; // 1 ..= 30: normal, finite
                        let h = ((r >> 8) as u16 & 0x8000) | (exp << 10) | (r >> 20) as u16 & 0x3ff;
                        bytes[at..at + 2].copy_from_slice(&h.to_le_bytes());
                    }
                    _ => {}
                }
            }
        }
    }
    data
}

/// The store mode a whole pass with `bytes` of output gets from [`StoreMode::Auto`]: the
/// harness times a pass in parts, and a part must write the way the whole pass does.
pub fn store_mode(bytes: usize) -> StoreMode {
    if bytes >= STREAM_THRESHOLD_BYTES {
        StoreMode::Streaming
    } else {
        StoreMode::Auto
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// W1 or W2: one slot of per-vertex data decoded over a vertex range into the register file.
pub struct MeshDecode {
    name: &'static str,
    description: &'static str,
    /// The layout (element `i` → register `i`).
    pub layout: InputLayout,
    /// Vertex stride.
    pub stride: u32,
    /// The vertex buffer.
    pub data: Vec<u8>,
    vertices: u32,
    isa: Isa,
}

impl MeshDecode {
    fn new(
        name: &'static str,
        description: &'static str,
        elements: &[InputElementDesc],
        stride: u32,
        vertices: u32,
        isa: Isa,
    ) -> MeshDecode {
        let layout = layout(elements);
        let data = make_data(&layout, 0, stride, vertices, 0x1a7 ^ stride as u64);
        MeshDecode {
            name,
            description,
            layout,
            stride,
            data,
            vertices,
            isa,
        }
    }

    /// W1, the float mesh.
    pub fn w1(vertices: u32, isa: Isa) -> MeshDecode {
        MeshDecode::new("W1", "float mesh", &w1_elements(), 48, vertices, isa)
    }

    /// W2, the packed mesh.
    pub fn w2(vertices: u32, isa: Isa) -> MeshDecode {
        MeshDecode::new("W2", "packed mesh", &w2_elements(), 28, vertices, isa)
    }

    /// The compiled plan over this workload's buffer, with the store mode of a whole pass
    /// (see [`store_mode`]).
    pub fn plan(&self) -> FetchPlan<'_> {
        let bindings = [Some(VertexBufferBinding {
            data: &self.data,
            stride: self.stride,
            offset: 0,
        })];
        FetchPlan::new(&self.layout, &bindings)
            .expect("benchmark layouts compile")
            .with_isa(self.isa)
            .with_store_mode(store_mode(self.vertices() * self.output_bytes_per_vertex()))
    }
}

impl Workload for MeshDecode {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        self.description
    }
    fn vertices(&self) -> usize {
        self.vertices as usize
    }
    fn input_bytes_per_vertex(&self) -> usize {
        self.stride as usize
    }
    fn output_bytes_per_vertex(&self) -> usize {
        16 * self.layout.elements().len()
    }
    fn roof_input(&self) -> &[u8] {
        &self.data
    }
    fn run(&self, threads: usize, vertices: Range<usize>, out: &mut [u8]) {
        let out: &mut [[u32; 4]] = bytemuck::cast_slice_mut(out);
        let vertices = Vertices::Range {
            first: vertices.start as u32,
            count: vertices.len() as u32,
        };
        let _ = self
            .plan()
            .fetch_registers_parallel(vertices, Instance::default(), out, threads);
    }
}

/// Grid columns of W3 (vertices per grid row; a strip covers two rows).
const W3_COLUMNS: u32 = 256;
/// Most strips per instance (keeps every index below the cut value 0xFFFF).
const W3_MAX_STRIPS: u32 = 254;

/// W3: an indexed, instanced triangle strip with cuts, through the assembler's batch path.
pub struct StripDecode {
    /// The layout (element `i` → register `i`).
    pub layout: InputLayout,
    /// Slot 0: the grid's vertices (stride 20).
    pub vertex_data: Vec<u8>,
    /// Slot 1: one 4-row matrix per instance (stride 64).
    pub instance_data: Vec<u8>,
    /// R16_UINT indices of one instance: strips of `2·256` indices, each but the last ended
    /// by 0xFFFF.
    pub index_data: Vec<u8>,
    /// Indices per instance, cuts included.
    pub index_count: u32,
    /// Instances.
    pub instances: u32,
    /// Vertices per instance (indices that are not cuts).
    pub per_instance: u32,
    roof_input: Vec<u8>,
}

impl StripDecode {
    /// W3 with about `vertices` vertices (whole strips, whole instances; at least one strip
    /// of 16 instances). The assembler compiles its fetch plan with the kernels of
    /// [`Isa::detect`], so W3 runs those whatever the harness's `isa`.
    pub fn w3(vertices: u32) -> StripDecode {
        let strip = 2 * W3_COLUMNS;
        let strips = (vertices / (16 * strip)).clamp(1, W3_MAX_STRIPS);
        let instances = (vertices / (strips * strip)).max(16);
        let layout = layout(&w3_elements());
        let grid = (strips + 1) * W3_COLUMNS;
        let vertex_data = make_data(&layout, 0, 20, grid, 0x3_0000);
        let instance_data = make_data(&layout, 1, 64, instances, 0x3_0001);
        let mut indices = Vec::new();
        for s in 0..strips {
            if s > 0 {
                indices.push(0xffffu16);
            }
            for c in 0..W3_COLUMNS {
                indices.push((s * W3_COLUMNS + c) as u16);
                indices.push(((s + 1) * W3_COLUMNS + c) as u16);
            }
        }
        let per_instance = strips * strip;
        let n = (per_instance * instances) as usize;
        // The roof's stand-in input: an index and a vertex's bytes per vertex, streamed.
        let roof_input = (0..n * 22).map(|i| (i * 31 + i / 4093) as u8).collect();
        StripDecode {
            layout,
            vertex_data,
            instance_data,
            index_count: indices.len() as u32,
            index_data: bytemuck::cast_slice(&indices).to_vec(),
            instances,
            per_instance,
            roof_input,
        }
    }

    /// Draws instances `first .. first + count` into `out` (their register files, in draw
    /// order) through `VertexStream::fill_registers_only`; returns the vertices written.
    pub fn draw(&self, first: u32, count: u32, out: &mut [[u32; 4]]) -> usize {
        let mut ia = InputAssembler::new(&self.layout, Target::default());
        let bound = ia
            .set_vertex_buffer(
                0,
                Some(VertexBufferBinding {
                    data: &self.vertex_data,
                    stride: 20,
                    offset: 0,
                }),
            )
            .and_then(|_| {
                ia.set_vertex_buffer(
                    1,
                    Some(VertexBufferBinding {
                        data: &self.instance_data,
                        stride: 64,
                        offset: 0,
                    }),
                )
            })
            .and_then(|_| {
                ia.set_index_buffer(Some(IndexBufferBinding {
                    data: &self.index_data,
                    format: IndexFormat::R16Uint,
                    offset: 0,
                }))
            })
            .and_then(|_| ia.set_topology(Topology::TriangleStrip));
        let draw = bound.and_then(|_| {
            ia.draw(&DrawCall::DrawIndexedInstanced {
                index_count_per_instance: self.index_count,
                instance_count: count,
                start_index: 0,
                base_vertex: 0,
                start_instance: first,
            })
        });
        let Ok(draw) = draw else { return 0 };
        let whole = self.vertices() * self.output_bytes_per_vertex();
        let mut stream = draw.vertices().with_store_mode(store_mode(whole));
        let w = self.layout.elements().len();
        // As many vertices per call as the stream reads indices per batch (4096). W3's
        // shader reads no system value, so the stream writes none (as W1 and W2 write none).
        let mut done = 0;
        while done * w < out.len() {
            let end = out.len().min((done + 4096) * w);
            let k = stream.fill_registers_only(&mut out[done * w..end]);
            if k == 0 {
                break;
            }
            done += k;
        }
        done
    }
}

impl Workload for StripDecode {
    fn name(&self) -> &str {
        "W3"
    }
    fn description(&self) -> &str {
        "indexed strip"
    }
    fn vertices(&self) -> usize {
        (self.per_instance * self.instances) as usize
    }
    fn input_bytes_per_vertex(&self) -> usize {
        22
    }
    fn output_bytes_per_vertex(&self) -> usize {
        16 * self.layout.elements().len()
    }
    fn roof_input(&self) -> &[u8] {
        &self.roof_input
    }
    /// Whole instances: part `k` is instances `⌊k·I/parts⌋ .. ⌊(k+1)·I/parts⌋`.
    fn part(&self, k: usize, parts: usize) -> Range<usize> {
        let (i, per) = (self.instances as usize, self.per_instance as usize);
        (k * i / parts * per)..((k + 1) * i / parts * per)
    }
    fn run(&self, threads: usize, vertices: Range<usize>, out: &mut [u8]) {
        let out: &mut [[u32; 4]] = bytemuck::cast_slice_mut(out);
        let per = self.per_instance as usize;
        let rows = per * self.layout.elements().len();
        // Whole instances (the ranges `part` gives), each thread a share drawn with its own
        // StartInstanceLocation.
        let (first, count) = ((vertices.start / per) as u32, (vertices.len() / per) as u32);
        let threads = threads.clamp(1, count.max(1) as usize);
        if threads == 1 {
            self.draw(first, count, out);
            return;
        }
        let share = count.div_ceil(threads as u32);
        std::thread::scope(|s| {
            let mut rest = &mut out[..];
            let mut at = first;
            while at < first + count {
                let c = share.min(first + count - at);
                let (mine, tail) = rest.split_at_mut(c as usize * rows);
                rest = tail;
                s.spawn(move || self.draw(at, c, mine));
                at += c;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inlay::convert::decode_element;

    #[test]
    fn mesh_data_is_valid_and_decodes_like_the_reference() {
        for w in [
            MeshDecode::w1(300, Isa::detect()),
            MeshDecode::w2(300, Isa::detect()),
        ] {
            let rows = w.layout.elements().len();
            let mut out = crate::AlignedBytes::zeroed(300 * rows * 16);
            w.run(1, 0..300, out.as_mut_slice());
            let out: &[[u32; 4]] = bytemuck::cast_slice(out.as_slice());
            for v in 0..300 {
                for (r, e) in w.layout.elements().iter().enumerate() {
                    let info = e.format.info().unwrap();
                    let at = v * w.stride as usize + e.offset as usize;
                    let want = decode_element(info, &w.data[at..at + info.byte_size() as usize]);
                    assert_eq!(out[v * rows + r], want, "{} vertex {v} element {r}", w.name);
                    for c in info.present().filter(|c| c.kind == Kind::Float) {
                        let f = f32::from_bits(want[c.channel.lane().unwrap()]);
                        if c.bits == 32 {
                            assert!((-100.0..100.0).contains(&f), "{} {f}", w.name);
                        } else {
                            assert!(f.is_normal(), "{} {f}", w.name);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn w3_shape_and_decode_equal_the_reference_assembler() {
        let w = StripDecode::w3(1_000_000);
        // 122 strips of 512 vertices, 16 instances; 121 cuts per instance.
        assert_eq!((w.per_instance, w.instances), (122 * 512, 16));
        assert_eq!(w.index_count, 122 * 512 + 121);
        assert_eq!(w.vertices(), 999_424);
        let cuts = w
            .index_data
            .chunks(2)
            .filter(|c| *c == [0xff, 0xff])
            .count();
        assert_eq!(cuts, 121);
        // A small draw through the threaded path against the assembler's reference iterator.
        let w = StripDecode::w3(1);
        let rows = w.layout.elements().len();
        let mut out = crate::AlignedBytes::zeroed(w.vertices() * rows * 16);
        w.run(3, 0..w.vertices(), out.as_mut_slice());
        let out: &[[u32; 4]] = bytemuck::cast_slice(out.as_slice());
        let mut k = 0;
        for instance in 0..w.instances {
            let mut ia = InputAssembler::new(&w.layout, Target::default());
            ia.set_vertex_buffer(
                0,
                Some(VertexBufferBinding {
                    data: &w.vertex_data,
                    stride: 20,
                    offset: 0,
                }),
            )
            .unwrap();
            ia.set_vertex_buffer(
                1,
                Some(VertexBufferBinding {
                    data: &w.instance_data,
                    stride: 64,
                    offset: 0,
                }),
            )
            .unwrap();
            ia.set_index_buffer(Some(IndexBufferBinding {
                data: &w.index_data,
                format: IndexFormat::R16Uint,
                offset: 0,
            }))
            .unwrap();
            ia.set_topology(Topology::TriangleStrip).unwrap();
            let draw = ia
                .draw(&DrawCall::DrawIndexedInstanced {
                    index_count_per_instance: w.index_count,
                    instance_count: 1,
                    start_index: 0,
                    base_vertex: 0,
                    start_instance: instance,
                })
                .unwrap();
            for v in draw.vertices() {
                for r in 0..rows {
                    assert_eq!(out[k * rows + r], v.registers[r], "vertex {k} register {r}");
                }
                k += 1;
            }
        }
        assert_eq!(k, w.vertices());
    }
}
