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
#![forbid(unsafe_code)]

use crate::fetch::Isa;
use crate::format::{FloatEncoding, Kind};
use crate::layout::{InputClass, InputLayout};

use super::element::{encode_small_float, encode_snorm, encode_unorm, field_mask};
use super::{EncodeError, Rounding, WriterOptions, check_format};

/// Vertices per block.
const BLOCK: usize = 128;

/// The conversion shared by every component of a packed element (every IA format has one
/// kind throughout).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Conv {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Half,
    Small,
    Bits,
}

/// Up to four components of one conversion packed into at most 8 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Packed {
    conv: Conv,
    n: usize,
    bytes: usize,
    lanes: [usize; 4],
    bits: [u32; 4],
    shifts: [u32; 4],
    encs: [FloatEncoding; 4],
    /// The AVX2 kernel of this element at the plan's rounding, where there is one.
    #[cfg(target_arch = "x86_64")]
    simd: Option<super::simd::Kernel>,
}

// A plan holds one per element (a handful): the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
enum ElemKind {
    /// Copy `lanes` 32-bit lanes.
    Copy { lanes: usize },
    /// Components packed into ≤ 8 bytes.
    Packed(Packed),
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
/// value. Per-vertex and per-instance elements are compiled into two parts: per-vertex
/// elements encode from vertex rows ([`EncodePlan::encode_registers`], into the per-vertex
/// slots [`EncodePlan::slots`]), per-instance elements from instance-record rows
/// ([`EncodePlan::encode_instances`], into [`EncodePlan::instance_slots`]). Record `r` of a
/// per-instance element of step rate `s` is what the input assembler reads for instances
/// `r·s … r·s + s − 1` (D3D11.3 §8.4: the element address advances once every `s` instances;
/// record 0 for every instance when `s` is 0), the same records [`super::VertexWriter`] writes.
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
    isa: Isa,
    padding: u8,
    /// The per-vertex elements and slots.
    vertex: Part,
    /// The per-instance elements and slots.
    instance: Part,
}

/// The compiled elements of one input class: rows are that class's elements in array order.
#[derive(Clone, Debug, PartialEq, Default)]
struct Part {
    /// Rows per record (vertex or instance record): the class's element count.
    rows: usize,
    /// (slot, stride) of each output buffer.
    slots: Vec<(u32, u32)>,
    /// Per slot: the byte ranges inside a record that no element covers.
    gaps: Vec<Vec<(usize, usize)>>,
    ops: Vec<ElemOp>,
}

impl EncodePlan {
    /// Compiles a plan for `layout` with `options` (rounding, padding, strides; `max_bytes` is
    /// not used: the caller provides the output).
    pub fn new(layout: &InputLayout, options: &WriterOptions) -> Result<EncodePlan, EncodeError> {
        Ok(EncodePlan {
            rounding: options.rounding,
            isa: Isa::detect(),
            padding: options.padding,
            vertex: Part::compile(layout, options, InputClass::PerVertex)?,
            instance: Part::compile(layout, options, InputClass::PerInstance)?,
        })
    }

    /// The plan with kernels of `isa` ([`Isa::Avx2`] and [`Isa::Avx512`] run the AVX2
    /// kernels of packed UNORM, SNORM, UINT and SINT elements, and of binary16 elements at
    /// [`Rounding::Nearest`]; everything else, and every element on a CPU without AVX2, FMA
    /// and F16C, runs the portable code). The default is [`Isa::detect`]. The bytes are the same either way.
    pub fn with_isa(mut self, isa: Isa) -> EncodePlan {
        self.isa = isa;
        self
    }

    /// The instruction set the plan was asked to use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// The per-vertex output buffers' slots and strides, in the order
    /// [`EncodePlan::encode_registers`] takes them.
    pub fn slots(&self) -> &[(u32, u32)] {
        &self.vertex.slots
    }

    /// Rows per vertex: the layout's per-vertex element count (all its elements when it has
    /// no per-instance data).
    pub fn rows(&self) -> usize {
        self.vertex.rows
    }

    /// The per-instance output buffers' slots and strides, in the order
    /// [`EncodePlan::encode_instances`] takes them.
    pub fn instance_slots(&self) -> &[(u32, u32)] {
        &self.instance.slots
    }

    /// Rows per instance record: the layout's per-instance element count.
    pub fn instance_rows(&self) -> usize {
        self.instance.rows
    }

    /// Encodes `rows.len() / self.rows()` vertices (one row per per-vertex element, array
    /// order, vertex-major) into `out` (one buffer per [`EncodePlan::slots`] entry, each at
    /// least `vertices × stride` bytes) and returns the vertex count. Bytes past
    /// `vertices × stride` are not touched.
    pub fn encode_registers(
        &self,
        rows: &[[u32; 4]],
        out: &mut [&mut [u8]],
    ) -> Result<usize, EncodeError> {
        self.vertex.encode(
            self.rounding,
            self.simd(),
            self.padding,
            rows,
            out,
            "vertices",
        )
    }

    /// Encodes `rows.len() / self.instance_rows()` instance records (one row per
    /// per-instance element, array order, record-major) into `out` (one buffer per
    /// [`EncodePlan::instance_slots`] entry, each at least `records × stride` bytes) and
    /// returns the record count. Every element of a slot has the slot's step rate (R13);
    /// see the type's documentation for which instances read record `r`.
    pub fn encode_instances(
        &self,
        rows: &[[u32; 4]],
        out: &mut [&mut [u8]],
    ) -> Result<usize, EncodeError> {
        self.instance.encode(
            self.rounding,
            self.simd(),
            self.padding,
            rows,
            out,
            "instance records",
        )
    }

    /// Whether packed elements may take their SIMD kernels.
    fn simd(&self) -> bool {
        self.isa != Isa::Portable
    }
}

impl Part {
    /// Compiles the elements and slots of `class`.
    fn compile(
        layout: &InputLayout,
        options: &WriterOptions,
        class: InputClass,
    ) -> Result<Part, EncodeError> {
        let mut slots = Vec::new();
        for s in layout.slots().iter().filter(|s| s.class == class) {
            let stride = match options
                .strides
                .iter()
                .rev()
                .find(|(slot, _)| *slot == s.slot)
            {
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
        let of_class = layout
            .elements()
            .iter()
            .enumerate()
            .filter(|(_, e)| e.class == class);
        for (row, (element, e)) in of_class.enumerate() {
            let info = check_format(e.format)?;
            let buffer = slots.iter().position(|(s, _)| *s == e.slot).ok_or(
                EncodeError::InconsistentLayout {
                    element,
                    slot: e.slot,
                },
            )?;
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
                if size > 8 || comps.len() > 4 {
                    // No IA format is like that; refuse rather than guess.
                    return Err(EncodeError::Shape(format!(
                        "{}: no compiled encoding for a {size}-byte packed element",
                        info.name
                    )));
                }
                let first = comps[0];
                let conv = match first.kind {
                    Kind::Unorm => Conv::Unorm,
                    Kind::Snorm => Conv::Snorm,
                    Kind::Uint | Kind::Sint if first.bits == 32 => Conv::Bits,
                    Kind::Uint => Conv::Uint,
                    Kind::Sint => Conv::Sint,
                    _ => match first.float_encoding() {
                        Some(F32) => Conv::Bits,
                        Some(HALF) => Conv::Half,
                        _ => Conv::Small,
                    },
                };
                let mut p = Packed {
                    conv,
                    n: 0,
                    bytes: size,
                    lanes: [0; 4],
                    bits: [0; 4],
                    shifts: [0; 4],
                    encs: [HALF; 4],
                    #[cfg(target_arch = "x86_64")]
                    simd: None,
                };
                for c in &comps {
                    let Some(lane) = c.channel.lane() else {
                        continue;
                    };
                    if c.kind != first.kind || c.bits == 32 && conv != Conv::Bits {
                        return Err(EncodeError::Shape(format!(
                            "{}: no compiled encoding for components of mixed kinds",
                            info.name
                        )));
                    }
                    p.lanes[p.n] = lane;
                    p.bits[p.n] = c.bits as u32;
                    p.shifts[p.n] = c.bit_offset as u32;
                    p.encs[p.n] = c.float_encoding().unwrap_or(HALF);
                    p.n += 1;
                }
                #[cfg(target_arch = "x86_64")]
                {
                    use super::simd::{Conv as S, Kernel};
                    let conv = match conv {
                        Conv::Unorm => Some(S::Unorm),
                        Conv::Snorm => Some(S::Snorm),
                        Conv::Uint => Some(S::Uint),
                        Conv::Sint => Some(S::Sint),
                        // The kernel rounds to nearest even (SCHEMA.md `nearest`) only.
                        Conv::Half if options.rounding == Rounding::Nearest => Some(S::Half),
                        _ => None,
                    };
                    let comps: Vec<_> = (0..p.n)
                        .map(|i| (p.lanes[i], p.bits[i], p.shifts[i]))
                        .collect();
                    p.simd = conv.and_then(|c| Kernel::new(c, p.bytes, &comps));
                }
                ElemKind::Packed(p)
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
        Ok(Part {
            rows: ops.len(),
            slots,
            gaps,
            ops,
        })
    }

    /// Encodes whole records of this class: `rows.len() / self.rows` of them.
    #[allow(clippy::too_many_arguments)]
    fn encode(
        &self,
        rounding: Rounding,
        simd: bool,
        padding: u8,
        rows: &[[u32; 4]],
        out: &mut [&mut [u8]],
        what: &str,
    ) -> Result<usize, EncodeError> {
        if self.rows == 0 {
            return Err(EncodeError::Shape(format!(
                "the layout has no elements for {what}: nothing to encode"
            )));
        }
        if !rows.len().is_multiple_of(self.rows) {
            return Err(EncodeError::Shape(format!(
                "{} register rows are not a whole number of {what} of {} rows",
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
                    "slot {slot}: output holds {} bytes, {n} {what} of stride {stride} need {need}",
                    b.len()
                )));
            }
        }
        let mut first = 0;
        while first < n {
            let count = BLOCK.min(n - first);
            let block = &rows[first * self.rows..(first + count) * self.rows];
            for (b, gaps) in self.gaps.iter().enumerate() {
                let stride = self.slots[b].1 as usize;
                for v in 0..count {
                    let base = (first + v) * stride;
                    for &(a, z) in gaps {
                        out[b][base + a..base + z].fill(padding);
                    }
                }
            }
            for op in &self.ops {
                let stride = self.slots[op.buffer].1 as usize;
                let buf = &mut *out[op.buffer];
                let base = first * stride + op.offset;
                match &op.kind {
                    ElemKind::Copy { lanes } => {
                        let out = &mut buf[base..];
                        match lanes {
                            1 => self.copy::<4>(block, op.row, stride, count, out),
                            2 => self.copy::<8>(block, op.row, stride, count, out),
                            3 => self.copy::<12>(block, op.row, stride, count, out),
                            _ => self.copy::<16>(block, op.row, stride, count, out),
                        }
                    }
                    ElemKind::Packed(p) => {
                        let out = &mut buf[base..];
                        #[cfg(target_arch = "x86_64")]
                        if let Some(k) = p.simd.as_ref().filter(|_| simd)
                            && super::simd::encode(k, block, self.rows, op.row, stride, count, out)
                        {
                            continue;
                        }
                        #[cfg(not(target_arch = "x86_64"))]
                        let _ = simd;
                        self.packed(rounding, block, op.row, stride, count, p, out);
                    }
                }
            }
            first += count;
        }
        Ok(n)
    }

    /// A copied element over a block: the first `B` bytes of each vertex's row.
    #[inline]
    fn copy<const B: usize>(
        &self,
        block: &[[u32; 4]],
        row: usize,
        stride: usize,
        count: usize,
        out: &mut [u8],
    ) {
        for (rows, o) in block
            .chunks_exact(self.rows)
            .take(count)
            .zip(out.chunks_mut(stride.max(1)))
        {
            let bytes: &[u8; 16] = bytemuck::cast_ref(&rows[row]);
            o[..B].copy_from_slice(&bytes[..B]);
        }
    }

    /// One packed element over a block: `out` starts at the first vertex's element.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn packed(
        &self,
        rounding: Rounding,
        block: &[[u32; 4]],
        row: usize,
        stride: usize,
        count: usize,
        p: &Packed,
        out: &mut [u8],
    ) {
        let bits = p.bits;
        let max = p.bits.map(field_mask);
        let smin = p.bits.map(|b| -(1i64 << (b.max(1) - 1)) as i32);
        let smax = p.bits.map(|b| ((1i64 << (b.max(1) - 1)) - 1) as i32);
        match p.conv {
            Conv::Unorm => self.run(block, row, stride, count, p, out, |x, i| {
                encode_unorm(f32::from_bits(x), bits[i])
            }),
            Conv::Snorm => self.run(block, row, stride, count, p, out, |x, i| {
                encode_snorm(f32::from_bits(x), bits[i])
            }),
            Conv::Uint => self.run(block, row, stride, count, p, out, |x, i| x.min(max[i])),
            Conv::Sint => self.run(block, row, stride, count, p, out, |x, i| {
                ((x as i32).clamp(smin[i], smax[i]) as u32) & max[i]
            }),
            Conv::Bits => self.run(block, row, stride, count, p, out, |x, _| x),
            Conv::Half => self.run(block, row, stride, count, p, out, |x, _| half(x, rounding)),
            Conv::Small => self.run(block, row, stride, count, p, out, |x, i| {
                encode_small_float(x, p.encs[i], rounding)
            }),
        }
    }

    /// The vertex loop of [`EncodePlan::packed`], monomorphised per conversion and width.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run<F: Fn(u32, usize) -> u32>(
        &self,
        block: &[[u32; 4]],
        row: usize,
        stride: usize,
        count: usize,
        p: &Packed,
        out: &mut [u8],
        f: F,
    ) {
        match p.bytes {
            1 => self.run_bytes::<1, F>(block, row, stride, count, p, out, f),
            2 => self.run_bytes::<2, F>(block, row, stride, count, p, out, f),
            4 => self.run_bytes::<4, F>(block, row, stride, count, p, out, f),
            _ => self.run_bytes::<8, F>(block, row, stride, count, p, out, f),
        }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run_bytes<const B: usize, F: Fn(u32, usize) -> u32>(
        &self,
        block: &[[u32; 4]],
        row: usize,
        stride: usize,
        count: usize,
        p: &Packed,
        out: &mut [u8],
        f: F,
    ) {
        match p.n {
            1 => self.run_n::<B, 1, F>(block, row, stride, count, p, out, f),
            2 => self.run_n::<B, 2, F>(block, row, stride, count, p, out, f),
            3 => self.run_n::<B, 3, F>(block, row, stride, count, p, out, f),
            _ => self.run_n::<B, 4, F>(block, row, stride, count, p, out, f),
        }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run_n<const B: usize, const N: usize, F: Fn(u32, usize) -> u32>(
        &self,
        block: &[[u32; 4]],
        row: usize,
        stride: usize,
        count: usize,
        p: &Packed,
        out: &mut [u8],
        f: F,
    ) {
        let lanes: [usize; N] = std::array::from_fn(|i| p.lanes[i] & 3);
        let shifts: [u32; N] = std::array::from_fn(|i| p.shifts[i] & 63);
        for (rows, o) in block
            .chunks_exact(self.rows)
            .take(count)
            .zip(out.chunks_mut(stride.max(1)))
        {
            let r = &rows[row];
            let mut acc = 0u64;
            for i in 0..N {
                acc |= (f(r[lanes[i]], i) as u64) << shifts[i];
            }
            o[..B].copy_from_slice(&acc.to_le_bytes()[..B]);
        }
    }
}

const HALF: FloatEncoding = FloatEncoding::BINARY16;
const F32: FloatEncoding = FloatEncoding::BINARY32;
/// Mantissa bits a half has fewer than a binary32 (13).
const HALF_DROP: u32 = (F32.mantissa_bits - HALF.mantissa_bits) as u32;
/// The exponent-bias difference in the binary32 exponent field (`0x3800_0000`).
const HALF_REBIAS: u32 = ((F32.bias() - HALF.bias()) as u32) << F32.mantissa_bits;
/// 2^−14, the smallest normal half, as binary32 bits (`0x3880_0000`).
const HALF_MIN_NORMAL: u32 = HALF_REBIAS + (1 << F32.mantissa_bits);
/// 2^16, where truncation stops giving a finite half (`0x4780_0000`).
const HALF_LIMIT_TRUNCATE: u32 = ((F32.bias() + HALF.bias() + 1) as u32) << F32.mantissa_bits;
/// 65520, the largest half plus half an ulp, where rounding to nearest overflows
/// (`0x477f_f000`).
const HALF_LIMIT_NEAREST: u32 = HALF_LIMIT_TRUNCATE - (1 << (HALF_DROP - 1));

/// binary32 → binary16: values whose result is a finite normal half take the rebias-and-round
/// shortcut (same bits as [`encode_small_float`], checked for every such half by the tests);
/// everything else (denormals, overflow, infinities, NaNs) takes the general routine.
#[inline(always)]
fn half(bits: u32, rounding: Rounding) -> u32 {
    let abs = bits & !F32.sign_mask();
    let sign = (bits >> (F32.width() - HALF.width())) & HALF.sign_mask();
    match rounding {
        // [2^-14, 65520): rounds to a normal finite half.
        Rounding::Nearest if (HALF_MIN_NORMAL..HALF_LIMIT_NEAREST).contains(&abs) => {
            let round = (1 << (HALF_DROP - 1)) - 1 + ((abs >> HALF_DROP) & 1);
            sign | ((abs - HALF_REBIAS + round) >> HALF_DROP)
        }
        // [2^-14, 65536): truncates to a normal finite half.
        Rounding::D3d if (HALF_MIN_NORMAL..HALF_LIMIT_TRUNCATE).contains(&abs) => {
            sign | ((abs - HALF_REBIAS) >> HALF_DROP)
        }
        _ => encode_small_float(bits, HALF, rounding),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_shortcut_bounds_are_the_binary16_limits() {
        // The shortcut's bounds, derived from FloatEncoding::BINARY16, are the binary16 limits
        // of IEEE 754 (smallest normal 2^-14, largest finite 65504 with an ulp of 32).
        assert_eq!(HALF_MIN_NORMAL, 2f32.powi(-14).to_bits());
        assert_eq!(HALF_LIMIT_NEAREST, (65504f32 + 16.0).to_bits());
        assert_eq!(HALF_LIMIT_TRUNCATE, 65536f32.to_bits());
        assert_eq!(HALF_REBIAS, 0x3800_0000);
        assert_eq!(HALF_DROP, 13);
    }

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
                        assert_eq!(
                            half(x, rounding),
                            encode_small_float(x, HALF, rounding),
                            "{x:#010x}"
                        );
                    }
                }
            }
        }
    }
}
