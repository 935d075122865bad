#!/bin/bash
# One device call (issue 19, helper hoist): copy hoist_mb.cu and this script to /work/main/devprobe/hoist/, then on
# the device machine `cd devprobe/hoist && bash run.sh`. Writes $OUT/hoist.tar.gz (rec/: GPU.txt, build.log,
# hoist_mb.ptx, sass_{default,r64,r24}.txt, res_{default,r64,r24}.txt, times.txt).
set -x
cd "$(dirname "$0")"
T0=$SECONDS
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; } > $R/GPU.txt 2>&1
timeout 150 nvcc -O3 -arch=sm_90 -o hoist_mb hoist_mb.cu > $R/build.log 2>&1; echo "build rc=$? t=$((SECONDS-T0))"
timeout 60 nvcc -O3 -arch=sm_90 -ptx -o $R/hoist_mb.ptx hoist_mb.cu >> $R/build.log 2>&1
cuobjdump -sass hoist_mb > $R/sass_default.txt 2>&1
cuobjdump -res-usage hoist_mb > $R/res_default.txt 2>&1
for m in 64 24; do
  timeout 150 nvcc -O3 -arch=sm_90 -cubin -maxrregcount=$m -o hoist_r$m.cubin hoist_mb.cu >> $R/build.log 2>&1; echo "r$m rc=$? t=$((SECONDS-T0))"
  cuobjdump -sass hoist_r$m.cubin > $R/sass_r$m.txt 2>&1
  cuobjdump -res-usage hoist_r$m.cubin > $R/res_r$m.txt 2>&1
done
timeout 100 ./hoist_mb > $R/times.txt 2>&1; echo "times rc=$? t=$((SECONDS-T0))"
cat $R/times.txt
tar czf $OUT/hoist.tar.gz -C $OUT rec
echo "total t=$((SECONDS-T0))"
