// Issue 16 #16: cudaMallocPitch / cudaMalloc3D sizes whose product overflows.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
int main() {
  size_t cases[][2] = {{1ULL << 32, 1ULL << 32}, {SIZE_MAX / 2, 4}, {1ULL << 63, 2}, {8, SIZE_MAX}, {SIZE_MAX, 1}, {0, 5}, {5, 0}, {1000, 1000}};
  for (auto &c : cases) {
    void *p = (void *)1;
    size_t pitch = 12345;
    cudaError_t e = cudaMallocPitch(&p, &pitch, c[0], c[1]);
    printf("cudaMallocPitch(%zu, %zu): %s pitch %zu ptr %s\n", c[0], c[1], cudaGetErrorName(e), pitch, p == 0 ? "null" : p == (void *)1 ? "untouched" : "set");
    if (e == cudaSuccess && p) cudaFree(p);
    cudaGetLastError();
  }
  size_t ext[][3] = {{1ULL << 32, 1ULL << 32, 2}, {1ULL << 22, 1ULL << 22, 1ULL << 22}, {SIZE_MAX, 1, 1}, {512, 1ULL << 40, 1ULL << 30}, {0, 4, 4}, {64, 64, 64}};
  for (auto &x : ext) {
    cudaPitchedPtr pp = {};
    pp.pitch = 12345;
    cudaError_t e = cudaMalloc3D(&pp, make_cudaExtent(x[0], x[1], x[2]));
    printf("cudaMalloc3D(%zu, %zu, %zu): %s pitch %zu ptr %s\n", x[0], x[1], x[2], cudaGetErrorName(e), pp.pitch, pp.ptr ? "set" : "null");
    if (e == cudaSuccess && pp.ptr) cudaFree(pp.ptr);
    cudaGetLastError();
  }
  return 0;
}
