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
//! * [`create_input_layout`] — the everyday call: elements (count from the slice) and shader
//!   bytecode; [`Creation::into_result`] makes it a `Result` for `?`;
//! * [`CreateInputLayout`] — the exact C call as a builder: an explicit `NumElements`, a NULL
//!   array, validate-only (NULL `ppInputLayout`), an already parsed signature (or the reason
//!   there is none), or no shader at all;
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
use crate::dxbc::dxil::DigestKind;
use crate::dxbc::signature::Signature;
use crate::dxbc::{Container, DxbcError};
use crate::element::InputElementDesc;
use crate::layout::{InputLayout, PipelineIa, StripCut, TopologyType};
use crate::target::{Api, Target};

/// Why there is no input signature to match against (R29–R32). The message says what failed;
/// the container reader's error, where there is one, is the [`source`](std::error::Error::source)
/// ([`crate::diag::with_causes`] writes both). Every variant makes
/// `CreateInputLayout` fail with `E_INVALIDARG` and message
/// `CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE` (161).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureProblem {
    /// No bytecode at all: a NULL pointer or a zero length (open question §6.4; inlay treats
    /// it like any unreadable bytecode).
    #[error("no shader bytecode was given (NULL pointer or zero length)")]
    NoBytecode,
    /// The bytes are not a DXBC container that can be read (bad magic, sizes, chunk offsets);
    /// the reader's error says what and where.
    #[error("the shader bytecode is not a readable DXBC container")]
    Container(#[source] DxbcError),
    /// The container is readable but holds no `ISGN`/`ISG1` chunk (R32; inlay follows DXVK
    /// and refuses, see `docs/notes/validation.md`).
    #[error("the shader bytecode holds no input signature chunk (ISGN or ISG1)")]
    NoInputSignature,
    /// The input signature chunk exists but cannot be read; the reader's error says what and
    /// where.
    #[error("the input signature chunk cannot be read")]
    Signature(#[source] DxbcError),
    /// D3D12: the container's size field (bytes 24..28) is not the bytecode length the
    /// pipeline state gives (`BytecodeLength`; d3d12-rules.md P2).
    #[error(
        "the container's size field says {declared} bytes but BytecodeLength is {length}; D3D12 \
         needs them equal (\"Encoded Input Signature size doesn't match specified size\", P2)"
    )]
    SizeMismatch {
        /// The size field.
        declared: u32,
        /// The bytecode length given.
        length: usize,
    },
    /// D3D12: the digest is a sentinel D3D12 does not run (zeros from dxc `-Vd`, or `PREVIEW`
    /// outside developer mode; d3d12-rules.md P3).
    #[error(
        "the container digest is the {} form, which D3D12 refuses at pipeline-state creation \
         (only the validator's hash or the BYPASS sentinel run; P3)",
        kind.as_str()
    )]
    Unsigned {
        /// What the digest is.
        kind: DigestKind,
    },
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

/// `D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT`.
pub const ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT: u32 = 0x1;

/// The fields of `D3D12_GRAPHICS_PIPELINE_STATE_DESC` beside `InputLayout` that its
/// validation and the input assembler read (d3d12-rules.md P10–P13), as raw integers so that
/// invalid values are expressible. Ignored under D3D10/D3D11.
///
/// The default is what a pipeline state with an input layout normally has: the root signature
/// allows the input assembler, strip cut disabled, triangle topology type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineDesc {
    /// The root signature's `D3D12_ROOT_SIGNATURE_FLAGS`.
    pub root_signature_flags: u32,
    /// `IBStripCutValue` (`D3D12_INDEX_BUFFER_STRIP_CUT_VALUE`: 0, 1 or 2).
    pub ib_strip_cut_value: u32,
    /// `PrimitiveTopologyType` (`D3D12_PRIMITIVE_TOPOLOGY_TYPE`: 0–4).
    pub primitive_topology_type: u32,
}

impl Default for PipelineDesc {
    fn default() -> Self {
        PipelineDesc {
            root_signature_flags: ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT,
            ib_strip_cut_value: StripCut::Disabled.d3d12_value(),
            primitive_topology_type: TopologyType::Triangle.d3d12_value(),
        }
    }
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

    /// The created layout (also after a validate-only success, `S_FALSE`), or the refusal
    /// with its HRESULT and every diagnostic, so that `?` works:
    ///
    /// ```
    /// use inlay::{Format, InputElementDesc, Target};
    /// fn stride() -> Result<u32, inlay::Refused> {
    ///     let elements = [InputElementDesc::per_vertex("A", 0, Format::R32G32_FLOAT, 0, 0)];
    ///     let layout = inlay::layout_without_shader(&Target::default(), &elements).into_result()?;
    ///     Ok(layout.slots()[0].min_stride)
    /// }
    /// assert_eq!(stride().unwrap(), 8);
    /// ```
    ///
    /// Warnings of a successful call are dropped; read [`Creation::warnings`] first when they
    /// matter.
    pub fn into_result(self) -> Result<InputLayout, Refused> {
        match self.layout {
            Some(layout) => Ok(layout),
            None => Err(Refused {
                hresult: self.hresult,
                diagnostics: self.diagnostics,
            }),
        }
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

/// A refused `CreateInputLayout` call ([`Creation::into_result`]): the failing HRESULT and every
/// diagnostic, errors and warnings, in report order. Its message lists the errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The HRESULT of the call (`E_INVALIDARG`).
    pub hresult: HResult,
    /// Every message of the call, in the order of the [module documentation](self).
    pub diagnostics: Vec<Diagnostic>,
}

impl Refused {
    /// The diagnostics of severity [`Severity::Error`].
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CreateInputLayout returned {}", self.hresult)?;
        for (i, d) in self.errors().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Refused {}

/// `ID3D11Device::CreateInputLayout` (and its D3D10/D3D10.1 twins, per `target.api`) the
/// everyday way: the element count is the slice's length and a successful call creates the
/// layout (`S_OK`); the input signature is read from `bytecode` with [`read_input_signature`]
/// (R29–R32). An empty `bytecode` models a NULL pointer or a zero length.
///
/// [`Creation::into_result`] turns the answer into a `Result` for `?`; the raw cases of the C
/// call (an explicit `NumElements`, a NULL array, validate-only, a parsed signature) are
/// reached through the [`CreateInputLayout`] builder.
///
/// ```
/// use inlay::{create_input_layout, Format, HResult, InputElementDesc, MessageId, Target};
/// use inlay::dxbc::{signature_blob, ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
///
/// let position = SignatureElement {
///     stream: 0, semantic_name: "POSITION".into(), semantic_index: 0,
///     system_value: SystemValue::UNDEFINED, component_type: ComponentType::FLOAT32,
///     register: 0, mask: 0xf, read_write_mask: 0xf, min_precision: MinPrecision(0),
/// };
/// let blob = signature_blob(&Signature { elements: vec![position] });
/// let elements = [InputElementDesc::per_vertex("POSITION2", 0, Format::R32G32B32_FLOAT, 0, 0)];
/// let c = create_input_layout(&Target::default(), &elements, &blob);
/// assert_eq!(c.hresult, HResult::E_INVALIDARG);
/// assert_eq!(c.error_ids(), [MessageId::CREATEINPUTLAYOUT_MISSINGELEMENT]);
/// assert_eq!(c.warning_ids(), [MessageId::CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC]);
/// assert!(c.into_result().is_err());
/// ```
pub fn create_input_layout(
    target: &Target,
    elements: &[InputElementDesc],
    bytecode: &[u8],
) -> Creation {
    CreateInputLayout::new(target, elements).bytecode(bytecode)
}

/// The exact C call `CreateInputLayout(pInputElementDescs, NumElements, pShaderBytecode,
/// BytecodeLength, ppInputLayout)` as a builder, for conformance work and every case the
/// short path [`create_input_layout`] does not express:
///
/// * [`CreateInputLayout::null_elements`] — a NULL `pInputElementDescs` (R1: `E_INVALIDARG`,
///   164, even with `NumElements == 0`);
/// * [`num_elements`](CreateInputLayout::num_elements) — an explicit `NumElements`. Only the
///   first `NumElements` entries of the slice are used; a count larger than the slice (the
///   real call would read past the array: undefined behaviour) is refused with `E_INVALIDARG`
///   and a message of id [`MessageId::UNKNOWN`] (0), unless the count already exceeds the
///   element limit (151);
/// * [`validate_only`](CreateInputLayout::validate_only) — a NULL `ppInputLayout` (R5: success
///   is `S_FALSE`, and the [`Creation`] still carries the layout that would have been created);
/// * [`signature`](CreateInputLayout::signature) — an input signature that is already parsed,
///   or the [`SignatureProblem`] that prevented reading it (R31/R32: `E_INVALIDARG`, 161; the
///   element array is still validated), for callers that parse bytecode themselves;
/// * [`without_shader`](CreateInputLayout::without_shader) — no shader at all (see
///   [`layout_without_shader`]).
///
/// ```
/// use inlay::{CreateInputLayout, Format, HResult, InputElementDesc, Target, APPEND_ALIGNED_ELEMENT};
/// use inlay::dxbc::{ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
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
/// let target = Target::default();
/// let c = CreateInputLayout::new(&target, &elements).validate_only(true).signature(Ok(&signature));
/// assert_eq!(c.hresult, HResult::S_FALSE);
/// let layout = c.into_result().unwrap();
/// assert_eq!(layout.elements()[1].offset, 12);
/// assert_eq!(layout.elements()[1].register, Some(1));
/// assert_eq!(layout.slots()[0].min_stride, 16);
///
/// // NULL pInputElementDescs, NumElements 0.
/// let c = CreateInputLayout::null_elements(&target).signature(Ok(&signature));
/// assert_eq!(c.hresult, HResult::E_INVALIDARG);
/// // NumElements 1 of a two-element array.
/// let c = CreateInputLayout::new(&target, &elements).num_elements(1).signature(Ok(&signature));
/// assert_eq!(c.layout.map(|l| l.elements().len()), None); // COLOR is missing (163)
/// ```
#[derive(Clone, Copy, Debug)]
#[must_use = "a CreateInputLayout builder does nothing until `bytecode`, `signature` or `without_shader` runs it"]
pub struct CreateInputLayout<'a> {
    target: &'a Target,
    elements: Option<&'a [InputElementDesc]>,
    num_elements: Option<u32>,
    validate_only: bool,
    pipeline: PipelineDesc,
}

impl<'a> CreateInputLayout<'a> {
    /// A call with `elements` as `pInputElementDescs`; `NumElements` is the slice's length
    /// unless [`num_elements`](Self::num_elements) says otherwise, and the call creates the
    /// layout unless [`validate_only`](Self::validate_only) is set.
    pub fn new(target: &'a Target, elements: &'a [InputElementDesc]) -> Self {
        CreateInputLayout {
            target,
            elements: Some(elements),
            num_elements: None,
            validate_only: false,
            pipeline: PipelineDesc::default(),
        }
    }

    /// A call whose `pInputElementDescs` is NULL (R1), with `NumElements` 0 unless
    /// [`num_elements`](Self::num_elements) says otherwise.
    pub fn null_elements(target: &'a Target) -> Self {
        CreateInputLayout {
            target,
            elements: None,
            num_elements: None,
            validate_only: false,
            pipeline: PipelineDesc::default(),
        }
    }

    /// A call whose `pInputElementDescs` may be NULL (`None`), as a C caller holds it; the
    /// same as [`new`](Self::new) or [`null_elements`](Self::null_elements).
    pub fn raw(target: &'a Target, elements: Option<&'a [InputElementDesc]>) -> Self {
        CreateInputLayout {
            target,
            elements,
            num_elements: None,
            validate_only: false,
            pipeline: PipelineDesc::default(),
        }
    }

    /// The `NumElements` argument, independent of the slice's length (see the
    /// [type documentation](Self)).
    pub fn num_elements(self, num_elements: u32) -> Self {
        CreateInputLayout {
            num_elements: Some(num_elements),
            ..self
        }
    }

    /// `true` models a NULL `ppInputLayout`: validation only, success is `S_FALSE` (R5).
    pub fn validate_only(self, validate_only: bool) -> Self {
        CreateInputLayout {
            validate_only,
            ..self
        }
    }

    /// D3D12: the pipeline state's root-signature flags, strip cut and topology type
    /// ([`PipelineDesc`]; d3d12-rules.md P10–P13). Ignored under D3D10/D3D11.
    pub fn pipeline(self, pipeline: PipelineDesc) -> Self {
        CreateInputLayout { pipeline, ..self }
    }

    /// The `NumElements` this call passes.
    fn count(&self) -> u32 {
        self.num_elements.unwrap_or_else(|| {
            self.elements
                .map_or(0, |e| u32::try_from(e.len()).unwrap_or(u32::MAX))
        })
    }

    /// Runs the call with shader bytecode: reads the input signature with
    /// [`read_input_signature`] (R29–R32), then validates and matches. An empty `bytecode`
    /// models a NULL pointer or a zero length.
    pub fn bytecode(self, bytecode: &[u8]) -> Creation {
        create(
            &self,
            read_input_signature_for(self.target.api, bytecode).map(Cow::Owned),
        )
    }

    /// Runs the call with an input signature that is already parsed, or the reason none
    /// could be read (R31/R32: `E_INVALIDARG`, 161; the element array is still validated).
    pub fn signature(self, signature: Result<&Signature, SignatureProblem>) -> Creation {
        create(&self, signature.map(Cow::Borrowed))
    }

    /// Runs everything except signature matching and gives element *i* input register *i*
    /// (see [`layout_without_shader`]); the count, NULL-array and validate-only settings apply.
    pub fn without_shader(self) -> Creation {
        let mut diagnostics = Vec::new();
        let Some(elements) =
            array::check_count(self.target, self.elements, self.count(), &mut diagnostics)
        else {
            return Creation::refused(in_api(self.target.api, diagnostics));
        };
        let checked = array::check_elements(self.target, elements, &mut diagnostics);
        let pipeline = pipeline_checks(&self, &mut diagnostics);
        Creation::finish(
            in_api(self.target.api, diagnostics),
            || {
                let layout = checked.build(elements, |i| Some(i as u32), Signature::default());
                attach(layout, pipeline)
            },
            self.validate_only,
        )
    }
}

/// D3D12 (P10–P13): the root signature must allow the input assembler when the layout has
/// elements, `IBStripCutValue` must be one of the three values and `PrimitiveTopologyType`
/// a defined type. Returns what the input assembler keeps, `None` under D3D10/D3D11 or when
/// a value is invalid.
fn pipeline_checks(
    call: &CreateInputLayout<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<PipelineIa> {
    if !call.target.api.is_d3d12() {
        return None;
    }
    let p = call.pipeline;
    let mut error = |id, message: String| {
        diags.push(Diagnostic {
            id,
            severity: Severity::Error,
            element: None,
            message,
        })
    };
    let count = call.count();
    if count > 0
        && p.root_signature_flags & ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT == 0
    {
        error(
            MessageId::D3D12_CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE_FLAGS,
            format!(
                "the input layout has {count} element(s) but the root signature's flags \
                 ({:#x}) lack D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT \
                 (0x1) [P10]",
                p.root_signature_flags
            ),
        );
    }
    let cut = StripCut::from_d3d12(p.ib_strip_cut_value);
    if cut.is_none() {
        error(
            MessageId::D3D12_CREATEGRAPHICSPIPELINESTATE_INVALID_INDEX_BUFFER_PROPERTIES,
            format!(
                "IBStripCutValue {} is not a D3D12_INDEX_BUFFER_STRIP_CUT_VALUE (0 disabled, 1 \
                 0xFFFF, 2 0xFFFFFFFF) [P12]",
                p.ib_strip_cut_value
            ),
        );
    }
    let topology_type = match TopologyType::from_d3d12(p.primitive_topology_type) {
        Some(TopologyType::Undefined) | None => {
            error(
                MessageId::D3D12_CREATEGRAPHICSPIPELINESTATE_INVALID_PRIMITIVETOPOLOGY,
                format!(
                    "PrimitiveTopologyType {} is {}; a pipeline state with a vertex shader needs \
                     POINT (1), LINE (2), TRIANGLE (3) or PATCH (4) [P13]",
                    p.primitive_topology_type,
                    if p.primitive_topology_type == 0 {
                        "UNDEFINED"
                    } else {
                        "not a D3D12_PRIMITIVE_TOPOLOGY_TYPE"
                    }
                ),
            );
            None
        }
        t => t,
    };
    Some(PipelineIa {
        strip_cut: cut?,
        topology_type: topology_type?,
    })
}

fn attach(layout: InputLayout, pipeline: Option<PipelineIa>) -> InputLayout {
    match pipeline {
        Some(p) => layout.with_pipeline(p),
        None => layout,
    }
}

/// Under D3D12 each message takes its `D3D12_MESSAGE_ID` number (P-rules §C); a message
/// D3D12 has no number for keeps id 0 (`UNKNOWN`).
fn in_api(api: Api, mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if api.is_d3d12() {
        for d in &mut diags {
            d.id = d.id.in_d3d12().unwrap_or(MessageId::UNKNOWN);
        }
    }
    diags
}

/// The shared body of the `CreateInputLayout` entry points; an owned signature (parsed from
/// bytecode) moves into the layout instead of being copied.
fn create(
    call: &CreateInputLayout<'_>,
    signature: Result<Cow<'_, Signature>, SignatureProblem>,
) -> Creation {
    let target = call.target;
    let mut diagnostics = Vec::new();
    let Some(elements) = array::check_count(target, call.elements, call.count(), &mut diagnostics)
    else {
        return Creation::refused(in_api(target.api, diagnostics));
    };
    let checked = array::check_elements(target, elements, &mut diagnostics);
    let pipeline = pipeline_checks(call, &mut diagnostics);
    let registers = match &signature {
        Ok(sig) => matching::match_signature(target, elements, &checked, sig, &mut diagnostics),
        Err(problem) => {
            diagnostics.push(Diagnostic {
                id: MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE,
                severity: Severity::Error,
                element: None,
                message: format!(
                    "{}; {} needs the shader's input signature to match the elements \
                     against [R31]",
                    crate::diag::with_causes(problem),
                    if target.api.is_d3d12() {
                        "CreateGraphicsPipelineState"
                    } else {
                        "CreateInputLayout"
                    }
                ),
            });
            matching::Registers::none()
        }
    };
    Creation::finish(
        in_api(target.api, diagnostics),
        || {
            let sig = signature.map(Cow::into_owned).unwrap_or_default();
            attach(checked.build(elements, |i| registers.get(i), sig), pipeline)
        },
        call.validate_only,
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
/// let layout = layout_without_shader(&Target::default(), &elements).into_result().unwrap();
/// assert_eq!((layout.elements()[1].offset, layout.elements()[1].register), (4, Some(1)));
/// ```
pub fn layout_without_shader(target: &Target, elements: &[InputElementDesc]) -> Creation {
    CreateInputLayout::new(target, elements).without_shader()
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
    read_input_signature_for(Api::D3D11, bytecode)
}

/// [`read_input_signature`] as the runtime of `api` reads it. D3D10/D3D11 as described there;
/// D3D12 (d3d12-rules.md P2–P3) reads DXBC and DXIL containers with dxc's container rules,
/// needs the size field to equal the bytecode length ([`SignatureProblem::SizeMismatch`]) and
/// runs a container whose digest is the validator's hash or the `BYPASS` sentinel (zeros and
/// `PREVIEW` are [`SignatureProblem::Unsigned`], any other digest
/// [`SignatureProblem::Checksum`]).
pub fn read_input_signature_for(api: Api, bytecode: &[u8]) -> Result<Signature, SignatureProblem> {
    if !api.is_d3d12() {
        return read_d3d11(bytecode);
    }
    if bytecode.is_empty() {
        return Err(SignatureProblem::NoBytecode);
    }
    let container = Container::parse_for(bytecode, api).map_err(SignatureProblem::Container)?;
    if container.size() != bytecode.len() {
        return Err(SignatureProblem::SizeMismatch {
            declared: container.size() as u32,
            length: bytecode.len(),
        });
    }
    match container.digest_kind() {
        k if k.accepted_by_d3d12() => {}
        DigestKind::Mismatch => {
            return Err(SignatureProblem::Checksum {
                stored: container.digest(),
                computed: container.computed_digest(),
            });
        }
        kind => return Err(SignatureProblem::Unsigned { kind }),
    }
    match container.input_signature() {
        Ok(Some(signature)) => Ok(signature),
        Ok(None) => Err(SignatureProblem::NoInputSignature),
        Err(e) => Err(SignatureProblem::Signature(e)),
    }
}

fn read_d3d11(bytecode: &[u8]) -> Result<Signature, SignatureProblem> {
    if bytecode.is_empty() {
        return Err(SignatureProblem::NoBytecode);
    }
    let container = Container::parse(bytecode).map_err(SignatureProblem::Container)?;
    if !container.checksum_matches() {
        return Err(SignatureProblem::Checksum {
            stored: container.digest(),
            computed: container.computed_digest(),
        });
    }
    match container.input_signature() {
        Ok(Some(signature)) => Ok(signature),
        Ok(None) => Err(SignatureProblem::NoInputSignature),
        Err(e) => Err(SignatureProblem::Signature(e)),
    }
}
