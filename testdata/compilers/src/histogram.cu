// 64-bin histogram with per-block shared-memory atomics, merged with global
// atomics.
#include "check.h"
#define BINS 64
__global__ void histogram(const unsigned char *data, int n, unsigned int *bins) {
  __shared__ unsigned int local[BINS];
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}
int main() {
  const int n = 1 << 18;
  unsigned char *h = (unsigned char *)malloc(n);
  unsigned int ref[BINS] = {0}, got[BINS];
  unsigned int s = 12345;
  for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; h[i] = (unsigned char)(s >> 16); ref[h[i] % BINS]++; }
  unsigned char *d; unsigned int *dbins;
  CHECK(cudaMalloc(&d, n)); CHECK(cudaMalloc(&dbins, sizeof got));
  CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dbins, 0, sizeof got));
  histogram<<<64, 256>>>(d, n, dbins);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, dbins, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < BINS; i++)
    if (got[i] != ref[i]) { printf("FAILED bin %d: %u != %u\n", i, got[i], ref[i]); return 1; }
  printf("bins[0..3] %u %u %u %u\n", got[0], got[1], got[2], got[3]);
  printf("Test PASSED\n");
  return 0;
}
