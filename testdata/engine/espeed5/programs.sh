#!/bin/bash
# programs.sh BASE NEW [ROUNDS]: user+system CPU seconds of `warpsim run
# --mode functional` on each launch file here, the two warpsim binaries
# alternating, ROUNDS times (default 3); one line per run.
cd "$(dirname "$0")"
R=${3:-3}
for i in $(seq "$R"); do
  for f in vadd sred rmw; do
    for b in "$1" "$2"; do
      /usr/bin/time -f "$(basename "$b") $f %U+%S CPU-s %e s wall, load $(cut -d' ' -f1 /proc/loadavg)" \
        "$b" run --mode functional $f.json 2>&1 >/dev/null | tail -1
    done
  done
done
