//! `inlay mod`, and the mod paths of `inlay export`, `inlay view` and `inlay import`: a finished
//! 3DMigoto mod (its INI and buffers) read through `inlay::migoto_mod`, written as meshes
//! through `inlay::mesh::modfile`, and edits written back through
//! `inlay::migoto_mod::writeback`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use inlay::mesh::modfile::{self, ModImportOptions, StateParts};
use inlay::mesh::{FileKind, Mesh, Mode};
use inlay::migoto_mod::{LayoutOverride, Mod, ModOptions, writeback};
use serde_json::{Value, json};

use crate::output::AtomicFile;
use crate::{CliError, style};

/// What a mod is read with (`inlay mod`, and `export`/`view` given an INI).
#[derive(Args, Debug, Clone, Default)]
pub struct ModArgs {
    /// With a mod INI: a variable's value, e.g. '$swapvar=1' (repeatable)
    #[arg(long = "set", value_name = "$VAR=VALUE")]
    pub set: Vec<String>,
    /// With a mod INI: the tool family's buffer profile (GIMI, SRMI, ZZMI, HIMI, WWMI, NBP)
    /// instead of detection
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// With a mod INI: the layout of one of its buffers, TARGET=FILE: TARGET a resource
    /// (ResourceBodyPosition or BodyPosition), a role (Position) or a slot (vb0); FILE any
    /// layout file `import` reads (.fmt, C/C++, JSON, TOML, vb .txt) (repeatable)
    #[arg(long = "layout", value_name = "TARGET=FILE")]
    pub layout: Vec<String>,
    /// With a mod INI: every toggle state, not one (`export`: one node per state)
    #[arg(long)]
    pub all_states: bool,
}

/// Show what a 3DMigoto mod draws: parts, buffers, formats, toggles
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay mod Mod.ini
  inlay mod Mod.ini --set '$swapvar=1' --json
  inlay mod Mod.ini --profile GIMI --all-states

One row per drawn part: its section, hash, component (the vertex buffers it draws from, with \
each buffer's slot, stride and element formats), index buffer and range, the vertices it \
reads and the conditions it depends on; then the toggles ([Key…] sections) and the states \
they reach. Formats come from, in this order: a .fmt beside the mod, hash.json beside it with \
the vb0 .txt dump of each component, Metadata.json beside it, --layout, or the built-in \
profile the strides and the INI's shape point to (the evidence is printed). Exit status 1 \
when a part cannot be read (a missing file, a stride that does not divide a file, an index \
past the buffers).")]
pub struct ModCmdArgs {
    /// The mod's INI file
    pub ini: PathBuf,
    #[command(flatten)]
    pub mod_args: ModArgs,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// Whether `path` is an INI file.
pub fn is_ini(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("ini"))
}

fn parse_set(s: &str) -> Result<(String, f32), CliError> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| CliError::usage(format!("--set `{s}`: expected $VAR=VALUE")))?;
    let value = v
        .trim()
        .parse::<f32>()
        .map_err(|_| CliError::usage(format!("--set `{s}`: `{}` is not a number", v.trim())))?;
    Ok((k.trim().to_string(), value))
}

/// Reads the mod at `ini` with `args`; its warnings go to stderr.
pub fn load(ini: &Path, args: &ModArgs) -> Result<Mod, CliError> {
    let mut options = ModOptions {
        profile: args.profile.clone(),
        ..ModOptions::default()
    };
    for s in &args.set {
        options.set.push(parse_set(s)?);
    }
    for l in &args.layout {
        let (target, file) = l
            .split_once('=')
            .ok_or_else(|| CliError::usage(format!("--layout `{l}`: expected TARGET=FILE")))?;
        let path = PathBuf::from(file);
        let (elements, strides, _) = crate::import::read_layout_file(&path, None)?;
        options.layouts.push(LayoutOverride {
            target: target.trim().to_string(),
            elements,
            stride: strides.first().map(|s| s.1),
            source: file.to_string(),
        });
    }
    let m = Mod::load(ini, &options).map_err(|e| CliError::usage(e.to_string()))?;
    let err_style = style::stderr();
    for w in &m.warnings {
        eprintln!("{}: {w}", err_style.warning("warning"));
    }
    Ok(m)
}

/// The mod in each state to show: the loaded one, or (with `all`) every toggle state.
fn states(m: &Mod, all: bool) -> Result<Vec<(Option<String>, Mod)>, CliError> {
    if !all {
        return Ok(vec![(None, m.clone())]);
    }
    let list = m.states().map_err(|e| CliError::usage(e.to_string()))?;
    Ok(list
        .iter()
        .map(|s| (Some(format!("state {s}")), m.with_state(s)))
        .collect())
}

fn elements_text(s: &inlay::migoto_mod::Stream) -> String {
    s.elements
        .iter()
        .map(|e| {
            format!(
                "{}{} {} +{}",
                e.semantic_name.as_deref().unwrap_or("?"),
                e.semantic_index,
                e.format.name().unwrap_or("?"),
                e.aligned_byte_offset
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `inlay mod`.
pub fn run(args: &ModCmdArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let m = load(&args.ini, &args.mod_args)?;
    let all = states(&m, args.mod_args.all_states)?;
    let bad = all.iter().any(|(_, s)| {
        s.parts.iter().any(|p| p.export && p.problem.is_some())
            || s.components.iter().any(|c| c.problem.is_some())
    });
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(CliError::stdout);
    if args.json {
        let mut v = m.report();
        if args.mod_args.all_states {
            v["states"] = json!(all
                .iter()
                .map(|(label, s)| json!({
                    "state": label,
                    "values": s.state.values.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
                    "parts": s.parts.iter().filter(|p| p.export).map(|p| p.name.clone()).collect::<Vec<_>>(),
                }))
                .collect::<Vec<_>>());
        } else {
            v["state_count"] = json!(m.states().map(|s| s.len()).ok());
        }
        w(out, serde_json::to_string_pretty(&v).unwrap_or_default())?;
        return Ok(u8::from(bad));
    }
    let st = style::stdout();
    let drawn = m.parts.iter().filter(|p| p.export).count();
    w(
        out,
        format!(
            "{}: {drawn} parts drawn, {} component(s), {} INI file(s)",
            st.bold(&m.path.display().to_string()),
            m.components.len(),
            m.ini.files.len()
        ),
    )?;
    match &m.profile.name {
        Some(p) => w(out, format!("profile: {p}"))?,
        None => w(out, "profile: none".into())?,
    }
    if !m.profile.candidates.is_empty() {
        w(
            out,
            format!("  candidates: {}", m.profile.candidates.join(", ")),
        )?;
    }
    for e in &m.profile.evidence {
        w(out, format!("  {e}"))?;
    }
    w(out, format!("state: {}", m.state))?;
    for c in &m.components {
        w(out, String::new())?;
        w(
            out,
            format!(
                "component {}: {} vertices",
                st.bold(&c.name),
                c.vertex_count
            ),
        )?;
        if let Some(p) = &c.problem {
            w(out, format!("  {}: {p}", st.error("problem")))?;
            for &r in &c.resources {
                w(out, format!("  {}", m.describe(r)))?;
            }
        }
        for s in &c.streams {
            w(
                out,
                format!(
                    "  {:<5} {:<28} stride {:<3} {} ({} records)",
                    s.slot.as_deref().unwrap_or("-"),
                    m.describe(s.resource),
                    s.stride,
                    s.role.as_deref().unwrap_or("?"),
                    s.vertices
                ),
            )?;
            w(out, format!("        {}", elements_text(s)))?;
            w(out, format!("        layout from {}", s.source))?;
        }
    }
    w(out, String::new())?;
    w(out, "parts:".into())?;
    for p in &m.parts {
        if !p.export {
            continue;
        }
        w(out, format!("  {} ({})", st.bold(&p.name), p.at))?;
        let mut line = Vec::new();
        if let Some(h) = p.hash {
            line.push(format!("hash {h:08x}"));
        }
        if let Some(f) = p.match_first_index {
            line.push(format!("match_first_index {f}"));
        }
        if let Some(c) = p.match_index_count {
            line.push(format!("match_index_count {c}"));
        }
        if let Some(c) = p.component {
            line.push(format!("component {}", m.components[c].name));
        }
        w(out, format!("    {}", line.join(", ")))?;
        let range = if p.indexed {
            format!(
                "indices {}..{} ({}){}{}",
                p.start,
                u64::from(p.start) + u64::from(p.count),
                p.count,
                if p.base_vertex != 0 {
                    format!(", base vertex {}", p.base_vertex)
                } else {
                    String::new()
                },
                match (p.index_buffer, p.index_format) {
                    (Some(r), Some(f)) => format!(" of {} {}", m.describe(r), f.format()),
                    (Some(r), None) => format!(" of {}", m.describe(r)),
                    _ => String::new(),
                }
            )
        } else {
            format!(
                "vertices {}..{} (draw)",
                p.start,
                u64::from(p.start) + u64::from(p.count)
            )
        };
        w(out, format!("    {range}"))?;
        if let Some(i) = &p.inferred {
            w(out, format!("    ({i})"))?;
        }
        if let Some((lo, hi)) = p.vertex_range {
            w(out, format!("    reads vertices {lo}..={hi}"))?;
        }
        if p.instances > 1 {
            w(out, format!("    {} instances", p.instances))?;
        }
        if !p.textures.is_empty() {
            let t: Vec<String> = p.textures.iter().map(|(s, r)| format!("{s} {r}")).collect();
            w(out, format!("    textures {}", t.join(", ")))?;
        }
        w(
            out,
            format!(
                "    condition: {}",
                if p.conditions.is_empty() {
                    "always".to_string()
                } else {
                    p.conditions.join(" and ")
                }
            ),
        )?;
        if let Some(prob) = &p.problem {
            w(out, format!("    {}: {prob}", st.error("problem")))?;
        }
    }
    let skipped: Vec<&inlay::migoto_mod::Part> = m.parts.iter().filter(|p| !p.export).collect();
    if !skipped.is_empty() {
        w(out, "not exported:".into())?;
        for p in skipped {
            w(
                out,
                format!(
                    "  {} ({}): {}",
                    p.name,
                    p.at,
                    p.note.as_deref().unwrap_or("")
                ),
            )?;
        }
    }
    w(out, String::new())?;
    if m.toggles.is_empty() {
        w(out, "toggles: none".into())?;
    } else {
        w(out, "toggles:".into())?;
        for t in &m.toggles {
            let vars: Vec<String> = t
                .vars
                .iter()
                .map(|(v, vals)| {
                    let list: Vec<String> = vals
                        .iter()
                        .map(|x| x.map_or(String::new(), |x| x.to_string()))
                        .collect();
                    format!("{v} = {}", list.join(","))
                })
                .collect();
            w(
                out,
                format!(
                    "  [{}] ({}) key {} {:?}: {}",
                    t.section,
                    t.at,
                    t.keys.join(" / "),
                    t.kind,
                    vars.join("; ")
                ),
            )?;
        }
    }
    match m.states() {
        Ok(s) => {
            w(out, format!("states: {}", s.len()))?;
            if args.mod_args.all_states {
                for (label, sm) in &all {
                    let names: Vec<&str> = sm
                        .parts
                        .iter()
                        .filter(|p| p.export)
                        .map(|p| p.name.as_str())
                        .collect();
                    w(
                        out,
                        format!("  {}: {}", label.as_deref().unwrap_or(""), names.join(", ")),
                    )?;
                }
            } else {
                for x in s.iter().take(32) {
                    w(out, format!("  {x}"))?;
                }
                if s.len() > 32 {
                    w(
                        out,
                        format!("  … {} more (--all-states lists their parts)", s.len() - 32),
                    )?;
                }
            }
        }
        Err(e) => w(out, format!("states: {e}"))?,
    }
    if !m.warnings.is_empty() {
        w(
            out,
            format!("{} warnings (on standard error)", m.warnings.len()),
        )?;
    }
    Ok(u8::from(bad))
}

/// Every file a mod reads (for the output checks).
fn mod_inputs(m: &Mod) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = m.ini.files.iter().map(|f| f.path.clone()).collect();
    v.extend(m.resources.iter().filter_map(|r| r.path.clone()));
    v
}

/// `inlay export Mod.ini --output FILE`.
pub fn export(args: &crate::export::ExportArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    let kind = crate::export::output_kind(args)?;
    if args.source.inputs.len() != 1 {
        return Err(CliError::usage("give one mod INI file"));
    }
    let m = load(&args.source.inputs[0], &args.mod_args)?;
    let all = states(&m, args.mod_args.all_states)?;
    let parts: Vec<StateParts<'_>> = all
        .iter()
        .map(|(label, s)| StateParts {
            label: label.clone(),
            m: s,
        })
        .collect();
    let inputs = mod_inputs(&m);
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let to_stdout = crate::output::is_dash(crate::export::out(args));
    if !to_stdout {
        crate::output::check_destination(crate::export::out(args), &inputs, args.force)?;
    }
    let bin = crate::export::out(args).with_extension("bin");
    if kind == FileKind::Gltf {
        crate::output::check_destination(&bin, &inputs, args.force)?;
    }
    let data_err = |e: inlay::migoto_mod::ModError| CliError::usage(e.to_string());
    let name = crate::output::shown(crate::export::out(args));
    let werr = |e: std::io::Error| CliError::io(format!("cannot write {name}"), e);
    let mut file =
        crate::output::Output::create(Some(crate::export::out(args)), stdout, &inputs, args.force)?;
    let summary = match kind {
        FileKind::Glb | FileKind::Gltf => {
            let scene = modfile::scene(&parts).map_err(data_err)?;
            if kind == FileKind::Glb {
                scene.write_glb(&mut file).map_err(werr)?;
            } else {
                let uri = bin
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or("mod.bin")
                    .to_string();
                let mut b = AtomicFile::create(&bin, &inputs, args.force)?;
                scene.write_gltf(&mut file, &mut b, &uri).map_err(werr)?;
                b.commit()?;
            }
            scene.summary
        }
        FileKind::Obj => modfile::write_obj(&parts, &mut file).map_err(data_err)?,
        FileKind::Ply => modfile::write_ply(&parts, &mut file).map_err(data_err)?,
    };
    file.commit()?;
    let mut stderr = std::io::stderr();
    let stdout = crate::output::report_stream(stdout, &mut stderr, &[crate::export::out(args)]);
    let es = style::stderr();
    for wn in &summary.warnings {
        eprintln!("{}: {wn}", es.warning("warning"));
    }
    for s in &summary.skipped {
        eprintln!("{}: not exported: {s}", es.warning("note"));
    }
    writeln!(
        stdout,
        "wrote {}: {} part nodes{} over {} components, {} vertices, {} triangles{}",
        name,
        summary.parts,
        if summary.meshes > 0 {
            format!(" ({} meshes)", summary.meshes)
        } else {
            String::new()
        },
        summary.components,
        summary.vertices,
        summary.triangles,
        if all.len() > 1 {
            format!(", {} states", all.len())
        } else {
            String::new()
        }
    )
    .map_err(CliError::stdout)?;
    Ok(0)
}

/// `inlay view Mod.ini`: the page's mesh (one component: every vertex, the triangles of every
/// part over the states shown) and the `mod` object the page's part list reads.
pub fn view_data(
    source: &crate::draw_source::MeshSourceArgs,
    args: &ModArgs,
    component: Option<&str>,
) -> Result<(crate::draw_source::Loaded, Value), CliError> {
    let m = load(&source.inputs[0], args)?;
    let all = states(&m, true).unwrap_or_else(|_| vec![(None, m.clone())]);
    let usable: Vec<usize> = m
        .components
        .iter()
        .enumerate()
        .filter(|(_, c)| c.problem.is_none())
        .map(|(i, _)| i)
        .collect();
    let ci = match component {
        Some(name) => m
            .components
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                CliError::usage(format!(
                    "--component {name}: the mod's components are {}",
                    m.components
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?,
        None => *usable.first().ok_or_else(|| {
            CliError::usage(format!(
                "no component of the mod can be read: {}",
                m.components
                    .iter()
                    .map(|c| format!("{}: {}", c.name, c.problem.as_deref().unwrap_or("")))
                    .collect::<Vec<_>>()
                    .join("; ")
            ))
        })?,
    };
    let (mut mesh, _): (Mesh, _) =
        modfile::component_mesh(&m, ci, &[]).map_err(|e| CliError::usage(e.to_string()))?;
    let resources = m.components[ci].resources.clone();
    // Distinct parts over every state.
    let mut parts: Vec<Value> = Vec::new();
    let mut keys: Vec<(String, u32, u32, i32)> = Vec::new();
    let mut state_list = Vec::new();
    let names = inlay::migoto_mod::part_names(&all.iter().map(|(_, s)| s).collect::<Vec<_>>());
    for (si, (label, s)) in all.iter().enumerate() {
        let mut here = Vec::new();
        for (pi, p) in s.parts.iter().enumerate() {
            let Some(pc) = p.component else { continue };
            if !p.export || s.components[pc].resources != resources {
                continue;
            }
            let key = (p.name.clone(), p.start, p.count, p.base_vertex);
            let id = match keys.iter().position(|k| *k == key) {
                Some(i) => i,
                None => {
                    let list = match modfile::part_vertices(s, pi) {
                        Ok(l) => l,
                        Err(e) => {
                            eprintln!("{}: {e}", style::stderr().warning("warning"));
                            continue;
                        }
                    };
                    let whole = list.len() - list.len() % 3;
                    let first = mesh.indices.len();
                    mesh.indices.extend_from_slice(&list[..whole]);
                    keys.push(key);
                    parts.push(json!({
                        "name": names[si][pi],
                        "at": p.at.to_string(),
                        "first": first,
                        "count": whole,
                        "conditions": p.conditions,
                        "vertex_range": p.vertex_range,
                    }));
                    keys.len() - 1
                }
            };
            here.push(id);
        }
        state_list.push(json!({"label": label.clone().unwrap_or_else(|| format!("state {}", s.state)), "parts": here}));
    }
    mesh.mode = Mode::Triangles;
    let slots = m.components[ci]
        .streams
        .iter()
        .enumerate()
        .map(|(k, s)| crate::draw_source::SlotBytes {
            slot: k as u32,
            bytes: m.buffer(s.resource).map(<[u8]>::to_vec),
            file: m.describe(s.resource),
        })
        .collect();
    let loaded = crate::draw_source::Loaded {
        mesh,
        inputs: mod_inputs(&m),
        slots,
    };
    let data = json!({
        "ini": m.path.display().to_string(),
        "component": m.components[ci].name,
        "components": m.components.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
        "profile": m.profile.name,
        "parts": parts,
        "states": state_list,
        "toggles": m.toggles.iter().map(|t| json!({
            "section": t.section,
            "keys": t.keys,
            "type": format!("{:?}", t.kind).to_ascii_lowercase(),
            "vars": t.vars.iter().map(|(v, vals)| json!({"var": v, "values": vals})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    Ok((loaded, data))
}

/// `inlay import edited.glb --mod Mod.ini --output-dir DIR`.
pub fn import(args: &crate::import::ImportArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    let ini = args.mod_ini.as_ref().expect("checked by the caller");
    let mod_args = ModArgs {
        set: args.set.clone(),
        profile: args.profile.clone(),
        layout: args.layout.clone(),
        all_states: false,
    };
    let m = load(ini, &mod_args)?;
    // The exported states first (their parts' names are the nodes'), then every other state,
    // whose parts keep their vertices.
    let mut all: Vec<Mod> = states(&m, args.all_states)?
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    match m.states() {
        Ok(list) => {
            for s in list {
                if !all.iter().any(|x| x.state == s) {
                    all.push(m.with_state(&s));
                }
            }
        }
        Err(e) => eprintln!(
            "{}: only the exported state's parts are kept: {e}",
            style::stderr().warning("warning")
        ),
    }
    let refs: Vec<&Mod> = all.iter().collect();
    let (bytes, mut external) = crate::import::read_gltf_file(&args.mesh)?;
    let name = args.mesh.display().to_string();
    let imp = modfile::import_mod(
        &refs,
        &name,
        &bytes,
        &mut external,
        &ModImportOptions {
            rounding: args.rounding,
        },
    )
    .map_err(|e| CliError::usage(e.to_string()))?;
    let m = &all[0];
    let es = style::stderr();
    for wn in &imp.warnings {
        eprintln!("{}: {wn}", es.warning("warning"));
    }
    let written =
        writeback::write_back(m, &all, &imp.edits).map_err(|e| CliError::usage(e.to_string()))?;
    for wn in &written.warnings {
        eprintln!("{}: {wn}", es.warning("warning"));
    }
    let inputs = mod_inputs(m);
    let mut inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    inputs.push(args.mesh.as_path());
    std::fs::create_dir_all(&args.output_dir)
        .map_err(|e| CliError::io(format!("cannot create {}", args.output_dir.display()), e))?;
    let dests: Vec<PathBuf> = written
        .files
        .iter()
        .map(|f| args.output_dir.join(&f.name))
        .collect();
    for d in &dests {
        crate::output::check_destination(d, &inputs, args.force)?;
    }
    for (f, d) in written.files.iter().zip(&dests) {
        if let Some(parent) = d.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| CliError::io(format!("cannot create {}", parent.display()), e))?;
        }
        let mut file = AtomicFile::create(d, &inputs, args.force)?;
        file.write_all(&f.bytes)
            .map_err(|e| CliError::io(format!("cannot write {}", d.display()), e))?;
        file.commit()?;
    }
    for line in &imp.report {
        writeln!(stdout, "{line}").map_err(CliError::stdout)?;
    }
    for (at, old, new) in &written.ini_edits {
        writeln!(stdout, "{at}: {old} -> {new}").map_err(CliError::stdout)?;
    }
    let changed = written.files.iter().filter(|f| f.changed).count();
    writeln!(
        stdout,
        "wrote {} files to {} ({changed} changed, {} byte-identical)",
        written.files.len(),
        args.output_dir.display(),
        written.files.len() - changed
    )
    .map_err(CliError::stdout)?;
    Ok(0)
}
