//! The encoder and repack on arbitrary input (issue 18): `encode_element` of any format code
//! and lanes, under both roundings, and `repack` between two arbitrary layouts with arbitrary
//! source buffers and counts. Nothing may panic, and the output is bounded by
//! `WriterOptions::max_bytes`. An element encoded with `nearest` rounding decodes to lanes
//! that encode to the same bytes again (the issue 12 round trip), except the one code pair
//! that aliases (SNORM's most negative code reads as −1.0 like the next one).
#![no_main]

use arbitrary::Arbitrary;
use inlay::convert::decode_element;
use inlay::encode::{RepackOptions, SourceBuffer, repack};
use inlay::encode::WriterOptions;
use inlay::encode::{Rounding, encode_element};
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
});
