//! The INI layer of 3DMigoto's configuration language, as `IniHandler.cpp` (`ParseIniStream`,
//! `ParseIniSectionLine`, `ParseIniKeyValLine`, `ParseIncludedIniFiles`) reads it:
//!
//! * a line is trimmed of spaces and tabs; a line whose first character is `;` is a comment (a
//!   `;` later in a line is *not* a comment); `\r\n` and `\n` end lines; a UTF-8 byte-order mark
//!   at the start of a file is skipped;
//! * `[Name]` opens a section: the name runs to the first `]` (or the line's end) and is trimmed;
//!   names compare case-insensitively; a second prefixed section of the same name
//!   (`[TextureOverride…]`, `[Resource…]`, …) is ignored with a warning, as 3DMigoto keeps the
//!   first, while a second unprefixed one (`[Constants]`, `[Present]`) extends the first, as in
//!   every file 3DMigoto reads with a namespace — and it reads each mod INI so;
//! * a prefixed section that is no command list keeps the first value of a repeated key, with
//!   a warning (`key`/`back` in `[Key…]` and `[Include…]` keys excepted);
//! * other lines are `key = value` (split at the first `=`, both sides trimmed) or, in command-list
//!   sections, lines without `=` (`if …`, `endif`, `local $x`);
//! * lines before the first section are the preamble: `namespace = NAME` and
//!   `condition = EXPRESSION` (evaluated later), anything else a warning;
//! * `[Include…]` sections pull other files in (`include = FILE`, `include_recursive = DIR`,
//!   `exclude_recursive = GLOB`), relative to the including file's folder; an included file's
//!   prefixed sections (`TextureOverride…`, `Resource…`, `CommandList…`, …) live in its
//!   namespace (its declared `namespace`, else its path from the main file's folder), written
//!   `PrefixNAMESPACE\Rest` as 3DMigoto does; its unprefixed sections (`[Constants]`, `[Present]`)
//!   extend the main file's.
//!
//! Every entry keeps its file, line and the byte span of its value in the file, so that counts
//! can be rewritten in place (`super::writeback`) with every other byte unchanged.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{ModError, ModWarning, Where};

/// Largest INI file read (8 MiB): real mods' INI files are a few kilobytes to a few hundred;
/// the limit bounds what one file can make the reader allocate.
pub const MAX_INI_BYTES: u64 = 8 << 20;

/// Most INI files one mod may pull in through `[Include]` sections.
pub const MAX_INI_FILES: usize = 256;

/// One INI file read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniFile {
    /// The path as opened.
    pub path: PathBuf,
    /// The name used in messages (the path as given for the main file, relative to the main
    /// file's folder for included ones, `\` written as `/`).
    pub name: String,
    /// The file's bytes, unchanged.
    pub bytes: Vec<u8>,
    /// The namespace of its prefixed sections and variables (empty for the main file unless it
    /// declares one).
    pub namespace: String,
}

/// One line of a section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index into [`Ini::files`].
    pub file: usize,
    /// 1-based line.
    pub line: usize,
    /// The whole trimmed line.
    pub raw: String,
    /// The text before the first `=`, trimmed (empty for a line without `=`).
    pub key: String,
    /// The text after the first `=`, trimmed.
    pub value: String,
    /// Byte range of [`Entry::value`] in the file.
    pub value_span: (usize, usize),
    /// Whether the line has an `=`.
    pub has_eq: bool,
    /// The namespace the line was written in.
    pub namespace: String,
}

/// A section with its lines in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The name as written (namespaced as `Prefix\NAMESPACE\Rest` for included files).
    pub name: String,
    /// The file and line of its header.
    pub file: usize,
    /// 1-based line of the header.
    pub line: usize,
    /// Lines (several files' lines for `[Constants]`-like global sections).
    pub entries: Vec<Entry>,
    /// The namespace of the file that opened it.
    pub namespace: String,
}

/// The sections of a mod's INI files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ini {
    /// Files read, the main file first.
    pub files: Vec<IniFile>,
    /// Sections in the order they were opened.
    pub sections: Vec<Section>,
    /// Preamble `condition = …` lines: (file, entry).
    pub conditions: Vec<Entry>,
    index: HashMap<String, usize>,
}

/// Section-name prefixes that hold command lists (`IniHandler.cpp` `CommandListSections`):
/// (prefix, whether it is a prefix rather than an exact name).
pub const COMMAND_LIST_SECTIONS: &[(&str, bool)] = &[
    ("ShaderOverride", true),
    ("ShaderRegex", true),
    ("TextureOverride", true),
    ("CustomShader", true),
    ("CommandList", true),
    ("BuiltInCustomShader", true),
    ("BuiltInCommandList", true),
    ("Present", false),
    ("ClearRenderTargetView", false),
    ("ClearDepthStencilView", false),
    ("ClearUnorderedAccessViewUint", false),
    ("ClearUnorderedAccessViewFloat", false),
    ("Constants", false),
];

/// The other sections 3DMigoto knows (`RegularSections`).
pub const REGULAR_SECTIONS: &[(&str, bool)] = &[
    ("Logging", false),
    ("System", false),
    ("Device", false),
    ("Stereo", false),
    ("Rendering", false),
    ("Hunting", false),
    ("Profile", false),
    ("ConvergenceMap", false),
    ("Resource", true),
    ("Key", true),
    ("Preset", true),
    ("Include", true),
    ("Loader", false),
];

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len()
        && s.is_char_boundary(prefix.len())
        && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn in_list(name: &str, list: &[(&str, bool)]) -> bool {
    list.iter().any(|&(p, prefix)| {
        if prefix {
            starts_with_ci(name, p)
        } else {
            name.eq_ignore_ascii_case(p)
        }
    })
}

/// Whether a section holds a command list.
pub fn is_command_list_section(name: &str) -> bool {
    in_list(name, COMMAND_LIST_SECTIONS)
}

/// The prefix of a section name that 3DMigoto namespaces (`SectionPrefix`), as written in the
/// tables above.
pub fn section_prefix(name: &str) -> Option<&'static str> {
    COMMAND_LIST_SECTIONS
        .iter()
        .chain(REGULAR_SECTIONS)
        .find(|&&(p, prefix)| prefix && starts_with_ci(name, p))
        .map(|&(p, _)| p)
}

/// `Prefix\NAMESPACE\Rest` for a prefixed name in a namespace (`get_namespaced_section_name`).
pub fn namespaced(name: &str, namespace: &str) -> Option<String> {
    let prefix = section_prefix(name)?;
    Some(format!(
        "{}\\{}\\{}",
        &name[..prefix.len()],
        namespace,
        &name[prefix.len()..]
    ))
}

fn trim(s: &[u8]) -> (usize, &[u8]) {
    let start = s
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |e| e + 1);
    (start, &s[start..end.max(start)])
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Ini {
    /// The section named `name` (case-insensitive), seen from a file in `namespace`: the
    /// namespaced name first, then the global one (`get_namespaced_section_name_lower` and the
    /// fall-back every lookup in `CommandList.cpp` makes).
    pub fn find(&self, name: &str, namespace: &str) -> Option<usize> {
        if !namespace.is_empty()
            && let Some(n) = namespaced(name, namespace)
            && let Some(&i) = self.index.get(&n.to_ascii_lowercase())
        {
            return Some(i);
        }
        self.index.get(&name.to_ascii_lowercase()).copied()
    }

    /// The sections whose (namespaced) name starts with `prefix`, case-insensitively, in file
    /// order.
    pub fn with_prefix<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = usize> + 'a {
        self.sections
            .iter()
            .enumerate()
            .filter(move |(_, s)| starts_with_ci(&s.name, prefix))
            .map(|(i, _)| i)
    }

    /// Where an entry is.
    pub fn at(&self, e: &Entry) -> Where {
        Where {
            file: self.files[e.file].name.clone(),
            line: Some(e.line),
        }
    }

    /// Where a section header is.
    pub fn section_at(&self, s: &Section) -> Where {
        Where {
            file: self.files[s.file].name.clone(),
            line: Some(s.line),
        }
    }
}

/// Reads a main INI file and every file its `[Include]` sections name.
pub fn read(path: &Path, warnings: &mut Vec<ModWarning>) -> Result<Ini, ModError> {
    let name = path.display().to_string();
    let bytes = read_bounded(path, &name)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut ini = Ini::default();
    let mut loader = |rel: &str| -> Result<(PathBuf, Vec<u8>), String> {
        let p = dir.join(rel.replace('\\', "/"));
        read_bounded(&p, rel).map(|b| (p, b)).map_err(|e| e.message)
    };
    parse_into(
        &mut ini,
        path.to_path_buf(),
        name,
        bytes,
        String::new(),
        warnings,
    )?;
    follow_includes(&mut ini, &mut loader, &dir, warnings)?;
    Ok(ini)
}

/// Parses INI text that is not on disk (`file` names it in messages); `[Include]` sections are
/// reported as not followed.
pub fn parse_bytes(
    file: &str,
    bytes: &[u8],
    warnings: &mut Vec<ModWarning>,
) -> Result<Ini, ModError> {
    if bytes.len() as u64 > MAX_INI_BYTES {
        return Err(too_large(file, bytes.len() as u64));
    }
    let mut ini = Ini::default();
    parse_into(
        &mut ini,
        PathBuf::from(file),
        file.to_string(),
        bytes.to_vec(),
        String::new(),
        warnings,
    )?;
    let mut none = |rel: &str| -> Result<(PathBuf, Vec<u8>), String> {
        Err(format!(
            "{rel}: files are not read from INI text given in memory"
        ))
    };
    follow_includes(&mut ini, &mut none, Path::new(""), warnings)?;
    Ok(ini)
}

fn too_large(file: &str, len: u64) -> ModError {
    ModError::new(
        Where::file(file),
        Some(len.to_string()),
        format!(
            "the INI file is {len} bytes, larger than the {MAX_INI_BYTES}-byte limit of a mod INI"
        ),
    )
}

fn read_bounded(path: &Path, name: &str) -> Result<Vec<u8>, ModError> {
    use crate::input::ReadError;
    crate::input::read_file(path, MAX_INI_BYTES).map_err(|e| match e {
        ReadError::TooLarge { size, .. } => too_large(name, size.unwrap_or(MAX_INI_BYTES + 1)),
        e => ModError::new(Where::file(name), None, crate::capture::why_unread(&e)),
    })
}

fn parse_into(
    ini: &mut Ini,
    path: PathBuf,
    name: String,
    bytes: Vec<u8>,
    default_namespace: String,
    warnings: &mut Vec<ModWarning>,
) -> Result<(), ModError> {
    let file = ini.files.len();
    // The file is registered first (so messages about it can name it) and gets its bytes and
    // final namespace once read.
    ini.files.push(IniFile {
        path,
        name: name.clone(),
        bytes: Vec::new(),
        namespace: default_namespace.clone(),
    });
    if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
        return Err(ModError::new(
            Where::file(&name),
            None,
            "the file is UTF-16 (it starts with a UTF-16 byte-order mark); 3DMigoto reads INI files as 8-bit text",
        ));
    }
    let start = if bytes.starts_with(&[0xef, 0xbb, 0xbf]) {
        3
    } else {
        0
    };
    let mut namespace = default_namespace;
    let mut current: Option<usize> = None;
    let mut preamble = true;
    let mut pos = start;
    let mut line_no = 0usize;
    // Entries are collected first and namespaced once the preamble has set the namespace.
    while pos <= bytes.len() {
        line_no += 1;
        let end = bytes[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |e| pos + e);
        let mut line = &bytes[pos..end];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        let line_start = pos;
        pos = end + 1;
        let (off, t) = trim(line);
        if t.is_empty() || t[0] == b';' {
            continue;
        }
        let at = Where {
            file: name.clone(),
            line: Some(line_no),
        };
        if t[0] == b'[' {
            preamble = false;
            let close = t.iter().position(|&b| b == b']').unwrap_or(t.len());
            let (_, inner) = trim(&t[1..close.max(1)]);
            let mut sname = text(inner);
            if sname.is_empty() {
                warnings.push(ModWarning::new(
                    at,
                    Some(text(t)),
                    "empty section name; its lines are ignored",
                ));
                current = None;
                continue;
            }
            // A section without a prefix (`[Constants]`, `[Present]`, …) is global: a second
            // one extends the first (`ParseIniSectionLine`: `allow_duplicate_sections` in a
            // namespaced file). 3DMigoto reads every mod INI through an `[Include]`, which
            // gives it a namespace (its path) when it declares none, so this holds for the main
            // file too.
            let global_extension = section_prefix(&sname).is_none();
            if !namespace.is_empty()
                && let Some(n) = namespaced(&sname, &namespace)
            {
                sname = n;
            }
            let key = sname.to_ascii_lowercase();
            if let Some(&existing) = ini.index.get(&key) {
                if global_extension {
                    current = Some(existing);
                } else {
                    let first = ini.section_at(&ini.sections[existing]);
                    warnings.push(ModWarning::new(
                        at,
                        Some(sname),
                        format!(
                            "duplicate section (first at {first}); 3DMigoto keeps the first and ignores this one"
                        ),
                    ));
                    current = None;
                }
                continue;
            }
            let known = is_command_list_section(&sname) || in_list(&sname, REGULAR_SECTIONS);
            if !known {
                warnings.push(ModWarning::new(
                    at.clone(),
                    Some(sname.clone()),
                    "unknown section (3DMigoto warns and ignores it)",
                ));
            }
            ini.index.insert(key, ini.sections.len());
            ini.sections.push(Section {
                name: sname,
                file,
                line: line_no,
                entries: Vec::new(),
                namespace: namespace.clone(),
            });
            current = Some(ini.sections.len() - 1);
            continue;
        }
        let eq = t.iter().position(|&b| b == b'=');
        let (key, value, value_span) = match eq {
            Some(e) => {
                let (_, k) = trim(&t[..e]);
                let (voff, v) = trim(&t[e + 1..]);
                let vstart = line_start + off + e + 1 + voff;
                (text(k), text(v), (vstart, vstart + v.len()))
            }
            None => (String::new(), String::new(), (0, 0)),
        };
        let entry = Entry {
            file,
            line: line_no,
            raw: text(t),
            key,
            value,
            value_span,
            has_eq: eq.is_some(),
            namespace: namespace.clone(),
        };
        if preamble {
            if entry.has_eq && entry.key.eq_ignore_ascii_case("namespace") {
                namespace = entry.value.clone();
            } else if entry.has_eq && entry.key.eq_ignore_ascii_case("condition") {
                ini.conditions.push(entry);
            } else {
                warnings.push(ModWarning::new(
                    at,
                    Some(entry.raw),
                    "line outside of any section (before the first [section]); ignored",
                ));
            }
            continue;
        }
        let Some(c) = current else {
            continue;
        };
        if !entry.has_eq && !is_command_list_section(&ini.sections[c].name) {
            let sec = &ini.sections[c].name;
            if !starts_with_ci(sec, "Profile") && !starts_with_ci(sec, "ShaderRegex") {
                warnings.push(ModWarning::new(
                    at,
                    Some(entry.raw),
                    format!("line without `=` in [{sec}], which is not a command list; ignored"),
                ));
                continue;
            }
        }
        if entry.has_eq
            && let Some(first) = duplicate_key(&ini.sections[c], &entry)
        {
            let first = ini.at(first);
            let sec = &ini.sections[c].name;
            warnings.push(ModWarning::new(
                at,
                Some(entry.raw),
                format!(
                    "duplicate key in [{sec}] (first at {first}); 3DMigoto keeps the first (\"Duplicate key found\")"
                ),
            ));
            continue;
        }
        ini.sections[c].entries.push(entry);
    }
    ini.files[file].bytes = bytes;
    ini.files[file].namespace = namespace;
    Ok(())
}

/// The earlier entry of `section` with `entry`'s key, when 3DMigoto keeps only the first
/// (`ParseIniKeyValLine`: `kv_map.emplace`, read back by every `GetIni…` call, and "Duplicate
/// key found"). That holds in prefixed sections that are not command lists (`[Resource…]`,
/// `[Key…]`, …), except `key`/`back` in `[Key…]` and every key of `[Include…]`
/// (`whitelisted_duplicate_key`). Command-list sections keep every line (their non-command
/// keys are checked by [`super::commands::parse_section`]); unprefixed sections of a
/// namespaced file take the last value, and inlay reads none of their keys.
fn duplicate_key<'s>(section: &'s Section, entry: &Entry) -> Option<&'s Entry> {
    let name = &section.name;
    if is_command_list_section(name) || section_prefix(name).is_none() {
        return None;
    }
    if starts_with_ci(name, "Include")
        || (starts_with_ci(name, "Key")
            && (entry.key.eq_ignore_ascii_case("key") || entry.key.eq_ignore_ascii_case("back")))
    {
        return None;
    }
    section
        .entries
        .iter()
        .find(|e| e.has_eq && e.key.eq_ignore_ascii_case(&entry.key))
}

/// Reads an included file by its name as written: its path and bytes, or why not.
pub type Loader<'a> = dyn FnMut(&str) -> Result<(PathBuf, Vec<u8>), String> + 'a;

/// Follows `[Include…]` sections until no new ones appear, as `ParseIncludedIniFiles` does.
fn follow_includes(
    ini: &mut Ini,
    loader: &mut Loader<'_>,
    dir: &Path,
    warnings: &mut Vec<ModWarning>,
) -> Result<(), ModError> {
    let mut done_sections = 0usize;
    let mut seen: Vec<String> = Vec::new();
    loop {
        let includes: Vec<usize> = ini
            .with_prefix("Include")
            .filter(|&i| i >= done_sections)
            .collect();
        done_sections = ini.sections.len();
        if includes.is_empty() {
            return Ok(());
        }
        let mut excludes: Vec<String> = Vec::new();
        for &s in &includes {
            for e in &ini.sections[s].entries {
                if e.key.eq_ignore_ascii_case("exclude_recursive") {
                    excludes.push(e.value.clone());
                }
            }
        }
        for s in includes {
            let section = ini.sections[s].clone();
            // Paths are relative to the including file's folder.
            let base = ini.files[section.file].name.clone();
            let base_dir = if section.file == 0 {
                String::new()
            } else {
                match base.rfind('/') {
                    Some(p) => base[..=p].to_string(),
                    None => String::new(),
                }
            };
            for e in &section.entries {
                let at = ini.at(e);
                let key = e.key.to_ascii_lowercase();
                let rel = format!("{base_dir}{}", e.value.replace('\\', "/"));
                match key.as_str() {
                    "include" | "include_recursive" => {}
                    "exclude_recursive" | "user_config" => continue,
                    _ => {
                        warnings.push(ModWarning::new(
                            at,
                            Some(e.raw.clone()),
                            "unrecognised entry in an [Include] section; ignored",
                        ));
                        continue;
                    }
                }
                if seen.iter().any(|x| x.eq_ignore_ascii_case(&rel)) {
                    warnings.push(ModWarning::new(
                        at,
                        Some(e.value.clone()),
                        "file included more than once; read once",
                    ));
                    continue;
                }
                seen.push(rel.clone());
                let files: Vec<String> = if key == "include" {
                    vec![rel.clone()]
                } else {
                    match recursive_inis(dir, &rel, &excludes) {
                        Ok(f) => f,
                        Err(m) => {
                            warnings.push(ModWarning::new(at, Some(e.value.clone()), m));
                            continue;
                        }
                    }
                };
                for f in files {
                    if ini.files.len() >= MAX_INI_FILES {
                        return Err(ModError::new(
                            at,
                            Some(f),
                            format!("more than {MAX_INI_FILES} INI files included"),
                        ));
                    }
                    match loader(&f) {
                        Ok((path, bytes)) => {
                            let ns = f.replace('/', "\\");
                            parse_into(ini, path, f.clone(), bytes, ns, warnings)?;
                        }
                        Err(m) => warnings.push(ModWarning::new(
                            at.clone(),
                            Some(e.value.clone()),
                            format!("included file not read: {m}"),
                        )),
                    }
                }
            }
        }
    }
}

/// The `.ini` files under `rel` (sorted case-insensitively, files before folders at each
/// level, as `ParseIniFilesRecursive` orders them), minus those matching an exclude glob.
fn recursive_inis(dir: &Path, rel: &str, excludes: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut stack = vec![rel.trim_end_matches('/').to_string()];
    let mut visited = 0usize;
    while let Some(r) = stack.pop() {
        visited += 1;
        if visited > 4096 {
            return Err("more than 4096 folders under include_recursive".into());
        }
        let rd = std::fs::read_dir(dir.join(&r)).map_err(|e| format!("cannot list {r}: {e}"))?;
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        for entry in rd.flatten() {
            let n = entry.file_name().to_string_lossy().into_owned();
            if excludes
                .iter()
                .any(|g| glob_match(&g.to_ascii_lowercase(), &n.to_ascii_lowercase()))
            {
                continue;
            }
            let ft = entry.file_type().map_err(|e| e.to_string())?;
            if ft.is_dir() {
                dirs.push(n);
            } else if n.ends_with(".ini") {
                files.push(n);
            }
        }
        files.sort_by_key(|n| n.to_ascii_lowercase());
        dirs.sort_by_key(|n| n.to_ascii_lowercase());
        for f in files {
            out.push(format!("{r}/{f}"));
        }
        for d in dirs.into_iter().rev() {
            stack.push(format!("{r}/{d}"));
        }
        if out.len() > MAX_INI_FILES {
            return Err(format!("more than {MAX_INI_FILES} INI files"));
        }
    }
    Ok(out)
}

/// `*` and `?` globbing (`glob_to_regex`).
fn glob_match(glob: &str, name: &str) -> bool {
    let g: Vec<char> = glob.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut gi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if gi < g.len() && (g[gi] == '?' || g[gi] == n[ni]) {
            gi += 1;
            ni += 1;
        } else if gi < g.len() && g[gi] == '*' {
            star = Some(gi);
            mark = ni;
            gi += 1;
        } else if let Some(s) = star {
            gi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    while gi < g.len() && g[gi] == '*' {
        gi += 1;
    }
    gi == g.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(t: &str) -> (Ini, Vec<ModWarning>) {
        let mut w = Vec::new();
        let ini = parse_bytes("t.ini", t.as_bytes(), &mut w).expect("parses");
        (ini, w)
    }

    #[test]
    fn lines_comments_spans_bom_crlf() {
        let t = "\u{feff}; head\r\n[TextureOverrideA]\r\n  Hash = 1234abcd  \r\n; c\r\nfoo = a ; not a comment\r\nif $x == 1\r\n";
        let (ini, w) = parse(t);
        assert!(w.is_empty(), "{w:?}");
        let s = &ini.sections[0];
        assert_eq!(s.name, "TextureOverrideA");
        assert_eq!(s.line, 2);
        assert_eq!(s.entries.len(), 3);
        assert_eq!(s.entries[0].key, "Hash");
        assert_eq!(s.entries[0].value, "1234abcd");
        let (a, b) = s.entries[0].value_span;
        assert_eq!(&t.as_bytes()[a..b], b"1234abcd");
        assert_eq!(s.entries[1].value, "a ; not a comment");
        assert_eq!(s.entries[2].key, "if $x");
        assert_eq!(s.entries[2].raw, "if $x == 1");
        assert_eq!(s.entries[2].line, 6);
        assert_eq!(ini.find("textureoverridea", ""), Some(0));
    }

    #[test]
    fn duplicates_unknown_and_preamble() {
        let (ini, w) = parse(
            "namespace = Mine\nstray line\n[Foo]\n[Key1]\nkey = 1\n[KEY1]\nkey = 2\n[Resource1]\nnoequals\n",
        );
        let msgs: Vec<String> = w.iter().map(|w| w.to_string()).collect();
        assert!(
            msgs[0].starts_with("t.ini:2: line outside of any section"),
            "{msgs:?}"
        );
        assert!(msgs[1].contains("t.ini:3: unknown section"), "{msgs:?}");
        assert!(
            msgs[2].contains("t.ini:6: duplicate section (first at t.ini:4)"),
            "{msgs:?}"
        );
        assert!(msgs[3].contains("t.ini:9: line without `=`"), "{msgs:?}");
        assert_eq!(ini.files[0].namespace, "Mine");
        // The main file's sections are namespaced once it declares a namespace.
        assert_eq!(ini.sections[1].name, "Key\\Mine\\1");
        assert_eq!(ini.find("Key1", "Mine"), Some(1));
    }

    #[test]
    fn globs() {
        assert!(glob_match("disabled*", "disabledmod"));
        assert!(glob_match("*.ini", "a.ini"));
        assert!(!glob_match("a?c", "ac"));
        assert!(glob_match("a*b*c", "aXbYc"));
    }
}
