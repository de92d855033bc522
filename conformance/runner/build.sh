#!/bin/sh
# Builds the conformance runner for Windows with mingw-w64 (Debian: gcc-mingw-w64-x86-64):
#   sh conformance/runner/build.sh [OUT_DIR]   ->  OUT_DIR/inlay-d3d11-runner.exe (default target/runner)
# Only mingw-w64's own headers and import libraries are used (d3d11, dxguid); no Windows SDK.
set -eu
out="${1:-target/runner}"
mkdir -p "$out"
"${CC_MINGW:-x86_64-w64-mingw32-gcc}" -O2 -std=c11 -Wall -Wextra -Werror -static \
    -o "$out/inlay-d3d11-runner.exe" "$(dirname "$0")/inlay-d3d11-runner.c" -ld3d11 -ldxguid
echo "built $out/inlay-d3d11-runner.exe"
