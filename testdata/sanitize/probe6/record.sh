#!/bin/bash
# Records probe6 on a real GPU: compiles each .cu with nvcc -lineinfo
# -arch=sm_90, runs straddle for every line of cases.txt plainly and under
# memcheck, frames plainly, local_below plainly and under memcheck, and hist_order (warp 1 held back, then warp 0) plainly and under
# racecheck (default and hazard report). Writes recorded/NAME.TAG.{stdout,
# stderr,status}, TOOLS.txt and sass.txt into $OUT/probe6.tar.gz.
# Usage: OUT=dir bash record.sh
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/probe6-out}
export PATH=/usr/local/cuda/bin:$PATH
R=recorded
rm -rf "$R" bin && mkdir -p "$R" bin "$OUT"
{ nvidia-smi -L; nvcc --version | tail -2; compute-sanitizer --version; date -u; } > "$R/TOOLS.txt" 2>&1
for p in straddle hist_order frames local_below; do
  { timeout 120 nvcc -lineinfo -arch=sm_90 -o bin/$p $p.cu > bin/$p.nvcc.txt 2>&1 || cp bin/$p.nvcc.txt $R/$p.nvcc-failed.txt; } &
done
wait
for p in straddle hist_order frames local_below; do cuobjdump -sass bin/$p; done > $R/sass.txt 2>&1
{
  grep -v '^#' cases.txt | while read op size w off; do
    echo "straddle ${op}${size}w${w}o${off} plain $op $size $w $off"
    echo "straddle ${op}${size}w${w}o${off} memcheck $op $size $w $off"
  done
  echo "frames default plain"
  for m in below past; do
    echo "local_below $m plain $m"
    echo "local_below $m memcheck $m"
  done
  for d in 1 0; do
    echo "hist_order delay$d plain $d"
    echo "hist_order delay$d racecheck $d"
    echo "hist_order delay$d racecheck-hazard $d"
  done
} > bin/jobs.txt
run1() {
  p=$1; c=$2; tool=$3; shift 3
  o=$R/$p.$c.$tool
  case $tool in
  plain) timeout 30 ./bin/$p "$@" > $o.stdout 2> $o.stderr ;;
  racecheck-hazard) timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard ./bin/$p "$@" > $o.stdout 2> $o.stderr ;;
  *) timeout 60 compute-sanitizer --tool $tool ./bin/$p "$@" > $o.stdout 2> $o.stderr ;;
  esac
  echo $? > $o.status
}
export -f run1
export R
timeout 200 xargs -P 8 -L 1 bash -c 'run1 "$@"' _ < bin/jobs.txt
tar czf "$OUT/probe6.tar.gz" recorded
ls -l "$OUT"
