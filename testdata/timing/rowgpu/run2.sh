#!/bin/bash
# The second device call (B's row stride): as run.sh, `cd devprobe/rowgpu && bash run2.sh`. Writes
# $OUT/rowgpu2.tar.gz, whose rec2/ holds GPU.txt, build.log, nsweep.txt and nsweep2.txt (two plain runs of the
# stride sweep, 5 launches a configuration), ncun.csv.gz / ncun.txt (rg at 132 SMs and the grid, K = 128, at
# N = 65536 and 67584 under Nsight Compute, --clock-control base, caches flushed).
set -x
cd "$(dirname "$0")"
T0=$SECONDS
R=$OUT/rec2; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -o rowgpu_mb rowgpu_mb.cu > $R/build.log 2>&1; echo "build rc=$? t=$((SECONDS-T0))"
cat $R/build.log
timeout 60 ./rowgpu_mb 5 nsweep > $R/nsweep.txt 2>&1; echo "nsweep rc=$? t=$((SECONDS-T0))"
timeout 60 ./rowgpu_mb 5 nsweep > $R/nsweep2.txt 2>&1; echo "nsweep2 rc=$? t=$((SECONDS-T0))"
cat $R/nsweep.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.max,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors.max,lts__t_sectors.avg,dram__bytes_read.max,dram__bytes_read.avg,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
timeout 60 ncu --csv --page raw --clock-control base -k regex:'^rg|^rowreuse' --metrics "$M" --log-file $R/ncun.csv ./rowgpu_mb 1 ncun > $R/ncun.txt 2>&1
echo "ncu rc=$? t=$((SECONDS-T0))"
grep -v "^==" $R/ncun.txt
gzip -9 $R/ncun.csv
tar czf $OUT/rowgpu2.tar.gz -C $OUT rec2
echo "total t=$((SECONDS-T0))"
