#!/bin/bash
# default_cost.sh CHECKOUT NEW_WARPSIM OLD_WARPSIM SAMPLE_DIR... builds each of
# NVIDIA's cuda-samples named (relative to a checkout of
# github.com/NVIDIA/cuda-samples) once with `NEW_WARPSIM cc -I Common`, runs
# it from its own directory in the modes that MODES lists (default:
# functional new old) and prints a markdown table of each run's wall, user
# and system seconds (user and system include the `warpsim __runtime`
# co-process), its exit status, and, in timing mode, the sum of its kernels'
# simulated times (the runtime's profile, WARPSIM_PROFILE) and how many of
# its launches were sampled by waves, took a repeated or similar launch's
# time (the "repeat" column counts both) or were replayed (launch replay,
# docs/performance.md):
#   functional  WARPSIM_MODE=functional, NEW_WARPSIM's runtime
#   new         the default for programs (timing, sampled), NEW_WARPSIM's runtime
#   old         the default for programs, OLD_WARPSIM's runtime (WARPSIM_BIN)
#   full        timing with WARPSIM_SAMPLING=0 (every block of every launch)
#   noreplay    the default for programs with WARPSIM_REPLAY=0 (no launch replayed)
# TIMEOUT (default 900) bounds each run. Logs and profiles are kept under
# /tmp/default-cost-NAME.*. docs/cuda-samples.md has the numbers it gave.
#
#   bash testdata/samples/default_cost.sh /tmp/cuda-samples /tmp/warpsim-new /tmp/warpsim-old \
#     Samples/0_Introduction/asyncAPI Samples/2_Concepts_and_Techniques/dct8x8
set -u
usage="usage: default_cost.sh CUDA_SAMPLES_CHECKOUT NEW_WARPSIM OLD_WARPSIM SAMPLE_DIR..."
root=$(cd "${1:?$usage}" && pwd)
new=${2:?$usage}
old=${3:?$usage}
shift 3
export WARPSIM_PROGRESS=0
echo "| sample | mode | wall s | user s | sys s | exit | kernels' simulated µs | launches | sampled: waves | repeat | replayed |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for rel in "$@"; do
  dir=$root/$rel
  name=$(basename "$dir")
  srcs=$(cd "$dir" && ls *.cu *.cpp 2>/dev/null | tr '\n' ' ')
  exe=/tmp/default-cost-$name
  flags=""
  grep -q OpenMP "$dir/CMakeLists.txt" 2>/dev/null && flags="-Xcompiler -fopenmp"
  if ! (cd "$dir" && "$new" cc -I "$root/Common" $flags $srcs -o "$exe") > "$exe.build" 2>&1; then
    echo "| $name | build failed (see $exe.build) | | | | | | | | | |"
    continue
  fi
  for m in ${MODES:-functional new old}; do
    case $m in
      functional) env=(WARPSIM_MODE=functional WARPSIM_BIN="$new") ;;
      new) env=(WARPSIM_BIN="$new") ;;
      old) env=(WARPSIM_BIN="$old") ;;
      full) env=(WARPSIM_BIN="$new" WARPSIM_SAMPLING=0) ;;
      noreplay) env=(WARPSIM_BIN="$new" WARPSIM_REPLAY=0) ;;
    esac
    prof=$exe.$m.profile.json
    rm -f "$prof"
    /usr/bin/time -f "%e %U %S" -o "$exe.$m.time" \
      env "${env[@]}" WARPSIM_PROFILE="$prof" timeout "${TIMEOUT:-900}" bash -c "cd '$dir' && '$exe' < /dev/null" > "$exe.$m.out" 2>&1
    st=$?
    read -r e u s < <(tail -n 1 "$exe.$m.time")
    sums=$(python3 - "$prof" <<'PY'
import json, sys
try:
    p = json.load(open(sys.argv[1]))
except Exception:
    print("| | | | "); sys.exit()
ns = n = waves = rep = replayed = 0
for l in p.get("launches") or []:
    ns += l.get("ns", 0) or 0
    n += 1
    t = l.get("timing") or l.get("Timing") or {}
    if t.get("Sampling") == "waves": waves += 1
    if t.get("Sampling") in ("repeat", "similar"): rep += 1
    if l.get("replayed"): replayed += 1
print("%.1f | %d | %d | %d | %d" % (ns / 1000, n, waves, rep, replayed))
PY
)
    echo "| $name | $m | $e | $u | $s | $st | $sums |"
  done
done
