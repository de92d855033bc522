//! `inlay view`: one HTML page that shows a draw — the mesh in 3D (WebGL2), the vertex table
//! as `decode` prints it, each slot's byte map as `inlay map` draws it and the
//! CreateInputLayout report — written to a file (`--output`) or served on 127.0.0.1.
//!
//! The data comes from the same library calls as `inlay export` ([`crate::draw_source::load_mesh`]:
//! `Mesh::build` / `Mesh::from_capture`), `validation::layout_without_shader` and the map
//! pictures; this module only serialises it as JSON into the page. The page's HTML, CSS and
//! JavaScript (`view/`) are written for inlay and compiled into the binary: no network, no
//! third-party files.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use clap::Args;
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

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Uint => "uint",
        Kind::Sint => "sint",
        Kind::Unorm => "unorm",
        Kind::Snorm => "snorm",
        _ => "float",
    }
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
                "kind": kind_name(a.kind()),
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

/// The whole page with `data` embedded (a `<script type="application/json">` block; `</` is
/// escaped so no string in the data can end the block), and each of `blocks` (the
/// [`Arrays::Embedded`] arrays) packed into its own block (base64 has no `<`): before the
/// page's script, or after it for the late ones, so the browser runs the script — and
/// starts the first paint — without parsing them first.
pub fn page(data: &Value, blocks: &[(Vec<u8>, usize, bool)]) -> String {
    let json = data.to_string().replace("</", "<\\/");
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
                "wrote the page to standard output: {} vertices, {} indices",
                mesh.vertex_count,
                mesh.indices.len()
            );
            return Ok(0);
        }
        output::write_file(out, html.as_bytes(), &all, args.force)?;
        writeln!(
            stdout,
            "wrote {}: {} vertices, {} indices",
            out.display(),
            mesh.vertex_count,
            mesh.indices.len()
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

/// Serves `html` at `/` on 127.0.0.1 until the process is stopped: one blocking connection at
/// a time, GET and HEAD only, `Connection: close`.
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
    // One thread per connection: a browser's idle preconnected socket must not hold up the
    // request behind it.
    let page: Arc<(Vec<u8>, Vec<u8>)> = Arc::new((html.as_bytes().to_vec(), blob.to_vec()));
    for conn in listener.incoming() {
        match conn {
            Ok(stream) => {
                let page = Arc::clone(&page);
                let url = url.clone();
                std::thread::spawn(move || {
                    if let Err(e) = respond(stream, &page.0, &page.1) {
                        eprintln!("warning: {url}: a request failed: {e}");
                    }
                });
            }
            Err(e) => eprintln!("warning: {url}: cannot accept a connection: {e}"),
        }
    }
    Ok(0)
}

fn respond(stream: TcpStream, html: &[u8], blob: &[u8]) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?.take(16 * 1024));
    let mut first = String::new();
    reader.read_line(&mut first)?;
    // Read the header lines, up to the blank line; only `Range` matters.
    let mut range = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("range")
        {
            range = Some(value.trim().to_string());
        }
    }
    let mut parts = first.split_whitespace();
    let method = parts.next().unwrap_or("");
    let path = parts.next().unwrap_or("");
    let (status, body, kind): (&str, &[u8], &str) = match (method, path) {
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
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n{extra}\
         Accept-Ranges: bytes\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        out.write_all(body)?;
    }
    out.flush()
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
