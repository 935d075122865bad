#!/bin/bash
# Records the tensor-core lesson and the tensor-pipe microbenchmarks on the H100
# (run on the device machine from .dev/tensorlesson; results into $OUT).
set -x
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
nvcc --version | tail -2
T() { timeout "$@" || echo "STEP FAILED rc=$?: $*"; }
T 120 nvcc -O3 -arch=sm_90 -o tensor tensor.cu & p1=$!
T 120 nvcc -O3 -arch=sm_90 -ptx -o $OUT/tensor.sm90.ptx tensor.cu & p2=$!
T 150 nvcc -O3 -arch=sm_90 -o mb mb.cu & p3=$!
wait $p1 $p2 $p3
ls -la
( for n in 128 256 512 1024; do T 30 ./tensor $n; done ) > $OUT/tensor_stdout.txt 2>&1
cat $OUT/tensor_stdout.txt
T 60 ./mb > $OUT/mb_stdout.txt 2>&1
tail -3 $OUT/mb_stdout.txt
M1=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_hmma.sum
M2=smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__inst_executed.sum,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active
for n in 128 256 512; do
  T 60 ncu --clock-control base --metrics $M1 --csv ./tensor $n 1 > $OUT/ncu_tensor_$n.csv 2>&1
done
T 40 ncu --clock-control base --metrics $M2 --csv ./tensor 256 1 > $OUT/ncu_tensor_stalls_256.csv 2>&1
T 60 ncu --clock-control base --metrics $M1 --csv ./mb quick > $OUT/ncu_mb.csv 2>&1
T 60 ncu --clock-control base --metrics $M2 --csv ./mb quick > $OUT/ncu_mb_stalls.csv 2>&1
T 30 cuobjdump -sass tensor | grep -E "Function|HMMA|LDSM|LDGSTS|DEPBAR" | sort | uniq -c | sort -rn | head -40
cd $OUT && tar czf ncu.tgz ncu_*.csv && rm ncu_*.csv; ls -la $OUT
