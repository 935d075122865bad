#!/bin/bash
# tritontime3's second device call: the atomics microbenchmarks of gen_mb.py (mb/), their SASS (ptxas -arch=sm_90,
# cuobjdump -sass) and Nsight Compute's times (3 runs each, base clock, caches flushed) through time_triton3.py.
set -x
H=$(pwd); W=/tmp/tt3mb; rm -rf $W; mkdir -p $W
for c in vec_v4 vec_scalar f16_s2 f16_s1; do
  ptxas -arch=sm_90 mb/$c/k.ptx -o $W/$c.cubin && cuobjdump -sass $W/$c.cubin > $W/$c.sass
  grep -cE "ATOMG|RED|MEMBAR|CAS" $W/$c.sass; grep -E "ATOMG|MEMBAR" $W/$c.sass | head -3
done
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,lts__t_requests_op_atom.sum,lts__t_sectors_op_atom.sum,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
timeout 150 ncu --csv --page raw --metrics $M --log-file $W/ncu_mb.csv python3 $H/time_triton3.py $H/mb 3 > $W/order_mb.txt 2> $W/ncu_mb.err
echo "ncu rc=$?"; cat $W/order_mb.txt; tail -3 $W/ncu_mb.err
python3 - <<'PY'
import csv
rows=[r for r in csv.reader(open('/tmp/tt3mb/ncu_mb.csv')) if len(r)>5]
h=rows[0]
for r in rows[2:]:
    print(r[0], r[h.index('gpu__time_duration.sum')], r[h.index('lts__t_requests_op_atom.sum')], r[h.index('l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum')])
PY
tar czf $OUT/mb.tgz -C $W .
ls -la $OUT
