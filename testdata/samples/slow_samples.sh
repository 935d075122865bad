#!/bin/bash
# slow_samples.sh CHECKOUT WARPSIM NAME... builds each named sample of a
# checkout of github.com/NVIDIA/cuda-samples (found under Samples/*/NAME) with
# `WARPSIM cc -I Common`, as try_samples.sh does, runs it from its own
# directory in its default mode (timing, sampled) one at a time, and prints
# a markdown row per sample: wall and CPU seconds (user + system, the
# `warpsim __runtime` co-process included), the load average at the start
# and end of the run, the exit status, and from the runtime's profile
# (WARPSIM_PROFILE) the launches, how many were sampled by waves or as short
# grids (1.5 to 6 waves: docs/timing-model.md#sampling), took an
# identical launch's time ("repeat"), a similar launch's ("similar"), or
# were replayed, the kernels' simulated µs, and the largest resident set
# (GNU time's %M: the program or its runtime, whichever was larger, in MB).
# TIMEOUT (default 900)
# bounds each run; a run that ran out shows ">TIMEOUT" and no CPU seconds.
# WARPSIM_BIN (default WARPSIM) is the runtime the programs use. Logs,
# profiles and the runtime's Go CPU profile (WARPSIM_CPUPROFILE, for
# `go tool pprof`) are kept under OUT (default /tmp/slow-samples/). docs/cuda-samples.md
# has the numbers it gave.
#
#   bash testdata/samples/slow_samples.sh /tmp/cuda-samples /tmp/warpsim sortingNetworks mergeSort
set -u
usage="usage: slow_samples.sh CUDA_SAMPLES_CHECKOUT WARPSIM NAME..."
root=$(cd "${1:?$usage}" && pwd)
warpsim=${2:?$usage}
shift 2
out=${OUT:-/tmp/slow-samples}
mkdir -p "$out"
export WARPSIM_PROGRESS=0 WARPSIM_BIN=${WARPSIM_BIN:-$warpsim}
to=${TIMEOUT:-900}
echo "| sample | wall s | CPU s | load | exit | launches | waves | short | repeat | similar | replayed | simulated µs | max RSS MB |"
echo "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in "$@"; do
  dir=$(ls -d "$root"/Samples/*/"$name" 2>/dev/null | head -n 1)
  if [ -z "$dir" ]; then
    echo "| $name | not in the checkout | | | | | | | | | | |"
    continue
  fi
  srcs=$(cd "$dir" && ls *.cu *.cpp src/*.cu src/*.cpp 2>/dev/null | tr '\n' ' ')
  incs=""
  [ -d "$dir/inc" ] && incs="-I $dir/inc"
  flags=""
  grep -q OpenMP "$dir/CMakeLists.txt" 2>/dev/null && flags="-Xcompiler -fopenmp"
  exe=$out/$name
  if ! (cd "$dir" && "$warpsim" cc -I "$root/Common" $incs $flags $srcs -o "$exe") > "$exe.build" 2>&1; then
    echo "| $name | build failed (see $exe.build) | | | | | | | | | | |"
    continue
  fi
  rm -f "$exe.profile.json"
  l0=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S %M" -o "$exe.time" env WARPSIM_PROFILE="$exe.profile.json" WARPSIM_CPUPROFILE="$exe.cpu" \
    timeout "$to" bash -c "cd '$dir' && '$exe' < /dev/null" > "$exe.out" 2>&1
  st=$?
  l1=$(cut -d' ' -f1 /proc/loadavg)
  read -r e u s m < <(tail -n 1 "$exe.time")
  if [ "$st" -eq 124 ]; then
    wall=">$to" cpu=""
  else
    wall=$e cpu=$(echo "$u + $s" | bc)
  fi
  sums=$(python3 - "$exe.profile.json" <<'PY'
import json, sys
try:
    p = json.load(open(sys.argv[1]))
except Exception:
    print("| | | | | | "); sys.exit()
ns = n = waves = short = rep = sim = replayed = 0
for l in p.get("launches") or []:
    ns += l.get("ns", 0) or 0
    n += 1
    t = l.get("timing") or {}
    waves += t.get("Sampling") == "waves"
    short += t.get("Sampling") == "short"
    rep += t.get("Sampling") == "repeat"
    sim += t.get("Sampling") == "similar"
    replayed += bool(l.get("replayed"))
print("%d | %d | %d | %d | %d | %d | %.1f" % (n, waves, short, rep, sim, replayed, ns / 1000))
PY
)
  echo "| $name | $wall | $cpu | $l0–$l1 | $st | $sums | $(( ${m:-0} / 1024 )) |"
done
