// racecheck: a 64-thread block builds an 8-bin histogram in shared memory
// with a plain increment instead of atomicAdd. Lanes of one warp and the two
// warps both update the same bins between the same two barriers.
#include "common.h"

__global__ void hist(const int *in, int *out) {
  __shared__ int bins[8];
  int t = threadIdx.x;
  if (t < 8)
    bins[t] = 0;
  __syncthreads();
  bins[in[t] & 7] += 1;  // bug: not atomicAdd(&bins[...], 1)
  __syncthreads();
  if (t < 8)
    out[t] = bins[t];
}

int main() {
  int h[64], *in, *out;
  for (int i = 0; i < 64; i++)
    h[i] = (i * 5) % 8;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 8 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  hist<<<1, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  int total = 0;
  for (int i = 0; i < 8; i++)
    total += h[i];
  printf("updates lost: %s\n", total < 64 ? "yes" : "no");
  return 0;
}
