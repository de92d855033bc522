//! DXGI formats: the one declarative table that drives every per-format decision.
//!
//! Every `DXGI_FORMAT` value of `dxgiformat.h` has a row in [`FORMATS`]: its numeric value, its
//! name, its size in bits, its components (channel, bit position, width and numeric kind, with
//! unused `X` bits marked), and whether the input assembler may read it from a vertex buffer
//! or an index buffer at each feature level. Sizes, offset alignment, missing-component
//! defaults, conversions (see [`crate::convert`]) and feature-level support are all derived
//! from these rows; no other per-format `match` exists in the crate.
//!
//! Evidence: component layout from the D3D11.3 functional spec §19.1.3.1 (first-named component
//! in the least significant bits, little-endian bytes); IA support per feature level from the
//! spec's format spreadsheets `D3D11_3_Formats_FL*.xls` ("Input Assembler Vertex Buffer" and
//! "Input Assembler Index Buffer" columns), summarised in `createinputlayout-rules.md` §3.

// Parsers and the reference path never need `unsafe` (only `fetch::simd` may use it).
#![forbid(unsafe_code)]

use std::fmt;

use crate::level::FeatureLevel;

/// A `DXGI_FORMAT` value. Any `u32` can be held, so that invalid values handed to
/// `CreateInputLayout` can be expressed; [`Format::info`] finds the table row, if any.
///
/// ```
/// use inlay::format::Format;
/// let f: Format = "DXGI_FORMAT_R32G32B32_FLOAT".parse().unwrap();
/// assert_eq!(f, Format::R32G32B32_FLOAT);
/// assert_eq!(f.info().unwrap().byte_size(), 12);
/// assert_eq!("r8g8b8a8_unorm".parse::<Format>().unwrap().0, 28);
/// assert_eq!("87".parse::<Format>().unwrap(), Format::B8G8R8A8_UNORM);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Format(pub u32);

/// The colour channel a component stores, in the format's own naming.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Channel {
    /// Red: lands in lane x.
    R,
    /// Green: lands in lane y.
    G,
    /// Blue: lands in lane z.
    B,
    /// Alpha: lands in lane w.
    A,
    /// Unused bits (`X` in the name); nothing lands anywhere.
    X,
    /// Depth (depth/stencil formats, never IA-readable).
    D,
    /// Stencil (depth/stencil formats, never IA-readable).
    S,
    /// Shared exponent of `R9G9B9E5_SHAREDEXP`.
    E,
}

impl Channel {
    /// The register lane (x = 0 … w = 3) this channel is delivered to, if any.
    ///
    /// BGR formats are swizzled by this mapping: a `B8G8R8A8_UNORM` byte 0 is B and lands in
    /// lane z (spec §19.1.3.1; Wine `test_vertex_formats`).
    pub const fn lane(self) -> Option<usize> {
        match self {
            Channel::R => Some(0),
            Channel::G => Some(1),
            Channel::B => Some(2),
            Channel::A => Some(3),
            _ => None,
        }
    }
}

/// The numeric interpretation of a component.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Kind {
    /// IEEE-style float: 32-bit, 16-bit half, or the unsigned 11-/10-bit floats of
    /// `R11G11B10_FLOAT` (5-bit exponent, 6 or 5 mantissa bits, no sign).
    Float,
    /// Unsigned normalised: `x / (2^n − 1)`.
    Unorm,
    /// Signed normalised: `x / (2^(n−1) − 1)`, with the most negative code clamped to −1.0.
    Snorm,
    /// Unsigned integer, zero-extended.
    Uint,
    /// Signed integer, sign-extended.
    Sint,
    /// Unused bits (the `X` of `B8G8R8X8_UNORM`, `X24`, `X8`).
    Unused,
    /// Bits without a type (`*_TYPELESS`).
    Typeless,
    /// sRGB-encoded unsigned normalised (never IA-readable).
    UnormSrgb,
    /// Shared-exponent or exponent-bias encodings (never IA-readable).
    Special,
}

impl Kind {
    /// Whether data of this kind is "float-like" for the purposes of the missing-`w` default
    /// and the signature type check (FLOAT, UNORM, SNORM; spec §19.1.3.3, R23).
    pub const fn is_float_like(self) -> bool {
        matches!(
            self,
            Kind::Float | Kind::Unorm | Kind::Snorm | Kind::UnormSrgb
        )
    }
}

/// One component of a format: which channel, where its bits sit in the element (bit 0 is the
/// least significant bit of the first byte), how wide it is, and what it means.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Component {
    /// The channel it stores.
    pub channel: Channel,
    /// Bit position of its least significant bit inside the element.
    pub bit_offset: u16,
    /// Width in bits.
    pub bits: u8,
    /// Numeric kind.
    pub kind: Kind,
}

/// The bit layout of a FLOAT component: exponent and mantissa widths and whether it has a
/// sign bit. The widths follow from the component's width (spec §3.1: binary32; §3.1.5:
/// binary16, 5 exponent and 10 mantissa bits; §3.1.6 and §19.3.3: the unsigned 11- and 10-bit
/// floats of `R11G11B10_FLOAT`, 5 exponent bits and 6 or 5 mantissa bits, no sign). The
/// exponent bias is `2^(exponent_bits − 1) − 1` (127 or 15).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct FloatEncoding {
    /// Exponent bits (8 or 5).
    pub exponent_bits: u8,
    /// Mantissa (fraction) bits (23, 10, 6 or 5).
    pub mantissa_bits: u8,
    /// Whether the top bit is a sign bit (false for the 11- and 10-bit floats).
    pub signed: bool,
}

impl FloatEncoding {
    /// The encoding of a FLOAT component `bits` wide, if DXGI defines one.
    pub const fn for_width(bits: u8) -> Option<FloatEncoding> {
        let (exponent_bits, mantissa_bits, signed) = match bits {
            32 => (8, 23, true),
            16 => (5, 10, true),
            11 => (5, 6, false),
            10 => (5, 5, false),
            _ => return None,
        };
        Some(FloatEncoding {
            exponent_bits,
            mantissa_bits,
            signed,
        })
    }

    /// The exponent bias.
    pub const fn bias(&self) -> i32 {
        (1 << (self.exponent_bits - 1)) - 1
    }
}

impl Component {
    /// The float layout of a [`Kind::Float`] component (`None` for other kinds).
    pub const fn float_encoding(&self) -> Option<FloatEncoding> {
        match self.kind {
            Kind::Float => FloatEncoding::for_width(self.bits),
            _ => None,
        }
    }
}

/// Whether a capability is available at a feature level.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Support {
    /// Every device at that level supports it.
    Required,
    /// The device may support it (`CheckFormatSupport` decides); inlay accepts it unless the
    /// target says optional formats are unsupported (see [`crate::target::Target`]).
    Optional,
    /// Not available.
    None,
}

/// Support at each feature level, indexed by [`FeatureLevel::index`] (9_1 … 11_1).
pub type SupportRow = [Support; 7];

/// Broad family of a format, for formats that are not a plain list of components.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Family {
    /// Unknown (`DXGI_FORMAT_UNKNOWN`).
    Unknown,
    /// A plain list of components (possibly typeless, depth or packed).
    Plain,
    /// Block-compressed (BC1 … BC7); `bits` is per 4×4 block.
    BlockCompressed,
    /// Packed subsampled 4:2:2 (`R8G8_B8G8`, `G8R8_G8B8`), `bits` per pixel pair.
    Subsampled,
    /// Video/planar/palettised formats; `bits` is per pixel where meaningful, else 0.
    Video,
    /// Opaque formats (sampler feedback).
    Opaque,
}

/// One row of the format table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// The `DXGI_FORMAT` value.
    pub value: u32,
    /// Name without the `DXGI_FORMAT_` prefix, as in `dxgiformat.h`.
    pub name: &'static str,
    /// Family of the format.
    pub family: Family,
    /// Size of one element in bits (per block for block-compressed formats, 0 when not defined).
    pub bits: u16,
    /// Components in storage order (empty for families other than [`Family::Plain`]).
    pub components: &'static [Component],
    /// Input Assembler Vertex Buffer support per feature level.
    pub vertex_buffer: SupportRow,
    /// Input Assembler Index Buffer support per feature level.
    pub index_buffer: SupportRow,
}

impl FormatInfo {
    /// Bytes per element (per block for block-compressed formats).
    pub const fn byte_size(&self) -> u32 {
        (self.bits as u32).div_ceil(8)
    }

    /// Offset alignment an element of this format needs in an input layout:
    /// `min(next_power_of_two(byte_size), 4)` (spec §4.4.6; R25).
    pub const fn offset_alignment(&self) -> u32 {
        let size = self.byte_size();
        let p = if size <= 1 {
            1
        } else {
            size.next_power_of_two()
        };
        if p < 4 { p } else { 4 }
    }

    /// Whether the input assembler can read this format from a vertex buffer at any level.
    pub fn is_vertex_format(&self) -> bool {
        self.vertex_buffer.iter().any(|s| *s != Support::None)
    }

    /// Vertex-buffer support at one feature level.
    pub fn vertex_support(&self, level: FeatureLevel) -> Support {
        self.vertex_buffer[level.index()]
    }

    /// Index-buffer support at one feature level.
    pub fn index_support(&self, level: FeatureLevel) -> Support {
        self.index_buffer[level.index()]
    }

    /// Components that carry data (everything but unused `X` bits).
    pub fn present(&self) -> impl Iterator<Item = &'static Component> + '_ {
        self.components.iter().filter(|c| c.kind != Kind::Unused)
    }

    /// Kind of the first component that carries data, which decides the missing-`w` default
    /// and the type class compared against a signature (R23, R44).
    pub fn first_kind(&self) -> Option<Kind> {
        self.present().next().map(|c| c.kind)
    }

    /// The 32-bit value a register lane receives for a component this format does not
    /// have: 0 for x, y and z; for w, 1.0 (`0x3f800000`) when the first present component is
    /// FLOAT, UNORM or SNORM and integer 1 when it is UINT or SINT (spec §19.1.3.3, R44).
    pub fn default_lane(&self, lane: usize) -> u32 {
        if lane < 3 {
            return 0;
        }
        match self.first_kind() {
            Some(Kind::Uint) | Some(Kind::Sint) => 1,
            _ => 0x3f80_0000,
        }
    }

    /// Bit mask of the register lanes (bit 0 = x) that this format supplies from memory.
    pub fn lane_mask(&self) -> u8 {
        self.present()
            .filter_map(|c| c.channel.lane())
            .fold(0, |m, l| m | (1 << l))
    }

    /// Number of components that carry data.
    pub fn component_count(&self) -> usize {
        self.present().count()
    }
}

impl Format {
    /// This format's row in [`FORMATS`], or `None` for a value `dxgiformat.h` does not define.
    pub fn info(self) -> Option<&'static FormatInfo> {
        lookup(self.0)
    }

    /// The name without prefix, or `None` for an undefined value.
    pub fn name(self) -> Option<&'static str> {
        self.info().map(|i| i.name)
    }
}

impl fmt::Display for Format {
    /// Prints the name (without `DXGI_FORMAT_`), or the number for an undefined value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "{}", self.0),
        }
    }
}

/// Error from parsing a format name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown DXGI format `{0}` (expected a name such as R32G32B32_FLOAT or a number)")]
pub struct ParseFormatError(pub String);

impl std::str::FromStr for Format {
    type Err = ParseFormatError;

    /// Accepts `R32G32B32_FLOAT`, `DXGI_FORMAT_R32G32B32_FLOAT` in any case, or a decimal or
    /// `0x` hexadecimal number (any `u32`, defined or not).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            return u32::from_str_radix(h, 16)
                .map(Format)
                .map_err(|_| ParseFormatError(s.to_string()));
        }
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return t
                .parse::<u32>()
                .map(Format)
                .map_err(|_| ParseFormatError(s.to_string()));
        }
        let upper = t.to_ascii_uppercase();
        let bare = upper.strip_prefix("DXGI_FORMAT_").unwrap_or(&upper);
        FORMATS
            .iter()
            .find(|f| f.name == bare)
            .map(|f| Format(f.value))
            .ok_or_else(|| ParseFormatError(s.to_string()))
    }
}

/// Looks a value up in the table.
pub fn lookup(value: u32) -> Option<&'static FormatInfo> {
    // The table is sorted by value; values are sparse above 115.
    FORMATS
        .binary_search_by_key(&value, |f| f.value)
        .ok()
        .map(|i| &FORMATS[i])
}

/// Every format the IA can read from a vertex buffer at some feature level (47 of them).
pub fn vertex_formats() -> impl Iterator<Item = &'static FormatInfo> {
    FORMATS.iter().filter(|f| f.is_vertex_format())
}

// ---------------------------------------------------------------------------------------------
// The table.
// ---------------------------------------------------------------------------------------------

use Channel::{A, B, D, E, G, R, S, X};
use Kind::{Float as F, Sint as SI, Snorm as SN, Typeless as TL, Uint as UI, Unorm as UN};
use Support::{None as N, Optional as O, Required as Q};

const fn c(channel: Channel, bit_offset: u16, bits: u8, kind: Kind) -> Component {
    Component {
        channel,
        bit_offset,
        bits,
        kind,
    }
}

/// Never supported.
const NO: SupportRow = [N; 7];
/// Required at every level (9_1 … 11_1).
const ALL: SupportRow = [Q; 7];
/// Required from 9_2 up.
const FROM_9_2: SupportRow = [N, Q, Q, Q, Q, Q, Q];
/// Required from 9_3 up.
const FROM_9_3: SupportRow = [N, N, Q, Q, Q, Q, Q];
/// Required from 10_0 up.
const FROM_10_0: SupportRow = [N, N, N, Q, Q, Q, Q];
/// Optional from 10_0 up (the DXGI 1.2 16-bit BGR formats).
const OPT_10_0: SupportRow = [N, N, N, O, O, O, O];

/// Four components of `bits` each, of one kind, in R G B A order.
macro_rules! rgba {
    ($bits:expr, $k:expr) => {
        &[
            c(R, 0, $bits, $k),
            c(G, $bits, $bits, $k),
            c(B, 2 * $bits, $bits, $k),
            c(A, 3 * $bits, $bits, $k),
        ]
    };
}
macro_rules! rgb {
    ($bits:expr, $k:expr) => {
        &[
            c(R, 0, $bits, $k),
            c(G, $bits, $bits, $k),
            c(B, 2 * $bits, $bits, $k),
        ]
    };
}
macro_rules! rg {
    ($bits:expr, $k:expr) => {
        &[c(R, 0, $bits, $k), c(G, $bits, $bits, $k)]
    };
}
macro_rules! r {
    ($bits:expr, $k:expr) => {
        &[c(R, 0, $bits, $k)]
    };
}

/// Shorthand for a row.
const fn row(
    value: u32,
    name: &'static str,
    bits: u16,
    components: &'static [Component],
    vertex_buffer: SupportRow,
    index_buffer: SupportRow,
) -> FormatInfo {
    FormatInfo {
        value,
        name,
        family: Family::Plain,
        bits,
        components,
        vertex_buffer,
        index_buffer,
    }
}

const fn other(value: u32, name: &'static str, family: Family, bits: u16) -> FormatInfo {
    FormatInfo {
        value,
        name,
        family,
        bits,
        components: &[],
        vertex_buffer: NO,
        index_buffer: NO,
    }
}

const SRGB: Kind = Kind::UnormSrgb;
const SP: Kind = Kind::Special;
const XX: Kind = Kind::Unused;

/// Every `DXGI_FORMAT` of `dxgiformat.h`, sorted by value.
pub static FORMATS: &[FormatInfo] = &[
    other(0, "UNKNOWN", Family::Unknown, 0),
    row(1, "R32G32B32A32_TYPELESS", 128, rgba!(32, TL), NO, NO),
    row(2, "R32G32B32A32_FLOAT", 128, rgba!(32, F), ALL, NO),
    row(3, "R32G32B32A32_UINT", 128, rgba!(32, UI), FROM_10_0, NO),
    row(4, "R32G32B32A32_SINT", 128, rgba!(32, SI), FROM_10_0, NO),
    row(5, "R32G32B32_TYPELESS", 96, rgb!(32, TL), NO, NO),
    row(6, "R32G32B32_FLOAT", 96, rgb!(32, F), ALL, NO),
    row(7, "R32G32B32_UINT", 96, rgb!(32, UI), FROM_10_0, NO),
    row(8, "R32G32B32_SINT", 96, rgb!(32, SI), FROM_10_0, NO),
    row(9, "R16G16B16A16_TYPELESS", 64, rgba!(16, TL), NO, NO),
    row(10, "R16G16B16A16_FLOAT", 64, rgba!(16, F), FROM_9_3, NO),
    row(11, "R16G16B16A16_UNORM", 64, rgba!(16, UN), FROM_10_0, NO),
    row(12, "R16G16B16A16_UINT", 64, rgba!(16, UI), FROM_10_0, NO),
    row(13, "R16G16B16A16_SNORM", 64, rgba!(16, SN), ALL, NO),
    row(14, "R16G16B16A16_SINT", 64, rgba!(16, SI), ALL, NO),
    row(15, "R32G32_TYPELESS", 64, rg!(32, TL), NO, NO),
    row(16, "R32G32_FLOAT", 64, rg!(32, F), ALL, NO),
    row(17, "R32G32_UINT", 64, rg!(32, UI), FROM_10_0, NO),
    row(18, "R32G32_SINT", 64, rg!(32, SI), FROM_10_0, NO),
    row(
        19,
        "R32G8X24_TYPELESS",
        64,
        &[c(R, 0, 32, TL), c(G, 32, 8, TL), c(X, 40, 24, XX)],
        NO,
        NO,
    ),
    row(
        20,
        "D32_FLOAT_S8X24_UINT",
        64,
        &[c(D, 0, 32, F), c(S, 32, 8, UI), c(X, 40, 24, XX)],
        NO,
        NO,
    ),
    row(
        21,
        "R32_FLOAT_X8X24_TYPELESS",
        64,
        &[c(R, 0, 32, F), c(X, 32, 32, XX)],
        NO,
        NO,
    ),
    row(
        22,
        "X32_TYPELESS_G8X24_UINT",
        64,
        &[c(X, 0, 32, XX), c(G, 32, 8, UI), c(X, 40, 24, XX)],
        NO,
        NO,
    ),
    row(
        23,
        "R10G10B10A2_TYPELESS",
        32,
        &[
            c(R, 0, 10, TL),
            c(G, 10, 10, TL),
            c(B, 20, 10, TL),
            c(A, 30, 2, TL),
        ],
        NO,
        NO,
    ),
    row(
        24,
        "R10G10B10A2_UNORM",
        32,
        &[
            c(R, 0, 10, UN),
            c(G, 10, 10, UN),
            c(B, 20, 10, UN),
            c(A, 30, 2, UN),
        ],
        FROM_10_0,
        NO,
    ),
    row(
        25,
        "R10G10B10A2_UINT",
        32,
        &[
            c(R, 0, 10, UI),
            c(G, 10, 10, UI),
            c(B, 20, 10, UI),
            c(A, 30, 2, UI),
        ],
        FROM_10_0,
        NO,
    ),
    row(
        26,
        "R11G11B10_FLOAT",
        32,
        &[c(R, 0, 11, F), c(G, 11, 11, F), c(B, 22, 10, F)],
        FROM_10_0,
        NO,
    ),
    row(27, "R8G8B8A8_TYPELESS", 32, rgba!(8, TL), NO, NO),
    row(28, "R8G8B8A8_UNORM", 32, rgba!(8, UN), ALL, NO),
    row(29, "R8G8B8A8_UNORM_SRGB", 32, rgba!(8, SRGB), NO, NO),
    row(30, "R8G8B8A8_UINT", 32, rgba!(8, UI), ALL, NO),
    row(31, "R8G8B8A8_SNORM", 32, rgba!(8, SN), FROM_10_0, NO),
    row(32, "R8G8B8A8_SINT", 32, rgba!(8, SI), FROM_10_0, NO),
    row(33, "R16G16_TYPELESS", 32, rg!(16, TL), NO, NO),
    row(34, "R16G16_FLOAT", 32, rg!(16, F), FROM_9_3, NO),
    row(35, "R16G16_UNORM", 32, rg!(16, UN), FROM_10_0, NO),
    row(36, "R16G16_UINT", 32, rg!(16, UI), FROM_10_0, NO),
    row(37, "R16G16_SNORM", 32, rg!(16, SN), ALL, NO),
    row(38, "R16G16_SINT", 32, rg!(16, SI), ALL, NO),
    row(39, "R32_TYPELESS", 32, r!(32, TL), NO, NO),
    row(40, "D32_FLOAT", 32, &[c(D, 0, 32, F)], NO, NO),
    row(41, "R32_FLOAT", 32, r!(32, F), ALL, NO),
    row(42, "R32_UINT", 32, r!(32, UI), FROM_10_0, FROM_9_2),
    row(43, "R32_SINT", 32, r!(32, SI), FROM_10_0, NO),
    row(
        44,
        "R24G8_TYPELESS",
        32,
        &[c(R, 0, 24, TL), c(G, 24, 8, TL)],
        NO,
        NO,
    ),
    row(
        45,
        "D24_UNORM_S8_UINT",
        32,
        &[c(D, 0, 24, UN), c(S, 24, 8, UI)],
        NO,
        NO,
    ),
    row(
        46,
        "R24_UNORM_X8_TYPELESS",
        32,
        &[c(R, 0, 24, UN), c(X, 24, 8, XX)],
        NO,
        NO,
    ),
    row(
        47,
        "X24_TYPELESS_G8_UINT",
        32,
        &[c(X, 0, 24, XX), c(G, 24, 8, UI)],
        NO,
        NO,
    ),
    row(48, "R8G8_TYPELESS", 16, rg!(8, TL), NO, NO),
    row(49, "R8G8_UNORM", 16, rg!(8, UN), FROM_10_0, NO),
    row(50, "R8G8_UINT", 16, rg!(8, UI), FROM_10_0, NO),
    row(51, "R8G8_SNORM", 16, rg!(8, SN), FROM_10_0, NO),
    row(52, "R8G8_SINT", 16, rg!(8, SI), FROM_10_0, NO),
    row(53, "R16_TYPELESS", 16, r!(16, TL), NO, NO),
    row(54, "R16_FLOAT", 16, r!(16, F), FROM_10_0, NO),
    row(55, "D16_UNORM", 16, &[c(D, 0, 16, UN)], NO, NO),
    row(56, "R16_UNORM", 16, r!(16, UN), FROM_10_0, NO),
    row(57, "R16_UINT", 16, r!(16, UI), FROM_10_0, ALL),
    row(58, "R16_SNORM", 16, r!(16, SN), FROM_10_0, NO),
    row(59, "R16_SINT", 16, r!(16, SI), FROM_10_0, NO),
    row(60, "R8_TYPELESS", 8, r!(8, TL), NO, NO),
    row(61, "R8_UNORM", 8, r!(8, UN), FROM_10_0, NO),
    row(62, "R8_UINT", 8, r!(8, UI), FROM_10_0, NO),
    row(63, "R8_SNORM", 8, r!(8, SN), FROM_10_0, NO),
    row(64, "R8_SINT", 8, r!(8, SI), FROM_10_0, NO),
    row(65, "A8_UNORM", 8, &[c(A, 0, 8, UN)], NO, NO),
    row(66, "R1_UNORM", 1, r!(1, UN), NO, NO),
    row(
        67,
        "R9G9B9E5_SHAREDEXP",
        32,
        &[
            c(R, 0, 9, SP),
            c(G, 9, 9, SP),
            c(B, 18, 9, SP),
            c(E, 27, 5, SP),
        ],
        NO,
        NO,
    ),
    other(68, "R8G8_B8G8_UNORM", Family::Subsampled, 32),
    other(69, "G8R8_G8B8_UNORM", Family::Subsampled, 32),
    other(70, "BC1_TYPELESS", Family::BlockCompressed, 64),
    other(71, "BC1_UNORM", Family::BlockCompressed, 64),
    other(72, "BC1_UNORM_SRGB", Family::BlockCompressed, 64),
    other(73, "BC2_TYPELESS", Family::BlockCompressed, 128),
    other(74, "BC2_UNORM", Family::BlockCompressed, 128),
    other(75, "BC2_UNORM_SRGB", Family::BlockCompressed, 128),
    other(76, "BC3_TYPELESS", Family::BlockCompressed, 128),
    other(77, "BC3_UNORM", Family::BlockCompressed, 128),
    other(78, "BC3_UNORM_SRGB", Family::BlockCompressed, 128),
    other(79, "BC4_TYPELESS", Family::BlockCompressed, 64),
    other(80, "BC4_UNORM", Family::BlockCompressed, 64),
    other(81, "BC4_SNORM", Family::BlockCompressed, 64),
    other(82, "BC5_TYPELESS", Family::BlockCompressed, 128),
    other(83, "BC5_UNORM", Family::BlockCompressed, 128),
    other(84, "BC5_SNORM", Family::BlockCompressed, 128),
    row(
        85,
        "B5G6R5_UNORM",
        16,
        &[c(B, 0, 5, UN), c(G, 5, 6, UN), c(R, 11, 5, UN)],
        OPT_10_0,
        NO,
    ),
    row(
        86,
        "B5G5R5A1_UNORM",
        16,
        &[
            c(B, 0, 5, UN),
            c(G, 5, 5, UN),
            c(R, 10, 5, UN),
            c(A, 15, 1, UN),
        ],
        OPT_10_0,
        NO,
    ),
    row(
        87,
        "B8G8R8A8_UNORM",
        32,
        &[
            c(B, 0, 8, UN),
            c(G, 8, 8, UN),
            c(R, 16, 8, UN),
            c(A, 24, 8, UN),
        ],
        FROM_10_0,
        NO,
    ),
    row(
        88,
        "B8G8R8X8_UNORM",
        32,
        &[
            c(B, 0, 8, UN),
            c(G, 8, 8, UN),
            c(R, 16, 8, UN),
            c(X, 24, 8, XX),
        ],
        FROM_10_0,
        NO,
    ),
    row(
        89,
        "R10G10B10_XR_BIAS_A2_UNORM",
        32,
        &[
            c(R, 0, 10, SP),
            c(G, 10, 10, SP),
            c(B, 20, 10, SP),
            c(A, 30, 2, UN),
        ],
        NO,
        NO,
    ),
    row(
        90,
        "B8G8R8A8_TYPELESS",
        32,
        &[
            c(B, 0, 8, TL),
            c(G, 8, 8, TL),
            c(R, 16, 8, TL),
            c(A, 24, 8, TL),
        ],
        NO,
        NO,
    ),
    row(
        91,
        "B8G8R8A8_UNORM_SRGB",
        32,
        &[
            c(B, 0, 8, SRGB),
            c(G, 8, 8, SRGB),
            c(R, 16, 8, SRGB),
            c(A, 24, 8, UN),
        ],
        NO,
        NO,
    ),
    row(
        92,
        "B8G8R8X8_TYPELESS",
        32,
        &[
            c(B, 0, 8, TL),
            c(G, 8, 8, TL),
            c(R, 16, 8, TL),
            c(X, 24, 8, XX),
        ],
        NO,
        NO,
    ),
    row(
        93,
        "B8G8R8X8_UNORM_SRGB",
        32,
        &[
            c(B, 0, 8, SRGB),
            c(G, 8, 8, SRGB),
            c(R, 16, 8, SRGB),
            c(X, 24, 8, XX),
        ],
        NO,
        NO,
    ),
    other(94, "BC6H_TYPELESS", Family::BlockCompressed, 128),
    other(95, "BC6H_UF16", Family::BlockCompressed, 128),
    other(96, "BC6H_SF16", Family::BlockCompressed, 128),
    other(97, "BC7_TYPELESS", Family::BlockCompressed, 128),
    other(98, "BC7_UNORM", Family::BlockCompressed, 128),
    other(99, "BC7_UNORM_SRGB", Family::BlockCompressed, 128),
    other(100, "AYUV", Family::Video, 32),
    other(101, "Y410", Family::Video, 32),
    other(102, "Y416", Family::Video, 64),
    other(103, "NV12", Family::Video, 8),
    other(104, "P010", Family::Video, 16),
    other(105, "P016", Family::Video, 16),
    other(106, "420_OPAQUE", Family::Video, 8),
    other(107, "YUY2", Family::Video, 32),
    other(108, "Y210", Family::Video, 64),
    other(109, "Y216", Family::Video, 64),
    other(110, "NV11", Family::Video, 8),
    other(111, "AI44", Family::Video, 8),
    other(112, "IA44", Family::Video, 8),
    other(113, "P8", Family::Video, 8),
    other(114, "A8P8", Family::Video, 16),
    row(
        115,
        "B4G4R4A4_UNORM",
        16,
        &[
            c(B, 0, 4, UN),
            c(G, 4, 4, UN),
            c(R, 8, 4, UN),
            c(A, 12, 4, UN),
        ],
        OPT_10_0,
        NO,
    ),
    other(130, "P208", Family::Video, 8),
    other(131, "V208", Family::Video, 8),
    other(132, "V408", Family::Video, 8),
    other(189, "SAMPLER_FEEDBACK_MIN_MIP_OPAQUE", Family::Opaque, 0),
    other(
        190,
        "SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE",
        Family::Opaque,
        0,
    ),
    row(
        191,
        "A4B4G4R4_UNORM",
        16,
        &[
            c(A, 0, 4, UN),
            c(B, 4, 4, UN),
            c(G, 8, 4, UN),
            c(R, 12, 4, UN),
        ],
        NO,
        NO,
    ),
];

/// `Format` constants for every table row, named as in `dxgiformat.h` without the prefix.
#[allow(missing_docs)]
impl Format {
    pub const UNKNOWN: Format = Format(0);
    pub const R32G32B32A32_TYPELESS: Format = Format(1);
    pub const R32G32B32A32_FLOAT: Format = Format(2);
    pub const R32G32B32A32_UINT: Format = Format(3);
    pub const R32G32B32A32_SINT: Format = Format(4);
    pub const R32G32B32_TYPELESS: Format = Format(5);
    pub const R32G32B32_FLOAT: Format = Format(6);
    pub const R32G32B32_UINT: Format = Format(7);
    pub const R32G32B32_SINT: Format = Format(8);
    pub const R16G16B16A16_TYPELESS: Format = Format(9);
    pub const R16G16B16A16_FLOAT: Format = Format(10);
    pub const R16G16B16A16_UNORM: Format = Format(11);
    pub const R16G16B16A16_UINT: Format = Format(12);
    pub const R16G16B16A16_SNORM: Format = Format(13);
    pub const R16G16B16A16_SINT: Format = Format(14);
    pub const R32G32_TYPELESS: Format = Format(15);
    pub const R32G32_FLOAT: Format = Format(16);
    pub const R32G32_UINT: Format = Format(17);
    pub const R32G32_SINT: Format = Format(18);
    pub const R10G10B10A2_TYPELESS: Format = Format(23);
    pub const R10G10B10A2_UNORM: Format = Format(24);
    pub const R10G10B10A2_UINT: Format = Format(25);
    pub const R11G11B10_FLOAT: Format = Format(26);
    pub const R8G8B8A8_TYPELESS: Format = Format(27);
    pub const R8G8B8A8_UNORM: Format = Format(28);
    pub const R8G8B8A8_UNORM_SRGB: Format = Format(29);
    pub const R8G8B8A8_UINT: Format = Format(30);
    pub const R8G8B8A8_SNORM: Format = Format(31);
    pub const R8G8B8A8_SINT: Format = Format(32);
    pub const R16G16_TYPELESS: Format = Format(33);
    pub const R16G16_FLOAT: Format = Format(34);
    pub const R16G16_UNORM: Format = Format(35);
    pub const R16G16_UINT: Format = Format(36);
    pub const R16G16_SNORM: Format = Format(37);
    pub const R16G16_SINT: Format = Format(38);
    pub const R32_TYPELESS: Format = Format(39);
    pub const D32_FLOAT: Format = Format(40);
    pub const R32_FLOAT: Format = Format(41);
    pub const R32_UINT: Format = Format(42);
    pub const R32_SINT: Format = Format(43);
    pub const R8G8_TYPELESS: Format = Format(48);
    pub const R8G8_UNORM: Format = Format(49);
    pub const R8G8_UINT: Format = Format(50);
    pub const R8G8_SNORM: Format = Format(51);
    pub const R8G8_SINT: Format = Format(52);
    pub const R16_TYPELESS: Format = Format(53);
    pub const R16_FLOAT: Format = Format(54);
    pub const D16_UNORM: Format = Format(55);
    pub const R16_UNORM: Format = Format(56);
    pub const R16_UINT: Format = Format(57);
    pub const R16_SNORM: Format = Format(58);
    pub const R16_SINT: Format = Format(59);
    pub const R8_TYPELESS: Format = Format(60);
    pub const R8_UNORM: Format = Format(61);
    pub const R8_UINT: Format = Format(62);
    pub const R8_SNORM: Format = Format(63);
    pub const R8_SINT: Format = Format(64);
    pub const A8_UNORM: Format = Format(65);
    pub const R9G9B9E5_SHAREDEXP: Format = Format(67);
    pub const BC1_UNORM: Format = Format(71);
    pub const B5G6R5_UNORM: Format = Format(85);
    pub const B5G5R5A1_UNORM: Format = Format(86);
    pub const B8G8R8A8_UNORM: Format = Format(87);
    pub const B8G8R8X8_UNORM: Format = Format(88);
    pub const R10G10B10_XR_BIAS_A2_UNORM: Format = Format(89);
    pub const B4G4R4A4_UNORM: Format = Format(115);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique() {
        for w in FORMATS.windows(2) {
            assert!(
                w[0].value < w[1].value,
                "{} before {}",
                w[0].name,
                w[1].name
            );
        }
        assert_eq!(FORMATS.len(), 122);
    }

    #[test]
    fn components_fit_and_do_not_overlap() {
        for f in FORMATS {
            let mut used: u128 = 0;
            for comp in f.components {
                let end = comp.bit_offset as u32 + comp.bits as u32;
                assert!(end <= f.bits as u32, "{}", f.name);
                let m = ((1u128 << comp.bits) - 1) << comp.bit_offset;
                assert_eq!(used & m, 0, "{} overlaps", f.name);
                used |= m;
            }
            if !f.components.is_empty() {
                assert_eq!(
                    used.count_ones(),
                    f.bits as u32,
                    "{} bits not covered",
                    f.name
                );
            }
        }
    }

    #[test]
    fn exactly_47_vertex_formats() {
        assert_eq!(vertex_formats().count(), 47);
        let optional: Vec<_> = vertex_formats()
            .filter(|f| f.vertex_buffer.contains(&Support::Optional))
            .map(|f| f.name)
            .collect();
        assert_eq!(
            optional,
            ["B5G6R5_UNORM", "B5G5R5A1_UNORM", "B4G4R4A4_UNORM"]
        );
    }

    #[test]
    fn alignment_rule() {
        let a = |f: Format| f.info().unwrap().offset_alignment();
        assert_eq!(a(Format::R8_UINT), 1);
        assert_eq!(a(Format::R16_UINT), 2);
        assert_eq!(a(Format::R8G8_UNORM), 2);
        assert_eq!(a(Format::B5G6R5_UNORM), 2);
        assert_eq!(a(Format::R32G32_FLOAT), 4);
        assert_eq!(a(Format::R32G32B32_FLOAT), 4);
        assert_eq!(a(Format::R32G32B32A32_UINT), 4);
        assert_eq!(a(Format::R10G10B10A2_UNORM), 4);
    }

    #[test]
    fn defaults_follow_first_kind() {
        let d = |f: Format| f.info().unwrap().default_lane(3);
        assert_eq!(d(Format::R32G32B32_FLOAT), 0x3f80_0000);
        assert_eq!(d(Format::R16G16_UINT), 1);
        assert_eq!(d(Format::R16_SINT), 1);
        assert_eq!(d(Format::B8G8R8X8_UNORM), 0x3f80_0000);
        assert_eq!(Format::R16_SINT.info().unwrap().default_lane(1), 0);
        assert_eq!(Format::B8G8R8X8_UNORM.info().unwrap().lane_mask(), 0b0111);
    }

    #[test]
    fn parse_names_and_numbers() {
        assert_eq!(
            "dxgi_format_r16g16_snorm".parse::<Format>(),
            Ok(Format::R16G16_SNORM)
        );
        assert_eq!("0x57".parse::<Format>(), Ok(Format::B8G8R8A8_UNORM));
        assert_eq!("4000".parse::<Format>(), Ok(Format(4000)));
        assert!("R17_FLOAT".parse::<Format>().is_err());
        assert_eq!(Format(4000).to_string(), "4000");
        assert_eq!(Format::R11G11B10_FLOAT.to_string(), "R11G11B10_FLOAT");
    }

    #[test]
    fn index_formats() {
        let ib: Vec<_> = FORMATS
            .iter()
            .filter(|f| f.index_buffer.iter().any(|s| *s != Support::None))
            .map(|f| f.name)
            .collect();
        assert_eq!(ib, ["R32_UINT", "R16_UINT"]);
        assert_eq!(
            Format::R32_UINT
                .info()
                .unwrap()
                .index_support(FeatureLevel::L9_1),
            Support::None
        );
    }
}
