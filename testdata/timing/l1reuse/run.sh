#!/bin/bash
# The device call for testdata/timing/l1reuse (one call, H200 or H100): stage l1reuse_mb.cu and this script in
# /work/main/.dev/l1row/, then on the device machine `cd .dev/l1row && bash run.sh`. Writes $OUT/l1reuse.tar.gz,
# whose rec/ holds: GPU.txt (nvidia-smi, nvcc, ncu), build.log, l1reuse_mb.nvcc.ptx (nvcc's PTX, what the Go test
# runs), l1reuse_mb.sass.txt.gz, plain.txt (every configuration, 5 launches each, the median; clocks as the
# device left them), plain2.txt (the same again), ncu.txt (the subset `n` and the grids `g` under Nsight Compute,
# --clock-control base, caches flushed before each launch: the program's own lines), ncu.csv.gz (the counters),
# metrics.txt (the metric names this ncu knows of those asked).
set -x
cd "$(dirname "$0")"
T0=$SECONDS
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
(timeout 120 nvcc -O3 -arch=sm_90 -o l1reuse_mb l1reuse_mb.cu && \
 timeout 60 nvcc -O3 -arch=sm_90 -ptx -o $R/l1reuse_mb.nvcc.ptx l1reuse_mb.cu) > $R/build.log 2>&1; echo "build rc=$? t=$((SECONDS-T0))"
timeout 30 cuobjdump -sass l1reuse_mb > $R/l1reuse_mb.sass.txt 2>&1
timeout 60 ./l1reuse_mb 5 > $R/plain.txt 2>&1; echo "plain rc=$? t=$((SECONDS-T0))"
timeout 60 ./l1reuse_mb 5 > $R/plain2.txt 2>&1; echo "plain2 rc=$? t=$((SECONDS-T0))"
cat $R/plain.txt
# the counters: keep the names this ncu knows (a wrong name fails the whole run)
WANT="gpu__time_duration.sum sm__cycles_elapsed.max sm__cycles_elapsed.avg.per_second smsp__inst_executed.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum l1tex__data_pipe_lsu_wavefronts.sum
l1tex__data_bank_reads.sum l1tex__data_bank_writes.sum l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_ld.sum
l1tex__f_wavefronts.sum l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum l1tex__m_xbar2l1tex_read_sectors.sum
l1tex__m_l1tex2xbar_req.sum lts__t_sectors_srcunit_tex_op_read.sum"
timeout 40 ncu --query-metrics --chip gh100 > /tmp/names.txt 2>&1
M=""
for m in $WANT; do b=${m%.*}; if grep -q "^$b " /tmp/names.txt; then M="$M,$m"; else echo "no metric $b" >> $R/metrics.txt; fi; done
M=${M#,}
[ -z "$M" ] && M=gpu__time_duration.sum,sm__cycles_elapsed.max,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_bank_reads.sum
echo "$M" >> $R/metrics.txt; echo "metrics: $M t=$((SECONDS-T0))"
timeout 75 ncu --csv --page raw --clock-control base -k regex:'probe|rowreuse' --metrics "$M" --log-file $R/ncu.csv ./l1reuse_mb 1 ng > $R/ncu.txt 2>&1
echo "ncu rc=$? t=$((SECONDS-T0))"
grep -v "^==" $R/ncu.txt | tail -40
gzip -9 $R/ncu.csv $R/l1reuse_mb.sass.txt
tar czf $OUT/l1reuse.tar.gz -C $OUT rec
ls -la $R; echo "total t=$((SECONDS-T0))"
