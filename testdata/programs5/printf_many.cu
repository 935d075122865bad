// printf from many threads: every lane of two warps, then one line per
// block from several blocks (one at a time), formats with several arguments.
#include <cstdio>

__global__ void lanes(int tag) {
  int t = threadIdx.x;
  printf("tag %d warp %d lane %2d value %5.2f hex %04x\n", tag, t / 32, t % 32, t * 0.25f, t * 257);
}
__global__ void per_block(int b0) {
  if (threadIdx.x == 0) printf("block %d of %d (%d threads) dims %d,%d,%d\n", b0 + blockIdx.x, gridDim.x, blockDim.x, blockDim.x, blockDim.y, blockDim.z);
}
__global__ void divergent() {
  int t = threadIdx.x;
  if (t % 3 == 0) printf("div %d: multiple of three\n", t);
  else if (t % 3 == 1) printf("div %d: one more (%s)\n", t, t & 1 ? "odd" : "even");
}

int main() {
  lanes<<<1, 64>>>(7);
  cudaDeviceSynchronize();
  for (int b = 0; b < 4; b++) {
    per_block<<<1, 96>>>(b);
    cudaDeviceSynchronize();
  }
  divergent<<<1, 16>>>();
  cudaDeviceSynchronize();
  printf("host done: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
