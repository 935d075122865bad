// Four host threads, each with its own stream and buffers, launch kernels
// and copy results concurrently; the last error is per host thread.
#include "check.h"
#include <thread>
#include <vector>
__global__ void iota(int *p, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}
int main() {
  const int n = 4096, T = 4;
  std::vector<int> bad(T, 0);
  std::vector<std::thread> ts;
  for (int t = 0; t < T; t++)
    ts.emplace_back([t, &bad] {
      cudaStream_t s;
      int *d;
      std::vector<int> h(n);
      CHECK(cudaStreamCreate(&s));
      CHECK(cudaMalloc(&d, n * sizeof(int)));
      for (int round = 0; round < 8; round++) {
        iota<<<(n + 255) / 256, 256, 0, s>>>(d, t * 100000 + round, n);
        CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < n; i++) bad[t] += h[i] != t * 100000 + round + i;
      }
      // A block of 4096 threads is refused (cudaErrorInvalidValue with CUDA
      // 13); the error is seen by this thread only.
      if (t == 2) iota<<<1, 4096, 0, s>>>(d, 0, n);
      cudaError_t e = cudaGetLastError();
      if ((t == 2) != (e == cudaErrorInvalidValue)) bad[t]++;
      CHECK(cudaFree(d));
      CHECK(cudaStreamDestroy(s));
    });
  for (auto &th : ts) th.join();
  int total = 0;
  for (int t = 0; t < T; t++) { printf("thread %d: %d wrong\n", t, bad[t]); total += bad[t]; }
  printf(total == 0 ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
