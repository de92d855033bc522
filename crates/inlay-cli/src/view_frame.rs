//! `inlay view DIR`: a frame analysis's draw list in the page (sortable, filterable), and any
//! draw opened from it as `inlay view` shows a single draw (served pages only: the list links
//! to `/draw/ID`, built on request from the frame's files).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use inlay::frame::Frame;
use inlay::mesh::{Instances, Mesh, MeshOptions};

use crate::draw_source::{Loaded, SlotBytes};
use crate::view::ViewArgs;
use crate::{CliError, output};

const FRAME_HTML: &str = include_str!("view/frame.html");

/// The list page: the draws as JSON in the page; `served` says whether draws can be opened.
pub fn list_page(frame: &Frame, served: bool) -> String {
    let data = serde_json::json!({
        "served": served,
        "draws": frame.draws.iter().map(|d| d.to_json()).collect::<Vec<_>>(),
    });
    // `</` cannot end the script block early.
    let json = data.to_string().replace("</", "<\\/");
    let title = frame
        .root
        .display()
        .to_string()
        .replace('&', "&amp;")
        .replace('<', "&lt;");
    FRAME_HTML
        .replace("{{TITLE}}", &title)
        .replace("{{DATA}}", &json)
}

/// The page of draw `id` of `frame`, as `inlay view` shows one draw.
fn draw_page(frame: &Frame, id: &str, options: &MeshOptions) -> Result<String, String> {
    let d = frame
        .draws
        .iter()
        .find(|d| d.id() == id)
        .ok_or_else(|| format!("no draw {id}"))?;
    let capture = frame.load(d).map_err(|e| e.to_string())?;
    let mut opts = *options;
    let mesh = match Mesh::from_capture(&capture, &opts) {
        Ok(m) => m,
        Err(_) => {
            opts.instances = Instances::First;
            Mesh::from_capture(&capture, &opts).map_err(|e| e.to_string())?
        }
    };
    let loaded = Loaded {
        mesh,
        inputs: capture.sources.clone(),
        slots: capture
            .slots
            .iter()
            .map(|s| SlotBytes {
                slot: s.slot,
                bytes: match &s.data {
                    inlay::capture::SlotData::Binary(b) => Some(b.clone()),
                    inlay::capture::SlotData::Text(_) => None,
                },
                file: s.source.display().to_string(),
            })
            .collect(),
    };
    Ok(crate::view::embedded_page(
        &loaded,
        &opts,
        &format!("{} {}", d.id(), d.call_text()),
    ))
}

/// Runs `inlay view DIR`.
pub fn run(args: &ViewArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    let dir = &args.source.inputs[0];
    let frame = crate::frame::open_frame(dir, 0)?;
    if let Some(out) = &args.output {
        let html = list_page(&frame, false);
        output::write_file(out, html.as_bytes(), &[dir.as_path()], args.force)?;
        writeln!(
            stdout,
            "wrote {}: {}",
            out.display(),
            inlay::diag::count(frame.draws.len() as u64, "draw", "draws")
        )
        .map_err(CliError::stdout)?;
        return Ok(0);
    }
    let options = MeshOptions {
        instances: Instances::Expand,
        target: args.source.target.target()?,
        patch_triangles: args.source.patch_triangles,
        max_zero_vertices: args.source.max_vertices,
        pipeline: args.source.target.mesh_pipeline(),
    };
    let list = list_page(&frame, true);
    let port = args.port.unwrap_or(0);
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| CliError::io(format!("cannot listen on 127.0.0.1:{port}"), e))?;
    let addr = listener
        .local_addr()
        .map_err(|e| CliError::io("cannot read the listening address", e))?;
    let url = format!("http://{addr}/");
    writeln!(
        stdout,
        "serving {url} (Ctrl-C stops): {}",
        inlay::diag::count(frame.draws.len() as u64, "draw", "draws")
    )
    .map_err(CliError::stdout)?;
    stdout.flush().map_err(CliError::stdout)?;
    if args.open {
        crate::view::open_browser(&url);
    }
    let shared = Arc::new((frame, list, options));
    for conn in listener.incoming() {
        match conn {
            Ok(stream) => {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || {
                    if let Err(e) = respond(stream, &shared.0, &shared.1, &shared.2) {
                        eprintln!("warning: a request failed: {e}");
                    }
                });
            }
            Err(e) => eprintln!("warning: {url}: cannot accept a connection: {e}"),
        }
    }
    Ok(0)
}

fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16).map(|v| v as u8);
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push(h << 4 | l);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn respond(
    stream: TcpStream,
    frame: &Frame,
    list: &str,
    options: &MeshOptions,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?.take(16 * 1024));
    let mut first = String::new();
    reader.read_line(&mut first)?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = first.split_whitespace();
    let method = parts.next().unwrap_or("");
    let path = parts.next().unwrap_or("");
    let page;
    let (status, body): (&str, &[u8]) = match (method, path) {
        ("GET" | "HEAD", "/" | "/index.html") => ("200 OK", list.as_bytes()),
        ("GET" | "HEAD", p) if p.starts_with("/draw/") => {
            match draw_page(frame, &unescape(&p[6..]), options) {
                Ok(html) => {
                    page = html;
                    ("200 OK", page.as_bytes())
                }
                Err(e) => {
                    page = format!(
                        "<!doctype html><meta charset=utf-8><pre>{}</pre>",
                        e.replace('&', "&amp;").replace('<', "&lt;")
                    );
                    ("422 Unprocessable Content", page.as_bytes())
                }
            }
        }
        ("GET" | "HEAD", _) => ("404 Not Found", b"not found\n"),
        _ => ("405 Method Not Allowed", b"GET only\n"),
    };
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        out.write_all(body)?;
    }
    out.flush()
}
