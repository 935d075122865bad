// synccheck and racecheck: a tree reduction over 128 threads with the
// __syncthreads moved inside `if (t < h)`: from h = 16 on only part of warp 0
// reaches the barrier (the other warps skip it and exit).
#include "common.h"

__global__ void reduce(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int h = 64; h > 0; h >>= 1) {
    if (t < h) {
      s[t] += s[t + h];
      __syncthreads();  // bug: not every thread gets here
    }
  }
  if (t == 0)
    out[0] = s[0];
}

int main() {
  int h[128], *in, *out, r = -1;
  for (int i = 0; i < 128; i++)
    h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  reduce<<<1, 128>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
  printf("sum=%d (8128 expected)\n", r);
  return 0;
}
