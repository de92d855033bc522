//! `inlay-gpu`: the differential harness that proves inlay's lowering on a real GPU.
//!
//! Every case is a Direct3D 11 layout, buffers and a draw. inlay's reference input assembler
//! computes what each vertex shader invocation receives; the case is lowered with
//! `inlay::lower` for the device's own profile, the remedies the lowering names are applied
//! (CPU conversion, instance expansion, zero buffers), and the draw runs on the GPU through
//! Vulkan with rasterizer discard, its vertex shader storing its inputs, `VertexIndex` and
//! `InstanceIndex` into a storage buffer. The two are compared bit for bit.
//!
//! ```text
//! inlay-gpu profile [--out FILE]          # the device profile as JSON
//! inlay-gpu verify [--api vulkan|wgpu] [--profile device|required|FILE] [--report FILE] [--unorm-ulp N] [--nan-quiet] [--quick]
//! ```
//! `--api wgpu` (a build with `--features wgpu`) draws the same suite through wgpu's
//! Vulkan backend instead, lowered for WebGPU's default profile (`src/wg.rs`).
//! `--profile required` lowers for the Vulkan specification's guaranteed support instead of
//! the device's own, so that the remedies (CPU conversion, instance expansion, index
//! rewriting) are drawn too. `--unorm-ulp 1` allows UNORM/SNORM lanes to differ by one unit in the last place (Mesa's
//! lavapipe is known to); `--nan-quiet` tolerates a signalling NaN delivered quiet (x86's
//! half-to-float conversion, which lavapipe uses, sets the quiet bit); everything else must
//! be exact. Exit status 0 when nothing
//! differs, 1 when something does, 2 when no device could be used.

mod cases;
mod draw;
mod spirv;
mod vk;
#[cfg(feature = "wgpu")]
mod wg;

use draw::Backend;

use std::fmt::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    match args.first().map(String::as_str) {
        Some("profile") => {
            let gpu = match vk::Gpu::open() {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("inlay-gpu: {e}");
                    return ExitCode::from(2);
                }
            };
            let json = gpu.profile.to_json();
            match opt("--out") {
                Some(path) => {
                    if let Err(e) = std::fs::write(&path, json + "\n") {
                        eprintln!("inlay-gpu: {path}: {e}");
                        return ExitCode::from(2);
                    }
                    eprintln!("wrote {path}");
                }
                None => println!("{json}"),
            }
            ExitCode::SUCCESS
        }
        Some("verify") => {
            let opened: Result<Box<dyn Backend>, String> = match opt("--api").as_deref() {
                None | Some("vulkan") => vk::Gpu::open().map(|g| Box::new(g) as Box<dyn Backend>),
                #[cfg(feature = "wgpu")]
                Some("wgpu") => wg::WgpuGpu::open().map(|g| Box::new(g) as Box<dyn Backend>),
                Some(other) => Err(format!(
                    "--api {other}: this build knows vulkan{}",
                    if cfg!(feature = "wgpu") {
                        " and wgpu"
                    } else {
                        " (wgpu needs --features wgpu)"
                    }
                )),
            };
            let gpu = match opened {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("inlay-gpu: {e}");
                    return ExitCode::from(2);
                }
            };
            let ulp: u32 = opt("--unorm-ulp").and_then(|s| s.parse().ok()).unwrap_or(0);
            let quick = args.iter().any(|a| a == "--quick");
            let mut gpu = gpu;
            match opt("--profile").as_deref() {
                None | Some("device") => {}
                Some("required") => gpu.set_profile(inlay::lower::DeviceProfile::vulkan_required()),
                Some(path) => match std::fs::read_to_string(path)
                    .map_err(|e| e.to_string())
                    .and_then(|t| {
                        inlay::lower::DeviceProfile::from_json(&t).map_err(|e| e.to_string())
                    }) {
                    Ok(p) => gpu.set_profile(p),
                    Err(e) => {
                        eprintln!("inlay-gpu: {path}: {e}");
                        return ExitCode::from(2);
                    }
                },
            }
            let nan_quiet = args.iter().any(|a| a == "--nan-quiet");
            let results = cases::run_all(gpu.as_ref(), ulp, nan_quiet, quick);
            let mut report = String::new();
            let _ = writeln!(report, "# inlay-gpu verify\n");
            let _ = writeln!(report, "- device: {}", gpu.description());
            let _ = writeln!(report, "- lowered for profile: {}", gpu.profile().name);
            let _ = writeln!(
                report,
                "- software rasteriser: {}; UNORM/SNORM tolerance: {ulp} ULP",
                gpu.is_software()
            );
            let total: u64 = results.iter().map(|r| r.compared).sum();
            let diffs: u64 = results.iter().map(|r| r.differences).sum();
            let within: u64 = results.iter().map(|r| r.within_tolerance).sum();
            let quieted: u64 = results.iter().map(|r| r.nan_quieted).sum();
            let _ = writeln!(
                report,
                "- {} cases, {total} vertex records compared, {diffs} differences, {within} \
                 registers within the UNORM/SNORM tolerance, {quieted} registers with a \
                 signalling NaN quieted by the device (tolerated only with --nan-quiet)\n",
                results.len()
            );
            let _ = writeln!(
                report,
                "| case | records | differences | remedies applied | first difference |"
            );
            let _ = writeln!(report, "|---|---|---|---|---|");
            for r in &results {
                let _ = writeln!(
                    report,
                    "| {} | {} | {} | {} | {} |",
                    r.name,
                    r.compared,
                    r.differences,
                    if r.remedies.is_empty() {
                        "native".to_string()
                    } else {
                        r.remedies.join("; ")
                    },
                    r.first_difference.as_deref().unwrap_or("")
                );
            }
            print!("{report}");
            if let Some(path) = opt("--report")
                && let Err(e) = std::fs::write(&path, &report)
            {
                eprintln!("inlay-gpu: {path}: {e}");
                return ExitCode::from(2);
            }
            let failed = results
                .iter()
                .any(|r| r.differences > 0 || r.error.is_some());
            println!(
                "{} passed, {} failed",
                results
                    .iter()
                    .filter(|r| r.differences == 0 && r.error.is_none())
                    .count(),
                results
                    .iter()
                    .filter(|r| r.differences > 0 || r.error.is_some())
                    .count()
            );
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            eprintln!(
                "usage: inlay-gpu profile [--out FILE] | verify [--api vulkan|wgpu] [--profile device|required|FILE] [--report FILE] [--unorm-ulp N] [--quick]"
            );
            ExitCode::from(2)
        }
    }
}
