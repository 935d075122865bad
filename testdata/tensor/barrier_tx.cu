// cuda::barrier with bulk copies counted in bytes (Hopper):
// cuda::device::memcpy_async_tx with barrier_arrive_tx, and with
// barrier_expect_tx followed by plain arrivals. Not recorded on the H100
// (written after the device calls): the program checks itself against sums
// the host computes from the same inputs and prints "ok" per kernel.
#include <cuda/barrier>
#include <cstdio>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
#define TILE 1024

template <bool ARRIVE_TX>
__global__ void k_tx(const int* in, int* out, int tiles) {
  __shared__ alignas(128) int smem[2][TILE];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const int* src = in + (size_t)blockIdx.x * tiles * TILE;
  int acc = 0;
  for (int t = 0; t < tiles; t++) {
    int s = t & 1;
    block_barrier::arrival_token tok;
    if (threadIdx.x == 0) {
      if (!ARRIVE_TX) cuda::device::barrier_expect_tx(bar, TILE * sizeof(int));
      cuda::device::memcpy_async_tx(smem[s], src + t * TILE, cuda::aligned_size_t<16>(TILE / 2 * sizeof(int)), bar);
      cuda::device::memcpy_async_tx(smem[s] + TILE / 2, src + t * TILE + TILE / 2, cuda::aligned_size_t<16>(TILE / 2 * sizeof(int)), bar);
      tok = ARRIVE_TX ? cuda::device::barrier_arrive_tx(bar, 1, TILE * sizeof(int)) : bar.arrive();
    } else {
      tok = bar.arrive();
    }
    bar.wait(static_cast<block_barrier::arrival_token&&>(tok));
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) acc += smem[s][(i * 3 + t) % TILE] * (t + 1);
    bar.arrive_and_wait();  // every thread has read the tile before it is refilled
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  const int blocks = 3, threads = 128, tiles = 5, total = blocks * tiles * TILE;
  int *hin = new int[total], *hout = new int[blocks * threads];
  for (int i = 0; i < total; i++) hin[i] = (int)((i * 2246822519u) >> 9) % 2001 - 1000;
  int *din, *dout;
  cudaMalloc(&din, total * sizeof(int));
  cudaMalloc(&dout, blocks * threads * sizeof(int));
  cudaMemcpy(din, hin, total * sizeof(int), cudaMemcpyHostToDevice);
  for (int k = 0; k < 2; k++) {
    cudaMemset(dout, 0, blocks * threads * sizeof(int));
    if (k == 0)
      k_tx<true><<<blocks, threads>>>(din, dout, tiles);
    else
      k_tx<false><<<blocks, threads>>>(din, dout, tiles);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(hout, dout, blocks * threads * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < blocks; b++)
      for (int x = 0; x < threads; x++) {
        int want = 0;
        for (int t = 0; t < tiles; t++)
          for (int i = x; i < TILE; i += threads) want += hin[(b * tiles + t) * TILE + (i * 3 + t) % TILE] * (t + 1);
        bad += hout[b * threads + x] != want;
      }
    printf("%s %s\n", k == 0 ? "arrive_tx" : "expect_tx", e != cudaSuccess ? cudaGetErrorString(e) : bad ? "MISMATCH" : "ok");
  }
  return 0;
}
