#!/bin/bash
# Second device call for testdata/triton3: records triton_corpus3b.py's kernels and the
# corrected cache_hints_f32 of triton_corpus3.py (4 processes), then Nsight Compute's times
# of their launch files (sm90, then sm80; 3 runs each). Same layout as run.sh.
set -x
H=$(pwd)
W=/tmp/c3b; rm -rf $W; mkdir -p $W
date
export PYTHONUNBUFFERED=1
for i in 0 1 2 3; do
  SHARD=$i/4 timeout ${REC_TIMEOUT:-200} python3 $H/triton_corpus3b.py $W > $W/record_b$i.log 2>&1 &
done
CASES=cache_hints_f32 timeout 120 python3 $H/triton_corpus3.py $W > $W/record_a.log 2>&1 &
wait
date
grep -h "^  \|Error\|error" $W/record_*.log | grep -v "^  File" | cut -c1-600 | head -150
cat $W/triton3/SUMMARY_*.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
for a in sm90 sm80; do
  timeout ${NCU_TIMEOUT:-100} ncu --csv --page raw --metrics $M --log-file $W/ncu2_$a.csv python3 $H/time_triton3.py $W/triton3 3 $a > $W/order2_$a.txt 2> $W/ncu2_$a.err
  echo "ncu $a rc=$?"; date
  tail -2 $W/order2_$a.txt; grep -c . $W/ncu2_$a.csv; tail -3 $W/ncu2_$a.err; grep FAIL $W/order2_$a.txt | cut -c1-300
done
gzip -9 $W/ncu2_*.csv
tar czf $OUT/results2.tgz -C $W triton3 $(cd $W && ls record_*.log order2_*.txt ncu2_*.csv.gz ncu2_*.err 2>/dev/null)
ls -la $OUT
date
