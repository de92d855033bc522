//! Differential tests: the fast fetch (`inlay::fetch`) against the reference conversions
//! (`convert::decode_element` / `convert::out_of_bounds`) driven by an independent, naive
//! statement of the address rules of ia-semantics §2–§3: every IA vertex format, offsets and
//! strides (0, not multiples of 4, elements straddling the buffer end), bind offsets,
//! per-vertex and per-instance data with step rates 0/1/n, unbound slots, index lists with cut
//! values and out-of-range indices, 32-bit address wrap — on the AVX2 path (when the CPU has
//! it) and the forced portable path, with normal and non-temporal stores, for both output
//! shapes (and the per-element rows at every lane count 1 to 4). Every comparison is of exact
//! bit patterns.

mod support;

use inlay::assembler::{AssembledVertex, DrawCall, InputAssembler, Topology, VertexIds, WalkBatch};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::convert::{decode_element, out_of_bounds};
use inlay::fetch::{ElementRows, FetchError, FetchPlan, Instance, Isa, StoreMode, Vertices};
use inlay::format::{Format, Kind, vertex_formats};
use inlay::layout::{InputClass, InputLayout, LayoutElement};
use inlay::target::Target;

/// SplitMix64: small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Buffers that make half/11/10-bit specials (NaN, Inf, subnormals) and SNORM minima common:
/// a third of the bytes come from a small set of edge values.
fn edgy_bytes(rng: &mut Rng, n: usize) -> Vec<u8> {
    const EDGE: [u8; 10] = [0x00, 0xff, 0x80, 0x7f, 0x7c, 0xfc, 0x7e, 0x01, 0x03, 0x81];
    (0..n)
        .map(|_| {
            let r = rng.next();
            if r.is_multiple_of(3) {
                EDGE[(r >> 8) as usize % EDGE.len()]
            } else {
                (r >> 16) as u8
            }
        })
        .collect()
}

fn element(format: Format, slot: u32, offset: u32, register: Option<u32>) -> LayoutElement {
    LayoutElement {
        semantic_name: "TEXCOORD".into(),
        semantic_index: register.unwrap_or(99),
        format,
        slot,
        offset,
        class: InputClass::PerVertex,
        step_rate: 0,
        register,
    }
}

/// The naive statement of what the IA delivers for element `e` of the `k`-th vertex.
fn oracle(
    e: &LayoutElement,
    bindings: &[Option<VertexBufferBinding<'_>>],
    vertices: Vertices<'_>,
    k: usize,
    instance: Instance,
) -> [u32; 4] {
    let info = e.format.info().unwrap();
    let Some(b) = bindings.get(e.slot as usize).copied().flatten() else {
        return [0; 4]; // unbound slot: zeros, w included (spec §8.20)
    };
    let index = match e.class {
        InputClass::PerInstance => {
            // Step rate 0: every instance reads element `start` (spec §8.1.3).
            let step = instance.id.checked_div(e.step_rate).unwrap_or(0);
            instance.start.wrapping_add(step)
        }
        InputClass::PerVertex => match vertices {
            Vertices::Range { first, .. } => first.wrapping_add(k as u32),
            Vertices::Indexed {
                indices,
                base_vertex,
            } => (base_vertex as u32).wrapping_add(indices[k]),
        },
    };
    let addr = b
        .offset
        .wrapping_add(b.stride.wrapping_mul(index))
        .wrapping_add(e.offset);
    let size = info.byte_size() as usize;
    let start = addr as usize;
    if addr < b.offset || start + size > b.data.len() {
        return out_of_bounds(info);
    }
    decode_element(info, &b.data[start..start + size])
}

/// Every plan variant the tests run: each ISA this CPU has × both store modes.
fn variants() -> Vec<(Isa, StoreMode)> {
    let mut v = vec![
        (Isa::Portable, StoreMode::Normal),
        (Isa::Portable, StoreMode::Streaming),
    ];
    if Isa::Avx2.is_supported() {
        v.push((Isa::Avx2, StoreMode::Normal));
        v.push((Isa::Avx2, StoreMode::Streaming));
        if Isa::Avx512.is_supported() {
            v.push((Isa::Avx512, StoreMode::Normal));
            v.push((Isa::Avx512, StoreMode::Streaming));
        }
    }
    // Without AVX2 only the portable path runs here; `avx2_kernels_are_tested` is then listed
    // as ignored, so the summary says so.
    v
}

/// The CPU has AVX2, so every test above also ran the AVX2 kernels (the build looked at the
/// CPU; without AVX2 this is listed as ignored rather than passing unseen).
#[test]
#[cfg_attr(
    not(inlay_has_avx2),
    ignore = "the CPU has no AVX2: the fetch tests ran the portable path only"
)]
fn avx2_kernels_are_tested() {
    assert!(Isa::Avx2.is_supported());
    assert!(variants().iter().any(|(isa, _)| *isa == Isa::Avx2));
}

/// Runs both output shapes on every variant and compares with the oracle.
fn check(
    layout: &InputLayout,
    bindings: &[Option<VertexBufferBinding<'_>>],
    vertices: Vertices<'_>,
    instance: Instance,
    what: &str,
) {
    let n = vertices.len();
    let base = FetchPlan::new(layout, bindings).unwrap();
    let regs = base.registers().to_vec();
    // Expected register file and per-element arrays.
    let mut want_elems = vec![Vec::with_capacity(n); layout.elements().len()];
    for k in 0..n {
        for (i, e) in layout.elements().iter().enumerate() {
            want_elems[i].push(oracle(e, bindings, vertices, k, instance));
        }
    }
    let mut want_regs = vec![[0xdead_beef_u32; 4]; n * regs.len()];
    for (i, e) in layout.elements().iter().enumerate() {
        if let Some(r) = e.register {
            let pos = regs.iter().position(|x| *x == r).unwrap();
            for k in 0..n {
                want_regs[k * regs.len() + pos] = want_elems[i][k];
            }
        }
    }
    for (isa, store) in variants() {
        let plan = base.clone().with_isa(isa).with_store_mode(store);
        assert_eq!(plan.isa(), isa);
        // The output at a 32-byte boundary and 16 bytes past one (the two alignments the
        // fused kernel's stores distinguish), between sentinel rows that must stay untouched.
        let len = n * regs.len();
        let mut buf = vec![[0xdead_beef_u32; 4]; len + 4];
        let at32 = (0..2)
            .find(|&r| buf[r..].as_ptr().cast::<u8>().align_offset(32) == 0)
            .unwrap_or(0);
        for start in [at32 + 1, at32] {
            buf.fill([0xdead_beef; 4]);
            let got = &mut buf[start..start + len];
            plan.fetch_registers(vertices, instance, got).unwrap();
            for (row, (g, w)) in got.iter().zip(&want_regs).enumerate() {
                assert_eq!(
                    g,
                    w,
                    "{what}: {isa:?}/{store:?} output row {start}: register row {row} (vertex {}, register {})",
                    row / regs.len().max(1),
                    regs[row % regs.len()]
                );
            }
            let outside = buf[..start].iter().chain(&buf[start + len..]);
            assert!(
                outside.into_iter().all(|r| *r == [0xdead_beef; 4]),
                "{what}: {isa:?}/{store:?} wrote outside its output"
            );
        }
        let mut arrays = vec![vec![[0xdead_beef_u32; 4]; n]; layout.elements().len()];
        let mut outs: Vec<&mut [[u32; 4]]> = arrays.iter_mut().map(|a| &mut a[..]).collect();
        plan.fetch_elements(vertices, instance, &mut outs).unwrap();
        for (i, (g, w)) in arrays.iter().zip(&want_elems).enumerate() {
            if let Some(k) = (0..n).find(|&k| g[k] != w[k]) {
                panic!(
                    "{what}: {isa:?}/{store:?} element {i} ({}) vertex {k}: got {:08x?}, want {:08x?}",
                    layout.elements()[i].format,
                    g[k],
                    w[k]
                );
            }
        }
        check_rows(&plan, vertices, instance, &want_elems, &arrays, what);
    }
}

/// `fetch_element_rows` at every lane count (element `i` of a layout gets `(shift + i) % 4 + 1`
/// lanes, so every element sees all four over the shifts), its output at a 32-byte boundary
/// and one lane past it, inside a longer slice between sentinels: each row must be the first
/// lanes of the oracle's value and of `fetch_elements`' four-lane row, nothing else written.
fn check_rows(
    plan: &FetchPlan<'_>,
    vertices: Vertices<'_>,
    instance: Instance,
    want: &[Vec<[u32; 4]>],
    four: &[Vec<[u32; 4]>],
    what: &str,
) {
    const SENTINEL: u32 = 0x7fa5_5a5a;
    let (isa, store) = (plan.isa(), plan.store_mode());
    let n = vertices.len();
    for shift in 0..4 {
        for skew in [0, 1] {
            let lanes: Vec<usize> = (0..want.len()).map(|i| (shift + i) % 4 + 1).collect();
            let mut bufs: Vec<Vec<u32>> = lanes
                .iter()
                .map(|&l| vec![SENTINEL; n * l + 8 + 16])
                .collect();
            let starts: Vec<usize> = bufs
                .iter()
                .map(|b| {
                    let at = (0..8)
                        .find(|&r| b[r..].as_ptr().cast::<u8>().align_offset(32) == 0)
                        .unwrap_or(0);
                    at + skew
                })
                .collect();
            let mut outs: Vec<ElementRows<'_>> = bufs
                .iter_mut()
                .zip(&starts)
                .zip(&lanes)
                .map(|((b, &at), &lanes)| ElementRows {
                    lanes,
                    data: &mut b[at..],
                })
                .collect();
            plan.fetch_element_rows(vertices, instance, &mut outs)
                .unwrap();
            for (i, b) in bufs.iter().enumerate() {
                let (at, l) = (starts[i], lanes[i]);
                let got = &b[at..at + n * l];
                for k in 0..n {
                    let row = &got[k * l..(k + 1) * l];
                    assert!(
                        row == &want[i][k][..l] && row == &four[i][k][..l],
                        "{what}: {isa:?}/{store:?} rows of {l} lanes (skew {skew}): element {i} vertex \
                         {k}: got {row:08x?}, want {:08x?} (four-lane output {:08x?})",
                        want[i][k],
                        four[i][k]
                    );
                }
                let outside = b[..at].iter().chain(&b[at + n * l..]);
                assert!(
                    outside.into_iter().all(|&x| x == SENTINEL),
                    "{what}: {isa:?}/{store:?} rows of {l} lanes (skew {skew}): element {i} \
                     written outside its rows"
                );
            }
        }
    }
}

#[test]
fn every_format_every_stride_and_offset_range_draws() {
    let mut rng = Rng(0x5eed_0001);
    for info in vertex_formats() {
        let format = Format(info.value);
        let size = info.byte_size();
        // (stride, bind offset, element offset, buffer length, first vertex, count)
        let mut cases: Vec<(u32, u32, u32, usize, u32, u32)> = vec![
            (size, 0, 0, 3000 * size as usize, 0, 3000), // tightly packed, several blocks
            (48, 4, 8, 48 * 1100 + 5, 3, 1200),          // straddles the end, then all OOB
            (0, 12, 4, 64, 0, 700),                      // stride 0: one element for all
            (0, 60, 8, 64, 0, 10),                       // stride 0, out of bounds
            (size + 3, 1, 2, 5000, 7, 1500),             // odd stride, odd offsets
            (2048, 0, 2040, 2048 * 40, 0, 45),           // max stride, element at its end
            (17, 0, 0, 17 * 200 + size as usize - 1, 0, 201), // last element one byte short
            (16, 32, 0, 4096, u32::MAX - 500, 1000),     // vertex index wraps past 2^32
            (4, 0, 0, 4096, 0x4000_0000 - 300, 600),     // address wraps past 2^32
            (size, 0, 0, 0, 0, 50),                      // empty buffer
        ];
        for _ in 0..6 {
            let stride = rng.below(80) as u32;
            let len = rng.below(4000) as usize;
            cases.push((
                stride,
                rng.below(40) as u32,
                rng.below(64) as u32,
                len,
                rng.below(100) as u32,
                rng.below(1500) as u32,
            ));
        }
        for (stride, bind_offset, offset, len, first, count) in cases {
            let data = edgy_bytes(&mut rng, len);
            let layout =
                support::create_layout(&support::valid(&[element(format, 0, offset, Some(0))]));
            let bindings = [Some(VertexBufferBinding {
                data: &data,
                stride,
                offset: bind_offset,
            })];
            check(
                &layout,
                &bindings,
                Vertices::Range { first, count },
                Instance::default(),
                &format!(
                    "{} stride {stride} bind {bind_offset} offset {offset} len {len} first {first}",
                    info.name
                ),
            );
        }
    }
}

#[test]
fn every_format_indexed_with_cuts_and_out_of_range_indices() {
    let mut rng = Rng(0x5eed_0002);
    for info in vertex_formats() {
        let format = Format(info.value);
        let stride = info.byte_size() + rng.below(9) as u32;
        let data = edgy_bytes(&mut rng, stride as usize * 600);
        let mut indices: Vec<u32> = (0..2100).map(|_| rng.below(620) as u32).collect();
        for i in (0..indices.len()).step_by(97) {
            indices[i] = 0xffff_ffff; // a 32-bit cut value fetched as an index: wraps
        }
        for i in (5..indices.len()).step_by(131) {
            indices[i] = 0xffff; // a 16-bit cut value as a 32-bit index: ordinary, OOB here
        }
        for base_vertex in [0, 5, -3, -700, i32::MIN] {
            let layout = support::create_layout(&[element(format, 0, 0, Some(0))]);
            let bindings = [Some(VertexBufferBinding {
                data: &data,
                stride,
                offset: 0,
            })];
            check(
                &layout,
                &bindings,
                Vertices::Indexed {
                    indices: &indices,
                    base_vertex,
                },
                Instance::default(),
                &format!("{} indexed base {base_vertex}", info.name),
            );
        }
    }
}

/// Index lists whose vertices all lie inside the buffers run the fused kernel (loads placed
/// back from the buffer's end where the last vertex's 16 bytes would pass it): every format
/// in rows of 1 to 8 registers, per-instance rows among them, the last vertex always fetched.
#[test]
fn indexed_lists_inside_the_buffers_through_the_fused_kernel() {
    let mut rng = Rng(0x5eed_0009);
    let formats: Vec<Format> = vertex_formats().map(|f| Format(f.value)).collect();
    for round in 0..240 {
        let width = 1 + round % 8;
        let (mut elements, mut offset) = (Vec::new(), 0u32);
        for r in 0..width {
            let format = formats[rng.below(formats.len() as u64) as usize];
            let info = format.info().unwrap();
            let size = info.byte_size();
            // CreateInputLayout's offset rule (R25): each offset a multiple of its alignment.
            offset = offset.next_multiple_of(info.offset_alignment());
            let mut e = element(format, 0, offset, Some(r as u32));
            if rng.below(5) == 0 {
                (e.slot, e.class, e.step_rate, e.offset) = (1, InputClass::PerInstance, 1, 0);
            } else {
                offset += size;
            }
            elements.push(e);
        }
        let layout = support::create_layout(&elements);
        let stride = offset.max(1) + rng.below(4) as u32;
        let count = 1 + rng.below(150) as u32;
        let data = edgy_bytes(&mut rng, (stride * count) as usize);
        let instances = edgy_bytes(&mut rng, 64);
        let bindings = [
            Some(VertexBufferBinding {
                data: &data,
                stride,
                offset: 0,
            }),
            Some(VertexBufferBinding {
                data: &instances,
                stride: 16,
                offset: 0,
            }),
        ];
        let base_vertex = rng.below(3) as i32;
        let mut indices: Vec<u32> = (0..1 + rng.below(300))
            .map(|_| rng.below((count - base_vertex.min(count as i32 - 1) as u32) as u64) as u32)
            .collect();
        let last = indices.len() / 2;
        indices[last] = count - 1 - base_vertex.min(count as i32 - 1) as u32;
        check(
            &layout,
            &bindings,
            Vertices::Indexed {
                indices: &indices,
                base_vertex: base_vertex.min(count as i32 - 1),
            },
            Instance { id: 1, start: 1 },
            &format!("in-range indexed round {round}"),
        );
    }
}

#[test]
fn mixed_layouts_slots_instances_and_unbound_slots() {
    let mut rng = Rng(0x5eed_0003);
    let formats: Vec<Format> = vertex_formats().map(|f| Format(f.value)).collect();
    for round in 0..120 {
        let slots = 1 + rng.below(4) as u32;
        let mut elements = Vec::new();
        let mut registers: Vec<u32> = (0..16).collect();
        for i in 0..(1 + rng.below(9)) {
            let format = formats[rng.below(formats.len() as u64) as usize];
            let slot = rng.below(slots as u64) as u32;
            let ri = rng.below(registers.len() as u64) as usize;
            // Every fifth element feeds no register (not in the shader's signature).
            let register = (i % 5 != 4).then(|| registers.remove(ri));
            let mut e = element(format, slot, 4 * rng.below(12) as u32, register);
            if slot == 2 {
                e.class = InputClass::PerInstance;
                e.step_rate = [0, 1, 3][rng.below(3) as usize];
            }
            elements.push(e);
        }
        let elements = support::valid(&elements);
        let layout = support::create_layout(&elements);
        let buffers: Vec<Vec<u8>> = (0..slots)
            .map(|_| {
                let n = rng.below(3000) as usize;
                rng.bytes(n)
            })
            .collect();
        let bindings: Vec<Option<VertexBufferBinding<'_>>> = buffers
            .iter()
            .enumerate()
            .map(|(s, data)| {
                // Slot 1 is unbound in every third round.
                (!(s == 1 && round % 3 == 0)).then_some(VertexBufferBinding {
                    data,
                    stride: [0, 12, 16, 20, 28, 33, 48][(s * 2) % 6 + (round % 2)],
                    offset: 4 * rng.below(4) as u32,
                })
            })
            .collect();
        let instance = Instance {
            id: rng.below(10) as u32,
            start: rng.below(50) as u32,
        };
        let count = rng.below(1400) as u32;
        check(
            &layout,
            &bindings,
            Vertices::Range {
                first: rng.below(30) as u32,
                count,
            },
            instance,
            &format!("mixed round {round}"),
        );
        let indices: Vec<u32> = (0..count).map(|_| rng.below(200) as u32).collect();
        check(
            &layout,
            &bindings,
            Vertices::Indexed {
                indices: &indices,
                base_vertex: rng.below(10) as i32 - 5,
            },
            instance,
            &format!("mixed round {round}, indexed"),
        );
    }
}

#[cfg(feature = "parallel")]
#[test]
fn parallel_fetch_equals_serial_fetch() {
    let mut rng = Rng(0x5eed_0004);
    let data = rng.bytes(28 * 10_000);
    let layout = support::create_layout(&[
        element(Format::R16G16B16A16_FLOAT, 0, 0, Some(0)),
        element(Format::R10G10B10A2_UNORM, 0, 8, Some(1)),
        element(Format::B8G8R8A8_UNORM, 0, 16, Some(3)),
    ]);
    let bindings = [Some(VertexBufferBinding {
        data: &data,
        stride: 28,
        offset: 0,
    })];
    let plan = FetchPlan::new(&layout, &bindings).unwrap();
    let v = Vertices::Range {
        first: 0,
        count: 10_050, // a little past the buffer: the last share has OOB vertices
    };
    let mut serial = vec![[0u32; 4]; 10_050 * 3];
    plan.fetch_registers(v, Instance::default(), &mut serial)
        .unwrap();
    for threads in [1, 2, 3, 8] {
        let mut par = vec![[1u32; 4]; 10_050 * 3];
        plan.fetch_registers_parallel(v, Instance::default(), &mut par, threads)
            .unwrap();
        assert!(par == serial, "{threads} threads");
    }
}

#[test]
fn errors_name_the_problem() {
    let layout = support::create_layout(&[element(Format::R32_FLOAT, 0, 0, Some(0))]);
    let plan = FetchPlan::new(&layout, &[]).unwrap();
    let mut out = [[0u32; 4]; 2];
    let e = plan
        .fetch_registers(
            Vertices::Range { first: 0, count: 3 },
            Instance::default(),
            &mut out,
        )
        .unwrap_err();
    assert_eq!(e, FetchError::OutputTooSmall { needed: 3, got: 2 });
    assert_eq!(
        e.to_string(),
        "output holds 2 rows of 4 lanes, the fetch needs 3"
    );
    let e = plan
        .fetch_elements(
            Vertices::Range { first: 0, count: 1 },
            Instance::default(),
            &mut [],
        )
        .unwrap_err();
    assert_eq!(
        e,
        FetchError::ElementCount {
            expected: 1,
            got: 0
        }
    );
    let mut short = [0u32; 5];
    let e = plan
        .fetch_element_rows(
            Vertices::Range { first: 0, count: 2 },
            Instance::default(),
            &mut [ElementRows {
                lanes: 3,
                data: &mut short,
            }],
        )
        .unwrap_err();
    assert_eq!(
        e,
        FetchError::RowsTooSmall {
            element: 0,
            lanes: 3,
            needed: 6,
            got: 5
        }
    );
    assert_eq!(
        e.to_string(),
        "element 0: output holds 5 lanes, the fetch needs 6 (3 per row)"
    );
    for lanes in [0, 5] {
        let e = plan
            .fetch_element_rows(
                Vertices::Range { first: 0, count: 1 },
                Instance::default(),
                &mut [ElementRows {
                    lanes,
                    data: &mut short,
                }],
            )
            .unwrap_err();
        assert_eq!(e, FetchError::LaneCount { element: 0, lanes });
        assert_eq!(
            e.to_string(),
            format!("element 0: rows of {lanes} lanes asked, an element has 1 to 4")
        );
    }
    let e = plan
        .fetch_element_rows(
            Vertices::Range { first: 0, count: 1 },
            Instance::default(),
            &mut [],
        )
        .unwrap_err();
    assert_eq!(
        e,
        FetchError::ElementCount {
            expected: 1,
            got: 0
        }
    );
    // A layout with an unknown format cannot reach a fetch plan: only CreateInputLayout makes
    // layouts, and it refuses the format (152).
    let bad = support::try_create_layout(&[element(Format(1000), 0, 0, Some(0))]);
    assert_eq!(
        bad.error_ids(),
        [inlay::MessageId::CREATEINPUTLAYOUT_INVALIDFORMAT]
    );
    // Unbound slot: zeros in every lane, the default w included (spec §8.20).
    plan.fetch_registers(
        Vertices::Range { first: 0, count: 2 },
        Instance::default(),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [[0; 4]; 2]);
}

/// Every code of every UNORM/SNORM component of every IA format (vertex `i` holds `i mod 2^b`
/// in each `b`-bit field) through every kernel variant — the fused AVX2/AVX-512 kernels divide
/// with the FMA quotient — against `convert::decode_element`, bit for bit.
#[test]
fn every_code_of_every_normalised_format_through_every_kernel() {
    let mut formats_checked = Vec::new();
    for info in vertex_formats() {
        let comps: Vec<_> = info.present().collect();
        if !comps
            .iter()
            .any(|c| matches!(c.kind, Kind::Unorm | Kind::Snorm))
        {
            continue;
        }
        formats_checked.push(info.name);
        let size = info.byte_size() as usize;
        let max_bits = comps.iter().map(|c| c.bits as u32).max().unwrap();
        let n = 1usize << max_bits;
        let mut data = vec![0u8; n * size];
        for (i, v) in data.chunks_exact_mut(size).enumerate() {
            let mut word = 0u128;
            for c in &comps {
                let code = (i as u128) & ((1u128 << c.bits) - 1);
                word |= code << c.bit_offset;
            }
            v.copy_from_slice(&word.to_le_bytes()[..size]);
        }
        let layout = support::create_layout(&[element(Format(info.value), 0, 0, Some(0))]);
        let bindings = [Some(VertexBufferBinding {
            data: &data,
            stride: size as u32,
            offset: 0,
        })];
        let want: Vec<[u32; 4]> = data
            .chunks_exact(size)
            .map(|v| decode_element(info, v))
            .collect();
        for (isa, store) in variants() {
            let plan = FetchPlan::new(&layout, &bindings)
                .unwrap()
                .with_isa(isa)
                .with_store_mode(store);
            let mut got = vec![[0xdead_beef_u32; 4]; n];
            plan.fetch_registers(
                Vertices::Range {
                    first: 0,
                    count: n as u32,
                },
                Instance::default(),
                &mut got,
            )
            .unwrap();
            if let Some(i) = (0..n).find(|&i| got[i] != want[i]) {
                panic!(
                    "{} {isa:?}/{store:?} code {i}: got {:08x?}, want {:08x?}",
                    info.name, got[i], want[i]
                );
            }
        }
    }
    assert_eq!(formats_checked.len(), 18, "{formats_checked:?}");
}

/// A random IA state and draw: layout (1–6 elements over slots 0–2, per-instance elements on
/// slot 2 with step rates 0, 1 or 3), buffers, and one of Draw / DrawIndexed (16- or 32-bit
/// indices with cut values and out-of-range indices) / DrawInstanced / DrawIndexedInstanced.
struct RandomDraw {
    layout: InputLayout,
    buffers: Vec<Vec<u8>>,
    strides: Vec<u32>,
    offsets: Vec<u32>,
    index_data: Vec<u8>,
    index32: bool,
    call: (u8, u32, u32, u32, i32, u32),
}

fn random_draw(rng: &mut Rng, round: u64) -> RandomDraw {
    let formats: Vec<Format> = vertex_formats().map(|f| Format(f.value)).collect();
    let mut registers: Vec<u32> = (0..16).collect();
    let mut elements = Vec::new();
    for _ in 0..(1 + rng.below(6)) {
        let format = formats[rng.below(formats.len() as u64) as usize];
        let slot = rng.below(3) as u32;
        let register = registers.remove(rng.below(registers.len() as u64) as usize);
        let mut e = element(format, slot, 4 * rng.below(8) as u32, Some(register));
        if slot == 2 {
            e.class = InputClass::PerInstance;
            e.step_rate = [0, 1, 3][rng.below(3) as usize];
        }
        elements.push(e);
    }
    let strides: Vec<u32> = (0..3)
        .map(|_| [0, 16, 28, 32, 48, 52][rng.below(6) as usize])
        .collect();
    let buffers: Vec<Vec<u8>> = (0..3)
        .map(|_| {
            let n = rng.below(6000) as usize;
            edgy_bytes(rng, n)
        })
        .collect();
    let offsets: Vec<u32> = (0..3).map(|_| 4 * rng.below(3) as u32).collect();
    let index32 = round.is_multiple_of(2);
    let cut = if index32 { 0xffff_ffffu32 } else { 0xffff };
    let indices: Vec<u32> = (0..rng.below(900))
        .map(|_| match rng.below(23) {
            0 => cut,
            1 => 100_000,
            _ => rng.below(200) as u32,
        })
        .collect();
    let index_data: Vec<u8> = indices
        .iter()
        .flat_map(|&i| {
            if index32 {
                i.to_le_bytes().to_vec()
            } else {
                (i as u16).to_le_bytes().to_vec()
            }
        })
        .collect();
    let kind = (round % 4) as u8;
    let count = rng.below(700) as u32;
    let instances = 1 + rng.below(7) as u32;
    let start = rng.below(20) as u32;
    let base_vertex = rng.below(40) as i32 - 20;
    let start_instance = rng.below(6) as u32;
    RandomDraw {
        layout: support::create_layout(&support::valid(&elements)),
        buffers,
        strides,
        offsets,
        index_data,
        index32,
        call: (kind, count, instances, start, base_vertex, start_instance),
    }
}

impl RandomDraw {
    fn draw_call(&self) -> DrawCall<'static> {
        let (kind, count, instances, start, base_vertex, start_instance) = self.call;
        match kind {
            0 => DrawCall::Draw {
                vertex_count: count,
                start_vertex: start,
            },
            1 => DrawCall::DrawIndexed {
                index_count: count,
                start_index: start,
                base_vertex,
            },
            2 => DrawCall::DrawInstanced {
                vertex_count_per_instance: count,
                instance_count: instances,
                start_vertex: start,
                start_instance,
            },
            _ => DrawCall::DrawIndexedInstanced {
                index_count_per_instance: count,
                instance_count: instances,
                start_index: start,
                base_vertex,
                start_instance,
            },
        }
    }

    fn bindings(&self) -> Vec<Option<VertexBufferBinding<'_>>> {
        (0..3)
            .map(|s| {
                Some(VertexBufferBinding {
                    data: &self.buffers[s],
                    stride: self.strides[s],
                    offset: self.offsets[s],
                })
            })
            .collect()
    }

    fn assembler(&self) -> InputAssembler<'_> {
        let mut ia = InputAssembler::new(&self.layout, Target::default());
        for (s, b) in self.bindings().into_iter().enumerate() {
            ia.set_vertex_buffer(s as u32, b).unwrap();
        }
        ia.set_index_buffer(Some(IndexBufferBinding {
            data: &self.index_data,
            format: if self.index32 {
                IndexFormat::R32Uint
            } else {
                IndexFormat::R16Uint
            },
            offset: 0,
        }))
        .unwrap();
        ia.set_topology(Topology::PointList).unwrap();
        ia
    }
}

/// The fetch plan (every kernel variant) run over the walk's batches
/// (`Walker::next_batch` → `Vertices::Range` / `Vertices::Indexed`) against the assembler's
/// reference iterator (`PreparedDraw::vertices()`), for random non-indexed, indexed-with-cuts
/// and instanced draws (step rates 0, 1, 3).
#[test]
fn fetch_plan_equals_the_assembler_reference_for_random_draws() {
    let mut rng = Rng(0x5eed_0005);
    for round in 0..160 {
        let d = random_draw(&mut rng, round);
        let ia = d.assembler();
        let draw = ia.draw(&d.draw_call()).unwrap();
        let want: Vec<AssembledVertex> = draw.vertices().collect();
        let bindings = d.bindings();
        let base = FetchPlan::new(&d.layout, &bindings).unwrap();
        let regs = base.registers().to_vec();
        let w = regs.len();
        for (isa, store) in variants() {
            let plan = base.clone().with_isa(isa).with_store_mode(store);
            let mut walker = draw.walk();
            let mut indices = vec![0u32; 37 + round as usize % 200];
            let mut k = 0;
            while let Some(batch) = walker.next_batch(1 + rng.below(300) as usize, &mut indices) {
                let n = batch.len();
                let instance = Instance {
                    id: batch.instance_id(),
                    start: d.call.5 * (d.call.0 >= 2) as u32,
                };
                let vertices = match batch {
                    WalkBatch::Range {
                        first_vertex_index,
                        count,
                        ..
                    } => Vertices::Range {
                        first: first_vertex_index,
                        count: count as u32,
                    },
                    WalkBatch::Indexed {
                        base_vertex, count, ..
                    } => Vertices::Indexed {
                        indices: &indices[..count],
                        base_vertex,
                    },
                };
                let mut got = vec![[0xdead_beef_u32; 4]; n * w];
                plan.fetch_registers(vertices, instance, &mut got).unwrap();
                for j in 0..n {
                    let v = &want[k + j];
                    for (p, &r) in regs.iter().enumerate() {
                        assert_eq!(
                            got[j * w + p],
                            v.registers[r as usize],
                            "round {round} {isa:?}/{store:?} vertex {} register {r} ({:?})",
                            k + j,
                            d.draw_call()
                        );
                    }
                }
                k += n;
            }
            assert_eq!(k, want.len(), "round {round}: vertex count");
        }
    }
}

/// The assembler's batch API (`VertexStream::fill_registers` over caller arrays, and `fill`),
/// which runs through the fetch plan, against the reference iterator.
#[test]
fn assembler_batch_api_equals_the_iterator() {
    let mut rng = Rng(0x5eed_0006);
    for round in 0..120 {
        let d = random_draw(&mut rng, round);
        let ia = d.assembler();
        let draw = ia.draw(&d.draw_call()).unwrap();
        let want: Vec<AssembledVertex> = draw.vertices().collect();
        // fill_registers, in uneven batches.
        let mut stream = draw.vertices();
        let row = stream.register_row().to_vec();
        let mut k = 0;
        loop {
            let m = 1 + rng.below(500) as usize;
            let mut ids = vec![VertexIds::default(); m];
            let mut regs = vec![[0xdead_beef_u32; 4]; m * row.len()];
            let got = stream.fill_registers(&mut ids, &mut regs);
            for j in 0..got {
                let v = &want[k + j];
                assert_eq!(
                    (ids[j].position, ids[j].vertex_id, ids[j].instance_id),
                    (v.position, v.vertex_id, v.instance_id),
                    "round {round} vertex {}",
                    k + j
                );
                for (p, &r) in row.iter().enumerate() {
                    assert_eq!(regs[j * row.len() + p], v.registers[r as usize]);
                }
            }
            k += got;
            if got < m {
                break;
            }
        }
        assert_eq!(k, want.len(), "round {round}");
        // fill_registers_only: the same rows without system values, in other batches; a
        // layout that feeds no register gets 0 and the stream stays where it was.
        let mut stream = draw.vertices();
        let mut k = 0;
        loop {
            let m = 1 + rng.below(5000) as usize;
            let mut regs = vec![[0xdead_beef_u32; 4]; m * row.len()];
            let got = stream.fill_registers_only(&mut regs);
            if row.is_empty() {
                assert_eq!(got, 0, "round {round}: no register row");
                assert_eq!(stream.next(), want.first().copied(), "round {round}");
                break;
            }
            assert!(got <= m, "round {round}");
            for j in 0..got {
                for (p, &r) in row.iter().enumerate() {
                    assert_eq!(
                        regs[j * row.len() + p],
                        want[k + j].registers[r as usize],
                        "round {round} vertex {} register {r} (registers only)",
                        k + j
                    );
                }
            }
            k += got;
            if got < m {
                break;
            }
        }
        if !row.is_empty() {
            assert_eq!(k, want.len(), "round {round} (registers only)");
        }
        // fill: whole AssembledVertex values.
        let mut stream = draw.vertices();
        let mut out = vec![AssembledVertex::default(); want.len() + 3];
        let mut k = 0;
        while k < out.len() {
            let m = (1 + rng.below(150) as usize).min(out.len() - k);
            let got = stream.fill(&mut out[k..k + m]);
            k += got;
            if got < m {
                break;
            }
        }
        assert_eq!(k, want.len(), "round {round}");
        assert_eq!(&out[..k], &want[..], "round {round}");
    }
}

/// Allocations made by the current thread (a counting wrapper around the system allocator;
/// per thread, so tests running in parallel do not disturb each other).
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    pub struct Counting;

    thread_local! {
        static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    }

    // SAFETY: forwards to the system allocator unchanged; only counts calls.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            // SAFETY: the caller's contract, passed on.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: the caller's contract, passed on.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            // SAFETY: the caller's contract, passed on.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    /// Allocations this thread made while running `f`.
    pub fn count(f: impl FnOnce()) -> u64 {
        let before = ALLOCATIONS.with(Cell::get);
        f();
        ALLOCATIONS.with(Cell::get) - before
    }
}

/// The benchmark's W2 layout ("packed mesh", stride 28; the `inlay-bench` crate's workload).
struct PackedMesh {
    layout: InputLayout,
    stride: u32,
}

fn packed_mesh() -> PackedMesh {
    let formats = [
        (Format::R16G16B16A16_FLOAT, 0),
        (Format::R10G10B10A2_UNORM, 8),
        (Format::R16G16_UNORM, 12),
        (Format::B8G8R8A8_UNORM, 16),
        (Format::R8G8B8A8_UINT, 20),
        (Format::R8G8B8A8_UNORM, 24),
    ];
    PackedMesh {
        layout: support::create_layout(
            &(0..)
                .zip(formats)
                .map(|(r, (f, o))| element(f, 0, o, Some(r)))
                .collect::<Vec<_>>(),
        ),
        stride: 28,
    }
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Issue 8, *Memory*: decoding allocates nothing (serial fetches, both output shapes, ranges
/// and index lists, the assembler's batch API) — only the caller's output, made beforehand.
#[test]
fn decode_allocates_nothing() {
    // The counter sees allocations.
    let one = counting::count(|| {
        std::hint::black_box(Vec::<u8>::with_capacity(64));
    });
    assert_eq!(one, 1);
    let w = packed_mesh();
    let n = 200_000u32;
    let data = Rng(3).bytes(n as usize * w.stride as usize);
    let bindings = [Some(VertexBufferBinding {
        data: &data,
        stride: w.stride,
        offset: 0,
    })];
    let indices: Vec<u32> = (0..n).map(|i| (i * 7919) % (n + 50)).collect();
    let rows = w.layout.elements().len();
    let mut out = vec![[0u32; 4]; n as usize * rows];
    let mut arrays = vec![vec![[0u32; 4]; n as usize]; rows];
    // Rows of every width for `fetch_element_rows`.
    let lanes = [4usize, 3, 2, 1, 4, 3];
    let mut packed: Vec<Vec<u32>> = lanes.iter().map(|&l| vec![0; n as usize * l]).collect();
    for (isa, store) in variants() {
        let plan = FetchPlan::new(&w.layout, &bindings)
            .unwrap()
            .with_isa(isa)
            .with_store_mode(store);
        let range = Vertices::Range { first: 0, count: n };
        let list = Vertices::Indexed {
            indices: &indices,
            base_vertex: -3,
        };
        for vertices in [range, list] {
            let allocs = counting::count(|| {
                plan.fetch_registers(vertices, Instance::default(), &mut out)
                    .unwrap();
                let mut outs: [&mut [[u32; 4]]; 6] = {
                    let mut it = arrays.iter_mut();
                    std::array::from_fn(|_| &mut it.next().unwrap()[..])
                };
                plan.fetch_elements(vertices, Instance::default(), &mut outs)
                    .unwrap();
                let mut rows: [ElementRows<'_>; 6] = {
                    let mut it = packed.iter_mut().zip(&lanes);
                    std::array::from_fn(|_| {
                        let (data, &lanes) = it.next().unwrap();
                        ElementRows { lanes, data }
                    })
                };
                plan.fetch_element_rows(vertices, Instance::default(), &mut rows)
                    .unwrap();
            });
            assert_eq!(allocs, 0, "{isa:?}/{store:?} {vertices:?}");
        }
    }
    // The assembler's batch API: the stream (a fetch plan of a few elements) is made first.
    let mut ia = InputAssembler::new(&w.layout, Target::default());
    ia.set_vertex_buffer(0, bindings[0]).unwrap();
    ia.set_topology(Topology::PointList).unwrap();
    let draw = ia
        .draw(&DrawCall::Draw {
            vertex_count: n,
            start_vertex: 0,
        })
        .unwrap();
    let mut stream = draw.vertices();
    let mut ids = vec![VertexIds::default(); n as usize];
    let allocs = counting::count(|| {
        assert_eq!(stream.fill_registers(&mut ids, &mut out), n as usize);
    });
    assert_eq!(allocs, 0, "fill_registers");
}
