#!/bin/bash
# The device call for testdata/timing/fp64pipe (one call, H200): copy fp64_mb.cu and this script to
# /work/main/devprobe/fp64x24/, then on the device machine `cd devprobe/fp64x24 && bash run.sh`. Writes
# $OUT/fp64pipe.tar.gz, whose rec/ holds: GPU.txt, build.log, fp64_mb.nvcc.ptx (what the Go test runs),
# fp64_mb.sass.txt, plain.txt (every configuration 5 times: CUDA events' median and the warps' clock64 cycles, boost
# clock), ncu.csv / ncu.txt (a subset once under Nsight Compute, --clock-control base, caches flushed), metrics.txt
# (the metric names this ncu lacks, then those asked).
set -x
cd "$(dirname "$0")"
T0=$SECONDS
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
(timeout 120 nvcc -O3 -arch=sm_90 -o fp64_mb fp64_mb.cu && \
 timeout 90 nvcc -O3 -arch=sm_90 -ptx -o $R/fp64_mb.nvcc.ptx fp64_mb.cu) > $R/build.log 2>&1; echo "build rc=$? t=$((SECONDS-T0))"
cat $R/build.log
timeout 30 cuobjdump -sass fp64_mb > $R/fp64_mb.sass.txt 2>&1
timeout 60 ./fp64_mb plain > $R/plain.txt 2>&1; echo "plain rc=$? t=$((SECONDS-T0))"
cat $R/plain.txt
WANT="gpu__time_duration.sum sm__cycles_elapsed.max smsp__inst_executed.sum
smsp__inst_executed_pipe_fp64.sum sm__pipe_fp64_cycles_active.sum sm__inst_executed_pipe_fp64.sum smsp__inst_executed_pipe_fma.sum smsp__inst_executed_pipe_alu.sum smsp__inst_executed_pipe_lsu.sum
dram__bytes_read.sum lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
l1tex__data_pipe_lsu_wavefronts.sum sm__warps_active.avg.pct_of_peak_sustained_active
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio smsp__average_warps_issue_stalled_selected_per_issue_active.ratio
smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio"
timeout 20 ncu --query-metrics --chip gh100 > /tmp/names.txt 2>&1
M=""
for m in $WANT; do b=${m%.*}; if grep -q "^$b " /tmp/names.txt; then case ",$M," in *",$m,"*) ;; *) M="$M,$m";; esac; else echo "no metric $b" >> $R/metrics.txt; fi; done
M=${M#,}
[ -z "$M" ] && M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum
echo "$M" >> $R/metrics.txt; echo "metrics: $M t=$((SECONDS-T0))"
timeout 170 ncu --csv --page raw --clock-control base --metrics "$M" --log-file $R/ncu.csv ./fp64_mb ncu > $R/ncu.txt 2>&1
echo "ncu rc=$? t=$((SECONDS-T0))"
grep -v "^==" $R/ncu.txt | tail -3
tar czf $OUT/fp64pipe.tar.gz -C $OUT rec
ls -la $R; echo "total t=$((SECONDS-T0))"
