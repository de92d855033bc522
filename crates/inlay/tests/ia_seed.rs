//! The seed conformance case's draw (`../shared/conformance/examples/seed.json`) through the
//! input assembler: exactly its expected registers and primitive.

mod support;

use std::path::PathBuf;

use inlay::assembler::{DrawCall, InputAssembler, Topology};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::format::Format;
use inlay::layout::{InputClass, LayoutElement};
use inlay::target::Target;
use serde_json::Value;

fn element(name: &str, format: Format, slot: u32, offset: u32, register: u32) -> LayoutElement {
    LayoutElement {
        semantic_name: name.into(),
        semantic_index: 0,
        format,
        slot,
        offset,
        class: InputClass::PerVertex,
        step_rate: 0,
        register: Some(register),
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

const SEED_DATA: &str = "000000000000003f0000003f0000803f00000000000000000000003f000000bf0000003f000000000000803f00000000000000bf000000bf0000003f00000000000000000000803f";

/// The seed triangle, built by hand: POSITION and COLOR, both R32G32B32_FLOAT, interleaved.
#[test]
fn seed_triangle_by_hand() {
    let layout = support::create_layout(&[
        element("POSITION", Format::R32G32B32_FLOAT, 0, 0, 0),
        element("COLOR", Format::R32G32B32_FLOAT, 0, 12, 1),
    ]);
    let data = hex(SEED_DATA);
    let mut ia = InputAssembler::new(&layout, Target::default());
    ia.set_vertex_buffer(
        0,
        Some(VertexBufferBinding {
            data: &data,
            stride: 24,
            offset: 0,
        }),
    )
    .unwrap();
    ia.set_topology(Topology::TriangleList).unwrap();
    let draw = ia
        .draw(&DrawCall::Draw {
            vertex_count: 3,
            start_vertex: 0,
        })
        .unwrap();
    let v: Vec<_> = draw.vertices().collect();
    assert_eq!(v.len(), 3);
    let expect = [
        (
            [0x0000_0000, 0x3f00_0000, 0x3f00_0000, 0x3f80_0000],
            [0x3f80_0000, 0, 0, 0x3f80_0000],
        ),
        (
            [0x3f00_0000, 0xbf00_0000, 0x3f00_0000, 0x3f80_0000],
            [0, 0x3f80_0000, 0, 0x3f80_0000],
        ),
        (
            [0xbf00_0000, 0xbf00_0000, 0x3f00_0000, 0x3f80_0000],
            [0, 0, 0x3f80_0000, 0x3f80_0000],
        ),
    ];
    for (k, (vert, (pos, col))) in v.iter().zip(expect).enumerate() {
        assert_eq!(vert.vertex_id, k as u32);
        assert_eq!(vert.instance_id, 0);
        assert_eq!(vert.register(0), Some(pos));
        assert_eq!(vert.register(1), Some(col));
        assert_eq!(vert.register(2), None);
    }
    let prims: Vec<_> = draw.primitives().collect();
    assert_eq!(prims.len(), 1);
    assert_eq!(prims[0].id, 0);
    assert_eq!(prims[0].vertices(), &[0, 1, 2]);
}

#[path = "../testenv/test_side.rs"]
mod testenv;

fn seed_path() -> PathBuf {
    testenv::shared_examples().join("seed.json")
}

fn u32_of(v: &Value) -> u32 {
    v.as_u64().expect("integer") as u32
}

/// Every case of seed.json that has a draw, read from the JSON (elements with their offsets
/// and signature registers; bindings; call) and compared with `expect_draw`.
#[test]
#[cfg_attr(
    not(inlay_has_shared_examples),
    ignore = "needs the shared example cases: ../shared/conformance/examples or $INLAY_SHARED"
)]
fn seed_json_draws() {
    let path = seed_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap();
    let mut checked = 0;
    for case in doc["cases"].as_array().unwrap() {
        let Some(draw) = case.get("draw") else {
            continue;
        };
        let sig = case["shader"]["signature"].as_array().unwrap();
        let offsets = case["expect"]["offsets"].as_array().unwrap();
        let elements: Vec<LayoutElement> = case["elements"]
            .as_array()
            .unwrap()
            .iter()
            .zip(offsets)
            .map(|(e, off)| {
                let name = e["semantic"].as_str().unwrap();
                let index = u32_of(&e["index"]);
                let register = sig
                    .iter()
                    .find(|s| {
                        s["semantic"].as_str().unwrap().eq_ignore_ascii_case(name)
                            && u32_of(&s["index"]) == index
                    })
                    .map(|s| u32_of(&s["register"]));
                LayoutElement {
                    semantic_name: name.into(),
                    semantic_index: index,
                    format: e["format"].as_str().unwrap().parse().unwrap(),
                    slot: u32_of(&e["slot"]),
                    offset: u32_of(off),
                    class: if e["class"] == "instance" {
                        InputClass::PerInstance
                    } else {
                        InputClass::PerVertex
                    },
                    step_rate: u32_of(&e["step_rate"]),
                    register,
                }
            })
            .collect();
        let layout = support::create_layout(&elements);
        let vb_data: Vec<(u32, u32, u32, Vec<u8>)> = draw["vertex_buffers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    u32_of(&b["slot"]),
                    u32_of(&b["stride"]),
                    u32_of(&b["offset"]),
                    hex(b["data"].as_str().unwrap()),
                )
            })
            .collect();
        let ib_data = draw.get("index_buffer").map(|ib| {
            let format = match ib["format"].as_str().unwrap() {
                "R16_UINT" => IndexFormat::R16Uint,
                _ => IndexFormat::R32Uint,
            };
            (
                format,
                u32_of(&ib["offset"]),
                hex(ib["data"].as_str().unwrap()),
            )
        });
        let mut ia = InputAssembler::new(&layout, Target::default());
        for (slot, stride, offset, data) in &vb_data {
            ia.set_vertex_buffer(
                *slot,
                Some(VertexBufferBinding {
                    data,
                    stride: *stride,
                    offset: *offset,
                }),
            )
            .unwrap();
        }
        if let Some((format, offset, data)) = &ib_data {
            ia.set_index_buffer(Some(IndexBufferBinding {
                data,
                format: *format,
                offset: *offset,
            }))
            .unwrap();
        }
        ia.set_topology(draw["topology"].as_str().unwrap().parse().unwrap())
            .unwrap();
        let c = &draw["call"];
        let g = |k: &str| u32_of(&c[k]);
        let args;
        let call = match c["kind"].as_str().unwrap() {
            "draw" => DrawCall::Draw {
                vertex_count: g("vertex_count"),
                start_vertex: g("start_vertex"),
            },
            "draw_indexed" => DrawCall::DrawIndexed {
                index_count: g("index_count"),
                start_index: g("start_index"),
                base_vertex: c["base_vertex"].as_i64().unwrap() as i32,
            },
            "draw_instanced" => DrawCall::DrawInstanced {
                vertex_count_per_instance: g("vertex_count_per_instance"),
                instance_count: g("instance_count"),
                start_vertex: g("start_vertex"),
                start_instance: g("start_instance"),
            },
            "draw_indexed_instanced" => DrawCall::DrawIndexedInstanced {
                index_count_per_instance: g("index_count_per_instance"),
                instance_count: g("instance_count"),
                start_index: g("start_index"),
                base_vertex: c["base_vertex"].as_i64().unwrap() as i32,
                start_instance: g("start_instance"),
            },
            kind => {
                args = hex(c["args"]["data"].as_str().unwrap());
                let offset = u32_of(&c["args"]["offset"]);
                if kind == "draw_instanced_indirect" {
                    DrawCall::DrawInstancedIndirect {
                        args: &args,
                        offset,
                    }
                } else {
                    DrawCall::DrawIndexedInstancedIndirect {
                        args: &args,
                        offset,
                    }
                }
            }
        };
        let prepared = ia.draw(&call).unwrap();
        let got: Vec<_> = prepared.vertices().collect();
        let want = case["expect_draw"]["vertices"].as_array().unwrap();
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g.vertex_id, u32_of(&w["vertex_id"]));
            assert_eq!(g.instance_id, u32_of(&w["instance_id"]));
            for (reg, lanes) in w["registers"].as_object().unwrap() {
                let r: u32 = reg.parse().unwrap();
                let have = g.register(r).expect("register fed");
                for (lane, l) in lanes.as_array().unwrap().iter().enumerate() {
                    if let Some(s) = l.as_str() {
                        assert_eq!(
                            have[lane],
                            u32::from_str_radix(s, 16).unwrap(),
                            "case {} v{r}[{lane}]",
                            case["name"]
                        );
                    }
                }
            }
        }
        if let Some(prims) = case["expect_draw"].get("primitives") {
            let got: Vec<_> = prepared.primitives().collect();
            let want = prims.as_array().unwrap();
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(want) {
                assert_eq!(g.id, u32_of(&w["id"]));
                let wv: Vec<u64> = w["vertices"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect();
                assert_eq!(g.vertices(), &wv[..]);
            }
        }
        checked += 1;
    }
    assert!(checked >= 1, "seed.json has no draw case");
}
