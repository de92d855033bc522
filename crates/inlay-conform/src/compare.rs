//! Comparing what an implementation produced with what a case expects; each comparison
//! stops at the first difference and describes it (expected vs got, and where).

use std::collections::BTreeMap;

use crate::schema::{Expect, ExpectDraw};
use inlay::HResult;

/// What a `CreateInputLayout` call produced, reduced to what cases check.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CreationResult {
    /// The HRESULT.
    pub hresult: Option<HResult>,
    /// Message ids reported as errors.
    pub errors: Vec<u32>,
    /// Message ids reported as warnings.
    pub warnings: Vec<u32>,
    /// Message ids reported with any other severity (info).
    pub others: Vec<u32>,
    /// Resolved offsets in array order, when a layout was produced.
    pub offsets: Option<Vec<u32>>,
}

/// One vertex of a produced stream.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ProducedVertex {
    /// `SV_VertexID`.
    pub vertex_id: u32,
    /// `SV_InstanceID`.
    pub instance_id: u32,
    /// Registers fed by the layout.
    pub registers: BTreeMap<u32, [u32; 4]>,
}

/// One produced primitive.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ProducedPrimitive {
    /// `SV_PrimitiveID`.
    pub id: u32,
    /// Positions in the vertex stream, in GS input order.
    pub vertices: Vec<usize>,
}

/// What a draw produced.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DrawResult {
    /// The vertex stream.
    pub vertices: Vec<ProducedVertex>,
    /// The assembled primitives.
    pub primitives: Vec<ProducedPrimitive>,
    /// Whether the draw produced more vertices than were collected.
    pub more_vertices: bool,
    /// Whether the draw produced more primitives than were collected.
    pub more_primitives: bool,
}

fn ids(v: &[u32]) -> String {
    let parts: Vec<String> = v.iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// Compares a creation result with a case's `expect`; `Err` holds the first difference.
pub fn compare_creation(expect: &Expect, got: &CreationResult) -> Result<(), String> {
    let want = expect.hresult;
    match got.hresult {
        Some(h) if h == want => {}
        Some(h) => {
            return Err(format!(
                "hresult: expected {want}, got {h} (errors {}, warnings {})",
                ids(&got.errors),
                ids(&got.warnings)
            ));
        }
        None => return Err(format!("hresult: expected {want}, got none")),
    }
    for id in &expect.errors {
        if !got.errors.contains(id) {
            return Err(format!(
                "errors: expected message {id} among the errors, got errors {}, warnings {}",
                ids(&got.errors),
                ids(&got.warnings)
            ));
        }
    }
    for id in &expect.warnings {
        if !got.warnings.contains(id) {
            return Err(format!(
                "warnings: expected message {id} among the warnings, got warnings {}, errors {}",
                ids(&got.warnings),
                ids(&got.errors)
            ));
        }
    }
    for id in &expect.absent {
        let severity = if got.errors.contains(id) {
            Some("an error")
        } else if got.warnings.contains(id) {
            Some("a warning")
        } else if got.others.contains(id) {
            Some("a message")
        } else {
            None
        };
        if let Some(s) = severity {
            return Err(format!(
                "absent: expected message {id} not to be reported, got it as {s}"
            ));
        }
    }
    if let Some(want) = &expect.offsets {
        match &got.offsets {
            None => {
                return Err(format!("offsets: expected {}, got no layout", ids(want)));
            }
            Some(have) => {
                if let Some(i) = (0..want.len().min(have.len())).find(|&i| want[i] != have[i]) {
                    return Err(format!(
                        "offsets: element {i}: expected {}, got {} (all: expected {}, got {})",
                        want[i],
                        have[i],
                        ids(want),
                        ids(have)
                    ));
                }
                if want.len() != have.len() {
                    return Err(format!(
                        "offsets: expected {} elements {}, got {} {}",
                        want.len(),
                        ids(want),
                        have.len(),
                        ids(have)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Distance in units in the last place between two f32 bit patterns, on the ordered line
/// of floats (−0 and +0 are 0 apart).
pub fn ulp_distance(a: u32, b: u32) -> u64 {
    let key = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -((x & 0x7fff_ffff) as i64)
        } else {
            x as i64
        }
    };
    key(a).abs_diff(key(b))
}

/// Whether `bits` is a finite f32 (not Inf, not NaN).
pub fn is_finite_f32(bits: u32) -> bool {
    bits & 0x7f80_0000 != 0x7f80_0000
}

/// Compares a draw's output with `expect_draw`. `float_lanes(register)` tells which lanes
/// of a register are fed by a FLOAT/UNORM/SNORM component (bit 0 = x); only those lanes, and
/// only where the expected bits are a finite float, may differ by up to `tolerance_ulp`.
pub fn compare_draw(
    expect: &ExpectDraw,
    got: &DrawResult,
    tolerance_ulp: u32,
    float_lanes: &dyn Fn(u32) -> u8,
) -> Result<(), String> {
    const LANES: [char; 4] = ['x', 'y', 'z', 'w'];
    let mut first: Option<String> = None;
    'vertices: for (i, (want, have)) in expect.vertices.iter().zip(&got.vertices).enumerate() {
        if want.vertex_id != have.vertex_id {
            first = Some(format!(
                "vertex {i}: vertex_id: expected {}, got {}",
                want.vertex_id, have.vertex_id
            ));
            break;
        }
        if want.instance_id != have.instance_id {
            first = Some(format!(
                "vertex {i}: instance_id: expected {}, got {}",
                want.instance_id, have.instance_id
            ));
            break;
        }
        for (reg, lanes) in &want.registers {
            let Some(have_lanes) = have.registers.get(reg) else {
                first = Some(format!(
                    "vertex {i}: register v{reg}: expected a value, but no element feeds it"
                ));
                break 'vertices;
            };
            let fl = float_lanes(*reg);
            for (l, (w, h)) in lanes.iter().zip(have_lanes).enumerate() {
                let Some(w) = w else { continue };
                let tolerant = tolerance_ulp > 0 && fl & (1 << l) != 0 && is_finite_f32(*w);
                let ok = if tolerant {
                    ulp_distance(*w, *h) <= u64::from(tolerance_ulp)
                } else {
                    w == h
                };
                if !ok {
                    first = Some(format!(
                        "vertex {i} (vertex_id {}, instance_id {}): register v{reg}.{}: \
                         expected {w:08x}, got {h:08x}{}",
                        have.vertex_id,
                        have.instance_id,
                        LANES[l],
                        if tolerant {
                            format!(
                                " ({} ulp apart, {tolerance_ulp} allowed)",
                                ulp_distance(*w, *h)
                            )
                        } else {
                            String::new()
                        }
                    ));
                    break 'vertices;
                }
            }
        }
    }
    if expect.vertices.len() != got.vertices.len() || got.more_vertices {
        let mut s = format!(
            "vertex count: expected {}, got {}{}",
            expect.vertices.len(),
            if got.more_vertices { "more than " } else { "" },
            got.vertices.len()
        );
        if let Some(f) = first {
            s.push_str(&format!(" (first difference: {f})"));
        }
        return Err(s);
    }
    if let Some(f) = first {
        return Err(f);
    }
    if let Some(prims) = &expect.primitives {
        for (k, (want, have)) in prims.iter().zip(&got.primitives).enumerate() {
            if want.id != have.id || want.vertices != have.vertices {
                return Err(format!(
                    "primitive {k}: expected id {} vertices {:?}, got id {} vertices {:?}",
                    want.id, want.vertices, have.id, have.vertices
                ));
            }
        }
        if prims.len() != got.primitives.len() || got.more_primitives {
            return Err(format!(
                "primitive count: expected {}, got {}{}",
                prims.len(),
                if got.more_primitives {
                    "more than "
                } else {
                    ""
                },
                got.primitives.len()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{ExpectPrimitive, ExpectVertex};
    use inlay::HResult;

    fn expect(h: HResult) -> Expect {
        Expect {
            hresult: h,
            errors: vec![],
            warnings: vec![],
            offsets: None,
            absent: vec![],
        }
    }

    #[test]
    fn creation_checks() {
        let got = CreationResult {
            hresult: Some(HResult::E_INVALIDARG),
            errors: vec![159, 163],
            warnings: vec![391],
            others: vec![],
            offsets: None,
        };
        let mut e = expect(HResult::E_INVALIDARG);
        e.errors = vec![163];
        e.warnings = vec![391];
        assert_eq!(compare_creation(&e, &got), Ok(()));
        e.absent = vec![159];
        assert_eq!(
            compare_creation(&e, &got).unwrap_err(),
            "absent: expected message 159 not to be reported, got it as an error"
        );
        e.absent = vec![];
        e.errors = vec![160];
        assert!(
            compare_creation(&e, &got)
                .unwrap_err()
                .starts_with("errors: expected message 160")
        );
        e.errors = vec![];
        e.warnings = vec![163];
        assert!(
            compare_creation(&e, &got)
                .unwrap_err()
                .starts_with("warnings:")
        );
        let e = expect(HResult::S_OK);
        assert_eq!(
            compare_creation(&e, &got).unwrap_err(),
            "hresult: expected S_OK, got E_INVALIDARG (errors [159, 163], warnings [391])"
        );
    }

    #[test]
    fn offsets() {
        let got = CreationResult {
            hresult: Some(HResult::S_OK),
            offsets: Some(vec![0, 12, 24]),
            ..Default::default()
        };
        let mut e = expect(HResult::S_OK);
        e.offsets = Some(vec![0, 12, 24]);
        assert_eq!(compare_creation(&e, &got), Ok(()));
        e.offsets = Some(vec![0, 16, 24]);
        assert_eq!(
            compare_creation(&e, &got).unwrap_err(),
            "offsets: element 1: expected 16, got 12 (all: expected [0, 16, 24], got [0, 12, 24])"
        );
        e.offsets = Some(vec![0, 12]);
        assert!(
            compare_creation(&e, &got)
                .unwrap_err()
                .starts_with("offsets: expected 2 elements")
        );
    }

    #[test]
    fn ulps() {
        assert_eq!(ulp_distance(0x3f80_0000, 0x3f80_0001), 1);
        assert_eq!(ulp_distance(0x8000_0000, 0x0000_0000), 0);
        assert_eq!(ulp_distance(0x8000_0001, 0x0000_0001), 2);
        assert!(!is_finite_f32(0x7fc0_0000));
        assert!(!is_finite_f32(0xff80_0000));
        assert!(is_finite_f32(0x7f7f_ffff));
    }

    fn vertex(id: u32, lanes: [Option<u32>; 4]) -> ExpectVertex {
        ExpectVertex {
            vertex_id: id,
            instance_id: 0,
            registers: BTreeMap::from([(0, lanes)]),
        }
    }

    fn produced(id: u32, lanes: [u32; 4]) -> ProducedVertex {
        ProducedVertex {
            vertex_id: id,
            instance_id: 0,
            registers: BTreeMap::from([(0, lanes)]),
        }
    }

    #[test]
    fn draws() {
        let want = ExpectDraw {
            vertices: vec![
                vertex(0, [Some(0x3f80_0000), None, Some(0), Some(0x7fc0_0000)]),
                vertex(1, [Some(0x3f00_0000), None, None, None]),
            ],
            primitives: Some(vec![ExpectPrimitive {
                id: 0,
                vertices: vec![0, 1],
            }]),
        };
        let mut got = DrawResult {
            vertices: vec![
                produced(0, [0x3f80_0001, 5, 0, 0x7fc0_0000]),
                produced(1, [0x3f00_0000, 0, 0, 0]),
            ],
            primitives: vec![ProducedPrimitive {
                id: 0,
                vertices: vec![0, 1],
            }],
            ..Default::default()
        };
        let all_float = |_r: u32| 0xfu8;
        let none_float = |_r: u32| 0u8;
        assert_eq!(compare_draw(&want, &got, 1, &all_float), Ok(()));
        assert_eq!(
            compare_draw(&want, &got, 1, &none_float).unwrap_err(),
            "vertex 0 (vertex_id 0, instance_id 0): register v0.x: expected 3f800000, got 3f800001"
        );
        assert!(compare_draw(&want, &got, 0, &all_float).is_err());
        got.vertices[0]
            .registers
            .insert(0, [0x3f80_0000, 5, 0, 0x7fc0_0001]);
        assert!(
            compare_draw(&want, &got, 4, &all_float)
                .unwrap_err()
                .contains("v0.w: expected 7fc00000, got 7fc00001")
        );
        got.vertices[0]
            .registers
            .insert(0, [0x3f80_0000, 5, 0, 0x7fc0_0000]);
        got.primitives[0].id = 1;
        assert!(
            compare_draw(&want, &got, 0, &all_float)
                .unwrap_err()
                .starts_with("primitive 0")
        );
        got.primitives[0].id = 0;
        got.vertices.push(produced(2, [0; 4]));
        assert_eq!(
            compare_draw(&want, &got, 0, &all_float).unwrap_err(),
            "vertex count: expected 2, got 3"
        );
        got.vertices.truncate(1);
        assert!(
            compare_draw(&want, &got, 0, &all_float)
                .unwrap_err()
                .starts_with("vertex count")
        );
        got.vertices[0].vertex_id = 7;
        assert_eq!(
            compare_draw(&want, &got, 0, &all_float).unwrap_err(),
            "vertex count: expected 2, got 1 (first difference: vertex 0: vertex_id: expected 0, got 7)"
        );
    }
}
