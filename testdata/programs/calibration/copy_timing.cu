// The figures behind cuda/runtime/timing.go: event-timed copies and
// memsets of several sizes, pinned and pageable, on the real GPU; and the
// wall time of a 1 GiB cudaMemcpy round trip. Not compared by tests: a
// record of where the runtime's copy model comes from.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>

static float timeIt(cudaEvent_t a, cudaEvent_t b) { float ms = 0; cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b); return ms; }

int main() {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  size_t maxN = (size_t)1 << 30;
  char *pinned, *pageable = (char *)malloc(maxN), *d, *d2;
  cudaMallocHost(&pinned, maxN);
  cudaMalloc(&d, maxN);
  cudaMalloc(&d2, maxN);
  memset(pageable, 1, maxN);
  memset(pinned, 1, maxN);
  printf("bytes,kind,ms,GB/s\n");
  for (size_t n = 4; n <= maxN; n *= 16) {
    for (int rep = 0; rep < 2; rep++) {
      struct { const char *name; void *dst; const void *src; cudaMemcpyKind k; } cases[] = {
        {"H2D pinned", d, pinned, cudaMemcpyHostToDevice},
        {"D2H pinned", pinned, d, cudaMemcpyDeviceToHost},
        {"H2D pageable", d, pageable, cudaMemcpyHostToDevice},
        {"D2H pageable", pageable, d, cudaMemcpyDeviceToHost},
        {"D2D", d2, d, cudaMemcpyDeviceToDevice},
      };
      for (auto &c : cases) {
        cudaEventRecord(a);
        cudaMemcpyAsync(c.dst, c.src, n, c.k);
        cudaEventRecord(b);
        float ms = timeIt(a, b);
        if (rep) printf("%zu,%s,%.6f,%.2f\n", n, c.name, ms, n / (ms * 1e6));
      }
      cudaEventRecord(a);
      cudaMemsetAsync(d, 0, n);
      cudaEventRecord(b);
      float ms = timeIt(a, b);
      if (rep) printf("%zu,memset,%.6f,%.2f\n", n, ms, n / (ms * 1e6));
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  cudaMemcpy(d, pageable, maxN, cudaMemcpyHostToDevice);
  cudaMemcpy(pageable, d, maxN, cudaMemcpyDeviceToHost);
  auto t1 = std::chrono::steady_clock::now();
  printf("1 GiB pageable round trip wall time: %.3f s\n", std::chrono::duration<double>(t1 - t0).count());
  return 0;
}
