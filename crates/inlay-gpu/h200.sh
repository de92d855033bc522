#!/bin/sh
# The GPU harness on the H200 host, in two steps (docs/gpu/h200-report.md is its last run).
#
#   crates/inlay-gpu/h200.sh prepare   # here: builds target/gpu/release/inlay-gpu (with wgpu)
#   crates/inlay-gpu/h200.sh run       # there, with .gl (the Vulkan loader debs) and the
#                                      # binary carried: three bit-exact runs into $OUT
#
# The device run: carry [".gl", "target/gpu/release/inlay-gpu"], command
#   sh crates/inlay-gpu/h200.sh run
# Every case, D3D11 and D3D12 ("D3D12 …" rows), must show 0 differences; nothing is tolerated
# (no --unorm-ulp, no --nan-quiet).
set -eu
case "${1:-}" in
prepare)
  cargo build --release --manifest-path crates/inlay-gpu/Cargo.toml --target-dir target/gpu --features wgpu
  ls -l target/gpu/release/inlay-gpu
  ls .gl/*.deb >/dev/null 2>&1 || echo "note: .gl/ holds no loader debs (see the device README)" >&2
  ;;
run)
  if ! ldconfig -p | grep -q libvulkan.so.1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  fi
  [ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] &&
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  out="${OUT:-target/gpu}"
  gpu=target/gpu/release/inlay-gpu
  "$gpu" profile --out "$out/nvidia-h200.json"
  "$gpu" verify --profile "$out/nvidia-h200.json" --report "$out/h200-device.md" | tail -n 3
  "$gpu" verify --profile required --report "$out/h200-required.md" | tail -n 3
  XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}" "$gpu" verify --api wgpu --report "$out/h200-wgpu.md" | tail -n 3
  grep -h '^| D3D12' "$out"/h200-*.md
  ;;
*)
  echo "usage: $0 prepare|run" >&2
  exit 2
  ;;
esac
