#!/bin/bash
# The device run (H100) of testdata/timing/rncost. Staged from the worktree root (D=/work/main/.dev/reducecost):
#   mkdir -p $D; cp testdata/timing/rncost/{run.sh,run.py,gen.py,stamps.py} $D/; python3 $D/gen.py $D/ptx
#   cp testdata/timing/bench/lessons_small.ptx $D/
# then on the device machine `cd .dev/reducecost && bash run.sh`. Writes into $OUT: GPU.txt, stamps.tgz
# (res/stamps/<name>.r<0-4>.bin, 5 launches after a warm-up, clocks unlocked; tables.txt), sass.tgz (ptxas -arch=sm_90
# + cuobjdump -sass of every ptx/*.ptx), ncu.tgz (Nsight Compute --set full, raw page, of six configurations, and the
# SASS source page with its stall samples of three: res/ncu/).
set -x
export PYTHONUNBUFFERED=1
mkdir -p res/stamps res/sass res/ncu
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
ptxas --version | tail -n 2 >> $OUT/GPU.txt
timeout 60 python3 run.py stamps ptx res/stamps 5 > res/stamps/log.txt 2>&1; echo "stamps rc=$?"
grep -v "^ok" res/stamps/log.txt | tail -5
for f in ptx/*.json; do k=$(basename $f .json); w=$(python3 -c "import json;print(json.load(open('$f'))['launches'][0]['block'][0]//32)")
  for r in 0 1 2 3 4; do printf "%-20s r%d " $k $r; python3 stamps.py res/stamps/$k.r$r.bin; done; done > res/stamps/tables.txt 2>&1
cat res/stamps/tables.txt | grep r0
tar czf $OUT/stamps.tgz res/stamps
for f in ptx/*.ptx; do k=$(basename $f .ptx); ptxas -arch=sm_90 -o res/sass/$k.cubin $f && cuobjdump -sass res/sass/$k.cubin > res/sass/$k.sass; rm -f res/sass/$k.cubin; done
ls res/sass | wc -l
tar czf $OUT/sass.tgz res/sass
timeout 100 ncu --set full --page raw --csv --log-file res/ncu/full.csv python3 run.py once ptx nb_rem_w32_g264 nb_mask_w32_g264 less_w32_g264 fs_rem_d2 fs_mask_d2 fs_mask_d2_nomem > res/ncu/order.txt 2>&1
echo "ncu rc=$?"; tail -3 res/ncu/order.txt; wc -c res/ncu/full.csv
timeout 60 ncu --set full --import-source yes -o res/ncu/src python3 run.py once ptx nb_rem_w32_g264 nb_mask_w32_g264 less_w32_g264 > res/ncu/order_src.txt 2>&1
echo "ncu src rc=$?"
timeout 30 ncu -i res/ncu/src.ncu-rep --page source --csv --print-source sass > res/ncu/source_sass.csv 2>&1
echo "source rc=$?"; wc -c res/ncu/source_sass.csv; head -c 600 res/ncu/source_sass.csv
rm -f res/ncu/src.ncu-rep
tar czf $OUT/ncu.tgz res/ncu
ls -la $OUT
