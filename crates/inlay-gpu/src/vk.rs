//! The Vulkan side: a device with vertex-pipeline stores, and one draw through a lowered
//! vertex input state with rasterizer discard, its vertex shader storing what it received.

use std::ffi::{CStr, CString};

use ash::vk;
use inlay::lower::{DeviceProfile, TargetApi};

use crate::draw::{Backend, GpuDraw};
use crate::spirv;

/// A Vulkan device ready for harness draws.
pub struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    physical: vk::PhysicalDevice,
    device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    memory: vk::PhysicalDeviceMemoryProperties,
    /// The device's profile as read off it.
    pub profile: DeviceProfile,
    /// Device name, driver name and info, API version.
    pub description: String,
}

fn find_memory(props: &vk::PhysicalDeviceMemoryProperties, bits: u32) -> Option<u32> {
    let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    (0..props.memory_type_count).find(|&i| {
        bits & (1 << i) != 0 && props.memory_types[i as usize].property_flags.contains(want)
    })
}

struct HostBuffer {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
}

impl Gpu {
    /// Opens the first Vulkan device that can store from vertex shaders.
    pub fn open() -> Result<Gpu, String> {
        // SAFETY: loading the system Vulkan loader; the library stays loaded as long as
        // `_entry` lives, which outlives every object created from it.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::make_api_version(0, 1, 1, 0));
        let ici = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: the create info and everything it points to live across the call.
        let instance = unsafe { entry.create_instance(&ici, None) }
            .map_err(|e| format!("vkCreateInstance: {e}"))?;
        // SAFETY: instance is valid.
        let physicals = unsafe { instance.enumerate_physical_devices() }
            .map_err(|e| format!("vkEnumeratePhysicalDevices: {e}"))?;
        let mut chosen = None;
        for &p in &physicals {
            // SAFETY: p comes from this instance.
            let f = unsafe { instance.get_physical_device_features(p) };
            if f.vertex_pipeline_stores_and_atomics == vk::TRUE {
                chosen = Some(p);
                break;
            }
        }
        let physical = chosen.ok_or("no Vulkan device supports vertexPipelineStoresAndAtomics")?;
        // SAFETY: physical is valid for this instance.
        let qfs = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let qf = qfs
            .iter()
            .position(|q| q.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .ok_or("no graphics queue")? as u32;
        // SAFETY: physical is valid.
        let exts = unsafe { instance.enumerate_device_extension_properties(physical) }
            .map_err(|e| format!("{e}"))?;
        let has = |name: &CStr| {
            exts.iter()
                .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
        };
        let divisor_ext = if has(ash::khr::vertex_attribute_divisor::NAME) {
            Some(ash::khr::vertex_attribute_divisor::NAME)
        } else if has(ash::ext::vertex_attribute_divisor::NAME) {
            Some(ash::ext::vertex_attribute_divisor::NAME)
        } else {
            None
        };
        let list_restart_ext = has(ash::ext::primitive_topology_list_restart::NAME);
        let robust2_ext = has(ash::ext::robustness2::NAME);

        let mut div_f = vk::PhysicalDeviceVertexAttributeDivisorFeaturesKHR::default();
        let mut lr_f = vk::PhysicalDevicePrimitiveTopologyListRestartFeaturesEXT::default();
        {
            let mut f2 = vk::PhysicalDeviceFeatures2::default();
            if divisor_ext.is_some() {
                f2 = f2.push_next(&mut div_f);
            }
            if list_restart_ext {
                f2 = f2.push_next(&mut lr_f);
            }
            // SAFETY: the chain's structs live across the call.
            unsafe { instance.get_physical_device_features2(physical, &mut f2) };
        }
        let mut div_p = vk::PhysicalDeviceVertexAttributeDivisorPropertiesEXT::default();
        let mut drv = vk::PhysicalDeviceDriverProperties::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut drv);
        if divisor_ext.is_some() {
            p2 = p2.push_next(&mut div_p);
        }
        // SAFETY: as above.
        unsafe { instance.get_physical_device_properties2(physical, &mut p2) };
        let props = p2.properties;
        let limits = props.limits;

        let mut ext_names: Vec<*const std::ffi::c_char> = Vec::new();
        if let Some(n) = divisor_ext {
            ext_names.push(n.as_ptr());
        }
        if list_restart_ext {
            ext_names.push(ash::ext::primitive_topology_list_restart::NAME.as_ptr());
        }
        let prio = [1.0f32];
        let qci = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(qf)
            .queue_priorities(&prio)];
        let features =
            vk::PhysicalDeviceFeatures::default().vertex_pipeline_stores_and_atomics(true);
        let mut div_on = vk::PhysicalDeviceVertexAttributeDivisorFeaturesKHR::default()
            .vertex_attribute_instance_rate_divisor(
                div_f.vertex_attribute_instance_rate_divisor == vk::TRUE,
            )
            .vertex_attribute_instance_rate_zero_divisor(
                div_f.vertex_attribute_instance_rate_zero_divisor == vk::TRUE,
            );
        let mut lr_on = vk::PhysicalDevicePrimitiveTopologyListRestartFeaturesEXT::default()
            .primitive_topology_list_restart(lr_f.primitive_topology_list_restart == vk::TRUE);
        let mut dci = vk::DeviceCreateInfo::default()
            .queue_create_infos(&qci)
            .enabled_extension_names(&ext_names)
            .enabled_features(&features);
        if divisor_ext.is_some() {
            dci = dci.push_next(&mut div_on);
        }
        if list_restart_ext {
            dci = dci.push_next(&mut lr_on);
        }
        // SAFETY: the create info and its chain live across the call.
        let device = unsafe { instance.create_device(physical, &dci, None) }
            .map_err(|e| format!("vkCreateDevice: {e}"))?;
        // SAFETY: family qf exists with one queue.
        let queue = unsafe { device.get_device_queue(qf, 0) };
        let pci = vk::CommandPoolCreateInfo::default()
            .queue_family_index(qf)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: device is valid.
        let pool = unsafe { device.create_command_pool(&pci, None) }.map_err(|e| format!("{e}"))?;
        // SAFETY: physical is valid.
        let memory = unsafe { instance.get_physical_device_memory_properties(physical) };

        let mut vertex_formats = Vec::new();
        for f in inlay::lower::names::VK_FORMATS {
            // SAFETY: physical is valid; any VkFormat value may be queried.
            let fp = unsafe {
                instance
                    .get_physical_device_format_properties(physical, vk::Format::from_raw(f.value))
            };
            if fp
                .buffer_features
                .contains(vk::FormatFeatureFlags::VERTEX_BUFFER)
            {
                vertex_formats.push(f.name.to_string());
            }
        }
        let name = props
            .device_name_as_c_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let driver = drv
            .driver_name_as_c_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let driver_info = drv
            .driver_info_as_c_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let v = props.api_version;
        let description = format!(
            "{name}; driver {driver} {driver_info}; Vulkan {}.{}.{}",
            vk::api_version_major(v),
            vk::api_version_minor(v),
            vk::api_version_patch(v)
        );
        let profile = DeviceProfile {
            name: name.clone(),
            api: TargetApi::Vulkan,
            vertex_formats,
            max_vertex_input_bindings: limits.max_vertex_input_bindings,
            max_vertex_input_attributes: limits.max_vertex_input_attributes,
            max_vertex_input_attribute_offset: limits.max_vertex_input_attribute_offset,
            max_vertex_input_binding_stride: limits.max_vertex_input_binding_stride,
            divisor: inlay::lower::profile::DivisorSupport {
                supported: div_f.vertex_attribute_instance_rate_divisor == vk::TRUE,
                zero: div_f.vertex_attribute_instance_rate_zero_divisor == vk::TRUE,
                max: if divisor_ext.is_some() {
                    div_p.max_vertex_attrib_divisor
                } else {
                    1
                },
            },
            primitive_topology_list_restart: lr_f.primitive_topology_list_restart == vk::TRUE,
            robust_buffer_access2: robust2_ext,
            source: format!("read off the device by inlay-gpu profile: {description}"),
        };
        Ok(Gpu {
            _entry: entry,
            instance,
            physical,
            device,
            queue,
            pool,
            memory,
            profile,
            description,
        })
    }

    fn host_buffer(&self, size: u64, usage: vk::BufferUsageFlags) -> Result<HostBuffer, String> {
        let size = size.max(16);
        let bci = vk::BufferCreateInfo::default()
            .size(size)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: device valid; the buffer is destroyed in `free`.
        let buffer =
            unsafe { self.device.create_buffer(&bci, None) }.map_err(|e| format!("{e}"))?;
        // SAFETY: buffer from this device.
        let req = unsafe { self.device.get_buffer_memory_requirements(buffer) };
        let ty = find_memory(&self.memory, req.memory_type_bits).ok_or("no host-visible memory")?;
        let mai = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(ty);
        // SAFETY: valid allocate info.
        let memory =
            unsafe { self.device.allocate_memory(&mai, None) }.map_err(|e| format!("{e}"))?;
        // SAFETY: memory fits the requirements of buffer.
        unsafe { self.device.bind_buffer_memory(buffer, memory, 0) }.map_err(|e| format!("{e}"))?;
        Ok(HostBuffer {
            buffer,
            memory,
            size,
        })
    }

    fn write(&self, b: &HostBuffer, data: &[u8]) -> Result<(), String> {
        // SAFETY: memory is host-visible and coherent, mapped over its whole size; data.len()
        // is at most b.size (callers size the buffer from data).
        unsafe {
            let p = self
                .device
                .map_memory(b.memory, 0, b.size, vk::MemoryMapFlags::empty())
                .map_err(|e| format!("{e}"))? as *mut u8;
            std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len().min(b.size as usize));
            self.device.unmap_memory(b.memory);
        }
        Ok(())
    }

    fn read(&self, b: &HostBuffer) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; b.size as usize];
        // SAFETY: as in `write`; the GPU work that wrote it has completed (fence waited).
        unsafe {
            let p = self
                .device
                .map_memory(b.memory, 0, b.size, vk::MemoryMapFlags::empty())
                .map_err(|e| format!("{e}"))? as *const u8;
            std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), out.len());
            self.device.unmap_memory(b.memory);
        }
        Ok(out)
    }

    fn free(&self, b: HostBuffer) {
        // SAFETY: no command using the buffer is pending (fence waited before).
        unsafe {
            self.device.destroy_buffer(b.buffer, None);
            self.device.free_memory(b.memory, None);
        }
    }

    /// Runs one draw and returns the output records (`capacity` records of
    /// `record_words(inputs)` words, 0xDEADBEEF where nothing was written).
    pub fn run(&self, d: &GpuDraw, capacity: u32) -> Result<Vec<u32>, String> {
        let mut input = d.state.to_vulkan().ok_or("lowered for another API")?;
        input.attributes.sort_by_key(|a| a.location);
        let rw = spirv::record_words(d.inputs.len()) as u64;
        let out_size = rw * 4 * capacity as u64;
        let out = self.host_buffer(out_size, vk::BufferUsageFlags::STORAGE_BUFFER)?;
        self.write(
            &out,
            &[0xEFu8, 0xBE, 0xAD, 0xDE].repeat((out.size / 4) as usize),
        )?;
        let mut vbs = Vec::new();
        for b in &d.buffers {
            let hb = self.host_buffer(b.data.len() as u64, vk::BufferUsageFlags::VERTEX_BUFFER)?;
            self.write(&hb, &b.data)?;
            vbs.push((b.binding, hb, b.offset));
        }
        let ib = match &d.index {
            Some((data, _, _)) => {
                let hb = self.host_buffer(data.len() as u64, vk::BufferUsageFlags::INDEX_BUFFER)?;
                self.write(&hb, data)?;
                Some(hb)
            }
            None => None,
        };
        let args = if d.indirect {
            let a = d.indirect_args();
            let hb = self.host_buffer(a.len() as u64, vk::BufferUsageFlags::INDIRECT_BUFFER)?;
            self.write(&hb, &a)?;
            Some(hb)
        } else {
            None
        };

        let dev = &self.device;
        let code = spirv::vertex_shader(&d.inputs);
        let smci = vk::ShaderModuleCreateInfo::default().code(&code);
        // Everything created below is destroyed before returning.
        // SAFETY: valid SPIR-V words (spirv-val checked in the tests).
        let module =
            unsafe { dev.create_shader_module(&smci, None) }.map_err(|e| format!("{e}"))?;
        let dsb = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(1)
            .stage_flags(vk::ShaderStageFlags::VERTEX)];
        let dslci = vk::DescriptorSetLayoutCreateInfo::default().bindings(&dsb);
        // SAFETY: valid create info.
        let dsl = unsafe { dev.create_descriptor_set_layout(&dslci, None) }
            .map_err(|e| format!("{e}"))?;
        let pcr = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::VERTEX)
            .offset(0)
            .size(16)];
        let dsls = [dsl];
        let plci = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&dsls)
            .push_constant_ranges(&pcr);
        // SAFETY: valid create info.
        let pl = unsafe { dev.create_pipeline_layout(&plci, None) }.map_err(|e| format!("{e}"))?;
        let subpass =
            [vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)];
        let rpci = vk::RenderPassCreateInfo::default().subpasses(&subpass);
        // SAFETY: valid create info.
        let rp = unsafe { dev.create_render_pass(&rpci, None) }.map_err(|e| format!("{e}"))?;
        let fbci = vk::FramebufferCreateInfo::default()
            .render_pass(rp)
            .width(1)
            .height(1)
            .layers(1);
        // SAFETY: valid create info.
        let fb = unsafe { dev.create_framebuffer(&fbci, None) }.map_err(|e| format!("{e}"))?;

        let entry = CString::new("main").unwrap_or_default();
        let stages = [vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(module)
            .name(&entry)];
        let mut divisor_state = vk::PipelineVertexInputDivisorStateCreateInfoKHR::default()
            .vertex_binding_divisors(&input.divisors);
        let mut vi = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&input.bindings)
            .vertex_attribute_descriptions(&input.attributes);
        if !input.divisors.is_empty() {
            vi = vi.push_next(&mut divisor_state);
        }
        let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(input.topology)
            .primitive_restart_enable(input.primitive_restart);
        let viewport = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: 1.0,
            height: 1.0,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissor = [vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: 1,
                height: 1,
            },
        }];
        let vps = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewport)
            .scissors(&scissor);
        let rs = vk::PipelineRasterizationStateCreateInfo::default()
            .rasterizer_discard_enable(true)
            .polygon_mode(vk::PolygonMode::FILL)
            .line_width(1.0);
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let gpci = [vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vi)
            .input_assembly_state(&ia)
            .viewport_state(&vps)
            .rasterization_state(&rs)
            .multisample_state(&ms)
            .layout(pl)
            .render_pass(rp)
            .subpass(0)];
        // SAFETY: every pointer in gpci refers to locals alive across the call.
        let pipeline =
            unsafe { dev.create_graphics_pipelines(vk::PipelineCache::null(), &gpci, None) }
                .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e}"))?[0];

        let dps = [vk::DescriptorPoolSize {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            descriptor_count: 1,
        }];
        let dpci = vk::DescriptorPoolCreateInfo::default()
            .max_sets(1)
            .pool_sizes(&dps);
        // SAFETY: valid create info.
        let dpool =
            unsafe { dev.create_descriptor_pool(&dpci, None) }.map_err(|e| format!("{e}"))?;
        let dsai = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(dpool)
            .set_layouts(&dsls);
        // SAFETY: pool has room for one set of this layout.
        let set = unsafe { dev.allocate_descriptor_sets(&dsai) }.map_err(|e| format!("{e}"))?[0];
        let dbi = [vk::DescriptorBufferInfo {
            buffer: out.buffer,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }];
        let wds = [vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&dbi)];
        // SAFETY: set and buffer valid.
        unsafe { dev.update_descriptor_sets(&wds, &[]) };

        let cbai = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: pool valid.
        let cb = unsafe { dev.allocate_command_buffers(&cbai) }.map_err(|e| format!("{e}"))?[0];
        let pc = d.shader_params(capacity);
        // SAFETY: recording into a fresh command buffer; every handle is valid, and the
        // buffers bound cover what the draw reads or are robustly out of bounds.
        unsafe {
            dev.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
                .map_err(|e| format!("{e}"))?;
            let rpbi = vk::RenderPassBeginInfo::default()
                .render_pass(rp)
                .framebuffer(fb)
                .render_area(scissor[0]);
            dev.cmd_begin_render_pass(cb, &rpbi, vk::SubpassContents::INLINE);
            dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
            dev.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::GRAPHICS, pl, 0, &[set], &[]);
            dev.cmd_push_constants(cb, pl, vk::ShaderStageFlags::VERTEX, 0, &pc);
            for (binding, hb, offset) in &vbs {
                dev.cmd_bind_vertex_buffers(cb, *binding, &[hb.buffer], &[*offset]);
            }
            if let (Some(hb), Some((_, wide, off))) = (&ib, &d.index) {
                let t = if *wide {
                    vk::IndexType::UINT32
                } else {
                    vk::IndexType::UINT16
                };
                dev.cmd_bind_index_buffer(cb, hb.buffer, *off, t);
            }
            match (&args, d.index.is_some()) {
                (Some(a), true) => dev.cmd_draw_indexed_indirect(cb, a.buffer, 0, 1, 20),
                (Some(a), false) => dev.cmd_draw_indirect(cb, a.buffer, 0, 1, 16),
                (None, true) => dev.cmd_draw_indexed(
                    cb,
                    d.count,
                    d.instances,
                    d.first,
                    d.vertex_offset,
                    d.first_instance,
                ),
                (None, false) => dev.cmd_draw(cb, d.count, d.instances, d.first, d.first_instance),
            }
            dev.cmd_end_render_pass(cb);
            let barrier = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            dev.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::VERTEX_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
            dev.end_command_buffer(cb).map_err(|e| format!("{e}"))?;
            let fence = dev
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(|e| format!("{e}"))?;
            let cbs = [cb];
            let submit = [vk::SubmitInfo::default().command_buffers(&cbs)];
            dev.queue_submit(self.queue, &submit, fence)
                .map_err(|e| format!("vkQueueSubmit: {e}"))?;
            dev.wait_for_fences(&[fence], true, 60_000_000_000)
                .map_err(|e| format!("vkWaitForFences: {e}"))?;
            dev.destroy_fence(fence, None);
            dev.free_command_buffers(self.pool, &cbs);
        }
        let bytes = self.read(&out)?;
        // SAFETY: the fence was waited on; nothing refers to these objects any more.
        unsafe {
            dev.destroy_pipeline(pipeline, None);
            dev.destroy_descriptor_pool(dpool, None);
            dev.destroy_framebuffer(fb, None);
            dev.destroy_render_pass(rp, None);
            dev.destroy_pipeline_layout(pl, None);
            dev.destroy_descriptor_set_layout(dsl, None);
            dev.destroy_shader_module(module, None);
        }
        self.free(out);
        for (_, hb, _) in vbs {
            self.free(hb);
        }
        if let Some(hb) = ib {
            self.free(hb);
        }
        if let Some(hb) = args {
            self.free(hb);
        }
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// Whether the device is a software rasteriser (lavapipe), whose UNORM/SNORM conversion
    /// may differ by 1 ULP.
    pub fn is_software(&self) -> bool {
        // SAFETY: physical is valid.
        let p = unsafe { self.instance.get_physical_device_properties(self.physical) };
        p.device_type == vk::PhysicalDeviceType::CPU
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: every object made from the device was destroyed by `run`; wait first.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

impl Backend for Gpu {
    fn profile(&self) -> &DeviceProfile {
        &self.profile
    }
    fn run(&self, d: &GpuDraw, capacity: u32) -> Result<Vec<u32>, String> {
        Gpu::run(self, d, capacity)
    }
    fn set_profile(&mut self, profile: DeviceProfile) {
        self.profile = profile;
    }
    fn description(&self) -> String {
        self.description.clone()
    }
    fn is_software(&self) -> bool {
        Gpu::is_software(self)
    }
}
