//! `CreateInputLayout`: the HRESULT Windows returns, the debug-layer messages it raises and
//! the resolved layout it creates.
//!
//! Rules R1–R43 of `createinputlayout-rules.md` are implemented here (R44–R48 belong to the
//! input assembler, which reads the [`InputLayout`] this module produces). The work is split
//! in two passes:
//!
//! 1. [`array`](self) checks — everything that depends on the element array alone: the
//!    pointer and count (R1–R4), slots, classes and step rates (R8–R13, R41), names (R14,
//!    R16, R17, R19), formats (R20, R42), offsets and `APPEND_ALIGNED` (R24–R28);
//! 2. matching — the array against the shader's input signature (R31–R37): missing elements,
//!    registers, type-mismatch warnings.
//!
//! # Entry points
//!
//! * [`create_input_layout`] takes the shader bytecode, as the real call does;
//! * [`create_input_layout_with_signature`] takes an already parsed signature (or the reason
//!   there is none), for callers that parse bytecode themselves;
//! * [`layout_without_shader`] validates an array with no shader at all and gives element *i*
//!   register *i* (the CLI's `decode` without a shader).
//!
//! # Reporting
//!
//! Validation reports **every independent error** it finds, not just the first, in this
//! order: count-level messages (164, 151, 420), then one group per element in array order
//! (name, class, step rate, level-9 instancing, slot, format, offset, slot consistency), then
//! the cross-element checks (duplicate semantics 160, the 9_3 slot-0 rule 1048633), then the
//! signature-level messages in signature order (type mismatches 391, missing elements 163) or
//! the unreadable-signature error (161). Checks that depend on a value already
//! reported as invalid are skipped so that one mistake gives one message: an element whose
//! format is invalid (152/153) gets no alignment (159) or type-mismatch (391) message, an
//! element with an invalid class (155) takes part in no slot-class comparison (157/158), an
//! element in an invalid slot (154) in no per-slot check, and an element with an invalid
//! format still *supplies* its semantic, so no missing-element error (163) follows from it.
//! A count error (151, or `NumElements` larger than the array) stops validation: the array
//! itself is then not trustworthy and checking it would be unbounded work.
//!
//! Behaviour choices for the open questions of the rules file (§6) are documented at the code
//! that makes them and collected in `docs/notes/validation.md`.

// Parsers and the reference path never need `unsafe` (only `fetch::simd` may use it).
#![forbid(unsafe_code)]

mod array;
mod matching;
mod text;

pub use matching::{is_system_generated_input, supplies};

use std::borrow::Cow;

use crate::diag::{Diagnostic, HResult, MessageId, Severity};
use crate::dxbc::Container;
use crate::dxbc::signature::Signature;
use crate::element::InputElementDesc;
use crate::layout::InputLayout;
use crate::target::Target;

/// Why there is no input signature to match against (R29–R32). Every variant makes
/// `CreateInputLayout` fail with `E_INVALIDARG` and message
/// `CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE` (161).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureProblem {
    /// No bytecode at all: a NULL pointer or a zero length (open question §6.4; inlay treats
    /// it like any unreadable bytecode).
    #[error("no shader bytecode was given (NULL pointer or zero length)")]
    NoBytecode,
    /// The bytes are not a DXBC container that can be read (bad magic, sizes, chunk offsets,
    /// checksum); the text says what and where.
    #[error("the shader bytecode is not a readable DXBC container: {0}")]
    Container(String),
    /// The container is readable but holds no `ISGN`/`ISG1` chunk (R32; inlay follows DXVK
    /// and refuses, see `docs/notes/validation.md`).
    #[error("the shader bytecode holds no input signature chunk (ISGN or ISG1)")]
    NoInputSignature,
    /// The input signature chunk exists but cannot be read; the text says what and where.
    #[error("the input signature chunk cannot be read: {0}")]
    Signature(String),
    /// The container's digest (bytes 4..20) does not match its contents.
    #[error(
        "the DXBC digest stored at bytes 4..20 ({}) does not match the contents ({})",
        hex(stored),
        hex(computed)
    )]
    Checksum {
        /// The digest stored in the container.
        stored: [u8; 16],
        /// The digest computed over the contents.
        computed: [u8; 16],
    },
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What one `CreateInputLayout` call gives: its HRESULT, the debug layer's messages and, on
/// success, the resolved layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Creation {
    /// The HRESULT the call returns: `S_OK`, `S_FALSE` (validate-only success, R5) or
    /// `E_INVALIDARG`.
    pub hresult: HResult,
    /// Every message the debug layer would print, errors and warnings, in the order described
    /// in the [module documentation](self).
    pub diagnostics: Vec<Diagnostic>,
    /// The resolved layout when the call succeeds — also in validate-only mode, where it is
    /// the layout that *would* have been created (the real call creates nothing there) —
    /// and `None` when it fails (inlay's model of `*ppInputLayout` after a failure is "no
    /// object", open question §6.9).
    pub layout: Option<InputLayout>,
}

impl Creation {
    /// The diagnostics of severity [`Severity::Error`].
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// The diagnostics of severity [`Severity::Warning`].
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
    }

    /// Message ids of the errors, in report order.
    pub fn error_ids(&self) -> Vec<MessageId> {
        self.errors().map(|d| d.id).collect()
    }

    /// Message ids of the warnings, in report order.
    pub fn warning_ids(&self) -> Vec<MessageId> {
        self.warnings().map(|d| d.id).collect()
    }

    /// Whether the HRESULT is a success code (`S_OK` or `S_FALSE`).
    pub fn is_success(&self) -> bool {
        self.hresult.is_success()
    }

    fn finish(
        diagnostics: Vec<Diagnostic>,
        layout: impl FnOnce() -> InputLayout,
        validate_only: bool,
    ) -> Creation {
        if diagnostics.iter().any(|d| d.severity == Severity::Error) {
            Creation {
                hresult: HResult::E_INVALIDARG,
                diagnostics,
                layout: None,
            }
        } else {
            Creation {
                hresult: if validate_only {
                    HResult::S_FALSE
                } else {
                    HResult::S_OK
                },
                diagnostics,
                layout: Some(layout()),
            }
        }
    }

    fn refused(diagnostics: Vec<Diagnostic>) -> Creation {
        Creation {
            hresult: HResult::E_INVALIDARG,
            diagnostics,
            layout: None,
        }
    }
}

/// `ID3D11Device::CreateInputLayout` (and its D3D10/D3D10.1 twins, per `target.api`) with an
/// input signature that is already parsed — or the reason none could be read.
///
/// * `elements`: `None` models a NULL `pInputElementDescs` (R1: `E_INVALIDARG`, 164, even
///   with `num_elements == 0`).
/// * `num_elements`: the `NumElements` argument. Only the first `num_elements` entries of the
///   slice are used; a count larger than the slice (the real call would read past the array:
///   undefined behaviour) is refused with `E_INVALIDARG` and a message of id
///   [`MessageId::UNKNOWN`] (0), unless the count already exceeds the element limit (151).
/// * `signature`: the shader's input signature, or the [`SignatureProblem`] that prevented
///   reading it (R31/R32: `E_INVALIDARG`, 161; the element array is still validated).
/// * `validate_only`: models a NULL `ppInputLayout` (R5: success is `S_FALSE`).
///
/// ```
/// use inlay::dxbc::signature::{ComponentType, Signature, SignatureElement, SystemValue, MinPrecision};
/// use inlay::element::{InputElementDesc, APPEND_ALIGNED_ELEMENT};
/// use inlay::format::Format;
/// use inlay::target::Target;
/// use inlay::validation::create_input_layout_with_signature;
/// use inlay::diag::HResult;
///
/// let input = |name: &str, register| SignatureElement {
///     stream: 0, semantic_name: name.into(), semantic_index: 0,
///     system_value: SystemValue::UNDEFINED, component_type: ComponentType::FLOAT32,
///     register, mask: 0b0111, read_write_mask: 0b0111, min_precision: MinPrecision(0),
/// };
/// let signature = Signature { elements: vec![input("POSITION", 0), input("COLOR", 1)] };
/// let elements = [
///     InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
///     InputElementDesc::per_vertex("color", 0, Format::R8G8B8A8_UNORM, 0, APPEND_ALIGNED_ELEMENT),
/// ];
/// let c = create_input_layout_with_signature(&Target::default(), Some(&elements), 2, Ok(&signature), false);
/// assert_eq!(c.hresult, HResult::S_OK);
/// let layout = c.layout.unwrap();
/// assert_eq!(layout.elements[1].offset, 12);
/// assert_eq!(layout.elements[1].register, Some(1));
/// assert_eq!(layout.slots[0].min_stride, 16);
/// ```
pub fn create_input_layout_with_signature(
    target: &Target,
    elements: Option<&[InputElementDesc]>,
    num_elements: u32,
    signature: Result<&Signature, SignatureProblem>,
    validate_only: bool,
) -> Creation {
    create(
        target,
        elements,
        num_elements,
        signature.map(Cow::Borrowed),
        validate_only,
    )
}

/// The shared body of the two `CreateInputLayout` entry points; an owned signature (parsed
/// from bytecode) moves into the layout instead of being copied.
fn create(
    target: &Target,
    elements: Option<&[InputElementDesc]>,
    num_elements: u32,
    signature: Result<Cow<'_, Signature>, SignatureProblem>,
    validate_only: bool,
) -> Creation {
    let mut diagnostics = Vec::new();
    let Some(elements) = array::check_count(target, elements, num_elements, &mut diagnostics)
    else {
        return Creation::refused(diagnostics);
    };
    let checked = array::check_elements(target, elements, &mut diagnostics);
    let registers = match &signature {
        Ok(sig) => matching::match_signature(elements, &checked, sig, &mut diagnostics),
        Err(problem) => {
            diagnostics.push(Diagnostic {
                id: MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE,
                severity: Severity::Error,
                element: None,
                message: format!(
                    "{problem}; CreateInputLayout needs the shader's input signature to match \
                     the elements against [R31]"
                ),
            });
            matching::Registers::none()
        }
    };
    Creation::finish(
        diagnostics,
        || {
            let sig = signature.map(Cow::into_owned).unwrap_or_default();
            checked.build(elements, |i| registers.get(i), sig)
        },
        validate_only,
    )
}

/// Validates an element array with no shader (everything except signature matching:
/// R2–R4, R8–R28, R41, R42) and resolves it, giving element *i* input register *i* in array
/// order.
///
/// This is what the CLI's `decode` uses when the user gives no shader: the layout then
/// describes "one register per element". The layout's signature is empty, so
/// [`InputLayout::is_compatible_with`] only accepts an empty signature. The element count is
/// the slice length (there is no NULL-pointer or count-mismatch case); an empty slice gives
/// `S_OK` with the empty-layout warning (420), as with a shader that has no inputs.
///
/// ```
/// use inlay::element::{InputElementDesc, APPEND_ALIGNED_ELEMENT};
/// use inlay::format::Format;
/// use inlay::target::Target;
/// use inlay::validation::layout_without_shader;
/// let elements = [
///     InputElementDesc::per_vertex("A", 0, Format::R8_UNORM, 0, 0),
///     InputElementDesc::per_vertex("B", 0, Format::R32_FLOAT, 0, APPEND_ALIGNED_ELEMENT),
/// ];
/// let layout = layout_without_shader(&Target::default(), &elements).layout.unwrap();
/// assert_eq!((layout.elements[1].offset, layout.elements[1].register), (4, Some(1)));
/// ```
pub fn layout_without_shader(target: &Target, elements: &[InputElementDesc]) -> Creation {
    let mut diagnostics = Vec::new();
    let count = u32::try_from(elements.len()).unwrap_or(u32::MAX);
    let Some(elements) = array::check_count(target, Some(elements), count, &mut diagnostics) else {
        return Creation::refused(diagnostics);
    };
    let checked = array::check_elements(target, elements, &mut diagnostics);
    Creation::finish(
        diagnostics,
        || checked.build(elements, |i| Some(i as u32), Signature::default()),
        false,
    )
}

/// `ID3D11Device::CreateInputLayout` with shader bytecode: reads the input signature with
/// [`read_input_signature`] (R29–R32), then behaves as
/// [`create_input_layout_with_signature`].
///
/// An empty `bytecode` models a NULL pointer or a zero length.
///
/// ```
/// use inlay::diag::{HResult, MessageId};
/// use inlay::dxbc::{signature_blob, ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
/// use inlay::element::InputElementDesc;
/// use inlay::format::Format;
/// use inlay::target::Target;
/// use inlay::validation::create_input_layout;
///
/// let position = SignatureElement {
///     stream: 0, semantic_name: "POSITION".into(), semantic_index: 0,
///     system_value: SystemValue::UNDEFINED, component_type: ComponentType::FLOAT32,
///     register: 0, mask: 0xf, read_write_mask: 0xf, min_precision: MinPrecision(0),
/// };
/// let blob = signature_blob(&Signature { elements: vec![position] });
/// let elements = [InputElementDesc::per_vertex("POSITION2", 0, Format::R32G32B32_FLOAT, 0, 0)];
/// let c = create_input_layout(&Target::default(), Some(&elements), 1, &blob, false);
/// assert_eq!(c.hresult, HResult::E_INVALIDARG);
/// assert_eq!(c.error_ids(), [MessageId::CREATEINPUTLAYOUT_MISSINGELEMENT]);
/// assert_eq!(c.warning_ids(), [MessageId::CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC]);
/// ```
pub fn create_input_layout(
    target: &Target,
    elements: Option<&[InputElementDesc]>,
    num_elements: u32,
    bytecode: &[u8],
    validate_only: bool,
) -> Creation {
    create(
        target,
        elements,
        num_elements,
        read_input_signature(bytecode).map(Cow::Owned),
        validate_only,
    )
}

/// Reads the input signature `CreateInputLayout` matches against out of shader bytecode
/// (R29–R32): any DXBC container — a full shader of any stage, or a signature-only blob — with
/// an `ISG1` or `ISGN` chunk (`ISG1` preferred when both exist; [`Container::input_signature`]).
///
/// Choices (§6.4, R31, R32), each an error value naming what is wrong:
/// * empty bytecode (NULL / zero length) → [`SignatureProblem::NoBytecode`];
/// * a container that does not parse → [`SignatureProblem::Container`];
/// * a digest that does not match the contents → [`SignatureProblem::Checksum`]. The runtime
///   is taken to verify the digest as it does for shader creation: the nearest Windows
///   evidence (the D3D12 runtime rejecting unsigned DXBC, R31) points that way, Wine does the
///   same, and every blob fxc or `D3DGetInputSignatureBlob` produces is signed;
/// * no `ISGN`/`ISG1` chunk → [`SignatureProblem::NoInputSignature`] (DXVK's reading of R32;
///   Wine's "empty signature" would silently accept any layout against a blob that has no
///   inputs described at all);
/// * a signature chunk that does not parse → [`SignatureProblem::Signature`].
///
/// `ISG1` is accepted on every target (the D3D10 and D3D11.0 runtimes may not know it; inlay
/// does not model runtime versions below the API).
pub fn read_input_signature(bytecode: &[u8]) -> Result<Signature, SignatureProblem> {
    if bytecode.is_empty() {
        return Err(SignatureProblem::NoBytecode);
    }
    let container =
        Container::parse(bytecode).map_err(|e| SignatureProblem::Container(e.to_string()))?;
    if !container.checksum_matches() {
        return Err(SignatureProblem::Checksum {
            stored: container.digest(),
            computed: container.computed_digest(),
        });
    }
    match container.input_signature() {
        Ok(Some(signature)) => Ok(signature),
        Ok(None) => Err(SignatureProblem::NoInputSignature),
        Err(e) => Err(SignatureProblem::Signature(e.to_string())),
    }
}
