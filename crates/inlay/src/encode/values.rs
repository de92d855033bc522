//! The checks every shell applies to values before they are encoded: which kind of number an
//! element takes, how many lanes a row gives, how many rows an array has, and each value's
//! range. `inlay encode` (text values), Python's `inlay.encode` (numpy arrays) and the Blender
//! add-on go through these functions, so one input gets one answer and one message.
//!
//! A message names the element (as `inlay decode` names it: `TEXCOORD1`), its format, the
//! lane and the value; the shell puts where the value came from in front (a file and line, an
//! array and row).
#![forbid(unsafe_code)]

use crate::format::{Format, Kind};
use crate::layout::{InputLayout, LayoutElement};

use super::{EncodeError, check_format};

/// Lane names, x to w.
pub const LANES: [&str; 4] = ["x", "y", "z", "w"];

/// Why a value (or a row, or an array) cannot be encoded into an element. The message is the
/// same in every shell.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ValueError(pub String);

/// How a caller's values for one layout element are read: the element's name, format, the
/// kind of its lanes and which lanes its format stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementValues {
    /// `NAME<index>` as `inlay decode` prints it (`TEXCOORD1`, `POSITION0`).
    pub name: String,
    /// The element's format.
    pub format: Format,
    /// The kind of its first component: floats for FLOAT/UNORM/SNORM, integers for UINT/SINT.
    pub kind: Kind,
    /// Lanes the format stores (bit 0 = x).
    pub mask: u8,
}

impl ElementValues {
    /// The values of one layout element, named `name`. Fails for a format that cannot be
    /// encoded.
    pub fn new(name: impl Into<String>, element: &LayoutElement) -> Result<Self, EncodeError> {
        let info = check_format(element.format)?;
        Ok(ElementValues {
            name: name.into(),
            format: element.format,
            kind: info.first_kind().unwrap_or(Kind::Float),
            mask: info.lane_mask(),
        })
    }

    /// Every element of `layout`, named `NAME<index>` (the names of `inlay decode`'s columns);
    /// two elements of one name (semantics compare case-insensitively) are refused, since a
    /// value could not say which one it is for.
    pub fn of_layout(layout: &InputLayout) -> Result<Vec<ElementValues>, ValueError> {
        let mut out: Vec<ElementValues> = Vec::with_capacity(layout.elements().len());
        for e in layout.elements() {
            let name = format!("{}{}", e.semantic_name, e.semantic_index);
            if out.iter().any(|c| c.name.eq_ignore_ascii_case(&name)) {
                return Err(ValueError(format!(
                    "two elements of the layout are both named {name} in the values' columns"
                )));
            }
            out.push(ElementValues::new(name, e).map_err(|er| ValueError(er.to_string()))?);
        }
        Ok(out)
    }

    /// How many lanes a row must give: up to the format's last stored lane.
    pub fn lanes_needed(&self) -> usize {
        (0..4).filter(|l| self.mask & (1 << l) != 0).count()
    }

    /// Whether the element takes integers (a UINT or SINT format).
    pub fn takes_integers(&self) -> bool {
        matches!(self.kind, Kind::Uint | Kind::Sint)
    }

    fn kind_word(&self) -> &'static str {
        match self.kind {
            Kind::Uint => "a UINT format",
            Kind::Sint => "a SINT format",
            _ => "whose values are floats",
        }
    }

    /// A row of `given` values: at least the format's components, at most a register's four
    /// lanes (four values are x, y, z, w; fewer are the format's lanes in order).
    pub fn check_lane_count(&self, given: usize) -> Result<(), ValueError> {
        let needed = self.lanes_needed();
        if given < needed {
            return Err(ValueError(format!(
                "{}: {given} values, {} has {needed} components",
                self.name, self.format
            )));
        }
        if given > 4 {
            return Err(ValueError(format!(
                "{}: {given} values, a register has 4 lanes",
                self.name
            )));
        }
        Ok(())
    }

    /// A lane the format stores that the input lacks (a CSV header without `NAME.y`).
    pub fn missing_lane(&self, lane: usize) -> ValueError {
        ValueError(format!(
            "{}: lane {} is missing ({} has it; the header lacks {}.{})",
            self.name, LANES[lane], self.format, self.name, LANES[lane]
        ))
    }

    /// `rows` rows given where `expected` are needed (`why` says where that count comes from).
    pub fn check_rows(&self, rows: u64, expected: u64, why: &str) -> Result<(), ValueError> {
        if rows != expected {
            return Err(ValueError(format!(
                "{}: {rows} rows, but {expected} are expected ({why})",
                self.name
            )));
        }
        Ok(())
    }

    fn lane_name(&self, lane: usize) -> String {
        format!("{}.{}", self.name, LANES[lane.min(3)])
    }

    /// An integer for lane `lane`: the 32-bit register lane it is (two's complement for SINT).
    /// For a float format the integer is converted to the nearest binary32 value.
    pub fn lane_from_int(&self, lane: usize, value: i128) -> Result<u32, ValueError> {
        match self.kind {
            Kind::Uint => u32::try_from(value).map_err(|_| self.int_range(lane, &value)),
            Kind::Sint => i32::try_from(value)
                .map(|v| v as u32)
                .map_err(|_| self.int_range(lane, &value)),
            _ => self.float_lane(lane, value as f32, &value),
        }
    }

    /// A float for lane `lane` of a FLOAT, UNORM or SNORM element: the nearest binary32
    /// value's bits (NaN, infinities and −0 as they are). For a UINT or SINT element a float
    /// is refused, whole or not, as the command line refuses `1.0` there.
    pub fn lane_from_float(&self, lane: usize, value: f64) -> Result<u32, ValueError> {
        if self.takes_integers() {
            return Err(self.not_integer(lane, &value));
        }
        self.float_lane(lane, value as f32, &value)
    }

    /// A binary32 float for lane `lane` of a FLOAT, UNORM or SNORM element, its bits as they
    /// are (a signalling NaN's payload too, which a trip through binary64 would quiet).
    pub fn lane_from_f32(&self, lane: usize, value: f32) -> Result<u32, ValueError> {
        if self.takes_integers() {
            return Err(self.not_integer(lane, &value));
        }
        self.float_lane(lane, value, &value)
    }

    /// One value as text, as `inlay decode` prints it: an integer for UINT/SINT formats, a
    /// float (Rust's syntax: `1.0`, `-0.0`, `1e-45`, `NaN`, `inf`) otherwise; with `hex`, the
    /// 32-bit register as 8 hex digits.
    pub fn lane_from_text(&self, lane: usize, text: &str, hex: bool) -> Result<u32, ValueError> {
        let t = text.trim();
        if hex {
            if t.len() == 8 && t.bytes().all(|b| b.is_ascii_hexdigit()) {
                return u32::from_str_radix(t, 16).map_err(|_| {
                    ValueError(format!("{}: `{t}` is not hex", self.lane_name(lane)))
                });
            }
            return Err(ValueError(format!(
                "{}: `{t}` is not a 32-bit register as 8 hex digits (--hex)",
                self.lane_name(lane)
            )));
        }
        match self.kind {
            Kind::Uint | Kind::Sint => match t.parse::<i128>() {
                Ok(v) => self.lane_from_int(lane, v),
                Err(_) => Err(self.not_integer(lane, &t)),
            },
            _ => {
                // Rust's float syntax, which is what decode prints: 1.0, -0.0, 1e-45, NaN,
                // inf, -inf. Parsed straight to binary32 (one rounding from the decimal).
                let ok = !t.is_empty()
                    && t.bytes()
                        .all(|b| b.is_ascii_digit() || b"+-.eEinfINFaN".contains(&b));
                match t.parse::<f32>() {
                    Ok(v) if ok => self.float_lane(lane, v, &t),
                    _ => Err(ValueError(format!(
                        "{}: `{t}` is not a number ({} is {}, whose values are floats)",
                        self.lane_name(lane),
                        self.name,
                        self.format
                    ))),
                }
            }
        }
    }

    /// The one place a binary32 value becomes a lane of a float element (`given` is the value
    /// as the caller wrote it, for messages). Range rules for float formats belong here.
    fn float_lane(
        &self,
        _lane: usize,
        value: f32,
        _given: &dyn std::fmt::Display,
    ) -> Result<u32, ValueError> {
        Ok(value.to_bits())
    }

    /// Why the format cannot hold the lane's value and the encoder must change it (clamp a
    /// UNORM/SNORM value to its range, write NaN as 0, saturate an integer to its field, round
    /// a finite float to infinity, or a negative one to 0 in an unsigned float), or `None`
    /// when the value is held up to the format's rounding. `bits` is the register lane as
    /// [`VertexWriter`](super::VertexWriter) takes it.
    pub fn clamped(&self, lane: usize, bits: u32) -> Option<String> {
        let info = self.format.info()?;
        let comp = info.present().find(|c| c.channel.lane() == Some(lane))?;
        let f = f32::from_bits(bits);
        let what = || {
            format!(
                "{} ({}) lane {}",
                self.name,
                self.format,
                LANES[lane.min(3)]
            )
        };
        match comp.kind {
            Kind::Unorm | Kind::Snorm if f.is_nan() => {
                Some(format!("{}: NaN is written as 0", what()))
            }
            Kind::Unorm if !(0.0..=1.0).contains(&f) => {
                Some(format!("{}: {f} is outside 0..1 and is clamped", what()))
            }
            Kind::Snorm if !(-1.0..=1.0).contains(&f) => {
                Some(format!("{}: {f} is outside -1..1 and is clamped", what()))
            }
            Kind::Float if comp.bits < 32 && !f.is_nan() => {
                let code = super::encode_component(comp, bits, super::Rounding::Nearest);
                let back = f32::from_bits(crate::convert::convert_component(
                    Kind::Float,
                    comp.bits as u32,
                    code,
                ));
                if f.is_finite() && back.is_infinite() {
                    Some(format!(
                        "{}: {f} is beyond the format's largest value and becomes infinity",
                        what()
                    ))
                } else if f < 0.0 && back == 0.0 {
                    Some(format!(
                        "{}: {f} is negative and the format has no sign: written as 0",
                        what()
                    ))
                } else {
                    None
                }
            }
            Kind::Uint if comp.bits < 32 && bits > super::element::field_mask(comp.bits as u32) => {
                Some(format!(
                    "{}: {bits} is beyond {} bits and is saturated",
                    what(),
                    comp.bits
                ))
            }
            Kind::Sint if comp.bits < 32 => {
                let v = bits as i32;
                let max = (1i32 << (comp.bits - 1)) - 1;
                let min = -(1i32 << (comp.bits - 1));
                (v > max || v < min).then(|| {
                    format!(
                        "{}: {v} is beyond {} signed bits and is saturated",
                        what(),
                        comp.bits
                    )
                })
            }
            _ => None,
        }
    }

    fn int_range(&self, lane: usize, value: &dyn std::fmt::Display) -> ValueError {
        let range = if self.kind == Kind::Uint {
            "from 0 to 4294967295"
        } else {
            "from -2147483648 to 2147483647"
        };
        ValueError(format!(
            "{}: `{value}` is not an integer {range} ({} is {}, {})",
            self.lane_name(lane),
            self.name,
            self.format,
            self.kind_word()
        ))
    }

    fn not_integer(&self, lane: usize, value: &dyn std::fmt::Display) -> ValueError {
        self.int_range(lane, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::InputElementDesc;
    use crate::target::Target;

    fn layout(elements: &[InputElementDesc]) -> InputLayout {
        crate::validation::layout_without_shader(&Target::default(), elements)
            .layout
            .unwrap()
    }

    #[test]
    fn kinds_counts_and_ranges() {
        let l = layout(&[
            InputElementDesc::per_vertex("TEXCOORD", 1, Format::R16G16_FLOAT, 0, 0),
            InputElementDesc::per_vertex("BLENDINDICES", 0, Format::R8G8B8A8_UINT, 0, 4),
            InputElementDesc::per_vertex("COLOR", 0, Format::R16G16_SINT, 0, 8),
        ]);
        let v = ElementValues::of_layout(&l).unwrap();
        assert_eq!(v[0].name, "TEXCOORD1");
        assert_eq!(
            v[0].check_lane_count(1).unwrap_err().0,
            "TEXCOORD1: 1 values, R16G16_FLOAT has 2 components"
        );
        assert!(v[0].check_lane_count(2).is_ok() && v[0].check_lane_count(4).is_ok());
        assert_eq!(
            v[0].check_lane_count(5).unwrap_err().0,
            "TEXCOORD1: 5 values, a register has 4 lanes"
        );
        assert_eq!(
            v[1].lane_from_float(1, 1.5).unwrap_err().0,
            "BLENDINDICES0.y: `1.5` is not an integer from 0 to 4294967295 (BLENDINDICES0 is R8G8B8A8_UINT, a UINT format)"
        );
        assert_eq!(v[1].lane_from_int(0, 4_294_967_295).unwrap(), u32::MAX);
        assert_eq!(
            v[1].lane_from_int(2, 1 << 32).unwrap_err().0,
            "BLENDINDICES0.z: `4294967296` is not an integer from 0 to 4294967295 (BLENDINDICES0 is R8G8B8A8_UINT, a UINT format)"
        );
        assert_eq!(
            v[1].lane_from_text(0, "1.5", false).unwrap_err().0,
            "BLENDINDICES0.x: `1.5` is not an integer from 0 to 4294967295 (BLENDINDICES0 is R8G8B8A8_UINT, a UINT format)"
        );
        assert_eq!(v[2].lane_from_int(1, -1).unwrap(), u32::MAX);
        assert!(v[2].lane_from_int(1, -2_147_483_649).is_err());
        assert_eq!(v[0].lane_from_int(0, 3).unwrap(), 3.0f32.to_bits());
        assert_eq!(v[0].lane_from_float(0, -0.0).unwrap(), 0x8000_0000);
        assert!(v[1].lane_from_float(0, 3.0).is_err());
        assert_eq!(
            v[0].lane_from_text(1, "0.5", false).unwrap(),
            0.5f32.to_bits()
        );
        assert_eq!(
            v[0].lane_from_text(1, "x", false).unwrap_err().0,
            "TEXCOORD1.y: `x` is not a number (TEXCOORD1 is R16G16_FLOAT, whose values are floats)"
        );
        assert_eq!(
            v[0].lane_from_text(1, "7fc00001", true).unwrap(),
            0x7fc0_0001
        );
        assert_eq!(v[0].clamped(0, 1.0f32.to_bits()), None);
        assert_eq!(
            v[0].clamped(1, 65520.0f32.to_bits()).unwrap(),
            "TEXCOORD1 (R16G16_FLOAT) lane y: 65520 is beyond the format's largest value and becomes infinity"
        );
        assert_eq!(v[0].clamped(1, 65519.0f32.to_bits()), None);
        assert_eq!(v[1].clamped(0, 255), None);
        assert!(v[1].clamped(0, 256).unwrap().contains("beyond 8 bits"));
        assert!(v[2].clamped(1, (-32769i32) as u32).is_some());
        assert_eq!(v[2].clamped(1, (-32768i32) as u32), None);
        assert_eq!(
            v[0].check_rows(3, 4, "vertex_count").unwrap_err().0,
            "TEXCOORD1: 3 rows, but 4 are expected (vertex_count)"
        );
    }
}
