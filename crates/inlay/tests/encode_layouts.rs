//! The vertex writer, repack and the compiled encode plan, through created layouts.
//!
//! The writer is checked by decoding its buffers with the reference assembler (a draw over
//! them must give back the values written); repack against the writer and the decoder; the
//! plan bit for bit against the writer (differential) on the benchmark workloads and on a
//! one-element layout of every IA format with special values in every lane.

use inlay::assembler::{DrawCall, InputAssembler, Topology};
use inlay::buffer::VertexBufferBinding;
use inlay::convert::decode_element;
use inlay::element::InputElementDesc;
use inlay::encode::{
    ElementDefault, ElementSource, EncodeError, EncodePlan, RepackOptions, Rounding, SourceBuffer,
    VertexWriter, WriterOptions, encode_element, repack,
};
use inlay::fetch::Isa;
use inlay::format::{Format, vertex_formats};
use inlay::layout::InputLayout;
use inlay::target::Target;

fn layout(elements: &[InputElementDesc]) -> InputLayout {
    let c = inlay::validation::layout_without_shader(&Target::default(), elements);
    c.layout.unwrap_or_else(|| panic!("{:?}", c.diagnostics))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A lane: mostly ordinary values, often specials.
    fn lane(&mut self) -> u32 {
        const SPECIAL: [u32; 14] = [
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0xffa0_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x3f00_0000,
            0x0000_0001,
            0x477f_f000,
            0xffff_ffff,
            0x7fff_ffff,
        ];
        let r = self.next();
        match r % 6 {
            0 => SPECIAL[(r >> 8) as usize % SPECIAL.len()],
            1 => ((((r >> 16) as u32) as f32 / u32::MAX as f32) * 2.4 - 1.2).to_bits(),
            2 => ((r >> 20) as u32 % 70000) as f32 as u32 ^ ((r as u32) & 0x8000_0000),
            3 => tie(r >> 8),
            4 => (r >> 40) as u32 & 0x807f_ffff, // ±denormals
            _ => (r >> 32) as u32,
        }
    }
}

/// A value at, or one ulp either side of, a halfway point between two codes of a UNORM or
/// SNORM width of the IA formats, or between two halves; either sign.
fn tie(r: u64) -> u32 {
    const D: [u32; 8] = [1, 3, 15, 31, 63, 127, 255, 1023];
    let d = match r % 10 {
        8 => 32767,
        9 => 65535,
        i => D[i as usize],
    } as f64;
    let code = ((r >> 4) % (d as u64 + 1)) as f64;
    let x = if (r >> 24).is_multiple_of(3) {
        // Between two halves: a half's bits plus half its ulp.
        let h = crate_half_bits((r >> 28) as u16 & 0x7bff);
        h + 0x1000
    } else {
        (((code + 0.5) / d) as f32).to_bits()
    };
    let x = match (r >> 40) % 3 {
        0 => x,
        1 => x.wrapping_add(1),
        _ => x.wrapping_sub(1),
    };
    x | ((r >> 50) as u32 & 1) << 31
}

/// The binary32 bits of a finite half (`decode_element` of an R16_FLOAT).
fn crate_half_bits(h: u16) -> u32 {
    decode_element(Format::R16_FLOAT.info().unwrap(), &h.to_le_bytes())[0]
}

/// Two slots, per-vertex and per-instance (step rate 2), explicit offsets with a gap.
fn two_slot_layout() -> InputLayout {
    layout(&[
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("COLOR", 0, Format::B8G8R8A8_UNORM, 0, 16),
        InputElementDesc::per_instance("TEXCOORD", 1, Format::R16G16_SINT, 1, 4, 2),
    ])
}

#[test]
fn writer_output_draws_back_to_the_values_written() {
    let l = two_slot_layout();
    let opts = WriterOptions {
        padding: 0xcd,
        strides: vec![(0, 24)],
        ..Default::default()
    };
    let mut w = VertexWriter::with_options(&l, 3, 4, &opts).unwrap();
    for i in 0..4u32 {
        for v in 0..3u32 {
            let pos = [f(v as f32), f(-(v as f32)), f(0.25), 0];
            let color = [f(1.0), f(0.5), 0, f(v as f32 / 2.0)];
            let tex = [i / 2, (-((i / 2) as i32) * 1000) as u32, 0, 0];
            w.write_vertex(v, i, &[pos, color, tex]).unwrap();
        }
    }
    let bufs = w.buffers();
    assert_eq!(bufs.len(), 2);
    assert_eq!(
        (bufs[0].slot, bufs[0].stride, bufs[0].data.len()),
        (0, 24, 72)
    );
    // Slot 1: step rate 2 over 4 instances → 2 records of the layout stride 8.
    assert_eq!(
        (bufs[1].slot, bufs[1].stride, bufs[1].data.len()),
        (1, 8, 16)
    );
    // Padding bytes keep the caller's value: slot 0 bytes 12..16 and 20..24, slot 1 0..4.
    assert_eq!(&bufs[0].data[12..16], &[0xcd; 4]);
    assert_eq!(&bufs[0].data[44..48], &[0xcd; 4]);
    assert_eq!(&bufs[1].data[8..12], &[0xcd; 4]);
    // B8G8R8A8: red in byte 2; 0.5 → 128; alpha 1.0 at vertex 2.
    assert_eq!(&bufs[0].data[64..68], &[0x00, 0x80, 0xff, 0xff]);

    // The reference assembler reads back what was written.
    let mut ia = InputAssembler::new(&l, Target::default());
    for b in bufs {
        ia.set_vertex_buffer(
            b.slot,
            Some(VertexBufferBinding {
                data: &b.data,
                stride: b.stride,
                offset: 0,
            }),
        )
        .unwrap();
    }
    ia.set_topology(Topology::PointList).unwrap();
    let draw = ia
        .draw(&DrawCall::DrawInstanced {
            vertex_count_per_instance: 3,
            instance_count: 4,
            start_vertex: 0,
            start_instance: 0,
        })
        .unwrap();
    let got: Vec<_> = draw.vertices().collect();
    assert_eq!(got.len(), 12);
    for v in &got {
        let (i, vid) = (v.instance_id, v.vertex_id);
        assert_eq!(
            v.registers[0],
            [f(vid as f32), f(-(vid as f32)), f(0.25), f(1.0)]
        );
        let alpha = decode_element(
            Format::R8_UNORM.info().unwrap(),
            &[((vid as f32 / 2.0) * 255.0 + 0.5) as u8],
        )[0];
        assert_eq!(v.registers[1], [f(1.0), 0x3f00_8081, 0, alpha]);
        assert_eq!(
            v.registers[2],
            [i / 2, (-((i / 2) as i32) * 1000) as u32, 0, 1]
        );
    }
}

#[test]
fn writer_refuses_bad_requests_and_writes_nothing_then() {
    let l = two_slot_layout();
    let e = VertexWriter::with_options(
        &l,
        10,
        1,
        &WriterOptions {
            strides: vec![(0, 16)],
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "slot 0: stride 16 is smaller than the 20 bytes its elements cover"
    );
    let e = VertexWriter::with_options(
        &l,
        1000,
        1,
        &WriterOptions {
            max_bytes: Some(4096),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "slot 0: 1000 records of 20 bytes (20008 bytes in all) exceed the limit of 4096 bytes"
    );
    let mut w = VertexWriter::new(&l, 2, 2).unwrap();
    let before = w.buffers().to_vec();
    assert!(matches!(
        w.write_vertex(0, 0, &[[0; 4], [0; 4]]),
        Err(EncodeError::ValueCount {
            vertex: 0,
            expected: 3,
            got: 2
        })
    ));
    assert_eq!(
        w.write_vertex(2, 0, &[[1; 4]; 3]).unwrap_err().to_string(),
        "vertex 2 is out of range: the writer holds 2"
    );
    assert_eq!(
        w.write_vertex(0, 2, &[[1; 4]; 3]).unwrap_err().to_string(),
        "instance 2 is out of range: the writer holds 2"
    );
    assert_eq!(w.buffers(), &before[..]);
}

#[test]
fn huge_writer_requests_fail_cleanly() {
    let l = layout(&[InputElementDesc::per_vertex(
        "P",
        0,
        Format::R32G32B32A32_FLOAT,
        0,
        0,
    )]);
    // 4G vertices × 16 bytes = 64 GiB: refused by the limit, never allocated.
    let e = VertexWriter::with_options(
        &l,
        u32::MAX,
        1,
        &WriterOptions {
            max_bytes: Some(1 << 30),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(matches!(e, EncodeError::SizeLimit { slot: 0, .. }), "{e}");
}

fn w2_layout() -> InputLayout {
    layout(&[
        InputElementDesc::per_vertex("POSITION", 0, Format::R16G16B16A16_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R10G10B10A2_UNORM, 0, 8),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R16G16_UNORM, 0, 12),
        InputElementDesc::per_vertex("COLOR", 0, Format::B8G8R8A8_UNORM, 0, 16),
        InputElementDesc::per_vertex("BLENDINDICES", 0, Format::R8G8B8A8_UINT, 0, 20),
        InputElementDesc::per_vertex("BLENDWEIGHT", 0, Format::R8G8B8A8_UNORM, 0, 24),
    ])
}

fn w1_layout() -> InputLayout {
    layout(&[
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R32G32B32_FLOAT, 0, 12),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 24),
        InputElementDesc::per_vertex("TANGENT", 0, Format::R32G32B32A32_FLOAT, 0, 32),
    ])
}

/// The plan against the writer on `l` with random rows, both roundings, a padded stride.
fn plan_matches_writer(l: &InputLayout, vertices: u32, seed: u64, integer_rows: &[usize]) {
    let mut rng = Rng(seed);
    let rows_per = l.elements().len();
    let rows: Vec<[u32; 4]> = (0..vertices as usize * rows_per)
        .map(|i| {
            let mut r = [rng.lane(), rng.lane(), rng.lane(), rng.lane()];
            if integer_rows.contains(&(i % rows_per)) && rng.next().is_multiple_of(2) {
                for x in &mut r {
                    *x %= 300;
                }
            }
            r
        })
        .collect();
    for rounding in [Rounding::Nearest, Rounding::D3d] {
        for (padding, extra) in [(0u8, 0u32), (0xa5, 12)] {
            let strides = l
                .slots()
                .iter()
                .map(|s| (s.slot, s.min_stride + extra))
                .collect();
            let opts = WriterOptions {
                rounding,
                padding,
                strides,
                max_bytes: None,
            };
            let mut w = VertexWriter::with_options(l, vertices, 1, &opts).unwrap();
            for (v, vr) in rows.chunks(rows_per).enumerate() {
                w.write_vertex(v as u32, 0, vr).unwrap();
            }
            for isa in isas() {
                let plan = EncodePlan::new(l, &opts).unwrap().with_isa(isa);
                let mut outs: Vec<Vec<u8>> = plan
                    .slots()
                    .iter()
                    .map(|&(_, st)| vec![0x11u8; vertices as usize * st as usize])
                    .collect();
                let mut refs: Vec<&mut [u8]> = outs.iter_mut().map(|o| o.as_mut_slice()).collect();
                assert_eq!(
                    plan.encode_registers(&rows, &mut refs).unwrap(),
                    vertices as usize
                );
                for (b, o) in w.buffers().iter().zip(&outs) {
                    if b.data != *o {
                        let at = b.data.iter().zip(o).position(|(a, b)| a != b).unwrap();
                        panic!(
                            "slot {} {rounding} {isa:?} padding {padding:#x}: byte {at} (vertex {}) differs: writer {:#04x}, plan {:#04x}",
                            b.slot,
                            at / b.stride as usize,
                            b.data[at],
                            o[at]
                        );
                    }
                }
            }
        }
    }
}

/// The instruction sets this CPU runs the plan with (the SIMD kernels and the portable code).
fn isas() -> Vec<Isa> {
    [Isa::Portable, Isa::Avx2]
        .into_iter()
        .filter(|i| i.is_supported())
        .collect()
}

#[test]
fn plan_is_bit_identical_to_the_writer_on_the_bench_workloads() {
    plan_matches_writer(&w1_layout(), 1000, 1, &[]);
    plan_matches_writer(&w2_layout(), 1000, 2, &[4]);
}

#[test]
fn plan_is_bit_identical_to_the_writer_for_every_format() {
    for (i, info) in vertex_formats().enumerate() {
        let l = layout(&[
            InputElementDesc::per_vertex("A", 0, Format(info.value), 0, 0),
            InputElementDesc::per_vertex("B", 0, Format(info.value), 1, 4),
        ]);
        plan_matches_writer(&l, 300, 100 + i as u64, &[0, 1]);
    }
}

#[test]
fn plan_refuses_wrong_shapes() {
    let l = w2_layout();
    let plan = EncodePlan::new(&l, &WriterOptions::default()).unwrap();
    let mut out = vec![0u8; 28];
    assert!(
        plan.encode_registers(&[[0; 4]; 5], &mut [&mut out])
            .is_err()
    );
    assert!(
        plan.encode_registers(&[[0; 4]; 12], &mut [&mut out])
            .is_err()
    );
    assert_eq!(
        plan.encode_registers(&[[0; 4]; 6], &mut [&mut out])
            .unwrap(),
        1
    );
    // A per-instance-only layout has no vertex rows: encoding vertices is an error naming
    // it, encoding instance records is not.
    let inst = layout(&[InputElementDesc::per_instance(
        "TEXCOORD",
        0,
        Format::R16G16_SINT,
        1,
        0,
        1,
    )]);
    let plan = EncodePlan::new(&inst, &WriterOptions::default()).unwrap();
    let err = plan.encode_registers(&[[0; 4]], &mut []).unwrap_err();
    assert!(
        err.to_string().contains("no elements for vertices"),
        "{err}"
    );
    let mut out = vec![0u8; 4];
    assert_eq!(
        plan.encode_instances(&[[7, (-2i32) as u32, 0, 0]], &mut [&mut out])
            .unwrap(),
        1
    );
    assert_eq!(out, [7, 0, 0xfe, 0xff]);
}

#[test]
fn plan_encodes_per_instance_slots_like_the_writer() {
    // Two per-vertex elements in slot 0, and per-instance data in two slots at step rates 2
    // and 0 (every instance reads record 0); the plan's two parts against VertexWriter.
    let l = layout(&[
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_instance("TEXCOORD", 1, Format::R16G16_SINT, 1, 4, 2),
        InputElementDesc::per_vertex("COLOR", 0, Format::B8G8R8A8_UNORM, 0, 16),
        InputElementDesc::per_instance("TEXCOORD", 2, Format::R10G10B10A2_UNORM, 1, 0, 2),
        InputElementDesc::per_instance("TEXCOORD", 3, Format::R16G16B16A16_FLOAT, 3, 0, 0),
    ]);
    let (vertices, instances) = (5u32, 7u32);
    // Per-vertex values depend on the vertex only, per-instance ones on the record only
    // (instance / 2 in slot 1, record 0 in slot 3), so the writer's repeated writes agree.
    let value = |v: u32, i: u32, e: usize| -> [u32; 4] {
        let key = match e {
            0 | 2 => v,
            1 | 3 => i / 2,
            _ => 0,
        };
        let f = |k: u32| (0.1f32 * (key * 31 + k + 5 * e as u32) as f32 % 1.0).to_bits();
        match e {
            1 => [key * 3, (key as i32 - 4) as u32, 0, 0],
            _ => [f(0), f(1), f(2), f(3)],
        }
    };
    for rounding in [Rounding::Nearest, Rounding::D3d] {
        let opts = WriterOptions {
            rounding,
            padding: 0x5a,
            strides: vec![(1, 12)],
            max_bytes: None,
        };
        let mut w = VertexWriter::with_options(&l, vertices, instances, &opts).unwrap();
        for i in 0..instances {
            for v in 0..vertices {
                let values: Vec<[u32; 4]> = (0..5).map(|e| value(v, i, e)).collect();
                w.write_vertex(v, i, &values).unwrap();
            }
        }
        let plan = EncodePlan::new(&l, &opts).unwrap();
        assert_eq!((plan.rows(), plan.instance_rows()), (2, 3));
        assert_eq!(plan.slots(), &[(0, 20)]);
        assert_eq!(plan.instance_slots(), &[(1, 12), (3, 8)]);
        // Vertex rows: POSITION, COLOR per vertex (array order within the class).
        let vrows: Vec<[u32; 4]> = (0..vertices)
            .flat_map(|v| [value(v, 0, 0), value(v, 0, 2)])
            .collect();
        let mut v0 = vec![0u8; 20 * vertices as usize];
        assert_eq!(
            plan.encode_registers(&vrows, &mut [&mut v0]).unwrap(),
            vertices as usize
        );
        // Instance records: record r of slot 1 is instance 2r; slot 3 has one record
        // (instance 0). The plan takes one row per per-instance element per record, so
        // encode the two slots' records separately, as many as each slot holds.
        let records = instances.div_ceil(2);
        let irows: Vec<[u32; 4]> = (0..records)
            .flat_map(|r| [value(0, 2 * r, 1), value(0, 2 * r, 3), value(0, 0, 4)])
            .collect();
        let mut s1 = vec![0u8; 12 * records as usize];
        let mut s3 = vec![0u8; 8 * records as usize];
        assert_eq!(
            plan.encode_instances(&irows, &mut [&mut s1, &mut s3])
                .unwrap(),
            records as usize
        );
        let bufs = w.buffers();
        assert_eq!(bufs[0].data, v0, "{rounding}");
        assert_eq!(bufs[1].data, s1, "{rounding}");
        assert_eq!(bufs[2].data, s3[..8], "{rounding}");
    }
}

#[test]
fn repack_w1_to_w2_reports_what_it_loses() {
    let a = w1_layout();
    // Output: POSITION as halves, normal as 10:10:10:2, texcoord as UNORM16, and a COLOR the
    // input lacks (default), lower-case semantic to check case-insensitive matching.
    let b = layout(&[
        InputElementDesc::per_vertex("position", 0, Format::R16G16B16A16_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R32G32B32_FLOAT, 0, 8),
        InputElementDesc::per_vertex("TexCoord", 0, Format::R16G16_UNORM, 0, 20),
        InputElementDesc::per_vertex("COLOR", 0, Format::R8G8B8A8_UNORM, 0, 24),
    ]);
    let n = 50usize;
    let mut src = vec![0u8; n * 48];
    for v in 0..n {
        let vals: [f32; 12] = [
            v as f32 * 0.1,
            1.0,
            -2.0,
            0.0,
            1.0,
            0.0,
            v as f32 / 64.0,
            0.5,
            0.0,
            0.0,
            0.0,
            1.0,
        ];
        for (k, x) in vals.iter().enumerate() {
            src[v * 48 + 4 * k..v * 48 + 4 * k + 4].copy_from_slice(&x.to_le_bytes());
        }
    }
    let sources = [SourceBuffer {
        slot: 0,
        data: &src,
        stride: None,
    }];
    let e = repack(&a, &sources, &b, &RepackOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "element COLOR0 (R8G8B8A8_UNORM) of the output layout has no matching element in the input layout; give a default for it"
    );
    let opts = RepackOptions {
        defaults: vec![ElementDefault {
            semantic: "color".into(),
            index: 0,
            lanes: [f(1.0), f(1.0), f(1.0), f(1.0)],
        }],
        ..Default::default()
    };
    let out = repack(&a, &sources, &b, &opts).unwrap();
    let r = &out.report;
    assert_eq!((r.vertices, r.instances), (50, 0));
    assert_eq!(r.dropped, ["TANGENT0"]);
    let pos = &r.elements[0];
    assert_eq!(pos.source, ElementSource::Element(0));
    assert!(pos.lossy, "binary32 → binary16 loses");
    assert_eq!(
        pos.defaulted_lanes, 0b1000,
        "w comes from the input's default 1.0"
    );
    // v·0.1 is not a half for most v: each changed x lane is counted.
    assert!(pos.altered > 0 && pos.altered < 50, "{}", pos.altered);
    let first = pos.first_altered.unwrap();
    assert_eq!((first.record, first.lane), (1, 0));
    assert_eq!(first.before, f(0.1));
    assert_eq!(first.after, f(half::f16::from_f32(0.1).to_f32()));
    assert!(
        !r.elements[1].lossy && r.elements[1].altered == 0,
        "same format: exact"
    );
    assert!(r.elements[2].lossy);
    assert_eq!(r.elements[3].source, ElementSource::Default);
    assert!(!r.is_lossless());
    // The output decodes to the encoder's values.
    let data = &out.buffers[0].data;
    assert_eq!(out.buffers[0].stride, 28);
    for v in 0..n {
        let mut want = [0u8; 8];
        encode_element(
            Format::R16G16B16A16_FLOAT,
            &[f(v as f32 * 0.1), f(1.0), f(-2.0), f(1.0)],
            Rounding::Nearest,
            &mut want,
        )
        .unwrap();
        assert_eq!(&data[v * 28..v * 28 + 8], &want);
        assert_eq!(&data[v * 28 + 24..v * 28 + 28], &[255; 4]);
    }
    let text = r.to_string();
    assert!(
        text.contains("position0: R32G32B32_FLOAT -> R16G16B16A16_FLOAT, lossy,"),
        "{text}"
    );
    assert!(
        text.contains("COLOR0: default -> R8G8B8A8_UNORM, exact"),
        "{text}"
    );
    assert!(text.contains("TANGENT0: dropped"), "{text}");
}

#[test]
fn repack_round_trip_through_a_wider_layout_is_lossless() {
    // W2 → all-float32 → W2 gives the canonical bytes back and reports exact conversions.
    let a = w2_layout();
    let wide = layout(&[
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R32G32B32A32_FLOAT, 0, 16),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R32G32_FLOAT, 1, 0),
        InputElementDesc::per_vertex("COLOR", 0, Format::R32G32B32A32_FLOAT, 1, 8),
        InputElementDesc::per_vertex("BLENDINDICES", 0, Format::R32G32B32A32_UINT, 1, 24),
        InputElementDesc::per_vertex("BLENDWEIGHT", 0, Format::R32G32B32A32_FLOAT, 1, 40),
    ]);
    let mut rng = Rng(9);
    let n = 200;
    let mut src: Vec<u8> = (0..n * 28).map(|_| rng.next() as u8).collect();
    // Canonical input: halves finite, no NaN (NaN payloads also survive, but keep it simple).
    for v in 0..n {
        for k in 0..4 {
            let at = v * 28 + 2 * k;
            let h = u16::from_le_bytes([src[at], src[at + 1]]) & 0xbbff;
            src[at..at + 2].copy_from_slice(&h.to_le_bytes());
        }
    }
    let sources = [SourceBuffer {
        slot: 0,
        data: &src,
        stride: Some(28),
    }];
    let up = repack(&a, &sources, &wide, &RepackOptions::default()).unwrap();
    assert!(up.report.is_lossless(), "{}", up.report);
    assert_eq!(up.buffers.len(), 2);
    let back_sources: Vec<SourceBuffer> = up
        .buffers
        .iter()
        .map(|b| SourceBuffer {
            slot: b.slot,
            data: &b.data,
            stride: Some(b.stride),
        })
        .collect();
    let down = repack(&wide, &back_sources, &a, &RepackOptions::default()).unwrap();
    // Float32 → smaller formats can lose in general, but nothing changed here.
    assert!(
        down.report.elements.iter().all(|e| e.altered == 0),
        "{}",
        down.report
    );
    assert_eq!(down.buffers[0].data, src);
}

#[test]
fn repack_refuses_bad_sources() {
    let a = w1_layout();
    let b = w2_layout();
    let src = vec![0u8; 48 * 3 + 5];
    let e = repack(
        &a,
        &[SourceBuffer {
            slot: 0,
            data: &src,
            stride: None,
        }],
        &a,
        &RepackOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "input slot 0: 149 bytes are not a whole number of records of stride 48 (3 records and 5 bytes left over)"
    );
    assert!(matches!(
        repack(&a, &[], &a, &RepackOptions::default()),
        Err(EncodeError::BadSource { slot: 0, .. })
    ));
    // W1 lacks COLOR/BLENDINDICES/BLENDWEIGHT.
    let e = repack(
        &a,
        &[SourceBuffer {
            slot: 0,
            data: &src[..48],
            stride: None,
        }],
        &b,
        &RepackOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(e, EncodeError::MissingElement { ref semantic, .. } if semantic == "COLOR"),
        "{e}"
    );
    // Float → integer is refused.
    let ints = layout(&[InputElementDesc::per_vertex(
        "POSITION",
        0,
        Format::R32G32B32_UINT,
        0,
        0,
    )]);
    let e = repack(
        &a,
        &[SourceBuffer {
            slot: 0,
            data: &src[..48],
            stride: None,
        }],
        &ints,
        &RepackOptions::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("element POSITION0: cannot convert R32G32B32_FLOAT to R32G32B32_UINT"),
        "{e}"
    );
}

#[test]
fn repack_integers_between_uint_and_sint_saturate() {
    let a = layout(&[InputElementDesc::per_vertex(
        "I",
        0,
        Format::R16G16_SINT,
        0,
        0,
    )]);
    let b = layout(&[InputElementDesc::per_vertex(
        "I",
        0,
        Format::R8G8_UINT,
        0,
        0,
    )]);
    let src: Vec<u8> = [-5i16, 300, 7, 255]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let out = repack(
        &a,
        &[SourceBuffer {
            slot: 0,
            data: &src,
            stride: None,
        }],
        &b,
        &RepackOptions::default(),
    )
    .unwrap();
    assert_eq!(out.buffers[0].data, [0, 255, 7, 255]);
    let e = &out.report.elements[0];
    assert!(e.lossy);
    assert_eq!(e.altered, 2);
}

#[test]
fn repack_per_instance_records_follow_step_rates() {
    let a = layout(&[
        InputElementDesc::per_vertex("P", 0, Format::R32_FLOAT, 0, 0),
        InputElementDesc::per_instance("OFS", 0, Format::R32_FLOAT, 1, 0, 1),
    ]);
    let b = layout(&[
        InputElementDesc::per_vertex("P", 0, Format::R32_FLOAT, 0, 0),
        InputElementDesc::per_instance("OFS", 0, Format::R16_FLOAT, 1, 0, 2),
    ]);
    let p: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let inst: Vec<u8> = [10.0f32, 11.0, 12.0, 13.0, 14.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let out = repack(
        &a,
        &[
            SourceBuffer {
                slot: 0,
                data: &p,
                stride: None,
            },
            SourceBuffer {
                slot: 1,
                data: &inst,
                stride: None,
            },
        ],
        &b,
        &RepackOptions::default(),
    )
    .unwrap();
    assert_eq!((out.report.vertices, out.report.instances), (2, 5));
    // Step rate 2: records for instances 0, 2, 4 → 10, 12, 14 as halves.
    let halves: Vec<u16> = out.buffers[1]
        .data
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(halves, [0x4900, 0x4a00, 0x4b00]);
}

/// Every IA format, one element per vertex, random lanes (any bits, or the edge values and
/// ties of [`Rng::lane`]), odd vertex counts and strides: the plan's SIMD kernels equal its
/// portable code and [`encode_element`], at both roundings.
mod simd_against_scalar {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
        #[test]
        fn plan_kernels_equal_encode_element(
            format in 0usize..64,
            seed in any::<u64>(),
            raw in proptest::collection::vec(any::<[u32; 4]>(), 1..40),
            extra in 0u32..9,
            d3d in any::<bool>(),
        ) {
            let formats: Vec<_> = vertex_formats().collect();
            let info = formats[format % formats.len()];
            let l = layout(&[InputElementDesc::per_vertex("A", 0, Format(info.value), 0, 0)]);
            let mut rng = Rng(seed);
            let rows: Vec<[u32; 4]> = raw
                .iter()
                .map(|r| if seed % 2 == 0 { *r } else { [rng.lane(), rng.lane(), rng.lane(), rng.lane()] })
                .collect();
            let rounding = if d3d { Rounding::D3d } else { Rounding::Nearest };
            let size = info.byte_size() as usize;
            let stride = size as u32 + extra;
            let opts = WriterOptions {
                rounding,
                padding: 0x5a,
                strides: vec![(0, stride)],
                max_bytes: None,
            };
            let mut want = vec![0x5au8; rows.len() * stride as usize];
            for (r, o) in rows.iter().zip(want.chunks_mut(stride as usize)) {
                encode_element(Format(info.value), r, rounding, o).unwrap();
            }
            for isa in isas() {
                let plan = EncodePlan::new(&l, &opts).unwrap().with_isa(isa);
                let mut out = vec![0u8; want.len()];
                plan.encode_registers(&rows, &mut [&mut out]).unwrap();
                prop_assert_eq!(&out, &want, "{} {:?} {}", info.name, isa, rounding);
            }
        }
    }
}
