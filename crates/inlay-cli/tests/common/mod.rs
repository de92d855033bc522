//! Helpers for the CLI integration tests: run the built binary, compare with snapshots.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The crate's `tests/data` folder (commands run there, so paths in outputs are short).
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

/// A fresh scratch folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("inlay-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What a run gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub transcript: String,
}

/// Runs `inlay ARGS` in `dir` with colours off; the transcript holds the command line, the
/// exit status and both streams.
pub fn inlay_in(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_inlay"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run inlay");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().unwrap_or(-1);
    let transcript = format!(
        "$ inlay {}\n--- exit status: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}",
        args.join(" ")
    );
    Run {
        code,
        stdout,
        stderr,
        transcript,
    }
}

/// Runs `inlay ARGS` in the data folder.
pub fn inlay(args: &[&str]) -> Run {
    inlay_in(&data_dir(), args)
}

/// Compares `actual` with `tests/snapshots/NAME.txt`; with `INLAY_UPDATE_SNAPSHOTS=1` writes
/// it instead.
pub fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("INLAY_UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "snapshot {} is missing; run with INLAY_UPDATE_SNAPSHOTS=1 to create it.\nactual:\n{actual}",
            path.display()
        )
    });
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "snapshot {} differs (first at line {}); rerun with INLAY_UPDATE_SNAPSHOTS=1 if the change is intended\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display(),
            first + 1
        );
    }
}

/// Runs `inlay ARGS` in the data folder, asserts its exit code, and compares its transcript
/// with snapshot `name` ([`snapshot`]).
pub fn snapshot_run(name: &str, code: i32, args: &[&str]) -> Run {
    let r = inlay(args);
    assert_eq!(r.code, code, "{}", r.transcript);
    snapshot(name, &r.transcript);
    r
}

/// The corpus folder the build found (`$INLAY_CORPUS`, else `../shared/corpus`); a test that
/// reads it carries `#[cfg_attr(not(inlay_has_corpus), ignore = "…")]` (docs/notes/tests.md).
pub fn corpus() -> PathBuf {
    PathBuf::from(env!("INLAY_TEST_CORPUS"))
}

/// What a run gave, stdout as bytes (binary outputs on standard output).
pub struct RunBytes {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs `inlay ARGS` in `dir` with colours off and `stdin` as standard input.
pub fn inlay_stdin(dir: &Path, args: &[&str], stdin: &[u8]) -> RunBytes {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_inlay"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run inlay");
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    // Written from a thread: a command may exit before reading it all (a closed pipe is fine).
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("wait for inlay");
    let _ = writer.join();
    RunBytes {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A scratch folder holding a copy of the repository's `examples/` (what a fresh clone has).
pub fn examples_copy(name: &str) -> PathBuf {
    fn copy_tree(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy_tree(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    let dir = scratch(name).join("examples");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples"),
        &dir,
    );
    dir
}
