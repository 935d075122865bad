#!/bin/bash
# run.sh: records dram.cu on the H100 (one device call). Run from this directory on the GPU machine (bench.h is
# ../bench/bench.h). nvcc 13 -O3 -arch=sm_90; CUDA-event times at the boost clock (events.txt), then Nsight
# Compute at its locked base clock with caches flushed (ncu.csv: duration, clock, occupancy, DRAM bytes read
# and written, DRAM throughput, L2 hit rate); nvcc's PTX (dram_nvcc.ptx) and the SASS's LDG/STG counts
# (ldg.txt). Everything goes to $OUT.
set -o pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv; } > "$OUT/env.txt" 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -lineinfo -o bin_dram dram.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt"
timeout 60 nvcc -O3 -arch=sm_90 -ptx -o "$OUT/dram_nvcc.ptx" dram.cu >> "$OUT/env.txt" 2>&1
timeout 60 nvcc -O3 -arch=sm_90 --resource-usage -c -o /dev/null dram.cu >> "$OUT/env.txt" 2>&1
timeout 60 cuobjdump -sass bin_dram > sass.txt 2>&1
awk '/Function :/{if(f)print f, l, s; f=$3; l=s=0} /LDG/{l++} /STG/{s++} END{print f, l, s}' sass.txt > "$OUT/ldg.txt"
cat "$OUT/ldg.txt"
echo "build t=$((SECONDS-T0))"
timeout 60 ./bin_dram > "$OUT/events.txt" 2>> "$OUT/env.txt"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events.txt"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum
export BENCH_NCU=1
timeout 150 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_dram > "$OUT/ncu.csv" 2> ncu.err
echo "ncu rc=$? lines=$(wc -l < $OUT/ncu.csv) t=$((SECONDS-T0))"; { echo "--- ncu stderr"; tail -20 ncu.err; } >> "$OUT/env.txt"
gzip -c sass.txt > "$OUT/sass.txt.gz"
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
c = {k: i for i, k in enumerate(rows[0])}; v = {}
for r in rows[1:]:
    v.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
for k in sorted(v):
    d = v[k]; t = d['gpu__time_duration.sum']
    print(k, t, 'rd %.1f MB %.0f GB/s' % (d['dram__bytes_read.sum'] / 1e6, d['dram__bytes_read.sum'] / t),
          'wr %.1f MB %.0f GB/s' % (d['dram__bytes_write.sum'] / 1e6, d['dram__bytes_write.sum'] / t),
          'occ %.1f' % d['sm__warps_active.avg.pct_of_peak_sustained_active'])
PY
echo "total t=$((SECONDS-T0))"
