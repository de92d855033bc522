//! A tiny SPIR-V writer for the one vertex shader the harness needs: it stores its inputs,
//! `VertexIndex` and `InstanceIndex` into a storage buffer, one record per (vertex, instance).
//!
//! Written against the SPIR-V 1.0 specification (instruction word = word count << 16 |
//! opcode; §3 "Binary Form"), with the storage buffer as a `Uniform` `BufferBlock` so any
//! Vulkan 1.0 implementation takes it.

/// Numeric type of one shader input (must match the attribute format's numeric type:
/// Vulkan spec §"Vertex Attribute Input Format").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputType {
    /// `vec4` (FLOAT, UNORM, SNORM formats).
    Float,
    /// `uvec4`.
    Uint,
    /// `ivec4`.
    Sint,
}

/// Words per record for `inputs` inputs: VertexIndex, InstanceIndex, then four per input.
pub fn record_words(inputs: usize) -> u32 {
    2 + 4 * inputs as u32
}

struct Module {
    words: Vec<u32>,
    next: u32,
}

impl Module {
    fn id(&mut self) -> u32 {
        let i = self.next;
        self.next += 1;
        i
    }
    fn op(&mut self, opcode: u32, operands: &[u32]) {
        self.words
            .push(((operands.len() as u32 + 1) << 16) | opcode);
        self.words.extend_from_slice(operands);
    }
}

fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

// Opcodes (SPIR-V spec §3.32).
const OP_MEMORY_MODEL: u32 = 14;
const OP_ENTRY_POINT: u32 = 15;
const OP_CAPABILITY: u32 = 17;
const OP_TYPE_VOID: u32 = 19;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_RUNTIME_ARRAY: u32 = 29;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_TYPE_FUNCTION: u32 = 33;
const OP_CONSTANT: u32 = 43;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_END: u32 = 56;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;
const OP_COMPOSITE_EXTRACT: u32 = 81;
const OP_BITCAST: u32 = 124;
const OP_IADD: u32 = 128;
const OP_ISUB: u32 = 130;
const OP_IMUL: u32 = 132;
const OP_ULESS_THAN: u32 = 176;
const OP_SELECTION_MERGE: u32 = 247;
const OP_LABEL: u32 = 248;
const OP_BRANCH: u32 = 249;
const OP_BRANCH_CONDITIONAL: u32 = 250;
const OP_RETURN: u32 = 253;

// Enumerants.
const STORAGE_INPUT: u32 = 1;
const STORAGE_UNIFORM: u32 = 2;
const STORAGE_PUSH_CONSTANT: u32 = 9;
const DECO_BLOCK: u32 = 2;
const DECO_BUFFER_BLOCK: u32 = 3;
const DECO_ARRAY_STRIDE: u32 = 6;
const DECO_BUILTIN: u32 = 11;
const DECO_LOCATION: u32 = 30;
const DECO_BINDING: u32 = 33;
const DECO_DESCRIPTOR_SET: u32 = 34;
const DECO_OFFSET: u32 = 35;
const BUILTIN_VERTEX_INDEX: u32 = 42;
const BUILTIN_INSTANCE_INDEX: u32 = 43;

/// The vertex shader for inputs at `locations` (location, type).
///
/// Push constants (16 bytes): `span` (records per instance), `vbase` (the VertexIndex of
/// record 0, signed), `first_instance`, `capacity` (records in the buffer). Record
/// `(InstanceIndex − first_instance) · span + (VertexIndex − vbase)` receives
/// `[VertexIndex, InstanceIndex, in0.xyzw, in1.xyzw, …]` as raw 32-bit words; records past
/// `capacity` are not written.
pub fn vertex_shader(locations: &[(u32, InputType)]) -> Vec<u32> {
    let mut m = Module {
        words: Vec::new(),
        next: 1,
    };
    let t_void = m.id();
    let t_fn = m.id();
    let t_u32 = m.id();
    let t_i32 = m.id();
    let t_f32 = m.id();
    let t_bool = m.id();
    let t_v4f = m.id();
    let t_v4u = m.id();
    let t_v4i = m.id();
    let t_rta = m.id();
    let t_blk = m.id();
    let t_p_blk = m.id();
    let t_p_u_unif = m.id();
    let t_pcs = m.id();
    let t_p_pcs = m.id();
    let t_p_pc_u = m.id();
    let t_p_pc_i = m.id();
    let t_p_in_i = m.id();
    let t_p_in_v4f = m.id();
    let t_p_in_v4u = m.id();
    let t_p_in_v4i = m.id();
    let v_out = m.id();
    let v_pc = m.id();
    let v_vid = m.id();
    let v_iid = m.id();
    let v_in: Vec<u32> = locations.iter().map(|_| m.id()).collect();
    let f_main = m.id();
    let rw = record_words(locations.len());
    // Integer constants 0..=max(3, record words) as u32, and 0..3 as i32 for struct members.
    let nconst = rw.max(4);
    let c_u: Vec<u32> = (0..nconst).map(|_| m.id()).collect();
    let c_rw = m.id();
    let c_i: Vec<u32> = (0..4).map(|_| m.id()).collect();

    // Header is written last (bound known then).
    m.op(OP_CAPABILITY, &[1]); // Shader
    m.op(OP_MEMORY_MODEL, &[0, 1]); // Logical GLSL450
    let mut ep = vec![0, f_main];
    ep.extend(string_words("main"));
    ep.push(v_vid);
    ep.push(v_iid);
    ep.extend(&v_in);
    m.op(OP_ENTRY_POINT, &ep);

    m.op(OP_DECORATE, &[v_vid, DECO_BUILTIN, BUILTIN_VERTEX_INDEX]);
    m.op(OP_DECORATE, &[v_iid, DECO_BUILTIN, BUILTIN_INSTANCE_INDEX]);
    for (v, (loc, _)) in v_in.iter().zip(locations) {
        m.op(OP_DECORATE, &[*v, DECO_LOCATION, *loc]);
    }
    m.op(OP_DECORATE, &[t_rta, DECO_ARRAY_STRIDE, 4]);
    m.op(OP_MEMBER_DECORATE, &[t_blk, 0, DECO_OFFSET, 0]);
    m.op(OP_DECORATE, &[t_blk, DECO_BUFFER_BLOCK]);
    m.op(OP_DECORATE, &[v_out, DECO_DESCRIPTOR_SET, 0]);
    m.op(OP_DECORATE, &[v_out, DECO_BINDING, 0]);
    for k in 0..4 {
        m.op(OP_MEMBER_DECORATE, &[t_pcs, k, DECO_OFFSET, 4 * k]);
    }
    m.op(OP_DECORATE, &[t_pcs, DECO_BLOCK]);

    m.op(OP_TYPE_VOID, &[t_void]);
    m.op(OP_TYPE_FUNCTION, &[t_fn, t_void]);
    m.op(OP_TYPE_INT, &[t_u32, 32, 0]);
    m.op(OP_TYPE_INT, &[t_i32, 32, 1]);
    m.op(OP_TYPE_FLOAT, &[t_f32, 32]);
    m.op(OP_TYPE_BOOL, &[t_bool]);
    m.op(OP_TYPE_VECTOR, &[t_v4f, t_f32, 4]);
    m.op(OP_TYPE_VECTOR, &[t_v4u, t_u32, 4]);
    m.op(OP_TYPE_VECTOR, &[t_v4i, t_i32, 4]);
    m.op(OP_TYPE_RUNTIME_ARRAY, &[t_rta, t_u32]);
    m.op(OP_TYPE_STRUCT, &[t_blk, t_rta]);
    m.op(OP_TYPE_POINTER, &[t_p_blk, STORAGE_UNIFORM, t_blk]);
    m.op(OP_TYPE_POINTER, &[t_p_u_unif, STORAGE_UNIFORM, t_u32]);
    m.op(OP_TYPE_STRUCT, &[t_pcs, t_u32, t_i32, t_u32, t_u32]);
    m.op(OP_TYPE_POINTER, &[t_p_pcs, STORAGE_PUSH_CONSTANT, t_pcs]);
    m.op(OP_TYPE_POINTER, &[t_p_pc_u, STORAGE_PUSH_CONSTANT, t_u32]);
    m.op(OP_TYPE_POINTER, &[t_p_pc_i, STORAGE_PUSH_CONSTANT, t_i32]);
    m.op(OP_TYPE_POINTER, &[t_p_in_i, STORAGE_INPUT, t_i32]);
    m.op(OP_TYPE_POINTER, &[t_p_in_v4f, STORAGE_INPUT, t_v4f]);
    m.op(OP_TYPE_POINTER, &[t_p_in_v4u, STORAGE_INPUT, t_v4u]);
    m.op(OP_TYPE_POINTER, &[t_p_in_v4i, STORAGE_INPUT, t_v4i]);
    for (k, c) in c_u.iter().enumerate() {
        m.op(OP_CONSTANT, &[t_u32, *c, k as u32]);
    }
    m.op(OP_CONSTANT, &[t_u32, c_rw, rw]);
    for (k, c) in c_i.iter().enumerate() {
        m.op(OP_CONSTANT, &[t_i32, *c, k as u32]);
    }
    m.op(OP_VARIABLE, &[t_p_blk, v_out, STORAGE_UNIFORM]);
    m.op(OP_VARIABLE, &[t_p_pcs, v_pc, STORAGE_PUSH_CONSTANT]);
    m.op(OP_VARIABLE, &[t_p_in_i, v_vid, STORAGE_INPUT]);
    m.op(OP_VARIABLE, &[t_p_in_i, v_iid, STORAGE_INPUT]);
    for (v, (_, ty)) in v_in.iter().zip(locations) {
        let p = match ty {
            InputType::Float => t_p_in_v4f,
            InputType::Uint => t_p_in_v4u,
            InputType::Sint => t_p_in_v4i,
        };
        m.op(OP_VARIABLE, &[p, *v, STORAGE_INPUT]);
    }

    m.op(OP_FUNCTION, &[t_void, f_main, 0, t_fn]);
    let l_entry = m.id();
    let l_body = m.id();
    let l_merge = m.id();
    m.op(OP_LABEL, &[l_entry]);
    let vi = m.id();
    m.op(OP_LOAD, &[t_i32, vi, v_vid]);
    let ii = m.id();
    m.op(OP_LOAD, &[t_i32, ii, v_iid]);
    let pc_load = |m: &mut Module, member: usize, signed: bool| {
        let p = m.id();
        let ptr_t = if signed { t_p_pc_i } else { t_p_pc_u };
        m.op(OP_ACCESS_CHAIN, &[ptr_t, p, v_pc, c_i[member]]);
        let v = m.id();
        m.op(OP_LOAD, &[if signed { t_i32 } else { t_u32 }, v, p]);
        v
    };
    let span = pc_load(&mut m, 0, false);
    let vbase = pc_load(&mut m, 1, true);
    let first = pc_load(&mut m, 2, false);
    let cap = pc_load(&mut m, 3, false);
    let vrel_i = m.id();
    m.op(OP_ISUB, &[t_i32, vrel_i, vi, vbase]);
    let vrel = m.id();
    m.op(OP_BITCAST, &[t_u32, vrel, vrel_i]);
    let iu = m.id();
    m.op(OP_BITCAST, &[t_u32, iu, ii]);
    let irel = m.id();
    m.op(OP_ISUB, &[t_u32, irel, iu, first]);
    let t = m.id();
    m.op(OP_IMUL, &[t_u32, t, irel, span]);
    let rec = m.id();
    m.op(OP_IADD, &[t_u32, rec, t, vrel]);
    let ok = m.id();
    m.op(OP_ULESS_THAN, &[t_bool, ok, rec, cap]);
    m.op(OP_SELECTION_MERGE, &[l_merge, 0]);
    m.op(OP_BRANCH_CONDITIONAL, &[ok, l_body, l_merge]);
    m.op(OP_LABEL, &[l_body]);
    let base = m.id();
    m.op(OP_IMUL, &[t_u32, base, rec, c_rw]);
    let store = |m: &mut Module, word: u32, value: u32| {
        let idx = m.id();
        m.op(OP_IADD, &[t_u32, idx, base, c_u[word as usize]]);
        let p = m.id();
        m.op(OP_ACCESS_CHAIN, &[t_p_u_unif, p, v_out, c_i[0], idx]);
        m.op(OP_STORE, &[p, value]);
    };
    let viu = m.id();
    m.op(OP_BITCAST, &[t_u32, viu, vi]);
    store(&mut m, 0, viu);
    store(&mut m, 1, iu);
    for (k, (v, (_, ty))) in v_in.iter().zip(locations).enumerate() {
        let vt = match ty {
            InputType::Float => t_v4f,
            InputType::Uint => t_v4u,
            InputType::Sint => t_v4i,
        };
        let loaded = m.id();
        m.op(OP_LOAD, &[vt, loaded, *v]);
        let as_u = if *ty == InputType::Uint {
            loaded
        } else {
            let b = m.id();
            m.op(OP_BITCAST, &[t_v4u, b, loaded]);
            b
        };
        for c in 0..4u32 {
            let e = m.id();
            m.op(OP_COMPOSITE_EXTRACT, &[t_u32, e, as_u, c]);
            store(&mut m, 2 + 4 * k as u32 + c, e);
        }
    }
    m.op(OP_BRANCH, &[l_merge]);
    m.op(OP_LABEL, &[l_merge]);
    m.op(OP_RETURN, &[]);
    m.op(OP_FUNCTION_END, &[]);

    let mut out = vec![0x0723_0203, 0x0001_0000, 0, m.next, 0];
    out.extend(m.words);
    out
}
