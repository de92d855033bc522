#!/usr/bin/env bash
# Every measurement the open issues need from the 16-core H200 host, prepared here and run there
# in as few device calls as the 600 s per call allows (device time is scarce: 30 min a session).
#
#   .ci/device-round.sh prepare [BEFORE_REV [AFTER_REV]]
#       Here (where cargo and the crates are): the fuzz kit (`bash fuzz/fuzz.sh kit`), the GPU
#       harness (`crates/inlay-gpu/h200.sh prepare`) and the before/after `inlay` builds of
#       `.ci/bench-ab.sh build` (default: 3425f45, the commit before issue 30's SIMD refactor,
#       against HEAD). Prints the carry list and its size (a call carries at most 64 MiB).
#   .ci/device-round.sh run [PART...]
#       There, with the carry list of `prepare`: the parts in order, each logged with its wall
#       time into $OUT/round.txt and its own output under $OUT/PART/. Parts:
#         gpu    the GPU harness, three bit-exact runs (every row must show 0 differences)
#         ab     bench-ab: `run 5 -- --threads 1`, `run 5 -- --threads 16`, `elements 5`
#         frame  `inlay bench --frame` (2 GB, 5 000 draws, all cores) with the AFTER build
#         fuzz   the fuzz kit until the call's budget ends (TARGETS= for some targets)
#         profile  `frame`'s figures, then where a 16-job `inlay export` of its frame spends
#                its time and what its idle jobs wait for: `perf stat`, `perf record -g` and
#                a scheduler-switch profile with the AFTER build (about 2.5 minutes; needs
#                the perf kit of `.ci/device-round.sh perfkit`, carried as target/perfkit)
#       Default: gpu ab frame (about 7 minutes); `fuzz` alone fills a second and third call.
#       BUDGET_S (default 570) is the call's time; fuzz gets what the parts before it left.
#   .ci/device-round.sh perfkit
#       Here: this machine's `perf` with every library it loads (its loader included) into
#       target/perfkit (about 33 MiB: carry it alone with the builds, not with the fuzz kit).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
carry=(.gl target/gpu/release/inlay-gpu target/bench-ab/bin target/fuzz-kit)

case "${1:-}" in
perfkit)
    set -e
    mkdir -p target/perfkit
    cp "$(command -v perf)" target/perfkit/
    ldd "$(command -v perf)" | awk '$3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' |
        xargs -I{} cp -L {} target/perfkit/
    du -sh target/perfkit
    ;;
prepare)
    before=${2:-3425f45}
    after=${3:-HEAD}
    set -e
    bash fuzz/fuzz.sh kit
    sh crates/inlay-gpu/h200.sh prepare
    .ci/bench-ab.sh build "$before" "$after"
    echo "carry: [$(printf '"%s",' "${carry[@]}" | sed 's/,$//')]"
    du -shc "${carry[@]}" | tail -n 1
    ;;
run)
    shift
    parts=("$@")
    [ ${#parts[@]} -eq 0 ] && parts=(gpu ab frame)
    out=${OUT:-target/device-round}
    budget=${BUDGET_S:-570}
    t0=$(date +%s)
    mkdir -p "$out"
    {
        echo "device-round $(date -u +%FT%TZ) parts: ${parts[*]}"
        nproc
        grep -m1 'model name' /proc/cpuinfo
    } >> "$out/round.txt"
    for p in "${parts[@]}"; do
        s=$(date +%s)
        mkdir -p "$out/$p"
        case "$p" in
        gpu)
            OUT="$out/$p" sh crates/inlay-gpu/h200.sh run > "$out/$p/log.txt" 2>&1
            ;;
        ab)
            {
                OUT="$out/$p/t1" .ci/bench-ab.sh run 5 -- --threads 1
                OUT="$out/$p/t16" .ci/bench-ab.sh run 5 -- --threads 16
                OUT="$out/$p/elements" .ci/bench-ab.sh elements 5
            } > "$out/$p/log.txt" 2>&1
            ;;
        frame)
            target/bench-ab/bin/after bench --frame /tmp/inlay-frame-bench \
                > "$out/$p/log.txt" 2>&1
            r=$?
            rm -rf /tmp/inlay-frame-bench
            (exit $r)
            ;;
        profile)
            k=target/perfkit
            perf() { "$k/ld-linux-x86-64.so.2" --library-path "$k" "$k/perf" "$@"; }
            b=target/bench-ab/bin/after
            runs=/tmp/inlay-profile-runs
            x() { echo "$b" export /tmp/inlay-frame-profile/frame --output-dir "$runs/$1" --jobs 16; }
            {
                # The bench's own figures first; its frame stays for the profiles.
                $b bench --frame /tmp/inlay-frame-profile
                mkdir -p "$runs"
                perf stat -e task-clock,context-switches,cpu-migrations,page-faults -- $(x stat)
                perf record -F 999 -g -o /tmp/cpu.data -- $(x cpu) > /dev/null
                perf report -i /tmp/cpu.data --no-children --sort sym --stdio -g none \
                    --percent-limit 0.3 > "$out/$p/cpu-self.txt"
                perf report -i /tmp/cpu.data --children --sort sym --stdio -g none \
                    --percent-limit 0.5 > "$out/$p/cpu-children.txt"
                perf record -e sched:sched_switch -g -o /tmp/sched.data -- $(x sched) > /dev/null
                perf report -i /tmp/sched.data --no-children --sort sym --stdio -g caller \
                    --percent-limit 3 > "$out/$p/sched.txt"
                head -40 "$out/$p/cpu-self.txt"
            } > "$out/$p/log.txt" 2>&1
            rm -rf "$runs" /tmp/inlay-frame-profile /tmp/cpu.data /tmp/sched.data
            ;;
        fuzz)
            left=$((budget - ($(date +%s) - t0) - 15))
            if [ "$left" -lt 60 ]; then
                echo "fuzz: skipped, ${left}s left" > "$out/$p/log.txt"
            else
                OUT="$out/$p" DEADLINE_S=$left bash target/fuzz-kit/run.sh \
                    > "$out/$p/log.txt" 2>&1
            fi
            ;;
        *)
            echo "unknown part $p" > "$out/$p/log.txt"
            ;;
        esac
        echo "$p: rc=$? wall=$(($(date +%s) - s))s" >> "$out/round.txt"
        tail -n 25 "$out/$p/log.txt"
        [ -f "$out/$p/summary.txt" ] && cat "$out/$p/summary.txt"
    done
    cat "$out/round.txt"
    ;;
*)
    sed -n '2,25p' "$0" >&2
    exit 2
    ;;
esac
