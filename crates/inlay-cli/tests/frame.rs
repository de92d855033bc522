//! `inlay frame`, `inlay export DIR`, `inlay diff` on generated frame-analysis folders, run
//! through the real binary as the README and `--help` show them.

use std::path::Path;
use std::process::{Command, Output};

fn inlay(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_inlay"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "status {:?}\nstdout: {}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A folder of its own for a test, removed with everything in it when the guard drops (also
/// when the test fails). Every frame here is a few hundred kB.
fn workdir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("inlay-cli-frame-{name}-"))
        .tempdir()
        .unwrap()
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap()
}

/// `inlay frame --generate DIR --generate-draws N` in `w`, with `extra` arguments.
fn generate(w: &Path, dir: &str, draws: u32, extra: &[&str]) {
    let draws = draws.to_string();
    let mut args = vec!["frame", "--generate", dir, "--generate-draws", &draws];
    args.extend_from_slice(extra);
    ok(&inlay(&args, w));
}

#[test]
fn find_export_and_diff_as_the_readme_shows() {
    let guard = workdir("loop");
    let w = guard.path().to_path_buf();
    generate(&w, "before", 30, &[]);
    generate(&w, "after", 30, &["--generate-patched"]);

    // Find: the draws with blend data, as JSON; the same through --select.
    let all = json(&ok(&inlay(&["frame", "before", "--json"], &w)));
    let draws = all["draws"].as_array().unwrap();
    assert_eq!(draws.len(), 32);
    let with_blend: Vec<&serde_json::Value> = draws
        .iter()
        .filter(|d| {
            d["layout"]
                .as_array()
                .is_some_and(|l| l.iter().any(|e| e["semantic"] == "BLENDINDICES"))
        })
        .collect();
    let sel = json(&ok(&inlay(
        &["frame", "before", "--has", "BLENDINDICES", "--json"],
        &w,
    )));
    assert_eq!(sel["draws"].as_array().unwrap().len(), with_blend.len());
    let sel2 = json(&ok(&inlay(
        &["frame", "before", "--select", "has=blendindices", "--json"],
        &w,
    )));
    assert_eq!(sel2["draws"], sel["draws"]);
    let vs = with_blend[0]["shaders"]["vs"].as_str().unwrap();
    let table = ok(&inlay(&["frame", "before", "--vs", vs], &w));
    assert!(
        table
            .lines()
            .any(|l| l.starts_with(with_blend[0]["draw"].as_str().unwrap())),
        "{table}"
    );
    let csv = ok(&inlay(&["frame", "before", "--csv", "--draws", "1-5"], &w));
    assert_eq!(
        csv.lines().next().unwrap(),
        "draw,call,index_count,vertex_count,instance_count,topology,vb,ib,vs,hs,ds,gs,ps,cs,strides,layout,problems"
    );
    assert_eq!(csv.lines().count(), 6);

    // Export: every draw with dumps; identical draws once; each file equals the one-draw export.
    let o = inlay(
        &["export", "before", "--output-dir", "meshes", "--jobs", "2"],
        &w,
    );
    let out = ok(&o);
    assert!(out.contains("0 failed"), "{out}");
    // A faithful frame exports without a warning (none is a false alarm).
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let manifest = json(&std::fs::read_to_string(w.join("meshes/export.json")).unwrap());
    let entries = manifest["draws"].as_array().unwrap();
    assert_eq!(entries.len(), 30);
    let written: Vec<&str> = entries.iter().filter_map(|e| e["file"].as_str()).collect();
    assert!(written.len() < 30 && !written.is_empty());
    for e in entries.iter().filter(|e| e["same_as"].is_string()) {
        assert!(written.contains(&e["same_as"].as_str().unwrap()));
    }
    let first = draws.iter().find(|d| d["draw"] == "000001").unwrap();
    let txt = first["vbs"][0]["txt"].as_str().unwrap();
    ok(&inlay(&["export", txt, "--output", "one.glb"], &w));
    assert_eq!(
        std::fs::read(w.join("one.glb")).unwrap(),
        std::fs::read(w.join("meshes/000001.glb")).unwrap()
    );

    // Diff: hashes paired by content, the changed layout with its plan, hash.json updated.
    let d = json(&ok(&inlay(&["diff", "before", "after", "--json"], &w)));
    let pairs = d["pairs"].as_array().unwrap();
    assert!(pairs.iter().any(|p| p["pairing"] == "matched by content"));
    let changed = pairs
        .iter()
        .find(|p| p["elements"].as_array().is_some_and(|e| !e.is_empty()))
        .expect("a changed layout");
    assert_eq!(changed["elements"][0]["element"], "TEXCOORD0");
    assert_eq!(changed["elements"][0]["new"], "R16G16_FLOAT");
    assert_eq!(changed["repack"]["lossless"], false);
    let old_vb = with_blend[0]["vbs"][0]["hash"]
        .as_str()
        .unwrap()
        .to_string();
    let old_ib = with_blend[0]["ib"]["hash"].as_str().unwrap().to_string();
    let hash_json = format!(
        "[\n    {{\n        \"component_name\": \"Body\",\n        \"draw_vb\": \"{old_vb}\",\n        \"ib\": \"{old_ib}\",\n        \"object_indexes\": [0],\n        \"texture_hashes\": [[[\"Diffuse\", \".dds\", \"705caac9\"]]]\n    }}\n]\n"
    );
    std::fs::write(w.join("hash.json"), &hash_json).unwrap();
    let text = ok(&inlay(
        &["diff", "before", "after", "--fix-hashes", "hash.json"],
        &w,
    ));
    assert!(
        text.contains("2 hashes replaced, 1 left without a pair"),
        "{text}"
    );
    let after = json(&ok(&inlay(
        &[
            "frame",
            "after",
            "--draws",
            with_blend[0]["number"].to_string().as_str(),
            "--json",
        ],
        &w,
    )));
    let new_vb = after["draws"][0]["vbs"][0]["hash"].as_str().unwrap();
    let new_ib = after["draws"][0]["ib"]["hash"].as_str().unwrap();
    assert_eq!(
        std::fs::read_to_string(w.join("hash.json")).unwrap(),
        hash_json.replace(&old_vb, new_vb).replace(&old_ib, new_ib)
    );

    // Two dumps: draw 1 before and after the patch (a one-slot mesh whose TEXCOORD changed).
    let dump = |dir: &str| {
        let j = json(&ok(&inlay(&["frame", dir, "--draws", "1", "--json"], &w)));
        j["draws"][0]["vbs"][0]["txt"].as_str().unwrap().to_string()
    };
    let (a, b) = (dump("before"), dump("after"));
    let d = json(&ok(&inlay(&["diff", &a, &b, "--json"], &w)));
    let p = &d["pairs"][0];
    assert_eq!(d["pairs"].as_array().unwrap().len(), 1);
    assert_eq!(p["pairing"], "same counts");
    let old_hash = a.split("vb0=").nth(1).unwrap()[..8].to_string();
    let new_hash = b.split("vb0=").nth(1).unwrap()[..8].to_string();
    assert_eq!(p["hashes"][0]["what"], "vb0");
    assert_eq!(p["hashes"][0]["old"], old_hash.as_str());
    assert_eq!(p["hashes"][0]["new"], new_hash.as_str());
    assert_eq!(d["hash_pairs"][0], serde_json::json!([old_hash, new_hash]));
    assert_eq!(
        p["elements"],
        serde_json::json!([{"change": "format", "element": "TEXCOORD0",
            "old": "R32G32_FLOAT", "new": "R16G16_FLOAT"}])
    );
    assert_eq!(p["repack"]["lossless"], false);
    let text = ok(&inlay(&["diff", &a, &b], &w));
    assert!(
        text.contains(&format!("vb0 hash {old_hash} -> {new_hash}"))
            && text.contains("~ TEXCOORD0 format R32G32_FLOAT -> R16G16_FLOAT")
            && text.contains("TEXCOORD0: R32G32_FLOAT -> R16G16_FLOAT, lossy"),
        "{text}"
    );

    // Two layout files: element by element, with the repack plan.
    let layout = |fmt: &str, extra: &str| {
        format!(
            "const D3D11_INPUT_ELEMENT_DESC layout[] = {{\n\
             {{ \"POSITION\", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 }},\n\
             {{ \"TEXCOORD\", 0, DXGI_FORMAT_{fmt}, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0 }},\n{extra}}};\n"
        )
    };
    std::fs::write(w.join("old.h"), layout("R16G16_FLOAT", "")).unwrap();
    std::fs::write(
        w.join("new.h"),
        layout(
            "R32G32_FLOAT",
            "{ \"COLOR\", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 20, D3D11_INPUT_PER_VERTEX_DATA, 0 },\n",
        ),
    )
    .unwrap();
    let d = json(&ok(&inlay(&["diff", "old.h", "new.h", "--json"], &w)));
    let p = &d["pairs"][0];
    assert_eq!(
        p["elements"],
        serde_json::json!([
            {"change": "format", "element": "TEXCOORD0", "old": "R16G16_FLOAT", "new": "R32G32_FLOAT"},
            {"change": "added", "element": "COLOR0"}
        ])
    );
    assert!(
        p["repack"]["impossible"]
            .as_str()
            .is_some_and(|m| m.contains("COLOR")),
        "{p}"
    );
    assert_eq!(p["pairing"], "compared as given");
    assert_eq!(p["repack"]["lossless"], false);
    // Without COLOR the plan is a conversion that loses nothing (16-bit to 32-bit floats).
    let d = json(&ok(&inlay(&["diff", "old.h", "old.h", "--json"], &w)));
    assert_eq!(d["pairs"][0]["same"], true);
    std::fs::write(w.join("new.h"), layout("R32G32_FLOAT", "")).unwrap();
    let d = json(&ok(&inlay(&["diff", "old.h", "new.h", "--json"], &w)));
    let r = &d["pairs"][0]["repack"];
    assert_eq!(r["lossless"], true, "{r}");
    assert_eq!(r["elements"][1]["from"], "R16G16_FLOAT");
    assert_eq!(r["elements"][1]["to"], "R32G32_FLOAT");
}

#[test]
fn bad_draws_never_stop_the_batch() {
    let guard = workdir("bad");
    let w = guard.path().to_path_buf();
    generate(&w, "fa", 12, &["--generate-storage", "copies"]);
    let fa = w.join("fa");
    let names: Vec<String> = std::fs::read_dir(&fa)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    // Draw 2: its vb0 text dump is missing; draw 3: its ib text dump is garbage.
    let vb2 = names
        .iter()
        .find(|n| n.starts_with("000002-vb0=") && n.ends_with(".txt"))
        .unwrap();
    std::fs::remove_file(fa.join(vb2)).unwrap();
    let ib3 = names
        .iter()
        .find(|n| n.starts_with("000003-vb0=") && n.ends_with(".txt"))
        .unwrap();
    std::fs::write(fa.join(ib3), "stride: banana\n").unwrap();
    // A symbolic-link loop and a name that does not parse.
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        "000099-vb0=12345678-vs=1-ps=2.txt",
        fa.join("000099-vb0=12345678-vs=1-ps=2.txt"),
    )
    .unwrap();
    std::fs::write(fa.join("0042-vb0=zz.txt"), "x").unwrap();
    // The log cut short in the middle of a line.
    let log = std::fs::read(fa.join("log.txt")).unwrap();
    std::fs::write(fa.join("log.txt"), &log[..log.len() * 9 / 10]).unwrap();

    let o = inlay(&["export", "fa", "--output-dir", "out"], &w);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("symbolic-link loop"), "{err}");
    assert!(
        err.contains("0042-vb0=zz.txt: not a 3DMigoto frame-analysis name"),
        "{err}"
    );
    assert!(
        err.contains("log.txt:") && err.contains("cut short"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{ib3}:1: stride must be a number")),
        "{err}"
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("2 failed"), "{stdout}");
    // Draw 2 lost its vb0 text: it is still listed, with the problem, and its other slots.
    let j = json(&ok(&inlay(&["frame", "fa", "--draws", "2", "--json"], &w)));
    assert_eq!(j["draws"].as_array().unwrap().len(), 1);

    // The generator takes 3DMigoto's analyse_options words, and names a word it does not know.
    let args = [
        "frame",
        "--generate",
        "ib",
        "--generate-analyse",
        "dump_ib,txt",
        "--generate-draws",
        "4",
    ];
    ok(&inlay(&args, &w));
    assert!(std::fs::read_dir(w.join("ib")).unwrap().all(|e| {
        let n = e.unwrap().file_name().into_string().unwrap();
        !n.contains("-vb0=") && !n.ends_with(".buf")
    }));
    let o = inlay(
        &[
            "frame",
            "--generate",
            "x",
            "--generate-analyse",
            "dump_vb dump_xx",
        ],
        &w,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("analyse option \"dump_xx\""));
}

/// Files of `dir`, name → bytes.
fn files_in(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// A bulk export over an earlier one (the re-export after a patch): without `--force` every
/// draw is refused and the old files stay; with it every file — the `.gltf` and its `.bin`
/// too — holds exactly what an export into an empty folder writes, and nothing else is left
/// (no `.part`). The old file is removed only once the new one is complete, so that ext4
/// does not write the new one out at the rename.
#[test]
fn force_replaces_an_earlier_export_file_for_file() {
    let guard = workdir("force");
    let w = guard.path().to_path_buf();
    generate(&w, "fa", 6, &[]);
    // Four jobs: whatever order they reach a set of identical draws in, the set's file is
    // its first draw's (the others name it), so every run writes the same files.
    for format in ["glb", "gltf"] {
        let fresh = format!("fresh-{format}");
        // The same export (4 jobs) into `dir`, with `--force` or without.
        let export = |dir: &str, force: bool| {
            let mut args = vec![
                "export",
                "fa",
                "--output-dir",
                dir,
                "--format",
                format,
                "--jobs",
                "4",
            ];
            if force {
                args.push("--force");
            }
            inlay(&args, &w)
        };
        ok(&export(&fresh, false));
        let want = files_in(&w.join(&fresh));
        assert!(want.len() >= 3, "{:?}", want.keys());
        // The same names holding other bytes.
        let old = format!("old-{format}");
        std::fs::create_dir(w.join(&old)).unwrap();
        for name in want.keys() {
            std::fs::write(w.join(&old).join(name), b"an earlier export").unwrap();
        }
        let o = export(&old, false);
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("exists (replace with --force)"));
        // The meshes are kept (the batch's report, export.json, is always new; a draw
        // identical to a refused one now gets its own file).
        let kept = files_in(&w.join(&old));
        for name in want.keys().filter(|n| *n != "export.json") {
            assert_eq!(kept[name], b"an earlier export", "{name}");
        }
        ok(&export(&old, true));
        let now = files_in(&w.join(&old));
        for (name, bytes) in want.iter().filter(|(n, _)| *n != "export.json") {
            assert_eq!(&now[name], bytes, "{format}: {name}");
        }
        assert!(
            !now.keys().any(|n| n.ends_with(".part")),
            "{:?}",
            now.keys()
        );
    }
}

/// `inlay` run with a deadline: a reader that opened a named pipe would wait for a writer
/// forever, so the test fails instead of hanging.
#[cfg(unix)]
fn inlay_within(args: &[&str], cwd: &Path, secs: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inlay"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() >= secs {
            child.kill().unwrap();
            panic!("inlay {args:?} still running after {secs} s (a reader opened a pipe?)");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn named_pipes_in_a_frame_are_skipped_never_opened() {
    let guard = workdir("fifo");
    let w = guard.path().to_path_buf();
    generate(&w, "fa", 6, &["--generate-storage", "copies"]);
    let fa = w.join("fa");
    let mkfifo = |p: &Path| {
        let _ = std::fs::remove_file(p);
        assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
    };
    // The main log, draw 2's vb0 text dump (its .buf stays), and a link to that pipe under a
    // draw name of its own: each would block a reader that opened it.
    let vb2 = std::fs::read_dir(&fa)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("000002-vb0=") && n.ends_with(".txt"))
        .unwrap();
    mkfifo(&fa.join("log.txt"));
    mkfifo(&fa.join(&vb2));
    std::os::unix::fs::symlink(&vb2, fa.join("000042-vb0=0badf00d-vs=1-ps=2.txt")).unwrap();

    let o = inlay_within(&["export", "fa", "--output-dir", "out"], &w, 60);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("log.txt: a named pipe (FIFO), not a file (never opened); skipped"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{vb2}: a named pipe (FIFO), not a file (never opened); skipped"
        )),
        "{err}"
    );
    assert!(
        err.contains(
            "000042-vb0=0badf00d-vs=1-ps=2.txt: a symbolic link to a named pipe (FIFO), \
             not a file (never opened); skipped"
        ),
        "{err}"
    );
    // The other draws are exported; draw 2 fails for its missing vb0 text, the batch goes on.
    assert_eq!(o.status.code(), Some(1), "{err}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains(" 1 failed"), "{stdout}\n{err}");
    assert!(
        err.contains("draw 000002: 000002: vb0 has only a binary dump"),
        "{err}"
    );

    // The pipe given as a dump itself: refused by type, nothing opened.
    let o = inlay_within(
        &["export", &format!("fa/{vb2}"), "--output", "one.glb"],
        &w,
        60,
    );
    // Exit 2, as for any input that cannot be read.
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "{vb2}: refusing to read: it is a named pipe (FIFO), not a file"
        )),
        "{err}"
    );
}

#[test]
fn view_lists_the_draws_and_opens_one() {
    use std::io::{BufRead, Read, Write};
    let guard = workdir("view");
    let w = guard.path().to_path_buf();
    generate(&w, "fa", 8, &[]);
    let out = ok(&inlay(&["view", "fa", "--output", "list.html"], &w));
    assert!(out.starts_with("wrote list.html: 9 draws"), "{out}");
    let html = std::fs::read_to_string(w.join("list.html")).unwrap();
    assert!(html.contains("\"draw\":\"000001\"") && html.contains("\"served\":false"));
    // Served: the list at /, a draw's page at /draw/ID.
    let mut child = Command::new(env!("CARGO_BIN_EXE_inlay"))
        .args(["view", "fa"])
        .current_dir(&w)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let get = |path: &str| {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut r = String::new();
        s.read_to_string(&mut r).unwrap();
        r
    };
    let list = get("/");
    assert!(
        list.starts_with("HTTP/1.1 200") && list.contains("\"served\":true"),
        "{}",
        &list[..200.min(list.len())]
    );
    let draw = get("/draw/000001");
    assert!(
        draw.starts_with("HTTP/1.1 200") && draw.contains("000001 DrawIndexed("),
        "{}",
        &draw[..300.min(draw.len())]
    );
    let missing = get("/draw/999999");
    assert!(missing.starts_with("HTTP/1.1 422") && missing.contains("no draw 999999"));
    child.kill().unwrap();
    let _ = child.wait();
}

#[path = "../../inlay/testenv/test_side.rs"]
mod testenv;

/// One version of a small GIMI-style mod: Position (40 bytes), Blend (32), Texcoord (12, or
/// 20 with TEXCOORD1) split buffers of 4 vertices, a 32-bit index buffer and two parts drawn
/// with `drawindexed`, the second `b_count` indices long.
fn write_small_mod(d: &Path, position_hash: &str, texcoord_stride: usize, b_count: u32) {
    std::fs::create_dir_all(d).unwrap();
    let f32s = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let (mut p, mut b, mut t) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..4 {
        let x = i as f32;
        p.extend(f32s(&[x, 2.0 * x, -x, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0]));
        b.extend(f32s(&[1.0, 0.0, 0.0, 0.0]));
        b.extend([i as u8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        t.extend([10 * i as u8, 20, 30, 255]);
        t.extend(f32s(&[x / 4.0, 1.0 - x / 4.0]));
        if texcoord_stride == 20 {
            t.extend(f32s(&[0.5, 0.5]));
        }
    }
    let ib: Vec<u8> = [0u32, 1, 2, 2, 1, 3, 0, 2, 3, 3, 2, 1]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(d.join("BodyPosition.buf"), p).unwrap();
    std::fs::write(d.join("BodyBlend.buf"), b).unwrap();
    std::fs::write(d.join("BodyTexcoord.buf"), t).unwrap();
    std::fs::write(d.join("Body.ib"), ib).unwrap();
    let ini = format!(
        "[TextureOverrideBodyPosition]\nhash = {position_hash}\nvb0 = ResourceBodyPosition\n\n\
         [TextureOverrideBodyBlend]\nhash = 22222222\nvb1 = ResourceBodyBlend\n\n\
         [TextureOverrideBodyTexcoord]\nhash = 33333333\nvb1 = ResourceBodyTexcoord\n\n\
         [TextureOverrideBodyIB]\nhash = 55555555\nhandling = skip\n\n\
         [TextureOverrideBodyA]\nhash = 55555555\nmatch_first_index = 0\nib = ResourceBodyIB\ndrawindexed = 6, 0, 0\n\n\
         [TextureOverrideBodyB]\nhash = 55555555\nmatch_first_index = 6\nib = ResourceBodyIB\ndrawindexed = {b_count}, 6, 0\n\n\
         [ResourceBodyPosition]\ntype = Buffer\nstride = 40\nfilename = BodyPosition.buf\n\n\
         [ResourceBodyBlend]\ntype = Buffer\nstride = 32\nfilename = BodyBlend.buf\n\n\
         [ResourceBodyTexcoord]\ntype = Buffer\nstride = {texcoord_stride}\nfilename = BodyTexcoord.buf\n\n\
         [ResourceBodyIB]\ntype = Buffer\nformat = DXGI_FORMAT_R32_UINT\nfilename = Body.ib\n"
    );
    std::fs::write(d.join("Body.ini"), ini).unwrap();
}

#[test]
fn diff_of_two_mods_names_hash_stride_and_count_changes() {
    let guard = workdir("mods");
    let w = guard.path().to_path_buf();
    write_small_mod(&w.join("v1"), "11111111", 12, 3);
    write_small_mod(&w.join("v2"), "0badf00d", 20, 6);
    // A folder with one INI is a mod, as is the INI itself.
    let text = ok(&inlay(&["diff", "v1", "v2"], &w));
    assert_eq!(
        text,
        "\
TextureOverrideBodyA -> TextureOverrideBodyA (same section)
  vb0 (Position) hash 11111111 -> 0badf00d
  + TEXCOORD1
  vb1 (Texcoord) stride 12 -> 20
  repack: impossible: element TEXCOORD1 (R32G32_FLOAT) of the output layout has no matching element in the input layout; give a default for it
TextureOverrideBodyB -> TextureOverrideBodyB (same section)
  vb0 (Position) hash 11111111 -> 0badf00d
  + TEXCOORD1
  vb1 (Texcoord) stride 12 -> 20
  index count 3 -> 6
  repack: impossible: element TEXCOORD1 (R32G32_FLOAT) of the output layout has no matching element in the input layout; give a default for it
2 paired (0 unchanged), 0 only in A, 0 only in B
"
    );
    assert_eq!(
        text,
        ok(&inlay(&["diff", "v1/Body.ini", "v2/Body.ini"], &w))
    );
    let d = json(&ok(&inlay(&["diff", "v1", "v2", "--json"], &w)));
    assert_eq!(
        d["hash_pairs"],
        serde_json::json!([["11111111", "0badf00d"]])
    );
    assert_eq!(
        d["pairs"][1]["counts"],
        serde_json::json!([{"what": "index count", "old": "3", "new": "6"}])
    );
    assert_eq!(
        d["pairs"][1]["strides"],
        serde_json::json!([{"slot": 2, "name": "vb1 (Texcoord)", "old": 12, "new": 20}])
    );
    // Back from v2 to v1: TEXCOORD1 dropped, the rest copied exactly.
    let text = ok(&inlay(&["diff", "v2", "v1"], &w));
    assert_eq!(
        text,
        "\
TextureOverrideBodyA -> TextureOverrideBodyA (same section)
  vb0 (Position) hash 0badf00d -> 11111111
  - TEXCOORD1
  vb1 (Texcoord) stride 20 -> 12
  repack old -> new (loses information):
    POSITION0: R32G32B32_FLOAT -> R32G32B32_FLOAT, exact
    NORMAL0: R32G32B32_FLOAT -> R32G32B32_FLOAT, exact
    TANGENT0: R32G32B32A32_FLOAT -> R32G32B32A32_FLOAT, exact
    BLENDWEIGHT0: R32G32B32A32_FLOAT -> R32G32B32A32_FLOAT, exact
    BLENDINDICES0: R32G32B32A32_SINT -> R32G32B32A32_SINT, exact
    COLOR0: R8G8B8A8_UNORM -> R8G8B8A8_UNORM, exact
    TEXCOORD0: R32G32_FLOAT -> R32G32_FLOAT, exact
    TEXCOORD1: dropped
TextureOverrideBodyB -> TextureOverrideBodyB (same section)
  vb0 (Position) hash 0badf00d -> 11111111
  - TEXCOORD1
  vb1 (Texcoord) stride 20 -> 12
  index count 6 -> 3
  repack old -> new (loses information):
    POSITION0: R32G32B32_FLOAT -> R32G32B32_FLOAT, exact
    NORMAL0: R32G32B32_FLOAT -> R32G32B32_FLOAT, exact
    TANGENT0: R32G32B32A32_FLOAT -> R32G32B32A32_FLOAT, exact
    BLENDWEIGHT0: R32G32B32A32_FLOAT -> R32G32B32A32_FLOAT, exact
    BLENDINDICES0: R32G32B32A32_SINT -> R32G32B32A32_SINT, exact
    COLOR0: R8G8B8A8_UNORM -> R8G8B8A8_UNORM, exact
    TEXCOORD0: R32G32_FLOAT -> R32G32_FLOAT, exact
    TEXCOORD1: dropped
2 paired (0 unchanged), 0 only in A, 0 only in B
"
    );
    // The old mod's hash.json brought to the new hashes.
    std::fs::write(
        w.join("hash.json"),
        "[\n  {\"component_name\": \"Body\", \"position_vb\": \"11111111\", \"blend_vb\": \"22222222\", \"ib\": \"55555555\"}\n]\n",
    )
    .unwrap();
    let text = ok(&inlay(
        &[
            "diff",
            "v1",
            "v2",
            "--fix-hashes",
            "hash.json",
            "--output",
            "new.json",
        ],
        &w,
    ));
    assert!(
        text.ends_with("wrote new.json: 1 hashes replaced, 2 left without a pair\n"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(w.join("new.json")).unwrap(),
        "[\n  {\"component_name\": \"Body\", \"position_vb\": \"0badf00d\", \"blend_vb\": \"22222222\", \"ib\": \"55555555\"}\n]\n"
    );
    // A folder with two INIs is named, not guessed.
    std::fs::write(w.join("v2/Other.ini"), "").unwrap();
    let o = inlay(&["diff", "v1", "v2"], &w);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("several mod INI files (Body.ini, Other.ini)"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
#[cfg_attr(
    not(inlay_has_dumps),
    ignore = "needs the shared dumps: ../shared/dumps or $INLAY_SHARED"
)]
fn diff_of_mona_and_an_edited_copy() {
    let src = testenv::dumps().join("SilentNightSound+GI-Model-Importer/Examples/MonaHatless");
    let guard = workdir("mona");
    let w = guard.path().to_path_buf();
    std::fs::create_dir_all(w.join("new")).unwrap();
    for f in [
        "MonaPosition.buf",
        "MonaBlend.buf",
        "MonaTexcoord.buf",
        "Mona.ib",
    ] {
        std::fs::copy(src.join(f), w.join("new").join(f)).unwrap();
    }
    // A patch that only re-hashes the index buffer: both parts matched by content.
    let ini = std::fs::read_to_string(src.join("Mona.ini")).unwrap();
    assert_eq!(ini.matches("hash = ef876207").count(), 3);
    let rehashed = ini.replace("hash = ef876207", "hash = 0badf00d");
    std::fs::write(w.join("new/Mona.ini"), &rehashed).unwrap();
    let old = src.join("Mona.ini");
    let old = old.to_str().unwrap();
    let text = ok(&inlay(&["diff", old, "new/Mona.ini"], &w));
    assert_eq!(
        text,
        "\
TextureOverrideMonaHead -> TextureOverrideMonaHead (matched by content)
  ib hash ef876207 -> 0badf00d
TextureOverrideMonaBody -> TextureOverrideMonaBody (matched by content)
  ib hash ef876207 -> 0badf00d
2 paired (0 unchanged), 0 only in A, 0 only in B
"
    );
    // The body also starting 6 indices later: the head's count, the body's range changed,
    // paired by their sections.
    let moved = rehashed.replace("match_first_index = 17688", "match_first_index = 17694");
    std::fs::write(w.join("new/Mona.ini"), moved).unwrap();
    let text = ok(&inlay(&["diff", old, "new"], &w));
    assert_eq!(
        text,
        "\
TextureOverrideMonaHead -> TextureOverrideMonaHead (same section)
  ib hash ef876207 -> 0badf00d
  index count 17688 -> 17694
TextureOverrideMonaBody -> TextureOverrideMonaBody (same section)
  ib hash ef876207 -> 0badf00d
  index count 35814 -> 35808
  first index 17688 -> 17694
2 paired (0 unchanged), 0 only in A, 0 only in B
"
    );
    let d = json(&ok(&inlay(&["diff", old, "new", "--json"], &w)));
    assert_eq!(
        d["hash_pairs"],
        serde_json::json!([["ef876207", "0badf00d"]])
    );
    assert_eq!(
        d["pairs"][1]["counts"],
        serde_json::json!([
            {"what": "index count", "old": "35814", "new": "35808"},
            {"what": "first index", "old": "17688", "new": "17694"}
        ])
    );
}
