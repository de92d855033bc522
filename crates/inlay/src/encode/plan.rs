//! The compiled fast encode: register rows in, packed vertices out.
//!
//! Per element an operation is compiled from the format table's component list: elements
//! whose components are 32-bit FLOAT/UINT/SINT in lane order are a byte copy of the lanes
//! (the encoding of a 32-bit component is the identity at both roundings, and a 32-bit UINT or
//! SINT never saturates); every other element is up to four component conversions OR-ed into
//! one 64-bit word at the components' bit positions. Vertices run in blocks, element by element
//! and component by component, so every inner loop does one kind of conversion. The result is
//! bit-identical to [`super::encode_element`] (differential tests over every IA format and the
//! benchmark workloads).

use crate::format::{FloatEncoding, Kind};
use crate::layout::{InputClass, InputLayout};

use super::element::{encode_small_float, encode_snorm, encode_unorm, field_mask};
use super::{EncodeError, Rounding, WriterOptions, check_format};

/// Vertices per block.
const BLOCK: usize = 128;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Conv {
    Unorm(u32),
    Snorm(u32),
    Uint(u32),
    Sint(u32),
    Half,
    Small(FloatEncoding),
    Bits,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct CompOp {
    lane: usize,
    shift: u32,
    conv: Conv,
}

#[derive(Clone, Debug, PartialEq)]
enum ElemKind {
    /// Copy `lanes` 32-bit lanes.
    Copy { lanes: usize },
    /// Components packed into ≤ 8 bytes.
    Packed { comps: Vec<CompOp>, bytes: usize },
}

#[derive(Clone, Debug, PartialEq)]
struct ElemOp {
    row: usize,
    buffer: usize,
    offset: usize,
    kind: ElemKind,
}

/// A compiled encoder for the per-vertex elements of one layout.
///
/// Input: register rows, vertex-major, one `[u32; 4]` row per layout element in array order
/// (the lanes [`super::encode_element`] takes); output: one buffer per used slot
/// ([`EncodePlan::slots`]) with the plan's strides, bytes no element covers set to the padding
/// value. Only per-vertex layouts compile (per-instance data is small: write it with
/// [`super::VertexWriter`]).
///
/// ```
/// use inlay::element::InputElementDesc;
/// use inlay::encode::{EncodePlan, WriterOptions};
/// use inlay::format::Format;
/// use inlay::target::Target;
/// let elements = [InputElementDesc::per_vertex("COLOR", 0, Format::R8G8B8A8_UNORM, 0, 0)];
/// let layout = inlay::validation::layout_without_shader(&Target::default(), &elements)
///     .layout
///     .unwrap();
/// let plan = EncodePlan::new(&layout, &WriterOptions::default()).unwrap();
/// let half = 0.5f32.to_bits();
/// let mut out = vec![0u8; 4];
/// plan.encode_registers(&[[half, 0, 0x3f80_0000, 0]], &mut [&mut out]).unwrap();
/// assert_eq!(out, [0x80, 0x00, 0xff, 0x00]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct EncodePlan {
    rounding: Rounding,
    padding: u8,
    rows: usize,
    /// (slot, stride, covered byte ranges sorted)
    slots: Vec<(u32, u32)>,
    /// Per slot: the byte ranges inside a vertex that no element covers.
    gaps: Vec<Vec<(usize, usize)>>,
    ops: Vec<ElemOp>,
}

impl EncodePlan {
    /// Compiles a plan for `layout` with `options` (rounding, padding, strides; `max_bytes` is
    /// not used: the caller provides the output).
    pub fn new(layout: &InputLayout, options: &WriterOptions) -> Result<EncodePlan, EncodeError> {
        let mut slots = Vec::new();
        for s in &layout.slots {
            if s.class == InputClass::PerInstance {
                return Err(EncodeError::Shape(format!(
                    "slot {} is per-instance: EncodePlan encodes per-vertex data only (use VertexWriter)",
                    s.slot
                )));
            }
            let stride = match options.strides.iter().rev().find(|(slot, _)| *slot == s.slot) {
                Some(&(_, st)) if st < s.min_stride => {
                    return Err(EncodeError::StrideTooSmall {
                        slot: s.slot,
                        stride: st,
                        min: s.min_stride,
                    });
                }
                Some(&(_, st)) => st,
                None => s.min_stride,
            };
            slots.push((s.slot, stride));
        }
        let mut ops = Vec::new();
        let mut covered: Vec<Vec<(usize, usize)>> = vec![Vec::new(); slots.len()];
        for (row, e) in layout.elements.iter().enumerate() {
            let info = check_format(e.format)?;
            let buffer = slots
                .iter()
                .position(|(s, _)| *s == e.slot)
                .expect("every element's slot is a layout slot");
            let size = info.byte_size() as usize;
            covered[buffer].push((e.offset as usize, e.offset as usize + size));
            let comps: Vec<_> = info.present().collect();
            let copy = comps.iter().enumerate().all(|(i, c)| {
                c.bits == 32
                    && c.bit_offset as usize == 32 * i
                    && c.channel.lane() == Some(i)
                    && matches!(c.kind, Kind::Float | Kind::Uint | Kind::Sint)
            });
            let kind = if copy {
                ElemKind::Copy { lanes: comps.len() }
            } else {
                let mut ops = Vec::new();
                for c in &comps {
                    let Some(lane) = c.channel.lane() else {
                        continue;
                    };
                    let bits = c.bits as u32;
                    let conv = match c.kind {
                        Kind::Unorm => Conv::Unorm(bits),
                        Kind::Snorm => Conv::Snorm(bits),
                        Kind::Uint if bits == 32 => Conv::Bits,
                        Kind::Sint if bits == 32 => Conv::Bits,
                        Kind::Uint => Conv::Uint(bits),
                        Kind::Sint => Conv::Sint(bits),
                        Kind::Float => match c.float_encoding() {
                            Some(f) if f.mantissa_bits == 23 => Conv::Bits,
                            Some(f) if f.mantissa_bits == 10 && f.signed => Conv::Half,
                            Some(f) => Conv::Small(f),
                            None => unreachable!("check_format accepted the row"),
                        },
                        _ => unreachable!("check_format accepted the row"),
                    };
                    ops.push(CompOp {
                        lane,
                        shift: c.bit_offset as u32,
                        conv,
                    });
                }
                if size > 8 {
                    // Wider packed elements do not exist among the IA formats; compile them
                    // as one op per 8-byte half would need a split. Refuse rather than guess.
                    return Err(EncodeError::Shape(format!(
                        "{}: no compiled encoding for a {size}-byte packed element",
                        info.name
                    )));
                }
                ElemKind::Packed {
                    comps: ops,
                    bytes: size,
                }
            };
            ops.push(ElemOp {
                row,
                buffer,
                offset: e.offset as usize,
                kind,
            });
        }
        let gaps = covered
            .into_iter()
            .zip(&slots)
            .map(|(mut c, &(_, stride))| {
                c.sort();
                let mut gaps = Vec::new();
                let mut at = 0;
                for (a, b) in c {
                    if a > at {
                        gaps.push((at, a.min(stride as usize)));
                    }
                    at = at.max(b);
                }
                if (stride as usize) > at {
                    gaps.push((at, stride as usize));
                }
                gaps
            })
            .collect();
        Ok(EncodePlan {
            rounding: options.rounding,
            padding: options.padding,
            rows: layout.elements.len(),
            slots,
            gaps,
            ops,
        })
    }

    /// The output buffers' slots and strides, in the order [`EncodePlan::encode_registers`]
    /// takes them.
    pub fn slots(&self) -> &[(u32, u32)] {
        &self.slots
    }

    /// Rows per vertex (the layout's element count).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Encodes `rows.len() / self.rows()` vertices into `out` (one buffer per
    /// [`EncodePlan::slots`] entry, each at least `vertices × stride` bytes) and returns the
    /// vertex count. Bytes past `vertices × stride` are not touched.
    pub fn encode_registers(
        &self,
        rows: &[[u32; 4]],
        out: &mut [&mut [u8]],
    ) -> Result<usize, EncodeError> {
        if self.rows == 0 || rows.len() % self.rows != 0 {
            return Err(EncodeError::Shape(format!(
                "{} register rows are not a whole number of vertices of {} rows",
                rows.len(),
                self.rows
            )));
        }
        let n = rows.len() / self.rows;
        if out.len() != self.slots.len() {
            return Err(EncodeError::Shape(format!(
                "{} output buffers given, the plan writes {} slots",
                out.len(),
                self.slots.len()
            )));
        }
        for (b, &(slot, stride)) in out.iter().zip(&self.slots) {
            let need = n as u64 * stride as u64;
            if (b.len() as u64) < need {
                return Err(EncodeError::Shape(format!(
                    "slot {slot}: output holds {} bytes, {n} vertices of stride {stride} need {need}",
                    b.len()
                )));
            }
        }
        let mut acc = [0u64; BLOCK];
        let mut first = 0;
        while first < n {
            let count = BLOCK.min(n - first);
            let block = &rows[first * self.rows..(first + count) * self.rows];
            for (b, gaps) in self.gaps.iter().enumerate() {
                let stride = self.slots[b].1 as usize;
                for v in 0..count {
                    let base = (first + v) * stride;
                    for &(a, z) in gaps {
                        out[b][base + a..base + z].fill(self.padding);
                    }
                }
            }
            for op in &self.ops {
                let stride = self.slots[op.buffer].1 as usize;
                let buf = &mut *out[op.buffer];
                let base = first * stride + op.offset;
                match &op.kind {
                    ElemKind::Copy { lanes } => {
                        let len = 4 * lanes;
                        for v in 0..count {
                            let row = &block[v * self.rows + op.row];
                            let bytes: &[u8; 16] = bytemuck::cast_ref(row);
                            let at = base + v * stride;
                            buf[at..at + len].copy_from_slice(&bytes[..len]);
                        }
                    }
                    ElemKind::Packed { comps, bytes } => {
                        let acc = &mut acc[..count];
                        acc.fill(0);
                        for c in comps {
                            self.component(block, op.row, c, acc);
                        }
                        for (v, a) in acc.iter().enumerate() {
                            let at = base + v * stride;
                            buf[at..at + bytes].copy_from_slice(&a.to_le_bytes()[..*bytes]);
                        }
                    }
                }
            }
            first += count;
        }
        Ok(n)
    }

    /// One component over a block, OR-ed into `acc`.
    #[inline]
    fn component(&self, block: &[[u32; 4]], row: usize, c: &CompOp, acc: &mut [u64]) {
        let rows = self.rows;
        let lane = |v: usize| block[v * rows + row][c.lane];
        let shift = c.shift;
        match c.conv {
            Conv::Unorm(bits) => {
                for (v, a) in acc.iter_mut().enumerate() {
                    *a |= (encode_unorm(f32::from_bits(lane(v)), bits) as u64) << shift;
                }
            }
            Conv::Snorm(bits) => {
                for (v, a) in acc.iter_mut().enumerate() {
                    *a |= (encode_snorm(f32::from_bits(lane(v)), bits) as u64) << shift;
                }
            }
            Conv::Uint(bits) => {
                let max = field_mask(bits);
                for (v, a) in acc.iter_mut().enumerate() {
                    *a |= (lane(v).min(max) as u64) << shift;
                }
            }
            Conv::Sint(bits) => {
                let max = (1i32 << (bits - 1)) - 1;
                let min = -(1i32 << (bits - 1));
                let mask = field_mask(bits);
                for (v, a) in acc.iter_mut().enumerate() {
                    let x = ((lane(v) as i32).clamp(min, max) as u32) & mask;
                    *a |= (x as u64) << shift;
                }
            }
            Conv::Bits => {
                for (v, a) in acc.iter_mut().enumerate() {
                    *a |= (lane(v) as u64) << shift;
                }
            }
            Conv::Half => {
                let rounding = self.rounding;
                for (v, a) in acc.iter_mut().enumerate() {
                    *a |= (half(lane(v), rounding) as u64) << shift;
                }
            }
            Conv::Small(enc) => {
                for (v, a) in acc.iter_mut().enumerate() {
                    *a |= (encode_small_float(lane(v), enc, self.rounding) as u64) << shift;
                }
            }
        }
    }
}

const HALF: FloatEncoding = match FloatEncoding::for_width(16) {
    Some(f) => f,
    None => panic!("binary16 has an encoding"),
};

/// binary32 → binary16: values whose result is a finite normal half take the rebias-and-round
/// shortcut (same bits as [`encode_small_float`], checked for every such half by the tests);
/// everything else (denormals, overflow, infinities, NaNs) takes the general routine.
#[inline(always)]
fn half(bits: u32, rounding: Rounding) -> u32 {
    let abs = bits & 0x7fff_ffff;
    let sign = (bits >> 16) & 0x8000;
    match rounding {
        // [2^-14, 65520): rounds to a normal finite half.
        Rounding::Nearest if (0x3880_0000..0x477f_f000).contains(&abs) => {
            sign | ((abs - 0x3800_0000 + 0x0fff + ((abs >> 13) & 1)) >> 13)
        }
        // [2^-14, 65536): truncates to a normal finite half.
        Rounding::D3d if (0x3880_0000..0x4780_0000).contains(&abs) => {
            sign | ((abs - 0x3800_0000) >> 13)
        }
        _ => encode_small_float(bits, HALF, rounding),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_shortcut_equals_the_general_routine_for_every_normal_range_input() {
        // Every binary32 whose exponent puts it in the shortcut's ranges, at a stride that
        // hits every rounding class (odd step), plus every value near each half boundary.
        for rounding in [Rounding::Nearest, Rounding::D3d] {
            let mut abs = 0x3800_0000u32;
            while abs < 0x4800_0000 {
                for b in [abs, abs | 0x8000_0000] {
                    assert_eq!(
                        half(b, rounding),
                        encode_small_float(b, HALF, rounding),
                        "{b:#010x} {rounding}"
                    );
                }
                abs += 0x1ff; // 2^23·16/0x1ff ≈ 260k samples per pass, every residue mod 8192 hit
            }
            for h in 0u32..0x7c00 {
                let f = crate::convert::f16_to_f32_bits(h as u16);
                for d in [-2i32, -1, 0, 1, 2] {
                    let b = (f as i32 + d) as u32;
                    let mid = f.wrapping_add(0x1000);
                    for x in [b, mid, mid.wrapping_sub(1), mid + 1] {
                        assert_eq!(half(x, rounding), encode_small_float(x, HALF, rounding), "{x:#010x}");
                    }
                }
            }
        }
    }
}
