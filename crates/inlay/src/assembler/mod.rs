//! The input assembler: vertex fetch through a layout, draws, topologies and system values.
//!
//! This is the exact, reference path (ia-semantics §0–§8). An [`InputAssembler`] holds the
//! IA state (layout, vertex buffers, index buffer, topology); [`InputAssembler::draw`]
//! validates a [`DrawCall`] and returns a [`PreparedDraw`], whose streams run in constant
//! memory whatever the counts:
//!
//! * [`PreparedDraw::vertices`] — the vertex shader's inputs per vertex position
//!   ([`AssembledVertex`]: `SV_VertexID`, `SV_InstanceID`, input registers), also in batches
//!   through the fast fetch ([`VertexStream::fill`](crate::stream::VertexStream::fill), and
//!   [`VertexStream::fill_registers`](crate::stream::VertexStream::fill_registers)
//!   over caller-provided arrays, and
//!   [`VertexStream::fill_registers_only`](crate::stream::VertexStream::fill_registers_only)
//!   without the system values);
//! * [`PreparedDraw::primitives`] — the assembled primitives with `SV_PrimitiveID`;
//! * [`PreparedDraw::walk`] — the bare walk (per position: IDs and the element number to
//!   fetch, or a cut), for fetch implementations that want the same ordering rules.
//!
//! ```
//! use inlay::assembler::{DrawCall, InputAssembler, Topology};
//! use inlay::buffer::VertexBufferBinding;
//! use inlay::{layout_without_shader, Format, InputElementDesc, Target};
//!
//! // POSITION feeds v0 (a layout without a shader gives element i register i).
//! let elements = [InputElementDesc::per_vertex("POSITION", 0, Format::R8G8_UNORM, 0, 0)];
//! let layout = layout_without_shader(&Target::default(), &elements).into_result().unwrap();
//! let data = [0u8, 255, 255, 3];
//! let mut ia = InputAssembler::new(&layout, Target::default());
//! ia.set_vertex_buffer(0, Some(VertexBufferBinding { data: &data, stride: 2, offset: 0 })).unwrap();
//! ia.set_topology(Topology::LineList).unwrap();
//! let draw = ia.draw(&DrawCall::Draw { vertex_count: 2, start_vertex: 0 }).unwrap();
//! let v: Vec<_> = draw.vertices().collect();
//! assert_eq!(v[1].registers[0], [0x3f80_0000, 0x3c40_c0c1, 0, 0x3f80_0000]); // (1.0, 3/255, 0, 1.0)
//! assert_eq!(draw.primitives().next().unwrap().vertices(), &[0, 1]);
//! ```

// Parsers and the reference path never need `unsafe` (only `fetch::simd` may use it).
#![forbid(unsafe_code)]

pub mod draw;
pub mod primitive;
pub mod spec;
pub mod topology;
pub mod validate;
pub mod vertex;
pub mod walk;

pub use draw::{
    DRAW_KINDS, DrawCall, DrawField, DrawForm, DrawKey, DrawKind, DrawKindInfo, DrawParams,
    DrawValues,
};
pub use primitive::{Primitive, PrimitiveAssembler, Primitives};
pub use spec::{DrawDefaults, DrawSpec, DrawSpecError, DrawSyntax};
pub use topology::{ParseTopologyError, Topology};
pub use vertex::{AssembledVertex, MAX_REGISTERS, ReferencePlan, VertexIds};
pub use walk::{WalkBatch, WalkStep, Walker};

use crate::buffer::{ElementFetch, IndexBufferBinding, MAX_VERTEX_STRIDE, VertexBufferBinding};

use crate::format::Format;
use crate::layout::InputLayout;
use crate::target::{Api, FeatureLevel, Target};

/// `D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT`: the most vertex-buffer slots any target has.
pub const MAX_SLOTS: usize = 32;

/// What the input assembler refuses: binding calls a real runtime rejects, and draws that
/// cannot run. Messages name the slot, value and rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IaError {
    /// Stride above 2048 bytes.
    #[error(
        "vertex buffer slot {slot}: stride {stride} exceeds the {MAX_VERTEX_STRIDE}-byte maximum \
         (D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES, spec §8.19.3)"
    )]
    StrideTooLarge {
        /// The slot.
        slot: u32,
        /// The stride given.
        stride: u32,
    },
    /// Slot number at or above the target's slot count.
    #[error(
        "vertex buffer slot {slot} does not exist: the target has {count} slots (ia-semantics §7, §9)"
    )]
    SlotOutOfRange {
        /// The slot.
        slot: u32,
        /// Slots the target has.
        count: u32,
    },
    /// Index format not allowed at the feature level.
    #[error(
        "index buffer format {format} is not an index-buffer format at feature level {level} \
         (R16_UINT everywhere, R32_UINT from 9_2; ia-semantics §5)"
    )]
    IndexFormatUnsupported {
        /// The format.
        format: Format,
        /// The device's level.
        level: FeatureLevel,
    },
    /// A number that is no `D3D_PRIMITIVE_TOPOLOGY` value.
    #[error("primitive topology {value} is not a D3D_PRIMITIVE_TOPOLOGY value (ia-semantics §6)")]
    UnknownTopology {
        /// The value.
        value: u32,
    },
    /// A topology the target lacks (adjacency below 10_0, patch lists below 11_0 or outside
    /// the D3D11 API).
    #[error("primitive topology {topology} is not available with {api} at feature level {level}")]
    TopologyUnsupported {
        /// The topology.
        topology: Topology,
        /// The runtime.
        api: Api,
        /// The level.
        level: FeatureLevel,
    },
    /// A draw while the topology is `UNDEFINED`.
    #[error(
        "{call}: the primitive topology is undefined (D3D11_IA_DEFAULT_PRIMITIVE_TOPOLOGY); the runtime drops the draw"
    )]
    TopologyUndefined {
        /// The draw method.
        call: &'static str,
    },
    /// A draw method the target lacks.
    #[error("{call} is not available with {api} at feature level {level} ({why})")]
    DrawUnsupported {
        /// The draw method.
        call: &'static str,
        /// The runtime.
        api: Api,
        /// The level.
        level: FeatureLevel,
        /// The rule.
        why: &'static str,
    },
    /// Indirect argument offset not a multiple of 4.
    #[error("{call}: AlignedByteOffsetForArgs {offset} is not a multiple of 4 (spec §8.7, §8.8)")]
    ArgsMisaligned {
        /// The draw method.
        call: &'static str,
        /// The offset.
        offset: u32,
    },
    /// Indirect argument structure not inside the argument buffer.
    #[error(
        "{call}: the {needed}-byte argument structure at byte offset {offset} does not fit in \
         the {len}-byte argument buffer (spec §8.7, §8.8)"
    )]
    ArgsOutOfRange {
        /// The draw method.
        call: &'static str,
        /// The offset.
        offset: u32,
        /// Bytes the structure needs.
        needed: u32,
        /// Bytes the buffer has.
        len: usize,
    },
    /// DrawAuto without a buffer in slot 0.
    #[error(
        "DrawAuto: no vertex buffer is bound to slot 0, whose filled size gives the vertex count (spec §8.9)"
    )]
    DrawAutoUnbound,
    /// A layout element whose register is beyond the 32 input registers.
    #[error(
        "input layout element {element}: register v{register} is beyond the {MAX_REGISTERS} input registers"
    )]
    RegisterOutOfRange {
        /// Element index in the layout.
        element: usize,
        /// The register.
        register: u32,
    },
    /// A layout element whose format the IA cannot read.
    #[error(
        "input layout element {element}: {format} is not an input-assembler vertex format (ia-semantics §1.1)"
    )]
    NotAVertexFormat {
        /// Element index in the layout.
        element: usize,
        /// The format.
        format: Format,
    },
    /// A layout element on a slot beyond the 32 that exist.
    #[error("input layout element {element}: slot {slot} is beyond the {MAX_SLOTS} input slots")]
    ElementSlotOutOfRange {
        /// Element index in the layout.
        element: usize,
        /// The slot.
        slot: u32,
    },
}

/// The input-assembler state: layout, vertex buffers, index buffer and topology, as set by
/// `IASetInputLayout`, `IASetVertexBuffers`, `IASetIndexBuffer` and `IASetPrimitiveTopology`.
#[derive(Clone, Debug)]
pub struct InputAssembler<'a> {
    layout: &'a InputLayout,
    target: Target,
    vertex_buffers: [Option<VertexBufferBinding<'a>>; MAX_SLOTS],
    index_buffer: Option<IndexBufferBinding<'a>>,
    topology: Topology,
}

impl<'a> InputAssembler<'a> {
    /// IA state for `layout` on `target`: no buffers bound, topology `Undefined` (the state
    /// after device creation or `ClearState`).
    pub fn new(layout: &'a InputLayout, target: Target) -> Self {
        InputAssembler {
            layout,
            target,
            vertex_buffers: [None; MAX_SLOTS],
            index_buffer: None,
            topology: Topology::Undefined,
        }
    }

    /// The layout.
    pub fn layout(&self) -> &'a InputLayout {
        self.layout
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Replaces the layout (`IASetInputLayout`).
    pub fn set_layout(&mut self, layout: &'a InputLayout) {
        self.layout = layout;
    }

    /// Binds (or, with `None`, unbinds) the vertex buffer of `slot` (`IASetVertexBuffers`).
    /// Refuses a slot at or above the target's slot count (16 or 32) and a stride above 2048.
    pub fn set_vertex_buffer(
        &mut self,
        slot: u32,
        binding: Option<VertexBufferBinding<'a>>,
    ) -> Result<(), IaError> {
        let count = self.target.max_input_slots().min(MAX_SLOTS as u32);
        if slot >= count {
            return Err(IaError::SlotOutOfRange { slot, count });
        }
        if let Some(b) = &binding
            && b.stride > MAX_VERTEX_STRIDE
        {
            return Err(IaError::StrideTooLarge {
                slot,
                stride: b.stride,
            });
        }
        self.vertex_buffers[slot as usize] = binding;
        Ok(())
    }

    /// The binding of `slot`, if any.
    pub fn vertex_buffer(&self, slot: u32) -> Option<&VertexBufferBinding<'a>> {
        self.vertex_buffers.get(slot as usize)?.as_ref()
    }

    /// Binds (or unbinds) the index buffer (`IASetIndexBuffer`). Refuses R32_UINT at 9_1.
    pub fn set_index_buffer(
        &mut self,
        binding: Option<IndexBufferBinding<'a>>,
    ) -> Result<(), IaError> {
        if let Some(b) = &binding {
            let format = b.format.format();
            if !self.target.supports_index_format(format) {
                return Err(IaError::IndexFormatUnsupported {
                    format,
                    level: self.target.feature_level,
                });
            }
        }
        self.index_buffer = binding;
        Ok(())
    }

    /// The index buffer binding, if any.
    pub fn index_buffer(&self) -> Option<&IndexBufferBinding<'a>> {
        self.index_buffer.as_ref()
    }

    /// Sets the primitive topology (`IASetPrimitiveTopology`); refuses one the target lacks
    /// (see [`Topology::is_available`]).
    pub fn set_topology(&mut self, topology: Topology) -> Result<(), IaError> {
        if !topology.is_available(self.target.api, self.target.feature_level) {
            return Err(IaError::TopologyUnsupported {
                topology,
                api: self.target.api,
                level: self.target.feature_level,
            });
        }
        self.topology = topology;
        Ok(())
    }

    /// Sets the topology from its `D3D_PRIMITIVE_TOPOLOGY` value.
    pub fn set_topology_d3d(&mut self, value: u32) -> Result<(), IaError> {
        let t = Topology::from_d3d(value).ok_or(IaError::UnknownTopology { value })?;
        self.set_topology(t)
    }

    /// The current topology.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// Resolves `call` to walk parameters: reads indirect arguments, computes DrawAuto's
    /// vertex count, and refuses draw methods the target lacks.
    ///
    /// Refusals are the draw-kind table's APIs and lowest level ([`DrawKindInfo`]; choices in
    /// `docs/notes/assembler.md`): instanced draws need 9_3 (R41); indirect draws need the
    /// D3D11 API at 10_0 or above; DrawAuto needs 10_0 (stream output) and a buffer in slot 0.
    pub fn resolve(&self, call: &DrawCall<'_>) -> Result<DrawParams, IaError> {
        let info = call.kind().info();
        let (api, level) = (self.target.api, self.target.feature_level);
        if !info.apis.contains(&api) || level < info.min_level {
            return Err(IaError::DrawUnsupported {
                call: info.method,
                api,
                level,
                why: info.needs,
            });
        }
        let v = call.values();
        let v = match info.form {
            DrawForm::Keys => v,
            DrawForm::Indirect { reads } => {
                // The structure holds `reads`' parameters in its order (spec §8.7, §8.8).
                let keys = reads.info().keys;
                let mut words = [0u32; DrawField::ALL.len()];
                let words = &mut words[..keys.len()];
                draw::read_args(info.method, v.args, v[DrawField::Offset], words)?;
                let mut read = DrawValues::default();
                for (k, &w) in keys.iter().zip(words.iter()) {
                    read[k.field] = w;
                }
                read
            }
            DrawForm::Auto => {
                let b = self.vertex_buffers[0].ok_or(IaError::DrawAutoUnbound)?;
                let mut auto = DrawValues::default();
                auto[DrawField::Count] = v[DrawField::FilledSize]
                    .checked_sub(b.offset)
                    .and_then(|bytes| bytes.checked_div(b.stride))
                    .unwrap_or(0);
                auto
            }
        };
        Ok(DrawParams {
            indexed: info.indexed,
            count: v[DrawField::Count],
            instance_count: v[DrawField::InstanceCount],
            start: v[DrawField::Start],
            base_vertex: v[DrawField::BaseVertex] as i32,
            start_instance: v[DrawField::StartInstance],
        })
    }

    /// The fetch plan of the current state for a draw starting at `start_instance`: one
    /// entry per layout element that feeds a register, with its slot's binding.
    pub fn reference_plan(&self, start_instance: u32) -> Result<ReferencePlan<'a>, IaError> {
        let mut plan = ReferencePlan {
            elements: Vec::with_capacity(self.layout.elements().len().min(MAX_REGISTERS)),
            fed: 0,
            start_instance,
        };
        self.reference_plan_into(start_instance, &mut plan)?;
        Ok(plan)
    }

    /// [`InputAssembler::reference_plan`] written into `plan`, reusing its storage (nothing
    /// is allocated when `plan.elements` has room for the layout's elements). On an error
    /// `plan` is left empty.
    pub fn reference_plan_into(
        &self,
        start_instance: u32,
        plan: &mut ReferencePlan<'a>,
    ) -> Result<(), IaError> {
        plan.start_instance = start_instance;
        let filled = self.fill_plan(plan);
        if filled.is_err() {
            plan.elements.clear();
            plan.fed = 0;
        }
        filled
    }

    /// The body of [`InputAssembler::reference_plan_into`].
    fn fill_plan(&self, plan: &mut ReferencePlan<'a>) -> Result<(), IaError> {
        plan.elements.clear();
        plan.fed = 0;
        for (i, e) in self.layout.elements().iter().enumerate() {
            let info = e.format.info().filter(|f| f.is_vertex_format()).ok_or(
                IaError::NotAVertexFormat {
                    element: i,
                    format: e.format,
                },
            )?;
            if e.slot as usize >= MAX_SLOTS {
                return Err(IaError::ElementSlotOutOfRange {
                    element: i,
                    slot: e.slot,
                });
            }
            let Some(register) = e.register else { continue };
            if register as usize >= MAX_REGISTERS {
                return Err(IaError::RegisterOutOfRange {
                    element: i,
                    register,
                });
            }
            plan.fed |= 1 << register;
            plan.elements.push(ElementFetch {
                element: i,
                register,
                info,
                offset: e.offset,
                buffer: self.vertex_buffers[e.slot as usize],
                class: e.class,
                step_rate: e.step_rate,
            });
        }
        Ok(())
    }

    /// Validates `call` against the current state and prepares its streams.
    pub fn draw(&self, call: &DrawCall<'_>) -> Result<PreparedDraw<'a>, IaError> {
        let params = self.check_draw(call)?;
        let plan = self.reference_plan(params.start_instance)?;
        Ok(PreparedDraw {
            params,
            topology: self.topology,
            index_buffer: self.draw_index_buffer(&params),
            plan,
        })
    }

    /// The draw-call checks of [`InputAssembler::draw`]: a topology is set and the call
    /// resolves.
    pub(crate) fn check_draw(&self, call: &DrawCall<'_>) -> Result<DrawParams, IaError> {
        if self.topology == Topology::Undefined {
            return Err(IaError::TopologyUndefined { call: call.name() });
        }
        self.resolve(call)
    }

    /// The index buffer a draw of `params` reads.
    pub(crate) fn draw_index_buffer(&self, params: &DrawParams) -> Option<IndexBufferBinding<'a>> {
        if params.indexed {
            self.index_buffer
        } else {
            None
        }
    }
}

/// A validated draw: its parameters, topology, index buffer and fetch plan. Every stream it
/// hands out is independent and runs in constant memory.
#[derive(Clone, Debug)]
pub struct PreparedDraw<'a> {
    params: DrawParams,
    topology: Topology,
    index_buffer: Option<IndexBufferBinding<'a>>,
    plan: ReferencePlan<'a>,
}

impl<'a> PreparedDraw<'a> {
    /// The resolved parameters.
    pub fn params(&self) -> &DrawParams {
        &self.params
    }

    /// The topology.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// The index buffer the draw reads (`None` for non-indexed draws or when unbound).
    pub fn index_buffer(&self) -> Option<&IndexBufferBinding<'a>> {
        self.index_buffer.as_ref()
    }

    /// The reference fetch plan.
    pub fn plan(&self) -> &ReferencePlan<'a> {
        &self.plan
    }

    /// The walk: per position, IDs and the element number to fetch, or a cut.
    pub fn walk(&self) -> Walker<'a> {
        Walker::new(self.params, self.index_buffer)
    }

    // `vertices()`, the vertex stream, is defined in `crate::stream`, the module above both
    // the reference and the fast fetch that joins them.

    /// The primitives.
    pub fn primitives(&self) -> Primitives<'a> {
        Primitives::new(self.walk(), self.topology)
    }
}
