#!/bin/bash
# tritontime3's device call (issue 18, study half of testdata/triton3 only, SPLIT.md):
# 1. ptxas -arch=sm_90 of each study kernel's sm90.ptx and sm80.ptx, cuobjdump -sass (SASS counts, code bytes);
# 2. Nsight Compute (base clock, caches flushed) with warp-state, instruction and memory metrics, 1 run each.
set -x
H=$(pwd); W=/tmp/tt3; rm -rf $W; mkdir -p $W/sass $W/study
date
for k in $(cat study.txt); do ln -s $H/cases/$k $W/study/$k; done
for k in $(cat study.txt); do for a in sm90 sm80; do
  p=cases/$k/$a.ptx; [ -f $p ] || continue
  timeout 60 ptxas -v -arch=sm_90 $p -o $W/sass/${k}_$a.cubin > $W/sass/${k}_$a.ptxas.txt 2>&1 || echo "ptxas fail $k $a"
  cuobjdump -sass $W/sass/${k}_$a.cubin > $W/sass/${k}_$a.sass 2>&1
  echo "$k $a $(grep -c '/\*[0-9a-f]\{4\}\*/' $W/sass/${k}_$a.sass) $(tail -3 $W/sass/${k}_$a.ptxas.txt | tr '\n' ' ' | cut -c1-200)"
  rm -f $W/sass/${k}_$a.cubin
done; done
date
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__inst_executed_pipe_fma.sum,sm__inst_executed_pipe_alu.sum,sm__inst_executed_pipe_fp64.sum,sm__inst_executed_pipe_xu.sum,sm__inst_executed_pipe_lsu.sum,sm__inst_executed_pipe_adu.sum,sm__inst_executed_pipe_cbu.sum,sm__inst_executed_pipe_uniform.sum,sm__inst_executed_pipe_fmaheavy.sum,sm__inst_executed_pipe_fp16.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,lts__t_requests_op_atom.sum,lts__t_requests_op_red.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,smsp__cycles_active.avg,smsp__warps_launched.sum,sm__ctas_launched.sum
S="--section WarpStateStats --section SchedulerStats --section InstructionStats"
timeout ${NCU_TIMEOUT:-230} ncu --csv --page raw $S --metrics $M --log-file $W/ncu_study.csv python3 $H/time_triton3.py $W/study 1 > $W/order_study.txt 2> $W/ncu_study.err
echo "ncu rc=$?"; date
tail -2 $W/order_study.txt; grep -c . $W/ncu_study.csv; tail -3 $W/ncu_study.err; grep FAIL $W/order_study.txt | cut -c1-300
gzip -9 $W/ncu_study.csv
tar czf $OUT/sass.tgz -C $W sass
cp $W/ncu_study.csv.gz $W/order_study.txt $W/ncu_study.err $OUT/
ls -la $OUT
date
