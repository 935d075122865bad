// Error paths: a launch configuration error (not sticky), then a
// misaligned access caught by cudaDeviceSynchronize, which is sticky: later
// calls fail with it too. The exit status says what was seen.
#include <cstdio>
#include <cstdlib>

__global__ void ok(int *p) { p[threadIdx.x] = threadIdx.x; }
__global__ void misaligned(int *p) {
  if (threadIdx.x == 5) {
    long long *q = (long long *)((char *)p + 4);
    *q = 1;
  }
}

int main() {
  int *d;
  cudaMalloc(&d, 1024);
  ok<<<1, 2048>>>(d);
  cudaError_t e = cudaGetLastError();
  printf("too many threads: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("after it: %s\n", cudaGetErrorName(cudaGetLastError()));
  ok<<<1, 32>>>(d);
  printf("ok launch: %s sync %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
  misaligned<<<1, 32>>>(d);
  printf("misaligned launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t s = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorName(s));
  printf("peek: %s\n", cudaGetErrorName(cudaPeekAtLastError()));
  printf("last: %s\n", cudaGetErrorName(cudaGetLastError()));
  int h = 0;
  cudaError_t m = cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
  printf("memcpy after: %s\n", cudaGetErrorName(m));
  void *p2;
  printf("malloc after: %s\n", cudaGetErrorName(cudaMalloc(&p2, 16)));
  fflush(stdout);
  return s == cudaErrorMisalignedAddress ? 3 : 4;
}
