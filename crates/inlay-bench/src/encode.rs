//! The encode workloads: W1 and W2 in reverse, through the compiled encoder
//! `inlay::encode::EncodePlan` (issue 12: "registers in, packed vertices out").
//!
//! * **W1e "float encode"**: the register file of W1 (4 rows of 16 bytes per vertex, what
//!   the W1 decode produces from W1's buffer) encoded back into W1's layout (stride 48).
//! * **W2e "packed encode"**: the same for W2 (6 rows in, stride 28 out: halves,
//!   10:10:10:2, UNORM16, BGRA8, UINT8, UNORM8), rounding `nearest`.
//!
//! The input is exactly what the decode of the same workload writes, so every value is valid
//! and the encode gives W1's/W2's buffer back (checked by the tests). The roof reads the
//! register bytes and writes the vertex bytes.

use inlay::encode::{EncodePlan, WriterOptions};
use inlay::fetch::{Instance, Isa, Vertices};

use crate::Workload;
use crate::fetch::MeshDecode;

/// W1 or W2 encoded from registers.
pub struct MeshEncode {
    name: &'static str,
    description: &'static str,
    /// The decode workload whose layout and buffer this one reverses.
    pub mesh: MeshDecode,
    /// The registers: `vertices × rows` rows.
    pub rows: Vec<[u32; 4]>,
    /// The compiled encoder.
    pub plan: EncodePlan,
}

impl MeshEncode {
    fn new(name: &'static str, description: &'static str, mesh: MeshDecode) -> MeshEncode {
        let n = mesh.data.len() / mesh.stride as usize;
        let mut rows = vec![[0u32; 4]; n * mesh.layout.elements.len()];
        mesh.plan()
            .fetch_registers(
                Vertices::Range {
                    first: 0,
                    count: n as u32,
                },
                Instance::default(),
                &mut rows,
            )
            .expect("benchmark buffers decode");
        let plan = EncodePlan::new(&mesh.layout, &WriterOptions::default())
            .expect("benchmark layouts compile");
        MeshEncode {
            name,
            description,
            mesh,
            rows,
            plan,
        }
    }

    /// W1 in reverse.
    pub fn w1(vertices: u32, isa: Isa) -> MeshEncode {
        MeshEncode::new("W1e", "float encode", MeshDecode::w1(vertices, isa))
    }

    /// W2 in reverse.
    pub fn w2(vertices: u32, isa: Isa) -> MeshEncode {
        MeshEncode::new("W2e", "packed encode", MeshDecode::w2(vertices, isa))
    }
}

impl Workload for MeshEncode {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        self.description
    }
    fn vertices(&self) -> usize {
        self.rows.len() / self.plan.rows().max(1)
    }
    fn input_bytes_per_vertex(&self) -> usize {
        16 * self.plan.rows()
    }
    fn output_bytes_per_vertex(&self) -> usize {
        self.mesh.stride as usize
    }
    fn roof_input(&self) -> &[u8] {
        bytemuck::cast_slice(&self.rows)
    }
    fn run(&self, threads: usize, vertices: std::ops::Range<usize>, out: &mut [u8]) {
        let r = self.plan.rows();
        let stride = self.mesh.stride as usize;
        let first = vertices.start;
        crate::split(vertices.len(), stride, threads, out, |v0, m, o| {
            let v0 = first + v0;
            let _ = self
                .plan
                .encode_registers(&self.rows[v0 * r..(v0 + m) * r], &mut [o]);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_the_decoded_registers_gives_the_buffer_back() {
        for w in [
            MeshEncode::w1(1000, Isa::detect()),
            MeshEncode::w2(1000, Isa::detect()),
        ] {
            for threads in [1, 3] {
                let mut out = vec![0u8; w.vertices() * w.output_bytes_per_vertex()];
                w.run(threads, 0..w.vertices(), &mut out);
                assert_eq!(out, w.mesh.data, "{} threads {threads}", w.name);
            }
            assert_eq!(
                w.roof_input().len(),
                w.vertices() * w.input_bytes_per_vertex()
            );
        }
    }
}
