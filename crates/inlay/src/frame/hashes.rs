//! Hash files brought up to date after a game patch (`inlay diff … --fix-hashes hash.json`).
//!
//! The tool families keep their hashes in JSON of different shapes: the GIMI/SRMI/ZZMI
//! importers' `hash.json` is a list of components with `draw_vb`, `position_vb`,
//! `blend_vb`, `texcoord_vb`, `ib`, `root_vs` and texture entries
//! `["Diffuse", ".dds", "705caac9"]`; WWMI's `Metadata.json` names `vb0_hash`, shape-key and
//! component hashes. What they share is that every hash is a JSON string of 8 (resources) or
//! 16 (shaders) hexadecimal digits. [`fix_hashes`] therefore replaces, in the file's own text,
//! every string value that equals an old hash of a matched pair by the new hash — keeping
//! every other byte (order, spacing, line ends) as it was — and reports each replacement
//! with its line and the hash-looking strings it left alone.

#![forbid(unsafe_code)]

/// One replacement made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replaced {
    /// 1-based line.
    pub line: usize,
    /// The key the value belongs to (the nearest `"key":` before it), if any.
    pub key: Option<String>,
    /// Old hash.
    pub old: String,
    /// New hash.
    pub new: String,
}

/// The result of [`fix_hashes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixed {
    /// The updated file.
    pub text: String,
    /// What was replaced.
    pub replaced: Vec<Replaced>,
    /// Hash-looking strings (8 or 16 hex digits) with no pair: (line, value).
    pub unmatched: Vec<(usize, String)>,
}

/// Why a hash file was not updated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {message}")]
pub struct HashFileError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub message: String,
}

fn is_hash(s: &str) -> bool {
    (s.len() == 8 || s.len() == 16) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Rewrites the hash file `text` (named `file` in errors) with the `(old, new)` pairs.
pub fn fix_hashes(
    file: &str,
    text: &str,
    pairs: &[(String, String)],
) -> Result<Fixed, HashFileError> {
    serde_json::from_str::<serde_json::Value>(text).map_err(|e| HashFileError {
        file: file.to_string(),
        message: format!("not JSON: {e}"),
    })?;
    let mut out = String::with_capacity(text.len());
    let mut replaced = Vec::new();
    let mut unmatched = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    let mut line = 1;
    let mut last_key: Option<String> = None;
    let mut copied = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'"' => {
                // A string literal: find its end (escapes skipped).
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                let end = j.min(b.len());
                let s = &text[start..end];
                // A key is followed by a colon.
                let mut k = end + 1;
                while k < b.len() && b[k].is_ascii_whitespace() {
                    k += 1;
                }
                if k < b.len() && b[k] == b':' {
                    last_key = Some(s.to_string());
                } else if is_hash(s) {
                    match pairs.iter().find(|(o, _)| o.eq_ignore_ascii_case(s)) {
                        Some((o, n)) => {
                            out.push_str(&text[copied..start]);
                            let new = if s.bytes().any(|c| c.is_ascii_uppercase()) {
                                n.to_ascii_uppercase()
                            } else {
                                n.clone()
                            };
                            out.push_str(&new);
                            copied = end;
                            replaced.push(Replaced {
                                line,
                                key: last_key.clone(),
                                old: o.clone(),
                                new,
                            });
                        }
                        None => unmatched.push((line, s.to_string())),
                    }
                }
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    Ok(Fixed {
        text: out,
        replaced,
        unmatched,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_matched_hash_values_change() {
        let text = "[\r\n  {\"component_name\": \"Hair\", \"root_vs\": \"e8425f64cfb887cd\",\r\n   \"draw_vb\": \"D515E182\", \"ib\": \"d131acb1\",\r\n   \"texture_hashes\": [[\"Diffuse\", \".dds\", \"705caac9\"]], \"object_indexes\": [0, 22074]}\r\n]";
        let pairs = vec![
            ("d515e182".to_string(), "0badf00d".to_string()),
            (
                "e8425f64cfb887cd".to_string(),
                "0123456789abcdef".to_string(),
            ),
            ("d131acb1".to_string(), "d131acb1".to_string()),
        ];
        let f = fix_hashes("hash.json", text, &pairs).unwrap();
        assert_eq!(
            f.text,
            text.replace("D515E182", "0BADF00D")
                .replace("e8425f64cfb887cd", "0123456789abcdef")
        );
        assert_eq!(f.replaced.len(), 3);
        assert_eq!(f.replaced[0].key.as_deref(), Some("root_vs"));
        assert_eq!(f.replaced[1].line, 3);
        assert_eq!(f.unmatched, vec![(4, "705caac9".to_string())]);
        assert!(fix_hashes("x", "{", &pairs).is_err());
    }
}
