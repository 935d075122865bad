#!/bin/bash
# The device call for testdata/timing/naive26 (one call, H200): copy naive_mb.cu and this script to
# /work/main/devprobe/naive26/, then on the device machine `cd devprobe/naive26 && bash run.sh`. Writes to $OUT:
#   rec.tar.gz: rec/GPU.txt, build.log, naive_mb.ptx, naive_mb.sass.txt, plain.txt (every configuration 5 launches
#     after a warm-up: events' median; the stamped launches' body-cycle quantiles), stamps_*_N256_*.bin (the last
#     stamped launch's records: see naive_mb.cu), ncu_raw_{reg,var}.csv (every ncu metric of --set full, one row
#     a launch), ncu_source_{reg,var}.csv (ncu's source page: every SASS instruction's stall samples, a block a
#     launch), ncu_*.log
#   stamps_{f32,f64}_N1024_rot{0,1}.bin.gz: the N = 1024 stamped launches' records
#   ncu_reps.tar: the Nsight Compute reports (if under 16 MiB)
set -x
cd "$(dirname "$0")"
T0=$SECONDS
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
(timeout 120 nvcc -O3 -lineinfo -arch=sm_90 -o naive_mb naive_mb.cu && \
 timeout 60 nvcc -O3 -arch=sm_90 -ptx -o $R/naive_mb.ptx naive_mb.cu) > $R/build.log 2>&1; echo "build rc=$? t=$((SECONDS-T0))"
cat $R/build.log
timeout 30 cuobjdump -sass naive_mb > $R/naive_mb.sass.txt 2>&1
timeout 60 ./naive_mb plain $R > $R/plain.txt 2>&1; echo "plain rc=$? t=$((SECONDS-T0))"
cat $R/plain.txt
# Nsight Compute, --set full with source-level stall sampling: the set's kernels (mm_reg) first, then the variants.
for part in reg:'mm_reg_' var:'mm_(ns|ld)_'; do
  n=${part%%:*}; k=${part#*:}
  timeout 100 ncu --set full --import-source yes --clock-control base -k regex:"$k" -o $R/full_$n -f ./naive_mb ncu > $R/ncu_$n.log 2>&1
  echo "ncu $n rc=$? t=$((SECONDS-T0))"
  grep -v "^==PROF==" $R/ncu_$n.log | tail -3
  timeout 40 ncu -i $R/full_$n.ncu-rep --page raw --csv > $R/ncu_raw_$n.csv 2> $R/ncu_raw_$n.err
  timeout 60 ncu -i $R/full_$n.ncu-rep --page source --csv --print-source sass > $R/ncu_source_$n.csv 2> $R/ncu_source_$n.err
  echo "export $n t=$((SECONDS-T0))"; wc -c $R/ncu_raw_$n.csv $R/ncu_source_$n.csv; head -c 300 $R/ncu_source_$n.err
done
(cd $R && tar cf $OUT/ncu_reps.tar full_*.ncu-rep) && rm -f $R/full_*.ncu-rep
for f in $R/stamps_*_N1024_*.bin; do gzip -c $f > $OUT/$(basename $f).gz && rm $f; done
tar czf $OUT/rec.tar.gz -C $OUT rec && rm -rf $R
ls -la $OUT; echo "total t=$((SECONDS-T0))"
