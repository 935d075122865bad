// memcheck: the kernel writes its own local array k[4] at an index it
// cannot know (read from global memory, so the compiler must make the
// store), past the array's end by IDX-3 ints, then reads the array back;
// with CALL, a __noinline__ function is called first (as in probe6's
// local_below). Prints where k and the written int lie in local memory.
// Usage: local_past IDX CALL (CALL 0 or 1).
#include <cstdio>
#include <cstdlib>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)

__device__ __noinline__ int callee(int v) {
  int a[4];
  for (int j = 0; j < 4; j++)
    a[j] = v + j;
  return a[v & 3];
}

__global__ void kernel(int *out, const int *idx, int call, unsigned long long *where) {
  int k[4];
  for (int j = 0; j < 4; j++)
    k[j] = out[j];
  if (call)
    out[0] = callee(threadIdx.x);
  int i = *idx;
  where[0] = __cvta_generic_to_local(k);
  where[1] = __cvta_generic_to_local(&k[i]);
  k[i] = 7;  // bug when i >= 4
  out[1] = k[threadIdx.x & 3] + k[(threadIdx.x + 1) & 3];
}

int main(int argc, char **argv) {
  int i = argc > 1 ? atoi(argv[1]) : 4;
  int call = argc > 2 ? atoi(argv[2]) : 0;
  int *out, *idx;
  unsigned long long *where;
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMalloc(&idx, sizeof(int));
  cudaMalloc(&where, 2 * sizeof(unsigned long long));
  cudaMemset(out, 0, 64 * sizeof(int));
  cudaMemset(where, 0, 2 * sizeof(unsigned long long));
  cudaMemcpy(idx, &i, sizeof i, cudaMemcpyHostToDevice);
  kernel<<<1, 1>>>(out, idx, call, where);
  REPORT(cudaDeviceSynchronize());
  int h[2];
  unsigned long long w[2];
  REPORT(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  REPORT(cudaMemcpy(w, where, sizeof w, cudaMemcpyDeviceToHost));
  printf("out %d %d k at %#llx write at %#llx\n", h[0], h[1], w[0], w[1]);
  return 0;
}
