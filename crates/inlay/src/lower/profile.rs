//! Device profiles: what a target device can fetch, and its vertex-input limits.
//!
//! The default Vulkan profile is the Vulkan specification's guarantee (the formats required
//! for `VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT`, §"Required Format Support"; the minimum limits
//! of §"Limit Requirements": 16 bindings, 16 attributes, offset 2047, stride 2048; no divisor,
//! no list restart, no robustness2). The WebGPU profile is WebGPU's default limits (8 buffers,
//! 16 attributes, stride 2048) and its vertex formats. A real device's profile is read off
//! it by the GPU harness (`crates/inlay-gpu`, `inlay-gpu profile`) and stored as JSON in
//! `profiles/`.

use super::names;

/// The target API of a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TargetApi {
    /// Vulkan 1.x.
    Vulkan,
    /// WebGPU through `wgpu`.
    Wgpu,
}

impl TargetApi {
    /// `"Vulkan"` or `"WebGPU"`.
    pub const fn name(self) -> &'static str {
        match self {
            TargetApi::Vulkan => "Vulkan",
            TargetApi::Wgpu => "WebGPU",
        }
    }
}

/// Instance-divisor support (`VK_KHR/EXT_vertex_attribute_divisor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct DivisorSupport {
    /// `vertexAttributeInstanceRateDivisor`.
    pub supported: bool,
    /// `vertexAttributeInstanceRateZeroDivisor`.
    pub zero: bool,
    /// `maxVertexAttribDivisor`.
    pub max: u32,
}

/// What one device can do for vertex input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct DeviceProfile {
    /// A name for reports (`"Vulkan 1.x required"`, a device name and driver).
    pub name: String,
    /// The API.
    pub api: TargetApi,
    /// Formats usable as vertex attributes, in the API's spelling (Vulkan without
    /// `VK_FORMAT_`; WebGPU as `wgpu-types` spells `VertexFormat`).
    pub vertex_formats: Vec<String>,
    /// `maxVertexInputBindings` (WebGPU `maxVertexBuffers`).
    pub max_vertex_input_bindings: u32,
    /// `maxVertexInputAttributes` (WebGPU `maxVertexAttributes`).
    pub max_vertex_input_attributes: u32,
    /// `maxVertexInputAttributeOffset` (WebGPU: stride − format size, so the stride limit).
    pub max_vertex_input_attribute_offset: u32,
    /// `maxVertexInputBindingStride` (WebGPU `maxVertexBufferArrayStride`).
    pub max_vertex_input_binding_stride: u32,
    /// Instance divisors.
    #[cfg_attr(feature = "serde", serde(default))]
    pub divisor: DivisorSupport,
    /// `primitiveTopologyListRestart`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub primitive_topology_list_restart: bool,
    /// `robustBufferAccess2`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub robust_buffer_access2: bool,
    /// Where the profile came from (driver, API version), free text.
    #[cfg_attr(feature = "serde", serde(default))]
    pub source: String,
}

/// Error reading a profile.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// Not valid profile JSON.
    #[error("device profile: {0}")]
    Json(String),
    /// A format name the API does not have.
    #[error("device profile: `{0}` is not a {1} vertex format inlay knows")]
    UnknownFormat(String, &'static str),
}

impl DeviceProfile {
    /// The Vulkan specification's guarantee: every conformant device has at least this.
    pub fn vulkan_required() -> DeviceProfile {
        DeviceProfile {
            name: "Vulkan 1.x required support".to_string(),
            api: TargetApi::Vulkan,
            vertex_formats: names::VULKAN_REQUIRED_VERTEX_FORMATS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            max_vertex_input_bindings: 16,
            max_vertex_input_attributes: 16,
            max_vertex_input_attribute_offset: 2047,
            max_vertex_input_binding_stride: 2048,
            divisor: DivisorSupport::default(),
            primitive_topology_list_restart: false,
            robust_buffer_access2: false,
            source: "Vulkan spec: Required Format Support and Limit Requirements".to_string(),
        }
    }

    /// WebGPU's default limits and every vertex format (none needs a feature).
    pub fn wgpu_default() -> DeviceProfile {
        DeviceProfile {
            name: "WebGPU default limits".to_string(),
            api: TargetApi::Wgpu,
            vertex_formats: names::WGPU_VERTEX_FORMATS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            max_vertex_input_bindings: 8,
            max_vertex_input_attributes: 16,
            max_vertex_input_attribute_offset: 2048,
            max_vertex_input_binding_stride: 2048,
            divisor: DivisorSupport::default(),
            primitive_topology_list_restart: false,
            robust_buffer_access2: true,
            source: "WebGPU spec: default limits (robust buffer access is always on)".to_string(),
        }
    }

    /// Whether `name` (the API's spelling) is a vertex format of this device.
    pub fn supports(&self, name: &str) -> bool {
        self.vertex_formats.iter().any(|f| f == name)
    }

    /// Reads a profile from JSON, checking that every format name exists in the API.
    #[cfg(feature = "serde")]
    pub fn from_json(text: &str) -> Result<DeviceProfile, ProfileError> {
        let p: DeviceProfile =
            serde_json::from_str(text).map_err(|e| ProfileError::Json(e.to_string()))?;
        for f in &p.vertex_formats {
            let known = match p.api {
                TargetApi::Vulkan => names::vk_format(f).is_some(),
                TargetApi::Wgpu => names::WGPU_VERTEX_FORMATS.contains(&f.as_str()),
            };
            if !known {
                return Err(ProfileError::UnknownFormat(f.clone(), p.api.name()));
            }
        }
        Ok(p)
    }

    /// The profile as pretty JSON.
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
