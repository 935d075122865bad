#!/bin/bash
# icount.sh BIN BENCH: x86 instructions of one launch of BENCH (cachegrind,
# no cache simulation): the difference between runs of 5 and 2 launches
# over 3, so the setup cancels; a run that did not end in PASS is retried.
count() {
  for try in 1 2 3 4 5 6; do
    v=$(GODEBUG=asyncpreemptoff=1 GOGC=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null ./$1 -test.run '^$' \
      -test.bench "^Benchmark$2\$" -test.cpu 1 -test.benchtime ${3}x 2>&1 | awk '/^PASS/{ok=1} /I *refs/{gsub(",","",$4); v=$4} END{if(ok) print v}')
    [ -n "$v" ] && { echo $v; return; }
  done
}
a=$(count $1 "$2" 2); c=$(count $1 "$2" 5)
echo "$1 $2 $a $c $(( (c - a) / 3 ))"
