#!/bin/bash
# One device call: builds unroll_mb.cu with nvcc 13 (-O3 -arch=sm_90), keeps
# its PTX and SASS, runs it under Nsight Compute (base clock, caches flushed:
# ncu's defaults) with programs9's metrics. Results in $OUT/unroll.tar.gz.
set -x
cd "$(dirname "$0")"
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
F="-O3 -arch=sm_90 -std=c++17"
timeout 120 nvcc $F -o unroll_mb unroll_mb.cu > $R/build.log 2>&1 || echo BUILD FAIL
timeout 60 nvcc $F -ptx -o $R/unroll_mb.nvcc.ptx unroll_mb.cu >> $R/build.log 2>&1
timeout 30 cuobjdump -sass unroll_mb > $R/unroll_mb.sass 2>&1
timeout 30 ./unroll_mb > $R/unroll_mb.h100.txt 2>&1; echo $? > $R/unroll_mb.h100.exit
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
timeout 60 ncu --csv --page raw --metrics $M --log-file $R/unroll_mb.ncu.csv ./unroll_mb > /dev/null 2>&1; echo "ncu rc=$?"
for i in 2 3; do timeout 60 ncu --csv --page raw --metrics $M --log-file $R/unroll_mb.ncu$i.csv ./unroll_mb > /dev/null 2>&1; done
gzip -9 $R/*.csv $R/*.sass
tar czf $OUT/unroll.tar.gz -C $OUT rec
ls -la $R
