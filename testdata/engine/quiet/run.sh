#!/bin/bash
# Quiet engine benchmarks for engine3: main's engine (base.test, this
# branch's bench_test.go), this branch's (new.test), main's own test binary
# (main.test: the one-lane bare loop at whatever placement it got) and the
# placement demo (bare.test: one-lane, four-lane and unrolled loops at
# eight code offsets). base and new run at the same time on two cores,
# swapping cores each round, five rounds.
set -x
cd "$(dirname "$0")" && tar xzf bins.tgz
nproc; lscpu | grep -E 'Model name|Thread|Core|Socket|MHz|L1d|L2|L3' ; cat /proc/loadavg
ts() { if taskset -c "$1" true 2>/dev/null; then taskset -c "$@"; else shift; "$@"; fi; }
B='BareLaneLoop|UniformALU/workers=1|MemoryBound|SharedReduce|ReadModifyWrite|Divergent'
ts 8 ./bare.test -test.bench . -test.benchtime 0.2s -test.count 2 -test.cpu 1 > $OUT/bare.txt 2>&1 &
ts 10 ./main.test -test.run '^$' -test.bench 'BareLaneLoop' -test.benchtime 0.5s -test.count 3 -test.cpu 1 > $OUT/main.txt 2>&1 &
for i in 1 2 3 4 5; do
  if [ $((i % 2)) -eq 1 ]; then cb=2; cn=4; else cb=4; cn=2; fi
  echo "round $i" >> $OUT/base.txt; echo "round $i" >> $OUT/new.txt
  ts $cb ./base.test -test.run '^$' -test.bench "$B" -test.cpu 1 -test.benchtime 0.5s >> $OUT/base.txt 2>&1 &
  pb=$!
  ts $cn ./new.test -test.run '^$' -test.bench "$B" -test.cpu 1 -test.benchtime 0.5s >> $OUT/new.txt 2>&1 &
  pn=$!
  wait $pb $pn
done
wait
cat /proc/loadavg
go version 2>/dev/null
tail -n 3 $OUT/*.txt
