//! DXBC reader speed (issue 3, *Speed*): parsing a typical vertex-shader container and reading
//! its input signature, matching a 6-element layout against it, and the digest's throughput
//! next to MD5's own block function.
//!
//! `cargo bench -p inlay --bench dxbc`. A plain `harness = false` program timing with
//! `std::time::Instant` (best of several rounds), so the library keeps a small dependency tree.
//! Uses `dxtk__DGSLEffect_main1Bones` from the corpus (`$INLAY_CORPUS`, else
//! `<workspace>/../shared/corpus`), or a written 6-input shader when the corpus is absent.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use inlay::dxbc::{
    ComponentType, Container, MinPrecision, Signature, SignatureElement, SignatureKind,
    SystemValue, checksum, write_container, write_signature_chunk,
};
use inlay::element::InputElementDesc;
use inlay::format::Format;
use inlay::target::Target;
use inlay::validation::{create_input_layout, create_input_layout_with_signature};

/// Nanoseconds per call of `f`, best of 7 rounds of `iters` calls.
fn time(iters: u32, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / f64::from(iters));
    }
    best
}

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

fn main() {
    let (name, blob) = shader();
    println!("shader: {name}, {} bytes", blob.len());

    let parse = time(200_000, || {
        black_box(Container::parse(black_box(&blob)).unwrap());
    });
    println!("parse container:                          {parse:8.1} ns");

    let sig = time(100_000, || {
        let c = Container::parse(black_box(&blob)).unwrap();
        black_box(c.input_signature().unwrap());
    });
    println!("parse + input signature:                  {sig:8.1} ns");

    let elements = [
        InputElementDesc::per_vertex("SV_Position", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R32G32B32_FLOAT, 0, 16),
        InputElementDesc::per_vertex("TANGENT", 0, Format::R32G32B32A32_FLOAT, 0, 28),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 44),
        InputElementDesc::per_vertex("BLENDINDICES", 0, Format::R8G8B8A8_UINT, 0, 52),
        InputElementDesc::per_vertex("BLENDWEIGHT", 0, Format::R8G8B8A8_UNORM, 0, 56),
    ];
    let target = Target::default();
    {
        let c = Container::parse(&blob).unwrap();
        let s = c.input_signature().unwrap().unwrap();
        let r = create_input_layout_with_signature(&target, Some(&elements), 6, Ok(&s), false);
        assert!(r.is_success(), "the 6-element layout must match {name}");
    }
    let full = time(50_000, || {
        let c = Container::parse(black_box(&blob)).unwrap();
        let s = c.input_signature().unwrap().unwrap();
        black_box(create_input_layout_with_signature(
            &target,
            Some(black_box(&elements)),
            6,
            Ok(&s),
            false,
        ));
    });
    println!("parse + signature + 6-element layout:     {full:8.1} ns (target < 2000 ns)");

    let whole = time(20_000, || {
        black_box(create_input_layout(
            &target,
            Some(black_box(&elements)),
            6,
            black_box(&blob),
            false,
        ));
    });
    println!("create_input_layout(bytecode), digest checked: {whole:8.1} ns (digest included)");

    let digest = time(20_000, || {
        black_box(checksum(black_box(&blob)));
    });
    println!(
        "digest of the shader:                     {digest:8.1} ns ({:.0} MB/s)",
        (blob.len() - 20) as f64 / digest * 1e3
    );

    let big: Vec<u8> = (0..(1u32 << 20) + 20).map(|i| (i * 31 + 7) as u8).collect();
    let d = time(20, || {
        black_box(checksum(black_box(&big)));
    });
    println!(
        "digest, 1 MiB:                            {:8.0} MB/s",
        (1u64 << 20) as f64 / d * 1e3
    );

    let blocks: Vec<[u8; 64]> = big[20..]
        .chunks_exact(64)
        .map(|c| <[u8; 64]>::try_from(c).unwrap())
        .collect();
    let m = time(20, || {
        let mut state = [0x6745_2301u32, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
        md5::block_api::compress(&mut state, black_box(&blocks));
        black_box(state);
    });
    println!(
        "MD5 block function alone, 1 MiB:          {:8.0} MB/s",
        (1u64 << 20) as f64 / m * 1e3
    );
}
