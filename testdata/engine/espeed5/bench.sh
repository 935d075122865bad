#!/bin/bash
# bench.sh ROUNDS OUT BIN...: the benchmarks, binaries alternating; the
# engine benchmarks a fixed 4 launches each (after the first), the bare
# loop 0.5 s, one right after the other.
R=$1; O=$2; shift 2
mkdir -p $O
B='UniformALU/workers=1|MemoryBound|SharedReduce|ReadModifyWrite'
for i in $(seq $R); do
  for b in "$@"; do
    echo "round $i $(cat /proc/loadavg)" >> $O/$b.txt
    ./$b -test.run '^$' -test.bench 'BareLaneLoop' -test.cpu 1 -test.benchtime 0.5s >> $O/$b.txt 2>&1
    ./$b -test.run '^$' -test.bench "$B" -test.cpu 1 -test.benchtime 4x >> $O/$b.txt 2>&1
  done
done
