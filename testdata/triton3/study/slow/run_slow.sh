#!/bin/bash
# tritontime4's device call (issue 19): the SASS of gen_slow.py's kernels (ptxas -arch=sm_90, cuobjdump -sass) and
# Nsight Compute's times and counts (3 runs each, base clock, caches flushed) through ../../time_triton3.py.
# Run from a folder holding triton3/{time_triton3.py,study/slow/{run_slow.sh,mb/}} and triton/triton_corpus.py.
set -x
H=$(pwd); W=/tmp/tt4; rm -rf $W; mkdir -p $W/sass
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem > $W/gpu.txt; nvcc --version | tail -2 >> $W/gpu.txt; ncu --version | tail -1 >> $W/gpu.txt
cat $W/gpu.txt
for c in div_norm sqrt_norm f16_w1; do
  timeout 60 ptxas -arch=sm_90 mb/$c/k.ptx -o $W/$c.cubin && cuobjdump -sass $W/$c.cubin > $W/sass/$c.sass
  grep -cE '^\s+/\*[0-9a-f]{4}\*/' $W/sass/$c.sass
done
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__cycles_active.max,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,lts__t_requests_op_atom.sum,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
timeout 200 ncu --csv --page raw --metrics $M --log-file $W/ncu_slow.csv python3 $H/../../time_triton3.py $H/mb 3 > $W/order_slow.txt 2> $W/ncu_slow.err
echo "ncu rc=$?"; tail -3 $W/order_slow.txt; tail -3 $W/ncu_slow.err; grep FAIL $W/order_slow.txt | head
python3 - <<'PY'
import csv
rows=[r for r in csv.reader(open('/tmp/tt4/ncu_slow.csv')) if len(r)>5]
h=rows[0]; o=[l.split() for l in open('/tmp/tt4/order_slow.txt') if l.startswith('launch')]
for oo, r in zip(o, rows[2:]):
    print(oo[2], oo[4], *(r[h.index(k)] for k in ('gpu__time_duration.sum','sm__cycles_elapsed.max','smsp__inst_executed.sum','lts__t_requests_op_atom.sum')))
PY
gzip -9 $W/ncu_slow.csv
tar czf $OUT/slow.tgz -C $W .
ls -la $OUT
