//! Issue 18: what an adversarial audit broke in the command line, one regression test per
//! finding (each failed, hung or aborted before its fix).

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{data_dir, inlay_in, scratch};

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn copy_data(dir: &Path, files: &[&str]) {
    for f in files {
        std::fs::copy(data_dir().join(f), dir.join(f)).unwrap();
    }
}

/// Runs `sh -c SCRIPT` in `dir` with the inlay binary as `$INLAY`.
fn sh(dir: &Path, script: &str) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("INLAY", env!("CARGO_BIN_EXE_inlay"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Item 1: `decode --draw …_indirect,args=FILE --output FILE --force` overwrote the arguments
/// file. Every file a command reads is a protected input, for every subcommand that writes.
#[test]
fn no_input_is_ever_an_output() {
    let dir = scratch("protect");
    copy_data(
        &dir,
        &[
            "seed.h",
            "seed.vb",
            "indirect-args.bin",
            "seed-signature.json",
            "seed.json",
        ],
    );
    let args_before = std::fs::read(dir.join("indirect-args.bin")).unwrap();
    let r = inlay_in(
        &dir,
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=seed.vb",
            "--draw",
            "draw_instanced_indirect,args=indirect-args.bin",
            "--output",
            "indirect-args.bin",
            "--force",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert_eq!(
        r.stderr,
        "error: refusing to write indirect-args.bin: it is one of this command's inputs; \
         --force never replaces an input\n"
    );
    // Spelled another way, through a symbolic link and through a hard link.
    std::os::unix::fs::symlink("indirect-args.bin", dir.join("link.bin")).unwrap();
    std::fs::hard_link(dir.join("indirect-args.bin"), dir.join("hard.bin")).unwrap();
    for out in ["./indirect-args.bin", "link.bin", "hard.bin"] {
        let r = inlay_in(
            &dir,
            &[
                "decode",
                "seed.h",
                "--vb",
                "0=seed.vb",
                "--draw",
                "draw_instanced_indirect,args=indirect-args.bin",
                "--output",
                out,
                "--force",
            ],
        );
        assert_eq!(r.code, 2, "{}", r.transcript);
        assert!(
            r.stderr.contains("it is one of this command's inputs"),
            "{}",
            r.stderr
        );
    }
    assert_eq!(
        std::fs::read(dir.join("indirect-args.bin")).unwrap(),
        args_before
    );
    // decode's shader, map's layout, signature's description.
    let r = inlay_in(
        &dir,
        &["signature", "seed-signature.json", "--out", "vs.dxbc"],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    for (args, protected) in [
        (
            vec![
                "decode",
                "seed.h",
                "--shader",
                "vs.dxbc",
                "--vb",
                "0=seed.vb",
                "--output",
                "vs.dxbc",
                "--force",
            ],
            "vs.dxbc",
        ),
        (
            vec!["map", "seed.json", "--svg", "seed.json", "--force"],
            "seed.json",
        ),
        (
            vec![
                "signature",
                "seed-signature.json",
                "--out",
                "seed-signature.json",
                "--force",
            ],
            "seed-signature.json",
        ),
    ] {
        let before = std::fs::read(dir.join(protected)).unwrap();
        let r = inlay_in(&dir, &args);
        assert_eq!(r.code, 2, "{}", r.transcript);
        assert!(
            r.stderr.contains("it is one of this command's inputs"),
            "{}",
            r.stderr
        );
        assert_eq!(std::fs::read(dir.join(protected)).unwrap(), before);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 2: `map` on a legal layout with an element at offset 4 000 000 000 tried to allocate
/// 96 GB and aborted.
#[test]
fn map_draws_far_offsets_as_gaps() {
    let dir = scratch("map-far");
    std::fs::write(
        dir.join("far.json"),
        r#"[{"semantic": "POSITION", "format": "R32G32_FLOAT", "offset": 0},
            {"semantic": "FAR", "format": "R32G32B32_FLOAT", "offset": 4000000000}]"#,
    )
    .unwrap();
    let r = inlay_in(&dir, &["map", "far.json", "--svg", "far.svg"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert!(
        r.stdout
            .contains("      16  … 3999999984 bytes of padding (16..4000000000) …\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("  4000000000  B  B  B  B  B  B  B  B  B  B  B  B\n")
    );
    assert!(std::fs::metadata(dir.join("far.svg")).unwrap().len() < 20_000);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 4: `--range A..B` skipped positions one by one: a start near 2^32 took minutes and a
/// 2^64-scale one never ended. 3 × (2^32 − 1) vertices here; the last five are printed.
#[test]
fn range_starts_deep_in_a_draw_at_once() {
    let d = data_dir();
    let t = Instant::now();
    let r = inlay_in(
        &d,
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=seed.vb",
            "--draw",
            "draw_instanced,vertex_count_per_instance=3,instance_count=4294967295",
            "--range",
            "12884901880..",
            "--format",
            "csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", r.stdout);
    assert_eq!(
        lines[1],
        "12884901880,1,1,4294967293,0.5,-0.5,0.5,0.0,1.0,0.0"
    );
    assert_eq!(
        lines[5],
        "12884901884,2,2,4294967294,-0.5,-0.5,0.5,0.0,0.0,1.0"
    );
    // Indexed, with 2^32 − 1 instances of the quad's six indices.
    let r = inlay_in(
        &d,
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=quad.vb,stride=8",
            "--ib",
            "quad.ib,format=R16_UINT",
            "--draw",
            "draw_indexed_instanced,instances=4294967295",
            "--range",
            "18446744073709551000..",
            "--format",
            "csv",
        ],
    );
    // Fewer vertices than the start: the header only.
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    // Generous: the old skip needed minutes for the first case and never ended the second.
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
}

/// Item 5 (a full disk): the temporary file leaked when the final flush failed. `ulimit -f`
/// makes writes past 1 block fail (EFBIG; SIGXFSZ ignored), like a full disk.
#[test]
fn failed_final_flush_leaves_no_temporary_file() {
    let dir = scratch("flush");
    copy_data(&dir, &["seed.h", "seed.vb"]);
    let out = sh(
        &dir,
        "trap '' XFSZ; ulimit -f 1; exec \"$INLAY\" decode seed.h --vb 0=seed.vb \
         --draw draw_instanced,vertex_count_per_instance=3,instance_count=40 --output out.csv",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: cannot write "), "{stderr}");
    assert_eq!(names(&dir), ["seed.h", "seed.vb"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 5 (signals): SIGINT/SIGTERM/SIGHUP in the middle of a write leave neither the
/// temporary file nor the destination, and the process still ends by the signal.
#[test]
fn interrupted_write_leaves_nothing() {
    use std::os::unix::process::ExitStatusExt;
    for (name, number) in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
        let dir = scratch(&format!("signal-{name}"));
        copy_data(&dir, &["seed.h", "seed.vb"]);
        // 12 billion vertices: the write is still going when the signal comes.
        let mut child = Command::new(env!("CARGO_BIN_EXE_inlay"))
            .args([
                "decode",
                "seed.h",
                "--vb",
                "0=seed.vb",
                "--draw",
                "draw_instanced,vertex_count_per_instance=3,instance_count=4000000000",
                "--output",
                "out.csv",
            ])
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the temporary file exists and has data.
        let t = Instant::now();
        loop {
            let temp = names(&dir).into_iter().find(|n| n.contains(".inlay-tmp-"));
            if let Some(temp) = temp
                && std::fs::metadata(dir.join(&temp)).map_or(0, |m| m.len()) > 0
            {
                break;
            }
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "no temporary file appeared"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let k = Command::new("kill")
            .args([format!("-{name}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(k.success());
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(number), "SIG{name}: {status:?}");
        assert_eq!(names(&dir), ["seed.h", "seed.vb"], "SIG{name}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Item 7: a buffer argument of `/dev/zero` read until memory ran out; inputs past a size limit
/// are refused, and the limit can be raised.
#[test]
fn devices_and_oversized_inputs_are_refused() {
    let d = data_dir();
    let t = Instant::now();
    let r = inlay_in(&d, &["decode", "seed.h", "--vb", "0=/dev/zero"]);
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert_eq!(
        r.stderr,
        "error: refusing to read /dev/zero: it is a device, not a file (a device such as \
         /dev/zero never ends); give a file, or `-` for standard input\n"
    );
    assert!(t.elapsed() < Duration::from_secs(10));
    let r = inlay_in(&d, &["shader", "/dev/zero"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("it is a device"), "{}", r.stderr);
    // A limit below the file's size refuses it before reading; raising it reads it.
    let dir = scratch("limits");
    copy_data(&dir, &["seed.h"]);
    let big: Vec<u8> = std::fs::read(d.join("seed.vb")).unwrap().repeat(5);
    std::fs::write(dir.join("big.vb"), &big).unwrap();
    let r = inlay_in(
        &dir,
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=big.vb",
            "--max-input-size",
            "300",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert_eq!(
        r.stderr,
        "error: big.vb is larger than 300 bytes (360 bytes); inlay refuses inputs past that \
         size (raise it with --max-input-size)\n"
    );
    let r = inlay_in(
        &dir,
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=big.vb",
            "--max-input-size",
            "1K",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(r.stdout.lines().count(), 16);
    let _ = std::fs::remove_dir_all(&dir);
    // Standard input is read up to the limit too.
    let mut child = Command::new(env!("CARGO_BIN_EXE_inlay"))
        .args(["decode", "seed.h", "--vb", "0=-", "--max-input-size", "300"])
        .current_dir(&d)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(&[0u8; 4096]);
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: - is larger than 300 bytes (or more); inlay refuses inputs past that size \
         (raise it with --max-input-size)\n"
    );
}

/// Item 7: an error on a long line copied the whole line into a `Vec<char>` (4 bytes per
/// character: a 600 MB line took 3.5 GB). Under a 220 MB address-space limit, a 48 MB line
/// with the error at its end now renders a bounded snippet; before, the copy alone needed
/// 192 MB more and the run aborted.
#[test]
fn error_on_a_huge_line_quotes_a_bounded_window() {
    let dir = scratch("long-line");
    let mut src = " ".repeat(48 << 20);
    src.push_str("D3D11_INPUT_ELEMENT_DESC d[] = { { \"P\", 0, DXGI_FORMAT_NOPE } };");
    std::fs::write(dir.join("long.h"), &src).unwrap();
    drop(src);
    let out = sh(&dir, "ulimit -v 220000; exec \"$INLAY\" check long.h");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(" --> long.h:1:50331692\n"), "{stderr}");
    assert!(stderr.len() < 1000, "{stderr}");
    assert!(stderr.contains("DXGI_FORMAT_NOPE"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 8: `signature` wrote the semantic `"PO\u0000S"` as `PO`, and accepted `used` bits
/// outside `mask` and `sv` numbers without a `D3D_NAME`.
#[test]
fn signature_refuses_what_it_cannot_write_faithfully() {
    let dir = scratch("sig");
    for (name, text, message) in [
        (
            "nul.json",
            r#"[{"semantic": "PO\u0000S", "register": 0, "mask": "xyzw"}]"#,
            "contains a NUL character",
        ),
        (
            "used.json",
            r#"[{"semantic": "P", "register": 0, "mask": "xy", "used": "xyz"}]"#,
            "used \"xyz\" names component z outside mask \"xy\"",
        ),
        (
            "sv.json",
            r#"[{"semantic": "P", "register": 0, "mask": "x", "sv": 1000}]"#,
            "sv 1000 is no D3D_NAME value",
        ),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
        let r = inlay_in(&dir, &["signature", name, "--out", "out.dxbc"]);
        assert_eq!(r.code, 2, "{}", r.transcript);
        assert!(r.stderr.contains(message), "{}", r.stderr);
        assert!(!dir.join("out.dxbc").exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 34 item 7: `inlay import` read a glTF's buffer file without a limit (a link to
/// `/dev/zero` ran to 4.2 GB, a FIFO hung) and the .glb itself up to 4 GiB whatever
/// `--max-input-size` said. Both go through the library's one checked reader now.
#[test]
fn import_reads_gltf_buffers_and_glb_files_under_the_limit() {
    let dir = scratch("import-limits");
    copy_data(&dir, &["seed.h", "seed.vb"]);
    for out in ["m.gltf", "m.glb"] {
        let r = inlay_in(
            &dir,
            &[
                "export",
                "seed.h",
                "--vb",
                "0=seed.vb",
                "--draw",
                "draw,count=3",
                "--output",
                out,
            ],
        );
        assert_eq!(r.code, 0, "{}", r.transcript);
    }
    let import = |mesh: &str, extra: &[&str]| {
        let mut args = vec!["import", mesh, "--layout", "seed.h", "--output-dir", "back"];
        args.extend_from_slice(extra);
        inlay_in(&dir, &args)
    };
    let r = import("m.gltf", &[]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let _ = std::fs::remove_dir_all(dir.join("back"));
    // The buffer file beside the glTF is a link to /dev/zero.
    std::fs::rename(dir.join("m.bin"), dir.join("m.bin.real")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("m.bin")).unwrap();
    let t = Instant::now();
    let r = import("m.gltf", &[]);
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert!(
        r.stderr
            .contains("m.bin: it is a device, not a file (a device such as /dev/zero never ends)"),
        "{}",
        r.stderr
    );
    assert!(t.elapsed() < Duration::from_secs(10));
    // ... a FIFO nobody writes (opening it blocked forever).
    std::fs::remove_file(dir.join("m.bin")).unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.join("m.bin"))
        .status()
        .unwrap();
    assert!(made.success());
    let t = Instant::now();
    let r = import("m.gltf", &[]);
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert!(
        r.stderr.contains("it is a named pipe (FIFO), not a file"),
        "{}",
        r.stderr
    );
    assert!(t.elapsed() < Duration::from_secs(10));
    // ... a real file larger than the limit.
    std::fs::remove_file(dir.join("m.bin")).unwrap();
    std::fs::rename(dir.join("m.bin.real"), dir.join("m.bin")).unwrap();
    // (Padded past the .gltf's size, so that a limit between the two reaches the buffer.)
    let gltf = std::fs::metadata(dir.join("m.gltf")).unwrap().len();
    let mut bin = std::fs::read(dir.join("m.bin")).unwrap();
    bin.resize(gltf as usize + 100, 0);
    std::fs::write(dir.join("m.bin"), &bin).unwrap();
    let limit = (gltf + 50).to_string();
    let r = import("m.gltf", &["--max-input-size", &limit]);
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert!(
        r.stderr.contains(&format!(
            "m.bin is larger than {limit} bytes ({} bytes); inlay refuses inputs past that size \
             (raise it with --max-input-size)",
            bin.len()
        )),
        "{}",
        r.stderr
    );
    // The .glb honours --max-input-size.
    let glb = std::fs::metadata(dir.join("m.glb")).unwrap().len();
    let limit = (glb - 1).to_string();
    let r = import("m.glb", &["--max-input-size", &limit]);
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert_eq!(
        r.stderr,
        format!(
            "error: m.glb is larger than {} bytes ({glb} bytes); inlay refuses inputs past that \
             size (raise it with --max-input-size)\n",
            glb - 1
        )
    );
    let r = import("m.glb", &["--max-input-size", &glb.to_string()]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let _ = std::fs::remove_dir_all(&dir);
}
