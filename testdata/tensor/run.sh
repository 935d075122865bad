#!/bin/bash
# Device script: builds and runs the tensor-core and async-copy probes on the
# H100 (nvcc 13, sm_90a), writing recordings under $OUT. Run from the folder
# holding this script, with in/ made by gen.py beside it.
set -x
ARCH="-gencode=arch=compute_90a,code=sm_90a -O2"
mkdir -p out bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
nvcc --version | tail -2
build() {  # name kind instr
  nvcc $ARCH -DKIND=$2 -DNAME="\"$1\"" -DINSTR="\"$3\"" -o bin/$1 probe_mma.cu > bin/$1.log 2>&1 || { echo "BUILD FAIL $1"; head -5 bin/$1.log; }
}
P=mma.sync.aligned
while read name kind instr; do
  [ -z "$name" ] && continue
  build $name $kind "$P.$instr" &
  while [ $(jobs -r | wc -l) -ge 14 ]; do sleep 0.2; done
done <<'LIST'
m16n8k16_f32_f16_f16_f32 1 m16n8k16.row.col.f32.f16.f16.f32
m16n8k16_f16_f16_f16_f16 2 m16n8k16.row.col.f16.f16.f16.f16
m16n8k16_f32_f16_f16_f16 3 m16n8k16.row.col.f32.f16.f16.f16
m16n8k16_f16_f16_f16_f32 4 m16n8k16.row.col.f16.f16.f16.f32
m16n8k16_f32_bf16_bf16_f32 1 m16n8k16.row.col.f32.bf16.bf16.f32
m16n8k8_f32_f16_f16_f32 5 m16n8k8.row.col.f32.f16.f16.f32
m16n8k8_f32_bf16_bf16_f32 5 m16n8k8.row.col.f32.bf16.bf16.f32
m16n8k8_f32_tf32_tf32_f32 1 m16n8k8.row.col.f32.tf32.tf32.f32
m16n8k4_f32_tf32_tf32_f32 5 m16n8k4.row.col.f32.tf32.tf32.f32
m16n8k32_f32_e4m3_e4m3_f32 1 m16n8k32.row.col.f32.e4m3.e4m3.f32
m16n8k32_f32_e5m2_e5m2_f32 1 m16n8k32.row.col.f32.e5m2.e5m2.f32
m16n8k32_f32_e4m3_e5m2_f32 1 m16n8k32.row.col.f32.e4m3.e5m2.f32
m8n8k4_f64_f64_f64_f64 6 m8n8k4.row.col.f64.f64.f64.f64
m16n8k32_s32_s8_s8_s32 7 m16n8k32.row.col.s32.s8.s8.s32
m16n8k32_s32_s8_s8_s32_satfinite 7 m16n8k32.row.col.satfinite.s32.s8.s8.s32
m16n8k32_s32_u8_u8_s32 7 m16n8k32.row.col.s32.u8.u8.s32
m16n8k32_s32_u8_u8_s32_satfinite 7 m16n8k32.row.col.satfinite.s32.u8.u8.s32
m16n8k32_s32_s8_u8_s32 7 m16n8k32.row.col.s32.s8.u8.s32
m16n8k32_s32_s8_u8_s32_satfinite 7 m16n8k32.row.col.satfinite.s32.s8.u8.s32
m16n8k16_s32_s8_s8_s32 8 m16n8k16.row.col.s32.s8.s8.s32
m8n8k16_s32_s8_s8_s32 9 m8n8k16.row.col.s32.s8.s8.s32
m16n8k64_s32_s4_s4_s32 7 m16n8k64.row.col.s32.s4.s4.s32
m16n8k64_s32_u4_u4_s32_satfinite 7 m16n8k64.row.col.satfinite.s32.u4.u4.s32
m16n8k256_s32_b1_b1_s32_xor_popc 7 m16n8k256.row.col.s32.b1.b1.s32.xor.popc
m16n8k256_s32_b1_b1_s32_and_popc 7 m16n8k256.row.col.s32.b1.b1.s32.and.popc
LIST
for p in wmma_probe ldmatrix_probe async_probe gemm_wmma; do
  nvcc $ARCH -o bin/$p $p.cu > bin/$p.log 2>&1 || { echo "BUILD FAIL $p"; head -20 bin/$p.log; } &
done
wait
for b in bin/m*; do case $b in *.log) continue;; esac; ./$b in out || echo "RUN FAIL $b"; done
./bin/wmma_probe || echo "RUN FAIL wmma"
./bin/ldmatrix_probe || echo "RUN FAIL ldmatrix"
./bin/async_probe || echo "RUN FAIL async"
./bin/gemm_wmma > out/gemm_wmma.txt || echo "RUN FAIL gemm"
head -3 out/gemm_wmma.txt
cuobjdump -sass bin/m16n8k16_f32_f16_f16_f32 | grep -E "HMMA|IMMA|DMMA|QMMA" | head -3
cuobjdump -sass bin/m16n8k32_f32_e4m3_e4m3_f32 | grep -E "MMA" | head -5
ls -la out | head -60
tar czf $OUT/rec.tgz out bin/*.log
