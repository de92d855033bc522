//! `inlay frame DIR`: a 3DMigoto frame-analysis folder as a table of its draws (or JSON, or
//! CSV), filtered; `inlay frame --generate OUT` writes a synthetic one.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use inlay::frame::synth::{Dedupe, SynthOptions};
use inlay::frame::{Filter, Frame, FrameOptions};

use crate::{CliError, style};

/// List the draws of a 3DMigoto frame analysis: calls, hashes, layouts, files
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay frame FrameAnalysis-2024-05-01-120000
  inlay frame FA --has BLENDINDICES --draws 100-200
  inlay frame FA --vs e8425f64cfb887cd --json
  inlay frame FA --hash 8a2c31f0 --csv > draws.csv
  inlay frame --generate demo-frame --draws 200         (a synthetic frame to try things on)

DIR is the folder 3DMigoto's frame analysis (F8) wrote: log.txt, the per-draw dumps \
(NNNNNN-vb0=HASH-vs=HASH-ps=HASH.txt/.buf, …-ib=HASH…), deduped/, ctx-0x…/ of deferred \
contexts, in either name order (filename_reg) and with hold frame numbers. Each row is one \
draw: its call and counts from log.txt, topology, vertex-buffer hashes by slot, index-buffer \
hash, shader hashes, strides and the layout in brief. A draw whose files disagree with its log \
line (hashes, counts, formats, topology, a .buf shorter than its header) is marked, and each \
disagreement is printed after the table with its file and line. Filters combine: several \
values of one option are alternatives, different options must all hold; --select takes the \
same terms as `inlay export DIR --select` (hash=H,vs=H,ps=H,draws=A-B,has=SEM,call=NAME,\
problems,dumped). Exit status 0, or 2 when DIR cannot be read.")]
pub struct FrameArgs {
    /// The frame-analysis folder
    #[arg(value_name = "DIR", required_unless_present = "generate")]
    pub dir: Option<PathBuf>,
    /// Draws that use this hash in any slot (vb, ib, cb, t) or as a shader
    #[arg(long, value_name = "H")]
    pub hash: Vec<String>,
    /// Draws with this vertex shader
    #[arg(long, value_name = "H")]
    pub vs: Vec<String>,
    /// Draws with this pixel shader
    #[arg(long, value_name = "H")]
    pub ps: Vec<String>,
    /// Draw numbers, e.g. 100-200 or 42
    #[arg(long, value_name = "A-B")]
    pub draws: Vec<String>,
    /// Draws whose layout has this semantic (TEXCOORD1 for an index)
    #[arg(long, value_name = "SEMANTIC")]
    pub has: Vec<String>,
    /// A filter in the export grammar (hash=…,vs=…,draws=…,has=…,call=…,problems,dumped)
    #[arg(long, value_name = "FILTER")]
    pub select: Option<String>,
    /// Print JSON: one record per draw with its files and problems
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV (one row per draw)
    #[arg(long)]
    pub csv: bool,
    /// Threads reading dump headers [default: every core]
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
    /// Write a synthetic 3DMigoto frame analysis to this folder instead (for trying inlay
    /// out and for tests)
    #[arg(long, value_name = "OUT", conflicts_with = "dir")]
    pub generate: Option<PathBuf>,
    /// With --generate: draw calls
    #[arg(
        long = "generate-draws",
        value_name = "N",
        default_value_t = 40,
        requires = "generate"
    )]
    pub generate_draws: u32,
    /// With --generate: vertices per mesh
    #[arg(
        long = "generate-vertices",
        value_name = "N",
        default_value_t = 60,
        requires = "generate"
    )]
    pub generate_vertices: u32,
    /// With --generate: hardlinks, symlinks, shortcuts, copies or legacy
    #[arg(
        long = "generate-storage",
        value_name = "KIND",
        default_value = "hardlinks",
        requires = "generate"
    )]
    pub generate_storage: String,
    /// With --generate: a salt for every hash (another salt: the same frame "after a patch")
    #[arg(
        long = "generate-salt",
        value_name = "N",
        default_value_t = 0,
        requires = "generate"
    )]
    pub generate_salt: u32,
    /// With --generate: the "patched" frame: new hashes (salt 1 unless given) and one
    /// layout changed (TEXCOORD R32G32_FLOAT -> R16G16_FLOAT in the one-slot meshes)
    #[arg(long = "generate-patched", requires = "generate")]
    pub generate_patched: bool,
}

/// The filter the options name.
pub fn filter_of(args: &FrameArgs) -> Result<Filter, CliError> {
    let mut f: Filter = match &args.select {
        Some(s) => s
            .parse()
            .map_err(|e: inlay::frame::filter::FilterError| CliError::usage(e.to_string()))?,
        None => Filter::default(),
    };
    let mut add = |k: &str, vs: &[String]| -> Result<(), CliError> {
        for v in vs {
            f.add(&format!("{k}={v}"))
                .map_err(|e| CliError::usage(e.to_string()))?;
        }
        Ok(())
    };
    add("hash", &args.hash)?;
    add("vs", &args.vs)?;
    add("ps", &args.ps)?;
    add("draws", &args.draws)?;
    add("has", &args.has)?;
    Ok(f)
}

/// Opens a frame, printing its warnings to stderr.
pub fn open_frame(dir: &Path, jobs: usize) -> Result<Frame, CliError> {
    let frame = Frame::open_with(dir, &FrameOptions { threads: jobs })
        .map_err(|e| CliError::usage(e.to_string()))?;
    let st = style::stderr();
    for w in &frame.warnings {
        eprintln!("{}: {w}", st.warning("warning"));
    }
    if frame.warnings_dropped > 0 {
        eprintln!(
            "{}: {} more warnings",
            st.warning("warning"),
            frame.warnings_dropped
        );
    }
    if frame.logs.is_empty() {
        eprintln!(
            "{}: {}: no log.txt: draws come from the file names alone",
            st.warning("warning"),
            dir.display()
        );
    }
    Ok(frame)
}

fn storage(s: &str) -> Result<Dedupe, CliError> {
    Ok(match s {
        "hardlinks" => Dedupe::HardLinks,
        "symlinks" => Dedupe::Symlinks,
        "shortcuts" => Dedupe::Shortcuts,
        "copies" => Dedupe::Copies,
        "legacy" => Dedupe::Legacy,
        _ => {
            return Err(CliError::usage(format!(
                "--generate-storage {s}: expected hardlinks, symlinks, shortcuts, copies or legacy"
            )));
        }
    })
}

/// Runs `inlay frame`.
pub fn run(args: &FrameArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    if let Some(dir) = &args.generate {
        if dir.exists()
            && std::fs::read_dir(dir)
                .map(|mut r| r.next().is_some())
                .unwrap_or(true)
        {
            return Err(CliError::usage(format!(
                "--generate {}: the folder exists and is not empty",
                dir.display()
            )));
        }
        let o = SynthOptions {
            draws: args.generate_draws,
            vertices: args.generate_vertices,
            meshes: (args.generate_draws / 3).max(1),
            dedupe: storage(&args.generate_storage)?,
            salt: if args.generate_patched && args.generate_salt == 0 {
                1
            } else {
                args.generate_salt
            },
            layout_change: args.generate_patched,
            ..SynthOptions::default()
        };
        let r = inlay::frame::synth::generate(dir, &o)
            .map_err(|e| CliError::io(format!("cannot write {}", dir.display()), e))?;
        writeln!(
            out,
            "wrote {}: {} calls, {} files, {} bytes",
            dir.display(),
            r.draws.len(),
            r.files,
            r.bytes
        )
        .map_err(CliError::stdout)?;
        return Ok(0);
    }
    let dir = args.dir.as_ref().expect("clap requires DIR");
    let filter = filter_of(args)?;
    let frame = open_frame(dir, args.jobs)?;
    let draws: Vec<_> = frame.select(&filter).collect();
    if args.json {
        let v = serde_json::json!({
            "folder": frame.root.display().to_string(),
            "logs": frame.logs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "analyse_options": frame.options.map(|o| format!("{o:08x}")),
            "deduped": frame.deduped,
            "filter": filter.to_string(),
            "draws": draws.iter().map(|d| d.to_json()).collect::<Vec<_>>(),
            "warnings": frame.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        });
        serde_json::to_writer_pretty(&mut *out, &v).map_err(|e| CliError::stdout(e.into()))?;
        writeln!(out).map_err(CliError::stdout)?;
        return Ok(0);
    }
    if args.csv {
        let mut w = csv::Writer::from_writer(&mut *out);
        w.write_record(inlay::frame::Draw::COLUMNS)
            .map_err(|e| CliError::stdout(e.into()))?;
        for d in &draws {
            w.write_record(d.row())
                .map_err(|e| CliError::stdout(e.into()))?;
        }
        w.flush().map_err(CliError::stdout)?;
        return Ok(0);
    }
    // The table: the columns that say most, the layout last.
    let head = [
        "DRAW", "CALL", "IDX", "VTX", "TOPOLOGY", "VB", "IB", "VS", "PS", "LAYOUT",
    ];
    let rows: Vec<Vec<String>> = draws
        .iter()
        .map(|d| {
            let r = d.row();
            let mark = if d.problems.is_empty() { "" } else { " !" };
            vec![
                format!("{}{mark}", r[0]),
                r[1].clone(),
                r[2].clone(),
                r[3].clone(),
                r[5].clone(),
                r[6].clone(),
                r[7].clone(),
                r[8].clone(),
                r[12].clone(),
                d.layout.as_ref().map_or(String::new(), |l| {
                    l.iter()
                        .map(|e| {
                            format!(
                                "{}{}",
                                e.name().unwrap_or("?"),
                                if e.semantic_index != 0 {
                                    e.semantic_index.to_string()
                                } else {
                                    String::new()
                                }
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                }),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i + 1 == cells.len() {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  "));
            }
        }
        s.trim_end().to_string()
    };
    let sty = style::stdout();
    writeln!(out, "{}", sty.bold(&line(&head.map(String::from)))).map_err(CliError::stdout)?;
    for r in &rows {
        writeln!(out, "{}", line(r)).map_err(CliError::stdout)?;
    }
    let problems: usize = draws.iter().filter(|d| !d.problems.is_empty()).count();
    writeln!(
        out,
        "{} of {} draws{}",
        draws.len(),
        frame.draws.len(),
        if problems > 0 {
            format!(", {problems} whose files disagree with the log (!):")
        } else {
            String::new()
        }
    )
    .map_err(CliError::stdout)?;
    for d in draws.iter().filter(|d| !d.problems.is_empty()) {
        for p in &d.problems {
            writeln!(out, "  {}: {p}", d.id()).map_err(CliError::stdout)?;
        }
    }
    Ok(0)
}
