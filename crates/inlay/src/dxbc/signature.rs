//! Signature elements: what the `ISGN`/`ISG1`/`OSGN`/`OSG1`/`OSG5`/`PCSG`/`PSG1` chunks hold.

use std::fmt;

/// Register value stored for an element without a register (fxc prints `N/A`).
pub const NO_REGISTER: u32 = 0xffff_ffff;

/// `D3D_NAME`: the system-value code of a signature element.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct SystemValue(pub u32);

#[allow(missing_docs)]
impl SystemValue {
    pub const UNDEFINED: SystemValue = SystemValue(0);
    pub const POSITION: SystemValue = SystemValue(1);
    pub const CLIP_DISTANCE: SystemValue = SystemValue(2);
    pub const CULL_DISTANCE: SystemValue = SystemValue(3);
    pub const RENDER_TARGET_ARRAY_INDEX: SystemValue = SystemValue(4);
    pub const VIEWPORT_ARRAY_INDEX: SystemValue = SystemValue(5);
    pub const VERTEX_ID: SystemValue = SystemValue(6);
    pub const PRIMITIVE_ID: SystemValue = SystemValue(7);
    pub const INSTANCE_ID: SystemValue = SystemValue(8);
    pub const IS_FRONT_FACE: SystemValue = SystemValue(9);
    pub const SAMPLE_INDEX: SystemValue = SystemValue(10);
}

/// Table of system values: code, `D3D_NAME_*` suffix (schema spelling) and fxc's listing spelling.
pub const SYSTEM_VALUES: &[(u32, &str, &str)] = &[
    (0, "NONE", "NONE"),
    (1, "POSITION", "POS"),
    (2, "CLIP_DISTANCE", "CLIPDST"),
    (3, "CULL_DISTANCE", "CULLDST"),
    (4, "RENDER_TARGET_ARRAY_INDEX", "RTINDEX"),
    (5, "VIEWPORT_ARRAY_INDEX", "VPINDEX"),
    (6, "VERTEX_ID", "VERTID"),
    (7, "PRIMITIVE_ID", "PRIMID"),
    (8, "INSTANCE_ID", "INSTID"),
    (9, "IS_FRONT_FACE", "FFACE"),
    (10, "SAMPLE_INDEX", "SAMPLE"),
    (11, "FINAL_QUAD_EDGE_TESSFACTOR", "QUADEDGE"),
    (12, "FINAL_QUAD_INSIDE_TESSFACTOR", "QUADINT"),
    (13, "FINAL_TRI_EDGE_TESSFACTOR", "TRIEDGE"),
    (14, "FINAL_TRI_INSIDE_TESSFACTOR", "TRIINT"),
    (15, "FINAL_LINE_DETAIL_TESSFACTOR", "LINEDET"),
    (16, "FINAL_LINE_DENSITY_TESSFACTOR", "LINEDEN"),
    (17, "BARYCENTRICS", "BARYCEN"),
    (18, "SHADINGRATE", "SHDINGRATE"),
    (19, "CULLPRIMITIVE", "CULLPRIM"),
    (64, "TARGET", "TARGET"),
    (65, "DEPTH", "DEPTH"),
    (66, "COVERAGE", "COVERAGE"),
    (67, "DEPTH_GREATER_EQUAL", "DEPTHGE"),
    (68, "DEPTH_LESS_EQUAL", "DEPTHLE"),
    (69, "STENCIL_REF", "STENCILREF"),
    (70, "INNER_COVERAGE", "INNERCOV"),
];

impl SystemValue {
    /// The `D3D_NAME_` suffix used by the conformance schema (`"NONE"`, `"POSITION"`, …).
    pub fn schema_name(self) -> Option<&'static str> {
        SYSTEM_VALUES.iter().find(|r| r.0 == self.0).map(|r| r.1)
    }
    /// fxc's listing spelling (`"NONE"`, `"POS"`, `"VERTID"`, …).
    pub fn fxc_name(self) -> Option<&'static str> {
        SYSTEM_VALUES.iter().find(|r| r.0 == self.0).map(|r| r.2)
    }
    /// Parses either spelling, case-insensitively.
    pub fn from_name(s: &str) -> Option<SystemValue> {
        let u = s.to_ascii_uppercase();
        let u = u.strip_prefix("D3D_NAME_").unwrap_or(&u);
        let u = if u == "UNDEFINED" { "NONE" } else { u };
        SYSTEM_VALUES
            .iter()
            .find(|r| r.1 == u || r.2 == u)
            .map(|r| SystemValue(r.0))
    }
}

/// `D3D_REGISTER_COMPONENT_TYPE`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct ComponentType(pub u32);

#[allow(missing_docs)]
impl ComponentType {
    pub const UNKNOWN: ComponentType = ComponentType(0);
    pub const UINT32: ComponentType = ComponentType(1);
    pub const SINT32: ComponentType = ComponentType(2);
    pub const FLOAT32: ComponentType = ComponentType(3);

    /// fxc's spelling as used by the corpus records and the schema: `uint`, `int`/`sint`, `float`.
    pub fn fxc_name(self) -> &'static str {
        match self.0 {
            1 => "uint",
            2 => "int",
            3 => "float",
            _ => "unknown",
        }
    }
}

/// `D3D_MIN_PRECISION` as stored in `ISG1`/`OSG1`/`PSG1`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct MinPrecision(pub u32);

impl MinPrecision {
    /// The corpus spelling (`min16f`, `min2_8f`, `min16i`, `min16u`), `None` for default (0)
    /// precision.
    pub fn corpus_name(self) -> Option<&'static str> {
        match self.0 {
            0 => None,
            1 => Some("min16f"),
            2 => Some("min2_8f"),
            4 => Some("min16i"),
            5 => Some("min16u"),
            3 => Some("reserved"),
            0xf0 => Some("any16"),
            0xf1 => Some("any10"),
            _ => Some("unknown"),
        }
    }
}

/// One signature element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SignatureElement {
    /// Geometry-shader stream (always 0 outside `ISG1`/`OSG5`/`OSG1`).
    pub stream: u32,
    /// Semantic name as stored (case preserved).
    pub semantic_name: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// System-value code.
    pub system_value: SystemValue,
    /// Component type.
    pub component_type: ComponentType,
    /// Register number, or [`NO_REGISTER`].
    pub register: u32,
    /// Declared components (bit 0 = x).
    pub mask: u8,
    /// For inputs: components the shader reads; for outputs: components it never writes.
    pub read_write_mask: u8,
    /// Minimum precision (0 = default).
    pub min_precision: MinPrecision,
}

impl SignatureElement {
    /// The register, or `None` for [`NO_REGISTER`].
    pub fn register(&self) -> Option<u32> {
        (self.register != NO_REGISTER).then_some(self.register)
    }
}

/// Formats a component mask as letters in xyzw order (`0b0111` → `"xyz"`, `0b1010` → `"yw"`).
pub fn mask_letters(mask: u8) -> String {
    "xyzw"
        .chars()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, c)| c)
        .collect()
}

/// Parses letters in xyzw order (also accepts rgba); `None` for anything else.
pub fn parse_mask_letters(s: &str) -> Option<u8> {
    let mut m = 0u8;
    for ch in s.chars() {
        let bit = match ch.to_ascii_lowercase() {
            'x' | 'r' => 0,
            'y' | 'g' => 1,
            'z' | 'b' => 2,
            'w' | 'a' => 3,
            _ => return None,
        };
        if m & (1 << bit) != 0 || (m >> bit) != 0 {
            return None;
        }
        m |= 1 << bit;
    }
    Some(m)
}

/// A parsed signature chunk.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Signature {
    /// Elements in stored order.
    pub elements: Vec<SignatureElement>,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.elements {
            writeln!(
                f,
                "{}{} v{} {}",
                e.semantic_name,
                e.semantic_index,
                e.register,
                mask_letters(e.mask)
            )?;
        }
        Ok(())
    }
}
