#!/bin/bash
# Records probe7 on a real GPU, in one call: compiles local_past, dsmem_late
# and ipc with nvcc -lineinfo -arch=sm_90 (and probe6's local_below, for its
# SASS), keeps every binary's SASS (cuobjdump -sass), runs local_past and
# dsmem_late for every case plainly and under memcheck and ipc plainly; then
# gives ptxas every PTX of ../../ptxas/sm90only at .target/-arch sm_80, sm_90
# and sm_90a. Writes recorded/NAME.CASE.TOOL.{stdout,stderr,status},
# recorded/sass.txt, TOOLS.txt and ../../ptxas/sm90only/recorded/ into
# $OUT/probe7.tar.gz. Usage: OUT=dir bash record.sh
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/probe7-out}
export PATH=/usr/local/cuda/bin:$PATH
R=recorded
rm -rf "$R" bin && mkdir -p "$R" bin "$OUT"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; ptxas --version | tail -1; compute-sanitizer --version; date -u; } > "$R/TOOLS.txt" 2>&1
cp ../probe6/local_below.cu bin/
for p in local_past dsmem_late ipc bin/local_below; do
  n=$(basename $p)
  { timeout 120 nvcc -lineinfo -arch=sm_90 -o bin/$n $p.cu > bin/$n.nvcc.txt 2>&1 || cp bin/$n.nvcc.txt $R/$n.nvcc-failed.txt; } &
done
wait
for p in local_past dsmem_late ipc local_below; do echo "=== $p"; timeout 60 cuobjdump -sass bin/$p; done > $R/sass.txt 2>&1
{
  for c in 0 1; do
    for i in 4 8 64 256; do
      echo "local_past i${i}c$c plain $i $c"
      echo "local_past i${i}c$c memcheck $i $c"
    done
  done
  for op in w wr r; do
    for d in 0 200000 2000000 20000000; do
      echo "dsmem_late $op$d plain $op $d"
      echo "dsmem_late $op$d memcheck $op $d"
    done
  done
  echo "ipc default plain"
} > bin/jobs.txt
run1() {
  p=$1; c=$2; tool=$3; shift 3
  o=$R/$p.$c.$tool
  case $tool in
  plain) timeout 30 ./bin/$p "$@" > $o.stdout 2> $o.stderr ;;
  *) timeout 60 compute-sanitizer --tool $tool ./bin/$p "$@" > $o.stdout 2> $o.stderr ;;
  esac
  echo $? > $o.status
}
export -f run1
export R
timeout 240 xargs -P 8 -L 1 bash -c 'run1 "$@"' _ < bin/jobs.txt
# ptxas on the sm_90-only forms: each file as written (.target sm_80) and
# with its .target raised to sm_90 and sm_90a.
P=../../ptxas/sm90only
rm -rf $P/recorded && mkdir -p $P/recorded
(
  cd $P
  for f in *.ptx; do
    for a in sm_80 sm_90 sm_90a; do
      if [ $a = sm_80 ]; then g=$f; else g=recorded/${f%.ptx}.$a.ptx; sed "s/^\.target sm_80$/.target $a/" $f > $g; fi
      timeout 30 ptxas -arch=$a $g -o /dev/null > recorded/${f%.ptx}.$a.txt 2>&1
      echo "exit $?" >> recorded/${f%.ptx}.$a.txt
      [ $a = sm_80 ] || rm -f $g
    done
  done
)
tar czf "$OUT/probe7.tar.gz" recorded $P/recorded
ls -l "$OUT"
