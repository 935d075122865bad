#!/bin/bash
# The device call (issue 19, seventeenth round): builds stsconf2_mb.cu with
# nvcc 13 (-O3 -arch=sm_90), keeps its PTX and SASS, runs it plainly (clock64
# in the kernel, 5 repetitions a case, the median) and once under Nsight
# Compute (base clock, as the timing recordings) for the shared store
# instructions and wavefronts each case executes and the warp states.
# Results in $OUT/stsconf2.tar.gz (its rec/ becomes h200/ here).
set -x
cd "$(dirname "$0")"
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
timeout 100 nvcc -O3 -arch=sm_90 -std=c++17 -o stsconf2_mb stsconf2_mb.cu > $R/build.log 2>&1 || echo BUILD FAIL
timeout 60 nvcc -O3 -arch=sm_90 -std=c++17 -ptx -o $R/stsconf2_mb.ptx stsconf2_mb.cu >> $R/build.log 2>&1
timeout 30 cuobjdump -sass stsconf2_mb > $R/stsconf2_mb.sass 2>&1
timeout 60 ./stsconf2_mb 5 > $R/stsconf2.txt 2>&1; echo $? > $R/stsconf2.exit
cat $R/stsconf2.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_shared_ld.sum
timeout 240 ncu --csv --page raw --metrics $M --log-file $R/stsconf2.ncu.csv ./stsconf2_mb 1 > $R/stsconf2.ncu.txt 2>&1; echo "ncu rc=$?"
gzip -9 $R/*.csv $R/*.sass $R/*.ptx
tar czf $OUT/stsconf2.tar.gz -C $OUT rec
ls -la $R
