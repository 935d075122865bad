#!/bin/bash
# The device call for testdata/timing/rowwalk (one call, H200): copy rowwalk_mb.cu, cluster_hist.cu (programs3's,
# study half) and this script to /work/main/devprobe/prog23/, then on the device machine
# `cd devprobe/prog23 && bash run.sh`. Writes $OUT/rowwalk.tar.gz, whose rec/ holds: GPU.txt, build.log,
# rowwalk_mb.nvcc.ptx (what the Go test runs), rowwalk_mb.sass.txt, cluster_hist.sass.txt, plain.txt (5 launches a
# configuration, CUDA events' median, the device's own clocks), ncu.csv / ncu.txt and ncu2.csv / ncu2.txt (the rw_ kernels, then the rest: every configuration once under
# Nsight Compute, --clock-control base, caches flushed before each kernel), ncu_ch.csv (cluster_hist's two
# kernels, the same metrics), metrics.txt (the metric names this ncu lacks, then those asked).
set -x
cd "$(dirname "$0")"
T0=$SECONDS
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
(timeout 90 nvcc -O3 -arch=sm_90 -o rowwalk_mb rowwalk_mb.cu && \
 timeout 60 nvcc -O3 -arch=sm_90 -ptx -o $R/rowwalk_mb.nvcc.ptx rowwalk_mb.cu && \
 timeout 60 nvcc -O3 -arch=sm_90 -o cluster_hist cluster_hist.cu) > $R/build.log 2>&1; echo "build rc=$? t=$((SECONDS-T0))"
cat $R/build.log
timeout 30 cuobjdump -sass rowwalk_mb > $R/rowwalk_mb.sass.txt 2>&1
timeout 30 cuobjdump -sass cluster_hist > $R/cluster_hist.sass.txt 2>&1
timeout 40 ./rowwalk_mb plain > $R/plain.txt 2>&1; echo "plain rc=$? t=$((SECONDS-T0))"
cat $R/plain.txt
WANT="gpu__time_duration.sum sm__cycles_elapsed.max sm__cycles_elapsed.avg.per_second smsp__inst_executed.sum
dram__bytes_read.sum dram__bytes_write.sum
lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_write.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__data_pipe_lsu_wavefronts.sum smsp__inst_executed_op_shared_atom.sum
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio"
timeout 20 ncu --query-metrics --chip gh100 > /tmp/names.txt 2>&1
M=""
for m in $WANT; do b=${m%.*}; if grep -q "^$b " /tmp/names.txt; then case ",$M," in *",$m,"*) ;; *) M="$M,$m";; esac; else echo "no metric $b" >> $R/metrics.txt; fi; done
M=${M#,}
[ -z "$M" ] && M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,l1tex__t_sector_hit_rate.pct
echo "$M" >> $R/metrics.txt; echo "metrics: $M t=$((SECONDS-T0))"
timeout 100 ncu --csv --page raw --clock-control base -k regex:'^rw_' --metrics "$M" --log-file $R/ncu.csv ./rowwalk_mb ncu > $R/ncu.txt 2>&1
echo "ncu rc=$? t=$((SECONDS-T0))"
timeout 50 ncu --csv --page raw --clock-control base -k regex:'^(mm_|dchain|dsm_|sm_)' --metrics "$M" --log-file $R/ncu2.csv ./rowwalk_mb ncu > $R/ncu2.txt 2>&1
echo "ncu2 rc=$? t=$((SECONDS-T0))"
timeout 20 ncu --csv --page raw --clock-control base --metrics "$M" --log-file $R/ncu_ch.csv ./cluster_hist > $R/ncu_ch.txt 2>&1
echo "ncu ch rc=$? t=$((SECONDS-T0))"
grep -v "^==" $R/ncu.txt | tail -5
tar czf $OUT/rowwalk.tar.gz -C $OUT rec
ls -la $R; echo "total t=$((SECONDS-T0))"
