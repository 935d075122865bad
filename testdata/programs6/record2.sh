#!/bin/bash
# The second call for testdata/programs6: records nbody_tile_seq (nbody_tile
# with sequenced inputs) and the video-instruction probe video_insns like
# record.sh, and keeps nvcc 13's PTX of llmc_softmax_gelu (diag/) to see
# which multiplies it fuses. Writes programs6b.tar.gz into $OUT.
set -x
R=rec
mkdir -p bin $R/diag
for n in nbody_tile_seq video_insns; do
  timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -o bin/$n $n.cu > $R/diag/$n.build.log 2>&1 || echo "BUILD FAIL $n"
  timeout 20 ./bin/$n > $R/$n.h100.txt 2> $R/$n.h100.stderr
  echo $? > $R/$n.h100.exit
  head -c 600 $R/$n.h100.txt
done
timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -ptx -o $R/diag/llmc_softmax_gelu.nvcc.ptx llmc_softmax_gelu.cu
awk '/entry.*softmax_forward_online/,/^}/' $R/diag/llmc_softmax_gelu.nvcc.ptx | grep -E "fma|mul.f32|shfl" | head -30
tar czf $OUT/programs6b.tar.gz $R
