#!/bin/bash
# The device call for testdata/triton4: records every kernel of triton_corpus4.py (4 processes,
# each every 4th kernel; the failing assert in one process per arch beside them), then Nsight
# Compute's times of every recorded launch file (sm90, then sm80; 3 runs each, ncu's defaults:
# base clock, caches flushed). Run from a folder holding triton_corpus4.py, time_triton4.py and,
# copied beside them, ../triton3/triton_corpus3.py and ../triton/triton_corpus.py. Writes $OUT/results.tgz.
set -x
H=$(pwd)
W=/tmp/c4; rm -rf $W; mkdir -p $W
date
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm --format=csv,noheader > $W/RECORDED.txt
nvcc --version | tail -2 >> $W/RECORDED.txt
ncu --version | tail -1 >> $W/RECORDED.txt
python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)' >> $W/RECORDED.txt 2>&1
cat $W/RECORDED.txt
export PYTHONUNBUFFERED=1
for i in 0 1 2 3; do
  SHARD=$i/4 timeout ${REC_TIMEOUT:-140} python3 $H/triton_corpus4.py $W > $W/record_$i.log 2>&1 &
done
(for a in sm90 sm80; do ASSERT_ARCH=$a timeout 60 python3 $H/triton_corpus4.py $W > $W/record_assert_$a.log 2>&1; done) &
wait
date
grep -h "^  \|Error\|error" $W/record_*.log | grep -v "^  File" | cut -c1-600 | head -200
cat $W/triton4/SUMMARY_*.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
for a in sm90 sm80; do
  timeout ${NCU_TIMEOUT:-90} ncu --csv --page raw --metrics $M --log-file $W/ncu_$a.csv python3 $H/time_triton4.py $W/triton4 3 $a > $W/order_$a.txt 2> $W/ncu_$a.err
  echo "ncu $a rc=$?"; date
  tail -2 $W/order_$a.txt; grep -c . $W/ncu_$a.csv; tail -3 $W/ncu_$a.err; grep FAIL $W/order_$a.txt | cut -c1-300
done
gzip -9 $W/ncu_*.csv
tar czf $OUT/results.tgz -C $W RECORDED.txt triton4 $(cd $W && ls record_*.log order_*.txt ncu_*.csv.gz ncu_*.err 2>/dev/null)
ls -la $OUT
date
