// The occupancy calculator API on small kernels: blocks per SM for block
// sizes and dynamic shared memory, the suggested block size, the dynamic
// shared memory still available.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void tile_sum(const float *x, float *out) {
  __shared__ float tile[4096];
  int t = threadIdx.x;
  for (int i = t; i < 4096; i += blockDim.x) tile[i] = x[i];
  __syncthreads();
  if (t == 0) { float s = 0; for (int i = 0; i < 4096; i++) s += tile[i]; *out = s; }
}

extern __shared__ float dyn[];
__global__ void dyn_sum(const float *x, float *out, int n) {
  int t = threadIdx.x;
  dyn[t] = t < n ? x[t] : 0.f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (t < s) dyn[t] += dyn[t + s]; __syncthreads(); }
  if (t == 0) *out = dyn[0];
}

struct SmemPerBlock {
  __host__ __device__ size_t operator()(int blockSize) const { return blockSize * sizeof(float); }
};

int main() {
  int sizes[] = {32, 64, 96, 128, 256, 512, 768, 1024};
  for (int bs : sizes) {
    int a = -1, b = -1, c = -1, d = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&a, axpy, bs, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, tile_sum, bs, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&c, dyn_sum, bs, bs * sizeof(float));
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&d, axpy, bs, 48 * 1024);
    printf("block %4d: axpy %2d tile_sum %2d dyn_sum %2d axpy+48K %2d\n", bs, a, b, c, d);
  }
  size_t smems[] = {0, 1024, 16384, 32768, 65536, 100000};
  for (size_t s : smems) {
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, axpy, 128, s);
    printf("axpy block 128 dyn %6zu: %d (%s)\n", s, n, cudaGetErrorName(e));
  }
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, axpy, 0, 0);
  printf("MaxPotentialBlockSize axpy: minGrid %d block %d\n", minGrid, block);
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, tile_sum, 0, 0);
  printf("MaxPotentialBlockSize tile_sum: minGrid %d block %d\n", minGrid, block);
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, axpy, 0, 200);
  printf("MaxPotentialBlockSize axpy limit 200: minGrid %d block %d\n", minGrid, block);
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, dyn_sum, 40000, 0);
  printf("MaxPotentialBlockSize dyn_sum 40000B: minGrid %d block %d\n", minGrid, block);
  cudaOccupancyMaxPotentialBlockSizeVariableSMem(&minGrid, &block, dyn_sum, SmemPerBlock(), 0);
  printf("VariableSMem dyn_sum 4B/thread: minGrid %d block %d\n", minGrid, block);
  size_t avail = 0;
  int bss[] = {32, 128, 256, 1024};
  for (int bs : bss) {
    for (int nb = 1; nb <= 4; nb *= 2) {
      cudaError_t e = cudaOccupancyAvailableDynamicSMemPerBlock(&avail, dyn_sum, nb, bs);
      printf("AvailableDynamicSMem dyn_sum blocks %d block %4d: %zu (%s)\n", nb, bs, avail, cudaGetErrorName(e));
    }
  }
  cudaOccupancyAvailableDynamicSMemPerBlock(&avail, tile_sum, 2, 256);
  printf("AvailableDynamicSMem tile_sum 2x256: %zu\n", avail);
  int n = -1;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, axpy, 2048, 0);
  printf("block 2048: %d (%s)\n", n, cudaGetErrorName(e));
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, axpy, 0, 0);
  printf("block 0: %d (%s)\n", n, cudaGetErrorName(e));
  // Use the suggestion.
  int N = 100000;
  float *x, *y;
  cudaMalloc(&x, N * 4); cudaMalloc(&y, N * 4);
  cudaMemset(x, 0, N * 4); cudaMemset(y, 0, N * 4);
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, axpy, 0, 0);
  axpy<<<(N + block - 1) / block, block>>>(2.f, x, y, N);
  printf("launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
