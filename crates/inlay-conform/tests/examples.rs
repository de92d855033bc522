//! The binary files of `examples/` are made here, by inlay itself, so the README's commands
//! run in a fresh clone on inputs of our own making (issue 35 item 6); the tests check that the
//! committed bytes are what these generators give. `INLAY_UPDATE_EXAMPLES=1` writes them.
//!
//! * `examples/vs.dxbc`: a compiled `vs_4_0` vertex shader (ISGN, OSGN and an SHDR program) —
//!   the conformance runner's pass-through shader
//!   ([`inlay_conform::runner::passthrough_vertex_shader`], checked there against fxc's
//!   encoding of the same statements) over the seed inputs POSITION and COLOR, so
//!   `inlay shader vs.dxbc` shows a stage and a model.
//! * `examples/torus.vb` / `torus.ib`: a torus of 24 × 12 vertices in the 48-byte layout of
//!   `examples/layouts/wwmi-component-48.json` (every element filled: position, tangent,
//!   normal, bone indices and weights, two colours, three UV sets) with a triangle-list R16
//!   index buffer, for the README's `inlay view` command.

use std::path::{Path, PathBuf};

use inlay::dxbc::signature::{ComponentType, MinPrecision, SignatureElement, SystemValue};
use inlay::dxbc::{Container, SignatureKind};
use inlay::encode::VertexWriter;
use inlay::target::Target;
use inlay_conform::runner::passthrough_vertex_shader;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// Compares `bytes` with the committed file (or writes it with `INLAY_UPDATE_EXAMPLES=1`).
fn committed(name: &str, bytes: &[u8]) {
    let path = examples().join(name);
    if std::env::var_os("INLAY_UPDATE_EXAMPLES").is_some_and(|v| v == "1") {
        std::fs::write(&path, bytes).unwrap();
        return;
    }
    let have = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        have == bytes,
        "{} is not what its generator gives ({} bytes, generated {}); rerun with \
         INLAY_UPDATE_EXAMPLES=1 if the change is intended",
        path.display(),
        have.len(),
        bytes.len()
    );
}

fn input(name: &str, register: u32) -> SignatureElement {
    SignatureElement {
        stream: 0,
        semantic_name: name.into(),
        semantic_index: 0,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::FLOAT32,
        register,
        mask: 0b111,
        read_write_mask: 0b111,
        min_precision: MinPrecision(0),
    }
}

#[test]
fn vs_dxbc_is_a_compiled_vertex_shader_of_the_seed_inputs() {
    let blob = passthrough_vertex_shader(&[input("POSITION", 0), input("COLOR", 1)]);
    let c = Container::parse(&blob).unwrap();
    assert!(c.checksum_matches());
    assert_eq!(c.shader_model_string().as_deref(), Some("4_0"));
    assert!(c.chunk(*b"SHDR").is_some());
    let sig = c.signature(SignatureKind::Isgn).unwrap().unwrap();
    let names: Vec<_> = sig
        .elements
        .iter()
        .map(|e| (e.semantic_name.as_str(), e.register))
        .collect();
    assert_eq!(
        names,
        [
            ("POSITION", 0),
            ("COLOR", 1),
            ("SV_VertexID", 2),
            ("SV_InstanceID", 3)
        ]
    );
    committed("vs.dxbc", &blob);
}

/// cos and sin of `a` from their Taylor series, in f64 with plain `+` and `*` (correctly
/// rounded everywhere, unlike a platform's libm), so the file's bytes are the same on every
/// machine.
fn cos_sin(a: f64) -> (f64, f64) {
    // Reduce to [-pi, pi]: the series then converges within 30 terms to f64 precision.
    let pi = std::f64::consts::PI;
    let a = if a > pi { a - 2.0 * pi } else { a };
    let (mut c, mut s) = (0.0, 0.0);
    let mut term = 1.0; // a^k / k!
    for k in 0..40 {
        match k % 4 {
            0 => c += term,
            1 => s += term,
            2 => c -= term,
            _ => s -= term,
        }
        term = term * a / f64::from(k + 1);
    }
    (c, s)
}

#[test]
fn torus_buffers_are_the_generated_torus() {
    let text = std::fs::read_to_string(examples().join("layouts/wwmi-component-48.json")).unwrap();
    let parsed = inlay::text::json::parse_layout(&text).unwrap();
    let created = inlay::validation::layout_without_shader(&Target::default(), &parsed.elements);
    let layout = created.layout.expect("the layout is valid");
    assert_eq!(layout.slot(0).unwrap().min_stride, 48);
    let (around, tube) = (24u32, 12u32);
    let (big, small) = (0.75f64, 0.3f64);
    let mut writer = VertexWriter::new(&layout, around * tube, 1).unwrap();
    let f = |x: f64| (x as f32).to_bits();
    for i in 0..around {
        let (cu, su) = cos_sin(2.0 * std::f64::consts::PI * f64::from(i) / f64::from(around));
        for j in 0..tube {
            let (cv, sv) = cos_sin(2.0 * std::f64::consts::PI * f64::from(j) / f64::from(tube));
            let (u, v) = (
                f64::from(i) / f64::from(around),
                f64::from(j) / f64::from(tube),
            );
            let ring = big + small * cv;
            let values = [
                [f(ring * cu), f(small * sv), f(ring * su), 0],
                [f(-su), f(0.0), f(cu), f(1.0)],
                [f(cv * cu), f(sv), f(cv * su), f(0.0)],
                [i % 4, (i + 1) % 4, 0, 0],
                [f(0.75), f(0.25), f(0.0), f(0.0)],
                [
                    f(0.5 + 0.5 * cu),
                    f(0.5 + 0.5 * su),
                    f(0.5 + 0.5 * cv),
                    f(1.0),
                ],
                [f(u), f(v), 0, 0],
                [f(v), f(u), 0, 0],
                [f(2.0 * u), f(2.0 * v), 0, 0],
                [f(0.5), f(0.5), 0, 0],
            ];
            writer.write_vertex(i * tube + j, 0, &values).unwrap();
        }
    }
    let buffers = writer.into_buffers();
    assert_eq!(buffers.len(), 1);
    assert_eq!(buffers[0].data.len(), (around * tube * 48) as usize);
    let mut indices: Vec<u8> = Vec::new();
    for i in 0..around {
        for j in 0..tube {
            let at = |a: u32, b: u32| ((a % around) * tube + b % tube) as u16;
            let quad = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
            for k in [0, 1, 2, 0, 2, 3] {
                indices.extend(quad[k].to_le_bytes());
            }
        }
    }
    committed("torus.vb", &buffers[0].data);
    committed("torus.ib", &indices);
}
