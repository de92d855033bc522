//! CreateInputLayout cost for a typical vertex shader: six inputs, a six-element layout.
//!
//! `cargo bench -p inlay --bench create`. Three measurements: the whole call from bytecode,
//! reading the signature alone, and matching against an already parsed signature (the part
//! the issue asks to keep cheap: no allocation beyond the result).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use inlay::dxbc::{
    ComponentType, MinPrecision, Signature, SignatureElement, SystemValue, signature_blob,
};
use inlay::element::{APPEND_ALIGNED_ELEMENT as APPEND, InputElementDesc};
use inlay::format::Format;
use inlay::target::Target;
use inlay::validation::read_input_signature;

fn input(name: &str, index: u32, register: u32, mask: u8) -> SignatureElement {
    SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: index,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::FLOAT32,
        register,
        mask,
        read_write_mask: mask,
        min_precision: MinPrecision(0),
    }
}

fn bench(c: &mut Criterion) {
    let signature = Signature {
        elements: vec![
            input("POSITION", 0, 0, 0b0111),
            input("NORMAL", 0, 1, 0b0111),
            input("TANGENT", 0, 2, 0b1111),
            input("TEXCOORD", 0, 3, 0b0011),
            input("TEXCOORD", 1, 4, 0b0011),
            input("COLOR", 0, 5, 0b1111),
        ],
    };
    let blob = signature_blob(&signature);
    let elements = [
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R16G16B16A16_SNORM, 0, APPEND),
        InputElementDesc::per_vertex("TANGENT", 0, Format::R8G8B8A8_SNORM, 0, APPEND),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R16G16_FLOAT, 0, APPEND),
        InputElementDesc::per_vertex("TEXCOORD", 1, Format::R16G16_FLOAT, 1, 0),
        InputElementDesc::per_vertex("COLOR", 0, Format::R8G8B8A8_UNORM, 1, APPEND),
    ];
    let target = Target::default();
    assert!(
        inlay::CreateInputLayout::new(&target, &elements)
            .num_elements(6)
            .bytecode(&blob)
            .is_success()
    );

    c.bench_function("create_input_layout (6 elements, from bytecode)", |b| {
        b.iter(|| {
            inlay::CreateInputLayout::new(&target, black_box(&elements))
                .num_elements(6)
                .bytecode(&blob)
        })
    });
    c.bench_function("read_input_signature (6 inputs)", |b| {
        b.iter(|| read_input_signature(black_box(&blob)))
    });
    c.bench_function("create_input_layout, parsed signature (6 elements)", |b| {
        b.iter(|| {
            inlay::CreateInputLayout::new(&target, black_box(&elements))
                .num_elements(6)
                .signature(Ok(&signature))
        })
    });
    c.bench_function("validate only, parsed signature (6 elements)", |b| {
        b.iter(|| {
            inlay::CreateInputLayout::new(&target, black_box(&elements))
                .num_elements(6)
                .validate_only(true)
                .signature(Ok(&signature))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
