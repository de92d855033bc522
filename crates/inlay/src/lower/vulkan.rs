//! The lowered state as `ash` (Vulkan) structures (feature `vulkan`).
//!
//! Vulkan spec §"Vertex Input Description": one `VkVertexInputBindingDescription` per
//! binding, one `VkVertexInputAttributeDescription` per attribute (location = the element's
//! input register), and `VkVertexInputBindingDivisorDescriptionKHR` for bindings whose
//! divisor is not 1 (`VK_KHR_vertex_attribute_divisor`, core in Vulkan 1.4).

use ash::vk;

use super::{TargetApi, VertexInputState};

/// The Vulkan vertex input description of a lowered state.
#[derive(Clone, Debug, Default)]
pub struct VulkanVertexInput {
    /// Binding descriptions.
    pub bindings: Vec<vk::VertexInputBindingDescription>,
    /// Attribute descriptions.
    pub attributes: Vec<vk::VertexInputAttributeDescription>,
    /// Divisor descriptions (chain a `PipelineVertexInputDivisorStateCreateInfoKHR`).
    pub divisors: Vec<vk::VertexInputBindingDivisorDescriptionKHR>,
    /// The primitive topology.
    pub topology: vk::PrimitiveTopology,
    /// `primitiveRestartEnable`.
    pub primitive_restart: bool,
}

/// `VK_PRIMITIVE_TOPOLOGY_*` value of a lowered topology name.
fn topology(name: Option<&str>) -> vk::PrimitiveTopology {
    use vk::PrimitiveTopology as T;
    match name {
        Some("POINT_LIST") => T::POINT_LIST,
        Some("LINE_LIST") => T::LINE_LIST,
        Some("LINE_STRIP") => T::LINE_STRIP,
        Some("TRIANGLE_LIST") => T::TRIANGLE_LIST,
        Some("TRIANGLE_STRIP") => T::TRIANGLE_STRIP,
        Some("LINE_LIST_WITH_ADJACENCY") => T::LINE_LIST_WITH_ADJACENCY,
        Some("LINE_STRIP_WITH_ADJACENCY") => T::LINE_STRIP_WITH_ADJACENCY,
        Some("TRIANGLE_LIST_WITH_ADJACENCY") => T::TRIANGLE_LIST_WITH_ADJACENCY,
        Some("TRIANGLE_STRIP_WITH_ADJACENCY") => T::TRIANGLE_STRIP_WITH_ADJACENCY,
        Some("PATCH_LIST") => T::PATCH_LIST,
        _ => T::POINT_LIST,
    }
}

impl VertexInputState {
    /// The state as Vulkan structures; `None` for a state lowered for another API.
    pub fn to_vulkan(&self) -> Option<VulkanVertexInput> {
        if self.api != TargetApi::Vulkan {
            return None;
        }
        let bindings = self
            .bindings
            .iter()
            .map(|b| vk::VertexInputBindingDescription {
                binding: b.binding,
                stride: b.stride,
                input_rate: if b.per_instance {
                    vk::VertexInputRate::INSTANCE
                } else {
                    vk::VertexInputRate::VERTEX
                },
            })
            .collect();
        let divisors = self
            .bindings
            .iter()
            .filter_map(|b| {
                b.divisor
                    .map(|d| vk::VertexInputBindingDivisorDescriptionKHR {
                        binding: b.binding,
                        divisor: d,
                    })
            })
            .collect();
        let attributes = self
            .attributes
            .iter()
            .map(|a| vk::VertexInputAttributeDescription {
                location: a.location,
                binding: a.binding,
                format: vk::Format::from_raw(a.format.value),
                offset: a.offset,
            })
            .collect();
        Some(VulkanVertexInput {
            bindings,
            attributes,
            divisors,
            topology: topology(self.topology),
            primitive_restart: self.primitive_restart,
        })
    }
}
