#!/bin/bash
# run.sh builds probe.cu once per form (nvcc 13, sm_90) and runs each on
# the H100, writing form_NN.bin and each form's SASS into $1 (default .).
# A form that does not build or run is reported and the rest go on.
set -x
out=${1:-.}
mkdir -p "$out" bin
nforms=$(sed -n 's/^#define NFORMS //p' forms.h)
for f in $(seq 1 "$nforms"); do
  (nvcc -O2 -arch=sm_90 -DFORM=$f -o bin/form_$f probe.cu > bin/build_$f.log 2>&1 || echo "BUILD FAIL $f") &
  if (( f % 12 == 0 )); then wait; fi
done
wait
for f in $(seq 1 "$nforms"); do
  if [ -x bin/form_$f ]; then ./bin/form_$f "$out" || echo "RUN FAIL $f"; else echo "== form $f build log"; head -c 1500 bin/build_$f.log; fi
done
cuobjdump -sass bin/form_17 2>/dev/null | grep -iE 'ATOM|RED' | head -20
cuobjdump -sass bin/form_29 2>/dev/null | grep -iE 'ATOM|LD|ST' | head -20
