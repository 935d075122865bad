#!/bin/bash
# The device call for testdata/timing/rowgpu (one call, H200 or H100): copy rowgpu_mb.cu and this script to
# /work/main/devprobe/rowgpu/, then on the device machine `cd devprobe/rowgpu && bash run.sh`. Writes
# $OUT/rowgpu.tar.gz, whose rec/ holds: GPU.txt (nvidia-smi, nvcc, ncu), build.log, rowgpu_mb.nvcc.ptx (what
# the Go test runs), rowgpu_mb.sass.txt.gz, plain.txt and plain2.txt (every configuration, 5 launches each,
# clocks as the device left them), ncu_dd.csv.gz / ncu_dd.txt (the DRAM configurations under Nsight Compute,
# --clock-control base, caches flushed before each kernel: ncu's default), ncu_ll.csv.gz / ncu_ll.txt (the
# L2-resident ones, --cache-control none), metrics.txt (the metric names this ncu lacks, then those asked).
set -x
cd "$(dirname "$0")"
T0=$SECONDS
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
(timeout 120 nvcc -O3 -arch=sm_90 -o rowgpu_mb rowgpu_mb.cu && \
 timeout 60 nvcc -O3 -arch=sm_90 -ptx -o $R/rowgpu_mb.nvcc.ptx rowgpu_mb.cu) > $R/build.log 2>&1; echo "build rc=$? t=$((SECONDS-T0))"
cat $R/build.log
timeout 30 cuobjdump -sass rowgpu_mb > $R/rowgpu_mb.sass.txt 2>&1
timeout 60 ./rowgpu_mb 5 plain > $R/plain.txt 2>&1; echo "plain rc=$? t=$((SECONDS-T0))"
timeout 60 ./rowgpu_mb 5 plain > $R/plain2.txt 2>&1; echo "plain2 rc=$? t=$((SECONDS-T0))"
cat $R/plain.txt
WANT="gpu__time_duration.sum sm__cycles_elapsed.max sm__cycles_elapsed.avg.per_second sm__cycles_active.avg
dram__bytes_read.sum dram__bytes_write.sum dram__throughput.avg.pct_of_peak_sustained_elapsed dram__cycles_elapsed.avg.per_second
lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
lts__t_requests_srcunit_tex_op_read.sum lts__t_sectors.sum lts__d_sectors_fill.sum lts__t_sectors_srcunit_ltcfabric.sum
lts__t_sectors_srcnode_gpc.sum lts__throughput.avg.pct_of_peak_sustained_elapsed
l1tex__t_sector_hit_rate.pct l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum l1tex__m_xbar2l1tex_read_sectors.sum
l1tex__data_pipe_lsu_wavefronts.sum l1tex__throughput.avg.pct_of_peak_sustained_active
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio"
timeout 40 ncu --query-metrics --chip gh100 > /tmp/names.txt 2>&1
M=""
for m in $WANT; do b=${m%.*}; if grep -q "^$b " /tmp/names.txt; then M="$M,$m"; else echo "no metric $b" >> $R/metrics.txt; fi; done
M=${M#,}
[ -z "$M" ] && M=gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,l1tex__t_sector_hit_rate.pct
echo "$M" >> $R/metrics.txt; echo "metrics: $M t=$((SECONDS-T0))"
timeout 90 ncu --csv --page raw --clock-control base -k regex:'^rg|^rowreuse' --metrics "$M" --log-file $R/ncu_dd.csv ./rowgpu_mb 1 ncudd > $R/ncu_dd.txt 2>&1
echo "ncu dd rc=$? t=$((SECONDS-T0))"
timeout 60 ncu --csv --page raw --clock-control base --cache-control none -k regex:'^rg|^rowreuse' --metrics "$M" --log-file $R/ncu_ll.csv ./rowgpu_mb 1 ncull > $R/ncu_ll.txt 2>&1
echo "ncu ll rc=$? t=$((SECONDS-T0))"
grep -v "^==" $R/ncu_dd.txt $R/ncu_ll.txt | tail -30
gzip -9 $R/ncu_dd.csv $R/ncu_ll.csv $R/rowgpu_mb.sass.txt
tar czf $OUT/rowgpu.tar.gz -C $OUT rec
ls -la $R; echo "total t=$((SECONDS-T0))"
