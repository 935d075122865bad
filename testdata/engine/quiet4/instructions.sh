#!/bin/bash
# Instructions executed per launch of each engine benchmark (valgrind's
# cachegrind, no cache simulation): the difference between a run of 5 and
# a run of 2 launches, divided by 3, so the setup cancels. Unlike time, the
# count does not move with the machine's load. GOGC=off keeps the
# collector's work out of the difference. Output: instructions.txt.
cd "$(dirname "$0")"
count() {
  GOGC=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null ./$1.test -test.run '^$' \
    -test.bench "^Benchmark$2\$" -test.cpu 1 -test.benchtime ${3}x 2>&1 | awk '/I *refs/{gsub(",","",$4); print $4}'
}
: > instructions.txt
for k in UniformALU/workers=1 Divergent MemoryBound SharedReduce ReadModifyWrite; do
  for b in base new; do
    a=$(count $b "$k" 2); c=$(count $b "$k" 5)
    echo "$b $k $(( (c - a) / 3 ))" >> instructions.txt
  done
done
cat instructions.txt
