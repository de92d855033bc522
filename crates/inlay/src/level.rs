//! Device feature levels (`D3D_FEATURE_LEVEL_9_1` … `D3D_FEATURE_LEVEL_11_1`): a leaf both the
//! format table (support per level, [`crate::format`]) and the targets ([`crate::target`], which
//! re-exports these names) use, so neither imports the other.
//!
//! Evidence: `d3dcommon.h` (`D3D_FEATURE_LEVEL`); the Learn feature-level table.

use std::fmt;
use std::str::FromStr;

/// A device feature level.
///
/// With the `serde` feature it reads and writes the conformance schema's spellings only
/// (`"9_1"` … `"11_1"`, [`FeatureLevel::as_str`]); [`FromStr`] also takes `11.0` and
/// `D3D_FEATURE_LEVEL_11_0`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum FeatureLevel {
    /// `D3D_FEATURE_LEVEL_9_1`
    L9_1,
    /// `D3D_FEATURE_LEVEL_9_2`
    L9_2,
    /// `D3D_FEATURE_LEVEL_9_3`
    L9_3,
    /// `D3D_FEATURE_LEVEL_10_0`
    L10_0,
    /// `D3D_FEATURE_LEVEL_10_1`
    L10_1,
    /// `D3D_FEATURE_LEVEL_11_0`
    L11_0,
    /// `D3D_FEATURE_LEVEL_11_1`
    L11_1,
}

impl FeatureLevel {
    /// All levels, lowest first.
    pub const ALL: [FeatureLevel; 7] = [
        FeatureLevel::L9_1,
        FeatureLevel::L9_2,
        FeatureLevel::L9_3,
        FeatureLevel::L10_0,
        FeatureLevel::L10_1,
        FeatureLevel::L11_0,
        FeatureLevel::L11_1,
    ];

    /// Position in [`FeatureLevel::ALL`] (the column of the format table's support rows).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this is a 10Level9 level (9_1, 9_2, 9_3).
    pub const fn is_level9(self) -> bool {
        matches!(
            self,
            FeatureLevel::L9_1 | FeatureLevel::L9_2 | FeatureLevel::L9_3
        )
    }

    /// The `D3D_FEATURE_LEVEL` value (`D3D_FEATURE_LEVEL_11_0` = 0xb000), what
    /// `D3D11CreateDevice` takes.
    pub const fn d3d_value(self) -> u32 {
        match self {
            FeatureLevel::L9_1 => 0x9100,
            FeatureLevel::L9_2 => 0x9200,
            FeatureLevel::L9_3 => 0x9300,
            FeatureLevel::L10_0 => 0xa000,
            FeatureLevel::L10_1 => 0xa100,
            FeatureLevel::L11_0 => 0xb000,
            FeatureLevel::L11_1 => 0xb100,
        }
    }

    /// The spelling used by the conformance schema and the CLI (`"11_0"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            FeatureLevel::L9_1 => "9_1",
            FeatureLevel::L9_2 => "9_2",
            FeatureLevel::L9_3 => "9_3",
            FeatureLevel::L10_0 => "10_0",
            FeatureLevel::L10_1 => "10_1",
            FeatureLevel::L11_0 => "11_0",
            FeatureLevel::L11_1 => "11_1",
        }
    }
}

impl fmt::Display for FeatureLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error from parsing an API or feature-level name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{text}` (expected one of: {expected})")]
pub struct ParseTargetError {
    /// "API" or "feature level".
    pub what: &'static str,
    /// The text that did not parse.
    pub text: String,
    /// The accepted spellings.
    pub expected: &'static str,
}

impl FromStr for FeatureLevel {
    type Err = ParseTargetError;
    /// Accepts `11_0`, `11.0`, `11_0`, `D3D_FEATURE_LEVEL_11_0` (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let u = s.trim().to_ascii_uppercase().replace('.', "_");
        let bare = u.strip_prefix("D3D_FEATURE_LEVEL_").unwrap_or(&u);
        FeatureLevel::ALL
            .into_iter()
            .find(|l| l.as_str() == bare)
            .ok_or_else(|| ParseTargetError {
                what: "feature level",
                text: s.to_string(),
                expected: "9_1, 9_2, 9_3, 10_0, 10_1, 11_0, 11_1",
            })
    }
}
