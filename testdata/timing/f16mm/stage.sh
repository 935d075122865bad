#!/bin/bash
# Makes the instrumented launch files of run.sh in $1/stamps (D=/work/main/.dev/mmaf16, staged as run.sh says):
# each matmul's sm_90 and sm_80 PTX with %clock64 stamps (instrument.py), and ablations (variants.py): the
# 128x128x64 f16 matmul (sm_90) without its wgmma, its 16-byte copies or its epilogue's global stores; the masked
# f16 matmul (sm_90) without its 2-byte global loads or its 2-byte global stores; the 64x64x32 f16 matmul without
# its copies (sm_90 and sm_80) and without its mma.sync (sm_80).
set -e
D=$1
cd $D
for k in mm_f16_64x64x32_s3 mm_f16_128x128x64_s4 mm_f16_masked_s2 mm_fp8e4m3_64x64x64_s3 grouped_gemm_f16 mm_bf16_64x128x32_s3; do
  python3 instrument.py triton/$k stamps ${k}_sm90
  if [ -f triton/$k/launch_sm80.json ]; then python3 instrument.py triton/$k stamps ${k}_sm80 launch_sm80.json; fi
done
python3 variants.py stamps mm_f16_128x128x64_s4_sm90 nowgmma 'wgmma\.mma_async' nocopy 'cp\.async\.cg\.shared\.global' \
  nostore '^\s*@%p\d+ st\.global\.v4\.b32'
python3 variants.py stamps mm_f16_masked_s2_sm90 noload 'ld\.global\.b16' nostore 'st\.global\.b16'
python3 variants.py stamps mm_f16_64x64x32_s3_sm90 nocopy 'cp\.async\.cg\.shared\.global'
python3 variants.py stamps mm_f16_64x64x32_s3_sm80 nocopy 'cp\.async\.cg\.shared\.global' nomma 'mma\.sync'
