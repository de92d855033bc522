//! Issue 17's command-line conventions (ripgrep/fd/cargo as the anchors): `-` for standard
//! input and output, the output format from `--output`'s extension, the `wrote FILE (N
//! vertices)` line, `--color` with NO_COLOR/CLICOLOR_FORCE/TERM=dumb, file names with commas,
//! `$INLAY_CORPUS` and skip reasons in `inlay conform`, and every command of the README working
//! in a fresh clone. Transcripts (with exit statuses) are compared with snapshots.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{scratch, snapshot};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A scratch folder holding a copy of `examples/`, `conformance/` and `profiles/`, the way a fresh clone
/// has them.
fn fresh_examples(name: &str) -> PathBuf {
    let dir = scratch(name);
    let ex = dir.join("examples");
    copy_tree(&root().join("examples"), &ex);
    copy_tree(&root().join("conformance"), &dir.join("conformance"));
    copy_tree(&root().join("profiles"), &dir.join("profiles"));
    ex
}

/// A copy, not a link: `..` in the cases' corpus paths must resolve inside the scratch folder
/// (where no `shared/` is), as in a fresh clone.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else if ft.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// `inlay ARGS` in `dir` with a chosen environment (nothing inherited that changes colours or
/// the corpus), stdin from `input`.
fn run_env(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    input: Option<&[u8]>,
) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_inlay"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("TERM")
        .env_remove("INLAY_CORPUS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        if let Some(bytes) = input {
            stdin.write_all(bytes).unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The commands of the README's command-line block, as written (optional `[…]` parts left
/// out; `inlay bench` gets `--vertices 2000 --repeats 1` so the test stays short).
fn readme_commands() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("## The command line")
        .expect("README has the section");
    let block = &readme[start..];
    let block = &block[block.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    let mut commands = Vec::new();
    for line in block.lines() {
        let line = line.split(" # ").next().unwrap().trim();
        if line == "cd examples" || line.is_empty() {
            continue;
        }
        assert!(line.starts_with("inlay"), "unexpected README line: {line}");
        let mut words = Vec::new();
        let mut depth = 0;
        for w in line.split_whitespace() {
            if w.starts_with('[') {
                depth += 1;
            }
            if depth == 0 {
                words.push(w.to_string());
            }
            if w.ends_with(']') {
                depth -= 1;
            }
        }
        if words.get(1).is_some_and(|w| w == "bench") {
            words.extend(["--vertices", "2000", "--repeats", "1"].map(String::from));
        }
        commands.push(words);
    }
    commands
}

/// Issue 17: "the README's own commands all work in a fresh clone" — here without `../shared`
/// and without `$INLAY_CORPUS` (corpus cases are skipped, each with its reason).
#[test]
fn every_readme_command_works_in_a_fresh_clone() {
    let ex = fresh_examples("readme");
    let commands = readme_commands();
    assert!(commands.len() >= 12, "{commands:?}");
    for words in &commands {
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let (code, stdout, stderr) = run_env(&ex, &args, &[("NO_COLOR", "1")], None);
        assert_eq!(
            code,
            0,
            "README command failed: {}\n--- stdout\n{stdout}--- stderr\n{stderr}",
            words.join(" ")
        );
        // examples/vs.dxbc is a compiled vertex shader (issue 35 item 6), not a signature blob.
        if words.get(1).is_some_and(|w| w == "shader") {
            assert!(
                stdout.starts_with("// vertex shader, shader model 4_0 (vs_4_0)\n"),
                "{stdout}"
            );
        }
        // Every skipped case says why (`create-corpus.json`'s cases skip here: the scratch
        // copy has no `shared/` beside it, and whether the machine has a `shared/` two folders
        // up from it must not matter); the closing `N passed, M failed, K skipped` line is the
        // count, not a case. The reasons themselves are pinned by `conform_prints_skip_reasons`.
        if words.get(1).is_some_and(|w| w == "conform") {
            let summary = stdout.lines().last().unwrap_or_default();
            assert!(
                summary.contains(" passed, ") && summary.contains(" failed"),
                "{stdout}"
            );
            let cases = stdout.lines().take(stdout.lines().count() - 1);
            for line in cases.filter(|l| l.contains("skipped")) {
                assert!(line.contains(": skipped: "), "{stdout}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(ex.parent().unwrap());
}

#[test]
fn dash_format_from_extension_and_wrote_line() {
    let ex = fresh_examples("dash");
    let mut transcript = String::new();
    let mut log = |args: &[&str], input: Option<&[u8]>| {
        let (code, stdout, stderr) = run_env(&ex, args, &[("NO_COLOR", "1")], input);
        transcript.push_str(&format!(
            "$ inlay {}{}\n--- exit status: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}",
            args.join(" "),
            if input.is_some() { " < mesh.vb" } else { "" }
        ));
    };
    log(
        &[
            "decode",
            "layout.h",
            "--vb",
            "0=mesh.vb",
            "--output",
            "quad.json",
        ],
        None,
    );
    log(
        &[
            "decode",
            "layout.h",
            "--vb",
            "0=mesh.vb",
            "--output",
            "quad.csv",
            "--range",
            "1..3",
        ],
        None,
    );
    log(
        &[
            "decode",
            "layout.h",
            "--vb",
            "0=mesh.vb",
            "--output",
            "quad.txt",
            "--format",
            "csv",
        ],
        None,
    );
    // `-`: standard output (the default table), and standard input for a buffer.
    log(
        &[
            "decode",
            "layout.h",
            "--vb",
            "0=mesh.vb",
            "--output",
            "-",
            "--range",
            "..1",
        ],
        None,
    );
    let mesh = std::fs::read(ex.join("mesh.vb")).unwrap();
    log(
        &["decode", "layout.h", "--vb", "0=-", "--format", "csv"],
        Some(&mesh),
    );
    // A file name with commas, with the stride and offset given apart.
    std::fs::copy(ex.join("mesh.vb"), ex.join("my,mesh.vb")).unwrap();
    log(
        &[
            "decode",
            "layout.h",
            "--vb",
            "0=my,mesh.vb",
            "--stride",
            "0=24",
            "--offset",
            "0=24",
            "--format",
            "csv",
        ],
        None,
    );
    log(
        &[
            "decode",
            "layout.h",
            "--vb",
            "0=mesh.vb",
            "--stride",
            "1=24",
        ],
        None,
    );
    log(&["signature", "sig.toml", "--out", "again.dxbc"], None);
    snapshot("conventions-dash-format-wrote", &transcript);
    assert!(
        std::fs::read_to_string(ex.join("quad.json"))
            .unwrap()
            .starts_with("[\n")
    );
    assert!(
        std::fs::read_to_string(ex.join("quad.csv"))
            .unwrap()
            .starts_with("position,")
    );
    assert!(
        std::fs::read_to_string(ex.join("quad.txt"))
            .unwrap()
            .starts_with("position,")
    );
    let _ = std::fs::remove_dir_all(ex.parent().unwrap());
}

#[test]
fn colours_follow_flag_and_environment() {
    let ex = fresh_examples("colour");
    let args = ["check", "layout.h", "--shader", "vs.dxbc"];
    let coloured = |extra: &[&str], env: &[(&str, &str)]| {
        let mut a: Vec<&str> = args.to_vec();
        a.extend_from_slice(extra);
        let (code, stdout, _) = run_env(&ex, &a, env, None);
        assert_eq!(code, 0);
        stdout.contains("\x1b[")
    };
    // Output is a pipe here: auto means no colour unless forced.
    assert!(!coloured(&[], &[]));
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!coloured(&[], &[("CLICOLOR_FORCE", "0")]));
    assert!(!coloured(
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    ));
    assert!(coloured(
        &["--color", "always"],
        &[("NO_COLOR", "1"), ("TERM", "dumb")]
    ));
    assert!(!coloured(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    assert!(coloured(&["--color=always"], &[]));
    let (code, _, stderr) = run_env(
        &ex,
        &["check", "layout.h", "--color", "sometimes"],
        &[],
        None,
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("invalid value 'sometimes' for '--color <WHEN>'"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(ex.parent().unwrap());
}

/// `inlay conform` prints why each case was skipped, and finds corpus shaders through
/// `$INLAY_CORPUS` as the tests do.
#[test]
fn conform_says_why_and_honours_inlay_corpus() {
    let dir = scratch("conform-corpus");
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    std::fs::create_dir_all(dir.join("elsewhere/dxbc")).unwrap();
    let ex = root().join("examples");
    std::fs::copy(ex.join("vs.dxbc"), dir.join("elsewhere/dxbc/seed-vs.dxbc")).unwrap();
    std::fs::write(
        dir.join("cases/corpus.json"),
        r#"{"schema": "inlay-conformance/1", "cases": [
  {"name": "seed-from-corpus", "evidence": "the seed layout against its own signature",
   "elements": [
     {"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 0, "class": "vertex", "step_rate": 0},
     {"semantic": "COLOR", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 12, "class": "vertex", "step_rate": 0}],
   "shader": {"dxbc": "../../shared/corpus/dxbc/seed-vs.dxbc"},
   "expect": {"hresult": "S_OK"}},
  {"name": "not-a-corpus-file", "evidence": "a path outside any corpus folder",
   "elements": [],
   "shader": {"dxbc": "missing/vs.dxbc"},
   "expect": {"hresult": "S_OK"}}
]}"#,
    )
    .unwrap();
    let mut transcript = String::new();
    for env in [
        &[][..],
        &[("INLAY_CORPUS", "elsewhere")][..],
        &[("INLAY_CORPUS", "nowhere")][..],
    ] {
        let (code, stdout, stderr) = run_env(&dir, &["conform", "cases"], env, None);
        transcript.push_str(&format!(
            "$ {}inlay conform cases\n--- exit status: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}",
            env.iter().map(|(k, v)| format!("{k}={v} ")).collect::<String>()
        ));
    }
    snapshot("conventions-conform-skips", &transcript);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A closed output pipe (`inlay decode … | head`) ends the run quietly with status 0.
#[test]
fn closed_pipe_ends_quietly() {
    let ex = fresh_examples("pipe");
    let mut child = Command::new(env!("CARGO_BIN_EXE_inlay"))
        .args([
            "decode",
            "layout.h",
            "--vb",
            "0=mesh.vb",
            "--draw",
            "draw_instanced,vertex_count_per_instance=4,instance_count=100000000",
            "--format",
            "csv",
        ])
        .current_dir(&ex)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 4096];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(head.starts_with(b"position,vertex_id"));
    let _ = std::fs::remove_dir_all(ex.parent().unwrap());
}

/// The README's ```` ```sh ```` blocks, each with the text under its `##`/`###` heading.
fn readme_sh_blocks() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut rest = readme.as_str();
    while let Some(at) = rest.find("\n```sh\n") {
        rest = &rest[at + 7..];
        let end = rest.find("\n```").unwrap();
        blocks.push(rest[..end + 1].to_string());
        rest = &rest[end + 4..];
    }
    blocks
}

/// Issue 35 item 6: every README command runs as written in a fresh clone. Each ```` ```sh ````
/// block of the README is either run here, through `sh -e` in a scratch folder laid out like
/// the clone (`examples/`, `docs/`, `crates/inlay-cli/tests/data/` copied; `inlay` on the
/// `PATH`, as `cargo install --path crates/inlay-cli` puts it), or named with the test that
/// runs it — a new block that is neither fails here. Two substitutions, said here: `cargo run
/// --release -q --` is the `inlay` binary this test was built with, and `/tmp/` is a scratch
/// folder (so parallel runs do not share files).
#[test]
fn every_readme_shell_block_runs_as_written() {
    let dir = scratch("readme-blocks");
    copy_tree(&root().join("examples"), &dir.join("examples"));
    copy_tree(
        &root().join("crates/inlay-cli/tests/data"),
        &dir.join("crates/inlay-cli/tests/data"),
    );
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_inlay"), bin.join("inlay")).unwrap();
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let tested_elsewhere = [
        // The first lines: the demo is `inlay` without arguments (a line of the command-line
        // block); `.ci/run` runs the test command.
        "cargo run --release  ",
        // The command-line block: every line, in `every_readme_command_works_in_a_fresh_clone`.
        "cd examples ",
        // `.ci/run` builds the add-on with exactly this command and installs it into Blender.
        "python blender/build.py ",
        // crates/inlay-capi/tests/c_programs.rs, `readme_link_lines_run_from_a_private_prefix`.
        "cargo build --release -p inlay-capi\n",
        // `.ci/run`: `pip install .` into a fresh venv, then python/tests (test_readme.py runs
        // the README's Python blocks).
        "pip install . ",
        // `.ci/run`: the runner cross-built and run on Wine, report imported.
        "sh conformance/runner/build.sh ",
    ];
    let mut ran = 0;
    for block in readme_sh_blocks() {
        if tested_elsewhere.iter().any(|p| block.starts_with(p)) {
            continue;
        }
        let script = block
            .replace("cargo run --release -q --", "inlay")
            .replace("/tmp/", &format!("{}/", tmp.display()));
        let out = Command::new("sh")
            .arg("-ec")
            .arg(&script)
            .current_dir(&dir)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README block failed:\n{block}--- stdout\n{}--- stderr\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        if block.contains("cmp seed.vb") {
            assert!(stdout.contains("\nidentical\n"), "{stdout}");
        }
        // The Direct3D 12 block's `! inlay check … --root-signature-flags 0` is refused (the
        // `!` keeps `sh -e` going): it must be refused for #683, not for something else.
        if block.contains("--root-signature-flags 0") {
            assert!(
                stdout.contains("error[#683 ") && stdout.contains("result: E_INVALIDARG"),
                "{stdout}"
            );
        }
        // Two versions of a mod (issue 33): each part paired, the changes named.
        if block.contains("inlay diff examples/mod") {
            assert_eq!(
                stdout,
                "\
TextureOverrideBoxBlend -> TextureOverrideBoxBlend (matched by content)
  vb0 (Position) hash 1a2b3c4d -> 0badf00d
TextureOverrideBoxCaps -> TextureOverrideBoxCaps (matched by content)
  vb0 (Position) hash 1a2b3c4d -> 0badf00d
TextureOverrideBoxSides -> TextureOverrideBoxSides (same section)
  vb0 (Position) hash 1a2b3c4d -> 0badf00d
  index count 24 -> 18
3 paired (0 unchanged), 0 only in A, 0 only in B
"
            );
        }
        ran += 1;
    }
    // The modder path (export, import), the mod path (issue 32), the view line, the seed round
    // trip, Direct3D 12 (issue 37) and the mod diff (issue 33).
    assert_eq!(ran, 6);
    // What they wrote: the modder's buffers, the page of the torus.
    assert!(dir.join("mod/draw.vb").is_file());
    let page = std::fs::read_to_string(dir.join("docs/view.html")).unwrap();
    assert!(page.contains("<html"), "not a page");
    let _ = std::fs::remove_dir_all(&dir);
}
