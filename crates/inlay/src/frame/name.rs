//! The names 3DMigoto gives the files of a frame analysis, read back.
//!
//! Three families, all written by 3DMigoto's `FrameAnalysis.cpp` (DirectX11):
//!
//! * **per-draw names** (`FrameAnalysisFilename`):
//!   `[F.]DDDDDD-[Xs-]REG[N][=!MUCS!][=HASH][(ORIG)][@HANDLE][-vs=…][-hs=…][-ds=…][-gs=…][-ps=…].EXT`,
//!   or `…[-cs=…]` for a dispatch. `F.` is the frame number of a `hold` analysis, `DDDDDD` the
//!   draw number (`%06i`, more digits past 999999), `Xs-` the shader stage of a constant
//!   buffer or texture slot (`vs-cb0`, `ps-t3`), `REG` one of `vb ib cb t o oD u`, `N` the slot,
//!   `=!MUCS!` the hash-contamination marks, `HASH` the resource hash (`%08x`), `(ORIG)` the
//!   original hash when it differs, `@HANDLE` the resource pointer (`filename_handle`), and the
//!   shader hashes `%016x`. With the `filename_reg` option the register comes first:
//!   `[Xs-]REG[N]-[F.]DDDDDD[=…]…`. A Windows shortcut left where a hard link failed is the same
//!   name with `.lnk` appended.
//! * **resource dumps outside draws** (`FrameAnalysisFilenameResource`, `dump_on_update` /
//!   `dump_on_unmap`): `[F.]DDDDDD.K-TYPE[=…][=HASH][(ORIG)]@HANDLE.EXT`.
//! * **de-duplicated files** in `deduped/` (`dedupe_buf_filename*`): `HASH.buf`, `HASH.dsc`
//!   (the content hash, crc32c of the bytes and the buffer description), their text forms
//!   `HASH-vbN-layout=L-topology=T-offset=O-stride=S-first=F-count=C-first_inst=I-inst_count=J.txt`,
//!   `HASH-ib-format=R16_UINT-topology=T-offset=O-first=F-count=C.txt`,
//!   `HASH-cbN-offset=O-stride=S.txt`, textures `HASH-FORMAT.dds`; a file rotated at the
//!   hard-link limit is `HASH.R.EXT`.
//!
//! Parsers here never panic and never allocate more than the name's length.

#![forbid(unsafe_code)]

/// What register a per-draw dump holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Register {
    /// `vbN`: vertex buffer slot N.
    Vb(u32),
    /// `ib`: the index buffer.
    Ib,
    /// `cbN`: constant buffer slot N (of the stage in [`DumpName::stage`]).
    Cb(u32),
    /// `tN`: shader resource (texture or buffer) slot N.
    T(u32),
    /// `oN`: render target N.
    O(u32),
    /// `oD`: the depth-stencil target.
    Depth,
    /// `uN`: unordered-access view N.
    U(u32),
}

impl Register {
    /// The register as 3DMigoto writes it: `vb0`, `ib`, `cb2`, `t0`, `o1`, `oD`, `u0`.
    pub fn name(self) -> String {
        match self {
            Register::Vb(n) => format!("vb{n}"),
            Register::Ib => "ib".into(),
            Register::Cb(n) => format!("cb{n}"),
            Register::T(n) => format!("t{n}"),
            Register::O(n) => format!("o{n}"),
            Register::Depth => "oD".into(),
            Register::U(n) => format!("u{n}"),
        }
    }
}

/// The shader stages whose hashes a name or a log line carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Shaders {
    /// Vertex shader hash.
    pub vs: Option<u64>,
    /// Hull shader hash.
    pub hs: Option<u64>,
    /// Domain shader hash.
    pub ds: Option<u64>,
    /// Geometry shader hash.
    pub gs: Option<u64>,
    /// Pixel shader hash.
    pub ps: Option<u64>,
    /// Compute shader hash.
    pub cs: Option<u64>,
}

impl Shaders {
    /// The stages in 3DMigoto's name order with their hashes: `vs hs ds gs ps cs`.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, Option<u64>)> {
        [
            ("vs", self.vs),
            ("hs", self.hs),
            ("ds", self.ds),
            ("gs", self.gs),
            ("ps", self.ps),
            ("cs", self.cs),
        ]
        .into_iter()
    }

    /// The hash slot of stage `s` (`"vs"` … `"cs"`).
    pub fn get_mut(&mut self, s: &str) -> Option<&mut Option<u64>> {
        Some(match s {
            "vs" => &mut self.vs,
            "hs" => &mut self.hs,
            "ds" => &mut self.ds,
            "gs" => &mut self.gs,
            "ps" => &mut self.ps,
            "cs" => &mut self.cs,
            _ => return None,
        })
    }

    /// The hash of stage `s`.
    pub fn get(&self, s: &str) -> Option<u64> {
        self.iter().find(|(n, _)| *n == s).and_then(|(_, h)| h)
    }
}

/// A per-draw dump file name, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpName {
    /// The `hold` frame number, if the name has one.
    pub frame: Option<u32>,
    /// The draw number.
    pub draw: u32,
    /// The shader stage letter of a `Xs-` prefix (`v h d g p c`).
    pub stage: Option<char>,
    /// The register.
    pub register: Register,
    /// Whether the name is in the `filename_reg` order (register first).
    pub register_first: bool,
    /// The hash-contamination marks between `=!` and `!` (`M`, `U`, `C`, `S`).
    pub contamination: Option<String>,
    /// The resource hash.
    pub hash: Option<u32>,
    /// The original hash, when the resource's hash changed.
    pub orig_hash: Option<u32>,
    /// The resource handle (`filename_handle`).
    pub handle: Option<u64>,
    /// The shader hashes.
    pub shaders: Shaders,
    /// The extension, lower case, without the dot (`txt`, `buf`, `dds`, …).
    pub ext: String,
    /// Whether this is a Windows shortcut (`NAME.EXT.lnk`) standing for the file.
    pub shortcut: bool,
}

/// A de-duplicated file name in `deduped/`, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DedupedName {
    /// The content hash.
    pub hash: u32,
    /// The rotation number of a file rotated at the hard-link limit (`HASH.R.EXT`).
    pub rotation: Option<u32>,
    /// The register the text form names (`vbN`, `ib`, `cbN`), if any.
    pub register: Option<Register>,
    /// The `key=value` fields after it, in order (`layout`, `topology`, `offset`, `stride`,
    /// `first`, `count`, `first_inst`, `inst_count`, `format`), or the texture format.
    pub fields: Vec<(String, String)>,
    /// The extension, lower case.
    pub ext: String,
}

impl DedupedName {
    /// The value of field `key` as a number.
    pub fn number(&self, key: &str) -> Option<u32> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.parse().ok())
    }
}

/// Splits `NAME.EXT[.lnk]` into (NAME, ext lower case, shortcut).
fn split_ext(name: &str) -> Option<(&str, String, bool)> {
    let (name, shortcut) = match name.len().checked_sub(4) {
        Some(p) if name.is_char_boundary(p) && name[p..].eq_ignore_ascii_case(".lnk") => {
            (&name[..p], true)
        }
        _ => (name, false),
    };
    let dot = name.rfind('.')?;
    let ext = &name[dot + 1..];
    if ext.is_empty() || ext.len() > 4 || !ext.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    Some((&name[..dot], ext.to_ascii_lowercase(), shortcut))
}

/// A cursor over a name's bytes.
struct Cur<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cur<'a> {
    fn rest(&self) -> &'a [u8] {
        &self.s[self.i.min(self.s.len())..]
    }
    fn eat(&mut self, p: &[u8]) -> bool {
        if self.rest().starts_with(p) {
            self.i += p.len();
            true
        } else {
            false
        }
    }
    fn digits(&mut self) -> Option<u32> {
        let n = self
            .rest()
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if n == 0 || n > 10 {
            return None;
        }
        let v = std::str::from_utf8(&self.rest()[..n]).ok()?.parse().ok()?;
        self.i += n;
        Some(v)
    }
    fn hex(&mut self, min: usize, max: usize) -> Option<u64> {
        // Digits and value in one pass (every dump name holds three or four hashes).
        let (mut n, mut v) = (0usize, 0u64);
        for &b in self.rest().iter().take(max + 1) {
            let d = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => break,
            };
            n += 1;
            v = v.checked_mul(16)? | u64::from(d);
        }
        if n < min || n > max {
            return None;
        }
        self.i += n;
        Some(v)
    }
    fn done(&self) -> bool {
        self.i >= self.s.len()
    }
}

/// `[F.]DDDDDD` — the frame number (hold) and draw number. A draw number has at least six
/// digits (`%06i`).
fn draw_number(c: &mut Cur<'_>) -> Option<(Option<u32>, u32)> {
    let start = c.i;
    let a_len = c.rest().iter().take_while(|b| b.is_ascii_digit()).count();
    let a = c.digits()?;
    if c.rest().first() == Some(&b'.') {
        let save = c.i;
        c.i += 1;
        let b_len = c.rest().iter().take_while(|b| b.is_ascii_digit()).count();
        if b_len >= 6
            && let Some(b) = c.digits()
        {
            return Some((Some(a), b));
        }
        c.i = save;
    }
    if a_len < 6 {
        c.i = start;
        return None;
    }
    Some((None, a))
}

/// `[Xs-]REG[N]`.
fn register(c: &mut Cur<'_>) -> Option<(Option<char>, Register)> {
    let mut stage = None;
    let r = c.rest();
    if r.len() >= 3 && r[1] == b's' && r[2] == b'-' && b"vhdgpc".contains(&r[0]) {
        stage = Some(r[0] as char);
        c.i += 3;
    }
    let reg = if c.eat(b"vb") {
        Register::Vb(c.digits()?)
    } else if c.eat(b"ib") {
        Register::Ib
    } else if c.eat(b"cb") {
        Register::Cb(c.digits()?)
    } else if c.eat(b"oD") {
        Register::Depth
    } else if c.eat(b"o") {
        Register::O(c.digits()?)
    } else if c.eat(b"t") {
        Register::T(c.digits()?)
    } else if c.eat(b"u") {
        Register::U(c.digits()?)
    } else {
        return None;
    };
    // A stage prefix belongs to cb and t slots only.
    if stage.is_some() && !matches!(reg, Register::Cb(_) | Register::T(_)) {
        return None;
    }
    Some((stage, reg))
}

/// `[=!MUCS!][=HASH][(ORIG)][@HANDLE]`.
#[allow(clippy::type_complexity)]
fn hashes(c: &mut Cur<'_>) -> Option<(Option<String>, Option<u32>, Option<u32>, Option<u64>)> {
    let mut contamination = None;
    let mut hash = None;
    let mut orig = None;
    let mut handle = None;
    if c.eat(b"=!") {
        let n = c.rest().iter().take_while(|b| b"MUCS".contains(b)).count();
        contamination = Some(String::from_utf8_lossy(&c.rest()[..n]).into_owned());
        c.i += n;
        if !c.eat(b"!") {
            return None;
        }
    }
    if c.eat(b"=") {
        hash = Some(c.hex(8, 8)? as u32);
        if c.eat(b"(") {
            orig = Some(c.hex(8, 8)? as u32);
            if !c.eat(b")") {
                return None;
            }
        }
    } else if contamination.is_some() {
        return None;
    }
    if c.eat(b"@") {
        handle = Some(c.hex(1, 16)?);
    }
    Some((contamination, hash, orig, handle))
}

/// `[-vs=H][-hs=H][-ds=H][-gs=H][-ps=H][-cs=H]` to the end of the name.
fn shader_hashes(c: &mut Cur<'_>) -> Option<Shaders> {
    let mut s = Shaders::default();
    while !c.done() {
        if !c.eat(b"-") {
            return None;
        }
        let r = c.rest();
        if r.len() < 3 || r[1] != b's' || r[2] != b'=' {
            return None;
        }
        let stage = match r[0] {
            b'v' => "vs",
            b'h' => "hs",
            b'd' => "ds",
            b'g' => "gs",
            b'p' => "ps",
            b'c' => "cs",
            _ => return None,
        };
        c.i += 3;
        let h = c.hex(1, 16)?;
        let slot = s.get_mut(stage)?;
        if slot.is_some() {
            return None;
        }
        *slot = Some(h);
    }
    Some(s)
}

/// Reads a per-draw dump file name (the file name only, no folder). `None` when the name
/// is not one 3DMigoto writes for a draw.
///
/// ```
/// use inlay::frame::name::{parse_dump_name, Register};
/// let n = parse_dump_name("000012-vb1=8a2c31f0-vs=e8425f64cfb887cd-ps=0123456789abcdef.txt").unwrap();
/// assert_eq!((n.draw, n.register, n.hash), (12, Register::Vb(1), Some(0x8a2c31f0)));
/// assert_eq!(n.shaders.vs, Some(0xe8425f64cfb887cd));
/// ```
pub fn parse_dump_name(name: &str) -> Option<DumpName> {
    let (stem, ext, shortcut) = split_ext(name)?;
    let mut c = Cur {
        s: stem.as_bytes(),
        i: 0,
    };
    // Draw number first (the default), else the register first (`filename_reg`).
    let (frame, draw, stage, register, register_first) = if let Some((f, d)) = draw_number(&mut c) {
        if !c.eat(b"-") {
            return None;
        }
        let (stage, reg) = register(&mut c)?;
        (f, d, stage, reg, false)
    } else {
        let (stage, reg) = register(&mut c)?;
        if !c.eat(b"-") {
            return None;
        }
        let (f, d) = draw_number(&mut c)?;
        (f, d, stage, reg, true)
    };
    let (contamination, hash, orig_hash, handle) = hashes(&mut c)?;
    let shaders = shader_hashes(&mut c)?;
    // A dispatch names only `cs`; a draw never does.
    if shaders.cs.is_some() && shaders.iter().filter(|(_, h)| h.is_some()).count() > 1 {
        return None;
    }
    Some(DumpName {
        frame,
        draw,
        stage,
        register,
        register_first,
        contamination,
        hash,
        orig_hash,
        handle,
        shaders,
        ext,
        shortcut,
    })
}

/// Whether `name` is a resource dumped outside a draw (`FrameAnalysisFilenameResource`:
/// `[F.]DDDDDD.K-TYPE….EXT`, from `dump_on_update`, `dump_on_unmap` or an INI's `dump =`
/// command): no draw's file, so the index passes over it.
///
/// ```
/// use inlay::frame::name::is_resource_dump_name;
/// assert!(is_resource_dump_name("000002.0-update=4cbe88a4@000001F2A3B40000.buf"));
/// assert!(is_resource_dump_name("3.000002.1-[ShaderOverride_87f6]-vb0=4cbe88a4.buf"));
/// assert!(!is_resource_dump_name("000002-vb0=4cbe88a4-vs=87f6093906c163b7.buf"));
/// ```
pub fn is_resource_dump_name(name: &str) -> bool {
    let Some((stem, _, _)) = split_ext(name) else {
        return false;
    };
    let runs: Vec<&str> = stem.splitn(4, ['.', '-']).collect();
    let digits = |s: &str, min: usize| s.len() >= min && s.bytes().all(|b| b.is_ascii_digit());
    // The separators in order: `D.K-` or `F.D.K-`.
    let seps: Vec<u8> = stem
        .bytes()
        .filter(|b| *b == b'.' || *b == b'-')
        .take(3)
        .collect();
    match (runs.as_slice(), seps.as_slice()) {
        ([d, k, _, ..], [b'.', b'-', ..]) => digits(d, 6) && digits(k, 1),
        ([f, d, k, _], [b'.', b'.', b'-']) => digits(f, 1) && digits(d, 6) && digits(k, 1),
        _ => false,
    }
}

/// Reads a de-duplicated file name (`deduped/HASH….EXT`).
///
/// ```
/// use inlay::frame::name::{parse_deduped_name, Register};
/// let n = parse_deduped_name("5d4bd489-vb0-layout=a1b2c3d4-topology=trianglelist-stride=40-count=300.txt").unwrap();
/// assert_eq!((n.hash, n.register, n.number("stride")), (0x5d4bd489, Some(Register::Vb(0)), Some(40)));
/// ```
pub fn parse_deduped_name(name: &str) -> Option<DedupedName> {
    let (stem, ext, _) = split_ext(name)?;
    let mut c = Cur {
        s: stem.as_bytes(),
        i: 0,
    };
    let hash = c.hex(8, 8)? as u32;
    let mut rotation = None;
    if c.eat(b".") {
        rotation = Some(c.digits()?);
    }
    let mut register = None;
    let mut fields = Vec::new();
    if c.eat(b"-") {
        let rest = std::str::from_utf8(c.rest()).ok()?;
        let mut parts = rest.split('-');
        let first = parts.next()?;
        let reg = if let Some(n) = first.strip_prefix("vb") {
            Some(Register::Vb(n.parse().ok()?))
        } else if first == "ib" {
            Some(Register::Ib)
        } else if let Some(n) = first.strip_prefix("cb") {
            Some(Register::Cb(n.parse().ok()?))
        } else if let Some(n) = first.strip_prefix("?b") {
            n.parse::<u32>().ok()?;
            None
        } else if first.contains('=') {
            fields.push(split_field(first)?);
            None
        } else if first.starts_with("DXGI_FORMAT_")
            || first
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        {
            // A texture's format.
            fields.push(("format".into(), first.into()));
            None
        } else {
            return None;
        };
        register = reg;
        for p in parts {
            fields.push(split_field(p)?);
        }
    } else if !c.done() {
        return None;
    }
    Some(DedupedName {
        hash,
        rotation,
        register,
        fields,
        ext,
    })
}

fn split_field(p: &str) -> Option<(String, String)> {
    let (k, v) = p.split_once('=')?;
    if k.is_empty() || !k.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
        return None;
    }
    Some((k.to_string(), v.to_string()))
}

/// Writes a per-draw dump name as 3DMigoto does (the inverse of [`parse_dump_name`]; used by
/// the generator and the tests).
pub fn format_dump_name(n: &DumpName) -> String {
    let mut s = String::new();
    let number = |s: &mut String| {
        if let Some(f) = n.frame {
            s.push_str(&format!("{f}."));
        }
        s.push_str(&format!("{:06}", n.draw));
    };
    let reg = |s: &mut String| {
        if let Some(st) = n.stage {
            s.push(st);
            s.push_str("s-");
        }
        s.push_str(&n.register.name());
    };
    if n.register_first {
        reg(&mut s);
        s.push('-');
        number(&mut s);
    } else {
        number(&mut s);
        s.push('-');
        reg(&mut s);
    }
    if let Some(h) = n.hash {
        if let Some(c) = &n.contamination {
            s.push_str(&format!("=!{c}!"));
        }
        s.push_str(&format!("={h:08x}"));
        if let Some(o) = n.orig_hash {
            s.push_str(&format!("({o:08x})"));
        }
    }
    if let Some(h) = n.handle {
        s.push_str(&format!("@{h:016X}"));
    }
    for (stage, h) in n.shaders.iter() {
        if let Some(h) = h {
            s.push_str(&format!("-{stage}={h:016x}"));
        }
    }
    s.push('.');
    s.push_str(&n.ext);
    if n.shortcut {
        s.push_str(".lnk");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_per_draw_form_reads_back() {
        let n = parse_dump_name("000012-vb0=8a2c31f0-vs=e8425f64cfb887cd-ps=0000000000000abc.buf")
            .unwrap();
        assert_eq!(n.frame, None);
        assert_eq!(n.draw, 12);
        assert_eq!(n.register, Register::Vb(0));
        assert_eq!(n.hash, Some(0x8a2c31f0));
        assert_eq!(n.shaders.ps, Some(0xabc));
        assert_eq!(n.ext, "buf");
        assert_eq!(
            format_dump_name(&n),
            "000012-vb0=8a2c31f0-vs=e8425f64cfb887cd-ps=0000000000000abc.buf"
        );

        let n = parse_dump_name(
            "3.001234-ib=!MU!=5d4bd489(11223344)@000001F2A3B4C5D0-vs=1-gs=2-ps=3.txt.lnk",
        )
        .unwrap();
        assert_eq!((n.frame, n.draw, n.register), (Some(3), 1234, Register::Ib));
        assert_eq!(n.contamination.as_deref(), Some("MU"));
        assert_eq!((n.hash, n.orig_hash), (Some(0x5d4bd489), Some(0x11223344)));
        assert_eq!(n.handle, Some(0x1F2A3B4C5D0));
        assert_eq!(n.shaders.gs, Some(2));
        assert!(n.shortcut);

        let n = parse_dump_name("vb1-000007=aabbccdd-vs=1-ps=2.txt").unwrap();
        assert!(n.register_first);
        assert_eq!((n.draw, n.register), (7, Register::Vb(1)));

        let n = parse_dump_name("000100-cs-cb0=01020304-cs=00000000deadbeef.txt").unwrap();
        assert_eq!((n.stage, n.register), (Some('c'), Register::Cb(0)));
        assert_eq!(n.shaders.cs, Some(0xdeadbeef));

        let n = parse_dump_name("1234567-oD=01020304-vs=1-ps=2.dds").unwrap();
        assert_eq!((n.draw, n.register), (1234567, Register::Depth));
        let n = parse_dump_name("000003-ps-t0=01020304-vs=1-ps=2.jps").unwrap();
        assert_eq!(n.register, Register::T(0));
        // Without a hash (a resource 3DMigoto never hashed).
        let n = parse_dump_name("000003-vb2-vs=1-ps=2.txt").unwrap();
        assert_eq!((n.register, n.hash), (Register::Vb(2), None));
    }

    #[test]
    fn names_that_are_not_dumps() {
        for s in [
            "log.txt",
            "log-0x000001F2A3B4C5D0.txt",
            "12-vb0=8a2c31f0.txt",
            "000012-vb0=8a2c31f.txt",
            "000012-vb0=8a2c31f0-vs=1-cs=2.txt",
            "000012-vs-vb0=8a2c31f0.txt",
            "000012-vb0=8a2c31f0-xs=1.txt",
            "000012-vb0=8a2c31f0",
            "000012-vb=8a2c31f0.txt",
            "000012-vb0=8a2c31f0-vs=1-vs=2.txt",
            "Mona-vb0=12345678.txt",
            "",
            ".lnk",
            "é.txt",
        ] {
            assert_eq!(parse_dump_name(s), None, "{s}");
        }
    }

    #[test]
    fn deduped_names() {
        let n = parse_deduped_name("0badf00d.buf").unwrap();
        assert_eq!(
            (n.hash, n.rotation, n.register, n.ext.as_str()),
            (0x0badf00d, None, None, "buf")
        );
        let n = parse_deduped_name("0badf00d.2.buf").unwrap();
        assert_eq!(n.rotation, Some(2));
        let n = parse_deduped_name(
            "0badf00d-ib-format=R16_UINT-topology=trianglelist-first=3-count=300.txt",
        )
        .unwrap();
        assert_eq!(n.register, Some(Register::Ib));
        assert_eq!(n.fields[0], ("format".into(), "R16_UINT".into()));
        assert_eq!(n.number("count"), Some(300));
        let n = parse_deduped_name("0badf00d-R8G8B8A8_UNORM.dds").unwrap();
        assert_eq!(n.fields[0].1, "R8G8B8A8_UNORM");
        assert_eq!(parse_deduped_name("0badf00.buf"), None);
        assert_eq!(parse_deduped_name("0badf00d-vb0-stride.txt"), None);
    }
}
