#!/bin/bash
# part.cu on the H100 (one device call): env, ptxas info, SASS, then the run.
set -x
cd "$(dirname "$0")"
nvcc --version > $OUT/env.txt 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv >> $OUT/env.txt 2>&1
nvcc -O3 -arch=sm_90 -Xptxas -v -o part part.cu >> $OUT/env.txt 2>&1 || echo "nvcc failed"
cuobjdump -sass part 2>&1 | grep -A80 "Function : _Z5chase" > $OUT/sass.txt
timeout 120 ./part > $OUT/part.txt 2>&1
echo "part rc=$?"
grep -c "^run" $OUT/part.txt
grep "^alloc\|^run\|ERR\|done" $OUT/part.txt | head -40
python3 - <<'PY'
import os
for l in open(os.environ['OUT']+'/part.txt'):
    if l.startswith('lat'):
        v=sorted(int(x) for x in l.split()[1:])
        n=len(v); print('lat p10 %d p25 %d p50 %d p75 %d p90 %d'%(v[n//10],v[n//4],v[n//2],v[3*n//4],v[9*n//10]))
PY
