//! Property tests for `CreateInputLayout` with shader bytecode (issue "bad input never
//! hurts"): arbitrary element arrays (NULL array and names, any format, slot, offset, class,
//! step rate, a NumElements that disagrees with the array) against arbitrary or damaged
//! bytecode on every target never panic, and the result is self-consistent; an input
//! signature written byte by byte here reads back as the elements it was written from. Array-only
//! properties are in `create_props.rs`; the cargo-fuzz target `create_input_layout` explores
//! the same space for millions of inputs.

mod prop_support;

use inlay::diag::{HResult, MessageId, Severity};
use inlay::dxbc;
use inlay::validation::{SignatureProblem, read_input_signature};
use prop_support::{biased, bytecode, element, target};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn creation_never_panics_and_is_consistent(
        t in target(),
        elements in prop::option::weighted(0.95, prop::collection::vec(element(), 0..10)),
        count in prop_oneof![Just(None), biased().prop_map(Some)],
        code in bytecode(),
        validate_only in any::<bool>(),
    ) {
        let len = elements.as_ref().map_or(0, |e| e.len() as u32);
        let num = count.unwrap_or(len);
        let c = inlay::CreateInputLayout::raw(&t, elements.as_deref())
.num_elements(num)
.validate_only(validate_only)
.bytecode(&code);
        let has_error = c.diagnostics.iter().any(|d| d.severity == Severity::Error);
        prop_assert_eq!(c.is_success(), !has_error);
        prop_assert_eq!(c.layout.is_some(), c.is_success());
        for d in &c.diagnostics {
            prop_assert!(!d.message.is_empty());
            prop_assert!(d.element.is_none_or(|e| e < len as usize));
        }
        if let Some(layout) = &c.layout {
            let expected = if validate_only { HResult::S_FALSE } else { HResult::S_OK };
            prop_assert_eq!(c.hresult, expected);
            prop_assert_eq!(layout.elements().len(), num as usize);
            // Registers are the signature's as stored (any value in a hostile blob); slots
            // are checked (R4).
            for e in layout.elements() {
                prop_assert!(e.slot < t.max_input_slots());
            }
        } else {
            prop_assert_eq!(c.hresult, HResult::E_INVALIDARG);
        }
        // Unreadable bytecode is an error value naming the problem (R31), never a success.
        if let Err(p) = read_input_signature(&code) {
            prop_assert!(!p.to_string().is_empty());
            if elements.is_some() && num <= len && num <= t.max_elements() {
                prop_assert!(c.error_ids().contains(&MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE));
            }
            if code.is_empty() {
                prop_assert_eq!(p, SignatureProblem::NoBytecode);
            }
        }
    }

    /// An input signature written here byte by byte (not by the library's writer) into a
    /// container with a correct digest reads back as exactly the elements it was written
    /// from: the oracle is the generated signature, not a second parse.
    #[test]
    fn hand_written_input_signature_reads_back(
        elements in prop::collection::vec(hand_element(), 0..12),
        isg1 in any::<bool>(),
        program_first in any::<bool>(),
    ) {
        let blob = hand_container(&elements, isg1, program_first);
        let sig = read_input_signature(&blob).unwrap();
        prop_assert_eq!(sig.elements.len(), elements.len());
        for (got, want) in sig.elements.iter().zip(&elements) {
            prop_assert_eq!(&got.semantic_name, &want.name);
            prop_assert_eq!(got.semantic_index, want.index);
            prop_assert_eq!(got.system_value.0, want.system_value);
            prop_assert_eq!(got.component_type.0, want.component_type);
            prop_assert_eq!(got.register, want.register);
            prop_assert_eq!(got.mask, want.mask);
            prop_assert_eq!(got.read_write_mask, want.read_write_mask);
            // ISGN has no stream and no minimum precision: they read as 0.
            prop_assert_eq!(got.stream, if isg1 { want.stream } else { 0 });
            prop_assert_eq!(got.min_precision.0, if isg1 { want.min_precision } else { 0 });
        }
    }
}

/// One input-signature element as the test writes it.
#[derive(Clone, Debug)]
struct HandElement {
    stream: u32,
    name: String,
    index: u32,
    system_value: u32,
    component_type: u32,
    register: u32,
    mask: u8,
    read_write_mask: u8,
    min_precision: u32,
}

fn hand_element() -> impl Strategy<Value = HandElement> {
    (
        (
            0u32..4,
            "[A-Za-z_][A-Za-z0-9_]{0,24}",
            any::<u32>(),
            0u32..30,
        ),
        (0u32..4, 0u32..32, 0u8..16, 0u8..16, 0u32..8),
    )
        .prop_map(
            |((stream, name, index, system_value), (ct, register, mask, rw, mp))| HandElement {
                stream,
                name,
                index,
                system_value,
                component_type: ct,
                register,
                mask,
                read_write_mask: rw,
                min_precision: mp,
            },
        )
}

/// The chunk layout of the D3D11 input signature (`D3D11_SIGNATURE_PARAMETER_DESC` as fxc
/// stores it): a count, the offset 8 of the element table, 24-byte (`ISGN`) or 32-byte
/// (`ISG1`, with stream and minimum precision) elements, then the NUL-terminated names, each
/// name offset counted from the chunk's start.
fn hand_signature_chunk(elements: &[HandElement], isg1: bool) -> Vec<u8> {
    let size = if isg1 { 32 } else { 24 };
    let mut table = Vec::new();
    let mut names = Vec::new();
    let names_start = 8 + size * elements.len();
    for e in elements {
        let name_offset = (names_start + names.len()) as u32;
        names.extend_from_slice(e.name.as_bytes());
        names.push(0);
        if isg1 {
            table.extend_from_slice(&e.stream.to_le_bytes());
        }
        for v in [
            name_offset,
            e.index,
            e.system_value,
            e.component_type,
            e.register,
        ] {
            table.extend_from_slice(&v.to_le_bytes());
        }
        table.extend_from_slice(&[e.mask, e.read_write_mask, 0, 0]);
        if isg1 {
            table.extend_from_slice(&e.min_precision.to_le_bytes());
        }
    }
    let mut chunk = Vec::new();
    chunk.extend_from_slice(&(elements.len() as u32).to_le_bytes());
    chunk.extend_from_slice(&8u32.to_le_bytes());
    chunk.extend_from_slice(&table);
    chunk.extend_from_slice(&names);
    while chunk.len() % 4 != 0 {
        chunk.push(0xab);
    }
    chunk
}

/// A DXBC container (magic, digest, version 1, total size, chunk count, chunk offsets, then
/// each chunk's FourCC and size before its data) with the signature chunk and a one-token
/// program chunk; the digest is the only part computed by the library.
fn hand_container(elements: &[HandElement], isg1: bool, program_first: bool) -> Vec<u8> {
    let sig = hand_signature_chunk(elements, isg1);
    let program = [0x0001_0040u32, 2].map(u32::to_le_bytes).concat();
    let sig_chunk: (&[u8; 4], &[u8]) = (if isg1 { b"ISG1" } else { b"ISGN" }, &sig);
    let prog_chunk: (&[u8; 4], &[u8]) = (b"SHEX", &program);
    let chunks = if program_first {
        [prog_chunk, sig_chunk]
    } else {
        [sig_chunk, prog_chunk]
    };
    let header = 32 + 4 * chunks.len();
    let mut body = Vec::new();
    let mut offsets = Vec::new();
    for (tag, data) in chunks {
        offsets.push((header + body.len()) as u32);
        body.extend_from_slice(tag);
        body.extend_from_slice(&(data.len() as u32).to_le_bytes());
        body.extend_from_slice(data);
    }
    let total = (header + body.len()) as u32;
    let mut blob = Vec::new();
    blob.extend_from_slice(b"DXBC");
    blob.extend_from_slice(&[0; 16]);
    blob.extend_from_slice(&1u32.to_le_bytes());
    blob.extend_from_slice(&total.to_le_bytes());
    blob.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    for o in offsets {
        blob.extend_from_slice(&o.to_le_bytes());
    }
    blob.extend_from_slice(&body);
    let digest = dxbc::checksum(&blob);
    blob[4..20].copy_from_slice(&digest);
    blob
}
