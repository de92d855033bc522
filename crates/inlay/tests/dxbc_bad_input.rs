//! Bad input is normal input (createinputlayout-rules.md R31): truncated, corrupted and
//! hostile containers and signature chunks give a `DxbcError`, never a panic, and never an
//! allocation larger than the blob justifies.

use std::fs;

use inlay::dxbc::report::{ShaderReport, listing};
use inlay::dxbc::{
    ComponentType, Container, DxbcError, FourCC, MinPrecision, NO_REGISTER, Signature,
    SignatureElement, SignatureKind, SystemValue, extract_input_and_output_signature_blob,
    extract_input_signature_blob, extract_output_signature_blob, parse_signature_chunk,
    signature_blob, write_container, write_signature_chunk,
};
use proptest::prelude::*;

fn element(
    name: &str,
    index: u32,
    sv: u32,
    ty: u32,
    reg: u32,
    mask: u8,
    rw: u8,
) -> SignatureElement {
    SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: index,
        system_value: SystemValue(sv),
        component_type: ComponentType(ty),
        register: reg,
        mask,
        read_write_mask: rw,
        min_precision: MinPrecision::default(),
    }
}

fn input_sig() -> Signature {
    Signature {
        elements: vec![
            element("POSITION", 0, 0, 3, 0, 0xf, 0xf),
            element("NORMAL", 0, 0, 3, 1, 0x7, 0x7),
            element("TEXCOORD", 0, 0, 3, 2, 0x3, 0x3),
            element("TEXCOORD", 1, 0, 3, 3, 0x3, 0x1),
            element("SV_VertexID", 0, 6, 1, 4, 0x1, 0x0),
        ],
    }
}

fn output_sig() -> Signature {
    Signature {
        elements: vec![
            element("SV_Position", 0, 1, 3, 0, 0xf, 0x0),
            element("COLOR", 0, 0, 3, 1, 0xf, 0x0),
        ],
    }
}

/// A written vertex shader: SHDR (vs_5_0 token + length), ISGN, OSGN.
fn written_shader() -> Vec<u8> {
    let shdr: Vec<u8> = [0x0001_0050u32, 2]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let isgn = write_signature_chunk(SignatureKind::Isgn, &input_sig());
    let osgn = write_signature_chunk(SignatureKind::Osgn, &output_sig());
    write_container(&[(*b"SHDR", &shdr), (*b"ISGN", &isgn), (*b"OSGN", &osgn)])
}

#[path = "../testenv/test_side.rs"]
mod testenv;

/// A few real blobs: a level-9 VS, an SM5 VS, an ISG1 VS, a GS with an N/A row, a hull shader
/// (read by the `_corpus` twins of the tests below, ignored without the corpus).
fn real_blobs() -> Vec<(String, Vec<u8>)> {
    let dir = testenv::corpus();
    [
        "angle__clear11_fl9vs_g_VS_Clear_FL9__580baf37",
        "dxdecompiler__3Dmigoto_signatures_vs",
        "dxdecompiler__3Dmigoto_signatures_gs5",
    ]
    .iter()
    .map(|n| {
        let path = dir.join("dxbc").join(format!("{n}.dxbc"));
        let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        (n.to_string(), bytes)
    })
    .collect()
}

/// Calls every reader on `bytes`; returns the parse result. Must never panic.
fn exercise(bytes: &[u8]) -> Result<(), DxbcError> {
    let c = Container::parse(bytes)?;
    let _ = c.digest();
    let _ = c.checksum_matches();
    let n = c.chunks().filter(|ch| ch.offset >= 32).count();
    assert_eq!(n, c.chunk_count());
    for kind in SignatureKind::ALL {
        let _ = c.signature(kind);
    }
    let _ = c.input_signature();
    let _ = c.output_signature();
    let _ = c.patch_constant_signature();
    let _ = c.shader_version();
    let _ = c.shader_model_string();
    let _ = c
        .level9_bytecode()
        .map(|l| (l.profile(), l.feature_level_suffix()));
    let _ = ShaderReport::new(&c);
    let _ = listing(&c);
    let _ = extract_input_signature_blob(bytes);
    let _ = extract_output_signature_blob(bytes);
    let _ = extract_input_and_output_signature_blob(bytes);
    let again = c.rewrite();
    assert!(
        Container::parse(&again).is_ok(),
        "rewrite of a parsed container must parse"
    );
    Ok(())
}

fn set_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn get_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Blobs made here, which every machine has.
fn own_blobs() -> Vec<(String, Vec<u8>)> {
    vec![
        ("written".into(), written_shader()),
        ("signature_blob".into(), signature_blob(&input_sig())),
    ]
}

/// Each check runs on the blobs made here and, as its `_corpus` twin, on the real ones.
macro_rules! on_own_and_corpus_blobs {
    ($($check:ident => $own:ident, $corpus:ident;)*) => {$(
        #[test]
        fn $own() {
            $check(own_blobs());
        }

        #[test]
        #[cfg_attr(
            not(inlay_has_corpus),
            ignore = "needs the fxc corpus: ../shared/corpus or $INLAY_CORPUS"
        )]
        fn $corpus() {
            $check(real_blobs());
        }
    )*};
}

on_own_and_corpus_blobs! {
    blobs_are_sound => the_test_blobs_are_sound, the_corpus_blobs_are_sound;
    truncation_is_an_error => truncation_at_every_length_is_an_error,
        truncation_at_every_length_is_an_error_corpus;
    signature_chunk_truncated => signature_chunk_truncated_at_every_length,
        signature_chunk_truncated_at_every_length_corpus;
    header_fields_corrupted => every_header_field_corrupted, every_header_field_corrupted_corpus;
    chunk_offsets_anywhere => chunk_offsets_pointing_anywhere,
        chunk_offsets_pointing_anywhere_corpus;
}

fn blobs_are_sound(blobs: Vec<(String, Vec<u8>)>) {
    for (name, b) in blobs {
        exercise(&b).unwrap_or_else(|e| panic!("{name}: {e}"));
        let c = Container::parse(&b).unwrap();
        assert!(c.checksum_matches(), "{name}");
        assert!(c.input_signature().unwrap().is_some(), "{name}");
    }
    let w = written_shader();
    let c = Container::parse(&w).unwrap();
    assert_eq!(c.input_signature().unwrap().unwrap(), input_sig());
    assert_eq!(c.output_signature().unwrap().unwrap(), output_sig());
    assert_eq!(c.shader_model_string().as_deref(), Some("5_0"));
}

fn truncation_is_an_error(blobs: Vec<(String, Vec<u8>)>) {
    for (name, b) in blobs {
        for n in 0..b.len() {
            let r = exercise(&b[..n]);
            let want = if n < 32 {
                DxbcError::TooShort { len: n }
            } else {
                DxbcError::BadSize {
                    declared: b.len() as u32,
                    actual: n,
                }
            };
            assert_eq!(r, Err(want), "{name} cut at {n}");
        }
        // Truncated with the size field patched to match: the chunks no longer fit.
        for n in 32..b.len() {
            let mut t = b[..n].to_vec();
            set_u32(&mut t, 24, n as u32);
            assert!(exercise(&t).is_err(), "{name} cut at {n} with size patched");
        }
        // Trailing bytes after the declared size are ignored (docs/notes/dxbc.md).
        let mut longer = b.clone();
        longer.extend_from_slice(&[0xcd; 7]);
        let c = Container::parse(&longer).unwrap();
        assert_eq!(c.size(), b.len());
        assert!(c.checksum_matches());
    }
}

fn signature_chunk_truncated(blobs: Vec<(String, Vec<u8>)>) {
    for (name, b) in blobs {
        let c = Container::parse(&b).unwrap();
        for ch in c.chunks() {
            let Some(kind) = SignatureKind::from_tag(ch.tag) else {
                continue;
            };
            let full = parse_signature_chunk(kind, ch.data).unwrap();
            for n in 0..ch.data.len() {
                // Only the 0xAB padding after the last name may go without an error.
                if let Ok(s) = parse_signature_chunk(kind, &ch.data[..n]) {
                    assert_eq!(s, full, "{name} {} cut at {n}", ch.tag);
                    assert!(
                        ch.data[n..].iter().all(|&x| x == 0xab),
                        "{name} {} cut at {n}",
                        ch.tag
                    );
                }
            }
        }
    }
}

fn header_fields_corrupted(blobs: Vec<(String, Vec<u8>)>) {
    for (name, b) in blobs {
        // Magic: every byte changed.
        for i in 0..4 {
            let mut m = b.clone();
            m[i] ^= 0x20;
            assert!(
                matches!(exercise(&m), Err(DxbcError::BadMagic { .. })),
                "{name}: magic byte {i}"
            );
        }
        // Digest: still parses, no longer matches.
        for i in 4..20 {
            let mut m = b.clone();
            m[i] ^= 1;
            exercise(&m).unwrap();
            assert!(
                !Container::parse(&m).unwrap().checksum_matches(),
                "{name}: digest byte {i}"
            );
        }
        // Version.
        for v in [0u32, 2, 0x100, u32::MAX] {
            let mut m = b.clone();
            set_u32(&mut m, 20, v);
            assert_eq!(
                exercise(&m),
                Err(DxbcError::BadVersion { found: v }),
                "{name}"
            );
        }
        // Size field.
        for v in [
            0u32,
            1,
            31,
            b.len() as u32 + 1,
            b.len() as u32 + 4,
            u32::MAX,
        ] {
            let mut m = b.clone();
            set_u32(&mut m, 24, v);
            assert_eq!(
                exercise(&m),
                Err(DxbcError::BadSize {
                    declared: v,
                    actual: b.len()
                }),
                "{name}: size {v}"
            );
        }
        for v in [32u32, 36, b.len() as u32 - 1, b.len() as u32 - 4] {
            let mut m = b.clone();
            set_u32(&mut m, 24, v);
            assert!(exercise(&m).is_err(), "{name}: size {v}");
        }
        // Chunk count: 2^32 - 1 and every count whose table does not fit are refused before
        // anything is allocated or read.
        let count = get_u32(&b, 28);
        for v in [
            u32::MAX,
            0x8000_0000,
            0x4000_0000,
            (b.len() as u32 - 32) / 4 + 1,
        ] {
            let mut m = b.clone();
            set_u32(&mut m, 28, v);
            assert_eq!(
                exercise(&m),
                Err(DxbcError::ChunkCountTooLarge {
                    count: v,
                    needed: 32 + 4 * u64::from(v),
                    size: b.len()
                }),
                "{name}: count {v}"
            );
        }
        // A larger count that still fits reads chunk data as offsets: an error, not a panic.
        for v in count + 1..count + 8 {
            let mut m = b.clone();
            set_u32(&mut m, 28, v);
            let _ = exercise(&m);
        }
        // Fewer chunks: still a valid container (the rest is unreferenced data).
        if count > 0 {
            let mut m = b.clone();
            set_u32(&mut m, 28, count - 1);
            let _ = exercise(&m);
        }
    }
}

fn chunk_offsets_anywhere(blobs: Vec<(String, Vec<u8>)>) {
    for (name, b) in blobs {
        let count = get_u32(&b, 28) as usize;
        let header_end = 32 + 4 * count;
        for index in 0..count {
            let at = 32 + 4 * index;
            let original = get_u32(&b, at);
            for off in (0..b.len() as u32 + 16).chain([u32::MAX - 3, u32::MAX, 0x8000_0000]) {
                let mut m = b.clone();
                set_u32(&mut m, at, off);
                let r = exercise(&m);
                let o = off as usize;
                if o < header_end {
                    assert_eq!(
                        r,
                        Err(DxbcError::ChunkOffsetInHeader {
                            index: index as u32,
                            at,
                            offset: off,
                            header_end
                        }),
                        "{name}: chunk {index} at {off}"
                    );
                } else if !o.is_multiple_of(4) {
                    assert_eq!(
                        r,
                        Err(DxbcError::ChunkOffsetUnaligned {
                            index: index as u32,
                            at,
                            offset: off
                        }),
                        "{name}: chunk {index} at {off}"
                    );
                } else if o + 8 > b.len() {
                    assert!(
                        matches!(r, Err(DxbcError::ChunkHeaderPastEnd { .. })),
                        "{name}: chunk {index} at {off}"
                    );
                } else if off == original {
                    assert_eq!(r, Ok(()));
                }
            }
            // The chunk's size field: every value past the end is refused.
            let size_at = original as usize + 4;
            let room = (b.len() - original as usize - 8) as u32;
            for len in [room + 1, room + 4, u32::MAX, u32::MAX - 7, 0x8000_0000] {
                let mut m = b.clone();
                set_u32(&mut m, size_at, len);
                assert!(
                    matches!(exercise(&m), Err(DxbcError::ChunkDataPastEnd { len: l, .. }) if l == len),
                    "{name}: chunk {index} size {len}"
                );
            }
            for len in [0, 1, 2, 3, 4, 7, 8, 9, room] {
                let mut m = b.clone();
                set_u32(&mut m, size_at, len);
                let _ = exercise(&m);
            }
        }
    }
}

/// Offset of the `ISGN` chunk data in the written shader.
fn isgn_data_offset(b: &[u8]) -> usize {
    Container::parse(b)
        .unwrap()
        .chunk(FourCC::ISGN)
        .unwrap()
        .data_offset()
}

#[test]
fn name_offsets_out_of_range() {
    let b = written_shader();
    let d = isgn_data_offset(&b);
    let len = get_u32(&b, d - 4);
    for element in 0..5u32 {
        let at = d + 8 + 24 * element as usize;
        for off in [len, len + 1, len + 100, u32::MAX, u32::MAX - 1, 0x8000_0000] {
            let mut m = b.clone();
            set_u32(&mut m, at, off);
            let c = Container::parse(&m).unwrap();
            assert_eq!(
                c.input_signature(),
                Err(DxbcError::NameOffsetOutOfRange {
                    tag: FourCC::ISGN,
                    at,
                    element,
                    name_offset: off,
                    len: len as usize
                })
            );
            assert!(exercise(&m).is_ok());
            assert!(extract_input_signature_blob(&m).is_err());
            assert!(ShaderReport::new(&c).is_err());
        }
        // Pointing at the 0xAB padding: no NUL before the end.
        let mut m = b.clone();
        set_u32(&mut m, at, len - 1);
        let c = Container::parse(&m).unwrap();
        assert_eq!(
            c.input_signature(),
            Err(DxbcError::NameUnterminated {
                tag: FourCC::ISGN,
                at,
                element,
                name_offset: len - 1
            })
        );
        // Every offset inside the chunk: an error or a name, never a panic.
        for off in 0..len {
            let mut m = b.clone();
            set_u32(&mut m, at, off);
            let _ = exercise(&m);
        }
    }
}

#[test]
fn element_counts_huge() {
    let b = written_shader();
    let d = isgn_data_offset(&b);
    let len = get_u32(&b, d - 4) as usize;
    // Six elements still fit (the name table is read as an element): its name offset is text.
    let mut m = b.clone();
    set_u32(&mut m, d, 6);
    assert!(matches!(
        Container::parse(&m).unwrap().input_signature(),
        Err(DxbcError::NameOffsetOutOfRange { element: 5, .. })
    ));
    for count in [7u32, 1000, 0x0aaa_aaab, 0x8000_0000, u32::MAX] {
        let mut m = b.clone();
        set_u32(&mut m, d, count);
        let c = Container::parse(&m).unwrap();
        assert_eq!(
            c.input_signature(),
            Err(DxbcError::SignatureElementsPastEnd {
                tag: FourCC::ISGN,
                at: d,
                count,
                first: 8,
                stride: 24,
                len
            }),
            "count {count}"
        );
    }
    // Offset of the first element past the end, or huge.
    for first in [len as u32, len as u32 - 23, u32::MAX, 0x8000_0000] {
        let mut m = b.clone();
        set_u32(&mut m, d + 4, first);
        let c = Container::parse(&m).unwrap();
        assert!(matches!(
            c.input_signature(),
            Err(DxbcError::SignatureElementsPastEnd { .. })
        ));
    }
    // Zero elements is a valid, empty signature.
    let mut m = b.clone();
    set_u32(&mut m, d, 0);
    let c = Container::parse(&m).unwrap();
    assert_eq!(c.input_signature().unwrap().unwrap().elements.len(), 0);
    // The same element count in each element layout.
    for kind in SignatureKind::ALL {
        let mut data = vec![0u8; 64];
        data[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        data[4..8].copy_from_slice(&8u32.to_le_bytes());
        assert!(matches!(
            parse_signature_chunk(kind, &data),
            Err(DxbcError::SignatureElementsPastEnd {
                count: u32::MAX,
                ..
            })
        ));
        for n in 0..8 {
            assert!(matches!(
                parse_signature_chunk(kind, &data[..n]),
                Err(DxbcError::SignatureHeaderTooShort { .. })
            ));
        }
    }
}

#[test]
fn non_utf8_names_are_decoded_lossily() {
    let mut b = written_shader();
    let d = isgn_data_offset(&b);
    let name_at = d + get_u32(&b, d + 8) as usize; // "POSITION"
    b[name_at] = 0xff;
    b[name_at + 1] = 0xfe;
    let digest = inlay::dxbc::checksum(&b);
    b[4..20].copy_from_slice(&digest);
    let c = Container::parse(&b).unwrap();
    let s = c.input_signature().unwrap().unwrap();
    assert_eq!(s.elements[0].semantic_name, "\u{fffd}\u{fffd}SITION");
    assert!(exercise(&b).is_ok());
}

#[test]
fn no_register_round_trips() {
    let mut s = input_sig();
    s.elements[4].register = NO_REGISTER;
    let blob = signature_blob(&s);
    let c = Container::parse(&blob).unwrap();
    let got = c.input_signature().unwrap().unwrap();
    assert_eq!(got.elements[4].register(), None);
    assert_eq!(got, s);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Random byte changes anywhere, then random truncation: never a panic.
    #[test]
    fn random_corruption_never_panics(
        flips in proptest::collection::vec((0usize..4096, any::<u8>()), 1..8),
        cut in 0usize..4096,
        fix_size in any::<bool>(),
    ) {
        let mut b = written_shader();
        for (at, v) in flips {
            let i = at % b.len();
            b[i] = v;
        }
        let n = cut.min(b.len());
        let mut t = b[..n].to_vec();
        if fix_size && t.len() >= 28 {
            let l = t.len() as u32;
            t[24..28].copy_from_slice(&l.to_le_bytes());
        }
        let _ = exercise(&t);
    }

    /// Random signatures survive write → parse in every layout that holds all their fields.
    #[test]
    fn written_signatures_round_trip(
        els in proptest::collection::vec(
            ("[A-Za-z_][A-Za-z0-9_]{0,12}", 0u32..8, 0u32..20, 0u32..4, any::<u32>(),
             0u8..16, 0u8..16, 0u32..4, prop_oneof![Just(0u32), Just(1), Just(2), Just(4), Just(5)]),
            0..12),
    ) {
        let sig = Signature {
            elements: els
                .into_iter()
                .map(|(n, i, sv, ty, reg, m, rw, stream, mp)| SignatureElement {
                    stream,
                    semantic_name: n,
                    semantic_index: i,
                    system_value: SystemValue(sv),
                    component_type: ComponentType(ty),
                    register: reg,
                    mask: m,
                    read_write_mask: rw,
                    min_precision: MinPrecision(mp),
                })
                .collect(),
        };
        for kind in [SignatureKind::Isg1, SignatureKind::Osg1, SignatureKind::Psg1] {
            let data = write_signature_chunk(kind, &sig);
            prop_assert_eq!(data.len() % 4, 0);
            prop_assert_eq!(parse_signature_chunk(kind, &data).unwrap(), sig.clone());
        }
        let blob = signature_blob(&sig);
        let c = Container::parse(&blob).unwrap();
        prop_assert!(c.checksum_matches());
        prop_assert_eq!(c.input_signature().unwrap().unwrap(), sig.clone());
        let io = inlay::dxbc::input_and_output_signature_blob(&sig, &sig);
        let c = Container::parse(&io).unwrap();
        prop_assert_eq!(c.output_signature().unwrap().unwrap(), sig.clone());
        prop_assert_eq!(extract_input_signature_blob(&io).unwrap(), blob);
    }
}
