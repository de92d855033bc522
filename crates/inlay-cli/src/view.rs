//! `inlay view`: one HTML page that shows a draw — the mesh in 3D (WebGL2), the vertex table
//! as `decode` prints it, each slot's byte map as `inlay map` draws it and the
//! CreateInputLayout report — written to a file (`--output`) or served on 127.0.0.1.
//!
//! The data comes from the same library calls as `inlay export` ([`crate::draw_source::load_mesh`]:
//! `Mesh::build` / `Mesh::from_capture`), `validation::layout_without_shader` and the map
//! pictures; this module only serialises it as JSON into the page. The page's HTML, CSS and
//! JavaScript (`view/`) are written for inlay and compiled into the binary: no network, no
//! third-party files.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use clap::Args;
use inlay::diag::count;
use inlay::fetch::Instance;
use inlay::format::Kind;
use inlay::layout::{InputClass, LayoutElement};
use inlay::mesh::{Attribute, Instances, MeshOptions, Mode, SlotInfo};
use inlay::validation;
use serde_json::{Value, json};

use crate::draw_source::{Loaded, MeshSourceArgs, load_mesh};
use crate::output;
use crate::{CliError, check, map};

const PAGE_HTML: &str = include_str!("view/page.html");
const PAGE_CSS: &str = include_str!("view/page.css");
const PAGE_JS: &str = include_str!("view/page.js");

/// Show a draw in a local web page: 3D view, vertex table, byte map, layout report
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay view 000042-vb0=8a2c31f0-vs=1-ps=2.txt            (serves the page on 127.0.0.1)
  inlay view Body.fmt --open                              (and opens a browser)
  inlay view layout.h --vb 0=mesh.vb --ib mesh.ib,format=R16_UINT --topology triangle_list \\
      --output mesh.html                                  (one self-contained file)
  inlay view Mod.ini --output mod.html                    (a 3DMigoto mod: parts, toggles)

INPUT is what `inlay export` takes: 3DMigoto dumps, an importer .fmt, or a layout file with \
--vb/--ib/--draw as `decode` takes them. The table has `decode`'s rows: one per vertex-stream \
position (position, SV_VertexID, element number, SV_InstanceID) with the values exactly as \
`decode` prints them (floats, integers, or the register bits with hex), for one instance or \
every instance in turn. Selecting a row marks its vertex in 3D and shows its records' bytes \
in each slot; clicking a record selects the row that reads it. The page needs WebGL2 and \
nothing from the network.")]
pub struct ViewArgs {
    #[command(flatten)]
    pub source: MeshSourceArgs,
    /// Write the page to FILE (self-contained, data embedded; `-`: standard output) instead of
    /// serving it
    #[arg(long, short, value_name = "FILE.html")]
    pub output: Option<PathBuf>,
    /// Replace the --output file if it exists
    #[arg(long)]
    pub force: bool,
    /// Port to serve on (127.0.0.1 only) [default: a free port]
    #[arg(long, value_name = "N")]
    pub port: Option<u16>,
    /// Open the page in the system's browser once the server listens
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub mod_args: crate::modcmd::ModArgs,
    /// With a mod INI: the component (vertex set) to show [default: the first]
    #[arg(long, value_name = "NAME")]
    pub component: Option<String>,
}

/// Where the page's arrays go: packed into blocks of the page (a self-contained page), or one
/// binary blob the page fetches (`/data.bin` from the server, one range per array).
///
/// An array is referenced in the page's JSON as `{"offset", "length"}` (bytes of the blob,
/// which the page fetches one array at a time with HTTP range requests, so its first paint
/// waits only for the arrays it draws) or as `{"block", "length", "shuffle", "delta"}`: the
/// `<script type="application/octet-stream">` block of that id holds the array's bytes as
/// items of `shuffle` bytes — with `delta`, each item's little-endian `u32` words minus the
/// previous item's (wrapping; the first item as it is), which turns smooth positions and
/// index runs into small numbers — regrouped into `shuffle` planes (byte `k` of every item,
/// for each `k` in turn, which deflates far better than interleaved words), deflated (raw
/// DEFLATE, RFC 1951) and written as base64. A length that is not a whole number of items
/// keeps its tail as it is. Browsers inflate that natively
/// (`DecompressionStream("deflate-raw")`): a written page stays small.
pub enum Arrays {
    /// The arrays' bytes, plane widths and whether the first paint can do without them
    /// (the byte view's: written after the page's script), written as blocks by [`page`].
    Embedded(Vec<(Vec<u8>, usize, bool)>),
    /// Appended to this blob (each array at a 4-byte aligned offset).
    Blob(Vec<u8>),
}

impl Arrays {
    fn put(&mut self, values: impl Iterator<Item = u32>) -> Value {
        self.put_items(values, 1)
    }

    /// `values` as items of `words` u32 each (a vertex's lanes), shuffled by item.
    fn put_items(&mut self, values: impl Iterator<Item = u32>, words: usize) -> Value {
        let mut bytes = Vec::new();
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        self.put_bytes(bytes, 4 * words.max(1), false)
    }

    fn put_bytes(&mut self, bytes: Vec<u8>, width: usize, late: bool) -> Value {
        match self {
            Arrays::Embedded(list) => {
                let id = format!("inlay-a{}", list.len());
                let length = bytes.len();
                list.push((bytes, width, late));
                json!({"block": id, "length": length, "shuffle": width, "delta": delta(width)})
            }
            Arrays::Blob(blob) => {
                while blob.len() % 4 != 0 {
                    blob.push(0);
                }
                let offset = blob.len();
                blob.extend_from_slice(&bytes);
                json!({"offset": offset, "length": bytes.len()})
            }
        }
    }
}

/// The deflate level: miniz's level 1 is a greedy matcher that loses the long runs of
/// shuffled planes; 3 keeps them at little cost.
const LEVEL: u32 = 3;

/// Whether items of `width` bytes are delta-coded by words (see [`Arrays`]): when they are
/// whole words.
fn delta(width: usize) -> bool {
    width > 0 && width.is_multiple_of(4)
}

/// `bytes` delta-coded (items of whole words), regrouped into `width` planes (see [`Arrays`])
/// and deflated.
fn pack(bytes: &[u8], width: usize) -> Vec<u8> {
    use std::io::Write as _;
    let width = width.max(1);
    let items = bytes.len() / width;
    let mut coded;
    let body = if delta(width) && items > 1 {
        // Item i's words minus item i-1's, from the original bytes.
        coded = bytes[..items * width].to_vec();
        let word =
            |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        for at in (width..items * width).step_by(4) {
            let d = word(bytes, at).wrapping_sub(word(bytes, at - width));
            coded[at..at + 4].copy_from_slice(&d.to_le_bytes());
        }
        &coded[..]
    } else {
        &bytes[..items * width]
    };
    let mut planes = Vec::with_capacity(bytes.len());
    for k in 0..width {
        planes.extend(body.chunks_exact(width).map(|item| item[k]));
    }
    // A length that is not a whole number of items keeps its tail as it is.
    planes.extend_from_slice(&bytes[items * width..]);
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(LEVEL));
    // Writing to a Vec cannot fail.
    let _ = z.write_all(&planes);
    z.finish().unwrap_or_default()
}

/// Largest slot byte range a page carries for its byte view (bigger ones are left out, with
/// a note on the page).
const MAX_SLOT_BYTES: u64 = 256 << 20;

/// The page's data: everything the page shows, as one JSON value.
///
/// Attribute `data` is the register bits the input assembler delivers in the lanes `decode`
/// prints (`lanes`: the format's components), one little-endian `u32` per lane per mesh
/// vertex, or per instance for a `per_instance` attribute; `kind` says how `decode` prints
/// them (`uint`, `sint`, else as `f32`). The lanes a format lacks hold the IA's defaults and
/// are not shown, so they are not sent.
///
/// The table's rows are `decode`'s: row `r` is vertex-stream position `r` — instance
/// `r / stream.len()`, position `p = r % stream.len()` of it, mesh vertex `stream[p]`,
/// `SV_VertexID = element − vertex_id_base`. `slots` carry each slot's bytes over the records
/// the draw reads (`first`, `count` records of `width` bytes from element number `first`),
/// for the byte view; `instance_elements` is the element number each instance reads from a
/// per-instance slot.
pub fn page_data(
    loaded: &Loaded,
    options: &MeshOptions,
    title: &str,
    arrays: &mut Arrays,
) -> Value {
    let mesh = &loaded.mesh;
    let creation = validation::layout_without_shader(&options.target, &mesh.descs);
    let mut report = Vec::new();
    for d in &creation.diagnostics {
        report.push(d.to_string());
    }
    let mut result = Vec::new();
    let _ = check::write_result(&mut result, &creation, crate::style::Style::PLAIN);
    let (layout_table, map_text, map_svg) = match &creation.layout {
        Some(l) => {
            let strides: Vec<(u32, u32)> = mesh
                .slots
                .iter()
                .filter(|s| s.stride > 0 && l.slot(s.slot).is_some())
                .map(|s| (s.slot, s.stride))
                .collect();
            let (t, s) = map::pictures(l, &strides, title);
            (check::layout_table(l), t, s)
        }
        None => (String::new(), String::new(), String::new()),
    };
    // Per-vertex and per-instance attributes, in layout order (decode's columns).
    let mut all: Vec<(&Attribute, bool)> = mesh
        .attributes
        .iter()
        .map(|a| (a, false))
        .chain(mesh.instance_attributes.iter().map(|a| (a, true)))
        .collect();
    all.sort_by_key(|(a, _)| a.element);
    let position = all
        .iter()
        .position(|(a, inst)| {
            let s = a.semantic.to_ascii_uppercase();
            !inst && (s == "POSITION" || s == "SV_POSITION") && a.kind() == Kind::Float
        })
        .or_else(|| {
            all.iter().position(|(a, inst)| {
                !inst && !matches!(a.kind(), Kind::Uint | Kind::Sint) && a.components() >= 2
            })
        });
    let bounds = position.map(|i| position_bounds(all[i].0));
    let attributes: Vec<Value> = all
        .iter()
        .map(|(a, per_instance)| {
            let e = mesh.layout.get(a.element);
            let mask = a.format.info().map_or(0xf, |i| i.lane_mask());
            let lanes: Vec<usize> = (0..4).filter(|l| mask & (1 << l) != 0).collect();
            json!({
                "name": e.map_or_else(
                    || format!("{}{}", a.semantic, a.semantic_index),
                    |e| format!("{}{}", e.semantic_name, e.semantic_index)),
                "semantic": a.semantic,
                "index": a.semantic_index,
                "element": a.element,
                "format": a.format.name().unwrap_or("?"),
                "kind": a.kind().name(),
                "lanes": lanes,
                "per_instance": per_instance,
                "data": arrays.put_items(
                    a.values.iter().flat_map(|v| lanes.iter().map(move |&l| v[l])),
                    lanes.len(),
                ),
            })
        })
        .collect();
    let elements: Vec<Value> = mesh
        .layout
        .iter()
        .enumerate()
        .map(|(i, e)| {
            json!({
                "name": format!("{}{}", e.semantic_name, e.semantic_index),
                "format": e.format.name().unwrap_or("?"),
                "slot": e.slot,
                "offset": e.offset,
                "size": e.byte_size(),
                "per_instance": e.class == InputClass::PerInstance,
                "step_rate": e.step_rate,
                "colour": map::colour(i).1,
                "letter": map::letter(i).to_string(),
            })
        })
        .collect();
    // Instances the page shows: every one when per-instance data was expanded (or there is
    // none), else the first.
    let instances = match mesh.instances {
        Instances::First => 1,
        _ => mesh.instance_count,
    };
    let slots: Vec<Value> = mesh
        .slots
        .iter()
        .map(|s| slot_data(loaded, s, instances, arrays))
        .collect();
    json!({
        "title": title,
        "files": mesh.files,
        "topology": mesh.topology.to_string(),
        "mode": match mesh.mode {
            Mode::Points => "points",
            Mode::Lines => "lines",
            Mode::Triangles => "triangles",
        },
        "draw": mesh.draw,
        "vertex_count": mesh.vertex_count,
        "vertex_base": mesh.vertex_base,
        "vertex_elements": mesh.vertex_elements.as_ref().map(|v| arrays.put(v.iter().copied())),
        "indices": arrays.put(mesh.indices.iter().copied()),
        // A list draw without cuts reads its stream as its primitives' indices: sent once.
        "stream": if mesh.stream == mesh.indices {
            Value::String("indices".into())
        } else {
            arrays.put(mesh.stream.iter().copied())
        },
        "positions": mesh.stream.len(),
        "vertex_id_base": mesh.vertex_id_base,
        "start_instance": mesh.start_instance,
        "blob": matches!(arrays, Arrays::Blob(_)).then_some("data.bin"),
        "instance_count": instances,
        "attributes": attributes,
        "elements": elements,
        "slots": slots,
        "position": position,
        "bounds": bounds,
        "warnings": mesh.warnings,
        "diagnostics": report,
        "result": String::from_utf8_lossy(&result).trim_end(),
        "layout_table": layout_table,
        "map_text": map_text,
        "map_svg": map_svg,
    })
}

/// The lowest and highest finite value of each of the first three lanes the position
/// attribute's format has (`null` where a lane has none): the 3D view frames the draw from
/// these without a pass over the vertices.
fn position_bounds(a: &Attribute) -> Value {
    let mask = a.format.info().map_or(0xf, |i| i.lane_mask());
    let (lo, hi): (Vec<Value>, Vec<Value>) = (0..3)
        .filter(|l| mask & (1 << l) != 0)
        .map(|l| {
            let finite = a
                .values
                .iter()
                .map(|v| f32::from_bits(v[l]))
                .filter(|x| x.is_finite());
            let lo = finite.clone().reduce(f32::min);
            let hi = finite.reduce(f32::max);
            (json!(lo), json!(hi))
        })
        .unzip();
    json!({"lo": lo, "hi": hi})
}

/// One slot for the byte view: the bytes of the records the draw reads, from the first
/// element number to the last (per-vertex: the mesh's vertices; per-instance: each shown
/// instance's element number), each record `width` bytes from `offset + n × stride`.
fn slot_data(loaded: &Loaded, s: &SlotInfo, instances: u32, arrays: &mut Arrays) -> Value {
    let mesh = &loaded.mesh;
    let mine: Vec<&LayoutElement> = mesh.layout.iter().filter(|e| e.slot == s.slot).collect();
    let extent = mine.iter().map(|e| e.end()).max().unwrap_or(0);
    let width = u64::from(s.stride).max(extent);
    let per_instance = mine
        .first()
        .is_some_and(|e| e.class == InputClass::PerInstance);
    let file = loaded.slots.iter().find(|b| b.slot == s.slot);
    let mut instance_elements = Vec::new();
    let (first, last) = if per_instance {
        let rate = mine.first().map_or(0, |e| e.step_rate);
        instance_elements = (0..instances)
            .map(|id| {
                Instance {
                    id,
                    start: mesh.start_instance,
                }
                .element_index(rate)
            })
            .collect();
        (
            instance_elements.iter().copied().min().unwrap_or(0),
            instance_elements.iter().copied().max().unwrap_or(0),
        )
    } else {
        match &mesh.vertex_elements {
            Some(list) => (
                list.first().copied().unwrap_or(0),
                list.last().copied().unwrap_or(0),
            ),
            None => (
                mesh.vertex_base,
                mesh.vertex_base
                    .wrapping_add(mesh.vertex_count.saturating_sub(1)),
            ),
        }
    };
    let count = u64::from(last.wrapping_sub(first)) + 1;
    let start = u64::from(s.offset) + u64::from(first) * u64::from(s.stride);
    let span = (count - 1) * u64::from(s.stride) + width;
    let (bytes, note) = match file.and_then(|f| f.bytes.as_ref()) {
        None => (Value::Null, "a text dump: values, no bytes".to_string()),
        Some(_) if span > MAX_SLOT_BYTES => (
            Value::Null,
            format!("{span} bytes: more than the page carries ({MAX_SLOT_BYTES})"),
        ),
        Some(b) => {
            let lo = start.min(b.len() as u64) as usize;
            let hi = start.saturating_add(span).min(b.len() as u64) as usize;
            // Planes of the records' byte columns: a column of one element's byte deflates
            // far better than the records side by side.
            let planes = (s.stride as usize).clamp(1, 2048);
            (
                arrays.put_bytes(b[lo..hi].to_vec(), planes, true),
                String::new(),
            )
        }
    };
    json!({
        "slot": s.slot,
        "stride": s.stride,
        "offset": s.offset,
        "width": width,
        "file": file.map_or("", |f| f.file.as_str()),
        "per_instance": per_instance,
        "first": first,
        "count": count,
        "start": start,
        "buffer_length": file.and_then(|f| f.bytes.as_ref()).map_or(0, |b| b.len()),
        "bytes": bytes,
        "note": note,
        "instance_elements": instance_elements,
    })
}

/// The whole page with `data` embedded (a `<script type="application/json">` block; every
/// `<` is written `\u003c`, so no string in the data can end the block or open an HTML
/// comment, `<!--<script>`, that makes the parser swallow the page's script — JSON has `<`
/// only inside strings, where the escape reads back as the same character), and each of `blocks` (the
/// [`Arrays::Embedded`] arrays) packed into its own block (base64 has no `<`): before the
/// page's script, or after it for the late ones, so the browser runs the script — and
/// starts the first paint — without parsing them first.
pub fn page(data: &Value, blocks: &[(Vec<u8>, usize, bool)]) -> String {
    let json = data.to_string().replace('<', "\\u003c");
    let title = data["title"]
        .as_str()
        .unwrap_or("inlay view")
        .replace('&', "&amp;")
        .replace('<', "&lt;");
    // Deflate the arrays on every core: the largest ones take most of the page's writing time.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut packed: Vec<Vec<u8>> = vec![Vec::new(); blocks.len()];
    std::thread::scope(|scope| {
        let per = blocks.len().div_ceil(threads).max(1);
        for (ins, outs) in blocks.chunks(per).zip(packed.chunks_mut(per)) {
            scope.spawn(move || {
                for ((bytes, width, _), out) in ins.iter().zip(outs) {
                    *out = pack(bytes, *width);
                }
            });
        }
    });
    let (mut arrays, mut late) = (String::new(), String::new());
    for (i, (z, block)) in packed.iter().zip(blocks).enumerate() {
        let out = if block.2 { &mut late } else { &mut arrays };
        out.push_str(&format!(
            "<script type=\"application/octet-stream\" id=\"inlay-a{i}\">"
        ));
        base64::engine::general_purpose::STANDARD.encode_string(z, out);
        out.push_str("</script>\n");
    }
    fill(
        PAGE_HTML,
        &[
            ("TITLE", &title),
            ("CSS", PAGE_CSS),
            ("DATA", &json),
            ("ARRAYS", &arrays),
            ("JS", PAGE_JS),
            ("LATE", &late),
        ],
    )
}

/// `template` with each `{{KEY}}` replaced by its value, in one pass: a value is never
/// searched for placeholders (a file named `{{JS}}` stays a name).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        let key = &rest[start + 2..start + 2 + len];
        out.push_str(&rest[..start]);
        match values.iter().find(|(k, _)| *k == key) {
            Some((_, v)) => out.push_str(v),
            None => out.push_str(&rest[start..start + 4 + len]),
        }
        rest = &rest[start + 4 + len..];
    }
    out.push_str(rest);
    out
}

/// The self-contained page of a loaded draw (arrays embedded), as `--output` writes it.
pub fn embedded_page(loaded: &Loaded, options: &MeshOptions, title: &str) -> String {
    let mut arrays = Arrays::Embedded(Vec::new());
    let data = page_data(loaded, options, title, &mut arrays);
    let Arrays::Embedded(blocks) = arrays else {
        unreachable!("built as blocks above")
    };
    page(&data, &blocks)
}

/// Runs `inlay view`.
pub fn run(args: &ViewArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    // A frame-analysis folder: its draw list, each draw opened from it.
    if args.source.inputs.len() == 1 && args.source.inputs[0].is_dir() {
        return crate::view_frame::run(args, stdout);
    }
    let check = |all: &[&Path]| match &args.output {
        Some(out) => output::check_destination(out, all, args.force),
        None => Ok(()),
    };
    // Every instance's per-instance data (the page's instance selector and expanded rows);
    // a draw with more instances than the builder expands shows the first instance's.
    let mut options = MeshOptions {
        instances: Instances::Expand,
        target: args.source.target.target()?,
        patch_triangles: args.source.patch_triangles,
        max_zero_vertices: args.source.max_vertices,
        pipeline: args.source.target.mesh_pipeline(),
    };
    let (loaded, mod_data) = if crate::modcmd::is_ini(&args.source.inputs[0]) {
        let (l, d) =
            crate::modcmd::view_data(&args.source, &args.mod_args, args.component.as_deref())?;
        let all: Vec<&Path> = l.inputs.iter().map(|p| p.as_path()).collect();
        check(&all)?;
        (l, Some(d))
    } else {
        let l = match load_mesh(&args.source, &options, &check) {
            Ok(l) => l,
            Err(e) => {
                options.instances = Instances::First;
                let l = load_mesh(&args.source, &options, &check)?;
                eprintln!(
                    "{}: showing the first instance only: {}",
                    crate::style::stderr().warning("warning"),
                    e.message.trim_end()
                );
                l
            }
        };
        (l, None)
    };
    let with_mod = |mut data: Value| {
        if let Some(d) = &mod_data {
            data["mod"] = d.clone();
        }
        data
    };
    let title = args
        .source
        .inputs
        .first()
        .and_then(|p| p.file_name())
        .map_or_else(|| "inlay view".into(), |n| n.to_string_lossy().into_owned());
    let mesh = &loaded.mesh;
    if let Some(out) = &args.output {
        let mut arrays = Arrays::Embedded(Vec::new());
        let data = with_mod(page_data(&loaded, &options, &title, &mut arrays));
        let Arrays::Embedded(blocks) = arrays else {
            unreachable!("built as blocks above")
        };
        let html = page(&data, &blocks);
        let all: Vec<&Path> = loaded.inputs.iter().map(|p| p.as_path()).collect();
        // `--output -`: the page is standard output, and this line standard error.
        if output::is_dash(out) {
            stdout
                .write_all(html.as_bytes())
                .map_err(CliError::stdout)?;
            eprintln!(
                "wrote the page to standard output: {}, {}",
                count(mesh.vertex_count.into(), "vertex", "vertices"),
                count(mesh.indices.len() as u64, "index", "indices")
            );
            return Ok(0);
        }
        output::write_file(out, html.as_bytes(), &all, args.force)?;
        writeln!(
            stdout,
            "wrote {}: {}, {}",
            out.display(),
            count(mesh.vertex_count.into(), "vertex", "vertices"),
            count(mesh.indices.len() as u64, "index", "indices")
        )
        .map_err(CliError::stdout)?;
        return Ok(0);
    }
    // Served, the arrays travel as binary (no base64 to parse): a 1M-vertex page paints fast.
    let mut blob = Arrays::Blob(Vec::new());
    let html = page(
        &with_mod(page_data(&loaded, &options, &title, &mut blob)),
        &[],
    );
    let Arrays::Blob(blob) = blob else {
        unreachable!("built as a blob above")
    };
    serve(&html, &blob, args.port.unwrap_or(0), args.open, stdout)
}

/// How much the view server gives one client (issue 34 item 5).
#[derive(Clone, Copy, Debug)]
struct ServeLimits {
    /// Connections served at once; past it a connection is answered 503 and closed.
    connections: usize,
    /// The whole exchange — reading the request, writing the answer — must end within this
    /// time from the connection's acceptance, however slowly the client sends or reads.
    deadline: Duration,
}

/// The limits of `inlay view`: a browser opens a handful of connections; a page of a
/// million vertices travels over the loopback in well under a second.
const LIMITS: ServeLimits = ServeLimits {
    connections: 32,
    deadline: Duration::from_secs(30),
};

/// The longest request head read (request line and headers).
const MAX_HEAD: usize = 16 * 1024;

/// Serves `html` at `/` on 127.0.0.1 until the process is stopped: GET and HEAD only,
/// `Connection: close`, only to requests whose `Host` is this server's own address
/// (`127.0.0.1:PORT` or `localhost:PORT`) and whose `Origin`, if any, is too — so a web page
/// that rebinds its own name to 127.0.0.1 cannot read the draw — with at most
/// [`LIMITS`]`.connections` connections at once, each within [`LIMITS`]`.deadline`.
fn serve(
    html: &str,
    blob: &[u8],
    port: u16,
    open: bool,
    stdout: &mut dyn Write,
) -> Result<u8, CliError> {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| CliError::io(format!("cannot listen on 127.0.0.1:{port}"), e))?;
    let addr = listener
        .local_addr()
        .map_err(|e| CliError::io("cannot read the listening address", e))?;
    let url = format!("http://{addr}/");
    writeln!(stdout, "serving {url} (Ctrl-C stops)").map_err(CliError::stdout)?;
    stdout.flush().map_err(CliError::stdout)?;
    if open {
        open_browser(&url);
    }
    let page: Arc<(Vec<u8>, Vec<u8>)> = Arc::new((html.as_bytes().to_vec(), blob.to_vec()));
    serve_on(listener, page, LIMITS);
    Ok(0)
}

/// Decrements the count of live connections when a connection's thread ends.
struct Live(Arc<AtomicUsize>);

impl Drop for Live {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The accept loop of [`serve`]: one thread per connection (a browser's idle preconnected
/// socket must not hold up the request behind it), at most `limits.connections` of them.
fn serve_on(listener: TcpListener, page: Arc<(Vec<u8>, Vec<u8>)>, limits: ServeLimits) {
    let Ok(addr) = listener.local_addr() else {
        return;
    };
    let port = addr.port();
    let live = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        match conn {
            Ok(mut stream) => {
                if live.load(Ordering::SeqCst) >= limits.connections {
                    // A fresh socket's send buffer takes this without blocking; the timeout
                    // only guards the accept loop.
                    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
                    // What the client sent already is read and dropped, so that closing
                    // sends the answer and a FIN, not a reset that may discard it.
                    if stream.set_nonblocking(true).is_ok() {
                        let mut sink = [0u8; 4096];
                        for _ in 0..4 {
                            if !matches!(stream.read(&mut sink), Ok(n) if n > 0) {
                                break;
                            }
                        }
                        let _ = stream.set_nonblocking(false);
                    }
                    let _ = stream.write_all(
                        b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\
                          Retry-After: 1\r\nConnection: close\r\n\r\n",
                    );
                    continue;
                }
                live.fetch_add(1, Ordering::SeqCst);
                let guard = Live(Arc::clone(&live));
                let page = Arc::clone(&page);
                std::thread::spawn(move || {
                    let _guard = guard;
                    let deadline = Instant::now() + limits.deadline;
                    if let Err(e) = respond(stream, port, deadline, &page.0, &page.1) {
                        eprintln!("warning: http://{addr}/: a request failed: {e}");
                    }
                });
            }
            Err(e) => eprintln!("warning: http://{addr}/: cannot accept a connection: {e}"),
        }
    }
}

/// The time left before `deadline`, or a timeout error when none is.
fn time_left(deadline: Instant) -> std::io::Result<Duration> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the request's deadline passed",
            )
        })
}

/// Reads a request head (up to the blank line, at most [`MAX_HEAD`] bytes) before
/// `deadline`, however the bytes are spread over time.
fn read_head(stream: &mut TcpStream, deadline: Instant) -> std::io::Result<String> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if let Some(end) = head
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map(|p| p + 4)
            .or_else(|| head.windows(2).position(|w| w == b"\n\n").map(|p| p + 2))
        {
            head.truncate(end);
            break;
        }
        if head.len() > MAX_HEAD {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a request head longer than {MAX_HEAD} bytes"),
            ));
        }
        stream.set_read_timeout(Some(time_left(deadline)?))?;
        let n = match stream.read(&mut buf) {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the request's deadline passed",
                ));
            }
            Err(e) => return Err(e),
        };
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    Ok(String::from_utf8_lossy(&head).into_owned())
}

/// Whether `value` (a `Host` header, or an `Origin` without its `http://`) names this
/// server: `127.0.0.1:PORT` or `localhost:PORT`.
fn names_this_server(value: &str, port: u16) -> bool {
    let value = value.trim();
    value.eq_ignore_ascii_case(&format!("127.0.0.1:{port}"))
        || value.eq_ignore_ascii_case(&format!("localhost:{port}"))
}

/// Why a request is refused for its `Host` or `Origin` (`None`: it is this server's own).
fn foreign(host: Option<&str>, origin: Option<&str>, port: u16) -> Option<&'static str> {
    if !host.is_some_and(|h| names_this_server(h, port)) {
        return Some("foreign or missing Host\n");
    }
    match origin {
        None => None,
        Some(o) => {
            let o = o.trim();
            let own = o
                .get(..7)
                .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"))
                && names_this_server(&o[7..], port);
            (!own).then_some("foreign Origin\n")
        }
    }
}

fn respond(
    mut stream: TcpStream,
    port: u16,
    deadline: Instant,
    html: &[u8],
    blob: &[u8],
) -> std::io::Result<()> {
    let head = read_head(&mut stream, deadline)?;
    let mut lines = head.lines();
    let first = lines.next().unwrap_or("");
    let (mut range, mut host, mut origin) = (None, None, None);
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            let name = name.trim();
            let slot = if name.eq_ignore_ascii_case("range") {
                &mut range
            } else if name.eq_ignore_ascii_case("host") {
                &mut host
            } else if name.eq_ignore_ascii_case("origin") {
                &mut origin
            } else {
                continue;
            };
            *slot = Some(value.trim().to_string());
        }
    }
    let mut parts = first.split_whitespace();
    let method = parts.next().unwrap_or("");
    let path = parts.next().unwrap_or("");
    let refused = foreign(host.as_deref(), origin.as_deref(), port);
    let (status, body, kind): (&str, &[u8], &str) = match (method, path) {
        _ if refused.is_some() => (
            "403 Forbidden",
            refused.unwrap_or_default().as_bytes(),
            "text/plain; charset=utf-8",
        ),
        ("GET" | "HEAD", "/" | "/index.html") => ("200 OK", html, "text/html; charset=utf-8"),
        ("GET" | "HEAD", "/data.bin") => ("200 OK", blob, "application/octet-stream"),
        ("GET" | "HEAD", _) => ("404 Not Found", b"not found\n", "text/plain; charset=utf-8"),
        _ => (
            "405 Method Not Allowed",
            b"GET only\n",
            "text/plain; charset=utf-8",
        ),
    };
    // A range of the blob (the page fetches each array on its own): `bytes=FIRST-LAST`.
    let (status, body, extra) = match range.as_deref().and_then(|r| byte_range(r, body.len())) {
        Some((lo, hi)) if status.starts_with("200") && path == "/data.bin" => (
            "206 Partial Content",
            &body[lo..=hi],
            format!("Content-Range: bytes {lo}-{hi}/{}\r\n", body.len()),
        ),
        _ => (status, body, String::new()),
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n{extra}\
         Accept-Ranges: bytes\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    write_before(&mut stream, header.as_bytes(), deadline)?;
    if method != "HEAD" {
        write_before(&mut stream, body, deadline)?;
    }
    stream.flush()
}

/// Writes `bytes` before `deadline`, however slowly the client reads.
fn write_before(stream: &mut TcpStream, bytes: &[u8], deadline: Instant) -> std::io::Result<()> {
    let mut rest = bytes;
    while !rest.is_empty() {
        // Each call is given only the time left: a client that reads a byte now and then
        // cannot stretch the exchange past the deadline.
        stream.set_write_timeout(Some(time_left(deadline)?))?;
        match stream.write(rest) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The inclusive byte range `bytes=FIRST-LAST` (or `bytes=FIRST-`) of a body of `len` bytes,
/// `None` when the header asks for something else (several ranges, a suffix, past the end),
/// which is answered with the whole body.
fn byte_range(header: &str, len: usize) -> Option<(usize, usize)> {
    let (first, last) = header.strip_prefix("bytes=")?.split_once('-')?;
    let lo: usize = first.trim().parse().ok()?;
    let hi: usize = match last.trim() {
        "" => len.checked_sub(1)?,
        l => l.parse::<usize>().ok()?.min(len.checked_sub(1)?),
    };
    (lo <= hi).then_some((lo, hi))
}

pub fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(cmd).arg(url).spawn() {
        eprintln!("warning: cannot open a browser with {cmd}: {e}; open {url} yourself");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every element of `html` as an HTML5 parser (html5ever, what browsers implement) builds
    /// it, in document order: tag, id and type; and the text of the data block.
    fn structure(html: &str) -> (Vec<(String, String, String)>, String) {
        let doc = scraper::Html::parse_document(html);
        let mut out = Vec::new();
        let mut data = String::new();
        for node in doc.root_element().descendants() {
            if let Some(e) = scraper::ElementRef::wrap(node) {
                let v = e.value();
                let attr = |a: &str| v.attr(a).unwrap_or("").to_string();
                if v.attr("id") == Some("inlay-data") {
                    data = e.text().collect();
                }
                out.push((v.name().to_string(), attr("id"), attr("type")));
            }
        }
        (out, data)
    }

    /// A page whose data holds `name` where names go: the title, an attribute name and a
    /// semantic of the report, plus one embedded array block.
    fn page_with(name: &str) -> (String, Value) {
        let data = json!({
            "title": name,
            "attributes": [{"name": name, "semantic": name, "data": {"block": "inlay-a0"}}],
            "report": [name, format!("{name}</script>{name}")],
        });
        let blocks = vec![(vec![1u8, 2, 3, 4, 5, 6, 7, 8], 4usize, false)];
        (page(&data, &blocks), data)
    }

    /// Issue 34 item 4: the semantic name `<!--<script>` made the parser take the data block
    /// for an escaped script and swallow the page's own script (1 script element of 7).
    #[test]
    fn names_never_change_the_page_structure() {
        let (plain, _) = page_with("POSITION");
        let (want, _) = structure(&plain);
        assert!(
            want.iter().filter(|e| e.0 == "script").count() >= 3,
            "{want:?}"
        );
        for name in [
            "<!--<script>",
            "<!--",
            "</script>",
            "</SCRIPT >",
            "<script>",
            "-->",
            "<!-- <script> -->",
            "<![CDATA[",
            r"<\/script>",
            "</style><script>",
            "</title><script>",
            "&lt;/script&gt;",
            r"\u003c!--",
            "\u{2028}\u{2029}",
        ] {
            let (html, data) = page_with(name);
            let (got, text) = structure(&html);
            assert_eq!(got, want, "{name:?}");
            let back: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(back, data, "{name:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Any name made of the characters that open comments, tags and escapes.
        #[test]
        fn any_name_leaves_the_page_structure_alone(
            name in proptest::collection::vec(
                prop::sample::select(vec![
                    "<", "!", "-", "/", ">", "script", "SCRIPT", "style", "title", "<!--",
                    "-->", "</", "\\", "\"", "&", " ", "\n", "\u{2028}", "x", "é",
                ]),
                0..24,
            ).prop_map(|parts| parts.concat())
        ) {
            let (plain, _) = page_with("POSITION");
            let (want, _) = structure(&plain);
            let (html, data) = page_with(&name);
            let (got, text) = structure(&html);
            prop_assert_eq!(got, want);
            let back: Value = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(back, data);
        }
    }

    #[test]
    fn only_this_servers_own_host_and_origin_are_served() {
        let p = 8123;
        for host in [
            "127.0.0.1:8123",
            "localhost:8123",
            "LocalHost:8123",
            " 127.0.0.1:8123 ",
        ] {
            assert_eq!(foreign(Some(host), None, p), None, "{host}");
            assert_eq!(
                foreign(Some(host), Some("http://localhost:8123"), p),
                None,
                "{host}"
            );
        }
        for host in [
            "evil.example:8123",
            "127.0.0.1",
            "localhost",
            "127.0.0.1:8124",
            "127.0.0.1:8123.evil.example",
            "",
        ] {
            assert!(foreign(Some(host), None, p).is_some(), "{host:?}");
        }
        assert!(foreign(None, None, p).is_some());
        for origin in [
            "http://evil.example",
            "http://evil.example:8123",
            "null",
            "https://127.0.0.1:8123",
            "http://127.0.0.1:8124",
            "http://",
            "",
        ] {
            assert_eq!(
                foreign(Some("127.0.0.1:8123"), Some(origin), p),
                Some("foreign Origin\n"),
                "{origin:?}"
            );
        }
    }

    /// A server of `limits` on a free port, serving a 3-byte page; its port.
    fn server(limits: ServeLimits) -> u16 {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let page = Arc::new((b"abc".to_vec(), vec![7u8; 1 << 20]));
        std::thread::spawn(move || serve_on(listener, page, limits));
        port
    }

    fn get(port: u16, head: &str) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(s, "{head}\r\n").unwrap();
        let mut resp = Vec::new();
        let _ = s.read_to_end(&mut resp);
        String::from_utf8_lossy(&resp).into_owned()
    }

    #[test]
    fn foreign_hosts_and_origins_are_refused() {
        let limits = ServeLimits {
            connections: 4,
            deadline: Duration::from_secs(10),
        };
        let port = server(limits);
        let ok = get(
            port,
            &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"),
        );
        assert!(
            ok.starts_with("HTTP/1.1 200 OK\r\n") && ok.ends_with("abc"),
            "{ok}"
        );
        let ok = get(
            port,
            &format!(
                "GET / HTTP/1.1\r\nhost: localhost:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
            ),
        );
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
        // DNS rebinding: the page's own name, resolved to 127.0.0.1.
        let rebound = get(
            port,
            &format!("GET /data.bin HTTP/1.1\r\nHost: evil.example:{port}\r\n"),
        );
        assert!(
            rebound.starts_with("HTTP/1.1 403 Forbidden\r\n"),
            "{rebound}"
        );
        assert!(
            !rebound.contains("abc") && rebound.len() < 1000,
            "{rebound}"
        );
        let no_host = get(port, "GET / HTTP/1.0\r\n");
        assert!(
            no_host.starts_with("HTTP/1.1 403 Forbidden\r\n"),
            "{no_host}"
        );
        let cross = get(
            port,
            &format!(
                "GET /data.bin HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n"
            ),
        );
        assert!(cross.starts_with("HTTP/1.1 403 Forbidden\r\n"), "{cross}");
        assert!(cross.ends_with("foreign Origin\n"), "{cross}");
    }

    /// Issue 34 item 5: idle sockets past the cap are answered 503 at once instead of each
    /// taking a thread; a client that sends a byte now and then is cut off at the deadline
    /// (before: 10 s per read, so 16 KiB took up to 45 hours).
    #[test]
    fn connections_are_capped_and_each_has_a_deadline() {
        let limits = ServeLimits {
            connections: 2,
            deadline: Duration::from_millis(800),
        };
        let port = server(limits);
        let t0 = Instant::now();
        let mut slow = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let idle = TcpStream::connect(("127.0.0.1", port)).unwrap();
        // The accept loop takes connections in order: both are live now or soon; this one
        // is past the cap.
        std::thread::sleep(Duration::from_millis(100));
        // (It sends nothing: a request the server never reads would turn its close into a
        // reset that may discard the answer.)
        let mut busy = TcpStream::connect(("127.0.0.1", port)).unwrap();
        busy.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut answer = Vec::new();
        let _ = busy.read_to_end(&mut answer);
        let busy = String::from_utf8_lossy(&answer);
        assert!(
            busy.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
            "{busy}"
        );
        // The slow sender: one byte every 50 ms, never the blank line.
        slow.set_write_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let mut closed_after = None;
        for b in b"GET / HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
            if slow.write_all(&[*b]).is_err() {
                closed_after = Some(t0.elapsed());
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // Writes into a socket the peer closed fail on the second try at the latest; or
        // the read end reports the close.
        let closed_after = closed_after.unwrap_or_else(|| {
            slow.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut b = [0u8; 16];
            let _ = slow.read(&mut b);
            t0.elapsed()
        });
        assert!(
            closed_after < Duration::from_secs(4),
            "the slow sender was served for {closed_after:?}"
        );
        drop(idle);
        // Both timed out: the server takes requests again.
        std::thread::sleep(Duration::from_millis(300));
        let ok = get(
            port,
            &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"),
        );
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
    }
}
