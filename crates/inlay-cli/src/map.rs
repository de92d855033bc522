//! `inlay map`: a picture of each slot's vertex — which bytes each element covers, padding,
//! overlaps and the stride — in the terminal and as SVG.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use inlay::buffer::MAX_VERTEX_STRIDE;
use inlay::layout::{InputClass, InputLayout, LayoutElement};
use inlay::validation;

use crate::output;
use crate::source::LayoutFile;
use crate::style::{self, Style};
use crate::{CliError, TargetArgs, check};

/// Picture each slot's vertex: bytes per element, padding, overlaps, stride
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay map layout.h
  inlay map layout.json --stride 32
  inlay map layout.h --array vertexDesc --stride 1=16 --svg layout.svg

APPEND_ALIGNED offsets are resolved as CreateInputLayout does. Without --stride each slot's \
stride is the smallest that covers its elements. Exit status 1 when the layout itself is \
refused (the messages say why).")]
pub struct MapArgs {
    /// Layout file: C/C++ source, JSON or TOML
    pub layout: PathBuf,
    /// Stride for every slot (N) or for one slot (SLOT=N); may be repeated
    #[arg(long, value_name = "N|SLOT=N")]
    pub stride: Vec<String>,
    /// Also write the picture as SVG to FILE (`-`: standard output, the text picture then
    /// goes to standard error)
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Replace FILE if it exists
    #[arg(long)]
    pub force: bool,
    /// Which C array to use when the file has several
    #[arg(long, value_name = "NAME")]
    pub array: Option<String>,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// Byte cell contents.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Cell {
    Padding,
    Element(usize),
    Overlap(Vec<usize>),
}

/// A run of bytes with the same contents.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Run {
    start: u64,
    end: u64,
    cell: Cell,
}

/// One slot's picture data.
///
/// The bytes are kept as runs, not one cell per byte: a legal layout may put an element at
/// offset 4 000 000 000, and a byte map would then cost gigabytes (issue 18 item 2). Memory is
/// O(elements²) at worst; the pictures draw long padding runs as one "gap" line.
struct SlotMap {
    slot: u32,
    class: InputClass,
    step_rate: u32,
    stride: u32,
    min_stride: u32,
    /// Element indices of this slot.
    elements: Vec<usize>,
    /// Bytes pictured: `max(stride, min_stride)`.
    len: u64,
    /// Runs covering `0..len` in order.
    runs: Vec<Run>,
}

impl SlotMap {
    /// The contents of byte `b` (padding past the end).
    fn cell(&self, b: u64) -> &Cell {
        let i = self.runs.partition_point(|r| r.end <= b);
        self.runs.get(i).map_or(&Cell::Padding, |r| &r.cell)
    }

    /// Full rows of `per_row` bytes from row `row` on that are padding only.
    fn padding_rows_from(&self, row: u64, per_row: u64) -> u64 {
        let at = row * per_row;
        let i = self.runs.partition_point(|r| r.end <= at);
        match self.runs.get(i) {
            Some(r) if r.cell == Cell::Padding => (r.end.min(self.len) - at) / per_row,
            _ => 0,
        }
    }

    /// Runs matching `pred`, as byte ranges.
    fn ranges(&self, pred: impl Fn(&Cell) -> bool) -> Vec<(u64, u64)> {
        self.runs
            .iter()
            .filter(|r| pred(&r.cell))
            .map(|r| (r.start, r.end))
            .collect()
    }
}

/// Consecutive padding-only rows drawn as one gap line once there are at least this many.
const GAP_ROWS: u64 = 4;

/// A picture's rows: `Some(row)` to draw, `None` for a gap of padding rows.
fn rows(m: &SlotMap, per_row: u64) -> Vec<(u64, Option<u64>)> {
    let mut out = Vec::new();
    let total = m.len.div_ceil(per_row);
    let mut row = 0;
    while row < total {
        let gap = m.padding_rows_from(row, per_row);
        if gap >= GAP_ROWS {
            out.push((row, None));
            row += gap;
        } else {
            out.push((row, Some(row)));
            row += 1;
        }
    }
    out
}

/// `--stride` values: one for every slot, and (slot, stride) pairs.
type Strides = (Option<u32>, Vec<(u32, u32)>);

pub(crate) fn parse_strides(specs: &[String]) -> Result<Strides, CliError> {
    let mut all = None;
    let mut per = Vec::new();
    let num = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| *v <= MAX_VERTEX_STRIDE)
            .ok_or_else(|| {
                CliError::usage(format!(
                    "--stride: `{s}` is not a stride from 0 to {MAX_VERTEX_STRIDE}"
                ))
            })
    };
    for s in specs {
        match s.split_once('=') {
            Some((slot, n)) => {
                let slot = slot.trim().parse::<u32>().map_err(|_| {
                    CliError::usage(format!("--stride: `{slot}` is not a slot number"))
                })?;
                per.push((slot, num(n)?));
            }
            None => all = Some(num(s)?),
        }
    }
    Ok((all, per))
}

fn build(layout: &InputLayout, all: Option<u32>, per: &[(u32, u32)]) -> Vec<SlotMap> {
    layout
        .slots()
        .iter()
        .map(|s| {
            let stride = per
                .iter()
                .rev()
                .find(|(slot, _)| *slot == s.slot)
                .map(|(_, n)| *n)
                .or(all)
                .unwrap_or(s.min_stride);
            let elements: Vec<usize> = layout
                .elements()
                .iter()
                .enumerate()
                .filter(|(_, e)| e.slot == s.slot)
                .map(|(i, _)| i)
                .collect();
            let len = u64::from(stride.max(s.min_stride));
            // Breakpoints: 0, len and every element's start and end inside 0..len.
            let mut cuts = vec![0, len];
            for &i in &elements {
                let e = &layout.elements()[i];
                cuts.push(u64::from(e.offset).min(len));
                cuts.push(e.end().min(len));
            }
            cuts.sort_unstable();
            cuts.dedup();
            let mut runs: Vec<Run> = Vec::new();
            for w in cuts.windows(2) {
                let (a, b) = (w[0], w[1]);
                let covering: Vec<usize> = elements
                    .iter()
                    .copied()
                    .filter(|&i| {
                        let e = &layout.elements()[i];
                        u64::from(e.offset) <= a && e.end() >= b
                    })
                    .collect();
                let cell = match covering.as_slice() {
                    [] => Cell::Padding,
                    [i] => Cell::Element(*i),
                    _ => Cell::Overlap(covering),
                };
                match runs.last_mut() {
                    Some(r) if r.cell == cell => r.end = b,
                    _ => runs.push(Run {
                        start: a,
                        end: b,
                        cell,
                    }),
                }
            }
            SlotMap {
                slot: s.slot,
                class: s.class,
                step_rate: s.step_rate,
                stride,
                min_stride: s.min_stride,
                elements,
                len,
                runs,
            }
        })
        .collect()
}

/// The letter that stands for element `i` (A–Z, then a–z).
pub(crate) fn letter(i: usize) -> char {
    const L: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    L.get(i).map_or('?', |&b| b as char)
}

/// Terminal background (ANSI 256-colour index) and SVG fill for element `i`.
pub(crate) fn colour(i: usize) -> (u8, &'static str) {
    const P: [(u8, &str); 12] = [
        (39, "#00afff"),
        (214, "#ffaf00"),
        (77, "#5fd75f"),
        (213, "#ff87ff"),
        (141, "#af87ff"),
        (180, "#d7af87"),
        (44, "#00d7d7"),
        (228, "#ffff87"),
        (210, "#ff8787"),
        (111, "#87afff"),
        (150, "#afd787"),
        (248, "#a8a8a8"),
    ];
    P[i % P.len()]
}

fn element_name(e: &LayoutElement) -> String {
    format!("{}{}", e.semantic_name, e.semantic_index)
}

const PER_ROW: usize = 16;

fn text_picture(layout: &InputLayout, maps: &[SlotMap], style: Style) -> String {
    let mut s = String::new();
    for m in maps {
        let class = match m.class {
            InputClass::PerVertex => "per-vertex".to_string(),
            InputClass::PerInstance => format!("per-instance, step rate {}", m.step_rate),
        };
        let _ = writeln!(
            s,
            "{}",
            style.bold(&format!(
                "slot {}: {class}, stride {} bytes (elements cover {})",
                m.slot, m.stride, m.min_stride
            ))
        );
        let _ = write!(s, "{}", style.dim("  offset"));
        for c in 0..(PER_ROW as u64).min(m.len) {
            let _ = write!(s, "{}", style.dim(&format!("{c:>3}")));
        }
        s.push('\n');
        for (row, draw) in rows(m, PER_ROW as u64) {
            let row_start = row * PER_ROW as u64;
            if draw.is_none() {
                let n = m.padding_rows_from(row, PER_ROW as u64) * PER_ROW as u64;
                let _ = writeln!(
                    s,
                    "{}",
                    style.dim(&format!(
                        "  {row_start:>6}  … {n} bytes of padding ({row_start}..{}) …",
                        row_start + n
                    ))
                );
                continue;
            }
            let _ = write!(s, "{}", style.dim(&format!("  {row_start:>6}")));
            for b in row_start..(row_start + PER_ROW as u64).min(m.len) {
                let cell = m.cell(b);
                let past = b >= u64::from(m.stride);
                let text = match cell {
                    Cell::Padding => style.dim("  ."),
                    Cell::Element(i) => {
                        let ch = if past {
                            letter(*i).to_ascii_lowercase()
                        } else {
                            letter(*i)
                        };
                        style.paint(&format!("30;48;5;{}", colour(*i).0), &format!(" {ch} "))
                    }
                    Cell::Overlap(_) => style.paint("1;97;41", " ! "),
                };
                // In plain mode cells are `  X`; with colour the block is ` X ` on a background.
                if style.enabled {
                    s.push_str(&text);
                } else {
                    let ch = match cell {
                        Cell::Padding => '.',
                        Cell::Element(i) if past => letter(*i).to_ascii_lowercase(),
                        Cell::Element(i) => letter(*i),
                        Cell::Overlap(_) => '!',
                    };
                    let _ = write!(s, "  {ch}");
                }
            }
            s.push('\n');
        }
        // Legend.
        for &i in &m.elements {
            let e = &layout.elements()[i];
            let key = if style.enabled {
                style.paint(
                    &format!("30;48;5;{}", colour(i).0),
                    &format!(" {} ", letter(i)),
                )
            } else {
                format!(" {} ", letter(i))
            };
            let _ = writeln!(
                s,
                "  {key} {:<16} {:<22} bytes {:>4}..{:<4} ({:>2} B)  {}",
                element_name(e),
                e.format.to_string(),
                e.offset,
                e.end(),
                e.byte_size(),
                e.register.map_or("-".to_string(), |r| format!("v{r}"))
            );
        }
        for (a, b) in m.ranges(|c| *c == Cell::Padding) {
            let key = if style.enabled {
                style.dim(" . ")
            } else {
                " . ".to_string()
            };
            let _ = writeln!(
                s,
                "  {key} {:<39} bytes {a:>4}..{b:<4} ({:>2} B)",
                "padding",
                b - a
            );
        }
        let overlaps = m.runs.iter().filter_map(|r| match &r.cell {
            Cell::Overlap(v) => Some((r.start, r.end, v.clone())),
            _ => None,
        });
        for (a, b, v) in overlaps {
            let key = if style.enabled {
                style.paint("1;97;41", " ! ")
            } else {
                " ! ".to_string()
            };
            let names: Vec<String> = v
                .iter()
                .map(|&i| element_name(&layout.elements()[i]))
                .collect();
            let _ = writeln!(
                s,
                "  {key} {:<39} bytes {a:>4}..{b:<4} ({:>2} B)",
                format!("overlap: {}", names.join(" + ")),
                b - a
            );
        }
        if m.stride < m.min_stride {
            let _ = writeln!(
                s,
                "  {} stride {} is smaller than the {} bytes the elements cover: bytes {}..{} \
                 (lower-case letters) are read from the next vertex's data",
                style.warning("note:"),
                m.stride,
                m.min_stride,
                m.stride,
                m.min_stride
            );
        }
        s.push('\n');
    }
    s
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const SVG_PER_ROW: usize = 32;
const CELL: usize = 22;

fn svg_picture(layout: &InputLayout, maps: &[SlotMap], title: &str) -> String {
    let left = 56;
    let width = left + SVG_PER_ROW * CELL + 16;
    let mut body = String::new();
    let mut y = 40;
    for m in maps {
        let class = match m.class {
            InputClass::PerVertex => "per-vertex".to_string(),
            InputClass::PerInstance => format!("per-instance, step rate {}", m.step_rate),
        };
        let _ = writeln!(
            body,
            r#"<text x="8" y="{y}" class="h">slot {}: {class}, stride {} bytes (elements cover {})</text>"#,
            m.slot, m.stride, m.min_stride
        );
        y += 10;
        let per_row = SVG_PER_ROW as u64;
        let picture_rows = rows(m, per_row);
        for (line, &(row, draw)) in picture_rows.iter().enumerate() {
            let ry = y + line * CELL;
            let row_start = row * per_row;
            if draw.is_none() {
                let n = m.padding_rows_from(row, per_row) * per_row;
                let _ = writeln!(
                    body,
                    r#"<text x="{}" y="{}" class="o">{row_start}</text><text x="{left}" y="{}" class="l">… {n} bytes of padding ({row_start}..{}) …</text>"#,
                    left - 6,
                    ry + 15,
                    ry + 15,
                    row_start + n
                );
                continue;
            }
            let _ = writeln!(
                body,
                r#"<text x="{}" y="{}" class="o">{}</text>"#,
                left - 6,
                ry + 15,
                row_start
            );
            for b in row_start..(row_start + per_row).min(m.len) {
                let cell = m.cell(b);
                let x = left + (b - row_start) as usize * CELL;
                let (fill, label, extra) = match cell {
                    Cell::Padding => ("#f2f2f2", "·".to_string(), ""),
                    Cell::Element(i) => (colour(*i).1, letter(*i).to_string(), ""),
                    Cell::Overlap(_) => ("#e03030", "!".to_string(), ""),
                };
                let past = if b >= u64::from(m.stride) {
                    r#" stroke-dasharray="3 2""#
                } else {
                    ""
                };
                let _ = writeln!(
                    body,
                    r##"<rect x="{x}" y="{ry}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#555"{past}{extra}><title>byte {b}</title></rect><text x="{}" y="{}" class="c">{label}</text>"##,
                    x + CELL / 2,
                    ry + 15
                );
            }
            let stride = u64::from(m.stride);
            if stride > row_start && stride <= row_start + per_row && m.stride < m.min_stride {
                let sx = left + (stride - row_start) as usize * CELL;
                let _ = writeln!(
                    body,
                    r##"<line x1="{sx}" y1="{}" x2="{sx}" y2="{}" stroke="#000" stroke-width="3"/>"##,
                    ry - 3,
                    ry + CELL + 3
                );
            }
        }
        y += picture_rows.len() * CELL + 22;
        for &i in &m.elements {
            let e = &layout.elements()[i];
            let _ = writeln!(
                body,
                r##"<rect x="8" y="{}" width="16" height="16" fill="{}" stroke="#555"/><text x="32" y="{}" class="l">{} {} {} bytes {}..{} ({} B) {}</text>"##,
                y - 12,
                colour(i).1,
                y,
                letter(i),
                xml_escape(&element_name(e)),
                e.format,
                e.offset,
                e.end(),
                e.byte_size(),
                e.register.map_or("-".to_string(), |r| format!("v{r}"))
            );
            y += 20;
        }
        for (a, b) in m.ranges(|c| *c == Cell::Padding) {
            let _ = writeln!(
                body,
                r##"<rect x="8" y="{}" width="16" height="16" fill="#f2f2f2" stroke="#555"/><text x="32" y="{y}" class="l">padding bytes {a}..{b} ({} B)</text>"##,
                y - 12,
                b - a
            );
            y += 20;
        }
        for (a, b) in m.ranges(|c| matches!(c, Cell::Overlap(_))) {
            let _ = writeln!(
                body,
                r##"<rect x="8" y="{}" width="16" height="16" fill="#e03030" stroke="#555"/><text x="32" y="{y}" class="l">overlap bytes {a}..{b} ({} B)</text>"##,
                y - 12,
                b - a
            );
            y += 20;
        }
        y += 24;
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" viewBox="0 0 {width} {y}" font-family="monospace" font-size="13">
<style>.h{{font-weight:bold}} .o{{text-anchor:end;fill:#666}} .c{{text-anchor:middle}} .l{{}}</style>
<rect width="100%" height="100%" fill="white"/>
<text x="8" y="20" class="h">{}</text>
{body}</svg>
"#,
        xml_escape(title)
    )
}

/// Runs `inlay map`.
/// What `inlay map` draws for a resolved layout whose slots have the given strides: the
/// uncoloured terminal picture and the SVG (used by `inlay view`).
pub(crate) fn pictures(
    layout: &InputLayout,
    strides: &[(u32, u32)],
    title: &str,
) -> (String, String) {
    let maps = build(layout, None, strides);
    (
        text_picture(layout, &maps, Style::PLAIN),
        svg_picture(layout, &maps, title),
    )
}

pub fn run(args: &MapArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let (all, per) = parse_strides(&args.stride)?;
    let layout_file = LayoutFile::load(&args.layout, args.array.as_deref(), style::stderr())?;
    if let Some(svg) = &args.svg {
        output::check_destination(svg, &[&args.layout], args.force)?;
    }
    let target = args.target.target()?;
    if let Some(note) = crate::check::d3d12_note(&layout_file) {
        eprintln!("note: {note}");
    }
    let creation = validation::layout_without_shader(&target, &layout_file.parsed.elements);
    let style = style::stdout();
    let Some(layout) = &creation.layout else {
        check::write_diagnostics(out, &layout_file, &creation, style)?;
        check::write_result(out, &creation, style)?;
        return Ok(1);
    };
    for (slot, _) in &per {
        if layout.slot(*slot).is_none() {
            return Err(CliError::usage(format!(
                "--stride {slot}=…: the layout has no element in slot {slot}"
            )));
        }
    }
    let maps = build(layout, all, &per);
    // With `--svg -` the SVG is standard output, and the text picture goes to standard error.
    let svg_to_stdout = args.svg.as_deref().is_some_and(output::is_dash);
    {
        let mut stderr = std::io::stderr();
        let (report, style): (&mut dyn Write, Style) = if svg_to_stdout {
            (&mut stderr, style::stderr())
        } else {
            (&mut *out, style)
        };
        writeln!(report, "{}", layout_file.describe()).map_err(CliError::stdout)?;
        write!(report, "{}", text_picture(layout, &maps, style)).map_err(CliError::stdout)?;
    }
    if let Some(svg) = &args.svg {
        let doc = svg_picture(layout, &maps, &layout_file.describe());
        output::write_output(
            svg,
            doc.as_bytes(),
            out,
            &[&args.layout],
            args.force,
            &format!("{} bytes, SVG", doc.len()),
        )?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use inlay::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
    use inlay::format::Format;
    use inlay::target::Target;

    fn layout() -> InputLayout {
        let elements = [
            InputElementDesc::per_vertex("P", 0, Format::R32G32_FLOAT, 0, 0),
            InputElementDesc::per_vertex("Q", 0, Format::R8G8B8A8_UNORM, 0, 4),
            InputElementDesc::per_vertex("R", 0, Format::R16_UINT, 0, APPEND_ALIGNED_ELEMENT),
        ];
        validation::layout_without_shader(&Target::default(), &elements)
            .layout
            .unwrap()
    }

    #[test]
    fn cells_mark_elements_overlaps_and_padding() {
        let l = layout();
        let maps = build(&l, Some(16), &[]);
        let m = &maps[0];
        assert_eq!((m.stride, m.min_stride, m.len), (16, 10, 16));
        assert_eq!(*m.cell(3), Cell::Element(0));
        assert_eq!(*m.cell(4), Cell::Overlap(vec![0, 1]));
        assert_eq!(*m.cell(8), Cell::Element(2));
        assert_eq!(*m.cell(10), Cell::Padding);
        assert_eq!(m.ranges(|c| *c == Cell::Padding), [(10, 16)]);
        // R16_UINT appended after COLOR at 8 (two bytes), stride override for slot 0 wins.
        let maps = build(&l, Some(16), &[(0, 12)]);
        assert_eq!((maps[0].stride, maps[0].len), (12, 12));
    }

    /// Issue 18 item 2: an element at offset 4 000 000 000 used to allocate a cell per byte
    /// (96 GB) and abort; now the map is a few runs and the picture draws the gap as one line.
    #[test]
    fn far_offsets_cost_runs_not_bytes() {
        let elements = [
            InputElementDesc::per_vertex("P", 0, Format::R32G32_FLOAT, 0, 0),
            InputElementDesc::per_vertex("FAR", 0, Format::R32G32B32_FLOAT, 0, 4_000_000_000),
        ];
        let l = validation::layout_without_shader(&Target::default(), &elements)
            .layout
            .unwrap();
        let maps = build(&l, None, &[]);
        let m = &maps[0];
        assert_eq!(m.len, 4_000_000_012);
        assert_eq!(
            m.runs,
            [
                Run {
                    start: 0,
                    end: 8,
                    cell: Cell::Element(0)
                },
                Run {
                    start: 8,
                    end: 4_000_000_000,
                    cell: Cell::Padding
                },
                Run {
                    start: 4_000_000_000,
                    end: 4_000_000_012,
                    cell: Cell::Element(1)
                },
            ]
        );
        let text = text_picture(&l, &maps, Style::PLAIN);
        assert!(text.len() < 2000, "{text}");
        assert!(
            text.contains("\n      16  … 3999999984 bytes of padding (16..4000000000) …\n"),
            "{text}"
        );
        assert!(
            text.contains("\n  4000000000  B  B  B  B  B  B  B  B  B  B  B  B\n"),
            "{text}"
        );
        assert!(text.contains("padding                                 bytes    8..4000000000"));
        let svg = svg_picture(&l, &maps, "far");
        assert!(svg.len() < 20_000, "{}", svg.len());
        assert!(svg.contains("… 3999999968 bytes of padding (32..4000000000) …"));
    }

    #[test]
    fn colour_only_when_enabled() {
        let l = layout();
        let maps = build(&l, None, &[]);
        let plain = text_picture(&l, &maps, Style::PLAIN);
        assert!(!plain.contains('\x1b'));
        assert!(
            plain.contains("       0  A  A  A  A  !  !  !  !  C  C\n"),
            "{plain}"
        );
        let coloured = text_picture(&l, &maps, Style { enabled: true });
        assert!(
            coloured.contains("\x1b[30;48;5;39m A \x1b[0m"),
            "{coloured}"
        );
        assert!(coloured.contains("\x1b[1;97;41m ! \x1b[0m"));
    }

    #[test]
    fn svg_escapes_names() {
        let elements = [InputElementDesc::per_vertex(
            "A<&>",
            0,
            Format::R32_FLOAT,
            0,
            0,
        )];
        let l = validation::layout_without_shader(&Target::default(), &elements)
            .layout
            .unwrap();
        let svg = svg_picture(&l, &build(&l, None, &[]), "t\"<");
        assert!(svg.contains("A&lt;&amp;&gt;0 R32_FLOAT"));
        assert!(svg.contains(">t&quot;&lt;</text>"));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    }
}
