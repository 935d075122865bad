// 64 MiB each way between pageable memory, pinned memory and the device:
// the bytes must not cross the pipe to the simulator.
#include <cstdio>
#include <cstdlib>
#include <cstring>
int main() {
  size_t n = 64 << 20;
  char *h = (char *)malloc(n), *back = (char *)malloc(n), *pinned, *d;
  for (size_t i = 0; i < n; i++) h[i] = (char)(i * 7);
  cudaMallocHost(&pinned, n);
  cudaMalloc(&d, n);
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
  cudaMemcpy(pinned, d, n, cudaMemcpyDeviceToHost);
  cudaMemcpyAsync(d, pinned, n, cudaMemcpyHostToDevice, 0);
  cudaMemcpy(back, d, n, cudaMemcpyDeviceToHost);
  printf("%s %s\n", memcmp(h, pinned, n) ? "pinned differs" : "pinned equal", memcmp(h, back, n) ? "back differs" : "back equal");
  // The simulated clock: 64 MiB from pageable memory at the H100's rate
  // (52 GB/s pinned, 0.14 of it pageable: 9.2 ms; the H100 took 10.2 ms).
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  printf("64 MiB pageable copy between 8 and 11 ms: %s\n", ms > 8 && ms < 11 ? "yes" : "no");
  printf("a copy past the end: %s\n", cudaGetErrorName(cudaMemcpy(d + n - 8, h, 64, cudaMemcpyHostToDevice)));
  return 0;
}
