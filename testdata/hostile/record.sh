#!/bin/bash
# Records what an H100 with nvcc 13 and compute-sanitizer does for the hostile
# inputs of issue 16 (see README.md). Usage: bash record.sh OUTFILE
# Every step runs even when one before it fails; everything goes to OUTFILE.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/h100.txt}
bin=$(mktemp -d)
exec > "$out" 2>&1
echo "== GPU"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -n 2
cd "$here"
for f in heap_limit graph_cycle host_callback free_nonblocking fork_managed pitch_overflow stencil_before sanitize_limits; do
  (nvcc -O2 -arch=sm_90 -o "$bin/$f" $f.cu > "$bin/$f.nvcc" 2>&1 || { echo "nvcc $f failed: $(cat $bin/$f.nvcc)"; nvcc -O2 -arch=sm_90 -DNO_ADDCB -o "$bin/$f" $f.cu; }) &
done
for f in cdp_smem cdp_pending; do
  (nvcc -O2 -arch=sm_90 -rdc=true -o "$bin/$f" $f.cu -lcudadevrt > "$bin/$f.nvcc" 2>&1 || echo "nvcc $f failed: $(cat $bin/$f.nvcc)") &
done
wait
run() {  # run NAME ARGS...: prints the output and the exit status
  echo "== $*"
  timeout -s KILL 25 "$@" 2>&1
  echo "exit $?"
}
for m in 0 1 2 3; do run "$bin/heap_limit" $m; done
run "$bin/graph_cycle"
run "$bin/host_callback"
run "$bin/free_nonblocking"
for m in 0 1 2 3; do run "$bin/fork_managed" $m; done
run "$bin/cdp_smem"
for v in - 0 1 2 32 100 2048; do run "$bin/cdp_pending" $v; done
run "$bin/pitch_overflow"
run "$bin/stencil_before"
run compute-sanitizer --tool memcheck "$bin/stencil_before"
run compute-sanitizer --tool initcheck "$bin/stencil_before"
for opt in "" "--print-limit 0" "--print-limit 5" "--error-exitcode 1" "--error-exitcode 256" "--error-exitcode 300" "--error-exitcode 255"; do
  echo "== compute-sanitizer $opt sanitize_limits (lines counted)"
  timeout 60 compute-sanitizer $opt "$bin/sanitize_limits" > "$bin/san.txt" 2>&1
  echo "exit $?"
  echo "Invalid write reports: $(grep -c 'Invalid __global__ write' "$bin/san.txt")"
  grep -E 'ERROR SUMMARY|sync:|limit|Error' "$bin/san.txt" | sort | uniq -c | head -n 8
done
echo "== CUDA 13 declarations"
inc=$(dirname "$(command -v nvcc)")/../include
[ -f "$inc/cuda_runtime_api.h" ] || inc=/usr/local/cuda/include
for fn in cudaGraphAddDependencies cudaGraphRemoveDependencies cudaGraphGetEdges cudaGraphNodeGetDependencies cudaGraphNodeGetDependentNodes cudaStreamGetCaptureInfo cudaStreamUpdateCaptureDependencies cudaGraphAddNode; do
  grep -A 1 -E "CUDARTAPI $fn(_v2)?\(" "$inc/cuda_runtime_api.h" | tr -s ' ' | head -n 4
done
echo "== template overloads in cuda_runtime.h (name: first line)"
python3 - "$inc/cuda_runtime.h" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
names = []
for m in re.finditer(r'template\s*<[^>]*>\s*(?:static\s+)?(?:__inline__\s+)?(?:__host__\s+)?(?:CUDART_DEVICE\s+)?[\w:]+\s+(?:CUDARTAPI\s+)?(\w+)\s*\(', src):
    names.append(m.group(1))
seen = []
for n in names:
    if n not in seen: seen.append(n)
print(len(names), "template overloads,", len(seen), "names")
print(" ".join(seen))
PY
echo "== names after template lines (grep)"
grep -A4 -E "^[[:space:]]*template" "$inc/cuda_runtime.h" | grep -oE "\b(cuda|__cuda)[A-Za-z0-9_]+[[:space:]]*\(" | tr -d " (" | sort -u | tr "\n" " "
echo
rm -rf "$bin"
