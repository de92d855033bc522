//! One lowered draw, as every backend of the harness takes it.

use inlay::lower::{DeviceProfile, VertexInputState};

use crate::spirv::InputType;

/// A device the suite can draw on.
pub trait Backend {
    /// The profile the suite lowers for.
    fn profile(&self) -> &DeviceProfile;
    /// Runs one draw and returns the output records (`capacity` records of
    /// `record_words(inputs)` words, 0xDEADBEEF where nothing was written).
    fn run(&self, d: &GpuDraw, capacity: u32) -> Result<Vec<u32>, String>;
    /// Lowers for `profile` instead from now on.
    fn set_profile(&mut self, profile: DeviceProfile);
    /// Device, driver and API, in words.
    fn description(&self) -> String;
    /// Whether the device is a software rasteriser (lavapipe), whose UNORM/SNORM
    /// conversion may differ by 1 ULP.
    fn is_software(&self) -> bool;
}

/// One vertex buffer of a draw.
pub struct GpuBuffer {
    /// Binding number.
    pub binding: u32,
    /// Bytes.
    pub data: Vec<u8>,
    /// Bind offset.
    pub offset: u64,
}

/// One draw for the GPU.
pub struct GpuDraw {
    /// The lowered vertex input state (each backend converts it to its API's structures).
    pub state: VertexInputState,
    /// Shader inputs (location, numeric type).
    pub inputs: Vec<(u32, InputType)>,
    /// Vertex buffers.
    pub buffers: Vec<GpuBuffer>,
    /// Index buffer bytes and whether the indices are 32-bit.
    pub index: Option<(Vec<u8>, bool, u64)>,
    /// Vulkan draw parameters: count (vertices or indices), instance count, first
    /// vertex/index, vertex offset (indexed only), first instance.
    pub count: u32,
    /// Instances.
    pub instances: u32,
    /// First vertex (non-indexed) or first index (indexed).
    pub first: u32,
    /// Vertex offset (indexed).
    pub vertex_offset: i32,
    /// First instance.
    pub first_instance: u32,
    /// Draw through an indirect argument buffer (same layout as D3D11's argument structs).
    pub indirect: bool,
    /// Records per instance and the VertexIndex of record 0.
    pub span: u32,
    /// VertexIndex of record 0.
    pub vbase: i32,
}

impl GpuDraw {
    /// The indirect argument structure of the draw, laid out as D3D11, Vulkan and WebGPU all
    /// lay it out: {count, instances, first, [vertex offset,] first instance}, 32-bit words.
    pub fn indirect_args(&self) -> Vec<u8> {
        let words: &[u32] = if self.index.is_some() {
            &[
                self.count,
                self.instances,
                self.first,
                self.vertex_offset as u32,
                self.first_instance,
            ]
        } else {
            &[self.count, self.instances, self.first, self.first_instance]
        };
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The store shader's parameters (`spirv::vertex_shader`): span, vbase, first instance,
    /// capacity, 16 bytes.
    pub fn shader_params(&self, capacity: u32) -> Vec<u8> {
        [self.span, self.vbase as u32, self.first_instance, capacity]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }
}
