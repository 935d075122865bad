#!/bin/bash
# Quiet engine benchmarks for engine4 (issue 19 item 4): main 110018b's
# engine (base.test) and branch engine4's (new.test), both built with
# `go test -c ./internal/engine` (the same bench_test.go: the four-lane
# BenchmarkBareLaneLoop and the engine benchmarks). They run at the same
# time on two idle cores, swapping cores each round, seven rounds; each
# ratio is a binary's rate against its own bare loop in the same round.
set -x
cd "$(dirname "$0")" && tar xzf bins.tgz
nproc; lscpu | grep -E 'Model name|Thread|Core|Socket|MHz|L1d|L2|L3' ; cat /proc/loadavg
ts() { if taskset -c "$1" true 2>/dev/null; then taskset -c "$@"; else shift; "$@"; fi; }
B='BareLaneLoop|UniformALU/workers=1|MemoryBound|SharedReduce|ReadModifyWrite|Divergent'
for i in 1 2 3 4 5 6 7; do
  if [ $((i % 2)) -eq 1 ]; then cb=2; cn=4; else cb=4; cn=2; fi
  echo "round $i" >> $OUT/base.txt; echo "round $i" >> $OUT/new.txt
  ts $cb ./base.test -test.run '^$' -test.bench "$B" -test.cpu 1 -test.benchtime 0.5s >> $OUT/base.txt 2>&1 &
  pb=$!
  ts $cn ./new.test -test.run '^$' -test.bench "$B" -test.cpu 1 -test.benchtime 0.5s >> $OUT/new.txt 2>&1 &
  pn=$!
  wait $pb $pn
done
cat /proc/loadavg
tail -n 3 $OUT/*.txt
