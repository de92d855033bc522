//! Vertex fetch and draws: ia-semantics §1.2–§4, §7–§9, with exact bit patterns.

mod ia_support;
mod support;

use ia_support::*;
use inlay::assembler::{AssembledVertex, DrawCall, IaError, InputAssembler, Topology};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::format::Format;
use inlay::layout::{InputLayout, LayoutElement};
use inlay::target::{Api, FeatureLevel, Target};

const ONE: u32 = 0x3f80_0000;

fn vb(data: &[u8], stride: u32, offset: u32) -> Option<VertexBufferBinding<'_>> {
    Some(VertexBufferBinding {
        data,
        stride,
        offset,
    })
}

fn ib(data: &[u8], format: IndexFormat, offset: u32) -> Option<IndexBufferBinding<'_>> {
    Some(IndexBufferBinding {
        data,
        format,
        offset,
    })
}

fn new_ia(layout: &InputLayout) -> InputAssembler<'_> {
    let mut ia = InputAssembler::new(layout, Target::default());
    ia.set_topology(Topology::PointList).unwrap();
    ia
}

fn run(ia: &InputAssembler<'_>, call: DrawCall<'_>) -> Vec<AssembledVertex> {
    ia.draw(&call).unwrap().vertices().collect()
}

fn draw(n: u32, start: u32) -> DrawCall<'static> {
    DrawCall::Draw {
        vertex_count: n,
        start_vertex: start,
    }
}

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// One vertex, one element of `format` over `bytes`: its register.
fn fetch_one(format: Format, bytes: &[u8]) -> [u32; 4] {
    let l = layout(vec![vertex_el(format, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(bytes, bytes.len() as u32, 0))
        .unwrap();
    run(&ia, draw(1, 0))[0].registers[0]
}

// ---- §1.2 byte layout, §1.3 conversions, §2 defaults -------------------------------------

#[test]
fn defaults_are_typed_by_first_component() {
    // R44: float-like formats get w = 1.0, integer formats w = integer 1.
    assert_eq!(
        fetch_one(Format::R32_FLOAT, &0x4049_0fdbu32.to_le_bytes()),
        [0x4049_0fdb, 0, 0, ONE]
    );
    assert_eq!(
        fetch_one(Format::R16G16_UINT, &[0x09, 0x03, 0xff, 0xff]),
        [777, 0xffff, 0, 1]
    );
    assert_eq!(
        fetch_one(Format::R16_SINT, &[0xb3, 0xff]),
        [(-77i32) as u32, 0, 0, 1]
    );
    assert_eq!(
        fetch_one(Format::R8G8_SNORM, &[0x80, 0x7f]),
        [0xbf80_0000, ONE, 0, ONE]
    );
    assert_eq!(
        fetch_one(Format::R32G32B32_SINT, &words(&[1, 2, 0xffff_ffff])),
        [1, 2, 0xffff_ffff, 1]
    );
    assert_eq!(
        fetch_one(Format::R11G11B10_FLOAT, &0u32.to_le_bytes()),
        [0, 0, 0, ONE]
    );
}

#[test]
fn bgra_is_swizzled() {
    // Wine test_vertex_formats: B8G8R8A8_UNORM bytes 21 43 65 87 → (0x65, 0x43, 0x21, 0x87)/255.
    assert_eq!(
        fetch_one(Format::B8G8R8A8_UNORM, &[0x21, 0x43, 0x65, 0x87]),
        [
            unorm_ref(0x65, 8),
            unorm_ref(0x43, 8),
            unorm_ref(0x21, 8),
            unorm_ref(0x87, 8)
        ]
    );
    // B5G6R5: B bits 0–4, G 5–10, R 11–15; R = 31, G = 1, B = 2.
    let v: u16 = (31 << 11) | (1 << 5) | 2;
    assert_eq!(
        fetch_one(Format::B5G6R5_UNORM, &v.to_le_bytes()),
        [ONE, unorm_ref(1, 6), unorm_ref(2, 5), ONE]
    );
    // B4G4R4A4: B 0–3, G 4–7, R 8–11, A 12–15.
    let v: u16 = 0x1234; // A=1 R=2 G=3 B=4
    assert_eq!(
        fetch_one(Format::B4G4R4A4_UNORM, &v.to_le_bytes()),
        [
            unorm_ref(2, 4),
            unorm_ref(3, 4),
            unorm_ref(4, 4),
            unorm_ref(1, 4)
        ]
    );
    // B5G5R5A1: B 0–4, G 5–9, R 10–14, A 15.
    let v: u16 = (1 << 15) | (3 << 10) | (5 << 5) | 7;
    assert_eq!(
        fetch_one(Format::B5G5R5A1_UNORM, &v.to_le_bytes()),
        [unorm_ref(3, 5), unorm_ref(5, 5), unorm_ref(7, 5), ONE]
    );
}

#[test]
fn bgrx_w_is_one() {
    // The X byte is unused: w is a missing component and reads 1.0 whatever the byte holds.
    assert_eq!(
        fetch_one(Format::B8G8R8X8_UNORM, &[0x00, 0x80, 0xff, 0x00]),
        [ONE, unorm_ref(0x80, 8), 0, ONE]
    );
    assert_eq!(
        fetch_one(Format::B8G8R8X8_UNORM, &[0x01, 0x02, 0x03, 0x77]),
        [unorm_ref(3, 8), unorm_ref(2, 8), unorm_ref(1, 8), ONE]
    );
}

#[test]
fn thirty_two_bit_lanes_are_copied() {
    // NaN payloads (signalling and quiet, both signs), denormals, −0 and Inf pass unchanged.
    let bits = [0x7fa0_0001u32, 0xffc1_2345, 0x0000_0001, 0x8000_0000];
    assert_eq!(fetch_one(Format::R32G32B32A32_FLOAT, &words(&bits)), bits);
    let bits = [0x807f_ffffu32, 0xff80_0000, 0x7f80_0001];
    assert_eq!(
        fetch_one(Format::R32G32B32_FLOAT, &words(&bits)),
        [bits[0], bits[1], bits[2], ONE]
    );
    assert_eq!(
        fetch_one(Format::R32G32_UINT, &words(&[0xdead_beef, 0xffff_ffff])),
        [0xdead_beef, 0xffff_ffff, 0, 1]
    );
    assert_eq!(
        fetch_one(Format::R32_SINT, &words(&[0x8000_0000])),
        [0x8000_0000, 0, 0, 1]
    );
}

#[test]
fn small_integer_and_packed_formats() {
    // R8G8B8A8_SINT 0xff → −1, −128/127 exact; UINT zero-extends.
    assert_eq!(
        fetch_one(Format::R8G8B8A8_SINT, &[0xff, 0x80, 0x7f, 0x00]),
        [0xffff_ffff, (-128i32) as u32, 127, 0]
    );
    assert_eq!(
        fetch_one(Format::R8G8B8A8_UINT, &[0xff, 0x80, 0x7f, 0x01]),
        [255, 128, 127, 1]
    );
    // R10G10B10A2: R = bits 0–9, G = 10–19, B = 20–29, A = 30–31.
    let v: u32 = 1023 | (512 << 10) | (1 << 20) | (2 << 30);
    assert_eq!(
        fetch_one(Format::R10G10B10A2_UINT, &v.to_le_bytes()),
        [1023, 512, 1, 2]
    );
    assert_eq!(
        fetch_one(Format::R10G10B10A2_UNORM, &v.to_le_bytes()),
        [ONE, unorm_ref(512, 10), unorm_ref(1, 10), 0x3f2a_aaab]
    );
    // SNORM16 −32768 and −32767 both give −1.0.
    assert_eq!(
        fetch_one(Format::R16G16_SNORM, &[0x00, 0x80, 0x01, 0x80]),
        [0xbf80_0000, 0xbf80_0000, 0, ONE]
    );
    // Half: subnormal 0x0001 → 2^-24, −Inf, and 1.0.
    assert_eq!(
        fetch_one(
            Format::R16G16B16A16_FLOAT,
            &[0x01, 0x00, 0x00, 0xfc, 0x00, 0x3c, 0x00, 0x80]
        ),
        [0x3380_0000, 0xff80_0000, ONE, 0x8000_0000]
    );
}

// ---- §2 out of bounds and unbound ---------------------------------------------------------

#[test]
fn out_of_bounds_whole_element_zero_with_defaults() {
    // 40-byte buffer, stride 16: element 2 of R32G32B32A32_FLOAT is bytes 32..48, straddling
    // the end (8 bytes inside): whole element reads 0, no default for a 4-component format.
    let data: Vec<u8> = (1..=10u32)
        .flat_map(|w| (w * 0x1111).to_le_bytes())
        .collect();
    let l = layout(vec![
        vertex_el(Format::R32G32B32A32_FLOAT, 0, 0, 0),
        vertex_el(Format::R32G32_FLOAT, 0, 0, 1),
        vertex_el(Format::R16G16_SINT, 0, 4, 2),
        vertex_el(Format::R8G8B8A8_UNORM, 0, 0, 3),
    ]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 16, 0)).unwrap();
    let v = run(&ia, draw(4, 0));
    // Element 1 fully inside.
    assert_eq!(
        v[1].registers[0],
        [5 * 0x1111, 6 * 0x1111, 7 * 0x1111, 8 * 0x1111]
    );
    // Element 2: the 16-byte read straddles, the 8-byte one ends exactly at the end.
    assert_eq!(v[2].registers[0], [0, 0, 0, 0]);
    assert_eq!(v[2].registers[1], [9 * 0x1111, 10 * 0x1111, 0, ONE]);
    assert_eq!(v[2].registers[2], [(0xaaaa_i32 - 0x1_0000) as u32, 0, 0, 1]);
    // Element 3 (bytes 48..): fully out: present lanes 0, missing ones defaulted.
    assert_eq!(v[3].registers[1], [0, 0, 0, ONE]);
    assert_eq!(v[3].registers[2], [0, 0, 0, 1]);
    assert_eq!(v[3].registers[3], [0, 0, 0, 0]);
}

#[test]
fn out_of_bounds_below_bind_offset() {
    // Bind offset 8, stride 4, base vertex −3, index 1: element −2 → address 0 < 8 → OOB.
    let data = words(&[0x11, 0x22, 0x33, 0x44, 0x55]);
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 4, 8)).unwrap();
    let idx = words(&[1, 2, 3, 4, 5]);
    ia.set_index_buffer(ib(&idx, IndexFormat::R32Uint, 0))
        .unwrap();
    let v = run(
        &ia,
        DrawCall::DrawIndexed {
            index_count: 5,
            start_index: 0,
            base_vertex: -3,
        },
    );
    let got: Vec<_> = v.iter().map(|v| (v.vertex_id, v.registers[0][0])).collect();
    // Elements −2, −1 (OOB below), 0, 1, 2 → bytes 8, 12, 16.
    assert_eq!(got, [(1, 0), (2, 0), (3, 0x33), (4, 0x44), (5, 0x55)]);
    assert_eq!(v[0].registers[0], [0, 0, 0, 1]);
}

#[test]
fn unbound_slot_reads_all_zero_including_w() {
    let data = words(&[0x3f80_0000, 0x4000_0000]);
    let l = layout(vec![
        vertex_el(Format::R32G32_FLOAT, 0, 0, 0),
        vertex_el(Format::R32G32_FLOAT, 1, 0, 1),
        vertex_el(Format::R16_UINT, 2, 0, 2),
        instance_el(Format::R8_UNORM, 3, 0, 1, 3),
    ]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 8, 0)).unwrap();
    let v = run(&ia, draw(1, 0));
    assert_eq!(v[0].registers[0], [ONE, 0x4000_0000, 0, ONE]);
    assert_eq!(v[0].registers[1], [0; 4]);
    assert_eq!(v[0].registers[2], [0; 4]);
    assert_eq!(v[0].registers[3], [0; 4]);
    assert_eq!(v[0].fed, 0b1111);
    // Unbinding again gives zeros again.
    ia.set_vertex_buffer(0, None).unwrap();
    assert_eq!(run(&ia, draw(1, 0))[0].registers[0], [0; 4]);
}

#[test]
fn element_without_register_feeds_nothing() {
    let data = words(&[7, 8]);
    let l = layout(vec![
        LayoutElement {
            register: None,
            ..vertex_el(Format::R32_UINT, 0, 0, 0)
        },
        vertex_el(Format::R32_UINT, 0, 4, 1),
    ]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 8, 0)).unwrap();
    let v = run(&ia, draw(1, 0));
    assert_eq!(v[0].fed, 0b10);
    assert_eq!(v[0].register(0), None);
    assert_eq!(v[0].register(1), Some([8, 0, 0, 1]));
    assert_eq!(v[0].registers[0], [0; 4]);
}

#[test]
fn unbound_index_buffer_reads_zero() {
    // Every index reads 0: SV_VertexID 0, element BaseVertexLocation fetched.
    let data = words(&[10, 11, 12, 13]);
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 4, 0)).unwrap();
    let v = run(
        &ia,
        DrawCall::DrawIndexed {
            index_count: 3,
            start_index: 5,
            base_vertex: 2,
        },
    );
    let got: Vec<_> = v.iter().map(|v| (v.vertex_id, v.registers[0][0])).collect();
    assert_eq!(got, [(0, 12), (0, 12), (0, 12)]);
}

#[test]
fn index_read_past_end_reads_zero() {
    // R16 buffer of 3 indices + 1 stray byte; bind offset 2. Index 3's bytes are 8..10 (past
    // the 7-byte end), and index 2 straddles (bytes 6..8): both read 0 — never a cut.
    let idx = [0xff, 0xff, 3, 0, 2, 0, 1, 0xee];
    let data = words(&[100, 101, 102, 103]);
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 4, 0)).unwrap();
    ia.set_index_buffer(ib(&idx[..7], IndexFormat::R16Uint, 2))
        .unwrap();
    let v = run(
        &ia,
        DrawCall::DrawIndexed {
            index_count: 4,
            start_index: 0,
            base_vertex: 0,
        },
    );
    let got: Vec<_> = v.iter().map(|v| (v.vertex_id, v.registers[0][0])).collect();
    assert_eq!(got, [(3, 103), (2, 102), (0, 100), (0, 100)]);
}

#[test]
fn index_buffer_offset_and_start_index() {
    // Wine test_index_buffer_offset: byte offsets 0/16 shift the start by 0/4 R32 indices.
    let idx = words(&[0, 1, 2, 3, 4, 5, 6, 7]);
    let data = words(&[50, 51, 52, 53, 54, 55, 56, 57]);
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 4, 0)).unwrap();
    for (offset, first) in [(0u32, 0u32), (16, 4)] {
        ia.set_index_buffer(ib(&idx, IndexFormat::R32Uint, offset))
            .unwrap();
        let v = run(
            &ia,
            DrawCall::DrawIndexed {
                index_count: 2,
                start_index: 1,
                base_vertex: 0,
            },
        );
        let ids: Vec<_> = v.iter().map(|v| v.vertex_id).collect();
        assert_eq!(ids, [first + 1, first + 2]);
        assert_eq!(v[0].registers[0][0], 51 + first);
    }
}

// ---- §3 addresses ----------------------------------------------------------------------

#[test]
fn addresses_wrap_at_32_bits() {
    // stride 16 × 0x1000_0001 = 2^32 + 16 → wraps to 16: element 1.
    let data = words(&[10, 11, 12, 13, 14, 15, 16, 17]);
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 16, 0)).unwrap();
    let v = run(&ia, draw(2, 0x1000_0001));
    assert_eq!(v[0].registers[0][0], 14);
    assert_eq!(v[1].vertex_id, 1);
    // 0x1000_0002 · 16 wraps to 32: bytes 32.. are out of the 32-byte buffer.
    assert_eq!(v[1].registers[0], [0, 0, 0, 1]);
    // Start vertex u32::MAX, two vertices: element 0xffffffff (address −16, OOB) then
    // element 0 (start + 1 wraps to 0).
    let v = run(&ia, draw(2, u32::MAX));
    assert_eq!(v[0].registers[0], [0, 0, 0, 1]);
    assert_eq!(v[1].registers[0], [10, 0, 0, 1]);
    assert_eq!((v[0].vertex_id, v[1].vertex_id), (0, 1));
    ia.set_vertex_buffer(0, vb(&data, 4, 4)).unwrap();
    let v = run(&ia, draw(3, u32::MAX - 1));
    // Elements −2, −1 fall below the bind offset (4 − 8 wraps, 4 − 4 = 0 < 4), element 0 is byte 4.
    let got: Vec<_> = v.iter().map(|v| v.registers[0][0]).collect();
    assert_eq!(got, [0, 0, 11]);
    // Element offset + bind offset near u32::MAX: the sum wraps below the bind offset → OOB.
    let l2 = layout(vec![vertex_el(Format::R32_UINT, 0, 0xffff_fff0, 0)]);
    let mut ia2 = new_ia(&l2);
    ia2.set_vertex_buffer(0, vb(&data, 4, 0x20)).unwrap();
    assert_eq!(run(&ia2, draw(1, 0))[0].registers[0], [0, 0, 0, 1]);
    // … while a bind offset of u32::MAX simply lies past the end.
    ia2.set_vertex_buffer(0, vb(&data, 4, u32::MAX)).unwrap();
    assert_eq!(run(&ia2, draw(1, 0))[0].registers[0], [0, 0, 0, 1]);
}

#[test]
fn negative_base_vertex_wraps_into_range() {
    // Indices 5, 6 with base vertex −4 → elements 1, 2; IDs stay the raw indices.
    let data = words(&[30, 31, 32, 33]);
    let idx: Vec<u8> = [5u16, 6].iter().flat_map(|i| i.to_le_bytes()).collect();
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 4, 0)).unwrap();
    ia.set_index_buffer(ib(&idx, IndexFormat::R16Uint, 0))
        .unwrap();
    let v = run(
        &ia,
        DrawCall::DrawIndexed {
            index_count: 2,
            start_index: 0,
            base_vertex: -4,
        },
    );
    let got: Vec<_> = v.iter().map(|v| (v.vertex_id, v.registers[0][0])).collect();
    assert_eq!(got, [(5, 31), (6, 32)]);
}

#[test]
fn zero_stride_reads_one_element() {
    let data = words(&[9, 8, 7]);
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 4, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 0, 0)).unwrap();
    let v = run(&ia, draw(3, 100));
    assert!(v.iter().all(|v| v.registers[0] == [8, 0, 0, 1]));
}

#[test]
fn step_rates_zero_one_n_with_start_instance() {
    // Per-instance slots with rates 0, 1, 2; StartInstanceLocation 4; 4 instances of 1 vertex.
    // Wine test_instanced_draw: rate 0 reads element StartInstanceLocation for every instance.
    let data = words(&(0..16).collect::<Vec<u32>>());
    let l = layout(vec![
        instance_el(Format::R32_UINT, 1, 0, 0, 0),
        instance_el(Format::R32_UINT, 2, 0, 1, 1),
        instance_el(Format::R32_UINT, 3, 0, 2, 2),
        vertex_el(Format::R32_UINT, 0, 0, 3),
    ]);
    let mut ia = new_ia(&l);
    for s in 0..4 {
        ia.set_vertex_buffer(s, vb(&data, 4, 0)).unwrap();
    }
    let v = run(
        &ia,
        DrawCall::DrawInstanced {
            vertex_count_per_instance: 2,
            instance_count: 4,
            start_vertex: 7,
            start_instance: 4,
        },
    );
    assert_eq!(v.len(), 8);
    let got: Vec<_> = v
        .iter()
        .map(|v| {
            (
                v.instance_id,
                v.vertex_id,
                v.registers[0][0],
                v.registers[1][0],
                v.registers[2][0],
                v.registers[3][0],
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (0, 0, 4, 4, 4, 7),
            (0, 1, 4, 4, 4, 8),
            (1, 0, 4, 5, 4, 7),
            (1, 1, 4, 5, 4, 8),
            (2, 0, 4, 6, 5, 7),
            (2, 1, 4, 6, 5, 8),
            (3, 0, 4, 7, 5, 7),
            (3, 1, 4, 7, 5, 8),
        ]
    );
    // Per-instance data ignores the index buffer and BaseVertexLocation.
    let idx = words(&[3, 1]);
    ia.set_index_buffer(ib(&idx, IndexFormat::R32Uint, 0))
        .unwrap();
    let v = run(
        &ia,
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 2,
            instance_count: 3,
            start_index: 0,
            base_vertex: 10,
            start_instance: 1,
        },
    );
    let got: Vec<_> = v
        .iter()
        .map(|v| {
            (
                v.instance_id,
                v.vertex_id,
                v.registers[1][0],
                v.registers[2][0],
                v.registers[3][0],
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (0, 3, 1, 1, 13),
            (0, 1, 1, 1, 11),
            (1, 3, 2, 1, 13),
            (1, 1, 2, 1, 11),
            (2, 3, 3, 2, 13),
            (2, 1, 3, 2, 11),
        ]
    );
}

// ---- §4 IDs for every draw kind --------------------------------------------------------

fn ids(ia: &InputAssembler<'_>, call: DrawCall<'_>) -> Vec<(u32, u32, u32)> {
    run(ia, call)
        .iter()
        .map(|v| (v.vertex_id, v.instance_id, v.registers[0][0]))
        .collect()
}

#[test]
fn vertex_and_instance_ids_every_draw_kind() {
    let data = words(&(0..32).map(|x| 1000 + x).collect::<Vec<u32>>());
    let idx = words(&[0, 1, 2, 7, 8, 9, 3, 4, 5, 6]);
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 4, 0)).unwrap();
    ia.set_index_buffer(ib(&idx, IndexFormat::R32Uint, 0))
        .unwrap();
    // Wine test_vertex_id: Draw with StartVertexLocation 3 fetches 3,4,5, IDs 0,1,2.
    assert_eq!(
        ids(&ia, draw(3, 3)),
        [(0, 0, 1003), (1, 0, 1004), (2, 0, 1005)]
    );
    // DrawIndexed base 9, indices 0,1,2 → fetch 9,10,11, IDs 0,1,2.
    assert_eq!(
        ids(
            &ia,
            DrawCall::DrawIndexed {
                index_count: 3,
                start_index: 0,
                base_vertex: 9
            }
        ),
        [(0, 0, 1009), (1, 0, 1010), (2, 0, 1011)]
    );
    // DrawInstanced(3, 2, start 3, start instance 16): IDs restart per instance, instance IDs
    // from 0.
    assert_eq!(
        ids(
            &ia,
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 3,
                instance_count: 2,
                start_vertex: 3,
                start_instance: 16
            }
        ),
        [
            (0, 0, 1003),
            (1, 0, 1004),
            (2, 0, 1005),
            (0, 1, 1003),
            (1, 1, 1004),
            (2, 1, 1005)
        ]
    );
    // DrawIndexedInstanced: raw index values, every instance re-reads the same indices.
    assert_eq!(
        ids(
            &ia,
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 2,
                instance_count: 2,
                start_index: 3,
                base_vertex: 1,
                start_instance: 5
            }
        ),
        [(7, 0, 1008), (8, 0, 1009), (7, 1, 1008), (8, 1, 1009)]
    );
    // Indirect forms (argument values as in the vkd3d-proton D3D12 test_vertex_id).
    let args = words(&[0xdead, 4, 1, 12, 1, 2, 3, 16, 0]);
    assert_eq!(
        ids(
            &ia,
            DrawCall::DrawInstancedIndirect {
                args: &args,
                offset: 4
            }
        ),
        [(0, 0, 1012), (1, 0, 1013), (2, 0, 1014), (3, 0, 1015)]
    );
    assert_eq!(
        ids(
            &ia,
            DrawCall::DrawInstancedIndirect {
                args: &args,
                offset: 20
            }
        ),
        [
            (0, 0, 1016),
            (1, 0, 1017),
            (0, 1, 1016),
            (1, 1, 1017),
            (0, 2, 1016),
            (1, 2, 1017)
        ]
    );
    // Indexed indirect {IndexCount 2, InstanceCount 2, StartIndex 6, BaseVertex −1 (as
    // 0xffffffff), StartInstance 3}: indices 3, 4 → elements 2, 3.
    let args = words(&[2, 2, 6, 0xffff_ffff, 3]);
    assert_eq!(
        ids(
            &ia,
            DrawCall::DrawIndexedInstancedIndirect {
                args: &args,
                offset: 0
            }
        ),
        [(3, 0, 1002), (4, 0, 1003), (3, 1, 1002), (4, 1, 1003)]
    );
}

#[test]
fn indirect_args_errors() {
    let l = layout(vec![]);
    let ia = new_ia(&l);
    let args = words(&[1, 1, 0, 0, 0]);
    let call = |offset| DrawCall::DrawInstancedIndirect {
        args: &args,
        offset,
    };
    assert!(matches!(
        ia.draw(&call(2)),
        Err(IaError::ArgsMisaligned { offset: 2, .. })
    ));
    assert!(ia.draw(&call(4)).is_ok());
    assert!(matches!(
        ia.draw(&call(8)),
        Err(IaError::ArgsOutOfRange {
            offset: 8,
            needed: 16,
            len: 20,
            ..
        })
    ));
    assert!(matches!(
        ia.draw(&call(0xffff_fffc)),
        Err(IaError::ArgsOutOfRange { .. })
    ));
    let short = [0u8; 19];
    assert!(matches!(
        ia.draw(&DrawCall::DrawIndexedInstancedIndirect {
            args: &short,
            offset: 0
        }),
        Err(IaError::ArgsOutOfRange { needed: 20, .. })
    ));
    assert!(matches!(
        ia.draw(&DrawCall::DrawIndexedInstancedIndirect {
            args: &[],
            offset: 0
        }),
        Err(IaError::ArgsOutOfRange { .. })
    ));
    // The error message names the call, offset and sizes.
    let msg = ia.draw(&call(8)).unwrap_err().to_string();
    assert!(
        msg.contains("DrawInstancedIndirect") && msg.contains("offset 8"),
        "{msg}"
    );
}

#[test]
fn draw_auto_counts_filled_bytes_from_bind_offset() {
    let data = words(&(0..16).collect::<Vec<u32>>());
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    assert!(matches!(
        ia.draw(&DrawCall::DrawAuto { filled_size: 64 }),
        Err(IaError::DrawAutoUnbound)
    ));
    ia.set_vertex_buffer(0, vb(&data, 12, 8)).unwrap();
    // (8 + 3·12 + 5 − 8) / 12 = 3 vertices; the 5 remainder bytes are dropped.
    let v = ids(&ia, DrawCall::DrawAuto { filled_size: 49 });
    assert_eq!(v, [(0, 0, 2), (1, 0, 5), (2, 0, 8)]);
    // Filled size at or below the offset: nothing.
    assert!(ids(&ia, DrawCall::DrawAuto { filled_size: 8 }).is_empty());
    assert!(ids(&ia, DrawCall::DrawAuto { filled_size: 3 }).is_empty());
    // Stride 0: no vertex count can be derived: nothing.
    ia.set_vertex_buffer(0, vb(&data, 0, 0)).unwrap();
    assert!(ids(&ia, DrawCall::DrawAuto { filled_size: 64 }).is_empty());
}

#[test]
fn zero_counts_produce_nothing() {
    let data = words(&[1, 2, 3]);
    let l = layout(vec![vertex_el(Format::R32_UINT, 0, 0, 0)]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 4, 0)).unwrap();
    ia.set_topology(Topology::TriangleList).unwrap();
    for call in [
        draw(0, 0),
        DrawCall::DrawInstanced {
            vertex_count_per_instance: 3,
            instance_count: 0,
            start_vertex: 0,
            start_instance: 0,
        },
        DrawCall::DrawInstanced {
            vertex_count_per_instance: 0,
            instance_count: u32::MAX,
            start_vertex: 0,
            start_instance: 0,
        },
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 0,
            instance_count: 5,
            start_index: 0,
            base_vertex: 0,
            start_instance: 0,
        },
    ] {
        let d = ia.draw(&call).unwrap();
        assert_eq!(d.vertices().count(), 0);
        assert_eq!(d.primitives().count(), 0);
        assert_eq!(d.walk().count(), 0);
    }
}

// ---- state errors ----------------------------------------------------------------------

#[test]
fn binding_errors() {
    let l = layout(vec![]);
    let data = [0u8; 4];
    let mut ia = InputAssembler::new(&l, Target::default());
    assert_eq!(
        ia.set_vertex_buffer(0, vb(&data, 2049, 0)),
        Err(IaError::StrideTooLarge {
            slot: 0,
            stride: 2049
        })
    );
    assert!(ia.set_vertex_buffer(31, vb(&data, 2048, 0)).is_ok());
    assert_eq!(
        ia.set_vertex_buffer(32, vb(&data, 4, 0)),
        Err(IaError::SlotOutOfRange {
            slot: 32,
            count: 32
        })
    );
    assert!(ia.set_vertex_buffer(u32::MAX, None).is_err());
    let mut ia10 = InputAssembler::new(&l, Target::new(Api::D3D11, FeatureLevel::L10_0));
    assert_eq!(
        ia10.set_vertex_buffer(16, vb(&data, 4, 0)),
        Err(IaError::SlotOutOfRange {
            slot: 16,
            count: 16
        })
    );
    // Index formats: R32 refused at 9_1, fine from 9_2.
    let mut ia91 = InputAssembler::new(&l, Target::new(Api::D3D11, FeatureLevel::L9_1));
    assert_eq!(
        ia91.set_index_buffer(ib(&data, IndexFormat::R32Uint, 0)),
        Err(IaError::IndexFormatUnsupported {
            format: Format::R32_UINT,
            level: FeatureLevel::L9_1
        })
    );
    assert!(
        ia91.set_index_buffer(ib(&data, IndexFormat::R16Uint, 0))
            .is_ok()
    );
    let mut ia92 = InputAssembler::new(&l, Target::new(Api::D3D11, FeatureLevel::L9_2));
    assert!(
        ia92.set_index_buffer(ib(&data, IndexFormat::R32Uint, 0))
            .is_ok()
    );
    // Topologies.
    assert!(matches!(
        ia91.set_topology(Topology::TriangleStripAdj),
        Err(IaError::TopologyUnsupported { .. })
    ));
    assert!(ia91.set_topology(Topology::TriangleStrip).is_ok());
    assert_eq!(
        ia.set_topology_d3d(7),
        Err(IaError::UnknownTopology { value: 7 })
    );
    assert!(ia.set_topology_d3d(64).is_ok());
    assert_eq!(ia.topology(), Topology::PatchList(32));
    // Draws.
    let fresh = InputAssembler::new(&l, Target::default());
    assert!(matches!(
        fresh.draw(&draw(3, 0)),
        Err(IaError::TopologyUndefined { call: "Draw" })
    ));
    assert!(matches!(
        ia91.draw(&DrawCall::DrawInstanced {
            vertex_count_per_instance: 3,
            instance_count: 1,
            start_vertex: 0,
            start_instance: 0
        }),
        Err(IaError::DrawUnsupported { .. })
    ));
    let args = [0u8; 16];
    let mut ia_d3d10 = InputAssembler::new(&l, Target::new(Api::D3D10, FeatureLevel::L10_0));
    ia_d3d10.set_topology(Topology::PointList).unwrap();
    assert!(matches!(
        ia_d3d10.draw(&DrawCall::DrawInstancedIndirect {
            args: &args,
            offset: 0
        }),
        Err(IaError::DrawUnsupported { .. })
    ));
}

#[test]
fn bad_layouts_are_errors() {
    // Layouts exist only through CreateInputLayout, which refuses these, so no draw ever sees
    // a register past v31, a format that is not an IA format or a slot past the limit.
    for (el, id, want) in [
        (vertex_el(Format::R32_UINT, 0, 0, 32), 161, "v32"),
        (vertex_el(Format::BC1_UNORM, 0, 0, 0), 153, "BC1_UNORM"),
        (vertex_el(Format(9999), 0, 0, 0), 152, "9999"),
        (vertex_el(Format::R32_UINT, 40, 0, 0), 154, "40"),
    ] {
        let c = support::try_create_layout(&[el]);
        assert!(c.layout.is_none());
        assert_eq!(c.error_ids(), [inlay::MessageId(id)]);
        let e = &c.errors().next().unwrap().message;
        assert!(e.contains(want), "{e}");
    }
}

// ---- huge draws: constant memory, no panic -----------------------------------------------

#[test]
fn huge_draws_stream_lazily() {
    let data = words(&[5, 6]);
    let idx = words(&[1]);
    let l = layout(vec![
        vertex_el(Format::R32_UINT, 0, 0, 0),
        instance_el(Format::R32_UINT, 1, 0, 3, 1),
    ]);
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 4, 0)).unwrap();
    ia.set_vertex_buffer(1, vb(&data, 4, 0)).unwrap();
    ia.set_index_buffer(ib(&idx, IndexFormat::R32Uint, 0))
        .unwrap();
    let d = ia
        .draw(&DrawCall::DrawInstanced {
            vertex_count_per_instance: u32::MAX,
            instance_count: u32::MAX,
            start_vertex: u32::MAX,
            start_instance: u32::MAX,
        })
        .unwrap();
    assert_eq!(d.walk().remaining(), (u32::MAX as u64) * (u32::MAX as u64));
    let first: Vec<_> = d.vertices().take(3).collect();
    // Element u32::MAX is OOB (address −4), then elements 0 and 1.
    assert_eq!(first[0].registers[0], [0, 0, 0, 1]);
    assert_eq!(first[1].registers[0], [5, 0, 0, 1]);
    assert_eq!(first[2].registers[0], [6, 0, 0, 1]);
    // Per-instance element u32::MAX: OOB.
    assert_eq!(first[0].registers[1], [0, 0, 0, 1]);
    assert_eq!(first[2].position, 2);
    // Indexed, every index but the first read far past the end → 0; start index near u32::MAX.
    let d = ia
        .draw(&DrawCall::DrawIndexedInstanced {
            index_count_per_instance: u32::MAX,
            instance_count: 2,
            start_index: u32::MAX,
            base_vertex: i32::MIN,
            start_instance: 0,
        })
        .unwrap();
    let first: Vec<_> = d.vertices().take(3).map(|v| v.vertex_id).collect();
    // start_index u32::MAX → byte 0xfffffffc (past end) → 0; +1 wraps to index 0 → 1; then 0.
    assert_eq!(first, [0, 1, 0]);
    ia.set_topology(Topology::TriangleStripAdj).unwrap();
    let d = ia.draw(&draw(u32::MAX, 0)).unwrap();
    let prims: Vec<_> = d.primitives().take(2).collect();
    assert_eq!(prims[1].vertices(), &[2, 5, 6, 8, 4, 0]);
}

// ---- batch API --------------------------------------------------------------------------

#[test]
fn fill_matches_iterator() {
    let data: Vec<u8> = (0..=255u8).collect();
    let idx: Vec<u8> = [3u16, 0xffff, 9, 1, 0xffff, 0xffff, 4, 60000]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let l = layout(support::valid(&[
        vertex_el(Format::R8G8B8A8_SNORM, 0, 0, 0),
        vertex_el(Format::R16G16_FLOAT, 0, 2, 5),
        instance_el(Format::B5G6R5_UNORM, 1, 1, 2, 31),
    ]));
    let mut ia = new_ia(&l);
    ia.set_vertex_buffer(0, vb(&data, 7, 3)).unwrap();
    ia.set_vertex_buffer(1, vb(&data, 5, 0)).unwrap();
    ia.set_index_buffer(ib(&idx, IndexFormat::R16Uint, 0))
        .unwrap();
    let d = ia
        .draw(&DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 8,
            instance_count: 5,
            start_index: 0,
            base_vertex: 2,
            start_instance: 1,
        })
        .unwrap();
    let all: Vec<_> = d.vertices().collect();
    assert_eq!(all.len(), 5 * 5); // 3 cuts per instance
    let mut batched = Vec::new();
    let mut it = d.vertices();
    let mut buf = [AssembledVertex::default(); 4];
    loop {
        let n = it.fill(&mut buf);
        batched.extend_from_slice(&buf[..n]);
        if n < buf.len() {
            break;
        }
    }
    assert_eq!(batched, all);
    assert_eq!(it.fill(&mut buf), 0);
    let positions: Vec<u64> = all.iter().map(|v| v.position).collect();
    assert_eq!(positions, (0..25).collect::<Vec<u64>>());
}
