#!/bin/bash
# Device call (H100, nvcc 13): assemble every probe of variants.tsv with ptxas for sm_90a,
# run each in its own process (runner.cpp, ../wgmmatypes's) on in/NAME.bin, write out/NAME.bin;
# the whole SASS of the m8n8k4 kernels and the tensor instructions of the others go to
# out/sass.txt, the log to stdout. Inputs and PTX come from `python3 gen.py` (seeded).
# Results: $OUT/mma884_out.tgz.
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
done < <(grep -v '^#' variants.tsv)
wait
while IFS=$'\t' read -r name th cases cin cout instr; do
  img=bin/$name.cubin
  [ -f $img ] || img=ptx/$name.ptx  # the driver's own compiler as the fallback
  timeout 60 ./bin/runner $name $th $cases $cin $cout $img || echo "RUN FAIL $name"
done < <(grep -v '^#' variants.tsv)
for c in bin/m884_*.cubin; do
  echo "== $c"
  cuobjdump -sass $c | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's/^ *//; s/ *\/\* 0x[0-9a-f]* \*\/ *$//'
done > out/sass.txt 2>&1
for c in bin/bo_*.cubin; do
  echo "== $c"
  cuobjdump -sass $c | grep -E "GMMA|R2UR|UIADD|ULOP|USHF|UMOV" | sed 's/^ *//' | head -40
done >> out/sass.txt 2>&1
grep -c . out/sass.txt
ls -la out | head -40
tar czf $OUT/mma884_out.tgz out bin/*.log
ls -la $OUT
