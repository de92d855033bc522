//! The DXBC reader on arbitrary bytes: parse, every accessor, the report and listing, the
//! signature extractors and the canonical rewrite. Nothing may panic; a container that parses
//! must rewrite into one that parses again, with a valid digest and the same chunks.
#![no_main]

use inlay::dxbc::{self, Container, FourCC, SignatureKind, report};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Digest and standalone signature parsing of the raw bytes, whatever they are.
    let _ = dxbc::checksum(data);
    for kind in SignatureKind::ALL {
        if let Ok(sig) = dxbc::parse_signature_chunk(kind, data) {
            let _ = sig.to_string();
        }
    }
    let _ = dxbc::extract_input_signature_blob(data);
    let _ = dxbc::extract_output_signature_blob(data);
    let _ = dxbc::extract_input_and_output_signature_blob(data);
    let _ = report::ShaderReport::from_bytes(data);

    let Ok(c) = Container::parse(data) else {
        return;
    };
    assert!(c.size() <= data.len());
    assert_eq!(c.bytes().len(), c.size());
    let _ = (c.digest(), c.computed_digest(), c.checksum_matches());
    let chunks: Vec<_> = c.chunks().collect();
    assert_eq!(chunks.len(), c.chunk_count());
    for ch in &chunks {
        assert!(ch.data_offset() + ch.data.len() <= c.size());
        let _ = ch.tag.to_string();
    }
    for tag in [
        FourCC::ISGN,
        FourCC::ISG1,
        FourCC::OSGN,
        FourCC::OSG1,
        FourCC::OSG5,
        FourCC::PCSG,
        FourCC::PSG1,
        FourCC::SHDR,
        FourCC::SHEX,
        FourCC::AON9,
        FourCC::RDEF,
        FourCC::STAT,
    ] {
        assert_eq!(c.has_chunk(tag), c.chunk(tag).is_some());
    }
    for kind in SignatureKind::ALL {
        if let Ok(Some(sig)) = c.signature(kind) {
            // A parsed signature writes back to a chunk that parses to the same signature.
            let again = dxbc::write_signature_chunk(kind, &sig);
            assert_eq!(dxbc::parse_signature_chunk(kind, &again).as_ref(), Ok(&sig));
        }
    }
    let _ = c.input_signature_chunk();
    let _ = c.output_signature_chunk();
    let _ = c.patch_constant_signature_chunk();
    let _ = c.input_signature();
    let _ = c.output_signature();
    let _ = c.patch_constant_signature();
    if let Some(v) = c.shader_version() {
        let _ = (
            v.to_string(),
            v.stage.name(),
            v.stage.profile_prefix(),
            v.token(),
        );
    }
    let _ = c.has_level9_bytecode();
    if let Some(l9) = c.level9_bytecode() {
        let _ = (l9.profile(), l9.feature_level_suffix());
    }
    let _ = c.shader_model_string();
    if let Ok(r) = report::ShaderReport::new(&c) {
        let _ = serde_json::to_string(&r).expect("a report always serialises");
    }
    let _ = report::listing(&c);

    // Canonical rewrite: parses, valid digest, same chunks in the same order.
    // Overlapping chunks are each written out: bound the rewrite (16 MiB here).
    let Ok(rebuilt) = c.try_rewrite(16 << 20) else {
        assert!(c.rewritten_size() > 16 << 20);
        return;
    };
    assert_eq!(rebuilt.len() as u64, c.rewritten_size());
    let r = Container::parse(&rebuilt).expect("a rewritten container parses");
    assert!(r.checksum_matches());
    assert!(
        r.chunks()
            .map(|ch| (ch.tag, ch.data))
            .eq(chunks.iter().map(|ch| (ch.tag, ch.data)))
    );
    // Error offsets move with the chunks; the outcome and the decoded signatures may not.
    for (a, b) in [
        (c.input_signature(), r.input_signature()),
        (c.output_signature(), r.output_signature()),
        (c.patch_constant_signature(), r.patch_constant_signature()),
    ] {
        match (a, b) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(_), Err(_)) => {}
            (a, b) => panic!("rewrite changed a signature: {a:?} vs {b:?}"),
        }
    }
});
