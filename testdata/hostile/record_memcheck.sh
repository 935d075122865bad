#!/bin/bash
# Records what an H100 does for granule.cu and sanitize_continue.cu (issue
# 16: reads and writes outside an allocation inside its mapped granule;
# whether compute-sanitizer lets a kernel go on after an error). Usage:
#   bash record_memcheck.sh OUTFILE    (memcheck_h100.txt is the recording)
# Every step runs even when one before it fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/memcheck_h100.txt}
bin=$(mktemp -d)
exec > "$out" 2>&1
echo "== GPU"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -n 2
cd "$here"
for f in granule sanitize_continue; do
  nvcc -O2 -arch=sm_90 -lineinfo -o "$bin/$f" $f.cu || echo "nvcc $f failed"
done
run() {  # run ARGS...: prints the output and the exit status
  echo "== $*"
  timeout -s KILL 60 "$@" 2>&1 | sed "s|$bin/||g"
  echo "exit ${PIPESTATUS[0]}"
}
run "$bin/granule" L
for off in -2097156 -2097152 -4096 -4 0 996 1000 1020 1024 1028 4096 65536 1048576 2097148 2097152 4194304 1073741824; do
  run "$bin/granule" r $off
done
for off in -4 1000 1024 4096 2097148 2097152; do run "$bin/granule" w $off; done
for off in 1000 4096 1048576; do run "$bin/granule" s $off; done
for off in 3145724 3145728 4194300 4194304; do run "$bin/granule" b $off; done
for a in "r -4" "r 1000" "r 4096" "r 2097148" "r 2097152" "w 1000" "w 2097152" "b 3145728"; do
  run compute-sanitizer --tool memcheck "$bin/granule" $a
done
run compute-sanitizer --tool initcheck "$bin/granule" r 1000
for m in blocks threads readval sync; do run "$bin/sanitize_continue" $m; done
count() {  # count TOOL MODE: the report's shape, lines counted
  echo "== compute-sanitizer --tool $1 --print-limit 0 sanitize_continue $2 (lines counted)"
  timeout 120 compute-sanitizer --tool $1 --print-limit 0 "$bin/sanitize_continue" $2 > "$bin/san.txt" 2>&1
  echo "exit $?"
  grep -E '^=========     (at|by thread|Access|and is)|^========= [A-Z]' "$bin/san.txt" | sed -E 's/0x[0-9a-f]{6,}/ADDR/g; s/by thread \([0-9]+,0,0\)/by thread (T)/; s/in block \([0-9]+,0,0\)/in block (B)/' | sort | uniq -c | sort -rn | head -n 20
  echo "distinct blocks: $(grep -oE 'in block \([0-9]+,0,0\)' "$bin/san.txt" | sort -u | wc -l)"
  echo "distinct threads: $(grep -oE 'by thread \([0-9]+,0,0\) in block \([0-9]+,0,0\)' "$bin/san.txt" | sort -u | wc -l)"
  grep -vE '^=========' "$bin/san.txt"
  echo "first report:"
  grep -m1 -A5 -E 'Invalid|Barrier error' "$bin/san.txt"
}
count memcheck blocks
count memcheck threads
count memcheck readval
count synccheck sync
count memcheck sync
rm -rf "$bin"
