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
  return 0;
}
