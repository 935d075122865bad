#!/bin/bash
# run.sh: records first.cu on the device (one call). Stage first.cu and this script in
# /work/main/devprobe/prog20/, then on the device machine `cd devprobe/prog20 && bash run.sh`.
# Writes $OUT/firstlaunch.tar.gz: env.txt, first.nvcc.ptx, first.sass.txt, and per sequence S and
# run r: S.b1.r.ncu.csv (Nsight Compute's defaults: base clock, caches flushed; gpu__time_duration),
# S.b1.r.ncu.txt (the program's stdout under ncu: stamps of the profiled launches), S.b1.r.plain.txt
# (a plain run, boost clock); the read sequences also with 132 blocks (b132).
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"; R=$PWD/rec; mkdir -p $R
T0=$SECONDS
{ date -u; nvcc --version | tail -n 2; ncu --version | tail -n 1; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > $R/env.txt 2>&1
nvcc -O3 -arch=sm_90 -o first first.cu >> $R/env.txt 2>&1 || echo "nvcc failed" >> $R/env.txt
nvcc -O3 -arch=sm_90 -ptx -o $R/first.nvcc.ptx first.cu >> $R/env.txt 2>&1
cuobjdump -sass first > $R/first.sass.txt 2>&1
cat $R/env.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
for b in 1 132; do
  for seq in read3 empty3 eread other twoback fresh stream3 estream; do
    case $seq in empty3|stream3|estream) [ $b = 132 ] && continue;; esac
    for r in 1 2 3; do
      [ $((SECONDS-T0)) -gt 200 ] && break 3
      timeout 40 ncu --csv --page raw --metrics $M --log-file $R/$seq.b$b.$r.ncu.csv ./first $seq $b > $R/$seq.b$b.$r.ncu.txt 2>&1
      timeout 20 ./first $seq $b > $R/$seq.b$b.$r.plain.txt 2>&1
    done
    echo "$seq b$b t=$((SECONDS-T0))"
    grep -h '^"[0-9]' $R/$seq.b$b.*.ncu.csv | awk -F'","' '{print $5, $(NF-1), $NF}' | head -9
    cat $R/$seq.b$b.1.ncu.txt | grep launch
  done
done
tar czf $OUT/firstlaunch.tar.gz -C $R .
echo "total t=$((SECONDS-T0))"
