//! Primitive assembly (ia-semantics §5, §6): a small state machine over the draw walk.
//!
//! Inside one strip (the vertices between two restarts) vertex-stream positions are
//! consecutive, so the state is just the position of the strip's first vertex, the number of
//! vertices seen and the primitive counter: constant memory whatever the draw's size.

use super::topology::Topology;
use super::walk::{WalkStep, Walker};

/// Most vertices one primitive can have (a 32-control-point patch).
pub const MAX_PRIMITIVE_VERTICES: usize = 32;

/// One assembled primitive: its `SV_PrimitiveID` and its vertices as positions in the draw's
/// vertex stream, in the order a geometry shader receives them (leading vertex first; odd
/// triangle-strip triangles as k, k+2, k+1; adjacency vertices included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Primitive {
    /// `SV_PrimitiveID`: completed primitives counted from 0 in each instance; a cut does
    /// not reset it (ia-semantics §6.4).
    pub id: u32,
    /// `SV_InstanceID` of the instance the primitive belongs to.
    pub instance_id: u32,
    len: u8,
    positions: [u64; MAX_PRIMITIVE_VERTICES],
}

impl Primitive {
    fn new(id: u32, instance_id: u32, positions: &[u64]) -> Self {
        let mut p = Primitive {
            id,
            instance_id,
            len: positions.len() as u8,
            positions: [0; MAX_PRIMITIVE_VERTICES],
        };
        p.positions[..positions.len()].copy_from_slice(positions);
        p
    }

    /// The vertices, as 0-based positions in the draw's vertex stream.
    pub fn vertices(&self) -> &[u64] {
        &self.positions[..self.len as usize]
    }
}

/// The incremental primitive assembler. Feed it the walk with [`PrimitiveAssembler::step`]
/// and call [`PrimitiveAssembler::finish`] at the end of the draw; each call returns the
/// primitive completed by that event, if any.
#[derive(Clone, Debug)]
pub struct PrimitiveAssembler {
    topology: Topology,
    /// Position of the current strip's first vertex.
    base: u64,
    /// Vertices in the current strip.
    n: u64,
    /// Next `SV_PrimitiveID`.
    next_id: u32,
    /// Instance of the current strip (`None` before the first step).
    instance: Option<u32>,
}

impl PrimitiveAssembler {
    /// A fresh assembler for `topology` (each draw starts a fresh topology, §6.3).
    pub fn new(topology: Topology) -> Self {
        PrimitiveAssembler {
            topology,
            base: 0,
            n: 0,
            next_id: 0,
            instance: None,
        }
    }

    fn emit(&mut self, local: &[u64]) -> Primitive {
        let mut pos = [0u64; MAX_PRIMITIVE_VERTICES];
        for (p, l) in pos.iter_mut().zip(local) {
            *p = self.base + l;
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        Primitive::new(id, self.instance.unwrap_or(0), &pos[..local.len()])
    }

    /// Ends the current strip (a cut, an instance boundary or the end of the draw): a
    /// triangle strip with adjacency hands out its last primitive now; any incomplete
    /// primitive is dropped.
    fn end_strip(&mut self) -> Option<Primitive> {
        let n = self.n;
        let out = if self.topology == Topology::TriangleStripAdj && n >= 6 {
            let k = (n - 6) / 2;
            Some(self.emit(&tri_strip_adj(k, true)))
        } else {
            None
        };
        self.base += n;
        self.n = 0;
        out
    }

    /// Takes one step of the walk.
    ///
    /// Returns up to two primitives: one finished by an instance boundary before the step
    /// (triangle strip with adjacency only) and one completed by the step's vertex.
    pub fn step(&mut self, step: &WalkStep) -> [Option<Primitive>; 2] {
        let instance_id = step.instance_id();
        let mut first = None;
        if self.instance != Some(instance_id) {
            if self.instance.is_some() {
                first = self.end_strip();
            }
            self.instance = Some(instance_id);
            self.next_id = 0;
        }
        match step {
            WalkStep::Cut { .. } => [first.or(self.end_strip()), None],
            WalkStep::Vertex { .. } => {
                self.n += 1;
                [first, self.on_vertex()]
            }
        }
    }

    /// Ends the draw, returning the last primitive it completes (if any).
    pub fn finish(&mut self) -> Option<Primitive> {
        self.end_strip()
    }

    fn on_vertex(&mut self) -> Option<Primitive> {
        let n = self.n;
        let group = |size: u64| n.is_multiple_of(size).then(|| n - size);
        match self.topology {
            Topology::Undefined => None,
            Topology::PointList => Some(self.emit(&[n - 1])),
            Topology::LineList => group(2).map(|s| self.emit(&[s, s + 1])),
            Topology::LineStrip => (n >= 2).then(|| self.emit(&[n - 2, n - 1])),
            Topology::TriangleList => group(3).map(|s| self.emit(&[s, s + 1, s + 2])),
            Topology::TriangleStrip => (n >= 3).then(|| self.emit(&tri_strip(n - 3))),
            Topology::LineListAdj => group(4).map(|s| self.emit(&[s, s + 1, s + 2, s + 3])),
            Topology::LineStripAdj => (n >= 4).then(|| self.emit(&[n - 4, n - 3, n - 2, n - 1])),
            Topology::TriangleListAdj => {
                group(6).map(|s| self.emit(&[s, s + 1, s + 2, s + 3, s + 4, s + 5]))
            }
            Topology::TriangleStripAdj => {
                // Primitive k is known not to be the last once vertex 2k+7 arrives (n = 2k+8).
                (n >= 8 && n.is_multiple_of(2))
                    .then(|| self.emit(&tri_strip_adj((n - 8) / 2, false)))
            }
            Topology::PatchList(c) => {
                let c = c.max(1) as u64;
                group(c).map(|s| {
                    let mut local = [0u64; MAX_PRIMITIVE_VERTICES];
                    for (q, l) in local.iter_mut().enumerate().take(c as usize) {
                        *l = s + q as u64;
                    }
                    self.emit(&local[..(c as usize).min(MAX_PRIMITIVE_VERTICES)])
                })
            }
        }
    }
}

/// The three strip-local vertices of triangle `k` of a triangle strip (ia-semantics §5): k,
/// k + 1, k + 2, the last two swapped for odd k so that every triangle keeps the strip's
/// winding.
pub(crate) fn tri_strip(k: u64) -> [u64; 3] {
    if k.is_multiple_of(2) {
        [k, k + 1, k + 2]
    } else {
        [k, k + 2, k + 1]
    }
}

/// The six strip-local vertices of primitive `k` of a triangle strip with adjacency
/// (ia-semantics §6.2 table): v0, v2, v4 are the triangle, v1, v3, v5 the adjacent vertices.
fn tri_strip_adj(k: u64, last: bool) -> [u64; 6] {
    let b = 2 * k;
    let v3 = if last { b + 5 } else { b + 6 };
    if k == 0 {
        [0, 1, 2, v3, 4, 3]
    } else if k.is_multiple_of(2) {
        [b, b - 2, b + 2, v3, b + 4, b + 3]
    } else {
        [b, b + 3, b + 4, v3, b + 2, b - 2]
    }
}

/// The primitives of a draw, in order, in constant memory.
#[derive(Clone, Debug)]
pub struct Primitives<'a> {
    walker: Walker<'a>,
    assembler: PrimitiveAssembler,
    pending: Option<Primitive>,
    finished: bool,
}

impl<'a> Primitives<'a> {
    /// The primitives of `walker`'s draw under `topology`.
    pub fn new(walker: Walker<'a>, topology: Topology) -> Self {
        Primitives {
            walker,
            assembler: PrimitiveAssembler::new(topology),
            pending: None,
            finished: false,
        }
    }
}

impl Iterator for Primitives<'_> {
    type Item = Primitive;

    fn next(&mut self) -> Option<Primitive> {
        if let Some(p) = self.pending.take() {
            return Some(p);
        }
        // Steps taken by this call without a primitive. Whether an instance yields primitives
        // depends only on the count, the topology and its cut pattern, which every instance
        // shares; 2·count silent steps hold a whole instance and the step that closes it, so
        // no later instance (nor the draw's end) yields one either. This bounds one call's
        // work by the count instead of count × instances (e.g. 17 vertices per instance into
        // 26-point patches, 2^30 instances; found by the `draw` fuzz target).
        let mut silent = 0u64;
        let silent_limit = 2 * u64::from(self.walker.params().count);
        loop {
            if self.finished {
                return None;
            }
            match self.walker.next() {
                Some(step) => {
                    let [a, b] = self.assembler.step(&step);
                    match (a, b) {
                        (Some(a), b) => {
                            self.pending = b;
                            return Some(a);
                        }
                        (None, Some(b)) => return Some(b),
                        (None, None) => {
                            silent += 1;
                            if silent >= silent_limit {
                                self.walker.exhaust();
                                self.finished = true;
                                return None;
                            }
                        }
                    }
                }
                None => {
                    self.finished = true;
                    return self.assembler.finish();
                }
            }
        }
    }
}
