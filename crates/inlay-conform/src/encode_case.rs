//! ENCODE cases (schema `inlay-conformance/2`): values handed to the element encoder for one
//! format, and the bytes that must come out (`shared/conformance/SCHEMA.md`, "ENCODE case").
//!
//! A file whose cases include an ENCODE case (one with an `encode` field) is read here; the
//! others go through the schema-1 reader unchanged. A file of ENCODE cases only is read with
//! exact positions for every error; a file mixing both kinds reads each case as whichever kind
//! it matches.

use std::path::Path;

use serde::Deserialize;
use serde::de::{self, Deserializer};

use inlay::encode::{Rounding, encode_element};
use inlay::format::Format;
use inlay::text::records::{FormatValue, hex_bytes};

use crate::Outcome;
use crate::load::{FileError, check_names};
use crate::schema::{Case, CaseFile, SCHEMA_2_ID, SCHEMA_3_ID, schema_id};

fn format_value<'de, D: Deserializer<'de>>(d: D) -> Result<Format, D::Error> {
    FormatValue::deserialize(d).map(|f| f.0)
}

/// One ENCODE case.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodeCase {
    /// Short identifier, unique within its file.
    pub name: String,
    /// Where the expected bytes come from.
    pub evidence: String,
    /// What to encode.
    pub encode: EncodeSpec,
    /// What must come out.
    pub expect_encode: ExpectEncode,
}

/// `encode`: a format, a rounding and rows of four lanes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodeSpec {
    /// The element format: a [`FormatValue`], as in ELEMENT.
    #[serde(deserialize_with = "format_value")]
    pub format: Format,
    /// `"nearest"` (default) or `"d3d"`.
    #[serde(default, deserialize_with = "rounding_value")]
    pub rounding: Rounding,
    /// Rows of four lanes (x, y, z, w), each the lane's 32 bits.
    #[serde(deserialize_with = "rows_value")]
    pub values: Vec<[u32; 4]>,
}

/// `expect_encode`: the concatenated bytes, or that the encoder refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpectEncode {
    /// `{ "data": "hex" }`.
    Data(Vec<u8>),
    /// `{ "error": true }`.
    Error,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectEncodeFields {
    #[serde(default, deserialize_with = "some_hex")]
    data: Option<Vec<u8>>,
    #[serde(default)]
    error: Option<bool>,
}

fn some_hex<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
    hex_bytes(d).map(Some)
}

impl<'de> Deserialize<'de> for ExpectEncode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f = ExpectEncodeFields::deserialize(d)?;
        match (f.data, f.error) {
            (Some(data), None) => Ok(ExpectEncode::Data(data)),
            (None, Some(true)) => Ok(ExpectEncode::Error),
            (None, Some(false)) => Err(de::Error::custom(
                "`error` must be true (give `data` for an encoding that succeeds)",
            )),
            _ => Err(de::Error::custom(
                "expect_encode needs exactly one of `data` (hex bytes) or `error: true`",
            )),
        }
    }
}

fn rounding_value<'de, D: Deserializer<'de>>(d: D) -> Result<Rounding, D::Error> {
    let s = String::deserialize(d)?;
    match s.as_str() {
        "nearest" => Ok(Rounding::Nearest),
        "d3d" => Ok(Rounding::D3d),
        _ => Err(de::Error::custom(format!(
            "unknown rounding `{s}` (expected \"nearest\" or \"d3d\")"
        ))),
    }
}

fn rows_value<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[u32; 4]>, D::Error> {
    let rows = Vec::<[String; 4]>::deserialize(d)?;
    rows.iter()
        .map(|r| {
            let mut lanes = [0u32; 4];
            for (l, s) in lanes.iter_mut().zip(r) {
                if s.len() != 8 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(de::Error::custom(format!("lane `{s}` is not 8 hex digits")));
                }
                *l = u32::from_str_radix(s, 16).map_err(de::Error::custom)?;
            }
            Ok(lanes)
        })
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EncodeOnlyFile {
    #[serde(deserialize_with = "schema_id")]
    schema: String,
    cases: Vec<EncodeCase>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum AnyCase {
    Encode(EncodeCase),
    Creation(Box<Case>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MixedFile {
    #[serde(deserialize_with = "schema_id")]
    schema: String,
    cases: Vec<AnyCase>,
}

fn file_error(path: &Path, e: serde_json::Error) -> FileError {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    FileError {
        file: path.to_path_buf(),
        line: e.line().max(1),
        column: e.column().max(1),
        message: full.strip_suffix(&suffix).unwrap_or(&full).to_string(),
    }
}

/// Reads `text` if it holds an ENCODE case (`Ok(None)` otherwise: a schema-1 style file).
pub(crate) fn parse_if_encode(path: &Path, text: &str) -> Result<Option<CaseFile>, FileError> {
    // A cheap look first: which cases carry `encode`? Unreadable JSON goes to the normal
    // reader, which reports it with its position.
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return Ok(None);
    };
    let Some(cases) = v.get("cases").and_then(|c| c.as_array()) else {
        return Ok(None);
    };
    let is_encode =
        |c: &serde_json::Value| c.get("encode").is_some() || c.get("expect_encode").is_some();
    let encode = cases.iter().filter(|c| is_encode(c)).count();
    if encode == 0 {
        return Ok(None);
    }
    let file = if encode == cases.len() {
        let f: EncodeOnlyFile = serde_json::from_str(text).map_err(|e| file_error(path, e))?;
        CaseFile {
            schema: f.schema,
            cases: Vec::new(),
            encode_cases: f.cases,
        }
    } else {
        let f: MixedFile = serde_json::from_str(text).map_err(|e| file_error(path, e))?;
        let mut file = CaseFile {
            schema: f.schema,
            cases: Vec::new(),
            encode_cases: Vec::new(),
        };
        for c in f.cases {
            match c {
                AnyCase::Encode(e) => file.encode_cases.push(e),
                AnyCase::Creation(c) => file.cases.push(*c),
            }
        }
        file
    };
    if file.schema != SCHEMA_2_ID && file.schema != SCHEMA_3_ID {
        return Err(FileError {
            file: path.to_path_buf(),
            line: 1,
            column: 1,
            message: format!(
                "ENCODE cases need schema `{SCHEMA_2_ID}` or `{SCHEMA_3_ID}` (this file says `{}`)",
                file.schema
            ),
        });
    }
    check_names(path, text, &file)?;
    crate::load::check_schema_3(path, text, &file)?;
    Ok(Some(file))
}

/// Runs one ENCODE case through [`inlay::encode::encode_element`].
pub fn run_encode_case(case: &EncodeCase) -> Outcome {
    let spec = &case.encode;
    let mut produced = Vec::new();
    let mut out = [0u8; 16];
    let mut refused = None;
    for (r, lanes) in spec.values.iter().enumerate() {
        match encode_element(spec.format, lanes, spec.rounding, &mut out) {
            Ok(n) => produced.push(out[..n].to_vec()),
            Err(e) => {
                refused = Some((r, e));
                break;
            }
        }
    }
    match (&case.expect_encode, refused) {
        (ExpectEncode::Error, Some(_)) => Outcome::Pass,
        (ExpectEncode::Error, None) => Outcome::Fail(format!(
            "expected the encoder to refuse {} values, it wrote {} bytes",
            spec.format,
            produced.iter().map(Vec::len).sum::<usize>()
        )),
        (ExpectEncode::Data(_), Some((r, e))) => {
            Outcome::Fail(format!("row {r}: the encoder refused: {e}"))
        }
        (ExpectEncode::Data(want), None) => {
            let mut at = 0;
            for (r, got) in produced.iter().enumerate() {
                let exp = want.get(at..at + got.len());
                if exp != Some(&got[..]) {
                    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
                    let l = spec.values[r];
                    return Outcome::Fail(format!(
                        "row {r} ({:08x} {:08x} {:08x} {:08x}, {}): expected {}, got {}",
                        l[0],
                        l[1],
                        l[2],
                        l[3],
                        spec.rounding,
                        exp.map_or("nothing (the data is shorter)".to_string(), hex),
                        hex(got)
                    ));
                }
                at += got.len();
            }
            if at != want.len() {
                return Outcome::Fail(format!(
                    "expected {} bytes, the {} rows encode to {at}",
                    want.len(),
                    spec.values.len()
                ));
            }
            Outcome::Pass
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn parse(text: &str) -> Result<CaseFile, FileError> {
        crate::parse_text(&PathBuf::from("t.json"), text)
    }

    const ONE: &str = r#"["3f800000", "3f000000", "00000000", "bf800000"]"#;

    fn case(name: &str, format: &str, expect: &str) -> String {
        format!(
            r#"{{"name": "{name}", "evidence": "e", "encode": {{"format": {format}, "values": [{ONE}]}}, "expect_encode": {expect}}}"#
        )
    }

    #[test]
    fn encode_cases_run_and_report_the_first_difference() {
        let text = format!(
            r#"{{"schema": "inlay-conformance/2", "cases": [{}, {}, {}, {}]}}"#,
            case("ok", r#""R8G8B8A8_UNORM""#, r#"{"data": "ff800000"}"#),
            case("wrong", r#""R8G8B8A8_UNORM""#, r#"{"data": "ff800001"}"#),
            case("refused", r#""BC1_UNORM""#, r#"{"error": true}"#),
            case("not-refused", "28", r#"{"error": true}"#),
        );
        let f = parse(&text).unwrap();
        assert_eq!(f.encode_cases.len(), 4);
        let out: Vec<Outcome> = f.encode_cases.iter().map(run_encode_case).collect();
        assert_eq!(out[0], Outcome::Pass);
        assert_eq!(
            out[1],
            Outcome::Fail(
                "row 0 (3f800000 3f000000 00000000 bf800000, nearest): expected ff800001, got ff800000"
                    .into()
            )
        );
        assert_eq!(out[2], Outcome::Pass);
        assert!(
            matches!(&out[3], Outcome::Fail(m) if m.contains("expected the encoder to refuse"))
        );
    }

    #[test]
    fn malformed_encode_cases_are_file_errors_with_positions() {
        let bad_lane = format!(
            r#"{{"schema": "inlay-conformance/2", "cases": [
{}]}}"#,
            case("a", r#""R8_UNORM""#, r#"{"data": "ff"}"#).replace("3f000000", "3f00")
        );
        let e = parse(&bad_lane).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("lane `3f00` is not 8 hex digits"), "{e}");
        let both = format!(
            r#"{{"schema": "inlay-conformance/2", "cases": [{}]}}"#,
            case("a", r#""R8_UNORM""#, r#"{"data": "ff", "error": true}"#)
        );
        assert!(parse(&both).unwrap_err().message.contains("exactly one of"));
        let schema1 = format!(
            r#"{{"schema": "inlay-conformance/1", "cases": [{}]}}"#,
            case("a", r#""R8_UNORM""#, r#"{"data": "ff"}"#)
        );
        assert!(
            parse(&schema1)
                .unwrap_err()
                .message
                .contains("need schema `inlay-conformance/2`")
        );
        let dup = format!(
            r#"{{"schema": "inlay-conformance/2", "cases": [{}, {}]}}"#,
            case("a", r#""R8_UNORM""#, r#"{"data": "ff"}"#),
            case("a", r#""R8_UNORM""#, r#"{"data": "ff"}"#)
        );
        assert!(
            parse(&dup)
                .unwrap_err()
                .message
                .contains("duplicate case name `a`")
        );
        let typo = format!(
            r#"{{"schema": "inlay-conformance/2", "cases": [{}]}}"#,
            case("a", r#""R8_UNORM""#, r#"{"data": "ff"}"#)
                .replace("\"values\"", "\"rounding\": \"up\", \"values\"")
        );
        assert!(
            parse(&typo)
                .unwrap_err()
                .message
                .contains("unknown rounding `up`")
        );
    }
}
