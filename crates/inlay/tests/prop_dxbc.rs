//! Property tests for the DXBC reader and writer (issue "bad input never hurts"): arbitrary and
//! damaged blobs never panic and every accessor answers with a value or an error value; the
//! writer's output reads back (signature chunks, signature-only blobs, containers) and the
//! canonical rewrite is stable. The cargo-fuzz target `dxbc_reader`/`signature_roundtrip`
//! explores the same properties for millions of inputs (fuzz/README.md).

mod prop_support;

use inlay::dxbc::{self, Container, DxbcError, SignatureKind, report};
use prop_support::{bytecode, kept, kind, signature};
use proptest::prelude::*;

/// Calls every reader entry point on `bytes`; checks what must hold of a parsed container.
fn read_everything(bytes: &[u8]) {
    let _ = dxbc::checksum(bytes);
    let _ = report::ShaderReport::from_bytes(bytes);
    let _ = dxbc::extract_input_signature_blob(bytes);
    let _ = dxbc::extract_output_signature_blob(bytes);
    let _ = dxbc::extract_input_and_output_signature_blob(bytes);
    for k in SignatureKind::ALL {
        let _ = dxbc::parse_signature_chunk(k, bytes).map(|s| s.to_string());
    }
    let Ok(c) = Container::parse(bytes) else {
        return;
    };
    assert!(c.size() <= bytes.len());
    assert_eq!(c.chunks().count(), c.chunk_count());
    for ch in c.chunks() {
        assert!(ch.data_offset() + ch.data.len() <= c.size());
    }
    for k in SignatureKind::ALL {
        let _ = c.signature(k);
    }
    let _ = (c.input_signature(), c.output_signature());
    let _ = c.patch_constant_signature();
    let _ = (
        c.shader_version(),
        c.shader_model_string(),
        c.level9_bytecode(),
    );
    let _ = (c.checksum_matches(), report::listing(&c));
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
            .eq(c.chunks().map(|ch| (ch.tag, ch.data)))
    );
    // Rewriting is idempotent.
    assert_eq!(r.rewrite(), rebuilt);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        read_everything(&bytes);
    }

    #[test]
    fn damaged_containers_never_panic(bytes in bytecode()) {
        read_everything(&bytes);
    }

    /// A header followed by arbitrary table and chunk words: the count, offsets and sizes
    /// are the fields the parser must bound.
    #[test]
    fn arbitrary_headers_give_errors_not_panics(
        count in prop_oneof![0u32..8, any::<u32>()],
        words in prop::collection::vec(prop_oneof![0u32..200, any::<u32>()], 0..24),
        size_delta in 0usize..8,
    ) {
        let mut blob = b"DXBC".to_vec();
        blob.extend_from_slice(&[0; 16]);
        blob.extend_from_slice(&1u32.to_le_bytes());
        let total = 32 + 4 * words.len() + size_delta;
        blob.extend_from_slice(&(total as u32).to_le_bytes());
        blob.extend_from_slice(&count.to_le_bytes());
        for w in &words {
            blob.extend_from_slice(&w.to_le_bytes());
        }
        blob.resize(total, 0);
        read_everything(&blob);
        let n = u64::from(count);
        if 32 + 4 * n > total as u64 {
            let is_count_error = matches!(
                Container::parse(&blob),
                Err(DxbcError::ChunkCountTooLarge { .. })
            );
            prop_assert!(is_count_error);
        }
    }

    /// Signature → chunk of every kind → signature keeps what the kind can hold.
    #[test]
    fn signature_chunks_round_trip(sig in signature(), k in kind()) {
        let data = dxbc::write_signature_chunk(k, &sig);
        prop_assert_eq!(data.len() % 4, 0);
        prop_assert_eq!(dxbc::parse_signature_chunk(k, &data), Ok(kept(k, &sig)));
    }

    /// Signature-only blobs have valid digests and give the signatures back unchanged.
    #[test]
    fn signature_blobs_round_trip(input in signature(), output in signature()) {
        let full = |s| kept(SignatureKind::Isg1, s);
        let blob = dxbc::signature_blob(&input);
        let c = Container::parse(&blob).unwrap();
        prop_assert!(c.checksum_matches());
        prop_assert_eq!(c.input_signature(), Ok(Some(full(&input))));
        let blob = dxbc::input_and_output_signature_blob(&input, &output);
        let c = Container::parse(&blob).unwrap();
        prop_assert!(c.checksum_matches());
        prop_assert_eq!(c.input_signature(), Ok(Some(full(&input))));
        prop_assert_eq!(c.output_signature(), Ok(Some(full(&output))));
        prop_assert_eq!(c.rewrite(), blob);
    }

    /// Chunk bytes that parse write back canonically: parse → write → parse is the identity
    /// and a second write gives the same bytes.
    #[test]
    fn parsed_chunks_write_back(
        k in kind(),
        count in 0u32..6,
        first in prop_oneof![Just(8u32), 0u32..40],
        words in prop::collection::vec(prop_oneof![0u32..64, any::<u32>()], 0..48),
        tail in prop::collection::vec(prop_oneof![Just(0u8), any::<u8>()], 0..40),
    ) {
        let mut data = count.to_le_bytes().to_vec();
        data.extend_from_slice(&first.to_le_bytes());
        for w in &words {
            data.extend_from_slice(&w.to_le_bytes());
        }
        data.extend_from_slice(&tail);
        if let Ok(sig) = dxbc::parse_signature_chunk(k, &data) {
            let written = dxbc::write_signature_chunk(k, &sig);
            let again = dxbc::parse_signature_chunk(k, &written).unwrap();
            prop_assert_eq!(&again, &sig);
            prop_assert_eq!(dxbc::write_signature_chunk(k, &again), written);
        }
    }

    /// `write_container` → `Container::parse` gives the chunks back, in order, exactly.
    #[test]
    fn containers_round_trip(
        chunks in prop::collection::vec(
            (any::<[u8; 4]>(), prop::collection::vec(any::<u8>(), 0..40)),
            0..6,
        )
    ) {
        let pairs: Vec<([u8; 4], &[u8])> = chunks.iter().map(|(t, d)| (*t, d.as_slice())).collect();
        let blob = dxbc::write_container(&pairs);
        let c = Container::parse(&blob).unwrap();
        prop_assert!(c.checksum_matches());
        prop_assert!(c.chunks().map(|ch| (ch.tag.0, ch.data)).eq(pairs.iter().copied()));
        prop_assert_eq!(c.rewrite(), blob);
    }
}
