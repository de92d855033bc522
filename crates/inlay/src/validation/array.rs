//! Checks that depend on the element array alone (R1–R28, R41, R42) and offset resolution.
//!
//! Nothing here allocates except the diagnostics and, on success, the resolved layout: the
//! per-element and per-slot state lives in fixed arrays sized by the largest limits any
//! target has (32 elements, 32 slots), and the element count is checked against the target's
//! limit before any element is looked at.

use crate::diag::{Diagnostic, MessageId, Severity};
use crate::dxbc::signature::Signature;
use crate::element::{
    APPEND_ALIGNED_ELEMENT, INPUT_PER_INSTANCE_DATA, INPUT_PER_VERTEX_DATA, InputElementDesc,
};
use crate::format::{Family, FormatInfo, Support};
use crate::layout::{InputClass, InputLayout, LayoutElement, SlotLayout};
use crate::target::{Instancing, Target};

use super::text::{Name, Who};

/// Largest element count and slot count of any target (D3D11 / D3D10.1 at 10_1 and up).
pub(crate) const MAX: usize = 32;

fn error(diags: &mut Vec<Diagnostic>, id: MessageId, element: Option<usize>, message: String) {
    diags.push(Diagnostic {
        id,
        severity: Severity::Error,
        element,
        message,
    });
}

fn warning(diags: &mut Vec<Diagnostic>, id: MessageId, element: Option<usize>, message: String) {
    diags.push(Diagnostic {
        id,
        severity: Severity::Warning,
        element,
        message,
    });
}

/// The pointer and count checks (R1–R4). Returns the elements to validate, or `None` when
/// validation cannot go on.
///
/// Order: NULL array (164) first, as the real call rejects it before looking at the count
/// (R1: even `NumElements == 0` fails); then the element limit (151) before the array length,
/// because the runtime knows its limit without reading the array; then `NumElements` larger
/// than the array. That last case is undefined behaviour in the real API (it reads past the
/// array); inlay refuses it with `E_INVALIDARG` and message id 0 (`UNKNOWN`, no Windows
/// message exists) instead of guessing what memory would follow.
pub(crate) fn check_count<'a>(
    target: &Target,
    elements: Option<&'a [InputElementDesc]>,
    num_elements: u32,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'a [InputElementDesc]> {
    let d3d12 = target.api.is_d3d12();
    let Some(array) = elements else {
        // D3D12 (P8): `D3D12_INPUT_LAYOUT_DESC { NULL, 0 }` is a pipeline state without an
        // input layout (vkd3d-proton's tests create every IA-less pipeline that way, S_OK);
        // a NULL array with elements has no message of its own in D3D12's debug layer.
        if d3d12 {
            if num_elements == 0 {
                return Some(&[]);
            }
            error(
                diags,
                MessageId::UNKNOWN,
                None,
                format!(
                    "InputLayout.pInputElementDescs is NULL with NumElements {num_elements}; the \
                     runtime would read elements that are not there, inlay refuses it [P8]"
                ),
            );
            return None;
        }
        error(
            diags,
            MessageId::CREATEINPUTLAYOUT_NULLDESC,
            None,
            format!(
                "pInputElementDescs is NULL (NumElements {num_elements}); a NULL element array \
                 is refused even when NumElements is 0 [R1]"
            ),
        );
        return None;
    };
    let limit = target.max_elements();
    if num_elements > limit {
        error(
            diags,
            MessageId::CREATEINPUTLAYOUT_TOOMANYELEMENTS,
            None,
            format!(
                "NumElements {num_elements} exceeds the limit of {limit} input elements for \
                 {} at feature level {} [R3]",
                target.api, target.feature_level
            ),
        );
        return None;
    }
    let n = num_elements as usize;
    if n > array.len() {
        error(
            diags,
            MessageId::UNKNOWN,
            None,
            format!(
                "NumElements {num_elements} is larger than the element array, which holds {} \
                 element(s); the real call would read past the end of the array (undefined \
                 behaviour), inlay refuses it",
                array.len()
            ),
        );
        return None;
    }
    if n == 0 {
        warning(
            diags,
            MessageId::CREATEINPUTLAYOUT_EMPTY_LAYOUT,
            None,
            "the layout has no elements (NumElements 0); it can only serve a shader whose \
             input signature needs nothing from the input assembler [R2]"
                .to_string(),
        );
    }
    // `n <= limit <= MAX` from here on: the per-element arrays below cannot overflow.
    Some(&array[..n.min(MAX)])
}

/// What the array checks learned about one element.
#[derive(Clone, Copy, Default)]
pub(crate) struct ElementState {
    /// The class, when `InputSlotClass` is valid.
    class: Option<InputClass>,
    /// Whether `InputSlot` is in range.
    slot_ok: bool,
    /// The format's table row, when the format is a vertex format at some level (so its size
    /// and alignment are meaningful); `None` after 152/153.
    pub(crate) info: Option<&'static FormatInfo>,
    /// Whether the format raised no message at all (it is supported on this target); only
    /// then is it compared with the signature's type (no 391 on top of 1048599).
    pub(crate) format_ok: bool,
    /// The resolved offset, when it could be resolved.
    offset: Option<u32>,
}

/// Where the next `APPEND_ALIGNED` element of a slot goes.
#[derive(Clone, Copy, Default)]
enum AppendPoint {
    /// No element in the slot yet: offset 0.
    #[default]
    Start,
    /// The previous element (in array order) of the slot ends here.
    After(u64),
    /// The previous element's end is unknown (its format or offset was invalid): appended
    /// elements get no offset and no further message (no cascade).
    Unknown,
}

/// Per-slot state while walking the array.
#[derive(Clone, Copy, Default)]
struct SlotState {
    /// First element with a valid class in the slot: (index, class, step rate).
    first: Option<(usize, InputClass, u32)>,
    /// Where an appended element goes.
    append: AppendPoint,
}

/// The name as the runtime sees it (up to the first NUL; `None` for NULL), like
/// [`InputElementDesc::name`] but with a byte search, since matching looks names up often.
fn runtime_name(e: &InputElementDesc) -> Option<&str> {
    let name = e.semantic_name.as_deref()?;
    Some(match name.bytes().position(|b| b == 0) {
        Some(end) => &name[..end],
        None => name,
    })
}

/// Result of [`check_elements`]: per-element state, used by matching and to build the layout.
pub(crate) struct Checked<'a> {
    states: [ElementState; MAX],
    names: [Option<&'a str>; MAX],
    n: usize,
}

impl<'a> Checked<'a> {
    /// The state of element `i`.
    pub(crate) fn state(&self, i: usize) -> &ElementState {
        &self.states[i]
    }

    /// The runtime name of each element (NUL-terminated view; `None` for NULL).
    pub(crate) fn names(&self) -> &[Option<&'a str>] {
        &self.names[..self.n]
    }

    /// Builds the resolved layout; only called when no error was reported, so every element
    /// has a class, a slot, a format and an offset.
    pub(crate) fn build(
        &self,
        elements: &[InputElementDesc],
        register: impl Fn(usize) -> Option<u32>,
        signature: Signature,
    ) -> InputLayout {
        let mut out = Vec::with_capacity(self.n);
        // Per slot: (class, step rate, furthest end).
        let mut slots: [Option<(InputClass, u32, u64)>; MAX] = [None; MAX];
        for (i, e) in elements.iter().enumerate().take(self.n) {
            let st = &self.states[i];
            let class = st.class.unwrap_or(InputClass::PerVertex);
            let offset = st.offset.unwrap_or(0);
            let size = st.info.map(|f| f.byte_size()).unwrap_or(0);
            let step_rate = match class {
                InputClass::PerVertex => 0,
                InputClass::PerInstance => e.instance_data_step_rate,
            };
            if let Some(slot) = slots.get_mut(e.input_slot as usize) {
                let end = offset as u64 + size as u64;
                match slot {
                    Some((_, _, furthest)) => *furthest = (*furthest).max(end),
                    None => *slot = Some((class, step_rate, end)),
                }
            }
            out.push(LayoutElement {
                semantic_name: self.names[i].unwrap_or("").to_string(),
                semantic_index: e.semantic_index,
                format: e.format,
                slot: e.input_slot,
                offset,
                class,
                step_rate,
                register: register(i),
            });
        }
        let slots = slots
            .iter()
            .enumerate()
            .filter_map(|(slot, s)| {
                s.map(|(class, step_rate, end)| SlotLayout {
                    slot: slot as u32,
                    class,
                    step_rate,
                    // Explicit offsets have no upper bound (R28), so the end can pass u32.
                    min_stride: u32::try_from(end).unwrap_or(u32::MAX),
                })
            })
            .collect();
        InputLayout::from_parts(out, slots, signature)
    }
}

/// Validates every element (R8–R28, R41, R42) and resolves offsets. `elements` holds at most
/// [`MAX`] entries ([`check_count`] guarantees it).
pub(crate) fn check_elements<'a>(
    target: &Target,
    elements: &'a [InputElementDesc],
    diags: &mut Vec<Diagnostic>,
) -> Checked<'a> {
    let n = elements.len().min(MAX);
    let mut names = [None; MAX];
    for (name, e) in names.iter_mut().zip(elements) {
        *name = runtime_name(e);
    }
    let mut states = [ElementState::default(); MAX];
    let mut slots = [SlotState::default(); MAX];
    let max_slots = target.max_input_slots().min(MAX as u32);
    let instancing = target.instancing();

    for (i, e) in elements.iter().enumerate().take(n) {
        let who = Who(i, e);
        let st = &mut states[i];

        // R14 / R16 / R17: the name.
        match names[i] {
            None => error(
                diags,
                MessageId::CREATEINPUTLAYOUT_NULLSEMANTIC,
                Some(i),
                format!("{who}: SemanticName is NULL [R14]"),
            ),
            // Choice (§6.2): TRAILING_DIGIT_IN_SEMANTIC is a warning that never fails the
            // call, for used and extra elements alike. The failure Windows shows for
            // "POSITION2"/0 is explained by the missing element (163) on its own, and the
            // message is a hint about that mistake, not a rule of its own.
            Some(name) if name.ends_with(|c: char| c.is_ascii_digit()) => warning(
                diags,
                MessageId::CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC,
                Some(i),
                format!(
                    "{who}: SemanticName \"{}\" ends in a digit; names are compared whole and a \
                     trailing number is not read as the semantic index, so this element can \
                     only match a signature entry named \"{}\" with index {} (put the number in \
                     SemanticIndex instead) [R16]",
                    Name(name),
                    Name(name),
                    e.semantic_index
                ),
            ),
            Some(_) => {}
        }

        // R9 / R10: class and step rate.
        st.class = match e.input_slot_class {
            INPUT_PER_VERTEX_DATA => Some(InputClass::PerVertex),
            INPUT_PER_INSTANCE_DATA => Some(InputClass::PerInstance),
            other => {
                error(
                    diags,
                    MessageId::CREATEINPUTLAYOUT_INVALIDINPUTSLOTCLASS,
                    Some(i),
                    format!(
                        "{who}: InputSlotClass {other} is neither D3D11_INPUT_PER_VERTEX_DATA (0) \
                         nor D3D11_INPUT_PER_INSTANCE_DATA (1) [R9]"
                    ),
                );
                None
            }
        };
        if st.class == Some(InputClass::PerVertex) && e.instance_data_step_rate != 0 {
            error(
                diags,
                MessageId::CREATEINPUTLAYOUT_STEPRATESLOTCLASSMISMATCH,
                Some(i),
                format!(
                    "{who}: InstanceDataStepRate is {} but the element is per-vertex, which \
                     requires 0 [R10]",
                    e.instance_data_step_rate
                ),
            );
        }

        // R41: 10Level9 instancing. Choice (§6.8, and the D3D10.1-at-9_x question): the same
        // restrictions and ids apply whichever runtime drives a 9_x device, because they come
        // from the level-9 hardware, not from the runtime; the D3D10 message enum has no ids
        // of its own for them.
        if st.class == Some(InputClass::PerInstance) {
            match instancing {
                Instancing::None => error(
                    diags,
                    MessageId::CREATEINPUTLAYOUT_LEVEL9_INSTANCING_NOT_SUPPORTED,
                    Some(i),
                    format!(
                        "{who}: per-instance data is not supported at feature level {}, which \
                         has no instancing [R41]",
                        target.feature_level
                    ),
                ),
                Instancing::StepRateOne if e.instance_data_step_rate != 1 => error(
                    diags,
                    MessageId::CREATEINPUTLAYOUT_LEVEL9_STEPRATE_NOT_1,
                    Some(i),
                    format!(
                        "{who}: InstanceDataStepRate is {}, but at feature level {} per-instance \
                         elements must step once per instance (step rate 1) [R41]",
                        e.instance_data_step_rate, target.feature_level
                    ),
                ),
                _ => {}
            }
        }

        // R8: slot range.
        st.slot_ok = e.input_slot < max_slots;
        if !st.slot_ok {
            error(
                diags,
                MessageId::CREATEINPUTLAYOUT_INVALIDSLOT,
                Some(i),
                format!(
                    "{who}: InputSlot {} is out of range; {} at feature level {} has {} input \
                     slots (0–{}) [R8]",
                    e.input_slot,
                    target.api,
                    target.feature_level,
                    max_slots,
                    max_slots - 1
                ),
            );
        }

        // R20 / R42: the format.
        let errors_before = diags.len();
        st.info = check_format(target, i, e, diags);
        st.format_ok = diags.len() == errors_before;

        // R25 / R26: the offset.
        let slot = st.slot_ok.then(|| &mut slots[e.input_slot as usize]);
        st.offset = resolve_offset(i, e, st.info, slot.as_deref(), diags);
        if let Some(slot) = slot {
            slot.append = match (st.offset, st.info) {
                (Some(offset), Some(info)) => {
                    AppendPoint::After(offset as u64 + info.byte_size() as u64)
                }
                _ => AppendPoint::Unknown,
            };
            // R12 / R13: one class and one step rate per slot, unused elements included.
            if let Some(class) = st.class {
                check_slot_consistency(i, e, class, slot, diags);
            }
        }
    }

    // R19: duplicate semantics, after the per-element messages so that each element's
    // own problems come first. n <= 32: the quadratic scan costs nothing and allocates nothing.
    check_duplicates(&elements[..n], &names[..n], diags);

    // R41, 9_3: slot 0 must be per-vertex when the layout has per-vertex data.
    if instancing == Instancing::StepRateOne {
        check_level9_slot_zero(target, elements, &states[..n], diags);
    }

    Checked { states, names, n }
}

/// R20 / R42: returns the format's table row when its size is meaningful (a vertex format at
/// some feature level), reporting 152, 153 or 1048599 as needed.
fn check_format(
    target: &Target,
    i: usize,
    e: &InputElementDesc,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'static FormatInfo> {
    let who = Who(i, e);
    let info = match e.format.info() {
        Some(info) if info.family != Family::Unknown => info,
        Some(_) => {
            error(
                diags,
                MessageId::CREATEINPUTLAYOUT_INVALIDFORMAT,
                Some(i),
                format!(
                    "{who}: Format is DXGI_FORMAT_UNKNOWN (0); an input element needs a typed \
                     vertex format [R20]"
                ),
            );
            return None;
        }
        None => {
            error(
                diags,
                MessageId::CREATEINPUTLAYOUT_INVALIDFORMAT,
                Some(i),
                format!(
                    "{who}: Format {} is not a DXGI_FORMAT value [R20]",
                    e.format.0
                ),
            );
            return None;
        }
    };
    if !info.is_vertex_format() {
        error(
            diags,
            MessageId::CREATEINPUTLAYOUT_INCOMPATIBLEFORMAT,
            Some(i),
            format!(
                "{who}: Format {} can never be read from a vertex buffer at any feature level \
                 (typeless, sRGB, depth, block-compressed, shared-exponent, video and A8 \
                 formats are not vertex formats) [R20]",
                info.name
            ),
        );
        return None;
    }
    if !target.supports_vertex_format(e.format) && target.api.is_d3d12() {
        // D3D12 has no UNSUPPORTED_FORMAT message (d3d12sdklayers.h): an optional format the
        // device lacks is reported as incompatible (choice, d3d12-rules.md P14).
        error(
            diags,
            MessageId::CREATEINPUTLAYOUT_INCOMPATIBLEFORMAT,
            Some(i),
            format!(
                "{who}: Format {} is optional for vertex buffers in Direct3D 12 and this target \
                 treats optional formats as unsupported [R20, P14]",
                info.name
            ),
        );
    } else if !target.supports_vertex_format(e.format) {
        let why = if info.vertex_support(target.feature_level) == Support::Optional {
            "is optional for vertex buffers at feature level {fl} and this target treats \
             optional formats as unsupported"
        } else {
            "is not supported for vertex buffers at feature level {fl}"
        };
        error(
            diags,
            MessageId::CREATEINPUTLAYOUT_UNSUPPORTED_FORMAT,
            Some(i),
            format!(
                "{who}: Format {} {} [R20, R42]",
                info.name,
                why.replace("{fl}", target.feature_level.as_str())
            ),
        );
        // The format is well defined, so its size still resolves offsets and alignment.
    }
    Some(info)
}

/// R25 / R26: checks an explicit offset's alignment or resolves `APPEND_ALIGNED`.
///
/// Choice (§6.6): the "previous element" of `APPEND_ALIGNED` is the last element of the same
/// slot **in array order** (unused elements included), not the one that ends furthest: the
/// spec and Learn say the element goes "directly after the previous one", both
/// re-implementations that fixed real games (DXVK, Wine) read it that way, and the two
/// readings agree on every Windows-tested case. The appended offset is rounded up to the new
/// element's own alignment, so 1-byte after 1-byte packs tightly (offset 1; spec 4.4.6).
///
/// Choice (§6.7): explicit offsets have no upper bound (R28: no evidence of a creation-time
/// check; the 2048-byte limit applies to strides at `IASetVertexBuffers`). An appended offset
/// that would not fit in 32 bits (or would equal the `APPEND_ALIGNED` value itself) is
/// refused with message id 0, since the real runtime's 32-bit arithmetic would wrap.
fn resolve_offset(
    i: usize,
    e: &InputElementDesc,
    info: Option<&'static FormatInfo>,
    slot: Option<&SlotState>,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let who = Who(i, e);
    if e.aligned_byte_offset != APPEND_ALIGNED_ELEMENT {
        let offset = e.aligned_byte_offset;
        if let Some(info) = info {
            let align = info.offset_alignment();
            if !offset.is_multiple_of(align) {
                error(
                    diags,
                    MessageId::CREATEINPUTLAYOUT_INVALIDALIGNMENT,
                    Some(i),
                    format!(
                        "{who}: AlignedByteOffset {offset} is not a multiple of {align}, the \
                         alignment {} needs (min(next power of two of its {}-byte size, 4)) \
                         [R25]",
                        info.name,
                        info.byte_size()
                    ),
                );
            }
        }
        return Some(offset);
    }
    let (info, slot) = (info?, slot?);
    let start = match slot.append {
        AppendPoint::Start => 0,
        AppendPoint::After(end) => end,
        AppendPoint::Unknown => return None,
    };
    let align = info.offset_alignment() as u64;
    let offset = start.div_ceil(align) * align;
    match u32::try_from(offset) {
        Ok(o) if o != APPEND_ALIGNED_ELEMENT => Some(o),
        _ => {
            error(
                diags,
                MessageId::UNKNOWN,
                Some(i),
                format!(
                    "{who}: D3D11_APPEND_ALIGNED_ELEMENT would place the element at byte \
                     {offset} of slot {}, which does not fit in a 32-bit offset (the previous \
                     element of the slot ends at byte {start}); the real runtime's arithmetic \
                     would wrap, inlay refuses it [R26]",
                    e.input_slot
                ),
            );
            None
        }
    }
}

/// R12 / R13: the slot's class and step rate are set by its first element with a valid class.
fn check_slot_consistency(
    i: usize,
    e: &InputElementDesc,
    class: InputClass,
    slot: &mut SlotState,
    diags: &mut Vec<Diagnostic>,
) {
    let who = Who(i, e);
    let step = e.instance_data_step_rate;
    let Some((first, first_class, first_step)) = slot.first else {
        slot.first = Some((i, class, step));
        return;
    };
    let describe = |c: InputClass| match c {
        InputClass::PerVertex => "per-vertex",
        InputClass::PerInstance => "per-instance",
    };
    if class != first_class {
        error(
            diags,
            MessageId::CREATEINPUTLAYOUT_INVALIDSLOTCLASSCHANGE,
            Some(i),
            format!(
                "{who}: the element is {} but slot {} holds {} data (from element {first}); \
                 every element of a slot must use the same InputSlotClass, including elements \
                 the shader does not read [R12]",
                describe(class),
                e.input_slot,
                describe(first_class)
            ),
        );
    } else if class == InputClass::PerInstance && step != first_step {
        error(
            diags,
            MessageId::CREATEINPUTLAYOUT_INVALIDSTEPRATECHANGE,
            Some(i),
            format!(
                "{who}: InstanceDataStepRate {step} differs from the step rate {first_step} \
                 that element {first} set for slot {}; every per-instance element of a slot \
                 must use the same step rate [R13]",
                e.input_slot
            ),
        );
    }
}

/// R19: the same SemanticName + SemanticIndex twice.
///
/// Choice (§6.1): names compare case-insensitively, as in signature matching (two elements
/// that differ only in case would feed the same signature entry, and the spec allows one
/// element per register); unused elements count too (the D3D12 twin of this message checks
/// every semantic of the layout). Reported once, on the later element, naming the first.
fn check_duplicates(
    elements: &[InputElementDesc],
    names: &[Option<&str>],
    diags: &mut Vec<Diagnostic>,
) {
    for (i, e) in elements.iter().enumerate() {
        let Some(name) = names[i] else { continue };
        let earlier = (0..i).find(|&j| {
            elements[j].semantic_index == e.semantic_index
                && names[j].is_some_and(|n| n.eq_ignore_ascii_case(name))
        });
        if let Some(j) = earlier {
            error(
                diags,
                MessageId::CREATEINPUTLAYOUT_DUPLICATESEMANTIC,
                Some(i),
                format!(
                    "{}: the semantic is already used by {} (names compare case-insensitively); \
                     each SemanticName + SemanticIndex pair may appear only once [R19]",
                    Who(i, e),
                    Who(j, &elements[j])
                ),
            );
        }
    }
}

/// R41 at 9_3: slot 0 may not hold per-instance data when the layout has per-vertex data.
///
/// Choice (§6.8): the message is raised when slot 0's class (set by its first element) is
/// per-instance and some other slot holds per-vertex data; mixed classes inside slot 0 are
/// already the class-change error (157), and a layout with an empty slot 0 is accepted.
fn check_level9_slot_zero(
    target: &Target,
    elements: &[InputElementDesc],
    states: &[ElementState],
    diags: &mut Vec<Diagnostic>,
) {
    let valid = || {
        elements
            .iter()
            .zip(states)
            .enumerate()
            .filter(|(_, (_, s))| s.slot_ok)
            .filter_map(|(i, (e, s))| s.class.map(|c| (i, e.input_slot, c)))
    };
    let slot0 = valid().find(|&(_, slot, _)| slot == 0);
    let Some((first, _, InputClass::PerInstance)) = slot0 else {
        return;
    };
    if let Some((vertex, _, _)) =
        valid().find(|&(_, slot, c)| slot != 0 && c == InputClass::PerVertex)
    {
        error(
            diags,
            MessageId::SLOT_ZERO_MUST_BE_D3D10_INPUT_PER_VERTEX_DATA,
            Some(first),
            format!(
                "{}: slot 0 holds per-instance data while the layout also has per-vertex data \
                 ({}); at feature level {} slot 0 must be per-vertex [R41]",
                Who(first, &elements[first]),
                Who(vertex, &elements[vertex]),
                target.feature_level
            ),
        );
    }
}
