// halfadd.cu: atomicAdd on __half, __half2, __nv_bfloat16 and
// __nv_bfloat162 from 256 threads, each adding 1.0 (to both halves of the
// pairs): every partial sum is an integer up to 256, exact in both formats,
// so the result is 256.0 whatever the order (f16 0x5c00, bf16 0x4380).
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

struct Acc {
  __half h;
  __nv_bfloat16 b;
  __half2 h2;
  __nv_bfloat162 b2;
};

__global__ void add(Acc *a) {
  atomicAdd(&a->h, __float2half(1.0f));
  atomicAdd(&a->b, __float2bfloat16(1.0f));
  atomicAdd(&a->h2, __floats2half2_rn(1.0f, 1.0f));
  atomicAdd(&a->b2, __floats2bfloat162_rn(1.0f, 1.0f));
}

int main() {
  Acc *d, h;
  cudaMalloc(&d, sizeof(Acc));
  cudaMemset(d, 0, sizeof(Acc));
  add<<<2, 128>>>(d);
  cudaMemcpy(&h, d, sizeof(Acc), cudaMemcpyDeviceToHost);
  unsigned short w[6];
  memcpy(w, &h, sizeof w);
  printf("%04x %04x %04x %04x %04x %04x\n", w[0], w[1], w[2], w[3], w[4], w[5]);
  return 0;
}
