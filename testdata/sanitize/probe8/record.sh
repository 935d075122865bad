#!/bin/bash
# Records probe8 on a real GPU, in one call: builds gap.cu once per line of
# variants.txt (nvcc -lineinfo -arch=sm_90 -Xptxas -v and the line's flags),
# keeps ptxas's report and the kernel's SASS (cuobjdump -sass), runs every
# variant plainly and under memcheck, and the plain and printf variants under
# racecheck, initcheck and synccheck too. Writes recorded/VARIANT.TOOL.{stdout,stderr,status},
# recorded/VARIANT.ptxas.txt, recorded/sass.txt and TOOLS.txt into
# $OUT/probe8.tar.gz. Usage: OUT=dir bash record.sh
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/probe8-out}
export PATH=/usr/local/cuda/bin:$PATH
R=recorded
rm -rf "$R" bin && mkdir -p "$R" bin "$OUT"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; compute-sanitizer --version; date -u; } > "$R/TOOLS.txt" 2>&1
while read -r v flags; do
  { timeout 120 nvcc -lineinfo -arch=sm_90 -Xptxas -v $flags -o bin/$v gap.cu > $R/$v.ptxas.txt 2>&1; echo "exit $?" >> $R/$v.ptxas.txt; } &
done < variants.txt
wait
while read -r v flags; do echo "=== $v"; timeout 60 cuobjdump -sass -fun _Z6kernelPiPKiPy bin/$v 2>&1 | grep -v '^\s*/\* [0-9a-f]* \*/\s*$' | sed 's@ */\* 0x[0-9a-f]* \*/@@'; done < variants.txt > $R/sass.txt 2>&1
{
  while read -r v flags; do
    echo "$v plain"
    echo "$v memcheck"
  done < variants.txt
  for v in plain printf; do
    for t in racecheck initcheck synccheck; do echo "$v $t"; done
  done
} > bin/jobs.txt
run1() {
  v=$1; tool=$2
  o=$R/$v.$tool
  case $tool in
  plain) timeout 30 ./bin/$v > $o.stdout 2> $o.stderr ;;
  *) timeout 60 compute-sanitizer --tool $tool ./bin/$v > $o.stdout 2> $o.stderr ;;
  esac
  echo $? > $o.status
}
export -f run1
export R
timeout 150 xargs -P 12 -L 1 bash -c 'run1 "$@"' _ < bin/jobs.txt
tar czf "$OUT/probe8.tar.gz" recorded
ls -l "$OUT"
