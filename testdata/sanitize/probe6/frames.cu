// Where call frames lie in a thread's local memory: the kernel and a
// recursive __noinline__ function print the local-space address
// (__cvta_generic_to_local) of their arrays, at the default stack limit
// and after cudaDeviceSetLimit(cudaLimitStackSize, 4096), in threads 0
// and 33.
#include <cstdio>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)

__device__ __noinline__ int down(int depth, int n, int *seed) {
  int a[6];
  for (int i = 0; i < 6; i++)
    a[i] = seed[i % 4] + depth;
  printf("thread %d depth %d array at %#llx\n", threadIdx.x, depth, (unsigned long long)__cvta_generic_to_local(a));
  int r = a[n % 6];
  if (depth < n)
    r += down(depth + 1, n, a);
  return r;
}

__global__ void frames(int *out, int n) {
  int k[4];
  for (int i = 0; i < 4; i++)
    k[i] = threadIdx.x * i;
  if (threadIdx.x == 0 || threadIdx.x == 33) {
    printf("thread %d kernel array at %#llx\n", threadIdx.x, (unsigned long long)__cvta_generic_to_local(k));
    out[threadIdx.x] = down(1, n, k);
  }
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  frames<<<1, 64>>>(out, 3);
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  frames<<<1, 64>>>(out, 3);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
