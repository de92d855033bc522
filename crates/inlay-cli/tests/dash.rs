//! Issue 35 item 1: `-` is standard output for every output (`view --output -`,
//! `signature --out -`, `map --svg -`, `encode --out 0=-`, `repack --out 0=-`,
//! `export --output -` with `--format` or its default glb, `decode --output -`) and standard
//! input for every input. The oracle is the same command writing or reading a file: the bytes
//! on standard output are the file's bytes, and no file named `-` appears.

mod common;

use std::path::Path;

use common::{RunBytes, examples_copy, inlay_stdin, scratch};

const DUMP: &str = "dump/000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.txt";

fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> RunBytes {
    let r = inlay_stdin(dir, args, stdin);
    assert_eq!(r.code, 0, "inlay {}: {}", args.join(" "), r.stderr);
    r
}

/// `args` with `@` replaced by `with` in every word.
fn fill(args: &[&str], with: &str) -> Vec<String> {
    args.iter().map(|a| a.replace('@', with)).collect()
}

fn no_dash_file(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        assert_ne!(
            e.file_name(),
            "-",
            "a file named - was written in {}",
            dir.display()
        );
        if e.file_type().unwrap().is_dir() {
            no_dash_file(&e.path());
        }
    }
}

#[test]
fn dash_is_standard_output_for_every_output() {
    let ex = examples_copy("dash-out");
    let out = scratch("dash-out-files");
    // (the command with `@` for the output, the file name the file form writes)
    let cases: &[(&[&str], &str)] = &[
        (&["signature", "sig.toml", "--out", "@"], "sig.dxbc"),
        (
            &["map", "layouts.h", "--array", "kSprites", "--svg", "@"],
            "map.svg",
        ),
        (
            &["encode", "layout.h", "--input", "verts.csv", "--out", "0=@"],
            "enc.vb",
        ),
        (
            &[
                "repack",
                "float.h",
                "packed.h",
                "--vb",
                "0=mesh.vb",
                "--out",
                "0=@",
            ],
            "packed.vb",
        ),
        (&["export", DUMP, "--output", "@"], "mesh.glb"),
        (
            &["export", DUMP, "--format", "obj", "--output", "@"],
            "mesh.obj",
        ),
        (
            &["export", DUMP, "--format", "ply", "--output", "@"],
            "mesh.ply",
        ),
        (&["view", DUMP, "--output", "@"], "page.html"),
        (
            &[
                "decode",
                "layout.h",
                "--vb",
                "0=mesh.vb",
                "--format",
                "json",
                "--output",
                "@",
            ],
            "quad.json",
        ),
    ];
    for (args, file) in cases {
        let path = out.join(file);
        let file_args = fill(args, path.to_str().unwrap());
        let file_args: Vec<&str> = file_args.iter().map(String::as_str).collect();
        let file_run = run(&ex, &file_args, b"");
        let written = std::fs::read(&path).unwrap();
        let dash_args = fill(args, "-");
        let dash_args: Vec<&str> = dash_args.iter().map(String::as_str).collect();
        let dash_run = run(&ex, &dash_args, b"");
        assert!(!written.is_empty(), "{file}");
        assert!(
            dash_run.stdout == written,
            "inlay {}: standard output ({} bytes) is not the file's {} bytes",
            dash_args.join(" "),
            dash_run.stdout.len(),
            written.len()
        );
        // What the file form printed on standard output (a report, a summary) is on standard
        // error with `-`, so standard output holds the data alone.
        let report = String::from_utf8_lossy(&file_run.stdout);
        for line in report
            .lines()
            .filter(|l| !l.contains(path.to_str().unwrap()))
        {
            assert!(
                dash_run.stderr.contains(line),
                "inlay {}: `{line}` is missing from standard error:\n{}",
                dash_args.join(" "),
                dash_run.stderr
            );
        }
    }
    // `--format` overrides the extension; no extension and no --format is refused.
    let r = inlay_stdin(
        &ex,
        &["export", DUMP, "--output", out.join("x").to_str().unwrap()],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("(or give --format)"), "{}", r.stderr);
    // A .gltf needs its .bin beside it: standard output is refused for it, saying what works.
    let r = inlay_stdin(
        &ex,
        &["export", DUMP, "--format", "gltf", "--output", "-"],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("standard output takes glb, obj or ply"),
        "{}",
        r.stderr
    );
    // Standard output holds one output.
    let r = inlay_stdin(
        &ex,
        &[
            "encode",
            "layouts.h",
            "--array",
            "kSprites",
            "--input",
            "verts.csv",
            "--out",
            "0=-",
            "--out",
            "1=-",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("can take one output only"),
        "{}",
        r.stderr
    );
    no_dash_file(&ex);
    no_dash_file(&out);
    let _ = std::fs::remove_dir_all(ex.parent().unwrap());
    let _ = std::fs::remove_dir_all(&out);
}

/// `a == b`, or a failure showing where they first differ.
fn same(a: &str, b: &str, what: &str) {
    if a != b {
        let at = a
            .bytes()
            .zip(b.bytes())
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        let window = |s: &str| {
            s.get(at.saturating_sub(80)..(at + 80).min(s.len()))
                .unwrap_or("")
                .to_string()
        };
        panic!(
            "{what}: outputs differ at byte {at}:\n{}\n---\n{}",
            window(a),
            window(b)
        );
    }
}

/// `text` with each whole-word `name` (not inside a longer name or number, nor an arrow
/// `->` when the name is `-`) as `INPUT`.
fn replace_word(text: &str, name: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || "-_./>".contains(c));
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(name) {
        let before = out.chars().last().or_else(|| rest[..i].chars().last());
        let before = if i > 0 {
            rest[..i].chars().last()
        } else {
            before
        };
        let after = rest[i + name.len()..].chars().next();
        out.push_str(&rest[..i]);
        if word(before) || word(after) {
            out.push_str(name);
        } else {
            out.push_str("INPUT");
        }
        rest = &rest[i + name.len()..];
    }
    out.push_str(rest);
    out
}

#[test]
fn dash_is_standard_input_for_every_input() {
    let ex = examples_copy("dash-in");
    let read = |name: &str| std::fs::read(ex.join(name)).unwrap();
    // (the command with `@` for the input read from standard input, that input's file)
    let cases: &[(&[&str], &str)] = &[
        (&["check", "@", "--shader", "vs.dxbc"], "layout.h"),
        (&["check", "layout.h", "--shader", "@"], "vs.dxbc"),
        (&["shader", "@"], "vs.dxbc"),
        (&["signature", "@", "--out", "-"], "sig.toml"),
        (&["map", "@", "--array", "kSprites"], "layouts.h"),
        (
            &["decode", "@", "--vb", "0=mesh.vb", "--format", "csv"],
            "layout.h",
        ),
        (
            &["decode", "layout.h", "--vb", "0=@", "--format", "csv"],
            "mesh.vb",
        ),
        (
            &[
                "decode",
                "layout.h",
                "--vb",
                "0=mesh.vb",
                "--ib",
                "@,format=R16_UINT",
                "--format",
                "csv",
            ],
            "mesh.ib",
        ),
        (
            &["encode", "@", "--input", "verts.csv", "--out", "0=-"],
            "layout.h",
        ),
        (
            &[
                "encode",
                "layout.h",
                "--input",
                "@",
                "--input-format",
                "csv",
                "--out",
                "0=-",
            ],
            "verts.csv",
        ),
        (
            &[
                "repack",
                "@",
                "packed.h",
                "--vb",
                "0=mesh.vb",
                "--out",
                "0=-",
            ],
            "float.h",
        ),
        (
            &[
                "repack",
                "float.h",
                "@",
                "--vb",
                "0=mesh.vb",
                "--out",
                "0=-",
            ],
            "packed.h",
        ),
        (
            &[
                "repack", "float.h", "packed.h", "--vb", "0=@", "--out", "0=-",
            ],
            "mesh.vb",
        ),
        (&["lower", "@", "--target", "vulkan"], "layout.h"),
        (&["diff", "@", "packed.h"], "float.h"),
        (&["diff", "float.h", "@"], "packed.h"),
        (
            &[
                "lower",
                "layout.h",
                "--target",
                "vulkan",
                "--device-profile",
                "@",
            ],
            "../profiles/nvidia-h200.json",
        ),
        (
            &[
                "export",
                "@",
                "--vb",
                "0=mesh.vb",
                "--output",
                "-",
                "--format",
                "ply",
            ],
            "layout.h",
        ),
        (
            &[
                "export", "layout.h", "--vb", "0=@", "--output", "-", "--format", "ply",
            ],
            "mesh.vb",
        ),
    ];
    std::fs::create_dir_all(ex.join("../profiles")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../profiles/nvidia-h200.json"),
        ex.join("../profiles/nvidia-h200.json"),
    )
    .unwrap();
    for (args, file) in cases {
        let file_args = fill(args, file);
        let file_args: Vec<&str> = file_args.iter().map(String::as_str).collect();
        let from_file = run(&ex, &file_args, b"");
        let dash_args = fill(args, "-");
        let dash_args: Vec<&str> = dash_args.iter().map(String::as_str).collect();
        let from_stdin = run(&ex, &dash_args, &read(file));
        // The input's name appears in some outputs (`layout.h (…)` or `- (…)`): compare
        // with it replaced (as a whole word) on both sides.
        let base = Path::new(file).file_name().unwrap().to_str().unwrap();
        let (a, b) = match (
            std::str::from_utf8(&from_file.stdout),
            std::str::from_utf8(&from_stdin.stdout),
        ) {
            (Ok(a), Ok(b)) => (
                replace_word(&replace_word(a, file), base),
                replace_word(b, "-"),
            ),
            _ => (
                format!("{:?}", from_file.stdout),
                format!("{:?}", from_stdin.stdout),
            ),
        };
        same(
            &a,
            &b,
            &format!("inlay {} vs {}", dash_args.join(" "), file_args.join(" ")),
        );
    }
    // The page names its files in its JSON: the same page but for that name.
    let file = run(
        &ex,
        &["view", "layout.h", "--vb", "0=mesh.vb", "--output", "-"],
        b"",
    );
    let stdin = run(
        &ex,
        &["view", "layout.h", "--vb", "0=-", "--output", "-"],
        &read("mesh.vb"),
    );
    same(
        &String::from_utf8_lossy(&file.stdout).replace("\"mesh.vb\"", "\"-\""),
        &String::from_utf8_lossy(&stdin.stdout),
        "view with --vb 0=-",
    );
    // A glTF to import, from standard input.
    let glb = run(&ex, &["export", DUMP, "--output", "-"], b"").stdout;
    run(
        &ex,
        &["import", "-", "--layout", DUMP, "--output-dir", "back"],
        &glb,
    );
    let names: Vec<_> = std::fs::read_dir(ex.join("back"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(!names.is_empty());
    let vb = names
        .iter()
        .find(|n| n.ends_with(".vb"))
        .expect("a .vb written");
    assert_eq!(
        std::fs::read(ex.join("back").join(vb)).unwrap(),
        read("dump/000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.buf")
    );
    // A RenderDoc mesh-view CSV holds its whole draw: it is read from standard input; a
    // 3DMigoto dump, whose buffers are found by name, is refused with what to give instead.
    let csv = b"VTX, IDX, POSITION.x, POSITION.y, POSITION.z\n0, 0, 0.0, 0.0, 0.0\n\
                1, 1, 1.0, 0.0, 0.0\n2, 2, 0.0, 1.0, 0.0\n";
    std::fs::write(ex.join("tri.csv"), csv).unwrap();
    let file = run(
        &ex,
        &["export", "tri.csv", "--output", "-", "--format", "ply"],
        b"",
    );
    let stdin = run(
        &ex,
        &["export", "-", "--output", "-", "--format", "ply"],
        csv,
    );
    assert_eq!(file.stdout, stdin.stdout);
    let r = inlay_stdin(&ex, &["export", "-", "--output", "-"], &read(DUMP));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("name the file"), "{}", r.stderr);
    // Standard input is read once.
    let r = inlay_stdin(&ex, &["decode", "-", "--vb", "0=-"], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("one input only"), "{}", r.stderr);
    no_dash_file(&ex);
    let _ = std::fs::remove_dir_all(ex.parent().unwrap());
}
