#!/bin/bash
# run.sh: records blocks.cu on the H100 (one device call). Run from this directory on the GPU machine
# (bench.h is ../bench/bench.h): nvcc 13 -O3 -arch=sm_90, CUDA-event times with every block's stamps
# (boost clock, stamps/ev/), then Nsight Compute at its locked base clock with caches flushed and the
# stamps of its last replay (stamps/ncu/). Everything goes to $OUT; stamps.tar.gz holds the stamps.
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o bin_blocks blocks.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt"
cuobjdump -sass bin_blocks > sass.txt 2>&1; grep -c -E 'STG|EXIT' sass.txt
echo "build t=$((SECONDS-T0))"
mkdir -p stamps/ev stamps/ncu
STAMPS=$PWD/stamps/ev timeout 60 ./bin_blocks > "$OUT/events.txt" 2> "$OUT/events.err"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events.txt" "$OUT/events.err"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,sm__warps_active.sum,sm__cycles_active.avg,sm__cycles_active.sum,sm__ctas_launched.sum,smsp__warps_launched.sum,smsp__average_warp_latency_issue_stalled_drain.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_membar.ratio,dram__bytes_read.sum,dram__bytes_write.sum
export BENCH_NCU=1
STAMPS=$PWD/stamps/ncu timeout 130 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_blocks > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; rc=$?
echo "ncu rc=$rc lines=$(wc -l < $OUT/ncu.csv) t=$((SECONDS-T0))"
if ! grep -q gpu__time_duration "$OUT/ncu.csv"; then
  tail -20 "$OUT/ncu.csv" "$OUT/ncu.err"
  M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,smsp__average_warp_latency_issue_stalled_drain.ratio
  STAMPS=$PWD/stamps/ncu timeout 80 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_blocks > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; echo "ncu fallback rc=$? lines=$(wc -l < $OUT/ncu.csv)"
fi
gzip -c sass.txt > stamps/sass.txt.gz
tar czf "$OUT/stamps.tar.gz" stamps; ls -la "$OUT"
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]; c = {k: i for i, k in enumerate(h)}
v = {}
for r in rows[1:]:
    v.setdefault((int(r[c['ID']]), r[c['Kernel Name']][:12]), {})[r[c['Metric Name']]] = r[c['Metric Value']]
for k in sorted(v):
    d = v[k]
    print(k, ' '.join('%s=%s' % (m.split('__')[1][:28], d[m]) for m in sorted(d)))
PY
echo "total t=$((SECONDS-T0))"
