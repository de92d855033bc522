//! `inlay diff A B`: what changed between two captures — two frames, two dumps, two mods or
//! two layouts — and, with `--fix-hashes`, the hash file brought up to date.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use inlay::frame::diff::{self, Diff, ElementChange, Part};

use crate::output::AtomicFile;
use crate::source::LayoutFile;
use crate::{CliError, style};

/// Compare two frames, dumps, mods or layouts: layouts, strides, formats, counts, hashes
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay diff FrameAnalysis-before FrameAnalysis-after
  inlay diff FA-before FA-after --fix-hashes Alice/hash.json
  inlay diff old-vb0=8a2c31f0.txt new-vb0=0badf00d.txt --json
  inlay diff old_layout.h new_layout.h
  inlay diff Mods/Alice-v1 Mods/Alice-v2
  inlay diff Alice-v1/Alice.ini Alice-v2/Alice.ini --fix-hashes Alice-v1/hash.json --output hash.json

A and B are each a frame-analysis folder, a dump (vb/ib .txt, .fmt, RenderDoc .csv), a mod \
(its INI, or a folder with one INI and no log.txt) or a layout file (C/C++, JSON, TOML). A \
frame is compared as the distinct meshes it draws, a mod as its parts (the draws of its \
[TextureOverride…] sections, each with its component's buffers in the formats `inlay mod` \
resolves: .fmt, hash.json, --layout, profiles; --set and --profile apply to both mods). \
Meshes are paired by the same hashes, then by content (same layout, strides and counts under \
new hashes), then (mods) by the same section, then by the same index buffer, then by the same \
counts; for each pair the report lists hash changes, element-by-element layout differences \
(format, slot, offset, class, step rate), strides, counts and draw ranges (index count, first \
index, base vertex: a mod's drawindexed), and for a changed layout the repack plan from old \
to new: what each \
element converts from and to, which conversions can lose information, which lanes come from \
defaults, which elements are dropped. --fix-hashes FILE replaces every old hash of a paired \
mesh in FILE (a GIMI/SRMI/ZZMI hash.json, WWMI Metadata.json, any JSON whose hashes are \
strings) by the new one and writes it back (or to --output), keeping the rest of the file as \
it was; with two mods, the old mod's hash.json brought to the new mod's hashes.")]
pub struct DiffArgs {
    /// Before: a frame folder, a dump, a mod or a layout (`-`: a layout on standard input)
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// After: a frame folder, a dump, a mod or a layout (`-`: a layout on standard input)
    #[arg(value_name = "B")]
    pub b: PathBuf,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
    /// Update this hash file (hash.json, Metadata.json) with the paired hashes
    #[arg(long, value_name = "FILE")]
    pub fix_hashes: Option<PathBuf>,
    /// Where --fix-hashes writes [default: the file itself]
    #[arg(long, short, value_name = "FILE", requires = "fix_hashes")]
    pub output: Option<PathBuf>,
    /// List unchanged pairs too
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub mod_args: crate::modcmd::ModArgs,
}

fn side(path: &Path, mod_args: &crate::modcmd::ModArgs) -> Result<Vec<Part>, CliError> {
    let label = path.display().to_string();
    let ini = if path.is_dir() {
        match diff::mod_ini_in(path).map_err(CliError::usage)? {
            Some(ini) => Some(ini),
            None => {
                let frame = crate::frame::open_frame(path, 0)?;
                return Ok(diff::parts_of_frame(&frame));
            }
        }
    } else {
        crate::modcmd::is_ini(path).then(|| path.to_path_buf())
    };
    if let Some(ini) = ini {
        if mod_args.all_states {
            return Err(CliError::usage(
                "--all-states: diff compares one state of each mod; choose it with --set",
            ));
        }
        let m = crate::modcmd::load(&ini, mod_args)?;
        return Ok(diff::parts_of_mod(&m));
    }
    // `-`: standard input, a layout whose reader its content chooses (as in every command).
    if path.as_os_str() == "-" || inlay::capture::names_layout_text(&label) {
        let l = LayoutFile::load(path, None, style::stderr())?;
        return Ok(vec![Part::of_layout(&label, &l.parsed.elements)]);
    }
    let c = inlay::capture::load_dump(path).map_err(|e| CliError::usage(e.to_string()))?;
    for w in &c.warnings {
        eprintln!("{}: {w}", style::stderr().warning("warning"));
    }
    Ok(vec![Part::of_capture(&label, &c)])
}

fn hx(v: Option<u64>, w: usize) -> String {
    v.map_or("-".into(), |v| format!("{v:0w$x}"))
}

fn json_of(d: &Diff) -> serde_json::Value {
    use serde_json::json;
    let part = |p: &Part| json!({"label": p.label, "draws": p.draws});
    json!({
        "pairs": d.pairs.iter().map(|p| json!({
            "old": part(&d.old[p.old]), "new": part(&d.new[p.new]),
            "pairing": p.pairing.name(), "same": p.is_same(),
            "hashes": p.hashes.iter().map(|h| json!({"what": h.what, "old": hx(h.old, if h.what.len() == 2 && h.what.ends_with('s') {16} else {8}), "new": hx(h.new, if h.what.len() == 2 && h.what.ends_with('s') {16} else {8})})).collect::<Vec<_>>(),
            "elements": p.elements.iter().map(|e| match e {
                ElementChange::Added(n) => json!({"element": n, "change": "added"}),
                ElementChange::Removed(n) => json!({"element": n, "change": "removed"}),
                ElementChange::Changed { element, field, old, new } => json!({"element": element, "change": field, "old": old, "new": new}),
            }).collect::<Vec<_>>(),
            "strides": p.strides.iter().map(|(s, o, n)| json!({"slot": s, "name": diff::slot_label(&d.old[p.old], &d.new[p.new], *s), "old": o, "new": n})).collect::<Vec<_>>(),
            "counts": p.counts.iter().map(|(w, o, n)| json!({"what": w, "old": o, "new": n})).collect::<Vec<_>>(),
            "repack": p.plan.as_ref().map(|pl| json!({
                "lossless": pl.is_lossless(),
                "impossible": pl.impossible,
                "elements": pl.steps.iter().map(|s| json!({"element": s.element, "from": s.from, "to": s.to, "lossy": s.lossy, "defaulted_lanes": s.defaulted_lanes})).collect::<Vec<_>>(),
                "dropped": pl.dropped,
            })),
        })).collect::<Vec<_>>(),
        "only_old": d.only_old.iter().map(|&i| part(&d.old[i])).collect::<Vec<_>>(),
        "only_new": d.only_new.iter().map(|&i| part(&d.new[i])).collect::<Vec<_>>(),
        "hash_pairs": d.hash_pairs().iter().map(|(o, n)| json!([o, n])).collect::<Vec<_>>(),
    })
}

/// Runs `inlay diff`.
pub fn run(args: &DiffArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let d = diff::diff(
        side(&args.a, &args.mod_args)?,
        side(&args.b, &args.mod_args)?,
    );
    let mut fixed = None;
    if let Some(h) = &args.fix_hashes {
        let bytes = crate::source::read_file_to_rewrite(h, inlay::input::DEFAULT_TEXT_LIMIT)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| CliError::usage(format!("{}: not UTF-8 text", h.display())))?;
        let f = inlay::frame::hashes::fix_hashes(&h.display().to_string(), &text, &d.hash_pairs())
            .map_err(|e| CliError::usage(e.to_string()))?;
        let dest = args.output.clone().unwrap_or_else(|| h.clone());
        let mut file = AtomicFile::create(&dest, &[] as &[&Path], true)?;
        file.write_all(f.text.as_bytes())
            .map_err(|e| CliError::io(format!("cannot write {}", dest.display()), e))?;
        file.commit()?;
        fixed = Some((dest, f));
    }
    if args.json {
        let mut v = json_of(&d);
        if let Some((dest, f)) = &fixed {
            v["fixed"] = serde_json::json!({
                "file": dest.display().to_string(),
                "replaced": f.replaced.iter().map(|r| serde_json::json!({"line": r.line, "key": r.key, "old": r.old, "new": r.new})).collect::<Vec<_>>(),
                "unmatched": f.unmatched.iter().map(|(l, h)| serde_json::json!({"line": l, "hash": h})).collect::<Vec<_>>(),
            });
        }
        serde_json::to_writer_pretty(&mut *out, &v).map_err(|e| CliError::stdout(e.into()))?;
        writeln!(out).map_err(CliError::stdout)?;
        return Ok(0);
    }
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(CliError::stdout);
    let sty = style::stdout();
    let same = d.pairs.iter().filter(|p| p.is_same()).count();
    for p in &d.pairs {
        if p.is_same() && !args.all {
            continue;
        }
        let (o, n) = (&d.old[p.old], &d.new[p.new]);
        w(
            out,
            sty.bold(&format!(
                "{} -> {} ({})",
                o.label,
                n.label,
                p.pairing.name()
            )),
        )?;
        if p.is_same() {
            w(out, "  no differences".into())?;
        }
        for h in &p.hashes {
            let width = if h.what.len() == 2 && h.what.ends_with('s') {
                16
            } else {
                8
            };
            w(
                out,
                format!(
                    "  {} hash {} -> {}",
                    h.what,
                    hx(h.old, width),
                    hx(h.new, width)
                ),
            )?;
        }
        for e in &p.elements {
            w(
                out,
                match e {
                    ElementChange::Added(n) => format!("  + {n}"),
                    ElementChange::Removed(n) => format!("  - {n}"),
                    ElementChange::Changed {
                        element,
                        field,
                        old,
                        new,
                    } => format!("  ~ {element} {field} {old} -> {new}"),
                },
            )?;
        }
        for (s, a, b) in &p.strides {
            let f = |v: &Option<u32>| v.map_or("-".into(), |v| v.to_string());
            w(
                out,
                format!(
                    "  {} stride {} -> {}",
                    diff::slot_label(o, n, *s),
                    f(a),
                    f(b)
                ),
            )?;
        }
        for (what, a, b) in &p.counts {
            w(out, format!("  {what} {a} -> {b}"))?;
        }
        if let Some(pl) = &p.plan {
            match &pl.impossible {
                Some(why) => w(out, format!("  repack: impossible: {why}"))?,
                None => {
                    w(
                        out,
                        format!(
                            "  repack old -> new ({}):",
                            if pl.is_lossless() {
                                "lossless"
                            } else {
                                "loses information"
                            }
                        ),
                    )?;
                    for s in &pl.steps {
                        let mut line = format!(
                            "    {}: {} -> {}",
                            s.element,
                            s.from.as_deref().unwrap_or("default"),
                            s.to
                        );
                        line.push_str(if s.lossy { ", lossy" } else { ", exact" });
                        if !s.defaulted_lanes.is_empty() {
                            line.push_str(&format!(", lanes {} from defaults", s.defaulted_lanes));
                        }
                        w(out, line)?;
                    }
                    for x in &pl.dropped {
                        w(out, format!("    {x}: dropped"))?;
                    }
                }
            }
        }
    }
    for &i in &d.only_old {
        w(out, format!("only in A: {}", d.old[i].label))?;
    }
    for &i in &d.only_new {
        w(out, format!("only in B: {}", d.new[i].label))?;
    }
    w(
        out,
        format!(
            "{} paired ({} unchanged), {} only in A, {} only in B",
            d.pairs.len(),
            same,
            d.only_old.len(),
            d.only_new.len()
        ),
    )?;
    if let Some((dest, f)) = &fixed {
        for r in &f.replaced {
            w(
                out,
                format!(
                    "{}:{}: {}{} -> {}",
                    dest.display(),
                    r.line,
                    r.key.as_ref().map(|k| format!("{k}: ")).unwrap_or_default(),
                    r.old,
                    r.new
                ),
            )?;
        }
        w(
            out,
            format!(
                "wrote {}: {} hashes replaced, {} left without a pair",
                dest.display(),
                f.replaced.len(),
                f.unmatched.len()
            ),
        )?;
    }
    Ok(0)
}
