#!/bin/bash
# run.sh: records mech2.cu on the H100. Run from this directory on the GPU machine (bench.h is
# ../bench/bench.h): nvcc 13 -O3 -arch=sm_90, SASS, CUDA-event times and the stamp tables, then the
# l1wave kernels under Nsight Compute at its locked base clock. Everything goes to $OUT.
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"; export OUT
T0=$SECONDS
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o bin_mech2 mech2.cu > "$OUT/build.txt" 2>&1 || echo "nvcc failed" >> "$OUT/build.txt"
cat "$OUT/build.txt"
cuobjdump -sass bin_mech2 > "$OUT/sass.txt" 2>&1
grep -c LDG "$OUT/sass.txt"
timeout 60 ./bin_mech2 > "$OUT/events.txt" 2> "$OUT/events.err"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events.txt" "$OUT/events.err"
(ncu --query-metrics --chip gh100 2>&1 | grep -i -E 'wavefront|data_bank|t_requests_pipe_lsu' ) > "$OUT/ncu_metric_names.txt"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_bank_reads.sum,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
BENCH_NCU=1 timeout 150 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_mech2 > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; echo "ncu rc=$? t=$((SECONDS-T0))"
if ! grep -q gpu__time_duration "$OUT/ncu.csv"; then
  tail -5 "$OUT/ncu.csv" "$OUT/ncu.err"
  M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  BENCH_NCU=1 timeout 100 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_mech2 > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; echo "ncu fallback rc=$?"
fi
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]; c = {k: i for i, k in enumerate(h)}
v = {}
for r in rows[1:]:
    v.setdefault((int(r[c['ID']]), r[c['Kernel Name']]), {})[r[c['Metric Name']]] = r[c['Metric Value']]
for k in sorted(v):
    d = v[k]
    try:
        req = float(d['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum']) / 132
        print(k, 'cycles/request/SM %.2f' % (float(d['sm__cycles_elapsed.avg']) / req), d)
    except Exception as e:
        print(k, d, e)
PY
echo "total t=$((SECONDS-T0))"
