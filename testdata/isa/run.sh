#!/bin/bash
# The ISA probe recordings (warpsim isagaps), run on the H100 from this folder:
#   bash run.sh        (outputs under $OUT/isa.tgz)
# Builds isa_probe.cu once per test (-DTEST=n, nvcc 13, sm_90a: an instruction ptxas refuses costs only
# its own test; the build log says which) and runs each; out/isa_h100.txt is their stdout in test order,
# out/build_TEST.log the build logs.
set -x
mkdir -p out bin
TESTS="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 20 21 22 23 24 25 26 27 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52"
for t in $TESTS; do
  nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -DTEST=$t -o bin/isa_$t isa_probe.cu > out/build_$t.log 2>&1 &
  while [ $(jobs -r | wc -l) -ge 16 ]; do sleep 0.2; done
done
wait
: > out/isa_h100.txt
for t in $TESTS; do
  if [ -x bin/isa_$t ]; then
    timeout 20 ./bin/isa_$t >> out/isa_h100.txt 2>&1 || echo "t$t: exit $?" >> out/isa_h100.txt
  else
    echo "t$t: build failed: $(grep -m1 -i error out/build_$t.log)" >> out/isa_h100.txt
  fi
done
grep -E "build failed|exit|failed" out/isa_h100.txt
wc -l out/isa_h100.txt
cuobjdump -sass bin/isa_23 | grep -E "REDAS|ATOMS|SYNCS|STAS" | sort | uniq -c | head
cuobjdump -sass bin/isa_30 | grep -E "UBLKRED|UBLK" | sort | uniq -c | head
tar czf $OUT/isa.tgz out
