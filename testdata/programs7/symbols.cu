// __device__ and __constant__ symbols: cudaMemcpyToSymbol(Async) with
// offsets, FromSymbol, cudaGetSymbolAddress/Size, a kernel reading them,
// and the errors for offsets past the end and for non-symbols.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coeffs[16];
__constant__ int scale;
__device__ int counters[8];
__device__ double table[100];
struct Params {
  int n;
  float bias;
  char tag[8];
};
__constant__ Params params;
__device__ unsigned long long bigArray[1 << 16];

__global__ void apply(float *out) {
  int i = threadIdx.x;
  if (i < params.n) {
    out[i] = coeffs[i % 16] * scale + params.bias + (float)table[i];
    atomicAdd(&counters[i % 8], 1);
  }
}

int main() {
  float c[16];
  for (int i = 0; i < 16; i++) c[i] = 0.5f * i;
  cudaError_t e = cudaMemcpyToSymbol(coeffs, c, sizeof c);
  printf("to coeffs: %s\n", cudaGetErrorName(e));
  float c2[4] = {100, 101, 102, 103};
  e = cudaMemcpyToSymbol(coeffs, c2, sizeof c2, 8 * sizeof(float));
  printf("to coeffs at offset 32: %s\n", cudaGetErrorName(e));
  int sc = 3;
  e = cudaMemcpyToSymbol(scale, &sc, sizeof sc, 0, cudaMemcpyHostToDevice);
  printf("to scale: %s\n", cudaGetErrorName(e));
  Params p = {40, 0.25f, "abc"};
  cudaStream_t s;
  cudaStreamCreate(&s);
  e = cudaMemcpyToSymbolAsync(params, &p, sizeof p, 0, cudaMemcpyHostToDevice, s);
  printf("to params async: %s\n", cudaGetErrorName(e));
  double t[100];
  for (int i = 0; i < 100; i++) t[i] = i * 0.125;
  cudaMemcpyToSymbolAsync(table, t, sizeof t, 0, cudaMemcpyHostToDevice, s);
  void *cptr = nullptr;
  e = cudaGetSymbolAddress(&cptr, counters);
  printf("counters address: %s %s\n", cudaGetErrorName(e), cptr ? "set" : "null");
  cudaMemsetAsync(cptr, 0, sizeof(int) * 8, s);
  float *out;
  cudaMalloc(&out, 64 * sizeof(float));
  apply<<<1, 64, 0, s>>>(out);
  cudaStreamSynchronize(s);
  float h[64];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("out:");
  for (int i = 0; i < 40; i += 3) printf(" %g", h[i]);
  printf("\n");
  int cnt[8];
  e = cudaMemcpyFromSymbol(cnt, counters, sizeof cnt);
  printf("from counters: %s", cudaGetErrorName(e));
  for (int i = 0; i < 8; i++) printf(" %d", cnt[i]);
  printf("\n");
  float back[4];
  e = cudaMemcpyFromSymbolAsync(back, coeffs, sizeof back, 6 * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("from coeffs[6..9] async: %s %g %g %g %g\n", cudaGetErrorName(e), back[0], back[1], back[2], back[3]);

  size_t sz = 0;
  cudaGetSymbolSize(&sz, coeffs);
  printf("size coeffs %zu", sz);
  cudaGetSymbolSize(&sz, scale);
  printf(" scale %zu", sz);
  cudaGetSymbolSize(&sz, params);
  printf(" params %zu", sz);
  cudaGetSymbolSize(&sz, table);
  printf(" table %zu", sz);
  cudaGetSymbolSize(&sz, bigArray);
  printf(" bigArray %zu\n", sz);

  // Device-to-device through the symbol's address, and symbol-to-symbol.
  void *taddr;
  cudaGetSymbolAddress(&taddr, table);
  e = cudaMemcpyToSymbol(bigArray, taddr, sizeof t, 0, cudaMemcpyDeviceToDevice);
  printf("table -> bigArray (device to device): %s\n", cudaGetErrorName(e));
  double d5;
  cudaMemcpyFromSymbol(&d5, bigArray, sizeof d5, 5 * sizeof(double));
  printf("bigArray[5] as double: %g\n", d5);
  e = cudaMemcpyToSymbol(bigArray, taddr, 8, 0, cudaMemcpyDefault);
  printf("cudaMemcpyDefault: %s\n", cudaGetErrorName(e));

  // Errors.
  e = cudaMemcpyToSymbol(coeffs, c, sizeof c, 4);
  printf("past the end by 4: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemcpyToSymbol(scale, &sc, 8);
  printf("8 bytes into an int: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemcpyFromSymbol(cnt, counters, 4, 1 << 20);
  printf("offset 1 MiB: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  static int notASymbol;
  e = cudaMemcpyToSymbol(notASymbol, &sc, 4);
  printf("host variable: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaGetSymbolAddress(&cptr, notASymbol);
  printf("address of host variable: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaGetSymbolSize(&sz, notASymbol);
  printf("size of host variable: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemcpyToSymbol(scale, &sc, 4, 0, cudaMemcpyDeviceToHost);
  printf("wrong direction: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
