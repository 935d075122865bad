#!/bin/bash
# run.sh: records tlb_mb.cu on the H100 (one device call). Stage tlb_mb.cu and this script in /work/main/.dev/tlbtime/,
# then on the device machine `cd .dev/tlbtime && bash run.sh`. Writes into $OUT: env.txt (GPU, driver, nvcc, ncu),
# tlb_mb.h100.txt (steady, boost clock), tlb_cold.h100.txt (cold, three plain runs), tlb_cold.ncu_all.txt and
# tlb_cold.ncu_none.txt (cold under Nsight Compute, --cache-control all / none, base clock, the chase kernels
# profiled; the stamps are the profiled launches'), tlb_mb.nvcc.ptx (what the model runs), tlb_mb.sass.txt.
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
{ date -u; nvcc --version | tail -n 2; ncu --version | tail -n 1; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -o tlb_mb tlb_mb.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt"
nvcc -O3 -arch=sm_90 -ptx -o "$OUT/tlb_mb.nvcc.ptx" tlb_mb.cu >> "$OUT/env.txt" 2>&1
cuobjdump -sass tlb_mb > "$OUT/tlb_mb.sass.txt" 2>&1
grep -A40 "Function : _Z5chase" "$OUT/tlb_mb.sass.txt" | grep -E "LDG|CS2R|STS|S2UR" | head
echo "build t=$((SECONDS-T0))"; cat "$OUT/env.txt"
timeout 90 ./tlb_mb steady > "$OUT/tlb_mb.h100.txt" 2>&1; echo "steady rc=$? t=$((SECONDS-T0))"
cut -c1-150 "$OUT/tlb_mb.h100.txt"
for i in 1 2 3; do timeout 40 ./tlb_mb cold; done > "$OUT/tlb_cold.h100.txt" 2>&1; echo "cold rc=$? t=$((SECONDS-T0))"
cut -c1-400 "$OUT/tlb_cold.h100.txt" | head -14
for cc in all none; do
  timeout 100 ncu --cache-control $cc --clock-control base -k regex:chase --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second \
    ./tlb_mb cold > "$OUT/tlb_cold.ncu_$cc.txt" 2>&1; echo "ncu $cc rc=$? t=$((SECONDS-T0))"
  grep "^tlb" "$OUT/tlb_cold.ncu_$cc.txt" | cut -c1-400
done
grep -v "^tlb" "$OUT/tlb_cold.ncu_all.txt" | head -30
ls -la "$OUT"
