// Sum reduction with warp shuffles and one atomic per block.
#include "check.h"
__inline__ __device__ int warpSum(int v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  return v;
}
__global__ void reduce(const int *in, int *out, int n) {
  __shared__ int partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  v = warpSum(v);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0;
    v = warpSum(v);
    if (lane == 0) atomicAdd(out, v);
  }
}
int main() {
  const int n = 1 << 20;
  int *h = (int *)malloc(n * sizeof(int));
  long long ref = 0;
  for (int i = 0; i < n; i++) { h[i] = (i * 7) % 13 - 6; ref += h[i]; }
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int))); CHECK(cudaMalloc(&dout, sizeof(int)));
  CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, sizeof(int)));
  reduce<<<(n + 511) / 512, 512>>>(din, dout, n);
  CHECK(cudaGetLastError());
  int got;
  CHECK(cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDeviceToHost));
  printf("sum %d reference %lld\n", got, ref);
  printf(got == ref ? "Test PASSED\n" : "Test FAILED\n");
  return got == ref ? 0 : 1;
}
