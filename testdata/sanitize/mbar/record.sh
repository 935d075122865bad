#!/bin/bash
# Records compute-sanitizer's reports for the mbarrier and asynchronous-copy
# suite on a real GPU: compiles every .cu here with nvcc -lineinfo
# -arch=sm_90a, runs each program plainly and under the tools runs.txt lists
# (compute-sanitizer --tool ...), and writes recorded/PROG.TAG.{stdout,stderr,status}
# (and TOOLS.txt) into $OUT/sanitize_mbar.tar.gz. Usage: OUT=dir bash record.sh
# (programs in a subfolder, as pending/ held async_*_early.cu for the second run:
# OUT=dir bash record.sh pending, into $OUT/sanitize_mbar_pending.tar.gz).
set -u
cd "$(dirname "$0")/${1:-.}"
OUT=${OUT:-/tmp/sanitize-mbar-out}
NAME=sanitize_mbar${1:+_$1}
export PATH=/usr/local/cuda/bin:$PATH
R=recorded
rm -rf "$R" bin && mkdir -p "$R" bin "$OUT"
{ nvidia-smi -L; nvcc --version | tail -2; compute-sanitizer --version; date -u; } > "$R/TOOLS.txt" 2>&1
ls *.cu | sed 's/\.cu$//' | xargs -P 16 -I{} sh -c 'nvcc -lineinfo -arch=sm_90a -o bin/{} {}.cu > bin/{}.nvcc.txt 2>&1 || cp bin/{}.nvcc.txt recorded/{}.nvcc-failed.txt'
{
  for f in *.cu; do p=${f%.cu}; echo "$p plain"; done
  grep -v '^#' runs.txt
} > bin/jobs.txt
run1() {
  p=$1; tag=$2; shift 2
  if [ "$tag" = plain ]; then
    timeout 20 ./bin/$p > recorded/$p.$tag.stdout 2> recorded/$p.$tag.stderr
  else
    timeout 40 compute-sanitizer "$@" ./bin/$p > recorded/$p.$tag.stdout 2> recorded/$p.$tag.stderr
  fi
  echo $? > recorded/$p.$tag.status
}
export -f run1
timeout 150 xargs -P 8 -L 1 bash -c 'run1 "$@"' _ < bin/jobs.txt
tar czf "$OUT/$NAME.tar.gz" recorded
ls -l "$OUT"
