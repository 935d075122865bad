// assert in device code: thread 13 of block 0 fails its assertion. On a GPU
// the message (file:line: function: block: [x,y,z], thread: [x,y,z]
// Assertion `…` failed.) is printed and the next synchronizing call returns
// cudaErrorAssert; the context is then unusable.
#include <cassert>
#include <cstdio>

__global__ void check(const int *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(v[i] != 13);
}

int main() {
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = i < 37 ? i : 1;
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  check<<<2, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s (%d)\n", cudaGetErrorName(e), (int)e);
  printf("last: %s\n", cudaGetErrorName(cudaGetLastError()));
  e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("after: %s\n", cudaGetErrorName(e));
  return 0;
}
