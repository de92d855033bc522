//! The `SystemValue` constants and table against the `D3D_NAME` enumeration of Microsoft's
//! `d3dcommon.h` reference (typed here value by value) and the HLSL semantic names of the
//! "Semantics" page (learn.microsoft.com, "System-value semantics").

use inlay::dxbc::signature::{SYSTEM_VALUES, SystemValue};

#[test]
fn constants_and_table_are_the_d3d_name_enumeration() {
    // (constant, D3D_NAME value, the `D3D_NAME_` suffix, the HLSL semantic).
    let reference = [
        (SystemValue::UNDEFINED, 0, "UNDEFINED", None),
        (SystemValue::POSITION, 1, "POSITION", Some("SV_Position")),
        (
            SystemValue::CLIP_DISTANCE,
            2,
            "CLIP_DISTANCE",
            Some("SV_ClipDistance"),
        ),
        (
            SystemValue::CULL_DISTANCE,
            3,
            "CULL_DISTANCE",
            Some("SV_CullDistance"),
        ),
        (
            SystemValue::RENDER_TARGET_ARRAY_INDEX,
            4,
            "RENDER_TARGET_ARRAY_INDEX",
            Some("SV_RenderTargetArrayIndex"),
        ),
        (
            SystemValue::VIEWPORT_ARRAY_INDEX,
            5,
            "VIEWPORT_ARRAY_INDEX",
            Some("SV_ViewportArrayIndex"),
        ),
        (SystemValue::VERTEX_ID, 6, "VERTEX_ID", Some("SV_VertexID")),
        (
            SystemValue::PRIMITIVE_ID,
            7,
            "PRIMITIVE_ID",
            Some("SV_PrimitiveID"),
        ),
        (
            SystemValue::INSTANCE_ID,
            8,
            "INSTANCE_ID",
            Some("SV_InstanceID"),
        ),
        (
            SystemValue::IS_FRONT_FACE,
            9,
            "IS_FRONT_FACE",
            Some("SV_IsFrontFace"),
        ),
        (
            SystemValue::SAMPLE_INDEX,
            10,
            "SAMPLE_INDEX",
            Some("SV_SampleIndex"),
        ),
        (
            SystemValue::FINAL_QUAD_EDGE_TESSFACTOR,
            11,
            "FINAL_QUAD_EDGE_TESSFACTOR",
            Some("SV_TessFactor"),
        ),
        (
            SystemValue::FINAL_QUAD_INSIDE_TESSFACTOR,
            12,
            "FINAL_QUAD_INSIDE_TESSFACTOR",
            Some("SV_InsideTessFactor"),
        ),
        (
            SystemValue::FINAL_TRI_EDGE_TESSFACTOR,
            13,
            "FINAL_TRI_EDGE_TESSFACTOR",
            Some("SV_TessFactor"),
        ),
        (
            SystemValue::FINAL_TRI_INSIDE_TESSFACTOR,
            14,
            "FINAL_TRI_INSIDE_TESSFACTOR",
            Some("SV_InsideTessFactor"),
        ),
        (
            SystemValue::FINAL_LINE_DETAIL_TESSFACTOR,
            15,
            "FINAL_LINE_DETAIL_TESSFACTOR",
            Some("SV_TessFactor"),
        ),
        (
            SystemValue::FINAL_LINE_DENSITY_TESSFACTOR,
            16,
            "FINAL_LINE_DENSITY_TESSFACTOR",
            Some("SV_TessFactor"),
        ),
        (
            SystemValue::BARYCENTRICS,
            23,
            "BARYCENTRICS",
            Some("SV_Barycentrics"),
        ),
        (
            SystemValue::SHADINGRATE,
            24,
            "SHADINGRATE",
            Some("SV_ShadingRate"),
        ),
        (
            SystemValue::CULLPRIMITIVE,
            25,
            "CULLPRIMITIVE",
            Some("SV_CullPrimitive"),
        ),
        (SystemValue::TARGET, 64, "TARGET", Some("SV_Target")),
        (SystemValue::DEPTH, 65, "DEPTH", Some("SV_Depth")),
        (SystemValue::COVERAGE, 66, "COVERAGE", Some("SV_Coverage")),
        (
            SystemValue::DEPTH_GREATER_EQUAL,
            67,
            "DEPTH_GREATER_EQUAL",
            Some("SV_DepthGreaterEqual"),
        ),
        (
            SystemValue::DEPTH_LESS_EQUAL,
            68,
            "DEPTH_LESS_EQUAL",
            Some("SV_DepthLessEqual"),
        ),
        (
            SystemValue::STENCIL_REF,
            69,
            "STENCIL_REF",
            Some("SV_StencilRef"),
        ),
        (
            SystemValue::INNER_COVERAGE,
            70,
            "INNER_COVERAGE",
            Some("SV_InnerCoverage"),
        ),
    ];
    let codes: Vec<u32> = SYSTEM_VALUES.iter().map(|r| r.0).collect();
    let want: Vec<u32> = reference.iter().map(|r| r.1).collect();
    assert_eq!(codes, want);
    for (sv, value, name, semantic) in reference {
        assert_eq!(sv, SystemValue(value), "{name}");
        assert_eq!(sv.semantic(), semantic, "{name}");
        // The schema spells UNDEFINED as fxc does, NONE; both parse.
        let schema = if value == 0 { "NONE" } else { name };
        assert_eq!(sv.schema_name(), Some(schema));
        assert_eq!(SystemValue::from_name(name), Some(sv), "{name}");
        assert_eq!(
            SystemValue::from_name(&format!("d3d_name_{}", name.to_ascii_lowercase())),
            Some(sv)
        );
        let fxc = sv.fxc_name().unwrap();
        assert_eq!(SystemValue::from_name(fxc), Some(sv), "{fxc}");
    }
    for value in (17..23).chain(26..64).chain([71, u32::MAX]) {
        assert_eq!(SystemValue(value).schema_name(), None, "{value}");
        assert_eq!(SystemValue(value).semantic(), None, "{value}");
    }
}
