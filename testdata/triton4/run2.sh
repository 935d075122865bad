#!/bin/bash
# Second device call for testdata/triton4: records what the first (run.sh) could not: quant_fp8_token
# (its case lacked the N argument) and the failing assert (its first launch file passed the wrong
# arguments, so the assert never fired), then Nsight Compute's times of quant_fp8_token. Same layout.
set -x
H=$(pwd)
W=/tmp/c4b; rm -rf $W; mkdir -p $W
date
export PYTHONUNBUFFERED=1
CASES=quant_fp8_token timeout 100 python3 $H/triton_corpus4.py $W > $W/record_b.log 2>&1 &
(for a in sm90 sm80; do ASSERT_ARCH=$a timeout 60 python3 $H/triton_corpus4.py $W > $W/record_assert_$a.log 2>&1; done) &
wait
date
cat $W/record_*.log | cut -c1-600 | tail -60
for a in sm90 sm80; do
  timeout 60 ncu --csv --page raw --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size --log-file $W/ncu2_$a.csv python3 $H/time_triton4.py $W/triton4 3 $a > $W/order2_$a.txt 2> $W/ncu2_$a.err
  tail -2 $W/order2_$a.txt; grep -c . $W/ncu2_$a.csv
done
gzip -9 $W/ncu2_*.csv
tar czf $OUT/results2.tgz -C $W triton4 $(cd $W && ls record_*.log order2_*.txt ncu2_*.csv.gz ncu2_*.err 2>/dev/null)
ls -la $OUT
date
