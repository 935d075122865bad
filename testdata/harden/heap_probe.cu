// Probes device malloc on a GPU: how much of an 8 MiB heap one thread and
// many threads get, and what free() of pointers the heap did not make does.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
__global__ void count(size_t n, int max, int *got) {
  int k = 0;
  void *keep[4096];
  for (; k < max && k < 4096; k++) {
    keep[k] = malloc(n);
    if (!keep[k]) break;
  }
  got[0] = k;
  for (int i = 0; i < k; i++) free(keep[i]);
}
__global__ void many(size_t n, int *got) {
  void *p = malloc(n);
  atomicAdd(got, p != NULL);
  __syncthreads();
  free(p);
}
__global__ void badfree(int *p, int mode) {
  if (mode == 0) free(p);                   // a cudaMalloc pointer
  if (mode == 1) { void *q = malloc(16); free(q); free(q); }  // double free
  if (mode == 2) free((char *)malloc(64) + 8);  // interior pointer
  if (mode == 3) free((void *)0);           // NULL
}
int main(int argc, char **argv) {
  int *d, h;
  cudaMalloc(&d, sizeof(int));
  if (argc > 1) {
    int mode = atoi(argv[1]);
    badfree<<<1, 1>>>(d, mode);
    cudaError_t e = cudaDeviceSynchronize();
    printf("badfree mode %d: %s\n", mode, cudaGetErrorName(e));
    return 0;
  }
  size_t sizes[] = {16, 1024, 65536, 1 << 20, 4 << 20, 8 << 20};
  for (size_t n : sizes) {
    cudaMemset(d, 0, sizeof(int));
    count<<<1, 1>>>(n, 4096, d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("one thread, malloc(%zu) until NULL: %d allocations (%s)\n", n, h, cudaGetErrorName(e));
  }
  size_t msizes[] = {1024, 8192, 65536};
  for (size_t n : msizes) {
    cudaMemset(d, 0, sizeof(int));
    many<<<8, 256>>>(n, d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("2048 threads, malloc(%zu) each: %d non-NULL (%s)\n", n, h, cudaGetErrorName(e));
  }
  return 0;
}
