// Dynamic parallelism as CUDA 12 allows it: device launches into the
// fire-and-forget and tail-launch named streams; a tail launch runs after
// its parent grid (and the parent's other work) has completed.
// Build with -rdc=true -lcudadevrt.
#include <cstdio>

__device__ int stage[4];

__global__ void child(int *data, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[base + i] += 1000;
}
__global__ void finisher(int *data, int n, int *sum) {
  // runs after the parent and its fire-and-forget children
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(&s, data[i]);
  __syncthreads();
  if (threadIdx.x == 0) { *sum = s; stage[1] = 1; }
}
__global__ void parent(int *data, int n, int *sum) {
  int b = blockIdx.x;
  int chunk = n / gridDim.x;
  for (int i = threadIdx.x; i < chunk; i += blockDim.x) data[b * chunk + i] += b;
  __syncthreads();  // the child sees the block's writes
  if (threadIdx.x == 0) {
    if (b == 0) finisher<<<1, 256, 0, cudaStreamTailLaunch>>>(data, n, sum);
    child<<<(chunk + 63) / 64, 64, 0, cudaStreamFireAndForget>>>(data, b * chunk, chunk);
  }
  if (b == 0 && threadIdx.x == 0) stage[0] = 1;
}
__global__ void depth(int level, int *counts) {
  atomicAdd(&counts[level], 1);
  if (level < 3 && threadIdx.x == 0)
    depth<<<2, 4, 0, cudaStreamFireAndForget>>>(level + 1, counts);
}

int main() {
  const int n = 4096;
  int *d, *sum, *counts, h[n];
  for (int i = 0; i < n; i++) h[i] = i % 10;
  cudaMalloc(&d, sizeof h); cudaMalloc(&sum, 4); cudaMalloc(&counts, 16);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(counts, 0, 16);
  parent<<<8, 128>>>(d, n, sum);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync %s\n", cudaGetErrorName(e));
  int hs, st[4];
  cudaMemcpy(&hs, sum, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(st, stage, sizeof st);
  long long t = 0;
  for (int i = 0; i < n; i++) t += h[i];
  printf("tail sum %d host sum %lld stages %d %d h[600] %d\n", hs, t, st[0], st[1], h[600]);
  depth<<<1, 4>>>(0, counts);
  e = cudaDeviceSynchronize();
  int c[4];
  cudaMemcpy(c, counts, 16, cudaMemcpyDeviceToHost);
  printf("depth %s %d %d %d %d\n", cudaGetErrorName(e), c[0], c[1], c[2], c[3]);
  return 0;
}
