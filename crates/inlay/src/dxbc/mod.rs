//! DXBC shader containers: reading, verifying and writing, and their signature chunks.
//!
//! A DXBC container is what `fxc` / `D3DCompile` produce and what `CreateInputLayout` receives as
//! `pShaderBytecodeWithInputSignature` (createinputlayout-rules.md §F, R29–R32):
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..4 | magic `DXBC` |
//! | 4..20 | digest (a variant of MD5, see [`checksum`]) |
//! | 20..24 | container version, always 1 |
//! | 24..28 | total size in bytes |
//! | 28..32 | chunk count *n* |
//! | 32..32+4n | byte offset of each chunk |
//!
//! Each chunk is a four-character tag, a 32-bit data size and the data. The chunks that matter
//! here are the signature chunks (`ISGN`/`ISG1` inputs, `OSGN`/`OSG1`/`OSG5` outputs,
//! `PCSG`/`PSG1` patch constants), the program (`SHDR`/`SHEX`, whose first token gives stage and
//! shader model) and `Aon9` (the embedded Direct3D 9 program of `4_0_level_9_x` shaders).
//!
//! * [`Container::parse`] checks every offset and size against the blob and never allocates;
//! * [`checksum`] recomputes the digest; [`Container::checksum_matches`] compares it;
//! * [`parse_signature_chunk`] decodes one signature chunk into a [`Signature`];
//! * [`write_container`], [`write_signature_chunk`], [`signature_blob`] and
//!   [`extract_input_signature_blob`] go the other way;
//! * [`report`] renders a container as an fxc-like listing or a serialisable record.
//!
//! Errors are [`DxbcError`] values naming the byte offset and what is wrong; bad input never
//! panics.

// Parsers and the reference path never need `unsafe` (only `fetch::simd` may use it).
#![forbid(unsafe_code)]

mod checksum;
mod container;
pub mod dxil;
pub mod report;
mod sigchunk;
pub mod signature;
mod version;
mod writer;

use std::fmt;

pub use checksum::checksum;
pub use container::{Chunk, Chunks, Container, ContainerRules};
pub use sigchunk::{SignatureKind, SignatureRole, parse_signature_chunk};
pub use signature::{
    ComponentType, MinPrecision, NO_REGISTER, Signature, SignatureElement, SystemValue,
};
pub use version::{Level9Bytecode, ShaderStage, ShaderVersion};
pub use writer::{
    extract_input_and_output_signature_blob, extract_input_signature_blob,
    extract_output_signature_blob, input_and_output_signature_blob, signature_blob,
    write_container, write_signature_chunk,
};

/// Size of the fixed part of the container header (magic, digest, version, size, chunk count).
pub const HEADER_SIZE: usize = 32;

/// The only container version fxc writes (bytes 20..24).
pub const CONTAINER_VERSION: u32 = 1;

/// The largest DXIL container dxc's `IsValidDxilContainer` accepts (`DxilContainerMaxSize`, 2 GiB).
pub const DXIL_MAX_CONTAINER_SIZE: u32 = 0x8000_0000;

/// A chunk tag: four bytes such as `ISGN`, displayed as text (non-printable bytes as `\xNN`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FourCC(pub [u8; 4]);

#[allow(missing_docs)]
impl FourCC {
    pub const DXBC: FourCC = FourCC(*b"DXBC");
    pub const ISGN: FourCC = FourCC(*b"ISGN");
    pub const ISG1: FourCC = FourCC(*b"ISG1");
    pub const OSGN: FourCC = FourCC(*b"OSGN");
    pub const OSG1: FourCC = FourCC(*b"OSG1");
    pub const OSG5: FourCC = FourCC(*b"OSG5");
    pub const PCSG: FourCC = FourCC(*b"PCSG");
    pub const PSG1: FourCC = FourCC(*b"PSG1");
    pub const SHDR: FourCC = FourCC(*b"SHDR");
    pub const SHEX: FourCC = FourCC(*b"SHEX");
    pub const AON9: FourCC = FourCC(*b"Aon9");
    pub const RDEF: FourCC = FourCC(*b"RDEF");
    pub const STAT: FourCC = FourCC(*b"STAT");
    pub const DXIL: FourCC = FourCC(*b"DXIL");
    pub const PSV0: FourCC = FourCC(*b"PSV0");
    pub const HASH: FourCC = FourCC(*b"HASH");
    pub const SFI0: FourCC = FourCC(*b"SFI0");
    pub const RDAT: FourCC = FourCC(*b"RDAT");
    pub const RTS0: FourCC = FourCC(*b"RTS0");
}

impl From<[u8; 4]> for FourCC {
    fn from(b: [u8; 4]) -> Self {
        FourCC(b)
    }
}

impl From<&[u8; 4]> for FourCC {
    fn from(b: &[u8; 4]) -> Self {
        FourCC(*b)
    }
}

impl fmt::Display for FourCC {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            if b.is_ascii_graphic() || b == b' ' {
                write!(f, "{}", b as char)?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for FourCC {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FourCC(\"{self}\")")
    }
}

/// Why a blob or chunk could not be read (createinputlayout-rules.md R31: all of these make
/// `CreateInputLayout` fail with `CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE`).
///
/// Byte offsets (`at`, `offset`) are counted from the start of the blob, or from the start of the
/// chunk data when a chunk is parsed on its own with [`parse_signature_chunk`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DxbcError {
    /// Fewer bytes than the 32-byte header.
    #[error("blob is {len} bytes, shorter than the {HEADER_SIZE}-byte DXBC header (R31)")]
    TooShort {
        /// Length of the blob.
        len: usize,
    },
    /// Bytes 0..4 are not `DXBC`.
    #[error("byte 0: magic is \"{found}\", expected \"DXBC\" (R31)")]
    BadMagic {
        /// The four bytes found.
        found: FourCC,
    },
    /// Bytes 20..24 are not 1.
    #[error("byte 20: container version is {found}, expected 1 (R31)")]
    BadVersion {
        /// The value found.
        found: u32,
    },
    /// The size field (bytes 24..28) is smaller than the header or larger than the blob.
    #[error(
        "byte 24: container size field is {declared} bytes but the blob has {actual} bytes \
         (the size must be at least {HEADER_SIZE} and at most the blob length) (R31)"
    )]
    BadSize {
        /// Size field value.
        declared: u32,
        /// Bytes actually available.
        actual: usize,
    },
    /// The chunk offset table (4 bytes per chunk after the header) does not fit in the container.
    #[error(
        "byte 28: chunk count {count} needs a {needed}-byte header with its offset table, \
         but the container is {size} bytes (R31)"
    )]
    ChunkCountTooLarge {
        /// Chunk count field.
        count: u32,
        /// Bytes the header and offset table would need.
        needed: u64,
        /// Container size.
        size: usize,
    },
    /// A chunk offset points into the header or offset table.
    #[error(
        "byte {at}: chunk {index} offset {offset} points into the header/offset table \
         (which ends at byte {header_end}) (R31)"
    )]
    ChunkOffsetInHeader {
        /// Index of the chunk in the offset table.
        index: u32,
        /// Where the offset is stored.
        at: usize,
        /// The offset.
        offset: u32,
        /// First byte after the offset table.
        header_end: usize,
    },
    /// A DXIL container's major version (bytes 20..22) is not 1 (dxc rules, d3d12-rules.md P2).
    #[error(
        "byte 20: container version is {major}.{minor}, a DXIL container needs major version 1 \
         (dxc IsValidDxilContainer, P2)"
    )]
    BadDxilVersion {
        /// Bytes 20..22.
        major: u32,
        /// Bytes 22..24.
        minor: u32,
    },
    /// A DXIL container declares more than 2 GiB (`DxilContainerMaxSize`, P2).
    #[error(
        "byte 24: container size field is {declared} bytes, more than the {DXIL_MAX_CONTAINER_SIZE} \
         bytes a DXIL container may have (dxc IsValidDxilContainer, P2)"
    )]
    DxilContainerTooLarge {
        /// Size field value.
        declared: u32,
    },
    /// A DXIL container's part does not start where the previous one ended (dxc rules, P2).
    #[error(
        "byte {at}: part {index} offset {offset} is not where the previous part ends (byte \
         {expected}); the parts of a DXIL container follow each other with no gap or overlap \
         (dxc IsValidDxilContainer, P2)"
    )]
    PartNotContiguous {
        /// Index of the part in the offset table.
        index: u32,
        /// Where the offset is stored.
        at: usize,
        /// The offset.
        offset: u32,
        /// Where the part had to start.
        expected: u64,
    },
    /// A DXIL container's last part ends before its declared size (dxc rules, P2).
    #[error(
        "byte 24: the parts end at byte {end} but the container size field says {size} bytes; \
         a DXIL container ends with its last part (dxc IsValidDxilContainer, P2)"
    )]
    PartsEndBeforeSize {
        /// Where the last part ends.
        end: u64,
        /// The declared size.
        size: usize,
    },
    /// A chunk offset is not a multiple of 4.
    #[error("byte {at}: chunk {index} offset {offset} is not a multiple of 4 (R31)")]
    ChunkOffsetUnaligned {
        /// Index of the chunk in the offset table.
        index: u32,
        /// Where the offset is stored.
        at: usize,
        /// The offset.
        offset: u32,
    },
    /// The 8-byte chunk header (tag and size) does not fit in the container.
    #[error(
        "byte {at}: chunk {index} offset {offset} leaves no room for its 8-byte tag and size \
         in the {size}-byte container (R31)"
    )]
    ChunkHeaderPastEnd {
        /// Index of the chunk in the offset table.
        index: u32,
        /// Where the offset is stored.
        at: usize,
        /// The offset.
        offset: u32,
        /// Container size.
        size: usize,
    },
    /// The chunk's data size runs past the end of the container.
    #[error(
        "byte {at}: chunk {index} ({tag}) declares {len} data bytes, which run past the end \
         of the {size}-byte container (R31)"
    )]
    ChunkDataPastEnd {
        /// Index of the chunk in the offset table.
        index: u32,
        /// Chunk tag.
        tag: FourCC,
        /// Where the size field is stored.
        at: usize,
        /// Declared data size.
        len: u32,
        /// Container size.
        size: usize,
    },
    /// A tag that is not one of the signature chunks was given to a signature parser or writer.
    #[error("{tag} is not a signature chunk (ISGN, ISG1, OSGN, OSG1, OSG5, PCSG, PSG1)")]
    NotASignatureChunk {
        /// The tag.
        tag: FourCC,
    },
    /// The signature chunk is shorter than its 8-byte header.
    #[error(
        "byte {at}: {tag} chunk has {len} bytes, too short for the 8-byte signature header (R30)"
    )]
    SignatureHeaderTooShort {
        /// Chunk tag.
        tag: FourCC,
        /// Where the chunk data starts.
        at: usize,
        /// Chunk data length.
        len: usize,
    },
    /// The element table does not fit in the chunk.
    #[error(
        "byte {at}: {tag} chunk declares {count} elements of {stride} bytes starting at chunk \
         offset {first}, which do not fit in its {len} bytes (R30)"
    )]
    SignatureElementsPastEnd {
        /// Chunk tag.
        tag: FourCC,
        /// Where the chunk data starts.
        at: usize,
        /// Element count field.
        count: u32,
        /// Offset of the first element (normally 8).
        first: u32,
        /// Element size (24, 28 or 32).
        stride: usize,
        /// Chunk data length.
        len: usize,
    },
    /// An element's name offset is outside the chunk.
    #[error(
        "byte {at}: {tag} element {element} name offset {name_offset} is outside the \
         {len}-byte chunk (R30)"
    )]
    NameOffsetOutOfRange {
        /// Chunk tag.
        tag: FourCC,
        /// Where the name offset is stored.
        at: usize,
        /// Element index.
        element: u32,
        /// The name offset (relative to the chunk data).
        name_offset: u32,
        /// Chunk data length.
        len: usize,
    },
    /// An element's name has no terminating NUL before the end of the chunk.
    #[error(
        "byte {at}: {tag} element {element} name at chunk offset {name_offset} has no \
         terminating NUL before the end of the chunk (R30)"
    )]
    NameUnterminated {
        /// Chunk tag.
        tag: FourCC,
        /// Where the name offset is stored.
        at: usize,
        /// Element index.
        element: u32,
        /// The name offset (relative to the chunk data).
        name_offset: u32,
    },
    /// The element names, decoded one `String` per element, would take more bytes than the
    /// chunk justifies: elements may share one stored name, so without a bound a chunk of
    /// *n* bytes could decode to about n²/96 bytes of names (a 1 MiB chunk to 11 GiB). The
    /// limit is [`MAX_NAME_BYTES_PER_CHUNK_BYTE`] × the chunk length, and never less than
    /// [`MIN_NAME_BYTE_BUDGET`] (docs/notes/fuzz.md).
    #[error(
        "byte {at}: {tag} element {element} brings the decoded names to {total} bytes, more \
         than the {limit} bytes a {len}-byte chunk may decode to (R30)"
    )]
    SignatureNamesTooLarge {
        /// Chunk tag.
        tag: FourCC,
        /// Where the chunk data starts.
        at: usize,
        /// The element whose name crossed the limit.
        element: u32,
        /// Name bytes decoded up to and including that element.
        total: u64,
        /// The limit for this chunk.
        limit: u64,
        /// Chunk data length.
        len: usize,
    },
    /// [`Container::try_rewrite`] was asked for a container larger than its limit (or than
    /// the 4 GiB a 32-bit size field can describe).
    #[error(
        "the rewritten container would be {size} bytes, more than the limit of {limit} bytes \
         (chunks that overlap in the original are each written out)"
    )]
    RewriteTooLarge {
        /// Bytes the rewrite would take.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A DXIL part (`DXIL`, `PSV0`, `HASH`, `SFI0`) that cannot be read: `reason` says what is
    /// wrong, `at` where (d3d12-rules.md P4–P6).
    #[error("byte {at}: {tag} part: {reason}")]
    PartMalformed {
        /// The part's tag.
        tag: FourCC,
        /// Byte offset of the problem in the blob.
        at: usize,
        /// What is wrong, with the values.
        reason: String,
    },
    /// A container has no chunk of the kind asked for (e.g. no input signature when extracting
    /// one; R32 leaves what `CreateInputLayout` does with such a blob to the caller).
    #[error("container has no {what} chunk")]
    MissingChunk {
        /// What was looked for, e.g. `"input signature (ISGN/ISG1)"`.
        what: &'static str,
    },
}

/// Decoded name bytes a signature chunk may produce per byte of chunk data (see
/// [`DxbcError::SignatureNamesTooLarge`]). fxc stores each name once and each element takes at
/// least 24 bytes, so real signatures stay far below this.
pub const MAX_NAME_BYTES_PER_CHUNK_BYTE: u64 = 8;

/// Decoded name bytes any signature chunk may produce, however short (64 KiB).
pub const MIN_NAME_BYTE_BUDGET: u64 = 64 << 10;

/// Reads a little-endian u32 at `at`, `None` when it does not fit.
#[inline]
pub(crate) fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let end = at.checked_add(4)?;
    let b = bytes.get(at..end)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}
