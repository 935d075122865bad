// Module-scope variables: a __constant__ filter set with cudaMemcpyToSymbol,
// a __device__ counter read back with cudaMemcpyFromSymbol, and a __device__
// array reached through cudaGetSymbolAddress.
#include "check.h"
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
  scratch[i % 256] = acc;
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
  float last;
  CHECK(cudaMemcpy(&last, s + (n - 1) % 256, sizeof last, cudaMemcpyDeviceToHost));
  bool ok = got == n && ssize == sizeof(float) * 256 && last == r[n - 1];
  double sum = 0;
  for (int i = 0; i < n; i++) {
    float ref = 0;
    for (int k = 0; k < TAPS; k++) { int j = i + k - TAPS / 2; if (j >= 0 && j < n) ref += t[k] * h[j]; }
    ok &= ref == r[i];
    sum += r[i];
  }
  printf("calls %u scratch %zu bytes sum %.2f\n", got, ssize, sum);
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
