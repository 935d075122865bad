#!/bin/bash
# run.sh: records dramload.cu on the H100 (one device call). Run from this directory on the GPU machine (bench.h
# is ../bench/bench.h). nvcc 13 -O3 -arch=sm_90; one plain run at the boost clock (events.txt), then Nsight
# Compute at its locked base clock with caches flushed, only ld_probe profiled (ncu.csv: duration, clock, DRAM
# bytes read and written), its stamps (per chase step, cycles at the base clock) written to stamps/ and tarred;
# nvcc's PTX (dramload_nvcc.ptx) and the SASS. Everything goes to $OUT.
set -o pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv; } > "$OUT/env.txt" 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -lineinfo -o bin_dramload dramload.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt"
timeout 60 nvcc -O3 -arch=sm_90 -ptx -o "$OUT/dramload_nvcc.ptx" dramload.cu >> "$OUT/env.txt" 2>&1
timeout 60 nvcc -O3 -arch=sm_90 --resource-usage -c -o /dev/null dramload.cu >> "$OUT/env.txt" 2>&1
timeout 60 cuobjdump -sass bin_dramload > sass.txt 2>&1; gzip -c sass.txt > "$OUT/sass.txt.gz"
echo "build t=$((SECONDS-T0))"
timeout 60 ./bin_dramload > "$OUT/events.txt" 2>> "$OUT/env.txt"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events.txt"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum
mkdir -p stamps
STAMPS=$PWD/stamps BENCH_NCU=1 timeout 150 ncu --csv --print-units base --clock-control base -k regex:ld_probe --metrics "$M" ./bin_dramload > ncu_all.txt 2> ncu.err
echo "ncu rc=$? t=$((SECONDS-T0))"; { echo "--- ncu stderr"; tail -20 ncu.err; } >> "$OUT/env.txt"
grep '^"' ncu_all.txt > "$OUT/ncu.csv"; grep -v '^"' ncu_all.txt | grep -v '^==PROF==' > "$OUT/events_ncu.txt"
cat "$OUT/events_ncu.txt"
tar czf "$OUT/stamps_ncu.tar.gz" stamps
echo "total t=$((SECONDS-T0))"
