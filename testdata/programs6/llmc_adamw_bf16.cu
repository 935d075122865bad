// llm.c-style AdamW: bf16 parameters with fp32 master weights, first and
// second moments, lerp-style updates, bias correction and deterministic
// stochastic rounding from a hashed seed; a mixed bf16 gradient norm.
#include <cstdio>
#include <cstdlib>
#include <cuda_bf16.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
typedef __nv_bfloat16 floatX;

__device__ __host__ unsigned int SquirrelNoise5(int positionX, unsigned int seed) {
  const unsigned int SQ5_BIT_NOISE1 = 0xd2a80a3f, SQ5_BIT_NOISE2 = 0xa884f197, SQ5_BIT_NOISE3 = 0x6C736F4B,
                     SQ5_BIT_NOISE4 = 0xB79F3ABB, SQ5_BIT_NOISE5 = 0x1b56c4f5;
  unsigned int mangledBits = (unsigned int)positionX;
  mangledBits *= SQ5_BIT_NOISE1; mangledBits += seed; mangledBits ^= (mangledBits >> 9);
  mangledBits += SQ5_BIT_NOISE2; mangledBits ^= (mangledBits >> 11); mangledBits *= SQ5_BIT_NOISE3;
  mangledBits ^= (mangledBits >> 13); mangledBits += SQ5_BIT_NOISE4; mangledBits ^= (mangledBits >> 15);
  mangledBits *= SQ5_BIT_NOISE5; mangledBits ^= (mangledBits >> 17);
  return mangledBits;
}

__device__ __forceinline__ void stochastic_rounding(float in, __nv_bfloat16* out, unsigned int seed) {
  unsigned int random = SquirrelNoise5(threadIdx.x, blockIdx.x * blockDim.x + seed);
  unsigned int threshold = random & 0xFFFF;
  unsigned int float_bits = __float_as_uint(in);
  unsigned int rounded_bits = float_bits & 0x0000FFFF;
  float_bits = (rounded_bits > threshold) ? (float_bits | 0xFFFF) : (float_bits & ~0xFFFF);
  *out = __float2bfloat16_rn(__uint_as_float(float_bits));
}

__device__ float lerp(float start, float end, float weight) { return fmaf(weight, end, fmaf(-weight, start, start)); }

__global__ void adamw_kernel(floatX* params, float* master, const floatX* grads, float* m, float* v, size_t n,
                             float lr, float beta1, float beta2, float b1corr, float b2corr, float eps,
                             float wd, float grad_scale, unsigned int seed) {
  size_t idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  float grad = grad_scale * (float)grads[idx];
  float mi = m[idx], vi = v[idx];
  mi = lerp(grad, mi, beta1);
  m[idx] = mi;
  vi = lerp(grad * grad, vi, beta2);
  v[idx] = vi;
  mi /= b1corr;
  vi /= b2corr;
  float old = master != NULL ? master[idx] : (float)params[idx];
  float param = old - (lr * (mi / (sqrtf(vi) + eps) + wd * old));
  stochastic_rounding(param, &params[idx], seed);
  if (master != NULL) master[idx] = param;
}

__global__ void norm_squared(float* out, const floatX* data, size_t n) {
  __shared__ float warpSums[32];
  float acc = 0.0f;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float f = __bfloat162float(data[i]);
    acc += f * f;
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffff, acc, off);
  if (threadIdx.x % 32 == 0) warpSums[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = threadIdx.x < blockDim.x / 32 ? warpSums[threadIdx.x] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffff, acc, off);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
  }
}

static unsigned lcg_state = 99u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static float frand() { return (float)((int)(lcg() >> 9) - (1 << 22)) * (1.0f / (1 << 22)); }
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const size_t n = 20000;
  float* h_master = (float*)malloc(n * 4);
  floatX* h_params = (floatX*)malloc(n * 2);
  floatX* h_grads = (floatX*)malloc(n * 2);
  for (size_t i = 0; i < n; i++) { h_master[i] = frand() * 0.125f; h_params[i] = __float2bfloat16(h_master[i]); }
  floatX *params, *grads; float *master, *m, *v, *partial;
  CHECK(cudaMalloc(&params, n * 2)); CHECK(cudaMalloc(&grads, n * 2)); CHECK(cudaMalloc(&master, n * 4));
  CHECK(cudaMalloc(&m, n * 4)); CHECK(cudaMalloc(&v, n * 4)); CHECK(cudaMalloc(&partial, 64 * 4));
  CHECK(cudaMemset(m, 0, n * 4)); CHECK(cudaMemset(v, 0, n * 4));
  CHECK(cudaMemcpy(params, h_params, n * 2, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(master, h_master, n * 4, cudaMemcpyHostToDevice));
  float beta1 = 0.9f, beta2 = 0.95f, lr = 3e-4f, b1pow = 1.0f, b2pow = 1.0f;
  for (int step = 1; step <= 4; step++) {
    for (size_t i = 0; i < n; i++) h_grads[i] = __float2bfloat16(frand() * (step == 2 ? 1e-3f : 0.5f));
    CHECK(cudaMemcpy(grads, h_grads, n * 2, cudaMemcpyHostToDevice));
    norm_squared<<<64, 256>>>(partial, grads, n);
    float hp[64];
    CHECK(cudaMemcpy(hp, partial, sizeof hp, cudaMemcpyDeviceToHost));
    float nsq = 0.0f; for (int i = 0; i < 64; i++) nsq += hp[i];
    float norm = sqrtf(nsq);
    float scale = norm > 1.0f ? 1.0f / norm : 1.0f;
    b1pow *= beta1; b2pow *= beta2;
    float b1c = 1.0f - b1pow, b2c = 1.0f - b2pow;
    adamw_kernel<<<(unsigned)((n + 511) / 512), 512>>>(params, step % 2 ? master : NULL, grads, m, v, n, lr, beta1, beta2, b1c, b2c, 1e-8f, 0.1f, scale, 1234u + step);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_params, params, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_master, master, n * 4, cudaMemcpyDeviceToHost));
    printf("step %d norm %a params fnv %08x master fnv %08x p[0] %a p[777] %a\n", step, norm, fnv(h_params, n * 2), fnv(h_master, n * 4),
           __bfloat162float(h_params[0]), __bfloat162float(h_params[777]));
  }
  float* h_m = (float*)malloc(n * 4); float* h_v = (float*)malloc(n * 4);
  CHECK(cudaMemcpy(h_m, m, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(h_v, v, n * 4, cudaMemcpyDeviceToHost));
  printf("m fnv %08x v fnv %08x m[3] %a v[3] %a\n", fnv(h_m, n * 4), fnv(h_v, n * 4), h_m[3], h_v[3]);
  return 0;
}
