#!/bin/sh
# Installs libinlay into PREFIX after `cargo build --release -p inlay-capi`:
#   PREFIX/include/inlay.h
#   PREFIX/lib/libinlay.so.0 (soname) + libinlay.so -> libinlay.so.0, PREFIX/lib/libinlay.a
#   PREFIX/lib/pkgconfig/inlay.pc          (pkg-config --cflags --libs inlay)
#   PREFIX/lib/cmake/inlay/inlayConfig.cmake, inlayConfigVersion.cmake   (find_package(inlay))
# Usage: crates/inlay-capi/install.sh PREFIX [TARGET_DIR]
#   TARGET_DIR: cargo's target directory (default $CARGO_TARGET_DIR, else <repo>/target).
# The installed files are relocatable: the .pc and CMake files find the rest relative to
# themselves. Running it again overwrites the previous installation.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 PREFIX [TARGET_DIR]" >&2
    exit 2
fi
prefix=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=${2:-${CARGO_TARGET_DIR:-$root/target}}/release
for f in libinlay.so libinlay.a; do
    if [ ! -f "$target/$f" ]; then
        echo "$0: $target/$f is missing; run: cargo build --release -p inlay-capi" >&2
        exit 1
    fi
done
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
# What `rustc --print native-static-libs` lists for the static library on Linux.
native_libs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

lib=$prefix/lib
mkdir -p "$prefix/include" "$lib/pkgconfig" "$lib/cmake/inlay"
cp "$root/include/inlay.h" "$prefix/include/inlay.h"
cp "$target/libinlay.so" "$lib/libinlay.so.0.tmp"
mv -f "$lib/libinlay.so.0.tmp" "$lib/libinlay.so.0"
ln -sf libinlay.so.0 "$lib/libinlay.so"
cp "$target/libinlay.a" "$lib/libinlay.a"
sed -e "s|@VERSION@|$version|g" -e "s|@NATIVE_LIBS@|$native_libs|g" \
    "$here/pkg/inlay.pc.in" > "$lib/pkgconfig/inlay.pc"
cp "$here/pkg/inlayConfig.cmake" "$lib/cmake/inlay/inlayConfig.cmake"
sed -e "s|@VERSION@|$version|g" -e "s|@VERSION_MAJOR@|$major|g" -e "s|@VERSION_MINOR@|$minor|g" \
    "$here/pkg/inlayConfigVersion.cmake.in" > "$lib/cmake/inlay/inlayConfigVersion.cmake"
echo "installed libinlay $version into $prefix"
