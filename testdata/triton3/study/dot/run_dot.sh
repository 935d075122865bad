#!/bin/bash
# tdot's device call (issue 19, fourteenth round): the SASS of gen_dot.py's kernels (ptxas -arch=sm_90a,
# cuobjdump -sass: instructions a case) and Nsight Compute's times and counts (3 runs each, base clock, caches
# flushed) through ../../time_triton3.py. Run from a folder holding triton3/{time_triton3.py,study/dot/} and
# triton/triton_corpus.py: cd triton3/study/dot && bash run_dot.sh [mb|mb_long]  (the first call ran mb, the second mb_long; $OUT/<MB>.tgz)
set -x
MB=${1:-mb}; H=$(pwd); W=/tmp/dot_$MB; rm -rf $W; mkdir -p $W/sass
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $W/gpu.txt; nvcc --version | tail -2 >> $W/gpu.txt; ncu --version | tail -1 >> $W/gpu.txt
cat $W/gpu.txt
for c in $(ls $MB); do
  timeout 20 ptxas -arch=sm_90a $MB/$c/k.ptx -o $W/$c.cubin && cuobjdump -sass $W/$c.cubin > $W/sass/$c.sass
  echo "$c $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $W/sass/$c.sass)" >> $W/sass_count.txt
  rm -f $W/$c.cubin
done
cat $W/sass_count.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__cycles_active.max
timeout 80 ncu --csv --page raw --metrics $M --log-file $W/ncu_dot.csv python3 $H/../../time_triton3.py $H/$MB 3 > $W/order_dot.txt 2> $W/ncu_dot.err
echo "ncu rc=$?"; tail -3 $W/order_dot.txt; tail -3 $W/ncu_dot.err; grep FAIL $W/order_dot.txt | head
MB=$MB python3 - <<'PY'
import csv
rows=[r for r in csv.reader(open('/tmp/dot_'+__import__('os').environ['MB']+'/ncu_dot.csv')) if len(r)>5]
h=rows[0]; o=[l.split() for l in open('/tmp/dot_'+__import__('os').environ['MB']+'/order_dot.txt') if l.startswith('launch')]
for oo, r in zip(o, rows[2:]):
    print(oo[2], oo[4], *(r[h.index(k)] for k in ('gpu__time_duration.sum','sm__cycles_elapsed.max','smsp__inst_executed.sum')))
PY
gzip -9 $W/ncu_dot.csv
tar czf $W.tgz -C $W . && cp $W.tgz $OUT/$MB.tgz
ls -la $OUT
