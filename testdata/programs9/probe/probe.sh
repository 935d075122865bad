set -x
export PATH=/usr/local/cuda/bin:$PATH
cd .dev/progs9/probe
timeout 60 nvcc -O3 -arch=sm_90 -o hoist hoist.cu && timeout 60 nvcc -O3 -arch=sm_90 -ptx -o $OUT/hoist.nvcc.ptx hoist.cu
timeout 20 ./hoist > $OUT/hoist.h100.txt; echo $? > $OUT/hoist.h100.exit
timeout 20 cuobjdump -sass hoist > $OUT/hoist.sass
cat $OUT/hoist.h100.txt
grep -E "Function|FFMA|FADD|FMUL" $OUT/hoist.sass | grep -v "LDG" | head -120
