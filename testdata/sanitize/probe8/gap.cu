// Where a kernel's stack begins below the top of the 16 MiB local window:
// the kernel writes the local address of its array k (__cvta_generic_to_local)
// and then, in a second launch, writes k[i] for the last index below 16 MiB,
// and in a third the first index at or past it. One variant per binary
// (-DV=...): the kernel's array size (N ints), whether it calls a
// __noinline__ function, a recursive one, one through a pointer, printf,
// malloc; whether it holds many registers; whether the stack limit is raised
// first; a module with a second kernel that calls printf.
// Usage: gap (prints "k at ADDR", then each launch's status).
#include <cstdio>
#include <cstdlib>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)
#ifndef N
#define N 4
#endif

__device__ __noinline__ int leaf(int v) {
  int a[4];
  for (int j = 0; j < 4; j++)
    a[j] = v + j;
  return a[v & 3];
}

__device__ __noinline__ int rec(int v, int d) {
  int a[4];
  for (int j = 0; j < 4; j++)
    a[j] = v + j + d;
  return d > 0 ? a[v & 3] + rec(v, d - 1) : a[(v + 1) & 3];
}

__device__ int (*fp)(int) = leaf;

__global__ void kernel(int *out, const int *idx, unsigned long long *where) {
  int k[N];
  for (int j = 0; j < N; j++)
    k[j] = out[j % 64];
#if defined(V_NOINLINE)
  out[0] = leaf(threadIdx.x + out[2]);
#elif defined(V_REC)
  out[0] = rec(threadIdx.x, out[2]);
#elif defined(V_INDIRECT)
  out[0] = fp(threadIdx.x + out[2]);
#elif defined(V_PRINTF)
  if (out[3] == 12345)
    printf("never %d\n", out[2]);
#elif defined(V_MALLOC)
  int *m = (int *)malloc(16);
  if (m) {
    m[0] = out[2];
    out[0] = m[0];
    free(m);
  }
#elif defined(V_REGS)
  // many values live at once
  float acc[48];
#pragma unroll
  for (int j = 0; j < 48; j++)
    acc[j] = __int_as_float(out[j]) * (j + 1);
#pragma unroll
  for (int r = 0; r < 8; r++)
#pragma unroll
    for (int j = 0; j < 48; j++)
      acc[j] = acc[j] * acc[(j + 1) % 48] + acc[(j + 7) % 48];
  float s = 0;
#pragma unroll
  for (int j = 0; j < 48; j++)
    s += acc[j];
  out[0] = __float_as_int(s);
#endif
  int i = *idx;
  where[0] = __cvta_generic_to_local(k);
  where[1] = __cvta_generic_to_local(&k[i]);
  k[i] = 7;
  out[1] = k[threadIdx.x % N] + k[(threadIdx.x + 1) % N];
}

#if defined(V_MIXED)
__global__ void other(int *out) {
  int k[8];
  for (int j = 0; j < 8; j++)
    k[j] = out[j];
  printf("other %d %d\n", k[out[9] & 7], threadIdx.x);
}
#endif

int main() {
  int *out, *idx;
  unsigned long long *where, w[2];
#if defined(V_STACK4K)
  REPORT(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
#endif
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMalloc(&idx, sizeof(int));
  cudaMalloc(&where, 2 * sizeof(unsigned long long));
  cudaMemset(out, 0, 64 * sizeof(int));
  int i = 0;
  cudaMemcpy(idx, &i, sizeof i, cudaMemcpyHostToDevice);
  kernel<<<1, 1>>>(out, idx, where);
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaMemcpy(w, where, sizeof w, cudaMemcpyDeviceToHost));
  printf("k at %#llx\n", w[0]);
  // the last int below 16 MiB, then the first at 16 MiB
  int last = (int)((0x1000000ull - w[0]) / 4) - 1;
  for (int t = 0; t < 2; t++) {
    i = last + t;
    cudaMemcpy(idx, &i, sizeof i, cudaMemcpyHostToDevice);
    kernel<<<1, 1>>>(out, idx, where);
    printf("k[%d] (at %#llx): ", i, w[0] + 4ull * i);
    REPORT(cudaDeviceSynchronize());
  }
  return 0;
}
