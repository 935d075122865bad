// The device cuRAND API: Philox4_32_10 and XORWOW states per thread
// (curand_init with seed, subsequence, offset), curand, curand_uniform,
// curand_normal, curand_normal2_double, curand_uniform4, skipahead, and a
// Monte Carlo estimate of pi.
#include <cstdio>
#include <curand_kernel.h>

__global__ void philox(unsigned long long seed, unsigned *raw, float *u, float *g, unsigned long long *hits, int iters) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, id, 0, &st);
  raw[id] = curand(&st);
  u[id] = curand_uniform(&st);
  g[id] = curand_normal(&st);
  float4 u4 = curand_uniform4(&st);
  raw[256 + id] = __float_as_uint(u4.x + u4.y + u4.z + u4.w);
  unsigned long long in = 0;
  for (int i = 0; i < iters; i++) {
    float x = curand_uniform(&st), y = curand_uniform(&st);
    in += x * x + y * y <= 1.0f;
  }
  atomicAdd(hits, in);
}
__global__ void xorwow(unsigned long long seed, unsigned *raw, double *d) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, id, 3, &st);
  raw[id] = curand(&st);
  skipahead(100ULL, &st);
  raw[64 + id] = curand(&st);
  double2 n2 = curand_normal2_double(&st);
  d[2 * id] = n2.x;
  d[2 * id + 1] = curand_uniform_double(&st) + curand_log_normal(&st, 0.0f, 0.5f);
}

int main() {
  unsigned *raw, hr[512];
  float *u, *g, hu[256], hg[256];
  unsigned long long *hits, hh = 0;
  cudaMalloc(&raw, sizeof hr); cudaMalloc(&u, sizeof hu); cudaMalloc(&g, sizeof hg); cudaMalloc(&hits, 8);
  cudaMemset(hits, 0, 8);
  philox<<<2, 128>>>(1234ULL, raw, u, g, hits, 200);
  cudaMemcpy(hr, raw, sizeof hr, cudaMemcpyDeviceToHost);
  cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
  cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hh, hits, 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) printf("philox %d: %08x %a %a %08x\n", i, hr[i], hu[i], hg[i], hr[256 + i]);
  unsigned ck = 0;
  for (int i = 0; i < 256; i++) ck = ck * 31 + hr[i] + *(unsigned *)&hu[i] * 3 + *(unsigned *)&hg[i] * 5 + hr[256 + i];
  printf("philox checksum %08x pi ~ %.9g\n", ck, 4.0 * hh / (256.0 * 200));
  double *d, hd[128];
  cudaMalloc(&d, sizeof hd);
  xorwow<<<2, 32>>>(42ULL, raw, d);
  cudaMemcpy(hr, raw, 128 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) printf("xorwow %d: %08x %08x %a %a\n", i, hr[i], hr[64 + i], hd[2 * i], hd[2 * i + 1]);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
