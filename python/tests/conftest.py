"""Shared helpers of the pytest suite of the `inlay` Python package.

The suite's oracles are independent of the code path under test (the fast per-element fetch):
the repository's conformance cases (expected register bits computed by the separate Python
model in conformance/tools), the `inlay` command line's `decode --hex` (the library's
reference fetch, one vertex at a time), and bit patterns worked out by hand in the tests.
"""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli_path():
    """The `inlay` binary: $INLAY_CLI, else target/release/inlay of this checkout, else PATH."""
    env = os.environ.get("INLAY_CLI")
    if env:
        return env
    built = ROOT / "target" / "release" / "inlay"
    if built.is_file():
        return str(built)
    return shutil.which("inlay")


@pytest.fixture(scope="session")
def inlay_cli():
    """Runs the `inlay` command line; skips visibly (or fails with INLAY_REQUIRE_CLI=1) when
    the binary is not built."""
    path = cli_path()
    if not path:
        msg = ("the inlay command line is not built (cargo build --release -p inlay-cli, "
               "or set INLAY_CLI): the CLI-oracle tests are skipped")
        if os.environ.get("INLAY_REQUIRE_CLI") == "1":
            pytest.fail(msg)
        print("NOTICE:", msg)
        pytest.skip(msg)

    def run(*args, check=True):
        r = subprocess.run([path, *map(str, args)], capture_output=True, text=True,
                           env={**os.environ, "NO_COLOR": "1"})
        if check and r.returncode != 0:
            raise AssertionError(f"inlay {' '.join(map(str, args))} failed:\n{r.stderr}")
        return r

    return run
