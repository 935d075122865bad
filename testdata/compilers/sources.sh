#!/bin/bash
# Fills DIR (default: src, beside this script) with the programs record.sh and warpsim.sh build: the
# lessons from examples/lessons and the sample programs from testdata/programs, as committed (they are
# not copied into this folder, so there is one copy of each).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/src}
mkdir -p "$dir"
cp "$here"/../../examples/lessons/{common.h,divergence.cu,reduce.cu,coarsen.cu,nested.cu} "$dir"/
cp "$here"/../programs/{check.h,histogram.cu,matmul_shared.cu,reduce_shfl.cu,transpose.cu} "$dir"/
