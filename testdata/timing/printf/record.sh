#!/bin/bash
# record.sh: records printf.cu on the H100 (one device call; README.md). Run from this directory on the GPU
# machine: nvcc 13 -O3 -arch=sm_90 (the binary, nvcc's PTX: what the model runs; cuobjdump's SASS), the program
# plain (boost clock, each row launched twice: the printed lines and the threads' %clock64 stamps), then under
# Nsight Compute at its locked base clock, caches flushed (--cache-control all), one pass a launch (duration,
# elapsed cycles), each row twice; then once more with what the printf does to memory (instructions, global and
# local operations, L2 sectors by operation and aperture) and the warps' stalls (several passes a launch: the
# printed lines of that run are not kept). Writes $OUT/printf_h100.tgz.
set -x
OUT=${OUT:-$PWD/out}; R=/tmp/printf_r; mkdir -p $R $OUT
pack() { tar czf $OUT/printf_h100.tgz -C $R .; }
T0=$SECONDS
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -o printf printf.cu; echo "nvcc rc=$?"
timeout 60 nvcc -O3 -arch=sm_90 -ptx -o $R/printf.nvcc.ptx printf.cu; echo "ptx rc=$?"
cuobjdump -sass printf > $R/sass.txt 2>&1; echo "build t=$((SECONDS-T0))"; pack
timeout 40 ./printf 2 > $R/plain.txt 2>&1; echo "plain rc=$? t=$((SECONDS-T0))"; pack
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.max
timeout 80 ncu --cache-control all --clock-control base --csv --page raw --metrics $M --log-file $R/ncu_time.csv ./printf 2 > $R/ncu_time.out 2>&1
echo "ncu time rc=$? t=$((SECONDS-T0))"; pack
timeout 20 ncu --query-metrics --chip gh100 > $R/query.txt 2>&1
W=""
for m in smsp__inst_executed smsp__sass_inst_executed_op_global_atom smsp__sass_inst_executed_op_global_red \
  smsp__sass_inst_executed_op_global_st smsp__sass_inst_executed_op_global_ld smsp__sass_inst_executed_op_local_st \
  smsp__sass_inst_executed_op_local_ld smsp__sass_inst_executed_op_generic_ld smsp__sass_inst_executed_op_generic_st \
  smsp__sass_inst_executed_op_generic_atom lts__t_sectors_op_atom lts__t_sectors_op_red lts__t_sectors_op_write \
  lts__t_sectors_op_read lts__t_sectors_aperture_sysmem lts__t_sectors_aperture_device lts__t_requests_op_atom \
  dram__bytes_write smsp__cycles_active; do
  grep -q "^$m " $R/query.txt && W=$W,$m.sum
done
for s in membar long_scoreboard lg_throttle drain branch_resolving wait sleeping misc barrier no_instruction short_scoreboard mio_throttle; do
  grep -q "smsp__average_warps_issue_stalled_${s}_per_issue_active" $R/query.txt && W=$W,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
echo "metrics: $W"
timeout 90 ncu --cache-control all --clock-control base --csv --page raw --metrics gpu__time_duration.sum$W --log-file $R/ncu_mem.csv ./printf 1 2>&1 | grep -E "^(row|end|fifo)=|==ERR|==WARN" > $R/ncu_mem.out
echo "ncu mem rc=$? t=$((SECONDS-T0))"
gzip -f $R/plain.txt $R/ncu_time.out $R/sass.txt $R/query.txt; pack
grep -c "^end=" $R/ncu_mem.out; head -c 3000 $R/ncu_time.csv; ls -la $R $OUT; echo "total t=$((SECONDS-T0))"
