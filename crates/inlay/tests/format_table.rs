//! The format table and the `Format` constants generated from it, against lists that do not
//! come from the table: the `DXGI_FORMAT` enumeration of Microsoft's `dxgiformat.h` reference
//! (typed here value by value), and the per-feature-level "Input Assembler Vertex Buffer" table
//! of the spec notes (`docs/spec/ia-semantics.md` §1.1, read from the file).

use std::collections::BTreeMap;
use std::path::PathBuf;

use inlay::format::{FORMATS, Format, Support};
use inlay::target::FeatureLevel;

/// Checks one generated constant against the reference name and value, and returns the pair.
macro_rules! dxgi {
    ($($id:ident $(($text:literal))? = $value:literal,)*) => {
        [$({
            let name: &str = dxgi!(@name $id $($text)?);
            assert_eq!(Format::$id, Format($value), "Format::{} is not {}", stringify!($id), $value);
            (name, $value)
        }),*]
    };
    (@name $id:ident) => { stringify!($id) };
    (@name $id:ident $text:literal) => { $text };
}

/// `enum DXGI_FORMAT` of `dxgiformat.h` (learn.microsoft.com, "DXGI_FORMAT enumeration"),
/// every value but `DXGI_FORMAT_FORCE_UINT`, with the `DXGI_FORMAT_` prefix dropped.
fn reference() -> Vec<(&'static str, u32)> {
    dxgi! {
        UNKNOWN = 0,
        R32G32B32A32_TYPELESS = 1,
        R32G32B32A32_FLOAT = 2,
        R32G32B32A32_UINT = 3,
        R32G32B32A32_SINT = 4,
        R32G32B32_TYPELESS = 5,
        R32G32B32_FLOAT = 6,
        R32G32B32_UINT = 7,
        R32G32B32_SINT = 8,
        R16G16B16A16_TYPELESS = 9,
        R16G16B16A16_FLOAT = 10,
        R16G16B16A16_UNORM = 11,
        R16G16B16A16_UINT = 12,
        R16G16B16A16_SNORM = 13,
        R16G16B16A16_SINT = 14,
        R32G32_TYPELESS = 15,
        R32G32_FLOAT = 16,
        R32G32_UINT = 17,
        R32G32_SINT = 18,
        R32G8X24_TYPELESS = 19,
        D32_FLOAT_S8X24_UINT = 20,
        R32_FLOAT_X8X24_TYPELESS = 21,
        X32_TYPELESS_G8X24_UINT = 22,
        R10G10B10A2_TYPELESS = 23,
        R10G10B10A2_UNORM = 24,
        R10G10B10A2_UINT = 25,
        R11G11B10_FLOAT = 26,
        R8G8B8A8_TYPELESS = 27,
        R8G8B8A8_UNORM = 28,
        R8G8B8A8_UNORM_SRGB = 29,
        R8G8B8A8_UINT = 30,
        R8G8B8A8_SNORM = 31,
        R8G8B8A8_SINT = 32,
        R16G16_TYPELESS = 33,
        R16G16_FLOAT = 34,
        R16G16_UNORM = 35,
        R16G16_UINT = 36,
        R16G16_SNORM = 37,
        R16G16_SINT = 38,
        R32_TYPELESS = 39,
        D32_FLOAT = 40,
        R32_FLOAT = 41,
        R32_UINT = 42,
        R32_SINT = 43,
        R24G8_TYPELESS = 44,
        D24_UNORM_S8_UINT = 45,
        R24_UNORM_X8_TYPELESS = 46,
        X24_TYPELESS_G8_UINT = 47,
        R8G8_TYPELESS = 48,
        R8G8_UNORM = 49,
        R8G8_UINT = 50,
        R8G8_SNORM = 51,
        R8G8_SINT = 52,
        R16_TYPELESS = 53,
        R16_FLOAT = 54,
        D16_UNORM = 55,
        R16_UNORM = 56,
        R16_UINT = 57,
        R16_SNORM = 58,
        R16_SINT = 59,
        R8_TYPELESS = 60,
        R8_UNORM = 61,
        R8_UINT = 62,
        R8_SNORM = 63,
        R8_SINT = 64,
        A8_UNORM = 65,
        R1_UNORM = 66,
        R9G9B9E5_SHAREDEXP = 67,
        R8G8_B8G8_UNORM = 68,
        G8R8_G8B8_UNORM = 69,
        BC1_TYPELESS = 70,
        BC1_UNORM = 71,
        BC1_UNORM_SRGB = 72,
        BC2_TYPELESS = 73,
        BC2_UNORM = 74,
        BC2_UNORM_SRGB = 75,
        BC3_TYPELESS = 76,
        BC3_UNORM = 77,
        BC3_UNORM_SRGB = 78,
        BC4_TYPELESS = 79,
        BC4_UNORM = 80,
        BC4_SNORM = 81,
        BC5_TYPELESS = 82,
        BC5_UNORM = 83,
        BC5_SNORM = 84,
        B5G6R5_UNORM = 85,
        B5G5R5A1_UNORM = 86,
        B8G8R8A8_UNORM = 87,
        B8G8R8X8_UNORM = 88,
        R10G10B10_XR_BIAS_A2_UNORM = 89,
        B8G8R8A8_TYPELESS = 90,
        B8G8R8A8_UNORM_SRGB = 91,
        B8G8R8X8_TYPELESS = 92,
        B8G8R8X8_UNORM_SRGB = 93,
        BC6H_TYPELESS = 94,
        BC6H_UF16 = 95,
        BC6H_SF16 = 96,
        BC7_TYPELESS = 97,
        BC7_UNORM = 98,
        BC7_UNORM_SRGB = 99,
        AYUV = 100,
        Y410 = 101,
        Y416 = 102,
        NV12 = 103,
        P010 = 104,
        P016 = 105,
        OPAQUE_420("420_OPAQUE") = 106,
        YUY2 = 107,
        Y210 = 108,
        Y216 = 109,
        NV11 = 110,
        AI44 = 111,
        IA44 = 112,
        P8 = 113,
        A8P8 = 114,
        B4G4R4A4_UNORM = 115,
        P208 = 130,
        V208 = 131,
        V408 = 132,
        SAMPLER_FEEDBACK_MIN_MIP_OPAQUE = 189,
        SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE = 190,
        A4B4G4R4_UNORM = 191,
    }
    .to_vec()
}

#[test]
fn rows_and_constants_are_the_dxgiformat_h_enumeration() {
    let reference = reference();
    let table: Vec<(&str, u32)> = FORMATS.iter().map(|f| (f.name, f.value)).collect();
    assert_eq!(table, reference);
    for (name, value) in reference {
        assert_eq!(name.parse::<Format>(), Ok(Format(value)), "{name}");
        let prefixed = format!("dxgi_format_{}", name.to_ascii_lowercase());
        assert_eq!(prefixed.parse::<Format>(), Ok(Format(value)), "{prefixed}");
        assert_eq!(Format(value).to_string(), name);
        assert_eq!(Format(value).info().map(|i| i.value), Some(value));
    }
    // The holes of the enumeration are not formats.
    for value in (116..130).chain(133..189).chain([192, 0xffff_ffff]) {
        assert_eq!(Format(value).info(), None, "{value}");
        assert_eq!(Format(value).to_string(), value.to_string());
    }
}

/// The spec notes as the repository ships them (`docs/spec/ia-semantics.md`; `../shared/spec`
/// holds the same file, but this test must not depend on `../shared` being there).
fn spec_notes() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/spec/ia-semantics.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `2`, `49–52`, `54,56–59` → the values.
fn numbers(list: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for part in list.split(',') {
        match part.trim().split_once('–') {
            Some((a, b)) => out.extend(a.parse::<u32>().unwrap()..=b.parse::<u32>().unwrap()),
            None => out.push(part.trim().parse().unwrap()),
        }
    }
    out
}

#[test]
fn vertex_buffer_support_is_the_spec_notes_table() {
    let notes = spec_notes();
    // Rows `| R32G32B32A32_UINT (3), _SINT (4) | - | - | - | R | R | R | R |` of §1.1.
    let start = notes
        .find("| DXGI format (#) |")
        .expect("ia-semantics.md §1.1 table");
    let mut expected: BTreeMap<u32, Vec<Support>> = BTreeMap::new();
    for line in notes[start..].lines().skip(2) {
        let Some(cells) = line.strip_prefix('|') else {
            break;
        };
        let cells: Vec<&str> = cells.split('|').map(str::trim).collect();
        let levels: Vec<Support> = cells[1..8]
            .iter()
            .map(|c| match *c {
                "R" => Support::Required,
                "o" => Support::Optional,
                "-" => Support::None,
                other => panic!("support cell {other:?} in {line}"),
            })
            .collect();
        let mut rest = cells[0];
        while let Some(open) = rest.find('(') {
            let close = open + rest[open..].find(')').unwrap();
            for value in numbers(&rest[open + 1..close]) {
                assert!(expected.insert(value, levels.clone()).is_none(), "{value}");
            }
            rest = &rest[close + 1..];
        }
    }
    assert_eq!(expected.len(), 47);
    for info in FORMATS {
        let got: Vec<Support> = FeatureLevel::ALL
            .iter()
            .map(|l| info.vertex_support(*l))
            .collect();
        let want = expected
            .get(&info.value)
            .cloned()
            .unwrap_or(vec![Support::None; 7]);
        assert_eq!(got, want, "{}", info.name);
    }
}

#[test]
fn index_buffer_support_is_r16_everywhere_and_r32_from_9_2() {
    // ia-semantics.md §1.1 "Index-buffer column" (Wine `test_format_support`): R16_UINT at every
    // level, R32_UINT from 9_2 up, nothing else (spec §5.3.4.2).
    for info in FORMATS {
        for (i, level) in FeatureLevel::ALL.iter().enumerate() {
            let want = match (info.value, i) {
                (57, _) => Support::Required,
                (42, 1..) => Support::Required,
                _ => Support::None,
            };
            assert_eq!(info.index_support(*level), want, "{} {level:?}", info.name);
        }
    }
}

#[test]
fn index_formats_are_the_table_rows_with_index_buffer_support() {
    use inlay::buffer::IndexFormat;
    let rows: Vec<Format> = inlay::format::index_formats()
        .map(|f| Format(f.value))
        .collect();
    let mut ours: Vec<Format> = IndexFormat::ALL.iter().map(|i| i.format()).collect();
    ours.sort();
    assert_eq!(rows, ours);
    // Spec §5.3.4.2 / §8.12: 2- and 4-byte indices, the cut value every bit set.
    let want = [
        (IndexFormat::R16Uint, 57, "R16_UINT", 2, 0xffff),
        (IndexFormat::R32Uint, 42, "R32_UINT", 4, 0xffff_ffff),
    ];
    for (i, value, name, size, cut) in want {
        assert_eq!(i.format(), Format(value));
        assert_eq!((i.name(), i.size(), i.cut_value()), (name, size, cut));
        assert_eq!(i.to_string(), name);
        assert_eq!(IndexFormat::from_format(Format(value)), Some(i));
        for text in [
            name.to_string(),
            format!("dxgi_format_{}", name.to_ascii_lowercase()),
            value.to_string(),
            format!("{value:#x}"),
        ] {
            assert_eq!(text.parse::<IndexFormat>(), Ok(i), "{text}");
        }
    }
    for bad in ["R8_UINT", "R32_FLOAT", "62", "", "R16"] {
        let e = bad.parse::<IndexFormat>().unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("index format `{bad}` must be R16_UINT or R32_UINT")
        );
    }
    assert_eq!(IndexFormat::from_format(Format::R16_SINT), None);
}
