// memcheck and synccheck: one thread loads 100 bytes (25 floats) into shared
// memory with cp.async.bulk, whose size must be a multiple of 16; the wait is
// bounded so a phase that never completes cannot hang the program.
#include "common.h"

__global__ void load(const float *in, float *out, int *done) {
  __shared__ uint64_t bar;
  __shared__ __align__(16) float buf[32];
  int t = threadIdx.x;
  if (t == 0) {
    mbar_init(&bar, 1);
    mbar_expect(&bar, 100);
    bulk_load(buf, in, 100, &bar);  // bug: 100 is not a multiple of 16
  }
  __syncthreads();
  bool ok = mbar_wait(&bar, 0, 200);
  if (t == 0)
    *done = ok;
  if (ok && t < 25)
    out[t] = buf[t];
}

int main() {
  float h[32], *in, *out;
  int *done, d = -1;
  for (int i = 0; i < 32; i++)
    h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&done, sizeof d);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  load<<<1, 32>>>(in, out, done);
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaMemcpy(&d, done, sizeof d, cudaMemcpyDeviceToHost));
  printf("done=%d\n", d);
  return 0;
}
