#!/bin/bash
# The same benchmarks on the project's shared 2-core VM: base.test and
# new.test (as run.sh's) run one after the other, alternating, ROUNDS
# times (default 8), -test.cpu 1; outputs in DIR (default local).
# python3 medians.py DIR prints the table.
set -e
cd "$(dirname "$0")"
R=${1:-8}
D=${2:-local}
mkdir -p "$D"
: > "$D/base.txt"; : > "$D/new.txt"
B='BareLaneLoop|UniformALU/workers=1|MemoryBound|SharedReduce|ReadModifyWrite|Divergent'
for i in $(seq "$R"); do
  for b in base new; do
    echo "round $i $(cat /proc/loadavg)" >> "$D/$b.txt"
    ./$b.test -test.run '^$' -test.bench "$B" -test.cpu 1 -test.benchtime 0.5s >> "$D/$b.txt" 2>&1
  done
done
