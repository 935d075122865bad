// initcheck: only the first half of the input is copied; thread 40 reads
// from the second half.
#include "common.h"

__global__ void gather(const int *in, int *out) {
  int t = threadIdx.x;
  if (t < 32 || t == 40)
    out[t] = in[t];
}

int main() {
  int *in, *out, h[32];
  for (int i = 0; i < 32; i++)
    h[i] = i;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  gather<<<1, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
