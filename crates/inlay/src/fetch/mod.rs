//! Fast vertex fetch: a layout plus vertex-buffer bindings compiled once into a [`FetchPlan`],
//! then run over blocks of vertices, bit-identical to the reference conversions of
//! [`crate::convert`].
//!
//! # What it computes
//!
//! For each vertex of a contiguous range ([`Vertices::Range`], non-indexed draws) or of an index
//! list ([`Vertices::Indexed`], indexed draws, cut values already removed by the caller) the
//! plan produces, for every layout element, the four 32-bit lanes the input assembler
//! delivers (ia-semantics §1–§3):
//!
//! * per-vertex elements read vertex index `first + i` of a range, `base_vertex + index` of an
//!   index list; per-instance elements the element of [`Instance::element_index`];
//! * the address, the bounds and what an out-of-bounds read or an unbound slot gives follow the
//!   one addressing rule of [`crate::buffer`] (spec §8.19–§8.20), which the reference input
//!   assembler uses too: the plan holds each element's [`VertexBufferBinding`] and asks it
//!   ([`VertexBufferBinding::element_address`] per vertex, [`VertexBufferBinding::span`] per
//!   block).
//!
//! Two output shapes: [`FetchPlan::fetch_registers`] fills the register file vertex by vertex
//! (the registers of [`FetchPlan::registers`], four lanes each) — what a vertex shader reads;
//! [`FetchPlan::fetch_elements`] fills one array per layout element — what mesh tools want —
//! and [`FetchPlan::fetch_element_rows`] the same arrays with each element's rows 1 to 4
//! lanes wide ([`ElementRows`]: a `(vertices, components)` array, no four-lane copy between).
//!
//! # How
//!
//! Each element gets a kernel chosen from its format's row of the format table (a
//! [`program::LaneProgram`]: byte shuffle, shifts, one of four conversion classes; see that
//! module). For the register-file output of a contiguous range whose elements are all in
//! bounds (or constant), the fused SIMD kernel ([`Isa::Avx2`] with FMA and F16C, or
//! [`Isa::Avx512`]) walks the vertices two or four at a time and runs every register row's
//! kernel on them (rows whose bytes lie in the same 16 bytes of a vertex share one load),
//! storing straight into the output — or, for rows wider than four registers with
//! non-temporal stores, into a small cache-resident block streamed out in address order — so
//! conversion overlaps the memory writes; UNORM/SNORM divide through an FMA quotient checked
//! equal to the IEEE division for every code, halves widen through F16C.
//! Everything else runs in blocks of up to 1024 vertices, element by element: in-bounds blocks
//! without per-vertex checks, blocks touching a buffer edge or an address wrap on the exact
//! per-vertex path. [`Isa::Portable`] is scalar Rust giving identical bits. Large outputs are
//! written with non-temporal stores ([`StoreMode`]), so the output costs one memory write
//! instead of a read and a write.
//!
//! Memory: nothing is allocated per call (pinned by `tests/fetch_diff.rs::
//! decode_allocates_nothing`); scratch space (at most ~50 KiB) lives on the stack.

mod kernel;
pub mod program;
#[cfg(target_arch = "x86_64")]
mod simd;

pub use crate::buffer::Instance;
use crate::buffer::{self, ElementFetch, Span, VertexBufferBinding};
use crate::convert;
use crate::format::{Format, FormatInfo};
use crate::layout::{InputClass, InputLayout};
use kernel::{BlockSink, Column, Kernel, PackedRows};
use program::LaneProgram;

/// Writes the system values of an index-list batch: `out[j]` gets stream position
/// `first_position + j` (wrapping), `SV_VertexID` `vertex_ids[j]` and `SV_InstanceID`
/// `instance_id`, for `j < min(out.len(), vertex_ids.len())` — four records per step with AVX2
/// (the batch path's share of W3 was ~6 instructions a vertex written one field at a time).
pub(crate) fn write_vertex_ids(
    out: &mut [crate::buffer::VertexIds],
    vertex_ids: &[u32],
    first_position: u64,
    instance_id: u32,
) {
    #[cfg(target_arch = "x86_64")]
    let done = simd::vertex_ids(out, vertex_ids, first_position, instance_id);
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (j, (o, &vertex_id)) in out.iter_mut().zip(vertex_ids).enumerate().skip(done) {
        *o = crate::buffer::VertexIds {
            position: first_position.wrapping_add(j as u64),
            vertex_id,
            instance_id,
        };
    }
}

/// Rows (16-byte lane quadruples) of the per-block scratch buffer.
const SCRATCH_ROWS: usize = 1024;
/// Largest block of vertices processed at once.
const MAX_BLOCK: usize = 1024;
/// Output size of one call from which [`StoreMode::Auto`] uses non-temporal stores (larger
/// than the last-level cache of many machines, so the output would be evicted anyway).
pub const STREAM_THRESHOLD_BYTES: usize = 8 << 20;

/// Instruction set a plan's kernels use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// Portable Rust (scalar, auto-vectorised where the compiler can).
    Portable,
    /// x86-64 AVX2 (runtime-detected); with FMA and F16C also the fused register-file
    /// kernel.
    Avx2,
    /// x86-64 AVX-512 F+BW (runtime-detected, with AVX2 and FMA; only with the cargo feature
    /// `avx512`, which needs Rust 1.89): the register-file kernel runs four vertices per
    /// 512-bit vector; everything else as [`Isa::Avx2`]. Not chosen by [`Isa::detect`]: on
    /// the measured Xeon it was not faster (docs/notes/fastfetch.md).
    Avx512,
}

impl Isa {
    /// The instruction set plans use by default: [`Isa::Avx2`] when this CPU has AVX2, else
    /// [`Isa::Portable`] ([`Isa::Avx512`] only on request, see there).
    pub fn detect() -> Isa {
        if Isa::Avx2.is_supported() {
            Isa::Avx2
        } else {
            Isa::Portable
        }
    }

    /// Whether this CPU can run kernels for this instruction set.
    pub fn is_supported(self) -> bool {
        match self {
            Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
            Isa::Avx512 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
                    && simd::avx512::has_avx512()
            }
            #[cfg(not(all(target_arch = "x86_64", feature = "avx512")))]
            Isa::Avx512 => false,
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Avx2 => false,
        }
    }

    /// `"portable"` or `"avx2"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// Whether the AVX2 kernels (and non-temporal stores) are used: [`Isa::Avx2`] and
    /// [`Isa::Avx512`].
    const fn avx2(self) -> bool {
        matches!(self, Isa::Avx2 | Isa::Avx512)
    }
}

/// How a fetch writes its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StoreMode {
    /// Non-temporal stores when the call's output is at least 8 MiB and the instruction set
    /// has them, else normal stores.
    #[default]
    Auto,
    /// Always normal stores (the output stays in cache).
    Normal,
    /// Non-temporal stores whenever the instruction set has them (AVX2); the portable path
    /// always uses normal stores.
    Streaming,
}

/// Which vertices to fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vertices<'i> {
    /// Non-indexed draw: vertex indices `first, first + 1, …` (`count` of them, wrapping at
    /// 2^32; `first` is StartVertexLocation).
    Range {
        /// First vertex index (StartVertexLocation).
        first: u32,
        /// Number of vertices.
        count: u32,
    },
    /// Indexed draw: vertex index `base_vertex + indices[k]` (wrapping) for each `k`. Every
    /// entry is fetched: strip-cut values must already be removed (a cut produces no vertex,
    /// ia-semantics §5); an index past the buffer is an ordinary out-of-bounds fetch.
    Indexed {
        /// Index values as read from the index buffer (zero-extended).
        indices: &'i [u32],
        /// BaseVertexLocation.
        base_vertex: i32,
    },
}

impl Vertices<'_> {
    /// Number of vertices (output rows) this describes.
    pub fn len(&self) -> usize {
        match self {
            Vertices::Range { count, .. } => *count as usize,
            Vertices::Indexed { indices, .. } => indices.len(),
        }
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The vertices `start .. start + n` of this list.
    fn sub(&self, start: usize, n: usize) -> Vertices<'_> {
        match *self {
            Vertices::Range { first, .. } => Vertices::Range {
                first: buffer::sequential_vertex(first, start as u32),
                count: n as u32,
            },
            Vertices::Indexed {
                indices,
                base_vertex,
            } => Vertices::Indexed {
                indices: &indices[start..start + n],
                base_vertex,
            },
        }
    }
}

/// One layout element's output for [`FetchPlan::fetch_element_rows`]: rows of `lanes` 32-bit
/// lanes each, packed one after another — the shape of a `(vertices, components)` array such
/// as the Python package's numpy outputs.
///
/// Row `k` holds the first `lanes` of the four lanes [`FetchPlan::fetch_elements`] gives the
/// `k`-th vertex (x, y, z, w: the format's components, then its defaults 0, 0, 1 —
/// ia-semantics §1.3), bit for bit: `tests/fetch_diff.rs` checks every IA format at every
/// lane count against the reference conversions and against the four-lane output.
#[derive(Debug)]
pub struct ElementRows<'o> {
    /// Lanes per row, 1 to 4 ([`FetchError::LaneCount`] otherwise).
    pub lanes: usize,
    /// The rows: the `k`-th vertex's lanes at `data[k * lanes .. (k + 1) * lanes]`. It must
    /// hold at least `vertices × lanes` values ([`FetchError::RowsTooSmall`]); what lies past
    /// the last row is left as it was.
    pub data: &'o mut [u32],
}

/// Why a fetch could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// A layout element's format is not in the format table.
    #[error("element {element}: format {format} is not a DXGI format")]
    UnknownFormat {
        /// Element index in the layout.
        element: usize,
        /// The value.
        format: Format,
    },
    /// The output slice is shorter than the fetch needs.
    #[error("output holds {got} rows of 4 lanes, the fetch needs {needed}")]
    OutputTooSmall {
        /// Rows needed.
        needed: u64,
        /// Rows available.
        got: usize,
    },
    /// [`FetchPlan::fetch_element_rows`] was asked for rows of a lane count other than 1 to 4.
    #[error("element {element}: rows of {lanes} lanes asked, an element has 1 to 4")]
    LaneCount {
        /// Element index in the layout.
        element: usize,
        /// The lane count asked.
        lanes: usize,
    },
    /// An output of [`FetchPlan::fetch_element_rows`] is shorter than the fetch needs.
    #[error(
        "element {element}: output holds {got} lanes, the fetch needs {needed} ({lanes} per row)"
    )]
    RowsTooSmall {
        /// Element index in the layout.
        element: usize,
        /// Lanes per row of that output.
        lanes: usize,
        /// Lanes (rows × lanes per row) needed.
        needed: u64,
        /// Lanes available.
        got: usize,
    },
    /// [`FetchPlan::fetch_elements`] or [`FetchPlan::fetch_element_rows`] was given a number of
    /// arrays other than the number of layout elements.
    #[error("{got} element arrays given, the layout has {expected} elements")]
    ElementCount {
        /// Elements in the layout.
        expected: usize,
        /// Arrays given.
        got: usize,
    },
}

/// What [`FetchPlan::compile`] needs of one element: format row, element offset, class, step
/// rate, the binding of its slot, register.
type ElementSpec<'a> = (
    &'static FormatInfo,
    u32,
    InputClass,
    u32,
    Option<VertexBufferBinding<'a>>,
    Option<u32>,
);

/// One element of a compiled plan.
#[derive(Clone, Debug)]
struct ElementPlan<'a> {
    info: &'static FormatInfo,
    offset: u32,
    size: u32,
    class: InputClass,
    step_rate: u32,
    /// `None`: no buffer bound to the slot.
    source: Option<VertexBufferBinding<'a>>,
    program: Option<LaneProgram>,
    oob: [u32; 4],
    /// Position of the element's register in a register-file row.
    row_pos: Option<usize>,
}

impl ElementPlan<'_> {
    /// The exact value of this element for vertex (or instance) element index `index`, one
    /// vertex at a time: a per-instance element's value for a block, and the per-vertex path
    /// of blocks that touch a buffer's edge. Through the element's compiled program when it
    /// has one (the same bits as the reference conversions: `LaneProgram::run` is checked
    /// equal to them for every IA format by `tests/fetch_diff.rs`, at a fraction of their
    /// cost), else straight from [`convert::decode_element`].
    fn fetch_one(&self, index: u32) -> [u32; 4] {
        let Some(src) = self.source else {
            return [0; 4];
        };
        let Some(bytes) = src.element_bytes(self.offset, self.size, index) else {
            return self.oob;
        };
        match &self.program {
            Some(p) => p.run(&program::chunk_at(bytes, 0, bytes.len())),
            None => convert::decode_element(self.info, bytes),
        }
    }
}

/// A layout and its vertex-buffer bindings compiled for fast fetching.
///
/// ```
/// use inlay::buffer::VertexBufferBinding;
/// use inlay::fetch::{FetchPlan, Instance, Vertices};
/// use inlay::{layout_without_shader, Format, InputElementDesc, Target};
///
/// let elements = [
///     InputElementDesc::per_vertex("POSITION", 0, Format::R32G32_FLOAT, 0, 0),
///     InputElementDesc::per_vertex("COLOR", 0, Format::R8G8B8A8_UNORM, 0, 8),
/// ];
/// let layout = layout_without_shader(&Target::default(), &elements).into_result().unwrap();
/// let mut vb = Vec::new();
/// vb.extend_from_slice(&1.5f32.to_le_bytes());
/// vb.extend_from_slice(&(-2.0f32).to_le_bytes());
/// vb.extend_from_slice(&[255, 0, 3, 128]);
/// let bindings = [Some(VertexBufferBinding { data: &vb, stride: 12, offset: 0 })];
/// let plan = FetchPlan::new(&layout, &bindings).unwrap();
/// let mut regs = [[0u32; 4]; 4]; // 2 vertices × 2 registers
/// plan.fetch_registers(Vertices::Range { first: 0, count: 2 }, Instance::default(), &mut regs)
///     .unwrap();
/// assert_eq!(regs[0], [0x3fc0_0000, 0xc000_0000, 0, 0x3f80_0000]); // (1.5, -2, 0, 1)
/// assert_eq!(regs[1], [0x3f80_0000, 0, 0x3c40_c0c1, 0x3f00_8081]); // (1, 0, 3/255, 128/255)
/// assert_eq!(regs[2], [0, 0, 0, 0x3f80_0000]); // vertex 1 is out of bounds
/// assert_eq!(regs[3], [0, 0, 0, 0]);
/// ```
#[derive(Clone, Debug)]
pub struct FetchPlan<'a> {
    elements: Vec<ElementPlan<'a>>,
    registers: Vec<u32>,
    /// For each register-file row, the element that feeds it (the last one in layout order).
    row_elements: Vec<usize>,
    isa: Isa,
    store: StoreMode,
}

impl<'a> FetchPlan<'a> {
    /// Compiles `layout` with `buffers[slot]` bound to each slot (`None`, or a slot past the
    /// end of `buffers`, is unbound). Uses the best instruction set of this CPU
    /// ([`Isa::detect`]) and [`StoreMode::Auto`].
    pub fn new(
        layout: &InputLayout,
        buffers: &[Option<VertexBufferBinding<'a>>],
    ) -> Result<FetchPlan<'a>, FetchError> {
        let mut specs = Vec::with_capacity(layout.elements().len());
        for (i, e) in layout.elements().iter().enumerate() {
            let info = e.format.info().ok_or(FetchError::UnknownFormat {
                element: i,
                format: e.format,
            })?;
            let binding = buffers.get(e.slot as usize).copied().flatten();
            specs.push((info, e.offset, e.class, e.step_rate, binding, e.register));
        }
        Ok(FetchPlan::compile(specs))
    }

    /// The plan of a draw's bound elements — the assembler's reference plan
    /// ([`ReferencePlan::elements`](crate::assembler::ReferencePlan::elements): those that feed
    /// a register, in layout order, each with its slot's binding) — under the same rules, so
    /// [`FetchPlan::fetch_registers`] with [`FetchPlan::registers`] = the registers of the
    /// elements gives exactly what the reference puts in those registers (ia-semantics §1–§3).
    pub fn from_elements(elements: &[ElementFetch<'a>]) -> FetchPlan<'a> {
        let mut fast = FetchPlan::empty();
        fast.recompile_from_elements(elements);
        fast
    }

    /// A plan of no elements (it fetches nothing), with [`Isa::detect`] and
    /// [`StoreMode::Auto`]; [`FetchPlan::reserve`] and
    /// [`FetchPlan::recompile_from_elements`] make it a reusable one.
    pub fn empty() -> FetchPlan<'a> {
        FetchPlan {
            elements: Vec::new(),
            registers: Vec::new(),
            row_elements: Vec::new(),
            isa: Isa::detect(),
            store: StoreMode::Auto,
        }
    }

    /// Reserves room for plans of up to `elements` elements, so that recompiling one of
    /// them ([`FetchPlan::recompile_from_elements`]) allocates nothing.
    pub fn reserve(&mut self, elements: usize) {
        self.elements
            .reserve(elements.saturating_sub(self.elements.len()));
        self.registers
            .reserve(elements.saturating_sub(self.registers.len()));
        self.row_elements
            .reserve(elements.saturating_sub(self.row_elements.len()));
    }

    /// Drops the plan's elements and with them every reference to vertex buffers, keeping its
    /// storage, instruction set and store mode: the plan then fetches nothing.
    pub fn clear(&mut self) {
        self.elements.clear();
        self.registers.clear();
        self.row_elements.clear();
    }

    /// Recompiles this plan in place as [`FetchPlan::from_elements`] of `elements`, keeping its
    /// instruction set and store mode and reusing its storage: nothing is allocated when the
    /// plan has held (or [`FetchPlan::reserve`]d) at least as many elements before — the
    /// per-draw path of a caller that keeps one plan (the C ABI's stream).
    pub fn recompile_from_elements(&mut self, elements: &[ElementFetch<'a>]) {
        self.compile_into(elements.iter().map(|e| {
            (
                e.info,
                e.offset,
                e.class,
                e.step_rate,
                e.buffer,
                Some(e.register),
            )
        }));
    }

    /// Compiles per-element specifications (format row, element offset, class, step rate,
    /// binding of its slot, register).
    fn compile(specs: Vec<ElementSpec<'a>>) -> FetchPlan<'a> {
        let mut plan = FetchPlan::empty();
        plan.compile_into(specs.into_iter());
        plan
    }

    /// [`FetchPlan::compile`] into this plan's storage (cleared first).
    fn compile_into(&mut self, specs: impl Iterator<Item = ElementSpec<'a>> + Clone) {
        self.clear();
        self.registers.extend(specs.clone().filter_map(|s| s.5));
        self.registers.sort_unstable();
        self.registers.dedup();
        let registers = &self.registers;
        self.elements.extend(
            specs.map(
                |(info, offset, class, step_rate, binding, register)| ElementPlan {
                    info,
                    offset,
                    size: info.byte_size(),
                    class,
                    step_rate,
                    source: binding,
                    program: LaneProgram::compile(info),
                    oob: convert::out_of_bounds(info),
                    row_pos: register.map(|r| registers.binary_search(&r).unwrap_or_default()),
                },
            ),
        );
        let elements = &self.elements;
        self.row_elements.extend((0..registers.len()).map(|r| {
            elements
                .iter()
                .rposition(|e| e.row_pos == Some(r))
                .unwrap_or_default()
        }));
    }

    /// Uses `isa` for the kernels, or [`Isa::Portable`] when this CPU does not support it
    /// (see [`FetchPlan::isa`]).
    pub fn with_isa(mut self, isa: Isa) -> Self {
        self.isa = if isa.is_supported() {
            isa
        } else {
            Isa::Portable
        };
        self
    }

    /// Uses `mode` for the output stores.
    pub fn with_store_mode(mut self, mode: StoreMode) -> Self {
        self.store = mode;
        self
    }

    /// The instruction set the kernels use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// The input registers a register-file row holds, in row order (ascending register
    /// number; elements without a register are not in the row).
    pub fn registers(&self) -> &[u32] {
        &self.registers
    }

    /// Number of layout elements (arrays [`FetchPlan::fetch_elements`] fills).
    pub fn element_count(&self) -> usize {
        self.elements.len()
    }

    /// Fills `out` with the register file of each vertex: row `k` (`registers().len()`
    /// entries of four lanes, starting at `out[k * registers().len()]`) holds what the
    /// vertex shader reads for the `k`-th vertex of `vertices`.
    pub fn fetch_registers(
        &self,
        vertices: Vertices<'_>,
        instance: Instance,
        out: &mut [[u32; 4]],
    ) -> Result<(), FetchError> {
        let needed = vertices.len() as u64 * self.registers.len() as u64;
        if (out.len() as u64) < needed {
            return Err(FetchError::OutputTooSmall {
                needed,
                got: out.len(),
            });
        }
        let streaming = self.streaming(needed as usize);
        self.run(
            vertices,
            instance,
            &mut Sink::Registers(&mut out[..needed as usize]),
            streaming,
        );
        Ok(())
    }

    /// Fills `outs[e][k]` with element `e`'s lanes for the `k`-th vertex of `vertices`, for
    /// every layout element `e` (elements without a register included).
    pub fn fetch_elements(
        &self,
        vertices: Vertices<'_>,
        instance: Instance,
        outs: &mut [&mut [[u32; 4]]],
    ) -> Result<(), FetchError> {
        if outs.len() != self.elements.len() {
            return Err(FetchError::ElementCount {
                expected: self.elements.len(),
                got: outs.len(),
            });
        }
        let n = vertices.len();
        if let Some(short) = outs.iter().find(|o| o.len() < n) {
            return Err(FetchError::OutputTooSmall {
                needed: n as u64,
                got: short.len(),
            });
        }
        let streaming = self.streaming(n * outs.len());
        self.run(vertices, instance, &mut Sink::Elements(outs), streaming);
        Ok(())
    }

    /// [`FetchPlan::fetch_elements`] with each element's rows `outs[e].lanes` lanes wide
    /// (1 to 4) instead of four: fills `outs[e].data[k * lanes .. (k + 1) * lanes]` with the
    /// first `lanes` lanes of element `e` for the `k`-th vertex of `vertices`, the same bits
    /// (`tests/fetch_diff.rs::check` compares both with the reference conversions for every IA
    /// format, every lane count, odd strides, buffer edges and index lists, on every kernel).
    /// Rows of a pure 32-bit copy format (`R32…_FLOAT/UINT/SINT`) no wider than its components
    /// are copied straight from the vertex records; other rows are converted and stored at
    /// their width, with no intermediate four-lane copy. [`StoreMode::Auto`] streams when the
    /// call's whole output (every element's lanes) is at least
    /// [`STREAM_THRESHOLD_BYTES`].
    pub fn fetch_element_rows(
        &self,
        vertices: Vertices<'_>,
        instance: Instance,
        outs: &mut [ElementRows<'_>],
    ) -> Result<(), FetchError> {
        if outs.len() != self.elements.len() {
            return Err(FetchError::ElementCount {
                expected: self.elements.len(),
                got: outs.len(),
            });
        }
        let n = vertices.len();
        let mut lanes_out = 0usize;
        for (element, o) in outs.iter().enumerate() {
            if !(1..=4).contains(&o.lanes) {
                return Err(FetchError::LaneCount {
                    element,
                    lanes: o.lanes,
                });
            }
            let needed = n as u64 * o.lanes as u64;
            if (o.data.len() as u64) < needed {
                return Err(FetchError::RowsTooSmall {
                    element,
                    lanes: o.lanes,
                    needed,
                    got: o.data.len(),
                });
            }
            lanes_out = lanes_out.saturating_add(n * o.lanes);
        }
        let streaming = self.streaming(lanes_out.div_ceil(4));
        self.run(vertices, instance, &mut Sink::Rows(outs), streaming);
        Ok(())
    }

    /// [`FetchPlan::fetch_registers`] split over `threads` threads (at least 1), each taking a
    /// contiguous share of the vertices (std::thread::scope; no thread pool). Needs the
    /// optional `parallel` feature (the library spawns no threads without it).
    #[cfg(feature = "parallel")]
    pub fn fetch_registers_parallel(
        &self,
        vertices: Vertices<'_>,
        instance: Instance,
        out: &mut [[u32; 4]],
        threads: usize,
    ) -> Result<(), FetchError> {
        let row = self.registers.len();
        let n = vertices.len();
        let needed = n as u64 * row as u64;
        if (out.len() as u64) < needed {
            return Err(FetchError::OutputTooSmall {
                needed,
                got: out.len(),
            });
        }
        let threads = threads.clamp(1, n.div_ceil(MAX_BLOCK).max(1));
        if threads == 1 || row == 0 {
            return self.fetch_registers(vertices, instance, out);
        }
        let share = n.div_ceil(threads).next_multiple_of(MAX_BLOCK);
        // The store mode follows the whole call's output, not one thread's share.
        let streaming = self.streaming(needed as usize);
        std::thread::scope(|s| {
            let mut rest = &mut out[..needed as usize];
            let mut start = 0;
            while start < n {
                let m = share.min(n - start);
                let (mine, tail) = rest.split_at_mut(m * row);
                rest = tail;
                let part = vertices.sub(start, m);
                s.spawn(move || self.run(part, instance, &mut Sink::Registers(mine), streaming));
                start += m;
            }
        });
        Ok(())
    }

    /// Whether this call writes with non-temporal stores.
    fn streaming(&self, out_rows: usize) -> bool {
        self.isa.avx2()
            && match self.store {
                StoreMode::Auto => out_rows * 16 >= STREAM_THRESHOLD_BYTES,
                StoreMode::Normal => false,
                StoreMode::Streaming => true,
            }
    }

    /// [`FetchPlan::fetch_registers`] as one batch of a larger output of `total_rows` rows
    /// (the assembler's batch API): [`StoreMode::Auto`] decides on `total_rows`, so a draw
    /// written in many small batches streams like one large call. The batch's non-temporal
    /// stores are not fenced: the caller calls [`FetchPlan::end_batches`] with the same
    /// `total_rows` before the output leaves it (one `sfence` per call of the batch API, not
    /// one per batch: each waits for every store still in flight).
    pub(crate) fn fetch_registers_batch(
        &self,
        vertices: Vertices<'_>,
        instance: Instance,
        out: &mut [[u32; 4]],
        total_rows: usize,
    ) -> Result<(), FetchError> {
        let needed = vertices.len() as u64 * self.registers.len() as u64;
        if (out.len() as u64) < needed {
            return Err(FetchError::OutputTooSmall {
                needed,
                got: out.len(),
            });
        }
        let streaming = self.streaming(total_rows.max(needed as usize));
        self.run_unfenced(
            vertices,
            instance,
            &mut Sink::Registers(&mut out[..needed as usize]),
            streaming,
        );
        Ok(())
    }

    /// Ends the batches [`FetchPlan::fetch_registers_batch`] wrote for an output of
    /// `total_rows` rows: an `sfence` when they streamed, so that their non-temporal stores
    /// are ordered before any later store (a flag that hands the output to another thread,
    /// say).
    pub(crate) fn end_batches(&self, total_rows: usize) {
        if self.streaming(total_rows) {
            stream_fence(self.isa);
        }
    }

    /// The store mode.
    pub fn store_mode(&self) -> StoreMode {
        self.store
    }

    /// The block loop shared by both output shapes, its non-temporal stores fenced at the end.
    fn run(
        &self,
        vertices: Vertices<'_>,
        instance: Instance,
        sink: &mut Sink<'_, '_>,
        streaming: bool,
    ) {
        self.run_unfenced(vertices, instance, sink, streaming);
        if streaming {
            stream_fence(self.isa);
        }
    }

    /// [`FetchPlan::run`] without the closing fence.
    fn run_unfenced(
        &self,
        vertices: Vertices<'_>,
        instance: Instance,
        sink: &mut Sink<'_, '_>,
        streaming: bool,
    ) {
        let n = vertices.len();
        let width = match sink {
            Sink::Registers(_) => self.registers.len(),
            Sink::Elements(outs) => outs.len(),
            Sink::Rows(outs) => outs.len(),
        };
        if n == 0 || width == 0 {
            return;
        }
        let mut start = 0;
        if let Sink::Registers(out) = sink {
            // The fused kernel over everything, when it is all in bounds: no per-block set-up
            // and no scratch.
            start = self.fused_block(vertices, instance, out, streaming);
            if start == n {
                return;
            }
        }
        let mut scratch = [[0u32; 4]; SCRATCH_ROWS];
        let block = MAX_BLOCK;
        while start < n {
            if let Sink::Registers(out) = sink {
                // The fused kernel over everything left, when it is all in bounds (no
                // per-block set-up); otherwise block by block below.
                let rest = vertices.sub(start, n - start);
                let done = self.fused_block(rest, instance, &mut out[start * width..], streaming);
                if done > 0 {
                    start += done;
                    continue;
                }
            }
            let m = block.min(n - start);
            let verts = vertices.sub(start, m);
            match sink {
                Sink::Registers(out) => {
                    let rows = &mut out[start * width..(start + m) * width];
                    let done = self.fused_block(verts, instance, rows, streaming);
                    if done < m {
                        self.registers_block(
                            verts.sub(done, m - done),
                            instance,
                            &mut rows[done * width..],
                            streaming,
                            &mut scratch,
                        );
                    }
                }
                Sink::Elements(outs) => {
                    for (plan, out) in self.elements.iter().zip(outs.iter_mut()) {
                        let rows = &mut out[start..start + m];
                        self.element_rows4(plan, verts, instance, rows, streaming, &mut scratch);
                    }
                }
                Sink::Rows(outs) => {
                    for (plan, out) in self.elements.iter().zip(outs.iter_mut()) {
                        let lanes = out.lanes;
                        let rows = &mut out.data[start * lanes..(start + m) * lanes];
                        self.rows_block(
                            plan,
                            verts,
                            instance,
                            rows,
                            lanes,
                            streaming,
                            &mut scratch,
                        );
                    }
                }
            }
            start += m;
        }
    }

    /// The fused AVX2+FMA+F16C kernel over the leading vertices of a contiguous block, or over
    /// a whole index list, whose elements are all in bounds, constant or unbound (see
    /// `simd::fused`); returns how many leading vertices it filled (0 when it does not apply:
    /// portable plans, blocks touching a buffer edge or an address wrap, index lists reaching
    /// out of bounds).
    fn fused_block(
        &self,
        verts: Vertices<'_>,
        instance: Instance,
        rows: &mut [[u32; 4]],
        streaming: bool,
    ) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            let width = self.registers.len();
            if !self.isa.avx2() || width > 32 || verts.is_empty() {
                return 0;
            }
            let (kind, first, count) = match verts {
                Vertices::Range { first, count } => (
                    simd::FusedVertices::Range(count as usize),
                    first,
                    count as usize,
                ),
                Vertices::Indexed {
                    indices,
                    base_vertex,
                } => {
                    // The largest vertex index decides whether every element is in bounds:
                    // addresses grow with the index.
                    // The kernel adds the base to each index the same way (wrapping).
                    let base = buffer::indexed_vertex(base_vertex, 0);
                    let Some(last) = simd::max_vertex(indices, base) else {
                        return 0;
                    };
                    let kind = simd::FusedVertices::Indexed {
                        indices,
                        base_vertex: base,
                        last,
                    };
                    (kind, 0, last as usize + 1)
                }
            };
            let mut fused = [simd::FusedRow::constant([0; 4]); 32];
            for (row, &ei) in fused.iter_mut().zip(&self.row_elements) {
                let e = &self.elements[ei];
                let Some(program) = &e.program else { return 0 };
                *row = match self.classify(e, first, count, instance) {
                    BlockSource::Linear { start, stride } => simd::FusedRow {
                        program: Some(program),
                        constant: [0; 4],
                        data: e.source.map_or(&[][..], |s| s.data),
                        start,
                        stride,
                    },
                    BlockSource::Const(v) => simd::FusedRow::constant(v),
                    // An index list whose vertices are not all in bounds (or wrap): the
                    // per-element path.
                    BlockSource::Slow => return 0,
                };
            }
            simd::fused(
                &fused[..width],
                kind,
                rows,
                streaming,
                self.isa == Isa::Avx512,
            )
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (verts, instance, rows, streaming);
            0
        }
    }

    /// One block of register-file rows, element by element (through a cache-resident scratch
    /// buffer when streaming, so the output is still written once, sequentially).
    fn registers_block(
        &self,
        verts: Vertices<'_>,
        instance: Instance,
        rows: &mut [[u32; 4]],
        streaming: bool,
        scratch: &mut [[u32; 4]; SCRATCH_ROWS],
    ) {
        let width = self.registers.len();
        let n = verts.len();
        let chunk = (SCRATCH_ROWS / width).max(1);
        let mut done = 0;
        while done < n {
            let m = chunk.min(n - done);
            let part = verts.sub(done, m);
            if let Vertices::Range { first, .. } = verts {
                // Ask for the next chunk's vertex data now, so that its memory latency
                // overlaps this chunk's conversions.
                let next = first.wrapping_add((done + m) as u32);
                self.prefetch(next, chunk.min(n - done - m));
            }
            let out = &mut rows[done * width..(done + m) * width];
            let direct = !streaming || m * width > SCRATCH_ROWS;
            let dst = if direct {
                &mut out[..]
            } else {
                &mut scratch[..m * width]
            };
            for plan in &self.elements {
                if let Some(pos) = plan.row_pos {
                    let mut column = Column {
                        dst: &mut *dst,
                        stride: width,
                        pos,
                    };
                    self.element_into(plan, part, instance, &mut column);
                }
            }
            if !direct {
                stream_copy(self.isa, out, &scratch[..m * width]);
            }
            done += m;
        }
    }

    /// Prefetches the per-vertex bytes of vertex indices `first .. first + n` (each bound
    /// buffer once).
    fn prefetch(&self, first: u32, n: usize) {
        if !self.isa.avx2() || n == 0 {
            return;
        }
        for (i, e) in self.elements.iter().enumerate() {
            let Some(src) = e.source else { continue };
            let seen = self.elements[..i].iter().any(|p| {
                p.class == InputClass::PerVertex
                    && p.source.is_some_and(|q| std::ptr::eq(q.data, src.data))
            });
            if e.class != InputClass::PerVertex || seen {
                continue;
            }
            let lo = src.offset as u64 + src.stride as u64 * first as u64;
            let hi = lo + src.stride as u64 * n as u64;
            let len = src.data.len() as u64;
            #[cfg(target_arch = "x86_64")]
            simd::prefetch(src.data, lo.min(len) as usize, hi.min(len) as usize);
            let _ = (lo, hi, len);
        }
    }

    /// How element `e` is fetched for the vertex indices `first .. first + n`.
    fn classify(
        &self,
        e: &ElementPlan<'_>,
        first: u32,
        n: usize,
        instance: Instance,
    ) -> BlockSource {
        let Some(src) = e.source else {
            return BlockSource::Const([0; 4]);
        };
        if e.class == InputClass::PerInstance {
            return BlockSource::Const(e.fetch_one(instance.element_index(e.step_rate)));
        }
        match src.span(e.offset, e.size, first, n) {
            Span::Inside { start, stride } => BlockSource::Linear { start, stride },
            Span::Outside => BlockSource::Const(e.oob),
            Span::Mixed => BlockSource::Slow,
        }
    }

    /// One element over one block into `sink` (vertex `i` of `verts` as the sink's `i`-th):
    /// a [`Column`] of the register file (`dst[i * dst_stride + pos]`) or [`PackedRows`].
    fn element_into<S: BlockSink>(
        &self,
        e: &ElementPlan<'_>,
        verts: Vertices<'_>,
        instance: Instance,
        sink: &mut S,
    ) {
        let n = verts.len();
        let Some(src) = e.source else {
            return sink.fill(n, [0; 4]);
        };
        if e.class == InputClass::PerInstance {
            return sink.fill(n, e.fetch_one(instance.element_index(e.step_rate)));
        }
        let k = Kernel {
            isa: self.isa,
            e,
            data: src.data,
        };
        match verts {
            Vertices::Range { first, .. } => match self.classify(e, first, n, instance) {
                BlockSource::Linear { start, stride } => k.linear(start, stride, n, sink),
                BlockSource::Const(v) => sink.fill(n, v),
                BlockSource::Slow => {
                    for i in 0..n {
                        sink.put(i, e.fetch_one(buffer::sequential_vertex(first, i as u32)));
                    }
                }
            },
            Vertices::Indexed {
                indices,
                base_vertex,
            } => {
                let mut addrs = [NO_ADDR; MAX_BLOCK];
                for (a, &ix) in addrs.iter_mut().zip(indices) {
                    let v = buffer::indexed_vertex(base_vertex, ix);
                    *a = src.element_address(e.offset, e.size, v).unwrap_or(NO_ADDR);
                }
                k.list(&addrs[..n], sink);
            }
        }
    }
}

impl FetchPlan<'_> {
    /// One element over one block of [`FetchPlan::fetch_element_rows`]: `dst` holds the
    /// block's rows of `lanes` lanes. Four-lane rows run exactly as
    /// [`FetchPlan::fetch_elements`]'s; narrower rows are written at their width, directly
    /// or (streaming) through the cache-resident scratch and then streamed out in one
    /// sequential pass.
    #[allow(clippy::too_many_arguments)]
    fn rows_block(
        &self,
        e: &ElementPlan<'_>,
        verts: Vertices<'_>,
        instance: Instance,
        dst: &mut [u32],
        lanes: usize,
        streaming: bool,
        scratch: &mut [[u32; 4]; SCRATCH_ROWS],
    ) {
        if lanes == 4
            && let Ok(rows) = bytemuck::try_cast_slice_mut::<u32, [u32; 4]>(dst)
        {
            return self.element_rows4(e, verts, instance, rows, streaming, scratch);
        }
        if !streaming {
            return self.element_rows(e, verts, instance, dst, lanes);
        }
        let flat = scratch.as_flattened_mut();
        let per = flat.len() / lanes;
        for (k, chunk) in dst.chunks_mut(per * lanes).enumerate() {
            let part = verts.sub(k * per, chunk.len() / lanes);
            let tmp = &mut flat[..chunk.len()];
            self.element_rows(e, part, instance, tmp, lanes);
            stream_copy_lanes(self.isa, chunk, tmp);
        }
    }

    /// One element over one block into its four-lane rows `rows` (one per vertex), directly
    /// or (streaming) decoded into the cache-resident scratch and streamed out from there —
    /// [`FetchPlan::fetch_elements`]'s blocks and the four-lane rows of
    /// [`FetchPlan::fetch_element_rows`].
    fn element_rows4(
        &self,
        e: &ElementPlan<'_>,
        verts: Vertices<'_>,
        instance: Instance,
        rows: &mut [[u32; 4]],
        streaming: bool,
        scratch: &mut [[u32; 4]; SCRATCH_ROWS],
    ) {
        if !streaming {
            return self.element_into(e, verts, instance, &mut Column::rows(rows));
        }
        for (k, chunk) in rows.chunks_mut(SCRATCH_ROWS).enumerate() {
            let part = verts.sub(k * SCRATCH_ROWS, chunk.len());
            let tmp = &mut scratch[..chunk.len()];
            self.element_into(e, part, instance, &mut Column::rows(tmp));
            stream_copy(self.isa, chunk, tmp);
        }
    }

    /// One element over one block as rows of `lanes` lanes: `dst[i * lanes ..][..lanes]` for
    /// vertex `i` of `verts` ([`FetchPlan::element_into`] [`PackedRows`]).
    fn element_rows(
        &self,
        e: &ElementPlan<'_>,
        verts: Vertices<'_>,
        instance: Instance,
        dst: &mut [u32],
        lanes: usize,
    ) {
        // Exactly the block's rows: the kernels' overlapping stores stay inside `dst`.
        if let Some(dst) = dst.get_mut(..verts.len() * lanes) {
            self.element_into(e, verts, instance, &mut PackedRows { dst, lanes });
        }
    }
}

/// How one element is fetched over one block of a contiguous range.
#[derive(Clone, Copy, Debug)]
enum BlockSource {
    /// Every vertex in bounds: vertex `i` at byte `start + i * stride` of `data`.
    Linear {
        /// Address of the block's first element.
        start: usize,
        /// Stride.
        stride: usize,
    },
    /// The same lanes for every vertex (unbound slot, per-instance element, all out of
    /// bounds).
    Const([u32; 4]),
    /// Needs the exact per-vertex path (buffer edge or address wrap inside the block).
    Slow,
}

/// Address-list marker for an out-of-bounds fetch.
const NO_ADDR: usize = usize::MAX;

/// Output of [`FetchPlan::run`].
enum Sink<'o, 'p> {
    Registers(&'o mut [[u32; 4]]),
    Elements(&'o mut [&'p mut [[u32; 4]]]),
    Rows(&'o mut [ElementRows<'p>]),
}

/// Copies `src` into `dst` (same length) as 32-bit lanes, with non-temporal stores on AVX2
/// (normal ones for the unaligned head and the tail).
fn stream_copy_lanes(isa: Isa, dst: &mut [u32], src: &[u32]) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        return simd::stream_copy_lanes(dst, src);
    }
    let _ = isa;
    dst.copy_from_slice(src);
}

/// Copies `src` into `dst` (same length), with non-temporal stores on AVX2.
fn stream_copy(isa: Isa, dst: &mut [[u32; 4]], src: &[[u32; 4]]) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        return simd::stream_copy(dst, src);
    }
    let _ = isa;
    dst.copy_from_slice(src);
}

/// Orders earlier non-temporal stores before later stores (`sfence`).
fn stream_fence(isa: Isa) {
    #[cfg(target_arch = "x86_64")]
    if isa.avx2() {
        simd::fence();
    }
    let _ = isa;
}
