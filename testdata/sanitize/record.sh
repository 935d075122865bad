#!/bin/bash
# Records compute-sanitizer's reports for the suite on a real GPU.
# Compiles every .cu here with nvcc -lineinfo, runs each program plainly and
# under the tools runs.txt lists, and writes recorded/PROG.TAG.{stdout,stderr,status}
# (and TOOLS.txt) into $OUT/sanitize.tar.gz. Usage: OUT=dir bash record.sh [folder]
set -u
cd "$(dirname "$0")/${1:-.}"  # a suite folder: . or probe2
OUT=${OUT:-/tmp/sanitize-out}
export PATH=/usr/local/cuda/bin:$PATH
R=recorded
rm -rf "$R" bin && mkdir -p "$R" bin "$OUT"
{ nvidia-smi -L; nvcc --version | tail -2; compute-sanitizer --version; date -u; } > "$R/TOOLS.txt" 2>&1
ls *.cu | sed 's/\.cu$//' | xargs -P 16 -I{} sh -c 'nvcc -lineinfo -arch=sm_90 -o bin/{} {}.cu > bin/{}.nvcc.txt 2>&1 || cp bin/{}.nvcc.txt recorded/{}.nvcc-failed.txt'
{
  for f in *.cu; do p=${f%.cu}; echo "$p plain"; done
  grep -v '^#' runs.txt
} > bin/jobs.txt
run1() {
  p=$1; tag=$2; shift 2
  if [ "$tag" = plain ]; then
    timeout 30 ./bin/$p > recorded/$p.$tag.stdout 2> recorded/$p.$tag.stderr
  else
    timeout 40 compute-sanitizer "$@" ./bin/$p > recorded/$p.$tag.stdout 2> recorded/$p.$tag.stderr
  fi
  echo $? > recorded/$p.$tag.status
}
export -f run1
timeout 190 xargs -P 6 -L 1 bash -c 'run1 "$@"' _ < bin/jobs.txt
tar czf "$OUT/sanitize.tar.gz" recorded
ls -l "$OUT"
