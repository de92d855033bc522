//! Encoding: register lanes back into vertex-buffer bytes, in every IA format, exactly.
//!
//! The reverse of [`crate::convert`] and [`crate::fetch`]:
//!
//! * [`encode_element`] — four lanes (binary32 bits for FLOAT/UNORM/SNORM formats, integers
//!   for UINT/SINT) to one element's bytes, for each of the 47 IA vertex formats, walking the
//!   component rows of [`crate::format::FORMATS`] (no per-format switch), with the two
//!   roundings of `shared/conformance/SCHEMA.md` (schema 2, "ENCODE case"): [`Rounding`].
//! * [`VertexWriter`] — whole vertices (every element of every slot, per-vertex and
//!   per-instance) through a created [`InputLayout`] into slot buffers with the layout's
//!   strides (or larger ones), padding bytes as the caller chooses (0 by default).
//! * [`repack`] — a buffer set read through one layout and written through another, elements
//!   matched by semantic name (case-insensitively, as Windows matches them, R19/R33) and index,
//!   with a [`RepackReport`] naming every conversion that loses information.
//! * [`values`] — the checks every shell applies to values before they are encoded (number
//!   kind, lane count, row count, range), with one message per problem.
//! * [`EncodePlan`] — the compiled fast path (register rows in, packed vertices out),
//!   bit-identical to [`encode_element`].
//!
//! Round trips (tested exhaustively for every code of every component of at most 16 bits):
//! `encode(decode(code)) == code` for every *canonical* code, and `decode(encode(x))` is the
//! representable value nearest to `x` (rounding [`Rounding::Nearest`]). The non-canonical
//! codes are those two codes decode to the same value, or whose value the encoder writes
//! differently:
//!
//! * SNORM: the most negative code (−128, −32768, …) decodes to −1.0 like its neighbour
//!   (D3D11.3 §3.2.3.3); −1.0 encodes to `−(2^(n−1) − 1)` (SCHEMA.md), so −128 is never
//!   produced.
//! * Float NaNs: a 16/11/10-bit NaN decodes to `sign | 0x7f800000 | payload << (23 − m)`
//!   (`convert`) and encodes back to the same code, so every NaN code round-trips; the
//!   binary32 NaNs whose top `m` mantissa bits are zero encode to the quiet NaN (SCHEMA.md).
//! * Unsigned 11/10-bit floats have no sign: every code is canonical.
//!
//! Bytes the format leaves unused (the `X8` of `B8G8R8X8_UNORM`) are written as 0.

// The encoder is plain Rust (each module below forbids `unsafe`) except the runtime-detected
// AVX2 kernels of the fast path in `simd`.

mod element;
mod plan;
mod repack;
#[cfg(target_arch = "x86_64")]
mod simd;
pub mod values;
mod writer;

use crate::format::{Format, FormatInfo};
#[cfg(doc)]
use crate::layout::InputLayout;

pub use element::{encode_component, encode_small_float, encode_snorm, encode_unorm};
pub use plan::EncodePlan;
pub use repack::{
    AlteredValue, ElementDefault, ElementReport, ElementSource, RepackOptions, RepackReport,
    Repacked, SourceBuffer, repack,
};
pub use writer::{SlotBuffer, VertexWriter, WriterOptions};

/// How binary32 values are rounded into narrower formats (SCHEMA.md, schema 2).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Rounding {
    /// What a mesh tool wants: UNORM/SNORM to the nearest code (computed exactly, halves away
    /// from zero), smaller floats to nearest-even with overflow to infinity. The default.
    #[default]
    Nearest,
    /// The Direct3D pipeline's conversion rules (D3D11.3 §3.2): as [`Rounding::Nearest`],
    /// except binary32 → smaller floats rounds toward zero, and a finite value too large for
    /// the target becomes the largest finite value of its sign.
    D3d,
}

impl Rounding {
    /// `"nearest"` or `"d3d"` (the schema's spelling).
    pub const fn as_str(self) -> &'static str {
        match self {
            Rounding::Nearest => "nearest",
            Rounding::D3d => "d3d",
        }
    }
}

impl std::str::FromStr for Rounding {
    type Err = String;

    /// `nearest` or `d3d`, any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "nearest" => Ok(Rounding::Nearest),
            "d3d" => Ok(Rounding::D3d),
            _ => Err(format!("unknown rounding `{s}` (expected nearest or d3d)")),
        }
    }
}

impl std::fmt::Display for Rounding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why values could not be encoded. Messages name the element, vertex and value concerned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The format value is not in `dxgiformat.h`.
    #[error("format {0} is not a DXGI format")]
    UnknownFormat(u32),
    /// The format cannot be read from a vertex buffer at any feature level, so it has no
    /// vertex encoding (typeless, sRGB, depth, block-compressed, …; ia-semantics §1.1).
    #[error("{format} is not an input-assembler vertex format, so it cannot be encoded")]
    NotAVertexFormat {
        /// Format name.
        format: String,
    },
    /// The output slice is shorter than the element.
    #[error("output holds {got} bytes, the {format} element needs {needed}")]
    OutputTooShort {
        /// Format name.
        format: String,
        /// Bytes needed.
        needed: usize,
        /// Bytes available.
        got: usize,
    },
    /// A vertex (or instance) index outside what the writer was sized for.
    #[error("{what} {index} is out of range: the writer holds {count}")]
    OutOfRange {
        /// `"vertex"` or `"instance"`.
        what: &'static str,
        /// The index given.
        index: u64,
        /// How many the writer holds.
        count: u64,
    },
    /// A vertex was given the wrong number of element values.
    #[error("vertex {vertex}: {got} element values given, the layout has {expected} elements")]
    ValueCount {
        /// Vertex index.
        vertex: u64,
        /// Elements in the layout.
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// A requested stride cannot hold the slot's elements.
    #[error("slot {slot}: stride {stride} is smaller than the {min} bytes its elements cover")]
    StrideTooSmall {
        /// Slot.
        slot: u32,
        /// Stride asked for.
        stride: u32,
        /// The slot's smallest stride.
        min: u32,
    },
    /// The output would be larger than the caller allowed (or than memory can hold).
    #[error(
        "slot {slot}: {records} records of {stride} bytes ({bytes} bytes in all) exceed the limit of {limit} bytes"
    )]
    SizeLimit {
        /// Slot.
        slot: u32,
        /// Records (vertices or instance records) in the slot.
        records: u64,
        /// Stride.
        stride: u32,
        /// Total bytes of all slots.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// An element of the output layout has no element of the same semantic in the input
    /// layout, and no default was given.
    #[error(
        "element {semantic}{index} ({format}) of the output layout has no matching element in the input layout; give a default for it"
    )]
    MissingElement {
        /// Semantic name.
        semantic: String,
        /// Semantic index.
        index: u32,
        /// Its format in the output layout.
        format: String,
    },
    /// Matched elements whose data cannot be converted one into the other.
    #[error("element {semantic}{index}: cannot convert {from} to {to}: {why}")]
    Incompatible {
        /// Semantic name.
        semantic: String,
        /// Semantic index.
        index: u32,
        /// Input format (or class).
        from: String,
        /// Output format (or class).
        to: String,
        /// The reason.
        why: &'static str,
    },
    /// An input buffer is missing, or its size is not a whole number of vertices.
    #[error("input slot {slot}: {why}")]
    BadSource {
        /// Slot.
        slot: u32,
        /// What is wrong.
        why: String,
    },
    /// A layout whose element names a slot its slot list lacks (only a hand-built
    /// [`InputLayout`] can be like that; created layouts never are).
    #[error("element {element} uses slot {slot}, which the layout's slot list does not have")]
    InconsistentLayout {
        /// Element index.
        element: usize,
        /// Its slot.
        slot: u32,
    },
    /// A row of values for the compiled plan, or its output, has the wrong size.
    #[error("{0}")]
    Shape(String),
}

/// The row of `format`, if it is an IA vertex format every component of which can be
/// encoded.
pub fn check_format(format: Format) -> Result<&'static FormatInfo, EncodeError> {
    let info = format.info().ok_or(EncodeError::UnknownFormat(format.0))?;
    element::encodable(info)?;
    Ok(info)
}

/// Encodes four lanes as one element of `format` into the first `format`-size bytes of
/// `out` and returns that size (SCHEMA.md schema 2; D3D11.3 §3.2 and §19.1.3.1).
///
/// Lanes are in register order x, y, z, w: binary32 bits for FLOAT, UNORM and SNORM formats,
/// integer bits (two's complement for SINT) for UINT and SINT formats. Lanes beyond the
/// format's components are ignored; a BGR format takes red from lane x like the IA delivers
/// it. Unused bits (`X8`) are written as 0.
///
/// ```
/// use inlay::encode::{encode_element, Rounding};
/// use inlay::format::Format;
/// let mut out = [0u8; 4];
/// let lanes = [1.0f32.to_bits(), 0, 0, 0.5f32.to_bits()];
/// encode_element(Format::B8G8R8A8_UNORM, &lanes, Rounding::Nearest, &mut out).unwrap();
/// assert_eq!(out, [0x00, 0x00, 0xff, 0x80]); // red in byte 2, alpha 127.5 → 128
/// ```
pub fn encode_element(
    format: Format,
    lanes: &[u32; 4],
    rounding: Rounding,
    out: &mut [u8],
) -> Result<usize, EncodeError> {
    let info = check_format(format)?;
    let size = info.byte_size() as usize;
    if out.len() < size {
        return Err(EncodeError::OutputTooShort {
            format: info.name.to_string(),
            needed: size,
            got: out.len(),
        });
    }
    element::encode_into(info, lanes, rounding, out);
    Ok(size)
}
