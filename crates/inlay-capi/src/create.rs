//! `inlay_create_input_layout`, the diagnostics it reports and the layout it creates.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::sync::Arc;

use inlay_core::diag::{Diagnostic, MessageId, Severity};
use inlay_core::element::InputElementDesc;
use inlay_core::format::Format;
use inlay_core::layout::InputLayout;
use inlay_core::target::{Api, FeatureLevel, Target};

use super::handle::{self, Kind};
use super::{INLAY_E_FAIL, INLAY_E_INVALIDARG, guard};

/// `D3D11_APPEND_ALIGNED_ELEMENT` = 0xffffffff (also `D3D10_APPEND_ALIGNED_ELEMENT`): place
/// the element right after the previous element of the same slot.
pub const INLAY_APPEND_ALIGNED_ELEMENT: u32 = u32::MAX;
/// `D3D11_INPUT_PER_VERTEX_DATA`.
pub const INLAY_PER_VERTEX_DATA: u32 = 0;
/// `D3D11_INPUT_PER_INSTANCE_DATA`.
pub const INLAY_PER_INSTANCE_DATA: u32 = 1;

/// `inlay_target.api`: the `d3d10.dll` runtime (`ID3D10Device::CreateInputLayout`).
pub const INLAY_API_D3D10: u32 = 1;
/// `inlay_target.api`: the `d3d10_1.dll` runtime (`ID3D10Device1`).
pub const INLAY_API_D3D10_1: u32 = 2;
/// `inlay_target.api`: the `d3d11.dll` runtime (`ID3D11Device::CreateInputLayout`).
pub const INLAY_API_D3D11: u32 = 3;
/// `inlay_target.api`: Direct3D 12 (`ID3D12Device::CreateGraphicsPipelineState`'s input-layout
/// part, feature levels 11_0 to 12_2; docs/spec/d3d12-rules.md).
pub const INLAY_API_D3D12: u32 = 4;

/// `D3D_FEATURE_LEVEL_9_1` (0x9100).
pub const INLAY_FEATURE_LEVEL_9_1: u32 = 0x9100;
/// `D3D_FEATURE_LEVEL_9_2` (0x9200).
pub const INLAY_FEATURE_LEVEL_9_2: u32 = 0x9200;
/// `D3D_FEATURE_LEVEL_9_3` (0x9300).
pub const INLAY_FEATURE_LEVEL_9_3: u32 = 0x9300;
/// `D3D_FEATURE_LEVEL_10_0` (0xa000).
pub const INLAY_FEATURE_LEVEL_10_0: u32 = 0xa000;
/// `D3D_FEATURE_LEVEL_10_1` (0xa100).
pub const INLAY_FEATURE_LEVEL_10_1: u32 = 0xa100;
/// `D3D_FEATURE_LEVEL_11_0` (0xb000).
pub const INLAY_FEATURE_LEVEL_11_0: u32 = 0xb000;
/// `D3D_FEATURE_LEVEL_11_1` (0xb100).
pub const INLAY_FEATURE_LEVEL_11_1: u32 = 0xb100;
/// `D3D_FEATURE_LEVEL_12_0` (0xc000), Direct3D 12 only.
pub const INLAY_FEATURE_LEVEL_12_0: u32 = 0xc000;
/// `D3D_FEATURE_LEVEL_12_1` (0xc100), Direct3D 12 only.
pub const INLAY_FEATURE_LEVEL_12_1: u32 = 0xc100;
/// `D3D_FEATURE_LEVEL_12_2` (0xc200), Direct3D 12 only.
pub const INLAY_FEATURE_LEVEL_12_2: u32 = 0xc200;

/// `D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT`.
pub const INLAY_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT: u32 = 0x1;

/// `D3D11_MESSAGE_SEVERITY_ERROR`: the message makes the call fail.
pub const INLAY_SEVERITY_ERROR: u32 = 1;
/// `D3D11_MESSAGE_SEVERITY_WARNING`: reported, the call still succeeds.
pub const INLAY_SEVERITY_WARNING: u32 = 2;
/// `D3D11_MESSAGE_SEVERITY_INFO`.
pub const INLAY_SEVERITY_INFO: u32 = 3;

/// One input element, field for field `D3D11_INPUT_ELEMENT_DESC` and
/// `D3D10_INPUT_ELEMENT_DESC` (the same size, alignment and offsets on every platform: a
/// pointer followed by six 32-bit fields; `DXGI_FORMAT` and `D3D11_INPUT_CLASSIFICATION`
/// are 32-bit enums), so an application's array can be passed by a pointer cast.
/// Every value is accepted and validated as `CreateInputLayout` does (invalid formats,
/// classes, slots and NULL names give the runtime's errors).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct INLAY_INPUT_ELEMENT_DESC {
    /// `SemanticName`: a NUL-terminated string, or NULL (refused with message 162). Names
    /// that are not UTF-8 are read with U+FFFD replacing invalid bytes.
    pub SemanticName: *const c_char,
    /// `SemanticIndex`.
    pub SemanticIndex: u32,
    /// `Format`: a `DXGI_FORMAT` value.
    pub Format: u32,
    /// `InputSlot`.
    pub InputSlot: u32,
    /// `AlignedByteOffset`, or `INLAY_APPEND_ALIGNED_ELEMENT`.
    pub AlignedByteOffset: u32,
    /// `InputSlotClass`: `INLAY_PER_VERTEX_DATA` or `INLAY_PER_INSTANCE_DATA`.
    pub InputSlotClass: u32,
    /// `InstanceDataStepRate`.
    pub InstanceDataStepRate: u32,
}

/// The runtime and device feature level a call is made on.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct inlay_target {
    /// `INLAY_API_D3D10`, `INLAY_API_D3D10_1`, `INLAY_API_D3D11` or `INLAY_API_D3D12`.
    pub api: u32,
    /// A `D3D_FEATURE_LEVEL` value, `INLAY_FEATURE_LEVEL_9_1` … `INLAY_FEATURE_LEVEL_12_2`
    /// (the 12_x levels with `INLAY_API_D3D12` only; D3D12 from 11_0 up).
    /// The optional vertex formats (B5G6R5, B5G5R5A1, B4G4R4A4 from 10_0 up) count as
    /// supported.
    pub feature_level: u32,
}

/// The fields of `D3D12_GRAPHICS_PIPELINE_STATE_DESC` beside `InputLayout` that the
/// input-layout validation and the input assembler read (d3d12-rules.md P10–P13). Raw
/// values, so that invalid ones reach the validation (and its messages).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct inlay_pipeline_desc {
    /// The root signature's `D3D12_ROOT_SIGNATURE_FLAGS`
    /// (`INLAY_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT` for a layout).
    pub root_signature_flags: u32,
    /// `IBStripCutValue`: 0 disabled, 1 0xFFFF, 2 0xFFFFFFFF.
    pub ib_strip_cut_value: u32,
    /// `PrimitiveTopologyType`: 1 point, 2 line, 3 triangle, 4 patch.
    pub primitive_topology_type: u32,
}

/// A created input layout: immutable, reference-counted. Obtained from
/// `inlay_create_input_layout`, released with `inlay_layout_release`.
pub struct inlay_layout {
    pub(crate) layout: InputLayout,
    pub(crate) target: Target,
}

/// The debug-layer messages of one `inlay_create_input_layout` call, in report order
/// (errors and warnings). Immutable; released with `inlay_diagnostics_release`.
pub struct inlay_diagnostics {
    entries: Vec<Entry>,
}

struct Entry {
    id: u32,
    severity: u32,
    element: i32,
    message: CString,
}

impl Entry {
    fn new(d: &Diagnostic) -> Entry {
        Entry {
            id: d.id.0,
            severity: match d.severity {
                Severity::Error => INLAY_SEVERITY_ERROR,
                Severity::Warning => INLAY_SEVERITY_WARNING,
                Severity::Info => INLAY_SEVERITY_INFO,
            },
            element: d.element.and_then(|e| i32::try_from(e).ok()).unwrap_or(-1),
            message: c_string(&d.message),
        }
    }

    /// A refusal of the C call itself (a pointer or value no Windows call could receive):
    /// message id 0 (`D3D11_MESSAGE_ID_UNKNOWN`), as the library reports undefined-behaviour
    /// input (docs/notes/validation.md).
    fn refusal(message: String) -> Entry {
        Entry::new(&Diagnostic {
            id: MessageId::UNKNOWN,
            severity: Severity::Error,
            element: None,
            message,
        })
    }
}

/// `text` as a C string; a NUL inside it (a semantic name cannot hold one, but a message
/// might quote bytes) becomes U+FFFD.
pub(crate) fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "\u{fffd}")).unwrap_or_default()
}

/// The library's target for a C `inlay_target` (NULL: D3D11 at 11_0).
///
/// # Safety
/// `target` is NULL or points to a readable `inlay_target`.
pub(crate) unsafe fn read_target(target: *const inlay_target) -> Result<Target, String> {
    if target.is_null() {
        return Ok(Target::default());
    }
    if !target.is_aligned() {
        return Err(format!(
            "target pointer {target:p} is not aligned to 4 bytes"
        ));
    }
    // SAFETY: non-NULL and aligned (checked above); readable by the caller's contract.
    let t = unsafe { target.read() };
    let api = match t.api {
        INLAY_API_D3D10 => Api::D3D10,
        INLAY_API_D3D10_1 => Api::D3D10_1,
        INLAY_API_D3D11 => Api::D3D11,
        INLAY_API_D3D12 => Api::D3D12,
        other => {
            return Err(format!(
                "inlay_target.api {other} is none of INLAY_API_D3D10 (1), INLAY_API_D3D10_1 (2), \
                 INLAY_API_D3D11 (3), INLAY_API_D3D12 (4)"
            ));
        }
    };
    let levels = [
        (INLAY_FEATURE_LEVEL_9_1, FeatureLevel::L9_1),
        (INLAY_FEATURE_LEVEL_9_2, FeatureLevel::L9_2),
        (INLAY_FEATURE_LEVEL_9_3, FeatureLevel::L9_3),
        (INLAY_FEATURE_LEVEL_10_0, FeatureLevel::L10_0),
        (INLAY_FEATURE_LEVEL_10_1, FeatureLevel::L10_1),
        (INLAY_FEATURE_LEVEL_11_0, FeatureLevel::L11_0),
        (INLAY_FEATURE_LEVEL_11_1, FeatureLevel::L11_1),
        (INLAY_FEATURE_LEVEL_12_0, FeatureLevel::L12_0),
        (INLAY_FEATURE_LEVEL_12_1, FeatureLevel::L12_1),
        (INLAY_FEATURE_LEVEL_12_2, FeatureLevel::L12_2),
    ];
    let Some(&(_, level)) = levels.iter().find(|(v, _)| *v == t.feature_level) else {
        return Err(format!(
            "inlay_target.feature_level {:#x} is not a D3D_FEATURE_LEVEL from 9_1 (0x9100) to \
             12_2 (0xc200)",
            t.feature_level
        ));
    };
    Target::checked(api, level).map_err(|e| e.to_string())
}

/// A byte slice from a C pointer and length: NULL or length 0 give the empty slice.
///
/// # Safety
/// When `data` is not NULL, `len` bytes from it are readable and stay unchanged for `'a`.
pub(crate) unsafe fn read_bytes<'a>(
    data: *const c_void,
    len: usize,
    what: &str,
) -> Result<&'a [u8], String> {
    if data.is_null() || len == 0 {
        return Ok(&[]);
    }
    if len > isize::MAX as usize {
        return Err(format!(
            "{what} length {len} is larger than any object can be (isize::MAX bytes)"
        ));
    }
    // SAFETY: non-NULL, u8 needs no alignment, len ≤ isize::MAX (checked above); the caller
    // guarantees `len` readable bytes that do not change while the slice is used.
    Ok(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) })
}

/// The library's element descriptions for the C array (`None`: a NULL array).
///
/// Reads exactly `count` descriptions, and none when `count` is over the target's element
/// limit: the library then refuses the call from the count alone (151, R3), without looking
/// at the array — as the runtime does, which cannot know how long the array really is.
///
/// # Safety
/// `descs` is NULL or points to at least `count` descriptions whose non-NULL `SemanticName`s
/// are NUL-terminated strings (when `count` ≤ the target's element limit).
unsafe fn read_elements(
    target: &Target,
    descs: *const INLAY_INPUT_ELEMENT_DESC,
    count: u32,
) -> Result<Option<Vec<InputElementDesc>>, String> {
    if descs.is_null() {
        return Ok(None);
    }
    if !descs.is_aligned() {
        return Err(format!(
            "descs pointer {descs:p} is not aligned to {} bytes",
            align_of::<INLAY_INPUT_ELEMENT_DESC>()
        ));
    }
    let n = if count <= target.max_elements() {
        count as usize
    } else {
        0
    };
    // SAFETY: non-NULL and aligned (checked above); n ≤ 32 entries, readable by the caller's
    // contract (`count` entries when count is within the limit).
    let raw = unsafe { std::slice::from_raw_parts(descs, n) };
    let elements = raw
        .iter()
        .map(|d| InputElementDesc {
            semantic_name: (!d.SemanticName.is_null()).then(|| {
                // SAFETY: a non-NULL SemanticName is a NUL-terminated string (caller's contract).
                unsafe { CStr::from_ptr(d.SemanticName) }
                    .to_string_lossy()
                    .into_owned()
            }),
            semantic_index: d.SemanticIndex,
            format: Format(d.Format),
            input_slot: d.InputSlot,
            aligned_byte_offset: d.AlignedByteOffset,
            input_slot_class: d.InputSlotClass,
            instance_data_step_rate: d.InstanceDataStepRate,
        })
        .collect();
    Ok(Some(elements))
}

/// Writes `value` through `out` when `out` is not NULL.
///
/// # Safety
/// `out` is NULL or valid for a write of `T` (alignment is checked by the callers).
unsafe fn store<T>(out: *mut T, value: T) {
    if !out.is_null() {
        // SAFETY: non-NULL, aligned (checked by every caller before), writable by contract.
        unsafe { out.write(value) }
    }
}

/// `ID3D11Device::CreateInputLayout` (and its D3D10 / D3D10.1 twins, per `target->api`):
/// validates `num_elements` descriptions of `descs` against the input signature of
/// `bytecode` exactly as the Windows runtime does and returns the HRESULT it returns.
///
/// * `target`: the runtime and feature level; NULL means D3D11 at feature level 11_0.
///   An `api` or `feature_level` that is not one of the `INLAY_` values is refused
///   (`INLAY_E_INVALIDARG`, one diagnostic with message id 0).
/// * `descs`, `num_elements`: the element array (`pInputElementDescs`, `NumElements`). NULL
///   is refused with message 164 even when `num_elements` is 0. Exactly `num_elements`
///   descriptions are read — none when `num_elements` is above the target's element limit
///   (16 or 32), which is refused with message 151 from the count alone.
/// * `bytecode`, `bytecode_length`: a compiled shader or input-signature blob
///   (`pShaderBytecodeWithInputSignature`, `BytecodeLength`); NULL or length 0 are refused
///   with message 161, like any unreadable bytecode (bad digest included).
/// * `out_layout`: receives the layout on success (`INLAY_S_OK`), NULL otherwise. When
///   `out_layout` itself is NULL the call only validates (`ppInputLayout == NULL`) and a
///   valid call returns `INLAY_S_FALSE`.
/// * `out_diagnostics`: may be NULL; otherwise receives the call's messages (possibly none),
///   to be released with `inlay_diagnostics_release` — also when the call fails.
///
/// Returns `INLAY_S_OK` (0), `INLAY_S_FALSE` (1), `INLAY_E_INVALIDARG` ((int32_t)0x80070057)
/// — what Windows returns — or `INLAY_E_FAIL` for an internal error. Misaligned pointers and a
/// `bytecode_length` above `PTRDIFF_MAX` are refused with `INLAY_E_INVALIDARG` and a
/// diagnostic of id 0 before anything is read.
///
/// The caller guarantees that every non-NULL pointer points to readable memory of the stated
/// size and that every non-NULL `SemanticName` is NUL-terminated; nothing is kept after the
/// call returns.
///
/// Thread safety: may be called from any number of threads at once.
///
/// # Safety
/// See the contract above.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_create_input_layout(
    target: *const inlay_target,
    descs: *const INLAY_INPUT_ELEMENT_DESC,
    num_elements: u32,
    bytecode: *const c_void,
    bytecode_length: usize,
    out_layout: *mut *mut inlay_layout,
    out_diagnostics: *mut *mut inlay_diagnostics,
) -> i32 {
    // SAFETY: the same contract, with no pipeline description.
    unsafe {
        create(
            target,
            descs,
            num_elements,
            bytecode,
            bytecode_length,
            std::ptr::null(),
            out_layout,
            out_diagnostics,
        )
    }
}

/// The input-layout part of `ID3D12Device::CreateGraphicsPipelineState`
/// (docs/spec/d3d12-rules.md): `inlay_create_input_layout` with the pipeline state's
/// root-signature flags, `IBStripCutValue` and `PrimitiveTopologyType` (`pipeline`; NULL
/// means the defaults: the input-assembler flag, strip cut disabled, triangle type). Under
/// `INLAY_API_D3D12` a NULL `descs` with `num_elements` 0 is a pipeline without an input
/// layout (P8); the created layout keeps the pipeline's strip cut and topology type, which
/// the stream's draws follow (P19, P22). Under D3D10/D3D11 `pipeline` is ignored.
///
/// Same arguments, results, thread safety and contract as `inlay_create_input_layout`;
/// `pipeline`, when not NULL, points to a readable, aligned `inlay_pipeline_desc`.
///
/// # Safety
/// See the contract above.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn inlay_create_pipeline_input_layout(
    target: *const inlay_target,
    descs: *const INLAY_INPUT_ELEMENT_DESC,
    num_elements: u32,
    bytecode: *const c_void,
    bytecode_length: usize,
    pipeline: *const inlay_pipeline_desc,
    out_layout: *mut *mut inlay_layout,
    out_diagnostics: *mut *mut inlay_diagnostics,
) -> i32 {
    // SAFETY: the caller's contract.
    unsafe {
        create(
            target,
            descs,
            num_elements,
            bytecode,
            bytecode_length,
            pipeline,
            out_layout,
            out_diagnostics,
        )
    }
}

/// The library's pipeline description for a C `inlay_pipeline_desc` (NULL: the defaults).
///
/// # Safety
/// `pipeline` is NULL or points to a readable `inlay_pipeline_desc`.
unsafe fn read_pipeline(
    pipeline: *const inlay_pipeline_desc,
) -> Result<inlay_core::PipelineDesc, String> {
    if pipeline.is_null() {
        return Ok(inlay_core::PipelineDesc::default());
    }
    if !pipeline.is_aligned() {
        return Err(format!(
            "pipeline pointer {pipeline:p} is not aligned to 4 bytes"
        ));
    }
    // SAFETY: non-NULL and aligned (checked above); readable by the caller's contract.
    let p = unsafe { pipeline.read() };
    Ok(inlay_core::PipelineDesc {
        root_signature_flags: p.root_signature_flags,
        ib_strip_cut_value: p.ib_strip_cut_value,
        primitive_topology_type: p.primitive_topology_type,
    })
}

/// Both creation entry points.
///
/// # Safety
/// See `inlay_create_pipeline_input_layout`.
#[allow(clippy::too_many_arguments)]
unsafe fn create(
    target: *const inlay_target,
    descs: *const INLAY_INPUT_ELEMENT_DESC,
    num_elements: u32,
    bytecode: *const c_void,
    bytecode_length: usize,
    pipeline: *const inlay_pipeline_desc,
    out_layout: *mut *mut inlay_layout,
    out_diagnostics: *mut *mut inlay_diagnostics,
) -> i32 {
    if !out_layout.is_aligned() || !out_diagnostics.is_aligned() {
        // Nothing can be written through a misaligned out pointer.
        return INLAY_E_INVALIDARG;
    }
    // SAFETY: both are NULL or aligned (checked above) and writable by the caller's contract.
    unsafe {
        store(out_layout, std::ptr::null_mut());
        store(out_diagnostics, std::ptr::null_mut());
    }
    guard(INLAY_E_FAIL, || {
        // SAFETY: the caller's contract covers the pointers these helpers read.
        let call = unsafe {
            read_target(target).and_then(|t| {
                let elements = read_elements(&t, descs, num_elements)?;
                let bytes = read_bytes(bytecode, bytecode_length, "bytecode")?;
                let pipeline = read_pipeline(pipeline)?;
                Ok((t, elements, bytes, pipeline))
            })
        };
        let (hresult, entries, layout) = match call {
            Err(message) => (INLAY_E_INVALIDARG, vec![Entry::refusal(message)], None),
            Ok((t, elements, bytes, pipeline)) => {
                let c = inlay_core::CreateInputLayout::raw(&t, elements.as_deref())
                    .pipeline(pipeline)
                    .num_elements(num_elements)
                    .validate_only(out_layout.is_null())
                    .bytecode(bytes);
                let entries = c.diagnostics.iter().map(Entry::new).collect();
                let layout = c.layout.map(|layout| inlay_layout { layout, target: t });
                (c.hresult.code() as i32, entries, layout)
            }
        };
        // SAFETY: aligned out pointers (checked at the top), writable by contract.
        unsafe {
            if let Some(layout) = layout.filter(|_| !out_layout.is_null()) {
                let p = Arc::into_raw(Arc::new(layout)).cast_mut();
                handle::made(p as usize, Kind::Layout);
                store(out_layout, p);
            }
            if !out_diagnostics.is_null() {
                let p = Box::into_raw(Box::new(inlay_diagnostics { entries }));
                handle::made(p as usize, Kind::Diagnostics);
                store(out_diagnostics, p);
            }
        }
        hresult
    })
}

/// Number of messages in `diagnostics` (0 for NULL).
///
/// Thread safety: diagnostics are immutable; any number of threads may read them at once
/// (but not while one releases them).
///
/// # Safety
/// `diagnostics` is NULL or a live pointer from `inlay_create_input_layout`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_diagnostics_count(diagnostics: *const inlay_diagnostics) -> usize {
    guard(0, || {
        if !diagnostics.is_null() {
            handle::check(
                diagnostics as usize,
                Kind::Diagnostics,
                "inlay_diagnostics_count",
            );
        }
        // SAFETY: NULL or live (caller's contract).
        unsafe { diagnostics.as_ref() }.map_or(0, |d| d.entries.len())
    })
}

/// Message `i` of `diagnostics`: writes its `D3D11_MESSAGE_ID` value to `*message_id`, its
/// severity (`INLAY_SEVERITY_ERROR` / `_WARNING` / `_INFO`, the `D3D11_MESSAGE_SEVERITY`
/// values) to `*severity`, the index of the element it is about (−1 for none) to `*element`
/// and the sentence (UTF-8, naming the semantic, the value and the rule) to `*message`; the
/// string stays valid until the diagnostics are released. Each output pointer may be NULL.
///
/// Returns 0, or −1 (writing nothing) when `diagnostics` is NULL or `i` is out of range.
///
/// Thread safety: as `inlay_diagnostics_count`.
///
/// # Safety
/// `diagnostics` is NULL or live; each output pointer is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_diagnostic_get(
    diagnostics: *const inlay_diagnostics,
    i: usize,
    message_id: *mut u32,
    severity: *mut u32,
    element: *mut i32,
    message: *mut *const c_char,
) -> c_int {
    guard(-1, || {
        if !diagnostics.is_null() {
            handle::check(
                diagnostics as usize,
                Kind::Diagnostics,
                "inlay_diagnostic_get",
            );
        }
        // SAFETY: NULL or live (caller's contract).
        let Some(e) = unsafe { diagnostics.as_ref() }.and_then(|d| d.entries.get(i)) else {
            return -1;
        };
        if !(message_id.is_aligned()
            && severity.is_aligned()
            && element.is_aligned()
            && message.is_aligned())
        {
            return -1;
        }
        // SAFETY: each is NULL or aligned (checked above) and writable by contract.
        unsafe {
            store(message_id, e.id);
            store(severity, e.severity);
            store(element, e.element);
            store(message, e.message.as_ptr());
        }
        0
    })
}

/// Frees diagnostics (NULL is ignored). The pointer and its message strings are invalid
/// afterwards.
///
/// Release each diagnostics pointer exactly once: releasing it twice, or using it after its
/// release, is undefined behaviour. A debug build of the library (`debug_assertions`) catches
/// both — it keeps the last 4096 released handles' memory, marked released — and aborts with
/// a message naming the function and the pointer; a release build does not check (no cost).
///
/// Thread safety: must not run while another thread uses the same diagnostics.
///
/// # Safety
/// `diagnostics` is NULL or a live pointer from `inlay_create_input_layout`, released once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_diagnostics_release(diagnostics: *mut inlay_diagnostics) {
    guard((), || {
        if !diagnostics.is_null() {
            let addr = diagnostics as usize;
            handle::release(
                addr,
                Kind::Diagnostics,
                "inlay_diagnostics_release",
                move || {
                    // SAFETY: made by Box::into_raw in inlay_create_input_layout; `release` runs
                    // this once, for a live handle.
                    drop(unsafe { Box::from_raw(addr as *mut inlay_diagnostics) })
                },
            );
        }
    })
}

/// The layout behind a C handle.
///
/// # Safety
/// `layout` is NULL or a live pointer from `inlay_create_input_layout`.
pub(crate) unsafe fn layout_ref<'a>(layout: *const inlay_layout) -> Option<&'a inlay_layout> {
    if !layout.is_null() {
        handle::check(layout as usize, Kind::Layout, "an inlay_layout_* function");
    }
    // SAFETY: NULL or live (caller's contract); Arc::into_raw pointers are aligned.
    unsafe { layout.as_ref() }
}

/// Number of elements of `layout` (the `num_elements` it was created with; 0 for NULL).
///
/// Thread safety: layouts are immutable; every `inlay_layout_*` reader may run on any number
/// of threads at once, and one layout may serve streams on several threads.
///
/// # Safety
/// `layout` is NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_layout_element_count(layout: *const inlay_layout) -> u32 {
    guard(0, || {
        // SAFETY: NULL or live (caller's contract).
        unsafe { layout_ref(layout) }.map_or(0, |l| l.layout.elements().len() as u32)
    })
}

/// The resolved byte offset of element `element` inside a vertex of its slot
/// (`INLAY_APPEND_ALIGNED_ELEMENT` resolved); `UINT32_MAX` when `layout` is NULL or
/// `element` is out of range (no resolved offset is ever `UINT32_MAX`).
///
/// Thread safety: as `inlay_layout_element_count`.
///
/// # Safety
/// `layout` is NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_layout_element_offset(
    layout: *const inlay_layout,
    element: u32,
) -> u32 {
    guard(u32::MAX, || {
        // SAFETY: NULL or live (caller's contract).
        unsafe { layout_ref(layout) }
            .and_then(|l| l.layout.elements().get(element as usize))
            .map_or(u32::MAX, |e| e.offset)
    })
}

/// The vertex-shader input register (`v0` = 0) element `element` feeds, or −1 when it feeds
/// none (no matching signature entry, or `SV_VertexID` / `SV_InstanceID`), when `layout` is
/// NULL or when `element` is out of range.
///
/// Thread safety: as `inlay_layout_element_count`.
///
/// # Safety
/// `layout` is NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_layout_element_register(
    layout: *const inlay_layout,
    element: u32,
) -> i32 {
    guard(-1, || {
        // SAFETY: NULL or live (caller's contract).
        unsafe { layout_ref(layout) }
            .and_then(|l| l.layout.elements().get(element as usize))
            .and_then(|e| e.register)
            .and_then(|r| i32::try_from(r).ok())
            .unwrap_or(-1)
    })
}

/// The smallest stride covering every element of input slot `slot` (the largest
/// offset + size of its elements), or 0 when no element uses the slot or `layout` is NULL.
///
/// Thread safety: as `inlay_layout_element_count`.
///
/// # Safety
/// `layout` is NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_layout_slot_min_stride(
    layout: *const inlay_layout,
    slot: u32,
) -> u32 {
    guard(0, || {
        // SAFETY: NULL or live (caller's contract).
        unsafe { layout_ref(layout) }
            .and_then(|l| l.layout.slot(slot))
            .map_or(0, |s| s.min_stride)
    })
}

/// The input registers some element of `layout` feeds, as a bit mask (bit r = register `vr`;
/// 0 for NULL). `inlay_stream_fetch` writes these registers, lowest first, for each vertex.
///
/// Thread safety: as `inlay_layout_element_count`.
///
/// # Safety
/// `layout` is NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_layout_register_mask(layout: *const inlay_layout) -> u32 {
    guard(0, || {
        // SAFETY: NULL or live (caller's contract).
        unsafe { layout_ref(layout) }.map_or(0, |l| register_mask(&l.layout))
    })
}

/// Bit r set when an element of `layout` feeds register r (registers past 31 are never
/// created by validation).
pub(crate) fn register_mask(layout: &InputLayout) -> u32 {
    layout
        .elements()
        .iter()
        .filter_map(|e| e.register)
        .filter(|&r| r < 32)
        .fold(0, |m, r| m | 1 << r)
}

/// Releases a reference to `layout` (NULL is ignored). Streams that were begun with the layout
/// keep their own reference, so a layout may be released while they run.
///
/// Release each layout pointer exactly once: releasing it twice, or using it after its
/// release, is undefined behaviour (a second release would take a stream's reference). A
/// debug build of the library (`debug_assertions`) catches both and aborts with a message
/// naming the function and the pointer; a release build does not check (no cost).
///
/// Thread safety: must not run while another thread reads the same handle through this
/// pointer; the layout itself is freed when its last reference goes.
///
/// # Safety
/// `layout` is NULL or a live pointer from `inlay_create_input_layout`, released once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_layout_release(layout: *mut inlay_layout) {
    guard((), || {
        if !layout.is_null() {
            let addr = layout as usize;
            handle::release(addr, Kind::Layout, "inlay_layout_release", move || {
                // SAFETY: made by Arc::into_raw in inlay_create_input_layout; `release` runs
                // this once, for a live handle.
                drop(unsafe { Arc::from_raw(addr as *const inlay_layout) })
            });
        }
    })
}
