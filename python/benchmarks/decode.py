"""W1/W2 decode into numpy: inlay.decode beside the library's own per-element decode and a
straightforward numpy decoder, measured side by side in one run.

    python python/benchmarks/decode.py [--vertices 1000000] [--repeats 9] [--json]

The workloads are `inlay bench`'s W1 (float mesh, stride 48) and W2 (packed mesh, stride
28), data from the same generator. Three decoders run interleaved over the same buffer:

* ``library``: the library's per-element fast fetch (``FetchPlan::fetch_elements``) over the
  whole range into 16-byte rows per element (timed in Rust, GIL released), into buffers kept
  from an earlier run ("kept") and into buffers allocated in the timed run ("fresh": their
  pages are mapped as the decode first writes them, as a new numpy array's are); and
  ``library lanes``: ``FetchPlan::fetch_element_rows`` into kept rows of each element's own
  width (the numpy arrays' shape: 3 lanes for ``R32G32B32_FLOAT``), what ``inlay.decode``
  calls (shown when the installed module has it);
* ``inlay.decode``: the Python API, arrays allocated by numpy on every call, shape
  (vertices, components), ``topology="point_list"``, no primitives or system values, on one
  thread (``threads=1``, like for like with the library's one-thread figures) and on every
  core (``threads=None``, the default a script gets); and the one-thread call with ``out=``
  an earlier result (arrays reused, as a program decoding frame after frame would; the
  library's figure also reuses its buffers);
* ``numpy``: what Blender importers write: ``np.frombuffer`` with a structured dtype, then
  per-format conversion and scaling (halves widened by numpy, packed 10:10:10:2 unpacked with
  shifts, UNORM divided, BGRA swizzled), one array per element.

Figures are medians in millions of vertices per second; the ratios are inlay.decode ÷ library
like for like on one thread (kept ÷ kept, fresh ÷ fresh; goal ≥ 0.8; ``out=`` kept ÷ library
lanes as a third) and inlay.decode (fresh
arrays, as a script calls it) ÷ numpy (goal ≥ 10), on one thread and on every core (numpy's
decoder runs on one thread: it has no other).
"""

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import inlay
from inlay import _inlay


def numpy_w1(data):
    dt = np.dtype([("POSITION", "<f4", 3), ("NORMAL", "<f4", 3), ("TEXCOORD", "<f4", 2),
                   ("TANGENT", "<f4", 4)])
    a = np.frombuffer(data, dtype=dt)
    return {
        "POSITION": np.ascontiguousarray(a["POSITION"], dtype=np.float32),
        "NORMAL": np.ascontiguousarray(a["NORMAL"], dtype=np.float32),
        "TEXCOORD": np.ascontiguousarray(a["TEXCOORD"], dtype=np.float32),
        "TANGENT": np.ascontiguousarray(a["TANGENT"], dtype=np.float32),
    }


def numpy_w2(data):
    dt = np.dtype([("POSITION", "<f2", 4), ("NORMAL", "<u4"), ("TEXCOORD", "<u2", 2),
                   ("COLOR", "u1", 4), ("BLENDINDICES", "u1", 4), ("BLENDWEIGHT", "u1", 4)])
    a = np.frombuffer(data, dtype=dt)
    n = a["NORMAL"]
    normal = np.empty((len(a), 4), dtype=np.float32)
    normal[:, 0] = (n & 0x3FF) / np.float32(1023)
    normal[:, 1] = ((n >> 10) & 0x3FF) / np.float32(1023)
    normal[:, 2] = ((n >> 20) & 0x3FF) / np.float32(1023)
    normal[:, 3] = (n >> 30) / np.float32(3)
    return {
        "POSITION": a["POSITION"].astype(np.float32),
        "NORMAL": normal,
        "TEXCOORD": a["TEXCOORD"].astype(np.float32) / np.float32(65535),
        "COLOR": a["COLOR"][:, [2, 1, 0, 3]].astype(np.float32) / np.float32(255),
        "BLENDINDICES": a["BLENDINDICES"].astype(np.uint32),
        "BLENDWEIGHT": a["BLENDWEIGHT"].astype(np.float32) / np.float32(255),
    }


NUMPY = {"W1": numpy_w1, "W2": numpy_w2}


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def run(vertices, repeats):
    results = []
    for name in ("W1", "W2"):
        elements, stride, data = _inlay.bench_workload(name, vertices)
        layout = inlay.Layout.from_elements(elements)

        def api():
            return inlay.decode(layout, {0: data}, topology="point_list", primitives=False,
                                system_values=False, threads=1)

        def api_cores():
            return inlay.decode(layout, {0: data}, topology="point_list", primitives=False,
                                system_values=False)

        # Same values as the numpy decoder where it is exact (sanity, not a test).
        ours, theirs = api(), NUMPY[name](data)
        assert set(ours) == set(theirs), (set(ours), set(theirs))
        for k in ours:
            assert ours[k].shape == theirs[k].shape, k
        np.testing.assert_array_equal(ours["POSITION"], theirs["POSITION"])
        previous = api()

        def api_reuse():
            return inlay.decode(layout, {0: data}, topology="point_list", primitives=False,
                                system_values=False, out=previous, threads=1)

        assert all(api_reuse()[k] is previous[k] for k in previous)
        try:
            _inlay.library_decode_seconds(name, data, 1, lanes=True)
            has_lanes = True
        except TypeError:  # a module built before fetch_element_rows
            has_lanes = False
        t_lib, t_lib_fresh, t_api, t_cores, t_reuse, t_np = [], [], [], [], [], []
        t_lanes = []
        for _ in range(repeats):
            t_lib += _inlay.library_decode_seconds(name, data, 1)
            if has_lanes:
                t_lanes += _inlay.library_decode_seconds(name, data, 1, lanes=True)
            t_lib_fresh += _inlay.library_decode_seconds(name, data, 1, fresh=True)
            t_api.append(timed(api))
            t_cores.append(timed(api_cores))
            t_reuse.append(timed(api_reuse))
            t_np.append(timed(lambda: NUMPY[name](data)))
        mv = lambda ts: vertices / statistics.median(ts) / 1e6
        lib, lib_fresh = mv(t_lib), mv(t_lib_fresh)
        lanes = mv(t_lanes) if has_lanes else None
        ap, cores, reuse, nump = mv(t_api), mv(t_cores), mv(t_reuse), mv(t_np)
        results.append({
            "workload": name,
            "vertices": vertices,
            "library_mvert_per_s": round(lib, 1),
            "library_fresh_mvert_per_s": round(lib_fresh, 1),
            "library_lanes_mvert_per_s": round(lanes, 1) if lanes else None,
            "inlay_decode_mvert_per_s": round(ap, 1),
            "inlay_decode_reused_mvert_per_s": round(reuse, 1),
            "inlay_decode_all_cores_mvert_per_s": round(cores, 1),
            "cores": os.cpu_count(),
            "numpy_mvert_per_s": round(nump, 1),
            "ratio_reused_vs_library": round(reuse / lib, 3),
            "ratio_reused_vs_library_lanes": round(reuse / lanes, 3) if lanes else None,
            "ratio_fresh_vs_library_fresh": round(ap / lib_fresh, 3),
            "ratio_fresh_vs_library": round(ap / lib, 3),
            "ratio_vs_numpy": round(ap / nump, 2),
            "ratio_all_cores_vs_numpy": round(cores / nump, 2),
        })
    return results


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--vertices", type=int, default=1_000_000)
    p.add_argument("--repeats", type=int, default=9)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    results = run(args.vertices, args.repeats)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"Mv/s, medians of {args.repeats}, {args.vertices} vertices; 'kept' = into buffers "
          f"kept from an earlier run, 'fresh' = into newly allocated ones")
    print(f"{'':4} {'lib kept':>9} {'out= kept':>10} {'ratio':>6} | {'lib fresh':>10} "
          f"{'decode':>7} {'ratio':>6} | {'numpy':>6} {'decode/numpy':>13} | "
          f"{'all cores':>9} {'/numpy':>7} | {'lib lanes':>9} {'out=/lanes':>10}")
    for r in results:
        print(f"{r['workload']:4} {r['library_mvert_per_s']:>9} "
              f"{r['inlay_decode_reused_mvert_per_s']:>10} {r['ratio_reused_vs_library']:>6} | "
              f"{r['library_fresh_mvert_per_s']:>10} {r['inlay_decode_mvert_per_s']:>7} "
              f"{r['ratio_fresh_vs_library_fresh']:>6} | {r['numpy_mvert_per_s']:>6} "
              f"{r['ratio_vs_numpy']:>13} | {r['inlay_decode_all_cores_mvert_per_s']:>9} "
              f"{r['ratio_all_cores_vs_numpy']:>7} | {str(r['library_lanes_mvert_per_s']):>9} "
              f"{str(r['ratio_reused_vs_library_lanes']):>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
