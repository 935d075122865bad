// Beyond compute-sanitizer (--check-local): a device function writes past
// its own local array into its caller's frame; the write stays inside the
// thread's stack, so neither the GPU nor plain memcheck notices. fill may
// call itself (never with these arguments), so its frame lies below its
// caller's: ptxas places the frame of a function that never recurses
// inside its caller's, above the caller's arrays (sanitize/probe7), where
// the write past a[3] would leave the stack.
#include <cstdio>

__device__ __noinline__ int fill(int n) {
  int a[4];
  for (int i = 0; i < n; i++)
    a[i] = i;
  if (n > 100)
    return fill(n - 1);
  return a[n / 2];
}

__global__ void kernel(int *out, int n) {
  int keep[8];
  for (int i = 0; i < 8; i++)
    keep[i] = threadIdx.x + i;
  out[threadIdx.x] = fill(n) + keep[threadIdx.x % 8];
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  kernel<<<1, 32>>>(out, 6);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(out);
  return 0;
}
