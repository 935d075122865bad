#!/bin/bash
# record.sh: the H200 recordings of testdata/timing/h200 in one device call (issue 19, helper h200p). Run from
# the repository root on the GPU machine with this folder copied to .dev/h200p/timing/h200 beside copies of
# ../bench, ../dram and ../dramload (their sources and scripts unchanged, so the two GPUs run the same code):
#   1. nvidia-smi and nvidia-smi -q (nvidia-smi.txt), the clocks before and after (clocks_*.txt);
#   2. devprops.cu: cudaGetDeviceProperties in full (props.txt) and the driver's occupancy answers in the
#      format of arch/testdata/h100_occupancy_driver.txt (occupancy_driver.txt);
#   3. bw.cu: read/write/copy/cudaMemcpy bandwidth at 64 MiB to 4 GiB, CUDA events, clocks as found (bw.txt);
#   4. ../dram/run.sh and ../dramload/run.sh as they are (Nsight Compute --clock-control base, as on the H100);
#   5. ../bench/record.sh for chase, stream, occ, and lessons_small (the L2's and DRAM's latency, the
#      streaming bandwidth, the occupancy sweep, the seed lessons; Nsight Compute --clock-control base).
# ncu_wrap.sh stands in for ncu: a run refused at base clock runs again at none, noted in ncu_fallback.txt.
# Everything lands in $OUT/h200.tgz; the summary in $OUT/log.
set -o pipefail
D=$PWD/.dev/h200p/timing; R=/tmp/h200res; rm -rf $R; mkdir -p $R/dram $R/dramload $R/calib
mkdir -p /tmp/wrap; cp $D/h200/ncu_wrap.sh /tmp/wrap/ncu; chmod +x /tmp/wrap/ncu; export PATH=/tmp/wrap:$PATH
export NCU_FALLBACK_LOG=$R/ncu_fallback.txt
T0=$SECONDS; log() { echo "[$((SECONDS - T0))s] $*"; }
pack() { tar czf $OUT/h200.tgz -C $R . ; }
{ date -u; nvidia-smi; nvidia-smi -q; } > $R/nvidia-smi.txt 2>&1
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > $R/clocks_before.txt 2>&1
log "smi"
cd $D/h200
( timeout 120 nvcc -O3 -arch=sm_90 -o devprops devprops.cu || timeout 120 nvcc -O3 -arch=sm_90 -DONLY_OCC -o devprops devprops.cu ) > $R/build_devprops.txt 2>&1 &
timeout 120 nvcc -O3 -arch=sm_90 -o bw bw.cu > $R/build_bw.txt 2>&1 &
wait; log "built"
timeout 20 ./devprops props > $R/props.txt 2>&1; log "props rc=$?"
timeout 30 ./devprops occ > $R/occupancy_driver.txt 2>&1; log "occ rc=$? lines=$(wc -l < $R/occupancy_driver.txt)"
timeout 60 ./bw > $R/bw.txt 2>&1; log "bw rc=$?"; cat $R/bw.txt; pack
cd $D/dram; OUT=$R/dram timeout 90 bash run.sh > $R/dram/log 2>&1; log "dram rc=$?"; tail -n 22 $R/dram/log; pack
cd $D/dramload; OUT=$R/dramload timeout 90 bash run.sh > $R/dramload/log 2>&1; log "dramload rc=$?"; tail -n 4 $R/dramload/log; pack
cd $D/bench; ONLY="occ stream lessons_small chase" BUDGET=${CALIB_BUDGET:-95} OUT=$R/calib RES=/tmp/calib_res timeout 130 bash record.sh; log "calib rc=$?"
cat $R/calib/log.txt | tail -n 12
nvidia-smi -q -d CLOCK,PERFORMANCE > $R/clocks_after.txt 2>&1
cat $R/ncu_fallback.txt 2>/dev/null
pack; log "done"
