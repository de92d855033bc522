//! Finished 3DMigoto mods (feature `mod`): an INI and its buffer files read as the parts they
//! draw, each with its vertex buffers' layouts, index range and the conditions it depends on,
//! and edits written back into the same mod.
//!
//! The INI is read as 3DMigoto reads it ([`ini`], [`commands`], [`expr`]: its `IniHandler.cpp`
//! and `CommandList.cpp` are the ground truth), then run offline for one state ([`eval`]):
//! `[Constants]`, the chosen values of the toggled variables (`[Key…]` sections, or
//! [`ModOptions::set`]), `[Present]`, then each draw context — the `[TextureOverride…]`
//! sections sharing a `hash`, once per draw their `match_first_index`/`match_index_count` tell
//! apart. Each draw command (`drawindexed`, `draw`, `drawindexedinstanced`, …) and each game
//! draw that a context changes the index buffer of without `handling = skip` becomes a
//! [`Part`]. Anything the reader does not understand is a [`ModWarning`] naming the file and
//! line.
//!
//! Vertex buffers are grouped into [`Component`]s — the buffers of one vertex set, which the
//! tools split by attribute (`Position`, `Blend`, `Texcoord`, …) and bind in different passes:
//! buffers bound at the same draw, buffers whose resource names differ only by their role
//! ending, and buffers whose hashes `hash.json` lists for one component belong together. A part
//! draws from the component its own draw binds, else the one `hash.json` gives its hash, else
//! the one whose name its section name starts with.
//!
//! The INI does not say the buffers' element formats. They come from, in this order:
//! [`ModOptions::layouts`] (the user's `--layout`), the files beside the mod ([`beside`]: a
//! `.fmt` whose stride is the component's buffers' strides together, split at them;
//! `Metadata.json`), and the built-in [`profile`]s of the tool families — named
//! ([`ModOptions::profile`]) or detected from the strides and the INI's shape, with the
//! evidence kept in [`ProfileChoice`]; detection refuses to choose between candidates that
//! disagree.

// Parsers of untrusted text: no unsafe code.
#![forbid(unsafe_code)]

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::buffer::IndexFormat;
use crate::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use crate::format::Format;

pub mod beside;
pub mod commands;
pub mod eval;
pub mod expr;
pub mod ini;
pub mod profile;
pub mod writeback;

use commands::DrawCmd;
use eval::{Bound, Evaluated, Program};
use ini::Ini;

/// Largest buffer file read (1 GiB, as for dumps).
pub const MAX_BUFFER_BYTES: u64 = crate::capture::MAX_FILE_BYTES;

/// A place in the mod's files: a file name and, when there is one, a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Where {
    /// The file, as named in messages.
    pub file: String,
    /// The line.
    pub line: Option<usize>,
}

impl Where {
    /// A whole file.
    pub fn file(name: &str) -> Where {
        Where {
            file: name.to_string(),
            line: None,
        }
    }
}

impl fmt::Display for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}", self.file),
            None => f.write_str(&self.file),
        }
    }
}

fn render(at: &Where, value: &Option<String>, message: &str) -> String {
    let mut s = format!("{at}: {message}");
    if let Some(v) = value {
        let v: String = if v.chars().count() > 80 {
            v.chars().take(77).chain("...".chars()).collect()
        } else {
            v.clone()
        };
        s.push_str(&format!(" (`{v}`)"));
    }
    s
}

/// Why a mod could not be read or written: where, the value and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", render(at, value, message))]
pub struct ModError {
    /// The file and line.
    pub at: Where,
    /// The offending value.
    pub value: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl ModError {
    /// An error at `at`.
    pub fn new(at: Where, value: Option<String>, message: impl Into<String>) -> ModError {
        ModError {
            at,
            value,
            message: message.into(),
        }
    }
}

/// Something the reader did not understand or doubts; never silent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModWarning {
    /// The file and line.
    pub at: Where,
    /// The offending text or value.
    pub value: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl ModWarning {
    /// A warning at `at`.
    pub fn new(at: Where, value: Option<String>, message: impl Into<String>) -> ModWarning {
        ModWarning {
            at,
            value,
            message: message.into(),
        }
    }
}

impl fmt::Display for ModWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render(&self.at, &self.value, &self.message))
    }
}

/// A `[Resource…]` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// Section name.
    pub name: String,
    /// Its header.
    pub at: Where,
    /// `type`.
    pub kind: Option<String>,
    /// `stride`.
    pub stride: Option<u32>,
    /// `format`.
    pub format: Option<Format>,
    /// `filename` as written.
    pub filename: Option<String>,
    /// The `filename` line.
    pub filename_at: Option<Where>,
    /// The file, relative to the INI that names it.
    pub path: Option<PathBuf>,
    /// The namespace of its INI file.
    pub namespace: String,
    /// Index of its INI file.
    pub file: usize,
}

impl Resource {
    /// The name without its `Resource` prefix (and namespace).
    pub fn short_name(&self) -> &str {
        let n = self.name.rsplit('\\').next().unwrap_or(&self.name);
        if n.get(..8)
            .is_some_and(|p| p.eq_ignore_ascii_case("resource"))
        {
            &n[8..]
        } else {
            n
        }
    }
}

/// A global variable of `[Constants]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Name, lower case (`$swapvar`, `$\namespace\var` for included files).
    pub name: String,
    /// Initial value.
    pub initial: f32,
    /// `persist`.
    pub persist: bool,
    /// Declaration.
    pub at: Where,
}

/// A `[Key…]` section's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToggleKind {
    /// `activate` (the default): sets the values when pressed.
    Activate,
    /// `hold`: while held.
    Hold,
    /// `toggle`: on and off.
    Toggle,
    /// `cycle`: steps through lists of values.
    Cycle,
}

/// A `[Key…]` section: a key that changes variables.
#[derive(Clone, Debug, PartialEq)]
pub struct Toggle {
    /// Section name.
    pub section: String,
    /// Its header.
    pub at: Where,
    /// `key =` / `back =` bindings.
    pub keys: Vec<String>,
    /// `type`.
    pub kind: ToggleKind,
    /// Variables and their values (a list for cycles; `None`: a blank entry, unchanged).
    pub vars: Vec<(String, Vec<Option<f32>>)>,
    /// `condition`.
    pub condition: Option<String>,
}

/// Values of the toggled (or set) variables: one state of the mod.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    /// `(variable, value)`, by variable name.
    pub values: Vec<(String, f32)>,
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.values.is_empty() {
            return f.write_str("(no toggles)");
        }
        let parts: Vec<String> = self
            .values
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

/// One buffer of a component with its layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    /// Index into [`Mod::resources`].
    pub resource: usize,
    /// Its role (`Position`, `Blend`, …), when known.
    pub role: Option<String>,
    /// The slot it is bound to (`vb0`, `cs-t6`, …).
    pub slot: Option<String>,
    /// Record size.
    pub stride: u32,
    /// Elements, `input_slot` the stream's position in [`Component::streams`].
    pub elements: Vec<InputElementDesc>,
    /// Records in the file.
    pub vertices: u32,
    /// Where the layout came from.
    pub source: String,
}

/// The buffers of one vertex set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Name (the common part of its resources' names).
    pub name: String,
    /// Its buffer resources.
    pub resources: Vec<usize>,
    /// The buffers with layouts (empty when [`Component::problem`] is set).
    pub streams: Vec<Stream>,
    /// Vertices (the smallest record count of its buffers).
    pub vertex_count: u32,
    /// Why its layout is not known.
    pub problem: Option<String>,
}

/// One draw of the mod.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Name: the section that defines the draw's context, `#n` added when it draws several times.
    pub name: String,
    /// The section holding the draw command (or defining the game's draw).
    pub section: String,
    /// The draw command's line.
    pub at: Where,
    /// The context's hash.
    pub hash: Option<u32>,
    /// `match_first_index` of the context.
    pub match_first_index: Option<u32>,
    /// `match_index_count` of the context.
    pub match_index_count: Option<u32>,
    /// Index into [`Mod::components`].
    pub component: Option<usize>,
    /// The index buffer's resource.
    pub index_buffer: Option<usize>,
    /// Its format.
    pub index_format: Option<IndexFormat>,
    /// Indexed draw.
    pub indexed: bool,
    /// Start index (indexed) or start vertex.
    pub start: u32,
    /// Index (or vertex) count.
    pub count: u32,
    /// Base vertex (indexed).
    pub base_vertex: i32,
    /// Instances.
    pub instances: u32,
    /// How `start`/`count` were found when the INI does not state them.
    pub inferred: Option<String>,
    /// The conditions the draw depends on.
    pub conditions: Vec<String>,
    /// Texture slots bound: (slot, resource name).
    pub textures: Vec<(String, String)>,
    /// Smallest and largest vertex the draw reads.
    pub vertex_range: Option<(u32, u32)>,
    /// Whether the part is mesh data to export.
    pub export: bool,
    /// Why it is not exported.
    pub note: Option<String>,
    /// What is wrong with it (a bad index, a missing file, an unknown layout).
    pub problem: Option<String>,
    /// Spans of the literal count and start arguments (file, start, end).
    pub count_span: Option<(usize, usize, usize)>,
    /// Span of the start argument.
    pub start_span: Option<(usize, usize, usize)>,
}

/// Which profile gave the formats, and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfileChoice {
    /// The profile used.
    pub name: Option<String>,
    /// Why: strides that fit, shape rules seen.
    pub evidence: Vec<String>,
    /// Every profile that fits the strides.
    pub candidates: Vec<String>,
}

/// A layout for some of a mod's buffers given by the user (`--layout TARGET=FILE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutOverride {
    /// What it applies to: a resource name (with or without `Resource`), a role, or a slot
    /// (`vb0`).
    pub target: String,
    /// Elements (offsets from the record start).
    pub elements: Vec<InputElementDesc>,
    /// The stride the file states.
    pub stride: Option<u32>,
    /// The file, for the evidence.
    pub source: String,
}

/// How to read a mod.
#[derive(Clone, Debug, Default)]
pub struct ModOptions {
    /// Variables to set (`--set '$swapvar=1'`), applied over the defaults.
    pub set: Vec<(String, f32)>,
    /// The profile to use instead of detection.
    pub profile: Option<String>,
    /// Layouts for given buffers.
    pub layouts: Vec<LayoutOverride>,
}

/// A mod read for one state.
#[derive(Clone, Debug)]
pub struct Mod {
    /// The main INI file.
    pub path: PathBuf,
    /// The INI files and their sections.
    pub ini: Ini,
    /// `[Resource…]` sections.
    pub resources: Vec<Resource>,
    /// Globals.
    pub variables: Vec<Variable>,
    /// `[Key…]` sections.
    pub toggles: Vec<Toggle>,
    /// The state the parts are for.
    pub state: State,
    /// Vertex sets.
    pub components: Vec<Component>,
    /// Draws.
    pub parts: Vec<Part>,
    /// The profile used.
    pub profile: ProfileChoice,
    /// Everything doubted, with file and line.
    pub warnings: Vec<ModWarning>,
    /// Every binding the run for [`Mod::state`] saw (slot, resource, section, the hash of
    /// its context): which overrides' hashes bind which buffers, for `inlay diff`.
    pub binds: Vec<eval::SeenBind>,
    program: Program,
    beside: beside::Beside,
    buffers: HashMap<usize, Arc<Vec<u8>>>,
    options: ModOptions,
    on_disk: bool,
}

/// A part's draw, ready for the input assembler: its component's buffers and layout, its
/// index buffer and draw.
#[derive(Clone, Debug)]
pub struct PartInput<'a> {
    /// Elements (slot = stream position).
    pub elements: Vec<InputElementDesc>,
    /// Per stream: (slot, stride, bytes, file name).
    pub slots: Vec<(u32, u32, &'a [u8], String)>,
    /// Index buffer: (format, bytes, file name).
    pub index: Option<(IndexFormat, &'a [u8], String)>,
    /// The draw.
    pub draw: crate::assembler::DrawCall<'static>,
}

impl Mod {
    /// Reads the mod whose main INI is `path`, with its included files, buffers and the files
    /// beside it, for the default state with [`ModOptions::set`] applied.
    ///
    /// ```no_run
    /// use inlay::migoto_mod::{Mod, ModOptions};
    /// let m = Mod::load("Mona.ini".as_ref(), &ModOptions::default()).unwrap();
    /// for p in &m.parts {
    ///     println!("{} draws {} indices from {}", p.name, p.count, p.start);
    /// }
    /// for w in &m.warnings { eprintln!("warning: {w}"); }
    /// ```
    pub fn load(path: &Path, options: &ModOptions) -> Result<Mod, ModError> {
        let mut warnings = Vec::new();
        let ini = ini::read(path, &mut warnings)?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let side = beside::read_dir(
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                &dir
            },
            &mut warnings,
        )?;
        Mod::build(path.to_path_buf(), ini, side, options, warnings, true)
    }

    /// Reads INI text that is not on disk (no buffers, no included files): what it draws,
    /// without layouts. For inspection and fuzzing.
    pub fn parse_bytes(name: &str, bytes: &[u8], options: &ModOptions) -> Result<Mod, ModError> {
        let mut warnings = Vec::new();
        let ini = ini::parse_bytes(name, bytes, &mut warnings)?;
        Mod::build(
            PathBuf::from(name),
            ini,
            beside::Beside::default(),
            options,
            warnings,
            false,
        )
    }

    fn build(
        path: PathBuf,
        ini: Ini,
        side: beside::Beside,
        options: &ModOptions,
        mut warnings: Vec<ModWarning>,
        on_disk: bool,
    ) -> Result<Mod, ModError> {
        let program = eval::program(&ini, &mut warnings);
        for c in &ini.conditions {
            warnings.push(ModWarning::new(
                ini.at(c),
                Some(c.value.clone()),
                "a file `condition` is evaluated by 3DMigoto when it includes the file; read here as true",
            ));
        }
        if on_disk {
            for r in &program.resources {
                if let (Some(p), Some(at)) = (&r.path, &r.filename_at)
                    && !p.is_file()
                {
                    // A pipe or device is named as such (it is never opened).
                    let what = std::fs::metadata(p).ok().map(|m| {
                        crate::input::special_file_kind(m.file_type()).unwrap_or("a folder")
                    });
                    warnings.push(ModWarning::new(
                        at.clone(),
                        r.filename.clone(),
                        match what {
                            Some(what) => format!("[{}]: {what}, not a file; not read", r.name),
                            None => format!("[{}]: file not found", r.name),
                        },
                    ));
                }
            }
        }
        let mut m = Mod {
            path,
            resources: program.resources.clone(),
            variables: program.globals.clone(),
            toggles: program.toggles.clone(),
            state: eval::default_state(&program),
            components: Vec::new(),
            parts: Vec::new(),
            profile: ProfileChoice::default(),
            warnings,
            binds: Vec::new(),
            program,
            beside: side,
            buffers: HashMap::new(),
            options: options.clone(),
            on_disk,
            ini,
        };
        let mut state = m.state.clone();
        for (var, value) in &options.set {
            let key = m.variable_key(var).ok_or_else(|| {
                ModError::new(
                    Where::file(&m.ini.files[0].name),
                    Some(var.clone()),
                    "--set names a variable the mod does not declare (`global $name` in [Constants])",
                )
            })?;
            state.values.retain(|(k, _)| k != &key);
            state.values.push((key, *value));
        }
        state.values.sort_by(|a, b| a.0.cmp(&b.0));
        m.evaluate(state);
        Ok(m)
    }

    fn variable_key(&self, var: &str) -> Option<String> {
        let v = var.trim().to_ascii_lowercase();
        let v = if v.starts_with('$') {
            v
        } else {
            format!("${v}")
        };
        self.variables
            .iter()
            .find(|g| g.name == v)
            .map(|g| g.name.clone())
    }

    /// The same mod for another state (a [`Mod::states`] entry, or values of your own).
    pub fn with_state(&self, state: &State) -> Mod {
        let mut m = self.clone();
        m.warnings.clear();
        m.evaluate(state.clone());
        m
    }

    /// Every state the toggles reach (the default first), or an error when there are more
    /// than [`eval::MAX_STATES`].
    pub fn states(&self) -> Result<Vec<State>, ModError> {
        eval::all_states(&self.program).map_err(|n| {
            ModError::new(
                Where::file(&self.ini.files[0].name),
                Some(n.to_string()),
                format!(
                    "the toggles reach more than {} states; choose one with --set",
                    eval::MAX_STATES
                ),
            )
        })
    }

    /// The bytes of a resource's file, when it was read.
    pub fn buffer(&self, resource: usize) -> Option<&[u8]> {
        self.buffers.get(&resource).map(|b| b.as_slice())
    }

    /// A resource's file name for messages (`ResourceX (file.buf)`).
    pub fn describe(&self, resource: usize) -> String {
        let r = &self.resources[resource];
        match &r.filename {
            Some(f) => format!("{} ({f})", r.name),
            None => r.name.clone(),
        }
    }

    fn load_buffer(&mut self, r: usize) -> Result<(), String> {
        if self.buffers.contains_key(&r) {
            return Ok(());
        }
        let res = &self.resources[r];
        let Some(path) = &res.path else {
            return Err(format!("{} has no `filename`", res.name));
        };
        if !self.on_disk {
            return Err("buffers are not read for INI text given in memory".into());
        }
        let name = res.filename.clone().unwrap_or_default();
        let bytes = crate::input::read_file(path, MAX_BUFFER_BYTES).map_err(|e| match e {
            crate::input::ReadError::TooLarge { size, .. } => format!(
                "{}: {name} is {} bytes, larger than the {MAX_BUFFER_BYTES}-byte limit",
                res.name,
                size.map_or("more".to_string(), |n| n.to_string())
            ),
            crate::input::ReadError::Io { source, .. } => {
                format!("{}: cannot read {name}: {source}", res.name)
            }
            e => format!("{}: {name}: {}", res.name, crate::capture::why_unread(&e)),
        })?;
        self.buffers.insert(r, Arc::new(bytes));
        Ok(())
    }

    fn evaluate(&mut self, state: State) {
        self.state = state;
        let forced = self.options.profile.clone();
        let mut assume: Vec<(String, f32)> = Vec::new();
        if let Some(name) = &forced {
            match profile::profile(name) {
                Some(p) => assume = self.assumes(p),
                None => self.warnings.push(ModWarning::new(
                    Where::file(&self.ini.files[0].name),
                    Some(name.clone()),
                    format!(
                        "no such profile (built in: {})",
                        profile::profiles()
                            .iter()
                            .map(|p| p.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        }
        let mut warnings = Vec::new();
        let mut ev = eval::run(
            &self.ini,
            &self.program,
            &self.state,
            &assume,
            &mut warnings,
        );
        self.assemble(&ev);
        if forced.is_none()
            && let Some(p) = self.profile.name.as_deref().and_then(profile::profile)
            && !p.assume.is_empty()
        {
            let assume = self.assumes(p);
            if !assume.is_empty() {
                warnings.clear();
                ev = eval::run(
                    &self.ini,
                    &self.program,
                    &self.state,
                    &assume,
                    &mut warnings,
                );
                self.assemble(&ev);
            }
        }
        self.binds = ev.binds;
        self.warnings.extend(warnings);
    }

    fn assumes(&self, p: &profile::Profile) -> Vec<(String, f32)> {
        p.assume
            .iter()
            .filter_map(|a| self.variable_key(&a.var).map(|k| (k, a.value)))
            .filter(|(k, _)| {
                !self
                    .options
                    .set
                    .iter()
                    .any(|(s, _)| s.eq_ignore_ascii_case(k))
            })
            .collect()
    }

    /// Components, formats and parts from a run.
    fn assemble(&mut self, ev: &Evaluated) {
        let role_names = profile::role_names();
        let key_of = |r: &Resource| -> String {
            let short = r.short_name();
            let lower = short.to_ascii_lowercase();
            for rn in &role_names {
                let rn = rn.to_ascii_lowercase();
                if lower.ends_with(&rn) {
                    return short[..short.len() - rn.len()].to_string();
                }
            }
            short.to_string()
        };
        // Stream resources: bound to a vertex-buffer slot, or named like a profile's buffer
        // and bound to a shader slot.
        let mut streams: Vec<usize> = Vec::new();
        let mut slot_of: HashMap<usize, String> = HashMap::new();
        let mut ibs: Vec<usize> = Vec::new();
        for b in &ev.binds {
            let r = &self.resources[b.resource];
            let is_vb = b.slot.starts_with("vb");
            let named = role_names.iter().any(|n| {
                let s = r.short_name().to_ascii_lowercase();
                s.ends_with(&n.to_ascii_lowercase())
            });
            if b.slot == "ib" {
                if !ibs.contains(&b.resource) {
                    ibs.push(b.resource);
                }
                continue;
            }
            if (is_vb
                || (named
                    && !b.slot.starts_with("resource")
                    && b.slot.len() > 3
                    && &b.slot[2..3] == "-"))
                && r.filename.is_some()
                && !streams.contains(&b.resource)
            {
                streams.push(b.resource);
                slot_of.entry(b.resource).or_insert_with(|| b.slot.clone());
            }
        }
        // Union-find over stream resources.
        let mut parent: HashMap<usize, usize> = streams.iter().map(|&r| (r, r)).collect();
        fn find(parent: &mut HashMap<usize, usize>, x: usize) -> usize {
            let mut r = x;
            while let Some(&p) = parent.get(&r) {
                if p == r {
                    break;
                }
                r = p;
            }
            parent.insert(x, r);
            r
        }
        let union = |parent: &mut HashMap<usize, usize>, a: usize, b: usize| {
            let (ra, rb) = (find(parent, a), find(parent, b));
            if ra != rb {
                parent.insert(ra.max(rb), ra.min(rb));
            }
        };
        for d in &ev.draws {
            let bound: Vec<usize> =
                d.vb.values()
                    .filter_map(|b| match b {
                        Bound::Res(r) if parent.contains_key(r) => Some(*r),
                        _ => None,
                    })
                    .collect();
            for w in bound.windows(2) {
                union(&mut parent, w[0], w[1]);
            }
        }
        for (i, &a) in streams.iter().enumerate() {
            for &b in &streams[i + 1..] {
                if key_of(&self.resources[a]).eq_ignore_ascii_case(&key_of(&self.resources[b])) {
                    union(&mut parent, a, b);
                }
            }
        }
        let mut hash_role: HashMap<usize, String> = HashMap::new();
        let mut hash_comp: HashMap<usize, usize> = HashMap::new();
        if let Some((_, comps)) = &self.beside.hash_json {
            for (ci, c) in comps.iter().enumerate() {
                let mut members = Vec::new();
                for b in &ev.binds {
                    if !parent.contains_key(&b.resource) {
                        continue;
                    }
                    let role = if b.hash.is_some() && b.hash == c.position_vb {
                        "Position"
                    } else if b.hash.is_some() && b.hash == c.blend_vb {
                        "Blend"
                    } else if b.hash.is_some() && b.hash == c.texcoord_vb {
                        "Texcoord"
                    } else if b.hash.is_some() && b.hash == c.draw_vb {
                        "Draw"
                    } else {
                        continue;
                    };
                    // In the skinning pass a Blend section also binds Position.
                    let name_role = self.resources[b.resource].short_name().to_ascii_lowercase();
                    let role = if name_role.ends_with("position") {
                        "Position"
                    } else {
                        role
                    };
                    hash_role
                        .entry(b.resource)
                        .or_insert_with(|| role.to_string());
                    hash_comp.insert(b.resource, ci);
                    members.push(b.resource);
                }
                for w in members.windows(2) {
                    union(&mut parent, w[0], w[1]);
                }
            }
        }
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &r in &streams {
            let root = find(&mut parent, r);
            groups.entry(root).or_default().push(r);
        }
        let mut components: Vec<Component> = groups
            .into_values()
            .map(|res| {
                let keys: Vec<String> = res.iter().map(|&r| key_of(&self.resources[r])).collect();
                let mut name = keys
                    .iter()
                    .min_by_key(|k| k.len())
                    .cloned()
                    .unwrap_or_default();
                if let Some(ci) = res.iter().find_map(|r| hash_comp.get(r))
                    && let Some((_, comps)) = &self.beside.hash_json
                    && !comps[*ci].name.is_empty()
                {
                    name = comps[*ci].name.clone();
                }
                if name.is_empty() {
                    name = self.resources[res[0]].short_name().to_string();
                }
                Component {
                    name,
                    resources: res,
                    streams: Vec::new(),
                    vertex_count: 0,
                    problem: None,
                }
            })
            .collect();
        // Buffers.
        let needed: Vec<usize> = streams.iter().chain(ibs.iter()).copied().collect();
        let mut missing: HashMap<usize, String> = HashMap::new();
        for r in needed {
            if let Err(e) = self.load_buffer(r) {
                missing.insert(r, e);
            }
        }
        // Formats.
        let choice = self.choose_profile(&components, &slot_of, &hash_role, &hash_comp, ev);
        self.profile = choice.0.clone();
        for c in components.iter_mut() {
            if let Some(r) = c.resources.iter().find(|r| missing.contains_key(r)) {
                c.problem = Some(missing[r].clone());
                continue;
            }
            let hash_ci = c.resources.iter().find_map(|r| hash_comp.get(r).copied());
            match self.resolve(c, choice.1.as_ref(), &slot_of, &hash_role, hash_ci) {
                Ok((streams, n)) => {
                    c.streams = streams;
                    c.vertex_count = n;
                }
                Err(e) if choice.1.is_none() && choice.0.candidates.is_empty() => {
                    // No profile fits: say why each does not.
                    let why: Vec<&str> = choice
                        .0
                        .evidence
                        .iter()
                        .filter(|x| x.contains(" does not fit: "))
                        .map(String::as_str)
                        .collect();
                    // A file beside the mod that does not fit fails every profile alike:
                    // say that once.
                    let same = format!(" does not fit: {e}");
                    c.problem = Some(
                        if why.is_empty() || why.iter().all(|w| w.ends_with(&same)) {
                            e
                        } else {
                            format!("no built-in profile fits its buffers: {}", why.join("; "))
                        },
                    );
                }
                Err(e) => c.problem = Some(e),
            }
        }
        self.components = components;
        self.parts = self.make_parts(ev, &missing, &hash_comp);
    }

    /// The role of a stream resource under profile `p`.
    fn role(
        &self,
        r: usize,
        p: Option<&profile::Profile>,
        hash_role: &HashMap<usize, String>,
    ) -> Option<String> {
        if let Some(role) = hash_role.get(&r) {
            return Some(role.clone());
        }
        let short = self.resources[r].short_name().to_string();
        let rows: Vec<&profile::BufferRow> = match p {
            Some(p) => p.buffers.iter().collect(),
            None => profile::profiles()
                .iter()
                .flat_map(|p| p.buffers.iter())
                .collect(),
        };
        rows.iter()
            .filter(|b| b.names_match(&short))
            .max_by_key(|b| b.names.iter().map(|n| n.len()).max().unwrap_or(0))
            .map(|b| b.role.clone())
    }

    fn file_size(&self, r: usize) -> Option<u64> {
        self.buffers.get(&r).map(|b| b.len() as u64)
    }

    /// Streams of a component resolved, in this order, through the files beside the mod (a
    /// `.fmt`, then `hash.json` with its dump, then `Metadata.json`), the user's `--layout`s
    /// and profile `p`. `hash_ci` is the component's entry in `hash.json`, when its hashes
    /// matched.
    fn resolve(
        &self,
        c: &Component,
        p: Option<&profile::Profile>,
        slot_of: &HashMap<usize, String>,
        hash_role: &HashMap<usize, String>,
        hash_ci: Option<usize>,
    ) -> Result<(Vec<Stream>, u32), String> {
        let order = |role: &Option<String>| -> usize {
            match role.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("position") => 0,
                Some("blend") => 1,
                Some("vector") => 2,
                Some("color") => 3,
                Some("texcoord") => 4,
                Some(_) => 5,
                None => 6,
            }
        };
        let mut res: Vec<(usize, Option<String>)> = c
            .resources
            .iter()
            .map(|&r| (r, self.role(r, p, hash_role)))
            .collect();
        res.sort_by(|a, b| {
            order(&a.1)
                .cmp(&order(&b.1))
                .then_with(|| slot_of.get(&a.0).cmp(&slot_of.get(&b.0)))
                .then_with(|| self.resources[a.0].name.cmp(&self.resources[b.0].name))
        });
        let mut layouts: Vec<Option<(Vec<InputElementDesc>, u32, String)>> = vec![None; res.len()];
        // 1. A .fmt beside the mod: the merged record, split at the buffers' strides.
        let strides: Vec<Option<u32>> =
            res.iter().map(|(r, _)| self.resources[*r].stride).collect();
        if layouts.iter().any(Option::is_none) && strides.iter().all(Option::is_some) {
            let total: u32 = strides.iter().map(|s| s.unwrap_or(0)).sum();
            let key = c.name.to_ascii_lowercase();
            let mut fmts: Vec<&(String, crate::capture::fmt::FmtFile)> = self
                .beside
                .fmts
                .iter()
                .filter(|(_, f)| f.strides.len() == 1 && f.strides[0].1 == total)
                .collect();
            fmts.sort_by_key(|(n, _)| !n.to_ascii_lowercase().starts_with(&key));
            if let Some((name, f)) = fmts.first() {
                let elements = resolve_offsets(&f.elements);
                let mut start = 0u32;
                let mut split: Vec<Vec<InputElementDesc>> = vec![Vec::new(); res.len()];
                for (k, s) in strides.iter().enumerate() {
                    let s = s.unwrap_or(0);
                    for e in &elements {
                        let size = e.format.info().map_or(0, |i| i.byte_size());
                        if e.aligned_byte_offset >= start && e.aligned_byte_offset < start + s {
                            if e.aligned_byte_offset + size > start + s {
                                return Err(format!(
                                    "{name}: element {} runs across the boundary of {} at byte {}",
                                    e.semantic_name.as_deref().unwrap_or("?"),
                                    self.resources[res[k].0].name,
                                    start + s
                                ));
                            }
                            let mut d = e.clone();
                            d.aligned_byte_offset -= start;
                            split[k].push(d);
                        }
                    }
                    start += s;
                }
                let strides_text: Vec<String> =
                    strides.iter().map(|s| s.unwrap_or(0).to_string()).collect();
                for k in 0..res.len() {
                    if layouts[k].is_none() {
                        layouts[k] = Some((
                            std::mem::take(&mut split[k]),
                            strides[k].unwrap_or(0),
                            format!(
                                "{name} beside the mod (stride {total} = {}, split in that order)",
                                strides_text.join(" + ")
                            ),
                        ));
                    }
                }
            }
        }
        // 2. hash.json: the component's dumped layout, split as XXMITools splits it.
        let hash_comp = self.beside.hash_json.as_ref().and_then(|(hname, comps)| {
            let ci = hash_ci.or_else(|| {
                comps
                    .iter()
                    .position(|h| !h.name.is_empty() && h.name.eq_ignore_ascii_case(&c.name))
            })?;
            Some((hname, &comps[ci]))
        });
        if let Some((hname, h)) = hash_comp
            && let Some(dump) = &h.dump
            && layouts.iter().any(Option::is_none)
        {
            let wanted: Vec<(usize, &'static str)> = res
                .iter()
                .enumerate()
                .filter(|(k, _)| layouts[*k].is_none())
                .filter_map(|(k, (_, role))| {
                    let r = role.as_deref()?.to_ascii_lowercase();
                    ["Position", "Blend", "Texcoord"]
                        .into_iter()
                        .find(|x| x.eq_ignore_ascii_case(&r))
                        .map(|x| (k, x))
                })
                .collect();
            if !wanted.is_empty() {
                let fits = |split: &[(&str, Vec<InputElementDesc>, u32)]| {
                    wanted.iter().all(|(k, role)| {
                        split.iter().any(|(r, _, stride)| {
                            r == role
                                && self.resources[res[*k].0]
                                    .stride
                                    .is_none_or(|s| s == *stride)
                        })
                    })
                };
                let rules = [
                    (false, "TEXCOORD, COLOR in Texcoord"),
                    (true, "Honkai Impact 3rd Part 2: COLOR in Position"),
                ];
                let mut chosen = None;
                for (hi3p2, words) in rules {
                    let split = beside::split_dump(&dump.elements, h, hi3p2);
                    if fits(&split) {
                        chosen = Some((split, words));
                        break;
                    }
                }
                let Some((split, words)) = chosen else {
                    let split = beside::split_dump(&dump.elements, h, false);
                    let got: Vec<String> =
                        split.iter().map(|(r, _, s)| format!("{r} {s}")).collect();
                    let ini: Vec<String> = wanted
                        .iter()
                        .map(|(k, role)| {
                            format!(
                                "{role} {}",
                                self.resources[res[*k].0]
                                    .stride
                                    .map_or("?".to_string(), |s| s.to_string())
                            )
                        })
                        .collect();
                    return Err(format!(
                        "{hname} component {}: its layout {} split as XXMITools splits it gives strides {}, the INI's buffers have {}",
                        h.name,
                        dump.file,
                        got.join(", "),
                        ini.join(", ")
                    ));
                };
                for (k, role) in wanted {
                    if let Some((_, elements, stride)) = split.iter().find(|(r, _, _)| *r == role) {
                        layouts[k] = Some((
                            elements.clone(),
                            *stride,
                            format!(
                                "{hname} component {} with its layout {} ({role} of its split: {words}; XXMITools migoto/data/data_model.py DataModelXXMI.from_obj)",
                                h.name, dump.file
                            ),
                        ));
                    }
                }
            }
        }
        // 3. Metadata.json.
        if let Some((mname, bufs)) = &self.beside.metadata {
            for (k, (r, _)) in res.iter().enumerate() {
                if layouts[k].is_some() {
                    continue;
                }
                let short = self.resources[*r].short_name().to_ascii_lowercase();
                let short = short.strip_suffix("buffer").unwrap_or(&short).to_string();
                if let Some(b) = bufs.iter().find(|b| b.name.to_ascii_lowercase() == short) {
                    layouts[k] = Some((
                        b.elements.clone(),
                        b.stride,
                        format!("{mname} export_format.{}", b.name),
                    ));
                }
            }
        }
        // 4. --layout, for what the files beside the mod do not give; a --layout they shadow is
        // named in the stream's source.
        for (k, (r, role)) in res.iter().enumerate() {
            let rs = &self.resources[*r];
            if let Some(o) = self.options.layouts.iter().find(|o| {
                let t = o.target.to_ascii_lowercase();
                t == rs.name.to_ascii_lowercase()
                    || t == rs.short_name().to_ascii_lowercase()
                    || role.as_ref().is_some_and(|x| x.eq_ignore_ascii_case(&t))
                    || slot_of.get(r).is_some_and(|s| s.eq_ignore_ascii_case(&t))
            }) {
                if let Some((_, _, source)) = layouts[k].as_mut() {
                    source.push_str(&format!(
                        " (--layout {}={} not used: the files beside the mod come first)",
                        o.target, o.source
                    ));
                    continue;
                }
                let stride = o
                    .stride
                    .or(rs.stride)
                    .or_else(|| extent(&o.elements))
                    .ok_or_else(|| format!("--layout {}: no stride for {}", o.target, rs.name))?;
                layouts[k] = Some((
                    o.elements.clone(),
                    stride,
                    format!("--layout {}={}", o.target, o.source),
                ));
            }
        }
        // 5. The profile.
        let mut vertex_hint: Option<u64> = None;
        for pass in 0..2 {
            for (k, (r, role)) in res.iter().enumerate() {
                if layouts[k].is_some() {
                    continue;
                }
                let Some(p) = p else { continue };
                match pick_row(
                    p,
                    &self.resources[*r],
                    role.as_deref(),
                    self.file_size(*r),
                    vertex_hint,
                ) {
                    Ok(row) => {
                        layouts[k] = Some((
                            row.descs(0),
                            row.stride,
                            format!(
                                "profile {} row {} (stride {}): {}",
                                p.name, row.role, row.stride, row.source
                            ),
                        ))
                    }
                    Err(e) if pass == 1 => return Err(format!("{}: {e}", self.describe(*r))),
                    Err(_) => {}
                }
            }
            vertex_hint = res.iter().zip(&layouts).find_map(|((r, _), l)| {
                let (_, stride, _) = l.as_ref()?;
                Some(self.file_size(*r)? / u64::from((*stride).max(1)))
            });
        }
        let mut out = Vec::new();
        let mut count: Option<u32> = None;
        for (k, ((r, role), l)) in res.iter().zip(layouts).enumerate() {
            let Some((mut elements, stride, source)) = l else {
                return Err(format!(
                    "{}: no layout (no .fmt, hash.json dump or Metadata.json beside the mod fits it, no --layout names it, and {})",
                    self.describe(*r),
                    match p {
                        Some(p) => format!("profile {} has no row for it", p.name),
                        None => "no profile was chosen".to_string(),
                    }
                ));
            };
            if stride == 0 {
                return Err(format!("{}: stride 0", self.describe(*r)));
            }
            if let Some(s) = self.resources[*r].stride
                && s != stride
            {
                return Err(format!(
                    "{}: the INI says stride {s}, the layout ({source}) stride {stride}",
                    self.describe(*r)
                ));
            }
            let size = self.file_size(*r).unwrap_or(0);
            if !size.is_multiple_of(u64::from(stride)) {
                return Err(format!(
                    "{}: {size} bytes is not a whole number of {stride}-byte records ({size} = {} × {stride} + {}; layout from {source})",
                    self.describe(*r),
                    size / u64::from(stride),
                    size % u64::from(stride)
                ));
            }
            let n = u32::try_from(size / u64::from(stride)).unwrap_or(u32::MAX);
            count = Some(count.map_or(n, |c: u32| c.min(n)));
            for e in &mut elements {
                e.input_slot = k as u32;
            }
            out.push(Stream {
                resource: *r,
                role: role.clone(),
                slot: slot_of.get(r).cloned(),
                stride,
                elements,
                vertices: n,
                source,
            });
        }
        if out.iter().any(|s| Some(s.vertices) != count) {
            let counts: Vec<String> = out
                .iter()
                .map(|s| format!("{} {}", self.resources[s.resource].name, s.vertices))
                .collect();
            return Err(format!(
                "its buffers hold different numbers of vertices ({})",
                counts.join(", ")
            ));
        }
        Ok((out, count.unwrap_or(0)))
    }

    /// Chooses the profile: the named one, or the one the strides and the INI's shape point
    /// to.
    fn choose_profile(
        &self,
        components: &[Component],
        slot_of: &HashMap<usize, String>,
        hash_role: &HashMap<usize, String>,
        hash_comp: &HashMap<usize, usize>,
        ev: &Evaluated,
    ) -> (ProfileChoice, Option<profile::Profile>) {
        let ci = |c: &Component| c.resources.iter().find_map(|r| hash_comp.get(r).copied());
        let mut choice = ProfileChoice::default();
        if let Some(name) = &self.options.profile {
            if let Some(p) = profile::profile(name) {
                choice.name = Some(p.name.clone());
                choice.evidence.push(format!("--profile {}", p.name));
                return (choice, Some(p.clone()));
            }
            return (choice, None);
        }
        if components.is_empty() {
            return (choice, None);
        }
        // Does anything need a profile?
        let no_profile = components
            .iter()
            .all(|c| self.resolve(c, None, slot_of, hash_role, ci(c)).is_ok());
        if no_profile {
            choice.evidence.push(
                "every buffer's layout comes from the files beside the mod or --layout".into(),
            );
            return (choice, None);
        }
        let namespaces: Vec<String> = self
            .ini
            .sections
            .iter()
            .flat_map(|s| {
                s.entries
                    .iter()
                    .map(|e| e.raw.to_ascii_lowercase())
                    .chain(std::iter::once(s.name.to_ascii_lowercase()))
            })
            .collect();
        // (score, profile, evidence, streams per component)
        type Fit<'p> = (usize, &'p profile::Profile, Vec<String>, Vec<Vec<Stream>>);
        let mut fits: Vec<Fit<'_>> = Vec::new();
        for p in profile::profiles() {
            let mut evidence = Vec::new();
            let mut all = Vec::new();
            let mut ok = true;
            for c in components {
                match self.resolve(c, Some(p), slot_of, hash_role, ci(c)) {
                    Ok((s, _)) => {
                        for st in &s {
                            if st.source.starts_with("profile") {
                                evidence.push(format!(
                                    "{} ({} bytes) fits row {} (stride {})",
                                    self.describe(st.resource),
                                    self.file_size(st.resource).unwrap_or(0),
                                    st.role.as_deref().unwrap_or("?"),
                                    st.stride
                                ));
                            }
                        }
                        all.push(s);
                    }
                    Err(e) => {
                        ok = false;
                        choice
                            .evidence
                            .push(format!("{} does not fit: {e}", p.name));
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            let mut score = 0;
            for rule in &p.shape {
                let seen = if let Some(ns) = &rule.namespace {
                    let needle = format!("\\{}\\", ns.to_ascii_lowercase());
                    namespaces.iter().any(|t| t.contains(&needle))
                } else if let Some(slot) = &rule.slot {
                    ev.binds.iter().any(|b| {
                        b.slot.eq_ignore_ascii_case(slot)
                            && rule.role.as_ref().is_none_or(|role| {
                                self.role(b.resource, Some(p), hash_role)
                                    .is_some_and(|r| r.eq_ignore_ascii_case(role))
                            })
                    })
                } else {
                    false
                };
                if seen {
                    score += 1;
                    evidence.push(format!("shape: {} ({})", rule.what, rule.source));
                }
            }
            fits.push((score, p, evidence, all));
        }
        choice.candidates = fits.iter().map(|f| f.1.name.clone()).collect();
        let Some(best) = fits.iter().map(|f| f.0).max() else {
            return (choice, None);
        };
        let top: Vec<&Fit<'_>> = fits.iter().filter(|f| f.0 == best).collect();
        let same = top.windows(2).all(|w| {
            w[0].3.iter().zip(&w[1].3).all(|(a, b)| {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(x, y)| x.elements == y.elements && x.stride == y.stride)
            })
        });
        if top.len() == 1 || same {
            let p = top[0].1;
            choice.name = Some(p.name.clone());
            choice.evidence = top[0].2.clone();
            if top.len() > 1 {
                let names: Vec<&str> = top.iter().map(|t| t.1.name.as_str()).collect();
                choice.evidence.push(format!(
                    "{} fit equally and give every buffer the same elements; {} is used",
                    names.join(" and "),
                    p.name
                ));
            }
            return (choice, Some(p.clone()));
        }
        let mut why = Vec::new();
        for t in &top {
            why.push(format!("{}: {}", t.1.name, t.2.join("; ")));
        }
        choice.evidence = why;
        choice.evidence.push(format!(
            "{} fit and disagree about the formats: not choosing (use --profile NAME)",
            top.iter()
                .map(|t| t.1.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        (choice, None)
    }

    fn make_parts(
        &self,
        ev: &Evaluated,
        missing: &HashMap<usize, String>,
        hash_comp: &HashMap<usize, usize>,
    ) -> Vec<Part> {
        let comp_of_res = |r: usize| {
            self.components
                .iter()
                .position(|c| c.resources.contains(&r))
        };
        let mut parts: Vec<Part> = Vec::new();
        for d in &ev.draws {
            let ctx = &self.ini.sections[d.context_section];
            let sec = &self.ini.sections[d.section];
            let mut p = Part {
                name: ctx.name.clone(),
                section: sec.name.clone(),
                at: d.at.clone(),
                hash: d.hash,
                match_first_index: d.first_index,
                match_index_count: d.index_count,
                component: None,
                index_buffer: None,
                index_format: None,
                indexed: false,
                start: 0,
                count: 0,
                base_vertex: 0,
                instances: 1,
                inferred: None,
                conditions: d.conditions.clone(),
                textures: d
                    .textures
                    .iter()
                    .filter_map(|(s, b)| match b {
                        Bound::Res(r) => Some((s.clone(), self.resources[*r].name.clone())),
                        _ => None,
                    })
                    .collect(),
                vertex_range: None,
                export: true,
                note: None,
                problem: None,
                count_span: None,
                start_span: None,
            };
            let arg = |k: usize| d.args.get(k).copied().flatten();
            let int = |v: Option<f32>| {
                v.filter(|x| x.fract() == 0.0 && *x >= 0.0 && *x <= u32::MAX as f32)
                    .map(|x| x as u32)
            };
            let mut need_ib = false;
            let mut auto = false;
            match &d.cmd {
                None => {
                    need_ib = true;
                    p.indexed = true;
                }
                Some(DrawCmd::DrawIndexed(_)) => {
                    need_ib = true;
                    p.indexed = true;
                    p.count_span = d.spans.first().copied().flatten();
                    p.start_span = d.spans.get(1).copied().flatten();
                    match (int(arg(0)), int(arg(1)), arg(2)) {
                        (Some(c), Some(s), Some(b)) => {
                            p.count = c;
                            p.start = s;
                            p.base_vertex = b as i32;
                        }
                        _ => p.problem = Some("drawindexed arguments are not known offline (they depend on values only the game has)".into()),
                    }
                }
                Some(DrawCmd::DrawIndexedInstanced(_)) => {
                    need_ib = true;
                    p.indexed = true;
                    p.count_span = d.spans.first().copied().flatten();
                    p.start_span = d.spans.get(2).copied().flatten();
                    match (int(arg(0)), int(arg(1)), int(arg(2)), arg(3)) {
                        (Some(c), Some(i), Some(s), Some(b)) => {
                            p.count = c;
                            p.instances = i;
                            p.start = s;
                            p.base_vertex = b as i32;
                        }
                        _ => {
                            p.problem =
                                Some("drawindexedinstanced arguments are not known offline".into())
                        }
                    }
                }
                Some(DrawCmd::DrawIndexedAuto | DrawCmd::DrawIndexedInstancedAuto) => {
                    need_ib = true;
                    p.indexed = true;
                    auto = true;
                }
                Some(DrawCmd::Draw(_)) | Some(DrawCmd::DrawInstanced(_)) => {
                    let inst = matches!(d.cmd, Some(DrawCmd::DrawInstanced(_)));
                    p.count_span = d.spans.first().copied().flatten();
                    p.start_span = d.spans.get(if inst { 2 } else { 1 }).copied().flatten();
                    let (c, s) = if inst {
                        (int(arg(0)), int(arg(2)))
                    } else {
                        (int(arg(0)), int(arg(1)))
                    };
                    match (c, s) {
                        (Some(c), Some(s)) => {
                            p.count = c;
                            p.start = s;
                        }
                        _ => p.problem = Some("draw arguments are not known offline".into()),
                    }
                    if inst {
                        p.instances = int(arg(1)).unwrap_or(1);
                    }
                }
                Some(other) => {
                    p.export = false;
                    p.note = Some(match other {
                        DrawCmd::FromCaller => {
                            "`draw = from_caller`: the game's draw, run by a custom shader".into()
                        }
                        DrawCmd::DrawAuto => {
                            "`draw = auto`: the vertex count comes from the game".into()
                        }
                        DrawCmd::Other(k) => format!("`{k}`: no vertex data of the mod's own"),
                        _ => "not a draw of mod data".into(),
                    });
                }
            }
            // Vertex buffers bound at the draw decide the component; else hash.json, names.
            let vb_res: Vec<usize> =
                d.vb.values()
                    .filter_map(|b| {
                        if let Bound::Res(r) = b {
                            Some(*r)
                        } else {
                            None
                        }
                    })
                    .collect();
            p.component = vb_res.iter().find_map(|&r| comp_of_res(r));
            if p.component.is_none()
                && let Some((_, comps)) = &self.beside.hash_json
                && let Some(ci) = comps.iter().position(|c| c.ib.is_some() && c.ib == d.hash)
            {
                p.component = hash_comp
                    .iter()
                    .find(|(_, c)| **c == ci)
                    .and_then(|(r, _)| comp_of_res(*r));
            }
            if p.component.is_none() {
                let sname = ctx
                    .name
                    .rsplit('\\')
                    .next()
                    .unwrap_or(&ctx.name)
                    .to_ascii_lowercase();
                let sname = sname
                    .strip_prefix("textureoverride")
                    .unwrap_or(&sname)
                    .to_string();
                p.component = self
                    .components
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| sname.starts_with(&c.name.to_ascii_lowercase()))
                    .max_by_key(|(_, c)| c.name.len())
                    .map(|(i, _)| i);
            }
            if p.component.is_none() && self.components.len() == 1 && p.export {
                p.component = Some(0);
            }
            if need_ib {
                match &d.ib {
                    Some(Bound::Res(r)) => {
                        p.index_buffer = Some(*r);
                        let res = &self.resources[*r];
                        p.index_format = match res.format {
                            Some(f) if f == Format::R16_UINT => Some(IndexFormat::R16Uint),
                            Some(f) if f == Format::R32_UINT => Some(IndexFormat::R32Uint),
                            _ => None,
                        };
                        if p.index_format.is_none() && p.problem.is_none() {
                            p.problem = Some(format!(
                                "{}: the index buffer needs `format = DXGI_FORMAT_R16_UINT` or `R32_UINT`",
                                self.describe(*r)
                            ));
                        }
                        if let Some(m) = missing.get(r) {
                            p.problem = Some(m.clone());
                        }
                    }
                    _ => {
                        p.export = false;
                        p.note =
                            Some("draws the game's own index buffer (the mod binds none)".into());
                    }
                }
            }
            let ib_len = p
                .index_buffer
                .and_then(|r| self.buffer(r))
                .zip(p.index_format)
                .map(|(b, f)| (b.len() / f.size() as usize) as u32);
            if auto {
                if let Some(n) = ib_len {
                    p.count = n;
                }
                p.inferred = Some("`auto`: the whole index buffer".into());
            }
            if d.cmd.is_none() {
                // The game's draw: its first index is the context's; its count the INI does
                // not say unless `match_index_count` does.
                p.start = d.first_index.unwrap_or(0);
                if let Some(c) = d.index_count {
                    p.count = c;
                    p.inferred = Some("the game's draw: count from match_index_count".into());
                } else {
                    let next = ev
                        .draws
                        .iter()
                        .filter(|o| o.cmd.is_none() && o.hash == d.hash && o.ib == d.ib)
                        .filter_map(|o| o.first_index)
                        .filter(|&f| f > p.start)
                        .min();
                    match (next, ib_len) {
                        (Some(n), _) => {
                            p.count = n - p.start;
                            p.inferred = Some(format!(
                                "the game's draw: indices {} up to the next match_first_index ({n}) of hash {:08x}",
                                p.start,
                                d.hash.unwrap_or(0)
                            ));
                        }
                        (None, Some(len)) => {
                            p.count = len.saturating_sub(p.start);
                            p.inferred = Some(format!(
                                "the game's draw: indices {} to the end of the index buffer",
                                p.start
                            ));
                        }
                        _ => {}
                    }
                }
            }
            if p.export && p.component.is_none() && p.problem.is_none() {
                p.problem = Some(format!(
                    "no vertex buffers for this draw: none bound at it, and no component's name starts its section name (components: {})",
                    self.components
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if let Some(ci) = p.component
                && p.problem.is_none()
                && let Some(prob) = &self.components[ci].problem
            {
                p.problem = Some(format!("component {}: {prob}", self.components[ci].name));
            }
            parts.push(p);
        }
        // Non-indexed draws over a component that indexed parts draw are passes.
        let indexed_components: Vec<usize> = parts
            .iter()
            .filter(|p| p.indexed && p.export)
            .filter_map(|p| p.component)
            .collect();
        for p in &mut parts {
            if !p.indexed
                && p.export
                && p.component.is_some_and(|c| indexed_components.contains(&c))
            {
                p.export = false;
                p.note = Some("a pass over vertex buffers that indexed parts draw (the skinning pass); not a mesh of its own".into());
            }
        }
        // Duplicates (one section run in several contexts with the same result).
        let mut unique: Vec<Part> = Vec::new();
        for p in parts {
            if !unique.iter().any(|u| {
                u.name == p.name
                    && u.at == p.at
                    && u.index_buffer == p.index_buffer
                    && u.start == p.start
                    && u.count == p.count
                    && u.base_vertex == p.base_vertex
                    && u.component == p.component
            }) {
                unique.push(p);
            }
        }
        // Names: `#n` when a context draws several times.
        let mut counts: HashMap<String, usize> = HashMap::new();
        for p in &unique {
            *counts.entry(p.name.clone()).or_default() += 1;
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        for p in &mut unique {
            if counts[&p.name] > 1 {
                let n = seen.entry(p.name.clone()).or_default();
                let name = format!("{}#{n}", p.name);
                *n += 1;
                p.name = name;
            }
        }
        for p in &mut unique {
            self.check_range(p);
        }
        // In the order the INI defines them.
        let line = |p: &Part| {
            self.ini
                .sections
                .iter()
                .position(|s| s.name == p.name.split('#').next().unwrap_or(&p.name))
                .unwrap_or(usize::MAX)
        };
        unique.sort_by_key(|p| line(p));
        unique
    }

    /// Checks a part's indices against its buffers and records its vertex range.
    fn check_range(&self, p: &mut Part) {
        if p.problem.is_some() || !p.export {
            return;
        }
        let Some(ci) = p.component else { return };
        let vertices = self.components[ci].vertex_count;
        if !p.indexed {
            let end = u64::from(p.start) + u64::from(p.count);
            if end > u64::from(vertices) {
                p.problem = Some(format!(
                    "the draw reads vertices {}..{end}, past the {vertices} vertices of component {}",
                    p.start, self.components[ci].name
                ));
            } else if p.count > 0 {
                p.vertex_range = Some((p.start, p.start + p.count - 1));
            }
            return;
        }
        let (Some(r), Some(f)) = (p.index_buffer, p.index_format) else {
            return;
        };
        let Some(bytes) = self.buffer(r) else { return };
        let size = f.size() as usize;
        let n = bytes.len() / size;
        let end = p.start as usize + p.count as usize;
        if end > n {
            p.problem = Some(format!(
                "{}: the draw reads indices {}..{end}, past its {n} indices",
                self.describe(r),
                p.start
            ));
            return;
        }
        let mut lo = u32::MAX;
        let mut hi = 0u32;
        for (k, c) in bytes[p.start as usize * size..end * size]
            .chunks_exact(size)
            .enumerate()
        {
            let i = if size == 2 {
                u32::from(u16::from_le_bytes([c[0], c[1]]))
            } else {
                u32::from_le_bytes([c[0], c[1], c[2], c[3]])
            };
            let strip_cut = (size == 2 && i == 0xffff) || (size == 4 && i == u32::MAX);
            if strip_cut {
                continue;
            }
            let v = i64::from(i) + i64::from(p.base_vertex);
            if v < 0 || v >= i64::from(vertices) {
                p.problem = Some(format!(
                    "{}: index {i} at position {} (+ base vertex {}) is past the {vertices} vertices of component {}",
                    self.describe(r),
                    p.start as usize + k,
                    p.base_vertex,
                    self.components[ci].name
                ));
                return;
            }
            lo = lo.min(v as u32);
            hi = hi.max(v as u32);
        }
        if lo <= hi {
            p.vertex_range = Some((lo, hi));
        }
    }

    /// A part's draw with its component's buffers and layout, for [`crate::mesh`]; an error
    /// when the part has a problem or no buffers.
    pub fn part_input(&self, part: usize) -> Result<PartInput<'_>, ModError> {
        let p = &self.parts[part];
        if let Some(prob) = &p.problem {
            return Err(ModError::new(
                p.at.clone(),
                Some(p.name.clone()),
                prob.clone(),
            ));
        }
        let ci = p.component.ok_or_else(|| {
            ModError::new(
                p.at.clone(),
                Some(p.name.clone()),
                "the draw has no vertex buffers of the mod",
            )
        })?;
        let c = &self.components[ci];
        let mut elements = Vec::new();
        let mut slots = Vec::new();
        for (k, s) in c.streams.iter().enumerate() {
            elements.extend(s.elements.iter().cloned());
            let bytes = self.buffer(s.resource).unwrap_or(&[]);
            slots.push((k as u32, s.stride, bytes, self.describe(s.resource)));
        }
        let index = match (p.index_buffer, p.index_format) {
            (Some(r), Some(f)) if p.indexed => {
                Some((f, self.buffer(r).unwrap_or(&[]), self.describe(r)))
            }
            _ => None,
        };
        use crate::assembler::DrawCall;
        let draw = match (p.indexed, p.instances > 1) {
            (true, false) => DrawCall::DrawIndexed {
                index_count: p.count,
                start_index: p.start,
                base_vertex: p.base_vertex,
            },
            (true, true) => DrawCall::DrawIndexedInstanced {
                index_count_per_instance: p.count,
                instance_count: p.instances,
                start_index: p.start,
                base_vertex: p.base_vertex,
                start_instance: 0,
            },
            (false, false) => DrawCall::Draw {
                vertex_count: p.count,
                start_vertex: p.start,
            },
            (false, true) => DrawCall::DrawInstanced {
                vertex_count_per_instance: p.count,
                instance_count: p.instances,
                start_vertex: p.start,
                start_instance: 0,
            },
        };
        Ok(PartInput {
            elements,
            slots,
            index,
            draw,
        })
    }
}

impl Mod {
    /// A part's draw as a [`crate::capture::Capture`] (copies of its buffers): what
    /// [`crate::capture::load_dump`] gives for a dump, so every consumer of captures (the mesh
    /// builder, the Python package's `Dump`) takes a mod's part as it takes a dump.
    pub fn part_capture(&self, part: usize) -> Result<crate::capture::Capture, ModError> {
        use crate::capture::{Capture, DrawInfo, IndexCapture, SlotCapture, SlotData};
        let input = self.part_input(part)?;
        let p = &self.parts[part];
        let c = &self.components[p.component.unwrap_or(0)];
        let slots = input
            .slots
            .iter()
            .zip(&c.streams)
            .map(|((slot, stride, bytes, _), s)| SlotCapture {
                slot: *slot,
                stride: *stride,
                offset: 0,
                data: SlotData::Binary(bytes.to_vec()),
                source: self.resources[s.resource].path.clone().unwrap_or_default(),
            })
            .collect();
        let index = input.index.as_ref().map(|(f, b, _)| IndexCapture {
            format: *f,
            offset: 0,
            data: b.to_vec(),
            source: p
                .index_buffer
                .and_then(|r| self.resources[r].path.clone())
                .unwrap_or_default(),
        });
        let mut sources: Vec<PathBuf> = vec![self.path.clone()];
        sources.extend(
            c.streams
                .iter()
                .filter_map(|s| self.resources[s.resource].path.clone()),
        );
        Ok(Capture {
            remapped: vec![None; input.elements.len()],
            elements: input.elements,
            slots,
            index,
            topology: crate::assembler::Topology::TriangleList,
            draw: DrawInfo {
                start_vertex: if p.indexed { 0 } else { p.start },
                vertex_count: (!p.indexed).then_some(p.count),
                start_index: if p.indexed { p.start } else { 0 },
                index_count: p.indexed.then_some(p.count),
                base_vertex: p.base_vertex,
                start_instance: 0,
                instance_count: (p.instances > 1).then_some(p.instances),
            },
            warnings: Vec::new(),
            sources,
        })
    }
}

impl Mod {
    /// What the mod draws as JSON: files, state, profile with its evidence, components with
    /// their buffers' layouts, parts, variables, toggles and warnings — what `inlay mod --json`
    /// prints and the Python package's `load_mod` reads.
    pub fn report(&self) -> serde_json::Value {
        use serde_json::{Value, json};
        let m = self;

        let components: Vec<Value> = m
        .components
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "vertex_count": c.vertex_count,
                "problem": c.problem,
                "buffers": c.streams.iter().map(|s| json!({
                    "resource": m.resources[s.resource].name,
                    "file": m.resources[s.resource].filename,
                    "role": s.role,
                    "slot": s.slot,
                    "stride": s.stride,
                    "vertices": s.vertices,
                    "layout_from": s.source,
                    "elements": s.elements.iter().map(|e| json!({
                        "semantic": e.semantic_name,
                        "index": e.semantic_index,
                        "format": e.format.name(),
                        "offset": e.aligned_byte_offset,
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "resources": c.resources.iter().map(|&r| m.resources[r].name.clone()).collect::<Vec<_>>(),
            })
        })
        .collect();
        let parts: Vec<Value> = m
            .parts
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "section": p.section,
                    "at": p.at.to_string(),
                    "hash": p.hash.map(|h| format!("{h:08x}")),
                    "match_first_index": p.match_first_index,
                    "match_index_count": p.match_index_count,
                    "component": p.component.map(|c| m.components[c].name.clone()),
                    "index_buffer": p.index_buffer.map(|r| m.resources[r].name.clone()),
                    "index_file": p.index_buffer.and_then(|r| m.resources[r].filename.clone()),
                    "index_format": p.index_format.map(|f| f.format().to_string()),
                    "indexed": p.indexed,
                    "start": p.start,
                    "count": p.count,
                    "base_vertex": p.base_vertex,
                    "instances": p.instances,
                    "inferred": p.inferred,
                    "vertex_range": p.vertex_range,
                    "conditions": p.conditions,
                    "textures": p.textures,
                    "exported": p.export,
                    "note": p.note,
                    "problem": p.problem,
                })
            })
            .collect();
        json!({
            "ini": m.path.display().to_string(),
            "files": m.ini.files.iter().map(|f| f.name.clone()).collect::<Vec<_>>(),
            "state": m.state.values.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "profile": {
                "name": m.profile.name,
                "evidence": m.profile.evidence,
                "candidates": m.profile.candidates,
            },
            "components": components,
            "parts": parts,
            "variables": m.variables.iter().map(|v| json!({
                "name": v.name, "initial": v.initial, "persist": v.persist, "at": v.at.to_string(),
            })).collect::<Vec<_>>(),
            "toggles": m.toggles.iter().map(|t| json!({
                "section": t.section,
                "at": t.at.to_string(),
                "keys": t.keys,
                "type": format!("{:?}", t.kind).to_ascii_lowercase(),
                "vars": t.vars.iter().map(|(v, vals)| json!({"var": v, "values": vals})).collect::<Vec<_>>(),
                "condition": t.condition,
            })).collect::<Vec<_>>(),
            "warnings": m.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        })
    }
}

/// Names of the parts of a mod read in several states, unique over all of them: a part keeps
/// its name ([`Part::name`]) unless a different draw of another state already has it, then it
/// is `NAME~2`, `NAME~3`, … in order of first appearance. Export and import name the same
/// states' parts alike, so a node of an exported scene finds its part again.
pub fn part_names(states: &[&Mod]) -> Vec<Vec<String>> {
    type Key = (
        String,
        bool,
        Option<usize>,
        u32,
        u32,
        i32,
        Option<Vec<usize>>,
    );
    let mut seen: Vec<(Key, String)> = Vec::new();
    let mut out = Vec::new();
    for m in states {
        let mut names = Vec::new();
        for p in &m.parts {
            let key: Key = (
                p.name.clone(),
                p.indexed,
                p.index_buffer,
                p.start,
                p.count,
                p.base_vertex,
                p.component.map(|c| m.components[c].resources.clone()),
            );
            let name = match seen.iter().find(|(k, _)| *k == key) {
                Some((_, n)) => n.clone(),
                None => {
                    let variants = seen.iter().filter(|(k, _)| k.0 == p.name).count();
                    let n = if variants == 0 {
                        p.name.clone()
                    } else {
                        format!("{}~{}", p.name, variants + 1)
                    };
                    seen.push((key, n.clone()));
                    n
                }
            };
            names.push(name);
        }
        out.push(names);
    }
    out
}

/// Offsets with `APPEND_ALIGNED_ELEMENT` resolved per slot (elements in order).
fn resolve_offsets(elements: &[InputElementDesc]) -> Vec<InputElementDesc> {
    let mut next: HashMap<u32, u32> = HashMap::new();
    elements
        .iter()
        .map(|e| {
            let mut d = e.clone();
            let size = e.format.info().map_or(0, |i| i.byte_size());
            let align = e.format.info().map_or(1, |i| i.offset_alignment()).max(1);
            let at = next.entry(e.input_slot).or_insert(0);
            if d.aligned_byte_offset == APPEND_ALIGNED_ELEMENT {
                d.aligned_byte_offset = at.div_ceil(align) * align;
            }
            *at = d.aligned_byte_offset.saturating_add(size);
            d.input_slot = 0;
            d
        })
        .collect()
}

/// The bytes a list of elements covers.
fn extent(elements: &[InputElementDesc]) -> Option<u32> {
    resolve_offsets(elements)
        .iter()
        .map(|e| {
            e.aligned_byte_offset
                .saturating_add(e.format.info().map_or(0, |i| i.byte_size()))
        })
        .max()
}

/// The row of `p` for a resource: by name ending (or role), then by stride (the resource's,
/// else the one that makes the file a whole number of `vertices` records).
fn pick_row<'p>(
    p: &'p profile::Profile,
    r: &Resource,
    role: Option<&str>,
    size: Option<u64>,
    vertices: Option<u64>,
) -> Result<&'p profile::BufferRow, String> {
    let short = r.short_name();
    let mut rows: Vec<&profile::BufferRow> =
        p.buffers.iter().filter(|b| b.names_match(short)).collect();
    if rows.is_empty()
        && let Some(role) = role
    {
        rows = p
            .buffers
            .iter()
            .filter(|b| b.role.eq_ignore_ascii_case(role))
            .collect();
    }
    if rows.is_empty() {
        return Err(format!(
            "profile {} has no buffer named like it (rows: {})",
            p.name,
            p.buffers
                .iter()
                .map(|b| b.names.join("/"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let strides: Vec<u32> = rows.iter().map(|b| b.stride).collect();
    if let Some(s) = r.stride {
        return rows.iter().find(|b| b.stride == s).copied().ok_or_else(|| {
            format!(
                "stride {s} is none of profile {}'s strides for it ({strides:?})",
                p.name
            )
        });
    }
    if rows.len() == 1 {
        return Ok(rows[0]);
    }
    if let (Some(size), Some(n)) = (size, vertices)
        && n > 0
    {
        let fit: Vec<&&profile::BufferRow> = rows
            .iter()
            .filter(|b| u64::from(b.stride) * n == size)
            .collect();
        if fit.len() == 1 {
            return Ok(fit[0]);
        }
    }
    Err(format!(
        "no stride in the INI, and profile {} has several for it ({strides:?})",
        p.name
    ))
}
