// A cuda::barrier kernel that reads %globaltimer: each block copies its
// tiles into shared memory with cuda::memcpy_async completing on a
// block-scope barrier and waits for them (libcu++'s wait, which reads
// %globaltimer in its back-off, as warpsim's <cuda/barrier> emits it like
// nvcc's), and thread 0 stamps the block's start and end with
// %globaltimer. The host prints a checksum of the results and of the
// stamps, the launch's span by the stamps and by CUDA events: in the
// simulator these are the same for any number of workers
// (TestCCBarrierClockWorkers). Its PTX (warpsim compile) is also the
// barrier kernel of run.sh's speed-up measurement (barrier.json).
//
//   ./barrier_clock [blocks [tiles]]   (default 264 blocks, 4 tiles)
#include <cuda/barrier>
#include <cstdio>
#include <cstdlib>
#include <vector>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

#define N 256

__device__ unsigned long long gtime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void k_bar(const int* in, int* out, unsigned long long* stamps, int tiles) {
  __shared__ int buf[2][N];
  __shared__ block_barrier bar;
  unsigned long long t0 = gtime();
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const int* src = in + (size_t)blockIdx.x * tiles * N;
  int acc = 0;
  for (int t = 0; t < tiles; t++) {
    int s = t & 1;
    cuda::memcpy_async(&buf[s][threadIdx.x], &src[t * N + threadIdx.x], sizeof(int), bar);
    bar.arrive_and_wait();
    acc += buf[s][(threadIdx.x * 7 + t) % N] * (t + 1);
    bar.arrive_and_wait();
  }
  out[blockIdx.x * N + threadIdx.x] = acc;
  if (threadIdx.x == 0) {
    stamps[2 * blockIdx.x] = t0;
    stamps[2 * blockIdx.x + 1] = gtime();
  }
}

int main(int argc, char** argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 264;
  int tiles = argc > 2 ? atoi(argv[2]) : 4;
  size_t n = (size_t)blocks * tiles * N;
  std::vector<int> h(n);
  for (size_t i = 0; i < n; i++) h[i] = (int)((i * 2654435761u) >> 20) - 2048;
  int *in, *out;
  unsigned long long* stamps;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, (size_t)blocks * N * sizeof(int));
  cudaMalloc(&stamps, 2 * blocks * sizeof(unsigned long long));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0);
  k_bar<<<blocks, N>>>(in, out, stamps, tiles);
  cudaEventRecord(e1);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  std::vector<int> o((size_t)blocks * N);
  std::vector<unsigned long long> st(2 * blocks);
  cudaMemcpy(o.data(), out, o.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(st.data(), stamps, st.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  unsigned long long sum = 0, hs = 1469598103934665603ull, first = ~0ull, last = 0;
  int ordered = 1;
  for (size_t i = 0; i < o.size(); i++) sum = sum * 31 + (unsigned)o[i];
  for (int b = 0; b < blocks; b++) {
    unsigned long long t0 = st[2 * b], t1 = st[2 * b + 1];
    if (t1 <= t0) ordered = 0;
    if (t0 < first) first = t0;
    if (t1 > last) last = t1;
    hs = (hs ^ (t0 - st[0])) * 1099511628211ull;
    hs = (hs ^ (t1 - st[0])) * 1099511628211ull;
  }
  printf("checksum %016llx\n", sum);
  printf("stamps %016llx, every block ends after it starts: %s\n", hs, ordered ? "yes" : "no");
  printf("span by the stamps %llu ns, by events %.6f ms\n", last - first, ms);
  return 0;
}
