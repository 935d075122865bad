#!/bin/bash
# run.sh: records mlp.cu on the H100 (one device call, with the fresh2 kernels' Nsight Compute metrics).
# Run from this directory on the GPU machine; bench.h is ../bench/bench.h, shortocc.cu ../shortocc/.
# nvcc 13 -O3 -arch=sm_90; CUDA-event times (boost clock, events.txt); Nsight Compute at its locked base
# clock with caches flushed (ncu.csv); the SASS's loads, stores and branches a kernel (ldg.txt); then the
# fresh2 kernels of ../shortocc under Nsight Compute with stall reasons, L2 hit rate and DRAM throughput
# (fresh2_ncu.csv). Everything goes to $OUT.
set -o pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv; } > "$OUT/env.txt" 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -lineinfo -o bin_mlp mlp.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt"
timeout 60 nvcc -O3 -arch=sm_90 -ptx -o "$OUT/mlp_nvcc.ptx" mlp.cu >> "$OUT/env.txt" 2>&1
timeout 60 nvcc -O3 -arch=sm_90 --resource-usage -c -o /dev/null mlp.cu >> "$OUT/env.txt" 2>&1
timeout 60 cuobjdump -sass bin_mlp > sass.txt 2>&1
# per kernel: LDG, STG, BRA in its SASS (ptxas's unrolling: nvcc's body has 4 loads a pass)
awk '/Function :/{if(f)print f, l, s, b; f=$3; l=s=b=0} /LDG/{l++} /STG/{s++} /BRA/{b++} END{print f, l, s, b}' sass.txt > "$OUT/ldg.txt"
cat "$OUT/ldg.txt"
echo "build t=$((SECONDS-T0))"
timeout 60 ./bin_mlp > "$OUT/events.txt" 2>> "$OUT/env.txt"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events.txt"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,sm__ctas_launched.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active
export BENCH_NCU=1
timeout 120 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_mlp > "$OUT/ncu.csv" 2> ncu.err
echo "ncu rc=$? lines=$(wc -l < $OUT/ncu.csv) t=$((SECONDS-T0))"; { echo "--- ncu stderr"; tail -20 ncu.err; } >> "$OUT/env.txt"
gzip -c sass.txt > "$OUT/sass.txt.gz"
cd ../shortocc && timeout 120 nvcc -O3 -arch=sm_90 -o bin_shortocc shortocc.cu >> "$OUT/env.txt" 2>&1
SHORTOCC_SET=fresh2 timeout 70 ncu --csv --print-units base --clock-control base --metrics "$M,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,l1tex__t_sector_hit_rate.pct" ./bin_shortocc > "$OUT/fresh2_ncu.csv" 2> ncu.err
echo "fresh2 ncu rc=$? lines=$(wc -l < $OUT/fresh2_ncu.csv) t=$((SECONDS-T0))"; { echo "--- fresh2 ncu stderr"; tail -20 ncu.err; } >> "$OUT/env.txt"
python3 - "$OUT/ncu.csv" "$OUT/fresh2_ncu.csv" <<'PY'
import csv, sys
for p in sys.argv[1:]:
    rows = list(csv.reader(l for l in open(p) if l.startswith('"')))
    if not rows: print(p, 'no rows'); continue
    c = {k: i for i, k in enumerate(rows[0])}; v = {}
    for r in rows[1:]:
        v.setdefault((int(r[c['ID']]), r[c['Kernel Name']]), {})[r[c['Metric Name']]] = r[c['Metric Value']]
    for k in sorted(v):
        d = v[k]
        print(k, *(d.get(m, '-') for m in ('gpu__time_duration.sum', 'sm__warps_active.avg.pct_of_peak_sustained_active', 'dram__throughput.avg.pct_of_peak_sustained_elapsed', 'lts__t_sector_hit_rate.pct', 'smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio')))
PY
echo "total t=$((SECONDS-T0))"
