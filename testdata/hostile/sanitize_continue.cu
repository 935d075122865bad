// Issue 16: does compute-sanitizer let a kernel go on after an error it
// reports? Usage: sanitize_continue MODE
//   blocks: 600 blocks of 1024 threads; thread 0 of each makes 2 invalid
//           writes (past a 256-byte allocation), then sets its block's flag
//   threads: 1 block of 96 threads, each makes 2 invalid writes then sets
//           its flag
//   readval: 1 block of 32 threads, each reads 1 GiB past the allocation
//           and stores what it read in its flag (suppressed read's value)
//   sync:   4 blocks of 64 threads; half of each warp reaches
//           __syncthreads; every thread then sets its flag
// Flags are in mapped host memory, which survives the failed launch; the
// program prints how many were set.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void blocks(volatile int *p, volatile int *flag) {
  if (threadIdx.x == 0) {
    for (int k = 0; k < 2; k++) p[64 + blockIdx.x * 8 + k] = k;
    flag[blockIdx.x] = 1;
  }
}

__global__ void threads(volatile int *p, volatile int *flag) {
  int t = threadIdx.x;
  for (int k = 0; k < 2; k++) p[64 + t * 2 + k] = k;
  flag[t] = 1;
}

__global__ void readval(volatile int *p, volatile int *flag) {
  int t = threadIdx.x;
  flag[t] = p[(1 << 28) + t] + 1000;
}

__global__ void halfSync(volatile int *p, volatile int *flag) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  if (t % 32 < 16) __syncthreads();
  p[t] = s[63 - t];
  flag[blockIdx.x * 64 + t] = 1;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "blocks";
  int *p, *h, *dh;
  cudaMalloc(&p, 256);
  const int n = 1024;
  cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped);
  memset(h, 0, n * sizeof(int));
  cudaHostGetDevicePointer(&dh, h, 0);
  int want;
  if (!strcmp(mode, "blocks")) {
    blocks<<<600, 1024>>>(p, dh);
    want = 600;
  } else if (!strcmp(mode, "threads")) {
    threads<<<1, 96>>>(p, dh);
    want = 96;
  } else if (!strcmp(mode, "readval")) {
    readval<<<1, 32>>>(p, dh);
    want = 32;
  } else {
    halfSync<<<4, 64>>>(p, dh);
    want = 256;
  }
  cudaError_t e = cudaDeviceSynchronize();
  int set = 0, first = -1, last = -1;
  for (int i = 0; i < want; i++)
    if (h[i]) {
      set++;
      if (first < 0) first = i;
      last = i;
    }
  printf("%s: sync %s; flags set %d of %d (first %d, last %d); flag[0] = %d\n", mode, cudaGetErrorName(e), set, want, first, last, h[0]);
  return 0;
}
