// synccheck: threads past n return early, then the rest shift values with
// __shfl_down_sync(0xffffffff, ...): the mask names 12 lanes that exited.
#include "common.h"

__global__ void shift(const int *in, int *out, int n) {
  int t = threadIdx.x;
  if (t >= n)
    return;
  int v = in[t];
  int w = __shfl_down_sync(0xffffffff, v, 1);  // bug: lanes n..31 are gone
  out[t] = v + w;
}

int main() {
  int h[32], *in, *out;
  for (int i = 0; i < 32; i++)
    h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  shift<<<1, 32>>>(in, out, 20);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  int s = 0;
  for (int i = 0; i < 19; i++)
    s += h[i];
  printf("sum of out[0..18]=%d\n", s);
  return 0;
}
