// Clean: a shared-memory histogram with shared and global atomics, a
// __syncwarp and match/any; every tool must report nothing.
#include "common.h"

__global__ void histogram(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned local[16];
  int t = threadIdx.x;
  if (t < 16)
    local[t] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
    unsigned b = in[i] % 16;
    atomicAdd(&local[b], 1u);
  }
  __syncwarp();
  unsigned peers = __match_any_sync(0xffffffff, t / 4);
  if (__any_sync(0xffffffff, peers == 0))
    atomicAdd(&local[0], 1u);
  __syncthreads();
  if (t < 16)
    atomicAdd(&bins[t], local[t]);
}

int main() {
  const int n = 5000;
  unsigned char h[n];
  for (int i = 0; i < n; i++)
    h[i] = (unsigned char)(i * 7);
  unsigned char *in;
  unsigned *bins, hb[16];
  cudaMalloc(&in, n);
  cudaMalloc(&bins, sizeof hb);
  cudaMemcpy(in, h, n, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, sizeof hb);
  histogram<<<3, 128>>>(in, bins, n);
  cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost);
  unsigned total = 0;
  for (int i = 0; i < 16; i++)
    total += hb[i];
  printf("total %u\n", total);
  cudaFree(in);
  cudaFree(bins);
  return 0;
}
