//! Signature elements: what the `ISGN`/`ISG1`/`OSGN`/`OSG1`/`OSG5`/`PCSG`/`PSG1` chunks hold.

use std::fmt;

/// Register value stored for an element without a register (fxc prints `N/A`).
pub const NO_REGISTER: u32 = 0xffff_ffff;

/// `D3D_NAME`: the system-value code of a signature element.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct SystemValue(pub u32);

/// Generates the [`SystemValue`] constants, [`SYSTEM_VALUES`] and [`SystemValue::semantic`]
/// from one row per `D3D_NAME`: `CONST = value, "schema name", "fxc name", "HLSL semantic";`
/// (the semantic left out where there is none).
macro_rules! system_values {
    ($($id:ident = $value:literal, $schema:literal, $fxc:literal $(, $semantic:literal)?;)*) => {
        impl SystemValue {
            $(
                #[doc = concat!(
                    "`D3D_NAME_", stringify!($id), "` (", stringify!($value), ")",
                    $(", the HLSL semantic `", $semantic, "`",)?
                    "; fxc lists it as `", $fxc, "`."
                )]
                pub const $id: SystemValue = SystemValue($value);
            )*

            /// The HLSL system-value semantic that produces this code (`"SV_Position"`,
            /// `"SV_VertexID"`, …; several tessellation factors share `SV_TessFactor` and
            /// `SV_InsideTessFactor`), or `None` for `UNDEFINED` and unknown codes.
            pub const fn semantic(self) -> Option<&'static str> {
                match self.0 {
                    $($(
                        $value => Some($semantic),
                    )?)*
                    _ => None,
                }
            }
        }

        /// Table of system values: code, `D3D_NAME_*` suffix (schema spelling) and fxc's listing
        /// spelling.
        pub const SYSTEM_VALUES: &[(u32, &str, &str)] = &[$(($value, $schema, $fxc)),*];
    };
}

// `D3D_NAME` of `d3dcommon.h` (learn.microsoft.com "D3D_NAME enumeration"); the schema spells
// UNDEFINED as fxc does, `NONE`.
system_values! {
    UNDEFINED = 0, "NONE", "NONE";
    POSITION = 1, "POSITION", "POS", "SV_Position";
    CLIP_DISTANCE = 2, "CLIP_DISTANCE", "CLIPDST", "SV_ClipDistance";
    CULL_DISTANCE = 3, "CULL_DISTANCE", "CULLDST", "SV_CullDistance";
    RENDER_TARGET_ARRAY_INDEX = 4, "RENDER_TARGET_ARRAY_INDEX", "RTINDEX", "SV_RenderTargetArrayIndex";
    VIEWPORT_ARRAY_INDEX = 5, "VIEWPORT_ARRAY_INDEX", "VPINDEX", "SV_ViewportArrayIndex";
    VERTEX_ID = 6, "VERTEX_ID", "VERTID", "SV_VertexID";
    PRIMITIVE_ID = 7, "PRIMITIVE_ID", "PRIMID", "SV_PrimitiveID";
    INSTANCE_ID = 8, "INSTANCE_ID", "INSTID", "SV_InstanceID";
    IS_FRONT_FACE = 9, "IS_FRONT_FACE", "FFACE", "SV_IsFrontFace";
    SAMPLE_INDEX = 10, "SAMPLE_INDEX", "SAMPLE", "SV_SampleIndex";
    FINAL_QUAD_EDGE_TESSFACTOR = 11, "FINAL_QUAD_EDGE_TESSFACTOR", "QUADEDGE", "SV_TessFactor";
    FINAL_QUAD_INSIDE_TESSFACTOR = 12, "FINAL_QUAD_INSIDE_TESSFACTOR", "QUADINT", "SV_InsideTessFactor";
    FINAL_TRI_EDGE_TESSFACTOR = 13, "FINAL_TRI_EDGE_TESSFACTOR", "TRIEDGE", "SV_TessFactor";
    FINAL_TRI_INSIDE_TESSFACTOR = 14, "FINAL_TRI_INSIDE_TESSFACTOR", "TRIINT", "SV_InsideTessFactor";
    FINAL_LINE_DETAIL_TESSFACTOR = 15, "FINAL_LINE_DETAIL_TESSFACTOR", "LINEDET", "SV_TessFactor";
    FINAL_LINE_DENSITY_TESSFACTOR = 16, "FINAL_LINE_DENSITY_TESSFACTOR", "LINEDEN", "SV_TessFactor";
    BARYCENTRICS = 23, "BARYCENTRICS", "BARYCEN", "SV_Barycentrics";
    SHADINGRATE = 24, "SHADINGRATE", "SHDINGRATE", "SV_ShadingRate";
    CULLPRIMITIVE = 25, "CULLPRIMITIVE", "CULLPRIM", "SV_CullPrimitive";
    TARGET = 64, "TARGET", "TARGET", "SV_Target";
    DEPTH = 65, "DEPTH", "DEPTH", "SV_Depth";
    COVERAGE = 66, "COVERAGE", "COVERAGE", "SV_Coverage";
    DEPTH_GREATER_EQUAL = 67, "DEPTH_GREATER_EQUAL", "DEPTHGE", "SV_DepthGreaterEqual";
    DEPTH_LESS_EQUAL = 68, "DEPTH_LESS_EQUAL", "DEPTHLE", "SV_DepthLessEqual";
    STENCIL_REF = 69, "STENCIL_REF", "STENCILREF", "SV_StencilRef";
    INNER_COVERAGE = 70, "INNER_COVERAGE", "INNERCOV", "SV_InnerCoverage";
}

/// The codes of [`SYSTEM_VALUES`] as ranges for messages: `0 to 16, 23 to 25 or 64 to 70`.
#[cfg(feature = "serde")]
pub(crate) fn system_value_ranges() -> String {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for &(code, _, _) in SYSTEM_VALUES {
        match ranges.last_mut() {
            Some(last) if last.1 + 1 == code => last.1 = code,
            _ => ranges.push((code, code)),
        }
    }
    let parts: Vec<String> = ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a} to {b}")
            }
        })
        .collect();
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => parts.concat(),
    }
}

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
    // dxc's `DxilProgramSigCompType` adds the 16- and 64-bit types (SM 6.2 native 16-bit
    // types, min-precision signatures).
    pub const UINT16: ComponentType = ComponentType(4);
    pub const SINT16: ComponentType = ComponentType(5);
    pub const FLOAT16: ComponentType = ComponentType(6);
    pub const UINT64: ComponentType = ComponentType(7);
    pub const SINT64: ComponentType = ComponentType(8);
    pub const FLOAT64: ComponentType = ComponentType(9);

    /// fxc's spelling as used by the corpus records and the schema: `uint`, `int`/`sint`,
    /// `float`; dxc's wider set as `uint16`, `int16`, `float16`, `uint64`, `int64`, `float64`.
    pub fn fxc_name(self) -> &'static str {
        match self.0 {
            1 => "uint",
            2 => "int",
            3 => "float",
            4 => "uint16",
            5 => "int16",
            6 => "float16",
            7 => "uint64",
            8 => "int64",
            9 => "float64",
            _ => "unknown",
        }
    }

    /// dxc's `DxilProgramSigCompType` spelling: `uint32`, `sint32`, `float32`, `uint16`, …
    /// (`unknown` for 0 and unknown codes).
    pub fn dxil_name(self) -> &'static str {
        match self.0 {
            1 => "uint32",
            2 => "sint32",
            3 => "float32",
            4 => "uint16",
            5 => "sint16",
            6 => "float16",
            7 => "uint64",
            8 => "sint64",
            9 => "float64",
            _ => "unknown",
        }
    }

    /// The 32-bit register class a vertex input of this type is matched in (`float`, `uint`
    /// or `sint` kinds of [`ComponentType::UINT32`] …): 16-bit types count as their 32-bit
    /// class (min-precision and native 16-bit inputs are fed 32-bit data by the IA, R23),
    /// 64-bit and unknown types as none.
    pub fn register_class(self) -> Option<ComponentType> {
        match self.0 {
            1 | 4 => Some(ComponentType::UINT32),
            2 | 5 => Some(ComponentType::SINT32),
            3 | 6 => Some(ComponentType::FLOAT32),
            _ => None,
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
