// Inclusive prefix sum of each 1024-element block (Hillis-Steele in shared
// memory, double-buffered).
#include "check.h"
__global__ void scan(const int *in, int *out) {
  __shared__ int buf[2][1024];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  int cur = 0;
  buf[cur][t] = in[base + t];
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int nxt = 1 - cur;
    buf[nxt][t] = buf[cur][t] + (t >= off ? buf[cur][t - off] : 0);
    __syncthreads();
    cur = nxt;
  }
  out[base + t] = buf[cur][t];
}
int main() {
  const int blocks = 8, n = blocks * 1024;
  int *h = (int *)malloc(n * sizeof(int)), *r = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = (i * 31) % 17;
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int))); CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
  scan<<<blocks, 1024>>>(din, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int acc = 0;
    for (int i = 0; i < 1024; i++) {
      acc += h[b * 1024 + i];
      if (r[b * 1024 + i] != acc) { printf("FAILED at %d: %d != %d\n", b * 1024 + i, r[b * 1024 + i], acc); return 1; }
    }
    printf("block %d total %d\n", b, acc);
  }
  printf("Test PASSED\n");
  return 0;
}
