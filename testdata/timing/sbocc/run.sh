#!/bin/bash
# run.sh: records sbocc.cu on the H100 (one device call). Run from this directory on the GPU machine
# (bench.h is ../bench/bench.h): nvcc 13 -O3 -arch=sm_90, CUDA-event times with every warp's stamps
# (boost clock, stamps/ev/), then Nsight Compute at its locked base clock with caches flushed and the
# stamps of its last replay (stamps/ncu/). Everything goes to $OUT; stamps.tar.gz holds the stamps.
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o bin_sbocc sbocc.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt"
nvcc -O3 -arch=sm_90 -ptx -o "$OUT/sbocc_nvcc.ptx" sbocc.cu >> "$OUT/env.txt" 2>&1
cuobjdump -sass bin_sbocc > sass.txt 2>&1; grep -c -E 'STG|LDG|EXIT' sass.txt
echo "build t=$((SECONDS-T0))"
mkdir -p stamps/ev stamps/ncu
STAMPS=$PWD/stamps/ev timeout 60 ./bin_sbocc > "$OUT/events.txt" 2>> "$OUT/env.txt"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events.txt"; tail -3 "$OUT/env.txt"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,sm__warps_active.sum,sm__cycles_active.avg,sm__cycles_active.sum,sm__cycles_active.max,sm__cycles_active.min,sm__ctas_launched.sum,smsp__warps_launched.sum,smsp__average_warp_latency_issue_stalled_drain.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
export BENCH_NCU=1
STAMPS=$PWD/stamps/ncu timeout 150 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_sbocc > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; rc=$?
echo "ncu rc=$rc lines=$(wc -l < $OUT/ncu.csv) t=$((SECONDS-T0))"
if ! grep -q gpu__time_duration "$OUT/ncu.csv"; then
  tail -20 "$OUT/ncu.csv" "$OUT/ncu.err"
  M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg
  STAMPS=$PWD/stamps/ncu timeout 80 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_sbocc > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; echo "ncu fallback rc=$? lines=$(wc -l < $OUT/ncu.csv)"
fi
gzip -c sass.txt > "$OUT/sass.txt.gz"
tar czf "$OUT/stamps_ncu.tar.gz" stamps/ncu; tar czf "$OUT/stamps_ev.tar.gz" stamps/ev; ls -la "$OUT"
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]; c = {k: i for i, k in enumerate(h)}
v = {}
for r in rows[1:]:
    v.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = r[c['Metric Value']]
for k in sorted(v):
    d = v[k]
    print(k, ' '.join('%s=%s' % (m.split('__')[1][:22], d[m]) for m in sorted(d)))
PY
python3 - stamps/ncu <<'PY'
# quick look: per configuration, warp lifetimes and the spread of warp ends within a block
import csv, glob, os, statistics as st, sys
for p in sorted(glob.glob(sys.argv[1] + '/*.csv')):
    R = list(csv.DictReader(open(p)))
    life = sorted(int(r['c1']) - int(r['c0']) for r in R)
    q = lambda v, f: v[min(len(v) - 1, int(f * len(v)))]
    print(os.path.basename(p), len(R), 'life p10/50/90', q(life, .1), q(life, .5), q(life, .9))
PY
echo "total t=$((SECONDS-T0))"
