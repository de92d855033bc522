//! Frame-analysis folders and logs in forms 3DMigoto writes that the generator does not:
//! each written out by hand from 3DMigoto's source (bo3b/3Dmigoto, DirectX11/
//! FrameAnalysis.cpp and HackerContext.cpp; the XXMI fork where named), and read back.

use std::path::Path;

use inlay::capture::SlotData;
use inlay::frame::log::parse_log;
use inlay::frame::{Call, Frame};

fn tmp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("inlay-frame-variant-{name}-"))
        .tempdir()
        .unwrap()
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

const VS: &str = "37c9ca285649e4ce";
const PS: &str = "db62e2da5e4e6e94";

/// A vb0 text dump header (`DumpVBTxt`: byte offset only when not 0, stride, first vertex
/// and vertex count when either is not 0, topology, the layout) of one POSITION element.
fn vb_header(first: u32, count: u32) -> String {
    format!(
        "stride: 12\nfirst vertex: {first}\nvertex count: {count}\ntopology: trianglelist\n\
         element[0]:\n  SemanticName: POSITION\n  SemanticIndex: 0\n  Format: R32G32B32_FLOAT\n  \
         InputSlot: 0\n  AlignedByteOffset: 0\n  InputSlotClass: per-vertex\n  \
         InstanceDataStepRate: 0\n"
    )
}

/// `rows` positions (k, k + 0.5, -k) as a binary dump.
fn positions(rows: u32) -> Vec<u8> {
    (0..rows)
        .flat_map(|k| {
            let k = k as f32;
            [k, k + 0.5, -k]
        })
        .flat_map(f32::to_le_bytes)
        .collect()
}

const LOG_HEAD: &str = "analyse_options: 00000630\n";

/// The input-assembler calls of one draw: vb0 `vb`, ib `ib` (R16_UINT), triangle list, the
/// shaders.
fn bind(number: u32, vb: &str, ib: &str) -> String {
    format!(
        "{number:06} IASetInputLayout(pInputLayout:0x000001F200001000)\n\
         {number:06} IASetVertexBuffers(StartSlot:0, NumBuffers:1, ppVertexBuffers:0x0000000000AAF000, pStrides:0x0000000000AAF100, pOffsets:0x0000000000AAF200)\n\
         \x20      0: resource=0x000001F2A3B40000 hash={vb}\n\
         {number:06} IASetIndexBuffer(pIndexBuffer:0x000001F2A3B50200, Format:57, Offset:0) hash={ib}\n\
         {number:06} IASetPrimitiveTopology(Topology:4)\n\
         {number:06} VSSetShader(pVertexShader:0x000001F2A3B70000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash={VS}\n\
         {number:06} PSSetShader(pPixelShader:0x000001F2A3B80000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash={PS}\n"
    )
}

fn names(number: u32, reg: &str) -> String {
    format!("{number:06}-{reg}-vs={VS}-ps={PS}")
}

/// `DumpMesh` dumps the bound index buffer at every draw when `dump_ib` is set, and
/// `DumpIBTxt` writes a non-indexed draw's without `first index:`/`index count:`. A `Draw`
/// reads no index buffer: the capture is the vertex range of the log's call, no indices.
#[test]
fn a_draw_that_is_not_indexed_ignores_the_bound_index_buffer() {
    let t = tmp("not-indexed");
    let d = t.path();
    let log = format!(
        "{LOG_HEAD}{}000001 Draw(VertexCount:3, StartVertexLocation:1)\n",
        bind(1, "0a555c2f", "75e33bf0")
    );
    write(d, "log.txt", log);
    write(
        d,
        &format!("{}.txt", names(1, "vb0=0a555c2f")),
        vb_header(1, 3),
    );
    write(
        d,
        &format!("{}.buf", names(1, "vb0=0a555c2f")),
        positions(5),
    );
    write(
        d,
        &format!("{}.txt", names(1, "ib=75e33bf0")),
        "byte offset: 0\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n\n4 3 2\n1 0 4\n",
    );
    let ib: Vec<u8> = [4u16, 3, 2, 1, 0, 4]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    write(d, &format!("{}.buf", names(1, "ib=75e33bf0")), ib);
    let frame = Frame::open(d).unwrap();
    assert!(frame.warnings.is_empty(), "{:?}", frame.warnings);
    let draw = &frame.draws[0];
    assert!(draw.problems.is_empty(), "{:?}", draw.problems);
    // Listed as bound, not read.
    assert_eq!(draw.ib.as_ref().and_then(|i| i.hash), Some(0x75e33bf0));
    assert!(draw.files().unwrap().ib.is_none());
    let c = frame.load(draw).unwrap();
    assert!(c.index.is_none());
    assert_eq!((c.draw.start_vertex, c.draw.vertex_count), (1, Some(3)));
    assert_eq!(
        c.draw_call(),
        inlay::assembler::draw::DrawCall::Draw {
            vertex_count: 3,
            start_vertex: 1
        }
    );
}

/// `ExecuteCommandList(pCommandList:0x%p, RestoreContextState:%s)`: with `false` the
/// immediate context is in its default state afterwards (ID3D11DeviceContext::
/// ExecuteCommandList), with `true` as it was.
#[test]
fn execute_command_list_without_restore_clears_the_state() {
    let log = format!(
        "{LOG_HEAD}{}000001 GSSetShader(pShader:0x000001F2A3B90000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash=1234567812345678\n\
         000001 DrawIndexed(IndexCount:3, StartIndexLocation:0, BaseVertexLocation:0)\n\
         000002 ExecuteCommandList(pCommandList:0x000001F2A3B99000, RestoreContextState:true)\n\
         000002 Draw(VertexCount:3, StartVertexLocation:0)\n\
         000003 ExecuteCommandList(pCommandList:0x000001F2A3B99000, RestoreContextState:false)\n\
         000003 Draw(VertexCount:3, StartVertexLocation:0)\n",
        bind(1, "0a555c2f", "75e33bf0")
    );
    let log = parse_log("log.txt", log.as_bytes());
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    let [kept, same, cleared] = log.draws.as_slice() else {
        panic!("{:?}", log.draws)
    };
    assert_eq!(kept.shaders.gs, Some(0x1234567812345678));
    assert_eq!(same.vbs, kept.vbs);
    assert_eq!(same.shaders, kept.shaders);
    assert_eq!(same.topology, kept.topology);
    assert!(cleared.vbs.is_empty() && cleared.ib.is_none() && cleared.layout.is_none());
    assert_eq!(cleared.topology, None);
    assert_eq!(cleared.shaders, inlay::frame::Shaders::default());
}

/// 3DMigoto 1.2.x logs `xxSetShader(…) hash=%016I64x` of its current shader, all zeros for
/// none: no shader, not a shader whose hash is 0.
#[test]
fn a_zero_shader_hash_is_no_shader() {
    let log = format!(
        "{LOG_HEAD}000001 VSSetShader(pVertexShader:0x000001F2A3B70000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash={VS}\n\
         000001 HSSetShader(pHullShader:0x0000000000000000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash=0000000000000000\n\
         000001 PSSetShader(pPixelShader:0x0000000000000000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash=0000000000000000\n\
         000001 Draw(VertexCount:3, StartVertexLocation:0)\n"
    );
    let log = parse_log("log.txt", log.as_bytes());
    let s = log.draws[0].shaders;
    assert_eq!((s.vs, s.hs, s.ps), (Some(0x37c9ca285649e4ce), None, None));
}

/// `FrameAnalysisLogAsyncQuery` ends the line of `Begin`/`End`/`GetData`/`SetPredication`
/// only for a query it tracks, so the next call (same number) runs on; `GetData` also
/// prints ` = %u` of its result first. Both calls are read.
#[test]
fn a_call_run_on_after_a_query_is_read() {
    let log = format!(
        "{LOG_HEAD}000001 End(pAsync:0x000001F2A3B99000)000001 IASetVertexBuffers(StartSlot:0, NumBuffers:1, ppVertexBuffers:0x0000000000AAF000, pStrides:0x0000000000AAF100, pOffsets:0x0000000000AAF200)\n\
         \x20      0: resource=0x000001F2A3B40000 hash=0a555c2f\n\
         000001 GetData(pAsync:0x000001F2A3B99000, pData:0x0000000000000000, DataSize:0, GetDataFlags:0) = 0000001 IASetPrimitiveTopology(Topology:5)\n\
         000001 Draw(VertexCount:3, StartVertexLocation:0)\n\
         000002 Begin(pAsync:0x000001F2A3B99000)000002 VSSetShader(pVertexShader:0x000001F2A3B70000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash={VS}\n\
         000002 Draw(VertexCount:3, StartVertexLocation:0)\n"
    );
    let log = parse_log("log.txt", log.as_bytes());
    assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    let d = &log.draws[0];
    assert_eq!(d.vbs.len(), 1);
    assert_eq!(d.vbs[0].hash, Some(0x0a555c2f));
    assert_eq!(d.topology, Some(inlay::assembler::Topology::TriangleStrip));
    assert_eq!(log.draws[1].shaders.vs, Some(0x37c9ca285649e4ce));
    assert_eq!(log.lines, 7);
}

/// Resources dumped outside a draw (`FrameAnalysisFilenameResource`:
/// `DDDDDD.K-update=HASH@PTR`, `-unmap=`, an INI's `dump =` as `DDDDDD.K-[Section]-…`) and
/// their `Dumping Buffer` lines are 3DMigoto's, no draw's: indexed past without a warning.
#[test]
fn resources_dumped_outside_draws_are_passed_over() {
    let t = tmp("resource-dumps");
    let d = t.path();
    let log = format!(
        "{LOG_HEAD}{}000001 Draw(VertexCount:3, StartVertexLocation:0)\n\
         000002 UpdateSubresource(pDstResource:0x000001F2A3B40000, DstSubresource:0, pDstBox:0x0000000000000000, pSrcData:0x0000000000AAF000, SrcRowPitch:0, SrcDepthPitch:0) hash=4cbe88a4\n\
         000002 3DMigoto Dumping Buffer C:\\FA\\000002.0-update=4cbe88a4@000001F2A3B40000.buf -> C:\\FA\\deduped\\aaaaaaaa.buf\n",
        bind(1, "0a555c2f", "75e33bf0")
    );
    write(d, "log.txt", log);
    write(
        d,
        &format!("{}.txt", names(1, "vb0=0a555c2f")),
        vb_header(0, 3),
    );
    write(
        d,
        &format!("{}.buf", names(1, "vb0=0a555c2f")),
        positions(3),
    );
    write(
        d,
        "000002.0-update=4cbe88a4@000001F2A3B40000.buf",
        [0u8; 16],
    );
    write(d, "000002.1-unmap=4cbe88a4@000001F2A3B40000.txt", "x\n");
    write(
        d,
        "000003.0-[ShaderOverride_87f6]-vb0=4cbe88a4.buf",
        [0u8; 16],
    );
    let frame = Frame::open(d).unwrap();
    assert!(frame.warnings.is_empty(), "{:?}", frame.warnings);
    assert_eq!(frame.draws.len(), 1);
    assert!(frame.draws[0].problems.is_empty());
}

/// XXMI's `track_region_hashes` names a buffer `vb0=REGION(BASE)` while the log's slot line
/// prints the resource's hash, BASE: that agrees. Another hash still disagrees.
#[test]
fn a_region_hash_name_agrees_with_the_log_through_its_original_hash() {
    let t = tmp("region");
    let d = t.path();
    let log = format!(
        "{LOG_HEAD}{}000001 DrawIndexed(IndexCount:3, StartIndexLocation:0, BaseVertexLocation:0)\n",
        bind(1, "0a555c2f", "75e33bf0")
    );
    let ib: Vec<u8> = [0u16, 1, 2].iter().flat_map(|i| i.to_le_bytes()).collect();
    let ib_txt = "byte offset: 0\nfirst index: 0\nindex count: 3\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n";
    write(d, "log.txt", &log);
    let folder = |vb: &str, ibn: &str| {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if !p.ends_with("log.txt") {
                std::fs::remove_file(p).unwrap();
            }
        }
        write(d, &format!("{}.txt", names(1, vb)), vb_header(0, 3));
        write(d, &format!("{}.buf", names(1, vb)), positions(3));
        write(d, &format!("{}.txt", names(1, ibn)), ib_txt);
        write(d, &format!("{}.buf", names(1, ibn)), &ib);
        let frame = Frame::open(d).unwrap();
        assert!(frame.warnings.is_empty(), "{:?}", frame.warnings);
        frame.draws[0]
            .problems
            .iter()
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        folder("vb0=c0ffee11(0a555c2f)", "ib=beef2222(75e33bf0)"),
        Vec::<String>::new()
    );
    assert_eq!(
        folder("vb0=c0ffee11(12345678)", "ib=75e33bf0"),
        ["the name says vb0 hash c0ffee11, the log's IASetVertexBuffers says 0a555c2f"]
    );
}

/// `DrawIndexed` with a negative BaseVertexLocation: `DumpVBTxt` prints `first vertex: %u`
/// (4294967291 for -5), so the rows it reads are -5 + the vertex count, not 4 G.
#[test]
fn a_negative_base_vertex_needs_no_4_g_rows() {
    assert_eq!(
        inlay::capture::migoto::header_rows(-5i32 as u32, Some(10), true),
        5
    );
    assert_eq!(
        inlay::capture::migoto::header_rows(-50i32 as u32, Some(10), true),
        0
    );
    assert_eq!(
        inlay::capture::migoto::header_rows(-5i32 as u32, Some(10), false),
        4_294_967_301
    );
    let t = tmp("negative-base");
    let d = t.path();
    let log = format!(
        "{LOG_HEAD}{}000001 DrawIndexed(IndexCount:3, StartIndexLocation:0, BaseVertexLocation:4294967291)\n",
        bind(1, "0a555c2f", "75e33bf0")
    );
    write(d, "log.txt", log);
    write(
        d,
        &format!("{}.txt", names(1, "vb0=0a555c2f")),
        vb_header(-5i32 as u32, 10),
    );
    write(
        d,
        &format!("{}.buf", names(1, "vb0=0a555c2f")),
        positions(10),
    );
    write(
        d,
        &format!("{}.txt", names(1, "ib=75e33bf0")),
        "byte offset: 0\nfirst index: 0\nindex count: 3\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n",
    );
    let ib: Vec<u8> = [5u16, 6, 9].iter().flat_map(|i| i.to_le_bytes()).collect();
    write(d, &format!("{}.buf", names(1, "ib=75e33bf0")), ib);
    let frame = Frame::open(d).unwrap();
    let draw = &frame.draws[0];
    assert!(draw.problems.is_empty(), "{:?}", draw.problems);
    let c = frame.load(draw).unwrap();
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.draw.base_vertex, -5);
}

/// `deferred_ctx_accurate`: a deferred context's buffers are dumped on the immediate
/// context after `ExecuteCommandList` (`dump_deferred_resources`), so their `Dumping
/// Buffer` lines are in log.txt under the immediate context's number while the files are
/// the deferred context's draw's. With only shortcuts in its folder (the FAT32 fallback)
/// the draw's files are found through those lines.
#[test]
fn a_deferred_contexts_dumps_logged_by_the_immediate_context_find_their_draw() {
    let t = tmp("deferred");
    let d = t.path();
    let ctx = "ctx-0x000001F2AA000000";
    let vb = names(1, "vb0=0a555c2f");
    let ib = names(1, "ib=75e33bf0");
    write(
        d,
        "log-0x000001F2AA000000.txt",
        format!(
            "{LOG_HEAD}{}000001 DrawIndexed(IndexCount:3, StartIndexLocation:0, BaseVertexLocation:0)\n",
            bind(1, "0a555c2f", "75e33bf0")
        ),
    );
    let dumping = |ext: &str, saved: &str| {
        [(&vb, "0a555c2f"), (&ib, "75e33bf0")]
            .iter()
            .map(|(n, h)| {
                let saved = if ext == "buf" {
                    format!("{h}.buf")
                } else {
                    format!("{h}-{saved}.txt")
                };
                format!(
                    "000007 3DMigoto Dumping Buffer C:\\FA\\{ctx}\\{n}.{ext} -> C:\\FA\\deduped\\{saved}\n"
                )
            })
            .collect::<String>()
    };
    write(
        d,
        "log.txt",
        format!(
            "{LOG_HEAD}000007 ExecuteCommandList(pCommandList:0x000001F2A3B99000, RestoreContextState:true)\n{}{}",
            dumping("buf", ""),
            dumping("txt", "x")
        ),
    );
    // Only shortcuts in the context's folder; the files are in deduped/.
    for n in [&vb, &ib] {
        for ext in ["txt", "buf"] {
            write(d, &format!("{ctx}/{n}.{ext}.lnk"), b"L\0\0\0");
        }
    }
    write(d, "deduped/0a555c2f-x.txt", vb_header(0, 3));
    write(d, "deduped/0a555c2f.buf", positions(3));
    write(
        d,
        "deduped/75e33bf0-x.txt",
        "byte offset: 0\nfirst index: 0\nindex count: 3\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n",
    );
    let ibb: Vec<u8> = [2u16, 1, 0].iter().flat_map(|i| i.to_le_bytes()).collect();
    write(d, "deduped/75e33bf0.buf", ibb);
    let frame = Frame::open(d).unwrap();
    assert!(frame.warnings.is_empty(), "{:?}", frame.warnings);
    let draw = frame
        .draws
        .iter()
        .find(|x| x.context == Some(0x000001F2AA000000) && x.number == 1)
        .unwrap();
    assert!(draw.problems.is_empty(), "{:?}", draw.problems);
    let c = frame.load(draw).unwrap();
    let SlotData::Binary(b) = &c.slots[0].data else {
        panic!("not binary")
    };
    assert_eq!(b, &positions(3));
    assert_eq!(c.index.as_ref().unwrap().data, [2, 0, 1, 0, 0, 0]);
    assert!(matches!(draw.call(), Some(Call::Direct(_))));
}

/// `dump_vb_instance_data` prints per-instance row (instance - start) / rate + start once
/// per instance, so with step rate 2 each row comes twice, the same: no warning, the values
/// read once.
#[test]
fn per_instance_rows_repeated_by_their_step_rate_are_read_without_warnings() {
    let t = tmp("instance-rate");
    let d = t.path();
    let text = "stride: 8\nfirst vertex: 0\nvertex count: 3\nfirst instance: 0\ninstance count: 4\n\
topology: trianglelist\nelement[0]:\n  SemanticName: TEXCOORD\n  SemanticIndex: 1\n  \
Format: R32G32_FLOAT\n  InputSlot: 1\n  AlignedByteOffset: 0\n  InputSlotClass: per-instance\n  \
InstanceDataStepRate: 2\n\ninstance-data:\n\nvb1[0]+000 TEXCOORD1: 0.5, 0.25\n\n\
vb1[0]+000 TEXCOORD1: 0.5, 0.25\n\nvb1[1]+000 TEXCOORD1: 0.75, 0.125\n\n\
vb1[1]+000 TEXCOORD1: 0.75, 0.125\n";
    write(d, "000001-vb1=bbbbbbbb-vs=1111111111111111.txt", text);
    let c =
        inlay::capture::load_dump(&d.join("000001-vb1=bbbbbbbb-vs=1111111111111111.txt")).unwrap();
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let SlotData::Text(t) = &c.slots[0].data else {
        panic!("not text")
    };
    assert_eq!(t.rows(), 2);
    assert_eq!(
        t.get(0, 1),
        Some([0.75f32.to_bits(), 0.125f32.to_bits(), 0, 0x3f80_0000])
    );
}
