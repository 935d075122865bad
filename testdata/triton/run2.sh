#!/bin/bash
# Second device call (frontend helper, issue 18): fp8_packed conformance case, layer-norm probes, more Triton kernels.
set -x
H=$(pwd)
W=/tmp/fe2; rm -rf $W; mkdir -p $W
cp -r conf $W/conf
cd $W/conf
for c in fp8_packed; do
  nvcc -O3 -arch=sm_90 -ptx -Iinclude $c/kernel.cu -o $c/nvcc.ptx 2>&1 | tee $c/nvcc.log
  for v in nvcc clang; do timeout 120 python3 $H/record.py $c $v 2>&1; done
done
cd $W
export PYTHONUNBUFFERED=1
cp -r $H/lnprobe $W/lnprobe
timeout 60 python3 $H/runlf.py $W/lnprobe $W/lnprobe/out launch_probeA.json:Mean,Rstd,Y launch_probeB.json:Mean,Rstd,Y launch_sfu.json:o 2>&1
CASES=scan_argmax_i32,math_f32,hist_atomic_i32,rand_philox,inline_asm_i32,mm_i8_64x64x64 timeout 200 python3 $H/triton_corpus.py $W 2>&1 | tee $W/triton2.log
rm -f $W/lnprobe/*.bin
tar czf $OUT/results2.tgz triton2.log triton conf/fp8_packed lnprobe
ls -la $OUT
