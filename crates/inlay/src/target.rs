//! Targets: which runtime (D3D10, D3D10.1, D3D11, D3D12) at which feature level, and the
//! limits and format support that follow.
//!
//! Evidence: `createinputlayout-rules.md` §0 (constants) and R38–R42; the Learn feature-level
//! table ("Max Input Slots": 16 at 9_x and 10_0, 32 from 10_1); `d3d10_1.h` (32 slots and
//! elements for D3D10.1 at 10_1).

use std::fmt;
use std::str::FromStr;

use crate::format::{Format, Support};
pub use crate::level::{FeatureLevel, ParseTargetError};

/// The Direct3D runtime whose `CreateInputLayout` is modelled.
///
/// With the `serde` feature it reads and writes the conformance schema's spellings only
/// (`"d3d10"`, `"d3d10.1"`, `"d3d11"`, [`Api::as_str`]); [`FromStr`] also takes the CLI's.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Api {
    /// `d3d10.dll` (`ID3D10Device::CreateInputLayout`).
    D3D10,
    /// `d3d10_1.dll` (`ID3D10Device1`).
    D3D10_1,
    /// `d3d11.dll` (`ID3D11Device::CreateInputLayout`).
    D3D11,
    /// `d3d12.dll`: the input-layout part of `ID3D12Device::CreateGraphicsPipelineState`
    /// (`docs/spec/d3d12-rules.md`).
    D3D12,
}

impl Api {
    /// The spelling used by the conformance schema and the CLI.
    pub const fn as_str(self) -> &'static str {
        match self {
            Api::D3D10 => "d3d10",
            Api::D3D10_1 => "d3d10.1",
            Api::D3D11 => "d3d11",
            Api::D3D12 => "d3d12",
        }
    }

    /// Every runtime, oldest first.
    pub const ALL: [Api; 4] = [Api::D3D10, Api::D3D10_1, Api::D3D11, Api::D3D12];

    /// Whether this is the Direct3D 12 runtime (pipeline-state rules, d3d12-rules.md).
    pub const fn is_d3d12(self) -> bool {
        matches!(self, Api::D3D12)
    }

    /// The feature levels of the devices this runtime creates, lowest first.
    pub const fn feature_levels(self) -> &'static [FeatureLevel] {
        match self {
            Api::D3D10 => &[FeatureLevel::L10_0],
            Api::D3D10_1 => &[
                FeatureLevel::L9_1,
                FeatureLevel::L9_2,
                FeatureLevel::L9_3,
                FeatureLevel::L10_0,
                FeatureLevel::L10_1,
            ],
            Api::D3D11 => &FeatureLevel::ALL,
            Api::D3D12 => &FeatureLevel::D3D12,
        }
    }

    /// The feature level a case or command uses when none is given, as the conformance schema
    /// says: 10_0 for D3D10, 11_0 otherwise (D3D10.1 at 11_0 has the same limits as at 10_1;
    /// 11_0 is the lowest level of a D3D12 device).
    pub const fn default_feature_level(self) -> FeatureLevel {
        match self {
            Api::D3D10 => FeatureLevel::L10_0,
            Api::D3D10_1 | Api::D3D11 | Api::D3D12 => FeatureLevel::L11_0,
        }
    }
}

/// An API and feature level that no device has (see [`Target::checked`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the {api} runtime has no feature level {feature_level} devices ({api} creates {}; the {} runtime creates {feature_level})",
    levels(*api),
    suggest(*feature_level)
)]
pub struct TargetPairError {
    /// The runtime asked for.
    pub api: Api,
    /// The level it does not have.
    pub feature_level: FeatureLevel,
}

/// The runtime to suggest for a level: d3d12 for the 12_x levels, d3d11 for the others.
fn suggest(level: FeatureLevel) -> Api {
    if level >= FeatureLevel::L12_0 {
        Api::D3D12
    } else {
        Api::D3D11
    }
}

fn levels(api: Api) -> String {
    match api.feature_levels() {
        [one] => format!("{one} only"),
        [first, .., last] => format!("{first} to {last}"),
        [] => String::new(),
    }
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Api {
    type Err = ParseTargetError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "d3d10" | "10" | "10.0" => Ok(Api::D3D10),
            "d3d10.1" | "d3d10_1" | "10.1" => Ok(Api::D3D10_1),
            "d3d11" | "11" => Ok(Api::D3D11),
            "d3d12" | "12" => Ok(Api::D3D12),
            _ => Err(ParseTargetError {
                what: "API",
                text: s.to_string(),
                expected: "d3d10, d3d10.1, d3d11, d3d12",
            }),
        }
    }
}

/// The serde spellings of [`Api`] and [`FeatureLevel`]: exactly [`Api::as_str`] and
/// [`FeatureLevel::as_str`], as the conformance schema writes them (`shared/conformance/SCHEMA.md`,
/// CASE), not the other spellings [`FromStr`] takes for the command line.
#[cfg(feature = "serde")]
mod serde_impls {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Api, FeatureLevel};

    impl<'de> Deserialize<'de> for Api {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s = String::deserialize(d)?;
            Api::ALL
                .into_iter()
                .find(|a| a.as_str() == s)
                .ok_or_else(|| {
                    D::Error::custom(format!(
                        "unknown api `{s}` (expected d3d10, d3d10.1, d3d11 or d3d12)"
                    ))
                })
        }
    }

    impl Serialize for Api {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.as_str())
        }
    }

    impl<'de> Deserialize<'de> for FeatureLevel {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s = String::deserialize(d)?;
            FeatureLevel::EVERY
                .into_iter()
                .find(|l| l.as_str() == s)
                .ok_or_else(|| {
                    D::Error::custom(format!(
                        "unknown feature_level `{s}` (expected 9_1, 9_2, 9_3, 10_0, 10_1, 11_0, \
                         11_1, 12_0, 12_1 or 12_2)"
                    ))
                })
        }
    }

    impl Serialize for FeatureLevel {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.as_str())
        }
    }
}

/// How much instancing a target allows in an input layout (R41).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Instancing {
    /// No per-instance elements at all (9_1, 9_2).
    None,
    /// Per-instance elements with step rate 1 only, slot 0 per-vertex (9_3).
    StepRateOne,
    /// Any step rate (10_0 and up).
    Full,
}

/// The runtime and device that `CreateInputLayout` is called on.
///
/// Any API may be paired with any feature level; the limits are computed from both
/// (see [`Target::max_input_slots`]). The D3D10 runtime only creates 10_0 devices, so a D3D10
/// target at another level is modelled with D3D10's fixed limits.
///
/// ```
/// use inlay::target::{Api, FeatureLevel, Target};
/// let t = Target::new(Api::D3D11, FeatureLevel::L10_0);
/// assert_eq!(t.max_input_slots(), 16);
/// assert_eq!(Target::default().max_input_slots(), 32);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Target {
    /// The runtime.
    pub api: Api,
    /// The device's feature level.
    pub feature_level: FeatureLevel,
    /// Whether the optional vertex formats (B5G6R5, B5G5R5A1, B4G4R4A4 from 10_0 up) are
    /// supported by the modelled device. `true` by default.
    pub optional_formats: bool,
}

impl Default for Target {
    /// D3D11 at feature level 11_0, optional formats supported.
    fn default() -> Self {
        Target::new(Api::D3D11, FeatureLevel::L11_0)
    }
}

impl Target {
    /// A target that exists: the D3D10 runtime creates only 10_0 devices
    /// (`D3D10CreateDevice` has no feature-level parameter), D3D10.1 devices are 9_1 to 10_1
    /// (`D3D10_FEATURE_LEVEL1`), D3D11 devices any level of [`FeatureLevel::ALL`], D3D12 devices
    /// those of [`FeatureLevel::D3D12`]. Refuses other pairs with a message saying which levels
    /// the runtime has and which runtime creates the level asked for (d3d12 for a 12_x level,
    /// d3d11 for the others) — in words that suit every shell, not one shell's flags. This is the one
    /// constructor every shell takes a caller's pair through — the command line's
    /// `--api`/`--feature-level`, the C ABI's `inlay_target`, Python's `api=`/`feature_level=`
    /// — so all three refuse the same pairs with the same message. ([`Target::new`] builds any
    /// pair, as the conformance schema's defaults need.)
    ///
    /// ```
    /// use inlay::target::{Api, FeatureLevel, Target};
    /// assert!(Target::checked(Api::D3D10_1, FeatureLevel::L9_3).is_ok());
    /// let e = Target::checked(Api::D3D10, FeatureLevel::L11_0).unwrap_err();
    /// assert_eq!(e.to_string(), "the d3d10 runtime has no feature level 11_0 devices \
    ///     (d3d10 creates 10_0 only; the d3d11 runtime creates 11_0)");
    /// ```
    pub fn checked(api: Api, feature_level: FeatureLevel) -> Result<Target, TargetPairError> {
        if api.feature_levels().contains(&feature_level) {
            Ok(Target::new(api, feature_level))
        } else {
            Err(TargetPairError { api, feature_level })
        }
    }

    /// A target with optional formats supported.
    pub const fn new(api: Api, feature_level: FeatureLevel) -> Self {
        Target {
            api,
            feature_level,
            optional_formats: true,
        }
    }

    /// Number of vertex-buffer slots: 32 for D3D10.1/D3D11 at 10_1 and up, 16 otherwise
    /// (R8, R38–R40).
    pub fn max_input_slots(&self) -> u32 {
        if self.api == Api::D3D10 || self.feature_level < FeatureLevel::L10_1 {
            16
        } else {
            32
        }
    }

    /// Maximum number of input elements (R3). Choice for the open question §6.3: the element
    /// limit follows the slot limit (16 below 10_1 and on D3D10), as `d3d10_1.h` does for
    /// D3D10.1 (R39), because a 10_0 or 9_x device has 16 vertex-shader input registers.
    pub fn max_elements(&self) -> u32 {
        self.max_input_slots()
    }

    /// Number of vertex-shader input registers (16 or 32).
    pub fn max_input_registers(&self) -> u32 {
        self.max_input_slots()
    }

    /// The instancing allowed in a layout (R41).
    pub fn instancing(&self) -> Instancing {
        match self.feature_level {
            FeatureLevel::L9_1 | FeatureLevel::L9_2 => Instancing::None,
            FeatureLevel::L9_3 => Instancing::StepRateOne,
            _ => Instancing::Full,
        }
    }

    /// Whether `format` may be read from a vertex buffer on this target: `Required` support,
    /// or `Optional` support when [`Target::optional_formats`] is set.
    pub fn supports_vertex_format(&self, format: Format) -> bool {
        match format.info().map(|i| i.vertex_support(self.feature_level)) {
            Some(Support::Required) => true,
            Some(Support::Optional) => self.optional_formats,
            _ => false,
        }
    }

    /// Whether `format` may be bound as an index buffer on this target (R16_UINT always,
    /// R32_UINT from 9_2).
    pub fn supports_index_format(&self, format: Format) -> bool {
        matches!(
            format.info().map(|i| i.index_support(self.feature_level)),
            Some(Support::Required)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        let t = |a, l| Target::new(a, l);
        assert_eq!(t(Api::D3D11, FeatureLevel::L11_1).max_input_slots(), 32);
        assert_eq!(t(Api::D3D11, FeatureLevel::L10_1).max_input_slots(), 32);
        assert_eq!(t(Api::D3D11, FeatureLevel::L10_0).max_input_slots(), 16);
        assert_eq!(t(Api::D3D11, FeatureLevel::L9_3).max_input_slots(), 16);
        assert_eq!(t(Api::D3D10, FeatureLevel::L10_0).max_elements(), 16);
        assert_eq!(t(Api::D3D10_1, FeatureLevel::L10_1).max_elements(), 32);
        assert_eq!(t(Api::D3D10_1, FeatureLevel::L10_0).max_elements(), 16);
    }

    #[test]
    fn format_support() {
        let t = Target::new(Api::D3D11, FeatureLevel::L9_3);
        assert!(t.supports_vertex_format(Format::R16G16B16A16_FLOAT));
        assert!(!t.supports_vertex_format(Format::B8G8R8A8_UNORM));
        assert!(
            !Target::new(Api::D3D11, FeatureLevel::L9_2)
                .supports_vertex_format(Format::R16G16_FLOAT)
        );
        let mut t = Target::default();
        assert!(t.supports_vertex_format(Format::B5G6R5_UNORM));
        t.optional_formats = false;
        assert!(!t.supports_vertex_format(Format::B5G6R5_UNORM));
        assert!(!t.supports_vertex_format(Format(9999)));
        assert!(
            !Target::new(Api::D3D11, FeatureLevel::L9_1).supports_index_format(Format::R32_UINT)
        );
        assert!(
            Target::new(Api::D3D11, FeatureLevel::L9_2).supports_index_format(Format::R32_UINT)
        );
    }

    #[test]
    fn parse() {
        assert_eq!("11.0".parse::<FeatureLevel>(), Ok(FeatureLevel::L11_0));
        assert_eq!(
            "d3d_feature_level_9_1".parse::<FeatureLevel>(),
            Ok(FeatureLevel::L9_1)
        );
        assert_eq!("D3D10.1".parse::<Api>(), Ok(Api::D3D10_1));
        assert_eq!("12_0".parse::<FeatureLevel>(), Ok(FeatureLevel::L12_0));
        assert!("12_3".parse::<FeatureLevel>().is_err());
        assert_eq!("D3D12".parse::<Api>(), Ok(Api::D3D12));
    }

    /// The serde spellings are the schema's, exactly, and round-trip.
    #[cfg(feature = "serde")]
    #[test]
    fn serde_spellings() {
        for (api, text) in [
            (Api::D3D10, "\"d3d10\""),
            (Api::D3D10_1, "\"d3d10.1\""),
            (Api::D3D11, "\"d3d11\""),
            (Api::D3D12, "\"d3d12\""),
        ] {
            assert_eq!(serde_json::to_string(&api).unwrap(), text);
            assert_eq!(serde_json::from_str::<Api>(text).unwrap(), api);
        }
        for (level, text) in FeatureLevel::EVERY.into_iter().zip([
            "9_1", "9_2", "9_3", "10_0", "10_1", "11_0", "11_1", "12_0", "12_1", "12_2",
        ]) {
            let quoted = format!("\"{text}\"");
            assert_eq!(serde_json::to_string(&level).unwrap(), quoted);
            assert_eq!(
                serde_json::from_str::<FeatureLevel>(&quoted).unwrap(),
                level
            );
        }
        let e = serde_json::from_str::<Api>("\"D3D11\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("unknown api `D3D11` (expected d3d10, d3d10.1, d3d11 or d3d12)"),
            "{e}"
        );
        assert!(serde_json::from_str::<FeatureLevel>("\"11.0\"").is_err());
        assert!(serde_json::from_str::<Api>("null").is_err());
    }
}
