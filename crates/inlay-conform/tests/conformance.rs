//! Runs inlay's own conformance suite (`conformance/` at the workspace root) and the shared
//! example cases (`$INLAY_SHARED/conformance/examples`, else `<workspace>/../shared/...`)
//! through `inlay_conform`, and fails on any failing case or malformed case file.
//!
//! The corpus-backed cases and the shared examples are separate tests, listed as ignored when
//! the build did not find their folders (docs/notes/tests.md).

use std::path::PathBuf;

use inlay_conform::{Report, RunOptions, Status, run_paths_with};

/// The corpus folder the cases' corpus shaders are found in (the one the build found).
fn options() -> RunOptions {
    RunOptions {
        corpus: testenv::corpus_if_built(),
    }
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(report: &Report) {
    let mut text = Vec::new();
    report.print_text(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    print!("{text}");
    for c in report.cases.iter().filter(|c| c.status == Status::Skipped) {
        eprintln!(
            "skipped: {}: {}: {}",
            c.file.display(),
            c.name,
            c.detail.as_deref().unwrap_or("")
        );
    }
    assert!(report.success(), "conformance failures:\n{text}");
}

#[path = "../../inlay/testenv/test_side.rs"]
mod testenv;

/// The suite's case files, without or with the one whose cases read the fxc corpus.
fn own_files(corpus_backed: bool) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("conformance"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| (p.file_name().unwrap() == "create-corpus.json") == corpus_backed)
        .collect();
    files.sort();
    files
}

#[test]
fn own_suite_passes() {
    let report = run_paths_with(&own_files(false), &options());
    check(&report);
    // Cases made here never skip; the suite is at least 200 cases (issue 5) — a folder that
    // silently lost its files fails.
    assert_eq!(report.skipped, 0, "a case without the corpus skipped");
    assert!(
        report.cases.len() >= 200,
        "only {} cases found",
        report.cases.len()
    );
}

/// The suite's corpus-backed cases (`create-corpus.json`), each run on its real shader.
#[test]
#[cfg_attr(
    not(inlay_has_corpus),
    ignore = "needs the fxc corpus: ../shared/corpus or $INLAY_CORPUS"
)]
fn own_corpus_cases_pass() {
    let options = RunOptions {
        corpus: Some(testenv::corpus()),
    };
    let report = run_paths_with(&own_files(true), &options);
    check(&report);
    assert_eq!(report.skipped, 0, "a corpus case skipped");
    assert!(
        report.cases.len() >= 20,
        "only {} cases",
        report.cases.len()
    );
}

#[test]
#[cfg_attr(
    not(inlay_has_shared_examples),
    ignore = "needs the shared example cases: ../shared/conformance/examples or $INLAY_SHARED"
)]
fn shared_examples_pass() {
    let report = run_paths_with(&[testenv::shared_examples()], &options());
    check(&report);
    assert!(!report.cases.is_empty());
}

/// The build saw the `../shared` folders this machine has (and, under `.ci/run`, all of them).
#[test]
fn build_saw_this_machine() {
    testenv::check_build_saw_this_machine();
}
