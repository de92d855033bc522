//! The result of a conformance run, as text or JSON.

use std::io::{self, Write};
use std::path::PathBuf;

use serde::Serialize;

use crate::load::FileError;

/// What happened to one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every check matched.
    Passed,
    /// A check did not match (the detail names the first difference).
    Failed,
    /// The case needs something that is not available (e.g. a corpus blob that is absent).
    Skipped,
}

/// The outcome of one case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseReport {
    /// The case file.
    pub file: PathBuf,
    /// The case name.
    pub name: String,
    /// Passed, failed or skipped.
    pub status: Status,
    /// For a failure, the first difference (expected vs got); for a skip, the reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// The result of running case files: one entry per case, plus the files that could not be
/// used. Serializes to the `--json` report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed, plus case files that could not be loaded (each counts as one
    /// failure: a malformed file never passes).
    pub failed: usize,
    /// Cases that were skipped.
    pub skipped: usize,
    /// Every case, in file order.
    pub cases: Vec<CaseReport>,
    /// Case files that could not be read or parsed, with positions.
    pub errors: Vec<FileError>,
}

impl Report {
    /// Adds one case outcome and updates the counts.
    pub fn push(&mut self, case: CaseReport) {
        match case.status {
            Status::Passed => self.passed += 1,
            Status::Failed => self.failed += 1,
            Status::Skipped => self.skipped += 1,
        }
        self.cases.push(case);
    }

    /// Adds a file that could not be used (counted as one failure).
    pub fn push_error(&mut self, error: FileError) {
        self.failed += 1;
        self.errors.push(error);
    }

    /// Whether the run succeeded: no failed case and no malformed file. Skips are allowed.
    pub fn success(&self) -> bool {
        self.failed == 0
    }

    /// The process exit status a command-line runner should use: 0 on success, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        if self.success() { 0 } else { 1 }
    }

    /// The closing line: `N passed, M failed`, plus `, K skipped` when K > 0.
    pub fn summary(&self) -> String {
        let mut s = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            s.push_str(&format!(", {} skipped", self.skipped));
        }
        s
    }

    /// Prints one line per malformed file (`FILE:LINE:COLUMN: error: …`), one line per
    /// failing case (`FILE: NAME: first difference`), one per skipped case
    /// (`FILE: NAME: skipped: why`), then [`Report::summary`] on its own line.
    pub fn print_text(&self, out: &mut impl Write) -> io::Result<()> {
        for e in &self.errors {
            if e.line > 0 {
                writeln!(
                    out,
                    "{}:{}:{}: error: {}",
                    e.file.display(),
                    e.line,
                    e.column,
                    e.message
                )?;
            } else {
                writeln!(out, "{}: error: {}", e.file.display(), e.message)?;
            }
        }
        for c in self.cases.iter().filter(|c| c.status == Status::Failed) {
            writeln!(
                out,
                "{}: {}: {}",
                c.file.display(),
                c.name,
                c.detail.as_deref().unwrap_or("failed")
            )?;
        }
        // Why each case was skipped (issue 17): a skip is never silent.
        for c in self.cases.iter().filter(|c| c.status == Status::Skipped) {
            writeln!(
                out,
                "{}: {}: skipped: {}",
                c.file.display(),
                c.name,
                c.detail.as_deref().unwrap_or("no reason given")
            )?;
        }
        writeln!(out, "{}", self.summary())
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, status: Status, detail: Option<&str>) -> CaseReport {
        CaseReport {
            file: PathBuf::from("c.json"),
            name: name.to_string(),
            status,
            detail: detail.map(str::to_string),
        }
    }

    #[test]
    fn text_lists_failures_then_summary() {
        let mut r = Report::default();
        r.push(case("a", Status::Passed, None));
        r.push(case(
            "b",
            Status::Failed,
            Some("hresult: expected S_OK, got E_INVALIDARG"),
        ));
        r.push(case("c", Status::Skipped, Some("no corpus")));
        r.push_error(FileError {
            file: PathBuf::from("bad.json"),
            line: 3,
            column: 7,
            message: "unknown field `x`".into(),
        });
        let mut out = Vec::new();
        r.print_text(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "bad.json:3:7: error: unknown field `x`\n\
             c.json: b: hresult: expected S_OK, got E_INVALIDARG\n\
             c.json: c: skipped: no corpus\n\
             1 passed, 2 failed, 1 skipped\n"
        );
        assert!(!r.success());
        assert_eq!(r.exit_code(), 1);
        let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(json["failed"], 2);
        assert_eq!(json["cases"][1]["status"], "failed");
        assert_eq!(json["errors"][0]["line"], 3);
    }

    #[test]
    fn summary_without_skips() {
        let mut r = Report::default();
        r.push(case("a", Status::Passed, None));
        assert_eq!(r.summary(), "1 passed, 0 failed");
        assert!(r.success());
    }
}
