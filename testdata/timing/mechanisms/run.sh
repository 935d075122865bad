#!/bin/bash
# run.sh: records the mechanisms microbenchmarks (mech.cu) on the H100. Run from this directory on
# the GPU machine: builds with nvcc -O3 -arch=sm_90 (and -ptx: the PTX warpsim runs), times every
# configuration with CUDA events, then once more under Nsight Compute with its clock locked to base
# (--clock-control base) and caches flushed (ncu's defaults). Everything goes to $OUT.
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o bin_mech mech.cu > "$OUT/build.txt" 2>&1 || echo "nvcc failed" >> "$OUT/build.txt"
nvcc -O3 -arch=sm_90 -lineinfo -ptx -o "$OUT/mech.ptx" mech.cu >> "$OUT/build.txt" 2>&1
cuobjdump -sass bin_mech > /tmp/sass.txt 2>&1; gzip -c /tmp/sass.txt > "$OUT/sass.txt.gz"
cat "$OUT/build.txt"
timeout 90 ./bin_mech > "$OUT/events.txt" 2> "$OUT/events.err"; echo "events rc=$?"
cat "$OUT/events.txt" "$OUT/events.err"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
export BENCH_NCU=1
timeout 240 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_mech > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; rc=$?
echo "ncu rc=$rc lines=$(wc -l < $OUT/ncu.csv) t=$((SECONDS-T0))"
if ! grep -q gpu__time_duration "$OUT/ncu.csv"; then
  tail -20 "$OUT/ncu.csv" "$OUT/ncu.err"
  M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,l1tex__t_sector_hit_rate.pct
  timeout 200 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_mech > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; echo "ncu fallback rc=$? lines=$(wc -l < $OUT/ncu.csv)"
fi
# short table: name-order kernels with duration and occupancy
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]; c = {k: i for i, k in enumerate(h)}
v = {}
for r in rows[1:]:
    if r[c['Metric Name']] in ('gpu__time_duration.sum', 'sm__warps_active.avg.pct_of_peak_sustained_active', 'dram__bytes_write.sum', 'dram__bytes_read.sum', 'l1tex__t_sector_hit_rate.pct'):
        v.setdefault((int(r[c['ID']]), r[c['Kernel Name']]), {})[r[c['Metric Name']].split('.')[0].split('__')[1][:10]] = r[c['Metric Value']]
for k in sorted(v): print(k, v[k])
PY
echo "total t=$((SECONDS-T0))"
