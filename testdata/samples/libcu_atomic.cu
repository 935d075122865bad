// libcu++'s cuda::std::atomic and cuda::atomic_ref in device code, at
// block, device and system scope, from Debian's libcu++-dev (1.8) or the
// CUDA toolkit's own CCCL: counters, fetch operations, compare-exchange
// loops, a spin lock and fences; and cuda::std::identity (CCCL 2, which
// warpsim adds to libcu++ 1.x).
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/functional>
#include <cstdio>

__device__ cuda::atomic<int, cuda::thread_scope_device> counter;
__device__ cuda::std::atomic<unsigned long long> total;

__global__ void work(int *data, int *lockword, float *fsum, int *order) {
  __shared__ cuda::atomic<int, cuda::thread_scope_block> blockCount;
  if (threadIdx.x == 0) blockCount.store(0, cuda::std::memory_order_relaxed);
  __syncthreads();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  blockCount.fetch_add(1, cuda::std::memory_order_relaxed);
  counter.fetch_add(1);
  total.fetch_add((unsigned long long)t * t);
  cuda::atomic_ref<int, cuda::thread_scope_device> d(data[t % 8]);
  d.fetch_max(t);
  cuda::atomic_ref<int, cuda::thread_scope_device> x(data[8]);
  x.fetch_xor(1 << (t % 16));
  cuda::atomic_ref<int, cuda::thread_scope_device> m(data[9]);
  int cur = m.load();
  while (!m.compare_exchange_weak(cur, cur + (t & 3))) {
  }
  // A spin lock around a non-atomic update, once per warp.
  if ((threadIdx.x & 31) == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> lock(*lockword);
    int expected = 0;
    while (!lock.compare_exchange_strong(expected, 1, cuda::std::memory_order_acquire)) expected = 0;
    *fsum += 0.5f;
    order[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = data[10]++;
    lock.store(0, cuda::std::memory_order_release);
  }
  cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_device);
  __syncthreads();
  if (threadIdx.x == 0) data[11 + blockIdx.x] = blockCount.load() + cuda::std::identity{}((int)blockCount.exchange(-1));
}

int main() {
  const int blocks = 4, threads = 128, warps = blocks * threads / 32;
  int *data, *lockword, *order;
  float *fsum;
  cudaMalloc(&data, 16 * sizeof(int));
  cudaMalloc(&lockword, sizeof(int));
  cudaMalloc(&order, warps * sizeof(int));
  cudaMalloc(&fsum, sizeof(float));
  cudaMemset(data, 0, 16 * sizeof(int));
  cudaMemset(lockword, 0, sizeof(int));
  cudaMemset(fsum, 0, sizeof(float));
  work<<<blocks, threads>>>(data, lockword, fsum, order);
  cudaError_t err = cudaDeviceSynchronize();
  int h[16], c, o[warps];
  unsigned long long tot;
  float f;
  cudaMemcpy(h, data, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(o, order, sizeof o, cudaMemcpyDeviceToHost);
  cudaMemcpy(&f, fsum, sizeof f, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&c, counter, sizeof c);
  cudaMemcpyFromSymbol(&tot, total, sizeof tot);
  printf("counter %d total %llu\n", c, tot);
  printf("max");
  for (int i = 0; i < 8; i++) printf(" %d", h[i]);
  printf("\nxor %#x cas-sum %d lock-count %d fsum %g\n", h[8], h[9], h[10], f);
  int seen = 0;
  for (int i = 0; i < warps; i++) seen |= 1 << o[i];
  printf("each warp once under the lock: %s\n", seen == (1 << warps) - 1 ? "yes" : "no");
  printf("block counts %d %d %d %d\n", h[11], h[12], h[13], h[14]);
  printf("lock free %d %d\n", (int)cuda::std::atomic<int>{}.is_lock_free(), (int)cuda::std::atomic<long long>{}.is_lock_free());
  printf("%s\n", cudaGetErrorString(err));
  return 0;
}
