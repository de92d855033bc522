//! Results and diagnostics: HRESULTs and the debug layer's messages.
//!
//! Message ids and names are those of `D3D11_MESSAGE_ID` (the same numbers as
//! `D3D10_MESSAGE_ID`), listed with their evidence in `createinputlayout-rules.md` §2, with a
//! D3D12 column (`D3D12_MESSAGE_ID`, `d3d12-rules.md` §C) in the same table.

use std::fmt;

/// `n` with its noun in the right number: `count(1, "vertex", "vertices")` is `1 vertex`,
/// `count(0, "finding", "findings")` is `0 findings`. Every message and report that counts
/// things says it through this, so none says "1 findings".
///
/// ```
/// assert_eq!(inlay::diag::count(1, "finding", "findings"), "1 finding");
/// assert_eq!(inlay::diag::count(3, "vertex", "vertices"), "3 vertices");
/// ```
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

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
    ($($name:ident = $value:expr $(, d3d12 = $d12:expr)?;)*) => {
        #[allow(missing_docs)]
        impl MessageId {
            $(pub const $name: MessageId = MessageId($value);)*
        }
        /// Every message id inlay reports, with its name (without the `D3D11_MESSAGE_ID_` prefix).
        pub const MESSAGE_NAMES: &[(MessageId, &str)] = &[$((MessageId($value), stringify!($name))),*];
        /// The D3D12 column of the table: each message's `D3D12_MESSAGE_ID` number where
        /// `d3d12sdklayers.h` (DirectX-Headers) has the same name (d3d12-rules.md §C).
        const D3D12_NUMBERS: &[(MessageId, MessageId)] = &[$($((MessageId($value), MessageId($d12)),)?)*];
    };
}

// One row per message: the D3D11 number (`d3d11sdklayers.h`, createinputlayout-rules.md §2)
// and, where D3D12's debug layer has the message, its `D3D12_MESSAGE_ID` number
// (`d3d12sdklayers.h`; D3D12 renumbered the names it kept). Rows whose D3D11 number is a
// placeholder above 0x8000_0000 exist only in D3D12.
message_ids! {
    // `D3D11_MESSAGE_ID_UNKNOWN`: inlay uses it for refusals that have no Windows message
    // because the real call would be undefined behaviour (e.g. `NumElements` larger than the
    // array); see `docs/notes/validation.md`.
    UNKNOWN = 0, d3d12 = 0;
    CREATEINPUTLAYOUT_OUTOFMEMORY = 150, d3d12 = 52;
    CREATEINPUTLAYOUT_TOOMANYELEMENTS = 151, d3d12 = 53;
    CREATEINPUTLAYOUT_INVALIDFORMAT = 152, d3d12 = 54;
    CREATEINPUTLAYOUT_INCOMPATIBLEFORMAT = 153, d3d12 = 55;
    CREATEINPUTLAYOUT_INVALIDSLOT = 154, d3d12 = 56;
    CREATEINPUTLAYOUT_INVALIDINPUTSLOTCLASS = 155, d3d12 = 57;
    CREATEINPUTLAYOUT_STEPRATESLOTCLASSMISMATCH = 156, d3d12 = 58;
    CREATEINPUTLAYOUT_INVALIDSLOTCLASSCHANGE = 157, d3d12 = 59;
    CREATEINPUTLAYOUT_INVALIDSTEPRATECHANGE = 158, d3d12 = 60;
    CREATEINPUTLAYOUT_INVALIDALIGNMENT = 159, d3d12 = 61;
    CREATEINPUTLAYOUT_DUPLICATESEMANTIC = 160, d3d12 = 62;
    CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE = 161, d3d12 = 63;
    CREATEINPUTLAYOUT_NULLSEMANTIC = 162, d3d12 = 64;
    CREATEINPUTLAYOUT_MISSINGELEMENT = 163, d3d12 = 65;
    CREATEINPUTLAYOUT_NULLDESC = 164;
    CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC = 385, d3d12 = 239;
    CREATEINPUTLAYOUT_TYPE_MISMATCH = 391, d3d12 = 245;
    CREATEINPUTLAYOUT_EMPTY_LAYOUT = 420, d3d12 = 253;
    CREATEINPUTLAYOUT_UNSUPPORTED_FORMAT = 1048599;
    SLOT_ZERO_MUST_BE_D3D10_INPUT_PER_VERTEX_DATA = 1048633;
    CREATEINPUTLAYOUT_LEVEL9_STEPRATE_NOT_1 = 3146123;
    CREATEINPUTLAYOUT_LEVEL9_INSTANCING_NOT_SUPPORTED = 3146124;
    DEVICE_IASETVERTEXBUFFERS_STRIDE_TOO_LARGE = 418;
    DEVICE_DRAW_INPUTLAYOUT_NOT_SET = 349;
    // Draw-time messages (`assembler::validate`), `d3d11sdklayers.h`; D3D12 reports them
    // from the command list (`COMMAND_LIST_DRAW_*`).
    DEVICE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND = 342, d3d12 = 666;
    DEVICE_DRAW_VERTEX_BUFFER_NOT_SET = 348, d3d12 = 202;
    DEVICE_DRAW_VERTEX_BUFFER_STRIDE_TOO_SMALL = 355, d3d12 = 209;
    DEVICE_DRAW_VERTEX_BUFFER_TOO_SMALL = 356, d3d12 = 210;
    DEVICE_DRAW_INDEX_BUFFER_NOT_SET = 357, d3d12 = 211;
    DEVICE_DRAW_INDEX_BUFFER_TOO_SMALL = 359, d3d12 = 213;
    // D3D12 only (placeholder D3D11 numbers, never reported under D3D10/D3D11).
    D3D12_COMMAND_LIST_DRAW_VERTEX_STRIDE_UNALIGNED = 0x8000_0001, d3d12 = 221;
    D3D12_PRIMITIVE_TOPOLOGY_MISMATCH_PIPELINE_STATE = 0x8000_0002, d3d12 = 611;
    D3D12_CREATEGRAPHICSPIPELINESTATE_INVALID_PRIMITIVETOPOLOGY = 0x8000_0003, d3d12 = 673;
    D3D12_CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE_FLAGS = 0x8000_0004, d3d12 = 683;
    D3D12_CREATEGRAPHICSPIPELINESTATE_INVALID_INDEX_BUFFER_PROPERTIES = 0x8000_0005, d3d12 = 684;
    D3D12_COMMAND_LIST_DRAW_INSTANCE_COUNT_ZERO = 0x8000_0006, d3d12 = 1418;
}

impl MessageId {
    /// The name without the `D3D11_MESSAGE_ID_` prefix, if inlay knows this id. A D3D12
    /// number (from [`MessageId::in_d3d12`]) gives its D3D12 name without the
    /// `D3D12_MESSAGE_ID_` prefix: the two columns share no number among the messages inlay
    /// reports (checked by a test), so one lookup serves both.
    pub fn name(self) -> Option<&'static str> {
        let named = |id: MessageId| {
            MESSAGE_NAMES
                .iter()
                .find(|(m, _)| *m == id)
                .map(|(_, n)| n.strip_prefix("D3D12_").unwrap_or(n))
        };
        if self.0 < 0x8000_0000
            && let Some(n) = named(self)
        {
            return Some(n);
        }
        D3D12_NUMBERS
            .iter()
            .find(|(_, d12)| *d12 == self)
            .and_then(|(d11, _)| named(*d11))
    }

    /// The message (under its D3D11 number, or its placeholder for a D3D12-only message)
    /// whose `D3D12_MESSAGE_ID` is `self`; `self` when it is no D3D12 number inlay reports.
    pub fn from_d3d12(self) -> MessageId {
        D3D12_NUMBERS
            .iter()
            .find(|(_, d12)| *d12 == self)
            .map_or(self, |(d11, _)| *d11)
    }

    /// This message's `D3D12_MESSAGE_ID`: the number D3D12's debug layer gives the message of
    /// the same name, or `None` when D3D12 has no such message.
    pub fn in_d3d12(self) -> Option<MessageId> {
        D3D12_NUMBERS
            .iter()
            .find(|(d11, _)| *d11 == self)
            .map(|(_, d12)| *d12)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The D3D11 and D3D12 columns share no number, so [`MessageId::name`] is unambiguous;
    /// the D3D12 numbers are those of `d3d12sdklayers.h` (DirectX-Headers) for these names.
    #[test]
    fn d3d12_column() {
        for (d11, d12) in D3D12_NUMBERS {
            if d11.0 != 0 {
                assert!(
                    MESSAGE_NAMES.iter().all(|(m, _)| m != d12),
                    "{d12:?} is also a D3D11 number"
                );
            }
            let n11 = MESSAGE_NAMES.iter().find(|(m, _)| m == d11).unwrap().1;
            assert_eq!(d12.name(), Some(n11.strip_prefix("D3D12_").unwrap_or(n11)));
        }
        let m = MessageId::CREATEINPUTLAYOUT_MISSINGELEMENT
            .in_d3d12()
            .unwrap();
        assert_eq!(m, MessageId(65));
        assert_eq!(m.to_string(), "#65 CREATEINPUTLAYOUT_MISSINGELEMENT");
        assert_eq!(MessageId::CREATEINPUTLAYOUT_NULLDESC.in_d3d12(), None);
        assert_eq!(
            MessageId(683).name(),
            Some("CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE_FLAGS")
        );
        assert_eq!(MessageId(0x8000_0004).name(), None);
    }
}
