// llm.c-style fused classifier pieces: online-softmax forward (warp per
// row), cross-entropy loss and its backward fused, GELU (tanh form)
// forward and backward, with __restrict__, #pragma unroll and warp shuffles.
#include <cstdio>
#include <cstdlib>
#include <cfloat>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

__device__ __forceinline__ float warpReduceMax(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, off));
  return v;
}
__device__ __forceinline__ float warpReduceSum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
  return v;
}

// online softmax: each lane keeps a running max and a sum rescaled on the fly
__global__ void softmax_forward_online(float* __restrict__ out, const float* __restrict__ inp, int N, int C) {
  int warpsPerBlock = blockDim.x / 32;
  int row = blockIdx.x * warpsPerBlock + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= N) return;
  const float* x = inp + (size_t)row * C;
  float maxval = -INFINITY, sumval = 0.0f;
  for (int i = lane; i < C; i += 32) {
    float v = x[i];
    if (v > maxval) { sumval *= expf(maxval - v); maxval = v; }
    sumval += expf(v - maxval);
  }
  float gmax = warpReduceMax(maxval);
  sumval *= expf(maxval - gmax);
  float gsum = warpReduceSum(sumval);
  float norm = 1.0f / gsum;
  for (int i = lane; i < C; i += 32) out[(size_t)row * C + i] = expf(x[i] - gmax) * norm;
}

__global__ void crossentropy_fused(float* __restrict__ losses, float* __restrict__ dlogits, const float* __restrict__ probs,
                                   const int* __restrict__ targets, int N, int C, float dloss) {
  int row = blockIdx.x;
  if (row >= N) return;
  int t = targets[row];
  const float* p = probs + (size_t)row * C;
  if (threadIdx.x == 0) losses[row] = -logf(p[t]);
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float indicator = (i == t) ? 1.0f : 0.0f;
    dlogits[(size_t)row * C + i] = (p[i] - indicator) * dloss;
  }
}

__global__ void gelu_forward(float* __restrict__ out, const float* __restrict__ inp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float xi = inp[i];
    float cube = 0.044715f * xi * xi * xi;
    out[i] = 0.5f * xi * (1.0f + tanhf(GELU_SCALING_FACTOR * (xi + cube)));
  }
}

__global__ void gelu_backward(float* __restrict__ dinp, const float* __restrict__ inp, const float* __restrict__ dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    float tanh_arg = GELU_SCALING_FACTOR * (x + cube);
    float tanh_out = tanhf(tanh_arg);
    float coshf_out = coshf(tanh_arg);
    float sech_out = 1.0f / (coshf_out * coshf_out);
    float local_grad = 0.5f * (1.0f + tanh_out) + x * 0.5f * sech_out * GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
    dinp[i] = local_grad * dout[i];
  }
}

static unsigned lcg_state = 7u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static float frand() { return (float)((int)(lcg() >> 9) - (1 << 22)) * (1.0f / (1 << 22)); }
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }
static double dsum(const float* a, int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }

int main() {
  const int N = 64, C = 1000; // vocab-like width, not a multiple of 32
  const int n = N * C;
  float* h_logits = (float*)malloc(n * 4);
  int h_t[N];
  for (int i = 0; i < n; i++) h_logits[i] = frand() * 8.0f;
  for (int i = 0; i < N; i++) h_t[i] = lcg() % C;
  h_logits[5] = 80.0f; h_logits[C + 3] = -80.0f; // large spread
  float *logits, *probs, *losses, *dlogits, *g, *dg;
  int* targets;
  CHECK(cudaMalloc(&logits, n * 4)); CHECK(cudaMalloc(&probs, n * 4)); CHECK(cudaMalloc(&losses, N * 4));
  CHECK(cudaMalloc(&dlogits, n * 4)); CHECK(cudaMalloc(&targets, N * 4)); CHECK(cudaMalloc(&g, n * 4)); CHECK(cudaMalloc(&dg, n * 4));
  CHECK(cudaMemcpy(logits, h_logits, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(targets, h_t, N * 4, cudaMemcpyHostToDevice));
  softmax_forward_online<<<N / 4, 128>>>(probs, logits, N, C);
  crossentropy_fused<<<N, 256>>>(losses, dlogits, probs, targets, N, C, 1.0f / N);
  gelu_forward<<<(n + 255) / 256, 256>>>(g, logits, n);
  gelu_backward<<<(n + 255) / 256, 256>>>(dg, logits, dlogits, n);
  CHECK(cudaDeviceSynchronize());
  float *h_probs = (float*)malloc(n * 4), *h_dl = (float*)malloc(n * 4), *h_g = (float*)malloc(n * 4), *h_dg = (float*)malloc(n * 4), h_loss[N];
  CHECK(cudaMemcpy(h_probs, probs, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(h_dl, dlogits, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_g, g, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(h_dg, dg, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_loss, losses, N * 4, cudaMemcpyDeviceToHost));
  printf("probs   fnv %08x sum %a\n", fnv(h_probs, n * 4), dsum(h_probs, n));
  printf("losses  fnv %08x sum %a\n", fnv(h_loss, N * 4), dsum(h_loss, N));
  printf("dlogits fnv %08x sum %a\n", fnv(h_dl, n * 4), dsum(h_dl, n));
  printf("gelu    fnv %08x sum %a\n", fnv(h_g, n * 4), dsum(h_g, n));
  printf("dgelu   fnv %08x sum %a\n", fnv(h_dg, n * 4), dsum(h_dg, n));
  int idx[] = {0, 5, 999, 1003, 12345, 63999};
  for (int k = 0; k < 6; k++) { int i = idx[k]; printf("[%d] x %a p %a dl %a g %a dg %a\n", i, h_logits[i], h_probs[i], h_dl[i], h_g[i], h_dg[i]); }
  printf("loss[0..3] %a %a %a %a\n", h_loss[0], h_loss[1], h_loss[2], h_loss[3]);
  return 0;
}
