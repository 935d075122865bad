// Diagnostic: does CUDA 13 accept cudaLimitDevRuntimeSyncDepth in a
// program built for sm_90, for compute_80 (PTX JIT-compiled for the H100),
// or with -rdc=true -lcudadevrt? record.sh builds this three ways.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int *p) { *p = 1; }
int main() {
  int *d;
  cudaMalloc(&d, 4);
  k<<<1, 1>>>(d);
  cudaError_t le = cudaDeviceSynchronize();
  size_t v = 77;
  cudaError_t g = cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth);
  printf("launch %s get %s %zu\n", cudaGetErrorName(le), cudaGetErrorName(g), v);
  cudaError_t s = cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4);
  v = 77;
  g = cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth);
  printf("set 4 %s get %s %zu\n", cudaGetErrorName(s), cudaGetErrorName(g), v);
  int rv = 0, dv = 0;
  cudaRuntimeGetVersion(&rv);
  cudaDriverGetVersion(&dv);
  printf("runtime %d driver %d CUDART_VERSION %d\n", rv, dv, (int)CUDART_VERSION);
  return 0;
}
