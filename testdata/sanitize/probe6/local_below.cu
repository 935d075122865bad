// memcheck: a __noinline__ device function writes its local array at a
// negative index (4 ints below it: below the innermost frame, in stack not
// in use), and the kernel writes its own array one past its end (above the
// kernel's frame). Usage: local_below below|past.
#include <cstdio>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)

__device__ __noinline__ int below(int i, int v) {
  int a[4];
  for (int j = 0; j < 4; j++)
    a[j] = v + j;
  a[i] = v;  // bug when i < 0
  return a[(v + 1) & 3] + a[(i + 8) & 3];
}

__global__ void kernel(int *out, int i, int past) {
  int k[4];
  for (int j = 0; j < 4; j++)
    k[j] = out[j];
  out[0] = below(i, threadIdx.x);
  k[past] = 7;  // bug when past >= 4
  out[1] = k[threadIdx.x & 3];
}

int main(int argc, char **argv) {
  bool past = argc > 1 && argv[1][0] == 'p';  // "below" or "past"
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(out, 0, 64 * sizeof(int));
  if (past)
    kernel<<<1, 1>>>(out, 0, 4);
  else
    kernel<<<1, 1>>>(out, -4, 0);
  REPORT(cudaDeviceSynchronize());
  int h[2];
  REPORT(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("out %d %d\n", h[0], h[1]);
  return 0;
}
