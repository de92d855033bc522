//! C99 and C++17 programs against the built `libinlay`, linked through pkg-config (and CMake's
//! `find_package(inlay)`), run from the test command.
//!
//! Setup (once per run): `cargo build --release -p inlay-capi` (the test harness does not build
//! the cdylib/staticlib itself), `install.sh` into `<target>/inlay-capi-test/prefix`, then each
//! program is compiled with the machine's `cc` / `c++` using `pkg-config --cflags --libs inlay`.
//!
//! * `tests/c/abi_test.c` (C99, shared and static library): seed layout and draw, one case per
//!   rule group, a real corpus shader, NULL and garbage inputs, draw-time refusals.
//! * `tests/c/abi_test.cpp` (C++17): the SDK's own `D3D11_INPUT_ELEMENT_DESC` /
//!   `D3D10_INPUT_ELEMENT_DESC` passed by cast, static asserts, one layout on four threads.
//! * `tests/c/case_driver.c` with generated data: every case of `conformance/` and of the shared
//!   examples (corpus shaders included) compared with the cases' expectations, and draws of
//!   every kind compared bit for bit with the Rust library's reference assembler.
//!
//! Ignored (listed so in the summary, docs/notes/tests.md) when the build found no
//! `cc`/`c++`/`pkg-config`/`cmake`, or no corpus (`$INLAY_CORPUS`, else `../shared/corpus`) or
//! shared example cases for the tests that read them; `build_saw_this_machine` fails under
//! `INLAY_REQUIRE_SHARED=1` / `INLAY_REQUIRE_C_TOOLS=1` (`.ci/run`) when the build did not. `INLAY_CAPI_VALGRIND=1` runs every program under valgrind
//! (memcheck, errors and definite leaks fail the test).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use inlay_core::assembler::{DrawCall, InputAssembler, Topology};
use inlay_core::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay_core::dxbc::signature::{
    ComponentType, MinPrecision, NO_REGISTER, Signature, SignatureElement, SystemValue,
};
use inlay_core::dxbc::signature_blob;
use inlay_core::element::InputElementDesc;
use inlay_core::format::Format;
use inlay_core::target::Target;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Setup: build, install, tools.

struct Setup {
    root: PathBuf,
    work: PathBuf,
    prefix: PathBuf,
    seed: PathBuf,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

#[path = "../../inlay/testenv/test_side.rs"]
mod testenv;

// The C program tests need a C compiler and pkg-config (some also c++, cmake, the corpus):
// without them they are listed as ignored (docs/notes/tests.md). `.ci/run` installs the tools
// and sets `INLAY_REQUIRE_C_TOOLS=1`, which makes `build_saw_this_machine` fail if the build
// did not find them.

/// The build saw the `../shared` folders and C tools this machine has (and, under `.ci/run`,
/// all of them).
#[test]
fn build_saw_this_machine() {
    testenv::check_build_saw_this_machine();
}

fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "c++".into())
}

fn run_checked(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{text}",
        out.status
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Builds and installs libinlay once (the tests calling this are ignored when the build
/// found no C compiler or pkg-config).
fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let root = workspace_root();
        // <target>/release/deps/c_programs-HASH → <target>
        let exe = std::env::current_exe().unwrap();
        let target = exe.ancestors().nth(3).unwrap().to_path_buf();
        run_checked(
            Command::new(env!("CARGO"))
                .args(["build", "--release", "-p", "inlay-capi", "--target-dir"])
                .arg(&target)
                .current_dir(&root),
            "cargo build --release -p inlay-capi",
        );
        let work = target.join("inlay-capi-test");
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).unwrap();
        let prefix = work.join("prefix");
        run_checked(
            Command::new("sh")
                .arg(root.join("crates/inlay-capi/install.sh"))
                .arg(&prefix)
                .arg(&target),
            "install.sh",
        );
        let seed = work.join("seed.dxbc");
        std::fs::write(
            &seed,
            signature_blob(&signature(&[
                ("POSITION", 0, 0, 0b111, ComponentType::FLOAT32),
                ("COLOR", 0, 1, 0b111, ComponentType::FLOAT32),
            ])),
        )
        .unwrap();
        Setup {
            root,
            work,
            prefix,
            seed,
        }
    })
}

fn pkg_config(s: &Setup, args: &[&str]) -> Vec<String> {
    let out = run_checked(
        Command::new("pkg-config")
            .args(args)
            .arg("inlay")
            .env("PKG_CONFIG_PATH", s.prefix.join("lib/pkgconfig")),
        "pkg-config",
    );
    out.split_whitespace().map(String::from).collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Link {
    Shared,
    Static,
}

/// Compiles `sources` into `name` with `compiler` and the pkg-config flags of the installed
/// library.
fn compile(
    s: &Setup,
    compiler: &str,
    flags: &[&str],
    sources: &[PathBuf],
    name: &str,
    link: Link,
) -> PathBuf {
    let exe = s.work.join(name);
    let mut cmd = Command::new(compiler);
    cmd.args(flags).args(sources).arg("-o").arg(&exe);
    match link {
        Link::Shared => {
            cmd.args(pkg_config(s, &["--cflags", "--libs"]));
            cmd.arg(format!("-Wl,-rpath,{}", s.prefix.join("lib").display()));
        }
        Link::Static => {
            cmd.args(pkg_config(s, &["--cflags"]));
            cmd.arg(s.prefix.join("lib/libinlay.a"));
            let libs = pkg_config(s, &["--static", "--libs-only-l"]);
            cmd.args(libs.iter().filter(|l| *l != "-linlay"));
        }
    }
    run_checked(&mut cmd, &format!("compiling {name}"));
    exe
}

/// Runs a test program (under valgrind when `INLAY_CAPI_VALGRIND=1`) and returns its stdout;
/// fails the test when it exits non-zero.
fn run_program(exe: &Path, args: &[&Path]) -> String {
    let valgrind = std::env::var_os("INLAY_CAPI_VALGRIND").is_some_and(|v| v == "1");
    let mut cmd = if valgrind {
        let mut c = Command::new("valgrind");
        c.args([
            "--quiet",
            "--error-exitcode=99",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite",
        ])
        .arg(exe);
        c
    } else {
        Command::new(exe)
    };
    cmd.args(args);
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{} failed ({}):\n{stdout}\n{stderr}",
        exe.display(),
        out.status
    );
    if valgrind {
        eprintln!("valgrind: {} clean", exe.display());
    }
    stdout
}

fn signature(entries: &[(&str, u32, u32, u8, ComponentType)]) -> Signature {
    Signature {
        elements: entries
            .iter()
            .map(
                |&(name, index, register, mask, component_type)| SignatureElement {
                    stream: 0,
                    semantic_name: name.into(),
                    semantic_index: index,
                    system_value: SystemValue::UNDEFINED,
                    component_type,
                    register,
                    mask,
                    read_write_mask: mask,
                    min_precision: MinPrecision(0),
                },
            )
            .collect(),
    }
}

const C_FLAGS: &[&str] = &[
    "-std=c99",
    "-pedantic",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-O1",
];

fn c_source(s: &Setup, name: &str) -> PathBuf {
    s.root.join("crates/inlay-capi/tests/c").join(name)
}

// ---------------------------------------------------------------------------------------------
// The hand-written programs.

fn corpus_shader() -> PathBuf {
    let path = testenv::corpus().join("dxbc/dxtk__BasicEffect_VSBasicOneLightTx.dxbc");
    assert!(path.is_file(), "corpus shader {} missing", path.display());
    path
}

/// abi_test's output: no failures, and the corpus part run or (given `-`) skipped.
fn check_abi_test(output: &str, with_corpus: bool) {
    print!("{output}");
    assert!(
        output.contains(", 0 failed"),
        "abi_test reported failures:\n{output}"
    );
    assert_eq!(
        output.contains("corpus shader skipped"),
        !with_corpus,
        "{output}"
    );
}

fn compile_abi_test(s: &Setup, name: &str, link: Link) -> PathBuf {
    let version = format!("-DINLAY_EXPECTED_VERSION=\"{}\"", env!("CARGO_PKG_VERSION"));
    let mut flags = C_FLAGS.to_vec();
    flags.push(&version);
    compile(s, &cc(), &flags, &[c_source(s, "abi_test.c")], name, link)
}

#[test]
#[cfg_attr(
    not(all(inlay_has_cc, inlay_has_pkg_config)),
    ignore = "needs a C compiler (cc or $CC) and pkg-config"
)]
fn c99_program_links_through_pkg_config_and_passes() {
    let s = setup();
    let exe = compile_abi_test(s, "abi_test", Link::Shared);
    check_abi_test(&run_program(&exe, &[&s.seed, Path::new("-")]), false);
    // pkg-config reports the package version.
    assert_eq!(
        pkg_config(s, &["--modversion"]),
        [env!("CARGO_PKG_VERSION")]
    );
}

#[test]
#[cfg_attr(
    not(all(inlay_has_cc, inlay_has_pkg_config)),
    ignore = "needs a C compiler (cc or $CC) and pkg-config"
)]
fn c99_program_links_the_static_library() {
    let s = setup();
    let exe = compile_abi_test(s, "abi_test_static", Link::Static);
    // No libinlay.so dependency: the static archive was linked in.
    let ldd = Command::new("ldd").arg(&exe).output();
    if let Ok(o) = ldd {
        assert!(!String::from_utf8_lossy(&o.stdout).contains("libinlay"));
    }
    check_abi_test(&run_program(&exe, &[&s.seed, Path::new("-")]), false);
}

/// abi_test's corpus part: a real fxc shader through the shared and the static library.
#[test]
#[cfg_attr(
    not(all(inlay_has_cc, inlay_has_pkg_config, inlay_has_corpus)),
    ignore = "needs a C compiler, pkg-config and the fxc corpus (../shared/corpus or $INLAY_CORPUS)"
)]
fn c99_program_checks_a_corpus_shader() {
    let s = setup();
    for (name, link) in [
        ("abi_test_corpus", Link::Shared),
        ("abi_test_corpus_static", Link::Static),
    ] {
        let exe = compile_abi_test(s, name, link);
        check_abi_test(&run_program(&exe, &[&s.seed, &corpus_shader()]), true);
    }
}

#[test]
#[cfg_attr(
    not(all(inlay_has_cc, inlay_has_pkg_config, inlay_has_cxx)),
    ignore = "needs a C and a C++ compiler (cc/c++ or $CC/$CXX) and pkg-config"
)]
fn cpp17_program_passes_d3d11_descs_by_cast() {
    let s = setup();
    let flags = [
        "-std=c++17",
        "-pedantic",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-O1",
        "-pthread",
    ];
    let exe = compile(
        s,
        &cxx(),
        &flags,
        &[c_source(s, "abi_test.cpp")],
        "abi_test_cpp",
        Link::Shared,
    );
    let out = run_program(&exe, &[&s.seed]);
    print!("{out}");
    assert!(
        out.contains("abi_test_cpp: ") && out.contains(", 0 failed"),
        "{out}"
    );
}

#[test]
#[cfg_attr(
    not(all(inlay_has_cc, inlay_has_pkg_config, inlay_has_cmake)),
    ignore = "needs a C compiler (cc or $CC), pkg-config and cmake"
)]
fn cmake_find_package_builds_against_the_installed_library() {
    let s = setup();
    let project = s.work.join("cmake-project");
    let build = s.work.join("cmake-build");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.13)\n\
             project(inlay_consumer C)\n\
             find_package(inlay {} REQUIRED)\n\
             add_executable(abi_test_shared {src})\n\
             target_link_libraries(abi_test_shared PRIVATE inlay::inlay)\n\
             add_executable(abi_test_static {src})\n\
             target_link_libraries(abi_test_static PRIVATE inlay::inlay_static)\n",
            env!("CARGO_PKG_VERSION"),
            src = c_source(s, "abi_test.c").display()
        ),
    )
    .unwrap();
    run_checked(
        Command::new("cmake")
            .arg("-S")
            .arg(&project)
            .arg("-B")
            .arg(&build)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", s.prefix.display()))
            .arg("-DCMAKE_C_FLAGS=-std=c99 -Wall -Werror"),
        "cmake configure",
    );
    run_checked(
        Command::new("cmake").arg("--build").arg(&build),
        "cmake --build",
    );
    for exe in ["abi_test_shared", "abi_test_static"] {
        check_abi_test(
            &run_program(&build.join(exe), &[&s.seed, Path::new("-")]),
            false,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Generated cases through case_driver.c.

struct CElement {
    name: Option<String>,
    index: u32,
    format: u32,
    slot: u32,
    offset: u32,
    class: u32,
    step: u32,
}

#[derive(Default)]
struct CDraw {
    topology: u32,
    /// Per slot: (data, stride, offset), `None` unbound.
    buffers: Vec<Option<(Vec<u8>, u32, u32)>>,
    /// (DXGI format, offset, data).
    index: Option<(u32, u32, Vec<u8>)>,
    kind: u32,
    count: u32,
    instance_count: u32,
    start: u32,
    base_vertex: i32,
    start_instance: u32,
    args: Vec<u8>,
    args_offset: u32,
    filled_size: u32,
}

#[derive(Default)]
struct CCase {
    name: String,
    /// (api, D3D feature level); `None` passes a NULL target.
    target: Option<(u32, u32)>,
    elements: Option<Vec<CElement>>,
    num_elements: u32,
    bytecode: Vec<u8>,
    validate_only: bool,
    draw: Option<CDraw>,
}

fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b' ' {
            out.push(b as char);
        } else {
            write!(out, "\\{b:03o}").unwrap();
        }
    }
    out.push('"');
    out
}

fn c_bytes(out: &mut String, name: &str, bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "no_bytes".into();
    }
    write!(
        out,
        "static const unsigned char {name}[{}] = {{",
        bytes.len()
    )
    .unwrap();
    for (i, b) in bytes.iter().enumerate() {
        if i % 24 == 0 {
            out.push_str("\n ");
        }
        write!(out, "{b},").unwrap();
    }
    out.push_str("\n};\n");
    name.into()
}

/// The C source of `cases` for case_driver.c.
fn emit(cases: &[CCase]) -> String {
    let mut out = String::new();
    let mut table = String::from("static const case_def CASES[] = {\n");
    for (i, c) in cases.iter().enumerate() {
        let target = match c.target {
            Some((api, level)) => {
                writeln!(
                    out,
                    "static const inlay_target t{i} = {{{api}u, {level}u}};"
                )
                .unwrap();
                format!("&t{i}")
            }
            None => "NULL".into(),
        };
        let elements = match &c.elements {
            None => "NULL".into(),
            Some(e) if e.is_empty() => "no_elements".into(),
            Some(e) => {
                writeln!(out, "static const INLAY_INPUT_ELEMENT_DESC e{i}[] = {{").unwrap();
                for e in e {
                    let name = e.name.as_deref().map_or("NULL".into(), c_string);
                    writeln!(
                        out,
                        "  {{{name}, {}u, {}u, {}u, {}u, {}u, {}u}},",
                        e.index, e.format, e.slot, e.offset, e.class, e.step
                    )
                    .unwrap();
                }
                out.push_str("};\n");
                format!("e{i}")
            }
        };
        let bytecode = if c.bytecode.is_empty() {
            "NULL".into()
        } else {
            c_bytes(&mut out, &format!("b{i}"), &c.bytecode)
        };
        let (state, draw) = match &c.draw {
            None => (
                "{NULL, 0, 0, NULL}".to_string(),
                "{0, 0, 0, 0, 0, 0, NULL, 0, 0, 0}".to_string(),
            ),
            Some(d) => {
                let mut vbs = Vec::new();
                for (slot, b) in d.buffers.iter().enumerate() {
                    vbs.push(match b {
                        None => "{NULL, 0, 0, 0}".to_string(),
                        Some((data, stride, offset)) => {
                            let p = c_bytes(&mut out, &format!("v{i}_{slot}"), data);
                            format!("{{{p}, {}, {stride}u, {offset}u}}", data.len())
                        }
                    });
                }
                let vb = if vbs.is_empty() {
                    "NULL".to_string()
                } else {
                    writeln!(
                        out,
                        "static const inlay_vertex_buffer vb{i}[] = {{{}}};",
                        vbs.join(", ")
                    )
                    .unwrap();
                    format!("vb{i}")
                };
                let ib = match &d.index {
                    None => "NULL".to_string(),
                    Some((format, offset, data)) => {
                        let p = c_bytes(&mut out, &format!("i{i}"), data);
                        writeln!(
                            out,
                            "static const inlay_index_buffer ib{i} = {{{p}, {}, {format}u, {offset}u}};",
                            data.len()
                        )
                        .unwrap();
                        format!("&ib{i}")
                    }
                };
                let args = if d.args.is_empty() {
                    "NULL".to_string()
                } else {
                    c_bytes(&mut out, &format!("a{i}"), &d.args)
                };
                (
                    format!("{{{vb}, {}u, {}u, {ib}}}", vbs.len(), d.topology),
                    format!(
                        "{{{}u, {}u, {}u, {}u, {}, {}u, {args}, {}, {}u, {}u}}",
                        d.kind,
                        d.count,
                        d.instance_count,
                        d.start,
                        d.base_vertex,
                        d.start_instance,
                        d.args.len(),
                        d.args_offset,
                        d.filled_size
                    ),
                )
            }
        };
        writeln!(
            table,
            "  {{{}, {target}, {elements}, {}u, {bytecode}, {}, {}, {}, {state}, {draw}}},",
            c_string(&c.name),
            c.num_elements,
            c.bytecode.len(),
            u8::from(c.validate_only),
            u8::from(c.draw.is_some()),
        )
        .unwrap();
    }
    table.push_str("};\n");
    out + &table
}

/// What the driver printed for one case.
#[derive(Default, Debug)]
struct Outcome {
    hr: u32,
    diags: Vec<(u32, u32, i32)>,
    offsets: Vec<u32>,
    mask: Option<u32>,
    draw_error: Option<String>,
    /// (position, vertex id, instance id, registers of the mask, lowest first)
    vertices: Vec<(u64, u32, u32, Vec<[u32; 4]>)>,
}

fn parse_output(text: &str) -> Vec<Outcome> {
    let mut all = Vec::new();
    let mut cur = Outcome::default();
    for line in text.lines() {
        let mut w = line.split(' ');
        let hex = |s: Option<&str>| u32::from_str_radix(s.unwrap(), 16).unwrap();
        let dec = |s: Option<&str>| s.unwrap().parse::<i64>().unwrap();
        match w.next() {
            Some("case") => {
                w.next();
                w.next();
                cur.hr = hex(w.next());
            }
            Some("diag") => cur.diags.push((
                dec(w.next()) as u32,
                dec(w.next()) as u32,
                dec(w.next()) as i32,
            )),
            Some("offset") => cur.offsets.push(dec(w.next()) as u32),
            Some("mask") => cur.mask = Some(hex(w.next())),
            Some("drawerror") => cur.draw_error = Some(line["drawerror ".len()..].to_string()),
            Some("v") => {
                let position = dec(w.next()) as u64;
                let vid = dec(w.next()) as u32;
                let iid = dec(w.next()) as u32;
                let regs = w
                    .map(|r| {
                        let mut lanes = [0u32; 4];
                        for (k, l) in lanes.iter_mut().enumerate() {
                            *l = u32::from_str_radix(&r[8 * k..8 * k + 8], 16).unwrap();
                        }
                        lanes
                    })
                    .collect();
                cur.vertices.push((position, vid, iid, regs));
            }
            Some("end") => all.push(std::mem::take(&mut cur)),
            _ => panic!("unexpected driver output line: {line}"),
        }
    }
    all
}

/// Compiles case_driver.c with `cases`, runs it and returns one outcome per case.
fn run_cases(s: &Setup, name: &str, cases: &[CCase]) -> Vec<Outcome> {
    let dir = s.work.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("cases.inc"), emit(cases)).unwrap();
    let include = format!("-I{}", dir.display());
    let mut flags = C_FLAGS.to_vec();
    flags.push(&include);
    flags.push("-Wno-overlength-strings");
    let exe = compile(
        s,
        &cc(),
        &flags,
        &[c_source(s, "case_driver.c")],
        &format!("{name}/driver"),
        Link::Shared,
    );
    let out = run_program(&exe, &[]);
    assert!(!out.contains("FAIL"), "{out}");
    let outcomes = parse_output(&out);
    assert_eq!(
        outcomes.len(),
        cases.len(),
        "the driver printed a different number of cases"
    );
    outcomes
}

// --- conformance cases ---

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn u32_of(v: &Value) -> u32 {
    v.as_u64()
        .map(|n| n as u32)
        .unwrap_or_else(|| panic!("not an integer: {v}"))
}

fn feature_level_value(s: &str) -> u32 {
    match s {
        "9_1" => 0x9100,
        "9_2" => 0x9200,
        "9_3" => 0x9300,
        "10_0" => 0xa000,
        "10_1" => 0xa100,
        "11_0" => 0xb000,
        "11_1" => 0xb100,
        _ => panic!("feature level {s}"),
    }
}

fn mask_bits(s: &str) -> u8 {
    s.chars().fold(0, |m, c| m | 1 << "xyzw".find(c).unwrap())
}

/// The bytes of a case's `shader`, or `None` when it names a corpus file and the corpus is
/// absent.
fn shader_bytes(shader: &Value, corpus: Option<&Path>) -> Option<Vec<u8>> {
    if let Some(hex) = shader.get("dxbc_hex") {
        return Some(hex_bytes(hex.as_str().unwrap()));
    }
    if let Some(path) = shader.get("dxbc") {
        let file = Path::new(path.as_str().unwrap()).file_name().unwrap();
        let path = corpus?.join("dxbc").join(file);
        return Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
    }
    let entries = shader["signature"].as_array().unwrap();
    let sig = Signature {
        elements: entries
            .iter()
            .map(|e| SignatureElement {
                stream: 0,
                semantic_name: e["semantic"].as_str().unwrap().into(),
                semantic_index: u32_of(&e["index"]),
                system_value: SystemValue::from_name(e["sv"].as_str().unwrap()).unwrap(),
                component_type: match e["type"].as_str().unwrap() {
                    "float" => ComponentType::FLOAT32,
                    "uint" => ComponentType::UINT32,
                    _ => ComponentType::SINT32,
                },
                register: e["register"].as_u64().map_or(NO_REGISTER, |r| r as u32),
                mask: mask_bits(e["mask"].as_str().unwrap()),
                read_write_mask: mask_bits(e["used"].as_str().unwrap()),
                min_precision: MinPrecision(0),
            })
            .collect(),
    };
    Some(signature_blob(&sig))
}

fn draw_of(d: &Value) -> CDraw {
    let topology: Topology = d["topology"].as_str().unwrap().parse().unwrap();
    let mut draw = CDraw {
        topology: topology.d3d_value(),
        ..CDraw::default()
    };
    for vb in d["vertex_buffers"].as_array().unwrap() {
        let slot = u32_of(&vb["slot"]) as usize;
        if draw.buffers.len() <= slot {
            draw.buffers.resize_with(slot + 1, || None);
        }
        draw.buffers[slot] = Some((
            hex_bytes(vb["data"].as_str().unwrap()),
            u32_of(&vb["stride"]),
            u32_of(&vb["offset"]),
        ));
    }
    if let Some(ib) = d.get("index_buffer") {
        let format = match ib["format"].as_str().unwrap() {
            "R16_UINT" => 57,
            _ => 42,
        };
        draw.index = Some((
            format,
            u32_of(&ib["offset"]),
            hex_bytes(ib["data"].as_str().unwrap()),
        ));
    }
    let c = &d["call"];
    let get = |k: &str| c.get(k).map_or(0, u32_of);
    match c["kind"].as_str().unwrap() {
        "draw" => {
            draw.kind = 0;
            draw.count = get("vertex_count");
            draw.start = get("start_vertex");
        }
        "draw_indexed" => {
            draw.kind = 1;
            draw.count = get("index_count");
            draw.start = get("start_index");
            draw.base_vertex = c["base_vertex"].as_i64().unwrap() as i32;
        }
        "draw_instanced" => {
            draw.kind = 2;
            draw.count = get("vertex_count_per_instance");
            draw.instance_count = get("instance_count");
            draw.start = get("start_vertex");
            draw.start_instance = get("start_instance");
        }
        "draw_indexed_instanced" => {
            draw.kind = 3;
            draw.count = get("index_count_per_instance");
            draw.instance_count = get("instance_count");
            draw.start = get("start_index");
            draw.base_vertex = c["base_vertex"].as_i64().unwrap() as i32;
            draw.start_instance = get("start_instance");
        }
        kind @ ("draw_instanced_indirect" | "draw_indexed_instanced_indirect") => {
            draw.kind = if kind == "draw_instanced_indirect" {
                4
            } else {
                5
            };
            draw.args = hex_bytes(c["args"]["data"].as_str().unwrap());
            draw.args_offset = u32_of(&c["args"]["offset"]);
        }
        other => panic!("draw kind {other}"),
    }
    draw
}

fn case_of(c: &Value, corpus: Option<&Path>) -> Option<CCase> {
    let api = c.get("api").and_then(Value::as_str);
    let level = c.get("feature_level").and_then(Value::as_str);
    let target = (api.is_some() || level.is_some()).then(|| {
        let api = api.unwrap_or("d3d11");
        let api_value = match api {
            "d3d10" => 1,
            "d3d10.1" => 2,
            _ => 3,
        };
        let level = level.unwrap_or(if api == "d3d10" { "10_0" } else { "11_0" });
        (api_value, feature_level_value(level))
    });
    let elements = c["elements"].as_array().map(|list| {
        list.iter()
            .map(|e| CElement {
                name: e["semantic"].as_str().map(String::from),
                index: u32_of(&e["index"]),
                format: match &e["format"] {
                    Value::String(s) => s.parse::<Format>().unwrap().0,
                    n => u32_of(n),
                },
                slot: u32_of(&e["slot"]),
                offset: match &e["offset"] {
                    Value::String(s) if s == "append" => 0xffff_ffff,
                    n => u32_of(n),
                },
                class: match &e["class"] {
                    Value::String(s) if s == "vertex" => 0,
                    Value::String(s) if s == "instance" => 1,
                    n => u32_of(n),
                },
                step: u32_of(&e["step_rate"]),
            })
            .collect::<Vec<_>>()
    });
    let num_elements = c
        .get("num_elements")
        .map(u32_of)
        .unwrap_or_else(|| elements.as_ref().map_or(0, |e| e.len() as u32));
    Some(CCase {
        name: c["name"].as_str().unwrap().into(),
        target,
        elements,
        num_elements,
        bytecode: shader_bytes(&c["shader"], corpus)?,
        validate_only: c
            .get("validate_only")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        draw: c.get("draw").map(draw_of),
    })
}

fn hresult_code(name: &str) -> u32 {
    match name {
        "S_OK" => 0,
        "S_FALSE" => 1,
        "E_INVALIDARG" => 0x8007_0057,
        other => panic!("hresult {other}"),
    }
}

/// Distance on the ordered float line (−0 = +0), for `tolerance_ulp`.
fn ulp_distance(a: u32, b: u32) -> u64 {
    let ordered = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -((x & 0x7fff_ffff) as i64)
        } else {
            x as i64
        }
    };
    (ordered(a) - ordered(b)).unsigned_abs()
}

/// The differences between what the C ABI answered and the case's expectations.
fn compare_case(c: &Value, got: &Outcome) -> Vec<String> {
    let mut diffs = Vec::new();
    let expect = &c["expect"];
    let hr = hresult_code(expect["hresult"].as_str().unwrap());
    if got.hr != hr {
        diffs.push(format!("hresult {:08x}, expected {hr:08x}", got.hr));
    }
    let has = |id: u32, sev: Option<u32>| {
        got.diags
            .iter()
            .any(|d| d.0 == id && sev.is_none_or(|s| d.1 == s))
    };
    for (key, sev) in [("errors", Some(1)), ("warnings", Some(2)), ("absent", None)] {
        for id in expect
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let id = u32_of(id);
            let found = has(id, sev);
            if found == (key == "absent") {
                diffs.push(format!("{key}: message {id} (got {:?})", got.diags));
            }
        }
    }
    let created = got.mask.is_some();
    if created != (hr == 0) {
        diffs.push(format!(
            "layout created: {created} with hresult {:08x}",
            got.hr
        ));
    }
    if let Some(offsets) = expect.get("offsets").and_then(Value::as_array) {
        // A validate-only call creates no layout, so there are no offsets to read.
        if created {
            let want: Vec<u32> = offsets.iter().map(u32_of).collect();
            if got.offsets != want {
                diffs.push(format!("offsets {:?}, expected {want:?}", got.offsets));
            }
        }
    }
    let Some(expect_draw) = c.get("expect_draw") else {
        return diffs;
    };
    if let Some(e) = &got.draw_error {
        diffs.push(format!("draw refused: {e}"));
        return diffs;
    }
    let tolerance = c.get("tolerance_ulp").map_or(0, |t| t.as_u64().unwrap());
    let mask = got.mask.unwrap_or(0);
    let want = expect_draw["vertices"].as_array().unwrap();
    if want.len() != got.vertices.len() {
        diffs.push(format!(
            "{} vertices, expected {}",
            got.vertices.len(),
            want.len()
        ));
    }
    for (k, (w, g)) in want.iter().zip(&got.vertices).enumerate() {
        if (u32_of(&w["vertex_id"]), u32_of(&w["instance_id"])) != (g.1, g.2) {
            diffs.push(format!("vertex {k}: ids ({}, {}), expected {w}", g.1, g.2));
        }
        for (reg, lanes) in w
            .get("registers")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let r: u32 = reg.parse().unwrap();
            if mask & (1 << r) == 0 {
                diffs.push(format!(
                    "vertex {k}: register v{r} not fed (mask {mask:#x})"
                ));
                continue;
            }
            let row = (mask & ((1u32 << r) - 1)).count_ones() as usize;
            for (lane, l) in lanes.as_array().unwrap().iter().enumerate() {
                let Some(l) = l.as_str() else { continue };
                let want = u32::from_str_radix(l, 16).unwrap();
                let got = g.3[row][lane];
                let finite = want & 0x7f80_0000 != 0x7f80_0000;
                let ok = got == want
                    || (tolerance > 0 && finite && ulp_distance(got, want) <= tolerance);
                if !ok {
                    diffs.push(format!(
                        "vertex {k}: v{r}[{lane}] {got:08x}, expected {want:08x}"
                    ));
                }
            }
        }
    }
    diffs
}

/// The cases of `files` through the C ABI, compared with their expectations; returns how many
/// ran and how many were left out (corpus-backed cases when `corpus` is `None`).
fn conformance_through_the_c_abi(
    s: &Setup,
    files: &[PathBuf],
    corpus: Option<&Path>,
    driver: &str,
) -> (usize, usize) {
    let mut cases = Vec::new();
    let mut expectations = Vec::new();
    let mut skipped = 0;
    for file in files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        for c in doc["cases"].as_array().unwrap() {
            // Schema-2 encode cases have no creation to run.
            if c.get("encode").is_some() {
                continue;
            }
            match case_of(c, corpus) {
                Some(case) => {
                    cases.push(case);
                    expectations.push((
                        file.file_name().unwrap().to_string_lossy().into_owned(),
                        c.clone(),
                    ));
                }
                None => skipped += 1,
            }
        }
    }
    let outcomes = run_cases(s, driver, &cases);
    let mut failures = Vec::new();
    for ((file, c), got) in expectations.iter().zip(&outcomes) {
        for d in compare_case(c, got) {
            failures.push(format!("{file}: {}: {d}", c["name"].as_str().unwrap()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (cases.len(), skipped)
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Every case of `conformance/` but the corpus-backed ones (`create-corpus.json`, next test).
#[test]
#[cfg_attr(
    not(all(inlay_has_cc, inlay_has_pkg_config)),
    ignore = "needs a C compiler (cc or $CC) and pkg-config"
)]
fn conformance_cases_through_the_c_abi() {
    let s = setup();
    let files = json_files(&s.root.join("conformance"));
    let (ran, skipped) = conformance_through_the_c_abi(s, &files, None, "conformance_driver");
    assert!(ran >= 400, "only {ran} cases found");
    let corpus_cases = files
        .iter()
        .filter(|f| f.ends_with("create-corpus.json"))
        .map(|f| {
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            doc["cases"].as_array().unwrap().len()
        })
        .sum::<usize>();
    assert_eq!(
        skipped, corpus_cases,
        "only the corpus-backed cases are left out"
    );
}

/// The corpus-backed cases of `conformance/` and the shared example cases, on real shaders.
#[test]
#[cfg_attr(
    not(all(
        inlay_has_cc,
        inlay_has_pkg_config,
        inlay_has_corpus,
        inlay_has_shared_examples
    )),
    ignore = "needs a C compiler, pkg-config, the fxc corpus and the shared example cases (../shared or $INLAY_SHARED/$INLAY_CORPUS)"
)]
fn corpus_and_shared_cases_through_the_c_abi() {
    let s = setup();
    let mut files = vec![s.root.join("conformance/create-corpus.json")];
    files.extend(json_files(&testenv::shared_examples()));
    let corpus = testenv::corpus();
    let (ran, skipped) =
        conformance_through_the_c_abi(s, &files, Some(&corpus), "conformance_driver_shared");
    assert_eq!(skipped, 0);
    assert!(ran >= 25, "only {ran} cases found");
}

// --- draws compared with the Rust library ---

/// Deterministic bytes (a 32-bit LCG), independent of any library.
fn bytes(seed: u32, n: usize) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (x >> 16) as u8
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(all(inlay_has_cc, inlay_has_pkg_config)),
    ignore = "needs a C compiler (cc or $CC) and pkg-config"
)]
fn decoded_draws_equal_the_rust_library_bit_for_bit() {
    let s = setup();
    // A packed per-vertex slot (28 bytes), a per-instance slot with step rate 2, and an element
    // the shader does not read; registers deliberately not contiguous.
    let el = |name: &str, format, slot, offset, class, step| CElement {
        name: Some(name.into()),
        index: 0,
        format,
        slot,
        offset,
        class,
        step,
    };
    const APPEND: u32 = 0xffff_ffff;
    let elements = [
        el("POSITION", Format::R16G16B16A16_FLOAT.0, 0, 0, 0, 0),
        el("NORMAL", Format::R10G10B10A2_UNORM.0, 0, APPEND, 0, 0),
        el("TEXCOORD", Format::R16G16_UNORM.0, 0, APPEND, 0, 0),
        el("COLOR", Format::B8G8R8A8_UNORM.0, 0, APPEND, 0, 0),
        el("BLENDINDICES", Format::R8G8B8A8_UINT.0, 0, APPEND, 0, 0),
        el("TANGENT", Format::R8G8B8A8_SNORM.0, 0, APPEND, 0, 0),
        el("INSTPOS", Format::R32G32B32_FLOAT.0, 1, 0, 1, 2),
        el("UNUSED", Format::R32_FLOAT.0, 2, 0, 0, 0),
    ];
    let f = ComponentType::FLOAT32;
    let blob = signature_blob(&signature(&[
        ("POSITION", 0, 0, 0xf, f),
        ("NORMAL", 0, 1, 0xf, f),
        ("TEXCOORD", 0, 3, 0x3, f),
        ("COLOR", 0, 4, 0xf, f),
        ("BLENDINDICES", 0, 6, 0xf, ComponentType::UINT32),
        ("TANGENT", 0, 7, 0xf, f),
        ("INSTPOS", 0, 9, 0x7, f),
    ]));
    let vb0 = bytes(1, 28 * 1200 + 5); // the last vertex straddles the end: out of bounds
    let vb1 = bytes(2, 12 * 9);
    let vb2 = bytes(3, 64);
    let mut ib16: Vec<u8> = Vec::new();
    let mut ib32: Vec<u8> = Vec::new();
    for (k, v) in bytes(4, 2 * 2400).chunks(2).enumerate() {
        let i = u16::from_le_bytes([v[0], v[1]]) % 1300; // some past the buffer
        let i = if k % 97 == 13 { 0xffff } else { i };
        ib16.extend_from_slice(&i.to_le_bytes());
        let j = if k % 89 == 7 {
            0xffff_ffff
        } else {
            i as u32 * 3 % 1250
        };
        ib32.extend_from_slice(&j.to_le_bytes());
    }
    let mut args = vec![0u8; 4];
    for w in [700u32, 5, 17, 2, 0xffff_fff0, 9] {
        args.extend_from_slice(&w.to_le_bytes());
    }
    let draws: Vec<(&str, CDraw)> = vec![
        (
            "draw",
            CDraw {
                kind: 0,
                count: 1200 + 3,
                start: 0,
                ..CDraw::default()
            },
        ),
        (
            "draw_start",
            CDraw {
                kind: 0,
                count: 700,
                start: 333,
                ..CDraw::default()
            },
        ),
        (
            "draw_indexed_16",
            CDraw {
                kind: 1,
                count: 2000,
                start: 7,
                base_vertex: -3,
                index: Some((57, 2, ib16.clone())),
                ..CDraw::default()
            },
        ),
        (
            "draw_instanced",
            CDraw {
                kind: 2,
                count: 300,
                instance_count: 7,
                start: 11,
                start_instance: 1,
                ..CDraw::default()
            },
        ),
        (
            "draw_indexed_instanced_32",
            CDraw {
                kind: 3,
                count: 500,
                instance_count: 5,
                start: 3,
                base_vertex: 40,
                start_instance: 2,
                index: Some((42, 0, ib32.clone())),
                ..CDraw::default()
            },
        ),
        (
            "draw_instanced_indirect",
            CDraw {
                kind: 4,
                args: args.clone(),
                args_offset: 4,
                ..CDraw::default()
            },
        ),
        (
            "draw_indexed_instanced_indirect",
            CDraw {
                kind: 5,
                args: args.clone(),
                args_offset: 4,
                index: Some((57, 0, ib16.clone())),
                ..CDraw::default()
            },
        ),
        (
            "draw_auto",
            CDraw {
                kind: 6,
                filled_size: 28 * 900 + 13,
                ..CDraw::default()
            },
        ),
    ];
    let mut cases = Vec::new();
    for (name, mut d) in draws {
        d.topology = 5; // triangle strip: cuts end strips
        d.buffers = vec![
            Some((vb0.clone(), 28, 0)),
            Some((vb1.clone(), 12, 0)),
            Some((vb2.clone(), 4, 0)),
        ];
        cases.push(CCase {
            name: name.into(),
            target: None,
            elements: Some(
                elements
                    .iter()
                    .map(|e| CElement {
                        name: e.name.clone(),
                        ..*e
                    })
                    .collect(),
            ),
            num_elements: elements.len() as u32,
            bytecode: blob.clone(),
            validate_only: false,
            draw: Some(d),
        });
    }
    let outcomes = run_cases(s, "library_driver", &cases);

    // The Rust library's reference: create the same layout, bind the same buffers, and walk
    // the draw with the assembler's per-vertex iterator (the reference path; the C ABI's batches
    // run the fast fetch).
    let descs: Vec<InputElementDesc> = elements
        .iter()
        .map(|e| InputElementDesc {
            semantic_name: e.name.clone(),
            semantic_index: e.index,
            format: Format(e.format),
            input_slot: e.slot,
            aligned_byte_offset: e.offset,
            input_slot_class: e.class,
            instance_data_step_rate: e.step,
        })
        .collect();
    let target = Target::default();
    let created = inlay_core::create_input_layout(&target, &descs, &blob);
    let layout = created.layout.expect("the layout is valid");
    let mut total = 0;
    for (case, got) in cases.iter().zip(&outcomes) {
        let name = &case.name;
        assert_eq!(got.hr, 0, "{name}");
        let offsets: Vec<u32> = layout.elements().iter().map(|e| e.offset).collect();
        assert_eq!(got.offsets, offsets, "{name}: offsets");
        let mask = layout
            .elements()
            .iter()
            .filter_map(|e| e.register)
            .fold(0u32, |m, r| m | 1 << r);
        assert_eq!(got.mask, Some(mask), "{name}: register mask");
        let d = case.draw.as_ref().unwrap();
        let mut ia = InputAssembler::new(&layout, target);
        for (slot, b) in d.buffers.iter().enumerate() {
            let (data, stride, offset) = b.as_ref().unwrap();
            ia.set_vertex_buffer(
                slot as u32,
                Some(VertexBufferBinding {
                    data,
                    stride: *stride,
                    offset: *offset,
                }),
            )
            .unwrap();
        }
        if let Some((format, offset, data)) = &d.index {
            let format = if *format == 57 {
                IndexFormat::R16Uint
            } else {
                IndexFormat::R32Uint
            };
            ia.set_index_buffer(Some(IndexBufferBinding {
                data,
                format,
                offset: *offset,
            }))
            .unwrap();
        }
        ia.set_topology_d3d(d.topology).unwrap();
        let call = match d.kind {
            0 => DrawCall::Draw {
                vertex_count: d.count,
                start_vertex: d.start,
            },
            1 => DrawCall::DrawIndexed {
                index_count: d.count,
                start_index: d.start,
                base_vertex: d.base_vertex,
            },
            2 => DrawCall::DrawInstanced {
                vertex_count_per_instance: d.count,
                instance_count: d.instance_count,
                start_vertex: d.start,
                start_instance: d.start_instance,
            },
            3 => DrawCall::DrawIndexedInstanced {
                index_count_per_instance: d.count,
                instance_count: d.instance_count,
                start_index: d.start,
                base_vertex: d.base_vertex,
                start_instance: d.start_instance,
            },
            4 => DrawCall::DrawInstancedIndirect {
                args: &d.args,
                offset: d.args_offset,
            },
            5 => DrawCall::DrawIndexedInstancedIndirect {
                args: &d.args,
                offset: d.args_offset,
            },
            _ => DrawCall::DrawAuto {
                filled_size: d.filled_size,
            },
        };
        let expected: Vec<_> = ia.draw(&call).unwrap().vertices().collect();
        assert!(got.draw_error.is_none(), "{name}: {:?}", got.draw_error);
        assert_eq!(got.vertices.len(), expected.len(), "{name}: vertex count");
        assert!(
            expected.len() >= 400,
            "{name}: only {} vertices",
            expected.len()
        );
        for (k, (g, e)) in got.vertices.iter().zip(&expected).enumerate() {
            assert_eq!(
                (g.0, g.1, g.2),
                (e.position, e.vertex_id, e.instance_id),
                "{name}: vertex {k} ids"
            );
            let want: Vec<[u32; 4]> = (0..32)
                .filter(|r| mask & (1 << r) != 0)
                .map(|r| e.registers[r])
                .collect();
            assert_eq!(g.3, want, "{name}: vertex {k} registers");
        }
        total += expected.len();
    }
    eprintln!(
        "{} draws, {total} vertices: C ABI = Rust reference assembler, bit for bit",
        cases.len()
    );
}

/// The C example of the README compiles (C99, `-Wall -Werror`) through pkg-config and prints
/// the seed layout's answers and the triangle's exact bits.
#[test]
#[cfg_attr(
    not(all(inlay_has_cc, inlay_has_pkg_config)),
    ignore = "needs a C compiler (cc or $CC) and pkg-config"
)]
fn readme_c_example_compiles_and_runs() {
    let s = setup();
    let readme = std::fs::read_to_string(s.root.join("README.md")).unwrap();
    let section = &readme[readme
        .find("## The C ABI")
        .expect("README has a C ABI section")..];
    let start = section.find("```c\n").expect("a ```c block") + 5;
    let code = &section[start..start + section[start..].find("```").unwrap()];
    let source = s.work.join("readme_example.c");
    std::fs::write(&source, code).unwrap();
    let exe = compile(
        s,
        &cc(),
        &["-std=c99", "-Wall", "-Werror"],
        &[source],
        "readme_example",
        Link::Shared,
    );
    let out = run_program(&exe, &[&s.seed]);
    assert_eq!(
        out,
        "COLOR: offset 12, register v1\n\
         SV_VertexID 0: v0 = 00000000 3f000000 3f000000 3f800000\n\
         SV_VertexID 1: v0 = 3f000000 bf000000 3f000000 3f800000\n\
         SV_VertexID 2: v0 = bf000000 bf000000 3f000000 3f800000\n"
    );
}
