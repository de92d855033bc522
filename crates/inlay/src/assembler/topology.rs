//! Primitive topologies: `D3D_PRIMITIVE_TOPOLOGY` values, schema names and availability.
//!
//! Values from `d3dcommon.h` (ia-semantics §6): POINTLIST 1 … TRIANGLESTRIP 5,
//! LINELIST_ADJ 10 … TRIANGLESTRIP_ADJ 13, and the N-control-point patch lists 33 … 64
//! (`32 + N`). The spec text numbers the first patch list 17; the API header value 33 is
//! used (ia-semantics open question 9).

use std::fmt;
use std::str::FromStr;

use crate::layout::TopologyType;
use crate::target::{Api, FeatureLevel};

/// `D3D_PRIMITIVE_TOPOLOGY`: how the vertex stream is cut into primitives (ia-semantics §6).
///
/// ```
/// use inlay::assembler::Topology;
/// let t: Topology = "patch_list_3".parse().unwrap();
/// assert_eq!(t, Topology::PatchList(3));
/// assert_eq!(t.d3d_value(), 35);
/// assert_eq!(Topology::from_d3d(13), Some(Topology::TriangleStripAdj));
/// assert_eq!(Topology::from_d3d(6), None); // triangle fans do not exist in D3D10/11
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Topology {
    /// `D3D_PRIMITIVE_TOPOLOGY_UNDEFINED` (0), the state after device creation; a draw with
    /// it is refused.
    Undefined,
    /// Point list (1): primitive k = (k).
    PointList,
    /// Line list (2): primitive k = (2k, 2k+1).
    LineList,
    /// Line strip (3): primitive k = (k, k+1).
    LineStrip,
    /// Triangle list (4): primitive k = (3k, 3k+1, 3k+2).
    TriangleList,
    /// Triangle strip (5): even k = (k, k+1, k+2), odd k = (k, k+2, k+1).
    TriangleStrip,
    /// Line list with adjacency (10): primitive k = (4k … 4k+3).
    LineListAdj,
    /// Line strip with adjacency (11): primitive k = (k … k+3).
    LineStripAdj,
    /// Triangle list with adjacency (12): primitive k = (6k … 6k+5).
    TriangleListAdj,
    /// Triangle strip with adjacency (13): see ia-semantics §6.2.
    TriangleStripAdj,
    /// N-control-point patch list, N in 1..=32 (values 33..=64).
    PatchList(u8),
}

impl Topology {
    /// The topology with `D3D_PRIMITIVE_TOPOLOGY` value `value`, or `None` for a value the
    /// header does not define (6–9, 14–32, above 64).
    pub fn from_d3d(value: u32) -> Option<Topology> {
        Some(match value {
            0 => Topology::Undefined,
            1 => Topology::PointList,
            2 => Topology::LineList,
            3 => Topology::LineStrip,
            4 => Topology::TriangleList,
            5 => Topology::TriangleStrip,
            10 => Topology::LineListAdj,
            11 => Topology::LineStripAdj,
            12 => Topology::TriangleListAdj,
            13 => Topology::TriangleStripAdj,
            33..=64 => Topology::PatchList((value - 32) as u8),
            _ => return None,
        })
    }

    /// The `D3D_PRIMITIVE_TOPOLOGY` value. A `PatchList(n)` with `n` outside 1..=32 (which
    /// [`Topology::from_d3d`] and parsing never produce) maps to `32 + n` all the same.
    pub fn d3d_value(self) -> u32 {
        match self {
            Topology::Undefined => 0,
            Topology::PointList => 1,
            Topology::LineList => 2,
            Topology::LineStrip => 3,
            Topology::TriangleList => 4,
            Topology::TriangleStrip => 5,
            Topology::LineListAdj => 10,
            Topology::LineStripAdj => 11,
            Topology::TriangleListAdj => 12,
            Topology::TriangleStripAdj => 13,
            Topology::PatchList(n) => 32 + n as u32,
        }
    }

    /// Whether this is one of the four adjacency topologies.
    pub fn is_adjacency(self) -> bool {
        matches!(
            self,
            Topology::LineListAdj
                | Topology::LineStripAdj
                | Topology::TriangleListAdj
                | Topology::TriangleStripAdj
        )
    }

    /// Whether this is a strip (line or triangle strip, with or without adjacency): the
    /// topologies a D3D12 strip cut applies to (d3d12-rules.md P12).
    pub fn is_strip(self) -> bool {
        matches!(
            self,
            Topology::LineStrip
                | Topology::TriangleStrip
                | Topology::LineStripAdj
                | Topology::TriangleStripAdj
        )
    }

    /// The `D3D12_PRIMITIVE_TOPOLOGY_TYPE` this topology belongs to (a D3D12 pipeline state
    /// draws only topologies of its type, P13); `Undefined` for `Undefined`.
    pub fn topology_type(self) -> TopologyType {
        match self {
            Topology::Undefined => TopologyType::Undefined,
            Topology::PointList => TopologyType::Point,
            Topology::LineList
            | Topology::LineStrip
            | Topology::LineListAdj
            | Topology::LineStripAdj => TopologyType::Line,
            Topology::TriangleList
            | Topology::TriangleStrip
            | Topology::TriangleListAdj
            | Topology::TriangleStripAdj => TopologyType::Triangle,
            Topology::PatchList(_) => TopologyType::Patch,
        }
    }

    /// Whether this is a patch list.
    pub fn is_patch_list(self) -> bool {
        matches!(self, Topology::PatchList(_))
    }

    /// Number of vertices a primitive of this topology hands downstream (1 for points, 6 for
    /// triangles with adjacency, N for an N-control-point patch list; 0 for `Undefined`).
    pub fn vertices_per_primitive(self) -> usize {
        match self {
            Topology::Undefined => 0,
            Topology::PointList => 1,
            Topology::LineList | Topology::LineStrip => 2,
            Topology::TriangleList | Topology::TriangleStrip => 3,
            Topology::LineListAdj | Topology::LineStripAdj => 4,
            Topology::TriangleListAdj | Topology::TriangleStripAdj => 6,
            Topology::PatchList(n) => n as usize,
        }
    }

    /// Whether `IASetPrimitiveTopology` accepts this topology on `api` at `level`.
    ///
    /// Choices (documented in `docs/notes/assembler.md`): 10Level9 devices have no geometry
    /// or hull shader, so only the five basic topologies (and `Undefined`) exist there;
    /// adjacency needs 10_0 (geometry shaders); patch lists exist only in the D3D11 API
    /// (`D3D10_PRIMITIVE_TOPOLOGY` stops at 13) and need 11_0 (hull shaders).
    pub fn is_available(self, api: Api, level: FeatureLevel) -> bool {
        match self {
            Topology::PatchList(n) => {
                (1..=32).contains(&n)
                    && matches!(api, Api::D3D11 | Api::D3D12)
                    && level >= FeatureLevel::L11_0
            }
            t if t.is_adjacency() => !level.is_level9(),
            _ => true,
        }
    }

    /// The conformance schema's name (`"triangle_strip"`, `"patch_list_4"`, …; `"undefined"`).
    pub fn name(self) -> String {
        match self {
            Topology::PatchList(n) => format!("patch_list_{n}"),
            t => t.basic_name().to_string(),
        }
    }

    fn basic_name(self) -> &'static str {
        match self {
            Topology::Undefined => "undefined",
            Topology::PointList => "point_list",
            Topology::LineList => "line_list",
            Topology::LineStrip => "line_strip",
            Topology::TriangleList => "triangle_list",
            Topology::TriangleStrip => "triangle_strip",
            Topology::LineListAdj => "line_list_adj",
            Topology::LineStripAdj => "line_strip_adj",
            Topology::TriangleListAdj => "triangle_list_adj",
            Topology::TriangleStripAdj => "triangle_strip_adj",
            Topology::PatchList(_) => "patch_list",
        }
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Error from parsing a topology name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown primitive topology `{0}` (expected point_list, line_list, line_strip, \
     triangle_list, triangle_strip, line_list_adj, line_strip_adj, triangle_list_adj, \
     triangle_strip_adj, patch_list_N with N in 1..32, or a D3D_PRIMITIVE_TOPOLOGY number)"
)]
pub struct ParseTopologyError(pub String);

impl FromStr for Topology {
    type Err = ParseTopologyError;

    /// Accepts the schema names in any case, with or without a `D3D_PRIMITIVE_TOPOLOGY_` /
    /// `D3D11_PRIMITIVE_TOPOLOGY_` prefix (header spellings such as `TRIANGLELIST` and
    /// `3_CONTROL_POINT_PATCHLIST` too), or a decimal value.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // Without allocating: every vb and ib text dump of a frame has a topology line.
        let err = || ParseTopologyError(s.to_string());
        let t = s.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return t
                .parse::<u32>()
                .ok()
                .and_then(Topology::from_d3d)
                .ok_or_else(err);
        }
        let t = [
            "d3d_primitive_topology_",
            "d3d11_primitive_topology_",
            "d3d10_primitive_topology_",
        ]
        .iter()
        .find_map(|p| strip_prefix_ignore_case(t, p))
        .unwrap_or(t);
        // Header spelling of patch lists: `N_CONTROL_POINT_PATCHLIST`.
        let suffix = "_control_point_patchlist";
        if let Some(n) = t.len().checked_sub(suffix.len()).and_then(|at| {
            t.get(at..)
                .filter(|x| x.eq_ignore_ascii_case(suffix))
                .map(|_| &t[..at])
        }) {
            return patch(n).ok_or_else(err);
        }
        if let Some(n) = strip_prefix_ignore_case(t, "patch_list_") {
            return patch(n).ok_or_else(err);
        }
        (0..=13)
            .filter_map(Topology::from_d3d)
            .find(|top| same_letters(top.basic_name(), t))
            .ok_or_else(err)
    }
}

/// `s` without `prefix`, compared in any ASCII case.
fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    s.get(..prefix.len())
        .filter(|h| h.eq_ignore_ascii_case(prefix))
        .map(|_| &s[prefix.len()..])
}

/// Whether `name` (lower case) and `s` spell the same letters, `_` and ASCII case aside.
fn same_letters(name: &str, s: &str) -> bool {
    let a = name.bytes().filter(|&b| b != b'_');
    let b = s
        .bytes()
        .filter(|&b| b != b'_')
        .map(|b| b.to_ascii_lowercase());
    a.eq(b)
}

fn patch(n: &str) -> Option<Topology> {
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = n.parse().ok()?;
    (1..=32)
        .contains(&n)
        .then_some(Topology::PatchList(n as u8))
}

/// With the `serde` feature a topology is spelt as the conformance schema's `draw.topology`:
/// exactly the [`Display`](fmt::Display) names (`point_list` … `patch_list_32`), not
/// `undefined`, header spellings, other cases or numbers, which [`FromStr`] also accepts for the
/// command line (`shared/conformance/SCHEMA.md`, DRAW).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Topology {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        s.parse::<Topology>()
            .ok()
            .filter(|t| *t != Topology::Undefined && t.to_string() == s)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown topology `{s}` (expected point_list, line_list, line_strip, \
                     triangle_list, triangle_strip, line_list_adj, line_strip_adj, \
                     triangle_list_adj, triangle_strip_adj or patch_list_1 … patch_list_32)"
                ))
            })
    }
}

/// Writes the [`Display`](fmt::Display) name; `undefined` has no schema spelling and is an
/// error.
#[cfg(feature = "serde")]
impl serde::Serialize for Topology {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if *self == Topology::Undefined {
            return Err(serde::ser::Error::custom(
                "the undefined topology has no conformance-schema spelling",
            ));
        }
        s.serialize_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The serde spelling is the schema's, exactly.
    #[cfg(feature = "serde")]
    #[test]
    fn serde_names() {
        use serde::Deserialize as _;
        let parse = |s: &str| {
            Topology::deserialize(
                serde::de::value::StrDeserializer::<serde::de::value::Error>::new(s),
            )
            .ok()
        };
        assert_eq!(parse("patch_list_32"), Some(Topology::PatchList(32)));
        assert_eq!(parse("patch_list_33"), None);
        assert_eq!(parse("patch_list_0"), None);
        assert_eq!(parse("patch_list_07"), None);
        assert_eq!(
            parse("triangle_strip_adj"),
            Some(Topology::TriangleStripAdj)
        );
        // Only the schema's own spellings: no header names, numbers, case or `undefined`.
        assert_eq!(parse("TRIANGLELIST"), None);
        assert_eq!(parse("Triangle_List"), None);
        assert_eq!(parse("4"), None);
        assert_eq!(parse("undefined"), None);
        assert_eq!(Topology::PatchList(5).to_string(), "patch_list_5");
    }

    /// Every topology but `undefined` writes its name and reads back.
    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trip() {
        for v in 1..=64 {
            let Some(t) = Topology::from_d3d(v) else {
                continue;
            };
            let text = serde_json::to_string(&t).unwrap();
            assert_eq!(text, format!("\"{t}\""));
            assert_eq!(serde_json::from_str::<Topology>(&text).unwrap(), t);
        }
        assert!(serde_json::to_string(&Topology::Undefined).is_err());
    }

    #[test]
    fn values_round_trip() {
        for v in 0..=100u32 {
            match Topology::from_d3d(v) {
                Some(t) => {
                    assert_eq!(t.d3d_value(), v);
                    assert_eq!(t.name().parse::<Topology>(), Ok(t));
                }
                None => assert!(matches!(v, 6..=9 | 14..=32 | 65..)),
            }
        }
        assert_eq!(Topology::from_d3d(33), Some(Topology::PatchList(1)));
        assert_eq!(Topology::from_d3d(64), Some(Topology::PatchList(32)));
    }

    #[test]
    fn parse_spellings() {
        let p = |s: &str| s.parse::<Topology>();
        assert_eq!(p("triangle_strip_adj"), Ok(Topology::TriangleStripAdj));
        assert_eq!(
            p("D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP"),
            Ok(Topology::TriangleStrip)
        );
        assert_eq!(
            p("D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ"),
            Ok(Topology::LineListAdj)
        );
        assert_eq!(
            p("D3D11_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST"),
            Ok(Topology::PatchList(32))
        );
        assert_eq!(p("4"), Ok(Topology::TriangleList));
        assert!(p("patch_list_0").is_err());
        assert!(p("patch_list_33").is_err());
        assert!(p("patch_list_").is_err());
        assert!(p("triangle_fan").is_err());
        assert!(p("7").is_err());
        // Any case, `_` anywhere, padding; non-ASCII text is refused without a panic at a
        // prefix's or suffix's length.
        assert_eq!(p("  Triangle_List "), Ok(Topology::TriangleList));
        assert_eq!(p("TRIANGLELIST"), Ok(Topology::TriangleList));
        assert_eq!(
            p("d3d10_primitive_topology_pointlist"),
            Ok(Topology::PointList)
        );
        assert_eq!(p("3_control_point_patchlist"), Ok(Topology::PatchList(3)));
        assert_eq!(p("Patch_List_3"), Ok(Topology::PatchList(3)));
        assert_eq!(p("undefined"), Ok(Topology::Undefined));
        assert!(p("D3D11_PRIMITIVE_TOPOLOGY_").is_err());
        assert!(p("triangle_lis").is_err());
        assert!(p("triangle_listt").is_err());
        assert!(p("trianglé_list").is_err());
        assert!(p("ééééééééééééééééééééééééééé").is_err());
        assert!(p("").is_err());
    }

    #[test]
    fn availability() {
        use FeatureLevel::*;
        assert!(Topology::TriangleStrip.is_available(Api::D3D11, L9_1));
        assert!(!Topology::LineListAdj.is_available(Api::D3D11, L9_3));
        assert!(Topology::LineListAdj.is_available(Api::D3D10, L10_0));
        assert!(!Topology::PatchList(3).is_available(Api::D3D11, L9_3));
        assert!(!Topology::PatchList(3).is_available(Api::D3D11, L10_1));
        assert!(!Topology::PatchList(3).is_available(Api::D3D10_1, L11_0));
        assert!(Topology::PatchList(32).is_available(Api::D3D11, L11_0));
        assert!(!Topology::PatchList(0).is_available(Api::D3D11, L11_1));
    }
}
