//! The conformance runner: JSON case files (schema `inlay-conformance/1` and `/2`, see
//! `shared/conformance/SCHEMA.md`) run against inlay's `CreateInputLayout` model, input
//! assembler and element encoder. It is the tool behind `inlay conform` and inlay's own
//! conformance tests; the library it runs knows nothing of it (until 0.1 it was
//! `inlay::conform`).
//!
//! A case file is written in the library's own serde grammar ([`schema`]): its elements,
//! signatures, topology, index format and draw call read as [`inlay::text::records`],
//! [`inlay::Topology`], [`inlay::IndexFormat`] and [`inlay::DrawSpec`] values, exactly as the
//! JSON/TOML layout files do.
//!
//! A case states one `CreateInputLayout` call (target, element array, bytecode, validate-only
//! flag), its expected HRESULT, debug-layer message ids and resolved offsets, and optionally
//! one draw through the created layout with the expected vertex stream (`SV_VertexID`,
//! `SV_InstanceID`, register bits) and primitives (`SV_PrimitiveID`, vertex positions).
//!
//! ```no_run
//! use std::path::PathBuf;
//! let report = inlay_conform::run_paths(&[PathBuf::from("conformance")]);
//! report.print_text(&mut std::io::stdout()).unwrap();
//! std::process::exit(report.exit_code());
//! ```
//!
//! * Files: a path may be a file or a folder; folders are searched recursively for `*.json`.
//! * Malformed files (unknown field, wrong type, missing field, bad hex, unknown names,
//!   duplicate case names) are reported with file, line and column and count as failures.
//! * A case whose `dxbc` file does not exist is *skipped*, not passed (corpus-backed cases on
//!   a machine without the corpus).
//! * Inline `signature` shaders describe an `ISGN` chunk (stream 0, default precision); the
//!   runner writes a real signature-only DXBC container (valid checksum) with
//!   [`inlay::dxbc::signature_blob`] and hands those bytes to
//!   [`inlay::CreateInputLayout`], like any other bytecode.

// Parsers and the reference path never need `unsafe` (only `fetch::simd` may use it).
#![forbid(unsafe_code)]

mod compare;
pub mod encode_case;
mod engine;
mod load;
mod report;
pub mod runner;
pub mod schema;

use std::path::{Path, PathBuf};

pub use compare::{
    CreationResult, DrawResult, ProducedPrimitive, ProducedVertex, compare_creation, compare_draw,
    ulp_distance,
};
pub use load::{FileError, collect_files, load_file, parse_text};
pub use report::{CaseReport, Report, Status};

use schema::{Case, Shader};

/// Options of a conformance run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Where the fxc corpus is (what `$INLAY_CORPUS` names for the tests and the CLI). A case's
    /// `dxbc` path that does not exist and passes through a folder named `corpus`
    /// (`../../shared/corpus/dxbc/x.dxbc`) is looked up under this folder instead
    /// (`CORPUS/dxbc/x.dxbc`).
    pub corpus: Option<PathBuf>,
}

/// Runs every case of every file named by `paths` (files, or folders searched recursively for
/// `*.json`) and returns the report.
pub fn run_paths(paths: &[PathBuf]) -> Report {
    run_paths_with(paths, &RunOptions::default())
}

/// [`run_paths`] with options.
pub fn run_paths_with(paths: &[PathBuf], options: &RunOptions) -> Report {
    let mut report = Report::default();
    let (files, errors) = collect_files(paths);
    for e in errors {
        report.push_error(e);
    }
    for f in files {
        run_file_with(&f, &mut report, options);
    }
    report
}

/// Runs the cases of one file into `report` (a malformed file adds one error).
pub fn run_file(path: &Path, report: &mut Report) {
    run_file_with(path, report, &RunOptions::default())
}

/// [`run_file`] with options.
pub fn run_file_with(path: &Path, report: &mut Report, options: &RunOptions) {
    match load_file(path) {
        Err(e) => report.push_error(e),
        Ok(file) => {
            let base = path.parent().unwrap_or(Path::new("."));
            for case in &file.cases {
                let (status, detail) = match run_case_with(case, base, options) {
                    Outcome::Pass => (Status::Passed, None),
                    Outcome::Fail(d) => (Status::Failed, Some(d)),
                    Outcome::Skip(d) => (Status::Skipped, Some(d)),
                };
                report.push(CaseReport {
                    file: path.to_path_buf(),
                    name: case.name.clone(),
                    status,
                    detail,
                });
            }
            for case in &file.encode_cases {
                let (status, detail) = match encode_case::run_encode_case(case) {
                    Outcome::Pass => (Status::Passed, None),
                    Outcome::Fail(d) => (Status::Failed, Some(d)),
                    Outcome::Skip(d) => (Status::Skipped, Some(d)),
                };
                report.push(CaseReport {
                    file: path.to_path_buf(),
                    name: case.name.clone(),
                    status,
                    detail,
                });
            }
        }
    }
}

/// The outcome of one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every check matched.
    Pass,
    /// The first difference.
    Fail(String),
    /// Why the case could not run.
    Skip(String),
}

/// The bytecode a case hands to `CreateInputLayout`, or why there is none.
pub(crate) fn bytecode(case: &Case, base: &Path, options: &RunOptions) -> Result<Vec<u8>, Outcome> {
    match &case.shader {
        Shader::Dxbc(rel) => {
            let mut path = base.join(rel);
            // A corpus path: the part after the last `corpus` folder, under options.corpus.
            let in_corpus = Path::new(rel)
                .components()
                .collect::<Vec<_>>()
                .iter()
                .rposition(|c| c.as_os_str() == "corpus")
                .map(|i| Path::new(rel).components().skip(i + 1).collect::<PathBuf>());
            if !path.exists()
                && let (Some(dir), Some(tail)) = (&options.corpus, &in_corpus)
            {
                path = dir.join(tail);
            }
            if !path.exists() {
                let hint = if in_corpus.is_some() {
                    match &options.corpus {
                        Some(dir) => format!(" (nor under the corpus folder {})", dir.display()),
                        None => {
                            " (a corpus shader: set INLAY_CORPUS to the corpus folder)".to_string()
                        }
                    }
                } else {
                    String::new()
                };
                return Err(Outcome::Skip(format!(
                    "shader file {} not found{hint}",
                    base.join(rel).display()
                )));
            }
            std::fs::read(&path).map_err(|e| {
                Outcome::Fail(format!("shader file {}: cannot read: {e}", path.display()))
            })
        }
        Shader::DxbcHex(bytes) => Ok(bytes.clone()),
        Shader::Signature(entries) => Ok(engine::signature_container(entries)),
    }
}

/// Runs one case; `base` is the folder of its file (for `dxbc` paths).
pub fn run_case(case: &Case, base: &Path) -> Outcome {
    run_case_with(case, base, &RunOptions::default())
}

/// [`run_case`] with options.
pub fn run_case_with(case: &Case, base: &Path, options: &RunOptions) -> Outcome {
    if case.draw.is_some() != case.expect_draw.is_some() {
        return Outcome::Fail(if case.draw.is_some() {
            "case has `draw` but no `expect_draw`".to_string()
        } else {
            "case has `expect_draw` but no `draw`".to_string()
        });
    }
    let code = match bytecode(case, base, options) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let created = engine::create(case, &code);
    if let Err(d) = compare_creation(&case.expect, &created.result) {
        return Outcome::Fail(d);
    }
    let (Some(draw), Some(expect_draw)) = (&case.draw, &case.expect_draw) else {
        return Outcome::Pass;
    };
    let Some(layout) = &created.layout else {
        return Outcome::Fail(format!(
            "draw: creation returned {} and no layout to draw with",
            created
                .result
                .hresult
                .map_or("nothing".to_string(), |h| h.to_string())
        ));
    };
    let target = inlay::Target::new(case.api(), case.feature_level());
    let max_primitives = expect_draw.primitives.as_ref().map_or(0, Vec::len);
    let produced = match engine::draw(
        &target,
        layout,
        draw,
        expect_draw.vertices.len(),
        max_primitives,
    ) {
        Ok(p) => p,
        Err(e) => return Outcome::Fail(format!("draw: {e}")),
    };
    let float_lanes = |reg: u32| engine::float_lanes(layout, reg);
    match compare_draw(expect_draw, &produced, case.tolerance_ulp, &float_lanes) {
        Ok(()) => Outcome::Pass,
        Err(d) => Outcome::Fail(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("inlay-conform-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).unwrap();
        d
    }

    const CASE: &str = r#"{"schema": "inlay-conformance/1", "cases": [
 {"name": "corpus-blob", "evidence": "e",
  "elements": [{"semantic": "POSITION", "index": 0, "format": "R32G32B32A32_FLOAT", "slot": 0,
                "offset": 0, "class": "vertex", "step_rate": 0}],
  "shader": {"dxbc": "../missing/NAME.dxbc"}, "expect": {"hresult": "S_OK"}}]}"#;

    #[test]
    fn missing_shader_file_is_skipped_and_malformed_file_fails() {
        let d = temp_dir("skip");
        std::fs::write(d.join("sub/a.json"), CASE).unwrap();
        std::fs::write(
            d.join("b.json"),
            CASE.replace("\"evidence\"", "\"evidense\""),
        )
        .unwrap();
        std::fs::write(d.join("notes.txt"), "not a case file").unwrap();
        let report = run_paths(&[d.clone(), d.join("nope.json")]);
        assert_eq!((report.passed, report.failed, report.skipped), (0, 2, 1));
        assert_eq!(report.cases.len(), 1);
        assert_eq!(report.cases[0].status, Status::Skipped);
        assert!(
            report.cases[0]
                .detail
                .as_deref()
                .unwrap()
                .contains("not found")
        );
        assert_eq!(report.errors.len(), 2);
        assert!(report.errors[0].file.ends_with("nope.json"));
        assert!(
            report.errors[1]
                .message
                .contains("unknown field `evidense`")
        );
        assert_eq!(report.errors[1].line, 2);
        assert!(!report.success());
        let mut out = Vec::new();
        report.print_text(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.ends_with("\n0 passed, 2 failed, 1 skipped\n"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn draw_needs_expect_draw() {
        let text = CASE.replace(
            r#""expect": {"hresult": "S_OK"}"#,
            r#""expect": {"hresult": "S_OK"}, "draw": {"topology": "point_list",
               "vertex_buffers": [], "call": {"kind": "draw", "vertex_count": 1, "start_vertex": 0}}"#,
        );
        let file = parse_text(Path::new("t.json"), &text).unwrap();
        assert_eq!(
            run_case(&file.cases[0], Path::new(".")),
            Outcome::Fail("case has `draw` but no `expect_draw`".into())
        );
    }
}
