#!/bin/bash
# Device driver for the frontend helper (issue 18): ISA conformance cases and the Triton corpus.
set -x
H=$(pwd)
W=/tmp/fe; rm -rf $W; mkdir -p $W
cp -r conf $W/conf
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader > $W/versions.txt
nvcc --version | tail -2 >> $W/versions.txt
python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)' >> $W/versions.txt 2>&1
cat $W/versions.txt
cd $W/conf
for c in fp8_packed sm90_ops; do
  nvcc -O3 -arch=sm_90 -ptx -Iinclude $c/kernel.cu -o $c/nvcc.ptx 2>&1 | tee $c/nvcc.log
  for v in nvcc clang; do timeout 120 python3 $H/record.py $c $v 2>&1; done
done
cd $W
export PYTHONUNBUFFERED=1
timeout ${TRITON_TIMEOUT:-330} python3 $H/triton_corpus.py $W 2>&1 | tee $W/triton.log
du -sh $W/triton $W/conf
tar czf $OUT/results.tgz versions.txt triton.log triton conf/fp8_packed conf/sm90_ops
ls -la $OUT
