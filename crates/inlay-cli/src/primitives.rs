//! `inlay decode --primitives`: the primitives the input assembler builds for a draw, each
//! with its SV_PrimitiveID, instance, vertex-stream positions and the buffer element number
//! each vertex fetched.

use std::io::{self, Write};

use inlay::assembler::{PreparedDraw, PrimitiveAssembler, WalkStep};

use crate::decode::OutputFormat;

/// Stream positions a primitive can reach back (a triangle strip with adjacency looks 6 back);
/// element numbers are kept in a ring this long.
const RING: usize = 64;

/// Writes every primitive of `draw`, streaming in constant memory.
pub fn write(draw: &PreparedDraw<'_>, format: OutputFormat, out: &mut dyn Write) -> io::Result<()> {
    let mut pa = PrimitiveAssembler::new(draw.topology());
    let mut ring = [0u32; RING];
    let count = draw.params().count as u64;
    let mut quiet = 0u64;
    let mut first = true;
    match format {
        OutputFormat::Table => writeln!(
            out,
            "{:>9} {:>11}  positions / elements",
            "primitive", "instance_id"
        )?,
        OutputFormat::Csv => writeln!(out, "primitive,instance_id,positions,elements")?,
        OutputFormat::Json => writeln!(out, "[")?,
    }
    let mut emit = |p: inlay::assembler::Primitive,
                    ring: &[u32; RING],
                    out: &mut dyn Write|
     -> io::Result<()> {
        let pos: Vec<String> = p.vertices().iter().map(|q| q.to_string()).collect();
        let el: Vec<String> = p
            .vertices()
            .iter()
            .map(|&q| ring[(q % RING as u64) as usize].to_string())
            .collect();
        match format {
            OutputFormat::Table => writeln!(
                out,
                "{:>9} {:>11}  {} / {}",
                p.id,
                p.instance_id,
                pos.join(" "),
                el.join(" ")
            ),
            OutputFormat::Csv => writeln!(
                out,
                "{},{},{},{}",
                p.id,
                p.instance_id,
                pos.join(" "),
                el.join(" ")
            ),
            OutputFormat::Json => {
                let r = writeln!(
                    out,
                    "{}{{\"primitive\": {}, \"instance_id\": {}, \"positions\": [{}], \"elements\": [{}]}}",
                    if first { " " } else { "," },
                    p.id,
                    p.instance_id,
                    pos.join(", "),
                    el.join(", ")
                );
                first = false;
                r
            }
        }
    };
    for step in draw.walk() {
        if let WalkStep::Vertex {
            vertex_index,
            position,
            ..
        } = step
        {
            ring[(position % RING as u64) as usize] = vertex_index;
        }
        let mut any = false;
        for p in pa.step(&step).into_iter().flatten() {
            emit(p, &ring, out)?;
            any = true;
        }
        // Every instance reads the same indices: a whole instance and the step that closes it
        // without a primitive means no later one has any (the library's streams end alike).
        quiet = if any { 0 } else { quiet + 1 };
        if quiet > 2 * count + 1 {
            break;
        }
    }
    if let Some(p) = pa.finish() {
        emit(p, &ring, out)?;
    }
    if format == OutputFormat::Json {
        writeln!(out, "]")?;
    }
    Ok(())
}
