//! The D3D11 runner's side of the suite (`conformance/runner`, issue 36): which cases it cannot
//! execute, the committed Wine run and its deviation table, and cases citing Windows runs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use inlay_conform::RunOptions;
use inlay_conform::runner::{deviations, export_runner, read_report};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("inlay-runner-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A case the runner can execute today must not silently become unrunnable: the export's
/// `unsupported` list is exactly `conformance/runner/unrunnable.txt`.
#[test]
fn unrunnable_cases_are_exactly_the_listed_ones() {
    let dir = temp_dir("export");
    let exported =
        export_runner(&[root().join("conformance")], &dir, &RunOptions::default()).expect("export");
    assert!(exported.errors.is_empty(), "{:?}", exported.errors);
    let got: BTreeSet<String> = exported
        .unsupported
        .iter()
        .map(|(id, why)| format!("{id}: {why}"))
        .collect();
    let listed: BTreeSet<String> =
        std::fs::read_to_string(root().join("conformance/runner/unrunnable.txt"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(str::to_string)
            .collect();
    let newly: Vec<_> = got.difference(&listed).collect();
    let gone: Vec<_> = listed.difference(&got).collect();
    assert!(
        newly.is_empty() && gone.is_empty(),
        "unrunnable cases changed.\nnow unrunnable (add to conformance/runner/unrunnable.txt \
         only if intended): {newly:#?}\nno longer unrunnable (remove): {gone:#?}"
    );
    // Every other exported case ran through the writer: its files exist and parse.
    let text = std::fs::read_to_string(dir.join("cases.txt")).unwrap();
    assert!(text.starts_with("inlay-runner 1\n"));
    let mut shaders = 0;
    for line in text.lines() {
        let mut t = line.split(' ');
        let (Some(key), Some(path)) = (t.next(), t.next()) else {
            continue;
        };
        let paths: Vec<&str> = match key {
            "shader" => vec![path],
            "group" => vec![path, t.next().unwrap()],
            _ => continue,
        };
        for p in paths {
            let bytes = std::fs::read(dir.join(p)).unwrap();
            if key == "group" {
                let c = inlay::Container::parse(&bytes).expect(p);
                assert!(c.checksum_matches(), "{p}");
            }
            shaders += 1;
        }
    }
    assert!(shaders > exported.cases, "{shaders} shader files");
    assert!(exported.draws >= 100, "{} draws", exported.draws);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `docs/peers/wine.md` lists every case on which the committed Wine run deviates or crashes,
/// and states the run's counts.
#[test]
fn the_wine_table_lists_every_deviation_of_the_committed_run() {
    let report = read_report(&root().join("docs/peers/wine-report.json")).unwrap();
    let doc = std::fs::read_to_string(root().join("docs/peers/wine.md")).unwrap();
    let dev = deviations(&report, &[root().join("conformance")]);
    assert!(
        doc.contains(&dev.summary()),
        "wine.md must state `{}`",
        dev.summary()
    );
    for d in &dev.deviating {
        assert!(
            doc.contains(&format!("`{}`", d.id)),
            "{} missing from wine.md",
            d.id
        );
        assert!(!d.evidence.is_empty(), "{} has no case evidence", d.id);
    }
    for d in &dev.crashed {
        assert!(
            doc.contains(&format!("`{}`", d.id)),
            "{} missing from wine.md",
            d.id
        );
    }
    // Every case of the suite is in the report (none lost between export and run).
    let ids: BTreeSet<&str> = report.cases.iter().map(|c| c.id.as_str()).collect();
    assert!(ids.len() >= 400, "{} cases in the Wine report", ids.len());
}

/// Checks that every case under `cases` that cites `docs/peers/windows-….json` (relative to
/// `root`) passed in that report, and that the report is a run on Windows; returns how many
/// citations there are.
fn check_windows_citations(cases: &Path, root: &Path) -> Result<usize, String> {
    let mut cited = 0;
    for entry in std::fs::read_dir(cases).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let file = inlay_conform::load_file(&path).map_err(|e| e.to_string())?;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for case in &file.cases {
            for (at, _) in case.evidence.match_indices("docs/peers/windows-") {
                let rel: String = case.evidence[at..]
                    .chars()
                    .take_while(|c| !c.is_whitespace() && !matches!(c, ')' | ';' | ','))
                    .collect();
                let id = format!("{name}#{}", case.name);
                let report =
                    read_report(&root.join(&rel)).map_err(|e| format!("{id} cites {rel}: {e}"))?;
                if !report
                    .device
                    .get("os")
                    .is_some_and(|os| os.starts_with("Windows"))
                {
                    return Err(format!("{id} cites {rel}, which is not a run on Windows"));
                }
                let status = report
                    .cases
                    .iter()
                    .find(|c| c.id == id)
                    .map(|c| c.status.as_str());
                if status != Some("pass") {
                    return Err(format!(
                        "{id} cites {rel}, where it did not pass ({status:?})"
                    ));
                }
                cited += 1;
            }
        }
    }
    Ok(cited)
}

/// A case may cite a Windows run only through a committed runner report in which it passed.
#[test]
fn cases_cite_windows_runs_only_through_reports_they_pass() {
    check_windows_citations(&root().join("conformance"), &root()).unwrap();

    // The check itself, on a case citing a report where it passed, failed, or that is missing.
    let dir = temp_dir("cite");
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    std::fs::create_dir_all(dir.join("docs/peers")).unwrap();
    let case = |evidence: &str| {
        format!(
            r#"{{"schema": "inlay-conformance/1", "cases": [{{"name": "c", "evidence": "{evidence}",
            "elements": null, "num_elements": 0, "shader": {{"signature": []}},
            "expect": {{"hresult": "S_OK"}}}}]}}"#
        )
    };
    let report = |os: &str, status: &str| {
        format!(
            r#"{{"format": "inlay-runner-report/1", "device": {{"os": "{os}"}},
            "cases": [{{"id": "a.json#c", "status": "{status}"}}]}}"#
        )
    };
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    write(
        "cases/a.json",
        &case("Windows run docs/peers/windows-warp.json; R2"),
    );
    write(
        "docs/peers/windows-warp.json",
        &report("Windows 10.0.19045", "pass"),
    );
    assert_eq!(check_windows_citations(&dir.join("cases"), &dir), Ok(1));
    write(
        "docs/peers/windows-warp.json",
        &report("Windows 10.0.19045", "fail"),
    );
    assert!(
        check_windows_citations(&dir.join("cases"), &dir)
            .unwrap_err()
            .contains("did not pass")
    );
    write("docs/peers/windows-warp.json", &report("Wine 8.0", "pass"));
    assert!(
        check_windows_citations(&dir.join("cases"), &dir)
            .unwrap_err()
            .contains("not a run on Windows")
    );
    write(
        "cases/a.json",
        &case("Windows run docs/peers/windows-none.json"),
    );
    assert!(
        check_windows_citations(&dir.join("cases"), &dir)
            .unwrap_err()
            .contains("cannot read")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
