//! `inlay map`: a picture of each slot's vertex — which bytes each element covers, padding,
//! overlaps and the stride — in the terminal and as SVG.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use inlay::assembler::binding::MAX_VERTEX_STRIDE;
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
    /// Also write the picture as SVG to FILE
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

/// One slot's picture data.
struct SlotMap {
    slot: u32,
    class: InputClass,
    step_rate: u32,
    stride: u32,
    min_stride: u32,
    /// Element indices of this slot.
    elements: Vec<usize>,
    /// One cell per byte, `max(stride, min_stride)` of them.
    cells: Vec<Cell>,
}

/// `--stride` values: one for every slot, and (slot, stride) pairs.
type Strides = (Option<u32>, Vec<(u32, u32)>);

fn parse_strides(specs: &[String]) -> Result<Strides, CliError> {
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
        .slots
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
                .elements
                .iter()
                .enumerate()
                .filter(|(_, e)| e.slot == s.slot)
                .map(|(i, _)| i)
                .collect();
            let len = stride.max(s.min_stride) as usize;
            let mut cells = vec![Cell::Padding; len];
            for &i in &elements {
                let e = &layout.elements[i];
                let end = (e.end() as usize).min(len);
                for cell in cells.iter_mut().take(end).skip(e.offset as usize) {
                    *cell = match std::mem::replace(cell, Cell::Padding) {
                        Cell::Padding => Cell::Element(i),
                        Cell::Element(j) => Cell::Overlap(vec![j, i]),
                        Cell::Overlap(mut v) => {
                            v.push(i);
                            Cell::Overlap(v)
                        }
                    };
                }
            }
            SlotMap {
                slot: s.slot,
                class: s.class,
                step_rate: s.step_rate,
                stride,
                min_stride: s.min_stride,
                elements,
                cells,
            }
        })
        .collect()
}

/// The letter that stands for element `i` (A–Z, then a–z).
fn letter(i: usize) -> char {
    const L: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    L.get(i).map_or('?', |&b| b as char)
}

/// Terminal background (ANSI 256-colour index) and SVG fill for element `i`.
fn colour(i: usize) -> (u8, &'static str) {
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

fn ranges(cells: &[Cell], pred: impl Fn(&Cell) -> bool) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (b, c) in cells.iter().enumerate() {
        if pred(c) {
            match out.last_mut() {
                Some(r) if r.1 == b => r.1 = b + 1,
                _ => out.push((b, b + 1)),
            }
        }
    }
    out
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
        for c in 0..PER_ROW.min(m.cells.len()) {
            let _ = write!(s, "{}", style.dim(&format!("{c:>3}")));
        }
        s.push('\n');
        for (row, chunk) in m.cells.chunks(PER_ROW).enumerate() {
            let _ = write!(s, "{}", style.dim(&format!("  {:>6}", row * PER_ROW)));
            for (k, cell) in chunk.iter().enumerate() {
                let b = row * PER_ROW + k;
                let past = b >= m.stride as usize;
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
            let e = &layout.elements[i];
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
        for (a, b) in ranges(&m.cells, |c| *c == Cell::Padding) {
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
        let mut overlaps: Vec<(usize, usize, Vec<usize>)> = Vec::new();
        for (b, c) in m.cells.iter().enumerate() {
            if let Cell::Overlap(v) = c {
                match overlaps.last_mut() {
                    Some(r) if r.1 == b && r.2 == *v => r.1 = b + 1,
                    _ => overlaps.push((b, b + 1, v.clone())),
                }
            }
        }
        for (a, b, v) in overlaps {
            let key = if style.enabled {
                style.paint("1;97;41", " ! ")
            } else {
                " ! ".to_string()
            };
            let names: Vec<String> = v
                .iter()
                .map(|&i| element_name(&layout.elements[i]))
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
        for (row, chunk) in m.cells.chunks(SVG_PER_ROW).enumerate() {
            let ry = y + row * CELL;
            let _ = writeln!(
                body,
                r#"<text x="{}" y="{}" class="o">{}</text>"#,
                left - 6,
                ry + 15,
                row * SVG_PER_ROW
            );
            for (k, cell) in chunk.iter().enumerate() {
                let b = row * SVG_PER_ROW + k;
                let x = left + k * CELL;
                let (fill, label, extra) = match cell {
                    Cell::Padding => ("#f2f2f2", "·".to_string(), ""),
                    Cell::Element(i) => (colour(*i).1, letter(*i).to_string(), ""),
                    Cell::Overlap(_) => ("#e03030", "!".to_string(), ""),
                };
                let past = if b >= m.stride as usize {
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
            if m.stride as usize > row * SVG_PER_ROW
                && (m.stride as usize) <= (row + 1) * SVG_PER_ROW
                && m.stride < m.min_stride
            {
                let sx = left + (m.stride as usize - row * SVG_PER_ROW) * CELL;
                let _ = writeln!(
                    body,
                    r##"<line x1="{sx}" y1="{}" x2="{sx}" y2="{}" stroke="#000" stroke-width="3"/>"##,
                    ry - 3,
                    ry + CELL + 3
                );
            }
        }
        y += m.cells.len().div_ceil(SVG_PER_ROW) * CELL + 22;
        for &i in &m.elements {
            let e = &layout.elements[i];
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
        for (a, b) in ranges(&m.cells, |c| *c == Cell::Padding) {
            let _ = writeln!(
                body,
                r##"<rect x="8" y="{}" width="16" height="16" fill="#f2f2f2" stroke="#555"/><text x="32" y="{y}" class="l">padding bytes {a}..{b} ({} B)</text>"##,
                y - 12,
                b - a
            );
            y += 20;
        }
        for (a, b) in ranges(&m.cells, |c| matches!(c, Cell::Overlap(_))) {
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
    writeln!(out, "{}", layout_file.describe()).map_err(CliError::stdout)?;
    write!(out, "{}", text_picture(layout, &maps, style)).map_err(CliError::stdout)?;
    if let Some(svg) = &args.svg {
        let doc = svg_picture(layout, &maps, &layout_file.describe());
        output::write_file(svg, doc.as_bytes(), &[&args.layout], args.force)?;
        writeln!(out, "wrote {}", svg.display()).map_err(CliError::stdout)?;
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
        assert_eq!((m.stride, m.min_stride, m.cells.len()), (16, 10, 16));
        assert_eq!(m.cells[3], Cell::Element(0));
        assert_eq!(m.cells[4], Cell::Overlap(vec![0, 1]));
        assert_eq!(m.cells[8], Cell::Element(2));
        assert_eq!(m.cells[10], Cell::Padding);
        assert_eq!(ranges(&m.cells, |c| *c == Cell::Padding), [(10, 16)]);
        // R16_UINT appended after COLOR at 8 (two bytes), stride override for slot 0 wins.
        let maps = build(&l, Some(16), &[(0, 12)]);
        assert_eq!((maps[0].stride, maps[0].cells.len()), (12, 12));
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
