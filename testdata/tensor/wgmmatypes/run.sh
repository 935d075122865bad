#!/bin/bash
# Device call (H100, nvcc 13): assemble every probe of variants.tsv with ptxas for
# sm_90a, run each in its own process (runner.cpp) on in/NAME.bin, write out/NAME.bin;
# the SASS of the tensor instructions goes to out/sass.txt, the log to stdout.
# Inputs and PTX come from `python3 gen.py` (seeded). Results: $OUT/wgmmatypes_out.tgz.
# `run.sh REGEX` does only the variants whose names match (the second call: '^wmma_').
ONLY=${1:-.}
set -x
cd "$(dirname "$0")"
mkdir -p out bin
nvidia-smi --query-gpu=name,driver_version --format=csv
nvcc --version | tail -2
nvcc -O2 -o bin/runner runner.cpp -lcuda || g++ -O2 -I/usr/local/cuda/include -o bin/runner runner.cpp -L/usr/local/cuda/lib64/stubs -lcuda
set +x
while IFS=$'\t' read -r name th cases cin cout instr; do
  ( ptxas -arch=sm_90a -O3 -o bin/$name.cubin ptx/$name.ptx > bin/$name.ptxas.log 2>&1 || { echo "PTXAS FAIL $name"; head -5 bin/$name.ptxas.log; rm -f bin/$name.cubin; } ) &
  while [ $(jobs -r | wc -l) -ge 14 ]; do sleep 0.1; done
done < <(grep -v '^#' variants.tsv | grep -E "$ONLY")
wait
while IFS=$'\t' read -r name th cases cin cout instr; do
  img=bin/$name.cubin
  [ -f $img ] || img=ptx/$name.ptx  # the driver's own compiler as the fallback
  timeout 60 ./bin/runner $name $th $cases $cin $cout $img || echo "RUN FAIL $name"
done < <(grep -v '^#' variants.tsv | grep -E "$ONLY")
for c in bin/*.cubin; do
  echo "== $c"
  cuobjdump -sass $c | grep -E "MMA|GMMA|F2FP|HADD2|HFMA2|FADD|I2F|F2F" | sed 's/^ *//' | head -24
done > out/sass.txt 2>&1
grep -c . out/sass.txt
ls -la out | head -80
tar czf $OUT/wgmmatypes_out.tgz out bin/*.log
ls -la $OUT
