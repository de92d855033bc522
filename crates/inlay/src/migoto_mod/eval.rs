//! Running a mod's command lists offline for one state: `[Constants]` (globals and their
//! initial values), the state's variable values, `[Present]`, then every draw context — the
//! `[TextureOverride…]` sections sharing one `hash`, once per draw they match (each
//! `match_first_index` / `match_index_count` the sections name), in 3DMigoto's order (by
//! `match_priority`, then section name), and each `[ShaderOverride…]` section. What a context
//! binds (`vb0 = ResourceX`, `ib = …`, `ps-t0 = …`, `ResourceY = ref ResourceX`) and draws is
//! recorded with the conditions it depended on.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::commands::{self, Branch, Cmd, DrawCmd, Located, Source, Vars};
use super::expr::{Expr, parse_number};
use super::ini::{Ini, is_command_list_section};
use super::{ModWarning, Resource, State, Toggle, ToggleKind, Variable, Where};

/// Most nested `run` commands followed.
const MAX_RUN_DEPTH: usize = 64;

/// Deepest nesting of `if` blocks and `run` calls together while running (each section's `if`
/// blocks are bounded by [`commands::MAX_IF_DEPTH`], but a chain of `run` calls can stack
/// them): the evaluator recurses once per level, so this bounds its stack. 3DMigoto stops
/// command lists nested deeper than 256 (`MAX_COMMAND_LIST_RECURSION`, `_RunCommandList`).
pub const MAX_NESTING: usize = 256;

/// Most states [`all_states`] lists.
pub const MAX_STATES: usize = 1024;

/// What a slot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A `[Resource…]` section (index into the resources).
    Res(usize),
    /// `null`.
    Null,
    /// Something else: another slot's resource, the back buffer, …
    Other(String),
}

/// A draw recorded while running a context.
#[derive(Clone, Debug)]
pub struct RawDraw {
    /// The draw command (`None` for the game's own draw of a context that did not skip it).
    pub cmd: Option<DrawCmd>,
    /// Evaluated arguments.
    pub args: Vec<Option<f32>>,
    /// The command's line (the context's first section for the game's draw).
    pub at: Where,
    /// The section the context is named after.
    pub context_section: usize,
    /// The section holding the draw command.
    pub section: usize,
    /// Vertex buffers bound at the draw.
    pub vb: BTreeMap<u32, Bound>,
    /// Index buffer bound at the draw.
    pub ib: Option<Bound>,
    /// Other slots (`ps-t0`, `this`, …).
    pub textures: Vec<(String, Bound)>,
    /// Conditions it depends on (`$swap == 1`, `draw_type == 1 (unknown)`).
    pub conditions: Vec<String>,
    /// The context's hash.
    pub hash: Option<u32>,
    /// The context's `match_first_index`.
    pub first_index: Option<u32>,
    /// The context's `match_index_count`.
    pub index_count: Option<u32>,
    /// Literal argument spans (file, start, end) for the write-back.
    pub spans: Vec<Option<(usize, usize, usize)>>,
}

/// A binding seen anywhere while running.
#[derive(Clone, Debug)]
pub struct SeenBind {
    /// Slot (`vb0`, `ib`, `cs-t6`, `resourcefoo`).
    pub slot: String,
    /// The resource bound.
    pub resource: usize,
    /// The section the binding was written in.
    pub section: usize,
    /// The hash of the context it ran in.
    pub hash: Option<u32>,
}

/// Everything a run for one state gives.
#[derive(Clone, Debug, Default)]
pub struct Evaluated {
    /// Draws, context by context.
    pub draws: Vec<RawDraw>,
    /// Bindings seen.
    pub binds: Vec<SeenBind>,
    /// Variables' values after `[Constants]`, the state and `[Present]`.
    pub values: BTreeMap<String, Option<f32>>,
}

/// A mod's command lists, variables, toggles and resources, parsed once.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Per section, its command list (command-list sections only).
    pub lists: Vec<Option<Vec<Located>>>,
    /// Globals declared in `[Constants]`.
    pub globals: Vec<Variable>,
    /// `[Key…]` sections.
    pub toggles: Vec<Toggle>,
    /// `[Resource…]` sections.
    pub resources: Vec<Resource>,
    /// Section index → resource index.
    pub resource_of: HashMap<usize, usize>,
    /// Per section: `match_priority`, `match_first_index`, `match_index_count`, `hash`.
    pub matches: HashMap<usize, Match>,
}

/// The draw-context keys of a `[TextureOverride…]` section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Match {
    /// `hash`.
    pub hash: Option<u32>,
    /// `match_priority`.
    pub priority: i32,
    /// `match_first_index` (operator, value); no value when it compares with a resource field
    /// (`width`, …), which no draw matches.
    pub first_index: Option<(String, Option<u32>)>,
    /// `match_index_count`, as `first_index`.
    pub index_count: Option<(String, Option<u32>)>,
    /// Other draw-context keys (`match_first_vertex`, …) are present.
    pub other: bool,
}

/// A hash as 3DMigoto reads one (IniHandler.cpp `GetIniHash`: `sscanf_s(val, "%16llx%n")`
/// and the whole value consumed, else "Hash parse error"): white space, an optional sign, an
/// optional `0x`/`0X`, hexadecimal digits, at most 16 characters from the sign on and nothing
/// after them. A minus sign negates modulo 2^64, as C's conversion does. A TextureOverride's
/// hash is this value truncated to 32 bits.
pub fn parse_hash(value: &str) -> Option<u64> {
    let b = value.as_bytes();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let mut width = 16;
    let mut negative = false;
    if let Some(&c @ (b'+' | b'-')) = b.get(i) {
        negative = c == b'-';
        i += 1;
        width -= 1;
    }
    if b.get(i) == Some(&b'0')
        && matches!(b.get(i + 1), Some(b'x' | b'X'))
        && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        i += 2;
        width -= 2;
    }
    let start = i;
    let mut v: u64 = 0;
    while i - start < width
        && let Some(d) = b.get(i).and_then(|&c| (c as char).to_digit(16))
    {
        v = (v << 4) | u64::from(d);
        i += 1;
    }
    (i > start && i == b.len()).then_some(if negative { v.wrapping_neg() } else { v })
}

/// `swscanf(s, L"%u%n")`: white space, an optional sign, decimal digits; the value (a minus
/// sign negates it modulo 2^32) and the characters read, or `None` when no digit is read.
/// `Err` for a number past 4294967295, which C leaves undefined.
fn scan_u32(s: &str) -> Option<Result<(u32, usize), ()>> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let negative = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let start = i;
    let mut v: u64 = 0;
    while let Some(d) = b.get(i).filter(|c| c.is_ascii_digit()) {
        v = (v * 10 + u64::from(d - b'0')).min(u64::from(u32::MAX) + 1);
        i += 1;
    }
    if i == start {
        return None;
    }
    let Ok(v) = u32::try_from(v) else {
        return Some(Err(()));
    };
    Some(Ok((if negative { v.wrapping_neg() } else { v }, i)))
}

/// A draw-context match (`match_first_index = [op] value`) as
/// `parse_fuzzy_numeric_match_expression` (IniHandler.cpp) leaves it: the operator (`=` when
/// none), and the number, or `None` when it compares with a resource field (`width`, …), which
/// a draw's number never matches (ResourceHash.cpp `FuzzyMatch::matches_uint`). The second
/// value is 3DMigoto's complaint, if any: a number followed by other text (`12 ; sides`) keeps
/// the number `swscanf` stored before the text failed to parse; text that is no number
/// compares with 0.
fn fuzzy(s: &str) -> ((String, Option<u32>), Option<String>) {
    let (op, rest) = ["<=", ">=", "=", "!", "<", ">"]
        .iter()
        .find_map(|op| s.strip_prefix(op).map(|r| (*op, r)))
        .unwrap_or(("=", s));
    let rest = rest.trim_start_matches(' ');
    let complaint = |what: String, result: &(String, Option<u32>)| {
        Some(match result.1 {
            Some(v) => format!("{what}; matched as `{}{v}`", result.0),
            None => format!("{what}; it names a resource field, so it matches no draw"),
        })
    };
    let parse_error = |at: &str, result: &(String, Option<u32>)| {
        complaint(
            format!(
                "not a draw-context match as 3DMigoto reads it (`[operator] value`; 3DMigoto: \"Unable to parse expression\" at `{at}`)"
            ),
            result,
        )
    };
    let mut value = 0;
    match scan_u32(rest) {
        Some(Ok((v, n))) => {
            value = v;
            if n == rest.len() {
                return ((op.to_string(), Some(v)), None);
            }
        }
        Some(Err(())) => {
            return (
                (op.to_string(), None),
                Some("the number is past 4294967295, which 3DMigoto's `%u` cannot hold (C leaves the result undefined); taken as matching no draw".into()),
            );
        }
        None => {}
    }
    // `parse_fuzzy_field_name`, then `* multiplier` or `* field`, then `/ divider`: whatever
    // follows, a named field makes the key match no draw.
    let field = |p: &mut &str| -> (bool, bool) {
        *p = p.trim_start_matches(' ');
        let named = [
            "width",
            "height",
            "depth",
            "array",
            "res_width",
            "res_height",
        ]
        .iter()
        .find(|n| p.starts_with(**n));
        if let Some(n) = named {
            *p = &p[n.len()..];
        }
        let terminated = p.is_empty() || p.starts_with(' ');
        *p = p.trim_start_matches(' ');
        (named.is_some(), terminated)
    };
    let mut p = rest;
    let (named, terminated) = field(&mut p);
    let result = (op.to_string(), if named { None } else { Some(value) });
    if !terminated {
        return (result.clone(), parse_error(p, &result));
    }
    if let Some(r) = p.strip_prefix('*') {
        p = r;
        match scan_u32(p) {
            Some(Ok((_, n))) => p = &p[n..],
            _ => {
                let (_, terminated) = field(&mut p);
                if !terminated {
                    return (result.clone(), parse_error(p, &result));
                }
                if let Some(r) = p.strip_prefix('*') {
                    p = r;
                    match scan_u32(p) {
                        Some(Ok((_, n))) => p = &p[n..],
                        _ => return (result.clone(), parse_error(p, &result)),
                    }
                }
            }
        }
    }
    p = p.trim_start_matches(' ');
    if let Some(r) = p.strip_prefix('/') {
        p = r;
        match scan_u32(p) {
            Some(Ok((0, _))) => {
                let c = complaint(
                    "the divider is zero (3DMigoto: \"Denominator is zero\")".into(),
                    &result,
                );
                return (result, c);
            }
            Some(Ok((_, n))) => p = &p[n..],
            _ => return (result.clone(), parse_error(p, &result)),
        }
    }
    if !p.is_empty() {
        return (result.clone(), parse_error(p, &result));
    }
    let c = named.then(|| {
        "a draw-context match compares a draw's number with a resource field (3DMigoto: `FuzzyMatch::matches_uint` is false)".to_string()
    });
    let c = c.and_then(|c| complaint(c, &result));
    (result, c)
}

fn fuzzy_ok(m: &Option<(String, Option<u32>)>, v: Option<u32>) -> bool {
    match (m, v) {
        (None, _) => true,
        (Some(_), None) | (Some((_, None)), _) => false,
        (Some((op, Some(x))), Some(v)) => match op.as_str() {
            "<=" => v <= *x,
            ">=" => v >= *x,
            "!" => v != *x,
            "<" => v < *x,
            ">" => v > *x,
            _ => v == *x,
        },
    }
}

const RESOURCE_KEYS: &[&str] = &[
    "type",
    "filename",
    "format",
    "stride",
    "width",
    "height",
    "depth",
    "mips",
    "array",
    "msaa",
    "msaa_quality",
    "byte_width",
    "width_multiply",
    "height_multiply",
    "bind_flags",
    "misc_flags",
    "max_copies_per_frame",
    "mode",
    "data",
];

const KEY_KEYS: &[&str] = &[
    "key",
    "back",
    "type",
    "delay",
    "release_delay",
    "wrap",
    "smart",
    "transition",
    "release_transition",
    "transition_type",
    "release_transition_type",
    "condition",
    "run",
    "separation",
    "convergence",
    "unique_triggers_required",
];

/// The canonical (lower-case, namespaced) name of a global declared as `name` in `namespace`.
fn global_name(name: &str, namespace: &str) -> String {
    let n = name.to_ascii_lowercase();
    if namespace.is_empty() || n.starts_with("$\\") {
        n
    } else {
        format!("$\\{}\\{}", namespace.to_ascii_lowercase(), &n[1..])
    }
}

/// Parses what does not depend on the state.
pub fn program(ini: &Ini, warnings: &mut Vec<ModWarning>) -> Program {
    let mut p = Program {
        lists: vec![None; ini.sections.len()],
        ..Program::default()
    };
    // Resources.
    for (i, s) in ini.sections.iter().enumerate() {
        if !starts_ci(&s.name, "Resource") {
            continue;
        }
        let mut r = Resource {
            name: s.name.clone(),
            at: ini.section_at(s),
            kind: None,
            stride: None,
            format: None,
            filename: None,
            filename_at: None,
            path: None,
            namespace: s.namespace.clone(),
            file: s.file,
        };
        // A later duplicate key was dropped (with a warning) as the INI was read.
        for e in &s.entries {
            let k = e.key.to_ascii_lowercase();
            let at = ini.at(e);
            match k.as_str() {
                "type" => r.kind = Some(e.value.clone()),
                "filename" => {
                    r.filename = Some(e.value.clone());
                    r.filename_at = Some(at);
                }
                "stride" => match e.value.trim().parse::<u32>() {
                    Ok(v) => r.stride = Some(v),
                    Err(_) => warnings.push(ModWarning::new(
                        at,
                        Some(e.value.clone()),
                        "stride is not a whole number; ignored",
                    )),
                },
                "format" => match e.value.parse::<crate::format::Format>() {
                    Ok(f) if f.info().is_some() => r.format = Some(f),
                    _ => warnings.push(ModWarning::new(
                        at,
                        Some(e.value.clone()),
                        "unknown DXGI format (3DMigoto: \"Unknown format\"); ignored",
                    )),
                },
                k if RESOURCE_KEYS.contains(&k) => {}
                _ => warnings.push(ModWarning::new(
                    at,
                    Some(e.raw.clone()),
                    "not a [Resource…] key; ignored".to_string(),
                )),
            }
        }
        if let Some(f) = &r.filename {
            let base = ini.files[s.file]
                .path
                .parent()
                .map(|d| d.to_path_buf())
                .unwrap_or_default();
            r.path = Some(base.join(f.replace('\\', "/")));
        }
        p.resource_of.insert(i, p.resources.len());
        p.resources.push(r);
    }
    // Globals: the first pass over [Constants] (`ParseConstantsSection`).
    if let Some(ci) = ini.find("Constants", "") {
        for e in &ini.sections[ci].entries {
            let text = if e.has_eq { &e.key } else { &e.raw };
            let lower = text.to_ascii_lowercase();
            let mut words: Vec<&str> = lower.split_whitespace().collect();
            let mut global = false;
            let mut persist = false;
            while let Some(w) = words.first() {
                match *w {
                    "global" => global = true,
                    "persist" => persist = true,
                    _ => break,
                }
                words.remove(0);
            }
            if !global {
                continue;
            }
            let at = ini.at(e);
            let name = words.join(" ");
            if words.len() != 1 || !name.starts_with('$') || name.len() < 2 {
                warnings.push(ModWarning::new(
                    at,
                    Some(name),
                    "illegal global variable name (3DMigoto ignores the declaration)",
                ));
                continue;
            }
            let initial = if e.has_eq && !e.value.is_empty() {
                match parse_number(&e.value) {
                    Some(v) => v,
                    None => {
                        warnings.push(ModWarning::new(
                            at,
                            Some(e.value.clone()),
                            "initial value is not a number (3DMigoto: \"Floating point parse error\"); the declaration is ignored",
                        ));
                        continue;
                    }
                }
            } else {
                0.0
            };
            let canonical = global_name(&name, &e.namespace);
            if p.globals.iter().any(|g| g.name == canonical) {
                warnings.push(ModWarning::new(
                    at,
                    Some(name),
                    "redeclaration (3DMigoto keeps the first)",
                ));
                continue;
            }
            p.globals.push(Variable {
                name: canonical,
                initial,
                persist,
                at,
            });
        }
    }
    // What a condition may read: the mod's globals (namespaced as in `Env::key`), and a
    // `$\\namespace\\name` of a namespace none of the mod's files has, which another INI (a
    // loader's, another mod's) may declare: its value is only known in game.
    let globals: BTreeSet<String> = p.globals.iter().map(|g| g.name.clone()).collect();
    let namespaces: Vec<String> = ini
        .files
        .iter()
        .map(|f| f.namespace.to_ascii_lowercase())
        .collect();
    let declared = |name: &str, namespace: &str| {
        let n = name.to_ascii_lowercase();
        if globals.contains(&global_name(&n, namespace)) || globals.contains(&n) {
            return true;
        }
        n.strip_prefix("$\\")
            .and_then(|r| r.rsplit_once('\\'))
            .is_some_and(|(ns, _)| !namespaces.iter().any(|x| *x == ns))
    };
    // Command lists.
    for (i, s) in ini.sections.iter().enumerate() {
        if !is_command_list_section(&s.name) {
            continue;
        }
        let mut whitelist: Vec<&str> = Vec::new();
        if starts_ci(&s.name, "TextureOverride") {
            whitelist.extend_from_slice(commands::TEXTURE_OVERRIDE_KEYS);
        } else if starts_ci(&s.name, "ShaderOverride")
            || starts_ci(&s.name, "CustomShader")
            || starts_ci(&s.name, "BuiltInCustomShader")
            || starts_ci(&s.name, "ShaderRegex")
        {
            whitelist.extend_from_slice(commands::SHADER_KEYS);
        }
        let mut list_warnings = Vec::new();
        let list = if s.name.eq_ignore_ascii_case("Constants") {
            // Global declarations were read above; the rest is a command list.
            let mut copy = ini.clone();
            copy.sections[i].entries.retain(|e| {
                let t = if e.has_eq { &e.key } else { &e.raw };
                let l = t.trim_start().to_ascii_lowercase();
                !(l.starts_with("global ") || l.starts_with("persist "))
            });
            commands::parse_section(&copy, i, &whitelist, &declared, &mut list_warnings)
        } else {
            commands::parse_section(ini, i, &whitelist, &declared, &mut list_warnings)
        };
        warnings.extend(list_warnings);
        if starts_ci(&s.name, "TextureOverride") {
            let mut m = Match::default();
            // Each key's first value (`GetIniString`); `parse_section` warned of the others.
            let mut seen: Vec<String> = Vec::new();
            for e in &s.entries {
                let k = e.key.to_ascii_lowercase();
                if !e.has_eq || seen.contains(&k) {
                    continue;
                }
                seen.push(k.clone());
                match k.as_str() {
                    // `ParseTextureOverrideSections`: `(uint32_t)GetIniHash(id, L"Hash", …)`.
                    "hash" => match parse_hash(&e.value) {
                        Some(h) => m.hash = Some(h as u32),
                        None => warnings.push(ModWarning::new(
                            ini.at(e),
                            Some(e.value.clone()),
                            "not a hash as 3DMigoto reads it (up to 16 hexadecimal digits after an optional `0x`, nothing after them; 3DMigoto: \"Hash parse error\")",
                        )),
                    },
                    "match_priority" => m.priority = e.value.trim().parse().unwrap_or(0),
                    "match_first_index" | "match_index_count" => {
                        let (f, complaint) = fuzzy(&e.value);
                        if let Some(c) = complaint {
                            warnings.push(ModWarning::new(ini.at(e), Some(e.value.clone()), c));
                        }
                        if k == "match_first_index" {
                            m.first_index = Some(f);
                        } else {
                            m.index_count = Some(f);
                        }
                    }
                    "match_first_vertex"
                    | "match_first_instance"
                    | "match_vertex_count"
                    | "match_instance_count" => m.other = true,
                    _ => {}
                }
            }
            let fuzzy_keys = s.entries.iter().any(|e| {
                commands::FUZZY_MATCH_KEYS
                    .iter()
                    .any(|k| e.key.eq_ignore_ascii_case(k))
            });
            if m.hash.is_none() && !fuzzy_keys {
                // `ParseTextureOverrideSections` skips the section: it never runs.
                warnings.push(ModWarning::new(
                    ini.section_at(s),
                    Some(s.name.clone()),
                    "section without a valid `hash` (3DMigoto: \"missing Hash= or valid match options\"); never run",
                ));
                continue;
            }
            p.matches.insert(i, m);
        }
        p.lists[i] = Some(list);
    }
    // Toggles.
    for i in ini.with_prefix("Key").collect::<Vec<_>>() {
        let s = &ini.sections[i];
        let mut t = Toggle {
            section: s.name.clone(),
            at: ini.section_at(s),
            keys: Vec::new(),
            kind: ToggleKind::Activate,
            vars: Vec::new(),
            condition: None,
        };
        for e in &s.entries {
            let k = e.key.to_ascii_lowercase();
            let at = ini.at(e);
            match k.as_str() {
                "key" | "back" => t.keys.push(e.value.clone()),
                "type" => {
                    t.kind = match e.value.to_ascii_lowercase().as_str() {
                        "activate" => ToggleKind::Activate,
                        "hold" => ToggleKind::Hold,
                        "toggle" => ToggleKind::Toggle,
                        "cycle" => ToggleKind::Cycle,
                        _ => {
                            warnings.push(ModWarning::new(
                                at,
                                Some(e.value.clone()),
                                "unknown key type (expected activate, hold, toggle or cycle); taken as activate",
                            ));
                            ToggleKind::Activate
                        }
                    }
                }
                "condition" => t.condition = Some(e.value.clone()),
                _ if k.starts_with('$') => {
                    let name = global_name(&k, &e.namespace);
                    let declared = p.globals.iter().any(|g| g.name == name)
                        || p.globals.iter().any(|g| g.name == k);
                    if !declared {
                        warnings.push(ModWarning::new(
                            at,
                            Some(e.key.clone()),
                            "undeclared variable (no `global` in [Constants]; 3DMigoto: \"Undeclared variable\"); ignored",
                        ));
                        continue;
                    }
                    let name = if p.globals.iter().any(|g| g.name == name) {
                        name
                    } else {
                        k.clone()
                    };
                    match commands::value_list(&e.value) {
                        Some(v) if !v.is_empty() => t.vars.push((name, v)),
                        _ => warnings.push(ModWarning::new(
                            at,
                            Some(e.value.clone()),
                            "values must be numbers separated by commas; ignored",
                        )),
                    }
                }
                _ if KEY_KEYS.contains(&k.as_str()) || super::expr::is_ini_param(&k) => {}
                _ => warnings.push(ModWarning::new(
                    at,
                    Some(e.raw.clone()),
                    "not a [Key…] key; ignored".to_string(),
                )),
            }
        }
        if t.keys.is_empty() {
            warnings.push(ModWarning::new(
                t.at.clone(),
                Some(t.section.clone()),
                "key section without `key =` (3DMigoto: \"missing Key=\"); it never triggers",
            ));
            continue;
        }
        if t.kind != ToggleKind::Cycle {
            for (v, vals) in &mut t.vars {
                if vals.len() > 1 {
                    warnings.push(ModWarning::new(
                        t.at.clone(),
                        Some(v.clone()),
                        "several values for a key that is not `type = cycle`; the first is used",
                    ));
                    vals.truncate(1);
                }
            }
        }
        p.toggles.push(t);
    }
    p
}

fn starts_ci(s: &str, p: &str) -> bool {
    s.len() >= p.len() && s.is_char_boundary(p.len()) && s[..p.len()].eq_ignore_ascii_case(p)
}

/// The default state: every toggled variable at its initial value.
pub fn default_state(p: &Program) -> State {
    let mut values: BTreeMap<String, f32> = BTreeMap::new();
    for t in &p.toggles {
        for (v, _) in &t.vars {
            let init = p
                .globals
                .iter()
                .find(|g| &g.name == v)
                .map_or(0.0, |g| g.initial);
            values.insert(v.clone(), init);
        }
    }
    State {
        values: values.into_iter().collect(),
    }
}

/// Every state the toggles reach from the default state: per toggle, its values before any
/// press and after each press (each step of a cycle), combined over all toggles.
pub fn all_states(p: &Program) -> Result<Vec<State>, usize> {
    let base = default_state(p);
    let mut states: Vec<BTreeMap<String, f32>> = vec![base.values.iter().cloned().collect()];
    for t in &p.toggles {
        // Options: assignments this toggle can leave in place.
        let mut options: Vec<Vec<(String, f32)>> = vec![Vec::new()];
        match t.kind {
            ToggleKind::Cycle => {
                let n = t.vars.iter().map(|v| v.1.len()).max().unwrap_or(0);
                let mut cur: Vec<(String, f32)> = Vec::new();
                for i in 0..n {
                    for (v, vals) in &t.vars {
                        if let Some(Some(x)) = vals.get(i) {
                            cur.retain(|c| &c.0 != v);
                            cur.push((v.clone(), *x));
                        }
                    }
                    options.push(cur.clone());
                }
            }
            _ => options.push(
                t.vars
                    .iter()
                    .filter_map(|(v, vals)| vals.first().copied().flatten().map(|x| (v.clone(), x)))
                    .collect(),
            ),
        }
        let mut next = Vec::new();
        for s in &states {
            for o in &options {
                let mut n = s.clone();
                for (v, x) in o {
                    n.insert(v.clone(), *x);
                }
                if !next.contains(&n) {
                    next.push(n);
                }
                if next.len() > MAX_STATES {
                    return Err(next.len());
                }
            }
        }
        states = next;
    }
    Ok(states
        .into_iter()
        .map(|m| State {
            values: m.into_iter().collect(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::{fuzzy, parse_hash};

    /// `parse_fuzzy_numeric_match_expression` and `FuzzyMatch::matches_uint`: the operator,
    /// the number `swscanf` stored (kept when text follows it), a field matching nothing.
    #[test]
    fn draw_context_matches_as_3dmigoto_parses_them() {
        let f = |s: &str| {
            let ((op, v), c) = fuzzy(s);
            (op, v, c.is_some())
        };
        let m = |op: &str, v: Option<u32>, complaint: bool| (op.to_string(), v, complaint);
        assert_eq!(f("12"), m("=", Some(12), false));
        assert_eq!(f(">=  6"), m(">=", Some(6), false));
        assert_eq!(f("!0"), m("!", Some(0), false));
        assert_eq!(f("-1"), m("=", Some(u32::MAX), false));
        assert_eq!(f("12 ; sides"), m("=", Some(12), true));
        assert_eq!(f("<12x"), m("<", Some(12), true));
        assert_eq!(f("abc"), m("=", Some(0), true));
        assert_eq!(f("<"), m("<", Some(0), false));
        assert_eq!(f("width"), m("=", None, true));
        assert_eq!(f("res_width * 2 / 3"), m("=", None, true));
        assert_eq!(f("Width"), m("=", Some(0), true));
        assert_eq!(f("99999999999"), m("=", None, true));
        assert_eq!(
            fuzzy("12 ; sides").1.unwrap(),
            "not a draw-context match as 3DMigoto reads it (`[operator] value`; 3DMigoto: \"Unable to parse expression\" at `12 ; sides`); matched as `=12`"
        );
    }

    /// `%16llx` as C reads it: the field width counts the sign and the `0x`.
    #[test]
    fn hashes_as_sscanf_reads_them() {
        for (text, want) in [
            ("1a2b3c4d", Some(0x1a2b3c4d)),
            ("0X4d5e6f70", Some(0x4d5e6f70)),
            ("0x4D5E6F70", Some(0x4d5e6f70)),
            ("1234567f4d5e6f71", Some(0x1234567f4d5e6f71)),
            ("0x1234567f4d5e6f", Some(0x1234567f4d5e6f)),
            ("+abc", Some(0xabc)),
            ("-1", Some(u64::MAX)),
            ("0", Some(0)),
            // 17 characters, or 16 digits after `0x`: the 17th is left over.
            ("1234567f4d5e6f71a", None),
            ("0x1234567f4d5e6f71", None),
            ("4d5e6f70 ; body", None),
            ("4d5e6f70h", None),
            ("xyz", None),
            ("0x", None),
            ("", None),
            ("-", None),
        ] {
            assert_eq!(parse_hash(text), want, "{text}");
        }
        assert_eq!(
            parse_hash("1234567f4d5e6f71").map(|h| h as u32),
            Some(0x4d5e6f71)
        );
    }
}

#[derive(Clone, Debug, Default)]
struct Env {
    globals: BTreeMap<String, Option<f32>>,
    locals: BTreeMap<String, Option<f32>>,
}

impl Env {
    fn key(&self, name: &str, namespace: &str) -> Option<String> {
        let n = name.to_ascii_lowercase();
        if self.locals.contains_key(&n) {
            return Some(n);
        }
        if !namespace.is_empty() && !n.starts_with("$\\") {
            let k = global_name(&n, namespace);
            if self.globals.contains_key(&k) {
                return Some(k);
            }
        }
        self.globals.contains_key(&n).then_some(n)
    }
}

impl Vars for Env {
    fn get(&self, name: &str, namespace: &str) -> Result<Option<f32>, commands::Undeclared> {
        let k = self.key(name, namespace).ok_or(commands::Undeclared)?;
        Ok(self
            .locals
            .get(&k)
            .or_else(|| self.globals.get(&k))
            .copied()
            .flatten())
    }

    fn set(
        &mut self,
        name: &str,
        namespace: &str,
        value: Option<f32>,
    ) -> Result<(), commands::Undeclared> {
        let k = self.key(name, namespace).ok_or(commands::Undeclared)?;
        if let Some(v) = self.locals.get_mut(&k) {
            *v = value;
        } else if let Some(v) = self.globals.get_mut(&k) {
            *v = value;
        }
        Ok(())
    }
}

struct Ctx<'a> {
    ini: &'a Ini,
    p: &'a Program,
    env: Env,
    vb: BTreeMap<u32, Bound>,
    ib: Option<Bound>,
    tex: BTreeMap<String, Bound>,
    aliases: HashMap<usize, Bound>,
    skip: bool,
    aborted: bool,
    /// Whether the post lists run (`state->post`).
    post: bool,
    conds: Vec<String>,
    stack: Vec<usize>,
    /// How many lists deep the run is (`if` bodies and `run` targets).
    depth: usize,
    context_section: usize,
    hash: Option<u32>,
    first_index: Option<u32>,
    index_count: Option<u32>,
    out: &'a mut Evaluated,
    warnings: &'a mut Vec<ModWarning>,
    warned: &'a mut BTreeSet<String>,
}

impl Ctx<'_> {
    fn warn(&mut self, at: Where, value: Option<String>, message: String) {
        let key = format!("{at}|{message}");
        if self.warned.insert(key) {
            self.warnings.push(ModWarning::new(at, value, message));
        }
    }

    fn resource(&self, name: &str, namespace: &str) -> Option<usize> {
        let s = self.ini.find(name, namespace)?;
        self.p.resource_of.get(&s).copied()
    }

    fn follow(&self, b: Bound) -> Bound {
        let mut cur = b;
        for _ in 0..16 {
            match &cur {
                Bound::Res(r) => match self.aliases.get(r) {
                    Some(next) if next != &cur => cur = next.clone(),
                    _ => return cur,
                },
                _ => return cur,
            }
        }
        cur
    }

    /// Whether a command may run a nested list; a warning when that would nest deeper than
    /// [`MAX_NESTING`].
    fn may_nest(&mut self, l: &Located) -> bool {
        if self.depth < MAX_NESTING {
            return true;
        }
        let at = self.at(l);
        self.warn(
            at,
            None,
            format!("`if` blocks and `run` calls nesting deeper than {MAX_NESTING}; not followed"),
        );
        false
    }

    fn run(&mut self, list: &[Located]) {
        self.depth += 1;
        self.run_list(list);
        self.depth -= 1;
    }

    /// Runs the commands of `list` in the current list (`self.post`) until one aborts.
    fn run_list(&mut self, list: &[Located]) {
        for l in list {
            if self.aborted {
                return;
            }
            if l.list.runs_in(self.post) {
                self.command(l);
            }
        }
    }

    /// Runs a section's pre list, then its post list (`run_pre_and_post_together`).
    fn run_together(&mut self, list: &[Located]) {
        let saved = self.post;
        self.post = false;
        self.run(list);
        self.post = true;
        self.run(list);
        self.post = saved;
    }

    fn at(&self, l: &Located) -> Where {
        self.ini.at(&self.ini.sections[l.section].entries[l.entry])
    }

    fn namespace(&self, l: &Located) -> String {
        self.ini.sections[l.section].entries[l.entry]
            .namespace
            .clone()
    }

    fn eval(&mut self, e: &Expr, l: &Located) -> Option<f32> {
        let ns = self.namespace(l);
        let mut undeclared = Vec::new();
        let v = commands::eval(e, &self.env, &ns, &mut undeclared);
        for u in undeclared {
            let at = self.at(l);
            let foreign = u
                .strip_prefix("$\\")
                .and_then(|r| r.rsplit_once('\\'))
                .is_some_and(|(n, _)| {
                    !self
                        .ini
                        .files
                        .iter()
                        .any(|f| f.namespace.eq_ignore_ascii_case(n))
                });
            let message = if foreign {
                "variable of a namespace none of the mod's files has (another INI, such as a loader's, may declare it); its value is only known in game"
            } else {
                "undeclared variable (3DMigoto refuses the line: \"Unrecognised entry\"); its value is taken as unknown"
            };
            self.warn(at, Some(u), message.into());
        }
        match v {
            super::expr::Val::Known(x) => Some(x),
            super::expr::Val::Unknown => None,
        }
    }

    /// Runs one command. Each kind has a method of its own, so that the recursive path (an
    /// `if` body, a `run` target) keeps small stack frames.
    fn command(&mut self, l: &Located) {
        match &l.cmd {
            Cmd::If {
                branches,
                otherwise,
            } => self.run_if(l, branches, otherwise),
            Cmd::Assign { var, expr, local } => self.assign(l, var, expr.as_ref(), *local),
            Cmd::Bind { slot, source } => self.bind(l, slot, source),
            Cmd::Draw(d) => self.draw(l, d),
            Cmd::Run { target, together } => self.run_section(l, target, *together),
            Cmd::CheckTextureOverride(_) => {}
            // `SkipCommand::run` skips the game's draw (`call_info->skip`); `AbortCommand::run`
            // only stops the lists still to run in this state (`state->aborted`, checked by
            // `_RunCommandList`): the game's draw still happens (CommandList.cpp).
            Cmd::Skip => self.skip = true,
            Cmd::Abort => self.aborted = true,
        }
    }

    #[inline(never)]
    fn run_if(&mut self, l: &Located, branches: &[Branch], otherwise: &[Located]) {
        if !self.may_nest(l) {
            return;
        }
        let before = self.env.clone();
        let mut unknown_taken = false;
        let mut decided = false;
        for (cond, text, body) in branches {
            let v = match cond {
                Some(c) => self.eval(c, l),
                None => None,
            };
            match v.map(|x| x != 0.0) {
                Some(false) => continue,
                Some(true) => {
                    self.conds.push(text.clone());
                    self.run(body);
                    self.conds.pop();
                    decided = true;
                    break;
                }
                None => {
                    unknown_taken = true;
                    self.conds.push(format!("{text} (only known in game)"));
                    self.run(body);
                    self.conds.pop();
                }
            }
        }
        if !decided {
            let text = if unknown_taken {
                "else (only known in game)".to_string()
            } else {
                "else".to_string()
            };
            if !otherwise.is_empty() {
                self.conds.push(text);
                self.run(otherwise);
                self.conds.pop();
            }
        }
        if unknown_taken {
            // Variables set in a branch that may or may not run are unknown after it.
            let after = self.env.clone();
            for (k, v) in after.globals.iter() {
                if before.globals.get(k) != Some(v) {
                    self.env.globals.insert(k.clone(), None);
                }
            }
            for (k, v) in after.locals.iter() {
                if before.locals.get(k) != Some(v) {
                    self.env.locals.insert(k.clone(), None);
                }
            }
        }
    }

    #[inline(never)]
    fn assign(&mut self, l: &Located, var: &str, expr: Option<&Expr>, local: bool) {
        let ns = self.namespace(l);
        if local {
            self.env.locals.insert(var.to_string(), Some(0.0));
        }
        let Some(e) = expr else { return };
        let v = self.eval(e, l);
        if self.env.set(var, &ns, v).is_err() {
            let at = self.at(l);
            self.warn(
                at,
                Some(var.to_string()),
                "assignment to an undeclared variable (3DMigoto: \"Unrecognised entry\"); ignored"
                    .into(),
            );
        }
    }

    #[inline(never)]
    fn bind(&mut self, l: &Located, slot: &str, source: &Source) {
        let ns = self.namespace(l);
        let b = match source {
            Source::Null => Bound::Null,
            Source::Other(s) => match s.as_str() {
                s if s.starts_with("vb") => s[2..]
                    .parse::<u32>()
                    .ok()
                    .and_then(|n| self.vb.get(&n).cloned())
                    .unwrap_or(Bound::Other(s.to_string())),
                "ib" => self.ib.clone().unwrap_or(Bound::Other("ib".into())),
                s => self
                    .tex
                    .get(s)
                    .cloned()
                    .unwrap_or(Bound::Other(s.to_string())),
            },
            Source::Resource(r) => match self.resource(r, &ns) {
                Some(i) => self.follow(Bound::Res(i)),
                None => return,
            },
        };
        if let Bound::Res(r) = b {
            self.out.binds.push(SeenBind {
                slot: slot.to_string(),
                resource: r,
                section: l.section,
                hash: self.hash,
            });
        }
        if let Some(n) = slot.strip_prefix("vb").and_then(|n| n.parse::<u32>().ok()) {
            self.vb.insert(n, b);
        } else if slot == "ib" {
            self.ib = Some(b);
        } else if slot.starts_with("resource") {
            if let Some(dst) = self.resource(slot, &ns) {
                self.aliases.insert(dst, b);
            }
        } else {
            self.tex.insert(slot.to_string(), b);
        }
    }

    #[inline(never)]
    fn draw(&mut self, l: &Located, d: &DrawCmd) {
        let (args, spans) = match d {
            DrawCmd::Draw(a)
            | DrawCmd::DrawIndexed(a)
            | DrawCmd::DrawIndexedInstanced(a)
            | DrawCmd::DrawInstanced(a) => (
                a.args.iter().map(|x| self.eval(x, l)).collect(),
                a.spans.clone(),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let at = self.at(l);
        self.out.draws.push(RawDraw {
            cmd: Some(d.clone()),
            args,
            at,
            context_section: self.context_section,
            section: l.section,
            vb: self.vb.clone(),
            ib: self.ib.clone(),
            textures: self
                .tex
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            conditions: self.conds.clone(),
            hash: self.hash,
            first_index: self.first_index,
            index_count: self.index_count,
            spans,
        });
    }

    #[inline(never)]
    fn run_section(&mut self, l: &Located, target: &str, together: bool) {
        let ns = self.namespace(l);
        let at = self.at(l);
        let Some(s) = self.ini.find(target, &ns) else {
            self.warn(
                at,
                Some(target.to_string()),
                "`run` names no section of the mod's files (it may belong to another INI, such as the loader's); not followed".into(),
            );
            return;
        };
        if let Some(pos) = self.stack.iter().position(|&x| x == s) {
            let chain: Vec<String> = self.stack[pos..]
                .iter()
                .map(|&x| {
                    let sec = &self.ini.sections[x];
                    format!("[{}] ({})", sec.name, self.ini.section_at(sec))
                })
                .collect();
            self.warn(
                at,
                Some(target.to_string()),
                format!(
                    "`run` cycle: {} → [{}]; 3DMigoto would recurse without end; not followed",
                    chain.join(" → "),
                    self.ini.sections[s].name
                ),
            );
            return;
        }
        if self.stack.len() >= MAX_RUN_DEPTH {
            self.warn(
                at,
                Some(target.to_string()),
                format!("`run` nested deeper than {MAX_RUN_DEPTH}; not followed"),
            );
            return;
        }
        let Some(list) = self.p.lists[s].as_ref() else {
            return;
        };
        if !self.may_nest(l) {
            return;
        }
        let custom = starts_ci(&self.ini.sections[s].name, "CustomShader")
            || starts_ci(&self.ini.sections[s].name, "BuiltInCustomShader");
        let saved = custom.then(|| (self.vb.clone(), self.ib.clone(), self.tex.clone()));
        self.stack.push(s);
        if together {
            self.run_together(list);
        } else {
            self.run(list);
        }
        self.stack.pop();
        if let Some((vb, ib, tex)) = saved {
            // A custom shader restores the pipeline state it changed. It runs in its caller's
            // state (`RunCustomShaderCommand::run`): a `handling = skip` or `abort` in it
            // holds for the caller too.
            self.vb = vb;
            self.ib = ib;
            self.tex = tex;
        }
    }
}

/// Runs the mod for `state` (values of toggled or `--set` variables); `assume` are the values
/// the loader sets (a profile's `assume`).
pub fn run(
    ini: &Ini,
    p: &Program,
    state: &State,
    assume: &[(String, f32)],
    warnings: &mut Vec<ModWarning>,
) -> Evaluated {
    let mut out = Evaluated::default();
    let mut warned = BTreeSet::new();
    let mut env = Env::default();
    for g in &p.globals {
        env.globals.insert(g.name.clone(), Some(g.initial));
    }
    let mut base_aliases = HashMap::new();
    let run_list = |section: Option<usize>,
                    env: &mut Env,
                    aliases: &mut HashMap<usize, Bound>,
                    out: &mut Evaluated,
                    warnings: &mut Vec<ModWarning>,
                    warned: &mut BTreeSet<String>| {
        let Some(s) = section else { return };
        let Some(list) = p.lists[s].as_ref() else {
            return;
        };
        let mut ctx = Ctx {
            ini,
            p,
            env: env.clone(),
            vb: BTreeMap::new(),
            ib: None,
            tex: BTreeMap::new(),
            aliases: aliases.clone(),
            skip: false,
            aborted: false,
            post: false,
            conds: Vec::new(),
            stack: vec![s],
            depth: 0,
            context_section: s,
            hash: None,
            first_index: None,
            index_count: None,
            out,
            warnings,
            warned,
        };
        // The pre list, then the post list in a state of its own (`RunCommandList` with
        // `post`: HackerContext.cpp runs `[Constants]`' and `[Present]`'s so).
        ctx.run(list);
        ctx.aborted = false;
        ctx.post = true;
        ctx.run(list);
        *env = ctx.env;
        *aliases = ctx.aliases;
    };
    run_list(
        ini.find("Constants", ""),
        &mut env,
        &mut base_aliases,
        &mut out,
        warnings,
        &mut warned,
    );
    for (v, x) in assume.iter().chain(state.values.iter()) {
        // State values name declared variables only (toggles and --set are checked).
        let _ = env.set(v, "", Some(*x));
    }
    run_list(
        ini.find("Present", ""),
        &mut env,
        &mut base_aliases,
        &mut out,
        warnings,
        &mut warned,
    );
    out.values = env.globals.clone();
    // Draw contexts: TextureOverride sections grouped by hash.
    let mut groups: BTreeMap<Option<u32>, Vec<usize>> = BTreeMap::new();
    let mut loose: Vec<usize> = Vec::new();
    for (&s, m) in &p.matches {
        match m.hash {
            Some(h) => groups.entry(Some(h)).or_default().push(s),
            None => loose.push(s),
        }
    }
    loose.sort_unstable();
    // (hash, sections, match_first_index, match_index_count, first section's order)
    type Context = (Option<u32>, Vec<usize>, Option<u32>, Option<u32>, usize);
    let mut contexts: Vec<Context> = Vec::new();
    for (hash, mut secs) in groups {
        // `TextureOverrideLess` (ResourceHash.cpp): by `match_priority`, then by section name
        // compared as `std::wstring` does, case-sensitively by UTF-16 code unit (`Zed` runs
        // before `alpha`).
        secs.sort_by(|a, b| {
            let (ma, mb) = (&p.matches[a], &p.matches[b]);
            ma.priority.cmp(&mb.priority).then_with(|| {
                ini.sections[*a]
                    .name
                    .encode_utf16()
                    .cmp(ini.sections[*b].name.encode_utf16())
            })
        });
        // The draws the sections tell apart: each (first index, index count) a section matches
        // exactly.
        let mut keys: Vec<(Option<u32>, Option<u32>, usize)> = Vec::new();
        for &s in &secs {
            let m = &p.matches[&s];
            let fi = m
                .first_index
                .as_ref()
                .filter(|f| f.0 == "=")
                .and_then(|f| f.1);
            let ic = m
                .index_count
                .as_ref()
                .filter(|f| f.0 == "=")
                .and_then(|f| f.1);
            if (fi.is_some() || ic.is_some()) && !keys.iter().any(|k| k.0 == fi && k.1 == ic) {
                keys.push((fi, ic, s));
            }
        }
        if keys.is_empty() {
            keys.push((None, None, secs[0]));
        }
        for (fi, ic, named) in keys {
            let members: Vec<usize> = secs
                .iter()
                .copied()
                .filter(|s| {
                    let m = &p.matches[s];
                    fuzzy_ok(&m.first_index, fi) && fuzzy_ok(&m.index_count, ic)
                })
                .collect();
            contexts.push((hash, members, fi, ic, named));
        }
    }
    for s in loose {
        contexts.push((None, vec![s], None, None, s));
    }
    // Per context: run its sections in order; a context that does not skip ends with the
    // game's own draw.
    let mut caller: Vec<(usize, RawDraw)> = Vec::new();
    for (hash, members, fi, ic, named) in &contexts {
        let mut ctx = Ctx {
            ini,
            p,
            env: env.clone(),
            vb: BTreeMap::new(),
            ib: None,
            tex: BTreeMap::new(),
            aliases: base_aliases.clone(),
            skip: false,
            aborted: false,
            post: false,
            conds: Vec::new(),
            stack: Vec::new(),
            depth: 0,
            context_section: *named,
            hash: *hash,
            first_index: *fi,
            index_count: *ic,
            out: &mut out,
            warnings,
            warned: &mut warned,
        };
        for &s in members {
            if ctx.aborted {
                break;
            }
            if let Some(list) = p.lists[s].as_ref() {
                ctx.stack = vec![s];
                ctx.run(list);
            }
        }
        let games_draw = !ctx.skip && matches!(ctx.ib, Some(Bound::Res(_))) && hash.is_some();
        if games_draw {
            let named_section = &ini.sections[*named];
            caller.push((
                caller.len(),
                RawDraw {
                    cmd: None,
                    args: Vec::new(),
                    at: ini.section_at(named_section),
                    context_section: *named,
                    section: *named,
                    vb: ctx.vb.clone(),
                    ib: ctx.ib.clone(),
                    textures: ctx
                        .tex
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                    conditions: Vec::new(),
                    hash: *hash,
                    first_index: *fi,
                    index_count: *ic,
                    spans: Vec::new(),
                },
            ));
        }
        // After the game's draw (skipped or not), the sections' post lists, in a new state
        // (HackerContext.cpp `AfterDraw`): what they draw is drawn after the game's draw.
        ctx.aborted = false;
        ctx.post = true;
        for &s in members {
            if ctx.aborted {
                break;
            }
            if let Some(list) = p.lists[s].as_ref() {
                ctx.stack = vec![s];
                ctx.run(list);
            }
        }
    }
    // ShaderOverride sections: each its own context.
    for s in ini.with_prefix("ShaderOverride").collect::<Vec<_>>() {
        run_list(
            Some(s),
            &mut env.clone(),
            &mut base_aliases.clone(),
            &mut out,
            warnings,
            &mut warned,
        );
    }
    out.draws.extend(caller.into_iter().map(|c| c.1));
    out
}
