//! Writing containers and signature chunks, and signature-only blobs
//! (`D3DGetInputSignatureBlob` / `D3DGetInputAndOutputSignatureBlob`).

use super::container::{Chunk, Container};
use super::sigchunk::{SignatureKind, parse_signature_at};
use super::signature::Signature;
use super::{CONTAINER_VERSION, DxbcError, FourCC, HEADER_SIZE, checksum};

/// Builds a container from `(tag, data)` pairs with a correct digest.
///
/// Canonical layout, the one fxc writes: header, offset table, then each chunk (tag, size,
/// data) in the given order. Chunk data whose length is not a multiple of 4 is followed by zero
/// bytes so the next chunk stays aligned (the size field keeps the exact length).
///
/// # Panics
///
/// When the container would exceed 4 GiB (sizes are 32-bit).
pub fn write_container(chunks: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let table_end = HEADER_SIZE + 4 * chunks.len();
    let total = table_end
        + chunks
            .iter()
            .map(|(_, d)| 8 + d.len().next_multiple_of(4))
            .sum::<usize>();
    let total32 = u32::try_from(total).expect("DXBC container larger than 4 GiB");
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&FourCC::DXBC.0);
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(&CONTAINER_VERSION.to_le_bytes());
    out.extend_from_slice(&total32.to_le_bytes());
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    let mut offset = table_end;
    for (_, d) in chunks {
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += 8 + d.len().next_multiple_of(4);
    }
    for (tag, d) in chunks {
        out.extend_from_slice(tag);
        out.extend_from_slice(&(d.len() as u32).to_le_bytes());
        out.extend_from_slice(d);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    let digest = checksum(&out);
    out[4..20].copy_from_slice(&digest);
    out
}

/// Writes the data of a signature chunk of `kind` (without its 8-byte tag/size header; pass it
/// to [`write_container`] with `kind.tag()`).
///
/// Layout as fxc writes it: count, 8, the elements, then the names, each stored once (elements
/// with the same name share it, in order of first use), NUL-terminated, and `0xAB` padding to a
/// multiple of 4. Fields the layout has no room for (stream in 24-byte kinds, minimum precision
/// outside the `*1` kinds) are dropped; names are cut at an interior NUL on reading.
pub fn write_signature_chunk(kind: SignatureKind, signature: &Signature) -> Vec<u8> {
    let stride = kind.element_size();
    let n = signature.elements.len();
    let names_start = 8 + n * stride;
    let mut names: Vec<u8> = Vec::new();
    let mut name_offsets: Vec<(&str, u32)> = Vec::with_capacity(n);
    let mut table = Vec::with_capacity(names_start);
    table.extend_from_slice(&(n as u32).to_le_bytes());
    table.extend_from_slice(&8u32.to_le_bytes());
    for e in &signature.elements {
        let name = e.semantic_name.as_str();
        let name_offset = match name_offsets.iter().find(|(s, _)| *s == name) {
            Some(&(_, off)) => off,
            None => {
                let off = (names_start + names.len()) as u32;
                names.extend_from_slice(name.as_bytes());
                names.push(0);
                name_offsets.push((name, off));
                off
            }
        };
        if kind.has_stream() {
            table.extend_from_slice(&e.stream.to_le_bytes());
        }
        for w in [
            name_offset,
            e.semantic_index,
            e.system_value.0,
            e.component_type.0,
            e.register,
        ] {
            table.extend_from_slice(&w.to_le_bytes());
        }
        table.extend_from_slice(&[e.mask, e.read_write_mask, 0, 0]);
        if kind.has_min_precision() {
            table.extend_from_slice(&e.min_precision.0.to_le_bytes());
        }
    }
    table.extend_from_slice(&names);
    table.resize(table.len().next_multiple_of(4), 0xab);
    table
}

fn needs_stream(sig: &Signature) -> bool {
    sig.elements.iter().any(|e| e.stream != 0)
}

fn needs_min_precision(sig: &Signature) -> bool {
    sig.elements.iter().any(|e| e.min_precision.0 != 0)
}

/// The input-signature kind a signature needs: `ISG1` when any element has a stream or a
/// minimum precision, else `ISGN`.
fn input_kind(sig: &Signature) -> SignatureKind {
    if needs_stream(sig) || needs_min_precision(sig) {
        SignatureKind::Isg1
    } else {
        SignatureKind::Isgn
    }
}

/// The output-signature kind a signature needs: `OSG1` with minimum precision, else `OSG5` when
/// any element is on a stream other than 0, else `OSGN`.
fn output_kind(sig: &Signature) -> SignatureKind {
    if needs_min_precision(sig) {
        SignatureKind::Osg1
    } else if needs_stream(sig) {
        SignatureKind::Osg5
    } else {
        SignatureKind::Osgn
    }
}

/// A signature-only container holding just the input signature — what
/// `D3DGetInputSignatureBlob` returns and `CreateInputLayout` accepts in place of a shader
/// (R29). `ISGN`, or `ISG1` when any element needs a stream or minimum precision.
pub fn signature_blob(input: &Signature) -> Vec<u8> {
    let kind = input_kind(input);
    let data = write_signature_chunk(kind, input);
    write_container(&[(kind.tag().0, &data)])
}

/// A container holding the input then the output signature — what
/// `D3DGetInputAndOutputSignatureBlob` returns. Kinds as in [`signature_blob`]; outputs use
/// `OSGN`, `OSG5` (streams) or `OSG1` (minimum precision).
pub fn input_and_output_signature_blob(input: &Signature, output: &Signature) -> Vec<u8> {
    let ik = input_kind(input);
    let ok = output_kind(output);
    let idata = write_signature_chunk(ik, input);
    let odata = write_signature_chunk(ok, output);
    write_container(&[(ik.tag().0, &idata), (ok.tag().0, &odata)])
}

/// Checks a chosen signature chunk parses, then returns it as a `(tag, data)` pair.
fn checked<'a>(
    chosen: Option<(SignatureKind, Chunk<'a>)>,
    what: &'static str,
) -> Result<([u8; 4], &'a [u8]), DxbcError> {
    let (kind, chunk) = chosen.ok_or(DxbcError::MissingChunk { what })?;
    parse_signature_at(kind, chunk.data, chunk.data_offset())?;
    Ok((chunk.tag.0, chunk.data))
}

/// Extracts the input signature of a full shader as a signature-only container (like
/// `D3DGetInputSignatureBlob`): the chunk [`Container::input_signature`] reads (`ISG1`, else
/// `ISGN`), copied byte for byte, in a new container with a correct digest.
pub fn extract_input_signature_blob(bytes: &[u8]) -> Result<Vec<u8>, DxbcError> {
    let c = Container::parse(bytes)?;
    let i = checked(c.input_signature_chunk(), "input signature (ISGN/ISG1)")?;
    Ok(write_container(&[i]))
}

/// Extracts the output signature of a full shader as a signature-only container (like
/// `D3DGetOutputSignatureBlob`): `OSG1`, else `OSG5`, else `OSGN`, copied byte for byte.
pub fn extract_output_signature_blob(bytes: &[u8]) -> Result<Vec<u8>, DxbcError> {
    let c = Container::parse(bytes)?;
    let o = checked(
        c.output_signature_chunk(),
        "output signature (OSGN/OSG5/OSG1)",
    )?;
    Ok(write_container(&[o]))
}

/// Extracts input and output signatures (like `D3DGetInputAndOutputSignatureBlob`), chunks
/// copied byte for byte, input first.
pub fn extract_input_and_output_signature_blob(bytes: &[u8]) -> Result<Vec<u8>, DxbcError> {
    let c = Container::parse(bytes)?;
    let i = checked(c.input_signature_chunk(), "input signature (ISGN/ISG1)")?;
    let o = checked(
        c.output_signature_chunk(),
        "output signature (OSGN/OSG5/OSG1)",
    )?;
    Ok(write_container(&[i, o]))
}

#[cfg(test)]
mod tests {
    use super::super::signature::{ComponentType, MinPrecision, SignatureElement, SystemValue};
    use super::*;

    fn el(name: &str, index: u32, reg: u32, mask: u8, rw: u8) -> SignatureElement {
        SignatureElement {
            stream: 0,
            semantic_name: name.to_string(),
            semantic_index: index,
            system_value: SystemValue::UNDEFINED,
            component_type: ComponentType::FLOAT32,
            register: reg,
            mask,
            read_write_mask: rw,
            min_precision: MinPrecision::default(),
        }
    }

    fn sig() -> Signature {
        Signature {
            elements: vec![
                el("POSITION", 0, 0, 0x7, 0x7),
                el("TEXCOORD", 0, 1, 0x3, 0x3),
                el("TEXCOORD", 1, 2, 0x3, 0x0),
            ],
        }
    }

    #[test]
    fn isgn_chunk_layout_is_exact() {
        let data = write_signature_chunk(SignatureKind::Isgn, &sig());
        // 8 header + 3*24 elements = 80; names "POSITION\0TEXCOORD\0" = 18 → 98, padded to 100.
        assert_eq!(data.len(), 100);
        assert_eq!(&data[0..8], &[3, 0, 0, 0, 8, 0, 0, 0]);
        // Element 0 name offset 80, element 1 and 2 share offset 89.
        assert_eq!(u32::from_le_bytes(data[8..12].try_into().unwrap()), 80);
        assert_eq!(u32::from_le_bytes(data[32..36].try_into().unwrap()), 89);
        assert_eq!(u32::from_le_bytes(data[56..60].try_into().unwrap()), 89);
        assert_eq!(&data[80..98], b"POSITION\0TEXCOORD\0");
        assert_eq!(&data[98..100], &[0xab, 0xab]);
        // Element 2: index 1, register 2, mask 0x3, rw 0x0.
        assert_eq!(
            &data[60..80],
            &[1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]
        );
    }

    #[test]
    fn signature_blob_round_trips_and_has_exact_size() {
        let s = sig();
        let blob = signature_blob(&s);
        // 32 header + 4 offset + 8 chunk header + 100 data.
        assert_eq!(blob.len(), 144);
        let c = Container::parse(&blob).unwrap();
        assert!(c.checksum_matches());
        // Digest computed by an independent implementation of the corpus README algorithm.
        assert_eq!(hex(&c.digest()), "ff63bcf57fd6963835c17cdd1058b1fc");
        assert_eq!(c.chunk_count(), 1);
        assert_eq!(c.chunks().next().unwrap().tag, FourCC::ISGN);
        assert_eq!(c.input_signature().unwrap().unwrap(), s);
        assert_eq!(c.output_signature().unwrap(), None);
    }

    #[test]
    fn min_precision_or_stream_selects_isg1() {
        let mut s = sig();
        s.elements[1].min_precision = MinPrecision(1);
        let blob = signature_blob(&s);
        let c = Container::parse(&blob).unwrap();
        assert_eq!(c.chunks().next().unwrap().tag, FourCC::ISG1);
        assert_eq!(c.input_signature().unwrap().unwrap(), s);

        let mut o = sig();
        o.elements[2].stream = 1;
        let blob = input_and_output_signature_blob(&sig(), &o);
        let c = Container::parse(&blob).unwrap();
        let tags: Vec<FourCC> = c.chunks().map(|c| c.tag).collect();
        assert_eq!(tags, vec![FourCC::ISGN, FourCC::OSG5]);
        assert_eq!(c.output_signature().unwrap().unwrap(), o);
        assert_eq!(c.input_signature().unwrap().unwrap(), sig());
    }

    fn hex(d: &[u8]) -> String {
        d.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn long_tail_digest_is_exact() {
        // 80-byte container: 60 hashed bytes, so the ending takes the ">= 56 bytes left" path.
        let data: Vec<u8> = (0..36).collect();
        let blob = write_container(&[(*b"TEST", &data)]);
        assert_eq!(blob.len(), 80);
        assert_eq!(hex(&blob[4..20]), "488dda741c32709e6060a7f289dacae8");
    }

    #[test]
    fn unaligned_chunk_data_is_padded_and_kept_exact() {
        let blob = write_container(&[(*b"ABCD", b"xyz"), (*b"EFGH", b"12345678")]);
        let c = Container::parse(&blob).unwrap();
        let chunks: Vec<_> = c.chunks().collect();
        assert_eq!(chunks[0].data, b"xyz");
        assert_eq!(chunks[0].offset, 40);
        assert_eq!(chunks[1].offset, 52);
        assert_eq!(chunks[1].data, b"12345678");
        assert_eq!(blob.len(), 68);
        assert!(c.checksum_matches());
    }

    #[test]
    fn extract_requires_an_input_signature() {
        let blob = write_container(&[(*b"SHDR", &[0x40, 0, 1, 0, 2, 0, 0, 0])]);
        assert_eq!(
            extract_input_signature_blob(&blob),
            Err(DxbcError::MissingChunk {
                what: "input signature (ISGN/ISG1)"
            })
        );
        let full = write_container(&[
            (*b"SHDR", &[0x40, 0, 1, 0, 2, 0, 0, 0]),
            (
                *b"ISGN",
                &write_signature_chunk(SignatureKind::Isgn, &sig()),
            ),
        ]);
        let only = extract_input_signature_blob(&full).unwrap();
        assert_eq!(only, signature_blob(&sig()));
    }
}
