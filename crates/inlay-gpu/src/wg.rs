//! The wgpu side (feature `wgpu`): the same draws through `wgpu`, lowered for WebGPU's
//! default profile and run by wgpu's Vulkan backend on the same device.
//!
//! Where the Vulkan side writes SPIR-V and sets rasterizer discard, this side writes the
//! WGSL equivalent (WebGPU has no rasterizer discard: the vertex shader puts every vertex
//! outside the clip volume, WebGPU spec §"Primitive Clipping", so nothing is rasterised)
//! and binds the parameters as a uniform buffer instead of push constants. Storing from a
//! vertex shader needs wgpu's native feature `VERTEX_WRITABLE_STORAGE`.

use std::fmt::Write as _;
use std::sync::Arc;

use inlay::lower::DeviceProfile;
use wgpu::util::DeviceExt as _;

use crate::draw::{Backend, GpuDraw};
use crate::spirv::{self, InputType};

/// A wgpu device ready for harness draws.
pub struct WgpuGpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The profile the suite lowers for: WebGPU's defaults.
    pub profile: DeviceProfile,
    /// Adapter name, driver and backend.
    pub description: String,
    software: bool,
}

impl WgpuGpu {
    /// Opens the first Vulkan adapter wgpu finds that can store from vertex shaders.
    pub fn open() -> Result<WgpuGpu, String> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..Default::default()
        }))
        .map_err(|e| format!("wgpu: no Vulkan adapter: {e}"))?;
        let info = adapter.get_info();
        let wanted = wgpu::Features::VERTEX_WRITABLE_STORAGE;
        if !adapter.features().contains(wanted) {
            return Err(format!(
                "wgpu: adapter {} lacks VERTEX_WRITABLE_STORAGE",
                info.name
            ));
        }
        let features = wanted | (adapter.features() & wgpu::Features::INDIRECT_FIRST_INSTANCE);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("inlay-gpu"),
            required_features: features,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| format!("wgpu: request_device: {e}"))?;
        // Errors are caught per draw by an error scope; anything else is printed, never a
        // panic (wgpu's default handler panics).
        device.on_uncaptured_error(Arc::new(|e| eprintln!("inlay-gpu: wgpu: {e}")));
        Ok(WgpuGpu {
            device,
            queue,
            profile: DeviceProfile::wgpu_default(),
            description: format!(
                "{} (wgpu {:?} backend; driver {} {})",
                info.name, info.backend, info.driver, info.driver_info
            ),
            software: info.device_type == wgpu::DeviceType::Cpu,
        })
    }

    /// Whether the adapter is a software rasteriser (lavapipe).
    pub fn is_software(&self) -> bool {
        self.software
    }

    fn draw(&self, d: &GpuDraw, capacity: u32) -> Result<Vec<u32>, String> {
        let input = d.state.to_wgpu().ok_or("lowered for another API")?;
        let topology = input
            .topology
            .ok_or("the lowered topology has no WebGPU equivalent")?;
        let dev = &self.device;
        let rw = spirv::record_words(d.inputs.len()) as u64;
        let out_size = (rw * 4 * capacity as u64).max(4);
        let out = dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("records"),
            contents: &[0xEFu8, 0xBE, 0xAD, 0xDE].repeat((out_size / 4) as usize),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        });
        let readback = dev.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: out_size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let params = d.shader_params(capacity);
        let uniform = dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("params"),
            contents: &params,
            usage: wgpu::BufferUsages::UNIFORM,
        });
        // Buffer sizes are rounded up to WebGPU's copy alignment, but each is bound with its
        // exact length, so the bounds the draw sees are the data's own.
        let padded = |data: &[u8]| {
            let mut v = data.to_vec();
            v.resize(data.len().div_ceil(4).max(1) * 4, 0);
            v
        };
        let vbs: Vec<(u32, wgpu::Buffer, u64, u64)> = d
            .buffers
            .iter()
            .map(|b| {
                let buf = dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("vertex"),
                    contents: &padded(&b.data),
                    usage: wgpu::BufferUsages::VERTEX,
                });
                (b.binding, buf, b.offset, b.data.len() as u64)
            })
            .collect();
        let ib = d.index.as_ref().map(|(data, wide, off)| {
            let buf = dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("index"),
                contents: &padded(data),
                usage: wgpu::BufferUsages::INDEX,
            });
            let format = if *wide {
                wgpu::IndexFormat::Uint32
            } else {
                wgpu::IndexFormat::Uint16
            };
            (buf, format, *off, data.len() as u64)
        });
        let indirect = d.indirect.then(|| {
            dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("indirect"),
                contents: &d.indirect_args(),
                usage: wgpu::BufferUsages::INDIRECT,
            })
        });
        let target = dev.create_texture(&wgpu::TextureDescriptor {
            label: Some("target"),
            size: wgpu::Extent3d {
                width: 1,
                height: 1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let view = target.create_view(&wgpu::TextureViewDescriptor::default());

        let scope = dev.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = dev.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("store inputs"),
            source: wgpu::ShaderSource::Wgsl(wgsl(&d.inputs).into()),
        });
        // One layout per binding number, `None` in the gaps.
        let bindings = &d.state.bindings;
        let count = bindings.iter().map(|b| b.binding + 1).max().unwrap_or(0) as usize;
        let mut layouts: Vec<Option<wgpu::VertexBufferLayout>> = vec![None; count];
        for (b, (stride, step, attributes)) in bindings.iter().zip(input.buffers.iter()) {
            layouts[b.binding as usize] = Some(wgpu::VertexBufferLayout {
                array_stride: *stride,
                step_mode: *step,
                attributes,
            });
        }
        let strip = matches!(
            topology,
            wgpu::PrimitiveTopology::LineStrip | wgpu::PrimitiveTopology::TriangleStrip
        );
        let pipeline = dev.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("harness"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &layouts,
            },
            primitive: wgpu::PrimitiveState {
                topology,
                // WebGPU strips always restart at the cut value of the index format named
                // here (WebGPU spec §"Primitive Assembly").
                strip_index_format: if strip {
                    ib.as_ref().map(|i| i.1)
                } else {
                    None
                },
                ..Default::default()
            },
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let group = dev.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("harness"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: out.as_entire_binding(),
                },
            ],
        });
        let mut encoder = dev.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("harness"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Discard,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            for (binding, buf, offset, len) in &vbs {
                pass.set_vertex_buffer(*binding, buf.slice(*offset..(*len).max(*offset)));
            }
            if let Some((buf, format, off, len)) = &ib {
                pass.set_index_buffer(buf.slice(*off..(*len).max(*off)), *format);
            }
            match (&indirect, ib.is_some()) {
                (Some(a), true) => pass.draw_indexed_indirect(a, 0),
                (Some(a), false) => pass.draw_indirect(a, 0),
                (None, true) => pass.draw_indexed(
                    d.first..d.first + d.count,
                    d.vertex_offset,
                    d.first_instance..d.first_instance + d.instances,
                ),
                (None, false) => pass.draw(
                    d.first..d.first + d.count,
                    d.first_instance..d.first_instance + d.instances,
                ),
            }
        }
        encoder.copy_buffer_to_buffer(&out, 0, &readback, 0, out_size);
        self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(format!("wgpu validation: {e}"));
        }
        let slice = readback.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        dev.poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("wgpu poll: {e}"))?;
        rx.recv()
            .map_err(|e| format!("wgpu map: {e}"))?
            .map_err(|e| format!("wgpu map: {e}"))?;
        let words = slice
            .get_mapped_range()
            .map_err(|e| format!("wgpu map: {e}"))?
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        readback.unmap();
        Ok(words)
    }
}

/// The WGSL twin of [`spirv::vertex_shader`]: same parameters (span, vbase, first
/// instance, capacity), same record layout.
pub fn wgsl(inputs: &[(u32, InputType)]) -> String {
    let rw = spirv::record_words(inputs.len());
    let mut s = String::from(
        "struct Params { span: u32, vbase: i32, first_instance: u32, capacity: u32 }\n\
         @group(0) @binding(0) var<uniform> params: Params;\n\
         @group(0) @binding(1) var<storage, read_write> records: array<u32>;\n\
         @vertex fn vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32",
    );
    for (k, (loc, ty)) in inputs.iter().enumerate() {
        let t = match ty {
            InputType::Float => "f32",
            InputType::Uint => "u32",
            InputType::Sint => "i32",
        };
        let _ = write!(s, ", @location({loc}) a{k}: vec4<{t}>");
    }
    s.push_str(
        ") -> @builtin(position) vec4<f32> {\n\
         \x20 let r = (ii - params.first_instance) * params.span + u32(i32(vi) - params.vbase);\n\
         \x20 if (r < params.capacity) {\n",
    );
    let _ = writeln!(s, "    let b = r * {rw}u;");
    s.push_str("    records[b] = vi;\n    records[b + 1u] = ii;\n");
    for (k, (_, ty)) in inputs.iter().enumerate() {
        for (c, lane) in ["x", "y", "z", "w"].iter().enumerate() {
            let v = match ty {
                InputType::Uint => format!("a{k}.{lane}"),
                _ => format!("bitcast<u32>(a{k}.{lane})"),
            };
            let _ = writeln!(s, "    records[b + {}u] = {v};", 2 + 4 * k + c);
        }
    }
    s.push_str(
        "  }\n  return vec4<f32>(2.0, 2.0, 2.0, 1.0);\n}\n\
         @fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(0.0); }\n",
    );
    s
}

impl Backend for WgpuGpu {
    fn profile(&self) -> &DeviceProfile {
        &self.profile
    }
    fn run(&self, d: &GpuDraw, capacity: u32) -> Result<Vec<u32>, String> {
        self.draw(d, capacity)
    }
    fn set_profile(&mut self, profile: DeviceProfile) {
        self.profile = profile;
    }
    fn description(&self) -> String {
        self.description.clone()
    }
    fn is_software(&self) -> bool {
        WgpuGpu::is_software(self)
    }
}
