//! Lowering a created input layout to Vulkan and WebGPU (wgpu) vertex input state, with a
//! report of everything that does not map natively and the remedy inlay provides.
//!
//! A translation layer or engine port turns a Direct3D 11 input layout, the strides bound
//! per slot, the topology and the draw kind into the target API's vertex input state. The
//! traps are always the same; each one is a [`Finding`] here:
//!
//! * **formats the device cannot fetch** — the target twin is derived from the DXGI table's
//!   components ([`names::vulkan_twin`], [`names::wgpu_twin`]); a format without a twin, or
//!   whose twin the [`DeviceProfile`] lacks, is converted on the CPU to a 32-bit-per-lane
//!   stand-in ([`names::wide_stand_in`]) that holds exactly the values Direct3D's input
//!   assembler produces ([`Remedy::ConvertFormat`], exact by construction, see
//!   [`convert_elements`]);
//! * **`B8G8R8X8_UNORM`** — Direct3D delivers w = 1.0, a BGRA fetch would deliver the X byte:
//!   converted as above;
//! * **step rates** — Direct3D step rate `r` on a per-instance slot reads element
//!   `StartInstanceLocation + j / r`, and rate 0 element `StartInstanceLocation` for every
//!   instance (ia-semantics §3); Vulkan needs `VK_EXT/KHR_vertex_attribute_divisor` for any
//!   rate other than 1 (rate 0 needs `vertexAttributeInstanceRateZeroDivisor`), WebGPU has no
//!   divisor at all: [`Remedy::ExpandInstances`] ([`expand_instances`]);
//! * **strip cuts** — Direct3D cuts strips at 0xFFFF / 0xFFFFFFFF always (spec §8.12;
//!   ia-semantics §8); Vulkan's primitive restart matches for strips, but in list topologies
//!   needs `primitiveTopologyListRestart`, and WebGPU has none in lists:
//!   [`Remedy::RewriteIndices`] ([`rewrite_list_cuts`]);
//! * **limits** — bindings, attributes (locations), strides and offsets above the device's
//!   limits, WebGPU's 4-byte alignment of offsets and strides: [`Remedy::Restride`] or
//!   [`Remedy::Rebind`], or [`Remedy::None`] where only a shader change could help;
//! * **Direct3D 12 layouts** (made under `Api::D3D12`, d3d12-rules.md P24) — strides come
//!   from the vertex buffer views at bind time (Vulkan: dynamic stride state, a non-zero
//!   stride covering the attributes), and strips cut at the pipeline's value whatever the
//!   index format, lists never. Where the index format's all-ones value is a *vertex* in
//!   D3D12 (strip cut disabled, or a value the format cannot hold): Vulkan turns
//!   `primitiveRestartEnable` off, exact; WebGPU restarts every indexed strip at that value
//!   and cannot turn it off, so 16-bit indices are widened to 32-bit
//!   ([`Remedy::WidenIndices`]: 0xFFFF is then no restart value) and a 32-bit strip holding
//!   0xFFFFFFFF is unrolled into a list ([`Remedy::StripToList`]: lists never restart in
//!   WebGPU). A strip cut 0xFFFF in 32-bit indices is rewritten to the target's 0xFFFFFFFF
//!   ([`Remedy::ReplaceIndex`]) unless the buffer may also hold 0xFFFFFFFF as a vertex, in
//!   which case it is unrolled too — the only exact choice on both targets;
//! * **unbound slots and out-of-bounds reads** — Direct3D reads all-zero registers from an
//!   unbound slot and zero-with-defaults out of bounds (spec §8.19.2, §8.20): the report
//!   says what the target needs (a zero buffer with stride 0 and a four-lane format;
//!   `robustBufferAccess2`).
//!
//! The state itself is inlay's own plain data ([`VertexInputState`]); the `vulkan` feature
//! turns it into `ash` structures and the `wgpu` feature into `wgpu-types` structures.

pub mod names;
pub mod profile;
pub mod remedy;
#[cfg(feature = "vulkan")]
pub mod vulkan;
#[cfg(feature = "wgpu")]
pub mod wgpu;

pub use profile::{DeviceProfile, ProfileError, TargetApi};
pub use remedy::{
    convert_elements, expand_instances, list_of_strip, rewrite_list_cuts, strip_to_list,
    widen_indices,
};

use crate::assembler::Topology;
use crate::format::Format;
use crate::layout::{InputClass, InputLayout};

/// What the lowering needs beyond the layout: the draw's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawShape {
    /// Stride bound per slot (`(slot, stride)`); a slot the layout uses without an entry
    /// here counts as unbound.
    pub strides: Vec<(u32, u32)>,
    /// The primitive topology.
    pub topology: Topology,
    /// Whether the draw is indexed.
    pub indexed: bool,
    /// Whether the index buffer may hold its format's all-ones value (0xFFFF, 0xFFFFFFFF):
    /// the value Direct3D 10/11 cuts at and the targets restart at. When `false`, cuts in
    /// list topologies need no remedy, and neither does a D3D12 strip whose all-ones index
    /// is a vertex (the pipeline's strip cut disabled or another value).
    pub may_cut: bool,
    /// The index format, when known (D3D12 compares its pipeline strip cut with the index
    /// whatever the format, Vulkan restarts at the format's maximum: d3d12-rules.md P24).
    pub index_format: Option<crate::buffer::IndexFormat>,
}

impl DrawShape {
    /// A shape with every slot of `layout` bound at its minimum stride.
    pub fn tight(layout: &InputLayout, topology: Topology, indexed: bool) -> DrawShape {
        DrawShape {
            strides: layout
                .slots()
                .iter()
                .map(|s| (s.slot, s.min_stride))
                .collect(),
            topology,
            indexed,
            may_cut: indexed,
            index_format: None,
        }
    }

    fn stride(&self, slot: u32) -> Option<u32> {
        self.strides
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, st)| *st)
    }
}

/// A target format chosen for an attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TargetFormat {
    /// Name in the target API (`R32G32B32_SFLOAT`, `Float32x3`).
    pub name: &'static str,
    /// `VkFormat` value (Vulkan) or 0 (WebGPU, whose formats are named).
    pub value: i32,
}

/// One vertex buffer binding of the target.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Binding {
    /// Binding number (Vulkan) or buffer index (WebGPU).
    pub binding: u32,
    /// The Direct3D slot whose data it reads, or `None` for a binding inlay adds (a
    /// converted stream or a zero buffer).
    pub slot: Option<u32>,
    /// What the binding holds.
    pub source: BindingSource,
    /// Stride in bytes.
    pub stride: u32,
    /// Per-instance (true) or per-vertex input rate.
    pub per_instance: bool,
    /// Instance divisor when it is not 1 (needs the divisor extension on Vulkan).
    pub divisor: Option<u32>,
}

/// What a target binding reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BindingSource {
    /// The application's buffer for the slot, as bound.
    Slot,
    /// The slot's buffer after [`expand_instances`].
    ExpandedInstances,
    /// The slot's elements converted by [`convert_elements`].
    Converted,
    /// A zero-filled buffer of one 16-byte element with stride 0 (an unbound slot).
    Zero,
}

/// One vertex attribute of the target.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Attribute {
    /// Shader location: the element's input register.
    pub location: u32,
    /// Target binding it reads.
    pub binding: u32,
    /// Target format.
    pub format: TargetFormat,
    /// Byte offset in the binding's element.
    pub offset: u32,
    /// Index of the Direct3D element in the layout's array.
    pub element: usize,
}

/// The lowered vertex input state, target-neutral plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VertexInputState {
    /// The target API.
    pub api: TargetApi,
    /// Bindings in increasing binding order.
    pub bindings: Vec<Binding>,
    /// Attributes in increasing location order.
    pub attributes: Vec<Attribute>,
    /// The target topology's name (`VK_PRIMITIVE_TOPOLOGY_*` without prefix, or WebGPU's
    /// `PrimitiveTopology` spelling); `None` where the target has no such topology.
    pub topology: Option<&'static str>,
    /// Whether primitive restart is enabled (Vulkan), or the strip index format is set
    /// (WebGPU), so that cut values cut.
    pub primitive_restart: bool,
}

/// What inlay does about a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "remedy", rename_all = "snake_case"))]
pub enum Remedy {
    /// Converts the element on the CPU into a stand-in format ([`convert_elements`]).
    ConvertFormat {
        /// The stand-in format.
        to: TargetFormat,
        /// Whether the conversion is bit-exact (the stand-in holds exactly the registers
        /// Direct3D produces).
        exact: bool,
    },
    /// Expands per-instance data so that every instance has its own element
    /// ([`expand_instances`]); the buffer grows to `StartInstanceLocation + InstanceCount`
    /// elements.
    ExpandInstances {
        /// The Direct3D step rate being emulated.
        step_rate: u32,
    },
    /// Rewrites the index buffer, dropping cut values and the partial primitives they end
    /// ([`rewrite_list_cuts`]).
    RewriteIndices,
    /// Rewrites every index equal to `from` into `to` (D3D12's strip cut 0xFFFF in a 32-bit
    /// index buffer becomes the target's restart value 0xFFFFFFFF; d3d12-rules.md P24).
    ReplaceIndex {
        /// The index value that cuts in Direct3D.
        from: u32,
        /// The value the target restarts at.
        to: u32,
    },
    /// Rewrites the 16-bit index buffer as 32-bit, every index zero-extended
    /// ([`widen_indices`]), and draws it with a 32-bit index format (WebGPU's
    /// `stripIndexFormat: "uint32"`): 0xFFFF, a vertex in Direct3D 12 here, is then no
    /// restart value. First index and count are unchanged.
    WidenIndices,
    /// Unrolls the strip into the equivalent list of its primitives ([`strip_to_list`]),
    /// drawn with the list topology the state names and restart off: an index the target
    /// would restart at (0xFFFFFFFF) is a vertex in Direct3D 12 here. The draw becomes the
    /// list's length in indices from index 0 of a 32-bit buffer.
    StripToList {
        /// The cut value Direct3D applies while unrolling (the pipeline's strip cut when it
        /// applies to the index format), `None` when no index cuts.
        cut: Option<u32>,
    },
    /// Copies the slot's elements into a tighter or realigned buffer (also through
    /// [`convert_elements`], which writes tightly packed 4-byte-aligned lanes).
    Restride,
    /// Uses another binding number than the Direct3D slot.
    Rebind {
        /// The binding used.
        binding: u32,
    },
    /// Binds a zero buffer (stride 0, a four-lane 32-bit format) so that every register
    /// reads all zeros, as from an unbound Direct3D slot.
    ZeroBuffer,
    /// The target must enable a feature or extension; no data change.
    Enable {
        /// What to enable.
        feature: &'static str,
    },
    /// Nothing inlay can do in the data; the shader or the device must change.
    None,
}

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Subject {
    /// An element of the layout (index in the array).
    Element(usize),
    /// An input slot.
    Slot(u32),
    /// The draw (topology, index buffer, system values).
    Draw,
}

/// One thing that does not map natively.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Finding {
    /// What it is about.
    pub subject: Subject,
    /// What does not map, in a sentence naming the value and the limit.
    pub problem: String,
    /// What inlay provides.
    pub remedy: Remedy,
}

/// The lowering of one layout for one draw shape on one device.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Lowering {
    /// The profile's name.
    pub device: String,
    /// The state to create the pipeline with, remedies applied.
    pub state: VertexInputState,
    /// Everything that needed a remedy, in element, slot, draw order.
    pub findings: Vec<Finding>,
}

impl Lowering {
    /// Whether everything maps natively.
    pub fn is_native(&self) -> bool {
        self.findings.is_empty()
    }

    /// The findings about one subject.
    pub fn findings_for(&self, subject: Subject) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.subject == subject)
    }

    /// Elements whose data must go through [`convert_elements`], per slot, with the stand-in
    /// format's lane count: `(slot, element index, lanes)`. `layout` is the layout lowered.
    pub fn converted_elements(&self, layout: &InputLayout) -> Vec<(u32, usize, usize)> {
        self.findings
            .iter()
            .filter_map(|f| match (f.subject, &f.remedy) {
                (Subject::Element(e), Remedy::ConvertFormat { .. }) => {
                    let el = layout.elements().get(e)?;
                    let (lanes, _, _) = names::wide_stand_in(el.format.info()?)?;
                    Some((el.slot, e, lanes))
                }
                _ => None,
            })
            .collect()
    }
}

/// The Vulkan `VkPrimitiveTopology` (without `VK_PRIMITIVE_TOPOLOGY_`) of a Direct3D
/// topology; patch lists are `PATCH_LIST` (the control-point count goes to tessellation state).
fn vk_topology(t: Topology) -> Option<&'static str> {
    Some(match t {
        Topology::Undefined => return None,
        Topology::PointList => "POINT_LIST",
        Topology::LineList => "LINE_LIST",
        Topology::LineStrip => "LINE_STRIP",
        Topology::TriangleList => "TRIANGLE_LIST",
        Topology::TriangleStrip => "TRIANGLE_STRIP",
        Topology::LineListAdj => "LINE_LIST_WITH_ADJACENCY",
        Topology::LineStripAdj => "LINE_STRIP_WITH_ADJACENCY",
        Topology::TriangleListAdj => "TRIANGLE_LIST_WITH_ADJACENCY",
        Topology::TriangleStripAdj => "TRIANGLE_STRIP_WITH_ADJACENCY",
        Topology::PatchList(_) => "PATCH_LIST",
    })
}

/// WebGPU's `PrimitiveTopology` spelling; WebGPU has no adjacency or patch topologies.
fn wgpu_topology(t: Topology) -> Option<&'static str> {
    Some(match t {
        Topology::PointList => "PointList",
        Topology::LineList => "LineList",
        Topology::LineStrip => "LineStrip",
        Topology::TriangleList => "TriangleList",
        Topology::TriangleStrip => "TriangleStrip",
        _ => return None,
    })
}

fn is_strip(t: Topology) -> bool {
    matches!(
        t,
        Topology::LineStrip
            | Topology::TriangleStrip
            | Topology::LineStripAdj
            | Topology::TriangleStripAdj
    )
}

/// D3D12 strip cuts (P19, P24): only strips cut, at the pipeline's value whatever the index
/// format; the target restarts at the index type's maximum (Vulkan when
/// `primitiveRestartEnable` is on, WebGPU always in an indexed strip). Returns whether the
/// target's restart is on, and the list topology the draw becomes when it is unrolled.
fn d3d12_cuts(
    pipeline: &crate::layout::PipelineIa,
    shape: &DrawShape,
    strip: bool,
    api: TargetApi,
    findings: &mut Vec<Finding>,
) -> (bool, Option<Topology>) {
    use crate::buffer::IndexFormat;
    if !(shape.indexed && strip) {
        // Lists never cut in D3D12: restart stays off (Vulkan) and WebGPU never restarts a
        // list, so an all-ones index is fetched as a vertex, as D3D12 does.
        return (false, None);
    }
    let cut = pipeline.strip_cut.cut_value();
    let format = shape.index_format;
    let unroll = |cut: Option<u32>, why: String, findings: &mut Vec<Finding>| {
        findings.push(Finding {
            subject: Subject::Draw,
            problem: why,
            remedy: Remedy::StripToList { cut },
        });
        (false, remedy::list_of_strip(shape.topology))
    };
    match (cut, format) {
        // The pipeline's value is the format's all-ones value (or the format is not known
        // yet, and D3D12 requires it to be the format's): native.
        (Some(c), Some(f)) if c == f.cut_value() => (true, None),
        (Some(_), None) => (true, None),
        (Some(c), Some(IndexFormat::R32Uint)) if !shape.may_cut => {
            findings.push(Finding {
                subject: Subject::Draw,
                problem: format!(
                    "the pipeline's strip cut {c:#06X} cuts 32-bit indices equal to {c:#06X} in \
                     D3D12; {} restarts 32-bit strips only at 0xFFFFFFFF (P24)",
                    api.name()
                ),
                remedy: Remedy::ReplaceIndex {
                    from: c,
                    to: 0xffff_ffff,
                },
            });
            (true, None)
        }
        (Some(c), Some(IndexFormat::R32Uint)) => unroll(
            Some(c),
            format!(
                "the pipeline's strip cut {c:#06X} cuts 32-bit strips at {c:#06X} in D3D12, and an \
                 index 0xFFFFFFFF is a vertex there; {} restarts 32-bit strips only at \
                 0xFFFFFFFF, so neither value can be expressed by restarting (P24)",
                api.name()
            ),
            findings,
        ),
        // D3D12 cuts nowhere here: strip cut disabled, or 0xFFFFFFFF, which no 16-bit index
        // equals. Vulkan: restart off is exact.
        _ if api == TargetApi::Vulkan || !shape.may_cut => (api == TargetApi::Wgpu, None),
        // WebGPU restarts every indexed strip at the format's all-ones value.
        (_, Some(IndexFormat::R16Uint)) => {
            findings.push(Finding {
                subject: Subject::Draw,
                problem: format!(
                    "the pipeline's strip cut is {}, so a 16-bit index 0xFFFF is a vertex in \
                     D3D12; WebGPU restarts every indexed strip at 0xFFFF and cannot turn \
                     restart off (P24)",
                    pipeline.strip_cut.as_str()
                ),
                remedy: Remedy::WidenIndices,
            });
            (true, None)
        }
        _ => unroll(
            None,
            format!(
                "the pipeline's strip cut is {}, so an index 0xFFFFFFFF is a vertex in D3D12; \
                 WebGPU restarts every indexed 32-bit strip at 0xFFFFFFFF and cannot turn \
                 restart off, nor can a wider index avoid it (P24)",
                pipeline.strip_cut.as_str()
            ),
            findings,
        ),
    }
}

/// D3D12 strides (P17, P24): they come from the vertex buffer view at bind time, so a Vulkan
/// pipeline takes them as dynamic state, and a dynamic stride must be 0 or cover the
/// binding's attributes (VUID-vkCmdBindVertexBuffers2-pStrides-06209).
fn d3d12_strides(
    layout: &InputLayout,
    shape: &DrawShape,
    api: TargetApi,
    findings: &mut Vec<Finding>,
) {
    if api == TargetApi::Wgpu {
        findings.push(Finding {
            subject: Subject::Draw,
            problem: "D3D12 sets strides with the vertex buffer views, after the pipeline; \
                      WebGPU fixes arrayStride in the pipeline: one pipeline per set of strides"
                .to_string(),
            remedy: Remedy::None,
        });
        return;
    }
    findings.push(Finding {
        subject: Subject::Draw,
        problem: "D3D12 sets strides with the vertex buffer views, after the pipeline (P11)"
            .to_string(),
        remedy: Remedy::Enable {
            feature: "VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE (extendedDynamicState)",
        },
    });
    for slot in layout.slots() {
        let Some(stride) = shape.stride(slot.slot) else {
            continue;
        };
        if stride != 0 && stride < slot.min_stride {
            findings.push(Finding {
                subject: Subject::Slot(slot.slot),
                problem: format!(
                    "slot {}: stride {stride} is below the {} bytes its elements cover; a \
                     Vulkan dynamic stride must be 0 or cover every attribute \
                     (VUID-vkCmdBindVertexBuffers2-pStrides-06209)",
                    slot.slot, slot.min_stride
                ),
                remedy: Remedy::Restride,
            });
        }
    }
}

/// Lowers `layout` for `shape` on the device `profile` describes.
///
/// Locations are the elements' input registers; elements the shader does not read (no
/// register) get no attribute (Direct3D fetches them for nothing; ia-semantics §9).
/// Bindings keep the Direct3D slot numbers where the device allows it.
pub fn lower(layout: &InputLayout, shape: &DrawShape, profile: &DeviceProfile) -> Lowering {
    let api = profile.api;
    let mut findings = Vec::new();
    let mut bindings: Vec<Binding> = Vec::new();
    // Slots whose stride the target cannot take (WebGPU's 4-byte rule, the stride limit).
    let mut restrided: Vec<u32> = Vec::new();
    let mut attributes: Vec<Attribute> = Vec::new();
    let wgpu = api == TargetApi::Wgpu;

    // Binding numbers: Vulkan keeps the slot number when it is inside the limit (else the
    // lowest number no slot uses); WebGPU buffers are positional, numbered in slot order.
    let used_slots: Vec<u32> = layout.slots().iter().map(|s| s.slot).collect();
    let mut taken: Vec<u32> = Vec::new();

    for slot in layout.slots() {
        let s = slot.slot;
        let mut b = s;
        if wgpu {
            b = taken.len() as u32;
        } else if b >= profile.max_vertex_input_bindings {
            b = (0..profile.max_vertex_input_bindings)
                .find(|c| !taken.contains(c) && !used_slots.contains(c))
                .unwrap_or(b);
        }
        if b != s {
            findings.push(Finding {
                subject: Subject::Slot(s),
                problem: if wgpu {
                    format!(
                        "slot {s}: WebGPU vertex buffers are positional; the slot is buffer {b}"
                    )
                } else {
                    format!(
                        "slot {s} is at or above the device's maxVertexInputBindings {}",
                        profile.max_vertex_input_bindings
                    )
                },
                remedy: Remedy::Rebind { binding: b },
            });
        }
        if !wgpu && b >= profile.max_vertex_input_bindings {
            findings.push(Finding {
                subject: Subject::Slot(s),
                problem: format!(
                    "the layout uses more slots than the device's {} bindings",
                    profile.max_vertex_input_bindings
                ),
                remedy: Remedy::None,
            });
        }
        taken.push(b);

        let per_instance = slot.class == InputClass::PerInstance;
        let mut source = BindingSource::Slot;
        let mut divisor = None;
        if per_instance && slot.step_rate != 1 {
            let native = !wgpu
                && profile.divisor.supported
                && (slot.step_rate != 0 || profile.divisor.zero)
                && slot.step_rate <= profile.divisor.max;
            if native {
                divisor = Some(slot.step_rate);
                findings.push(Finding {
                    subject: Subject::Slot(s),
                    problem: format!(
                        "slot {s}: instance step rate {} needs an instance divisor",
                        slot.step_rate
                    ),
                    remedy: Remedy::Enable {
                        feature: if slot.step_rate == 0 {
                            "vertexAttributeInstanceRateZeroDivisor (VK_KHR_vertex_attribute_divisor)"
                        } else {
                            "vertexAttributeInstanceRateDivisor (VK_KHR_vertex_attribute_divisor)"
                        },
                    },
                });
            } else {
                source = BindingSource::ExpandedInstances;
                findings.push(Finding {
                    subject: Subject::Slot(s),
                    problem: if wgpu {
                        format!(
                            "slot {s}: instance step rate {}; WebGPU has no instance divisor",
                            slot.step_rate
                        )
                    } else {
                        format!(
                            "slot {s}: instance step rate {} and the device has no such divisor",
                            slot.step_rate
                        )
                    },
                    remedy: Remedy::ExpandInstances {
                        step_rate: slot.step_rate,
                    },
                });
            }
        }

        let stride = match shape.stride(s) {
            Some(st) => st,
            None => {
                findings.push(Finding {
                    subject: Subject::Slot(s),
                    problem: format!(
                        "slot {s} is used by the layout but no buffer is bound: Direct3D reads \
                         all-zero registers (spec §8.20)"
                    ),
                    remedy: Remedy::ZeroBuffer,
                });
                source = BindingSource::Zero;
                0
            }
        };
        if stride > profile.max_vertex_input_binding_stride || (wgpu && stride % 4 != 0) {
            restrided.push(s);
        }
        if stride > profile.max_vertex_input_binding_stride {
            findings.push(Finding {
                subject: Subject::Slot(s),
                problem: format!(
                    "slot {s}: stride {stride} exceeds the device's maxVertexInputBindingStride {}",
                    profile.max_vertex_input_binding_stride
                ),
                remedy: Remedy::Restride,
            });
        } else if wgpu && stride % 4 != 0 {
            findings.push(Finding {
                subject: Subject::Slot(s),
                problem: format!(
                    "slot {s}: stride {stride} is not a multiple of 4, which WebGPU requires"
                ),
                remedy: Remedy::Restride,
            });
        }
        bindings.push(Binding {
            binding: b,
            slot: Some(s),
            source,
            stride,
            per_instance: per_instance && stride != 0,
            divisor,
        });
    }

    // Attributes. The elements of a restrided slot all go through the conversion into
    // tightly packed 4-byte lanes, on the slot's own binding, which takes the packed stride.
    let mut converted_slots: Vec<(u32, u32, u32)> = Vec::new(); // (slot, binding, next offset)
    for (i, e) in layout.elements().iter().enumerate() {
        let Some(location) = e.register else { continue };
        let Some(info) = e.format.info() else {
            continue;
        };
        let Some(bi) = bindings.iter().position(|b| b.slot == Some(e.slot)) else {
            continue;
        };
        let binding = bindings[bi].binding;
        let source = bindings[bi].source;
        if location >= profile.max_vertex_input_attributes {
            findings.push(Finding {
                subject: Subject::Element(i),
                problem: format!(
                    "element {i} ({}{}) feeds register v{location}, at or above the device's \
                     maxVertexInputAttributes {}: the shader's input locations must be remapped",
                    e.semantic_name, e.semantic_index, profile.max_vertex_input_attributes
                ),
                remedy: Remedy::None,
            });
        }
        let twin = match api {
            TargetApi::Vulkan => names::vulkan_twin(info).map(|f| TargetFormat {
                name: f.name,
                value: f.value,
            }),
            TargetApi::Wgpu => names::wgpu_twin(info).map(|n| TargetFormat { name: n, value: 0 }),
        };
        let supported = twin.as_ref().filter(|t| profile.supports(t.name));
        let stand_in = names::wide_stand_in(info);
        if source == BindingSource::Zero {
            // Four lanes of zeros of the right numeric type.
            if let Some((_, vkf, w)) = stand_in {
                let base = match api {
                    TargetApi::Vulkan => vkf.name,
                    TargetApi::Wgpu => w,
                };
                let four = four_lane(base, api);
                attributes.push(Attribute {
                    location,
                    binding,
                    format: four,
                    offset: 0,
                    element: i,
                });
            }
            continue;
        }
        let misaligned = wgpu && e.offset % 4 != 0;
        let too_far = e.offset > profile.max_vertex_input_attribute_offset;
        let restride = restrided.contains(&e.slot);
        match (supported, misaligned || too_far || restride) {
            (Some(t), false) => attributes.push(Attribute {
                location,
                binding,
                format: t.clone(),
                offset: e.offset,
                element: i,
            }),
            _ => {
                let Some((lanes, vkf, w)) = stand_in else {
                    continue;
                };
                let to = match api {
                    TargetApi::Vulkan => TargetFormat {
                        name: vkf.name,
                        value: vkf.value,
                    },
                    TargetApi::Wgpu => TargetFormat { name: w, value: 0 },
                };
                let problem = if restride {
                    format!(
                        "element {i} ({}{}): slot {} is restrided, so the element is copied \
                         into its packed stream",
                        e.semantic_name, e.semantic_index, e.slot
                    )
                } else if misaligned {
                    format!(
                        "element {i} ({}{}) at offset {} is not 4-byte aligned, which WebGPU requires",
                        e.semantic_name, e.semantic_index, e.offset
                    )
                } else if too_far {
                    format!(
                        "element {i} ({}{}) at offset {} exceeds the device's \
                         maxVertexInputAttributeOffset {}",
                        e.semantic_name,
                        e.semantic_index,
                        e.offset,
                        profile.max_vertex_input_attribute_offset
                    )
                } else {
                    match &twin {
                        Some(t) => format!(
                            "element {i} ({}{}): {} (as {}) is not a vertex format of {}",
                            e.semantic_name, e.semantic_index, e.format, t.name, profile.name
                        ),
                        None => format!(
                            "element {i} ({}{}): {} has no {} vertex format with the same \
                             values{}",
                            e.semantic_name,
                            e.semantic_index,
                            e.format,
                            api.name(),
                            if info
                                .components
                                .iter()
                                .any(|c| c.kind == crate::format::Kind::Unused)
                            {
                                " (its unused X bits must read as w = 1.0)"
                            } else {
                                ""
                            }
                        ),
                    }
                };
                findings.push(Finding {
                    subject: Subject::Element(i),
                    problem,
                    remedy: Remedy::ConvertFormat {
                        to: to.clone(),
                        exact: true,
                    },
                });
                // Converted elements of a slot share one extra binding, lanes packed.
                let slot_entry = converted_slots.iter().position(|c| c.0 == e.slot);
                let (cb, off) = match slot_entry {
                    Some(k) => {
                        let off = converted_slots[k].2;
                        converted_slots[k].2 += 4 * lanes as u32;
                        (converted_slots[k].1, off)
                    }
                    None if restride => {
                        // The slot's own binding carries the packed stream.
                        bindings[bi].source = BindingSource::Converted;
                        converted_slots.push((e.slot, binding, 4 * lanes as u32));
                        (binding, 0)
                    }
                    None => {
                        let nb = (0..u32::MAX)
                            .find(|c| bindings.iter().all(|b| b.binding != *c))
                            .unwrap_or(0);
                        let nb = if wgpu { bindings.len() as u32 } else { nb };
                        let base = &bindings[bi];
                        let new = Binding {
                            binding: nb,
                            slot: Some(e.slot),
                            source: BindingSource::Converted,
                            stride: 0,
                            per_instance: base.per_instance,
                            divisor: base.divisor,
                        };
                        bindings.push(new);
                        converted_slots.push((e.slot, nb, 4 * lanes as u32));
                        (nb, 0)
                    }
                };
                attributes.push(Attribute {
                    location,
                    binding: cb,
                    format: to,
                    offset: off,
                    element: i,
                });
            }
        }
    }
    for (_, b, size) in &converted_slots {
        if let Some(bb) = bindings.iter_mut().find(|x| x.binding == *b) {
            bb.stride = *size;
        }
    }
    // A restrided slot none of whose elements reach the shader keeps a binding no attribute
    // reads; stride 0 is one every target takes.
    for bb in bindings.iter_mut() {
        if bb.slot.is_some_and(|s| restrided.contains(&s)) && bb.source != BindingSource::Converted
        {
            bb.stride = 0;
        }
    }
    // A slot whose every attribute moved to its converted binding (or that feeds no register)
    // still exists in Direct3D; targets are happy with an unused binding.
    bindings.sort_by_key(|b| b.binding);
    attributes.sort_by_key(|a| a.location);
    if bindings.len() as u64 > profile.max_vertex_input_bindings as u64 {
        findings.push(Finding {
            subject: Subject::Draw,
            problem: format!(
                "the lowered state needs {} bindings (converted streams included); the device \
                 has {}",
                bindings.len(),
                profile.max_vertex_input_bindings
            ),
            remedy: Remedy::None,
        });
    }

    // Topology and cuts.
    let strip = is_strip(shape.topology);
    let mut primitive_restart = shape.indexed && strip;
    let mut drawn = shape.topology;
    let mut topology_findings = Vec::new();
    if let Some(pipeline) = layout.pipeline() {
        let (restart, list) = d3d12_cuts(pipeline, shape, strip, api, &mut topology_findings);
        primitive_restart = restart;
        drawn = list.unwrap_or(drawn);
    }
    let topology = match api {
        TargetApi::Vulkan => vk_topology(drawn),
        TargetApi::Wgpu => wgpu_topology(drawn),
    };
    if topology.is_none() {
        findings.push(Finding {
            subject: Subject::Draw,
            problem: format!("{} has no {} topology", shape.topology, api.name()),
            remedy: Remedy::None,
        });
    }
    findings.append(&mut topology_findings);
    if layout.pipeline().is_some() {
        d3d12_strides(layout, shape, api, &mut findings);
    } else if shape.indexed && shape.may_cut && !strip {
        let list_restart = !wgpu && profile.primitive_topology_list_restart;
        if list_restart {
            primitive_restart = true;
            findings.push(Finding {
                subject: Subject::Draw,
                problem: format!(
                    "cut values in the {} index buffer end primitives in Direct3D; the target \
                     restarts only strips by default",
                    shape.topology
                ),
                remedy: Remedy::Enable {
                    feature: "primitiveTopologyListRestart (VK_EXT_primitive_topology_list_restart)",
                },
            });
        } else {
            findings.push(Finding {
                subject: Subject::Draw,
                problem: format!(
                    "cut values in the {} index buffer end primitives in Direct3D; {} cannot \
                     restart list topologies",
                    shape.topology,
                    if wgpu { "WebGPU" } else { "this device" }
                ),
                remedy: Remedy::RewriteIndices,
            });
        }
    }
    // System values: Direct3D's SV_VertexID excludes StartVertexLocation/BaseVertexLocation,
    // SV_InstanceID excludes StartInstanceLocation (ia-semantics §4); Vulkan's VertexIndex and
    // InstanceIndex include them. Reported always: it is a shader-side rule.
    findings.push(Finding {
        subject: Subject::Draw,
        problem: "SV_VertexID and SV_InstanceID exclude the start/base vertex and start \
                  instance (ia-semantics §4); the target's vertex and instance indices include \
                  them: the shader must subtract BaseVertex/BaseInstance"
            .to_string(),
        remedy: Remedy::None,
    });
    if !wgpu && !profile.robust_buffer_access2 {
        findings.push(Finding {
            subject: Subject::Draw,
            problem: "out-of-bounds vertex reads return zero (defaults in absent lanes) in \
                      Direct3D (spec §8.19.2); without robustBufferAccess2 they are undefined"
                .to_string(),
            remedy: Remedy::Enable {
                feature: "robustBufferAccess2 (VK_EXT_robustness2), or keep reads in bounds",
            },
        });
    }

    Lowering {
        device: profile.name.clone(),
        state: VertexInputState {
            api,
            bindings,
            attributes,
            topology,
            primitive_restart,
        },
        findings,
    }
}

fn four_lane(base: &str, api: TargetApi) -> TargetFormat {
    let (name, value) = match api {
        TargetApi::Vulkan => {
            let n = if base.ends_with("UINT") {
                "R32G32B32A32_UINT"
            } else if base.ends_with("SINT") {
                "R32G32B32A32_SINT"
            } else {
                "R32G32B32A32_SFLOAT"
            };
            (n, names::vk_format(n).map(|f| f.value).unwrap_or(0))
        }
        TargetApi::Wgpu => {
            let n = if base.starts_with("Uint") {
                "Uint32x4"
            } else if base.starts_with("Sint") {
                "Sint32x4"
            } else {
                "Float32x4"
            };
            (n, 0)
        }
    };
    TargetFormat { name, value }
}

/// The target twin of one DXGI format on one device, or the reason it needs conversion —
/// what `inlay lower` prints per format.
pub fn format_mapping(format: Format, profile: &DeviceProfile) -> Result<TargetFormat, String> {
    let info = format
        .info()
        .filter(|i| i.is_vertex_format())
        .ok_or_else(|| format!("{format} is not a vertex format"))?;
    let twin = match profile.api {
        TargetApi::Vulkan => names::vulkan_twin(info).map(|f| TargetFormat {
            name: f.name,
            value: f.value,
        }),
        TargetApi::Wgpu => names::wgpu_twin(info).map(|n| TargetFormat { name: n, value: 0 }),
    };
    match twin {
        Some(t) if profile.supports(t.name) => Ok(t),
        Some(t) => Err(format!(
            "{} is not a vertex format of {}",
            t.name, profile.name
        )),
        None => Err(format!(
            "no {} vertex format has the same values",
            profile.api.name()
        )),
    }
}
