// Issue 16, held-out gap: accesses outside an allocation but inside the
// memory the GPU maps for it. Usage: granule MODE OFFSET (bytes from the
// allocation's base; may be negative).
//   r: read the int at OFFSET of a 1000-byte cudaMalloc (the program's first
//      allocation; its bytes set to 0x11 by cudaMemset)
//   w: write 0x5a5a5a5a there, then read it back in a second kernel
//   s: stale: cudaMalloc 2 MiB, memset 0xab, free it, then as r (the new
//      allocation is at the same address or not: printed)
//   b: as r on a 3 MiB allocation
//   L: print the layout of successive cudaMallocs (no OFFSET)
// Results go through mapped host memory, which survives a failed launch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void readAt(const char *base, long long off, volatile unsigned *h) {
  h[0] = *(const volatile unsigned *)(base + off);
  h[1] = 1;
}

__global__ void writeAt(char *base, long long off, volatile unsigned *h) {
  *(volatile unsigned *)(base + off) = 0x5a5a5a5au;
  h[1] = 2;
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  char mode = argv[1][0];
  long long off = argc > 2 ? atoll(argv[2]) : 0;
  char *a = nullptr, *stale = nullptr;
  if (mode == 'L') {
    size_t sizes[] = {1000, 1000, 256, 1, 4096, 1 << 20, 3 << 20, 1000, 2 << 20, 1000};
    char *first = nullptr;
    for (size_t s : sizes) {
      char *p;
      cudaError_t e = cudaMalloc(&p, s);
      if (!first) first = p;
      printf("cudaMalloc(%zu): %s base-first %lld base%%2MiB %zu\n", s, cudaGetErrorName(e), (long long)(p - first),
             (size_t)p % (2 << 20));
    }
    return 0;
  }
  if (mode == 's') {
    cudaMalloc(&stale, 2 << 20);
    cudaMemset(stale, 0xab, 2 << 20);
    cudaDeviceSynchronize();
    cudaFree(stale);
  }
  size_t size = mode == 'b' ? 3 << 20 : 1000;
  cudaError_t e = cudaMalloc(&a, size);
  cudaMemset(a, 0x11, size);
  if (mode == 's') printf("stale: new allocation %s the freed one\n", a == stale ? "at" : "not at");
  unsigned *h;
  cudaHostAlloc(&h, 64, cudaHostAllocMapped);
  h[0] = 0xdeadbeefu;
  h[1] = 0;
  unsigned *dh;
  cudaHostGetDevicePointer(&dh, h, 0);
  printf("alloc %zu: %s base%%2MiB %zu\n", size, cudaGetErrorName(e), (size_t)a % (2 << 20));
  if (mode == 'w') {
    writeAt<<<1, 1>>>(a, off, dh);
    cudaError_t s1 = cudaDeviceSynchronize();
    readAt<<<1, 1>>>(a, off, dh);
    cudaError_t s2 = cudaDeviceSynchronize();
    printf("write %lld: sync %s; read back: sync %s value %#x ran %u\n", off, cudaGetErrorName(s1), cudaGetErrorName(s2), h[0], h[1]);
  } else {
    readAt<<<1, 1>>>(a, off, dh);
    cudaError_t s1 = cudaDeviceSynchronize();
    printf("read %lld: sync %s value %#x ran %u\n", off, cudaGetErrorName(s1), h[0], h[1]);
  }
  return 0;
}
