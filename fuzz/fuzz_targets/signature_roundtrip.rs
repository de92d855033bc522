//! Signature writer round trips, both ways:
//!
//! 1. an arbitrary `Signature` written as each chunk kind parses back to itself, less what the
//!    kind cannot hold (stream in 24-byte kinds, minimum precision outside `ISG1`/`OSG1`/`PSG1`,
//!    names cut at an interior NUL); `signature_blob` and `input_and_output_signature_blob`
//!    give containers with valid digests whose signatures read back unchanged;
//! 2. arbitrary chunk bytes that parse as a signature write back to a chunk that parses to the
//!    same signature, and writing that again gives the same bytes (the writer is canonical).
#![no_main]

use arbitrary::Arbitrary;
use inlay::dxbc::{self, Container, MinPrecision, Signature};
use inlay_fuzz::{ArbKind, ArbSignature};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
enum Input {
    Written {
        kind: ArbKind,
        input: ArbSignature,
        output: ArbSignature,
    },
    Chunk {
        kind: ArbKind,
        data: Vec<u8>,
    },
}

/// What a chunk of `kind` keeps of `sig`.
fn kept(kind: dxbc::SignatureKind, sig: &Signature) -> Signature {
    let mut s = sig.clone();
    for e in &mut s.elements {
        if !kind.has_stream() {
            e.stream = 0;
        }
        if !kind.has_min_precision() {
            e.min_precision = MinPrecision::default();
        }
        if let Some(nul) = e.semantic_name.find('\0') {
            e.semantic_name.truncate(nul);
        }
    }
    s
}

fuzz_target!(|input: Input| {
    match input {
        Input::Written {
            kind,
            input,
            output,
        } => {
            let (kind, input, output) = (kind.0, input.0, output.0);
            let data = dxbc::write_signature_chunk(kind, &input);
            assert_eq!(data.len() % 4, 0);
            let back = dxbc::parse_signature_chunk(kind, &data).expect("written chunk parses");
            assert_eq!(back, kept(kind, &input));

            // Signature-only blobs choose a kind that keeps everything but interior NULs.
            let blob = dxbc::signature_blob(&input);
            let c = Container::parse(&blob).expect("signature blob parses");
            assert!(c.checksum_matches());
            let full = |s: &Signature| kept(dxbc::SignatureKind::Isg1, s);
            assert_eq!(c.input_signature().unwrap().unwrap(), full(&input));

            let blob = dxbc::input_and_output_signature_blob(&input, &output);
            let c = Container::parse(&blob).expect("signature blob parses");
            assert!(c.checksum_matches());
            assert_eq!(c.input_signature().unwrap().unwrap(), full(&input));
            assert_eq!(c.output_signature().unwrap().unwrap(), full(&output));
            // Extraction copies the chunk byte for byte: the same bytes the writer gives for
            // the input alone (when no name has an interior NUL, which reading drops).
            if !input
                .elements
                .iter()
                .any(|e| e.semantic_name.contains('\0'))
            {
                assert_eq!(
                    dxbc::extract_input_signature_blob(&blob),
                    Ok(dxbc::signature_blob(&input))
                );
            }
        }
        Input::Chunk { kind, data } => {
            let kind = kind.0;
            let Ok(sig) = dxbc::parse_signature_chunk(kind, &data) else {
                return;
            };
            let written = dxbc::write_signature_chunk(kind, &sig);
            let again = dxbc::parse_signature_chunk(kind, &written).expect("written chunk parses");
            assert_eq!(again, sig);
            assert_eq!(dxbc::write_signature_chunk(kind, &again), written);
        }
    }
});
