//! The lowered state as `wgpu-types` structures (feature `wgpu`).
//!
//! WebGPU spec §"Vertex State": one `GPUVertexBufferLayout` per buffer (array stride, step
//! mode, attributes with format, offset and shader location). WebGPU has no instance
//! divisor, so [`super::lower`] never leaves one in a WebGPU state.

use wgpu_types as wgt;

use super::{TargetApi, VertexInputState};

/// The WebGPU vertex buffer layouts of a lowered state, owned: each entry is what a
/// `wgpu::VertexBufferLayout { array_stride, step_mode, attributes: &attributes }` borrows
/// (`wgpu-types` holds every part of it but the borrowing struct itself).
#[derive(Clone, Debug, Default)]
pub struct WgpuVertexInput {
    /// Per buffer: array stride, step mode, attributes.
    pub buffers: Vec<(u64, wgt::VertexStepMode, Vec<wgt::VertexAttribute>)>,
    /// The primitive topology.
    pub topology: Option<wgt::PrimitiveTopology>,
}

/// The `wgpu-types` vertex format of a WebGPU format name inlay lowers to.
pub fn vertex_format(name: &str) -> Option<wgt::VertexFormat> {
    use wgt::VertexFormat as V;
    Some(match name {
        "Uint8" => V::Uint8,
        "Uint8x2" => V::Uint8x2,
        "Uint8x4" => V::Uint8x4,
        "Sint8" => V::Sint8,
        "Sint8x2" => V::Sint8x2,
        "Sint8x4" => V::Sint8x4,
        "Unorm8" => V::Unorm8,
        "Unorm8x2" => V::Unorm8x2,
        "Unorm8x4" => V::Unorm8x4,
        "Snorm8" => V::Snorm8,
        "Snorm8x2" => V::Snorm8x2,
        "Snorm8x4" => V::Snorm8x4,
        "Uint16" => V::Uint16,
        "Uint16x2" => V::Uint16x2,
        "Uint16x4" => V::Uint16x4,
        "Sint16" => V::Sint16,
        "Sint16x2" => V::Sint16x2,
        "Sint16x4" => V::Sint16x4,
        "Unorm16" => V::Unorm16,
        "Unorm16x2" => V::Unorm16x2,
        "Unorm16x4" => V::Unorm16x4,
        "Snorm16" => V::Snorm16,
        "Snorm16x2" => V::Snorm16x2,
        "Snorm16x4" => V::Snorm16x4,
        "Float16" => V::Float16,
        "Float16x2" => V::Float16x2,
        "Float16x4" => V::Float16x4,
        "Float32" => V::Float32,
        "Float32x2" => V::Float32x2,
        "Float32x3" => V::Float32x3,
        "Float32x4" => V::Float32x4,
        "Uint32" => V::Uint32,
        "Uint32x2" => V::Uint32x2,
        "Uint32x3" => V::Uint32x3,
        "Uint32x4" => V::Uint32x4,
        "Sint32" => V::Sint32,
        "Sint32x2" => V::Sint32x2,
        "Sint32x3" => V::Sint32x3,
        "Sint32x4" => V::Sint32x4,
        "Unorm10_10_10_2" => V::Unorm10_10_10_2,
        "Unorm8x4Bgra" => V::Unorm8x4Bgra,
        _ => return None,
    })
}

impl VertexInputState {
    /// The state as WebGPU vertex buffer layouts; `None` for a state lowered for another API.
    pub fn to_wgpu(&self) -> Option<WgpuVertexInput> {
        if self.api != TargetApi::Wgpu {
            return None;
        }
        let buffers = self
            .bindings
            .iter()
            .map(|b| {
                let attrs = self
                    .attributes
                    .iter()
                    .filter(|a| a.binding == b.binding)
                    .filter_map(|a| {
                        Some(wgt::VertexAttribute {
                            format: vertex_format(a.format.name)?,
                            offset: a.offset as u64,
                            shader_location: a.location,
                        })
                    })
                    .collect();
                let step = if b.per_instance {
                    wgt::VertexStepMode::Instance
                } else {
                    wgt::VertexStepMode::Vertex
                };
                (b.stride as u64, step, attrs)
            })
            .collect();
        let topology = match self.topology {
            Some("PointList") => Some(wgt::PrimitiveTopology::PointList),
            Some("LineList") => Some(wgt::PrimitiveTopology::LineList),
            Some("LineStrip") => Some(wgt::PrimitiveTopology::LineStrip),
            Some("TriangleList") => Some(wgt::PrimitiveTopology::TriangleList),
            Some("TriangleStrip") => Some(wgt::PrimitiveTopology::TriangleStrip),
            _ => None,
        };
        Some(WgpuVertexInput { buffers, topology })
    }
}
