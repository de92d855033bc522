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
    /// The kind's lower-case name, as the viewer, the Python package and messages write it:
    /// `float`, `unorm`, `snorm`, `uint`, `sint`, `unused`, `typeless`, `unorm_srgb`,
    /// `special`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Float => "float",
            Kind::Unorm => "unorm",
            Kind::Snorm => "snorm",
            Kind::Uint => "uint",
            Kind::Sint => "sint",
            Kind::Unused => "unused",
            Kind::Typeless => "typeless",
            Kind::UnormSrgb => "unorm_srgb",
            Kind::Special => "special",
        }
    }

    /// Whether data of this kind is "float-like" for the purposes of the missing-`w` default
    /// and the signature type check (FLOAT, UNORM, SNORM; spec §19.1.3.3, R23).
    pub const fn is_float_like(self) -> bool {
        matches!(
            self,
            Kind::Float | Kind::Unorm | Kind::Snorm | Kind::UnormSrgb
        )
    }

    /// The float layout of a component of this kind `bits` wide: `Some` for [`Kind::Float`]
    /// at a width DXGI defines (32, 16, 11, 10), `None` otherwise.
    pub const fn float_encoding(self, bits: u8) -> Option<FloatEncoding> {
        match self {
            Kind::Float => FloatEncoding::for_width(bits),
            _ => None,
        }
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
    /// IEEE binary32 (spec §3.1): sign, 8 exponent bits, 23 mantissa bits.
    pub const BINARY32: FloatEncoding = FloatEncoding {
        exponent_bits: 8,
        mantissa_bits: 23,
        signed: true,
    };
    /// IEEE binary16, the "half" (spec §3.1.5): sign, 5 exponent bits, 10 mantissa bits.
    pub const BINARY16: FloatEncoding = FloatEncoding {
        exponent_bits: 5,
        mantissa_bits: 10,
        signed: true,
    };
    /// The unsigned 11-bit float of `R11G11B10_FLOAT` (spec §3.1.6, §19.3.3): 5 exponent bits,
    /// 6 mantissa bits, no sign.
    pub const UFLOAT11: FloatEncoding = FloatEncoding {
        exponent_bits: 5,
        mantissa_bits: 6,
        signed: false,
    };
    /// The unsigned 10-bit float of `R11G11B10_FLOAT` (spec §3.1.6, §19.3.3): 5 exponent bits,
    /// 5 mantissa bits, no sign.
    pub const UFLOAT10: FloatEncoding = FloatEncoding {
        exponent_bits: 5,
        mantissa_bits: 5,
        signed: false,
    };

    /// The encoding of a FLOAT component `bits` wide, if DXGI defines one. This is the one
    /// place the float widths of the table are given their meaning.
    pub const fn for_width(bits: u8) -> Option<FloatEncoding> {
        let encoding = match bits {
            32 => FloatEncoding::BINARY32,
            16 => FloatEncoding::BINARY16,
            11 => FloatEncoding::UFLOAT11,
            10 => FloatEncoding::UFLOAT10,
            _ => return None,
        };
        Some(encoding)
    }

    /// The exponent bias, `2^(exponent_bits − 1) − 1` (127 or 15).
    pub const fn bias(&self) -> i32 {
        (1 << (self.exponent_bits - 1)) - 1
    }

    /// Width of the whole field in bits (sign, exponent and mantissa).
    pub const fn width(&self) -> u32 {
        self.signed as u32 + self.exponent_bits as u32 + self.mantissa_bits as u32
    }

    /// The all-ones exponent field, which marks infinities and NaNs (31 or 255).
    pub const fn exponent_max(&self) -> u32 {
        (1 << self.exponent_bits) - 1
    }

    /// Mask of the mantissa bits (the low `mantissa_bits`).
    pub const fn mantissa_mask(&self) -> u32 {
        (1 << self.mantissa_bits) - 1
    }

    /// Mask of the magnitude: exponent and mantissa, everything but the sign.
    pub const fn magnitude_mask(&self) -> u32 {
        (1 << (self.exponent_bits as u32 + self.mantissa_bits as u32)) - 1
    }

    /// Mask of the sign bit, the top bit of the field (0 for the unsigned floats).
    pub const fn sign_mask(&self) -> u32 {
        if self.signed {
            1 << (self.exponent_bits as u32 + self.mantissa_bits as u32)
        } else {
            0
        }
    }

    /// The magnitude of +infinity (all-ones exponent, zero mantissa); magnitudes above it are
    /// NaNs.
    pub const fn infinity(&self) -> u32 {
        self.exponent_max() << self.mantissa_bits
    }
}

impl Component {
    /// The float layout of a [`Kind::Float`] component (`None` for other kinds).
    pub const fn float_encoding(&self) -> Option<FloatEncoding> {
        self.kind.float_encoding(self.bits)
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
        let p = "DXGI_FORMAT_";
        let bare = t
            .get(..p.len())
            .filter(|h| h.eq_ignore_ascii_case(p))
            .map_or(t, |_| &t[p.len()..]);
        FORMATS
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(bare))
            .map(|f| Format(f.value))
            .ok_or_else(|| ParseFormatError(s.to_string()))
    }
}

/// Looks a value up in the table (a `const fn`, so that facts derived from a row can be
/// constants).
pub const fn lookup(value: u32) -> Option<&'static FormatInfo> {
    // The table is sorted by value; values are sparse above 115. Binary search.
    let (mut lo, mut hi) = (0, FORMATS.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let row = &FORMATS[mid];
        if row.value == value {
            return Some(row);
        } else if row.value < value {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    None
}

/// Every format the IA can read from an index buffer at some feature level: the rows whose
/// "Input Assembler Index Buffer" column is not empty (`R32_UINT`, `R16_UINT`; spec §5.3.4.2).
pub fn index_formats() -> impl Iterator<Item = &'static FormatInfo> {
    FORMATS
        .iter()
        .filter(|f| f.index_buffer.iter().any(|s| *s != Support::None))
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
use Kind::{Special as SP, UnormSrgb as SRGB, Unused as XX};
use Support::{None as N, Optional as O, Required as Q};

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

/// Components `(channel, width, kind)` packed in storage order from bit 0: each one's bit
/// offset is the sum of the widths before it (spec §19.1.3.1).
const fn packed<const K: usize>(parts: [(Channel, u8, Kind); K]) -> [Component; K] {
    let mut out = [Component {
        channel: X,
        bit_offset: 0,
        bits: 0,
        kind: XX,
    }; K];
    let mut offset = 0u16;
    let mut i = 0;
    while i < K {
        let (channel, bits, kind) = parts[i];
        out[i] = Component {
            channel,
            bit_offset: offset,
            bits,
            kind,
        };
        offset += bits as u16;
        i += 1;
    }
    out
}

/// A [`Family::Plain`] row; its size is the sum of its components' widths (they cover every
/// bit, unused `X` bits included).
const fn plain(
    value: u32,
    name: &'static str,
    components: &'static [Component],
    vertex_buffer: SupportRow,
    index_buffer: SupportRow,
) -> FormatInfo {
    let mut bits = 0u16;
    let mut i = 0;
    while i < components.len() {
        bits += components[i].bits as u16;
        i += 1;
    }
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

/// A row of another family: no components, never read by the input assembler.
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

/// Generates [`FORMATS`] and the [`Format`] constants from one list of rows, so that the two
/// cannot drift apart (as `message_ids!` does for message ids). A row is one of
///
/// * `NAME = value, [channel width kind, …], vertex_buffer, index_buffer;` — a plain format:
///   its components in storage order from bit 0 (see [`packed`]) and its IA support rows;
/// * `NAME = value, (Family bits);` — a format that is not a list of components, never
///   IA-readable.
///
/// `NAME ("text")` gives the `dxgiformat.h` name where it is not a Rust identifier.
macro_rules! dxgi_formats {
    (@name $id:ident) => { stringify!($id) };
    (@name $id:ident $text:literal) => { $text };
    (@row $value:literal, $name:expr, [$($ch:ident $bits:literal $kind:ident),*], $vb:ident, $ib:ident) => {{
        const COMPONENTS: &[Component] = &packed([$(($ch, $bits, $kind)),*]);
        plain($value, $name, COMPONENTS, $vb, $ib)
    }};
    (@row $value:literal, $name:expr, ($family:ident $bits:literal)) => {
        other($value, $name, Family::$family, $bits)
    };
    ($($id:ident $(($text:literal))? = $value:literal, $layout:tt $(, $vb:ident, $ib:ident)?;)*) => {
        /// Every `DXGI_FORMAT` of `dxgiformat.h`, sorted by value.
        pub static FORMATS: &[FormatInfo] = &[$(
            dxgi_formats!(@row $value, dxgi_formats!(@name $id $($text)?), $layout $(, $vb, $ib)?)
        ),*];

        /// A constant for every row of [`FORMATS`], named as in `dxgiformat.h` without the
        /// `DXGI_FORMAT_` prefix (`OPAQUE_420` for `420_OPAQUE`, which is not a Rust name).
        impl Format {
            $(
                #[doc = concat!("`DXGI_FORMAT_", dxgi_formats!(@name $id $($text)?), "` (", stringify!($value), ").")]
                pub const $id: Format = Format($value);
            )*
        }
    };
}

dxgi_formats! {
    UNKNOWN = 0,                      (Unknown 0);
    R32G32B32A32_TYPELESS = 1,        [R 32 TL, G 32 TL, B 32 TL, A 32 TL], NO, NO;
    R32G32B32A32_FLOAT = 2,           [R 32 F, G 32 F, B 32 F, A 32 F], ALL, NO;
    R32G32B32A32_UINT = 3,            [R 32 UI, G 32 UI, B 32 UI, A 32 UI], FROM_10_0, NO;
    R32G32B32A32_SINT = 4,            [R 32 SI, G 32 SI, B 32 SI, A 32 SI], FROM_10_0, NO;
    R32G32B32_TYPELESS = 5,           [R 32 TL, G 32 TL, B 32 TL], NO, NO;
    R32G32B32_FLOAT = 6,              [R 32 F, G 32 F, B 32 F], ALL, NO;
    R32G32B32_UINT = 7,               [R 32 UI, G 32 UI, B 32 UI], FROM_10_0, NO;
    R32G32B32_SINT = 8,               [R 32 SI, G 32 SI, B 32 SI], FROM_10_0, NO;
    R16G16B16A16_TYPELESS = 9,        [R 16 TL, G 16 TL, B 16 TL, A 16 TL], NO, NO;
    R16G16B16A16_FLOAT = 10,          [R 16 F, G 16 F, B 16 F, A 16 F], FROM_9_3, NO;
    R16G16B16A16_UNORM = 11,          [R 16 UN, G 16 UN, B 16 UN, A 16 UN], FROM_10_0, NO;
    R16G16B16A16_UINT = 12,           [R 16 UI, G 16 UI, B 16 UI, A 16 UI], FROM_10_0, NO;
    R16G16B16A16_SNORM = 13,          [R 16 SN, G 16 SN, B 16 SN, A 16 SN], ALL, NO;
    R16G16B16A16_SINT = 14,           [R 16 SI, G 16 SI, B 16 SI, A 16 SI], ALL, NO;
    R32G32_TYPELESS = 15,             [R 32 TL, G 32 TL], NO, NO;
    R32G32_FLOAT = 16,                [R 32 F, G 32 F], ALL, NO;
    R32G32_UINT = 17,                 [R 32 UI, G 32 UI], FROM_10_0, NO;
    R32G32_SINT = 18,                 [R 32 SI, G 32 SI], FROM_10_0, NO;
    R32G8X24_TYPELESS = 19,           [R 32 TL, G 8 TL, X 24 XX], NO, NO;
    D32_FLOAT_S8X24_UINT = 20,        [D 32 F, S 8 UI, X 24 XX], NO, NO;
    R32_FLOAT_X8X24_TYPELESS = 21,    [R 32 F, X 32 XX], NO, NO;
    X32_TYPELESS_G8X24_UINT = 22,     [X 32 XX, G 8 UI, X 24 XX], NO, NO;
    R10G10B10A2_TYPELESS = 23,        [R 10 TL, G 10 TL, B 10 TL, A 2 TL], NO, NO;
    R10G10B10A2_UNORM = 24,           [R 10 UN, G 10 UN, B 10 UN, A 2 UN], FROM_10_0, NO;
    R10G10B10A2_UINT = 25,            [R 10 UI, G 10 UI, B 10 UI, A 2 UI], FROM_10_0, NO;
    R11G11B10_FLOAT = 26,             [R 11 F, G 11 F, B 10 F], FROM_10_0, NO;
    R8G8B8A8_TYPELESS = 27,           [R 8 TL, G 8 TL, B 8 TL, A 8 TL], NO, NO;
    R8G8B8A8_UNORM = 28,              [R 8 UN, G 8 UN, B 8 UN, A 8 UN], ALL, NO;
    R8G8B8A8_UNORM_SRGB = 29,         [R 8 SRGB, G 8 SRGB, B 8 SRGB, A 8 SRGB], NO, NO;
    R8G8B8A8_UINT = 30,               [R 8 UI, G 8 UI, B 8 UI, A 8 UI], ALL, NO;
    R8G8B8A8_SNORM = 31,              [R 8 SN, G 8 SN, B 8 SN, A 8 SN], FROM_10_0, NO;
    R8G8B8A8_SINT = 32,               [R 8 SI, G 8 SI, B 8 SI, A 8 SI], FROM_10_0, NO;
    R16G16_TYPELESS = 33,             [R 16 TL, G 16 TL], NO, NO;
    R16G16_FLOAT = 34,                [R 16 F, G 16 F], FROM_9_3, NO;
    R16G16_UNORM = 35,                [R 16 UN, G 16 UN], FROM_10_0, NO;
    R16G16_UINT = 36,                 [R 16 UI, G 16 UI], FROM_10_0, NO;
    R16G16_SNORM = 37,                [R 16 SN, G 16 SN], ALL, NO;
    R16G16_SINT = 38,                 [R 16 SI, G 16 SI], ALL, NO;
    R32_TYPELESS = 39,                [R 32 TL], NO, NO;
    D32_FLOAT = 40,                   [D 32 F], NO, NO;
    R32_FLOAT = 41,                   [R 32 F], ALL, NO;
    R32_UINT = 42,                    [R 32 UI], FROM_10_0, FROM_9_2;
    R32_SINT = 43,                    [R 32 SI], FROM_10_0, NO;
    R24G8_TYPELESS = 44,              [R 24 TL, G 8 TL], NO, NO;
    D24_UNORM_S8_UINT = 45,           [D 24 UN, S 8 UI], NO, NO;
    R24_UNORM_X8_TYPELESS = 46,       [R 24 UN, X 8 XX], NO, NO;
    X24_TYPELESS_G8_UINT = 47,        [X 24 XX, G 8 UI], NO, NO;
    R8G8_TYPELESS = 48,               [R 8 TL, G 8 TL], NO, NO;
    R8G8_UNORM = 49,                  [R 8 UN, G 8 UN], FROM_10_0, NO;
    R8G8_UINT = 50,                   [R 8 UI, G 8 UI], FROM_10_0, NO;
    R8G8_SNORM = 51,                  [R 8 SN, G 8 SN], FROM_10_0, NO;
    R8G8_SINT = 52,                   [R 8 SI, G 8 SI], FROM_10_0, NO;
    R16_TYPELESS = 53,                [R 16 TL], NO, NO;
    R16_FLOAT = 54,                   [R 16 F], FROM_10_0, NO;
    D16_UNORM = 55,                   [D 16 UN], NO, NO;
    R16_UNORM = 56,                   [R 16 UN], FROM_10_0, NO;
    R16_UINT = 57,                    [R 16 UI], FROM_10_0, ALL;
    R16_SNORM = 58,                   [R 16 SN], FROM_10_0, NO;
    R16_SINT = 59,                    [R 16 SI], FROM_10_0, NO;
    R8_TYPELESS = 60,                 [R 8 TL], NO, NO;
    R8_UNORM = 61,                    [R 8 UN], FROM_10_0, NO;
    R8_UINT = 62,                     [R 8 UI], FROM_10_0, NO;
    R8_SNORM = 63,                    [R 8 SN], FROM_10_0, NO;
    R8_SINT = 64,                     [R 8 SI], FROM_10_0, NO;
    A8_UNORM = 65,                    [A 8 UN], NO, NO;
    R1_UNORM = 66,                    [R 1 UN], NO, NO;
    R9G9B9E5_SHAREDEXP = 67,          [R 9 SP, G 9 SP, B 9 SP, E 5 SP], NO, NO;
    R8G8_B8G8_UNORM = 68,             (Subsampled 32);
    G8R8_G8B8_UNORM = 69,             (Subsampled 32);
    BC1_TYPELESS = 70,                (BlockCompressed 64);
    BC1_UNORM = 71,                   (BlockCompressed 64);
    BC1_UNORM_SRGB = 72,              (BlockCompressed 64);
    BC2_TYPELESS = 73,                (BlockCompressed 128);
    BC2_UNORM = 74,                   (BlockCompressed 128);
    BC2_UNORM_SRGB = 75,              (BlockCompressed 128);
    BC3_TYPELESS = 76,                (BlockCompressed 128);
    BC3_UNORM = 77,                   (BlockCompressed 128);
    BC3_UNORM_SRGB = 78,              (BlockCompressed 128);
    BC4_TYPELESS = 79,                (BlockCompressed 64);
    BC4_UNORM = 80,                   (BlockCompressed 64);
    BC4_SNORM = 81,                   (BlockCompressed 64);
    BC5_TYPELESS = 82,                (BlockCompressed 128);
    BC5_UNORM = 83,                   (BlockCompressed 128);
    BC5_SNORM = 84,                   (BlockCompressed 128);
    B5G6R5_UNORM = 85,                [B 5 UN, G 6 UN, R 5 UN], OPT_10_0, NO;
    B5G5R5A1_UNORM = 86,              [B 5 UN, G 5 UN, R 5 UN, A 1 UN], OPT_10_0, NO;
    B8G8R8A8_UNORM = 87,              [B 8 UN, G 8 UN, R 8 UN, A 8 UN], FROM_10_0, NO;
    B8G8R8X8_UNORM = 88,              [B 8 UN, G 8 UN, R 8 UN, X 8 XX], FROM_10_0, NO;
    R10G10B10_XR_BIAS_A2_UNORM = 89,  [R 10 SP, G 10 SP, B 10 SP, A 2 UN], NO, NO;
    B8G8R8A8_TYPELESS = 90,           [B 8 TL, G 8 TL, R 8 TL, A 8 TL], NO, NO;
    B8G8R8A8_UNORM_SRGB = 91,         [B 8 SRGB, G 8 SRGB, R 8 SRGB, A 8 UN], NO, NO;
    B8G8R8X8_TYPELESS = 92,           [B 8 TL, G 8 TL, R 8 TL, X 8 XX], NO, NO;
    B8G8R8X8_UNORM_SRGB = 93,         [B 8 SRGB, G 8 SRGB, R 8 SRGB, X 8 XX], NO, NO;
    BC6H_TYPELESS = 94,               (BlockCompressed 128);
    BC6H_UF16 = 95,                   (BlockCompressed 128);
    BC6H_SF16 = 96,                   (BlockCompressed 128);
    BC7_TYPELESS = 97,                (BlockCompressed 128);
    BC7_UNORM = 98,                   (BlockCompressed 128);
    BC7_UNORM_SRGB = 99,              (BlockCompressed 128);
    AYUV = 100,                       (Video 32);
    Y410 = 101,                       (Video 32);
    Y416 = 102,                       (Video 64);
    NV12 = 103,                       (Video 8);
    P010 = 104,                       (Video 16);
    P016 = 105,                       (Video 16);
    OPAQUE_420 ("420_OPAQUE") = 106,  (Video 8);
    YUY2 = 107,                       (Video 32);
    Y210 = 108,                       (Video 64);
    Y216 = 109,                       (Video 64);
    NV11 = 110,                       (Video 8);
    AI44 = 111,                       (Video 8);
    IA44 = 112,                       (Video 8);
    P8 = 113,                         (Video 8);
    A8P8 = 114,                       (Video 16);
    B4G4R4A4_UNORM = 115,             [B 4 UN, G 4 UN, R 4 UN, A 4 UN], OPT_10_0, NO;
    P208 = 130,                       (Video 8);
    V208 = 131,                       (Video 8);
    V408 = 132,                       (Video 8);
    SAMPLER_FEEDBACK_MIN_MIP_OPAQUE = 189, (Opaque 0);
    SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE = 190, (Opaque 0);
    A4B4G4R4_UNORM = 191,             [A 4 UN, B 4 UN, G 4 UN, R 4 UN], NO, NO;
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
        assert_eq!(
            " Dxgi_Format_R32G32B32_Float ".parse::<Format>(),
            Ok(Format::R32G32B32_FLOAT)
        );
        assert!("DXGI_FORMAT_".parse::<Format>().is_err());
        assert!("DXGI_FORMAT_R32_FLOAT_".parse::<Format>().is_err());
        assert!("DXGI_FORMAṪ_R32_FLOAT".parse::<Format>().is_err());
        assert!("R32_FLOAṪ".parse::<Format>().is_err());
        assert_eq!(Format(4000).to_string(), "4000");
        assert_eq!(Format::R11G11B10_FLOAT.to_string(), "R11G11B10_FLOAT");
    }

    #[test]
    fn index_formats_from_the_table() {
        let ib: Vec<_> = index_formats().map(|f| f.name).collect();
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
