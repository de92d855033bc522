//! Matching the element array against the shader's input signature (R15, R16, R18, R22,
//! R23, R33–R37).

use crate::diag::{Diagnostic, MessageId, Severity};
use crate::dxbc::signature::{
    ComponentType, Signature, SignatureElement, SystemValue, mask_letters,
};
use crate::element::InputElementDesc;
use crate::format::{FormatInfo, Kind};
use crate::target::Target;

use super::array::{Checked, MAX};
use super::text::{Semantic, Who};

/// The input register each element feeds, by element index.
pub(crate) struct Registers([Option<u32>; MAX]);

impl Registers {
    /// No element feeds anything (no signature).
    pub(crate) fn none() -> Self {
        Registers([None; MAX])
    }

    /// The register element `i` feeds.
    pub(crate) fn get(&self, i: usize) -> Option<u32> {
        self.0.get(i).copied().flatten()
    }
}

/// Whether a signature entry is exempt from the missing-element check (R33).
///
/// The exemption is decided by **name** (case-insensitive), not by the system-value field:
/// Windows lets a PS-signature entry named SV_InstanceID with system value NONE go unfed and
/// requires SV_Position whatever its system value. Choice (§6.5): only SV_VertexID and
/// SV_InstanceID are exempt — the only names with Windows evidence; other system-generated
/// names (SV_PrimitiveID, SV_IsFrontFace, SV_SampleIndex, …) are required like any
/// semantic, because requiring is what Windows does for every other tested name.
pub fn is_system_generated_input(name: &str) -> bool {
    [SystemValue::VERTEX_ID, SystemValue::INSTANCE_ID]
        .iter()
        .filter_map(|sv| sv.semantic())
        .any(|semantic| name.eq_ignore_ascii_case(semantic))
}

/// Whether a layout element with this name and index supplies the signature entry (R15,
/// R16): the whole name compared case-insensitively (ASCII case folding only, like the C
/// runtime's `stricmp` in the "C" locale) and the same index; only stream 0 counts (R35).
pub fn supplies(name: &str, index: u32, entry: &SignatureElement) -> bool {
    entry.stream == 0
        && entry.semantic_index == index
        && entry.semantic_name.eq_ignore_ascii_case(name)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TypeClass {
    FloatLike,
    Uint,
    Sint,
}

impl TypeClass {
    fn of_format(info: &FormatInfo) -> Option<TypeClass> {
        match info.first_kind()? {
            k if k.is_float_like() => Some(TypeClass::FloatLike),
            Kind::Uint => Some(TypeClass::Uint),
            Kind::Sint => Some(TypeClass::Sint),
            _ => None,
        }
    }

    fn of_signature(t: ComponentType) -> Option<TypeClass> {
        match t {
            ComponentType::FLOAT32 => Some(TypeClass::FloatLike),
            ComponentType::UINT32 => Some(TypeClass::Uint),
            ComponentType::SINT32 => Some(TypeClass::Sint),
            _ => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            TypeClass::FloatLike => "float (FLOAT/UNORM/SNORM)",
            TypeClass::Uint => "unsigned integer (UINT)",
            TypeClass::Sint => "signed integer (SINT)",
        }
    }
}

/// Finds each element's signature entry and register, warns about type mismatches (R23) and
/// reports every required entry no element supplies (R33).
///
/// Choice (§6.5, second part): an element that supplies SV_VertexID or SV_InstanceID gets no
/// register: the input assembler generates those values itself (spec 8.16, 8.18), so memory
/// data must not also be written to that register. Choice (§6.10): elements that match
/// nothing stay in the layout with no register (they still shape `APPEND_ALIGNED` offsets and
/// slot strides, R26/R34) and the input assembler ignores them; an element feeds the register
/// its entry names even when another entry shares that register.
pub(crate) fn match_signature(
    target: &Target,
    elements: &[InputElementDesc],
    checked: &Checked<'_>,
    signature: &Signature,
    diags: &mut Vec<Diagnostic>,
) -> Registers {
    let names = checked.names();
    let mut registers = Registers::none();
    // Which elements already found their entry: the first entry (in signature order) an
    // element supplies is the one it feeds.
    let mut matched = [false; MAX];
    for entry in &signature.elements {
        if entry.stream != 0 {
            continue;
        }
        let supplier = names.iter().enumerate().find(|&(i, name)| {
            name.is_some_and(|n| supplies(n, elements[i].semantic_index, entry))
        });
        match supplier {
            Some((i, _)) => {
                if matched[i] {
                    continue;
                }
                matched[i] = true;
                if !is_system_generated_input(&entry.semantic_name) {
                    match entry.register() {
                        Some(r) if r >= MAX_INPUT_REGISTER => {
                            register_out_of_range(i, &elements[i], entry, r, diags)
                        }
                        reg => registers.0[i] = reg,
                    }
                }
                let state = checked.state(i);
                if let (Some(info), true) = (state.info, state.format_ok) {
                    type_check(target, i, &elements[i], info, entry, diags);
                }
            }
            None if is_system_generated_input(&entry.semantic_name) => {}
            None => missing(elements, names, entry, diags),
        }
    }
    registers
}

/// R23 / R37: a format whose data class differs from the entry's component type warns.
///
/// D3D12 (P15): its debug layer knows only the 32-bit component types and reports a 16-bit
/// (or 64-bit) input as type `unknown`, so every such input warns whatever the format (Dawn
/// filters the message for f16 vertex inputs, crbug.com/tint/1473; engines do the same for
/// "half type input"); under D3D10/D3D11 a type inlay does not know is skipped.
fn type_check(
    target: &Target,
    i: usize,
    e: &InputElementDesc,
    info: &FormatInfo,
    entry: &SignatureElement,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(data) = TypeClass::of_format(info) else {
        return;
    };
    let declared = TypeClass::of_signature(entry.component_type);
    if declared.is_none() && target.api.is_d3d12() {
        diags.push(Diagnostic {
            id: MessageId::CREATEINPUTLAYOUT_TYPE_MISMATCH,
            severity: Severity::Warning,
            element: Some(i),
            message: format!(
                "{}: the shader declares {} as {}, a type the D3D12 debug layer reports as \
                 `unknown`, so it warns whatever the format ({}); the layout is still created \
                 [R23, P15]",
                Who(i, e),
                register_name(entry),
                entry.component_type.dxil_name(),
                info.name
            ),
        });
        return;
    }
    let Some(declared) = declared else {
        return;
    };
    if data != declared {
        diags.push(Diagnostic {
            id: MessageId::CREATEINPUTLAYOUT_TYPE_MISMATCH,
            severity: Severity::Warning,
            element: Some(i),
            message: format!(
                "{}: Format {} delivers {} data but the shader declares {} as {}; the layout \
                 is still created, the format decides the conversion and the shader \
                 reinterprets the bits [R23]",
                Who(i, e),
                info.name,
                data.describe(),
                register_name(entry),
                declared.describe()
            ),
        });
    }
}

/// "POSITION0 (v0, float)".
fn register_name(entry: &SignatureElement) -> String {
    let reg = match entry.register() {
        Some(r) => format!("v{r}"),
        None => "no register".to_string(),
    };
    format!(
        "{} ({reg}, {})",
        Semantic(&entry.semantic_name, entry.semantic_index),
        entry.component_type.fxc_name()
    )
}

/// R33: one error per required entry that no element supplies.
/// `D3D11_VS_INPUT_REGISTER_COUNT`: no input register of any stage is numbered 32 or above.
const MAX_INPUT_REGISTER: u32 = 32;

/// A matched signature entry names an input register no shader stage has (only a damaged or
/// hand-made blob can: fxc numbers inputs below 32). Choice: the signature is unusable, as
/// for any other unreadable signature (R31, message 161), so a created layout never feeds a
/// register outside v0…v31.
fn register_out_of_range(
    i: usize,
    element: &InputElementDesc,
    entry: &SignatureElement,
    register: u32,
    diags: &mut Vec<Diagnostic>,
) {
    diags.push(Diagnostic {
        id: MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE,
        severity: Severity::Error,
        element: Some(i),
        message: format!(
            "{} matches the signature entry {}{}, which names input register v{register}; \
             input registers end at v31, so the signature cannot be used (R31)",
            Who(i, element),
            entry.semantic_name,
            entry.semantic_index
        ),
    });
}

fn missing(
    elements: &[InputElementDesc],
    names: &[Option<&str>],
    entry: &SignatureElement,
    diags: &mut Vec<Diagnostic>,
) {
    let read = if entry.read_write_mask & 0xf == 0 {
        "never read by the shader, but still required".to_string()
    } else {
        format!("read as .{}", mask_letters(entry.read_write_mask & 0xf))
    };
    // A hint for the common mistake of writing the index into the name (R16).
    let glued = format!("{}{}", entry.semantic_name, entry.semantic_index);
    let hint = names
        .iter()
        .zip(elements)
        .enumerate()
        .find(|(_, (n, _))| n.is_some_and(|n| n.eq_ignore_ascii_case(&glued)))
        .map(|(j, (_, e))| {
            format!(
                "; {} has the index in its name, which is compared whole",
                Who(j, e)
            )
        })
        .unwrap_or_default();
    diags.push(Diagnostic {
        id: MessageId::CREATEINPUTLAYOUT_MISSINGELEMENT,
        severity: Severity::Error,
        element: None,
        message: format!(
            "the shader's input signature has {} ({read}) and no element supplies it (the name \
             must match case-insensitively and the SemanticIndex exactly){hint} [R33]",
            register_name(entry)
        ),
    });
}
