//! CreateInputLayout end to end through real bytecode: signature blobs written by
//! `inlay::dxbc`, damaged blobs (R31, R32) and the fxc corpus in `../shared/corpus`.

use inlay::diag::HResult;
use inlay::dxbc::{
    ComponentType, MinPrecision, Signature, SignatureElement, SystemValue, signature_blob,
    write_container,
};
use inlay::element::{APPEND_ALIGNED_ELEMENT as APPEND, InputElementDesc};
use inlay::format::Format;
use inlay::layout::InputClass;
use inlay::target::Target;
use inlay::validation::{
    Creation, SignatureProblem, is_system_generated_input, read_input_signature,
};

fn entry(name: &str, index: u32, register: u32, ty: ComponentType, mask: u8) -> SignatureElement {
    SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: index,
        system_value: SystemValue::UNDEFINED,
        component_type: ty,
        register,
        mask,
        read_write_mask: mask,
        min_precision: MinPrecision(0),
    }
}

fn vtx(name: &str, index: u32, format: Format, offset: u32) -> InputElementDesc {
    InputElementDesc::per_vertex(name, index, format, 0, offset)
}

fn create(elements: &[InputElementDesc], blob: &[u8]) -> Creation {
    inlay::create_input_layout(&Target::default(), elements, blob)
}

fn ids(c: &Creation) -> (Vec<u32>, Vec<u32>) {
    (
        c.error_ids().iter().map(|m| m.0).collect(),
        c.warning_ids().iter().map(|m| m.0).collect(),
    )
}

/// The seed example of the issue: POSITION float3 in v0, COLOR float3 in v1.
fn seed_blob() -> Vec<u8> {
    signature_blob(&Signature {
        elements: vec![
            entry("POSITION", 0, 0, ComponentType::FLOAT32, 0b0111),
            entry("COLOR", 0, 1, ComponentType::FLOAT32, 0b0111),
        ],
    })
}

#[test]
fn seed_example_through_a_signature_blob() {
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0),
        vtx("COLOR", 0, Format::R32G32B32_FLOAT, 12),
    ];
    let blob = seed_blob();
    let c = create(&elements, &blob);
    assert_eq!(c.hresult, HResult::S_OK, "{:#?}", c.diagnostics);
    assert!(c.diagnostics.is_empty());
    let layout = c.layout.unwrap();
    let got: Vec<_> = layout
        .elements()
        .iter()
        .map(|e| (e.offset, e.register, e.class))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, Some(0), InputClass::PerVertex),
            (12, Some(1), InputClass::PerVertex)
        ]
    );
    assert_eq!(layout.slots()[0].min_stride, 24);
    assert!(layout.is_compatible_with(&read_input_signature(&blob).unwrap()));
    // Validate-only.
    let c = inlay::CreateInputLayout::new(&Target::default(), &elements)
        .num_elements(2)
        .validate_only(true)
        .bytecode(&blob);
    assert_eq!(c.hresult, HResult::S_FALSE);
}

#[test]
fn matching_rules_through_a_blob() {
    let blob = seed_blob();
    // R16: POSITION2/0 does not match POSITION0.
    let c = create(
        &[
            vtx("POSITION2", 0, Format::R32G32B32_FLOAT, 0),
            vtx("COLOR", 0, Format::R32G32B32_FLOAT, 12),
        ],
        &blob,
    );
    assert_eq!(ids(&c), (vec![163], vec![385]));
    // R15: case-insensitive; R23: type mismatch warns.
    let c = create(
        &[
            vtx("Position", 0, Format::R32G32B32_FLOAT, 0),
            vtx("color", 0, Format::R8G8B8A8_UINT, APPEND),
        ],
        &blob,
    );
    assert_eq!(c.hresult, HResult::S_OK);
    assert_eq!(ids(&c), (vec![], vec![391]));
    // R25 through the D3D10 path too.
    let c = inlay::CreateInputLayout::new(
        &Target::new(
            inlay::target::Api::D3D10,
            inlay::target::FeatureLevel::L10_0,
        ),
        &[
            vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0),
            vtx("COLOR", 0, Format::R32G32B32_FLOAT, 14),
        ],
    )
    .num_elements(2)
    .bytecode(&blob);
    assert_eq!(ids(&c), (vec![159], vec![]));
}

#[test]
fn isg1_signatures_with_streams_and_min_precision() {
    let mut half = entry("TEXCOORD", 0, 1, ComponentType::FLOAT32, 0b0011);
    half.min_precision = MinPrecision(1);
    let mut stream1 = entry("EXTRA", 0, 2, ComponentType::FLOAT32, 0b1111);
    stream1.stream = 1;
    let signature = Signature {
        elements: vec![
            entry("POSITION", 0, 0, ComponentType::FLOAT32, 0b1111),
            half,
            stream1,
        ],
    };
    let blob = signature_blob(&signature);
    assert_eq!(
        &blob[blob.len() - signature_blob_chunk_len(&blob)..][..4],
        b"ISG1"
    );
    assert_eq!(read_input_signature(&blob).unwrap(), signature);
    let c = create(
        &[
            vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0),
            vtx("TEXCOORD", 0, Format::R16G16_FLOAT, APPEND),
        ],
        &blob,
    );
    assert_eq!(c.hresult, HResult::S_OK, "{:#?}", c.diagnostics);
    let regs: Vec<_> = c
        .layout
        .unwrap()
        .elements()
        .iter()
        .map(|e| e.register)
        .collect();
    assert_eq!(regs, vec![Some(0), Some(1)]);
}

/// Length from the single chunk's tag to the end of a one-chunk container.
fn signature_blob_chunk_len(blob: &[u8]) -> usize {
    let offset = u32::from_le_bytes(blob[32..36].try_into().unwrap()) as usize;
    blob.len() - offset
}

#[test]
fn r31_r32_bad_bytecode_is_161() {
    let elements = [vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0)];
    let good = seed_blob();

    let mut bad_digest = good.clone();
    bad_digest[4] ^= 1;
    let mut bad_magic = good.clone();
    bad_magic[0] = b'X';
    let truncated = good[..good.len() - 4].to_vec();
    let no_isgn = write_container(&[(*b"SHDR", &[0u8; 8][..])]);
    // An ISGN chunk that claims 9 elements but holds 8 bytes.
    let bad_chunk = write_container(&[(*b"ISGN", &[9, 0, 0, 0, 8, 0, 0, 0][..])]);

    type Expect = fn(&SignatureProblem) -> bool;
    let cases: [(&[u8], Expect); 6] = [
        (&[], |p| matches!(p, SignatureProblem::NoBytecode)),
        (&bad_digest, |p| {
            matches!(p, SignatureProblem::Checksum { .. })
        }),
        (&bad_magic, |p| matches!(p, SignatureProblem::Container(_))),
        (&truncated, |p| matches!(p, SignatureProblem::Container(_))),
        (&no_isgn, |p| {
            matches!(p, SignatureProblem::NoInputSignature)
        }),
        (&bad_chunk, |p| matches!(p, SignatureProblem::Signature(_))),
    ];
    for (blob, expected) in cases {
        let problem = read_input_signature(blob).unwrap_err();
        assert!(expected(&problem), "{problem:?}");
        let c = create(&elements, blob);
        assert_eq!(c.hresult, HResult::E_INVALIDARG);
        assert_eq!(ids(&c), (vec![161], vec![]));
        assert!(c.diagnostics[0].message.contains(&problem.to_string()));
    }
    // Random bytes never panic.
    let mut state = 0x1234_5678u32;
    for len in 0..300 {
        let mut blob = good.clone();
        blob.truncate(len % (good.len() + 1));
        for b in blob.iter_mut().skip(20) {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            if state >> 28 == 0 {
                *b = (state >> 8) as u8;
            }
        }
        let c = create(&elements, &blob);
        assert_eq!(c.is_success(), c.errors().next().is_none());
    }
}

// ------------------------------------------------------------------------------------------
// The fxc corpus

#[path = "../testenv/test_side.rs"]
mod testenv;

/// One element per required stream-0 entry (names lower-cased to exercise R15), 4 components
/// of the entry's type, appended in slot 0.
fn layout_for(signature: &Signature) -> Vec<InputElementDesc> {
    let mut elements: Vec<InputElementDesc> = Vec::new();
    for s in &signature.elements {
        if s.stream != 0 || is_system_generated_input(&s.semantic_name) {
            continue;
        }
        let name = s.semantic_name.to_ascii_lowercase();
        if elements
            .iter()
            .any(|e| e.name() == Some(&name) && e.semantic_index == s.semantic_index)
        {
            continue;
        }
        let format = match s.component_type {
            ComponentType::UINT32 => Format::R32G32B32A32_UINT,
            ComponentType::SINT32 => Format::R32G32B32A32_SINT,
            _ => Format::R32G32B32A32_FLOAT,
        };
        elements.push(vtx(&name, s.semantic_index, format, APPEND));
    }
    elements
}

#[test]
#[cfg_attr(
    not(inlay_has_corpus),
    ignore = "needs the fxc corpus: ../shared/corpus or $INLAY_CORPUS"
)]
fn every_corpus_blob_creates_a_layout_with_the_expected_registers() {
    let dir = testenv::corpus();
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir.join("dxbc"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
        .collect();
    entries.sort();
    for path in entries {
        let blob = std::fs::read(&path).unwrap();
        let record: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path.with_extension("json")).unwrap()).unwrap();
        let name = path.display();
        if record["container"]["checksum_matches"] == false {
            let c = create(&[], &blob);
            assert_eq!(ids(&c), (vec![161], vec![420]), "{name}");
            continue;
        }
        // The expectation comes from the JSON record, not from our parser.
        let expected: Vec<(String, u32, Option<u32>)> = record["input_signature"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["semantic_name"].as_str().unwrap().to_string(),
                    e["semantic_index"].as_u64().unwrap() as u32,
                    e["register"].as_u64().map(|r| r as u32),
                )
            })
            .collect();
        let signature = read_input_signature(&blob).unwrap();
        let elements = layout_for(&signature);
        if elements.len() > 32 {
            continue;
        }
        let c = create(&elements, &blob);
        assert_eq!(c.hresult, HResult::S_OK, "{name}: {:#?}", c.diagnostics);
        assert!(
            c.warnings().next().is_none() || elements.is_empty(),
            "{name}"
        );
        let layout = c.layout.unwrap();
        for e in layout.elements() {
            let want = expected
                .iter()
                .find(|(n, i, _)| {
                    n.eq_ignore_ascii_case(&e.semantic_name) && *i == e.semantic_index
                })
                .unwrap_or_else(|| panic!("{name}: {} not in record", e.semantic_name));
            assert_eq!(e.register, want.2, "{name}: {}", e.semantic_name);
        }
        // Dropping any required element gives exactly one missing-element error.
        if let Some(first) = elements.first() {
            let rest = &elements[1..];
            let c = create(rest, &blob);
            assert_eq!(c.hresult, HResult::E_INVALIDARG, "{name}");
            assert_eq!(c.error_ids().len(), 1, "{name}: {first}");
        }
        checked += 1;
    }
    assert!(checked > 100, "only {checked} corpus blobs checked");
}

#[test]
#[cfg_attr(
    not(inlay_has_corpus),
    ignore = "needs the fxc corpus: ../shared/corpus or $INLAY_CORPUS"
)]
fn held_out_corpus_blobs_create_without_panicking() {
    let dir = testenv::corpus();
    let read = std::fs::read_dir(dir.join("dxbc-heldout")).expect("the corpus's held-out blobs");
    for path in read.map(|e| e.unwrap().path()) {
        let blob = std::fs::read(&path).unwrap();
        let Ok(signature) = read_input_signature(&blob) else {
            continue;
        };
        let elements = layout_for(&signature);
        if elements.len() > 32 {
            continue;
        }
        let c = create(&elements, &blob);
        assert_eq!(c.hresult, HResult::S_OK, "{}", path.display());
    }
}
