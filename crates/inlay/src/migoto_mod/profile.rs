//! Built-in profiles of the tool families that write mods: which elements each of their buffers
//! holds. Each profile is a data file beside this module (`profiles/*.toml`); every buffer row
//! and every shape rule cites the tool source that defines it.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use crate::format::Format;

/// The profile files, compiled in.
const FILES: &[(&str, &str)] = &[
    ("gimi.toml", include_str!("profiles/gimi.toml")),
    ("srmi.toml", include_str!("profiles/srmi.toml")),
    ("zzmi.toml", include_str!("profiles/zzmi.toml")),
    ("himi.toml", include_str!("profiles/himi.toml")),
    ("wwmi.toml", include_str!("profiles/wwmi.toml")),
    ("nbp.toml", include_str!("profiles/nbp.toml")),
];

/// One element of a buffer row.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowElement {
    /// Semantic name.
    pub semantic: String,
    /// Semantic index.
    #[serde(default)]
    pub index: u32,
    /// DXGI format name.
    pub format: String,
    /// Byte offset in the buffer's record.
    pub offset: u32,
}

/// One buffer layout a tool writes.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferRow {
    /// The role of the buffer (`Position`, `Blend`, `Texcoord`, …).
    pub role: String,
    /// Resource-name endings that mark the role (`[Resource<Component><name>]`).
    pub names: Vec<String>,
    /// Record size.
    pub stride: u32,
    /// The elements.
    pub elements: Vec<RowElement>,
    /// The tool source that defines the row.
    pub source: String,
}

/// Evidence of a tool family in the INI's shape.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShapeRule {
    /// What is looked for, in words.
    pub what: String,
    /// A buffer of `role` bound to this slot (`vb1`, `cs-t6`, …).
    #[serde(default)]
    pub slot: Option<String>,
    /// The role bound to `slot`.
    #[serde(default)]
    pub role: Option<String>,
    /// A namespace the INI references (`\NAME\` in a section or variable name).
    #[serde(default)]
    pub namespace: Option<String>,
    /// The tool source.
    pub source: String,
}

/// A variable the tool's loader sets at run time, taken as set when evaluating.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assume {
    /// The variable (`$mod_enabled`).
    pub var: String,
    /// Its value.
    pub value: f32,
    /// The tool source.
    pub source: String,
}

/// A tool family's profile.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Short name (`GIMI`).
    pub name: String,
    /// What it covers.
    pub title: String,
    /// How the tool splits a vertex set into buffers (the source).
    pub split: String,
    /// Variables the loader sets.
    #[serde(default)]
    pub assume: Vec<Assume>,
    /// Shape evidence.
    #[serde(default)]
    pub shape: Vec<ShapeRule>,
    /// Buffer rows.
    #[serde(rename = "buffer")]
    pub buffers: Vec<BufferRow>,
}

impl BufferRow {
    /// The row's elements as input element descriptions on `slot`.
    pub fn descs(&self, slot: u32) -> Vec<InputElementDesc> {
        self.elements
            .iter()
            .map(|e| {
                let mut d = InputElementDesc::per_vertex(
                    &e.semantic,
                    e.index,
                    e.format.parse::<Format>().unwrap_or(Format(0)),
                    slot,
                    e.offset,
                );
                if d.aligned_byte_offset == APPEND_ALIGNED_ELEMENT {
                    d.aligned_byte_offset = 0;
                }
                d
            })
            .collect()
    }

    /// Whether the resource named `name` (without its `Resource` prefix) ends with one of the
    /// row's names.
    pub fn names_match(&self, name: &str) -> bool {
        let n = name.to_ascii_lowercase();
        self.names
            .iter()
            .any(|r| n.ends_with(&r.to_ascii_lowercase()))
    }
}

/// Every built-in profile. The files are part of the build; a test checks that each parses
/// and that every row's elements fit its stride.
pub fn profiles() -> &'static [Profile] {
    static P: OnceLock<Vec<Profile>> = OnceLock::new();
    P.get_or_init(|| {
        FILES
            .iter()
            .filter_map(|(_, text)| toml::from_str::<Profile>(text).ok())
            .collect()
    })
}

/// The profile named `name` (case-insensitive).
pub fn profile(name: &str) -> Option<&'static Profile> {
    profiles()
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
}

/// Every role name of every profile, longest first (for grouping resources by component).
pub fn role_names() -> Vec<String> {
    let mut v: Vec<String> = profiles()
        .iter()
        .flat_map(|p| p.buffers.iter().flat_map(|b| b.names.iter().cloned()))
        .collect();
    v.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    v.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_parses_and_fits() {
        for (file, text) in FILES {
            let p: Profile = toml::from_str(text).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(!p.buffers.is_empty(), "{file}");
            for b in &p.buffers {
                assert!(!b.source.is_empty());
                let mut end = 0;
                for e in &b.elements {
                    let f: Format = e
                        .format
                        .parse()
                        .unwrap_or_else(|_| panic!("{file}: {} is not a format", e.format));
                    let size = f.info().expect("known").byte_size();
                    assert!(e.offset >= end, "{file}: {} overlaps", e.semantic);
                    end = e.offset + size;
                }
                assert_eq!(end, b.stride, "{file}: row {} stride {}", b.role, b.stride);
            }
            for s in &p.shape {
                assert!(!s.source.is_empty());
                assert!(
                    s.slot.is_some() || s.namespace.is_some(),
                    "{file}: {}",
                    s.what
                );
            }
        }
        assert_eq!(profiles().len(), FILES.len());
        assert!(profile("gimi").is_some());
        assert_eq!(role_names()[0].len(), "TexCoordBuffer".len());
    }
}
