// initcheck: y = a*x + y where the program copies x to the device but forgets
// y; the kernel reads both through __ldg (ld.global.nc), 48 threads.
#include "common.h"

__global__ void axpy(float a, const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    r[i] = a * __ldg(&x[i]) + __ldg(&y[i]);
}

int main() {
  const int n = 48;
  float hx[n], *x, *y, *r;
  for (int i = 0; i < n; i++)
    hx[i] = i;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hx);
  cudaMalloc(&r, sizeof hx);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);  // bug: y is never copied
  axpy<<<1, 64>>>(2.0f, x, y, r, n);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
