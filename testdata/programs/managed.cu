// Unified memory: the host initializes managed arrays, a kernel updates
// them in place, the host reads the results after synchronizing.
#include "check.h"
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main() {
  const int n = 1 << 16;
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  for (int i = 0; i < n; i++) { x[i] = 1.0f + (i % 10); y[i] = 2.0f; }
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double sum = 0;
  for (int i = 0; i < n; i++) {
    if (y[i] != 2.0f * (1.0f + (i % 10)) + 2.0f) { printf("FAILED at %d: %f\n", i, y[i]); return 1; }
    sum += y[i];
  }
  y[0] = 100.0f;
  saxpy<<<1, 1>>>(1, 1.0f, x, y);
  CHECK(cudaDeviceSynchronize());
  float first;
  CHECK(cudaMemcpy(&first, y, sizeof first, cudaMemcpyDefault));
  printf("sum %.1f first %.1f\n", sum, first);
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  printf(first == 101.0f ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
