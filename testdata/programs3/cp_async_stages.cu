// A multi-stage cp.async pipeline with the cuda_pipeline.h primitives
// (__pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior):
// each block streams tiles of a long vector through a 4-stage ring in shared
// memory and computes a weighted moving sum; 4-, 8- and 16-byte copies, and
// the zero-fill form for the ragged tail.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_pipeline.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

constexpr int STAGES = 4, TILE = 256;

__global__ void stream_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ __align__(16) float buf[STAGES][TILE];
  const int tiles = (n + TILE - 1) / TILE;
  const int t = threadIdx.x;  // 64 threads, each copies 16 bytes per tile
  float acc = 0.0f;
  int fetch = blockIdx.x;
  for (int s = 0; s < STAGES - 1; s++, fetch += gridDim.x) {
    if (fetch < tiles) {
      int base = fetch * TILE + t * 4;
      int valid = n - base;
      if (valid >= 4)
        __pipeline_memcpy_async(&buf[s][t * 4], &in[base], 16);
      else  // ragged tail: copy what exists, zero the rest
        __pipeline_memcpy_async(&buf[s][t * 4], &in[valid > 0 ? base : 0], 16, valid > 0 ? 16 - 4 * valid : 16);
    }
    __pipeline_commit();
  }
  int stage = 0;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    for (int j = 0; j < 4; j++) acc = fmaf(buf[stage][t * 4 + j], (float)(j + 1) * 0.25f, acc);
    __syncthreads();
    int ws = (stage + STAGES - 1) % STAGES;
    if (fetch < tiles) {
      int base = fetch * TILE + t * 4;
      int valid = n - base;
      if (valid >= 4)
        __pipeline_memcpy_async(&buf[ws][t * 4], &in[base], 16);
      else
        __pipeline_memcpy_async(&buf[ws][t * 4], &in[valid > 0 ? base : 0], 16, valid > 0 ? 16 - 4 * valid : 16);
    }
    __pipeline_commit();
    fetch += gridDim.x;
    stage = (stage + 1) % STAGES;
  }
  __pipeline_wait_prior(0);
  out[blockIdx.x * blockDim.x + t] = acc;
}

// 4- and 8-byte copies: gather every other pair of ints into shared memory
__global__ void gather_small(const int* in, int* out) {
  __shared__ __align__(8) int s4[128];
  __shared__ __align__(8) int2 s8[64];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&s4[t], &in[(t * 7) % 128], 4);
  if (t < 64) __pipeline_memcpy_async(&s8[t], &in[256 + 2 * ((t * 5) % 64)], 8);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = s4[127 - t] + (t < 64 ? s8[63 - t].x * 3 - s8[t].y : 0);
}

int main() {
  const int n = 100003, blocks = 24, threads = 64;
  float* h = (float*)malloc(n * 4);
  for (int i = 0; i < n; i++) h[i] = (float)((i * 2654435761u) >> 20) / 4096.0f - 0.5f;
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, blocks * threads * 4));
  CHECK(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
  stream_sum<<<blocks, threads>>>(din, dout, n);
  CHECK(cudaGetLastError());
  float r[blocks * threads];
  CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
  uint32_t hs = 0; double tot = 0;
  for (int i = 0; i < blocks * threads; i++) { uint32_t u; memcpy(&u, &r[i], 4); hs = hs * 1000003u + u; tot += r[i]; }
  double ref = 0;
  for (int i = 0; i < n; i++) ref += h[i] * ((i % 4) + 1) * 0.25;
  printf("stream_sum: total %.4f (host %.4f) hash %08x r[0]=%a r[last]=%a\n", tot, ref, hs, r[0], r[blocks * threads - 1]);
  int hi[512], ho[128];
  for (int i = 0; i < 512; i++) hi[i] = i * i - 1000;
  int *di, *dq;
  CHECK(cudaMalloc(&di, sizeof hi)); CHECK(cudaMalloc(&dq, sizeof ho));
  CHECK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice));
  gather_small<<<1, 128>>>(di, dq);
  CHECK(cudaMemcpy(ho, dq, sizeof ho, cudaMemcpyDeviceToHost));
  long long g = 0;
  for (int i = 0; i < 128; i++) g = g * 31 + ho[i];
  printf("gather_small: %d %d %d %d ... hash %lld\n", ho[0], ho[1], ho[63], ho[127], g);
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(di)); CHECK(cudaFree(dq));
  free(h);
  return 0;
}
