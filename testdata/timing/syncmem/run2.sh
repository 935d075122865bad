#!/bin/bash
# Second call: tw_mb.cu (when a try_wait sees its phase complete), and clus_mb and mbar_mb once more under Nsight
# Compute (clocks locked at base, as the held-out times were taken), so that their %clock64 stamps can be compared
# with the plain run's (boost clock). Writes into $OUT.
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
mkdir -p ptx sass
for f in tw_mb clus_mb mbar_mb red_mb; do
  (nvcc -O3 -arch=sm_90a -o $f $f.cu && nvcc -O3 -arch=sm_90a -ptx -o ptx/$f.nvcc.ptx $f.cu && cuobjdump -sass $f > sass/$f.sass) &
done
wait
timeout 60 ./tw_mb > $OUT/tw_mb.h100.txt 2>&1; echo "tw rc=$?"
cat $OUT/tw_mb.h100.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max
timeout 120 ncu --csv --metrics $M -k regex:'k_forms|k_loop|k_first' --log-file $OUT/clus_mb.ncu.csv ./clus_mb > $OUT/clus_mb.ncu.h100.txt 2>&1; echo "clus ncu rc=$?"
cat $OUT/clus_mb.ncu.h100.txt
timeout 120 ncu --csv --metrics $M -k regex:'k_bulk|k_arrive' --log-file $OUT/mbar_mb.ncu.csv ./mbar_mb > $OUT/mbar_mb.ncu.h100.txt 2>&1; echo "mbar ncu rc=$?"
grep -E "total|arrive" $OUT/mbar_mb.ncu.h100.txt
timeout 120 ncu --csv --metrics $M -k regex:k_red --log-file $OUT/red_mb.ncu.csv ./red_mb > $OUT/red_mb.ncu.h100.txt 2>&1; echo "red ncu rc=$?"
tar czf $OUT/build2.tgz ptx/tw_mb.nvcc.ptx sass/tw_mb.sass
ls -la $OUT
