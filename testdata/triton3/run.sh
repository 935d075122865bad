#!/bin/bash
# Device driver for the third Triton batch (testdata/triton3): records every kernel of
# triton_corpus3.py (4 processes, each every 4th kernel), then Nsight Compute's times of
# every recorded launch file (sm90, then sm80; 3 runs each, ncu's defaults: base clock,
# caches flushed). Run from a folder holding triton_corpus3.py, time_triton3.py and
# ../timing/modern's neighbour triton_corpus.py (copied beside them). Writes into $OUT.
set -x
H=$(pwd)
W=/tmp/c3; rm -rf $W; mkdir -p $W
date
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm --format=csv,noheader > $W/RECORDED.txt
nvcc --version | tail -2 >> $W/RECORDED.txt
ncu --version | tail -1 >> $W/RECORDED.txt
python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)' >> $W/RECORDED.txt 2>&1
cat $W/RECORDED.txt
export PYTHONUNBUFFERED=1
for i in 0 1 2 3; do
  SHARD=$i/4 timeout ${REC_TIMEOUT:-210} python3 $H/triton_corpus3.py $W > $W/record_$i.log 2>&1 &
done
wait
date
grep -h "^  \|Error\|error" $W/record_*.log | grep -v "^  File" | head -200
cat $W/triton3/SUMMARY_*.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
for a in sm90 sm80; do
  timeout ${NCU_TIMEOUT:-110} ncu --csv --page raw --metrics $M --log-file $W/ncu_$a.csv python3 $H/time_triton3.py $W/triton3 3 $a > $W/order_$a.txt 2> $W/ncu_$a.err
  echo "ncu $a rc=$?"; date
  tail -2 $W/order_$a.txt; grep -c . $W/ncu_$a.csv; tail -3 $W/ncu_$a.err
done
gzip -9 $W/ncu_*.csv
tar czf $OUT/results.tgz -C $W RECORDED.txt triton3 $(cd $W && ls record_*.log order_*.txt ncu_*.csv.gz ncu_*.err 2>/dev/null)
ls -la $OUT
date
