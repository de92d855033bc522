//! Target-API format names derived from the DXGI format table.
//!
//! No per-format mapping is written here: a DXGI row's components (channel, bit position,
//! width, kind) spell the Vulkan and WebGPU names directly. What this module holds are the
//! *target* APIs' own facts: the numeric `VkFormat` values (Vulkan spec §"Formats",
//! `VkFormat`), the formats the Vulkan spec makes mandatory for `VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT`
//! (Vulkan spec §"Required Format Support"), and WebGPU's vertex formats (WebGPU spec
//! §"Vertex Formats").

use crate::format::{Channel, FormatInfo, Kind};

/// A Vulkan format: its name without `VK_FORMAT_` and its `VkFormat` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VkFormatName {
    /// Name without the `VK_FORMAT_` prefix, e.g. `R32G32B32_SFLOAT`.
    pub name: &'static str,
    /// The `VkFormat` enumerant's value.
    pub value: i32,
}

/// `VkFormat` values of every format a DXGI vertex format can lower to (Vulkan spec
/// §"Formats", `VkFormat`; `A4R4G4B4_UNORM_PACK16` is core since Vulkan 1.3).
pub const VK_FORMATS: &[VkFormatName] = &[
    vk("R5G6B5_UNORM_PACK16", 4),
    vk("A1R5G5B5_UNORM_PACK16", 8),
    vk("R8_UNORM", 9),
    vk("R8_SNORM", 10),
    vk("R8_UINT", 13),
    vk("R8_SINT", 14),
    vk("R8G8_UNORM", 16),
    vk("R8G8_SNORM", 17),
    vk("R8G8_UINT", 20),
    vk("R8G8_SINT", 21),
    vk("R8G8B8A8_UNORM", 37),
    vk("R8G8B8A8_SNORM", 38),
    vk("R8G8B8A8_UINT", 41),
    vk("R8G8B8A8_SINT", 42),
    vk("B8G8R8A8_UNORM", 44),
    vk("A2B10G10R10_UNORM_PACK32", 64),
    vk("A2B10G10R10_UINT_PACK32", 68),
    vk("R16_UNORM", 70),
    vk("R16_SNORM", 71),
    vk("R16_UINT", 74),
    vk("R16_SINT", 75),
    vk("R16_SFLOAT", 76),
    vk("R16G16_UNORM", 77),
    vk("R16G16_SNORM", 78),
    vk("R16G16_UINT", 81),
    vk("R16G16_SINT", 82),
    vk("R16G16_SFLOAT", 83),
    vk("R16G16B16A16_UNORM", 91),
    vk("R16G16B16A16_SNORM", 92),
    vk("R16G16B16A16_UINT", 95),
    vk("R16G16B16A16_SINT", 96),
    vk("R16G16B16A16_SFLOAT", 97),
    vk("R32_UINT", 98),
    vk("R32_SINT", 99),
    vk("R32_SFLOAT", 100),
    vk("R32G32_UINT", 101),
    vk("R32G32_SINT", 102),
    vk("R32G32_SFLOAT", 103),
    vk("R32G32B32_UINT", 104),
    vk("R32G32B32_SINT", 105),
    vk("R32G32B32_SFLOAT", 106),
    vk("R32G32B32A32_UINT", 107),
    vk("R32G32B32A32_SINT", 108),
    vk("R32G32B32A32_SFLOAT", 109),
    vk("B10G11R11_UFLOAT_PACK32", 122),
    vk("A4R4G4B4_UNORM_PACK16", 1_000_340_000),
];

const fn vk(name: &'static str, value: i32) -> VkFormatName {
    VkFormatName { name, value }
}

/// The formats every Vulkan implementation must support as vertex attributes (Vulkan spec
/// §"Required Format Support", the `VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT` column), restricted
/// to those a DXGI vertex format can lower to.
pub const VULKAN_REQUIRED_VERTEX_FORMATS: &[&str] = &[
    "R8_UNORM",
    "R8_SNORM",
    "R8_UINT",
    "R8_SINT",
    "R8G8_UNORM",
    "R8G8_SNORM",
    "R8G8_UINT",
    "R8G8_SINT",
    "R8G8B8A8_UNORM",
    "R8G8B8A8_SNORM",
    "R8G8B8A8_UINT",
    "R8G8B8A8_SINT",
    "B8G8R8A8_UNORM",
    "A2B10G10R10_UNORM_PACK32",
    "R16_UNORM",
    "R16_SNORM",
    "R16_UINT",
    "R16_SINT",
    "R16_SFLOAT",
    "R16G16_UNORM",
    "R16G16_SNORM",
    "R16G16_UINT",
    "R16G16_SINT",
    "R16G16_SFLOAT",
    "R16G16B16A16_UNORM",
    "R16G16B16A16_SNORM",
    "R16G16B16A16_UINT",
    "R16G16B16A16_SINT",
    "R16G16B16A16_SFLOAT",
    "R32_UINT",
    "R32_SINT",
    "R32_SFLOAT",
    "R32G32_UINT",
    "R32G32_SINT",
    "R32G32_SFLOAT",
    "R32G32B32_UINT",
    "R32G32B32_SINT",
    "R32G32B32_SFLOAT",
    "R32G32B32A32_UINT",
    "R32G32B32A32_SINT",
    "R32G32B32A32_SFLOAT",
];

/// WebGPU vertex formats (WebGPU spec §"Vertex Formats"; the spelling of `wgpu-types`'
/// `VertexFormat`), those a DXGI vertex format can lower to. None needs a device feature.
pub const WGPU_VERTEX_FORMATS: &[&str] = &[
    "Uint8",
    "Uint8x2",
    "Uint8x4",
    "Sint8",
    "Sint8x2",
    "Sint8x4",
    "Unorm8",
    "Unorm8x2",
    "Unorm8x4",
    "Snorm8",
    "Snorm8x2",
    "Snorm8x4",
    "Uint16",
    "Uint16x2",
    "Uint16x4",
    "Sint16",
    "Sint16x2",
    "Sint16x4",
    "Unorm16",
    "Unorm16x2",
    "Unorm16x4",
    "Snorm16",
    "Snorm16x2",
    "Snorm16x4",
    "Float16",
    "Float16x2",
    "Float16x4",
    "Float32",
    "Float32x2",
    "Float32x3",
    "Float32x4",
    "Uint32",
    "Uint32x2",
    "Uint32x3",
    "Uint32x4",
    "Sint32",
    "Sint32x2",
    "Sint32x3",
    "Sint32x4",
    "Unorm10_10_10_2",
    "Unorm8x4Bgra",
];

/// Looks a Vulkan format up by name (without `VK_FORMAT_`).
pub fn vk_format(name: &str) -> Option<VkFormatName> {
    VK_FORMATS.iter().copied().find(|f| f.name == name)
}

fn channel_letter(c: Channel) -> Option<char> {
    match c {
        Channel::R => Some('R'),
        Channel::G => Some('G'),
        Channel::B => Some('B'),
        Channel::A => Some('A'),
        _ => None,
    }
}

/// The Vulkan spelling of a DXGI row's numeric kind; `None` where Vulkan has no vertex
/// equivalent. Unsigned small floats (the 11-/10-bit floats) are `UFLOAT`.
fn vk_kind(kind: Kind, bits: u8) -> Option<&'static str> {
    match kind {
        Kind::Float if bits < 16 => Some("UFLOAT"),
        Kind::Float => Some("SFLOAT"),
        Kind::Unorm => Some("UNORM"),
        Kind::Snorm => Some("SNORM"),
        Kind::Uint => Some("UINT"),
        Kind::Sint => Some("SINT"),
        _ => None,
    }
}

/// The Vulkan format whose memory layout and numeric conversion equal a DXGI format's, if
/// one exists.
///
/// Both APIs name byte-aligned formats by their components in memory order (`R8G8B8A8`,
/// `B8G8R8A8`), so those names agree. Packed formats are named from the least significant
/// bit in DXGI and from the most significant bit in Vulkan, with a `_PACKnn` suffix
/// (`R10G10B10A2` = `A2B10G10R10_PACK32`; DXGI spec §"Format naming", Vulkan spec
/// §"Packed formats"). A format with unused `X` bits (`B8G8R8X8_UNORM`) has no Vulkan twin:
/// Vulkan would deliver the X byte as alpha where Direct3D delivers 1.0.
pub fn vulkan_twin(info: &FormatInfo) -> Option<VkFormatName> {
    let comps = info.components;
    if comps.is_empty() || comps.iter().any(|c| channel_letter(c.channel).is_none()) {
        return None;
    }
    let kind = comps[0].kind;
    if comps.iter().any(|c| c.kind != kind) && !comps.iter().all(|c| c.kind == Kind::Float) {
        return None;
    }
    let byte_aligned = comps
        .iter()
        .all(|c| c.bits % 8 == 0 && c.bit_offset % 8 == 0);
    let mut name = String::new();
    let ordered: Vec<_> = if byte_aligned {
        comps.iter().collect()
    } else {
        comps.iter().rev().collect()
    };
    for c in &ordered {
        name.push(channel_letter(c.channel)?);
        name.push_str(&c.bits.to_string());
    }
    name.push('_');
    name.push_str(vk_kind(kind, comps[0].bits)?);
    if !byte_aligned {
        name.push_str(&format!("_PACK{}", info.bits));
    }
    vk_format(&name)
}

/// The WebGPU vertex format equal to a DXGI format, if one exists.
///
/// WebGPU names formats `KindBITSxN` for N components in RGBA memory order, plus two packed
/// formats: `Unorm10_10_10_2` (= `R10G10B10A2_UNORM`) and `Unorm8x4Bgra` (= `B8G8R8A8_UNORM`).
/// Three-component formats exist only at 32 bits.
pub fn wgpu_twin(info: &FormatInfo) -> Option<&'static str> {
    let comps = info.components;
    if comps.is_empty() {
        return None;
    }
    let kind = comps[0].kind;
    if comps.iter().any(|c| c.kind != kind) {
        return None;
    }
    let prefix = match kind {
        Kind::Float => "Float",
        Kind::Unorm => "Unorm",
        Kind::Snorm => "Snorm",
        Kind::Uint => "Uint",
        Kind::Sint => "Sint",
        _ => return None,
    };
    let letters: String = comps
        .iter()
        .map(|c| channel_letter(c.channel).unwrap_or('X'))
        .collect();
    let bits = comps[0].bits;
    let uniform = comps.iter().all(|c| c.bits == bits);
    let name = if !uniform {
        if letters == "RGBA" && comps.iter().map(|c| c.bits).eq([10, 10, 10, 2]) {
            format!("{prefix}10_10_10_2")
        } else {
            return None;
        }
    } else if letters == "BGRA" && bits == 8 {
        format!("{prefix}8x4Bgra")
    } else if "RGBA".starts_with(&letters) {
        match comps.len() {
            1 => format!("{prefix}{bits}"),
            n => format!("{prefix}{bits}x{n}"),
        }
    } else {
        return None;
    };
    WGPU_VERTEX_FORMATS.iter().copied().find(|f| *f == name)
}

/// The lossless 32-bit-per-lane stand-in for a format the target cannot fetch: the same
/// number of lanes as the DXGI format supplies from memory (x, y, z, w prefix), holding the
/// exact 32-bit values Direct3D's input assembler produces — floats for FLOAT/UNORM/SNORM,
/// integers for UINT/SINT. Returns the lane count and the Vulkan and WebGPU names.
pub fn wide_stand_in(info: &FormatInfo) -> Option<(usize, VkFormatName, &'static str)> {
    let mask = info.lane_mask();
    if mask == 0 {
        return None;
    }
    // Lanes up to the highest one the format supplies; missing ones in between are filled
    // with the defaults by the conversion, and absent higher lanes get the target's defaults,
    // which equal Direct3D's (0, 0, 0, 1 of the right type; Vulkan spec §"Conversion to RGBA").
    let lanes = 8 - mask.leading_zeros() as usize;
    let (vk_suffix, wgpu_prefix) = match info.first_kind()? {
        Kind::Uint => ("UINT", "Uint32"),
        Kind::Sint => ("SINT", "Sint32"),
        k if k.is_float_like() => ("SFLOAT", "Float32"),
        _ => return None,
    };
    let vk_name = ["R32", "R32G32", "R32G32B32", "R32G32B32A32"][lanes - 1];
    let vkf = vk_format(&format!("{vk_name}_{vk_suffix}"))?;
    let wname = match lanes {
        1 => wgpu_prefix.to_string(),
        n => format!("{wgpu_prefix}x{n}"),
    };
    let w = WGPU_VERTEX_FORMATS.iter().copied().find(|f| *f == wname)?;
    Some((lanes, vkf, w))
}
