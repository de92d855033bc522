//! Signature chunks: `ISGN`/`OSGN`/`PCSG` (24-byte elements), `OSG5` (28 bytes: stream first),
//! `ISG1`/`OSG1`/`PSG1` (32 bytes: stream first, minimum precision last).
//!
//! Chunk data: element count (u32), offset of the first element relative to the chunk data
//! (u32, 8 in everything fxc writes), the elements, then the NUL-terminated names that the
//! elements point to (offsets relative to the chunk data), padded with `0xAB` to 4 bytes.
//! Each element (24-byte core): name offset, semantic index, system value (`D3D_NAME`),
//! component type, register (0xFFFFFFFF = none), mask byte, read/write-mask byte, two zero bytes.

use super::signature::{ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
use super::{DxbcError, FourCC, MAX_NAME_BYTES_PER_CHUNK_BYTE, MIN_NAME_BYTE_BUDGET, read_u32};

/// Which signature chunk layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignatureKind {
    /// `ISGN`: input signature, 24-byte elements.
    Isgn,
    /// `ISG1`: input signature with stream and minimum precision, 32-byte elements.
    Isg1,
    /// `OSGN`: output signature, 24-byte elements.
    Osgn,
    /// `OSG5`: output signature with stream (shader model 5 geometry shaders), 28-byte elements.
    Osg5,
    /// `OSG1`: output signature with stream and minimum precision, 32-byte elements.
    Osg1,
    /// `PCSG`: patch-constant signature, 24-byte elements.
    Pcsg,
    /// `PSG1`: patch-constant signature with stream and minimum precision, 32-byte elements.
    Psg1,
}

/// Which signature a chunk holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignatureRole {
    /// Shader inputs (`ISGN`, `ISG1`).
    Input,
    /// Shader outputs (`OSGN`, `OSG5`, `OSG1`).
    Output,
    /// Patch constants (`PCSG`, `PSG1`): hull-shader outputs, domain-shader inputs.
    PatchConstant,
}

impl SignatureKind {
    /// All kinds.
    pub const ALL: [SignatureKind; 7] = [
        SignatureKind::Isgn,
        SignatureKind::Isg1,
        SignatureKind::Osgn,
        SignatureKind::Osg5,
        SignatureKind::Osg1,
        SignatureKind::Pcsg,
        SignatureKind::Psg1,
    ];

    /// The chunk tag.
    pub fn tag(self) -> FourCC {
        match self {
            SignatureKind::Isgn => FourCC::ISGN,
            SignatureKind::Isg1 => FourCC::ISG1,
            SignatureKind::Osgn => FourCC::OSGN,
            SignatureKind::Osg5 => FourCC::OSG5,
            SignatureKind::Osg1 => FourCC::OSG1,
            SignatureKind::Pcsg => FourCC::PCSG,
            SignatureKind::Psg1 => FourCC::PSG1,
        }
    }

    /// The kind for a tag, `None` for chunks that are not signatures.
    pub fn from_tag(tag: impl Into<FourCC>) -> Option<SignatureKind> {
        let tag = tag.into();
        Self::ALL.into_iter().find(|k| k.tag() == tag)
    }

    /// Bytes per element: 24, 28 (`OSG5`) or 32 (`*1`).
    pub fn element_size(self) -> usize {
        match self {
            SignatureKind::Isgn | SignatureKind::Osgn | SignatureKind::Pcsg => 24,
            SignatureKind::Osg5 => 28,
            SignatureKind::Isg1 | SignatureKind::Osg1 | SignatureKind::Psg1 => 32,
        }
    }

    /// Whether elements start with a stream index.
    pub fn has_stream(self) -> bool {
        self.element_size() >= 28
    }

    /// Whether elements end with a minimum-precision code.
    pub fn has_min_precision(self) -> bool {
        self.element_size() == 32
    }

    /// Input, output or patch constant.
    pub fn role(self) -> SignatureRole {
        match self {
            SignatureKind::Isgn | SignatureKind::Isg1 => SignatureRole::Input,
            SignatureKind::Osgn | SignatureKind::Osg5 | SignatureKind::Osg1 => {
                SignatureRole::Output
            }
            SignatureKind::Pcsg | SignatureKind::Psg1 => SignatureRole::PatchConstant,
        }
    }
}

/// Parses the data of a signature chunk (without its 8-byte tag/size header).
///
/// Error offsets are relative to the start of `data`. Names are decoded as UTF-8 with invalid
/// sequences replaced by U+FFFD (lossy; fxc only writes ASCII identifiers, and the runtime
/// compares names ASCII-case-insensitively — docs/notes/dxbc.md).
///
/// Memory: the element vector is bounded by the chunk (each element takes 24–32 bytes of it);
/// the names, decoded once per element even when elements share one stored name, are bounded
/// by [`super::MAX_NAME_BYTES_PER_CHUNK_BYTE`] × the chunk length (at least
/// [`super::MIN_NAME_BYTE_BUDGET`]); past that the chunk is refused with
/// [`DxbcError::SignatureNamesTooLarge`].
pub fn parse_signature_chunk(kind: SignatureKind, data: &[u8]) -> Result<Signature, DxbcError> {
    parse_signature_at(kind, data, 0)
}

/// [`parse_signature_chunk`] with error offsets shifted by `base` (the data's place in the blob).
pub(crate) fn parse_signature_at(
    kind: SignatureKind,
    data: &[u8],
    base: usize,
) -> Result<Signature, DxbcError> {
    let tag = kind.tag();
    let (Some(count), Some(first)) = (read_u32(data, 0), read_u32(data, 4)) else {
        return Err(DxbcError::SignatureHeaderTooShort {
            tag,
            at: base,
            len: data.len(),
        });
    };
    let stride = kind.element_size();
    let end = u64::from(first) + u64::from(count) * stride as u64;
    if end > data.len() as u64 {
        return Err(DxbcError::SignatureElementsPastEnd {
            tag,
            at: base,
            count,
            first,
            stride,
            len: data.len(),
        });
    }
    // `count` elements fit in `data`, so this allocation is bounded by the chunk size.
    let mut elements = Vec::with_capacity(count as usize);
    // Shared names are decoded once per element: bound their total by the chunk size.
    let name_limit = (data.len() as u64 * MAX_NAME_BYTES_PER_CHUNK_BYTE).max(MIN_NAME_BYTE_BUDGET);
    let mut name_bytes = 0u64;
    for i in 0..count {
        let at = first as usize + i as usize * stride;
        let word = |n: usize| read_u32(data, at + 4 * n).unwrap_or(0);
        let (stream, core) = if kind.has_stream() {
            (word(0), at + 4)
        } else {
            (0, at)
        };
        let cw = |n: usize| read_u32(data, core + 4 * n).unwrap_or(0);
        let name_offset = cw(0);
        let left = name_limit.saturating_sub(name_bytes);
        let name = read_name(data, name_offset, left).map_err(|e| match e {
            NameError::TooLarge(len) => DxbcError::SignatureNamesTooLarge {
                tag,
                at: base,
                element: i,
                total: name_bytes + len as u64,
                limit: name_limit,
                len: data.len(),
            },
            NameError::Unterminated => DxbcError::NameUnterminated {
                tag,
                at: base + core,
                element: i,
                name_offset,
            },
            NameError::OutOfRange => DxbcError::NameOffsetOutOfRange {
                tag,
                at: base + core,
                element: i,
                name_offset,
                len: data.len(),
            },
        })?;
        name_bytes += name.len() as u64;
        let masks = cw(5).to_le_bytes();
        let min_precision = if kind.has_min_precision() {
            MinPrecision(word(7))
        } else {
            MinPrecision::default()
        };
        elements.push(SignatureElement {
            stream,
            semantic_name: name,
            semantic_index: cw(1),
            system_value: SystemValue(cw(2)),
            component_type: ComponentType(cw(3)),
            register: cw(4),
            mask: masks[0],
            read_write_mask: masks[1],
            min_precision,
        });
    }
    Ok(Signature { elements })
}

/// Why a name could not be read.
enum NameError {
    /// The offset is outside the data.
    OutOfRange,
    /// No NUL before the end of the data.
    Unterminated,
    /// The name is this long, more than the bytes left in the name budget.
    TooLarge(usize),
}

/// Reads the NUL-terminated name at `offset`, refusing one longer than `budget` bytes before
/// allocating it.
fn read_name(data: &[u8], offset: u32, budget: u64) -> Result<String, NameError> {
    let rest = data.get(offset as usize..).ok_or(NameError::OutOfRange)?;
    if rest.is_empty() {
        return Err(NameError::OutOfRange);
    }
    let len = rest
        .iter()
        .position(|&b| b == 0)
        .ok_or(NameError::Unterminated)?;
    if len as u64 > budget {
        return Err(NameError::TooLarge(len));
    }
    Ok(String::from_utf8_lossy(&rest[..len]).into_owned())
}
