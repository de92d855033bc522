//! Per-element lane programs compiled from the format table, and the portable kernel that runs
//! them.
//!
//! A [`LaneProgram`] describes, for each of the four register lanes, how to pull that lane's
//! field out of the (at most 16) element bytes and how to convert it. It is derived only from
//! the component list of the format's row in [`crate::format::FORMATS`] — bit offset, width,
//! kind and channel — the same data [`crate::convert::decode_element`] walks, so there is no
//! second per-format switch. Formats whose components do not fit the scheme (none of the 47 IA
//! vertex formats today) get no program and are decoded by the reference path instead.
//!
//! Field extraction for lane `L` (component at bit offset `o`, width `b`):
//!
//! 1. gather the four bytes `o/8 .. o/8+3` of the element into a 32-bit word (bytes past the
//!    element read as zero) — a byte shuffle;
//! 2. shift left by `32 − b − o%8`, then right (arithmetic for SINT/SNORM) by `32 − b`.
//!
//! Conversion classes ([`Conv`]): `Bits` (32-bit FLOAT/UINT/SINT copies, narrower UINT/SINT
//! zero/sign extension), `Unorm` (`x / (2^b − 1)` as one f32 division), `Snorm`
//! (`max(x / (2^(b−1) − 1), −1.0)`), `SmallFloat` (16-bit half and the 11/10-bit unsigned
//! floats, widened exactly with integer operations; NaN payloads kept without forcing the quiet
//! bit, exactly as `convert.rs` does). Lanes the format lacks get the format's default.

use crate::format::{FloatEncoding, FormatInfo, Kind};

/// Conversion class of an element's present lanes (all present components of an IA vertex
/// format share one kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv {
    /// The extracted (zero- or sign-extended) field is the lane value: 32-bit FLOAT/UINT/SINT
    /// bit copies and narrower UINT/SINT.
    Bits,
    /// UNORM: `x as f32 / (2^b − 1) as f32` (correctly rounded; ia-semantics §1.3).
    Unorm,
    /// SNORM: `x as f32 / (2^(b−1) − 1) as f32`, clamped below at −1.0 (ia-semantics §1.3).
    Snorm,
    /// 16-bit half or 11/10-bit unsigned float, widened exactly (ia-semantics §1.3).
    SmallFloat,
}

/// How to produce the four lanes of one element from its bytes; see the module comment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaneProgram {
    /// Bytes per element (1 … 16).
    pub size: u32,
    /// Byte shuffle: lane `L`'s word is bytes `shuffle[4L..4L+4]` of the element, little
    /// endian; 0x80 selects a zero byte (the `pshufb` convention).
    pub shuffle: [u8; 16],
    /// Left shift per lane (`32 − b − o%8`).
    pub shl: [u32; 4],
    /// Right shift per lane (`32 − b`).
    pub shr: [u32; 4],
    /// Whether the right shift is arithmetic (SINT, SNORM).
    pub signed: bool,
    /// Conversion class.
    pub conv: Conv,
    /// UNORM/SNORM divisor per lane (1.0 in lanes without a component).
    pub div: [f32; 4],
    /// SmallFloat: mask of the magnitude (exponent and mantissa) bits.
    pub mag_mask: [u32; 4],
    /// SmallFloat: mask of the sign bit (0x8000 for halves, 0 for the unsigned floats).
    pub sign_mask: [u32; 4],
    /// SmallFloat: `23 − mantissa bits`.
    pub mant_shift: [u32; 4],
    /// SmallFloat: magnitude at and above which the value is Inf/NaN (`31 << mbits`).
    pub exp_max: [u32; 4],
    /// SmallFloat: magnitude below which the value is subnormal (`1 << mbits`).
    pub sub_limit: [u32; 4],
    /// SmallFloat: scale of a subnormal's mantissa, `2^(−14 − mbits)`.
    pub sub_scale: [f32; 4],
    /// All ones in lanes the format supplies, 0 in defaulted lanes.
    pub present: [u32; 4],
    /// Lane values where the format has no component (0, 0, 0, typed 1).
    pub defaults: [u32; 4],
}

const F32: FloatEncoding = FloatEncoding::BINARY32;

/// The exponent bias every [`Conv::SmallFloat`] encoding shares (15: the half and the 11-/10-bit
/// floats all have a 5-bit exponent, see [`FloatEncoding`]).
const SMALL_BIAS: i32 = FloatEncoding::BINARY16.bias();

/// Exponent bias difference between f32 and the 5-bit-exponent floats, placed in the f32
/// exponent field: `(127 − 15) << 23`.
pub const REBIAS: u32 = ((F32.bias() - SMALL_BIAS) as u32) << F32.mantissa_bits;

impl LaneProgram {
    /// Compiles the program for a format row, or `None` when its components do not fit the
    /// scheme (the reference decoder then handles it).
    pub fn compile(info: &FormatInfo) -> Option<LaneProgram> {
        let size = info.byte_size();
        if size == 0 || size > 16 {
            return None;
        }
        let kind = info.first_kind()?;
        // Start from the neutral program (no byte selected, no lane present, the format's
        // defaults) and fill in what the components ask for below.
        let mut p = LaneProgram {
            size,
            signed: matches!(kind, Kind::Sint | Kind::Snorm),
            ..LaneProgram::constant(crate::convert::defaults(info))
        };
        let mut conv = None;
        for comp in info.present() {
            if comp.kind != kind {
                return None;
            }
            let lane = comp.channel.lane()?;
            if p.present[lane] != 0 {
                return None;
            }
            let (o, b) = (comp.bit_offset as u32, comp.bits as u32);
            if b == 0 || b > 32 || o % 8 + b > 32 || o + b > 8 * size {
                return None;
            }
            for k in 0..4 {
                let byte = o / 8 + k;
                p.shuffle[4 * lane + k as usize] = if byte < size { byte as u8 } else { 0x80 };
            }
            p.shl[lane] = 32 - b - o % 8;
            p.shr[lane] = 32 - b;
            p.present[lane] = u32::MAX;
            p.defaults[lane] = 0;
            let c = match kind {
                Kind::Uint | Kind::Sint => Conv::Bits,
                Kind::Float => {
                    // The encoding comes from the table's component (format::FloatEncoding).
                    let enc = comp.float_encoding()?;
                    if enc == FloatEncoding::BINARY32 {
                        Conv::Bits
                    } else {
                        // The kernels rebias by the one constant REBIAS and move a sign from
                        // bit 15 to bit 31; other encodings take the reference path.
                        if enc.bias() != SMALL_BIAS || (enc.signed && enc.sign_mask() != 1 << 15) {
                            return None;
                        }
                        let mbits = enc.mantissa_bits as u32;
                        p.mag_mask[lane] = enc.magnitude_mask();
                        p.sign_mask[lane] = enc.sign_mask();
                        p.mant_shift[lane] = F32.mantissa_bits as u32 - mbits;
                        p.exp_max[lane] = enc.infinity();
                        p.sub_limit[lane] = 1 << mbits;
                        // 2^(1 − bias − mbits), the weight of a subnormal's mantissa unit.
                        let e = F32.bias() + 1 - enc.bias() - mbits as i32;
                        p.sub_scale[lane] = f32::from_bits((e as u32) << F32.mantissa_bits);
                        Conv::SmallFloat
                    }
                }
                Kind::Unorm if b <= 24 => {
                    p.div[lane] = ((1u64 << b) - 1) as f32;
                    Conv::Unorm
                }
                Kind::Snorm if (2..=25).contains(&b) => {
                    p.div[lane] = ((1u64 << (b - 1)) - 1) as f32;
                    Conv::Snorm
                }
                _ => return None,
            };
            if conv.is_some_and(|prev| prev != c) {
                return None;
            }
            conv = Some(c);
        }
        p.conv = conv?;
        Some(p)
    }

    /// A program that ignores the element bytes and yields `lanes` (an unbound slot, a
    /// per-instance element, a block entirely out of bounds): no byte selected, no lane
    /// present, `lanes` as the defaults.
    pub fn constant(lanes: [u32; 4]) -> LaneProgram {
        LaneProgram {
            size: 0,
            shuffle: [0x80; 16],
            shl: [0; 4],
            shr: [0; 4],
            signed: false,
            conv: Conv::Bits,
            div: [1.0; 4],
            mag_mask: [0; 4],
            sign_mask: [0; 4],
            mant_shift: [0; 4],
            exp_max: [u32::MAX; 4],
            sub_limit: [0; 4],
            sub_scale: [1.0; 4],
            present: [0; 4],
            defaults: lanes,
        }
    }

    /// Whether the program is a plain copy of aligned 32-bit words (no shifts, no
    /// conversion) — the "N×32-bit copy" kernels.
    pub fn is_copy32(&self) -> bool {
        self.conv == Conv::Bits && self.shl == [0; 4] && self.shr == [0; 4]
    }

    /// Whether the first `lanes` lanes are the element's first `lanes` 32-bit words, copied
    /// (a [`LaneProgram::is_copy32`] program whose lanes `0..lanes` are present and select bytes
    /// `4L .. 4L + 4` in order) — rows that [`crate::fetch::FetchPlan::fetch_element_rows`]
    /// copies straight from the vertex record.
    pub fn copies_lanes(&self, lanes: usize) -> bool {
        self.is_copy32()
            && lanes <= 4
            && 4 * lanes <= self.size as usize
            && (0..lanes).all(|l| {
                self.present[l] == u32::MAX
                    && (0..4).all(|b| self.shuffle[4 * l + b] as usize == 4 * l + b)
            })
    }

    /// Runs the program on one element's bytes, padded with anything to 16 bytes (bytes past
    /// `size` are never used). Portable scalar code; the SIMD kernels compute the same bits.
    #[inline(always)]
    pub fn run(&self, chunk: &[u8; 16]) -> [u32; 4] {
        let mut out = [0u32; 4];
        for (lane, out) in out.iter_mut().enumerate() {
            let mut w = [0u8; 4];
            for (b, &s) in w.iter_mut().zip(&self.shuffle[4 * lane..4 * lane + 4]) {
                *b = if s & 0x80 == 0 {
                    chunk[(s & 15) as usize]
                } else {
                    0
                };
            }
            let x = u32::from_le_bytes(w) << self.shl[lane];
            let x = if self.signed {
                ((x as i32) >> self.shr[lane]) as u32
            } else {
                x >> self.shr[lane]
            };
            let v = match self.conv {
                Conv::Bits => x,
                Conv::Unorm => ((x as i32 as f32) / self.div[lane]).to_bits(),
                Conv::Snorm => {
                    let f = (x as i32 as f32) / self.div[lane];
                    (if f < -1.0 { -1.0 } else { f }).to_bits()
                }
                Conv::SmallFloat => self.small_float(lane, x),
            };
            *out = (v & self.present[lane]) | self.defaults[lane];
        }
        out
    }

    /// Exact widening of a 5-bit-exponent float field (see the module comment).
    #[inline(always)]
    fn small_float(&self, lane: usize, x: u32) -> u32 {
        let mag = x & self.mag_mask[lane];
        let sign = (x & self.sign_mask[lane]) << 16;
        let v = if mag < self.sub_limit[lane] {
            ((mag as i32 as f32) * self.sub_scale[lane]).to_bits()
        } else {
            let n = (mag << self.mant_shift[lane]).wrapping_add(REBIAS);
            if mag >= self.exp_max[lane] {
                n.wrapping_add(REBIAS)
            } else {
                n
            }
        };
        v | sign
    }
}

/// Copies one element's bytes at `addr` into a 16-byte chunk: straight from the buffer when 16
/// bytes are available there, else the element's `size` bytes followed by zeros. The caller
/// has checked `addr + size <= data.len()`.
#[inline(always)]
pub fn chunk_at(data: &[u8], addr: usize, size: usize) -> [u8; 16] {
    match data.get(addr..addr + 16) {
        Some(s) => s.try_into().unwrap_or([0; 16]),
        None => {
            let mut c = [0u8; 16];
            c[..size].copy_from_slice(&data[addr..addr + size]);
            c
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::decode_element;
    use crate::format::vertex_formats;

    #[test]
    fn every_vertex_format_compiles() {
        let n = vertex_formats()
            .filter(|f| LaneProgram::compile(f).is_none())
            .map(|f| f.name)
            .collect::<Vec<_>>();
        assert!(n.is_empty(), "no lane program for {n:?}");
        assert_eq!(vertex_formats().count(), 47);
    }

    #[test]
    fn program_matches_reference_on_edge_codes() {
        // Every 16-bit pattern in every 16-bit window of each format, zeros elsewhere.
        for info in vertex_formats() {
            let p = LaneProgram::compile(info).unwrap();
            let size = info.byte_size() as usize;
            for pos in (0..size).step_by(2) {
                for v in (0..=u16::MAX)
                    .step_by(7)
                    .chain([0x7c01, 0xfc01, 0x8000, 0xffff])
                {
                    let mut chunk = [0u8; 16];
                    chunk[pos] = v as u8;
                    if pos + 1 < size {
                        chunk[pos + 1] = (v >> 8) as u8;
                    }
                    assert_eq!(
                        p.run(&chunk),
                        decode_element(info, &chunk[..size]),
                        "{} bytes {:02x?}",
                        info.name,
                        &chunk[..size]
                    );
                }
            }
        }
    }

    #[test]
    fn copy32_classification_comes_from_the_table() {
        let copies = vertex_formats()
            .filter(|f| LaneProgram::compile(f).unwrap().is_copy32())
            .count();
        // R32G32B32A32/R32G32B32/R32G32/R32 × FLOAT/UINT/SINT.
        assert_eq!(copies, 12);
    }
}
