#!/bin/bash
# Builds agg.cu with nvcc 13 (-O3 -arch=sm_90) and hand.ptx with ptxas (-arch=sm_90) on the H100 machine, keeps
# nvcc's PTX and both SASS listings, runs agg (functional records and clock64 timings) and the timing kernels under
# ncu. Writes into $OUT. Each step goes on when an earlier one fails.
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
mkdir -p kd
time nvcc -O3 -arch=sm_90 --keep --keep-dir kd -o agg agg.cu
ls kd
cp kd/agg.ptx $OUT/agg.nvcc.ptx || cp $(ls kd/*.ptx | head -1) $OUT/agg.nvcc.ptx
cuobjdump -sass agg | gzip > $OUT/agg.sass.gz
ptxas -arch=sm_90 -o hand.cubin hand.ptx && cuobjdump -sass hand.cubin > hand.sass
gzip -c hand.sass > $OUT/hand.sass.gz
timeout 150 ./agg > $OUT/agg.h100.txt 2>&1; echo "agg rc=$?"
grep -E "^time|ERROR|done" $OUT/agg.h100.txt
ncu --query-metrics > qm.txt 2>&1
grep -iE "atom|red" qm.txt > $OUT/ncu_metrics.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum
for m in smsp__sass_inst_executed_op_global_atom smsp__sass_inst_executed_op_global_red smsp__sass_inst_executed_op_shared_atom lts__t_requests_srcunit_tex_op_atom lts__t_requests_srcunit_tex_op_red l1tex__t_requests_pipe_lsu_mem_global_op_atom l1tex__t_requests_pipe_lsu_mem_global_op_red; do
  grep -q "^$m " qm.txt && M=$M,$m.sum
done
echo "metrics $M"
timeout 240 ncu --csv --metrics $M -k regex:k_time ./agg time > $OUT/ncu.csv 2> ncu.err; echo "ncu rc=$?"
tail -5 ncu.err
wc -l $OUT/ncu.csv
ls -la $OUT
