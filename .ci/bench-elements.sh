#!/usr/bin/env bash
# Before/after throughput of the per-element fetch paths (crates/inlay-bench/examples/
# element_paths.rs; `inlay bench` takes the fused kernel instead), in one call on one machine.
#
#   .ci/bench-elements.sh build BEFORE_REV AFTER_REV
#       Builds the example against both revisions (this checkout's copy of the example is put
#       into each, so an older revision without it works), non-incrementally, into
#       target/bench-ab/bin/elements-{before,after}. Carry that folder to the machine that
#       measures.
#   .ci/bench-elements.sh run [ROUNDS] [VERTICES]
#       Runs both ROUNDS times (default 5) interleaved and prints per case each side's median
#       of the round medians, the spread of its rounds and after/before; a case is slower
#       beyond the run-to-run spread when after's best round is below before's worst.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ab="$root/target/bench-ab"
example="$root/crates/inlay-bench/examples/element_paths.rs"

case "${1:-}" in
build)
    [ $# -eq 3 ] || { echo "usage: $0 build BEFORE_REV AFTER_REV" >&2; exit 2; }
    mkdir -p "$ab/bin" "$ab/src"
    for side in before after; do
        rev=$([ "$side" = before ] && echo "$2" || echo "$3")
        src="$ab/src/$side"
        rm -rf "$src" && mkdir -p "$src"
        # -m: extraction times, so that cargo rebuilds `inlay` for the second side.
        git -C "$root" archive "$rev" | tar -x -m -C "$src"
        mkdir -p "$src/crates/inlay-bench/examples"
        cp "$example" "$src/crates/inlay-bench/examples/element_paths.rs"
        (cd "$src" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$ab/build" \
            cargo build --release --locked -p inlay-bench --example element_paths)
        cp "$ab/build/release/examples/element_paths" "$ab/bin/elements-$side"
        echo "$side: $(git -C "$root" rev-parse --short "$rev") -> $ab/bin/elements-$side"
        rm -rf "$src"
    done
    ;;
run)
    rounds=${2:-5}
    vertices=${3:-500000}
    out=${OUT:-$ab/out}
    mkdir -p "$out"
    for r in $(seq 1 "$rounds"); do
        for b in before after; do
            "$ab/bin/elements-$b" "$vertices" >"$out/elements-$b-$r.txt"
        done
    done
    python3 - "$out" "$rounds" <<'PY'
import re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
res = {}
for b in ("before", "after"):
    for r in range(1, rounds + 1):
        for line in open(f"{out}/elements-{b}-{r}.txt"):
            case, mvs = re.match(r"(.*): ([\d.]+) Mv/s", line).groups()
            res.setdefault(case, {}).setdefault(b, []).append(float(mvs))
print(f"{'case':20} {'before':>7} {'(min-max)':>13} {'after':>7} {'(min-max)':>13} after/before")
for case, v in res.items():
    b, a = v["before"], v["after"]
    mb, ma = statistics.median(b), statistics.median(a)
    verdict = "SLOWER beyond spread" if max(a) < min(b) else "within spread or faster"
    print(f"{case:20} {mb:7.1f} {min(b):6.1f}-{max(b):6.1f} {ma:7.1f} {min(a):6.1f}-{max(a):6.1f}"
          f" {ma / mb:12.3f}  {verdict}")
PY
    ;;
*)
    echo "usage: $0 build BEFORE_REV AFTER_REV | run [ROUNDS] [VERTICES]" >&2
    exit 2
    ;;
esac
