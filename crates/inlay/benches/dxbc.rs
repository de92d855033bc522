//! DXBC reader speed (issue 3, *Speed*): parsing a typical vertex-shader container and reading
//! its input signature, `create_input_layout` from that bytecode with a 6-element layout
//! (target < 2 µs), and the digest's throughput next to the md-5 crate's block function on the
//! same bytes.
//!
//! `cargo bench -p inlay --bench dxbc` (criterion). Uses `dxtk__DGSLEffect_main1Bones` from
//! the corpus (`$INLAY_CORPUS`, else `<workspace>/../shared/corpus`), or a written 6-input
//! shader when the corpus is absent. `benches/create.rs` times layout creation on a written
//! signature blob.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use inlay::dxbc::{
    ComponentType, Container, MinPrecision, Signature, SignatureElement, SignatureKind,
    SystemValue, checksum, write_container, write_signature_chunk,
};
use inlay::element::InputElementDesc;
use inlay::format::Format;
use inlay::target::Target;

fn written_vs() -> Vec<u8> {
    let el = |name: &str, reg: u32, ty: u32, mask: u8| SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: 0,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType(ty),
        register: reg,
        mask,
        read_write_mask: mask,
        min_precision: MinPrecision::default(),
    };
    let sig = Signature {
        elements: vec![
            el("SV_Position", 0, 3, 0xf),
            el("NORMAL", 1, 3, 0x7),
            el("TANGENT", 2, 3, 0xf),
            el("TEXCOORD", 3, 3, 0x3),
            el("BLENDINDICES", 4, 1, 0xf),
            el("BLENDWEIGHT", 5, 3, 0xf),
        ],
    };
    let shdr: Vec<u8> = [0x0001_0040u32, 2]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let isgn = write_signature_chunk(SignatureKind::Isgn, &sig);
    let rdef = vec![0u8; 1200];
    write_container(&[(*b"RDEF", &rdef), (*b"ISGN", &isgn), (*b"SHDR", &shdr)])
}

fn shader() -> (String, Vec<u8>) {
    let dir = match std::env::var_os("INLAY_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    let name = "dxtk__DGSLEffect_main1Bones";
    match std::fs::read(dir.join("dxbc").join(format!("{name}.dxbc"))) {
        Ok(b) => (name.to_string(), b),
        Err(_) => ("written 6-input VS".to_string(), written_vs()),
    }
}

fn dxbc(c: &mut Criterion) {
    let (name, blob) = shader();
    let mut g = c.benchmark_group(format!("dxbc ({name}, {} bytes)", blob.len()));
    g.warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("parse container", |b| {
        b.iter(|| black_box(Container::parse(black_box(&blob)).expect("parses")))
    });
    g.bench_function("parse + input signature", |b| {
        b.iter(|| {
            let c = Container::parse(black_box(&blob)).expect("parses");
            black_box(c.input_signature().expect("signature parses"))
        })
    });
    let elements = [
        InputElementDesc::per_vertex("SV_Position", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R32G32B32_FLOAT, 0, 16),
        InputElementDesc::per_vertex("TANGENT", 0, Format::R32G32B32A32_FLOAT, 0, 28),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 44),
        InputElementDesc::per_vertex("BLENDINDICES", 0, Format::R8G8B8A8_UINT, 0, 52),
        InputElementDesc::per_vertex("BLENDWEIGHT", 0, Format::R8G8B8A8_UNORM, 0, 56),
    ];
    let target = Target::default();
    let r = inlay::CreateInputLayout::new(&target, &elements)
        .num_elements(6)
        .bytecode(&blob);
    assert!(
        r.is_success(),
        "the 6-element layout must match {name}: {r:?}"
    );
    g.bench_function(
        "create_input_layout (bytecode, 6 elements, digest checked)",
        |b| {
            b.iter(|| {
                black_box(
                    inlay::CreateInputLayout::new(&target, black_box(&elements))
                        .num_elements(6)
                        .bytecode(black_box(&blob)),
                )
            })
        },
    );
    g.throughput(Throughput::Bytes(blob.len() as u64 - 20));
    g.bench_function("digest of the shader", |b| {
        b.iter(|| black_box(checksum(black_box(&blob))))
    });
    g.finish();

    // Digest throughput next to MD5's own block function on the same 1 MiB.
    let big: Vec<u8> = (0..(1u32 << 20) + 20).map(|i| (i * 31 + 7) as u8).collect();
    let blocks: Vec<[u8; 64]> = big[20..]
        .chunks_exact(64)
        .map(|c| <[u8; 64]>::try_from(c).expect("64 bytes"))
        .collect();
    let mut g = c.benchmark_group("digest 1 MiB");
    g.throughput(Throughput::Bytes(1 << 20))
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("dxbc checksum", |b| {
        b.iter(|| black_box(checksum(black_box(&big))))
    });
    g.bench_function("md-5 block function", |b| {
        b.iter(|| {
            let mut state = [0x6745_2301u32, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
            md5::block_api::compress(&mut state, black_box(&blocks));
            black_box(state)
        })
    });
    g.finish();
}

criterion_group!(benches, dxbc);
criterion_main!(benches);
