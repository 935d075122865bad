// Clean: a block reduction with barriers, warp shuffles, a vote and atomics.
// Every tool must report nothing.
#include "common.h"

__global__ void reduce(const int *in, int *sum, int *count, int n) {
  __shared__ int s[256];
  __shared__ int warpSums[8];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= 32; stride /= 2) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t < 32) {
    int v = s[t];
    for (int off = 16; off > 0; off /= 2)
      v += __shfl_down_sync(0xffffffff, v, off);
    unsigned big = __ballot_sync(0xffffffff, s[t] > 0);
    if (t == 0) {
      atomicAdd(sum, v);
      atomicAdd(count, __popc(big));
      warpSums[0] = v;
    }
  }
  __syncthreads();
  if (t == 1 && warpSums[0] < 0)
    atomicAdd(count, 1);
}

int main() {
  const int n = 1000;
  int h[n];
  for (int i = 0; i < n; i++)
    h[i] = i % 7;
  int *in, *sum, *count;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&sum, sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(sum, 0, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  reduce<<<4, 256>>>(in, sum, count, n);
  int hs = 0, hc = 0;
  cudaMemcpy(&hs, sum, sizeof hs, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hc, count, sizeof hc, cudaMemcpyDeviceToHost);
  printf("sum %d count %d\n", hs, hc);
  cudaFree(in);
  cudaFree(sum);
  cudaFree(count);
  return 0;
}
