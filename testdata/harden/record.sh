#!/bin/bash
# Records what an H100 does for the hardening cases (issue 7): the sample
# programs in ../programs (device_assert, device_trap, device_malloc,
# stack_overflow: stdout, stderr, exit status, as record_gpu.sh there does)
# and the probes here (stack depth limits, heap capacity, bad frees,
# assert output). Usage: bash record.sh OUTDIR   (needs nvcc and an H100)
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out}
mkdir -p "$out/programs" "$out/probes"
cd "$here/../programs"
for name in device_assert device_trap device_malloc stack_overflow; do
  (nvcc -O3 -arch=sm_90 -o "$out/bin_$name" "$name.cu" > "$out/programs/$name.nvcc.txt" 2>&1) &
done
cd "$here"
for name in stack_probe heap_probe assert_probe; do
  (nvcc -O3 -arch=sm_90 -Xptxas -v -o "$out/bin_$name" "$name.cu" > "$out/probes/$name.nvcc.txt" 2>&1) &
done
wait
cd "$here/../programs"
for name in device_assert device_trap device_malloc stack_overflow; do
  status=0
  timeout 20 "$out/bin_$name" > "$out/programs/$name.h100.txt" 2> "$out/programs/$name.h100.stderr" || status=$?
  echo "$status" > "$out/programs/$name.h100.exit"
done
cd "$here"
for name in stack_probe heap_probe assert_probe; do
  status=0
  timeout 40 "$out/bin_$name" > "$out/probes/$name.txt" 2> "$out/probes/$name.stderr" || status=$?
  echo "exit $status" >> "$out/probes/$name.txt"
done
for mode in 0 1 2 3; do
  status=0
  timeout 10 "$out/bin_heap_probe" $mode > "$out/probes/badfree$mode.txt" 2> "$out/probes/badfree$mode.stderr" || status=$?
  echo "exit $status" >> "$out/probes/badfree$mode.txt"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/GPU.txt"
nvcc --version | tail -n 2 >> "$out/GPU.txt"
rm -f "$out"/bin_*
