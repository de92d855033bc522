#!/usr/bin/env bash
# Before/after throughput of two inlay builds, measured in one call on one machine (memory
# speed differs between machines, so only same-call comparisons count; docs/notes/fastfetch.md).
#
#   .ci/bench-ab.sh build BEFORE_REV AFTER_REV
#       Builds `inlay` at both revisions from `git archive` copies (no worktree is touched),
#       non-incrementally (incremental codegen moves the kernels' instruction counts by up to
#       15 %), into target/bench-ab/bin/{before,after}. Run it where cargo and the crates are;
#       carry target/bench-ab/bin to the machine that measures. With them, `elements-{before,
#       after}`: inlay-bench's example `element_paths` (this checkout's copy put into both), the
#       per-element fetch paths that `inlay bench` does not reach.
#   .ci/bench-ab.sh run [ROUNDS] [-- BENCH_ARGS...]
#       Runs `inlay bench --json BENCH_ARGS` ROUNDS times (default 3) per binary, interleaved
#       (before, after, before, …), and prints per workload each binary's median of the round
#       medians, the spread of its rounds (min–max), and after/before. A workload is slower
#       beyond the run-to-run spread when after's best round is below before's worst.
#       The JSON of every round is kept in ${OUT:-target/bench-ab/out}.
#   .ci/bench-ab.sh elements [ROUNDS] [VERTICES]
#       The same for `element_paths` (default 5 rounds of 500 000 vertices), per case.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ab="$root/target/bench-ab"

case "${1:-}" in
build)
    [ $# -eq 3 ] || { echo "usage: $0 build BEFORE_REV AFTER_REV" >&2; exit 2; }
    mkdir -p "$ab/bin" "$ab/src"
    for side in before after; do
        rev=$([ "$side" = before ] && echo "$2" || echo "$3")
        src="$ab/src/$side"
        rm -rf "$src" && mkdir -p "$src"
        # -m: the files get the time of extraction. With their commit times (tar's default),
        # the second side's sources were older than the first side's build, so cargo took the
        # first side's `inlay` as fresh and both binaries came out the same.
        git -C "$root" archive "$rev" | tar -x -m -C "$src"
        mkdir -p "$src/crates/inlay-bench/examples"
        cp "$root/crates/inlay-bench/examples/element_paths.rs" "$src/crates/inlay-bench/examples/"
        # One target directory for both: dependencies build once, inlay itself from scratch.
        (cd "$src" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$ab/build" \
            cargo build --release --locked -p inlay-cli --bin inlay \
            -p inlay-bench --example element_paths)
        cp "$ab/build/release/inlay" "$ab/bin/$side"
        cp "$ab/build/release/examples/element_paths" "$ab/bin/elements-$side"
        echo "$side: $(git -C "$root" rev-parse --short "$rev") -> $ab/bin/$side"
        rm -rf "$src"
    done
    ;;
run)
    shift
    rounds=3
    if [ $# -gt 0 ] && [ "$1" != "--" ]; then rounds=$1; shift; fi
    [ "${1:-}" = "--" ] && shift
    out=${OUT:-$ab/out}
    mkdir -p "$out"
    for b in before after; do
        [ -x "$ab/bin/$b" ] || { echo "$ab/bin/$b missing: run '$0 build' first" >&2; exit 2; }
    done
    "$ab/bin/before" bench --help >/dev/null
    for r in $(seq 1 "$rounds"); do
        for b in before after; do
            "$ab/bin/$b" bench --json --color never "$@" >"$out/$b-$r.json"
            echo "round $r $b done" >&2
        done
    done
    python3 - "$out" "$rounds" <<'EOF'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
runs = {b: [json.load(open(f"{out}/{b}-{r}.json")) for r in range(1, rounds + 1)]
        for b in ("before", "after")}
names = [w["name"] for w in runs["before"][0]["workloads"]]
print(f"{'workload':9} {'before':>7} {'(min-max)':>11} {'after':>7} {'(min-max)':>11} "
      f"{'after/before':>12}  verdict")
worse = []
for n in names:
    r = {b: [next(w["ratio"] for w in run["workloads"] if w["name"] == n) for run in runs[b]]
         for b in runs}
    mb, ma = statistics.median(r["before"]), statistics.median(r["after"])
    slower = max(r["after"]) < min(r["before"])
    if slower:
        worse.append(n)
    print(f"{n:9} {mb:7.3f} {min(r['before']):5.3f}-{max(r['before']):5.3f} {ma:7.3f} "
          f"{min(r['after']):5.3f}-{max(r['after']):5.3f} {ma / mb:12.3f}  "
          f"{'SLOWER beyond spread' if slower else 'within spread or faster'}")
print("ratio = kernel / memory roof, median of each round's paired runs (inlay bench)")
sys.exit(1 if worse else 0)
EOF
    ;;
elements)
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
    sed -n 2,17p "$0" >&2
    exit 2
    ;;
esac
