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

#[test]
fn find_export_and_diff_as_the_readme_shows() {
    let guard = workdir("loop");
    let w = guard.path().to_path_buf();
    ok(&inlay(
        &["frame", "--generate", "before", "--generate-draws", "30"],
        &w,
    ));
    ok(&inlay(
        &[
            "frame",
            "--generate",
            "after",
            "--generate-draws",
            "30",
            "--generate-patched",
        ],
        &w,
    ));

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
    let out = ok(&inlay(
        &["export", "before", "--output-dir", "meshes", "--jobs", "2"],
        &w,
    ));
    assert!(out.contains("0 failed"), "{out}");
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
}

#[test]
fn bad_draws_never_stop_the_batch() {
    let guard = workdir("bad");
    let w = guard.path().to_path_buf();
    ok(&inlay(
        &[
            "frame",
            "--generate",
            "fa",
            "--generate-draws",
            "12",
            "--generate-storage",
            "copies",
        ],
        &w,
    ));
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
}

#[test]
fn view_lists_the_draws_and_opens_one() {
    use std::io::{BufRead, Read, Write};
    let guard = workdir("view");
    let w = guard.path().to_path_buf();
    ok(&inlay(
        &["frame", "--generate", "fa", "--generate-draws", "8"],
        &w,
    ));
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
