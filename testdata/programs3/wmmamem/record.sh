#!/bin/bash
# Records, on the H100, what nvcc 13 makes of every wmma.load/wmma.store
# fragment kind (mb3.cu) and how long each takes. Run on the GPU machine from
# a folder holding mb3.cu. Builds the four parts (-DPART=0..3) and their PTX
# in parallel (nvcc -O3 -arch=sm_90a -std=c++17, programs3's flags), dumps
# each binary's SASS (cuobjdump -sass), runs each part (clock64 cycles, as
# ../nvcc/mb2.cu: no Nsight Compute, whose per-launch replay would take the
# whole budget for 896 launches; the SM's clock counts the cycles either
# way), and writes everything into $OUT/wmmamem.tar.gz.
set -x
R=${OUT:-/tmp/out}/wmmamem
mkdir -p "$R" bin
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.applications.graphics --format=csv;
  nvcc --version | tail -2; } > "$R/GPU.txt" 2>&1
F="-O3 -arch=sm_90a -std=c++17"
for p in 0 1 2 3; do
  (timeout 240 nvcc $F -DPART=$p -o bin/mb3.$p mb3.cu > "$R/build.$p.txt" 2>&1 || echo "BUILD FAIL $p") &
  (timeout 240 nvcc $F -DPART=$p -ptx -o "$R/mb3.$p.nvcc.ptx" mb3.cu > "$R/ptx.$p.txt" 2>&1 || echo "PTX FAIL $p") &
done
wait
echo "built at $SECONDS s"
for p in 0 1 2 3; do
  [ -x bin/mb3.$p ] || continue
  timeout 60 cuobjdump -sass bin/mb3.$p > "$R/mb3.$p.sass" 2>&1
  timeout 60 ./bin/mb3.$p > "$R/mb3.$p.txt" 2>&1; echo "part $p rc=$? at $SECONDS s"
done
gzip -9 "$R"/*.sass "$R"/*.ptx
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/wmmamem.tar.gz" wmmamem && rm -rf "$R"
ls -l "${OUT:-/tmp/out}"
