//! Program version tokens: the `SHDR`/`SHEX` token (stage, shader model) and the Direct3D 9
//! token of the embedded level-9 program (`Aon9`).

use std::fmt;

use super::read_u32;

/// The pipeline stage a program is for (program type, bits 16..32 of the version token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderStage {
    /// Program type 0.
    Pixel,
    /// Program type 1.
    Vertex,
    /// Program type 2.
    Geometry,
    /// Program type 3.
    Hull,
    /// Program type 4.
    Domain,
    /// Program type 5.
    Compute,
}

impl ShaderStage {
    /// From the program-type field; `None` for other values.
    pub fn from_program_type(t: u32) -> Option<ShaderStage> {
        Some(match t {
            0 => ShaderStage::Pixel,
            1 => ShaderStage::Vertex,
            2 => ShaderStage::Geometry,
            3 => ShaderStage::Hull,
            4 => ShaderStage::Domain,
            5 => ShaderStage::Compute,
            _ => return None,
        })
    }

    /// The corpus spelling: `vertex`, `pixel`, `geometry`, `hull`, `domain`, `compute`.
    pub fn name(self) -> &'static str {
        match self {
            ShaderStage::Pixel => "pixel",
            ShaderStage::Vertex => "vertex",
            ShaderStage::Geometry => "geometry",
            ShaderStage::Hull => "hull",
            ShaderStage::Domain => "domain",
            ShaderStage::Compute => "compute",
        }
    }

    /// The fxc profile prefix: `vs`, `ps`, `gs`, `hs`, `ds`, `cs`.
    pub fn profile_prefix(self) -> &'static str {
        match self {
            ShaderStage::Pixel => "ps",
            ShaderStage::Vertex => "vs",
            ShaderStage::Geometry => "gs",
            ShaderStage::Hull => "hs",
            ShaderStage::Domain => "ds",
            ShaderStage::Compute => "cs",
        }
    }
}

impl fmt::Display for ShaderStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Stage and shader model from the first token of `SHDR`/`SHEX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShaderVersion {
    /// Pipeline stage.
    pub stage: ShaderStage,
    /// Major version (bits 4..8).
    pub major: u8,
    /// Minor version (bits 0..4).
    pub minor: u8,
}

impl ShaderVersion {
    /// Decodes a version token; `None` when the program type is not one of the six stages.
    pub fn from_token(token: u32) -> Option<ShaderVersion> {
        Some(ShaderVersion {
            stage: ShaderStage::from_program_type(token >> 16)?,
            major: ((token >> 4) & 0xf) as u8,
            minor: (token & 0xf) as u8,
        })
    }

    /// The token this version is stored as.
    pub fn token(self) -> u32 {
        let t = match self.stage {
            ShaderStage::Pixel => 0,
            ShaderStage::Vertex => 1,
            ShaderStage::Geometry => 2,
            ShaderStage::Hull => 3,
            ShaderStage::Domain => 4,
            ShaderStage::Compute => 5,
        };
        (t << 16) | (u32::from(self.major & 0xf) << 4) | u32::from(self.minor & 0xf)
    }
}

impl fmt::Display for ShaderVersion {
    /// fxc profile spelling without the level-9 suffix, e.g. `vs_5_0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}_{}_{}",
            self.stage.profile_prefix(),
            self.major,
            self.minor
        )
    }
}

/// The Direct3D 9 program embedded in an `Aon9` chunk (shader models `4_0_level_9_x`).
///
/// Chunk data layout as observed in every corpus blob: word 0 the chunk size, word 1 a version
/// token (always `x_2_0`), word 2 the size of the DX9 program, word 3 the offset of the DX9
/// program within the chunk data; the program starts with its own version token
/// (`0xFFFE0200` = `vs_2_0`, `0xFFFE0201` = `vs_2_x`, `0xFFFF02xx` for pixel shaders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Level9Bytecode {
    /// The DX9 version token of the embedded program; `None` when the chunk is too short or the
    /// program offset points outside it.
    pub version_token: Option<u32>,
}

impl Level9Bytecode {
    /// Reads the embedded program's version token from `Aon9` chunk data.
    pub fn from_chunk_data(data: &[u8]) -> Level9Bytecode {
        let version_token = read_u32(data, 12).and_then(|off| read_u32(data, off as usize));
        Level9Bytecode { version_token }
    }

    /// The DX9 profile fxc prints for the embedded code (`vs_2_0`, `vs_2_x`, `ps_2_0`, …); minor
    /// version 1 is printed as `x` like fxc does. `None` when unreadable or not a vs/ps token.
    pub fn profile(&self) -> Option<String> {
        let t = self.version_token?;
        let prefix = match t >> 16 {
            0xfffe => "vs",
            0xffff => "ps",
            _ => return None,
        };
        let major = (t >> 8) & 0xff;
        let minor = t & 0xff;
        Some(if minor == 1 {
            format!("{prefix}_{major}_x")
        } else {
            format!("{prefix}_{major}_{minor}")
        })
    }

    /// The feature-level suffix of the shader model: `9_1` for embedded `x_2_0` code (profiles
    /// `*_4_0_level_9_1`, also used for 9_2), `9_3` for `x_2_x` (`*_4_0_level_9_3`), `9_x`
    /// when the embedded version is anything else or unreadable. Derived from the corpus, where
    /// every record naming the level pairs 9_1 with `vs_2_0`/`ps_2_0` and 9_3 with
    /// `vs_2_x`/`ps_2_x`.
    pub fn feature_level_suffix(&self) -> &'static str {
        match self.version_token.map(|t| t & 0xffff) {
            Some(0x0200) => "9_1",
            Some(0x0201) => "9_3",
            _ => "9_x",
        }
    }
}
