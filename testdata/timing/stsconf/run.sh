#!/bin/bash
# One device call (not yet made): builds stsconf_mb.cu with nvcc 13 (-O3
# -arch=sm_90), keeps its SASS, runs it plainly (clock64 in the kernel, 5
# repetitions a case, the median) and once under Nsight Compute for the warp
# states (base clock, as the timing recordings; say so if run otherwise).
# Results in $OUT/stsconf.tar.gz (its rec/ becomes h100/ or h200/ here).
set -x
cd "$(dirname "$0")"
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
timeout 150 nvcc -O3 -arch=sm_90 -std=c++17 -o stsconf_mb stsconf_mb.cu > $R/build.log 2>&1 || echo BUILD FAIL
timeout 30 cuobjdump -sass stsconf_mb > $R/stsconf_mb.sass 2>&1
timeout 60 ./stsconf_mb 5 > $R/stsconf.txt 2>&1; echo $? > $R/stsconf.exit
cat $R/stsconf.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
timeout 200 ncu --csv --page raw --metrics $M --log-file $R/stsconf.ncu.csv ./stsconf_mb 1 > $R/stsconf.ncu.txt 2>&1; echo "ncu rc=$?"
gzip -9 $R/*.csv $R/*.sass
tar czf $OUT/stsconf.tar.gz -C $OUT rec
ls -la $R
