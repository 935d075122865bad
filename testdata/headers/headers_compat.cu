// What nvcc's headers make visible without an include: the C library
// (memset, memcpy, strlen, time, printf, abs), NVIDIA's include guards,
// CUDA's mixed-type min/max and umin … ullmax, device memcpy and memset,
// SIMD video intrinsics, norm functions, and a launch spelled with spaces
// inside its brackets (as an editor's auto-format writes it).
#ifndef __CUDA_RUNTIME_H__
#error "__CUDA_RUNTIME_H__ is not defined"
#endif
#if !defined(__DRIVER_TYPES_H__) || !defined(__CUDA_RUNTIME_API_H__) || !defined(__VECTOR_TYPES_H__) || !defined(__DEVICE_LAUNCH_PARAMETERS_H__)
#error "an NVIDIA include guard is not defined"
#endif
#if CUDART_VERSION < 12000 || __CUDACC_VER_MAJOR__ < 12
#error "CUDA 12 or later expected"
#endif

#include <cstdio>  // CUDA 13's cuda_runtime.h does not declare printf for host code

struct Rec { int id; float w; char tag[8]; };

__global__ void compat(const Rec *in, Rec *out, float *f, double *d, unsigned *u, long long *ll) {
  int t = threadIdx.x;
  Rec r;
  memcpy(&r, &in[t], sizeof r);
  r.id += 1000;
  memset(r.tag, 'a' + t % 26, 3);
  r.tag[3] = 0;
  out[t] = r;
  float x = 1.5f * t;
  double y = 2.25 * t;
  d[t] = max(x, y) + min(y, x) * 10 + max(t, 3u) * 100;
  u[t] = umin(t, 5u) + 10 * umax(t, 7u) + 1000 * (unsigned)min(-t, 2);
  ll[t] = llmin(-t, 3ll) * 100 + llmax(t, 4ll) + (long long)ullmin(1ull << 40, 1ull << (t + 30)) + (long long)ullmax(2ull, (unsigned long long)t);
  u[32 + t] = __vadd2(0x00010002u * t, 0xfffe0003u) ^ __vsub4(0x01020304u * t, 0x04030201u);
  u[64 + t] = __vmaxs2(0x7fff8000u + t, 0x00010001u * t) + __vcmpgtu4(0x10203040u, 0x01020304u * t);
  f[t] = norm4df(1, 2, 2, 4) + norm3df(t, 4, 12) + hypotf(3, t) + abs(-t);
}

int main() {
  const int n = 32;
  Rec h[n];
  memset(h, 0, sizeof h);
  for (int i = 0; i < n; i++) { h[i].id = i; h[i].w = i * 0.5f; memcpy(h[i].tag, "xyzxyzx", 8); }
  time_t now = time(NULL);
  if (now == (time_t)-1) printf("time failed\n");
  Rec *din, *dout; float *f; double *d; unsigned *u; long long *ll;
  cudaMalloc(&din, sizeof h); cudaMalloc(&dout, sizeof h);
  cudaMalloc(&f, n * sizeof(float)); cudaMalloc(&d, n * sizeof(double));
  cudaMalloc(&u, 3 * n * sizeof(unsigned)); cudaMalloc(&ll, n * sizeof(long long));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  compat<< <1, n >> >(din, dout, f, d, u, ll);
  cudaError_t err = cudaDeviceSynchronize();
  printf("launch: %s\n", cudaGetErrorName(err));
  Rec o[n]; float hf[n]; double hd[n]; unsigned hu[3 * n]; long long hll[n];
  cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
  cudaMemcpy(hll, ll, sizeof hll, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("%2d: %d %.1f %s(%zu) | %.2f %u %lld | %08x %08x | %.4f\n", i, o[i].id, o[i].w, o[i].tag, strlen(o[i].tag), hd[i], hu[i], hll[i], hu[32 + i], hu[64 + i], hf[i]);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("sm_%d%d warpSize %d maxThreadsPerBlock %d block [%d %d %d] grid [%d %d %d] regsPerBlock %d\n", p.major, p.minor, p.warpSize,
         p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2], p.regsPerBlock);
  printf("Test PASSED\n");
  return 0;
}
