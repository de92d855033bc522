//! The encoder and repack on arbitrary input (issue 18): `encode_element` of any format code
//! and lanes, under both roundings, and `repack` between two arbitrary layouts with arbitrary
//! source buffers and counts. Nothing may panic, and the output is bounded by
//! `WriterOptions::max_bytes`. An element encoded with `nearest` rounding decodes to lanes
//! that encode to the same bytes again (the issue 12 round trip), except the one code pair
//! that aliases (SNORM's most negative code reads as −1.0 like the next one). The compiled
//! `EncodePlan` of the `to` layout (its AVX2 kernels where the CPU has them) encodes arbitrary
//! register rows to exactly the bytes its portable form writes, under both roundings and any
//! padding, and writes nothing past `vertices × stride`.
#![no_main]

use arbitrary::Arbitrary;
use inlay::convert::decode_element;
use inlay::encode::WriterOptions;
use inlay::encode::{EncodePlan, RepackOptions, SourceBuffer, repack};
use inlay::encode::{Rounding, encode_element};
use inlay::fetch::Isa;
use inlay::format::Kind;
use inlay::target::Target;
use inlay::validation::layout_without_shader;
use inlay_fuzz::{ArbElement, ArbFormat, Biased};
use libfuzzer_sys::fuzz_target;

/// The most bytes repack may write in one run.
const MAX_BYTES: u64 = 1 << 22;

#[derive(Debug, Arbitrary)]
struct Input {
    format: ArbFormat,
    lanes: [u32; 4],
    d3d: bool,
    from: Vec<ArbElement>,
    to: Vec<ArbElement>,
    sources: Vec<(u8, Option<Biased>, Vec<u8>)>,
    vertices: Option<Biased>,
    instances: Option<Biased>,
    padding: u8,
    /// Register rows for `EncodePlan` (vertex-major; at most 64 vertices are taken).
    rows: Vec<[u32; 4]>,
}

fuzz_target!(|input: Input| {
    let rounding = if input.d3d {
        Rounding::D3d
    } else {
        Rounding::Nearest
    };
    let mut out = [0u8; 16];
    if let Ok(n) = encode_element(input.format.0, &input.lanes, rounding, &mut out) {
        let info = input.format.0.info().expect("an encoded format has a row");
        assert_eq!(n, info.byte_size() as usize);
        let snorm = info.components.iter().any(|c| c.kind == Kind::Snorm);
        if rounding == Rounding::Nearest && !snorm {
            let lanes = decode_element(info, &out[..n]);
            let mut again = [0u8; 16];
            let m = encode_element(input.format.0, &lanes, rounding, &mut again)
                .expect("decoded lanes encode");
            assert_eq!(&out[..n], &again[..m], "{} {:08x?}", info.name, input.lanes);
        }
    }

    let target = Target::default();
    let from: Vec<_> = input.from.iter().take(8).map(ArbElement::desc).collect();
    let to: Vec<_> = input.to.iter().take(8).map(ArbElement::desc).collect();
    let (Some(from), Some(to)) = (
        layout_without_shader(&target, &from).layout,
        layout_without_shader(&target, &to).layout,
    ) else {
        return;
    };
    let sources: Vec<SourceBuffer<'_>> = input
        .sources
        .iter()
        .take(4)
        .map(|(slot, stride, data)| SourceBuffer {
            slot: (*slot % 33) as u32,
            data,
            stride: stride.map(|s| s.0),
        })
        .collect();
    let options = RepackOptions {
        writer: WriterOptions {
            rounding,
            padding: input.padding,
            strides: Vec::new(),
            max_bytes: Some(MAX_BYTES),
        },
        defaults: Vec::new(),
        vertices: input.vertices.map(|v| v.0),
        instances: input.instances.map(|v| v.0),
    };
    if let Ok(r) = repack(&from, &sources, &to, &options) {
        let total: u64 = r.buffers.iter().map(|b| b.data.len() as u64).sum();
        assert!(total <= MAX_BYTES, "{total} bytes");
    }

    // The compiled encoder: AVX2 (where available) against portable, byte for byte.
    let writer = WriterOptions {
        rounding,
        padding: input.padding,
        strides: Vec::new(),
        max_bytes: None,
    };
    if let Ok(plan) = EncodePlan::new(&to, &writer) {
        let portable = plan.clone().with_isa(Isa::Portable);
        let w = plan.rows();
        let vertices = if w == 0 {
            0
        } else {
            (input.rows.len() / w).min(64)
        };
        let rows = &input.rows[..vertices * w];
        let sizes: Vec<usize> = plan
            .slots()
            .iter()
            .map(|&(_, stride)| vertices * stride as usize)
            .collect();
        // Strides reach 2^32 − 1 (an element at offset 4 000 000 000): bound the buffers.
        if sizes.iter().map(|&n| n as u64).sum::<u64>() > MAX_BYTES {
            return;
        }
        let run = |p: &EncodePlan| {
            // One sentinel byte past each buffer's records: it must stay as it is.
            let mut bufs: Vec<Vec<u8>> = sizes.iter().map(|&n| vec![0xa5; n + 1]).collect();
            let got = {
                let mut outs: Vec<&mut [u8]> = bufs.iter_mut().map(|b| &mut b[..]).collect();
                p.encode_registers(rows, &mut outs)
            };
            (got, bufs)
        };
        let (got, fast) = run(&plan);
        let (want, slow) = run(&portable);
        assert_eq!(got, want, "{:?} vs portable", plan.isa());
        assert_eq!(
            fast,
            slow,
            "{:?} encode vs portable, rows {rows:08x?}",
            plan.isa()
        );
        if got.is_ok() {
            for (b, &n) in fast.iter().zip(&sizes) {
                assert_eq!(b[n], 0xa5, "encode_registers wrote past its records");
            }
        }
    }
});
