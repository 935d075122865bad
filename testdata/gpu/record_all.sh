#!/bin/bash
# Records every conformance case on the GPU machine:
#   bash testdata/gpu/record_all.sh OUTDIR
# For each testdata/conformance/<case>/kernel.cu: nvcc -O3 -arch=sm_90 -ptx
# writes nvcc.ptx, then record.py runs nvcc.ptx and the committed clang.ptx
# and writes expected/{nvcc,clang}/. The GPU, driver and nvcc versions and
# every case's outcome go to testdata/gpu/RECORDED.txt. OUTDIR receives
# results.tgz (nvcc.ptx, expected/, RECORDED.txt, logs), unpacked at the
# repository root by: tar xzf results.tgz
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: record_all.sh OUTDIR}
cd "$ROOT/testdata/conformance"
REC=$ROOT/testdata/gpu/RECORDED.txt
LOGS=$ROOT/testdata/gpu/logs
rm -rf "$LOGS" && mkdir -p "$LOGS"
{
  echo "# Recorded by testdata/gpu/record_all.sh"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader)"
  echo "nvcc: $(nvcc --version | tail -2 | tr '\n' ' ')"
  echo "nvcc flags: -O3 -arch=sm_90 -ptx; clang.ptx: see testdata/conformance/build_clang.sh"
  echo "python: $(python3 --version 2>&1)"
} > "$REC"
for d in */; do
  c=${d%/}
  [ -f "$c/kernel.cu" ] || continue
  rm -rf "$c/expected"
  if ! nvcc -O3 -arch=sm_90 -ptx -Iinclude "$c/kernel.cu" -o "$c/nvcc.ptx" > "$LOGS/$c.nvcc.log" 2>&1; then
    echo "FAIL $c nvcc: compile error (logs/$c.nvcc.log)"
    cat "$LOGS/$c.nvcc.log"
  fi
  for v in nvcc clang; do
    [ -f "$c/$v.ptx" ] || continue
    timeout 120 python3 "$ROOT/testdata/gpu/record.py" "$c" "$v" 2>&1 || echo "FAIL $c $v: exit $?"
  done
done 2>&1 | tee -a "$REC"
cd "$ROOT"
tar czf "$OUT/results.tgz" testdata/conformance/*/nvcc.ptx testdata/conformance/*/expected testdata/gpu/RECORDED.txt testdata/gpu/logs
ls -la "$OUT"
