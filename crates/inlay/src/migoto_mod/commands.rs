//! Command lists (`CommandList.cpp` `ParseCommandList` and the parsers it tries in order:
//! general commands, ini-parameter assignments, variable assignments, resource copies, flow
//! control), parsed once into [`Cmd`] trees and run offline for one state.
//!
//! Keys and values are compared lower-cased, as 3DMigoto lower-cases command lists. Every
//! section has two lists, run before and after the draw (or the `[Present]` call): a command
//! goes to the one its `pre ` or `post ` prefix names, else to its default ([`List`],
//! `AddCommandToList`).

use super::expr::{Expr, Val, is_ini_param, is_slot_name, parse_number};
use super::ini::{Entry, Ini, Section};
use super::{ModWarning, Where};

/// A draw command's numbers: each argument's expression and, when the argument is a plain
/// number, its byte span in the file (for the write-back).
#[derive(Clone, Debug, PartialEq)]
pub struct DrawArgs {
    /// The arguments.
    pub args: Vec<Expr>,
    /// Per argument: `Some((file, start, end))` when it is written as a plain number.
    pub spans: Vec<Option<(usize, usize, usize)>>,
}

/// The draw commands of `DrawCommandType`.
#[derive(Clone, Debug, PartialEq)]
pub enum DrawCmd {
    /// `draw = count, start`.
    Draw(DrawArgs),
    /// `draw = auto` (vertex count from the bound vertex buffer).
    DrawAuto,
    /// `draw = from_caller` (the game's draw, as called).
    FromCaller,
    /// `drawindexed = count, start, base`.
    DrawIndexed(DrawArgs),
    /// `drawindexed = auto` (the whole bound index buffer).
    DrawIndexedAuto,
    /// `drawindexedinstanced = count, instances, start, base, first instance`.
    DrawIndexedInstanced(DrawArgs),
    /// `drawindexedinstanced = auto`.
    DrawIndexedInstancedAuto,
    /// `drawinstanced = count, instances, start, first instance`.
    DrawInstanced(DrawArgs),
    /// Compute dispatches, stream-output `drawauto` and indirect draws: no vertex data of the
    /// mod's own.
    Other(String),
}

/// The source of a resource copy or binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A `[Resource…]` section, by the name as written.
    Resource(String),
    /// `null`.
    Null,
    /// Another slot or a special source (`ps-t0`, `bb`, `stereoparams`, …).
    Other(String),
}

/// One branch of an `if`: its condition (`None` when it did not parse), the condition as
/// written, and its commands.
pub type Branch = (Option<Expr>, String, Vec<Located>);

/// One command.
#[derive(Clone, Debug, PartialEq)]
pub enum Cmd {
    /// `if` / `elif` / `else if` / `else` / `endif`.
    If {
        /// `(condition, commands)` for the `if` and each `elif`; a condition that did not parse
        /// is `None`.
        branches: Vec<Branch>,
        /// The `else` commands.
        otherwise: Vec<Located>,
    },
    /// `$var = expression` (or `local $var = …`), `None` expression: declaration only.
    Assign {
        /// The variable as written (lower case).
        var: String,
        /// The value.
        expr: Option<Expr>,
        /// `local`.
        local: bool,
    },
    /// `slot = [options] source`.
    Bind {
        /// The destination slot (`vb0`, `ib`, `ps-t0`, `resourcefoo`, `this`, …), lower case.
        slot: String,
        /// What is bound.
        source: Source,
    },
    /// A draw command.
    Draw(DrawCmd),
    /// `run = CommandList…` / `CustomShader…`.
    Run {
        /// The section, as written (lower case).
        target: String,
        /// Whether the target's pre and post lists run together, one after the other: a
        /// custom shader's always (`RunCustomShaderCommand::run`), a command list's when the
        /// `run` has a `pre`/`post` prefix (`ParseRunExplicitCommandList`); otherwise the
        /// caller's pre list runs the target's pre list and its post list the post list.
        together: bool,
    },
    /// `checktextureoverride = slot`.
    CheckTextureOverride(String),
    /// `handling = skip`.
    Skip,
    /// `handling = abort`.
    Abort,
}

/// Which of its section's lists a command is in (CommandList.cpp `AddCommandToList`): the one
/// its `pre `/`post ` prefix names, else its default — the pre list for draws, resource
/// copies, assignments, `handling = skip` and `run = CustomShader…`, both lists for `if`
/// blocks, `run = CommandList…`, `checktextureoverride` and `handling = abort`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    /// Runs before the draw.
    Pre,
    /// Runs after the draw (even a skipped one).
    Post,
    /// In both lists: runs before and after the draw.
    Both,
}

impl List {
    /// Whether the command runs in the post list (`post`) or the pre list.
    pub fn runs_in(self, post: bool) -> bool {
        match self {
            List::Pre => !post,
            List::Post => post,
            List::Both => true,
        }
    }
}

/// A command with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// The command.
    pub cmd: Cmd,
    /// Index of the section it came from.
    pub section: usize,
    /// Its entry in that section.
    pub entry: usize,
    /// The list it is in.
    pub list: List,
}

/// Keys of `[TextureOverride…]` sections that are not commands (`TextureOverrideIniKeys`,
/// the fuzzy and draw-context match keys), and the XXMI loaders' vertex-limit keys.
pub const TEXTURE_OVERRIDE_KEYS: &[&str] = &[
    "hash",
    "stereomode",
    "format",
    "width",
    "height",
    "width_multiply",
    "height_multiply",
    "iteration",
    "filter_index",
    "expand_region_copy",
    "deny_cpu_read",
    "match_priority",
    "match_type",
    "match_usage",
    "match_bind_flags",
    "match_cpu_access_flags",
    "match_misc_flags",
    "match_byte_width",
    "match_stride",
    "match_mips",
    "match_format",
    "match_width",
    "match_height",
    "match_depth",
    "match_array",
    "match_msaa",
    "match_msaa_quality",
    "match_first_vertex",
    "match_first_index",
    "match_first_instance",
    "match_vertex_count",
    "match_index_count",
    "match_instance_count",
    // XXMI's loaders (XXMITools templates: `override_vertex_count`, `override_byte_stride`,
    // `uav_byte_stride` in the VertexLimitRaise/Draw sections).
    "override_vertex_count",
    "override_byte_stride",
    "uav_byte_stride",
];

/// The keys that match resources by description (IniHandler.cpp
/// `TEXTURE_OVERRIDE_FUZZY_MATCHES`): a `[TextureOverride…]` section with one of them and no
/// hash is a fuzzy override, which 3DMigoto keeps.
pub const FUZZY_MATCH_KEYS: &[&str] = &[
    "match_type",
    "match_usage",
    "match_bind_flags",
    "match_cpu_access_flags",
    "match_misc_flags",
    "match_byte_width",
    "match_stride",
    "match_mips",
    "match_format",
    "match_width",
    "match_height",
    "match_depth",
    "match_array",
    "match_msaa",
    "match_msaa_quality",
];

/// Keys of `[ShaderOverride…]`, `[ShaderRegex…]` and `[CustomShader…]` sections that are not
/// commands (`ShaderOverrideIniKeys`, `ShaderRegexIniKeys`, `CustomShaderIniKeys`).
pub const SHADER_KEYS: &[&str] = &[
    "hash",
    "allow_duplicate_hash",
    "depth_filter",
    "partner",
    "model",
    "disable_scissor",
    "filter_index",
    "shader_model",
    "temps",
    "vs",
    "hs",
    "ds",
    "gs",
    "ps",
    "cs",
    "max_executions_per_frame",
    "blend",
    "alpha",
    "mask",
    "blend_factor[0]",
    "blend_factor[1]",
    "blend_factor[2]",
    "blend_factor[3]",
    "blend_state_merge",
    "alpha_to_coverage",
    "sample_mask",
    "depth_enable",
    "depth_write_mask",
    "depth_func",
    "stencil_enable",
    "stencil_read_mask",
    "stencil_write_mask",
    "stencil_front",
    "stencil_back",
    "stencil_ref",
    "depth_stencil_state_merge",
    "fill",
    "cull",
    "front",
    "depth_bias",
    "depth_bias_clamp",
    "slope_scaled_depth_bias",
    "depth_clip_enable",
    "scissor_enable",
    "multisample_enable",
    "antialiased_line_enable",
    "rasterizer_state_merge",
    "topology",
    "sampler",
];

const COPY_OPTIONS: &[&str] = &[
    "copy",
    "ref",
    "reference",
    "copy_desc",
    "copy_description",
    "unless_null",
    "stereo",
    "mono",
    "stereo2mono",
    "set_viewport",
    "no_view_cache",
    "raw",
    "resolve_msaa",
];

/// Commands understood that never change what a mod's geometry is (`preset`, `clear`, stereo
/// and frame-analysis commands, …).
const NO_GEOMETRY: &[&str] = &[
    "preset",
    "exclude_preset",
    "reset_per_frame_limits",
    "clear",
    "separation",
    "convergence",
    "direct_mode_eye",
    "analyse_options",
    "dump",
    "special",
];

/// Deepest nesting of `if` blocks in one section (3DMigoto has no limit; real mods nest a few
/// levels). It bounds the depth of the [`Cmd`] tree, which is run, cloned and dropped
/// recursively.
pub const MAX_IF_DEPTH: usize = 64;

fn starts_with_ci(s: &str, p: &str) -> bool {
    s.len() >= p.len() && s.is_char_boundary(p.len()) && s[..p.len()].eq_ignore_ascii_case(p)
}

/// Whether a variable can be read where a command list is parsed: `declared(name, namespace)`
/// for the mod's globals (and `$\\namespace\\name` of a namespace outside the mod's files,
/// which another INI may declare), the section's `local` variables in scope otherwise.
pub type Declared<'a> = dyn Fn(&str, &str) -> bool + 'a;

/// Parses the command list of section `index`; `whitelist` holds the keys read elsewhere and
/// `declared` tells the global variables a condition may read.
///
/// Flow control follows `ParseCommandListFlowControl` and the optimiser after it: an `if` or
/// `elif` whose condition does not parse (a syntax error or an undeclared variable:
/// "Unrecognised entry") is dropped, so its lines run unconditionally and its `endif` closes
/// the enclosing `if`; an `if` left without `endif` at the section's end is dropped too
/// (`IfCommand::noop`, "Statement \"if\" missing \"endif\""), so every branch's lines run.
pub fn parse_section(
    ini: &Ini,
    index: usize,
    whitelist: &[&str],
    declared: &Declared<'_>,
    warnings: &mut Vec<ModWarning>,
) -> Vec<Located> {
    let section = &ini.sections[index];
    let mut stack: Vec<Frame> = vec![Frame::root()];
    // `local` variables by scope: the section's, then one per open `if` (`CommandListScope`).
    let mut scopes: Vec<Vec<String>> = vec![Vec::new()];
    // The keys read elsewhere seen so far, with their entries.
    let mut read_elsewhere: Vec<(String, usize)> = Vec::new();
    for (k, e) in section.entries.iter().enumerate() {
        let at = ini.at(e);
        let key = e.key.to_ascii_lowercase();
        if e.has_eq && whitelist.contains(&key.as_str()) {
            // `ParseCommandList`: a command list may repeat its commands but not these keys,
            // whose first value is the one read (`GetIniString`).
            if let Some((_, first)) = read_elsewhere.iter().find(|(x, _)| *x == key) {
                let first = ini.at(&section.entries[*first]);
                warnings.push(ModWarning::new(
                    at,
                    Some(e.raw.clone()),
                    format!(
                        "duplicate key in [{}] (first at {first}); 3DMigoto keeps the first (\"Duplicate non-command list key\")",
                        section.name
                    ),
                ));
            } else {
                read_elsewhere.push((key, k));
            }
            continue;
        }
        let raw = e.raw.to_ascii_lowercase();
        // Flow control (`ParseCommandListFlowControl`), on the whole line.
        if let Some(cond) = raw
            .strip_prefix("if ")
            .map(|c| (c, false))
            .or_else(|| raw.strip_prefix("elif ").map(|c| (c, true)))
            .or_else(|| raw.strip_prefix("else if ").map(|c| (c, true)))
        {
            let (text, is_elif) = cond;
            let text = text.trim();
            let what = if is_elif { "`elif`" } else { "`if`" };
            let parsed = match parse_condition(text, &e.namespace, &scopes, declared) {
                Ok(x) => x,
                Err((why, value)) => {
                    let rest = if is_elif {
                        "its lines stay in the branch before it"
                    } else {
                        "its lines run unconditionally and its `endif` closes the enclosing `if`"
                    };
                    warnings.push(ModWarning::new(
                        at,
                        Some(value.unwrap_or_else(|| e.raw.clone())),
                        format!("{why} (3DMigoto: \"Unrecognised entry\"): the {what} line is dropped, {rest}"),
                    ));
                    continue;
                }
            };
            if is_elif {
                match stack.last_mut() {
                    Some(f) if f.kind == FrameKind::If && !f.in_else => {
                        f.branches
                            .push((Some(parsed), text.to_string(), Vec::new()));
                    }
                    _ => warnings.push(ModWarning::new(
                        at,
                        Some(e.raw.clone()),
                        "`elif` without an open `if` (or after `else`); ignored",
                    )),
                }
                if let Some(top) = scopes.last_mut() {
                    top.clear();
                }
            } else {
                if stack.len() > MAX_IF_DEPTH {
                    // The tree is run, cloned and dropped recursively: bound its depth.
                    warnings.push(ModWarning::new(
                        at,
                        Some(e.raw.clone()),
                        format!(
                            "`if` blocks nesting deeper than {MAX_IF_DEPTH} in [{}]; the section's command list is not run",
                            section.name
                        ),
                    ));
                    return Vec::new();
                }
                stack.push(Frame {
                    kind: FrameKind::If,
                    branches: vec![(Some(parsed), text.to_string(), Vec::new())],
                    otherwise: Vec::new(),
                    in_else: false,
                    at: Some(at),
                    entry: k,
                });
                scopes.push(Vec::new());
            }
            continue;
        }
        if raw == "else" {
            match stack.last_mut() {
                Some(f) if f.kind == FrameKind::If && !f.in_else => f.in_else = true,
                _ => warnings.push(ModWarning::new(
                    at,
                    Some(e.raw.clone()),
                    "`else` without an open `if`; ignored",
                )),
            }
            if let Some(top) = scopes.last_mut() {
                top.clear();
            }
            continue;
        }
        if raw == "endif" {
            if stack.len() > 1 {
                let f = stack.pop().expect("non-empty");
                scopes.pop();
                let top = stack.last_mut().expect("root stays");
                top.push(Located {
                    cmd: Cmd::If {
                        branches: f.branches,
                        otherwise: f.otherwise,
                    },
                    section: index,
                    entry: f.entry,
                    list: List::Both,
                });
            } else {
                warnings.push(ModWarning::new(
                    at,
                    Some(e.raw.clone()),
                    "`endif` without an `if` (3DMigoto: \"endif missing if\"); ignored",
                ));
            }
            continue;
        }
        let (explicit, key) = if let Some(k) = key.strip_prefix("post ") {
            (Some(List::Post), k.trim_start().to_string())
        } else if let Some(k) = key.strip_prefix("pre ") {
            (Some(List::Pre), k.trim_start().to_string())
        } else {
            (None, key.clone())
        };
        match parse_command(ini, section, e, &key, &at, warnings) {
            Some(Some(mut cmd)) => {
                let default = match &mut cmd {
                    Cmd::Run { target, together } => {
                        if starts_with_ci(target, "commandlist")
                            || starts_with_ci(target, "builtincommandlist")
                        {
                            *together = explicit.is_some();
                            List::Both
                        } else {
                            List::Pre
                        }
                    }
                    Cmd::CheckTextureOverride(_) | Cmd::Abort => List::Both,
                    Cmd::Assign {
                        var, local: true, ..
                    } => {
                        if let Some(top) = scopes.last_mut() {
                            top.push(var.clone());
                        }
                        List::Pre
                    }
                    _ => List::Pre,
                };
                stack.last_mut().expect("root").push(Located {
                    cmd,
                    section: index,
                    entry: k,
                    list: explicit.unwrap_or(default),
                })
            }
            Some(None) => {}
            None => warnings.push(ModWarning::new(
                at,
                Some(e.raw.clone()),
                format!("not understood in [{}]; ignored", section.name),
            )),
        }
    }
    while stack.len() > 1 {
        let f = stack.pop().expect("non-empty");
        if let Some(at) = &f.at {
            warnings.push(ModWarning::new(
                at.clone(),
                None,
                format!(
                    "`if` without `endif` in [{}] (3DMigoto: `Statement \"if\" missing \"endif\"`): the `if` is dropped, every branch's lines run",
                    section.name
                ),
            ));
        }
        let top = stack.last_mut().expect("root stays");
        for l in f.branches.into_iter().flat_map(|b| b.2).chain(f.otherwise) {
            top.push(l);
        }
    }
    stack
        .pop()
        .and_then(|f| f.branches.into_iter().next())
        .map(|b| b.2)
        .unwrap_or_default()
}

#[derive(PartialEq, Eq)]
enum FrameKind {
    Root,
    If,
}

struct Frame {
    kind: FrameKind,
    branches: Vec<Branch>,
    otherwise: Vec<Located>,
    in_else: bool,
    at: Option<Where>,
    entry: usize,
}

impl Frame {
    fn root() -> Frame {
        Frame {
            kind: FrameKind::Root,
            branches: vec![(None, String::new(), Vec::new())],
            otherwise: Vec::new(),
            in_else: false,
            at: None,
            entry: 0,
        }
    }

    fn push(&mut self, l: Located) {
        if self.in_else {
            self.otherwise.push(l);
        } else {
            self.branches.last_mut().expect("a branch").2.push(l);
        }
    }
}

/// A condition as `CommandListExpression::parse` takes it: an expression whose variables are
/// declared (a `local` in scope, else `declared`). `Err`: why not, and the offending variable.
fn parse_condition(
    text: &str,
    namespace: &str,
    scopes: &[Vec<String>],
    declared: &Declared<'_>,
) -> Result<Expr, (String, Option<String>)> {
    let x = Expr::parse(text).map_err(|err| (format!("condition does not parse: {err}"), None))?;
    if let Some(v) = x
        .variables()
        .into_iter()
        .find(|v| !scopes.iter().any(|s| s.iter().any(|l| l == v)) && !declared(v, namespace))
    {
        return Err((
            "undeclared variable in the condition".to_string(),
            Some(v.to_string()),
        ));
    }
    Ok(x)
}

/// Parses one line; `None`: not understood, `Some(None)`: understood, nothing to run.
fn parse_command(
    ini: &Ini,
    section: &Section,
    e: &Entry,
    key: &str,
    at: &Where,
    warnings: &mut Vec<ModWarning>,
) -> Option<Option<Cmd>> {
    let value = e.value.to_ascii_lowercase();
    let value = value.trim();
    if !e.has_eq {
        // `local $x` declarations and bare `$x` lines (globals in [Constants]) are the only
        // lines without `=` besides flow control.
        let raw = e.raw.to_ascii_lowercase();
        if let Some(v) = raw.strip_prefix("local ") {
            let v = v.trim();
            return valid_var(v).then(|| {
                Some(Cmd::Assign {
                    var: v.to_string(),
                    expr: None,
                    local: true,
                })
            });
        }
        return None;
    }
    match key {
        "checktextureoverride" => return Some(Some(Cmd::CheckTextureOverride(value.to_string()))),
        "run" => {
            if starts_with_ci(value, "customshader") || starts_with_ci(value, "builtincustomshader")
            {
                // A custom shader draws with its own state; its section is parsed on its own.
                return Some(Some(Cmd::Run {
                    target: value.to_string(),
                    together: true,
                }));
            }
            if starts_with_ci(value, "commandlist") || starts_with_ci(value, "builtincommandlist") {
                // `together` is set by the caller, which knows the prefix.
                return Some(Some(Cmd::Run {
                    target: value.to_string(),
                    together: false,
                }));
            }
            return None;
        }
        "handling" => {
            return match value {
                "skip" => Some(Some(Cmd::Skip)),
                "abort" => Some(Some(Cmd::Abort)),
                _ => None,
            };
        }
        "draw"
        | "drawauto"
        | "drawindexed"
        | "drawindexedinstanced"
        | "drawinstanced"
        | "dispatch"
        | "drawindexedinstancedindirect"
        | "drawinstancedindirect"
        | "dispatchindirect" => {
            return parse_draw(key, value, e, at, warnings).map(|d| Some(Cmd::Draw(d)));
        }
        k if NO_GEOMETRY.contains(&k) => return Some(None),
        _ => {}
    }
    if is_ini_param(key) {
        return match Expr::parse(value) {
            Ok(_) => Some(None),
            Err(_) => None,
        };
    }
    // Variable assignments, `local $x = …`.
    let (local, var) = match key.strip_prefix("local ") {
        Some(v) => (true, v.trim()),
        None => (false, key),
    };
    if var.starts_with('$') {
        if !valid_var(var) {
            return None;
        }
        return match Expr::parse(value) {
            Ok(x) => Some(Some(Cmd::Assign {
                var: var.to_string(),
                expr: Some(x),
                local,
            })),
            Err(err) => {
                warnings.push(ModWarning::new(
                    at.clone(),
                    Some(e.raw.clone()),
                    format!("expression does not parse ({err}); ignored"),
                ));
                Some(None)
            }
        };
    }
    // Resource copies and bindings: `slot = [options] source [options]`. 3DMigoto reads the
    // value with `parse_enum_option_string` (util.h), words split at spaces: the first word
    // that is not a copy option is the source, and each later one is warned about ("Unknown
    // option") and ignored — so `ib = ResourceX ; comment` binds ResourceX.
    if is_slot_name(key) && key != "null" {
        let mut source = None;
        let mut unknown: Vec<&str> = Vec::new();
        for w in value.split(' ').filter(|w| !w.is_empty()) {
            if COPY_OPTIONS.contains(&w) {
                continue;
            }
            if source.is_none() {
                source = Some(w);
            } else {
                unknown.push(w);
            }
        }
        let cmd = bind(ini, section, key, source?, at, warnings)?;
        if !unknown.is_empty() {
            warnings.push(ModWarning::new(
                at.clone(),
                Some(e.raw.clone()),
                format!(
                    "`{}` after the source: not copy options (3DMigoto: \"Unknown option\"); ignored",
                    unknown.join(" ")
                ),
            ));
        }
        return Some(Some(cmd));
    }
    None
}

fn bind(
    ini: &Ini,
    section: &Section,
    key: &str,
    src: &str,
    at: &Where,
    warnings: &mut Vec<ModWarning>,
) -> Option<Cmd> {
    let source = if src == "null" {
        Source::Null
    } else if src.len() >= 9 && src.starts_with("resource") {
        if ini.find(src, &section.namespace).is_none() {
            warnings.push(ModWarning::new(
                at.clone(),
                Some(src.to_string()),
                "no such [Resource…] section in the mod's files (3DMigoto drops the line); ignored",
            ));
            return None;
        }
        Source::Resource(src.to_string())
    } else if is_slot_name(src) {
        Source::Other(src.to_string())
    } else {
        return None;
    };
    Some(Cmd::Bind {
        slot: key.to_string(),
        source,
    })
}

fn valid_var(v: &str) -> bool {
    // `valid_variable_name`, with namespaced names (`$\ns\var`) allowed where a variable is
    // read or assigned.
    let b = v.as_bytes();
    if b.len() < 2 || b[0] != b'$' {
        return false;
    }
    if b[1] == b'\\' {
        return v.len() > 3 && !v.ends_with('\\');
    }
    (b[1].is_ascii_lowercase() || b[1] == b'_')
        && b[2..]
            .iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
}

fn parse_draw(
    key: &str,
    value: &str,
    e: &Entry,
    at: &Where,
    warnings: &mut Vec<ModWarning>,
) -> Option<DrawCmd> {
    let mut args = |n: usize| -> Option<DrawArgs> {
        // Argument spans: split the original value text at commas.
        let parts: Vec<&str> = e.value.split(',').collect();
        if parts.len() != n {
            warnings.push(ModWarning::new(
                at.clone(),
                Some(e.raw.clone()),
                format!("`{key}` takes {n} comma-separated arguments"),
            ));
            return None;
        }
        let mut out = DrawArgs {
            args: Vec::new(),
            spans: Vec::new(),
        };
        let mut offset = e.value_span.0;
        for p in parts {
            let lead = p.len() - p.trim_start().len();
            let t = p.trim();
            match Expr::parse(&t.to_ascii_lowercase()) {
                Ok(x) => out.args.push(x),
                Err(err) => {
                    warnings.push(ModWarning::new(
                        at.clone(),
                        Some(e.raw.clone()),
                        format!("`{key}` argument `{t}` does not parse ({err})"),
                    ));
                    return None;
                }
            }
            let plain = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            out.spans
                .push(plain.then(|| (e.file, offset + lead, offset + lead + t.len())));
            offset += p.len() + 1;
        }
        Some(out)
    };
    Some(match key {
        "draw" => match value {
            "from_caller" => DrawCmd::FromCaller,
            "auto" => DrawCmd::DrawAuto,
            _ => DrawCmd::Draw(args(2)?),
        },
        "drawindexed" => match value {
            "auto" => DrawCmd::DrawIndexedAuto,
            _ => DrawCmd::DrawIndexed(args(3)?),
        },
        "drawindexedinstanced" => match value {
            "auto" => DrawCmd::DrawIndexedInstancedAuto,
            _ => DrawCmd::DrawIndexedInstanced(args(5)?),
        },
        "drawinstanced" => DrawCmd::DrawInstanced(args(4)?),
        other => DrawCmd::Other(other.to_string()),
    })
}

/// A variable that no `[Constants]` section (or `local`) declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undeclared;

/// Variables' values during a run: `None` for a value only the game knows.
pub trait Vars {
    /// The value of variable `name` (as written) read from a file in `namespace`, or `Err` when
    /// no such variable is declared.
    fn get(&self, name: &str, namespace: &str) -> Result<Option<f32>, Undeclared>;
    /// Sets a variable; `Err` when it is not declared.
    fn set(&mut self, name: &str, namespace: &str, value: Option<f32>) -> Result<(), Undeclared>;
}

/// Evaluates `expr` with `vars`; undeclared variables are reported through `undeclared`.
pub fn eval(expr: &Expr, vars: &dyn Vars, namespace: &str, undeclared: &mut Vec<String>) -> Val {
    let get = |v: &str| -> Option<f32> { vars.get(v, namespace).unwrap_or_default() };
    for v in expr.variables() {
        if vars.get(v, namespace).is_err() && !undeclared.iter().any(|u| u == v) {
            undeclared.push(v.to_string());
        }
    }
    expr.eval(&get)
}

/// Parses a `[Key…]` or `[Constants]` value list entry (`0,1,2`), blanks kept as `None`.
pub fn value_list(s: &str) -> Option<Vec<Option<f32>>> {
    s.split(',')
        .map(|p| {
            let t = p.trim();
            if t.is_empty() {
                Some(None)
            } else {
                parse_number(t).map(Some)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::migoto_mod::ini::parse_bytes;

    #[test]
    fn flow_control_tree_and_spans() {
        let text = "[ResourceA]\n[TextureOverrideX]\nhash = 1\nif $a == 1\n  vb0 = ResourceA\nelif $a == 2\n  ib = null\nelse\n  post drawindexed = 12, 3 , 0\nendif\nhandling = skip\nbogus line here = 1\n";
        let mut w = Vec::new();
        let ini = parse_bytes("t.ini", text.as_bytes(), &mut w).unwrap();
        let cmds = parse_section(&ini, 1, TEXTURE_OVERRIDE_KEYS, &|_, _| true, &mut w);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(
            w[0].to_string(),
            "t.ini:12: not understood in [TextureOverrideX]; ignored (`bogus line here = 1`)"
        );
        assert_eq!(cmds.len(), 2);
        let Cmd::If {
            branches,
            otherwise,
        } = &cmds[0].cmd
        else {
            panic!()
        };
        assert_eq!(branches.len(), 2);
        assert_eq!(branches[0].1, "$a == 1");
        assert!(
            matches!(&branches[1].2[0].cmd, Cmd::Bind { slot, source: Source::Null } if slot == "ib")
        );
        let l = &otherwise[0];
        assert_eq!(l.list, List::Post);
        let Cmd::Draw(DrawCmd::DrawIndexed(a)) = &l.cmd else {
            panic!()
        };
        let spans: Vec<_> = a
            .spans
            .iter()
            .map(|s| s.map(|(_, x, y)| &text[x..y]))
            .collect();
        assert_eq!(spans, vec![Some("12"), Some("3"), Some("0")]);
        assert_eq!(cmds[1].cmd, Cmd::Skip);
    }

    #[test]
    fn unbalanced() {
        let text = "[CommandListA]\nendif\nelse\nif 1\ndraw = 1, 0\nelse\ndraw = 2, 0\n";
        let mut w = Vec::new();
        let ini = parse_bytes("t.ini", text.as_bytes(), &mut w).unwrap();
        let cmds = parse_section(&ini, 0, &[], &|_, _| true, &mut w);
        let m: Vec<String> = w.iter().map(|x| x.to_string()).collect();
        assert!(m[0].starts_with("t.ini:2: `endif` without"), "{m:?}");
        assert!(m[1].starts_with("t.ini:3: `else` without"), "{m:?}");
        assert_eq!(
            m[2],
            "t.ini:4: `if` without `endif` in [CommandListA] (3DMigoto: `Statement \"if\" missing \"endif\"`): the `if` is dropped, every branch's lines run"
        );
        // Both branches' draws, in order, with no `if` around them.
        let entries: Vec<(usize, bool)> = cmds
            .iter()
            .map(|l| (l.entry, matches!(l.cmd, Cmd::Draw(_))))
            .collect();
        assert_eq!(entries, [(3, true), (5, true)]);
    }
}
