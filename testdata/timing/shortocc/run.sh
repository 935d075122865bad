#!/bin/bash
# run.sh: records shortocc.cu on the H100 (one device call): the microbenchmarks (m_*) and the fresh2 held-out
# set (g_*, FRESH2.md). Run from this directory on the GPU machine (bench.h is ../bench/bench.h): nvcc 13 -O3
# -arch=sm_90, CUDA-event times with every warp's stamps (boost clock, stamps/ev/), then Nsight Compute at its
# locked base clock with caches flushed and the stamps of its last replay (stamps/ncu/). Everything goes to
# $OUT (env.txt, events.txt, ncu.csv, shortocc_nvcc.ptx, sass.txt.gz, stamps_ncu.tar.gz, stamps_ev.tar.gz).
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o bin_shortocc shortocc.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt"
nvcc -O3 -arch=sm_90 -ptx -o "$OUT/shortocc_nvcc.ptx" shortocc.cu >> "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 --resource-usage -c -o /dev/null shortocc.cu >> "$OUT/env.txt" 2>&1
cuobjdump -sass bin_shortocc > sass.txt 2>&1; grep -c -E 'STG|LDG|EXIT' sass.txt
echo "build t=$((SECONDS-T0))"
mkdir -p stamps/ev stamps/ncu
STAMPS=$PWD/stamps/ev timeout 60 ./bin_shortocc > "$OUT/events.txt" 2>> "$OUT/env.txt"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events.txt"; tail -3 "$OUT/env.txt"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,sm__warps_active.sum,sm__cycles_active.avg,sm__cycles_active.sum,sm__cycles_active.max,sm__ctas_launched.sum,dram__bytes_read.sum,dram__bytes_write.sum
export BENCH_NCU=1
STAMPS=$PWD/stamps/ncu timeout 170 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_shortocc > "$OUT/ncu.csv" 2> ncu.err; rc=$?
echo "ncu rc=$rc lines=$(wc -l < $OUT/ncu.csv) t=$((SECONDS-T0))"
{ echo "--- ncu stderr"; tail -30 ncu.err; } >> "$OUT/env.txt"
gzip -c sass.txt > "$OUT/sass.txt.gz"
tar czf "$OUT/stamps_ncu.tar.gz" stamps/ncu; tar czf "$OUT/stamps_ev.tar.gz" stamps/ev; ls -la "$OUT"
python3 - "$OUT/ncu.csv" "$OUT/events.txt" <<'PY'
import csv, sys
names = [l.split()[1][5:] for l in open(sys.argv[2]) if l.startswith('cfg ')]
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
if not rows: sys.exit('no ncu rows')
h = rows[0]; c = {k: i for i, k in enumerate(h)}
v = {}
for r in rows[1:]:
    v.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = r[c['Metric Value']]
for k in sorted(v):
    d = v[k]
    print(names[k] if k < len(names) else k, d.get('gpu__time_duration.sum'), d.get('sm__warps_active.avg.pct_of_peak_sustained_active'),
          d.get('sm__cycles_active.avg'), d.get('dram__bytes_read.sum'), d.get('dram__bytes_write.sum'))
PY
python3 - stamps/ncu <<'PY'
# per configuration: warp lifetimes and the median spread of warp ends within an SM
import csv, glob, os, sys
for p in sorted(glob.glob(sys.argv[1] + '/*.csv')):
    R = list(csv.DictReader(open(p)))
    life = sorted(int(r['c1']) - int(r['c0']) for r in R)
    q = lambda v, f: v[min(len(v) - 1, int(f * len(v)))]
    print(os.path.basename(p), len(R), 'life p10/50/90', q(life, .1), q(life, .5), q(life, .9))
PY
echo "total t=$((SECONDS-T0))"
