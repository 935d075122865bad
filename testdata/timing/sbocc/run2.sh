#!/bin/bash
# run2.sh: records sbocc.cu's fresh set (SBOCC_SET=fresh; FRESH.md) on the H100 (one device call, after run.sh's).
# Run from this directory on the GPU machine (bench.h is ../bench/bench.h): nvcc 13 -O3 -arch=sm_90, CUDA-event
# times, then Nsight Compute at its locked base clock with caches flushed. Everything goes to $OUT.
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/env2.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o bin_sbocc sbocc.cu >> "$OUT/env2.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env2.txt"
export SBOCC_SET=fresh
timeout 60 ./bin_sbocc > "$OUT/events2.txt" 2>> "$OUT/env2.txt"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events2.txt"; tail -3 "$OUT/env2.txt"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,sm__warps_active.sum,sm__cycles_active.avg,sm__cycles_active.sum,sm__ctas_launched.sum,smsp__warps_launched.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
export BENCH_NCU=1
timeout 120 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_sbocc > "$OUT/ncu2.csv" 2> "$OUT/ncu2.err"; rc=$?
echo "ncu rc=$rc lines=$(wc -l < $OUT/ncu2.csv) t=$((SECONDS-T0))"
python3 - "$OUT/ncu2.csv" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]; c = {k: i for i, k in enumerate(h)}
v = {}
for r in rows[1:]:
    v.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = r[c['Metric Value']]
for k in sorted(v):
    d = v[k]
    print(k, d['gpu__time_duration.sum'], d['sm__warps_active.avg.pct_of_peak_sustained_active'], d['sm__cycles_elapsed.avg.per_second'])
PY
echo "total t=$((SECONDS-T0))"
