//! Results and diagnostics: HRESULTs and the debug layer's messages.
//!
//! Message ids and names are those of `D3D11_MESSAGE_ID` (the same numbers as
//! `D3D10_MESSAGE_ID`), listed with their evidence in `createinputlayout-rules.md` §2.

use std::fmt;

/// The HRESULT a call returns.
///
/// With the `serde` feature it reads and writes as its symbolic name (`"S_OK"`, `"E_INVALIDARG"`,
/// …), the spelling of the conformance schema's `expect.hresult`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[allow(non_camel_case_types)]
pub enum HResult {
    /// `S_OK` (0): created.
    S_OK,
    /// `S_FALSE` (1): validate-only call (NULL `ppInputLayout`) that passed (R5).
    S_FALSE,
    /// `E_INVALIDARG` (0x80070057): refused.
    E_INVALIDARG,
    /// `E_OUTOFMEMORY` (0x8007000E).
    E_OUTOFMEMORY,
}

impl HResult {
    /// The 32-bit code.
    pub const fn code(self) -> u32 {
        match self {
            HResult::S_OK => 0,
            HResult::S_FALSE => 1,
            HResult::E_INVALIDARG => 0x8007_0057,
            HResult::E_OUTOFMEMORY => 0x8007_000E,
        }
    }

    /// The symbolic name, e.g. `"E_INVALIDARG"`.
    pub const fn name(self) -> &'static str {
        match self {
            HResult::S_OK => "S_OK",
            HResult::S_FALSE => "S_FALSE",
            HResult::E_INVALIDARG => "E_INVALIDARG",
            HResult::E_OUTOFMEMORY => "E_OUTOFMEMORY",
        }
    }

    /// Whether the code is a success code (`S_OK` or `S_FALSE`).
    pub const fn is_success(self) -> bool {
        matches!(self, HResult::S_OK | HResult::S_FALSE)
    }

    /// Parses a symbolic name.
    pub fn from_name(s: &str) -> Option<HResult> {
        [
            HResult::S_OK,
            HResult::S_FALSE,
            HResult::E_INVALIDARG,
            HResult::E_OUTOFMEMORY,
        ]
        .into_iter()
        .find(|h| h.name() == s)
    }
}

impl fmt::Display for HResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Debug-layer message severity.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// `D3D11_MESSAGE_SEVERITY_ERROR`: the call fails.
    Error,
    /// `D3D11_MESSAGE_SEVERITY_WARNING`: reported, the call still succeeds.
    Warning,
    /// `D3D11_MESSAGE_SEVERITY_INFO`.
    Info,
}

impl Severity {
    /// `"error"`, `"warning"` or `"info"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `D3D11_MESSAGE_ID` value.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct MessageId(pub u32);

macro_rules! message_ids {
    ($($name:ident = $value:expr),* $(,)?) => {
        #[allow(missing_docs)]
        impl MessageId {
            $(pub const $name: MessageId = MessageId($value);)*
        }
        /// Every message id inlay reports, with its name (without the `D3D11_MESSAGE_ID_` prefix).
        pub const MESSAGE_NAMES: &[(MessageId, &str)] = &[$((MessageId($value), stringify!($name))),*];
    };
}

message_ids! {
    // `D3D11_MESSAGE_ID_UNKNOWN`: inlay uses it for refusals that have no Windows message
    // because the real call would be undefined behaviour (e.g. `NumElements` larger than the
    // array); see `docs/notes/validation.md`.
    UNKNOWN = 0,
    CREATEINPUTLAYOUT_OUTOFMEMORY = 150,
    CREATEINPUTLAYOUT_TOOMANYELEMENTS = 151,
    CREATEINPUTLAYOUT_INVALIDFORMAT = 152,
    CREATEINPUTLAYOUT_INCOMPATIBLEFORMAT = 153,
    CREATEINPUTLAYOUT_INVALIDSLOT = 154,
    CREATEINPUTLAYOUT_INVALIDINPUTSLOTCLASS = 155,
    CREATEINPUTLAYOUT_STEPRATESLOTCLASSMISMATCH = 156,
    CREATEINPUTLAYOUT_INVALIDSLOTCLASSCHANGE = 157,
    CREATEINPUTLAYOUT_INVALIDSTEPRATECHANGE = 158,
    CREATEINPUTLAYOUT_INVALIDALIGNMENT = 159,
    CREATEINPUTLAYOUT_DUPLICATESEMANTIC = 160,
    CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE = 161,
    CREATEINPUTLAYOUT_NULLSEMANTIC = 162,
    CREATEINPUTLAYOUT_MISSINGELEMENT = 163,
    CREATEINPUTLAYOUT_NULLDESC = 164,
    CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC = 385,
    CREATEINPUTLAYOUT_TYPE_MISMATCH = 391,
    CREATEINPUTLAYOUT_EMPTY_LAYOUT = 420,
    CREATEINPUTLAYOUT_UNSUPPORTED_FORMAT = 1048599,
    SLOT_ZERO_MUST_BE_D3D10_INPUT_PER_VERTEX_DATA = 1048633,
    CREATEINPUTLAYOUT_LEVEL9_STEPRATE_NOT_1 = 3146123,
    CREATEINPUTLAYOUT_LEVEL9_INSTANCING_NOT_SUPPORTED = 3146124,
    DEVICE_IASETVERTEXBUFFERS_STRIDE_TOO_LARGE = 418,
    DEVICE_DRAW_INPUTLAYOUT_NOT_SET = 349,
    // Draw-time messages (`assembler::validate`), `d3d11sdklayers.h`.
    DEVICE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND = 342,
    DEVICE_DRAW_VERTEX_BUFFER_NOT_SET = 348,
    DEVICE_DRAW_VERTEX_BUFFER_STRIDE_TOO_SMALL = 355,
    DEVICE_DRAW_VERTEX_BUFFER_TOO_SMALL = 356,
    DEVICE_DRAW_INDEX_BUFFER_NOT_SET = 357,
    DEVICE_DRAW_INDEX_BUFFER_TOO_SMALL = 359,
}

impl MessageId {
    /// The name without the `D3D11_MESSAGE_ID_` prefix, if inlay knows this id.
    pub fn name(self) -> Option<&'static str> {
        MESSAGE_NAMES
            .iter()
            .find(|(id, _)| *id == self)
            .map(|(_, n)| *n)
    }
}

impl fmt::Display for MessageId {
    /// `#163 CREATEINPUTLAYOUT_MISSINGELEMENT`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "#{} {}", self.0, n),
            None => write!(f, "#{}", self.0),
        }
    }
}

/// One message the debug layer would print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Message id.
    pub id: MessageId,
    /// Severity.
    pub severity: Severity,
    /// Index of the element in the caller's array this message is about, if any.
    pub element: Option<usize>,
    /// A sentence naming the semantic, the value and the rule (our own words).
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.severity, self.id, self.message)
    }
}

/// An error and its causes on one line, as a report shows them: the error's message (what
/// failed), then each [`source`](std::error::Error::source) in turn (why), joined by `": "`.
/// The library's errors keep their causes out of their own messages, so nothing is said twice.
///
/// ```
/// use inlay::diag::with_causes;
/// use inlay::validation::read_input_signature;
/// let e = read_input_signature(b"not a container at all").unwrap_err();
/// assert_eq!(e.to_string(), "the shader bytecode is not a readable DXBC container");
/// assert!(with_causes(&e).starts_with("the shader bytecode is not a readable DXBC container: "));
/// ```
pub fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
