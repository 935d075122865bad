// Issue 16 #11: device-side launches asking for more dynamic shared memory
// than a block can have. Build with -rdc=true -lcudadevrt.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void child(int *c) {
  extern __shared__ char s[];
  if (threadIdx.x == 0) { s[0] = 1; atomicAdd(c, 1); }
}
__global__ void parent(int *c, size_t smem, int *err) {
  child<<<1, 32, smem>>>(c);
  err[0] = (int)cudaGetLastError();
}
int main() {
  int *c, *err;
  cudaMalloc(&c, 4);
  cudaMalloc(&err, 4);
  size_t sizes[] = {48 << 10, 232448, 232449, 300 << 10, 1ULL << 30, 4ULL << 30, (4ULL << 30) + 1024};
  for (size_t n : sizes) {
    int hc = -1, he = -1;
    cudaMemset(c, 0, 4);
    cudaMemset(err, 0xff, 4);
    parent<<<1, 1>>>(c, n, err);
    cudaError_t l = cudaGetLastError();
    cudaError_t s = cudaDeviceSynchronize();
    cudaMemcpy(&hc, c, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(&he, err, 4, cudaMemcpyDeviceToHost);
    printf("device launch smem %zu: launch %s sync %s child error %s children ran %d\n", n, cudaGetErrorName(l), cudaGetErrorName(s), cudaGetErrorName((cudaError_t)he), hc);
    cudaMemset(c, 0, 4);
    child<<<1, 32, n>>>(c);
    l = cudaGetLastError();
    s = cudaDeviceSynchronize();
    cudaMemcpy(&hc, c, 4, cudaMemcpyDeviceToHost);
    printf("host launch smem %zu: launch %s sync %s ran %d\n", n, cudaGetErrorName(l), cudaGetErrorName(s), hc);
  }
  return 0;
}
