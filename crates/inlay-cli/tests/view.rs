//! `inlay view` end to end: the page's embedded data against `inlay decode`'s output, the
//! local server, and (when Chromium, chromedriver and Python's selenium are there) the page in
//! headless Chromium through `tests/view_browser.py`.
//!
//! The browser test needs `INLAY_VIEW_PYTHON` (a Python with `selenium`; `.ci/run` installs
//! one in target/ci-tools/venv and runs it once with `-- --ignored`); the README's test command
//! lists it as ignored (docs/notes/tests.md).

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use base64::Engine as _;
use common::{inlay_in, scratch};

/// A layout with float, snorm, half and uint elements and a 6-vertex buffer whose values
/// cover decode's float formats (exponent forms, -0.0, large and small numbers).
fn write_draw(dir: &Path) {
    std::fs::write(
        dir.join("l.json"),
        r#"{"elements": [
 {"semantic": "POSITION", "format": "R32G32B32_FLOAT", "offset": 0},
 {"semantic": "NORMAL", "format": "R8G8B8A8_SNORM", "offset": 12},
 {"semantic": "TEXCOORD", "format": "R16G16_FLOAT", "offset": 16},
 {"semantic": "BLENDINDICES", "format": "R8G8B8A8_UINT", "offset": 20}
]}"#,
    )
    .unwrap();
    let pos: [[f32; 3]; 6] = [
        [0.0, 0.0, 0.0],
        [1.0, 0.1, -0.0],
        [0.0, 1.0, 1e-5],
        [3e16, -2.5, 123456.7],
        [0.3333333, 1e-4, 0.0001],
        [-7.0, 65504.0, 1.5e-45],
    ];
    let mut vb = Vec::new();
    for (i, p) in pos.iter().enumerate() {
        for c in p {
            vb.extend_from_slice(&c.to_le_bytes());
        }
        vb.extend_from_slice(&[0x81, 0x7f, 0x00, (i as u8) * 40]);
        vb.extend_from_slice(&[0x00, 0x3c, (i as u8) * 17, 0xbc]);
        vb.extend_from_slice(&[i as u8, 255, 0, 7]);
    }
    std::fs::write(dir.join("m.vb"), vb).unwrap();
}

/// A written page: its JSON data block and its HTML (which holds the array blocks).
struct Page {
    html: String,
    data: serde_json::Value,
}

impl Page {
    fn read(path: &Path) -> Page {
        Page::parse(std::fs::read_to_string(path).unwrap())
    }

    fn parse(html: String) -> Page {
        let start = html
            .find(r#"<script type="application/json" id="inlay-data">"#)
            .expect("data block");
        let rest = &html[start..];
        let body = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
        let data = serde_json::from_str(&body.replace("<\\/", "</")).expect("data is JSON");
        Page { html, data }
    }

    /// The bytes of an embedded array: its block's base64, inflated (raw DEFLATE), its
    /// `shuffle` byte planes put back into items and, with `delta`, each item's words summed
    /// with the previous item's.
    fn bytes(&self, r: &serde_json::Value) -> Vec<u8> {
        let id = r["block"].as_str().expect("an embedded array");
        let open = format!(r#"<script type="application/octet-stream" id="{id}">"#);
        let start = self.html.find(&open).expect("the array's block") + open.len();
        let len = self.html[start..].find("</script>").unwrap();
        let packed = base64::engine::general_purpose::STANDARD
            .decode(self.html[start..start + len].trim())
            .unwrap();
        let mut planes = Vec::new();
        flate2::read::DeflateDecoder::new(&packed[..])
            .read_to_end(&mut planes)
            .unwrap();
        assert_eq!(planes.len() as u64, r["length"].as_u64().unwrap());
        let w = r["shuffle"].as_u64().unwrap() as usize;
        let n = planes.len() / w;
        let mut out = vec![0u8; planes.len()];
        for (i, b) in planes.iter().enumerate().take(n * w) {
            out[(i % n) * w + i / n] = *b;
        }
        out[n * w..].copy_from_slice(&planes[n * w..]);
        if r["delta"] == true {
            assert_eq!(w % 4, 0, "delta-coded items are whole words");
            for at in (w..n * w).step_by(4) {
                let word =
                    |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
                let sum = word(&out, at).wrapping_add(word(&out, at - w));
                out[at..at + 4].copy_from_slice(&sum.to_le_bytes());
            }
        }
        out
    }

    fn u32s(&self, r: &serde_json::Value) -> Vec<u32> {
        self.bytes(r)
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }
}

/// The rows the page's table shows with every instance expanded — decode's columns
/// (position, vertex_id, element, instance_id, then each printed lane) — from the page's
/// stream, element numbers and register bits, printed the way `decode` documents: `uint` as
/// u32, `sint` as i32, everything else as the f32's `{:?}`; with `hex` the 8 hex digits.
fn page_rows(page: &Page, hex: bool) -> (Vec<String>, Vec<Vec<String>>) {
    let data = &page.data;
    let n = data["vertex_count"].as_u64().unwrap() as usize;
    let base = data["vertex_base"].as_u64().unwrap() as u32;
    let id_base = data["vertex_id_base"].as_u64().unwrap() as u32;
    let instances = data["instance_count"].as_u64().unwrap() as usize;
    let stream = if data["stream"] == "indices" {
        page.u32s(&data["indices"])
    } else {
        page.u32s(&data["stream"])
    };
    assert_eq!(stream.len() as u64, data["positions"].as_u64().unwrap());
    let elements =
        (!data["vertex_elements"].is_null()).then(|| page.u32s(&data["vertex_elements"]));
    let attrs = data["attributes"].as_array().unwrap();
    let mut header: Vec<String> = ["position", "vertex_id", "element", "instance_id"]
        .map(String::from)
        .to_vec();
    let mut cols = Vec::new();
    for a in attrs {
        let bits = page.u32s(&a["data"]);
        let lanes = a["lanes"].as_array().unwrap();
        let per_instance = a["per_instance"].as_bool().unwrap();
        let rows = if per_instance { instances } else { n };
        assert_eq!(bits.len(), rows * lanes.len(), "the format's lanes per row");
        for (j, l) in lanes.iter().enumerate() {
            let l = l.as_u64().unwrap() as usize;
            header.push(format!(
                "{}.{}",
                a["name"].as_str().unwrap(),
                ["x", "y", "z", "w"][l]
            ));
            cols.push((
                bits.clone(),
                j,
                lanes.len(),
                per_instance,
                a["kind"].as_str().unwrap().to_string(),
            ));
        }
    }
    let mut rows = Vec::new();
    for i in 0..instances {
        for (p, &v) in stream.iter().enumerate() {
            let v = v as usize;
            let element = elements.as_ref().map_or(base + v as u32, |e| e[v]);
            let mut r = vec![
                (i * stream.len() + p).to_string(),
                element.wrapping_sub(id_base).to_string(),
                element.to_string(),
                i.to_string(),
            ];
            for (bits, j, width, per_instance, kind) in &cols {
                let b = bits[if *per_instance { i } else { v } * width + j];
                r.push(if hex {
                    format!("{b:08x}")
                } else {
                    match kind.as_str() {
                        "uint" => b.to_string(),
                        "sint" => (b as i32).to_string(),
                        _ => format!("{:?}", f32::from_bits(b)),
                    }
                });
            }
            rows.push(r);
        }
    }
    (header, rows)
}

/// `inlay decode ARGS --format csv [--hex]` in `dir`: header and rows.
fn decode_rows(dir: &Path, args: &[&str], hex: bool) -> (Vec<String>, Vec<Vec<String>>) {
    let mut args: Vec<&str> = [&["decode"], args, &["--format", "csv"]].concat();
    if hex {
        args.push("--hex");
    }
    let r = inlay_in(dir, &args);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let mut lines = r.stdout.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (header, rows)
}

#[test]
fn page_table_rows_equal_decode() {
    let dir = scratch("view-rows");
    write_draw(&dir);
    let r = inlay_in(
        &dir,
        &[
            "view",
            "l.json",
            "--vb",
            "0=m.vb",
            "--topology",
            "triangle_list",
            "--output",
            "page.html",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(
        r.stdout, "wrote page.html: 6 vertices, 6 indices\n",
        "{}",
        r.transcript
    );
    let page = Page::read(&dir.join("page.html"));
    assert!(!page.html.contains("<script src"), "no external scripts");
    let data = &page.data;
    for hex in [false, true] {
        let (ph, prow) = page_rows(&page, hex);
        let (dh, drow) = decode_rows(
            &dir,
            &["l.json", "--vb", "0=m.vb", "--topology", "triangle_list"],
            hex,
        );
        assert_eq!(ph, dh, "column names");
        assert_eq!(prow, drow, "rows (hex: {hex})");
    }
    // Exact values the oracle (the buffer written above) says decode prints.
    let (_, rows) = page_rows(&page, false);
    assert_eq!(rows[3][4..7], ["3e16", "-2.5", "123456.7"]);
    assert_eq!(rows[2][6], "1e-5");
    assert_eq!(rows[1][6], "-0.0");
    assert_eq!(rows[5][6], "1e-45");
    assert_eq!(data["mode"], "triangles");
    assert_eq!(page.u32s(&data["indices"]), [0, 1, 2, 3, 4, 5]);
    assert_eq!(data["position"], 0);
    assert_eq!(data["result"], "result: S_OK (0x00000000): created");
    assert!(data["map_svg"].as_str().unwrap().starts_with("<svg"));
    assert!(data["map_text"].as_str().unwrap().contains("POSITION0"));
    // A second write refuses to replace the page without --force.
    let again = inlay_in(
        &dir,
        &["view", "l.json", "--vb", "0=m.vb", "--output", "page.html"],
    );
    assert_eq!(again.code, 2, "{}", again.transcript);
}

/// An indexed, instanced strip with a cut and a per-instance slot: the page's rows (every
/// instance expanded, one per vertex-stream position) equal `decode`'s, and the byte view
/// carries exactly the files' bytes of the records the draw reads.
#[test]
fn instanced_indexed_rows_and_bytes_equal_decode() {
    let dir = scratch("view-instanced");
    std::fs::write(
        dir.join("l.json"),
        r#"{"elements": [
 {"semantic": "POSITION", "format": "R32G32_FLOAT", "offset": 0},
 {"semantic": "COLOR", "format": "R8G8B8A8_UNORM", "slot": 1, "offset": 0, "class": "instance", "step_rate": 2}
]}"#,
    )
    .unwrap();
    let vb: Vec<u8> = (0..6u8)
        .flat_map(|i| [f32::from(i), f32::from(i) * 0.5])
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let ivb: Vec<u8> = (0..16u8).map(|b| b * 3).collect();
    std::fs::write(dir.join("v.vb"), &vb).unwrap();
    std::fs::write(dir.join("i.vb"), &ivb).unwrap();
    let ib: Vec<u8> = [1u16, 2, 3, 0xffff, 4]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    std::fs::write(dir.join("m.ib"), ib).unwrap();
    let draw = [
        "l.json",
        "--vb",
        "0=v.vb",
        "--vb",
        "1=i.vb",
        "--ib",
        "m.ib,format=R16_UINT",
        "--topology",
        "triangle_strip",
        "--draw",
        "draw_indexed_instanced,index_count_per_instance=5,instance_count=3,base_vertex=1,start_instance=1",
    ];
    let r = inlay_in(
        &dir,
        &[&["view"], &draw[..], &["--output", "p.html"]].concat(),
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let page = Page::read(&dir.join("p.html"));
    for hex in [false, true] {
        let (ph, prow) = page_rows(&page, hex);
        let (dh, drow) = decode_rows(&dir, &draw, hex);
        assert_eq!(ph, dh, "column names");
        assert_eq!(prow, drow, "rows (hex: {hex})");
    }
    // Hand-worked oracle: the cut takes no position, so 4 positions per instance read
    // elements 1+1..1+4; instance i reads colour record 1 + i / 2.
    let d = &page.data;
    assert_eq!(page.u32s(&d["stream"]), [0, 1, 2, 3]);
    assert_eq!(
        (d["vertex_base"].as_u64(), d["vertex_id_base"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(d["instance_count"], 3);
    let (_, rows) = page_rows(&page, false);
    assert_eq!(rows.len(), 12);
    assert_eq!(rows[9][..6], ["9", "2", "3", "2", "3.0", "1.5"]);
    let slots = d["slots"].as_array().unwrap();
    assert_eq!(slots.len(), 2);
    assert_eq!(slots[0]["first"], 2);
    assert_eq!(slots[0]["count"], 4);
    assert_eq!(page.bytes(&slots[0]["bytes"]), vb[16..48]);
    assert_eq!(slots[1]["instance_elements"], serde_json::json!([1, 1, 2]));
    assert_eq!(slots[1]["per_instance"], true);
    assert_eq!(page.bytes(&slots[1]["bytes"]), ivb[4..12]);
}

#[test]
fn strip_cuts_split_primitives() {
    let dir = scratch("view-strip");
    write_draw(&dir);
    // Strip 0 1 2 3, cut, 4 5 (too short) — two triangles from the first strip only.
    let ib: Vec<u8> = [0u16, 1, 2, 3, 0xffff, 4, 5]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    std::fs::write(dir.join("m.ib"), ib).unwrap();
    let r = inlay_in(
        &dir,
        &[
            "view",
            "l.json",
            "--vb",
            "0=m.vb",
            "--ib",
            "m.ib,format=R16_UINT",
            "--topology",
            "triangle_strip",
            "--output",
            "strip.html",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let page = Page::read(&dir.join("strip.html"));
    let idx = page.u32s(&page.data["indices"]);
    assert_eq!(idx.len(), 6, "two triangles: {idx:?}");
}

/// Issue 37: `inlay view --api d3d12` takes the pipeline's strip cut: disabled (the
/// default), index 0xFFFF is a vertex (out of bounds here: zeros) and the strip of seven
/// vertices has five triangles; `--strip-cut 0xffff` cuts as D3D11 does. The page's indices
/// are its rows, the draw's vertices in element order (0 1 2 3 4 5, then 0xFFFF as row 6):
/// the strip reads rows 0 1 2 3 6 4 5, triangle k = positions k, k+1, k+2 (odd: k, k+2, k+1).
#[test]
fn d3d12_pipeline_strip_cut() {
    let dir = scratch("view-d3d12-strip");
    write_draw(&dir);
    let ib: Vec<u8> = [0u16, 1, 2, 3, 0xffff, 4, 5]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    std::fs::write(dir.join("m.ib"), ib).unwrap();
    let indices = |extra: &[&str], name: &str| {
        let mut args = vec![
            "view",
            "l.json",
            "--vb",
            "0=m.vb",
            "--ib",
            "m.ib,format=R16_UINT",
            "--topology",
            "triangle_strip",
            "--api",
            "d3d12",
            "--output",
            name,
        ];
        args.extend_from_slice(extra);
        let r = inlay_in(&dir, &args);
        assert_eq!(r.code, 0, "{}", r.transcript);
        let page = Page::read(&dir.join(name));
        page.u32s(&page.data["indices"])
    };
    let whole = [0, 1, 2, 1, 3, 2, 2, 3, 6, 3, 4, 6, 6, 4, 5];
    assert_eq!(indices(&[], "default.html"), whole);
    assert_eq!(indices(&["--strip-cut", "0xffffffff"], "cut32.html"), whole);
    assert_eq!(
        indices(&["--strip-cut", "0xffff"], "cut16.html"),
        [0, 1, 2, 1, 3, 2]
    );
}

#[test]
fn serves_the_same_page() {
    let dir = scratch("view-serve");
    write_draw(&dir);
    let file = inlay_in(
        &dir,
        &["view", "l.json", "--vb", "0=m.vb", "--output", "p.html"],
    );
    assert_eq!(file.code, 0, "{}", file.transcript);
    let mut child = Command::new(env!("CARGO_BIN_EXE_inlay"))
        .args(["view", "l.json", "--vb", "0=m.vb"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut line = Vec::new();
    let mut b = [0u8; 1];
    while out.read(&mut b).unwrap() == 1 && b[0] != b'\n' {
        line.push(b[0]);
    }
    let line = String::from_utf8(line).unwrap();
    let addr = line
        .strip_prefix("serving http://")
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    let get_with = |path: &str, headers: &str| {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}\r\n").unwrap();
        let mut resp = Vec::new();
        s.read_to_end(&mut resp).unwrap();
        let split = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let body = resp.split_off(split + 4);
        (String::from_utf8(resp).unwrap(), body)
    };
    let get = |path: &str| get_with(path, "");
    let (head, page) = get("/");
    let (bin_head, blob) = get("/data.bin");
    // The page fetches each array as a range of the blob.
    let (range_head, range) = get_with("/data.bin", "Range: bytes=4-11\r\n");
    let (open_head, open_range) = get_with("/data.bin", "range: bytes=8-\r\n");
    let (missing, _) = get("/nothing");
    // Issue 34 item 5: a page whose own name was rebound to 127.0.0.1 (DNS rebinding) sends
    // its own Host; a cross-site fetch sends its Origin. Neither reads the draw.
    let raw = |head: &str| {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(s, "{head}\r\n").unwrap();
        let mut resp = Vec::new();
        s.read_to_end(&mut resp).unwrap();
        String::from_utf8_lossy(&resp).into_owned()
    };
    let port = addr.rsplit(':').next().unwrap().to_string();
    let rebound = raw(&format!(
        "GET /data.bin HTTP/1.1\r\nHost: rebind.example:{port}\r\n"
    ));
    let cross = raw(&format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://rebind.example:{port}\r\n"
    ));
    let local = raw(&format!("HEAD / HTTP/1.1\r\nHost: localhost:{port}\r\n"));
    let _ = child.kill();
    let _ = child.wait();
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    assert!(bin_head.starts_with("HTTP/1.1 200 OK\r\n"), "{bin_head}");
    assert!(
        range_head.starts_with("HTTP/1.1 206 Partial Content\r\n"),
        "{range_head}"
    );
    assert!(
        range_head.contains(&format!("Content-Range: bytes 4-11/{}\r\n", blob.len())),
        "{range_head}"
    );
    assert_eq!(range, blob[4..12]);
    assert!(open_head.starts_with("HTTP/1.1 206"), "{open_head}");
    assert_eq!(open_range, blob[8..]);
    // The served page fetches its arrays from /data.bin; they equal the written page's.
    let served = Page::parse(String::from_utf8(page).unwrap()).data;
    let file = Page::read(&dir.join("p.html"));
    assert_eq!(served["blob"], "data.bin");
    let slice = |r: &serde_json::Value| -> Vec<u32> {
        let (o, l) = (
            r["offset"].as_u64().unwrap() as usize,
            r["length"].as_u64().unwrap() as usize,
        );
        blob[o..o + l]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let (sa, fa) = (
        served["attributes"].as_array().unwrap(),
        file.data["attributes"].as_array().unwrap(),
    );
    assert_eq!(sa.len(), fa.len());
    for (s, f) in sa.iter().zip(fa) {
        assert_eq!(slice(&s["data"]), file.u32s(&f["data"]));
        assert_eq!(s["name"], f["name"]);
    }
    assert_eq!(slice(&served["indices"]), file.u32s(&file.data["indices"]));
    assert_eq!(served["map_svg"], file.data["map_svg"]);
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    assert!(
        rebound.starts_with("HTTP/1.1 403 Forbidden\r\n"),
        "{rebound}"
    );
    assert!(cross.starts_with("HTTP/1.1 403 Forbidden\r\n"), "{cross}");
    assert!(local.starts_with("HTTP/1.1 200 OK\r\n"), "{local}");
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(name))
            .find(|f| f.is_file())
    })
}

/// Heavy and tool-bound, so it runs once, on its own: `.ci/run` installs Chromium,
/// chromedriver and selenium and runs `cargo test --release -p inlay-cli --test view
/// page_in_headless_chromium -- --ignored`; the README's test command lists it as ignored.
/// Run that way, a missing tool is a failure.
#[test]
#[ignore = "browser test: run by .ci/run (`-- --ignored` with INLAY_VIEW_PYTHON, Chromium, chromedriver)"]
fn page_in_headless_chromium() {
    let python = std::env::var_os("INLAY_VIEW_PYTHON").map(PathBuf::from);
    let chromium = which("chromium").or_else(|| which("chromium-browser"));
    let driver = which("chromedriver");
    let missing = match (&python, &chromium, &driver) {
        (None, _, _) => Some("INLAY_VIEW_PYTHON (a Python with selenium) is not set"),
        (_, None, _) => Some("chromium is not installed"),
        (_, _, None) => Some("chromedriver is not installed"),
        _ => None,
    };
    if let Some(why) = missing {
        panic!("the browser test cannot run: {why} (.ci/run installs them)");
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/view_browser.py");
    let mut cmd = Command::new(python.unwrap());
    cmd.arg(script)
        .arg("--inlay")
        .arg(env!("CARGO_BIN_EXE_inlay"))
        .env("CHROMIUM", chromium.unwrap())
        .env("CHROMEDRIVER", driver.unwrap());
    if let Some(shot) = std::env::var_os("INLAY_VIEW_SCREENSHOT") {
        cmd.arg("--screenshot").arg(shot);
    }
    let out = cmd.output().expect("run python");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(out.status.success(), "browser test failed:\n{text}");
}

/// Issue 34 item 4: a semantic name `<!--<script>` in the data (and in the file name, the
/// page's title) made an HTML parser take the data block for an escaped script that swallowed
/// the page's own script. The written page has the same elements, parsed by html5ever (what
/// browsers implement), as a page of plain names, and its data reads back the name.
#[test]
fn a_hostile_name_leaves_the_written_page_whole() {
    let dir = scratch("view-names");
    write_draw(&dir);
    let plain = inlay_in(
        &dir,
        &["view", "l.json", "--vb", "0=m.vb", "--output", "plain.html"],
    );
    assert_eq!(plain.code, 0, "{}", plain.transcript);
    let hostile = "<!--<script>";
    let l = std::fs::read_to_string(dir.join("l.json")).unwrap();
    let file = format!("{hostile}.json");
    std::fs::write(
        dir.join(&file),
        l.replace("\"NORMAL\"", &format!("{hostile:?}")),
    )
    .unwrap();
    let r = inlay_in(
        &dir,
        &["view", &file, "--vb", "0=m.vb", "--output", "hostile.html"],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let elements = |name: &str| -> Vec<(String, String)> {
        let html = std::fs::read_to_string(dir.join(name)).unwrap();
        let doc = scraper::Html::parse_document(&html);
        doc.root_element()
            .descendants()
            .filter_map(scraper::ElementRef::wrap)
            .map(|e| {
                let v = e.value();
                (v.name().to_string(), v.attr("id").unwrap_or("").to_string())
            })
            .collect()
    };
    let (want, got) = (elements("plain.html"), elements("hostile.html"));
    assert!(
        want.iter().filter(|e| e.0 == "script").count() >= 3,
        "{want:?}"
    );
    assert_eq!(got, want);
    let page = Page::read(&dir.join("hostile.html"));
    assert_eq!(page.data["title"], file.as_str());
    assert!(
        page.data["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["name"].as_str().is_some_and(|n| n.contains(hostile))),
        "{}",
        page.data["attributes"]
    );
}
