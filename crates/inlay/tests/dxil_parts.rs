//! DXIL containers made by inlay's own writer (no dxc runs here): container rules, program
//! header, PSV0 of every runtime-info version, HASH, SFI0 and digests, and every truncation
//! of them refused with an error naming the byte, never a panic.

use inlay::dxbc::dxil::{
    DigestKind, DxilBlob, DxilShaderKind, FeatureFlags, ImplicitInput, PSV_RUNTIME_INFO_SIZES,
    Psv0, PsvSemanticKind, PsvSignatureElement, write_contiguous,
};
use inlay::dxbc::{
    ComponentType, Container, ContainerRules, DxbcError, MinPrecision, Signature, SignatureElement,
    SystemValue,
};

fn el(
    name: &str,
    index: u32,
    sv: SystemValue,
    ty: ComponentType,
    reg: u32,
    mask: u8,
) -> SignatureElement {
    SignatureElement {
        stream: 0,
        semantic_name: name.into(),
        semantic_index: index,
        system_value: sv,
        component_type: ty,
        register: reg,
        mask,
        read_write_mask: mask,
        min_precision: MinPrecision(0),
    }
}

fn psv_input(
    name: &str,
    kind: PsvSemanticKind,
    index_at: u32,
    row: u8,
    cols: u8,
    ty: ComponentType,
) -> PsvSignatureElement {
    PsvSignatureElement {
        semantic_name: name.into(),
        semantic_indexes: vec![index_at],
        rows: 1,
        start_row: Some(row),
        cols,
        start_col: Some(0),
        semantic_kind: kind,
        component_type: ty,
        interpolation_mode: 0,
        dynamic_index_mask: 0,
        stream: 0,
    }
}

/// A vs_6_0 with POSITION (v0) and SV_VertexID (v1), PSV0 of the given runtime-info size.
fn vs(info_size: u32, digest: DigestKind, bitcode_len: usize) -> Vec<u8> {
    let mut info = vec![0u8; info_size as usize];
    if info_size >= 36 {
        info[24] = 1; // vertex
        info[31] = 2; // input vectors
    }
    if info_size >= 52 {
        info[48..52].copy_from_slice(&5u32.to_le_bytes()); // "main" at 5
    }
    let psv = Psv0 {
        runtime_info_size: info_size,
        runtime_info: info,
        string_table: b"\0POS\0main\0\0".to_vec(),
        semantic_index_table: vec![0],
        inputs: if info_size >= 36 {
            vec![
                psv_input(
                    "POS",
                    PsvSemanticKind::ARBITRARY,
                    0,
                    0,
                    3,
                    ComponentType::FLOAT32,
                ),
                psv_input(
                    "",
                    PsvSemanticKind::VERTEX_ID,
                    0,
                    1,
                    1,
                    ComponentType::UINT32,
                ),
            ]
        } else {
            Vec::new()
        },
        ..Psv0::default()
    };
    DxilBlob {
        program_version: 0x0001_0060,
        dxil_version: 0x0100,
        bitcode: (0..bitcode_len as u8).collect(),
        input: Signature {
            elements: vec![
                el(
                    "POS",
                    0,
                    SystemValue::UNDEFINED,
                    ComponentType::FLOAT32,
                    0,
                    0b0111,
                ),
                el(
                    "SV_VertexID",
                    0,
                    SystemValue::VERTEX_ID,
                    ComponentType::UINT32,
                    1,
                    1,
                ),
            ],
        },
        output: Signature {
            elements: vec![el(
                "SV_Position",
                0,
                SystemValue::POSITION,
                ComponentType::FLOAT32,
                0,
                0xf,
            )],
        },
        psv: Some(psv),
        feature_flags: Some(FeatureFlags::VIEW_ID),
        digest: Some(digest),
    }
    .write()
}

#[test]
fn written_containers_read_back() {
    for &size in PSV_RUNTIME_INFO_SIZES.iter().chain(&[60u32]) {
        // An odd bitcode length makes the DXIL part end unaligned, as dxc's may.
        for bitcode in [5usize, 8] {
            let blob = vs(size, DigestKind::Valid, bitcode);
            let c = Container::parse_for(&blob, inlay::target::Api::D3D12).unwrap();
            assert_eq!(c.rules(), ContainerRules::Dxc);
            assert!(c.checksum_matches());
            assert_eq!(c.digest_kind(), DigestKind::Valid);
            let p = c.dxil_program().unwrap().unwrap();
            assert_eq!(p.kind(), DxilShaderKind::VERTEX);
            assert_eq!((p.major(), p.minor()), (6, 0));
            assert_eq!(p.profile(), "vs_6_0");
            assert_eq!(p.dxil_version_string(), "1.0");
            assert_eq!(p.bitcode_size, bitcode as u32);
            assert_eq!(c.stage_name().as_deref(), Some("vertex"));
            assert_eq!(c.profile().as_deref(), Some("vs_6_0"));
            let psv = c.psv0().unwrap().unwrap();
            let version = PSV_RUNTIME_INFO_SIZES
                .iter()
                .rposition(|&s| s <= size)
                .unwrap() as u32;
            assert_eq!(psv.version(), Some(version));
            if size >= 36 {
                assert_eq!(psv.shader_stage(), Some(DxilShaderKind::VERTEX));
                assert_eq!(psv.inputs.len(), 2);
                assert_eq!(psv.inputs[0].semantic_name, "POS");
                assert_eq!(psv.inputs[0].cols, 3);
                assert_eq!(psv.inputs[1].semantic_kind, PsvSemanticKind::VERTEX_ID);
                assert_eq!(psv.inputs[1].start_row, Some(1));
                assert_eq!(psv.input_vectors(), Some(2));
            } else {
                assert_eq!(psv.shader_stage(), None);
                assert!(psv.inputs.is_empty());
            }
            assert_eq!(
                psv.entry_function_name().as_deref(),
                (size >= 52).then_some("main")
            );
            let isg1 = c.input_signature().unwrap().unwrap();
            assert_eq!(isg1.elements[1].semantic_name, "SV_VertexID");
            assert_eq!(c.implicit_inputs(), vec![ImplicitInput::ViewId]);
            // fxc's rules refuse it only when a part starts unaligned.
            let aligned = c.chunks().all(|ch| ch.offset % 4 == 0);
            assert_eq!(Container::parse(&blob).is_ok(), aligned);
        }
    }
}

#[test]
fn digest_kinds() {
    for (kind, accepted) in [
        (DigestKind::Valid, true),
        (DigestKind::Bypass, true),
        (DigestKind::Preview, false),
        (DigestKind::Zero, false),
        (DigestKind::Mismatch, false),
    ] {
        let blob = vs(52, kind, 8);
        let c = Container::parse_detected(&blob).unwrap();
        assert_eq!(c.digest_kind(), kind);
        assert_eq!(kind.accepted_by_d3d12(), accepted);
        let want: [u8; 16] = match kind {
            DigestKind::Bypass => [1; 16],
            DigestKind::Preview => [2; 16],
            DigestKind::Zero => [0; 16],
            _ => c.digest(),
        };
        assert_eq!(c.digest(), want);
    }
}

#[test]
fn dxc_container_rules() {
    let a = [1u8, 2, 3];
    let good = write_contiguous(&[(*b"SFI0", &[0; 8]), (*b"ABCD", &a), (*b"DXIL", &a)]);
    let c = Container::parse_with(&good, ContainerRules::Dxc).unwrap();
    assert_eq!(c.chunk_count(), 3);
    // Second part starts at 32 + 12 + 16 = 60 and third at 60 + 11 = 71 (unaligned): D3D11's
    // rule refuses it.
    assert!(matches!(
        Container::parse(&good),
        Err(DxbcError::ChunkOffsetUnaligned {
            index: 2,
            offset: 71,
            ..
        })
    ));
    // A gap between parts.
    let mut gap = good.clone();
    gap[40..44].copy_from_slice(&72u32.to_le_bytes());
    assert_eq!(
        Container::parse_with(&gap, ContainerRules::Dxc).unwrap_err(),
        DxbcError::PartNotContiguous {
            index: 2,
            at: 40,
            offset: 72,
            expected: 71
        }
    );
    // Bytes after the last part inside the declared size.
    let mut tail = good.clone();
    tail.push(0);
    let n = tail.len() as u32;
    tail[24..28].copy_from_slice(&n.to_le_bytes());
    assert_eq!(
        Container::parse_with(&tail, ContainerRules::Dxc).unwrap_err(),
        DxbcError::PartsEndBeforeSize { end: 82, size: 83 }
    );
    assert!(Container::parse(&tail).is_err()); // still unaligned for fxc
    // Major version 2; a minor version is fine.
    let mut v = good.clone();
    v[20] = 2;
    assert_eq!(
        Container::parse_with(&v, ContainerRules::Dxc).unwrap_err(),
        DxbcError::BadDxilVersion { major: 2, minor: 0 }
    );
    let mut v = good.clone();
    v[22] = 1;
    assert!(Container::parse_with(&v, ContainerRules::Dxc).is_ok());
    assert_eq!(ContainerRules::detect(&good), ContainerRules::Dxc);
    assert_eq!(ContainerRules::detect(&good[..20]), ContainerRules::Fxc);
}

/// Every prefix and every single-byte corruption of a container gives an error or a value,
/// never a panic, for every DXIL part accessor.
#[test]
fn truncated_and_corrupted_parts_are_errors() {
    let blob = vs(52, DigestKind::Valid, 8);
    let c = Container::parse_detected(&blob).unwrap();
    for ch in c.chunks() {
        for len in 0..ch.data.len() {
            let d = &ch.data[..len];
            let _ = inlay::dxbc::dxil::DxilProgram::parse(d, ch.data_offset());
            let _ = Psv0::parse(d, ch.data_offset());
            let _ = inlay::dxbc::dxil::ShaderHash::parse(d, ch.data_offset());
            let _ = FeatureFlags::parse(d, ch.data_offset());
        }
    }
    let psv = c.chunk(*b"PSV0").unwrap();
    let e = Psv0::parse(&psv.data[..40], psv.data_offset()).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!(
            "byte {}: PSV0 part: the runtime info",
            psv.data_offset() + 4
        )),
        "{e}"
    );
    let prog = c.chunk(*b"DXIL").unwrap();
    let mut bad = prog.data.to_vec();
    bad[8] = b'X';
    let e = inlay::dxbc::dxil::DxilProgram::parse(&bad, prog.data_offset()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "byte {}: DXIL part: bitcode header magic is \"XXIL\", expected \"DXIL\"",
            prog.data_offset() + 8
        )
    );
    for i in 0..blob.len() {
        for v in [0u8, 0xff, 0x41] {
            let mut m = blob.clone();
            m[i] = v;
            if let Ok(c) = Container::parse_detected(&m) {
                let _ = inlay::dxbc::report::ShaderReport::new(&c);
                let _ = inlay::dxbc::report::listing(&c);
                let _ = c.implicit_inputs();
            }
        }
    }
}
