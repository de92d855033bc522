//! The D3D12 path on arbitrary input: a dxc-style container built from arbitrary parts
//! (`DXIL`, `PSV0`, `ISG1`, `HASH`, `SFI0` or any tag, any contents, any order) or any bytes,
//! read under dxc's and fxc's container rules with every DXIL accessor; then the input-layout
//! part of `CreateGraphicsPipelineState` with arbitrary elements and pipeline state (root
//! signature flags, strip cut, topology type) at a D3D12 feature level.
//!
//! Nothing may panic; a part that parses writes back (PSV0) to bytes that parse again; the
//! creation's outcome is consistent: a layout exactly when it succeeds, `E_INVALIDARG`
//! otherwise, one resolved element per described element, every slot in range.
#![no_main]

use arbitrary::Arbitrary;
use inlay::diag::{HResult, Severity};
use inlay::dxbc::dxil::{Psv0, write_contiguous};
use inlay::dxbc::{Container, ContainerRules};
use inlay::target::{Api, FeatureLevel, Target};
use inlay::validation::PipelineDesc;
use inlay_fuzz::{ArbElement, Biased};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
enum Tag {
    Dxil,
    Psv0,
    Isg1,
    Osg1,
    Hash,
    Sfi0,
    Any([u8; 4]),
}

impl Tag {
    fn bytes(&self) -> [u8; 4] {
        match self {
            Tag::Dxil => *b"DXIL",
            Tag::Psv0 => *b"PSV0",
            Tag::Isg1 => *b"ISG1",
            Tag::Osg1 => *b"OSG1",
            Tag::Hash => *b"HASH",
            Tag::Sfi0 => *b"SFI0",
            Tag::Any(t) => *t,
        }
    }
}

#[derive(Debug, Arbitrary)]
enum Bytecode {
    Raw(Vec<u8>),
    Parts(Vec<(Tag, Vec<u8>)>),
}

#[derive(Debug, Arbitrary)]
struct Input {
    level: u8,
    elements: Vec<ArbElement>,
    bytecode: Bytecode,
    root_signature_flags: Biased,
    strip_cut: u8,
    topology_type: u8,
}

fuzz_target!(|input: Input| {
    let bytes = match &input.bytecode {
        Bytecode::Raw(b) => b.clone(),
        Bytecode::Parts(parts) => {
            let parts: Vec<([u8; 4], &[u8])> =
                parts.iter().map(|(t, d)| (t.bytes(), d.as_slice())).collect();
            write_contiguous(&parts)
        }
    };
    for rules in [ContainerRules::Dxc, ContainerRules::Fxc] {
        if let Ok(c) = Container::parse_with(&bytes, rules) {
            assert!(c.size() <= bytes.len());
            let _ = (c.digest_kind(), c.implicit_inputs(), c.shader_model_string());
            if let Some(Ok(p)) = c.dxil_program() {
                let _ = (p.kind().name(), p.shader_model(), p.profile(), p.dxil_version_string());
            }
            if let Some(Ok(psv)) = c.psv0() {
                let _ = (psv.version(), psv.shader_stage(), psv.entry_function_name());
                let again = psv.write();
                assert!(Psv0::parse(&again, 0).is_ok(), "a written PSV0 parses");
            }
            let _ = c.shader_hash();
            let _ = c.feature_flags();
            let _ = c.input_signature();
        }
    }
    let _ = Container::parse_detected(&bytes);

    let levels = [
        FeatureLevel::L11_0,
        FeatureLevel::L11_1,
        FeatureLevel::L12_0,
        FeatureLevel::L12_1,
        FeatureLevel::L12_2,
    ];
    let target = Target::new(Api::D3D12, levels[input.level as usize % levels.len()]);
    let descs: Vec<_> = input.elements.iter().map(ArbElement::desc).collect();
    let pipeline = PipelineDesc {
        root_signature_flags: input.root_signature_flags.0,
        ib_strip_cut_value: input.strip_cut as u32 % 4,
        primitive_topology_type: input.topology_type as u32 % 6,
    };
    let c = inlay::CreateInputLayout::new(&target, &descs)
        .pipeline(pipeline)
        .bytecode(&bytes);
    for d in &c.diagnostics {
        assert!(!d.to_string().is_empty());
        assert!(d.element.is_none_or(|e| e < descs.len()));
    }
    let has_error = c.diagnostics.iter().any(|d| d.severity == Severity::Error);
    assert_eq!(c.is_success(), !has_error);
    assert_eq!(c.layout.is_some(), c.is_success());
    if let Some(layout) = &c.layout {
        assert_eq!(layout.elements().len(), descs.len());
        for e in layout.elements() {
            assert!(e.slot < target.max_input_slots());
        }
    } else {
        assert_eq!(c.hresult, HResult::E_INVALIDARG);
    }
});
