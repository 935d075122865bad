// Issue 16 #7: cudaFree / cudaFreeHost while a kernel still runs on a
// cudaStreamNonBlocking stream.
#include <cstdio>
#include <chrono>
#include <cuda_runtime.h>
__global__ void slow(int *p, long long cycles) {
  long long t = clock64();
  while (clock64() - t < cycles) {}
  p[threadIdx.x] = 42;
}
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main() {
  cudaStream_t s;
  printf("create: %s\n", cudaGetErrorName(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)));
  int *d, *h;
  cudaMalloc(&d, 128);
  cudaMallocHost(&h, 128);
  slow<<<1, 32, 0, s>>>(d, 1000000000LL);  // about half a second
  double t0 = now();
  cudaError_t e = cudaFree(d);
  double t1 = now();
  printf("cudaFree: %s, waited for the stream: %s\n", cudaGetErrorName(e), t1 - t0 > 0.2 ? "yes" : "no");
  printf("stream sync: %s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
  int *d2;
  cudaMalloc(&d2, 128);
  slow<<<1, 32, 0, s>>>(d2, 1000000000LL);
  cudaMemcpyAsync(h, d2, 128, cudaMemcpyDeviceToHost, s);
  t0 = now();
  e = cudaFreeHost(h);
  t1 = now();
  printf("cudaFreeHost: %s, waited for the stream: %s\n", cudaGetErrorName(e), t1 - t0 > 0.2 ? "yes" : "no");
  printf("stream sync: %s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
