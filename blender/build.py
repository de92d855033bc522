"""Builds the inlay Blender extension: one command, no Blender binary needed.

    python blender/build.py [--out DIR] [--wheel PATH]

builds the `inlay` wheel from this checkout (`pip wheel .`, which runs maturin; or takes
`--wheel`), and writes DIR/inlay-blender-VERSION.zip (default DIR: target/blender): the add-on
(blender/inlay_blender), its blender_manifest.toml with the wheel listed under `wheels`, and
the wheel in ./wheels/. Install it in Blender 4.2+ with Edit > Preferences > Get Extensions >
Install from Disk (or drag the zip onto Blender), or from Python:
`bpy.ops.extensions.package_install_files(filepath=ZIP, repo="user_default")`.
"""

import argparse
import pathlib
import re
import subprocess
import sys
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
ADDON = ROOT / "blender" / "inlay_blender"


def build_wheel(out):
    """The inlay wheel (abi3: one wheel for every CPython >= 3.9, Blender's 3.11 included)."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out),
                    str(ROOT)], check=True)
    wheels = sorted(out.glob("inlay-*.whl"))
    if not wheels:
        sys.exit(f"no inlay wheel was built in {out}")
    return wheels[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "target" / "blender")
    ap.add_argument("--wheel", type=pathlib.Path, help="use this inlay wheel instead of building")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or build_wheel(pathlib.Path(tmp))
        manifest = (ADDON / "blender_manifest.toml").read_text()
        version = re.search(r'^version = "([^"]+)"', manifest, re.M).group(1)
        listed = f'wheels = ["./wheels/{wheel.name}"]'
        manifest, n = re.subn(r"^wheels = \[.*\]$", listed, manifest, flags=re.M)
        if n != 1:
            sys.exit("blender_manifest.toml has no `wheels = [...]` line to fill")
        zpath = args.out / f"inlay-blender-{version}.zip"
        with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
            for f in sorted(ADDON.rglob("*")):
                if f.is_file() and "__pycache__" not in f.parts and f.name != "blender_manifest.toml":
                    z.write(f, f.relative_to(ADDON).as_posix())
            z.writestr("blender_manifest.toml", manifest)
            z.write(wheel, f"wheels/{wheel.name}")
    print(f"wrote {zpath} (inlay wheel {wheel.name})")


if __name__ == "__main__":
    main()
