//! Repack: a buffer set read through one layout, written through another.
#![forbid(unsafe_code)]

use std::fmt;

use crate::convert::{convert_component, decode_element, extract_bits};
use crate::format::{Component, Format, FormatInfo, Kind};
use crate::layout::{InputClass, InputLayout, LayoutElement};

use super::element::encode_component;
use super::writer::{record_of, records_for};
use super::{EncodeError, SlotBuffer, VertexWriter, WriterOptions, check_format};

/// One input buffer of [`repack`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceBuffer<'a> {
    /// Input slot.
    pub slot: u32,
    /// The slot's bytes: a whole number of records.
    pub data: &'a [u8],
    /// Bytes from one record to the next; `None` = the input layout's smallest stride for
    /// the slot.
    pub stride: Option<u32>,
}

/// Lanes for an output element the input layout lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementDefault {
    /// Semantic name (matched case-insensitively).
    pub semantic: String,
    /// Semantic index.
    pub index: u32,
    /// The lanes every record gets (float bits or integers, as the output format takes).
    pub lanes: [u32; 4],
}

/// Options of [`repack`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RepackOptions {
    /// How the output buffers are laid out and rounded.
    pub writer: WriterOptions,
    /// Defaults for output elements the input lacks.
    pub defaults: Vec<ElementDefault>,
    /// Vertex count; `None` = what the input's per-vertex buffers hold (they must agree).
    pub vertices: Option<u32>,
    /// Instance count; `None` = what the input's per-instance buffers cover (the smallest).
    pub instances: Option<u32>,
}

/// Where an output element's values came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementSource {
    /// The input layout's element with this array index.
    Element(usize),
    /// A default from [`RepackOptions::defaults`].
    Default,
}

/// The first value a conversion changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlteredValue {
    /// Record (vertex, or instance record) of the output slot.
    pub record: u32,
    /// Lane (0 = x … 3 = w).
    pub lane: usize,
    /// The lane as read through the input layout.
    pub before: u32,
    /// The lane the output bytes decode to.
    pub after: u32,
}

/// What happened to one output element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementReport {
    /// Semantic name as the output layout spells it.
    pub semantic: String,
    /// Semantic index.
    pub index: u32,
    /// Source.
    pub source: ElementSource,
    /// Input format (`None` for a default).
    pub from: Option<Format>,
    /// Output format.
    pub to: Format,
    /// Whether the conversion can lose information: some value the input format can hold
    /// does not survive (decided over every code of inputs of at most 16 bits).
    pub lossy: bool,
    /// Lanes (bit 0 = x) the output stores but the input format does not supply: they get
    /// the input's defaults (0, 0, 0, 1; spec §19.1.3.3).
    pub defaulted_lanes: u8,
    /// Values (lanes of records) whose output decodes to other bits than the input.
    pub altered: u64,
    /// The first of those.
    pub first_altered: Option<AlteredValue>,
}

/// Everything [`repack`] did, element by element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepackReport {
    /// Vertices written.
    pub vertices: u32,
    /// Instances covered.
    pub instances: u32,
    /// One entry per output element, in the output layout's order.
    pub elements: Vec<ElementReport>,
    /// Input elements no output element takes (`NAME` + index).
    pub dropped: Vec<String>,
}

impl RepackReport {
    /// Whether no value was changed and no element may lose information.
    pub fn is_lossless(&self) -> bool {
        self.elements.iter().all(|e| !e.lossy && e.altered == 0)
    }

    /// The elements whose conversion can lose information or did change values.
    pub fn lossy(&self) -> impl Iterator<Item = &ElementReport> + '_ {
        self.elements.iter().filter(|e| e.lossy || e.altered > 0)
    }
}

impl fmt::Display for RepackReport {
    /// One line per output element, then the dropped input elements.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A draw without per-instance data covers no instances: only vertices are counted.
        write!(
            f,
            "{}",
            crate::diag::count(self.vertices.into(), "vertex", "vertices")
        )?;
        if self.instances > 0 {
            write!(
                f,
                ", {}",
                crate::diag::count(self.instances.into(), "instance", "instances")
            )?;
        }
        writeln!(f)?;
        for e in &self.elements {
            let from = match (e.source, e.from) {
                (ElementSource::Default, _) => "default".to_string(),
                (_, Some(f)) => f.to_string(),
                (_, None) => "?".to_string(),
            };
            write!(f, "{}{}: {from} -> {}", e.semantic, e.index, e.to)?;
            if e.lossy {
                write!(f, ", lossy")?;
            } else {
                write!(f, ", exact")?;
            }
            if e.altered > 0 {
                write!(f, ", {} values changed", e.altered)?;
                if let Some(a) = e.first_altered {
                    write!(
                        f,
                        " (first: record {} lane {}: {:08x} -> {:08x})",
                        a.record,
                        ["x", "y", "z", "w"][a.lane],
                        a.before,
                        a.after
                    )?;
                }
            }
            if e.defaulted_lanes != 0 {
                let lanes: String = (0..4)
                    .filter(|l| e.defaulted_lanes & (1 << l) != 0)
                    .map(|l| ['x', 'y', 'z', 'w'][l])
                    .collect();
                write!(f, ", lanes {lanes} from defaults")?;
            }
            writeln!(f)?;
        }
        for d in &self.dropped {
            writeln!(f, "{d}: dropped")?;
        }
        Ok(())
    }
}

/// The buffers [`repack`] wrote and its report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repacked {
    /// One buffer per used slot of the output layout.
    pub buffers: Vec<SlotBuffer>,
    /// What happened to each element.
    pub report: RepackReport,
}

/// The value class a lane holds: float bits, unsigned or signed integers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Float,
    Uint,
    Sint,
}

fn class_of(kind: Kind) -> Class {
    match kind {
        Kind::Uint => Class::Uint,
        Kind::Sint => Class::Sint,
        _ => Class::Float,
    }
}

/// A lane of class `from` as a lane of class `to` (integers keep their value, saturated).
fn convert_class(lane: u32, from: Class, to: Class) -> u32 {
    match (from, to) {
        (Class::Uint, Class::Sint) => lane.min(i32::MAX as u32),
        (Class::Sint, Class::Uint) => (lane as i32).max(0) as u32,
        _ => lane,
    }
}

/// Whether some value of input component `a` (or, when `a` is `None`, the constant
/// `default`) does not survive being written as output component `b`.
fn can_lose(a: Option<&Component>, default: u32, from: Class, b: &Component, to: Class) -> bool {
    let survives = |lane: u32| {
        let lane = convert_class(lane, from, to);
        let raw = encode_component(b, lane, super::Rounding::Nearest);
        convert_component(b.kind, b.bits as u32, raw) == lane
    };
    match a {
        None => !survives(default),
        Some(a) if a.bits <= 16 => (0..1u32 << a.bits)
            .any(|code| !survives(convert_component(a.kind, a.bits as u32, code))),
        Some(a) => !(a.bits == b.bits && a.kind == b.kind),
    }
}

fn same_semantic(a: &LayoutElement, name: &str, index: u32) -> bool {
    a.semantic_index == index && a.semantic_name.eq_ignore_ascii_case(name)
}

/// Reads `sources` through layout `from` and writes the same vertices through layout `to`.
///
/// Each element of `to` takes the element of `from` with the same semantic name (compared
/// case-insensitively, as Windows compares semantics; R19) and index, or the matching
/// [`ElementDefault`]; one that has neither is an [`EncodeError::MissingElement`]. Values are
/// read with the reference decoder ([`crate::convert::decode_element`], missing lanes
/// defaulted) and written with the element encoder at `options.writer.rounding`; integer
/// values move between UINT and SINT saturated, and a float-like element (FLOAT, UNORM,
/// SNORM) never feeds an integer one or the reverse (the bits would change meaning). Both
/// elements must have the same class (per-vertex or per-instance); a per-instance output
/// record `r` of step rate `s` takes the input record instance `r·s` reads.
///
/// Input buffers must hold a whole number of records of their stride (the input's smallest
/// stride unless given) and the per-vertex ones the same number of vertices: anything else is
/// an [`EncodeError::BadSource`] naming the slot, before anything is written. The report names
/// every element whose conversion can lose information, and counts and shows the values it
/// did change.
pub fn repack(
    from: &InputLayout,
    sources: &[SourceBuffer<'_>],
    to: &InputLayout,
    options: &RepackOptions,
) -> Result<Repacked, EncodeError> {
    // Match every output element first.
    struct Plan {
        source: ElementSource,
        from_info: Option<&'static FormatInfo>,
        to_info: &'static FormatInfo,
        default: [u32; 4],
    }
    let mut plans = Vec::with_capacity(to.elements().len());
    for e in to.elements() {
        let to_info = check_format(e.format)?;
        let found = from
            .elements()
            .iter()
            .position(|a| same_semantic(a, &e.semantic_name, e.semantic_index));
        let plan = match found {
            Some(i) => {
                let a = &from.elements()[i];
                let from_info = a
                    .format
                    .info()
                    .ok_or(EncodeError::UnknownFormat(a.format.0))?;
                let (ca, cb) = (
                    class_of(from_info.first_kind().unwrap_or(Kind::Float)),
                    class_of(to_info.first_kind().unwrap_or(Kind::Float)),
                );
                if (ca == Class::Float) != (cb == Class::Float) {
                    return Err(EncodeError::Incompatible {
                        semantic: e.semantic_name.clone(),
                        index: e.semantic_index,
                        from: a.format.to_string(),
                        to: e.format.to_string(),
                        why: "float-like (FLOAT/UNORM/SNORM) and integer (UINT/SINT) data do not convert into each other",
                    });
                }
                if a.class != e.class {
                    return Err(EncodeError::Incompatible {
                        semantic: e.semantic_name.clone(),
                        index: e.semantic_index,
                        from: a.class.as_str().to_string(),
                        to: e.class.as_str().to_string(),
                        why: "per-vertex and per-instance data do not convert into each other",
                    });
                }
                Plan {
                    source: ElementSource::Element(i),
                    from_info: Some(from_info),
                    to_info,
                    default: [0; 4],
                }
            }
            None => {
                let d = options
                    .defaults
                    .iter()
                    .rev()
                    .find(|d| {
                        d.index == e.semantic_index
                            && d.semantic.eq_ignore_ascii_case(&e.semantic_name)
                    })
                    .ok_or_else(|| EncodeError::MissingElement {
                        semantic: e.semantic_name.clone(),
                        index: e.semantic_index,
                        format: e.format.to_string(),
                    })?;
                Plan {
                    source: ElementSource::Default,
                    from_info: None,
                    to_info,
                    default: d.lanes,
                }
            }
        };
        plans.push(plan);
    }

    // The input slots that are read, with their strides and record counts.
    let mut used_slots: Vec<u32> = plans
        .iter()
        .filter_map(|p| match p.source {
            ElementSource::Element(i) => Some(from.elements()[i].slot),
            ElementSource::Default => None,
        })
        .collect();
    used_slots.sort();
    used_slots.dedup();
    struct Src<'a> {
        slot: u32,
        data: &'a [u8],
        stride: u32,
    }
    let mut srcs: Vec<Src<'_>> = Vec::new();
    let mut vertices: Option<(u32, u32)> = None; // (count, slot)
    let mut instances: Option<u64> = None;
    for &slot in &used_slots {
        let Some(layout_slot) = from.slot(slot) else {
            let element = from
                .elements()
                .iter()
                .position(|e| e.slot == slot)
                .unwrap_or(0);
            return Err(EncodeError::InconsistentLayout { element, slot });
        };
        let src = sources
            .iter()
            .rev()
            .find(|s| s.slot == slot)
            .ok_or_else(|| EncodeError::BadSource {
                slot,
                why: "no buffer given for it, and the output needs its elements".to_string(),
            })?;
        let stride = src.stride.unwrap_or(layout_slot.min_stride);
        if stride < layout_slot.min_stride {
            return Err(EncodeError::StrideTooSmall {
                slot,
                stride,
                min: layout_slot.min_stride,
            });
        }
        if stride == 0 {
            return Err(EncodeError::BadSource {
                slot,
                why: "stride 0 gives no record count".to_string(),
            });
        }
        let len = src.data.len() as u64;
        if !len.is_multiple_of(stride as u64) {
            return Err(EncodeError::BadSource {
                slot,
                why: format!(
                    "{len} bytes are not a whole number of records of stride {stride} ({} records and {} bytes left over)",
                    len / stride as u64,
                    len % stride as u64
                ),
            });
        }
        let records = len / stride as u64;
        match layout_slot.class {
            InputClass::PerVertex => {
                let n = u32::try_from(records).unwrap_or(u32::MAX);
                if let Some((m, other)) = vertices
                    && m != n
                {
                    return Err(EncodeError::BadSource {
                        slot,
                        why: format!("holds {n} vertices, slot {other} holds {m}"),
                    });
                }
                vertices = Some((n, slot));
            }
            InputClass::PerInstance => {
                let covers = if layout_slot.step_rate == 0 {
                    if records > 0 { u64::from(u32::MAX) } else { 0 }
                } else {
                    records * layout_slot.step_rate as u64
                };
                instances = Some(instances.map_or(covers, |c| c.min(covers)));
            }
        }
        srcs.push(Src {
            slot,
            data: src.data,
            stride,
        });
    }
    let vertices = match (options.vertices, vertices) {
        (Some(n), Some((m, slot))) if n > m => {
            return Err(EncodeError::BadSource {
                slot,
                why: format!("holds {m} vertices, {n} were asked for"),
            });
        }
        (Some(n), _) => n,
        (None, Some((m, _))) => m,
        (None, None) => 0,
    };
    let has_instanced = to
        .elements()
        .iter()
        .any(|e| e.class == InputClass::PerInstance);
    let instances = match (options.instances, instances) {
        (Some(n), Some(c)) if n as u64 > c => {
            return Err(EncodeError::BadSource {
                slot: used_slots
                    .iter()
                    .copied()
                    .find(|s| {
                        from.slot(*s)
                            .is_some_and(|l| l.class == InputClass::PerInstance)
                    })
                    .unwrap_or(0),
                why: format!("covers {c} instances, {n} were asked for"),
            });
        }
        (Some(n), _) => n,
        (None, Some(c)) => u32::try_from(c.min(u32::MAX as u64)).unwrap_or(u32::MAX),
        (None, None) => u32::from(has_instanced),
    };
    // A step-rate-0 input with no other bound: one instance unless asked.
    let instances = if options.instances.is_none() && instances == u32::MAX {
        1
    } else {
        instances
    };

    let mut writer = VertexWriter::with_options(to, vertices, instances, &options.writer)?;
    let mut reports = Vec::with_capacity(plans.len());
    for (ei, (e, p)) in to.elements().iter().zip(&plans).enumerate() {
        let to_class = class_of(p.to_info.first_kind().unwrap_or(Kind::Float));
        let records = records_for(e.class, e.step_rate, vertices, instances);
        let mut report = ElementReport {
            semantic: e.semantic_name.clone(),
            index: e.semantic_index,
            source: p.source,
            from: p.from_info.map(|i| Format(i.value)),
            to: e.format,
            lossy: false,
            defaulted_lanes: 0,
            altered: 0,
            first_altered: None,
        };
        let (from_class, a_elem) = match p.source {
            ElementSource::Element(i) => {
                let a = &from.elements()[i];
                let info = p.from_info.expect("matched elements have a row");
                (
                    class_of(info.first_kind().unwrap_or(Kind::Float)),
                    Some((a, info)),
                )
            }
            ElementSource::Default => (to_class, None),
        };
        // Static: can the conversion lose information?
        if let Some((_, info)) = a_elem {
            for b in p.to_info.present() {
                let Some(lane) = b.channel.lane() else {
                    continue;
                };
                let a = info.present().find(|c| c.channel.lane() == Some(lane));
                if a.is_none() {
                    report.defaulted_lanes |= 1 << lane;
                }
                if can_lose(a, info.default_lane(lane), from_class, b, to_class) {
                    report.lossy = true;
                }
            }
        }
        for r in 0..records.min(u32::MAX as u64) as u32 {
            let mut original = p.default;
            let lanes = match a_elem {
                Some((a, info)) => {
                    let src = srcs.iter().find(|s| s.slot == a.slot).expect("used slot");
                    let src_record = match e.class {
                        InputClass::PerVertex => r,
                        InputClass::PerInstance => {
                            let instance = if e.step_rate == 0 {
                                0
                            } else {
                                r.saturating_mul(e.step_rate)
                            };
                            record_of(a.class, a.step_rate, 0, instance)
                        }
                    };
                    let at = src_record as usize * src.stride as usize + a.offset as usize;
                    let bytes = &src.data[at..at + info.byte_size() as usize];
                    let mut lanes = decode_element(info, bytes);
                    original = lanes;
                    for l in &mut lanes {
                        *l = convert_class(*l, from_class, to_class);
                    }
                    lanes
                }
                None => p.default,
            };
            writer.write_element(ei, r, &lanes)?;
            // Dynamic: did this record's values change?
            let buf = writer
                .buffers()
                .iter()
                .find(|b| b.slot == e.slot)
                .expect("output slot");
            let at = r as usize * buf.stride as usize + e.offset as usize;
            let element = &buf.data[at..at + p.to_info.byte_size() as usize];
            for b in p.to_info.present() {
                let Some(lane) = b.channel.lane() else {
                    continue;
                };
                let raw = extract_bits(element, b.bit_offset as u32, b.bits as u32);
                let after = convert_component(b.kind, b.bits as u32, raw);
                // Changed by the encoding, or by saturating between UINT and SINT.
                if after != lanes[lane] || lanes[lane] != original[lane] {
                    report.altered += 1;
                    if report.first_altered.is_none() {
                        report.first_altered = Some(AlteredValue {
                            record: r,
                            lane,
                            before: original[lane],
                            after,
                        });
                    }
                }
            }
        }
        // A default the output cannot hold exactly is a lossy conversion too.
        if report.source == ElementSource::Default && report.altered > 0 {
            report.lossy = true;
        }
        reports.push(report);
    }
    let dropped = from
        .elements()
        .iter()
        .filter(|a| {
            !to.elements()
                .iter()
                .any(|e| same_semantic(a, &e.semantic_name, e.semantic_index))
        })
        .map(|a| format!("{}{}", a.semantic_name, a.semantic_index))
        .collect();
    Ok(Repacked {
        buffers: writer.into_buffers(),
        report: RepackReport {
            vertices,
            instances,
            elements: reports,
            dropped,
        },
    })
}
