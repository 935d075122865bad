#!/bin/bash
# Second call: nvcc's PTX and SASS of cluster_mb.cu (warpsim runs nvcc's PTX in TestClusterMicrobenchmarks),
# and cluster_of_one.cu's output on the H100 (../../clusters/cluster_of_one.h100.txt; it ran from this folder).
set -x
nvcc -O3 -arch=sm_90a -ptx -o $OUT/cluster_mb.nvcc.ptx cluster_mb.cu
nvcc -O3 -arch=sm_90a -o cluster_mb cluster_mb.cu && cuobjdump -sass cluster_mb | gzip > $OUT/cluster_mb.sass.gz
nvcc -O3 -arch=sm_90a -o cluster_of_one cluster_of_one.cu && ./cluster_of_one > $OUT/cluster_of_one.h100.txt; echo "rc=$?"
cat $OUT/cluster_of_one.h100.txt
ls -la $OUT
