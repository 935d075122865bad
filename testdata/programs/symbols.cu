// Module-scope variables: a __constant__ filter set with cudaMemcpyToSymbol,
// a __device__ counter read back with cudaMemcpyFromSymbol, and a __device__
// array reached through cudaGetSymbolAddress.
#include "check.h"
#include <cmath>
#define TAPS 5
__constant__ float taps[TAPS];
__device__ unsigned int calls;
__device__ float scratch[256];
__global__ void filter(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0;
  for (int k = 0; k < TAPS; k++) {
    int j = i + k - TAPS / 2;
    if (j >= 0 && j < n) acc += taps[k] * in[j];
  }
  out[i] = acc;
  if (i < 256) scratch[i] = acc;  // one writer per element
  atomicAdd(&calls, 1u);
}
int main() {
  const int n = 1000;
  float h[n], r[n], t[TAPS] = {0.5f, 0.25f, 1.0f, 0.25f, 0.5f};
  for (int i = 0; i < n; i++) h[i] = (float)(i % 7);
  float *din, *dout;
  CHECK(cudaMalloc(&din, sizeof h)); CHECK(cudaMalloc(&dout, sizeof r));
  CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(taps, t, sizeof t));
  unsigned zero = 0;
  CHECK(cudaMemcpyToSymbol(calls, &zero, sizeof zero));
  filter<<<(n + 127) / 128, 128>>>(din, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
  unsigned got = 0;
  CHECK(cudaMemcpyFromSymbol(&got, calls, sizeof got));
  float *s; size_t ssize;
  CHECK(cudaGetSymbolAddress((void **)&s, scratch));
  CHECK(cudaGetSymbolSize(&ssize, scratch));
  float sc[256];
  CHECK(cudaMemcpy(sc, s, sizeof sc, cudaMemcpyDeviceToHost));
  bool ok = got == n && ssize == sizeof sc;
  for (int i = 0; i < 256; i++) ok &= sc[i] == r[i];  // the same device values
  double sum = 0;
  for (int i = 0; i < n; i++) {
    // The device may contract acc += taps[k] * in[j] into an fma (nvcc
    // does), the host may not: compare within a few ulps, not exactly.
    float ref = 0;
    for (int k = 0; k < TAPS; k++) { int j = i + k - TAPS / 2; if (j >= 0 && j < n) ref += t[k] * h[j]; }
    ok &= std::fabs(ref - r[i]) <= 1e-6f * std::fmax(1.0f, std::fabs(ref));
    sum += r[i];
  }
  printf("calls %u scratch %zu bytes sum %.2f\n", got, ssize, sum);
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
