//! Finding and parsing case files, with the position of every problem.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::schema::CaseFile;

/// A case file that could not be used: unreadable, not JSON, not schema 1, or with duplicate
/// case names. Such a file never counts as passed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FileError {
    /// The file (or folder) concerned.
    pub file: PathBuf,
    /// 1-based line of the problem (0 when the problem has no position, e.g. unreadable).
    pub line: usize,
    /// 1-based column of the problem (0 when it has no position).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file.display(),
                self.line,
                self.column,
                self.message
            )
        } else {
            write!(f, "{}: {}", self.file.display(), self.message)
        }
    }
}

/// The case files named by `paths`: a file is taken as it is (whatever its extension); a
/// folder contributes every `*.json` file below it, recursively, in sorted path order.
/// Paths that do not exist or folders that cannot be read are returned as errors.
///
/// Symbolic links are followed, but every folder is entered once and every file is returned
/// once, however many links or arguments lead to it (compared by canonical path): a link loop
/// cannot repeat files or make the walk exponential (issue 18 item 6: one loop ran a file 41
/// times, two went exponential).
pub fn collect_files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<FileError>) {
    let mut walk = Walk::default();
    for p in paths {
        if p.is_dir() {
            walk.dir(p);
        } else if p.is_file() {
            walk.file(p.clone());
        } else {
            walk.errors.push(FileError {
                file: p.clone(),
                line: 0,
                column: 0,
                message: "no such file or folder".to_string(),
            });
        }
    }
    (walk.files, walk.errors)
}

#[derive(Default)]
struct Walk {
    files: Vec<PathBuf>,
    errors: Vec<FileError>,
    seen_dirs: HashSet<PathBuf>,
    seen_files: HashSet<PathBuf>,
}

impl Walk {
    fn file(&mut self, p: PathBuf) {
        let key = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
        if self.seen_files.insert(key) {
            self.files.push(p);
        }
    }

    fn dir(&mut self, dir: &Path) {
        let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if !self.seen_dirs.insert(key) {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                self.errors.push(FileError {
                    file: dir.to_path_buf(),
                    line: 0,
                    column: 0,
                    message: format!("cannot read folder: {e}"),
                });
                return;
            }
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                self.dir(&p);
            } else if p.extension().is_some_and(|e| e == "json") {
                self.file(p);
            }
        }
    }
}

/// Reads and parses one case file. Unknown fields, wrong types, missing required fields,
/// bad hex and unknown names are reported with the line and column serde_json stopped at;
/// a repeated case name is reported at its second occurrence.
pub fn load_file(path: &Path) -> Result<CaseFile, FileError> {
    // The library's one checked reader: devices, pipes and files past 64 MiB refused.
    let fail = |message: String| FileError {
        file: path.to_path_buf(),
        line: 0,
        column: 0,
        message,
    };
    let bytes = inlay::input::read_file(path, inlay::input::DEFAULT_TEXT_LIMIT).map_err(|e| {
        fail(match e {
            inlay::input::ReadError::Io { source, .. } => format!("cannot read file: {source}"),
            e => e.to_string(),
        })
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|e| fail(format!("cannot read file: not UTF-8 text ({e})")))?;
    parse_text(path, &text)
}

/// Parses the text of a case file (see [`load_file`]); `path` is only used in errors.
pub fn parse_text(path: &Path, text: &str) -> Result<CaseFile, FileError> {
    // Files with ENCODE cases (schema 2) are read by their own reader.
    if let Some(file) = crate::encode_case::parse_if_encode(path, text)? {
        return Ok(file);
    }
    let file: CaseFile = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
        FileError {
            file: path.to_path_buf(),
            line: e.line().max(1),
            column: e.column().max(1),
            message,
        }
    })?;
    check_names(path, text, &file)?;
    check_schema_3(path, text, &file)?;
    Ok(file)
}

/// Schema 3's rules (`conformance/SCHEMA-3.md`): Direct3D 12 cases (`api: "d3d12"`) and the
/// 12_x feature levels need schema 3; `pipeline` belongs to D3D12 cases; a D3D12 case has no
/// `validate_only` (D3D12 has no validate-only pipeline creation to compare with,
/// d3d12-rules.md §E 9). Reported at the case's `name`.
pub(crate) fn check_schema_3(path: &Path, text: &str, file: &CaseFile) -> Result<(), FileError> {
    use crate::schema::SCHEMA_3_ID;
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for case in &file.cases {
        let occurrence = {
            let n = seen.entry(case.name.as_str()).or_default();
            *n += 1;
            *n - 1
        };
        let d3d12 = case.api().is_d3d12();
        let twelve = case.feature_level() >= inlay::FeatureLevel::L12_0;
        let problem = if (d3d12 || twelve) && file.schema != SCHEMA_3_ID {
            Some(format!(
                "case `{}`: Direct3D 12 cases and the 12_x feature levels need schema \
                 `{SCHEMA_3_ID}` (this file says `{}`)",
                case.name, file.schema
            ))
        } else if (d3d12 || twelve) && !case.api().feature_levels().contains(&case.feature_level())
        {
            Some(format!(
                "case `{}`: {}",
                case.name,
                inlay::target::TargetPairError {
                    api: case.api(),
                    feature_level: case.feature_level()
                }
            ))
        } else if case.pipeline.is_some() && !d3d12 {
            Some(format!(
                "case `{}`: `pipeline` belongs to Direct3D 12 cases (api \"d3d12\")",
                case.name
            ))
        } else if d3d12 && case.validate_only {
            Some(format!(
                "case `{}`: a Direct3D 12 case has no `validate_only` (pipeline creation has no \
                 validate-only form; d3d12-rules.md §E 9)",
                case.name
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            let (line, column) = name_position(text, &case.name, occurrence).unwrap_or((1, 1));
            return Err(FileError {
                file: path.to_path_buf(),
                line,
                column,
                message,
            });
        }
    }
    Ok(())
}

/// Case names must be unique within a file (creation and ENCODE cases together).
pub(crate) fn check_names(path: &Path, text: &str, file: &CaseFile) -> Result<(), FileError> {
    let names: Vec<&str> = file
        .cases
        .iter()
        .map(|c| c.name.as_str())
        .chain(file.encode_cases.iter().map(|c| c.name.as_str()))
        .collect();
    let mut seen = std::collections::HashSet::new();
    for (i, name) in names.iter().enumerate() {
        if !seen.insert(*name) {
            let occurrence = names[..i].iter().filter(|n| *n == name).count();
            let (line, column) = name_position(text, name, occurrence).unwrap_or((1, 1));
            return Err(FileError {
                file: path.to_path_buf(),
                line,
                column,
                message: format!(
                    "duplicate case name `{name}` (case {} repeats an earlier name; names must be \
                     unique within a file)",
                    i + 1
                ),
            });
        }
    }
    Ok(())
}

/// Line and column of the `occurrence`-th (0-based) `"name": <value>` pair in `text`.
fn name_position(text: &str, name: &str, occurrence: usize) -> Option<(usize, usize)> {
    let value = serde_json::to_string(name).ok()?;
    let mut found = 0;
    let mut from = 0;
    while let Some(rel) = text[from..].find("\"name\"") {
        let at = from + rel;
        from = at + 6;
        let rest = text[from..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else {
            continue;
        };
        if rest.trim_start().starts_with(&value) {
            if found == occurrence {
                let before = &text[..at];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |p| p + 1) + 1;
                return Some((line, column));
            }
            found += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `expect.hresult` reads into the library's own `HResult` (issue 11: no copy of the type in
    /// the runner) and keeps the schema's three values: `E_OUTOFMEMORY` is refused by name.
    #[test]
    fn expected_hresult_is_the_library_type_limited_to_the_schema() {
        let case = |h: &str| {
            format!(
                r#"{{"schema": "inlay-conformance/1", "cases": [{{"name": "n", "evidence": "e",
                "elements": [], "shader": {{"signature": []}}, "expect": {{"hresult": "{h}"}}}}]}}"#
            )
        };
        for (text, want) in [
            ("S_OK", inlay::HResult::S_OK),
            ("S_FALSE", inlay::HResult::S_FALSE),
            ("E_INVALIDARG", inlay::HResult::E_INVALIDARG),
        ] {
            let file = parse_text(Path::new("t.json"), &case(text)).unwrap();
            assert_eq!(file.cases[0].expect.hresult, want);
        }
        let err = parse_text(Path::new("t.json"), &case("E_OUTOFMEMORY")).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("`E_OUTOFMEMORY` is not a case result") && msg.contains("t.json"),
            "{msg}"
        );
        assert!(parse_text(Path::new("t.json"), &case("S_MAYBE")).is_err());
    }

    /// Schema 3 (conformance/SCHEMA-3.md): D3D12 cases and 12_x levels need it, `pipeline`
    /// belongs to D3D12 cases, D3D12 cases have no `validate_only`; each refusal names the
    /// case at its line. A D3D12 case reads its pipeline with the defaults filled in.
    #[test]
    fn schema_3_rules() {
        let file = |schema: &str, extra: &str| {
            format!(
                "{{\"schema\": \"inlay-conformance/{schema}\", \"cases\": [\n{{\"name\": \"n\", \
                 \"evidence\": \"e\", \"elements\": [], \"shader\": {{\"signature\": []}}, \
                 \"expect\": {{\"hresult\": \"S_OK\"}}{extra}}}]}}"
            )
        };
        let ok = parse_text(
            Path::new("t.json"),
            &file(
                "3",
                r#", "api": "d3d12", "feature_level": "12_1", "pipeline": {"ib_strip_cut_value": 2}"#,
            ),
        )
        .unwrap();
        let p = ok.cases[0].pipeline_desc();
        assert_eq!(
            (
                p.root_signature_flags,
                p.ib_strip_cut_value,
                p.primitive_topology_type
            ),
            (1, 2, 3)
        );
        for (schema, extra, want) in [
            (
                "1",
                r#", "api": "d3d12""#,
                "need schema `inlay-conformance/3`",
            ),
            ("2", r#", "feature_level": "12_0""#, "need schema"),
            (
                "3",
                r#", "feature_level": "12_0""#,
                "d3d11 runtime has no feature level 12_0",
            ),
            (
                "3",
                r#", "api": "d3d12", "feature_level": "10_0""#,
                "d3d12 runtime has no",
            ),
            (
                "3",
                r#", "pipeline": {}"#,
                "`pipeline` belongs to Direct3D 12 cases",
            ),
            (
                "3",
                r#", "api": "d3d12", "validate_only": true"#,
                "no `validate_only`",
            ),
            (
                "3",
                r#", "api": "d3d12", "pipeline": {"strip": 1}"#,
                "unknown field `strip`",
            ),
        ] {
            let e = parse_text(Path::new("t.json"), &file(schema, extra)).unwrap_err();
            assert!(e.message.contains(want), "{schema} {extra}: {e}");
            assert!(e.line >= 1, "{e}");
        }
        // Schema 1 and 2 files stay valid.
        for schema in ["1", "2"] {
            assert!(parse_text(Path::new("t.json"), &file(schema, "")).is_ok());
        }
    }

    /// Issue 18 item 6: folder links were followed without loop detection (one loop ran a file
    /// 41 times; two loops made the walk exponential, so this test never ended before).
    #[cfg(unix)]
    #[test]
    fn link_loops_visit_each_file_once() {
        use std::os::unix::fs::symlink;
        let d = std::env::temp_dir().join(format!("inlay-conform-loops-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("cases/sub")).unwrap();
        std::fs::write(d.join("cases/a.json"), "{}").unwrap();
        std::fs::write(d.join("cases/sub/b.json"), "{}").unwrap();
        // Two loops back to the top, one into a sibling, and a link to a file.
        symlink(d.join("cases"), d.join("cases/loop1")).unwrap();
        symlink("..", d.join("cases/sub/loop2")).unwrap();
        symlink(d.join("cases/sub"), d.join("cases/again")).unwrap();
        symlink(d.join("cases/a.json"), d.join("cases/sub/same.json")).unwrap();
        let top = d.join("cases");
        // The folder twice and a file inside it: still each file once.
        let (files, errors) = collect_files(&[top.clone(), top.join("a.json"), top.clone()]);
        assert!(errors.is_empty(), "{errors:?}");
        let names: Vec<String> = files
            .iter()
            .map(|f| f.strip_prefix(&top).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["a.json", "again/b.json"]);
        let _ = std::fs::remove_dir_all(&d);
    }

    const SIG: &str = r#"{"signature": [{"semantic": "POSITION", "index": 0, "register": 0,
        "mask": "xyzw", "used": "xyzw", "type": "float", "sv": "NONE"}]}"#;

    fn case(name: &str, extra: &str) -> String {
        format!(
            r#"{{"name": "{name}", "evidence": "e", "elements": [
 {{"semantic": "POSITION", "index": 0, "format": "R32G32B32A32_FLOAT", "slot": 0,
   "offset": 0, "class": "vertex", "step_rate": 0}}],
 "shader": {SIG}, "expect": {{"hresult": "S_OK"}}{extra}}}"#
        )
    }

    fn file(cases: &[String]) -> String {
        format!(
            "{{\"schema\": \"inlay-conformance/1\", \"cases\": [\n{}\n]}}",
            cases.join(",\n")
        )
    }

    fn err(text: &str) -> FileError {
        parse_text(Path::new("t.json"), text).unwrap_err()
    }

    #[test]
    fn good_file_parses() {
        let f = parse_text(Path::new("t.json"), &file(&[case("a", ""), case("b", "")])).unwrap();
        assert_eq!(f.cases.len(), 2);
        assert_eq!(f.cases[1].name, "b");
        assert_eq!(f.cases[0].num_elements(), 1);
    }

    #[test]
    fn unknown_field_has_position() {
        let e = err(&file(&[case("a", ", \"tolerance\": 1")]));
        assert!(e.message.contains("unknown field `tolerance`"), "{e}");
        assert_eq!(e.line, 6);
        let e = err(&file(&[case("a", "").replace("\"slot\"", "\"slots\"")]));
        assert!(e.message.contains("unknown field `slots`"), "{e}");
        assert_eq!(e.line, 3);
    }

    #[test]
    fn bad_values_have_positions() {
        let draw = r#", "draw": {"topology": "triangle_list", "vertex_buffers": [
  {"slot": 0, "stride": 16, "offset": 0, "data": "00zz"}],
  "call": {"kind": "draw", "vertex_count": 3, "start_vertex": 0}}"#;
        let e = err(&file(&[case("a", draw)]));
        assert!(e.message.contains("non-hex"), "{e}");
        assert_eq!(e.line, 7);
        let e = err(&file(&[
            case("a", "").replace("\"slot\": 0", "\"slot\": \"0\"")
        ]));
        assert!(e.message.contains("invalid type"), "{e}");
        let e = err(&file(&[
            case("a", "").replace("R32G32B32A32_FLOAT", "R32G32B32A32_FLOT")
        ]));
        assert!(e.message.contains("unknown DXGI format"), "{e}");
        let e = err(&file(&[
            case("a", "").replace("\"step_rate\": 0", "\"x\": 0")
        ]));
        assert!(e.message.contains("unknown field `x`"), "{e}");
        let e = err(&file(&[case("a", "").replace(", \"step_rate\": 0", "")]));
        assert!(e.message.contains("missing field `step_rate`"), "{e}");
        let e =
            err(&file(&[case("a", "").replace(
                "\"semantic\": \"POSITION\", \"index\"",
                "\"index\"",
            )]));
        assert!(e.message.contains("missing field `semantic`"), "{e}");
        let e = err(&file(&[case("a", "").replace(
            "\"shader\": {\"signature\"",
            "\"shader\": {\"dxbc\": \"x.dxbc\", \"signature\"",
        )]));
        assert!(e.message.contains("exactly one"), "{e}");
        let e = err(&file(&[case(
            "a",
            r#", "draw": {"topology": "quad_list", "vertex_buffers": [], "call": {"kind": "draw", "vertex_count": 3, "start_vertex": 0}}"#,
        )]));
        assert!(e.message.contains("unknown topology"), "{e}");
        let e = err(&file(&[case(
            "a",
            r#", "draw": {"topology": "point_list", "vertex_buffers": [], "call": {"kind": "draw", "vertex_count": 3, "start_vertex": 0, "start_instance": 0}}"#,
        )]));
        assert!(e.message.contains("unknown field `start_instance`"), "{e}");
        let e = err(&file(&[case("a", "")]).replace("inlay-conformance/1", "inlay-conformance/4"));
        assert!(e.message.contains("unsupported schema"), "{e}");
    }

    #[test]
    fn null_elements_must_be_written() {
        let c = case("a", "");
        let start = c.find("\"elements\"").unwrap();
        let end = c.find("\"shader\"").unwrap();
        let without = format!("{}{}", &c[..start], &c[end..]);
        let e = err(&file(&[without]));
        assert!(e.message.contains("missing field `elements`"), "{e}");
        let null = format!("{}\"elements\": null, {}", &c[..start], &c[end..]);
        let f = parse_text(Path::new("t.json"), &file(&[null])).unwrap();
        assert!(f.cases[0].elements.is_none());
        assert_eq!(f.cases[0].num_elements(), 0);
    }

    #[test]
    fn duplicate_names_point_at_the_repeat() {
        let e = err(&file(&[case("a", ""), case("b", ""), case("a", "")]));
        assert!(e.message.contains("duplicate case name `a`"), "{e}");
        assert_eq!((e.line, e.column), (12, 2));
    }

    #[test]
    fn lanes_are_strict() {
        let draw = |lane: &str| {
            format!(
                r#", "draw": {{"topology": "point_list", "vertex_buffers": [], "call": {{"kind": "draw", "vertex_count": 1, "start_vertex": 0}}}},
 "expect_draw": {{"vertices": [{{"vertex_id": 0, "instance_id": 0, "registers": {{"0": [{lane}, null, null, null]}}}}]}}"#
            )
        };
        assert!(parse_text(Path::new("t"), &file(&[case("a", &draw("\"3f800000\""))])).is_ok());
        let ids_only =
            draw("null").replace(r#", "registers": {"0": [null, null, null, null]}"#, "");
        let f = parse_text(Path::new("t"), &file(&[case("a", &ids_only)])).unwrap();
        assert!(
            f.cases[0].expect_draw.as_ref().unwrap().vertices[0]
                .registers
                .is_empty()
        );
        let e = err(&file(&[case("a", &draw("\"3f8\""))]));
        assert!(e.message.contains("8 hex digits"), "{e}");
        let e = err(&file(&[case("a", &draw("1"))]));
        assert!(e.message.contains("invalid type"), "{e}");
    }
}
