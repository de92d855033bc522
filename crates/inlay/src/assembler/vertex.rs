//! The reference vertex fetch: element bytes → input registers (ia-semantics §1–§3).

use super::walk::WalkStep;
use crate::buffer::ElementFetch;
/// Re-exported from [`crate::buffer`], where both fetch paths find it.
pub use crate::buffer::VertexIds;

/// Number of vertex-shader input registers an [`AssembledVertex`] holds
/// (`D3D11_VS_INPUT_REGISTER_COUNT`, ia-semantics §9).
pub const MAX_REGISTERS: usize = 32;

/// What the vertex shader receives for one vertex position of a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AssembledVertex {
    /// 0-based position in the draw's vertex stream.
    pub position: u64,
    /// `SV_VertexID` (ia-semantics §4).
    pub vertex_id: u32,
    /// `SV_InstanceID` (ia-semantics §4).
    pub instance_id: u32,
    /// Bit `r` set when some layout element feeds input register `r`.
    pub fed: u32,
    /// Input registers `v0` … `v31`, four 32-bit lanes each; registers no element feeds are 0.
    pub registers: [[u32; 4]; MAX_REGISTERS],
}

impl Default for AssembledVertex {
    fn default() -> Self {
        AssembledVertex {
            position: 0,
            vertex_id: 0,
            instance_id: 0,
            fed: 0,
            registers: [[0; 4]; MAX_REGISTERS],
        }
    }
}

impl AssembledVertex {
    /// Register `r`, if some element feeds it.
    pub fn register(&self, r: u32) -> Option<[u32; 4]> {
        if r < MAX_REGISTERS as u32 && self.fed & (1 << r) != 0 {
            Some(self.registers[r as usize])
        } else {
            None
        }
    }
}

/// A draw's fetch: one [`ElementFetch`] per layout element that feeds a register.
#[derive(Clone, Debug, Default)]
pub struct ReferencePlan<'a> {
    /// Elements in layout order (a later element feeding the same register overwrites it).
    pub elements: Vec<ElementFetch<'a>>,
    /// Bit `r` set when some element feeds register `r`.
    pub fed: u32,
    /// `StartInstanceLocation` of the draw.
    pub start_instance: u32,
}

impl ReferencePlan<'_> {
    /// Fills `out` for the walk step `step`; returns `false` (leaving `out` alone) for a cut.
    #[inline]
    pub fn assemble(&self, step: &WalkStep, out: &mut AssembledVertex) -> bool {
        let WalkStep::Vertex {
            vertex_id,
            instance_id,
            vertex_index,
            position,
        } = *step
        else {
            return false;
        };
        out.position = position;
        out.vertex_id = vertex_id;
        out.instance_id = instance_id;
        out.fed = self.fed;
        out.registers = [[0; 4]; MAX_REGISTERS];
        for e in &self.elements {
            let n = e.element_number(vertex_index, instance_id, self.start_instance);
            out.registers[e.register as usize] = e.fetch(n);
        }
        true
    }
}
